// Replay's search provider over a store filled by the real analysis path (demo captures saved with saveAnalysis).
import { describe, expect, it } from 'vitest';
import { classifyQuery } from '../core/search.js';
import { openMemoryStore } from '../core/store.js';
import { demo, loadIndicators } from './index.js';
import { replaySearch } from './search.js';
import { replayService } from './service.js';
import { saveAnalysis } from './store.js';

describe('replay search', () => {
  const indicators = loadIndicators();
  const db = openMemoryStore([replayService]);
  const analysis = demo(5, { indicators, now: new Date('2025-01-01T00:00:00Z') }).analysis;
  saveAnalysis(db, analysis);
  const story = analysis.stories[0];

  it('finds a story by its attacker address, technique id and title words, and the analysis by its capture hash', async () => {
    expect(story?.attacker).toBeTruthy();
    const byIp = await replaySearch.search(db, classifyQuery(story?.attacker ?? ''), 10);
    expect(byIp.find((h) => h.kind === 'story')).toMatchObject({ id: story?.id, field: 'attacker', rank: 3, link: { service: 'replay', kind: 'story', id: story?.id, parent: analysis.id } });
    const technique = story?.techniques[0]?.id ?? '';
    expect((await replaySearch.search(db, classifyQuery(technique.toLowerCase()), 10)).map((h) => h.id)).toContain(story?.id);
    const byHash = await replaySearch.search(db, classifyQuery(analysis.capture.sha256.toUpperCase()), 10);
    expect(byHash).toContainEqual(expect.objectContaining({ kind: 'analysis', id: analysis.id, field: 'capture sha256', rank: 3 }));
  });

  it('does not find an address that only prefixes a stored one, and finds nothing for an unknown hash', async () => {
    const ip = story?.attacker ?? '';
    const prefix = ip.slice(0, ip.lastIndexOf('.') + 1) + '2' + ip.slice(ip.lastIndexOf('.') + 1);
    expect((await replaySearch.search(db, classifyQuery(prefix), 10)).filter((h) => h.field === 'attacker')).toEqual([]);
    expect(await replaySearch.search(db, classifyQuery('f'.repeat(64)), 10)).toEqual([]);
  });

  it('finds an alert rule of the analysis by its name, an address it names and a technique, linking to the rule there', async () => {
    const link = (rule: string) => ({ service: 'replay', kind: 'alert', id: rule, parent: analysis.id });
    const byRule = await replaySearch.search(db, classifyQuery('port_scan'), 10);
    expect(byRule).toContainEqual(expect.objectContaining({ kind: 'alert', id: `${analysis.id}/port_scan`, field: 'rule', rank: 3, link: link('port_scan') }));
    // The analysis's own per-rule counts would only repeat the alert hit.
    expect(byRule.filter((h) => h.kind === 'analysis')).toEqual([]);
    const bad = analysis.alerts.filter((a) => a.rule === 'known_bad_indicator');
    expect(bad.length).toBeGreaterThan(1);
    const ip = bad[0]?.dst.find((d) => bad.every((a) => a.src === d || a.dst.includes(d))) ?? '';
    expect(ip).not.toBe('');
    const byIp = (await replaySearch.search(db, classifyQuery(ip), 10)).filter((h) => h.kind === 'alert');
    const rules = [...new Set(analysis.alerts.filter((a) => a.src === ip || a.dst.includes(ip)).map((a) => a.rule))];
    expect(byIp.map((h) => h.link)).toEqual(expect.arrayContaining(rules.map(link)));
    expect(byIp).toHaveLength(rules.length);
    expect(byIp.find((h) => h.link.id === 'known_bad_indicator')).toMatchObject({ field: 'hosts', title: expect.stringContaining(`${bad.length} alerts of rule known_bad_indicator`) });
    const last = analysis.alerts.at(-1);
    const technique = last?.techniques[0] ?? '';
    expect(await replaySearch.search(db, classifyQuery(technique), 10)).toContainEqual(expect.objectContaining({ kind: 'alert', field: 'techniques', link: link(last?.rule ?? '') }));
  });

  it('does not find an alert by an address that only prefixes one it names', async () => {
    const named = new Set(analysis.alerts.flatMap((a) => [a.src, ...a.dst]));
    const prefix = [...named].map((h) => h.slice(0, -1)).find((p) => !named.has(p) && [...named].some((h) => h.startsWith(p)) && /\.\d+$/.test(p)) ?? '';
    expect(prefix).not.toBe('');
    expect((await replaySearch.search(db, classifyQuery(prefix), 10)).filter((h) => h.kind === 'alert')).toEqual([]);
  });

  it('keeps to the limit and treats LIKE wildcards in the query as text', async () => {
    expect(await replaySearch.search(db, classifyQuery('%_%'), 10)).toEqual([]);
    expect((await replaySearch.search(db, classifyQuery(story?.attacker ?? ''), 1)).filter((h) => h.kind === 'story')).toHaveLength(1);
    expect((await replaySearch.search(db, classifyQuery(story?.attacker ?? ''), 1)).filter((h) => h.kind === 'alert')).toHaveLength(1);
  });
});
