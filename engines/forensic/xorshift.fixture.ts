// The forensic tests' seeded generator, so a random sample is the same on every run and a failure reproduces.

/** Xorshift (13, 17, 5) on 32 bits: numbers in [0, 1). */
export function xorshift(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}
