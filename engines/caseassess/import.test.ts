// STIX 2.1 bundles into cases (every OASIS example of the corpus, and malformed ones), stored cases, and findings sent from other workspaces.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import type { StixImportSummary } from '../core/contracts/findings.js';
import type { VitrineError } from '../core/errors.js';
import { refusal } from '../core/errors.fixture.js';
import { listen, type Listening } from '../core/http/server.js';
import { openMemoryStore } from '../core/store.js';
import { validateCase } from './case.js';
import { addFindingToCase, getCase, saveCaseChecked, sendFindingToCase } from './cases.js';
import { createStandaloneApp } from './http.js';
import { stixToCase } from './import.js';
import { caseassessService } from './service.js';
import { MIXED_FINDING } from '../core/findings.fixture.js';
import { hostileBundleTexts } from '../core/stix-import.fixture.js';

const DIR = corpusPath('cti', 'stix21-examples');
const files = hasCorpora() ? readdirSync(DIR).filter((f) => f.endsWith('.json')).sort() : [];
const read = (name: string): unknown => JSON.parse(readFileSync(`${DIR}/${name}`, 'utf8')) as unknown;
const mappedOf = (s: StixImportSummary, type: string) => s.mapped.filter((m) => m.type === type).reduce((n, m) => n + m.count, 0);
const skippedOf = (s: StixImportSummary, type: string) => s.skipped.filter((m) => m.type === type).reduce((n, m) => n + m.count, 0);

describe.skipIf(files.length === 0)('STIX 2.1 bundle into a case', () => {
  // Its two indicators compare with MATCHES only and its attack pattern has no ATT&CK id: nothing to score, so 422 (below).
  const NOTHING_USABLE = 'malicious-email-indicator-with-attachment.json';

  it.skipIf(!files.includes(NOTHING_USABLE))(`${NOTHING_USABLE}: nothing in it can be evidence, so 422 and no empty case`, () => {
    expect(() => stixToCase(read(NOTHING_USABLE))).toThrow(/nothing in the bundle can be evidence/);
  });

  it.each(files.filter((f) => f !== NOTHING_USABLE))('%s imports: a valid case, and every object is either mapped or skipped with a reason', (name) => {
    const bundle = read(name) as { id: string; objects: { type: string }[] };
    const { case: kase, summary } = stixToCase(bundle);
    expect(validateCase(kase)).toEqual(kase);
    expect(summary.bundle_id).toBe(bundle.id);
    expect(summary.objects).toBe(bundle.objects.length);
    for (const s of summary.skipped) expect(s.reason.length).toBeGreaterThan(10);
    // Each object is counted exactly once: mapped (when any part of it was) or skipped under one reason.
    const types = new Set(bundle.objects.map((o) => o.type));
    for (const t of types) expect(mappedOf(summary, t) + skippedOf(summary, t), t).toBe(bundle.objects.filter((o) => o.type === t).length);
  });

  it('apt1.json (refused before): indicators from the patterns, software from malware and tools, the actors named, CAPEC-only patterns skipped', () => {
    const { case: kase, summary } = stixToCase(read('apt1.json'));
    expect(kase.case_id).toMatch(/^stix-[0-9a-f]{8}$/);
    expect(kase.indicators?.map((i) => `${i.type}:${i.value}`)).toEqual(expect.arrayContaining(['ipv4:223.166.0.0/15', 'domain:hugesoft.org', 'md5:001dd76872d80801692ff942308c64e6']));
    expect(kase.software?.length).toBe(16);
    expect(kase.techniques).toBeUndefined();
    expect(kase.description).toContain('intrusion-set APT1');
    expect(kase.indicators?.[0]?.source).toEqual({ service: 'stix', kind: 'bundle', id: (read('apt1.json') as { id: string }).id });
    expect(skippedOf(summary, 'attack-pattern')).toBe(7);
    expect(summary.skipped.some((s) => s.type === 'indicator' && /certificates|properties/.test(s.reason))).toBe(true);
    expect(mappedOf(summary, 'intrusion-set')).toBe(1);
  });

  it('poisonivy.json: OR-joined patterns give each value once; vulnerabilities and courses of action are skipped', () => {
    const { case: kase, summary } = stixToCase(read('poisonivy.json'));
    const values = (kase.indicators ?? []).map((i) => i.value);
    expect(new Set(values).size).toBe(values.length);
    expect(values).toContain('113.10.246.30');
    expect(skippedOf(summary, 'vulnerability')).toBe(6);
    expect(skippedOf(summary, 'course-of-action')).toBe(1);
  });

  it('infrastructure.json: observables in the bundle become indicators', () => {
    const { case: kase } = stixToCase(read('infrastructure.json'));
    expect((kase.indicators ?? []).map((i) => i.type).sort()).toEqual(['domain', 'ipv4']);
  });
});

describe('malformed bundles are refused with paths, never values', () => {
  const ok = { type: 'bundle', id: 'bundle--44af6c39-c09b-49c5-9de2-394224b04982', objects: [{ type: 'indicator', spec_version: '2.1', id: 'indicator--33fe3b22-0201-47cf-85d0-97c02164528d', created: '2014-05-08T09:00:00.000Z', modified: '2014-05-08T09:00:00.000Z', pattern: "[ipv4-addr:value = '10.0.0.9']", pattern_type: 'stix', valid_from: '2014-05-08T09:00:00.000Z' }] };
  const refused = (v: unknown): VitrineError => refusal(() => stixToCase(v));

  it('a minimal bundle imports', () => {
    expect(stixToCase(ok).case.indicators).toEqual([expect.objectContaining({ type: 'ipv4', value: '10.0.0.9' })]);
  });

  it.each([
    ['not an object', 'secret-text'],
    ['not a bundle', { ...ok, type: 'report' }],
    ['no objects', { ...ok, objects: [] }],
    ['a bad bundle id', { ...ok, id: 'bundle--secret-text' }],
    ['STIX 2.0 (bundle spec_version)', { ...ok, spec_version: '2.0' }],
    ['STIX 2.0 (objects without spec_version)', { ...ok, objects: [{ ...ok.objects[0], spec_version: undefined }] }],
    ['objects that are not objects', { ...ok, objects: ['secret-text'] }],
    // Nothing usable (as ACH answers): no empty case is stored.
    ['nothing usable', { ...ok, objects: [{ type: 'note', spec_version: '2.1', id: 'note--0f3e5e7a-6a1b-4c2d-8e3f-1a2b3c4d5e6f', created: '2014-05-08T09:00:00.000Z', modified: '2014-05-08T09:00:00.000Z', content: 'secret-text', object_refs: ['indicator--33fe3b22-0201-47cf-85d0-97c02164528d'] }] }],
  ])('%s: 422', (_what, value) => {
    const err = refused(value);
    expect(err.code).toBe('validation_failed');
    expect(JSON.stringify(err.details ?? [])).not.toContain('secret-text');
    expect(err.message).not.toContain('secret-text');
  });

  it('an invalid object is skipped and counted, not fatal; a truncated file is not JSON to begin with', () => {
    const bad = { ...ok.objects[0], id: 'indicator--7d1f2a5e-0c27-4a5f-9d1c-5e7c6f1f0a11', valid_from: 'yesterday' };
    const { summary } = stixToCase({ ...ok, objects: [...ok.objects, bad] });
    expect(summary.skipped).toEqual([expect.objectContaining({ type: 'indicator', count: 1, reason: expect.stringContaining('valid_from') as string })]);
    if (files.includes('apt1.json')) expect(() => JSON.parse(readFileSync(`${DIR}/apt1.json`, 'utf8').slice(0, 5000)) as unknown).toThrow();
  });
});

describe('findings sent to a case', () => {
  const finding = {
    title: 'Beacon to 203.0.113.7',
    techniques: ['T1071.001', 'T1059.001'],
    indicators: [{ type: 'ipv4' as const, value: '203.0.113.7' }],
    source: { service: 'replay', kind: 'story', id: 'S-12', link: '#/replay/story/S-12' },
  };

  it('append with new evidence ids, the source on each item, duplicates skipped', () => {
    const base = { case_id: 'c1', techniques: [{ evidence_id: 'F-T-1', id: 'T1059.001' }] };
    const r = addFindingToCase(base, { target: { kind: 'existing', id: 'c1' }, finding });
    expect(r.added).toEqual(['F-T-2', 'F-I-1']);
    expect(r.skipped).toEqual([{ item: 'T1059.001', reason: 'the case already holds this technique' }]);
    expect(r.case.techniques?.[1]).toMatchObject({ id: 'T1071.001', source: finding.source, note: expect.stringContaining('#/replay/story/S-12') as string });
  });

  it('into a new case, then into that case again; an unknown case is 404; the log records each', () => {
    const db = openMemoryStore([caseassessService]);
    const created = sendFindingToCase(db, { target: { kind: 'new', title: 'Beacon case' }, finding });
    expect(created).toMatchObject({ id: 'case-beacon-case', created: true, added: ['F-T-1', 'F-T-2', 'F-I-1'] });
    const again = sendFindingToCase(db, { target: { kind: 'existing', id: created.id }, finding: { ...finding, techniques: ['T1105'] } });
    expect(again).toMatchObject({ created: false, added: ['F-T-3'] });
    expect(getCase(db, created.id)?.evidence_count).toBe(4);
    expect(() => sendFindingToCase(db, { target: { kind: 'existing', id: 'nope' }, finding })).toThrow(/no such stored case/);
    expect((db.prepare('SELECT COUNT(*) AS n FROM caseassess_case_log').get() as { n: number }).n).toBe(2);
    expect(() => db.prepare('DELETE FROM caseassess_case_log').run()).toThrow();
  });
});

describe('HTTP: /cases, /cases/import/stix, /cases/evidence', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createStandaloneApp(), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it.skipIf(files.length === 0)('imports apt1.json, stores it, and lists it', async () => {
    const res = await post('/cases/import/stix', read('apt1.json'));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { case: { case_id: string }; summary: StixImportSummary };
    expect(body.summary.mapped.length).toBeGreaterThan(0);
    const list = (await (await fetch(`${server.url}/cases`)).json()) as { items: { case_id: string }[] };
    expect(list.items.map((i) => i.case_id)).toContain(body.case.case_id);
    expect((await fetch(`${server.url}/cases/${body.case.case_id}`)).status).toBe(200);
  });

  it('a bundle nested too deep, with a number past the double range or an object of too many members: 422 naming the rule, never a 500 or the value', async () => {
    for (const [what, text] of hostileBundleTexts()) {
      const res = await post('/cases/import/stix', text);
      const body = await res.text();
      expect(res.status, what).toBe(422);
      expect(body, what).not.toContain('secret');
    }
  });

  it('refuses what is not a bundle (422), too large (413), and a finding without anything in it (422)', async () => {
    expect((await post('/cases/import/stix', { type: 'bundle' })).status).toBe(422);
    expect((await post('/cases/import/stix', '{"type":"bundle","id":')).status).toBe(400);
    const big = JSON.stringify({ type: 'bundle', id: 'bundle--44af6c39-c09b-49c5-9de2-394224b04982', objects: [], pad: 'x'.repeat(9 * 1024 * 1024) });
    expect((await post('/cases/import/stix', big)).status).toBe(413);
    const empty = await post('/cases/evidence', { target: { kind: 'new', title: 'x' }, finding: { title: 't', techniques: [], indicators: [], source: { service: 'replay', kind: 'story', id: '1' } } });
    expect(empty.status).toBe(422);
    const badLink = await post('/cases/evidence', { target: { kind: 'new', title: 'x' }, finding: { title: 't', techniques: ['T1059'], indicators: [], source: { service: 'replay', kind: 'story', id: '1', link: 'javascript:alert(1)' } } });
    expect(badLink.status).toBe(422);
    expect(await badLink.text()).not.toContain('javascript');
    expect((await fetch(`${server.url}/cases/none`)).status).toBe(404);
  });

  it('sends a finding to a new case (201) and the case scores', async () => {
    const res = await post('/cases/evidence', { target: { kind: 'new', title: 'HTTP finding' }, finding: { title: 'PowerShell', techniques: ['T1059.001'], indicators: [], source: { service: 'attrib', kind: 'extraction', id: 'report.txt' } } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; case: unknown };
    expect((await post('/assess', body.case)).status).toBe(200);
  });
});

describe('STIX import summary counts', () => {
  it('counts each of the eight objects once: a multi-value indicator, an observable already held, a link to a missing object', async () => {
    const { EIGHT_OBJECT_BUNDLE } = await import('../core/stix-import.fixture.js');
    const { summary } = stixToCase(EIGHT_OBJECT_BUNDLE);
    const total = [...summary.mapped, ...summary.skipped].reduce((n, r) => n + r.count, 0);
    expect(total).toBe(8);
    expect(mappedOf(summary, 'indicator')).toBe(1);
    expect(skippedOf(summary, 'indicator')).toBe(0);
    expect(summary.skipped.filter((r) => r.type === 'relationship' && r.reason.includes('not in the bundle'))).toEqual([expect.objectContaining({ count: 1 })]);
    expect(mappedOf(summary, 'relationship') + skippedOf(summary, 'relationship')).toBe(3);
  });
});

describe('re-importing a bundle keeps what the analyst added', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createStandaloneApp(), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it.skipIf(!files.includes('apt1.json'))('apt1 imported, sent to, imported again: merged (200), nothing lost; a different bundle with the same id is a case of its own; a save that drops items is 409 until confirmed', async () => {
    const first = await post('/cases/import/stix', read('apt1.json'));
    expect(first.status).toBe(201);
    const { stored } = (await first.json()) as { stored: { case_id: string; evidence_count: number } };
    const sent = await post('/cases/evidence', { target: { kind: 'existing', id: stored.case_id }, finding: { title: 'C2 seen in capture', techniques: ['T1071.001'], indicators: [{ type: 'ipv4', value: '203.0.113.77' }, { type: 'domain', value: 'c2.example.net' }], source: { service: 'replay', kind: 'story', id: '3', link: '#/replay/story/3' } } });
    expect(sent.status).toBe(200);
    const withSent = (await (await fetch(`${server.url}/cases/${stored.case_id}`)).json()) as { evidence_count: number; case: { indicators: { value: string }[] } };
    expect(withSent.evidence_count).toBe(stored.evidence_count + 3);

    const again = await post('/cases/import/stix', read('apt1.json'));
    expect(again.status).toBe(200);
    const merged = (await again.json()) as { merged: { into: string; added: string[]; kept: number }; stored: { evidence_count: number } };
    expect(merged.merged).toEqual({ into: stored.case_id, added: [], kept: stored.evidence_count + 3 });
    const after = (await (await fetch(`${server.url}/cases/${stored.case_id}`)).json()) as { evidence_count: number; case: { indicators: { value: string }[] } };
    expect(after.evidence_count).toBe(stored.evidence_count + 3);
    expect(after.case.indicators.map((i) => i.value)).toEqual(expect.arrayContaining(['203.0.113.77', 'c2.example.net']));

    // Another bundle reusing apt1's bundle id: not merged into the apt1 case.
    const apt1 = read('apt1.json') as { id: string; objects: unknown[] };
    const other = { type: 'bundle', id: apt1.id, objects: [{ type: 'ipv4-addr', spec_version: '2.1', id: 'ipv4-addr--0c7f4b4e-3f5e-5b7e-9d3c-2a1b0c9d8e7f', value: '198.51.100.9' }] };
    const third = await post('/cases/import/stix', other);
    expect(third.status).toBe(201);
    expect(((await third.json()) as { stored: { case_id: string } }).stored.case_id).toBe(`${stored.case_id}-2`);

    // Saving the case text without the sent items: 409 with what would be lost, then the confirmed replace.
    const { case: kase } = (await (await fetch(`${server.url}/cases/${stored.case_id}`)).json()) as { case: { indicators: { value: string }[] } };
    const trimmed = { ...kase, indicators: kase.indicators.filter((i) => i.value !== '203.0.113.77') };
    const refused = await post('/cases', trimmed);
    expect(refused.status).toBe(409);
    const err = (await refused.json()) as { error: { details: { path: string; issue: string }[] } };
    expect(err.error.details).toEqual([expect.objectContaining({ issue: expect.stringContaining('203.0.113.77') })]);
    expect((await fetch(`${server.url}/cases/${stored.case_id}`).then((r) => r.json()) as { evidence_count: number }).evidence_count).toBe(stored.evidence_count + 3);
    expect((await post('/cases?replace=true', trimmed)).status).toBe(201);
  });

  it('the log keeps the value of every item a finding added and a replacement removed', () => {
    const db = openMemoryStore([caseassessService]);
    const created = sendFindingToCase(db, { target: { kind: 'new', title: 'Logged' }, finding: { title: 't', techniques: ['T1105'], indicators: [{ type: 'sha256', value: 'a'.repeat(64) }], source: { service: 'replay', kind: 'story', id: '1' } } });
    const rows = () => (db.prepare('SELECT kind, payload FROM caseassess_case_log ORDER BY seq').all() as { kind: string; payload: string }[]).map((r) => ({ kind: r.kind, payload: JSON.parse(r.payload) as { added?: { value: string }[]; removed?: { value: string }[] } }));
    expect(rows()[0]?.payload.added?.map((a) => a.value)).toEqual(['T1105', `sha256 ${'a'.repeat(64)}`]);
    const { indicators: _dropped, ...withoutIndicators } = getCase(db, created.id)!.case;
    expect(() => saveCaseChecked(db, withoutIndicators, false)).toThrow(/would remove 1 evidence item/);
    saveCaseChecked(db, withoutIndicators, true);
    expect(rows().at(-1)).toMatchObject({ kind: 'case.replaced', payload: { removed: [expect.objectContaining({ value: `sha256 ${'a'.repeat(64)}` })] } });
  });
});

describe('Send to Assessment through the shared normaliser (engines/core/findings.ts)', () => {
  it('lower-case ids kept, revoked ids replaced, unknown ids and malformed values skipped (as ACH: engines/attrib/ach/import.test.ts)', () => {
    const kase = sendFindingToCase(openMemoryStore([caseassessService]), { target: { kind: 'new', title: 'c' }, finding: MIXED_FINDING });
    expect(kase.skipped.map((s) => s.item)).toEqual(['T9999', 'sha256 ZZZ', 'ipv4 10.0.0']);
    // T1086 (PowerShell, revoked) becomes T1059.001, which the lower-case id already gave: one technique.
    expect(kase.case.techniques?.map((t) => t.id)).toEqual(['T1059.001']);
    expect(kase.case.indicators?.map((i) => i.value)).toEqual(['a'.repeat(64), '105.73.6.112:80', 'c2.example.net']);
  });

  it('a revoked id alone is stored as its replacement, with a note naming what was sent', () => {
    const r = sendFindingToCase(openMemoryStore([caseassessService]), { target: { kind: 'new', title: 'r' }, finding: { title: 'old id', techniques: ['T1086'], indicators: [], source: { service: 'replay', kind: 'story', id: '2' } } });
    expect(r.case.techniques).toEqual([expect.objectContaining({ id: 'T1059.001', note: expect.stringContaining('sent as T1086') })]);
  });
});
