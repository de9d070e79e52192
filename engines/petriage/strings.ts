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
const PRINTABLE = new Uint8Array(256);
for (let b = 0x20; b <= 0x7e; b++) PRINTABLE[b] = 1;
PRINTABLE[0x09] = 1;

/** Runs of printable ASCII bytes and of printable ASCII characters stored as UTF-16LE. */
export function extractStrings(data: Uint8Array, options: StringOptions = {}): ExtractedStrings {
  const minLength = Math.max(1, options.minLength ?? STRING_DEFAULTS.minLength);
  const maxCount = Math.max(0, options.maxCount ?? STRING_DEFAULTS.maxCount);
  const maxLength = Math.max(minLength, options.maxLength ?? STRING_DEFAULTS.maxLength);
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const n = data.length;
  let truncated = false;

  const ascii: ExtractedString[] = [];
  let start = -1;
  // One pass with a sentinel step at i === n closes a run that reaches the end of the data.
  for (let i = 0; i <= n; i++) {
    if (i < n && PRINTABLE[data[i] as number] !== 0) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const length = i - start;
    if (length >= minLength) {
      if (ascii.length >= maxCount) {
        truncated = true;
        break;
      }
      if (length > maxLength) truncated = true;
      ascii.push({ offset: start, value: buffer.toString('latin1', start, start + Math.min(length, maxLength)) });
    }
    start = -1;
  }

  // UTF-16LE runs can start at even or odd offsets: scan both alignments.
  const wide: ExtractedString[] = [];
  const scratch = new Uint8Array(maxLength);
  const scratchBuffer = Buffer.from(scratch.buffer, 0, maxLength);
  for (let parity = 0; parity < 2; parity++) {
    let k = parity;
    while (k + 1 < n) {
      if (data[k + 1] !== 0 || PRINTABLE[data[k] as number] === 0) {
        k += 2;
        continue;
      }
      const start = k;
      let chars = 0;
      while (k + 1 < n && data[k + 1] === 0 && PRINTABLE[data[k] as number] === 1) {
        if (chars < maxLength) scratch[chars] = data[k] as number;
        chars++;
        k += 2;
      }
      if (chars < minLength) continue;
      if (wide.length >= maxCount) {
        truncated = true;
        break;
      }
      if (chars > maxLength) truncated = true;
      wide.push({ offset: start, value: scratchBuffer.toString('latin1', 0, Math.min(chars, maxLength)) });
    }
  }
  if (wide.length > maxCount) wide.length = maxCount;
  wide.sort((a, b) => a.offset - b.offset);
  return { ascii, utf16le: wide, truncated };
}
