// The headless EngineHost against real worker processes: results, progress, errors, crashes, hangs, cancellation, queueing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../engines/core/contracts/gateway.js';
import { VitrineError } from '../../engines/core/errors.js';
import { firstLinePid, isRunning } from '../../engines/core/process.fixture.js';
import { WORKER_JOBS_MODULE } from '../../test/fixtures/worker-jobs.js';
import { WORKER_V8_FLAGS } from './entry.js';
import { createForkHost, type ForkHostOptions } from './fork-host.js';
import type { EngineHost } from './host.js';

const hosts: EngineHost[] = [];

function host(options: Omit<ForkHostOptions, 'jobModules'> = {}): EngineHost {
  const h = createForkHost({ size: 1, jobModules: [WORKER_JOBS_MODULE], log: () => undefined, ...options });
  hosts.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function rejection(promise: Promise<unknown>): Promise<VitrineError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    return err as VitrineError;
  }
  throw new Error('expected the job to fail');
}

/** Resolves with the first job event that matches. */
function nextEvent(h: EngineHost, match: (job: JobInfo) => boolean): Promise<JobInfo> {
  return new Promise((resolve) => {
    const off = h.subscribe((job) => {
      if (match(job)) {
        off();
        resolve(job);
      }
    });
  });
}

describe('fork EngineHost', () => {
  it('runs a job in a worker process and returns its value', async () => {
    const h = host();
    await expect(h.run('test.echo', { a: [1, 2], b: 'x', bytes: new Uint8Array([1, 2, 3]) })).resolves.toEqual({
      a: [1, 2],
      b: 'x',
      bytes: new Uint8Array([1, 2, 3]),
    });
    const pid = await h.run('test.pid', null);
    expect(pid).not.toBe(process.pid);
  });

  it('starts its workers with the V8 flags of every engine worker', async () => {
    expect.hasAssertions();
    const argv = (await host().run('test.execArgv', null)) as string[];
    for (const flag of WORKER_V8_FLAGS) expect(argv).toContain(flag);
  });

  it('runs the jobs of a profile\'s services in workers with the profile\'s flags, started on the first such job', async () => {
    const h = host({ profiles: [{ name: 'lean', services: ['test'], v8Flags: ['--heap-growing-percent=20'] }] });
    expect(h.stats().size).toBe(1);
    const events: JobInfo[] = [];
    h.subscribe((job) => events.push(job));
    const argv = (await h.run('test.execArgv', null)) as string[];
    expect(argv).toContain('--heap-growing-percent=20');
    for (const flag of WORKER_V8_FLAGS) expect(argv).not.toContain(flag);
    // The main pool's worker may still be starting.
    expect(h.stats()).toMatchObject({ size: 2, busy: 0, queued: 0 });
    expect(events.map((e) => e.state)).toContain('succeeded');
    const running = nextEvent(h, (j) => j.type === 'test.block' && j.state === 'running');
    const call = h.run('test.block', null);
    const job = await running;
    expect(h.stats().busy).toBe(1);
    expect(h.cancel(job.id)).toBe(true);
    expect((await rejection(call)).code).toBe('cancelled');
    expect(h.jobs().map((j) => j.type)).toEqual(['test.block', 'test.execArgv']);
  });

  it('reports progress to the caller and to subscribers, and lists the finished job', async () => {
    const h = host();
    const events: JobInfo[] = [];
    h.subscribe((job) => events.push(job));
    const progress: unknown[] = [];
    const value = await h.run('test.progress', null, { label: 'fixture', onProgress: (p) => progress.push(p) });
    expect(value).toBe('finished');
    expect(progress[0]).toEqual({ fraction: 0.5, message: 'half way' });
    const states = events.map((e) => e.state);
    expect(states[0]).toBe('queued');
    expect(states).toContain('running');
    expect(events.some((e) => e.state === 'running' && e.fraction === 0.5 && e.message === 'half way')).toBe(true);
    const last = events.at(-1);
    expect(last).toMatchObject({ state: 'succeeded', fraction: 1, type: 'test.progress', service: 'test', label: 'fixture' });
    expect(last?.finished_at).toBeDefined();
    expect(h.jobs()[0]).toMatchObject({ id: last?.id, state: 'succeeded' });
  });

  it('carries a VitrineError across the process boundary intact', async () => {
    const h = host();
    const err = await rejection(h.run('test.fail', null));
    expect(err.code).toBe('validation_failed');
    expect(err.message).toBe('invalid case at techniques[0]: expected string');
    expect(err.details).toEqual([{ path: 'techniques[0]', issue: 'expected string' }]);
    expect(h.jobs()[0]).toMatchObject({ state: 'failed', error: { code: 'validation_failed' } });
  });

  it('turns any other error into internal without its message', async () => {
    const h = host();
    const err = await rejection(h.run('test.throw', null));
    expect(err.code).toBe('internal');
    expect(err.message).not.toContain('secret');
  });

  it('rejects an unknown job type with not_found', async () => {
    const h = host();
    expect((await rejection(h.run('test.nothing', null))).code).toBe('not_found');
  });

  it('rejects a job whose result cannot cross the boundary, and keeps serving', async () => {
    const h = host();
    expect((await rejection(h.run('test.unsendable', null))).code).toBe('internal');
    await expect(h.run('test.echo', 1)).resolves.toBe(1);
  });

  it('rejects a crashed job with worker_exited and its exit code, then serves the next job from a new worker', async () => {
    const h = host();
    const before = await h.run('test.pid', null);
    const err = await rejection(h.run('test.crash', null));
    expect(err.code).toBe('worker_exited');
    expect(err.exitCode).toBe(3);
    const after = await h.run('test.pid', null);
    expect(after).not.toBe(before);
    expect(h.stats()).toEqual({ size: 1, busy: 0, queued: 0, starting: 0 });
  });

  it('times out a hung job, kills its worker and replaces it', async () => {
    const h = host();
    const before = await h.run('test.pid', null);
    const err = await rejection(h.run('test.hang', null, { timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    // The only worker was spinning: an answer proves it was replaced.
    const after = await h.run('test.pid', null);
    expect(after).not.toBe(before);
  });

  it('applies the default time limit when a job names none', async () => {
    const h = host({ defaultTimeoutMs: 300 });
    expect((await rejection(h.run('test.hang', null))).code).toBe('timeout');
    await expect(h.run('test.echo', 'next')).resolves.toBe('next');
  });

  it('cancels a running job through cancel(jobId); the worker stays and serves the next job', async () => {
    const h = host();
    const before = await h.run('test.pid', null);
    const running = nextEvent(h, (j) => j.type === 'test.block' && j.state === 'running');
    const call = h.run('test.block', null);
    const job = await running;
    expect(h.cancel(job.id)).toBe(true);
    expect((await rejection(call)).code).toBe('cancelled');
    expect(h.cancel(job.id)).toBe(false);
    expect(await h.run('test.pid', null)).toBe(before);
    expect(h.jobs().find((j) => j.id === job.id)?.state).toBe('cancelled');
  });

  it('cancels through an AbortSignal', async () => {
    const h = host();
    const controller = new AbortController();
    const call = h.run('test.block', null, { signal: controller.signal, onProgress: () => controller.abort() });
    expect((await rejection(call)).code).toBe('cancelled');
    await expect(h.run('test.echo', 2)).resolves.toBe(2);
    const aborted = new AbortController();
    aborted.abort();
    expect((await rejection(h.run('test.echo', 3, { signal: aborted.signal }))).code).toBe('cancelled');
  });

  it('kills and replaces a worker whose cancelled job does not stop within the grace period', async () => {
    const h = host({ cancelGraceMs: 200 });
    const before = await h.run('test.pid', null);
    const controller = new AbortController();
    // The hang job never reports progress; wait for it to be handed to the worker, then cancel.
    const running = nextEvent(h, (j) => j.type === 'test.hang' && j.state === 'running');
    const call = h.run('test.hang', null, { signal: controller.signal });
    await running;
    controller.abort();
    expect((await rejection(call)).code).toBe('cancelled');
    const after = await h.run('test.pid', null);
    expect(after).not.toBe(before);
  });

  it('queues jobs beyond the pool size in order and runs them as workers free up', async () => {
    const h = host();
    const running = nextEvent(h, (j) => j.type === 'test.block' && j.state === 'running');
    const blocked = h.run('test.block', null);
    const first = h.run('test.echo', 'first');
    const second = h.run('test.echo', 'second');
    const order: string[] = [];
    void first.then((v) => order.push(String(v)));
    void second.then((v) => order.push(String(v)));
    const job = await running;
    expect(h.stats()).toEqual({ size: 1, busy: 1, queued: 2, starting: 0 });
    expect(h.jobs().map((j) => j.state)).toEqual(['queued', 'queued', 'running']);
    h.cancel(job.id);
    await expect(blocked).rejects.toMatchObject({ code: 'cancelled' });
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });

  it('cancels a queued job without running it', async () => {
    const h = host();
    const running = nextEvent(h, (j) => j.type === 'test.block' && j.state === 'running');
    const blocked = h.run('test.block', null);
    const job = await running;
    const queued = nextEvent(h, (j) => j.type === 'test.echo' && j.state === 'queued');
    const call = h.run('test.echo', 'never');
    const info = await queued;
    expect(h.cancel(info.id)).toBe(true);
    expect((await rejection(call)).code).toBe('cancelled');
    h.cancel(job.id);
    await expect(blocked).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('counts workers that are still starting apart from free and busy ones, a job queued behind them', async () => {
    const h = host({ size: 2, profiles: [] });
    // Spawned, not ready: neither busy nor free; the job waits for them.
    const call = h.run('test.echo', 'waited');
    expect(h.stats()).toEqual({ size: 2, busy: 0, queued: 1, starting: 2 });
    await expect(call).resolves.toBe('waited');
    for (let i = 0; i < 200 && h.stats().starting > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(h.stats()).toEqual({ size: 2, busy: 0, queued: 0, starting: 0 });
  });

  it("a profile's pool started by its first job counts its worker as starting while the job waits", async () => {
    const h = host({ profiles: [{ name: 'lean', services: ['test'], v8Flags: ['--heap-growing-percent=20'] }] });
    const call = h.run('test.echo', 'lean');
    const stats = h.stats();
    expect(stats).toMatchObject({ size: 2, busy: 0, queued: 1 });
    // The profile's worker was just spawned; the main pool's may still be starting too.
    expect(stats.starting).toBeGreaterThanOrEqual(1);
    await expect(call).resolves.toBe('lean');
  });

  it('runs jobs side by side on a pool of two', async () => {
    const h = host({ size: 2 });
    const runningIds = new Set<string>();
    const bothRunning = new Promise<void>((resolve) => {
      h.subscribe((j) => {
        if (j.type === 'test.block' && j.state === 'running') runningIds.add(j.id);
        if (runningIds.size === 2) resolve();
      });
    });
    const a = h.run('test.block', null);
    const b = h.run('test.block', null);
    await bothRunning;
    expect(h.stats()).toEqual({ size: 2, busy: 2, queued: 0, starting: 0 });
    for (const id of runningIds) h.cancel(id);
    await expect(a).rejects.toMatchObject({ code: 'cancelled' });
    await expect(b).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('close() rejects running and queued jobs and refuses new ones', async () => {
    const h = host();
    const running = nextEvent(h, (j) => j.type === 'test.block' && j.state === 'running');
    const blocked = h.run('test.block', null);
    const queued = h.run('test.echo', 'queued');
    await running;
    const outcomes = Promise.all([rejection(blocked), rejection(queued)]);
    await h.close();
    expect((await outcomes).map((e) => e.code)).toEqual(['unavailable', 'unavailable']);
    expect((await rejection(h.run('test.echo', 1))).code).toBe('unavailable');
    expect(h.stats()).toEqual({ size: 0, busy: 0, queued: 0, starting: 0 });
  });

  it('forwards job log lines to the host logger', async () => {
    const lines: string[] = [];
    const h = host({ log: (level, message) => lines.push(`${level} ${message}`) });
    await h.run('test.log', null);
    expect(lines).toContain('warn test.log: a warning from a job');
  });

  it('gives up with unavailable when workers cannot load their job tables', async () => {
    const h = createForkHost({ size: 1, jobModules: ['/nonexistent/jobs.js'], log: () => undefined });
    hosts.push(h);
    expect((await rejection(h.run('test.echo', 1))).code).toBe('unavailable');
  });

  it('a worker busy in a job that never yields is gone within a second of its host being killed', async () => {
    const script = fileURLToPath(new URL('../../test/fixtures/orphan-host.ts', import.meta.url));
    const hostProcess = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    const workerPid = await firstLinePid(hostProcess);
    // Let the job start spinning, so the worker's event loop is held when its host dies.
    await new Promise((r) => setTimeout(r, 300));
    expect(isRunning(workerPid)).toBe(true);
    hostProcess.kill('SIGKILL');
    const killedAt = Date.now();
    while (isRunning(workerPid) && Date.now() - killedAt < 5000) await new Promise((r) => setTimeout(r, 50));
    const survived = isRunning(workerPid);
    if (survived) process.kill(workerPid, 'SIGKILL');
    expect(survived).toBe(false);
  });
});
