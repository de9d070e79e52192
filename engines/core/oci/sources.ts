// The installed-package sources an image is read for: one descriptor per database or metadata format. Adding a format
// is one entry of PACKAGE_SOURCES (its package type, which files it is, how they read, its packages' purls and OSV ecosystem).
import { PackageURL } from 'packageurl-js';
import { readApkInstalled, readDpkgStatus, readNodePackage, readPythonMetadata } from './packages.js';
import { readRpmSqlite } from './rpm.js';
import type { OsRelease, PackageFields, PackageRecord } from './types.js';

/** Thrown by a source's `read` when the file is one it cannot read: the message becomes a `package_db_unreadable` issue. */
export class SourceUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceUnreadable';
  }
}

export interface PackageSource<T extends string = string, K extends string = string> {
  /** The source's name (`dpkg-status`, `rpm-sqlite`): what `sourceKindOf` answers for its files. */
  readonly kind: K;
  /** The package type of what it lists (the purl type family; several sources may share one). */
  readonly type: T;
  /** Whether an image path (normalised: no leading `/`) is one of its files. */
  readonly matches: (path: string) => boolean;
  /** The packages the file lists (none for a file without any); throws SourceUnreadable for a file it cannot read. */
  readonly read: (data: Uint8Array) => readonly PackageFields[];
  /** The purl of one of its packages, given the image's os-release. */
  readonly purl: (p: PackageFields, os: OsRelease | null) => string | null;
  /** The OSV ecosystem its packages are looked up under, given the image's os-release (null when there is none to name). */
  readonly ecosystem: (os: OsRelease | null) => string | null;
  /** Each file is one copy of one package (site-packages, node_modules): packages are told apart by file, not by name and arch. */
  readonly perFile: boolean;
}

/** Keeps each entry's `type` and `kind` as literals (PackageType and SourceKind are read from the table). */
function source<const T extends string, const K extends string>(s: PackageSource<T, K>): PackageSource<T, K> {
  return s;
}

/** `distro=<id>-<version id>` for OS packages. */
function distroOf(os: OsRelease | null): string | undefined {
  return os !== null ? `${os.id}-${os.versionId ?? ''}`.replace(/-$/, '') : undefined;
}

function osQualifiers(p: PackageFields, os: OsRelease | null): Record<string, string> {
  const q: Record<string, string> = {};
  if (p.arch !== null && p.arch !== '') q['arch'] = p.arch;
  const distro = distroOf(os);
  if (distro !== undefined) q['distro'] = distro;
  return q;
}

/** A purl built by packageurl-js, or null when it refuses the parts. */
function purl(build: () => PackageURL): string | null {
  try {
    return build().toString();
  } catch {
    return null;
  }
}

const debPurl = (p: PackageFields, os: OsRelease | null): string | null => purl(() => new PackageURL('deb', os?.id ?? 'debian', p.name, p.version, osQualifiers(p, os), undefined));
const rpmPurl = (p: PackageFields, os: OsRelease | null): string | null =>
  purl(() => {
    const q = osQualifiers(p, os);
    const colon = p.version.indexOf(':');
    if (colon > 0) q['epoch'] = p.version.slice(0, colon);
    return new PackageURL('rpm', os?.id ?? null, p.name, colon > 0 ? p.version.slice(colon + 1) : p.version, q, undefined);
  });
/** OS packages are looked up under the distribution's ecosystem (`Debian:12`, `Alpine:v3.19`). */
const osEcosystem = (os: OsRelease | null): string | null => os?.osvEcosystem ?? null;

const RPM_DIRS = ['var/lib/rpm/', 'usr/lib/sysimage/rpm/'];
const rpmFile = (name: string) => (path: string): boolean => RPM_DIRS.some((d) => path === `${d}${name}`);
const rpmUnread = (data: Uint8Array): readonly PackageFields[] => {
  void data;
  throw new SourceUnreadable('RPM Berkeley DB and NDB package databases are not read (only rpmdb.sqlite)');
};

const PY_DIST = /(?:^|\/)[^/]+\.dist-info\/METADATA$/;
const PY_EGG = /(?:^|\/)[^/]+\.egg-info(?:\/PKG-INFO)?$/;
const NODE = /(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/@][^/]*\/package\.json$/;
const one = <P>(p: P | undefined): readonly P[] => (p === undefined ? [] : [p]);

/** Every installed-package source, in the order a path is tried. */
export const PACKAGE_SOURCES = [
  source({
    kind: 'dpkg-status',
    type: 'deb',
    matches: (path: string): boolean => path === 'var/lib/dpkg/status',
    read: (data: Uint8Array): readonly PackageFields[] => readDpkgStatus(data),
    purl: debPurl,
    ecosystem: osEcosystem,
    perFile: false,
  }),
  source({
    kind: 'dpkg-status-d',
    type: 'deb',
    // distroless images: one stanza file per package, no Status field (installed by being there)
    matches: (path: string): boolean => path.startsWith('var/lib/dpkg/status.d/') && !path.slice(22).includes('/') && !/\.(md5sums|list|conffiles)$/.test(path),
    read: (data: Uint8Array): readonly PackageFields[] => readDpkgStatus(data, false),
    purl: debPurl,
    ecosystem: osEcosystem,
    perFile: false,
  }),
  source({
    kind: 'apk',
    type: 'apk',
    matches: (path: string): boolean => path === 'lib/apk/db/installed',
    read: (data: Uint8Array): readonly PackageFields[] => readApkInstalled(data),
    purl: (p: PackageFields, os: OsRelease | null): string | null => purl(() => new PackageURL('apk', os?.id ?? 'alpine', p.name.toLowerCase(), p.version, osQualifiers(p, os), undefined)),
    ecosystem: osEcosystem,
    perFile: false,
  }),
  source({
    kind: 'rpm-sqlite',
    type: 'rpm',
    matches: rpmFile('rpmdb.sqlite'),
    read: (data: Uint8Array): readonly PackageFields[] => {
      try {
        return readRpmSqlite(data);
      } catch {
        throw new SourceUnreadable('the RPM sqlite database could not be read');
      }
    },
    purl: rpmPurl,
    ecosystem: osEcosystem,
    perFile: false,
  }),
  source({ kind: 'rpm-bdb', type: 'rpm', matches: rpmFile('Packages'), read: rpmUnread, purl: rpmPurl, ecosystem: osEcosystem, perFile: false }),
  source({ kind: 'rpm-ndb', type: 'rpm', matches: rpmFile('Packages.db'), read: rpmUnread, purl: rpmPurl, ecosystem: osEcosystem, perFile: false }),
  source({
    kind: 'python',
    type: 'pypi',
    matches: (path: string): boolean => PY_DIST.test(path) || PY_EGG.test(path),
    read: (data: Uint8Array): readonly PackageFields[] => one(readPythonMetadata(data)),
    purl: (p: PackageFields): string | null => purl(() => new PackageURL('pypi', null, p.name.toLowerCase().replace(/[-_.]+/g, '-'), p.version, undefined, undefined)),
    ecosystem: (): string => 'PyPI',
    perFile: true,
  }),
  source({
    kind: 'node',
    type: 'npm',
    matches: (path: string): boolean => NODE.test(path),
    read: (data: Uint8Array): readonly PackageFields[] => one(readNodePackage(data)),
    purl: (p: PackageFields): string | null =>
      purl(() => {
        const scoped = p.name.startsWith('@') && p.name.includes('/');
        return new PackageURL('npm', scoped ? p.name.slice(0, p.name.indexOf('/')) : null, scoped ? p.name.slice(p.name.indexOf('/') + 1) : p.name, p.version, undefined, undefined);
      }),
    ecosystem: (): string => 'npm',
    perFile: true,
  }),
];

export type PackageSourceEntry = (typeof PACKAGE_SOURCES)[number];

/** The files that name the distribution (read for purls and OS ecosystems; not a package source), nearest first. */
export const OS_RELEASE_PATHS: readonly string[] = ['etc/os-release', 'usr/lib/os-release'];

/** The package source a path is, if any. */
export function packageSourceOf(path: string): PackageSourceEntry | undefined {
  return PACKAGE_SOURCES.find((s) => s.matches(path));
}

/** The source for a package type (the first of that type: they share purls and ecosystems). */
export function sourceForType(type: string): PackageSourceEntry | undefined {
  return PACKAGE_SOURCES.find((s) => s.type === type);
}

/** Which source a path is (`os-release` for the distribution's file), if any. */
export type SourceKind = PackageSourceEntry['kind'] | 'os-release';

export function sourceKindOf(path: string): SourceKind | undefined {
  return OS_RELEASE_PATHS.includes(path) ? 'os-release' : packageSourceOf(path)?.kind;
}

/** The purl of an installed package, by its type's source. */
export function purlOf(p: PackageRecord, os: OsRelease | null): string | null {
  return sourceForType(p.type)?.purl(p, os) ?? null;
}
