// The indicator list: format, normalisation, matching, bad lines reported by number without their text, the shipped list.
import { describe, expect, it } from 'vitest';
import { loadIndicators } from './index.js';
import { addressKey, parseIndicators } from './indicators.js';
import { isInternal, isMulticastOrBroadcast } from './net.js';

describe('parseIndicators', () => {
  const set = parseIndicators(
    [
      '# comment',
      '',
      'ip 192.0.2.1',
      'IP 2001:DB8::1 severity=low  # upper case is fine',
      'cidr 10.9.0.0/16',
      'cidr 2001:db8:ff00::/40',
      'domain Evil.Example.',
      'ja3 E7D705A3286E19EA42F587B344EE6865',
      'ja4 t13d1516h2_8daaf6152771_e5627efa2ab1',
      'ip 999.1.1.1',
      'url http://x.example/secret-Zq9',
      'domain ok.example severity=extreme',
    ].join('\n'),
  );

  it('reads every valid line and reports the others by line number, never by content', () => {
    expect(set.count).toBe(7);
    expect(set.problems).toEqual([
      { line: 10, issue: 'not an IPv4 or IPv6 address' },
      { line: 11, issue: 'unknown indicator type' },
      { line: 12, issue: 'unknown option (severity=, technique= or stage=)' },
    ]);
    expect(JSON.stringify(set.problems)).not.toContain('Zq9');
  });

  it('matches addresses in any spelling, blocks, domains and their subdomains, fingerprints', () => {
    expect(set.matchAddress('192.0.2.1')?.line).toBe(3);
    expect(set.matchAddress('2001:db8:0:0::1')?.severity).toBe('low');
    expect(set.matchAddress('10.9.200.1')?.type).toBe('cidr');
    expect(set.matchAddress('10.10.0.1')).toBeUndefined();
    expect(set.matchAddress('2001:db8:ff12::5')?.type).toBe('cidr');
    expect(set.matchAddress('2001:db8:fe00::5')).toBeUndefined();
    expect(set.matchDomain('a.b.evil.example')?.value).toBe('evil.example');
    expect(set.matchDomain('notevil.example')).toBeUndefined();
    expect(set.matchJa3('e7d705a3286e19ea42f587b344ee6865')?.type).toBe('ja3');
    expect(set.matchJa4('t13d1516h2_8daaf6152771_e5627efa2ab1')?.type).toBe('ja4');
  });

  it('the shipped list reads without problems and names the demo infrastructure', () => {
    const shipped = loadIndicators();
    expect(shipped.problems).toEqual([]);
    expect(shipped.matchAddress('198.51.100.66')?.technique).toBe('T1071');
  });
});

describe('address facts', () => {
  it('knows private, loopback, link-local and ULA space, and multicast', () => {
    for (const a of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', 'fd00::1', 'fe80::1', '::1']) expect(isInternal(a), a).toBe(true);
    for (const a of ['172.32.0.1', '8.8.8.8', '198.51.100.1', '2001:db8::1', '100.128.0.1']) expect(isInternal(a), a).toBe(false);
    expect(isMulticastOrBroadcast('224.0.0.251')).toBe(true);
    expect(isMulticastOrBroadcast('ff02::1')).toBe(true);
    expect(isMulticastOrBroadcast('10.0.0.255')).toBe(true);
    expect(addressKey('::ffff:192.0.2.1')).toBe(addressKey('0:0:0:0:0:ffff:c000:201'));
    expect(addressKey('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });
});
