// Loaded (--import) into every Console run before its command line: when the workstation that started the run is
// gone (killed, crashed), the run and every process it started end at once instead of living on re-parented.
import { Worker } from 'node:worker_threads';

/** How often the watching thread compares the parent process id. */
export const CONSOLE_PARENT_WATCH_MS = 200;

// A thread of its own, so a command holding the event loop (a long parse) is still stopped. The run leads its own
// process group (spawned detached), so the whole group is killed; SIGKILL, since a stuck parser may ignore SIGTERM.
const code = `
  const { workerData } = require('node:worker_threads');
  setInterval(() => {
    if (process.ppid === workerData.parent) return;
    try { process.kill(-workerData.self, 'SIGKILL'); } catch { process.kill(workerData.self, 'SIGKILL'); }
  }, workerData.interval);`;
const thread = new Worker(code, { eval: true, workerData: { parent: process.ppid, self: process.pid, interval: CONSOLE_PARENT_WATCH_MS } });
thread.unref();
