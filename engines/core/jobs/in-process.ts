// A JobRunner that runs jobs in the calling process: for standalone command lines, where the process is the job.
import { VitrineError } from '../errors.js';
import type { JobContext, JobRunner, JobTable, RunOptions } from './protocol.js';

export class InProcessRunner implements JobRunner {
  constructor(private readonly table: JobTable) {}

  async run(type: string, payload: unknown, options: RunOptions = {}): Promise<unknown> {
    const handler = this.table[type];
    if (!handler) throw new VitrineError('not_found', 'unknown job type');
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(onAbort, options.timeoutMs);
    const ctx: JobContext = {
      signal: controller.signal,
      progress: (fraction, message) => options.onProgress?.(message === undefined ? { fraction } : { fraction, message }),
      log: () => undefined,
    };
    try {
      return await handler(payload, ctx);
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}
