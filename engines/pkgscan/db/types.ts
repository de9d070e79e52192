// The async query interface both pkgscan backends implement (SQLite through better-sqlite3, PostgreSQL through pg): repositories use it, handlers never do.

/** A bound value: SQL is never built from values, they always travel as parameters. */
export type Param = string | number | bigint | boolean | null | Uint8Array;

/** Statements on one connection (the pool, or a transaction's client). Placeholders are `?`, in order, on both backends. */
export interface Queryable {
  /** Every row. */
  all<T>(sql: string, params?: readonly Param[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
}

export type Dialect = 'sqlite' | 'postgres';

export interface TransactionOptions {
  /**
   * Serialises every transaction that names the same lock, across processes: a PostgreSQL advisory transaction lock
   * (`pg_advisory_xact_lock`); on SQLite the transaction is IMMEDIATE, which already holds the one write lock.
   */
  readonly lock?: string;
  /**
   * `serializable` where a check spans rows that a concurrent transaction could change (PostgreSQL SERIALIZABLE; a
   * conflict aborts one side, which is then run again). SQLite transactions are serial already.
   */
  readonly isolation?: 'read_committed' | 'serializable';
}

export interface AsyncDb extends Queryable {
  readonly dialect: Dialect;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. On PostgreSQL a serialisation
   * failure or deadlock is retried a few times, so `fn` must have no effects outside the database.
   */
  transaction<T>(fn: (q: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
