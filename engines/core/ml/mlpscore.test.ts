import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { featureMatrix } from './dataset.js';
import { mlpMargin, mlpMarginRow, predictMlp, trainMlp, type MlpModel } from './mlp.js';
import { Random } from './random.js';
import { syntheticBinary } from './synthetic.js';

/** A model of the given shape with seeded random weights and standardisation. */
function randomModel(F: number, H: number, seed: number): MlpModel {
  const rng = new Random(seed);
  const fill = (n: number, s: number): Float64Array => Float64Array.from({ length: n }, () => rng.normal() * s);
  return {
    numFeatures: F,
    hidden: H,
    mean: fill(F, 2),
    scale: Float64Array.from({ length: F }, () => 0.1 + rng.next() * 3),
    w1: fill(H * F, 1 / Math.sqrt(F)),
    b1: fill(H, 0.5),
    w2: fill(H, 1),
    b2: rng.normal(),
  };
}

function randomRows(rows: number, F: number, seed: number, missing: number): Float64Array {
  const rng = new Random(seed);
  return Float64Array.from({ length: rows * F }, () => (rng.next() < missing ? NaN : rng.normal() * 3));
}

describe('MLP batch scoring (WebAssembly kernel)', () => {
  it('gives, bit for bit, each row margin of the one-row forward pass, for every shape and block boundary', () => {
    const shapes: [number, number, number][] = [
      [1, 1, 1],
      [3, 7, 5],
      [5, 8, 2],
      [50, 32, 257],
      [17, 33, 600],
      [300, 9, 3],
    ];
    let compared = 0;
    for (const [F, H, rows] of shapes) {
      const model = randomModel(F, H, F * 100 + H);
      const data = randomRows(rows, F, rows + F, 0.1);
      const margins = mlpMargin(model, featureMatrix(rows, F, data));
      expect(margins.length).toBe(rows);
      for (let i = 0; i < rows; i++) {
        expect(Object.is(margins[i], mlpMarginRow(model, data, i * F)), `F=${F} H=${H} row ${i}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(1 + 5 + 2 + 257 + 600 + 3);
  });

  it('standardises infinite, negative-zero and missing inputs in the kernel as the one-row pass does', () => {
    const model = randomModel(7, 19, 11);
    const values = [Infinity, -Infinity, -0, 0, NaN, 1e308, -1e-310];
    const rows = 31;
    const data = randomRows(rows, 7, 12, 0.1);
    for (let i = 0; i < rows; i++) if (i % 3 === 0) data[i * 7 + (i % 7)] = values[i % values.length]!;
    const margins = mlpMargin(model, featureMatrix(rows, 7, data));
    let special = 0;
    for (let i = 0; i < rows; i++) {
      const one = mlpMarginRow(model, data, i * 7);
      if (!Number.isFinite(one)) special++;
      expect(Object.is(margins[i], one), `row ${i}`).toBe(true);
    }
    expect(special).toBeGreaterThan(0);
  });

  it('keeps the sign of zero margins and sums: b2 = -0 or +0, units all inactive or at exactly 0, zero inputs and weights', () => {
    // Units whose sums are exactly +0 or -0 (inactive either way) and output biases of both signs: the margin is b2
    // itself when no unit is active, and -0 stays -0 only as in the one-row pass.
    const F = 5;
    const H = 11;
    const rng = new Random(21);
    const rows = 41;
    const data = Float64Array.from({ length: rows * F }, (_, i) => (i % 3 === 0 ? 0 : i % 7 === 0 ? NaN : i % 5 === 0 ? -0 : rng.normal()));
    let compared = 0;
    for (const b2 of [-0, 0, 1.5]) {
      for (const active of [false, true]) {
        const model: MlpModel = {
          numFeatures: F,
          hidden: H,
          mean: new Float64Array(F),
          scale: new Float64Array(F).fill(1),
          // Zero weights throughout for even units, so their sums are the bias (-0 or +0); odd units random.
          w1: Float64Array.from({ length: H * F }, (_, i) => (Math.floor(i / F) % 2 === 0 ? (i % 2 ? -0 : 0) : rng.normal())),
          b1: Float64Array.from({ length: H }, (_, h) => (h % 2 === 0 ? (h % 4 === 0 ? -0 : 0) : active ? rng.normal() : -50)),
          w2: Float64Array.from({ length: H }, (_, h) => (h % 3 === 0 ? -0 : rng.normal())),
          b2,
        };
        const margins = mlpMargin(model, featureMatrix(rows, F, data));
        for (let i = 0; i < rows; i++) {
          const one = mlpMarginRow(model, data, i * F);
          expect(Object.is(margins[i], one), `b2=${Object.is(b2, -0) ? '-0' : b2} active=${active} row ${i}`).toBe(true);
          if (!active) expect(Object.is(one, b2)).toBe(true);
          compared++;
        }
      }
    }
    expect(compared).toBe(6 * rows);
  });

  it('reads Float32 matrices as their exact values, and scores no rows as an empty result', () => {
    const model = randomModel(6, 10, 4);
    const data = Float32Array.from(randomRows(9, 6, 8, 0.2));
    const margins = mlpMargin(model, featureMatrix(9, 6, data));
    const wide = mlpMargin(model, featureMatrix(9, 6, Float64Array.from(data)));
    expect(Array.from(margins)).toEqual(Array.from(wide));
    expect(mlpMargin(model, featureMatrix(0, 6, new Float64Array(0))).length).toBe(0);
  });

  it('scores a trained model as its row-by-row pass, and a second model after it with its own weights', () => {
    const { x, y } = syntheticBinary(400, 12, 5, { missing: 0.05 });
    const a = trainMlp({ x, y }, { hidden: 12, epochs: 3, seed: 2 });
    const b = trainMlp({ x, y }, { hidden: 5, epochs: 2, seed: 3 });
    for (const m of [a, b, a]) {
      const p = predictMlp(m, x);
      const margins = mlpMargin(m, x);
      for (let i = 0; i < x.rows; i++) expect(Object.is(margins[i], mlpMarginRow(m, x.data, i * x.cols))).toBe(true);
      expect(p[7]).toBe(1 / (1 + Math.exp(-margins[7]!)));
    }
  });

  it('keeps the pinned margins and probabilities of seeded models (digests of every bit of 5,000 and 999 rows)', () => {
    const digest = (a: Float64Array): string => createHash('sha256').update(Buffer.from(a.buffer, a.byteOffset, a.byteLength)).digest('hex').slice(0, 16);
    const { x, y } = syntheticBinary(5000, 50, 2024, { missing: 0.02 });
    const wide = trainMlp({ x, y }, { hidden: 32, epochs: 1, seed: 1 });
    const odd = trainMlp({ x, y }, { hidden: 13, epochs: 1, seed: 2 });
    const head = featureMatrix(999, 50, x.data.subarray(0, 999 * 50));
    expect([digest(mlpMargin(wide, x)), digest(mlpMargin(wide, head)), digest(mlpMargin(odd, x)), digest(predictMlp(odd, head))]).toEqual(['0c814b5d92614f33', '43b848b65cfc9b39', 'dc129e2099144e2b', '0d9ce677d9e9eae8']);
  });
});
