// Import, delay-load import and bound import tables, and the import hash, read with pefile's rules so the hash matches it exactly.
import { hash } from 'node:crypto';
import type { Notes } from './headers.js';
import * as imageModule from './image.js';
import { PeRangeError, type PeImage } from './image.js';
import * as ordinalsModule from './ordinals.js';
import type { Mutable, PeBoundImport, PeImportedDll, PeImportedSymbol } from './types.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { LIMITS, isAllZero, u16At, u32At } = imageModule;
const { OLEAUT32_ORDINALS, WS2_32_ORDINALS } = ordinalsModule;

/** What the import walkers need to know about the image. */
export interface ImportContext {
  readonly image: PeImage;
  readonly plus: boolean;
  readonly imageBase: number;
  readonly sizeOfImage: number;
  readonly machine: number;
  readonly notes: Notes;
  /** Thunks read so far across all tables (pefile's __total_import_symbols). */
  symbolsRead: number;
  /**
   * Bytes of the import hash input written so far (termBytes): each DLL's terms are written as it is kept, the
   * delay-load table's after the import table's; -1 when a DLL's name cannot be written as ASCII, and the hashes
   * are then made from the lists (imphashPair).
   */
  terms: number;
}

/** pefile's PEFormatError inside the import walk: ends one descriptor's table, not the file (no stack trace: damaged files throw many). */
class ImportTableError {
  readonly what: string;
  constructor(what: string) {
    this.what = what;
  }
}

/** pefile's stand-in name for a DLL name with characters no file name has. */
const INVALID = '*invalid*';
const MAX_ADDRESS_SPREAD = 128 * 2 ** 20;
const MAX_REPEATED_ADDRESSES = 15;
const TWO_32 = 0x1_0000_0000;

/** Bytes pefile's is_valid_dos_filename and is_valid_function_name (strict, for imports) accept: 1 and 2 bits. */
const NAME_CHARS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (alnum) NAME_CHARS[c] = 3;
}
for (const c of "!#$%&'()-@^_`{}~+,.;=[]:\\/") NAME_CHARS[c.charCodeAt(0)]! |= 1;
for (const c of '._?@$()<>') NAME_CHARS[c.charCodeAt(0)]! |= 2;

/** NAME_CHARS's bit for pefile is_valid_dos_filename (DLL names). */
const DLL_NAME = 1;
/** NAME_CHARS's bit for pefile is_valid_function_name (strict set, for imports). */
const IMPORT_NAME = 2;

/**
 * A thunk array as read: per entry, AddressOfData as a number (exact below 2^53), its low 32 bits (where an
 * ordinal lives), whether the ordinal flag (bit 31 or bit 63) is set, and the entry's file offset (-1 where none).
 * Columns of typed arrays, two of them reused from file to file (the lookup and the address table of a descriptor).
 */
class ThunkTable {
  length = 0;
  value = new Float64Array(256);
  low = new Uint32Array(256);
  byOrdinal = new Uint8Array(256);
  offset = new Float64Array(256);

  push(value: number, byOrdinal: boolean, low: number, offset: number): void {
    const k = this.length;
    if (k === this.value.length) this.grow();
    this.value[k] = value;
    this.low[k] = low;
    this.byOrdinal[k] = byOrdinal ? 1 : 0;
    this.offset[k] = offset;
    this.length = k + 1;
  }

  private grow(): void {
    const n = 2 * this.value.length;
    const value = new Float64Array(n);
    value.set(this.value);
    const low = new Uint32Array(n);
    low.set(this.low);
    const byOrdinal = new Uint8Array(n);
    byOrdinal.set(this.byOrdinal);
    const offset = new Float64Array(n);
    offset.set(this.offset);
    this.value = value;
    this.low = low;
    this.byOrdinal = byOrdinal;
    this.offset = offset;
  }
}

const LOOKUP_TABLE = new ThunkTable();
const ADDRESS_TABLE = new ThunkTable();

/** pefile normalize_import_va: old delay-load descriptors hold VAs; make them RVAs when they fall inside the image. */
function normalizeVa(ctx: ImportContext, va: number): number {
  if (ctx.imageBase <= va && va < ctx.imageBase + ctx.sizeOfImage) return va - ctx.imageBase;
  return va;
}

/**
 * pefile get_import_table: the thunk array at `rva`, into `table`. Where pefile returns None (an unreadable entry)
 * or gives up on a bogus table, `table` is left empty (the caller treats both alike).
 */
function readThunks(ctx: ImportContext, rva: number, maxLength: number | null, containsAddresses: boolean, table: ThunkTable): void {
  table.length = 0;
  const { image, plus } = ctx;
  const size = plus ? 8 : 4;
  const bytes = image.r.bytes;
  // 32-bit addresses seen so far: a short list first (most tables are short), a Set once the list is long.
  const seen32: number[] = [];
  let seen32Set: Set<number> | null = null;
  /** Made when a 64-bit address first appears (rare). */
  let seen64: Set<number> | null = null;
  let min32 = Infinity;
  let max32 = -Infinity;
  let min64 = Infinity;
  let max64 = -Infinity;
  let repeated = 0;
  const start = rva;
  while (rva) {
    if (maxLength !== null && rva >= start + maxLength) {
      ctx.notes.add(`import table at RVA 0x${start.toString(16)} runs past its bounds`);
      break;
    }
    if (ctx.symbolsRead > LIMITS.maxImportSymbols) {
      ctx.notes.add(`more than ${LIMITS.maxImportSymbols} import thunks; the rest are not read`);
      break;
    }
    ctx.symbolsRead++;
    if (repeated >= MAX_REPEATED_ADDRESSES) return void (table.length = 0);
    if (max32 - min32 > MAX_ADDRESS_SPREAD || max64 - min64 > MAX_ADDRESS_SPREAD) return void (table.length = 0);
    if (!image.span(rva, size) || image.spanEnd - image.spanStart !== size) {
      ctx.notes.add(`import table entry at RVA 0x${rva.toString(16)} cannot be read`);
      return void (table.length = 0);
    }
    // The entry's `size` bytes lie in the file at `at`: read without further checks. `at` is also the entry's
    // file offset (tryOffset's answer for an RVA whose span is whole).
    const at = image.spanStart;
    const low = u32Le(bytes, at);
    const high = plus ? u32Le(bytes, at + 4) : 0;
    let value = high * TWO_32 + low;
    const allZero = low === 0 && high === 0;
    if (containsAddresses) value = normalizeVa(ctx, value);
    // A double cannot hold the low bits of a value at or above 2^53: keep the raw low word unless it was rebased.
    const lowNow = containsAddresses ? value % TWO_32 : low;
    const byOrdinal = plus ? value >= 2 ** 63 : (lowNow & 0x80000000) !== 0;
    if (start <= value && value <= rva) {
      ctx.notes.add(`import table at RVA 0x${start.toString(16)} points into itself`);
      break;
    }
    if (value !== 0) {
      if (byOrdinal) {
        // An ordinal beyond 16 bits is not an ordinal: pefile drops the whole table.
        if ((lowNow & 0x7fffffff) > 0xffff) return void (table.length = 0);
      } else if (value >= TWO_32) {
        seen64 ??= new Set<number>();
        if (seen64.has(value)) repeated++;
        seen64.add(value);
        min64 = Math.min(min64, value);
        max64 = Math.max(max64, value);
      } else {
        if (seen32Set !== null) {
          if (seen32Set.has(value)) repeated++;
          seen32Set.add(value);
        } else if (seen32.includes(value)) repeated++;
        else if (seen32.length < 32) seen32.push(value);
        else {
          seen32Set = new Set(seen32);
          seen32Set.add(value);
        }
        min32 = Math.min(min32, value);
        max32 = Math.max(max32, value);
      }
    }
    if (allZero) break;
    table.push(value, byOrdinal, lowNow >>> 0, at);
    rva += size;
  }
}

/** The little-endian 32-bit value at `at`, which the caller has checked lies in `b`. */
function u32Le(b: Uint8Array, at: number): number {
  return ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16) | ((b[at + 3] as number) << 24)) >>> 0;
}

/** pefile parse_imports: the symbols of one descriptor, from the lookup table or, failing that, the address table. */
function readSymbols(
  ctx: ImportContext,
  lookupRva: number,
  iatRva: number,
  maxLength: number | null,
  containsAddresses: boolean,
  /** Not bound and not delay-loaded: on disk the address table should repeat the lookup table. */
  expectIatCopy: boolean,
): PeImportedSymbol[] {
  const { image } = ctx;
  const bytes = image.r.bytes;
  const ilt = LOOKUP_TABLE;
  const iat = ADDRESS_TABLE;
  readThunks(ctx, lookupRva, maxLength, containsAddresses, ilt);
  readThunks(ctx, iatRva, maxLength, containsAddresses, iat);
  if (ilt.length === 0 && iat.length === 0) {
    ctx.notes.add(`damaged import table: lookup table 0x${lookupRva.toString(16)} and address table 0x${iatRva.toString(16)} are both unreadable`);
    return [];
  }
  const table = ilt.length > 0 ? ilt : iat;
  if (expectIatCopy && ilt.length > 0) {
    let differs = iat.length < ilt.length;
    for (let i = 0; i < ilt.length && !differs; i++) differs = iat.value[i] !== ilt.value[i];
    if (differs) ctx.notes.add(`import address table at RVA 0x${iatRva.toString(16)} differs from its lookup table in an unbound file; the lookup table is used`);
  }
  const entrySize = ctx.plus ? 8 : 4;
  const out: PeImportedSymbol[] = [];
  if (NAME_SPANS.length < 2 * table.length) NAME_SPANS = new Int32Array(2 * table.length);
  const spans = NAME_SPANS;
  let invalid = 0;
  for (let idx = 0; idx < table.length; idx++) {
    const value = table.value[idx] as number;
    const byOrdinal = table.byOrdinal[idx] === 1;
    let ordinal: number | null = null;
    let hasName = false;
    let nameStart = 0;
    let nameEnd = 0;
    let hint: number | null = null;
    let invalidName = false;
    if (value !== 0) {
      if (byOrdinal) ordinal = (table.low[idx] as number) & 0xffff;
      else {
        // pefile reads the hint (which may be cut short), then the name (empty when nothing is there), then
        // requires the name's RVA to map; where a read fails, what was read so far stands. The hint's RVA is
        // AddressOfData without the ordinal flag (pefile: value % 2^63, or % 2^31), which is clear here: the
        // value itself.
        if (image.span(value, 2)) {
          hint = image.spanEnd - image.spanStart === 2 ? (u16At(bytes, image.spanStart) as number) : null;
          hasName = true;
          if (image.nameSpan(value + 2, LIMITS.maxName, NAME_CHARS, IMPORT_NAME)) {
            nameStart = image.spanStart;
            nameEnd = image.spanEnd;
          } else invalidName = true;
        }
      }
    }
    if (ordinal === null && !hasName) throw new ImportTableError('invalid entries');
    if (invalidName) {
      // Interleaved junk entries are skipped; a table of nothing but junk is abandoned.
      if (invalid > 1000 && invalid === idx) throw new ImportTableError('too many invalid names');
      invalid++;
      continue;
    }
    if ((ordinal !== null && ordinal !== 0) || nameEnd > nameStart) {
      const k = 2 * out.length;
      spans[k] = hasName ? nameStart : -1;
      spans[k + 1] = nameEnd;
      out.push({
        name: hasName ? image.r.latin1(nameStart, nameEnd) : null,
        ordinal,
        ordinal_name: null,
        hint,
        by_ordinal: byOrdinal,
        iat_rva: iatRva + idx * entrySize,
        thunk_offset: table.offset[idx] as number,
      });
    }
  }
  return out;
}

/**
 * Where the names of the symbols readSymbols returned last lie in the file: (start, end) per symbol, start -1 for
 * an import by ordinal (reused from call to call).
 */
let NAME_SPANS = new Int32Array(512);

/** Whether the `length` bytes of `b` from `at` are all zero. */
function allZeroAt(b: Uint8Array, at: number, length: number): boolean {
  for (let i = at; i < at + length; i++) if (b[i] !== 0) return false;
  return true;
}

/** pefile parse_import_directory and parse_delay_import_directory. */
export function readImportDirectory(ctx: ImportContext, rva: number, delay: boolean): PeImportedDll[] {
  const { image, notes } = ctx;
  const what = delay ? 'delay-load import' : 'import';
  const descriptorSize = delay ? 32 : 20;
  const out: PeImportedDll[] = [];
  let errors = 0;
  for (let n = 0; ; n++) {
    if (n >= LIMITS.maxImportDescriptors) {
      notes.add(`more than ${LIMITS.maxImportDescriptors} ${what} descriptors; the rest are not read`);
      break;
    }
    // The descriptor's bytes are read where they lie (no view made per descriptor).
    if (!image.span(rva, descriptorSize)) {
      notes.add(`${what} directory at RVA 0x${rva.toString(16)} does not map into the file`);
      break;
    }
    const raw = image.spanStart;
    if (image.spanEnd - raw < descriptorSize) {
      notes.add(`${what} descriptor at RVA 0x${rva.toString(16)} is cut short`);
      break;
    }
    const bytes = image.r.bytes;
    if (allZeroAt(bytes, raw, descriptorSize)) {
      if (n === 0) notes.add(`${what} directory at RVA 0x${rva.toString(16)} holds no descriptors`);
      break;
    }
    const descriptorOffset = image.tryOffset(rva) ?? -1;
    let lookup: number;
    let iat: number;
    let nameRva: number;
    let containsAddresses = false;
    let bound = false;
    if (delay) {
      const attributes = u32At(bytes, raw) as number;
      nameRva = u32At(bytes, raw + 4) as number;
      iat = u32At(bytes, raw + 12) as number;
      lookup = u32At(bytes, raw + 16) as number;
      // Descriptors from before Visual C++ 6 hold VAs rather than RVAs (32-bit only).
      if (attributes === 0 && ctx.machine === 0x14c) {
        iat = normalizeVa(ctx, iat);
        lookup = normalizeVa(ctx, lookup);
        nameRva = normalizeVa(ctx, nameRva);
        containsAddresses = true;
      }
    } else {
      lookup = u32At(bytes, raw) as number;
      nameRva = u32At(bytes, raw + 12) as number;
      iat = u32At(bytes, raw + 16) as number;
      bound = (u32At(bytes, raw + 4) as number) !== 0;
    }
    rva += descriptorSize;
    let maxLength = image.r.length - descriptorOffset;
    if (rva > lookup || rva > iat) maxLength = Math.max(rva - lookup, rva - iat);
    let symbols: PeImportedSymbol[] = [];
    try {
      symbols = readSymbols(ctx, lookup, iat, maxLength, containsAddresses, !delay && !bound);
    } catch (e) {
      if (!(e instanceof ImportTableError)) throw e;
      notes.add(`invalid ${what} data for the descriptor ending at RVA 0x${rva.toString(16)}`);
    }
    if (errors > 5) {
      notes.add(`too many errors in the ${what} directory; the rest is not read`);
      break;
    }
    if (symbols.length === 0) {
      errors++;
      continue;
    }
    if (delay && ctx.symbolsRead > LIMITS.maxImportSymbols) {
      notes.add(`more than ${LIMITS.maxImportSymbols} import thunks; the rest are not read`);
      break;
    }
    let dllName = INVALID;
    if (image.nameSpan(nameRva, LIMITS.maxName, NAME_CHARS, DLL_NAME)) dllName = image.r.latin1(image.spanStart, image.spanEnd);
    else notes.add(`${what} descriptor at file offset ${descriptorOffset} names its DLL with invalid characters`);
    if (dllName.length === 0) continue;
    const table = ordinalTable(lowerDllName(dllName));
    if (table !== undefined) {
      // The symbols are this walk's own objects: an ordinal's name is written into them.
      for (let k = 0; k < symbols.length; k++) {
        const sym = symbols[k] as Mutable<PeImportedSymbol>;
        if (sym.name === null && sym.ordinal !== null) sym.ordinal_name = table.get(sym.ordinal) ?? `ord${sym.ordinal}`;
      }
    }
    out.push({ dll: dllName, descriptor_offset: descriptorOffset, symbols });
    if (ctx.terms >= 0) ctx.terms = writeDllTerms(image.r.bytes, dllName, symbols, ctx.terms);
  }
  return out;
}

/** The bound import directory: DLLs whose addresses were resolved at link time, with their forwarder references. */
export function readBoundImports(image: PeImage, rva: number, notes: Notes): PeBoundImport[] {
  const out: PeBoundImport[] = [];
  const start = rva;
  let at = rva;
  try {
    for (let n = 0; n < LIMITS.maxBoundImports; n++) {
      const d = image.exact(at, 8);
      if (isAllZero(d)) return out;
      const timestamp = u32At(d, 0) as number;
      const nameOffset = u16At(d, 4) as number;
      const refs = u16At(d, 6) as number;
      at += 8;
      const forwarders: { dll: string; timestamp: number }[] = [];
      for (let k = 0; k < refs && forwarders.length < LIMITS.maxBoundImports; k++) {
        const f = image.exact(at, 8);
        forwarders.push({ dll: image.latin1At(start + (u16At(f, 4) as number), LIMITS.maxName), timestamp: u32At(f, 0) as number });
        at += 8;
      }
      out.push({ dll: image.latin1At(start + nameOffset, LIMITS.maxName), timestamp, forwarders });
    }
    notes.add(`more than ${LIMITS.maxBoundImports} bound import descriptors; the rest are not read`);
  } catch (e) {
    if (!(e instanceof PeRangeError)) throw e;
    notes.add(`bound import directory at RVA 0x${start.toString(16)} is cut short`);
  }
  return out;
}

const EXTENSIONS = new Set(['ocx', 'sys', 'dll']);

/** pefile's frozen imphash ordinal tables: ws2_32 (also for wsock32) and oleaut32. */
function ordinalTable(dllLower: string): ReadonlyMap<number, string> | undefined {
  return dllLower === 'ws2_32.dll' || dllLower === 'wsock32.dll' ? WS2_32_ORDINALS : dllLower === 'oleaut32.dll' ? OLEAUT32_ORDINALS : undefined;
}

/** The name the import hash uses for an ordinal import: the table's name, else `ordN`. */
function ordinalName(dllLower: string, ordinal: number): string {
  return ordinalTable(dllLower)?.get(ordinal) ?? `ord${ordinal}`;
}

/** The `lib.func` terms of the import hash, in table order. */
export function imphashTerms(dlls: readonly PeImportedDll[]): string[] {
  const parts = termParts(dlls);
  const terms: string[] = [];
  for (let k = 0; k < parts.length; k += 2) terms.push(`${parts[k] as string}${asciiLower(parts[k + 1] as string)}`);
  return terms;
}

/**
 * The hash's terms in order, as pairs in one flat list: the library with its dot (lower case), then the function
 * as the file spells it (its own name, or its ordinal's from pefile's tables, else ordN; symbols with neither are
 * left out).
 */
function termParts(dlls: readonly PeImportedDll[]): string[] {
  const parts: string[] = [];
  for (const entry of dlls) {
    const lower = asciiLower(entry.dll);
    // pefile drops a .ocx, .sys or .dll extension.
    const dot = lower.lastIndexOf('.');
    const libDot = `${dot >= 0 && EXTENSIONS.has(lower.slice(dot + 1)) ? lower.slice(0, dot) : lower}.`;
    for (const sym of entry.symbols) {
      const func = sym.name !== null && sym.name !== '' ? sym.name : sym.ordinal !== null ? ordinalName(lower, sym.ordinal) : '';
      if (func !== '') parts.push(libDot, func);
    }
  }
  return parts;
}

/**
 * imphashTerms(dlls).join(','), made as one text lowered once: lowering ASCII text in one piece or term by term is
 * the same (a text with other characters is made term by term, where lowering can depend on the neighbours).
 */
function imphashText(dlls: readonly PeImportedDll[]): string {
  const parts = termParts(dlls);
  let text = '';
  for (let k = 0; k < parts.length; k += 2) text = k === 0 ? `${parts[0] as string}${parts[1] as string}` : `${text},${parts[k] as string}${parts[k + 1] as string}`;
  return NON_ASCII.test(text) ? imphashTerms(dlls).join(',') : asciiLower(text);
}

/** pefile get_imphash(): MD5 of the comma-joined terms; '' when the file imports nothing. */
export function imphash(dlls: readonly PeImportedDll[]): string {
  if (dlls.length === 0) return '';
  return md5Text(imphashText(dlls));
}

/** imphash(imports) and imphash([...imports, ...delayImports]), with the import terms written once. */
export function imphashPair(imports: readonly PeImportedDll[], delayImports: readonly PeImportedDll[]): { plain: string; withDelay: string } {
  // The hash input is written as bytes into one reused buffer: the import terms, then the delay-load terms after
  // them, so the two hashes read two lengths of the same bytes.
  const plainEnd = writeTerms(imports, 0);
  const end = plainEnd < 0 ? -1 : writeTerms(delayImports, plainEnd);
  if (end < 0) return imphashPairOfText(imports, delayImports);
  const plain = imports.length === 0 ? '' : hash('md5', new Uint8Array(termBytes.buffer, 0, plainEnd), 'hex');
  if (delayImports.length === 0) return { plain, withDelay: plain };
  return { plain, withDelay: hash('md5', new Uint8Array(termBytes.buffer, 0, end), 'hex') };
}

/** imphashPair made from texts: for names with characters above 0x7f, which writeTerms leaves to it. */
function imphashPairOfText(imports: readonly PeImportedDll[], delayImports: readonly PeImportedDll[]): { plain: string; withDelay: string } {
  const text = imphashText(imports);
  const plain = imports.length === 0 ? '' : md5Text(text);
  if (delayImports.length === 0) return { plain, withDelay: plain };
  // Every term holds a dot, so a list's text is empty only when the list is.
  const delayText = imphashText(delayImports);
  return { plain, withDelay: md5Text(text === '' ? delayText : delayText === '' ? text : `${text},${delayText}`) };
}

/** The imphash input of the file being hashed (reused from file to file; grown when a file needs more). */
let termBytes = new Uint8Array(1 << 16);

/** termBytes with room for `need` bytes, the first `keep` kept. */
function termRoom(need: number, keep: number): Uint8Array {
  if (need > termBytes.length) {
    const grown = new Uint8Array(Math.max(need, 2 * termBytes.length));
    grown.set(termBytes.subarray(0, keep));
    termBytes = grown;
  }
  return termBytes;
}

/** ASCII letters lowered, every other byte as it is (Python's bytes.lower()). */
const LOWER = new Uint8Array(256);
for (let c = 0; c < 256; c++) LOWER[c] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;

/**
 * Writes the terms of one DLL just read into termBytes from `at` (as writeTerms would write them for it): the
 * library prefix once from its text, then copied within the buffer for each further term; a function's name
 * lowered straight from the file's bytes (NAME_SPANS), an ordinal's from its text. Returns the end, or -1 when the
 * DLL's name has a character above 0x7f (the names readImportDirectory keeps never do: it takes only the
 * characters pefile's checks allow, else INVALID).
 */
function writeDllTerms(bytes: Uint8Array, dll: string, symbols: readonly PeImportedSymbol[], at: number): number {
  const libDot = libPrefix(dll);
  if (libDot === null) return -1;
  const prefix = libDot.prefix;
  const prefixLength = prefix.length;
  const spans = NAME_SPANS;
  let pos = at;
  let prefixAt = -1;
  for (let k = 0; k < symbols.length; k++) {
    const start = spans[2 * k] as number;
    const end = spans[2 * k + 1] as number;
    // An ordinal's name from the frozen tables is the one readImportDirectory gave the symbol; without one, ordN.
    const ordinalText = start < 0 ? (symbols[k] as PeImportedSymbol).ordinal_name : null;
    const out = termRoom(pos + 1 + prefixLength + (start >= 0 ? end - start : ordinalText === null ? ORD_TERM_ROOM : ordinalText.length), pos);
    if (pos > 0) out[pos++] = 0x2c;
    if (prefixAt < 0) {
      prefixAt = pos;
      for (let i = 0; i < prefixLength; i++) out[pos++] = prefix.charCodeAt(i);
    } else {
      for (let i = prefixAt; i < prefixAt + prefixLength; i++) out[pos++] = out[i] as number;
    }
    if (ordinalText !== null) {
      for (let i = 0; i < ordinalText.length; i++) out[pos++] = LOWER[ordinalText.charCodeAt(i)] as number;
    } else if (start < 0) {
      pos = writeOrd(out, pos, (symbols[k] as PeImportedSymbol).ordinal as number);
    } else {
      for (let i = start; i < end; i++) out[pos++] = LOWER[bytes[i] as number] as number;
    }
  }
  return pos;
}

/** Bytes an `ordN` term's function part may take (N is 16 bits). */
const ORD_TERM_ROOM = 8;

/** Writes `ord` and the ordinal's decimal digits (the ordinal, 1 to 65535, as `ord${n}` spells it) at `pos`; returns the end. */
function writeOrd(out: Uint8Array, pos: number, ordinal: number): number {
  out[pos] = 0x6f;
  out[pos + 1] = 0x72;
  out[pos + 2] = 0x64;
  let digits = 1;
  for (let n = ordinal; n >= 10; n = Math.floor(n / 10)) digits++;
  const end = pos + 3 + digits;
  let n = ordinal;
  for (let i = end - 1; i >= pos + 3; i--) {
    out[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return end;
}

/**
 * dissect's import hashes, from the terms readImportDirectory wrote (ctx.terms; the import table's end at
 * `plainEnd`): the same as imphashPair(imports, delayImports), which makes them where the terms could not be written.
 */
export function importHashes(ctx: ImportContext, imports: readonly PeImportedDll[], delayImports: readonly PeImportedDll[], plainEnd: number): { plain: string; withDelay: string } {
  if (ctx.terms < 0) return imphashPair(imports, delayImports);
  const plain = imports.length === 0 ? '' : hash('md5', new Uint8Array(termBytes.buffer, 0, plainEnd), 'hex');
  if (delayImports.length === 0) return { plain, withDelay: plain };
  return { plain, withDelay: hash('md5', new Uint8Array(termBytes.buffer, 0, ctx.terms), 'hex') };
}

/**
 * Writes the `lib.func` terms of `dlls` as lower-case ASCII bytes into termBytes from `at` (a comma before each
 * term but the buffer's first) and returns where they end; -1 when a name has a character above 0x7f (such text is
 * lowered term by term, see imphashText).
 */
function writeTerms(dlls: readonly PeImportedDll[], at: number): number {
  let pos = at;
  for (const entry of dlls) {
    const libDot = libPrefix(entry.dll);
    if (libDot === null) return -1;
    const lower = libDot.lower;
    for (const sym of entry.symbols) {
      const func = sym.name !== null && sym.name !== '' ? sym.name : sym.ordinal !== null ? ordinalName(lower, sym.ordinal) : '';
      if (func === '') continue;
      const out = termRoom(pos + 1 + libDot.prefix.length + func.length, pos);
      if (pos > 0) out[pos++] = 0x2c;
      const prefix = libDot.prefix;
      for (let i = 0; i < prefix.length; i++) out[pos++] = prefix.charCodeAt(i);
      for (let i = 0; i < func.length; i++) {
        const c = func.charCodeAt(i);
        if (c > 0x7f) return -1;
        out[pos++] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
      }
    }
  }
  return pos;
}

/** A DLL name lowered, and the library part of its terms (lowered, extension dropped, with its dot). */
interface LibPrefix {
  readonly lower: string;
  readonly prefix: string;
}

/** libPrefix's answers by DLL name: files import from the same few hundred DLLs (the cache stops growing at a bound). */
const LIB_PREFIXES = new Map<string, LibPrefix | null>();

/** The term prefix of a DLL name, or null when the name has a character above 0x7f. */
function libPrefix(dll: string): LibPrefix | null {
  let p = LIB_PREFIXES.get(dll);
  if (p !== undefined) return p;
  p = null;
  if (!NON_ASCII.test(dll)) {
    const lower = lowerDllName(dll);
    // pefile drops a .ocx, .sys or .dll extension.
    const dot = lower.lastIndexOf('.');
    p = { lower, prefix: `${dot >= 0 && EXTENSIONS.has(lower.slice(dot + 1)) ? lower.slice(0, dot) : lower}.` };
  }
  if (LIB_PREFIXES.size < 4096) LIB_PREFIXES.set(dll, p);
  return p;
}

function md5Text(text: string): string {
  // One-shot hashing (no Hash object per file); a string is hashed as UTF-8, which is its Latin-1 bytes only when
  // it is ASCII, as every name that passed pefile's checks is.
  return hash('md5', NON_ASCII.test(text) ? Buffer.from(text, 'latin1') : text, 'hex');
}

/** A character above 0x7f: UTF-8 would encode it differently from Latin-1. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Python's bytes.lower() lowers ASCII letters only. Every name reaching the hash passed pefile's character
 * checks (ASCII only), where toLowerCase() does the same, and faster.
 */
function asciiLower(s: string): string {
  return s.toLowerCase();
}

/** DLL names lowered, by name: the same few hundred names recur from file to file (the cache stops growing at a bound). */
const LOWER_DLL_NAMES = new Map<string, string>();

/** asciiLower of a DLL name, cached. */
export function lowerDllName(dll: string): string {
  let lower = LOWER_DLL_NAMES.get(dll);
  if (lower === undefined) {
    lower = asciiLower(dll);
    if (LOWER_DLL_NAMES.size < 4096) LOWER_DLL_NAMES.set(dll, lower);
  }
  return lower;
}
