// Shannon entropy in bits per byte: the known values at the extremes and in between.
import { describe, expect, it } from 'vitest';
import { byteHistogram, laneDifferenceEntropy, presentValues, shannonEntropy } from './entropy.js';

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

  it('limited to the byte values present in the whole input gives the same value, bit for bit', () => {
    // Few distinct values (most of the 256 absent), at cuts 0, 13, 77, 200 and the end.
    const data = Uint8Array.from({ length: 300 }, (_, i) => [0, 0, 0x41, 0x90, 0xff, 7, 0x41, 0][(i * 31) % 8 === 3 ? i % 8 : (i * 7) % 8] as number);
    const cuts = [0, 13, 77, 200, 300];
    const lanes = new Uint32Array(cuts.length * 512);
    cuts.forEach((cut, k) => {
      for (let i = 0; i < cut; i++) lanes[k * 512 + (i % 2) * 256 + (data[i] as number)]! += 1;
    });
    const values = new Uint8Array(256);
    const count = presentValues(lanes, 4 * 512, values);
    expect(Array.from(values.subarray(0, count))).toEqual([...new Set(data)].sort((a, b) => a - b));
    for (let to = 1; to < cuts.length; to++) {
      for (let from = 0; from < to; from++) {
        const total = (cuts[to] as number) - (cuts[from] as number);
        const full = laneDifferenceEntropy(lanes, to * 512, from * 512, total);
        expect(laneDifferenceEntropy(lanes, to * 512, from * 512, total, values, count)).toBe(full);
        expect(full).toBe(shannonEntropy(data, cuts[from], cuts[to]));
      }
    }
  });
});
