// The security events store: list with filters, acknowledge once (repeats keep the first acknowledger). Async
// repository functions over either backend (the workstation's SQLite store or the shared PostgreSQL database).
import type { PageOf, SecurityEvent, Severity } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { Param, Queryable } from '../db/types.js';
import type { Platform } from '../platform.js';
import { SEVERITIES } from '../vocabulary.js';

interface EventRow {
  id: string;
  type: string;
  severity: Severity;
  package: string | null;
  project: string | null;
  created_at: string;
  details_json: string;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
}

export function toEvent(row: EventRow): SecurityEvent {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    package: row.package,
    project: row.project,
    time: row.created_at,
    details: JSON.parse(row.details_json) as Record<string, unknown>,
    acknowledged: row.acknowledged_at !== null,
    acknowledged_by: row.acknowledged_by,
    acknowledged_at: row.acknowledged_at,
  };
}

export interface EventFilter {
  readonly type?: string | undefined;
  /** Exactly this severity. */
  readonly severity?: Severity | undefined;
  /** This severity or worse. */
  readonly minSeverity?: Severity | undefined;
  readonly package?: string | undefined;
  readonly project?: string | undefined;
  /** ISO 8601 times, inclusive. */
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly acknowledged?: boolean | undefined;
}

const COLS = 'id, type, severity, package, project, created_at, details_json, acknowledged_by, acknowledged_at';

export async function getEvent(db: Queryable, id: string): Promise<SecurityEvent | undefined> {
  const row = await db.get<EventRow>(`SELECT ${COLS} FROM pkgscan_events WHERE id = ?`, [id]);
  return row ? toEvent(row) : undefined;
}

export async function listEvents(db: Queryable, f: EventFilter, limit: number, offset: number): Promise<PageOf<SecurityEvent>> {
  const where: string[] = [];
  const args: Param[] = [];
  const eq = (col: string, v: string | undefined): void => {
    if (v !== undefined) {
      where.push(`${col} = ?`);
      args.push(v);
    }
  };
  eq('type', f.type);
  eq('severity', f.severity);
  eq('package', f.package);
  eq('project', f.project);
  if (f.minSeverity !== undefined) {
    const worse = SEVERITIES.slice(SEVERITIES.indexOf(f.minSeverity));
    where.push(`severity IN (${worse.map(() => '?').join(', ')})`);
    args.push(...worse);
  }
  if (f.since !== undefined) {
    where.push('created_at >= ?');
    args.push(new Date(f.since).toISOString());
  }
  if (f.until !== undefined) {
    where.push('created_at <= ?');
    args.push(new Date(f.until).toISOString());
  }
  if (f.acknowledged !== undefined) where.push(f.acknowledged ? 'acknowledged_at IS NOT NULL' : 'acknowledged_at IS NULL');
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_events ${clause}`, args))?.n ?? 0;
  const rows = await db.all<EventRow>(`SELECT ${COLS} FROM pkgscan_events ${clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map(toEvent), total, limit, offset };
}

/**
 * Acknowledges an event inside the caller's transaction; a repeat changes nothing and keeps the first acknowledger (the
 * conditional UPDATE is one statement, so of two racing acknowledgements exactly one changes the row).
 * `changed` says whether this call did it.
 */
export async function acknowledgeEvent(q: Queryable, id: string, userId: string, now = new Date()): Promise<{ event: SecurityEvent; changed: boolean }> {
  const changed = (await q.run('UPDATE pkgscan_events SET acknowledged_by = ?, acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL', [userId, now.toISOString(), id])) === 1;
  const event = await getEvent(q, id);
  if (!event) throw new VitrineError('not_found', 'no such event');
  return { event, changed };
}

/** Acknowledges an event and, when this call was the first to, writes the audit entry in the same transaction. */
export async function acknowledgeAudited(p: Platform, id: string, actor: string, requestId: string | null): Promise<SecurityEvent> {
  const result = await p.store.transaction(async (q) => {
    const r = await acknowledgeEvent(q, id, actor);
    if (r.changed) await p.audit.appendWithin(q, 'event.ack', actor, requestId, { event_id: id, type: r.event.type });
    return r;
  });
  return result.event;
}

export async function unacknowledgedCount(db: Queryable): Promise<number> {
  return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_events WHERE acknowledged_at IS NULL'))?.n ?? 0;
}
