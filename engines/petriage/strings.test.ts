// String extraction: ASCII and UTF-16LE runs, their offsets, the minimum length and the caps.
import { describe, expect, it } from 'vitest';
import { extractStrings } from './strings.js';

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
const wide = (s: string): number[] => Array.from(s, (c) => [c.charCodeAt(0), 0]).flat();

describe('extractStrings', () => {
  it('finds ASCII runs of at least 4 printable bytes (tab included) with their offsets', () => {
    const data = Uint8Array.from([0, ...ascii('abc'), 0xff, ...ascii('kernel32.dll'), 0, ...ascii('a\tbcd'), 0x80, ...ascii('tail')]);
    expect(extractStrings(data).ascii).toEqual([
      { offset: 5, value: 'kernel32.dll' },
      { offset: 18, value: 'a\tbcd' },
      { offset: 24, value: 'tail' },
    ]);
  });

  it('finds UTF-16LE runs at even and odd offsets, sorted by offset', () => {
    const data = Uint8Array.from([0xff, ...wide('Odd start'), 0xff, 0xff, ...wide('xyz'), 0xff, 0xff, ...wide('Even')]);
    const found = extractStrings(data).utf16le;
    expect(found).toEqual([
      { offset: 1, value: 'Odd start' },
      { offset: 29, value: 'Even' },
    ]);
  });

  it('honours the minimum length', () => {
    const data = Uint8Array.from([...ascii('ab'), 0, ...ascii('abcdef')]);
    expect(extractStrings(data, { minLength: 6 }).ascii.map((s) => s.value)).toEqual(['abcdef']);
    expect(extractStrings(data, { minLength: 2 }).ascii.map((s) => s.value)).toEqual(['ab', 'abcdef']);
  });

  it('caps the count and the length, and says so', () => {
    const many = new Uint8Array(50 * 6);
    for (let i = 0; i < 50; i++) many.set(ascii('word!'), i * 6);
    const capped = extractStrings(many, { maxCount: 10 });
    expect(capped.ascii.length).toBe(10);
    expect(capped.truncated).toBe(true);
    const long = extractStrings(Uint8Array.from(ascii('x'.repeat(5000))), { maxLength: 100 });
    expect(long.ascii).toEqual([{ offset: 0, value: 'x'.repeat(100) }]);
    expect(long.truncated).toBe(true);
    expect(extractStrings(Uint8Array.from(ascii('short text'))).truncated).toBe(false);
  });

  it('handles empty input and input of nothing but noise', () => {
    expect(extractStrings(new Uint8Array(0))).toEqual({ ascii: [], utf16le: [], truncated: false });
    expect(extractStrings(Uint8Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 0x80 : 0x01)))).toEqual({ ascii: [], utf16le: [], truncated: false });
  });
});
