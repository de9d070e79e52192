// Parsers with planted faults, for the harness's own tests: 'T' then a length byte, then that many bytes; a JSON body;
// YAML documents; name=value lines read through a look-up table.
import { isScalar, parseAllDocuments, visit } from 'yaml';
import { VitrineError } from '../../engines/core/errors.js';
import type { FuzzTarget } from './fuzz.js';

function parseToy(b: Uint8Array): number[] {
  if (b[0] !== 0x54) throw new VitrineError('parse_error', 'not a toy record');
  const n = b[1] ?? 0;
  if (n >= 0xf0) for (;;);
  if (n >= 0x80 && n < 0xc0) {
    const hog: number[][] = [];
    for (;;) hog.push(new Array<number>(1 << 21).fill(n));
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(b[2 + i]!.valueOf());
  return out;
}

/**
 * A JSON body with a planted fault behind JSON.parse and its validation: `{"items": [{"count": n}, ...]}`, where a
 * negative integer count reaches `new Array(count)`. Byte mutations of the seeds (which hold no '-') almost never write
 * valid JSON with a negative count; structure mutations do.
 */
function parseToyJson(b: Uint8Array): number {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(b));
  } catch {
    throw new VitrineError('parse_error', 'not JSON');
  }
  return countItems(body);
}

/**
 * YAML documents with the same planted fault behind the YAML parser: `items:` of `count:`, where a negative integer count
 * reaches `new Array(count)`. The seeds are block YAML (so `- ` is all over them, unlike the JSON seeds): byte mutations
 * rarely write a negative number where a count is and keep the rest YAML; structure mutations do.
 */
function parseToyYaml(b: Uint8Array): number {
  let docs: unknown[];
  try {
    const all = parseAllDocuments(new TextDecoder().decode(b));
    const list = Array.isArray(all) ? all : [all];
    if (list.some((d) => d.errors.length > 0)) throw new Error('YAML errors');
    // a key that is a collection or an alias: toJS writes nested ones out as text level by level (exponential time)
    for (const d of list)
      visit(d, {
        Pair(_, pair) {
          if (pair.key !== null && !isScalar(pair.key)) throw new Error('a complex key');
        },
      });
    docs = list.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
  } catch {
    throw new VitrineError('parse_error', 'not YAML');
  }
  let total = 0;
  for (const doc of docs) total += countItems(doc);
  return total;
}

function countItems(body: unknown): number {
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) throw new VitrineError('validation_failed', 'no list of items');
  let total = 0;
  for (const it of items) {
    const count = (it as { count?: unknown } | null)?.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count > 1000) throw new VitrineError('validation_failed', 'a count that is not a small integer');
    total += new Array<number>(count).fill(1).length;
  }
  return total;
}

/** Protocol numbers by name, as an object literal: the planted fault reads it with a plain index. */
const TOY_PROTOCOLS: Readonly<Record<string, number>> = { tcp: 6, udp: 17, icmp: 1 };

/**
 * `name=value` lines where `proto` names a protocol looked up in a table by a plain index: a protocol named after an
 * Object.prototype member (`constructor`) hands back a function, and the planted fault throws a TypeError on it.
 */
function parseToyWords(b: Uint8Array): number[] {
  const out: number[] = [];
  for (const line of new TextDecoder().decode(b).split('\n')) {
    const m = /^proto=(\w+)$/.exec(line.trim());
    if (m === null) continue;
    const n = TOY_PROTOCOLS[m[1]!] ?? 0;
    if (typeof n !== 'number') throw new TypeError('a protocol number that is not a number');
    out.push(n);
  }
  return out;
}

let toyShout = false;

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'toy',
    about: 'planted faults: a length past the end, a loop, a memory hog',
    seeds: () => [Uint8Array.of(0x54, 3, 1, 2, 3), Uint8Array.of(0x54, 0)],
    run: parseToy,
    check: (r) => ((r as number[]).length > 100 ? 'more than 100 values' : undefined),
  },
  {
    name: 'toy-slow-start',
    about: 'a sound parser whose preparation takes longer than an input may',
    seeds: () => [Uint8Array.of(0x54, 1, 1)],
    prepare: () => new Promise((resolve) => setTimeout(resolve, 1500)),
    run: (b) => b.length,
  },
  {
    name: 'toy-json',
    about: 'a planted fault only valid JSON reaches: a negative integer count',
    seeds: () => ['{"items":[{"id":"a","count":3},{"id":"b","count":12}]}', '{"items":[]}', '{"items":[{"id":"c","count":7,"tags":["x","y"]}]}'].map((t) => new TextEncoder().encode(t)),
    run: parseToyJson,
    structure: 'json',
  },
  {
    name: 'toy-yaml',
    about: 'a planted fault only well-formed YAML reaches: a negative integer count',
    seeds: () =>
      ['items:\n  - id: a\n    count: 3\n  - id: b\n    count: 12\n', 'items: []\n---\nitems:\n  - id: c\n    count: 7\n    tags:\n      - x\n      - y\n', '# a comment\nitems:\n  - {id: d, count: 1}\n'].map((t) =>
        new TextEncoder().encode(t),
      ),
    run: parseToyYaml,
    structure: 'yaml',
  },
  {
    name: 'toy-words',
    about: 'a planted fault behind a table look-up by a plain index: a protocol named constructor',
    seeds: () => ['proto=tcp\nproto=udp\n', 'host=a\nproto=icmp\n'].map((t) => new TextEncoder().encode(t)),
    run: parseToyWords,
  },
  {
    name: 'toy-format',
    about: 'a planted fault only its own mutation makes (a byte 0xEE after the magic), and an option seen as a hint',
    seeds: () => [Uint8Array.of(0x54, 0x4f, 0x59, 0, 0, 0)],
    run: (b) => {
      if (b.length >= 4 && b[0] === 0x54 && b[1] === 0x4f && b[2] === 0x59 && b[3] === 0xee) throw new TypeError('format fault');
      return b.length;
    },
    // sets byte 3 to 0xEE one time in four: byte mutations alone (flips, edge values) almost never write it
    mutate: (rand, seed) => {
      const o = seed.slice();
      if (o.length > 3 && rand() < 0.25) o[3] = 0xee;
      return o;
    },
    options: { shout: 'every passing input gives a hint' },
    configure: (options) => {
      toyShout = options.includes('shout');
    },
    note: () => (toyShout ? 'shouted' : undefined),
  },
];
