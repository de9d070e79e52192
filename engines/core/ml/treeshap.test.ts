// TreeSHAP against brute-force Shapley values (every feature subset, cover-weighted conditional expectations) on random trees, ensembles and trained models.
import { describe, expect, it } from 'vitest';
import { featureMatrix } from './dataset.js';
import { baseMargin, predictMarginRow, trainGbdt, type GbdtModel } from './gbdt.js';
import { Random } from './random.js';
import { syntheticBinary } from './synthetic.js';
import { allocTree, type Tree } from './tree.js';
import { TreeExplainer, topDrivers, treeShap } from './treeshap.js';

/** E[tree(x) | features in S fixed to x]: follow x on features in S, average children by cover elsewhere. */
function conditional(tree: Tree, x: ArrayLike<number>, inS: (f: number) => boolean, node = 0): number {
  const l = tree.left[node]!;
  if (l < 0) return tree.value[node]!;
  const r = tree.right[node]!;
  const f = tree.feature[node]!;
  if (inS(f)) {
    const v = x[f]!;
    const goLeft = Number.isNaN(v) ? tree.defaultLeft[node] === 1 : v < tree.threshold[node]!;
    return conditional(tree, x, inS, goLeft ? l : r);
  }
  const cl = tree.cover[l]!;
  const cr = tree.cover[r]!;
  return (cl * conditional(tree, x, inS, l) + cr * conditional(tree, x, inS, r)) / (cl + cr);
}

/** Shapley values by enumerating all 2^M subsets. */
function bruteForceShap(model: GbdtModel, x: ArrayLike<number>): { values: number[]; expected: number } {
  const m = model.numFeatures;
  const v = (mask: number): number => {
    let s = baseMargin(model);
    for (const t of model.trees) s += conditional(t, x, (f) => (mask & (1 << f)) !== 0);
    return s;
  };
  const fact = [1];
  for (let i = 1; i <= m; i++) fact.push(fact[i - 1]! * i);
  const values = new Array<number>(m).fill(0);
  const cache = new Float64Array(1 << m);
  for (let mask = 0; mask < 1 << m; mask++) cache[mask] = v(mask);
  for (let i = 0; i < m; i++) {
    for (let mask = 0; mask < 1 << m; mask++) {
      if (mask & (1 << i)) continue;
      let size = 0;
      for (let k = mask; k; k &= k - 1) size++;
      const weight = (fact[size]! * fact[m - size - 1]!) / fact[m]!;
      values[i] = values[i]! + weight * (cache[mask | (1 << i)]! - cache[mask]!);
    }
  }
  return { values, expected: cache[0]! };
}

/** A random full tree of the given depth over m features (features repeat along paths), random covers and leaves. */
function randomTree(rng: Random, depth: number, m: number): Tree {
  const n = 2 ** (depth + 1) - 1;
  const t = allocTree(n);
  t.cover[0] = 100;
  for (let i = 0; i < n; i++) {
    const l = 2 * i + 1;
    if (l >= n) {
      t.value[i] = rng.uniform(-2, 2);
      continue;
    }
    t.feature[i] = rng.int(m);
    t.threshold[i] = rng.uniform(-1, 1);
    t.left[i] = l;
    t.right[i] = l + 1;
    t.defaultLeft[i] = rng.int(2);
    const share = rng.uniform(0.05, 0.95);
    t.cover[l] = t.cover[i]! * share;
    t.cover[l + 1] = t.cover[i]! * (1 - share);
  }
  return t;
}

function randomRow(rng: Random, m: number): number[] {
  return Array.from({ length: m }, () => (rng.next() < 0.15 ? NaN : rng.uniform(-1.2, 1.2)));
}

describe('TreeSHAP', () => {
  it('equals brute-force Shapley values on random single trees with repeated features and missing values', () => {
    expect.hasAssertions();
    const rng = new Random(31);
    for (let trial = 0; trial < 40; trial++) {
      const m = 2 + rng.int(5);
      const model: GbdtModel = { objective: 'reg:squarederror', baseScore: 0, numFeatures: m, trees: [randomTree(rng, 1 + rng.int(5), m)] };
      const explainer = new TreeExplainer(model);
      const xs = Array.from({ length: 5 }, () => randomRow(rng, m));
      // The first rows go through the recursion; a 50-row matrix (each row 10 times) builds and uses the tables.
      const matrix = explainer.explainMatrix(featureMatrix(50, m, Float64Array.from({ length: 50 * m }, (_, k) => xs[Math.floor(k / m) % 5]![k % m]!)));
      xs.forEach((x, k) => {
        const exact = bruteForceShap(model, x);
        const shap = explainer.explainRow(x);
        expect(shap.expectedValue).toBeCloseTo(exact.expected, 10);
        exact.values.forEach((v, i) => expect(shap.values[i]).toBeCloseTo(v, 10));
        exact.values.forEach((v, i) => expect(matrix[(k + 5) * (m + 1) + i]).toBeCloseTo(v, 10));
      });
    }
  });

  it('equals brute force on random ensembles with a logistic base score', () => {
    expect.hasAssertions();
    const rng = new Random(32);
    for (let trial = 0; trial < 10; trial++) {
      const m = 6;
      const trees = Array.from({ length: 5 }, () => randomTree(rng, 2 + rng.int(4), m));
      const model: GbdtModel = { objective: 'binary:logistic', baseScore: 0.3, numFeatures: m, trees };
      const x = randomRow(rng, m);
      const exact = bruteForceShap(model, x);
      const shap = treeShap(model, x);
      expect(shap.expectedValue).toBeCloseTo(exact.expected, 10);
      exact.values.forEach((v, i) => expect(shap.values[i]).toBeCloseTo(v, 10));
    }
  });

  it('equals brute force on a trained model, and sums to the margin', () => {
    expect.hasAssertions();
    const { x, y } = syntheticBinary(800, 7, 33, { missing: 0.1 });
    const model = trainGbdt({ x, y }, { rounds: 15, maxDepth: 5, eta: 0.3 });
    const explainer = new TreeExplainer(model);
    for (let i = 0; i < 6; i++) {
      const row = x.data.subarray(i * 7, (i + 1) * 7);
      const exact = bruteForceShap(model, row);
      const shap = explainer.explainRow(row);
      exact.values.forEach((v, k) => expect(shap.values[k]).toBeCloseTo(v, 9));
      const sum = shap.values.reduce((a, b) => a + b, shap.expectedValue);
      expect(sum).toBeCloseTo(predictMarginRow(model, row), 10);
    }
  });

  it('local accuracy on a wide model, and unused features get zero', () => {
    expect.hasAssertions();
    const { x, y } = syntheticBinary(1500, 30, 34, { missing: 0.05 });
    const model = trainGbdt({ x, y }, { rounds: 20, maxDepth: 6, colsampleByTree: 0.5 });
    const used = new Set<number>();
    for (const t of model.trees) for (let i = 0; i < t.left.length; i++) if (t.left[i]! >= 0) used.add(t.feature[i]!);
    const probe = featureMatrix(50, 30, x.data.slice(0, 50 * 30));
    const contribs = new TreeExplainer(model).explainMatrix(probe);
    for (let i = 0; i < 50; i++) {
      const row = contribs.subarray(i * 31, (i + 1) * 31);
      const sum = row.reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(predictMarginRow(model, probe.data, i * 30), 10);
      for (let f = 0; f < 30; f++) if (!used.has(f)) expect(row[f]).toBe(0);
    }
  });

  it('the per-leaf tables agree with the recursive algorithm to 1e-12, row by row and by matrix', () => {
    const { x, y } = syntheticBinary(1200, 9, 35, { missing: 0.1 });
    const model = trainGbdt({ x, y }, { rounds: 25, maxDepth: 6, eta: 0.3 });
    const probe = featureMatrix(300, 9, x.data.slice(0, 300 * 9));
    const byTables = new TreeExplainer(model).explainMatrix(probe);
    const recursive = new TreeExplainer(model, { tables: false }).explainMatrix(probe);
    let worst = 0;
    for (let i = 0; i < byTables.length; i++) worst = Math.max(worst, Math.abs(byTables[i]! - recursive[i]!));
    expect(worst).toBeLessThan(1e-12);
    const row = new TreeExplainer(model).explainRow(probe.data, 9 * 17);
    row.values.forEach((v, f) => expect(Math.abs(v - recursive[17 * 10 + f]!)).toBeLessThan(1e-12));
  });

  it('a path with more than ten distinct features falls back to the recursion, alone and mixed with tabled trees', () => {
    expect.hasAssertions();
    const m = 12;
    const depth = 11;
    const deep = randomTree(new Random(36), depth, m);
    // Level d splits on feature d: every path holds 11 distinct features.
    for (let i = 0, level = 0, next = 1; i < deep.left.length; i++) {
      if (i === next) {
        level++;
        next = 2 * next + 1;
      }
      if (deep.left[i]! >= 0) deep.feature[i] = level;
    }
    const rng = new Random(37);
    const model: GbdtModel = { objective: 'reg:squarederror', baseScore: 0.5, numFeatures: m, trees: [randomTree(rng, 4, m), deep, randomTree(rng, 3, m)] };
    const x = randomRow(rng, m);
    const exact = bruteForceShap(model, x);
    const shap = new TreeExplainer(model).explainRow(x);
    exact.values.forEach((v, i) => expect(shap.values[i]).toBeCloseTo(v, 9));
    // Enough rows that the tables are built: the shallow trees use them, the deep one still recurses.
    const rows = 60;
    const matrix = new TreeExplainer(model).explainMatrix(featureMatrix(rows, m, Float64Array.from({ length: rows * m }, (_, k) => x[k % m]!)));
    for (let r = 0; r < rows; r++) exact.values.forEach((v, i) => expect(matrix[r * (m + 1) + i]).toBeCloseTo(v, 9));
  });

  it('top drivers are the largest absolute contributions', () => {
    const drivers = topDrivers({ values: Float64Array.from([0.1, -0.7, 0, 0.3]), expectedValue: 0 }, [5, 6, 7, 8], 2, ['a', 'b', 'c', 'd']);
    expect(drivers).toEqual([
      { feature: 1, name: 'b', value: 6, contribution: -0.7 },
      { feature: 3, name: 'd', value: 8, contribution: 0.3 },
    ]);
  });
});
