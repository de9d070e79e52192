// Backend selection: PKGSCAN_DATABASE_URL (or --database-url) with a postgres:// URL selects the shared PostgreSQL
// database; without it pkgscan stays on the workstation's SQLite store, unchanged. One pool per URL per process,
// migrated before its first statement.
import type { Database } from 'better-sqlite3';
import { migratePostgres } from './migrate.js';
import { PgDb } from './postgres.js';
import { SqliteDb } from './sqlite.js';
import type { AsyncDb, Param, Queryable, TransactionOptions } from './types.js';

export { DATABASE_URL_ENV, databaseUrl, redactedUrl } from './url.js';

/** A PostgreSQL database that applies pending migrations (once, under the advisory lock) before its first statement. */
export class MigratingDb implements AsyncDb {
  readonly dialect = 'postgres' as const;
  private ready: Promise<void> | undefined;

  constructor(readonly pg: PgDb) {}

  /** Migrates now (servers call it at start so a broken database fails the start, not the first request). */
  migrate(): Promise<void> {
    this.ready ??= migratePostgres(this.pg).then(
      () => undefined,
      (err: unknown) => {
        this.ready = undefined;
        throw err;
      },
    );
    return this.ready;
  }

  async all<T>(sql: string, params?: readonly Param[]): Promise<T[]> {
    await this.migrate();
    return this.pg.all<T>(sql, params);
  }

  async get<T>(sql: string, params?: readonly Param[]): Promise<T | undefined> {
    await this.migrate();
    return this.pg.get<T>(sql, params);
  }

  async run(sql: string, params?: readonly Param[]): Promise<number> {
    await this.migrate();
    return this.pg.run(sql, params);
  }

  async transaction<T>(fn: (q: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T> {
    await this.migrate();
    return this.pg.transaction(fn, options);
  }

  close(): Promise<void> {
    return this.pg.close();
  }
}

const pools = new Map<string, MigratingDb>();

/** The process's pool for `url` (created on first use; the first statement migrates). */
export function sharedDatabase(url: string): MigratingDb {
  let db = pools.get(url);
  if (!db) {
    db = new MigratingDb(new PgDb({ url }));
    pools.set(url, db);
  }
  return db;
}

/** How many shared pools this process holds open (a command line must end with none). */
export function openSharedDatabaseCount(): number {
  return pools.size;
}

/** Ends every pool this process opened (shutdown, the end of a test file). */
export async function closeSharedDatabases(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((db) => db.close()));
}

/** The store pkgscan's converted repositories use: PostgreSQL when a URL is given, else the workstation's SQLite store. */
export function pkgscanDatabase(sqlite: Database, url: string | undefined): AsyncDb {
  return url !== undefined ? sharedDatabase(url) : new SqliteDb(sqlite);
}

/** True when `db` is the shared PostgreSQL backend. */
export function isPostgres(db: AsyncDb | undefined): db is AsyncDb & { readonly dialect: 'postgres' } {
  return db?.dialect === 'postgres';
}
