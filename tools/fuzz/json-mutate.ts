// Structure-aware mutations of JSON inputs: a seed that parses as JSON (or as JSON lines) is read into a value tree
// once, and each mutation edits a copy of the tree and writes it back as text, so the input passes JSON.parse and
// reaches the validators and engines behind it. Seeded and deterministic, like the byte mutations in fuzz.ts.

/**
 * How a target's inputs are structured: one JSON document ('json'), one JSON document or JSON lines (one value per line,
 * 'lines'), or YAML, one or several documents ('yaml', yaml-mutate.ts, which edits the same value tree).
 */
export type StructureMode = 'json' | 'lines' | 'yaml';

/**
 * A value of the tree. Objects keep their members as a list, so a key may be `__proto__` or appear twice (JSON text
 * allows both); scalars keep their JSON text, so a number may be `-0`, `1e999` or past 2^53 as written; `deep` is a value
 * nested `n` levels in arrays or one-member objects, written without recursion.
 */
export type Node =
  | { readonly k: 'raw'; readonly text: string }
  | { readonly k: 'arr'; items: Node[] }
  | { readonly k: 'obj'; entries: [string, Node][] }
  | { readonly k: 'deep'; readonly n: number; readonly key: string | undefined; readonly inner: Node };

/** A parsed seed: its top-level values (one, or one per line) in a holder array. */
export interface JsonSeed {
  readonly lines: boolean;
  readonly root: { readonly k: 'arr'; items: Node[] };
}

type Container = Extract<Node, { k: 'arr' | 'obj' }>;

/** A place in the tree: the member `index` of `parent`. */
interface Slot {
  readonly parent: Container;
  readonly index: number;
}

export function fromValue(v: unknown): Node {
  if (Array.isArray(v)) return { k: 'arr', items: v.map(fromValue) };
  // JSON.parse makes `__proto__` an own member, which Object.entries lists.
  if (v !== null && typeof v === 'object') return { k: 'obj', entries: Object.entries(v).map(([key, x]) => [key, fromValue(x)]) };
  return { k: 'raw', text: JSON.stringify(v) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A seed's text when its bytes are valid UTF-8 (the structure mutations read only such seeds); undefined otherwise. */
export function seedText(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The tree of a seed, when its text is JSON (or, with 'lines', JSON lines); undefined otherwise. */
export function parseJsonSeed(bytes: Uint8Array, mode: 'json' | 'lines'): JsonSeed | undefined {
  const text = seedText(bytes);
  if (text === undefined) return undefined;
  try {
    return { lines: false, root: { k: 'arr', items: [fromValue(JSON.parse(text))] } };
  } catch {
    if (mode !== 'lines') return undefined;
  }
  const items: Node[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      items.push(fromValue(JSON.parse(line)));
    } catch {
      return undefined;
    }
  }
  return items.length > 0 ? { lines: true, root: { k: 'arr', items } } : undefined;
}

function clone(n: Node): Node {
  switch (n.k) {
    case 'raw':
      return n;
    case 'arr':
      return { k: 'arr', items: n.items.map(clone) };
    case 'obj':
      return { k: 'obj', entries: n.entries.map(([key, x]) => [key, clone(x)]) };
    case 'deep':
      return { k: 'deep', n: n.n, key: n.key, inner: clone(n.inner) };
  }
}

export function write(n: Node, out: string[]): void {
  switch (n.k) {
    case 'raw':
      out.push(n.text);
      return;
    case 'arr':
      out.push('[');
      n.items.forEach((x, i) => {
        if (i > 0) out.push(',');
        write(x, out);
      });
      out.push(']');
      return;
    case 'obj':
      out.push('{');
      n.entries.forEach(([key, x], i) => {
        if (i > 0) out.push(',');
        out.push(JSON.stringify(key), ':');
        write(x, out);
      });
      out.push('}');
      return;
    case 'deep':
      out.push(n.key === undefined ? '['.repeat(n.n) : `{${JSON.stringify(n.key)}:`.repeat(n.n));
      write(n.inner, out);
      out.push((n.key === undefined ? ']' : '}').repeat(n.n));
  }
}

/** The JSON text of a seed's tree (JSON lines end each value with a newline). */
export function jsonSeedText(seed: JsonSeed): string {
  if (!seed.lines) {
    const out: string[] = [];
    write(seed.root.items[0]!, out);
    return out.join('');
  }
  return seed.root.items.map((x) => {
    const out: string[] = [];
    write(x, out);
    return out.join('') + '\n';
  }).join('');
}

const childOf = (s: Slot): Node => (s.parent.k === 'arr' ? s.parent.items[s.index]! : s.parent.entries[s.index]![1]);

function setChild(s: Slot, v: Node): void {
  if (s.parent.k === 'arr') s.parent.items[s.index] = v;
  else s.parent.entries[s.index]![1] = v;
}

/** Every slot of the tree under `root` (the root's own members first), without recursion; at most `limit`. */
function slots(root: Container, limit = 50_000): Slot[] {
  const out: Slot[] = [];
  const todo: Container[] = [root];
  while (todo.length > 0 && out.length < limit) {
    const c = todo.pop()!;
    const n = c.k === 'arr' ? c.items.length : c.entries.length;
    for (let i = 0; i < n; i++) {
      const s = { parent: c, index: i };
      out.push(s);
      let x = childOf(s);
      while (x.k === 'deep') x = x.inner;
      if (x.k === 'arr' || x.k === 'obj') todo.push(x);
    }
  }
  return out;
}

/** Every key used in the tree (for renaming a key to one that exists elsewhere). */
function keysOf(all: readonly Slot[]): string[] {
  const out: string[] = [];
  for (const s of all) if (s.parent.k === 'obj') out.push(s.parent.entries[s.index]![0]);
  return out;
}

/** A whole number below `n` from a seeded generator (the byte mutations of fuzz.ts use it too). */
export const pick = (rand: () => number, n: number): number => Math.floor(rand() * n);
export const oneOf = <T>(rand: () => number, xs: readonly T[]): T => xs[pick(rand, xs.length)]!;
const raw = (text: string): Node => ({ k: 'raw', text });
const str = (s: string): Node => raw(JSON.stringify(s));

/** Numbers at the edges: signs, 32- and 53-bit limits, the double's range, and text that reads as ±Infinity. */
const EDGE_NUMBERS = ['0', '-0', '-1', '1', '0.5', '-0.5', '2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740993', '-9007199254740993', '1e21', '1e308', '-1e308', '5e-324', '1e999', '-1e999', '123456789012345678901234567890'];

/** Strings at the edges: empty, control and separator characters, lone surrogates, names that reach prototypes. */
const EDGE_STRINGS = ['', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\u2028\u2029', '\ufeff', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'NaN', 'Infinity', '-1', '1e999', 'null', 'true', '%s%n', '../../../../etc/passwd', 'C:\\Windows\\..\\..', '\r\n', '0000-00-00T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-02-30T25:61:61Z', '💥'];

const EDGE_OTHER = ['null', 'true', 'false', '[]', '{}', '[null]', '[[]]', '{"":null}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'];

function edgeString(rand: () => number, maxBytes: number, near: string | undefined): string {
  const r = rand();
  if (r < 0.15) return 'A'.repeat(Math.max(1, Math.min(maxBytes, oneOf(rand, [256, 4096, 65_536, 1 << 20]))));
  if (near !== undefined && r < 0.45) {
    switch (pick(rand, 5)) {
      case 0:
        return near.slice(0, pick(rand, near.length + 1));
      case 1:
        return near + oneOf(rand, EDGE_STRINGS);
      case 2:
        return near.toUpperCase();
      case 3:
        return ` ${near} `;
      default:
        return near.repeat(1 + pick(rand, 8));
    }
  }
  return oneOf(rand, EDGE_STRINGS);
}

function edgeNumber(rand: () => number, near: number | undefined): string {
  if (near !== undefined && Number.isFinite(near) && rand() < 0.4) {
    const v = oneOf(rand, [near + 1, near - 1, -near, near * 2 ** (1 + pick(rand, 40)), near / 3, Math.trunc(near) + 0.5]);
    return Number.isFinite(v) ? JSON.stringify(v) : '0';
  }
  return oneOf(rand, EDGE_NUMBERS);
}

/** An edge value for `old`: of its own type when `sameType`, else of any type. */
function edgeValue(rand: () => number, old: Node, sameType: boolean, maxBytes: number): Node {
  const text = old.k === 'raw' ? old.text : undefined;
  const isString = text?.startsWith('"') === true;
  const isNumber = text !== undefined && /^-?\d/.test(text);
  if (sameType && isString) return str(edgeString(rand, maxBytes, JSON.parse(text) as string));
  if (sameType && isNumber) return raw(edgeNumber(rand, Number(text)));
  if (sameType && old.k === 'arr') return oneOf(rand, [{ k: 'arr', items: [] }, { k: 'arr', items: [raw('null')] }, { k: 'arr', items: [clone(old)] }] as Node[]);
  if (sameType && old.k === 'obj') return oneOf(rand, [{ k: 'obj', entries: [] }, { k: 'obj', entries: [['__proto__', { k: 'obj', entries: [['polluted', raw('1')]] }]] }] as Node[]);
  switch (pick(rand, 3)) {
    case 0:
      return raw(edgeNumber(rand, undefined));
    case 1:
      return str(edgeString(rand, maxBytes, isString ? (JSON.parse(text) as string) : text));
    default:
      return fromValue(JSON.parse(oneOf(rand, EDGE_OTHER)));
  }
}

function nearKey(rand: () => number, key: string, known: readonly string[]): string {
  switch (pick(rand, 9)) {
    case 0:
      return '__proto__';
    case 1:
      return oneOf(rand, ['constructor', 'prototype', '']);
    case 2:
      return key.slice(0, -1);
    case 3:
      return `${key}s`;
    case 4:
      return key.length > 0 ? key[0]!.toUpperCase() + key.slice(1) : 'a';
    case 5:
      return key.toUpperCase();
    case 6:
      return ` ${key}`;
    case 7:
      return `${key}\u0000`;
    default:
      return known.length > 0 ? oneOf(rand, known) : key;
  }
}

/** The approximate size of a subtree's JSON text, for bounding growth (strings counted by their text, deep values in full). */
function sizeOf(n: Node, cap: number): number {
  let total = 0;
  const todo: Node[] = [n];
  while (todo.length > 0 && total <= cap) {
    const x = todo.pop()!;
    if (x.k === 'raw') total += x.text.length;
    else if (x.k === 'arr') {
      total += 2 + x.items.length;
      for (const y of x.items) todo.push(y);
    } else if (x.k === 'obj') {
      total += 2;
      for (const [key, v] of x.entries) {
        total += key.length + 4;
        todo.push(v);
      }
    } else {
      total += x.n * (x.key === undefined ? 2 : x.key.length + 5);
      todo.push(x.inner);
    }
  }
  return total;
}

/** What a value added to `doc` may take of `maxBytes`: half what its text leaves (UTF-8 may write a character in 3 bytes). */
const room = (doc: JsonSeed, maxBytes: number): number => Math.max(0, (maxBytes - sizeOf(doc.root, maxBytes)) >> 1);

/** One edit of the tree of `doc` (a copy the caller owns), with `other` a seed to splice from. */
function mutateOnce(rand: () => number, doc: JsonSeed, other: JsonSeed, maxBytes: number): void {
  const all = slots(doc.root);
  if (all.length === 0) return;
  const s = oneOf(rand, all);
  const old = childOf(s);
  // The holder of a single document has exactly one member: it is replaced, never removed or repeated.
  const inHolder = s.parent === doc.root && !doc.lines;
  // Growth (long strings, nesting, repetition) mostly within 64 KiB, one edit in ten up to the bound: large inputs
  // find size limits, and small ones keep a campaign's rate.
  const space = rand() < 0.1 ? room(doc, maxBytes) : Math.min(room(doc, maxBytes), 64 << 10);
  const op = pick(rand, 13);
  switch (op) {
    case 0:
    case 1:
    case 2:
      setChild(s, edgeValue(rand, old, op !== 0, space));
      return;
    case 3: // delete a member
      if (inHolder) return;
      if (s.parent.k === 'arr') s.parent.items.splice(s.index, 1);
      else s.parent.entries.splice(s.index, 1);
      return;
    case 4: // duplicate a member (an object then holds the key twice)
      if (inHolder) return;
      if (s.parent.k === 'arr') s.parent.items.splice(s.index, 0, clone(old));
      else s.parent.entries.splice(s.index + 1, 0, [s.parent.entries[s.index]![0], rand() < 0.5 ? clone(old) : edgeValue(rand, old, true, space)]);
      return;
    case 5: // rename a key (or, in an array, a member in an object under a key)
      if (s.parent.k === 'obj') s.parent.entries[s.index]![0] = nearKey(rand, s.parent.entries[s.index]![0], keysOf(all));
      else setChild(s, { k: 'obj', entries: [[nearKey(rand, '', keysOf(all)), old]] });
      return;
    case 6: // wrap in an array or an object
      setChild(s, rand() < 0.5 ? { k: 'arr', items: [old] } : { k: 'obj', entries: [[oneOf(rand, [...keysOf(all), 'value']), old]] });
      return;
    case 7: {
      // nest n levels
      const keys = keysOf(all);
      const key = rand() < 0.5 || keys.length === 0 ? undefined : oneOf(rand, keys);
      const n = Math.min(oneOf(rand, [8, 65, 200, 1000, 10_000, 100_000]), Math.floor(space / (key === undefined ? 2 : key.length + 5)));
      setChild(s, { k: 'deep', n: Math.max(1, n), key, inner: old });
      return;
    }
    case 8: {
      // repeat an array element many times (a line of JSON lines, or the element of the array around the slot)
      if (inHolder) return;
      const times = Math.min(oneOf(rand, [10, 100, 1000, 10_000, 100_000]), Math.floor(space / (2 + sizeOf(old, maxBytes))));
      const copies = Array.from({ length: Math.max(0, times) }, () => old);
      if (s.parent.k === 'arr') s.parent.items = [...s.parent.items.slice(0, s.index), ...copies, ...s.parent.items.slice(s.index + 1)];
      else setChild(s, { k: 'arr', items: copies });
      return;
    }
    case 9: {
      // swap with another subtree (copies both ways: one may hold the other, and the tree must not hold itself)
      const t = oneOf(rand, all);
      const x = childOf(t);
      setChild(s, clone(x));
      setChild(t, clone(old));
      return;
    }
    case 10: {
      // a subtree of another seed
      const from = slots(other.root);
      if (from.length > 0) setChild(s, clone(childOf(oneOf(rand, from))));
      return;
    }
    case 11: // a subtree from elsewhere in this input
      setChild(s, clone(childOf(oneOf(rand, all))));
      return;
    default: // a number as text, text as a number or as true
      if (old.k === 'raw' && old.text.startsWith('"')) setChild(s, raw(oneOf(rand, ['0', '-1', 'true', 'null'])));
      else if (old.k === 'raw') setChild(s, str(old.text));
      else setChild(s, str(''));
  }
}

/** One to three stacked structure edits of a copy of a parsed seed; growth bounded by `maxBytes` of JSON text. */
export function mutateTree(rand: () => number, seed: JsonSeed, other: JsonSeed | undefined, maxBytes: number): JsonSeed {
  let doc: JsonSeed = { lines: seed.lines, root: { k: 'arr', items: seed.root.items.map(clone) } };
  for (let n = 1 + pick(rand, 3); n > 0; n--) {
    const before: JsonSeed = { lines: doc.lines, root: { k: 'arr', items: doc.root.items.map(clone) } };
    mutateOnce(rand, doc, other ?? seed, maxBytes);
    // An edit that copied a subtree past the bound is undone (growth by repetition and nesting is bounded by the room left).
    if (sizeOf(doc.root, maxBytes) > maxBytes) {
      doc = before;
      break;
    }
  }
  return doc;
}

/** One to three stacked structure edits of a parsed seed, written as JSON text and bounded to `maxBytes`. */
export function mutateJson(rand: () => number, seed: JsonSeed, other: JsonSeed | undefined, maxBytes: number): Uint8Array {
  const doc = mutateTree(rand, seed, other, maxBytes);
  // A seed near the bound may still be cut, as the byte mutations cut.
  const b = new TextEncoder().encode(jsonSeedText(doc));
  return b.length > maxBytes ? b.subarray(0, maxBytes) : b;
}
