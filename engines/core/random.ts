// One seeded generator for synthetic data, fuzzing and measures: the same seed gives the same sequence everywhere.

/**
 * Mulberry32: a 32-bit state, numbers in [0, 1) with 2^-32 steps. Fast and small, for reproducible test data and
 * sampling, never for anything secret (use node:crypto there).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
