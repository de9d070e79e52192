// Opens an npm or PyPI release archive in memory into a PackageRelease: files with hashes, declared metadata, archive issues. Nothing is extracted or run.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { detectArchiveFormat, installedView, readArchive } from '../../core/archive/index.js';
import type { ArchiveEntry, ArchiveLimits, ArchiveReadResult } from '../../core/archive/index.js';
import { VitrineError } from '../../core/errors.js';
import { pep503 } from '../../core/manifests/index.js';
import { validate } from '../../core/validation.js';
import {
  emptyMetadata,
  mergeMetadata,
  parseEntryPoints,
  parsePackageJson,
  parsePkgInfo,
  parsePyproject,
  parseReleaseFilename,
  parseSetupCfg,
  parseSetupPy,
  type PartialMetadata,
} from './metadata.js';
import { SCAN_ECOSYSTEMS, type IdentitySource, type PackageRelease, type RegistryInfo, type ReleaseFile, type ReleaseKind, type ScanEcosystem } from './types.js';

export interface OpenReleaseHint {
  /** The release's file name (used for the name/version fallback and as `PackageRelease.filename`; never for the format). */
  readonly filename?: string;
  /** The ecosystem the caller expects; it settles archives that hold both a package.json and Python packaging files. */
  readonly ecosystem?: ScanEcosystem;
  readonly registry?: RegistryInfo;
  /** Archive limits (defaults: DEFAULT_ARCHIVE_LIMITS). */
  readonly limits?: Partial<ArchiveLimits>;
}

const hintSchema = z.object({
  filename: z.string().max(1024).optional(),
  ecosystem: z.enum(SCAN_ECOSYSTEMS).optional(),
});

const utf8 = new TextDecoder('utf-8');
/** Metadata files larger than this are not parsed (a real one is a few KiB). */
const MAX_METADATA_BYTES = 4 * 1024 * 1024;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The stored path without leading `./` segments, for matching layout. */
function clean(path: string): string {
  return path.replace(/^(\.\/)+/, '');
}

function depth(path: string): number {
  return path.split('/').length;
}

/** The folder (with trailing `/`, or '') of the shallowest file whose base name matches, within two folders of the top. */
function rootOf(files: readonly ArchiveEntry[], base: RegExp): string | undefined {
  let best: string | undefined;
  for (const e of files) {
    const p = clean(e.path);
    const slash = p.lastIndexOf('/');
    const name = p.slice(slash + 1);
    if (!base.test(name) || depth(p) > 3) continue;
    const dir = p.slice(0, slash + 1);
    if (best === undefined || depth(dir) < depth(best) || (depth(dir) === depth(best) && dir < best)) best = dir;
  }
  return best;
}

function textOf(files: readonly ArchiveEntry[], path: string): string | undefined {
  const e = files.find((f) => clean(f.path) === path && f.data !== undefined);
  if (e?.data === undefined || e.data.length > MAX_METADATA_BYTES) return undefined;
  return utf8.decode(e.data);
}

interface Layout {
  readonly ecosystem: ScanEcosystem;
  readonly kind: ReleaseKind;
  /** Folder prefix taken off each path ('' when none). */
  readonly root: string;
  /** True when only the caller's hint or the file name made this a package (no package.json, PKG-INFO, METADATA or Python build file). */
  readonly guessed?: boolean;
}

function layoutOf(read: ArchiveReadResult, hint: ScanEcosystem | undefined, filename: string | undefined): Layout | undefined {
  const files = read.entries.filter((e) => e.kind === 'file');
  if (read.format === 'zip') {
    const dist = files.map((e) => clean(e.path)).find((p) => /^[^/]+\.dist-info\/METADATA$/.test(p));
    if (dist !== undefined) return { ecosystem: 'pypi', kind: 'wheel', root: '' };
    const py = rootOf(files, /^(PKG-INFO|setup\.py|pyproject\.toml|setup\.cfg)$/);
    if (py !== undefined) return { ecosystem: 'pypi', kind: 'sdist-zip', root: py };
    if (hint === 'pypi') return { ecosystem: 'pypi', kind: 'sdist-zip', root: '', guessed: true };
    return undefined;
  }
  if (read.format !== 'tar' && read.format !== 'tar.gz') return undefined;
  const npm = rootOf(files, /^package\.json$/);
  const pkgInfo = rootOf(files, /^PKG-INFO$/);
  const py = pkgInfo ?? rootOf(files, /^(pyproject\.toml|setup\.py|setup\.cfg)$/);
  const asNpm: Layout = { ecosystem: 'npm', kind: 'npm-tgz', root: npm ?? '', ...(npm === undefined ? { guessed: true } : {}) };
  const asPy: Layout = { ecosystem: 'pypi', kind: 'sdist-tar', root: py ?? '', ...(py === undefined ? { guessed: true } : {}) };
  // The hint settles an archive that holds both; it only guesses (and says so) for one that holds neither.
  if (hint === 'npm' && (npm !== undefined || py === undefined)) return asNpm;
  if (hint === 'pypi' && (py !== undefined || npm === undefined)) return asPy;
  if (npm === 'package/') return asNpm;
  if (npm !== undefined && py !== undefined) {
    if (pkgInfo !== undefined && depth(pkgInfo) <= depth(npm)) return asPy;
    return depth(npm) <= depth(py) ? asNpm : asPy;
  }
  if (npm !== undefined) return asNpm;
  if (py !== undefined) return asPy;
  // An empty or unreadable archive: the file name is the last clue.
  if (filename !== undefined && parseReleaseFilename(filename) !== undefined) {
    if (/\.whl$/i.test(filename)) return { ecosystem: 'pypi', kind: 'wheel', root: '', guessed: true };
    if (/\.tgz$/i.test(filename)) return asNpm;
  }
  return undefined;
}

function pypiMetadata(read: ArchiveReadResult, layout: Layout): PartialMetadata {
  const files = read.entries.filter((e) => e.kind === 'file');
  const m = emptyMetadata();
  const root = layout.root;
  if (layout.kind === 'wheel') {
    const dist = files.map((e) => clean(e.path)).find((p) => /^[^/]+\.dist-info\/METADATA$/.test(p));
    const distDir = dist?.slice(0, -'METADATA'.length) ?? '';
    const meta = dist === undefined ? undefined : textOf(files, dist);
    if (meta !== undefined) mergeMetadata(m, parsePkgInfo(meta));
    const eps = textOf(files, `${distDir}entry_points.txt`);
    if (eps !== undefined) m.entryPoints = parseEntryPoints(eps);
    return m;
  }
  const pkgInfo = textOf(files, `${root}PKG-INFO`);
  if (pkgInfo !== undefined) mergeMetadata(m, parsePkgInfo(pkgInfo));
  const cfg = textOf(files, `${root}setup.cfg`);
  const pyproject = textOf(files, `${root}pyproject.toml`);
  if (pyproject !== undefined) mergeMetadata(m, parsePyproject(pyproject));
  if (cfg !== undefined) mergeMetadata(m, parseSetupCfg(cfg));
  // The egg-info beside the sources (setuptools writes it into sdists) names console scripts.
  const egg = files.map((e) => clean(e.path)).find((p) => p.startsWith(root) && /^[^/]+\.egg-info\/entry_points\.txt$/.test(p.slice(root.length)));
  if (m.entryPoints.length === 0 && egg !== undefined) {
    const eps = textOf(files, egg);
    if (eps !== undefined) m.entryPoints = parseEntryPoints(eps);
  }
  const setupPy = textOf(files, `${root}setup.py`);
  if (setupPy !== undefined && (m.name === undefined || m.version === undefined)) {
    const fromPy = parseSetupPy(setupPy);
    // A setup.py literal fills only a gap: a version may be a variable and a later literal something else.
    if (m.name === undefined && fromPy.name !== undefined) m.name = fromPy.name;
    if (m.version === undefined && fromPy.version !== undefined && /^v?\d/.test(fromPy.version)) m.version = fromPy.version;
    const { name: _n, version: _v, ...rest } = fromPy;
    mergeMetadata(m, rest);
  } else if (setupPy !== undefined && m.entryPoints.length === 0) {
    // the commands setup.py installs, when no metadata file named them
    m.entryPoints = parseSetupPy(setupPy).entryPoints;
  }
  return m;
}

function npmMetadata(read: ArchiveReadResult, layout: Layout): PartialMetadata {
  const files = read.entries.filter((e) => e.kind === 'file');
  const text = textOf(files, `${layout.root}package.json`);
  return (text === undefined ? undefined : parsePackageJson(text)) ?? emptyMetadata();
}

/**
 * Opens a release archive held in memory. The format comes from the bytes; the hint's file name is used only
 * when the archive declares no name or version. Throws `validation_failed` when it is no npm or PyPI release.
 */
export function openRelease(bytes: Uint8Array, hint?: OpenReleaseHint): PackageRelease {
  if (!(bytes instanceof Uint8Array)) throw new VitrineError('bad_request', 'openRelease needs the archive as a Uint8Array');
  const h = validate(hintSchema, { filename: hint?.filename, ecosystem: hint?.ecosystem }, 'release hint');
  const raw = readArchive(bytes, hint?.limits);
  if (detectArchiveFormat(bytes) === undefined && raw.entries.length === 0) {
    throw new VitrineError('validation_failed', 'the archive is not an npm or PyPI release: it is not a tar, gzip or zip archive');
  }
  // The members as the installer places them (npm: strip-1, last wins; Python: last wins); where installers disagree the read is incomplete.
  const guess = layoutOf(raw, h.ecosystem, h.filename);
  const read = installedView(raw, guess?.kind === 'npm-tgz' ? 'npm' : 'python');
  const layout = guess === undefined ? undefined : (layoutOf(read, guess.ecosystem, h.filename) ?? guess);
  if (layout === undefined) throw new VitrineError('validation_failed', 'the archive is not an npm or PyPI release: no package.json, PKG-INFO, METADATA or Python build file was found');

  const m = layout.ecosystem === 'npm' ? npmMetadata(read, layout) : pypiMetadata(read, layout);
  const fromName = h.filename === undefined ? undefined : parseReleaseFilename(h.filename);
  // An sdist's top folder is `name-version/` by convention: the archive's own last word when nothing else declares it.
  const top = layout.root.split('/')[0];
  const fromFolder = layout.ecosystem === 'pypi' && top !== undefined && top !== '' ? parseReleaseFilename(`${top}.tar.gz`) : undefined;
  // A wheel's dist-info folder is `name-version.dist-info`: the wheel's own name for itself.
  const distInfo = layout.kind === 'wheel' ? read.entries.map((e) => clean(e.path)).map((p) => /^([^/]+)-([^/-]+)\.dist-info\//.exec(p)).find((x) => x !== null) : undefined;
  const fromDistInfo = distInfo?.[1] !== undefined && distInfo[2] !== undefined ? { name: distInfo[1], version: distInfo[2] } : undefined;
  const fromArchive = fromDistInfo ?? fromFolder;
  const name = m.name ?? fromArchive?.name ?? fromName?.name;
  const version = m.version ?? fromArchive?.version ?? fromName?.version;
  const identitySource: IdentitySource =
    layout.guessed === true ? 'filename' : m.name !== undefined && m.version !== undefined ? 'metadata' : (m.name ?? fromArchive?.name) !== undefined && (m.version ?? fromArchive?.version) !== undefined ? 'archive' : 'filename';
  if (name === undefined || version === undefined) {
    throw new VitrineError('validation_failed', 'the archive is not an npm or PyPI release: it declares no name and version, and the file name gives none');
  }

  const files: ReleaseFile[] = [];
  for (const e of read.entries) {
    if (e.kind !== 'file') continue;
    const stored = clean(e.path);
    const path = layout.root !== '' && stored.startsWith(layout.root) ? stored.slice(layout.root.length) : stored;
    const nested = e.data === undefined ? undefined : detectArchiveFormat(e.data);
    files.push({
      path,
      archivePath: e.path,
      size: e.size,
      sha256: e.data === undefined ? '' : sha256(e.data),
      ...(e.data !== undefined ? { data: e.data } : {}),
      executable: ((e.mode ?? 0) & 0o111) !== 0,
      ...(nested !== undefined ? { archiveFormat: nested } : {}),
    });
  }

  const ext = layout.kind === 'npm-tgz' ? 'tgz' : layout.kind === 'wheel' ? 'whl' : layout.kind === 'sdist-zip' ? 'zip' : 'tar.gz';
  const normalised = layout.ecosystem === 'pypi' ? pep503(name) : name;
  return {
    ecosystem: layout.ecosystem,
    name: normalised,
    version,
    kind: layout.kind,
    filename: h.filename ?? `${normalised}-${version}.${ext}`,
    sha256: sha256(bytes),
    size: bytes.length,
    files,
    metadata: {
      name,
      version,
      ...(m.description !== undefined ? { description: m.description } : {}),
      ...(m.license !== undefined ? { license: m.license } : {}),
      ...(m.homepage !== undefined ? { homepage: m.homepage } : {}),
      ...(m.repository !== undefined ? { repository: m.repository } : {}),
      ...(m.author !== undefined ? { author: m.author } : {}),
      maintainers: m.maintainers,
      scripts: m.scripts,
      dependencies: m.dependencies,
      entryPoints: m.entryPoints,
    },
    ...(hint?.registry !== undefined ? { registry: hint.registry } : {}),
    archiveIssues: [...read.issues, ...read.ambiguities.map((a) => ({ code: a.code === 'duplicate_path' || a.code === 'second_root' ? ('duplicate_member' as const) : ('installer_ambiguity' as const), ...(a.path !== undefined ? { path: a.path } : {}), message: a.message }))],
    complete: read.complete && read.ambiguities.length === 0,
    identitySource,
  };
}
