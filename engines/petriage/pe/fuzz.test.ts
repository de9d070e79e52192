// Damaged input: truncated, bit-flipped and hand-corrupted PEs give a parse error or notes, never another exception or unbounded output.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../../core/errors.js';
import { dissect } from './dissect.js';
import { LIMITS } from './image.js';
import { imphash } from './imports.js';
import { mulberry32 } from '../../core/random.js';
import { syntheticPes } from './synthetic.js';
import type { PeDissection } from './types.js';
import { buildPe } from './writer.js';

/** Dissects damaged bytes: either a bounded, serialisable result, or the parse error, nothing else. */
function survive(bytes: Uint8Array): PeDissection | null {
  let d: PeDissection;
  try {
    d = dissect(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(VitrineError);
    expect((e as VitrineError).code).toBe('parse_error');
    expect((e as VitrineError).message).toMatch(/^not a PE file: /);
    return null;
  }
  expect(d.notes.length).toBeLessThanOrEqual(LIMITS.maxNotes + 1);
  expect(d.sections.length).toBeLessThanOrEqual(LIMITS.maxSections);
  expect([...d.imports, ...d.delay_imports].flatMap((x) => x.symbols).length).toBeLessThanOrEqual(LIMITS.maxImportSymbols);
  expect(d.exports?.symbols.length ?? 0).toBeLessThanOrEqual(2 * LIMITS.maxExports + 2);
  expect(d.resources.entries.length).toBeLessThanOrEqual(LIMITS.maxResourceLeaves);
  expect(d.tls?.callbacks.length ?? 0).toBeLessThanOrEqual(LIMITS.maxTlsCallbacks);
  expect(d.debug.length).toBeLessThanOrEqual(LIMITS.maxDebugEntries);
  expect(d.strings.ascii.length + d.strings.utf16le.length).toBeLessThanOrEqual(20_000);
  expect(d.imphash).toMatch(/^([0-9a-f]{32})?$/);
  // dissect writes the hash input from the file's bytes as it reads each DLL: the same hashes as from its lists.
  expect(d.imphash).toBe(imphash(d.imports));
  expect(d.imphash_with_delay).toBe(imphash([...d.imports, ...d.delay_imports]));
  // The whole result must survive JSON: stringify throws on BigInt and cycles, the replacer on NaN and infinities.
  let nonFinite = 0;
  JSON.stringify(d, (_k, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) nonFinite++;
    return v;
  });
  expect(nonFinite).toBe(0);
  return d;
}

function corpusFiles(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const out: Uint8Array[] = [];
  for (const sub of ['corkami', 'velociraptor']) {
    for (const f of readdirSync(corpusPath('pe', sub))) if (/\.(exe|dll|sys)$/.test(f)) out.push(new Uint8Array(readFileSync(corpusPath('pe', sub, f))));
  }
  return out;
}

const seeds = [...corpusFiles(), ...syntheticPes(12, 7)];

describe('damaged PE files', () => {
  it('not a PE at all: empty, short, wrong magic, NT header past the end', () => {
    for (const bytes of [new Uint8Array(0), new Uint8Array(63), new TextEncoder().encode('#!/bin/sh\necho hello\n'.repeat(10)), new Uint8Array(4096)]) {
      expect(survive(bytes)).toBeNull();
    }
    const mz = new Uint8Array(256);
    mz.set([0x4d, 0x5a]);
    new DataView(mz.buffer).setUint32(0x3c, 0xfffffff0, true);
    expect(survive(mz)).toBeNull();
    new DataView(mz.buffer).setUint32(0x3c, 0x80, true);
    expect(survive(mz)).toBeNull();
  });

  it('every truncation of every seed file', () => {
    expect(seeds.length).toBeGreaterThan(12);
    let parsed = 0;
    for (const seed of seeds) {
      const step = Math.max(1, Math.floor(seed.length / 32));
      for (let n = 0; n < seed.length; n += step) if (survive(seed.subarray(0, n)) !== null) parsed++;
    }
    // Cutting off the tail of a PE mostly leaves a PE: those must dissect with notes, not fail.
    expect(parsed).toBeGreaterThan(seeds.length * 8);
  });

  it('bit flips and extreme values written over the headers and tables (seeded)', () => {
    const rand = mulberry32(0x5eed);
    const extremes = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xffff, 0x1000, 0x10000000];
    let noted = 0;
    for (const seed of seeds) {
      for (let round = 0; round < 40; round++) {
        const bytes = seed.slice();
        const view = new DataView(bytes.buffer);
        const edits = 1 + Math.floor(rand() * 6);
        for (let e = 0; e < edits; e++) {
          // Most edits land in the first 2 KiB, where headers and small tables live.
          const span = rand() < 0.8 ? Math.min(bytes.length, 2048) : bytes.length;
          const at = Math.floor(rand() * span);
          if (rand() < 0.5) bytes[at] = (bytes[at] as number) ^ (1 << Math.floor(rand() * 8));
          else if (at + 4 <= bytes.length) view.setUint32(at - (at % 4), extremes[Math.floor(rand() * extremes.length)] as number, true);
        }
        const d = survive(bytes);
        if (d !== null && d.notes.length > 0) noted++;
      }
    }
    expect(noted).toBeGreaterThan(seeds.length * 5);
  });
});

/** A writer-built PE and its dissection, for hand-made corruption at known offsets. */
function base(): { bytes: Uint8Array; view: DataView; d: PeDissection } {
  const bytes = buildPe({
    format: 'PE32',
    dll: true,
    imports: [{ dll: 'kernel32.dll', symbols: ['Sleep', 'CloseHandle'] }],
    exports: { name: 'x.dll', symbols: [{ name: 'A' }, { name: 'B' }] },
    resources: [{ type: 10, name: 1, data: new Uint8Array(32) }],
    versionInfo: { strings: { CompanyName: 'x' } },
    tlsCallbacks: 1,
    pdb: { path: 'x.pdb' },
  });
  return { bytes, view: new DataView(bytes.buffer), d: dissect(bytes) };
}

function fileOffset(d: PeDissection, rva: number): number {
  const s = d.sections.find((x) => x.virtual_address <= rva && rva < x.virtual_address + Math.max(x.virtual_size, x.raw_size));
  if (s === undefined) throw new Error('test setup: RVA outside the sections');
  return rva - s.virtual_address + s.raw_offset;
}

function directory(d: PeDissection, name: string): { virtual_address: number; size: number } {
  const x = d.data_directories.find((e) => e.name === name);
  if (x === undefined) throw new Error('test setup: no such directory');
  return x;
}

describe('hand-made hostile structures', () => {
  it('a resource directory that contains itself', () => {
    const { bytes, view, d } = base();
    const root = fileOffset(d, directory(d, 'RESOURCE').virtual_address);
    view.setUint32(root + 16 + 4, 0x80000000, true); // first type entry points back at the root
    const out = survive(bytes);
    expect(out?.notes.some((n) => /refers back to itself/.test(n))).toBe(true);
  });

  it('a section table of 65 535 entries running off the end of the file', () => {
    const { bytes, view, d } = base();
    view.setUint16(d.dos_header.e_lfanew + 6, 0xffff, true);
    const out = survive(bytes);
    expect(out?.notes.length).toBeGreaterThan(0);
  });

  it('export counts of 2^32 - 1', () => {
    expect.hasAssertions();
    const { bytes, view, d } = base();
    const dir = fileOffset(d, directory(d, 'EXPORT').virtual_address);
    view.setUint32(dir + 20, 0xffffffff, true);
    view.setUint32(dir + 24, 0xffffffff, true);
    survive(bytes);
  });

  it('an import lookup table that never ends and a descriptor chain through the whole section', () => {
    expect.hasAssertions();
    const { bytes, view, d } = base();
    const imp = fileOffset(d, directory(d, 'IMPORT').virtual_address);
    // Point the lookup table at the import descriptor itself: entries that overlap the table are refused.
    view.setUint32(imp, directory(d, 'IMPORT').virtual_address, true);
    survive(bytes);
    const big = new Uint8Array(4 * 1024 * 1024);
    big.set(bytes.subarray(0, Math.min(bytes.length, big.length)));
    survive(big);
  });

  it('a debug directory of 4 GiB, TLS callbacks without end, a huge RVA count', () => {
    const { bytes, view, d } = base();
    const dirs = d.dos_header.e_lfanew + 24 + 96;
    view.setUint32(dirs + 6 * 8 + 4, 0xffffffff, true);
    const tls = fileOffset(d, directory(d, 'TLS').virtual_address);
    const callbacks = view.getUint32(tls + 12, true) - 0x10000000;
    const arrayAt = fileOffset(d, callbacks);
    for (let k = 0; k < 2000 && arrayAt + 4 * k + 4 <= bytes.length; k++) view.setUint32(arrayAt + 4 * k, 0x10001000, true);
    view.setUint32(dirs - 4, 0xffffffff, true);
    const out = survive(bytes);
    expect(out?.notes.length).toBeGreaterThan(0);
  });

  it('version information whose entries claim zero and huge lengths', () => {
    const { bytes, view, d } = base();
    const leaf = d.resources.entries.find((e) => e.type === 'RT_VERSION');
    const at = leaf?.offset ?? -1;
    expect(at).toBeGreaterThan(0);
    for (let k = 0; k + 2 <= (leaf?.size ?? 0); k += 2) if (view.getUint16(at + k, true) > 0x40) view.setUint16(at + k, k % 4 === 0 ? 0 : 0xffff, true);
    survive(bytes);
  });

  it('2,000 sections that all claim the same 256 KiB: entropies stop at a reading budget', () => {
    const sections = 2000;
    const dataAt = 0x20000;
    const bytes = new Uint8Array(dataAt + 0x40000);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, 0x5a4d, true);
    view.setUint32(0x3c, 0x40, true);
    view.setUint32(0x40, 0x4550, true);
    view.setUint16(0x44, 0x14c, true);
    view.setUint16(0x46, sections, true);
    view.setUint16(0x54, 224, true);
    const oh = 0x58;
    view.setUint16(oh, 0x10b, true);
    view.setUint32(oh + 16, 0x1000, true);
    view.setUint32(oh + 28, 0x400000, true);
    view.setUint32(oh + 32, 0x1000, true);
    view.setUint32(oh + 36, 0x200, true);
    view.setUint32(oh + 56, 0x1000 * (sections + 1), true);
    view.setUint32(oh + 60, dataAt, true);
    view.setUint32(oh + 92, 16, true);
    for (let i = 0; i < sections; i++) {
      const e = oh + 224 + 40 * i;
      bytes.set([0x2e, 0x73], e);
      view.setUint32(e + 8, 0x1000, true);
      view.setUint32(e + 12, 0x1000 * (i + 1), true);
      view.setUint32(e + 16, 0x40000, true);
      view.setUint32(e + 20, dataAt, true);
      view.setUint32(e + 36, 0x40000040, true);
    }
    bytes.fill(0x41, dataAt);
    const out = survive(bytes);
    expect(out?.sections.length).toBe(sections);
    expect(out?.sections.some((s) => s.entropy === null)).toBe(true);
    expect(out?.notes.some((n) => /entropies were not computed/.test(n))).toBe(true);
  });

  it('a thousand resources that all claim the whole file share the same reading budget', () => {
    const bytes = buildPe({ resources: Array.from({ length: 1000 }, (_, i) => ({ type: 10, name: i + 1, data: Uint8Array.of(i & 0xff) })) });
    const view = new DataView(bytes.buffer);
    const d = dissect(bytes);
    const rsrc = d.sections.find((s) => s.name === '.rsrc');
    expect(rsrc).toBeDefined();
    const start = rsrc?.raw_offset ?? 0;
    const end = start + (rsrc?.raw_size ?? 0);
    let patched = 0;
    for (let at = start; at + 16 <= end; at += 4) {
      // A data entry: OffsetToData inside .rsrc, Size 1, then the code page 0.
      const target = view.getUint32(at, true);
      if (view.getUint32(at + 4, true) === 1 && target >= (rsrc?.virtual_address ?? 0) && target < (rsrc?.virtual_address ?? 0) + (rsrc?.virtual_size ?? 0)) {
        view.setUint32(at, rsrc?.virtual_address ?? 0, true);
        view.setUint32(at + 4, 0x7fffffff, true);
        patched++;
      }
    }
    expect(patched).toBe(1000);
    const out = survive(bytes);
    expect(out?.resources.entries.length).toBe(1000);
    expect(out?.resources.entries.some((e) => e.entropy === null)).toBe(true);
    expect(out?.notes.some((n) => /entropies were not computed/.test(n))).toBe(true);
  });

  it('version information with more entries than the walk budget is read up to the budget', () => {
    const strings = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, 'v']));
    const d = survive(buildPe({ versionInfo: { strings } }));
    expect(d?.notes.some((n) => /step budget/.test(n))).toBe(true);
    expect(Object.keys(d?.resources.version_info?.strings ?? {}).length).toBeGreaterThan(900);
    expect(Object.keys(d?.resources.version_info?.strings ?? {}).length).toBeLessThan(1500);
  });
});
