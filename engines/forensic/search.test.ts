// Cases' search provider over cases made by the real scenario job and stored with createCase + completeCase.
import { describe, expect, it } from 'vitest';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { Story } from '../core/contracts/forensic.js';
import { classifyQuery } from '../core/search.js';
import { openMemoryStore } from '../core/store.js';
import { jobs, SCENARIO_JOB, type CaseJobResult } from './jobs.js';
import { forensicSearch, searchCase } from './search.js';
import { forensicService } from './service.js';
import { completeCase, createCase } from './store.js';

const NOW = '2024-03-05T08:00:00.000Z';

describe('forensic search', async () => {
  const runner = new InProcessRunner(jobs);
  const db = openMemoryStore([forensicService]);
  const made: Record<string, CaseJobResult> = {};
  for (const [id, name] of [['case-lm', 'lateral-movement'], ['case-ssh', 'ssh-bruteforce']] as const) {
    const r = (await runner.run(SCENARIO_JOB, { caseId: id, name, top: 10 })) as CaseJobResult;
    createCase(db, { id, title: `Scenario ${name}`, origin: 'scenario', request: { name }, now: NOW });
    completeCase(db, id, r.view, r.custody, NOW);
    made[id] = r;
  }
  const lm = made['case-lm'] as CaseJobResult;

  it('finds a story by a host and a technique id, and the case by its title', async () => {
    const story = lm.view.stories[0];
    const host = story?.hosts[0] ?? '';
    expect(host).not.toBe('');
    const byHost = await forensicSearch.search(db, classifyQuery(host), 10);
    expect(byHost).toContainEqual(expect.objectContaining({ kind: 'story', link: { service: 'forensic', kind: 'story', id: story?.id, parent: 'case-lm' }, field: 'hosts', rank: 3 }));
    const technique = story?.techniques[0]?.id ?? '';
    expect((await forensicSearch.search(db, classifyQuery(technique), 10)).map((h) => h.link.parent ?? h.id)).toContain('case-lm');
    expect((await forensicSearch.search(db, classifyQuery('ssh-bruteforce'), 10))[0]).toMatchObject({ kind: 'case', id: 'case-ssh', field: 'title' });
  });

  it('finds a stored event (not in a story) as an event hit that opens it in its case', async () => {
    const inStories = new Set(lm.view.stories.flatMap((s) => s.eventIds));
    const outside = lm.view.events.find((e) => !inStories.has(e.eventId));
    expect(outside).toBeDefined();
    const hits = await forensicSearch.search(db, classifyQuery(outside?.integrityHash ?? ''), 10);
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

  it('gives every matching event of a case up to the limit, the last hit saying how many match when not all fit', async () => {
    const matching = lm.view.events.filter((e) => e.action === 'file.create');
    expect(matching.length).toBeGreaterThan(3);
    const all = (await forensicSearch.search(db, classifyQuery('file.create'), 50)).filter((h) => h.link.parent === 'case-lm');
    expect(all.map((h) => h.link.id)).toEqual(matching.map((e) => e.eventId));
    for (const h of all) expect(h).toMatchObject({ kind: 'event', rank: 2, link: { service: 'forensic', kind: 'event', parent: 'case-lm' } });
    expect(all.at(-1)?.title).not.toMatch(/matches of this case shown/);
    const three = await forensicSearch.search(db, classifyQuery('file.create'), 3);
    expect(three).toHaveLength(3);
    expect(three.at(-1)?.title).toContain(`3 of ${matching.length} matches of this case shown`);
    expect(three[0]?.title).not.toMatch(/matches of this case shown/);
  });

  it('pages through a case with the total: its stories first, then every matching event in stored order', () => {
    const matching = lm.view.events.filter((e) => e.action === 'file.create');
    const first = searchCase(db, 'case-lm', classifyQuery('file.create'), { offset: 0, limit: 2 });
    const rest = searchCase(db, 'case-lm', classifyQuery('file.create'), { offset: 2, limit: 50 });
    expect(first?.total).toBe(matching.length);
    expect(rest?.total).toBe(matching.length);
    expect([...(first?.items ?? []), ...(rest?.items ?? [])].map((h) => h.link.id)).toEqual(matching.map((e) => e.eventId));
    expect(searchCase(db, 'no-such-case', classifyQuery('file.create'), { offset: 0, limit: 5 })).toBeNull();
    const host = lm.view.stories[1]?.hosts[0] ?? '';
    const onHost = lm.view.stories.filter((s) => s.hosts.includes(host));
    const byHost = searchCase(db, 'case-lm', classifyQuery(host), { offset: 0, limit: 50 });
    expect(byHost?.items.slice(0, onHost.length).map((h) => h.link.id)).toEqual(onHost.map((s) => s.id));
    expect(byHost?.total).toBeGreaterThan(onHost.length);
  });

  it("keeps an evidence file's SHA-256 (which every event's raw reference repeats) a hit on the case", async () => {
    const sha = lm.view.evidence[0]?.sha256 ?? '';
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    const hits = await forensicSearch.search(db, classifyQuery(sha), 10);
    expect(hits).toEqual([expect.objectContaining({ kind: 'case', id: 'case-lm', rank: 1 })]);
    expect(hits[0]?.field).toMatch(/^view: evidence/);
  });

  it('finds every story of a case that holds a technique or host, not one per case', async () => {
    // Two stories of one case with T1003.001 (LSASS memory), as analyses of credential theft on two hosts give.
    const lsass = lm.view.stories[0]?.techniques.find((t) => t.id === 'T1003.001');
    expect(lsass).toBeDefined();
    // The scenario gives one story; a second one on the same hosts (without LSASS) stands for another analysed chain.
    const first = lm.view.stories[0] as Story;
    const base: Story[] = lm.view.stories.length > 1 ? [...lm.view.stories] : [first, { ...first, id: 'S2', rank: 2, techniques: first.techniques.filter((t) => t.id !== 'T1003.001') }];
    const stories: Story[] = base.map((s, i) => (i === 1 && lsass ? { ...s, techniques: [...s.techniques, lsass] } : s));
    expect(stories.filter((s) => s.techniques.some((t) => t.id === 'T1003.001'))).toHaveLength(2);
    createCase(db, { id: 'case-two', title: 'Two credential stories', origin: 'scenario', request: { name: 'lateral-movement' }, now: NOW });
    completeCase(db, 'case-two', { ...lm.view, stories }, lm.custody, NOW);
    const hits = (await forensicSearch.search(db, classifyQuery('T1003.001'), 10)).filter((h) => h.link.parent === 'case-two');
    expect(hits.map((h) => h.link.id)).toEqual([stories[0]?.id, stories[1]?.id]);
    expect(hits.every((h) => h.kind === 'story' && h.field === 'techniques')).toBe(true);
    const page = searchCase(db, 'case-two', classifyQuery('T1003.001'), { offset: 1, limit: 1 });
    expect(page?.items.map((h) => h.link.id)).toEqual([stories[1]?.id]);
    expect(page?.total).toBeGreaterThanOrEqual(2);
    // Every story on a host, not only the first.
    const host = stories[1]?.hosts[0] ?? '';
    const onHost = stories.filter((s) => s.hosts.includes(host)).map((s) => s.id);
    expect(onHost.length).toBeGreaterThan(1);
    const byHost = (searchCase(db, 'case-two', classifyQuery(host), { offset: 0, limit: 500 })?.items ?? []).filter((h) => h.kind === 'story');
    expect(byHost.map((h) => h.link.id)).toEqual(onHost);
  });

  it('finds stories by their tactics (rule tactics as stages, v19 names) and by an 18.1 id their current technique replaced', async () => {
    const first = lm.view.stories[0] as Story;
    const impaired: Story = {
      ...first,
      id: 'S1',
      title: 'Clear Windows Event Logs on DC01',
      stages: ['defense-impairment'],
      techniques: [{ id: 'T1685.005', name: 'Clear Windows Event Logs', tactics: ['defense-impairment'] }],
    };
    const hidden: Story = { ...first, id: 'S2', rank: 2, title: 'Hidden thing on DC01', stages: ['stealth'], techniques: [] };
    const other: Story = { ...first, id: 'S3', rank: 3, title: 'Something else on DC01', stages: ['discovery'], techniques: [] };
    createCase(db, { id: 'case-tactics', title: 'Tactic stories', origin: 'scenario', request: { name: 'log-clearing' }, now: NOW });
    completeCase(db, 'case-tactics', { ...lm.view, stories: [impaired, hidden, other] }, lm.custody, NOW);
    const storiesOf = async (q: string): Promise<string[]> => (await forensicSearch.search(db, classifyQuery(q), 50)).filter((h) => h.link.parent === 'case-tactics' && h.kind === 'story').map((h) => h.link.id);
    // A rule's tactic (the story's stage) finds the story, by short name or by name.
    expect(await storiesOf('stealth')).toEqual(['S2']);
    expect(await storiesOf('Defense Impairment')).toEqual(['S1']);
    // Defense Evasion, split by ATT&CK v19, finds both of its successors.
    expect(await storiesOf('defense evasion')).toEqual(['S1', 'S2']);
    // The 18.1 id finds the story tagged with its v19 replacement; the current id finds it too.
    expect(await storiesOf('T1070.001')).toEqual(['S1']);
    expect(await storiesOf('T1685.005')).toEqual(['S1']);
    expect(searchCase(db, 'case-tactics', classifyQuery('T1070.001'), { offset: 0, limit: 10 })?.items[0]).toMatchObject({ kind: 'story', field: 'techniques' });
    expect(await storiesOf('T1070.002')).toEqual([]);
  });

  it('finds nothing for an unknown address and keeps to the limit', async () => {
    expect(await forensicSearch.search(db, classifyQuery('192.0.2.254'), 10)).toEqual([]);
    expect(await forensicSearch.search(db, classifyQuery('scenario'), 1)).toHaveLength(1);
  });
});
