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
/**
 * Per byte value: -1 (all bits set) when printable, else 0, so run lengths are kept with masks:
 * length = (length + 1) & mask. The zero byte (the high byte of a UTF-16LE ASCII character) is told by
 * (b - 1) >> 31, which is -1 for b = 0 only.
 */
const PRINTABLE_MASK = new Int32Array(256);
for (let b = 0; b < 256; b++) PRINTABLE_MASK[b] = -(PRINTABLE[b] as number);

/** Whether a Uint32Array reads bytes little-endian here (it does on every platform Node runs on today). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Byte counts of even and odd offsets apart, so a run of one byte value does not wait on one counter. */
const EVEN_COUNTS = new Uint32Array(256);
const ODD_COUNTS = new Uint32Array(256);

/** Byte counts wanted at some offsets of the input: how many of each byte value come before each offset. */
export interface CountsAtCuts {
  /** Ascending, distinct, each from 0 to the input's length. */
  readonly offsets: readonly number[];
  /**
   * 512 counters per offset, in the same order (written): two lanes of 256 whose sums modulo 2^32 are the counts
   * (the scan counts in two lanes, and copying them is cheaper than adding them up at every cut; a byte taken off
   * again may come off the other lane, which then wraps).
   */
  readonly counts: Uint32Array;
}

/** Records the counts at every cut up to `i` (the bytes before `i` are counted); returns the next cut's index. */
function recordCuts(cuts: CountsAtCuts, from: number, data: Uint8Array, i: number, evenCounts: Uint32Array, oddCounts: Uint32Array, zeroBytes: number): number {
  let k = from;
  for (; k < cuts.offsets.length; k++) {
    const cut = cuts.offsets[k] as number;
    if (cut > i) break;
    const base = k * 512;
    const out = cuts.counts;
    out.set(evenCounts, base);
    out.set(oddCounts, base + 256);
    out[base]! += zeroBytes;
    for (let j = cut; j < i; j++) out[base + (data[j] as number)]! -= 1;
  }
  return k;
}

/** Bytes decoded at once for the ASCII runs in them. */
const WINDOW = 0x10000;
/**
 * Characters decoded at once for the UTF-16LE runs of one alignment: decoding costs about as much per byte as
 * one call per run costs per run, and wide strings come in clusters (resources, version information), so a
 * small window serves a cluster without decoding a whole file for one string.
 */
const WIDE_WINDOW = 2048;

/** The runs found so far and the caps, shared by the scan's rare path (a run ends). */
class RunSink {
  readonly ascii: ExtractedString[] = [];
  /** A UTF-16LE run lives at even or at odd offsets: one list per alignment, merged at the end. */
  readonly wideEven: ExtractedString[] = [];
  readonly wideOdd: ExtractedString[] = [];
  wideDropped = 0;
  truncated = false;
  constructor(
    private readonly buffer: Buffer,
    private readonly maxCount: number,
    private readonly maxLength: number,
    text: string | undefined,
  ) {
    if (text !== undefined) this.window = text;
  }

  /**
   * The bytes from `windowStart` decoded once: ASCII runs are cut from it (one decoding per window, not per run);
   * the whole input when the caller has it decoded already.
   */
  private window = '';
  private windowStart = 0;

  asciiRun(start: number, length: number): void {
    if (length > this.maxLength) this.truncated = true;
    if (this.ascii.length >= this.maxCount) {
      this.truncated = true;
      return;
    }
    const take = Math.min(length, this.maxLength);
    let from = start - this.windowStart;
    if (from < 0 || from + take > this.window.length) {
      this.windowStart = start;
      this.window = this.buffer.toString('latin1', start, Math.min(this.buffer.length, start + Math.max(take, WINDOW)));
      from = 0;
    }
    this.ascii.push({ offset: start, value: this.window.slice(from, from + take) });
  }

  /** The same for UTF-16LE runs, one window per alignment (a window decodes pairs from its start, so a run is cut from the window of its own parity). */
  private wideWindow = ['', ''];
  private wideWindowStart = [0, 0];

  wideRun(list: ExtractedString[], start: number, chars: number): void {
    if (chars > this.maxLength) this.truncated = true;
    if (list.length >= this.maxCount) {
      this.wideDropped++;
      return;
    }
    // The high bytes are zero, so the raw UTF-16LE bytes decode to the characters themselves.
    const take = Math.min(chars, this.maxLength);
    const parity = start & 1;
    let window = this.wideWindow[parity] as string;
    let from = (start - (this.wideWindowStart[parity] as number)) >> 1;
    if (from < 0 || from + take > window.length) {
      this.wideWindowStart[parity] = start;
      window = this.buffer.toString('utf16le', start, Math.min(this.buffer.length, start + 2 * Math.max(take, WIDE_WINDOW)));
      this.wideWindow[parity] = window;
      from = 0;
    }
    list.push({ offset: start, value: window.slice(from, from + take) });
  }
}

/**
 * Runs of printable ASCII bytes and of printable ASCII characters stored as UTF-16LE (at even and odd
 * offsets), found in one pass over the bytes. With `histogram` (256 counters) the byte-value counts of the
 * whole input are added to it from the same pass, so a caller that also needs the entropy reads the bytes once.
 */
export function extractStrings(
  data: Uint8Array,
  options: StringOptions = {},
  histogram?: Uint32Array,
  cuts?: CountsAtCuts,
  /** `data` decoded as Latin-1 (one character per byte), where the caller has it: ASCII runs are cut from it. */
  latin1Text?: string,
): ExtractedStrings {
  const minLength = Math.max(1, options.minLength ?? STRING_DEFAULTS.minLength);
  const maxCount = Math.max(0, options.maxCount ?? STRING_DEFAULTS.maxCount);
  const maxLength = Math.max(minLength, options.maxLength ?? STRING_DEFAULTS.maxLength);
  const sink = new RunSink(Buffer.from(data.buffer, data.byteOffset, data.byteLength), maxCount, maxLength, latin1Text !== undefined && latin1Text.length === data.length ? latin1Text : undefined);
  const n = data.length;
  const evenCounts = EVEN_COUNTS;
  const oddCounts = ODD_COUNTS;
  evenCounts.fill(0);
  oddCounts.fill(0);
  // The scan keeps run lengths and updates them without branching (length = (length + 1) & mask, the mask -1 when the run goes on, else 0); the only
  // branch that depends on the data is "a run long enough just ended", which is rare.
  /** Printable bytes ending at the previous byte. */
  let run = 0;
  /** UTF-16LE characters ending at the previous pair of each alignment. */
  let runEven = 0;
  let runOdd = 0;
  /** -1 when the previous byte was printable, else 0. */
  let prevPrintable = 0;
  // Counts at the cuts: checked once per step (a word, a stretch of zero words that stops at the next cut's word,
  // or a byte); a cut passed by a step is recorded with the bytes from the cut to the step's end taken off again.
  let cutIndex = 0;
  const cutCount = cuts === undefined ? 0 : cuts.offsets.length;
  // Past the last cut, n + 1: an integer no offset reaches (a comparison of integers, not with Infinity).
  const noCut = n + 1;
  let nextCut = cutCount > 0 ? ((cuts as CountsAtCuts).offsets[0] as number) : noCut;
  /** Zero bytes counted a word at a time (not in the lanes). */
  let zeroBytes = 0;
  let i = 0;
  // Where the bytes can be read as aligned little-endian 32-bit words: one load per four bytes, and zero words
  // (padding is most of many files) skipped at once.
  if ((data.byteOffset & 3) === 0 && LITTLE_ENDIAN) {
    const words = new Uint32Array(data.buffer, data.byteOffset, n >>> 2);
    const wordCount = words.length;
    for (let w = 0; w < wordCount; w++) {
      i = 4 * w;
      if (i >= nextCut) {
        cutIndex = recordCuts(cuts as CountsAtCuts, cutIndex, data, i, evenCounts, oddCounts, zeroBytes);
        nextCut = cutIndex < cutCount ? ((cuts as CountsAtCuts).offsets[cutIndex] as number) : noCut;
      }
      const word = words[w] as number;
      if (word === 0) {
        // What the byte steps do with four or more zeros: byte i ends the printable run and either extends the
        // odd alignment's character run (a printable byte before it) or ends it; byte i + 1 ends the even
        // alignment's run; byte i + 2 ends the odd one's; the rest change nothing.
        if (run >= minLength) sink.asciiRun(i - run, run);
        run = 0;
        if (prevPrintable !== 0) runOdd++;
        else {
          if (runOdd >= minLength) sink.wideRun(sink.wideOdd, i - 1 - 2 * runOdd, runOdd);
          runOdd = 0;
        }
        if (runEven >= minLength) sink.wideRun(sink.wideEven, i - 2 * runEven, runEven);
        runEven = 0;
        if (runOdd >= minLength) sink.wideRun(sink.wideOdd, i + 1 - 2 * runOdd, runOdd);
        runOdd = 0;
        prevPrintable = 0;
        // The zero words that follow, up to the word holding the next cut.
        const stop = Math.min(wordCount, Math.floor(nextCut / 4) + 1);
        let x = w + 1;
        while (x < stop && words[x] === 0) x++;
        zeroBytes += 4 * (x - w);
        w = x - 1;
        continue;
      }
      // Byte k at an even offset: bytes k - 1 and k are a character of the odd alignment; at an odd offset, of the
      // even alignment.
        {
          const b = word & 0xff;
          evenCounts[b]! += 1;
          const p = PRINTABLE_MASK[b] as number;
          if ((run & ~p) >= minLength) sink.asciiRun(i - run, run);
          run = (run + 1) & p;
          const v = ((b - 1) >> 31) & prevPrintable;
          if ((runOdd & ~v) >= minLength) sink.wideRun(sink.wideOdd, i - 1 - 2 * runOdd, runOdd);
          runOdd = (runOdd + 1) & v;
          prevPrintable = p;
        }
        {
          const b = (word >>> 8) & 0xff;
          oddCounts[b]! += 1;
          const p = PRINTABLE_MASK[b] as number;
          if ((run & ~p) >= minLength) sink.asciiRun((i + 1) - run, run);
          run = (run + 1) & p;
          const v = ((b - 1) >> 31) & prevPrintable;
          if ((runEven & ~v) >= minLength) sink.wideRun(sink.wideEven, (i + 1) - 1 - 2 * runEven, runEven);
          runEven = (runEven + 1) & v;
          prevPrintable = p;
        }
        {
          const b = (word >>> 16) & 0xff;
          evenCounts[b]! += 1;
          const p = PRINTABLE_MASK[b] as number;
          if ((run & ~p) >= minLength) sink.asciiRun((i + 2) - run, run);
          run = (run + 1) & p;
          const v = ((b - 1) >> 31) & prevPrintable;
          if ((runOdd & ~v) >= minLength) sink.wideRun(sink.wideOdd, (i + 2) - 1 - 2 * runOdd, runOdd);
          runOdd = (runOdd + 1) & v;
          prevPrintable = p;
        }
        {
          const b = word >>> 24;
          oddCounts[b]! += 1;
          const p = PRINTABLE_MASK[b] as number;
          if ((run & ~p) >= minLength) sink.asciiRun((i + 3) - run, run);
          run = (run + 1) & p;
          const v = ((b - 1) >> 31) & prevPrintable;
          if ((runEven & ~v) >= minLength) sink.wideRun(sink.wideEven, (i + 3) - 1 - 2 * runEven, runEven);
          runEven = (runEven + 1) & v;
          prevPrintable = p;
        }
    }
    i = 4 * wordCount;
  }
  // The bytes left (all of them where the words cannot be read), one at a time.
  for (; i < n; i++) {
    if (i >= nextCut) {
      cutIndex = recordCuts(cuts as CountsAtCuts, cutIndex, data, i, evenCounts, oddCounts, zeroBytes);
      nextCut = cutIndex < cutCount ? ((cuts as CountsAtCuts).offsets[cutIndex] as number) : noCut;
    }
    if ((i & 1) === 0) {
        {
          const b = data[i] as number;
          evenCounts[b]! += 1;
          const p = PRINTABLE_MASK[b] as number;
          if ((run & ~p) >= minLength) sink.asciiRun(i - run, run);
          run = (run + 1) & p;
          const v = ((b - 1) >> 31) & prevPrintable;
          if ((runOdd & ~v) >= minLength) sink.wideRun(sink.wideOdd, i - 1 - 2 * runOdd, runOdd);
          runOdd = (runOdd + 1) & v;
          prevPrintable = p;
        }
    } else {
        {
          const b = data[i] as number;
          oddCounts[b]! += 1;
          const p = PRINTABLE_MASK[b] as number;
          if ((run & ~p) >= minLength) sink.asciiRun(i - run, run);
          run = (run + 1) & p;
          const v = ((b - 1) >> 31) & prevPrintable;
          if ((runEven & ~v) >= minLength) sink.wideRun(sink.wideEven, i - 1 - 2 * runEven, runEven);
          runEven = (runEven + 1) & v;
          prevPrintable = p;
        }
    }
  }
  // Runs still open at the end; the first pair of each alignment not examined starts at n or n - 1.
  if (run >= minLength) sink.asciiRun(n - run, run);
  if (runEven >= minLength) sink.wideRun(sink.wideEven, ((n & 1) === 0 ? n : n - 1) - 2 * runEven, runEven);
  if (runOdd >= minLength) sink.wideRun(sink.wideOdd, ((n & 1) === 1 ? n : n - 1) - 2 * runOdd, runOdd);
  if (cutIndex < cutCount) recordCuts(cuts as CountsAtCuts, cutIndex, data, n, evenCounts, oddCounts, zeroBytes);
  evenCounts[0]! += zeroBytes;
  if (histogram !== undefined) for (let b = 0; b < 256; b++) histogram[b]! += (evenCounts[b] as number) + (oddCounts[b] as number);

  // The even alignment's runs count first, then the odd one's up to the cap (what two scans one after the other
  // would keep); the result is in offset order.
  const { wideEven, wideOdd } = sink;
  if (wideEven.length + wideOdd.length + sink.wideDropped > maxCount) sink.truncated = true;
  const oddKept = Math.min(wideOdd.length, maxCount - wideEven.length);
  const utf16le: ExtractedString[] = [];
  let e = 0;
  let o = 0;
  while (e < wideEven.length || o < oddKept) {
    const even = wideEven[e];
    const odd = o < oddKept ? wideOdd[o] : undefined;
    if (odd === undefined || (even !== undefined && even.offset < odd.offset)) {
      utf16le.push(even as ExtractedString);
      e++;
    } else {
      utf16le.push(odd);
      o++;
    }
  }
  return { ascii: sink.ascii, utf16le, truncated: sink.truncated };
}
