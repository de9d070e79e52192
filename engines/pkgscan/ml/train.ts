// Trains the package risk model from a labelled folder (GROUND_TRUTH.json; samples read as bytes, never executed): stratified k-fold cross-validated metrics next to the rules alone, then boosted trees on every row; `pkgscan train-model`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../../core/output-file.js';
import path from 'node:path';
import { z } from 'zod';
import { UsageError, type CliResult } from '../../core/cli.js';
import { VitrineError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json-text.js';
import { matrixFromRows, predict, Random, rocAuc, trainGbdt, type GbdtModel, type GbdtParams } from '../../core/ml/index.js';
import { validate } from '../../core/validation.js';
import { flaggedMalicious, runAnalyzers } from '../analyzers/risk.js';
import { defaultResourcesDir } from '../config.js';
import { storeDirFromEnv } from '../db/url.js';
import { openRelease } from '../package/open.js';
import { archiveFindings } from '../scans/analysis.js';
import { extractFeatures, FEATURE_NAMES, FEATURE_SET_ID } from './features.js';
import { buildReference } from './drift.js';
import { POLICY_THRESHOLD, RISK_MODEL_FORMAT, serializeRiskModel, type RiskModelFile } from './model.js';

/** Version of the training recipe (features, parameters, folds); goes into the file. */
export const MODEL_VERSION = '1.0.0';
/** Largest sample read from the labelled folder. */
const MAX_SAMPLE_BYTES = 256 << 20;

/** Small trees and strong shrinkage: a couple of hundred rows do not support more. */
export const TRAINING_PARAMS: GbdtParams = { rounds: 60, eta: 0.15, maxDepth: 3, minChildWeight: 1, lambda: 1, subsample: 0.8, colsampleByTree: 0.8, maxBins: 64 };

export interface LabelledRow {
  readonly file: string;
  readonly ecosystem: string;
  /** 1 malicious, 0 benign. */
  readonly label: 0 | 1;
  readonly features: readonly number[];
  /** What the rules alone say (`flaggedMalicious`: the shipped policies' block condition). */
  readonly rulesFlagged: boolean;
}

export interface LabelledCorpus {
  readonly rows: readonly LabelledRow[];
  readonly groundTruthSha256: string;
  /** Entries whose file is missing, too large or could not be opened. */
  readonly skipped: number;
}

const truthSchema = z.object({
  files: z
    .array(z.object({ file: z.string().min(1).max(1000), ecosystem: z.enum(['npm', 'pypi']), label: z.enum(['malicious', 'benign']) }).loose())
    .min(1)
    .max(100_000),
});

/** Reads GROUND_TRUTH.json and featurises every sample in memory (archive findings + the default analyzers, as a scan does). */
export async function readLabelledFolder(dir: string, resourcesDir: string, only?: (file: string) => boolean): Promise<LabelledCorpus> {
  const truthFile = path.join(dir, 'GROUND_TRUTH.json');
  if (!existsSync(truthFile)) throw new VitrineError('not_found', 'the labelled folder has no GROUND_TRUTH.json');
  const truthBytes = readFileSync(truthFile);
  const truth = validate(truthSchema, parseJsonText(truthBytes.toString('utf8'), 'parse_error', 'GROUND_TRUTH.json is not valid JSON'), 'ground truth');
  const root = path.resolve(dir);
  const rows: LabelledRow[] = [];
  let skipped = 0;
  for (const e of truth.files) {
    if (only !== undefined && !only(e.file)) continue;
    const file = path.resolve(root, e.file);
    // A ground truth naming a file outside its folder is not followed.
    if (!file.startsWith(root + path.sep) || !existsSync(file) || statSync(file).size > MAX_SAMPLE_BYTES) {
      skipped++;
      continue;
    }
    try {
      const release = openRelease(new Uint8Array(readFileSync(file)), { filename: path.basename(file), ecosystem: e.ecosystem });
      const result = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
      const findings = [...archiveFindings(release.archiveIssues), ...result.findings];
      const features = extractFeatures({ ...release, findings, chains: result.chains });
      rows.push({ file: e.file, ecosystem: e.ecosystem, label: e.label === 'malicious' ? 1 : 0, features: Array.from(features), rulesFlagged: flaggedMalicious(result) });
    } catch {
      skipped++;
    }
  }
  return { rows, groundTruthSha256: createHash('sha256').update(truthBytes).digest('hex'), skipped };
}

/** Fold number of each row: each class shuffled with the seed and dealt round-robin, so every fold keeps the class balance. */
export function stratifiedFolds(labels: readonly number[], k: number, seed: number): number[] {
  const fold = new Array<number>(labels.length).fill(0);
  const rng = new Random(seed);
  for (const cls of [0, 1]) {
    const idx = labels.map((y, i) => (y === cls ? i : -1)).filter((i) => i >= 0);
    rng.shuffle(idx);
    idx.forEach((i, n) => (fold[i] = n % k));
  }
  return fold;
}

interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
}

function confusionOf(flags: readonly boolean[], labels: readonly number[]): Confusion {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  flags.forEach((f, i) => {
    if (labels[i] === 1) {
      if (f) tp++;
      else fn++;
    } else if (f) fp++;
    else tn++;
  });
  const r4 = (x: number): number => Math.round(x * 10000) / 10000;
  return { tp, fp, fn, tn, precision: r4(tp + fp === 0 ? 1 : tp / (tp + fp)), recall: r4(tp + fn === 0 ? 1 : tp / (tp + fn)) };
}

function fit(rows: readonly LabelledRow[], seed: number): GbdtModel {
  return trainGbdt({ x: matrixFromRows(rows.map((r) => r.features)), y: rows.map((r) => r.label) }, { ...TRAINING_PARAMS, seed, featureNames: FEATURE_NAMES });
}

function scoreRows(model: GbdtModel, rows: readonly LabelledRow[]): number[] {
  return Array.from(predict(model, matrixFromRows(rows.map((r) => r.features))));
}

export interface CrossValidation {
  readonly folds: number;
  readonly seed: number;
  /** AUC of the pooled out-of-fold scores. */
  readonly auc: number;
  readonly aucFolds: readonly number[];
  readonly model: Confusion;
  readonly rulesAlone: Confusion;
  /** Out-of-fold score of every row. */
  readonly scores: readonly number[];
}

/** Stratified k-fold: every row is scored by trees that never saw it. */
export function crossValidate(rows: readonly LabelledRow[], k = 5, seed = 0): CrossValidation {
  const labels = rows.map((r) => r.label);
  const pos = labels.filter((y) => y === 1).length;
  if (pos < k || rows.length - pos < k) throw new VitrineError('validation_failed', `cross-validation needs at least ${k} samples of each class`);
  const fold = stratifiedFolds(labels, k, seed);
  const scores = new Array<number>(rows.length).fill(0);
  const aucFolds: number[] = [];
  for (let f = 0; f < k; f++) {
    const trainRows = rows.filter((_, i) => fold[i] !== f);
    const testIdx = rows.map((_, i) => i).filter((i) => fold[i] === f);
    const model = fit(trainRows, seed + f);
    const s = scoreRows(
      model,
      testIdx.map((i) => rows[i]!),
    );
    testIdx.forEach((i, n) => (scores[i] = s[n]!));
    aucFolds.push(round4(rocAuc(s, testIdx.map((i) => labels[i]!))));
  }
  return {
    folds: k,
    seed,
    auc: round4(rocAuc(scores, labels)),
    aucFolds,
    model: confusionOf(
      scores.map((s) => s >= POLICY_THRESHOLD),
      labels,
    ),
    rulesAlone: confusionOf(
      rows.map((r) => r.rulesFlagged),
      labels,
    ),
    scores,
  };
}

const round4 = (x: number): number => Math.round(x * 10000) / 10000;

export interface TrainOptions {
  readonly folds?: number;
  readonly seed?: number;
  readonly trainedAt?: string;
  readonly description?: string;
}

/** Cross-validates, trains on every row, and returns the model file text. */
export function trainRiskModel(corpus: LabelledCorpus, opts: TrainOptions = {}): { text: string; cv: CrossValidation; gbdt: GbdtModel } {
  const k = opts.folds ?? 5;
  const seed = opts.seed ?? 0;
  const rows = corpus.rows;
  const cv = crossValidate(rows, k, seed);
  const gbdt = { ...fit(rows, seed), featureLayout: FEATURE_SET_ID };
  const malicious = rows.filter((r) => r.label === 1).length;
  const file: Omit<RiskModelFile, 'gbdt'> = {
    format: RISK_MODEL_FORMAT,
    version: MODEL_VERSION,
    trained_at: opts.trainedAt ?? new Date().toISOString(),
    feature_set: { id: FEATURE_SET_ID, names: [...FEATURE_NAMES] },
    dataset: { description: opts.description ?? 'labelled package folder', files: rows.length, malicious, benign: rows.length - malicious, skipped: corpus.skipped, ground_truth_sha256: corpus.groundTruthSha256 },
    metrics: {
      scope: `${k}-fold stratified cross-validation on ${rows.length} packages (${malicious} malicious, ${rows.length - malicious} benign): a small corpus, so these numbers are indicative, with wide uncertainty, and not a measure of real-world performance`,
      method: 'out-of-fold scores pooled; precision and recall at the policy threshold',
      folds: k,
      seed,
      auc: cv.auc,
      auc_folds: [...cv.aucFolds],
      threshold: POLICY_THRESHOLD,
      model: cv.model,
      rules_alone: cv.rulesAlone,
    },
    // Drift compares ordinary scan traffic with the reference: built from the benign rows only (a reference that is
    // two-thirds malware reads every benign population as drifted).
    reference: FEATURE_NAMES.map((name, j) =>
      buildReference(
        name,
        rows.filter((r) => r.label === 0).map((r) => r.features[j]!),
      ),
    ),
  };
  return { text: serializeRiskModel(file, gbdt), cv, gbdt };
}

/**
 * Where a retrained model goes by default: `pkgscan/model.json` in the folder the servers read it from (found before the
 * shipped one): PKGSCAN_STORE_DIR when set (a team's shared folder), else VITRINE_HOME; undefined when neither is set.
 */
export function defaultModelOutput(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = env['VITRINE_HOME'];
  const dir = storeDirFromEnv(env) ?? (home !== undefined && home !== '' ? home : undefined);
  return dir !== undefined ? path.join(dir, 'pkgscan', 'model.json') : undefined;
}

/** `pkgscan train-model <labelled folder> [--output file]`: default output defaultModelOutput(). */
export async function trainModelCommand(rest: readonly string[], values: { output?: string | undefined }, _io?: unknown): Promise<CliResult> {
  if (rest.length !== 1) throw new UsageError('train-model takes one argument: the labelled folder (with GROUND_TRUTH.json)');
  const output = values.output ?? defaultModelOutput();
  if (output === undefined) throw new UsageError('pass --output or set PKGSCAN_STORE_DIR or VITRINE_HOME');
  const corpus = await readLabelledFolder(rest[0]!, defaultResourcesDir());
  const { text, cv } = trainRiskModel(corpus, { description: `labelled folder ${path.basename(path.resolve(rest[0]!))}` });
  mkdirSync(path.dirname(output), { recursive: true });
  writeFileAtomic(output, text);
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  const stdout = [
    `trained on ${corpus.rows.length} packages (${corpus.skipped} skipped); model written`,
    `cross-validated AUC ${cv.auc.toFixed(3)} (folds ${cv.aucFolds.map((a) => a.toFixed(3)).join(', ')})`,
    `at threshold ${POLICY_THRESHOLD}: model recall ${pct(cv.model.recall)} precision ${pct(cv.model.precision)}; rules alone recall ${pct(cv.rulesAlone.recall)} precision ${pct(cv.rulesAlone.precision)}`,
  ].join('\n');
  return { code: 0, stdout: `${stdout}\n`, stderr: '' };
}
