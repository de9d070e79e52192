// What the analysis reads of an event (AnalysisEvent), the slim form analyzePaths keeps of each ingested event, and the way back to full events.
import { grownColumn } from '../../core/columns.js';
import { positionOf, type Seq } from './seq.js';
import type { ArtifactKind, EventEntity, ForensicEvent, JsonRecord, RawRecordRef, ReliabilityGrade, TimePrecision } from '../event.js';
import { readCanonicalTime, type CanonicalTimeParts } from '../time.js';

/**
 * The fields stages 3 to 7 read. A ForensicEvent is one; analyzePaths keeps only these (no summary, integrity hash,
 * loader or raw-record offsets and hashes: about 300 bytes less an event) and reads full events back from the
 * artefacts when an export asks for them (fullEvents).
 */
export type AnalysisEvent = Pick<ForensicEvent, 'eventId' | 'time' | 'host' | 'actor' | 'action' | 'object' | 'attributes' | 'reliability' | 'kind'> & {
  readonly raw: Pick<RawRecordRef, 'artifactSha256'>;
  /** Slim records only: the raw record's number in its file (0 inside a directory artefact), to read the event back. */
  readonly record?: number;
};

/** True when the event carries every ForensicEvent field (it came from analyzeEvents or run, not a slim record). */
export function isFullEvent(e: AnalysisEvent): e is ForensicEvent {
  return 'integrityHash' in e;
}


/**
 * Read access to events by position, what stages 3 to 7 iterate: an array of events is one, and so is an EventList
 * (whose events are made on demand from columns).
 */
export type EventSeq = Seq<AnalysisEvent>;

/** What a slim event shares with many others: its artefact, kind, grade and the way its time was stated. */
interface EventProfile {
  readonly raw: Pick<RawRecordRef, 'artifactSha256'>;
  readonly kind: ArtifactKind;
  readonly reliability: ReliabilityGrade;
  readonly precision: TimePrecision;
  readonly source: string;
  /** Fraction digits of the time text (0 to 9); NO_TIME when there is none; ODD_TIME when the text is kept as is. */
  readonly digits: number;
}

const NO_TIME = -1;
const ODD_TIME = -2;
/** The time texts the table stores as numbers: `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, 0 to 9 fraction digits. */
const CANONICAL_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;
const INITIAL_CAPACITY = 1024;

/**
 * A hash of an event id (FNV-1a over its UTF-16 code units), as an unsigned 32-bit number. The table keeps it per row,
 * made while the id is at hand: a pass that looks events up by id among a few (a story's events) tests the hash first,
 * from a typed array, and reads the id string only when it may be one of them (most ids are not, and reading each id
 * string is a cache miss on a large case).
 */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Seconds since the epoch of 10000-01-01T00:00:00Z: below it (and from 1970 on) the fast path's years have four digits. */
const YEAR_10000 = 253_402_300_800;
/** '00' to '59', the two-digit fields of a time text. */
const TWO_DIGITS: readonly string[] = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** The day last formatted (days since the epoch) and its `YYYY-MM-DDT` text: events are read in time order, so most share it. */
let lastDay = -1;
let lastDayText = '';

/** `YYYY-MM-DDT` of a day since the epoch (0 or more), as Date.prototype.toISOString writes it (years below 10000). */
function dayText(day: number): string {
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  return lastDayText;
}

/**
 * The time text of whole seconds since the epoch and a fraction of `digits` digits. From 1970 to 9999 the date, hour
 * and minute come from a one-minute cache and the seconds from a table, not a Date per call (rows are made on every
 * read, so this runs several times an event); the text is the same as toISOString's.
 */
function timeText(seconds: number, fraction: number, digits: number): string {
  // Rows are read in time order, and neighbours often share their time: the last text is kept.
  if (seconds === lastSeconds && fraction === lastFraction && digits === lastDigits) return lastText;
  lastText = formatTime(seconds, fraction, digits);
  lastSeconds = seconds;
  lastFraction = fraction;
  lastDigits = digits;
  // From 1970 to 9999 the text is one readCanonicalTime reads back to these numbers: its milliseconds are known.
  lastMs = seconds >= 0 && seconds < YEAR_10000 && Number.isInteger(seconds) ? seconds * 1000 + (digits <= 3 ? fraction * 10 ** (3 - digits) : Math.floor(fraction / 10 ** (digits - 3))) : Number.NaN;
  return lastText;
}

/** The milliseconds of the time text last made from a row (what parseTimeMs reads from it), or NaN. */
let lastMs = Number.NaN;

/**
 * The milliseconds of a time text when it is the one a row's time was last written as (NaN otherwise): what
 * parseTimeMs gives for it, without reading the text (rows are made, then their time read, event after event).
 */
export function rowTimeMs(text: string): number {
  return text === lastText ? lastMs : Number.NaN;
}

let lastSeconds = Number.NaN;
let lastFraction = Number.NaN;
let lastDigits = Number.NaN;
let lastText = '';

/** The minute last formatted (minutes since the epoch) and its `YYYY-MM-DDTHH:MM:` text. */
let lastMinute = -1;
let lastMinuteText = '';
/** '00Z' to '59Z': the seconds and the zone of a time without a fraction. */
const SECONDS_Z: readonly string[] = TWO_DIGITS.map((s) => `${s}Z`);

function formatTime(seconds: number, fraction: number, digits: number): string {
  if (seconds >= 0 && seconds < YEAR_10000 && Number.isInteger(seconds)) {
    // The minute's text is kept (rows come in time order); the rest is the seconds, the fraction and the zone.
    const minute = Math.floor(seconds / 60);
    if (minute !== lastMinute) {
      const day = Math.floor(seconds / 86_400);
      const m = minute - day * 1440;
      const hour = Math.floor(m / 60);
      lastMinuteText = [dayText(day), TWO_DIGITS[hour] as string, ':', TWO_DIGITS[m - hour * 60] as string, ':'].join('');
      lastMinute = minute;
    }
    const s = seconds - minute * 60;
    if (digits === 0) return lastMinuteText + (SECONDS_Z[s] as string);
    return `${lastMinuteText}${TWO_DIGITS[s] as string}.${String(fraction).padStart(digits, '0')}Z`;
  }
  if (digits === 3) return new Date(seconds * 1000 + fraction).toISOString();
  const head = new Date(seconds * 1000).toISOString().slice(0, 19);
  return digits === 0 ? [head, 'Z'].join('') : [head, '.', String(fraction).padStart(digits, '0'), 'Z'].join('');
}

/**
 * The slim events of analyzePaths, column by column: what AnalysisEvent holds, with the time as whole seconds and a
 * fraction in typed arrays (the text is rebuilt exactly; a text of another form is kept as is), the artefact, kind,
 * grade, precision and time source as one shared profile, and one reference per event for the id, host, actor,
 * action, object and attributes. `row(r)` makes the AnalysisEvent of row r: about 80 bytes an event plus its
 * attributes, instead of an object, a time object and a time string (about 230 bytes).
 */
export class EventTable {
  private count = 0;
  private ids: string[] = [];
  private hosts: (string | null)[] = [];
  private actors: (EventEntity | null)[] = [];
  private actions: string[] = [];
  private objects: (EventEntity | null)[] = [];
  private attributes: JsonRecord[] = [];
  private seconds: Float64Array = new Float64Array(INITIAL_CAPACITY);
  private fractions: Uint32Array = new Uint32Array(INITIAL_CAPACITY);
  private profileOf: Uint32Array = new Uint32Array(INITIAL_CAPACITY);
  private records: Float64Array = new Float64Array(INITIAL_CAPACITY);
  private idHashes: Uint32Array = new Uint32Array(INITIAL_CAPACITY);
  private readonly profiles: EventProfile[] = [];
  private readonly profileIx = new Map<string, number>();
  private readonly raws = new Map<string, Pick<RawRecordRef, 'artifactSha256'>>();
  /** Rows whose time text is not of the canonical form, with that text. */
  private readonly oddTimes = new Map<number, string>();
  private readonly parts: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };

  get length(): number {
    return this.count;
  }

  /**
   * Appends the slim form of an event. The id is copied flat: `integrityHash.slice(0, 16)` is a V8 sliced string that
   * would keep the whole 64-character hash alive.
   */
  add(e: ForensicEvent): void {
    const r = this.count;
    if (r === this.seconds.length) {
      const n = r * 2;
      this.seconds = grownColumn(this.seconds, n);
      this.fractions = grownColumn(this.fractions, n);
      this.profileOf = grownColumn(this.profileOf, n);
      this.records = grownColumn(this.records, n);
      this.idHashes = grownColumn(this.idHashes, n);
    }
    let digits = NO_TIME;
    const text = e.time.time;
    if (text !== null && readCanonicalTime(text, this.parts)) {
      // 1970 to 9999, every field valid: the text is what timeText writes back (no Date, no regular expression).
      digits = this.parts.digits;
      this.seconds[r] = this.parts.seconds;
      this.fractions[r] = this.parts.fraction;
    } else if (text !== null) {
      const m = CANONICAL_TIME.exec(text);
      const ms = m ? Date.parse(`${m[1] as string}Z`) : NaN;
      const frac = m?.[2] ?? '';
      if (Number.isFinite(ms) && timeText(ms / 1000, Number(frac), frac.length) === text) {
        digits = frac.length;
        this.seconds[r] = ms / 1000;
        this.fractions[r] = Number(frac);
      } else {
        digits = ODD_TIME;
        this.oddTimes.set(r, text);
      }
    }
    this.profileOf[r] = this.profile(e, digits);
    this.records[r] = e.raw.member === undefined ? e.raw.recordNumber : 0;
    const id = JSON.parse(`"${e.eventId}"`) as string;
    this.ids.push(id);
    this.idHashes[r] = idHash(id);
    this.hosts.push(e.host);
    this.actors.push(e.actor);
    this.actions.push(e.action);
    this.objects.push(e.object);
    this.attributes.push(e.attributes);
    this.count++;
  }

  private profile(e: ForensicEvent, digits: number): number {
    // Consecutive events of an artefact nearly always share a profile: the last one is checked field by field first.
    const last = this.lastProfile;
    if (last >= 0) {
      const p = this.profiles[last] as EventProfile;
      if (p.digits === digits && p.raw.artifactSha256 === e.raw.artifactSha256 && p.kind === e.kind && p.reliability === e.reliability && p.precision === e.time.precision && p.source === e.time.source) return last;
    }
    this.lastProfile = this.profileByKey(e, digits);
    return this.lastProfile;
  }

  private lastProfile = -1;

  private profileByKey(e: ForensicEvent, digits: number): number {
    const key = [e.raw.artifactSha256, e.kind, e.reliability, e.time.precision, digits, e.time.source].join('\u0000');
    const known = this.profileIx.get(key);
    if (known !== undefined) return known;
    let raw = this.raws.get(e.raw.artifactSha256);
    if (!raw) this.raws.set(e.raw.artifactSha256, (raw = Object.freeze({ artifactSha256: e.raw.artifactSha256 })));
    const ix = this.profiles.length;
    this.profiles.push(Object.freeze({ raw, kind: e.kind, reliability: e.reliability, precision: e.time.precision, source: e.time.source, digits }));
    this.profileIx.set(key, ix);
    return ix;
  }

  /** The time text of row r, as the event had it. */
  timeText(r: number): string | null {
    const digits = (this.profiles[this.profileOf[r] as number] as EventProfile).digits;
    if (digits === NO_TIME) return null;
    if (digits === ODD_TIME) return this.oddTimes.get(r) ?? null;
    return timeText(this.seconds[r] as number, this.fractions[r] as number, digits);
  }

  /**
   * The rows in time order (rows without a time last, ties in row order), sorted on the stored numbers; null when a
   * row's time text is kept as is (then only the text orders it). For canonical texts this is the order of their
   * timeSortKey: fixed-width whole seconds, then the fraction read as nanoseconds.
   */
  timeOrder(): Uint32Array | null {
    if (this.oddTimes.size > 0) return null;
    const n = this.count;
    const nanos = new Float64Array(n);
    const timed = new Uint8Array(n);
    for (let r = 0; r < n; r++) {
      const digits = (this.profiles[this.profileOf[r] as number] as EventProfile).digits;
      if (digits === NO_TIME) continue;
      timed[r] = 1;
      nanos[r] = (this.fractions[r] as number) * 10 ** (9 - digits);
    }
    const seconds = this.seconds;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => {
      const ta = timed[a] as number;
      const tb = timed[b] as number;
      if (ta === 0 || tb === 0) return ta === tb ? a - b : ta === 0 ? 1 : -1;
      return (seconds[a] as number) - (seconds[b] as number) || (nanos[a] as number) - (nanos[b] as number) || a - b;
    });
  }

  /** The event id of row r. */
  idAt(r: number): string {
    return this.ids[r] as string;
  }

  /** idHash of row r's event id, kept. */
  idHashAt(r: number): number {
    return this.idHashes[r] as number;
  }

  /** The AnalysisEvent of row r (a new object each call; its strings and attributes are the stored ones). */
  row(r: number): AnalysisEvent {
    const p = this.profiles[this.profileOf[r] as number] as EventProfile;
    return {
      eventId: this.ids[r] as string,
      time: { time: this.timeText(r), precision: p.precision, source: p.source },
      host: this.hosts[r] as string | null,
      actor: this.actors[r] as EventEntity | null,
      action: this.actions[r] as string,
      object: this.objects[r] as EventEntity | null,
      attributes: this.attributes[r] as JsonRecord,
      reliability: p.reliability,
      kind: p.kind,
      raw: p.raw,
      record: this.records[r] as number,
    };
  }

  /** Drops the rows from `n` on (an artefact that failed part way: its events are not kept). */
  truncate(n: number): void {
    if (n >= this.count) return;
    this.count = Math.max(0, n);
    for (const list of [this.ids, this.hosts, this.actors, this.actions, this.objects, this.attributes]) list.length = this.count;
    for (const r of [...this.oddTimes.keys()]) if (r >= this.count) this.oddTimes.delete(r);
  }

  /** Once every event is in: the columns cut to their length (exact-size copies; the grown ones are let go). */
  seal(): this {
    const n = this.count;
    this.seconds = this.seconds.slice(0, n);
    this.fractions = this.fractions.slice(0, n);
    this.profileOf = this.profileOf.slice(0, n);
    this.records = this.records.slice(0, n);
    this.idHashes = this.idHashes.slice(0, n);
    this.ids = this.ids.slice();
    this.hosts = this.hosts.slice();
    this.actors = this.actors.slice();
    this.actions = this.actions.slice();
    this.objects = this.objects.slice();
    this.attributes = this.attributes.slice();
    this.profileIx.clear();
    this.raws.clear();
    this.lastProfile = -1;
    return this;
  }
}

/**
 * Events in an order of their own (time order, or those the noise filter keeps): row numbers into an array of events
 * or an EventTable. An array's events are returned as they are; a table's are made on each read.
 */
export class EventList implements EventSeq {
  private constructor(
    private readonly get: (row: number) => AnalysisEvent,
    private readonly rows: Uint32Array,
    private readonly idOf: (row: number) => string,
    private readonly timeOf: (row: number) => string | null,
    private readonly hashOf: (row: number) => number,
  ) {}

  /** The events of `source` in the order of `rows` (row numbers into the source). */
  static of(source: readonly AnalysisEvent[] | EventTable, rows: Uint32Array): EventList {
    if (source instanceof EventTable) return new EventList((r) => source.row(r), rows, (r) => source.idAt(r), (r) => source.timeText(r), (r) => source.idHashAt(r));
    return new EventList((r) => source[r] as AnalysisEvent, rows, (r) => (source[r] as AnalysisEvent).eventId, (r) => (source[r] as AnalysisEvent).time.time, (r) => idHash((source[r] as AnalysisEvent).eventId));
  }

  /** The event id at position k (0 to length - 1), without making the event. */
  idAt(k: number): string {
    return this.idOf(this.rows[k] as number);
  }

  /** idHash of the event id at position k (0 to length - 1): kept by a table, worked out for an array's events. */
  idHashAt(k: number): number {
    return this.hashOf(this.rows[k] as number);
  }

  /** The time text of the event at position k (0 to length - 1), without making the event. */
  timeAt(k: number): string | null {
    return this.timeOf(this.rows[k] as number);
  }

  get length(): number {
    return this.rows.length;
  }

  /** The event at position i (negative: from the end, as Array.prototype.at). */
  at(i: number): AnalysisEvent | undefined {
    const k = positionOf(i, this.rows.length);
    return k < 0 ? undefined : this.get(this.rows[k] as number);
  }

  *[Symbol.iterator](): Iterator<AnalysisEvent> {
    for (let k = 0; k < this.rows.length; k++) yield this.get(this.rows[k] as number);
  }

  /** The events that pass, in this order (a new list over the same source). */
  filter(keep: (e: AnalysisEvent) => boolean): EventList {
    const out = new Uint32Array(this.rows.length);
    let n = 0;
    for (let k = 0; k < this.rows.length; k++) {
      const r = this.rows[k] as number;
      if (keep(this.get(r))) out[n++] = r;
    }
    return new EventList(this.get, out.slice(0, n), this.idOf, this.timeOf, this.hashOf);
  }

  /** The events whose position k (0 to length - 1) passes, in this order (a new list over the same source; no event is made). */
  filterAt(keep: (k: number) => boolean): EventList {
    const out = new Uint32Array(this.rows.length);
    let n = 0;
    for (let k = 0; k < this.rows.length; k++) if (keep(k)) out[n++] = this.rows[k] as number;
    return new EventList(this.get, out.slice(0, n), this.idOf, this.timeOf, this.hashOf);
  }

  /** The events from start to end (as Array.prototype.slice), as an array. */
  slice(start?: number, end?: number): AnalysisEvent[] {
    return Array.from(this.rows.subarray(start, end), (r) => this.get(r));
  }

  map<T>(f: (e: AnalysisEvent) => T): T[] {
    return Array.from(this.rows, (r) => f(this.get(r)));
  }

  some(test: (e: AnalysisEvent) => boolean): boolean {
    for (const e of this) if (test(e)) return true;
    return false;
  }
}
