// `npm run bench -- pkgscan-db [--appends N] [--reads N] [--scans N] [--scan-reads N] [--advisories N] [--source-delay MS]
// [--only A,B]`:
// pkgscan's shared-database pieces on SQLite and on a private PostgreSQL cluster: audit-chain appends per second (one
// process, two processes), the read p99 of a signed-in call (GET /auth/me: token check, user and family lookups) with
// one and two servers, a lease round over 500 watched packages claimed by one and by two workers, a full monitoring
// round over 500 watched packages (worker loops: claim, check against a fixed source, record) with one and two worker
// processes started together once each is ready (against a source that answers at once, and one that answers in
// 20 ms as a registry mirror across a network would), advisory imports (OSV records and the CISA KEV catalogue) on SQLite,
// on PostgreSQL, and two at once on PostgreSQL; and package scans per second (POST /scans of two corpus archives, 4 at
// a time, analysis included) with the read p99 of the scan history and of one verdict, on SQLite, on PostgreSQL with
// one server, and with two server processes. `--only` picks sections: sqlite, scans, audit, reads, leases, monitoring,
// advisories. The PostgreSQL cluster is the tests' private one (Unix socket, fsync off): figures are optimistic for a
// real server.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { openMemoryStore } from '../engines/core/store.js';
import { AuditLog } from '../engines/pkgscan/audit/audit.js';
import { claimDueLeases } from '../engines/pkgscan/db/leases.js';
import { roundLeft, roundPlatform, seedWatched } from '../engines/pkgscan/db/testing/monitor.fixture.js';
import { runMonitoringWorker } from '../engines/pkgscan/monitoring/worker.js';
import { closeSharedDatabases, MigratingDb } from '../engines/pkgscan/db/open.js';
import { PgDb } from '../engines/pkgscan/db/postgres.js';
import { SqliteDb } from '../engines/pkgscan/db/sqlite.js';
import type { AsyncDb } from '../engines/pkgscan/db/types.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import { req, SERVED_ADMIN, serveChild, type Served } from '../engines/pkgscan/db/testing/served.fixture.js';
import { call, createUser, loginAs, startServer, type TestServer } from '../engines/pkgscan/server.fixture.js';
import { AdvisoryStore } from '../engines/core/vulns/store.js';
import { PgAdvisories, SqliteAdvisories, type AdvisoryRepository } from '../engines/pkgscan/vulns/repository.js';
import { corpusPath, hasCorpora } from '../test/corpora.js';
import { startCluster } from '../test/postgres/cluster.js';

const args = process.argv.slice(3);
const opt = (name: string, dflt: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const APPENDS = opt('--appends', 2000);
const READS = opt('--reads', 2000);
const SCANS = opt('--scans', 24);
const SCAN_READS = opt('--scan-reads', 1000);
const ADVISORIES = opt('--advisories', 2000);
/** How long the slow source of the second pair of monitoring rounds takes to answer (a registry mirror on the network). */
const SOURCE_DELAY_MS = opt('--source-delay', 20);
const onlyAt = args.indexOf('--only');
const ONLY = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : undefined;
const SECTIONS = ['sqlite', 'scans', 'audit', 'reads', 'leases', 'monitoring', 'advisories'];
if (ONLY !== undefined && [...ONLY].some((x) => !SECTIONS.includes(x))) throw new Error(`--only takes ${SECTIONS.join(', ')}`);
const want = (section: string): boolean => ONLY === undefined || ONLY.has(section);
const WATCHED = 500;
const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, '..', 'engines', 'pkgscan', 'db', 'testing', 'child.fixture.ts');

function p99(ms: number[]): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? Number.NaN;
}

/** Runs the test child (its own Node process) and returns the wall-clock window of its appends. */
function child<T extends { startedAt: number; endedAt: number }>(...argv: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CHILD, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null') as T) : reject(new Error(err.slice(0, 500)))));
  });
}

async function appendsPerSecond(audit: AuditLog, n: number): Promise<number> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async (_, lane) => {
      for (let i = lane; i < n; i += 4) await audit.append('bench.append', 'bench', null, { i });
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

async function readP99(servers: readonly TestServer[], token: string, n: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = servers[i % servers.length] as TestServer;
    const t0 = performance.now();
    const r = await call(s, 'GET', '/auth/me', { token });
    await r.arrayBuffer();
    ms.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`read failed: ${r.status}`);
  }
  return p99(ms);
}

async function fillWatched(db: AsyncDb): Promise<void> {
  const due = new Date(Date.now() - 60_000).toISOString();
  await db.transaction(async (q) => {
    for (let i = 0; i < WATCHED; i++)
      await q.run('INSERT INTO pkgscan_monitored (id, ecosystem, name, poll_interval_seconds, next_check_at, created_by, created_at, updated_at) VALUES (?, ?, ?, 3600, ?, ?, ?, ?)', [randomUUID(), 'npm', `w-${i}`, due, 'bench', due, due]);
  });
}

async function leaseRound(dbs: readonly AsyncDb[]): Promise<number> {
  const start = performance.now();
  await Promise.all(
    dbs.map(async (db, w) => {
      for (;;) if ((await claimDueLeases(db, `w${w}`, 10, Date.now(), 600_000)).length === 0) break;
    }),
  );
  return performance.now() - start;
}

/** A monitoring round in this process on SQLite: `loops` worker loops until every seeded package is checked. */
async function sqliteRound(loops: number): Promise<{ ms: number; checks: number }> {
  const asked: string[] = [];
  const { platform, deps } = roundPlatform({}, asked);
  await seedWatched(platform.store, WATCHED);
  const controller = new AbortController();
  const start = performance.now();
  const running = Array.from({ length: loops }, (_, i) => runMonitoringWorker(platform, deps, { signal: controller.signal, tickMs: 20, workerId: `w${i}` }));
  while ((await roundLeft(platform.store)) > 0) await new Promise((r) => setTimeout(r, 10));
  const ms = performance.now() - start;
  controller.abort();
  const stats = await Promise.all(running);
  return { ms, checks: stats.reduce((n, x) => n + x.checks, 0) };
}

interface MonitorRun {
  readonly startedAt: number;
  readonly endedAt: number;
  readonly checks: number;
  readonly asked: string[];
  readonly cpuMs: number;
}

/**
 * A `monitor` child that gets ready first (start-up, schema check, policy seeding, connections) and starts its loop
 * when told: so a round's workers start together and no worker's start-up is counted in, or competes with, the round.
 */
function gatedWorker(url: string, batch: number, workerId: string, sourceDelayMs: number): { ready: Promise<void>; go(): void; done: Promise<MonitorRun> } {
  const p = spawn(process.execPath, ['--import', 'tsx', CHILD, 'monitor', url, String(batch), workerId, `gated:${sourceDelayMs}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  p.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('"ready":true')) markReady();
  });
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<MonitorRun>((resolve, reject) =>
    p.on('close', (code) => {
      markReady();
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null') as MonitorRun);
      else reject(new Error(err.slice(0, 500)));
    }),
  );
  return {
    ready,
    go: () => {
      p.stdin.end('go\n');
    },
    done,
  };
}

/** The fields of /proc/PID/stat after the command name (Linux). */
function procStat(pid: number): string[] {
  const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return st.slice(st.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU milliseconds the cluster has used: the postmaster, its live processes, and the backends that ended (counted in the
 * postmaster's children times once it reaped them). Linux only; NaN elsewhere.
 */
function clusterCpuMs(postmaster: number): number {
  try {
    const tick = 10; // USER_HZ is 100 on Linux
    const f = procStat(postmaster);
    let ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const g = procStat(Number(d));
        if (Number(g[1]) === postmaster) ticks += Number(g[11]) + Number(g[12]);
      } catch {
        // The process ended meanwhile.
      }
    }
    return ticks * tick;
  } catch {
    return Number.NaN;
  }
}

/**
 * A monitoring round on a fresh PostgreSQL database with `workers` worker processes, from the go to the last package
 * checked; the source answers at once, or after `sourceDelayMs` (a registry mirror across a network).
 */
async function postgresRound(url: string, workers: number, sourceDelayMs = 0): Promise<{ ms: number; checks: readonly number[]; asked: number; cpuMs: number; pgCpuMs: number }> {
  const db = new MigratingDb(new PgDb({ url, max: 2 }));
  await seedWatched(db, WATCHED);
  const checkpointer = await db.get<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
  const postmaster = checkpointer !== undefined ? Number(procStat(checkpointer.pid)[1]) : -1;
  const kids = Array.from({ length: workers }, (_, i) => gatedWorker(url, 8, `w${i}`, sourceDelayMs));
  await Promise.all(kids.map((k) => k.ready));
  const go = Date.now();
  const pgBefore = clusterCpuMs(postmaster);
  for (const k of kids) k.go();
  const runs = await Promise.all(kids.map((k) => k.done));
  const pgCpuMs = clusterCpuMs(postmaster) - pgBefore;
  const recorded = await db.get<{ n: number }>('SELECT COUNT(DISTINCT package_id) AS n FROM pkgscan_monitor_checks');
  await db.close();
  if (recorded?.n !== WATCHED) throw new Error(`the round recorded ${String(recorded?.n)} of ${WATCHED} packages`);
  return { ms: Math.max(...runs.map((r) => r.endedAt)) - go, checks: runs.map((r) => r.checks), asked: runs.reduce((n, r) => n + r.asked.length, 0), cpuMs: runs.reduce((n, r) => n + r.cpuMs, 0), pgCpuMs };
}

/** `n` OSV records (GHSA ids with a CVE alias, one npm package with a fixed range each), as one JSON array file. */
function osvArray(dir: string, name: string, n: number, offset: number): string {
  const records = Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    const hex = i.toString(16).padStart(12, '0');
    return {
      id: `GHSA-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}`,
      aliases: [`CVE-2024-${String(10000 + i)}`],
      modified: '2025-08-30T00:00:00Z',
      summary: `synthetic advisory ${i}`,
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
      affected: [{ package: { ecosystem: 'npm', name: `bench-pkg-${i % 500}` }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: `1.${i % 7}.0` }] }] }],
    };
  });
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(records));
  return file;
}

/** Records per second of importing `file` into `repo`, and what the import counted. */
async function importRate(repo: AdvisoryRepository, file: string): Promise<{ perSecond: number; records: number }> {
  const t0 = performance.now();
  const r = await repo.importFile(file);
  return { perSecond: r.records / ((performance.now() - t0) / 1000), records: r.records };
}

/** The scans the bench runs, in turn: the benign and the malicious corpus archive, in three environments. */
const SCAN_BODIES = [
  { ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' },
  { ecosystem: 'npm', name: 'nequi-api-utils', version: '9.9.9', environment: 'prod' },
  { ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'staging' },
  { ecosystem: 'npm', name: 'nequi-api-utils', version: '9.9.9', environment: 'dev' },
] as const;

/**
 * Server processes (`-`: one on its own SQLite store; else `count` on the database URL): SCANS scans, 4 at a time,
 * spread over them; then SCAN_READS reads alternating the history page and one verdict, one at a time, spread the same.
 */
async function scanRun(url: string, count: number): Promise<{ perSecond: number; readP99: number; stored: number }> {
  const servers: Served[] = [];
  try {
    // One after the other: the first makes the admin, the second finds it.
    for (let i = 0; i < count; i++) servers.push(await serveChild(url, true));
    const apis = servers.map((s) => s.api);
    const login = await req(apis[0] as string, 'POST', '/auth/login', undefined, SERVED_ADMIN);
    const token = ((await login.json()) as { access_token: string }).access_token;
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = next++; i < SCANS; i = next++) {
          const r = await req(apis[i % apis.length] as string, 'POST', '/scans', token, SCAN_BODIES[i % SCAN_BODIES.length]);
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`scan failed: ${r.status}`);
        }
      }),
    );
    const perSecond = SCANS / ((performance.now() - start) / 1000);
    const history = (await (await req(apis[0] as string, 'GET', '/scans?limit=50', token)).json()) as { total: number; items: { id: string }[] };
    const ms: number[] = [];
    for (let i = 0; i < SCAN_READS; i++) {
      const api = apis[i % apis.length] as string;
      const route = i % 2 === 0 ? '/scans?limit=50' : `/scans/${history.items[i % history.items.length]?.id ?? ''}`;
      const t0 = performance.now();
      const r = await req(api, 'GET', route, token);
      await r.arrayBuffer();
      ms.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`read failed: ${r.status}`);
    }
    return { perSecond, readP99: p99(ms), stored: history.total };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

const rows: string[] = [];
const report = (what: string, value: string): void => {
  rows.push(`  ${what.padEnd(58)} ${value}`);
};

// SQLite: the embedded default.
if (want('sqlite')) {
  const sqlite = openMemoryStore([pkgscanService]);
  report('audit appends/s, SQLite (in memory), one process', (await appendsPerSecond(new AuditLog(sqlite), APPENDS)).toFixed(0));
  const s = await startServer();
  await createUser(s, 'auditor', 'bench@example.org');
  const session = await loginAs(s, 'bench@example.org');
  report('GET /auth/me p99 ms, SQLite, one server', (await readP99([s], session.token, READS)).toFixed(2));
  await s.close();
  const store = new SqliteDb(openMemoryStore([pkgscanService]));
  await fillWatched(store);
  report(`lease round over ${WATCHED} watched, SQLite, one worker (ms)`, (await leaseRound([store])).toFixed(0));
  for (const loops of [1, 2]) {
    const r = await sqliteRound(loops);
    report(`monitoring round over ${WATCHED}, SQLite, ${loops === 1 ? 'one worker loop' : 'two worker loops'} (ms)`, `${r.ms.toFixed(0)} (${r.checks} checks)`);
  }
}

if (want('scans')) {
  const r = await scanRun('-', 1);
  report(`scans/s, SQLite, one server (${SCANS} scans, 4 at a time)`, `${r.perSecond.toFixed(2)} (${r.stored} stored)`);
  report('scan reads p99 ms, SQLite, one server (history page / one verdict)', r.readP99.toFixed(2));
}

const tmp = mkdtempSync(path.join(tmpdir(), 'pkgscan-db-bench-'));
const cluster = await startCluster();
try {
  if (want('scans'))
    for (const count of [1, 2]) {
      const r = await scanRun(await cluster.createDatabase(`scans_${count}`), count);
      const who = count === 1 ? 'one server' : 'two server processes';
      report(`scans/s, PostgreSQL, ${who} (${SCANS} scans, 4 at a time)`, `${r.perSecond.toFixed(2)} (${r.stored} stored)`);
      report(`scan reads p99 ms, PostgreSQL, ${who}${count === 2 ? ' (alternating)' : ''}`, r.readP99.toFixed(2));
    }

  const url = await cluster.createDatabase('bench');
  const db = new MigratingDb(new PgDb({ url }));
  await db.migrate();
  if (want('audit')) {
    const audit = new AuditLog(new BetterSqlite3(':memory:'), db);
    report('audit appends/s, PostgreSQL, one process (4 at a time)', (await appendsPerSecond(audit, APPENDS)).toFixed(0));
    // From the first process's first append to the last one's last (process start-up is not counted).
    const windows = await Promise.all([child('audit', url, String(APPENDS / 2)), child('audit', url, String(APPENDS / 2))]);
    const span = Math.max(...windows.map((w) => w.endedAt)) - Math.min(...windows.map((w) => w.startedAt));
    report('audit appends/s, PostgreSQL, two processes (4 at a time each)', (APPENDS / (span / 1000)).toFixed(0));
    const v = await audit.verifyChain({ count: APPENDS * 2 });
    report('ms during which both processes were appending', String(Math.max(0, Math.min(...windows.map((w) => w.endedAt)) - Math.max(...windows.map((w) => w.startedAt)))));
    report('audit chain after the runs', v.ok ? `ok, ${v.count} entries` : `BROKEN: ${v.reason ?? ''}`);
  }

  if (want('reads')) {
    const config = { databaseUrl: url };
    const one = await startServer(config);
    const two = await startServer(config);
    await createUser(one, 'auditor', 'bench@example.org');
    const session = await loginAs(one, 'bench@example.org');
    report('GET /auth/me p99 ms, PostgreSQL, one server', (await readP99([one], session.token, READS)).toFixed(2));
    report('GET /auth/me p99 ms, PostgreSQL, two servers (alternating)', (await readP99([one, two], session.token, READS)).toFixed(2));
    await one.close();
    await two.close();
  }

  if (want('leases')) {
    const w1 = new MigratingDb(new PgDb({ url, max: 2 }));
    const w2 = new MigratingDb(new PgDb({ url, max: 2 }));
    await fillWatched(db);
    report(`lease round over ${WATCHED} watched, PostgreSQL, one worker (ms)`, (await leaseRound([w1])).toFixed(0));
    await db.run('UPDATE pkgscan_monitored SET claimed_by = NULL, claimed_until = NULL');
    report(`lease round over ${WATCHED} watched, PostgreSQL, two workers (ms)`, (await leaseRound([w1, w2])).toFixed(0));
    const owners = await db.all<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_monitored WHERE claimed_by IS NOT NULL');
    report('claimed after the two-worker round', String(owners[0]?.n ?? 0));
    await Promise.all([w1.close(), w2.close()]);
  }
  await db.close();

  if (want('monitoring'))
    for (const delay of [0, SOURCE_DELAY_MS])
      for (const workers of [1, 2]) {
        const r = await postgresRound(await cluster.createDatabase(`round_${delay}_${workers}`), workers, delay);
        report(
          `monitoring round over ${WATCHED}, PostgreSQL, ${workers === 1 ? 'one worker process' : 'two worker processes'}${delay > 0 ? `, source answering in ${delay} ms` : ''} (ms)`,
          `${r.ms.toFixed(0)} (${r.checks.join(' + ')} checks, ${r.asked} source asks; CPU ms: workers ${r.cpuMs}, PostgreSQL ${r.pgCpuMs.toFixed(0)})`,
        );
      }

  if (want('advisories')) {
    const osv = osvArray(tmp, 'osv.json', ADVISORIES, 0);
    const [osvA, osvB] = [osvArray(tmp, 'osv-a.json', ADVISORIES, ADVISORIES), osvArray(tmp, 'osv-b.json', ADVISORIES, 2 * ADVISORIES)];
    const kev = hasCorpora() ? corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.csv') : undefined;
    const sqlite = openMemoryStore([pkgscanService]);
    const onSqlite = new SqliteAdvisories(new AdvisoryStore(sqlite), sqlite);
    const o = await importRate(onSqlite, osv);
    report(`advisory import, SQLite, ${o.records} OSV records (records/s)`, o.perSecond.toFixed(0));
    if (kev !== undefined) {
      const k = await importRate(onSqlite, kev);
      report(`advisory import, SQLite, CISA KEV CSV, ${k.records} entries (records/s)`, k.perSecond.toFixed(0));
    }
    const advUrl = await cluster.createDatabase('advisories');
    const [p1, p2] = [new MigratingDb(new PgDb({ url: advUrl, max: 2 })), new MigratingDb(new PgDb({ url: advUrl, max: 2 }))];
    await p1.migrate();
    const one = await importRate(new PgAdvisories(p1), osv);
    report(`advisory import, PostgreSQL, ${one.records} OSV records (records/s)`, one.perSecond.toFixed(0));
    if (kev !== undefined) {
      const k = await importRate(new PgAdvisories(p1), kev);
      report(`advisory import, PostgreSQL, CISA KEV CSV, ${k.records} entries (records/s)`, k.perSecond.toFixed(0));
    }
    // Two imports at once, as two servers would run them (batches interleave under the advisory-import lock).
    const t0 = performance.now();
    const both = await Promise.all([new PgAdvisories(p1).importFile(osvA), new PgAdvisories(p2).importFile(osvB)]);
    const s2 = (performance.now() - t0) / 1000;
    report(`advisory import, PostgreSQL, two imports at once, ${both[0].records} + ${both[1].records} OSV records (records/s together)`, ((both[0].records + both[1].records) / s2).toFixed(0));
    const stored = await p1.get<{ n: number }>('SELECT COUNT(*) AS n FROM vuln_advisories');
    report('advisories stored on PostgreSQL after the imports', String(stored?.n ?? 0));
    await Promise.all([p1.close(), p2.close()]);
  }
  await closeSharedDatabases();
} finally {
  cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`pkgscan-db (appends ${APPENDS}, reads ${READS}, scans ${SCANS}, scan reads ${SCAN_READS}, advisories ${ADVISORIES}; the machine's other load shares its 2 cores)`);
console.log(rows.join('\n'));
