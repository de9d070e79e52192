// ACH's search provider over the TAXII collections filled the way the routes fill them: a bundled scenario's ACH
// matrix as STIX (analyzeScenario + assessmentToStix) and a report extraction (the extract job).
import { describe, expect, it } from 'vitest';
import { classifyQuery } from '../core/search.js';
import type { StixBundle } from '../core/stix.js';
import { openMemoryStore } from '../core/store.js';
import { analyzeScenario } from './ach/engine.js';
import { ScenarioLibrary } from './ach/scenario.js';
import { assessmentToStix } from './ach/stix.js';
import { runExtractJob } from './jobs.js';
import { attribSearch } from './search.js';
import { attribService } from './service.js';
import { addObjects } from './taxii/collections.js';

describe('attrib search', () => {
  const db = openMemoryStore([attribService]);
  const library = ScenarioLibrary.fromEnvironment(undefined, {});
  const matrix = assessmentToStix(analyzeScenario(library.get('ransomware-hospital')!, { now: new Date('2026-05-01T12:00:00Z') }));
  addObjects(db, 'assessments', matrix.objects);
  const extraction = runExtractJob({ text: 'The actor used PowerShell (T1059.001) to fetch a payload from evil-update.example.com at 203.0.113.9; the sample MD5 is 44d88612fea8a8f36de82e1278abb02f.', name: 'Field report 7' });
  const extracted = extraction.stix.objects as StixBundle['objects'];
  addObjects(db, 'extractions', extracted);
  const reportId = extracted.find((o) => o.type === 'report')?.id;
  const matrixId = matrix.objects.find((o) => o.type === 'report')?.id;

  it('finds the extraction report by an indicator it holds: address, domain (and a subdomain query does not), hash, technique', () => {
    for (const q of ['203.0.113.9', 'evil-update.example.com', '44D88612FEA8A8F36DE82E1278ABB02F', 'T1059.001']) {
      const hits = attribSearch.search(db, classifyQuery(q), 10);
      expect(hits, q).toEqual([expect.objectContaining({ kind: 'report', id: reportId, title: 'Field report 7', rank: 2, link: { service: 'attrib', kind: 'report', id: reportId } })]);
    }
    expect(attribSearch.search(db, classifyQuery('update.example.com.evil'), 10)).toEqual([]);
    expect(attribSearch.search(db, classifyQuery('203.0.113.99'), 10)).toEqual([]);
  });

  it('finds the ACH matrix by a technique of its evidence and by its title, once', () => {
    const hits = attribSearch.search(db, classifyQuery('T1486'), 10);
    expect(hits).toEqual([expect.objectContaining({ kind: 'matrix', id: matrixId })]);
    expect(hits[0]?.field).toMatch(/^attack-pattern "T1486"/);
    expect(attribSearch.search(db, classifyQuery('Hospital ransomware'), 10)).toEqual([expect.objectContaining({ kind: 'matrix', id: matrixId, field: 'name', rank: 3 })]);
  });
});
