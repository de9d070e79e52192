// A job module for worker tests whose texts are longer than the worker protocol takes: a service whose table cannot be
// imported, failing with a long message (the worker's preload logs it), and jobs that log or throw long texts.
import { fileURLToPath } from 'node:url';
import type { JobLoaders } from './job-tables.js';

/** Absolute path of this module, to hand a host as a job module. */
export const LONG_TEXTS_JOBS_MODULE = fileURLToPath(import.meta.url);

/** Longer than any text of a worker message may be. */
export const LONG_TEXT = 'x'.repeat(50_000);

export const jobLoaders: JobLoaders = {
  unloadable: async () => {
    throw new Error(LONG_TEXT);
  },
  long: async () => ({
    'long.pid': () => process.pid,
    'long.log': (_payload, ctx) => {
      ctx.log('warn', LONG_TEXT);
      return process.pid;
    },
    'long.throw': () => {
      throw new Error(LONG_TEXT);
    },
  }),
};
