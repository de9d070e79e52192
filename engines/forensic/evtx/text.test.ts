// The EVTX text primitives against references built another way: FILETIME and SYSTEMTIME through Date, GUIDs byte by byte.
import { describe, expect, it } from 'vitest';
import { filetimeIso, guidText, systemtimeIso } from './text.js';

/** xorshift, so failures reproduce. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const TICKS_1601_TO_1970 = 116444736000000000n;

describe('EVTX text primitives', () => {
  it('write FILETIME as Date does (to the second) with seven fraction digits, across days, hours and years', () => {
    const r = rng(17);
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

  it('write SYSTEMTIME fields as given, refuse impossible ones, and write GUIDs with their first three parts little-endian', () => {
    const st = (f: number[]): Uint8Array => new Uint8Array(new Uint16Array(f).buffer);
    expect(systemtimeIso(st([2024, 2, 4, 29, 23, 59, 58, 999]), 0)).toBe('2024-02-29T23:59:58.9990000Z');
    expect(systemtimeIso(st([2023, 2, 0, 29, 0, 0, 0, 0]), 0)).toBeNull();
    expect(systemtimeIso(st([0, 0, 0, 0, 0, 0, 0, 0]), 0)).toBe('1601-01-01T00:00:00.0000000Z');
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    expect(guidText(bytes, 0)).toBe('33221100-5544-7766-8899-AABBCCDDEEFF');
  });
});
