// Shannon entropy in bits per byte: the known values at the extremes and in between.
import { describe, expect, it } from 'vitest';
import { byteHistogram, laneDifferenceEntropy, shannonEntropy } from './entropy.js';

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

  it('from two cumulative two-lane counts (one lane wrapped below zero) equals the entropy of the range', () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 7919) % 251);
    const lanes = new Uint32Array(1024);
    // Counts before offset 40 at 0, before offset 290 at 512; one byte moved between lanes, wrapping one of them.
    for (let i = 0; i < 40; i++) lanes[(i % 2) * 256 + (data[i] as number)]! += 1;
    for (let i = 0; i < 290; i++) lanes[512 + (i % 2) * 256 + (data[i] as number)]! += 1;
    const moved = data[289] as number;
    lanes[512 + 256 + moved]! += 1;
    lanes[512 + moved] = (lanes[512 + moved]! - 1) >>> 0;
    expect(laneDifferenceEntropy(lanes, 512, 0, 250)).toBe(shannonEntropy(data, 40, 290));
  });
});
