// The numeric time reader against Date.parse: the same milliseconds for every canonical text, and a refusal (general path) for the rest.
import { describe, expect, it } from 'vitest';
import { canonicalTimeMs, parseIsoTime, parseTimeMs, readCanonicalTime, type CanonicalTimeParts } from './time.js';

/** A small deterministic generator (xorshift), so the sample is the same on every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

describe('readCanonicalTime and parseTimeMs', () => {
  it('give Date.parse\'s milliseconds and the written fraction for canonical texts from 1970 to 9999 (leap days, every fraction length)', () => {
    const r = rng(7);
    const parts: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };
    for (let i = 0; i < 4000; i++) {
      const ms = Math.floor(r() * (Date.UTC(9999, 11, 31, 23, 59, 59) - 0));
      const base = new Date(ms).toISOString().slice(0, 19);
      const digits = i % 10;
      const fraction = digits === 0 ? '' : String(Math.floor(r() * 10 ** digits)).padStart(digits, '0');
      const text = digits === 0 ? `${base}Z` : `${base}.${fraction}Z`;
      expect(readCanonicalTime(text, parts)).toBe(true);
      expect(parts.digits).toBe(digits);
      expect(parts.fraction).toBe(digits === 0 ? 0 : Number(fraction));
      expect(parts.seconds).toBe(Math.floor(ms / 1000));
      expect(canonicalTimeMs(parts)).toBe(Date.parse(text));
      expect(parseTimeMs(text)).toBe(Date.parse(text));
    }
    for (const text of ['2024-02-29T23:59:59.999999999Z', '2000-02-29T00:00:00Z', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59.9Z']) {
      expect(readCanonicalTime(text, parts)).toBe(true);
      expect(parseTimeMs(text)).toBe(Date.parse(text));
    }
  });

  it('refuse other texts, which keep Date.parse\'s answer (NaN, rolled-over days, zones, before 1970)', () => {
    const parts: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };
    const other = [
      '2023-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2024-02-30T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T23:60:00Z',
      '2024-01-01T23:59:60Z',
      '2024-13-01T00:00:00Z',
      '2024-00-01T00:00:00Z',
      '2024-01-00T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00.1234567890Z',
      '2024-01-01T00:00:00+00:00',
      '2024-01-01 00:00:00Z',
      '2024-01-01T00:00:00.12a4Z',
      '+02024-01-01T00:00:00Z',
      '2024-1-01T00:00:00Z',
      'not a time',
      '',
    ];
    for (const text of other) {
      expect(readCanonicalTime(text, parts)).toBe(false);
      expect(Object.is(parseTimeMs(text), Date.parse(text))).toBe(true);
    }
  });
});

describe('parseIsoTime on canonical texts', () => {
  it('gives the text itself and its precision, as the general path does', () => {
    const r = rng(11);
    for (let i = 0; i < 3000; i++) {
      const base = new Date(Math.floor(r() * Date.UTC(9999, 11, 31))).toISOString().slice(0, 19);
      const digits = i % 10;
      const text = digits === 0 ? `${base}Z` : `${base}.${String(Math.floor(r() * 10 ** digits)).padStart(digits, '0')}Z`;
      const fast = parseIsoTime(text);
      // The general path: the same text with a space for T takes the regular expression and the Date formatting.
      const general = parseIsoTime(text.replace('T', ' '));
      expect(fast).toEqual(general);
      expect(fast?.time).toBe(text);
    }
  });
});
