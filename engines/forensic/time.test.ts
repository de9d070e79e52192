// The numeric time reader against Date.parse: the same milliseconds for every canonical text, and a refusal (general path) for the rest.
import { describe, expect, it } from 'vitest';
import { POWERS_OF_TEN, canonicalTimeMs, civilToEpochSeconds, formatEpochSeconds, parseIsoTime, parseTimeMs, readCanonicalTime, readCanonicalTimeText, type CanonicalTimeParts } from './time.js';
import { xorshift } from './xorshift.fixture.js';

describe('POWERS_OF_TEN', () => {
  it('holds 10 ** k for every fraction length a canonical time has (0 to 9), the same numbers the operator gives', () => {
    expect(POWERS_OF_TEN.length).toBe(10);
    for (let k = 0; k <= 9; k++) expect(Object.is(POWERS_OF_TEN[k], 10 ** k)).toBe(true);
  });
});

describe('readCanonicalTime and parseTimeMs', () => {
  it('give Date.parse\'s milliseconds and the written fraction for canonical texts from 1970 to 9999 (leap days, every fraction length)', () => {
    const r = xorshift(7);
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

describe('readCanonicalTime keeps the last text read', () => {
  it('gives the numbers reading the text gives, for texts repeated, alternating, refused and equal in other strings', () => {
    const r = xorshift(11);
    const pool = ['2019-03-19T23:34:27.1234567Z', '2019-03-19T23:34:27.1234568Z', '2019-03-19T23:34:27Z', '2019-03-19T23:34:27.123Z', '2024-02-30T00:00:00Z', 'x', '2019-03-19T23:34:28.1234567Z'];
    const got: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };
    const want: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };
    for (let i = 0; i < 3000; i++) {
      const picked = pool[Math.floor(r() * pool.length)] as string;
      // Sometimes an equal text in another string (no identity to rely on).
      const text = r() < 0.3 ? `${picked.slice(0, 5)}${picked.slice(5)}` : picked;
      got.seconds = want.seconds = -1;
      got.fraction = want.fraction = -1;
      got.digits = want.digits = -1;
      const ok = readCanonicalTime(text, got);
      expect(ok).toBe(readCanonicalTimeText(text, want));
      expect(got).toEqual(want);
    }
  });
});

describe('parseIsoTime on canonical texts', () => {
  it('gives the text itself and its precision, as the general path does', () => {
    const r = xorshift(11);
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

/** formatEpochSeconds as it was written with Date (the reference the numeric one must match). */
function formatWithDate(seconds: number, fraction = ''): string | null {
  const ms = seconds * 1000;
  if (!Number.isSafeInteger(seconds) || Math.abs(ms) > 8.64e15) return null;
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  const pad2 = (n: number): string => String(n).padStart(2, '0');
  const base = `${String(year).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  return fraction === '' ? `${base}Z` : `${base}.${fraction}Z`;
}

/** civilToEpochSeconds as it was written with Date.UTC. */
function civilWithDate(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
  if (![year, month, day, hour, minute, second].every(Number.isInteger)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || hour < 0 || minute < 0 || second < 0) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  const d = new Date(ms);
  if (d.getUTCDate() !== day || d.getUTCMonth() !== month - 1) return null;
  if (year < 100) return null;
  return Math.floor(ms / 1000) + (second === 60 ? 1 : 0);
}

describe('formatEpochSeconds and civilToEpochSeconds', () => {
  it('give what Date gives, across the whole range, at its edges and for impossible values', () => {
    const r = xorshift(11);
    const lo = Date.UTC(1, 0, 1) / 1000;
    const hi = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;
    const seconds: number[] = [0, -0, 1, -1, 59, 60, 86_399, 86_400, -86_400, lo, lo - 1, hi, hi + 1, 8.64e12, -8.64e12, 8.64e12 + 1, -8.64e12 - 1, 951_782_400, 951_868_799, 1.5, Number.NaN, Infinity, 2 ** 53, -(2 ** 53)];
    for (let i = 0; i < 20_000; i++) seconds.push(Math.floor(lo + r() * (hi - lo)));
    for (let i = 0; i < 2000; i++) seconds.push(Math.floor((r() - 0.5) * 2 * 8.7e12));
    for (const [i, s] of seconds.entries()) {
      const fraction = ['', '', '5', '123', '000001', '123456789'][i % 6] as string;
      expect(formatEpochSeconds(s, fraction), `${s} ${fraction}`).toBe(formatWithDate(s, fraction));
      // Twice in a row (the last text is kept) and after another second.
      expect(formatEpochSeconds(s, fraction)).toBe(formatWithDate(s, fraction));
    }
    const fields: number[][] = [
      [2024, 2, 29, 0, 0, 0],
      [2023, 2, 29, 0, 0, 0],
      [1900, 2, 29, 0, 0, 0],
      [2000, 2, 29, 23, 59, 60],
      [2024, 12, 31, 23, 59, 60],
      [99, 1, 1, 0, 0, 0],
      [100, 1, 1, 0, 0, 0],
      [275_760, 9, 13, 0, 0, 0],
      [275_760, 9, 13, 0, 0, 1],
      [275_761, 1, 1, 0, 0, 0],
      [2024, 4, 31, 0, 0, 0],
      [2024, 13, 1, 0, 0, 0],
      [2024, 0, 1, 0, 0, 0],
      [2024, 1, 0, 0, 0, 0],
      [2024, 1, 1, 24, 0, 0],
      [2024, 1, 1, -0, -0, -0],
      [2024, 1, 1, 0, 0, 61],
      [2024, 1, 1.5, 0, 0, 0],
      [Number.NaN, 1, 1, 0, 0, 0],
      [-1, 1, 1, 0, 0, 0],
    ];
    for (let i = 0; i < 20_000; i++) fields.push([Math.floor(r() * 12_000) - 500, Math.floor(r() * 14), Math.floor(r() * 33), Math.floor(r() * 25), Math.floor(r() * 61), Math.floor(r() * 62)]);
    for (const f of fields) {
      const [y, mo, d, h, mi, s] = f as [number, number, number, number, number, number];
      expect(civilToEpochSeconds(y, mo, d, h, mi, s), f.join(' ')).toBe(civilWithDate(y, mo, d, h, mi, s));
    }
  });
});
