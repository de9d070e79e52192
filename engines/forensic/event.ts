// The normalised forensic Event every loader produces, its reliability grades, and its integrity hash and stable id.
import { sha256Hex } from '../core/canonical.js';
import { canonicalEventBytes, canonicalEventText, writtenRawSha256, type KnownTexts } from './canonical-event.js';
import { VitrineError } from '../core/errors.js';
import type { RawRecordView as RawRecordRef } from '../core/contracts/forensic.js';

/** Artefact kinds, the spec's `--kind` values. */
import { ARTIFACT_KINDS } from './cli-meta.js';
export { ARTIFACT_KINDS };
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** Source reliability, A (most reliable) to F (cannot be judged), after the Admiralty scale. */
export const RELIABILITY_GRADES = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export type ReliabilityGrade = (typeof RELIABILITY_GRADES)[number];

/** Weight of each grade (hand-set, not calibrated; docs/forensic.md says why each loader has its grade). */
export const RELIABILITY_WEIGHTS: Readonly<Record<ReliabilityGrade, number>> = { A: 1, B: 0.85, C: 0.7, D: 0.5, E: 0.3, F: 0.2 };

/** The one grade each loader gives its events. */
export const LOADER_RELIABILITY: Readonly<Record<ArtifactKind, ReliabilityGrade>> = {
  evtx: 'B',
  auditd: 'B',
  memory: 'B',
  authlog: 'C',
  timeline: 'C',
  preproc: 'D',
  'dataset-json': 'F',
};

export const TIME_PRECISIONS = ['nanosecond', '100ns', 'microsecond', 'millisecond', 'second', 'minute', 'day', 'none'] as const;
/** How finely the source states the time; 'none' when the record carries no time at all. */
export type TimePrecision = (typeof TIME_PRECISIONS)[number];

export const ENTITY_TYPES = ['user', 'group', 'process', 'host', 'file', 'network', 'service', 'module', 'memory', 'registry', 'task', 'log', 'cloud', 'other'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** An actor or object: what kind of thing, and its name as the source states it. */
export interface EventEntity {
  readonly type: EntityType;
  readonly name: string;
}

/** A JSON value as loaders store attributes. */
/** The longest attribute text an event keeps whole (EVTX event data, dataset and preproc values); loaders clip longer ones and the analysis's patterns read no further. */
export const MAX_VALUE_CHARS = 16384;

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonRecord = { readonly [key: string]: JsonValue };

/**
 * Where the raw source record is: the artefact's SHA-256 (of a directory artefact: of its member listing, see docs),
 * the member file and its SHA-256 inside a directory artefact, the record's 1-based number in its file (line, row,
 * EVTX record walk order, JSON element), its byte range when the format has one, and the SHA-256 of its bytes (or of
 * the canonical JSON of a record inside a JSON document). The exported events carry it as it is (the contract's type).
 */
export type { RawRecordView as RawRecordRef } from '../core/contracts/forensic.js';

/** The time tuple: the time (ISO 8601 UTC, null when the record has none), its precision and where it came from. */
export interface EventTime {
  readonly time: string | null;
  readonly precision: TimePrecision;
  /** Which field gave the time and what was assumed (year, zone). */
  readonly source: string;
}

/** What a loader hands over before hashing. */
export interface EventDraft {
  readonly actor: EventEntity | null;
  readonly action: string;
  readonly object: EventEntity | null;
  readonly time: EventTime;
  readonly host: string | null;
  /** One line a person can read. */
  readonly summary: string;
  /** Format-specific fields (pid, command line, addresses, the id the artefact supplied ...). */
  readonly attributes: JsonRecord;
  readonly reliability: ReliabilityGrade;
  /** Loader name and version, e.g. `authlog/1`. */
  readonly loader: string;
  readonly kind: ArtifactKind;
  readonly raw: RawRecordRef;
}

/** A finalised event: the draft plus its integrity hash and the id derived from it. */
export interface ForensicEvent extends EventDraft {
  /** First 16 hex characters of integrityHash (spec: event_id). */
  readonly eventId: string;
  /** SHA-256 over the canonical form, which includes the raw record's SHA-256 (spec: integrity_hash). */
  readonly integrityHash: string;
}

/** Version of the canonical form; part of what is hashed, so a change of recipe can never collide with an old one. */
export const EVENT_HASH_VERSION = 1;

const HEX64 = /^[0-9a-f]{64}$/;
/** HEX64.test for a value that should be a string: 64 lower-case hex digits, read with a character loop (run on every event). */
function isHex64(v: unknown): boolean {
  if (typeof v !== 'string' || v.length !== 64) return typeof v !== 'string' && HEX64.test(v as string);
  for (let i = 0; i < 64; i++) {
    const c = v.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** The artefact hash last found well formed: an artefact's events all carry the same one, checked once. */
let lastArtifactSha256: unknown = Symbol('none');

/** The canonical form that is hashed: every draft field, never eventId or integrityHash. */
export function canonicalEvent(event: EventDraft): string {
  return canonicalEventWith(event, undefined);
}

function canonicalEventWith(event: EventDraft, known: KnownTexts | undefined): string {
  try {
    return canonicalEventText(event, EVENT_HASH_VERSION, known);
  } catch (err) {
    throw new VitrineError('validation_failed', 'an event holds a value JSON cannot carry', { cause: err });
  }
}

/** spec hash_event: SHA-256 (hex) of the event's canonical form, bound to its raw record through raw.rawSha256. */
export function hashEvent(event: EventDraft): string {
  return hashEventWith(event, undefined);
}

/**
 * hashEvent with `known`: canonical texts already written for objects the event shares (canonical-event.ts), the same
 * bytes without writing them again.
 */
export function hashEventWith(event: EventDraft, known: KnownTexts | undefined): string {
  const artifact = event.raw.artifactSha256;
  const rawSha256 = event.raw.rawSha256;
  if (artifact !== lastArtifactSha256 && !HEX64.test(artifact)) throw NEEDS_HASHES();
  let text: Uint8Array | undefined;
  let failure: unknown;
  try {
    // The text's UTF-8 bytes, hashed as they are written (no string of the text is made).
    text = canonicalEventBytes(event, EVENT_HASH_VERSION, known);
  } catch (err) {
    failure = err;
  }
  // The writer checks a raw reference's rawSha256 as it copies it; any other is checked here. A missing hash is
  // reported before a value JSON cannot carry, as when it was checked before the text was written.
  if (text === undefined || writtenRawSha256() !== rawSha256 || typeof rawSha256 !== 'string') {
    if (!isHex64(rawSha256)) throw NEEDS_HASHES();
  }
  lastArtifactSha256 = artifact;
  if (text === undefined) throw new VitrineError('validation_failed', 'an event holds a value JSON cannot carry', { cause: failure });
  return sha256Hex(text);
}

const NEEDS_HASHES = (): VitrineError => new VitrineError('validation_failed', 'an event needs the SHA-256 of its raw record and artefact');

/** spec stable_event_id: the first 16 hex characters of the integrity hash. */
export function stableEventId(event: EventDraft): string {
  return hashEvent(event).slice(0, 16);
}

/**
 * spec finalize_event: a copy with integrityHash and eventId computed here (deep-frozen under test and in development). Any id or hash the input
 * already carries (from an artefact or a caller) is discarded, never trusted.
 */
export function finalizeEvent(event: EventDraft | ForensicEvent): ForensicEvent {
  // The hash reads the draft's fields by name (canonicalEventText), so an id or hash the input carries is not part of
  // it: no copy without them is made first.
  const integrityHash = hashEvent(event);
  // One object literal, not a spread of the draft: spread-then-freeze gives, after a few events, every event a
  // hidden class of its own (V8 map and descriptor array, about 450 bytes an event); a literal's events share one.
  const out: ForensicEvent = {
    actor: event.actor,
    action: event.action,
    object: event.object,
    time: event.time,
    host: event.host,
    summary: event.summary,
    attributes: event.attributes,
    reliability: event.reliability,
    loader: event.loader,
    kind: event.kind,
    raw: event.raw,
    eventId: integrityHash.slice(0, 16),
    integrityHash,
  };
  return sealEvent(out);
}

/** A finalised event as it is handed out: deep-frozen under test and in development, as it is otherwise. */
export function sealEvent(event: ForensicEvent): ForensicEvent {
  return FREEZE_EVENTS ? deepFreeze(event) : event;
}

/**
 * Events are deep-frozen under test and in development, so code that would change one fails there; in production the
 * readonly types guard them and the freeze (a walk of every attribute, a few percent of ingest) is skipped.
 */
const FREEZE_EVENTS = process.env['VITEST'] !== undefined || process.env['NODE_ENV'] === 'test' || process.env['NODE_ENV'] === 'development';

/**
 * spec verify_event: true when the stored hash and id match the event's content; with `raw`, also that
 * those bytes are the raw record the event is bound to.
 */
export function verifyEvent(event: ForensicEvent, raw?: Uint8Array): boolean {
  let hash: string;
  try {
    // The hash reads the event's fields by name: its stored id and hash are not part of it.
    hash = hashEvent(event);
  } catch {
    return false;
  }
  if (hash !== event.integrityHash || event.eventId !== hash.slice(0, 16)) return false;
  return raw === undefined || sha256Hex(raw) === event.raw.rawSha256;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
