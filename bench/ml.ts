// `npm run bench -- ml`: boosted-tree training time and AUC, prediction and TreeSHAP rows/s, logistic regression and MLP fit and scoring, side by side with python3-xgboost and scikit-learn when installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  featureMatrix,
  predict,
  predictLogistic,
  predictMlp,
  rocAuc,
  splitDataset,
  syntheticBinary,
  trainGbdt,
  trainLogistic,
  trainMlp,
  TreeExplainer,
  type FeatureMatrix,
} from '../engines/core/ml/index.js';
import { median, medianRange } from './measures.js';

const ROWS = Number(process.env['ML_BENCH_ROWS'] ?? 20_000);
const COLS = Number(process.env['ML_BENCH_COLS'] ?? 50);
const ROUNDS = 100;
const SHAP_ROWS = 2_000;
const MLP_EPOCHS = 30;
// Every figure is taken REPEATS times on each side; the table prints the medians with their range (a single run on a
// shared machine moves by 10-40 %, and the peer's figures move as much as ours), and the ratios are of the medians.
const REPEATS = Math.max(1, Number(process.env['ML_BENCH_REPEATS'] ?? 3));
const PYTHON = '/usr/bin/python3'; // Debian's python3-xgboost and python3-sklearn import only here

/** CPU seconds (user + system) and wall seconds of fn; CPU is the fair measure on a shared machine. */
function timed<T>(fn: () => T): { value: T; cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1e6, wall };
}

// Float32-representable values, so that XGBoost (which reads float32) sees exactly the same numbers.
const raw = syntheticBinary(ROWS, COLS, 2024, { missing: 0.02 });
const x32 = Float32Array.from(raw.x.data);
const ds = { x: featureMatrix(ROWS, COLS, Float64Array.from(x32)), y: raw.y, featureNames: Array.from({ length: COLS }, (_, i) => `f${i}`) };
const { train, validation: test } = splitDataset(ds, 0.2, 7);
const params = { rounds: ROUNDS, eta: 0.1, maxDepth: 6, lambda: 1, minChildWeight: 1, maxBins: 256, baseScore: 0.5 };

console.log(`ml bench: ${train.x.rows} training and ${test.x.rows} test rows x ${COLS} features (2 % missing), ${ROUNDS} rounds, depth 6, eta 0.1, 256 bins; median (range) of ${REPEATS} measures on each side; node ${process.version}`);

/** REPEATS fits: the last one's value, and every fit's CPU and wall seconds (the first in the process includes compiling). */
function fits<T>(fn: () => T): { value: T; cpu: number[]; wall: number[] } {
  const cpu: number[] = [];
  const wall: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < REPEATS; i++) {
    const t = timed(fn);
    value = t.value;
    cpu.push(t.cpu);
    wall.push(t.wall);
  }
  return { value: value!, cpu, wall };
}

const fit = fits(() => trainGbdt(train, params));
const model = fit.value;
const probs = predict(model, test.x);
const auc = rocAuc(probs, test.y);
/** REPEATS rates, rows per CPU second of fn over `rows` rows, each repeated until 0.3 s of CPU (after one warm-up call). */
function rowsPerSecond(rows: number, fn: () => unknown): number[] {
  fn();
  const rates: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    let cpu = 0;
    let reps = 0;
    while (cpu < 0.3) {
      cpu += timed(fn).cpu;
      reps++;
    }
    rates.push((rows * reps) / cpu);
  }
  return rates;
}
const predictRowsPerSec = rowsPerSecond(test.x.rows, () => predict(model, test.x));
const shapX: FeatureMatrix = featureMatrix(SHAP_ROWS, COLS, test.x.data.slice(0, SHAP_ROWS * COLS));
const explainer = new TreeExplainer(model);
const shapRowsPerSec = rowsPerSecond(SHAP_ROWS, () => explainer.explainMatrix(shapX));
const lr = fits(() => trainLogistic(train, { l2: 1 }));
const lrAuc = rocAuc(predictLogistic(lr.value, test.x), test.y);
const lrRowsPerSec = rowsPerSecond(test.x.rows, () => predictLogistic(lr.value, test.x));
// scikit-learn's MLPClassifier with the same shape: 32 ReLU units, Adam at 1e-3, batches of 64, 30 epochs, no L2.
const mlpParams = { hidden: 32, epochs: MLP_EPOCHS, batchSize: 64, learningRate: 1e-3, l2: 0, seed: 1 };
const mlpFit = fits(() => trainMlp(train, mlpParams));
const mlpAuc = rocAuc(predictMlp(mlpFit.value, test.x), test.y);
const mlpRowsPerSec = rowsPerSecond(test.x.rows, () => predictMlp(mlpFit.value, test.x));

const ours = {
  trainCpu: fit.cpu,
  trainWall: fit.wall,
  auc,
  predictRowsPerSec,
  shapRowsPerSec,
  lrCpu: lr.cpu,
  lrAuc,
  lrRowsPerSec,
  mlpCpu: mlpFit.cpu,
  mlpAuc,
  mlpRowsPerSec,
};

/** The peer's figures: lists hold one entry per measure (REPEATS of them). */
interface Peer {
  xgboost?: string;
  sklearn?: string;
  train_cpu?: number[];
  train_wall?: number[];
  train_wall_all_threads?: number;
  threads?: number;
  auc?: number;
  predict_rows_per_sec?: number[];
  shap_rows_per_sec?: number[];
  lr_cpu?: number[];
  lr_auc?: number;
  lr_rows_per_sec?: number[];
  mlp_cpu?: number[];
  mlp_auc?: number;
  mlp_rows_per_sec?: number[];
  error?: string;
}

const PEER_SCRIPT = String.raw`
import json, sys, time, os
import numpy as np
out = {}
d = json.load(open(sys.argv[1]))
rows, cols = d["rows"], d["cols"]
X = np.fromfile(d["x"], dtype=np.float32).reshape(rows, cols)
y = np.asarray(d["y"], dtype=np.float32)
tr = np.asarray(d["train"], dtype=np.int64); te = np.asarray(d["test"], dtype=np.int64)
def rows_per_sec(rows, fn):
    # One rate per measure, as ours: calls repeated until 0.3 s of CPU, after one call to warm up.
    fn(); rates = []
    for _ in range(d["repeats"]):
        cpu = 0.0; reps = 0
        while cpu < 0.3:
            c0 = time.process_time(); fn(); cpu += time.process_time() - c0; reps += 1
        rates.append(rows * reps / cpu)
    return rates
try:
    import xgboost as xgb
    from sklearn.metrics import roc_auc_score
    out["xgboost"] = xgb.__version__
    p = {"objective": "binary:logistic", "tree_method": "hist", "eta": 0.1, "max_depth": 6, "lambda": 1, "min_child_weight": 1, "max_bin": 256, "base_score": 0.5, "nthread": 1}
    dtr = xgb.DMatrix(X[tr], label=y[tr], missing=np.nan); dte = xgb.DMatrix(X[te], missing=np.nan)
    out["train_cpu"], out["train_wall"] = [], []
    for _ in range(d["repeats"]):
        c0, w0 = time.process_time(), time.perf_counter()
        b = xgb.train(p, dtr, d["rounds"])
        out["train_cpu"].append(time.process_time() - c0); out["train_wall"].append(time.perf_counter() - w0)
    out["auc"] = float(roc_auc_score(y[te], b.predict(dte)))
    # A fresh DMatrix per call: XGBoost caches predictions of a DMatrix it has seen.
    out["predict_rows_per_sec"] = rows_per_sec(len(te), lambda: b.predict(xgb.DMatrix(X[te], missing=np.nan)))
    Xs = X[te][: d["shap_rows"]]
    out["shap_rows_per_sec"] = rows_per_sec(len(Xs), lambda: b.predict(xgb.DMatrix(Xs, missing=np.nan), pred_contribs=True))
    threads = os.cpu_count() or 1
    p["nthread"] = threads
    w0 = time.perf_counter(); xgb.train(p, dtr, d["rounds"]); out["train_wall_all_threads"] = time.perf_counter() - w0; out["threads"] = threads
except ImportError as e:
    out["error"] = "xgboost not importable: %s" % e
try:
    import sklearn
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler
    from sklearn.metrics import roc_auc_score
    out["sklearn"] = sklearn.__version__
    Xtr = np.nan_to_num(X[tr].astype(np.float64), nan=0.0); Xte = np.nan_to_num(X[te].astype(np.float64), nan=0.0)
    out["lr_cpu"] = []
    for _ in range(d["repeats"]):
        c0 = time.process_time()
        sc = StandardScaler().fit(Xtr); clf = LogisticRegression(C=1.0, max_iter=1000).fit(sc.transform(Xtr), y[tr])
        out["lr_cpu"].append(time.process_time() - c0)
    out["lr_auc"] = float(roc_auc_score(y[te], clf.predict_proba(sc.transform(Xte))[:, 1]))
    # Scoring includes the standardisation, as our models carry theirs.
    out["lr_rows_per_sec"] = rows_per_sec(len(te), lambda: clf.predict_proba(sc.transform(Xte)))
    import warnings
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier
    warnings.simplefilter("ignore", ConvergenceWarning)
    out["mlp_cpu"] = []
    for _ in range(d["repeats"]):
        c0 = time.process_time()
        sc2 = StandardScaler().fit(Xtr)
        mlp = MLPClassifier(hidden_layer_sizes=(32,), activation="relu", solver="adam", alpha=0.0, batch_size=64, learning_rate_init=1e-3, max_iter=d["mlp_epochs"], n_iter_no_change=d["mlp_epochs"] + 1, tol=0.0, shuffle=True, random_state=1).fit(sc2.transform(Xtr), y[tr])
        out["mlp_cpu"].append(time.process_time() - c0)
    out["mlp_auc"] = float(roc_auc_score(y[te], mlp.predict_proba(sc2.transform(Xte))[:, 1]))
    out["mlp_rows_per_sec"] = rows_per_sec(len(te), lambda: mlp.predict_proba(sc2.transform(Xte)))
except ImportError:
    pass
json.dump(out, sys.stdout)
`;

function runPeer(): Peer | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-ml-bench-'));
  try {
    const xFile = path.join(dir, 'x.f32');
    writeFileSync(xFile, Buffer.from(x32.buffer));
    const split = splitDataset(ds, 0.2, 7).indices;
    const spec = path.join(dir, 'spec.json');
    writeFileSync(spec, JSON.stringify({ x: xFile, rows: ROWS, cols: COLS, y: [...ds.y], train: [...split.train], test: [...split.validation], rounds: ROUNDS, shap_rows: SHAP_ROWS, repeats: REPEATS, mlp_epochs: MLP_EPOCHS }));
    const script = path.join(dir, 'peer.py');
    writeFileSync(script, PEER_SCRIPT);
    const r = spawnSync(PYTHON, [script, spec], { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    if (r.error || r.status !== 0) return undefined;
    return JSON.parse(r.stdout) as Peer;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const peer = runPeer();
const fmt = (v: number | undefined, digits = 2): string => (v === undefined ? 'n/a' : v.toFixed(digits));
/** "median (min-max)" of a list of measures. */
const cell = (v: readonly number[] | undefined, digits = 2): string =>
  v === undefined || v.length === 0 ? 'n/a' : medianRange(v, (x) => fmt(x, digits));
const ratio = (a: readonly number[] | undefined, b: readonly number[] | undefined): string => (a === undefined || b === undefined || !a.length || !b.length ? '' : `${(median(a) / median(b)).toFixed(2)}x`);

console.log('');
console.log(`| measure, median (range) | vitrine core/ml | ${peer?.xgboost ? `xgboost ${peer.xgboost} (1 thread)` : 'xgboost (not installed)'} | ratio of medians (ours / peer) |`);
console.log('|---|---|---|---|');
console.log(`| boosted training, CPU s | ${cell(ours.trainCpu)} | ${cell(peer?.train_cpu)} | ${ratio(ours.trainCpu, peer?.train_cpu)} |`);
console.log(`| boosted training, wall s | ${cell(ours.trainWall)} | ${cell(peer?.train_wall)} | ${ratio(ours.trainWall, peer?.train_wall)} |`);
console.log(`| test AUC | ${fmt(ours.auc, 4)} | ${fmt(peer?.auc, 4)} | ${peer?.auc === undefined ? '' : `${(ours.auc - peer.auc).toFixed(4)} difference`} |`);
console.log(`| prediction, rows/s (CPU) | ${cell(ours.predictRowsPerSec, 0)} | ${cell(peer?.predict_rows_per_sec, 0)} | ${ratio(ours.predictRowsPerSec, peer?.predict_rows_per_sec)} |`);
console.log(`| TreeSHAP, rows/s (CPU) | ${cell(ours.shapRowsPerSec, 0)} | ${cell(peer?.shap_rows_per_sec, 0)} | ${ratio(ours.shapRowsPerSec, peer?.shap_rows_per_sec)} |`);
console.log(`| logistic regression fit, CPU s | ${cell(ours.lrCpu)} | ${peer?.sklearn ? `${cell(peer.lr_cpu)} (scikit-learn ${peer.sklearn})` : 'n/a'} | ${ratio(ours.lrCpu, peer?.lr_cpu)} |`);
console.log(`| logistic regression AUC | ${fmt(ours.lrAuc, 4)} | ${fmt(peer?.lr_auc, 4)} | |`);
console.log(`| logistic regression scoring, rows/s (CPU) | ${cell(ours.lrRowsPerSec, 0)} | ${cell(peer?.lr_rows_per_sec, 0)} | ${ratio(ours.lrRowsPerSec, peer?.lr_rows_per_sec)} |`);
console.log(`| MLP fit (32 ReLU, Adam, ${MLP_EPOCHS} epochs), CPU s | ${cell(ours.mlpCpu)} | ${cell(peer?.mlp_cpu)} | ${ratio(ours.mlpCpu, peer?.mlp_cpu)} |`);
console.log(`| MLP AUC | ${fmt(ours.mlpAuc, 4)} | ${fmt(peer?.mlp_auc, 4)} | |`);
console.log(`| MLP scoring, rows/s (CPU) | ${cell(ours.mlpRowsPerSec, 0)} | ${cell(peer?.mlp_rows_per_sec, 0)} | ${ratio(ours.mlpRowsPerSec, peer?.mlp_rows_per_sec)} |`);
console.log(`\nboosted fits in order, CPU s (the first in the process includes compiling): ours ${ours.trainCpu.map((c) => fmt(c, 3)).join(' / ')}; xgboost ${peer?.train_cpu?.map((c) => fmt(c, 3)).join(' / ') ?? 'n/a'}`);
console.log('\nratios: times ours / peer (below 1 is faster); rates ours / peer (above 1 is faster).');
if (peer?.train_wall_all_threads !== undefined) console.log(`\nxgboost with all ${peer.threads} threads: ${fmt(peer.train_wall_all_threads)} s wall (ours is single-threaded).`);
if (!peer) console.log('\n/usr/bin/python3 with xgboost and scikit-learn is not available: no peer comparison.');
else if (peer.error) console.log(`\n${peer.error}`);
