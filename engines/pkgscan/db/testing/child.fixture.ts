// A second process for the concurrency tests (run with `node --import tsx`): migrates, appends to the audit chain,
// claims monitoring leases, runs monitoring worker loops until the round is over (`gated`: from a line on stdin), or
// serves pkgscan (until its stdin closes), on the database given, and prints what it did as one JSON line (`serve`: its
// address first; gated `monitor`: `{"ready":true}` first).
import { readFileSync } from 'node:fs';
import { corpusPath } from '../../../../test/corpora.js';
import { storeArchive } from '../../sources/store.js';
import { startServer } from '../../server.fixture.js';
import { AuditLog } from '../../audit/audit.js';
import { runMonitoringWorker } from '../../monitoring/worker.js';
import { listPolicies } from '../../policies/policies.js';
import { claimDueLeases } from '../leases.js';
import { migratePostgres } from '../migrate.js';
import { closeSharedDatabases, MigratingDb } from '../open.js';
import { PgDb } from '../postgres.js';
import BetterSqlite3 from 'better-sqlite3';
import { roundLeft, roundPlatform } from './monitor.fixture.js';
import { SERVED_ADMIN } from './served.fixture.js';

/**
 * `pkgscan worker` loops on their own platform until no watched package is left unchecked or held. `gated` (the bench):
 * the process first gets ready (schema checked, shipped policies seeded, connections open), prints `{"ready":true}`,
 * and starts its loop when a line arrives on stdin, so every worker of a round starts together after its start-up.
 * `sourceDelayMs`: the source answers after that long (a registry across a network).
 */
async function monitor(url: string, batch: number, workerId: string, gated: boolean, sourceDelayMs = 0): Promise<void> {
  const asked: string[] = [];
  const { platform, deps } = roundPlatform({ databaseUrl: url }, asked, sourceDelayMs);
  if (gated) {
    await listPolicies(platform.store, undefined, 1, 0);
    await roundLeft(platform.store);
    process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
    await new Promise<void>((resolve) => {
      process.stdin.once('data', () => resolve());
      process.stdin.resume();
    });
    process.stdin.pause();
  }
  const controller = new AbortController();
  const checked: string[] = [];
  const errors: string[] = [];
  const startedAt = Date.now();
  const cpuBefore = process.cpuUsage();
  const loop = runMonitoringWorker(platform, deps, {
    signal: controller.signal,
    tickMs: 20,
    batch,
    workerId,
    onCheck: (c) => checked.push(c.package_id),
    onError: (err) => errors.push(err instanceof Error ? err.message : 'unknown'),
  });
  while ((await roundLeft(platform.store)) > 0) await new Promise((r) => setTimeout(r, 25));
  controller.abort();
  const stats = await loop;
  const endedAt = Date.now();
  const cpu = process.cpuUsage(cpuBefore);
  await platform.audit.flush();
  await closeSharedDatabases();
  process.stdout.write(`${JSON.stringify({ checked, asked, errors, checks: stats.checks, startedAt, endedAt, cpuMs: Math.round((cpu.user + cpu.system) / 1000) })}\n`);
}

/** The archives every served process holds in its package store (the corpus, read as bytes). */
export const SERVED_ARCHIVES = ['benign/npm/ms-2.1.3.tgz', 'malicious/npm/nequi-api-utils-9.9.9.tgz'] as const;

/**
 * `pkgscan serve` until stdin closes: on the shared database, or with `-` as the URL on its own SQLite store (the
 * failed-login lock-out after 3 failures). With `admin`, it makes SERVED_ADMIN first unless it exists.
 */
async function serve(url: string, withAdmin: boolean): Promise<void> {
  const s = await startServer({
    ...(url !== '-' ? { databaseUrl: url } : {}),
    rateLimits: { windowMs: 60_000, authPerClient: 100_000, perClient: 100_000, perUser: 100_000, failedLoginsPerAccount: 3, failedLoginWindowMs: 60_000 },
  });
  if (withAdmin && !(await s.platform.auth.users.findByEmail(SERVED_ADMIN.email)))
    await s.platform.auth.createUser({ ...SERVED_ADMIN, role: 'admin' }, 'system', null).catch((err: unknown) => {
      // The other server of the pair made it meanwhile.
      if ((err as { code?: unknown }).code !== 'conflict') throw err;
    });
  for (const f of SERVED_ARCHIVES) await storeArchive(s.platform.store, s.platform.dataDir, readFileSync(corpusPath('packages', f)), { filename: f.split('/').pop() ?? f, source: 'import', actor: 'system' });
  process.stdout.write(`${JSON.stringify({ api: s.api })}\n`);
  await new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.resume();
  });
  await s.close();
  await s.platform.audit.flush();
  const queuedFailures = s.platform.audit.queuedFailures;
  await closeSharedDatabases();
  process.stdout.write(`${JSON.stringify({ queuedFailures })}\n`);
}

async function main(): Promise<void> {
  const [command, url, arg, owner] = process.argv.slice(2);
  if (command === undefined || url === undefined) throw new Error('usage: child COMMAND URL [ARG] [OWNER]');
  if (command === 'monitor') {
    // `gated` or `gated:MS` (the source answering after MS milliseconds).
    const gate = /^gated(?::(\d{1,5}))?$/.exec(process.argv[6] ?? '');
    await monitor(url, Number(arg), owner ?? `pid-${process.pid}`, gate !== null, Number(gate?.[1] ?? 0));
    return;
  }
  if (command === 'serve') {
    await serve(url, arg === 'admin');
    return;
  }
  const pg = new PgDb({ url, max: 4, applicationName: `vitrine-test-${process.pid}` });
  try {
    if (command === 'migrate') {
      const run = await migratePostgres(pg);
      process.stdout.write(`${JSON.stringify(run)}\n`);
    } else if (command === 'audit') {
      const db = new MigratingDb(pg);
      // The audit log's SQLite handle is unused on PostgreSQL; an in-memory one satisfies the constructor.
      const audit = new AuditLog(new BetterSqlite3(':memory:'), db);
      const n = Number(arg);
      const seqs: number[] = [];
      await db.migrate();
      const startedAt = Date.now();
      await Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = lane; i < n; i += 4) seqs.push((await audit.append('test.append', `pid-${process.pid}`, null, { i })).seq);
        }),
      );
      process.stdout.write(`${JSON.stringify({ seqs, startedAt, endedAt: Date.now() })}\n`);
    } else if (command === 'claim') {
      const db = new MigratingDb(pg);
      const claimed: string[] = [];
      for (;;) {
        const ids = await claimDueLeases(db, owner ?? `pid-${process.pid}`, Number(arg), Date.now(), 600_000);
        if (ids.length === 0) break;
        claimed.push(...ids);
      }
      process.stdout.write(`${JSON.stringify({ claimed })}\n`);
    } else throw new Error('unknown command');
  } finally {
    await pg.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
