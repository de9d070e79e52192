// A JobRunner that runs jobs in the calling process: for standalone command lines, where the process is the job.
import { VitrineError } from '../errors.js';
import { ownEntry } from '../own.js';
import type { JobContext, JobRunner, JobTable, LogLevel, RunOptions } from './protocol.js';

export interface InProcessOptions {
  /** Where jobs' log lines go (dropped when absent). */
  readonly onLog?: (level: LogLevel, message: string) => void;
}

/**
 * Runs a job table's handlers directly, with the worker pool's outcomes: an unknown type is `not_found`,
 * a passed time limit rejects with `timeout` and a fired signal with `cancelled`, even if the job ignores its signal.
 */
export class InProcessRunner implements JobRunner {
  constructor(
    private readonly table: JobTable,
    private readonly options: InProcessOptions = {},
  ) {}

  async run(type: string, payload: unknown, options: RunOptions = {}): Promise<unknown> {
    const handler = ownEntry(this.table, type);
    if (!handler) throw new VitrineError('not_found', 'unknown job type');
    if (options.signal?.aborted) throw new VitrineError('cancelled', 'the job was cancelled');
    const controller = new AbortController();
    let stop: ((reason: VitrineError) => void) | undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      stop = (reason) => {
        // Reject first, so the runner's outcome wins over whatever the job throws from its abort listener.
        reject(reason);
        if (!controller.signal.aborted) controller.abort(reason);
      };
    });
    const onAbort = (): void => stop?.(new VitrineError('cancelled', 'the job was cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => stop?.(new VitrineError('timeout', 'the job took longer than its time limit')), options.timeoutMs);
    const ctx: JobContext = {
      signal: controller.signal,
      progress: (fraction, message) => {
        if (controller.signal.aborted || !Number.isFinite(fraction)) return;
        const clamped = Math.min(1, Math.max(0, fraction));
        options.onProgress?.(message === undefined ? { fraction: clamped } : { fraction: clamped, message });
      },
      log: (level, message) => this.options.onLog?.(level, message),
    };
    const work = Promise.resolve().then(() => handler(payload, ctx));
    // A job that ignores its signal may still settle later; that outcome is no longer anyone's concern.
    work.catch(() => undefined);
    stopped.catch(() => undefined);
    try {
      return await Promise.race([work, stopped]);
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}
