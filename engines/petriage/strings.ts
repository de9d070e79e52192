// Printable ASCII and UTF-16LE string extraction from untrusted bytes, with caps on count and length.
import * as bytescanModule from './bytescan.js';
import type { WordSum } from './bytescan.js';

// Imported functions and tables bound once: under a CommonJS transform (tsx, which runs the tests and the
// bench) every read of an imported binding is a getter call, which cost a tenth of dissect's time.
const { ASCII_RUNS, EVEN_RUNS, ODD_RUNS, scanBytes } = bytescanModule;

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

/** What the same pass over the bytes gives besides the strings: entropy sums of ranges, and the sum of the words. */
export interface ByteCounts {
  /** Ascending, distinct, each from 0 to the input's length. */
  readonly offsets: readonly number[];
  /** Pairs of indexes into `offsets`: (from, to) of each range. */
  readonly ranges: readonly number[];
  /** Written: for each range, the sum over byte values of c log2 c, c the value's count in the range (entropy.ts entropyOfSum); at least one place per range. */
  readonly sums: Float64Array;
  /** Written: the plain sum of the input's whole little-endian 32-bit words (headers.ts peChecksum). */
  words: WordSum | null;
}

/** Bytes decoded at once for the ASCII runs in them. */
const WINDOW = 0x10000;
/**
 * Characters decoded at once for the UTF-16LE runs of one alignment: decoding costs about as much per byte as
 * one call per run costs per run, and wide strings come in clusters (resources, version information), so a
 * small window serves a cluster without decoding a whole file for one string.
 */
const WIDE_WINDOW = 2048;

/** The text of runs: cut from decoded windows of the input (one decoding per window, not per run). */
class RunText {
  constructor(
    private readonly data: Uint8Array,
    text: string | undefined,
  ) {
    if (text !== undefined) this.window = text;
  }

  /** The input as a Buffer, for decoding; made on first use (most files' strings come from the caller's text). */
  private bufferOf: Buffer | null = null;
  private get buffer(): Buffer {
    return (this.bufferOf ??= Buffer.from(this.data.buffer, this.data.byteOffset, this.data.byteLength));
  }

  /** The bytes from `windowStart` decoded as Latin-1; the whole input when the caller has it decoded already. */
  private window = '';
  private windowStart = 0;

  ascii(start: number, length: number): string {
    let from = start - this.windowStart;
    if (from < 0 || from + length > this.window.length) {
      this.windowStart = start;
      this.window = this.buffer.toString('latin1', start, Math.min(this.data.length, start + Math.max(length, WINDOW)));
      from = 0;
    }
    return this.window.slice(from, from + length);
  }

  /** The same for UTF-16LE runs, one window per alignment (a window decodes pairs from its start, so a run is cut from the window of its own parity). */
  private wideWindow = ['', ''];
  private wideWindowStart = [0, 0];

  wide(start: number, chars: number): string {
    // The high bytes are zero, so the raw UTF-16LE bytes decode to the characters themselves.
    const parity = start & 1;
    let window = this.wideWindow[parity] as string;
    let from = (start - (this.wideWindowStart[parity] as number)) >> 1;
    if (from < 0 || from + chars > window.length) {
      this.wideWindowStart[parity] = start;
      window = this.buffer.toString('utf16le', start, Math.min(this.data.length, start + 2 * Math.max(chars, WIDE_WINDOW)));
      this.wideWindow[parity] = window;
      from = 0;
    }
    return window.slice(from, from + chars);
  }
}

/**
 * Runs of printable ASCII bytes and of printable ASCII characters stored as UTF-16LE (at even and odd
 * offsets). With `histogram` (256 counters) the byte-value counts of the whole input are added to it, and with
 * `counts` the entropy sums of ranges and the sum of the words are written, from the same pass over the bytes
 * (bytescan.ts), so a caller that also needs entropies or the PE checksum reads the bytes once.
 */
export function extractStrings(
  data: Uint8Array,
  options: StringOptions = {},
  histogram?: Uint32Array,
  counts?: ByteCounts,
  /** `data` decoded as Latin-1 (one character per byte), where the caller has it: ASCII runs are cut from it. */
  latin1Text?: string,
): ExtractedStrings {
  const minLength = Math.max(1, options.minLength ?? STRING_DEFAULTS.minLength);
  const maxCount = Math.max(0, options.maxCount ?? STRING_DEFAULTS.maxCount);
  const maxLength = Math.max(minLength, options.maxLength ?? STRING_DEFAULTS.maxLength);
  const n = data.length;
  // No more runs of a kind fit in n bytes than one per minLength + 1 of them.
  const limit = Math.min(maxCount, Math.floor(n / (minLength + 1)) + 1);
  const scan = scanBytes(data, { minLength, limit, counts: histogram !== undefined || counts !== undefined, cuts: counts?.offsets, ranges: counts?.ranges });
  if (histogram !== undefined) scan.addCounts(histogram);
  if (counts !== undefined) {
    for (let r = 0; r < counts.ranges.length >> 1; r++) counts.sums[r] = scan.sum(r);
    counts.words = scan.wordSum();
  }
  const [asciiFound, evenFound, oddFound] = scan.found;

  // The strings, from the runs kept: the first maxCount ASCII runs; for UTF-16LE, the even alignment's runs count
  // first, then the odd one's up to the cap (what two scans one after the other would keep), in offset order.
  const text = new RunText(data, latin1Text !== undefined && latin1Text.length === n ? latin1Text : undefined);
  let truncated = asciiFound > maxCount || evenFound + oddFound > maxCount;
  const ascii: ExtractedString[] = [];
  const asciiKept = Math.min(asciiFound, maxCount);
  for (let k = 0; k < asciiKept; k++) {
    const start = scan.start(ASCII_RUNS, k);
    const length = scan.length(ASCII_RUNS, k);
    if (length > maxLength) truncated = true;
    ascii.push({ offset: start, value: text.ascii(start, Math.min(length, maxLength)) });
  }
  const evenKept = Math.min(evenFound, maxCount);
  const oddKept = Math.min(oddFound, maxCount - evenKept);
  const utf16le: ExtractedString[] = [];
  let e = 0;
  let o = 0;
  while (e < evenKept || o < oddKept) {
    const fromEven = o >= oddKept || (e < evenKept && scan.start(EVEN_RUNS, e) < scan.start(ODD_RUNS, o));
    const list = fromEven ? EVEN_RUNS : ODD_RUNS;
    const k = fromEven ? e++ : o++;
    const start = scan.start(list, k);
    const chars = scan.length(list, k);
    if (chars > maxLength) truncated = true;
    utf16le.push({ offset: start, value: text.wide(start, Math.min(chars, maxLength)) });
  }
  return { ascii, utf16le, truncated };
}
