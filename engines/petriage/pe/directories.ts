// The smaller structures: debug directory (CodeView PDB path), TLS callbacks, Rich header, certificate table, overlay.
import * as bytescanModule from '../bytescan.js';
import * as constantsModule from './constants.js';
import type { Notes, RawDirectory } from './headers.js';
import * as imageModule from './image.js';
import { PeRangeError, type ByteReader, type PeImage, type SectionRecord } from './image.js';
import type { PeCertificateTable, PeCodeView, PeDebugEntry, PeRichEntry, PeRichHeader, PeTls } from './types.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { richScan } = bytescanModule;
const { DEBUG_TYPE_NAMES } = constantsModule;
const { LIMITS, cString, hex64Of, u16At, u32At } = imageModule;

const MAX_PDB_PATH = 1024;
const UTF8 = new TextDecoder('utf-8');

/** Two lower-case hex digits for each byte value. */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** A CodeView record (RSDS or NB10) at a file offset. */
function readCodeView(r: ByteReader, offset: number, size: number): PeCodeView | null {
  const d = r.slice(offset, offset + size);
  if (d.length < 4) return null;
  const magic = r.latin1Of(d.subarray(0, 4));
  if (magic === 'RSDS' && d.length >= 24) {
    const b = d.subarray(4, 20);
    const data1 = u32At(b, 0) as number;
    const data2 = u16At(b, 4) as number;
    const data3 = u16At(b, 6) as number;
    let tailHex = '';
    for (let i = 8; i < 16; i++) tailHex += HEX_BYTE[b[i] as number] as string;
    const guid = `${hex(data1, 8)}-${hex(data2, 4)}-${hex(data3, 4)}-${tailHex.slice(0, 4)}-${tailHex.slice(4)}`;
    const age = u32At(d, 20) as number;
    return {
      signature: 'RSDS',
      guid,
      age,
      symbol_key: `${hex(data1, 8)}${hex(data2, 4)}${hex(data3, 4)}${tailHex}${age.toString(16)}`.toUpperCase(),
      pdb_path: UTF8.decode(cString(d.subarray(24, 24 + MAX_PDB_PATH))),
    };
  }
  if (magic === 'NB10' && d.length >= 16) {
    const signature = u32At(d, 8) as number;
    const age = u32At(d, 12) as number;
    return {
      signature: 'NB10',
      guid: hex(signature, 8),
      age,
      symbol_key: `${hex(signature, 8).toUpperCase()}${age.toString(16).toUpperCase()}`,
      pdb_path: r.latin1Of(cString(d.subarray(16, 16 + MAX_PDB_PATH))),
    };
  }
  return null;
}

/** pefile parse_debug_directory: the entries (28 bytes each), all or nothing when one cannot be read. */
export function readDebug(image: PeImage, rva: number, size: number, notes: Notes): PeDebugEntry[] {
  const out: PeDebugEntry[] = [];
  const count = Math.floor(size / 28);
  if (count > LIMITS.maxDebugEntries) notes.add(`debug directory claims ${count} entries; read the first ${LIMITS.maxDebugEntries}`);
  for (let i = 0; i < Math.min(count, LIMITS.maxDebugEntries); i++) {
    let d: Uint8Array;
    try {
      d = image.exact(rva + 28 * i, 28);
    } catch (e) {
      if (!(e instanceof PeRangeError)) throw e;
      notes.add(`debug directory entry ${i} cannot be read`);
      return [];
    }
    const type = u32At(d, 12) as number;
    const sizeOfData = u32At(d, 16) as number;
    const pointer = u32At(d, 24) as number;
    out.push({
      type,
      type_name: DEBUG_TYPE_NAMES.get(type) ?? 'UNKNOWN',
      timestamp: u32At(d, 4) as number,
      size: sizeOfData,
      rva: u32At(d, 20) as number,
      offset: pointer,
      codeview: type === 2 ? readCodeView(image.r, pointer, sizeOfData) : null,
    });
  }
  return out;
}

/** A 64-bit (PE32+) or 32-bit address field at `o` as exact lower-case hex. */
function addressHex(d: Uint8Array, o: number, plus: boolean): string {
  const hi = plus ? (u32At(d, o + 4) as number) : 0;
  return hex64Of(hi, u32At(d, o) as number);
}

/** The TLS directory and its callback array (code that runs before the entry point). */
export function readTls(image: PeImage, rva: number, plus: boolean, imageBase: number, notes: Notes): PeTls | null {
  const size = plus ? 40 : 24;
  let d: Uint8Array;
  try {
    d = image.exact(rva, size);
  } catch (e) {
    if (!(e instanceof PeRangeError)) throw e;
    notes.add(`TLS directory at RVA 0x${rva.toString(16)} cannot be read`);
    return null;
  }
  const w = plus ? 8 : 4;
  const callbacksVa = (plus ? (u32At(d, 3 * w + 4) as number) * 0x1_0000_0000 : 0) + (u32At(d, 3 * w) as number);
  const callbacks: number[] = [];
  if (callbacksVa !== 0) {
    if (callbacksVa < imageBase) notes.add('TLS callback array address lies below the image base');
    else {
      let at = callbacksVa - imageBase;
      try {
        for (;;) {
          if (callbacks.length >= LIMITS.maxTlsCallbacks) {
            notes.add(`more than ${LIMITS.maxTlsCallbacks} TLS callbacks; the rest are not read`);
            break;
          }
          const e = image.exact(at, w);
          const va = (plus ? (u32At(e, 4) as number) * 0x1_0000_0000 : 0) + (u32At(e, 0) as number);
          if (va === 0) break;
          if (va < imageBase) notes.add('a TLS callback address lies below the image base');
          else callbacks.push(va - imageBase);
          at += w;
        }
      } catch (e) {
        if (!(e instanceof PeRangeError)) throw e;
        notes.add('TLS callback array cannot be read to its end');
      }
    }
  }
  return {
    start_address_of_raw_data: addressHex(d, 0, plus),
    end_address_of_raw_data: addressHex(d, w, plus),
    address_of_index: addressHex(d, 2 * w, plus),
    address_of_callbacks: addressHex(d, 3 * w, plus),
    callbacks,
  };
}

/** The unsigned little-endian 32-bit value at `at`, which the caller has checked lies inside `bytes`. */
function u32In(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24)) >>> 0;
}

/**
 * The Rich header between the DOS stub and the NT headers: linker tool entries and their checksum. The scans for the
 * "Rich" marker and DanS, and the checksum, run in bytescan.wat (`rich`) over the bytes below `limit`; the entries
 * are read in place (they lie between DanS and the marker), the padding words, which may lie past the end, through
 * the checked reader.
 */
export function readRich(r: ByteReader, end: number, notes: Notes): PeRichHeader | null {
  const bytes = r.bytes;
  const limit = Math.min(end, r.length);
  // The marker and its key lie at 0x80 or past it.
  if (!(limit >= 0x88)) return null;
  const scan = richScan(bytes, limit);
  if (scan === null) return null;
  const { richAt, dansAt } = scan;
  if (dansAt < 0) {
    notes.add('Rich marker without a DanS start; the Rich header is malformed');
    return null;
  }
  const key = u32In(bytes, richAt + 4);
  if (r.u32(dansAt + 4) !== key || r.u32(dansAt + 8) !== key || r.u32(dansAt + 12) !== key) {
    notes.add('Rich header padding is not in the linker format');
  }
  const entries: PeRichEntry[] = [];
  for (let i = dansAt + 16; i + 8 <= richAt; i += 8) {
    const compId = (u32In(bytes, i) ^ key) >>> 0;
    entries.push({ product_id: compId >>> 16, build: compId & 0xffff, count: (u32In(bytes, i + 4) ^ key) >>> 0 });
  }
  const sum = scan.sum;
  if (sum !== key) notes.add('Rich header checksum does not match its contents');
  return { offset: dansAt, checksum: key, checksum_computed: sum, checksum_valid: sum === key, entries };
}

/** The certificate table (SECURITY directory): where it is and its WIN_CERTIFICATE headers; signatures are not verified here. */
export function readCertificates(r: ByteReader, dir: RawDirectory | undefined, notes: Notes): PeCertificateTable | null {
  if (dir === undefined || dir.virtualAddress === 0 || dir.size === 0) return null;
  const offset = dir.virtualAddress;
  const end = offset + dir.size;
  const withinFile = end <= r.length;
  if (!withinFile) notes.add('certificate table runs past the end of the file');
  const entries: { offset: number; length: number; revision: number; type: number }[] = [];
  let at = offset;
  while (at + 8 <= Math.min(end, r.length)) {
    if (entries.length >= LIMITS.maxCertificates) {
      notes.add(`more than ${LIMITS.maxCertificates} certificate entries; the rest are not read`);
      break;
    }
    const length = r.u32(at);
    if (length < 8) {
      notes.add('certificate entry with a length below its header size');
      break;
    }
    entries.push({ offset: at, length, revision: r.u16(at + 4), type: r.u16(at + 6) });
    at += Math.ceil(length / 8) * 8;
  }
  return { offset, size: dir.size, within_file: withinFile, entries };
}

/** pefile get_overlay_data_start_offset: past the farthest of the optional header, section data and data directories. */
export function findOverlay(
  image: PeImage,
  optionalOffset: number,
  sizeOfOptionalHeader: number,
  directories: readonly RawDirectory[],
): { offset: number; size: number } | null {
  const fileSize = image.r.length;
  // The farthest end of the optional header, the sections' raw data and the directories (but the certificate
  // table's) that lies within the file.
  let best = 0;
  let end = optionalOffset + sizeOfOptionalHeader;
  if (best < end && end <= fileSize) best = end;
  const sections = image.sections;
  for (let i = 0; i < sections.length; i++) {
    const s = sections[i] as SectionRecord;
    end = s.pointerToRawData + s.sizeOfRawData;
    if (best < end && end <= fileSize) best = end;
  }
  for (let index = 0; index < directories.length; index++) {
    if (index === 4) continue;
    const d = directories[index] as RawDirectory;
    const offset = image.tryOffset(d.virtualAddress);
    if (offset === null) continue;
    end = offset + d.size;
    if (best < end && end <= fileSize) best = end;
  }
  return fileSize > best ? { offset: best, size: fileSize - best } : null;
}
