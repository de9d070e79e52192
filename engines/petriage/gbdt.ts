// The boosted triage model (`vitrine-gbdt-1`): training from feature vectors or the synthetic corpus, verdicts from the 0.1 % / 1 % FPR thresholds, TreeSHAP drivers.
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import { calibrate } from '../core/ml/calibration.js';
import { featureMatrix, readCsvVectorsFile, readJsonLinesVectorsFile, type Dataset, type VectorReadResult } from '../core/ml/dataset.js';
import { trainDetector, type DetectorReport } from '../core/ml/detector.js';
import { sigmoid, type GbdtModel, type JsonValue } from '../core/ml/gbdt.js';
import { TreeExplainer } from '../core/ml/treeshap.js';
import { FAMILIES, featurizeCorpus, syntheticCorpus, type CorpusSample } from './corpus.js';
import { buildProfiles, type KnownFamily } from './family.js';
import { FEATURE_DIM, FEATURE_LAYOUT, FEATURE_NAMES } from './features.js';
import { GBDT_FORMAT } from '../core/ml/model.js';
import { knownFamilySchema, type TriageModel } from './model.js';

/** The verdict cut-offs: MALICIOUS at the 0.1 % false-positive point, SUSPICIOUS at the 1 % point (both measured on validation). */
export const GBDT_VERDICT_THRESHOLDS = { malicious: 'fpr_0.1pct', suspicious: 'fpr_1pct' } as const;

/** Training defaults: a modest ensemble with early stopping on the held-out share. */
export const GBDT_DEFAULTS = { rounds: 200, eta: 0.1, maxDepth: 6, earlyStoppingRounds: 20, validationFraction: 0.25 } as const;

// Built on first use: model.ts and this module import each other, so nothing of model.ts is touched at load time.
let familiesSchema: z.ZodType<KnownFamily[]> | undefined;

/** A TriageModel over a boosted model: the score is its probability (calibrated when the file carries a calibration). */
export function gbdtTriageModel(model: GbdtModel, sha256: string | null = null): TriageModel {
  if (model.objective !== 'binary:logistic') throw new VitrineError('validation_failed', 'a triage model needs the binary:logistic objective');
  if (model.featureLayout !== FEATURE_LAYOUT) throw new VitrineError('validation_failed', 'the model was trained on another feature layout');
  if (model.numFeatures !== FEATURE_DIM) throw new VitrineError('validation_failed', 'the model expects another number of features');
  const find = (name: string): number => {
    const t = model.thresholds?.find((x) => x.name === name);
    if (t === undefined || !Number.isFinite(t.threshold)) throw new VitrineError('validation_failed', 'the model file lacks its 0.1 % and 1 % false-positive thresholds');
    return t.threshold;
  };
  const malicious = find(GBDT_VERDICT_THRESHOLDS.malicious);
  const suspicious = find(GBDT_VERDICT_THRESHOLDS.suspicious);
  if (suspicious > malicious) throw new VitrineError('validation_failed', 'the 1 % threshold is above the 0.1 % threshold');
  const metadata: Record<string, JsonValue> = { ...(model.metadata ?? {}) };
  const families: KnownFamily[] = metadata['known_families'] === undefined ? [] : validate((familiesSchema ??= z.array(knownFamilySchema).max(1000)), metadata['known_families'], 'model metadata.known_families');
  const explainer = new TreeExplainer(model);
  const cal = model.calibration;
  return {
    type: 'gbdt',
    format: GBDT_FORMAT,
    featureLayout: FEATURE_LAYOUT,
    thresholds: { malicious, suspicious },
    thresholdBasis: `calibrated on the validation set: MALICIOUS at or above the ${GBDT_VERDICT_THRESHOLDS.malicious} threshold (at most 0.1 % of validation benign files score there), SUSPICIOUS at or above the ${GBDT_VERDICT_THRESHOLDS.suspicious} threshold (at most 1 %)`,
    attribution: 'exact TreeSHAP (path-dependent Shapley values of the trees, in log-odds; base value = the expected margin over the training covers)',
    families,
    metadata,
    sha256,
    explain(values) {
      const e = explainer.explainRow(values);
      let margin = e.expectedValue;
      for (const v of e.values) margin += v;
      const p = sigmoid(margin);
      return { score: cal ? calibrate(cal, p) : p, margin, baseValue: e.expectedValue, contributions: e.values };
    },
  };
}

export interface GbdtTrainOptions {
  readonly rounds?: number;
  readonly eta?: number;
  readonly maxDepth?: number;
  readonly earlyStoppingRounds?: number;
  readonly validationFraction?: number;
  readonly seed?: number;
  /** Layout the vectors come from; only `vitrine-pe-features-1` models can analyse files. */
  readonly featureLayout?: string;
  readonly families?: readonly KnownFamily[];
  /** What the training data is, for the metadata. */
  readonly data?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (fraction: number, message: string) => void;
}

const round6 = (x: number): number => (Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : x);

/** Trains a boosted detector on labelled vectors and returns the model with its file's metadata, thresholds and families. */
export function trainTriageGbdt(dataset: Dataset, options: GbdtTrainOptions = {}): { model: GbdtModel; report: DetectorReport } {
  const rounds = options.rounds ?? GBDT_DEFAULTS.rounds;
  const params = {
    rounds,
    eta: options.eta ?? GBDT_DEFAULTS.eta,
    maxDepth: options.maxDepth ?? GBDT_DEFAULTS.maxDepth,
    earlyStoppingRounds: options.earlyStoppingRounds ?? GBDT_DEFAULTS.earlyStoppingRounds,
    seed: options.seed ?? 0,
  };
  const positives = dataset.y.reduce((n, v) => n + (v === 1 ? 1 : 0), 0);
  if (positives === 0 || positives === dataset.y.length) throw new VitrineError('validation_failed', 'training needs both benign and malicious rows');
  const progress = options.onProgress ?? (() => undefined);
  const { model, report } = trainDetector(dataset, {
    ...params,
    validationFraction: options.validationFraction ?? GBDT_DEFAULTS.validationFraction,
    ...(options.signal ? { signal: options.signal } : {}),
    onRound: (r) => progress(Math.min(1, (r.round + 1) / rounds), 'boosting'),
  });
  const layout = options.featureLayout ?? FEATURE_LAYOUT;
  const metadata: Record<string, JsonValue> = {
    model: 'gradient-boosted trees (engines/core/ml), logistic objective',
    data: { ...(options.data ?? {}) },
    samples: dataset.y.length,
    positives,
    benign: dataset.y.length - positives,
    trees: model.trees.length,
    validation: {
      train_rows: report.trainRows,
      rows: report.validationRows,
      auc: round6(report.auc),
      average_precision: round6(report.averagePrecision),
      log_loss: round6(report.logLoss),
    },
    known_families: (options.families ?? []).map((f) => ({ name: f.name, description: f.description, samples: f.samples, profile: f.profile.map((t) => ({ kind: t.kind, value: t.value, share: t.share })) })),
  };
  return { model: { ...model, featureLayout: layout, featureNames: layout === FEATURE_LAYOUT && dataset.x.cols === FEATURE_DIM ? FEATURE_NAMES : dataset.featureNames, metadata }, report };
}

/** Featurises labelled samples (unparseable ones skipped) into a dataset, with the family profiles. */
export function corpusDataset(samples: readonly CorpusSample[], signal?: AbortSignal): { dataset: Dataset; families: KnownFamily[]; skipped: number } {
  const { rows, labels, tokenSets, skipped } = featurizeCorpus(samples, () => {
    if (signal?.aborted) throw new VitrineError('cancelled', 'training was cancelled');
  });
  const data = new Float64Array(rows.length * FEATURE_DIM);
  rows.forEach((r, i) => data.set(r, i * FEATURE_DIM));
  const families = buildProfiles(tokenSets, new Map(FAMILIES.map((f) => [f.name, f.description])));
  return { dataset: { x: featureMatrix(rows.length, FEATURE_DIM, data), y: Float64Array.from(labels), featureNames: FEATURE_NAMES }, families, skipped };
}

/** The boosted model on the synthetic corpus (n per family, 3n benign), with the families' profiles. */
export function trainGbdtDefault(options: GbdtTrainOptions & { readonly nPerFamily?: number } = {}): { model: GbdtModel; report: DetectorReport } {
  const perFamily = options.nPerFamily ?? 20;
  const seed = options.seed ?? 0;
  const { dataset, families, skipped } = corpusDataset(syntheticCorpus({ perFamily, seed }), options.signal);
  return trainTriageGbdt(dataset, { ...options, families, data: { kind: 'synthetic', per_family: perFamily, benign: 3 * perFamily, seed, skipped_unparseable: skipped } });
}

export interface VectorFileOptions {
  /** Label column or key (default `label`). */
  readonly labelColumn?: string;
  /** Values of the label meaning benign (default: the label reads as 0/1/true/false). */
  readonly negative?: readonly string[];
  /** Columns that are not features (identifiers). */
  readonly exclude?: readonly string[];
}

/** Reads feature vectors for training: `.csv` as CSV, anything else as JSON lines; EMBER's unlabelled `-1` rows are skipped. */
export async function readVectors(file: string, options: VectorFileOptions = {}): Promise<VectorReadResult> {
  const opts = {
    label: { column: options.labelColumn ?? 'label', ignore: ['-1'], ...(options.negative ? { negative: options.negative } : {}) },
    ...(options.exclude ? { exclude: options.exclude } : {}),
  };
  return /\.csv$/i.test(file) ? readCsvVectorsFile(file, opts) : readJsonLinesVectorsFile(file, opts);
}
