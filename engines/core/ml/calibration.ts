// Score calibration: Platt scaling (a fitted sigmoid) and isotonic regression (pool-adjacent-violators), serialisable as plain JSON.
import { z } from 'zod';

/** p = 1 / (1 + exp(-(a * score + b))). */
export interface PlattCalibration {
  readonly method: 'platt';
  readonly a: number;
  readonly b: number;
}

/** A non-decreasing step-and-ramp: linear interpolation between (x[i], y[i]), clipped outside. */
export interface IsotonicCalibration {
  readonly method: 'isotonic';
  readonly x: readonly number[];
  readonly y: readonly number[];
}

export type Calibration = PlattCalibration | IsotonicCalibration;

export const calibrationSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('platt'), a: z.number(), b: z.number() }).strict(),
  z
    .object({ method: z.literal('isotonic'), x: z.array(z.number()).min(1).max(1_000_000), y: z.array(z.number().min(0).max(1)).max(1_000_000) })
    .strict()
    .refine((c) => c.x.length === c.y.length, { message: 'x and y differ in length', path: ['y'] })
    .refine((c) => c.x.every((v, i) => i === 0 || v > c.x[i - 1]!), { message: 'x must increase', path: ['x'] })
    .refine((c) => c.y.every((v, i) => i === 0 || v >= c.y[i - 1]!), { message: 'y must not decrease', path: ['y'] }),
]);

/**
 * Platt scaling with Platt's smoothed targets, fitted by Newton's method with backtracking
 * (Lin, Lin and Weng, "A note on Platt's probabilistic outputs for support vector machines", 2007).
 */
export function fitPlatt(scores: ArrayLike<number>, labels: ArrayLike<number>): PlattCalibration {
  if (scores.length !== labels.length) throw new RangeError('scores and labels differ in length');
  let nPos = 0;
  let nNeg = 0;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i]! > 0.5) nPos++;
    else nNeg++;
  }
  const hiTarget = (nPos + 1) / (nPos + 2);
  const loTarget = 1 / (nNeg + 2);
  const n = scores.length;
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = labels[i]! > 0.5 ? hiTarget : loTarget;
  // Lin et al. parameterise p = 1/(1+exp(A f + B)); we report a = -A, b = -B.
  let A = 0;
  let B = Math.log((nNeg + 1) / (nPos + 1));
  const sigma = 1e-12;
  const objective = (a: number, b: number): number => {
    let f = 0;
    for (let i = 0; i < n; i++) {
      const fApB = scores[i]! * a + b;
      f += fApB >= 0 ? t[i]! * fApB + Math.log1p(Math.exp(-fApB)) : (t[i]! - 1) * fApB + Math.log1p(Math.exp(fApB));
    }
    return f;
  };
  let fval = objective(A, B);
  for (let iter = 0; iter < 100; iter++) {
    let h11 = sigma;
    let h22 = sigma;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let i = 0; i < n; i++) {
      const f = scores[i]!;
      const fApB = f * A + B;
      let p: number;
      let q: number;
      if (fApB >= 0) {
        const e = Math.exp(-fApB);
        p = e / (1 + e);
        q = 1 / (1 + e);
      } else {
        const e = Math.exp(fApB);
        p = 1 / (1 + e);
        q = e / (1 + e);
      }
      const d2 = p * q;
      h11 += f * f * d2;
      h22 += d2;
      h21 += f * d2;
      const d1 = t[i]! - p;
      g1 += f * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < 1e-10 * Math.max(1, n) && Math.abs(g2) < 1e-10 * Math.max(1, n)) break;
    const det = h11 * h22 - h21 * h21;
    const dA = -(h22 * g1 - h21 * g2) / det;
    const dB = -(-h21 * g1 + h11 * g2) / det;
    const gd = g1 * dA + g2 * dB;
    let step = 1;
    let moved = false;
    while (step >= 1e-10) {
      const newA = A + step * dA;
      const newB = B + step * dB;
      const newf = objective(newA, newB);
      if (newf < fval + 1e-4 * step * gd) {
        A = newA;
        B = newB;
        fval = newf;
        moved = true;
        break;
      }
      step /= 2;
    }
    if (!moved) break;
  }
  return { method: 'platt', a: -A, b: -B };
}

/**
 * Isotonic regression of labels on scores (non-decreasing), by pool-adjacent-violators over the
 * distinct scores (tied scores are pooled first, weighted by their counts, as scikit-learn does).
 */
export function fitIsotonic(scores: ArrayLike<number>, labels: ArrayLike<number>, weights?: ArrayLike<number>): IsotonicCalibration {
  if (scores.length !== labels.length) throw new RangeError('scores and labels differ in length');
  const idx: number[] = [];
  for (let i = 0; i < scores.length; i++) if (!Number.isNaN(scores[i]!)) idx.push(i);
  if (idx.length === 0) throw new RangeError('isotonic calibration needs at least one score');
  idx.sort((a, b) => scores[a]! - scores[b]!);
  // Distinct scores with their weighted mean label.
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const i of idx) {
    const x = scores[i]!;
    const w = weights ? weights[i]! : 1;
    const y = labels[i]! > 0.5 ? 1 : 0;
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === x) {
      ys[last] = (ys[last]! * ws[last]! + y * w) / (ws[last]! + w);
      ws[last] = ws[last]! + w;
    } else {
      xs.push(x);
      ys.push(y);
      ws.push(w);
    }
  }
  // Pool adjacent violators: a stack of blocks (mean, weight, first index).
  const bMean: number[] = [];
  const bWeight: number[] = [];
  const bStart: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    let m = ys[i]!;
    let w = ws[i]!;
    let start = i;
    while (bMean.length > 0 && bMean[bMean.length - 1]! >= m) {
      const pm = bMean.pop()!;
      const pw = bWeight.pop()!;
      start = bStart.pop()!;
      m = (pm * pw + m * w) / (pw + w);
      w += pw;
    }
    bMean.push(m);
    bWeight.push(w);
    bStart.push(start);
  }
  // Keep each block's first and last score: interpolation between them is flat, so the rest is redundant.
  const outX: number[] = [];
  const outY: number[] = [];
  for (let b = 0; b < bMean.length; b++) {
    const first = bStart[b]!;
    const last = b + 1 < bStart.length ? bStart[b + 1]! - 1 : xs.length - 1;
    outX.push(xs[first]!);
    outY.push(bMean[b]!);
    if (last !== first) {
      outX.push(xs[last]!);
      outY.push(bMean[b]!);
    }
  }
  return { method: 'isotonic', x: outX, y: outY };
}

/** The calibrated probability of one score. */
export function calibrate(calibration: Calibration, score: number): number {
  if (calibration.method === 'platt') {
    const z = calibration.a * score + calibration.b;
    return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  }
  const { x, y } = calibration;
  if (Number.isNaN(score)) return NaN;
  if (score <= x[0]!) return y[0]!;
  const last = x.length - 1;
  if (score >= x[last]!) return y[last]!;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! <= score) lo = mid;
    else hi = mid;
  }
  const f = (score - x[lo]!) / (x[hi]! - x[lo]!);
  return y[lo]! + f * (y[hi]! - y[lo]!);
}

/** Fits the named calibration. */
export function fitCalibration(method: Calibration['method'], scores: ArrayLike<number>, labels: ArrayLike<number>): Calibration {
  return method === 'platt' ? fitPlatt(scores, labels) : fitIsotonic(scores, labels);
}
