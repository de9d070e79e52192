// Pure pieces of working a case: an event's fields in groups (System and EventData for EVTX), the density strip's time axis, tags as typed, the evidence browser's path steps.
import type { ExportedEvent } from './types';

export interface FieldGroup {
  readonly title: string;
  readonly rows: readonly (readonly [string, string])[];
}

/** The EVTX loader's System-level attributes (engines/forensic/loaders/evtx.ts), shown under System. */
const EVTX_SYSTEM = ['eventId', 'provider', 'channel', 'recordId', 'eventRecordId', 'qualifiers', 'userSid'] as const;

function text(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Nested objects as dotted keys (`#text` of an element with attributes kept under its own name), arrays as JSON. */
function flatten(prefix: string, value: unknown, out: [string, string][]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out.push([prefix, '{}']);
    for (const [k, v] of entries) flatten(k === '#text' ? prefix : prefix === '' ? k : `${prefix}.${k}`, v, out);
    return;
  }
  out.push([prefix, text(value)]);
}

/**
 * Every field of an event, grouped: for EVTX, System (the header fields, host and time) and EventData (the record's
 * data, every name), then what the loader parsed out of them; for other kinds, the event's own fields and the parsed
 * fields. Values are shown as text, never as markup.
 */
export function eventFieldGroups(e: ExportedEvent): FieldGroup[] {
  const attrs = { ...e.attributes } as Record<string, unknown>;
  const groups: FieldGroup[] = [];
  const common: [string, string][] = [
    // As the timeline and the summary above write it (every digit the source recorded, then the zone), not the raw ISO text.
    ['time', `${e.time.time === null ? '—' : `${e.time.time.replace('T', ' ').replace(/Z$/, '')} UTC`} (${e.time.precision}, ${e.time.source})`],
    ['host', e.host ?? '—'],
    ['action', e.action],
    ['actor', e.actor ? `${e.actor.type}: ${e.actor.name}` : '—'],
    ['object', e.object ? `${e.object.type}: ${e.object.name}` : '—'],
    ['loader', `${e.loader} (${e.kind}), reliability ${e.reliability}`],
  ];
  if (e.kind === 'evtx') {
    const system: [string, string][] = [];
    for (const k of EVTX_SYSTEM) {
      if (k in attrs) {
        system.push([k, text(attrs[k])]);
        delete attrs[k];
      }
    }
    groups.push({ title: 'System', rows: [...system, ...common] });
    const data: [string, string][] = [];
    if ('data' in attrs) {
      flatten('', attrs['data'], data);
      delete attrs['data'];
    }
    groups.push({ title: 'EventData', rows: data.filter(([k]) => k !== '') });
  } else groups.push({ title: 'Event', rows: common });
  const parsed: [string, string][] = [];
  flatten('', attrs, parsed);
  const rows = parsed.filter(([k]) => k !== '');
  if (rows.length > 0) groups.push({ title: e.kind === 'evtx' ? 'Parsed by the loader' : 'Parsed fields', rows });
  return groups;
}

/** Steps for the axis, from a second to a year (ms). */
const STEPS = [1, 2, 5, 10, 15, 30].map((s) => s * 1000).concat([1, 2, 5, 10, 15, 30].map((m) => m * 60_000), [1, 2, 3, 6, 12].map((h) => h * 3_600_000), [1, 2, 7, 14, 30, 91, 182, 365].map((d) => d * 86_400_000));

export interface Tick {
  /** 0..1 across the range. */
  readonly at: number;
  readonly label: string;
}

/**
 * Ticks for a time range at round UTC instants, at most `max` of them: labels as dates for day steps, hours and minutes
 * for minute steps (the date added where the day changes and on the first tick), seconds below a minute.
 */
export function timeTicks(range: { readonly from: number; readonly to: number }, max = 8): Tick[] {
  const span = range.to - range.from;
  if (!(span > 0) || !Number.isFinite(span)) return [];
  const step = STEPS.find((s) => span / s <= max) ?? Math.ceil(span / max / 86_400_000) * 86_400_000;
  const first = Math.ceil(range.from / step) * step;
  const ticks: Tick[] = [];
  let lastDay = '';
  for (let t = first; t <= range.to; t += step) {
    const iso = new Date(t).toISOString();
    const day = iso.slice(0, 10);
    let label: string;
    if (step >= 86_400_000) label = day;
    else {
      const clock = step >= 60_000 ? iso.slice(11, 16) : iso.slice(11, 19);
      label = day !== lastDay ? `${iso.slice(5, 10)} ${clock}` : clock;
    }
    lastDay = day;
    ticks.push({ at: (t - range.from) / span, label });
  }
  return ticks;
}

/** A tag as the service accepts it (engines/forensic/schemas.ts annotationBodySchema). */
const TAG = /^[\p{L}\p{N}][\p{L}\p{N}._:/-]{0,47}$/u;
export const MAX_TAGS = 16;

/** Tags typed with commas or spaces between them: distinct, in order; the ones the service would refuse named. */
export function parseTags(input: string): { tags: string[]; bad: string[] } {
  const words = input
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter((w) => w !== '');
  const tags: string[] = [];
  const bad: string[] = [];
  for (const w of words) {
    if (!TAG.test(w)) bad.push(w);
    else if (!tags.includes(w)) tags.push(w);
  }
  return { tags, bad };
}

/** The steps of a folder path below the evidence root, for the browser's breadcrumbs ('.' is the root). */
export function pathSteps(rel: string): { name: string; path: string }[] {
  const parts = rel === '.' || rel === '' ? [] : rel.split('/');
  return [{ name: 'evidence root', path: '.' }, ...parts.map((name, i) => ({ name, path: parts.slice(0, i + 1).join('/') }))];
}
