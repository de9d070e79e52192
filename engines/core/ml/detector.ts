// Train a boosted detector end to end: stratified validation split, early stopping, optional calibration, and thresholds at target false-positive rates on validation scores.
import { VitrineError } from '../errors.js';
import { calibrate, fitCalibration, type Calibration } from './calibration.js';
import { splitDataset, type Dataset, type FeatureMatrix } from './dataset.js';
import { predict, trainGbdt, type GbdtModel, type GbdtParams, type ModelThreshold } from './gbdt.js';
import { averagePrecision, logLoss, rocAuc, thresholdAtFpr } from './metrics.js';

export interface ThresholdTarget {
  readonly name: string;
  readonly targetFpr: number;
}

/** The two operating points the executable triage verdicts use: 0.1 % and 1 % false-positive rate. */
export const DEFAULT_THRESHOLD_TARGETS: readonly ThresholdTarget[] = [
  { name: 'fpr_0.1pct', targetFpr: 0.001 },
  { name: 'fpr_1pct', targetFpr: 0.01 },
];

export interface DetectorOptions extends Omit<GbdtParams, 'validation'> {
  /** Validation rows; without them a stratified share of the data is held out. */
  readonly validation?: Dataset;
  /** Held-out share when no validation set is given; default 0.2. */
  readonly validationFraction?: number;
  /** Default DEFAULT_THRESHOLD_TARGETS. */
  readonly thresholds?: readonly ThresholdTarget[];
  /** Fit on validation scores; default none (thresholds then apply to the model's probability). */
  readonly calibration?: Calibration['method'] | 'none';
}

/** Validation measures of the trained detector, on the scores the thresholds apply to. */
export interface DetectorReport {
  readonly trainRows: number;
  readonly validationRows: number;
  readonly auc: number;
  readonly averagePrecision: number;
  readonly logLoss: number;
  readonly thresholds: readonly ModelThreshold[];
}

/** The model's score: its probability, calibrated when the model carries a calibration. */
export function detectorScores(model: GbdtModel, x: FeatureMatrix): Float64Array {
  const p = predict(model, x);
  const cal = model.calibration;
  return cal ? p.map((v) => calibrate(cal, v)) : p;
}

/** Trains, calibrates and sets thresholds; the returned model carries calibration and thresholds for its file. */
export function trainDetector(data: Dataset, options: DetectorOptions = {}): { model: GbdtModel; report: DetectorReport } {
  if (options.objective !== undefined && options.objective !== 'binary:logistic') throw new VitrineError('validation_failed', 'a detector needs the binary:logistic objective');
  let train = data;
  let validation = options.validation;
  if (!validation) {
    const split = splitDataset(data, options.validationFraction ?? 0.2, options.seed ?? 0);
    train = split.train;
    validation = split.validation;
  }
  if (validation.x.rows === 0) throw new VitrineError('validation_failed', 'the validation set is empty');
  // Thresholds are set on the negatives' scores.
  if (!validation.y.some((v) => v === 0)) throw new VitrineError('validation_failed', 'the validation set has no negative rows');
  const { validation: _v, validationFraction: _f, thresholds: _t, calibration: _c, ...gbdt } = options;
  const base = trainGbdt(
    { x: train.x, y: train.y, ...(train.weights ? { weights: train.weights } : {}) },
    { featureNames: train.featureNames, ...gbdt, validation: { x: validation.x, y: validation.y } },
  );
  const raw = predict(base, validation.x);
  const method = options.calibration ?? 'none';
  const calibration = method === 'none' ? undefined : fitCalibration(method, raw, validation.y);
  const scores = calibration ? raw.map((v) => calibrate(calibration, v)) : raw;
  const thresholds = (options.thresholds ?? DEFAULT_THRESHOLD_TARGETS).map((t) => ({ name: t.name, ...thresholdAtFpr(scores, validation.y, t.targetFpr) }));
  const model: GbdtModel = { ...base, thresholds, ...(calibration ? { calibration } : {}) };
  return {
    model,
    report: {
      trainRows: train.x.rows,
      validationRows: validation.x.rows,
      auc: rocAuc(scores, validation.y),
      averagePrecision: averagePrecision(scores, validation.y),
      logLoss: logLoss(scores, validation.y),
      thresholds,
    },
  };
}
