// One parameterised suite over both pkgscan backends: `backendCases` lists SQLite and PostgreSQL (skipped only outside
// CI when the server is not installed); `openBackend` gives a fresh, migrated store of either kind.
import type { Database } from 'better-sqlite3';
import { afterAll } from 'vitest';
import { openMemoryStore } from '../../engines/core/store.js';
import { closeSharedDatabases, MigratingDb } from '../../engines/pkgscan/db/open.js';
import { PgDb } from '../../engines/pkgscan/db/postgres.js';
import { SqliteDb } from '../../engines/pkgscan/db/sqlite.js';
import type { AsyncDb } from '../../engines/pkgscan/db/types.js';
import { pkgscanService } from '../../engines/pkgscan/service.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON, startCluster, type Cluster } from './cluster.js';

export type BackendName = 'sqlite' | 'postgres';

export interface BackendCase {
  readonly name: BackendName;
  readonly skip: boolean;
  /** The suite's title: the backend, and why it is skipped when it is. */
  readonly title: string;
}

export const backendCases: readonly BackendCase[] = [
  { name: 'sqlite', skip: false, title: 'sqlite' },
  { name: 'postgres', skip: SKIP_POSTGRES, title: SKIP_POSTGRES ? `postgres (skipped: ${SKIP_POSTGRES_REASON})` : 'postgres' },
];

export interface OpenedBackend {
  /** The workstation store (on PostgreSQL: the local store of the concerns not yet moved). */
  readonly sqlite: Database;
  /** The async store the converted repositories use. */
  readonly store: AsyncDb;
  /** The PostgreSQL URL (undefined on SQLite). */
  readonly url: string | undefined;
  /** Another pool on the same database: a second server. */
  another(): AsyncDb;
}

/**
 * Registers the cleanup of this test file (pools closed, cluster stopped and removed) and returns the opener.
 * The cluster starts on the first PostgreSQL use; each open gives a new empty database.
 */
export function backendFixture(): { open(name: BackendName): Promise<OpenedBackend>; cluster(): Promise<Cluster> } {
  let cluster: Promise<Cluster> | undefined;
  const opened: AsyncDb[] = [];
  let n = 0;
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close().catch(() => undefined)));
    await closeSharedDatabases();
    if (cluster) (await cluster).stop();
  });
  const getCluster = (): Promise<Cluster> => (cluster ??= startCluster());
  return {
    cluster: getCluster,
    async open(name: BackendName): Promise<OpenedBackend> {
      const sqlite = openMemoryStore([pkgscanService]);
      if (name === 'sqlite') {
        const store = new SqliteDb(sqlite);
        return { sqlite, store, url: undefined, another: () => store };
      }
      const c = await getCluster();
      n++;
      const url = await c.createDatabase(`pkgscan_${process.pid}_${n}`);
      const store = new MigratingDb(new PgDb({ url, max: 5 }));
      opened.push(store);
      await store.migrate();
      return {
        sqlite,
        store,
        url,
        another() {
          const db = new MigratingDb(new PgDb({ url, max: 5 }));
          opened.push(db);
          return db;
        },
      };
    },
  };
}
