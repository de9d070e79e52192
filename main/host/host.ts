// The EngineHost contract: a JobRunner backed by a pool of worker processes, with job status for the UI.
import type { JobInfo } from '../../engines/core/contracts/gateway.js';
import type { HostToWorker, JobRunner, LogLevel } from '../../engines/core/jobs/protocol.js';
import type { WorkerProfile } from './entry.js';

/** Pool occupancy, as GET /api/health reports it. */
export interface HostStats {
  /** Worker processes alive or starting. */
  readonly size: number;
  /** Workers running a job (or draining a cancelled one). */
  readonly busy: number;
  /** Jobs waiting for a free worker. */
  readonly queued: number;
  /** Workers counted in `size` that are still starting (not ready for a job yet): neither busy nor free. */
  readonly starting: number;
}

export type JobListener = (job: JobInfo) => void;

/** Runs jobs in worker processes; a crash or hang costs one job, never the workstation. */
export interface EngineHost extends JobRunner {
  /** Asks a queued or running job to stop; its run() call rejects with `cancelled`. False when the job is unknown or already over. */
  cancel(jobId: string): boolean;
  /** Queued, running and recently finished jobs, newest first. */
  jobs(): JobInfo[];
  /** Called on every job change (queued, started, progress (throttled), finished); returns the unsubscribe function. */
  subscribe(listener: JobListener): () => void;
  stats(): HostStats;
  /** Rejects queued and running jobs with `unavailable` and stops every worker. */
  close(): Promise<void>;
}

/** One worker process as the pool sees it, whatever started it (child_process.fork or Electron's utilityProcess). */
export interface WorkerProcess {
  readonly pid: number | undefined;
  send(message: HostToWorker): void;
  /** Every message the worker sends, unvalidated: it crossed a process boundary. */
  onMessage(listener: (message: unknown) => void): void;
  /** Once, when the process is gone (exit code, or null when killed by a signal). */
  onExit(listener: (exitCode: number | null) => void): void;
  /** Stops the process at once; a worker that hangs cannot be trusted to stop by itself. */
  kill(): void;
}

/** Starts one worker process. */
export type SpawnWorker = () => WorkerProcess;

export type HostLogger = (level: LogLevel, message: string) => void;

export interface PoolOptions {
  /** Number of worker processes; default min(2, CPUs). */
  readonly size?: number;
  /** Time limit of a job that does not name one, in milliseconds; default 10 minutes. */
  readonly defaultTimeoutMs?: number;
  /** How long a cancelled job may take to stop before its worker is killed; default 2 s. */
  readonly cancelGraceMs?: number;
  /** Least time between two progress events of one job to subscribers; default 250 ms. */
  readonly progressThrottleMs?: number;
  /** How many finished jobs jobs() keeps; default 100. */
  readonly keepFinished?: number;
  /** Where worker log lines and pool troubles go; default stderr for warn and error. */
  readonly log?: HostLogger;
}

/** What both host implementations (fork, utilityProcess) take. */
export interface HostOptions extends PoolOptions {
  /** Job modules (absolute paths), each exporting a `jobs` table or per-service `jobLoaders`; default main/jobs, every service's jobs. */
  readonly jobModules?: readonly string[];
  /** Services whose jobs run in workers with other V8 flags; default WORKER_PROFILES (main/host/entry.ts). */
  readonly profiles?: readonly WorkerProfile[];
}
