// The newest stored package verdict for one name, version and environment, read from the package scans' table (read only).
import type { StoredVerdictRef } from '../../core/contracts/pkgscan-projects.js';
import type { Queryable } from '../db/types.js';

/** Newest verdict of (ecosystem, name, version, environment) in pkgscan_scans; undefined when none is stored. */
export async function newestVerdictFor(db: Queryable, ecosystem: string, name: string, version: string, environment: string): Promise<StoredVerdictRef | undefined> {
  const row = await db.get<{ id: string; decision: StoredVerdictRef['decision']; severity: StoredVerdictRef['severity']; risk_score: number; created_at: string }>(
    `SELECT id, decision, severity, risk_score, created_at FROM pkgscan_scans
     WHERE ecosystem = ? AND name = ? AND version = ? AND environment = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
    [ecosystem, name, version, environment],
  );
  return row ? { scan_id: row.id, decision: row.decision, severity: row.severity, risk_score: row.risk_score, created_at: row.created_at } : undefined;
}
