// The store checks readiness reports: the workstation store (users, lookup cache) and the shared database.
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { backendFixture } from '../../../test/postgres/backends.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON } from '../../../test/postgres/cluster.js';
import { pkgscanService } from '../service.js';
import { localStoreChecks, sharedStoreCheck } from './health.js';
import { PgDb } from './postgres.js';

const fixture = backendFixture();

describe('store checks', () => {
  it('the workstation store answers while open and fails once closed', () => {
    const db = openMemoryStore([pkgscanService]);
    expect(localStoreChecks(db)).toEqual({ database: 'ok', cache: 'ok' });
    db.close();
    expect(localStoreChecks(db)).toEqual({ database: 'failed', cache: 'failed' });
  });

  it.skipIf(SKIP_POSTGRES)(`the shared database: ok when migrated, failed when unreachable or not migrated${SKIP_POSTGRES ? ` (skipped: ${SKIP_POSTGRES_REASON})` : ''}`, async () => {
    const b = await fixture.open('postgres');
    expect(await sharedStoreCheck(b.store)).toBe('ok');
    const c = await fixture.cluster();
    // A database that does not exist, and one that exists but was never migrated (no user table).
    const missing = new PgDb({ url: c.url(`no_such_db_${process.pid}`), max: 1 });
    const empty = new PgDb({ url: await c.createDatabase(`empty_${process.pid}`), max: 1 });
    try {
      expect(await sharedStoreCheck(missing)).toBe('failed');
      expect(await sharedStoreCheck(empty)).toBe('failed');
    } finally {
      await Promise.all([missing.close(), empty.close()]);
    }
  }, 60_000);
});
