// The canonical text of an event for its integrity hash, written for the event's known shape: the same bytes as
// canonicalJson of the hashed record (RFC 8785), without building that record or sorting its twelve keys per event.
import { canonicalJson, sortedKeys } from '../core/canonical.js';

/** Characters JSON.stringify escapes in a string: quote, backslash, controls, and surrogates (lone ones are escaped). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Nesting past this depth goes to canonicalJson (which also finds cycles). */
const MAX_DEPTH = 32;

/** Thrown inside the writer when a value is not plain JSON; the caller then writes the whole record with canonicalJson. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain('not plain JSON');

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
 * The keys of objects lately written, as Object.keys gave them and sorted, a few per key count: the records of one
 * source share their keys and key order, so most objects find theirs here by comparing keys (property names are
 * interned: each comparison is one pointer check) instead of sorting them.
 */
const SHAPES_PER_COUNT = 4;
const MAX_CACHED_KEYS = 64;
const shapeKeys: (readonly string[])[][] = [];
const shapeSorted: Shape[][] = [];
const shapeNext: number[] = [];

/** An object's keys in canonical order, with each key's text (`"key":`, and `,"key":` after the first). */
interface Shape {
  readonly keys: readonly string[];
  readonly texts: readonly string[];
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function shapeOf(sorted: readonly string[]): Shape {
  return { keys: sorted, texts: sorted.map((k, i) => (i === 0 ? keyText(k) : `,${keyText(k)}`)) };
}

/** The record's own enumerable keys in canonical (UTF-16 code unit) order, with their texts. */
function orderedKeys(rec: Record<string, unknown>): Shape {
  const keys = Object.keys(rec);
  const n = keys.length;
  if (n > MAX_CACHED_KEYS) return shapeOf(sortedKeys(keys));
  const known = (shapeKeys[n] ??= []);
  for (let i = 0; i < known.length; i++) if (sameKeys(keys, known[i] as readonly string[])) return (shapeSorted[n] as Shape[])[i] as Shape;
  const shape = shapeOf(sortedKeys(keys.slice()));
  const at = shapeNext[n] ?? 0;
  known[at] = keys;
  (shapeSorted[n] ??= [])[at] = shape;
  shapeNext[n] = (at + 1) % SHAPES_PER_COUNT;
  return shape;
}

/** Strings up to this long are checked for escapes character by character (cheaper than a regular expression call). */
const SHORT_STRING = 64;

function needsEscape(s: string): boolean {
  if (s.length > SHORT_STRING) return NEEDS_ESCAPE.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

const str = (s: string): string => (needsEscape(s) ? JSON.stringify(s) : `"${s}"`);

/**
 * Appends a plain JSON value's canonical text to `out` in pieces (joined once at the end: one flat string, which the
 * hash reads without first flattening a tree of concatenations); NOT_PLAIN for anything canonicalJson treats specially
 * (toJSON, undefined, holes ...).
 */
function plain(v: unknown, depth: number, out: string[]): void {
  if (v === null) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'string':
      out.push(str(v));
      return;
    case 'number':
      if (!Number.isFinite(v) || Object.is(v, -0)) throw NOT_PLAIN;
      out.push(String(v));
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'object': {
      if (depth > MAX_DEPTH) throw NOT_PLAIN;
      if (Array.isArray(v)) {
        out.push('[');
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) throw NOT_PLAIN;
          if (i > 0) out.push(',');
          plain(v[i], depth + 1, out);
        }
        out.push(']');
        return;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      const rec = v as Record<string, unknown>;
      if (typeof rec['toJSON'] === 'function') throw NOT_PLAIN;
      const { keys, texts } = orderedKeys(rec);
      out.push('{');
      for (let i = 0; i < keys.length; i++) {
        out.push(texts[i] as string);
        plain(rec[keys[i] as string], depth + 1, out);
      }
      out.push('}');
      return;
    }
    default:
      throw NOT_PLAIN;
  }
}

/**
 * Canonical texts already written for objects an event may share with others (an ingest's interned actors, objects and
 * time tuples), by identity: each must be canonicalValueText of that object, which is never changed after.
 */
export type KnownTexts = ReadonlyMap<unknown, string>;

/** canonicalJson(value), by the same writer as the event's text. */
export function canonicalValueText(value: unknown): string {
  try {
    const out: string[] = [];
    plain(value, 0, out);
    return out.join('');
  } catch (err) {
    if (err !== NOT_PLAIN) throw err;
    return canonicalJson(value);
  }
}

/** The known text of `v` (by identity), else its canonical text. */
function value(v: unknown, known: KnownTexts | undefined, out: string[]): void {
  const text = known?.get(v);
  if (text !== undefined) out.push(text);
  else plain(v, 0, out);
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

/**
 * canonicalJson({ v: version, ...the event's hashed fields }): the keys written in their sorted order (action, actor,
 * attributes, host, kind, loader, object, raw, reliability, summary, time, v). A field or value that is not plain JSON
 * (undefined, a toJSON, a class instance, a hole, -0, a non-finite number, deep nesting) sends the whole record
 * to canonicalJson, so the text is always canonicalJson's (and its errors are canonicalJson's). `known` gives the texts
 * of actor, object and time objects already written (KnownTexts), looked up by identity.
 */
export function canonicalEventText(e: HashedEvent, version: number, known: KnownTexts | undefined = undefined): string {
  try {
    // Pieces joined once (see plain); the keys in their sorted order.
    const out: string[] = ['{"action":'];
    plain(e.action, 0, out);
    out.push(',"actor":');
    value(e.actor, known, out);
    out.push(',"attributes":');
    plain(e.attributes, 0, out);
    out.push(',"host":');
    plain(e.host, 0, out);
    out.push(',"kind":');
    plain(e.kind, 0, out);
    out.push(',"loader":');
    plain(e.loader, 0, out);
    out.push(',"object":');
    value(e.object, known, out);
    out.push(',"raw":');
    plain(e.raw, 0, out);
    out.push(',"reliability":');
    plain(e.reliability, 0, out);
    out.push(',"summary":');
    plain(e.summary, 0, out);
    out.push(',"time":');
    value(e.time, known, out);
    out.push(',"v":');
    plain(version, 0, out);
    out.push('}');
    return out.join('');
  } catch (err) {
    if (err !== NOT_PLAIN) throw err;
    const { actor, action, object, time, host, summary, attributes, reliability, loader, kind, raw } = e;
    return canonicalJson({ v: version, actor, action, object, time, host, summary, attributes, reliability, loader, kind, raw });
  }
}
