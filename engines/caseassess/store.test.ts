// Migrations of the caseassess tables (one test per migration, as engines/core/store.ts describes) and the history queries.
import { describe, expect, it } from 'vitest';
import { migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { assess, loadKnowledgeGraph } from './index.js';
import { caseassessService } from './service.js';
import { getAssessment, listAssessments, migrations, saveAssessment } from './store.js';

describe('migration 1: assessment history', () => {
  it('creates the table from an empty store', () => {
    const db = storeAtVersion('caseassess', migrations, 0);
    migrateTo(db, 'caseassess', migrations, 1);
    const columns = (db.prepare('PRAGMA table_info(caseassess_assessments)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual([
      'id',
      'case_id',
      'case_title',
      'case_sha256',
      'created_at',
      'leading_attack_id',
      'leading_name',
      'leading_probability',
      'confidence_words',
      'kg_sha256',
      'result_json',
    ]);
    db.close();
  });
});

describe('history', () => {
  it('stores, lists newest first, and reads back an assessment', () => {
    const db = openMemoryStore([caseassessService]);
    const kg = loadKnowledgeGraph();
    const first = assess(kg, { case_id: 'one', techniques: [{ evidence_id: 'E', id: 'T1078' }] });
    const second = assess(kg, { case_id: 'two', title: 'Second' });
    const a = saveAssessment(db, first, new Date('2024-01-01T00:00:00Z'));
    const b = saveAssessment(db, second, new Date('2024-01-02T00:00:00Z'));
    const listed = listAssessments(db, { limit: 10, offset: 0 });
    expect(listed.total).toBe(2);
    expect(listed.items.map((i) => i.case_id)).toEqual(['two', 'one']);
    expect(listed.items[0]).toEqual(b);
    expect(listAssessments(db, { limit: 1, offset: 1 }).items).toEqual([a]);
    const stored = getAssessment(db, a.id);
    expect(stored?.assessment).toEqual(first);
    expect(stored?.confidence_words).toBe(first.confidence.words);
    expect(getAssessment(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
    db.close();
  });
});

describe('stored summaries say when nothing scored', () => {
  it('an insufficient-evidence assessment is listed as such, the others are not', () => {
    const db = openMemoryStore([caseassessService]);
    const kg = loadKnowledgeGraph();
    expect(saveAssessment(db, assess(kg, { case_id: 'none', techniques: [{ evidence_id: 'T-1', id: 'T1999' }] })).insufficient).toBe(true);
    saveAssessment(db, assess(kg, { case_id: 'some', techniques: [{ evidence_id: 'T-1', id: 'T1059.001' }] }));
    const items = listAssessments(db, { limit: 10, offset: 0 }).items;
    expect(items.map((i) => [i.case_id, i.insufficient === true])).toEqual(expect.arrayContaining([['none', true], ['some', false]]));
  });
});
