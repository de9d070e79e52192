// The XGBoost importer: float32-exact thresholds, and (where python3-xgboost is installed) predictions and TreeSHAP equal to XGBoost's own predict and pred_contribs.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { featureMatrix, matrixFromRows } from './dataset.js';
import { predictMargin } from './gbdt.js';
import { nextUp } from './metrics.js';
import { gbdtModelFromJson, gbdtModelToJson } from './model.js';
import { runPythonOracle } from './python.fixture.js';
import { Random } from './random.js';
import { TreeExplainer } from './treeshap.js';
import { float32Threshold, importXgboostDump, importXgboostModel } from './xgboost.js';
import { skipWithout } from '../../../test/oracles.js';

function prevDouble(x: number): number {
  return -nextUp(-x);
}

describe('float32 thresholds', () => {
  it('x < t\' exactly when float32(x) < t, at midpoints and neighbours too', () => {
    const rng = new Random(41);
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    const ts = [0, -0, 1, -1, 0.1, 3.4028234663852886e38, -3.4028234663852886e38, 1.401298464324817e-45, -1.401298464324817e-45];
    for (let i = 0; i < 400; i++) ts.push(Math.fround(rng.normal() * 10 ** rng.int(12)));
    for (const raw of ts) {
      const t = Math.fround(raw);
      const tt = float32Threshold(t);
      u32[0] = 0;
      f32[0] = t;
      const bits = u32[0]!;
      u32[0] = t > 0 ? bits - 1 : t < 0 ? bits + 1 : 0x80000001;
      const below = Number.isFinite(f32[0]!) ? f32[0]! : -(2 ** 128);
      const mid = (below + t) / 2;
      const probes = [t, nextUp(t), prevDouble(t), mid, nextUp(mid), prevDouble(mid), below, (mid + t) / 2, (mid + below) / 2];
      for (const x of probes) if (Number.isFinite(x)) expect(x < tt, `t=${t} x=${x}`).toBe(Math.fround(x) < t);
    }
    expect(float32Threshold(Infinity)).toBe(Infinity);
  });
});

describe('importer input checks', () => {
  const tree = { left_children: [1, -1, -1], right_children: [2, -1, -1], split_indices: [0, 0, 0], split_conditions: [0.5, -0.1, 0.2], default_left: [1, 0, 0], sum_hessian: [4, 2, 2] };
  const saved = (patch: Record<string, unknown> = {}, treePatch: Record<string, unknown> = {}): unknown => ({
    learner: {
      gradient_booster: { name: 'gbtree', model: { trees: [{ ...tree, ...treePatch }] } },
      learner_model_param: { base_score: '5E-1', num_feature: '2', num_class: '0' },
      objective: { name: 'binary:logistic' },
      ...patch,
    },
    version: [1, 7, 4],
  });

  it('imports a small model and refuses what it cannot represent', () => {
    const m = importXgboostModel(saved());
    expect(m.trees[0]!.value[1]).toBe(-0.1);
    expect(m.trees[0]!.defaultLeft[0]).toBe(1);
    expect(predictMargin(m, matrixFromRows([[0.2, 0], [NaN, 0], [0.9, 0]]))).toEqual(Float64Array.from([-0.1, -0.1, 0.2]));
    expect(gbdtModelFromJson(gbdtModelToJson(m)).metadata?.['xgboost_version']).toBe('1.7.4');
    const bad = [
      saved({ objective: { name: 'multi:softprob' } }),
      saved({ learner_model_param: { base_score: '0.5', num_feature: '2', num_class: '3' } }),
      saved({ gradient_booster: { name: 'dart', model: { trees: [tree] } } }),
      saved({}, { split_type: [1, 0, 0] }),
      saved({}, { right_children: [1, -1, -1] }),
      saved({}, { sum_hessian: [4, 2] }),
      saved({}, { split_indices: [5, 0, 0] }),
      { learner: {} },
    ];
    for (const b of bad) expect(() => importXgboostModel(b)).toThrow(VitrineError);
  });

  it('dump import needs covers', () => {
    const dump = JSON.stringify({ nodeid: 0, split: 'f1', split_condition: 0.5, yes: 1, no: 2, missing: 2, children: [{ nodeid: 1, leaf: 0.1 }, { nodeid: 2, leaf: -0.1 }] });
    expect(() => importXgboostDump([dump], { baseScore: 0.5, objective: 'binary:logistic' })).toThrow(/with_stats/);
    const withStats = JSON.stringify({ nodeid: 0, split: 'f1', split_condition: 0.5, yes: 1, no: 2, missing: 2, cover: 4, children: [{ nodeid: 1, leaf: 0.1, cover: 1 }, { nodeid: 2, leaf: -0.1, cover: 3 }] });
    const m = importXgboostDump([withStats], { baseScore: 0.5, objective: 'binary:logistic' });
    expect(m.numFeatures).toBe(2);
    expect(m.trees[0]!.defaultLeft[0]).toBe(0);
    expect(() => importXgboostDump(['{'], { baseScore: 0.5, objective: 'binary:logistic' })).toThrow(VitrineError);
  });
});

interface XgbOracle {
  version: string;
  pred_test_margin: number[];
  contribs_test: number[][];
  dump: string[];
  model: unknown;
}

describe.skipIf(skipWithout('xgboost'))('against XGBoost', () => {
  it('imported models predict and explain as XGBoost does (save_model JSON and dump)', () => {
    const rng = new Random(42);
    const cols = 8;
    const train: (number | null)[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 600; i++) {
      const r = Array.from({ length: cols }, () => rng.normal());
      const z = r[0]! - 0.8 * r[1]! + r[2]! * r[3]! + (r[4]! > 0.3 ? 1 : 0) + 0.5 * rng.normal();
      y.push(z > 0 ? 1 : 0);
      train.push(r.map((v) => (rng.next() < 0.08 ? null : v)));
    }
    // Test rows sit on and beside the training values, where float32 and float64 comparisons disagree.
    const test: (number | null)[][] = [];
    for (let i = 0; i < 120; i++) {
      const src = train[rng.int(train.length)]!;
      test.push(
        src.map((v) => {
          if (v === null) return rng.next() < 0.5 ? null : rng.normal();
          const k = rng.int(4);
          return k === 0 ? v : k === 1 ? Math.fround(v) : k === 2 ? nextUp(Math.fround(v)) : prevDouble(Math.fround(v));
        }),
      );
    }
    const params = { objective: 'binary:logistic', eta: 0.3, max_depth: 4, lambda: 1, min_child_weight: 1, base_score: 0.5, max_bin: 64 };
    const out = runPythonOracle<XgbOracle>('xgboost_oracle.py', { train_x: train, train_y: y, test_x: test, params, rounds: 25 });
    const tx = matrixFromRows(test.map((r) => r.map((v) => v ?? NaN)));
    const fromModel = importXgboostModel(out.model);
    const fromDump = importXgboostDump(out.dump, { baseScore: 0.5, objective: 'binary:logistic', numFeatures: cols });
    for (const model of [fromModel, fromDump]) {
      expect(model.trees.length).toBe(25);
      const margin = predictMargin(model, tx);
      out.pred_test_margin.forEach((v, i) => expect(Math.abs(margin[i]! - v), `row ${i}`).toBeLessThan(1e-5));
      const contribs = new TreeExplainer(model).explainMatrix(tx);
      out.contribs_test.forEach((row, i) => row.forEach((v, f) => expect(Math.abs(contribs[i * (cols + 1) + f]! - v), `row ${i} feature ${f}`).toBeLessThan(1e-5)));
    }
    // Without the float32 correction some of these rows would cross a split the other way.
    const loose = importXgboostModel(out.model, { exactFloat32: false });
    const looseMargin = predictMargin(loose, tx);
    expect(out.pred_test_margin.some((v, i) => Math.abs(looseMargin[i]! - v) > 1e-4)).toBe(true);
    // On data that is float32 already, XGBoost's thresholds as they are give the same answer.
    const rounded = featureMatrix(tx.rows, cols, Float64Array.from(tx.data, (v) => Math.fround(v)));
    expect([...predictMargin(loose, rounded)].map((v) => v.toFixed(5))).toEqual([...predictMargin(fromModel, rounded)].map((v) => v.toFixed(5)));
  });
});
