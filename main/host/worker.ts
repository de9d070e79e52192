// Worker process entry: loads the job tables named by `--jobs`, runs one job at a time and answers in the worker protocol.
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { VitrineError, serializeError } from '../../engines/core/errors.js';
import { guardRegExpBacktracking } from '../../engines/core/regexp-guard.js';
import type { JobContext, JobTable, LogLevel, WorkerToHost } from '../../engines/core/jobs/protocol.js';
import { JobSource, jobLoadersOf, jobTableOf, mergeJobTables } from './job-tables.js';
import { parseHostMessage } from './messages.js';
import { guardedSend } from './worker-send.js';

/** Least time between two progress messages of one job; the first always goes out at once. */
const PROGRESS_INTERVAL_MS = 100;

interface Channel {
  send(message: WorkerToHost): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** Electron's utility process gives `process.parentPort`; a forked Node process gives `process.send`. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

function openChannel(): Channel {
  const parentPort = (process as NodeJS.Process & { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      send: (message) => parentPort.postMessage(message),
      onMessage: (listener) => parentPort.on('message', (event) => listener(event.data)),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('the worker must be started by the engine host');
  // The host is gone: nobody will read our answers, and an orphan must not keep running.
  process.on('disconnect', () => process.exit(0));
  return {
    send: (message) => {
      // A send on a channel the host closed must never throw or leave an uncaught EPIPE: the host is gone, so are we.
      if (!process.connected) process.exit(0);
      send(message, undefined, undefined, (err: Error | null) => {
        if (err) process.exit(0);
      });
    },
    onMessage: (listener) => process.on('message', listener),
  };
}

/** The values of every `--NAME value` pair of the arguments. */
function argValues(argv: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length - 1; i++) if (argv[i] === name) out.push(argv[i + 1] as string);
  return out;
}

/**
 * The job modules named by `--jobs`: each exports `jobs` (a table, read now) or `jobLoaders` (per service, imported on
 * its first job) or both. A module with neither, or two modules giving one service a loader, is a composition bug.
 */
async function loadJobs(modules: readonly string[]): Promise<JobSource> {
  const tables: JobTable[] = [];
  const loaders = new Map<string, () => Promise<JobTable>>();
  for (const spec of modules) {
    const url = spec.startsWith('file:') ? spec : pathToFileURL(spec).href;
    const mod: unknown = await import(url);
    const table = jobTableOf(mod);
    const lazy = jobLoadersOf(mod);
    if (!table && !lazy) throw new Error('a job module exports neither a `jobs` table of functions nor `jobLoaders`');
    if (table) tables.push(table);
    for (const [service, load] of Object.entries(lazy ?? {})) {
      if (loaders.has(service)) throw new Error(`service ${service} has two job modules`);
      loaders.set(service, load);
    }
  }
  return new JobSource(mergeJobTables(tables), loaders);
}

/**
 * Imports, one after another while the worker waits for work, the tables of the services `--preload` names (`*`: every
 * service), less those `--preload-except` names, so a job rarely waits for its module. A job of a service still being
 * imported waits for that import; a table that cannot be imported fails its service's jobs, said once in the log.
 */
async function preload(source: JobSource, argv: readonly string[], log: (message: string) => void): Promise<void> {
  const named = argValues(argv, '--preload');
  const except = new Set(argValues(argv, '--preload-except'));
  const services = (named.includes('*') ? source.services() : named).filter((s) => !except.has(s) && source.services().includes(s));
  for (const service of services) {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await source.table(service);
    } catch (err) {
      log(`the jobs of ${service} cannot be loaded: ${err instanceof Error ? err.message : 'unknown error'}`);
    }
  }
}

interface Running {
  readonly id: string;
  readonly controller: AbortController;
}

/** Serves jobs from `source`; every message goes out through `send` (the worker's one guarded send). */
function serve(channel: Channel, send: (message: WorkerToHost) => void, source: JobSource): void {
  let running: Running | undefined;

  const run = async (id: string, type: string, payload: unknown): Promise<void> => {
    const controller = new AbortController();
    running = { id, controller };
    let lastProgress = 0;
    let pending: { fraction: number; message?: string } | undefined;
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      timer = undefined;
      if (!pending || running?.id !== id) return;
      lastProgress = Date.now();
      send({ kind: 'progress', id, ...pending });
      pending = undefined;
    };
    const ctx: JobContext = {
      signal: controller.signal,
      progress(fraction, message) {
        if (!Number.isFinite(fraction)) return;
        const f = Math.min(1, Math.max(0, fraction));
        pending = message === undefined ? { fraction: f } : { fraction: f, message: String(message) };
        const wait = lastProgress + PROGRESS_INTERVAL_MS - Date.now();
        if (wait <= 0) flush();
        else timer ??= setTimeout(flush, wait);
      },
      log(level: LogLevel, message: string) {
        send({ kind: 'log', id, level, message: String(message) });
      },
    };
    try {
      const handler = await source.handler(type);
      if (!handler) throw new VitrineError('not_found', 'unknown job type');
      const value = await handler(payload, ctx);
      if (timer) clearTimeout(timer);
      send({ kind: 'result', id, value });
    } catch (err) {
      if (timer) clearTimeout(timer);
      if (!(err instanceof VitrineError) && err instanceof Error) {
        // The stack stays in the host's log; the caller only sees `internal`.
        send({ kind: 'log', id, level: 'error', message: err.stack ?? err.message });
      }
      send({ kind: 'error', id, error: serializeError(err) });
    } finally {
      running = undefined;
    }
  };

  channel.onMessage((raw) => {
    const msg = parseHostMessage(raw);
    if (!msg) {
      send({ kind: 'log', level: 'error', message: 'worker received a message outside the protocol' });
      return;
    }
    if (msg.kind === 'cancel') {
      if (running?.id === msg.id) running.controller.abort(new VitrineError('cancelled', 'the job was cancelled'));
      return;
    }
    if (running) {
      send({ kind: 'error', id: msg.id, error: serializeError(new VitrineError('conflict', 'the worker is busy')) });
      return;
    }
    void run(msg.id, msg.type, msg.payload);
  });
  send({ kind: 'ready' });
}

/**
 * A busy job holds the event loop, so 'disconnect' is not seen until it yields (a killed gateway's forensic worker ran
 * on for 37 s). A thread of our own watches the parent instead: when this process is re-parented, the host is gone,
 * and the thread ends the process at once (SIGKILL: a stuck parser may ignore SIGTERM; nothing is left to save).
 */
export const PARENT_WATCH_INTERVAL_MS = 200;

function watchParent(): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    setInterval(() => { if (process.ppid !== workerData.parent) process.kill(workerData.self, 'SIGKILL'); }, workerData.interval);`;
  const thread = new Worker(code, { eval: true, workerData: { parent: process.ppid, self: process.pid, interval: PARENT_WATCH_INTERVAL_MS } });
  thread.unref();
}

async function main(): Promise<void> {
  // Ctrl+C in a terminal reaches the whole process group; the host decides when workers stop (it kills them on close).
  process.on('SIGINT', () => undefined);
  guardRegExpBacktracking();
  watchParent();
  const channel = openChannel();
  let source: JobSource;
  try {
    source = await loadJobs(argValues(process.argv, '--jobs'));
  } catch (err) {
    process.stderr.write(`vitrine worker: cannot load job tables: ${err instanceof Error ? err.message : 'unknown error'}\n`);
    process.exit(70);
  }
  // Every message of the worker, the preload's log lines too, goes through this one send.
  const send = guardedSend((message) => channel.send(message));
  serve(channel, send, source);
  void preload(source, process.argv, (message) => send({ kind: 'log', level: 'error', message }));
}

void main();
