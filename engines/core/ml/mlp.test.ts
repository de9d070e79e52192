// The perceptron: gradients against finite differences, learning a task a linear model cannot, early stopping, continued training, and the model file.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { featureMatrix, type FeatureMatrix } from './dataset.js';
import { predictLogistic, standardization, trainLogistic } from './linear.js';
import { sigmoid } from './gbdt.js';
import { syntheticBinary } from './synthetic.js';
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

/**
 * The training loop written row by row in plain JavaScript (forward, then each row's gradient added unit by unit,
 * then Adam per parameter): what the WebAssembly training kernel must reproduce bit for bit.
 */
function referenceTrain(x: FeatureMatrix, y: ArrayLike<number>, weights: ArrayLike<number> | undefined, o: { hidden: number; epochs: number; batchSize: number; learningRate: number; l2: number; seed: number; initial?: MlpModel }): MlpModel {
  const n = x.rows;
  const F = x.cols;
  const H = o.initial ? o.initial.hidden : o.hidden;
  const rng = new Random(o.seed);
  const mean = o.initial ? o.initial.mean : standardization(x).mean;
  const scale = o.initial ? o.initial.scale : standardization(x).scale;
  const P = { w1: new Float64Array(H * F), b1: new Float64Array(H), w2: new Float64Array(H), b2: new Float64Array(1) };
  if (o.initial) {
    P.w1.set(o.initial.w1);
    P.b1.set(o.initial.b1);
    P.w2.set(o.initial.w2);
    P.b2[0] = o.initial.b2;
  } else {
    for (let i = 0; i < P.w1.length; i++) P.w1[i] = rng.normal() * Math.sqrt(2 / F);
    for (let h = 0; h < H; h++) P.w2[h] = rng.normal() * Math.sqrt(1 / H);
  }
  const like = (): typeof P => ({ w1: new Float64Array(H * F), b1: new Float64Array(H), w2: new Float64Array(H), b2: new Float64Array(1) });
  const M = like();
  const V = like();
  const z = Float64Array.from(x.data, (v, k) => (v === v ? (v - mean[k % F]!) / scale[k % F]! : 0));
  const pre = new Float64Array(H);
  let step = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    const order = rng.permutation(n);
    for (let start = 0; start < n; start += o.batchSize) {
      const G = like();
      let wsum = 0;
      for (let k = start; k < Math.min(n, start + o.batchSize); k++) {
        const i = order[k]!;
        const wi = weights ? weights[i]! : 1;
        wsum += wi;
        let m = P.b2[0]!;
        for (let h = 0; h < H; h++) {
          let a = P.b1[h]!;
          for (let f = 0; f < F; f++) a += P.w1[h * F + f]! * z[i * F + f]!;
          pre[h] = a;
          if (a > 0) m += P.w2[h]! * a;
        }
        const d = wi * (sigmoid(m) - y[i]!);
        G.b2[0] = G.b2[0]! + d;
        for (let h = 0; h < H; h++) {
          if (!(pre[h]! > 0)) continue;
          G.w2[h] = G.w2[h]! + d * pre[h]!;
          const dh = d * P.w2[h]!;
          G.b1[h] = G.b1[h]! + dh;
          for (let f = 0; f < F; f++) G.w1[h * F + f] = G.w1[h * F + f]! + dh * z[i * F + f]!;
        }
      }
      const inv = wsum > 0 ? 1 / wsum : 0;
      step++;
      const c1 = 1 - 0.9 ** step;
      const c2 = 1 - 0.999 ** step;
      for (const key of ['w1', 'b1', 'w2', 'b2'] as const) {
        const decay = key === 'w1' || key === 'w2' ? o.l2 : 0;
        for (let j = 0; j < P[key].length; j++) {
          const g = G[key][j]! * inv + decay * P[key][j]!;
          M[key][j] = 0.9 * M[key][j]! + (1 - 0.9) * g;
          V[key][j] = 0.999 * V[key][j]! + (1 - 0.999) * g * g;
          P[key][j] = P[key][j]! - (o.learningRate * (M[key][j]! / c1)) / (Math.sqrt(V[key][j]! / c2) + 1e-8);
        }
      }
    }
  }
  return { numFeatures: F, hidden: H, mean, scale, w1: P.w1, b1: P.b1, w2: P.w2, b2: P.b2[0]! };
}

describe('training kernel', () => {
  it('gives bit for bit the weights of the row-by-row loop: odd batches, hidden sizes off the 8-unit blocks, row weights, L2, continued training', () => {
    const { x, y } = syntheticBinary(301, 7, 11, { missing: 0.05 });
    const rng = new Random(4);
    const weights = Float64Array.from({ length: x.rows }, () => rng.uniform(0.2, 2));
    const cases = [
      { hidden: 5, epochs: 3, batchSize: 17, learningRate: 3e-3, l2: 1e-3, seed: 1, w: weights },
      { hidden: 9, epochs: 2, batchSize: 64, learningRate: 1e-2, l2: 0, seed: 2, w: undefined },
      { hidden: 16, epochs: 2, batchSize: 1, learningRate: 1e-3, l2: 1e-4, seed: 3, w: undefined },
    ];
    let compared = 0;
    for (const { w, ...o } of cases) {
      const got = trainMlp(w ? { x, y, weights: w } : { x, y }, o);
      const want = referenceTrain(x, y, w, o);
      for (const key of ['w1', 'b1', 'w2'] as const) expect(Array.from(got[key])).toEqual(Array.from(want[key]));
      expect(Object.is(got.b2, want.b2)).toBe(true);
      const more = trainMlp({ x, y }, { ...o, epochs: 1, initial: got });
      const wantMore = referenceTrain(x, y, undefined, { ...o, epochs: 1, initial: want });
      expect(Array.from(more.w1)).toEqual(Array.from(wantMore.w1));
      compared++;
    }
    expect(compared).toBe(3);
  });
});
