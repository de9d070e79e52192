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

describe('migration 2: file name of an analysis', () => {
  it('adds a nullable file_name to a store made by migration 1; its rows keep NULL and read back', () => {
    const db = storeAtVersion('petriage', migrations, 1);
    // A row as the previous schema wrote it (every column migration 1 knows).
    const model = loadModel();
    const old = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
    db.prepare('INSERT INTO petriage_analyses VALUES (@id, @sha256, @size, @created_at, @verdict, @score, @family, @model_type, @model_sha256, @result_json)').run({
      id: '00000000-0000-4000-8000-000000000001',
      sha256: old.sha256,
      size: old.size,
      created_at: '2024-01-01T00:00:00.000Z',
      verdict: old.verdict,
      score: old.score,
      family: old.family?.name ?? null,
      model_type: old.model.type,
      model_sha256: old.model.sha256,
      result_json: JSON.stringify(old),
    });
    migrateTo(db, 'petriage', migrations, 2);
    const columns = db.prepare('PRAGMA table_info(petriage_analyses)').all() as { name: string; notnull: number; dflt_value: unknown }[];
    expect(columns.map((c) => c.name)).toEqual(['id', 'sha256', 'size', 'created_at', 'verdict', 'score', 'family', 'model_type', 'model_sha256', 'result_json', 'file_name']);
    expect(columns.at(-1)).toMatchObject({ notnull: 0, dflt_value: null });
    const listed = listAnalyses(db, { limit: 10, offset: 0 });
    expect(listed.items).toEqual([expect.objectContaining({ id: '00000000-0000-4000-8000-000000000001', fileName: null, sha256: old.sha256, verdict: old.verdict })]);
    expect(getAnalysis(db, '00000000-0000-4000-8000-000000000001')).toMatchObject({ fileName: null, result: JSON.parse(JSON.stringify(old)) });
    // New rows next to it carry their name; the indexes of migration 1 are still there.
    const named = saveAnalysis(db, old, new Date('2024-01-02T00:00:00Z'), 'invoice.exe');
    expect(listAnalyses(db, { limit: 10, offset: 0 }).items.map((i) => i.fileName)).toEqual(['invoice.exe', null]);
    expect(named.fileName).toBe('invoice.exe');
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'petriage_analyses' AND sql IS NOT NULL ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(indexes).toEqual(['petriage_analyses_created', 'petriage_analyses_sha256']);
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
    expect(a).toMatchObject({ verdict: 'MALICIOUS', family: 'hollowpoint', modelType: 'linear', sha256: bad.sha256, fileName: null });
    const listed = listAnalyses(db, { limit: 10, offset: 0 });
    expect(listed.total).toBe(2);
    expect(listed.items).toEqual([b, a]);
    expect(listAnalyses(db, { limit: 1, offset: 1 }).items).toEqual([a]);
    expect(getAnalysis(db, a.id)?.result).toEqual(JSON.parse(JSON.stringify(bad)));
    expect(getAnalysis(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
    db.close();
  });
});
