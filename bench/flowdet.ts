// `npm run bench -- flowdet`: detector training time, scoring throughput and quality vs python3-xgboost / scikit-learn
// (bench/flowdet_peer.py on the same split, exported as CSV), scoring flows/s with and without explanation, attack throughput.
// FLOWDET_BENCH_DATA (any of synthetic,cicids,unsw,unsw-raw) and FLOWDET_BENCH_MODELS (any of gbdt,random_forest,logistic,mlp)
// narrow a run to those datasets and models, FLOWDET_BENCH_PEERS (xgboost, sk_hist_gb, sk_gb, ...) to those peers (the peer script then trains only their peers; attacks and the served
// scoring table need gbdt and mlp, and run only when every model does). FLOWDET_BENCH_REPEATS (default 3): fits and scoring
// measures per model on each side; the tables print medians with their range, and the ratios are of the medians.
// Scoring is printed twice: end to end (raw flows through scoreDetector, log1p of every cell included) and on log
// features (the model alone on logFeatures of the test split, what the peers are handed; scikit-learn's logistic
// regression and MLP then with their StandardScaler's transform timed, as our models standardise inside).
// Logistic regression's train time is also compared with a scikit-learn Pipeline (FunctionTransformer(np.log1p),
// StandardScaler, LogisticRegression) fitted on the raw features, which times what our train column does; the row
// with scikit-learn handed standardised log features stays beside it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { featureMatrix, predict, predictMlp, selectRows, type FeatureMatrix } from '../engines/core/ml/index.js';
import { fitLogistic, predictLogistic } from '../engines/core/ml/linear.js';
import { adaptiveAttack, attackSpace, blackBoxAttack, gradientAttack } from '../engines/flowdet/attacks/attacks.js';
import { bundleText, parseBundle } from '../engines/flowdet/bundle.js';
import { loadData, type LoadedData } from '../engines/flowdet/data/datasets.js';
import { fitLogScaler, logFeatures, probabilityGradientZ, scoreDetector, trainDetector, type Detector, type DetectorKind } from '../engines/flowdet/detectors/models.js';
import { scoreFlows } from '../engines/flowdet/score.js';
import { detectorMetrics } from '../engines/flowdet/studies/metrics.js';
import { studyOnData, studySizes } from '../engines/flowdet/studies/run.js';
import { CORPORA_DIR } from '../test/corpora.js';
import { median, medianRange, timed } from './_measures.js';

const PYTHON = '/usr/bin/python3';

const listEnv = (name: string): Set<string> | undefined => {
  const v = process.env[name];
  return v ? new Set(v.split(',').map((s) => s.trim())) : undefined;
};
const ONLY_DATA = listEnv('FLOWDET_BENCH_DATA');
const ONLY_MODELS = listEnv('FLOWDET_BENCH_MODELS');
const KINDS = (['gbdt', 'random_forest', 'logistic', 'mlp'] as const).filter((k) => !ONLY_MODELS || ONLY_MODELS.has(k));

const PEER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'flowdet_peer.py');

interface PeerModel {
  readonly train_cpu: number;
  readonly score_cpu: number;
  readonly rows: number;
  /** Every fit's and every scoring measure's figure (peer scripts before these lists give only the totals above). */
  readonly train_cpus?: readonly number[];
  readonly score_rates?: readonly number[];
  /** Scoring from the log features as our models take them (logistic and MLP: with the StandardScaler's transform timed too). */
  readonly score_rates_log?: readonly number[];
  /** The solver's iterations (n_iter_: L-BFGS iterations, MLP epochs). */
  readonly n_iter?: number;
  /** Logistic regression's weights in standardised space and intercept (coef_, intercept_). */
  readonly coef?: readonly number[];
  readonly intercept?: number;
  /** Logistic regression as a Pipeline from the raw features (log1p and StandardScaler inside the timed fit). */
  readonly pipeline_train_cpus?: readonly number[];
  readonly pipeline_n_iter?: number;
  readonly pipeline_accuracy?: number;
  readonly pipeline_f1?: number;
  readonly pipeline_fpr?: number;
  readonly accuracy: number;
  readonly f1: number;
  readonly fpr: number;
}
type PeerOut = { readonly absent?: readonly string[]; readonly xgboost_version?: string; readonly sklearn_version?: string } & Readonly<Record<string, unknown>>;

/** Our detectors against the peer models that match them (same data, same parameters where the libraries have them). */
const PEERS: Readonly<Record<DetectorKind, readonly { key: string; label: string }[]>> = {
  gbdt: [
    { key: 'xgboost', label: 'xgboost hist' },
    { key: 'sk_hist_gb', label: 'sklearn HistGradientBoosting' },
    { key: 'sk_gb', label: 'sklearn GradientBoosting (exact)' },
  ],
  random_forest: [{ key: 'sk_random_forest', label: 'sklearn RandomForest' }],
  logistic: [{ key: 'sk_logistic', label: 'sklearn LogisticRegression' }],
  mlp: [{ key: 'sk_mlp', label: 'sklearn MLPClassifier' }],
};

function peerModel(out: PeerOut | undefined, key: string): PeerModel | undefined {
  const v = out?.[key];
  return typeof v === 'object' && v !== null && 'train_cpu' in v ? (v as PeerModel) : undefined;
}

/** Writes the split as two CSVs (the same float32-rounded log features both sides see) and runs the peer script. */
function peer(x: FeatureMatrix, names: readonly string[], y: ArrayLike<number>, train: Uint32Array, test: Uint32Array): { out?: PeerOut; why?: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-bench-'));
  try {
    const write = (file: string, rows: Uint32Array): void => {
      const lines = [[...names.map((n) => n.replace(/[,\s]+/g, '_')), 'label'].join(',')];
      for (const i of rows) {
        const cells: string[] = [];
        for (let c = 0; c < x.cols; c++) cells.push(x.data[i * x.cols + c]!.toPrecision(9));
        cells.push(String(y[i]));
        lines.push(cells.join(','));
      }
      writeFileSync(file, lines.join('\n') + '\n');
    };
    write(path.join(dir, 'train.csv'), train);
    write(path.join(dir, 'test.csv'), test);
    const r = spawnSync(PYTHON, [PEER_SCRIPT, path.join(dir, 'train.csv'), path.join(dir, 'test.csv')], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      env: { ...process.env, FLOWDET_PEER_MODELS: KINDS.join(','), FLOWDET_BENCH_REPEATS: String(REPEATS), OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1' },
    });
    if (r.error) return { why: `${PYTHON} not runnable` };
    if (r.status !== 0) return { why: /No module named '?numpy/.test(r.stderr) ? 'numpy not installed' : `peer script failed (exit ${String(r.status)})` };
    return { out: JSON.parse(r.stdout) as PeerOut };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const f = (v: number | undefined, d = 3): string => (v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(d));

/** Fits and scoring measures taken per model on each side; the tables print their medians and spreads. */
const REPEATS = Math.max(1, Number(process.env['FLOWDET_BENCH_REPEATS'] ?? 3));
/** CPU seconds of each scoring measure (the test split scored again until this much has passed). */
const SCORE_CPU = 0.3;

/** "median (min-max)" of a list of measures, `d` decimals. */
function spread(v: readonly number[], d: number): string {
  return medianRange(v, (x) => f(x, d));
}

async function benchData(label: string, loaded: LoadedData): Promise<void> {
  const { table } = loaded;
  // Both sides get the same float32-rounded log1p features.
  const lx = logFeatures(table.x);
  const x32 = featureMatrix(lx.rows, lx.cols, Float64Array.from(Float32Array.from(lx.data)));
  const raw = featureMatrix(table.x.rows, table.x.cols, x32.data.map((v) => Math.expm1(v)));
  const xtr = selectRows(raw, loaded.train);
  const ytr = Array.from(loaded.train, (i) => table.y[i]!);
  const xte = selectRows(raw, loaded.test);
  const yte = Array.from(loaded.test, (i) => table.y[i]!);
  console.log(`\n## ${label}: ${xtr.rows} train / ${xte.rows} test flows x ${table.x.cols} features (split ${loaded.split})\n`);
  const names = table.schema.features.map((x) => x.name);
  const peerRun = peer(x32, names, table.y, loaded.train, loaded.test);
  const p = peerRun.out;
  console.log(`| model | train CPU s, median (range) of ${REPEATS} | train time ours/peer | scoring flows/s (CPU) end to end, median (range) | end to end ours/peer | scoring flows/s on log features | on log features ours/peer | accuracy | F1 | FPR |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const models: Partial<Record<DetectorKind, ReturnType<typeof trainDetector>>> = {};
  const fitsInOrder: string[] = [];
  const lxte = logFeatures(xte);
  const solver: string[] = [];
  for (const kind of KINDS) {
    // Every fit is the same model (fixed seed); the first of a kind in the process also pays V8's compiling.
    const fits: number[] = [];
    let model: ReturnType<typeof trainDetector> | undefined;
    for (let r = 0; r < REPEATS; r++) {
      const t = timed(() => trainDetector(kind, xtr, ytr, { quick: false, seed: 0 }));
      model = t.value;
      fits.push(t.cpu);
    }
    models[kind] = model!;
    fitsInOrder.push(`${kind} ${fits.map((c) => f(c, 3)).join(' / ')}`);
    // Scoring: each measure repeats the whole test split until SCORE_CPU of CPU, so the fast models are measured over
    // more than a few milliseconds. End to end: raw flows through scoreDetector (log1p of every cell included). On log
    // features: the model alone on logFeatures(test split) computed beforehand, what the peers are handed.
    const measure = (score: () => Float64Array): { rates: number[]; scores: Float64Array } => {
      const rates: number[] = [];
      let scores: Float64Array = new Float64Array(0);
      for (let r = 0; r < REPEATS; r++) {
        let reps = 0;
        let scoreCpu = 0;
        while (scoreCpu < SCORE_CPU || reps < 1) {
          const s = timed(score);
          scores = s.value;
          scoreCpu += s.cpu;
          reps++;
        }
        rates.push((xte.rows * reps) / scoreCpu);
      }
      return { rates, scores };
    };
    const { rates, scores } = measure(() => scoreDetector(model!, xte));
    const onLog = measure(() => scoreOnLogFeatures(model!, lxte));
    for (let i = 0; i < scores.length; i++) if (!Object.is(scores[i], onLog.scores[i])) throw new Error(`${kind}: scoring on log features differs from scoreDetector at row ${i}`);
    const trainMedian = median(fits);
    const rateMedian = median(rates);
    const logMedian = median(onLog.rates);
    const m = detectorMetrics(scores, yte);
    console.log(`| **ours ${kind}** | ${spread(fits, 3)} | | ${spread(rates, 0)} | | ${spread(onLog.rates, 0)} | | ${f(m.accuracy, 4)} | ${f(m.f1, 4)} | ${f(m.fpr, 4)} |`);
    if (kind === 'logistic') {
      // On the float32 log features the peer is handed (logFeatures of their expm1 can differ from them in the last bit),
      // so the solvers and the weights compare on the same input.
      const peerX = selectRows(x32, loaded.train);
      const fit = fitLogistic({ x: peerX, y: ytr }, { l2: 1 });
      // Like for like: our fit alone on the log features the peer is handed (no log1p of the training cells), timed as
      // many times as the fits above, beside scikit-learn's fit on the same (standardised) features.
      const alone: number[] = [];
      for (let r = 0; r < REPEATS; r++) alone.push(timed(() => fitLogistic({ x: peerX, y: ytr }, { l2: 1 })).cpu);
      const sk = peerModel(p, 'sk_logistic');
      // Both in standardised space (population standard deviations of the same features).
      const gapOf = (m: typeof fit.model): string => {
        if (!sk?.coef || sk.intercept === undefined) return '';
        let worst = Math.abs(m.intercept - sk.intercept);
        sk.coef.forEach((c, j) => (worst = Math.max(worst, Math.abs(m.weights[j]! - c))));
        return `, max |w_ours - w_sklearn| ${worst.toExponential(2)} (weights and intercept)`;
      };
      const gap = gapOf(fit.model);
      // SciPy's line search (not the default): its path and weights beside the default's.
      const mt = fitLogistic({ x: peerX, y: ytr }, { l2: 1, lineSearch: 'more-thuente' });
      // Its test figures as the detector would be trained with it (on logFeatures of the raw training flows).
      const mtMetrics = detectorMetrics(predictLogistic(fitLogistic({ x: logFeatures(xtr), y: ytr }, { l2: 1, lineSearch: 'more-thuente' }).model, lxte), yte);
      const mtLine = `with lineSearch 'more-thuente' ${mt.iterations} iterations, ${mt.evaluations} evaluations${gapOf(mt.model)}, test accuracy ${f(mtMetrics.accuracy, 4)} F1 ${f(mtMetrics.f1, 4)} FPR ${f(mtMetrics.fpr, 4)}`;
      const skFits = sk?.train_cpus ?? (sk ? [sk.train_cpu] : []);
      const ratio = skFits.length > 0 ? ` (${(median(alone) / median(skFits)).toFixed(2)}x scikit-learn's fit)` : '';
      solver.push(`ours logistic (on the peer's features) ${fit.iterations} L-BFGS iterations, ${fit.evaluations} loss-and-gradient evaluations${gap}; that fit alone, without the log1p of the training cells our train column includes, ${spread(alone, 3)} s CPU${ratio}; ${mtLine}`);
    }
    for (const { key, label } of PEERS[kind]) {
      const q = peerModel(p, key);
      if (!q) continue;
      const qFits = q.train_cpus ?? [q.train_cpu];
      const qRates = q.score_rates ?? [q.rows / Math.max(q.score_cpu, 1e-6)];
      const qLog = q.score_rates_log ?? qRates;
      if (q.n_iter !== undefined) solver.push(`${label} ${q.n_iter} ${kind === 'mlp' ? 'epochs' : 'iterations'}`);
      console.log(`| ${label} | ${spread(qFits, 3)} | ${(trainMedian / median(qFits)).toFixed(2)}x | ${spread(qRates, 0)} | ${(rateMedian / median(qRates)).toFixed(2)}x | ${spread(qLog, 0)} | ${(logMedian / median(qLog)).toFixed(2)}x | ${f(q.accuracy, 4)} | ${f(q.f1, 4)} | ${f(q.fpr, 4)} |`);
      const pipe = q.pipeline_train_cpus;
      if (pipe && pipe.length > 0) {
        // The same train work as ours (raw features in, log1p and standardisation timed): scoring not measured.
        console.log(`| ${label} in a Pipeline from raw features (log1p, StandardScaler timed) | ${spread(pipe, 3)} | ${(trainMedian / median(pipe)).toFixed(2)}x | | | | | ${f(q.pipeline_accuracy, 4)} | ${f(q.pipeline_f1, 4)} | ${f(q.pipeline_fpr, 4)} |`);
        if (q.pipeline_n_iter !== undefined) solver.push(`${label} in the Pipeline ${q.pipeline_n_iter} iterations`);
      }
    }
  }
  if (solver.length > 0) console.log(`\nsolvers: ${solver.join('; ')}.`);
  console.log(`\nour fits in order, CPU s (the first of a kind in the process includes compiling): ${fitsInOrder.join('; ')}`);
  // Our detectors take raw flows and apply log1p inside scoreDetector; the peers get the log features ready made.
  let logReps = 0;
  let logCpu = 0;
  while (logCpu < 0.3) {
    logCpu += timed(() => logFeatures(xte)).cpu;
    logReps++;
  }
  console.log(`\nlog1p of the test split alone: ${f((xte.rows * logReps) / logCpu, 0)} flows/s (inside our end-to-end column, not in the on-log-features one; the peers are handed log features, and for logistic regression and the MLP standardised ones in their end-to-end column, while their on-log-features column times scikit-learn's StandardScaler transform too, as our models standardise inside).`);
  if (p) {
    const absent = p.absent?.length ? `; absent: ${p.absent.join(', ')} (their rows skipped)` : '';
    console.log(`\npeers (${PYTHON}, bench/flowdet_peer.py, 1 thread): xgboost ${p.xgboost_version ?? 'absent'}, scikit-learn ${p.sklearn_version ?? 'absent'}${absent}. Same rows and float32 log1p features; same parameters where the library has them (150 rounds depth 6 eta 0.15; 60 trees depth 10, 0.6 features; C 1; 32 hidden, 30 epochs). Each side fits every model ${REPEATS} times and takes ${REPEATS} scoring measures (the whole test split per call, repeated until ${SCORE_CPU} s of CPU); the ratios are of the medians. "train time ours/peer" above 1 means ours is slower; "scoring speed ours/peer" above 1 means ours is faster.`);
  } else console.log(`\npeers skipped: ${peerRun.why ?? 'unavailable'} (no peer rows).`);

  if (KINDS.length < 4) return;
  // Attack throughput on 200 malicious test flows at eps 1.
  const scaler = fitLogScaler(xtr);
  const space = attackSpace(table.schema, scaler);
  const mal = Array.from({ length: xte.rows }, (_, i) => i).filter((i) => yte[i] === 1).slice(0, 200);
  const xm = selectRows(xte, mal);
  const gb = models.gbdt!;
  const mlp = models.mlp!;
  const oracle = (row: Float64Array) => probabilityGradientZ(mlp, row, scaler);
  const g = timed(() => gradientAttack(space, oracle, (m) => scoreDetector(mlp, m), xm, 1));
  const b = timed(() => blackBoxAttack(space, (m) => scoreDetector(gb, m), xm, 1));
  const a = timed(() => adaptiveAttack(space, { score: (m) => scoreDetector(gb, m) }, [oracle], xm, 1));
  console.log(`\nattack throughput (${xm.rows} flows, eps 1): gradient on the MLP ${f(xm.rows / g.cpu, 0)} flows/s; black-box (100 queries) on boosted trees ${f(xm.rows / b.cpu, 0)} flows/s; adaptive on boosted trees ${f(xm.rows / a.cpu, 0)} flows/s (CPU)`);
}

/** The detector's model alone on features already through logFeatures (what the peers are handed): the same probabilities as scoreDetector on the raw flows. */
function scoreOnLogFeatures(d: Detector, lx: FeatureMatrix): Float64Array {
  switch (d.kind) {
    case 'gbdt':
      return predict(d.model, lx);
    case 'random_forest': {
      const p = predict(d.model, lx);
      for (let i = 0; i < p.length; i++) p[i] = Math.min(1, Math.max(0, p[i]!));
      return p;
    }
    case 'logistic':
      return predictLogistic(d.model, lx);
    case 'mlp':
      return predictMlp(d.model, lx);
  }
}

async function benchScoring(): Promise<void> {
  const loaded = await loadData('synthetic', { syntheticRows: 5000, seed: 0 });
  const { model } = await studyOnData(loaded, { data: 'synthetic', quick: true, seed: 0 }, studySizes(true), () => {}, new Set(['attack', 'explain', 'poison', 'drift']));
  const bundle = parseBundle(bundleText(model).text);
  const names = loaded.table.schema.features.map((n) => n.name);
  const flows = Array.from(loaded.test).slice(0, 1000).map((i) => Object.fromEntries(names.map((n, k) => [n, loaded.table.x.data[i * names.length + k]!])));
  const plain = timed(() => scoreFlows(bundle, { flows }));
  const flagged = flows.filter((_, i) => plain.value.results[i]!.verdict === 'malicious').slice(0, 50);
  const benign = flows.filter((_, i) => plain.value.results[i]!.verdict === 'benign').slice(0, 50);
  const ex = timed(() => scoreFlows(bundle, { explain: true, flows: benign }));
  const exm = timed(() => scoreFlows(bundle, { explain: true, flows: flagged }));
  console.log(`\n## Scoring (hardened ensemble gbdt + mlp, synthetic model)\n`);
  console.log(`| request | flows/s (CPU) |`);
  console.log('|---|---|');
  console.log(`| 1000 flows, no explanation | ${f(flows.length / plain.cpu, 0)} |`);
  console.log(`| explain, benign verdicts (SHAP only) | ${f(benign.length / ex.cpu, 0)} |`);
  console.log(`| explain, malicious verdicts (SHAP + counterfactual) | ${f(flagged.length / exm.cpu, 1)} |`);
}

console.log(`flowdet bench; node ${process.version}; CPU seconds (best measure on a shared machine)`);
const want = (key: string): boolean => !ONLY_DATA || ONLY_DATA.has(key);
if (want('synthetic')) await benchData('synthetic (20,000 flows)', await loadData('synthetic', { syntheticRows: 20_000, seed: 0 }));
if (want('cicids')) await benchData('CICIDS2017 labelled sample (corpus)', await loadData(path.join(CORPORA_DIR, 'flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv')));
if (want('unsw')) await benchData('UNSW-NB15 partition-1 sample (corpus)', await loadData(path.join(CORPORA_DIR, 'flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv')));
if (want('unsw-raw')) await benchData('UNSW-NB15 raw 49-column sample (corpus)', await loadData(path.join(CORPORA_DIR, 'flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv')));
if (KINDS.length === 4 && !ONLY_DATA) await benchScoring();
