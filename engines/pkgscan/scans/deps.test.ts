// What a running service wires package scans to: mirror downloads go through the service's job runner (identified in a
// worker), not parsed in the serving process.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessRunner } from '../../core/jobs/in-process.js';
import type { JobRunner } from '../../core/jobs/protocol.js';
import { openMemoryStore } from '../../core/store.js';
import { jobs } from '../jobs.js';
import type { Platform } from '../platform.js';
import { digestInSlices, DIGEST_SLICE_BYTES } from '../sources/fetching.js';
import { IDENTIFY_JOB } from '../sources/identify.js';
import { checkNpmIntegrity, verifyNpmIntegrity } from '../sources/npm-mirror.js';
import { npmTarball } from '../sources/archives.fixture.js';
import { startVerdaccio, type TestRegistry } from '../sources/verdaccio.fixture.js';
import { migrations } from '../store.js';
import { scanDeps } from './deps.js';
import { pkgscanDatabase } from '../db/open.js';

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
      const p = { db, store: pkgscanDatabase(db, undefined), dataDir, jobs: runner, config: { internalNamespaces: [] } } as unknown as Platform;
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

describe('mirror download digests', () => {
  const bytes = new Uint8Array(DIGEST_SLICE_BYTES * 3 + 123).map((_, i) => (i * 31) & 0xff);

  it('are computed a slice at a time, the event loop taking turns between slices, to the same digest', async () => {
    let turns = 0;
    const tick = (): void => {
      turns += 1;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    const got = await digestInSlices('sha512', bytes);
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(got.equals(createHash('sha512').update(bytes).digest())).toBe(true);
    expect((await digestInSlices('sha256', new Uint8Array(0))).toString('hex')).toBe(createHash('sha256').digest('hex'));
  });

  it('check npm integrity as the synchronous check does: the strongest algorithm, mismatches and missing digests refused', async () => {
    const sri = (alg: string, b: Uint8Array | string): string => `${alg}-${createHash(alg).update(b).digest('base64')}`;
    const both = `${sri('sha1', 'x')} ${sri('sha512', bytes)}`;
    expect(await verifyNpmIntegrity(bytes, both, undefined)).toBe(checkNpmIntegrity(bytes, both, undefined));
    await expect(verifyNpmIntegrity(bytes, `${sri('sha512', 'x')} ${sri('sha1', bytes)}`, undefined)).rejects.toThrow(/integrity/);
    expect(await verifyNpmIntegrity(bytes, undefined, createHash('sha1').update(bytes).digest('hex'))).toMatch(/^sha1-/);
    await expect(verifyNpmIntegrity(bytes, undefined, 'a'.repeat(40))).rejects.toThrow(/SHA-1/);
    await expect(verifyNpmIntegrity(bytes, undefined, undefined)).rejects.toThrow(/no digest/);
  });
});
