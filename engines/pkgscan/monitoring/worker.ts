// The scheduled monitoring loop (`pkgscan worker`): claims leases on due packages in the store (shared by every worker on PostgreSQL), checks them, sleeps a tick, stops on its signal.
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { MonitorCheck } from '../../core/contracts/pkgscan-monitoring.js';
import { terminalValue } from '../../core/terminal-text.js';
import type { Platform } from '../platform.js';
import type { ScanDeps } from '../scans/scan.js';
import { claimDueLeases, releaseLease } from '../db/leases.js';
import { checkPackage, DEFAULT_LEASE_MS } from './monitoring.js';

export const DEFAULT_TICK_MS = 30_000;
/** Packages claimed at a time: a claim is a lease, so a worker holds no more than it checks soon. */
export const DEFAULT_BATCH = 8;
/** The actor the worker's diffs and events are recorded under. */
export const WORKER_ACTOR = 'monitoring-worker';

export interface WorkerOptions {
  readonly signal: AbortSignal;
  /** Pause between rounds when nothing was due (default 30 s). */
  readonly tickMs?: number;
  readonly batch?: number;
  readonly leaseMs?: number;
  /** Names this worker's claims (default a random id). */
  readonly workerId?: string;
  /** Told about each finished check (logs, tests). */
  readonly onCheck?: (check: MonitorCheck) => void;
  /** Told about a check that threw outside its own recording (a store failure). */
  readonly onError?: (err: unknown) => void;
}

export interface WorkerStats {
  readonly rounds: number;
  readonly checks: number;
  readonly errors: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs until `signal` fires: each round claims leases on up to `batch` due packages (FOR UPDATE SKIP LOCKED on
 * PostgreSQL, one UPDATE under the write lock on SQLite, so two workers never take the same one), checks them one after
 * another (each check renews its lease while it runs), and sleeps a tick when nothing was due. Everything it knows is in the
 * store, so a restarted worker goes on where the last one stopped; claims left by a dead worker expire after the lease.
 */
export async function runMonitoringWorker(p: Platform, deps: ScanDeps, options: WorkerOptions): Promise<WorkerStats> {
  const owner = options.workerId ?? `worker:${randomUUID()}`;
  const tickMs = options.tickMs ?? DEFAULT_TICK_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let rounds = 0;
  let checks = 0;
  let errors = 0;
  while (!options.signal.aborted) {
    rounds++;
    let claimed: string[] = [];
    try {
      claimed = await claimDueLeases(p.store, owner, options.batch ?? DEFAULT_BATCH, Date.now(), leaseMs);
    } catch (err) {
      // A busy or unreachable store (another process holding the write lock past the timeout, a lost connection) is retried next tick.
      errors++;
      options.onError?.(err);
    }
    for (const [i, id] of claimed.entries()) {
      if (options.signal.aborted) {
        for (const rest of claimed.slice(i)) await releaseLease(p.store, rest, owner).catch(() => undefined);
        break;
      }
      try {
        const c = await checkPackage(p, deps, id, WORKER_ACTOR, { trigger: 'scheduled', claim: owner, leaseMs, signal: options.signal, requestId: null });
        checks++;
        options.onCheck?.(c);
      } catch (err) {
        errors++;
        // The lease goes back (an unreachable store lets it run out instead): the package is due again.
        await releaseLease(p.store, id, owner).catch(() => undefined);
        if (!options.signal.aborted) options.onError?.(err);
      }
    }
    if (claimed.length === 0) await sleep(tickMs, options.signal);
  }
  return { rounds, checks, errors };
}

/** How often the worker process looks for its parent. */
export const PARENT_WATCH_INTERVAL_MS = 500;

/**
 * The rule main/host/worker.ts applies to engine workers: a check may hold the event loop, so a thread of our own
 * watches the parent, and when this process is re-parented (the gateway died) it ends the process at once.
 */
export function exitWithParent(intervalMs: number = PARENT_WATCH_INTERVAL_MS): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    setInterval(() => { if (process.ppid !== workerData.parent) process.kill(workerData.self, 'SIGKILL'); }, workerData.interval);`;
  const thread = new Worker(code, { eval: true, workerData: { parent: process.ppid, self: process.pid, interval: intervalMs } });
  thread.unref();
}

/**
 * What `pkgscan worker` runs: the loop until SIGTERM or SIGINT (finishing nothing half-way: a cancelled check records
 * nothing and stays due), and the process ends with its parent when started by a supervisor (`--supervised`).
 */
export async function runWorkerProcess(p: Platform, deps: ScanDeps, options: { readonly tickMs?: number; readonly supervised?: boolean; readonly log?: (line: string) => void } = {}): Promise<WorkerStats> {
  if (options.supervised === true) exitWithParent();
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const log = options.log ?? ((line: string) => process.stderr.write(`${terminalValue(line)}\n`));
  try {
    log(`pkgscan worker: started (pid ${process.pid})`);
    return await runMonitoringWorker(p, deps, {
      signal: controller.signal,
      ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
      onCheck: (c) => log(`pkgscan worker: ${c.package_id} ${c.result}${c.error !== null ? ` (${c.error.code})` : ''}`),
      onError: (err) => log(`pkgscan worker: round failed: ${err instanceof Error ? err.message.slice(0, 200) : 'unknown error'}`),
    });
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}
