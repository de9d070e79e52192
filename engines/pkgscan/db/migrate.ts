// Applies pkgscan's PostgreSQL migrations: all pending steps in one transaction under an advisory lock, so servers
// and workers starting at once migrate once; and the status of both backends' migrations for `pkgscan migrate --status`.
import type { Database } from 'better-sqlite3';
import { appliedMigrations, checkMigrations } from '../../core/store.js';
import { storageError, VitrineError } from '../../core/errors.js';
import { migrations as sqliteMigrations } from '../store.js';
import { connectionFailure, reaching, sqlState, type PgDb } from './postgres.js';
import { pgMigrations, type PgMigration } from './schema.js';
import { advisoryKey } from './sql.js';

export const SERVICE = 'pkgscan';
/** The advisory lock every migrator takes first. */
export const MIGRATION_LOCK = 'migrate';

const MIGRATION_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  service TEXT NOT NULL,
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  PRIMARY KEY (service, version)
)`;

/** The PostgreSQL list, checked to be numbered and named exactly as the SQLite one. */
export function checkedPgMigrations(): readonly PgMigration[] {
  const sqlite = checkMigrations(sqliteMigrations);
  const pg = [...pgMigrations].sort((a, b) => a.version - b.version);
  if (pg.length !== sqlite.length || pg.some((m, i) => m.version !== i + 1 || m.name !== sqlite[i]?.name))
    throw new VitrineError('internal', 'the PostgreSQL migrations must match the SQLite migrations one for one');
  return pg;
}

export interface MigrationRun {
  /** The version before, and the versions this call applied (empty when another process had done it). */
  readonly from: number;
  readonly applied: readonly number[];
}

/**
 * Brings the database to `target` (default: the newest). Everything happens in one transaction holding
 * `pg_advisory_xact_lock`: a second migrator waits, then finds nothing left to do. A database written by a newer
 * version is refused, never touched.
 */
export async function migratePostgres(db: PgDb, target?: number): Promise<MigrationRun> {
  const steps = checkedPgMigrations();
  const to = target ?? steps.length;
  if (!Number.isInteger(to) || to < 0 || to > steps.length) throw new VitrineError('internal', `no PostgreSQL migration ${String(to)}`);
  const client = await reaching(db.pool.connect());
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryKey(MIGRATION_LOCK)]);
    // Created only when missing: a role without CREATE (the servers' role in a team deployment) can still check.
    const exists = (await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS e")).rows[0] as { e: boolean };
    if (!exists.e) await client.query(MIGRATION_TABLE);
    const row = (await client.query('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations WHERE service = $1', [SERVICE])).rows[0] as { v: number };
    const from = Number(row.v);
    if (from > steps.length) throw new VitrineError('conflict', `the database was written by a newer version of Vitrine (pkgscan is at ${from}, this version knows ${steps.length})`);
    if (from > to) throw new VitrineError('conflict', 'the database is already past the requested version; migrations only go forward');
    const applied: number[] = [];
    for (const m of steps.slice(from, to)) {
      try {
        await client.query(m.sql);
      } catch (err) {
        if (sqlState(err) === '42501') throw new VitrineError('forbidden', `PostgreSQL migration ${m.version} of pkgscan is pending and this role may not apply it; run pkgscan migrate as the role that owns the schema`, { cause: err });
        throw storageError(err) ?? new VitrineError('internal', `PostgreSQL migration ${m.version} of pkgscan failed`, { cause: err });
      }
      await client.query('INSERT INTO schema_migrations (service, version, name, applied_at) VALUES ($1, $2, $3, $4)', [SERVICE, m.version, m.name, new Date().toISOString()]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return { from, applied };
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    if (!(err instanceof VitrineError) && sqlState(err) === '42501') throw new VitrineError('forbidden', 'this role may not migrate the database; run pkgscan migrate as the role that owns the schema', { cause: err });
    throw connectionFailure(err);
  } finally {
    client.release(broken);
  }
}

export interface MigrationState {
  readonly version: number;
  readonly name: string;
  /** When it was applied; null while pending. */
  readonly applied_at: string | null;
}

export interface MigrationStatus {
  readonly backend: 'sqlite' | 'postgres';
  readonly current: number;
  readonly latest: number;
  readonly migrations: readonly MigrationState[];
}

function status(backend: 'sqlite' | 'postgres', known: readonly { version: number; name: string }[], applied: readonly { version: number; applied_at: string }[]): MigrationStatus {
  const at = new Map(applied.map((a) => [Number(a.version), a.applied_at]));
  const current = applied.reduce((m, a) => Math.max(m, Number(a.version)), 0);
  return { backend, current, latest: known.length, migrations: known.map((m) => ({ version: m.version, name: m.name, applied_at: at.get(m.version) ?? null })) };
}

/** Which migrations a PostgreSQL database has (reads only; an empty database has none). */
export async function postgresStatus(db: PgDb): Promise<MigrationStatus> {
  const exists = await db.get<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  const applied = exists?.t ? await db.all<{ version: number; applied_at: string }>('SELECT version, applied_at FROM schema_migrations WHERE service = ? ORDER BY version', [SERVICE]) : [];
  return status('postgres', checkedPgMigrations(), applied);
}

/** Which migrations a SQLite store has. */
export function sqliteStatus(db: Database): MigrationStatus {
  return status('sqlite', checkMigrations(sqliteMigrations), appliedMigrations(db, SERVICE));
}

/** The lines `pkgscan migrate --status` prints. */
export function statusText(s: MigrationStatus): string {
  const lines = [`backend ${s.backend}: at version ${s.current} of ${s.latest}${s.current === s.latest ? ' (up to date)' : s.current > s.latest ? ' (written by a newer version)' : ` (${s.latest - s.current} pending)`}`];
  for (const m of s.migrations) lines.push(`${String(m.version).padStart(3)}  ${m.applied_at ?? 'pending'.padEnd(24)}  ${m.name}`);
  return `${lines.join('\n')}\n`;
}
