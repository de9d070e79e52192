import { describe, expect, it } from 'vitest';
import { mulberry32 } from './random.js';

describe('mulberry32', () => {
  it('gives the sequences the synthetic data and pinned tests were made with', () => {
    const first = (seed: number): number[] => {
      const r = mulberry32(seed);
      return [r(), r(), r(), r()];
    };
    expect(first(0)).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197, 0.1462021479383111]);
    expect(first(1)).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741]);
    expect(first(42)).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693]);
    expect(first(2024)).toEqual([0.811762373894453, 0.7108214949257672, 0.6505258858669549, 0.6853262642398477]);
    // Seeds outside 0..2^32-1 are read as their low 32 bits.
    expect(first(0xffffffff)).toEqual([0.8964226141106337, 0.189478256739676, 0.7156526781618595, 0.9440599093213677]);
    expect(first(-7)).toEqual([0.43306733411736786, 0.32539576734416187, 0.5442695003002882, 0.48018999374471605]);
  });

  it('stays in [0, 1) and two generators of one seed agree', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    for (let i = 0; i < 10_000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
