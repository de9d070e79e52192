// keepLongest keeps what the comparison with every kept match kept: the same matches, in text order, on generated
// sets of overlapping intervals; and findPlaces reads a long run of place names without that comparison.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../core/random.js';
import { findPlaces, keepLongest } from './vocabulary.js';

interface M {
  readonly start: number;
  readonly end: number;
  readonly id: number;
}

function reference(found: readonly M[]): M[] {
  const order = [...found].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: M[] = [];
  for (const f of order) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  return kept.sort((a, b) => a.start - b.start);
}

describe('keepLongest', () => {
  it('keeps what the pairwise comparison kept', () => {
    const next = mulberry32(53);
    let dropped = 0;
    for (let k = 0; k < 20_000; k++) {
      const length = 1 + Math.floor(next() * 40);
      const found: M[] = Array.from({ length: Math.floor(next() * 12) }, (_, id) => {
        const start = Math.floor(next() * length);
        return { start, end: Math.min(length, start + 1 + Math.floor(next() * 8)), id };
      });
      const expected = reference(found);
      expect(keepLongest(found, length).map((m) => m.id), JSON.stringify(found)).toEqual(expected.map((m) => m.id));
      dropped += found.length - expected.length;
    }
    expect(dropped).toBeGreaterThan(10_000);
  });

  it('finds places in a long run of them, the longer name first', () => {
    expect(findPlaces(`${'Russia '.repeat(50_000)}South Korea`)).toEqual(['Russia', 'South Korea']);
  });
});
