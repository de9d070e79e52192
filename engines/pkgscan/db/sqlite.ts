// The embedded backend: better-sqlite3 behind the async interface. Statements run synchronously; a transaction holds a
// process-wide turn so two async transactions on the one connection never interleave.
import type { Database, Statement } from 'better-sqlite3';
import type { AsyncDb, Param, Queryable } from './types.js';

type Bindable = string | number | bigint | Buffer | null;

function bind(params: readonly Param[]): Bindable[] {
  return params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p) : (p as Bindable)));
}

/** Runs a synchronous statement now; a thrown error becomes a rejection, as on PostgreSQL. */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(fn());
  });
}

/** Prepared statements kept per connection, by SQL text; the least recently used goes past this many. */
export const STATEMENT_CACHE_SIZE = 256;
const statementsOf = new WeakMap<Database, Map<string, Statement>>();

/**
 * The connection's prepared statement for this SQL text, prepared once and reused (SQLite re-prepares a statement
 * itself when the schema changes under it). A Map keeps insertion order: a hit moves the entry to the end, and the
 * first entry is the least recently used.
 */
export function preparedStatement(db: Database, sql: string): Statement {
  let cache = statementsOf.get(db);
  if (!cache) {
    cache = new Map();
    statementsOf.set(db, cache);
  }
  const hit = cache.get(sql);
  if (hit) {
    cache.delete(sql);
    cache.set(sql, hit);
    return hit;
  }
  const stmt = db.prepare(sql);
  cache.set(sql, stmt);
  if (cache.size > STATEMENT_CACHE_SIZE) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  return stmt;
}

class SqliteStatements implements Queryable {
  constructor(protected readonly db: Database) {}

  all<T>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return settle(() => preparedStatement(this.db, sql).all(...bind(params)) as T[]);
  }

  get<T>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return settle(() => preparedStatement(this.db, sql).get(...bind(params)) as T | undefined);
  }

  run(sql: string, params: readonly Param[] = []): Promise<number> {
    return settle(() => preparedStatement(this.db, sql).run(...bind(params)).changes);
  }
}

/** The turns of one connection, shared by every SqliteDb view of it (a platform's store, the audit log's, a command's). */
interface Turns {
  /** The tail of the queue of transactions waiting for their turn. */
  tail: Promise<void>;
  inside: boolean;
}
const turnsOf = new WeakMap<Database, Turns>();

export class SqliteDb extends SqliteStatements implements AsyncDb {
  readonly dialect = 'sqlite' as const;
  private readonly turns: Turns;

  constructor(readonly sqlite: Database) {
    super(sqlite);
    let t = turnsOf.get(sqlite);
    if (!t) {
      t = { tail: Promise.resolve(), inside: false };
      turnsOf.set(sqlite, t);
    }
    this.turns = t;
  }

  private get inside(): boolean {
    return this.turns.inside;
  }

  private set inside(v: boolean) {
    this.turns.inside = v;
  }

  private async waitTurn<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.turns.tail;
    let done!: () => void;
    this.turns.tail = new Promise<void>((resolve) => {
      done = resolve;
    });
    await previous;
    try {
      return await fn();
    } finally {
      done();
    }
  }

  // Statements outside a transaction wait while one is open, so they never land inside it.
  override all<T>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return this.inside ? this.waitTurn(() => super.all<T>(sql, params)) : super.all<T>(sql, params);
  }

  override get<T>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.inside ? this.waitTurn(() => super.get<T>(sql, params)) : super.get<T>(sql, params);
  }

  override run(sql: string, params: readonly Param[] = []): Promise<number> {
    return this.inside ? this.waitTurn(() => super.run(sql, params)) : super.run(sql, params);
  }

  /** BEGIN IMMEDIATE: the write lock from the start, so a read-then-write cannot be overtaken by another process. */
  transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.waitTurn(async () => {
      this.sqlite.exec('BEGIN IMMEDIATE');
      this.inside = true;
      try {
        const result = await fn(new SqliteStatements(this.sqlite));
        this.sqlite.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        throw err;
      } finally {
        this.inside = false;
      }
    });
  }

  /** The workstation's store is owned by whoever opened it: closing this view leaves it open. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
