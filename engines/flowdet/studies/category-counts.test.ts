import { describe, expect, it } from 'vitest';
import { categoryCounts } from './run.js';

describe('categoryCounts', () => {
  it('counts category texts named after Object.prototype members as any other, as own numbers', () => {
    const counts = categoryCounts(['BENIGN', 'constructor', '__proto__', 'constructor', 'toString', 'BENIGN', 'BENIGN']);
    expect(counts).toStrictEqual(JSON.parse('{"BENIGN":3,"constructor":2,"__proto__":1,"toString":1}'));
    expect(Object.values(counts).every((n) => typeof n === 'number')).toBe(true);
  });
});
