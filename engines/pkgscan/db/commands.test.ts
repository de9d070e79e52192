// `pkgscan migrate [--status]`, create-admin, verify-audit, import, scan and diff with --database-url, on a real
// PostgreSQL database.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { backendFixture } from '../../../test/postgres/backends.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON } from '../../../test/postgres/cluster.js';
import { openMemoryStore } from '../../core/store.js';
import { main } from '../cli.js';
import { pkgscanService } from '../service.js';
import { openSharedDatabaseCount } from './open.js';
import { PgDb } from './postgres.js';
import { checkedPgMigrations } from './migrate.js';
import { npmTarball } from '../sources/archives.fixture.js';
import { DATABASE_URL_ENV, STORE_DIR_ENV } from './url.js';

const fixture = backendFixture();
const stdin = (text: string): Readable => Readable.from([text]);
const before = process.env[DATABASE_URL_ENV];
const storeDirBefore = process.env[STORE_DIR_ENV];
const homeBefore = process.env['VITRINE_HOME'];

afterEach(() => {
  if (before === undefined) delete process.env[DATABASE_URL_ENV];
  else process.env[DATABASE_URL_ENV] = before;
  if (storeDirBefore === undefined) delete process.env[STORE_DIR_ENV];
  else process.env[STORE_DIR_ENV] = storeDirBefore;
  if (homeBefore === undefined) delete process.env['VITRINE_HOME'];
  else process.env['VITRINE_HOME'] = homeBefore;
});

describe('storage commands', () => {
  it('refuses a --database-url that is not postgres://, without echoing it', async () => {
    const r = await main(['migrate', '--status', '--database-url', 'mysql://root:hunter2@db/x'], { stdin: stdin('') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/postgres:\/\//);
    expect(r.stderr).not.toContain('hunter2');
  });

  it('migrate --status on the SQLite store lists every migration applied', async () => {
    const db = openMemoryStore([pkgscanService]);
    const r = await main(['migrate', '--status'], { stdin: stdin(''), db });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^backend sqlite: at version (\d+) of \1 \(up to date\)/);
  });
});

describe.skipIf(SKIP_POSTGRES)(`storage commands on PostgreSQL${SKIP_POSTGRES ? ` (skipped: ${SKIP_POSTGRES_REASON})` : ''}`, () => {
  it('status (pending), migrate, status (applied), create-admin, verify-audit, a dropped guard fails it', async () => {
    const c = await fixture.cluster();
    const url = await c.createDatabase(`cli_${process.pid}`);
    const n = checkedPgMigrations().length;
    const pending = await main(['migrate', '--status', '--database-url', url], { stdin: stdin('') });
    expect(pending.code).toBe(0);
    expect(pending.stdout).toContain(`backend postgres: at version 0 of ${n} (${n} pending)`);
    const migrated = await main(['migrate', '--database-url', url], { stdin: stdin('') });
    expect(migrated.stdout).toMatch(/^applied 1, 2, 3/);
    expect(migrated.stdout).toContain(`at version ${n} of ${n} (up to date)`);
    expect((await main(['migrate', '--database-url', url], { stdin: stdin('') })).stdout).toMatch(/^nothing to apply/);
    const admin = await main(['create-admin', '--email', 'root@example.org', '--database-url', url], { stdin: stdin('a long admin password\n') });
    expect(admin.code).toBe(0);
    expect(admin.stdout).toMatch(/^created admin [0-9a-f-]{36}/);
    expect((await main(['create-admin', '--email', 'two@example.org', '--database-url', url], { stdin: stdin('a long admin password\n') })).code).toBe(2);
    const ok = await main(['verify-audit', '--expect-count', '1', '--database-url', url], { stdin: stdin('') });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok 1 entries, head [0-9a-f]{64}/);
    const pg = new PgDb({ url, max: 1 });
    try {
      expect(await pg.get<{ n: number }>("SELECT COUNT(*) AS n FROM pkgscan_users WHERE email = 'root@example.org' AND role = 'admin'")).toEqual({ n: 1 });
      await pg.run('DROP TRIGGER pkgscan_audit_no_truncate ON pkgscan_audit');
    } finally {
      await pg.close();
    }
    const broken = await main(['verify-audit', '--database-url', url], { stdin: stdin('') });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('missing triggers: pkgscan_audit_no_truncate');
  }, 120_000);

  it('import with --database-url records the release in the shared index, its archive in PKGSCAN_STORE_DIR, and audits it there', async () => {
    const c = await fixture.cluster();
    const url = await c.createDatabase(`cli_import_${process.pid}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pkgscan-cli-import-'));
    try {
      const archive = path.join(dir, 'left-pad-1.3.0.tgz');
      writeFileSync(archive, await npmTarball('left-pad', '1.3.0'));
      process.env[STORE_DIR_ENV] = path.join(dir, 'store');
      process.env['VITRINE_HOME'] = path.join(dir, 'home');
      // The workstation's own SQLite store is a fresh memory one: nothing may land there.
      const local = openMemoryStore([pkgscanService]);
      const r = await main(['import', archive, '--database-url', url], { stdin: stdin(''), db: local });
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^imported\t/);
      expect((await main(['import', archive, '--database-url', url], { stdin: stdin(''), db: local })).stdout).toMatch(/^already_stored\t/);
      expect(local.prepare('SELECT COUNT(*) AS n FROM pkgscan_artifacts').get()).toEqual({ n: 0 });
      expect(readdirSync(path.join(dir, 'store'), { recursive: true }).map(String).filter((f) => /[0-9a-f]{64}/.test(f))).toHaveLength(1);
      const pg = new PgDb({ url, max: 1 });
      try {
        expect(await pg.all<{ name: string; version: string }>('SELECT name, version FROM pkgscan_artifacts')).toEqual([{ name: 'left-pad', version: '1.3.0' }]);
        expect(Number((await pg.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM pkgscan_audit WHERE kind = 'package.import'"))?.n)).toBe(2);
      } finally {
        await pg.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('scan and diff with --database-url store the verdict and the diff in the shared database and close their pools', async () => {
    const c = await fixture.cluster();
    const url = await c.createDatabase(`cli_scan_${process.pid}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pkgscan-cli-scan-'));
    try {
      const archives = ['1.3.0', '1.3.1'].map((v) => path.join(dir, `left-pad-${v}.tgz`));
      writeFileSync(archives[0] as string, await npmTarball('left-pad', '1.3.0'));
      writeFileSync(archives[1] as string, await npmTarball('left-pad', '1.3.1'));
      process.env[STORE_DIR_ENV] = path.join(dir, 'store');
      process.env['VITRINE_HOME'] = path.join(dir, 'home');
      const local = openMemoryStore([pkgscanService]);
      expect((await main(['import', ...archives, '--database-url', url], { stdin: stdin(''), db: local })).code).toBe(0);
      const scanned = await main(['scan', 'npm', 'left-pad', '1.3.0', '--json', '--database-url', url], { stdin: stdin(''), db: local });
      expect(scanned.stderr).toBe('');
      const verdict = JSON.parse(scanned.stdout) as { id: string; name: string };
      expect(verdict.name).toBe('left-pad');
      expect(openSharedDatabaseCount()).toBe(0);
      const diffed = await main(['diff', 'left-pad', '1.3.0', '1.3.1', '--json', '--database-url', url], { stdin: stdin(''), db: local });
      expect(diffed.stderr).toBe('');
      expect(JSON.parse(diffed.stdout)).toMatchObject({ from_version: '1.3.0', to_version: '1.3.1' });
      expect(openSharedDatabaseCount()).toBe(0);
      // Nothing in the workstation's own store.
      expect(local.prepare('SELECT (SELECT COUNT(*) FROM pkgscan_scans) + (SELECT COUNT(*) FROM pkgscan_diffs) AS n').get()).toEqual({ n: 0 });
      const pg = new PgDb({ url, max: 1 });
      try {
        expect(await pg.all<{ id: string }>('SELECT id FROM pkgscan_scans')).toEqual([{ id: verdict.id }]);
        expect(await pg.all<{ name: string }>('SELECT name FROM pkgscan_diffs')).toEqual([{ name: 'left-pad' }]);
        expect(Number((await pg.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM pkgscan_audit WHERE kind = 'scan.create'"))?.n)).toBe(1);
      } finally {
        await pg.close();
      }
      expect((await main(['verify-audit', '--database-url', url], { stdin: stdin(''), db: local })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
