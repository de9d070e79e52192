// Constrained evasion attacks in standardised log-feature space: gradient (PGD), black-box search, and the adaptive attack.
import { Random, type FeatureMatrix } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { projectInPlace, projectMatrix } from '../constraints/validity.js';
import { controllable, type FlowSchema } from '../data/schema.js';
import type { LogScaler } from '../detectors/models.js';

/** Probability of "malicious" for each raw flow: one call is one batched query. */
export type Scorer = (x: FeatureMatrix) => Float64Array;
/** Probability and its gradient with respect to z for one raw flow (a differentiable model or surrogate). */
export type GradientOracle = (row: Float64Array) => { p: number; grad: Float64Array } | undefined;

/** Spec defaults ("algorithm constants that belong to the contract"). */
export const GRADIENT_STEPS = 20;
export const GRADIENT_STEP_FACTOR = 2.5;
export const BLACK_BOX_ITERS = 100;

export interface AttackSpace {
  readonly schema: FlowSchema;
  readonly scaler: LogScaler;
  /** Attacker-controllable feature indices (up and free). */
  readonly features: readonly number[];
}

export function attackSpace(schema: FlowSchema, scaler: LogScaler): AttackSpace {
  return { schema, scaler, features: controllable(schema) };
}

export interface AttackResult {
  readonly adversarial: FeatureMatrix;
  /** Target scores of the returned flows. */
  readonly scores: Float64Array;
  /** Batched score queries made to the target. */
  readonly queries: number;
}

const zOf = (s: AttackSpace, k: number, v: number): number => (Math.log1p(Math.max(0, v)) - s.scaler.mean[k]!) / s.scaler.sd[k]!;
const xOf = (s: AttackSpace, k: number, z: number): number => Math.max(0, Math.expm1(s.scaler.mean[k]! + s.scaler.sd[k]! * z));

function checkEps(eps: number): void {
  if (!(Number.isFinite(eps) && eps >= 0 && eps <= 100)) throw new VitrineError('validation_failed', 'eps must be a number from 0 to 100');
}

function rowsOf(x: FeatureMatrix, i: number): Float64Array {
  return Float64Array.from(x.data.subarray(i * x.cols, (i + 1) * x.cols));
}

export interface GradientOptions {
  readonly steps?: number;
  /** Default 2.5 * eps / steps. */
  readonly stepSize?: number;
  /** Project every step onto the constraints (default true). Unconstrained flows are not guaranteed valid. */
  readonly constrained?: boolean;
  /** A budget per row (adversarial training draws one per flow); default eps for every row. */
  readonly epsPerRow?: ArrayLike<number>;
}

/**
 * Projected gradient descent on the oracle's probability within the L-infinity ball of radius eps around each flow
 * (controllable features only), projecting onto the constraints after every step; the iterate with the lowest
 * oracle probability is kept. The target is queried once at the end.
 */
export function gradientAttack(space: AttackSpace, oracle: GradientOracle, target: Scorer, x: FeatureMatrix, eps: number, opts: GradientOptions = {}): AttackResult {
  checkEps(eps);
  const steps = opts.steps ?? GRADIENT_STEPS;
  const step = opts.stepSize ?? (GRADIENT_STEP_FACTOR * eps) / steps;
  const constrained = opts.constrained ?? true;
  const out = new Float64Array(x.data);
  const K = space.features;
  for (let i = 0; i < x.rows; i++) {
    const e = opts.epsPerRow ? opts.epsPerRow[i]! : eps;
    const stepI = opts.epsPerRow && opts.stepSize === undefined ? (GRADIENT_STEP_FACTOR * e) / steps : step;
    const orig = rowsOf(x, i);
    const z0 = K.map((k) => zOf(space, k, orig[k]!));
    const cur = Float64Array.from(orig);
    // Recorded rows hold rounded derived values: the starting point is the original projected (derived recomputed).
    projectInPlace(space.schema, orig, cur);
    let best = Float64Array.from(cur);
    let bestP = Infinity;
    for (let s = 0; s <= steps; s++) {
      const g = oracle(cur);
      if (!g) throw new VitrineError('validation_failed', 'the gradient attack needs a differentiable model');
      if (g.p < bestP) {
        bestP = g.p;
        best = Float64Array.from(cur);
      }
      if (s === steps) break;
      K.forEach((k, j) => {
        const z = zOf(space, k, cur[k]!) - stepI * Math.sign(g.grad[k]!);
        cur[k] = xOf(space, k, Math.min(z0[j]! + e, Math.max(z0[j]! - e, z)));
      });
      if (constrained) projectInPlace(space.schema, orig, cur);
    }
    out.set(best, i * x.cols);
  }
  const adversarial = { rows: x.rows, cols: x.cols, data: out };
  return { adversarial, scores: target(adversarial), queries: 1 };
}

export interface BlackBoxOptions {
  readonly iters?: number;
  /** Start from these flows (same rows as x) instead of the originals. */
  readonly start?: FeatureMatrix;
  readonly startScores?: Float64Array;
  /** Rows already scoring below this are left alone (default 0.5, the verdict threshold). */
  readonly threshold?: number;
  readonly seed?: number;
  readonly epsPerRow?: ArrayLike<number>;
}

/**
 * Random search with batched score queries: each iteration proposes, for every flow still detected, a random move
 * of its controllable features within the eps ball (projected onto the constraints) and keeps it when the target
 * score drops. One query per iteration plus one for the starting point.
 */
export function blackBoxAttack(space: AttackSpace, target: Scorer, x: FeatureMatrix, eps: number, opts: BlackBoxOptions = {}): AttackResult {
  checkEps(eps);
  const iters = opts.iters ?? BLACK_BOX_ITERS;
  const thr = opts.threshold ?? 0.5;
  const rng = new Random(opts.seed ?? 0);
  const C = x.cols;
  const K = space.features;
  const cur = new Float64Array(opts.start ? opts.start.data : projectMatrix(space.schema, x, x).data);
  let queries = 0;
  let scores: Float64Array;
  if (opts.startScores) scores = Float64Array.from(opts.startScores);
  else {
    scores = target({ rows: x.rows, cols: C, data: cur });
    queries++;
  }
  const z0 = new Float64Array(x.rows * K.length);
  for (let i = 0; i < x.rows; i++) K.forEach((k, j) => (z0[i * K.length + j] = zOf(space, k, x.data[i * C + k]!)));
  for (let it = 0; it < iters && eps > 0; it++) {
    const active: number[] = [];
    for (let i = 0; i < x.rows; i++) if (scores[i]! >= thr) active.push(i);
    if (active.length === 0) break;
    const cand = new Float64Array(active.length * C);
    // Step shrinks from eps to eps/8 over the run: wide exploration first, then refinement.
    const radius = eps * (1 - (0.875 * it) / Math.max(1, iters - 1));
    active.forEach((i, a) => {
      const orig = x.data.subarray(i * C, (i + 1) * C);
      const row = cand.subarray(a * C, (a + 1) * C);
      const e = opts.epsPerRow ? opts.epsPerRow[i]! : eps;
      row.set(cur.subarray(i * C, (i + 1) * C));
      K.forEach((k, j) => {
        if (rng.next() < 0.5) return;
        const zc = zOf(space, k, row[k]!) + (rng.next() * 2 - 1) * radius * (e / Math.max(eps, 1e-12));
        const c = z0[i * K.length + j]!;
        row[k] = xOf(space, k, Math.min(c + e, Math.max(c - e, zc)));
      });
      projectInPlace(space.schema, orig, row);
    });
    const s = target({ rows: active.length, cols: C, data: cand });
    queries++;
    active.forEach((i, a) => {
      if (s[a]! < scores[i]!) {
        scores[i] = s[a]!;
        cur.set(cand.subarray(a * C, (a + 1) * C), i * C);
      }
    });
  }
  return { adversarial: { rows: x.rows, cols: C, data: cur }, scores, queries };
}

export interface AdaptiveTarget {
  readonly score: Scorer;
  /** Present when the target itself is differentiable. */
  readonly gradient?: GradientOracle;
}

/**
 * The adaptive attack: the gradient attack on the target when it is differentiable, otherwise transfer from each
 * surrogate; then black-box search from the best candidate so far. The best candidate per flow is kept.
 */
export function adaptiveAttack(
  space: AttackSpace,
  target: AdaptiveTarget,
  surrogates: readonly GradientOracle[],
  x: FeatureMatrix,
  eps: number,
  opts: GradientOptions & { readonly iters?: number; readonly seed?: number; readonly threshold?: number } = {},
): AttackResult {
  const C = x.cols;
  const start = projectMatrix(space.schema, x, x);
  let best = new Float64Array(start.data);
  let bestScores = target.score(start);
  let queries = 1;
  const take = (r: AttackResult): void => {
    queries += r.queries;
    for (let i = 0; i < x.rows; i++)
      if (r.scores[i]! < bestScores[i]!) {
        bestScores[i] = r.scores[i]!;
        best.set(r.adversarial.data.subarray(i * C, (i + 1) * C), i * C);
      }
  };
  const oracles = target.gradient ? [target.gradient] : surrogates;
  for (const o of oracles) take(gradientAttack(space, o, target.score, x, eps, opts));
  const bb = blackBoxAttack(space, target.score, x, eps, {
    start: { rows: x.rows, cols: C, data: best },
    startScores: bestScores,
    ...(opts.iters !== undefined ? { iters: opts.iters } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
    ...(opts.epsPerRow !== undefined ? { epsPerRow: opts.epsPerRow } : {}),
  });
  queries += bb.queries;
  best = new Float64Array(bb.adversarial.data);
  bestScores = bb.scores;
  return { adversarial: { rows: x.rows, cols: C, data: best }, scores: bestScores, queries };
}
