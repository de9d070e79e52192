// The export directory, named and ordinal-only exports and forwarders, read with pefile's rules for damaged tables.
import type { Notes } from './headers.js';
import * as imageModule from './image.js';
import { PeRangeError, type PeImage } from './image.js';
import type { PeExportedSymbol, PeExports } from './types.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { LIMITS, isAllZero, u16At, u32At } = imageModule;

/** Forwarder strings and the export's own DLL name are cut at this many bytes. */
const MAX_EXPORT_STRING = 0x1000;

/** Bytes pefile's is_valid_function_name accepts with relaxed characters (exports may use any punctuation a .def file allows): 1. */
const EXPORT_NAME_CHARS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) EXPORT_NAME_CHARS[c] = 1;
}
for (const c of '!"#$%&\'()*+,-./:<>?[\\]^_`{|}~@') EXPORT_NAME_CHARS[c.charCodeAt(0)] = 1;

/**
 * Which function-table indexes the named entries of the table being read point at: `NAMED[i] === namedMark` (an
 * index is 16 bits). Reused from call to call; the mark moves on each call, so nothing is cleared.
 */
const NAMED = new Uint32Array(0x10000);
let namedMark = 0;

/** Bytes from an RVA's file offset to the end of the file. */
function untilEof(image: PeImage, rva: number): number {
  return image.r.length - image.offsetFromRva(rva);
}

/** How far a table at `tableRva` may run: to the end of its section's data, or of the file. */
function boundary(image: PeImage, tableRva: number): number {
  const s = image.sectionByRva(tableRva);
  return s === undefined ? image.r.length : s.virtualAddress + image.sectionLength(s) - tableRva;
}

/** The forwarder string at an RVA, read once per address. */
function forwarderAt(image: PeImage, forwarders: Map<number, string>, address: number): string {
  let f = forwarders.get(address);
  if (f === undefined) {
    f = image.latin1At(address, MAX_EXPORT_STRING);
    forwarders.set(address, f);
  }
  return f;
}

interface MutableExport {
  ordinal: number;
  name: string | null;
  rva: number | null;
  forwarder: string | null;
}

/** Reads the export directory at `rva`; null when pefile would report none (damaged beyond use, or empty). */
export function readExports(image: PeImage, rva: number, size: number, notes: Notes): PeExports | null {
  let dir: Uint8Array;
  try {
    dir = image.data(rva, 40);
    image.offsetFromRva(rva);
  } catch (e) {
    if (!(e instanceof PeRangeError)) throw e;
    notes.add(`export directory at RVA 0x${rva.toString(16)} does not map into the file`);
    return null;
  }
  if (dir.length < 40) {
    notes.add(`export directory at RVA 0x${rva.toString(16)} is cut short`);
    return null;
  }
  const nameRva = u32At(dir, 12) as number;
  const base = u32At(dir, 16) as number;
  const numberOfFunctions = u32At(dir, 20) as number;
  const numberOfNames = u32At(dir, 24) as number;
  const addressOfFunctions = u32At(dir, 28) as number;
  const addressOfNames = u32At(dir, 32) as number;
  const addressOfNameOrdinals = u32At(dir, 36) as number;

  let names: Uint8Array;
  let nameOrdinals: Uint8Array;
  let functions: Uint8Array;
  // A table that maps nowhere is found without throwing (files without named exports often have one): the same
  // note as the reads below would give.
  if (image.tryOffset(addressOfNames) === null || image.tryOffset(addressOfNameOrdinals) === null || image.tryOffset(addressOfFunctions) === null) {
    notes.add(`export directory at RVA 0x${rva.toString(16)} has tables that do not map into the file`);
    return null;
  }
  try {
    names = image.data(addressOfNames, Math.min(untilEof(image, addressOfNames), numberOfNames * 4));
    nameOrdinals = image.data(addressOfNameOrdinals, Math.min(untilEof(image, addressOfNameOrdinals), numberOfNames * 4));
    functions = image.data(addressOfFunctions, Math.min(untilEof(image, addressOfFunctions), numberOfFunctions * 4));
  } catch (e) {
    if (!(e instanceof PeRangeError)) throw e;
    notes.add(`export directory at RVA 0x${rva.toString(16)} has tables that do not map into the file`);
    return null;
  }

  const exports: MutableExport[] = [];
  // Many entries may share one forwarder string: read each once, or repeats would cost count times its length.
  const forwarders = new Map<number, string>();
  if (++namedMark > 0xffffffff) {
    NAMED.fill(0);
    namedMark = 1;
  }
  const mark = namedMark;

  let failures = 10;
  let complete = true;
  // Named entries are counted by (name, address) pair: by name alone while each name has been seen once (the
  // address of its entry kept), by pair text only for names seen again (-1 kept for them).
  const firstAddress = new Map<string, number>();
  let pairs: Map<string, number> | null = null;
  let distinctPairs = 0;
  const namedCount = Math.min(numberOfNames, Math.trunc(boundary(image, addressOfNames) / 4));
  for (let i = 0; i < namedCount; i++) {
    const ordinalIndex = u16At(nameOrdinals, 2 * i);
    if (ordinalIndex === undefined || ordinalIndex * 4 >= functions.length) {
      notes.add(`export name table points outside the function table; no exports are reported`);
      return null;
    }
    const address = u32At(functions, 4 * ordinalIndex) as number;
    if (address === 0) continue;
    let forwarder: string | null = null;
    if (rva <= address && address < rva + size) {
      if (image.tryOffset(address) === null) continue;
      forwarder = forwarderAt(image, forwarders, address);
    }
    const nameAddress = u32At(names, 4 * i);
    if (nameAddress === undefined) {
      // pefile then looks up a missing name and finds it invalid: the named loop ends.
      complete = false;
      break;
    }
    if (!image.nameSpan(nameAddress, LIMITS.maxName, EXPORT_NAME_CHARS, 1)) {
      complete = false;
      break;
    }
    const nameStart = image.spanStart;
    const nameEnd = image.spanEnd;
    if (image.tryOffset(nameAddress) === null) {
      failures -= 2;
      if (failures <= 0) {
        complete = false;
        break;
      }
      continue;
    }
    const name = image.r.latin1(nameStart, nameEnd);
    let repeats = 1;
    const first = firstAddress.get(name);
    if (first === undefined) {
      firstAddress.set(name, address);
      distinctPairs++;
    } else {
      pairs ??= new Map<string, number>();
      if (first >= 0) {
        pairs.set(`${name}\u0000${first}`, 1);
        firstAddress.set(name, -1);
      }
      const key = `${name}\u0000${address}`;
      repeats = (pairs.get(key) ?? 0) + 1;
      pairs.set(key, repeats);
      if (repeats === 1) distinctPairs++;
    }
    if (repeats > 10) {
      notes.add('export directory repeats one name and address more than 10 times; assumed corrupt');
      break;
    }
    if (distinctPairs > LIMITS.maxExports) {
      notes.add(`export directory has more than ${LIMITS.maxExports} named entries; assumed corrupt`);
      break;
    }
    if (image.tryOffset(addressOfNameOrdinals + 2 * i) === null || image.tryOffset(addressOfFunctions + 4 * ordinalIndex) === null) {
      notes.add(`export directory at RVA 0x${rva.toString(16)} has tables that do not map into the file`);
      return null;
    }
    exports.push({ ordinal: base + ordinalIndex, name, rva: address, forwarder });
    NAMED[ordinalIndex] = mark;
  }
  if (!complete) notes.add(`export name table at RVA 0x${addressOfNames.toString(16)} holds an invalid entry`);
  failures = 10;
  complete = true;
  const seenAddress = new Map<number | null, number>();
  const functionCount = Math.min(numberOfFunctions, Math.trunc(boundary(image, addressOfFunctions) / 4));
  for (let idx = 0; idx < functionCount; idx++) {
    // A named entry's ordinal is base + its index: the same ordinal is the same index.
    if (idx < 0x10000 && NAMED[idx] === mark) continue;
    const address = u32At(functions, 4 * idx) ?? null;
    if (address === null) {
      failures--;
      if (failures <= 0) {
        complete = false;
        break;
      }
    }
    if (address === 0) continue;
    const forwarder = address !== null && rva <= address && address < rva + size ? forwarderAt(image, forwarders, address) : null;
    const repeats = (seenAddress.get(address) ?? 0) + 1;
    seenAddress.set(address, repeats);
    if (repeats > LIMITS.maxRepeatedExport) {
      notes.add(`export address table repeats one address more than ${LIMITS.maxRepeatedExport} times; assumed corrupt`);
      break;
    }
    if (seenAddress.size > LIMITS.maxExports) {
      notes.add(`export address table has more than ${LIMITS.maxExports} entries; assumed corrupt`);
      break;
    }
    exports.push({ ordinal: base + idx, name: null, rva: address, forwarder });
  }
  if (!complete) {
    notes.add(`export address table at RVA 0x${addressOfFunctions.toString(16)} cannot be read; no exports are reported`);
    return null;
  }
  if (exports.length === 0 && isAllZero(dir)) return null;
  const symbols: PeExportedSymbol[] = exports;
  return {
    dll_name: image.latin1At(nameRva, MAX_EXPORT_STRING),
    timestamp: u32At(dir, 4) as number,
    ordinal_base: base,
    number_of_functions: numberOfFunctions,
    number_of_names: numberOfNames,
    symbols,
  };
}
