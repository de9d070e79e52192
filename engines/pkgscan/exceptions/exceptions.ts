// Time-boxed policy exceptions: request, approve (never by the requester), reject, revoke; `expired` is derived from the expiry, so an expired exception never applies.
// In the async store (the shared PostgreSQL database when one is set); a decision reads, checks and writes in one
// transaction holding the exception's row, so of two racing decisions one applies and the other is a 409.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { SqliteDb } from '../db/sqlite.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import type { ExceptionStatus, PageOf, PolicyException } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { AuditLog } from '../audit/audit.js';
import type { ApplicableException } from '../policies/evaluate.js';
import { normalizePackageName, rangeMatches } from './ranges.js';

type StoredStatus = 'pending' | 'approved' | 'rejected' | 'revoked';

interface ExceptionRow {
  id: string;
  ecosystem: string;
  package: string;
  version_range: string | null;
  scope: string;
  environment: string | null;
  justification: string;
  expires_at: string;
  status: StoredStatus;
  requested_by: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
}

const COLS = 'id, ecosystem, package, version_range, scope, environment, justification, expires_at, status, requested_by, requested_at, decided_by, decided_at';

/** pending and approved turn `expired` once the expiry has passed; rejected and revoked are final. */
export function effectiveStatus(stored: StoredStatus, expiresAt: string, now: Date): ExceptionStatus {
  if ((stored === 'pending' || stored === 'approved') && Date.parse(expiresAt) <= now.getTime()) return 'expired';
  return stored;
}

function toException(r: ExceptionRow, now: Date): PolicyException {
  return { ...r, status: effectiveStatus(r.status, r.expires_at, now) };
}

export async function getException(db: Queryable, id: string, now = new Date(), lock = ''): Promise<PolicyException | undefined> {
  const row = await db.get<ExceptionRow>(`SELECT ${COLS} FROM pkgscan_exceptions WHERE id = ?${lock}`, [id]);
  return row ? toException(row, now) : undefined;
}

export interface ExceptionFilter {
  readonly status?: ExceptionStatus | undefined;
  readonly ecosystem?: string | undefined;
  readonly package?: string | undefined;
}

export async function listExceptions(db: Queryable, f: ExceptionFilter, limit: number, offset: number, now = new Date()): Promise<PageOf<PolicyException>> {
  const where: string[] = [];
  const args: string[] = [];
  const iso = now.toISOString();
  if (f.status === 'expired') {
    where.push("status IN ('pending', 'approved') AND expires_at <= ?");
    args.push(iso);
  } else if (f.status === 'pending' || f.status === 'approved') {
    where.push('status = ? AND expires_at > ?');
    args.push(f.status, iso);
  } else if (f.status !== undefined) {
    where.push('status = ?');
    args.push(f.status);
  }
  if (f.ecosystem !== undefined) {
    where.push('ecosystem = ?');
    args.push(f.ecosystem);
  }
  if (f.package !== undefined) {
    where.push('package = ?');
    args.push(normalizePackageName(f.ecosystem ?? '', f.package));
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_exceptions ${clause}`, args))?.n ?? 0;
  const rows = await db.all<ExceptionRow>(`SELECT ${COLS} FROM pkgscan_exceptions ${clause} ORDER BY requested_at DESC, id LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map((r) => toException(r, now)), total, limit, offset };
}

export interface ExceptionRequest {
  readonly ecosystem: string;
  readonly package: string;
  readonly version_range?: string | undefined;
  readonly scope: string;
  readonly environment?: string | undefined;
  readonly justification: string;
  readonly expires_at: string;
}

/** `db`: the async store; a workstation's SQLite handle is accepted too (the command line and its tests). */
export async function requestException(db: AsyncDb | Database, audit: AuditLog, input: ExceptionRequest, actor: string, requestId: string | null, now = new Date()): Promise<PolicyException> {
  const store: AsyncDb = 'transaction' in db && 'dialect' in db ? db : new SqliteDb(db);
  const id = randomUUID();
  return store.transaction(async (q) => {
    await q.run(`INSERT INTO pkgscan_exceptions (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, NULL, NULL)`, [
      id,
      input.ecosystem,
      normalizePackageName(input.ecosystem, input.package),
      input.version_range ?? null,
      input.scope,
      input.environment ?? null,
      input.justification,
      new Date(input.expires_at).toISOString(),
      actor,
      now.toISOString(),
    ]);
    await audit.appendWithin(q, 'exception.request', actor, requestId, { exception_id: id, ecosystem: input.ecosystem, scope: input.scope });
    return (await getException(q, id, now)) as PolicyException;
  });
}

export type ExceptionMove = 'approve' | 'reject' | 'revoke';

/** Which effective statuses each move starts from (anything else is 409). */
const MOVES: Record<ExceptionMove, { from: readonly ExceptionStatus[]; to: StoredStatus }> = {
  approve: { from: ['pending'], to: 'approved' },
  reject: { from: ['pending'], to: 'rejected' },
  revoke: { from: ['pending', 'approved'], to: 'revoked' },
};

/** One transaction: the row is read under a lock (FOR UPDATE on PostgreSQL), the move checked (approval by another user than the requester), written and audited. */
export async function decideException(db: AsyncDb, audit: AuditLog, id: string, move: ExceptionMove, actor: string, requestId: string | null, now = new Date()): Promise<PolicyException> {
  return db.transaction(async (q) => {
    const e = await getException(q, id, now, db.dialect === 'postgres' ? ' FOR UPDATE' : '');
    if (!e) throw new VitrineError('not_found', 'no such exception');
    if (move === 'approve' && e.requested_by === actor) throw new VitrineError('forbidden', 'the requester of an exception may not approve it');
    if (!MOVES[move].from.includes(e.status)) throw new VitrineError('conflict', `an exception that is ${e.status} cannot be moved that way`);
    await q.run('UPDATE pkgscan_exceptions SET status = ?, decided_by = ?, decided_at = ? WHERE id = ?', [MOVES[move].to, actor, now.toISOString(), id]);
    await audit.appendWithin(q, `exception.${move}`, actor, requestId, { exception_id: id, from: e.status, to: MOVES[move].to });
    return (await getException(q, id, now)) as PolicyException;
  });
}

/** Approved, unexpired exceptions for this package, version and environment, ready for evaluatePolicy. */
export async function applicableExceptions(db: Queryable, target: { ecosystem: string; name: string; version?: string | undefined; environment?: string | undefined }, now = new Date()): Promise<ApplicableException[]> {
  const rows = await db.all<ExceptionRow>(`SELECT ${COLS} FROM pkgscan_exceptions WHERE ecosystem = ? AND package = ? AND status = 'approved' AND expires_at > ?`, [
    target.ecosystem,
    normalizePackageName(target.ecosystem, target.name),
    now.toISOString(),
  ]);
  return rows
    .filter((r) => r.environment === null || r.environment === target.environment)
    .filter((r) => r.version_range === null || (target.version !== undefined && rangeMatches(r.ecosystem, r.version_range, target.version)))
    .map((r) => ({ id: r.id, scope: r.scope }));
}
