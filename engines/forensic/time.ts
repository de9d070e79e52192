// Time parsing for loaders: ISO 8601 and epoch values to UTC strings that keep the source's fraction digits, and its precision.
import type { TimePrecision } from './event.js';

/** A normalised time: `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, with as many fraction digits as the source had. */
export interface ParsedTime {
  readonly time: string;
  readonly precision: TimePrecision;
}

export function precisionOfDigits(digits: number): TimePrecision {
  if (digits === 0) return 'second';
  if (digits <= 3) return 'millisecond';
  if (digits <= 6) return 'microsecond';
  if (digits === 7) return '100ns';
  return 'nanosecond';
}

/** The character code of a decimal digit. */
const d = (n: number): number => 48 + n;

/** The texts formatEpochSeconds gave last without a fraction: a log's lines often share their second. */
let lastEpochSeconds = Number.NaN;
let lastEpochText = '';

/**
 * Formats whole seconds since the epoch (UTC) with an optional fraction (its digits as given): `YYYY-MM-DDTHH:MM:SS[.f]Z`
 * for years 1 to 9999, else null. Computed from the day count (no Date object) and made as one flat string.
 */
export function formatEpochSeconds(seconds: number, fraction = ''): string | null {
  if (!Number.isSafeInteger(seconds) || Math.abs(seconds * 1000) > 8.64e15) return null;
  if (fraction === '' && seconds === lastEpochSeconds) return lastEpochText;
  const days = Math.floor(seconds / 86_400);
  const civil = civilFromDays(days);
  const year = civil.year;
  if (year < 1 || year > 9999) return null;
  const t = seconds - days * 86_400;
  const h = Math.floor(t / 3600);
  const m = Math.floor((t - h * 3600) / 60);
  const sec = t - h * 3600 - m * 60;
  const base = String.fromCharCode(
    d(Math.floor(year / 1000)),
    d(Math.floor(year / 100) % 10),
    d(Math.floor(year / 10) % 10),
    d(year % 10),
    45,
    d(Math.floor(civil.month / 10)),
    d(civil.month % 10),
    45,
    d(Math.floor(civil.day / 10)),
    d(civil.day % 10),
    84,
    d(Math.floor(h / 10)),
    d(h % 10),
    58,
    d(Math.floor(m / 10)),
    d(m % 10),
    58,
    d(Math.floor(sec / 10)),
    d(sec % 10),
    fraction === '' ? 90 : 46,
  );
  if (fraction !== '') return `${base}${fraction}Z`;
  lastEpochSeconds = seconds;
  lastEpochText = base;
  return base;
}

/** Seconds since the epoch for a civil date and time read as UTC (second 60 as the next second); null when a field is out of range. */
export function civilToEpochSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day) || !Number.isInteger(hour) || !Number.isInteger(minute) || !Number.isInteger(second)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || hour < 0 || minute < 0 || second < 0) return null;
  // 31 February is invalid, not a day of March; years before 100 are refused (Date.UTC would read them as 19xx).
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (DAYS_IN_MONTH[month - 1] as number) + (leap ? 1 : 0) || year < 100) return null;
  const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + Math.min(second, 59);
  // Beyond the range of a Date.
  if (Math.abs(seconds * 1000) > 8.64e15) return null;
  return seconds + (second === 60 ? 1 : 0);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 / RFC 3339 date-time (also with a space for T, as Python prints it). A value without a zone
 * is taken as UTC when `assumeUtc` is true (the caller then says so in the time source), otherwise refused.
 */
export function parseIsoTime(text: string, assumeUtc = false): (ParsedTime & { readonly zoneAssumed: boolean }) | null {
  // Already canonical (what the EVTX parser and most JSON sources write): the text is the normalised time as it is.
  if (readCanonicalTime(text, isoScratch)) return { time: text, precision: precisionOfDigits(isoScratch.digits), zoneAssumed: false };
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (zone === undefined && !assumeUtc) return null;
  let seconds = civilToEpochSeconds(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? '0'));
  if (seconds === null) return null;
  if (zone !== undefined && /^[+-]/.test(zone)) {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    const hours = Number(digits.slice(1, 3));
    const minutes = digits.length > 3 ? Number(digits.slice(3, 5)) : 0;
    if (hours > 23 || minutes > 59) return null;
    seconds -= sign * (hours * 3600 + minutes * 60);
  }
  const time = formatEpochSeconds(seconds, frac ?? '');
  if (time === null) return null;
  const precision = s === undefined ? 'minute' : precisionOfDigits(frac?.length ?? 0);
  return { time, precision, zoneAssumed: zone === undefined };
}

/** Microseconds since the epoch (plaso, Timesketch) as a UTC time with six fraction digits. */
export function fromEpochMicros(value: number | string): ParsedTime | null {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value.trim();
  if (!/^-?\d{1,18}$/.test(text)) return null;
  const big = BigInt(text);
  const seconds = big / 1_000_000n - (big % 1_000_000n < 0n ? 1n : 0n);
  const micros = big - seconds * 1_000_000n;
  const time = formatEpochSeconds(Number(seconds), String(micros).padStart(6, '0'));
  return time === null ? null : { time, precision: 'microsecond' };
}

/** Seconds since the epoch with an optional decimal fraction (auditd's `1615114232.375`, TLN's integer seconds). */
export function fromEpochSecondsText(text: string): ParsedTime | null {
  const m = /^(\d{1,12})(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!m) return null;
  const time = formatEpochSeconds(Number(m[1]), m[2] ?? '');
  return time === null ? null : { time, precision: precisionOfDigits(m[2]?.length ?? 0) };
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormatter(zone: string): Intl.DateTimeFormat | null {
  let f = zoneFormatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      f = null;
    }
    if (zoneFormatters.size < 256) zoneFormatters.set(zone, f);
  }
  return f;
}

/** Offset of an IANA zone from UTC at an instant, in seconds; null for an unknown zone. */
function zoneOffsetSeconds(zone: string, epochSeconds: number): number | null {
  const f = zoneFormatter(zone);
  if (f === null) return null;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(epochSeconds * 1000))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(parts['year'] ?? 0, (parts['month'] ?? 1) - 1, parts['day'] ?? 1, parts['hour'] ?? 0, parts['minute'] ?? 0, parts['second'] ?? 0) / 1000;
  return local - epochSeconds;
}

/** Epoch seconds of a wall-clock time in an IANA zone (l2t CSV's timezone column); null when the zone is unknown. */
export function zonedToEpochSeconds(localSeconds: number, zone: string): number | null {
  if (/^(UTC|GMT|Z|Etc\/UTC)$/i.test(zone)) return localSeconds;
  // Two passes settle the offset on either side of a daylight-saving change.
  const first = zoneOffsetSeconds(zone, localSeconds);
  if (first === null) return null;
  const second = zoneOffsetSeconds(zone, localSeconds - first);
  return second === null ? null : localSeconds - second;
}

export const MONTHS: Readonly<Record<string, number>> = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };

/** A canonical UTC time text read as numbers: whole seconds since the epoch, the fraction as written and its digit count. */
export interface CanonicalTimeParts {
  seconds: number;
  fraction: number;
  digits: number;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days since 1970-01-01 of a proleptic Gregorian date (days_from_civil, H. Hinnant); fields already checked. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** A civil date, as civilFromDays gives it (one object, reused). */
const civilScratch = { year: 0, month: 0, day: 0 };

/** The proleptic Gregorian date of a day count since 1970-01-01 (civil_from_days, H. Hinnant), in a reused object. */
export function civilFromDays(days: number): { readonly year: number; readonly month: number; readonly day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  civilScratch.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  civilScratch.month = month;
  civilScratch.year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return civilScratch;
}

/** The value of `n` ASCII digits at `at`, or -1 when one is not a digit. */
function digitsAt(text: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Reads `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z` of a valid date and time from 1970 to 9999 (every field in range, no 24:00, no
 * 30 February) without a regular expression or Date: into `out`, true. False for any other text (the caller then
 * takes the general path); for the texts it reads, Date.parse gives `seconds * 1000` plus the fraction's milliseconds.
 */
export function readCanonicalTime(text: string, out: CanonicalTimeParts): boolean {
  // The text read last (an event's time is read by its loader, by ingest for the first and last times, and by the
  // analysis's event table, one after the other): its numbers again, without reading it.
  if (text === lastCanonicalText) {
    out.seconds = lastCanonical.seconds;
    out.fraction = lastCanonical.fraction;
    out.digits = lastCanonical.digits;
    return true;
  }
  if (!readCanonicalTimeText(text, out)) return false;
  lastCanonicalText = text;
  lastCanonical.seconds = out.seconds;
  lastCanonical.fraction = out.fraction;
  lastCanonical.digits = out.digits;
  return true;
}

/** The text readCanonicalTime read last (null before the first), with its numbers. */
let lastCanonicalText: string | null = null;
const lastCanonical: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };

/** readCanonicalTime without the last text's numbers kept (the reference its tests compare with). */
export function readCanonicalTimeText(text: string, out: CanonicalTimeParts): boolean {
  const n = text.length;
  if (n < 20 || n > 30 || n === 21 || text.charCodeAt(n - 1) !== 90 /* Z */) return false;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (DAYS_IN_MONTH[month - 1] as number) + (leap ? 1 : 0)) return false;
  let fraction = 0;
  let digits = 0;
  if (n > 20) {
    if (text.charCodeAt(19) !== 46 /* . */) return false;
    digits = n - 21;
    fraction = digitsAt(text, 20, digits);
    if (fraction < 0) return false;
  }
  out.seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  out.fraction = fraction;
  out.digits = digits;
  return true;
}

/**
 * 10 ** k for k from 0 to 9 (a canonical time's fraction digits), the same numbers: read from here, not computed by
 * the exponent operator, which is a call into Math.pow each time it is run with a variable exponent.
 */
export const POWERS_OF_TEN: readonly number[] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];

/** The milliseconds Date.parse gives a text readCanonicalTime read (the fraction cut, not rounded, to milliseconds). */
export function canonicalTimeMs(p: CanonicalTimeParts): number {
  const ms = p.digits <= 3 ? p.fraction * (POWERS_OF_TEN[3 - p.digits] as number) : Math.floor(p.fraction / (POWERS_OF_TEN[p.digits - 3] as number));
  return p.seconds * 1000 + ms;
}

const scratch: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };
const isoScratch: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };

/** The text parseTimeMs read last, and its number. */
let lastParsedText: string | null = null;
let lastParsedMs = Number.NaN;

/** Date.parse of a time text, read without Date for the canonical UTC form (the same number). */
export function parseTimeMs(text: string): number {
  // Callers read events in time order, several times an event: the last text read is kept with its number.
  if (text === lastParsedText) return lastParsedMs;
  const ms = readCanonicalTime(text, scratch) ? canonicalTimeMs(scratch) : Date.parse(text);
  lastParsedText = text;
  lastParsedMs = ms;
  return ms;
}
