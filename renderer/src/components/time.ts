// One way to show a moment anywhere in the renderer: UTC, in ISO order, with the zone said.
// Analysts compare times across workspaces, exports and hosts in other zones; a locale clock
// ("2:01 PM", "11/30/26") beside ISO times reads as two different clocks.

export type TimePrecision = 'day' | 'minute' | 'second' | 'ms';

const LENGTH: Record<TimePrecision, number> = { day: 10, minute: 16, second: 19, ms: 23 };

/**
 * "2026-11-30 14:01:10 UTC" from an ISO text, epoch milliseconds or a Date; empty for a missing
 * or unreadable value. `precision` cuts the text (a day has no zone); `zone: false` leaves the
 * "UTC" out where a column heading already says it.
 */
export function utcTime(
  value: string | number | Date | null | undefined,
  precision: TimePrecision = 'second',
  zone = true,
): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return typeof value === 'string' ? value : '';
  const text = d.toISOString().replace('T', ' ').slice(0, LENGTH[precision]);
  return zone && precision !== 'day' ? `${text} UTC` : text;
}
