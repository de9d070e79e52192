// Reads tar, tar.gz, gzip and zip archives in memory with limits against bombs; never writes to disk, never throws on bad bytes.
import { constants as bufferConstants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Gunzip } from 'fflate';
import { VitrineError } from '../errors.js';
import { Collector, StopReading } from './collect.js';
import { inflateBudget, MAX_RATIO, RATIO_FLOOR_BYTES } from './ratio.js';
import { isTarHeader, readTar } from './tar.js';
import type { ArchiveEntry, ArchiveFormat, ArchiveIssueCode, ArchiveLimits, ArchiveReadResult, ReadFormat } from './types.js';
import { hasZipEnd, readZip } from './zip.js';

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = Object.freeze({
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntries: 20_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxNesting: 2,
  maxRatio: MAX_RATIO,
});

export interface ReadArchiveOptions {
  /** Set on every entry read (the path of the archive member these bytes came from, outer first, joined by `!/`). */
  readonly container?: string;
  /** Give `uncompressedSha256`: the SHA-256 of a gzip stream's whole decoded bytes (an image layer's diff_id). */
  readonly digestUncompressed?: boolean;
}

/** The container format by magic bytes, or undefined when the bytes are none we read (file names are never used). */
export function detectArchiveFormat(bytes: Uint8Array): ArchiveFormat | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))) return 'zip';
  if (hasUstarMagic(bytes) || isTarHeader(bytes, 0)) return 'tar';
  // A zip behind a stub (a self-extractor, a prepended script): Python's zipfile finds it from the end record.
  if (bytes.length >= 22 && hasZipEnd(bytes)) return 'zip';
  return undefined;
}

function hasUstarMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 262 && bytes[257] === 0x75 && bytes[258] === 0x73 && bytes[259] === 0x74 && bytes[260] === 0x61 && bytes[261] === 0x72;
}

function looksLikeTar(data: Uint8Array): boolean {
  if (data.length === 0 || hasUstarMagic(data) || isTarHeader(data, 0)) return true;
  // An empty tar is only end-of-archive blocks.
  return data.length >= 512 && data.subarray(0, 512).every((b) => b === 0);
}

function resolveLimits(partial: Partial<ArchiveLimits> | undefined): ArchiveLimits {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...partial };
  for (const [key, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) throw new VitrineError('bad_request', `archive limit ${key} must be a finite number >= 0`);
  }
  return limits;
}

interface Gunzipped {
  readonly data: Uint8Array;
  readonly problem?: { readonly code: ArchiveIssueCode; readonly message: string };
  readonly name?: string;
}

/** The FNAME of the first gzip member, when set (the name the compressor was given). */
function gzipName(bytes: Uint8Array): string | undefined {
  const flags = bytes[3] ?? 0;
  if ((flags & 0x08) === 0) return undefined;
  let p = 10;
  if ((flags & 0x04) !== 0) p += 2 + ((bytes[10] ?? 0) | ((bytes[11] ?? 0) << 8));
  const start = p;
  while (p < bytes.length && bytes[p] !== 0 && p - start < 1024) p++;
  if (p >= bytes.length || bytes[p] !== 0 || p === start) return undefined;
  return new TextDecoder('latin1').decode(bytes.subarray(start, p));
}

/** Decompresses every gzip member within `budget` bytes; on any failure keeps what decoded before it. */
function gunzipBounded(bytes: Uint8Array, limits: ArchiveLimits): Gunzipped {
  const ratio = inflateBudget(bytes.length, limits.maxRatio);
  // Tar headers and padding come on top of member bytes; the floor leaves room for them.
  const total = limits.maxTotalBytes + RATIO_FLOOR_BYTES;
  // zlib refuses a maxOutputLength beyond the largest Buffer; very large caller limits are clamped to it.
  const budget = Math.min(ratio, total, bufferConstants.MAX_LENGTH);
  const name = gzipName(bytes);
  const named = <T extends object>(o: T): T & { name?: string } => (name === undefined ? o : { ...o, name });
  const overLimit = (): NonNullable<Gunzipped['problem']> =>
    ratio <= total
      ? { code: 'ratio_too_high', message: `the gzip stream expands more than ${limits.maxRatio} times; reading stopped at the limit` }
      : { code: 'total_too_large', message: `the gzip stream expands past the limit of ${limits.maxTotalBytes} bytes; reading stopped there` };
  // The trailer states the (last member's) size: a stream that says it is over the bound is decoded once, in steps,
  // up to the bound, instead of by zlib to the bound and then again for the prefix.
  const stated = bytes.length >= 18 ? ((bytes[bytes.length - 4] ?? 0) | ((bytes[bytes.length - 3] ?? 0) << 8) | ((bytes[bytes.length - 2] ?? 0) << 16)) + (bytes[bytes.length - 1] ?? 0) * 0x1000000 : 0;
  if (stated > budget) {
    const prefix = gunzipPrefix(bytes, budget, budget);
    if (prefix.length >= budget) return named({ data: prefix, problem: overLimit() });
  }
  try {
    // zlib (C) first: fast, verifies CRC and length, reads concatenated members.
    const data = gunzipSync(bytes, { maxOutputLength: budget });
    return named({ data: new Uint8Array(data.buffer, data.byteOffset, data.length) });
  } catch (error) {
    // zlib keeps nothing of a failed call: the prefix is decoded again, and after a limit only its first
    // PREFIX_AFTER_LIMIT bytes (the stream lied about its size; its members past that are not read).
    const data = gunzipPrefix(bytes, error instanceof RangeError ? Math.min(budget, PREFIX_AFTER_LIMIT) : budget, budget);
    let problem: Gunzipped['problem'];
    if (error instanceof RangeError) {
      problem = overLimit();
    } else if (error instanceof Error && /unexpected end/i.test(error.message)) {
      problem = { code: 'truncated', message: 'the gzip stream is cut short; what decoded before the cut was read' };
    } else {
      problem = { code: 'corrupt', message: 'the gzip stream is damaged; what decoded before the damage was read' };
    }
    return named({ data, problem });
  }
}

/** After zlib refused a stream for its size, the prefix decoded again is at most this (the stream lied in its trailer). */
const PREFIX_AFTER_LIMIT = 64 * 1024 * 1024;

/**
 * fflate's streaming gunzip in small steps, so output before damage or a limit survives (zlib's sync call returns
 * all or nothing). Output is counted before it is kept and written into one buffer that doubles up to `budget`
 * (no list of chunks joined at the end).
 */
function gunzipPrefix(bytes: Uint8Array, budget: number, hint: number): Uint8Array {
  let out = new Uint8Array(Math.min(budget, Math.max(64 * 1024, Math.min(hint, bytes.length * 4))));
  let total = 0;
  const step = 16 * 1024;
  const stream = new Gunzip((chunk) => {
    const take = Math.min(chunk.length, budget - total);
    if (take <= 0) return;
    if (total + take > out.length) {
      const grown = new Uint8Array(Math.min(budget, Math.max(out.length * 2, total + take)));
      grown.set(out.subarray(0, total));
      out = grown;
    }
    out.set(take === chunk.length ? chunk : chunk.subarray(0, take), total);
    total += take;
  });
  try {
    for (let o = 0; o < bytes.length && total < budget; o += step) stream.push(bytes.subarray(o, o + step), o + step >= bytes.length);
  } catch {
    // The damage point: everything pushed out before it is kept.
  }
  return out.subarray(0, total);
}

function finish(format: ReadFormat, c: Collector): ArchiveReadResult {
  return { format, entries: c.entries, issues: c.issues, ambiguities: c.ambiguities, complete: c.complete, totalBytes: c.totalBytes };
}

/**
 * Reads an archive held in memory. Format by magic bytes: gzip (tar.gz when the content is a tar), zip, ustar or a
 * tar header, else `unknown` (nothing read, a `corrupt` or `unsupported_compression` issue). Never throws on bad bytes: damage, truncation and limits become issues and `complete: false`.
 */
export function readArchive(bytes: Uint8Array, limits?: Partial<ArchiveLimits>, options?: ReadArchiveOptions): ArchiveReadResult {
  if (!(bytes instanceof Uint8Array)) throw new VitrineError('bad_request', 'readArchive needs the archive as a Uint8Array');
  const lim = resolveLimits(limits);
  const c = new Collector(lim, options?.container);
  const kind = detectArchiveFormat(bytes);
  if (kind === 'zip') {
    readZip(bytes, c);
    return finish('zip', c);
  }
  if (kind === 'gzip') {
    const g = gunzipBounded(bytes, lim);
    if (g.problem !== undefined) c.issue(g.problem.code, g.problem.message);
    const cut = g.problem !== undefined;
    const digest = options?.digestUncompressed === true && !cut ? { uncompressedSha256: createHash('sha256').update(g.data).digest('hex') } : {};
    if (looksLikeTar(g.data) || (cut && g.data.length < 512)) {
      readTar(g.data, c, cut);
      return { ...finish('tar.gz', c), ...digest };
    }
    // A lone compressed file: one member named by the gzip header when it says.
    try {
      const path = g.name ?? 'data';
      const member = { path, kind: 'file' as const, size: g.data.length };
      if (!cut && c.admit(path, g.data.length)) c.add(member, g.data);
      else c.add(member);
    } catch (error) {
      if (!(error instanceof StopReading)) throw error;
    }
    return { ...finish('gzip', c), ...digest };
  }
  if (kind === 'tar') {
    readTar(bytes, c);
    return finish('tar', c);
  }
  // Other compressors we recognise but do not read.
  if (startsWith(bytes, [0x42, 0x5a, 0x68]) || startsWith(bytes, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) || startsWith(bytes, [0x28, 0xb5, 0x2f, 0xfd])) {
    c.issue('unsupported_compression', 'the archive is compressed with bzip2, xz or zstd, which are not read');
    return finish('unknown', c);
  }
  if (bytes.length === 0 || (bytes.length >= 512 && bytes.subarray(0, 512).every((b) => b === 0))) {
    // An empty buffer or only end blocks: an empty tar is a tar, but an empty buffer is no archive.
    if (bytes.length === 0) {
      c.issue('corrupt', 'the buffer is empty');
      return finish('unknown', c);
    }
    return finish('tar', c);
  }
  c.issue('corrupt', 'the bytes are not a tar, gzip or zip archive');
  return finish('unknown', c);
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/**
 * Opens an archive member as a nested archive at `depth` (1 = inside the outer archive). Deeper than
 * `maxNesting` it is not opened: `nesting_too_deep` and `complete: false`.
 */
export function readNested(entry: ArchiveEntry, depth: number, limits?: Partial<ArchiveLimits>): ArchiveReadResult {
  const lim = resolveLimits(limits);
  const container = entry.container === undefined ? entry.path : `${entry.container}!/${entry.path}`;
  const c = new Collector(lim, container);
  const guess = entry.data === undefined ? undefined : detectArchiveFormat(entry.data);
  const format: ReadFormat = guess === undefined ? 'unknown' : guess === 'gzip' ? 'tar.gz' : guess;
  if (depth > lim.maxNesting) {
    c.issue('nesting_too_deep', `an archive is nested deeper than the limit of ${lim.maxNesting}; it was not opened`, container);
    return finish(format, c);
  }
  if (entry.data === undefined) {
    c.issue('member_too_large', 'the nested archive bytes were not read (over a limit or not a file)', container);
    return finish(format, c);
  }
  return readArchive(entry.data, lim, { container });
}
