// DOS, NT, file and optional headers, data directories and the section table: the part of a PE without which it is not one.
import { VitrineError } from '../../core/errors.js';
import * as bytescanModule from '../bytescan.js';
import type { WordSum } from '../bytescan.js';
import * as constantsModule from './constants.js';
import * as imageModule from './image.js';
import { type ByteReader, PeImage, type SectionRecord } from './image.js';
import type { Mutable, PeDataDirectory, PeDosHeader, PeFileHeader, PeOptionalHeader, PeSection } from './types.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { sumOfWords } = bytescanModule;
const { DIRECTORY_NAMES, MACHINE_NAMES, SUBSYSTEM_NAMES, dllFlagNames, fileFlagNames, sectionFlagNames } = constantsModule;
const { LIMITS, hex64Of, u32At } = imageModule;

/** Notes about damaged structures, capped so a hostile file cannot grow them without bound. */
export class Notes {
  readonly list: string[] = [];
  private dropped = 0;

  add(note: string): void {
    if (this.list.length < LIMITS.maxNotes) this.list.push(note);
    else this.dropped++;
  }

  done(): string[] {
    return this.dropped > 0 ? [...this.list, `${this.dropped} further notes omitted`] : this.list;
  }
}

export interface RawDirectory {
  readonly virtualAddress: number;
  readonly size: number;
}

export interface ParsedHeaders {
  readonly image: PeImage;
  readonly format: 'PE32' | 'PE32+';
  readonly dos: PeDosHeader;
  readonly fileHeader: PeFileHeader;
  readonly optional: PeOptionalHeader;
  readonly optionalOffset: number;
  /** Raw data directory entries, at most 16, as pefile reads them. */
  readonly directories: readonly RawDirectory[];
  /** Sections in table order, with entropy. */
  readonly sections: readonly PeSection[];
  readonly imageBase: number;
  readonly sizeOfImage: number;
  readonly entryPoint: number;
}

const IMAGE_DOS_SIGNATURE = 0x5a4d;
const IMAGE_NT_SIGNATURE = 0x00004550;
const OPTIONAL_MAGIC_PE32 = 0x10b;
const OPTIONAL_MAGIC_PE32_PLUS = 0x20b;
const SECTION_HEADER_SIZE = 40;
/** pefile's smallest optional header it will pad with zeros (solardesigner's tiny PE findings). */
const MIN_OPTIONAL_HEADER = 69;

function notPe(reason: string): VitrineError {
  return new VitrineError('parse_error', `not a PE file: ${reason}`);
}

/**
 * The optional header's bytes, zero-padded to its structure's size (96 or 112 bytes; reused across calls). Every
 * field read from it lies inside those 112 bytes, so the reads below need no bounds checks: fewer calls for V8 to run
 * and compile on a first pass over many files.
 */
const OPTIONAL_COPY = new Uint8Array(112);

/** Copies the optional header's `present` bytes at `offset` into OPTIONAL_COPY, zero-padded. */
function optionalHeaderCopy(r: ByteReader, offset: number, present: number): void {
  OPTIONAL_COPY.fill(0);
  OPTIONAL_COPY.set(r.bytes.subarray(offset, offset + present));
}

function ou8(k: number): number {
  return OPTIONAL_COPY[k] as number;
}

function ou16(k: number): number {
  return (OPTIONAL_COPY[k] as number) | ((OPTIONAL_COPY[k + 1] as number) << 8);
}

function ou32(k: number): number {
  return ((OPTIONAL_COPY[k] as number) | ((OPTIONAL_COPY[k + 1] as number) << 8) | ((OPTIONAL_COPY[k + 2] as number) << 16) | ((OPTIONAL_COPY[k + 3] as number) << 24)) >>> 0;
}

/** A 64-bit field of PE32+ or the 32-bit one of PE32, as exact lower-case hex. */
function sizeHex(plus: boolean, k: number): string {
  return plus ? hex64Of(ou32(k + 4), ou32(k)) : `0x${ou32(k).toString(16)}`;
}

/** Reads every header; throws parse_error when the bytes are not a PE, notes anything damaged after that. */
export function parseHeaders(r: ByteReader, notes: Notes): ParsedHeaders {
  if (r.length < 64) throw notPe('too short for a DOS header');
  const eMagic = r.u16(0);
  if (eMagic !== IMAGE_DOS_SIGNATURE) throw notPe('no MZ signature');
  const eLfanew = r.u32(0x3c);
  if (eLfanew > r.length) throw notPe('the NT header offset lies past the end of the file');
  if (!r.has(eLfanew, 4)) throw notPe('no NT headers');
  const signature = r.u32(eLfanew);
  if (signature === 0) throw notPe('no NT headers');
  const sig16 = signature & 0xffff;
  if (sig16 === 0x454e || sig16 === 0x454c || sig16 === 0x584c) throw notPe('an NE/LE/LX executable, not PE');
  if (signature !== IMAGE_NT_SIGNATURE) throw notPe('no PE signature');
  const fh = eLfanew + 4;
  if (!r.has(fh, 20)) throw notPe('the file header is cut short');

  const machine = r.u16(fh);
  const numberOfSections = r.u16(fh + 2);
  const sizeOfOptionalHeader = r.u16(fh + 16);
  const characteristics = r.u16(fh + 18);
  const fileHeader: PeFileHeader = {
    machine,
    machine_name: MACHINE_NAMES.get(machine) ?? 'UNKNOWN',
    number_of_sections: numberOfSections,
    timestamp: r.u32(fh + 4),
    pointer_to_symbol_table: r.u32(fh + 8),
    number_of_symbols: r.u32(fh + 12),
    size_of_optional_header: sizeOfOptionalHeader,
    characteristics,
    flags: fileFlagNames(characteristics),
  };

  // The optional header may be shorter than its structure (tiny PEs rely on the loader's zeroed page):
  // like pefile, read what is there and pad with zeros, as long as the fields up to Subsystem exist.
  const oh = fh + 20;
  const available = Math.max(0, Math.min(r.length - oh, 0x200));
  const magicGuess = available >= 2 ? r.u16(oh) : 0;
  const structSize = magicGuess === OPTIONAL_MAGIC_PE32_PLUS ? 112 : 96;
  const minimum = magicGuess === OPTIONAL_MAGIC_PE32_PLUS ? MIN_OPTIONAL_HEADER + 4 : MIN_OPTIONAL_HEADER;
  if (available < structSize && available < minimum) throw notPe('no optional header');
  const truncated = available < structSize;
  // Read through a reused zero-padded copy (the optional header is done with before this call returns).
  optionalHeaderCopy(r, oh, Math.min(available, structSize));
  if (truncated) notes.add(`optional header cut short at file offset ${oh}; read as zero-padded`);
  const magic = ou16(0);
  const plus = magic === OPTIONAL_MAGIC_PE32_PLUS;
  if (magic !== OPTIONAL_MAGIC_PE32 && !plus) notes.add(`unknown optional header magic 0x${magic.toString(16)}; read as PE32`);

  const imageBaseHex = plus ? hex64Of(ou32(28), ou32(24)) : `0x${ou32(28).toString(16)}`;
  const w = plus ? 8 : 4;
  const stackBase = 72;
  const tail = plus ? 104 : 88;
  const numberOfRvaAndSizes = ou32(tail + 4);
  const sectionAlignment = ou32(32);
  const fileAlignment = ou32(36);
  const subsystem = ou16(68);
  const dllCharacteristics = ou16(70);
  const optional: PeOptionalHeader = {
    magic,
    linker_version: `${ou8(2)}.${ou8(3)}`,
    size_of_code: ou32(4),
    size_of_initialized_data: ou32(8),
    size_of_uninitialized_data: ou32(12),
    address_of_entry_point: ou32(16),
    base_of_code: ou32(20),
    base_of_data: plus ? null : ou32(24),
    image_base: imageBaseHex,
    section_alignment: sectionAlignment,
    file_alignment: fileAlignment,
    os_version: `${ou16(40)}.${ou16(42)}`,
    image_version: `${ou16(44)}.${ou16(46)}`,
    subsystem_version: `${ou16(48)}.${ou16(50)}`,
    win32_version_value: ou32(52),
    size_of_image: ou32(56),
    size_of_headers: ou32(60),
    checksum: ou32(64),
    // Set by dissect from its pass over the bytes (peChecksum).
    checksum_computed: 0,
    subsystem,
    subsystem_name: SUBSYSTEM_NAMES.get(subsystem) ?? 'UNKNOWN',
    dll_characteristics: dllCharacteristics,
    dll_characteristics_flags: dllFlagNames(dllCharacteristics),
    size_of_stack_reserve: sizeHex(plus, stackBase),
    size_of_stack_commit: sizeHex(plus, stackBase + w),
    size_of_heap_reserve: sizeHex(plus, stackBase + 2 * w),
    size_of_heap_commit: sizeHex(plus, stackBase + 3 * w),
    loader_flags: ou32(tail),
    number_of_rva_and_sizes: numberOfRvaAndSizes,
    truncated,
  };
  const imageBase = plus ? ou32(28) * 0x1_0000_0000 + ou32(24) : ou32(28);
  if (optional.address_of_entry_point < optional.size_of_headers) {
    notes.add('AddressOfEntryPoint is below SizeOfHeaders: this file cannot run under Windows 8 and later');
  }

  const directories = readDirectories(r, notes, oh, structSize, sizeOfOptionalHeader, numberOfRvaAndSizes);

  const sectionTable = oh + sizeOfOptionalHeader;
  const records = readSectionTable(r, notes, sectionTable, numberOfSections, fileAlignment, sectionAlignment);
  const tableOrder = records.slice();
  // pefile keeps sections sorted by VirtualAddress (a stable sort) and resolves RVAs in that order. An insertion sort:
  // tables are short and mostly in order already, where Array.prototype.sort's set-up costs more than the sorting.
  for (let i = 1; i < records.length; i++) {
    const s = records[i] as SectionRecord;
    let j = i;
    while (j > 0 && (records[j - 1] as SectionRecord).virtualAddress > s.virtualAddress) {
      records[j] = records[j - 1] as SectionRecord;
      j--;
    }
    records[j] = s;
  }
  const image = new PeImage(r, fileAlignment, sectionAlignment, records);
  image.finishSections();

  const afterTable = numberOfSections > 0 && records.length > 0 ? sectionTable + SECTION_HEADER_SIZE * numberOfSections : sectionTable;
  // The lowest sector-rounded raw pointer of a section with one (0 when none has).
  let lowest = Infinity;
  for (let i = 0; i < records.length; i++) {
    const ptr = (records[i] as SectionRecord).pointerToRawData;
    if (ptr > 0) lowest = Math.min(lowest, PeImage.adjustPtr(ptr));
  }
  if (lowest === Infinity) lowest = 0;
  image.headerLength = Math.min(r.length, !lowest || lowest < afterTable ? afterTable : lowest);

  for (let i = 0; i < tableOrder.length; i++) {
    const s = tableOrder[i] as SectionRecord;
    if ((s.characteristics & 0x80000000) !== 0 && (s.characteristics & 0x20000000) !== 0) {
      notes.add(`section ${s.index} is both writable and executable`);
    }
  }

  const sections: PeSection[] = [];
  for (let i = 0; i < tableOrder.length; i++) {
    const s = tableOrder[i] as SectionRecord;
    const section: Mutable<PeSection> = {
      index: s.index,
      name: s.name,
      virtual_address: s.virtualAddress,
      virtual_size: s.virtualSize,
      raw_offset: s.pointerToRawData,
      raw_size: s.sizeOfRawData,
      characteristics: s.characteristics,
      flags: sectionFlagNames(s.characteristics),
      entropy: null,
    };
    image.requestSectionEntropy(section, s);
    sections.push(section);
  }

  return {
    image,
    format: plus ? 'PE32+' : 'PE32',
    dos: { e_magic: eMagic, e_cblp: r.u16(2), e_cp: r.u16(4), e_lfarlc: r.u16(0x18), e_lfanew: eLfanew },
    fileHeader,
    optional,
    optionalOffset: oh,
    directories,
    sections,
    imageBase,
    sizeOfImage: optional.size_of_image,
    entryPoint: optional.address_of_entry_point,
  };
}

/** The data directory array as pefile reads it, including its repair of a NumberOfRvaAndSizes that disagrees with SizeOfOptionalHeader. */
function readDirectories(
  r: ByteReader,
  notes: Notes,
  oh: number,
  structSize: number,
  sizeOfOptionalHeader: number,
  numberOfRvaAndSizes: number,
): RawDirectory[] {
  let count = numberOfRvaAndSizes & 0x7fffffff;
  if (numberOfRvaAndSizes > 0x10) notes.add(`NumberOfRvaAndSizes is ${numberOfRvaAndSizes}; normal values are at most 16`);
  const delta = Math.max(0, Math.floor((sizeOfOptionalHeader - (structSize + count * 8)) / 8));
  if (delta > 0 && delta <= 16 - count) {
    notes.add(`SizeOfOptionalHeader implies ${delta} more data directories than NumberOfRvaAndSizes states`);
    count += delta;
  }
  const out: RawDirectory[] = [];
  let offset = oh + structSize;
  const limit = oh + structSize + 16 * 8;
  for (let i = 0; i < count && i < 16; i++) {
    if (r.length - offset === 0) break;
    // A last entry cut short by the end of the file reads as zero-padded, as pefile pads it.
    out.push({ virtualAddress: r.u32Padded(offset), size: r.u32Padded(offset + 4) });
    offset += 8;
    if (offset >= limit) break;
  }
  return out;
}

function readSectionTable(
  r: ByteReader,
  notes: Notes,
  table: number,
  count: number,
  fileAlignment: number,
  sectionAlignment: number,
): SectionRecord[] {
  const records: SectionRecord[] = [];
  for (let i = 0; i < count; i++) {
    if (i >= LIMITS.maxSections) {
      notes.add(`too many sections (${count}); read the first ${LIMITS.maxSections}`);
      break;
    }
    const at = table + SECTION_HEADER_SIZE * i;
    // Read in place (no view per header): the header's bytes are those of r.slice(at, at + 40).
    const present = at >= r.length ? 0 : Math.min(SECTION_HEADER_SIZE, r.length - at);
    if (present === 0) {
      notes.add(`section ${i} lies past the end of the file`);
      break;
    }
    if (present < SECTION_HEADER_SIZE) {
      notes.add(`section ${i} header is cut short by the end of the file`);
      break;
    }
    const bytes = r.bytes;
    if (allZero(bytes, at, at + SECTION_HEADER_SIZE)) {
      notes.add(`section ${i} header is all zero bytes; the table ends there`);
      break;
    }
    const rec: SectionRecord = {
      index: i,
      name: sectionNameOf(r, at),
      virtualSize: u32In(bytes, at + 8),
      virtualAddress: u32In(bytes, at + 12),
      sizeOfRawData: u32In(bytes, at + 16),
      pointerToRawData: u32In(bytes, at + 20),
      characteristics: u32In(bytes, at + 36),
      vaAdj: 0,
      ptrAdj: 0,
      minRva: 0,
      maxRva: 0,
    };
    // pefile's rule: three simultaneous anomalies in one header end the table.
    let errors = 0;
    if (rec.sizeOfRawData + rec.pointerToRawData > r.length) {
      errors++;
      notes.add(`section ${i} raw data runs past the end of the file`);
    }
    if (PeImage.adjustPtr(rec.pointerToRawData) > r.length) {
      errors++;
      notes.add(`section ${i} raw data starts past the end of the file`);
    }
    if (rec.virtualSize > 0x10000000) {
      errors++;
      notes.add(`section ${i} virtual size is over 256 MiB`);
    }
    if (PeImage.adjustVaFor(rec.virtualAddress, fileAlignment, sectionAlignment) > 0x10000000) {
      errors++;
      notes.add(`section ${i} virtual address is beyond 0x10000000`);
    }
    if (fileAlignment !== 0 && rec.pointerToRawData % fileAlignment !== 0) {
      errors++;
      notes.add(`section ${i} raw data pointer is not a multiple of FileAlignment`);
    }
    if (fileAlignment >= 0x200 && rec.sizeOfRawData % fileAlignment !== 0) {
      notes.add(`section ${i} raw size is not a multiple of FileAlignment (a truncated or hand-made section)`);
    }
    if (errors >= 3) {
      notes.add(`too many anomalies in section ${i}; the section table is not read further`);
      break;
    }
    records.push(rec);
  }
  return records;
}

/** The unsigned little-endian 32-bit value at `at`, which the caller has checked lies inside `bytes`. */
function u32In(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24)) >>> 0;
}

/** Whether bytes [from, to) are all zero. */
function allZero(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (bytes[k] !== 0) return false;
  return true;
}

/** The 8-byte name field at `at` up to its trailing NULs, as Latin-1 text. */
function sectionNameOf(r: ByteReader, at: number): string {
  let end = at + 8;
  while (end > at && r.bytes[end - 1] === 0) end--;
  return r.latin1(at, end);
}

/** Directory entries with their names and the section holding each. */
export function describeDirectories(image: PeImage, directories: readonly RawDirectory[]): PeDataDirectory[] {
  const out: PeDataDirectory[] = [];
  for (let index = 0; index < directories.length; index++) {
    const d = directories[index] as RawDirectory;
    // The SECURITY entry holds a file offset, so no section "holds" it in RVA terms.
    let section: string | null = null;
    if (index !== 4 && d.virtualAddress !== 0) {
      const sections = image.sections;
      for (let k = 0; k < sections.length; k++) {
        const x = sections[k] as SectionRecord;
        if (x.minRva <= d.virtualAddress && d.virtualAddress < x.maxRva) {
          section = x.name;
          break;
        }
      }
    }
    out.push({ index, name: DIRECTORY_NAMES[index] ?? `RESERVED${index}`, virtual_address: d.virtualAddress, size: d.size, section });
  }
  return out;
}

/** x modulo 2^32 - 1, for x from 0 to 2^32 - 1. */
function reduced(x: number): number {
  return x === 0xffff_ffff ? 0 : x;
}

/**
 * The PE image checksum as pefile's generate_checksum computes it: dword sum with carries folded (a ones'
 * complement sum), the CheckSum dword skipped, plus the length. A folded sum is the plain sum modulo
 * 2^32 - 1 (written 2^32 - 1 rather than 0 once anything non-zero was added), so it is taken from the plain sum of
 * the whole dwords (`words`: from the pass over the bytes that dissect makes anyway, else one made here), with the
 * CheckSum dword taken off and the bytes after the last whole dword added.
 */
export function peChecksum(data: Uint8Array, checksumOffset: number, words: WordSum = sumOfWords(data)): number {
  const n = data.length;
  const whole = n >>> 2;
  const skip = Math.floor(checksumOffset / 4);
  const MOD = 0xffff_ffff;
  const skipped = skip < whole ? (u32At(data, 4 * skip) ?? 0) : 0;
  // high * 2^32 + low - skipped, modulo 2^32 - 1 (2^32 is 1 there); exact in doubles, every term being below 2^33.
  // Each term is at most 2^32 - 1, so a remainder is a subtraction or two (no floating-point modulo).
  let folded = reduced(words.high) + reduced(words.low) + (MOD - reduced(skipped));
  while (folded >= MOD) folded -= MOD;
  let any = words.high !== 0 || words.low !== skipped;
  if (n % 4 !== 0 && whole !== skip) {
    let last = 0;
    for (let k = n - 1; k >= whole * 4; k--) last = last * 256 + (data[k] as number);
    if (last !== 0) any = true;
    folded += last;
    if (folded >= MOD) folded -= MOD;
  }
  let sum = any && folded === 0 ? MOD : folded;
  sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  sum = sum + Math.floor(sum / 0x10000);
  return (sum & 0xffff) + n;
}
