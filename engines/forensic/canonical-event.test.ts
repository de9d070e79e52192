import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../test/corpora.js';
import { canonicalJson } from '../core/canonical.js';
import { canonicalEventBytes, canonicalEventText, canonicalValueBytes, SharedStrings, writtenRawSha256, type HashedEvent } from './canonical-event.js';
import { ingestArtifact } from './ingest.js';
import { Random } from '../core/ml/random.js';

/** canonicalValueBytes(v) read back as text. */
function valueText(v: unknown): string {
  return Buffer.from(canonicalValueBytes(v)).toString('utf8');
}

const reference = (e: HashedEvent, v: number): string => {
  const { actor, action, object, time, host, summary, attributes, reliability, loader, kind, raw } = e;
  return canonicalJson({ v, actor, action, object, time, host, summary, attributes, reliability, loader, kind, raw });
};

const base: HashedEvent = {
  actor: { type: 'process', name: 'a.exe' },
  action: 'process.create',
  object: null,
  time: { time: '2024-01-01T00:00:00Z', precision: 'second', source: 's' },
  host: 'h',
  summary: 'line "quoted"\n\u0001 \ud800',
  attributes: { b: 1, a: [1, 'x', null, true, { z: 1, y: 2.5 }], é: 'u', '10': 2, '9': 3, 'k"\\': 'v' },
  reliability: 'C',
  loader: 'authlog/1',
  kind: 'authlog',
  raw: { artifactSha256: 'a'.repeat(64), recordNumber: 1, rawSha256: 'b'.repeat(64) },
};

describe('canonicalEventText', () => {
  it('writes what canonicalJson writes for the events of real artefacts', () => {
    const root = corpusPath('evtx', 'evtx-crate');
    const evtx = readdirSync(root).filter((f) => f.endsWith('.evtx')).slice(0, 6).map((f) => path.join(root, f));
    let n = 0;
    for (const file of evtx) {
      for (const e of ingestArtifact(file, { evidenceRoot: root }).events) {
        expect(canonicalEventText(e, 1)).toBe(reference(e, 1));
        n++;
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  it('takes known texts for shared objects by identity, and writes single values as canonicalJson does', () => {
    const known = new Map<unknown, Uint8Array>([base.actor, base.time, base.attributes].map((o) => [o, canonicalValueBytes(o)]));
    expect(canonicalEventText(base, 1, known)).toBe(reference(base, 1));
    // An equal object that is not the one known is written afresh (identity, not content).
    const other = { ...base, actor: { type: 'process', name: 'b.exe' } };
    expect(canonicalEventText(other, 1, known)).toBe(reference(other, 1));
    // Known texts with two-, three- and four-byte characters, short and long, as bytes too.
    for (const name of ['é€\ud83d\ude00', `é€\ud83d\ude00${'x'.repeat(100)}`]) {
      const e = { ...base, actor: { type: 'process', name }, object: { type: 'file', name: `${name}"\u0001` } };
      const texts = new Map<unknown, Uint8Array>([e.actor, e.object].map((o) => [o, canonicalValueBytes(o)]));
      expect(canonicalEventText(e, 1, texts)).toBe(reference(e, 1));
      expect(Buffer.from(canonicalEventBytes(e, 1, texts)).toString('utf8')).toBe(reference(e, 1));
    }
    // The known text is used as it is: a wrong one shows in the text (so the map must hold only true texts).
    expect(canonicalEventText(base, 1, new Map([[base.actor, Buffer.from('"x"')]]))).toContain('"actor":"x"');
    // eslint-disable-next-line no-sparse-arrays -- a hole, which JSON writes as null
    const values: unknown[] = [null, 'a"b', 1.5, [1, , 2], { b: 1, a: { d: -0, c: undefined } }, new Date(0)];
    for (const v of values) expect(valueText(v)).toBe(canonicalJson(v));
  });

  it('writes what canonicalJson writes for odd values, and refuses what it refuses', () => {
    const variants: HashedEvent[] = [
      base,
      { ...base, attributes: { n: -0, u: undefined, f: () => 1, d: new Date(0) } },
      { ...base, attributes: { list: [undefined, 1] } },
      // eslint-disable-next-line no-sparse-arrays -- a hole, which JSON writes as null
      { ...base, attributes: { list: [1, , 2] } },
      { ...base, attributes: { deep: JSON.parse('['.repeat(40) + ']'.repeat(40)) as unknown } },
      { ...base, attributes: Object.assign(Object.create(null) as object, { b: 1, a: 2 }) },
      { ...base, host: undefined },
      { ...base, attributes: { toJSON: 'a string, not a method' } },
      { ...base, attributes: { big: 1e21, small: 1e-7, neg: -1.5 } },
    ];
    for (const e of variants) expect(canonicalEventText(e, 1)).toBe(reference(e, 1));
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const attributes of [cyclic, { n: Number.NaN }, { n: Infinity }, { b: 1n }])
      expect(() => canonicalEventText({ ...base, attributes }, 1)).toThrow(TypeError);
  });

  it('writes time tuples and raw record references of the shapes ingest builds as canonicalJson does, across changes of artefact, precision and source, and near misses', () => {
    const raw = { artifactSha256: 'a'.repeat(64), recordNumber: 7, offset: 0, length: 120, rawSha256: 'b'.repeat(64) };
    const time = { time: '2024-01-01T00:00:00Z', precision: 'second', source: 'syslog header' };
    const protoWithToJSON = Object.create({ toJSON: () => 'replaced' }) as Record<string, unknown>;
    const times: unknown[] = [
      time,
      { ...time, time: null, precision: 'none' },
      { ...time, source: 'another "source"\n é \ud83d\ude00' },
      { ...time, precision: 'millisecond' },
      time,
      { time: time.time, source: time.source, precision: time.precision },
      { ...time, extra: 1 },
      { time: time.time, precision: time.precision },
      { ...time, time: 5 },
      { ...time, precision: null },
      { ...time, source: undefined },
      Object.assign(Object.create(null) as object, time),
      Object.assign(protoWithToJSON, time),
      { ...time, toJSON: () => 'own' },
      [time.time, time.precision, time.source],
      'a text',
      null,
    ];
    const raws: unknown[] = [
      raw,
      { ...raw, artifactSha256: 'c'.repeat(64) },
      { ...raw, artifactSha256: 'quote " and \u0001' },
      raw,
      { ...raw, recordNumber: 2 ** 31 - 1, offset: -(2 ** 31), length: 0 },
      { ...raw, offset: 2 ** 31 },
      { ...raw, length: 1.5 },
      { ...raw, length: -0 },
      { ...raw, offset: '12' },
      { ...raw, rawSha256: 5 },
      { artifactSha256: raw.artifactSha256, recordNumber: 7, length: 120, offset: 0, rawSha256: raw.rawSha256 },
      { ...raw, member: 'x' },
      { artifactSha256: raw.artifactSha256, recordNumber: 7, rawSha256: raw.rawSha256 },
      Object.assign(Object.create({ toJSON: () => 'replaced' }) as object, raw),
    ];
    for (const key of ['recordNumber', 'offset', 'length'])
      for (const bad of [0.5, -0, 2 ** 32 + 1, -(2 ** 32) - 3, 1e21]) raws.push({ ...raw, [key]: bad });
    for (const t of times)
      for (const r of raws) {
        const e = { ...base, time: t, raw: r };
        let expected: string | undefined;
        try {
          expected = reference(e, 1);
        } catch {
          expected = undefined;
        }
        if (expected === undefined) expect(() => canonicalEventText(e, 1)).toThrow();
        else {
          expect(canonicalEventText(e, 1)).toBe(expected);
          expect(Buffer.from(canonicalEventBytes(e, 1)).toString('utf8')).toBe(expected);
        }
      }
    // A toJSON every object inherits (Object.prototype changed) is called by canonicalJson, so the shapes are not written directly.
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'replaced', configurable: true, writable: true });
    try {
      // No other object before them: the time tuple (after a null raw) or the raw reference is the first object written.
      for (const r of [{ ...raw }, null]) {
        const e = { ...base, actor: null, object: null, attributes: 'none', time: { ...time }, raw: r };
        expect(canonicalEventText(e, 1)).toBe(reference(e, 1));
        expect(reference(e, 1)).toBe('"replaced"');
      }
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
  });

  it('writes the kind, loader, grade and version that the events of an artefact share as canonicalJson does, when they repeat and when they change', () => {
    const kinds: unknown[] = ['authlog', 'authlog', 'evtx', 'é "q"\n\ud800', 5, null, undefined, 'authlog'];
    const loaders: unknown[] = ['authlog/1', 'evtx/1', 'authlog/1', { a: 1 }, null, 'x'.repeat(70)];
    const grades: unknown[] = ['C', 'C', 'B', null, 1.5, 'é\u0001', 'C'];
    const versions = [1, 1, 2, 0, -0, 0, 1.5, Number.NaN, 2 ** 31, 1];
    let n = 0;
    for (const kind of kinds)
      for (const loader of loaders)
        for (const reliability of grades)
          for (const v of versions) {
            const e = { ...base, kind, loader, reliability };
            let expected: string | undefined;
            try {
              expected = reference(e, v);
            } catch {
              expected = undefined;
            }
            if (expected === undefined) expect(() => canonicalEventText(e, v)).toThrow();
            else {
              expect(canonicalEventText(e, v)).toBe(expected);
              expect(Buffer.from(canonicalEventBytes(e, v)).toString('utf8')).toBe(expected);
              n++;
            }
          }
    expect(n).toBeGreaterThan(1000);
  });

  it('copies the rawSha256 of a raw reference when it is 64 lower-case hex digits and says so; any other is written as canonicalJson writes it', () => {
    const raw = { artifactSha256: 'a'.repeat(64), recordNumber: 7, offset: 0, length: 120, rawSha256: '0123456789abcdef'.repeat(4) };
    const hex = raw.rawSha256;
    for (const rawSha256 of [hex, hex.toUpperCase(), `${hex.slice(0, 63)}g`, `${hex.slice(0, 63)}"`, `${hex.slice(0, 63)}é`, hex.slice(1), `${hex}0`, '', `/${hex.slice(1)}`, `:${hex.slice(1)}`, `\`${hex.slice(1)}`]) {
      const e = { ...base, raw: { ...raw, rawSha256 } };
      expect(canonicalEventText(e, 1)).toBe(reference(e, 1));
      expect(writtenRawSha256()).toBe(/^[0-9a-f]{64}$/.test(rawSha256) ? rawSha256 : null);
      expect(Buffer.from(canonicalEventBytes(e, 1)).toString('utf8')).toBe(reference(e, 1));
    }
    // Only a raw reference of the shape ingest builds is read so; for another shape, and after a text written by
    // canonicalJson, nothing is said.
    canonicalEventText({ ...base, raw: { ...raw, member: 'm' } }, 1);
    expect(writtenRawSha256()).toBeNull();
    canonicalEventText({ ...base, raw: { ...raw }, summary: undefined }, 1);
    expect(writtenRawSha256()).toBeNull();
  });

  it('takes known texts given as UTF-8 bytes (canonicalValueBytes), short and long, as they are', () => {
    for (const name of ['a', 'é€\ud83d\ude00', `é€\ud83d\ude00${'x'.repeat(100)}`, 'q"\\\u0001']) {
      const e = { ...base, actor: { type: 'process', name }, object: { type: 'file', name: `${name}!` }, time: { time: null, precision: 'none', source: name } };
      const texts = new Map<unknown, Uint8Array>([e.actor, e.object, e.time].map((o) => [o, canonicalValueBytes(o)]));
      for (const [o, t] of texts) expect(Buffer.from(t).toString('utf8')).toBe(canonicalJson(o));
      expect(canonicalEventText(e, 1, texts)).toBe(reference(e, 1));
      expect(Buffer.from(canonicalEventBytes(e, 1, texts)).toString('utf8')).toBe(reference(e, 1));
    }
    // Each call gives its own bytes (kept by the caller while later texts are written).
    const a = canonicalValueBytes({ type: 'user', name: 'a' });
    canonicalValueBytes({ type: 'user', name: 'bbbbbbbbbbbbbbbbbbbbbb' });
    expect(Buffer.from(a).toString('utf8')).toBe('{"name":"a","type":"user"}');
    for (const v of [null, 'a"b', 1.5, { b: 1, a: { d: -0, c: undefined } }, new Date(0)]) expect(valueText(v)).toBe(canonicalJson(v));
    // Many texts (past several shared blocks, and long ones of their own) all stay as they were written.
    const values = Array.from({ length: 6000 }, (_, i) => ({ type: 'file', name: `C:\\d\\${String(i).repeat(i % 7 === 0 ? 800 : 3)}é` }));
    const kept = values.map((v) => canonicalValueBytes(v));
    values.forEach((v, i) => expect(Buffer.from(kept[i] as Uint8Array).toString('utf8')).toBe(canonicalJson(v)));
  });

  it('writes numbers as canonicalJson does: 32-bit integers digit by digit at every length and both ends, others by String', () => {
    const values: number[] = [0, -0, 1, -1, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 1e21, 0.5, -7.25];
    for (let p = 1; p <= 1e9; p *= 10) values.push(p - 1, p, p + 1, -p, -p - 1, 7 * p, -3 * p);
    let seed = 11;
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 48271) % 2147483647;
      values.push((seed - 2 ** 30) >> (i % 31));
    }
    for (const v of values) {
      expect(valueText(v)).toBe(canonicalJson(v));
      expect(valueText({ v, w: [v] })).toBe(canonicalJson({ v, w: [v] }));
    }
  });

  it('writes what canonicalJson writes for objects of the same key count in many key sets and orders, and strings with escapes at any length', () => {
    // Key orders it keeps are reused for objects with the same keys: permutations, other key sets of the same count,
    // and more shapes than it keeps must each be written in their own sorted order.
    const names = ['b', 'a', 'A', 'é', '10', '9', '_', 'aa', 'ab'];
    const random = new Random(5);
    const next = (n: number): number => Math.floor(random.next() * n);
    // Every kind of character the writer treats on its own: escapes with a short form and without, DEL (not escaped),
    // two- and three-byte characters, a surrogate pair, lone high and low surrogates, and a high one before a non-low.
    const escapes = ['"', '\\', '\n', '\u0001', '\b', '\t', '\f', '\r', '\u001f', '\u007f', '\ud800', '\udfff', '\udbff\udfff', '\ud83d\ude00', '\ud800x', 'é', 'ÿ', '\u07ff', '\u0800', '\u2028', '\uffff'];
    for (let t = 0; t < 2000; t++) {
      const count = 1 + next(6);
      const attributes: Record<string, unknown> = {};
      for (let k = 0; k < count; k++) {
        const len = [0, 1, 40, 41, 63, 64, 65, 200][next(8)] as number;
        const chars = Array.from({ length: len }, () => 'x');
        if (len > 0 && next(2) === 0) chars[next(len)] = escapes[next(escapes.length)] as string;
        // A lone surrogate or a pair split by the end of the string.
        if (len > 0 && next(8) === 0) chars[len - 1] = ['\ud800', '\udc00', '\ud83d'][next(3)] as string;
        attributes[names[next(names.length)] as string] = chars.join('');
      }
      const e = { ...base, attributes };
      expect(canonicalEventText(e, 1), JSON.stringify(attributes)).toBe(reference(e, 1));
    }
  });

  it('gives the same text as UTF-8 bytes for the hash, at every length and after an event larger than its buffer', () => {
    const sizes = [0, 1, 2, 3, 100, 1000, 70_000, 5, 300_000, 7, 64, 65_600];
    for (const [i, size] of sizes.entries()) {
      const e = { ...base, summary: 'é'.repeat(size % 3) + 'x'.repeat(size), attributes: { i, nested: { list: ['\u0001', size] } } };
      const text = reference(e, 1);
      expect(Buffer.from(canonicalEventBytes(e, 1)).toString('utf8')).toBe(text);
      expect(Buffer.from(canonicalEventBytes(e, 1)).equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(canonicalEventText(e, 1)).toBe(text);
    }
    // A value that is not plain JSON: the bytes are canonicalJson's too.
    const odd = { ...base, attributes: { d: new Date(0), n: -0 } };
    expect(Buffer.from(canonicalEventBytes(odd, 1)).toString('utf8')).toBe(reference(odd, 1));
  });

  it('reads own keys only, as canonicalJson does, when Object.prototype has an enumerable property', () => {
    const proto = Object.prototype as Record<string, unknown>;
    try {
      Object.defineProperty(proto, 'zzInherited', { value: 1, enumerable: true, configurable: true, writable: true });
      const e = { ...base, attributes: { b: 1, a: { c: 2 } } };
      expect(canonicalEventText(e, 1)).toBe(reference(e, 1));
      expect(canonicalEventText(e, 1)).not.toContain('zzInherited');
    } finally {
      delete proto['zzInherited'];
    }
  });
});

describe('SharedStrings', () => {
  it('writes canonicalJson\'s text while sharing, when strings are kept, too long, past the cap or past the pool', () => {
    // Tiny bounds: three kept strings of at most 10 characters, 40 bytes of kept texts.
    const strings = new SharedStrings(3, 10, (s) => s, (v) => v, 40);
    const known = { get: (): undefined => undefined, strings };
    const values = ['a', 'bb"\\', 'é€', 'ccccccccc', 'dddddddddddd', 'e\u0001', '\ud800'];
    const random = new Random(9);
    for (let i = 0; i < 400; i++) {
      const attributes: Record<string, unknown> = {};
      for (const k of ['z', 'a', 'm', 'b'].slice(0, 1 + random.int(4))) attributes[k] = random.int(4) === 0 ? { in: values[random.int(values.length)] } : values[random.int(values.length)];
      const e = { ...base, attributes };
      const want = reference({ ...e, attributes: JSON.parse(JSON.stringify(attributes)) as unknown }, 1);
      expect(Buffer.from(canonicalEventBytes(e, 1, known)).toString('utf8')).toBe(want);
      expect(strings.failed).toBe(false);
    }
    expect(strings.size).toBe(3);
    // What plain JSON does not hold is refused as before, and said.
    expect(canonicalEventText({ ...base, attributes: { a: 'a', n: -0 } }, 1, known)).toBe(reference({ ...base, attributes: { a: 'a', n: -0 } }, 1));
    expect(strings.failed).toBe(true);
  });

  it('writes the same text whether digit texts up to 12 characters are kept (the path before) or not, and keeps only longer ones or others', () => {
    const keeping = new SharedStrings(1000, 256, (s) => s, (v) => v, 1 << 20, 0);
    const skipping = new SharedStrings(1000, 256, (s) => s, (v) => v, 1 << 20);
    const random = new Random(12);
    const digits = (n: number): string => Array.from({ length: n }, () => String(random.int(10))).join('');
    const values = (): unknown => {
      const r = random.int(6);
      if (r === 0) return digits(1 + random.int(14));
      if (r === 1) return `${digits(1 + random.int(12))}${['x', ' ', '.', '٣', '-'][random.int(5)] as string}`;
      if (r === 2) return ['', '0', '12', '007', '123456789012', '1234567890123'][random.int(6)];
      if (r === 3) return random.int(100000);
      return ['a', 'bb"\\', 'é€'][random.int(3)];
    };
    for (let i = 0; i < 600; i++) {
      const attributes: Record<string, unknown> = {};
      for (const k of ['pid', 'a', 'port', 'z'].slice(0, 1 + random.int(4))) attributes[k] = random.int(4) === 0 ? { in: values() } : values();
      const e = { ...base, attributes };
      const want = reference({ ...e, attributes: JSON.parse(JSON.stringify(attributes)) as unknown }, 1);
      expect(Buffer.from(canonicalEventBytes({ ...e, attributes: JSON.parse(JSON.stringify(attributes)) as unknown }, 1, { get: (): undefined => undefined, strings: keeping })).toString('utf8')).toBe(want);
      expect(Buffer.from(canonicalEventBytes({ ...e, attributes: JSON.parse(JSON.stringify(attributes)) as unknown }, 1, { get: (): undefined => undefined, strings: skipping })).toString('utf8')).toBe(want);
    }
    expect(keeping.failed || skipping.failed).toBe(false);
    for (const t of ['0', '123456789012', '', '1234567890123', '12a', '٣']) {
      const kept = skipping.share(t);
      expect(kept).toBe(t);
      expect(skipping.lastIndex >= 0).toBe(!/^\d{1,12}$/.test(t));
      keeping.share(t);
      expect(keeping.lastIndex >= 0).toBe(true);
    }
    expect(skipping.size).toBeLessThan(keeping.size);
  });
});
