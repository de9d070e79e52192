// Time-boxed policy exceptions: request, approve (never by the requester), reject, revoke; `expired` is derived from the expiry, so an expired exception never applies.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
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

export function getException(db: Database, id: string, now = new Date()): PolicyException | undefined {
  const row = db.prepare(`SELECT ${COLS} FROM pkgscan_exceptions WHERE id = ?`).get(id) as ExceptionRow | undefined;
  return row ? toException(row, now) : undefined;
}

export interface ExceptionFilter {
  readonly status?: ExceptionStatus | undefined;
  readonly ecosystem?: string | undefined;
  readonly package?: string | undefined;
}

export function listExceptions(db: Database, f: ExceptionFilter, limit: number, offset: number, now = new Date()): PageOf<PolicyException> {
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
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_exceptions ${clause}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT ${COLS} FROM pkgscan_exceptions ${clause} ORDER BY requested_at DESC, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as ExceptionRow[];
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

export function requestException(db: Database, audit: AuditLog, input: ExceptionRequest, actor: string, requestId: string | null, now = new Date()): PolicyException {
  const id = randomUUID();
  db.transaction(() => {
    db.prepare(`INSERT INTO pkgscan_exceptions (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, NULL, NULL)`).run(
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
    );
    audit.record('exception.request', actor, requestId, { exception_id: id, ecosystem: input.ecosystem, scope: input.scope });
  }).immediate();
  return getException(db, id, now) as PolicyException;
}

export type ExceptionMove = 'approve' | 'reject' | 'revoke';

/** Which effective statuses each move starts from (anything else is 409). */
const MOVES: Record<ExceptionMove, { from: readonly ExceptionStatus[]; to: StoredStatus }> = {
  approve: { from: ['pending'], to: 'approved' },
  reject: { from: ['pending'], to: 'rejected' },
  revoke: { from: ['pending', 'approved'], to: 'revoked' },
};

export function decideException(db: Database, audit: AuditLog, id: string, move: ExceptionMove, actor: string, requestId: string | null, now = new Date()): PolicyException {
  db.transaction(() => {
    const e = getException(db, id, now);
    if (!e) throw new VitrineError('not_found', 'no such exception');
    if (move === 'approve' && e.requested_by === actor) throw new VitrineError('forbidden', 'the requester of an exception may not approve it');
    if (!MOVES[move].from.includes(e.status)) throw new VitrineError('conflict', `an exception that is ${e.status} cannot be moved that way`);
    db.prepare('UPDATE pkgscan_exceptions SET status = ?, decided_by = ?, decided_at = ? WHERE id = ?').run(MOVES[move].to, actor, now.toISOString(), id);
    audit.record(`exception.${move}`, actor, requestId, { exception_id: id, from: e.status, to: MOVES[move].to });
  }).immediate();
  return getException(db, id, now) as PolicyException;
}

/** Approved, unexpired exceptions for this package, version and environment, ready for evaluatePolicy. */
export function applicableExceptions(db: Database, target: { ecosystem: string; name: string; version?: string | undefined; environment?: string | undefined }, now = new Date()): ApplicableException[] {
  const rows = db
    .prepare(`SELECT ${COLS} FROM pkgscan_exceptions WHERE ecosystem = ? AND package = ? AND status = 'approved' AND expires_at > ?`)
    .all(target.ecosystem, normalizePackageName(target.ecosystem, target.name), now.toISOString()) as ExceptionRow[];
  return rows
    .filter((r) => r.environment === null || r.environment === target.environment)
    .filter((r) => r.version_range === null || (target.version !== undefined && rangeMatches(r.ecosystem, r.version_range, target.version)))
    .map((r) => ({ id: r.id, scope: r.scope }));
}
