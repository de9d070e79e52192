// A strict JSON reader that also records the 0-based line of every object key, for lock files whose pins need lines;
// with `jsonc` it also takes `//` and `/* */` comments and trailing commas (bun.lock), and nothing else beyond JSON.
import { parseError } from './context.js';

/** Lines of the keys of one parsed object (the last occurrence wins, as in JSON.parse). */
export type KeyLines = ReadonlyMap<string, number>;

export interface LocatedJson {
  readonly value: unknown;
  /** Key lines of every object in `value`, looked up by the object itself. */
  readonly keyLines: WeakMap<object, KeyLines>;
}

const MAX_DEPTH = 1000;

export interface JsonReadOptions {
  /** Accept JSONC: `//` line comments, block comments, and one trailing comma before `}` or `]`. */
  readonly jsonc?: boolean;
  /** Deepest nesting of objects and arrays accepted (default and ceiling 1000). */
  readonly maxDepth?: number;
}

/** Parses JSON text (RFC 8259, no comments unless `jsonc`) and records key lines; throws parse_error on anything malformed. */
export function parseJsonWithLines(text: string, options: JsonReadOptions = {}): LocatedJson {
  const jsonc = options.jsonc === true;
  const maxDepth = Math.min(options.maxDepth ?? MAX_DEPTH, MAX_DEPTH);
  const keyLines = new WeakMap<object, KeyLines>();
  let pos = 0;
  let line = 0;
  const n = text.length;

  const fail = (what: string): never => {
    throw parseError(`the JSON document is malformed (${what})`);
  };

  const skipWs = (): void => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 0x0a) {
        line++;
        pos++;
      } else if (c === 0x20 || c === 0x09 || c === 0x0d) pos++;
      else if (jsonc && c === 0x2f && text.charCodeAt(pos + 1) === 0x2f) {
        const end = text.indexOf('\n', pos);
        pos = end === -1 ? n : end;
      } else if (jsonc && c === 0x2f && text.charCodeAt(pos + 1) === 0x2a) {
        const end = text.indexOf('*/', pos + 2);
        if (end === -1) fail('unterminated comment');
        for (let i = text.indexOf('\n', pos); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line++;
        pos = end + 2;
      } else break;
    }
  };

  const parseString = (): string => {
    // caller checked the opening quote
    const start = ++pos;
    let escaped = false;
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        pos += 2;
        continue;
      }
      if (c < 0x20) fail('control character in a string');
      pos++;
    }
    if (pos >= n) fail('unterminated string');
    const raw = text.slice(start, pos);
    pos++;
    if (!escaped) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return fail('bad escape in a string');
    }
  };

  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  // an explicit stack keeps deep nesting from exhausting the call stack
  type Frame = { kind: 'object'; obj: Record<string, unknown>; lines: Map<string, number>; key: string } | { kind: 'array'; arr: unknown[] };
  const stack: Frame[] = [];
  let result: unknown;
  let done = false;

  const parseScalarOrOpen = (): { value: unknown; opened: boolean } => {
    skipWs();
    if (pos >= n) return fail('unexpected end of text');
    const c = text.charCodeAt(pos);
    if (c === 0x7b) {
      pos++;
      if (stack.length >= maxDepth) fail('nested too deeply');
      const obj: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      const lines = new Map<string, number>();
      keyLines.set(obj, lines);
      stack.push({ kind: 'object', obj, lines, key: '' });
      return { value: obj, opened: true };
    }
    if (c === 0x5b) {
      pos++;
      if (stack.length >= maxDepth) fail('nested too deeply');
      const arr: unknown[] = [];
      stack.push({ kind: 'array', arr });
      return { value: arr, opened: true };
    }
    if (c === 0x22) return { value: parseString(), opened: false };
    if (text.startsWith('true', pos)) {
      pos += 4;
      return { value: true, opened: false };
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return { value: false, opened: false };
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return { value: null, opened: false };
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m === null || m[0] === '') return fail('unexpected character');
    pos += m[0].length;
    return { value: Number(m[0]), opened: false };
  };

  /** Reads the next key of the object on top of the stack, or closes it; returns false when it closed. */
  const nextKey = (frame: Extract<Frame, { kind: 'object' }>, first: boolean): boolean => {
    skipWs();
    if (text.charCodeAt(pos) === 0x7d && first) {
      pos++;
      return false;
    }
    if (!first) {
      if (text.charCodeAt(pos) === 0x7d) {
        pos++;
        return false;
      }
      if (text.charCodeAt(pos) !== 0x2c) fail('expected a comma or a closing brace');
      pos++;
      skipWs();
      if (jsonc && text.charCodeAt(pos) === 0x7d) {
        pos++;
        return false;
      }
    }
    if (text.charCodeAt(pos) !== 0x22) fail('expected a key');
    const keyLine = line;
    const key = parseString();
    skipWs();
    if (text.charCodeAt(pos) !== 0x3a) fail('expected a colon');
    pos++;
    frame.key = key;
    frame.lines.set(key, keyLine);
    return true;
  };

  const nextItem = (first: boolean): boolean => {
    skipWs();
    if (text.charCodeAt(pos) === 0x5d) {
      pos++;
      return false;
    }
    if (!first) {
      if (text.charCodeAt(pos) !== 0x2c) fail('expected a comma or a closing bracket');
      pos++;
      if (jsonc) {
        skipWs();
        if (text.charCodeAt(pos) === 0x5d) {
          pos++;
          return false;
        }
      }
    }
    return true;
  };

  /** Stores a finished value in its parent and advances the parent to its next slot, closing finished containers. */
  const deliver = (value: unknown): void => {
    let v = value;
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        result = v;
        done = true;
        return;
      }
      if (top.kind === 'object') {
        // own-property assignment on a null-prototype object: `__proto__` is an ordinary key here
        top.obj[top.key] = v;
        if (nextKey(top, false)) return;
        stack.pop();
        v = top.obj;
      } else {
        top.arr.push(v);
        if (nextItem(false)) return;
        stack.pop();
        v = top.arr;
      }
    }
  };

  while (!done) {
    const { value, opened } = parseScalarOrOpen();
    if (!opened) {
      deliver(value);
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) continue;
    const more = top.kind === 'object' ? nextKey(top, true) : nextItem(true);
    if (!more) {
      stack.pop();
      deliver(value);
    }
  }
  skipWs();
  if (pos < n) fail('text after the document');
  return { value: result, keyLines };
}
