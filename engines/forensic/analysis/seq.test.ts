import { describe, expect, it } from 'vitest';
import { Rows, positionOf } from './seq.js';

describe('Rows', () => {
  const letters = ['a', 'b', 'c', 'd'];
  const rows = new Rows(letters.length, (k) => ({ v: letters[k] as string }));

  it('reads like the array it stands for, making each item on read', () => {
    expect(rows.length).toBe(4);
    expect([...rows].map((x) => x.v)).toEqual(letters);
    expect(rows.at(-1)?.v).toBe('d');
    expect(rows.at(4)).toBeUndefined();
    expect(rows.at(1.5)).toBeUndefined();
    expect(rows.at(0)).not.toBe(rows.at(0));
    expect(rows.filter((x, k) => x.v !== 'b' && k < 3).map((x) => x.v)).toEqual(['a', 'c']);
    expect(rows.map((x, k) => `${x.v}${k}`)).toEqual(['a0', 'b1', 'c2', 'd3']);
    expect(rows.some((x) => x.v === 'c')).toBe(true);
    for (const [s, e] of [[undefined, undefined], [1, undefined], [-2, undefined], [1, -1], [3, 1], [-9, 9]] as const) {
      expect(rows.slice(s, e).map((x) => x.v)).toEqual(letters.slice(s, e));
    }
  });

  it('positionOf follows Array.prototype.at', () => {
    expect([positionOf(0, 3), positionOf(-1, 3), positionOf(3, 3), positionOf(-4, 3), positionOf(NaN, 3)]).toEqual([0, 2, -1, -1, -1]);
  });
});
