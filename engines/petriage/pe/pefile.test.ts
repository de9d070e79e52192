// dissect against python3-pefile itself (where installed): imports, exports, sections, imphash and more, for the corpus and for writer-built PEs.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { dissect } from './dissect.js';
import { mulberry32 } from '../../core/random.js';
import { syntheticPes } from './synthetic.js';
import type { PeDissection, PeImportedDll } from './types.js';
import { skipWithout } from '../../../test/oracles.js';

const PYTHON = '/usr/bin/python3';
/** PEFILE_PATH points at another pefile checkout (its folder goes on PYTHONPATH), for example pefile's main branch. */
const PYTHON_ENV = { ...process.env, PYTHONPATH: process.env['PEFILE_PATH'] ?? '' };
const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'pefile_dump.py');

interface OracleImport {
  dll: string;
  symbols: { name: string | null; ordinal: number | null }[];
}

interface Oracle {
  file: string;
  ok: boolean;
  error?: string;
  format: string;
  entry_point: number;
  image_base: string;
  checksum: number;
  checksum_computed: number;
  num_data_directories: number;
  sections: { name: string; virtual_address: number; virtual_size: number; raw_offset: number; raw_size: number; entropy: number }[];
  imports: OracleImport[];
  delay_imports: OracleImport[];
  exports: { dll_name: string; symbols: { ordinal: number; name: string | null; forwarder: string | null; rva: number | null }[] } | null;
  imphash: string;
  overlay: { offset: number; size: number } | null;
  tls: boolean;
  debug_entries: number;
  version_strings: Record<string, string>;
}

/** With PEFILE_PATH the named checkout is the oracle (its import errors fail the tests); otherwise Debian's python3-pefile. */
const skipped = process.env['PEFILE_PATH'] === undefined && skipWithout('pefile');

function ourImports(dlls: readonly PeImportedDll[]): OracleImport[] {
  return dlls.map((d) => ({ dll: d.dll, symbols: d.symbols.map((s) => ({ name: s.by_ordinal ? null : s.name, ordinal: s.by_ordinal ? s.ordinal : null })) }));
}

/**
 * pefile's generate_checksum() serialises its own structures first, and it rewrites old-style (VA-based) delay-load
 * descriptors into RVAs while parsing: for those files it checksums bytes that are not the file's.
 */
function pefileRewritesFile(d: PeDissection, bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return d.file_header.machine === 0x14c && d.delay_imports.some((x) => x.descriptor_offset >= 0 && view.getUint32(x.descriptor_offset, true) === 0);
}

/** Everything both tools report, compared field by field. */
function compare(d: PeDissection, o: Oracle, bytes: Uint8Array): void {
  expect(d.format).toBe(o.format);
  expect(d.entry_point.rva).toBe(o.entry_point);
  expect(d.optional_header.image_base).toBe(o.image_base);
  expect(d.optional_header.checksum).toBe(o.checksum);
  if (!d.optional_header.truncated && !pefileRewritesFile(d, bytes)) expect(d.optional_header.checksum_computed).toBe(o.checksum_computed);
  expect(d.data_directories.length).toBe(o.num_data_directories);
  const sections = [...d.sections].sort((a, b) => a.virtual_address - b.virtual_address);
  expect(sections.map(({ name, virtual_address, virtual_size, raw_offset, raw_size }) => ({ name, virtual_address, virtual_size, raw_offset, raw_size }))).toEqual(
    o.sections.map(({ entropy: _e, ...rest }) => rest),
  );
  o.sections.forEach((s, i) => expect(sections[i]?.entropy).toBeCloseTo(s.entropy, 9));
  expect(ourImports(d.imports)).toEqual(o.imports);
  expect(ourImports(d.delay_imports)).toEqual(o.delay_imports);
  expect(d.imphash).toBe(o.imphash);
  if (o.exports === null) expect(d.exports).toBeNull();
  else {
    expect(d.exports?.dll_name).toBe(o.exports.dll_name);
    expect(d.exports?.symbols.map((s) => ({ ordinal: s.ordinal, name: s.name, forwarder: s.forwarder, rva: s.rva }))).toEqual(o.exports.symbols);
  }
  expect(d.overlay).toEqual(o.overlay);
  expect(d.tls !== null).toBe(o.tls);
  expect(d.debug.length).toBe(o.debug_entries);
  expect(d.resources.version_info?.strings ?? {}).toEqual(o.version_strings);
}

describe.skipIf(skipped)('dissect agrees with python3-pefile', () => {
  let dir = '';
  const oracle = new Map<string, Oracle>();
  const generated: string[] = [];
  const corpus: string[] = [];
  const mutated: string[] = [];
  let version = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'petriage-pe-'));
    syntheticPes(80, 20240601).forEach((bytes, i) => {
      const file = path.join(dir, `synthetic-${String(i).padStart(3, '0')}.bin`);
      writeFileSync(file, bytes);
      generated.push(file);
    });
    if (hasCorpora()) {
      for (const sub of ['corkami', 'velociraptor']) {
        for (const f of readdirSync(corpusPath('pe', sub))) if (/\.(exe|dll|sys)$/.test(f)) corpus.push(corpusPath('pe', sub, f));
      }
    }
    // Damaged copies: seeded bit flips and extreme values over the first 2 KiB of each file.
    const rand = mulberry32(99);
    const extremes = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xffff, 0x1000, 0x10000000];
    [...corpus, ...generated.slice(0, 12)].forEach((file, si) => {
      const seed = new Uint8Array(readFileSync(file));
      for (let round = 0; round < 15; round++) {
        const bytes = seed.slice();
        const view = new DataView(bytes.buffer);
        for (let e = 1 + Math.floor(rand() * 4); e > 0; e--) {
          const at = Math.floor(rand() * Math.min(bytes.length, 2048));
          if (rand() < 0.5) bytes[at] = (bytes[at] as number) ^ (1 << Math.floor(rand() * 8));
          else if (at + 4 <= bytes.length) view.setUint32(at - (at % 4), extremes[Math.floor(rand() * extremes.length)] as number, true);
        }
        const out = path.join(dir, `mutated-${si}-${round}.bin`);
        writeFileSync(out, bytes);
        mutated.push(out);
      }
    });
    version = execFileSync(PYTHON, ['-c', 'import pefile; print(pefile.__version__)'], { env: PYTHON_ENV }).toString().trim();
    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT, 'dump', ...corpus, ...generated, ...mutated], { maxBuffer: 256 * 1024 * 1024, env: PYTHON_ENV });
    for (const line of stdout.split('\n')) {
      if (line.trim() === '') continue;
      const o = JSON.parse(line) as Oracle;
      oracle.set(o.file, o);
    }
  }, 120_000);

  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('pefile read every file', () => {
    expect(oracle.size).toBe(corpus.length + generated.length + mutated.length);
  });

  it.skipIf(!hasCorpora())('on every corpus file', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(28);
    for (const file of corpus) {
      const o = oracle.get(file) as Oracle;
      expect(o.ok, path.basename(file)).toBe(true);
      const bytes = new Uint8Array(readFileSync(file));
      compare(dissect(bytes), o, bytes);
    }
  });

  it('on 80 PEs built by the writer (PE32 and PE32+, ordinals, delay-load, forwarders, resources, overlays)', () => {
    let ordinals = 0;
    let delay = 0;
    let forwarders = 0;
    for (const file of generated) {
      const o = oracle.get(file) as Oracle;
      expect(o.ok).toBe(true);
      const bytes = new Uint8Array(readFileSync(file));
      const d = dissect(bytes);
      compare(d, o, bytes);
      // Writer-built files are well formed; the only remark allowed is about sections asked to be writable and executable.
      expect(d.notes.filter((n) => !n.endsWith('is both writable and executable'))).toEqual([]);
      ordinals += d.imports.flatMap((x) => x.symbols).filter((s) => s.by_ordinal).length;
      delay += d.delay_imports.length;
      forwarders += (d.exports?.symbols ?? []).filter((s) => s.forwarder !== null).length;
    }
    // The sample must exercise the cases that make the import hash hard.
    expect(ordinals).toBeGreaterThan(10);
    expect(delay).toBeGreaterThan(3);
    expect(forwarders).toBeGreaterThan(3);
  });

  it('on damaged copies: the same imports, import hash, sections, exports and overlay', () => {
    // pefile before its 2024 release lacks the NumberOfRvaAndSizes repair that we (and the ground truth's pefile) apply.
    const oldPefile = version < '2024.8.26';
    let compared = 0;
    for (const file of mutated) {
      const o = oracle.get(file) as Oracle;
      let d: PeDissection | null;
      try {
        d = dissect(new Uint8Array(readFileSync(file)));
      } catch {
        d = null;
      }
      if (d === null) {
        // We refuse only what pefile refuses.
        expect(o.ok, path.basename(file)).toBe(false);
        continue;
      }
      if (!o.ok) {
        // pefile raises on a section table cut short; we stop the table there with a note.
        expect(d.notes.some((n) => /section \d+ header is cut short/.test(n)), path.basename(file)).toBe(true);
        continue;
      }
      if (oldPefile && d.notes.some((n) => n.startsWith('SizeOfOptionalHeader implies'))) continue;
      const sections = [...d.sections].sort((a, b) => a.virtual_address - b.virtual_address);
      expect({
        file: path.basename(file),
        imports: ourImports(d.imports),
        imphash: d.imphash,
        sections: sections.map((s) => [s.name, s.virtual_address, s.raw_offset, s.raw_size]),
        exports: d.exports?.symbols.map((s) => [s.ordinal, s.name, s.forwarder]) ?? null,
        overlay: d.overlay,
        directories: d.data_directories.length,
      }).toEqual({
        file: path.basename(file),
        imports: o.imports,
        imphash: o.imphash,
        sections: o.sections.map((s) => [s.name, s.virtual_address, s.raw_offset, s.raw_size]),
        exports: o.exports?.symbols.map((s) => [s.ordinal, s.name, s.forwarder]) ?? null,
        overlay: o.overlay,
        directories: o.num_data_directories,
      });
      compared++;
    }
    expect(compared).toBeGreaterThan(mutated.length * 0.8);
  });
});
