// How a worker process reaches the pkgscan store: the decision every job payload that writes the store takes from
// here, so route handlers never look at the backend.
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { AsyncDb } from './types.js';

/** What a job payload carries to open the store in the worker: the store file (absolute) or the shared database's URL. */
export type WorkerConnection = { readonly database: string } | { readonly databaseUrl: string };

export type WorkerStoreTarget =
  /** A SQLite store in memory (tests, a serve without VITRINE_HOME): no other process reaches it, so the job runs here. */
  | { readonly inProcess: true }
  | {
      readonly inProcess: false;
      readonly connection: WorkerConnection;
      /**
       * True on the shared PostgreSQL database: the worker appends the job's audit entries in the job's own
       * transactions. False on the store file: the caller records them.
       */
      readonly auditsInJob: boolean;
    };

/**
 * How a worker reaches the store: in this process for an in-memory SQLite store; by URL (audits in the job) when the
 * repositories are on the shared PostgreSQL database named by `databaseUrl`; else by the workstation store's file.
 */
export function workerStoreTarget(local: Database, store: AsyncDb, databaseUrl: string | undefined): WorkerStoreTarget {
  if (store.dialect === 'sqlite' && local.memory) return { inProcess: true };
  if (databaseUrl !== undefined && store.dialect === 'postgres') return { inProcess: false, connection: { databaseUrl }, auditsInJob: true };
  return { inProcess: false, connection: { database: path.resolve(local.name) }, auditsInJob: false };
}
