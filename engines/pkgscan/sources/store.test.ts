// The package store: corpus archives in and out by digest, idempotent re-import, tampering caught on read, non-packages refused, the migration.
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemoryStore, storeAtVersion, migrateTo } from '../../core/store.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { migrations } from '../store.js';
import { importArchive, artifactBytes, artifactPath, findArtifact, listArtifacts, sha256Hex, StoreSource } from './store.js';
import { importPaths, sidecarRegistry } from './import.js';
import { npmTarball, wheel } from './archives.fixture.js';

/** Runs a synchronous call as a promise, so `rejects` can match the error's code. */
const later = <T>(f: () => T): Promise<T> => Promise.resolve().then(f);

const service = { name: 'pkgscan', migrations };
let dataDir: string;
let db: ReturnType<typeof openMemoryStore>;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-store-'));
  db = openMemoryStore([service]);
});
afterEach(async () => {
  db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const benign = (eco: string, file: string): string => corpusPath('packages', 'benign', eco, file);

describe('migration 6', () => {
  it('creates pkgscan_artifacts with its uniqueness and checks, keeping earlier rows', () => {
    const m = storeAtVersion('pkgscan', migrations, 5);
    m.prepare("INSERT INTO pkgscan_cache VALUES ('k', '{}', 't', 't')").run();
    migrateTo(m, 'pkgscan', migrations, 6);
    expect(m.prepare('SELECT COUNT(*) AS n FROM pkgscan_cache').get()).toEqual({ n: 1 });
    const ins = m.prepare("INSERT INTO pkgscan_artifacts VALUES (?, ?, 'ms', '2.1.3', 'ms-2.1.3.tgz', ?, 10, ?, NULL, 't', 'system')");
    const sha = 'a'.repeat(64);
    ins.run('1', 'npm', sha, 'import');
    expect(() => ins.run('2', 'npm', sha, 'upload')).toThrow(/UNIQUE/);
    expect(() => ins.run('3', 'cargo', 'b'.repeat(64), 'import')).toThrow(/CHECK/);
    expect(() => ins.run('4', 'npm', 'b'.repeat(64), 'internet')).toThrow(/CHECK/);
    expect(() => ins.run('5', 'npm', 'short', 'import')).toThrow(/CHECK/);
    const idx = m.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'pkgscan_artifacts'").all() as { name: string }[];
    expect(idx.map((i) => i.name)).toContain('pkgscan_artifacts_package');
    m.close();
  });
});

describe.skipIf(!hasCorpora())('importArchive', () => {
  it('stores a corpus npm tarball under its digest (0700 dirs, 0600 file) and finds it again', async () => {
    const bytes = new Uint8Array(await readFile(benign('npm', 'ms-2.1.3.tgz')));
    const r = importArchive(db, dataDir, bytes, { filename: 'ms-2.1.3.tgz', source: 'import', actor: 'system' });
    expect(r.created).toBe(true);
    expect(r.artifact).toMatchObject({ ecosystem: 'npm', name: 'ms', version: '2.1.3', sha256: sha256Hex(bytes), size: bytes.byteLength, source: 'import', registry: null, imported_by: 'system' });
    const file = artifactPath(dataDir, r.artifact.sha256);
    expect(file).toBe(path.join(dataDir, 'pkgscan', 'packages', r.artifact.sha256.slice(0, 2), r.artifact.sha256));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(artifactBytes(dataDir, r.artifact.sha256)).toEqual(bytes);
    expect(findArtifact(db, 'npm', 'ms', '2.1.3')?.id).toBe(r.artifact.id);
    expect(findArtifact(db, 'npm', 'ms', '9.9.9')).toBeNull();
  });

  it('re-importing the same bytes is a no-op; registry information is added to a row that had none', async () => {
    const bytes = new Uint8Array(await readFile(benign('npm', 'debug-4.4.3.tgz')));
    const first = importArchive(db, dataDir, bytes, { source: 'import', actor: 'u1' });
    const file = artifactPath(dataDir, first.artifact.sha256);
    const before = (await stat(file)).mtimeMs;
    const second = importArchive(db, dataDir, bytes, { source: 'upload', actor: 'u2', registry: { versions: ['4.4.3'] } });
    expect(second.created).toBe(false);
    expect(second.artifact.id).toBe(first.artifact.id);
    expect(second.artifact.source).toBe('import');
    expect(second.artifact.registry).toEqual({ versions: ['4.4.3'] });
    expect((await stat(file)).mtimeMs).toBe(before);
    expect(listArtifacts(db, {}, { limit: 10, offset: 0 }).total).toBe(1);
  });

  it('imports PyPI sdists and wheels with PEP 503 names', async () => {
    const jinja = new Uint8Array(await readFile(benign('pypi', 'Jinja2-3.1.2.tar.gz')));
    const a = importArchive(db, dataDir, jinja, { filename: 'Jinja2-3.1.2.tar.gz', source: 'import', actor: 'system' });
    expect(a.artifact).toMatchObject({ ecosystem: 'pypi', name: 'jinja2', version: '3.1.2' });
    const multipart = new Uint8Array(await readFile(benign('pypi', 'python-multipart-0.0.5.tar.gz')));
    expect((importArchive(db, dataDir, multipart, { filename: 'python-multipart-0.0.5.tar.gz', source: 'import', actor: 'system' })).artifact.name).toBe('python-multipart');
    const whl = wheel('Foo_Bar', '1.0');
    const w = importArchive(db, dataDir, whl, { filename: 'Foo_Bar-1.0-py3-none-any.whl', ecosystem: 'pypi', source: 'upload', actor: 'system' });
    expect(w.artifact).toMatchObject({ name: 'foo-bar', version: '1.0', filename: 'Foo_Bar-1.0-py3-none-any.whl' });
    expect(findArtifact(db, 'pypi', 'FOO.bar', '1.0')?.sha256).toBe(sha256Hex(whl));
    expect(listArtifacts(db, { ecosystem: 'pypi', q: 'jin' }, { limit: 10, offset: 0 }).items.map((i) => i.name)).toEqual(['jinja2']);
  });

  it('stores malicious corpus archives as bytes (never extracted to disk)', async () => {
    for (const [eco, file] of [['npm', 'an0n-chat-lib-0.1.0.tgz'], ['pypi', 'djanga-0.1.tar.gz']] as const) {
      const bytes = new Uint8Array(await readFile(corpusPath('packages', 'malicious', eco, file)));
      const r = importArchive(db, dataDir, bytes, { filename: file, source: 'import', actor: 'system' });
      expect(r.artifact.ecosystem).toBe(eco);
      expect(artifactBytes(dataDir, r.artifact.sha256)).toEqual(bytes);
    }
  });

  it('refuses another ecosystem than the one given, non-packages, empty and truncated archives', async () => {
    const bytes = new Uint8Array(await readFile(benign('npm', 'ms-2.1.3.tgz')));
    await expect(later(() => importArchive(db, dataDir, bytes, { ecosystem: 'pypi', source: 'upload', actor: 'system' }))).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(later(() => importArchive(db, dataDir, new TextEncoder().encode('just some text, not an archive'), { source: 'upload', actor: 'system' }))).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(later(() => importArchive(db, dataDir, new Uint8Array(0), { source: 'upload', actor: 'system' }))).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(later(() => importArchive(db, dataDir, bytes.slice(0, 100), { source: 'upload', actor: 'system' }))).rejects.toMatchObject({ code: 'validation_failed' });
    expect(listArtifacts(db, {}, { limit: 10, offset: 0 }).total).toBe(0);
  });

  it('refuses an archive declaring another identity than expected, before storing it', async () => {
    const bytes = await npmTarball('left-pad', '1.0.0');
    await expect(later(() => importArchive(db, dataDir, bytes, { source: 'npm-mirror', expected: { name: 'left-pad', version: '1.0.1' }, actor: 'system' }))).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(stat(artifactPath(dataDir, sha256Hex(bytes)))).rejects.toThrow();
  });

  it('a tampered file is an error on read, and re-importing repairs it', async () => {
    const bytes = await npmTarball('tamper-me', '1.0.0');
    const { artifact } = importArchive(db, dataDir, bytes, { source: 'import', actor: 'system' });
    const file = artifactPath(dataDir, artifact.sha256);
    await chmod(file, 0o600);
    const changed = new Uint8Array(bytes);
    changed[20] = (changed[20] ?? 0) ^ 0xff;
    await writeFile(file, changed);
    await expect(later(() => artifactBytes(dataDir, artifact.sha256))).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/no longer matches/) });
    importArchive(db, dataDir, bytes, { source: 'import', actor: 'system' });
    expect(artifactBytes(dataDir, artifact.sha256)).toEqual(bytes);
    await expect(later(() => artifactBytes(dataDir, 'b'.repeat(64)))).rejects.toMatchObject({ code: 'not_found' });
    await expect(later(() => artifactBytes(dataDir, '../etc/passwd'))).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('StoreSource lists versions and gives the stored release', async () => {
    importArchive(db, dataDir, await npmTarball('@lab/thing', '1.0.0'), { source: 'import', actor: 'system' });
    importArchive(db, dataDir, await npmTarball('@lab/thing', '1.1.0'), { source: 'import', actor: 'system' });
    const s = new StoreSource(db);
    expect([...(await s.versions('npm', '@lab/thing'))].sort()).toEqual(['1.0.0', '1.1.0']);
    expect(await s.fetch('npm', '@lab/thing', '1.1.0')).toMatchObject({ name: '@lab/thing', version: '1.1.0', source: 'store' });
    expect(await s.fetch('npm', '@lab/thing', '2.0.0')).toBeNull();
  });
});

describe.skipIf(!hasCorpora())('importPaths', () => {
  it('walks a directory, reads sidecars, and reports each file without stopping at a bad one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pkgscan-import-'));
    try {
      await writeFile(path.join(dir, 'ms-2.1.3.tgz'), await readFile(benign('npm', 'ms-2.1.3.tgz')));
      await writeFile(
        path.join(dir, 'ms-2.1.3.tgz.json'),
        JSON.stringify({ name: 'ms', versions: { '2.1.3': { name: 'ms', version: '2.1.3', dist: { integrity: 'sha512-x', shasum: 'ab' }, _npmUser: { name: 'styfle', email: 's@example.org' } } }, time: { '2.1.3': '2020-12-02T00:00:00.000Z', modified: 'x' }, maintainers: ['Guillermo <g@example.org>'] }),
      );
      await writeFile(path.join(dir, 'h11-0.14.0.tar.gz'), await readFile(benign('pypi', 'h11-0.14.0.tar.gz')));
      await writeFile(path.join(dir, 'h11-0.14.0.json'), JSON.stringify({ info: { name: 'h11', version: '0.14.0', author: 'Nathaniel J. Smith', author_email: 'njs@example.org' }, releases: { '0.14.0': [{ upload_time_iso_8601: '2022-09-25T15:20:00Z' }] } }));
      await writeFile(path.join(dir, 'broken.tgz'), 'not a tarball');
      await writeFile(path.join(dir, 'notes.txt'), 'ignored');
      const w = wheel('foo-bar', '2.0');
      await writeFile(path.join(dir, 'foo_bar-2.0-py3-none-any.whl'), w);
      await writeFile(path.join(dir, 'foo_bar-2.0-py3-none-any.whl.json'), '{not json');
      const results = await importPaths(db, dataDir, [dir, path.join(dir, 'missing.tgz')], 'u1');
      const by = Object.fromEntries(results.map((r) => [path.basename(r.path), r]));
      expect(Object.keys(by).sort()).toEqual(['broken.tgz', 'foo_bar-2.0-py3-none-any.whl', 'h11-0.14.0.tar.gz', 'missing.tgz', 'ms-2.1.3.tgz']);
      expect(by['broken.tgz']).toMatchObject({ status: 'refused', reason: expect.any(String) });
      expect(by['missing.tgz']).toMatchObject({ status: 'refused', reason: 'no such file' });
      expect(by['ms-2.1.3.tgz']?.artifact?.registry).toEqual({
        versions: ['2.1.3'],
        published: { '2.1.3': '2020-12-02T00:00:00.000Z' },
        maintainers: [{ name: 'Guillermo', email: 'g@example.org' }],
        publisher: { name: 'styfle', email: 's@example.org' },
        integrity: 'sha512-x',
      });
      expect(by['h11-0.14.0.tar.gz']?.warnings).toBeUndefined();
      expect(by['h11-0.14.0.tar.gz']?.artifact?.registry).toEqual({ versions: ['0.14.0'], published: { '0.14.0': '2022-09-25T15:20:00Z' }, maintainers: [{ name: 'Nathaniel J. Smith', email: 'njs@example.org' }] });
      expect(by['foo_bar-2.0-py3-none-any.whl']).toMatchObject({ status: 'imported', warnings: [expect.stringMatching(/not valid JSON/)] });
      const again = await importPaths(db, dataDir, [path.join(dir, 'ms-2.1.3.tgz')], 'u1');
      expect(again[0]?.status).toBe('already_stored');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a sidecar of another package or version is refused', () => {
    expect(() => sidecarRegistry({ name: 'other', version: '1.0.0', dist: {} }, 'npm', 'ms', '1.0.0')).toThrow(/another/);
    expect(() => sidecarRegistry({ name: 'ms', versions: { '1.0.0': {} } }, 'npm', 'ms', '2.0.0')).toThrow(/does not list/);
    expect(() => sidecarRegistry({ info: { name: 'Other' } }, 'pypi', 'h11', '1.0')).toThrow(/another project/);
    expect(() => sidecarRegistry([1, 2], 'pypi', 'h11', '1.0')).toThrow(/not a PyPI/);
  });
});
