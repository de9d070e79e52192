// Fuzz targets of pkgscan's parsers (tools/fuzz/fuzz.ts): release archives through openRelease and the analyzers
// (as a package scan reads them), project files through the project scan's file analysis (the YAML ones also with YAML
// structure mutations), and advisory files through the advisory import's reader.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as fflate from 'fflate';
import { buildTar, buildZip, paxRecord, type TarMember } from '../../../engines/core/archive/build.fixture.js';
import { DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, readArchive, readNested, type ArchiveEntry, type ArchiveReadResult } from '../../../engines/core/archive/index.js';
import { ImportTally } from '../../../engines/core/vulns/tally.js';
import { matchRecord } from '../../../engines/core/vulns/match.js';
import { detectKind, readSource } from '../../../engines/core/vulns/sources.js';
import { DEFAULT_ANALYZERS, runAnalyzers } from '../../../engines/pkgscan/analyzers/risk.js';
import { defaultResourcesDir } from '../../../engines/pkgscan/config.js';
import { openRelease } from '../../../engines/pkgscan/package/open.js';
import type { ScanEcosystem } from '../../../engines/pkgscan/package/types.js';
import { analyzeImage } from '../../../engines/pkgscan/containers/analyze.js';
import { analyzeProject } from '../../../engines/pkgscan/projects/analyze.js';
import { checkSubmission } from '../../../engines/pkgscan/projects/files.js';
import { archiveFindings } from '../../../engines/pkgscan/scans/analysis.js';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../../test/corpora.js';
import { jsonProblem, type FuzzTarget } from '../fuzz.js';

const read = (...parts: string[]): Uint8Array | undefined => {
  const file = corpusPath(...parts);
  return existsSync(file) ? new Uint8Array(readFileSync(file)) : undefined;
};

const present = (list: readonly (Uint8Array | undefined)[]): Uint8Array[] => list.filter((b): b is Uint8Array => b !== undefined);

/** A text seed cut to at most `max` bytes before a line that starts with `at` (default any line): the head of a real file. */
function head(b: Uint8Array | undefined, max: number, at = ''): Uint8Array | undefined {
  if (b === undefined || b.length <= max) return b;
  const marker = Buffer.from(`\n${at}`);
  const cut = Buffer.from(b.buffer, b.byteOffset, b.byteLength).lastIndexOf(marker, max - marker.length);
  return b.subarray(0, cut > 0 ? cut + 1 : max);
}

/** A problem with a value JSON must carry as the contract says (at most 64 MiB of it), or undefined. */
const resultProblem = (value: unknown): string | undefined => jsonProblem(value, 64 * 1024 * 1024);

const finite = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n);

// ---- release archives: the package scan's worker reads a stored archive with openRelease, then runs the analyzers

let resources: string | undefined;

async function scanRelease(bytes: Uint8Array, ecosystem: ScanEcosystem, filename: string): Promise<unknown> {
  resources ??= defaultResourcesDir();
  const release = openRelease(bytes, { filename, ecosystem });
  const archive = archiveFindings(release.archiveIssues);
  const analyzed = await runAnalyzers(release, { resourcesDir: resources, internalNamespaces: ['@acme/'] }, DEFAULT_ANALYZERS);
  return {
    ecosystem: release.ecosystem,
    name: release.name,
    version: release.version,
    kind: release.kind,
    complete: release.complete,
    metadata: release.metadata,
    files: release.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256, executable: f.executable })),
    issues: release.archiveIssues.length,
    findings: [...archive, ...analyzed.findings],
    chains: analyzed.chains,
    runs: analyzed.runs,
    risk: analyzed.risk,
  };
}

interface ScanSummary {
  readonly files: readonly unknown[];
  readonly findings: readonly unknown[];
  readonly runs: readonly { name: string; status: string }[];
  readonly risk: { score: number };
}

function checkScan(result: unknown): string | undefined {
  const r = result as ScanSummary;
  // an analyzer that throws is recorded as `failed`: on bytes a user submits that is a crash the scan hid
  const failed = r.runs.find((x) => x.status === 'failed');
  if (failed !== undefined) return `analyzer ${failed.name} failed`;
  if (!finite(r.risk.score) || r.risk.score < 0 || r.risk.score > 1) return 'risk score not a number in [0, 1]';
  if (r.files.length > DEFAULT_ARCHIVE_LIMITS.maxEntries) return 'more files than the archive limit';
  if (r.findings.length > 20_000) return 'more than 20,000 findings';
  return resultProblem(result);
}

/** The tar inside a .tgz (mutations then reach the tar headers and the files the analyzers read, not only the gzip stream). */
function gunzipped(b: Uint8Array | undefined): Uint8Array | undefined {
  if (b === undefined) return undefined;
  try {
    return new Uint8Array(gunzipSync(b));
  } catch {
    return undefined;
  }
}

function npmSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const tgz = (name: string): Uint8Array | undefined => read('packages', 'benign', 'npm', name);
  return present([
    gunzipped(tgz('ms-2.1.3.tgz')),
    gunzipped(tgz('minimist-1.2.8.tgz')),
    gunzipped(tgz('debug-4.4.3.tgz')),
    gunzipped(tgz('husky-4.3.8.tgz')),
    gunzipped(tgz('body-parser-2.4.0.tgz')),
    tgz('ms-2.1.3.tgz'),
  ]);
}

/** A wheel laid out from a real sdist's files (`pkg/...` plus a dist-info folder), deflated and stored members mixed. */
function wheelOf(sdist: Uint8Array | undefined): Uint8Array | undefined {
  if (sdist === undefined) return undefined;
  const r = readArchive(sdist);
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  let top = '';
  let i = 0;
  for (const e of r.entries) {
    if (e.kind !== 'file' || e.data === undefined) continue;
    const slash = e.path.indexOf('/');
    top = e.path.slice(0, slash);
    const rest = e.path.slice(slash + 1);
    const name = rest === 'PKG-INFO' ? `${top}.dist-info/METADATA` : rest;
    files[name] = [e.data, { level: i++ % 2 === 0 ? 6 : 0 }];
  }
  files[`${top}.dist-info/WHEEL`] = [new TextEncoder().encode('Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n'), { level: 0 }];
  return fflate.zipSync(files);
}

function pypiSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const sdist = (name: string): Uint8Array | undefined => read('packages', 'benign', 'pypi', name);
  return present([
    gunzipped(sdist('crayons-0.4.0.tar.gz')),
    gunzipped(sdist('hashids-1.3.1.tar.gz')),
    gunzipped(sdist('alabaster-0.7.12.tar.gz')),
    gunzipped(sdist('backcall-0.2.0.tar.gz')),
    wheelOf(sdist('crayons-0.4.0.tar.gz')),
    wheelOf(sdist('alabaster-0.7.12.tar.gz')),
    sdist('crayons-0.4.0.tar.gz'),
  ]);
}

// ---- archives alone: the shared reader (tar, pax, GNU long names, gzip, zip, zip64, data descriptors, nesting)

/** Archives in each layout the reader takes, holding the files of a real package. */
function archiveSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const real = gunzipped(read('packages', 'benign', 'npm', 'ms-2.1.3.tgz'));
  if (real === undefined) return [];
  const files = readArchive(real).entries.filter((e) => e.kind === 'file' && e.data !== undefined);
  const longDir = `package/${'deeply-nested-folder/'.repeat(6)}`;
  const tar = buildTar([
    { name: 'PaxHeader', type: 'x', data: paxRecord('path', `${longDir}${files[0]!.path.split('/').pop()!}`) },
    { name: 'short', data: files[0]!.data! },
    { name: '././@LongLink', type: 'L', data: `${longDir}long-name.md\0` },
    { name: 'trunc', data: files[1]?.data ?? new Uint8Array(0) },
    { name: 'package/bin', type: '5', mode: 0o755 },
    { name: 'package/link', type: '2', linkname: '../package.json' },
    ...files.slice(2).map((f) => ({ name: f.path, data: f.data!, mode: 0o644 })),
  ]);
  const zipMembers = files.map((f, i) => ({ name: f.path, data: f.data!, deflate: i % 2 === 0, unixMode: 0o100644 }));
  const inner = buildZip(zipMembers.slice(0, 2));
  return [
    tar,
    buildZip(zipMembers),
    buildZip(zipMembers, undefined, { zip64: true }),
    buildZip(zipMembers, undefined, { descriptor: true }),
    buildZip([...zipMembers.slice(0, 2), { name: 'package/inner.zip', data: inner }, { name: 'package/inner.tar', data: buildTar([{ name: 'a.txt', data: 'a' }]) }]),
    new Uint8Array(gzipSync(tar)),
  ];
}

/** Reads an archive as the image and package readers do, opening archive members one level down. */
function readAll(input: Uint8Array): unknown {
  const outer = readArchive(input, undefined, { digestUncompressed: true });
  const nested: ArchiveReadResult[] = [];
  for (const e of outer.entries) if (e.data !== undefined && detectArchiveFormat(e.data) !== undefined && nested.length < 8) nested.push(readNested(e, 1));
  const summary = (r: ArchiveReadResult): unknown => ({
    format: r.format,
    complete: r.complete,
    issues: r.issues,
    entries: r.entries.map((e) => ({ path: e.path, kind: e.kind, size: e.size, mode: e.mode, link: e.linkTarget, bytes: e.data?.length })),
  });
  return { outer: summary(outer), nested: nested.map(summary), read: [outer, ...nested] };
}

function checkArchive(result: unknown): string | undefined {
  const r = result as { read: ArchiveReadResult[] };
  for (const a of r.read) {
    if (a.entries.length > DEFAULT_ARCHIVE_LIMITS.maxEntries) return 'more entries than the limit';
    let total = 0;
    for (const e of a.entries) {
      if (!Number.isSafeInteger(e.size) || e.size < 0) return 'an entry size that is not a non-negative integer';
      if (e.data !== undefined && e.data.length > DEFAULT_ARCHIVE_LIMITS.maxEntryBytes) return 'an entry over the member size limit';
      if (e.path.length > 1024 * 1024) return 'an entry path over 1 MiB';
      total += e.data?.length ?? 0;
    }
    if (total > DEFAULT_ARCHIVE_LIMITS.maxTotalBytes) return 'entries over the total size limit';
    if (a.issues.length > 100_000) return 'more than 100,000 issues';
  }
  const { read: _read, ...rest } = result as Record<string, unknown>;
  return resultProblem(rest);
}

// ---- container images: the container scan reads an uploaded docker save or OCI layout tar with analyzeImage

/**
 * The repository's real docker-save image (test/fixtures/images) made small: each layer keeps its members of at most
 * 8 KiB outside the documentation folders (os-release, the dpkg status, whiteouts, the planted secrets, set-uid and
 * world-writable modes, Python and npm metadata); the config's layer digests then no longer match, which is itself a case.
 */
function imageSeeds(): Uint8Array[] {
  const file = path.join(REPO_ROOT, 'test', 'fixtures', 'images', 'debian-layers.docker.tar');
  if (!existsSync(file)) return [];
  const outer = readArchive(new Uint8Array(readFileSync(file)));
  const kinds: Record<string, string> = { file: '0', directory: '5', symlink: '2', hardlink: '1' };
  const member = (e: ArchiveEntry, data = e.data): TarMember => ({
    name: e.path,
    type: kinds[e.kind] ?? '0',
    ...(data !== undefined ? { data } : {}),
    ...(e.mode !== undefined ? { mode: e.mode } : {}),
    ...(e.linkTarget !== undefined ? { linkname: e.linkTarget } : {}),
  });
  const members = outer.entries.map((e) => {
    if (e.kind !== 'file' || e.data === undefined || !e.path.endsWith('.tar')) return member(e);
    const layer = readArchive(e.data).entries.filter((m) => m.size <= 8 * 1024 && !/^(\.\/)?usr\/share\/(doc|man|common-licenses|zoneinfo)\//.test(m.path));
    return member(e, buildTar(layer.map((m) => member(m))));
  });
  const tar = buildTar(members);
  return [tar, new Uint8Array(gzipSync(tar))];
}

async function scanImage(input: Uint8Array): Promise<unknown> {
  return analyzeImage(input, { imageRef: 'fuzz:latest' });
}

function checkImage(result: unknown): string | undefined {
  const r = result as { tools: readonly { name: string; status: string }[]; packages: readonly unknown[]; findings: readonly unknown[] };
  // the SBOM is ours: one that fails its own schema check (or throws) on what an image declares is a bug
  if (r.tools.some((t) => t.name === 'sbom' && t.status === 'failed')) return 'the image SBOM failed to build or validate';
  if (r.findings.length > 50_000) return 'more than 50,000 findings';
  return resultProblem(result);
}

// ---- project files: the project scan validates the submitted files, then parses and lints each by its name

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A project-file seed: the file's path on the first line, its text after. */
const projectSeed = (name: string, b: Uint8Array | undefined): Uint8Array | undefined => {
  if (b === undefined) return undefined;
  const nameBytes = enc.encode(`${name}\n`);
  const o = new Uint8Array(nameBytes.length + b.length);
  o.set(nameBytes);
  o.set(b, nameBytes.length);
  return o;
};

function projectSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const lock = (...p: string[]): Uint8Array | undefined => read('supplychain', 'lockfiles', ...p);
  const docker = (...p: string[]): Uint8Array | undefined => read('supplychain', 'docker', ...p);
  return present([
    projectSeed('package-lock.json', lock('npm', 'v3-conftest-example-ts', 'package-lock.json')),
    projectSeed('package.json', lock('npm', 'v3-capa-explorer', 'package.json')),
    projectSeed('pnpm-lock.yaml', lock('pnpm', 'v5.3-cdxgen-test', 'pnpm-lock.yaml')),
    projectSeed('pnpm-lock.yaml', head(lock('pnpm', 'v9.0-cdxgen', 'pnpm-lock.yaml'), 16 * 1024, '  /')),
    projectSeed('yarn.lock', lock('yarn', 'berry-syft-fixture', 'yarn.lock')),
    projectSeed('yarn.lock', head(lock('yarn', 'v1-timesketch-frontend-v3', 'yarn.lock'), 16 * 1024, '\n')),
    projectSeed('requirements.txt', lock('python', 'timesketch', 'requirements.txt')),
    projectSeed('poetry.lock', head(lock('python', 'guarddog', 'poetry.lock'), 24 * 1024, '[[package]]')),
    projectSeed('uv.lock', head(lock('python', 'guarddog', 'uv.lock'), 24 * 1024, '[[package]]')),
    projectSeed('pyproject.toml', lock('python', 'in-toto', 'pyproject.toml')),
    projectSeed('Cargo.lock', head(lock('rust', 'evtx', 'Cargo.lock'), 16 * 1024, '[[package]]')),
    projectSeed('go.sum', head(lock('go', 'osv-scanner', 'go.sum'), 8 * 1024)),
    projectSeed('go.mod', lock('go', 'osv-scanner', 'go.mod')),
    projectSeed('bun.lock', lock('bun', 'evtx-viewer', 'bun.lock')),
    projectSeed('Dockerfile', docker('dependency-track', 'Dockerfile')),
    projectSeed('compose.yaml', docker('velociraptor', 'compose.yaml')),
  ]);
}

function scanProject(input: Uint8Array): unknown {
  const nl = input.indexOf(0x0a);
  const name = dec.decode(input.subarray(0, nl < 0 ? 0 : nl)) || 'requirements.txt';
  return scanFiles({ [name]: dec.decode(input.subarray(nl + 1)) });
}

/** A project scan of the submitted files (name to text), as the route runs it after validating the body. */
function scanFiles(submitted: Record<string, string>): unknown {
  const { files } = checkSubmission({ files: submitted });
  return analyzeProject(files, {
    projectName: 'fuzz',
    internalNamespaces: ['@acme/'],
    environment: 'prod',
    verdictOf: () => undefined,
    serial: 'urn:uuid:00000000-0000-4000-8000-000000000000',
    created: '2026-01-01T00:00:00Z',
    toolVersion: '0.0.0',
  });
}

// ---- YAML manifests: the same text read by each YAML reader of the project scan (pnpm-lock.yaml, yarn berry's
// yarn.lock, compose), with YAML structure mutations (yaml-mutate.ts)

/** The YAML file names a project scan reads with a YAML reader. */
const YAML_NAMES = ['pnpm-lock.yaml', 'yarn.lock', 'compose.yaml'] as const;

function yamlSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const lock = (...p: string[]): Uint8Array | undefined => read('supplychain', 'lockfiles', ...p);
  const docker = (...p: string[]): Uint8Array | undefined => read('supplychain', 'docker', ...p);
  return present([
    lock('pnpm', 'v5-syft-peer-suffix', 'pnpm-lock.yaml'),
    lock('pnpm', 'v5.3-cdxgen-test', 'pnpm-lock.yaml'),
    lock('pnpm', 'v5.4-cdxgen-test', 'pnpm-lock.yaml'),
    head(lock('pnpm', 'v6.0-cdxgen-test', 'pnpm-lock.yaml'), 12 * 1024, '  /'),
    head(lock('pnpm', 'v9.0-cdxgen', 'pnpm-lock.yaml'), 12 * 1024, '  '),
    lock('yarn', 'berry-cdxgen-yarn3', 'yarn.lock'),
    lock('yarn', 'berry-syft-fixture', 'yarn.lock'),
    docker('cdxgen', 'docker-compose.yml'),
    docker('dependency-track', 'compose.yaml'),
    docker('rita', 'docker-compose.yml'),
    docker('velociraptor', 'compose.yaml'),
  ]);
}

const scanYaml = (input: Uint8Array): unknown => {
  const text = dec.decode(input);
  return scanFiles(Object.fromEntries(YAML_NAMES.map((n) => [n, text])));
};

function checkProject(result: unknown): string | undefined {
  const r = result as { components: readonly unknown[]; findings: readonly unknown[]; parserWarnings: readonly unknown[]; risk: number };
  if (!finite(r.risk)) return 'risk not a finite number';
  if (r.components.length > 100_000) return 'more components than the entry limit';
  if (r.parserWarnings.length > 10_000) return 'more than 10,000 parser warnings';
  // the manifest readers turn an exception of their own (a bug, a stack overflow) into this generic refusal
  if (r.parserWarnings.some((w) => (w as { message?: string }).message === 'the manifest could not be parsed')) return 'a manifest reader threw (refused as "could not be parsed")';
  return resultProblem(result);
}

// ---- advisory files: the import reads a file of a kind told by its content (OSV JSON, KEV, EPSS, NVD), record by record

/** The import reads a file path: one fixed file per worker thread, overwritten for each input. */
const advisoryFile = path.join(os.tmpdir(), `vitrine-fuzz-advisory-${process.pid}-${threadId}`);

function advisorySeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const osvDir = (dir: string): Uint8Array[] => {
    const full = corpusPath('supplychain', 'osv', dir);
    return existsSync(full) ? readdirSync(full).sort().map((f) => new Uint8Array(readFileSync(path.join(full, f)))) : [];
  };
  const osv = [...osvDir('ghsa'), ...osvDir('go-vulndb'), ...osvDir('malicious-packages')];
  // an OSV export as a JSON array of records
  const array = osv.length > 0 ? enc.encode(`[${osv.map((b) => dec.decode(b)).join(',')}]`) : undefined;
  // an OSV export as a zip of records (read streamed from the file)
  const zip = osv.length > 0 ? fflate.zipSync(Object.fromEntries(osv.map((b, i) => [`rec-${i}.json`, [b, { level: i % 2 === 0 ? 6 : 0 }] as const]))) : undefined;
  return present([
    ...osv.slice(0, 4),
    array,
    zip,
    read('supplychain', 'kev-epss', 'grype-kev-fixture.json'),
    read('supplychain', 'kev-epss', 'grype-epss-fixture.json'),
    head(read('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.csv'), 8 * 1024),
  ]);
}

async function importAdvisories(input: Uint8Array): Promise<unknown> {
  writeFileSync(advisoryFile, input);
  const kind = await detectKind(advisoryFile);
  const tally = new ImportTally();
  const answers: string[] = [];
  for await (const item of readSource(advisoryFile, kind)) {
    const rec = tally.take(item);
    if (rec?.type !== 'osv') continue;
    // what a lookup does with a stored record: match it against each package and version it names
    for (const a of rec.record.affected ?? []) {
      const pkg = a.package;
      if (pkg === undefined) continue;
      for (const v of [...(a.versions ?? []).slice(0, 3), '0.0.1', '1.0.0']) answers.push(matchRecord(rec.record, pkg.ecosystem, pkg.name, v));
    }
  }
  return { kind, counts: tally.counts, samples: tally.samples, dataDate: tally.dataDate, answers: answers.length };
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'pkgscan-npm',
    about: 'npm release tarballs (tar and tgz): openRelease, package.json, the source analyzers (JS, text)',
    seeds: npmSeeds,
    run: (b) => scanRelease(b, 'npm', 'package.tgz'),
    check: checkScan,
  },
  {
    name: 'pkgscan-pypi',
    about: 'PyPI sdists (tar, tar.gz) and wheels (zip): openRelease, PKG-INFO/METADATA/setup files, the source analyzers (Python)',
    seeds: pypiSeeds,
    run: (b) => scanRelease(b, 'pypi', 'package.tar.gz'),
    check: checkScan,
  },
  {
    name: 'pkgscan-archive',
    about: 'the shared archive reader alone: tar (pax, GNU long names, links), tar.gz, zip (deflate, zip64, data descriptors), nested archives',
    seeds: archiveSeeds,
    run: readAll,
    check: checkArchive,
  },
  {
    name: 'pkgscan-image',
    about: 'container image uploads (docker save tar, gzipped): layers, whiteouts, dpkg/apk/rpm/Python/npm package records, config, secrets, the SBOM',
    seeds: imageSeeds,
    run: scanImage,
    check: checkImage,
  },
  {
    name: 'pkgscan-project',
    about: 'project files (lock files, manifests, Dockerfile, compose) through the project scan: first line the file name, then its text',
    seeds: projectSeeds,
    run: scanProject,
    check: checkProject,
  },
  {
    name: 'pkgscan-yaml',
    about: 'YAML manifests (pnpm-lock.yaml, yarn berry yarn.lock, compose) through the project scan: the text read by each YAML reader',
    seeds: yamlSeeds,
    run: scanYaml,
    check: checkProject,
    structure: 'yaml',
  },
  {
    name: 'pkgscan-advisories',
    about: 'advisory files (OSV JSON record or array, KEV JSON/CSV, EPSS) through the advisory import reader and version matching',
    seeds: advisorySeeds,
    run: importAdvisories,
    check: (r) => resultProblem(r),
  },
];
