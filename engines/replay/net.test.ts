// IPv4 text to numbers: the character reader against the definition (four dot-separated parts of 1-3 ASCII digits, each <= 255).
import { describe, expect, it } from 'vitest';
import { ipv4Number, isInternal } from './net.js';

/** The definition, written plainly. */
function reference(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

describe('ipv4Number', () => {
  it('agrees with the definition on addresses, near misses and every one-character change of them', () => {
    expect.hasAssertions();
    const seeds = ['10.0.0.1', '255.255.255.255', '0.0.0.0', '001.02.3.4', '192.168.1.256', '1.2.3', '1.2.3.4.5', '1..2.3', '.1.2.3', '1.2.3.', '1234.1.1.1', '١.2.3.4', '1.2.3.4 ', '::1', ''];
    let accepted = 0;
    for (const seed of seeds) {
      const texts = [seed];
      for (let i = 0; i < seed.length; i++) for (const c of ['.', '9', 'a', '', '00']) texts.push(seed.slice(0, i) + c + seed.slice(i + 1));
      for (const t of texts) {
        const got = ipv4Number(t);
        expect(got, JSON.stringify(t)).toBe(reference(t));
        if (got !== undefined) accepted += 1;
      }
    }
    expect(accepted).toBeGreaterThan(50);
    expect(ipv4Number('192.168.1.2')).toBe(0xc0a80102);
    expect([isInternal('192.168.1.2'), isInternal('8.8.8.8'), isInternal('fe80::1'), isInternal('2001:db8::1')]).toEqual([true, false, true, false]);
  });
});
