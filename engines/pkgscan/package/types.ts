// A package release as the analyzers see it: its files (bytes in memory), its declared metadata, and what the registry said about it.
import type { ArchiveFormat, ArchiveIssue } from '../../core/archive/types.js';

/** Ecosystems a package scan reads fully (others are refused with a validation error). */
export const SCAN_ECOSYSTEMS = ['npm', 'pypi'] as const;
export type ScanEcosystem = (typeof SCAN_ECOSYSTEMS)[number];

/** How the release is packed. */
export type ReleaseKind = 'npm-tgz' | 'wheel' | 'sdist-tar' | 'sdist-zip';

export interface ReleaseFile {
  /** Path inside the package with the archive's top folder taken off (`package/` for npm, `name-1.0/` for sdists), `/`-separated. */
  readonly path: string;
  /** The path as stored in the archive. */
  readonly archivePath: string;
  readonly size: number;
  /** SHA-256 hex of the bytes (empty when the bytes were not read, see `data`). */
  readonly sha256: string;
  /** Absent when the member was over a limit. */
  readonly data?: Uint8Array;
  /** An executable mode bit was set. */
  readonly executable: boolean;
  /** Set when the bytes are themselves an archive (by magic bytes): a package that ships archives is worth a look; they are not opened. */
  readonly archiveFormat?: ArchiveFormat;
}

export interface Person {
  readonly name?: string;
  readonly email?: string;
}

/** What the package declares about itself (package.json; PKG-INFO / METADATA / setup.cfg / pyproject). */
export interface DeclaredMetadata {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly license?: string;
  readonly homepage?: string;
  readonly repository?: string;
  readonly author?: Person;
  readonly maintainers: readonly Person[];
  /** npm lifecycle scripts (all of `scripts`; the analyzers pick the install-time ones). */
  readonly scripts: Readonly<Record<string, string>>;
  /** name -> spec (npm dependencies + optionalDependencies; PyPI Requires-Dist as `name -> specifier/marker text`). */
  readonly dependencies: Readonly<Record<string, string>>;
  /** npm `bin` entries / PyPI console scripts. */
  readonly entryPoints: readonly string[];
}

/** What a registry (or the import's accompanying metadata) said about the release; every field optional. */
export interface RegistryInfo {
  /** Every version the source knows, in the source's order. */
  readonly versions?: readonly string[];
  /** ISO time per version (npm `time`, PyPI `upload_time`). */
  readonly published?: Readonly<Record<string, string>>;
  readonly maintainers?: readonly Person[];
  /** npm `_npmUser`. */
  readonly publisher?: Person;
  /** npm `dist.integrity` (SRI) of the tarball. */
  readonly integrity?: string;
  /** npm registry signatures `dist.signatures` ({keyid, sig}). */
  readonly signatures?: readonly { readonly keyid: string; readonly sig: string }[];
  /** Sigstore bundles from the npm attestations endpoint or PEP 740 provenance objects, as JSON. */
  readonly attestations?: readonly unknown[];
}

/** Which release archive: the package, the version, the file and its bytes' digest and size. */
export interface ReleaseIdentity {
  readonly ecosystem: ScanEcosystem;
  /** Normalised name (PEP 503 for PyPI; npm as given, scope kept). */
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  /** SHA-256 hex of the archive bytes (the key of the archive in the package store). */
  readonly sha256: string;
  readonly size: number;
}

export interface PackageRelease extends ReleaseIdentity {
  readonly kind: ReleaseKind;
  readonly files: readonly ReleaseFile[];
  readonly metadata: DeclaredMetadata;
  readonly registry?: RegistryInfo;
  /** Archive problems (unsafe paths, limits, damage). */
  readonly archiveIssues: readonly ArchiveIssue[];
  /** False when the archive was not read to its end: the analysis is incomplete and never clean. */
  readonly complete: boolean;
  /**
   * Where the name and version came from: `metadata` (package.json, PKG-INFO, METADATA), `archive` (the archive's
   * own sdist folder or wheel dist-info folder), `filename` (only the caller's file name or ecosystem hint: the
   * package store refuses such an archive).
   */
  readonly identitySource: IdentitySource;
}

export type IdentitySource = 'metadata' | 'archive' | 'filename';
