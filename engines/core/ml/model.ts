// The `vitrine-gbdt-1` model file: versioned JSON with trees as flat node arrays, validated with zod and a structure check on load.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { VitrineError } from '../errors.js';
import { validate } from '../validation.js';
import { calibrationSchema } from './calibration.js';
import type { GbdtModel, JsonValue, ModelThreshold } from './gbdt.js';
import { checkTreeStructure, type Tree } from './tree.js';

export const GBDT_FORMAT = 'vitrine-gbdt-1';

const MAX_TREES = 100_000;
const MAX_NODES_PER_TREE = 1 << 22;
const MAX_FEATURES = 1_000_000;
/** Largest model file the loader reads. */
export const MAX_MODEL_FILE_BYTES = 1 << 30;

const finite = z.number();
// JSON has no infinities, and a cut can be one (flow features such as CICIDS2017's rates hold "Infinity").
const thresholdValue = z.union([finite, z.literal('Infinity'), z.literal('-Infinity')]);
const nodeArray = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_NODES_PER_TREE);

const jsonValue: z.ZodType<JsonValue> = z.lazy(() => z.union([z.string().max(1_000_000), finite, z.boolean(), z.null(), z.array(jsonValue).max(1_000_000), z.record(z.string().max(1000), jsonValue)]));

const treeSchema = z
  .object({
    feature: nodeArray(z.number().int().min(-1).max(MAX_FEATURES)),
    threshold: nodeArray(thresholdValue),
    left: nodeArray(z.number().int().min(-1).max(MAX_NODES_PER_TREE)),
    right: nodeArray(z.number().int().min(-1).max(MAX_NODES_PER_TREE)),
    default_left: nodeArray(z.union([z.literal(0), z.literal(1), z.boolean()])),
    value: nodeArray(finite),
    cover: nodeArray(finite.min(0)),
    gain: nodeArray(finite).optional(),
  })
  .strict();

const thresholdSchema = z
  .object({ name: z.string().min(1).max(200), target_fpr: z.number().min(0).max(1), threshold: thresholdValue, fpr: z.number().min(0).max(1), tpr: z.number().min(0).max(1).nullable() })
  .strict();

/** The file's shape. */
export const gbdtModelSchema = z
  .object({
    format: z.literal(GBDT_FORMAT),
    objective: z.enum(['binary:logistic', 'reg:squarederror']),
    base_score: finite,
    num_features: z.number().int().min(1).max(MAX_FEATURES),
    feature_names: z.array(z.string().max(1000)).max(MAX_FEATURES).optional(),
    feature_layout: z.string().min(1).max(200).optional(),
    trees: z.array(treeSchema).max(MAX_TREES),
    best_iteration: z.number().int().min(0).optional(),
    best_score: finite.optional(),
    params: z.record(z.string().max(100), z.union([finite, z.string().max(1000), z.boolean()])).optional(),
    calibration: calibrationSchema.optional(),
    thresholds: z.array(thresholdSchema).max(100).optional(),
    metadata: z.record(z.string().max(1000), jsonValue).optional(),
  })
  .strict()
  .refine((m) => m.objective !== 'binary:logistic' || (m.base_score > 0 && m.base_score < 1), { message: 'base_score must be in (0, 1)', path: ['base_score'] })
  .refine((m) => m.feature_names === undefined || m.feature_names.length === m.num_features, { message: 'one name per feature', path: ['feature_names'] });

export type GbdtModelJson = z.output<typeof gbdtModelSchema>;

const encodeNumber = (v: number): number | 'Infinity' | '-Infinity' => (v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : v);
const decodeNumber = (v: number | 'Infinity' | '-Infinity'): number => (v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v);

function encodeThreshold(t: ModelThreshold): GbdtModelJson['thresholds'] extends (infer U)[] | undefined ? U : never {
  if (Number.isNaN(t.threshold)) throw new VitrineError('validation_failed', 'a model threshold is NaN');
  return { name: t.name, target_fpr: t.targetFpr, threshold: encodeNumber(t.threshold), fpr: t.fpr, tpr: Number.isNaN(t.tpr) ? null : t.tpr };
}

/** The model as the plain JSON object of the file format. */
export function gbdtModelToJson(model: GbdtModel): GbdtModelJson {
  const trees = model.trees.map((t) => ({
    feature: Array.from(t.feature),
    threshold: Array.from(t.threshold, encodeNumber),
    left: Array.from(t.left),
    right: Array.from(t.right),
    default_left: Array.from(t.defaultLeft, (v) => (v ? (1 as const) : (0 as const))),
    value: Array.from(t.value),
    cover: Array.from(t.cover),
    gain: Array.from(t.gain),
  }));
  const out: GbdtModelJson = {
    format: GBDT_FORMAT,
    objective: model.objective,
    base_score: model.baseScore,
    num_features: model.numFeatures,
    trees,
    ...(model.featureNames ? { feature_names: [...model.featureNames] } : {}),
    ...(model.featureLayout !== undefined ? { feature_layout: model.featureLayout } : {}),
    ...(model.bestIteration !== undefined ? { best_iteration: model.bestIteration } : {}),
    ...(model.bestScore !== undefined && Number.isFinite(model.bestScore) ? { best_score: model.bestScore } : {}),
    ...(model.params ? { params: { ...model.params } } : {}),
    ...(model.calibration ? { calibration: model.calibration.method === 'platt' ? { ...model.calibration } : { method: 'isotonic' as const, x: [...model.calibration.x], y: [...model.calibration.y] } } : {}),
    ...(model.thresholds ? { thresholds: model.thresholds.map(encodeThreshold) } : {}),
    ...(model.metadata ? { metadata: { ...model.metadata } } : {}),
  };
  // What we write must load: the same checks run on save, so a bad model never reaches a file.
  gbdtModelFromJson(out);
  return out;
}

/** Validates a parsed model file and builds the in-memory model (typed arrays), checking every tree's structure. */
export function gbdtModelFromJson(value: unknown): GbdtModel {
  const m = validate(gbdtModelSchema, value, 'model');
  const trees: Tree[] = m.trees.map((t, i) => {
    const tree: Tree = {
      feature: Int32Array.from(t.feature),
      threshold: Float64Array.from(t.threshold, decodeNumber),
      left: Int32Array.from(t.left),
      right: Int32Array.from(t.right),
      defaultLeft: Uint8Array.from(t.default_left, (v) => (v === true || v === 1 ? 1 : 0)),
      value: Float64Array.from(t.value),
      cover: Float64Array.from(t.cover),
      gain: t.gain ? Float64Array.from(t.gain) : new Float64Array(t.feature.length),
    };
    checkTreeStructure(tree, m.num_features, i);
    return tree;
  });
  return {
    objective: m.objective,
    baseScore: m.base_score,
    numFeatures: m.num_features,
    trees,
    ...(m.feature_names ? { featureNames: m.feature_names } : {}),
    ...(m.feature_layout !== undefined ? { featureLayout: m.feature_layout } : {}),
    ...(m.best_iteration !== undefined ? { bestIteration: m.best_iteration } : {}),
    ...(m.best_score !== undefined ? { bestScore: m.best_score } : {}),
    ...(m.params ? { params: m.params } : {}),
    ...(m.calibration ? { calibration: m.calibration } : {}),
    ...(m.thresholds
      ? { thresholds: m.thresholds.map((t) => ({ name: t.name, targetFpr: t.target_fpr, threshold: decodeNumber(t.threshold), fpr: t.fpr, tpr: t.tpr ?? NaN })) }
      : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
  };
}

/** True when a parsed JSON document declares itself a `vitrine-gbdt-1` model (for telling model formats apart). */
export function isGbdtModelJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === GBDT_FORMAT;
}

/** The model as file text. */
export function serializeGbdtModel(model: GbdtModel): string {
  return JSON.stringify(gbdtModelToJson(model));
}

/** Parses model file text. */
export function parseGbdtModel(text: string): GbdtModel {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new VitrineError('parse_error', 'the model file is not valid JSON');
  }
  return gbdtModelFromJson(value);
}

export async function saveGbdtModelFile(path: string, model: GbdtModel): Promise<void> {
  await writeFile(path, serializeGbdtModel(model));
}

export async function loadGbdtModelFile(path: string, maxBytes = MAX_MODEL_FILE_BYTES): Promise<GbdtModel> {
  let text: string;
  try {
    // Size first, so an oversized file is refused before it is read.
    if ((await stat(path)).size > maxBytes) throw new VitrineError('payload_too_large', 'the model file is larger than the limit');
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    const missing = (err as { code?: unknown }).code === 'ENOENT';
    throw new VitrineError(missing ? 'not_found' : 'bad_request', missing ? 'the model file does not exist' : 'the model file could not be read', { cause: err });
  }
  return parseGbdtModel(text);
}
