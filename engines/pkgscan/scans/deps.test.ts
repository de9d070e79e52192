// What a running service wires package scans to: mirror downloads go through the service's job runner (identified in a
// worker), not parsed in the serving process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessRunner } from '../../core/jobs/in-process.js';
import type { JobRunner } from '../../core/jobs/protocol.js';
import { openMemoryStore } from '../../core/store.js';
import { jobs } from '../jobs.js';
import type { Platform } from '../platform.js';
import { IDENTIFY_JOB } from '../sources/identify.js';
import { npmTarball } from '../sources/testkit.js';
import { startVerdaccio, type TestRegistry } from '../sources/verdaccio.fixture.js';
import { migrations } from '../store.js';
import { scanDeps } from './deps.js';

let registry: TestRegistry;

beforeAll(async () => {
  registry = await startVerdaccio();
  await registry.publish('ms', '2.0.0', await npmTarball('ms', '2.0.0'), {});
}, 30_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await registry.close();
});

describe('scan dependencies of a running service', () => {
  it('hands the configured mirror the platform job runner: a download is identified by the pkgscan.identify job', async () => {
    vi.stubEnv('PKGSCAN_NPM_MIRROR', registry.base);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-deps-'));
    try {
      const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
      const seen: string[] = [];
      const inner = new InProcessRunner(jobs);
      const runner: JobRunner = { run: (type, payload, options) => (seen.push(type), inner.run(type, payload, options)) };
      const p = { db, dataDir, jobs: runner, config: { internalNamespaces: [] } } as unknown as Platform;
      const mirror = scanDeps(p)
        .sources()
        .find((s) => s.name === 'npm-mirror');
      expect(mirror).toBeDefined();
      expect(await mirror?.fetch('npm', 'ms', '2.0.0')).toMatchObject({ ecosystem: 'npm', name: 'ms', version: '2.0.0', source: 'npm-mirror' });
      expect(seen).toEqual([IDENTIFY_JOB]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
