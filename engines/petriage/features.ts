// PE feature vectors in the spirit of EMBER v2 (layout `vitrine-pe-features-1`, 2381 values): histograms, strings, headers, sections, hashed imports/exports, directories.
import type { PeDissection } from './pe/types.js';

/** Version tag of the vector layout; a model records it, and a model with another layout is refused. */
export const FEATURE_LAYOUT = 'vitrine-pe-features-1';

/** The groups in vector order, with their sizes (EMBER v2's groups and sizes). */
export const FEATURE_GROUPS = [
  { name: 'byteHistogram', size: 256 },
  { name: 'byteEntropyHistogram', size: 256 },
  { name: 'strings', size: 104 },
  { name: 'general', size: 10 },
  { name: 'header', size: 62 },
  { name: 'section', size: 255 },
  { name: 'imports', size: 1280 },
  { name: 'exports', size: 128 },
  { name: 'dataDirectories', size: 30 },
] as const;

export type FeatureGroupName = (typeof FEATURE_GROUPS)[number]['name'];

export const FEATURE_DIM = FEATURE_GROUPS.reduce((n, g) => n + g.size, 0);

/** Offset of each group in the vector. */
export const GROUP_OFFSET: Readonly<Record<FeatureGroupName, number>> = (() => {
  const out: Partial<Record<FeatureGroupName, number>> = {};
  let at = 0;
  for (const g of FEATURE_GROUPS) {
    out[g.name] = at;
    at += g.size;
  }
  return out as Record<FeatureGroupName, number>;
})();

/** A file's vector, and for hashed features the file's own tokens that fell into each slot (to explain a driver). */
export interface FeatureVector {
  readonly layout: typeof FEATURE_LAYOUT;
  readonly values: Float64Array;
  /** Vector index to the tokens that hashed there (imports `lib:func`, export names, section names, ...), capped per slot. */
  readonly tokens: ReadonlyMap<number, readonly string[]>;
}

// ---------------------------------------------------------------------------------------------
// Feature hashing as scikit-learn's FeatureHasher does it (EMBER's choice): signed MurmurHash3 x86 32 of the UTF-8 token, seed 0;
// the slot is |h| mod n and the value's sign is the hash's sign (alternate_sign).

/** MurmurHash3 x86 32-bit of `bytes` as a signed 32-bit integer. */
export function murmur3(bytes: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = n & 3;
  if (tail > 0) {
    let k = 0;
    if (tail === 3) k ^= (bytes[blocks + 2] as number) << 16;
    if (tail >= 2) k ^= (bytes[blocks + 1] as number) << 8;
    k ^= bytes[blocks] as number;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

const encoder = new TextEncoder();
const MAX_TOKENS_PER_SLOT = 8;

class Writer {
  readonly values = new Float64Array(FEATURE_DIM);
  readonly tokens = new Map<number, string[]>();

  set(index: number, value: number): void {
    this.values[index] = Number.isFinite(value) ? value : 0;
  }

  /** Adds `value` for `token` into a hashed block of `size` slots starting at `offset`. */
  hash(offset: number, size: number, token: string, value = 1): void {
    const h = murmur3(encoder.encode(token));
    const slot = offset + (Math.abs(h) % size);
    this.values[slot] = (this.values[slot] as number) + (h >= 0 ? value : -value);
    const list = this.tokens.get(slot);
    if (!list) this.tokens.set(slot, [token]);
    else if (list.length < MAX_TOKENS_PER_SLOT && !list.includes(token)) list.push(token);
  }
}

// ---------------------------------------------------------------------------------------------
// Groups

function byteHistogram(w: Writer, data: Uint8Array): void {
  const off = GROUP_OFFSET.byteHistogram;
  const counts = new Float64Array(256);
  for (let i = 0; i < data.length; i++) counts[data[i] as number]! += 1;
  const total = data.length || 1;
  for (let b = 0; b < 256; b++) w.set(off + b, (counts[b] as number) / total);
}

const WINDOW = 2048;
const STEP = 1024;

/** EMBER's byte-entropy histogram: 2048-byte windows every 1024 bytes; the window's nibble-histogram entropy picks a row, its nibble counts fill it. */
function byteEntropyHistogram(w: Writer, data: Uint8Array): void {
  const off = GROUP_OFFSET.byteEntropyHistogram;
  const out = new Float64Array(256);
  const c = new Int32Array(16);
  const addBlock = (start: number, end: number): void => {
    c.fill(0);
    for (let i = start; i < end; i++) c[(data[i] as number) >> 4]! += 1;
    let h = 0;
    for (let j = 0; j < 16; j++) {
      const cj = c[j] as number;
      if (cj === 0) continue;
      const p = cj / WINDOW;
      h -= p * Math.log2(p);
    }
    // Twice the nibble entropy estimates the byte entropy (0..8 bits); two rows per bit.
    const bin = Math.min(15, Math.floor(h * 2 * 2));
    for (let j = 0; j < 16; j++) out[bin * 16 + j]! += c[j] as number;
  };
  if (data.length < WINDOW) addBlock(0, data.length);
  else for (let start = 0; start + WINDOW <= data.length; start += STEP) addBlock(start, start + WINDOW);
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += out[i] as number;
  for (let i = 0; i < 256; i++) w.set(off + i, sum > 0 ? (out[i] as number) / sum : 0);
}

function countMatches(data: Uint8Array, needle: Uint8Array, ignoreCase: boolean): number {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!ignoreCase) {
    let n = 0;
    for (let at = buf.indexOf(needle); at !== -1; at = buf.indexOf(needle, at + needle.length)) n++;
    return n;
  }
  let n = 0;
  const first = needle[0] as number;
  const alt = first >= 0x61 && first <= 0x7a ? first - 0x20 : first >= 0x41 && first <= 0x5a ? first + 0x20 : first;
  for (let i = 0; i + needle.length <= data.length; i++) {
    const b = data[i] as number;
    if (b !== first && b !== alt) continue;
    let ok = true;
    for (let j = 1; j < needle.length; j++) {
      let x = data[i + j] as number;
      if (x >= 0x41 && x <= 0x5a) x += 0x20;
      if (x !== (needle[j] as number)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      n++;
      i += needle.length - 1;
    }
  }
  return n;
}

/** EMBER's string statistics over runs of at least 5 bytes in 0x20..0x7f, read straight from the bytes. */
function strings(w: Writer, data: Uint8Array): void {
  const off = GROUP_OFFSET.strings;
  const dist = new Float64Array(96);
  let count = 0;
  let totalLength = 0;
  let run = 0;
  for (let i = 0; i <= data.length; i++) {
    const b = i < data.length ? (data[i] as number) : 0;
    if (b >= 0x20 && b <= 0x7f) {
      run++;
      continue;
    }
    if (run >= 5) {
      count++;
      totalLength += run;
      for (let j = i - run; j < i; j++) dist[(data[j] as number) - 0x20]! += 1;
    }
    run = 0;
  }
  let entropy = 0;
  for (let j = 0; j < 96; j++) {
    const cj = dist[j] as number;
    if (cj > 0) entropy -= (cj / totalLength) * Math.log2(cj / totalLength);
  }
  w.set(off, count);
  w.set(off + 1, count > 0 ? totalLength / count : 0);
  w.set(off + 2, totalLength);
  const divisor = totalLength > 0 ? totalLength : 1;
  for (let j = 0; j < 96; j++) w.set(off + 3 + j, (dist[j] as number) / divisor);
  w.set(off + 99, entropy);
  w.set(off + 100, countMatches(data, encoder.encode('c:\\'), true));
  w.set(off + 101, countMatches(data, encoder.encode('http://'), true) + countMatches(data, encoder.encode('https://'), true));
  w.set(off + 102, countMatches(data, encoder.encode('HKEY_'), false));
  w.set(off + 103, countMatches(data, encoder.encode('MZ'), false));
}

function directory(d: PeDissection, name: string): { virtual_address: number; size: number } | undefined {
  return d.data_directories.find((x) => x.name === name);
}

function general(w: Writer, d: PeDissection): void {
  const off = GROUP_OFFSET.general;
  const importCount = d.imports.reduce((n, dll) => n + dll.symbols.length, 0);
  w.set(off, d.size);
  w.set(off + 1, d.optional_header.size_of_image);
  w.set(off + 2, d.debug.length > 0 ? 1 : 0);
  w.set(off + 3, d.exports?.symbols.length ?? 0);
  w.set(off + 4, importCount);
  w.set(off + 5, (directory(d, 'BASERELOC')?.size ?? 0) > 0 ? 1 : 0);
  w.set(off + 6, d.resources.entries.length > 0 ? 1 : 0);
  w.set(off + 7, d.certificate ? 1 : 0);
  w.set(off + 8, d.tls ? 1 : 0);
  w.set(off + 9, d.file_header.number_of_symbols);
}

function versionParts(text: string): [number, number] {
  const [a, b] = text.split('.');
  return [Number(a) || 0, Number(b) || 0];
}

function header(w: Writer, d: PeDissection): void {
  const off = GROUP_OFFSET.header;
  const oh = d.optional_header;
  w.set(off, d.file_header.timestamp);
  w.hash(off + 1, 10, `machine:${d.file_header.machine_name}`);
  for (const f of d.file_header.flags) w.hash(off + 11, 10, `characteristic:${f}`);
  w.hash(off + 21, 10, `subsystem:${oh.subsystem_name}`);
  for (const f of oh.dll_characteristics_flags) w.hash(off + 31, 10, `dllCharacteristic:${f}`);
  w.hash(off + 41, 10, `magic:${d.format}`);
  const versions = [...versionParts(oh.image_version), ...versionParts(oh.linker_version), ...versionParts(oh.os_version), ...versionParts(oh.subsystem_version)];
  versions.forEach((v, i) => w.set(off + 51 + i, v));
  w.set(off + 59, oh.size_of_code);
  w.set(off + 60, oh.size_of_headers);
  w.set(off + 61, Number.parseInt(oh.size_of_heap_commit, 16) || 0);
}

function section(w: Writer, d: PeDissection): void {
  const off = GROUP_OFFSET.section;
  const secs = d.sections;
  w.set(off, secs.length);
  w.set(off + 1, secs.filter((s) => s.raw_size === 0).length);
  w.set(off + 2, secs.filter((s) => s.name === '').length);
  w.set(off + 3, secs.filter((s) => s.flags.includes('MEM_READ') && s.flags.includes('MEM_EXECUTE')).length);
  w.set(off + 4, secs.filter((s) => s.flags.includes('MEM_WRITE')).length);
  for (const s of secs) {
    const name = `section:${s.name}`;
    w.hash(off + 5, 50, name, s.raw_size);
    w.hash(off + 55, 50, name, s.entropy ?? 0);
    w.hash(off + 105, 50, name, s.virtual_size);
  }
  const entry = secs.find((s) => s.name === d.entry_point.section);
  if (d.entry_point.section !== null) w.hash(off + 155, 50, `entry:${d.entry_point.section}`);
  for (const f of entry?.flags ?? []) w.hash(off + 205, 50, `entryCharacteristic:${f}`);
}

function imports(w: Writer, d: PeDissection): void {
  const off = GROUP_OFFSET.imports;
  const libraries = new Set<string>();
  for (const dll of d.imports) {
    const lib = dll.dll.toLowerCase();
    libraries.add(lib);
    for (const s of dll.symbols) w.hash(off + 256, 1024, `${lib}:${s.name ?? `ordinal${s.ordinal ?? 0}`}`);
  }
  for (const lib of libraries) w.hash(off, 256, lib);
}

function exports(w: Writer, d: PeDissection): void {
  const off = GROUP_OFFSET.exports;
  for (const s of d.exports?.symbols ?? []) if (s.name !== null) w.hash(off, 128, s.name);
}

/** The 15 directories EMBER reads (the 16th is reserved), as size then RVA. */
function dataDirectories(w: Writer, d: PeDissection): void {
  const off = GROUP_OFFSET.dataDirectories;
  for (const dir of d.data_directories) {
    if (dir.index >= 15) continue;
    w.set(off + 2 * dir.index, dir.size);
    w.set(off + 2 * dir.index + 1, dir.virtual_address);
  }
}

/** The feature vector of a dissected file; `data` are the file's bytes (histograms and string statistics read them). */
export function featurize(d: PeDissection, data: Uint8Array): FeatureVector {
  const w = new Writer();
  byteHistogram(w, data);
  byteEntropyHistogram(w, data);
  strings(w, data);
  general(w, d);
  header(w, d);
  section(w, d);
  imports(w, d);
  exports(w, d);
  dataDirectories(w, d);
  return { layout: FEATURE_LAYOUT, values: w.values, tokens: w.tokens };
}

// ---------------------------------------------------------------------------------------------
// Names

const GENERAL_NAMES = ['size', 'virtualSize', 'hasDebug', 'exports', 'imports', 'hasRelocations', 'hasResources', 'hasSignature', 'hasTls', 'symbols'];
const HEADER_VERSION_NAMES = ['majorImageVersion', 'minorImageVersion', 'majorLinkerVersion', 'minorLinkerVersion', 'majorOsVersion', 'minorOsVersion', 'majorSubsystemVersion', 'minorSubsystemVersion', 'sizeOfCode', 'sizeOfHeaders', 'sizeOfHeapCommit'];
const DIRECTORY_NAMES = ['export', 'import', 'resource', 'exception', 'certificate', 'baseRelocation', 'debug', 'architecture', 'globalPointer', 'tls', 'loadConfig', 'boundImport', 'iat', 'delayImport', 'clrRuntimeHeader'];
const PRINTABLE_NAME = (j: number): string => (j === 95 ? 'DEL' : JSON.stringify(String.fromCharCode(0x20 + j)));

function buildNames(): string[] {
  const names: string[] = [];
  for (let b = 0; b < 256; b++) names.push(`byteHistogram[0x${b.toString(16).padStart(2, '0')}]`);
  for (let i = 0; i < 256; i++) names.push(`byteEntropyHistogram[entropyBin=${i >> 4}][nibble=${i & 15}]`);
  names.push('strings.count', 'strings.averageLength', 'strings.printables');
  for (let j = 0; j < 96; j++) names.push(`strings.printableDistribution[${PRINTABLE_NAME(j)}]`);
  names.push('strings.entropy', 'strings.paths', 'strings.urls', 'strings.registry', 'strings.mz');
  for (const n of GENERAL_NAMES) names.push(`general.${n}`);
  names.push('header.timestamp');
  for (const [block, size] of [
    ['machine', 10],
    ['characteristics', 10],
    ['subsystem', 10],
    ['dllCharacteristics', 10],
    ['magic', 10],
  ] as const)
    for (let i = 0; i < size; i++) names.push(`header.${block}#${i}`);
  for (const n of HEADER_VERSION_NAMES) names.push(`header.${n}`);
  names.push('section.count', 'section.zeroSize', 'section.emptyName', 'section.readExecute', 'section.write');
  for (const block of ['rawSize', 'entropy', 'virtualSize', 'entryName', 'entryCharacteristics']) for (let i = 0; i < 50; i++) names.push(`section.${block}#${i}`);
  for (let i = 0; i < 256; i++) names.push(`imports.library#${i}`);
  for (let i = 0; i < 1024; i++) names.push(`imports.function#${i}`);
  for (let i = 0; i < 128; i++) names.push(`exports.name#${i}`);
  for (const n of DIRECTORY_NAMES) names.push(`dataDirectories.${n}.size`, `dataDirectories.${n}.virtualAddress`);
  return names;
}

/** One name per vector index; hashed slots are `group.block#slot`. */
export const FEATURE_NAMES: readonly string[] = buildNames();

/** The group an index belongs to. */
export function groupOf(index: number): FeatureGroupName {
  let at = 0;
  for (const g of FEATURE_GROUPS) {
    if (index < at + g.size) return g.name;
    at += g.size;
  }
  throw new RangeError('feature index out of range');
}
