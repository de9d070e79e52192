// Converts pcapng 64-bit timestamps in an interface's units (if_tsresol) to exact seconds and nanoseconds.

/**
 * The times a packet or a conn.log row may carry, in seconds since 1970: from 0000-01-01T00:00:00Z up to, not
 * including, the last second of 9999 (what a date, ISO 8601 and a STIX timestamp can write, rounding included).
 */
export const MIN_TIME_SEC = -62_167_219_200;
export const MAX_TIME_SEC = 253_402_300_799;

const TWO_32 = 4294967296;
const SAFE_HIGH = 2 ** 21; // hi * 2^32 + lo stays below 2^53 while hi is under this

/** Result of a conversion; written into a reusable object to spare an allocation per packet. */
export interface SecNsec {
  sec: number;
  nsec: number;
}

/**
 * Reads if_tsresol: the high bit says base 2 (set) or base 10 (clear); the rest is the negative exponent.
 * Returns units per second, or undefined when the value cannot be represented (exponent too large).
 */
export function unitsPerSecondFromTsresol(value: number): number | undefined {
  const exp = value & 0x7f;
  if ((value & 0x80) !== 0) return exp <= 52 ? 2 ** exp : undefined;
  return exp <= 15 ? 10 ** exp : undefined;
}

/** Splits units (hi:lo 64-bit) into whole seconds and nanoseconds, adding a whole-second offset. */
export function unitsToSecNsec(hi: number, lo: number, unitsPerSecond: number, offsetSec: number, out: SecNsec): void {
  if (hi < SAFE_HIGH) {
    const units = hi * TWO_32 + lo;
    const sec = Math.floor(units / unitsPerSecond);
    const rem = units - sec * unitsPerSecond;
    out.sec = sec + offsetSec;
    out.nsec = unitsPerSecond === 1e9 ? rem : Math.floor((rem * 1e9) / unitsPerSecond);
    // Floating rounding of rem * 1e9 / ups can land on 1e9 for ups above 1e9; keep it in range.
    if (out.nsec >= 1e9) out.nsec = 999_999_999;
    return;
  }
  // Beyond 2^53 units (nanosecond clocks since 1970 are) the exact route is BigInt.
  const units = (BigInt(hi) << 32n) | BigInt(lo);
  if (Number.isInteger(unitsPerSecond)) {
    const ups = BigInt(unitsPerSecond);
    const sec = units / ups;
    const rem = units - sec * ups;
    out.sec = Number(sec) + offsetSec;
    out.nsec = Number((rem * 1_000_000_000n) / ups);
    return;
  }
  out.sec = Math.floor(Number(units) / unitsPerSecond) + offsetSec;
  out.nsec = 0;
}
