// Across processes on one PostgreSQL database: two migrators migrate once, two audit writers keep one unbroken chain,
// two lease claimers never take the same watched package, two monitoring workers check each due package once; and the
// whole team at once: two servers and two workers (scans, logins with a lock-out, policy activations, project
// creations and a monitoring round), after which the audit verifies, no check ran twice and no row is lost.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backendFixture } from '../../../test/postgres/backends.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON } from '../../../test/postgres/cluster.js';
import { hasCorpora } from '../../../test/corpora.js';
import type { AuditEntry, AuditVerification, PageOf, ScanSummary, ScanVerdict, TokenResponse } from '../../core/contracts/pkgscan.js';
import { AuditLog } from '../audit/audit.js';
import { TEST_SCRYPT } from '../server.fixture.js';
import { checkedPgMigrations, postgresStatus, type MigrationRun } from './migrate.js';
import { PgDb } from './postgres.js';
import { roundPlatform, seedWatched } from './testing/monitor.fixture.js';
import { req, serveChild } from './testing/served.fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, 'testing', 'child.fixture.ts');
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

async function json<T>(r: Response): Promise<T> {
  return (await r.json()) as T;
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

  it.skipIf(!hasCorpora())('two servers and two workers at once: scans, logins with a lock-out, policy activations, project creations and a monitoring round; then the audit verifies, no check ran twice, no row is lost', async () => {
    const b = await fixture.open('postgres');
    const url = b.url as string;
    // Accounts, made through a third platform on the same database (as `pkgscan create-admin` would).
    const setup = roundPlatform({ databaseUrl: url, scrypt: TEST_SCRYPT }, []);
    await setup.platform.auth.createUser({ email: 'root@example.org', password: 'correct horse battery staple', role: 'admin' }, 'system', null);
    await setup.platform.auth.createUser({ email: 'victim@example.org', password: 'correct horse battery staple', role: 'developer' }, 'system', null);
    const watched = await seedWatched(b.store, 40, 'team');
    const servers = await Promise.all([serveChild(url), serveChild(url)]);
    try {
      const [one, two] = servers.map((s) => s.api) as [string, string];
      const login = (api: string, email: string, password = 'correct horse battery staple'): Promise<Response> => req(api, 'POST', '/auth/login', undefined, { email, password });
      const admin = (await json<TokenResponse>(await login(one, 'root@example.org'))).access_token;
      const policyIds: string[] = [];
      for (let i = 0; i < 4; i++) policyIds.push((await json<{ id: string }>(await req(i % 2 === 0 ? one : two, 'POST', '/policies', admin, { name: `team-${i}`, environment: 'staging' }))).id);

      type Run = { checked: string[]; asked: string[]; errors: string[]; checks: number };
      const workers = Promise.all([child<Run>('monitor', url, '4', 'w1'), child<Run>('monitor', url, '4', 'w2')]);
      const scans = [
        ['ms', '2.1.3', 'dev'],
        ['ms', '2.1.3', 'prod'],
        ['nequi-api-utils', '9.9.9', 'dev'],
        ['nequi-api-utils', '9.9.9', 'prod'],
        ['ms', '2.1.3', 'staging'],
        ['nequi-api-utils', '9.9.9', 'staging'],
      ].map(([name, version, environment], i) => req(i % 2 === 0 ? one : two, 'POST', '/scans', admin, { ecosystem: 'npm', name, version, environment }));
      const wrong = Array.from({ length: 4 }, (_, i) => login(i % 2 === 0 ? one : two, 'victim@example.org', 'not the password at all'));
      const activations = policyIds.map((id, i) => req(i % 2 === 0 ? two : one, 'POST', `/policies/${id}/activate`, admin));
      const projects = Array.from({ length: 6 }, (_, i) => req(i % 2 === 0 ? one : two, 'POST', '/projects', admin, { name: i % 2 === 0 ? 'Team Site' : 'team site' }));
      const [scanAnswers, wrongAnswers, activationAnswers, projectAnswers] = await Promise.all([Promise.all(scans), Promise.all(wrong), Promise.all(activations), Promise.all(projects)]);
      const [w1, w2] = await workers;

      // Scans: six answered, six stored, each seen by both servers with its audit entry.
      expect(scanAnswers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const verdicts = await Promise.all(scanAnswers.map((r) => json<ScanVerdict>(r)));
      for (const api of [one, two]) {
        const list = await json<PageOf<ScanSummary>>(await req(api, 'GET', '/scans?limit=50', admin));
        expect(list.items.map((x) => x.id).sort()).toEqual(verdicts.map((v) => v.id).sort());
      }
      // Logins: the four failures were each counted (401 until the third, then 429), and the lock-out holds on both servers.
      expect(wrongAnswers.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(3);
      expect(wrongAnswers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
      expect((await login(one, 'victim@example.org')).status).toBe(429);
      expect((await login(two, 'victim@example.org')).status).toBe(429);
      // Policies: every activation answered 200, and one staging policy is active.
      expect(activationAnswers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const staging = await json<PageOf<{ id: string; active: boolean }>>(await req(two, 'GET', '/policies?environment=staging&limit=100', admin));
      expect(staging.items.filter((x) => x.active)).toHaveLength(1);
      // Projects: one created, the rest refused by the unique name.
      expect(projectAnswers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);

      // Monitoring: every watched package checked exactly once, by one worker or the other.
      expect([...w1.errors, ...w2.errors]).toEqual([]);
      expect([...w1.checked, ...w2.checked].sort()).toEqual([...watched].sort());
      expect([...w1.asked, ...w2.asked].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `team-${i}`).sort());
      const perPackage = await b.store.all<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_monitor_checks GROUP BY package_id');
      expect(perPackage.map((r) => r.n)).toEqual(Array.from({ length: 40 }, () => 1));

      // No row lost: the database holds exactly what was answered, and the audit chain has an entry for each.
      const count = async (sql: string): Promise<number> => (await b.store.get<{ n: number }>(sql))?.n ?? -1;
      expect(await count('SELECT COUNT(*) AS n FROM pkgscan_scans')).toBe(6);
      expect(await count("SELECT COUNT(*) AS n FROM pkgscan_events WHERE type = 'malicious_package_detected'")).toBe(3);
      expect(await count('SELECT COUNT(*) AS n FROM pkgscan_projects')).toBe(1);
      const actions = async (action: string): Promise<number> => (await json<PageOf<unknown>>(await req(one, 'GET', `/audit?action=${action}&limit=1`, admin))).total;
      expect(await actions('scan.create')).toBe(6);
      const activated = await json<PageOf<AuditEntry>>(await req(one, 'GET', '/audit?action=policy.activate&limit=100', admin));
      expect(activated.items.filter((e) => policyIds.includes(String(e.details['policy_id'])))).toHaveLength(4);
      // The shipped policies were seeded once for the database, not once per server or worker.
      expect(await count("SELECT COUNT(*) AS n FROM pkgscan_policies WHERE name LIKE 'default-%'")).toBe(3);
      expect(await actions('project.create')).toBe(1);
      expect(await actions('auth.login_failed')).toBe(wrongAnswers.filter((r) => r.status === 401).length);
      const verified = await json<AuditVerification>(await req(two, 'GET', '/audit/verify', admin));
      expect(verified).toMatchObject({ ok: true, missing_triggers: [] });
      expect(verified.count).toBe(await count('SELECT COUNT(*) AS n FROM pkgscan_audit'));
    } finally {
      const ended = await Promise.all(servers.map((s) => s.stop()));
      await setup.platform.audit.flush();
      expect(ended.map((e) => e.queuedFailures)).toEqual([0, 0]);
    }
  }, 300_000);
});
