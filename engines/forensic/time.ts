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

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Formats whole seconds since the epoch (UTC) with an optional fraction (its digits as given). */
export function formatEpochSeconds(seconds: number, fraction = ''): string | null {
  const ms = seconds * 1000;
  if (!Number.isSafeInteger(seconds) || Math.abs(ms) > 8.64e15) return null;
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  const base = `${String(year).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  return fraction === '' ? `${base}Z` : `${base}.${fraction}Z`;
}

/** Seconds since the epoch for a civil date and time read as UTC; null when a field is out of range. */
export function civilToEpochSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
  if (![year, month, day, hour, minute, second].every(Number.isInteger)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || hour < 0 || minute < 0 || second < 0) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  const d = new Date(ms);
  // Date.UTC rolls 31 February over into March: such a date is invalid, not a different day.
  if (d.getUTCDate() !== day || d.getUTCMonth() !== month - 1) return null;
  if (year < 100) return null;
  return Math.floor(ms / 1000) + (second === 60 ? 1 : 0);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 / RFC 3339 date-time (also with a space for T, as Python prints it). A value without a zone
 * is taken as UTC when `assumeUtc` is true (the caller then says so in the time source), otherwise refused.
 */
export function parseIsoTime(text: string, assumeUtc = false): (ParsedTime & { readonly zoneAssumed: boolean }) | null {
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
