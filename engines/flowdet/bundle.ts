// The model bundle (`--save-model`, `serve --model`): hardened ensemble, tree explainer, surrogate and alarm as JSON data with a SHA-256.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { gbdtModelFromJson, gbdtModelToJson, type JsonValue } from '../core/ml/index.js';
import type { CardMetrics as CardMetricsView, ModelCard as ModelCardView } from '../core/contracts/flowdet.js';
import { VitrineError } from '../core/errors.js';
import { writeFileAtomic } from '../core/output-file.js';
import { parseJsonText } from '../core/json-text.js';
import { validate } from '../core/validation.js';
import { schemaOf, type DatasetId, type FlowSchema } from './data/schema.js';
import { detectorFromJson, detectorToJson, type Detector, type Ensemble, type LogScaler } from './detectors/models.js';
import type { Alarm } from './defense/harden.js';
import type { StudyModel } from './studies/run.js';

export const BUNDLE_FORMAT = 'vitrine-flowdet-bundle';
export const BUNDLE_VERSION = 1;
/** Largest bundle file read (a full-size ensemble is a few MB). */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

/** A loaded, checked bundle: what `serve` scores with. */
export interface ModelBundle {
  readonly schema: FlowSchema;
  readonly scaler: LogScaler;
  readonly ensemble: Ensemble;
  /** Index of the ensemble member TreeSHAP explains (its boosted trees). */
  readonly explainerMember: number;
  readonly surrogate: Detector;
  readonly alarm?: Alarm;
  readonly threshold: number;
  readonly sha256: string;
  readonly trainedOn: string;
  readonly created: string;
  /** Which model speaks: data, training rows, date, feature-set hash, the clean test metrics of exactly this model. */
  readonly card: ModelCard;
}

/** Clean test metrics of the served model, with the split they were measured on. */
export interface CardMetrics extends CardMetricsView {
  readonly precision: number;
  readonly recall: number;
  readonly roc_auc: number | null;
}

/** The model card (the data, training rows, date and feature-set hash are the client's view: ModelCardView). */
export interface ModelCard extends ModelCardView {
  readonly dataset: DatasetId;
  readonly schema_version: number;
  /** Base features the training data did not have (always 0 in training): a flow may omit them. */
  readonly absent_features: readonly string[];
  /** Clean test metrics of this model as saved (scored through the bundle), or null when not measured. */
  readonly test: CardMetrics | null;
}

/** SHA-256 over the schema's id, version, feature names, classes and formulas. */
export function featureSetHash(schema: FlowSchema): string {
  return sha256(JSON.stringify({ dataset: schema.id, version: schema.version, features: schema.features.map((f) => [f.name, f.cls, f.integer, f.formula ?? '']) }));
}

const finite = z.number().refine(Number.isFinite, 'not finite');

const payloadSchema = z.strictObject({
  schema: z.strictObject({ dataset: z.enum(['synthetic', 'cicids2017', 'unsw_nb15']), version: z.number().int(), features: z.array(z.string()).min(1).max(10_000) }),
  scaler: z.strictObject({ mean: z.array(finite), sd: z.array(finite.refine((v) => v > 0, 'not positive')) }),
  ensemble: z.array(z.unknown()).min(1).max(16),
  explainer: z.strictObject({ member: z.number().int().min(0) }),
  surrogate: z.unknown(),
  alarm: z.strictObject({ model: z.unknown(), threshold: z.number().nullable(), clean_fpr: finite }).optional(),
  threshold: finite,
  trained_on: z.string().max(500),
  created: z.string().max(40),
  card: z
    .strictObject({
      training_rows: z.number().int().min(0).nullable(),
      absent_features: z.array(z.string().max(200)).max(10_000),
      hardened: z.boolean(),
      test: z
        .strictObject({ split: z.string().max(100), n: z.number().int().min(0), accuracy: finite, precision: finite, recall: finite, f1: finite, fpr: finite, roc_auc: finite.nullable() })
        .nullable(),
    })
    .optional(),
});

const fileSchema = z.strictObject({ format: z.string(), version: z.number(), sha256: z.string().regex(/^[0-9a-f]{64}$/), payload: z.unknown() });

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The bundle file text for a trained study model. */
export function bundleText(m: StudyModel, created = new Date().toISOString()): { text: string; sha256: string } {
  const member = m.ensemble.members.findIndex((d) => d.kind === 'gbdt' || d.kind === 'random_forest');
  if (member < 0) throw new VitrineError('validation_failed', 'the ensemble has no tree member to explain');
  const payload = {
    schema: { dataset: m.schema.id, version: m.schema.version, features: m.schema.features.map((f) => f.name) },
    scaler: { mean: Array.from(m.scaler.mean), sd: Array.from(m.scaler.sd) },
    ensemble: m.ensemble.members.map(detectorToJson),
    explainer: { member },
    surrogate: detectorToJson(m.surrogate),
    ...(m.alarm ? { alarm: { model: gbdtModelToJson(m.alarm.model) as unknown as JsonValue, threshold: Number.isFinite(m.alarm.threshold) ? m.alarm.threshold : null, clean_fpr: m.alarm.cleanFpr } } : {}),
    threshold: m.threshold,
    trained_on: m.trainedOn,
    created,
    card: { training_rows: m.trainingRows ?? null, absent_features: [...(m.absentFeatures ?? [])], hardened: m.hardened ?? false, test: m.test ?? null },
  };
  const payloadText = JSON.stringify(payload);
  const digest = sha256(payloadText);
  // The digest covers the payload exactly as serialised; loading re-serialises the parsed payload, which gives the same text.
  return { text: `{"format":"${BUNDLE_FORMAT}","version":${BUNDLE_VERSION},"sha256":"${digest}","payload":${payloadText}}\n`, sha256: digest };
}

export function saveBundle(file: string, m: StudyModel): string {
  const { text, sha256: digest } = bundleText(m);
  writeFileAtomic(file, text);
  writeFileAtomic(`${file}.sha256`, `${digest}  payload\n`);
  return digest;
}

/** Parses and checks a bundle: format and version, the payload digest, then every model's structure. */
export function parseBundle(text: string): ModelBundle {
  const raw = parseJsonText(text, 'validation_failed', 'the model bundle is not valid JSON (damaged or not a bundle)');
  const format = typeof raw === 'object' && raw !== null ? (raw as { format?: unknown }).format : undefined;
  if (format !== BUNDLE_FORMAT) throw new VitrineError('validation_failed', `the file is not a flowdet model bundle (format must be ${BUNDLE_FORMAT})`);
  const head = validate(fileSchema, raw, 'model bundle');
  if (head.version !== BUNDLE_VERSION) throw new VitrineError('validation_failed', `unsupported model bundle version (this build reads version ${BUNDLE_VERSION})`);
  if (sha256(JSON.stringify(head.payload)) !== head.sha256) throw new VitrineError('validation_failed', 'the model bundle is damaged: its SHA-256 does not match its content');
  const p = validate(payloadSchema, head.payload, 'model bundle payload');
  const schema = schemaOf(p.schema.dataset as DatasetId);
  const names = schema.features.map((f) => f.name);
  if (p.schema.version !== schema.version || p.schema.features.length !== names.length || p.schema.features.some((n, i) => n !== names[i]))
    throw new VitrineError('validation_failed', 'the model bundle was trained on a different feature schema than this build has');
  const C = names.length;
  if (p.scaler.mean.length !== C || p.scaler.sd.length !== C) throw new VitrineError('validation_failed', 'the model bundle scaler does not match the schema');
  const members = p.ensemble.map(detectorFromJson);
  const width = (d: Detector): number => d.model.numFeatures;
  if (members.some((d) => width(d) !== C)) throw new VitrineError('validation_failed', 'an ensemble member does not match the schema width');
  const ex = members[p.explainer.member];
  if (!ex || (ex.kind !== 'gbdt' && ex.kind !== 'random_forest')) throw new VitrineError('validation_failed', 'the explainer member is not a tree model');
  const surrogate = detectorFromJson(p.surrogate);
  if (width(surrogate) !== C) throw new VitrineError('validation_failed', 'the surrogate does not match the schema width');
  let alarm: Alarm | undefined;
  if (p.alarm) {
    const model = gbdtModelFromJson(p.alarm.model);
    if (model.numFeatures !== C) throw new VitrineError('validation_failed', 'the alarm does not match the schema width');
    alarm = { model, threshold: p.alarm.threshold ?? Infinity, cleanFpr: p.alarm.clean_fpr };
  }
  const absent = (p.card?.absent_features ?? []).filter((n) => schema.index.has(n));
  const card: ModelCard = {
    data: p.trained_on,
    dataset: schema.id,
    schema_version: schema.version,
    training_rows: p.card?.training_rows ?? null,
    created: p.created,
    feature_set_sha256: featureSetHash(schema),
    absent_features: absent,
    members: members.map((d) => d.kind),
    hardened: p.card?.hardened ?? false,
    test: p.card?.test ?? null,
  };
  return {
    card,
    schema,
    scaler: { mean: Float64Array.from(p.scaler.mean), sd: Float64Array.from(p.scaler.sd) },
    ensemble: { members },
    explainerMember: p.explainer.member,
    surrogate,
    ...(alarm ? { alarm } : {}),
    threshold: p.threshold,
    sha256: head.sha256,
    trainedOn: p.trained_on,
    created: p.created,
  };
}

/** Reads a bundle file (size-checked first). */
export function loadBundle(file: string): ModelBundle {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new VitrineError('not_found', 'the model bundle file does not exist');
  }
  if (size > MAX_BUNDLE_BYTES) throw new VitrineError('payload_too_large', 'the model bundle is larger than the limit');
  return parseBundle(readFileSync(file, 'utf8'));
}
