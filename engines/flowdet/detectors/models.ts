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
  predictMapped,
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
  const lx = logFeatures(x);
  const data = { x: lx, y };
  switch (kind) {
    case 'gbdt':
      return { kind, model: trainGbdt(data, { rounds: s.quick ? 40 : 150, eta: s.quick ? 0.3 : 0.15, maxDepth: 6, seed: s.seed, ...(s.signal ? { signal: s.signal } : {}) }) };
    case 'random_forest':
      return { kind, model: trainRandomForest(data, { trees: s.quick ? 15 : 60, maxDepth: 10, seed: s.seed, ...(s.signal ? { signal: s.signal } : {}) }) };
    case 'logistic':
      return { kind, model: trainLogistic(data, { l2: 1 }) };
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
    // The trees take log1p of only the values they read (the same results as on logFeatures(x)).
    case 'gbdt':
      return predictMapped(d.model, x, logValue);
    case 'random_forest': {
      const p = predictMapped(d.model, x, logValue);
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
