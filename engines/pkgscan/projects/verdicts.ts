// The newest stored package verdicts for a project's components in one environment, read from the package scans' table
// (read only), in batches of keys rather than one query per component.
import type { StoredVerdictRef } from '../../core/contracts/pkgscan-projects.js';
import type { Queryable } from '../db/types.js';

/** One component's identity as the package scans' table keys it. */
export interface ReleaseKey {
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
}

/** Keys per query: three parameters each, well under both backends' parameter limits. */
export const VERDICT_BATCH = 300;

interface VerdictRow {
  id: string;
  ecosystem: string;
  name: string;
  version: string;
  decision: StoredVerdictRef['decision'];
  severity: StoredVerdictRef['severity'];
  risk_score: number;
  created_at: string;
}

const keyOf = (k: ReleaseKey): string => `${k.ecosystem}\u0000${k.name}\u0000${k.version}`;

/**
 * The newest verdict of each key in `environment` (null where none is stored), in the order of `keys`. Equal keys are
 * asked once; between two batches the event loop gets a turn. Newest: latest created_at, then the greatest id.
 */
export async function newestVerdictsFor(db: Queryable, keys: readonly ReleaseKey[], environment: string): Promise<(StoredVerdictRef | null)[]> {
  const distinct = new Map<string, ReleaseKey>();
  for (const k of keys) distinct.set(keyOf(k), k);
  const unique = [...distinct.values()];
  const found = new Map<string, StoredVerdictRef>();
  for (let start = 0; start < unique.length; start += VERDICT_BATCH) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const batch = unique.slice(start, start + VERDICT_BATCH);
    const rows = await db.all<VerdictRow>(
      `SELECT id, ecosystem, name, version, decision, severity, risk_score, created_at FROM pkgscan_scans
       WHERE environment = ? AND (ecosystem, name, version) IN (VALUES ${batch.map(() => '(?, ?, ?)').join(', ')})`,
      [environment, ...batch.flatMap((k) => [k.ecosystem, k.name, k.version])],
    );
    for (const r of rows) {
      const k = keyOf(r);
      const seen = found.get(k);
      if (seen === undefined || r.created_at > seen.created_at || (r.created_at === seen.created_at && r.id > seen.scan_id)) {
        found.set(k, { scan_id: r.id, decision: r.decision, severity: r.severity, risk_score: r.risk_score, created_at: r.created_at });
      }
    }
  }
  return keys.map((k) => found.get(keyOf(k)) ?? null);
}

/** Newest verdict of (ecosystem, name, version, environment) in pkgscan_scans; undefined when none is stored. */
export async function newestVerdictFor(db: Queryable, ecosystem: string, name: string, version: string, environment: string): Promise<StoredVerdictRef | undefined> {
  return (await newestVerdictsFor(db, [{ ecosystem, name, version }], environment))[0] ?? undefined;
}
