import { describe, expect, it } from 'vitest';
import { grownColumn } from './columns.js';

describe('grownColumn', () => {
  it('keeps the type and the elements, and zeroes the rest', () => {
    const a = Float64Array.of(1.5, -2, 3);
    const b = grownColumn(a, 6);
    expect(b).toBeInstanceOf(Float64Array);
    expect([...b]).toEqual([1.5, -2, 3, 0, 0, 0]);
    const c = grownColumn(Int32Array.of(-1, 7), 3);
    expect(c).toBeInstanceOf(Int32Array);
    expect([...c]).toEqual([-1, 7, 0]);
  });

  it('never drops elements when asked for fewer, and leaves the original as it was', () => {
    const a = Uint8Array.of(9, 8, 7);
    const b = grownColumn(a, 1);
    expect([...b]).toEqual([9, 8, 7]);
    b[0] = 1;
    expect(a[0]).toBe(9);
  });
});
