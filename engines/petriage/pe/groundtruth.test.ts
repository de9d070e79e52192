// dissect against the corpus ground truth: every value pefile recorded in GROUND_TRUTH_pefile.json, for every corpus file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { dissect } from './dissect.js';
import type { PeDissection, PeImportedDll } from './types.js';

interface TruthSection {
  name: string;
  vaddr: string;
  vsize: number;
  raw_off: number;
  raw_size: number;
  entropy: number;
}

interface Truth {
  sha256: string;
  size: number;
  format: string;
  machine: string;
  is_dll: boolean;
  is_driver: boolean;
  subsystem: string;
  entry_point_rva: string;
  image_base: string;
  timestamp: number;
  num_sections_header: number;
  sections: TruthSection[];
  imports: Record<string, string[]>;
  delay_imports?: Record<string, string[]>;
  exports?: { dll_name: string; symbols: { ord: number; name: string | null; forwarder: string | null }[] };
  imphash: string;
  resources?: { type: string | number; count: number }[];
  num_data_directories: number;
  clr_header?: boolean;
  debug_entries?: number;
  version_info?: Record<string, string>;
  overlay?: { offset: number; size: number };
  security_dir?: { offset: number; size: number };
  tls?: boolean;
  pefile_warnings?: string[];
}

const available = hasCorpora();
const truth: Record<string, Truth> = available
  ? (JSON.parse(readFileSync(corpusPath('pe', 'GROUND_TRUTH_pefile.json'), 'utf8')) as { files: Record<string, Truth> }).files
  : {};

/** Imports as the ground truth lists them: names, or pefile's ordinal name (ws2_32 and friends), or `ordN`. */
function importMap(dlls: readonly PeImportedDll[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of dlls) out[d.dll] = [...(out[d.dll] ?? []), ...d.symbols.map((s) => s.name ?? s.ordinal_name ?? `ord${s.ordinal ?? 0}`)];
  return out;
}

/** pefile hands back UTF-8 bytes that the ground truth generator stored as Latin-1 text: undo that to compare. */
function fromLatin1Utf8(s: string): string {
  return Buffer.from(s, 'latin1').toString('utf8');
}

const hex = (n: number): string => `0x${n.toString(16)}`;

describe.skipIf(!available)('dissect matches GROUND_TRUTH_pefile.json', () => {
  const cache = new Map<string, PeDissection>();
  const load = (file: string): PeDissection => {
    let d = cache.get(file);
    if (d === undefined) {
      d = dissect(new Uint8Array(readFileSync(corpusPath('pe', file))));
      cache.set(file, d);
    }
    return d;
  };

  it('covers every file of the corpus', () => {
    expect(Object.keys(truth).length).toBeGreaterThanOrEqual(28);
  });

  for (const [file, t] of Object.entries(truth)) {
    describe(file, () => {
      it('headers', () => {
        const d = load(file);
        expect(d.sha256).toBe(t.sha256);
        expect(d.size).toBe(t.size);
        expect(d.format).toBe(t.format);
        expect(d.file_header.machine_name).toBe(t.machine);
        expect(d.is_dll).toBe(t.is_dll);
        expect(d.is_driver).toBe(t.is_driver);
        expect(d.optional_header.subsystem_name).toBe(t.subsystem);
        expect(hex(d.entry_point.rva)).toBe(t.entry_point_rva);
        expect(d.optional_header.image_base).toBe(t.image_base);
        expect(d.file_header.timestamp).toBe(t.timestamp);
        expect(d.file_header.number_of_sections).toBe(t.num_sections_header);
        expect(d.data_directories.length).toBe(t.num_data_directories);
        expect(d.clr).toBe(t.clr_header === true);
      });

      it('sections with entropy', () => {
        const d = load(file);
        const ours = [...d.sections]
          .sort((a, b) => a.virtual_address - b.virtual_address)
          .map((s) => ({ name: s.name, vaddr: hex(s.virtual_address), vsize: s.virtual_size, raw_off: s.raw_offset, raw_size: s.raw_size }));
        expect(ours).toEqual(t.sections.map(({ entropy: _e, ...rest }) => rest));
        t.sections.forEach((s, i) => {
          const mine = [...d.sections].sort((a, b) => a.virtual_address - b.virtual_address)[i];
          expect(Math.abs((mine?.entropy ?? -1) - s.entropy)).toBeLessThanOrEqual(0.0005);
        });
      });

      it('imports, delay-load imports and the import hash', () => {
        const d = load(file);
        expect(importMap(d.imports)).toEqual(t.imports);
        if (t.delay_imports === undefined) expect(d.delay_imports).toEqual([]);
        else expect(importMap(d.delay_imports)).toEqual(t.delay_imports);
        expect(d.imphash).toBe(t.imphash);
        if (d.delay_imports.length === 0) expect(d.imphash_with_delay).toBe(d.imphash);
        else expect(d.imphash_with_delay).not.toBe(d.imphash);
      });

      it('exports and forwarders', () => {
        expect.hasAssertions();
        const d = load(file);
        if (t.exports === undefined) expect(d.exports).toBeNull();
        else {
          expect(d.exports?.dll_name).toBe(t.exports.dll_name);
          expect(d.exports?.symbols.map((s) => ({ ord: s.ordinal, name: s.name, forwarder: s.forwarder }))).toEqual(t.exports.symbols);
        }
      });

      it('resources and version information', () => {
        expect.hasAssertions();
        const d = load(file);
        if (t.resources === undefined) expect(d.resources.types).toEqual([]);
        else expect(d.resources.types.map((r) => ({ type: r.type, count: r.count }))).toEqual(t.resources);
        if (t.version_info === undefined) expect(d.resources.version_info).toBeNull();
        else {
          const expected = Object.fromEntries(Object.entries(t.version_info).map(([k, v]) => [fromLatin1Utf8(k), fromLatin1Utf8(v)]));
          expect(d.resources.version_info?.strings).toEqual(expected);
        }
      });

      it('debug, TLS, certificate table and overlay', () => {
        const d = load(file);
        expect(d.debug.length).toBe(t.debug_entries ?? 0);
        expect(d.tls !== null).toBe(t.tls === true);
        if (t.security_dir === undefined) expect(d.certificate).toBeNull();
        else expect({ offset: d.certificate?.offset, size: d.certificate?.size }).toEqual(t.security_dir);
        expect(d.overlay).toEqual(t.overlay ?? null);
      });
    });
  }

  // The malformed files of the corpus: each must yield notes that say what is wrong (or a parse error).
  const malformed: Record<string, RegExp> = {
    'corkami/delaycorrupt.exe': /delay-load import directory .* no descriptors/,
    'corkami/dllord.dll': /export/,
    'corkami/imports_corruptedIAT.exe': /import address table .* differs/,
    'corkami/resourceloop.exe': /resource directory .* refers back to itself/,
    'corkami/nosectionW7.exe': /outside every section/,
    'corkami/tinyXP.exe': /optional header cut short/,
    'corkami/tiny.exe': /outside every section/,
    'corkami/truncatedlast.exe': /section 1 raw size/,
  };
  for (const [file, pattern] of Object.entries(malformed)) {
    it(`notes what is damaged in ${file}`, () => {
      expect(load(file).notes.some((n) => pattern.test(n))).toBe(true);
    });
  }

  it('reads the Rich header of a linked file and checks its checksum', () => {
    const d = load('corkami/compiled.exe');
    expect(d.rich_header?.checksum_valid).toBe(true);
    expect(d.rich_header?.entries.length).toBeGreaterThan(0);
    expect(load('corkami/normal.exe').rich_header).toBeNull();
  });

  it('reads TLS callbacks and the manifest', () => {
    const tls = load('corkami/tls64.exe').tls;
    expect(tls?.callbacks.length).toBeGreaterThan(0);
    const manifest = load('corkami/manifest.exe').resources.manifest;
    expect(manifest).toMatch(/<assembly/);
  });
});
