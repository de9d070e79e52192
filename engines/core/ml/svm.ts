// Linear support vector machines over sparse rows, fitted by dual coordinate descent (Hsieh et al. 2008, LIBLINEAR's solver for L2-regularised L1- and L2-loss SVC), binary and one-vs-rest.
import { VitrineError } from '../errors.js';
import { Random } from './random.js';

/** Rows in compressed sparse row form: row i holds columns colIdx[rowStart[i] .. rowStart[i + 1]) with values colVal[...]. */
export interface SparseRows {
  readonly rowStart: Int32Array;
  readonly colIdx: Int32Array;
  readonly colVal: Float64Array;
  /** Number of columns (every column index is below it). */
  readonly cols: number;
}

export interface LinearSvmParams {
  /** Cost of a margin violation (LIBLINEAR's and scikit-learn's C; default 1): minimise |w|^2 / 2 + C sum_i weight_i loss_i. */
  readonly c?: number;
  /** 'squared-hinge' (L2-loss, the default, scikit-learn's LinearSVC) or 'hinge' (L1-loss). */
  readonly loss?: 'squared-hinge' | 'hinge';
  /** Value of the constant column appended to every row for the intercept (LIBLINEAR's -B; default 1); its weight is regularised like the others. 0 fits no intercept. */
  readonly bias?: number;
  /** Stop when the projected-gradient spread of one pass is at most this (LIBLINEAR's eps; default 1e-4, scikit-learn's tol). */
  readonly tolerance?: number;
  /** Passes over the data at most (default 1000, scikit-learn's max_iter). */
  readonly maxIterations?: number;
  /** Per-row weights (default 1): row i's cost is c x weight_i. */
  readonly sampleWeight?: Float64Array;
  /** Seed of the visiting order (default 1). The same rows, labels and parameters give the same weights. */
  readonly seed?: number;
}

export interface BinarySvm {
  /** One weight per column. */
  readonly w: Float64Array;
  /** Intercept (bias x the bias column's weight; 0 without a bias). */
  readonly b: number;
  /** Passes made. */
  readonly iterations: number;
  /** Whether the tolerance was met before maxIterations. */
  readonly converged: boolean;
}

function checkRows(x: SparseRows): number {
  const n = x.rowStart.length - 1;
  if (n < 0 || x.rowStart[0] !== 0 || x.rowStart[n] !== x.colIdx.length || x.colIdx.length !== x.colVal.length)
    throw new VitrineError('validation_failed', 'sparse rows: rowStart, colIdx and colVal disagree');
  for (let i = 0; i < n; i++) if (x.rowStart[i + 1]! < x.rowStart[i]!) throw new VitrineError('validation_failed', 'sparse rows: rowStart must not decrease');
  for (let j = 0; j < x.colIdx.length; j++) {
    const c = x.colIdx[j]!;
    if (!(c >= 0 && c < x.cols) || !Number.isFinite(x.colVal[j]!)) throw new VitrineError('validation_failed', 'sparse rows: a column index is out of range or a value is not finite');
  }
  return n;
}

interface Prepared {
  readonly n: number;
  readonly bias: number;
  /** Squared norm of each row, the bias included. */
  readonly sq: Float64Array;
  /** Each row's cost, c x its weight. */
  readonly cost: Float64Array;
  readonly loss: 'squared-hinge' | 'hinge';
  readonly tolerance: number;
  readonly maxIterations: number;
  readonly seed: number;
}

function prepare(x: SparseRows, params: LinearSvmParams): Prepared {
  const n = checkRows(x);
  const c = params.c ?? 1;
  const bias = params.bias ?? 1;
  const tolerance = params.tolerance ?? 1e-4;
  const maxIterations = params.maxIterations ?? 1000;
  if (!(c > 0 && Number.isFinite(c))) throw new VitrineError('validation_failed', 'the SVM cost c must be a positive number');
  if (!(bias >= 0 && Number.isFinite(bias))) throw new VitrineError('validation_failed', 'the SVM bias must be a non-negative number');
  if (!(tolerance > 0) || !(Number.isInteger(maxIterations) && maxIterations >= 1)) throw new VitrineError('validation_failed', 'the SVM needs a positive tolerance and at least one iteration');
  const sw = params.sampleWeight;
  if (sw !== undefined && (sw.length !== n || sw.some((v) => !(v > 0 && Number.isFinite(v))))) throw new VitrineError('validation_failed', 'the SVM needs one positive weight per row');
  const sq = new Float64Array(n);
  const cost = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = bias * bias;
    for (let j = x.rowStart[i]!; j < x.rowStart[i + 1]!; j++) s += x.colVal[j]! * x.colVal[j]!;
    sq[i] = s;
    cost[i] = c * (sw?.[i] ?? 1);
  }
  return { n, bias, sq, cost, loss: params.loss ?? 'squared-hinge', tolerance, maxIterations, seed: params.seed ?? 1 };
}

/**
 * The dual coordinate descent of LIBLINEAR's `solve_l2r_l1l2_svc`, with its shrinking: rows visited in a seeded random
 * order each pass; `y[i]` is +1 or -1. `w` (cols + 1 values, the last the bias column's) is filled in.
 */
function solve(x: SparseRows, y: Int8Array, p: Prepared, w: Float64Array): { iterations: number; converged: boolean } {
  const { n, bias, sq, cost } = p;
  const cols = x.cols;
  const alpha = new Float64Array(n);
  // L2-loss: D_ii = 1 / (2 C_i), no upper bound; L1-loss: D_ii = 0, upper bound C_i.
  const squared = p.loss === 'squared-hinge';
  const diag = new Float64Array(n);
  const upper = new Float64Array(n);
  const qd = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    diag[i] = squared ? 0.5 / cost[i]! : 0;
    upper[i] = squared ? Infinity : cost[i]!;
    qd[i] = sq[i]! + diag[i]!;
  }
  w.fill(0);
  const index = Int32Array.from({ length: n }, (_, i) => i);
  const rng = new Random(p.seed);
  let active = n;
  let pgMaxOld = Infinity;
  let pgMinOld = -Infinity;
  let iterations = 0;
  let converged = false;
  const { rowStart, colIdx, colVal } = x;
  while (iterations < p.maxIterations) {
    let pgMaxNew = -Infinity;
    let pgMinNew = Infinity;
    for (let s = 0; s < active; s++) {
      const t = s + Math.floor(rng.next() * (active - s));
      const tmp = index[s]!;
      index[s] = index[t]!;
      index[t] = tmp;
    }
    for (let s = 0; s < active; s++) {
      const i = index[s]!;
      const yi = y[i]!;
      const a = rowStart[i]!;
      const e = rowStart[i + 1]!;
      let dot = w[cols]! * bias;
      for (let j = a; j < e; j++) dot += w[colIdx[j]!]! * colVal[j]!;
      const g = yi * dot - 1 + diag[i]! * alpha[i]!;
      let pg = 0;
      if (alpha[i] === 0) {
        if (g > pgMaxOld) {
          active--;
          index[s] = index[active]!;
          index[active] = i;
          s--;
          continue;
        } else if (g < 0) pg = g;
      } else if (alpha[i] === upper[i]) {
        if (g < pgMinOld) {
          active--;
          index[s] = index[active]!;
          index[active] = i;
          s--;
          continue;
        } else if (g > 0) pg = g;
      } else pg = g;
      if (pg > pgMaxNew) pgMaxNew = pg;
      if (pg < pgMinNew) pgMinNew = pg;
      if (Math.abs(pg) > 1e-12) {
        const old = alpha[i]!;
        const next = Math.min(Math.max(old - g / qd[i]!, 0), upper[i]!);
        alpha[i] = next;
        const d = (next - old) * yi;
        for (let j = a; j < e; j++) w[colIdx[j]!] = w[colIdx[j]!]! + d * colVal[j]!;
        w[cols] = w[cols]! + d * bias;
      }
    }
    iterations++;
    if (pgMaxNew - pgMinNew <= p.tolerance) {
      if (active === n) {
        converged = true;
        break;
      }
      // Shrunk rows come back for a last check over all of them.
      active = n;
      pgMaxOld = Infinity;
      pgMinOld = -Infinity;
      continue;
    }
    pgMaxOld = pgMaxNew <= 0 ? Infinity : pgMaxNew;
    pgMinOld = pgMinNew >= 0 ? -Infinity : pgMinNew;
  }
  return { iterations, converged };
}

/** A binary linear SVM: `y[i]` > 0 is the positive class, anything else the negative one. Decision value w . x + b. */
export function fitLinearSvm(x: SparseRows, y: ArrayLike<number>, params: LinearSvmParams = {}): BinarySvm {
  const p = prepare(x, params);
  if (y.length !== p.n) throw new VitrineError('validation_failed', 'the SVM needs one label per row');
  const signs = Int8Array.from({ length: p.n }, (_, i) => (y[i]! > 0 ? 1 : -1));
  const w = new Float64Array(x.cols + 1);
  const r = solve(x, signs, p, w);
  return { w: w.subarray(0, x.cols), b: w[x.cols]! * p.bias, ...r };
}

export interface OneVsRestSvm {
  /** Feature-major weights (cols x classes): weights[f * classes + k]. */
  readonly weights: Float64Array;
  readonly intercepts: Float64Array;
  /** Passes made per class. */
  readonly iterations: Int32Array;
  /** Classes whose fit met the tolerance. */
  readonly converged: number;
}

/** One binary SVM per class (`labels[i]` in 0 .. classes - 1) against all others, as LIBLINEAR and scikit-learn's LinearSVC; the class scores are the decision values. */
export function fitOneVsRestSvm(x: SparseRows, labels: ArrayLike<number>, classes: number, params: LinearSvmParams = {}, onClass?: (k: number) => void): OneVsRestSvm {
  const p = prepare(x, params);
  if (labels.length !== p.n) throw new VitrineError('validation_failed', 'the SVM needs one label per row');
  if (!(Number.isInteger(classes) && classes >= 2)) throw new VitrineError('validation_failed', 'one-vs-rest needs at least two classes');
  for (let i = 0; i < p.n; i++) if (!(Number.isInteger(labels[i]) && labels[i]! >= 0 && labels[i]! < classes)) throw new VitrineError('validation_failed', 'a label is outside 0 .. classes - 1');
  const cols = x.cols;
  const weights = new Float64Array(cols * classes);
  const intercepts = new Float64Array(classes);
  const iterations = new Int32Array(classes);
  let converged = 0;
  const w = new Float64Array(cols + 1);
  const signs = new Int8Array(p.n);
  for (let k = 0; k < classes; k++) {
    for (let i = 0; i < p.n; i++) signs[i] = labels[i] === k ? 1 : -1;
    const r = solve(x, signs, p, w);
    for (let f = 0; f < cols; f++) weights[f * classes + k] = w[f]!;
    intercepts[k] = w[cols]! * p.bias;
    iterations[k] = r.iterations;
    if (r.converged) converged++;
    onClass?.(k);
  }
  return { weights, intercepts, iterations, converged };
}

/** The dual objective's primal counterpart for a binary fit: |w|^2 / 2 (bias column included) + sum_i C_i loss_i (for tests and diagnostics). */
export function svmPrimalObjective(x: SparseRows, y: ArrayLike<number>, model: BinarySvm, params: LinearSvmParams = {}): number {
  const p = prepare(x, params);
  const wb = p.bias > 0 ? model.b / p.bias : 0;
  let obj = wb * wb;
  for (let f = 0; f < model.w.length; f++) obj += model.w[f]! * model.w[f]!;
  obj /= 2;
  for (let i = 0; i < p.n; i++) {
    let dot = model.b;
    for (let j = x.rowStart[i]!; j < x.rowStart[i + 1]!; j++) dot += model.w[x.colIdx[j]!]! * x.colVal[j]!;
    const m = Math.max(0, 1 - (y[i]! > 0 ? 1 : -1) * dot);
    obj += p.cost[i]! * (p.loss === 'squared-hinge' ? m * m : m);
  }
  return obj;
}
