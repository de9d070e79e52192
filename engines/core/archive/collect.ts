// Shared bookkeeping for the archive readers: limits, unsafe-path checks, duplicate detection and the issue list.
import { INCOMPLETE_ISSUES, type ArchiveAmbiguity, type ArchiveAmbiguityCode, type ArchiveEntry, type ArchiveIssue, type ArchiveIssueCode, type ArchiveLimits, type EntryKind } from './types.js';
import { trimEndChars } from '../linear-text.js';

/** Thrown inside a reader to stop at a limit; caught by readArchive, never escapes. */
export class StopReading extends Error {
  constructor() {
    super('archive read stopped at a limit');
    this.name = 'StopReading';
  }
}

export interface MemberInput {
  readonly path: string;
  readonly kind: EntryKind;
  readonly size: number;
  readonly mode?: number | undefined;
  readonly linkTarget?: string | undefined;
  /** Device or fifo member (kind 'other'). */
  readonly device?: boolean;
}

/** True when the path is absolute on any platform: `/x`, `\x`, `C:\x`, `C:/x`, `\\server`. */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:/.test(p);
}

/** True when a `..` component appears (either separator). */
export function hasTraversal(p: string): boolean {
  return p.split(/[\\/]/).some((part) => part === '..');
}

export class Collector {
  readonly entries: ArchiveEntry[] = [];
  readonly issues: ArchiveIssue[] = [];
  readonly ambiguities: ArchiveAmbiguity[] = [];
  totalBytes = 0;
  complete = true;
  private readonly seen = new Map<string, EntryKind>();
  private readonly issued = new Set<string>();

  constructor(
    readonly limits: ArchiveLimits,
    private readonly container: string | undefined,
  ) {}

  issue(code: ArchiveIssueCode, message: string, path?: string): void {
    // One issue per code and member is enough; a damaged archive must not flood the list.
    const key = `${code}\u0000${path ?? ''}`;
    if (this.issued.has(key)) return;
    this.issued.add(key);
    this.issues.push(path === undefined ? { code, message } : { code, path, message });
    if (INCOMPLETE_ISSUES.has(code)) this.complete = false;
  }

  /** Records where installers disagree (one per code and member, at most 100). */
  ambiguity(code: ArchiveAmbiguityCode, message: string, path?: string): void {
    const key = `~${code}\u0000${path ?? ''}`;
    if (this.issued.has(key) || this.ambiguities.length >= 100) return;
    this.issued.add(key);
    this.ambiguities.push(path === undefined ? { code, message } : { code, path, message });
  }

  /** Refuses a new member once maxEntries is reached (throws StopReading). */
  checkCount(): void {
    if (this.entries.length >= this.limits.maxEntries) {
      this.issue('too_many_members', `the archive has more members than the limit of ${this.limits.maxEntries}; the rest were not read`);
      throw new StopReading();
    }
  }

  /** Whether a member of `size` bytes may carry data; flags member_too_large and total_too_large (the latter stops). */
  admit(path: string, size: number): boolean {
    if (size > this.limits.maxEntryBytes) {
      this.issue('member_too_large', `a member is larger than the limit of ${this.limits.maxEntryBytes} bytes; it is listed without data`, path);
      return false;
    }
    if (this.totalBytes + size > this.limits.maxTotalBytes) {
      this.issue('total_too_large', `the members add up to more than the limit of ${this.limits.maxTotalBytes} bytes; the rest were not read`, path);
      throw new StopReading();
    }
    return true;
  }

  /** Records a member with its path checks; data only for files. */
  add(member: MemberInput, data?: Uint8Array): void {
    const p = member.path;
    if (isAbsolutePath(p)) this.issue('absolute_path', 'a member has an absolute path', p);
    if (hasTraversal(p)) this.issue('path_traversal', 'a member path climbs out of the archive with ..', p);
    if (member.kind === 'symlink' || member.kind === 'hardlink') this.issue('link_member', `a member is a ${member.kind}; its target is not followed`, p);
    if (member.device === true) this.issue('device_member', 'a member is a device or fifo', p);
    const key = trimEndChars(p, '/');
    const before = this.seen.get(key);
    if (before !== undefined) {
      this.issue('duplicate_member', 'two members have the same path', p);
      // A folder listed twice changes nothing; anything else is two contents for one path.
      if (before !== 'directory' || member.kind !== 'directory') this.ambiguity('duplicate_path', 'two members have the same path; installers keep the last', p);
    }
    this.seen.set(key, member.kind);
    const entry: { -readonly [K in keyof ArchiveEntry]: ArchiveEntry[K] } = { path: p, kind: member.kind, size: member.size };
    if (member.mode !== undefined) entry.mode = member.mode;
    if (member.linkTarget !== undefined) entry.linkTarget = member.linkTarget;
    if (data !== undefined && member.kind === 'file') {
      entry.data = data;
      this.totalBytes += data.length;
    }
    if (this.container !== undefined) entry.container = this.container;
    this.entries.push(entry);
  }
}
