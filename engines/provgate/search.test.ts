// Lineage's search provider over runs made by the real gate (demo scenarios) and saved with saveRun.
import { describe, expect, it } from 'vitest';
import { classifyQuery } from '../core/search.js';
import { openMemoryStore } from '../core/store.js';
import { runDemoJob } from './jobs.js';
import { provgateSearch } from './search.js';
import { provgateService } from './service.js';
import { saveRun } from './store.js';

const ctx = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };

describe('provgate search', () => {
  const db = openMemoryStore([provgateService]);
  const clean = runDemoJob({ scenario: 'clean' }, ctx);
  const cve = runDemoJob({ scenario: 'cve-origin' }, ctx);
  const a = saveRun(db, { source: 'demo', scenario: 'clean', envelopes: clean.envelopes, graph: clean.graph, decision: clean.decision, comment: clean.comment }, new Date('2024-01-01T00:00:00Z'));
  const b = saveRun(db, { source: 'gate', envelopes: cve.envelopes, envelopesSha256: 'ab'.repeat(32), graph: cve.graph, decision: cve.decision, comment: cve.comment }, new Date('2024-01-02T00:00:00Z'));

  it('finds the run whose graph traces a CVE, by the CVE id in any case', async () => {
    const hits = await provgateSearch.search(db, classifyQuery('cve-2020-14343'), 10);
    expect(hits.map((h) => h.id)).toEqual([b.runId]);
    expect(hits[0]).toMatchObject({ kind: 'run', title: 'block · gate run', rank: 1, link: { service: 'provgate', kind: 'run', id: b.runId } });
    expect(hits[0]?.snippet).toContain('CVE-2020-14343');
  });

  it('finds runs by a package purl (name level), the envelope hash and the scenario', async () => {
    const byPurl = (await provgateSearch.search(db, classifyQuery('pkg:pypi/requests@2.32.3'), 10)).map((h) => h.id);
    expect(byPurl).toContain(b.runId);
    expect(await provgateSearch.search(db, classifyQuery('ab'.repeat(32)), 10)).toEqual([expect.objectContaining({ id: b.runId, field: 'envelopes sha256', rank: 3 })]);
    expect((await provgateSearch.search(db, classifyQuery('clean'), 10)).map((h) => h.id)).toContain(a.runId);
  });
});
