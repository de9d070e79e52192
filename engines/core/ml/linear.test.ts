// Logistic regression: optimality conditions, exact attributions, the model file, and scikit-learn's coefficients where installed.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { featureMatrix, matrixFromRows, type FeatureMatrix } from './dataset.js';
import { sigmoid } from './gbdt.js';
import {
  logisticAttributions,
  logisticMarginRow,
  logisticModelFromJson,
  logisticModelToJson,
  logisticResidualsKernel,
  logisticResidualsReference,
  log1pFeatures,
  log1pKernel,
  predictLogistic,
  rawCoefficients,
  standardization,
  trainLogistic,
} from './linear.js';
import { minimizeLbfgs } from './optimize.js';
import { runPythonOracle } from './python.fixture.js';
import { Random } from './random.js';
import { syntheticBinary } from './synthetic.js';
import { skipWithout } from '../../../test/oracles.js';

function linearData(n: number, seed: number): { x: FeatureMatrix; y: Float64Array } {
  const rng = new Random(seed);
  const d = 5;
  const data = new Float64Array(n * d);
  const y = new Float64Array(n);
  const scales = [1, 10, 0.1, 1000, 3];
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < d; f++) data[i * d + f] = rng.normal() * scales[f]! + f;
    const z = 1.2 * (data[i * d]! - 0) - 0.08 * (data[i * d + 1]! - 1) + 5 * (data[i * d + 2]! - 2) + 0.3;
    y[i] = rng.next() < sigmoid(z) ? 1 : 0;
  }
  return { x: featureMatrix(n, d, data), y };
}

describe('L-BFGS', () => {
  it('minimises the Rosenbrock function', () => {
    const r = minimizeLbfgs(
      (p, g) => {
        const [a, b] = [p[0]!, p[1]!];
        g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
        g[1] = 200 * (b - a * a);
        return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
      },
      Float64Array.from([-1.2, 1]),
      { gradientTolerance: 1e-10 },
    );
    expect(r.converged).toBe(true);
    expect(r.x[0]).toBeCloseTo(1, 8);
    expect(r.x[1]).toBeCloseTo(1, 8);
  });

  it('gives the recorded runs bit for bit: 12-dimensional Rosenbrock, 1, 3 and 10 pairs, both searches, with and without the relative-decrease test', () => {
    // Iterations, evaluations, convergence and a hash of the minimum and its value, recorded from the solver before its
    // iterations became one method call each with the pairs in rotating arrays (the same arithmetic, so the same runs).
    const recorded: Record<string, string> = {
      'backtracking 1 -': '204 229 true 7fb47af644ee67a3',
      'backtracking 1 rel': '169 188 true 9c0e4de37db7bfb4',
      'backtracking 3 -': '124 142 true d812149541a4f320',
      'backtracking 3 rel': '95 110 true 51b66c0f16b67175',
      'backtracking 10 -': '91 110 true df09454fa9b2c5bd',
      'backtracking 10 rel': '82 100 true f3f19b8c1e905b86',
      'more-thuente 1 -': '208 240 true 8fbf0704170c3c00',
      'more-thuente 1 rel': '154 182 true 9b0a5c8e329724f6',
      'more-thuente 3 -': '130 145 true f0d2d08c1f25947f',
      'more-thuente 3 rel': '102 117 true aea95304297f54c3',
      'more-thuente 10 -': '91 114 true 3340e77276d1577d',
      'more-thuente 10 rel': '83 106 true 43ac126b1126891b',
    };
    for (const lineSearch of ['backtracking', 'more-thuente'] as const)
      for (const memory of [1, 3, 10])
        for (const rel of [undefined, 1e7 * Number.EPSILON]) {
          let nfev = 0;
          const r = minimizeLbfgs(
            (p, g) => {
              nfev++;
              let f = 0;
              g.fill(0);
              for (let i = 0; i + 1 < p.length; i++) {
                const a = p[i]!;
                const b = p[i + 1]!;
                f += (1 - a) ** 2 + 100 * (b - a * a) ** 2;
                g[i] = g[i]! - 2 * (1 - a) - 400 * a * (b - a * a);
                g[i + 1] = g[i + 1]! + 200 * (b - a * a);
              }
              return f;
            },
            Float64Array.from({ length: 12 }, (_, i) => (i % 2 ? 1 : -1.2) + i / 20),
            { memory, lineSearch, gradientTolerance: 1e-8, ...(rel ? { relativeDecrease: rel } : {}) },
          );
          const hash = createHash('sha256').update(Buffer.from(r.x.buffer)).update(String(r.value)).digest('hex').slice(0, 16);
          expect(`${r.iterations} ${nfev} ${String(r.converged)} ${hash}`).toBe(recorded[`${lineSearch} ${memory} ${rel ? 'rel' : '-'}`]);
        }
  });

  it("with Moré-Thuente's search, takes SciPy L-BFGS-B's iterations and evaluations (Rosenbrock from three starts)", () => {
    // scipy.optimize.minimize(rosen, x0, jac=rosen_der, method='L-BFGS-B', options={'gtol': 1e-5}), SciPy 1.10.1:
    // nit, nfev and x.
    const scipy = [
      { x0: [-1.2, 1], nit: 36, nfev: 44, x: [0.9999989453492764, 0.9999980209057228] },
      { x0: [2.5, -1.3], nit: 28, nfev: 34, x: [0.9999999888533238, 0.9999999775874636] },
      { x0: [0, 0], nit: 21, nfev: 25, x: [0.9999997057368228, 0.999999398151528] },
    ];
    for (const want of scipy) {
      let nfev = 0;
      const r = minimizeLbfgs(
        (p, g) => {
          nfev++;
          const [a, b] = [p[0]!, p[1]!];
          g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
          g[1] = 200 * (b - a * a);
          return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
        },
        Float64Array.from(want.x0),
        { gradientTolerance: 1e-5, relativeDecrease: 1e7 * Number.EPSILON, lineSearch: 'more-thuente' },
      );
      expect(r.converged).toBe(true);
      expect(r.iterations).toBe(want.nit);
      expect(nfev).toBe(want.nfev);
      for (let i = 0; i < 2; i++) expect(Math.abs(r.x[i]! - want.x[i]!)).toBeLessThan(1e-12);
    }
  });
});

describe('logistic regression', () => {
  /** The summed-loss gradient of a fitted model (weights in standardised space, then the intercept). */
  function gradientAt(m: ReturnType<typeof trainLogistic>, x: FeatureMatrix, y: ArrayLike<number>, l2: number): { grad: Float64Array; gb: number } {
    const { mean, scale } = standardization(x);
    const grad = new Float64Array(5);
    let gb = 0;
    for (let i = 0; i < x.rows; i++) {
      const r = sigmoid(logisticMarginRow(m, x.data, i * 5)) - y[i]!;
      gb += r;
      for (let f = 0; f < 5; f++) grad[f] = grad[f]! + (r * (x.data[i * 5 + f]! - mean[f]!)) / scale[f]!;
    }
    for (let f = 0; f < 5; f++) grad[f] = grad[f]! + l2 * m.weights[f]!;
    return { grad, gb };
  }

  it('meets its optimality conditions to the stopping tolerance: gradient zero, intercept unpenalised', () => {
    const { x, y } = linearData(2000, 1);
    const l2 = 2;
    // Default stopping rule (scikit-learn's lbfgs): the largest summed-loss gradient component at most 1e-4.
    const m = trainLogistic({ x, y }, { l2 });
    const loose = gradientAt(m, x, y, l2);
    expect(Math.abs(loose.gb)).toBeLessThan(1e-4);
    for (let f = 0; f < 5; f++) expect(Math.abs(loose.grad[f]!)).toBeLessThan(1e-4);
    // A tight tolerance without the relative-decrease test reaches 1e-6 with the backtracking search (the default), and
    // moves the weights by less than 1e-5. Moré-Thuente's search (SciPy's) stops a little before, where the summed
    // loss (about 1e3) no longer changes by more than its rounding along the step (SciPy's ABNORMAL_TERMINATION_IN_LNSRCH).
    for (const [lineSearch, floor] of [['backtracking', 1e-6], ['more-thuente', 2e-6]] as const) {
      const tight = trainLogistic({ x, y }, { l2, tolerance: 1e-8, relativeDecrease: 0, lineSearch });
      const exact = gradientAt(tight, x, y, l2);
      expect(Math.abs(exact.gb)).toBeLessThan(floor);
      for (let f = 0; f < 5; f++) expect(Math.abs(exact.grad[f]!)).toBeLessThan(floor);
      for (let f = 0; f < 5; f++) expect(Math.abs(tight.weights[f]! - m.weights[f]!)).toBeLessThan(1e-5);
    }
    // The generating coefficients are recovered per raw unit, roughly.
    const raw = rawCoefficients(m);
    expect(raw.coefficients[0]).toBeGreaterThan(0.9);
    expect(raw.coefficients[0]).toBeLessThan(1.5);
    expect(raw.coefficients[2]).toBeGreaterThan(3.5);
    expect(Math.abs(raw.coefficients[3]!)).toBeLessThan(0.001);
  });

  it('attributions are w (x - mean) / scale, sum to the margin, and missing values contribute nothing', () => {
    const { x, y } = linearData(500, 2);
    const m = trainLogistic({ x, y });
    const row = [0.5, 3, NaN, 100, -1];
    const a = logisticAttributions(m, row);
    expect(a.expectedValue).toBe(m.intercept);
    expect(a.values[2]).toBe(0);
    expect(a.values[0]).toBeCloseTo((m.weights[0]! * (0.5 - m.mean[0]!)) / m.scale[0]!, 14);
    expect(a.values.reduce((s, v) => s + v, a.expectedValue)).toBeCloseTo(logisticMarginRow(m, row), 12);
    const raw = rawCoefficients(m);
    const full = [0.5, 3, 2, 100, -1];
    expect(full.reduce((s, v, f) => s + raw.coefficients[f]! * v, raw.intercept)).toBeCloseTo(logisticMarginRow(m, full), 10);
  });

  it('constant features and no standardisation', () => {
    const x = matrixFromRows([[1, 5], [2, 5], [3, 5], [4, 5]]);
    const m = trainLogistic({ x, y: [0, 0, 1, 1] }, { standardize: false, l2: 0.5 });
    expect(m.scale[1]).toBe(1);
    expect(m.mean[0]).toBe(0);
    const p = predictLogistic(m, x);
    expect(p[3]!).toBeGreaterThan(p[0]!);
    expect(() => trainLogistic({ x, y: [0, 0, 2, 1] })).toThrow(VitrineError);
  });

  it('the model file round-trips and is validated', () => {
    const { x, y } = linearData(300, 3);
    const m = trainLogistic({ x, y }, { featureNames: ['a', 'b', 'c', 'd', 'e'] });
    const back = logisticModelFromJson(JSON.parse(JSON.stringify(logisticModelToJson(m))));
    expect([...predictLogistic(back, x)]).toEqual([...predictLogistic(m, x)]);
    expect(back.featureNames).toEqual(['a', 'b', 'c', 'd', 'e']);
    const json = logisticModelToJson(m);
    expect(() => logisticModelFromJson({ ...json, weights: [1] })).toThrow(VitrineError);
    expect(() => logisticModelFromJson({ ...json, scale: [0, 1, 1, 1, 1] })).toThrow(VitrineError);
    expect(() => logisticModelFromJson({ ...json, format: 'other' })).toThrow(VitrineError);
  });
});

describe.skipIf(skipWithout('sklearn'))('against scikit-learn', () => {
  it('equal coefficients in standardised space, with and without sample weights', () => {
    expect.hasAssertions();
    const { x, y } = linearData(1500, 4);
    const rows = Array.from({ length: x.rows }, (_, i) => Array.from(x.data.subarray(i * 5, (i + 1) * 5)));
    const rng = new Random(5);
    const weights = Array.from({ length: x.rows }, () => rng.uniform(0.2, 3));
    const cases = [
      { l2: 1, w: undefined },
      { l2: 0.05, w: undefined },
      { l2: 4, w: weights },
    ];
    const fits = runPythonOracle<{ coef: number[]; intercept: number }[]>('sklearn_logistic.py', {
      x: rows,
      y: [...y],
      cases: cases.map((c) => ({ C: 1 / c.l2, weights: c.w ?? null })),
    });
    cases.forEach(({ l2, w }, k) => {
      const out = fits[k]!;
      for (const lineSearch of ['backtracking', 'more-thuente'] as const) {
      const m = trainLogistic(w ? { x, y, weights: w } : { x, y }, { l2, lineSearch });
      // scikit-learn fits here to a gradient of 1e-12, ours stops at its default rule (gradient 1e-4, SciPy's
      // relative decrease), with either line search: coefficients agree to 5e-6 and our objective is within 1e-9 of
      // the tight optimum.
      out.coef.forEach((c, f) => expect(m.weights[f]).toBeCloseTo(c, 5));
      expect(m.intercept).toBeCloseTo(out.intercept, 5);
      const objective = (coef: ArrayLike<number>, b: number): number => {
        const { mean, scale } = standardization(x);
        let loss = 0;
        for (let i = 0; i < x.rows; i++) {
          let z = b;
          for (let f = 0; f < 5; f++) z += (coef[f]! * (x.data[i * 5 + f]! - mean[f]!)) / scale[f]!;
          loss += (w ? w[i]! : 1) * (Math.log1p(Math.exp(-Math.abs(z))) + Math.max(z, 0) - y[i]! * z);
        }
        for (let f = 0; f < 5; f++) loss += 0.5 * l2 * coef[f]! ** 2;
        return loss;
      };
      expect(objective(m.weights, m.intercept)).toBeLessThanOrEqual(objective(out.coef, out.intercept) + 1e-9);
      }
    });
  });
});

describe('logistic scoring kernel', () => {
  /** Rows x d values from the generator, with missing values, infinities and signed zeros sprinkled in. */
  function awkward(rows: number, d: number, seed: number): FeatureMatrix {
    const rng = new Random(seed);
    const special = [NaN, 0, -0, Infinity, -Infinity, 1e300, -1e-300];
    const data = new Float64Array(rows * d);
    for (let i = 0; i < data.length; i++) data[i] = rng.next() < 0.08 ? special[Math.floor(rng.next() * special.length)]! : rng.normal() * 10 ** Math.floor(rng.uniform(-3, 4));
    return featureMatrix(rows, d, data);
  }
  /** A model over d features with weights and standardisation drawn from the generator (some weights zero, an intercept of -0). */
  function modelOf(d: number, seed: number, intercept: number): ReturnType<typeof trainLogistic> {
    const rng = new Random(seed);
    return {
      numFeatures: d,
      mean: Float64Array.from({ length: d }, () => rng.normal() * 3),
      scale: Float64Array.from({ length: d }, () => rng.uniform(1e-3, 50)),
      weights: Float64Array.from({ length: d }, () => (rng.next() < 0.1 ? 0 : rng.normal() * 2)),
      intercept,
      l2: 1,
    };
  }

  it('gives probabilities bit-identical to the per-row margin for every width, row count and block boundary', () => {
    expect.hasAssertions();
    let checked = 0;
    for (const d of [1, 2, 3, 4, 5, 7, 16, 50, 51]) {
      // Row counts below the kernel's threshold, around the four-row step, and across blocks of rows (32,768 values).
      const block = Math.max(4, Math.floor(32_768 / d) & ~3);
      for (const rows of [1, 7, 8, 9, 10, 11, 12, 13, 403, block - 1, block, block + 1, 2 * block + 3]) {
        const x = awkward(rows, d, 1000 * d + rows);
        for (const intercept of [0.25, -0]) {
          const m = modelOf(d, d + rows, intercept);
          const p = predictLogistic(m, x);
          for (let i = 0; i < rows; i++) if (!Object.is(p[i], sigmoid(logisticMarginRow(m, x.data, i * d)))) expect.fail(`d ${d}, ${rows} rows, row ${i}: ${p[i]} is not ${sigmoid(logisticMarginRow(m, x.data, i * d))}`);
          checked += rows;
        }
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it('scores a fitted model between fits and a wide model after a narrow one (the kernel memory is reused)', () => {
    const { x, y } = linearData(1001, 6);
    const m = trainLogistic({ x, y });
    const wide = modelOf(300, 7, 0.5);
    const xw = awkward(50, 300, 8);
    const first = predictLogistic(m, x);
    const pw = predictLogistic(wide, xw);
    const again = trainLogistic({ x, y });
    expect([...again.weights]).toEqual([...m.weights]);
    expect([...predictLogistic(m, x)]).toEqual([...first]);
    for (let i = 0; i < 50; i++) expect(pw[i]).toBe(sigmoid(logisticMarginRow(wide, xw.data, i * 300)));
    for (let i = 0; i < x.rows; i++) expect(first[i]).toBe(sigmoid(logisticMarginRow(m, x.data, i * 5)));
  });
});

describe("the fit kernel's losses and residuals", () => {
  /** A double from its bit pattern. */
  const fromBits = (bits: bigint): number => new Float64Array(BigUint64Array.of(bits).buffer)[0]!;
  /** Margins at and around every threshold of the kernel's vector path and of fdlibm's exp and log1p, both signs. */
  function awkwardMargins(): Float64Array {
    const out: number[] = [0, -0, NaN, Infinity, -Infinity, 1e-300, 5e-324, 2 ** -28, 2 ** -20, 745.2, 746, 708.4, 709.8, 1e300];
    const around = (v: number): void => {
      // v and its neighbours a few ulps either side.
      const b = new BigUint64Array(Float64Array.of(v).buffer)[0]!;
      for (let k = -3n; k <= 3n; k++) out.push(fromBits(b + k));
    };
    // The vector path's range, exp's 0.5 ln2 and 1.5 ln2 high-word tests, log1p's sqrt(2) - 1, 2^-29 and 2^-54 tests
    // (|m| = -log(threshold)), and e near 1.
    for (const v of [2 ** -14, 700, 0.5 * Math.LN2, 1.5 * Math.LN2, -Math.log(Math.SQRT2 - 1), -Math.log(2 ** -29), -Math.log(2 ** -54), 1e-5, 2 ** -13]) around(v);
    for (const hi of [0x3fd62e42n, 0x3fd62e43n, 0x3ff0a2b1n, 0x3ff0a2b2n]) for (const lo of [0n, 1n, 0xfefa39efn, 0xfefa39f0n, 0xffffffffn]) out.push(fromBits((hi << 32n) | lo));
    // A dense sweep where log1p's argument crosses sqrt(2) - 1 and u's mantissa crosses 0x6a09e.
    for (let k = 0; k < 20_000; k++) out.push(0.8812 + k * 1e-7);
    const rng = new Random(33);
    // Log-uniform magnitudes over the whole range, and normal margins as a fit sees them.
    for (let k = 0; k < 400_000; k++) out.push(2 ** rng.uniform(-20, 10.5));
    for (let k = 0; k < 200_000; k++) out.push(rng.normal() * 4);
    const m = Float64Array.from(out);
    for (let i = 0; i < m.length; i += 2) m[i] = -m[i]!;
    return m;
  }

  it('gives the JavaScript loop (Math.exp, Math.log1p) bit for bit: every residual and both sums, with and without row weights', () => {
    const m = awkwardMargins();
    const rng = new Random(34);
    const y = Float64Array.from(m, () => (rng.next() < 0.4 ? 1 : 0));
    const w = Float64Array.from(m, () => rng.uniform(0.1, 4));
    for (const weights of [undefined, w]) {
      // Odd and even row counts (the last row of an odd count takes the scalar path).
      for (const n of [m.length, m.length - 1, 7, 1]) {
        const mm = m.subarray(0, n);
        const got = logisticResidualsKernel(mm, y, weights);
        const want = logisticResidualsReference(mm, y, weights);
        let bad = -1;
        for (let i = 0; i < n && bad < 0; i++) if (!Object.is(got.resid[i], want.resid[i])) bad = i;
        if (bad >= 0) expect.fail(`margin ${mm[bad]}: residual ${got.resid[bad]} is not ${want.resid[bad]}`);
        expect(Object.is(got.loss, want.loss) || (Number.isNaN(got.loss) && Number.isNaN(want.loss))).toBe(true);
        expect(Object.is(got.gb, want.gb) || (Number.isNaN(got.gb) && Number.isNaN(want.gb))).toBe(true);
      }
    }
    // Finite margins only: the sums themselves are compared as numbers.
    const finite = m.filter((v) => Number.isFinite(v));
    const got = logisticResidualsKernel(finite, y);
    const want = logisticResidualsReference(finite, y);
    expect(got.loss).toBe(want.loss);
    expect(got.gb).toBe(want.gb);
  });

  it('fits bit for bit as the JavaScript loop does, with either line search', () => {
    for (const lineSearch of ['more-thuente', 'backtracking'] as const) {
      const { x, y } = linearData(3001, 9);
      const w = Float64Array.from({ length: x.rows }, (_, i) => 0.5 + (i % 7) / 3);
      for (const weights of [undefined, w]) {
        const data = weights ? { x, y, weights } : { x, y };
        const a = trainLogistic(data, { lineSearch });
        const b = trainLogistic(data, { lineSearch, residuals: 'javascript' });
        expect([...a.weights]).toEqual([...b.weights]);
        expect(a.intercept).toBe(b.intercept);
      }
    }
  });
});

describe('logistic fits are pinned', () => {
  // Hashes of the weights, intercept, means and scales of fits on fixed data, recorded from the solver as it is: a
  // change to the kernels or the solver that moves any bit of a fit fails here (the blocked evaluation is meant to
  // give the same additions in the same order as one pass over the whole matrix).
  function fitHash(n: number, d: number, missing: number, params: Parameters<typeof trainLogistic>[1], weighted: boolean): string {
    const wide = Math.max(d, 5);
    const raw = syntheticBinary(n, wide, 11 * n + d, { missing });
    const x = featureMatrix(n, d, Float64Array.from({ length: n * d }, (_, k) => raw.x.data[Math.floor(k / d) * wide + (k % d)]!));
    const weights = weighted ? Float64Array.from({ length: n }, (_, i) => 0.5 + ((i * 7919) % 13) / 5) : undefined;
    const m = trainLogistic({ x, y: raw.y, ...(weights ? { weights } : {}) }, params);
    return createHash('sha256')
      .update(Buffer.from(m.weights.buffer))
      .update(Buffer.from(Float64Array.of(m.intercept).buffer))
      .update(Buffer.from(m.mean.buffer))
      .update(Buffer.from(m.scale.buffer))
      .digest('hex')
      .slice(0, 16);
  }

  it('gives the recorded weights bit for bit by default (backtracking search; either residual path; recorded before the kernel computed the losses)', () => {
    for (const residuals of ['kernel', 'javascript'] as const) {
      const p = { residuals } as const;
      expect(fitHash(1001, 50, 0.02, { ...p }, true)).toBe('7fdbb2661c17e21c');
      expect(fitHash(1001, 50, 0.02, { ...p, l2: 3, tolerance: 1e-8, relativeDecrease: 0 }, false)).toBe('3d0460ebdf960e3d');
      expect(fitHash(1001, 50, 0.02, { ...p, standardize: false }, false)).toBe('66c69cfa95e54c87');
      expect(fitHash(16000, 50, 0.02, { ...p }, false)).toBe('a477f7c2cc9160f1');
      expect(fitHash(130, 129, 0.01, { ...p, l2: 0.1 }, true)).toBe('76832cf8f12a0cb4');
      expect(fitHash(4099, 3, 0.3, { ...p, standardize: false }, true)).toBe('0cc50960480176cb');
    }
  });

  it("gives the recorded weights bit for bit with Moré-Thuente's search", () => {
    const p = { lineSearch: 'more-thuente' } as const;
    expect(fitHash(1001, 50, 0.02, { ...p }, true)).toBe('1bb91b7112e2baef');
    expect(fitHash(1001, 50, 0.02, { ...p, l2: 3, tolerance: 1e-8, relativeDecrease: 0 }, false)).toBe('36406788930e1d90');
    expect(fitHash(1001, 50, 0.02, { ...p, standardize: false }, false)).toBe('6f5bdc157fffcc34');
    expect(fitHash(16000, 50, 0.02, { ...p }, false)).toBe('fef26399e7709384');
    expect(fitHash(130, 129, 0.01, { ...p, l2: 0.1 }, true)).toBe('1e1e3bbecf4a194d');
    // The same weights as the backtracking search: every step of this fit is the unit step in both.
    expect(fitHash(4099, 3, 0.3, { ...p, standardize: false }, true)).toBe('0cc50960480176cb');
  });
});

describe('the log1p fit option', () => {
  /** Every kind of value the detectors' log features meet, and the thresholds of fdlibm's log1p. */
  function awkwardValues(): Float64Array {
    const fromBits = (bits: bigint): number => new Float64Array(BigUint64Array.of(bits).buffer)[0]!;
    const out: number[] = [0, -0, NaN, -NaN, Infinity, -Infinity, -1, -0.5, -65536, -1e300, 5e-324, 2.2e-308, 1e-300, Number.MAX_VALUE, 2 ** 53, 2 ** 53 - 1, 2 ** 53 + 2, 1e300];
    const around = (v: number): void => {
      const b = new BigUint64Array(Float64Array.of(v).buffer)[0]!;
      for (let k = -3n; k <= 3n; k++) out.push(fromBits(b + k));
    };
    // log1p's 2^-54, 2^-29 and sqrt(2) - 1 tests, u's 2^53 test, the smallest normal, and 2^k - 1 (u a power of two:
    // f = 0, and fdlibm's |f| < 2^-20 forms just above it).
    for (const v of [2 ** -54, 2 ** -29, Math.SQRT2 - 1, fromBits(0x3fda827a00000000n), 2 ** 53, 2 ** -1022, 1, 0.5]) around(v);
    for (let k = 1; k <= 1023; k++) {
      around(2 ** k - 1);
      out.push(2 ** k - 1 + 2 ** (k - 21), 2 ** k * Math.SQRT2 - 1);
    }
    // Whole numbers of the detectors' table and past it.
    for (let k = 0; k <= 70_000; k++) out.push(k);
    // Subnormals, a sweep across sqrt(2) - 1, and random bit patterns (both signs, every exponent).
    for (let k = 1; k < 2000; k++) out.push(k * 5e-324, fromBits(BigInt(k) * 0x0000_0100_0000_0001n));
    for (let k = 0; k < 20_000; k++) out.push(0.41421 + k * 1e-9);
    const rng = new Random(35);
    const bits = new BigUint64Array(200_000);
    for (let k = 0; k < bits.length; k++) bits[k] = (BigInt(Math.floor(rng.next() * 2 ** 32)) << 32n) | BigInt(Math.floor(rng.next() * 2 ** 32));
    for (const v of new Float64Array(bits.buffer)) out.push(v);
    for (let k = 0; k < 100_000; k++) out.push(Math.expm1(Math.fround(rng.uniform(0, 25))));
    // Runs of zeros and negatives (the kernel stores a group of eight values <= 0 as zeros), one with -0, one with a NaN.
    for (let k = 0; k < 64; k++) out.push(k % 3 === 0 ? -0 : k % 3 === 1 ? 0 : -k);
    out.push(0, 0, 0, NaN, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, 3);
    return Float64Array.from(out);
  }

  it('the kernel gives Math.log1p(Math.max(0, v)) bit for bit: edge values, whole numbers, subnormals, huge, NaN', () => {
    const values = awkwardValues();
    // Every start within a group of eight and odd and even counts (the last odd value takes the imported Math.log1p).
    for (const [start, n] of [[0, values.length], [1, values.length - 1], [3, 13], [0, 1], [5, 2], [0, 8], [0, 9], [7, 17]] as const) {
      const v = values.subarray(start, start + n);
      const got = log1pKernel(v);
      let bad = -1;
      for (let i = 0; i < v.length && bad < 0; i++) if (!Object.is(got[i], Math.log1p(Math.max(0, v[i]!)))) bad = i;
      if (bad >= 0) expect.fail(`value ${v[bad]}: ${got[bad]} is not ${Math.log1p(Math.max(0, v[bad]!))}`);
    }
  });

  it('fits bit for bit as a fit on log1pFeatures does (kernel and JavaScript paths, weights, one feature, no standardisation)', () => {
    const hash = (m: ReturnType<typeof trainLogistic>): string =>
      createHash('sha256').update(Buffer.from(m.weights.buffer)).update(Buffer.from(Float64Array.of(m.intercept).buffer)).update(Buffer.from(m.mean.buffer)).update(Buffer.from(m.scale.buffer)).digest('hex');
    for (const [n, d, missing] of [[3001, 28, 0.02], [1001, 7, 0.05], [500, 1, 0], [130, 129, 0.01]] as const) {
      const wide = Math.max(d, 5);
      const raw = syntheticBinary(n, wide, 7 * n + d, { missing });
      const cols = Float64Array.from({ length: n * d }, (_, k) => raw.x.data[Math.floor(k / d) * wide + (k % d)]!);
      // Raw-looking values: counts (whole numbers), zeros, negatives and fractions spread over decades.
      const x = featureMatrix(n, d, cols.map((v, k) => (v !== v ? v : k % 5 === 0 ? Math.round(Math.exp(v * 3)) : k % 7 === 0 ? 0 : k % 11 === 0 ? -v : Math.expm1(v * 4))));
      const weights = Float64Array.from({ length: n }, (_, i) => 0.5 + (i % 7) / 3);
      for (const params of [{}, { standardize: false }, { residuals: 'javascript' }, { lineSearch: 'more-thuente' }] as const)
        for (const w of [undefined, weights]) {
          const data = { x, y: raw.y, ...(w ? { weights: w } : {}) };
          expect(hash(trainLogistic(data, { ...params, log1p: true })), `${n} x ${d} ${JSON.stringify(params)}`).toBe(hash(trainLogistic({ ...data, x: log1pFeatures(x) }, params)));
        }
    }
  });
});
