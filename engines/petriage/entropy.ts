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
  const h = Math.log2(total) - sum / total;
  // Rounding can leave a hair below zero for a single repeated byte; that is 0.
  return h > 0 ? h : 0;
}

/** Reused by shannonEntropy, which never lets it escape: one histogram per call without an allocation. */
const scratch = new Int32Array(256);

/** Shannon entropy of `data[start, end)` in bits per byte. */
export function shannonEntropy(data: Uint8Array, start = 0, end = data.length): number {
  const s = Math.max(0, start);
  const e = Math.min(end, data.length);
  if (e <= s) return 0;
  scratch.fill(0);
  for (let i = s; i < e; i++) scratch[data[i] as number]! += 1;
  return histogramEntropy(scratch, e - s);
}
