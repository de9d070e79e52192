// The detectors' log features: exactly Math.log1p(max(0, v)) for every kind of value, whether looked up or computed,
// and tree scoring from raw flows equal to the trees' prediction on the log features.
import { describe, expect, it } from 'vitest';
import { featureMatrix, predict, Random, syntheticBinary } from '../../core/ml/index.js';
import { logFeatures, scoreDetector, trainDetector } from './models.js';

describe('log features', () => {
  it('equal Math.log1p(max(0, v)) bit for bit: whole numbers in and past the table, fractions, negatives, -0, NaN, infinities', () => {
    const values = [0, -0, 1, 2, 3, 80, 443, 1500, 65534, 65535, 65536, 65537, 1e6, 2 ** 31, 2 ** 31 - 1, 2 ** 32 + 5, 0.5, 1.25, 65535.5, 1e-300, -1, -3.5, -65536, NaN, Infinity, -Infinity, Number.MAX_VALUE, 5e-324];
    const rng = new Random(9);
    for (let k = 0; k < 2000; k++) values.push(Math.floor(rng.uniform(0, 70_000)), rng.uniform(0, 70_000));
    const got = logFeatures(featureMatrix(1, values.length, Float64Array.from(values))).data;
    values.forEach((v, i) => expect(Object.is(got[i], Math.log1p(Math.max(0, v))), `value ${v}`).toBe(true));
    const f32 = Float32Array.from(values);
    const got32 = logFeatures(featureMatrix(1, f32.length, f32)).data;
    f32.forEach((v, i) => expect(Object.is(got32[i], Math.log1p(Math.max(0, v))), `float32 value ${v}`).toBe(true));
  });

  it('boosted-tree and forest scores from raw flows equal predict on the log features', () => {
    const d = syntheticBinary(600, 6, 3, { missing: 0.1 });
    // Raw-looking flows: whole counts, some past the table, some fractional.
    const raw = featureMatrix(d.x.rows, d.x.cols, d.x.data.map((v, i) => (i % 3 === 0 ? Math.round(Math.abs(v) * 40_000) : i % 3 === 1 ? Math.abs(v) * 7 : v)));
    const y = Array.from(d.y);
    for (const kind of ['gbdt', 'random_forest'] as const) {
      const det = trainDetector(kind, raw, y, { quick: true, seed: 1 });
      if (det.kind !== 'gbdt' && det.kind !== 'random_forest') throw new Error('unexpected detector kind');
      const p = predict(det.model, logFeatures(raw));
      if (kind === 'random_forest') for (let i = 0; i < p.length; i++) p[i] = Math.min(1, Math.max(0, p[i]!));
      expect(Array.from(scoreDetector(det, raw))).toEqual(Array.from(p));
    }
  });
});
