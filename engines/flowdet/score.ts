// Scoring flows with a model bundle: verdicts from the hardened ensemble, alarm scores, SHAP contributions and counterfactuals.
import { z } from 'zod';
import { parseNumericCell, TreeExplainer, type FeatureMatrix } from '../core/ml/index.js';
import type { FlowScore as FlowScoreView, ScoreResponse as ScoreResponseView } from '../core/contracts/flowdet.js';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import { attackSpace, type GradientOracle, type Scorer } from './attacks/attacks.js';
import type { ModelBundle, ModelCard } from './bundle.js';
import { deriveInPlace } from './constraints/validity.js';
import { featureResolver } from './data/csv.js';
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

const featureValue = z.union([z.number().refine(Number.isFinite, 'not a finite number'), z.string().max(64), z.null()]);

export const scoreRequestSchema = z.strictObject({
  explain: z.boolean().default(false),
  /**
   * Read a base feature the flow lacks as 0 (the spec's contract: "missing features default to 0"); the answer lists
   * every defaulted feature and warns. `false` refuses such a flow by the feature's name instead (a missing base
   * feature often means a column named another way; the Flows workspace sends false unless asked).
   */
  defaults: z.boolean().default(true),
  flows: z.array(z.record(z.string().max(200), featureValue)).min(1).max(MAX_SCORE_FLOWS),
});

export type ScoreRequest = z.input<typeof scoreRequestSchema>;

/** One flow's answer (index, verdict, score: the mean malicious probability of the ensemble's members, alarm: FlowScoreView). */
export interface FlowScore extends FlowScoreView {
  readonly explanation?: NonNullable<FlowScoreView['explanation']> & { readonly expected_value: number };
}

/** How the request's columns were read. */
export interface ColumnUse {
  /** Base features read from the request. */
  readonly used: readonly string[];
  /** Derived features: always recomputed from the base ones (a sent value is never used). */
  readonly recomputed: readonly string[];
  /** Request names that are not features of the model's schema (labels, addresses, other datasets' columns). */
  readonly ignored: readonly string[];
  /** Base features read as 0 because a flow lacked them (`defaults`, on unless the request sets it false), with how many flows lacked each. */
  readonly defaulted: readonly { readonly feature: string; readonly flows: number }[];
  /** Base features the model was trained without (always 0 in its training data); sending them changes nothing. */
  readonly not_in_training: readonly string[];
  /** Request names mapped onto a schema name spelled another way (`Tot Fwd Pkts` -> `Total Fwd Packets`). */
  readonly renamed: readonly { readonly from: string; readonly to: string }[];
}

export interface ScoreResponse extends ScoreResponseView {
  /** Which model answered: data, schema, training rows, date, feature-set hash and its clean test metrics. */
  readonly model: ModelCard & { readonly sha256: string; readonly trained_on: string };
  readonly counts: NonNullable<ScoreResponseView['counts']>;
  readonly derived_features: 'recomputed from the base features';
  readonly columns: ColumnUse;
  readonly results: readonly FlowScore[];
  readonly warnings: readonly string[];
}

export interface FlowMatrixResult {
  readonly x: FeatureMatrix;
  readonly columns: ColumnUse;
  readonly warnings: string[];
}

/**
 * Builds the raw flow matrix: names mapped onto the schema (every CICFlowMeter or UNSW-NB15 spelling), derived
 * features recomputed from the base ones, negative and non-finite base values read as 0 (as the loaders read
 * them), category names encoded. A base feature the model was trained with that a flow lacks reads as 0 and is
 * listed (`defaults`, the spec's default); with `defaults` false such a flow is refused with the feature's name.
 */
export function flowMatrix(bundle: ModelBundle, flows: readonly Record<string, number | string | null>[], defaults = true): FlowMatrixResult {
  const { schema } = bundle;
  const C = schema.features.length;
  const resolve = featureResolver(schema);
  const absent = new Set(bundle.card.absent_features);
  const data = new Float64Array(flows.length * C);
  const ignored = new Set<string>();
  const used = new Set<string>();
  const renamed = new Map<string, string>();
  const defaulted = new Map<string, number>();
  let nonFinite = 0;
  const seen = new Uint8Array(C);
  flows.forEach((flow, i) => {
    seen.fill(0);
    for (const [name, value] of Object.entries(flow)) {
      const feature = resolve(name);
      const k = feature === undefined ? undefined : schema.index.get(feature);
      if (feature === undefined || k === undefined) {
        if (ignored.size < 200) ignored.add(name.slice(0, 200));
        continue;
      }
      if (seen[k]) continue; // the same feature spelled twice: the first spelling counts
      const f = schema.features[k]!;
      if (value === null) continue;
      seen[k] = 1;
      if (feature !== name.trim() && renamed.size < 200) renamed.set(name.trim().slice(0, 200), feature);
      if (f.cls === 'derived') continue; // recomputed below; whatever was sent is not used
      // A feature the training data did not have was 0 for the model throughout: it stays 0, whatever was sent.
      if (absent.has(feature)) continue;
      used.add(feature);
      let v: number;
      if (typeof value === 'string') {
        const parsed = f.vocabulary ? undefined : parseNumericCell(value);
        if (f.vocabulary) v = f.vocabulary.indexOf(value.trim() === '' ? '-' : value.trim()) + 1;
        else if (parsed !== undefined) v = parsed;
        else throw new VitrineError('validation_failed', 'a flow value is not a number', { details: [{ path: `flows[${i}].${feature}`, issue: 'expected a number' }] });
      } else v = value;
      if (!Number.isFinite(v)) {
        nonFinite++;
        v = 0;
      }
      data[i * C + k] = v < 0 ? 0 : v;
    }
    for (let k = 0; k < C; k++) {
      const f = schema.features[k]!;
      if (seen[k] || f.cls === 'derived' || absent.has(f.name)) continue;
      if (!defaults)
        throw new VitrineError('validation_failed', `flow ${i} lacks the base feature "${f.name}" the model needs (send it, or leave "defaults" on to read it as 0)`, {
          details: [{ path: `flows[${i}].${f.name}`, issue: 'missing base feature' }],
        });
      defaulted.set(f.name, (defaulted.get(f.name) ?? 0) + 1);
    }
    deriveInPlace(schema, data.subarray(i * C, (i + 1) * C));
  });
  const warnings: string[] = [];
  if (nonFinite > 0) warnings.push(`${nonFinite} empty or non-finite base value(s) read as 0`);
  if (defaulted.size > 0) warnings.push(`${defaulted.size} base feature(s) missing from some flows were read as 0`);
  if (ignored.size > used.size) warnings.push(`more columns were ignored (${ignored.size}) than used (${used.size}): the flows may come from another dataset than the model's (${schema.id})`);
  return {
    x: { rows: flows.length, cols: C, data },
    columns: {
      used: schema.features.filter((f) => used.has(f.name)).map((f) => f.name),
      recomputed: schema.features.filter((f) => f.cls === 'derived').map((f) => f.name),
      ignored: [...ignored],
      defaulted: [...defaulted].map(([feature, n]) => ({ feature, flows: n })),
      not_in_training: [...absent],
      renamed: [...renamed].map(([from, to]) => ({ from, to })),
    },
    warnings,
  };
}

/** Scores a validated request against a bundle. */
export function scoreFlows(bundle: ModelBundle, body: unknown, signal?: AbortSignal): ScoreResponse {
  const req = validate(scoreRequestSchema, body, 'score request');
  if (req.explain && req.flows.length > MAX_EXPLAIN_FLOWS)
    throw new VitrineError('validation_failed', `at most ${MAX_EXPLAIN_FLOWS} flows per request with explain`, { details: [{ path: 'flows', issue: `more than ${MAX_EXPLAIN_FLOWS} with explain` }] });
  const { x, columns, warnings } = flowMatrix(bundle, req.flows, req.defaults);
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
  let malicious = 0;
  for (const r of results) malicious += r.verdict === 'malicious' ? 1 : 0;
  return {
    model: { ...bundle.card, sha256: bundle.sha256, trained_on: bundle.trainedOn },
    threshold: thr,
    counts: { flows: results.length, malicious, benign: results.length - malicious },
    derived_features: 'recomputed from the base features',
    columns,
    results,
    ignored_features: columns.ignored,
    warnings,
  };
}
