// A synchronous zip reader over the central directory: zip64, encryption and overlap checks, bounded inflate, CRC verification.
import { crc32, inflateRawSync } from 'node:zlib';
import { ratioBudget, StopReading, type Collector } from './collect.js';
import type { EntryKind } from './types.js';

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

/** True when two stored names are the same bytes. */
function sameBytes(buf: Uint8Array, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (buf[a + i] !== buf[b + i]) return false;
  return true;
}

interface CentralEntry {
  readonly name: string;
  /** Where the stored name bytes sit and how long they are (to compare with the local header). */
  readonly nameAt: number;
  readonly nameLength: number;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
  readonly mode: number | undefined;
  readonly kind: EntryKind;
}

function u16(b: Uint8Array, o: number): number {
  return (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (((b[o] ?? 0) | ((b[o + 1] ?? 0) << 8) | ((b[o + 2] ?? 0) << 16)) >>> 0) + (b[o + 3] ?? 0) * 0x1000000;
}
function u64(b: Uint8Array, o: number): number {
  // Beyond 2^53 a value is corrupt for our purposes; it then fails the bounds checks below.
  return u32(b, o) + u32(b, o + 4) * 0x100000000;
}

/** Finds the end-of-central-directory record (it may be followed by a comment of up to 65535 bytes). */
function findEocd(buf: Uint8Array): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let o = buf.length - 22; o >= stop; o--) {
    if (u32(buf, o) === EOCD && o + 22 + u16(buf, o + 20) <= buf.length) return o;
  }
  return -1;
}

/** True when the bytes end in a zip end record, as Python's `zipfile.is_zipfile` decides (a stub may come first). */
export function hasZipEnd(buf: Uint8Array): boolean {
  return findEocd(buf) >= 0;
}

/** Decodes a central directory; undefined when its records run out of the buffer (then the local headers are walked). */
function readCentral(buf: Uint8Array, eocd: number, out: Collector): CentralEntry[] | undefined {
  let count = u16(buf, eocd + 10);
  let cdSize = u32(buf, eocd + 12);
  let cdOffset = u32(buf, eocd + 16);
  const loc = eocd - 20;
  let zip64 = false;
  if ((count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) && loc >= 0 && u32(buf, loc) === ZIP64_LOCATOR) {
    const z = u64(buf, loc + 8);
    if (z + 56 <= buf.length && u32(buf, z) === ZIP64_EOCD) {
      zip64 = true;
      count = u64(buf, z + 32);
      cdSize = u64(buf, z + 40);
      cdOffset = u64(buf, z + 48);
    }
  }
  // Python's zipfile: bytes in front of the archive (a stub) shift every offset by the gap between where the directory
  // should end and where the end record is.
  const directoryEnd = zip64 ? loc - 56 : eocd;
  const concat = directoryEnd - cdSize - cdOffset;
  const shift = concat > 0 ? concat : 0;
  cdOffset += shift;
  if (cdOffset + cdSize > buf.length) return undefined;
  const entries: CentralEntry[] = [];
  let p = cdOffset;
  const cdEnd = cdOffset + cdSize;
  // The directory is read to its declared size, as zipfile does; the end record's count only confirms it.
  while (p < cdEnd) {
    if (p + 46 > buf.length || u32(buf, p) !== CENTRAL) {
      out.issue('corrupt', 'the zip central directory is damaged; later members were not read');
      break;
    }
    const madeBy = u16(buf, p + 4) >> 8;
    const flags = u16(buf, p + 8);
    const method = u16(buf, p + 10);
    const crc = u32(buf, p + 16);
    let compressedSize = u32(buf, p + 20);
    let size = u32(buf, p + 24);
    const nameLen = u16(buf, p + 28);
    const extraLen = u16(buf, p + 30);
    const commentLen = u16(buf, p + 32);
    const external = u32(buf, p + 38);
    let localOffset = u32(buf, p + 42);
    const end = p + 46 + nameLen + extraLen + commentLen;
    if (end > buf.length) {
      out.issue('corrupt', 'the zip central directory is damaged; later members were not read');
      break;
    }
    const name = decodeName(buf.subarray(p + 46, p + 46 + nameLen), flags);
    // zip64 extra field (id 1): 8-byte values for each 32-bit field that is all ones, in this order.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = u16(buf, e);
      const len = u16(buf, e + 2);
      if (id === 1) {
        let q = e + 4;
        const qEnd = Math.min(e + 4 + len, extraEnd);
        if (size === 0xffffffff && q + 8 <= qEnd) {
          size = u64(buf, q);
          q += 8;
        }
        if (compressedSize === 0xffffffff && q + 8 <= qEnd) {
          compressedSize = u64(buf, q);
          q += 8;
        }
        if (localOffset === 0xffffffff && q + 8 <= qEnd) localOffset = u64(buf, q);
      }
      e += 4 + len;
    }
    const unixMode = madeBy === 3 ? external >>> 16 : undefined;
    const type = unixMode === undefined ? 0 : unixMode & 0o170000;
    let kind: EntryKind = 'file';
    if (name.endsWith('/') || type === 0o040000 || (madeBy === 0 && (external & 0x10) !== 0)) kind = 'directory';
    else if (type === 0o120000) kind = 'symlink';
    else if (type !== 0 && type !== 0o100000) kind = 'other';
    if (localOffset !== 0xffffffff) localOffset += shift;
    entries.push({ name, nameAt: p + 46, nameLength: nameLen, flags, method, crc, compressedSize, size, localOffset, mode: unixMode === undefined || unixMode === 0 ? undefined : unixMode & 0o7777, kind });
    p = end;
  }
  if (entries.length !== count) out.ambiguity('directory_count_mismatch', 'the zip end record counts another number of members than its directory holds; Python reads the directory');
  return entries;
}

/** Recovers members from local headers in order when the central directory is missing (a cut zip). */
function walkLocal(buf: Uint8Array, out: Collector): CentralEntry[] {
  const entries: CentralEntry[] = [];
  let p = 0;
  while (p + 30 <= buf.length && u32(buf, p) === LOCAL) {
    const flags = u16(buf, p + 6);
    const nameLen = u16(buf, p + 26);
    const extraLen = u16(buf, p + 28);
    const compressedSize = u32(buf, p + 18);
    if (p + 30 + nameLen > buf.length) break;
    const name = decodeName(buf.subarray(p + 30, p + 30 + nameLen), flags);
    // With a data descriptor the sizes are unknown here: the member is listed and the walk stops.
    const known = (flags & 0x08) === 0 && compressedSize !== 0xffffffff;
    entries.push({
      name,
      nameAt: p + 30,
      nameLength: nameLen,
      flags,
      method: u16(buf, p + 8),
      crc: u32(buf, p + 14),
      compressedSize,
      size: u32(buf, p + 22),
      localOffset: p,
      mode: undefined,
      kind: name.endsWith('/') ? 'directory' : 'file',
    });
    if (!known) {
      out.issue('corrupt', 'a zip member without sizes could not be followed past; later members were not read');
      break;
    }
    p += 30 + nameLen + extraLen + compressedSize;
  }
  return entries;
}

/** Reads a zip archive into `out`. */
export function readZip(buf: Uint8Array, out: Collector): void {
  const eocd = findEocd(buf);
  let entries: CentralEntry[] | undefined;
  if (eocd >= 0) entries = readCentral(buf, eocd, out);
  if (entries === undefined) {
    out.issue('truncated', 'the zip central directory is missing or cut; members were recovered from local headers');
    entries = walkLocal(buf, out);
  }

  // Data ranges from each local header to the end of its data; overlaps are the zip-bomb construction.
  interface Range {
    readonly index: number;
    readonly start: number;
    readonly dataStart: number;
    readonly end: number;
  }
  const ranges: (Range | undefined)[] = entries.map((en, index) => {
    const o = en.localOffset;
    if (o + 30 > buf.length || u32(buf, o) !== LOCAL) return undefined;
    const localNameLength = u16(buf, o + 26);
    if (localNameLength !== en.nameLength || !sameBytes(buf, o + 30, en.nameAt, localNameLength)) {
      out.ambiguity('local_name_mismatch', 'a zip local header names another file than the central directory (Python refuses it; other tools take either)', en.name);
    }
    const dataStart = o + 30 + localNameLength + u16(buf, o + 28);
    return { index, start: o, dataStart, end: dataStart + en.compressedSize };
  });
  const overlapping = new Set<number>();
  const sorted = ranges.filter((r): r is Range => r !== undefined).sort((a, b) => a.start - b.start || a.end - b.end);
  let reach: Range | undefined;
  for (const r of sorted) {
    if (reach !== undefined && r.start < reach.end) {
      overlapping.add(r.index);
      overlapping.add(reach.index);
    }
    if (reach === undefined || r.end > reach.end) reach = r;
  }

  try {
    for (const [index, en] of entries.entries()) {
      out.checkCount();
      const member = { path: en.name, kind: en.kind, size: en.size, mode: en.mode, device: en.kind === 'other' };
      const range = ranges[index];
      if (en.kind === 'symlink') {
        // A zip symlink's target is its (small, stored) data.
        const target =
          range !== undefined && en.method === 0 && en.compressedSize <= 4096 && range.end <= buf.length ? utf8.decode(buf.subarray(range.dataStart, range.end)) : undefined;
        out.add({ ...member, linkTarget: target });
        continue;
      }
      if (en.kind !== 'file') {
        out.add(member);
        continue;
      }
      if (overlapping.has(index)) {
        out.issue('overlapping_members', 'zip members share bytes (a zip-bomb construction); their data was refused', en.name);
        out.add(member);
        continue;
      }
      if ((en.flags & 0x01) !== 0) {
        out.issue('encrypted_member', 'an encrypted zip member is listed without data', en.name);
        out.add(member);
        continue;
      }
      if (range === undefined) {
        out.issue('corrupt', 'a zip member has no local header where the directory says', en.name);
        out.add(member);
        continue;
      }
      if (range.end > buf.length) {
        out.issue('truncated', 'a zip member runs past the end of the archive', en.name);
        out.add(member);
        continue;
      }
      if (en.method !== 0 && en.method !== 8) {
        out.issue('unsupported_compression', 'a zip member uses a compression method we do not read; it is listed without data', en.name);
        out.add(member);
        continue;
      }
      if (!out.admit(en.name, en.size)) {
        out.add(member);
        continue;
      }
      const raw = buf.subarray(range.dataStart, range.end);
      let data: Uint8Array;
      if (en.method === 0) data = raw;
      else {
        if (en.size > ratioBudget(out.limits, raw.length)) {
          out.issue('ratio_too_high', 'a zip member declares more than the compression ratio limit allows; it is listed without data', en.name);
          out.add(member);
          continue;
        }
        // Output is bounded by the declared size (already within the limits): a member that lies about it is corrupt.
        try {
          data = inflateRawSync(raw, { maxOutputLength: Math.max(1, en.size) });
        } catch {
          out.issue('corrupt', 'a zip member does not inflate to its declared size', en.name);
          out.add(member);
          continue;
        }
      }
      if (data.length !== en.size || crc32(data) !== en.crc) {
        out.issue('corrupt', 'a zip member fails its size or CRC check; it is listed without data', en.name);
        out.add(member);
        continue;
      }
      out.add(member, data);
    }
  } catch (error) {
    if (error instanceof StopReading) return;
    throw error;
  }
}
