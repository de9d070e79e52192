// Where releases come from, offline: the workstation's content-addressed package store, then configured lab mirrors (npm registry protocol, PyPI Simple API).
import type { RegistryInfo, ReleaseIdentity, ScanEcosystem } from '../package/types.js';

/** A release a source holds, already copied into the package store (so a worker reads it by digest). */
export interface StoredRelease extends ReleaseIdentity {
  /** Which source it came from: `store`, `npm-mirror`, `pypi-mirror`. */
  readonly source: string;
  readonly registry?: RegistryInfo;
}

export interface PackageSource {
  /** `store`, `npm-mirror`, `pypi-mirror`. */
  readonly name: string;
  readonly ecosystems: readonly ScanEcosystem[];
  /** Versions this source knows for the package (empty when none); newest last is NOT assumed: callers sort. */
  versions(ecosystem: ScanEcosystem, name: string, signal?: AbortSignal): Promise<readonly string[]>;
  /** The release, copied into the package store, or null when this source does not hold that version. */
  fetch(ecosystem: ScanEcosystem, name: string, version: string, signal?: AbortSignal): Promise<StoredRelease | null>;
}
