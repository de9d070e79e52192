// The package risk model as a JSON data file (format `vitrine-pkgscan-risk-1`): boosted trees, feature-set identity, dataset provenance, scoped metrics and the training reference for drift; loaded with validation, never code.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json-text.js';
import { gbdtModelFromJson, gbdtModelSchema, gbdtModelToJson, predictMarginRow, sigmoid, type GbdtModel } from '../../core/ml/index.js';
import { validate } from '../../core/validation.js';
import { FEATURE_NAMES, FEATURE_SET_ID, featureSetId } from './features.js';

export const RISK_MODEL_FORMAT = 'vitrine-pkgscan-risk-1';
/** Largest model file read (the shipped one is tens of KiB). */
export const MAX_RISK_MODEL_BYTES = 16 << 20;
/** The shipped staging/prod policies block at a risk of 0.7: the model's operating point is the same number. */
export const POLICY_THRESHOLD = 0.7;
/** The model dimension alone can raise the risk to at most this, below the block threshold: the model is never the only reason for a block. */
export const MODEL_RISK_CAP = 0.65;

const finite = z.number().refine(Number.isFinite, 'not finite');
const rate = z.number().min(0).max(1);
const confusion = z.object({ tp: z.number().int().min(0), fp: z.number().int().min(0), fn: z.number().int().min(0), tn: z.number().int().min(0), precision: rate, recall: rate }).strict();

const referenceSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** Ascending cut points: bin i holds values <= cuts[i] (and > cuts[i-1]); the last bin holds values above every cut. */
    cuts: z.array(finite).max(64),
    /** Share of training rows in each bin (cuts.length + 1 of them). */
    proportions: z.array(rate).min(1).max(65),
  })
  .strict()
  .refine((r) => r.proportions.length === r.cuts.length + 1, { message: 'one proportion per bin', path: ['proportions'] })
  .refine((r) => r.cuts.every((c, i) => i === 0 || c > r.cuts[i - 1]!), { message: 'cuts must ascend', path: ['cuts'] });

export const riskModelFileSchema = z
  .object({
    format: z.literal(RISK_MODEL_FORMAT),
    version: z.string().min(1).max(100),
    trained_at: z.string().max(40),
    feature_set: z.object({ id: z.string().regex(/^[0-9a-f]{64}$/), names: z.array(z.string().min(1).max(200)).min(1).max(1000) }).strict(),
    dataset: z
      .object({
        description: z.string().max(500),
        files: z.number().int().min(0),
        malicious: z.number().int().min(0),
        benign: z.number().int().min(0),
        skipped: z.number().int().min(0),
        ground_truth_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      })
      .strict(),
    metrics: z
      .object({
        scope: z.string().min(1).max(500),
        method: z.string().max(200),
        folds: z.number().int().min(2).max(100),
        seed: z.number().int(),
        auc: rate,
        auc_folds: z.array(rate).max(100),
        threshold: rate,
        model: confusion,
        rules_alone: confusion,
      })
      .strict(),
    reference: z.array(referenceSchema).max(1000),
    gbdt: gbdtModelSchema,
  })
  .strict()
  .refine((m) => featureSetId(m.feature_set.names) === m.feature_set.id, { message: 'feature-set id does not match its names', path: ['feature_set', 'id'] })
  .refine((m) => m.gbdt.num_features === m.feature_set.names.length, { message: 'the trees and the feature set differ in size', path: ['gbdt', 'num_features'] })
  .refine((m) => m.reference.length === m.feature_set.names.length && m.reference.every((r, i) => r.name === m.feature_set.names[i]), { message: 'one reference per feature, in order', path: ['reference'] });

export type RiskModelFile = z.output<typeof riskModelFileSchema>;
export type FeatureReference = RiskModelFile['reference'][number];

/** A loaded model: the file's metadata and the trees ready to score. */
export interface RiskModel {
  readonly file: RiskModelFile;
  readonly gbdt: GbdtModel;
}

/** Validates a parsed model document; refuses another format, a damaged tree or a feature set other than this build's. */
export function riskModelFromJson(value: unknown): RiskModel {
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== RISK_MODEL_FORMAT) throw new VitrineError('validation_failed', `not a ${RISK_MODEL_FORMAT} model file`);
  const file = validate(riskModelFileSchema, value, 'risk model');
  if (file.feature_set.id !== FEATURE_SET_ID) throw new VitrineError('validation_failed', 'the model was trained on another feature set; retrain it with pkgscan train-model');
  return { file, gbdt: gbdtModelFromJson(file.gbdt) };
}

export function parseRiskModel(text: string): RiskModel {
  return riskModelFromJson(parseJsonText(text, 'parse_error', 'the model file is not valid JSON'));
}

/** The file text (the gbdt part re-checked by gbdtModelToJson, so what is written loads). */
export function serializeRiskModel(file: Omit<RiskModelFile, 'gbdt'>, gbdt: GbdtModel): string {
  const doc: RiskModelFile = { ...file, gbdt: gbdtModelToJson(gbdt) };
  riskModelFromJson(JSON.parse(JSON.stringify(doc)));
  return `${JSON.stringify(doc)}\n`;
}

/** The model's probability of malice for one feature vector (0..1). */
export function modelScore(model: RiskModel, features: ArrayLike<number>): number {
  if (features.length !== model.gbdt.numFeatures) throw new VitrineError('validation_failed', 'the feature vector does not fit the model');
  return Math.round(sigmoid(predictMarginRow(model.gbdt, features)) * 1000) / 1000;
}

/** How much the model dimension may add to the verdict's risk: capped below the block threshold. */
export function modelRiskContribution(score: number): number {
  return Math.min(MODEL_RISK_CAP, Math.max(0, score) * MODEL_RISK_CAP);
}

/** Where the model is looked for, first match wins (the same places as ops/http.ts modelPresent): a retrained one in the data folder, then the shipped one. */
export function modelCandidates(dataDir: string, resourcesDir: string): string[] {
  return [dataDir !== '' ? path.join(dataDir, 'pkgscan', 'model.json') : '', path.join(resourcesDir, 'pkgscan', 'model', 'model.json')].filter((f) => f !== '');
}

export type ModelLoad = { readonly model: RiskModel; readonly path: string } | { readonly model: null; readonly reason: string };

const cache = new Map<string, { mtimeMs: number; size: number; load: ModelLoad }>();

/** Loads the first model found, cached by file time and size; a missing or refused file gives the reason instead (never throws). */
export function loadRiskModel(dataDir: string, resourcesDir: string): ModelLoad {
  for (const file of modelCandidates(dataDir, resourcesDir)) {
    let st;
    try {
      st = statSync(file);
    } catch {
      continue;
    }
    const hit = cache.get(file);
    if (hit !== undefined && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.load;
    let load: ModelLoad;
    if (st.size > MAX_RISK_MODEL_BYTES) load = { model: null, reason: 'the model file is larger than the limit' };
    else {
      try {
        load = { model: parseRiskModel(readFileSync(file, 'utf8')), path: file };
      } catch (e) {
        // Our words only: the validation message names fields, never values.
        load = { model: null, reason: e instanceof VitrineError ? `the model file was refused: ${e.message}` : 'the model file could not be read' };
      }
    }
    cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, load });
    return load;
  }
  return { model: null, reason: 'no trained model is installed; run pkgscan train-model' };
}

export { FEATURE_NAMES };
