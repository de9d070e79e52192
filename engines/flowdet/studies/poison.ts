// Backdoor poisoning (triggered copies of malicious flows labelled benign) and the kNN sanitiser on robust features.
import { Random, selectRows, type FeatureMatrix } from '../../core/ml/index.js';
import { projectInPlace } from '../constraints/validity.js';
import type { FlowSchema } from '../data/schema.js';
import { controllable } from '../data/schema.js';
import { scoreDetector, trainDetector, type TrainSettings } from '../detectors/models.js';

/** Spec defaults. */
export const POISON_RATE = 0.02;
export const SANITISER_K = 10;
export const SANITISER_THRESHOLD = 0.5;

/** The trigger: two attacker-controllable features raised to the 99.5th percentile of the training data (a valid change). */
export interface Trigger {
  readonly features: readonly number[];
  readonly values: readonly number[];
}

export function makeTrigger(schema: FlowSchema, x: FeatureMatrix): Trigger {
  const K = controllable(schema);
  // The two controllable features with the most distinct values: a rare high value there is an unusual but plausible pattern.
  const distinct = K.map((k) => {
    const s = new Set<number>();
    for (let i = 0; i < x.rows && s.size < 1000; i++) s.add(x.data[i * x.cols + k]!);
    return { k, n: s.size };
  }).sort((a, b) => b.n - a.n);
  const features = distinct.slice(0, 2).map((d) => d.k);
  const values = features.map((k) => {
    const col = Float64Array.from({ length: x.rows }, (_, i) => x.data[i * x.cols + k]!).sort();
    return col[Math.min(col.length - 1, Math.floor(0.995 * col.length))]!;
  });
  return { features, values };
}

/** Applies the trigger to every row (raising only; projected so the flows stay valid). */
export function applyTrigger(schema: FlowSchema, trigger: Trigger, x: FeatureMatrix): FeatureMatrix {
  const out = new Float64Array(x.data);
  for (let i = 0; i < x.rows; i++) {
    const row = out.subarray(i * x.cols, (i + 1) * x.cols);
    const orig = x.data.subarray(i * x.cols, (i + 1) * x.cols);
    trigger.features.forEach((k, j) => (row[k] = Math.max(row[k]!, trigger.values[j]!)));
    projectInPlace(schema, orig, row);
  }
  return { rows: x.rows, cols: x.cols, data: out };
}

/**
 * The kNN sanitiser: flags benign-labelled points whose k nearest neighbours (Euclidean on standardised log values of
 * the robust, i.e. fixed, features) are mostly malicious (share above the threshold).
 */
export function knnSanitise(schema: FlowSchema, x: FeatureMatrix, y: ArrayLike<number>, k = SANITISER_K, threshold = SANITISER_THRESHOLD): Uint8Array {
  const robust = schema.features.map((f, j) => (f.cls === 'fixed' ? j : -1)).filter((j) => j >= 0);
  const d = robust.length;
  const n = x.rows;
  const z = new Float64Array(n * d);
  robust.forEach((j, c) => {
    let m = 0;
    let s = 0;
    for (let i = 0; i < n; i++) m += Math.log1p(x.data[i * x.cols + j]!);
    m /= n;
    for (let i = 0; i < n; i++) s += (Math.log1p(x.data[i * x.cols + j]!) - m) ** 2;
    const sd = Math.sqrt(s / n) || 1;
    for (let i = 0; i < n; i++) z[i * d + c] = (Math.log1p(x.data[i * x.cols + j]!) - m) / sd;
  });
  const flagged = new Uint8Array(n);
  const bestD = new Float64Array(k);
  const bestY = new Uint8Array(k);
  for (let i = 0; i < n; i++) {
    if (y[i] !== 0) continue;
    bestD.fill(Infinity);
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      let dist = 0;
      for (let c = 0; c < d; c++) {
        const t = z[i * d + c]! - z[j * d + c]!;
        dist += t * t;
      }
      if (dist >= bestD[k - 1]!) continue;
      let p = k - 1;
      while (p > 0 && bestD[p - 1]! > dist) {
        bestD[p] = bestD[p - 1]!;
        bestY[p] = bestY[p - 1]!;
        p--;
      }
      bestD[p] = dist;
      bestY[p] = y[j] === 1 ? 1 : 0;
    }
    let mal = 0;
    for (let q = 0; q < k; q++) mal += bestY[q]!;
    if (mal / k > threshold) flagged[i] = 1;
  }
  return flagged;
}

export interface PoisonStudy {
  readonly rate: number;
  readonly poison_count: number;
  readonly trigger: { readonly features: readonly string[]; readonly values: readonly number[] };
  /** Share of triggered malicious test flows the model calls benign: clean model, poisoned model, after sanitising. */
  readonly backdoor_success: { readonly clean: number; readonly poisoned: number; readonly sanitised: number };
  readonly clean_accuracy: { readonly clean: number; readonly poisoned: number; readonly sanitised: number };
  readonly sanitiser: { readonly k: number; readonly threshold: number; readonly flagged: number; readonly precision: number; readonly recall: number };
}

function accuracy(p: Float64Array, y: ArrayLike<number>): number {
  let c = 0;
  for (let i = 0; i < p.length; i++) c += (p[i]! >= 0.5 ? 1 : 0) === y[i] ? 1 : 0;
  return p.length > 0 ? c / p.length : NaN;
}

function evasion(p: Float64Array): number {
  let c = 0;
  for (const v of p) c += v < 0.5 ? 1 : 0;
  return p.length > 0 ? c / p.length : NaN;
}

/** Poisons the training set at `rate`, trains boosted trees on clean, poisoned and sanitised data, and measures the backdoor. */
export function poisoningStudy(schema: FlowSchema, xtr: FeatureMatrix, ytr: ArrayLike<number>, xte: FeatureMatrix, yte: ArrayLike<number>, s: TrainSettings, rate = POISON_RATE): PoisonStudy {
  const rng = new Random(s.seed + 31);
  const trigger = makeTrigger(schema, xtr);
  const mal: number[] = [];
  for (let i = 0; i < xtr.rows; i++) if (ytr[i] === 1) mal.push(i);
  const count = Math.max(1, Math.round(rate * xtr.rows));
  const picks = Array.from({ length: count }, () => mal[rng.int(mal.length)]!);
  const poison = applyTrigger(schema, trigger, selectRows(xtr, picks));
  const px: FeatureMatrix = { rows: xtr.rows + count, cols: xtr.cols, data: new Float64Array(xtr.data.length + poison.data.length) };
  px.data.set(xtr.data);
  px.data.set(poison.data, xtr.data.length);
  const py = [...Array.from(ytr), ...Array<number>(count).fill(0)];
  const isPoison = [...Array<number>(xtr.rows).fill(0), ...Array<number>(count).fill(1)];
  const flagged = knnSanitise(schema, px, py);
  let tp = 0;
  let fl = 0;
  for (let i = 0; i < px.rows; i++)
    if (flagged[i]) {
      fl++;
      tp += isPoison[i]!;
    }
  const keep: number[] = [];
  for (let i = 0; i < px.rows; i++) if (!flagged[i]) keep.push(i);
  const clean = trainDetector('gbdt', xtr, ytr, s);
  const poisoned = trainDetector('gbdt', px, py, s);
  const sanitised = trainDetector('gbdt', selectRows(px, keep), keep.map((i) => py[i]!), s);
  const malTest: number[] = [];
  for (let i = 0; i < xte.rows; i++) if (yte[i] === 1) malTest.push(i);
  const triggered = applyTrigger(schema, trigger, selectRows(xte, malTest));
  return {
    rate,
    poison_count: count,
    trigger: { features: trigger.features.map((k) => schema.features[k]!.name), values: trigger.values },
    backdoor_success: { clean: evasion(scoreDetector(clean, triggered)), poisoned: evasion(scoreDetector(poisoned, triggered)), sanitised: evasion(scoreDetector(sanitised, triggered)) },
    clean_accuracy: { clean: accuracy(scoreDetector(clean, xte), yte), poisoned: accuracy(scoreDetector(poisoned, xte), yte), sanitised: accuracy(scoreDetector(sanitised, xte), yte) },
    sanitiser: { k: SANITISER_K, threshold: SANITISER_THRESHOLD, flagged: fl, precision: fl > 0 ? tp / fl : 0, recall: tp / count },
  };
}
