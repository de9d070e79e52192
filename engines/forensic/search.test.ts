// Cases' search provider over cases made by the real scenario job and stored with createCase + completeCase.
import { describe, expect, it } from 'vitest';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { classifyQuery } from '../core/search.js';
import { openMemoryStore } from '../core/store.js';
import { jobs, SCENARIO_JOB, type CaseJobResult } from './jobs.js';
import { EVENTS_PER_CASE, forensicSearch } from './search.js';
import { forensicService } from './service.js';
import { completeCase, createCase } from './store.js';

const NOW = '2024-03-05T08:00:00.000Z';

describe('forensic search', async () => {
  const runner = new InProcessRunner(jobs);
  const db = openMemoryStore([forensicService]);
  const made: Record<string, CaseJobResult> = {};
  for (const [id, name] of [['case-lm', 'lateral-movement'], ['case-ssh', 'ssh-bruteforce']] as const) {
    const r = (await runner.run(SCENARIO_JOB, { caseId: id, name, top: 3 })) as CaseJobResult;
    createCase(db, { id, title: `Scenario ${name}`, origin: 'scenario', request: { name }, now: NOW });
    completeCase(db, id, r.view, r.custody, NOW);
    made[id] = r;
  }
  const lm = made['case-lm'] as CaseJobResult;

  it('finds a story by a host and a technique id, and the case by its title', () => {
    const story = lm.view.stories[0];
    const host = story?.hosts[0] ?? '';
    expect(host).not.toBe('');
    const byHost = forensicSearch.search(db, classifyQuery(host), 10);
    expect(byHost).toContainEqual(expect.objectContaining({ kind: 'story', link: { service: 'forensic', kind: 'story', id: story?.id, parent: 'case-lm' }, field: 'hosts', rank: 3 }));
    const technique = story?.techniques[0]?.id ?? '';
    expect(forensicSearch.search(db, classifyQuery(technique), 10).map((h) => h.link.parent ?? h.id)).toContain('case-lm');
    expect(forensicSearch.search(db, classifyQuery('ssh-bruteforce'), 10)[0]).toMatchObject({ kind: 'case', id: 'case-ssh', field: 'title' });
  });

  it('finds a stored event (not in a story) as an event hit that opens it in its case', () => {
    const inStories = new Set(lm.view.stories.flatMap((s) => s.eventIds));
    const outside = lm.view.events.find((e) => !inStories.has(e.eventId));
    expect(outside).toBeDefined();
    const hits = forensicSearch.search(db, classifyQuery(outside?.integrityHash ?? ''), 10);
    expect(hits).toEqual([
      expect.objectContaining({
        kind: 'event',
        id: `case-lm/${outside?.eventId}`,
        rank: 3,
        link: { service: 'forensic', kind: 'event', id: outside?.eventId, parent: 'case-lm' },
        title: expect.stringContaining(outside?.summary.slice(0, 40) ?? '-'),
      }),
    ]);
    expect(hits[0]?.field).toMatch(/^event #\d+: integrity hash$/);
    expect(hits[0]?.title).toContain('(Scenario lateral-movement)');
  });

  it('gives at most EVENTS_PER_CASE event hits per case, the last saying more match', () => {
    const matching = lm.view.events.filter((e) => e.action === 'file.create');
    expect(matching.length).toBeGreaterThan(EVENTS_PER_CASE);
    const hits = forensicSearch.search(db, classifyQuery('file.create'), 10).filter((h) => h.link.parent === 'case-lm');
    expect(hits).toHaveLength(EVENTS_PER_CASE);
    const ids = new Set(matching.map((e) => e.eventId));
    for (const h of hits) {
      expect(h).toMatchObject({ kind: 'event', rank: 2, link: { service: 'forensic', kind: 'event', parent: 'case-lm' } });
      expect(ids.has(h.link.id)).toBe(true);
    }
    expect(hits[0]?.field).toMatch(/^event #\d+: action$/);
    expect(hits.at(-1)?.title).toMatch(/more events of this case match \(first 3 shown/);
    expect(hits[0]?.title).not.toMatch(/more events/);
    // One matching event: no note.
    const single = lm.view.events.filter((e) => e.action === 'process.access');
    expect(single).toHaveLength(1);
    const one = forensicSearch.search(db, classifyQuery('process.access'), 10).filter((h) => h.link.parent === 'case-lm');
    expect(one).toEqual([expect.objectContaining({ kind: 'event', link: { service: 'forensic', kind: 'event', id: single[0]?.eventId, parent: 'case-lm' } })]);
    expect(one[0]?.title).not.toMatch(/more events/);
  });

  it("keeps an evidence file's SHA-256 (which every event's raw reference repeats) a hit on the case", () => {
    const sha = lm.view.evidence[0]?.sha256 ?? '';
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    const hits = forensicSearch.search(db, classifyQuery(sha), 10);
    expect(hits).toEqual([expect.objectContaining({ kind: 'case', id: 'case-lm', rank: 1 })]);
    expect(hits[0]?.field).toMatch(/^view: evidence/);
  });

  it('finds nothing for an unknown address and keeps to the limit', () => {
    expect(forensicSearch.search(db, classifyQuery('192.0.2.254'), 10)).toEqual([]);
    expect(forensicSearch.search(db, classifyQuery('scenario'), 1)).toHaveLength(1);
  });
});
