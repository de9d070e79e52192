// Across processes on one PostgreSQL database: two migrators migrate once, two audit writers keep one unbroken chain,
// two lease claimers never take the same watched package, two monitoring workers check each due package once.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backendFixture } from '../../../test/postgres/backends.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON } from '../../../test/postgres/cluster.js';
import { AuditLog } from '../audit/audit.js';
import { checkedPgMigrations, postgresStatus, type MigrationRun } from './migrate.js';
import { PgDb } from './postgres.js';
import { seedWatched } from './testing/monitor.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, 'testing', 'child.ts');
const fixture = backendFixture();

/** Runs the child script in its own Node process and parses its one JSON line. */
function child<T>(...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: path.resolve(here, '..', '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`child ${args[0] ?? ''} exited ${String(code)}: ${err.slice(0, 2000)}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null') as T);
    });
  });
}

describe.skipIf(SKIP_POSTGRES)(`two processes on one PostgreSQL database (${SKIP_POSTGRES ? SKIP_POSTGRES_REASON : 'server present'})`, () => {
  it('two migrators starting at once: one applies every step, the other finds nothing to do', async () => {
    const c = await fixture.cluster();
    const url = await c.createDatabase(`race_${process.pid}`);
    const runs = await Promise.all([child<MigrationRun>('migrate', url), child<MigrationRun>('migrate', url)]);
    const all = checkedPgMigrations().map((m) => m.version);
    expect(runs.map((r) => r.applied.length).sort((a, b) => a - b)).toEqual([0, all.length]);
    expect(runs.find((r) => r.applied.length > 0)?.applied).toEqual(all);
    const pg = new PgDb({ url, max: 1 });
    try {
      const status = await postgresStatus(pg);
      expect(status.current).toBe(all.length);
      expect(await pg.get<{ n: number }>("SELECT COUNT(*) AS n FROM schema_migrations WHERE service = 'pkgscan'")).toEqual({ n: all.length });
    } finally {
      await pg.close();
    }
  }, 120_000);

  it('two processes appending 4 at a time each: one chain, no seq twice, nothing lost, verified', async () => {
    const b = await fixture.open('postgres');
    const url = b.url as string;
    const [x, y] = await Promise.all([child<{ seqs: number[] }>('audit', url, '60'), child<{ seqs: number[] }>('audit', url, '60')]);
    const seqs = [...x.seqs, ...y.seqs].sort((m, n) => m - n);
    expect(seqs).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    const audit = new AuditLog(b.sqlite, b.store);
    expect(await audit.verifyChain({ count: 120 })).toMatchObject({ ok: true, count: 120, missing_triggers: [] });
    const actors = new Set((await audit.page({ action: 'test.append' }, 500, 0)).items.map((e) => e.actor));
    expect(actors.size).toBe(2);
  }, 120_000);

  it('two workers claiming leases from 300 due packages: every package claimed exactly once', async () => {
    const b = await fixture.open('postgres');
    const due = new Date(Date.now() - 60_000).toISOString();
    await b.store.transaction(async (q) => {
      for (let i = 0; i < 300; i++)
        await q.run('INSERT INTO pkgscan_monitored (id, ecosystem, name, poll_interval_seconds, next_check_at, created_by, created_at, updated_at) VALUES (?, ?, ?, 3600, ?, ?, ?, ?)', [randomUUID(), 'pypi', `pkg-${i}`, due, 'system', due, due]);
    });
    const [x, y] = await Promise.all([child<{ claimed: string[] }>('claim', b.url as string, '5', 'w1'), child<{ claimed: string[] }>('claim', b.url as string, '5', 'w2')]);
    const all = [...x.claimed, ...y.claimed];
    expect(all).toHaveLength(300);
    expect(new Set(all).size).toBe(300);
    // The database agrees: each package's lease names the worker that reported it (one may have taken them all).
    const owners = await b.store.all<{ claimed_by: string; n: number }>('SELECT claimed_by, COUNT(*) AS n FROM pkgscan_monitored GROUP BY claimed_by ORDER BY claimed_by');
    const expected = [
      ['w1', x.claimed.length],
      ['w2', y.claimed.length],
    ].filter(([, n]) => n !== 0);
    expect(owners.map((o) => [o.claimed_by, o.n])).toEqual(expected);
  }, 120_000);

  it('two worker processes run a monitoring round over 60 watched packages: each checked exactly once, none lost', async () => {
    const b = await fixture.open('postgres');
    const ids = await seedWatched(b.store, 60);
    type Run = { checked: string[]; asked: string[]; errors: string[]; checks: number };
    const [x, y] = await Promise.all([child<Run>('monitor', b.url as string, '4', 'w1'), child<Run>('monitor', b.url as string, '4', 'w2')]);
    expect([...x.errors, ...y.errors]).toEqual([]);
    const checked = [...x.checked, ...y.checked];
    expect(checked).toHaveLength(60);
    expect([...new Set(checked)].sort()).toEqual([...ids].sort());
    // No check ran twice: the source was asked about each package once in all.
    expect([...x.asked, ...y.asked].sort()).toEqual(Array.from({ length: 60 }, (_, i) => `round-${i}`).sort());
    // The database agrees: one recorded check per package, every package checked, no lease left behind.
    const perPackage = await b.store.all<{ package_id: string; n: number }>('SELECT package_id, COUNT(*) AS n FROM pkgscan_monitor_checks GROUP BY package_id');
    expect(perPackage).toHaveLength(60);
    expect(perPackage.every((r) => r.n === 1)).toBe(true);
    const state = await b.store.get<{ unchecked: number; held: number; unchanged: number }>(
      "SELECT SUM(CASE WHEN last_check_at IS NULL THEN 1 ELSE 0 END) AS unchecked, SUM(CASE WHEN claimed_by IS NOT NULL THEN 1 ELSE 0 END) AS held, SUM(CASE WHEN last_result = 'unchanged' THEN 1 ELSE 0 END) AS unchanged FROM pkgscan_monitored",
    );
    expect(state).toEqual({ unchecked: 0, held: 0, unchanged: 60 });
  }, 180_000);
});
