// Version information: the WebAssembly walk (bytescan.wat `version`, through readVersionInfo) against the JavaScript
// reader (readVersionInfoJs), result and notes, on the corpus, writer-built files and version blocks changed, cut,
// moved to unaligned addresses and written with unusual strings.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { dissect } from './dissect.js';
import { Notes, parseHeaders } from './headers.js';
import { DIR } from './constants.js';
import { ByteReader } from './image.js';
import { VERSION_WALKS, readResources, readVersionInfo, readVersionInfoJs } from './resources.js';
import type { PeResourceSpec } from './writer.js';
import { mulberry32 } from '../../core/random.js';
import { syntheticPes } from './synthetic.js';
import { buildPe, versionResource } from './writer.js';

interface Block {
  readonly rva: number;
  readonly size: number;
  readonly offset: number;
}

/** The RT_VERSION leaves of a file, as dissect lists them. */
function versionBlocks(bytes: Uint8Array): Block[] {
  const out: Block[] = [];
  for (const e of dissect(bytes).resources.entries) if (e.type_id === 16 && e.offset !== null) out.push({ rva: e.rva, size: e.size, offset: e.offset });
  return out;
}

/** Both readers on fresh images of `bytes`: results and notes equal. Returns whether the WebAssembly walk took it. */
function same(bytes: Uint8Array, rva: number, size: number): boolean {
  const read = (js: boolean): string => {
    const notes = new Notes();
    const image = parseHeaders(new ByteReader(bytes), notes).image;
    const before = notes.list.length;
    const v = js ? readVersionInfoJs(image, rva, size, notes) : readVersionInfo(image, rva, size, notes);
    return JSON.stringify({ v, keys: v === null ? null : Object.keys(v.strings), notes: notes.list.slice(before) });
  };
  const walked = VERSION_WALKS.wasm;
  const got = read(false);
  const took = VERSION_WALKS.wasm > walked;
  expect(got).toBe(read(true));
  return took;
}

const corpusFiles = (): Uint8Array[] => {
  if (!hasCorpora()) return [];
  const out: Uint8Array[] = [];
  for (const dir of ['corkami', 'velociraptor']) {
    for (const f of readdirSync(corpusPath('pe', dir))) out.push(new Uint8Array(readFileSync(corpusPath('pe', dir, f))));
  }
  return out;
};

/** A writer-built PE holding the given version block bytes (its strings as the writer writes them). */
function withVersion(strings: Record<string, string>): Uint8Array {
  return buildPe({ format: 'PE32', dll: false, timestamp: 1, imports: [], versionInfo: { strings } });
}

describe('readVersionInfo (WebAssembly walk) against readVersionInfoJs', () => {
  it('agrees on the corpus and on writer-built files, walking their blocks in WebAssembly', () => {
    let blocks = 0;
    let walked = 0;
    const files = [...corpusFiles(), ...syntheticPes(600, 5)];
    for (const bytes of files) {
      let list: Block[];
      try {
        list = versionBlocks(bytes);
      } catch {
        continue;
      }
      for (const b of list) {
        blocks++;
        if (same(bytes, b.rva, b.size)) walked++;
      }
    }
    expect(blocks).toBeGreaterThan(150);
    // Writer-built blocks are ordinary: every one of them is the WebAssembly walk's.
    expect(walked).toBeGreaterThan(150);
  });

  it('agrees on blocks with bytes changed, cut short, or moved to every alignment', () => {
    const rand = mulberry32(33);
    const sources = syntheticPes(400, 9).filter((b) => versionBlocks(b).length > 0).slice(0, 80);
    expect(sources.length).toBeGreaterThan(40);
    let cases = 0;
    let walked = 0;
    for (const src of sources) {
      const b = versionBlocks(src)[0] as Block;
      for (let k = 0; k < 40; k++) {
        const bytes = src.slice();
        let { rva, size } = b;
        const kind = k % 5;
        if (kind === 0) {
          // A few bytes of the block changed.
          const n = 1 + Math.floor(rand() * 4);
          for (let j = 0; j < n; j++) bytes[b.offset + Math.floor(rand() * b.size)] = Math.floor(rand() * 256);
        } else if (kind === 1) {
          // A length word set to an extreme (the block's, a table's, an entry's).
          const at = b.offset + 2 * Math.floor((rand() * b.size) / 2);
          const v = [0, 1, 6, 0xffff, 0x7fff, Math.floor(rand() * 0x10000)][Math.floor(rand() * 6)] as number;
          bytes[at] = v & 0xff;
          bytes[at + 1] = v >> 8;
        } else if (kind === 2) {
          size = Math.floor(rand() * (b.size + 16));
        } else if (kind === 3) {
          // The block moved by 1 to 3 bytes: pefile aligns offsets by the block's address.
          const shift = 1 + (k % 3);
          bytes.copyWithin(b.offset + shift, b.offset, b.offset + b.size);
          rva += shift;
        } else {
          // A block asked for at an address near it, or far past the file.
          rva = rand() < 0.8 ? rva + Math.floor(rand() * 64) - 32 : rva + Math.floor(rand() * 0x100000);
        }
        cases++;
        if (same(bytes, rva, size)) walked++;
      }
    }
    expect(cases).toBe(3200);
    // Most changed blocks still walk in WebAssembly; the ones it leaves are the JavaScript reader's.
    expect(walked).toBeGreaterThan(800);
    expect(walked).toBeLessThan(cases);
  });

  it('keeps version strings named after Object.prototype members as own strings, in both walks and in the dissection', () => {
    const strings = JSON.parse('{"__proto__":"proto","constructor":"c","toString":"t","CompanyName":"x"}') as Record<string, string>;
    const bytes = withVersion(strings);
    for (const b of versionBlocks(bytes)) {
      for (const js of [false, true]) {
        const notes = new Notes();
        const image = parseHeaders(new ByteReader(bytes), notes).image;
        const v = js ? readVersionInfoJs(image, b.rva, b.size, notes) : readVersionInfo(image, b.rva, b.size, notes);
        expect(Object.getPrototypeOf(v?.strings)).toBe(Object.prototype);
        expect(Object.getOwnPropertyDescriptor(v?.strings, '__proto__')?.value, js ? 'js' : 'wasm').toBe('proto');
      }
    }
    const found = dissect(bytes).resources.version_info?.strings;
    expect(found).toStrictEqual(strings);
  });

  it('agrees on unusual strings: non-ASCII, lone surrogates, empty values, many strings, long keys', () => {
    const cases: Record<string, string>[] = [
      { CompanyName: 'Ünïcødé GmbH', FileDescription: '日本語の説明', ProductName: 'emoji \u{1F600} pair' },
      { 'Kéy\u0800': 'lone \ud800 high', 'low\udc00': 'x', Empty: '' },
      { __proto__: 'proto', constructor: 'c', toString: 't' },
      Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`K${i}`, `v${i}`])),
      { [`${'k'.repeat(1100)}`]: 'long key', Short: 'v'.repeat(9000) },
      { A: 'first', B: 'second', a: 'third' },
    ];
    let walked = 0;
    for (const strings of cases) {
      const bytes = withVersion(strings);
      for (const b of versionBlocks(bytes)) if (same(bytes, b.rva, b.size)) walked++;
    }
    expect(walked).toBeGreaterThanOrEqual(4);
  });

  it('reads a block the writer made as its strings (the same through dissect)', () => {
    // ASCII keys: pefile places a value after its key by the key's UTF-8 length, so past a non-ASCII key it reads from
    // inside the value (both readers do, as the test above holds).
    const strings = { CompanyName: 'Vendor', FileVersion: '1.2', Description: 'значение \u{1F600}' };
    expect(versionResource({ strings }).length).toBeGreaterThan(100);
    const d = dissect(withVersion(strings));
    expect(d.resources.version_info?.strings).toEqual(strings);
    expect(d.resources.version_info?.file_version).toBe('1.0.0.0');
  });
});

/**
 * readResources both ways on fresh images of `bytes` (the resource directory's RVA from its headers): equal. Returns
 * whether a version block was walked in WebAssembly; null without headers or a resource directory.
 */
function sameTree(bytes: Uint8Array): boolean | null {
  const read = (reference: boolean): string | null => {
    const notes = new Notes();
    let h;
    try {
      h = parseHeaders(new ByteReader(bytes), notes);
    } catch {
      return null;
    }
    const dir = h.directories[DIR.RESOURCE];
    if (dir === undefined || dir.virtualAddress === 0) return null;
    const before = notes.list.length;
    const got = readResources(h.image, dir.virtualAddress, notes, reference);
    return JSON.stringify({ got, notes: notes.list.slice(before), requests: h.image.entropyRequests.filter((x) => typeof x === 'number') });
  };
  const walked = VERSION_WALKS.wasm;
  const got = read(false);
  if (got === null) return null;
  const took = VERSION_WALKS.wasm > walked;
  expect(got).toBe(read(true));
  return took;
}

/** The file offset of the resource directory of `bytes`, or -1. */
function resourceOffset(bytes: Uint8Array): number {
  const h = parseHeaders(new ByteReader(bytes), new Notes());
  const dir = h.directories[DIR.RESOURCE];
  if (dir === undefined || dir.virtualAddress === 0) return -1;
  return h.image.tryOffset(dir.virtualAddress) ?? -1;
}

const named: PeResourceSpec[] = [
  { type: 'CUSTOM', name: 'FIRST', language: 0x409, data: new Uint8Array(40).fill(7) },
  { type: 'CUSTOM', name: 'Ünïcødé', language: 0x407, data: new Uint8Array(3) },
  { type: 10, name: 'RES\u{1F600}', data: new Uint8Array(100).fill(0x41) },
  { type: 10, name: 7, language: 0, data: new Uint8Array(0) },
  { type: 'X'.repeat(1500), name: 1, data: new Uint8Array(9) },
];

describe('readResources (version blocks walked in WebAssembly) against the JavaScript reading', () => {
  it('agrees on the corpus and on writer-built files', () => {
    let trees = 0;
    let walked = 0;
    for (const bytes of [...corpusFiles(), ...syntheticPes(600, 5), buildPe({ format: 'PE32+', dll: true, timestamp: 1, imports: [], resources: named, versionInfo: { strings: { A: 'b' } }, manifest: '<a/>' })]) {
      const took = sameTree(bytes);
      if (took === null) continue;
      trees++;
      if (took) walked++;
    }
    expect(trees).toBeGreaterThan(200);
    expect(walked).toBeGreaterThan(150);
  });

  it('agrees on trees with bytes changed, counts and offsets set to extremes, loops, and damaged headers', () => {
    const rand = mulberry32(71);
    const sources = [...syntheticPes(500, 12).filter((b) => resourceOffset(b) >= 0).slice(0, 100), buildPe({ format: 'PE32', dll: false, timestamp: 1, imports: [], resources: named })];
    expect(sources.length).toBeGreaterThan(60);
    let cases = 0;
    let walked = 0;
    for (const src of sources) {
      const at = resourceOffset(src);
      for (let k = 0; k < 30; k++) {
        const bytes = src.slice();
        const kind = k % 5;
        const spot = at + 4 * Math.floor(rand() * 64);
        if (kind === 0) {
          const n = 1 + Math.floor(rand() * 4);
          for (let j = 0; j < n; j++) bytes[at + Math.floor(rand() * 256)] = Math.floor(rand() * 256);
        } else if (kind === 1) {
          // A count, an entry or a data entry word set to an extreme.
          const v = [0, 0x80000000, 0x80000010, 0xffffffff, 0x7fffffff, 16, Math.floor(rand() * 0x100000000)][Math.floor(rand() * 7)] as number;
          if (spot + 4 <= bytes.length) new DataView(bytes.buffer).setUint32(spot, v >>> 0, true);
        } else if (kind === 2) {
          // An entry pointing back at the root, or at itself.
          if (spot + 4 <= bytes.length) new DataView(bytes.buffer).setUint32(spot, rand() < 0.5 ? 0x80000000 : (0x80000000 | (spot - at - 4)) >>> 0, true);
        } else if (kind === 3) {
          // The file cut inside the resource section.
          cases++;
          if (sameTree(bytes.subarray(0, at + Math.floor(rand() * 600))) === true) walked++;
          continue;
        } else {
          // Header bytes changed (section table, alignments, sizes): sections that overlap or map elsewhere.
          const n = 1 + Math.floor(rand() * 3);
          for (let j = 0; j < n; j++) bytes[0x80 + Math.floor(rand() * 0x300)] = Math.floor(rand() * 256);
        }
        cases++;
        if (sameTree(bytes) === true) walked++;
      }
    }
    expect(cases).toBe(30 * sources.length);
    expect(walked).toBeGreaterThan(100);
  });

  it('agrees on chains of directories deeper than pefile reads, and on chains that loop', () => {
    const src = buildPe({ format: 'PE32', dll: false, timestamp: 1, imports: [], resources: [{ type: 10, name: 1, data: new Uint8Array(3000) }] });
    const at = resourceOffset(src);
    for (const [depth, back] of [[20, -1], [31, -1], [32, -1], [33, -1], [40, -1], [10, 0], [10, 9], [33, 5]] as const) {
      const bytes = src.slice();
      const view = new DataView(bytes.buffer);
      // Directory i at 24 i: one id entry pointing at directory i + 1; the last points at a data entry, or back at `back`.
      for (let i = 0; i <= depth; i++) {
        const d = at + 24 * i;
        bytes.fill(0, d, d + 24);
        view.setUint16(d + 14, 1, true);
        view.setUint32(d + 16, 1, true);
        view.setUint32(d + 20, i < depth ? (0x80000000 | (24 * (i + 1))) >>> 0 : back >= 0 ? (0x80000000 | (24 * back)) >>> 0 : 24 * (depth + 1), true);
      }
      const leaf = at + 24 * (depth + 1);
      bytes.fill(0, leaf, leaf + 16);
      expect(sameTree(bytes)).not.toBeNull();
    }
  });
});
