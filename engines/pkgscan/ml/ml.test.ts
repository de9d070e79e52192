// The risk model: features on built releases, deterministic training, the model file's round trip and refusals, PSI on known distributions, drift's row floor, and the /ml routes.
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { Migration } from '../../core/service.js';
import { openMemoryStore } from '../../core/store.js';
import { route } from '../../core/http/index.js';
import { listen } from '../../core/http/server.js';
import { Random } from '../../core/ml/index.js';
import { runAnalyzers } from '../analyzers/risk.js';
import { defaultResourcesDir } from '../config.js';
import { openRelease } from '../package/open.js';
import type { Platform } from '../platform.js';
import { npmTarball } from '../sources/archives.fixture.js';
import { migrations } from '../store.js';
import { SqliteDb } from '../db/sqlite.js';
import { binIndex, buildReference, driftOf, driftReport, MIN_DRIFT_ROWS, mlMigration, psi, recordScanFeatures } from './drift.js';
import { extractFeatures, FEATURE_NAMES, FEATURE_SET_ID } from './features.js';
import { mlRoutes, modelMetadata } from './http.js';
import { loadRiskModel, modelRiskContribution, modelScore, MODEL_RISK_CAP, parseRiskModel, POLICY_THRESHOLD, RISK_MODEL_FORMAT } from './model.js';
import { crossValidate, readLabelledFolder, stratifiedFolds, trainRiskModel, type LabelledCorpus, type LabelledRow } from './train.js';

const resourcesDir = defaultResourcesDir();
const tmp = mkdtempSync(path.join(tmpdir(), 'pkgscan-ml-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Seeded rows where malice shows in a few features, as the analyzers' counts would. */
function syntheticCorpus(n: number, seed: number): LabelledCorpus {
  const rng = new Random(seed);
  const rows: LabelledRow[] = [];
  for (let i = 0; i < n; i++) {
    const label = i % 3 === 0 ? 1 : 0;
    const features = FEATURE_NAMES.map((_, j) => (j < 6 ? rng.int(3) + (label === 1 && j % 2 === 0 ? rng.int(4) : 0) : rng.int(10)));
    rows.push({ file: `s${i}`, ecosystem: 'npm', label, features, rulesFlagged: label === 1 && rng.next() < 0.8 });
  }
  return { rows, groundTruthSha256: '0'.repeat(64), skipped: 0 };
}

describe('features', () => {
  it('has a fixed, named layout whose identity is the SHA-256 of the ordered names', () => {
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_NAMES.length);
    expect(FEATURE_SET_ID).toBe(createHash('sha256').update(FEATURE_NAMES.join('\n')).digest('hex'));
  });

  it('counts install hooks, files and metadata of built releases', async () => {
    const plain = openRelease(await npmTarball('plain-pkg', '1.0.0', { repository: 'https://example.org/x', license: 'MIT' }), { filename: 'plain-pkg-1.0.0.tgz', ecosystem: 'npm' });
    const hooked = openRelease(await npmTarball('hooked-pkg', '1.0.0', { scripts: { postinstall: 'node index.js', preinstall: 'node index.js' } }), { filename: 'hooked-pkg-1.0.0.tgz', ecosystem: 'npm' });
    const at = (name: string): number => FEATURE_NAMES.indexOf(name);
    for (const [release, hooks] of [
      [plain, 0],
      [hooked, 2],
    ] as const) {
      const r = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
      const v = extractFeatures({ ...release, findings: r.findings, chains: r.chains });
      expect(v.length).toBe(FEATURE_NAMES.length);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(v[at('install_hooks')]).toBe(hooks);
      expect(v[at('file_count')]).toBe(2);
      expect(v[at('ecosystem_npm')]).toBe(1);
      expect(v[at('incomplete')]).toBe(0);
    }
    const pv = extractFeatures({ ...plain, findings: [], chains: [] });
    expect(pv[at('has_repository')]).toBe(1);
    expect(pv[at('has_license')]).toBe(1);
    const hr = await runAnalyzers(hooked, { resourcesDir, internalNamespaces: [] });
    expect(extractFeatures({ ...hooked, findings: hr.findings, chains: hr.chains })[at('findings_install_time')]).toBeGreaterThan(0);
  });

  it.skipIf(!hasCorpora())('featurises real corpus samples read as bytes (a subset)', async () => {
    const picks = new Set(['benign/npm/async-3.2.6.tgz']);
    const c = await readLabelledFolder(corpusPath('packages'), resourcesDir, (f) => picks.has(f) || /^malicious\/npm\//.test(f));
    expect(c.rows.length).toBeGreaterThan(5);
    expect(c.groundTruthSha256).toBe(createHash('sha256').update(readFileSync(corpusPath('packages', 'GROUND_TRUTH.json'))).digest('hex'));
    const mal = c.rows.filter((r) => r.label === 1);
    expect(mal.every((r) => r.features.length === FEATURE_NAMES.length)).toBe(true);
    // Malicious npm samples carry findings; the counts land in the vector.
    expect(mal.some((r) => r.features.slice(0, 14).some((x) => x > 0))).toBe(true);
  }, 60_000);

  it('refuses a labelled folder without ground truth or with a damaged one', async () => {
    const dir = path.join(tmp, 'labelled');
    mkdirSync(dir, { recursive: true });
    await expect(readLabelledFolder(dir, resourcesDir)).rejects.toMatchObject({ code: 'not_found' });
    writeFileSync(path.join(dir, 'GROUND_TRUTH.json'), '{"files": [');
    await expect(readLabelledFolder(dir, resourcesDir)).rejects.toMatchObject({ code: 'parse_error' });
    writeFileSync(path.join(dir, 'GROUND_TRUTH.json'), JSON.stringify({ files: [{ file: 'a.tgz', ecosystem: 'npm', label: 'maybe' }] }));
    await expect(readLabelledFolder(dir, resourcesDir)).rejects.toMatchObject({ code: 'validation_failed' });
    writeFileSync(path.join(dir, 'GROUND_TRUTH.json'), JSON.stringify({ files: [{ file: '../outside.tgz', ecosystem: 'npm', label: 'benign' }, { file: 'junk.tgz', ecosystem: 'npm', label: 'benign' }] }));
    writeFileSync(path.join(dir, 'junk.tgz'), 'not an archive');
    const c = await readLabelledFolder(dir, resourcesDir);
    expect(c.rows.length + c.skipped).toBeLessThanOrEqual(2);
    expect(c.skipped).toBeGreaterThanOrEqual(1);
  });
});

describe('training', () => {
  it('deals stratified folds that keep the class balance', () => {
    const labels = Array.from({ length: 50 }, (_, i) => (i < 20 ? 1 : 0));
    const folds = stratifiedFolds(labels, 5, 3);
    for (let f = 0; f < 5; f++) {
      expect(labels.filter((y, i) => y === 1 && folds[i] === f).length).toBe(4);
      expect(labels.filter((y, i) => y === 0 && folds[i] === f).length).toBe(6);
    }
  });

  it('is deterministic for a seed and reports scoped, cross-validated metrics next to the rules', () => {
    const c = syntheticCorpus(90, 7);
    const a = trainRiskModel(c, { seed: 4, trainedAt: '2026-01-01T00:00:00Z' });
    const b = trainRiskModel(c, { seed: 4, trainedAt: '2026-01-01T00:00:00Z' });
    expect(a.text).toBe(b.text);
    const m = parseRiskModel(a.text).file;
    expect(m.metrics.folds).toBe(5);
    expect(m.metrics.auc_folds).toHaveLength(5);
    expect(m.metrics.auc).toBeGreaterThan(0.6);
    expect(m.metrics.scope).toContain('90 packages');
    expect(m.metrics.threshold).toBe(POLICY_THRESHOLD);
    expect(m.metrics.rules_alone.tp + m.metrics.rules_alone.fn).toBe(30);
    expect(m.dataset).toMatchObject({ files: 90, malicious: 30, benign: 60 });
    expect(trainRiskModel(c, { seed: 5, trainedAt: '2026-01-01T00:00:00Z' }).text).not.toBe(a.text);
  });

  it('refuses to cross-validate with too few samples of a class', () => {
    const c = syntheticCorpus(12, 1);
    expect(() => crossValidate(c.rows.slice(0, 6), 5, 0)).toThrow(/at least 5/);
  });
});

describe('model file', () => {
  const trained = trainRiskModel(syntheticCorpus(60, 2), { seed: 1, trainedAt: '2026-01-01T00:00:00Z' });

  it('round-trips and scores the same', () => {
    const m = parseRiskModel(trained.text);
    expect(m.file.format).toBe(RISK_MODEL_FORMAT);
    expect(m.file.feature_set.id).toBe(FEATURE_SET_ID);
    const row = new Array<number>(FEATURE_NAMES.length).fill(1);
    const again = parseRiskModel(trained.text);
    expect(modelScore(m, row)).toBe(modelScore(again, row));
    expect(modelScore(m, row)).toBeGreaterThanOrEqual(0);
    expect(modelScore(m, row)).toBeLessThanOrEqual(1);
    expect(() => modelScore(m, [1, 2])).toThrow(/does not fit/);
  });

  it('refuses another format, non-JSON, a damaged tree, a changed feature set and broken references', () => {
    const doc = JSON.parse(trained.text) as Record<string, unknown> & { gbdt: { trees: { feature: number[] }[] }; feature_set: { id: string; names: string[] }; reference: { proportions: number[] }[] };
    const bad = (mutate: (d: typeof doc) => void): string => {
      const d = structuredClone(doc);
      mutate(d);
      return JSON.stringify(d);
    };
    expect(() => parseRiskModel(bad((d) => (d['format'] = 'vitrine-gbdt-1')))).toThrow(/not a vitrine-pkgscan-risk-1/);
    expect(() => parseRiskModel(trained.text.slice(0, 500))).toThrow(/not valid JSON/);
    expect(() => parseRiskModel(bad((d) => (d.gbdt.trees[0]!.feature[0] = 10_000)))).toThrow();
    expect(() => parseRiskModel(bad((d) => (d.feature_set.names[0] = 'renamed')))).toThrow();
    expect(() => parseRiskModel(bad((d) => (d.feature_set.id = 'a'.repeat(64))))).toThrow();
    expect(() => parseRiskModel(bad((d) => d.reference.pop()))).toThrow();
    expect(() => parseRiskModel(bad((d) => (d['code'] = 'process.exit(1)')))).toThrow();
  });

  it('caps the model dimension below the block threshold', () => {
    expect(modelRiskContribution(1)).toBe(MODEL_RISK_CAP);
    expect(MODEL_RISK_CAP).toBeLessThan(POLICY_THRESHOLD);
    expect(modelRiskContribution(0)).toBe(0);
  });

  it('loads the shipped model, and says why when there is none or it is damaged', () => {
    const shipped = loadRiskModel('', resourcesDir);
    expect(shipped.model).not.toBeNull();
    expect(shipped.model?.file.dataset.files).toBe(189);
    const none = loadRiskModel('', path.join(tmp, 'no-resources'));
    expect(none).toMatchObject({ model: null, reason: expect.stringContaining('no trained model') });
    const dataDir = path.join(tmp, 'data');
    mkdirSync(path.join(dataDir, 'pkgscan'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pkgscan', 'model.json'), '{"format":"vitrine-pkgscan-risk-1"}');
    const damaged = loadRiskModel(dataDir, resourcesDir);
    expect(damaged.model).toBeNull();
    expect(damaged.model === null ? damaged.reason : '').toMatch(/refused/);
  });
});

describe('drift', () => {
  it('computes PSI on known distributions', () => {
    expect(psi([0.5, 0.5], [0.5, 0.5])).toBe(0);
    expect(psi([0.5, 0.5], [0.9, 0.1])).toBeCloseTo(0.4 * Math.log(1.8) + 0.4 * Math.log(5), 10);
    // An empty bin is floored, not infinite.
    expect(Number.isFinite(psi([1, 0], [0, 1]))).toBe(true);
    expect(binIndex([0, 3], -1)).toBe(0);
    expect(binIndex([0, 3], 0)).toBe(0);
    expect(binIndex([0, 3], 2)).toBe(1);
    expect(binIndex([0, 3], 4)).toBe(2);
    const ref = buildReference('x', Array.from({ length: 100 }, (_, i) => i));
    expect(ref.cuts).toHaveLength(9);
    expect(ref.proportions.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 10);
    const zeros = buildReference('z', [0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
    expect(zeros.cuts).toEqual([0]);
    expect(zeros.proportions).toEqual([0.9, 0.1]);
  });

  const model = parseRiskModel(trainRiskModel(syntheticCorpus(60, 2), { seed: 1, trainedAt: '2026-01-01T00:00:00Z' }).text);
  // Drift's reference is the benign training rows (ordinary traffic): the same population is benign rows from that generator.
  const sameRows = (n: number): number[][] =>
    syntheticCorpus(4 * n, 2)
      .rows.filter((r) => r.label === 0)
      .slice(0, n)
      .map((r) => [...r.features]);

  it('says insufficient_data below 50 usable rows, ok on the benign training distribution, significant on a shifted one', () => {
    expect(driftOf(model, sameRows(MIN_DRIFT_ROWS - 1))).toMatchObject({ status: 'insufficient_data', rows: 49, overall_psi: null });
    const ok = driftOf(model, sameRows(60));
    expect(ok.status).toBe('ok');
    expect(ok.overall_psi).toBeLessThan(0.1);
    expect(ok.features).toHaveLength(FEATURE_NAMES.length);
    const shifted = driftOf(
      model,
      sameRows(60).map((r) => r.map((x) => x + 100)),
    );
    expect(shifted.status).toBe('significant');
    expect(driftOf(null, sameRows(60))).toMatchObject({ status: 'unavailable' });
  });

  it('stores scan vectors (migration 13) and reads only usable ones', () => {
    const base: Migration[] = migrations.some((m) => m.version === 12) ? [...migrations] : [...migrations, { version: 12, name: 'placeholder', up: () => undefined }];
    const db = openMemoryStore([{ name: 'pkgscan', migrations: [...base.filter((m) => m.version !== 13), mlMigration] }]);
    const insertScan = db.prepare(
      `INSERT INTO pkgscan_scans (id, ecosystem, name, version, environment, decision, severity, risk_score, findings_count, incomplete, package_sha256, analyzer_version, created_by, created_at, verdict_json)
       VALUES (?, 'npm', 'x', '1', 'dev', 'allow', 'info', 0, 0, 0, '', '1', 'u', ?, '{}')`,
    );
    const rows = sameRows(60);
    rows.forEach((r, i) => {
      const id = `s${String(i).padStart(3, '0')}`;
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      insertScan.run(id, at);
      recordScanFeatures(db, id, r, at);
    });
    insertScan.run('bad', '2026-02-01T00:00:00Z');
    db.prepare('INSERT INTO pkgscan_scan_features (scan_id, created_at, features_json) VALUES (?, ?, ?)').run('bad', '2026-02-01T00:00:00Z', '{"feature_set":"other","values":[]}');
    const report = driftReport(db, model);
    expect(report).toMatchObject({ status: 'ok', rows: 60, rows_read: 61 });
    db.prepare("DELETE FROM pkgscan_scans WHERE id >= 's011'").run();
    expect(driftReport(db, model)).toMatchObject({ status: 'insufficient_data', rows: 11 });
    db.close();
  });
});

describe('/ml routes', () => {
  it('answer the model metadata and the drift report', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations: [...(migrations.some((m) => m.version === 12) ? migrations : [...migrations, { version: 12, name: 'placeholder', up: () => undefined }]).filter((m) => m.version !== 13), mlMigration] }]);
    const p = { db, store: new SqliteDb(db), dataDir: '', resourcesDir } as unknown as Platform;
    const app = express();
    for (const def of mlRoutes(p)) app[def.method](`/api/v1${def.path}`, route((req, res) => def.handler(req, res, undefined)));
    const local = await listen(app, { port: 0 });
    try {
      const m = (await (await fetch(`${local.url}/api/v1/ml/model`)).json()) as { available: boolean; feature_set: { id: string }; metrics: { scope: string; auc: number } };
      expect(m.available).toBe(true);
      expect(m.feature_set.id).toBe(FEATURE_SET_ID);
      expect(m.metrics.scope).toContain('189 packages');
      const d = (await (await fetch(`${local.url}/api/v1/ml/drift`)).json()) as { status: string; min_rows: number };
      expect(d).toMatchObject({ status: 'insufficient_data', min_rows: 50 });
    } finally {
      await local.close();
      db.close();
    }
    expect(mlRoutes(p).every((r) => r.access === 'ml:read')).toBe(true);
    const missing = modelMetadata({ dataDir: '', resourcesDir: path.join(tmp, 'nothing') });
    expect(missing).toMatchObject({ available: false, reason: expect.stringContaining('train-model'), metrics: null });
  });
});

describe.skipIf(!hasCorpora())('drift reference', () => {
  it('ordinary benign traffic is not drift against the shipped model: its reference is the benign training rows', async () => {
    const resources = defaultResourcesDir();
    const model = parseRiskModel(readFileSync(path.join(resources, 'pkgscan', 'model', 'model.json'), 'utf8'));
    const corpus = await readLabelledFolder(corpusPath('packages'), resources);
    const benign = corpus.rows.filter((r) => r.label === 0).map((r) => [...r.features]);
    // 65 benign packages, repeated to the usable-row minimum: the same population the reference describes
    const rows = [...benign, ...benign].slice(0, Math.max(50, benign.length));
    const report = driftOf(model, rows);
    expect(report.status).toBe('ok');
    // while a population of malware does read as drift
    const malicious = corpus.rows.filter((r) => r.label === 1).map((r) => [...r.features]);
    expect(driftOf(model, malicious.slice(0, 80)).status).not.toBe('ok');
  }, 300_000);
});
