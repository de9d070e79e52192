// The one compression-bomb rule of every reader (gzip streams, zip members): a declared or decoded size within a ratio of the compressed size, above one floor.

/** Largest ratio of uncompressed to compressed bytes (the default; readArchive's `maxRatio` limit and the zip reader's option override it). */
export const MAX_RATIO = 200;

/**
 * Output a member or stream may always reach whatever its ratio: tiny archives are legitimately over 200:1 (an empty
 * tar is 10 KiB from 45 bytes; a small JSON record compresses well).
 */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

/** The uncompressed size allowed for `compressed` bytes: `maxRatio` times the compressed size, and at least the floor. */
export function inflateBudget(compressed: number, maxRatio = MAX_RATIO): number {
  return Math.max(RATIO_FLOOR_BYTES, Math.floor(maxRatio * compressed));
}
