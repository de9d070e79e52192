// Histogram-based tree growing: quantile bin cuts per feature (at most max_bins bins), a binned matrix, and a second-order split finder with learned missing directions.
import type { FeatureMatrix } from './dataset.js';
import { Random } from './random.js';
import { allocTree, type Tree } from './tree.js';
import { WASM } from './histbuild.wasm.js';
import { compileKernel, growMemory, instantiateKernel, type WasmMemory } from '../wasm.js';

/**
 * Per-feature cut points. A value v falls in bin = number of cuts <= v (so bins 0..cuts.length),
 * and a split after bin j is the test v < cuts[j]. Missing values have their own bin, cuts.length + 1.
 */
export interface BinCuts {
  readonly cuts: readonly Float64Array[];
  /** Smallest observed value per feature (NaN when the feature is never observed). */
  readonly minValues: Float64Array;
}

/** Rows used to find cut points; above this the cuts come from a seeded sample of rows. */
const CUT_SAMPLE_ROWS = 200_000;

/** One feature's cuts from its sorted observed values (the rule computeCuts documents). */
function cutsOfSorted(sorted: Float64Array, maxBins: number): Float64Array {
  const m = sorted.length;
  let distinct = 0;
  for (let k = 0; k < m; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) distinct++;
  const out: number[] = [];
  if (distinct <= maxBins) {
    for (let k = 1; k < m; k++) if (sorted[k] !== sorted[k - 1]) out.push(sorted[k]!);
  } else {
    for (let i = 1; i < maxBins; i++) {
      const v = sorted[Math.floor((i * m) / maxBins)]!;
      if (v > sorted[0]! && (out.length === 0 || v > out[out.length - 1]!)) out.push(v);
    }
  }
  return Float64Array.from(out);
}

/**
 * Quantile cuts. A feature with at most `maxBins` distinct values gets one bin per value, each cut being the
 * next distinct value (XGBoost's hist cuts, so both learn the same thresholds on such data); otherwise the
 * cuts are the values at ranks i * n / maxBins, deduplicated.
 */
export function computeCuts(x: FeatureMatrix, maxBins = 256, seed = 0): BinCuts {
  if (!Number.isInteger(maxBins) || maxBins < 2 || maxBins > 65534) throw new RangeError('maxBins must be an integer in [2, 65534]');
  const rows = x.rows <= CUT_SAMPLE_ROWS ? null : new Random(seed).permutation(x.rows).subarray(0, CUT_SAMPLE_ROWS);
  const n = rows ? rows.length : x.rows;
  const cuts: Float64Array[] = [];
  const minValues = new Float64Array(x.cols);
  // Each column sorted by the kernel's radix sort (the typed-array sort's order, several times faster) when it fits.
  const kernel = n * 16 + 8192 <= kernelLimit ? (sharedKernel ??= new HistKernel()) : null;
  const sortAt = kernel ? kernel.sortSpace(n) : 0;
  const col = kernel ? new Float64Array(0) : new Float64Array(n);
  for (let f = 0; f < x.cols; f++) {
    const target = kernel ? kernel.f64 : col;
    const base = kernel ? sortAt / 8 : 0;
    const m = rows ? gatherSampled(x, f, rows, target, base) : gatherColumn(x, f, n, target, base);
    const sorted = kernel ? kernel.sortColumn(m) : col.subarray(0, m).sort();
    minValues[f] = m > 0 ? sorted[0]! : NaN;
    cuts.push(cutsOfSorted(sorted, maxBins));
  }
  return { cuts, minValues };
}

// computeCuts runs once per fit: its per-column loops are functions of their own, which V8 optimises after a few
// columns, rather than loops inside computeCuts that stay interpreted until computeCuts is compiled as a whole.

/** The observed (non-NaN) values of column f of rows 0..n-1, written at target[base...]; returns their count. */
function gatherColumn(x: FeatureMatrix, f: number, n: number, target: Float64Array, base: number): number {
  const { data, cols } = x;
  let m = 0;
  for (let k = 0, at = f; k < n; k++, at += cols) {
    const v = data[at]!;
    if (v === v) target[base + m++] = v;
  }
  return m;
}

/** gatherColumn over the listed rows. */
function gatherSampled(x: FeatureMatrix, f: number, rows: Uint32Array, target: Float64Array, base: number): number {
  const { data, cols } = x;
  let m = 0;
  for (let k = 0; k < rows.length; k++) {
    const v = data[rows[k]! * cols + f]!;
    if (v === v) target[base + m++] = v;
  }
  return m;
}

/** Bin of one value: count of cuts <= v (binary search); missing values get cuts.length + 1. */
export function binOf(cuts: Float64Array, v: number): number {
  if (v !== v) return cuts.length + 1;
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cuts[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The feature matrix as bin numbers (row-major, one Uint16 per cell). */
export interface BinnedMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly bins: Uint16Array;
  readonly cuts: BinCuts;
  /** Bins per feature including the missing bin: cuts.length + 2. */
  readonly binCount: Int32Array;
  /** Where each feature's bins start in a histogram. */
  readonly offset: Int32Array;
  readonly totalBins: number;
}

export function binMatrix(x: FeatureMatrix, cuts: BinCuts): BinnedMatrix {
  const binCount = new Int32Array(x.cols);
  const offset = new Int32Array(x.cols);
  let total = 0;
  for (let f = 0; f < x.cols; f++) {
    offset[f] = total;
    binCount[f] = cuts.cuts[f]!.length + 2;
    total += binCount[f]!;
  }
  const bins = new Uint16Array(x.rows * x.cols);
  if (x.rows > 0 && x.cols > 0 && total * 8 + (5 << 20) <= kernelLimit) {
    sharedKernel ??= new HistKernel();
    sharedKernel.bin(x, cuts, total, bins);
  } else
    for (let f = 0; f < x.cols; f++) {
      const c = cuts.cuts[f]!;
      for (let r = 0; r < x.rows; r++) bins[r * x.cols + f] = binOf(c, x.data[r * x.cols + f]!);
    }
  return { rows: x.rows, cols: x.cols, bins, cuts, binCount, offset, totalBins: total };
}

const slotCache = new WeakMap<BinnedMatrix, Uint16Array | Uint32Array>();
const constantCache = new WeakMap<BinnedMatrix, Uint8Array>();

/**
 * The features that can split: those with at least one cut, or with a missing value somewhere in the matrix. The
 * others have every row in one bin, so no split of theirs exists and their histograms are never read.
 */
function splittable(binned: BinnedMatrix, features: Int32Array): Int32Array {
  let constant = constantCache.get(binned);
  if (!constant) {
    const { bins, binCount, cols, rows } = binned;
    constant = new Uint8Array(cols);
    for (let f = 0; f < cols; f++) {
      if (binCount[f]! !== 2) continue;
      let missing = false;
      for (let r = 0; r < rows && !missing; r++) missing = bins[r * cols + f] === 1;
      constant[f] = missing ? 0 : 1;
    }
    constantCache.set(binned, constant);
  }
  let keep = 0;
  for (let i = 0; i < features.length; i++) if (!constant[features[i]!]) keep++;
  if (keep === features.length) return features;
  const out = new Int32Array(keep);
  for (let i = 0, k = 0; i < features.length; i++) if (!constant[features[i]!]) out[k++] = features[i]!;
  return out;
}

/** Each cell's histogram slot (its feature's offset plus its bin), computed once per binned matrix: one load per cell while building histograms. */
function histogramSlots(binned: BinnedMatrix): Uint16Array | Uint32Array {
  const hit = slotCache.get(binned);
  if (hit) return hit;
  const { bins, offset, cols } = binned;
  const slots = binned.totalBins <= 0xffff ? new Uint16Array(bins.length) : new Uint32Array(bins.length);
  for (let f = 0; f < cols; f++) addOffset(bins, slots, f, cols, offset[f]!);
  slotCache.set(binned, slots);
  return slots;
}

/** slots := bins + o over column f (a function per column, optimised after a few columns). */
function addOffset(bins: Uint16Array, slots: Uint16Array | Uint32Array, f: number, cols: number, o: number): void {
  for (let k = f; k < bins.length; k += cols) slots[k] = o + bins[k]!;
}

/** histbuild.wat's exports (see the comments there). */
interface HistExports {
  readonly memory: WasmMemory;
  build(hist: number, histBytes: number, slots: number, wide: number, rowBytes: number, rows: number, count: number, gh: number, feats: number, nf: number): void;
  buildAll(hist: number, histBytes: number, slots: number, wide: number, rowBytes: number, rows: number, count: number, gh: number): void;
  subtract(parent: number, small: number, bytes: number): void;
  partition(rows: number, count: number, slots: number, wide: number, rowBytes: number, fo: number, lastLeft: number, missing: number, defaultLeft: number, gh: number, scratch: number, out: number): number;
  find(hist: number, table: number, nf: number, G: number, H: number, lambda: number, minChildWeight: number, out: number): number;
  bin(x: number, rows: number, cols: number, f: number, cuts: number, n: number, out: number): void;
  sort(keys: number, count: number, tmp: number, counts: number): void;
}

/** Largest WebAssembly memory the histogram kernel takes (a copy of the slots among it); above it the JavaScript loop runs. */
let kernelLimit = 512 << 20;

/** Sets the kernel's memory limit (tests use 0 to run the JavaScript loop); returns the previous one. */
export function setHistogramKernelLimit(bytes: number): number {
  const before = kernelLimit;
  kernelLimit = bytes;
  return before;
}

/** The histogram kernel's instance, the slots it holds, and views of its memory. */
class HistKernel {
  readonly exports: HistExports;
  u8: Uint8Array;
  u32: Uint32Array;
  f64: Float64Array;
  /** The slots array copied at `slotsAt`, so that the next tree over the same matrix does not copy it again. */
  loaded: Uint16Array | Uint32Array | null = null;
  i32: Int32Array;
  private readonly slotsAt = 0;
  private tableAt = 0;
  private outAt = 0;
  private histAt = 0;
  private histBytes = 0;
  private rowsAt = 0;
  private scratchAt = 0;
  private offset: Int32Array = new Int32Array(0);
  private binCount: Int32Array = new Int32Array(0);
  private ghAt = 0;
  private featsAt = 0;
  private nf = 0;
  /** Whether the features used are every column, in order (build then reads whole rows of slots). */
  private all = false;
  private sortN = 0;
  private wide = 0;
  private rowBytes = 0;

  constructor() {
    this.exports = instantiateKernel<HistExports>(compileKernel(WASM));
    this.u8 = new Uint8Array(0);
    this.u32 = new Uint32Array(0);
    this.i32 = new Int32Array(0);
    this.f64 = new Float64Array(0);
    this.views();
  }

  private views(): void {
    const buffer = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.f64 = new Float64Array(buffer);
  }

  /**
   * Lays out the memory for one tree: slots first (kept across trees over the same matrix), then the rows, the
   * (gradient, hessian) pairs, the features, the split-finder table and result, and the histograms last (they grow).
   * False when the layout with `histograms` histograms would pass the memory limit.
   */
  prepare(binned: BinnedMatrix, slots: Uint16Array | Uint32Array, grad: Float64Array, hess: Float64Array, rows: Uint32Array, features: Int32Array, histograms: number): boolean {
    const n = rows.length;
    const slotBytes = slots.byteLength;
    const rowsAt = (slotBytes + 15) & ~15;
    const scratchAt = rowsAt + n * 4;
    const ghAt = (scratchAt + n * 4 + 15) & ~15;
    const featsAt = ghAt + binned.rows * 16;
    const tableAt = featsAt + features.length * 4;
    const outAt = (tableAt + features.length * 12 + 15) & ~15;
    const histAt = outAt + 32;
    const histBytes = binned.totalBins * 16;
    if (histAt + histograms * histBytes > kernelLimit) return false;
    this.reserve(histAt + histBytes);
    if (this.loaded !== slots) {
      this.u8.set(new Uint8Array(slots.buffer, slots.byteOffset, slotBytes), 0);
      this.loaded = slots;
    }
    this.u32.set(rows, rowsAt / 4);
    const f64 = this.f64;
    for (let r = 0, q = ghAt / 8; r < binned.rows; r++, q += 2) {
      f64[q] = grad[r]!;
      f64[q + 1] = hess[r]!;
    }
    this.wide = slots instanceof Uint32Array ? 1 : 0;
    const cell = this.wide ? 4 : 2;
    const i32 = this.i32;
    for (let i = 0; i < features.length; i++) {
      const f = features[i]!;
      this.u32[featsAt / 4 + i] = f * cell;
      i32[tableAt / 4 + 3 * i] = f;
      i32[tableAt / 4 + 3 * i + 1] = binned.offset[f]!;
      i32[tableAt / 4 + 3 * i + 2] = binned.binCount[f]! - 2;
    }
    this.rowBytes = binned.cols * cell;
    this.histAt = histAt;
    this.histBytes = histBytes;
    this.rowsAt = rowsAt;
    this.scratchAt = scratchAt;
    this.offset = binned.offset;
    this.binCount = binned.binCount;
    this.ghAt = ghAt;
    this.featsAt = featsAt;
    this.tableAt = tableAt;
    this.outAt = outAt;
    this.nf = features.length;
    let all = features.length === binned.cols;
    for (let i = 0; all && i < features.length; i++) all = features[i] === i;
    this.all = all;
    return true;
  }

  /** binMatrix's bins (binOf of every cell) through the kernel, in blocks of rows of at most about 4 MB. */
  bin(x: FeatureMatrix, cuts: BinCuts, totalCuts: number, bins: Uint16Array): void {
    const cols = x.cols;
    const block = Math.max(1, Math.min(x.rows, Math.floor((4 << 20) / (cols * 10))));
    const cutsAt = 0;
    const xAt = (totalCuts * 8 + 15) & ~15;
    const outAt = xAt + block * cols * 8;
    this.reserve(outAt + block * cols * 2);
    // The slots copy (at 0) is overwritten.
    this.loaded = null;
    const starts = new Int32Array(cols);
    let at = 0;
    for (let f = 0; f < cols; f++) {
      starts[f] = at;
      this.f64.set(cuts.cuts[f]!, cutsAt / 8 + at);
      at += cuts.cuts[f]!.length;
    }
    const u16 = new Uint16Array(this.exports.memory.buffer);
    for (let start = 0; start < x.rows; start += block) {
      const count = Math.min(block, x.rows - start);
      this.f64.set(x.data.subarray(start * cols, (start + count) * cols), xAt / 8);
      for (let f = 0; f < cols; f++) this.exports.bin(xAt, count, cols, f, cutsAt + starts[f]! * 8, cuts.cuts[f]!.length, outAt);
      bins.set(u16.subarray(outAt / 2, outAt / 2 + count * cols), start * cols);
    }
  }

  /** Lays out the sort's memory for columns of up to `n` values (the slots copy is overwritten); returns where the values go. */
  sortSpace(n: number): number {
    this.reserve(n * 16 + 8192);
    this.loaded = null;
    this.sortN = n;
    return 0;
  }

  /** Sorts the `m` values written at sortSpace's address; returns a view of them, sorted. */
  sortColumn(m: number): Float64Array {
    this.exports.sort(0, m, this.sortN * 8, this.sortN * 16);
    return this.f64.subarray(0, m);
  }

  /** Makes room for histograms 0..count-1 (memory growth keeps the ones already there). */
  ensureHistograms(count: number): void {
    this.reserve(this.histAt + count * this.histBytes);
  }

  /** Histogram `handle` := the sums of rows[start, end) (the kernel's copy of the rows). */
  build(handle: number, start: number, end: number): void {
    if (this.all) {
      this.exports.buildAll(this.histAt + handle * this.histBytes, this.histBytes, this.slotsAt, this.wide, this.rowBytes, this.rowsAt + start * 4, end - start, this.ghAt);
      return;
    }
    this.exports.build(this.histAt + handle * this.histBytes, this.histBytes, this.slotsAt, this.wide, this.rowBytes, this.rowsAt + start * 4, end - start, this.ghAt, this.featsAt, this.nf);
  }

  /** hist.ts partition on the kernel's copy of the rows: the same order and the same sums. */
  partition(start: number, end: number, split: Split): { mid: number; gl: number; hl: number; gr: number; hr: number } {
    const f = split.feature;
    const o = this.offset[f]!;
    const cell = this.wide ? 4 : 2;
    const left = this.exports.partition(this.rowsAt + start * 4, end - start, this.slotsAt, this.wide, this.rowBytes, f * cell, o + split.bin, o + this.binCount[f]! - 1, split.defaultLeft ? 1 : 0, this.ghAt, this.scratchAt, this.outAt);
    const at = this.outAt / 8;
    const f64 = this.f64;
    return { mid: start + left, gl: f64[at]!, hl: f64[at + 1]!, gr: f64[at + 2]!, hr: f64[at + 3]! };
  }

  /** The kernel's copy of the rows back into `rows`, in their partitioned order. */
  copyRows(rows: Uint32Array): void {
    rows.set(this.u32.subarray(this.rowsAt / 4, this.rowsAt / 4 + rows.length));
  }

  /** Histogram `into` := itself minus histogram `small`. */
  subtract(into: number, small: number): void {
    this.exports.subtract(this.histAt + into * this.histBytes, this.histAt + small * this.histBytes, this.histBytes);
  }

  /** The best split of histogram `handle` (findSplit's result, found the same way). */
  find(handle: number, G: number, H: number, lambda: number, minChildWeight: number): Split | null {
    if (!this.exports.find(this.histAt + handle * this.histBytes, this.tableAt, this.nf, G, H, lambda, minChildWeight, this.outAt)) return null;
    const i32 = this.i32;
    const at = this.outAt / 4;
    return { gain: this.f64[this.outAt / 8]!, feature: i32[at + 2]!, bin: i32[at + 3]!, defaultLeft: i32[at + 4]! !== 0 };
  }

  reserve(total: number): void {
    if (total > kernelLimit) throw new RangeError('histogram kernel memory limit');
    if (growMemory(this.exports.memory, total)) this.views();
  }
}

let sharedKernel: HistKernel | null = null;

/** The histogram kernel ready for one tree, or null when the data would take more memory than its limit. */
function histogramKernel(binned: BinnedMatrix, slots: Uint16Array | Uint32Array, grad: Float64Array, hess: Float64Array, rows: Uint32Array, features: Int32Array, maxDepth: number): HistKernel | null {
  // At most one histogram per level of the path being grown, plus the one being built.
  const histograms = maxDepth + 2;
  if (binned.rows === 0 || slots.byteLength + rows.length * 8 + binned.rows * 16 + features.length * 16 + histograms * binned.totalBins * 16 + 96 > kernelLimit) return null;
  sharedKernel ??= new HistKernel();
  return sharedKernel.prepare(binned, slots, grad, hess, rows, features, histograms) ? sharedKernel : null;
}

/** Regularisation and shape of one tree. */
export interface TreeParams {
  readonly maxDepth: number;
  readonly minChildWeight: number;
  readonly lambda: number;
  /** Minimum loss reduction; splits below it are pruned afterwards, bottom-up, as XGBoost does. */
  readonly gamma: number;
  /** Learning rate applied to leaf values. */
  readonly eta: number;
}

/** A grown tree and, for each leaf, the slice of `rows` that reached it. */
export interface GrownTree {
  readonly tree: Tree;
  readonly rows: Uint32Array;
  readonly leafStart: Int32Array;
  readonly leafEnd: Int32Array;
}

// XGBoost's kRtEps: a split must reduce the loss by more than this.
const MIN_SPLIT_GAIN = 1e-6;

interface Split {
  gain: number;
  feature: number;
  /** Left holds bins 0..bin (bin may be -1: only the missing values go left). */
  bin: number;
  defaultLeft: boolean;
}

/** Gain term of a side with gradient sum g and hessian sum h. */
function score(g: number, h: number, lambda: number): number {
  return (g * g) / (h + lambda);
}

/**
 * False only when the candidate surely cannot beat the best gain so far: gl²/a + gr²/b > target checked as
 * gl²·b + gr²·a > target·a·b, without divisions, with a slack (1e-12 relative) far above both sides' rounding.
 * Candidates that pass get their gain computed exactly as before, so the chosen split is the same.
 */
function mayBeat(gl: number, hl: number, gr: number, hr: number, target: number, lambda: number): boolean {
  const a = hl + lambda;
  const b = hr + lambda;
  if (!(a > 0 && b > 0)) return true;
  const lhs = gl * gl * b + gr * gr * a;
  const rhs = target * a * b;
  return !(lhs < rhs - 1e-12 * (lhs + Math.abs(rhs)));
}

/**
 * Grows one tree depth-first from gradients and hessians over `rows` (mutated: reordered so that each
 * leaf's rows are contiguous). Histograms are built for the smaller child and derived for the larger
 * by subtraction from the parent. `features` limits the candidate features (column sampling).
 */
export function growTree(binned: BinnedMatrix, grad: Float64Array, hess: Float64Array, rows: Uint32Array, candidates: Int32Array, params: TreeParams): GrownTree {
  const features = splittable(binned, candidates);
  const slots = histogramSlots(binned);
  const kernel = histogramKernel(binned, slots, grad, hess, rows, features, params.maxDepth);
  const grower = new Grower(binned, grad, hess, rows, features, params, slots, kernel);
  grower.growRoot();
  if (kernel) kernel.copyRows(rows);
  if (params.gamma > 0) pruneByGamma(grower.tree, 0, params.gamma);
  return { ...compact(grower.tree), rows };
}

/**
 * One tree's growth. Its steps are methods rather than closures made per tree, so V8 optimises each of them on its
 * own as soon as it is hot, instead of compiling one large function with every step inlined.
 */
class Grower {
  readonly tree = new NodeList();
  private readonly binned: BinnedMatrix;
  private readonly grad: Float64Array;
  private readonly hess: Float64Array;
  private readonly rows: Uint32Array;
  private readonly features: Int32Array;
  private readonly params: TreeParams;
  private readonly slots: Uint16Array | Uint32Array;
  private readonly kernel: HistKernel | null;
  private readonly scratch: Uint32Array;
  // Histograms by handle: zeroed arrays here, or regions of the kernel's memory (built, subtracted and searched there).
  private readonly jsHists: Float64Array[] = [];
  private readonly free: number[] = [];
  private handles = 0;

  constructor(binned: BinnedMatrix, grad: Float64Array, hess: Float64Array, rows: Uint32Array, features: Int32Array, params: TreeParams, slots: Uint16Array | Uint32Array, kernel: HistKernel | null) {
    this.binned = binned;
    this.grad = grad;
    this.hess = hess;
    this.rows = rows;
    this.features = features;
    this.params = params;
    this.slots = slots;
    this.kernel = kernel;
    this.scratch = new Uint32Array(rows.length);
  }

  growRoot(): void {
    const { rows, grad, hess } = this;
    let G = 0;
    let H = 0;
    for (let k = 0; k < rows.length; k++) {
      G += grad[rows[k]!]!;
      H += hess[rows[k]!]!;
    }
    const rootHist = this.takeHist();
    this.buildHist(rootHist, 0, rows.length);
    this.grow(this.tree.add(), 0, 0, rows.length, G, H, rootHist);
  }

  private takeHist(): number {
    const h = this.free.pop();
    if (h !== undefined) {
      if (!this.kernel) this.jsHists[h]!.fill(0);
      return h;
    }
    if (this.kernel) this.kernel.ensureHistograms(this.handles + 1);
    else this.jsHists.push(new Float64Array(this.binned.totalBins * 2));
    return this.handles++;
  }

  private buildHist(handle: number, start: number, end: number): void {
    if (this.kernel) {
      this.kernel.build(handle, start, end);
      return;
    }
    const { rows, grad, hess, slots, features } = this;
    const cols = this.binned.cols;
    const hist = this.jsHists[handle]!;
    const nf = features.length;
    if (nf === cols) {
      for (let k = start; k < end; k++) {
        const r = rows[k]!;
        const g = grad[r]!;
        const h = hess[r]!;
        const base = r * cols;
        for (let f = 0; f < cols; f++) {
          const b = slots[base + f]! << 1;
          hist[b] = hist[b]! + g;
          hist[b + 1] = hist[b + 1]! + h;
        }
      }
    } else {
      for (let k = start; k < end; k++) {
        const r = rows[k]!;
        const g = grad[r]!;
        const h = hess[r]!;
        const base = r * cols;
        for (let i = 0; i < nf; i++) {
          const b = slots[base + features[i]!]! << 1;
          hist[b] = hist[b]! + g;
          hist[b + 1] = hist[b + 1]! + h;
        }
      }
    }
  }

  private findSplit(hist: Float64Array, G: number, H: number): Split | null {
    const { lambda, minChildWeight } = this.params;
    const { binCount, offset } = this.binned;
    const features = this.features;
    const parent = score(G, H, lambda);
    // The right side's hessian only shrinks along a feature's bins (up to rounding in subtracted histograms, far
    // below this slack): once it is below the minimum child weight (or not positive), no later candidate can pass.
    const slack = 1e-9 * (Math.abs(H) + 1);
    let best: Split | null = null;
    let bestGain = MIN_SPLIT_GAIN;
    for (let i = 0; i < features.length; i++) {
      const f = features[i]!;
      const nCuts = binCount[f]! - 2;
      if (nCuts < 0) continue;
      const o = offset[f]!;
      const gm = hist[(o + nCuts + 1) * 2]!;
      const hm = hist[(o + nCuts + 1) * 2 + 1]!;
      const hasMissing = hm > 0;
      // Only the missing values left, every observed value right.
      if (hasMissing) {
        const hr = H - hm;
        if (hm >= minChildWeight && hr >= minChildWeight && hr > 0) {
          const gain = score(gm, hm, lambda) + score(G - gm, hr, lambda) - parent;
          if (gain > bestGain) {
            bestGain = gain;
            best = { gain, feature: f, bin: -1, defaultLeft: true };
          }
        }
      }
      let gl = 0;
      let hl = 0;
      for (let j = 0; j < nCuts; j++) {
        const bg = hist[(o + j) * 2]!;
        const bh = hist[(o + j) * 2 + 1]!;
        // An empty bin repeats the previous candidate, which was already weighed (and wins ties).
        if (bh === 0 && bg === 0 && j > 0) continue;
        gl += bg;
        hl += bh;
        if (H - hl + slack < minChildWeight || H - hl + slack <= 0) break;
        // Missing values right (first) and left; without missing values only one candidate is real.
        {
          const hr = H - hl;
          if (hl >= minChildWeight && hr >= minChildWeight && hl > 0 && hr > 0 && mayBeat(gl, hl, G - gl, hr, parent + bestGain, lambda)) {
            const gain = score(gl, hl, lambda) + score(G - gl, hr, lambda) - parent;
            if (gain > bestGain) {
              bestGain = gain;
              best = { gain, feature: f, bin: j, defaultLeft: false };
            }
          }
        }
        if (hasMissing) {
          const gl2 = gl + gm;
          const hl2 = hl + hm;
          const hr = H - hl2;
          if (hl2 >= minChildWeight && hr >= minChildWeight && hr > 0 && mayBeat(gl2, hl2, G - gl2, hr, parent + bestGain, lambda)) {
            const gain = score(gl2, hl2, lambda) + score(G - gl2, hr, lambda) - parent;
            if (gain > bestGain) {
              bestGain = gain;
              best = { gain, feature: f, bin: j, defaultLeft: true };
            }
          }
        }
      }
    }
    return best;
  }

  /** Stable partition of rows[start, end) by the split; returns the first right position and both sides' sums. */
  private partition(start: number, end: number, split: Split): { mid: number; gl: number; hl: number; gr: number; hr: number } {
    const { rows, grad, hess, scratch } = this;
    const { bins, binCount, cols } = this.binned;
    const f = split.feature;
    const missingBin = binCount[f]! - 1;
    let w = start;
    let s = 0;
    let gl = 0;
    let hl = 0;
    let gr = 0;
    let hr = 0;
    for (let k = start; k < end; k++) {
      const r = rows[k]!;
      const b = bins[r * cols + f]!;
      const goLeft = b === missingBin ? split.defaultLeft : b <= split.bin;
      if (goLeft) {
        rows[w++] = r;
        gl += grad[r]!;
        hl += hess[r]!;
      } else {
        scratch[s++] = r;
        gr += grad[r]!;
        hr += hess[r]!;
      }
    }
    rows.set(scratch.subarray(0, s), w);
    return { mid: w, gl, hl, gr, hr };
  }

  private makeLeaf(node: number, G: number, H: number, start: number, end: number): void {
    const tree = this.tree;
    tree.value[node] = (-G / (H + this.params.lambda)) * this.params.eta;
    tree.leafStart[node] = start;
    tree.leafEnd[node] = end;
  }

  private subtract(into: number, small: number): void {
    if (this.kernel) {
      this.kernel.subtract(into, small);
      return;
    }
    const hist = this.jsHists[into]!;
    const other = this.jsHists[small]!;
    for (let i = 0; i < hist.length; i++) hist[i] = hist[i]! - other[i]!;
  }

  private search(handle: number, G: number, H: number): Split | null {
    return this.kernel ? this.kernel.find(handle, G, H, this.params.lambda, this.params.minChildWeight) : this.findSplit(this.jsHists[handle]!, G, H);
  }

  /** Grows `node` from the histogram `hist` of its rows (-1: none, the node is at the depth limit). */
  private grow(node: number, depth: number, start: number, end: number, G: number, H: number, hist: number): void {
    const tree = this.tree;
    const { maxDepth, lambda, eta } = this.params;
    tree.cover[node] = H;
    const split = hist >= 0 && depth < maxDepth && end - start >= 2 ? this.search(hist, G, H) : null;
    if (!split || hist < 0) {
      this.makeLeaf(node, G, H, start, end);
      if (hist >= 0) this.free.push(hist);
      return;
    }
    const { mid, gl, hl, gr, hr } = this.kernel ? this.kernel.partition(start, end, split) : this.partition(start, end, split);
    const l = tree.add();
    const r = tree.add();
    const f = split.feature;
    const cuts = this.binned.cuts;
    tree.feature[node] = f;
    tree.threshold[node] = split.bin < 0 ? cuts.minValues[f]! : cuts.cuts[f]![split.bin]!;
    tree.defaultLeft[node] = split.defaultLeft ? 1 : 0;
    tree.left[node] = l;
    tree.right[node] = r;
    tree.gain[node] = split.gain;
    tree.value[node] = (-G / (H + lambda)) * eta;
    if (depth + 1 >= maxDepth) {
      // Children at the depth limit are leaves: they need no histograms.
      this.free.push(hist);
      this.grow(l, depth + 1, start, mid, gl, hl, -1);
      this.grow(r, depth + 1, mid, end, gr, hr, -1);
      return;
    }
    // Histogram of the smaller side from its rows; the larger side is the parent's minus it, in the parent's buffer.
    const leftSmaller = mid - start <= end - mid;
    const small = this.takeHist();
    if (leftSmaller) this.buildHist(small, start, mid);
    else this.buildHist(small, mid, end);
    this.subtract(hist, small);
    const leftHist = leftSmaller ? small : hist;
    const rightHist = leftSmaller ? hist : small;
    this.grow(l, depth + 1, start, mid, gl, hl, leftHist);
    this.grow(r, depth + 1, mid, end, gr, hr, rightHist);
  }
}

/** Nodes while a tree grows (plain arrays, so no size has to be guessed up front). */
class NodeList {
  readonly feature: number[] = [];
  readonly threshold: number[] = [];
  readonly left: number[] = [];
  readonly right: number[] = [];
  readonly defaultLeft: number[] = [];
  readonly value: number[] = [];
  readonly cover: number[] = [];
  readonly gain: number[] = [];
  readonly leafStart: number[] = [];
  readonly leafEnd: number[] = [];

  add(): number {
    this.feature.push(-1);
    this.threshold.push(0);
    this.left.push(-1);
    this.right.push(-1);
    this.defaultLeft.push(0);
    this.value.push(0);
    this.cover.push(0);
    this.gain.push(0);
    this.leafStart.push(-1);
    this.leafEnd.push(-1);
    return this.feature.length - 1;
  }
}

/** Turns splits whose children are leaves and whose gain is below gamma into leaves, repeatedly upwards (XGBoost's pruner). */
function pruneByGamma(tree: NodeList, node: number, gamma: number): boolean {
  const { leafStart, leafEnd } = tree;
  const l = tree.left[node]!;
  if (l < 0) return true;
  const r = tree.right[node]!;
  const leftLeaf = pruneByGamma(tree, l, gamma);
  const rightLeaf = pruneByGamma(tree, r, gamma);
  if (leftLeaf && rightLeaf && tree.gain[node]! < gamma) {
    // The children's rows are contiguous and adjacent, left first.
    leafStart[node] = leafStart[l]!;
    leafEnd[node] = leafEnd[r]!;
    tree.left[node] = -1;
    tree.right[node] = -1;
    tree.feature[node] = -1;
    tree.threshold[node] = 0;
    tree.gain[node] = 0;
    tree.defaultLeft[node] = 0;
    leafStart[l] = leafEnd[l] = leafStart[r] = leafEnd[r] = -1;
    return true;
  }
  return false;
}

/** The reachable nodes renumbered in breadth-first order, as a Tree with each leaf's row slice. */
function compact(tree: NodeList): { tree: Tree; leafStart: Int32Array; leafEnd: Int32Array } {
  const order: number[] = [0];
  for (let i = 0; i < order.length; i++) {
    const n = order[i]!;
    if (tree.left[n]! >= 0) order.push(tree.left[n]!, tree.right[n]!);
  }
  const newIndex = new Int32Array(tree.feature.length).fill(-1);
  for (let i = 0; i < order.length; i++) newIndex[order[i]!] = i;
  const out = allocTree(order.length);
  const leafStart = new Int32Array(order.length);
  const leafEnd = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const n = order[i]!;
    out.feature[i] = tree.feature[n]!;
    out.threshold[i] = tree.threshold[n]!;
    out.left[i] = tree.left[n]! >= 0 ? newIndex[tree.left[n]!]! : -1;
    out.right[i] = tree.right[n]! >= 0 ? newIndex[tree.right[n]!]! : -1;
    out.defaultLeft[i] = tree.defaultLeft[n]!;
    out.value[i] = tree.value[n]!;
    out.cover[i] = tree.cover[n]!;
    out.gain[i] = tree.gain[n]!;
    leafStart[i] = tree.leafStart[n]!;
    leafEnd[i] = tree.leafEnd[n]!;
  }
  return { tree: out, leafStart, leafEnd };
}
