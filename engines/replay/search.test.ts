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

  it('finds a story by its attacker address, technique id and title words, and the analysis by its capture hash', () => {
    expect(story?.attacker).toBeTruthy();
    const byIp = replaySearch.search(db, classifyQuery(story?.attacker ?? ''), 10);
    expect(byIp.find((h) => h.kind === 'story')).toMatchObject({ id: story?.id, field: 'attacker', rank: 3, link: { service: 'replay', kind: 'story', id: story?.id, parent: analysis.id } });
    const technique = story?.techniques[0]?.id ?? '';
    expect(replaySearch.search(db, classifyQuery(technique.toLowerCase()), 10).map((h) => h.id)).toContain(story?.id);
    const byHash = replaySearch.search(db, classifyQuery(analysis.capture.sha256.toUpperCase()), 10);
    expect(byHash).toContainEqual(expect.objectContaining({ kind: 'analysis', id: analysis.id, field: 'capture sha256', rank: 3 }));
  });

  it('does not find an address that only prefixes a stored one, and finds nothing for an unknown hash', () => {
    const ip = story?.attacker ?? '';
    const prefix = ip.slice(0, ip.lastIndexOf('.') + 1) + '2' + ip.slice(ip.lastIndexOf('.') + 1);
    expect(replaySearch.search(db, classifyQuery(prefix), 10).filter((h) => h.field === 'attacker')).toEqual([]);
    expect(replaySearch.search(db, classifyQuery('f'.repeat(64)), 10)).toEqual([]);
  });

  it('keeps to the limit and treats LIKE wildcards in the query as text', () => {
    expect(replaySearch.search(db, classifyQuery('%_%'), 10)).toEqual([]);
    expect(replaySearch.search(db, classifyQuery(story?.attacker ?? ''), 1).filter((h) => h.kind === 'story')).toHaveLength(1);
  });
});
