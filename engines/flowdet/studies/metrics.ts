// The study's detector metrics: every one the spec lists, with NaN AUCs for a single class (null in JSON).
import { averagePrecision, classificationRates, confusionMatrix, normalizedArea, precisionAtPrevalence, rocAuc } from '../../core/ml/index.js';

export interface DetectorMetrics {
  readonly n: number;
  readonly positives: number;
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly fpr: number;
  /** NaN when the evaluation set has one class. */
  readonly roc_auc: number;
  readonly pr_auc: number;
  /** Precision the detector would have at 1 % and 0.1 % attack prevalence (from its recall and FPR). */
  readonly precision_at_1pct: number;
  readonly precision_at_0_1pct: number;
  readonly threshold: number;
}

export function detectorMetrics(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold = 0.5): DetectorMetrics {
  const cm = confusionMatrix(scores, labels, threshold);
  const r = classificationRates(cm);
  return {
    n: scores.length,
    positives: cm.tp + cm.fn,
    accuracy: r.accuracy,
    precision: r.precision,
    recall: r.recall,
    f1: r.f1,
    fpr: r.fpr,
    roc_auc: rocAuc(scores, labels),
    pr_auc: averagePrecision(scores, labels),
    precision_at_1pct: precisionAtPrevalence(r.recall, r.fpr, 0.01),
    precision_at_0_1pct: precisionAtPrevalence(r.recall, r.fpr, 0.001),
    threshold,
  };
}

/** Robustness curve: detection rate of malicious flows at each budget, and its area normalised to 0..1 over the budget span. */
export interface RobustnessCurve {
  readonly eps: readonly number[];
  readonly detection_rate: readonly number[];
  readonly area: number;
}

export function robustnessCurve(eps: readonly number[], rates: readonly number[]): RobustnessCurve {
  return { eps, detection_rate: rates, area: normalizedArea(eps, rates) };
}

/** JSON with NaN and infinities written as null (JSON has neither). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v instanceof Float64Array ? Array.from(v) : v), 2);
}
