// Shannon entropy in bits per byte: the known values at the extremes and in between.
import { describe, expect, it } from 'vitest';
import { byteHistogram, entropyOfSum, shannonEntropy } from './entropy.js';

describe('shannonEntropy', () => {
  it('is 0 for no bytes and for a single repeated byte', () => {
    expect(shannonEntropy(new Uint8Array(0))).toBe(0);
    expect(shannonEntropy(new Uint8Array(4096).fill(0x41))).toBe(0);
  });

  it('is 8 when every byte value occurs equally often, 1 for two values', () => {
    expect(shannonEntropy(Uint8Array.from({ length: 256 * 16 }, (_, i) => i % 256))).toBeCloseTo(8, 12);
    expect(shannonEntropy(Uint8Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 0 : 0xff)))).toBeCloseTo(1, 12);
  });

  it('matches -sum p log2 p for a skewed distribution, and honours a sub-range', () => {
    const data = Uint8Array.from([1, 1, 1, 2, 9, 9, 9, 9]);
    const expected = -(3 / 8) * Math.log2(3 / 8) - (1 / 8) * Math.log2(1 / 8) - (4 / 8) * Math.log2(4 / 8);
    expect(shannonEntropy(data)).toBeCloseTo(expected, 12);
    expect(shannonEntropy(data, 4, 8)).toBe(0);
    expect(byteHistogram(data, 0, 3)[1]).toBe(3);
  });

  it('from a sum of c log2 c: 0 for no bytes, else the same value as from the bytes', () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 7919) % 251);
    const counts = byteHistogram(data);
    let sum = 0;
    for (const c of counts) if (c > 0) sum += c * Math.log2(c);
    expect(entropyOfSum(sum, 300)).toBe(shannonEntropy(data));
    expect(entropyOfSum(0, 0)).toBe(0);
  });
});
