// Which characters each core caller treats as control characters, pinned code point by code point: the search query, the text
// fields of a sent finding, a STIX object's display name and a Cypher string literal (petriage's file names: engines/petriage).
import { describe, expect, it } from 'vitest';
import { cypherString } from './cypher.js';
import { findingSourceSchema } from './findings.js';
import { searchRequestSchema } from './search.js';
import { displayName } from './stix-import.js';

/** Every code point 0-0x9F, the line and paragraph separators, the byte-order mark, zero-width and bidi controls. */
const PROBED: readonly number[] = [
  ...Array.from({ length: 0xa0 }, (_, c) => c),
  0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
];
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** C0 controls and DEL. */
const C0_DEL = new Set([...range(0x00, 0x1f), 0x7f]);
/** C0 controls, DEL and C1 controls. */
const C0_DEL_C1 = new Set([...C0_DEL, ...range(0x80, 0x9f)]);
const hex = (c: number): string => c.toString(16).padStart(4, '0');

describe('search query: C0 and DEL refused, everything else probed accepted', () => {
  it.each(PROBED.map((c) => [hex(c), c]))('U+%s', (_, c) => {
    const ok = searchRequestSchema.safeParse({ q: `ab${String.fromCharCode(c)}cd`, limit: 5 }).success;
    expect(ok).toBe(!C0_DEL.has(c));
  });
});

describe('finding text fields: C0 and DEL refused, everything else probed accepted', () => {
  it.each(PROBED.map((c) => [hex(c), c]))('U+%s', (_, c) => {
    const ok = findingSourceSchema.safeParse({ service: 'forensic', kind: 'event', id: `a${String.fromCharCode(c)}b` }).success;
    expect(ok).toBe(!C0_DEL.has(c));
  });
});

describe('STIX display name: C0 and DEL dropped, everything else probed kept', () => {
  it.each(PROBED.map((c) => [hex(c), c]))('U+%s', (_, c) => {
    const ch = String.fromCharCode(c);
    expect(displayName({ type: 'malware', id: 'malware--x', name: `a${ch}b` })).toBe(C0_DEL.has(c) ? 'ab' : `a${ch}b`);
  });
});

describe('Cypher string: C0, DEL, C1 and the line/paragraph separators escaped as \\uXXXX, everything else probed kept', () => {
  const escaped = new Set([...C0_DEL_C1, 0x2028, 0x2029]);
  const quoted: Record<number, string> = { 0x22: '\\"', 0x27: "\\'", 0x5c: '\\\\' };
  it.each(PROBED.map((c) => [hex(c), c]))('U+%s', (_, c) => {
    const ch = String.fromCharCode(c);
    const inner = escaped.has(c) ? `\\u${hex(c)}` : (quoted[c] ?? ch);
    expect(cypherString(`a${ch}b`)).toBe(`'a${inner}b'`);
  });
});
