// Windows XML Event Log (EVTX) reader: file header, then chunk by chunk (64 KiB each) from a buffer or a file handle.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { VitrineError } from '../../core/errors.js';
import { readFullySync } from '../read-fully.js';
import { DEFAULT_BINXML_LIMITS, type BinXmlLimits } from './binxml.js';
import {
  CHUNK_HEADER_SIZE,
  CHUNK_SIZE,
  FLAG_NO_CRC32,
  chunkHeaderChecksumHolds,
  hasChunkMagic,
  isAllZero,
  parseChunk,
  type ChunkOptions,
  type EvtxRecord,
  type EvtxWarning,
  type EvtxWarningCode,
} from './chunk.js';
import type { JsonAttributes } from './render.js';

export const FILE_HEADER_SIZE = 4096;
const FILE_HEADER_CORE = 128;

export interface EvtxLimits extends BinXmlLimits {
  /** Warnings kept in the summary (all are counted). */
  readonly maxWarnings: number;
}

export const DEFAULT_LIMITS: EvtxLimits = { ...DEFAULT_BINXML_LIMITS, maxWarnings: 1000 };

export interface EvtxOptions {
  /** Render each event as the evtx crate's JSON (default true). */
  readonly json?: boolean;
  /**
   * Render only EventData, UserData and System/Security in the evtx crate's JSON shape (inline attributes), as
   * EvtxRecord.parts: what a reader of event data needs, without rendering the rest of System (default false).
   */
  readonly parts?: boolean;
  /**
   * Give EvtxRecord.data (EventData, or the first object under UserData, as the parts rendering has it) and
   * EvtxRecord.userSid (System/Security@UserID), without rendering the rest of the parts (default false).
   */
  readonly data?: boolean;
  /** Attributes under `#attributes` (default, the evtx crate's default) or as `<name>_attributes` siblings. */
  readonly jsonAttributes?: JsonAttributes;
  /** Render each event as XML (default false). */
  readonly xml?: boolean;
  readonly limits?: Partial<EvtxLimits>;
  /** Called with every warning as it happens. */
  readonly onWarning?: (warning: EvtxWarning) => void;
}

/**
 * The limits as one object literal with its fields in one order: every parser's limits then share one hidden class, so
 * the code that reads them (ChunkBinXml) stays optimised across parsers. A spread copy could take another class after
 * its clone site's cache changed state, which deoptimised every function reading a limit, mid-walk.
 */
function limitsOf(given: Partial<EvtxLimits> | undefined): EvtxLimits {
  const d = DEFAULT_LIMITS;
  const g = given ?? {};
  return {
    maxNesting: g.maxNesting ?? d.maxNesting,
    maxElementDepth: g.maxElementDepth ?? d.maxElementDepth,
    maxTemplates: g.maxTemplates ?? d.maxTemplates,
    maxSubstitutions: g.maxSubstitutions ?? d.maxSubstitutions,
    maxNodes: g.maxNodes ?? d.maxNodes,
    maxWarnings: g.maxWarnings ?? d.maxWarnings,
  };
}

/** The file header's fields. */
export interface EvtxFileHeader {
  readonly firstChunk: number;
  readonly lastChunk: number;
  readonly nextRecordId: number;
  readonly majorVersion: number;
  readonly minorVersion: number;
  readonly headerBlockSize: number;
  readonly chunkCount: number;
  readonly flags: number;
  readonly checksumValid: boolean | null;
}

/** What a parse found, filled in as records stream out. */
export interface EvtxSummary {
  header: EvtxFileHeader | null;
  /** Chunk slots in the file (from its size, not the header, so slack chunks are read too). */
  chunks: number;
  chunksParsed: number;
  chunksEmpty: number;
  records: number;
  warningCount: number;
  warningCounts: Partial<Record<EvtxWarningCode, number>>;
  /** The first `maxWarnings` warnings. */
  warnings: EvtxWarning[];
}

function u16(d: Uint8Array, p: number): number {
  return d[p]! | (d[p + 1]! << 8);
}

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

function u64(d: Uint8Array, p: number): number {
  return u32(d, p + 4) * 4294967296 + u32(d, p);
}

/** A record's first four bytes ("**" and two zero bytes). */
const RECORD_SIGNATURE = [0x2a, 0x2a, 0x00, 0x00];

const FILE_MAGIC = [0x45, 0x6c, 0x66, 0x46, 0x69, 0x6c, 0x65, 0x00]; // "ElfFile\0"

/** An open file the parser reads by position (what recordsFromReaderSync takes). */
export interface EvtxReader {
  readonly size: number;
  readInto(into: Uint8Array, position: number): number;
}

/**
 * Streams the records of one EVTX file. A damaged chunk or record is a counted warning (with its chunk index
 * and file offset) and the walk goes on; only input that is not an EVTX file at all is a `parse_error`.
 */
export class EvtxParser {
  readonly summary: EvtxSummary = {
    header: null,
    chunks: 0,
    chunksParsed: 0,
    chunksEmpty: 0,
    records: 0,
    warningCount: 0,
    warningCounts: {},
    warnings: [],
  };
  private readonly limits: EvtxLimits;
  private readonly json: boolean;
  private readonly parts: boolean;
  private readonly data: boolean;
  private readonly jsonAttributes: JsonAttributes;
  private readonly xml: boolean;
  private readonly onWarning: ((warning: EvtxWarning) => void) | undefined;

  constructor(options: EvtxOptions = {}) {
    this.limits = limitsOf(options.limits);
    this.json = options.json ?? true;
    this.parts = options.parts ?? false;
    this.data = options.data ?? false;
    this.jsonAttributes = options.jsonAttributes ?? 'inline';
    this.xml = options.xml ?? false;
    this.onWarning = options.onWarning;
  }

  /** Records of an EVTX image held in memory. */
  *records(bytes: Uint8Array): Generator<EvtxRecord, EvtxSummary, undefined> {
    const chunkOptions = this.start(bytes.subarray(0, FILE_HEADER_SIZE), bytes.length);
    for (let i = 0; i < this.summary.chunks; i++) {
      const offset = FILE_HEADER_SIZE + i * CHUNK_SIZE;
      yield* this.chunk(bytes.subarray(offset, offset + CHUNK_SIZE), i, offset, chunkOptions);
    }
    return this.summary;
  }

  /** Records of an EVTX file, read synchronously one 64 KiB chunk at a time into one reused buffer. */
  *recordsFromFileSync(path: string): Generator<EvtxRecord, EvtxSummary, undefined> {
    const fd = openFile(() => openSync(path, 'r'));
    try {
      return yield* this.recordsFromReaderSync({ size: fstatSync(fd).size, readInto: (into, position) => readFully(fd, into, position) });
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Records read through an already open file (an EvidenceFile, whose descriptor was checked against the evidence
   * root): the parser then never opens a path itself. `readInto` fills `into` from `position`, short only at the end.
   */
  *recordsFromReaderSync(file: EvtxReader): Generator<EvtxRecord, EvtxSummary, undefined> {
    const buffer = new Uint8Array(CHUNK_SIZE);
    const head = buffer.subarray(0, file.readInto(buffer.subarray(0, FILE_HEADER_SIZE), 0));
    const chunkOptions = this.start(head, file.size);
    for (let i = 0; i < this.summary.chunks; i++) {
      const offset = FILE_HEADER_SIZE + i * CHUNK_SIZE;
      const n = file.readInto(buffer, offset);
      yield* this.chunk(buffer.subarray(0, n), i, offset, chunkOptions);
    }
    return this.summary;
  }

  /**
   * The record that starts at byte `offset` of the file, or null when none does: the file header and the one chunk
   * holding the offset are read and that chunk alone is parsed (its records need its own templates and strings only),
   * so the answer is the record a walk of the whole file gives at that offset. A position without a record signature
   * is null without parsing anything.
   */
  recordAtSync(file: EvtxReader, offset: number): EvtxRecord | null {
    const chunkOptions = this.startFrom(file);
    if (!Number.isSafeInteger(offset) || offset < FILE_HEADER_SIZE + CHUNK_HEADER_SIZE) return null;
    const index = Math.floor((offset - FILE_HEADER_SIZE) / CHUNK_SIZE);
    if (index >= this.summary.chunks) return null;
    const head = new Uint8Array(RECORD_SIGNATURE.length);
    if (file.readInto(head, offset) < head.length || RECORD_SIGNATURE.some((b, i) => head[i] !== b)) return null;
    const start = FILE_HEADER_SIZE + index * CHUNK_SIZE;
    const buffer = new Uint8Array(CHUNK_SIZE);
    const n = file.readInto(buffer, start);
    for (const r of this.chunk(buffer.subarray(0, n), index, start, chunkOptions)) if (r.offset === offset) return r;
    return null;
  }

  /**
   * The first record (in file order) whose identifier is `recordId`, or null: the 512-byte header of every chunk is read
   * and only chunks whose header gives an identifier range holding it are parsed. When none of those holds it, the
   * chunks whose range cannot be trusted (a header checksum that fails, or a first identifier above the last) are
   * parsed as well, in file order, so a record the walk of the file finds is found here too.
   */
  recordByIdSync(file: EvtxReader, recordId: number): EvtxRecord | null {
    const chunkOptions = this.startFrom(file);
    if (!Number.isSafeInteger(recordId) || recordId < 0) return null;
    const header = new Uint8Array(CHUNK_HEADER_SIZE);
    let buffer: Uint8Array | null = null;
    const find = (i: number, start: number): EvtxRecord | null => {
      buffer ??= new Uint8Array(CHUNK_SIZE);
      const n = file.readInto(buffer, start);
      for (const r of this.chunk(buffer.subarray(0, n), i, start, chunkOptions)) if (r.recordId === recordId) return r;
      return null;
    };
    const untrusted: number[] = [];
    for (let i = 0; i < this.summary.chunks; i++) {
      const start = FILE_HEADER_SIZE + i * CHUNK_SIZE;
      if (file.readInto(header, start) < CHUNK_HEADER_SIZE || !hasChunkMagic(header)) continue;
      // First and last event record identifiers of the chunk.
      const first = u64(header, 24);
      const last = u64(header, 32);
      if (recordId >= first && recordId <= last) {
        const r = find(i, start);
        if (r !== null) return r;
      } else if (first > last || !chunkHeaderChecksumHolds(header, chunkOptions.fileNoCrc)) untrusted.push(i);
    }
    for (const i of untrusted) {
      const r = find(i, FILE_HEADER_SIZE + i * CHUNK_SIZE);
      if (r !== null) return r;
    }
    return null;
  }

  /** Records of an EVTX file, read asynchronously one 64 KiB chunk at a time; memory stays flat with file size. */
  async *recordsFromFile(path: string): AsyncGenerator<EvtxRecord, EvtxSummary, undefined> {
    const handle = await openFileAsync(path);
    try {
      const size = (await handle.stat()).size;
      const buffer = new Uint8Array(CHUNK_SIZE);
      const head = buffer.subarray(0, await readFullyAsync(handle, buffer.subarray(0, FILE_HEADER_SIZE), 0));
      const chunkOptions = this.start(head, size);
      for (let i = 0; i < this.summary.chunks; i++) {
        const offset = FILE_HEADER_SIZE + i * CHUNK_SIZE;
        const n = await readFullyAsync(handle, buffer, offset);
        yield* this.chunk(buffer.subarray(0, n), i, offset, chunkOptions);
      }
    } finally {
      await handle.close();
    }
    return this.summary;
  }

  private warn(code: EvtxWarningCode, message: string, chunk: number | null, offset: number, recordId?: number): void {
    const warning: EvtxWarning = recordId === undefined ? { code, message, chunk, offset } : { code, message, chunk, offset, recordId };
    const s = this.summary;
    s.warningCount++;
    s.warningCounts[code] = (s.warningCounts[code] ?? 0) + 1;
    if (s.warnings.length < this.limits.maxWarnings) s.warnings.push(warning);
    this.onWarning?.(warning);
  }

  /** Reads the file header of an open file (as a walk starts). */
  private startFrom(file: EvtxReader): ChunkOptions {
    const head = new Uint8Array(FILE_HEADER_SIZE);
    return this.start(head.subarray(0, file.readInto(head, 0)), file.size);
  }

  /** Reads the file header (`head` is up to its first 4096 bytes) and sizes the chunk walk from the file size. */
  private start(head: Uint8Array, fileSize: number): ChunkOptions {
    if (head.length < FILE_MAGIC.length || FILE_MAGIC.some((b, i) => head[i] !== b))
      throw new VitrineError('parse_error', 'not an EVTX file: the file header signature is missing');
    if (head.length < FILE_HEADER_CORE) throw new VitrineError('parse_error', 'EVTX file header is truncated');
    const flags = u32(head, 120);
    const noCrc = (flags & FLAG_NO_CRC32) !== 0;
    const checksumValid = noCrc ? null : crc32(head.subarray(0, 120)) === u32(head, 124);
    this.summary.header = {
      firstChunk: u64(head, 8),
      lastChunk: u64(head, 16),
      nextRecordId: u64(head, 24),
      minorVersion: u16(head, 36),
      majorVersion: u16(head, 38),
      headerBlockSize: u16(head, 40),
      chunkCount: u16(head, 42),
      flags,
      checksumValid,
    };
    if (checksumValid === false) this.warn('file_header_checksum', 'file header checksum mismatch', null, 124);
    if (fileSize < FILE_HEADER_SIZE) this.warn('file_truncated', 'file ends inside its header block', null, fileSize);
    this.summary.chunks = fileSize > FILE_HEADER_SIZE ? Math.ceil((fileSize - FILE_HEADER_SIZE) / CHUNK_SIZE) : 0;
    return { json: this.json, parts: this.parts, data: this.data, jsonAttributes: this.jsonAttributes, xml: this.xml, limits: this.limits, fileNoCrc: noCrc };
  }

  private chunk(data: Uint8Array, index: number, offset: number, options: ChunkOptions): EvtxRecord[] {
    if (data.length < CHUNK_SIZE) this.warn('chunk_truncated', 'chunk is cut short by the end of the file', index, offset + data.length);
    if (!hasChunkMagic(data)) {
      // All-zero chunks are unused space (common after a log is cleared or copied); anything else is damage.
      if (isAllZero(data)) this.summary.chunksEmpty++;
      else this.warn('chunk_bad_magic', 'chunk signature missing', index, offset);
      return [];
    }
    this.summary.chunksParsed++;
    const records = parseChunk(data, index, offset, options, (code, message, at, recordId) => this.warn(code, message, index, at, recordId));
    this.summary.records += records.length;
    return records;
  }
}

function ioError(err: unknown): VitrineError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return new VitrineError('not_found', 'EVTX file not found', { cause: err });
  return new VitrineError('parse_error', 'could not read the EVTX file', { cause: err });
}

function openFile(fn: () => number): number {
  try {
    return fn();
  } catch (err) {
    throw ioError(err);
  }
}

async function openFileAsync(path: string): Promise<Awaited<ReturnType<typeof open>>> {
  try {
    return await open(path, 'r');
  } catch (err) {
    throw ioError(err);
  }
}

/** Reads until `into` is full or the file ends; returns the byte count. */
function readFully(fd: number, into: Uint8Array, position: number): number {
  try {
    return readFullySync(fd, into, position);
  } catch (err) {
    throw ioError(err);
  }
}

async function readFullyAsync(handle: Awaited<ReturnType<typeof open>>, into: Uint8Array, position: number): Promise<number> {
  let n = 0;
  try {
    while (n < into.length) {
      const { bytesRead } = await handle.read(into, n, into.length - n, position + n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
  } catch (err) {
    throw ioError(err);
  }
  return n;
}

/** Parses a whole in-memory EVTX image: every record and the summary (tests, small files). */
export function parseEvtx(bytes: Uint8Array, options: EvtxOptions = {}): { records: EvtxRecord[]; summary: EvtxSummary } {
  const parser = new EvtxParser(options);
  const records = [...parser.records(bytes)];
  return { records, summary: parser.summary };
}
