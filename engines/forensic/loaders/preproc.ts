// preproc: logs another pipeline already split into fields, as tab-separated lines under a `#vitrine-preproc 1` header (Zeek-style escapes).
import { sha256Hex } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { setOwn } from '../../core/own.js';
import { ENTITY_TYPES, LOADER_RELIABILITY, MAX_VALUE_CHARS, type EntityType, type EventEntity, type EventTime, type JsonValue } from '../event.js';
import { linesOf } from '../text.js';
import { fromEpochSecondsText, parseIsoTime } from '../time.js';
import { clip, headLines, type ArtifactSource, type DetectSample, type LoadContext, type Loader } from './registry.js';

export const PREPROC_MAGIC = '#vitrine-preproc';
export const PREPROC_VERSION = '1';
/** Columns with a meaning; any other column becomes an attribute of that name. */
export const PREPROC_COLUMNS = ['time', 'host', 'actor_type', 'actor', 'action', 'object_type', 'object', 'summary'] as const;
/** The placeholder for an empty or absent value. */
export const PREPROC_EMPTY = '-';

const ACTION = /^[a-z0-9_]+(\.[a-z0-9_]+)*$/;

/** Undoes the escapes a writer applies so a value fits on one tab-separated line: \t \n \r \\ and \xHH. */
export function unescapePreproc(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(/\\(x[0-9A-Fa-f]{2}|[tnr\\])/g, (_m, e: string) => {
    switch (e) {
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case '\\':
        return '\\';
      default:
        return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    }
  });
}

/** The escaped form of a value (what a writer of this format does). */
export function escapePreproc(value: string): string {
  if (value === '') return PREPROC_EMPTY;
  const escaped = value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c);
  return escaped === PREPROC_EMPTY ? '\\x2d' : escaped;
}

function cell(value: string | undefined): string | null {
  if (value === undefined || value === PREPROC_EMPTY || value === '') return null;
  return unescapePreproc(value);
}

function timeOf(text: string | null): EventTime | null {
  if (text === null) return { time: null, precision: 'none', source: 'preproc: no time' };
  const epoch = fromEpochSecondsText(text);
  if (epoch !== null) return { ...epoch, source: 'preproc time (epoch seconds)' };
  const iso = parseIsoTime(text);
  return iso === null ? null : { time: iso.time, precision: iso.precision, source: 'preproc time' };
}

const kind = 'preproc' as const;

export const preprocLoader: Loader = {
  kind,
  id: 'preproc/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['file'],

  detect(sample: DetectSample): number {
    if (sample.type !== 'file') return 0;
    const first = headLines(sample.head, 1, sample.head.length >= sample.size)[0] ?? '';
    return first.split(/[\t ]/)[0] === PREPROC_MAGIC ? 1 : 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    if (source.type !== 'file') return;
    const file = source.file;
    let fields: string[] | null = null;
    let sawMagic = false;
    for (const line of linesOf(file.chunks(), { onTooLong: (n, offset) => ctx.warn('line_too_long', 'a line longer than the limit was skipped', { line: n, offset }) })) {
      if (line.number % 4096 === 0) {
        ctx.checkCancelled();
        ctx.progress(file.size === 0 ? 1 : line.offset / file.size);
      }
      const text = line.text;
      if (text.trim() === '') continue;
      if (text.startsWith('#')) {
        const [directive, ...rest] = text.split('\t');
        const word = (directive ?? '').split(' ')[0];
        if (!sawMagic) {
          const version = rest[0] ?? (directive ?? '').split(' ')[1];
          if (word !== PREPROC_MAGIC || version !== PREPROC_VERSION) throw new VitrineError('parse_error', 'the file does not start with a `#vitrine-preproc 1` header');
          sawMagic = true;
        } else if (word === '#fields') {
          fields = rest.map((f) => f.trim());
          if (!fields.includes('action') || !fields.includes('time')) throw new VitrineError('parse_error', 'the #fields line must name at least the time and action columns');
          if (new Set(fields).size !== fields.length) throw new VitrineError('parse_error', 'the #fields line names a column twice');
        }
        continue;
      }
      if (!sawMagic) throw new VitrineError('parse_error', 'the file does not start with a `#vitrine-preproc 1` header');
      if (fields === null) throw new VitrineError('parse_error', 'a data line comes before the #fields line');
      const where = { line: line.number, offset: line.offset };
      const cells = text.split('\t');
      if (cells.length !== fields.length) {
        ctx.warn('column_count', cells.length < fields.length ? 'a line has fewer fields than #fields names (it may be cut short)' : 'a line has more fields than #fields names', where);
        continue;
      }
      // A Map: a column may be named after an Object.prototype member (`__proto__`, `constructor`).
      const row = new Map<string, string | null>();
      fields.forEach((f, i) => row.set(f, cell(cells[i])));
      const action = row.get('action') ?? null;
      if (action === null || !ACTION.test(action) || action.length > 128) {
        ctx.warn('bad_action', 'a line has no action in the dotted lower-case form', where);
        continue;
      }
      const time = timeOf(row.get('time') ?? null);
      if (time === null) {
        ctx.warn('bad_time', 'a line has a time that is neither ISO 8601 with a zone nor epoch seconds', where);
        continue;
      }
      const entity = (typeKey: string, nameKey: string): EventEntity | null => {
        const name = row.get(nameKey) ?? null;
        if (name === null) return null;
        const t = row.get(typeKey) ?? 'other';
        if (!(ENTITY_TYPES as readonly string[]).includes(t)) {
          ctx.warn('bad_entity_type', 'an entity type is not one of the known types; other was used', where);
          return { type: 'other', name: clip(name, 4096) };
        }
        return { type: t as EntityType, name: clip(name, 4096) };
      };
      const attributes: Record<string, JsonValue> = {};
      for (const f of fields) {
        const value = row.get(f) ?? null;
        if ((PREPROC_COLUMNS as readonly string[]).includes(f) || value === null) continue;
        // A column named `__proto__` is an own property too (an assignment would set the prototype instead).
        setOwn(attributes, f, clip(value, MAX_VALUE_CHARS));
      }
      const host = row.get('host') ?? ctx.options.host ?? null;
      yield ctx.event({
        actor: entity('actor_type', 'actor'),
        action,
        object: entity('object_type', 'object'),
        time,
        host,
        summary: clip(row.get('summary') ?? action, 512),
        attributes,
        record: { recordNumber: line.number, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) },
      });
    }
    if (!sawMagic) throw new VitrineError('parse_error', 'the file does not start with a `#vitrine-preproc 1` header');
    ctx.progress(1);
  },
};
