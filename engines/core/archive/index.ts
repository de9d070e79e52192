// The in-memory archive reader: tar, tar.gz, gzip and zip with limits against bombs and unsafe members.
export { DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, readArchive, readNested } from './read.js';
export type { ReadArchiveOptions } from './read.js';
export type { ArchiveEntry, ArchiveFormat, ArchiveIssue, ArchiveIssueCode, ArchiveLimits, ArchiveReadResult, EntryKind } from './types.js';
export { ZipMemberGuard, ZIP_MAX_RATIO } from './zip-guard.js';
export { installedView, NPM_VIEW_ROOT } from './installed.js';
export type { ArchiveConsumer } from './installed.js';
export type { ArchiveAmbiguity, ArchiveAmbiguityCode } from './types.js';
