// Fuzz targets of the shared parsers one level below the service targets (tools/fuzz/fuzz.ts): the PE dissector alone
// on every corpus PE and writer-built ones, the zip reader over a file and in memory, small synthetic docker-save and
// OCI-layout images, the RPM header and sqlite readers, the SBOM schema checks, and each lock-file reader with the
// declared-manifest readers.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import BetterSqlite from 'better-sqlite3';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../../test/corpora.js';
import { jsonProblem, type FuzzTarget } from '../fuzz.js';
import { VitrineError } from '../../../engines/core/errors.js';
import { buildTar, buildZip } from '../../../engines/core/archive/build.fixture.js';
import { FileSource, memorySource, ZipArchive } from '../../../engines/core/archive/zipfile.js';
import { readArchive } from '../../../engines/core/archive/read.js';
import { parseImageConfig, readImage } from '../../../engines/core/oci/image.js';
import { readApkInstalled, readDpkgStatus, readOsRelease, readPythonMetadata, readNodePackage } from '../../../engines/core/oci/packages.js';
import { readRpmHeader, readRpmSqlite } from '../../../engines/core/oci/rpm.js';
import { validateCycloneDx, validateSpdx } from '../../../engines/core/sbom/index.js';
import { declaredFormatFor, pinEntriesOf, readDeclaredManifest, readManifest } from '../../../engines/core/manifests/index.js';
import { dissect } from '../../../engines/petriage/pe/dissect.js';
import { LIMITS } from '../../../engines/petriage/pe/image.js';
import { syntheticPes } from '../../../engines/petriage/pe/synthetic.js';
import type { PeDissection } from '../../../engines/petriage/pe/types.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytesOf = (file: string): Uint8Array => new Uint8Array(readFileSync(file));
const IMAGES = path.join(REPO_ROOT, 'test', 'fixtures', 'images');

/** Every regular file under `dir` (depth-first, sorted), or [] when it is absent. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

// ---- pe-dissect

function peSeeds(): Uint8Array[] {
  const corpus = hasCorpora() ? ['corkami', 'velociraptor'].flatMap((s) => filesUnder(corpusPath('pe', s)).filter((f) => /\.(exe|dll|sys)$/.test(f))) : [];
  return [...corpus.map(bytesOf), ...syntheticPes(8, 4)];
}

function peCheck(result: unknown): string | undefined {
  const d = result as PeDissection;
  if (d.notes.length > LIMITS.maxNotes + 1) return 'more notes than the cap';
  if (d.sections.length > LIMITS.maxSections) return 'more sections than the cap';
  if (d.resources.entries.length > LIMITS.maxResourceLeaves) return 'more resource leaves than the cap';
  return jsonProblem(d, 64 * 1024 * 1024);
}

// ---- zip-file: the zip reader over a file source (two windows) and in memory

function zipSeeds(): Uint8Array[] {
  const out: Uint8Array[] = [];
  const tgz = hasCorpora() ? filesUnder(corpusPath('packages', 'benign', 'npm')).filter((f) => statSync(f).size < 40_000).slice(0, 3) : [];
  for (const f of tgz) {
    const r = readArchive(bytesOf(f));
    const files = r.entries.filter((e) => e.kind === 'file' && e.data !== undefined).slice(0, 6);
    out.push(buildZip(files.map((e, i) => ({ name: e.path, data: e.data!, deflate: i % 2 === 0, unixMode: 0o100644 }))));
  }
  out.push(buildZip([{ name: 'pkg/__init__.py', data: 'print(1)\n'.repeat(40), deflate: true }, { name: 'pkg/data.bin', data: new Uint8Array(300).fill(7) }, { name: 'pkg-1.0.dist-info/METADATA', data: 'Name: pkg\nVersion: 1.0\n', deflate: true }]));
  return out;
}

let zipDir: string | undefined;
function runZip(input: Uint8Array): unknown {
  zipDir ??= mkdtempSync(path.join(tmpdir(), `vitrine-fuzz-zip-${threadId}-`));
  const file = path.join(zipDir, 'in.zip');
  writeFileSync(file, input);
  const summary: unknown[] = [];
  for (const src of [new FileSource(file), memorySource(input)]) {
    try {
      const z = ZipArchive.open(src);
      for (const m of z.members()) {
        // the caller bounds the declared size first (its limits), as readArchive does
        if (m.size > 16 * 1024 * 1024) continue;
        const d = z.read(m);
        summary.push([m.name.length, 'data' in d ? d.data.length : d.refusal.code, z.linkTarget(m)?.length]);
      }
      summary.push(z.problems.map((p) => p.code));
    } finally {
      src.close?.();
    }
  }
  summary.push(readArchive(input).issues.map((i) => i.code));
  return summary;
}

// ---- oci-image: small synthetic docker-save and OCI-layout images

function imageSeeds(): Uint8Array[] {
  const layer0 = buildTar([
    { name: 'etc/os-release', data: 'ID=debian\nVERSION_ID="12"\nPRETTY_NAME="Debian GNU/Linux 12"\n' },
    { name: 'var/lib/dpkg/status', data: 'Package: libc6\nStatus: install ok installed\nVersion: 2.36-9\nArchitecture: amd64\nSource: glibc\n\nPackage: zlib1g\nStatus: install ok installed\nVersion: 1:1.2.13\n' },
    { name: 'usr/lib/python3/site-packages/requests-2.31.0.dist-info/METADATA', data: 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\n' },
    { name: 'app/node_modules/left-pad/package.json', data: '{"name":"left-pad","version":"1.3.0","license":"MIT"}' },
    { name: 'lib/apk/db/installed', data: 'P:musl\nV:1.2.4-r2\nA:x86_64\nL:MIT\no:musl\n\nP:busybox\nV:1.36.1-r5\n' },
  ]);
  const layer1 = buildTar([{ name: 'app/node_modules/.wh.left-pad', data: '' }, { name: 'etc/.wh..wh..opq', data: '' }, { name: 'etc/hostname', data: 'x\n' }]);
  const config = JSON.stringify({ architecture: 'amd64', os: 'linux', config: { Env: ['PATH=/usr/bin'], Entrypoint: ['/bin/sh'] }, rootfs: { type: 'layers', diff_ids: [] }, history: [{ created_by: 'a' }, { created_by: 'b' }] });
  const docker = buildTar([
    { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', RepoTags: ['x:1'], Layers: ['l0.tar', 'l1.tar'] }]) },
    { name: 'c.json', data: config },
    { name: 'l0.tar', data: layer0 },
    { name: 'l1.tar', data: layer1 },
  ]);
  const sha = (b: Uint8Array | string): string => `sha256:${createHashHex(typeof b === 'string' ? enc.encode(b) : b)}`;
  const manifest = JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha(config), size: config.length }, layers: [layer0, layer1].map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha(l), size: l.length })) });
  const blob = (d: string): string => `blobs/sha256/${d.slice(7)}`;
  const oci = buildTar([
    { name: 'oci-layout', data: '{"imageLayoutVersion":"1.0.0"}' },
    { name: 'index.json', data: JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: sha(manifest), size: manifest.length }] }) },
    { name: blob(sha(manifest)), data: manifest },
    { name: blob(sha(config)), data: config },
    { name: blob(sha(layer0)), data: layer0 },
    { name: blob(sha(layer1)), data: layer1 },
  ]);
  return [docker, oci];
}

const createHashHex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

// ---- oci-packages: the package database readers and the image config on their own

function packageSeeds(): Uint8Array[] {
  const seeds = imageSeeds();
  const out: Uint8Array[] = [];
  for (const e of readArchive(readArchive(seeds[0]!).entries.find((x) => x.path === 'l0.tar')!.data!).entries) if (e.data !== undefined) out.push(e.data);
  out.push(enc.encode('{"architecture":"amd64","config":{"Env":["A=1"],"Labels":{"a":"b"}},"history":[{"created_by":"x"}]}'));
  return out;
}

function runPackages(input: Uint8Array): unknown {
  return [readDpkgStatus(input), readApkInstalled(input), readPythonMetadata(input), readNodePackage(input), readOsRelease(input), parseImageConfig(input)];
}

// ---- rpm: header blobs and the sqlite database

let rpmSeed: Uint8Array[] | undefined;
function rpmSqliteSeeds(): Uint8Array[] {
  try {
    return (rpmSeed ??= [bytesOf(path.join(IMAGES, 'rpmdb.sqlite'))]);
  } catch {
    return [];
  }
}

/** The Packages blobs of the fixture database, as header seeds. */
function rpmHeaderSeeds(): Uint8Array[] {
  const db = rpmSqliteSeeds()[0];
  if (db === undefined) return [];
  const out: Uint8Array[] = [];
  const copy = Buffer.from(db);
  // a WAL-mode header cannot be opened from memory (as readRpmSqlite does: read it as a rollback-journal database)
  copy[18] = 1;
  copy[19] = 1;
  const h = new BetterSqlite(copy, { readonly: true });
  for (const r of h.prepare('SELECT blob FROM Packages').all() as { blob: Uint8Array }[]) out.push(new Uint8Array(r.blob));
  h.close();
  return out;
}

const sqliteRefusal = (e: unknown): boolean => e instanceof Error && (e.name === 'SqliteError' || e.constructor.name === 'SqliteError');

// ---- sbom: the schema checks over corpus documents

function sbomSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  return filesUnder(corpusPath('supplychain', 'sbom'))
    .filter((f) => f.endsWith('.json') && statSync(f).size < 400_000)
    .map(bytesOf);
}

async function runSbom(input: Uint8Array): Promise<unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(dec.decode(input));
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const d = doc as Record<string, unknown>;
  return [await validateCycloneDx(d), validateSpdx(d)];
}

// ---- manifests: every lock file reader and the declared readers, input `name\ntext`

function manifestSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  return filesUnder(corpusPath('supplychain', 'lockfiles'))
    .filter((f) => statSync(f).size < 300_000 && !f.endsWith('.md'))
    .map((f) => enc.encode(`${path.basename(f)}\n${readFileSync(f, 'utf8')}`));
}

function runManifest(input: Uint8Array): unknown {
  const text = dec.decode(input);
  const nl = text.indexOf('\n');
  const name = nl < 0 ? text : text.slice(0, nl);
  const body = nl < 0 ? '' : text.slice(nl + 1);
  const out: unknown[] = [];
  try {
    const doc = readManifest(name, body);
    out.push(doc.entries.length, pinEntriesOf(doc)?.length, doc.warnings.length);
  } catch (e) {
    if (!(e instanceof VitrineError)) throw e;
  }
  if (declaredFormatFor(name) !== undefined) {
    try {
      out.push(readDeclaredManifest(name, body));
    } catch (e) {
      if (!(e instanceof VitrineError)) throw e;
    }
  }
  return out;
}

export const TARGETS: readonly FuzzTarget[] = [
  { name: 'petriage-pe-dissect', about: 'the PE dissector alone on every corpus PE and writer-built ones', seeds: peSeeds, run: dissect, check: peCheck },
  { name: 'core-zip-file', about: 'the zip reader over a file source and in memory, every member read, then readArchive', seeds: zipSeeds, run: runZip },
  { name: 'core-oci-image', about: 'readImage on small docker-save and OCI-layout images (packages, whiteouts, config)', seeds: imageSeeds, run: (b) => readImage(b), check: (r) => jsonProblem(r, 64 * 1024 * 1024) },
  { name: 'core-oci-packages', about: 'dpkg status, apk installed, Python METADATA, package.json, os-release and image config readers', seeds: packageSeeds, run: runPackages },
  { name: 'core-rpm-header', about: 'one RPM header blob as rpmdb.sqlite stores it', seeds: rpmHeaderSeeds, run: readRpmHeader },
  { name: 'core-rpm-sqlite', about: 'rpmdb.sqlite read from its bytes', seeds: rpmSqliteSeeds, run: readRpmSqlite, refused: sqliteRefusal },
  { name: 'core-sbom-validate', about: 'the CycloneDX and SPDX schema checks over corpus SBOM JSON', seeds: sbomSeeds, run: runSbom, structure: 'json' },
  { name: 'core-manifests', about: 'readManifest (and readDeclaredManifest) on `file name\\ntext` of corpus lock files', seeds: manifestSeeds, run: runManifest },
];
