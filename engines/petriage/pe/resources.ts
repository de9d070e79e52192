// The resource tree (types, names, languages), version information and the manifest, walked with pefile's cycle and depth guards.
import * as bytescanModule from '../bytescan.js';
import * as constantsModule from './constants.js';
import type { Notes } from './headers.js';
import * as imageModule from './image.js';
import { PeRangeError, type PeImage } from './image.js';
import type { Mutable, PeResource, PeResources, PeResourceTypeSummary, PeVersionInfo } from './types.js';
import { setOwn } from '../../core/own.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { RESOURCE_TYPE_NAMES, RT_MANIFEST, RT_VERSION } = constantsModule;
const { LIMITS, u16At, u32At } = imageModule;
const { versionScan } = bytescanModule;

/** pefile's cap on entries in one resource directory. */
const MAX_ENTRIES_PER_DIRECTORY = 4096;
const MAX_MANIFEST = 64 * 1024;
/** Headers visited in one version information block; real blocks need a few dozen. */
const MAX_VERSION_STEPS = 1024;
const UTF8 = new TextDecoder('utf-8');

interface DirEntry {
  readonly id: number | null;
  readonly name: string | null;
  /** The raw Name field (language entries carry the LANGID in it). */
  readonly rawName: number;
  readonly directory: Dir | null;
  readonly data: { readonly rva: number; readonly size: number; readonly codePage: number } | null;
}

interface Dir {
  readonly entries: DirEntry[];
}

interface WalkState {
  readonly image: PeImage;
  readonly notes: Notes;
  readonly baseRva: number;
  totalEntries: number;
  readonly versionBlocks: { rva: number; size: number }[];
}

/** One directory level: pefile parse_resources_directory, with `path` holding the directories above and this one (loop guard; restored before returning). */
function readDirectory(st: WalkState, rva: number, level: number, path: number[]): Dir | null {
  const { image, notes } = st;
  if (level > LIMITS.maxResourceDepth) {
    notes.add(`resource tree nested deeper than ${LIMITS.maxResourceDepth} levels`);
    return null;
  }
  // Bytes are read in place from the file (spans and offsets, no view per structure).
  const bytes = image.r.bytes;
  let header: number;
  try {
    if (!image.span(rva, 16)) throw new PeRangeError('RVA maps outside the file');
    header = image.spanStart;
    if (image.spanEnd - header < 16) header = -1;
    image.offsetFromRva(rva);
  } catch (e) {
    if (!(e instanceof PeRangeError)) throw e;
    notes.add(`resource directory at RVA 0x${rva.toString(16)} does not map into the file`);
    return null;
  }
  if (header < 0) {
    notes.add(`resource directory at RVA 0x${rva.toString(16)} is cut short`);
    return null;
  }
  const count = u16In(bytes, header + 12) + u16In(bytes, header + 14);
  if (count > MAX_ENTRIES_PER_DIRECTORY) {
    notes.add(`resource directory at RVA 0x${rva.toString(16)} claims ${count} entries`);
    return null;
  }
  st.totalEntries += count;
  if (st.totalEntries > LIMITS.maxResourceEntries) {
    notes.add(`more than ${LIMITS.maxResourceEntries} resource entries; the rest are not read`);
    return null;
  }
  const entries: DirEntry[] = [];
  let at = rva + 16;
  let lastName: [number, number] | null = null;
  for (let idx = 0; idx < count; idx++, at += 8) {
    let raw: number;
    try {
      raw = image.exactAt(at, 8);
    } catch (e) {
      if (!(e instanceof PeRangeError)) throw e;
      notes.add(`resource entry ${idx} at RVA 0x${at.toString(16)} cannot be read`);
      break;
    }
    const nameField = u32In(bytes, raw);
    const offsetField = u32In(bytes, raw + 4);
    let id: number | null = null;
    let name: string | null = null;
    if ((nameField & 0x80000000) === 0) id = nameField;
    else {
      const nameRva = st.baseRva + (nameField & 0x7fffffff);
      try {
        const length = u16At(image.data(nameRva, 2), 0);
        if (length === undefined) throw new PeRangeError('name length cut short');
        // Names that overlap the previous one mean a corrupt directory (pefile's check).
        if (lastName !== null && lastName[0] < nameRva && lastName[1] >= nameRva) {
          notes.add(`resource entry names overlap at RVA 0x${nameRva.toString(16)}`);
          break;
        }
        lastName = [nameRva, nameRva + length];
        name = image.utf16At(nameRva + 2, Math.min(length, LIMITS.maxResourceName));
      } catch (e) {
        if (!(e instanceof PeRangeError)) throw e;
        notes.add(`resource entry name at RVA 0x${nameRva.toString(16)} cannot be read`);
      }
    }
    const target = st.baseRva + (offsetField & 0x7fffffff);
    if ((offsetField & 0x80000000) !== 0) {
      // A directory that points back at one above it would loop forever: stop reading this level.
      if (path.includes(target)) {
        notes.add(`resource directory at RVA 0x${target.toString(16)} refers back to itself`);
        break;
      }
      path.push(target);
      const sub = readDirectory(st, target, level + 1, path);
      path.pop();
      if (sub === null) break;
      entries.push({ id, name, rawName: nameField, directory: sub, data: null });
    } else {
      let leaf: number;
      try {
        leaf = image.exactAt(target, 16);
      } catch (e) {
        if (!(e instanceof PeRangeError)) throw e;
        notes.add(`resource data entry at RVA 0x${target.toString(16)} cannot be read`);
        break;
      }
      entries.push({
        id,
        name,
        rawName: nameField,
        directory: null,
        data: { rva: u32In(bytes, leaf), size: u32In(bytes, leaf + 4), codePage: u32In(bytes, leaf + 8) },
      });
    }
    // pefile reads version information as soon as it meets an RT_VERSION type entry at the top level.
    if (level === 0 && (nameField & 0xffff) === RT_VERSION) {
      const last = entries[entries.length - 1];
      const versions = last?.directory?.entries[0]?.directory?.entries;
      if (versions !== undefined) {
        for (const v of versions) if (v.data !== null) st.versionBlocks.push({ rva: v.data.rva, size: v.data.size });
      }
    }
  }
  return { entries };
}

/** Little-endian reads at offsets the caller has checked lie inside `bytes`. */
function u16In(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}

function u32In(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24)) >>> 0;
}

function typeLabel(e: DirEntry): string | number {
  if (e.name !== null) return e.name;
  const id = e.id ?? 0;
  return RESOURCE_TYPE_NAMES.get(id) ?? id;
}

interface LeafList {
  readonly entries: PeResource[];
  /** More leaves than LIMITS.maxResourceLeaves were met. */
  capped: boolean;
}

/** Lists one leaf (a data entry) under its type and name, and asks for the entropy of its bytes. */
function pushLeaf(image: PeImage, leaves: LeafList, type: DirEntry, nameEntry: DirEntry, leaf: DirEntry): void {
  if (leaf.data === null) return;
  if (leaves.entries.length >= LIMITS.maxResourceLeaves) {
    leaves.capped = true;
    return;
  }
  const offset = image.tryOffset(leaf.data.rva);
  const entry: Mutable<PeResource> = {
    type: typeLabel(type),
    type_id: type.name === null ? type.id : null,
    name: nameEntry.name ?? nameEntry.id ?? 0,
    language: leaf.rawName & 0x3ff,
    sublanguage: leaf.rawName >>> 10,
    rva: leaf.data.rva,
    offset,
    size: leaf.data.size,
    code_page: leaf.data.codePage,
    entropy: null,
  };
  if (offset !== null && image.span(leaf.data.rva, leaf.data.size)) image.requestEntropy(entry, image.spanStart, image.spanEnd);
  leaves.entries.push(entry);
}

/**
 * Reads the resource directory at `rva`. `reference` reads the version information in JavaScript only (the tests
 * compare the two).
 */
export function readResources(image: PeImage, rva: number, notes: Notes, reference = false): PeResources {
  const st: WalkState = { image, notes, baseRva: rva, totalEntries: 0, versionBlocks: [] };
  const root = readDirectory(st, rva, 0, [rva]);
  if (root === null) return { types: [], entries: [], version_info: null, manifest: null };

  // Plain indexed loops here and below, no callbacks: this runs once per file, so on a first pass over many files
  // it is compiled early, and a callback per array method is more code for V8 to compile.
  const rootEntries = root.entries;
  const types: PeResourceTypeSummary[] = [];
  for (let i = 0; i < rootEntries.length; i++) {
    const t = rootEntries[i] as DirEntry;
    types.push({ type: typeLabel(t), type_id: t.name === null ? t.id : null, count: t.directory === null ? 0 : t.directory.entries.length });
  }

  const leaves: LeafList = { entries: [], capped: false };
  for (let i = 0; i < rootEntries.length; i++) {
    const t = rootEntries[i] as DirEntry;
    if (t.data !== null) pushLeaf(image, leaves, t, t, t);
    if (t.directory === null) continue;
    const names = t.directory.entries;
    for (let j = 0; j < names.length; j++) {
      const n = names[j] as DirEntry;
      if (n.data !== null) pushLeaf(image, leaves, t, n, n);
      if (n.directory === null) continue;
      const languages = n.directory.entries;
      for (let k = 0; k < languages.length; k++) pushLeaf(image, leaves, t, n, languages[k] as DirEntry);
    }
  }
  const { entries } = leaves;
  if (leaves.capped) notes.add(`more than ${LIMITS.maxResourceLeaves} resources; the list is cut there`);

  // Every RT_VERSION block is read; later string tables override earlier keys (keeping the first one's key order),
  // as a merge of pefile's FileInfo does.
  const versionBlocks = st.versionBlocks;
  if (versionBlocks.length > LIMITS.maxVersionBlocks) notes.add(`${versionBlocks.length} version information blocks; read the first ${LIMITS.maxVersionBlocks}`);
  let versionInfo: PeVersionInfo | null = null;
  let merged: Record<string, string> | null = null;
  for (let i = 0; i < versionBlocks.length && i < LIMITS.maxVersionBlocks; i++) {
    const b = versionBlocks[i] as { rva: number; size: number };
    const v = reference ? readVersionInfoJs(image, b.rva, b.size, notes) : readVersionInfo(image, b.rva, b.size, notes);
    if (v === null) continue;
    if (merged === null) {
      merged = {};
      versionInfo = { strings: merged, file_version: v.file_version, product_version: v.product_version };
    }
    const keys = Object.keys(v.strings);
    for (let k = 0; k < keys.length; k++) setOwn(merged, keys[k] as string, v.strings[keys[k] as string] as string);
  }

  let manifest: string | null = null;
  let manifestLeaf: PeResource | undefined;
  for (let i = 0; i < entries.length; i++) {
    if ((entries[i] as PeResource).type_id === RT_MANIFEST) {
      manifestLeaf = entries[i];
      break;
    }
  }
  if (manifestLeaf !== undefined) {
    try {
      let bytes = image.data(manifestLeaf.rva, Math.min(manifestLeaf.size, MAX_MANIFEST));
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      manifest = UTF8.decode(bytes);
    } catch (e) {
      if (!(e instanceof PeRangeError)) throw e;
      notes.add('the manifest resource does not map into the file');
    }
  }
  return { types, entries, version_info: versionInfo, manifest };
}

/** pefile's dword_align: aligns `offset` so that `base + offset` is a multiple of 4. */
function dwordAlign(offset: number, base: number): number {
  return Math.floor((offset + base + 3) / 4) * 4 - Math.floor(base / 4) * 4;
}

/** Length of the string as pefile measures it: its UTF-8 encoding with lone UTF-16 units escaped as \uXXXX. */
function pefileLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    n += u < 0x80 ? 1 : u < 0x800 ? 2 : u >= 0xd800 && u <= 0xdfff ? 6 : 3;
  }
  return n;
}

/** The (length, value length, type) words of a version information header at `o`, or null when cut short. */
function versionHeader(raw: Uint8Array, o: number): [number, number, number] | null {
  if (o < 0 || o + 6 > raw.length) return null;
  return [u16At(raw, o) as number, u16At(raw, o + 2) as number, u16At(raw, o + 4) as number];
}

/** Counts one step of a version information walk; true (with a note) once the budget is spent. */
function stepBudgetSpent(walk: { steps: number }, notes: Notes): boolean {
  if (++walk.steps <= MAX_VERSION_STEPS) return false;
  notes.add('version information walk exceeds its step budget; the rest is not read');
  return true;
}

function version(ms: number, ls: number): string {
  return `${ms >>> 16}.${ms & 0xffff}.${ls >>> 16}.${ls & 0xffff}`;
}

/**
 * pefile parse_version_information: the StringFileInfo tables of one VS_VERSIONINFO block. A block that lies in a
 * section and holds nothing out of the ordinary is walked by bytescan.wat `version` (on a first pass over many files
 * the walk in JavaScript is run in V8's baseline tiers, then compiled, per file); anything else by readVersionInfoJs,
 * which gives the same result for those blocks too (pe/resources.test.ts).
 */
export function readVersionInfo(image: PeImage, dataRva: number, size: number, notes: Notes): PeVersionInfo | null {
  const got = readVersionInfoWasm(image, dataRva, size);
  if (got !== null) {
    VERSION_WALKS.wasm++;
    return got;
  }
  VERSION_WALKS.js++;
  return readVersionInfoJs(image, dataRva, size, notes);
}

/** Version blocks walked in WebAssembly and in JavaScript since the module was loaded (read by the tests). */
export const VERSION_WALKS = { wasm: 0, js: 0 };

/** readVersionInfo's WebAssembly walk, or null when the block is one for readVersionInfoJs. */
function readVersionInfoWasm(image: PeImage, dataRva: number, size: number): PeVersionInfo | null {
  // As readVersionInfoJs's first read, which this repeats when it walks the block: the section of the block.
  const s = image.sectionByRva(dataRva);
  if (s === undefined || s.maxRva - dataRva <= 6) return null;
  const fileLength = image.r.length;
  const start = dataRva - s.vaAdj + s.ptrAdj;
  if (start > fileLength) return null;
  const raw = Math.min(start + size, fileLength) - start;
  // The bytes a string can be read from: the section's raw data, within the file (PeImage.utf16At).
  const str = Math.max(-1, Math.min(s.pointerToRawData + s.sizeOfRawData, fileLength) - start);
  const keyMax = Math.min((s.virtualAddress + Math.max(s.sizeOfRawData, s.virtualSize) - (dataRva + 6)) >> 1, 0x10000);
  const found = versionScan(image.r.bytes, start, raw, str, Math.min(s.maxRva - dataRva, 0x7fffffff), dataRva & 3, keyMax);
  if (found === null) return null;
  const { i32, at, count, fixedAt, lo } = found;
  const bytes = image.r.bytes;
  const fixed = start + fixedAt;
  const fileVersion = version(u32In(bytes, fixed + 8), u32In(bytes, fixed + 12));
  const productVersion = version(u32In(bytes, fixed + 16), u32In(bytes, fixed + 20));
  const strings: Record<string, string> = {};
  if (count > 0) {
    // Every key and value starts at an even offset: one decoding of the stretch that holds them all, then cuts.
    const text = image.r.utf16(start + lo, start + found.hi);
    for (let k = 0, o = at; k < count; k++, o += 4) {
      const keyFrom = ((i32[o] as number) - lo) >> 1;
      const valueUnits = i32[o + 3] as number;
      const valueFrom = ((i32[o + 2] as number) - lo) >> 1;
      setOwn(strings, text.slice(keyFrom, keyFrom + (i32[o + 1] as number)), valueUnits === 0 ? '' : text.slice(valueFrom, valueFrom + valueUnits));
    }
  }
  return { strings, file_version: fileVersion, product_version: productVersion };
}

/** readVersionInfo walked in JavaScript: the reference the WebAssembly walk is tested against, and its fallback. */
export function readVersionInfoJs(image: PeImage, dataRva: number, size: number, notes: Notes): PeVersionInfo | null {
  const start = image.tryOffset(dataRva);
  if (start === null) {
    notes.add(`version information at RVA 0x${dataRva.toString(16)} does not map into the file`);
    return null;
  }
  const raw = image.r.slice(start, start + size);
  const top = versionHeader(raw, 0);
  if (top === null) return null;
  try {
    const keyRva = dataRva + 6;
    const s = image.sectionByRva(keyRva);
    const maxChars = s === undefined ? 0x10000 : (s.virtualAddress + Math.max(s.sizeOfRawData, s.virtualSize) - keyRva) >> 1;
    const key = maxChars > 0 ? image.utf16At(keyRva, maxChars) : '';
    if (key !== 'VS_VERSION_INFO') {
      notes.add('version information block does not start with VS_VERSION_INFO');
      return null;
    }
  } catch (e) {
    if (!(e instanceof PeRangeError)) throw e;
    notes.add('version information key cannot be read');
    return null;
  }
  const fixedOffset = dwordAlign(6 + 2 * (15 + 1), dataRva);
  if (fixedOffset + 52 > raw.length) return null;
  const fileVersion = version(u32At(raw, fixedOffset + 8) as number, u32At(raw, fixedOffset + 12) as number);
  const productVersion = version(u32At(raw, fixedOffset + 16) as number, u32At(raw, fixedOffset + 20) as number);

  const strings: Record<string, string> = {};
  let infoOffset = dwordAlign(fixedOffset + 52, dataRva);
  // Each loop moves forward or ends, but the nesting restarts inner walks (as pefile's does): a step budget bounds the total.
  const walk = { steps: 0 };
  for (;;) {
    if (stepBudgetSpent(walk, notes)) return { strings, file_version: fileVersion, product_version: productVersion };
    const info = versionHeader(raw, infoOffset);
    if (info === null) {
      notes.add('version information StringFileInfo/VarFileInfo header is cut short');
      return null;
    }
    let infoKey: string;
    try {
      infoKey = image.utf16At(dataRva + infoOffset + 6, LIMITS.maxVersionKey);
    } catch (e) {
      if (!(e instanceof PeRangeError)) throw e;
      notes.add('version information StringFileInfo key cannot be read');
      break;
    }
    if (infoKey.startsWith('StringFileInfo') && (info[2] === 0 || info[2] === 1) && info[1] === 0) {
      let tableOffset = dwordAlign(infoOffset + 6 + 2 * (pefileLength(infoKey) + 1), dataRva);
      for (;;) {
        if (stepBudgetSpent(walk, notes)) return { strings, file_version: fileVersion, product_version: productVersion };
        const table = versionHeader(raw, tableOffset);
        if (table === null) break;
        let tableKey: string;
        try {
          tableKey = image.utf16At(dataRva + tableOffset + 6, LIMITS.maxVersionKey);
        } catch (e) {
          if (!(e instanceof PeRangeError)) throw e;
          notes.add('version information string table key cannot be read');
          break;
        }
        let entryOffset = dwordAlign(tableOffset + 6 + 2 * (pefileLength(tableKey) + 1), dataRva);
        while (entryOffset < tableOffset + table[0]) {
          if (stepBudgetSpent(walk, notes)) return { strings, file_version: fileVersion, product_version: productVersion };
          const entry = versionHeader(raw, entryOffset);
          if (entry === null) break;
          let key: string;
          let value: string;
          try {
            key = image.utf16At(dataRva + entryOffset + 6, LIMITS.maxVersionKey);
            image.offsetFromRva(dataRva + entryOffset + 6);
            const valueOffset = dwordAlign(2 * (pefileLength(key) + 1) + entryOffset + 6, dataRva);
            value = image.utf16At(dataRva + valueOffset, Math.min(entry[1], LIMITS.maxVersionValue));
            image.offsetFromRva(dataRva + valueOffset);
          } catch (e) {
            if (!(e instanceof PeRangeError)) throw e;
            notes.add('version information string cannot be read');
            break;
          }
          entryOffset = entry[0] === 0 ? tableOffset + table[0] : dwordAlign(entry[0] + entryOffset, dataRva);
          setOwn(strings, key, value);
        }
        const next = dwordAlign(table[0] + tableOffset, dataRva);
        if (next === tableOffset) break;
        tableOffset = next;
        if (tableOffset >= info[0]) break;
      }
    }
    infoOffset = dwordAlign(info[0] + infoOffset, dataRva);
    if (info[0] === 0 || infoOffset >= top[0]) break;
  }
  return { strings, file_version: fileVersion, product_version: productVersion };
}
