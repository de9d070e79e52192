// The detectors (boosted trees, random forest, logistic regression, MLP) over log features, the attack space, and the hardened ensemble.
import {
  featureMatrix,
  gbdtModelFromJson,
  gbdtModelToJson,
  logisticModelFromJson,
  logisticModelToJson,
  mlpInputGradient,
  mlpModelFromJson,
  mlpModelToJson,
  predictLogistic,
  predictThroughCuts,
  predictMlp,
  trainGbdt,
  trainLogistic,
  trainMlp,
  trainRandomForest,
  type FeatureMatrix,
  type GbdtModel,
  type JsonValue,
  type LogisticModel,
  type MlpModel,
} from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';

export type DetectorKind = 'gbdt' | 'random_forest' | 'logistic' | 'mlp';

export type Detector =
  | { readonly kind: 'gbdt'; readonly model: GbdtModel }
  | { readonly kind: 'random_forest'; readonly model: GbdtModel }
  | { readonly kind: 'logistic'; readonly model: LogisticModel }
  | { readonly kind: 'mlp'; readonly model: MlpModel };

/** Mean of the members' probabilities: what serving and the hardened study use. */
export interface Ensemble {
  readonly members: readonly Detector[];
}

/**
 * The attack space: z = (log1p(x) - mean) / sd per feature, so eps = 1 is one standard deviation of the log feature
 * (the spec's "standardised log-feature space"). Fitted once on clean training flows and never refitted.
 */
export interface LogScaler {
  readonly mean: Float64Array;
  readonly sd: Float64Array;
}

export function fitLogScaler(x: FeatureMatrix): LogScaler {
  const C = x.cols;
  const mean = new Float64Array(C);
  const sd = new Float64Array(C);
  for (let i = 0; i < x.rows; i++) for (let k = 0; k < C; k++) mean[k] = mean[k]! + Math.log1p(x.data[i * C + k]!);
  for (let k = 0; k < C; k++) mean[k] = mean[k]! / Math.max(1, x.rows);
  for (let i = 0; i < x.rows; i++)
    for (let k = 0; k < C; k++) {
      const d = Math.log1p(x.data[i * C + k]!) - mean[k]!;
      sd[k] = sd[k]! + d * d;
    }
  // A constant feature gets sd 1 so a budget still moves it (by one log unit per eps).
  for (let k = 0; k < C; k++) sd[k] = x.rows > 1 && sd[k]! > 0 ? Math.sqrt(sd[k]! / x.rows) : 1;
  return { mean, sd };
}

/** Whole numbers below this have their log1p looked up (flow counts, sizes and ports mostly are). */
const LOG_TABLE_SIZE = 1 << 16;
let logTable: Float64Array | undefined;

/**
 * The detectors' feature transform of one raw value: log1p, negatives taken as 0 (missing stays missing). Whole
 * numbers in [0, 65536) come from a table of the same Math.log1p values, built on first use.
 */
function logValue(v: number): number {
  const i = v | 0;
  if (i === v && i >= 0 && i < LOG_TABLE_SIZE) {
    if (!logTable) {
      logTable = new Float64Array(LOG_TABLE_SIZE);
      for (let k = 0; k < LOG_TABLE_SIZE; k++) logTable[k] = Math.log1p(k);
    }
    return logTable[i]!;
  }
  return Math.log1p(Math.max(0, v));
}

/** The next double up and down from a non-negative one (their bit patterns are ordered as the values). */
const stepF = new Float64Array(1);
const stepU = new Uint32Array(stepF.buffer);
const LOW = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 0 : 1;
function nextUp(v: number): number {
  stepF[0] = v;
  if (stepU[LOW] === 0xffffffff) {
    stepU[LOW] = 0;
    stepU[1 - LOW] = stepU[1 - LOW]! + 1;
  } else stepU[LOW] = stepU[LOW]! + 1;
  return stepF[0];
}
function nextDown(v: number): number {
  stepF[0] = v;
  if (stepU[LOW] === 0) {
    stepU[LOW] = 0xffffffff;
    stepU[1 - LOW] = stepU[1 - LOW]! - 1;
  } else stepU[LOW] = stepU[LOW]! - 1;
  return stepF[0];
}
/** Doubles checked on either side of a cut point, so a Math.log1p that failed to be non-decreasing there is caught. */
const CUT_WINDOW = 4;

/**
 * The raw cut point of a log-space threshold t: the value c with logValue(v) >= t exactly when v >= c, for every
 * non-NaN v. t <= 0 passes every value (log1p(max(0, v)) >= 0); otherwise c is the least non-negative double whose
 * Math.log1p is >= t, bracketed from expm1(t) and narrowed by bisection down to two neighbouring doubles. That relies
 * on Math.log1p never decreasing, which is checked on CUT_WINDOW doubles on each side of c: undefined when a check
 * fails (the caller then takes log1p of the values).
 */
export function logCut(t: number): number | undefined {
  if (t !== t) return NaN;
  if (t <= 0) return -Infinity;
  const reaches = (v: number): boolean => Math.log1p(v) >= t;
  let c: number;
  if (!reaches(Number.MAX_VALUE)) c = Infinity;
  else {
    // Bracket: lo does not reach t (0 never does), hi does, both finite.
    let hi = Math.min(Number.MAX_VALUE, Math.max(0, Math.expm1(t)));
    let lo: number;
    if (reaches(hi)) {
      let d = Math.max(hi * 2 ** -52, Number.MIN_VALUE);
      lo = Math.max(0, hi - d);
      while (lo > 0 && reaches(lo)) {
        hi = lo;
        d *= 2;
        lo = Math.max(0, hi - d);
      }
    } else {
      lo = hi;
      let d = Math.max(lo * 2 ** -52, Number.MIN_VALUE);
      hi = Math.min(Number.MAX_VALUE, lo + d);
      while (!reaches(hi)) {
        lo = hi;
        d *= 2;
        hi = Math.min(Number.MAX_VALUE, lo + d);
      }
    }
    for (;;) {
      const mid = lo + (hi - lo) / 2;
      if (!(mid > lo && mid < hi)) break;
      if (reaches(mid)) hi = mid;
      else lo = mid;
    }
    c = hi;
  }
  let up = c;
  let down = c;
  for (let k = 0; k < CUT_WINDOW; k++) {
    if (up < Infinity) {
      up = nextUp(up);
      if (!reaches(up)) return undefined;
    }
    if (down > 0) {
      down = nextDown(down);
      if (reaches(down)) return undefined;
    }
  }
  return c;
}

/** log1p of every value: the detectors' input (trees are indifferent to it, the linear and network models need it). */
export function logFeatures(x: FeatureMatrix): FeatureMatrix {
  const out = featureMatrix(x.rows, x.cols);
  for (let i = 0; i < x.data.length; i++) out.data[i] = logValue(x.data[i]!);
  return out;
}

export interface TrainSettings {
  readonly quick: boolean;
  readonly seed: number;
  readonly signal?: AbortSignal;
  /**
   * Frozen preprocessing: the MLP standardises log1p features with this (the clean training set's) mean and sd instead
   * of refitting on the rows it is given, so adversarial training rounds never move it.
   */
  readonly scaler?: LogScaler;
}

/** Trains one detector on raw flows (labels 1 = malicious). */
export function trainDetector(kind: DetectorKind, x: FeatureMatrix, y: ArrayLike<number>, s: TrainSettings, initial?: Detector): Detector {
  // Logistic regression takes the log of the raw flows itself, in its kernel's memory as it lays the rows out (the
  // same values as logFeatures bit for bit: Math.log1p of max(0, v), which the table holds for whole numbers).
  if (kind === 'logistic') return { kind, model: trainLogistic({ x, y }, { l2: 1, log1p: true }) };
  const lx = logFeatures(x);
  const data = { x: lx, y };
  switch (kind) {
    case 'gbdt':
      return { kind, model: trainGbdt(data, { rounds: s.quick ? 40 : 150, eta: s.quick ? 0.3 : 0.15, maxDepth: 6, seed: s.seed, ...(s.signal ? { signal: s.signal } : {}) }) };
    case 'random_forest':
      return { kind, model: trainRandomForest(data, { trees: s.quick ? 15 : 60, maxDepth: 10, seed: s.seed, ...(s.signal ? { signal: s.signal } : {}) }) };
    case 'mlp': {
      const frozen = s.scaler && initial?.kind !== 'mlp' ? s.scaler : undefined;
      const model = trainMlp(frozen ? { x: standardised(lx, frozen), y } : data, {
          hidden: 32,
          epochs: s.quick ? 12 : 30,
          learningRate: 3e-3,
          batchSize: 64,
          seed: s.seed,
          l2: 1e-4,
          ...(initial?.kind === 'mlp' ? { initial: initial.model } : {}),
          ...(frozen ? { standardize: false } : {}),
          ...(s.signal ? { signal: s.signal } : {}),
        });
      // Trained on already standardised inputs: the model standardises with the frozen mean and sd itself.
      return { kind, model: frozen ? { ...model, mean: Float64Array.from(frozen.mean), scale: Float64Array.from(frozen.sd) } : model };
    }
  }
}

/** (log1p x - mean) / sd with a fixed scaler. */
function standardised(lx: FeatureMatrix, scaler: LogScaler): FeatureMatrix {
  const out = featureMatrix(lx.rows, lx.cols);
  for (let i = 0; i < lx.rows; i++)
    for (let k = 0; k < lx.cols; k++) out.data[i * lx.cols + k] = (lx.data[i * lx.cols + k]! - scaler.mean[k]!) / scaler.sd[k]!;
  return out;
}

/** Largest difference between a member's own standardisation and the frozen scaler (0 when the preprocessing is frozen). */
export function preprocessingShift(d: Detector, scaler: LogScaler): number {
  if (d.kind !== 'mlp') return 0;
  let m = 0;
  for (let k = 0; k < scaler.mean.length; k++) m = Math.max(m, Math.abs(d.model.mean[k]! - scaler.mean[k]!), Math.abs(d.model.scale[k]! - scaler.sd[k]!));
  return m;
}

/** Probability of "malicious" for each raw flow. */
export function scoreDetector(d: Detector, x: FeatureMatrix): Float64Array {
  switch (d.kind) {
    // The trees compare raw values with the raw cut points of their log thresholds (the same decisions, so the same
    // results as on logFeatures(x)).
    case 'gbdt':
      return predictThroughCuts(d.model, x, logValue, logCut);
    case 'random_forest': {
      const p = predictThroughCuts(d.model, x, logValue, logCut);
      for (let i = 0; i < p.length; i++) p[i] = Math.min(1, Math.max(0, p[i]!));
      return p;
    }
    case 'logistic':
      return predictLogistic(d.model, logFeatures(x));
    case 'mlp':
      return predictMlp(d.model, logFeatures(x));
  }
}

export function scoreEnsemble(e: Ensemble, x: FeatureMatrix): Float64Array {
  const out = new Float64Array(x.rows);
  for (const m of e.members) {
    const p = scoreDetector(m, x);
    for (let i = 0; i < out.length; i++) out[i] = out[i]! + p[i]! / e.members.length;
  }
  return out;
}

export function isDifferentiable(d: Detector): boolean {
  return d.kind === 'mlp' || d.kind === 'logistic';
}

/**
 * Gradient of the malicious probability with respect to z (the attack space) for one raw flow; undefined for trees.
 * d p / d z_k = p (1 - p) * d margin / d log1p(x_k) * sd_k.
 */
export function probabilityGradientZ(d: Detector, row: ArrayLike<number>, scaler: LogScaler): { p: number; grad: Float64Array } | undefined {
  const C = scaler.mean.length;
  const lrow = new Float64Array(C);
  for (let k = 0; k < C; k++) lrow[k] = Math.log1p(Math.max(0, row[k] as number));
  const one = { rows: 1, cols: C, data: lrow };
  let p: number;
  let dm: Float64Array;
  if (d.kind === 'mlp') {
    dm = mlpInputGradient(d.model, lrow);
    p = predictMlp(d.model, one)[0]!;
  } else if (d.kind === 'logistic') {
    dm = new Float64Array(C);
    for (let k = 0; k < C; k++) dm[k] = d.model.weights[k]! / d.model.scale[k]!;
    p = predictLogistic(d.model, one)[0]!;
  } else return undefined;
  const grad = new Float64Array(C);
  for (let k = 0; k < C; k++) grad[k] = p * (1 - p) * dm[k]! * scaler.sd[k]!;
  return { p, grad };
}

/** The detector as JSON data (its core/ml model file). */
export function detectorToJson(d: Detector): { kind: DetectorKind; model: JsonValue } {
  const model = d.kind === 'gbdt' || d.kind === 'random_forest' ? gbdtModelToJson(d.model) : d.kind === 'logistic' ? logisticModelToJson(d.model) : mlpModelToJson(d.model);
  return { kind: d.kind, model: model as unknown as JsonValue };
}

export function detectorFromJson(value: unknown): Detector {
  const v = value as { kind?: unknown; model?: unknown } | null;
  if (typeof v !== 'object' || v === null) throw new VitrineError('validation_failed', 'a detector is not an object');
  switch (v.kind) {
    case 'gbdt':
      return { kind: 'gbdt', model: gbdtModelFromJson(v.model) };
    case 'random_forest':
      return { kind: 'random_forest', model: gbdtModelFromJson(v.model) };
    case 'logistic':
      return { kind: 'logistic', model: logisticModelFromJson(v.model) };
    case 'mlp':
      return { kind: 'mlp', model: mlpModelFromJson(v.model) };
    default:
      throw new VitrineError('validation_failed', 'a detector has an unknown kind');
  }
}
