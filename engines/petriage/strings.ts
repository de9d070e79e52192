// Printable ASCII and UTF-16LE string extraction from untrusted bytes, with caps on count and length.

export interface ExtractedString {
  /** File offset of the first byte of the string. */
  readonly offset: number;
  readonly value: string;
}

export interface StringOptions {
  /** Shortest run reported, in characters (default 4). */
  readonly minLength?: number;
  /** Most strings reported per encoding (default 10 000). */
  readonly maxCount?: number;
  /** Longer runs are cut to this many characters (default 1 024). */
  readonly maxLength?: number;
}

export interface ExtractedStrings {
  readonly ascii: readonly ExtractedString[];
  readonly utf16le: readonly ExtractedString[];
  /** True when a cap cut a string short or stopped the scan. */
  readonly truncated: boolean;
}

export const STRING_DEFAULTS = { minLength: 4, maxCount: 10_000, maxLength: 1024 } as const;

/** Printable ASCII as `strings` counts it: space to tilde, and tab. */
function printable(b: number): boolean {
  return (b >= 0x20 && b <= 0x7e) || b === 0x09;
}

/** Runs of printable ASCII bytes and of printable ASCII characters stored as UTF-16LE. */
export function extractStrings(data: Uint8Array, options: StringOptions = {}): ExtractedStrings {
  const minLength = Math.max(1, options.minLength ?? STRING_DEFAULTS.minLength);
  const maxCount = Math.max(0, options.maxCount ?? STRING_DEFAULTS.maxCount);
  const maxLength = Math.max(minLength, options.maxLength ?? STRING_DEFAULTS.maxLength);
  let truncated = false;

  const ascii: ExtractedString[] = [];
  let start = -1;
  const flushAscii = (end: number): void => {
    if (start < 0) return;
    const length = end - start;
    if (length >= minLength) {
      if (ascii.length >= maxCount) truncated = true;
      else {
        if (length > maxLength) truncated = true;
        ascii.push({ offset: start, value: latin1(data, start, Math.min(end, start + maxLength)) });
      }
    }
    start = -1;
  };
  for (let i = 0; i < data.length && !(truncated && ascii.length >= maxCount); i++) {
    if (printable(data[i] as number)) {
      if (start < 0) start = i;
    } else flushAscii(i);
  }
  flushAscii(data.length);

  // UTF-16LE runs can start at even or odd offsets; scan both alignments.
  const wide: ExtractedString[] = [];
  let wideFull = false;
  for (let parity = 0; parity < 2 && !wideFull; parity++) {
    let runStart = -1;
    let chars = 0;
    const flushWide = (): void => {
      if (runStart >= 0 && chars >= minLength) {
        if (wide.length >= maxCount) {
          truncated = true;
          wideFull = true;
        } else {
          if (chars > maxLength) truncated = true;
          wide.push({ offset: runStart, value: utf16Ascii(data, runStart, Math.min(chars, maxLength)) });
        }
      }
      runStart = -1;
      chars = 0;
    };
    for (let i = parity; i + 1 < data.length && !wideFull; i += 2) {
      if (data[i + 1] === 0 && printable(data[i] as number)) {
        if (runStart < 0) runStart = i;
        chars++;
      } else flushWide();
    }
    flushWide();
  }
  wide.sort((a, b) => a.offset - b.offset);
  return { ascii, utf16le: wide, truncated };
}

function latin1(data: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i += 4096) s += String.fromCharCode(...data.subarray(i, Math.min(end, i + 4096)));
  return s;
}

function utf16Ascii(data: Uint8Array, start: number, chars: number): string {
  const codes: number[] = new Array<number>(chars);
  for (let k = 0; k < chars; k++) codes[k] = data[start + 2 * k] as number;
  let s = '';
  for (let i = 0; i < codes.length; i += 4096) s += String.fromCharCode(...codes.slice(i, i + 4096));
  return s;
}
