import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/oracles.js';
import { VitrineError } from '../errors.js';
import { minimizeLbfgs } from './optimize.js';
import { runPythonOracle } from './python.fixture.js';
import { Random } from './random.js';
import { fitLinearSvm, fitOneVsRestSvm, svmPrimalObjective, type SparseRows } from './svm.js';

/** Seeded sparse rows (about `density` of `cols` columns set, L2-normalised) and labels from a hidden linear rule with noise. */
function sparseData(n: number, cols: number, classes: number, density: number, seed: number): { x: SparseRows; y: Int32Array } {
  const rng = new Random(seed);
  const centre = Array.from({ length: classes }, () => Float64Array.from({ length: cols }, () => rng.normal()));
  const rowStart = new Int32Array(n + 1);
  const idx: number[] = [];
  const val: number[] = [];
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = rng.int(classes);
    y[i] = k;
    const row: [number, number][] = [];
    for (let f = 0; f < cols; f++) if (rng.next() < density) row.push([f, centre[k]![f]! * 0.6 + rng.normal()]);
    let norm = 0;
    for (const [, v] of row) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    for (const [f, v] of row) {
      idx.push(f);
      val.push(v / norm);
    }
    rowStart[i + 1] = idx.length;
  }
  return { x: { rowStart, colIdx: Int32Array.from(idx), colVal: Float64Array.from(val), cols }, y };
}

/** The squared-hinge primal minimised by L-BFGS (it is differentiable): the reference the dual solution must meet. */
function primalByLbfgs(x: SparseRows, y: ArrayLike<number>, c: number, weights?: Float64Array): number {
  const n = x.rowStart.length - 1;
  const fg = (t: Float64Array, g: Float64Array): number => {
    g.fill(0);
    let obj = 0;
    for (let f = 0; f <= x.cols; f++) {
      obj += 0.5 * t[f]! * t[f]!;
      g[f] = t[f]!;
    }
    for (let i = 0; i < n; i++) {
      const s = y[i]! > 0 ? 1 : -1;
      let dot = t[x.cols]!;
      for (let j = x.rowStart[i]!; j < x.rowStart[i + 1]!; j++) dot += t[x.colIdx[j]!]! * x.colVal[j]!;
      const m = 1 - s * dot;
      if (m <= 0) continue;
      const ci = c * (weights?.[i] ?? 1);
      obj += ci * m * m;
      const d = -2 * ci * m * s;
      for (let j = x.rowStart[i]!; j < x.rowStart[i + 1]!; j++) g[x.colIdx[j]!] = g[x.colIdx[j]!]! + d * x.colVal[j]!;
      g[x.cols] = g[x.cols]! + d;
    }
    return obj;
  };
  return minimizeLbfgs(fg, new Float64Array(x.cols + 1), { maxIterations: 5000, gradientTolerance: 1e-8 }).value;
}

describe('linear SVM by dual coordinate descent', () => {
  it('reaches the squared-hinge primal minimum found by L-BFGS, with and without row weights', () => {
    const { x, y } = sparseData(200, 40, 2, 0.25, 3);
    const rng = new Random(9);
    const weights = Float64Array.from({ length: 200 }, () => rng.uniform(0.2, 2));
    for (const [c, w] of [[0.1, undefined], [1, undefined], [0.5, weights]] as const) {
      const params = { c, tolerance: 1e-8, ...(w !== undefined ? { sampleWeight: w } : {}) };
      const m = fitLinearSvm(x, y, params);
      expect(m.converged).toBe(true);
      const ours = svmPrimalObjective(x, y, m, params);
      const reference = primalByLbfgs(x, y, c, w);
      expect(Math.abs(ours - reference) / reference).toBeLessThan(1e-6);
    }
  });

  it('never has a hinge primal above its squared-hinge fit, and separates separable data', () => {
    const { x, y } = sparseData(300, 40, 2, 0.3, 4);
    const hinge = fitLinearSvm(x, y, { c: 1, loss: 'hinge', tolerance: 1e-8 });
    const squared = fitLinearSvm(x, y, { c: 1, tolerance: 1e-8 });
    // The hinge fit minimises the hinge primal, so it is at most the hinge primal of any other weights.
    expect(svmPrimalObjective(x, y, hinge, { c: 1, loss: 'hinge' })).toBeLessThanOrEqual(svmPrimalObjective(x, y, squared, { c: 1, loss: 'hinge' }) + 1e-9);
    const sep: SparseRows = { rowStart: Int32Array.of(0, 1, 2, 3, 4), colIdx: Int32Array.of(0, 0, 1, 1), colVal: Float64Array.of(1, 2, 1, 2), cols: 2 };
    const m = fitLinearSvm(sep, [1, 1, -1, -1], { c: 100 });
    for (let i = 0; i < 4; i++) {
      const s = m.w[sep.colIdx[i]!]! * sep.colVal[i]! + m.b;
      expect(Math.sign(s)).toBe(i < 2 ? 1 : -1);
    }
  });

  it('one-vs-rest gives each class the binary fit of that class against the others, deterministically', () => {
    const { x, y } = sparseData(300, 30, 4, 0.3, 5);
    const ovr = fitOneVsRestSvm(x, y, 4, { c: 0.5 });
    expect(ovr.converged).toBe(4);
    for (let k = 0; k < 4; k++) {
      const b = fitLinearSvm(
        x,
        Array.from(y, (l) => (l === k ? 1 : -1)),
        { c: 0.5 },
      );
      for (let f = 0; f < 30; f++) expect(ovr.weights[f * 4 + k]).toBe(b.w[f]);
      expect(ovr.intercepts[k]).toBe(b.b);
    }
    const again = fitOneVsRestSvm(x, y, 4, { c: 0.5 });
    expect([...again.weights]).toEqual([...ovr.weights]);
    // The training rows are mostly ranked right by the class scores.
    let right = 0;
    for (let i = 0; i < 300; i++) {
      const s = Array.from({ length: 4 }, (_, k) => {
        let z = ovr.intercepts[k]!;
        for (let j = x.rowStart[i]!; j < x.rowStart[i + 1]!; j++) z += ovr.weights[x.colIdx[j]! * 4 + k]! * x.colVal[j]!;
        return z;
      });
      if (s.indexOf(Math.max(...s)) === y[i]) right++;
    }
    expect(right / 300).toBeGreaterThan(0.6); // chance is 0.25
  });

  it('rejects bad rows and parameters', () => {
    const { x, y } = sparseData(20, 5, 2, 0.5, 6);
    expect(() => fitLinearSvm(x, y, { c: 0 })).toThrow(VitrineError);
    expect(() => fitLinearSvm(x, y.subarray(1))).toThrow(VitrineError);
    expect(() => fitLinearSvm({ ...x, cols: 2 }, y)).toThrow(VitrineError);
    expect(() => fitLinearSvm(x, y, { sampleWeight: new Float64Array(20) })).toThrow(VitrineError);
    expect(() => fitOneVsRestSvm(x, y, 1)).toThrow(VitrineError);
    expect(() => fitOneVsRestSvm(x, Int32Array.from(y, (l) => l + 5), 2)).toThrow(VitrineError);
  });
});

describe.skipIf(skipWithout('sklearn'))('against scikit-learn', () => {
  it("equal weights to LinearSVC's (squared hinge and hinge, with and without sample weights)", () => {
    expect.hasAssertions();
    const { x, y } = sparseData(300, 40, 3, 0.25, 7);
    const rng = new Random(11);
    const weights = Array.from({ length: 300 }, () => rng.uniform(0.2, 2));
    const cases = [
      { C: 0.5, loss: 'squared_hinge', weights: null },
      { C: 2, loss: 'squared_hinge', weights },
      { C: 0.5, loss: 'hinge', weights: null },
    ] as const;
    const fits = runPythonOracle<{ coef: number[][]; intercept: number[] }[]>('sklearn_svm.py', {
      start: [...x.rowStart],
      idx: [...x.colIdx],
      val: [...x.colVal],
      cols: x.cols,
      y: [...y],
      cases,
    });
    cases.forEach((c, n) => {
      const m = fitOneVsRestSvm(x, y, 3, {
        c: c.C,
        loss: c.loss === 'hinge' ? 'hinge' : 'squared-hinge',
        tolerance: 1e-10,
        maxIterations: 1_000_000,
        ...(c.weights !== null ? { sampleWeight: Float64Array.from(c.weights) } : {}),
      });
      const out = fits[n]!;
      for (let k = 0; k < 3; k++) {
        for (let f = 0; f < 40; f++) expect(m.weights[f * 3 + k]).toBeCloseTo(out.coef[k]![f]!, 4);
        expect(m.intercepts[k]).toBeCloseTo(out.intercept[k]!, 4);
      }
    });
  });
});
