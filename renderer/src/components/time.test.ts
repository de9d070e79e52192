import { describe, expect, it } from 'vitest';
import { utcTime } from './time';

describe('utcTime', () => {
  it('shows ISO texts, epoch milliseconds and dates the same way, in UTC', () => {
    const iso = '2026-11-30T14:01:10.123Z';
    expect(utcTime(iso)).toBe('2026-11-30 14:01:10 UTC');
    expect(utcTime(Date.parse(iso))).toBe('2026-11-30 14:01:10 UTC');
    expect(utcTime(new Date(iso))).toBe('2026-11-30 14:01:10 UTC');
    // a time written with an offset is shown in UTC, not copied
    expect(utcTime('2026-11-30T16:01:10+02:00')).toBe('2026-11-30 14:01:10 UTC');
  });

  it('cuts to the precision asked and can leave the zone to a column heading', () => {
    const iso = '2026-11-30T14:01:10.123Z';
    expect(utcTime(iso, 'day')).toBe('2026-11-30');
    expect(utcTime(iso, 'minute')).toBe('2026-11-30 14:01 UTC');
    expect(utcTime(iso, 'ms')).toBe('2026-11-30 14:01:10.123 UTC');
    expect(utcTime(iso, 'second', false)).toBe('2026-11-30 14:01:10');
  });

  it('is empty for a missing value and keeps an unreadable text as given', () => {
    expect(utcTime(null)).toBe('');
    expect(utcTime(undefined)).toBe('');
    expect(utcTime('')).toBe('');
    expect(utcTime(Number.NaN)).toBe('');
    expect(utcTime('not a time')).toBe('not a time');
  });
});
