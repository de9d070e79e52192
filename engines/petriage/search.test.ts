// Triage's search provider over a store filled by analyze + saveAnalysis on the generated family and benign samples.
import { describe, expect, it } from 'vitest';
import { classifyQuery } from '../core/search.js';
import { openMemoryStore } from '../core/store.js';
import { analyze } from './analyze.js';
import { benignSamples, familySamples } from './corpus.js';
import { loadModel } from './model.js';
import { petriageSearch } from './search.js';
import { petriageService } from './service.js';
import { saveAnalysis } from './store.js';

describe('petriage search', () => {
  const db = openMemoryStore([petriageService]);
  const model = loadModel();
  const bad = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
  const good = analyze((benignSamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
  const a = saveAnalysis(db, bad, new Date('2024-01-01T00:00:00Z'));
  const b = saveAnalysis(db, good, new Date('2024-01-02T00:00:00Z'), 'Quarterly_Report_100%_final.exe');

  it('finds an analysis by its SHA-256 (any case), its family and its imphash', async () => {
    expect(await petriageSearch.search(db, classifyQuery(bad.sha256.toUpperCase()), 10)).toEqual([
      expect.objectContaining({ service: 'petriage', kind: 'analysis', id: a.id, field: 'sha256', rank: 3, link: { service: 'petriage', kind: 'analysis', id: a.id } }),
    ]);
    expect((await petriageSearch.search(db, classifyQuery('hollowpoint'), 10)).map((h) => h.id)).toEqual([a.id]);
    const imphash = bad.pe?.imphash ?? '';
    expect(imphash).toMatch(/^[0-9a-f]{32}$/);
    const byImphash = await petriageSearch.search(db, classifyQuery(imphash), 10);
    expect(byImphash.map((h) => h.id)).toContain(a.id);
    expect(byImphash.find((h) => h.id === a.id)?.field).toMatch(/^result: /);
  });

  it('finds an analysis by the file name its upload gave (any case, LIKE wildcards taken literally); the title names the file', async () => {
    const hits = await petriageSearch.search(db, classifyQuery('quarterly_report_100%'), 10);
    expect(hits).toEqual([expect.objectContaining({ id: b.id, field: 'file name', rank: 3 })]);
    expect(hits[0]?.title).toContain('Quarterly_Report_100%_final.exe');
    expect(await petriageSearch.search(db, classifyQuery('quarterly%final'), 10)).toEqual([]);
    // An analysis stored without a name keeps the short SHA-256 in its title.
    const byFamily = await petriageSearch.search(db, classifyQuery('hollowpoint'), 10);
    expect(byFamily[0]?.title).toBe(`MALICIOUS · hollowpoint · ${bad.sha256.slice(0, 16)}…`);
  });

  it('finds nothing for an unknown hash or a hash prefix', async () => {
    expect(await petriageSearch.search(db, classifyQuery('0'.repeat(64)), 10)).toEqual([]);
    expect(await petriageSearch.search(db, classifyQuery(bad.sha256.slice(0, 40)), 10)).toEqual([]);
  });
});
