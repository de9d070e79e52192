// The detectors learn the synthetic task; every attack returns valid flows and lowers the scores it targets.
import { describe, expect, it } from 'vitest';
import { selectRows, type FeatureMatrix } from '../../core/ml/index.js';
import { invalidRows } from '../constraints/validity.js';
import { stratified7030 } from '../data/datasets.js';
import { syntheticFlows } from '../data/synthetic.js';
import { fitLogScaler, probabilityGradientZ, scoreDetector, trainDetector, type Detector } from '../detectors/models.js';
import { adaptiveAttack, attackSpace, blackBoxAttack, gradientAttack } from './attacks.js';

const table = syntheticFlows(2500, { seed: 5 });
const { train, test } = stratified7030(table, 0);
const xtr = selectRows(table.x, train);
const ytr = Array.from(train, (i) => table.y[i]!);
const scaler = fitLogScaler(xtr);
const space = attackSpace(table.schema, scaler);
const settings = { quick: true, seed: 0 };
const mlp = trainDetector('mlp', xtr, ytr, settings);
const gbdt = trainDetector('gbdt', xtr, ytr, settings);
const malicious = Array.from(test).filter((i) => table.y[i] === 1).slice(0, 120);
const xm = selectRows(table.x, malicious);

const mean = (a: Float64Array): number => a.reduce((s, v) => s + v, 0) / a.length;
const scorer = (d: Detector) => (x: FeatureMatrix): Float64Array => scoreDetector(d, x);
const oracle = (d: Detector) => (row: Float64Array) => probabilityGradientZ(d, row, scaler);

describe('detectors and constrained attacks on synthetic flows', () => {
  it('detectors separate the classes', () => {
    const xte = selectRows(table.x, test);
    for (const d of [mlp, gbdt, trainDetector('random_forest', xtr, ytr, settings), trainDetector('logistic', xtr, ytr, settings)]) {
      const p = scoreDetector(d, xte);
      let correct = 0;
      test.forEach((i, r) => (correct += (p[r]! >= 0.5 ? 1 : 0) === table.y[i] ? 1 : 0));
      expect(correct / test.length, d.kind).toBeGreaterThan(0.9);
    }
  });

  it('the gradient attack lowers the MLP score and every adversarial row is valid', () => {
    const before = scoreDetector(mlp, xm);
    const r = gradientAttack(space, oracle(mlp), scorer(mlp), xm, 1);
    expect(mean(r.scores)).toBeLessThan(mean(before));
    expect(invalidRows(table.schema, xm, r.adversarial)).toEqual({ count: 0, examples: [] });
  });

  it('black-box search on the trees returns valid rows within 101 queries', () => {
    const r = blackBoxAttack(space, scorer(gbdt), xm, 1, { seed: 1 });
    expect(r.queries).toBeLessThanOrEqual(101);
    expect(mean(r.scores)).toBeLessThanOrEqual(mean(scoreDetector(gbdt, xm)));
    expect(invalidRows(table.schema, xm, r.adversarial)).toEqual({ count: 0, examples: [] });
  });

  it('the adaptive attack (transfer then black box) is at least as strong as black box alone and valid', () => {
    const a = adaptiveAttack(space, { score: scorer(gbdt) }, [oracle(mlp)], xm, 1, { seed: 1 });
    expect(invalidRows(table.schema, xm, a.adversarial)).toEqual({ count: 0, examples: [] });
    const orig = scoreDetector(gbdt, xm);
    a.scores.forEach((s, i) => expect(s).toBeLessThanOrEqual(orig[i]!));
    // The returned scores are the target's scores of the returned flows.
    expect([...scoreDetector(gbdt, a.adversarial)]).toEqual([...a.scores]);
  });

  it('eps 0 changes nothing', () => {
    const r = gradientAttack(space, oracle(mlp), scorer(mlp), xm, 0);
    expect([...r.adversarial.data]).toEqual([...xm.data]);
  });
});
