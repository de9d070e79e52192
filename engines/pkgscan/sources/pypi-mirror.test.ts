// The PyPI mirror source against a bandersnatch-layout folder served over loopback HTTP: PEP 691 JSON and PEP 503 HTML, hashes, names, file choice.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textsOfPieces } from '../../core/pieces.fixture.js';
import { openMemoryStore } from '../../core/store.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { migrations } from '../store.js';
import { anchors, parseDistFilename, parseSimpleHtml, parseSimpleJson, pickFile, PypiMirrorSource } from './pypi-mirror.js';
import { resolveRelease, sourcesFromConfig } from './resolve.js';
import { artifactBytes, listArtifacts } from './store.js';
import { sdist, wheel } from './archives.fixture.js';

interface Dist {
  readonly filename: string;
  readonly bytes: Uint8Array;
  readonly yanked?: boolean;
  /** Listed hash differs from the bytes. */
  readonly wrongHash?: boolean;
  /** Listed on another host. */
  readonly offsite?: boolean;
}

let root: string;
let web: string;
let server: Server;
let base: string;
/** When false the server answers HTML whatever the Accept header says (a PEP 503-only mirror). */
let offerJson = true;

const sha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Writes a project the way bandersnatch does: packages/<h[0:2]>/<h[2:4]>/<h[4:]>/<file>, simple/<name>/index.html + index.v1_json, pypi/<name>/json. */
async function project(name: string, dists: readonly Dist[], info?: Record<string, unknown>): Promise<void> {
  const files: { filename: string; rel: string; hash: string; yanked: boolean }[] = [];
  for (const d of dists) {
    const h = sha(d.bytes);
    const dir = path.join(web, 'packages', h.slice(0, 2), h.slice(2, 4), h.slice(4));
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, d.filename), d.bytes);
    const rel = `${d.offsite ? 'http://files.elsewhere.example/' : '../../'}packages/${h.slice(0, 2)}/${h.slice(2, 4)}/${h.slice(4)}/${d.filename}`;
    files.push({ filename: d.filename, rel, hash: d.wrongHash ? sha('something else') : h, yanked: d.yanked ?? false });
  }
  const page = path.join(web, 'simple', name);
  await mkdir(page, { recursive: true });
  const anchors = files.map((f) => `    <a href="${esc(`${f.rel}#sha256=${f.hash}`)}" data-requires-python="&gt;=3.7"${f.yanked ? ' data-yanked=""' : ''}>${esc(f.filename)}</a><br/>`);
  await writeFile(path.join(page, 'index.html'), `<!DOCTYPE html>\n<html>\n  <head>\n    <meta name="pypi:repository-version" content="1.1">\n    <title>Links for ${name}</title>\n  </head>\n  <body>\n    <h1>Links for ${name}</h1>\n${anchors.join('\n')}\n  </body>\n</html>\n`);
  await writeFile(
    path.join(page, 'index.v1_json'),
    JSON.stringify({ meta: { 'api-version': '1.1' }, name, files: files.map((f) => ({ filename: f.filename, url: f.rel, hashes: { sha256: f.hash }, 'requires-python': '>=3.7', yanked: f.yanked, 'core-metadata': false })) }),
  );
  if (info) {
    await mkdir(path.join(web, 'pypi', name), { recursive: true });
    await writeFile(path.join(web, 'pypi', name, 'json'), JSON.stringify(info));
  }
}

const TYPES: Record<string, string> = { '.whl': 'application/octet-stream', '.gz': 'application/x-tar', '.zip': 'application/zip', '.html': 'text/html; charset=utf-8', '.v1_json': 'application/vnd.pypi.simple.v1+json' };

function staticServer(): Server {
  return createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      let file = path.normalize(path.join(web, decodeURIComponent(url.pathname)));
      if (!file.startsWith(web)) {
        res.writeHead(403).end();
        return;
      }
      if (url.pathname.endsWith('/')) {
        const wantsJson = offerJson && (req.headers.accept ?? '').includes('application/vnd.pypi.simple.v1+json');
        file = path.join(file, wantsJson ? 'index.v1_json' : 'index.html');
      }
      try {
        const body = await readFile(file);
        const ext = file.endsWith('.v1_json') ? '.v1_json' : path.extname(file);
        res.writeHead(200, { 'content-type': TYPES[ext] ?? 'application/json', 'content-length': body.byteLength }).end(body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    })();
  });
}

const fooSdist = await sdist('foo-bar', '1.0');
const fooWheel10 = wheel('foo-bar', '1.0');
const fooWheel11 = wheel('foo-bar', '1.1');
const fooPlatform11 = wheel('foo-bar', '1.1');

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pkgscan-bandersnatch-'));
  web = path.join(root, 'web');
  if (hasCorpora()) {
    const h11 = new Uint8Array(await readFile(corpusPath('packages', 'benign', 'pypi', 'h11-0.14.0.tar.gz')));
    await project(
      'h11',
      [
        { filename: 'h11-0.13.0.tar.gz', bytes: await sdist('h11', '0.13.0') },
        { filename: 'h11-0.14.0.tar.gz', bytes: h11 },
        { filename: 'h11-0.15.0a1.tar.gz', bytes: await sdist('h11', '0.15.0a1') },
        { filename: 'h11-0.16.0.tar.gz', bytes: await sdist('h11', '0.16.0'), yanked: true },
      ],
      { info: { name: 'h11', version: '0.14.0', author: 'Nathaniel J. Smith', author_email: 'njs@example.org', maintainer: null }, releases: { '0.13.0': [{ upload_time_iso_8601: '2022-01-19T00:00:00Z' }], '0.14.0': [{ upload_time_iso_8601: '2022-09-25T15:20:00Z' }] } },
    );
    await project('python-multipart', [{ filename: 'python-multipart-0.0.5.tar.gz', bytes: new Uint8Array(await readFile(corpusPath('packages', 'benign', 'pypi', 'python-multipart-0.0.5.tar.gz'))) }]);
  }
  await project('foo-bar', [
    { filename: 'foo_bar-1.0-py3-none-any.whl', bytes: fooWheel10 },
    { filename: 'foo_bar-1.0.tar.gz', bytes: fooSdist },
    { filename: 'foo_bar-1.1-cp311-cp311-manylinux_2_17_x86_64.whl', bytes: fooPlatform11 },
    { filename: 'foo_bar-1.1-py3-none-any.whl', bytes: fooWheel11 },
  ]);
  await project('badhash', [{ filename: 'badhash-1.0.tar.gz', bytes: await sdist('badhash', '1.0'), wrongHash: true }]);
  await project('offsite', [{ filename: 'offsite-1.0.tar.gz', bytes: await sdist('offsite', '1.0'), offsite: true }]);
  await project('liar', [{ filename: 'liar-1.0.tar.gz', bytes: await sdist('someone-else', '1.0') }]);
  server = staticServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(root, { recursive: true, force: true });
});

async function fresh(): Promise<{ db: ReturnType<typeof openMemoryStore>; dataDir: string; mirror: PypiMirrorSource }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-pypi-'));
  const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
  return { db, dataDir, mirror: new PypiMirrorSource(db, dataDir, { url: base, timeoutMs: 10_000 }) };
}

describe.each([
  ['PEP 691 JSON', true],
  ['PEP 503 HTML', false],
])('PyPI mirror source (%s)', (_label, json) => {
  beforeAll(() => {
    offerJson = json;
  });

  it.skipIf(!hasCorpora())('resolves the newest stable, unyanked version and stores the verified sdist with JSON API information', async () => {
    const { db, dataDir } = await fresh();
    const sources = sourcesFromConfig(db, dataDir, { PKGSCAN_PYPI_MIRROR: `${base}simple/` });
    expect(sources.map((s) => s.name)).toEqual(['store', 'pypi-mirror']);
    const r = await resolveRelease(sources, 'pypi', 'H11');
    expect(r).toMatchObject({ ecosystem: 'pypi', name: 'h11', version: '0.14.0', filename: 'h11-0.14.0.tar.gz', source: 'pypi-mirror' });
    expect(r.registry).toMatchObject({ versions: ['0.13.0', '0.14.0', '0.15.0a1', '0.16.0'], maintainers: [{ name: 'Nathaniel J. Smith', email: 'njs@example.org' }], published: { '0.14.0': '2022-09-25T15:20:00Z' } });
    const bytes = new Uint8Array(await readFile(corpusPath('packages', 'benign', 'pypi', 'h11-0.14.0.tar.gz')));
    expect(artifactBytes(dataDir, r.sha256)).toEqual(bytes);
    // Yanked: never "newest", still there by number.
    expect((await resolveRelease(sources, 'pypi', 'h11', '0.16.0')).version).toBe('0.16.0');
    expect((await resolveRelease(sources, 'pypi', 'python_multipart')).name).toBe('python-multipart');
    await expect(resolveRelease(sources, 'pypi', 'h11', '0.12.0')).rejects.toMatchObject({ code: 'not_found' });
    expect(listArtifacts(db, { ecosystem: 'pypi' }, { limit: 10, offset: 0 }).total).toBe(3);
  });

  it('finds a project by any PEP 503 spelling and picks the sdist, else the pure-Python wheel', async () => {
    const { mirror } = await fresh();
    expect([...(await mirror.versions('pypi', 'Foo_Bar'))]).toEqual(['1.0', '1.1']);
    expect(await mirror.fetch('pypi', 'Foo_Bar', '1.0')).toMatchObject({ name: 'foo-bar', version: '1.0', filename: 'foo_bar-1.0.tar.gz' });
    expect(await mirror.fetch('pypi', 'foo.bar', '1.1')).toMatchObject({ filename: 'foo_bar-1.1-py3-none-any.whl', registry: { versions: ['1.0', '1.1'] } });
    expect(await mirror.fetch('pypi', 'foo-bar', '2.0')).toBeNull();
    expect(await mirror.versions('pypi', 'no-such-project')).toEqual([]);
    expect(await mirror.fetch('pypi', 'no-such-project', '1.0')).toBeNull();
  });

  it('refuses a hash mismatch, a file on another host and an archive of another project', async () => {
    const { db, mirror } = await fresh();
    await expect(mirror.fetch('pypi', 'badhash', '1.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/sha256/) });
    await expect(mirror.fetch('pypi', 'offsite', '1.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/another host/) });
    await expect(mirror.fetch('pypi', 'liar', '1.0')).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/another (name|version) than the registry lists/) });
    expect(listArtifacts(db, {}, { limit: 10, offset: 0 }).total).toBe(0);
  });
});

describe('Simple API parsing', () => {
  const page = new URL('http://m.lab/simple/foo-bar/');
  it('reads distribution file names (PEP 427 wheels, legacy sdists with hyphens)', () => {
    expect(parseDistFilename('foo_bar-1.0-py3-none-any.whl', 'foo-bar')).toEqual({ kind: 'wheel', version: '1.0', pure: true });
    expect(parseDistFilename('foo_bar-1.0-1-cp311-cp311-win_amd64.whl', 'foo-bar')).toEqual({ kind: 'wheel', version: '1.0', pure: false });
    expect(parseDistFilename('Foo.Bar-2.0rc1.zip', 'foo-bar')).toEqual({ kind: 'sdist', version: '2.0rc1', pure: true });
    expect(parseDistFilename('python-multipart-0.0.5.tar.gz', 'python-multipart')).toEqual({ kind: 'sdist', version: '0.0.5', pure: true });
    expect(parseDistFilename('foo_bar-1.0.tar.bz2', 'foo-bar')).toBeNull();
    expect(parseDistFilename('foo_bar-1.0.egg', 'foo-bar')).toBeNull();
    expect(parseDistFilename('other-1.0.tar.gz', 'foo-bar')).toBeNull();
    expect(parseDistFilename('foo_bar-notaversion!!.tar.gz', 'foo-bar')).toBeNull();
    expect(parseDistFilename('foo_bar-1.0-py3.whl', 'foo-bar')).toBeNull();
  });

  it('reads PEP 503 anchors: relative hrefs, hash fragments, entities, yanked and metadata flags', () => {
    const html = `<a href="../../p/foo_bar-1.0.tar.gz#sha256=${'A'.repeat(64)}" data-requires-python="&gt;=3.8" data-yanked="broken" data-dist-info-metadata="sha256=1">foo_bar-1.0.tar.gz</a>
      <A HREF='/p/foo_bar-1.1-py3-none-any.whl'>foo_bar-1.1-py3-none-any.whl</A><a>no href</a><a href="x">unrelated-1.0.tar.gz</a>`;
    const files = parseSimpleHtml(html, page, 'foo-bar');
    expect(files).toHaveLength(2);
    expect(files[0]).toMatchObject({ filename: 'foo_bar-1.0.tar.gz', sha256: 'a'.repeat(64), requiresPython: '>=3.8', yanked: true, coreMetadata: true, version: '1.0' });
    expect(files[0]?.url.href).toBe('http://m.lab/p/foo_bar-1.0.tar.gz');
    expect(files[1]).toMatchObject({ sha256: undefined, yanked: false, kind: 'wheel', pure: true });
    expect(pickFile(files)?.filename).toBe('foo_bar-1.1-py3-none-any.whl');
  });

  it('survives truncated and malformed pages: unusable entries are skipped, a JSON page without files is a parse error', () => {
    expect(parseSimpleHtml('<html><body><a href="foo_bar-1.0.tar.gz#sha256=ab', page, 'foo-bar')).toEqual([]);
    expect(parseSimpleHtml('\u0000\u0001 garbage <<<>>> <a href=>x</a>', page, 'foo-bar')).toEqual([]);
    expect(parseSimpleHtml('<a href="http://[bad">foo_bar-1.0.tar.gz</a>', page, 'foo-bar')).toEqual([]);
    expect(() => parseSimpleJson({ meta: {} }, page, 'foo-bar')).toThrow(/files list/);
    expect(() => parseSimpleJson(null, page, 'foo-bar')).toThrow(/files list/);
    expect(parseSimpleJson({ files: [null, 5, { filename: 'foo_bar-1.0.tar.gz' }, { filename: 'foo_bar-1.0.tar.gz', url: 'f.tar.gz', hashes: { sha256: 'zz' }, yanked: 'reason' }] }, page, 'foo-bar')).toEqual([
      expect.objectContaining({ filename: 'foo_bar-1.0.tar.gz', sha256: undefined, yanked: true }),
    ]);
  });

  it('refuses a mirror address that is not http(s) or carries credentials, without repeating it', () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    expect(() => new PypiMirrorSource(db, '/x', { url: 'file:///etc/' })).toThrow(/http or https/);
    expect(() => new PypiMirrorSource(db, '/x', { url: 'http://user:secret@m.lab/' })).toThrow(/credentials/);
    expect(() => new PypiMirrorSource(db, '/x', { url: 'not a url' })).toThrow('PKGSCAN_PYPI_MIRROR is not a URL');
  });
});

describe('anchors of an index page', () => {
  // The expression anchors replaces: `[^>]*` read from each of a run of `<a ` heads to the same `>`.
  const OLD = /<a\b([^>]*)>([^<]*)<\/a\s*>/gi;
  const pieces = ['<a', '<A', '<a ', '<a\t', '<ab', ' href="x.tar.gz"', '>', '<', 'x-1.0.tar.gz', '</a>', '</A >', '</a\n>', '</ab>', '</a', ' ', '\n', 'x', '=', '"'];

  it('finds the anchors the expression found, with the same attributes and text', () => {
    for (const html of textsOfPieces(pieces, 30_000, 5)) {
      const expected = [...html.matchAll(OLD)].map((m) => ({ attrs: m[1] ?? '', text: m[2] ?? '' }));
      expect(anchors(html), JSON.stringify(html)).toEqual(expected);
    }
  });
});
