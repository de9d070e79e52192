// Logistic regression with an unpenalised intercept, L2 regularisation and standardisation, fitted by L-BFGS, with exact per-feature attributions.
import { z } from 'zod';
import { VitrineError } from '../errors.js';
import { validate } from '../validation.js';
import type { FeatureMatrix } from './dataset.js';
import { sigmoid, type JsonValue, type TrainingData } from './gbdt.js';
import { minimizeLbfgs } from './optimize.js';
import type { ShapExplanation } from './treeshap.js';
import { WASM } from './linfit.wasm.js';
import { compileKernel, growMemory, instantiateKernel, type WasmMemory } from '../wasm.js';

/**
 * margin(x) = intercept + sum_i weights[i] * (x[i] - mean[i]) / scale[i], with a missing x[i] taken as mean[i].
 * Weights live in standardised space; `rawCoefficients` gives them per raw unit.
 */
export interface LogisticModel {
  readonly numFeatures: number;
  readonly mean: Float64Array;
  readonly scale: Float64Array;
  readonly weights: Float64Array;
  readonly intercept: number;
  /** L2 strength the model was fitted with (scikit-learn's C is 1 / l2). */
  readonly l2: number;
  readonly featureNames?: readonly string[];
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

export interface LogisticParams {
  /** Minimise sum(weighted log loss) + l2/2 * |w|^2 (intercept not penalised); default 1, scikit-learn's C = 1. */
  readonly l2?: number;
  /** Scale each feature to zero mean and unit variance first (default true); off keeps mean 0 and scale 1. */
  readonly standardize?: boolean;
  /** Iteration limit (default 1000, as the bench's scikit-learn `max_iter`). */
  readonly maxIterations?: number;
  /**
   * Stop when the largest component of the gradient of the summed loss is at most this. Default 1e-4: scikit-learn's
   * `tol`, which its lbfgs solver passes to SciPy's L-BFGS-B as `gtol` on the same (summed) objective.
   */
  readonly tolerance?: number;
  /**
   * Stop when an iteration lowers the objective by at most this share of max(|f|, 1). Default SciPy L-BFGS-B's
   * `ftol` (factr 1e7 times machine epsilon, about 2.2e-9), which scikit-learn leaves at its default.
   */
  readonly relativeDecrease?: number;
  /**
   * The solver's line search (optimize.ts): 'backtracking' (default) or 'more-thuente', SciPy L-BFGS-B's, which
   * scikit-learn's lbfgs runs (its iterations and weights come closer to scikit-learn's; a different path to the same
   * optimum, so other weights than the default's).
   */
  readonly lineSearch?: 'backtracking' | 'more-thuente';
  /**
   * Where each evaluation's losses and residuals are computed: 'kernel' (default, linfit.wat's `evaluate`: margins,
   * residuals and gradient per block in one call, exp and log1p two rows at a time) or 'javascript' (the per-row loop
   * with Math.exp and Math.log1p between the kernel's margins and gradient); the same values bit for bit.
   */
  readonly residuals?: 'kernel' | 'javascript';
  /**
   * Fit on log1p(max(0, v)) of every value v of data.x instead of the values themselves (NaN stays missing; the model's
   * mean and scale are then of those log values), as if data.x had been through `log1pFeatures`. The kernel takes the
   * logarithms in its own memory as the matrix is laid out there (linfit.wat `logs`, Math.log1p's values bit for bit),
   * so no log matrix is allocated; outside the kernel (too large a matrix, one feature, `standardize: false`) they are
   * taken here first. Default false.
   */
  readonly log1p?: boolean;
  readonly featureNames?: readonly string[];
}

/** log1p(max(0, v)) of every value (NaN stays NaN): the matrix the `log1p` fit option stands for. */
export function log1pFeatures(x: FeatureMatrix): FeatureMatrix {
  const data = new Float64Array(x.rows * x.cols);
  for (let i = 0; i < data.length; i++) data[i] = Math.log1p(Math.max(0, x.data[i]!));
  return { rows: x.rows, cols: x.cols, data };
}

/** Per-feature mean and population standard deviation over the observed (non-NaN) values; a constant feature gets scale 1. */
export function standardization(x: FeatureMatrix): { mean: Float64Array; scale: Float64Array } {
  const { mean, scale } = moments(x, false);
  return { mean, scale };
}

/** Whether `moments` lays x out in the kernel's memory (where a fit's z goes). */
function momentsInKernel(x: FeatureMatrix): boolean {
  return x.rows > 0 && x.cols > 1 && x.rows * x.cols * 8 <= KERNEL_LIMIT;
}

/**
 * standardization's values, and whether x is left at the start of the kernel's memory (`copied`), where a fit's z
 * goes; `log` (only when momentsInKernel(x)): of log1p(max(0, v)) of the values, taken in the kernel's memory.
 */
function moments(x: FeatureMatrix, log: boolean): { mean: Float64Array; scale: Float64Array; copied: boolean } {
  const mean = new Float64Array(x.cols);
  const scale = new Float64Array(x.cols);
  const count = new Float64Array(x.cols);
  const copied = momentsInKernel(x);
  if (copied) {
    // Feature pairs in the kernel (the same operations in the same order), an odd last feature here, read from the
    // kernel's copy (x's values, or their logs).
    const laid = linfit().moments(x, mean, count, scale, log);
    if (x.cols % 2 === 1) sums(laid, x.rows, x.cols, x.cols - 1, mean, count, scale);
  } else {
    sums(x.data, x.rows, x.cols, 0, mean, count, scale);
  }
  for (let f = 0; f < x.cols; f++) {
    const sd = count[f]! > 0 ? Math.sqrt(scale[f]! / count[f]!) : 0;
    scale[f] = sd > 0 && Number.isFinite(sd) ? sd : 1;
    if (!Number.isFinite(mean[f]!)) mean[f] = 0;
  }
  return { mean, scale, copied };
}

/**
 * Running means, counts and sums of squared deviations over the observed values of the features from `first` on, of
 * row-major values with `cols` per row.
 */
function sums(data: FeatureMatrix['data'], rows: number, cols: number, first: number, mean: Float64Array, count: Float64Array, scale: Float64Array): void {
  for (let r = 0; r < rows; r++)
    for (let f = first; f < cols; f++) {
      const v = data[r * cols + f]!;
      if (v === v) {
        count[f] = count[f]! + 1;
        mean[f] = mean[f]! + (v - mean[f]!) / count[f]!;
      }
    }
  for (let r = 0; r < rows; r++)
    for (let f = first; f < cols; f++) {
      const v = data[r * cols + f]!;
      if (v === v) scale[f] = scale[f]! + (v - mean[f]!) ** 2;
    }
}

/** The standardised matrix into z (missing values become 0, the mean). */
function standardizeInto(x: FeatureMatrix, mean: Float64Array, scale: Float64Array, z: Float64Array): void {
  for (let r = 0; r < x.rows; r++)
    for (let f = 0; f < x.cols; f++) {
      const v = x.data[r * x.cols + f]!;
      z[r * x.cols + f] = v === v ? (v - mean[f]!) / scale[f]! : 0;
    }
}

/** Largest standardised matrix the kernel takes; above it the JavaScript loops run. */
const KERNEL_LIMIT = 256 << 20;
/** Values in one block of rows of a fit's evaluation (200 kB: the block stays in cache from its margins to its gradient). */
const FIT_BLOCK_VALUES = 25_600;
/** Values in one block of rows that logistic scoring copies into the kernel (256 kB: the block stays in cache). */
const SCORE_BLOCK_VALUES = 32_768;
/** Fewer rows than this are scored by the JavaScript loop (the kernel's copies cost more than they save). */
const SCORE_KERNEL_MIN_ROWS = 8;

/** linfit.wat's exports. */
interface LinfitExports {
  readonly memory: WasmMemory;
  margins(z: number, rows: number, d: number, theta: number, b: number, out: number): void;
  residuals(m: number, y: number, w: number, r: number, rows: number, acc: number): void;
  evaluate(z: number, rows: number, d: number, theta: number, b: number, m: number, y: number, w: number, r: number, out: number, acc: number, block: number): void;
  gradient(z: number, rows: number, d: number, r: number, out: number): void;
  means(x: number, rows: number, d: number, pairs: number, mean: number, count: number): void;
  squares(x: number, rows: number, d: number, pairs: number, mean: number, sq: number): void;
  logs(x: number, count: number): void;
  standardize(x: number, rows: number, d: number, mean: number, scale: number): void;
  score(x: number, rows: number, d: number, w: number, mean: number, scale: number, b: number, out: number): void;
}

/** The fit kernel: z, residuals, margins, weights and gradient sums laid out in its memory for one fit. */
class Linfit {
  readonly exports: LinfitExports;
  z = new Float64Array(0);
  resid = new Float64Array(0);
  margins = new Float64Array(0);
  private theta = new Float64Array(0);
  private out = new Float64Array(0);
  private n = 0;
  private d = 0;
  private meanAndScale = new Float64Array(0);
  private at = { z: 0, r: 0, m: 0, theta: 0, out: 0, stats: 0, y: 0, w: 0, acc: 0 };
  private acc = new Float64Array(0);

  constructor() {
    const imports = { math: { exp: Math.exp, log1p: Math.log1p } };
    this.exports = instantiateKernel<LinfitExports>(compileKernel(WASM), imports);
  }

  layout(n: number, d: number): this {
    const z = 0;
    // 16 spare bytes after z: the gradient kernel's lane pair reads one value past the last row when d is odd.
    const r = z + n * d * 8 + 16;
    const m = r + n * 8;
    const theta = m + n * 8;
    const out = theta + (d + 2) * 8;
    const stats = out + (d + 2) * 8;
    const y = stats + 2 * d * 8;
    const w = y + n * 8;
    const acc = w + n * 8;
    growMemory(this.exports.memory, acc + 16);
    const buffer = this.exports.memory.buffer;
    this.n = n;
    this.d = d;
    this.at = { z, r, m, theta, out, stats, y, w, acc };
    this.acc = new Float64Array(buffer, acc, 2);
    this.meanAndScale = new Float64Array(buffer, stats, 2 * d);
    this.z = new Float64Array(buffer, z, n * d);
    new Float64Array(buffer, z + n * d * 8, 2).fill(0);
    this.resid = new Float64Array(buffer, r, n);
    this.margins = new Float64Array(buffer, m, n);
    this.theta = new Float64Array(buffer, theta, d + 2);
    this.out = new Float64Array(buffer, out, d + 2);
    return this;
  }

  /** The labels and row weights (1 for every row without weights) where `evaluateInKernel` reads them, after `layout`. */
  labels(y: ArrayLike<number>, w: ArrayLike<number> | undefined): void {
    const buffer = this.exports.memory.buffer;
    const yv = new Float64Array(buffer, this.at.y, this.n);
    for (let i = 0; i < this.n; i++) yv[i] = y[i]!;
    const wv = new Float64Array(buffer, this.at.w, this.n);
    if (w) for (let i = 0; i < this.n; i++) wv[i] = w[i]!;
    else wv.fill(1);
  }

  /**
   * `evaluate` with the losses and residuals in the kernel too (one call per evaluation); sums[0] and sums[1] get the
   * summed loss and the intercept's gradient.
   */
  evaluateInKernel(theta: Float64Array, grad: Float64Array, sums: Float64Array): void {
    const { n, d } = this;
    const block = Math.max(4, Math.floor(FIT_BLOCK_VALUES / d) & ~3);
    this.theta.set(theta.subarray(0, d));
    this.out.fill(0);
    this.acc.fill(0);
    const at = this.at;
    this.exports.evaluate(at.z, n, d, at.theta, theta[d]!, at.m, at.y, at.w, at.r, at.out, at.acc, block);
    grad.set(this.out.subarray(0, d));
    sums[0] = this.acc[0]!;
    sums[1] = this.acc[1]!;
  }

  /** linfit.wat `residuals` over margins m with labels y and row weights w, from the start of the kernel's memory. */
  residualsOf(m: Float64Array, y: ArrayLike<number>, w: ArrayLike<number> | undefined): { loss: number; gb: number; resid: Float64Array } {
    const n = m.length;
    const yAt = n * 8;
    const wAt = 2 * n * 8;
    const rAt = 3 * n * 8;
    const acc = 4 * n * 8;
    growMemory(this.exports.memory, acc + 16);
    const f64 = new Float64Array(this.exports.memory.buffer);
    f64.set(m, 0);
    for (let i = 0; i < n; i++) {
      f64[yAt / 8 + i] = y[i]!;
      f64[wAt / 8 + i] = w ? w[i]! : 1;
    }
    f64[acc / 8] = 0;
    f64[acc / 8 + 1] = 0;
    this.exports.residuals(0, yAt, wAt, rAt, n, acc);
    return { loss: f64[acc / 8]!, gb: f64[acc / 8 + 1]!, resid: f64.slice(rAt / 8, rAt / 8 + n) };
  }

  /** linfit.wat `logs` over a copy of values at the start of the kernel's memory. */
  logsOf(values: Float64Array): Float64Array {
    growMemory(this.exports.memory, values.length * 8 + 16);
    const f64 = new Float64Array(this.exports.memory.buffer, 0, values.length);
    f64.set(values);
    this.exports.logs(0, values.length);
    return f64.slice();
  }

  /**
   * standardization's running means, counts and squared deviations of the feature pairs (x copied to the start of
   * memory, then with `log` its values replaced by log1p(max(0, v)) there); the copy, a view of the memory, is returned.
   */
  moments(x: FeatureMatrix, mean: Float64Array, count: Float64Array, sq: Float64Array, log: boolean): Float64Array {
    const n = x.rows;
    const d = x.cols;
    const meanAt = n * d * 8;
    const countAt = meanAt + d * 8;
    const sqAt = countAt + d * 8;
    growMemory(this.exports.memory, sqAt + d * 8);
    const f64 = new Float64Array(this.exports.memory.buffer);
    f64.set(x.data.subarray(0, n * d), 0);
    if (log) this.exports.logs(0, n * d);
    f64.fill(0, meanAt / 8, sqAt / 8 + d);
    const pairs = d >> 1;
    this.exports.means(0, n, d, pairs, meanAt, countAt);
    this.exports.squares(0, n, d, pairs, meanAt, sqAt);
    mean.set(f64.subarray(meanAt / 8, meanAt / 8 + pairs * 2));
    count.set(f64.subarray(countAt / 8, countAt / 8 + pairs * 2));
    sq.set(f64.subarray(sqAt / 8, sqAt / 8 + pairs * 2));
    return f64.subarray(0, n * d);
  }

  /** z := the standardised x (standardizeInto's values), after `layout`; `copied` when `moments` left x there already. */
  standardize(x: FeatureMatrix, mean: Float64Array, scale: Float64Array, copied: boolean): void {
    if (!copied) this.z.set(x.data.subarray(0, this.n * this.d));
    this.meanAndScale.set(mean, 0);
    this.meanAndScale.set(scale, this.d);
    this.exports.standardize(this.at.z, this.n, this.d, this.at.stats, this.at.stats + this.d * 8);
  }

  /**
   * out := the probabilities of every row of x: blocks of rows copied after the model's weights, means and scales,
   * their margins taken by the kernel, the sigmoid here. Uses the memory from 0, as a fit does between its calls.
   */
  scoreInto(model: LogisticModel, x: FeatureMatrix, out: Float64Array): void {
    const d = x.cols;
    const block = Math.max(4, Math.floor(SCORE_BLOCK_VALUES / d) & ~3);
    const w = 0;
    const mean = w + d * 8;
    const scale = mean + d * 8;
    const xAt = scale + d * 8;
    const outAt = xAt + block * d * 8;
    growMemory(this.exports.memory, outAt + block * 8);
    const f64 = new Float64Array(this.exports.memory.buffer);
    f64.set(model.weights, w / 8);
    f64.set(model.mean, mean / 8);
    f64.set(model.scale, scale / 8);
    const margins = f64.subarray(outAt / 8, outAt / 8 + block);
    for (let start = 0; start < x.rows; start += block) {
      const count = Math.min(block, x.rows - start);
      f64.set(x.data.subarray(start * d, (start + count) * d), xAt / 8);
      this.exports.score(xAt, count, d, w, mean, scale, model.intercept, outAt);
      for (let i = 0; i < count; i++) out[start + i] = sigmoid(margins[i]!);
    }
  }

  /**
   * One evaluation of the objective over blocks of rows, each read from memory once: the block's margins z theta +
   * theta[d], then `residuals` on them (the losses and residuals of rows [start, end)), then the block's share of
   * z^T resid while it is still in cache. The blocks hold a multiple of four rows, so every margin and gradient sum
   * takes the operations of one call over the whole matrix; grad[0..d) := z^T resid.
   */
  evaluate(theta: Float64Array, grad: Float64Array, residuals: (start: number, end: number) => void): void {
    const { n, d } = this;
    const rowBytes = d * 8;
    const block = Math.max(4, Math.floor(FIT_BLOCK_VALUES / d) & ~3);
    this.theta.set(theta.subarray(0, d));
    this.out.fill(0);
    const b = theta[d]!;
    for (let start = 0; start < n; start += block) {
      const count = Math.min(block, n - start);
      const z = this.at.z + start * rowBytes;
      this.exports.margins(z, count, d, this.at.theta, b, this.at.m + start * 8);
      residuals(start, start + count);
      this.exports.gradient(z, count, d, this.at.r + start * 8, this.at.out);
    }
    grad.set(this.out.subarray(0, d));
  }
}

let sharedLinfit: Linfit | null = null;

/** The shared fit kernel, compiled on first use. */
function linfit(): Linfit {
  sharedLinfit ??= new Linfit();
  return sharedLinfit;
}

/** out[i] = b + sum_f theta[f] z[i * d + f], four rows per pass over theta. */
function matVec(z: Float64Array, n: number, d: number, theta: Float64Array, b: number, out: Float64Array): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o0 = i * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    let m0 = b;
    let m1 = b;
    let m2 = b;
    let m3 = b;
    for (let f = 0; f < d; f++) {
      const t = theta[f]!;
      m0 += t * z[o0 + f]!;
      m1 += t * z[o1 + f]!;
      m2 += t * z[o2 + f]!;
      m3 += t * z[o3 + f]!;
    }
    out[i] = m0;
    out[i + 1] = m1;
    out[i + 2] = m2;
    out[i + 3] = m3;
  }
  for (; i < n; i++) {
    let m = b;
    const o = i * d;
    for (let f = 0; f < d; f++) m += theta[f]! * z[o + f]!;
    out[i] = m;
  }
}

/** out[f] = sum_i r[i] z[i * d + f] for f < d, four rows per pass over out. */
function transposedMatVec(z: Float64Array, n: number, d: number, r: Float64Array, out: Float64Array): void {
  for (let f = 0; f < d; f++) out[f] = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o0 = i * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    const r0 = r[i]!;
    const r1 = r[i + 1]!;
    const r2 = r[i + 2]!;
    const r3 = r[i + 3]!;
    for (let f = 0; f < d; f++) out[f] = out[f]! + (r0 * z[o0 + f]! + r1 * z[o1 + f]! + r2 * z[o2 + f]! + r3 * z[o3 + f]!);
  }
  for (; i < n; i++) {
    const ri = r[i]!;
    const o = i * d;
    for (let f = 0; f < d; f++) out[f] = out[f]! + ri * z[o + f]!;
  }
}

/**
 * The fit's summed loss, intercept gradient and per-row residuals of margins m as the kernel computes them in each
 * evaluation (for tests, against `logisticResidualsReference`).
 */
export function logisticResidualsKernel(m: Float64Array, y: ArrayLike<number>, w?: ArrayLike<number>): { loss: number; gb: number; resid: Float64Array } {
  return linfit().residualsOf(m, y, w);
}

/** log1p(max(0, v)) of every value by linfit.wat's `logs` (what the `log1p` fit option lays out), for tests against Math.log1p. */
export function log1pKernel(values: Float64Array): Float64Array {
  return linfit().logsOf(values);
}

/** The fit's losses and residuals of margins m by the JavaScript loop (LogisticObjective's `residuals`, which a fit runs with residuals: 'javascript'). */
export function logisticResidualsReference(m: Float64Array, y: ArrayLike<number>, w?: ArrayLike<number>): { loss: number; gb: number; resid: Float64Array } {
  const objective = new LogisticObjective(m.length, 0, 0, y, w, null, null, new Float64Array(0));
  objective.margins.set(m);
  objective.residuals(0, m.length);
  return { loss: objective.sums[0]!, gb: objective.sums[1]!, resid: objective.resid };
}

/**
 * A fit's objective: the summed weighted log loss of the standardised rows plus l2/2 |w|^2 and its gradient, with
 * parameters [w (d values), intercept]. Through the kernel's `evaluate` (`kernel`), the kernel's margins and gradient
 * with the per-row loop here (`blocks`, residuals: 'javascript'), or the JavaScript loops over z (neither).
 */
class LogisticObjective {
  evaluations = 0;
  /** Sums over the rows in row order, carried across blocks: the loss, then the intercept's gradient. */
  readonly sums = new Float64Array(2);
  readonly margins: Float64Array;
  readonly resid: Float64Array;
  readonly residuals: (start: number, end: number) => void;

  constructor(
    readonly n: number,
    readonly d: number,
    readonly l2: number,
    y: ArrayLike<number>,
    w: ArrayLike<number> | undefined,
    readonly kernel: Linfit | null,
    readonly blocks: Linfit | null,
    readonly z: Float64Array,
  ) {
    const k = kernel ?? blocks;
    const margins = k ? k.margins : new Float64Array(n);
    const resid = k ? k.resid : new Float64Array(n);
    const sums = this.sums;
    this.margins = margins;
    this.resid = resid;
    this.residuals = (start: number, end: number): void => {
      let loss = sums[0]!;
      let gb = sums[1]!;
      for (let i = start; i < end; i++) {
        const m = margins[i]!;
        const yi = y[i]!;
        const wi = w ? w[i]! : 1;
        // log(1 + e^m) - y m and sigmoid(m) from one e = exp(-|m|), without overflow.
        const e = Math.exp(-Math.abs(m));
        loss += wi * ((m > 0 ? m : 0) + Math.log1p(e) - yi * m);
        const r = wi * ((m >= 0 ? 1 / (1 + e) : e / (1 + e)) - yi);
        resid[i] = r;
        gb += r;
      }
      sums[0] = loss;
      sums[1] = gb;
    };
  }

  value(theta: Float64Array, grad: Float64Array): number {
    const { n, d, l2, sums } = this;
    this.evaluations++;
    sums.fill(0);
    if (this.kernel) this.kernel.evaluateInKernel(theta, grad, sums);
    else if (this.blocks) this.blocks.evaluate(theta, grad, this.residuals);
    else {
      matVec(this.z, n, d, theta, theta[d]!, this.margins);
      this.residuals(0, n);
      transposedMatVec(this.z, n, d, this.resid, grad);
    }
    let loss = sums[0]!;
    grad[d] = sums[1]!;
    for (let f = 0; f < d; f++) {
      loss += 0.5 * l2 * theta[f]! ** 2;
      grad[f] = grad[f]! + l2 * theta[f]!;
    }
    return loss;
  }
}

/** The fit in progress (fits run one at a time; a fit inside an objective would restore the outer one). */
let current: LogisticObjective | null = null;

/** The objective of the fit in progress: the one function the solver calls for every logistic fit. */
function logisticObjective(theta: Float64Array, grad: Float64Array): number {
  return current!.value(theta, grad);
}

/** Fits a logistic regression. Deterministic (no randomness involved). */
export function trainLogistic(data: TrainingData, params: LogisticParams = {}): LogisticModel {
  return fitLogistic(data, params).model;
}

/** A fit and how the solver got there: its iterations, objective evaluations, and whether it met a stopping rule. */
export interface LogisticFit {
  readonly model: LogisticModel;
  readonly iterations: number;
  readonly evaluations: number;
  readonly converged: boolean;
}

/** trainLogistic with the solver's report. */
export function fitLogistic(data: TrainingData, params: LogisticParams = {}): LogisticFit {
  const { y } = data;
  // The log option: in the kernel's memory when moments lays x out there, else a log matrix first.
  const logInKernel = params.log1p === true && params.standardize !== false && momentsInKernel(data.x);
  const x = params.log1p === true && !logInKernel ? log1pFeatures(data.x) : data.x;
  const n = x.rows;
  const d = x.cols;
  if (y.length !== n) throw new VitrineError('validation_failed', 'labels and rows differ in number');
  for (let i = 0; i < n; i++) if (!(y[i] === 0 || y[i] === 1)) throw new VitrineError('validation_failed', `label ${i} is not 0 or 1`);
  const l2 = params.l2 ?? 1;
  if (!(l2 >= 0 && Number.isFinite(l2))) throw new VitrineError('validation_failed', 'invalid training parameter: l2');
  const w = data.weights;
  // The standardised matrix in the WebAssembly kernel's memory when it fits (SIMD margins and z^T r), else here.
  const kernel = n * d * 8 <= KERNEL_LIMIT;
  const { mean, scale, copied } = params.standardize === false ? { mean: new Float64Array(d), scale: new Float64Array(d).fill(1), copied: false } : moments(x, logInKernel);
  const k = kernel ? linfit().layout(n, d) : null;
  const z = k ? k.z : new Float64Array(n * d);
  if (k) k.standardize(x, mean, scale, copied);
  const inKernel = k !== null && params.residuals !== 'javascript';
  if (inKernel) k.labels(y, w);
  else if (!k) standardizeInto(x, mean, scale, z);
  const objective = new LogisticObjective(n, d, l2, y, w, inKernel ? k : null, inKernel ? null : k, z);
  // The solver calls one function for every fit (`logisticObjective`, reading the fit in progress), so the optimised
  // solver code that inlines it stays valid from one fit to the next.
  const outer = current;
  current = objective;
  let result: ReturnType<typeof minimizeLbfgs>;
  try {
    result = minimizeLbfgs(logisticObjective, new Float64Array(d + 1), {
      maxIterations: params.maxIterations ?? 1000,
      gradientTolerance: params.tolerance ?? 1e-4,
      relativeDecrease: params.relativeDecrease ?? 1e7 * Number.EPSILON,
      lineSearch: params.lineSearch ?? 'backtracking',
    });
  } finally {
    current = outer;
  }
  const evaluations = objective.evaluations;
  const model: LogisticModel = {
    numFeatures: d,
    mean,
    scale,
    weights: result.x.slice(0, d),
    intercept: result.x[d]!,
    l2,
    ...(params.featureNames ? { featureNames: [...params.featureNames] } : {}),
  };
  return { model, iterations: result.iterations, evaluations, converged: result.converged };
}

/** Margin (log-odds) of one row. */
export function logisticMarginRow(model: LogisticModel, row: ArrayLike<number>, offset = 0): number {
  let m = model.intercept;
  for (let f = 0; f < model.numFeatures; f++) {
    const v = row[offset + f]!;
    if (v === v) m += (model.weights[f]! * (v - model.mean[f]!)) / model.scale[f]!;
  }
  return m;
}

/** Probabilities of every row. */
export function predictLogistic(model: LogisticModel, x: FeatureMatrix): Float64Array {
  if (x.cols !== model.numFeatures) throw new VitrineError('validation_failed', `the model expects ${model.numFeatures} features, the data has ${x.cols}`);
  const out = new Float64Array(x.rows);
  if (x.rows >= SCORE_KERNEL_MIN_ROWS && x.cols * 3 * 8 <= KERNEL_LIMIT) {
    linfit().scoreInto(model, x, out);
    return out;
  }
  const { weights, mean, scale, intercept } = model;
  const d = x.cols;
  const data = x.data;
  // Four rows at a time, one accumulator each (per row the same terms in the same order as logisticMarginRow).
  let i = 0;
  for (; i + 4 <= x.rows; i += 4) {
    const o0 = i * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    let m0 = intercept;
    let m1 = intercept;
    let m2 = intercept;
    let m3 = intercept;
    for (let f = 0; f < d; f++) {
      const w = weights[f]!;
      const mu = mean[f]!;
      const s = scale[f]!;
      const v0 = data[o0 + f]!;
      const v1 = data[o1 + f]!;
      const v2 = data[o2 + f]!;
      const v3 = data[o3 + f]!;
      if (v0 === v0) m0 += (w * (v0 - mu)) / s;
      if (v1 === v1) m1 += (w * (v1 - mu)) / s;
      if (v2 === v2) m2 += (w * (v2 - mu)) / s;
      if (v3 === v3) m3 += (w * (v3 - mu)) / s;
    }
    out[i] = sigmoid(m0);
    out[i + 1] = sigmoid(m1);
    out[i + 2] = sigmoid(m2);
    out[i + 3] = sigmoid(m3);
  }
  for (; i < x.rows; i++) out[i] = sigmoid(logisticMarginRow(model, data, i * d));
  return out;
}

/**
 * Exact attributions: feature i contributes w_i (x_i - mean_i) / scale_i, and the expected value is the
 * intercept (the margin at the mean). These are the Shapley values of a linear model with independent features.
 */
export function logisticAttributions(model: LogisticModel, row: ArrayLike<number>, offset = 0): ShapExplanation {
  const values = new Float64Array(model.numFeatures);
  for (let f = 0; f < model.numFeatures; f++) {
    const v = row[offset + f]!;
    values[f] = v === v ? (model.weights[f]! * (v - model.mean[f]!)) / model.scale[f]! : 0;
  }
  return { values, expectedValue: model.intercept };
}

/** Coefficients per raw feature unit: margin = intercept + sum coef_i x_i (for rows without missing values). */
export function rawCoefficients(model: LogisticModel): { coefficients: Float64Array; intercept: number } {
  const coefficients = new Float64Array(model.numFeatures);
  let intercept = model.intercept;
  for (let f = 0; f < model.numFeatures; f++) {
    coefficients[f] = model.weights[f]! / model.scale[f]!;
    intercept -= coefficients[f]! * model.mean[f]!;
  }
  return { coefficients, intercept };
}

export const LOGISTIC_FORMAT = 'vitrine-logreg-1';

const numbers = z.array(z.number()).max(1_000_000);
export const logisticModelSchema = z
  .object({
    format: z.literal(LOGISTIC_FORMAT),
    num_features: z.number().int().min(1).max(1_000_000),
    mean: numbers,
    scale: z.array(z.number().positive()).max(1_000_000),
    weights: numbers,
    intercept: z.number(),
    l2: z.number().min(0),
    feature_names: z.array(z.string().max(1000)).max(1_000_000).optional(),
    metadata: z.record(z.string().max(1000), z.json()).optional(),
  })
  .strict()
  .refine((m) => m.mean.length === m.num_features && m.scale.length === m.num_features && m.weights.length === m.num_features, {
    message: 'mean, scale and weights need one entry per feature',
    path: ['weights'],
  })
  .refine((m) => m.feature_names === undefined || m.feature_names.length === m.num_features, { message: 'one name per feature', path: ['feature_names'] });

export type LogisticModelJson = z.output<typeof logisticModelSchema>;

export function logisticModelToJson(model: LogisticModel): LogisticModelJson {
  const out: LogisticModelJson = {
    format: LOGISTIC_FORMAT,
    num_features: model.numFeatures,
    mean: Array.from(model.mean),
    scale: Array.from(model.scale),
    weights: Array.from(model.weights),
    intercept: model.intercept,
    l2: model.l2,
    ...(model.featureNames ? { feature_names: [...model.featureNames] } : {}),
    ...(model.metadata ? { metadata: { ...model.metadata } } : {}),
  };
  return validate(logisticModelSchema, out, 'logistic model');
}

export function logisticModelFromJson(value: unknown): LogisticModel {
  const m = validate(logisticModelSchema, value, 'logistic model');
  return {
    numFeatures: m.num_features,
    mean: Float64Array.from(m.mean),
    scale: Float64Array.from(m.scale),
    weights: Float64Array.from(m.weights),
    intercept: m.intercept,
    l2: m.l2,
    ...(m.feature_names ? { featureNames: m.feature_names } : {}),
    ...(m.metadata ? { metadata: m.metadata as Record<string, JsonValue> } : {}),
  };
}
