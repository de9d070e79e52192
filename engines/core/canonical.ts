// Canonical JSON (RFC 8785, JSON Canonicalization Scheme) and SHA-256 helpers used for hashes that must be reproducible.
import { hash } from 'node:crypto';

/**
 * Serialises a JSON value canonically: object keys sorted by UTF-16 code units, no white space,
 * numbers in ECMAScript shortest form, strings escaped as JSON.stringify does (which RFC 8785 adopts).
 * Throws on values JSON cannot carry (NaN, Infinity, bigint, functions, cycles) instead of guessing.
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (v === null) {
      out.push('null');
      return;
    }
    switch (typeof v) {
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return;
      case 'number':
        if (!Number.isFinite(v)) throw new TypeError('canonicalJson: non-finite number');
        out.push(Object.is(v, -0) ? '0' : String(v));
        return;
      case 'string':
        out.push(JSON.stringify(v));
        return;
      case 'object': {
        if (seen.has(v)) throw new TypeError('canonicalJson: cyclic structure');
        seen.add(v);
        const withToJson = v as { toJSON?: () => unknown };
        if (typeof withToJson.toJSON === 'function') {
          walk(withToJson.toJSON());
        } else if (Array.isArray(v)) {
          out.push('[');
          // An index loop, not forEach: forEach skips holes of sparse arrays, which JSON writes as null.
          for (let i = 0; i < v.length; i++) {
            if (i > 0) out.push(',');
            const item: unknown = v[i];
            walk(item === undefined || typeof item === 'function' ? null : item);
          }
          out.push(']');
        } else {
          const entries = Object.entries(v as Record<string, unknown>)
            .filter(([, val]) => val !== undefined && typeof val !== 'function')
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          out.push('{');
          entries.forEach(([key, val], i) => {
            if (i > 0) out.push(',');
            out.push(JSON.stringify(key), ':');
            walk(val);
          });
          out.push('}');
        }
        seen.delete(v);
        return;
      }
      default:
        throw new TypeError(`canonicalJson: cannot serialise a ${typeof v}`);
    }
  };
  walk(value);
  return out.join('');
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
