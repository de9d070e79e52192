// Package releases in memory: openRelease and the release types the analyzers read.
export { openRelease } from './open.js';
export type { OpenReleaseHint } from './open.js';
export { parseReleaseFilename } from './metadata.js';
export { SCAN_ECOSYSTEMS } from './types.js';
export type { DeclaredMetadata, PackageRelease, Person, RegistryInfo, ReleaseFile, ReleaseKind, ScanEcosystem } from './types.js';
