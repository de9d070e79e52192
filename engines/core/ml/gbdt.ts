// Gradient-boosted trees with XGBoost's second-order objective (logistic or squared error), histogram splits, shrinkage, sampling and early stopping.
import { VitrineError } from '../errors.js';
import type { Calibration } from './calibration.js';
import type { FeatureMatrix } from './dataset.js';
import { binMatrix, computeCuts, growTree, type GrownTree, type TreeParams } from './hist.js';
import { logLoss, rocAuc, type OperatingPoint } from './metrics.js';
import { Random } from './random.js';
import { addKernelOutputs, addPackedOutputs, kernelServes, MAX_PACKED_FEATURE, packedRowSum, packedTrees, PerTrees } from './packed.js';
import { predictTree, type Tree } from './tree.js';

export type GbdtObjective = 'binary:logistic' | 'reg:squarederror';
export type EvalMetric = 'logloss' | 'auc' | 'rmse';

/** JSON values allowed in model metadata. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A named decision threshold stored with a model (for example the 0.1 % and 1 % false-positive points). */
export interface ModelThreshold extends OperatingPoint {
  readonly name: string;
}

/** A trained (or imported) boosted ensemble. Margin = base margin + sum of the trees' outputs. */
export interface GbdtModel {
  readonly objective: GbdtObjective;
  /** The base prediction in output space: a probability for the logistic objective (as XGBoost's base_score). */
  readonly baseScore: number;
  readonly numFeatures: number;
  readonly trees: readonly Tree[];
  readonly featureNames?: readonly string[];
  /** Version tag of the feature vector layout the model expects (set by the service that featurises). */
  readonly featureLayout?: string;
  /** Round (0-based) with the best validation metric when early stopping ran; the trees end there. */
  readonly bestIteration?: number;
  readonly bestScore?: number;
  readonly params?: Readonly<Record<string, number | string | boolean>>;
  readonly calibration?: Calibration;
  readonly thresholds?: readonly ModelThreshold[];
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/** Training data: features, labels (0/1 for logistic) and optional row weights. */
export interface TrainingData {
  readonly x: FeatureMatrix;
  readonly y: ArrayLike<number>;
  readonly weights?: ArrayLike<number>;
}

/** One round's report (also the progress callback's argument). */
export interface RoundReport {
  readonly round: number;
  readonly validation?: number;
}

export interface GbdtParams {
  readonly objective?: GbdtObjective;
  /** Boosting rounds (trees); default 100. */
  readonly rounds?: number;
  /** Learning rate (shrinkage); default 0.3 as XGBoost. */
  readonly eta?: number;
  /** Default 6. */
  readonly maxDepth?: number;
  /** Minimum hessian sum in a child; default 1. */
  readonly minChildWeight?: number;
  /** L2 regularisation on leaf weights; default 1. */
  readonly lambda?: number;
  /** Minimum loss reduction to keep a split; default 0. */
  readonly gamma?: number;
  /** Bins per feature; default 256. */
  readonly maxBins?: number;
  /** Share of rows drawn (without replacement) for each tree; default 1. */
  readonly subsample?: number;
  /** Share of features drawn for each tree; default 1. */
  readonly colsampleByTree?: number;
  /** Base prediction (a probability for logistic). Default: the weighted label mean, as XGBoost 2 estimates it. */
  readonly baseScore?: number;
  readonly seed?: number;
  /** Data to evaluate after each round; needed for early stopping. */
  readonly validation?: TrainingData;
  /** Stop when the validation metric has not improved for this many rounds, and keep the trees up to the best round. */
  readonly earlyStoppingRounds?: number;
  /** Default logloss for logistic, rmse for squared error. */
  readonly evalMetric?: EvalMetric;
  readonly featureNames?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onRound?: (report: RoundReport) => void;
}

export function sigmoid(z: number): number {
  // 1 / (1 + e^-z) for z >= 0 and e^z / (1 + e^z) below, with one exponential e = e^-|z| (the same values as
  // computing e^-z or e^z on each side). Every operation runs whatever the sign, so code V8 optimised after
  // seeing margins of one sign does not fall back to the interpreter on the first margin of the other.
  const e = Math.exp(-Math.abs(z));
  return (z >= 0 ? 1 : e) / (1 + e);
}

/** The margin (log-odds for logistic) that corresponds to the model's base score. */
export function baseMargin(model: Pick<GbdtModel, 'objective' | 'baseScore'>): number {
  return model.objective === 'binary:logistic' ? Math.log(model.baseScore / (1 - model.baseScore)) : model.baseScore;
}

function checkParams(p: GbdtParams): void {
  const bad = (what: string): never => {
    throw new VitrineError('validation_failed', `invalid training parameter: ${what}`);
  };
  const intIn = (v: number | undefined, lo: number, hi: number, name: string): void => {
    if (v !== undefined && !(Number.isInteger(v) && v >= lo && v <= hi)) bad(name);
  };
  intIn(p.rounds, 0, 100_000, 'rounds');
  intIn(p.maxDepth, 0, 30, 'maxDepth');
  intIn(p.maxBins, 2, 65534, 'maxBins');
  intIn(p.earlyStoppingRounds, 1, 100_000, 'earlyStoppingRounds');
  if (p.eta !== undefined && !(p.eta > 0 && p.eta <= 1)) bad('eta');
  if (p.lambda !== undefined && !(p.lambda >= 0 && Number.isFinite(p.lambda))) bad('lambda');
  if (p.gamma !== undefined && !(p.gamma >= 0 && Number.isFinite(p.gamma))) bad('gamma');
  if (p.minChildWeight !== undefined && !(p.minChildWeight >= 0 && Number.isFinite(p.minChildWeight))) bad('minChildWeight');
  if (p.subsample !== undefined && !(p.subsample > 0 && p.subsample <= 1)) bad('subsample');
  if (p.colsampleByTree !== undefined && !(p.colsampleByTree > 0 && p.colsampleByTree <= 1)) bad('colsampleByTree');
  if (p.baseScore !== undefined && !Number.isFinite(p.baseScore)) bad('baseScore');
  if (p.earlyStoppingRounds !== undefined && !p.validation) bad('earlyStoppingRounds needs validation data');
}

function checkData(d: TrainingData, logistic: boolean, what: string): void {
  if (d.y.length !== d.x.rows) throw new VitrineError('validation_failed', `${what}: labels and rows differ in number`);
  if (d.weights !== undefined && d.weights.length !== d.x.rows) throw new VitrineError('validation_failed', `${what}: weights and rows differ in number`);
  for (let i = 0; i < d.y.length; i++) {
    const y = d.y[i]!;
    if (logistic ? !(y === 0 || y === 1) : !Number.isFinite(y)) throw new VitrineError('validation_failed', `${what}: label ${i} is not ${logistic ? '0 or 1' : 'a finite number'}`);
    if (d.weights && !(d.weights[i]! >= 0 && Number.isFinite(d.weights[i]!))) throw new VitrineError('validation_failed', `${what}: weight ${i} is negative or not finite`);
  }
}

/** Validation metric of margins (lower is better except AUC). */
function evaluate(metric: EvalMetric, logistic: boolean, margins: Float64Array, y: ArrayLike<number>): number {
  if (metric === 'auc') return rocAuc(margins, y);
  const pred = logistic ? margins.map(sigmoid) : margins;
  if (metric === 'logloss') return logLoss(pred, y);
  let s = 0;
  for (let i = 0; i < y.length; i++) s += (pred[i]! - y[i]!) ** 2;
  return Math.sqrt(s / y.length);
}

// The per-round loops of trainGbdt live in small functions of their own: called once a round, V8 optimises them
// after a few rounds, where the same loops inside trainGbdt (entered once per fit) would run interpreted until the
// whole of trainGbdt was compiled for on-stack replacement.

/** Logistic gradients and hessians (XGBoost's formulas, including its hessian floor) of unweighted rows. */
function logisticGradients(margin: Float64Array, y: ArrayLike<number>, grad: Float64Array, hess: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const p = sigmoid(margin[i]!);
    grad[i] = p - y[i]!;
    hess[i] = Math.max(p * (1 - p), 1e-16);
  }
}

/** 0, 1, ..., n-1. */
function identityRows(n: number): Uint32Array {
  const rows = new Uint32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}

/** Adds each leaf's value to the margins of the rows in its slice. */
function addLeafValues(tree: Tree, grown: GrownTree, margin: Float64Array): void {
  const { left, value } = tree;
  const { leafStart, leafEnd, rows } = grown;
  for (let node = 0; node < left.length; node++) {
    if (left[node]! >= 0) continue;
    const v = value[node]!;
    for (let k = leafStart[node]!; k < leafEnd[node]!; k++) margin[rows[k]!] = margin[rows[k]!]! + v;
  }
}

/** Trains a boosted ensemble. Deterministic for a given seed. */
export function trainGbdt(train: TrainingData, params: GbdtParams = {}): GbdtModel {
  checkParams(params);
  const objective = params.objective ?? 'binary:logistic';
  const logistic = objective === 'binary:logistic';
  checkData(train, logistic, 'training data');
  if (params.validation) {
    checkData(params.validation, logistic, 'validation data');
    if (params.validation.x.cols !== train.x.cols) throw new VitrineError('validation_failed', 'validation data has a different number of features');
  }
  const rounds = params.rounds ?? 100;
  const treeParams: TreeParams = {
    eta: params.eta ?? 0.3,
    maxDepth: params.maxDepth ?? 6,
    minChildWeight: params.minChildWeight ?? 1,
    lambda: params.lambda ?? 1,
    gamma: params.gamma ?? 0,
  };
  const metric: EvalMetric = params.evalMetric ?? (logistic ? 'logloss' : 'rmse');
  const seed = params.seed ?? 0;
  const rng = new Random(seed);
  const { x, y } = train;
  const n = x.rows;
  const w = train.weights;

  let baseScore = params.baseScore;
  if (baseScore === undefined) {
    let sw = 0;
    let swy = 0;
    for (let i = 0; i < n; i++) {
      const wi = w ? w[i]! : 1;
      sw += wi;
      swy += wi * y[i]!;
    }
    baseScore = sw > 0 ? swy / sw : logistic ? 0.5 : 0;
    if (logistic) baseScore = Math.min(1 - 1e-6, Math.max(1e-6, baseScore));
  }
  if (logistic && !(baseScore > 0 && baseScore < 1)) throw new VitrineError('validation_failed', 'invalid training parameter: baseScore must be in (0, 1) for logistic');
  const base = baseMargin({ objective, baseScore });

  const binned = binMatrix(x, computeCuts(x, params.maxBins ?? 256, seed));
  const margin = new Float64Array(n).fill(base);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const valid = params.validation;
  const validMargin = valid ? new Float64Array(valid.x.rows).fill(base) : undefined;
  const trees: Tree[] = [];
  const higherIsBetter = metric === 'auc';
  let bestScore = NaN;
  let bestIteration = -1;
  const subsample = params.subsample ?? 1;
  const colsample = params.colsampleByTree ?? 1;
  const nSample = subsample < 1 ? Math.max(1, Math.round(subsample * n)) : n;
  const nFeat = colsample < 1 ? Math.max(1, Math.round(colsample * x.cols)) : x.cols;
  const inSample = new Uint8Array(n);

  for (let round = 0; round < rounds; round++) {
    if (params.signal?.aborted) throw new VitrineError('cancelled', 'training was cancelled');
    // Gradients and hessians of the loss at the current margins (XGBoost's formulas, including its hessian floor).
    if (logistic && !w) {
      logisticGradients(margin, y, grad, hess, n);
    } else {
      for (let i = 0; i < n; i++) {
        const wi = w ? w[i]! : 1;
        if (logistic) {
          const p = sigmoid(margin[i]!);
          grad[i] = (p - y[i]!) * wi;
          hess[i] = Math.max(p * (1 - p), 1e-16) * wi;
        } else {
          grad[i] = (margin[i]! - y[i]!) * wi;
          hess[i] = wi;
        }
      }
    }
    let rows: Uint32Array;
    if (nSample < n) {
      rows = rng.permutation(n).subarray(0, nSample).sort();
    } else {
      rows = identityRows(n);
    }
    let features: Int32Array;
    if (nFeat < x.cols) features = Int32Array.from(rng.permutation(x.cols).subarray(0, nFeat)).sort();
    else features = Int32Array.from({ length: x.cols }, (_, f) => f);

    const grown = growTree(binned, grad, hess, rows, features, treeParams);
    const tree = grown.tree;
    trees.push(tree);
    // Training margins: sampled rows from their leaves' slices, the others by walking the tree.
    addLeafValues(tree, grown, margin);
    if (nSample < n) {
      inSample.fill(0);
      for (const r of rows) inSample[r] = 1;
      for (let i = 0; i < n; i++) if (!inSample[i]) margin[i] = margin[i]! + predictTree(tree, x.data, i * x.cols);
    }
    let score: number | undefined;
    if (valid && validMargin) {
      for (let i = 0; i < valid.x.rows; i++) validMargin[i] = validMargin[i]! + predictTree(tree, valid.x.data, i * valid.x.cols);
      score = evaluate(metric, logistic, validMargin, valid.y);
      const better = Number.isNaN(bestScore) || (higherIsBetter ? score > bestScore : score < bestScore);
      if (better) {
        bestScore = score;
        bestIteration = round;
      }
    }
    params.onRound?.(score === undefined ? { round } : { round, validation: score });
    if (params.earlyStoppingRounds !== undefined && bestIteration >= 0 && round - bestIteration >= params.earlyStoppingRounds) break;
  }
  const kept = params.earlyStoppingRounds !== undefined && bestIteration >= 0 ? trees.slice(0, bestIteration + 1) : trees;
  const recorded: Record<string, number | string | boolean> = {
    objective,
    rounds,
    eta: treeParams.eta,
    max_depth: treeParams.maxDepth,
    min_child_weight: treeParams.minChildWeight,
    lambda: treeParams.lambda,
    gamma: treeParams.gamma,
    max_bins: params.maxBins ?? 256,
    subsample,
    colsample_bytree: colsample,
    seed,
    eval_metric: metric,
  };
  if (params.earlyStoppingRounds !== undefined) recorded['early_stopping_rounds'] = params.earlyStoppingRounds;
  return {
    objective,
    baseScore,
    numFeatures: x.cols,
    trees: kept,
    params: recorded,
    ...(params.featureNames ? { featureNames: [...params.featureNames] } : {}),
    ...(valid && bestIteration >= 0 ? { bestIteration, bestScore } : {}),
  };
}

function checkWidth(model: GbdtModel, x: FeatureMatrix): void {
  if (x.cols !== model.numFeatures) throw new VitrineError('validation_failed', `the model expects ${model.numFeatures} features, the data has ${x.cols}`);
}

/** Margin of one row (log-odds for logistic). */
export function predictMarginRow(model: GbdtModel, row: ArrayLike<number>, offset = 0): number {
  if (model.numFeatures > MAX_PACKED_FEATURE) {
    let m = baseMargin(model);
    for (const t of model.trees) m += predictTree(t, row, offset);
    return m;
  }
  return packedRowSum(packedTrees(model.trees), row, offset, baseMargin(model));
}

/** Margins of every row. */
export function predictMargin(model: GbdtModel, x: FeatureMatrix): Float64Array {
  checkWidth(model, x);
  const out = new Float64Array(x.rows).fill(baseMargin(model));
  if (x.rows === 0) return out;
  // Packed nodes, tree by tree over blocks of rows; per row the same additions in the same order as one tree at a time.
  if (model.numFeatures <= MAX_PACKED_FEATURE) addPackedOutputs(packedTrees(model.trees), x.data, x.rows, x.cols, out);
  else for (const t of model.trees) for (let i = 0; i < x.rows; i++) out[i] = out[i]! + predictTree(t, x.data, i * x.cols);
  return out;
}

/** Probabilities (logistic) or values (squared error) of every row. */
export function predict(model: GbdtModel, x: FeatureMatrix): Float64Array {
  const m = predictMargin(model, x);
  return model.objective === 'binary:logistic' ? m.map(sigmoid) : m;
}

/**
 * `predict` of the matrix whose every value is `map(v)` (a model trained on transformed features scored from the raw
 * ones): the same results, with `map` applied only to the values the trees read when the prediction kernel serves.
 */
export function predictMapped(model: GbdtModel, x: FeatureMatrix, map: (v: number) => number): Float64Array {
  checkWidth(model, x);
  const packed = model.numFeatures <= MAX_PACKED_FEATURE && x.rows > 0 ? packedTrees(model.trees) : undefined;
  if (!packed || !kernelServes(packed, x.rows)) {
    const data = new Float64Array(x.data.length);
    for (let i = 0; i < data.length; i++) data[i] = map(x.data[i]!);
    return predict(model, { rows: x.rows, cols: x.cols, data });
  }
  const out = new Float64Array(x.rows).fill(baseMargin(model));
  addKernelOutputs(packed.kernel!, x.data, x.rows, x.cols, out, Infinity, map);
  return model.objective === 'binary:logistic' ? out.map(sigmoid) : out;
}

/** The cut trees of each trees array (`PerTrees`), with the cut function they were made by. */
const cuts = new PerTrees<{ cut: (t: number) => number | undefined; raw: Tree[] | null }>();

/**
 * The trees with every split's threshold t replaced by `cut(t)`, built once per trees array and cut function (and
 * rebuilt when the array's trees change); null when `cut` returned undefined for some threshold.
 */
function cutTrees(trees: readonly Tree[], cut: (t: number) => number | undefined): Tree[] | null {
  const hit = cuts.get(trees);
  if (hit && hit.cut === cut) return hit.raw;
  let raw: Tree[] | null = [];
  // Splits share thresholds (the bin cuts): each distinct one is cut once.
  const seen = new Map<number, number | undefined>();
  for (const t of trees) {
    const threshold = new Float64Array(t.threshold.length);
    for (let k = 0; k < threshold.length; k++) {
      if (t.left[k]! < 0) continue;
      const v = t.threshold[k]!;
      let c = seen.get(v);
      if (c === undefined && !seen.has(v)) {
        c = cut(v);
        seen.set(v, c);
      }
      if (c === undefined) {
        raw = null;
        break;
      }
      threshold[k] = c;
    }
    if (!raw) break;
    raw.push({ ...t, threshold });
  }
  cuts.set(trees, { cut, raw });
  return raw;
}

/**
 * `predictMapped` without `map`: each split compares the untransformed value with `cut(threshold)` instead of `map(v)`
 * with the threshold. `cut(t)` must return the value c for which map(v) >= t exactly when v >= c (every non-NaN v;
 * NaN stays missing under `map`), or undefined when it cannot vouch for that; then the model is scored through
 * `predictMapped`. The cut thresholds are worked out once per model, so the results are predictMapped's, bit for bit.
 */
export function predictThroughCuts(model: GbdtModel, x: FeatureMatrix, map: (v: number) => number, cut: (t: number) => number | undefined): Float64Array {
  checkWidth(model, x);
  const raw = cutTrees(model.trees, cut);
  return raw ? predict({ ...model, trees: raw }, x) : predictMapped(model, x, map);
}

/** Feature importance as XGBoost reports it: total gain, or how often a feature splits (weight), or total cover. */
export function featureImportance(model: GbdtModel, kind: 'gain' | 'weight' | 'cover' = 'gain'): Float64Array {
  const out = new Float64Array(model.numFeatures);
  for (const t of model.trees) {
    for (let node = 0; node < t.left.length; node++) {
      if (t.left[node]! < 0) continue;
      const f = t.feature[node]!;
      out[f] = out[f]! + (kind === 'gain' ? t.gain[node]! : kind === 'cover' ? t.cover[node]! : 1);
    }
  }
  return out;
}

export interface DecisionTreeParams {
  readonly maxDepth?: number;
  /** Minimum (weighted) rows in a leaf; default 1. */
  readonly minChildWeight?: number;
  /** Shrinks leaf means towards the overall mean; default 0 (plain means). */
  readonly lambda?: number;
  readonly maxBins?: number;
  readonly featureNames?: readonly string[];
}

/**
 * One decision/regression tree on squared error: each leaf predicts the (weighted) mean label of its rows,
 * so on 0/1 labels it predicts a probability. A one-round, unshrunk squared-error boosting model.
 */
export function trainDecisionTree(data: TrainingData, params: DecisionTreeParams = {}): GbdtModel {
  let sw = 0;
  let swy = 0;
  for (let i = 0; i < data.x.rows; i++) {
    const w = data.weights ? data.weights[i]! : 1;
    sw += w;
    swy += w * data.y[i]!;
  }
  return trainGbdt(data, {
    objective: 'reg:squarederror',
    rounds: 1,
    eta: 1,
    lambda: params.lambda ?? 0,
    gamma: 0,
    maxDepth: params.maxDepth ?? 6,
    minChildWeight: params.minChildWeight ?? 1,
    baseScore: sw > 0 ? swy / sw : 0,
    ...(params.maxBins !== undefined ? { maxBins: params.maxBins } : {}),
    ...(params.featureNames ? { featureNames: params.featureNames } : {}),
  });
}
