// dataset-json: the normalised JSON event dataset an analyst or another tool hands over (one document, or a header line and JSON lines).
import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { issuesToDetails } from '../../core/validation.js';
import { ENTITY_TYPES, LOADER_RELIABILITY, TIME_PRECISIONS, type EventTime, type JsonRecord } from '../event.js';
import { linesOf } from '../text.js';
import { parseIsoTime } from '../time.js';
import { clip, type ArtifactSource, type DetectSample, type LoadContext, type Loader } from './registry.js';

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

function* mapEvents(items: Iterable<{ value: unknown; record: number; offset?: number; length?: number; rawSha256: string }>, header: z.infer<typeof datasetHeaderSchema>, ctx: LoadContext) {
  for (const item of items) {
    if (item.record % 4096 === 0) ctx.checkCancelled();
    const parsed = datasetEventSchema.safeParse(item.value);
    if (!parsed.success) {
      const first = issuesToDetails(parsed.error.issues)[0];
      ctx.warn('invalid_event', `an event does not match the dataset format${first ? ` (${first.path === '' ? 'the event' : first.path}: ${first.issue})` : ''}`, { record: item.record });
      continue;
    }
    const e = parsed.data;
    const supplied = e.event_id ?? e.id;
    const host = e.host ?? header.host ?? ctx.options.host ?? null;
    const attributes: JsonRecord = { ...((e.attributes ?? {}) as JsonRecord), ...(supplied !== undefined ? { suppliedId: supplied } : {}) };
    yield ctx.event({
      actor: e.actor ?? null,
      action: e.action,
      object: e.object ?? null,
      time: timeOf(e, ctx, item.record),
      host,
      summary: clip(e.summary ?? e.action, 512),
      attributes,
      record: { recordNumber: item.record, ...(item.offset !== undefined ? { offset: item.offset, length: item.length ?? 0 } : {}), rawSha256: item.rawSha256 },
    });
  }
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
      const items = (function* () {
        for (const line of lines) {
          if (line.text.trim() === '') continue;
          let value: unknown;
          try {
            value = JSON.parse(line.text);
          } catch {
            ctx.warn('bad_json', line.terminator === 0 ? 'the last line is cut short or not JSON' : 'a line is not JSON', { line: line.number, offset: line.offset });
            continue;
          }
          yield { value, record: line.number, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) };
        }
      })();
      yield* mapEvents(items, h, ctx);
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
    yield* mapEvents(
      events.map((value, i) => {
        let raw: string;
        try {
          raw = canonicalJson(value);
        } catch {
          raw = 'null';
        }
        return { value, record: i + 1, rawSha256: sha256Hex(raw) };
      }),
      h,
      ctx,
    );
    ctx.progress(1);
  },
};

/** JSON Schema (draft 2020-12) of the document form, as shipped in resources/forensic/dataset.schema.json. */
export function datasetJsonSchema(): unknown {
  return z.toJSONSchema(datasetHeaderSchema.extend({ events: z.array(datasetEventSchema) }), { target: 'draft-2020-12' });
}
