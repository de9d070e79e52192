// The dependency-free logistic regression: attributions add up exactly, training reaches the regularised optimum.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../core/random.js';
import { linearContributions, linearMargin, sigmoid, slog, trainLogistic, transform } from './linear.js';

function dataset(n: number, seed: number): { rows: Float64Array[]; labels: number[] } {
  const rand = mulberry32(seed);
  const rows: Float64Array[] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const y = i % 2;
    // Feature 0 carries the label with noise, feature 1 is noise, feature 2 is constant, feature 3 is a large count.
    rows.push(Float64Array.from([y + (rand() - 0.5) * 1.5, rand(), 7, Math.floor(rand() * 1e6)]));
    labels.push(y);
  }
  return { rows, labels };
}

describe('linear model', () => {
  const { rows, labels } = dataset(200, 3);
  const l2 = 0.05;
  const params = trainLogistic(rows, labels, { l2, iterations: 3000, balanced: false });

  it('learns the informative feature and ignores the constant one', () => {
    expect(params.weights[0]).toBeGreaterThan(0.5);
    expect(Math.abs(params.weights[1] as number)).toBeLessThan(Math.abs(params.weights[0] as number) / 4);
    expect(params.scale[2]).toBe(0);
    expect(params.weights[2]).toBe(0);
  });

  it('converges to the optimum: the gradient of the penalised loss vanishes', () => {
    const t = rows.map((r) => transform(params, r));
    const grad = new Float64Array(4);
    let gradB = 0;
    t.forEach((z, i) => {
      const e = sigmoid(linearMargin(params, rows[i] as Float64Array)) - (labels[i] as number);
      gradB += e / rows.length;
      for (let j = 0; j < 4; j++) grad[j]! += (e * (z[j] as number)) / rows.length;
    });
    for (let j = 0; j < 4; j++) grad[j]! += l2 * (params.weights[j] as number);
    expect(Math.abs(gradB)).toBeLessThan(1e-6);
    for (const g of grad) expect(Math.abs(g)).toBeLessThan(1e-6);
  });

  it('contributions add up with the bias to the margin exactly, and are zero at the training mean', () => {
    for (const r of rows.slice(0, 20)) {
      const { margin, contributions } = linearContributions(params, r);
      expect(margin).toBeCloseTo(linearMargin(params, r), 12);
      expect(params.bias + contributions.reduce((a, b) => a + b, 0)).toBeCloseTo(margin, 12);
    }
    // A row whose transformed values are the means: every contribution 0, margin = bias.
    const atMean = Float64Array.from(params.mean, (m) => (m >= 0 ? Math.expm1(m) : -Math.expm1(-m)));
    const { margin, contributions } = linearContributions(params, atMean);
    for (const c of contributions) expect(Math.abs(c)).toBeLessThan(1e-9);
    expect(margin).toBeCloseTo(params.bias, 9);
  });

  it('clips extreme standardised values', () => {
    const far = transform(params, [1e12, 0.5, 7, 1e300]);
    expect(Math.abs(far[0] as number)).toBe(params.clip);
    expect(slog(-Math.E + 1)).toBeCloseTo(-1, 12);
  });

  it('balanced weighting and early stop through onStep', () => {
    let calls = 0;
    const p = trainLogistic(rows.slice(0, 150), labels.slice(0, 150), {
      iterations: 1000,
      onStep: () => {
        calls++;
        return calls === 2;
      },
    });
    expect(calls).toBe(2);
    expect(p.weights.length).toBe(4);
    expect(() => trainLogistic([], [])).toThrow(RangeError);
  });
});
