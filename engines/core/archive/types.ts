// The shape of an archive read in memory (npm .tgz, sdist .tar.gz/.zip, wheel .whl, image layers): members, the problems met on the way, and the limits that stop bombs.

/** Bounds applied while reading; a read that reaches one stops there and says so (`complete: false`). */
export interface ArchiveLimits {
  /** Sum of the uncompressed sizes of all members read (default 512 MiB). */
  readonly maxTotalBytes: number;
  /** Members of any kind (default 20,000). */
  readonly maxEntries: number;
  /** One member's uncompressed size (default 64 MiB); a larger member is listed without data. */
  readonly maxEntryBytes: number;
  /** Archives inside archives that are opened (default 2; nested archives deeper than this are listed, not opened). */
  readonly maxNesting: number;
  /** Largest ratio of uncompressed to compressed size for one gzip stream or zip member (default 200). */
  readonly maxRatio: number;
}

/** The container formats read. */
export type ArchiveFormat = 'tar' | 'tar.gz' | 'zip' | 'gzip';

/** What a read found: one of the formats, or `unknown` for bytes that are none of them (nothing was read; bzip2, xz and zstd included). */
export type ReadFormat = ArchiveFormat | 'unknown';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

export interface ArchiveEntry {
  /** The member's path as stored, `/`-separated (never normalised away: an unsafe path is kept as is and flagged). */
  readonly path: string;
  readonly kind: EntryKind;
  /** Uncompressed size in bytes as declared by the archive. */
  readonly size: number;
  /** Unix mode bits where the format records them (tar; zip's external attributes when made on Unix). */
  readonly mode?: number;
  /** Target of a symlink or hardlink member. */
  readonly linkTarget?: string;
  /** The member's bytes: files only, and only when within the limits. */
  readonly data?: Uint8Array;
  /** For a member of a nested archive: the path of the archive member it came from (outermost first, joined by `!/`). */
  readonly container?: string;
}

export type ArchiveIssueCode =
  | 'absolute_path'
  | 'path_traversal'
  | 'link_member'
  | 'device_member'
  | 'duplicate_member'
  /** The installer would read the archive otherwise than the analysis did (a member after an end marker, zip names that disagree). */
  | 'installer_ambiguity'
  | 'member_too_large'
  | 'too_many_members'
  | 'total_too_large'
  | 'ratio_too_high'
  | 'nesting_too_deep'
  | 'overlapping_members'
  | 'encrypted_member'
  | 'unsupported_compression'
  | 'truncated'
  | 'corrupt';

/** The issues that mean the archive was not read in full (data missing or reading stopped): a read with one is `complete: false`. */
export const INCOMPLETE_ISSUES: ReadonlySet<ArchiveIssueCode> = new Set<ArchiveIssueCode>([
  'member_too_large',
  'too_many_members',
  'total_too_large',
  'ratio_too_high',
  'nesting_too_deep',
  'overlapping_members',
  'encrypted_member',
  'unsupported_compression',
  'truncated',
  'corrupt',
]);

/** A problem met while reading: the member it concerns (when one) and our own message (never member bytes). */
export interface ArchiveIssue {
  readonly code: ArchiveIssueCode;
  readonly path?: string;
  readonly message: string;
}

/**
 * Where installers disagree about what an archive holds (npm's node-tar, Python's tarfile and zipfile, other tools):
 * the analysis may not see what is installed, so a consumer treats any of these as making its read incomplete.
 */
export type ArchiveAmbiguityCode =
  /** A tar member after one zero block: node-tar reads on, tarfile stops. */
  | 'after_end_marker'
  /** A tar header after the two end-of-archive zero blocks: npm and Python stop, `tar -i` reads it. */
  | 'after_end_of_archive'
  /** A tar member after a header whose checksum fails: node-tar skips the block and reads on, tarfile stops. */
  | 'after_bad_header'
  /** Two members install to one path; the installer keeps the last. */
  | 'duplicate_path'
  /** An npm tarball with more than one top-level folder (or files at the top): strip-1 maps them onto one tree. */
  | 'second_root'
  /** A zip local header names another file than its central-directory record (Python refuses it, other tools use either). */
  | 'local_name_mismatch'
  /** The zip end record counts other members than its central directory holds (Python reads the directory). */
  | 'directory_count_mismatch';

export interface ArchiveAmbiguity {
  readonly code: ArchiveAmbiguityCode;
  readonly path?: string;
  readonly message: string;
}

export interface ArchiveReadResult {
  readonly format: ReadFormat;
  readonly entries: readonly ArchiveEntry[];
  readonly issues: readonly ArchiveIssue[];
  /** Where installers would read these bytes differently (see ArchiveAmbiguityCode); the reader does not judge them. */
  readonly ambiguities: readonly ArchiveAmbiguity[];
  /** False when the archive could not be read to its end (damage, truncation, a limit reached): never treat it as clean. */
  readonly complete: boolean;
  /** Sum of the uncompressed bytes read. */
  readonly totalBytes: number;
  /** With `digestUncompressed`: SHA-256 hex of a gzip stream decoded whole (absent when it was cut, damaged or over a limit). */
  readonly uncompressedSha256?: string;
}
