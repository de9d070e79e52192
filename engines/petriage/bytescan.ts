// The JavaScript side of bytescan.wat, petriage's pass over a file's bytes: byte counts (and the c log2 c sums of
// ranges of them, for entropies), the sum of the words (for the PE checksum) and the runs behind the strings.
// WebAssembly because the pass reads every byte of every file: in JavaScript it was a third of `dissect`'s time and
// twice the instructions of this one (typed-array reads carry their own checks); docs/petriage.md "Performance".
import { CLOG } from './entropy.js';
import { compileKernel, instantiateKernel, type WasmMemory } from '../core/wasm.js';
import { WASM } from './bytescan.wasm.js';

/** bytescan.wat's exports (see the comments there). */
interface Exports {
  readonly memory: WasmMemory;
  count(data: number, n: number, cuts: number, cutCount: number, cutOut: number, ranges: number, rangeCount: number, sums: number): void;
  strings(data: number, n: number, minLength: number, asciiOut: number, evenOut: number, oddOut: number, limit: number): void;
  rich(data: number, limit: number, out: number): number;
  version(data: number, raw: number, str: number, copied: number, rvaLimit: number, base: number, keyMax: number, out: number): number;
}

const MODULE = compileKernel(WASM);
const PAGE = 65536;
/** Where the caller's regions start (past the counts, the run counts, the c log2 c tables and the count tables). */
const FREE = 43008;
/** Bytes past the input that the string scan reads (bytescan.wat: at least 65), set to a byte neither printable nor zero. */
const PADDING = 80;
/** Memory an instance may keep between calls; one that grew past it for a large input is dropped after the call. */
const KEEP_BYTES = 16 << 20;
/**
 * Memory an instance starts with and grows by at least: every growth replaces the memory's buffer, and V8 then
 * throws away the optimised code of the functions that read the old one (it holds the views it read), to compile it
 * again. Growing by whole mebibytes keeps that to a few times per process rather than once per larger file.
 */
const GROW_BYTES = 1 << 20;

class Instance {
  readonly exports: Exports;
  i32!: Int32Array;
  u8!: Uint8Array;
  f64!: Float64Array;

  constructor() {
    this.exports = instantiateKernel<Exports>(MODULE, { env: { log2: Math.log2 } });
    this.exports.memory.grow(GROW_BYTES / PAGE - 1);
    this.views();
    this.f64.set(CLOG, 4096 / 8);
  }

  /** Makes the memory at least `bytes` long. */
  reserve(bytes: number): void {
    const have = this.exports.memory.buffer.byteLength;
    if (have >= bytes) return;
    this.exports.memory.grow(Math.ceil((Math.max(bytes, have + GROW_BYTES) - have) / PAGE));
    this.views();
  }

  private views(): void {
    const buffer = this.exports.memory.buffer;
    this.i32 = new Int32Array(buffer);
    this.u8 = new Uint8Array(buffer);
    this.f64 = new Float64Array(buffer);
  }
}

let instance: Instance | null = null;

/** The three lists of runs a scan writes: ASCII, UTF-16LE at even offsets, at odd offsets. */
export const ASCII_RUNS = 0;
export const EVEN_RUNS = 1;
export const ODD_RUNS = 2;
type RunList = typeof ASCII_RUNS | typeof EVEN_RUNS | typeof ODD_RUNS;

/** The plain sum of a file's whole little-endian 32-bit words, as its two 32-bit halves (for the PE checksum). */
export interface WordSum {
  readonly low: number;
  readonly high: number;
}

export interface ScanRequest {
  /** Look for runs (the default); false for the counts alone. */
  readonly runs?: boolean;
  readonly minLength: number;
  /** Runs written per list at most (all are counted). */
  readonly limit: number;
  /** Count the bytes: their counts in `histogram`, or the sums of `ranges` in `sums`. */
  readonly counts: boolean;
  /** Ascending, distinct offsets from 0 to the input's length. */
  readonly cuts?: readonly number[] | undefined;
  /** Pairs of indexes into `cuts` (from, to). */
  readonly ranges?: readonly number[] | undefined;
}

/** What a scan found; read it before the next scan (it lives in the module's memory). */
export class Scanned {
  /** Runs found per list (ASCII_RUNS, EVEN_RUNS, ODD_RUNS). */
  readonly found: readonly [number, number, number];

  constructor(
    private readonly i32: Int32Array,
    private readonly f64: Float64Array,
    /** Where each list's (start, length) pairs begin, as i32 indexes. */
    private readonly lists: readonly [number, number, number],
    private readonly sumsAt: number,
    runs: boolean,
  ) {
    this.found = runs ? [i32[512] as number, i32[513] as number, i32[514] as number] : [0, 0, 0];
  }

  /** The start of run `k` of a list (k below the request's limit and the list's count). */
  start(list: RunList, k: number): number {
    return this.i32[this.lists[list] + 2 * k] as number;
  }

  length(list: RunList, k: number): number {
    return this.i32[this.lists[list] + 2 * k + 1] as number;
  }

  /** Adds the whole input's byte counts to `histogram` (a request with counts). */
  addCounts(histogram: Uint32Array): void {
    for (let b = 0; b < 256; b++) histogram[b]! += (this.i32[b] as number) >>> 0;
  }

  /** The plain sum of the input's whole little-endian 32-bit words (a request with counts). */
  wordSum(): WordSum {
    return { low: (this.i32[584] as number) >>> 0, high: (this.i32[585] as number) >>> 0 };
  }

  /** The sum over byte values of c log2 c for range `r` of the request (entropy.ts entropyOfSum; the same sum to the last bit). */
  sum(r: number): number {
    return this.f64[this.sumsAt + r] as number;
  }
}

/** Runs the compiled pass over `data`. */
export function scanBytes(data: Uint8Array, request: ScanRequest): Scanned {
  const n = data.length;
  const cuts = request.cuts ?? [];
  const ranges = request.ranges ?? [];
  const rangeCount = ranges.length >> 1;
  const { limit } = request;
  // The caller's regions: the cut offsets, the ranges, the sums, the counts at each cut, three run lists, the input
  // (16-aligned) and its padding.
  const cutsAt = FREE;
  const rangesAt = cutsAt + 4 * cuts.length;
  const sumsAt = (rangesAt + 4 * ranges.length + 7) & ~7;
  const cutOut = sumsAt + 8 * rangeCount;
  const asciiAt = cutOut + 1024 * cuts.length;
  const evenAt = asciiAt + 8 * limit;
  const oddAt = evenAt + 8 * limit;
  const dataAt = (oddAt + 8 * limit + 15) & ~15;
  const m = (instance ??= new Instance());
  m.reserve(dataAt + n + PADDING);
  const { i32, u8, f64 } = m;
  for (let k = 0; k < cuts.length; k++) i32[(cutsAt >> 2) + k] = cuts[k] as number;
  for (let k = 0; k < ranges.length; k++) i32[(rangesAt >> 2) + k] = ranges[k] as number;
  u8.set(data, dataAt);
  u8.fill(0xff, dataAt + n, dataAt + n + PADDING);
  const e = m.exports;
  if (request.counts) e.count(dataAt, n, cutsAt, cuts.length, cutOut, rangesAt, rangeCount, sumsAt);
  const runs = request.runs ?? true;
  if (runs) e.strings(dataAt, n, request.minLength, asciiAt, evenAt, oddAt, limit);
  if (e.memory.buffer.byteLength > KEEP_BYTES) instance = null;
  return new Scanned(i32, f64, [asciiAt >> 2, evenAt >> 2, oddAt >> 2], sumsAt >> 3, runs);
}

/** The plain sum of the whole little-endian 32-bit words of `data` (the counting pass alone). */
export function sumOfWords(data: Uint8Array): WordSum {
  return scanBytes(data, { runs: false, minLength: 1, limit: 0, counts: true }).wordSum();
}

/** Where a Rich header lies in a file's first bytes, and the linker checksum of what it covers (bytescan.wat `rich`). */
export interface RichScan {
  /** The offset of the "Rich" marker. */
  readonly richAt: number;
  /** The offset of DanS (the header's start); -1 when the marker has none before it. */
  readonly dansAt: number;
  /** The linker's checksum over the DOS header and stub and the entries (unsigned; 0 without DanS). */
  readonly sum: number;
}

/** Where richScan's input goes: past its three results. */
const RICH_OUT = FREE;
const RICH_DATA = FREE + 16;

/** The Rich header among the first `limit` bytes of `data` (at most its length): null without a "Rich" marker. */
export function richScan(data: Uint8Array, limit: number): RichScan | null {
  const m = (instance ??= new Instance());
  m.reserve(RICH_DATA + limit);
  const { i32, u8 } = m;
  u8.set(data.subarray(0, limit), RICH_DATA);
  const found = m.exports.rich(RICH_DATA, limit, RICH_OUT);
  if (m.exports.memory.buffer.byteLength > KEEP_BYTES) instance = null;
  if (found === 0) return null;
  const at = RICH_OUT >> 2;
  return { richAt: i32[at] as number, dansAt: found === 1 ? -1 : (i32[at + 1] as number), sum: found === 1 ? 0 : (i32[at + 2] as number) >>> 0 };
}

/** Where versionScan's results go (the fixed file info's offset, then four i32 per string), and its input after them. */
const VERSION_OUT = FREE;
const VERSION_DATA = FREE + 16 + 16 * 1024;
/**
 * Bytes past a version block's own that its strings may be read from: a key read after the last header that fits is
 * at most 2,048 bytes, its value starts at most 2 x (6 x 1,024 + 1) + 3 bytes after the header and is at most 16,384
 * bytes long. The scan leaves a read past what was copied to the JavaScript reader.
 */
const VERSION_SLACK = 32768;

/** The strings of a version information block (bytescan.wat `version`): read it before the next scan. */
export interface VersionScan {
  /** Offset in the block of the fixed file info. */
  readonly fixedAt: number;
  /** The stretch of the block [lo, hi) that holds every key and value (count > 0). */
  readonly lo: number;
  readonly hi: number;
  /** Strings found; string k's key is at offset i32[at + 4k] (units i32[at + 4k + 1]), its value at i32[at + 4k + 2] (units i32[at + 4k + 3]). */
  readonly count: number;
  readonly i32: Int32Array;
  readonly at: number;
}

/**
 * The StringFileInfo strings of the version block whose bytes start at `start` in `data` (see bytescan.wat
 * `version` for the other arguments), or null when the JavaScript reader has to walk it.
 */
export function versionScan(data: Uint8Array, start: number, raw: number, str: number, rvaLimit: number, base: number, keyMax: number): VersionScan | null {
  const copied = Math.max(raw, Math.min(str, raw + VERSION_SLACK));
  const m = (instance ??= new Instance());
  m.reserve(VERSION_DATA + copied);
  m.u8.set(data.subarray(start, start + copied), VERSION_DATA);
  const count = m.exports.version(VERSION_DATA, raw, str, copied, rvaLimit, base, keyMax, VERSION_OUT);
  if (m.exports.memory.buffer.byteLength > KEEP_BYTES) instance = null;
  if (count < 0) return null;
  const i32 = m.i32;
  const o = VERSION_OUT >> 2;
  return { fixedAt: i32[o] as number, lo: i32[o + 1] as number, hi: i32[o + 2] as number, count, i32, at: o + 4 };
}
