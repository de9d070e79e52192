// The items of a large JSON array read as a stream (an OSV record array, NVD's `vulnerabilities`): one pass over the bytes, one item in memory at a time, each bounded.
import { VitrineError } from '../errors.js';

export type JsonStreamItem =
  /** One array element's bytes (parse them with JSON.parse). */
  | { readonly type: 'item'; readonly bytes: Buffer }
  /** An element over `maxItemBytes`: skipped, its bytes never kept. */
  | { readonly type: 'too_large' }
  /** A top-level `"key": "string"` of the root object (NVD's `timestamp`), at most 256 characters. */
  | { readonly type: 'field'; readonly key: string; readonly value: string };

export interface JsonStreamOptions {
  /** The array's key in the root object; undefined when the root is the array. */
  readonly key?: string;
  readonly maxItemBytes: number;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Splits a JSON document's array into its elements without parsing the whole: a byte scanner that tracks strings
 * (with escapes) and nesting. Throws `parse_error` when the document ends inside a value or the array is missing.
 */
export async function* jsonArrayItems(input: AsyncIterable<Buffer | string>, o: JsonStreamOptions): AsyncGenerator<JsonStreamItem> {
  const target = o.key === undefined ? 1 : 2;
  let depth = 0;
  let inString = false;
  let escape = false;
  let found = false;
  let inTarget = false;
  // the element being captured (chunks of it) and whether it has grown past the bound
  let capturing = false;
  let parts: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  // depth-1 keys and string values (key mode)
  let text: number[] | undefined;
  let lastKey = '';
  let afterColon = false;
  let first = true;

  const take = (chunk: Buffer, from: number, to: number): void => {
    if (tooLarge || to <= from) return;
    size += to - from;
    if (size > o.maxItemBytes) {
      tooLarge = true;
      parts = [];
      return;
    }
    parts.push(chunk.subarray(from, to));
  };
  const finishElement = (): JsonStreamItem => {
    capturing = false;
    const out: JsonStreamItem = tooLarge ? { type: 'too_large' } : { type: 'item', bytes: Buffer.concat(parts, size) };
    parts = [];
    size = 0;
    tooLarge = false;
    return out;
  };

  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    let start = 0;
    if (first && chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = 3;
    first = false;
    let captureFrom = capturing ? start : -1;
    const pending: JsonStreamItem[] = [];
    for (let i = start; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (inString) {
        if (escape) escape = false;
        else if (c === 0x5c) escape = true;
        else if (c === 0x22) {
          inString = false;
          if (text !== undefined) {
            const s = Buffer.from(text).toString('utf8');
            text = undefined;
            if (afterColon) {
              pending.push({ type: 'field', key: lastKey, value: s });
              afterColon = false;
            } else lastKey = s;
          }
        } else if (text !== undefined && text.length < 256) text.push(c);
        continue;
      }
      if (inTarget && depth === target && !capturing) {
        if (WS.has(c) || c === 0x2c) continue;
        if (c === 0x5d) {
          inTarget = false;
          depth--;
          continue;
        }
        capturing = true;
        captureFrom = i;
      }
      if (c === 0x22) {
        inString = true;
        if (o.key !== undefined && depth === 1 && !inTarget) text = [];
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        if (!found && c === 0x5b && ((o.key === undefined && depth === 0) || (o.key !== undefined && depth === 1 && afterColon && lastKey === o.key))) {
          found = true;
          inTarget = true;
          afterColon = false;
          depth++;
          continue;
        }
        depth++;
        continue;
      }
      if (c === 0x7d || c === 0x5d) {
        if (capturing && depth === target) {
          // a scalar element ended by the array's close
          take(chunk, captureFrom, i);
          pending.push(finishElement());
          captureFrom = -1;
        }
        depth--;
        if (depth < 0) throw new VitrineError('parse_error', 'the advisory document is not valid JSON');
        if (inTarget && depth === target - 1) {
          inTarget = false;
          continue;
        }
        if (capturing && depth === target) {
          take(chunk, captureFrom, i + 1);
          pending.push(finishElement());
          captureFrom = -1;
        }
        if (depth === 1 && o.key !== undefined) afterColon = false;
        continue;
      }
      if (capturing && depth === target && (c === 0x2c || WS.has(c))) {
        // a scalar element ends at a comma or space
        take(chunk, captureFrom, i);
        pending.push(finishElement());
        captureFrom = -1;
        continue;
      }
      if (o.key !== undefined && depth === 1 && !inTarget) {
        if (c === 0x3a) afterColon = true;
        else if (c === 0x2c) afterColon = false;
      }
    }
    if (capturing && captureFrom >= 0) take(chunk, captureFrom, chunk.length);
    for (const p of pending) yield p;
  }
  if (inString || depth !== 0 || capturing) throw new VitrineError('parse_error', 'the advisory document ends inside a value');
  if (!found) throw new VitrineError('parse_error', o.key === undefined ? 'the advisory document is not a JSON array' : `the advisory document has no ${o.key} list`);
}
