// Assessment's search provider over a store filled by assess + saveAssessment with the shipped ATT&CK knowledge graph.
import { describe, expect, it } from 'vitest';
import { classifyQuery } from '../core/search.js';
import { openMemoryStore } from '../core/store.js';
import { assess, loadKnowledgeGraph } from './index.js';
import { caseassessSearch } from './search.js';
import { caseassessService } from './service.js';
import { saveAssessment } from './store.js';

describe('caseassess search', () => {
  const db = openMemoryStore([caseassessService]);
  const kg = loadKnowledgeGraph();
  const one = saveAssessment(
    db,
    assess(kg, { case_id: 'IR-2024-17', title: 'Phishing at the ministry', techniques: [{ evidence_id: 'E1', id: 'T1566.001' }], indicators: [{ evidence_id: 'E2', type: 'ipv4', value: '203.0.113.77' }] }),
    new Date('2024-01-01T00:00:00Z'),
  );
  const two = saveAssessment(db, assess(kg, { case_id: 'IR-2024-18', techniques: [{ evidence_id: 'E1', id: 'T1078' }] }), new Date('2024-01-02T00:00:00Z'));

  it('finds an assessment by a technique of its evidence (a parent id finds sub-techniques), an indicator and its title', async () => {
    expect(await caseassessSearch.search(db, classifyQuery('t1566'), 10)).toEqual([expect.objectContaining({ kind: 'assessment', id: one.id, title: 'Phishing at the ministry', rank: 2, link: { service: 'caseassess', kind: 'assessment', id: one.id } })]);
    expect((await caseassessSearch.search(db, classifyQuery('T1078'), 10)).map((h) => h.id)).toEqual([two.id]);
    expect((await caseassessSearch.search(db, classifyQuery('203.0.113.77'), 10)).map((h) => h.id)).toEqual([one.id]);
    expect((await caseassessSearch.search(db, classifyQuery('ministry'), 10))[0]).toMatchObject({ field: 'case title', rank: 3 });
  });

  it('does not match technique ids found only in other actors\' scores', async () => {
    expect(await caseassessSearch.search(db, classifyQuery('T1003'), 10)).toEqual([]);
  });
});
