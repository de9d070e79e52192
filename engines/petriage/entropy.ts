// Shannon entropy of byte ranges (bits per byte, 0 to 8): sections, resources, whole files.

/** Byte-value counts of `data[start, end)`. */
export function byteHistogram(data: Uint8Array, start = 0, end = data.length): Uint32Array {
  const counts = new Uint32Array(256);
  const stop = Math.min(end, data.length);
  for (let i = Math.max(0, start); i < stop; i++) counts[data[i] as number]! += 1;
  return counts;
}

/** c * log2(c) for small counts, computed once: most ranges we measure are small, and log2 is the costly part. */
const CLOG_SIZE = 4096;
const CLOG = new Float64Array(CLOG_SIZE);
for (let c = 1; c < CLOG_SIZE; c++) CLOG[c] = c * Math.log2(c);

function cLogC(c: number): number {
  return c < CLOG_SIZE ? (CLOG[c] as number) : c * Math.log2(c);
}

/** Entropy of a histogram whose counts sum to `total`; 0 for no bytes. H = log2(N) - sum(c log2 c) / N. */
export function histogramEntropy(counts: ArrayLike<number>, total: number): number {
  if (total <= 0) return 0;
  let sum = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i] as number;
    if (c !== 0) sum += cLogC(c);
  }
  return entropyOf(sum, total);
}

/**
 * histogramEntropy of a range's counts given as the difference of two cumulative two-lane histograms in `lanes`
 * (512 counters from `to`, 512 from `from`: the byte counts before the range's end and before its start, each
 * split over two lanes whose sum modulo 2^32 is the count), without writing the difference out. The same sums in
 * the same order. With `values`, only the byte values `values[0, valueCount)` (ascending) are read: every other
 * value must count zero in the range (one absent from the whole input, say); it would add 0, which leaves the sum
 * as it is, so the result is the same.
 */
export function laneDifferenceEntropy(lanes: Uint32Array, to: number, from: number, total: number, values?: Uint8Array, valueCount = 0): number {
  if (total <= 0) return 0;
  let sum = 0;
  if (values === undefined) {
    for (let b = 0; b < 256; b++) {
      const c = ((lanes[to + b] as number) + (lanes[to + 256 + b] as number) - (lanes[from + b] as number) - (lanes[from + 256 + b] as number)) >>> 0;
      // No test for zero: CLOG[0] is 0, and adding 0 leaves the (non-negative) sum exactly as it was, so the sum is
      // the same without a branch that small ranges, with many absent byte values, mispredict.
      sum += c < CLOG_SIZE ? (CLOG[c] as number) : c * Math.log2(c);
    }
  } else {
    for (let k = 0; k < valueCount; k++) {
      const b = values[k] as number;
      const c = ((lanes[to + b] as number) + (lanes[to + 256 + b] as number) - (lanes[from + b] as number) - (lanes[from + 256 + b] as number)) >>> 0;
      sum += c < CLOG_SIZE ? (CLOG[c] as number) : c * Math.log2(c);
    }
  }
  return entropyOf(sum, total);
}

/**
 * Writes into `values` the byte values (ascending) whose count in the two-lane histogram at `at` in `lanes` is not
 * zero, and returns how many there are: what laneDifferenceEntropy may be limited to for any range inside the
 * counted bytes.
 */
export function presentValues(lanes: Uint32Array, at: number, values: Uint8Array): number {
  let count = 0;
  for (let b = 0; b < 256; b++) {
    // Without a branch (present and absent values alternate unpredictably): b is written at the next place, which
    // moves on when the count (as a 32-bit integer) is not zero, that is when c | -c has its top bit set.
    const c = ((lanes[at + b] as number) + (lanes[at + 256 + b] as number)) | 0;
    values[count] = b;
    count += (c | -c) >>> 31;
  }
  return count;
}

function entropyOf(sumCLogC: number, total: number): number {
  const h = Math.log2(total) - sumCLogC / total;
  // Rounding can leave a hair below zero for a single repeated byte; that is 0.
  return h > 0 ? h : 0;
}

/** Reused by shannonEntropy, which never lets them escape: four counter lanes, so a run of one byte value does not wait on one counter. */
const LANES = new Int32Array(1024);
const scratch = new Int32Array(256);

/** Shannon entropy of `data[start, end)` in bits per byte. */
export function shannonEntropy(data: Uint8Array, start = 0, end = data.length): number {
  const s = Math.max(0, start);
  const e = Math.min(end, data.length);
  if (e <= s) return 0;
  if (e - s < 1024) {
    // Short ranges: one set of counters (clearing and adding up four lanes would cost more than it saves).
    scratch.fill(0);
    for (let i = s; i < e; i++) scratch[data[i] as number]! += 1;
    return histogramEntropy(scratch, e - s);
  }
  const lanes = LANES;
  lanes.fill(0);
  let i = s;
  let zeros = 0;
  // Aligned 32-bit words where possible: a zero word (padding) counts four zeros at once.
  const at = data.byteOffset + i;
  if ((at & 3) === 0) {
    const words = new Uint32Array(data.buffer, at, (e - s) >>> 2);
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) zeros += 4;
      else {
        lanes[data[i] as number]! += 1;
        lanes[256 + (data[i + 1] as number)]! += 1;
        lanes[512 + (data[i + 2] as number)]! += 1;
        lanes[768 + (data[i + 3] as number)]! += 1;
      }
      i += 4;
    }
  }
  for (; i < e; i++) lanes[data[i] as number]! += 1;
  for (let b = 0; b < 256; b++) scratch[b] = (lanes[b] as number) + (lanes[256 + b] as number) + (lanes[512 + b] as number) + (lanes[768 + b] as number);
  scratch[0]! += zeros;
  return histogramEntropy(scratch, e - s);
}
