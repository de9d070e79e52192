// The detectors learn the synthetic task; every attack returns valid flows and lowers the scores it targets.
import { describe, expect, it } from 'vitest';
import { selectRows, type FeatureMatrix } from '../../core/ml/index.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { invalidRows, violations } from '../constraints/validity.js';
import { readFlowCsvFile, type FlowTable } from '../data/csv.js';
import { recomputeDerived, stratified7030 } from '../data/datasets.js';
import { syntheticFlows } from '../data/synthetic.js';
import { fitLogScaler, probabilityGradientZ, scoreDetector, trainDetector, type Detector } from '../detectors/models.js';
import { attackCurve } from '../studies/run.js';
import { newTally } from '../studies/tally.js';
import { adaptiveAttack, attackSpace, blackBoxAttack, gradientAttack, linfDistance } from './attacks.js';

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
    expect.hasAssertions();
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

  it("the adaptive attack (transfer then black box) never raises a score, returns the target's scores and valid rows", () => {
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

// Property: for every attack, dataset and budget, every returned row that is not dropped satisfies isValid and lies
// within the L-infinity ball in the attack space; dropped rows are returned unchanged and counted.
describe.skipIf(!hasCorpora())('budgets are kept by every attack on every dataset', () => {
  const datasets: [string, () => Promise<FlowTable>][] = [
    ['synthetic', () => Promise.resolve(syntheticFlows(1500, { seed: 8 }))],
    ['cicids2017', () => readFlowCsvFile(corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'))],
    ['unsw_nb15', () => readFlowCsvFile(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv'))],
  ];
  for (const [name, load] of datasets)
    it(`${name}: gradient, black-box and adaptive attacks at eps 0.1 to 2`, async () => {
      const t = recomputeDerived(await load());
      const sp = stratified7030(t, 1);
      const xs = selectRows(t.x, sp.train);
      const ys = Array.from(sp.train, (i) => t.y[i]!);
      const sc = fitLogScaler(xs);
      const sp2 = attackSpace(t.schema, sc);
      const m = trainDetector('mlp', xs, ys, { quick: true, seed: 1, scaler: sc });
      const g = trainDetector('gbdt', xs, ys, { quick: true, seed: 1 });
      const mal = Array.from(sp.test).filter((i) => t.y[i] === 1).slice(0, 40);
      const x = selectRows(t.x, mal);
      const orc = (row: Float64Array) => probabilityGradientZ(m, row, sc);
      let checked = 0;
      for (const eps of [0.1, 0.25, 0.5, 1, 2]) {
        const results = {
          gradient: gradientAttack(sp2, orc, scorer(m), x, eps),
          blackbox: blackBoxAttack(sp2, scorer(g), x, eps, { seed: 2, iters: 30 }),
          adaptive: adaptiveAttack(sp2, { score: scorer(g) }, [orc], x, eps, { seed: 3, iters: 30, restarts: 2 }),
        };
        for (const [attack, r] of Object.entries(results))
          for (let i = 0; i < x.rows; i++) {
            const o = x.data.subarray(i * x.cols, (i + 1) * x.cols);
            const a = r.adversarial.data.subarray(i * x.cols, (i + 1) * x.cols);
            if (r.dropped[i]) {
              expect([...a]).toEqual([...o]);
              continue;
            }
            checked++;
            expect(violations(t.schema, o, a), `${attack} eps ${eps} row ${i}`).toEqual([]);
            expect(linfDistance(sp2, o, a), `${attack} eps ${eps} row ${i}`).toBeLessThanOrEqual(eps + 1e-9);
          }
      }
      expect(checked).toBeGreaterThan(5 * 3 * x.rows * 0.5);
    }, 240_000);

  it('a study curve: no flow scores higher at a larger budget (warm start from the smaller budget), budgets kept', () => {
    const scores: Float64Array[] = [];
    const tally = newTally();
    const curve = attackCurve('gbdt', space, scorer(gbdt), undefined, [oracle(mlp)], xm, 0, 0, 3, tally, undefined, scores);
    expect(scores).toHaveLength(4);
    for (let k = 1; k < scores.length; k++) scores[k]!.forEach((s, i) => expect(s, `flow ${i} at eps ${curve.budgets[k]!.eps}`).toBeLessThanOrEqual(scores[k - 1]![i]!));
    expect(tally.max_linf_excess).toBeLessThanOrEqual(1e-9);
    expect(tally.invalid).toBe(0);
  }, 120_000);

  it('the adaptive attack is monotone in eps when warm-started, and at least as strong as black box alone', () => {
    expect.hasAssertions();
    let warm: ReturnType<typeof adaptiveAttack> | undefined;
    let prev = Infinity;
    for (const eps of [0.25, 0.5, 1, 2]) {
      const r = adaptiveAttack(space, { score: scorer(gbdt) }, [oracle(mlp)], xm, eps, { seed: 1, iters: 30, ...(warm ? { warm } : {}) });
      const bb = blackBoxAttack(space, scorer(gbdt), xm, eps, { seed: 1, iters: 30 });
      // At least as strong as black box alone: the adaptive attack's black-box stage starts from its best so far.
      let adaptiveDetected = 0;
      let bbDetected = 0;
      r.scores.forEach((s) => (adaptiveDetected += s >= 0.5 ? 1 : 0));
      bb.scores.forEach((s) => (bbDetected += s >= 0.5 ? 1 : 0));
      expect(adaptiveDetected).toBeLessThanOrEqual(bbDetected);
      if (warm) r.scores.forEach((s, i) => expect(s).toBeLessThanOrEqual(warm!.scores[i]!));
      let detected = 0;
      for (const s of r.scores) detected += s >= 0.5 ? 1 : 0;
      expect(detected).toBeLessThanOrEqual(prev);
      prev = detected;
      warm = r;
    }
  }, 120_000);
});
