// One EVTX chunk: header and checksums, string table, the record walk, and per-record output.
import { crc32 } from 'node:zlib';
import { ChunkBinXml, type BinXmlLimits, type Resolved } from './binxml.js';
import { K, PROBE_TYPE, valueNode, VT, type XElement, type XNode, type XText, type XValue } from './ir.js';
import { ARRAY_KIND, clearTemplateIds, compileJson, fillJson, fillText, hasProbeMark, NESTED_KIND, piecesOf, probeFor, templateIdCount, type PlanNode } from './plan.js';
import { dataOfParts, dataPlanOf, userSidOfParts, userSidPlanOf } from './data.js';
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
  /**
   * With the `data` option: EventData of the parts rendering, or the first object under UserData, or a new empty map
   * (data.ts dataOfParts), rendered without the rest of the parts.
   */
  readonly data?: JsonObject;
  /** With the `data` option: System/Security@UserID of the parts rendering when it is text, else null. */
  readonly userSid?: string | null;
}

export interface ChunkOptions {
  readonly json: boolean;
  /** Render the event's data parts only (EvtxRecord.parts). */
  readonly parts: boolean;
  /** Give the event data map and user SID (EvtxRecord.data, userSid). */
  readonly data: boolean;
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

/**
 * A 64-bit little-endian integer as a number. Below 2^32 it is the low half itself, which V8 holds as a small integer
 * (Smi) when under 2^31; the product and sum are a boxed heap number even when integral, and a record id kept in every
 * event's attributes would cost that box (16 bytes and an object for the collector) an event.
 */
export function u64(d: Uint8Array, p: number): number {
  const hi = u32(d, p + 4);
  const lo = u32(d, p);
  return hi === 0 ? lo : hi * 4294967296 + lo;
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

/** Whether a chunk's 512-byte header matches its checksum; true when the chunk or the file says no checksums were written. */
export function chunkHeaderChecksumHolds(header: Uint8Array, fileNoCrc: boolean): boolean {
  if (fileNoCrc || (u32(header, 120) & FLAG_NO_CRC32) !== 0) return true;
  return crc32(header.subarray(128, CHUNK_HEADER_SIZE), crc32(header.subarray(0, 120))) === u32(header, 124);
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
  if (checksums && !chunkHeaderChecksumHolds(data, false))
    warn('chunk_header_checksum', 'chunk header checksum mismatch', fileOffset + 124);
  let end = freeSpace;
  // The last record's offset (header byte 44) lies below the free space in any chunk that was written; a free-space
  // offset at or below it would hide the chunk's records (down to all of them, with a records checksum over nothing).
  const lastRecordOffset = u32(data, 44);
  if (freeSpace < CHUNK_HEADER_SIZE || freeSpace > CHUNK_SIZE) {
    warn('chunk_bad_free_space', 'chunk free-space offset is out of range', fileOffset + 48);
    end = CHUNK_SIZE;
  } else if (lastRecordOffset >= freeSpace && lastRecordOffset < CHUNK_SIZE) {
    warn('chunk_bad_free_space', 'chunk free-space offset is below its last record', fileOffset + 48);
    end = CHUNK_SIZE;
  } else if (checksums && freeSpace <= data.length && crc32(data.subarray(CHUNK_HEADER_SIZE, freeSpace)) !== u32(data, 52)) {
    warn('chunk_data_checksum', 'chunk records checksum mismatch', fileOffset + 52);
  }
  end = Math.min(end, data.length);

  const bx = new ChunkBinXml(data, options.limits);
  const stringOffsets: number[] = [];
  for (let i = 0; i < 64; i++) stringOffsets.push(u32(data, 128 + 4 * i));
  if (!bx.seedNames(stringOffsets)) warn('string_table', 'chunk string table has a broken entry', fileOffset + 128);

  // Render plans serve the JSON renderings and the fields; XML goes through the tree.
  const plans = options.xml ? null : plansFor(options);
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
      const start = p + RECORD_HEADER_SIZE;
      const stop = p + size - 4;
      const timestamp = filetimeIso(u32(data, p + 16), u32(data, p + 20));
      let record: EvtxRecord | null = null;
      if (plans !== null && bx.plain(start, stop)) {
        const plan = findPlan(plans, bx.planKinds);
        // A signature seen once is only remembered: the plan is made when it comes again.
        if (plan === undefined) rememberSignature(plans, bx.planKinds);
        else if (plan.nodes < 0) record = compilePlan(plans, plan, bx, start, stop, options, [recordId, timestamp, index, fileOffset + p, size]);
        else if (plan.ok && plan.nodes <= options.limits.maxNodes)
          record = recordOfPlan(plan, bx.planValues, recordId, timestamp, index, fileOffset + p, size);
      }
      record ??= recordOf(bx.record(start, stop), recordId, timestamp, index, fileOffset + p, size, options);
      out.push(record);
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
  const rendered: { event?: JsonObject; parts?: JsonObject; xml?: string; data?: JsonObject; userSid?: string | null } = {};
  if (options.json) rendered.event = eventJson(root, options.jsonAttributes);
  if (options.parts) rendered.parts = eventParts(root);
  if (options.xml) rendered.xml = eventXml(root);
  if (options.data) {
    // Its own rendering: the data map is the record's, never an object inside `parts`.
    const parts = eventParts(root);
    rendered.data = dataOfParts(parts);
    rendered.userSid = userSidOfParts(parts);
  }
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

/** A template's JSON and fields for one signature of value kinds (plan.ts). */
interface RecordPlan {
  readonly kinds: Int32Array;
  /** False when the plan did not reproduce the tree path's output on its first record: such records take the tree path. */
  readonly ok: boolean;
  /** Nodes the tree path counts for such a record (checked against maxNodes). */
  readonly nodes: number;
  readonly event: PlanNode | null;
  readonly parts: PlanNode | null;
  readonly fields: FieldPlans | null;
  /** With the `data` option: the plan of the data map (null: an empty map) and of the user SID's value (null: none). */
  readonly withData: boolean;
  readonly data: PlanNode | null;
  readonly sid: PlanNode | null;
}

/** Text pieces of a field's nodes (plan.ts piecesOf), null when the field's element or attribute is absent. */
type FieldText = readonly (string | number)[] | null;

interface FieldPlans {
  readonly eventId: FieldText;
  readonly qualifiers: FieldText;
  readonly channel: FieldText;
  readonly providerName: FieldText;
  readonly providerSource: FieldText;
  readonly computer: FieldText;
  readonly eventRecordId: FieldText;
  /** The slot whose FILETIME/SYSTEMTIME value is TimeCreated@SystemTime as is, or -1 (then timeText). */
  readonly timeSlot: number;
  readonly timeText: FieldText;
}

/** Plans by a hash of their signature (ChunkBinXml planKinds), for one set of rendering options. */
type TemplatePlans = Map<number, RecordPlan[]>;

/** Plans for each set of rendering options, shared across chunks and files (bounded: see plansFor). */
const PLAN_CACHE = new Map<string, TemplatePlans>();
const TEMPLATE_ID_LIMIT = 2048;
const PLAN_LIMIT = 4096;
let planCount = 0;

function plansFor(options: ChunkOptions): TemplatePlans {
  if (templateIdCount() > TEMPLATE_ID_LIMIT || planCount > PLAN_LIMIT) {
    // Ids are never reused, so plans made before this cannot match a later record.
    clearTemplateIds();
    PLAN_CACHE.clear();
    planCount = 0;
  }
  const key = `${options.json ? options.jsonAttributes : '-'}|${options.parts ? 'p' : '-'}|${options.data ? 'd' : '-'}`;
  let plans = PLAN_CACHE.get(key);
  if (plans === undefined) {
    plans = new Map();
    PLAN_CACHE.set(key, plans);
  }
  return plans;
}

function signatureHash(kinds: ArrayLike<number>): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < kinds.length; i++) h = Math.imul(h ^ kinds[i]!, 0x01000193);
  return h;
}

/** The plan for a record's signature (ChunkBinXml planKinds), when one was made. */
function findPlan(plans: TemplatePlans, kinds: readonly number[]): RecordPlan | undefined {
  const list = plans.get(signatureHash(kinds));
  if (list === undefined) return undefined;
  search: for (let pi = 0; pi < list.length; pi++) {
    const plan = list[pi]!;
    const known = plan.kinds;
    if (known.length !== kinds.length) continue;
    for (let i = 0; i < known.length; i++) if (kinds[i] !== known[i]) continue search;
    return plan;
  }
  return undefined;
}

function fieldPieces(nodes: readonly XNode[] | undefined, slots: number): FieldText | undefined {
  const s = text(nodes);
  if (s === null) return null;
  return piecesOf(s, slots) ?? undefined;
}

/** The fields' plans from the probe tree (`kinds`: each slot's kind), or null when one cannot be replayed. */
function compileFields(root: XElement, kinds: readonly number[]): FieldPlans | null {
  const slots = kinds.length;
  const system = systemChildren(child(root, 'System'));
  const eventId = fieldPieces(system.eventId?.children, slots);
  const qualifiers = fieldPieces(attrNodes(system.eventId, 'Qualifiers'), slots);
  const channel = fieldPieces(system.channel?.children, slots);
  const providerName = fieldPieces(attrNodes(system.provider, 'Name'), slots);
  const providerSource = fieldPieces(attrNodes(system.provider, 'EventSourceName'), slots);
  const computer = fieldPieces(system.computer?.children, slots);
  const eventRecordId = fieldPieces(system.eventRecordId?.children, slots);
  const timeNodes = attrNodes(system.timeCreated, 'SystemTime');
  let timeSlot = -1;
  const only = timeNodes?.length === 1 ? timeNodes[0] : undefined;
  if (only !== undefined && only.k === K.Value && only.t === PROBE_TYPE) {
    const pieces = piecesOf(only.v as string, slots);
    const slot = pieces?.[1];
    const type = typeof slot === 'number' && kinds[slot]! >= 8 ? (kinds[slot]! - 8) >> 2 : -1;
    if (type === VT.FileTime || type === VT.SysTime) timeSlot = slot as number;
  } else if (only !== undefined && only.k === K.Value && (only.t === VT.FileTime || only.t === VT.SysTime)) {
    // A literal time in the template: timeCreated reads it as is, which text pieces would not.
    return null;
  }
  const timeText = fieldPieces(timeNodes, slots);
  if (
    eventId === undefined ||
    qualifiers === undefined ||
    channel === undefined ||
    providerName === undefined ||
    providerSource === undefined ||
    computer === undefined ||
    eventRecordId === undefined ||
    timeText === undefined
  )
    return null;
  return { eventId, qualifiers, channel, providerName, providerSource, computer, eventRecordId, timeSlot, timeText };
}

function fieldText(plan: FieldText, values: readonly (XText | XValue)[]): string | null {
  return plan === null ? null : fillText(plan, values);
}

/**
 * integer(fieldText(plan, values)) without the text when the field is one integer value alone: its decimal text is
 * digits only for a number from 0 up, and at most 15 of them below 10^15.
 */
function fieldInteger(plan: FieldText, values: readonly (XText | XValue)[]): number | null {
  if (plan !== null && plan.length === 3 && plan[0] === '' && plan[2] === '') {
    const value = values[plan[1] as number]!;
    if (value.k === K.Value && value.items === undefined && value.t >= VT.Int8 && value.t <= VT.UInt64 && typeof value.v === 'number')
      return value.v >= 0 && value.v < 1e15 ? value.v : null;
  }
  return integer(fieldText(plan, values));
}

/**
 * The record's instances resolved with probes (plan.ts probeFor) in place of the flattened values: `valueKinds` gets
 * each flattened value's kind. `at` holds the cursors into the signature and the values.
 */
function probeTree(bx: ChunkBinXml, at: { kind: number; value: number; definition: number }, valueKinds: number[]): XElement {
  const kinds = bx.planKinds;
  const n = kinds[at.kind + 1]!;
  at.kind += 2;
  const definition = bx.planDefinitions[at.definition++]!;
  const probes: Resolved[] = [];
  for (let i = 0; i < n; i++) {
    const kind = kinds[at.kind++]!;
    const slot = at.value++;
    valueKinds[slot] = kind;
    if (kind === NESTED_KIND) probes.push(probeTree(bx, at, valueKinds));
    else if (kind === ARRAY_KIND) {
      const type = kinds[at.kind++]!;
      const count = kinds[at.kind++]!;
      const items: (XText | XValue)[] = [];
      for (let j = 0; j < count; j++) {
        const itemKind = kinds[at.kind++]!;
        const itemSlot = at.value++;
        valueKinds[itemSlot] = itemKind;
        items.push(probeFor(itemSlot, itemKind, bx.planValues[itemSlot]!));
      }
      probes.push(valueNode(type, null, items));
    } else probes.push(probeFor(slot, kind, bx.planValues[slot]!));
  }
  return bx.resolveWith(definition, probes);
}

function addPlan(plans: TemplatePlans, plan: RecordPlan): void {
  const hash = signatureHash(plan.kinds);
  let list = plans.get(hash);
  if (list === undefined) {
    list = [];
    plans.set(hash, list);
  }
  list.push(plan);
  planCount++;
}

function rememberSignature(plans: TemplatePlans, kinds: readonly number[]): void {
  addPlan(plans, { kinds: Int32Array.from(kinds), ok: false, nodes: -1, event: null, parts: null, fields: null, withData: false, data: null, sid: null });
}

/**
 * Compiles the plan of the record's signature (replacing `pending`, which remembered it): its instances resolved
 * with probes, rendered by the tree path's own functions, read back into plans. The plan is kept only if it
 * reproduces the tree path's record on this record, which is what this returns.
 */
function compilePlan(
  plans: TemplatePlans,
  pending: RecordPlan,
  bx: ChunkBinXml,
  start: number,
  stop: number,
  options: ChunkOptions,
  where: readonly [recordId: number, timestamp: string, chunk: number, offset: number, size: number],
): EvtxRecord {
  const kinds = pending.kinds;
  const values = bx.planValues;
  const [recordId, timestamp, chunk, offset, size] = where;
  // The tree path on this record first: the record returned (its errors are the record's errors).
  const reference = recordOf(bx.record(start, stop), recordId, timestamp, chunk, offset, size, options);
  const nodes = bx.nodeCount;
  const valueKinds: number[] = new Array<number>(values.length).fill(0);
  const probeRoot = probeTree(bx, { kind: 0, value: 0, definition: 0 }, valueKinds);
  const event = options.json ? compileJson(eventJson(probeRoot, options.jsonAttributes), values.length) : null;
  const parts = options.parts || options.data ? compileJson(eventParts(probeRoot), values.length) : null;
  const data = options.data && parts !== null ? dataPlanOf(parts) : null;
  const sid = options.data && parts !== null ? userSidPlanOf(parts) : null;
  const fields = compileFields(probeRoot, valueKinds);
  let plan: RecordPlan = { kinds, ok: false, nodes, event: null, parts: null, fields: null, withData: false, data: null, sid: null };
  if (fields !== null && (event !== null || !options.json) && (parts !== null || (!options.parts && !options.data)) && data !== undefined && sid !== undefined) {
    const candidate: RecordPlan = { kinds, ok: true, nodes, event, parts: options.parts ? parts : null, fields, withData: options.data, data, sid };
    const replay = recordOfPlan(candidate, values, recordId, timestamp, chunk, offset, size);
    const expected = JSON.stringify(reference);
    if (!hasProbeMark(expected) && JSON.stringify(replay) === expected) plan = candidate;
  }
  const list = plans.get(signatureHash(kinds))!;
  list[list.indexOf(pending)] = plan;
  return reference;
}

function recordOfPlan(
  plan: RecordPlan,
  values: readonly (XText | XValue)[],
  recordId: number,
  timestamp: string,
  chunk: number,
  offset: number,
  size: number,
): EvtxRecord {
  const f = plan.fields!;
  let timeCreated: string | null;
  if (f.timeSlot >= 0) timeCreated = ((values[f.timeSlot] as XValue).v as string) || null;
  else timeCreated = nonEmpty(fieldText(f.timeText, values));
  // The renderings are added after the fields (the keys in recordOf's order): named stores instead of a spread.
  const record: { -readonly [K in keyof EvtxRecord]: EvtxRecord[K] } = {
    recordId,
    timestamp,
    chunk,
    offset,
    size,
    eventId: fieldInteger(f.eventId, values),
    qualifiers: fieldInteger(f.qualifiers, values),
    channel: nonEmpty(fieldText(f.channel, values)),
    provider: nonEmpty(fieldText(f.providerName, values)) ?? nonEmpty(fieldText(f.providerSource, values)),
    computer: nonEmpty(fieldText(f.computer, values)),
    timeCreated,
    eventRecordId: fieldInteger(f.eventRecordId, values),
  };
  if (plan.event !== null) record.event = fillJson(plan.event, values) as JsonObject;
  if (plan.parts !== null) record.parts = fillJson(plan.parts, values) as JsonObject;
  if (plan.withData) {
    record.data = plan.data === null ? {} : (fillJson(plan.data, values) as JsonObject);
    const sid = plan.sid === null ? null : fillJson(plan.sid, values);
    record.userSid = typeof sid === 'string' ? sid : null;
  }
  return record;
}
