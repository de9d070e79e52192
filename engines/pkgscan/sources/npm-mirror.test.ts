// The npm mirror source against a real Verdaccio on loopback, loaded by the npm publish protocol with corpus and in-memory tarballs.
import { createHash } from 'node:crypto';
import { readFile, mkdtemp, writeFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessRunner } from '../../core/jobs/in-process.js';
import type { JobRunner } from '../../core/jobs/protocol.js';
import { openMemoryStore } from '../../core/store.js';
import { jobs } from '../jobs.js';
import { IDENTIFY_JOB } from './identify.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { migrations } from '../store.js';
import { checkNpmIntegrity, NpmMirrorSource, packumentPath } from './npm-mirror.js';
import { resolveRelease, sourcesFromConfig } from './resolve.js';
import { artifactBytes, listArtifacts, sha256Hex, StoreSource } from './store.js';
import { npmTarball } from './archives.fixture.js';
import { startVerdaccio, type TestRegistry } from './verdaccio.fixture.js';

let registry: TestRegistry;
let root: string;
let base: string;
const published = new Map<string, Uint8Array>();

async function publish(name: string, version: string, tarball: Uint8Array, dist: Record<string, unknown> = {}): Promise<void> {
  await registry.publish(name, version, tarball, dist);
  published.set(`${name}@${version}`, tarball);
}

beforeAll(async () => {
  registry = await startVerdaccio();
  root = registry.root;
  base = registry.base;
  if (hasCorpora()) {
    await publish('ms', '2.1.3', new Uint8Array(await readFile(corpusPath('packages', 'benign', 'npm', 'ms-2.1.3.tgz'))));
    await publish('debug', '4.4.3', new Uint8Array(await readFile(corpusPath('packages', 'benign', 'npm', 'debug-4.4.3.tgz'))));
  }
  await publish('ms', '2.0.0', await npmTarball('ms', '2.0.0'));
  await publish('ms', '3.0.0-canary.1', await npmTarball('ms', '3.0.0-canary.1'));
  await publish('@lab/thing', '1.0.0', await npmTarball('@lab/thing', '1.0.0'));
  await publish('@lab/thing', '1.2.0', await npmTarball('@lab/thing', '1.2.0'));
  await publish('only-pre', '1.0.0-rc.1', await npmTarball('only-pre', '1.0.0-rc.1'));
  const odd = await npmTarball('bad-integrity', '1.0.0');
  await publish('bad-integrity', '1.0.0', odd, { integrity: `sha512-${createHash('sha512').update('other bytes').digest('base64')}` });
  await publish('tampered', '1.0.0', await npmTarball('tampered', '1.0.0'));
  await publish('liar', '1.0.0', await npmTarball('someone-else', '1.0.0'));
  // Change the stored tarball under the registry: the packument's digests no longer match.
  const dir = path.join(root, 'storage', 'tampered');
  const file = (await readdir(dir)).find((f) => f.endsWith('.tgz'));
  if (file === undefined) throw new Error('verdaccio layout changed');
  await writeFile(path.join(dir, file), await npmTarball('tampered', '1.0.0', { description: 'changed' }));
}, 30_000);

afterAll(async () => {
  await registry.close();
});

async function fresh(): Promise<{ db: ReturnType<typeof openMemoryStore>; dataDir: string; mirror: NpmMirrorSource }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-npm-'));
  const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
  return { db, dataDir, mirror: new NpmMirrorSource(db, dataDir, { url: base, timeoutMs: 10_000 }) };
}

describe('npm mirror source (Verdaccio)', () => {
  it.skipIf(!hasCorpora())('fetches a corpus release, checks its integrity, stores it with the registry information', async () => {
    const { db, dataDir, mirror } = await fresh();
    expect([...(await mirror.versions('npm', 'ms'))].sort()).toEqual(['2.0.0', '2.1.3', '3.0.0-canary.1']);
    const r = await mirror.fetch('npm', 'ms', '2.1.3');
    const bytes = published.get('ms@2.1.3') ?? new Uint8Array();
    expect(r).toMatchObject({ ecosystem: 'npm', name: 'ms', version: '2.1.3', sha256: sha256Hex(bytes), size: bytes.byteLength, source: 'npm-mirror', filename: 'ms-2.1.3.tgz' });
    expect(r?.registry?.versions).toEqual(expect.arrayContaining(['2.0.0', '2.1.3', '3.0.0-canary.1']));
    expect(r?.registry?.integrity).toBe(`sha512-${createHash('sha512').update(bytes).digest('base64')}`);
    expect(Object.keys(r?.registry?.published ?? {})).toContain('2.1.3');
    expect(artifactBytes(dataDir, r?.sha256 ?? '')).toEqual(bytes);
    expect(listArtifacts(db, { source: 'npm-mirror' }, { limit: 10, offset: 0 }).total).toBe(1);
    expect(await mirror.fetch('npm', 'ms', '9.9.9')).toBeNull();
    expect(await mirror.versions('npm', 'no-such-package')).toEqual([]);
  });

  it('resolves the newest stable version (semver), scoped names, and refuses unknown versions', async () => {
    const { db, dataDir } = await fresh();
    const sources = sourcesFromConfig(db, dataDir, { PKGSCAN_NPM_MIRROR: base });
    expect(sources.map((s) => s.name)).toEqual(['store', 'npm-mirror']);
    expect((await resolveRelease(sources, 'npm', 'ms')).version).toBe(hasCorpora() ? '2.1.3' : '2.0.0');
    const scoped = await resolveRelease(sources, 'npm', '@lab/thing');
    expect(scoped).toMatchObject({ name: '@lab/thing', version: '1.2.0', source: 'npm-mirror' });
    expect(await resolveRelease(sources, 'npm', '@lab/thing', '1.0.0')).toMatchObject({ version: '1.0.0' });
    // Now stored: the store answers first.
    expect(await resolveRelease(sources, 'npm', '@lab/thing', '1.0.0')).toMatchObject({ version: '1.0.0', source: 'store' });
    expect((await resolveRelease(sources, 'npm', 'only-pre')).version).toBe('1.0.0-rc.1');
    await expect(resolveRelease(sources, 'npm', '@lab/thing', '1.1.0')).rejects.toMatchObject({ code: 'not_found', message: 'no configured package source holds that release' });
    // A version named after an Object.prototype member is not in the packument's versions either.
    for (const version of ['constructor', 'toString', 'valueOf']) await expect(resolveRelease(sources, 'npm', '@lab/thing', version)).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveRelease(sources, 'npm', 'no-such-package')).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveRelease(sources, 'cargo', 'x')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/npm, pypi/) });
    await expect(resolveRelease(sources, 'npm', '../etc')).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('refuses a tarball whose integrity or SHA-1 does not match, and stores nothing', async () => {
    const { db, mirror } = await fresh();
    await expect(mirror.fetch('npm', 'bad-integrity', '1.0.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/integrity/) });
    await expect(mirror.fetch('npm', 'tampered', '1.0.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/does not match/) });
    // A mismatch stops resolution: it never falls back to anything else.
    await expect(resolveRelease([new StoreSource(db), mirror], 'npm', 'tampered')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(listArtifacts(db, {}, { limit: 10, offset: 0 }).total).toBe(0);
  });

  it('refuses a tarball that declares another package than the registry lists', async () => {
    const { mirror } = await fresh();
    await expect(mirror.fetch('npm', 'liar', '1.0.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/another (name|version) than the registry lists/) });
  });

  it('with the service\'s job runner, downloads are identified in a worker job (pkgscan.identify): stored when they match, refused when they declare another package, no upload file left', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-npm-jobs-'));
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    const seen: string[] = [];
    const inner = new InProcessRunner(jobs);
    const runner: JobRunner = { run: (type, payload, options) => (seen.push(type), inner.run(type, payload, options)) };
    const [, mirror] = sourcesFromConfig(db, dataDir, {}, { npmMirror: base, timeoutMs: 10_000, jobs: runner });
    const got = await mirror?.fetch('npm', 'ms', '2.0.0');
    expect(got).toMatchObject({ ecosystem: 'npm', name: 'ms', version: '2.0.0', source: 'npm-mirror' });
    expect(artifactBytes(dataDir, got?.sha256 ?? '')).toEqual(published.get('ms@2.0.0'));
    await expect(mirror?.fetch('npm', 'liar', '1.0.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/another (name|version) than the registry lists/) });
    expect(seen).toEqual([IDENTIFY_JOB, IDENTIFY_JOB]);
    expect(listArtifacts(db, {}, { limit: 10, offset: 0 }).items.map((a) => a.name)).toEqual(['ms']);
    expect(await readdir(path.join(dataDir, 'pkgscan', 'package-uploads'))).toEqual([]);
  });

  it('an unreachable mirror is "unavailable", not "not found"', async () => {
    const { db, dataDir } = await fresh();
    const down = sourcesFromConfig(db, dataDir, {}, { npmMirror: 'http://127.0.0.1:9/', timeoutMs: 5000 });
    await expect(resolveRelease(down, 'npm', 'ms', '2.1.3')).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('npm integrity and tarball addresses', () => {
  const bytes = new TextEncoder().encode('tarball bytes');
  const sri = (alg: string, b: Uint8Array | string): string => `${alg}-${createHash(alg).update(b).digest('base64')}`;
  it('takes the strongest SRI algorithm, falls back to shasum, refuses no digest', () => {
    expect(checkNpmIntegrity(bytes, `${sri('sha1', 'x')} ${sri('sha512', bytes)}`, undefined)).toMatch(/^sha512-/);
    expect(() => checkNpmIntegrity(bytes, `${sri('sha512', 'x')} ${sri('sha1', bytes)}`, undefined)).toThrow(/integrity/);
    expect(checkNpmIntegrity(bytes, undefined, createHash('sha1').update(bytes).digest('hex'))).toMatch(/^sha1-/);
    expect(checkNpmIntegrity(bytes, 'md5-abc', createHash('sha1').update(bytes).digest('hex').toUpperCase())).toMatch(/^sha1-/);
    expect(() => checkNpmIntegrity(bytes, undefined, 'a'.repeat(40))).toThrow(/SHA-1/);
    expect(() => checkNpmIntegrity(bytes, undefined, undefined)).toThrow(/no digest/);
  });

  it('keeps tarballs on the mirror origin and maps other hosts onto it', () => {
    const m = new NpmMirrorSource(openMemoryStore([{ name: 'pkgscan', migrations }]), '/nonexistent', { url: 'http://mirror.lab:4873/npm' });
    expect(m.tarballUrl('ms', 'http://mirror.lab:4873/npm/ms/-/ms-2.1.3.tgz').href).toBe('http://mirror.lab:4873/npm/ms/-/ms-2.1.3.tgz');
    expect(m.tarballUrl('ms', 'https://registry.npmjs.org/ms/-/ms-2.1.3.tgz').href).toBe('http://mirror.lab:4873/npm/ms/-/ms-2.1.3.tgz');
    expect(m.tarballUrl('@lab/thing', 'https://registry.npmjs.org/@lab/thing/-/thing-1.0.0.tgz').href).toBe('http://mirror.lab:4873/npm/@lab/thing/-/thing-1.0.0.tgz');
    expect(() => m.tarballUrl('ms', 'https://evil.example/download?file=x')).toThrow(/another host/);
    expect(packumentPath('@lab/thing')).toBe('@lab%2fthing');
  });
});

describe('npm mirror source (a proxy advertising the public registry)', () => {
  it('rewrites tarballs onto the mirror and stores attestation bundles read from the mirror', async () => {
    const tarball = await npmTarball('proxied', '1.0.0');
    const bundle = { mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json', verificationMaterial: {}, dsseEnvelope: { payload: '', payloadType: 'application/vnd.in-toto+json', signatures: [] } };
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/proxied') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            name: 'proxied',
            versions: {
              '1.0.0': {
                name: 'proxied',
                version: '1.0.0',
                _npmUser: { name: 'pub', email: 'pub@example.org' },
                dist: {
                  tarball: 'https://registry.npmjs.org/proxied/-/proxied-1.0.0.tgz',
                  integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
                  signatures: [{ keyid: 'SHA256:k', sig: 'MEUC' }],
                  attestations: { url: '/-/npm/v1/attestations/proxied@1.0.0', provenance: { predicateType: 'https://slsa.dev/provenance/v1' } },
                },
              },
            },
            time: { created: 't', '1.0.0': '2025-01-01T00:00:00.000Z' },
            maintainers: [{ name: 'pub', email: 'pub@example.org' }],
          }),
        );
      } else if (req.url === '/proxied/-/proxied-1.0.0.tgz') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      } else if (req.url === '/-/npm/v1/attestations/proxied@1.0.0') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ attestations: [{ predicateType: 'https://slsa.dev/provenance/v1', bundle }] }));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { db, dataDir } = await fresh();
      const m = new NpmMirrorSource(db, dataDir, { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      const r = await m.fetch('npm', 'proxied', '1.0.0');
      expect(seen).toContain('/proxied/-/proxied-1.0.0.tgz');
      expect(r?.registry).toEqual({
        versions: ['1.0.0'],
        published: { '1.0.0': '2025-01-01T00:00:00.000Z' },
        maintainers: [{ name: 'pub', email: 'pub@example.org' }],
        publisher: { name: 'pub', email: 'pub@example.org' },
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
        signatures: [{ keyid: 'SHA256:k', sig: 'MEUC' }],
        attestations: [bundle],
      });
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
