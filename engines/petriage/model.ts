// Verdict models: the linear demo format `vitrine-linear-1`, a common interface for scoring with attributions, and `loadModel`, which tells the linear and boosted formats apart by inspection.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import { parseJsonText } from '../core/json-text.js';
import { gbdtModelFromJson } from '../core/ml/model.js';
import { validate } from '../core/validation.js';
import type { KnownFamily } from './family.js';
import { FEATURE_DIM, FEATURE_LAYOUT } from './features.js';
import { gbdtTriageModel } from './gbdt.js';
import { linearContributions, sigmoid, type LinearParams } from './linear.js';
import { defaultResourcesDir } from './resources.js';

export const LINEAR_FORMAT = 'vitrine-linear-1';
/** The boosted model's file (engines/core/ml/model.ts defines it; `gbdt.ts` adapts it to triage). */
export const GBDT_FORMAT = 'vitrine-gbdt-1';

/** The linear demo model's fixed thresholds (spec: 0.7 and 0.3). */
export const LINEAR_THRESHOLDS = { malicious: 0.7, suspicious: 0.3 } as const;

/** The shipped demo model, relative to the resources directory. */
export const DEFAULT_MODEL_RELATIVE = path.join('petriage', 'linear-demo.json');

const MAX_MODEL_FILE_BYTES = 64 * 1024 * 1024;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
const jsonValue: z.ZodType<JsonValue> = z.lazy(() => z.union([z.string().max(100_000), z.number(), z.boolean(), z.null(), z.array(jsonValue).max(100_000), z.record(z.string().max(200), jsonValue)]));

const profileTokenSchema = z.strictObject({ kind: z.enum(['import', 'string']), value: z.string().min(1).max(1024), share: z.number().min(0).max(1) });
export const knownFamilySchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
  description: z.string().max(1000),
  samples: z.number().int().min(0),
  profile: z.array(profileTokenSchema).max(1000),
});

const vector = z.array(z.number()).length(FEATURE_DIM);

export const linearModelSchema = z
  .strictObject({
    format: z.literal(LINEAR_FORMAT),
    feature_layout: z.string().min(1).max(200),
    num_features: z.literal(FEATURE_DIM),
    bias: z.number(),
    weights: vector,
    mean: vector,
    scale: z.array(z.number().min(0)).length(FEATURE_DIM),
    clip: z.number().positive(),
    thresholds: z.strictObject({ malicious: z.number().min(0).max(1), suspicious: z.number().min(0).max(1) }),
    families: z.array(knownFamilySchema).max(1000),
    metadata: z.record(z.string().max(200), jsonValue),
  })
  .refine((m) => m.thresholds.suspicious <= m.thresholds.malicious, { message: 'suspicious threshold above malicious', path: ['thresholds'] });

export type LinearModelJson = z.output<typeof linearModelSchema>;

/** A score with its attribution: `baseValue + sum(contributions) = margin` and `score = sigmoid(margin)`. */
export interface ModelExplanation {
  readonly score: number;
  readonly margin: number;
  /** The margin before any feature is seen: the model's expected margin over its background. */
  readonly baseValue: number;
  /** One per feature, in margin (log-odds) units. */
  readonly contributions: Float64Array;
}

/** What analysis needs of a model, whatever its format. */
export interface TriageModel {
  /** `linear` (the demo model) or `gbdt` (the boosted model, with engines/core/ml). */
  readonly type: 'linear' | 'gbdt';
  readonly format: string;
  readonly featureLayout: string;
  /** Scores at or above `malicious` are MALICIOUS, at or above `suspicious` SUSPICIOUS. */
  readonly thresholds: { readonly malicious: number; readonly suspicious: number };
  /** How the thresholds were set, for /api/model. */
  readonly thresholdBasis: string;
  /** How the attributions are computed. */
  readonly attribution: string;
  readonly families: readonly KnownFamily[];
  readonly metadata: Readonly<Record<string, JsonValue>>;
  /** SHA-256 of the model file, or null for a model built in memory. */
  readonly sha256: string | null;
  explain(values: ArrayLike<number>): ModelExplanation;
}

/** A TriageModel over a parsed linear model file. */
export function linearModel(json: LinearModelJson, sha256: string | null = null): TriageModel {
  const params: LinearParams = { weights: Float64Array.from(json.weights), bias: json.bias, mean: Float64Array.from(json.mean), scale: Float64Array.from(json.scale), clip: json.clip };
  return {
    type: 'linear',
    format: LINEAR_FORMAT,
    featureLayout: json.feature_layout,
    thresholds: json.thresholds,
    thresholdBasis: 'fixed: 0.7 MALICIOUS and 0.3 SUSPICIOUS (the linear demo model)',
    attribution: 'exact linear attribution: weight times the standardised feature, relative to the training mean (the Shapley values of a linear model with independent features)',
    families: json.families,
    metadata: json.metadata,
    sha256,
    explain(values) {
      const { margin, contributions } = linearContributions(params, values);
      return { score: sigmoid(margin), margin, baseValue: params.bias, contributions };
    },
  };
}

/** Serialises a linear model file (numbers rounded to 9 significant digits: the file stays small and stable). */
export function serializeLinearModel(json: LinearModelJson): string {
  const round = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(9)));
  return `${JSON.stringify({ ...json, bias: round(json.bias), weights: json.weights.map(round), mean: json.mean.map(round), scale: json.scale.map(round) })}\n`;
}

/** A model from the text of a model file: the format is read from the file's `format` field. */
export function parseModel(text: string, sha256: string | null = null): TriageModel {
  const raw = parseJsonText(text, 'validation_failed', 'the model file is not valid JSON');
  const format = typeof raw === 'object' && raw !== null ? (raw as { format?: unknown }).format : undefined;
  if (format === LINEAR_FORMAT) {
    const json = validate(linearModelSchema, raw, 'model file');
    if (json.feature_layout !== FEATURE_LAYOUT) throw new VitrineError('validation_failed', 'the model was trained on another feature layout');
    return linearModel(json, sha256);
  }
  // The boosted model: core/ml checks the trees' structure; the adapter checks layout, thresholds and families.
  if (format === GBDT_FORMAT) return gbdtTriageModel(gbdtModelFromJson(raw), sha256);
  throw new VitrineError('validation_failed', 'the model file has no known format');
}

/** Loads a model file of either format, chosen by inspecting it; the shipped demo model by default. */
export function loadModel(file?: string): TriageModel {
  const where = file ?? path.join(defaultResourcesDir(), DEFAULT_MODEL_RELATIVE);
  let buffer: Buffer;
  try {
    if (statSync(where).size > MAX_MODEL_FILE_BYTES) throw new VitrineError('payload_too_large', 'the model file is too large');
    buffer = readFileSync(where);
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('unavailable', 'the model file cannot be read', { cause: err });
  }
  return parseModel(buffer.toString('utf8'), createHash('sha256').update(buffer).digest('hex'));
}
