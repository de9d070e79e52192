// One EngineHost over several worker pools: the jobs of a service with a worker profile of its own (other V8 flags) run
// in that profile's pool, started on its first job; every other job runs in the main pool.
import type { JobInfo } from '../../engines/core/contracts/gateway.js';
import { VitrineError } from '../../engines/core/errors.js';
import type { RunOptions } from '../../engines/core/jobs/protocol.js';
import { WORKER_PROFILES, defaultJobModules, jobModuleArgs, workerEntry, type WorkerProfile } from './entry.js';
import type { EngineHost, HostOptions, HostStats, JobListener, WorkerProcess } from './host.js';
import { serviceOf } from './job-tables.js';
import { WorkerPool } from './pool.js';

export class RoutedHost implements EngineHost {
  private readonly main: EngineHost;
  private readonly pools = new Map<WorkerProfile, EngineHost>();
  private readonly profileOf = new Map<string, WorkerProfile>();
  private readonly listeners = new Set<JobListener>();
  private closing: Promise<void> | undefined;

  /**
   * `startPool(undefined)` starts the main pool (at once); `startPool(profile)` a profile's pool, when its first job comes.
   * A service named by two profiles goes to the first.
   */
  constructor(
    private readonly startPool: (profile: WorkerProfile | undefined) => EngineHost,
    profiles: readonly WorkerProfile[],
  ) {
    for (const profile of profiles) for (const service of profile.services) if (!this.profileOf.has(service)) this.profileOf.set(service, profile);
    this.main = this.attach(startPool(undefined));
  }

  run(type: string, payload: unknown, options?: RunOptions): Promise<unknown> {
    if (this.closing !== undefined) return Promise.reject(new VitrineError('unavailable', 'the engine host is shutting down'));
    return this.poolFor(type).run(type, payload, options);
  }

  cancel(jobId: string): boolean {
    for (const pool of this.all()) if (pool.cancel(jobId)) return true;
    return false;
  }

  /** Newest first across the pools (by start time; a pool's own order among equal times). */
  jobs(): JobInfo[] {
    const lists = this.all().map((pool) => pool.jobs());
    if (lists.length === 1) return lists[0] ?? [];
    return lists.flat().sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
  }

  subscribe(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stats(): HostStats {
    let size = 0;
    let busy = 0;
    let queued = 0;
    let starting = 0;
    for (const pool of this.all()) {
      const s = pool.stats();
      size += s.size;
      busy += s.busy;
      queued += s.queued;
      starting += s.starting;
    }
    return { size, busy, queued, starting };
  }

  close(): Promise<void> {
    this.closing ??= Promise.all(this.all().map((pool) => pool.close())).then(() => undefined);
    return this.closing;
  }

  private all(): EngineHost[] {
    return [this.main, ...this.pools.values()];
  }

  private poolFor(type: string): EngineHost {
    const profile = this.profileOf.get(serviceOf(type));
    if (profile === undefined) return this.main;
    let pool = this.pools.get(profile);
    if (pool === undefined) {
      pool = this.attach(this.startPool(profile));
      this.pools.set(profile, pool);
    }
    return pool;
  }

  private attach(pool: EngineHost): EngineHost {
    pool.subscribe((job) => {
      for (const listener of this.listeners) listener(job);
    });
    return pool;
  }
}

/** Starts one worker process: its script, arguments and Node flags (child_process.fork or Electron's utilityProcess). */
export type StartWorker = (file: string, args: readonly string[], execArgv: readonly string[]) => WorkerProcess;

/**
 * The host both hosts build: a main pool with WORKER_V8_FLAGS and a pool per worker profile (default WORKER_PROFILES).
 * Each worker imports, while it waits for work, the job tables of the services its pool runs: a profile's pool those
 * of its services, the main pool every other.
 */
export function createRoutedHost(options: HostOptions, start: StartWorker): EngineHost {
  const modules = jobModuleArgs(options.jobModules ?? defaultJobModules());
  const profiles = options.profiles ?? WORKER_PROFILES;
  const elsewhere = ['--preload', '*', ...profiles.flatMap((p) => p.services.flatMap((service) => ['--preload-except', service]))];
  return new RoutedHost((profile) => {
    const { file, execArgv } = workerEntry(profile?.v8Flags);
    const args = [...modules, ...(profile === undefined ? elsewhere : profile.services.flatMap((service) => ['--preload', service]))];
    return new WorkerPool(() => start(file, args, execArgv), profile === undefined ? options : { ...options, size: profile.size ?? 1 });
  }, profiles);
}
