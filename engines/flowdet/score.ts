// Scoring flows with a model bundle: verdicts from the hardened ensemble, alarm scores, SHAP contributions and counterfactuals.
import { z } from 'zod';
import { TreeExplainer, type FeatureMatrix } from '../core/ml/index.js';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import { attackSpace, type GradientOracle, type Scorer } from './attacks/attacks.js';
import type { ModelBundle } from './bundle.js';
import { alarmScores } from './defense/harden.js';
import { isDifferentiable, probabilityGradientZ, scoreEnsemble } from './detectors/models.js';
import { counterfactual, topContributions } from './explain/explain.js';

/** Most flows per POST /score request. */
export const MAX_SCORE_FLOWS = 1000;
/** Most flows per request when `explain` is true (each gets a counterfactual search). */
export const MAX_EXPLAIN_FLOWS = 50;
/** Largest POST /score body. */
export const MAX_SCORE_BODY_BYTES = 4 * 1024 * 1024;
/** SHAP contributions returned per flow. */
export const TOP_CONTRIBUTIONS = 5;

const featureValue = z.union([z.number().refine(Number.isFinite, 'not a finite number'), z.string().max(64)]);

export const scoreRequestSchema = z.strictObject({
  explain: z.boolean().default(false),
  flows: z.array(z.record(z.string().max(200), featureValue)).min(1).max(MAX_SCORE_FLOWS),
});

export type ScoreRequest = z.input<typeof scoreRequestSchema>;

export interface FlowScore {
  readonly index: number;
  readonly verdict: 'malicious' | 'benign';
  /** Mean malicious probability of the hardened ensemble's members. */
  readonly score: number;
  readonly alarm?: { readonly score: number; readonly adversarial_suspected: boolean };
  readonly explanation?: {
    readonly expected_value: number;
    readonly contributions: readonly { readonly feature: string; readonly value: number; readonly shap: number }[];
    readonly counterfactual: null | { readonly found: boolean; readonly eps: number; readonly score: number; readonly valid: boolean; readonly changes: readonly { readonly feature: string; readonly from: number; readonly to: number }[] };
  };
}

export interface ScoreResponse {
  readonly model: { readonly sha256: string; readonly dataset: string; readonly trained_on: string };
  readonly threshold: number;
  readonly results: readonly FlowScore[];
  /** Names in the request that are not features of the model's schema (ignored). */
  readonly ignored_features: readonly string[];
}

/** Builds the raw flow matrix: missing features 0, negatives 0 (as the loaders read them), category names encoded. */
export function flowMatrix(bundle: ModelBundle, flows: readonly Record<string, number | string>[]): { x: FeatureMatrix; ignored: string[] } {
  const { schema } = bundle;
  const C = schema.features.length;
  const data = new Float64Array(flows.length * C);
  const ignored = new Set<string>();
  flows.forEach((flow, i) => {
    for (const [name, value] of Object.entries(flow)) {
      const k = schema.index.get(name.trim());
      if (k === undefined) {
        if (ignored.size < 100) ignored.add(name.slice(0, 200));
        continue;
      }
      const f = schema.features[k]!;
      let v: number;
      if (typeof value === 'string') {
        if (!f.vocabulary) throw new VitrineError('validation_failed', 'a flow value is not a number', { details: [{ path: `flows[${i}].${name.slice(0, 100)}`, issue: 'expected a number' }] });
        v = f.vocabulary.indexOf(value.trim()) + 1;
      } else v = value;
      data[i * C + k] = v < 0 ? 0 : v;
    }
  });
  return { x: { rows: flows.length, cols: C, data }, ignored: [...ignored] };
}

/** Scores a validated request against a bundle. */
export function scoreFlows(bundle: ModelBundle, body: unknown, signal?: AbortSignal): ScoreResponse {
  const req = validate(scoreRequestSchema, body, 'score request');
  if (req.explain && req.flows.length > MAX_EXPLAIN_FLOWS)
    throw new VitrineError('validation_failed', `at most ${MAX_EXPLAIN_FLOWS} flows per request with explain`, { details: [{ path: 'flows', issue: `more than ${MAX_EXPLAIN_FLOWS} with explain` }] });
  const { x, ignored } = flowMatrix(bundle, req.flows);
  const scores = scoreEnsemble(bundle.ensemble, x);
  const alarm = bundle.alarm ? alarmScores(bundle.alarm, x) : undefined;
  const thr = bundle.threshold;
  let explainer: TreeExplainer | undefined;
  const names = bundle.schema.features.map((f) => f.name);
  const space = attackSpace(bundle.schema, bundle.scaler);
  const target: Scorer = (m) => scoreEnsemble(bundle.ensemble, m);
  const grads: GradientOracle[] = [...bundle.ensemble.members.filter(isDifferentiable), bundle.surrogate].map((m) => (row: Float64Array) => probabilityGradientZ(m, row, bundle.scaler));
  const results: FlowScore[] = [];
  for (let i = 0; i < x.rows; i++) {
    if (signal?.aborted) throw new VitrineError('cancelled', 'scoring was cancelled');
    const score = scores[i]!;
    const base: FlowScore = {
      index: i,
      verdict: score >= thr ? 'malicious' : 'benign',
      score,
      ...(alarm && bundle.alarm ? { alarm: { score: alarm[i]!, adversarial_suspected: alarm[i]! >= bundle.alarm.threshold } } : {}),
    };
    if (!req.explain) {
      results.push(base);
      continue;
    }
    const member = bundle.ensemble.members[bundle.explainerMember]!;
    if (member.kind !== 'gbdt' && member.kind !== 'random_forest') throw new VitrineError('internal', 'the explainer member is not a tree model');
    explainer ??= new TreeExplainer(member.model);
    const row = Float64Array.from(x.data.subarray(i * x.cols, (i + 1) * x.cols));
    const top = topContributions(explainer, names, row, TOP_CONTRIBUTIONS);
    const cf = score >= thr ? counterfactual(space, target, grads, row, thr, { seed: i }) : null;
    results.push({
      ...base,
      explanation: {
        expected_value: top.expectedValue,
        contributions: top.contributions,
        counterfactual: cf ? { found: cf.found, eps: cf.eps, score: cf.score, valid: cf.valid, changes: cf.found ? cf.changes : [] } : null,
      },
    });
  }
  return { model: { sha256: bundle.sha256, dataset: bundle.schema.id, trained_on: bundle.trainedOn }, threshold: thr, results, ignored_features: ignored };
}
