// The PE checksum: the folded word sum equals pefile's dword loop, at every length, alignment and skipped word; 64-bit hex without BigInt.
import { describe, expect, it } from 'vitest';
import { peChecksum } from './headers.js';
import { hex64Of } from './image.js';

/** pefile generate_checksum as written there: add each dword, fold the carry at once, skip the CheckSum dword. */
function dwordLoop(data: Uint8Array, checksumOffset: number): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const whole = data.length >>> 2;
  const skip = Math.floor(checksumOffset / 4);
  let sum = 0;
  for (let i = 0; i < whole; i++) {
    if (i === skip) continue;
    sum += view.getUint32(i * 4, true);
    if (sum >= 0x1_0000_0000) sum -= 0xffff_ffff;
  }
  if (data.length % 4 !== 0 && whole !== skip) {
    let last = 0;
    for (let k = data.length - 1; k >= whole * 4; k--) last = last * 256 + (data[k] as number);
    sum += last;
    if (sum >= 0x1_0000_0000) sum -= 0xffff_ffff;
  }
  sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  sum = sum + Math.floor(sum / 0x10000);
  return (sum & 0xffff) + data.length;
}

describe('peChecksum', () => {
  it('equals the dword loop on seeded data, aligned and not, with the CheckSum word anywhere', () => {
    expect.hasAssertions();
    let seed = 7;
    const next = (): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed;
    };
    for (let round = 0; round < 400; round++) {
      const length = next() % 700;
      const backing = new Uint8Array(length + 3);
      // All 0xff bytes (sums landing on a multiple of 2^32 - 1), all zeros, and noise.
      const mode = round % 4;
      for (let i = 0; i < backing.length; i++) backing[i] = mode === 0 ? 0xff : mode === 1 ? 0 : next() & 0xff;
      const data = backing.subarray(round % 4, (round % 4) + length);
      const checksumOffset = next() % (length + 16);
      expect(peChecksum(data, checksumOffset), `round ${round}`).toBe(dwordLoop(data, checksumOffset));
    }
  });

  it('takes the dword sum of a file of more than a million words exactly (a 64-bit sum, folded once)', () => {
    const data = new Uint8Array(4 * 0x100000 + 4 * 3 + 1).fill(0xff);
    data[100] = 0x12;
    expect(peChecksum(data, 0xd8)).toBe(dwordLoop(data, 0xd8));
  });
});

describe('hex64Of', () => {
  it('writes a 64-bit value from its halves as BigInt does, without leading zeros', () => {
    expect.hasAssertions();
    let seed = 7;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    const cases: [number, number][] = [[0, 0], [0, 1], [1, 0], [0xffffffff, 0xffffffff], [0x10, 0xabc], [0, 0x80000000]];
    for (let k = 0; k < 2000; k++) cases.push([k % 4 === 0 ? 0 : next() >>> (k % 32), next() >>> (k % 29)]);
    for (const [hi, lo] of cases) expect(hex64Of(hi, lo)).toBe(`0x${((BigInt(hi) << 32n) | BigInt(lo)).toString(16)}`);
  });
});
