// One EVTX chunk: header and checksums, string table, the record walk, and per-record output.
import { crc32 } from 'node:zlib';
import { ChunkBinXml, type BinXmlLimits } from './binxml.js';
import { K, VT, type XElement, type XNode } from './ir.js';
import { eventJson, eventParts, eventXml, type JsonAttributes, type JsonObject } from './render.js';
import { filetimeIso } from './text.js';
import { BinXmlError, valueText } from './values.js';

export const CHUNK_SIZE = 65536;
export const CHUNK_HEADER_SIZE = 512;
const RECORD_HEADER_SIZE = 24;
const RECORD_MAGIC = 0x00002a2a;
/** Header flag (file and chunk): checksums were not written. */
export const FLAG_NO_CRC32 = 0x4;

export type EvtxWarningCode =
  | 'file_header_checksum'
  | 'file_truncated'
  | 'chunk_bad_magic'
  | 'chunk_truncated'
  | 'chunk_header_checksum'
  | 'chunk_data_checksum'
  | 'chunk_bad_free_space'
  | 'string_table'
  | 'record_bad_magic'
  | 'record_bad_size'
  | 'record_size_mismatch'
  | 'record_unparsable';

/** A recoverable problem: where it is (chunk index, file offset, record id when known) and what it is. */
export interface EvtxWarning {
  readonly code: EvtxWarningCode;
  readonly message: string;
  /** Chunk index, null for the file header. */
  readonly chunk: number | null;
  /** Byte offset in the file. */
  readonly offset: number;
  readonly recordId?: number;
}

/** One event record. */
export interface EvtxRecord {
  /** Record identifier from the record header. */
  readonly recordId: number;
  /** Written time from the record header, ISO 8601 UTC with 100 ns precision (seven fraction digits). */
  readonly timestamp: string;
  /** Chunk index and the record's byte offset in the file (provenance). */
  readonly chunk: number;
  readonly offset: number;
  /** The record's size in bytes (header, BinXml and trailing size copy): its raw bytes are [offset, offset + size). */
  readonly size: number;
  /** System/EventID as a number, and its Qualifiers attribute when present. */
  readonly eventId: number | null;
  readonly qualifiers: number | null;
  readonly channel: string | null;
  /** System/Provider@Name (EventSourceName when Name is missing). */
  readonly provider: string | null;
  readonly computer: string | null;
  /** System/TimeCreated@SystemTime, seven fraction digits when it is a FILETIME value. */
  readonly timeCreated: string | null;
  /** System/EventRecordID as written in the event (forwarded events carry the source log's id). */
  readonly eventRecordId: number | null;
  /** The event in the evtx crate's JSON shape, unless disabled. */
  readonly event?: JsonObject;
  /** With the `parts` option: EventData, UserData and System/Security of that JSON shape, the rest left out (render.ts eventParts). */
  readonly parts?: JsonObject;
  /** The event as XML, when asked for. */
  readonly xml?: string;
}

export interface ChunkOptions {
  readonly json: boolean;
  /** Render the event's data parts only (EvtxRecord.parts). */
  readonly parts: boolean;
  readonly jsonAttributes: JsonAttributes;
  readonly xml: boolean;
  readonly limits: BinXmlLimits;
  /** The file header said checksums are absent. */
  readonly fileNoCrc: boolean;
}

type Warn = (code: EvtxWarningCode, message: string, offset: number, recordId?: number) => void;

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

function u64(d: Uint8Array, p: number): number {
  return u32(d, p + 4) * 4294967296 + u32(d, p);
}

export function hasChunkMagic(d: Uint8Array): boolean {
  // "ElfChnk\0"
  return d.length >= 8 && d[0] === 0x45 && d[1] === 0x6c && d[2] === 0x66 && d[3] === 0x43 && d[4] === 0x68 && d[5] === 0x6e && d[6] === 0x6b && d[7] === 0;
}

const ZEROES = Buffer.alloc(CHUNK_SIZE);

export function isAllZero(d: Uint8Array): boolean {
  // A native comparison: a byte loop over 64 KiB costs more than parsing a chunk's records.
  for (let p = 0; p < d.length; p += CHUNK_SIZE) {
    const part = d.subarray(p, p + CHUNK_SIZE);
    if (Buffer.compare(part, ZEROES.subarray(0, part.length)) !== 0) return false;
  }
  return true;
}

/**
 * Parses the records of one chunk (`data` is the chunk, shorter than 64 KiB when the file is cut). Checksum
 * failures are warnings: the records are still read, each one guarded, and a broken record ends the chunk's
 * walk (record boundaries after it cannot be trusted), as in the evtx crate.
 */
export function parseChunk(data: Uint8Array, index: number, fileOffset: number, options: ChunkOptions, warn: Warn): EvtxRecord[] {
  const out: EvtxRecord[] = [];
  if (data.length < CHUNK_HEADER_SIZE) return out;

  const lastRecordId = u64(data, 32);
  const freeSpace = u32(data, 48);
  const flags = u32(data, 120);
  const checksums = (flags & FLAG_NO_CRC32) === 0 && !options.fileNoCrc;
  if (checksums && crc32(data.subarray(128, CHUNK_HEADER_SIZE), crc32(data.subarray(0, 120))) !== u32(data, 124))
    warn('chunk_header_checksum', 'chunk header checksum mismatch', fileOffset + 124);
  let end = freeSpace;
  if (freeSpace < CHUNK_HEADER_SIZE || freeSpace > CHUNK_SIZE) {
    warn('chunk_bad_free_space', 'chunk free-space offset is out of range', fileOffset + 48);
    end = CHUNK_SIZE;
  } else if (checksums && freeSpace <= data.length && crc32(data.subarray(CHUNK_HEADER_SIZE, freeSpace)) !== u32(data, 52)) {
    warn('chunk_data_checksum', 'chunk records checksum mismatch', fileOffset + 52);
  }
  end = Math.min(end, data.length);

  const bx = new ChunkBinXml(data, options.limits);
  const stringOffsets: number[] = [];
  for (let i = 0; i < 64; i++) stringOffsets.push(u32(data, 128 + 4 * i));
  if (!bx.seedNames(stringOffsets)) warn('string_table', 'chunk string table has a broken entry', fileOffset + 128);

  let p = CHUNK_HEADER_SIZE;
  while (p + 4 <= end) {
    const magic = u32(data, p);
    if (magic !== RECORD_MAGIC) {
      // Zeroes after the last record are slack space, not damage.
      if (magic !== 0) warn('record_bad_magic', 'record signature missing inside the chunk', fileOffset + p);
      break;
    }
    if (p + RECORD_HEADER_SIZE > data.length) break;
    const size = u32(data, p + 4);
    const recordId = u64(data, p + 8);
    if (size < RECORD_HEADER_SIZE + 4 || p + size > data.length) {
      warn('record_bad_size', 'record size is out of range', fileOffset + p + 4, recordId);
      break;
    }
    if (u32(data, p + size - 4) !== size) warn('record_size_mismatch', 'record size copy differs from the record size', fileOffset + p + size - 4, recordId);
    try {
      const root = bx.record(p + RECORD_HEADER_SIZE, p + size - 4);
      out.push(recordOf(root, recordId, filetimeIso(u32(data, p + 16), u32(data, p + 20)), index, fileOffset + p, size, options));
    } catch (err) {
      if (!(err instanceof BinXmlError) && !(err instanceof RangeError)) throw err;
      warn('record_unparsable', `record skipped: ${err instanceof BinXmlError ? err.message : 'structure too deep'}`, fileOffset + p, recordId);
    }
    p += size;
    if (recordId === lastRecordId) break;
  }
  return out;
}

function child(el: XElement | undefined, name: string): XElement | undefined {
  if (el === undefined) return undefined;
  for (let ni = 0; ni < el.children.length; ni++) {
    const n = el.children[ni]!;
    if (n.k === K.Element && n.name === name) return n;
  }
  return undefined;
}

function attrNodes(el: XElement | undefined, name: string): readonly XNode[] | undefined {
  if (el === undefined) return undefined;
  for (let ai = 0; ai < el.attrs.length; ai++) {
    const a = el.attrs[ai]!;
    if (a.name === name) return a.value;
  }
  return undefined;
}

function text(nodes: readonly XNode[] | undefined): string | null {
  if (nodes === undefined) return null;
  let s = '';
  for (let ni = 0; ni < nodes.length; ni++) {
    const n = nodes[ni]!;
    if (n.k === K.Text || n.k === K.CData) s += n.s;
    else if (n.k === K.Value) s += valueText(n);
  }
  return s;
}

function nonEmpty(s: string | null): string | null {
  return s === null || s.length === 0 ? null : s;
}

function integer(s: string | null): number | null {
  if (s === null) return null;
  const t = s.trim();
  return /^\d{1,15}$/.test(t) ? Number(t) : null;
}

function timeCreated(nodes: readonly XNode[] | undefined): string | null {
  if (nodes === undefined) return null;
  const only = nodes.length === 1 ? nodes[0] : undefined;
  if (only !== undefined && only.k === K.Value && (only.t === VT.FileTime || only.t === VT.SysTime) && typeof only.v === 'string') return only.v || null;
  return nonEmpty(text(nodes));
}

/** The System children recordOf reads, each the first element of its name (one pass over System instead of one per field). */
interface SystemChildren {
  provider?: XElement;
  eventId?: XElement;
  channel?: XElement;
  computer?: XElement;
  timeCreated?: XElement;
  eventRecordId?: XElement;
}

function systemChildren(system: XElement | undefined): SystemChildren {
  const out: SystemChildren = {};
  if (system === undefined) return out;
  for (let ni = 0; ni < system.children.length; ni++) {
    const n = system.children[ni]!;
    if (n.k !== K.Element) continue;
    switch (n.name) {
      case 'Provider':
        out.provider ??= n;
        break;
      case 'EventID':
        out.eventId ??= n;
        break;
      case 'Channel':
        out.channel ??= n;
        break;
      case 'Computer':
        out.computer ??= n;
        break;
      case 'TimeCreated':
        out.timeCreated ??= n;
        break;
      case 'EventRecordID':
        out.eventRecordId ??= n;
        break;
      default:
        break;
    }
  }
  return out;
}

function recordOf(root: XElement, recordId: number, timestamp: string, chunk: number, offset: number, size: number, options: ChunkOptions): EvtxRecord {
  const system = systemChildren(child(root, 'System'));
  const provider = system.provider;
  const eventIdEl = system.eventId;
  const rendered: { event?: JsonObject; parts?: JsonObject; xml?: string } = {};
  if (options.json) rendered.event = eventJson(root, options.jsonAttributes);
  if (options.parts) rendered.parts = eventParts(root);
  if (options.xml) rendered.xml = eventXml(root);
  return {
    recordId,
    timestamp,
    chunk,
    offset,
    size,
    eventId: integer(text(eventIdEl?.children)),
    qualifiers: integer(text(attrNodes(eventIdEl, 'Qualifiers'))),
    channel: nonEmpty(text(system.channel?.children)),
    provider: nonEmpty(text(attrNodes(provider, 'Name'))) ?? nonEmpty(text(attrNodes(provider, 'EventSourceName'))),
    computer: nonEmpty(text(system.computer?.children)),
    timeCreated: timeCreated(attrNodes(system.timeCreated, 'SystemTime')),
    eventRecordId: integer(text(system.eventRecordId?.children)),
    ...rendered,
  };
}
