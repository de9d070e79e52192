// Constrained evasion attacks in standardised log-feature space: gradient (PGD), black-box search, and the adaptive attack.
import { Random, type FeatureMatrix } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { isValid, projectInPlace } from '../constraints/validity.js';
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
  /** Per row: a valid flow within the budget, or the original itself when none was found (see `dropped`). */
  readonly adversarial: FeatureMatrix;
  /** Target scores of the returned flows. */
  readonly scores: Float64Array;
  /** Batched score queries made to the target. */
  readonly queries: number;
  /**
   * 1 where no candidate satisfied both isValid and the L-infinity budget: the row is returned unchanged (the attacker
   * sends the original flow) and is not an adversarial row.
   */
  readonly dropped: Uint8Array;
}

const zOf = (s: AttackSpace, k: number, v: number): number => (Math.log1p(Math.max(0, v)) - s.scaler.mean[k]!) / s.scaler.sd[k]!;
const xOf = (s: AttackSpace, k: number, z: number): number => Math.max(0, Math.expm1(s.scaler.mean[k]! + s.scaler.sd[k]! * z));

/** Slack of the budget check (float rounding of log1p/expm1). */
export const BUDGET_SLACK = 1e-9;
/** Rounds of clipping to the ball and projecting onto the constraints before a candidate is given up. */
export const FINALIZE_ROUNDS = 8;

/** L-infinity distance between two flows in the attack space (standardised log1p of the attacker-controllable features). */
export function linfDistance(space: AttackSpace, original: ArrayLike<number>, row: ArrayLike<number>): number {
  let d = 0;
  for (const k of space.features) d = Math.max(d, Math.abs(zOf(space, k, row[k] as number) - zOf(space, k, original[k] as number)));
  return d;
}

/** Clips the controllable features of `row` into the eps ball around `original` (integers rounded inward; up features not below the original). */
function clipToBall(space: AttackSpace, original: ArrayLike<number>, row: Float64Array, eps: number): void {
  for (const k of space.features) {
    const f = space.schema.features[k]!;
    const o = original[k] as number;
    const z0 = zOf(space, k, o);
    // A hair inside the ball so float rounding of expm1/log1p never lands outside it.
    const inner = eps * (1 - 1e-12);
    let hi = xOf(space, k, z0 + inner);
    let lo = f.cls === 'up' ? o : xOf(space, k, z0 - inner);
    if (f.range) {
      lo = Math.max(lo, f.range[0]);
      hi = Math.min(hi, f.range[1]);
    }
    if (f.integer) {
      hi = Math.floor(hi);
      lo = Math.ceil(lo);
    }
    hi = Math.max(hi, f.cls === 'up' ? o : lo);
    const v = row[k]!;
    row[k] = Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : o;
  }
}

/**
 * Makes a candidate both valid and within the budget: clips to the ball, projects onto the constraints, and repeats
 * while the projection's repairs push a feature out of the ball (at most FINALIZE_ROUNDS times). Returns whether the
 * row now satisfies isValid and the L-infinity budget; the caller drops the candidate otherwise.
 */
export function finalizeCandidate(space: AttackSpace, original: ArrayLike<number>, row: Float64Array, eps: number): boolean {
  for (let r = 0; r < FINALIZE_ROUNDS; r++) {
    clipToBall(space, original, row, eps);
    projectInPlace(space.schema, original, row);
    if (linfDistance(space, original, row) <= eps + BUDGET_SLACK) return isValid(space.schema, original, row);
  }
  return false;
}

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
 * (controllable features only), every step clipped to the ball and projected onto the constraints until both hold;
 * the valid iterate with the lowest oracle probability is kept. The target is queried once at the end.
 */
export function gradientAttack(space: AttackSpace, oracle: GradientOracle, target: Scorer, x: FeatureMatrix, eps: number, opts: GradientOptions = {}): AttackResult {
  checkEps(eps);
  const steps = opts.steps ?? GRADIENT_STEPS;
  const step = opts.stepSize ?? (GRADIENT_STEP_FACTOR * eps) / steps;
  const constrained = opts.constrained ?? true;
  const out = new Float64Array(x.data);
  const dropped = new Uint8Array(x.rows);
  const K = space.features;
  for (let i = 0; i < x.rows; i++) {
    const e = opts.epsPerRow ? opts.epsPerRow[i]! : eps;
    const stepI = opts.epsPerRow && opts.stepSize === undefined ? (GRADIENT_STEP_FACTOR * e) / steps : step;
    const orig = rowsOf(x, i);
    const z0 = K.map((k) => zOf(space, k, orig[k]!));
    const cur = Float64Array.from(orig);
    // The starting point is the original projected (derived features recomputed), when that is valid in the ball.
    let ok = constrained ? finalizeCandidate(space, orig, cur, e) : true;
    let best: Float64Array | undefined;
    let bestP = Infinity;
    for (let s = 0; s <= steps; s++) {
      const g = oracle(cur);
      if (!g) throw new VitrineError('validation_failed', 'the gradient attack needs a differentiable model');
      if (ok && g.p < bestP) {
        bestP = g.p;
        best = Float64Array.from(cur);
      }
      if (s === steps) break;
      K.forEach((k, j) => {
        const z = zOf(space, k, cur[k]!) - stepI * Math.sign(g.grad[k]!);
        cur[k] = xOf(space, k, Math.min(z0[j]! + e, Math.max(z0[j]! - e, z)));
      });
      // An iterate that cannot be made valid within the budget is walked on from but never kept.
      ok = constrained ? finalizeCandidate(space, orig, cur, e) : true;
    }
    if (best) out.set(best, i * x.cols);
    else dropped[i] = 1;
  }
  const adversarial = { rows: x.rows, cols: x.cols, data: out };
  return { adversarial, scores: target(adversarial), queries: 1, dropped };
}

export interface BlackBoxOptions {
  readonly iters?: number;
  /** Start from these flows (same rows as x, each valid and within the budget unless marked dropped) instead of the originals. */
  readonly start?: FeatureMatrix;
  readonly startScores?: Float64Array;
  readonly startDropped?: Uint8Array;
  /** Rows already scoring below this are left alone (default 0.5, the verdict threshold). */
  readonly threshold?: number;
  readonly seed?: number;
  readonly epsPerRow?: ArrayLike<number>;
}

/**
 * Random search with batched score queries: each iteration proposes, for every flow still detected, a random move
 * of its controllable features within the eps ball (made valid and kept in the ball, else not proposed) and keeps it
 * when the target score drops. One query per iteration plus one for the starting point.
 */
export function blackBoxAttack(space: AttackSpace, target: Scorer, x: FeatureMatrix, eps: number, opts: BlackBoxOptions = {}): AttackResult {
  checkEps(eps);
  const iters = opts.iters ?? BLACK_BOX_ITERS;
  const thr = opts.threshold ?? 0.5;
  const rng = new Random(opts.seed ?? 0);
  const C = x.cols;
  const K = space.features;
  const epsOf = (i: number): number => (opts.epsPerRow ? opts.epsPerRow[i]! : eps);
  let cur: Float64Array;
  let dropped: Uint8Array;
  let queries = 0;
  let scores: Float64Array;
  if (opts.start) {
    cur = new Float64Array(opts.start.data);
    dropped = opts.startDropped ? Uint8Array.from(opts.startDropped) : new Uint8Array(x.rows);
  } else {
    cur = new Float64Array(x.data);
    dropped = new Uint8Array(x.rows);
    for (let i = 0; i < x.rows; i++) {
      const row = cur.subarray(i * C, (i + 1) * C);
      if (!finalizeCandidate(space, x.data.subarray(i * C, (i + 1) * C), row, epsOf(i))) {
        row.set(x.data.subarray(i * C, (i + 1) * C));
        dropped[i] = 1;
      }
    }
  }
  if (opts.start && opts.startScores) scores = Float64Array.from(opts.startScores);
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
    const usable = new Uint8Array(active.length);
    // Step shrinks from eps to eps/8 over the run: wide exploration first, then refinement.
    const radius = eps * (1 - (0.875 * it) / Math.max(1, iters - 1));
    active.forEach((i, a) => {
      const orig = x.data.subarray(i * C, (i + 1) * C);
      const row = cand.subarray(a * C, (a + 1) * C);
      const e = epsOf(i);
      row.set(cur.subarray(i * C, (i + 1) * C));
      K.forEach((k, j) => {
        if (rng.next() < 0.5) return;
        const zc = zOf(space, k, row[k]!) + (rng.next() * 2 - 1) * radius * (e / Math.max(eps, 1e-12));
        const c = z0[i * K.length + j]!;
        row[k] = xOf(space, k, Math.min(c + e, Math.max(c - e, zc)));
      });
      usable[a] = finalizeCandidate(space, orig, row, e) ? 1 : 0;
    });
    const s = target({ rows: active.length, cols: C, data: cand });
    queries++;
    active.forEach((i, a) => {
      if (usable[a] && (s[a]! < scores[i]! || (dropped[i] && s[a]! <= scores[i]!))) {
        scores[i] = s[a]!;
        dropped[i] = 0;
        cur.set(cand.subarray(a * C, (a + 1) * C), i * C);
      }
    });
  }
  return { adversarial: { rows: x.rows, cols: C, data: cur }, scores, queries, dropped };
}

export interface AdaptiveTarget {
  readonly score: Scorer;
  /** Present when the target itself is differentiable. */
  readonly gradient?: GradientOracle;
}

export interface AdaptiveOptions extends GradientOptions {
  readonly iters?: number;
  readonly seed?: number;
  readonly threshold?: number;
  /** Black-box runs: the first from the best candidate so far, the others from the original with other seeds (default 1). */
  readonly restarts?: number;
  /**
   * Warm start: the best flows of a smaller budget (valid and inside this budget's ball too), their scores and drops.
   * The attack keeps a flow's warm start unless it finds a lower score, so it is monotone in eps.
   */
  readonly warm?: { readonly adversarial: FeatureMatrix; readonly scores: Float64Array; readonly dropped: Uint8Array };
}

/**
 * The adaptive attack: the gradient attack on the target when it is differentiable, otherwise transfer from each
 * surrogate; then black-box search from the best candidate so far (and restarts from the original). The best
 * candidate per flow is kept, the warm start included; a flow with no valid candidate within the budget is returned
 * unchanged and marked dropped.
 */
export function adaptiveAttack(space: AttackSpace, target: AdaptiveTarget, surrogates: readonly GradientOracle[], x: FeatureMatrix, eps: number, opts: AdaptiveOptions = {}): AttackResult {
  checkEps(eps);
  const C = x.cols;
  const epsOf = (i: number): number => (opts.epsPerRow ? opts.epsPerRow[i]! : eps);
  let best: Float64Array;
  let bestScores: Float64Array;
  let dropped: Uint8Array;
  let queries = 0;
  if (opts.warm) {
    best = new Float64Array(opts.warm.adversarial.data);
    bestScores = Float64Array.from(opts.warm.scores);
    dropped = Uint8Array.from(opts.warm.dropped);
  } else {
    // Doing nothing is always open to the attacker: the original, as the target scores it.
    best = new Float64Array(x.data);
    bestScores = target.score(x);
    dropped = new Uint8Array(x.rows).fill(1);
    queries++;
  }
  const take = (r: AttackResult): void => {
    queries += r.queries;
    for (let i = 0; i < x.rows; i++)
      if (!r.dropped[i] && (r.scores[i]! < bestScores[i]! || (dropped[i] && r.scores[i]! <= bestScores[i]!))) {
        bestScores[i] = r.scores[i]!;
        dropped[i] = 0;
        best.set(r.adversarial.data.subarray(i * C, (i + 1) * C), i * C);
      }
  };
  // The projected original is a candidate too (it is what a flow becomes with derived features recomputed).
  const start = new Float64Array(x.data);
  const startOk = new Uint8Array(x.rows);
  for (let i = 0; i < x.rows; i++) startOk[i] = finalizeCandidate(space, x.data.subarray(i * C, (i + 1) * C), start.subarray(i * C, (i + 1) * C), epsOf(i)) ? 1 : 0;
  const startScores = target.score({ rows: x.rows, cols: C, data: start });
  queries++;
  take({ adversarial: { rows: x.rows, cols: C, data: start }, scores: startScores, queries: 0, dropped: Uint8Array.from(startOk, (v) => 1 - v) });
  const oracles = target.gradient ? [target.gradient] : surrogates;
  for (const o of oracles) take(gradientAttack(space, o, target.score, x, eps, opts));
  const restarts = Math.max(1, opts.restarts ?? 1);
  for (let r = 0; r < restarts; r++) {
    const bb = blackBoxAttack(space, target.score, x, eps, {
      ...(r === 0 ? { start: { rows: x.rows, cols: C, data: best }, startScores: bestScores, startDropped: dropped } : {}),
      ...(opts.iters !== undefined ? { iters: opts.iters } : {}),
      seed: (opts.seed ?? 0) + 7919 * r,
      ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
      ...(opts.epsPerRow !== undefined ? { epsPerRow: opts.epsPerRow } : {}),
    });
    take(bb);
  }
  return { adversarial: { rows: x.rows, cols: C, data: best }, scores: bestScores, queries, dropped };
}
