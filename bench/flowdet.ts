// `npm run bench -- flowdet`: detector training time and quality vs python3-xgboost / scikit-learn on the same rows, scoring flows/s with and without explanation, attack throughput.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { featureMatrix, selectRows, type FeatureMatrix } from '../engines/core/ml/index.js';
import { adaptiveAttack, attackSpace, blackBoxAttack, gradientAttack } from '../engines/flowdet/attacks/attacks.js';
import { bundleText, parseBundle } from '../engines/flowdet/bundle.js';
import { loadData, type LoadedData } from '../engines/flowdet/data/datasets.js';
import { fitLogScaler, logFeatures, probabilityGradientZ, scoreDetector, trainDetector, type DetectorKind } from '../engines/flowdet/detectors/models.js';
import { scoreFlows } from '../engines/flowdet/score.js';
import { detectorMetrics } from '../engines/flowdet/studies/metrics.js';
import { studyOnData, studySizes } from '../engines/flowdet/studies/run.js';
import { CORPORA_DIR } from '../test/corpora.js';

const PYTHON = '/usr/bin/python3';

function timed<T>(fn: () => T): { value: T; cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1e6, wall };
}

const PEER = String.raw`
import json, sys, time
import numpy as np
d = json.load(open(sys.argv[1]))
X = np.fromfile(d["x"], dtype=np.float32).reshape(d["rows"], d["cols"]).astype(np.float64)
y = np.asarray(d["y"], dtype=np.int64)
tr = np.asarray(d["train"]); te = np.asarray(d["test"])
out = {}
def rates(p):
    pred = (p >= 0.5).astype(int); t = y[te]
    tp = int(((pred == 1) & (t == 1)).sum()); fp = int(((pred == 1) & (t == 0)).sum()); tn = int(((pred == 0) & (t == 0)).sum()); fn = int(((pred == 0) & (t == 1)).sum())
    return {"accuracy": (tp + tn) / len(t), "f1": 2 * tp / max(1, 2 * tp + fp + fn), "fpr": fp / max(1, fp + tn)}
def run(name, fit, pred):
    c0 = time.process_time(); m = fit(); cpu = time.process_time() - c0
    out[name] = {"cpu": cpu, **rates(pred(m))}
try:
    import xgboost as xgb
    out["xgboost_version"] = xgb.__version__
    p = {"objective": "binary:logistic", "tree_method": "hist", "eta": 0.15, "max_depth": 6, "lambda": 1, "min_child_weight": 1, "max_bin": 256, "nthread": 1}
    dtr = xgb.DMatrix(X[tr], label=y[tr])
    run("gbdt", lambda: xgb.train(p, dtr, 150), lambda b: b.predict(xgb.DMatrix(X[te])))
except ImportError:
    pass
try:
    import sklearn
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler
    out["sklearn_version"] = sklearn.__version__
    run("random_forest", lambda: RandomForestClassifier(n_estimators=60, max_depth=10, max_features=0.6, n_jobs=1, random_state=0).fit(X[tr], y[tr]), lambda m: m.predict_proba(X[te])[:, 1])
    sc = StandardScaler().fit(X[tr])
    run("logistic", lambda: LogisticRegression(C=1.0, max_iter=1000).fit(sc.transform(X[tr]), y[tr]), lambda m: m.predict_proba(sc.transform(X[te]))[:, 1])
    run("mlp", lambda: MLPClassifier(hidden_layer_sizes=(32,), max_iter=30, batch_size=64, learning_rate_init=3e-3, alpha=1e-4, random_state=0).fit(sc.transform(X[tr]), y[tr]), lambda m: m.predict_proba(sc.transform(X[te]))[:, 1])
except ImportError:
    pass
json.dump(out, sys.stdout)
`;

type PeerOut = Record<string, { cpu: number; accuracy: number; f1: number; fpr: number } | string>;

function peer(x: FeatureMatrix, y: ArrayLike<number>, train: Uint32Array, test: Uint32Array): PeerOut | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-bench-'));
  try {
    const xf = path.join(dir, 'x.f32');
    writeFileSync(xf, Buffer.from(Float32Array.from(x.data).buffer));
    const spec = path.join(dir, 'spec.json');
    writeFileSync(spec, JSON.stringify({ x: xf, rows: x.rows, cols: x.cols, y: Array.from(y), train: Array.from(train), test: Array.from(test) }));
    const script = path.join(dir, 'peer.py');
    writeFileSync(script, PEER);
    const r = spawnSync(PYTHON, [script, spec], { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    if (r.error || r.status !== 0) return undefined;
    return JSON.parse(r.stdout) as PeerOut;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const f = (v: number | undefined, d = 3): string => (v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(d));

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
  const p = peer(x32, table.y, loaded.train, loaded.test);
  console.log(`| detector | train CPU s (ours) | peer CPU s | ratio ours/peer | accuracy | F1 | FPR | peer accuracy | peer F1 | peer FPR |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const models: Partial<Record<DetectorKind, ReturnType<typeof trainDetector>>> = {};
  for (const kind of ['gbdt', 'random_forest', 'logistic', 'mlp'] as const) {
    const t = timed(() => trainDetector(kind, xtr, ytr, { quick: false, seed: 0 }));
    models[kind] = t.value;
    const m = detectorMetrics(scoreDetector(t.value, xte), yte);
    const q = p?.[kind];
    const pq = typeof q === 'object' ? q : undefined;
    console.log(`| ${kind} | ${f(t.cpu, 2)} | ${f(pq?.cpu, 2)} | ${pq ? `${(t.cpu / pq.cpu).toFixed(2)}x` : ''} | ${f(m.accuracy, 4)} | ${f(m.f1, 4)} | ${f(m.fpr, 4)} | ${f(pq?.accuracy, 4)} | ${f(pq?.f1, 4)} | ${f(pq?.fpr, 4)} |`);
  }
  if (p) console.log(`\npeers: xgboost ${String(p['xgboost_version'] ?? 'absent')} (hist, 1 thread), scikit-learn ${String(p['sklearn_version'] ?? 'absent')}; same parameters (150 rounds depth 6 eta 0.15; 60 trees depth 10, 0.6 features; C 1; 32 hidden, 30 epochs).`);
  else console.log('\n/usr/bin/python3 with xgboost / scikit-learn not available: no peer columns.');

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
await benchData('synthetic (20,000 flows)', await loadData('synthetic', { syntheticRows: 20_000, seed: 0 }));
await benchData('CICIDS2017 labelled sample (corpus)', await loadData(path.join(CORPORA_DIR, 'flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv')));
await benchData('UNSW-NB15 partition-1 sample (corpus)', await loadData(path.join(CORPORA_DIR, 'flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv')));
await benchData('UNSW-NB15 raw 49-column sample (corpus)', await loadData(path.join(CORPORA_DIR, 'flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv')));
await benchScoring();
