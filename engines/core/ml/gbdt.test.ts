// Boosting: hand-computed leaves, learning, missing values, regularisation, early stopping, the model file, and the same model as XGBoost (hist) where installed.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { featureMatrix, matrixFromRows, type FeatureMatrix } from './dataset.js';
import { baseMargin, featureImportance, predict, predictMargin, predictMarginRow, sigmoid, trainDecisionTree, trainGbdt, type GbdtModel } from './gbdt.js';
import { computeCuts, binOf } from './hist.js';
import { rocAuc } from './metrics.js';
import { gbdtModelFromJson, gbdtModelToJson, isGbdtModelJson, parseGbdtModel, serializeGbdtModel } from './model.js';
import { runPythonOracle } from './python.fixture.js';
import { Random } from './random.js';
import { syntheticBinary } from './synthetic.js';
import { treeDepth } from './tree.js';
import { skipWithout } from '../../../test/oracles.js';

const synthetic = (n: number, cols: number, seed: number, missing = 0): ReturnType<typeof syntheticBinary> => syntheticBinary(n, cols, seed, { missing });

function rows(x: FeatureMatrix, from: number, to: number): FeatureMatrix {
  return featureMatrix(to - from, x.cols, x.data.slice(from * x.cols, to * x.cols));
}

describe('bins', () => {
  it('one bin per distinct value (cut = next value), quantiles beyond max bins', () => {
    const x = matrixFromRows([[3], [1], [2], [2], [NaN], [1]]);
    const { cuts, minValues } = computeCuts(x, 256);
    expect([...cuts[0]!]).toEqual([2, 3]);
    expect(minValues[0]).toBe(1);
    expect([1, 2, 2.5, 3, 9, NaN].map((v) => binOf(cuts[0]!, v))).toEqual([0, 1, 1, 2, 2, 3]);
    const many = featureMatrix(1000, 1, Float64Array.from({ length: 1000 }, (_, i) => i));
    const q = computeCuts(many, 10).cuts[0]!;
    expect(q.length).toBe(9);
    expect([...q]).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });
});

describe('trainGbdt', () => {
  it('a stump has the second-order leaf values by hand', () => {
    const x = matrixFromRows([[0], [1], [2], [3]]);
    const m = trainGbdt({ x, y: [0, 0, 1, 1] }, { rounds: 1, eta: 1, maxDepth: 1, lambda: 1, minChildWeight: 0, baseScore: 0.5 });
    const t = m.trees[0]!;
    // g = p - y = ±0.5, h = 0.25 each: G_L = 1, H_L = 0.5 -> w = -1/1.5; gain = 2 * 1/1.5.
    expect(t.feature[0]).toBe(0);
    expect(t.threshold[0]).toBe(2);
    expect(t.value[t.left[0]!]).toBeCloseTo(-1 / 1.5, 15);
    expect(t.value[t.right[0]!]).toBeCloseTo(1 / 1.5, 15);
    expect(t.gain[0]).toBeCloseTo(4 / 3, 15);
    expect(t.cover[0]).toBe(1);
    expect(predictMarginRow(m, [0.5])).toBeCloseTo(-1 / 1.5, 15);
  });

  it('learns a nonlinear task, deterministically per seed', () => {
    const { x, y } = synthetic(3000, 8, 1);
    const train = { x: rows(x, 0, 2400), y: y.subarray(0, 2400) };
    const test = rows(x, 2400, 3000);
    const params = { rounds: 40, eta: 0.2, maxDepth: 4, subsample: 0.8, colsampleByTree: 0.8, seed: 3 };
    const m = trainGbdt(train, params);
    expect(m.trees.length).toBe(40);
    const auc = rocAuc(predict(m, test), y.subarray(2400));
    expect(auc).toBeGreaterThan(0.9);
    for (const t of m.trees) expect(treeDepth(t)).toBeLessThanOrEqual(4);
    expect([...predictMargin(trainGbdt(train, params), test)]).toEqual([...predictMargin(m, test)]);
    expect([...predictMargin(trainGbdt(train, { ...params, seed: 4 }), test)]).not.toEqual([...predictMargin(m, test)]);
    // The base score defaults to the label mean.
    expect(m.baseScore).toBeCloseTo([...train.y].reduce((a, b) => a + b, 0) / 2400, 12);
    const imp = featureImportance(m);
    const order = [...imp.keys()].sort((a, b) => imp[b]! - imp[a]!);
    expect(order.slice(0, 2)).toContain(0);
    expect(imp[7]! + imp[6]! + imp[5]!).toBeLessThan(imp[0]!);
  });

  it('learns where missing values go', () => {
    const rng = new Random(2);
    const n = 400;
    const data = new Float64Array(n * 2);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const miss = rng.next() < 0.3;
      data[i * 2] = miss ? NaN : rng.uniform(0, 1);
      data[i * 2 + 1] = rng.uniform(0, 1);
      y[i] = miss || data[i * 2]! > 0.8 ? 1 : 0; // missing behaves like a high value
    }
    const m = trainGbdt({ x: featureMatrix(n, 2, data), y }, { rounds: 20, maxDepth: 2 });
    expect(sigmoid(predictMarginRow(m, [NaN, 0.5]))).toBeGreaterThan(0.9);
    expect(sigmoid(predictMarginRow(m, [0.95, 0.5]))).toBeGreaterThan(0.9);
    expect(sigmoid(predictMarginRow(m, [0.3, 0.5]))).toBeLessThan(0.1);
  });

  it('gamma prunes weak splits and min child weight bounds leaf covers', () => {
    const { x, y } = synthetic(1000, 5, 3);
    const loose = trainGbdt({ x, y }, { rounds: 5, maxDepth: 6, minChildWeight: 0 });
    const pruned = trainGbdt({ x, y }, { rounds: 5, maxDepth: 6, minChildWeight: 0, gamma: 2 });
    const nodes = (m: GbdtModel): number => m.trees.reduce((s, t) => s + t.left.length, 0);
    expect(nodes(pruned)).toBeLessThan(nodes(loose));
    // As XGBoost's pruner: a split whose children are both leaves has gain of at least gamma (weaker splits above stronger ones stay).
    for (const t of pruned.trees)
      for (let i = 0; i < t.left.length; i++) {
        if (t.left[i]! >= 0 && t.left[t.left[i]!]! < 0 && t.left[t.right[i]!]! < 0) expect(t.gain[i]).toBeGreaterThanOrEqual(2);
      }
    const heavy = trainGbdt({ x, y }, { rounds: 5, maxDepth: 6, minChildWeight: 10 });
    for (const t of heavy.trees) for (let i = 1; i < t.left.length; i++) expect(t.cover[i]).toBeGreaterThanOrEqual(10);
    // Children's covers add up to the parent's.
    for (const t of heavy.trees)
      for (let i = 0; i < t.left.length; i++) if (t.left[i]! >= 0) expect(t.cover[t.left[i]!]! + t.cover[t.right[i]!]!).toBeCloseTo(t.cover[i]!, 9);
  });

  it('weights act as repeated rows', () => {
    expect.hasAssertions();
    const x = matrixFromRows([[0], [1], [2], [3], [4]]);
    const a = trainGbdt({ x, y: [0, 1, 0, 1, 1], weights: [1, 2, 1, 1, 3] }, { rounds: 3, maxDepth: 2, minChildWeight: 0 });
    const xr = matrixFromRows([[0], [1], [1], [2], [3], [4], [4], [4]]);
    const b = trainGbdt({ x: xr, y: [0, 1, 1, 0, 1, 1, 1, 1] }, { rounds: 3, maxDepth: 2, minChildWeight: 0 });
    for (const v of [0, 1, 2, 3, 4, 5]) expect(predictMarginRow(a, [v])).toBeCloseTo(predictMarginRow(b, [v]), 12);
  });

  it('stops early at the best validation round', () => {
    const { x, y } = synthetic(1600, 6, 4);
    // Flip a third of the training labels so that later rounds overfit.
    const rng = new Random(5);
    const noisy = y.slice(0, 1200).map((v) => (rng.next() < 0.3 ? 1 - v : v));
    const valid = { x: rows(x, 1200, 1600), y: y.subarray(1200) };
    const reports: number[] = [];
    const m = trainGbdt({ x: rows(x, 0, 1200), y: noisy }, { rounds: 300, eta: 0.3, maxDepth: 6, validation: valid, earlyStoppingRounds: 10, onRound: (r) => reports.push(r.validation!) });
    expect(reports.length).toBeLessThan(300);
    expect(m.bestIteration).toBe(reports.indexOf(Math.min(...reports)));
    expect(m.trees.length).toBe(m.bestIteration! + 1);
    expect(reports.length).toBe(m.bestIteration! + 11);
    const p = predict(m, valid.x);
    let ll = 0;
    valid.y.forEach((v, i) => (ll -= v ? Math.log(p[i]!) : Math.log(1 - p[i]!)));
    expect(ll / valid.y.length).toBeCloseTo(m.bestScore!, 10);
    const auc = trainGbdt({ x: rows(x, 0, 1200), y: noisy }, { rounds: 50, validation: valid, earlyStoppingRounds: 5, evalMetric: 'auc' });
    expect(auc.bestScore).toBeGreaterThan(0.8);
  });

  it('squared error regression', () => {
    expect.hasAssertions();
    const rng = new Random(6);
    const n = 500;
    const data = Float64Array.from({ length: n }, () => rng.uniform(-2, 2));
    const y = data.map((v) => v * v);
    const m = trainGbdt({ x: featureMatrix(n, 1, data), y }, { objective: 'reg:squarederror', rounds: 100, eta: 0.3, maxDepth: 3 });
    for (const v of [-1.5, -0.5, 0, 1, 1.8]) expect(Math.abs(predictMarginRow(m, [v]) - v * v)).toBeLessThan(0.15);
  });

  it('a single decision tree predicts the mean label of each leaf', () => {
    const x = matrixFromRows([[0], [0], [1], [1], [1], [2], [2], [2], [2]]);
    const y = [0, 1, 1, 1, 0, 1, 1, 1, 1];
    const t = trainDecisionTree({ x, y }, { maxDepth: 2 });
    expect(predictMarginRow(t, [0])).toBeCloseTo(0.5, 14);
    expect(predictMarginRow(t, [1])).toBeCloseTo(2 / 3, 14);
    expect(predictMarginRow(t, [2])).toBeCloseTo(1, 14);
    const stump = trainDecisionTree({ x, y }, { maxDepth: 0 });
    expect(predictMarginRow(stump, [1])).toBeCloseTo(7 / 9, 14);
  });

  it('refuses bad parameters and data', () => {
    const x = matrixFromRows([[0], [1]]);
    expect(() => trainGbdt({ x, y: [0, 2] })).toThrow(VitrineError);
    expect(() => trainGbdt({ x, y: [0] })).toThrow(VitrineError);
    expect(() => trainGbdt({ x, y: [0, 1] }, { eta: 0 })).toThrow(VitrineError);
    expect(() => trainGbdt({ x, y: [0, 1] }, { maxDepth: 31 })).toThrow(VitrineError);
    expect(() => trainGbdt({ x, y: [0, 1] }, { earlyStoppingRounds: 3 })).toThrow(VitrineError);
    const ctl = new AbortController();
    ctl.abort();
    expect(() => trainGbdt({ x, y: [0, 1] }, { signal: ctl.signal })).toThrow(/cancelled/);
  });
});

describe('vitrine-gbdt-1 file', () => {
  const { x, y } = synthetic(600, 5, 7, 0.1);
  // A cut at +Infinity must survive JSON.
  x.data[0] = Infinity;
  const model: GbdtModel = {
    ...trainGbdt({ x, y }, { rounds: 8, maxDepth: 3, featureNames: ['a', 'b', 'c', 'd', 'e'] }),
    featureLayout: 'test-layout-1',
    calibration: { method: 'platt', a: 1.1, b: -0.2 },
    thresholds: [{ name: 'malicious', targetFpr: 0.001, threshold: 0.93, fpr: 0.001, tpr: 0.8 }],
    metadata: { families: ['a', 'b'], trained: { rows: 600 } },
  };

  it('round-trips exactly and says what it is', () => {
    const text = serializeGbdtModel(model);
    const parsed = JSON.parse(text) as unknown;
    expect(isGbdtModelJson(parsed)).toBe(true);
    expect(isGbdtModelJson({ format: 'linear' })).toBe(false);
    const back = parseGbdtModel(text);
    expect([...predictMargin(back, x)]).toEqual([...predictMargin(model, x)]);
    expect(back.thresholds).toEqual(model.thresholds);
    expect(back.metadata).toEqual(model.metadata);
    expect(back.featureNames).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(baseMargin(back)).toBe(baseMargin(model));
  });

  it('rejects damaged files with a field path, never the value', () => {
    const good = gbdtModelToJson(model);
    const damaged = (change: (m: Record<string, unknown> & { trees: Record<string, unknown[]>[] }) => void): unknown => {
      const copy = JSON.parse(JSON.stringify(good)) as Record<string, unknown> & { trees: Record<string, unknown[]>[] };
      change(copy);
      return copy;
    };
    const cases: [string, unknown][] = [
      ['wrong format', damaged((m) => (m['format'] = 'vitrine-gbdt-2'))],
      ['unknown field', damaged((m) => (m['extra'] = 1))],
      ['base score 1', damaged((m) => (m['base_score'] = 1))],
      ['lengths', damaged((m) => m.trees[0]!['value']!.pop())],
      ['child out of range', damaged((m) => (m.trees[0]!['left']![0] = 9999))],
      ['cycle', damaged((m) => (m.trees[0]!['left']![0] = 0))],
      ['shared child', damaged((m) => (m.trees[0]!['right']![0] = m.trees[0]!['left']![0]))],
      ['feature out of range', damaged((m) => (m.trees[0]!['feature']![0] = 5))],
      ['one child', damaged((m) => (m.trees[0]!['right']![0] = -1))],
      ['negative cover', damaged((m) => (m.trees[0]!['cover']![1] = -1))],
      ['string value', damaged((m) => (m.trees[0]!['value']![1] = 'x'))],
      ['names', damaged((m) => (m['feature_names'] = ['a']))],
    ];
    for (const [what, value] of cases) {
      let err: unknown;
      try {
        gbdtModelFromJson(value);
      } catch (e) {
        err = e;
      }
      expect(err, what).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).code, what).toBe('validation_failed');
    }
    expect(() => parseGbdtModel('{')).toThrow(/not valid JSON/);
  });
});

interface XgbOracle {
  pred_train_margin: number[];
  pred_test_margin: number[];
  contribs_test: number[][];
  dump: string[];
  model: unknown;
}

describe.skipIf(skipWithout('xgboost'))('the same model as XGBoost hist', () => {
  it('grows the same trees on data with few distinct values and missing entries', () => {
    expect.hasAssertions();
    const rng = new Random(12);
    const n = 400;
    const cols = 5;
    const train: (number | null)[][] = [];
    const y: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = Array.from({ length: cols }, () => rng.int(10));
      const z = 0.6 * r[0]! - 0.4 * r[1]! + (r[2]! > 6 ? 2 : 0) + 0.3 * rng.normal() * 3 - 1.5;
      y.push(z > 0 ? 1 : 0);
      train.push(r.map((v, f) => ((f === 0 || f === 3) && rng.next() < 0.15 ? null : v)));
    }
    const test = Array.from({ length: 50 }, () => Array.from({ length: cols }, () => (rng.next() < 0.1 ? null : rng.int(12) - 1)));
    const params = { objective: 'binary:logistic', eta: 0.3, max_depth: 3, lambda: 1, min_child_weight: 1, base_score: 0.5, max_bin: 256 };
    const out = runPythonOracle<XgbOracle>('xgboost_oracle.py', { train_x: train, train_y: y, test_x: test, params, rounds: 10 });
    const toMatrix = (r: (number | null)[][]): FeatureMatrix => matrixFromRows(r.map((row) => row.map((v) => v ?? NaN)));
    const ours = trainGbdt({ x: toMatrix(train), y }, { rounds: 10, eta: 0.3, maxDepth: 3, lambda: 1, minChildWeight: 1, baseScore: 0.5 });
    const trainMargin = predictMargin(ours, toMatrix(train));
    const testMargin = predictMargin(ours, toMatrix(test));
    out.pred_train_margin.forEach((v, i) => expect(trainMargin[i]).toBeCloseTo(v, 5));
    out.pred_test_margin.forEach((v, i) => expect(testMargin[i]).toBeCloseTo(v, 5));
    // Same split features and thresholds, tree by tree (compared as sorted lists: node numbering differs).
    out.dump.forEach((text, k) => {
      const splits: string[] = [];
      const walk = (node: { split?: string; split_condition?: number; children?: unknown[] }): void => {
        if (node.split !== undefined) splits.push(`${node.split.replace('f', '')}<${node.split_condition}`);
        for (const c of node.children ?? []) walk(c as typeof node);
      };
      walk(JSON.parse(text) as Parameters<typeof walk>[0]);
      const t = ours.trees[k]!;
      const mine: string[] = [];
      for (let i = 0; i < t.left.length; i++) if (t.left[i]! >= 0) mine.push(`${t.feature[i]}<${t.threshold[i]}`);
      expect(mine.sort(), `tree ${k}`).toEqual(splits.sort());
    });
  });
});
