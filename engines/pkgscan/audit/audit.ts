// The audit chain: every write action appended to a hash-chained ledger (action, seq, chain hash, actor, request id,
// time), on the workstation's SQLite store or the shared PostgreSQL database.
import type { Database } from 'better-sqlite3';
import type { AuditEntry, AuditVerification, PageOf } from '../../core/contracts/pkgscan.js';
import type { LedgerAnchors, LedgerRecord, StoredLedgerRow } from '../../core/ledger.js';
import { SqliteDb } from '../db/sqlite.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import { appendAuditPg, PgAuditStore, SqliteAuditStore, type AuditFilter, type AuditStore } from './store.js';

export type { AuditFilter } from './store.js';

/** Who did it: a user id, `anonymous` (failed login) or `system` (seeding, maintenance). */
export type Actor = string;

function toEntry(r: LedgerRecord | StoredLedgerRow): AuditEntry {
  const payload = (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>;
  const { request_id, ...details } = payload;
  return {
    seq: Number(r.seq),
    action: r.kind,
    actor: r.actor,
    request_id: typeof request_id === 'string' ? request_id : null,
    at: r.at,
    details,
    prev_hash: r.prev_hash,
    chain_hash: r.hash,
  };
}

function verification(v: { ok: boolean; count: number; firstBroken?: number; reason?: string; head: string }, missing: string[]): AuditVerification {
  if (v.ok && missing.length > 0) return { ok: false, count: v.count, first_broken_seq: null, reason: 'append-only triggers are missing or altered', head_hash: v.head, missing_triggers: missing };
  return { ok: v.ok, count: v.count, first_broken_seq: v.firstBroken ?? null, reason: v.reason ?? null, head_hash: v.head, missing_triggers: missing };
}

/**
 * The audit log on either backend: append, appendWithin (in the caller's transaction), page, verifyChain and total.
 * `record` is the synchronous append of the concerns still on the workstation's SQLite store (inside their SQLite
 * transactions): on PostgreSQL it queues the append in order, and every read and `flush()` wait for the queue.
 */
export class AuditLog {
  private readonly store: AuditStore;
  private readonly sqlite: SqliteAuditStore | undefined;
  private pending: Promise<unknown> = Promise.resolve();
  private queueFailures = 0;

  constructor(db: Database, shared?: AsyncDb) {
    if (shared?.dialect === 'postgres') {
      this.store = new PgAuditStore(shared);
      this.sqlite = undefined;
    } else {
      this.sqlite = new SqliteAuditStore(db, shared ?? new SqliteDb(db));
      this.store = this.sqlite;
    }
  }

  /** True when the chain lives in the shared PostgreSQL database. */
  get shared(): boolean {
    return this.sqlite === undefined;
  }

  /** Appends one entry; `details` must hold no secrets and no submitted free text beyond ids. */
  async append(action: string, actor: Actor, requestId: string | null, details: Readonly<Record<string, unknown>> = {}): Promise<AuditEntry> {
    await this.pending;
    return toEntry(await this.store.append({ kind: action, actor, payload: { ...details, request_id: requestId } }));
  }

  /** Appends inside the caller's PostgreSQL transaction (so the change and its entry commit together). */
  async appendWithin(q: Queryable, action: string, actor: Actor, requestId: string | null, details: Readonly<Record<string, unknown>> = {}): Promise<AuditEntry> {
    if (this.sqlite) return toEntry(this.sqlite.appendSync({ kind: action, actor, payload: { ...details, request_id: requestId } }));
    return toEntry(await appendAuditPg(q, { kind: action, actor, payload: { ...details, request_id: requestId } }));
  }

  /**
   * The synchronous append of the concerns still on SQLite (inside their transactions). On PostgreSQL it is queued in
   * order and written at once; a failure is counted (queuedFailures) and the next append still goes on.
   */
  record(action: string, actor: Actor, requestId: string | null, details: Readonly<Record<string, unknown>> = {}): AuditEntry | undefined {
    if (this.sqlite) return toEntry(this.sqlite.appendSync({ kind: action, actor, payload: { ...details, request_id: requestId } }));
    const record = { kind: action, actor, payload: { ...details, request_id: requestId } };
    this.pending = this.pending.then(() => this.store.append(record)).catch(() => {
      this.queueFailures++;
    });
    return undefined;
  }

  /** Waits until every queued entry is written. */
  async flush(): Promise<void> {
    await this.pending;
  }

  /** Queued appends that failed (PostgreSQL only). */
  get queuedFailures(): number {
    return this.queueFailures;
  }

  async page(filter: AuditFilter, limit: number, offset: number): Promise<PageOf<AuditEntry>> {
    await this.pending;
    const { rows, total } = await this.store.page(filter, limit, offset);
    return { items: rows.map(toEntry), total, limit, offset };
  }

  /**
   * Recomputes the chain. Missing or altered append-only triggers fail it (the newest rows could have been deleted
   * without a break showing); `anchors` recorded elsewhere (the head hash and count) catch truncation and rewrites.
   */
  async verifyChain(anchors: LedgerAnchors = {}): Promise<AuditVerification> {
    await this.pending;
    return verification(await this.store.verify(anchors), await this.store.missingGuards());
  }

  async total(): Promise<number> {
    await this.pending;
    return this.store.count();
  }
}
