// The storage layer on both backends (one parameterised suite): migrations and their status, the audit chain's
// guards, refresh-token families, user changes, the shared failed-login lock-out and monitoring leases.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON } from '../../../test/postgres/cluster.js';
import { VitrineError } from '../../core/errors.js';
import { openMemoryStore } from '../../core/store.js';
import { AuditLog } from '../audit/audit.js';
import { Auth } from '../auth/auth.js';
import { configFromEnv } from '../config.js';
import { DatabaseLimiter, MemoryLimiter, type SharedLimiter } from '../ops/ratelimit.js';
import { migrations as sqliteMigrations } from '../store.js';
import { TEST_SCRYPT } from '../server.fixture.js';
import { claimDueLeases, claimLease, leaseHolder, releaseLease, renewLease } from './leases.js';
import { checkedPgMigrations, migratePostgres, postgresStatus, sqliteStatus, statusText } from './migrate.js';
import type { MigratingDb } from './open.js';
import { databaseUrl, redactedUrl, storeDirFromEnv } from './url.js';
import { advisoryKey, numberPlaceholders } from './sql.js';
import type { AsyncDb } from './types.js';

const PASSWORD = 'correct horse battery staple';
const fixtureSqlite = () => openMemoryStore();
const fixture = backendFixture();

describe('placeholders, lock keys and the database URL', () => {
  it('numbers ? outside quoted text, identifiers, dollar quotes and comments', () => {
    expect(numberPlaceholders("SELECT ? , '?', \"a?\", $x$ ? $x$ -- ?\n, ?")).toBe("SELECT $1 , '?', \"a?\", $x$ ? $x$ -- ?\n, $2");
    expect(numberPlaceholders('INSERT INTO t VALUES (?, ?, ?)')).toBe('INSERT INTO t VALUES ($1, $2, $3)');
  });

  it('lock keys are stable signed 64-bit integers, different per name', () => {
    expect(advisoryKey('audit-chain')).toBe(advisoryKey('audit-chain'));
    expect(advisoryKey('audit-chain')).not.toBe(advisoryKey('migrate'));
    expect(BigInt(advisoryKey('migrate')) >= -(2n ** 63n) && BigInt(advisoryKey('migrate')) < 2n ** 63n).toBe(true);
  });

  it('takes postgres:// URLs only, never echoing a refused one, and redacts the password', () => {
    expect(databaseUrl(undefined, {})).toBeUndefined();
    expect(databaseUrl(undefined, { PKGSCAN_DATABASE_URL: 'postgres://u:p@db.lab/pkgscan' })).toBe('postgres://u:p@db.lab/pkgscan');
    expect(databaseUrl('postgresql://db/pkgscan', { PKGSCAN_DATABASE_URL: 'postgres://other/x' })).toBe('postgresql://db/pkgscan');
    expect(() => databaseUrl('mysql://root:hunter2@db/x')).toThrow(VitrineError);
    try {
      databaseUrl('mysql://root:hunter2@db/x');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('hunter2');
    }
    expect(() => databaseUrl('not a url')).toThrow(/postgres:\/\//);
    expect(redactedUrl('postgres://u:secret@db/pkgscan')).toBe('postgres://u:***@db/pkgscan');
  });

  it('PKGSCAN_STORE_DIR: an absolute folder, or nothing', () => {
    expect(storeDirFromEnv({})).toBeUndefined();
    expect(storeDirFromEnv({ PKGSCAN_STORE_DIR: '/srv/pkgscan/' })).toBe('/srv/pkgscan');
    expect(() => storeDirFromEnv({ PKGSCAN_STORE_DIR: 'relative/dir' })).toThrow(/absolute/);
  });

  it('the PostgreSQL migrations are the SQLite ones, number for number and name for name', () => {
    const pg = checkedPgMigrations();
    expect(pg.map((m) => [m.version, m.name])).toEqual([...sqliteMigrations].sort((a, b) => a.version - b.version).map((m) => [m.version, m.name]));
    expect(pg.length).toBeGreaterThanOrEqual(13);
  });
});

async function refused(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return String((err as Error).message);
  }
  return 'accepted';
}

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`on ${backend.title}`, () => {
    it('every migration is applied and the status says so', async () => {
      const b = await fixture.open(backend.name);
      const status = backend.name === 'postgres' ? await postgresStatus((b.store as MigratingDb).pg) : sqliteStatus(b.sqlite);
      expect(status.backend).toBe(backend.name);
      expect(status.current).toBe(status.latest);
      expect(status.migrations.every((m) => m.applied_at !== null)).toBe(true);
      expect(statusText(status)).toMatch(new RegExp(`^backend ${backend.name}: at version ${status.latest} of ${status.latest} \\(up to date\\)`));
      const tables = await b.store.all<{ name: string }>(
        backend.name === 'postgres' ? "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'" : "SELECT name FROM sqlite_master WHERE type = 'table'",
      );
      const names = tables.map((t) => t.name);
      for (const t of ['pkgscan_users', 'pkgscan_audit', 'pkgscan_policies', 'pkgscan_scans', 'pkgscan_monitored', 'pkgscan_scan_features', 'vuln_advisories']) expect(names).toContain(t);
    });

    it('the audit chain appends, filters, verifies, and its guards refuse UPDATE and DELETE', async () => {
      const b = await fixture.open(backend.name);
      const audit = new AuditLog(b.sqlite, b.store);
      for (let i = 0; i < 5; i++) await audit.append(i % 2 === 0 ? 'policy.update' : 'auth.login', `user-${i}`, `req-0000000${i}`, { n: i });
      const page = await audit.page({}, 10, 0);
      expect(page.total).toBe(5);
      expect(page.items[0]).toMatchObject({ seq: 5, action: 'policy.update', actor: 'user-4', request_id: 'req-00000004', details: { n: 4 } });
      expect(page.items[0]?.prev_hash).toBe(page.items[1]?.chain_hash);
      expect((await audit.page({ actionPrefix: 'policy.' }, 10, 0)).total).toBe(3);
      expect((await audit.page({ actor: 'user-1' }, 10, 0)).items.map((e) => e.seq)).toEqual([2]);
      expect(await audit.verifyChain()).toMatchObject({ ok: true, count: 5, first_broken_seq: null, missing_triggers: [] });
      expect(await refused(b.store.run("UPDATE pkgscan_audit SET actor = 'x' WHERE seq = 2"))).toMatch(/append-only/);
      expect(await refused(b.store.run('DELETE FROM pkgscan_audit WHERE seq = 5'))).toMatch(/append-only/);
      // An insert that does not extend the chain at its end (a forged seq or prev_hash) is refused too.
      expect(await refused(b.store.run("INSERT INTO pkgscan_audit (seq, at, kind, actor, payload, prev_hash, hash) VALUES (9, 'x', 'k', 'a', '{}', 'p', 'h')"))).toMatch(/append-only/);
      expect(await audit.total()).toBe(5);
    });

    it('verify-audit fails when a guard is dropped or disarmed', async () => {
      const b = await fixture.open(backend.name);
      const audit = new AuditLog(b.sqlite, b.store);
      await audit.append('auth.login', 'u', null);
      if (backend.name === 'postgres') {
        expect(await refused(b.store.run('TRUNCATE pkgscan_audit'))).toMatch(/append-only/);
        await b.store.run('ALTER TABLE pkgscan_audit DISABLE TRIGGER pkgscan_audit_no_update');
        await b.store.run('DROP TRIGGER pkgscan_audit_no_delete ON pkgscan_audit');
      } else {
        b.sqlite.exec('DROP TRIGGER pkgscan_audit_no_delete');
        b.sqlite.exec("DROP TRIGGER pkgscan_audit_no_update; CREATE TRIGGER pkgscan_audit_no_update BEFORE UPDATE ON pkgscan_audit WHEN 0 BEGIN SELECT RAISE(ABORT, 'append-only'); END;");
      }
      const v = await audit.verifyChain();
      expect(v).toMatchObject({ ok: false, reason: 'append-only triggers are missing or altered' });
      expect([...v.missing_triggers].sort()).toEqual(['pkgscan_audit_no_delete', 'pkgscan_audit_no_update']);
    });

    it('refresh tokens rotate; a reused one revokes the family, on a second server at once', async () => {
      const b = await fixture.open(backend.name);
      const config = configFromEnv({}, { scrypt: TEST_SCRYPT });
      const audit = new AuditLog(b.sqlite, b.store);
      const one = new Auth(b.sqlite, audit, config, b.store);
      const two = backend.name === 'postgres' ? new Auth(b.sqlite, new AuditLog(b.sqlite, b.another()), config, b.another()) : one;
      const admin = await one.createUser({ email: 'Root@Example.org', password: PASSWORD, role: 'admin' }, 'system', null);
      await expect(two.createUser({ email: 'root@example.org', password: PASSWORD, role: 'admin' }, 'system', null)).rejects.toMatchObject({ code: 'conflict' });
      const s1 = await one.login('root@example.org', PASSWORD, 'req-00000001');
      // The second server verifies the first one's access token (one signing key in the shared store).
      expect((await two.authenticate(s1.access_token)).id).toBe(admin.id);
      const s2 = await two.refresh(s1.refreshToken, 'req-00000002');
      expect(await one.tokens.liveCount(admin.id)).toBe(1);
      await expect(one.refresh(s1.refreshToken, 'req-00000003')).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(two.refresh(s2.refreshToken, 'req-00000004')).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(two.authenticate(s2.access_token)).rejects.toMatchObject({ code: 'unauthorized' });
      expect(await one.tokens.liveCount(admin.id)).toBe(0);
      expect((await audit.page({ action: 'auth.refresh_reuse_detected' }, 10, 0)).total).toBe(1);
      expect(await audit.verifyChain()).toMatchObject({ ok: true });
    });

    it('two racing rotations of one token: one succeeds, the other is a reuse', async () => {
      const b = await fixture.open(backend.name);
      const config = configFromEnv({}, { scrypt: TEST_SCRYPT });
      const one = new Auth(b.sqlite, new AuditLog(b.sqlite, b.store), config, b.store);
      const two = backend.name === 'postgres' ? new Auth(b.sqlite, new AuditLog(b.sqlite, b.another()), config, b.another()) : one;
      const u = await one.createUser({ email: 'dev@example.org', password: PASSWORD, role: 'developer' }, 'system', null);
      const token = await one.tokens.issue(u.id);
      const results = await Promise.all([one.tokens.rotate(token), two.tokens.rotate(token)]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'reused')).toHaveLength(1);
      expect(await one.tokens.liveCount(u.id)).toBe(0);
    });

    it('a role change and its audit entry are one transaction; the last active admin stays', async () => {
      const b = await fixture.open(backend.name);
      const audit = new AuditLog(b.sqlite, b.store);
      const auth = new Auth(b.sqlite, audit, configFromEnv({}, { scrypt: TEST_SCRYPT }), b.store);
      const a = await auth.createUser({ email: 'a@example.org', password: PASSWORD, role: 'admin' }, 'system', null);
      const c = await auth.createUser({ email: 'c@example.org', password: PASSWORD, role: 'admin' }, 'system', null);
      await auth.tokens.issue(c.id);
      // Two demotions at once: exactly one may pass, or no admin would be left.
      const outcomes = await Promise.allSettled([auth.users.update(a.id, { role: 'auditor' }, 'system', null), auth.users.update(c.id, { active: false }, 'system', null)]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as VitrineError).map((e) => e.code)).toEqual(['conflict']);
      expect(await auth.users.countActiveAdmins()).toBe(1);
      const entries = await audit.page({ action: 'user.update' }, 10, 0);
      expect(entries.total).toBe(1);
      const page = await auth.users.list({ email: 'EXAMPLE' }, 10, 0);
      expect(page.total).toBe(2);
      await expect(auth.users.update(randomUUID(), { role: 'auditor' }, 'system', null)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('the failed-login lock-out is seen by a second server at once', async () => {
      const b = await fixture.open(backend.name);
      const make = (db: AsyncDb): SharedLimiter => (backend.name === 'postgres' ? new DatabaseLimiter(db, 'failed_login', 3, 60_000) : shared);
      const shared = new MemoryLimiter(3, 60_000);
      const one = make(b.store);
      const two = make(b.another());
      const now = Date.now();
      for (let i = 0; i < 3; i++) expect((await one.hit('acct', now + i)).allowed).toBe(true);
      expect(await two.count('acct', now + 10)).toMatchObject({ count: 3 });
      const denied = await two.hit('acct', now + 20);
      expect(denied.allowed).toBe(false);
      expect(denied.retryAfterS).toBeGreaterThanOrEqual(59);
      expect((await one.count('other', now)).count).toBe(0);
      // A new window starts once the old one has ended.
      expect(await one.hit('acct', now + 60_001)).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('monitoring leases: two workers claim disjoint packages, every due one once; renew, release', async () => {
      const b = await fixture.open(backend.name);
      const now = Date.now();
      const due = new Date(now - 60_000).toISOString();
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) {
        const id = randomUUID();
        ids.push(id);
        await b.store.run(
          'INSERT INTO pkgscan_monitored (id, ecosystem, name, poll_interval_seconds, enabled, next_check_at, created_by, created_at, updated_at) VALUES (?, ?, ?, 3600, ?, ?, ?, ?, ?)',
          [id, 'npm', `pkg-${i}`, i === 59 ? 0 : 1, i === 58 ? new Date(now + 3_600_000).toISOString() : due, 'system', due, due],
        );
      }
      const one = b.store;
      const two = b.another();
      const taken: string[][] = [[], []];
      for (;;) {
        const [x, y] = await Promise.all([claimDueLeases(one, 'w1', 7, now, 60_000), claimDueLeases(two, 'w2', 7, now, 60_000)]);
        taken[0]?.push(...x);
        taken[1]?.push(...y);
        if (x.length === 0 && y.length === 0) break;
      }
      const all = [...(taken[0] ?? []), ...(taken[1] ?? [])];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(ids.slice(0, 58).sort());
      const first = taken[0]?.[0] ?? taken[1]?.[0] ?? '';
      const owner = taken[0]?.includes(first) ? 'w1' : 'w2';
      expect(await claimLease(one, first, 'manual', now, 60_000)).toBe(false);
      expect(await renewLease(one, first, 'intruder', now, 60_000)).toBe(false);
      expect(await renewLease(one, first, owner, now + 30_000, 60_000)).toBe(true);
      expect(await leaseHolder(one, first, now + 80_000)).toMatchObject({ owner });
      await releaseLease(one, first, owner);
      expect(await leaseHolder(one, first, now)).toBeUndefined();
      expect(await claimDueLeases(two, 'w2', 10, now, 60_000)).toEqual([first]);
      // A lease that ran out is taken by the next worker.
      expect(await claimDueLeases(one, 'w3', 100, now + 120_000, 60_000)).toHaveLength(58);
    });
  });
}

describe.skipIf(backendCases[1]?.skip ?? true)(`PostgreSQL migrations${backendCases[1]?.skip === true ? ' (skipped: no PostgreSQL)' : ''}`, () => {
  it('a second run applies nothing; a database from a newer version is refused untouched', async () => {
    const b = await fixture.open('postgres');
    const pg = (b.store as MigratingDb).pg;
    expect(await migratePostgres(pg)).toEqual({ from: checkedPgMigrations().length, applied: [] });
    await pg.run("INSERT INTO schema_migrations (service, version, name, applied_at) VALUES ('pkgscan', 999, 'from the future', 'now')");
    await expect(migratePostgres(pg)).rejects.toMatchObject({ code: 'conflict' });
    expect((await postgresStatus(pg)).current).toBe(999);
  });

  it('a servers role without CREATE checks an up-to-date database, may not migrate, and may not rewrite the audit chain', async () => {
    const c = await fixture.cluster();
    const url = await c.createDatabase(`roles_${process.pid}`);
    const empty = await c.createDatabase(`roles_empty_${process.pid}`);
    const role = `pkgscan_app_${process.pid}`;
    const { PgDb } = await import('./postgres.js');
    const owner = new PgDb({ url, max: 1 });
    const ownerOfEmpty = new PgDb({ url: empty, max: 1 });
    const app = new PgDb({ url: url.replace('://vitrine@', `://${role}@`), max: 1 });
    const appOnEmpty = new PgDb({ url: empty.replace('://vitrine@', `://${role}@`), max: 1 });
    try {
      await owner.pool.query(`CREATE ROLE ${role} LOGIN`);
      for (const db of [owner, ownerOfEmpty]) await db.pool.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
      await migratePostgres(owner);
      await owner.pool.query(`GRANT USAGE ON SCHEMA public TO ${role}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}; REVOKE UPDATE, DELETE, TRUNCATE ON pkgscan_audit FROM ${role}`);
      expect(await migratePostgres(app)).toMatchObject({ applied: [] });
      await expect(migratePostgres(appOnEmpty)).rejects.toMatchObject({ code: 'forbidden' });
      expect(await refused(app.run("UPDATE pkgscan_audit SET actor = 'x'"))).toMatch(/permission denied/);
      expect(await refused(app.run('ALTER TABLE pkgscan_audit DISABLE TRIGGER pkgscan_audit_no_update'))).toMatch(/must be owner/);
      const audit = new AuditLog(fixtureSqlite(), app);
      await audit.append('auth.login', 'u', null);
      expect(await audit.verifyChain()).toMatchObject({ ok: true, count: 1, missing_triggers: [] });
    } finally {
      await Promise.all([owner.close(), ownerOfEmpty.close(), app.close(), appOnEmpty.close()]);
    }
  });

  it('an empty database reports every migration pending, then migrates from 0', async () => {
    const c = await fixture.cluster();
    const url = await c.createDatabase(`empty_${process.pid}`);
    const { PgDb } = await import('./postgres.js');
    const pg = new PgDb({ url, max: 2 });
    try {
      const before = await postgresStatus(pg);
      expect(before.current).toBe(0);
      expect(before.migrations.every((m) => m.applied_at === null)).toBe(true);
      expect(statusText(before)).toContain('pending');
      const run = await migratePostgres(pg, 2);
      expect(run).toEqual({ from: 0, applied: [1, 2] });
      expect((await migratePostgres(pg)).applied).toEqual(checkedPgMigrations().slice(2).map((m) => m.version));
    } finally {
      await pg.close();
    }
  });
});

describe('transactions', () => {
  it('SQLite: a throwing transaction rolls back; a statement issued meanwhile waits and is kept', async () => {
    const b = await fixture.open('sqlite');
    await b.store.run('CREATE TABLE t (v INTEGER)');
    let outside: Promise<number> | undefined;
    await expect(
      b.store.transaction(async (q) => {
        await q.run('INSERT INTO t (v) VALUES (1)');
        outside = b.store.run('INSERT INTO t (v) VALUES (2)');
        await q.run('INSERT INTO t (v) VALUES (3)');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await outside).toBe(1);
    expect((await b.store.all<{ v: number }>('SELECT v FROM t ORDER BY v')).map((r) => r.v)).toEqual([2]);
    expect(b.sqlite.inTransaction).toBe(false);
  });

  it.skipIf(SKIP_POSTGRES)(`PostgreSQL: racing serializable read-then-write transactions are retried, none lost${SKIP_POSTGRES ? ` (skipped: ${SKIP_POSTGRES_REASON})` : ''}`, async () => {
    const b = await fixture.open('postgres');
    await b.store.run('CREATE TABLE counter (k TEXT PRIMARY KEY, n INTEGER NOT NULL)');
    await b.store.run("INSERT INTO counter (k, n) VALUES ('a', 0)");
    let attempts = 0;
    let readers = 0;
    let open!: () => void;
    const bothRead = new Promise<void>((resolve) => {
      open = resolve;
    });
    const bump = (db: AsyncDb): Promise<void> => {
      let first = true;
      return db.transaction(
        async (q) => {
          attempts++;
          const row = await q.get<{ n: number }>("SELECT n FROM counter WHERE k = 'a'");
          // The first attempts wait until both sides hold their snapshot, so the two writes surely conflict.
          if (first) {
            first = false;
            if (++readers === 2) open();
            await bothRead;
          }
          await q.run("UPDATE counter SET n = ? WHERE k = 'a'", [(row?.n ?? 0) + 1]);
        },
        { isolation: 'serializable' },
      );
    };
    await Promise.all([bump(b.store), bump(b.another())]);
    expect(await b.store.get<{ n: number }>("SELECT n FROM counter WHERE k = 'a'")).toEqual({ n: 2 });
    expect(attempts).toBe(3);
  });
});
