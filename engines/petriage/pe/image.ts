// The loaded view of a PE file: bounds-checked reads, the section table, and RVA-to-offset mapping as pefile does it.

/**
 * A read that falls outside the file or the mapped image: callers turn it into a note, never a crash.
 * Not an Error subclass on purpose: damaged files throw many of these, and capturing a stack trace for
 * each would cost more than the parse.
 */
export class PeRangeError {
  readonly what: string;
  constructor(what: string) {
    this.what = what;
  }
}

/** Upper bounds that keep damaged files from costing unbounded time or memory (pefile's where it has one). */
export const LIMITS = {
  /** pefile MAX_STRING_LENGTH. */
  maxString: 0x100000,
  /** pefile MAX_DLL_LENGTH / MAX_IMPORT_NAME_LENGTH / MAX_SYMBOL_NAME_LENGTH. */
  maxName: 0x200,
  /** pefile MAX_SECTIONS. */
  maxSections: 0x800,
  /** pefile MAX_IMPORT_SYMBOLS: thunks read across import and delay-import tables. */
  maxImportSymbols: 0x2000,
  /** Import descriptors walked per directory. */
  maxImportDescriptors: 0x2000,
  /** pefile MAX_SYMBOL_EXPORT_COUNT. */
  maxExports: 0x2000,
  /** pefile's max_repeated_symbol default. */
  maxRepeatedExport: 120,
  /** pefile MAX_RESOURCE_DEPTH. */
  maxResourceDepth: 32,
  /** pefile MAX_RESOURCE_ENTRIES. */
  maxResourceEntries: 0x8000,
  /** Leaves listed in `resources.entries`. */
  maxResourceLeaves: 4096,
  maxTlsCallbacks: 256,
  maxDebugEntries: 64,
  maxBoundImports: 1024,
  maxCertificates: 64,
  maxNotes: 200,
  /** Characters read for one resource name (pefile reads up to 65,535). */
  maxResourceName: 1024,
  /** Version information blocks read (one per RT_VERSION language entry). */
  maxVersionBlocks: 16,
  /** Characters read for one version key; values are cut at maxVersionValue. */
  maxVersionKey: 1024,
  maxVersionValue: 8192,
} as const;

/** Files up to this size are decoded as Latin-1 once when a name is first read from them. */
const TEXT_CACHE_LIMIT = 4 * 1024 * 1024;

/** Little-endian, bounds-checked reads over untrusted bytes. */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly length: number;
  /** The bytes as a Buffer (for decoding), made on first use. */
  private buffer: Buffer | null = null;
  /** The whole file decoded as Latin-1 once, for files up to TEXT_CACHE_LIMIT: names are cut from it. */
  private text: string | null = null;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.length = bytes.length;
  }

  asBuffer(): Buffer {
    if (this.buffer === null) this.buffer = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    return this.buffer;
  }

  /** Bytes [start, end) of the file as Latin-1 text (one character per byte); the range must lie in the file. */
  latin1(start: number, end: number): string {
    if (end <= start) return '';
    const text = this.wholeLatin1();
    if (text !== undefined) return text.slice(start, end);
    return this.asBuffer().toString('latin1', start, end);
  }

  /** The whole file as Latin-1 text (decoded once, shared with latin1()), or undefined for files over TEXT_CACHE_LIMIT. */
  wholeLatin1(): string | undefined {
    if (this.length > TEXT_CACHE_LIMIT) return undefined;
    if (this.text === null) this.text = this.asBuffer().toString('latin1');
    return this.text;
  }

  /** Latin-1 text of a view into this file's bytes (or of any other bytes). */
  latin1Of(view: Uint8Array): string {
    const start = view.byteOffset - this.bytes.byteOffset;
    if (view.buffer === this.bytes.buffer && start >= 0 && start + view.length <= this.length) return this.latin1(start, start + view.length);
    return latin1(view);
  }

  /** Bytes [start, end) as UTF-16LE code units, kept as they are (lone surrogates too). */
  utf16(start: number, end: number): string {
    return end <= start ? '' : this.asBuffer().toString('utf16le', start, end);
  }

  has(offset: number, size: number): boolean {
    return Number.isInteger(offset) && offset >= 0 && size >= 0 && offset + size <= this.length;
  }

  private check(offset: number, size: number): void {
    if (!this.has(offset, size)) throw new PeRangeError('read past the end of the file');
  }

  // Reads assemble the bytes themselves (no DataView made per file).
  u8(offset: number): number {
    this.check(offset, 1);
    return this.bytes[offset] as number;
  }

  u16(offset: number): number {
    this.check(offset, 2);
    const b = this.bytes;
    return (b[offset] as number) | ((b[offset + 1] as number) << 8);
  }

  u32(offset: number): number {
    this.check(offset, 4);
    return u32Unchecked(this.bytes, offset);
  }

  /** A 64-bit value as a double: exact below 2^53, which covers every address a loader accepts. */
  u64(offset: number): number {
    this.check(offset, 8);
    return u32Unchecked(this.bytes, offset + 4) * 0x1_0000_0000 + u32Unchecked(this.bytes, offset);
  }

  /** The 64-bit value as exact lower-case hex. */
  hex64(offset: number): string {
    this.check(offset, 8);
    return hex64Of(u32Unchecked(this.bytes, offset + 4), u32Unchecked(this.bytes, offset));
  }

  /** The 32-bit value at `offset` with the bytes past the end of the file read as zeros (pefile pads a cut-short structure so). */
  u32Padded(offset: number): number {
    if (offset + 4 <= this.length) return u32Unchecked(this.bytes, offset);
    let v = 0;
    for (let k = 3; k >= 0; k--) v = v * 256 + (offset + k < this.length ? (this.bytes[offset + k] as number) : 0);
    return v;
  }

  /** Python-style slice: clamps to the file, empty when start is past the end. */
  slice(start: number, end?: number): Uint8Array {
    const s = Math.min(Math.max(0, start), this.length);
    const e = end === undefined ? this.length : Math.min(Math.max(s, end), this.length);
    return this.bytes.subarray(s, e);
  }
}

/** The 64-bit value hi * 2^32 + lo (two unsigned 32-bit halves) as exact lower-case hex, without a BigInt. */
export function hex64Of(hi: number, lo: number): string {
  return hi === 0 ? `0x${lo.toString(16)}` : `0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')}`;
}

/** The unsigned little-endian 32-bit value at `offset`, which the caller has checked lies inside `data`. */
function u32Unchecked(data: Uint8Array, offset: number): number {
  return ((data[offset] as number) | ((data[offset + 1] as number) << 8) | ((data[offset + 2] as number) << 16) | ((data[offset + 3] as number) << 24)) >>> 0;
}

/** Unsigned little-endian reads inside a byte array that may be shorter than asked: undefined when short. */
export function u16At(data: Uint8Array, offset: number): number | undefined {
  if (offset < 0 || offset + 2 > data.length) return undefined;
  return (data[offset] as number) | ((data[offset + 1] as number) << 8);
}

export function u32At(data: Uint8Array, offset: number): number | undefined {
  if (offset < 0 || offset + 4 > data.length) return undefined;
  return u32Unchecked(data, offset);
}

/** Bytes before the first NUL. */
export function cString(data: Uint8Array): Uint8Array {
  const end = data.indexOf(0);
  return end >= 0 ? data.subarray(0, end) : data;
}

/** Byte-preserving decoding (one character per byte), so names survive whatever their encoding. */
export function latin1(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
}

export function isAllZero(data: Uint8Array): boolean {
  for (let i = 0; i < data.length; i++) if (data[i] !== 0) return false;
  return true;
}

/** One section table entry plus the bounds pefile derives from it. */
export interface SectionRecord {
  readonly index: number;
  /** The name field up to its trailing NULs, as Latin-1 text. */
  readonly name: string;
  readonly virtualSize: number;
  readonly virtualAddress: number;
  readonly sizeOfRawData: number;
  readonly pointerToRawData: number;
  readonly characteristics: number;
  /** VirtualAddress rounded down to the section alignment (pefile's VirtualAddress_adj). */
  vaAdj: number;
  /** PointerToRawData rounded down to a 512-byte sector (pefile's PointerToRawData_adj). */
  ptrAdj: number;
  /** [minRva, maxRva) the section answers for (pefile's contains_rva). */
  minRva: number;
  maxRva: number;
}

/** The mapped image: resolves RVAs the way pefile resolves them, so our tables match its tables. */
export class PeImage {
  readonly r: ByteReader;
  readonly fileAlignment: number;
  readonly sectionAlignment: number;
  /** Sorted by VirtualAddress, as pefile keeps them. */
  readonly sections: SectionRecord[];
  /** Length of the header region (to the first section's data, or the end of the section table). */
  headerLength = 0;
  /**
   * Bytes that section and resource entropies may still read: overlapping sections or resources that all
   * claim the whole file would otherwise cost their count times the file size.
   */
  entropyBudget: number;
  entropyBudgetSpent = false;
  /** Granted entropy requests, three entries each: the target, the start and the end offset. */
  readonly entropyRequests: (number | { entropy: number | null })[] = [];
  private lastUsed: SectionRecord | undefined;

  constructor(r: ByteReader, fileAlignment: number, sectionAlignment: number, sections: SectionRecord[]) {
    this.r = r;
    this.fileAlignment = fileAlignment;
    this.sectionAlignment = sectionAlignment;
    this.sections = sections;
    this.entropyBudget = 4 * r.length + 0x100000;
  }

  /** Entropy of a range if the budget allows reading it, else null (and the caller notes it once). */
  /**
   * Asks for the entropy of file bytes [start, end) to be written into `target.entropy` once the bytes have been
   * scanned (dissect counts every range in its one pass over the file); past the budget it stays null and the
   * caller's note says so.
   */
  requestEntropy(target: { entropy: number | null }, start: number, end: number): void {
    const length = end - start;
    if (length > this.entropyBudget) {
      this.entropyBudgetSpent = true;
      return;
    }
    this.entropyBudget -= length;
    this.entropyRequests.push(target, start, end);
  }

  /** Entropy of a section's data (sectionData's bytes), within the budget: see requestEntropy. */
  requestSectionEntropy(target: { entropy: number | null }, s: SectionRecord): void {
    this.sectionSpan(s, undefined, undefined);
    this.requestEntropy(target, this.spanStart, this.spanEnd);
  }

  /** pefile adjust_SectionAlignment: below a page, the file alignment stands in for the section alignment. */
  adjustVa(va: number): number {
    return PeImage.adjustVaFor(va, this.fileAlignment, this.sectionAlignment);
  }

  /** adjustVa for an image with these alignments. */
  static adjustVaFor(va: number, fileAlignment: number, sectionAlignment: number): number {
    const align = sectionAlignment < 0x1000 ? fileAlignment : sectionAlignment;
    if (align && va % align) return align * Math.floor(va / align);
    return va;
  }

  /** pefile adjust_PointerToRawData: the loader rounds raw pointers down to a 512-byte sector. */
  static adjustPtr(ptr: number): number {
    return ptr - (ptr % 0x200);
  }

  /** Fills the derived bounds of every section; call once the list is sorted by VirtualAddress. */
  finishSections(): void {
    const fileLength = this.r.length;
    const sections = this.sections;
    for (let i = 0; i < sections.length; i++) {
      const s = sections[i] as SectionRecord;
      s.vaAdj = this.adjustVa(s.virtualAddress);
      let ptr = PeImage.adjustPtr(s.pointerToRawData);
      if (this.sectionAlignment < 0x1000 && s.pointerToRawData === s.virtualAddress) ptr = s.virtualAddress;
      s.ptrAdj = ptr;
      // A raw size running past the file is not trusted: the virtual size is used instead.
      let size = fileLength - s.ptrAdj < s.sizeOfRawData ? s.virtualSize : Math.max(s.sizeOfRawData, s.virtualSize);
      const next = sections[i + 1];
      if (next !== undefined && next.virtualAddress > s.virtualAddress && s.vaAdj + size > next.virtualAddress) {
        size = next.virtualAddress - s.vaAdj;
      }
      s.minRva = s.vaAdj;
      s.maxRva = s.vaAdj + size;
    }
  }

  sectionByRva(rva: number): SectionRecord | undefined {
    const last = this.lastUsed;
    if (last !== undefined && last.minRva <= rva && rva < last.maxRva) return last;
    // Indexed loops (not for...of) in the per-file paths: cheaper while the code still runs unoptimised.
    const sections = this.sections;
    for (let i = 0; i < sections.length; i++) {
      const s = sections[i] as SectionRecord;
      if (s.minRva <= rva && rva < s.maxRva) {
        this.lastUsed = s;
        return s;
      }
    }
    return undefined;
  }

  /** pefile get_offset_from_rva: outside every section an RVA below the file size is taken as an offset. */
  offsetFromRva(rva: number): number {
    const s = this.sectionByRva(rva);
    if (s === undefined) {
      if (rva < this.r.length) return rva;
      throw new PeRangeError('RVA maps outside the file');
    }
    return rva - s.vaAdj + s.ptrAdj;
  }

  /** Like offsetFromRva, but null instead of an exception. */
  tryOffset(rva: number): number | null {
    const s = this.sectionByRva(rva);
    if (s === undefined) return rva < this.r.length ? rva : null;
    return rva - s.vaAdj + s.ptrAdj;
  }

  /**
   * Where the last span() lies in the file: [spanStart, spanEnd). Spans let the readers below see bytes at an RVA
   * without making a view object for each read.
   */
  spanStart = 0;
  spanEnd = 0;

  /** Python-style clamping of [start, end) to the file, into spanStart/spanEnd (what ByteReader.slice keeps). */
  private clampSpan(start: number, end: number | undefined): void {
    const length = this.r.length;
    const s = Math.min(Math.max(0, start), length);
    this.spanStart = s;
    this.spanEnd = end === undefined ? length : Math.min(Math.max(s, end), length);
  }

  /** sectionData's range, into spanStart/spanEnd. */
  private sectionSpan(s: SectionRecord, rva: number | undefined, length: number | undefined): void {
    const offset = rva === undefined ? s.ptrAdj : rva - s.vaAdj + s.ptrAdj;
    let end = length === undefined ? offset + s.sizeOfRawData : offset + length;
    const rawEnd = s.pointerToRawData + s.sizeOfRawData;
    if (end > rawEnd) end = rawEnd;
    this.clampSpan(offset, end);
  }

  /** sectionData(s).length, without a view. */
  sectionLength(s: SectionRecord): number {
    this.sectionSpan(s, undefined, undefined);
    return this.spanEnd - this.spanStart;
  }

  /** Section data as pefile's SectionStructure.get_data returns it: never past the raw data. */
  sectionData(s: SectionRecord, rva?: number, length?: number): Uint8Array {
    this.sectionSpan(s, rva, length);
    return this.r.bytes.subarray(this.spanStart, this.spanEnd);
  }

  /** data()'s range into spanStart/spanEnd without a view; false (and nothing set) when the RVA maps nowhere. */
  span(rva: number, length?: number): boolean {
    const s = this.sectionByRva(rva);
    if (s === undefined) {
      const end = length === undefined ? undefined : rva + length;
      if (rva < this.headerLength) this.clampSpan(rva, end === undefined ? this.headerLength : Math.min(end, this.headerLength));
      else if (rva < this.r.length) this.clampSpan(rva, end);
      else return false;
      return true;
    }
    this.sectionSpan(s, rva, length);
    return true;
  }

  /** pefile get_data: bytes at an RVA, possibly fewer than asked; throws when the RVA maps nowhere. */
  data(rva: number, length?: number): Uint8Array {
    if (!this.span(rva, length)) throw new PeRangeError('RVA maps outside the file');
    return this.r.bytes.subarray(this.spanStart, this.spanEnd);
  }

  /** Exactly `length` bytes at an RVA, or a PeRangeError. */
  exact(rva: number, length: number): Uint8Array {
    const d = this.data(rva, length);
    if (d.length < length) throw new PeRangeError('structure cut short');
    return d;
  }

  /** File offset of exactly `length` bytes at an RVA (no view made), or a PeRangeError. */
  exactAt(rva: number, length: number): number {
    if (!this.span(rva, length)) throw new PeRangeError('RVA maps outside the file');
    if (this.spanEnd - this.spanStart < length) throw new PeRangeError('structure cut short');
    return this.spanStart;
  }

  u16(rva: number): number {
    const at = this.exactAt(rva, 2);
    const b = this.r.bytes;
    return (b[at] as number) | ((b[at + 1] as number) << 8);
  }

  u32(rva: number): number {
    const at = this.exactAt(rva, 4);
    const b = this.r.bytes;
    return ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16) | ((b[at + 3] as number) << 24)) >>> 0;
  }

  /** Where stringAt() looks for its NUL: up to `max` bytes at the RVA, into spanStart/spanEnd. */
  private stringBounds(rva: number, max: number): void {
    const s = this.sectionByRva(rva);
    if (s === undefined) this.clampSpan(rva, rva + max);
    else this.sectionSpan(s, rva, max);
  }

  /**
   * stringSpan() for a name whose every byte must be one `table` allows (`table[byte] & mask` non-zero), in the
   * same pass as the search for its NUL: true with the name in [spanStart, spanEnd); false at the first byte the
   * table refuses (the span is then not the name's).
   */
  nameSpan(rva: number, max: number, table: Uint8Array, mask: number): boolean {
    this.stringBounds(rva, max);
    const bytes = this.r.bytes;
    const end = this.spanEnd;
    for (let i = this.spanStart; i < end; i++) {
      const c = bytes[i] as number;
      if (c === 0) {
        this.spanEnd = i;
        return true;
      }
      if (((table[c] as number) & mask) === 0) return false;
    }
    return true;
  }

  /** stringAt()'s bytes as [spanStart, spanEnd), without a view. */
  stringSpan(rva: number, max: number = LIMITS.maxString): void {
    this.stringBounds(rva, max);
    const bytes = this.r.bytes;
    const end = this.spanEnd;
    for (let i = this.spanStart; i < end; i++) {
      if (bytes[i] === 0) {
        this.spanEnd = i;
        break;
      }
    }
  }

  /** pefile get_string_at_rva: bytes up to a NUL, at most `max`; empty when nothing is there. */
  stringAt(rva: number, max: number = LIMITS.maxString): Uint8Array {
    this.stringSpan(rva, max);
    return this.r.bytes.subarray(this.spanStart, this.spanEnd);
  }

  /** stringAt() as Latin-1 text. */
  latin1At(rva: number, max: number = LIMITS.maxString): string {
    this.stringSpan(rva, max);
    return this.r.latin1(this.spanStart, this.spanEnd);
  }

  /**
   * pefile get_string_u_at_rva: a UTF-16LE string up to an aligned NUL pair, at most `maxChars`
   * characters; throws when the RVA maps nowhere.
   */
  utf16At(rva: number, maxChars = 0x10000): string {
    if (maxChars === 0) return '';
    if (!this.span(rva, 2)) throw new PeRangeError('RVA maps outside the file');
    if (!this.span(rva, maxChars * 2)) throw new PeRangeError('RVA maps outside the file');
    const start = this.spanStart;
    const bytes = this.r.bytes;
    let end = start + ((this.spanEnd - start) & ~1);
    for (let i = start; i < end; i += 2) {
      if (bytes[i] === 0 && bytes[i + 1] === 0) {
        end = i;
        break;
      }
    }
    return this.r.utf16(start, end);
  }

}
