// Text primitives for the EVTX parser: UTF-16LE decoding, FILETIME/SYSTEMTIME to ISO 8601, GUID/SID/hex/float text.

import { civilFromDays } from '../time.js';

const utf16Decoder = new TextDecoder('utf-16le');

/** Longest text decoded through fromCharCode: past it, one native slice costs less than a concatenation per character. */
const SHORT_UNITS = 10;

/** Decodes `units` UTF-16LE code units at `off` (caller has bounds-checked), stopping at the first NUL. */
export function utf16(data: Uint8Array, off: number, units: number): string {
  if (units <= SHORT_UNITS) {
    // Code units up to U+00FF (most short values) as bytes, made one string by one native Latin-1 slice: one
    // allocation, where adding a character at a time made a string per character. Any other unit: the loop below.
    const out = scratchOf(SHORT_UNITS);
    let n = 0;
    for (; n < units; n++) {
      const p = off + 2 * n;
      if (data[p + 1] !== 0) break;
      const c = data[p]!;
      if (c === 0) return n === 0 ? '' : latin1Slice.call(out, 0, n);
      out[n] = c;
    }
    if (n === units) return n === 0 ? '' : latin1Slice.call(out, 0, n);
    let s = '';
    for (let i = 0; i < units; i++) {
      const p = off + 2 * i;
      const c = data[p]! | (data[p + 1]! << 8);
      if (c === 0) return s;
      // A surrogate goes through TextDecoder so lone halves become U+FFFD consistently.
      if (c >= 0xd800 && c <= 0xdfff) return utf16Long(data, off, units);
      s += String.fromCharCode(c);
    }
    return s;
  }
  // One scan for the NUL and for surrogates, then a native slice of the code units when none is a surrogate.
  let n = 0;
  let surrogate = false;
  for (; n < units; n++) {
    const p = off + 2 * n;
    const c = data[p]! | (data[p + 1]! << 8);
    if (c === 0) break;
    if (c >= 0xd800 && c <= 0xdfff) surrogate = true;
  }
  if (n === 0) return '';
  // TextDecoder also drops a leading byte-order mark, which texts of more than 32 units always went through.
  const bom = data[off] === 0xff && data[off + 1] === 0xfe && units > 32;
  if (surrogate || bom) return utf16Decoder.decode(data.subarray(off, off + 2 * n));
  return bufferOf(data).toString('utf16le', off, off + 2 * n);
}

/** A Buffer over each byte array utf16 reads (one per chunk), for its native UTF-16 slice. */
const BUFFERS = new WeakMap<Uint8Array, Buffer>();

function bufferOf(data: Uint8Array): Buffer {
  let b = BUFFERS.get(data);
  if (b === undefined) {
    b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    BUFFERS.set(data, b);
  }
  return b;
}

function utf16Long(data: Uint8Array, off: number, units: number): string {
  let n = 0;
  while (n < units) {
    const p = off + 2 * n;
    if (data[p] === 0 && data[p + 1] === 0) break;
    n++;
  }
  return n === 0 ? '' : utf16Decoder.decode(data.subarray(off, off + 2 * n));
}

const HEX_UPPER = '0123456789ABCDEF';

/** Each byte's two upper-case hex digits, as character codes (byte b at 2b and 2b + 1). */
const HEX_CODES = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  HEX_CODES[2 * b] = HEX_UPPER.charCodeAt(b >> 4);
  HEX_CODES[2 * b + 1] = HEX_UPPER.charCodeAt(b & 15);
}

/**
 * Where the ASCII texts below (GUIDs, hex, times) are written as bytes before one native Latin-1 slice makes them a
 * flat string: one allocation per text, where a concatenation per part made a chain of intermediate strings (and a
 * rope that each later read of the text had to flatten). Grows for a long Binary value.
 */
let scratch = Buffer.allocUnsafeSlow(256);
/** Buffer's native Latin-1 slice (`buf.latin1Slice(start, end)`: no argument checks), here only ever over ASCII bytes. */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice: (this: Buffer, start: number, end: number) => string }).latin1Slice;

function scratchOf(n: number): Buffer {
  if (scratch.length < n) scratch = Buffer.allocUnsafeSlow(Math.max(n, scratch.length * 2));
  return scratch;
}

/** Upper-case hex of bytes without separators, as the evtx crate renders Binary values. */
export function hexUpper(data: Uint8Array, off: number, len: number): string {
  if (len <= 0) return '';
  const out = scratchOf(2 * len);
  const h = HEX_CODES;
  for (let i = 0; i < len; i++) {
    const b = data[off + i]!;
    out[2 * i] = h[2 * b]!;
    out[2 * i + 1] = h[2 * b + 1]!;
  }
  return latin1Slice.call(out, 0, 2 * len);
}

/** `0x` + lower-case hex without padding (HexInt32/HexInt64/SizeT, as the evtx crate renders them). */
export function hexPrefixed(lo: number, hi: number): string {
  if (hi === 0) return `0x${lo.toString(16)}`;
  // A log repeats few 64-bit values (Keywords): keep the last one's text.
  if (lo === lastHexLo && hi === lastHexHi) return lastHexText;
  lastHexLo = lo;
  lastHexHi = hi;
  lastHexText = `0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')}`;
  return lastHexText;
}

let lastHexLo = -1;
let lastHexHi = -1;
let lastHexText = '';

/** The GUID's bytes in the order its text writes them (data1-3 little-endian), -1 for each hyphen. */
const GUID_ORDER: readonly number[] = [3, 2, 1, 0, -1, 5, 4, -1, 7, 6, -1, 8, 9, -1, 10, 11, 12, 13, 14, 15];

/** GUID in the evtx crate's form: upper-case, no braces, data1-3 little-endian. */
export function guidText(data: Uint8Array, off: number): string {
  const out = scratchOf(36);
  const h = HEX_CODES;
  let p = 0;
  for (let i = 0; i < GUID_ORDER.length; i++) {
    const k = GUID_ORDER[i]!;
    if (k < 0) out[p++] = 0x2d;
    else {
      const b = data[off + k]!;
      out[p++] = h[2 * b]!;
      out[p++] = h[2 * b + 1]!;
    }
  }
  return latin1Slice.call(out, 0, 36);
}

/**
 * SID as S-R-A-S1-..; `len` bounds the bytes available (a truncated SID renders the sub-authorities present,
 * and fewer than 8 bytes render `S-?`, which is what the evtx crate does for an unreadable SID).
 */
export function sidText(data: Uint8Array, off: number, len: number): string {
  if (len < 8) return 'S-?';
  // A log repeats a few SIDs (S-1-5-18 ...): the text of the last SID with the same bytes is given again.
  if (len === lastSidLength) {
    let same = true;
    for (let i = 0; i < len; i++)
      if (data[off + i] !== lastSid[i]) {
        same = false;
        break;
      }
    if (same) return lastSidText;
  }
  const text = sidTextOf(data, off, len);
  if (len <= lastSid.length) {
    lastSid.set(data.subarray(off, off + len));
    lastSidLength = len;
    lastSidText = text;
  } else lastSidLength = -1;
  return text;
}

/** The bytes of the SID sidText wrote last (up to 15 sub-authorities), their count (-1: none kept) and its text. */
const lastSid = new Uint8Array(68);
let lastSidLength = -1;
let lastSidText = '';

function sidTextOf(data: Uint8Array, off: number, len: number): string {
  const revision = data[off]!;
  const count = data[off + 1]!;
  let authority = 0;
  for (let i = 2; i < 8; i++) authority = authority * 256 + data[off + i]!;
  let s = `S-${revision}-${authority}`;
  for (let i = 0; i < count; i++) {
    const p = off + 8 + 4 * i;
    if (p + 4 > off + len) break;
    s += `-${(data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | (data[p + 3]! << 24)) >>> 0}`;
  }
  return s;
}

/** Byte length of the SID at `off` according to its own sub-authority count. */
export function sidLength(data: Uint8Array, off: number): number {
  return 8 + 4 * data[off + 1]!;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** '00' to '59'. */
const TWO: readonly string[] = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** The day (days since 1601) last written by filetimeIso and its `YYYY-MM-DDT` text: a chunk's records share their days. */
let lastDay = Number.NaN;
let lastDayText = '';

const TICKS_PER_SECOND = 10_000_000;
/** Days from 1601-01-01 to 1970-01-01. */
const EPOCH_DAYS_1601 = 134_774;

/**
 * FILETIME (100 ns ticks since 1601, given as 32-bit halves) as ISO 8601 UTC with seven fraction digits;
 * exact over the whole 64-bit range without BigInt: one day is 2^14 * 52734375 ticks, so shifting out
 * 14 bits first keeps every intermediate below 2^53.
 */
export function filetimeIso(lo: number, hi: number): string {
  // The value written last again (a record's TimeCreated nearly always equals its header's written time): its text.
  if (lo === lastLo && hi === lastHi) return lastIso;
  lastIso = filetimeText(lo, hi);
  lastLo = lo;
  lastHi = hi;
  return lastIso;
}

/** The FILETIME filetimeIso wrote last (-1: none) and its text. */
let lastLo = -1;
let lastHi = -1;
let lastIso = '';

function filetimeText(lo: number, hi: number): string {
  const t14 = hi * 262144 + Math.floor(lo / 16384);
  const days = Math.floor(t14 / 52734375);
  const rem = (t14 - days * 52734375) * 16384 + (lo % 16384);
  const secondsOfDay = Math.floor(rem / TICKS_PER_SECOND);
  const fraction = rem - secondsOfDay * TICKS_PER_SECOND;
  if (days !== lastDay) {
    lastDayText = `${dateOfDays(days - EPOCH_DAYS_1601)}T`;
    lastDay = days;
    lastSecond = -1;
  }
  if (secondsOfDay !== lastSecond) {
    const text = `${lastDayText}${TWO[Math.floor(secondsOfDay / 3600)]!}:${TWO[Math.floor(secondsOfDay / 60) % 60]!}:${TWO[secondsOfDay % 60]!}.`;
    if (secondText.length < text.length + 8) secondText = Buffer.allocUnsafeSlow(text.length + 8);
    secondLength = secondText.write(text, 0, 'latin1');
    lastSecond = secondsOfDay;
  }
  // The kept second's text, then the seven fraction digits and the Z, made one flat string by one native slice.
  const out = secondText;
  let p = secondLength + 7;
  out[p] = 0x5a;
  let f = fraction;
  for (let i = 0; i < 7; i++) {
    const q = Math.floor(f / 10);
    out[--p] = 0x30 + (f - q * 10);
    f = q;
  }
  return latin1Slice.call(out, 0, secondLength + 8);
}

/**
 * The second (of the last day) last written by filetimeIso, and its text up to the fraction as ASCII bytes (then room
 * for the fraction and the Z): records come in bursts.
 */
let lastSecond = -1;
let secondText = Buffer.allocUnsafeSlow(32);
let secondLength = 0;

/** Proleptic Gregorian date (YYYY-MM-DD, a sign before a negative year) from days since 1970-01-01. */
function dateOfDays(z: number): string {
  const { year: y, month: m, day: d } = civilFromDays(z);
  return `${y < 0 ? '-' : ''}${pad(Math.abs(y), 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** SYSTEMTIME (16 bytes) as ISO 8601 UTC with seven fraction digits, or null when a field is out of range. */
export function systemtimeIso(data: Uint8Array, off: number): string | null {
  const year = data[off]! | (data[off + 1]! << 8);
  const month = data[off + 2]! | (data[off + 3]! << 8);
  const day = data[off + 6]! | (data[off + 7]! << 8);
  const hour = data[off + 8]! | (data[off + 9]! << 8);
  const minute = data[off + 10]! | (data[off + 11]! << 8);
  const second = data[off + 12]! | (data[off + 13]! << 8);
  const ms = data[off + 14]! | (data[off + 15]! << 8);
  // An all-zero SYSTEMTIME means "unset"; by convention it renders as the FILETIME epoch.
  if (year === 0 && month === 0 && day === 0 && hour === 0 && minute === 0 && second === 0 && ms === 0) return filetimeIso(0, 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59 || ms > 999)
    return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms * 10000, 7)}Z`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The evtx crate prints timestamps with microseconds (truncated): drop the seventh fraction digit. */
export function isoMicros(iso7: string): string {
  return `${iso7.slice(0, -2)}Z`;
}

/**
 * Shortest round-trip text of a float in the style of Rust's float formatters used by the evtx crate
 * (decimal notation for moderate exponents with `.0` on integers, `e` notation otherwise).
 */
export function floatText(value: number, single: boolean): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  let digits: string;
  let exp: number;
  if (single) {
    // Shortest decimal that rounds back to the same 32-bit float.
    let found = value.toExponential();
    for (let p = 1; p <= 9; p++) {
      const candidate = value.toExponential(p - 1);
      if (Math.fround(Number(candidate)) === value) {
        found = candidate;
        break;
      }
    }
    [digits, exp] = splitExponential(found);
  } else {
    [digits, exp] = splitExponential(value.toExponential());
  }
  const negative = digits.startsWith('-');
  const d = negative ? digits.slice(1) : digits;
  const sign = negative ? '-' : '';
  const n = d.length;
  const point = exp + 1; // position of the decimal point relative to the digit string
  if (point > 16 || point < -4) {
    const mantissa = n === 1 ? d : `${d[0]}.${d.slice(1)}`;
    return `${sign}${mantissa}e${exp}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${d}`;
  if (point >= n) return `${sign}${d}${'0'.repeat(point - n)}.0`;
  return `${sign}${d.slice(0, point)}.${d.slice(point)}`;
}

function splitExponential(text: string): [string, number] {
  const [mantissa = '0', e = '0'] = text.split('e');
  return [mantissa.replace('.', ''), Number(e)];
}

