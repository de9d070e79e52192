// `npm run bench -- ml`: boosted-tree training time and AUC, prediction and TreeSHAP rows/s, logistic regression and MLP fit and scoring, side by side with python3-xgboost and scikit-learn when installed.
// ML_BENCH_PARTS (comma-separated: boosted, linear, mlp; default all) narrows a run.
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
  trainMlp,
  TreeExplainer,
  type FeatureMatrix,
} from '../engines/core/ml/index.js';
import { fitLogistic } from '../engines/core/ml/linear.js';
import { median, medianRange, timed } from './_measures.js';

const ROWS = Number(process.env['ML_BENCH_ROWS'] ?? 20_000);
const COLS = Number(process.env['ML_BENCH_COLS'] ?? 50);
const ROUNDS = 100;
const MLP_EPOCHS = 30;
// Every figure is taken REPEATS times on each side; the table prints the medians with their range (a single run on a
// shared machine moves by 10-40 %, and the peer's figures move as much as ours), and the ratios are of the medians.
const REPEATS = Math.max(1, Number(process.env['ML_BENCH_REPEATS'] ?? 3));
const PYTHON = '/usr/bin/python3'; // Debian's python3-xgboost and python3-sklearn import only here
// The logistic regression and MLP measures (fits and rates) each repeat their call until this much CPU has passed, after
// one warm-up call on each side: a logistic fit is some 30 ms, so a single fit per measure moved with the machine.
const MIN_CPU = 0.5;
const PARTS = new Set((process.env['ML_BENCH_PARTS'] ?? 'boosted,linear,mlp').split(',').map((p) => p.trim()));


// Float32-representable values, so that XGBoost (which reads float32) sees exactly the same numbers.
const raw = syntheticBinary(ROWS, COLS, 2024, { missing: 0.02 });
const x32 = Float32Array.from(raw.x.data);
const ds = { x: featureMatrix(ROWS, COLS, Float64Array.from(x32)), y: raw.y, featureNames: Array.from({ length: COLS }, (_, i) => `f${i}`) };
const { train, validation: test } = splitDataset(ds, 0.2, 7);
const SHAP_ROWS = Math.min(2_000, test.x.rows);
const params = { rounds: ROUNDS, eta: 0.1, maxDepth: 6, lambda: 1, minChildWeight: 1, maxBins: 256, baseScore: 0.5 };

console.log(`ml bench: ${train.x.rows} training and ${test.x.rows} test rows x ${COLS} features (2 % missing), ${ROUNDS} rounds, depth 6, eta 0.1, 256 bins; median (range) of ${REPEATS} measures on each side; parts ${[...PARTS].join(', ')}; node ${process.version}`);

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

/** `measures` figures of CPU seconds per call of fn, each repeating fn until MIN_CPU, after a warm-up call when `warm` (its time is `first`). */
function perCall<T>(fn: () => T, measures: number, warm: boolean): { value: T; cpu: number[]; first: number | undefined } {
  const first = warm ? timed(fn) : undefined;
  let value = first?.value;
  const cpu: number[] = [];
  for (let r = 0; r < measures; r++) {
    let spent = 0;
    let calls = 0;
    while (spent < MIN_CPU) {
      const t = timed(fn);
      value = t.value;
      spent += t.cpu;
      calls++;
    }
    cpu.push(spent / calls);
  }
  return { value: value!, cpu, first: first?.cpu };
}

/** Rows per CPU second of fn over `rows` rows, REPEATS measures each repeating fn until MIN_CPU (after a warm-up call). */
function rowsPerSecond(rows: number, fn: () => unknown): number[] {
  return perCall(fn, REPEATS, true).cpu.map((seconds) => rows / seconds);
}

const boosted = PARTS.has('boosted')
  ? (() => {
      const fit = fits(() => trainGbdt(train, params));
      const model = fit.value;
      const shapX: FeatureMatrix = featureMatrix(SHAP_ROWS, COLS, test.x.data.slice(0, SHAP_ROWS * COLS));
      const explainer = new TreeExplainer(model);
      return {
        trainCpu: fit.cpu,
        trainWall: fit.wall,
        auc: rocAuc(predict(model, test.x), test.y),
        predictRowsPerSec: rowsPerSecond(test.x.rows, () => predict(model, test.x)),
        shapRowsPerSec: rowsPerSecond(SHAP_ROWS, () => explainer.explainMatrix(shapX)),
      };
    })()
  : undefined;
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
  lr_first?: number;
  lr_iterations?: number;
  lr_auc?: number;
  lr_rows_per_sec?: number[];
  mlp_cpu?: number[];
  mlp_first?: number;
  mlp_auc?: number;
  mlp_rows_per_sec?: number[];
  blas?: string;
  error?: string;
}

const PEER_SCRIPT = String.raw`
import json, sys, time, os
import numpy as np
out = {}
d = json.load(open(sys.argv[1]))
parts = set(d["parts"])
# OpenBLAS takes its generic Prescott kernel on a processor its build does not know (0.3.21 on recent Xeons). Then the
# script runs again with the newest kernel the processor's flags support, unless OPENBLAS_CORETYPE is set already.
if parts & {"linear", "mlp"} and not os.environ.get("OPENBLAS_CORETYPE"):
    try:
        from threadpoolctl import threadpool_info
        if any(i.get("internal_api") == "openblas" and i.get("architecture") == "Prescott" for i in threadpool_info()):
            flags = set()
            for line in open("/proc/cpuinfo"):
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split()); break
            core = "Cooperlake" if {"avx512f", "avx512bw", "avx512vl", "avx512_bf16"} <= flags else "SkylakeX" if {"avx512f", "avx512bw", "avx512vl"} <= flags else "Haswell" if {"avx2", "fma"} <= flags else None
            if core:
                os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, OPENBLAS_CORETYPE=core, VITRINE_BLAS_DETECTED="Prescott"))
    except (ImportError, OSError):
        pass
rows, cols = d["rows"], d["cols"]
X = np.fromfile(d["x"], dtype=np.float32).reshape(rows, cols)
y = np.asarray(d["y"], dtype=np.float32)
tr = np.asarray(d["train"], dtype=np.int64); te = np.asarray(d["test"], dtype=np.int64)
def per_call(fn):
    # As ours: one warm-up call, then one measure of CPU seconds per call each repeating fn until min_cpu.
    c0 = time.process_time(); value = fn(); first = time.process_time() - c0; measures = []
    for _ in range(d["repeats"]):
        cpu = 0.0; calls = 0
        while cpu < d["min_cpu"]:
            c0 = time.process_time(); value = fn(); cpu += time.process_time() - c0; calls += 1
        measures.append(cpu / calls)
    return value, measures, first
def rows_per_sec(rows, fn):
    return [rows / s for s in per_call(fn)[1]]
if "boosted" in parts:
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
if parts & {"linear", "mlp"}:
    try:
        import sklearn
        from sklearn.preprocessing import StandardScaler
        from sklearn.metrics import roc_auc_score
        out["sklearn"] = sklearn.__version__
        try:
            from threadpoolctl import threadpool_info
            out["blas"] = ", ".join("%s %s (%s, %d thread%s)" % (i.get("internal_api"), i.get("version"), i.get("architecture", "?"), i.get("num_threads", 0), "" if i.get("num_threads") == 1 else "s") for i in threadpool_info() if i.get("user_api") == "blas")
            if os.environ.get("VITRINE_BLAS_DETECTED"):
                out["blas"] += "; OPENBLAS_CORETYPE set from the processor's flags (it detected %s, its generic kernel)" % os.environ["VITRINE_BLAS_DETECTED"]
        except ImportError:
            pass
        Xtr = np.nan_to_num(X[tr].astype(np.float64), nan=0.0); Xte = np.nan_to_num(X[te].astype(np.float64), nan=0.0)
        if "linear" in parts:
            from sklearn.linear_model import LogisticRegression
            def lr_fit():
                sc = StandardScaler().fit(Xtr)
                return sc, LogisticRegression(C=1.0, solver="lbfgs", tol=1e-4, max_iter=1000).fit(sc.transform(Xtr), y[tr])
            (sc, clf), out["lr_cpu"], out["lr_first"] = per_call(lr_fit)
            out["lr_iterations"] = int(clf.n_iter_[0])
            out["lr_auc"] = float(roc_auc_score(y[te], clf.predict_proba(sc.transform(Xte))[:, 1]))
            # Scoring includes the standardisation, as our models carry theirs.
            out["lr_rows_per_sec"] = rows_per_sec(len(te), lambda: clf.predict_proba(sc.transform(Xte)))
        if "mlp" in parts:
            import warnings
            from sklearn.exceptions import ConvergenceWarning
            from sklearn.neural_network import MLPClassifier
            warnings.simplefilter("ignore", ConvergenceWarning)
            def mlp_fit():
                sc2 = StandardScaler().fit(Xtr)
                return sc2, MLPClassifier(hidden_layer_sizes=(32,), activation="relu", solver="adam", alpha=0.0, batch_size=64, learning_rate_init=1e-3, max_iter=d["mlp_epochs"], n_iter_no_change=d["mlp_epochs"] + 1, tol=0.0, shuffle=True, random_state=1).fit(sc2.transform(Xtr), y[tr])
            (sc2, mlp), out["mlp_cpu"], out["mlp_first"] = per_call(mlp_fit)
            out["mlp_auc"] = float(roc_auc_score(y[te], mlp.predict_proba(sc2.transform(Xte))[:, 1]))
            out["mlp_rows_per_sec"] = rows_per_sec(len(te), lambda: mlp.predict_proba(sc2.transform(Xte)))
    except ImportError:
        pass
json.dump(out, sys.stdout)
`;

/** One run of the peer script over `parts`, `repeats` measures of each figure. */
function runPeer(parts: readonly string[], repeats: number): Peer | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-ml-bench-'));
  try {
    const xFile = path.join(dir, 'x.f32');
    writeFileSync(xFile, Buffer.from(x32.buffer));
    const split = splitDataset(ds, 0.2, 7).indices;
    const spec = path.join(dir, 'spec.json');
    writeFileSync(spec, JSON.stringify({ x: xFile, rows: ROWS, cols: COLS, y: [...ds.y], train: [...split.train], test: [...split.validation], rounds: ROUNDS, shap_rows: SHAP_ROWS, repeats, min_cpu: MIN_CPU, parts, mlp_epochs: MLP_EPOCHS }));
    const script = path.join(dir, 'peer.py');
    writeFileSync(script, PEER_SCRIPT);
    const r = spawnSync(PYTHON, [script, spec], { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    if (r.error || r.status !== 0) return undefined;
    return JSON.parse(r.stdout) as Peer;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const peerBoosted = boosted ? runPeer(['boosted'], REPEATS) : undefined;

// Logistic regression and MLP: measures of the two sides alternate (ours, then a peer process, REPEATS rounds), so that
// a change of the machine's load between them reaches both sides. scikit-learn's LogisticRegression(C=1, solver lbfgs,
// tol 1e-4, max_iter 1000) after a StandardScaler: l2 = 1 / C, the same gradient tolerance, SciPy's default ftol and 1000
// iterations are our defaults (linear.ts). Its MLPClassifier has our network's shape: 32 ReLU units, Adam at 1e-3,
// batches of 64, 30 epochs, no L2.
const mlpParams = { hidden: 32, epochs: MLP_EPOCHS, batchSize: 64, learningRate: 1e-3, l2: 0, seed: 1 };
const linearParts = ['linear', 'mlp'].filter((p) => PARTS.has(p));
const lin = { lrCpu: [] as number[], lrRowsPerSec: [] as number[], mlpCpu: [] as number[], mlpRowsPerSec: [] as number[], lrFirst: 0, mlpFirst: 0, lrIterations: 0, lrEvaluations: 0, lrAuc: NaN, mlpAuc: NaN };
const peerLinear: Peer = {};
let peerLinearMissing = false;
for (let round = 0; round < (linearParts.length > 0 ? REPEATS : 0); round++) {
  const warm = round === 0;
  if (PARTS.has('linear')) {
    const lr = perCall(() => fitLogistic(train, { l2: 1 }), 1, warm);
    const model = lr.value.model;
    lin.lrCpu.push(...lr.cpu);
    if (warm) {
      lin.lrFirst = lr.first!;
      lin.lrIterations = lr.value.iterations;
      lin.lrEvaluations = lr.value.evaluations;
      lin.lrAuc = rocAuc(predictLogistic(model, test.x), test.y);
    }
    lin.lrRowsPerSec.push(...perCall(() => predictLogistic(model, test.x), 1, warm).cpu.map((s) => test.x.rows / s));
  }
  if (PARTS.has('mlp')) {
    const fit = perCall(() => trainMlp(train, mlpParams), 1, warm);
    lin.mlpCpu.push(...fit.cpu);
    if (warm) {
      lin.mlpFirst = fit.first!;
      lin.mlpAuc = rocAuc(predictMlp(fit.value, test.x), test.y);
    }
    lin.mlpRowsPerSec.push(...perCall(() => predictMlp(fit.value, test.x), 1, warm).cpu.map((s) => test.x.rows / s));
  }
  const p = runPeer(linearParts, 1);
  if (!p) peerLinearMissing = true;
  else
    for (const [key, value] of Object.entries(p) as [keyof Peer, Peer[keyof Peer]][]) {
      const had = peerLinear[key];
      // Lists gather one measure per round; single values (versions, AUC, the first fit of the first process) are kept from the first.
      if (Array.isArray(value)) (peerLinear as Record<string, unknown>)[key] = [...(Array.isArray(had) ? had : []), ...value];
      else if (had === undefined) (peerLinear as Record<string, unknown>)[key] = value;
    }
}
const linear = PARTS.has('linear') ? lin : undefined;
const mlp = PARTS.has('mlp') ? lin : undefined;
const peer: Peer | undefined = peerLinearMissing && !peerBoosted ? undefined : { ...peerBoosted, ...(peerLinearMissing ? {} : peerLinear) };

const fmt = (v: number | undefined, digits = 2): string => (v === undefined ? 'n/a' : v.toFixed(digits));
/** "median (min-max)" of a list of measures. */
const cell = (v: readonly number[] | undefined, digits = 2): string =>
  v === undefined || v.length === 0 ? 'n/a' : medianRange(v, (x) => fmt(x, digits));
const ratio = (a: readonly number[] | undefined, b: readonly number[] | undefined): string => (a === undefined || b === undefined || !a.length || !b.length ? '' : `${(median(a) / median(b)).toFixed(2)}x`);

const ms = (v: number | undefined): string => (v === undefined ? 'n/a' : `${(v * 1e3).toFixed(1)} ms`);
const row = (name: string, a: readonly number[] | undefined, b: readonly number[] | undefined, digits: number): void =>
  console.log(`| ${name} | ${cell(a, digits)} | ${cell(b, digits)} | ${ratio(a, b)} |`);

console.log('');
const peerName = [peer?.xgboost ? `xgboost ${peer.xgboost} (1 thread)` : PARTS.has('boosted') ? 'xgboost (not installed)' : '', peer?.sklearn ? `scikit-learn ${peer.sklearn}` : PARTS.has('linear') || PARTS.has('mlp') ? 'scikit-learn (not installed)' : '']
  .filter((p) => p !== '')
  .join('; ');
console.log(`| measure, median (range) | vitrine core/ml | ${peerName} | ratio of medians (ours / peer) |`);
console.log('|---|---|---|---|');
if (boosted) {
  row('boosted training, CPU s', boosted.trainCpu, peer?.train_cpu, 2);
  row('boosted training, wall s', boosted.trainWall, peer?.train_wall, 2);
  console.log(`| test AUC | ${fmt(boosted.auc, 4)} | ${fmt(peer?.auc, 4)} | ${peer?.auc === undefined ? '' : `${(boosted.auc - peer.auc).toFixed(4)} difference`} |`);
  row('prediction, rows/s (CPU)', boosted.predictRowsPerSec, peer?.predict_rows_per_sec, 0);
  row('TreeSHAP, rows/s (CPU)', boosted.shapRowsPerSec, peer?.shap_rows_per_sec, 0);
}
if (linear) {
  row('logistic regression fit (with standardisation), CPU ms a fit', linear.lrCpu.map((c) => c * 1e3), peer?.lr_cpu?.map((c) => c * 1e3), 1);
  console.log(`| logistic regression iterations (ours: objective evaluations) | ${linear.lrIterations} (${linear.lrEvaluations}) | ${peer?.lr_iterations ?? 'n/a'} | |`);
  console.log(`| logistic regression AUC | ${fmt(linear.lrAuc, 4)} | ${fmt(peer?.lr_auc, 4)} | |`);
  row('logistic regression scoring (with standardisation), rows/s (CPU)', linear.lrRowsPerSec, peer?.lr_rows_per_sec, 0);
}
if (mlp) {
  row(`MLP fit (32 ReLU, Adam, ${MLP_EPOCHS} epochs), CPU s a fit`, mlp.mlpCpu, peer?.mlp_cpu, 2);
  console.log(`| MLP AUC | ${fmt(mlp.mlpAuc, 4)} | ${fmt(peer?.mlp_auc, 4)} | |`);
  row('MLP scoring (with standardisation), rows/s (CPU)', mlp.mlpRowsPerSec, peer?.mlp_rows_per_sec, 0);
}
if (boosted) console.log(`\nboosted fits in order, CPU s (the first in the process includes compiling): ours ${boosted.trainCpu.map((c) => fmt(c, 3)).join(' / ')}; xgboost ${peer?.train_cpu?.map((c) => fmt(c, 3)).join(' / ') ?? 'n/a'}`);
if (linear || mlp) {
  console.log(`\nlogistic regression and MLP: each side makes one warm-up call, then every measure repeats its call until ${MIN_CPU} s of CPU (a fit's figure is the CPU per fit).`);
  if (linear) console.log(`first logistic fit in the process, CPU: ours ${ms(linear.lrFirst)}, scikit-learn ${ms(peer?.lr_first)}`);
  if (mlp) console.log(`first MLP fit in the process, CPU: ours ${fmt(mlp.mlpFirst)} s, scikit-learn ${fmt(peer?.mlp_first)} s`);
  console.log('scikit-learn: StandardScaler, then LogisticRegression(C=1, solver lbfgs, tol 1e-4, max_iter 1000; SciPy L-BFGS-B defaults otherwise) against ours with l2 1 and the same stopping rule; MLPClassifier as ours.');
  if (peer?.blas) console.log(`scikit-learn's BLAS: ${peer.blas}.`);
}
console.log('\nratios: times ours / peer (below 1 is faster); rates ours / peer (above 1 is faster).');
if (peer?.train_wall_all_threads !== undefined) console.log(`\nxgboost with all ${peer.threads} threads: ${fmt(peer.train_wall_all_threads)} s wall (ours is single-threaded).`);
if (!peer) console.log('\n/usr/bin/python3 with xgboost and scikit-learn is not available: no peer comparison.');
else if (peer.error) console.log(`\n${peer.error}`);
