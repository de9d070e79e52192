// Monitoring leases on either backend: a worker claims due watched packages for a while (claimed_by, claimed_until),
// renews the lease while it checks, and gives it back. On PostgreSQL the claim skips rows another worker is claiming
// at that instant (FOR UPDATE SKIP LOCKED), so workers never wait on each other and never take the same package.
import type { AsyncDb, Queryable } from './types.js';

const iso = (ms: number): string => new Date(ms).toISOString();

const MAX_BATCH = 1000;

/**
 * Claims up to `limit` enabled packages whose check is due and that nobody holds (or whose lease ran out), for
 * `leaseMs`. Returns the claimed ids, oldest due first. Two workers calling at once get disjoint sets.
 */
export async function claimDueLeases(db: AsyncDb, owner: string, limit: number, now: number = Date.now(), leaseMs: number): Promise<string[]> {
  const n = Math.max(0, Math.min(MAX_BATCH, Math.trunc(limit)));
  if (n === 0) return [];
  const at = iso(now);
  const rows =
    db.dialect === 'postgres'
      ? await db.all<{ id: string }>(
          `WITH due AS (
             SELECT id FROM pkgscan_monitored
              WHERE enabled = 1 AND next_check_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
              ORDER BY next_check_at, id LIMIT ?
              FOR UPDATE SKIP LOCKED)
           UPDATE pkgscan_monitored m SET claimed_by = ?, claimed_until = ? FROM due WHERE m.id = due.id
           RETURNING m.id, m.next_check_at`,
          [at, at, n, owner, iso(now + leaseMs)],
        )
      : // SQLite runs the one UPDATE under its write lock: the same guarantee without row locks.
        await db.all<{ id: string }>(
          `UPDATE pkgscan_monitored SET claimed_by = ?, claimed_until = ?
            WHERE id IN (SELECT id FROM pkgscan_monitored WHERE enabled = 1 AND next_check_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_check_at, id LIMIT ?)
           RETURNING id, next_check_at`,
          [owner, iso(now + leaseMs), at, at, n],
        );
  return (rows as { id: string; next_check_at?: string }[]).sort((a, b) => (a.next_check_at ?? '').localeCompare(b.next_check_at ?? '') || a.id.localeCompare(b.id)).map((r) => r.id);
}

/** Claims one package whatever its schedule (a manual check); false while another holder's lease runs. */
export async function claimLease(db: Queryable, id: string, owner: string, now: number = Date.now(), leaseMs: number): Promise<boolean> {
  const at = iso(now);
  return (await db.run('UPDATE pkgscan_monitored SET claimed_by = ?, claimed_until = ? WHERE id = ? AND (claimed_until IS NULL OR claimed_until < ?)', [owner, iso(now + leaseMs), id, at])) === 1;
}

/**
 * Extends a lease the owner still holds (call it while a long check runs, well before claimed_until); false when the
 * lease was lost (it ran out and another worker took it, or the package was deleted): stop and record nothing.
 */
export async function renewLease(db: Queryable, id: string, owner: string, now: number = Date.now(), leaseMs: number): Promise<boolean> {
  return (await db.run('UPDATE pkgscan_monitored SET claimed_until = ? WHERE id = ? AND claimed_by = ? AND claimed_until >= ?', [iso(now + leaseMs), id, owner, iso(now)])) === 1;
}

/** Gives a lease back without recording anything (a cancelled check): the package stays due. */
export async function releaseLease(db: Queryable, id: string, owner: string): Promise<void> {
  await db.run('UPDATE pkgscan_monitored SET claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?', [id, owner]);
}

/** Who holds a package's lease now, and until when (undefined: nobody, or it ran out). */
export async function leaseHolder(db: Queryable, id: string, now: number = Date.now()): Promise<{ owner: string; until: string } | undefined> {
  const row = await db.get<{ claimed_by: string | null; claimed_until: string | null }>('SELECT claimed_by, claimed_until FROM pkgscan_monitored WHERE id = ?', [id]);
  if (!row || row.claimed_by === null || row.claimed_until === null || row.claimed_until < iso(now)) return undefined;
  return { owner: row.claimed_by, until: row.claimed_until };
}
