// The shape of a container image read in memory: configuration, layers, the final file index, installed packages, and what could not be read.
import type { PackageSourceEntry } from './sources.js';
import type { ArchiveIssueCode } from '../archive/types.js';

export type ImageFormat = 'docker-archive' | 'oci-layout' | 'unknown';

export type ImageIssueCode =
  | ArchiveIssueCode
  | 'no_manifest'
  | 'bad_manifest'
  | 'bad_config'
  | 'missing_blob'
  | 'digest_mismatch'
  | 'diff_id_mismatch'
  | 'multiple_images'
  | 'too_many_layers'
  | 'expanded_too_large'
  | 'unsafe_layer_path'
  | 'package_db_unreadable'
  | 'cancelled';

/** A problem met while reading the image; `stops` marks those after which the result must not be taken as clean. */
export interface ImageIssue {
  readonly code: ImageIssueCode;
  readonly message: string;
  /** 0-based layer index, when the problem is in a layer. */
  readonly layer?: number;
  /** Path inside the layer or the outer archive. */
  readonly path?: string;
  readonly stops: boolean;
}

/** The parts of the image configuration the checks read (environment values stay here, never in a response). */
export interface ImageConfig {
  readonly os: string | null;
  readonly architecture: string | null;
  readonly created: string | null;
  /** `''` when none is configured. */
  readonly user: string;
  readonly env: readonly string[];
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly workingDir: string | null;
  readonly exposedPorts: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
  readonly diffIds: readonly string[];
  /** History lines that made a layer (empty_layer entries left out), in layer order. */
  readonly layerHistory: readonly (string | null)[];
}

/** The package types, as the sources of sources.ts name them (deb, apk, rpm, pypi, npm). */
export type PackageType = PackageSourceEntry['type'];

/** What a package database states about one package (its type is its source's). */
export interface PackageFields {
  readonly name: string;
  readonly version: string;
  readonly arch: string | null;
  readonly source: string | null;
  readonly sourceVersion: string | null;
  readonly license: string | null;
}

/** A package as its database states it, before the layer that put it there is known. */
export interface PackageRecord extends PackageFields {
  readonly type: PackageType;
}

/** An installed package of the final image: its record, where it was read from and the layer that put it there. */
export interface InstalledPackage extends PackageRecord {
  /** The database or metadata file it was read from (no leading `/`). */
  readonly file: string;
  readonly purl: string | null;
  /** The OSV ecosystem it is looked up under (`PyPI`, `npm`, the distribution's for OS packages), null when none can be named. */
  readonly ecosystem: string | null;
  /** 0-based index of the layer that put this version in place. */
  readonly layer: number;
}

/** One file system object of the final image (after every layer and whiteout). */
export interface IndexEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
  readonly mode: number;
  readonly size: number;
  readonly layer: number;
  readonly linkTarget?: string;
}

export interface PackageChange {
  readonly type: PackageType;
  readonly name: string;
  readonly version: string;
  readonly from?: string;
}

export interface LayerInfo {
  readonly index: number;
  readonly digest: string | null;
  readonly diffId: string | null;
  readonly mediaType: string | null;
  readonly size: number;
  readonly createdBy: string | null;
  readonly complete: boolean;
  readonly filesAdded: number;
  readonly filesChanged: number;
  readonly filesRemoved: number;
  readonly bytesAdded: number;
  readonly packagesAdded: readonly PackageChange[];
  readonly packagesUpgraded: readonly PackageChange[];
  readonly packagesRemoved: readonly PackageChange[];
}

/** A member of one layer as the per-layer hook sees it (after path normalisation; whiteout markers are not passed). */
export interface LayerFile {
  readonly path: string;
  readonly kind: IndexEntry['kind'];
  readonly mode: number;
  readonly size: number;
  readonly data?: Uint8Array;
  readonly linkTarget?: string;
}

export interface OsRelease {
  readonly id: string;
  readonly versionId: string | null;
  readonly prettyName: string | null;
  /** The OSV ecosystem of the OS packages (`Debian:12`, `Alpine:v3.19`), null when there is none we can name. */
  readonly osvEcosystem: string | null;
}

export interface ImageLimits {
  /** Layers read at most. */
  readonly maxLayers: number;
  /** Sum of the uncompressed bytes of every layer. */
  readonly maxExpandedBytes: number;
  /** Members of one layer. */
  readonly maxLayerEntries: number;
  /** One file's bytes kept for the package readers (rpmdb.sqlite is the big one). */
  readonly maxRetainedFileBytes: number;
}

export interface ImageRead {
  readonly format: ImageFormat;
  /** False when anything stopped the read (damage, truncation, a limit, an unreadable layer): never treat as clean. */
  readonly complete: boolean;
  readonly issues: readonly ImageIssue[];
  readonly repoTags: readonly string[];
  readonly config: ImageConfig | null;
  readonly layers: readonly LayerInfo[];
  /** Final file system, sorted by path. */
  readonly files: readonly IndexEntry[];
  readonly packages: readonly InstalledPackage[];
  readonly os: OsRelease | null;
}
