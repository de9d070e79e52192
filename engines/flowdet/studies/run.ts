// The full study (`flowdet run`): train, attack, harden, alarm, explain, poison, drift; returns the report data and the hardened model.
import { prCurve, Random, rocCurve, selectRows, stratifiedSplit, type FeatureMatrix } from '../../core/ml/index.js';
import type { AttackSummary as AttackSummaryView, BudgetPoint as BudgetPointView, StudyReport as StudyReportView } from '../../core/contracts/flowdet.js';
import { VitrineError } from '../../core/errors.js';
import { adaptiveAttack, attackSpace, type AttackResult, type AttackSpace, type GradientOracle, type Scorer } from '../attacks/attacks.js';
import { minedFor, physicalViolations } from '../constraints/physics.js';
import { newTally, tallyAttack, type ValidityTally } from './tally.js';
import { driftSplit, loadData, type LoadedData } from '../data/datasets.js';
import type { FlowTable } from '../data/csv.js';
import { classesOf, controllable } from '../data/schema.js';
import { adversarialTraining, alarmScores, trainAlarm, ADV_EPS, ADV_ROUNDS, type Alarm } from '../defense/harden.js';
import { fitLogScaler, isDifferentiable, probabilityGradientZ, scoreDetector, scoreEnsemble, trainDetector, type Detector, type DetectorKind, type Ensemble, type LogScaler } from '../detectors/models.js';
import { counterfactual, treeMember } from '../explain/explain.js';
import { bundleText, parseBundle, type CardMetrics } from '../bundle.js';
import { detectorMetrics, robustnessCurve, type DetectorMetrics, type RobustnessCurve } from './metrics.js';
import { poisoningStudy, type PoisonStudy } from './poison.js';

export const DETECTOR_KINDS: readonly DetectorKind[] = ['gbdt', 'random_forest', 'logistic', 'mlp'];
/** Members of the (baseline and hardened) ensemble that serving uses. */
export const ENSEMBLE_KINDS: readonly DetectorKind[] = ['gbdt', 'mlp'];
export const ROBUST_EPS: readonly number[] = [0.25, 0.5, 1];
export const CURVE_EPS: readonly number[] = [0, 0.25, 0.5, 1, 2];
/** Black-box runs per budget in the study's attacks (from the best so far, then a restart from the original). */
export const ATTACK_RESTARTS = 2;

export type Progress = (fraction: number, message: string) => void;

export interface StudyOptions {
  /** synthetic, cicids2017, unsw_nb15 or a CSV path. */
  readonly data: string;
  /** Name reported for the data instead of the CSV's file name (an uploaded file's own name). */
  readonly dataName?: string;
  readonly quick?: boolean;
  readonly seed?: number;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  readonly progress?: Progress;
  /** Steps to skip (the seed study runs only what it measures). */
  readonly skip?: readonly ('attack' | 'harden' | 'explain' | 'poison' | 'drift')[];
}

/** Sizes that differ between --quick and a full run. */
export interface StudySizes {
  readonly syntheticRows: number;
  readonly maxTrainRows: number;
  readonly maxTestRows: number;
  readonly attackRows: number;
  readonly hardenPerRound: number;
  readonly hardenIters: number;
  readonly counterfactuals: number;
  readonly shapRows: number;
  readonly poisonRows: number;
}

export function studySizes(quick: boolean): StudySizes {
  return quick
    ? { syntheticRows: 5000, maxTrainRows: 8000, maxTestRows: 4000, attackRows: 80, hardenPerRound: 250, hardenIters: 30, counterfactuals: 3, shapRows: 150, poisonRows: 2500 }
    : { syntheticRows: 20_000, maxTrainRows: 200_000, maxTestRows: 60_000, attackRows: 400, hardenPerRound: 1500, hardenIters: 100, counterfactuals: 10, shapRows: 500, poisonRows: 8000 };
}

export interface AttackSummary extends AttackSummaryView {
  readonly attack: 'gradient' | 'transfer+black-box';
  /** Malicious flows attacked. */
  readonly n: number;
  readonly robustness: RobustnessCurve;
  /** Detection rate of malicious flows and robust accuracy (with as many clean benign flows) at eps 0.25, 0.5, 1. */
  readonly robust: readonly { readonly eps: number; readonly detection_rate: number; readonly robust_accuracy: number; readonly evasion_rate: number; readonly queries: number; readonly max_linf: number; readonly physical_valid_share: number }[];
  /** Every budget of the curve: rates, and the checks of its adversarial rows (largest L-infinity distance, mined physics). */
  readonly budgets: readonly BudgetPoint[];
}

/** A budget's point (eps, detection rate, robust accuracy, dropped rows: BudgetPointView) and the checks of its rows. */
export interface BudgetPoint extends BudgetPointView {
  /** Attacked flows for which a valid flow within the budget was returned (the others were sent unchanged). */
  readonly adversarial_rows: number;
  readonly invalid: number;
  /** Largest L-infinity distance (attack space) of the adversarial rows: at most eps. */
  readonly max_linf: number;
  /** Share of the adversarial rows that break none of the mined relations. */
  readonly physical_valid_share: number;
  readonly queries: number;
}

/** The study's report; a client's view of it (StudyReportView) is what the Flows workspace reads. */
export interface StudyReport extends StudyReportView {
  readonly format: 'vitrine-flowdet-report';
  readonly version: 1;
  readonly dataset: { readonly name: string; readonly schema: string; readonly format: string; readonly rows: number; readonly malicious: number; readonly split: string; readonly train: number; readonly test: number; readonly missing_columns: readonly string[]; readonly cleaning: FlowTable['cleaning']; readonly skipped_lines: number; readonly categories: Readonly<Record<string, number>> };
  readonly settings: { readonly quick: boolean; readonly seed: number; readonly sizes: StudySizes; readonly threshold: number; readonly adversarial_training: { readonly eps: number; readonly rounds: number; readonly budgets: string; readonly preprocessing: string; readonly preprocessing_max_shift: number | null } };
  readonly detectors: readonly { readonly name: DetectorKind; readonly test: DetectorMetrics; readonly train_seconds: number }[];
  readonly curves: Readonly<Record<string, { readonly roc: { fpr: number[]; tpr: number[] }; readonly pr: { recall: number[]; precision: number[] } }>>;
  readonly attacks: readonly AttackSummary[];
  readonly hardening?: { readonly baseline: AttackSummary; readonly hardened: AttackSummary; readonly hardened_test: DetectorMetrics; readonly baseline_test: DetectorMetrics };
  readonly alarm?: { readonly threshold: number; readonly clean_fpr_holdout: number; readonly test_fpr: number; readonly test_tpr: number; readonly adversarial_test: number };
  readonly explanations?: { readonly member: string; readonly shap_summary: readonly { readonly feature: string; readonly mean_abs_shap: number }[]; readonly counterfactuals: readonly { readonly found: boolean; readonly eps: number; readonly changes: number; readonly valid: boolean; readonly score_before: number; readonly score_after: number }[] };
  readonly poisoning?: PoisonStudy;
  readonly drift?: { readonly available: boolean; readonly reason?: string; readonly train_days?: string; readonly test_days?: string; readonly random_split?: DetectorMetrics; readonly temporal?: DetectorMetrics };
  /** The model `--save-model` saves and `serve` scores with, and its clean test metrics measured through its bundle. */
  readonly served_model: { readonly members: readonly string[]; readonly hardened: boolean; readonly trained_on: string; readonly training_rows: number; readonly derived_features: string; readonly split: string; readonly test: DetectorMetrics; readonly scored_through_saved_bundle: true; readonly bundle_matches_in_memory: boolean };
  /** Every adversarial row produced in the study was checked with isValid against its original, its budget and the mined physics. */
  readonly validity: ValidityTally & { readonly physical_valid_share: number };
  readonly seconds: number;
}

export interface StudyModel {
  readonly schema: FlowTable['schema'];
  readonly scaler: LogScaler;
  readonly ensemble: Ensemble;
  readonly surrogate: Detector;
  readonly alarm?: Alarm;
  readonly threshold: number;
  readonly trainedOn: string;
  /** Clean training rows. */
  readonly trainingRows?: number;
  /** Base features the training data lacked (always 0). */
  readonly absentFeatures?: readonly string[];
  readonly hardened?: boolean;
  /** Clean test metrics of this model measured through its saved bundle. */
  readonly test?: CardMetrics;
}

export interface StudyResult {
  readonly report: StudyReport;
  readonly model: StudyModel;
}

/** Yields to the event loop (so progress is served and a cancel is seen in-process too), then honours the signal. */
async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new VitrineError('cancelled', 'the study was cancelled');
}

/** A stratified sample of at most n of the given rows. */
function pick(indices: Uint32Array, n: number, seed: number, y: ArrayLike<number>): Uint32Array {
  if (indices.length <= n) return indices;
  const labels = Uint8Array.from(indices, (i) => y[i]!);
  const sp = stratifiedSplit(labels, n / indices.length, seed);
  return Uint32Array.from(sp.validation, (j) => indices[j]!);
}

/** Rows per category text, as the report writes them. The texts are the dataset's (`constructor` is a category like any other). */
export function categoryCounts(cats: readonly string[]): Record<string, number> {
  const out = new Map<string, number>();
  for (const c of cats) out.set(c, (out.get(c) ?? 0) + 1);
  return Object.fromEntries(out);
}

/**
 * Runs the adaptive attack at each budget (smallest first, each warm-started from the previous budget's best flows,
 * so detection can only fall as eps grows) against one target and checks every returned flow.
 */
export function attackCurve(
  name: string,
  space: AttackSpace,
  target: Scorer,
  gradient: GradientOracle | undefined,
  surrogates: readonly GradientOracle[],
  xm: FeatureMatrix,
  benignCorrect: number,
  benignN: number,
  seed: number,
  validity: ValidityTally,
  adversarialOut?: FeatureMatrix[],
  scoresOut?: Float64Array[],
): AttackSummary {
  const rates: number[] = [];
  const robust: AttackSummary['robust'][number][] = [];
  const points: BudgetPoint[] = [];
  const clean = target(xm);
  let detected0 = 0;
  for (const p of clean) detected0 += p >= 0.5 ? 1 : 0;
  let warm: AttackResult | undefined;
  for (const eps of CURVE_EPS) {
    if (eps === 0) {
      rates.push(xm.rows > 0 ? detected0 / xm.rows : NaN);
      continue;
    }
    const r = adaptiveAttack(space, { score: target, ...(gradient ? { gradient } : {}) }, surrogates, xm, eps, { seed, restarts: ATTACK_RESTARTS, ...(warm ? { warm } : {}) });
    warm = r;
    scoresOut?.push(Float64Array.from(r.scores));
    const st = tallyAttack(space, xm, r, eps, validity);
    let det = 0;
    for (const p of r.scores) det += p >= 0.5 ? 1 : 0;
    const detection = xm.rows > 0 ? det / xm.rows : NaN;
    const robustAccuracy = (det + benignCorrect) / Math.max(1, xm.rows + benignN);
    rates.push(detection);
    points.push({ eps, detection_rate: detection, robust_accuracy: robustAccuracy, adversarial_rows: st.adversarial, dropped: st.dropped, invalid: st.invalid, max_linf: st.max_linf, physical_valid_share: st.physical_valid_share, queries: r.queries });
    if (ROBUST_EPS.includes(eps))
      robust.push({
        eps,
        detection_rate: detection,
        robust_accuracy: robustAccuracy,
        evasion_rate: detected0 > 0 ? Math.max(0, detected0 - det) / detected0 : 0,
        queries: r.queries,
        max_linf: st.max_linf,
        physical_valid_share: st.physical_valid_share,
      });
    if (eps === 1 && adversarialOut) adversarialOut.push(selectRows(r.adversarial, Array.from({ length: xm.rows }, (_, i) => i).filter((i) => !r.dropped[i])));
  }
  return { detector: name, attack: gradient ? 'gradient' : 'transfer+black-box', n: xm.rows, robustness: robustnessCurve(CURVE_EPS, rates), robust, budgets: points };
}

const thin = (a: Float64Array, max = 300): number[] => {
  const step = Math.max(1, Math.ceil(a.length / max));
  const out: number[] = [];
  for (let i = 0; i < a.length; i += step) out.push(a[i]!);
  if ((a.length - 1) % step !== 0 && a.length > 0) out.push(a[a.length - 1]!);
  return out;
};

/** Runs the whole study on loaded data. */
export async function runStudy(opts: StudyOptions): Promise<StudyResult> {
  const started = Date.now();
  const quick = opts.quick ?? false;
  const seed = opts.seed ?? 0;
  const sizes = studySizes(quick);
  const progress: Progress = opts.progress ?? (() => {});
  const skip = new Set(opts.skip ?? []);
  progress(0, 'loading data');
  const read: LoadedData = await loadData(opts.data, { seed, syntheticRows: sizes.syntheticRows, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}) });
  const loaded: LoadedData = opts.dataName ? { ...read, name: opts.dataName } : read;
  return await studyOnData(loaded, { ...opts, quick, seed }, sizes, progress, skip, started);
}

export async function studyOnData(loaded: LoadedData, opts: StudyOptions & { quick: boolean; seed: number }, sizes: StudySizes, progress: Progress, skip: ReadonlySet<string>, started = Date.now()): Promise<StudyResult> {
  const { table } = loaded;
  const { schema } = table;
  const seed = opts.seed;

  const train = pick(loaded.train, sizes.maxTrainRows, seed, table.y);
  const test = pick(loaded.test, sizes.maxTestRows, seed + 1, table.y);
  const xtr = selectRows(table.x, train);
  const ytr = Uint8Array.from(train, (i) => table.y[i]!);
  const xte = selectRows(table.x, test);
  const yte = Uint8Array.from(test, (i) => table.y[i]!);
  if (new Set(ytr).size < 2) throw new VitrineError('validation_failed', 'the training data needs benign and malicious flows');
  const scaler = fitLogScaler(xtr);
  const s = { quick: opts.quick, seed, scaler, ...(opts.signal ? { signal: opts.signal } : {}) };
  let preprocessingMaxShift: number | null = null;
  const space = attackSpace(schema, scaler);
  const validity = newTally();

  // 1. Detectors.
  const detectors: { name: DetectorKind; model: Detector; seconds: number }[] = [];
  for (const [k, kind] of DETECTOR_KINDS.entries()) {
    await checkpoint(opts.signal);
    progress(0.05 + 0.15 * (k / DETECTOR_KINDS.length), `training ${kind}`);
    const t0 = Date.now();
    detectors.push({ name: kind, model: trainDetector(kind, xtr, ytr, s), seconds: (Date.now() - t0) / 1000 });
  }
  const detectorReports = detectors.map((d) => {
    const p = scoreDetector(d.model, xte);
    return { name: d.name, test: detectorMetrics(p, yte), train_seconds: d.seconds, p };
  });
  const surrogate = detectors.find((d) => d.name === 'mlp')!.model;
  const surrogateOracle: GradientOracle = (row) => probabilityGradientZ(surrogate, row, scaler);

  // Attack sample: malicious test flows, and as many benign ones for robust accuracy.
  const rng = new Random(seed + 5);
  const malIdx: number[] = [];
  const benIdx: number[] = [];
  for (let i = 0; i < xte.rows; i++) (yte[i] === 1 ? malIdx : benIdx).push(i);
  const malPick = rng.shuffle(malIdx).slice(0, sizes.attackRows);
  const benPick = rng.shuffle(benIdx).slice(0, sizes.attackRows);
  const xm = selectRows(xte, malPick);
  const xb = selectRows(xte, benPick);

  // 2. Attacks on each detector.
  const attacks: AttackSummary[] = [];
  if (!skip.has('attack'))
    for (const [k, d] of detectors.entries()) {
    await checkpoint(opts.signal);
    progress(0.2 + 0.25 * (k / detectors.length), `attacking ${d.name}`);
    const target: Scorer = (x) => scoreDetector(d.model, x);
    const grad = isDifferentiable(d.model) ? (row: Float64Array) => probabilityGradientZ(d.model, row, scaler) : undefined;
    const pb = target(xb);
    let bc = 0;
    for (const p of pb) bc += p < 0.5 ? 1 : 0;
    attacks.push(attackCurve(d.name, space, target, grad, [surrogateOracle], xm, bc, xb.rows, seed, validity));
  }

  // 3. Hardening and the alarm.
  let hardening: StudyReport['hardening'];
  let alarmReport: StudyReport['alarm'];
  const baseline: Ensemble = { members: ENSEMBLE_KINDS.map((kind) => detectors.find((d) => d.name === kind)!.model) };
  let ensemble = baseline;
  let alarm: Alarm | undefined;
  if (!skip.has('harden')) {
    await checkpoint(opts.signal);
    progress(0.45, 'adversarial training');
    const hardened = adversarialTraining(space, ENSEMBLE_KINDS, xtr, ytr, {
      ...s,
      maxPerRound: sizes.hardenPerRound,
      iters: sizes.hardenIters,
      onRound: (r) => progress(0.45 + 0.15 * ((r + 1) / ADV_ROUNDS), `adversarial training round ${r + 1}`),
    });
    validity.checked += hardened.tally.checked;
    validity.invalid += hardened.tally.invalid;
    validity.dropped += hardened.tally.dropped;
    validity.physical_valid += hardened.tally.physical_valid;
    validity.max_linf_excess = Math.max(validity.max_linf_excess, hardened.tally.max_linf_excess);
    ensemble = hardened.ensemble;
    preprocessingMaxShift = hardened.preprocessingShift;
    const evalEnsemble = (e: Ensemble, name: string, out?: FeatureMatrix[]): AttackSummary => {
      const target: Scorer = (x) => scoreEnsemble(e, x);
      const grads = e.members.filter(isDifferentiable).map((m) => (row: Float64Array) => probabilityGradientZ(m, row, scaler));
      const pb = target(xb);
      let bc = 0;
      for (const p of pb) bc += p < 0.5 ? 1 : 0;
      return attackCurve(name, space, target, undefined, [...grads, surrogateOracle], xm, bc, xb.rows, seed, validity, out);
    };
    progress(0.6, 'attacking the hardened ensemble');
    const advTest: FeatureMatrix[] = [];
    hardening = {
      baseline: evalEnsemble(baseline, 'baseline ensemble'),
      hardened: evalEnsemble(ensemble, 'hardened ensemble', advTest),
      baseline_test: detectorMetrics(scoreEnsemble(baseline, xte), yte),
      hardened_test: detectorMetrics(scoreEnsemble(ensemble, xte), yte),
    };
    progress(0.68, 'training the adversarial-input alarm');
    const cleanIdx = rng.shuffle(Array.from({ length: xtr.rows }, (_, i) => i)).slice(0, Math.max(300, hardened.adversarial.rows * 2));
    alarm = trainAlarm(selectRows(xtr, cleanIdx), hardened.adversarial, seed, opts.quick);
    const advX = advTest[0];
    const cleanScores = alarmScores(alarm, xte);
    let fp = 0;
    for (const v of cleanScores) fp += v >= alarm.threshold ? 1 : 0;
    let tp = 0;
    if (advX) for (const v of alarmScores(alarm, advX)) tp += v >= alarm.threshold ? 1 : 0;
    alarmReport = { threshold: alarm.threshold, clean_fpr_holdout: alarm.cleanFpr, test_fpr: fp / Math.max(1, xte.rows), test_tpr: advX && advX.rows > 0 ? tp / advX.rows : NaN, adversarial_test: advX?.rows ?? 0 };
  }

  // 4. Explanations.
  let explanations: StudyReport['explanations'];
  if (!skip.has('explain')) {
    await checkpoint(opts.signal);
    progress(0.72, 'explaining');
    const explainer = treeMember(ensemble);
    const names = schema.features.map((f) => f.name);
    const sum = new Float64Array(names.length);
    const n = Math.min(sizes.shapRows, xte.rows);
    const lrow = new Float64Array(names.length);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < names.length; k++) lrow[k] = Math.log1p(xte.data[i * xte.cols + k]!);
      const ex = explainer.explainRow(lrow);
      for (let k = 0; k < names.length; k++) sum[k] = sum[k]! + Math.abs(ex.values[k]!);
    }
    const summary = names.map((feature, k) => ({ feature, mean_abs_shap: sum[k]! / Math.max(1, n) })).sort((a, b) => b.mean_abs_shap - a.mean_abs_shap).slice(0, 15);
    const target: Scorer = (x) => scoreEnsemble(ensemble, x);
    const grads = ensemble.members.filter(isDifferentiable).map((m) => (row: Float64Array) => probabilityGradientZ(m, row, scaler));
    const flagged = Array.from({ length: xm.rows }, (_, i) => i).filter((i) => target(selectRows(xm, [i]))[0]! >= 0.5).slice(0, sizes.counterfactuals);
    const cfs = flagged.map((i) => {
      const flow = Float64Array.from(xm.data.subarray(i * xm.cols, (i + 1) * xm.cols));
      const before = target({ rows: 1, cols: xm.cols, data: flow })[0]!;
      const cf = counterfactual(space, target, grads, flow, 0.5, { seed });
      if (cf.found) {
        validity.checked++;
        if (!cf.valid) validity.invalid++;
        if (physicalViolations(minedFor(schema), schema, flow, cf.flow).length === 0) validity.physical_valid++;
      }
      return { found: cf.found, eps: cf.eps, changes: cf.changes.length, valid: cf.valid, score_before: before, score_after: cf.score };
    });
    explanations = { member: 'gbdt (hardened ensemble)', shap_summary: summary, counterfactuals: cfs };
  }

  // 5. Poisoning.
  let poisoning: PoisonStudy | undefined;
  if (!skip.has('poison')) {
    await checkpoint(opts.signal);
    progress(0.8, 'poisoning study');
    const ptr = Array.from(pick(Uint32Array.from({ length: xtr.rows }, (_, i) => i), sizes.poisonRows, seed + 2, ytr));
    poisoning = poisoningStudy(schema, selectRows(xtr, ptr), ptr.map((i) => ytr[i]!), xte, yte, s);
  }

  // 6. Drift.
  let drift: StudyReport['drift'];
  if (!skip.has('drift')) {
    await checkpoint(opts.signal);
    progress(0.9, 'drift study');
    const ds = driftSplit(table);
    if (!ds) drift = { available: false, reason: 'the data has no Monday-Wednesday training captures with both classes and Thursday-Friday test captures (no capture day or timestamp column)' };
    else {
      const dtr = pick(ds.train, sizes.maxTrainRows, seed, table.y);
      const dte = pick(ds.test, sizes.maxTestRows, seed, table.y);
      const m = trainDetector('gbdt', selectRows(table.x, dtr), Uint8Array.from(dtr, (i) => table.y[i]!), s);
      drift = {
        available: true,
        train_days: 'Monday-Wednesday',
        test_days: 'Thursday-Friday',
        random_split: detectorReports.find((d) => d.name === 'gbdt')!.test,
        temporal: detectorMetrics(scoreDetector(m, selectRows(table.x, dte)), Uint8Array.from(dte, (i) => table.y[i]!)),
      };
    }
  }

  progress(0.95, 'measuring the saved model');
  const absentFeatures = table.missingColumns.filter((n) => schema.features[schema.index.get(n) ?? -1]?.cls !== 'derived');
  const served = servedModel(
    { schema, scaler, ensemble, surrogate, ...(alarm ? { alarm } : {}), threshold: 0.5, trainedOn: loaded.name, trainingRows: xtr.rows, absentFeatures, hardened: hardening !== undefined },
    xte,
    yte,
    `${loaded.split === 'unsw_nb15_official_partition' ? 'UNSW-NB15 official partition' : 'stratified 70/30'} test split (${xte.rows} flows)`,
  );
  const model = served.model;
  progress(0.97, 'writing the report');
  const report: StudyReport = {
    format: 'vitrine-flowdet-report',
    version: 1,
    dataset: {
      name: loaded.name,
      schema: schema.id,
      format: table.format,
      rows: table.rows,
      malicious: table.y.reduce((a, v) => a + v, 0),
      split: loaded.split,
      train: xtr.rows,
      test: xte.rows,
      missing_columns: table.missingColumns,
      cleaning: table.cleaning,
      skipped_lines: table.skipped,
      categories: categoryCounts(table.category),
    },
    settings: { quick: opts.quick, seed, sizes, threshold: 0.5, adversarial_training: { eps: ADV_EPS, rounds: ADV_ROUNDS, budgets: 'uniform in 0.25-1 x eps per flow', preprocessing: 'frozen: every member of every round standardises log1p features with the clean training set\'s mean and sd', preprocessing_max_shift: preprocessingMaxShift } },
    detectors: detectorReports.map(({ name, test: t, train_seconds }) => ({ name, test: t, train_seconds })),
    curves: Object.fromEntries(
      detectorReports.map((d) => {
        const roc = rocOf(d.p, yte);
        return [d.name, { roc: { fpr: thin(roc.fpr), tpr: thin(roc.tpr) }, pr: { recall: thin(roc.recall), precision: thin(roc.precision) } }];
      }),
    ),
    attacks,
    ...(hardening ? { hardening } : {}),
    ...(alarmReport ? { alarm: alarmReport } : {}),
    ...(explanations ? { explanations } : {}),
    ...(poisoning ? { poisoning } : {}),
    ...(drift ? { drift } : {}),
    served_model: {
      members: ensemble.members.map((m) => m.kind),
      hardened: hardening !== undefined,
      trained_on: loaded.name,
      training_rows: xtr.rows,
      derived_features: 'recomputed from the base features for training and scoring',
      split: loaded.split,
      test: served.metrics,
      scored_through_saved_bundle: true,
      bundle_matches_in_memory: served.identical,
    },
    validity: { ...validity, max_linf_excess: validity.checked > 0 ? validity.max_linf_excess : 0, physical_valid_share: validity.checked > 0 ? validity.physical_valid / validity.checked : NaN },
    seconds: (Date.now() - started) / 1000,
  };
  progress(1, 'done');
  return { report, model };
}

/** The model as saved, and its clean test metrics measured by scoring the test split through the saved bundle text. */
function servedModel(base: StudyModel, xte: FeatureMatrix, yte: Uint8Array, split: string): { model: StudyModel; metrics: DetectorMetrics; identical: boolean } {
  const parsed = parseBundle(bundleText(base).text);
  const p = scoreEnsemble(parsed.ensemble, xte);
  const inMemory = scoreEnsemble(base.ensemble, xte);
  let identical = true;
  for (let i = 0; i < p.length; i++) if (p[i] !== inMemory[i]) identical = false;
  const m = detectorMetrics(p, yte);
  const test: CardMetrics = { split, n: m.n, accuracy: m.accuracy, precision: m.precision, recall: m.recall, f1: m.f1, fpr: m.fpr, roc_auc: Number.isFinite(m.roc_auc) ? m.roc_auc : null };
  return { model: { ...base, test }, metrics: m, identical };
}


function rocOf(p: Float64Array, y: Uint8Array): { fpr: Float64Array; tpr: Float64Array; recall: Float64Array; precision: Float64Array } {
  const r = rocCurve(p, y);
  const pr = prCurve(p, y);
  return { fpr: r.fpr, tpr: r.tpr, recall: pr.recall, precision: pr.precision };
}

/** The schema as /schema and the bundle describe it. */
export function describeSchema(schema: FlowTable['schema']): { dataset: string; version: number; features: { name: string; classes: string[]; formula?: string; range?: readonly [number, number]; vocabulary?: readonly string[] }[]; controllable: string[]; relations: { id: string; description: string }[]; notes: readonly string[]; tolerance: number; recorded_rel_tolerance: number } {
  return {
    dataset: schema.id,
    version: schema.version,
    features: schema.features.map((f) => ({ name: f.name, classes: classesOf(f), ...(f.formula ? { formula: f.formula } : {}), ...(f.range ? { range: f.range } : {}), ...(f.vocabulary ? { vocabulary: f.vocabulary } : {}) })),
    controllable: controllable(schema).map((k) => schema.features[k]!.name),
    relations: schema.relations.map((r) => ({ id: r.id, description: r.description })),
    notes: schema.notes,
    tolerance: 1e-6,
    recorded_rel_tolerance: schema.dataRelTolerance,
  };
}
