// What readiness asks of the stores: whether the workstation's SQLite store answers (its user table and the lookup
// cache) and whether the shared database answers. The queries live here, not in the operations routes.
import type { Database } from 'better-sqlite3';
import type { AsyncDb } from './types.js';

export type CheckStatus = 'ok' | 'failed';

function check(fn: () => void): CheckStatus {
  try {
    fn();
    return 'ok';
  } catch {
    return 'failed';
  }
}

/** The workstation store's user table and the unexpired part of the lookup cache, each read once. */
export function localStoreChecks(db: Database, now: Date = new Date()): { readonly database: CheckStatus; readonly cache: CheckStatus } {
  return {
    database: check(() => db.prepare('SELECT COUNT(*) FROM pkgscan_users').get()),
    cache: check(() => db.prepare('SELECT COUNT(*) FROM pkgscan_cache WHERE expires_at > ?').get(now.toISOString())),
  };
}

/**
 * Whether the shared database answers a read of the user table (migrated, reachable, the role may read it). On SQLite
 * there is no shared database (the async store is the workstation store, which the local checks cover): `ok`, no query.
 */
export async function sharedStoreCheck(store: AsyncDb): Promise<CheckStatus> {
  if (store.dialect !== 'postgres') return 'ok';
  try {
    await store.get('SELECT COUNT(*) AS n FROM pkgscan_users');
    return 'ok';
  } catch {
    return 'failed';
  }
}
