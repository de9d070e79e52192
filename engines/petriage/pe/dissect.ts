// `dissect`: the whole static structure of a PE file from its bytes, every read bounds-checked, damage reported as notes.
import * as canonicalModule from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import * as entropyModule from '../entropy.js';
import * as stringsModule from '../strings.js';
import type { ByteCounts, ExtractedStrings } from '../strings.js';
import * as constantsModule from './constants.js';
import * as directoriesModule from './directories.js';
import * as exportsModule from './exports.js';
import * as headersModule from './headers.js';
import { Notes, type RawDirectory } from './headers.js';
import { ByteReader, PeRangeError } from './image.js';
import * as importsModule from './imports.js';
import type { ImportContext } from './imports.js';
import * as resourcesModule from './resources.js';
import type { Mutable, PeBoundImport, PeCertificateTable, PeDebugEntry, PeDissection, PeExports, PeImportedDll, PeOptionalHeader, PeResources, PeRichHeader, PeSection, PeTls } from './types.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { sha256Hex } = canonicalModule;
const { entropyOfSum, histogramEntropy, shannonEntropy } = entropyModule;
const { extractStrings } = stringsModule;
const { DIR } = constantsModule;
const { findOverlay, readCertificates, readDebug, readRich, readTls } = directoriesModule;
const { readExports } = exportsModule;
const { describeDirectories, parseHeaders, peChecksum } = headersModule;
const { importHashes, lowerDllName, readBoundImports, readImportDirectory } = importsModule;
const { readResources } = resourcesModule;

const KERNEL_MODULES = new Set(['ntoskrnl.exe', 'hal.dll', 'ndis.sys', 'bootvid.dll', 'kdcom.dll']);

/**
 * Dissects a PE32 or PE32+ file. Throws VitrineError('parse_error') when the bytes are not a PE;
 * anything damaged past the headers becomes a note and the dissection goes on.
 */
export function dissect(data: Uint8Array): PeDissection {
  if (!(data instanceof Uint8Array)) throw new VitrineError('validation_failed', 'dissect expects the file as bytes');
  const r = new ByteReader(data);
  const notes = new Notes();
  const h = parseHeaders(r, notes);
  const { image } = h;
  const plus = h.format === 'PE32+';

  const epSection = image.sectionByRva(h.entryPoint);
  const epOffset = epSection === undefined ? null : image.tryOffset(h.entryPoint);
  if (epSection === undefined) notes.add(`AddressOfEntryPoint 0x${h.entryPoint.toString(16)} lies outside every section`);
  else if (epOffset !== null && epOffset > r.length) notes.add('AddressOfEntryPoint lies past the end of the file');

  const ctx: ImportContext = {
    image,
    plus,
    imageBase: h.imageBase,
    sizeOfImage: h.sizeOfImage,
    machine: h.fileHeader.machine,
    notes,
    symbolsRead: 0,
    terms: 0,
  };
  // Each directory's reader runs on its own: a read that escapes it anyway (a PeRangeError) costs that
  // directory only, with a note. The order is pefile's, since its import symbol budget is shared across the
  // two import tables.
  const exportDir = present(h.directories, DIR.EXPORT);
  let exports: PeExports | null = null;
  if (exportDir !== undefined) {
    try {
      exports = readExports(image, exportDir.virtualAddress, exportDir.size, notes);
    } catch (e) {
      unreadable(e, notes, 'export directory');
    }
  }
  const importDir = present(h.directories, DIR.IMPORT);
  let imports: PeImportedDll[] = [];
  if (importDir !== undefined) {
    try {
      imports = readImportDirectory(ctx, importDir.virtualAddress, false);
    } catch (e) {
      unreadable(e, notes, 'import directory');
      if (ctx.terms > 0) ctx.terms = 0;
    }
  }
  // The import hash input so far is the import table's; the delay-load table's terms follow it.
  const plainTermsEnd = ctx.terms;
  const resourceDir = present(h.directories, DIR.RESOURCE);
  let resources: PeResources = { types: [], entries: [], version_info: null, manifest: null };
  if (resourceDir !== undefined) {
    try {
      resources = readResources(image, resourceDir.virtualAddress, notes);
    } catch (e) {
      unreadable(e, notes, 'resource directory');
    }
  }
  const debugDir = present(h.directories, DIR.DEBUG);
  let debug: PeDebugEntry[] = [];
  if (debugDir !== undefined) {
    try {
      debug = readDebug(image, debugDir.virtualAddress, debugDir.size, notes);
    } catch (e) {
      unreadable(e, notes, 'debug directory');
    }
  }
  const tlsDir = present(h.directories, DIR.TLS);
  let tls: PeTls | null = null;
  if (tlsDir !== undefined) {
    try {
      tls = readTls(image, tlsDir.virtualAddress, plus, h.imageBase, notes);
    } catch (e) {
      unreadable(e, notes, 'TLS directory');
    }
  }
  const boundDir = present(h.directories, DIR.BOUND_IMPORT);
  let boundImports: PeBoundImport[] = [];
  if (boundDir !== undefined) {
    try {
      boundImports = readBoundImports(image, boundDir.virtualAddress, notes);
    } catch (e) {
      unreadable(e, notes, 'bound import directory');
    }
  }
  const delayDir = present(h.directories, DIR.DELAY_IMPORT);
  let delayImports: PeImportedDll[] = [];
  if (delayDir !== undefined) {
    try {
      delayImports = readImportDirectory(ctx, delayDir.virtualAddress, true);
    } catch (e) {
      unreadable(e, notes, 'delay-load import directory');
      if (ctx.terms >= 0) ctx.terms = plainTermsEnd;
    }
  }

  if (image.entropyBudgetSpent) notes.add('sections or resources overlap so much that some entropies were not computed');
  let richHeader: PeRichHeader | null = null;
  try {
    richHeader = readRich(r, h.dos.e_lfanew, notes);
  } catch (e) {
    unreadable(e, notes, 'Rich header');
  }
  let certificate: PeCertificateTable | null = null;
  try {
    certificate = readCertificates(r, h.directories[DIR.SECURITY], notes);
  } catch (e) {
    unreadable(e, notes, 'certificate table');
  }
  const overlay = findOverlay(image, h.optionalOffset, h.fileHeader.size_of_optional_header, h.directories);
  // Strings, and the byte counts behind the file's entropy and those of every section and resource, come from one
  // pass over the bytes.
  const sums = entropySums(image.entropyRequests, data.length);
  let strings: ExtractedStrings;
  let entropy: number;
  if (sums !== null) {
    strings = extractStrings(data, {}, undefined, sums, r.wholeLatin1());
    // The first range is the whole file.
    entropy = entropyOfSum(sums.sums[0] as number, data.length);
  } else {
    const counts = COUNTS;
    counts.fill(0);
    strings = extractStrings(data, {}, counts, undefined, r.wholeLatin1());
    entropy = histogramEntropy(counts, data.length);
  }
  fillEntropies(data, image.entropyRequests, sums);
  (h.optional as Mutable<PeOptionalHeader>).checksum_computed = peChecksum(data, h.optionalOffset + 64, sums?.words ?? undefined);
  const hashes = importHashes(ctx, imports, delayImports, plainTermsEnd);

  return {
    sha256: sha256Hex(data),
    size: data.length,
    format: h.format,
    is_dll: (h.fileHeader.characteristics & 0x2000) !== 0,
    is_driver: isDriver(imports, h.sections, h.optional.subsystem),
    dos_header: h.dos,
    file_header: h.fileHeader,
    optional_header: h.optional,
    data_directories: describeDirectories(image, h.directories),
    sections: h.sections,
    entry_point: { rva: h.entryPoint, section: epSection === undefined ? null : epSection.name, offset: epOffset },
    imports,
    delay_imports: delayImports,
    bound_imports: boundImports,
    exports,
    resources,
    tls,
    debug,
    rich_header: richHeader,
    certificate,
    clr: (h.directories[DIR.COM_DESCRIPTOR]?.virtualAddress ?? 0) !== 0,
    overlay,
    strings: { ascii: strings.ascii, utf16le: strings.utf16le, truncated: strings.truncated },
    entropy,
    imphash: hashes.plain,
    imphash_with_delay: hashes.withDelay,
    notes: notes.done(),
  };
}

/** Byte counts of the file being dissected (used and done with inside one call). */
const COUNTS = new Uint32Array(256);

/** Entropy ranges up to this many are counted in the string pass (at their ends); a file with more has each range read on its own. */
const MAX_CUTS = 64;

/**
 * The entropy sums to take in the string pass: the whole file first, then each request's range, between the
 * distinct range ends (with 0 and the file's end); null when there are too many.
 */
function entropySums(requests: readonly (number | object)[], size: number): ByteCounts | null {
  if (requests.length > 3 * MAX_CUTS) return null;
  const offsets: number[] = [0];
  addCut(offsets, size);
  for (let k = 0; k < requests.length; k += 3) {
    addCut(offsets, requests[k + 1] as number);
    addCut(offsets, requests[k + 2] as number);
  }
  const ranges: number[] = [0, offsets.length - 1];
  for (let k = 0; k < requests.length; k += 3) ranges.push(offsets.indexOf(requests[k + 1] as number), offsets.indexOf(requests[k + 2] as number));
  return { offsets, ranges, sums: SUMS, words: null };
}

/** The range sums of the file being dissected (used and done with inside one call): the whole file and up to MAX_CUTS requests. */
const SUMS = new Float64Array(MAX_CUTS + 1);

/** Inserts `v` into the ascending, distinct `offsets` unless it is there (ranges come mostly in file order, so the walk back is short). */
function addCut(offsets: number[], v: number): void {
  let k = offsets.length;
  while (k > 0 && (offsets[k - 1] as number) > v) k--;
  if (k > 0 && offsets[k - 1] === v) return;
  offsets.push(v);
  for (let j = offsets.length - 1; j > k; j--) offsets[j] = offsets[j - 1] as number;
  offsets[k] = v;
}

/** Writes each requested range's entropy into its target: from the pass's sums (range k + 1 is request k), or by reading the range. */
function fillEntropies(data: Uint8Array, requests: readonly (number | { entropy: number | null })[], sums: ByteCounts | null): void {
  for (let k = 0; k < requests.length; k += 3) {
    const target = requests[k] as { entropy: number | null };
    const start = requests[k + 1] as number;
    const end = requests[k + 2] as number;
    target.entropy = sums === null ? shannonEntropy(data, start, end) : entropyOfSum(sums.sums[k / 3 + 1] as number, end - start);
  }
}

/** A data directory entry that is there (non-zero address). */
function present(directories: readonly RawDirectory[], index: number): RawDirectory | undefined {
  const d = directories[index];
  return d !== undefined && d.virtualAddress !== 0 ? d : undefined;
}

/** A reader's escaped range error becomes a note; anything else is a bug and goes on up. */
function unreadable(e: unknown, notes: Notes, what: string): void {
  if (!(e instanceof PeRangeError)) throw e;
  notes.add(`${what} cannot be read`);
}

/** pefile's driver test: kernel imports, or PAGE sections with a native subsystem (names compared without case). */
function isDriver(imports: readonly PeImportedDll[], sections: readonly PeSection[], subsystem: number): boolean {
  if (imports.length === 0) return false;
  for (let i = 0; i < imports.length; i++) if (KERNEL_MODULES.has(lowerDllName((imports[i] as PeImportedDll).dll))) return true;
  if (subsystem !== 1 && subsystem !== 8) return false;
  for (let i = 0; i < sections.length; i++) {
    const name = (sections[i] as PeSection).name.toLowerCase();
    if (name === 'page' || name === 'paged') return true;
  }
  return false;
}
