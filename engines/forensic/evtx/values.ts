// Decoding of BinXml values (every MS-EVEN6 value type and its array form) into text or typed value nodes.
import { K, NULL_VALUE, PROBE_TYPE, valueNode, VT, type XText, type XValue } from './ir.js';
import { filetimeIso, floatText, guidText, hexPrefixed, hexUpper, isoMicros, sidLength, sidText, systemtimeIso, utf16 } from './text.js';

/** A malformed structure inside one record or template: the record is skipped with a warning, never the file. */
export class BinXmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BinXmlError';
  }
}

const ansiDecoder = new TextDecoder('windows-1252');

/** Byte width of the fixed-size value types, 0 for variable-size ones. */
export function fixedSize(type: number): number {
  switch (type) {
    case VT.Int8:
    case VT.UInt8:
      return 1;
    case VT.Int16:
    case VT.UInt16:
      return 2;
    case VT.Int32:
    case VT.UInt32:
    case VT.Real32:
    case VT.Bool:
    case VT.HexInt32:
      return 4;
    case VT.Int64:
    case VT.UInt64:
    case VT.Real64:
    case VT.FileTime:
    case VT.HexInt64:
      return 8;
    case VT.Guid:
    case VT.SysTime:
      return 16;
    default:
      return 0;
  }
}

function u16(d: Uint8Array, p: number): number {
  return d[p]! | (d[p + 1]! << 8);
}

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

// The literals below are ir.ts's textNode and valueNode written out (one call fewer per value while code is unoptimised).
function text(s: string): XText {
  const node = { k: K.Text as const, s, t: VT.String, v: null, items: undefined };
  return node;
}

function value(t: number, v: number | string | boolean | null): XValue {
  const node = { k: K.Value as const, s: '', t, v, items: undefined };
  return node;
}

/** A 64-bit integer as a number when exact, otherwise as its decimal string. */
function int64(lo: number, hi: number, signed: boolean): number | string {
  // Values of 32 bits are `lo` itself (or `lo | 0` when negative), which V8 holds as a small integer (Smi) when it
  // fits; the arithmetic below gives a boxed heap number even for an integral value, and values such as the record
  // ids are kept in every event (see u64 in chunk.ts).
  if (hi === 0) return lo;
  if (signed && hi === 0xffffffff && lo >= 0x80000000) return lo | 0;
  if (signed && hi >= 0x80000000) {
    const n = -((0xffffffff - hi) * 4294967296 + (0xffffffff - lo) + 1);
    if (Number.isSafeInteger(n)) return n;
    return ((BigInt(hi) << 32n) | BigInt(lo)) - (1n << 64n) + '';
  }
  const n = hi * 4294967296 + lo;
  if (Number.isSafeInteger(n)) return n;
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

/** Decodes one scalar of a fixed-size type at `p` (caller guarantees `fixedSize(type)` bytes). */
function fixedScalar(d: Uint8Array, p: number, type: number): XValue {
  switch (type) {
    case VT.Int8:
      return value(type, (d[p]! << 24) >> 24);
    case VT.UInt8:
      return value(type, d[p]!);
    case VT.Int16:
      return value(type, (u16(d, p) << 16) >> 16);
    case VT.UInt16:
      return value(type, u16(d, p));
    case VT.Int32:
      return value(type, u32(d, p) | 0);
    case VT.UInt32:
      return value(type, u32(d, p));
    case VT.Int64:
      return value(type, int64(u32(d, p), u32(d, p + 4), true));
    case VT.UInt64:
      return value(type, int64(u32(d, p), u32(d, p + 4), false));
    case VT.Real32:
      return value(type, new DataView(d.buffer, d.byteOffset + p, 4).getFloat32(0, true));
    case VT.Real64:
      return value(type, new DataView(d.buffer, d.byteOffset + p, 8).getFloat64(0, true));
    case VT.Bool:
      // Any non-zero 32-bit value is true (some producers write values other than 1).
      return value(type, u32(d, p) !== 0);
    case VT.Guid:
      return value(type, guidText(d, p));
    case VT.FileTime:
      return value(type, filetimeIso(u32(d, p), u32(d, p + 4)));
    case VT.SysTime:
      // An impossible SYSTEMTIME keeps the record and renders empty.
      return value(type, systemtimeIso(d, p) ?? '');
    case VT.HexInt32:
      return value(type, hexPrefixed(u32(d, p), 0));
    case VT.HexInt64:
      return value(type, hexPrefixed(u32(d, p), u32(d, p + 4)));
    default:
      throw new BinXmlError('unsupported fixed-size value type');
  }
}

function ansi(d: Uint8Array, p: number, size: number): string {
  // NUL bytes are dropped (they pad ANSI strings), as the evtx crate does.
  const bytes: number[] = [];
  for (let i = 0; i < size; i++) {
    const b = d[p + i]!;
    if (b !== 0) bytes.push(b);
  }
  return ansiDecoder.decode(Uint8Array.from(bytes));
}

/**
 * Decodes a substitution value of `size` bytes at `p` (inside a template instance). Strings become text nodes;
 * BinXml (0x21) is handled by the caller, which parses the nested fragment.
 */
export function decodeSized(d: Uint8Array, p: number, size: number, type: number): XText | XValue {
  if (type === VT.Null) return NULL_VALUE;
  if (type === VT.String) return text(utf16(d, p, size >> 1));
  if (type === VT.AnsiString) return text(ansi(d, p, size));
  if (type === VT.Binary) return value(type, hexUpper(d, p, size));
  if (type === VT.Sid) return value(type, sidText(d, p, size));
  if (type === VT.SizeT) {
    if (size === 4) return value(VT.HexInt32, hexPrefixed(u32(d, p), 0));
    if (size === 8) return value(VT.HexInt64, hexPrefixed(u32(d, p), u32(d, p + 4)));
    throw new BinXmlError('SizeT value with a size other than 4 or 8');
  }
  if (type & VT.ArrayFlag) return decodeArray(d, p, size, type);
  const width = fixedSize(type);
  if (width === 0) throw new BinXmlError('unsupported value type');
  if (size < width) throw new BinXmlError('value shorter than its type');
  return fixedScalar(d, p, type);
}

function decodeArray(d: Uint8Array, p: number, size: number, type: number): XValue {
  const base = type & 0x7f;
  const items: Array<XText | XValue> = [];
  if (base === VT.String) {
    // NUL-separated UTF-16 strings; a last item without its NUL runs to the end of the value.
    let start = p;
    const end = p + (size & ~1);
    for (let q = p; q < end; q += 2) {
      if (d[q] === 0 && d[q + 1] === 0) {
        items.push(text(utf16(d, start, (q - start) >> 1)));
        start = q + 2;
      }
    }
    if (start < end) items.push(text(utf16(d, start, (end - start) >> 1)));
  } else if (base === VT.Sid) {
    let q = p;
    while (q + 8 <= p + size) {
      const len = Math.min(sidLength(d, q), p + size - q);
      items.push(value(base, sidText(d, q, len)));
      q += len;
    }
  } else {
    const width = fixedSize(base);
    if (width === 0) throw new BinXmlError('unsupported array value type');
    if (size % width !== 0) throw new BinXmlError('array value size is not a multiple of its item size');
    for (let q = p; q < p + size; q += width) items.push(fixedScalar(d, q, base));
  }
  return valueNode(type, null, items);
}

/** Byte length of an unsized value token's payload at `p` (value tokens inside a BinXml stream), or -1 if unknown. */
export function unsizedLength(d: Uint8Array, p: number, end: number, type: number): number {
  if (type === VT.Null) return 0;
  if (type === VT.String || type === VT.BinXml) {
    if (p + 2 > end) return -1;
    return 2 + (type === VT.String ? 2 * u16(d, p) : u16(d, p));
  }
  if (type === VT.Sid) return p + 8 <= end ? sidLength(d, p) : -1;
  return fixedSize(type) || -1;
}

/** Decodes an unsized value token payload whose length `unsizedLength` returned. */
export function decodeUnsized(d: Uint8Array, p: number, len: number, type: number): XText | XValue {
  if (type === VT.Null) return NULL_VALUE;
  if (type === VT.String) return text(utf16(d, p + 2, (len - 2) >> 1));
  if (type === VT.Sid) return value(type, sidText(d, p, len));
  return fixedScalar(d, p, type);
}

/** The text of a value as the evtx crate prints it (XML text, JSON strings, attribute values). */
export function valueText(node: XText | XValue): string {
  if (node.k === K.Text) return node.s;
  if (node.items !== undefined) {
    let s = '';
    for (let i = 0; i < node.items.length; i++) s += (i === 0 ? '' : ',') + valueText(node.items[i]!);
    return s;
  }
  const v = node.v;
  if (v === null) return '';
  switch (node.t) {
    case VT.Real32:
      return floatText(v as number, true);
    case VT.Real64:
      return floatText(v as number, false);
    case VT.FileTime:
    case VT.SysTime:
      return v === '' ? '' : isoMicros(v as string);
    default:
      return typeof v === 'string' ? v : String(v);
  }
}

/** The JSON number or boolean the evtx crate writes for integer and boolean values, or undefined for text. */
export function valueAsJsonPrimitive(node: XValue): number | boolean | undefined {
  if (node.items !== undefined) return undefined;
  const t = node.t;
  if (t >= VT.Int8 && t <= VT.UInt64) return typeof node.v === 'number' ? node.v : undefined;
  if (t === VT.Bool) return node.v as boolean;
  // A render-plan probe (plan.ts) of a number or boolean renders as its slot's mark, a number with a fraction.
  if (t === PROBE_TYPE) return node.s === '' ? undefined : Number(node.s);
  return undefined;
}
