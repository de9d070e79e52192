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
  saveAnalysis(db, good, new Date('2024-01-02T00:00:00Z'));

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

  it('finds nothing for an unknown hash or a hash prefix', async () => {
    expect(await petriageSearch.search(db, classifyQuery('0'.repeat(64)), 10)).toEqual([]);
    expect(await petriageSearch.search(db, classifyQuery(bad.sha256.slice(0, 40)), 10)).toEqual([]);
  });
});
