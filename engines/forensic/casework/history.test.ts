// GET /api/cases/{id}/annotations/{eventId}: every version of one event's annotation, paged either way, each with its ledger seq and hashes; unknown and hostile ids, bad queries and unfinished cases refused without echoing them.
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/canonical.js';
import type { AnnotationHistory } from '../../core/contracts/forensic.js';
import { listen, type Listening } from '../../core/http/server.js';
import type { JobContext, JobTable } from '../../core/jobs/protocol.js';
import { GENESIS_HASH } from '../../core/ledger.js';
import { openMemoryStore } from '../../core/store.js';
import { CustodyLedger } from '../custody.js';
import { createStandaloneApp } from '../http.js';
import { ANALYZE_JOB, SCENARIO_JOB } from '../jobs.js';
import { fixtureView } from '../report/fixture.js';
import { caseDetailSchema, errorBodySchema } from '../schemas.js';
import { forensicService } from '../service.js';
import { CASE_ANNOTATIONS_TABLE } from '../store.js';
import { annotationHistorySchema, HISTORY_PAGE_MAX } from './history-schemas.js';

const SCENARIOS = [
  { name: 'ransomware', title: 'Ransomware on one host', description: 'fixture', hosts: ['WS01'], events: 7, techniques: ['T1486'] },
  { name: 'fails', title: 'Fails', description: 'fixture', hosts: ['WS01'], events: 0, techniques: [] },
];
function fixtureResult(payload: unknown, _ctx: JobContext): unknown {
  const p = payload as Record<string, unknown>;
  if (p['name'] === 'fails') throw new Error('boom');
  const ledger = new CustodyLedger({ actor: String(p['actor']) });
  ledger.append({ action: 'case.open', digest: sha256Hex(String(p['caseId'])), artifact: String(p['caseId']) });
  return { view: fixtureView(), custody: ledger.storedRows() };
}
const jobs: JobTable = { [SCENARIO_JOB]: fixtureResult, [ANALYZE_JOB]: fixtureResult };

let server: Listening;
let db: Database;
const url = (p: string): string => `${server.url}${p}`;
const post = (p: string, body: unknown) => fetch(url(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const history = async (p: string): Promise<AnnotationHistory> => {
  const res = await fetch(url(p));
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return annotationHistorySchema.parse(JSON.parse(text)) as AnnotationHistory;
};

async function expectError(res: Response, status: number, code: string, ...secrets: string[]): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe(code);
  for (const s of secrets) expect(text).not.toContain(s);
}

/** A case that failed (its job threw), once it has. */
async function failedCase(): Promise<string> {
  const { id } = (await (await post('/api/cases/scenario/fails', {})).json()) as { id: string };
  for (;;) {
    const s = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${id}`))).json());
    if (s.status === 'failed') return id;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function newCase(name: string): Promise<{ id: string; events: string[] }> {
  const d = caseDetailSchema.parse(await (await post(`/api/cases/scenario/${name}?wait=true`, {})).json());
  return { id: d.id, events: (d.analysis?.events ?? []).map((e) => e.eventId) };
}

describe("an event's annotation history", () => {
  let caseId = '';
  let first = '';
  let second = '';
  beforeAll(async () => {
    db = openMemoryStore([forensicService]);
    server = await listen(createStandaloneApp({ db, jobTable: jobs, scenarios: () => SCENARIOS }), { port: 0 });
    const c = await newCase('ransomware');
    caseId = c.id;
    [first = '', second = ''] = c.events;
    expect(first).not.toBe('');
    expect(second).not.toBe('');
  });
  afterAll(async () => {
    await server.close();
    db.close();
  });

  it('a case with no annotations: an event of it has no versions, and the empty chain verifies', async () => {
    const h = await history(`/api/cases/${caseId}/annotations/${first}`);
    expect(h).toEqual({ eventId: first, order: 'oldest', items: [], total: 0, limit: 50, offset: 0, verification: expect.objectContaining({ ok: true, count: 0 }) });
  });

  it('lists every version with its tags, note, actor, time and place in the chain, oldest or newest first, page by page', async () => {
    const bodies = [
      { eventId: first, tags: ['lateral', 'T1021'], note: 'first look' },
      { eventId: second, tags: ['other'], note: 'another event' },
      { eventId: first, tags: ['lateral', 'confirmed'], note: 'first look, checked with the host owner' },
      { eventId: first, tags: [], note: '' },
    ];
    for (const b of bodies) expect((await post(`/api/cases/${caseId}/annotations`, b)).status).toBe(201);
    const h = await history(`/api/cases/${caseId}/annotations/${first}`);
    expect(h.total).toBe(3);
    expect(h.verification).toMatchObject({ ok: true, count: 4 });
    expect(h.items.map((v) => [v.version, v.seq, v.tags, v.note])).toEqual([
      [1, 1, ['lateral', 'T1021'], 'first look'],
      [2, 3, ['lateral', 'confirmed'], 'first look, checked with the host owner'],
      [3, 4, [], ''],
    ]);
    expect(h.items.every((v) => /^analyst \(forensic /.test(v.actor) && !Number.isNaN(Date.parse(v.at)))).toBe(true);
    // The hashes are the ledger's: the first record follows the genesis hash, each later one the record before it
    // (the other event's version 1 sits between versions 1 and 2 of this one).
    const ledger = db.prepare(`SELECT seq, prev_hash, hash FROM ${CASE_ANNOTATIONS_TABLE} WHERE case_id = ? ORDER BY seq`).all(caseId) as { seq: number; prev_hash: string; hash: string }[];
    for (const v of h.items) expect(ledger[v.seq - 1]).toEqual({ seq: v.seq, prev_hash: v.prevHash, hash: v.hash });
    expect(h.items[0]?.prevHash).toBe(GENESIS_HASH);
    expect(h.items[1]?.prevHash).toBe(ledger[1]?.hash);

    const newest = await history(`/api/cases/${caseId}/annotations/${first}?order=newest&limit=2`);
    expect(newest).toMatchObject({ order: 'newest', total: 3, limit: 2, offset: 0 });
    expect(newest.items.map((v) => v.version)).toEqual([3, 2]);
    const older = await history(`/api/cases/${caseId}/annotations/${first}?order=newest&limit=2&offset=2`);
    expect(older.items.map((v) => [v.version, v.note])).toEqual([[1, 'first look']]);
    const page2 = await history(`/api/cases/${caseId}/annotations/${first}?limit=1&offset=1`);
    expect(page2.items.map((v) => v.version)).toEqual([2]);
    expect((await history(`/api/cases/${caseId}/annotations/${first}?offset=99`)).items).toEqual([]);
    expect((await history(`/api/cases/${caseId}/annotations/${first}?limit=${HISTORY_PAGE_MAX}`)).items).toHaveLength(3);
    // The other event's history is its own.
    expect((await history(`/api/cases/${caseId}/annotations/${second}`)).items.map((v) => [v.version, v.seq, v.note])).toEqual([[1, 2, 'another event']]);
  });

  it('refuses an unknown case or event, hostile ids and bad queries with 404 and 400, echoing none of them', async () => {
    const unknownCase = '00000000-0000-4000-8000-000000000000';
    await expectError(await fetch(url(`/api/cases/${unknownCase}/annotations/${first}`)), 404, 'not_found', unknownCase);
    await expectError(await fetch(url(`/api/cases/${encodeURIComponent('../../etc/passwd')}/annotations/${first}`)), 404, 'not_found', 'passwd');
    await expectError(await fetch(url(`/api/cases/${caseId}/annotations/0123456789abcdef`)), 404, 'not_found', '0123456789abcdef');
    for (const hostile of ['..%2f..%2fsecret', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'a%00b0123456789abcdef', first.toUpperCase(), 'f'.repeat(65), `${first}%20OR%201%3D1`, "'%20OR%20'1'%3D'1"]) {
      await expectError(await fetch(url(`/api/cases/${caseId}/annotations/${hostile}`)), 404, 'not_found', 'secret', 'script', 'OR 1', decodeURIComponent(hostile));
    }
    for (const query of ['order=sideways', 'limit=0', `limit=${HISTORY_PAGE_MAX + 1}`, 'offset=-1', 'limit=many']) {
      await expectError(await fetch(url(`/api/cases/${caseId}/annotations/${first}?${query}`)), 400, 'bad_request', 'sideways', 'many');
    }
  });

  it('a case that failed has no events: 409, as the event reads answer', async () => {
    await expectError(await fetch(url(`/api/cases/${await failedCase()}/annotations/${first}`)), 409, 'conflict');
  });

  it('every status the route answers is one /docs/openapi.json lists for it', async () => {
    const doc = (await (await fetch(url('/docs/openapi.json'))).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: { name: string }[] }>> };
    const op = doc.paths['/api/cases/{id}/annotations/{eventId}']?.['get'];
    expect(op?.parameters.map((p) => p.name)).toEqual(['id', 'eventId', 'order', 'limit', 'offset']);
    const failed = await failedCase();
    const statuses = new Set<number>();
    for (const p of [`${caseId}/annotations/${first}`, `${caseId}/annotations/${first}?order=x`, `${caseId}/annotations/nope`, `00000000-0000-4000-8000-000000000000/annotations/${first}`, `${failed}/annotations/${first}`]) {
      const res = await fetch(url(`/api/cases/${p}`));
      await res.arrayBuffer();
      statuses.add(res.status);
    }
    expect([...statuses].sort()).toEqual([200, 400, 404, 409]);
    for (const s of statuses) expect(Object.keys(op?.responses ?? {})).toContain(String(s));
  });
});
