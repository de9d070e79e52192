// The security events store: list with filters, acknowledge once (repeats keep the first acknowledger).
import type { Database } from 'better-sqlite3';
import type { PageOf, SecurityEvent, Severity } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';

export const SEVERITIES: readonly Severity[] = ['info', 'low', 'medium', 'high', 'critical'];

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

export function getEvent(db: Database, id: string): SecurityEvent | undefined {
  const row = db.prepare(`SELECT ${COLS} FROM pkgscan_events WHERE id = ?`).get(id) as EventRow | undefined;
  return row ? toEvent(row) : undefined;
}

export function listEvents(db: Database, f: EventFilter, limit: number, offset: number): PageOf<SecurityEvent> {
  const where: string[] = [];
  const args: (string | number)[] = [];
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
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_events ${clause}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT ${COLS} FROM pkgscan_events ${clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as EventRow[];
  return { items: rows.map(toEvent), total, limit, offset };
}

/** Acknowledges an event; a repeat changes nothing and keeps the first acknowledger. `changed` says whether this call did it. */
export function acknowledgeEvent(db: Database, id: string, userId: string, now = new Date()): { event: SecurityEvent; changed: boolean } {
  const tx = db.transaction(() => {
    const changed = db.prepare('UPDATE pkgscan_events SET acknowledged_by = ?, acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL').run(userId, now.toISOString(), id).changes === 1;
    const event = getEvent(db, id);
    if (!event) throw new VitrineError('not_found', 'no such event');
    return { event, changed };
  });
  return tx.immediate();
}

export function unacknowledgedCount(db: Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM pkgscan_events WHERE acknowledged_at IS NULL').get() as { n: number }).n;
}
