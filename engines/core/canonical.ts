// Canonical JSON (RFC 8785, JSON Canonicalization Scheme) and SHA-256 helpers used for hashes that must be reproducible.
import { hash } from 'node:crypto';

/**
 * Serialises a JSON value canonically: object keys sorted by UTF-16 code units, no white space,
 * numbers in ECMAScript shortest form, strings escaped as JSON.stringify does (which RFC 8785 adopts).
 * Throws on values JSON cannot carry (NaN, Infinity, bigint, functions, cycles) instead of guessing, and on
 * nesting deeper than MAX_CANONICAL_DEPTH.
 */
export function canonicalJson(value: unknown): string {
  return canonicalOf(value, []);
}

/** Characters JSON.stringify escapes in a string: quote, backslash, controls, and surrogates (lone ones are escaped). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Objects nested deeper are refused (a submitted document could otherwise overflow the stack). */
export const MAX_CANONICAL_DEPTH = 1_000;

/**
 * Keys in UTF-16 code unit order: insertion sort for the usual few keys (often already in order), the built-in sort
 * (the same order, by code units) past 32, where insertion sort's quadratic cost would show.
 */
export function sortedKeys(keys: string[]): string[] {
  if (keys.length > 32) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

/** One value's canonical text; `open` holds the objects being written around it (a cycle throws). */
function canonicalOf(v: unknown, open: object[]): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite number');
      return Object.is(v, -0) ? '0' : String(v);
    case 'string':
      return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
    case 'object': {
      if (open.includes(v)) throw new TypeError('canonicalJson: cyclic structure');
      if (open.length >= MAX_CANONICAL_DEPTH) throw new TypeError('canonicalJson: nested too deeply');
      open.push(v);
      let out: string;
      const withToJson = v as { toJSON?: () => unknown };
      if (typeof withToJson.toJSON === 'function') out = canonicalOf(withToJson.toJSON(), open);
      else if (Array.isArray(v)) {
        out = '[';
        // An index loop, not forEach: forEach skips holes of sparse arrays, which JSON writes as null.
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          out += (i > 0 ? ',' : '') + canonicalOf(item === undefined || typeof item === 'function' ? null : item, open);
        }
        out += ']';
      } else {
        const rec = v as Record<string, unknown>;
        out = '{';
        let first = true;
        for (const key of sortedKeys(Object.keys(rec))) {
          const val = rec[key];
          if (val === undefined || typeof val === 'function') continue;
          out += `${first ? '' : ','}${NEEDS_ESCAPE.test(key) ? JSON.stringify(key) : `"${key}"`}:${canonicalOf(val, open)}`;
          first = false;
        }
        out += '}';
      }
      open.pop();
      return out;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof v}`);
  }
}

/** Lower-case hex SHA-256 of bytes or of a UTF-8 string. */
export function sha256Hex(data: string | Uint8Array): string {
  // One-shot hash (Node 20.12+): no Hash object per call, which is most of the cost on small inputs. Strings as UTF-8.
  return hash('sha256', data, 'hex');
}

/** SHA-256 of a value's canonical JSON: the one way to fingerprint structured data. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
