// Removing a failed case (DELETE /api/cases/{id}): only a failed one, which holds no custody ledger; what was removed is kept in an append-only record (migration 7).
import type { Database } from 'better-sqlite3';
import type { CaseStatus } from '../../core/contracts/forensic.js';
import { VitrineError } from '../../core/errors.js';
import { CASE_ANNOTATIONS_TABLE, CASE_CUSTODY_TABLE, CASE_ITEMS_TABLE, CASE_REMOVALS_TABLE, CASES_TABLE } from '../store.js';

/**
 * Removes a failed case: only a failed one, and only while it holds no custody record and no annotation (a failed
 * analysis stores neither; a sealed ledger is never deleted). What was removed is kept in the append-only removals
 * table, in the same transaction.
 */
export function removeFailedCase(db: Database, id: string, now: string): void {
  db.transaction(() => {
    const row = db.prepare(`SELECT id, title, origin, status, created_at, error, error_message, request_json FROM ${CASES_TABLE} WHERE id = ?`).get(id) as
      | { id: string; title: string; origin: string; status: CaseStatus; created_at: string; error: string | null; error_message: string | null; request_json: string }
      | undefined;
    if (!row) throw new VitrineError('not_found', 'no such case');
    if (row.status !== 'failed') throw new VitrineError('conflict', 'only a failed case can be removed; a finished case keeps its sealed custody ledger');
    for (const table of [CASE_CUSTODY_TABLE, CASE_ANNOTATIONS_TABLE, CASE_ITEMS_TABLE]) {
      if (db.prepare(`SELECT 1 FROM ${table} WHERE case_id = ? LIMIT 1`).get(id) !== undefined) throw new VitrineError('conflict', 'the case holds custody records or annotations; it is kept');
    }
    db.prepare(`INSERT INTO ${CASE_REMOVALS_TABLE} (case_id, title, origin, created_at, error, error_message, request_json, removed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
      row.id,
      row.title,
      row.origin,
      row.created_at,
      row.error,
      row.error_message,
      row.request_json,
      now,
    );
    db.prepare(`DELETE FROM ${CASES_TABLE} WHERE id = ? AND status = 'failed'`).run(id);
  })();
}
