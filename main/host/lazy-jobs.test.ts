// Job modules a worker imports on demand (`jobLoaders`), against real worker processes: imported once, on the first job
// or while the worker waits, one broken service failing only its own jobs.
import { afterEach, describe, expect, it } from 'vitest';
import { VitrineError } from '../../engines/core/errors.js';
import { LAZY_WORKER_JOBS_MODULE } from '../../test/fixtures/lazy-worker-jobs.js';
import { WORKER_JOBS_MODULE } from '../../test/fixtures/worker-jobs.js';
import { createForkHost, type ForkHostOptions } from './fork-host.js';
import type { EngineHost } from './host.js';
import { JobSource } from './job-tables.js';
import type { JobTable } from '../../engines/core/jobs/protocol.js';

const hosts: EngineHost[] = [];

function host(options: ForkHostOptions = {}): EngineHost {
  const h = createForkHost({ size: 1, jobModules: [WORKER_JOBS_MODULE, LAZY_WORKER_JOBS_MODULE], log: () => undefined, ...options });
  hosts.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    return (err as VitrineError).code;
  }
  throw new Error('expected the job to fail');
}

describe('job modules imported on demand', () => {
  it('runs a service whose table is imported on demand, imported once, beside tables given whole', async () => {
    const h = host({ profiles: [] });
    await expect(h.run('test.echo', 'whole')).resolves.toBe('whole');
    const pid = await h.run('lazy.pid', null);
    await expect(h.run('lazy.pid', null)).resolves.toBe(pid);
    const imports = (await h.run('lazy.imports', null)) as Record<string, number>;
    expect(imports.lazy).toBe(1);
  });

  it('a service that cannot be imported, or whose job types are not named after it, fails only its own jobs', async () => {
    const h = host({ profiles: [] });
    const pid = await h.run('lazy.pid', null);
    expect(await code(h.run('broken.anything', null))).toBe('internal');
    expect(await code(h.run('misnamed.x', null))).toBe('internal');
    // The misnamed table's type is not served under another service's name either.
    expect(await code(h.run('lazy.other', null))).toBe('not_found');
    expect(await code(h.run('nowhere.job', null))).toBe('not_found');
    await expect(h.run('lazy.pid', null)).resolves.toBe(pid);
  });

  it("the main pool's workers import every service while they wait; a profile's workers only the profile's services", async () => {
    const h = host({ profiles: [{ name: 'lean', services: ['early'], v8Flags: ['--heap-growing-percent=20'] }] });
    // Main pool: every service but `early` (the profile's); give the idle worker time to import them.
    let imports: Record<string, number> = {};
    for (let i = 0; i < 100 && imports.misnamed === undefined; i++) {
      imports = (await h.run('lazy.imports', null)) as Record<string, number>;
      if (imports.misnamed === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(imports).toEqual({ lazy: 1, broken: 1, misnamed: 1 });
    // The profile's worker: its own service imported, the others not.
    await expect(h.run('early.echo', 'lean')).resolves.toBe('lean');
  });
});

describe('JobSource', () => {
  it('prefers a table given whole, refuses a type claimed twice and imports each service once', async () => {
    let loads = 0;
    const source = new JobSource({ 'a.one': () => 1 }, new Map<string, () => Promise<JobTable>>([
      ['a', async () => ({ 'a.one': () => 2 })],
      ['b', async () => {
        loads++;
        return { 'b.two': () => 2 };
      }],
    ]));
    expect(await source.handler('a.one')).toBeTypeOf('function');
    await expect(source.table('a')).rejects.toThrow(/defined twice/);
    await Promise.all([source.handler('b.two'), source.handler('b.two'), source.table('b')]);
    expect(loads).toBe(1);
    expect(await source.handler('b.three')).toBeUndefined();
    expect(await source.handler('c.x')).toBeUndefined();
    await expect(source.table('c')).rejects.toThrow(/no job module/);
  });
});
