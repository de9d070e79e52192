// dataset-json: the normalised JSON event dataset an analyst or another tool hands over (one document, or a header line and JSON lines).
import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { jsonShapeIssue } from '../../core/json-text.js';
import { issuesToDetails } from '../../core/validation.js';
import { setOwn } from '../../core/own.js';
import { ENTITY_TYPES, LOADER_RELIABILITY, MAX_VALUE_CHARS, TIME_PRECISIONS, type EventDraft, type EventTime, type JsonRecord, type JsonValue } from '../event.js';
import { linesOf } from '../text.js';
import { parseIsoTime } from '../time.js';
import { clip, jsonLine, type ArtifactSource, type DetectSample, type LoadContext, type Loader } from './registry.js';

export const DATASET_FORMAT = 'vitrine.forensic.dataset';
export const DATASET_VERSION = 1;
/** A dataset document is read whole; larger ones must use the JSON-lines form. */
export const MAX_DATASET_DOCUMENT_BYTES = 256 * 1024 * 1024;

const entity = z.strictObject({ type: z.enum(ENTITY_TYPES), name: z.string().min(1).max(4096) });

/** One event as a dataset states it. `id`, `event_id` and `integrity_hash` are kept for reference and never trusted. */
export const datasetEventSchema = z.strictObject({
  time: z.string().max(64).nullable(),
  time_precision: z.enum(TIME_PRECISIONS).optional(),
  time_source: z.string().max(512).optional(),
  host: z.string().min(1).max(512).nullable().optional(),
  actor: entity.nullable().optional(),
  action: z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/).max(128),
  object: entity.nullable().optional(),
  summary: z.string().max(4096).optional(),
  attributes: z.record(z.string().max(128), z.json()).optional(),
  id: z.string().max(256).optional(),
  event_id: z.string().max(256).optional(),
  integrity_hash: z.string().max(256).optional(),
});

/** The document's header fields (the JSON-lines form puts them alone on the first line). */
export const datasetHeaderSchema = z.strictObject({
  format: z.literal(DATASET_FORMAT),
  version: z.literal(DATASET_VERSION),
  host: z.string().min(1).max(512).optional(),
  source: z.string().max(1024).optional(),
  created: z.string().max(64).optional(),
});

export const datasetDocumentSchema = datasetHeaderSchema.extend({ events: z.array(z.unknown()) });

export type DatasetEvent = z.infer<typeof datasetEventSchema>;

const EVENT_KEYS: ReadonlySet<string> = new Set(Object.keys(datasetEventSchema.shape));
const ENTITY_TYPE_SET: ReadonlySet<string> = new Set(ENTITY_TYPES);
const TIME_PRECISION_SET: ReadonlySet<string> = new Set(TIME_PRECISIONS);
const ACTION = /^[a-z0-9_]+(\.[a-z0-9_]+)*$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown, max: number): boolean => v === undefined || (typeof v === 'string' && v.length <= max);

type DatasetEntity = { type: (typeof ENTITY_TYPES)[number]; name: string };

/** True for null or an entity as the schema states it (its two keys in either order). */
function isEntity(v: unknown): boolean {
  if (v === null) return true;
  if (!isRecord(v)) return false;
  let keys = 0;
  for (const k in v) {
    if (k !== 'type' && k !== 'name') return false;
    keys++;
  }
  const { type, name } = v;
  return keys === 2 && typeof type === 'string' && ENTITY_TYPE_SET.has(type) && typeof name === 'string' && name.length >= 1 && name.length <= 4096;
}

/** An entity isEntity took, rebuilt in the schema's key order. */
function schemaEntity(v: unknown): DatasetEntity | null {
  if (v === null) return null;
  const { type, name } = v as DatasetEntity;
  return { type, name };
}

/** True for a JSON.parse value the schema's z.json() takes as it is: finite numbers, no `__proto__` key at any depth. */
function plainJson(v: unknown, depth: number): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'object' || v === null) return true;
  if (depth > 64) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!plainJson(x, depth + 1)) return false;
    return true;
  }
  for (const k in v) if (k === '__proto__' || !plainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/**
 * True when a parsed JSON line plainly matches datasetEventSchema (what nearly every line of a dataset is), checked by
 * hand without the schema's copy of the event.
 */
function isPlainDatasetEvent(v: unknown): v is Record<string, unknown> {
  if (!isRecord(v)) return false;
  for (const k in v) if (!EVENT_KEYS.has(k)) return false;
  const { time, time_precision, host, action, attributes } = v;
  if (time !== null && (typeof time !== 'string' || time.length > 64)) return false;
  if (time_precision !== undefined && (typeof time_precision !== 'string' || !TIME_PRECISION_SET.has(time_precision))) return false;
  if (host !== undefined && host !== null && (typeof host !== 'string' || host.length < 1 || host.length > 512)) return false;
  if (typeof action !== 'string' || action.length > 128 || !ACTION.test(action)) return false;
  if (!optString(v['time_source'], 512) || !optString(v['summary'], 4096) || !optString(v['id'], 256) || !optString(v['event_id'], 256) || !optString(v['integrity_hash'], 256)) return false;
  if ((v['actor'] !== undefined && !isEntity(v['actor'])) || (v['object'] !== undefined && !isEntity(v['object']))) return false;
  if (attributes !== undefined) {
    if (!isRecord(attributes)) return false;
    for (const k in attributes) if (k.length > 128) return false;
    if (!plainJson(attributes, 0)) return false;
  }
  return true;
}

/**
 * The event when a parsed JSON line plainly matches datasetEventSchema, as the schema gives it (entities in the
 * schema's key order); null for anything else, which the schema then parses and explains. Whatever this accepts, the
 * schema accepts with the same result (dataset.test.ts checks both on valid and near-miss events).
 */
export function plainDatasetEvent(v: unknown): DatasetEvent | null {
  if (!isPlainDatasetEvent(v)) return null;
  const out = { ...v } as DatasetEvent;
  if (v['actor'] !== undefined) out.actor = schemaEntity(v['actor']);
  if (v['object'] !== undefined) out.object = schemaEntity(v['object']);
  return out;
}

/**
 * The value with every string longer than MAX_VALUE_CHARS clipped, at any depth (attributes are checked to nest at most
 * EVENT_SHAPE's levels before); the value itself when none is.
 */
function clipLongTexts(v: JsonValue): JsonValue {
  if (typeof v === 'string') return v.length > MAX_VALUE_CHARS ? clip(v, MAX_VALUE_CHARS) : v;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const list = v as readonly JsonValue[];
    let out: JsonValue[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const x = list[i] as JsonValue;
      const c = clipLongTexts(x);
      if (c !== x && out === null) out = list.slice(0, i);
      if (out !== null) out.push(c);
    }
    return out ?? v;
  }
  const rec = v as JsonRecord;
  let out: Record<string, JsonValue> | null = null;
  for (const k in rec) {
    if (!Object.prototype.hasOwnProperty.call(rec, k)) continue;
    const x = rec[k] as JsonValue;
    const c = clipLongTexts(x);
    if (c !== x && out === null) {
      out = {};
      for (const j in rec) {
        if (j === k) break;
        if (Object.prototype.hasOwnProperty.call(rec, j)) setOwn(out, j, rec[j] as JsonValue);
      }
    }
    if (out !== null) setOwn(out, k, c);
  }
  return out ?? v;
}

/** An event's nesting: its attributes as deep as plainJson reads them (64 levels below `attributes`). */
const EVENT_SHAPE = { maxDepth: 66, maxMembers: Number.MAX_SAFE_INTEGER };

const FORMAT_MARK = /"format"\s*:\s*"vitrine\.forensic\.dataset"/;

function timeOf(e: DatasetEvent, ctx: LoadContext, record: number): EventTime {
  if (e.time === null) return { time: null, precision: 'none', source: e.time_source ?? 'dataset: no time' };
  const t = parseIsoTime(e.time);
  if (t === null) {
    ctx.warn('bad_time', 'an event time is not an ISO 8601 time with a zone', { record });
    return { time: null, precision: 'none', source: 'dataset: unreadable time' };
  }
  return { time: t.time, precision: e.time_precision ?? t.precision, source: e.time_source ?? 'dataset time' };
}

/**
 * The draft event of one dataset record, or null (warned) when it does not match the format. A record that plainly
 * matches is read as JSON.parse gave it, without the schema's copy; its actor and object keep their key order, and the
 * ingest's interner writes every entity as the schema orders it (type, then name).
 */
function draftOf(value: unknown, record: number, offset: number | undefined, length: number, rawSha256: string, header: z.infer<typeof datasetHeaderSchema>, ctx: LoadContext): EventDraft | null {
  if (record % 4096 === 0) ctx.checkCancelled();
  let e: DatasetEvent;
  if (isPlainDatasetEvent(value)) e = value as DatasetEvent;
  else {
    // The schema's z.json() walks attributes recursively: an event nested past the limit is refused before it does.
    const shape = jsonShapeIssue(value, EVENT_SHAPE);
    if (shape !== undefined) {
      ctx.warn('invalid_event', `an event does not match the dataset format (${shape.path === '' ? 'the event' : shape.path}: ${shape.issue})`, { record });
      return null;
    }
    const parsed = datasetEventSchema.safeParse(value);
    if (!parsed.success) {
      const first = issuesToDetails(parsed.error.issues)[0];
      ctx.warn('invalid_event', `an event does not match the dataset format${first ? ` (${first.path === '' ? 'the event' : first.path}: ${first.issue})` : ''}`, { record });
      return null;
    }
    e = parsed.data;
  }
  const supplied = e.event_id ?? e.id;
  // Attribute texts are clipped as EVTX event data is: one crafted value cannot make every pattern over it slow.
  const clipped = e.attributes === undefined ? undefined : clipLongTexts(e.attributes as JsonValue);
  if (clipped !== undefined && clipped !== e.attributes) {
    ctx.warn('value_clipped', `an attribute value longer than ${MAX_VALUE_CHARS} characters was clipped`, { record });
    e = { ...e, attributes: clipped as DatasetEvent['attributes'] };
  }
  const host = e.host ?? header.host ?? ctx.options.host ?? null;
  // The parsed attributes object as it is when there is nothing to add (the ingest shares its values in place).
  const given = (e.attributes ?? {}) as JsonRecord;
  const attributes: JsonRecord = supplied !== undefined ? { ...given, suppliedId: supplied } : given;
  return ctx.event({
    actor: e.actor ?? null,
    action: e.action,
    object: e.object ?? null,
    time: timeOf(e, ctx, record),
    host,
    summary: clip(e.summary ?? e.action, 512),
    attributes,
    record: offset !== undefined ? { recordNumber: record, offset, length, rawSha256 } : { recordNumber: record, rawSha256 },
  });
}

function header(value: unknown): z.infer<typeof datasetHeaderSchema> {
  const h = datasetHeaderSchema.safeParse(value);
  if (!h.success) throw new VitrineError('parse_error', 'the dataset header is not a vitrine.forensic.dataset version 1 header', { details: issuesToDetails(h.error.issues) });
  return h.data;
}

const kind = 'dataset-json' as const;

export const datasetLoader: Loader = {
  kind,
  id: 'dataset-json/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['file'],

  detect(sample: DetectSample): number {
    if (sample.type !== 'file') return 0;
    const text = sample.head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
    return text.startsWith('{') && FORMAT_MARK.test(text.slice(0, 4096)) ? 1 : 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    if (source.type !== 'file') return;
    const file = source.file;
    const lines = linesOf(file.chunks());
    const firstLine = lines.next();
    if (firstLine.done) throw new VitrineError('parse_error', 'the dataset file is empty');
    let headerValue: unknown;
    let linesForm: boolean;
    try {
      headerValue = JSON.parse(firstLine.value.text);
      linesForm = typeof headerValue === 'object' && headerValue !== null && !('events' in headerValue);
    } catch {
      linesForm = false;
    }
    if (linesForm) {
      const h = header(headerValue);
      for (const line of lines) {
        if (line.text.trim() === '') continue;
        const value = jsonLine(line, ctx);
        if (value === undefined) continue;
        const draft = draftOf(value, line.number, line.offset, line.bytes.length, sha256Hex(line.bytes), h, ctx);
        if (draft !== null) yield draft;
      }
      ctx.progress(1);
      return;
    }
    if (file.size > MAX_DATASET_DOCUMENT_BYTES) throw new VitrineError('payload_too_large', 'the dataset document is larger than the loader reads whole (use the JSON-lines form)');
    let doc: unknown;
    try {
      doc = JSON.parse(file.read(0, file.size).toString('utf8'));
    } catch {
      throw new VitrineError('parse_error', 'the dataset document is not valid JSON (it may be cut short)');
    }
    const parsed = datasetDocumentSchema.safeParse(doc);
    if (!parsed.success) throw new VitrineError('parse_error', 'the dataset document is not a vitrine.forensic.dataset version 1 document', { details: issuesToDetails(parsed.error.issues) });
    const { events, ...h } = parsed.data;
    const hashes = events.map((value) => {
      let raw: string;
      try {
        raw = canonicalJson(value);
      } catch {
        raw = 'null';
      }
      return sha256Hex(raw);
    });
    for (let i = 0; i < events.length; i++) {
      const draft = draftOf(events[i], i + 1, undefined, 0, hashes[i] as string, h, ctx);
      if (draft !== null) yield draft;
    }
    ctx.progress(1);
  },
};

/** JSON Schema (draft 2020-12) of the document form, as shipped in resources/forensic/dataset.schema.json. */
export function datasetJsonSchema(): unknown {
  return z.toJSONSchema(datasetHeaderSchema.extend({ events: z.array(datasetEventSchema) }), { target: 'draft-2020-12' });
}
