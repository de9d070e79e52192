import { afterEach, describe, expect, it } from 'vitest';
import { featureMatrix } from './dataset.js';
import { trainGbdt, type GbdtModel, type GbdtParams } from './gbdt.js';
import { binMatrix, binOf, computeCuts, growTree, setHistogramKernelLimit } from './hist.js';
import { syntheticBinary } from './synthetic.js';

const DEFAULT_LIMIT = setHistogramKernelLimit(512 << 20);
afterEach(() => setHistogramKernelLimit(DEFAULT_LIMIT));

/** Every number of every tree, in order. */
function treeNumbers(m: GbdtModel): number[] {
  return m.trees.flatMap((t) => [...t.feature, ...t.threshold, ...t.left, ...t.right, ...t.defaultLeft, ...t.value, ...t.cover, ...t.gain]);
}

function bothWays(rows: number, cols: number, params: GbdtParams, weighted = false): { kernel: number[]; loop: number[] } {
  const { x, y } = syntheticBinary(rows, cols, rows + cols, { missing: 0.05 });
  const data = { x: featureMatrix(rows, cols, x.data), y, ...(weighted ? { weights: Float64Array.from({ length: rows }, (_, i) => 0.5 + (i % 3)) } : {}) };
  setHistogramKernelLimit(DEFAULT_LIMIT);
  const kernel = treeNumbers(trainGbdt(data, params));
  setHistogramKernelLimit(0);
  const loop = treeNumbers(trainGbdt(data, params));
  return { kernel, loop };
}

describe('histogram kernel (WebAssembly: build, subtraction, split search) against the JavaScript loops', () => {
  it('grows the same trees, number for number, on 16-bit slots', () => {
    const { kernel, loop } = bothWays(1500, 20, { rounds: 12, maxDepth: 5, eta: 0.3 });
    expect(kernel.length).toBeGreaterThan(12 * 7);
    expect(kernel).toEqual(loop);
  });

  it('grows the same trees with 32-bit slots (more than 65,535 bins in all), column and row sampling and weights', () => {
    const { kernel, loop } = bothWays(600, 300, { rounds: 6, maxDepth: 4, subsample: 0.7, colsampleByTree: 0.5, seed: 9 }, true);
    expect(kernel.length).toBeGreaterThan(6 * 7);
    expect(kernel).toEqual(loop);
  });

  it('grows the same trees over whole rows of slots (every feature used), 16- and 32-bit slots, odd column counts', () => {
    for (const [rows, cols] of [[900, 7], [500, 301]] as const) {
      const { kernel, loop } = bothWays(rows, cols, { rounds: 4, maxDepth: 4, subsample: 0.8, seed: 3 });
      expect(kernel.length).toBeGreaterThan(4 * 7);
      expect(kernel).toEqual(loop);
    }
  });

  it('leaves out features with every row in one bin, but splits on a one-value feature whose missing values tell', () => {
    const { x, y } = syntheticBinary(800, 5, 12, { missing: 0 });
    // Columns 5 and 6 hold one value; column 6 is missing exactly on the positive rows of every third row.
    const wide = featureMatrix(800, 7, new Float64Array(800 * 7));
    for (let i = 0; i < 800; i++) {
      for (let f = 0; f < 5; f++) wide.data[i * 7 + f] = x.data[i * 5 + f]!;
      wide.data[i * 7 + 5] = 3;
      wide.data[i * 7 + 6] = i % 3 === 0 && y[i] === 1 ? NaN : 2;
    }
    const params = { rounds: 6, maxDepth: 3, eta: 0.3 };
    for (const limit of [DEFAULT_LIMIT, 0]) {
      setHistogramKernelLimit(limit);
      const m = trainGbdt({ x: wide, y }, params);
      const used = new Set(m.trees.flatMap((t) => Array.from(t.feature).filter((f) => f >= 0)));
      expect(used.has(5)).toBe(false);
      expect(used.has(6)).toBe(true);
      // Without the one-value, never-missing column the trees are the same, features renumbered.
      const narrow = featureMatrix(800, 6, Float64Array.from({ length: 800 * 6 }, (_, k) => wide.data[Math.floor(k / 6) * 7 + (k % 6 === 5 ? 6 : k % 6)]!));
      const n = trainGbdt({ x: narrow, y }, params);
      const renumbered = n.trees.map((t) => ({ ...t, feature: t.feature.map((f) => (f === 5 ? 6 : f)) }));
      expect(treeNumbers({ ...m, trees: renumbered })).toEqual(treeNumbers(m));
    }
  });

  it('grows the same squared-error tree with a gamma pruning pass, and the same trees on a second matrix after the first', () => {
    const a = bothWays(800, 8, { objective: 'reg:squarederror', rounds: 3, gamma: 0.5, maxDepth: 6 });
    expect(a.kernel).toEqual(a.loop);
    const b = bothWays(700, 9, { rounds: 4, maxDepth: 3 });
    expect(b.kernel).toEqual(b.loop);
    expect(b.kernel).not.toEqual(a.kernel);
  });

  it('grows the same deep trees (a histogram per level of the path), with a child weight floor and no regularisation', () => {
    const { kernel, loop } = bothWays(2000, 6, { rounds: 3, maxDepth: 14, minChildWeight: 0, lambda: 0, eta: 1 });
    expect(kernel.length).toBeGreaterThan(3 * 200);
    expect(kernel).toEqual(loop);
  });

  it('leaves the rows partitioned the same way, each leaf slice in the same order', () => {
    const { x, y } = syntheticBinary(900, 7, 4, { missing: 0.1 });
    const binned = binMatrix(x, computeCuts(x, 64));
    const grad = Float64Array.from(y, (v, i) => v - 0.5 + (i % 5) * 0.01);
    const hess = new Float64Array(x.rows).fill(0.25);
    const features = Int32Array.from([0, 2, 3, 4, 6]);
    const params = { maxDepth: 5, minChildWeight: 1, lambda: 1, gamma: 0, eta: 0.3 };
    const grow = (limit: number): { rows: number[]; start: number[]; end: number[] } => {
      setHistogramKernelLimit(limit);
      const g = growTree(binned, grad, hess, Uint32Array.from({ length: x.rows }, (_, i) => i), features, params);
      return { rows: [...g.rows], start: [...g.leafStart], end: [...g.leafEnd] };
    };
    const kernel = grow(DEFAULT_LIMIT);
    const loop = grow(0);
    expect(kernel.start.filter((s) => s >= 0).length).toBeGreaterThan(8);
    expect(kernel).toEqual(loop);
    expect(kernel.rows).not.toEqual([...Array(x.rows).keys()]);
  });
});

describe('cuts, and bins from the kernel', () => {
  /** computeCuts as written with the engine's typed-array sort (the reference order). */
  function referenceCuts(x: ReturnType<typeof featureMatrix>, maxBins: number): { cuts: number[][]; minValues: number[] } {
    const cuts: number[][] = [];
    const minValues: number[] = [];
    for (let f = 0; f < x.cols; f++) {
      const sorted = Float64Array.from({ length: x.rows }, (_, r) => x.data[r * x.cols + f]!)
        .filter((v) => v === v)
        .sort();
      minValues.push(sorted.length > 0 ? sorted[0]! : NaN);
      const distinct = new Set(sorted).size;
      const out: number[] = [];
      if (distinct <= maxBins) for (let k = 1; k < sorted.length; k++) if (sorted[k] !== sorted[k - 1]) out.push(sorted[k]!);
      if (distinct > maxBins)
        for (let i = 1; i < maxBins; i++) {
          const v = sorted[Math.floor((i * sorted.length) / maxBins)]!;
          if (v > sorted[0]! && (out.length === 0 || v > out[out.length - 1]!)) out.push(v);
        }
      cuts.push(out);
    }
    return { cuts, minValues };
  }

  it('cuts as documented (radix-sorted in the kernel or by the typed-array sort), and the kernel bins equal those of the binary search, on signed, repeated, infinite, zero-signed and missing values', () => {
    const rows = 3001;
    const rng = (() => {
      let s = 12345;
      return (): number => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    })();
    const kinds = [
      () => (rng() - 0.5) * 1e6,
      () => Math.floor(rng() * 7) - 3,
      () => (rng() < 0.5 ? -0 : 0),
      () => [Infinity, -Infinity, 1e-300, -1e-300, 5e-324, -5e-324, 2][Math.floor(rng() * 7)]!,
      () => Math.log1p(Math.floor(rng() * 2000)),
      () => (rng() < 0.3 ? NaN : rng() * 10),
      () => NaN,
      () => 4.25,
    ];
    const cols = kinds.length;
    const data = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let f = 0; f < cols; f++) data[r * cols + f] = r % 97 === 0 && f > 0 ? NaN : kinds[f]!();
    const x = featureMatrix(rows, cols, data);
    for (const maxBins of [256, 16, 2]) {
      const ref = referenceCuts(x, maxBins);
      const got = computeCuts(x, maxBins);
      const before = setHistogramKernelLimit(0);
      const sortedInJs = computeCuts(x, maxBins);
      setHistogramKernelLimit(before);
      expect(got.cuts.map((c) => [...c])).toEqual(sortedInJs.cuts.map((c) => [...c]));
      expect([...got.minValues]).toEqual([...sortedInJs.minValues]);
      expect(got.cuts.map((c) => [...c])).toEqual(ref.cuts);
      expect([...got.minValues]).toEqual(ref.minValues);
      const kernel = binMatrix(x, got);
      const previous = setHistogramKernelLimit(0);
      const loop = binMatrix(x, got);
      setHistogramKernelLimit(previous);
      expect([...loop.bins]).toEqual(Array.from(data, (v, k) => binOf(got.cuts[k % cols]!, v)));
      expect([...kernel.bins]).toEqual([...loop.bins]);
      expect(new Set(kernel.bins).size).toBeGreaterThan(maxBins === 2 ? 2 : 16);
    }
  });
});
