// The one typed protocol between the EngineHost and its worker processes, and the job interfaces services code against.
import type { SerializedError } from '../errors.js';

/** A message the host sends to a worker. */
export type HostToWorker =
  | {
      /** Start a job. */
      readonly kind: 'call';
      /** Unique per host; every later message about this job carries it. */
      readonly id: string;
      /** Job type, `<service>.<operation>`, looked up in the worker's job table. */
      readonly type: string;
      /** Job input; the job validates it, since it crossed a process boundary. */
      readonly payload: unknown;
    }
  | {
      /** Ask a running job to stop; the job sees its AbortSignal fire. */
      readonly kind: 'cancel';
      readonly id: string;
    };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A message a worker sends to the host. */
export type WorkerToHost =
  | {
      /** The worker has loaded its job table and takes calls. */
      readonly kind: 'ready';
    }
  | {
      readonly kind: 'result';
      readonly id: string;
      /** The job's return value (structured-clone / JSON serialisable). */
      readonly value: unknown;
    }
  | {
      readonly kind: 'error';
      readonly id: string;
      readonly error: SerializedError;
    }
  | {
      readonly kind: 'progress';
      readonly id: string;
      /** 0..1 */
      readonly fraction: number;
      readonly message?: string;
    }
  | {
      readonly kind: 'log';
      /** The job the line belongs to, when there is one. */
      readonly id?: string;
      readonly level: LogLevel;
      readonly message: string;
    };

/** What a job sees of its surroundings. */
export interface JobContext {
  /** Fires when the job is cancelled or its time limit passes. */
  readonly signal: AbortSignal;
  /** Report progress, 0..1, with an optional short message; cheap to call often (the host throttles). */
  progress(fraction: number, message?: string): void;
  log(level: LogLevel, message: string): void;
}

/** A job: validates its payload, does the work, returns a serialisable value or throws a VitrineError. */
export type JobHandler = (payload: unknown, ctx: JobContext) => unknown;

/** A service's jobs, keyed `<service>.<operation>` (each engine's jobs.ts exports one). */
export type JobTable = Readonly<Record<string, JobHandler>>;

/** Progress of one job as the host and the UI see it. */
export interface JobProgress {
  readonly fraction: number;
  readonly message?: string;
}

export interface RunOptions {
  /** Time limit for this job in milliseconds; the host's default applies when absent. */
  readonly timeoutMs?: number;
  /** Cancels the job when it fires (for example when an HTTP client goes away). */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: JobProgress) => void;
  /** A short human label for status displays, for example the file name being parsed. */
  readonly label?: string;
}

/** How services run jobs: in a worker pool (gateway, desktop) or in-process (standalone CLI). */
export interface JobRunner {
  run(type: string, payload: unknown, options?: RunOptions): Promise<unknown>;
}
