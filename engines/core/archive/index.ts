// The archive readers: tar, tar.gz, gzip and zip in memory with limits against bombs and unsafe members, and the one zip reader (in memory or streamed from a file).
export { DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, readArchive, readNested } from './read.js';
export type { ReadArchiveOptions } from './read.js';
export { INCOMPLETE_ISSUES } from './types.js';
export type { ArchiveEntry, ArchiveFormat, ArchiveIssue, ArchiveIssueCode, ArchiveLimits, ArchiveReadResult, EntryKind, ReadFormat } from './types.js';
export { inflateBudget, MAX_RATIO, RATIO_FLOOR_BYTES } from './ratio.js';
export { FileSource, memorySource, ZipArchive, ZIP_MAX_MEMBERS } from './zipfile.js';
export type { ByteSource, ZipData, ZipMember, ZipOpenOptions, ZipProblem, ZipRefusal } from './zipfile.js';
export { installedView, NPM_VIEW_ROOT } from './installed.js';
export type { ArchiveConsumer } from './installed.js';
export type { ArchiveAmbiguity, ArchiveAmbiguityCode } from './types.js';
