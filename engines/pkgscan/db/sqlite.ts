// The embedded backend: better-sqlite3 behind the async interface. Statements run synchronously; a transaction holds a
// process-wide turn so two async transactions on the one connection never interleave.
import type { Database } from 'better-sqlite3';
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

class SqliteStatements implements Queryable {
  constructor(protected readonly db: Database) {}

  all<T>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return settle(() => this.db.prepare(sql).all(...bind(params)) as T[]);
  }

  get<T>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return settle(() => this.db.prepare(sql).get(...bind(params)) as T | undefined);
  }

  run(sql: string, params: readonly Param[] = []): Promise<number> {
    return settle(() => this.db.prepare(sql).run(...bind(params)).changes);
  }
}

export class SqliteDb extends SqliteStatements implements AsyncDb {
  readonly dialect = 'sqlite' as const;
  /** The tail of the queue of transactions waiting for their turn. */
  private turn: Promise<void> = Promise.resolve();
  private inside = false;

  constructor(readonly sqlite: Database) {
    super(sqlite);
  }

  private async waitTurn<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.turn;
    let done!: () => void;
    this.turn = new Promise<void>((resolve) => {
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
