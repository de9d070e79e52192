// A minimal PE writer for tests and the synthetic corpus: valid, inert PE32/PE32+ images with chosen imports, exports, resources and sections.
import { peChecksum } from './headers.js';

/** An imported DLL: names, or numbers for imports by ordinal. */
export interface PeImportSpec {
  readonly dll: string;
  readonly symbols: readonly (string | number)[];
}

export interface PeExportSymbolSpec {
  /** Omit for an export by ordinal only. */
  readonly name?: string;
  /** Chosen automatically (next free) when omitted. */
  readonly ordinal?: number;
  /** `OTHERDLL.Function`: the export forwards there instead of pointing at code. */
  readonly forwarder?: string;
}

export interface PeExportSpec {
  /** The DLL name recorded in the export directory (default `module.dll`). */
  readonly name?: string;
  /** Ordinal base (default 1). */
  readonly base?: number;
  readonly symbols: readonly PeExportSymbolSpec[];
}

export interface PeResourceSpec {
  /** A numeric type (RT_RCDATA = 10, ...) or a type name. */
  readonly type: number | string;
  readonly name: number | string;
  readonly language?: number;
  readonly codePage?: number;
  readonly data: Uint8Array;
}

export interface PeSectionSpec {
  /** At most 8 bytes. */
  readonly name: string;
  readonly data: Uint8Array;
  /** Default: initialised, readable data. */
  readonly characteristics?: number;
  /** Default: the data length. */
  readonly virtualSize?: number;
}

export interface PeVersionSpec {
  readonly strings: Readonly<Record<string, string>>;
  readonly fileVersion?: readonly [number, number, number, number];
  readonly productVersion?: readonly [number, number, number, number];
}

export interface PeBuildSpec {
  readonly format?: 'PE32' | 'PE32+';
  readonly dll?: boolean;
  readonly subsystem?: number;
  readonly timestamp?: number;
  readonly imageBase?: number;
  readonly imports?: readonly PeImportSpec[];
  readonly delayImports?: readonly PeImportSpec[];
  /** Bound import descriptors (DLL name and the timestamp it was bound against), with optional forwarder references. */
  readonly boundImports?: readonly { readonly dll: string; readonly timestamp: number; readonly forwarders?: readonly { readonly dll: string; readonly timestamp: number }[] }[];
  readonly exports?: PeExportSpec;
  readonly resources?: readonly PeResourceSpec[];
  readonly versionInfo?: PeVersionSpec;
  readonly manifest?: string;
  /** Number of inert TLS callbacks (each a bare `ret`). */
  readonly tlsCallbacks?: number;
  readonly pdb?: { readonly path: string; readonly guid?: Uint8Array; readonly age?: number };
  readonly rich?: readonly { readonly productId: number; readonly build: number; readonly count: number }[];
  /** Printable strings stored in .rdata, as ASCII and as UTF-16LE. */
  readonly strings?: readonly string[];
  readonly wideStrings?: readonly string[];
  /** Extra sections after the standard ones. */
  readonly sections?: readonly PeSectionSpec[];
  /** Bytes appended after the last section. */
  readonly overlay?: Uint8Array;
  /** A signature blob wrapped in one WIN_CERTIFICATE and appended at the end (not a valid signature). */
  readonly certificate?: Uint8Array;
}

const FILE_ALIGNMENT = 0x200;
const SECTION_ALIGNMENT = 0x1000;
const SCN_CODE = 0x60000020;
const SCN_RDATA = 0x40000040;
const SCN_DATA = 0xc0000040;

function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

/** A growable little-endian byte buffer. */
class Buf {
  private bytes = new Uint8Array(256);
  length = 0;

  private ensure(n: number): void {
    if (n <= this.bytes.length) return;
    let size = this.bytes.length;
    while (size < n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  reserve(n: number): number {
    const at = this.length;
    this.ensure(at + n);
    this.length += n;
    return at;
  }

  alignTo(a: number, fill = 0): void {
    const target = align(this.length, a);
    const at = this.reserve(target - this.length);
    this.bytes.fill(fill, at, target);
  }

  put(data: ArrayLike<number>): number {
    const at = this.reserve(data.length);
    this.bytes.set(data, at);
    return at;
  }

  u8(at: number, v: number): void {
    this.ensure(at + 1);
    this.bytes[at] = v & 0xff;
  }

  u16(at: number, v: number): void {
    this.u8(at, v);
    this.u8(at + 1, v >>> 8);
  }

  u32(at: number, v: number): void {
    this.u16(at, v & 0xffff);
    this.u16(at + 2, Math.floor(v / 0x10000) & 0xffff);
  }

  u64(at: number, v: number): void {
    this.u32(at, v % 0x1_0000_0000);
    this.u32(at + 4, Math.floor(v / 0x1_0000_0000));
  }

  ascii(s: string): number {
    const at = this.put(Array.from(s, (c) => c.charCodeAt(0) & 0xff));
    this.put([0]);
    return at;
  }

  utf16(s: string, terminate = true): number {
    const at = this.reserve(s.length * 2 + (terminate ? 2 : 0));
    for (let i = 0; i < s.length; i++) this.u16(at + 2 * i, s.charCodeAt(i));
    if (terminate) this.u16(at + 2 * s.length, 0);
    return at;
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** Section RVAs and file offsets decided by the first layout pass. */
interface Placement {
  text: number;
  rdata: number;
  data: number;
  rsrc: number;
  rdataFile: number;
}

interface Built {
  text: Uint8Array;
  rdata: Uint8Array;
  data: Uint8Array;
  rsrc: Uint8Array;
  entry: number;
  dirs: Map<number, [number, number]>;
}

/** The inert machine code: every routine only returns. */
function stubs(plus: boolean): { exeEntry: number[]; dllEntry: number[]; tls: number[]; func: number[] } {
  return plus
    ? { exeEntry: [0x33, 0xc0, 0xc3], dllEntry: [0xb8, 1, 0, 0, 0, 0xc3], tls: [0xc3], func: [0x33, 0xc0, 0xc3] }
    : { exeEntry: [0x33, 0xc0, 0xc3], dllEntry: [0xb8, 1, 0, 0, 0, 0xc2, 0x0c, 0x00], tls: [0xc2, 0x0c, 0x00], func: [0x33, 0xc0, 0xc3] };
}

function layout(spec: PeBuildSpec, at: Placement, imageBase: number): Built {
  const plus = spec.format === 'PE32+';
  const ptr = plus ? 8 : 4;
  const putPtr = (b: Buf, off: number, v: number): void => (plus ? b.u64(off, v) : b.u32(off, v));
  const code = stubs(plus);
  const dirs = new Map<number, [number, number]>();

  // .text: entry point, one routine per export, one per TLS callback, one shared delay-load stub.
  const text = new Buf();
  const routine = (bytes: number[]): number => {
    text.alignTo(16, 0xcc);
    return at.text + text.put(bytes);
  };
  const entry = routine(spec.dll === true ? code.dllEntry : code.exeEntry);
  const exportSymbols = spec.exports?.symbols ?? [];
  const exportCode = exportSymbols.map((s) => (s.forwarder === undefined ? routine(code.func) : 0));
  const tlsCode = Array.from({ length: spec.tlsCallbacks ?? 0 }, () => routine(code.tls));
  const delayStub = (spec.delayImports?.length ?? 0) > 0 ? routine(code.func) : 0;
  text.alignTo(16, 0xcc);

  // .data: the TLS index and template, the delay-load IATs and module handles (the loader and helper write there).
  const data = new Buf();
  const tlsIndex = (spec.tlsCallbacks ?? 0) > 0 ? data.reserve(8) : -1;
  const tlsTemplate = tlsIndex >= 0 ? data.put([0x54, 0x4c, 0x53, 0, 0, 0, 0, 0]) : -1;
  const delayIat: number[] = [];
  const delayHandle: number[] = [];
  for (const d of spec.delayImports ?? []) {
    data.alignTo(ptr);
    delayHandle.push(data.reserve(ptr));
    const iat = data.reserve(ptr * (d.symbols.length + 1));
    d.symbols.forEach((_, i) => putPtr(data, iat + i * ptr, imageBase + delayStub));
    delayIat.push(iat);
  }

  // .rdata: the import address table first (as linkers lay it out), then everything read-only.
  const rdata = new Buf();
  const imports = spec.imports ?? [];
  const iatStart = rdata.length;
  const iats = imports.map((d) => rdata.reserve(ptr * (d.symbols.length + 1)));
  if (imports.length > 0) dirs.set(12, [at.rdata + iatStart, rdata.length - iatStart]);
  rdata.alignTo(16);

  /** Writes one lookup-table entry: the ordinal flag (bit 31 or 63) plus the ordinal, or the hint/name RVA. */
  const putThunk = (b: Buf, off: number, sym: string | number, hintName: Map<string, number>): void => {
    if (typeof sym === 'number') {
      b.u32(off, plus ? sym & 0xffff : 0x80000000 + (sym & 0xffff));
      if (plus) b.u32(off + 4, 0x80000000);
    } else putPtr(b, off, at.rdata + (hintName.get(sym) as number));
  };
  const hintNames = (list: readonly PeImportSpec[]): Map<string, number>[] =>
    list.map((d) => {
      const m = new Map<string, number>();
      d.symbols.forEach((s, hint) => {
        if (typeof s !== 'string' || m.has(s)) return;
        rdata.alignTo(2);
        const off = rdata.reserve(2);
        rdata.u16(off, hint);
        rdata.ascii(s);
        m.set(s, off);
      });
      return m;
    });

  if (imports.length > 0) {
    const descriptors = rdata.reserve(20 * (imports.length + 1));
    const names = hintNames(imports);
    imports.forEach((d, i) => {
      rdata.alignTo(ptr);
      const ilt = rdata.reserve(ptr * (d.symbols.length + 1));
      d.symbols.forEach((s, k) => {
        putThunk(rdata, ilt + k * ptr, s, names[i] as Map<string, number>);
        putThunk(rdata, (iats[i] as number) + k * ptr, s, names[i] as Map<string, number>);
      });
      const dllName = rdata.ascii(d.dll);
      const desc = descriptors + 20 * i;
      rdata.u32(desc, at.rdata + ilt);
      rdata.u32(desc + 12, at.rdata + dllName);
      rdata.u32(desc + 16, at.rdata + (iats[i] as number));
    });
    dirs.set(1, [at.rdata + descriptors, 20 * (imports.length + 1)]);
  }

  const delay = spec.delayImports ?? [];
  if (delay.length > 0) {
    rdata.alignTo(8);
    const descriptors = rdata.reserve(32 * (delay.length + 1));
    const names = hintNames(delay);
    delay.forEach((d, i) => {
      rdata.alignTo(ptr);
      const int = rdata.reserve(ptr * (d.symbols.length + 1));
      d.symbols.forEach((s, k) => putThunk(rdata, int + k * ptr, s, names[i] as Map<string, number>));
      const dllName = rdata.ascii(d.dll);
      const desc = descriptors + 32 * i;
      rdata.u32(desc, 1); // attributes: RVA-based descriptor
      rdata.u32(desc + 4, at.rdata + dllName);
      rdata.u32(desc + 8, at.data + (delayHandle[i] as number));
      rdata.u32(desc + 12, at.data + (delayIat[i] as number));
      rdata.u32(desc + 16, at.rdata + int);
    });
    dirs.set(13, [at.rdata + descriptors, 32 * (delay.length + 1)]);
  }

  if (spec.exports !== undefined) {
    rdata.alignTo(4);
    const base = spec.exports.base ?? 1;
    const used = new Set(exportSymbols.map((s) => s.ordinal).filter((o): o is number => o !== undefined));
    let next = base;
    const ordinals = exportSymbols.map((s) => {
      if (s.ordinal !== undefined) return s.ordinal;
      while (used.has(next)) next++;
      used.add(next);
      return next;
    });
    const count = ordinals.length === 0 ? 0 : Math.max(...ordinals) - base + 1;
    const named = exportSymbols
      .map((s, i) => ({ name: s.name, i }))
      .filter((x): x is { name: string; i: number } => x.name !== undefined)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirAt = rdata.reserve(40);
    const functions = rdata.reserve(4 * count);
    const nameTable = rdata.reserve(4 * named.length);
    const ordinalTable = rdata.reserve(2 * named.length);
    const dllName = rdata.ascii(spec.exports.name ?? 'module.dll');
    named.forEach((n, k) => {
      rdata.u32(nameTable + 4 * k, at.rdata + rdata.ascii(n.name));
      rdata.u16(ordinalTable + 2 * k, (ordinals[n.i] as number) - base);
    });
    exportSymbols.forEach((s, i) => {
      const target = s.forwarder === undefined ? (exportCode[i] as number) : at.rdata + rdata.ascii(s.forwarder);
      rdata.u32(functions + 4 * ((ordinals[i] as number) - base), target);
    });
    rdata.u32(dirAt + 4, spec.timestamp ?? 0);
    rdata.u32(dirAt + 12, at.rdata + dllName);
    rdata.u32(dirAt + 16, base);
    rdata.u32(dirAt + 20, count);
    rdata.u32(dirAt + 24, named.length);
    rdata.u32(dirAt + 28, at.rdata + functions);
    rdata.u32(dirAt + 32, at.rdata + nameTable);
    rdata.u32(dirAt + 36, at.rdata + ordinalTable);
    // Forwarder strings must lie inside the directory's range, so it spans everything written above.
    dirs.set(0, [at.rdata + dirAt, rdata.length - dirAt]);
  }

  if ((spec.tlsCallbacks ?? 0) > 0) {
    rdata.alignTo(ptr);
    const callbacks = rdata.reserve(ptr * (tlsCode.length + 1));
    tlsCode.forEach((rva, i) => putPtr(rdata, callbacks + i * ptr, imageBase + rva));
    const dir = rdata.reserve(plus ? 40 : 24);
    putPtr(rdata, dir, imageBase + at.data + tlsTemplate);
    putPtr(rdata, dir + ptr, imageBase + at.data + tlsTemplate + 8);
    putPtr(rdata, dir + 2 * ptr, imageBase + at.data + tlsIndex);
    putPtr(rdata, dir + 3 * ptr, imageBase + at.rdata + callbacks);
    dirs.set(9, [at.rdata + dir, plus ? 40 : 24]);
  }

  if (spec.pdb !== undefined) {
    rdata.alignTo(4);
    const dbg = rdata.reserve(28);
    const cv = rdata.length;
    rdata.put([0x52, 0x53, 0x44, 0x53]); // RSDS
    rdata.put(spec.pdb.guid ?? new Uint8Array(16).fill(0x11));
    const age = rdata.reserve(4);
    rdata.u32(age, spec.pdb.age ?? 1);
    rdata.put(new TextEncoder().encode(spec.pdb.path));
    rdata.put([0]);
    rdata.u32(dbg + 4, spec.timestamp ?? 0);
    rdata.u32(dbg + 12, 2); // IMAGE_DEBUG_TYPE_CODEVIEW
    rdata.u32(dbg + 16, rdata.length - cv);
    rdata.u32(dbg + 20, at.rdata + cv);
    rdata.u32(dbg + 24, at.rdataFile + cv);
    dirs.set(6, [at.rdata + dbg, 28]);
  }

  const bound = spec.boundImports ?? [];
  if (bound.length > 0) {
    rdata.alignTo(4);
    const start = rdata.length;
    const entries = bound.reduce((a, b) => a + 1 + (b.forwarders?.length ?? 0), 0);
    const table = rdata.reserve(8 * (entries + 1));
    let cursor = table;
    const names: { at: number; dll: string }[] = [];
    for (const b of bound) {
      rdata.u32(cursor, b.timestamp);
      rdata.u16(cursor + 6, b.forwarders?.length ?? 0);
      names.push({ at: cursor + 4, dll: b.dll });
      cursor += 8;
      for (const f of b.forwarders ?? []) {
        rdata.u32(cursor, f.timestamp);
        names.push({ at: cursor + 4, dll: f.dll });
        cursor += 8;
      }
    }
    // Module names are offsets from the start of the bound import table.
    for (const n of names) rdata.u16(n.at, rdata.ascii(n.dll) - start);
    dirs.set(11, [at.rdata + start, rdata.length - start]);
  }

  for (const s of spec.strings ?? []) {
    rdata.alignTo(4);
    rdata.ascii(s);
  }
  for (const s of spec.wideStrings ?? []) {
    // A NUL pair first, so the tail of a preceding ASCII string cannot read as the wide string's first character.
    rdata.put([0, 0]);
    rdata.alignTo(4);
    rdata.utf16(s);
  }

  const resources = [...(spec.resources ?? [])];
  if (spec.versionInfo !== undefined) resources.push({ type: 16, name: 1, language: 0x409, data: versionResource(spec.versionInfo) });
  if (spec.manifest !== undefined) resources.push({ type: 24, name: 1, language: 0x409, data: new TextEncoder().encode(spec.manifest) });
  const rsrc = resources.length > 0 ? resourceSection(resources, at.rsrc) : new Uint8Array(0);
  if (rsrc.length > 0) dirs.set(2, [at.rsrc, rsrc.length]);

  return { text: text.done(), rdata: rdata.done(), data: data.done(), rsrc, entry, dirs };
}

type Key = number | string;

/** Resource directory order: named entries first (by name), then ids ascending. */
function keyOrder(a: Key, b: Key): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string') return -1;
  if (typeof b === 'string') return 1;
  return a - b;
}

/** The .rsrc section: type, name and language directories, the name strings, data entries, then the data. */
function resourceSection(resources: readonly PeResourceSpec[], rva: number): Uint8Array {
  const tree = new Map<Key, Map<Key, Map<number, PeResourceSpec>>>();
  for (const r of resources) {
    const names = tree.get(r.type) ?? new Map<Key, Map<number, PeResourceSpec>>();
    tree.set(r.type, names);
    const langs = names.get(r.name) ?? new Map<number, PeResourceSpec>();
    names.set(r.name, langs);
    langs.set(r.language ?? 0, r);
  }
  const b = new Buf();
  const dirAt = (entries: Key[]): number => {
    const at = b.reserve(16 + 8 * entries.length);
    b.u16(at + 12, entries.filter((k) => typeof k === 'string').length);
    b.u16(at + 14, entries.filter((k) => typeof k === 'number').length);
    return at;
  };
  const pendingNames: { entry: number; name: string }[] = [];
  const pendingData: { entry: number; res: PeResourceSpec }[] = [];
  const setKey = (entry: number, key: Key): void => {
    if (typeof key === 'string') pendingNames.push({ entry, name: key });
    else b.u32(entry, key);
  };
  const types = [...tree.keys()].sort(keyOrder);
  const root = dirAt(types);
  types.forEach((type, ti) => {
    const names = tree.get(type) as Map<Key, Map<number, PeResourceSpec>>;
    const nameKeys = [...names.keys()].sort(keyOrder);
    const typeDir = dirAt(nameKeys);
    setKey(root + 16 + 8 * ti, type);
    b.u32(root + 16 + 8 * ti + 4, 0x80000000 + typeDir);
    nameKeys.forEach((name, ni) => {
      const langs = names.get(name) as Map<number, PeResourceSpec>;
      const langKeys = [...langs.keys()].sort((x, y) => x - y);
      const nameDir = dirAt(langKeys);
      setKey(typeDir + 16 + 8 * ni, name);
      b.u32(typeDir + 16 + 8 * ni + 4, 0x80000000 + nameDir);
      langKeys.forEach((lang, li) => {
        b.u32(nameDir + 16 + 8 * li, lang);
        pendingData.push({ entry: nameDir + 16 + 8 * li + 4, res: langs.get(lang) as PeResourceSpec });
      });
    });
  });
  for (const p of pendingNames) {
    b.alignTo(2);
    const at = b.reserve(2);
    b.u16(at, p.name.length);
    b.utf16(p.name, false);
    b.u32(p.entry, 0x80000000 + at);
  }
  b.alignTo(4);
  const dataEntries = pendingData.map((p) => {
    const at = b.reserve(16);
    b.u32(p.entry, at);
    return at;
  });
  pendingData.forEach((p, i) => {
    b.alignTo(8);
    const at = b.put(p.res.data);
    const e = dataEntries[i] as number;
    b.u32(e, rva + at);
    b.u32(e + 4, p.res.data.length);
    b.u32(e + 8, p.res.codePage ?? 0);
  });
  return b.done();
}

/** A VS_VERSIONINFO block: fixed file info, one StringFileInfo table (040904b0), the Translation var. */
export function versionResource(v: PeVersionSpec): Uint8Array {
  const b = new Buf();
  /** Writes a node header and key, runs `body`, then fills in wLength. */
  const node = (key: string, type: number, valueLength: number, body: () => void): void => {
    b.alignTo(4);
    const at = b.reserve(6);
    b.u16(at + 2, valueLength);
    b.u16(at + 4, type);
    b.utf16(key);
    b.alignTo(4);
    body();
    b.u16(at, b.length - at);
  };
  const fv = v.fileVersion ?? [1, 0, 0, 0];
  const pv = v.productVersion ?? fv;
  node('VS_VERSION_INFO', 0, 52, () => {
    const f = b.reserve(52);
    b.u32(f, 0xfeef04bd);
    b.u32(f + 4, 0x00010000);
    b.u32(f + 8, fv[0] * 0x10000 + fv[1]);
    b.u32(f + 12, fv[2] * 0x10000 + fv[3]);
    b.u32(f + 16, pv[0] * 0x10000 + pv[1]);
    b.u32(f + 20, pv[2] * 0x10000 + pv[3]);
    b.u32(f + 24, 0x3f);
    b.u32(f + 32, 0x40004); // VOS_NT_WINDOWS32
    b.u32(f + 36, 1); // VFT_APP
    node('StringFileInfo', 1, 0, () => {
      node('040904b0', 1, 0, () => {
        for (const [key, value] of Object.entries(v.strings)) {
          node(key, 1, value.length + 1, () => {
            b.utf16(value);
          });
        }
      });
    });
    node('VarFileInfo', 1, 0, () => {
      node('Translation', 0, 4, () => {
        const t = b.reserve(4);
        b.u16(t, 0x409);
        b.u16(t + 2, 0x4b0);
      });
    });
  });
  return b.done();
}

/** The classic DOS stub: prints "This program cannot be run in DOS mode." and exits. */
const DOS_STUB = [
  0x0e, 0x1f, 0xba, 0x0e, 0x00, 0xb4, 0x09, 0xcd, 0x21, 0xb8, 0x01, 0x4c, 0xcd, 0x21,
  ...Array.from('This program cannot be run in DOS mode.\r\r\n$', (c) => c.charCodeAt(0)),
];

function rol32(value: number, bits: number): number {
  const n = bits & 31;
  return ((value << n) | (value >>> (32 - n))) >>> 0;
}

/** Builds a PE image from a spec. The code only returns: the file is structurally valid and does nothing. */
export function buildPe(spec: PeBuildSpec): Uint8Array {
  const plus = spec.format === 'PE32+';
  const dll = spec.dll === true;
  const imageBase = spec.imageBase ?? (plus ? (dll ? 0x180000000 : 0x140000000) : dll ? 0x10000000 : 0x400000);
  const extra = spec.sections ?? [];
  for (const s of extra) if (s.name.length > 8) throw new RangeError('a section name has at most 8 bytes');

  // Headers: DOS header and stub, the Rich header if asked for, NT headers, the section table.
  const rich = spec.rich ?? [];
  const dosEnd = 0x40 + DOS_STUB.length;
  const richStart = align(dosEnd, 16);
  const richSize = rich.length > 0 ? 16 + 8 * rich.length + 8 : 0;
  const eLfanew = align(richStart + richSize, 8);
  const optSize = (plus ? 112 : 96) + 16 * 8;
  const sectionCountGuess = 4 + extra.length;
  const headersSize = align(eLfanew + 24 + optSize + 40 * sectionCountGuess, FILE_ALIGNMENT);

  // Two passes: sizes do not depend on addresses, so the first pass fixes the layout the second fills in.
  const place = (built: Built | null): { placement: Placement; order: { name: string; data: Uint8Array; vsize: number; flags: number; key: string }[] } => {
    const order: { name: string; data: Uint8Array; vsize: number; flags: number; key: string }[] = [];
    const add = (key: string, name: string, data: Uint8Array, flags: number, vsize = data.length): void => {
      if (data.length > 0 || vsize > 0) order.push({ key, name, data, vsize, flags });
    };
    const b = built ?? { text: new Uint8Array(0), rdata: new Uint8Array(0), data: new Uint8Array(0), rsrc: new Uint8Array(0) };
    add('text', '.text', b.text.length > 0 ? b.text : new Uint8Array(16), SCN_CODE);
    add('rdata', '.rdata', b.rdata, SCN_RDATA);
    add('data', '.data', b.data, SCN_DATA);
    add('rsrc', '.rsrc', b.rsrc, SCN_RDATA);
    extra.forEach((s, i) => add(`x${i}`, s.name, s.data, s.characteristics ?? SCN_RDATA, s.virtualSize ?? s.data.length));
    const p: Placement = { text: 0, rdata: 0, data: 0, rsrc: 0, rdataFile: 0 };
    let rva = SECTION_ALIGNMENT;
    let file = headersSize;
    for (const s of order) {
      if (s.key === 'text' || s.key === 'rdata' || s.key === 'data' || s.key === 'rsrc') p[s.key] = rva;
      if (s.key === 'rdata') p.rdataFile = file;
      rva += align(Math.max(s.vsize, 1), SECTION_ALIGNMENT);
      file += align(s.data.length, FILE_ALIGNMENT);
    }
    return { placement: p, order };
  };
  const first = layout(spec, { text: SECTION_ALIGNMENT, rdata: SECTION_ALIGNMENT, data: SECTION_ALIGNMENT, rsrc: SECTION_ALIGNMENT, rdataFile: headersSize }, imageBase);
  const { placement } = place(first);
  const built = layout(spec, placement, imageBase);
  const { order } = place(built);

  const out = new Buf();
  out.reserve(headersSize);
  out.u16(0, 0x5a4d);
  out.u16(2, 0x90);
  out.u16(4, 3);
  out.u16(8, 4);
  out.u16(0x0c, 0xffff);
  out.u16(0x10, 0xb8);
  out.u16(0x18, 0x40);
  out.u32(0x3c, eLfanew);
  DOS_STUB.forEach((v, i) => out.u8(0x40 + i, v));

  if (rich.length > 0) {
    // The linker's checksum over the DOS header and stub (e_lfanew excluded) and the entries, used as the XOR key.
    const head = out.done();
    let key = richStart;
    for (let i = 0; i < richStart; i++) if (i < 0x3c || i >= 0x40) key = (key + rol32(head[i] as number, i)) >>> 0;
    for (const e of rich) key = (key + rol32(((e.productId << 16) | e.build) >>> 0, e.count)) >>> 0;
    out.u32(richStart, (0x536e6144 ^ key) >>> 0);
    for (let k = 1; k < 4; k++) out.u32(richStart + 4 * k, key);
    rich.forEach((e, i) => {
      out.u32(richStart + 16 + 8 * i, (((e.productId << 16) | e.build) ^ key) >>> 0);
      out.u32(richStart + 20 + 8 * i, (e.count ^ key) >>> 0);
    });
    out.u32(richStart + 16 + 8 * rich.length, 0x68636952);
    out.u32(richStart + 20 + 8 * rich.length, key);
  }

  const nt = eLfanew;
  out.u32(nt, 0x00004550);
  const fh = nt + 4;
  out.u16(fh, plus ? 0x8664 : 0x14c);
  out.u16(fh + 2, order.length);
  out.u32(fh + 4, spec.timestamp ?? 0);
  out.u16(fh + 16, optSize);
  out.u16(fh + 18, 0x0002 | 0x0001 | (plus ? 0x0020 : 0x0100) | (dll ? 0x2000 : 0));

  const oh = fh + 20;
  const last = order[order.length - 1];
  let sizeOfImage = SECTION_ALIGNMENT;
  let sizeOfCode = 0;
  let sizeOfData = 0;
  let fileCursor = headersSize;
  const rawOffsets: number[] = [];
  let rva = SECTION_ALIGNMENT;
  const rvas: number[] = [];
  for (const s of order) {
    rvas.push(rva);
    rawOffsets.push(fileCursor);
    const raw = align(s.data.length, FILE_ALIGNMENT);
    if (s.flags & 0x20) sizeOfCode += raw;
    else sizeOfData += raw;
    fileCursor += raw;
    rva += align(Math.max(s.vsize, 1), SECTION_ALIGNMENT);
  }
  if (last !== undefined) sizeOfImage = rva;
  out.u16(oh, plus ? 0x20b : 0x10b);
  out.u8(oh + 2, 14);
  out.u32(oh + 4, sizeOfCode);
  out.u32(oh + 8, sizeOfData);
  out.u32(oh + 16, built.entry);
  out.u32(oh + 20, placement.text);
  if (plus) out.u64(oh + 24, imageBase);
  else {
    out.u32(oh + 24, rvas[1] ?? placement.text);
    out.u32(oh + 28, imageBase);
  }
  out.u32(oh + 32, SECTION_ALIGNMENT);
  out.u32(oh + 36, FILE_ALIGNMENT);
  out.u16(oh + 40, 6);
  out.u16(oh + 48, 6);
  out.u32(oh + 56, sizeOfImage);
  out.u32(oh + 60, headersSize);
  out.u16(oh + 68, spec.subsystem ?? (dll ? 2 : 3));
  out.u16(oh + 70, 0x0100 | (dll ? 0 : 0x8000));
  const sizes = [0x100000, 0x1000, 0x100000, 0x1000];
  sizes.forEach((v, i) => (plus ? out.u64(oh + 72 + 8 * i, v) : out.u32(oh + 72 + 4 * i, v)));
  const dirsAt = oh + (plus ? 112 : 96);
  out.u32(dirsAt - 4, 16);
  for (const [index, [dirRva, size]] of built.dirs) {
    out.u32(dirsAt + 8 * index, dirRva);
    out.u32(dirsAt + 8 * index + 4, size);
  }

  const table = oh + optSize;
  order.forEach((s, i) => {
    const e = table + 40 * i;
    Array.from(s.name, (c) => c.charCodeAt(0)).forEach((c, k) => out.u8(e + k, c));
    out.u32(e + 8, s.vsize);
    out.u32(e + 12, rvas[i] as number);
    out.u32(e + 16, align(s.data.length, FILE_ALIGNMENT));
    out.u32(e + 20, s.data.length > 0 ? (rawOffsets[i] as number) : 0);
    out.u32(e + 36, s.flags);
  });

  for (const s of order) {
    out.put(s.data);
    out.alignTo(FILE_ALIGNMENT);
  }
  if (spec.overlay !== undefined) out.put(spec.overlay);
  if (spec.certificate !== undefined) {
    out.alignTo(8);
    const at = out.reserve(8);
    out.put(spec.certificate);
    out.alignTo(8);
    out.u32(at, out.length - at);
    out.u16(at + 4, 0x0200);
    out.u16(at + 6, 0x0002);
    out.u32(dirsAt + 8 * 4, at);
    out.u32(dirsAt + 8 * 4 + 4, out.length - at);
  }
  const image = out.done();
  const checksum = peChecksum(image, oh + 64);
  new DataView(image.buffer, image.byteOffset).setUint32(oh + 64, checksum, true);
  return image;
}
