// The canonical text of an event for its integrity hash, written for the event's known shape: the same bytes as
// canonicalJson of the hashed record (RFC 8785), without building that record or sorting its twelve keys per event.
// The text is written as UTF-8 into one reused buffer, which the hash reads as it is: no string per value, no list of
// pieces and no joined string are made per event, and the hash does not encode a string again.
import { canonicalJson, sortedKeys } from '../core/canonical.js';

/** Characters JSON.stringify escapes in a string: quote, backslash, controls, and surrogates (lone ones are escaped). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Nesting past this depth goes to canonicalJson (which also finds cycles). */
const MAX_DEPTH = 32;

/** Thrown inside the writer when a value is not plain JSON; the caller then writes the whole record with canonicalJson. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain('not plain JSON');

/** The buffer the text is written into (one event at a time); it grows for a large event and shrinks back after. */
const BASE_CAPACITY = 1 << 16;
let buf = Buffer.allocUnsafeSlow(BASE_CAPACITY);
let pos = 0;

/** Room for `n` more bytes. */
function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, pos + n));
  buf.copy(grown, 0, 0, pos);
  buf = grown;
}

/** Starts a text: the buffer empty, and back to its base size when a large value grew it. */
function begin(): void {
  pos = 0;
  top = 0;
  if (buf.length > BASE_CAPACITY) buf = Buffer.allocUnsafeSlow(BASE_CAPACITY);
}

/** Appends bytes already encoded (a key's text, a fixed part of the event, a known text): long ones by one native copy. */
function bytes(b: Uint8Array): void {
  const n = b.length;
  ensure(n);
  if (n > NATIVE_COPY) {
    buf.set(b, pos);
    pos += n;
    return;
  }
  const out = buf;
  let p = pos;
  for (let i = 0; i < n; i++) out[p++] = b[i] as number;
  pos = p;
}

/** Byte strings longer than this are copied by TypedArray set (a native call, which costs more than a loop over a few bytes). */
const NATIVE_COPY = 48;

/** Appends text that holds only ASCII (numbers). */
function ascii(t: string): void {
  const n = t.length;
  ensure(n);
  const out = buf;
  let p = pos;
  for (let i = 0; i < n; i++) out[p++] = t.charCodeAt(i);
  pos = p;
}

/** Appends a 32-bit integer's decimal digits (what String writes for it), with no string made for it. */
function integer(v: number): void {
  ensure(11);
  const out = buf;
  let p = pos;
  let u = v;
  if (u < 0) {
    out[p++] = 0x2d;
    // 2^31 for -2^31: the digit loop reads it as an unsigned 32-bit value.
    u = -u;
  }
  let digits = 1;
  for (let t = u; t >= 10; t = (t / 10) >>> 0) digits++;
  p += digits;
  for (let i = 1; i <= digits; i++) {
    const q = (u / 10) >>> 0;
    out[p - i] = 0x30 + (u - q * 10);
    u = q;
  }
  pos = p;
}

/**
 * Appends the UTF-8 of the unit `c` (at or above 0x80) at `i` of `s`, or of the surrogate pair it starts (four bytes,
 * the only case that writes four: the caller then skips the low half); a lone surrogate as a JSON escape when
 * `escapeLone`, else as U+FFFD, as Buffer.write writes it. The new position.
 */
function wide(out: Buffer, p: number, s: string, i: number, c: number, escapeLone: boolean): number {
  if (c < 0x800) {
    out[p++] = 0xc0 | (c >> 6);
    out[p++] = 0x80 | (c & 0x3f);
  } else if (c < 0xd800 || c > 0xdfff) {
    out[p++] = 0xe0 | (c >> 12);
    out[p++] = 0x80 | ((c >> 6) & 0x3f);
    out[p++] = 0x80 | (c & 0x3f);
  } else {
    const d = c <= 0xdbff && i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    if (d >= 0xdc00 && d <= 0xdfff) {
      const u = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      out[p++] = 0xf0 | (u >> 18);
      out[p++] = 0x80 | ((u >> 12) & 0x3f);
      out[p++] = 0x80 | ((u >> 6) & 0x3f);
      out[p++] = 0x80 | (u & 0x3f);
    } else if (escapeLone) p = unicodeEscape(out, p, c);
    else {
      out[p++] = 0xef;
      out[p++] = 0xbf;
      out[p++] = 0xbd;
    }
  }
  return p;
}

/** Texts longer than this (strings without any character to escape) are encoded by Buffer.write: a native call, which costs more than a loop over a short text. */
const LONG_STRING = 64;

const HEX = '0123456789abcdef';

/** Appends `\u` and four lower-case hex digits, as JSON.stringify writes an escape; the new position. */
function unicodeEscape(out: Buffer, p: number, c: number): number {
  out[p++] = 0x5c;
  out[p++] = 0x75;
  out[p++] = HEX.charCodeAt(c >> 12);
  out[p++] = HEX.charCodeAt((c >> 8) & 15);
  out[p++] = HEX.charCodeAt((c >> 4) & 15);
  out[p++] = HEX.charCodeAt(c & 15);
  return p;
}

/**
 * Appends a string as JSON.stringify writes it, as UTF-8: quoted; quote, backslash and controls escaped (the short
 * forms \b \t \n \f \r where JSON has them, else \u00xx); a surrogate pair as its four-byte character, a lone
 * surrogate escaped.
 */
function string(s: string): void {
  const n = s.length;
  if (n > LONG_STRING && !NEEDS_ESCAPE.test(s)) {
    ensure(n * 3 + 2);
    buf[pos++] = 0x22;
    pos += buf.write(s, pos, 'utf8');
    buf[pos++] = 0x22;
    return;
  }
  // At most six bytes per UTF-16 unit (an escape), and the quotes.
  ensure(n * 6 + 2);
  const out = buf;
  let p = pos;
  out[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) out[p++] = c;
      else if (c === 0x22 || c === 0x5c) {
        out[p++] = 0x5c;
        out[p++] = c;
      } else {
        const short = c === 0x08 ? 0x62 : c === 0x09 ? 0x74 : c === 0x0a ? 0x6e : c === 0x0c ? 0x66 : c === 0x0d ? 0x72 : 0;
        if (short !== 0) {
          out[p++] = 0x5c;
          out[p++] = short;
        } else p = unicodeEscape(out, p, c);
      }
    } else {
      // A lone surrogate escaped, as JSON.stringify writes it.
      const before = p;
      p = wide(out, p, s, i, c, true);
      if (p - before === 4) i++;
    }
  }
  out[p++] = 0x22;
  pos = p;
}

/** A key's text with its colon (`"key":`), kept for the keys seen (attribute names repeat across events). */
const keyTexts = new Map<string, string>();
const KEY_CACHE_LIMIT = 4096;

function keyText(k: string): string {
  let t = keyTexts.get(k);
  if (t === undefined) {
    t = `${NEEDS_ESCAPE.test(k) ? JSON.stringify(k) : `"${k}"`}:`;
    if (keyTexts.size < KEY_CACHE_LIMIT) keyTexts.set(k, t);
  }
  return t;
}

/**
 * The keys of objects lately written, in their own order, with their canonical order, a few per key count: the records
 * of one source share their keys and key order, so most objects find theirs here by comparing keys (property names are
 * interned: each comparison is one pointer check) instead of sorting them. Sixteen per count: an EVTX log's event
 * types give many key sets of one count (with four, 4.5 % of the objects of the EVTX bench were sorted again; with
 * sixteen, 0.25 %), and a key set that is not the one tried differs from it at its first key nearly always.
 */
const SHAPES_PER_COUNT = 16;
const MAX_CACHED_KEYS = 64;
const shapeKeys: (readonly string[])[][] = [];
const shapeSorted: Shape[][] = [];
const shapeNext: number[] = [];

/** An object's keys in canonical order: where each is in the object's own order, and its text as UTF-8 (`"key":`, and `,"key":` after the first). */
interface Shape {
  readonly order: readonly number[];
  readonly texts: readonly Uint8Array[];
}

function shapeOf(keys: readonly string[]): Shape {
  const sorted = sortedKeys(keys.slice());
  // Keys are distinct, so each sorted key has one place in the object's order.
  return { order: sorted.map((k) => keys.indexOf(k)), texts: sorted.map((k, i) => Buffer.from(i === 0 ? keyText(k) : `,${keyText(k)}`, 'utf8')) };
}

/**
 * The own enumerable keys and values of the objects being written, nested ones above their parents: read by one
 * for-in per object (in Object.keys order; no array made per object), then written in canonical order.
 */
const stackKeys: string[] = [];
const stackValues: unknown[] = [];
/** For sharedRecord: each value's index in its SharedStrings (a string kept there), or NOT_SHARED / NESTED. */
const stackShared: number[] = [];
let top = 0;

/** The shape of the `n` keys at `base` of the stack. */
function shapeAt(base: number, n: number): Shape {
  if (n > MAX_CACHED_KEYS) return shapeOf(stackKeys.slice(base, base + n));
  const known = (shapeKeys[n] ??= []);
  for (let i = 0; i < known.length; i++) {
    const keys = known[i] as readonly string[];
    let same = true;
    for (let j = 0; j < n; j++)
      if (keys[j] !== stackKeys[base + j]) {
        same = false;
        break;
      }
    if (same) return (shapeSorted[n] as Shape[])[i] as Shape;
  }
  const keys = stackKeys.slice(base, base + n);
  const shape = shapeOf(keys);
  const at = shapeNext[n] ?? 0;
  known[at] = keys;
  (shapeSorted[n] ??= [])[at] = shape;
  shapeNext[n] = (at + 1) % SHAPES_PER_COUNT;
  return shape;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Appends one byte. */
function byte(b: number): void {
  ensure(1);
  buf[pos++] = b;
}

const NULL = Buffer.from('null');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');

/**
 * Appends a plain JSON value's canonical text; NOT_PLAIN for anything canonicalJson treats specially (toJSON,
 * undefined, holes ...).
 */
function plain(v: unknown, depth: number): void {
  if (v === null) {
    bytes(NULL);
    return;
  }
  switch (typeof v) {
    case 'string':
      string(v);
      return;
    case 'number':
      if (isInteger(v)) integer(v);
      else if (!Number.isFinite(v) || Object.is(v, -0)) throw NOT_PLAIN;
      else ascii(String(v));
      return;
    case 'boolean':
      bytes(v ? TRUE : FALSE);
      return;
    case 'object': {
      if (depth > MAX_DEPTH) throw NOT_PLAIN;
      if (Array.isArray(v)) {
        byte(0x5b);
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) throw NOT_PLAIN;
          if (i > 0) byte(0x2c);
          plain(v[i], depth + 1);
        }
        byte(0x5d);
        return;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      const rec = v as Record<string, unknown>;
      if (typeof rec['toJSON'] === 'function') throw NOT_PLAIN;
      // The own enumerable keys in Object.keys order (for-in gives inherited enumerable ones after them: skipped).
      const base = top;
      let n = 0;
      for (const k in rec) {
        if (!hasOwn.call(rec, k)) continue;
        stackKeys[base + n] = k;
        stackValues[base + n] = rec[k];
        n++;
      }
      top = base + n;
      const { order, texts } = shapeAt(base, n);
      byte(0x7b);
      for (let i = 0; i < n; i++) {
        bytes(texts[i] as Uint8Array);
        plain(stackValues[base + (order[i] as number)], depth + 1);
      }
      byte(0x7d);
      top = base;
      return;
    }
    default:
      throw NOT_PLAIN;
  }
}

/** The text written so far, as a string. */
function written(): string {
  return buf.toString('utf8', 0, pos);
}

/**
 * Canonical texts already written for objects an event may share with others (an ingest's interned actors, objects and
 * time tuples), by identity: each must be canonicalValueBytes of that object, which is never changed after.
 */
export interface KnownTexts {
  /** The text as its UTF-8 bytes (canonicalValueBytes: copied as they are, not encoded again). */
  get(key: unknown): Uint8Array | undefined;
  /**
   * When set, the event's attributes are shared through these strings while their text is written (sharedRecord):
   * one walk of the record instead of one to share its strings and one to write it.
   */
  readonly strings?: SharedStrings | null;
}

/**
 * canonicalJson(value) as UTF-8 bytes, by the same writer as the event's text, for a KnownTexts: its own bytes, never written again. Texts
 * are views of shared 64 KiB blocks (an ingest keeps up to hundreds of thousands: one ArrayBuffer each would cost more
 * memory, and the collector tracks each), a long one a copy of its own.
 */
export function canonicalValueBytes(value: unknown): Uint8Array {
  try {
    begin();
    plain(value, 0);
    return kept();
  } catch (err) {
    if (err !== NOT_PLAIN) throw err;
    return Buffer.from(canonicalJson(value), 'utf8');
  }
}

const KEPT_BLOCK = 1 << 16;
let keptBlock = new Uint8Array(KEPT_BLOCK);
let keptUsed = 0;

/** The text written (from 0), as a view of the current block of kept texts (a new block when it is full). */
function kept(): Uint8Array {
  const n = pos;
  if (n > KEPT_BLOCK >> 4) return writtenSince(0);
  if (keptUsed + n > KEPT_BLOCK) {
    keptBlock = new Uint8Array(KEPT_BLOCK);
    keptUsed = 0;
  }
  const at = keptUsed;
  keptBlock.set(buf.subarray(0, n), at);
  keptUsed = at + n;
  return keptBlock.subarray(at, at + n);
}

/** The known text of `v` (by identity), else its canonical text. */
function value(v: unknown, known: KnownTexts | undefined): void {
  const text = known?.get(v);
  if (text !== undefined) bytes(text);
  else if (!timeTuple(v)) plain(v, 0);
}

/** True when `x` is a number the integer writer writes (a 32-bit integer, not -0). */
const isInteger = (x: unknown): x is number => typeof x === 'number' && (x | 0) === x && !Object.is(x, -0);

/**
 * True when `v` is a plain object whose own enumerable keys are `keys`, in that order (the order ingest builds it in),
 * with no toJSON: then its canonical text is its values in sorted key order, which the writers below write directly.
 */
function plainWithKeys(v: unknown, keys: readonly string[]): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  const rec = v as Record<string, unknown>;
  if (typeof rec['toJSON'] === 'function') return false;
  let n = 0;
  for (const k in rec) {
    if (!hasOwn.call(rec, k)) continue;
    if (k !== keys[n]) return false;
    n++;
  }
  return n === keys.length;
}

/** Copies the text written from `start` on (a prefix to keep). */
const writtenSince = (start: number): Uint8Array => Uint8Array.prototype.slice.call(buf, start, pos);

const TIME_KEYS = ['time', 'precision', 'source'] as const;
const K_TUPLE_PRECISION = Buffer.from('{"precision":');
const K_TUPLE_SOURCE = Buffer.from(',"source":');
const K_TUPLE_TIME = Buffer.from(',"time":');
/** `{"precision":…,"source":…,"time":` of the precision and source written last (an artefact's events share them). */
let tuplePrecision: string | null = null;
let tupleSource: string | null = null;
let tuplePrefix: Uint8Array = new Uint8Array(0);

/**
 * Writes a time tuple as ingest builds it ({ time, precision, source }: strings, the time maybe null), its precision
 * and source as the text kept for the last ones; false, with nothing written, for any other value.
 */
function timeTuple(v: unknown): boolean {
  if (!plainWithKeys(v, TIME_KEYS)) return false;
  const time = v['time'];
  const precision = v['precision'];
  const source = v['source'];
  if (typeof precision !== 'string' || typeof source !== 'string' || (time !== null && typeof time !== 'string')) return false;
  if (precision !== tuplePrecision || source !== tupleSource) {
    const start = pos;
    bytes(K_TUPLE_PRECISION);
    string(precision);
    bytes(K_TUPLE_SOURCE);
    string(source);
    bytes(K_TUPLE_TIME);
    tuplePrefix = writtenSince(start);
    tuplePrecision = precision;
    tupleSource = source;
  } else bytes(tuplePrefix);
  if (time === null) bytes(NULL);
  else string(time);
  byte(0x7d);
  return true;
}

const RAW_KEYS = ['artifactSha256', 'recordNumber', 'offset', 'length', 'rawSha256'] as const;
const K_RAW_ARTIFACT = Buffer.from('{"artifactSha256":');
const K_RAW_LENGTH = Buffer.from(',"length":');
const K_RAW_OFFSET = Buffer.from(',"offset":');
const K_RAW_HASH = Buffer.from(',"rawSha256":');
const K_RAW_NUMBER = Buffer.from(',"recordNumber":');
/** `{"artifactSha256":…,"length":` of the artefact written last (all of its events share it). */
let rawArtifact: string | null = null;
let rawPrefix: Uint8Array = new Uint8Array(0);

/**
 * Writes a raw record reference as ingest builds it for a line or record (artifactSha256, recordNumber, offset, length,
 * rawSha256: strings and 32-bit integers), the artefact's part as the text kept for the last one; false, with nothing
 * written, for any other value.
 */
function rawReference(v: unknown): boolean {
  if (!plainWithKeys(v, RAW_KEYS)) return false;
  const artifact = v['artifactSha256'];
  const recordNumber = v['recordNumber'];
  const offset = v['offset'];
  const length = v['length'];
  const rawSha256 = v['rawSha256'];
  if (typeof artifact !== 'string' || typeof rawSha256 !== 'string' || !isInteger(recordNumber) || !isInteger(offset) || !isInteger(length)) return false;
  if (artifact !== rawArtifact) {
    const start = pos;
    bytes(K_RAW_ARTIFACT);
    string(artifact);
    bytes(K_RAW_LENGTH);
    rawPrefix = writtenSince(start);
    rawArtifact = artifact;
  } else bytes(rawPrefix);
  integer(length);
  bytes(K_RAW_OFFSET);
  integer(offset);
  bytes(K_RAW_HASH);
  if (hex64(rawSha256)) hexChecked = rawSha256;
  else string(rawSha256);
  bytes(K_RAW_NUMBER);
  integer(recordNumber);
  byte(0x7d);
  return true;
}

/** The rawSha256 of the event text written last (by writeEvent) when rawReference found it 64 lower-case hex digits (else null). */
let hexChecked: string | null = null;

/**
 * The raw reference's rawSha256 of the event written last, when it was read as 64 lower-case hex digits while it was
 * written (the check hashEventWith makes, done in the same pass); null otherwise.
 */
export function writtenRawSha256(): string | null {
  return hexChecked;
}

/** Writes `s` quoted when it is 64 lower-case hex digits (which JSON writes as they are), checking as it copies; false, with nothing written, otherwise. */
function hex64(s: string): boolean {
  if (s.length !== 64) return false;
  ensure(66);
  const out = buf;
  let p = pos;
  out[p++] = 0x22;
  for (let i = 0; i < 64; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
    out[p++] = c;
  }
  out[p++] = 0x22;
  pos = p;
  return true;
}

/** What the event hash covers (EventDraft's fields), as canonicalEventText reads them. */
export interface HashedEvent {
  readonly actor: unknown;
  readonly action: unknown;
  readonly object: unknown;
  readonly time: unknown;
  readonly host: unknown;
  readonly summary: unknown;
  readonly attributes: unknown;
  readonly reliability: unknown;
  readonly loader: unknown;
  readonly kind: unknown;
  readonly raw: unknown;
}

/** The event's keys in their sorted order, each with what comes before it. */
const K_ACTION = Buffer.from('{"action":');
const K_ACTOR = Buffer.from(',"actor":');
const K_ATTRIBUTES = Buffer.from(',"attributes":');
const K_HOST = Buffer.from(',"host":');
const K_KIND = Buffer.from(',"kind":');
const K_LOADER = Buffer.from(',"loader":');
const K_OBJECT = Buffer.from(',"object":');
const K_RAW = Buffer.from(',"raw":');
const K_RELIABILITY = Buffer.from(',"reliability":');
const K_SUMMARY = Buffer.from(',"summary":');
const K_TIME = Buffer.from(',"time":');
const K_V = Buffer.from(',"v":');

/**
 * The parts of an event's text that an artefact's events share (its kind and loader; its grade; the version), kept as
 * the bytes written for the last strings (or number) seen: one copy per event instead of keys and values written again.
 */
let lastKind: string | null = null;
let lastLoader: string | null = null;
let kindLoaderText: Uint8Array = new Uint8Array(0);
let lastReliability: string | null = null;
let reliabilityText: Uint8Array = new Uint8Array(0);
let lastVersion: number | null = null;
let versionText: Uint8Array = new Uint8Array(0);

/** `,"kind":…,"loader":…`. */
function kindAndLoader(kind: unknown, loader: unknown): void {
  if (typeof kind === 'string' && typeof loader === 'string' && kind === lastKind && loader === lastLoader) {
    bytes(kindLoaderText);
    return;
  }
  const start = pos;
  bytes(K_KIND);
  plain(kind, 0);
  bytes(K_LOADER);
  plain(loader, 0);
  if (typeof kind === 'string' && typeof loader === 'string') {
    kindLoaderText = writtenSince(start);
    lastKind = kind;
    lastLoader = loader;
  }
}

/** `,"reliability":…,"summary":`. */
function reliabilityAndSummaryKey(reliability: unknown): void {
  if (typeof reliability === 'string' && reliability === lastReliability) {
    bytes(reliabilityText);
    return;
  }
  const start = pos;
  bytes(K_RELIABILITY);
  plain(reliability, 0);
  bytes(K_SUMMARY);
  if (typeof reliability === 'string') {
    reliabilityText = writtenSince(start);
    lastReliability = reliability;
  }
}

/** `,"v":…}`. */
function versionAndEnd(version: number): void {
  if (Object.is(version, lastVersion)) {
    bytes(versionText);
    return;
  }
  const start = pos;
  bytes(K_V);
  plain(version, 0);
  byte(0x7d);
  if (isInteger(version)) {
    versionText = writtenSince(start);
    lastVersion = version;
  }
}

/** Writes the event's text into the buffer; false when a value is not plain JSON (then canonicalJson writes it). */
function writeEvent(e: HashedEvent, version: number, known: KnownTexts | undefined): boolean {
  hexChecked = null;
  try {
    begin();
    bytes(K_ACTION);
    plain(e.action, 0);
    bytes(K_ACTOR);
    value(e.actor, known);
    bytes(K_ATTRIBUTES);
    const strings = known?.strings;
    if (strings !== undefined && strings !== null) sharedRecord(e.attributes, 0, strings);
    else plain(e.attributes, 0);
    bytes(K_HOST);
    plain(e.host, 0);
    kindAndLoader(e.kind, e.loader);
    bytes(K_OBJECT);
    value(e.object, known);
    bytes(K_RAW);
    if (!rawReference(e.raw)) plain(e.raw, 0);
    reliabilityAndSummaryKey(e.reliability);
    plain(e.summary, 0);
    bytes(K_TIME);
    value(e.time, known);
    versionAndEnd(version);
    return true;
  } catch (err) {
    hexChecked = null;
    const strings = known?.strings;
    // Sharing stopped part way (or never began): the caller shares the record as before and writes the text again.
    if (strings !== undefined && strings !== null) strings.failed = true;
    if (err !== NOT_PLAIN) throw err;
    return false;
  }
}

function referenceText(e: HashedEvent, version: number): string {
  const { actor, action, object, time, host, summary, attributes, reliability, loader, kind, raw } = e;
  return canonicalJson({ v: version, actor, action, object, time, host, summary, attributes, reliability, loader, kind, raw });
}

/**
 * canonicalJson({ v: version, ...the event's hashed fields }): the keys written in their sorted order (action, actor,
 * attributes, host, kind, loader, object, raw, reliability, summary, time, v). A field or value that is not plain JSON
 * (undefined, a toJSON, a class instance, a hole, -0, a non-finite number, deep nesting) sends the whole record
 * to canonicalJson, so the text is always canonicalJson's (and its errors are canonicalJson's). `known` gives the texts
 * of actor, object and time objects already written (KnownTexts), looked up by identity.
 */
export function canonicalEventText(e: HashedEvent, version: number, known: KnownTexts | undefined = undefined): string {
  return writeEvent(e, version, known) ? written() : referenceText(e, version);
}

/** Views of the start of `viewed` (a buffer of the base size), by length. */
let viewed: Buffer | null = null;
const views: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(BASE_CAPACITY + 1).fill(undefined);

/**
 * canonicalEventText as UTF-8 bytes, for the hash. The bytes are a view of the writer's buffer: valid until the next
 * text is written, so they are to be read (hashed) at once and never kept.
 */
export function canonicalEventBytes(e: HashedEvent, version: number, known: KnownTexts | undefined = undefined): Uint8Array {
  if (!writeEvent(e, version, known)) return Buffer.from(referenceText(e, version), 'utf8');
  if (buf.length !== BASE_CAPACITY) return new Uint8Array(buf.buffer, buf.byteOffset, pos);
  if (buf !== viewed) {
    viewed = buf;
    views.fill(undefined);
  }
  // One view per length of text, kept while the buffer is (a view made per event would be garbage per event).
  return (views[pos] ??= new Uint8Array(buf.buffer, buf.byteOffset, pos));
}

/** stackShared: a value written by plain (not a kept string). */
const NOT_SHARED = -1;
/** stackShared: a nested record, shared and written by sharedRecord. */
const NESTED = -2;

/**
 * The strings an ingest shares across an artefact's events (EventInterner), each kept with its JSON text (quoted and
 * escaped, UTF-8) once it has been written: an attribute value met again is shared and its text copied by the same
 * look-up, not looked up, then encoded again. `own` gives the copy to keep of a string met for the first time; texts
 * are kept in one pool of at most MAX_POOL bytes (past it, kept strings are written by the string writer).
 */
export class SharedStrings {
  private readonly index = new Map<string, number>();
  private readonly values: string[] = [];
  /**
   * Where each kept string's text starts in the pool: UNWRITTEN until it is first written, WRITTEN_ONCE until the second
   * time, UNPOOLED when the pool was full then.
   */
  private readonly textAt: number[] = [];
  private readonly textLength: number[] = [];
  private pool: Buffer = Buffer.allocUnsafeSlow(0);
  private poolUsed = 0;
  /** The index of the string share() returned last (NOT_SHARED when it is not kept). */
  lastIndex = NOT_SHARED;
  /** Set when an event text could not be written with sharing (its record is then shared by the caller's other path). */
  failed = false;
  /**
   * sharedRecord's memory: the kept string each place of its value stack held last, and its index. Records of one kind
   * repeat values at the same place, and an equal string there is taken without a look-up.
   */
  readonly slotString: (string | undefined)[] = [];
  readonly slotIndex: number[] = [];

  constructor(
    private readonly maxValues: number,
    private readonly maxLength: number,
    private readonly own: (s: string) => string,
    /** What the caller's interner makes of an array or a frozen record (a copy with shared values). */
    readonly other: (v: object) => unknown,
    private readonly maxPool = MAX_POOL,
    /** Texts of ASCII digits up to this length are not kept (0: kept as any other; see DIGIT_TEXTS_UP_TO). */
    private readonly digitsUpTo = DIGIT_TEXTS_UP_TO,
  ) {}

  get size(): number {
    return this.values.length;
  }

  /** The kept string equal to `s`; a new one (own(s)) is kept while there is room. Strings over maxLength are returned as they are. */
  share(s: string): string {
    if (s.length > this.maxLength || (s.length <= this.digitsUpTo && digitsOnly(s))) {
      this.lastIndex = NOT_SHARED;
      return s;
    }
    const hit = this.index.get(s);
    if (hit !== undefined) {
      this.lastIndex = hit;
      return this.values[hit] as string;
    }
    const own = this.own(s);
    const at = this.values.length;
    if (at < this.maxValues) {
      this.values.push(own);
      this.textAt.push(UNWRITTEN);
      this.textLength.push(0);
      this.index.set(own, at);
      this.lastIndex = at;
    } else this.lastIndex = NOT_SHARED;
    return own;
  }

  /** Writes the text of the kept string `i` (which is `s`): copied from the pool, else written and then kept. */
  write(i: number, s: string): void {
    const at = this.textAt[i] as number;
    if (at >= 0) {
      const n = this.textLength[i] as number;
      ensure(n);
      if (n > NATIVE_COPY) this.pool.copy(buf, pos, at, at + n);
      else {
        const from = this.pool;
        const out = buf;
        let p = pos;
        for (let j = at; j < at + n; j++) out[p++] = from[j] as number;
      }
      pos += n;
      return;
    }
    const start = pos;
    string(s);
    // Kept the second time it is written: a value met once (an id, a number) costs no copy.
    if (at === WRITTEN_ONCE) this.keep(i, start);
    else if (at === UNWRITTEN) this.textAt[i] = WRITTEN_ONCE;
  }

  /** Keeps the text written at [start, pos) as string i's. */
  private keep(i: number, start: number): void {
    const n = pos - start;
    if (this.poolUsed + n > this.pool.length) {
      if (this.poolUsed + n > this.maxPool) {
        this.textAt[i] = UNPOOLED;
        return;
      }
      const grown = Buffer.allocUnsafeSlow(Math.min(this.maxPool, Math.max(this.pool.length * 2, this.poolUsed + n, 4096)));
      this.pool.copy(grown, 0, 0, this.poolUsed);
      this.pool = grown;
    }
    if (n > NATIVE_COPY) buf.copy(this.pool, this.poolUsed, start, pos);
    else {
      const to = this.pool;
      const from = buf;
      let p = this.poolUsed;
      for (let j = start; j < pos; j++) to[p++] = from[j] as number;
    }
    this.textAt[i] = this.poolUsed;
    this.textLength[i] = n;
    this.poolUsed += n;
  }
}

/**
 * Texts of ASCII digits this long or shorter are returned as they are, not looked up or kept: pids, ports, record
 * numbers and counts as text are mostly met once (300,000 text events of the bench: 150,000 of the 171,000 values
 * met for the first time), so a look-up of each cost a hash and a miss in a table of up to 200,000 texts, and keeping
 * them filled the table. V8 copies texts this short when it cuts them, so none keeps a longer text alive; the event
 * table's heap after 1M text events is the same (184.5 against 184.7 MB after a full collection).
 */
const DIGIT_TEXTS_UP_TO = 12;

/** True for a non-empty text of ASCII digits. */
function digitsOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return s.length > 0;
}

const UNWRITTEN = -1;
const UNPOOLED = -2;
const WRITTEN_ONCE = -3;
/** Bytes of kept texts at most (an artefact's distinct values are a few megabytes at most in practice). */
const MAX_POOL = 32 << 20;

/**
 * Writes a record's canonical text as plain() does and shares its values through `strings` in place as the ingest's
 * interner shares a record (EventInterner.record): each own string replaced by the kept equal one, an array or a frozen
 * record by `strings.other` of it, a nested record shared the same way. One for-in reads each value for both. Throws
 * NOT_PLAIN for what plain() refuses (the caller then shares and writes the record as before).
 */
function sharedRecord(v: unknown, depth: number, strings: SharedStrings): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || depth > MAX_DEPTH) throw NOT_PLAIN;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const rec = v as Record<string, unknown>;
  if (typeof rec['toJSON'] === 'function') throw NOT_PLAIN;
  const base = top;
  let n = 0;
  for (const k in rec) {
    if (!hasOwn.call(rec, k)) continue;
    let x = rec[k];
    let shared = NOT_SHARED;
    if (typeof x === 'string') {
      const at = base + n;
      const last = strings.slotString[at];
      if (x === last) {
        // The kept string this stack slot held last (records of one kind repeat values at the same place): no look-up.
        x = last;
        shared = strings.slotIndex[at] as number;
      } else {
        const kept = strings.share(x);
        x = kept;
        shared = strings.lastIndex;
        if (shared >= 0) {
          strings.slotString[at] = kept;
          strings.slotIndex[at] = shared;
        }
      }
      rec[k] = x;
    } else if (typeof x === 'object' && x !== null) {
      if (Array.isArray(x) || Object.isFrozen(x)) {
        x = strings.other(x);
        rec[k] = x;
      } else shared = NESTED;
    }
    stackKeys[base + n] = k;
    stackValues[base + n] = x;
    stackShared[base + n] = shared;
    n++;
  }
  top = base + n;
  const { order, texts } = shapeAt(base, n);
  byte(0x7b);
  for (let i = 0; i < n; i++) {
    bytes(texts[i] as Uint8Array);
    const at = base + (order[i] as number);
    const shared = stackShared[at] as number;
    const x = stackValues[at];
    if (shared >= 0) strings.write(shared, x as string);
    else if (shared === NESTED) sharedRecord(x, depth + 1, strings);
    else plain(x, depth + 1);
  }
  byte(0x7d);
  top = base;
}
