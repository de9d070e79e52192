// ACH's search provider over a store filled the way the routes fill it: stored matrices (a corpus STIX bundle imported
// with stixToScenario + saveMatrix, a finding sent with sendFindingToMatrix), and the TAXII collections (a bundled
// scenario's ACH matrix as STIX via analyzeScenario + assessmentToStix, a report extraction by the extract job).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { classifyQuery } from '../core/search.js';
import type { StixBundle } from '../core/stix.js';
import { openMemoryStore } from '../core/store.js';
import { analyzeScenario } from './ach/engine.js';
import { stixToScenario } from './ach/import.js';
import { getMatrix, saveMatrix, sendFindingToMatrix } from './ach/matrices.js';
import { ScenarioLibrary } from './ach/scenario.js';
import { assessmentToStix } from './ach/stix.js';
import { runExtractJob } from './jobs.js';
import { loadKb } from './kb/kb.js';
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

  it('finds the extraction report by an indicator it holds: address, domain (and a subdomain query does not), hash, technique', async () => {
    for (const q of ['203.0.113.9', 'evil-update.example.com', '44D88612FEA8A8F36DE82E1278ABB02F', 'T1059.001']) {
      const hits = await attribSearch.search(db, classifyQuery(q), 10);
      expect(hits, q).toEqual([expect.objectContaining({ kind: 'report', id: reportId, title: 'Field report 7 · TAXII report in Report extractions', rank: 2, link: { service: 'attrib', kind: 'report', id: reportId } })]);
    }
    expect(await attribSearch.search(db, classifyQuery('update.example.com.evil'), 10)).toEqual([]);
    expect(await attribSearch.search(db, classifyQuery('203.0.113.99'), 10)).toEqual([]);
  });

  it('finds the ACH assessment published to TAXII as a TAXII report (not an openable matrix), once', async () => {
    const hits = await attribSearch.search(db, classifyQuery('T1486'), 10);
    expect(hits).toEqual([expect.objectContaining({ kind: 'report', id: matrixId, title: expect.stringMatching(/ · TAXII report in ACH assessments$/), link: { service: 'attrib', kind: 'report', id: matrixId } })]);
    // The attack pattern is named by ATT&CK even when the assessment was built without a knowledge base, never by its id.
    expect(hits[0]?.field).toMatch(/^attack-pattern "Data Encrypted for Impact": external_references\[0\]\.external_id$/);
    expect(await attribSearch.search(db, classifyQuery('Hospital ransomware'), 10)).toEqual([expect.objectContaining({ kind: 'report', id: matrixId, field: 'name', rank: 3 })]);
  });
});

describe('attrib search: stored matrices', () => {
  const db = openMemoryStore([attribService]);
  const kb = loadKb();
  const sent = sendFindingToMatrix(
    db,
    {
      target: { kind: 'new', title: 'Phishing wave' },
      finding: { title: 'Report extraction', techniques: ['T1566.001', 'T1059.001'], indicators: [{ type: 'domain', value: 'evil-update.example.com' }], source: { service: 'attrib', kind: 'extraction', id: 'report.txt' } },
    },
    kb,
    new Date('2026-05-02T12:00:00Z'),
  );
  // The same text extracted and published to TAXII: its report hit stays, below the matrix.
  addObjects(db, 'extractions', runExtractJob({ text: 'The actor used PowerShell (T1059.001).', name: 'Field report 8' }).stix.objects as StixBundle['objects']);
  const link = (id: string) => ({ service: 'attrib', kind: 'matrix', id });

  it('finds a matrix by an evidence technique id and an indicator value, linking to its uuid, above the TAXII report', async () => {
    expect(sent.id).toMatch(/^[0-9a-f-]{36}$/);
    const byTechnique = await attribSearch.search(db, classifyQuery('t1059.001'), 10);
    expect(byTechnique.map((h) => h.kind)).toEqual(['matrix', 'report']);
    expect(byTechnique[0]).toMatchObject({ id: sent.id, field: 'evidence E2 techniques', rank: 3, link: link(sent.id), title: expect.stringMatching(/^Phishing wave · stored ACH matrix \(\d+ hypothes[ie]s, 3 evidence items\)$/) });
    expect(byTechnique[1]?.rank).toBeLessThan(3);
    // A sub-technique's parent finds it; a domain query finds the indicator's evidence text.
    expect(await attribSearch.search(db, classifyQuery('T1566'), 10)).toEqual([expect.objectContaining({ kind: 'matrix', id: sent.id, field: 'evidence E1 techniques' })]);
    expect(await attribSearch.search(db, classifyQuery('evil-update.example.com'), 10)).toEqual([expect.objectContaining({ kind: 'matrix', id: sent.id, field: 'evidence E3', rank: 2 })]);
    expect(await attribSearch.search(db, classifyQuery('update.example.com'), 10)).toEqual([]);
  });

  it("does not match a seeded actor's technique profile, only the matrix's evidence", async () => {
    const stored = getMatrix(db, sent.id);
    const evidence = new Set(stored?.scenario.evidence.flatMap((e) => e.techniques ?? []));
    const profileOnly = (stored?.scenario.actors ?? []).flatMap((a) => a.techniques ?? []).find((t) => ![...evidence].some((e) => e.startsWith(t.slice(0, 5))));
    expect(profileOnly).toBeDefined();
    expect(await attribSearch.search(db, classifyQuery(profileOnly ?? ''), 10)).toEqual([]);
  });

  it.skipIf(!hasCorpora())('finds a matrix imported from a STIX bundle by its title, a hypothesis, an actor alias and an indicator', async () => {
    const { scenario } = stixToScenario(JSON.parse(readFileSync(corpusPath('cti', 'stix21-examples', 'apt1.json'), 'utf8')) as unknown);
    const m = saveMatrix(db, scenario, { kind: 'matrix.imported-stix' }, undefined, new Date('2026-05-03T12:00:00Z'));
    const ip = /ipv4 (\d+\.\d+\.\d+\.\d+)/.exec(scenario.evidence[0]?.summary ?? '')?.[1] ?? '';
    expect(ip).not.toBe('');
    const cases: [string, string, number][] = [
      ['APT1', 'title', 3],
      ['Ugly Gorilla', 'hypothesis H2', 2],
      ['Comment Crew', 'actor A1', 2],
      [ip, 'evidence E1', 2],
    ];
    for (const [q, field, rank] of cases) {
      expect(await attribSearch.search(db, classifyQuery(q), 10), q).toEqual([expect.objectContaining({ kind: 'matrix', id: m.id, field, rank, link: link(m.id) })]);
    }
    expect(await attribSearch.search(db, classifyQuery('%_%'), 10)).toEqual([]);
    // Both matrices have the unnamed-actor hypothesis: the limit holds.
    expect((await attribSearch.search(db, classifyQuery('another actor'), 10)).filter((h) => h.kind === 'matrix')).toHaveLength(2);
    expect(await attribSearch.search(db, classifyQuery('another actor'), 1)).toHaveLength(1);
  });
});

describe('attrib search: one technique across ATT&CK releases', () => {
  const db = openMemoryStore([attribService]);
  const kb = loadKb();
  const when = new Date('2026-05-04T12:00:00Z');
  // ATT&CK v19 revoked T1070.001 (Clear Windows Event Logs) for T1685.005. A finding sent today is stored under the
  // v19 id; a matrix written against 18.1 (saved or imported before) holds the old id.
  const newer = sendFindingToMatrix(db, { target: { kind: 'new', title: 'Written against v19' }, finding: { title: 'Log clearing', techniques: ['T1685.005'], indicators: [], source: { service: 'attrib', kind: 'extraction', id: 'v19.txt' } } }, kb, when).id;
  const scenario = getMatrix(db, newer)?.scenario;
  if (scenario === undefined) throw new Error('the sent matrix was not stored');
  const older = saveMatrix(db, { ...scenario, evidence: scenario.evidence.map((e) => ({ ...e, summary: 'Security log cleared', techniques: ['T1070.001'] })) }, { kind: 'matrix.imported-stix' }, undefined, when).id;

  it('a technique id finds matrices that hold its counterpart of another release, each once, by their evidence techniques', async () => {
    expect(getMatrix(db, older)?.scenario.evidence.flatMap((e) => e.techniques ?? [])).toEqual(['T1070.001']);
    for (const q of ['T1070.001', 'T1685.005', 't1685.005']) {
      const hits = await attribSearch.search(db, classifyQuery(q), 10);
      expect(hits.map((h) => h.id).sort(), q).toEqual([older, newer].sort());
      expect(hits.map((h) => [h.kind, h.rank]), q).toEqual([
        ['matrix', 3],
        ['matrix', 3],
      ]);
      expect(hits.every((h) => /^evidence E\d+ techniques$/.test(h.field)), q).toBe(true);
    }
    // an unrelated technique finds neither, and the limit holds across the releases' ids
    expect(await attribSearch.search(db, classifyQuery('T1059.001'), 10)).toEqual([]);
    expect(await attribSearch.search(db, classifyQuery('T1070.001'), 1)).toHaveLength(1);
  });
});
