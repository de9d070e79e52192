// Container images read in memory: docker-save and OCI-layout tarballs, layers with whiteouts, the final file index, installed packages.
export { applyLayer, DEFAULT_IMAGE_LIMITS, parseImageConfig, readImage, type ReadImageOptions } from './image.js';
export { FileIndex, normalizeLayerPath, OPAQUE_MARKER, WHITEOUT_PREFIX, whiteoutOf } from './fsindex.js';
export { osvEcosystemOf, readApkInstalled, readDpkgStatus, readNodePackage, readOsRelease, readPythonMetadata } from './packages.js';
export { OS_RELEASE_PATHS, PACKAGE_SOURCES, packageSourceOf, purlOf, sourceForType, sourceKindOf, SourceUnreadable, type PackageSource, type PackageSourceEntry, type SourceKind } from './sources.js';
export { readRpmHeader, readRpmSqlite } from './rpm.js';
export type * from './types.js';
