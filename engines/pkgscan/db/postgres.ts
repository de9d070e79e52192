// The shared backend: a pooled node-postgres client. Parameters only, each statement prepared by name on its connection;
// BIGINT and NUMERIC counts come back as numbers; transactions retry serialisation failures and deadlocks.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { VitrineError } from '../../core/errors.js';
import { advisoryKey, numberPlaceholders } from './sql.js';
import type { AsyncDb, Param, Queryable, TransactionOptions } from './types.js';

/** Connections per process: a few per server is plenty, since every request holds one only for its statements. */
export const DEFAULT_POOL_SIZE = 10;
const RETRIES = 5;
/** SQLSTATEs worth a retry of the whole transaction. */
const RETRYABLE = new Set(['40001', '40P01']);

const INT8 = 20;
const NUMERIC = 1700;

/** int8 (COUNT(*), BIGINT) as a JavaScript number; values beyond 2^53 are refused rather than rounded. */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new VitrineError('internal', 'a stored integer is beyond the safe range');
  return n;
}

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format !== 'binary' && oid === INT8) return parseInt8;
    if (format !== 'binary' && oid === NUMERIC) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

/** A statement's name: derived from its text, so a connection prepares each distinct statement once. */
const names = new Map<string, { name: string; text: string }>();
function prepared(sql: string): { name: string; text: string } {
  let p = names.get(sql);
  if (!p) {
    const text = numberPlaceholders(sql);
    p = { name: `pk_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
    if (names.size < 5000) names.set(sql, p);
  }
  return p;
}

function values(params: readonly Param[]): unknown[] {
  return params.map((p) => (typeof p === 'bigint' ? p.toString() : p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p) : p));
}

/** The SQLSTATE of a server error, when it is one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Errno codes of a server that cannot be reached: refused, reset, unreachable, timed out, no such host. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EAI_AGAIN', 'ENOTFOUND']);
/** node-postgres's own errors (no SQLSTATE, no errno) for a connection that ended or never came. */
const CONNECTION_LOST = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * A failure to reach the server (refused, its Unix socket gone, the connection ended under a statement) as 503
 * `unavailable`, with a fixed message: the driver's own text names the socket path or host. Errors the server sent
 * (pg.DatabaseError, with a SQLSTATE: storageError maps disk_full and the like at the boundary) and anything else pass
 * through unchanged.
 */
export function connectionFailure(err: unknown): unknown {
  if (!(err instanceof Error) || err instanceof pg.DatabaseError || err instanceof VitrineError) return err;
  const { code, syscall } = err as NodeJS.ErrnoException;
  const lost = typeof code === 'string' ? UNREACHABLE.has(code) || (code === 'ENOENT' && syscall === 'connect') : CONNECTION_LOST.test(err.message);
  return lost ? new VitrineError('unavailable', 'the database server cannot be reached; try again', { cause: err }) : err;
}

/** `promise`, with a connection failure said as connectionFailure says it. */
export async function reaching<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    throw connectionFailure(err);
  }
}

interface Client {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

class PgStatements implements Queryable {
  constructor(protected readonly client: Client) {}

  async all<T>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    const p = prepared(sql);
    return (await reaching(this.client.query({ name: p.name, text: p.text, values: values(params) }))).rows as T[];
  }

  async get<T>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: readonly Param[] = []): Promise<number> {
    const p = prepared(sql);
    return (await reaching(this.client.query({ name: p.name, text: p.text, values: values(params) }))).rowCount ?? 0;
  }
}

export interface PgOptions {
  readonly url: string;
  readonly max?: number;
  /** Names the connections in pg_stat_activity. */
  readonly applicationName?: string;
}

export class PgDb extends PgStatements implements AsyncDb {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(options: PgOptions) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.max ?? DEFAULT_POOL_SIZE,
      application_name: options.applicationName ?? 'vitrine-pkgscan',
      types: typeParsers,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection dropped by the server must not crash the process: the pool replaces it on the next query.
    pool.on('error', () => undefined);
    super(pool);
    this.pool = pool;
  }

  async transaction<T>(fn: (q: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await reaching(this.pool.connect());
      let broken = false;
      try {
        await reaching(client.query(options.isolation === 'serializable' ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN'));
        if (options.lock !== undefined) await reaching(client.query({ text: 'SELECT pg_advisory_xact_lock($1::bigint)', values: [advisoryKey(options.lock)] }));
        const result = await fn(new PgStatements(client));
        await reaching(client.query('COMMIT'));
        return result;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const state = sqlState(err);
        if (state !== undefined && RETRYABLE.has(state) && attempt < RETRIES) continue;
        throw err;
      } finally {
        client.release(broken);
      }
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
