// Detector metrics: ROC and PR curves and areas (tie-aware), thresholds at a target false-positive rate, confusion-matrix rates.

/** True for a positive label (1, or anything above one half). */
function isPositive(label: number): boolean {
  return label > 0.5;
}

/** Indices of the scores in descending order (NaN scores sort last, as the least suspicious). */
function descendingOrder(scores: ArrayLike<number>): Uint32Array {
  const order = new Uint32Array(scores.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const key = Float64Array.from({ length: scores.length }, (_, i) => {
    const s = scores[i]!;
    return Number.isNaN(s) ? -Infinity : s;
  });
  order.sort((a, b) => key[b]! - key[a]! || a - b);
  return order;
}

function checkLengths(scores: ArrayLike<number>, labels: ArrayLike<number>, weights?: ArrayLike<number>): void {
  if (scores.length !== labels.length) throw new RangeError('scores and labels differ in length');
  if (weights !== undefined && weights.length !== scores.length) throw new RangeError('weights and scores differ in length');
}

/** A ROC curve over the distinct thresholds, from the strictest: a point (fpr[i], tpr[i]) flags score >= thresholds[i]. */
export interface RocCurve {
  readonly fpr: Float64Array;
  readonly tpr: Float64Array;
  readonly thresholds: Float64Array;
}

/** The ROC curve, starting at (0, 0) with threshold +Infinity; tied scores form one point. */
export function rocCurve(scores: ArrayLike<number>, labels: ArrayLike<number>, weights?: ArrayLike<number>): RocCurve {
  checkLengths(scores, labels, weights);
  const order = descendingOrder(scores);
  let totalPos = 0;
  let totalNeg = 0;
  for (let i = 0; i < scores.length; i++) {
    const w = weights ? weights[i]! : 1;
    if (isPositive(labels[i]!)) totalPos += w;
    else totalNeg += w;
  }
  const fpr = [0];
  const tpr = [0];
  const thresholds = [Infinity];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < order.length; ) {
    const s = scores[order[k]!]!;
    // Consume the whole run of tied scores before emitting a point.
    while (k < order.length && (scores[order[k]!]! === s || (Number.isNaN(s) && Number.isNaN(scores[order[k]!]!)))) {
      const i = order[k]!;
      const w = weights ? weights[i]! : 1;
      if (isPositive(labels[i]!)) tp += w;
      else fp += w;
      k++;
    }
    fpr.push(totalNeg > 0 ? fp / totalNeg : NaN);
    tpr.push(totalPos > 0 ? tp / totalPos : NaN);
    thresholds.push(Number.isNaN(s) ? -Infinity : s);
  }
  return { fpr: Float64Array.from(fpr), tpr: Float64Array.from(tpr), thresholds: Float64Array.from(thresholds) };
}

/** Area under the ROC curve (trapezoids over tie groups, equal to the Mann-Whitney statistic with midranks); NaN for a single class. */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<number>, weights?: ArrayLike<number>): number {
  const { fpr, tpr } = rocCurve(scores, labels, weights);
  if (Number.isNaN(fpr[fpr.length - 1]!) || Number.isNaN(tpr[tpr.length - 1]!)) return NaN;
  let area = 0;
  for (let i = 1; i < fpr.length; i++) area += ((fpr[i]! - fpr[i - 1]!) * (tpr[i]! + tpr[i - 1]!)) / 2;
  return area;
}

/** Average precision (the step-wise area under the precision-recall curve, as scikit-learn computes it); NaN for a single class. */
export function averagePrecision(scores: ArrayLike<number>, labels: ArrayLike<number>, weights?: ArrayLike<number>): number {
  const { fpr, tpr } = rocCurve(scores, labels, weights);
  if (Number.isNaN(fpr[fpr.length - 1]!) || Number.isNaN(tpr[tpr.length - 1]!)) return NaN;
  let totalPos = 0;
  let totalNeg = 0;
  for (let i = 0; i < labels.length; i++) {
    const w = weights ? weights[i]! : 1;
    if (isPositive(labels[i]!)) totalPos += w;
    else totalNeg += w;
  }
  let ap = 0;
  for (let i = 1; i < tpr.length; i++) {
    const tp = tpr[i]! * totalPos;
    const fp = fpr[i]! * totalNeg;
    const precision = tp + fp > 0 ? tp / (tp + fp) : 1;
    ap += (tpr[i]! - tpr[i - 1]!) * precision;
  }
  return ap;
}

/** A decision threshold chosen on validation scores, with the rates it achieves there. */
export interface OperatingPoint {
  /** Flag a score when score >= threshold. */
  readonly threshold: number;
  readonly targetFpr: number;
  readonly fpr: number;
  readonly tpr: number;
}

/**
 * The lowest threshold whose false-positive rate on the negatives stays at or below `targetFpr`
 * (for example 0.001 and 0.01): at most floor(targetFpr * negatives) negatives score at or above it.
 */
export function thresholdAtFpr(scores: ArrayLike<number>, labels: ArrayLike<number>, targetFpr: number): OperatingPoint {
  checkLengths(scores, labels);
  if (!(targetFpr >= 0 && targetFpr <= 1)) throw new RangeError('target false-positive rate must be in [0, 1]');
  const negatives: number[] = [];
  const positives: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    (isPositive(labels[i]!) ? positives : negatives).push(Number.isNaN(s) ? -Infinity : s);
  }
  if (negatives.length === 0) throw new RangeError('no negative scores to set a false-positive rate on');
  negatives.sort((a, b) => b - a);
  const allowed = Math.floor(targetFpr * negatives.length + 1e-9);
  let threshold: number;
  if (allowed >= negatives.length) threshold = -Infinity;
  else {
    // Just above the (allowed + 1)-th highest negative, so that one and all tied with it stay below.
    const bar = negatives[allowed]!;
    threshold = bar === Infinity ? Infinity : nextUp(bar);
  }
  let fp = 0;
  for (const s of negatives) if (s >= threshold) fp++;
  let tp = 0;
  for (const s of positives) if (s >= threshold) tp++;
  return { threshold, targetFpr, fpr: fp / negatives.length, tpr: positives.length > 0 ? tp / positives.length : NaN };
}

/** The smallest double greater than x. */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  buf.setBigUint64(0, x > 0 ? bits + 1n : bits - 1n);
  return buf.getFloat64(0);
}

/** Counts at a threshold (positive prediction when score >= threshold). */
export interface ConfusionMatrix {
  readonly tp: number;
  readonly fp: number;
  readonly tn: number;
  readonly fn: number;
}

export function confusionMatrix(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold: number): ConfusionMatrix {
  checkLengths(scores, labels);
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < scores.length; i++) {
    const flagged = scores[i]! >= threshold;
    if (isPositive(labels[i]!)) {
      if (flagged) tp++;
      else fn++;
    } else if (flagged) fp++;
    else tn++;
  }
  return { tp, fp, tn, fn };
}

/** Rates from a confusion matrix; a rate whose denominator is zero is 0 (scikit-learn's zero_division=0). */
export interface ClassificationRates {
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly fpr: number;
  readonly specificity: number;
}

export function classificationRates(cm: ConfusionMatrix): ClassificationRates {
  const div = (a: number, b: number): number => (b > 0 ? a / b : 0);
  const precision = div(cm.tp, cm.tp + cm.fp);
  const recall = div(cm.tp, cm.tp + cm.fn);
  return {
    accuracy: div(cm.tp + cm.tn, cm.tp + cm.tn + cm.fp + cm.fn),
    precision,
    recall,
    f1: div(2 * cm.tp, 2 * cm.tp + cm.fp + cm.fn),
    fpr: div(cm.fp, cm.fp + cm.tn),
    specificity: div(cm.tn, cm.fp + cm.tn),
  };
}

/** Precision a detector with these rates would have at another attack prevalence (for example 1 % or 0.1 %). */
export function precisionAtPrevalence(tpr: number, fpr: number, prevalence: number): number {
  const tp = tpr * prevalence;
  const fp = fpr * (1 - prevalence);
  return tp + fp > 0 ? tp / (tp + fp) : 0;
}

/** Mean binary cross-entropy of probabilities, clipped away from 0 and 1 as xgboost's logloss does. */
export function logLoss(probabilities: ArrayLike<number>, labels: ArrayLike<number>): number {
  checkLengths(probabilities, labels);
  const eps = 1e-16;
  let s = 0;
  for (let i = 0; i < labels.length; i++) {
    const p = Math.min(1 - eps, Math.max(eps, probabilities[i]!));
    s -= isPositive(labels[i]!) ? Math.log(p) : Math.log(1 - p);
  }
  return labels.length > 0 ? s / labels.length : NaN;
}

/** Mean squared difference between probabilities and outcomes. */
export function brierScore(probabilities: ArrayLike<number>, labels: ArrayLike<number>): number {
  checkLengths(probabilities, labels);
  let s = 0;
  for (let i = 0; i < labels.length; i++) {
    const d = probabilities[i]! - (isPositive(labels[i]!) ? 1 : 0);
    s += d * d;
  }
  return labels.length > 0 ? s / labels.length : NaN;
}

/** Precision-recall points from the ROC curve's tie groups (recall ascending); empty for a single class. */
export function prCurve(scores: ArrayLike<number>, labels: ArrayLike<number>): { recall: Float64Array; precision: Float64Array } {
  const roc = rocCurve(scores, labels);
  let pos = 0;
  for (let i = 0; i < labels.length; i++) if (isPositive(labels[i]!)) pos++;
  const neg = labels.length - pos;
  if (pos === 0 || neg === 0) return { recall: new Float64Array(0), precision: new Float64Array(0) };
  const recall: number[] = [];
  const precision: number[] = [];
  for (let i = 1; i < roc.fpr.length; i++) {
    const tp = roc.tpr[i]! * pos;
    const fp = roc.fpr[i]! * neg;
    recall.push(roc.tpr[i]!);
    precision.push(tp + fp > 0 ? tp / (tp + fp) : 1);
  }
  return { recall: Float64Array.from(recall), precision: Float64Array.from(precision) };
}

/** Area under a curve given at increasing x (trapezoids) divided by the x span, so a curve in [0, 1] gives an area in [0, 1]. */
export function normalizedArea(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length || x.length < 2) return NaN;
  let area = 0;
  for (let i = 1; i < x.length; i++) area += ((x[i]! - x[i - 1]!) * (y[i]! + y[i - 1]!)) / 2;
  const span = x[x.length - 1]! - x[0]!;
  return span > 0 ? area / span : NaN;
}
