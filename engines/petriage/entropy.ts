// Shannon entropy of byte ranges (bits per byte, 0 to 8): sections, resources, whole files.

/** Byte-value counts of `data[start, end)`. */
export function byteHistogram(data: Uint8Array, start = 0, end = data.length): Uint32Array {
  const counts = new Uint32Array(256);
  const stop = Math.min(end, data.length);
  for (let i = Math.max(0, start); i < stop; i++) counts[data[i] as number]! += 1;
  return counts;
}

/**
 * c * log2(c) for small counts, computed once: most ranges we measure are small, and log2 is the costly part.
 * bytescan.wat sums from a copy of it.
 */
const CLOG_SIZE = 4096;
export const CLOG = new Float64Array(CLOG_SIZE);
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

/** The entropy of `total` bytes from the sum over byte values of c log2 c (bytescan.ts's range sums). */
export function entropyOfSum(sumCLogC: number, total: number): number {
  return total <= 0 ? 0 : entropyOf(sumCLogC, total);
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
