// Storing a finished case in short transactions, by the job that analysed it: the same rows as the one-transaction store, nothing of a case served before it is done, a store stopped part way leaves a failed case without its partial rows, and the owner of a case named by pid, random part and start time.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AnalysisView } from '../core/contracts/forensic.js';
import { listen } from '../core/http/server.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobContext } from '../core/jobs/protocol.js';
import type { StoredLedgerRow } from '../core/ledger.js';
import { migrateTo, openMemoryStore, openStore, storeAtVersion } from '../core/store.js';
import { validate } from '../core/validation.js';
import { removeFailedCase } from './casework/removal.js';
import { createStandaloneApp } from './http.js';
import { jobs, runScenarioJob, SCENARIO_JOB, type CaseJobResult } from './jobs.js';
import { caseJobResultSchema } from './schemas.js';
import { searchCase } from './search.js';
import { parseSearchRequest } from '../core/search.js';
import { forensicService } from './service.js';
import {
  CASE_CUSTODY_TABLE,
  CASE_ITEMS_TABLE,
  CASE_LEAN_EVENTS_TABLE,
  CASE_OWNER,
  CASE_TEXTS_TABLE,
  caseCustody,
  caseOwnerAlive,
  caseText,
  caseWriteSteps,
  CASES_TABLE,
  completeCase,
  createCase,
  exportView,
  failInterruptedCases,
  getCaseSummary,
  getCaseView,
  migrations,
  prepareCase,
  processStartTime,
  setCaseStatus,
  STORE_BATCH_ROWS,
  topGrade,
} from './store.js';

const NOW = '2026-01-02T03:04:05.000Z';
const work = mkdtempSync(path.join(tmpdir(), 'forensic-case-store-'));
let files = 0;
const storeFile = (): string => path.join(work, `store-${++files}.db`);
const open: Database[] = [];
const store = (file = ':memory:'): Database => {
  const db = file === ':memory:' ? openMemoryStore([forensicService]) : openStore(file, [forensicService]);
  open.push(db);
  return db;
};

afterEach(() => vi.useRealTimers());
afterAll(() => {
  for (const db of open) if (db.open) db.close();
  rmSync(work, { recursive: true, force: true });
});

const jobContext = (): JobContext => ({ signal: new AbortController().signal, progress: () => undefined, log: () => undefined });
const newCase = (db: Database, id: string): void => void createCase(db, { id, title: `case ${id}`, origin: 'scenario:ssh-bruteforce', request: { scenario: 'ssh-bruteforce' }, now: NOW });

/** The one-transaction store as it was before cases were stored in steps: the reference every stored text must equal. */
function referenceComplete(db: Database, id: string, view: AnalysisView, custody: readonly StoredLedgerRow[]): void {
  const items = db.prepare(`INSERT INTO ${CASE_ITEMS_TABLE} (case_id, kind, seq, json) VALUES (?, ?, ?, ?)`);
  // An event's text for the timeline pages: its stored text parsed, attributes {} and the raw reference left out.
  const lean = db.prepare(`INSERT INTO ${CASE_LEAN_EVENTS_TABLE} (case_id, seq, json) VALUES (?, ?, ?)`);
  const leanText = (json: string): string => JSON.stringify({ ...(JSON.parse(json) as Record<string, unknown>), attributes: {}, raw: undefined });
  const insert = db.prepare(`INSERT INTO ${CASE_CUSTODY_TABLE} (case_id, seq, at, kind, actor, payload, prev_hash, hash) VALUES (@case_id, @seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
  const head = custody.at(-1)?.hash ?? '';
  const text = db.prepare(`INSERT INTO ${CASE_TEXTS_TABLE} (case_id, name, text) VALUES (?, ?, ?)`);
  db.transaction(() => {
    for (const r of custody) insert.run({ case_id: id, ...r });
    for (const [kind, key] of [['event', 'events'], ['node', 'nodes'], ['edge', 'edges']] as const) view[key].forEach((item, seq) => {
        items.run(id, kind, seq, JSON.stringify(item));
        if (kind === 'event') lean.run(id, seq, leanText(JSON.stringify(item)));
      });
    text.run(id, 'view', JSON.stringify(view));
    text.run(id, 'export', JSON.stringify(exportView(view, { maxEvents: Number.MAX_SAFE_INTEGER })));
    db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done', updated_at = ?, custody_head = ?, custody_count = ?, counts_json = ?, top_grade = ?, error = NULL WHERE id = ?`).run(
      NOW,
      head,
      custody.length,
      JSON.stringify(view.counts),
      topGrade(view),
      id,
    );
  })();
}

/**
 * Every row the store keeps of a case, in a fixed order, and the whole view as its text (kept as one column by the
 * reference, put together from the export and the item rows since).
 */
function rowsOf(db: Database, id: string): unknown {
  return {
    cases: db.prepare(`SELECT * FROM ${CASES_TABLE} WHERE id = ?`).all(id),
    texts: db.prepare(`SELECT * FROM ${CASE_TEXTS_TABLE} WHERE case_id = ? AND name != 'view' ORDER BY name`).all(id),
    view: JSON.stringify(getCaseView(db, id)),
    items: db.prepare(`SELECT * FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? ORDER BY kind, seq`).all(id),
    lean: db.prepare(`SELECT * FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ? ORDER BY seq`).all(id),
    custody: db.prepare(`SELECT * FROM ${CASE_CUSTODY_TABLE} WHERE case_id = ? ORDER BY seq`).all(id),
  };
}

const countOf = (db: Database, table: string, id: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE case_id = ?`).get(id) as { n: number }).n;

describe('a finished case stored by the job that analysed it', () => {
  it('writes the same rows, byte for byte, as the gateway storing the returned result in one transaction', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(NOW) });
    const id = '00000000-0000-4000-8000-000000000001';
    const payload = { name: 'ssh-bruteforce', caseId: id, top: 20, includeNoisy: true, actor: 'forensic test' };
    // The result as the job returns it to the gateway, checked there, and stored in one transaction.
    const returned = (await runScenarioJob(payload, jobContext())) as CaseJobResult;
    const checked = validate(caseJobResultSchema, structuredClone(returned), 'analysis job result', 'internal');
    const reference = store();
    newCase(reference, id);
    referenceComplete(reference, id, checked.view as AnalysisView, checked.custody);
    // The same job writing the case to the store itself.
    const file = storeFile();
    const db = store(file);
    newCase(db, id);
    const answer = await runScenarioJob({ ...payload, store: file }, jobContext());
    expect(answer).toEqual({ stored: { caseId: id, head: checked.custody.at(-1)?.hash, count: checked.custody.length } });
    expect(countOf(db, CASE_ITEMS_TABLE, id)).toBeGreaterThan(STORE_BATCH_ROWS / 10);
    expect(rowsOf(db, id)).toEqual(rowsOf(reference, id));
    const viewText = (d: Database): string | null => caseText(d, id, 'view');
    expect(viewText(db)).toBeNull();
    expect(JSON.stringify(getCaseView(db, id))).toBe(viewText(reference));
    expect(caseCustody(db, id).verification).toMatchObject({ ok: true, count: checked.custody.length });
    // completeCase (the small-case and test path) goes through the same steps in one transaction.
    const again = store();
    newCase(again, id);
    completeCase(again, id, checked.view as AnalysisView, checked.custody, NOW);
    expect(rowsOf(again, id)).toEqual(rowsOf(reference, id));
    // Small batches: many transactions, the same rows.
    const batched = store();
    newCase(batched, id);
    let steps = 0;
    for (const _ of caseWriteSteps(batched, id, prepareCase(checked.view as AnalysisView, checked.custody), NOW, 7)) steps++;
    expect(steps).toBeGreaterThan(countOf(batched, CASE_ITEMS_TABLE, id) / 7);
    expect(rowsOf(batched, id)).toEqual(rowsOf(reference, id));
  }, 60_000);

  it('through the router: the job writes the case to a file store and the gateway answers it as it answers a case it stored', async () => {
    const file = storeFile();
    const db = store(file);
    const fileApp = await listen(createStandaloneApp({ db, jobs: new InProcessRunner(jobs) }), { port: 0 });
    const memory = await listen(createStandaloneApp({ db: store(), jobs: new InProcessRunner(jobs) }), { port: 0 });
    try {
      const detail = async (base: string): Promise<Record<string, unknown>> => {
        const made = await fetch(`${base}/api/cases/scenario/ssh-bruteforce?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ includeNoisy: true }) });
        expect(made.status).toBe(200);
        const id = made.headers.get('x-case-id') as string;
        const all = (await (await fetch(`${base}/api/cases/${id}?events=all`)).json()) as { analysis: Record<string, unknown> };
        return all.analysis;
      };
      const [a, b] = [await detail(fileApp.url), await detail(memory.url)];
      // Case ids, times and custody digests differ between two runs; the analysis is the same.
      const stable = (v: Record<string, unknown>): unknown => ({ counts: v['counts'], stories: (v['stories'] as unknown[]).length, events: (v['events'] as unknown[]).length, nodes: (v['nodes'] as unknown[]).length });
      expect(stable(a)).toEqual(stable(b));
      expect((db.prepare(`SELECT status FROM ${CASES_TABLE}`).all() as { status: string }[]).map((r) => r.status)).toEqual(['done']);
    } finally {
      await fileApp.close();
      await memory.close();
    }
  }, 60_000);
});

describe('a store that stops part way', () => {
  async function fixtureCase(): Promise<{ view: AnalysisView; custody: StoredLedgerRow[] }> {
    const r = (await runScenarioJob({ name: 'ssh-bruteforce', caseId: 'x', includeNoisy: true }, jobContext())) as CaseJobResult;
    return { view: r.view, custody: r.custody };
  }

  it('serves nothing of the case while it is written; once its writer is gone it is failed without its partial rows, and other cases are kept', async () => {
    const { view, custody } = await fixtureCase();
    const db = store(storeFile());
    newCase(db, 'earlier');
    completeCase(db, 'earlier', view, custody, NOW);
    const before = rowsOf(db, 'earlier');
    newCase(db, 'partial');
    setCaseStatus(db, 'partial', 'running', NOW);
    const steps = caseWriteSteps(db, 'partial', prepareCase(view, custody), NOW);
    // Every item row and the export written, the ledger and status not yet.
    const total = Math.ceil(view.events.length / STORE_BATCH_ROWS) + Math.ceil(view.nodes.length / STORE_BATCH_ROWS) + Math.ceil(view.edges.length / STORE_BATCH_ROWS);
    for (let i = 0; i < 1 + total + 1; i++) steps.next();
    expect(countOf(db, CASE_ITEMS_TABLE, 'partial')).toBe(view.events.length + view.nodes.length + view.edges.length);
    expect(countOf(db, CASE_LEAN_EVENTS_TABLE, 'partial')).toBe(view.events.length);
    expect(countOf(db, CASE_CUSTODY_TABLE, 'partial')).toBe(0);
    expect(getCaseSummary(db, 'partial')).toMatchObject({ status: 'running', counts: null, topGrade: null });
    // Search reads a case's stored view and events only once it is done.
    const q = parseSearchRequest({ q: view.events[0]?.host ?? 'host', limit: undefined }).query;
    expect(searchCase(db, 'partial', q, { offset: 0, limit: 50 })?.items.filter((h) => h.kind === 'event')).toEqual([]);
    expect(searchCase(db, 'earlier', q, { offset: 0, limit: 50 })?.items.filter((h) => h.kind === 'event').length).toBeGreaterThan(0);
    // The writer stops (its worker killed); the owner is gone.
    expect(failInterruptedCases(db, NOW, () => false)).toBe(1);
    expect(getCaseSummary(db, 'partial')).toMatchObject({ status: 'failed', error: 'interrupted' });
    expect(countOf(db, CASE_ITEMS_TABLE, 'partial')).toBe(0);
    expect(countOf(db, CASE_TEXTS_TABLE, 'partial')).toBe(0);
    expect(countOf(db, CASE_LEAN_EVENTS_TABLE, 'partial')).toBe(0);
    // A writer that comes back finds the case failed and writes nothing more.
    expect(() => steps.next()).toThrow(/no longer being analysed/);
    expect(countOf(db, CASE_CUSTODY_TABLE, 'partial')).toBe(0);
    expect(getCaseSummary(db, 'partial')?.status).toBe('failed');
    // Nothing of it is left, so it can be removed; the earlier case is as it was.
    removeFailedCase(db, 'partial', NOW);
    expect(getCaseSummary(db, 'partial')).toBeNull();
    expect(rowsOf(db, 'earlier')).toEqual(before);
    expect(caseCustody(db, 'earlier').verification.ok).toBe(true);
  }, 60_000);

  it('a case that holds a custody ledger is refused before anything is written', async () => {
    const { view, custody } = await fixtureCase();
    const db = store();
    newCase(db, 'c');
    completeCase(db, 'c', view, custody, NOW);
    const before = rowsOf(db, 'c');
    expect(() => completeCase(db, 'c', view, custody, NOW)).toThrow(/already holds a custody ledger/);
    expect(rowsOf(db, 'c')).toEqual(before);
  }, 60_000);

  it('through the router: a job whose store fails part way leaves the case failed with no rows, and the next case is stored', async () => {
    const file = storeFile();
    const db = store(file);
    // A failure inside the job's own writes, on its own connection (a trigger is part of the store).
    db.exec(`CREATE TRIGGER test_fail_items BEFORE INSERT ON ${CASE_ITEMS_TABLE} WHEN NEW.seq = 40 BEGIN SELECT RAISE(ABORT, 'simulated'); END`);
    const server = await listen(createStandaloneApp({ db, jobs: new InProcessRunner(jobs) }), { port: 0 });
    try {
      const post = (): Promise<Response> => fetch(`${server.url}/api/cases/scenario/ssh-bruteforce?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ includeNoisy: true }) });
      const failed = await post();
      expect(failed.status).toBe(500);
      const id = failed.headers.get('x-case-id') as string;
      expect(getCaseSummary(db, id)).toMatchObject({ status: 'failed', error: 'internal' });
      expect(countOf(db, CASE_ITEMS_TABLE, id)).toBe(0);
      expect(countOf(db, CASE_CUSTODY_TABLE, id)).toBe(0);
      const detail = (await (await fetch(`${server.url}/api/cases/${id}?events=all`)).json()) as { analysis: unknown };
      expect(detail.analysis).toBeNull();
      db.exec('DROP TRIGGER test_fail_items');
      const next = await post();
      expect(next.status).toBe(200);
      expect(getCaseSummary(db, next.headers.get('x-case-id') as string)?.status).toBe('done');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('in the gateway (an in-memory store): a full store part way answers 507 and leaves the case failed without rows', async () => {
    const db = store();
    const server = await listen(createStandaloneApp({ db, jobs: new InProcessRunner(jobs) }), { port: 0 });
    try {
      const post = (): Promise<Response> => fetch(`${server.url}/api/cases/scenario/ssh-bruteforce?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ includeNoisy: true }) });
      expect((await post()).status).toBe(200);
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages + 40}`);
      const full = await post();
      expect(full.status).toBe(507);
      const id = full.headers.get('x-case-id') as string;
      expect(getCaseSummary(db, id)?.status).toBe('failed');
      expect(countOf(db, CASE_ITEMS_TABLE, id)).toBe(0);
      db.pragma('max_page_count = 1073741823');
      expect((await post()).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('the timeline pages (attributes=false)', () => {
  it('answer the same bytes for a case stored before the lean texts (made as read) and one stored with them', async () => {
    const r = (await runScenarioJob({ name: 'ssh-bruteforce', caseId: 'x', includeNoisy: true }, jobContext())) as CaseJobResult;
    const id = '00000000-0000-4000-8000-000000000002';
    const before = storeAtVersion('forensic', migrations, 9);
    open.push(before);
    const now = store();
    for (const db of [before, now]) {
      newCase(db, id);
      completeCase(db, id, r.view, r.custody, NOW);
    }
    // Up to the migration before the one that makes an old case's lean rows: its events are made lean as read.
    migrateTo(before, 'forensic', migrations, 11);
    expect(countOf(before, CASE_LEAN_EVENTS_TABLE, id)).toBe(0);
    expect(countOf(now, CASE_LEAN_EVENTS_TABLE, id)).toBe(r.view.events.length);
    const servers = await Promise.all([before, now].map((db) => listen(createStandaloneApp({ db, jobTable: {}, scenarios: () => [] }), { port: 0 })));
    try {
      const texts = async (query: string): Promise<string[]> => Promise.all(servers.map(async (s) => (await fetch(`${s.url}/api/cases/${id}?${query}`)).text()));
      const queries = ['events=all&graph=stories&attributes=false&events_limit=10000', 'events=all&graph=stories&attributes=false&events_offset=7&events_limit=13', 'attributes=false', 'events=all&attributes=false&events_limit=50'];
      const answered: string[] = [];
      for (const query of queries) {
        const [a, b] = await texts(query);
        expect(b).toBe(a);
        expect(JSON.parse(a as string)).toMatchObject({ analysis: { eventsPage: { total: expect.any(Number) } } });
        answered.push(a as string);
      }
      // Migration 12 makes the old case's lean rows: the same answers, read from them.
      migrateTo(before, 'forensic', migrations, migrations.length);
      expect(countOf(before, CASE_LEAN_EVENTS_TABLE, id)).toBe(r.view.events.length);
      for (const [i, query] of queries.entries()) expect((await texts(query))[0]).toBe(answered[i]);
      const [whole] = await texts('events=all&graph=stories&attributes=false&events_limit=10000');
      const events = (JSON.parse(whole as string) as { analysis: { events: Record<string, unknown>[] } }).analysis.events;
      expect(events).toHaveLength(r.view.events.length);
      expect(events.every((e) => JSON.stringify(e.attributes) === '{}' && !('raw' in e))).toBe(true);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  }, 60_000);
});

describe('who analyses a case', () => {
  it('a case of this process whose job is over (its failure not recorded) is failed by the next list', async () => {
    const db = store();
    const server = await listen(createStandaloneApp({ db, jobs: new InProcessRunner({ [SCENARIO_JOB]: () => new Promise(() => undefined) }) }), { port: 0 });
    try {
      // A job still running in this process is left alone.
      const started = await fetch(`${server.url}/api/cases/scenario/ssh-bruteforce`, { method: 'POST' });
      expect(started.status).toBe(202);
      const live = started.headers.get('x-case-id') as string;
      // A case row of this process that no job runs: what a failure that could not be recorded leaves.
      newCase(db, 'stale');
      expect(db.prepare(`SELECT owner FROM ${CASES_TABLE} WHERE id = 'stale'`).get()).toEqual({ owner: CASE_OWNER });
      const list = (await (await fetch(`${server.url}/api/cases`)).json()) as { items: { id: string; status: string; error: string | null; errorMessage?: string | null }[] };
      expect(list.items.find((c) => c.id === 'stale')).toMatchObject({ status: 'failed', error: 'interrupted', errorMessage: expect.stringMatching(/could not be recorded/) });
      expect(list.items.find((c) => c.id === live)?.status).toBe('queued');
    } finally {
      await server.close();
    }
  });

  it.runIf(processStartTime(process.pid) !== null)('names its owner by pid, random part and start time; a live pid with another start time is not the owner', async () => {
    const [pid, , start] = CASE_OWNER.split(':');
    expect(Number(pid)).toBe(process.pid);
    expect(start).toBe(processStartTime(process.pid));
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const childPid = child.pid as number;
      const childStart = processStartTime(childPid);
      expect(childStart).toMatch(/^\d+$/);
      expect(caseOwnerAlive(`${childPid}:a-random-part:${childStart}`)).toBe(true);
      // The same pid taken by a process that started later (a reused pid): not the owner.
      expect(caseOwnerAlive(`${childPid}:a-random-part:${Number(childStart) + 1}`)).toBe(false);
      // An owner written before start times were kept: the pid alone decides.
      expect(caseOwnerAlive(`${childPid}:a-random-part`)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
