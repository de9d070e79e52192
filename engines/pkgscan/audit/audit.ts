// The audit chain: every write action appended to engines/core's hash-chained ledger (action, seq, chain hash, actor, request id, time).
import type { Database } from 'better-sqlite3';
import type { AuditEntry, AuditVerification, PageOf } from '../../core/contracts/pkgscan.js';
import { Ledger, missingLedgerTriggers, type LedgerAnchors, type LedgerRecord, type StoredLedgerRow } from '../../core/ledger.js';
import { AUDIT_TABLE } from '../store.js';

/** Who did it: a user id, `anonymous` (failed login) or `system` (seeding, maintenance). */
export type Actor = string;

export interface AuditFilter {
  readonly action?: string | undefined;
  /** Action prefix such as `auth.` */
  readonly actionPrefix?: string | undefined;
  readonly actor?: string | undefined;
}

function toEntry(r: LedgerRecord | StoredLedgerRow): AuditEntry {
  const payload = (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>;
  const { request_id, ...details } = payload;
  return {
    seq: r.seq,
    action: r.kind,
    actor: r.actor,
    request_id: typeof request_id === 'string' ? request_id : null,
    at: r.at,
    details,
    prev_hash: r.prev_hash,
    chain_hash: r.hash,
  };
}

export class AuditLog {
  private readonly ledger: Ledger;
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
    this.ledger = new Ledger(db, AUDIT_TABLE);
  }

  /** Appends one entry; `details` must hold no secrets and no submitted free text beyond ids. */
  record(action: string, actor: Actor, requestId: string | null, details: Readonly<Record<string, unknown>> = {}): AuditEntry {
    return toEntry(this.ledger.append({ kind: action, actor, payload: { ...details, request_id: requestId } }));
  }

  list(filter: AuditFilter, limit: number, offset: number): PageOf<AuditEntry> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.action !== undefined) {
      where.push('kind = ?');
      args.push(filter.action);
    }
    if (filter.actionPrefix !== undefined) {
      where.push("substr(kind, 1, length(?)) = ?");
      args.push(filter.actionPrefix, filter.actionPrefix);
    }
    if (filter.actor !== undefined) {
      where.push('actor = ?');
      args.push(filter.actor);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM ${AUDIT_TABLE} ${clause}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT seq, at, kind, actor, payload, prev_hash, hash FROM ${AUDIT_TABLE} ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...args, limit, offset) as StoredLedgerRow[];
    return { items: rows.map(toEntry), total, limit, offset };
  }

  /**
   * Recomputes the chain. Missing or altered append-only triggers fail it (the newest rows could have been deleted
   * without a break showing); `anchors` recorded elsewhere (the head hash and count) catch truncation and rewrites.
   */
  verify(anchors: LedgerAnchors = {}): AuditVerification {
    const v = this.ledger.verify(anchors);
    const missing = missingLedgerTriggers(this.db, AUDIT_TABLE);
    if (v.ok && missing.length > 0) return { ok: false, count: v.count, first_broken_seq: null, reason: 'append-only triggers are missing or altered', head_hash: v.head, missing_triggers: missing };
    return { ok: v.ok, count: v.count, first_broken_seq: v.firstBroken ?? null, reason: v.reason ?? null, head_hash: v.head, missing_triggers: missing };
  }

  count(): number {
    return this.ledger.count();
  }
}
