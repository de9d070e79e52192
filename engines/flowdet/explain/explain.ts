// Explanations: exact TreeSHAP on the ensemble's boosted-tree member, and minimal valid counterfactual flows.
import { TreeExplainer, type FeatureMatrix } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { adaptiveAttack, type AttackSpace, type GradientOracle, type Scorer } from '../attacks/attacks.js';
import { isValid, projectInPlace } from '../constraints/validity.js';
import type { Ensemble } from '../detectors/models.js';

/** Spec defaults. */
export const CF_EPS_MAX = 3.0;
export const CF_BISECTION_STEPS = 6;
export const CF_ITERS = 60;

export interface Contribution {
  readonly feature: string;
  readonly value: number;
  /** Contribution to the tree member's log-odds margin. */
  readonly shap: number;
}

/** The explainer over the ensemble's first boosted-tree member (the "baseline tree member"). */
export function treeMember(e: Ensemble): TreeExplainer {
  const m = e.members.find((d) => d.kind === 'gbdt') ?? e.members.find((d) => d.kind === 'random_forest');
  if (!m || (m.kind !== 'gbdt' && m.kind !== 'random_forest')) throw new VitrineError('validation_failed', 'the ensemble has no tree member to explain');
  return new TreeExplainer(m.model);
}

/** Top-k features by |SHAP| for one raw flow (the explainer sees log1p features, as the member was trained). */
export function topContributions(explainer: TreeExplainer, names: readonly string[], row: ArrayLike<number>, k = 5): { contributions: Contribution[]; expectedValue: number } {
  const lrow = Float64Array.from({ length: names.length }, (_, j) => Math.log1p(Math.max(0, row[j] as number)));
  const ex = explainer.explainRow(lrow);
  const order = Array.from(ex.values.keys()).sort((a, b) => Math.abs(ex.values[b]!) - Math.abs(ex.values[a]!));
  return {
    contributions: order.slice(0, k).filter((j) => ex.values[j] !== 0).map((j) => ({ feature: names[j]!, value: row[j] as number, shap: ex.values[j]! })),
    expectedValue: ex.expectedValue,
  };
}

export interface Counterfactual {
  /** Whether a flow scoring below the threshold was found within eps_max. */
  readonly found: boolean;
  readonly eps: number;
  readonly flow: Float64Array;
  readonly score: number;
  readonly changes: readonly { readonly feature: string; readonly from: number; readonly to: number }[];
  readonly valid: boolean;
}

/**
 * A counterfactual for one flagged flow: bisection (6 steps) on the budget in [0, eps_max = 3] for the smallest one at
 * which the adaptive attack (60 gradient steps on each surrogate, then 60 black-box iterations) brings the score below the threshold, then every change not
 * needed to stay below it is reverted (one feature at a time, smallest move first), re-projecting each time.
 */
export function counterfactual(space: AttackSpace, score: Scorer, surrogates: readonly GradientOracle[], flow: Float64Array, threshold = 0.5, opts: { epsMax?: number; steps?: number; iters?: number; seed?: number } = {}): Counterfactual {
  const C = flow.length;
  const x: FeatureMatrix = { rows: 1, cols: C, data: Float64Array.from(flow) };
  const names = space.schema.features.map((f) => f.name);
  const attempt = (eps: number): { flow: Float64Array; score: number } => {
    const r = adaptiveAttack(space, { score }, surrogates, x, eps, { steps: opts.iters ?? CF_ITERS, iters: opts.iters ?? CF_ITERS, seed: opts.seed ?? 0, threshold });
    return { flow: Float64Array.from(r.adversarial.data), score: r.scores[0]! };
  };
  let hi = opts.epsMax ?? CF_EPS_MAX;
  let best = attempt(hi);
  if (best.score >= threshold) return { found: false, eps: hi, flow: best.flow, score: best.score, changes: [], valid: isValid(space.schema, flow, best.flow) };
  let lo = 0;
  for (let s = 0; s < (opts.steps ?? CF_BISECTION_STEPS); s++) {
    const mid = (lo + hi) / 2;
    const a = attempt(mid);
    if (a.score < threshold) {
      hi = mid;
      best = a;
    } else lo = mid;
  }
  // Revert unneeded changes, smallest first.
  const cur = Float64Array.from(best.flow);
  let curScore = best.score;
  const changed = space.features.filter((k) => cur[k] !== flow[k]).sort((a, b) => Math.abs(Math.log1p(cur[a]!) - Math.log1p(flow[a]!)) - Math.abs(Math.log1p(cur[b]!) - Math.log1p(flow[b]!)));
  for (const k of changed) {
    const trial = Float64Array.from(cur);
    trial[k] = flow[k]!;
    projectInPlace(space.schema, flow, trial);
    if (!isValid(space.schema, flow, trial)) continue;
    const s = score({ rows: 1, cols: C, data: trial })[0]!;
    if (s < threshold) {
      cur.set(trial);
      curScore = s;
    }
  }
  const changes = [];
  for (let k = 0; k < C; k++) if (Math.abs(cur[k]! - flow[k]!) > 1e-9) changes.push({ feature: names[k]!, from: flow[k]!, to: cur[k]! });
  return { found: true, eps: hi, flow: cur, score: curScore, changes, valid: isValid(space.schema, flow, cur) };
}
