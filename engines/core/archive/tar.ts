// A bounds-checked, synchronous tar reader (ustar, GNU long names/links, PAX headers, base-256 numbers) that keeps every complete member before any damage.
import { StopReading, type Collector } from './collect.js';
import type { EntryKind } from './types.js';
import { trimEndChars, trimStartChars } from '../linear-text.js';

const BLOCK = 512;
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** True when the 512 bytes at `offset` are a tar header whose checksum verifies. */
export function isTarHeader(buf: Uint8Array, offset = 0): boolean {
  if (buf.length < offset + BLOCK) return false;
  const stored = readOctal(buf, offset + 148, 8);
  if (stored === undefined) return false;
  const sums = checksums(buf, offset);
  return stored === sums.unsigned || stored === sums.signed;
}

/** True when the block is all zero bytes (end-of-archive marker). */
function isZeroBlock(buf: Uint8Array, offset: number): boolean {
  for (let i = offset; i < offset + BLOCK; i++) if (buf[i] !== 0) return false;
  return true;
}

function checksums(buf: Uint8Array, offset: number): { unsigned: number; signed: number } {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    // The checksum field itself counts as eight spaces.
    const b = i >= 148 && i < 156 ? 0x20 : (buf[offset + i] ?? 0);
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return { unsigned, signed };
}

/** Field text up to the first NUL. */
function readString(buf: Uint8Array, offset: number, length: number): string {
  let end = offset;
  const limit = offset + length;
  while (end < limit && buf[end] !== 0) end++;
  return utf8.decode(buf.subarray(offset, end));
}

/** An octal field (spaces/NULs around it allowed); undefined when it holds anything else. */
function readOctal(buf: Uint8Array, offset: number, length: number): number | undefined {
  const text = trimStartChars(trimEndChars(latin1.decode(buf.subarray(offset, offset + length)), '\0 '), ' \0');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) return undefined;
  const n = parseInt(text, 8);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A numeric field: octal, or GNU base-256 when the top bit of the first byte is set. */
function readNumber(buf: Uint8Array, offset: number, length: number): number | undefined {
  const first = buf[offset] ?? 0;
  if ((first & 0x80) === 0) return readOctal(buf, offset, length);
  // Negative base-256 values (0xff lead) are never valid for sizes or modes.
  if (first === 0xff) return undefined;
  let n = first & 0x7f;
  for (let i = 1; i < length; i++) {
    n = n * 256 + (buf[offset + i] ?? 0);
    if (!Number.isSafeInteger(n)) return undefined;
  }
  return n;
}

/** PAX extended header records `LEN key=value\n`; undefined when malformed. */
function parsePax(data: Uint8Array): Map<string, string> | undefined {
  const out = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    if (data[pos] === 0) break;
    let sp = pos;
    while (sp < data.length && data[sp] !== 0x20) sp++;
    if (sp >= data.length) return undefined;
    const lenText = latin1.decode(data.subarray(pos, sp));
    if (!/^[0-9]{1,12}$/.test(lenText)) return undefined;
    const len = parseInt(lenText, 10);
    if (len <= sp - pos + 1 || pos + len > data.length || data[pos + len - 1] !== 0x0a) return undefined;
    const record = utf8.decode(data.subarray(sp + 1, pos + len - 1));
    const eq = record.indexOf('=');
    if (eq <= 0) return undefined;
    out.set(record.slice(0, eq), record.slice(eq + 1));
    pos += len;
  }
  return out;
}

function kindOf(type: string): { kind: EntryKind; device: boolean; body: boolean } {
  switch (type) {
    case '1':
      return { kind: 'hardlink', device: false, body: false };
    case '2':
      return { kind: 'symlink', device: false, body: false };
    case '3':
    case '4':
    case '6':
      return { kind: 'other', device: true, body: false };
    case '5':
    case 'D':
      return { kind: 'directory', device: false, body: type === 'D' };
    default:
      // POSIX: an unknown type flag is read as a regular file ('0', NUL, '7' contiguous).
      return { kind: 'file', device: false, body: true };
  }
}

/** After the end-of-archive blocks: a valid header there is a member no installer reads but another tool might (GNU tar -i). */
function lookPastEnd(buf: Uint8Array, from: number, out: Collector): void {
  for (let o = from; o + BLOCK <= buf.length; o += BLOCK) {
    if (!isZeroBlock(buf, o) && isTarHeader(buf, o)) {
      out.ambiguity('after_end_of_archive', 'a member follows the end-of-archive blocks (installers stop before it)');
      return;
    }
  }
}

/**
 * Reads tar members from `buf` into `out`. `sourceTruncated` says the bytes are a prefix (a truncated gzip), so
 * running out of bytes is reported as truncation, not corruption. Stops (no throw) at the first damage.
 */
export function readTar(buf: Uint8Array, out: Collector, sourceTruncated = false): void {
  let offset = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax: Map<string, string> | undefined;
  const globalPax = new Map<string, string>();
  const truncated = (): void => out.issue('truncated', 'the archive ends in the middle of a member');
  let skipped = false;
  try {
    for (;;) {
      if (offset >= buf.length) {
        // No end-of-archive blocks: the bytes may have been cut at a member boundary, so the read is not called whole.
        out.issue('truncated', sourceTruncated ? 'the archive ends in the middle of a member' : 'the archive ends without its end-of-archive blocks');
        return;
      }
      if (offset + BLOCK > buf.length) {
        truncated();
        return;
      }
      if (isZeroBlock(buf, offset)) {
        // npm's node-tar ends only at two zero blocks in a row; Python's tarfile ends at the first. Anything between is read (npm installs it) and flagged.
        if (offset + 2 * BLOCK > buf.length || isZeroBlock(buf, offset + BLOCK)) {
          lookPastEnd(buf, offset + 2 * BLOCK, out);
          return;
        }
        out.ambiguity('after_end_marker', 'a member follows a single zero block: npm reads on, Python stops there');
        offset += BLOCK;
        continue;
      }
      if (!isTarHeader(buf, offset)) {
        // node-tar skips a block whose checksum fails and reads the next as a header; Python stops. Both are followed, and the read is incomplete.
        out.issue('corrupt', 'a tar header is damaged (bad checksum); the blocks after it were read as npm reads them');
        skipped = true;
        offset += BLOCK;
        continue;
      }
      const type = String.fromCharCode(buf[offset + 156] ?? 0);
      const sizeField = readNumber(buf, offset + 124, 12);
      const mode = readNumber(buf, offset + 100, 8);
      if (sizeField === undefined) {
        out.issue('corrupt', 'a tar header holds an invalid size; reading stopped there');
        return;
      }
      const magic = latin1.decode(buf.subarray(offset + 257, offset + 263));
      let name = readString(buf, offset, 100);
      // Only POSIX ustar has a prefix field; GNU keeps other data there.
      if (magic === 'ustar\0') {
        const prefix = readString(buf, offset + 345, 155);
        if (prefix !== '') name = `${prefix}/${name}`;
      }
      let linkName = readString(buf, offset + 157, 100);
      const paxSize = pax?.get('size') ?? globalPax.get('size');
      let size = sizeField;
      if (paxSize !== undefined && type !== 'x' && type !== 'g' && type !== 'L' && type !== 'K') {
        if (!/^[0-9]{1,16}$/.test(paxSize) || !Number.isSafeInteger(Number(paxSize))) {
          out.issue('corrupt', 'a PAX header holds an invalid size; reading stopped there');
          return;
        }
        size = Number(paxSize);
      }
      const dataStart = offset + BLOCK;
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      const dataEnd = dataStart + size;

      if (type === 'L' || type === 'K' || type === 'x' || type === 'g') {
        // Meta headers describe the next member; they are small, and a huge one is a bomb attempt.
        if (size > 1024 * 1024) {
          out.issue('corrupt', 'a tar extended header is implausibly large; reading stopped there');
          return;
        }
        if (dataEnd > buf.length) {
          truncated();
          return;
        }
        const body = buf.subarray(dataStart, dataEnd);
        if (type === 'L') longName = readString(body, 0, body.length);
        else if (type === 'K') longLink = readString(body, 0, body.length);
        else {
          const records = parsePax(body);
          if (records === undefined) {
            out.issue('corrupt', 'a PAX extended header is malformed; reading stopped there');
            return;
          }
          if (type === 'x') pax = records;
          else for (const [k, v] of records) globalPax.set(k, v);
        }
        offset = dataStart + padded;
        continue;
      }

      name = pax?.get('path') ?? longName ?? globalPax.get('path') ?? name;
      linkName = pax?.get('linkpath') ?? longLink ?? globalPax.get('linkpath') ?? linkName;
      pax = undefined;
      longName = undefined;
      longLink = undefined;

      if (type === 'V') {
        // A GNU volume label names the tape, not a member.
        offset = dataStart + padded;
        continue;
      }
      out.checkCount();
      if (skipped) out.ambiguity('after_bad_header', 'a member follows a damaged header: npm reads it, Python stops before it', name);
      const k = kindOf(type);
      const member = {
        path: name,
        kind: k.kind,
        size: k.body ? size : 0,
        mode: mode === undefined ? undefined : mode & 0o7777,
        linkTarget: k.kind === 'symlink' || k.kind === 'hardlink' ? linkName : undefined,
        device: k.device,
      };
      if (type === 'S') out.issue('unsupported_compression', 'a GNU sparse member is listed without data', name);
      // Links and devices carry no body, whatever size they claim.
      const bodyLength = k.body ? size : 0;
      if (dataStart + bodyLength > buf.length) {
        out.add(member);
        truncated();
        return;
      }
      if (k.kind === 'file' && type !== 'S' && out.admit(name, size)) out.add(member, buf.subarray(dataStart, dataEnd));
      else out.add(member);
      offset = dataStart + (k.body ? padded : 0);
    }
  } catch (error) {
    if (error instanceof StopReading) return;
    throw error;
  }
}
