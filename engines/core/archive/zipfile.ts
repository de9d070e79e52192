// The one zip reader: the central directory as Python's zipfile reads it, members read one at a time through a byte
// source (an archive in memory, or a file read through two windows and never loaded whole), and one bomb guard.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';
import { inflateBudget, MAX_RATIO } from './ratio.js';
import type { ArchiveAmbiguityCode, ArchiveIssueCode, EntryKind } from './types.js';

/** Directory records read at most (OSV's largest all.zip holds a few hundred thousand). */
export const ZIP_MAX_MEMBERS = 2_000_000;

/** Bytes read by position: an archive in memory, or a file read through windows. */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes at `offset` (fewer at the end of the source). The view stays valid after later reads. */
  read(offset: number, length: number): Uint8Array;
  close(): void;
}

/** An archive held in memory (reads are views, nothing is copied). */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length)),
    close: () => undefined,
  };
}

/** Bytes per read-ahead window: walking 200k small members costs a few hundred reads, not two per member. */
const WINDOW = 4 * 1024 * 1024;

/**
 * A file read through two read-ahead windows (one follows the central directory, one the member data), so memory
 * stays at two windows plus the member being read. Reads larger than a window are made whole and not kept.
 */
export class FileSource implements ByteSource {
  readonly size: number;
  private readonly windows: { start: number; buf: Buffer }[] = [];
  private fd: number | undefined;

  constructor(file: string) {
    this.fd = openSync(file, 'r');
    try {
      this.size = fstatSync(this.fd).size;
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  private fill(start: number, length: number): Buffer {
    if (this.fd === undefined) throw new Error('the zip source is closed');
    const len = Math.max(0, Math.min(length, this.size - start));
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = readSync(this.fd, buf, got, len - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  }

  read(offset: number, length: number): Uint8Array {
    const end = Math.min(offset + length, this.size);
    if (offset >= end) return new Uint8Array(0);
    for (const w of this.windows) if (offset >= w.start && end <= w.start + w.buf.length) return w.buf.subarray(offset - w.start, end - w.start);
    if (end - offset > WINDOW / 4) return this.fill(offset, end - offset);
    const w = { start: offset, buf: this.fill(offset, WINDOW) };
    this.windows.unshift(w);
    if (this.windows.length > 2) this.windows.pop();
    return w.buf.subarray(0, Math.min(end, offset + w.buf.length) - offset);
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    this.windows.length = 0;
    closeSync(fd);
  }
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const utf8 = new TextDecoder('utf-8');
/** The upper half of code page 437, which zip names use unless flag bit 11 says UTF-8 (as Python's zipfile reads them). */
const CP437_HIGH = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** A stored name as Python's zipfile reads it: UTF-8 when flagged, else cp437; cut at the first NUL. */
function decodeName(raw: Uint8Array, flags: number): string {
  let name: string;
  if ((flags & 0x800) !== 0) name = utf8.decode(raw);
  else {
    let s = '';
    for (const b of raw) s += b < 128 ? String.fromCharCode(b) : (CP437_HIGH[b - 128] ?? '');
    name = s;
  }
  const nul = name.indexOf('\0');
  return nul >= 0 ? name.slice(0, nul) : name;
}

function u16(b: Uint8Array, o: number): number {
  return (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (((b[o] ?? 0) | ((b[o + 1] ?? 0) << 8) | ((b[o + 2] ?? 0) << 16)) >>> 0) + (b[o + 3] ?? 0) * 0x1000000;
}
function u64(b: Uint8Array, o: number): number {
  // Beyond 2^53 - 1 a value is inexact: a directory record holding one is damaged (centralRecord), and an end record's
  // offset or size then fails the bounds checks.
  return u32(b, o) + u32(b, o + 4) * 0x100000000;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The end-of-central-directory record's offset in `tail` (it may be followed by a comment of up to 65535 bytes), or -1. */
function findEocd(tail: Uint8Array): number {
  for (let o = tail.length - 22; o >= 0; o--) {
    if (u32(tail, o) === EOCD && o + 22 + u16(tail, o + 20) <= tail.length) return o;
  }
  return -1;
}

/** The end record's search window: the last 22 bytes plus the longest comment. */
const TAIL_BYTES = 22 + 0xffff;

/** True when the bytes end in a zip end record, as Python's `zipfile.is_zipfile` decides (a stub may come first). */
export function hasZipEnd(bytes: Uint8Array): boolean {
  return findEocd(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES))) >= 0;
}

/** Why a member's data is not read, decided before any byte is inflated. */
export interface ZipRefusal {
  readonly code: Extract<ArchiveIssueCode, 'overlapping_members' | 'encrypted_member' | 'corrupt' | 'truncated' | 'unsupported_compression' | 'ratio_too_high'>;
  readonly message: string;
}

export interface ZipMember {
  /** Position in the directory (or among recovered local headers). */
  readonly index: number;
  readonly name: string;
  readonly kind: EntryKind;
  /** Unix permission bits when the archive was made on Unix and records them. */
  readonly mode: number | undefined;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  /** The declared uncompressed size. */
  readonly size: number;
  readonly localOffset: number;
  /** The guard's and the layout's verdict: set when the data is not read (the member is still listed). */
  readonly refusal?: ZipRefusal;
}

/** A problem with the archive as a whole (the directory), in our words. */
export interface ZipProblem {
  readonly code: Extract<ArchiveIssueCode, 'truncated' | 'corrupt' | 'too_many_members'>;
  readonly message: string;
}

export interface ZipAmbiguity {
  readonly code: Extract<ArchiveAmbiguityCode, 'local_name_mismatch' | 'directory_count_mismatch'>;
  readonly message: string;
  readonly path?: string;
}

export type ZipData = { readonly data: Uint8Array } | { readonly refusal: ZipRefusal };

export interface ZipOpenOptions {
  /** Largest declared-to-compressed ratio of one member (default MAX_RATIO); the floor is RATIO_FLOOR_BYTES (ratio.ts). */
  readonly maxRatio?: number;
  /** Directory records read at most (default ZIP_MAX_MEMBERS); the rest are not listed (`too_many_members`). */
  readonly maxMembers?: number;
}

/** A directory record or local header as read: a member's fields before its index and verdict. */
interface Record0 extends Omit<ZipMember, 'index' | 'refusal'> {
  /** The stored name bytes (compared with the local header's). */
  readonly nameBytes: Uint8Array;
  /** Where the next record starts. */
  readonly next: number;
  /** False for a local header whose sizes are unknown (a data descriptor): the walk cannot go past it. */
  readonly followable: boolean;
}

/** One central-directory record at `p`, or undefined when it is not one or runs out of the source. */
function centralRecord(src: ByteSource, p: number, shift: number): Record0 | undefined {
  const h = src.read(p, 46);
  if (h.length < 46 || u32(h, 0) !== CENTRAL) return undefined;
  const madeBy = u16(h, 4) >> 8;
  const flags = u16(h, 8);
  const nameLen = u16(h, 28);
  const extraLen = u16(h, 30);
  const commentLen = u16(h, 32);
  const external = u32(h, 38);
  let compressedSize = u32(h, 20);
  let size = u32(h, 24);
  let localOffset = u32(h, 42);
  const tail = src.read(p + 46, nameLen + extraLen);
  if (tail.length < nameLen + extraLen || p + 46 + nameLen + extraLen + commentLen > src.size) return undefined;
  const nameBytes = tail.subarray(0, nameLen);
  const name = decodeName(nameBytes, flags);
  // zip64 extra field (id 1): 8-byte values for each 32-bit field that is all ones, in this order.
  let e = nameLen;
  while (e + 4 <= tail.length) {
    const id = u16(tail, e);
    const len = u16(tail, e + 2);
    if (id === 1) {
      let q = e + 4;
      const qEnd = Math.min(e + 4 + len, tail.length);
      if (size === 0xffffffff && q + 8 <= qEnd) {
        size = u64(tail, q);
        q += 8;
      }
      if (compressedSize === 0xffffffff && q + 8 <= qEnd) {
        compressedSize = u64(tail, q);
        q += 8;
      }
      if (localOffset === 0xffffffff && q + 8 <= qEnd) localOffset = u64(tail, q);
    }
    e += 4 + len;
  }
  // over 8 PiB: no archive holds such a member, and the number would not even be exact
  if (size > Number.MAX_SAFE_INTEGER || compressedSize > Number.MAX_SAFE_INTEGER || localOffset > Number.MAX_SAFE_INTEGER) return undefined;
  const unixMode = madeBy === 3 ? external >>> 16 : undefined;
  const type = unixMode === undefined ? 0 : unixMode & 0o170000;
  let kind: EntryKind = 'file';
  if (name.endsWith('/') || type === 0o040000 || (madeBy === 0 && (external & 0x10) !== 0)) kind = 'directory';
  else if (type === 0o120000) kind = 'symlink';
  else if (type !== 0 && type !== 0o100000) kind = 'other';
  return {
    name,
    nameBytes,
    flags,
    method: u16(h, 10),
    crc: u32(h, 16),
    compressedSize,
    size,
    localOffset: localOffset === 0xffffffff ? localOffset : localOffset + shift,
    mode: unixMode === undefined || unixMode === 0 ? undefined : unixMode & 0o7777,
    kind,
    next: p + 46 + nameLen + extraLen + commentLen,
    followable: true,
  };
}

/** A local header at `p` read as a record (when the directory is missing), or undefined. */
function localRecord(src: ByteSource, p: number): Record0 | undefined {
  const h = src.read(p, 30);
  if (h.length < 30 || u32(h, 0) !== LOCAL) return undefined;
  const flags = u16(h, 6);
  const nameLen = u16(h, 26);
  const extraLen = u16(h, 28);
  const compressedSize = u32(h, 18);
  const nameBytes = src.read(p + 30, nameLen);
  if (nameBytes.length < nameLen) return undefined;
  const name = decodeName(nameBytes, flags);
  return {
    name,
    nameBytes,
    flags,
    method: u16(h, 8),
    crc: u32(h, 14),
    compressedSize,
    size: u32(h, 22),
    localOffset: p,
    mode: undefined,
    kind: name.endsWith('/') ? 'directory' : 'file',
    next: p + 30 + nameLen + extraLen + compressedSize,
    // With a data descriptor the sizes are unknown here: the member is listed and the walk stops.
    followable: (flags & 0x08) === 0 && compressedSize !== 0xffffffff,
  };
}

/**
 * A zip archive opened for reading. Opening reads the end record and walks the central directory once (as Python's
 * zipfile: stub bytes before the archive shift every offset, the directory is read to its declared size, zip64 records
 * and extra fields are followed); without a readable directory the members are recovered from local headers. Each
 * member's local header is read then, so the bomb guard has decided before any byte is inflated:
 *
 * - members whose bytes overlap (several records over one member, or data running over the next header, the
 *   non-recursive zip bomb) are all refused (`overlapping_members`);
 * - a deflated member declaring more than `inflateBudget(compressed size)` is refused (`ratio_too_high`);
 * - `read` inflates at most the declared size and checks size and CRC-32, so a member that lies is `corrupt`.
 *
 * Never throws on bad bytes: problems with the directory are `problems`, a member that cannot be read has a `refusal`.
 */
export class ZipArchive {
  readonly problems: ZipProblem[] = [];
  readonly ambiguities: ZipAmbiguity[] = [];
  /** True when the members came from local headers (no readable central directory). */
  readonly recovered: boolean;
  /** Members the bomb guard refused (overlap or ratio): a caller that must read every member refuses the archive. */
  readonly bombRefusals: number;
  private readonly at: number[] = [];
  private readonly starts: number[] = [];
  private readonly dataStart: number[] = [];
  private readonly overlapping = new Set<number>();
  private readonly overRatio = new Set<number>();
  private readonly shift: number;
  private readonly maxRatio: number;

  private constructor(
    private readonly src: ByteSource,
    options: ZipOpenOptions,
  ) {
    this.maxRatio = options.maxRatio ?? MAX_RATIO;
    const maxMembers = options.maxMembers ?? ZIP_MAX_MEMBERS;
    const tailStart = Math.max(0, src.size - TAIL_BYTES);
    const tail = src.read(tailStart, src.size - tailStart);
    const e = findEocd(tail);
    let shift = 0;
    let walked = false;
    const ends: number[] = [];
    if (e >= 0) {
      const eocd = tailStart + e;
      let count = u16(tail, e + 10);
      let cdSize = u32(tail, e + 12);
      let cdOffset = u32(tail, e + 16);
      const loc = eocd - 20;
      let zip64 = false;
      // Python's zipfile: a zip64 locator right before the end record means a zip64 end record right before it (its
      // own offset field is not used, so a stub does not mislead), whatever the 32-bit fields say.
      if (loc >= 56 && u32(src.read(loc, 4), 0) === ZIP64_LOCATOR) {
        const r = src.read(loc - 56, 56);
        if (r.length === 56 && u32(r, 0) === ZIP64_EOCD) {
          zip64 = true;
          count = u64(r, 32);
          cdSize = u64(r, 40);
          cdOffset = u64(r, 48);
        }
      }
      // Python's zipfile: bytes in front of the archive (a stub) shift every offset by the gap between where the
      // directory should end and where the end record is.
      const directoryEnd = zip64 ? loc - 56 : eocd;
      const concat = directoryEnd - cdSize - cdOffset;
      shift = concat > 0 ? concat : 0;
      cdOffset += shift;
      if (cdOffset + cdSize <= src.size) {
        walked = true;
        const cdEnd = cdOffset + cdSize;
        let p = cdOffset;
        // The directory is read to its declared size, as zipfile does; the end record's count only confirms it.
        while (p < cdEnd) {
          if (this.at.length >= maxMembers) {
            this.problems.push({ code: 'too_many_members', message: `the zip directory lists more members than the limit of ${maxMembers}; the rest were not read` });
            break;
          }
          const r = centralRecord(src, p, shift);
          if (r === undefined) {
            this.problems.push({ code: 'corrupt', message: 'the zip central directory is damaged; later members were not read' });
            break;
          }
          this.at.push(p);
          this.note(r, ends);
          p = r.next;
        }
        if (this.at.length !== count && !this.problems.some((x) => x.code === 'too_many_members')) this.ambiguities.unshift({ code: 'directory_count_mismatch', message: 'the zip end record counts another number of members than its directory holds; Python reads the directory' });
      }
    }
    this.shift = shift;
    this.recovered = !walked;
    if (!walked) {
      this.problems.push({ code: 'truncated', message: 'the zip central directory is missing or cut; members were recovered from local headers' });
      let p = 0;
      while (this.at.length < maxMembers) {
        const r = localRecord(src, p);
        if (r === undefined) break;
        this.at.push(p);
        this.note(r, ends);
        if (!r.followable) {
          this.problems.push({ code: 'corrupt', message: 'a zip member without sizes could not be followed past; later members were not read' });
          break;
        }
        p = r.next;
      }
    }
    this.findOverlaps(ends);
    this.bombRefusals = new Set([...this.overlapping, ...this.overRatio]).size;
  }

  /** Opens a zip; never throws on bad bytes (an unreadable archive has `problems` and perhaps no members). */
  static open(src: ByteSource, options: ZipOpenOptions = {}): ZipArchive {
    return new ZipArchive(src, options);
  }

  /** Members listed (readable or not). */
  get count(): number {
    return this.at.length;
  }

  private record(i: number): Record0 | undefined {
    const p = this.at[i];
    if (p === undefined) return undefined;
    return this.recovered ? localRecord(this.src, p) : centralRecord(this.src, p, this.shift);
  }

  /** Reads a member's local header: where its data starts and ends, and whether its name agrees with the directory. */
  private note(r: Record0, ends: number[]): void {
    const o = r.localOffset;
    const h = this.src.read(o, 30);
    this.starts.push(o);
    if (r.kind === 'file' && r.method === 8 && r.size > inflateBudget(r.compressedSize, this.maxRatio)) this.overRatio.add(this.starts.length - 1);
    if (h.length < 30 || u32(h, 0) !== LOCAL) {
      this.dataStart.push(-1);
      ends.push(-1);
      return;
    }
    const nameLength = u16(h, 26);
    if (!sameBytes(this.src.read(o + 30, nameLength), r.nameBytes) && this.ambiguities.length < 100) {
      this.ambiguities.push({ code: 'local_name_mismatch', message: 'a zip local header names another file than the central directory (Python refuses it; other tools take either)', path: r.name });
    }
    const start = o + 30 + nameLength + u16(h, 28);
    this.dataStart.push(start);
    ends.push(start + r.compressedSize);
  }

  /** Each member's bytes run from its local header to the end of its data; any two that share bytes are refused. */
  private findOverlaps(ends: readonly number[]): void {
    const order = ends.map((_, i) => i).filter((i) => (ends[i] ?? -1) >= 0);
    const start = (i: number): number => this.starts[i] ?? 0;
    order.sort((a, b) => start(a) - start(b) || (ends[a] ?? 0) - (ends[b] ?? 0));
    let reach = -1;
    for (const i of order) {
      if (reach >= 0 && start(i) < (ends[reach] ?? 0)) {
        this.overlapping.add(i);
        this.overlapping.add(reach);
      }
      if (reach < 0 || (ends[i] ?? 0) > (ends[reach] ?? 0)) reach = i;
    }
  }

  private refusalOf(i: number, r: Record0): ZipRefusal | undefined {
    if (r.kind !== 'file') return undefined;
    const start = this.dataStart[i] ?? -1;
    if (this.overlapping.has(i)) return { code: 'overlapping_members', message: 'zip members share bytes (a zip-bomb construction); their data was refused' };
    if ((r.flags & 0x01) !== 0) return { code: 'encrypted_member', message: 'an encrypted zip member is listed without data' };
    if (start < 0) return { code: 'corrupt', message: 'a zip member has no local header where the directory says' };
    if (start + r.compressedSize > this.src.size) return { code: 'truncated', message: 'a zip member runs past the end of the archive' };
    if (r.method !== 0 && r.method !== 8) return { code: 'unsupported_compression', message: 'a zip member uses a compression method we do not read; it is listed without data' };
    if (this.overRatio.has(i)) return { code: 'ratio_too_high', message: 'a zip member declares more than the compression ratio limit allows; it is listed without data' };
    return undefined;
  }

  /** The members in directory order (each parsed again from the source: memory holds offsets, not members). */
  *members(): Generator<ZipMember> {
    for (let i = 0; i < this.at.length; i++) {
      const r = this.record(i);
      if (r === undefined) continue;
      const refusal = this.refusalOf(i, r);
      const m: ZipMember = { index: i, name: r.name, kind: r.kind, mode: r.mode, flags: r.flags, method: r.method, crc: r.crc, compressedSize: r.compressedSize, size: r.size, localOffset: r.localOffset };
      yield refusal === undefined ? m : { ...m, refusal };
    }
  }

  /** A stored symlink's target (its small, stored data), when it can be read. */
  linkTarget(member: ZipMember): string | undefined {
    const start = this.dataStart[member.index] ?? -1;
    if (start < 0 || member.method !== 0 || member.compressedSize > 4096 || start + member.compressedSize > this.src.size) return undefined;
    return utf8.decode(this.src.read(start, member.compressedSize));
  }

  /**
   * A file member's bytes: inflated to at most its declared size and checked against it and its CRC-32. The caller
   * bounds the declared size first (its limits); compressed bytes far beyond the declared size are refused unread.
   */
  read(member: ZipMember): ZipData {
    if (member.refusal !== undefined) return { refusal: member.refusal };
    const start = this.dataStart[member.index] ?? -1;
    if (member.kind !== 'file' || start < 0) return { refusal: { code: 'corrupt', message: 'a zip member has no local header where the directory says' } };
    // Deflate adds at most 5 bytes per 16 KiB stored block (and a few bytes of framing): anything more is not this member.
    if (member.compressedSize > member.size + Math.ceil(member.size / 1024) + 1024) return { refusal: { code: 'corrupt', message: 'a zip member is stored in far more bytes than it declares' } };
    const raw = this.src.read(start, member.compressedSize);
    let data: Uint8Array;
    if (member.method === 0) data = raw;
    else {
      try {
        // Output is bounded by the declared size: a member that inflates past it fails here.
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, member.size) });
      } catch {
        return { refusal: { code: 'corrupt', message: 'a zip member does not inflate to its declared size' } };
      }
    }
    if (data.length !== member.size || crc32(data) !== member.crc) return { refusal: { code: 'corrupt', message: 'a zip member fails its size or CRC check; it is listed without data' } };
    return { data };
  }
}
