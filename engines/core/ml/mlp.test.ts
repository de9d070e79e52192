// The perceptron: gradients against finite differences, learning a task a linear model cannot, early stopping, continued training, and the model file.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { featureMatrix, type FeatureMatrix } from './dataset.js';
import { predictLogistic, trainLogistic } from './linear.js';
import { rocAuc } from './metrics.js';
import {
  mlpInputGradient,
  mlpInputGradients,
  mlpMarginRow,
  mlpModelFromJson,
  mlpModelToJson,
  mlpParameterGradient,
  predictMlp,
  trainMlp,
  type MlpModel,
} from './mlp.js';
import { Random } from './random.js';

/** Two interleaved classes (XOR of signs), which no linear model separates. */
function xorData(n: number, seed: number): { x: FeatureMatrix; y: Float64Array } {
  const rng = new Random(seed);
  const data = new Float64Array(n * 3);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.uniform(-1, 1);
    const b = rng.uniform(-1, 1);
    data[i * 3] = a * 5 + 10;
    data[i * 3 + 1] = b;
    data[i * 3 + 2] = rng.normal();
    y[i] = a * b > 0 ? 1 : 0;
  }
  return { x: featureMatrix(n, 3, data), y };
}

/** Cross-entropy from the margin, stable where the probability rounds to 0 or 1. */
function loss(model: MlpModel, row: number[], label: number): number {
  const z = label ? -mlpMarginRow(model, row) : mlpMarginRow(model, row);
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

function randomModel(seed: number): MlpModel {
  const rng = new Random(seed);
  const F = 4;
  const H = 6;
  return {
    numFeatures: F,
    hidden: H,
    mean: Float64Array.from({ length: F }, () => rng.normal()),
    scale: Float64Array.from({ length: F }, () => rng.uniform(0.5, 3)),
    w1: Float64Array.from({ length: F * H }, () => rng.normal()),
    b1: Float64Array.from({ length: H }, () => rng.normal()),
    w2: Float64Array.from({ length: H }, () => rng.normal()),
    b2: rng.normal(),
  };
}

describe('gradients', () => {
  it('input gradients match central differences (margin and loss)', () => {
    expect.hasAssertions();
    const rng = new Random(1);
    for (let t = 0; t < 20; t++) {
      const m = randomModel(t);
      const row = Array.from({ length: 4 }, () => rng.normal() * 2);
      const label = rng.int(2);
      const gm = mlpInputGradient(m, row);
      const gl = mlpInputGradient(m, row, label);
      const h = 1e-6;
      for (let f = 0; f < 4; f++) {
        const up = [...row];
        const down = [...row];
        up[f] = up[f]! + h;
        down[f] = down[f]! - h;
        expect(gm[f]).toBeCloseTo((mlpMarginRow(m, up) - mlpMarginRow(m, down)) / (2 * h), 5);
        expect(gl[f]).toBeCloseTo((loss(m, up, label) - loss(m, down, label)) / (2 * h), 5);
      }
      expect(mlpInputGradient(m, [NaN, ...row.slice(1)])[0]).toBe(0);
    }
  });

  it('parameter gradients match central differences', () => {
    const m = randomModel(99);
    const row = [0.3, -1.2, 2, 0.7];
    const g = mlpParameterGradient(m, row, 1);
    const h = 1e-6;
    for (const key of ['w1', 'b1', 'w2'] as const) {
      for (let j = 0; j < m[key].length; j++) {
        const up = { ...m, [key]: Float64Array.from(m[key]) };
        const down = { ...m, [key]: Float64Array.from(m[key]) };
        up[key][j] = up[key][j]! + h;
        down[key][j] = down[key][j]! - h;
        expect(g[key][j]).toBeCloseTo((loss(up, row, 1) - loss(down, row, 1)) / (2 * h), 5);
      }
    }
    expect(g.b2).toBeCloseTo((loss({ ...m, b2: m.b2 + h }, row, 1) - loss({ ...m, b2: m.b2 - h }, row, 1)) / (2 * h), 5);
  });
});

describe('training', () => {
  const train = xorData(2000, 2);
  const test = xorData(500, 3);

  it('learns XOR where logistic regression cannot, deterministically per seed', () => {
    const params = { hidden: 16, epochs: 60, batchSize: 32, learningRate: 0.01, seed: 4 };
    const m = trainMlp(train, params);
    expect(rocAuc(predictMlp(m, test.x), test.y)).toBeGreaterThan(0.95);
    expect(rocAuc(predictLogistic(trainLogistic(train), test.x), test.y)).toBeLessThan(0.7);
    expect([...predictMlp(trainMlp(train, params), test.x)]).toEqual([...predictMlp(m, test.x)]);
    expect([...predictMlp(trainMlp(train, { ...params, seed: 5 }), test.x)]).not.toEqual([...predictMlp(m, test.x)]);
  });

  it('a loss-gradient sign step (FGSM) raises the loss of correctly classified rows', () => {
    const m = trainMlp(train, { hidden: 16, epochs: 40, learningRate: 0.01, seed: 6 });
    const g = mlpInputGradients(m, test.x, test.y);
    let raised = 0;
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const row = Array.from(test.x.data.subarray(i * 3, (i + 1) * 3));
      const before = loss(m, row, test.y[i]!);
      const adv = row.map((v, f) => v + 0.05 * Math.sign(g[i * 3 + f]!));
      total++;
      if (loss(m, adv, test.y[i]!) > before) raised++;
    }
    expect(raised / total).toBeGreaterThan(0.95);
  });

  it('early stopping keeps the best epoch, and training continues from a model', () => {
    const reports: number[] = [];
    const m = trainMlp(train, {
      hidden: 8,
      epochs: 200,
      learningRate: 0.05,
      seed: 7,
      validation: test,
      earlyStoppingEpochs: 5,
      onEpoch: (r) => reports.push(r.validationLoss!),
    });
    expect(reports.length).toBeLessThan(200);
    const best = Math.min(...reports);
    expect(reports.length).toBe(reports.indexOf(best) + 6);
    const p = predictMlp(m, test.x);
    let ll = 0;
    test.y.forEach((v, i) => (ll -= v ? Math.log(p[i]!) : Math.log(1 - p[i]!)));
    expect(ll / test.y.length).toBeCloseTo(best, 10);
    const more = trainMlp(train, { initial: m, epochs: 0 });
    expect([...predictMlp(more, test.x)]).toEqual([...p]);
    expect(more.mean).toEqual(m.mean);
  });

  it('refuses bad input', () => {
    expect(() => trainMlp({ x: featureMatrix(2, 1, [0, 1]), y: [0, 3] })).toThrow(VitrineError);
    expect(() => trainMlp(train, { hidden: 0 })).toThrow(VitrineError);
    expect(() => trainMlp(train, { earlyStoppingEpochs: 2 })).toThrow(VitrineError);
  });
});

describe('vitrine-mlp-1 file', () => {
  it('round-trips and is validated', () => {
    const m = randomModel(8);
    const json = mlpModelToJson(m);
    const back = mlpModelFromJson(JSON.parse(JSON.stringify(json)));
    expect(mlpMarginRow(back, [1, 2, 3, 4])).toBe(mlpMarginRow(m, [1, 2, 3, 4]));
    expect(() => mlpModelFromJson({ ...json, w1: [1, 2] })).toThrow(VitrineError);
    expect(() => mlpModelFromJson({ ...json, hidden: 7 })).toThrow(VitrineError);
    expect(() => mlpModelFromJson({ ...json, extra: true })).toThrow(VitrineError);
  });
});
