// The detectors' log features: exactly Math.log1p(max(0, v)) for every kind of value, whether looked up or computed,
// and tree scoring from raw flows (through raw cut points of the log thresholds) equal to the trees' prediction on the
// log features, on and beside every cut point; logistic regression trained from raw flows (its fit takes the logs)
// equal to the fit on logFeatures.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { featureMatrix, predict, Random, selectRows, syntheticBinary, trainLogistic, type FeatureMatrix } from '../../core/ml/index.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { loadData, type LoadedData } from '../data/datasets.js';
import { logCut, logFeatures, scoreDetector, trainDetector, type Detector } from './models.js';

const STEP_F = new Float64Array(1);
const STEP_B = new BigInt64Array(STEP_F.buffer);
/** The double k steps (in units in the last place) away from v. */
function step(v: number, k: bigint): number {
  STEP_F[0] = v;
  STEP_B[0] = STEP_B[0]! + k;
  return STEP_F[0];
}

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

  it('cut points: log1p(max(0, v)) >= t exactly when v >= logCut(t), checked on the neighbouring doubles', () => {
    const rng = new Random(4);
    const ts = [5e-324, 1e-300, 1e-17, 0.1, 0.5, Math.log1p(1), Math.log1p(65535), Math.log1p(2 ** 53), 34.5, 690.1, Math.log1p(Number.MAX_VALUE), 709.8, 1e308, Infinity];
    for (let k = 0; k < 3000; k++) ts.push(rng.uniform(0, 40), Math.log1p(rng.uniform(0, 70_000)), Math.log1p(Math.floor(rng.uniform(0, 1e9))), Math.fround(rng.uniform(0, 25)));
    const log = (v: number): number => Math.log1p(Math.max(0, v));
    const wrong: string[] = [];
    for (const t of ts) {
      const c = logCut(t);
      if (c === undefined) wrong.push(`threshold ${t}: no cut`);
      else
        for (let k = -20n; k <= 20n; k++) {
          const v = c === Infinity ? (k < 0n ? step(Number.MAX_VALUE, k + 1n) : Infinity) : step(c, k);
          if (v >= 0 && log(v) >= t !== v >= c) wrong.push(`threshold ${t}, value ${v}`);
        }
    }
    expect(wrong).toEqual([]);
    expect([logCut(0), logCut(-0), logCut(-3)]).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(logCut(NaN)).toBeNaN();
    // Every value passes a threshold at or below 0, negatives, -0 and -Infinity included (their log feature is 0).
    for (const v of [-Infinity, -1, -0, 0, 5e-324]) expect(v >= logCut(0)!).toBe(log(v) >= 0);
  });

  it('tree scores equal predict on the log features for values on, just below and just above every cut point', () => {
    const d = syntheticBinary(800, 5, 7, { missing: 0.05 });
    const raw = featureMatrix(d.x.rows, d.x.cols, d.x.data.map((v, i) => (i % 2 === 0 ? Math.abs(v) * 1000 : Math.abs(v) * 3)));
    const y = Array.from(d.y);
    for (const kind of ['gbdt', 'random_forest'] as const) {
      const det = trainDetector(kind, raw, y, { quick: true, seed: 2 });
      if (det.kind !== 'gbdt' && det.kind !== 'random_forest') throw new Error('unexpected detector kind');
      // Rows whose cells sit on a split's cut point of its own feature, one double below or above, or at expm1(t).
      const probe = Float64Array.from(raw.data);
      let i = 0;
      for (const t of det.model.trees)
        for (let k = 0; k < t.left.length; k++) {
          if (t.left[k]! < 0) continue;
          const c = logCut(t.threshold[k]!)!;
          const at = [c, step(c, -1n), step(c, 1n), Math.expm1(t.threshold[k]!)][i % 4]!;
          probe[(i++ % raw.rows) * raw.cols + t.feature[k]!] = Number.isFinite(at) ? at : c;
        }
      const x = featureMatrix(raw.rows, raw.cols, probe);
      const p = predict(det.model, logFeatures(x));
      if (kind === 'random_forest') for (let r = 0; r < p.length; r++) p[r] = Math.min(1, Math.max(0, p[r]!));
      expect(Array.from(scoreDetector(det, x))).toEqual(Array.from(p));
      expect(Array.from(scoreDetector(det, featureMatrix(7, raw.cols, probe.slice(0, 7 * raw.cols))))).toEqual(Array.from(p.slice(0, 7)));
    }
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

describe('logistic regression trained from raw flows', () => {
  /** The model bit for bit: weights, intercept, means and scales. */
  const bits = (d: Detector): string => {
    if (d.kind !== 'logistic') throw new Error('unexpected detector kind');
    const m = d.model;
    return createHash('sha256').update(Buffer.from(m.weights.buffer)).update(Buffer.from(Float64Array.of(m.intercept).buffer)).update(Buffer.from(m.mean.buffer)).update(Buffer.from(m.scale.buffer)).digest('hex');
  };
  /** The training path before the fit took the logs in its kernel: logFeatures, then the fit on them. */
  const reference = (x: FeatureMatrix, y: ArrayLike<number>): Detector => ({ kind: 'logistic', model: trainLogistic({ x: logFeatures(x), y }, { l2: 1 }) });

  it('gives the model of a fit on logFeatures bit for bit (whole numbers, fractions, zeros, negatives, missing values)', () => {
    const d = syntheticBinary(2000, 9, 5, { missing: 0.05 });
    const raw = featureMatrix(d.x.rows, d.x.cols, d.x.data.map((v, i) => (i % 4 === 0 ? Math.round(Math.abs(v) * 40_000) : i % 4 === 1 ? Math.abs(v) * 7 : i % 4 === 2 ? 0 : v)));
    const y = Array.from(d.y);
    expect(bits(trainDetector('logistic', raw, y, { quick: true, seed: 0 }))).toBe(bits(reference(raw, y)));
  });

  // The bench's data sets, as the bench hands them to trainDetector (the raw flows, and expm1 of their float32 logs).
  const sets: [string, () => Promise<LoadedData>][] = [['synthetic', () => loadData('synthetic', { syntheticRows: 20_000, seed: 0 })]];
  if (hasCorpora())
    sets.push(
      ['CICIDS2017 sample', () => loadData(corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'))],
      ['UNSW-NB15 sample', () => loadData(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv'))],
      ['UNSW-NB15 raw sample', () => loadData(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv'))],
    );
  it.each(sets)('gives the model of a fit on logFeatures bit for bit on the bench set %s', async (_, load) => {
    const { table, train } = await load();
    const xtr = selectRows(table.x, train);
    const ytr = Array.from(train, (i) => table.y[i]!);
    expect(bits(trainDetector('logistic', xtr, ytr, { quick: false, seed: 0 }))).toBe(bits(reference(xtr, ytr)));
    const back = featureMatrix(xtr.rows, xtr.cols, Float64Array.from(Float32Array.from(logFeatures(xtr).data), (v) => Math.expm1(v)));
    expect(bits(trainDetector('logistic', back, ytr, { quick: false, seed: 0 }))).toBe(bits(reference(back, ytr)));
  });
});
