// An engine host with no workers, for tests of the gateway and the console that never run a job.
import type { EngineHost } from './host.js';

export const idleHost = (): EngineHost => ({
  run: () => Promise.resolve(null),
  cancel: () => false,
  jobs: () => [],
  subscribe: () => () => undefined,
  stats: () => ({ size: 0, busy: 0, queued: 0, starting: 0 }),
  close: () => Promise.resolve(),
});
