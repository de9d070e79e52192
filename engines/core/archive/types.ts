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

export type ArchiveFormat = 'tar' | 'tar.gz' | 'zip' | 'gzip';

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

/** A problem met while reading: the member it concerns (when one) and our own message (never member bytes). */
export interface ArchiveIssue {
  readonly code: ArchiveIssueCode;
  readonly path?: string;
  readonly message: string;
}

export interface ArchiveReadResult {
  readonly format: ArchiveFormat;
  readonly entries: readonly ArchiveEntry[];
  readonly issues: readonly ArchiveIssue[];
  /** False when the archive could not be read to its end (damage, truncation, a limit reached): never treat it as clean. */
  readonly complete: boolean;
  /** Sum of the uncompressed bytes read. */
  readonly totalBytes: number;
}
