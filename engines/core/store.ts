// The workstation store: opens SQLite (WAL, foreign keys) and applies each service's numbered migrations once.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { storageError, VitrineError } from './errors.js';
import type { Migration } from './service.js';

/** What the store needs of a service (a ServiceDescriptor fits). */
export interface StoreService {
  readonly name: string;
  readonly migrations: readonly Migration[];
}

/** How long a connection waits for another writer before SQLITE_BUSY (milliseconds). */
export const BUSY_TIMEOUT_MS = 5000;

const SERVICE_NAME = /^[a-z][a-z0-9_-]{0,62}$/;

/*
 * Testing a migration (copy this pattern into engines/<service>/store.test.ts, one test per migration N):
 *
 *   const db = openMemoryStore();                       // empty store, schema_migrations only
 *   migrateTo(db, 'svc', migrations, N - 1);             // the schema as the previous release left it
 *   db.prepare('INSERT INTO t (a) VALUES (?)').run('x'); // rows in the old shape
 *   migrateTo(db, 'svc', migrations, N);                 // the step under test
 *   expect(db.prepare('SELECT a, b FROM t').all()).toEqual([{ a: 'x', b: null }]); // rows carried over
 *
 * Migration 1 is tested the same way from an empty store (N - 1 = 0).
 * Each migration runs inside a transaction, so `PRAGMA foreign_keys` cannot be switched off within one:
 * rebuild a table with the create-copy-drop-rename recipe and `PRAGMA defer_foreign_keys = ON` instead.
 */

/**
 * Opens (creating when missing) the store at `file`, or ':memory:', and brings every service's tables
 * to the newest version the code knows. Refuses a store written by a newer app, and badly numbered migrations.
 */
export function openStore(file: string, services: readonly StoreService[]): Database {
  const inMemory = file === ':memory:' || file === '';
  let created = false;
  if (!inMemory) {
    const dir = path.dirname(path.resolve(file));
    // 0700: the store holds evidence and analysis results that other local users must not read.
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    created = !existsSync(file);
  }
  let db: Database;
  try {
    db = new BetterSqlite3(file);
  } catch (err) {
    throw new VitrineError('unavailable', 'the store cannot be opened', { cause: err });
  }
  try {
    if (created) chmodSync(file, 0o600);
    configure(db);
    const seen = new Set<string>();
    for (const service of services) {
      if (seen.has(service.name)) throw new VitrineError('internal', 'a service is listed twice for the store');
      seen.add(service.name);
      migrateTo(db, service.name, service.migrations, service.migrations.length);
    }
    return db;
  } catch (err) {
    db.close();
    // A full disk says so (insufficient_storage), not "migration N failed" or a bare SQLite error.
    throw storageError(err) ?? err;
  }
}

/** An in-memory store for tests, migrated for `services` (none: only schema_migrations). */
export function openMemoryStore(services: readonly StoreService[] = []): Database {
  return openStore(':memory:', services);
}

/** The store of a standalone command line: VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory for the process. */
export function openStandaloneStore(services: readonly StoreService[], home: string | undefined = process.env['VITRINE_HOME']): Database {
  return home !== undefined && home !== '' ? openStore(path.join(home, 'vitrine.db'), services) : openMemoryStore(services);
}

/** An in-memory store with one service's tables at `version`: the starting point of a migration test. */
export function storeAtVersion(service: string, migrations: readonly Migration[], version: number): Database {
  const db = openMemoryStore();
  migrateTo(db, service, migrations, version);
  return db;
}

/** The newest migration version applied for `service` (0 when none). */
export function schemaVersion(db: Database, service: string): number {
  ensureMigrationTable(db);
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations WHERE service = ?').get(service) as { v: number | null } | undefined;
  return row?.v ?? 0;
}

/** The applied migrations of one service, oldest first. */
export function appliedMigrations(db: Database, service: string): { version: number; name: string; applied_at: string }[] {
  ensureMigrationTable(db);
  return db
    .prepare('SELECT version, name, applied_at FROM schema_migrations WHERE service = ? ORDER BY version')
    .all(service) as { version: number; name: string; applied_at: string }[];
}

/**
 * Applies `service`'s pending migrations up to `targetVersion`, each in its own IMMEDIATE transaction
 * (another process opening the same file at once waits, then sees the step done and skips it); a migration with
 * `batch` in one transaction per batch, then its `up` (migrationSteps).
 */
export function migrateTo(db: Database, service: string, migrations: readonly Migration[], targetVersion: number): void {
  for (const _ of migrationSteps(db, service, migrations, targetVersion));
}

/** One write transaction of a migration: a batch (`batch` true) or the step that records the version. */
export interface MigrationStep {
  readonly version: number;
  readonly batch: boolean;
}

/**
 * migrateTo one transaction at a time, yielding after each is committed. A batched migration's progress is a row of
 * `schema_migration_progress`, written in each batch's transaction and removed with the step that records the
 * version, so a store stopped between or inside batches resumes from the last batch committed. Each transaction
 * re-reads the version and progress under the write lock: another process migrating the same store at once takes
 * turns with this one, never repeats a batch.
 */
export function* migrationSteps(db: Database, service: string, migrations: readonly Migration[], targetVersion: number): Generator<MigrationStep, void, void> {
  if (!SERVICE_NAME.test(service)) throw new VitrineError('internal', 'invalid service name for the store');
  const ordered = checkMigrations(migrations);
  if (!Number.isInteger(targetVersion) || targetVersion < 0 || targetVersion > ordered.length)
    throw new VitrineError('internal', `no migration ${String(targetVersion)} for service ${service}`);
  ensureMigrationTable(db);
  const current = schemaVersion(db, service);
  if (current > ordered.length)
    throw new VitrineError('conflict', `the store was written by a newer version of Vitrine (service ${service} is at ${current}, this version knows ${ordered.length})`);
  if (current > targetVersion) throw new VitrineError('conflict', `service ${service} is already past the requested version; migrations only go forward`);
  const record = db.prepare('INSERT INTO schema_migrations (service, version, name, applied_at) VALUES (?, ?, ?, ?)');
  const pending = ordered.slice(current, targetVersion);
  const batched = pending.some((m) => m.batch !== undefined);
  if (batched) ensureProgressTable(db);
  const progressOf = batched ? db.prepare('SELECT progress FROM schema_migration_progress WHERE service = ? AND version = ?').pluck() : null;
  const saveProgress = batched
    ? db.prepare(
        'INSERT INTO schema_migration_progress (service, version, progress, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (service, version) DO UPDATE SET progress = excluded.progress, updated_at = excluded.updated_at',
      )
    : null;
  const clearProgress = batched ? db.prepare('DELETE FROM schema_migration_progress WHERE service = ? AND version = ?') : null;
  const run = <T>(migration: Migration, work: () => T): T => {
    try {
      return db.transaction(work).immediate();
    } catch (err) {
      if (err instanceof VitrineError) throw err;
      throw storageError(err) ?? new VitrineError('internal', `migration ${migration.version} of ${service} failed`, { cause: err });
    }
  };
  for (const migration of pending) {
    const batch = migration.batch?.bind(migration);
    if (batch !== undefined && progressOf !== null && saveProgress !== null) {
      for (;;) {
        // false: every batch is done (or another process recorded the version meanwhile).
        const more = run(migration, () => {
          if (schemaVersion(db, service) >= migration.version) return false;
          const before = (progressOf.get(service, migration.version) as string | undefined) ?? null;
          const after = batch(db, before);
          if (after === null) return false;
          saveProgress.run(service, migration.version, after, new Date().toISOString());
          return true;
        });
        if (!more) break;
        yield { version: migration.version, batch: true };
      }
    }
    run(migration, () => {
      // Re-read under the write lock: another connection may have applied this step meanwhile.
      if (schemaVersion(db, service) >= migration.version) return;
      migration.up(db);
      const broken = db.prepare('PRAGMA foreign_key_check').all();
      if (broken.length > 0) throw new VitrineError('internal', `migration ${migration.version} of ${service} leaves broken foreign keys`);
      record.run(service, migration.version, migration.name, new Date().toISOString());
      clearProgress?.run(service, migration.version);
    });
    yield { version: migration.version, batch: false };
  }
}

/** The migrations in version order, refusing anything but 1..n each exactly once. */
export function checkMigrations(migrations: readonly Migration[]): Migration[] {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version !== i + 1) throw new VitrineError('internal', 'migrations must be numbered 1..n without gaps or repeats');
    if (typeof m.name !== 'string' || m.name.trim() === '') throw new VitrineError('internal', 'every migration needs a name');
  });
  return ordered;
}

function configure(db: Database): void {
  // WAL lets the UI read while a job writes; in-memory databases report 'memory' and that is fine.
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  ensureMigrationTable(db);
}

function ensureMigrationTable(db: Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    service TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (service, version)
  )`);
}

/** Where a batched migration stands (Migration.batch): one row while it is under way; made by the first such migration. */
function ensureProgressTable(db: Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migration_progress (
    service TEXT NOT NULL,
    version INTEGER NOT NULL,
    progress TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (service, version)
  )`);
}
