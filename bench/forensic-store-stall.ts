// `npm run bench -- forensic-store-stall [lines]`: /api/health latency of the headless workstation while a large finished forensic case is stored.
// A generated sshd auth log (60,000 lines by default) below a temporary evidence root is analysed with noisy events
// kept (every line an event of the timeline), through the workstation's worker pool. /api/health is sampled on a
// thread of its own (a sampler on the gateway's thread would stall with it), one request after another (5 ms apart),
// from the POST until the case is done; the case's progress is read every 100 ms, and the samples sent from the
// progress read that first saw 0.99 (the analysis over, the case being stored; less the 100 ms between two reads)
// until the case is done are reported on their own. Then, on this thread, the same case is written again to a fresh
// store in the steps the job uses (store.ts caseWriteSteps), each step timed: how long one write transaction holds
// the store.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { latencySummary, quantile } from './_measures.js';

/**
 * `npm run bench -- forensic-store-stall anchors build|row|table [MB]`: reading a large case's custody anchors and
 * owner (the columns the custody routes, the reports and the unfinished-case check read) with the case's texts in its
 * row (a store of migration 8) or in the texts table (the same store taken through migration 9). `build` writes both
 * stores once (a done case with an export of 1/20 and a timeline of the rest of MB megabytes, default 90, and a ledger
 * of 3 records); `row` and `table` each open one in this fresh process and time the reads (first, then the median of
 * 20). Run them alternated.
 */
async function anchorReads(layout: string, mb: number): Promise<void> {
  const BetterSqlite3 = (await import('better-sqlite3')).default;
  const { migrateTo, storeAtVersion } = await import('../engines/core/store.js');
  const { CASES_TABLE, caseCustodyAnchors, createCase, getCaseSummary, migrations } = await import('../engines/forensic/store.js');
  const file = (l: string): string => path.join(tmpdir(), `vitrine-bench-anchors-${l}-${mb}.db`);
  const id = '00000000-0000-4000-8000-000000000001';
  if (layout === 'build') {
    const text = (bytes: number): string => JSON.stringify({ events: Array.from({ length: Math.ceil(bytes / 100) }, (_, i) => ({ eventId: `e${i}`, text: 'x'.repeat(80) })) });
    for (const l of ['row', 'table']) {
      const db = storeAtVersion('forensic', migrations, 8);
      const t0 = '2026-01-01T00:00:00.000Z';
      createCase(db, { id, title: 'large', origin: 'path', request: {}, now: t0 });
      db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done', export_json = ?, timeline_json = ?, custody_head = ?, custody_count = 3 WHERE id = ?`).run(text((mb * 1e6) / 20), text((mb * 1e6 * 19) / 20), 'a'.repeat(64), id);
      const started = performance.now();
      if (l === 'table') migrateTo(db, 'forensic', migrations, 9);
      if (l === 'table') console.log(`migration 9 on a ${mb} MB case: ${((performance.now() - started) / 1000).toFixed(2)} s`);
      rmSync(file(l), { force: true });
      db.prepare('VACUUM INTO ?').run(file(l));
      db.close();
      console.log(`${l}: ${file(l)}`);
    }
    return;
  }
  const db = new BetterSqlite3(file(layout), { readonly: true, fileMustExist: true });
  const read = (): number => {
    const s = performance.now();
    caseCustodyAnchors(db, id);
    getCaseSummary(db, id);
    db.prepare(`SELECT owner FROM ${CASES_TABLE} WHERE id = ?`).get(id);
    return performance.now() - s;
  };
  const first = read();
  const rest = Array.from({ length: 20 }, read).sort((a, b) => a - b);
  console.log(`${layout}: anchors, summary and owner of a ${mb} MB case: first ${first.toFixed(2)} ms, median ${quantile(rest, 0.5).toFixed(2)} ms, max ${(rest.at(-1) ?? NaN).toFixed(2)} ms`);
  db.close();
}

/**
 * `npm run bench -- forensic-store-stall migrate build|before|after [cases]`: opening a store of migration 8 with many
 * cases' texts in their rows (migration 9 moves them to the texts table), each write transaction timed. `build` writes
 * the store once (`cases` done cases, default 24, of 90, 40, 10, 5 and 2 MB in turn: an export of 1/20 and a timeline
 * text of the rest); `before` copies it and runs migration 9 as it was, in one transaction; `after` copies it and opens
 * it as the store does now (core/store.ts migrationSteps: migration 9 in batches, each its own transaction). Run
 * `before` and `after` alternated in fresh processes.
 */
async function migrationTransactions(mode: string, cases: number): Promise<void> {
  const BetterSqlite3 = (await import('better-sqlite3')).default;
  const { migrateTo, migrationSteps, openStore } = await import('../engines/core/store.js');
  const { CASES_TABLE, CASE_TEXTS_TABLE, createCase, migrations } = await import('../engines/forensic/store.js');
  const built = path.join(tmpdir(), `vitrine-bench-migrate-${cases}.db`);
  if (mode === 'build') {
    rmSync(built, { force: true });
    const db = openStore(built, []);
    migrateTo(db, 'forensic', migrations, 8);
    const text = (bytes: number, seed: number): string => JSON.stringify({ events: Array.from({ length: Math.ceil(bytes / 100) }, (_, i) => ({ eventId: `e${seed}-${i}`, text: 'x'.repeat(80) })) });
    const sizes = [90, 40, 10, 5, 2];
    let total = 0;
    for (let i = 0; i < cases; i++) {
      const mb = sizes[i % sizes.length] as number;
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      createCase(db, { id, title: `case ${i}`, origin: 'path', request: {}, now: '2026-01-01T00:00:00.000Z' });
      db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done', export_json = ?, timeline_json = ? WHERE id = ?`).run(text((mb * 1e6) / 20, i), text((mb * 1e6 * 19) / 20, i), id);
      total += mb;
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    console.log(`built ${built}: ${cases} cases, about ${total} MB of texts, ${(statSync(built).size / 1e6).toFixed(1)} MB on disk`);
    return;
  }
  const file = path.join(tmpdir(), `vitrine-bench-migrate-${cases}-${mode}.db`);
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  copyFileSync(built, file);
  const db = openStore(file, []);
  const times: number[] = [];
  const started = performance.now();
  if (mode === 'before') {
    // Migration 9 as it was: every text copied, the columns emptied and dropped, in the one transaction that opens the store.
    const columns = { view: 'view_json', export: 'export_json', timeline: 'timeline_json' };
    db.transaction(() => {
      db.exec(`CREATE TABLE ${CASE_TEXTS_TABLE} (case_id TEXT NOT NULL REFERENCES ${CASES_TABLE} (id) ON DELETE CASCADE, name TEXT NOT NULL CHECK (name IN ('view', 'export', 'timeline')), text TEXT NOT NULL, PRIMARY KEY (case_id, name))`);
      for (const [name, column] of Object.entries(columns))
        db.prepare(`INSERT INTO ${CASE_TEXTS_TABLE} (case_id, name, text) SELECT id, ?, ${column} FROM ${CASES_TABLE} WHERE ${column} IS NOT NULL ORDER BY rowid`).run(name);
      db.prepare(`UPDATE ${CASES_TABLE} SET view_json = NULL, export_json = NULL, timeline_json = NULL WHERE view_json IS NOT NULL OR export_json IS NOT NULL OR timeline_json IS NOT NULL`).run();
      for (const column of Object.values(columns)) db.exec(`ALTER TABLE ${CASES_TABLE} DROP COLUMN ${column}`);
      db.prepare('INSERT INTO schema_migrations (service, version, name, applied_at) VALUES (?, ?, ?, ?)').run('forensic', 9, 'texts (as it was)', new Date().toISOString());
    }).immediate();
    times.push(performance.now() - started);
    migrateTo(db, 'forensic', migrations, migrations.length);
  } else {
    let at = performance.now();
    for (const step of migrationSteps(db, 'forensic', migrations, migrations.length)) {
      if (step.version === 9) times.push(performance.now() - at);
      at = performance.now();
    }
  }
  const all = (performance.now() - started) / 1000;
  const texts = db.prepare(`SELECT COUNT(*) AS n, SUM(octet_length(text)) AS b, MAX(octet_length(text)) AS m FROM ${CASE_TEXTS_TABLE}`).get() as { n: number; b: number; m: number };
  db.close();
  new BetterSqlite3(file).close();
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${mode}: migration 9 on ${cases} cases (${texts.n} texts, ${(texts.b / 1e6).toFixed(1)} MB, the largest ${(texts.m / 1e6).toFixed(1)} MB): ${all.toFixed(2)} s in all, ` +
      `${times.length} write transactions, longest ${((sorted.at(-1) ?? NaN) / 1000).toFixed(2)} s (the ${times.indexOf(sorted.at(-1) ?? NaN) + 1}th), ` +
      `median ${(quantile(sorted, 0.5) / 1000).toFixed(3)} s, the last (columns dropped, version recorded) ${((times.at(-1) ?? NaN) / 1000).toFixed(2)} s; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
}

/**
 * `npm run bench -- forensic-store-stall migrate lean [events]`: migration 12 on a case stored before migration 10
 * (`events` event rows, default 60,000, each the fixture's first event with attributes of about 1 kB), each write
 * transaction timed.
 */
async function leanMigration(events: number): Promise<void> {
  const { migrateTo, migrationSteps, openStore } = await import('../engines/core/store.js');
  const { CASE_ITEMS_TABLE, CASES_TABLE, createCase, migrations } = await import('../engines/forensic/store.js');
  const { fixtureView } = await import('../engines/forensic/report/fixture.js');
  const file = path.join(tmpdir(), `vitrine-bench-lean-${events}.db`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  const db = openStore(file, []);
  migrateTo(db, 'forensic', migrations, 9);
  const id = '00000000-0000-4000-8000-000000000001';
  createCase(db, { id, title: 'old', origin: 'path', request: {}, now: '2026-01-01T00:00:00.000Z' });
  const template = fixtureView().events[0];
  const insert = db.prepare(`INSERT INTO ${CASE_ITEMS_TABLE} (case_id, kind, seq, json) VALUES (?, 'event', ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < events; i++) insert.run(id, i, JSON.stringify({ ...template, eventId: `e${i}`, attributes: { ...template?.attributes, filler: 'x'.repeat(1000), i } }));
    db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done' WHERE id = ?`).run(id);
  })();
  migrateTo(db, 'forensic', migrations, 11);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const times: number[] = [];
  const started = performance.now();
  let at = performance.now();
  for (const step of migrationSteps(db, 'forensic', migrations, migrations.length)) {
    if (step.version === 12) times.push(performance.now() - at);
    at = performance.now();
  }
  const all = (performance.now() - started) / 1000;
  db.close();
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `lean: migration 12 on a case of ${events} events: ${all.toFixed(2)} s in all, ${times.length} write transactions, longest ${(sorted.at(-1) ?? NaN).toFixed(0)} ms, ` +
      `median ${quantile(sorted, 0.5).toFixed(0)} ms; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
}

if (process.argv[3] === 'migrate' && process.argv[4] === 'lean') {
  await leanMigration(Number(process.argv[5]) > 0 ? Number(process.argv[5]) : 60_000);
  process.exit(0);
}

if (process.argv[3] === 'migrate') {
  await migrationTransactions(process.argv[4] ?? 'after', Number(process.argv[5]) > 0 ? Number(process.argv[5]) : 24);
  process.exit(0);
}

if (process.argv[3] === 'anchors') {
  await anchorReads(process.argv[4] ?? 'row', Number(process.argv[5]) > 0 ? Number(process.argv[5]) : 90);
  process.exit(0);
}

const lines = Number(process.argv[3] ?? process.argv[2]) > 0 ? Number(process.argv[3] ?? process.argv[2]) : 60_000;
const HEALTH_GAP_MS = 5;
const PROGRESS_EVERY_MS = 100;

const work = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-store-stall-'));
const home = path.join(work, 'home');
const evidence = path.join(work, 'evidence');
mkdirSync(home);
mkdirSync(evidence);

/** An sshd auth log: a guessing run and a few logins (the crash-safety tests' generator). */
function authLog(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = `Mar  3 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    const what = i % 7 === 0 ? 'Accepted password' : 'Failed password';
    out.push(`${t} web01 sshd[${1000 + (i % 5000)}]: ${what} for user${i % 13} from 203.0.113.${1 + (i % 250)} port ${40000 + (i % 20000)} ssh2`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * A kept-alive socket the server closes while the next request is on its way (its idle timeout, reached while the
 * gateway was held) is the client's race, not the gateway's answer: such a request is made again once.
 */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw err;
    return fetch(url, init);
  }
}

/** The sampler's thread (plain JavaScript): /api/health one request after another until told to stop; answers each send time (ms since the epoch) and latency. */
const SAMPLER = `
const { parentPort, workerData: d } = require('node:worker_threads');
let stop = false;
parentPort.once('message', () => { stop = true; });
(async () => {
  const out = [];
  while (!stop) {
    const at = performance.timeOrigin + performance.now();
    const s = performance.now();
    try {
      await (await fetch(d.url)).arrayBuffer();
    } catch (e) {
      // A kept-alive socket closed by the server while this request was on its way: made again, timed from the first.
      await (await fetch(d.url)).arrayBuffer();
    }
    out.push({ at, ms: performance.now() - s });
    await new Promise((r) => setTimeout(r, d.gap));
  }
  parentPort.postMessage(out);
})();
`;


const report = (name: string, ms: readonly number[]): void => {
  console.log(`${name.padEnd(28)} health ${latencySummary(ms)}`);
};

writeFileSync(path.join(evidence, 'auth.log'), authLog(lines));
process.env['FORENSIC_EVIDENCE_ROOT'] = evidence;
process.env['VITRINE_HOME'] = home;
const { startWorkstation } = await import('../main/headless.js');
const ws = await startWorkstation({ port: 0, host: '127.0.0.1', dataDir: home, rendererDir: path.join(work, 'no-renderer') });
const auth = { authorization: `Bearer ${ws.token}` };
const svc = `${ws.url}/svc/forensic/api`;

try {
  const t0 = performance.timeOrigin + performance.now();
  const made = await fetch(`${svc}/cases/path`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['auth.log'], kind: 'authlog', year: 2024, includeNoisy: true }) });
  if (made.status !== 202) throw new Error(`case creation failed: ${made.status} ${await made.text()}`);
  const id = made.headers.get('x-case-id') as string;

  // The case's progress, read on its own timer; `storingFrom` is when the analysis was over.
  let status = 'queued';
  let storingFrom: number | undefined;
  const watch = setInterval(() => {
    const sent = performance.timeOrigin + performance.now();
    void request(`${svc}/cases/${id}`, { headers: auth })
      .then((r) => r.json() as Promise<{ status: string; progress?: { fraction: number } }>)
      .then((c) => {
        if (storingFrom === undefined && (c.status === 'done' || (c.progress?.fraction ?? 0) >= 0.99)) storingFrom = sent;
        status = c.status;
      })
      .catch(() => undefined);
  }, PROGRESS_EVERY_MS);

  // The samples are taken on a thread of their own: a sampler on this thread (the gateway's) would stall with it
  // and never send the request that waits.
  const sampler = new Worker(SAMPLER, { eval: true, workerData: { url: `${ws.url}/api/health`, gap: HEALTH_GAP_MS } });
  const collected = new Promise<{ at: number; ms: number }[]>((resolve, reject) => {
    sampler.once('message', resolve);
    sampler.once('error', reject);
  });
  while (status !== 'done' && status !== 'failed') await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS));
  sampler.postMessage('stop');
  const samples = await collected;
  await sampler.terminate();
  clearInterval(watch);
  const end = performance.timeOrigin + performance.now();
  if (status !== 'done') throw new Error('the case failed');
  const summary = (await (await request(`${svc}/cases/${id}`, { headers: auth })).json()) as { counts: { events: number; nodes: number; edges: number } };
  const has = (table: string): boolean => ws.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  const dbBytes = has('forensic_case_texts')
    ? (ws.db.prepare('SELECT SUM(LENGTH(text)) AS t FROM forensic_case_texts').get() as { t: number }).t
    : (ws.db.prepare('SELECT SUM(IFNULL(LENGTH(view_json), 0) + IFNULL(LENGTH(export_json), 0) + IFNULL(LENGTH(timeline_json), 0)) AS t FROM forensic_cases').get() as { t: number }).t;
  const itemBytes = (ws.db.prepare('SELECT SUM(LENGTH(json)) AS t FROM forensic_case_items').get() as { t: number }).t;
  const leanBytes = has('forensic_case_lean_events') ? (ws.db.prepare('SELECT SUM(LENGTH(json)) AS t FROM forensic_case_lean_events').get() as { t: number }).t : 0;
  // The store's size on disk: its file once the write-ahead log is checkpointed into it.
  ws.db.pragma('wal_checkpoint(TRUNCATE)');
  const diskBytes = statSync(ws.db.name).size;
  console.log(
    `case: ${lines.toLocaleString('en')} lines, ${summary.counts.events.toLocaleString('en')} events, ${summary.counts.nodes.toLocaleString('en')} nodes, ${summary.counts.edges.toLocaleString('en')} edges; ` +
      `texts ${(dbBytes / 1e6).toFixed(1)} MB, item rows ${(itemBytes / 1e6).toFixed(1)} MB, lean rows ${(leanBytes / 1e6).toFixed(1)} MB, store on disk ${(diskBytes / 1e6).toFixed(1)} MB; job ${((end - t0) / 1000).toFixed(1)} s, of which storing ${storingFrom === undefined ? '?' : ((end - storingFrom) / 1000).toFixed(1)} s`,
  );
  report('whole job', samples.map((s) => s.ms));
  if (storingFrom !== undefined) {
    const from = storingFrom - PROGRESS_EVERY_MS;
    report('while storing', samples.filter((s) => s.at >= from).map((s) => s.ms));
  }

  // How long each write transaction of the job's store holds the store (where the code stores in steps).
  const store = (await import('../engines/forensic/store.js')) as Record<string, unknown>;
  if (typeof store['caseWriteSteps'] === 'function') {
    const { openStore } = await import('../engines/core/store.js');
    const { forensicService } = await import('../engines/forensic/service.js');
    const s = await import('../engines/forensic/store.js');
    const view = s.getCaseView(ws.db, id);
    const rows = ws.db.prepare('SELECT seq, at, kind, actor, payload, prev_hash, hash FROM forensic_case_custody WHERE case_id = ? ORDER BY seq').all(id) as Parameters<typeof s.prepareCase>[1];
    if (view === null) throw new Error('no stored view');
    const db = openStore(path.join(work, 'again.db'), [forensicService]);
    s.createCase(db, { id, title: 'again', origin: 'path', request: {}, now: new Date().toISOString() });
    const tp = performance.now();
    const prepared = s.prepareCase(view, rows);
    const prepareMs = performance.now() - tp;
    const steps: number[] = [];
    const gen = s.caseWriteSteps(db, id, prepared, new Date().toISOString());
    for (;;) {
      const t = performance.now();
      if (gen.next().done === true) {
        steps.push(performance.now() - t);
        break;
      }
      steps.push(performance.now() - t);
    }
    const sorted = [...steps].sort((a, b) => a - b);
    console.log(
      `store in steps: texts made in ${(prepareMs / 1000).toFixed(1)} s; ${steps.length} write transactions, ${(steps.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all; ` +
        `median ${quantile(sorted, 0.5).toFixed(0)} ms, longest ${(sorted.at(-1) ?? NaN).toFixed(0)} ms; the last (ledger of ${rows.length.toLocaleString('en')} records and status done) ${(steps.at(-1) ?? NaN).toFixed(0)} ms; ` +
        `the three before it (the texts) ${steps.slice(-4, -1).map((m) => m.toFixed(0)).join(', ')} ms`,
    );
    db.close();
  }
} finally {
  await ws.close();
  rmSync(work, { recursive: true, force: true });
}
