// The worker pool behind every EngineHost: FIFO queue, one job per worker, time limits, cancellation, crash recovery.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { JobInfo } from '../../engines/core/contracts/gateway.js';
import { VitrineError, deserializeError } from '../../engines/core/errors.js';
import type { JobProgress, LogLevel, RunOptions } from '../../engines/core/jobs/protocol.js';
import type { EngineHost, HostLogger, HostStats, JobListener, PoolOptions, SpawnWorker, WorkerProcess } from './host.js';
import { serviceOf } from './job-tables.js';
import { parseWorkerMessage } from './messages.js';

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_CANCEL_GRACE_MS = 2_000;
const DEFAULT_PROGRESS_THROTTLE_MS = 250;
const DEFAULT_KEEP_FINISHED = 100;
/** setTimeout's ceiling; a larger delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;
/** Consecutive workers dying before they report ready, per slot, before the pool gives up (a broken build, not a bad job). */
const START_FAILURES_PER_SLOT = 3;

type MutableJobInfo = { -readonly [K in keyof JobInfo]: JobInfo[K] };

interface Job {
  readonly id: string;
  readonly type: string;
  readonly payload: unknown;
  readonly options: RunOptions;
  readonly info: MutableJobInfo;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: VitrineError) => void;
  settled: boolean;
  slot: Slot | undefined;
  timer: NodeJS.Timeout | undefined;
  progressTimer: NodeJS.Timeout | undefined;
  /** When subscribers last heard of this job's progress (0: never, so the first progress goes out at once). */
  lastProgressEmit: number;
  detachSignal: (() => void) | undefined;
}

interface Slot {
  readonly index: number;
  readonly proc: WorkerProcess;
  /** The worker said ready and has not been retired. */
  ready: boolean;
  /** Killed on purpose (time limit, cancel grace, protocol breach, close); its exit is expected. */
  retiring: boolean;
  exited: boolean;
  /** The job occupying the worker, also while a cancelled job drains. */
  job: Job | undefined;
  graceTimer: NodeJS.Timeout | undefined;
}

function defaultLogger(level: LogLevel, message: string): void {
  if (level === 'warn' || level === 'error') process.stderr.write(`vitrine engine host: ${message}\n`);
}


export class WorkerPool implements EngineHost {
  private readonly size: number;
  private readonly defaultTimeoutMs: number;
  private readonly cancelGraceMs: number;
  private readonly progressThrottleMs: number;
  private readonly keepFinished: number;
  private readonly log: HostLogger;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  /** Every job jobs() shows, in submission order. */
  private readonly tracked = new Map<string, Job>();
  private readonly finishedIds: string[] = [];
  private readonly listeners = new Set<JobListener>();
  private startFailures = 0;
  private broken = false;
  private closing: Promise<void> | undefined;
  private onAllExited: (() => void) | undefined;

  constructor(
    private readonly spawn: SpawnWorker,
    options: PoolOptions = {},
  ) {
    this.size = Math.max(1, Math.floor(options.size ?? Math.min(2, availableParallelism())));
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    this.progressThrottleMs = options.progressThrottleMs ?? DEFAULT_PROGRESS_THROTTLE_MS;
    this.keepFinished = options.keepFinished ?? DEFAULT_KEEP_FINISHED;
    this.log = options.log ?? defaultLogger;
    for (let i = 0; i < this.size; i++) this.slots.push(this.startSlot(i));
    this.dispatch();
  }

  run(type: string, payload: unknown, options: RunOptions = {}): Promise<unknown> {
    if (this.closing !== undefined) return Promise.reject(new VitrineError('unavailable', 'the engine host is shutting down'));
    if (this.broken) return Promise.reject(new VitrineError('unavailable', 'engine worker processes fail to start'));
    if (options.signal?.aborted) return Promise.reject(new VitrineError('cancelled', 'the job was cancelled'));
    return new Promise<unknown>((resolve, reject) => {
      const id = randomUUID();
      const info: MutableJobInfo = {
        id,
        service: serviceOf(type),
        type,
        state: 'queued',
        fraction: 0,
        started_at: new Date().toISOString(),
      };
      if (options.label !== undefined) info.label = options.label;
      const job: Job = {
        id,
        type,
        payload,
        options,
        info,
        resolve,
        reject,
        settled: false,
        slot: undefined,
        timer: undefined,
        progressTimer: undefined,
        lastProgressEmit: 0,
        detachSignal: undefined,
      };
      const signal = options.signal;
      if (signal) {
        const onAbort = (): void => {
          this.cancel(id);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        job.detachSignal = () => signal.removeEventListener('abort', onAbort);
      }
      this.tracked.set(id, job);
      this.queue.push(job);
      this.emit(job);
      this.dispatch();
    });
  }

  cancel(jobId: string): boolean {
    const job = this.tracked.get(jobId);
    if (!job || job.settled) return false;
    const slot = job.slot;
    if (!slot) {
      const at = this.queue.indexOf(job);
      if (at !== -1) this.queue.splice(at, 1);
      this.settle(job, 'cancelled', new VitrineError('cancelled', 'the job was cancelled'));
      return true;
    }
    this.settle(job, 'cancelled', new VitrineError('cancelled', 'the job was cancelled'));
    this.trySend(slot, { kind: 'cancel', id: job.id });
    // The worker stays occupied until the job stops; one that does not stop in time is killed and replaced.
    slot.graceTimer = setTimeout(() => {
      if (slot.job === job) {
        this.log('warn', `a cancelled ${job.type} job did not stop in time; replacing its worker`);
        this.retire(slot);
      }
    }, Math.min(this.cancelGraceMs, MAX_TIMER_MS));
    return true;
  }

  jobs(): JobInfo[] {
    return [...this.tracked.values()].reverse().map((job) => ({ ...job.info }));
  }

  subscribe(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stats(): HostStats {
    const live = this.slots.filter((s) => !s.exited);
    return {
      size: live.length,
      busy: live.filter((s) => s.job !== undefined).length,
      queued: this.queue.length,
      starting: live.filter((s) => !s.ready && !s.retiring).length,
    };
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closing = new Promise<void>((resolve) => {
      const shutdown = (): VitrineError => new VitrineError('unavailable', 'the engine host is shutting down');
      for (const job of this.queue.splice(0)) this.settle(job, 'failed', shutdown());
      for (const slot of this.slots) {
        if (slot.job && !slot.job.settled) this.settle(slot.job, 'failed', shutdown());
      }
      const allExited = (): boolean => this.slots.every((s) => s.exited);
      if (allExited()) {
        resolve();
        return;
      }
      // SIGKILL always ends a process; the cap only guards against a platform that never reports the exit.
      const cap = setTimeout(resolve, 5_000);
      cap.unref();
      this.onAllExited = () => {
        if (allExited()) {
          clearTimeout(cap);
          resolve();
        }
      };
      for (const slot of this.slots) if (!slot.exited) this.retire(slot);
    });
    return this.closing;
  }

  private startSlot(index: number): Slot {
    let proc: WorkerProcess;
    try {
      proc = this.spawn();
    } catch {
      this.log('error', 'a worker process could not be started');
      const dead: Slot = { index, proc: deadProcess, ready: false, retiring: false, exited: true, job: undefined, graceTimer: undefined };
      return dead;
    }
    const slot: Slot = { index, proc, ready: false, retiring: false, exited: false, job: undefined, graceTimer: undefined };
    proc.onMessage((message) => this.onMessage(slot, message));
    proc.onExit((code) => this.onExit(slot, code));
    return slot;
  }

  private onMessage(slot: Slot, raw: unknown): void {
    if (slot.exited || slot.retiring) return;
    const msg = parseWorkerMessage(raw);
    if (!msg) {
      this.log('error', 'a worker sent a message outside the protocol; replacing it');
      const job = slot.job;
      if (job && !job.settled) this.settle(job, 'failed', new VitrineError('internal', 'the worker broke the job protocol'));
      this.retire(slot);
      return;
    }
    switch (msg.kind) {
      case 'ready':
        slot.ready = true;
        this.startFailures = 0;
        this.dispatch();
        return;
      case 'log': {
        const job = msg.id === undefined ? undefined : this.tracked.get(msg.id);
        this.log(msg.level, job ? `${job.type}: ${msg.message}` : msg.message);
        return;
      }
      case 'progress': {
        const job = slot.job;
        if (!job || job.id !== msg.id || job.settled) return;
        job.info.fraction = msg.fraction;
        if (msg.message !== undefined) job.info.message = msg.message;
        const progress: JobProgress = msg.message === undefined ? { fraction: msg.fraction } : { fraction: msg.fraction, message: msg.message };
        try {
          job.options.onProgress?.(progress);
        } catch {
          this.log('warn', 'a progress listener threw');
        }
        // The listener may have cancelled the job; its final event is already out.
        if (!job.settled) this.emitThrottled(job);
        return;
      }
      case 'result':
      case 'error': {
        const job = slot.job;
        if (!job || job.id !== msg.id) return;
        this.release(slot);
        if (msg.kind === 'result') this.settle(job, 'succeeded', msg.value);
        else this.settle(job, 'failed', deserializeError(msg.error));
        this.dispatch();
        return;
      }
    }
  }

  private onExit(slot: Slot, exitCode: number | null): void {
    if (slot.exited) return;
    slot.exited = true;
    if (slot.graceTimer) clearTimeout(slot.graceTimer);
    const job = slot.job;
    slot.job = undefined;
    if (job && !job.settled)
      this.settle(job, 'failed', new VitrineError('worker_exited', 'the worker process exited during the job', { exitCode }));
    if (!slot.ready && !slot.retiring) this.startFailures++;
    if (this.closing) {
      this.onAllExited?.();
      return;
    }
    if (this.broken) return;
    if (this.startFailures >= START_FAILURES_PER_SLOT * this.size) {
      this.giveUp();
      return;
    }
    if (!slot.retiring) this.log('warn', `a worker process exited (code ${exitCode === null ? 'none' : exitCode}); starting another`);
    this.slots[slot.index] = this.startSlot(slot.index);
    this.dispatch();
  }

  /** Workers keep dying before they are ready: queued work cannot run, so say so rather than retry forever. */
  private giveUp(): void {
    if (this.broken) return;
    this.broken = true;
    this.log('error', 'engine worker processes keep failing to start; no more jobs will run');
    for (const job of this.queue.splice(0)) this.settle(job, 'failed', new VitrineError('unavailable', 'engine worker processes fail to start'));
  }

  private dispatch(): void {
    if (this.closing || this.broken) return;
    if (this.slots.length === this.size && this.slots.every((s) => s.exited)) {
      this.giveUp();
      return;
    }
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.retiring || slot.exited || slot.job) continue;
      const job = this.queue.shift();
      if (job) this.start(job, slot);
    }
  }

  private start(job: Job, slot: Slot): void {
    slot.job = job;
    job.slot = slot;
    job.info.state = 'running';
    job.info.started_at = new Date().toISOString();
    const limit = Math.max(1, Math.min(job.options.timeoutMs ?? this.defaultTimeoutMs, MAX_TIMER_MS));
    job.timer = setTimeout(() => {
      if (job.settled) return;
      this.settle(job, 'failed', new VitrineError('timeout', 'the job took longer than its time limit'));
      // A job past its limit may be stuck in a loop that never checks its signal: only a new process is trustworthy.
      this.retire(slot);
    }, limit);
    this.emit(job);
    if (!this.trySend(slot, { kind: 'call', id: job.id, type: job.type, payload: job.payload })) {
      this.release(slot);
      this.settle(job, 'failed', new VitrineError('bad_request', 'the job input cannot be sent to a worker process'));
      this.dispatch();
    }
  }

  private trySend(slot: Slot, message: Parameters<WorkerProcess['send']>[0]): boolean {
    try {
      slot.proc.send(message);
      return true;
    } catch {
      return false;
    }
  }

  private release(slot: Slot): void {
    slot.job = undefined;
    if (slot.graceTimer) clearTimeout(slot.graceTimer);
    slot.graceTimer = undefined;
  }

  /** Kills a worker; its exit event replaces it (unless the pool is closing). */
  private retire(slot: Slot): void {
    if (slot.exited) return;
    slot.retiring = true;
    slot.ready = false;
    try {
      slot.proc.kill();
    } catch {
      this.log('error', 'a worker process could not be killed');
    }
  }

  private settle(job: Job, state: 'succeeded' | 'failed' | 'cancelled', outcome: unknown): void {
    if (job.settled) return;
    job.settled = true;
    if (job.timer) clearTimeout(job.timer);
    if (job.progressTimer) clearTimeout(job.progressTimer);
    job.detachSignal?.();
    job.info.state = state;
    job.info.finished_at = new Date().toISOString();
    if (state === 'succeeded') job.info.fraction = 1;
    if (outcome instanceof VitrineError) job.info.error = { code: outcome.code, message: outcome.message };
    this.emit(job);
    this.finishedIds.push(job.id);
    while (this.finishedIds.length > this.keepFinished) {
      const old = this.finishedIds.shift();
      if (old !== undefined) this.tracked.delete(old);
    }
    if (state === 'succeeded') job.resolve(outcome);
    else job.reject(outcome instanceof VitrineError ? outcome : new VitrineError('internal', 'internal error'));
  }

  private emitThrottled(job: Job): void {
    const wait = job.lastProgressEmit + this.progressThrottleMs - Date.now();
    if (wait <= 0) {
      job.lastProgressEmit = Date.now();
      this.emit(job);
      return;
    }
    // A trailing event, so the last progress before a pause is not lost.
    job.progressTimer ??= setTimeout(() => {
      job.progressTimer = undefined;
      job.lastProgressEmit = Date.now();
      if (!job.settled) this.emit(job);
    }, wait);
  }

  private emit(job: Job): void {
    const snapshot: JobInfo = { ...job.info };
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        this.log('warn', 'a job listener threw');
      }
    }
  }
}

/** Stands in for a worker that could not be started, so the slot reads as exited. */
const deadProcess: WorkerProcess = {
  pid: undefined,
  send: () => {
    throw new VitrineError('unavailable', 'worker process is not running');
  },
  onMessage: () => undefined,
  onExit: () => undefined,
  kill: () => undefined,
};
