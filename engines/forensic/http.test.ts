// The HTTP contract of `forensic serve`: every route, cases from scenarios and paths below the evidence root, reports, custody (triggers and verification), refusals that echo nothing.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoBuildPage, expectServesRendererBuild, fakeRendererBuild } from '../core/http/page.fixture.js';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { sha256Hex } from '../core/canonical.js';
import { listen, type Listening } from '../core/http/server.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { openMemoryStore } from '../core/store.js';
import { CustodyLedger } from './custody.js';
import { createStandaloneApp } from './http.js';
import { ANALYZE_JOB, SCENARIO_JOB } from './jobs.js';
import { fixtureView } from './report/fixture.js';
import { REPORT_CSP } from './report/index.js';
import { caseDetailSchema, caseSummarySchema, custodyViewSchema, errorBodySchema, healthSchema, pageOf, scenarioInfoSchema } from './schemas.js';
import { forensicService } from './service.js';
import { CASE_CUSTODY_TABLE, CASE_CUSTODY_TRIGGER_SQL } from './store.js';

const SCENARIOS = [{ name: 'ransomware', title: 'Ransomware on one host', description: 'fixture', hosts: ['WS01'], events: 7, techniques: ['T1486'] }];

/** What the fake jobs saw, for the path checks. */
const seen: Record<string, unknown>[] = [];

function fixtureResult(payload: unknown, ctx: JobContext): unknown {
  const p = payload as Record<string, unknown>;
  seen.push(p);
  ctx.progress(0.5, 'graph');
  if (p['name'] === 'fails' || (Array.isArray(p['paths']) && String(p['paths'][0]).endsWith('fails.json'))) throw Object.assign(new Error('boom'), {});
  const ledger = new CustodyLedger({ actor: String(p['actor']) });
  ledger.append({ action: 'case.open', digest: sha256Hex(String(p['caseId'])), artifact: String(p['caseId']) });
  const view = fixtureView();
  for (const e of view.events) ledger.recordIngest({ eventId: e.eventId, integrityHash: e.integrityHash } as Parameters<CustodyLedger['recordIngest']>[0]);
  return { view, custody: ledger.storedRows() };
}

const fakeJobs: JobTable = { [SCENARIO_JOB]: fixtureResult, [ANALYZE_JOB]: fixtureResult };

const root = mkdtempSync(path.join(tmpdir(), 'forensic-http-'));
const evidence = path.join(root, 'evidence');
const SECRET = 'outside-secret-name';
let server: Listening;
let db: Database;

beforeAll(async () => {
  mkdirSync(path.join(evidence, 'ws01'), { recursive: true });
  writeFileSync(path.join(evidence, 'ws01', 'events.json'), '[]');
  writeFileSync(path.join(evidence, 'fails.json'), '[]');
  mkdirSync(path.join(root, SECRET));
  symlinkSync(path.join(root, SECRET), path.join(evidence, 'escape'));
  db = openMemoryStore([forensicService]);
  server = await listen(createStandaloneApp({ db, jobTable: fakeJobs, evidenceRoot: evidence, scenarios: () => [...SCENARIOS, { ...SCENARIOS[0], name: 'fails', title: 'Fails' } as (typeof SCENARIOS)[number]] }), { port: 0 });
});
afterAll(async () => {
  await server.close();
  db.close();
  rmSync(root, { recursive: true, force: true });
});

const url = (p: string): string => `${server.url}${p}`;
const post = (p: string, body?: unknown) => fetch(url(p), { method: 'POST', ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });

async function expectError(res: Response, status: number, code: string, ...secrets: string[]): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe(code);
  for (const s of secrets) expect(text).not.toContain(s);
}

async function untilSettled(id: string): Promise<ReturnType<typeof caseDetailSchema.parse>> {
  for (;;) {
    const d = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${id}`))).json());
    if (d.status === 'done' || d.status === 'failed') return d;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('forensic HTTP API', () => {
  let caseId = '';

  it('GET /api/health and /api/scenarios', async () => {
    const health = healthSchema.parse(await (await fetch(url('/api/health'))).json());
    expect(health).toMatchObject({ status: 'ok', service: 'forensic', evidenceRootSet: true });
    const list = scenarioInfoSchema.array().parse(await (await fetch(url('/api/scenarios'))).json());
    expect(list.map((s) => s.name)).toContain('ransomware');
  });

  it('POST /api/cases/scenario/{name}: 202 with the queued case, which is then analysed in a job and stored', async () => {
    const res = await post('/api/cases/scenario/ransomware', { top: 5 });
    expect(res.status).toBe(202);
    const summary = caseSummarySchema.parse(await res.json());
    expect(res.headers.get('location')).toBe(`cases/${summary.id}`);
    expect(summary).toMatchObject({ origin: 'scenario:ransomware', title: 'Ransomware on one host' });
    const done = await untilSettled(summary.id);
    expect(done.status).toBe('done');
    expect(done.topGrade).toBe('MEDIUM');
    expect(done.analysis?.stories.map((s) => s.id)).toEqual(['S1', 'S2']);
    caseId = summary.id;
    expect(seen.at(-1)).toMatchObject({ name: 'ransomware', top: 5, includeNoisy: false, caseId });
  });

  it('POST with ?wait=true answers the finished case; an empty body is fine', async () => {
    const res = await post('/api/cases/scenario/ransomware?wait=true');
    expect(res.status).toBe(200);
    const d = caseDetailSchema.parse(await res.json());
    expect(d.status).toBe('done');
    expect(res.headers.get('x-case-id')).toBe(d.id);
  });

  it('refuses unknown scenarios and bad bodies', async () => {
    await expectError(await post('/api/cases/scenario/nope'), 404, 'not_found');
    await expectError(await post('/api/cases/scenario/..%2Fetc'), 404, 'not_found');
    await expectError(await post('/api/cases/scenario/ransomware', { top: 0 }), 422, 'validation_failed');
    await expectError(await post('/api/cases/scenario/ransomware', { extra: 'x' }), 422, 'validation_failed');
    await expectError(await fetch(url('/api/cases/scenario/ransomware'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 415, 'unsupported_media_type');
  });

  it('a job that fails leaves a failed case with its error code, and the wait answer is the error', async () => {
    await expectError(await post('/api/cases/scenario/fails?wait=1'), 500, 'internal');
    const list = pageOf(caseSummarySchema).parse(await (await fetch(url('/api/cases'))).json());
    const failed = list.items.find((c) => c.origin === 'scenario:fails');
    expect(failed).toMatchObject({ status: 'failed', error: 'internal' });
    await expectError(await fetch(url(`/api/cases/${failed?.id}/report.md`)), 409, 'conflict');
  });

  it('GET /api/cases lists newest first, paged', async () => {
    const list = pageOf(caseSummarySchema).parse(await (await fetch(url('/api/cases?limit=2'))).json());
    expect(list.total).toBeGreaterThanOrEqual(3);
    expect(list.items).toHaveLength(2);
    await expectError(await fetch(url('/api/cases?limit=9999')), 400, 'bad_request');
  });

  it('GET /api/cases/{id}: events inside stories by default, every stored event with events=all, max_events cuts', async () => {
    const d = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${caseId}`))).json());
    expect(d.analysis?.events).toHaveLength(7);
    const cut = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${caseId}?events=all&max_events=3`))).json());
    expect(cut.analysis?.events).toHaveLength(3);
    expect(cut.analysis?.eventsTruncated).toBe(true);
    const lean = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${caseId}?events=all&graph=stories&attributes=false`))).json());
    expect(lean.analysis?.events.every((e) => Object.keys(e.attributes).length === 0)).toBe(true);
    await expectError(await fetch(url(`/api/cases/${caseId}?graph=some`)), 400, 'bad_request');
    await expectError(await fetch(url(`/api/cases/${caseId}?max_events=-1`)), 400, 'bad_request');
    await expectError(await fetch(url('/api/cases/not-a-case')), 404, 'not_found');
    await expectError(await fetch(url('/api/cases/00000000-0000-4000-8000-000000000000')), 404, 'not_found');
  });

  it('reports: Markdown, self-contained HTML under its own CSP, PDF and Cypher', async () => {
    const md = await fetch(url(`/api/cases/${caseId}/report.md`));
    expect(md.headers.get('content-type')).toContain('text/markdown');
    const mdText = await md.text();
    expect(mdText).toContain('## Chain of custody');
    expect(mdText).toContain('every record commits to the one before');
    const html = await fetch(url(`/api/cases/${caseId}/report.html`));
    expect(html.headers.get('content-security-policy')).toBe(REPORT_CSP);
    expect(await html.text()).toContain('&lt;script&gt;');
    const pdf = await fetch(url(`/api/cases/${caseId}/report.pdf`));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const cypher = await (await fetch(url(`/api/cases/${caseId}/cypher`))).text();
    expect(cypher.split('\n')[0]).toBe(`// Vitrine forensic case ${caseId}`);
    expect(cypher).toContain('MERGE (n:Story {id: ');
  });

  it('custody: the ledger verifies; SQL rewrites are aborted by triggers; a dropped trigger fails verification', async () => {
    const c = custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody`))).json());
    expect(c.verification).toMatchObject({ ok: true, count: 8, missingTriggers: [] });
    expect(c.records[0]?.action).toBe('case.open');
    expect(() => db.prepare(`UPDATE ${CASE_CUSTODY_TABLE} SET kind = 'x' WHERE case_id = ?`).run(caseId)).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM ${CASE_CUSTODY_TABLE} WHERE case_id = ?`).run(caseId)).toThrow(/append-only/);
    expect(() => db.prepare(`INSERT INTO ${CASE_CUSTODY_TABLE} VALUES (?, 1, 'now', 'x', 'a', '{}', ?, ?)`).run(caseId, '0'.repeat(64), '1'.repeat(64))).toThrow(/append-only/);
    db.exec(`DROP TRIGGER ${CASE_CUSTODY_TABLE}_no_update`);
    try {
      db.prepare(`UPDATE ${CASE_CUSTODY_TABLE} SET actor = 'mallory' WHERE case_id = ? AND seq = 2`).run(caseId);
      const broken = custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody`))).json());
      expect(broken.verification).toMatchObject({ ok: false, firstBroken: 2, missingTriggers: [`${CASE_CUSTODY_TABLE}_no_update`] });
      expect(await (await fetch(url(`/api/cases/${caseId}/report.md`))).text()).toContain('FAILED at record 2');
    } finally {
      db.prepare(`UPDATE ${CASE_CUSTODY_TABLE} SET actor = 'forensic 0.1.0' WHERE case_id = ? AND seq = 2`).run(caseId);
      db.exec(CASE_CUSTODY_TRIGGER_SQL[`${CASE_CUSTODY_TABLE}_no_update`] ?? '');
    }
  });

  it('custody: deleting the newest records (triggers dropped and put back) fails against the case row\'s anchors; external anchors by query', async () => {
    const before = custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody`))).json());
    const { head, count } = before.verification;
    expect(custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody?expect_head=${head}&expect_count=${count}`))).json()).verification.ok).toBe(true);
    expect(custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody?expect_head=${'1'.repeat(64)}`))).json()).verification).toMatchObject({ ok: false, reason: 'head hash differs from the expected head' });
    await expectError(await fetch(url(`/api/cases/${caseId}/custody?expect_head=nothex`)), 400, 'bad_request', 'nothex');
    const rows = db.prepare(`SELECT * FROM ${CASE_CUSTODY_TABLE} WHERE case_id = ? AND seq > ?`).all(caseId, count - 2) as Record<string, unknown>[];
    const noDelete = `${CASE_CUSTODY_TABLE}_no_delete`;
    db.exec(`DROP TRIGGER ${noDelete}`);
    db.prepare(`DELETE FROM ${CASE_CUSTODY_TABLE} WHERE case_id = ? AND seq > ?`).run(caseId, count - 2);
    db.exec(CASE_CUSTODY_TRIGGER_SQL[noDelete] ?? '');
    try {
      const cut = custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody`))).json());
      expect(cut.verification).toMatchObject({ ok: false, count: count - 2, missingTriggers: [] });
    } finally {
      const insert = db.prepare(`INSERT INTO ${CASE_CUSTODY_TABLE} (case_id, seq, at, kind, actor, payload, prev_hash, hash) VALUES (@case_id, @seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
      for (const r of rows) insert.run(r);
    }
    expect(custodyViewSchema.parse(await (await fetch(url(`/api/cases/${caseId}/custody`))).json()).verification.ok).toBe(true);
  });

  it('POST /api/cases/path: relative paths below the evidence root reach the job as real paths', async () => {
    const res = await post('/api/cases/path?wait=true', { paths: ['ws01/events.json'], kind: 'dataset-json', host: 'WS01' });
    expect(res.status).toBe(200);
    const d = caseDetailSchema.parse(await res.json());
    expect(d).toMatchObject({ origin: 'path', title: 'ws01/events.json', status: 'done' });
    expect(seen.at(-1)).toMatchObject({ paths: [path.join(evidence, 'ws01', 'events.json')], kind: 'dataset-json', host: 'WS01', evidenceRoot: evidence });
    // hunting: the threat-hunting rules join the job's rule set; a non-boolean is refused.
    expect((await post('/api/cases/path?wait=true', { paths: ['ws01/events.json'], kind: 'dataset-json', hunting: true })).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ sigmaHunting: true });
    await expectError(await post('/api/cases/path', { paths: ['ws01/events.json'], hunting: 'yes' }), 422, 'validation_failed');
  });

  it('POST /api/cases/path refuses, without naming the path, anything outside the root, absolute, missing or malformed', async () => {
    await expectError(await post('/api/cases/path', { paths: [`../${SECRET}`] }), 403, 'forbidden', SECRET);
    await expectError(await post('/api/cases/path', { paths: ['escape'] }), 403, 'forbidden', SECRET, 'escape');
    await expectError(await post('/api/cases/path', { paths: [path.join(root, SECRET)] }), 422, 'validation_failed', SECRET);
    await expectError(await post('/api/cases/path', { paths: ['ws01/missing-file.evtx'] }), 404, 'not_found', 'missing-file');
    await expectError(await post('/api/cases/path', { paths: [] }), 422, 'validation_failed');
    await expectError(await post('/api/cases/path', { paths: ['ok'], kind: 'nope' }), 422, 'validation_failed');
    await expectError(await post('/api/cases/path', { paths: ['ok'], host: 'bad host<script>' }), 422, 'validation_failed', '<script>');
  });

  it('GET /api/cases/{id}/search: everything of the case that holds the query, paged with the total', async () => {
    const d = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${caseId}?events=all`))).json());
    const host = d.analysis?.events.find((e) => e.host !== null)?.host ?? '';
    expect(host.length).toBeGreaterThan(1);
    const res = await fetch(url(`/api/cases/${caseId}/search?q=${encodeURIComponent(host)}&limit=2`));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { kind: string }[]; total: number; limit: number; offset: number };
    expect(body.total).toBeGreaterThan(2);
    expect(body).toMatchObject({ limit: 2, offset: 0 });
    expect(body.items).toHaveLength(2);
    await expectError(await fetch(url(`/api/cases/${caseId}/search?q=x`)), 400, 'bad_request');
    await expectError(await fetch(url('/api/cases/00000000-0000-4000-8000-000000000000/search?q=host')), 404, 'not_found');
  });

  it('every status a route answers is one /docs/openapi.json lists for that route (malformed JSON, other media types, oversized bodies, bad queries, unknown ids)', async () => {
    const doc = (await (await fetch(url('/docs/openapi.json'))).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const done = caseDetailSchema.parse(await (await post('/api/cases/scenario/ransomware?wait=true', {})).json());
    const id = done.id;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const eventId = done.analysis!.events[0]!.eventId;
    const big = `{"top": 1${' '.repeat(64 * 1024)}}`;
    const send = (method: string, p: string, body?: string, type = 'application/json') => fetch(url(p), { method, ...(body !== undefined ? { headers: { 'content-type': type }, body } : {}) });
    const cases: [string, string, () => Promise<Response>][] = [
      ['post', '/api/cases/scenario/{name}', () => send('POST', '/api/cases/scenario/ransomware', '{"top":')],
      ['post', '/api/cases/scenario/{name}', () => send('POST', '/api/cases/scenario/ransomware', '{}', 'text/plain')],
      ['post', '/api/cases/scenario/{name}', () => send('POST', '/api/cases/scenario/ransomware', big)],
      ['post', '/api/cases/scenario/{name}', () => send('POST', '/api/cases/scenario/ransomware?wait=maybe', '{}')],
      ['post', '/api/cases/scenario/{name}', () => send('POST', '/api/cases/scenario/nope', '{}')],
      ['post', '/api/cases/scenario/{name}', () => send('POST', '/api/cases/scenario/ransomware', '{"top":0}')],
      ['post', '/api/cases/path', () => send('POST', '/api/cases/path', '{"paths":')],
      ['post', '/api/cases/path', () => send('POST', '/api/cases/path', big)],
      ['post', '/api/cases/path', () => send('POST', '/api/cases/path?wait=maybe', '{"paths":["ws01"]}')],
      ['post', '/api/cases/path', () => send('POST', '/api/cases/path', '{"paths":["ws01"]}', 'text/plain')],
      ['get', '/api/cases', () => send('GET', '/api/cases?limit=501')],
      ['get', '/api/cases/{id}', () => send('GET', `/api/cases/${id}?events=some`)],
      ['get', '/api/cases/{id}', () => send('GET', `/api/cases/${id}?events_limit=10001`)],
      ['get', '/api/cases/{id}', () => send('GET', `/api/cases/${unknown}`)],
      ['get', '/api/cases/{id}', () => send('GET', '/api/cases/nope')],
      ['delete', '/api/cases/{id}', () => send('DELETE', `/api/cases/${id}`)],
      ['delete', '/api/cases/{id}', () => send('DELETE', `/api/cases/${unknown}`)],
      ['get', '/api/evidence', () => send('GET', '/api/evidence?path=..')],
      ['get', '/api/evidence', () => send('GET', '/api/evidence?path=fails.json')],
      ['get', '/api/cases/{id}/events/{eventId}', () => send('GET', `/api/cases/${id}/events/${eventId}`)],
      ['get', '/api/cases/{id}/events/{eventId}', () => send('GET', `/api/cases/${id}/events/nope`)],
      ['get', '/api/cases/{id}/events/{eventId}/raw', () => send('GET', `/api/cases/${id}/events/${eventId}/raw`)],
      ['get', '/api/cases/{id}/annotations', () => send('GET', `/api/cases/${unknown}/annotations`)],
      ['post', '/api/cases/{id}/annotations', () => send('POST', `/api/cases/${id}/annotations`, '{"eventId":')],
      ['post', '/api/cases/{id}/annotations', () => send('POST', `/api/cases/${id}/annotations`, '{}', 'text/plain')],
      ['post', '/api/cases/{id}/annotations', () => send('POST', `/api/cases/${id}/annotations`, `{"note":"${'x'.repeat(128 * 1024)}"}`)],
      ['post', '/api/cases/{id}/annotations', () => send('POST', `/api/cases/${id}/annotations`, JSON.stringify({ eventId, tags: ['bad tag!'], note: '' }))],
      ['get', '/api/cases/{id}/report.md', () => send('GET', `/api/cases/${unknown}/report.md`)],
      ['get', '/api/cases/{id}/search', () => send('GET', `/api/cases/${id}/search?q=a`)],
      ['get', '/api/cases/{id}/custody', () => send('GET', `/api/cases/${id}/custody?expect_count=x`)],
    ];
    const undocumented: string[] = [];
    for (const [method, template, request] of cases) {
      const res = await request();
      await res.arrayBuffer();
      const listed = Object.keys(doc.paths[template]?.[method]?.responses ?? {});
      if (!listed.includes(String(res.status))) undocumented.push(`${method.toUpperCase()} ${template}: ${res.status} (lists ${listed.join(', ')})`);
    }
    expect(undocumented).toEqual([]);
    // The wait values the route takes are the ones the document gives.
    const waitParam = (doc.paths['/api/cases/scenario/{name}']?.['post'] as unknown as { parameters: { name: string; schema: { enum: string[] } }[] }).parameters.find((x) => x.name === 'wait');
    for (const v of waitParam!.schema.enum) expect((await send('POST', `/api/cases/scenario/ransomware?wait=${v}`, '{}')).status, v).toBeLessThan(300);
    expect(waitParam!.schema.enum).toEqual(expect.arrayContaining(['true', 'false', '1', '0']));
  });

  it('/docs/openapi.json names every route', async () => {
    const doc = (await (await fetch(url('/docs/openapi.json'))).json()) as { paths: Record<string, unknown> };
    for (const p of ['/', '/api/health', '/api/scenarios', '/api/cases/scenario/{name}', '/api/cases/path', '/api/cases', '/api/cases/{id}', '/api/cases/{id}/report.md', '/api/cases/{id}/report.html', '/api/cases/{id}/cypher', '/api/cases/{id}/custody', '/api/cases/{id}/search'])
      expect(Object.keys(doc.paths)).toContain(p);
  });
});

describe('the timeline and causal-graph UI at GET /', () => {
  it('serves the renderer build with the standalone meta tag for forensic, its assets under the renderer policy; the API stays JSON', async () => {
    const dir = fakeRendererBuild('forensic');
    const s = await listen(createStandaloneApp({ jobTable: fakeJobs, scenarios: () => SCENARIOS, rendererDir: dir }), { port: 0 });
    try {
      await expectServesRendererBuild(s.url, 'forensic', ['/cases']);
      expect(healthSchema.parse(await (await fetch(`${s.url}/api/health`)).json()).service).toBe('forensic');
      expect((await fetch(`${s.url}/docs/openapi.json`)).status).toBe(200);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a build, GET / says how to build it (503) and which routes work, never naming the folder', async () => {
    const missing = path.join(tmpdir(), 'forensic-no-such-build');
    const s = await listen(createStandaloneApp({ jobTable: fakeJobs, scenarios: () => SCENARIOS, rendererDir: missing }), { port: 0 });
    try {
      await expectNoBuildPage(s.url, missing, ['forensic serve', '/api/cases']);
      expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('without an evidence root', () => {
  it('POST /api/cases/path is refused (403) and health says so', async () => {
    const saved = process.env['FORENSIC_EVIDENCE_ROOT'];
    delete process.env['FORENSIC_EVIDENCE_ROOT'];
    const s = await listen(createStandaloneApp({ jobTable: fakeJobs, scenarios: () => SCENARIOS }), { port: 0 });
    try {
      expect(healthSchema.parse(await (await fetch(`${s.url}/api/health`)).json()).evidenceRootSet).toBe(false);
      await expectError(await fetch(`${s.url}/api/cases/path`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['x'] }) }), 403, 'forbidden');
    } finally {
      await s.close();
      if (saved !== undefined) process.env['FORENSIC_EVIDENCE_ROOT'] = saved;
    }
  });
});

describe('with the real analysis jobs', () => {
  let s: Listening;
  beforeAll(async () => {
    s = await listen(createStandaloneApp({ evidenceRoot: corpusPath('evtx') }), { port: 0 });
  });
  afterAll(async () => {
    await s.close();
  });

  it('a built-in scenario becomes a finished case with stories and a verified custody ledger', async () => {
    const res = await fetch(`${s.url}/api/cases/scenario/ransomware?wait=true`, { method: 'POST' });
    const d = caseDetailSchema.parse(await res.json());
    expect(d.status).toBe('done');
    expect(d.analysis?.stories.length).toBeGreaterThan(0);
    const c = custodyViewSchema.parse(await (await fetch(`${s.url}/api/cases/${d.id}/custody`)).json());
    expect(c.verification.ok).toBe(true);
    expect(c.records.filter((r) => r.action === 'ingest').length).toBe(d.counts?.events);
  });

  it.skipIf(!hasCorpora())('an EVTX file below the evidence root becomes a case with its SHA-256, and the cleared log is an indicator', async () => {
    const res = await fetch(`${s.url}/api/cases/path?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['attack-samples/DE_1102_security_log_cleared.evtx'] }) });
    const d = caseDetailSchema.parse(await res.json());
    expect(d.status).toBe('done');
    expect(d.analysis?.evidence[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(d.analysis?.tampering.indicators.some((i) => i.kind.includes('clear'))).toBe(true);
  });
});
