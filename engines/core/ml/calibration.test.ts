// Calibration: pool-adjacent-violators by hand, monotonicity, Platt's fit recovering a known sigmoid, and the JSON schema.
import { describe, expect, it } from 'vitest';
import { calibrate, calibrationSchema, fitCalibration, fitIsotonic, fitPlatt } from './calibration.js';
import { Random } from './random.js';

describe('isotonic regression', () => {
  it('pools adjacent violators', () => {
    const iso = fitIsotonic([1, 2, 3, 4, 5, 6, 7], [1, 0, 1, 0, 0, 1, 1]);
    const fitted = [1, 2, 3, 4, 5, 6, 7].map((s) => calibrate(iso, s));
    // Labels 1 0 1 0 0 violate the order until all five pool to their mean 0.4; the last two stay 1.
    expect(fitted).toEqual([0.4, 0.4, 0.4, 0.4, 0.4, 1, 1]);
  });

  it('pools tied scores first and interpolates between blocks', () => {
    const iso = fitIsotonic([0, 0, 1, 2], [0, 1, 0, 1]);
    // Score 0 has mean 0.5, score 1 has 0: they pool to 1/3; score 2 is 1.
    expect(calibrate(iso, 0)).toBeCloseTo(1 / 3, 15);
    expect(calibrate(iso, 1)).toBeCloseTo(1 / 3, 15);
    expect(calibrate(iso, 1.5)).toBeCloseTo(2 / 3, 15);
    expect(calibrate(iso, -5)).toBeCloseTo(1 / 3, 15);
    expect(calibrate(iso, 9)).toBe(1);
  });

  it('is non-decreasing on random data and never leaves [0, 1]', () => {
    const rng = new Random(4);
    const s = Array.from({ length: 500 }, () => rng.normal());
    const y = s.map((v) => (rng.next() < 1 / (1 + Math.exp(-2 * v)) ? 1 : 0));
    const iso = fitIsotonic(s, y);
    let prev = -1;
    for (let g = -4; g <= 4; g += 0.01) {
      const p = calibrate(iso, g);
      expect(p).toBeGreaterThanOrEqual(prev);
      expect(p >= 0 && p <= 1).toBe(true);
      prev = p;
    }
    expect(calibrationSchema.safeParse(iso).success).toBe(true);
  });
});

describe('Platt scaling', () => {
  it('recovers the sigmoid that generated the labels', () => {
    const rng = new Random(8);
    const n = 20000;
    const s: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < n; i++) {
      const v = rng.uniform(-3, 3);
      s.push(v);
      y.push(rng.next() < 1 / (1 + Math.exp(-(1.7 * v - 0.4))) ? 1 : 0);
    }
    const p = fitPlatt(s, y);
    expect(p.a).toBeGreaterThan(1.55);
    expect(p.a).toBeLessThan(1.85);
    expect(p.b).toBeGreaterThan(-0.5);
    expect(p.b).toBeLessThan(-0.3);
  });

  it('is at a stationary point of its smoothed objective', () => {
    const s = [-2, -1, -0.5, 0, 0.3, 1, 1.5, 2.5];
    const y = [0, 0, 1, 0, 1, 0, 1, 1];
    const p = fitPlatt(s, y);
    const hi = (4 + 1) / (4 + 2);
    const lo = 1 / (4 + 2);
    let ga = 0;
    let gb = 0;
    s.forEach((v, i) => {
      const q = calibrate(p, v);
      const t = y[i] === 1 ? hi : lo;
      ga += (q - t) * v;
      gb += q - t;
    });
    expect(Math.abs(ga)).toBeLessThan(1e-8);
    expect(Math.abs(gb)).toBeLessThan(1e-8);
  });

  it('separable data stays finite thanks to the smoothed targets', () => {
    const p = fitCalibration('platt', [-1, -0.5, 0.5, 1], [0, 0, 1, 1]);
    expect(p.method).toBe('platt');
    if (p.method === 'platt') expect(Number.isFinite(p.a) && Number.isFinite(p.b)).toBe(true);
  });
});

describe('schema', () => {
  it('rejects malformed calibrations', () => {
    expect(calibrationSchema.safeParse({ method: 'platt', a: 1, b: 0 }).success).toBe(true);
    expect(calibrationSchema.safeParse({ method: 'platt', a: 1 }).success).toBe(false);
    expect(calibrationSchema.safeParse({ method: 'isotonic', x: [0, 1], y: [0.5] }).success).toBe(false);
    expect(calibrationSchema.safeParse({ method: 'isotonic', x: [1, 0], y: [0, 1] }).success).toBe(false);
    expect(calibrationSchema.safeParse({ method: 'isotonic', x: [0, 1], y: [0.6, 0.5] }).success).toBe(false);
    expect(calibrationSchema.safeParse({ method: 'sigmoid', a: 1, b: 0 }).success).toBe(false);
  });
});
