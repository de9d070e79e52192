// A batch of a stored case's item texts as one buffer of bytes, joined with commas by SQLite: what a page answer writes
// to its socket, with no JavaScript string per item, no joined string and no UTF-8 encoding on the way out.
import type { Database, Statement } from 'better-sqlite3';
import { CASE_ITEMS_TABLE, CASE_LEAN_EVENTS_TABLE, type CaseItemKind } from './store.js';

/** Items [from, to) of a kind: their stored JSON texts in view order, joined with `,` (UTF-8), and how many there are. */
export interface JoinedItems {
  readonly count: number;
  readonly bytes: Uint8Array;
}

const JOINED = `CAST(group_concat(json, ',' ORDER BY seq) AS BLOB)`;
const LEAN_SQL = `SELECT count(*) AS n, ${JOINED} AS bytes FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ? AND seq >= ? AND seq < ?`;
const ITEMS_SQL = `SELECT count(*) AS n, ${JOINED} AS bytes FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind = ? AND seq >= ? AND seq < ?`;

/** Each store's two statements; null where the store lacks the table (it is read the other way, caseItemsJson). */
const prepared = new WeakMap<Database, Map<string, Statement | null>>();
function statement(db: Database, sql: string): Statement | null {
  let own = prepared.get(db);
  if (own === undefined) prepared.set(db, (own = new Map()));
  let st = own.get(sql);
  if (st === undefined) {
    try {
      st = db.prepare(sql);
    } catch {
      // No such table yet (a store before migrations 6 or 10): not remembered, a later migration may add it.
      return null;
    }
    own.set(sql, st);
  }
  return st;
}

/**
 * The JSON texts of items [from, to) of a kind as one buffer, the same bytes as caseItemsJson's texts joined with `,`
 * and encoded as UTF-8 (the store keeps them as UTF-8 text; SQLite concatenates them and the buffer is their one copy
 * out of it). `lean` events come from the lean events table. Null when the range holds no stored row, or the table is
 * not there (a case stored before migration 10 has no lean rows; before migration 6 no item rows): read those with
 * caseItemsJson.
 */
export function caseItemsJoined(db: Database, id: string, kind: CaseItemKind, from: number, to: number, lean = false): JoinedItems | null {
  if (to <= from) return null;
  const row = (
    lean && kind === 'event' ? statement(db, LEAN_SQL)?.get(id, from, to) : statement(db, ITEMS_SQL)?.get(id, kind, from, to)
  ) as { n: number; bytes: Uint8Array | null } | undefined;
  if (row === undefined || row.n === 0 || row.bytes === null) return null;
  return { count: row.n, bytes: row.bytes };
}
