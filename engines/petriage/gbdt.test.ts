// The boosted triage model: trained on the synthetic corpus, TreeSHAP drivers that sum to the margin, format detection, corrupt files refused, the HTTP service reporting it, and AUC beside python3-xgboost.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VitrineError } from '../core/errors.js';
import { selectRows, stratifiedSplit } from '../core/ml/dataset.js';
import { predict, trainGbdt } from '../core/ml/gbdt.js';
import { rocAuc } from '../core/ml/metrics.js';
import { gbdtModelToJson, serializeGbdtModel } from '../core/ml/model.js';
import { listen, type Listening } from '../core/http/server.js';
import { openMemoryStore } from '../core/store.js';
import { analyze, verdictOf } from './analyze.js';
import { main } from './cli.js';
import { benignSamples, familySamples, syntheticCorpus } from './corpus.js';
import { corpusDataset, trainGbdtDefault } from './gbdt.js';
import { createStandaloneApp } from './http.js';
import { loadModel, parseModel } from './model.js';
import { FEATURE_DIM } from './features.js';
import { petriageService } from './service.js';
import { skipWithout, SYSTEM_PYTHON } from '../../test/oracles.js';

const dir = mkdtempSync(path.join(tmpdir(), 'petriage-gbdt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Small on purpose (the machine is shared): 12 per family, 36 benign, 30 rounds at most.
const trained = trainGbdtDefault({ nPerFamily: 12, seed: 3, rounds: 30, eta: 0.3, maxDepth: 4 });
const modelFile = path.join(dir, 'gbdt.json');
writeFileSync(modelFile, serializeGbdtModel(trained.model));

describe('the boosted model trained on the synthetic corpus', () => {
  it('records layout, thresholds at 0.1 % and 1 % FPR, families and validation measures', () => {
    const json = gbdtModelToJson(trained.model);
    expect(json.format).toBe('vitrine-gbdt-1');
    expect(json.feature_layout).toBe('vitrine-pe-features-1');
    expect(json.num_features).toBe(FEATURE_DIM);
    expect(json.thresholds?.map((t) => [t.name, t.target_fpr])).toEqual([
      ['fpr_0.1pct', 0.001],
      ['fpr_1pct', 0.01],
    ]);
    const families = (json.metadata?.['known_families'] as { name: string }[]).map((f) => f.name);
    expect(families).toEqual(['burrow', 'gatecrash', 'hollowpoint', 'keywren', 'lockjaw', 'siphon']);
    expect(trained.report.validationRows).toBeGreaterThan(0);
    expect(trained.report.auc).toBeGreaterThanOrEqual(0.9);
  });

  it('loadModel reads it as gbdt, with the verdict cut-offs taken from the two thresholds', () => {
    const m = loadModel(modelFile);
    expect(m.type).toBe('gbdt');
    expect(m.format).toBe('vitrine-gbdt-1');
    const byName = new Map(trained.model.thresholds?.map((t) => [t.name, t.threshold]));
    expect(m.thresholds).toEqual({ malicious: byName.get('fpr_0.1pct'), suspicious: byName.get('fpr_1pct') });
    expect(m.families).toHaveLength(6);
    expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(loadModel().type).toBe('linear');
  });

  it('analyze: TreeSHAP drivers plus the base value sum to the margin, and the verdict follows the thresholds', () => {
    const m = loadModel(modelFile);
    const samples = [...familySamples(1, 77), ...benignSamples(3, 77)];
    const scores: Record<0 | 1, number[]> = { 0: [], 1: [] };
    for (const s of samples) {
      const r = analyze(s.bytes, m);
      expect(r.model.type).toBe('gbdt');
      expect(r.drivers.method).toMatch(/TreeSHAP/);
      const e = m.explain(corpusDataset([s]).dataset.x.data);
      let sum = e.baseValue;
      for (const c of e.contributions) sum += c;
      expect(sum).toBeCloseTo(e.margin, 9);
      // The margin is the trees' own: base margin plus every tree's leaf.
      const p = predict(trained.model, corpusDataset([s]).dataset.x)[0] as number;
      expect(e.score).toBeCloseTo(p, 9);
      const listed = r.drivers.items.reduce((a, d) => a + d.contribution, 0) + r.drivers.rest;
      expect(r.drivers.baseValue + listed).toBeCloseTo(r.drivers.margin, 4);
      expect(r.verdict).toBe(verdictOf(e.score, m.thresholds));
      scores[s.label].push(e.score);
    }
    // A small model's thresholds sit just above the highest validation benign score, so not every family file crosses them;
    // what must hold is that the unseen family files score above the unseen benign ones.
    expect(rocAuc(scores[1].concat(scores[0]), scores[1].map(() => 1).concat(scores[0].map(() => 0)))).toBeGreaterThanOrEqual(0.8);
  });
});

describe('model files', () => {
  it('tells the formats apart by inspection and refuses unknown ones', () => {
    const text = readFileSync(modelFile, 'utf8');
    expect(parseModel(text).type).toBe('gbdt');
    expect(() => parseModel(JSON.stringify({ format: 'vitrine-gbdt-9' }))).toThrowError(/no known format/);
    expect(() => parseModel(JSON.stringify({ trees: [] }))).toThrowError(/no known format/);
    expect(() => parseModel('not json')).toThrowError(VitrineError);
  });

  it('refuses a corrupt boosted model without echoing it', () => {
    const json = JSON.parse(readFileSync(modelFile, 'utf8')) as { trees: { left: number[] }[]; thresholds: unknown[]; feature_layout: string };
    const cycle = structuredClone(json);
    (cycle.trees[0] as { left: number[] }).left[0] = 0; // the root its own child
    const noThresholds = { ...structuredClone(json), thresholds: [] };
    const otherLayout = { ...structuredClone(json), feature_layout: 'secret-layout-XYZ' };
    for (const bad of [cycle, noThresholds, otherLayout]) {
      let err: unknown;
      try {
        parseModel(JSON.stringify(bad));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).code).toBe('validation_failed');
      expect(JSON.stringify({ m: (err as Error).message, d: (err as VitrineError).details })).not.toContain('secret-layout-XYZ');
    }
    const truncated = path.join(dir, 'truncated.json');
    writeFileSync(truncated, readFileSync(modelFile, 'utf8').slice(0, 5000));
    expect(() => loadModel(truncated)).toThrowError(/not valid JSON/);
  });
});

describe('serve --model with a boosted model', () => {
  const db = openMemoryStore([petriageService]);
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createStandaloneApp({ modelPath: modelFile, benign: { synthetic: { count: 10, seed: 1 } }, db }), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    db.close();
  });

  it('GET /health and /api/model report the gbdt model, its thresholds and families', async () => {
    const health = (await (await fetch(`${server.url}/health`)).json()) as { modelType: string };
    expect(health.modelType).toBe('gbdt');
    const info = (await (await fetch(`${server.url}/api/model`)).json()) as { modelType: string; format: string; thresholds: unknown; thresholdBasis: string; knownFamilies: unknown[] };
    expect(info.modelType).toBe('gbdt');
    expect(info.format).toBe('vitrine-gbdt-1');
    expect(info.thresholds).toEqual(loadModel(modelFile).thresholds);
    expect(info.thresholdBasis).toMatch(/0\.1 %/);
    expect(info.knownFamilies).toHaveLength(6);
  });

  it('POST /api/analyze scores with it: TreeSHAP drivers, verdict from its thresholds', async () => {
    const s = familySamples(1, 91)[0] as { bytes: Uint8Array };
    const res = await fetch(`${server.url}/api/analyze`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: s.bytes });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { model: { type: string }; drivers: { method: string }; verdict: string; score: number };
    expect(body.model.type).toBe('gbdt');
    expect(body.drivers.method).toMatch(/TreeSHAP/);
    expect(body.verdict).toBe(verdictOf(body.score, loadModel(modelFile).thresholds));
  });
});

describe('petriage train --gbdt', () => {
  it('trains from a CSV of vectors and from the synthetic corpus; the files load as gbdt', async () => {
    const { dataset } = corpusDataset(syntheticCorpus({ perFamily: 3, seed: 5 }));
    const header = [...Array.from({ length: FEATURE_DIM }, (_, i) => `f${i}`), 'is_malware'].join(',');
    const lines = [header];
    for (let r = 0; r < dataset.x.rows; r++) lines.push([...dataset.x.data.subarray(r * FEATURE_DIM, (r + 1) * FEATURE_DIM), dataset.y[r]].join(','));
    const csv = path.join(dir, 'vectors.csv');
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const out = path.join(dir, 'from-csv.json');
    const res = await main(['train', '--gbdt', '--vectors', csv, '--label-column', 'is_malware', '--rounds', '10', '-o', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { rows: number }).rows).toBe(dataset.x.rows);
    expect(loadModel(out).type).toBe('gbdt');
    const missingLabel = await main(['train', '--gbdt', '--vectors', csv, '--label-column', 'nope', '-o', path.join(dir, 'x.json')]);
    expect(missingLabel.code).toBe(2);
    expect(missingLabel.stderr).not.toContain(dir);
    // JSON lines with a features array, EMBER's unlabelled -1 rows skipped.
    const jsonl = path.join(dir, 'vectors.jsonl');
    const rows: string[] = [];
    for (let r = 0; r < dataset.x.rows; r++) rows.push(JSON.stringify({ features: Array.from(dataset.x.data.subarray(r * FEATURE_DIM, (r + 1) * FEATURE_DIM)), label: dataset.y[r] }));
    rows.push(JSON.stringify({ features: Array.from(dataset.x.data.subarray(0, FEATURE_DIM)), label: -1 }));
    writeFileSync(jsonl, `${rows.join('\n')}\n`);
    const res3 = await main(['train', '--gbdt', '--vectors', jsonl, '--rounds', '5', '-o', path.join(dir, 'from-jsonl.json')]);
    expect(res3.code).toBe(0);
    expect(JSON.parse(res3.stdout)).toMatchObject({ rows: dataset.x.rows, read: { ignored: 1, warnings: 0 } });
    expect((await main(['train', '--vectors', jsonl])).code).toBe(2); // --vectors needs --gbdt
    const outSynthetic = path.join(dir, 'synthetic.json');
    const res2 = await main(['train', '--gbdt', '--per-family', '3', '--rounds', '10', '-o', outSynthetic]);
    expect(res2.code).toBe(0);
    expect(loadModel(outSynthetic).families).toHaveLength(6);
  });
});

const PYTHON = SYSTEM_PYTHON;
describe.skipIf(skipWithout('xgboost'))('against python3-xgboost on the same vectors', () => {
  it('our AUC on a held-out split is within 0.05 of XGBoost hist with the same parameters', () => {
    const { dataset } = corpusDataset(syntheticCorpus({ perFamily: 15, seed: 11 }));
    const split = stratifiedSplit(dataset.y, 0.4, 1);
    const trainX = selectRows(dataset.x, split.train);
    const testX = selectRows(dataset.x, split.validation);
    const trainY = Array.from(split.train, (i) => dataset.y[i] as number);
    const testY = Array.from(split.validation, (i) => dataset.y[i] as number);
    const params = { eta: 0.3, max_depth: 4, min_child_weight: 1, lambda: 1, base_score: 0.5 };
    const ours = trainGbdt({ x: trainX, y: trainY }, { rounds: 20, eta: 0.3, maxDepth: 4, baseScore: 0.5 });
    const ourAuc = rocAuc(predict(ours, testX), testY);
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'xgb_train.py');
    const run = spawnSync(PYTHON, [script], { input: JSON.stringify({ cols: FEATURE_DIM, train_x: Array.from(trainX.data), train_y: trainY, test_x: Array.from(testX.data), params, rounds: 20 }), encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, OMP_NUM_THREADS: '1' } });
    expect(run.status).toBe(0);
    const theirs = JSON.parse(run.stdout) as { predictions: number[] };
    const theirAuc = rocAuc(theirs.predictions, testY);
    expect(Math.abs(ourAuc - theirAuc)).toBeLessThanOrEqual(0.05);
    expect(ourAuc).toBeGreaterThan(0.8);
  });
});
