// Stage 1, ingest: checks an artefact against the evidence root, hashes it, detects its kind, runs its loader and finalises every event.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { canonicalValueBytes, SharedStrings } from './canonical-event.js';
import { VitrineError } from '../core/errors.js';
import { setOwn } from '../core/own.js';
import { hashEventWith, sealEvent, type ArtifactKind, type EventDraft, type EventEntity, type EventTime, type ForensicEvent, type JsonRecord, type JsonValue, type ReliabilityGrade } from './event.js';
import { EvidenceFile, resolveEvidence, withEvidenceFile, type EvidencePath } from './evidence.js';
import { defaultRegistry } from './loaders/index.js';
import { POWERS_OF_TEN, readCanonicalTime, type CanonicalTimeParts } from './time.js';
import {
  DETECT_HEAD_BYTES,
  type ArtifactSource,
  type DetectSample,
  type DirectoryMember,
  type DraftFields,
  type LoadContext,
  type LoadWarning,
  type LoaderOptions,
  type LoaderRegistry,
  type WarningLocation,
} from './loaders/registry.js';

/** Members of a directory artefact read at most (memory-forensics output folders hold a handful). */
export const MAX_DIRECTORY_MEMBERS = 1000;
/** Warnings kept per artefact (all are counted). */
export const DEFAULT_MAX_WARNINGS = 200;

export interface IngestOptions extends LoaderOptions {
  /** Only paths below this folder are read. */
  readonly evidenceRoot: string;
  /** Overrides detection. */
  readonly kind?: ArtifactKind;
  readonly registry?: LoaderRegistry;
  readonly signal?: AbortSignal;
  readonly onProgress?: (fraction: number, message?: string) => void;
  /** Receives each finalised event as it is made (for streaming consumers). */
  readonly onEvent?: (event: ForensicEvent) => void;
  /** Keep the events in the result (default true). */
  readonly collectEvents?: boolean;
  /**
   * Reading events back: only records with these numbers (of a file artefact; directory members are always kept) are
   * hashed and handed over; the others are parsed, so the loader's state is the same, but skipped and not counted.
   */
  readonly onlyRecords?: ReadonlySet<number>;
  readonly maxWarnings?: number;
}

/** What ingesting one artefact found. */
export interface ArtifactSummary {
  /** Path relative to the evidence root. */
  readonly path: string;
  readonly kind: ArtifactKind;
  readonly detectedBy: 'content' | 'option';
  readonly loader: string;
  readonly reliability: ReliabilityGrade;
  readonly sha256: string;
  readonly size: number;
  /** Member files of a folder artefact, with their hashes. */
  readonly members?: readonly { readonly name: string; readonly sha256: string; readonly size: number }[];
  readonly events: number;
  /** Earliest and latest event time (null when no event has a time). */
  readonly firstTime: string | null;
  readonly lastTime: string | null;
  readonly warningCount: number;
  readonly warningCounts: Readonly<Record<string, number>>;
  readonly warnings: readonly LoadWarning[];
  /** The artefact hashed the same after parsing as before (it was not changed while we read it). */
  readonly unchanged: boolean;
}

export interface IngestResult {
  readonly artifact: ArtifactSummary;
  readonly events: ForensicEvent[];
}

/** A key that sorts normalised UTC times correctly whatever their fraction digits. */
export function timeSortKey(time: string): string {
  const m = /^(.*?:\d{2})(?:\.(\d+))?Z$/.exec(time);
  return m ? `${m[1] as string}.${(m[2] ?? '').padEnd(9, '0')}` : time;
}

/**
 * The order of timeSortKey(t) against `key` (-1, 0 or 1) for a text readCanonicalTime read (with `digits` fraction
 * digits), without making its key: that key is the text's first 19 characters, a point and the fraction padded with
 * zeros to nine digits, compared here code unit by code unit as string comparison does.
 */
export function canonicalKeyOrder(t: string, digits: number, key: string): number {
  const n = Math.min(29, key.length);
  for (let i = 0; i < n; i++) {
    const c = i < 19 ? t.charCodeAt(i) : i === 19 ? 46 /* . */ : i - 20 < digits ? t.charCodeAt(i) : 48; /* 0 */
    const k = key.charCodeAt(i);
    if (c !== k) return c < k ? -1 : 1;
  }
  return 29 < key.length ? -1 : 29 > key.length ? 1 : 0;
}

/**
 * The earliest (side -1) or latest (side 1) time text offered, in timeSortKey order, ties keeping the first offered.
 * Canonical texts (readCanonicalTime) are compared as whole seconds and nanoseconds, which orders them as their
 * timeSortKey does; any other text is compared by timeSortKey.
 */
class TimeBound {
  text: string | null = null;
  private canonical = false;
  private seconds = 0;
  private nanos = 0;
  private key: string | null = null;

  constructor(private readonly side: -1 | 1) {}

  offer(t: string, canonical: boolean, parts: CanonicalTimeParts): void {
    const nanos = canonical ? parts.fraction * (POWERS_OF_TEN[9 - parts.digits] as number) : 0;
    let order: number;
    if (this.text === null) order = this.side;
    else if (canonical && this.canonical) {
      order = parts.seconds !== this.seconds ? parts.seconds - this.seconds : nanos - this.nanos;
    } else {
      this.key ??= timeSortKey(this.text);
      // A canonical text against a bound that is not (a 1601 time, say, which then stays the earliest): its key is
      // compared where it stands, with no key text made (and no regular expression run) per event.
      if (canonical) order = canonicalKeyOrder(t, parts.digits, this.key);
      else {
        const key = timeSortKey(t);
        order = key < this.key ? -1 : key > this.key ? 1 : 0;
      }
    }
    if (order * this.side <= 0) return;
    this.text = t;
    this.key = null;
    this.canonical = canonical;
    if (canonical) {
      this.seconds = parts.seconds;
      this.nanos = nanos;
    }
  }
}

/** Strings longer than this are not interned (command lines and messages seldom repeat whole). */
const MAX_INTERNED_LENGTH = 256;
/** V8 makes substrings at least this long as slices of their parent string (shorter ones are copied). */
const MIN_SLICE_LENGTH = 13;

/** A flat copy of a string (one pass when it needs no JSON escape, two otherwise). */
function flatCopy(s: string): string {
  return JSON.parse(needsJsonEscape(s) ? JSON.stringify(s) : `"${s}"`) as string;
}

/** True when JSON writes the string with an escape (quote, backslash, control characters, surrogates). */
function needsJsonEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** Distinct values an interner keeps per artefact; beyond it, values are looked up but no longer added. */
const MAX_INTERNED_VALUES = 200_000;

/**
 * One copy of each repeated value of an artefact's events: hosts, actions, entity names, time sources, attribute
 * values and whole actor/object/time tuples. A million-event log repeats a few thousand of them, and each parsed
 * line would otherwise hold its own copy. Values are equal, so hashes and ids do not change.
 */
export class EventInterner {
  /** Shared strings, each with its JSON text once written (an event's attribute values are shared as their text is written). */
  private readonly strings: SharedStrings;
  /** Entities by type, then name (no key text made per lookup), each with its canonical text. */
  private readonly entities = new Map<string, Map<string, Interned<EventEntity>>>();
  private entityCount = 0;
  private readonly times = new Map<string, Interned<EventTime>>();
  /** The canonical text (UTF-8) of what entity() or time() returned last, when it is an interned one (else undefined). */
  private lastText: Uint8Array | undefined = undefined;
  /** The texts of the event being finalised's interned actor, object and time tuple, by identity (written into its hash). */
  private readonly known = new EventKnownTexts();

  /**
   * `shareWhileWriting` (the default): an event's attribute record is shared as its canonical text is written (one walk
   * of it, kept strings' texts copied); false: shared first, then written (the path every other case takes, which
   * tests compare with).
   */
  constructor(private readonly shareWhileWriting = true) {
    // A value seen for the first time is kept by the events that have it: as a flat copy, not as a V8 slice of the line
    // or block it was cut from, which would keep that whole text alive (shorter slices are already copies).
    this.strings = new SharedStrings(MAX_INTERNED_VALUES, MAX_INTERNED_LENGTH, (s) => (s.length >= MIN_SLICE_LENGTH ? flatCopy(s) : s), (v) => this.value(v as JsonValue));
  }

  str(s: string): string {
    return this.strings.share(s);
  }

  entity(e: EventEntity | null): EventEntity | null {
    this.lastText = undefined;
    if (e === null || !hasOwnKeys(e, 2)) return e;
    let byName = this.entities.get(e.type);
    if (byName === undefined) this.entities.set(e.type, (byName = new Map()));
    const hit = byName.get(e.name);
    if (hit !== undefined) {
      this.lastText = hit.text;
      return hit.value;
    }
    const copy: EventEntity = { type: e.type, name: this.str(e.name) };
    if (this.entityCount < MAX_INTERNED_VALUES) {
      const text = canonicalValueBytes(copy);
      byName.set(e.name, { value: copy, text });
      this.lastText = text;
      this.entityCount++;
    }
    return copy;
  }

  time(t: EventTime): EventTime {
    this.lastText = undefined;
    if (!hasOwnKeys(t, 3)) return t;
    const key = `${t.time ?? ''}\u0000${t.time === null ? 'n' : 't'}\u0000${t.precision}\u0000${t.source}`;
    const hit = this.times.get(key);
    if (hit !== undefined) {
      this.lastText = hit.text;
      return hit.value;
    }
    const copy: EventTime = { time: t.time === null ? null : this.str(t.time), precision: t.precision, source: this.str(t.source) };
    if (this.times.size < MAX_INTERNED_VALUES) {
      const text = canonicalValueBytes(copy);
      this.times.set(key, { value: copy, text });
      this.lastText = text;
    }
    return copy;
  }

  value(v: JsonValue): JsonValue {
    if (typeof v === 'string') return this.str(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return (v as readonly JsonValue[]).map((x) => this.value(x));
    return this.record(v as JsonRecord);
  }

  /**
   * The record with its values shared. A loader's record is made for its event, so its values are replaced in place
   * (equal strings by the shared ones: its content does not change) and it keeps its own layout: a parsed JSON object
   * holds its properties inside the object, about 30 bytes an event less than a copy built key by key. A frozen record,
   * or one with a property that cannot be written, is copied instead.
   */
  record(r: JsonRecord): JsonRecord {
    if (!Object.isFrozen(r)) {
      try {
        return this.shareInPlace(r as { [key: string]: JsonValue });
      } catch {
        // A read-only or accessor property: the values already replaced are equal, so copying now gives the same record.
      }
    }
    return this.copy(r);
  }

  private shareInPlace(r: { [key: string]: JsonValue }): JsonRecord {
    // for-in over own keys (the order of Object.entries, without an array of pairs per record).
    for (const k in r) {
      if (!Object.prototype.hasOwnProperty.call(r, k)) continue;
      const v = r[k] as JsonValue;
      if (typeof v === 'string') r[k] = this.str(v);
      else if (v !== null && typeof v === 'object') r[k] = this.value(v);
    }
    return r;
  }

  private copy(r: JsonRecord): JsonRecord {
    const out: { [key: string]: JsonValue } = {};
    for (const k in r) {
      if (!Object.prototype.hasOwnProperty.call(r, k)) continue;
      const v = r[k] as JsonValue;
      // A JSON key named __proto__ is an own property; plain assignment would set the prototype instead.
      setOwn(out, k, typeof v === 'string' ? this.str(v) : v === null || typeof v !== 'object' ? v : this.value(v));
    }
    return out;
  }

  /**
   * The finalised event of a loader's draft, with its repeated values shared (same content, key order kept), in one
   * object: no interned copy of the draft is made before it. Interned entities and time tuples bring their canonical
   * text to the hash. `slim`: the consumer keeps no time tuple or summary (the analysis's event table), so those, nearly
   * all distinct, are not looked up or kept.
   */
  event(d: EventDraft, slim = false): ForensicEvent {
    return this.eventOf(d, d.raw, d.reliability, d.loader, d.kind, slim);
  }

  /** event() of the draft these make up (a loader's fields, the raw record, the loader's grade, id and kind), without the draft object. */
  eventOf(d: Omit<EventDraft, 'raw' | 'reliability' | 'loader' | 'kind'>, raw: EventDraft['raw'], reliability: ReliabilityGrade, loader: string, kind: ArtifactKind, slim = false): ForensicEvent {
    const known = this.known;
    const actor = this.entity(d.actor);
    known.actor = actor;
    known.actorText = this.lastText;
    const action = this.str(d.action);
    const object = this.entity(d.object);
    known.object = object;
    known.objectText = this.lastText;
    const time = slim ? d.time : this.time(d.time);
    known.time = time;
    known.timeText = slim ? undefined : this.lastText;
    // A frozen record is copied by record(): shared first, then written.
    const strings = this.shareWhileWriting && !Object.isFrozen(d.attributes) ? this.strings : null;
    const out: Writable<ForensicEvent> = {
      actor,
      action,
      object,
      time,
      host: d.host === null ? null : this.str(d.host),
      // Slim: a summary that is the action's text (a dataset event without one) shares the interned action.
      summary: slim ? (d.summary === d.action ? action : d.summary) : this.str(d.summary),
      // Shared in place while the hash's text is written (below), else here.
      attributes: strings !== null ? d.attributes : this.record(d.attributes),
      reliability,
      loader,
      kind,
      raw,
      eventId: '',
      integrityHash: '',
    };
    // The same values as the draft's, so the same hash (the canonical text reads the hashed fields by name only).
    known.strings = strings;
    let integrityHash = '';
    try {
      integrityHash = hashEventWith(out, known);
    } catch (err) {
      if (strings === null || !strings.failed) throw err;
    }
    if (strings !== null && strings.failed) {
      // Not written with sharing (a value plain JSON does not hold, a property that cannot be written ...): the record is
      // shared as before (what was shared already is equal) and the text written again, with its errors.
      strings.failed = false;
      known.strings = null;
      out.attributes = this.record(out.attributes);
      integrityHash = hashEventWith(out, known);
    }
    out.eventId = integrityHash.slice(0, 16);
    out.integrityHash = integrityHash;
    return sealEvent(out);
  }
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** An interned value with its canonical text as UTF-8 (copied into each event's text as it is). */
interface Interned<T> {
  readonly value: T;
  readonly text: Uint8Array;
}

/**
 * KnownTexts of one event: its interned actor, object and time tuple with their canonical texts, compared by identity
 * (three fields set per event, where a map of every interned object's text would be looked up per event).
 */
class EventKnownTexts {
  strings: SharedStrings | null = null;
  actor: unknown = null;
  actorText: Uint8Array | undefined = undefined;
  object: unknown = null;
  objectText: Uint8Array | undefined = undefined;
  time: unknown = null;
  timeText: Uint8Array | undefined = undefined;

  get(v: unknown): Uint8Array | undefined {
    if (v === this.actor && this.actorText !== undefined) return this.actorText;
    if (v === this.object && this.objectText !== undefined) return this.objectText;
    if (v === this.time && this.timeText !== undefined) return this.timeText;
    return undefined;
  }
}

/** True when the object has exactly `n` own enumerable keys (counted with for-in: no key array made). */
function hasOwnKeys(o: object, n: number): boolean {
  let count = 0;
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k) && ++count > n) return false;
  return count === n;
}

/**
 * `{ artifactSha256, ...record }`: the raw record reference of an event, the artefact's hash first, then the loader's
 * fields in their order. The usual shape (recordNumber, offset, length, rawSha256, in that order) is built as one
 * literal, which costs less than a spread (a runtime copy per event) and gives every event's record one hidden class;
 * any other shape is spread.
 */
function rawRecord(artifactSha256: string, r: DraftFields['record']): EventDraft['raw'] {
  let n = 0;
  for (const k in r) {
    if (!Object.prototype.hasOwnProperty.call(r, k)) continue;
    if (k !== (n === 0 ? 'recordNumber' : n === 1 ? 'offset' : n === 2 ? 'length' : n === 3 ? 'rawSha256' : '')) return { artifactSha256, ...r };
    n++;
  }
  if (n !== 4) return { artifactSha256, ...r };
  // The keys are own properties (found above), so reading them gives what the spread copies.
  return { artifactSha256, recordNumber: r.recordNumber, offset: r.offset as number, length: r.length as number, rawSha256: r.rawSha256 };
}

function headOf(file: EvidenceFile): Buffer {
  return file.read(0, DETECT_HEAD_BYTES);
}

/** The regular files of a folder artefact (sorted by name), each checked against the root; links that escape are skipped with a warning. */
function listMembers(where: EvidencePath, warn: (code: string, message: string, at?: WarningLocation) => void): { name: string; real: string; root: string; size: number }[] {
  let names: string[];
  try {
    names = readdirSync(where.real).sort();
  } catch (err) {
    throw new VitrineError('unavailable', 'the evidence folder cannot be listed', { cause: err });
  }
  if (names.length > MAX_DIRECTORY_MEMBERS) throw new VitrineError('payload_too_large', `an evidence folder may hold at most ${MAX_DIRECTORY_MEMBERS} files`);
  const out: { name: string; real: string; root: string; size: number }[] = [];
  for (const name of names) {
    let member: EvidencePath;
    try {
      member = resolveEvidence(where.root, path.join(where.real, name));
    } catch (err) {
      if (err instanceof VitrineError && err.code === 'forbidden') {
        warn('member_refused', 'a file in the folder leads outside the evidence root and was not read', { member: name });
        continue;
      }
      throw err;
    }
    if (member.isDirectory) continue;
    out.push({ name, real: member.real, root: member.root, size: member.size });
  }
  return out;
}

function directoryDigest(members: readonly DirectoryMember[]): string {
  return sha256Hex(canonicalJson({ type: 'directory', members: members.map((m) => ({ name: m.name, sha256: m.sha256, size: m.size })) }));
}

/**
 * Ingests one artefact (a file, or a memory-forensics output folder) below the evidence root: hashes it,
 * detects or takes its kind, runs the loader (records that fail become counted warnings), finalises each event,
 * and hashes the artefact again to show it did not change. Evidence is only ever opened read-only.
 */
export function ingestArtifact(target: string, options: IngestOptions): IngestResult {
  const registry = options.registry ?? defaultRegistry();
  const maxWarnings = options.maxWarnings ?? DEFAULT_MAX_WARNINGS;
  const warningCounts: Record<string, number> = {};
  const warnings: LoadWarning[] = [];
  let warningCount = 0;
  const warn = (code: string, message: string, at: WarningLocation = {}): void => {
    warningCount++;
    warningCounts[code] = (warningCounts[code] ?? 0) + 1;
    if (warnings.length < maxWarnings) warnings.push({ code, message, ...at });
  };
  const checkCancelled = (): void => {
    if (options.signal?.aborted) throw new VitrineError('cancelled', 'the ingest was cancelled');
  };
  const report = (fraction: number, message?: string): void => options.onProgress?.(Math.min(1, Math.max(0, fraction)), message);

  const where = resolveEvidence(options.evidenceRoot, target);
  report(0, 'hashing the artefact');
  let file: EvidenceFile | null = null;
  try {
    let source: ArtifactSource;
    let sample: DetectSample;
    if (where.isDirectory) {
      const listed = listMembers(where, warn);
      const members: DirectoryMember[] = listed.map((m) => ({ ...m, sha256: withEvidenceFile(m.real, (f) => f.sha256(), m.root) }));
      const heads = listed.map((m) => ({ name: m.name, head: withEvidenceFile(m.real, headOf, m.root) }));
      source = { type: 'directory', members, sha256: directoryDigest(members), size: members.reduce((n, m) => n + m.size, 0), mtimeMs: where.mtimeMs };
      sample = { type: 'directory', members: heads };
    } else {
      file = new EvidenceFile(where.real, where.root);
      const sha256 = file.sha256();
      source = { type: 'file', file, real: where.real, sha256, size: file.size, mtimeMs: where.mtimeMs };
      sample = { type: 'file', head: headOf(file), size: file.size };
    }
    checkCancelled();
    let kind: ArtifactKind;
    let detectedBy: 'content' | 'option';
    if (options.kind !== undefined) {
      kind = options.kind;
      detectedBy = 'option';
    } else {
      const detected = registry.detect(sample);
      if (detected === null) throw new VitrineError('validation_failed', 'the artefact is not a format any loader recognises (name its kind to read it as that kind)');
      kind = detected.kind;
      detectedBy = 'content';
    }
    const loader = registry.get(kind);
    if (!loader.accepts.includes(source.type))
      throw new VitrineError('validation_failed', source.type === 'directory' ? 'this kind of artefact is a file, not a folder' : 'this kind of artefact is a folder, not a file');
    report(0.1, 'parsing');
    const collect = options.collectEvents ?? true;
    const only = options.onlyRecords;
    const interner = new EventInterner();
    /** The event ctx.event made last: loaders yield what it returns at once, so that is what the loop receives. */
    let made: ForensicEvent | null = null;
    const ctx: LoadContext = {
      options,
      warn,
      progress: (fraction) => report(0.1 + 0.8 * Math.min(1, Math.max(0, fraction)), 'parsing'),
      checkCancelled,
      // The finalised event (interned, hashed), made here rather than from a draft object in the loop below; a record
      // that reading back skips is handed over as a draft, not hashed.
      event: (fields): EventDraft => {
        const raw = rawRecord(source.sha256, fields.record);
        if (only !== undefined && raw.member === undefined && !only.has(raw.recordNumber)) {
          return { actor: fields.actor, action: fields.action, object: fields.object, time: fields.time, host: fields.host, summary: fields.summary, attributes: fields.attributes, reliability: loader.reliability, loader: loader.id, kind, raw };
        }
        made = interner.eventOf(fields, raw, loader.reliability, loader.id, kind, !collect);
        return made;
      },
    };
    const events: ForensicEvent[] = [];
    let count = 0;
    const first = new TimeBound(-1);
    const last = new TimeBound(1);
    const parts: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };
    try {
      for (const draft of loader.load(source, ctx)) {
        let event: ForensicEvent;
        if (draft === made) event = draft;
        else {
          // A draft ctx.event did not just finalise (one skipped for reading back, or one a loader made otherwise).
          if (only !== undefined && draft.raw.member === undefined && !only.has(draft.raw.recordNumber)) continue;
          event = interner.event(draft, !collect);
        }
        made = null;
        count++;
        const t = event.time.time;
        if (t !== null) {
          const canonical = readCanonicalTime(t, parts);
          first.offer(t, canonical, parts);
          last.offer(t, canonical, parts);
        }
        options.onEvent?.(event);
        if (collect) events.push(event);
      }
    } catch (err) {
      if (err instanceof VitrineError) throw err;
      throw new VitrineError('parse_error', 'the artefact could not be parsed', { cause: err });
    }
    checkCancelled();
    report(0.9, 'checking the artefact is unchanged');
    let unchanged: boolean;
    if (source.type === 'file') unchanged = (file as EvidenceFile).sha256() === source.sha256;
    else {
      const again = source.members.map((m) => ({ ...m, sha256: withEvidenceFile(m.real, (f) => f.sha256(), m.root) }));
      unchanged = directoryDigest(again) === source.sha256;
    }
    if (!unchanged) warn('artifact_changed', 'the artefact changed while it was being read; its events may not match its hash');
    report(1, 'done');
    const artifact: ArtifactSummary = {
      path: where.relative,
      kind,
      detectedBy,
      loader: loader.id,
      reliability: loader.reliability,
      sha256: source.sha256,
      size: source.size,
      ...(source.type === 'directory' ? { members: source.members.map((m) => ({ name: m.name, sha256: m.sha256, size: m.size })) } : {}),
      events: count,
      firstTime: first.text,
      lastTime: last.text,
      warningCount,
      warningCounts,
      warnings,
      unchanged,
    };
    return { artifact, events };
  } finally {
    file?.close();
  }
}
