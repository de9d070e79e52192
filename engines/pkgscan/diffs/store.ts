// Stored release diffs: insert once per package, version pair and analyzer version; read one; list with filters.
// Async repository functions over either backend (the workstation's SQLite store or the shared PostgreSQL database).
import type { DiffSummary, ReleaseDiff } from '../../core/contracts/pkgscan-diffs.js';
import type { Param, Queryable } from '../db/types.js';

interface DiffRow {
  id: string;
  ecosystem: string;
  name: string;
  from_version: string;
  to_version: string;
  analyzer_version: string;
  escalated: number;
  maintainers_changed: number;
  risk_from: number;
  risk_to: number;
  new_findings: number;
  created_at: string;
}

const SUMMARY_COLUMNS = 'id, ecosystem, name, from_version, to_version, analyzer_version, escalated, maintainers_changed, risk_from, risk_to, new_findings, created_at';

const toSummary = (r: DiffRow): DiffSummary => ({ ...r, escalated: r.escalated === 1, maintainers_changed: r.maintainers_changed === 1 });

/**
 * Stores the diff unless that pair and analyzer version is stored already (the unique key decides, so of two racing
 * servers one inserts and the other reads the winner's row); answers the stored one and whether this call inserted it.
 */
export async function saveDiff(q: Queryable, d: ReleaseDiff): Promise<{ diff: ReleaseDiff; inserted: boolean }> {
  const changes = await q.run(
    `INSERT INTO pkgscan_diffs (id, ecosystem, name, from_version, to_version, analyzer_version, escalated, maintainers_changed, risk_from, risk_to, new_findings, created_by, created_at, diff_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (ecosystem, name, from_version, to_version, analyzer_version) DO NOTHING`,
    [d.id, d.ecosystem, d.name, d.from_version, d.to_version, d.analyzer_version, d.escalated ? 1 : 0, d.maintainers.added.length > 0 ? 1 : 0, d.risk.from, d.risk.to, d.findings.new.length, d.created_by, d.created_at, JSON.stringify(d)],
  );
  if (changes === 1) return { diff: d, inserted: true };
  const stored = await findDiff(q, d.ecosystem, d.name, d.from_version, d.to_version, d.analyzer_version);
  if (stored === undefined) throw new Error('a conflicting diff row vanished');
  return { diff: stored, inserted: false };
}

export async function findDiff(db: Queryable, ecosystem: string, name: string, fromVersion: string, toVersion: string, analyzerVersion: string): Promise<ReleaseDiff | undefined> {
  const r = await db.get<{ diff_json: string }>('SELECT diff_json FROM pkgscan_diffs WHERE ecosystem = ? AND name = ? AND from_version = ? AND to_version = ? AND analyzer_version = ?', [ecosystem, name, fromVersion, toVersion, analyzerVersion]);
  return r === undefined ? undefined : (JSON.parse(r.diff_json) as ReleaseDiff);
}

export async function getDiff(db: Queryable, id: string): Promise<ReleaseDiff | undefined> {
  const r = await db.get<{ diff_json: string }>('SELECT diff_json FROM pkgscan_diffs WHERE id = ?', [id]);
  return r === undefined ? undefined : (JSON.parse(r.diff_json) as ReleaseDiff);
}

export interface DiffFilter {
  /** Exact normalised package name. */
  readonly name?: string | undefined;
  readonly ecosystem?: string | undefined;
  readonly driftOnly?: boolean | undefined;
}

/** Newest first. */
export async function listDiffs(db: Queryable, filter: DiffFilter, limit: number, offset: number): Promise<{ items: DiffSummary[]; total: number }> {
  const where: string[] = [];
  const args: Param[] = [];
  if (filter.name !== undefined) {
    where.push('name = ?');
    args.push(filter.name);
  }
  if (filter.ecosystem !== undefined) {
    where.push('ecosystem = ?');
    args.push(filter.ecosystem);
  }
  if (filter.driftOnly === true) where.push('escalated = 1');
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_diffs ${clause}`, args))?.n ?? 0;
  const rows = await db.all<DiffRow>(`SELECT ${SUMMARY_COLUMNS} FROM pkgscan_diffs ${clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map(toSummary), total };
}
