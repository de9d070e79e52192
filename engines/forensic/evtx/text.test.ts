// The EVTX text primitives against references built another way: FILETIME and SYSTEMTIME through Date, GUIDs byte by byte.
import { describe, expect, it } from 'vitest';
import { filetimeIso, guidText, hexUpper, sidText, systemtimeIso, utf16 } from './text.js';
import { xorshift } from '../xorshift.fixture.js';

const TICKS_1601_TO_1970 = 116444736000000000n;

describe('EVTX text primitives', () => {
  it('write FILETIME as Date does (to the second) with seven fraction digits, across days, hours and years', () => {
    const r = xorshift(17);
    for (let i = 0; i < 5000; i++) {
      // Times from 1970 to 2100, in runs within one day (the kept day text) and jumps.
      const ms = i % 4 === 0 ? Math.floor(r() * 4_102_444_800_000) : 1_700_000_000_000 + i * 997_013;
      const ticks = BigInt(ms) * 10_000n + BigInt(Math.floor(r() * 10_000)) + TICKS_1601_TO_1970;
      const lo = Number(ticks & 0xffffffffn);
      const hi = Number(ticks >> 32n);
      const fraction = String((ticks - TICKS_1601_TO_1970) % 10_000_000n).padStart(7, '0');
      expect(filetimeIso(lo, hi)).toBe(`${new Date(ms).toISOString().slice(0, 19)}.${fraction}Z`);
    }
  });

  it('write FILETIME values within one second, and the same second of the next day, as Date does', () => {
    const at = (ticks: bigint): string => {
      const ms = Number((ticks - TICKS_1601_TO_1970) / 10_000n);
      const fraction = String((ticks - TICKS_1601_TO_1970) % 10_000_000n).padStart(7, '0');
      return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}Z`;
    };
    const second = 1_700_000_000n * 10_000_000n + TICKS_1601_TO_1970;
    const day = 86_400n * 10_000_000n;
    // Each value also twice in a row (the last text kept), and the low or high half alone changed.
    const hiStep = 1n << 32n;
    for (const ticks of [second, second, second + 1n, second + 9_999_999n, second + 9_999_999n, second + 10_000_000n, second + day, second + day + 5n, second, second - 1n, second - 1n + hiStep, second + hiStep, second]) {
      expect(filetimeIso(Number(ticks & 0xffffffffn), Number(ticks >> 32n))).toBe(at(ticks));
    }
  });

  it('write SYSTEMTIME fields as given, refuse impossible ones, and write GUIDs with their first three parts little-endian', () => {
    const st = (f: number[]): Uint8Array => new Uint8Array(new Uint16Array(f).buffer);
    expect(systemtimeIso(st([2024, 2, 4, 29, 23, 59, 58, 999]), 0)).toBe('2024-02-29T23:59:58.9990000Z');
    expect(systemtimeIso(st([2023, 2, 0, 29, 0, 0, 0, 0]), 0)).toBeNull();
    expect(systemtimeIso(st([0, 0, 0, 0, 0, 0, 0, 0]), 0)).toBe('1601-01-01T00:00:00.0000000Z');
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    expect(guidText(bytes, 0)).toBe('33221100-5544-7766-8899-AABBCCDDEEFF');
  });

  it('write hex, GUIDs and SIDs as the concatenating writers did, for repeated and changing bytes of any length', () => {
    // The earlier writers (a string per byte or part, concatenated) as references.
    const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).toUpperCase().padStart(2, '0'));
    const hexRef = (d: Uint8Array, off: number, len: number): string => {
      let s = '';
      for (let i = 0; i < len; i++) s += HEX[d[off + i]!]!;
      return s;
    };
    const guidRef = (d: Uint8Array, o: number): string =>
      [[3, 2, 1, 0], [5, 4], [7, 6], [8, 9], [10, 11, 12, 13, 14, 15]].map((part) => part.map((k) => HEX[d[o + k]!]!).join('')).join('-');
    const sidRef = (d: Uint8Array, off: number, len: number): string => {
      if (len < 8) return 'S-?';
      let authority = 0;
      for (let i = 2; i < 8; i++) authority = authority * 256 + d[off + i]!;
      let s = `S-${d[off]!}-${authority}`;
      for (let i = 0; i < d[off + 1]!; i++) {
        const p = off + 8 + 4 * i;
        if (p + 4 > off + len) break;
        s += `-${(d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0}`;
      }
      return s;
    };
    const r = xorshift(31);
    const data = new Uint8Array(4096);
    let repeated = 0;
    for (let i = 0; i < 3000; i++) {
      // Mostly fresh bytes; sometimes the same SID again, or one byte of it changed (the kept SID must not answer).
      const again = i > 0 && r() < 0.3;
      if (!again) for (let j = 0; j < 200; j++) data[j] = r() < 0.5 ? Math.floor(r() * 256) : j % 7;
      else {
        repeated++;
        if (r() < 0.5) {
          const at = 8 + Math.floor(r() * 40);
          data[at] = data[at]! ^ (1 + Math.floor(r() * 255));
        }
      }
      if (!again) data[1] = Math.floor(r() * 20);
      const off = Math.floor(r() * 3);
      const len = i % 10 === 0 ? 3000 + Math.floor(r() * 1000) : Math.floor(r() * 90);
      expect(hexUpper(data, off, Math.min(len, data.length - off))).toBe(hexRef(data, off, Math.min(len, data.length - off)));
      expect(guidText(data, off)).toBe(guidRef(data, off));
      const sidLen = Math.min(len, 8 + 4 * (data[off + 1]! + 1));
      expect(sidText(data, off, sidLen)).toBe(sidRef(data, off, sidLen));
      expect(sidText(data, off, sidLen)).toBe(sidRef(data, off, sidLen));
    }
    expect(repeated).toBeGreaterThan(500);
    expect(hexUpper(data, 0, 0)).toBe('');
  });

  it('decode UTF-16LE as TextDecoder does up to the first NUL, lone surrogates as U+FFFD, at any offset and length', () => {
    const decoder = new TextDecoder('utf-16le');
    // The reference: code units up to the first NUL, through TextDecoder, except that a text of at most 32 units
    // without surrogates keeps a leading byte-order mark (TextDecoder drops it).
    const reference = (data: Uint8Array, off: number, units: number): string => {
      let n = 0;
      let surrogate = false;
      for (; n < units; n++) {
        const c = data[off + 2 * n]! | (data[off + 2 * n + 1]! << 8);
        if (c === 0) break;
        if (c >= 0xd800 && c <= 0xdfff) surrogate = true;
      }
      if (units <= 32 && !surrogate) return String.fromCharCode(...Array.from({ length: n }, (_, i) => data[off + 2 * i]! | (data[off + 2 * i + 1]! << 8)));
      return decoder.decode(data.subarray(off, off + 2 * n));
    };
    const r = xorshift(29);
    const pick = [0x41, 0x7a, 0xe9, 0x20ac, 0xfeff, 0xd83d, 0xde00, 0xdbff, 0x4e2d, 0x0a, 0];
    let surrogates = 0;
    let marks = 0;
    for (let i = 0; i < 4000; i++) {
      const units = Math.floor(r() * 90);
      const off = Math.floor(r() * 3);
      const data = new Uint8Array(off + 2 * units + 2);
      for (let u = 0; u < units; u++) {
        // Mostly ASCII; sometimes a character from the list (NUL, byte-order mark, surrogate halves).
        const c = r() < 0.9 ? 0x20 + Math.floor(r() * 95) : pick[Math.floor(r() * pick.length)]!;
        if (c >= 0xd800 && c <= 0xdfff) surrogates++;
        if (c === 0xfeff && u === 0) marks++;
        data[off + 2 * u] = c & 0xff;
        data[off + 2 * u + 1] = c >> 8;
      }
      expect(utf16(data, off, units)).toBe(reference(data, off, units));
    }
    expect(surrogates).toBeGreaterThan(50);
    expect(marks).toBeGreaterThan(0);
  });
});
