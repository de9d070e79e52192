// Migrations of the petriage tables (one test per migration) and the history queries.
import { describe, expect, it } from 'vitest';
import { migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { analyze } from './analyze.js';
import { familySamples, benignSamples } from './corpus.js';
import { loadModel } from './model.js';
import { petriageService } from './service.js';
import { getAnalysis, listAnalyses, migrations, saveAnalysis } from './store.js';

describe('migration 1: analysis history', () => {
  it('creates the table from an empty store, with a verdict check', () => {
    const db = storeAtVersion('petriage', migrations, 0);
    migrateTo(db, 'petriage', migrations, 1);
    const columns = (db.prepare('PRAGMA table_info(petriage_analyses)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual(['id', 'sha256', 'size', 'created_at', 'verdict', 'score', 'family', 'model_type', 'model_sha256', 'result_json']);
    expect(() => db.prepare("INSERT INTO petriage_analyses VALUES ('x', 'h', 1, 't', 'CLEAN', 0, NULL, 'linear', NULL, '{}')").run()).toThrow(/CHECK constraint/);
    db.close();
  });
});

describe('history', () => {
  it('stores, lists newest first, and reads back an analysis', () => {
    const db = openMemoryStore([petriageService]);
    const model = loadModel();
    const bad = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
    const good = analyze((benignSamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
    const a = saveAnalysis(db, bad, new Date('2024-01-01T00:00:00Z'));
    const b = saveAnalysis(db, good, new Date('2024-01-02T00:00:00Z'));
    expect(a).toMatchObject({ verdict: 'MALICIOUS', family: 'hollowpoint', modelType: 'linear', sha256: bad.sha256 });
    const listed = listAnalyses(db, { limit: 10, offset: 0 });
    expect(listed.total).toBe(2);
    expect(listed.items).toEqual([b, a]);
    expect(listAnalyses(db, { limit: 1, offset: 1 }).items).toEqual([a]);
    expect(getAnalysis(db, a.id)?.result).toEqual(JSON.parse(JSON.stringify(bad)));
    expect(getAnalysis(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
    db.close();
  });
});
