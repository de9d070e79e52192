// Shannon entropy of byte ranges (bits per byte, 0 to 8): sections, resources, whole files.

/** Byte-value counts of `data[start, end)`. */
export function byteHistogram(data: Uint8Array, start = 0, end = data.length): Uint32Array {
  const counts = new Uint32Array(256);
  const stop = Math.min(end, data.length);
  for (let i = Math.max(0, start); i < stop; i++) counts[data[i] as number]! += 1;
  return counts;
}

/** Entropy of a histogram whose counts sum to `total`; 0 for no bytes. */
export function histogramEntropy(counts: ArrayLike<number>, total: number): number {
  if (total <= 0) return 0;
  let h = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i] as number;
    if (c === 0) continue;
    const p = c / total;
    h -= p * Math.log2(p);
  }
  // -0 and rounding noise below zero are not meaningful entropies.
  return h > 0 ? h : 0;
}

/** Shannon entropy of `data[start, end)` in bits per byte. */
export function shannonEntropy(data: Uint8Array, start = 0, end = data.length): number {
  const s = Math.max(0, start);
  const e = Math.min(end, data.length);
  return histogramEntropy(byteHistogram(data, s, e), Math.max(0, e - s));
}
