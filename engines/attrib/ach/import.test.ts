// STIX 2.1 bundles into ACH matrices (every OASIS example of the corpus, and malformed ones), stored matrices, and findings sent to them.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { AchAssessment } from '../../core/contracts/ach.js';
import type { StixImportSummary } from '../../core/contracts/findings.js';
import { VitrineError } from '../../core/errors.js';
import { listen, type Listening } from '../../core/http/server.js';
import { openMemoryStore } from '../../core/store.js';
import { loadKb } from '../kb/kb.js';
import { createStandaloneApp } from '../http.js';
import { attribService } from '../service.js';
import { analyzeScenario } from './engine.js';
import { stixToScenario } from './import.js';
import { MIXED_FINDING } from '../../core/findings.fixture.js';
import { addFindingToScenario, getMatrix, sendFindingToMatrix } from './matrices.js';

const DIR = corpusPath('cti', 'stix21-examples');
const files = hasCorpora() ? readdirSync(DIR).filter((f) => f.endsWith('.json')).sort() : [];
const read = (name: string): unknown => JSON.parse(readFileSync(`${DIR}/${name}`, 'utf8')) as unknown;
const count = (rows: StixImportSummary['mapped'] | StixImportSummary['skipped'], type: string) => rows.filter((m) => m.type === type).reduce((n, m) => n + m.count, 0);

describe.skipIf(files.length === 0)('STIX 2.1 bundle into an ACH matrix', () => {
  it.each(files)('%s imports into a scenario the engine scores; every type is mapped or skipped with a reason', (name) => {
    const bundle = read(name) as { id: string; objects: { type: string }[] };
    const { scenario, summary } = stixToScenario(bundle);
    const a = analyzeScenario(scenario);
    expect(a.hypotheses.length).toBeGreaterThanOrEqual(2);
    expect(a.evidence.length).toBeGreaterThan(0);
    expect(summary.objects).toBe(bundle.objects.length);
    // Each object is counted exactly once: mapped (when any part of it was) or skipped under one reason.
    for (const t of new Set(bundle.objects.map((o) => o.type))) expect(count(summary.mapped, t) + count(summary.skipped, t), t).toBe(bundle.objects.filter((o) => o.type === t).length);
    for (const s of summary.skipped) expect(s.reason.length).toBeGreaterThan(10);
  });

  it('apt1.json (refused before): the intrusion set and threat actors are hypotheses, indicators of APT1 malware are consistent with it', () => {
    const { scenario, summary } = stixToScenario(read('apt1.json'));
    const titles = (scenario.hypotheses ?? []).map((h) => h.title);
    expect(titles).toContain('Intrusion set APT1');
    expect(titles.at(-1)).toBe('Another actor, not named in the bundle');
    expect(count(summary.mapped, 'threat-actor')).toBe(5);
    expect(count(summary.mapped, 'indicator')).toBe(12);
    expect(count(summary.skipped, 'identity')).toBe(4);
    const rated = scenario.evidence.filter((e) => e.type === 'indicator' && Object.keys(e.ratings ?? {}).length > 0);
    expect(rated.length).toBeGreaterThan(0);
    const a = analyzeScenario(scenario);
    expect(a.leader).not.toBe('H-OTHER');
  });

  it('poisonivy.json: three unattributed campaigns are three hypotheses; their attack patterns and malware are rated C', () => {
    const { scenario } = stixToScenario(read('poisonivy.json'));
    expect((scenario.hypotheses ?? []).filter((h) => h.title.startsWith('Campaign '))).toHaveLength(3);
    const malware = scenario.evidence.filter((e) => e.type === 'malware');
    expect(malware.length).toBe(25);
    expect(malware.some((e) => Object.values(e.ratings ?? {}).includes('C'))).toBe(true);
  });

  it('indicator-for-c2-ip-address.json: no actor at all still gives two hypotheses (another actor, not hostile)', () => {
    const { scenario } = stixToScenario(read('indicator-for-c2-ip-address.json'));
    expect((scenario.hypotheses ?? []).map((h) => h.id)).toEqual(['H-OTHER', 'H-NULL']);
  });
});

describe('malformed bundles', () => {
  const indicator = { type: 'indicator', spec_version: '2.1', id: 'indicator--33fe3b22-0201-47cf-85d0-97c02164528d', created: '2014-05-08T09:00:00.000Z', modified: '2014-05-08T09:00:00.000Z', pattern: "[ipv4-addr:value = '10.0.0.9']", pattern_type: 'stix', valid_from: '2014-05-08T09:00:00.000Z' };
  const ok = { type: 'bundle', id: 'bundle--44af6c39-c09b-49c5-9de2-394224b04982', objects: [indicator] };
  it.each([
    ['not a bundle', { ...ok, type: 'grouping' }],
    ['STIX 2.0', { ...ok, spec_version: '2.0' }],
    ['an object without spec_version', { ...ok, objects: [{ ...indicator, spec_version: undefined }] }],
    ['too many objects', { ...ok, objects: Array.from({ length: 20_001 }, () => indicator) }],
    ['nothing that can be evidence', { ...ok, objects: [{ type: 'identity', spec_version: '2.1', id: 'identity--33fe3b22-0201-47cf-85d0-97c02164528d', created: '2014-05-08T09:00:00.000Z', modified: '2014-05-08T09:00:00.000Z', name: 'secret-name' }] }],
  ])('%s: 422 without echoing values', (_what, value) => {
    let err: unknown;
    try {
      stixToScenario(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('validation_failed');
    expect(JSON.stringify({ m: (err as VitrineError).message, d: (err as VitrineError).details })).not.toContain('secret-name');
  });
});

describe('findings sent to a matrix', () => {
  const finding = {
    title: 'Report extraction',
    techniques: ['T1566.001', 'T1059.001', 'T1003.001'],
    indicators: [{ type: 'domain' as const, value: 'evil.example' }],
    source: { service: 'attrib', kind: 'extraction', id: 'report.txt', link: '#/ach/extraction' },
  };
  const kb = loadKb();

  it('a new matrix: the closest ATT&CK groups as hypotheses plus the unnamed actor, one evidence row per item with the source', () => {
    const db = openMemoryStore([attribService]);
    const r = sendFindingToMatrix(db, { target: { kind: 'new', title: 'Phishing wave' }, finding }, kb);
    expect(r.created).toBe(true);
    expect(r.added).toEqual(['E1', 'E2', 'E3', 'E4']);
    expect(r.scenario.hypotheses).toHaveLength(4);
    expect(r.scenario.evidence[0]).toMatchObject({ type: 'technique', techniques: ['T1566.001'], source: expect.stringContaining('#/ach/extraction') as string });
    expect(r.scenario.evidence[0]!.summary).toContain('Spearphishing Attachment');
    const a: AchAssessment = analyzeScenario(getMatrix(db, r.id)!.scenario);
    expect(a.evidence.flatMap((e) => e.cells).some((c) => c.source === 'derived')).toBe(true);
    const again = sendFindingToMatrix(db, { target: { kind: 'existing', id: r.id }, finding: { ...finding, techniques: ['T1059.001', 'T1105'] } }, kb);
    expect(again.added).toEqual(['E5']);
    expect(again.skipped).toEqual(expect.arrayContaining([expect.objectContaining({ item: 'T1059.001' }), expect.objectContaining({ item: 'domain evil.example' })]));
    expect(() => sendFindingToMatrix(db, { target: { kind: 'existing', id: '00000000-0000-4000-8000-000000000000' }, finding }, kb)).toThrow(/no such stored matrix/);
    expect(() => db.prepare('UPDATE attrib_matrix_log SET actor = ?').run('x')).toThrow();
  });

  it('without a knowledge base a new matrix still has two hypotheses', () => {
    const db = openMemoryStore([attribService]);
    expect(sendFindingToMatrix(db, { target: { kind: 'new', title: 'x' }, finding }, null).scenario.hypotheses?.map((h) => h.id)).toEqual(['H-OTHER', 'H-NULL']);
  });

  it('appending keeps the existing evidence ids and numbers after them', () => {
    const r = addFindingToScenario({ hypotheses: [{ id: 'A', title: 'a' }, { id: 'B', title: 'b' }], evidence: [{ id: 'E2', summary: 'old' }] }, { target: { kind: 'existing', id: 'x' }, finding: { ...finding, techniques: ['T1105'], indicators: [] } });
    expect(r.scenario.evidence.map((e) => e.id)).toEqual(['E2', 'E3']);
  });
});

describe('HTTP: /matrices, /matrices/import/stix, /matrices/evidence', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createStandaloneApp({ token: '', db: openMemoryStore([attribService]) }), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it.skipIf(files.length === 0)('imports apt1.json as a stored matrix that POST /ach scores', async () => {
    const res = await post('/matrices/import/stix', read('apt1.json'));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { matrix: { id: string }; summary: StixImportSummary };
    expect(body.summary.skipped.length).toBeGreaterThan(0);
    const list = (await (await fetch(`${server.url}/matrices`)).json()) as { items: { id: string }[] };
    expect(list.items[0]?.id).toBe(body.matrix.id);
    const stored = (await (await fetch(`${server.url}/matrices/${body.matrix.id}`)).json()) as { scenario: unknown };
    expect((await post('/ach', { scenario: stored.scenario, preview: true })).status).toBe(200);
  });

  it.skipIf(!files.includes('apt1.json'))('a re-import merges into the matrix the bundle made (200), keeping the rows Send to added; the log keeps their text', async () => {
    const bundle = read('apt1.json') as { id: string };
    // A bundle of its own id, so the test above does not share its matrix.
    const mine = { ...bundle, id: 'bundle--0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' };
    const first = await post('/matrices/import/stix', mine);
    expect(first.status).toBe(201);
    const { matrix } = (await first.json()) as { matrix: { id: string; evidence_count: number } };
    const sent = await post('/matrices/evidence', { target: { kind: 'existing', id: matrix.id }, finding: { title: 'C2 in capture', techniques: [], indicators: [{ type: 'ipv4', value: '203.0.113.77' }], source: { service: 'replay', kind: 'story', id: '3', link: '#/replay/story/3' } } });
    expect(sent.status).toBe(200);
    const again = await post('/matrices/import/stix', mine);
    expect(again.status).toBe(200);
    const merged = (await again.json()) as { matrix: { id: string; evidence_count: number }; merged: { into: string; added: string[] } };
    expect(merged.merged).toMatchObject({ into: matrix.id, added: [] });
    expect(merged.matrix.evidence_count).toBe(matrix.evidence_count + 1);
    const stored = (await (await fetch(`${server.url}/matrices/${matrix.id}`)).json()) as { scenario: { evidence: { summary: string }[] } };
    expect(stored.scenario.evidence.some((e) => e.summary.includes('203.0.113.77'))).toBe(true);
    const list = (await (await fetch(`${server.url}/matrices`)).json()) as { items: { id: string }[] };
    expect(list.items.filter((i) => i.id === matrix.id)).toHaveLength(1);
    const db = openMemoryStore([attribService]);
    const r = sendFindingToMatrix(db, { target: { kind: 'new', title: 'Logged' }, finding: { title: 't', techniques: [], indicators: [{ type: 'domain', value: 'c2.example.net' }], source: { service: 'replay', kind: 'story', id: '1' } } }, null);
    const payload = JSON.parse((db.prepare('SELECT payload FROM attrib_matrix_log ORDER BY seq DESC LIMIT 1').get() as { payload: string }).payload) as { added: { id: string; summary: string }[] };
    expect(payload.added).toEqual([expect.objectContaining({ id: r.added[0], summary: expect.stringContaining('c2.example.net') })]);
  });

  it('refuses a truncated body (400), a 2.0 bundle (422), an unknown matrix (404) and a bad finding (422)', async () => {
    expect((await post('/matrices/import/stix', '{"type":"bundle","objects":[')).status).toBe(400);
    expect((await post('/matrices/import/stix', { type: 'bundle', id: 'bundle--44af6c39-c09b-49c5-9de2-394224b04982', spec_version: '2.0', objects: [{ type: 'x', id: 'x--1' }] })).status).toBe(422);
    expect((await fetch(`${server.url}/matrices/nope`)).status).toBe(404);
    expect((await post('/matrices/evidence', { target: { kind: 'new', title: 'x' }, finding: { title: 'x', techniques: ['T99'], indicators: [], source: { service: 'attrib', kind: 'extraction', id: '1' } } })).status).toBe(422);
  });
});

describe('STIX import summary counts', () => {
  it('counts each of the eight objects once: a multi-value indicator, an observable, a link to a missing object', async () => {
    const { EIGHT_OBJECT_BUNDLE } = await import('../../core/stix-import.fixture.js');
    const { summary } = stixToScenario(EIGHT_OBJECT_BUNDLE);
    const total = [...summary.mapped, ...summary.skipped].reduce((n, r) => n + r.count, 0);
    expect(total).toBe(8);
    expect(summary.skipped.filter((r) => r.type === 'relationship' && r.reason.includes('not in the bundle'))).toEqual([expect.objectContaining({ count: 1 })]);
    expect(count(summary.mapped, 'relationship') + count(summary.skipped, 'relationship')).toBe(3);
  });
});

describe('Send to ACH through the shared normaliser (engines/core/findings.ts)', () => {
  it('lower-case ids kept, revoked ids replaced, unknown ids and malformed values skipped (as Assessment: engines/caseassess/import.test.ts)', () => {
    const matrix = sendFindingToMatrix(openMemoryStore([attribService]), { target: { kind: 'new', title: 'm' }, finding: MIXED_FINDING }, null);
    expect(matrix.skipped.map((s) => s.item)).toEqual(['T9999', 'sha256 ZZZ', 'ipv4 10.0.0']);
    expect(matrix.scenario.evidence.filter((e) => e.type === 'technique').map((e) => e.techniques)).toEqual([['T1059.001']]);
    expect(matrix.scenario.evidence[0]?.summary).toContain('PowerShell');
    expect(matrix.scenario.evidence.filter((e) => e.type === 'indicator').map((e) => e.summary)).toEqual([`sha256 ${'a'.repeat(64)}`, 'ipv4 105.73.6.112:80', 'domain c2.example.net']);
  });
});
