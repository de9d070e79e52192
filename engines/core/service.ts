// What every service hands the composer (main/) and what it receives: no express here, so pure code can import it.
import type { Database } from 'better-sqlite3';
import type { JobRunner, JobTable } from './jobs/protocol.js';
import type { SearchProvider } from './search.js';

/** One numbered schema step of a service's tables. Versions start at 1 and never change once landed. */
export interface Migration {
  readonly version: number;
  /** Short, human-readable: what the step does. */
  readonly name: string;
  /** The step, in one transaction with its version recorded; with `batch`, the last step, once every batch is done. */
  up(db: Database): void;
  /**
   * Work done before `up` in batches, each its own transaction (a long copy that would hold the store in one): called
   * with the progress the previous batch returned (null the first time), it does one batch and returns its progress,
   * recorded in the same transaction, or null once nothing is left. A store stopped at any point resumes from the
   * last batch committed; the version is recorded only with `up`.
   */
  batch?(db: Database, progress: string | null): string | null;
}

/** What a service's router and library operations get from the composer. */
export interface ServiceContext {
  /** Runs jobs in worker processes (gateway/desktop) or in-process (standalone command lines). */
  readonly jobs: JobRunner;
  /** The workstation store, already migrated for this service. */
  readonly db: Database;
  /** The data directory (VITRINE_HOME). */
  readonly dataDir: string;
  /** Directory of the shipped resources/ folder. */
  readonly resourcesDir: string;
}

/** Static facts about a service, used by the gateway, the UI sidebar and the parity tests. */
export interface ServiceDescriptor {
  /** Executable and route name, for example `caseassess`. */
  readonly name: string;
  /** Human title, for example `Case assessment`. */
  readonly title: string;
  /** The app workspace that shows it, for example `Assessment`. */
  readonly workspace: string;
  readonly migrations: readonly Migration[];
  readonly jobs: JobTable;
  /** Its part of the workstation-wide search (engines/<service>/search.ts); absent: not searched. */
  readonly search?: SearchProvider;
}
