// Seeded synthetic binary-classification data for tests, benchmarks and demos: informative linear, interaction and threshold effects, noise features, label noise, optional missing values.
import { featureMatrix, type FeatureMatrix } from './dataset.js';
import { Random } from './random.js';

export interface SyntheticOptions {
  /** Share of cells replaced by NaN, at random. */
  readonly missing?: number;
}

/**
 * n rows of `cols` standard-normal features (cols >= 5); the label is 1 when
 * 1.5 x0 - x1 + x2 x3 + (x4 > 0.5 ? 1 : -0.5) + 0.5 noise > 0; the other features are noise.
 */
export function syntheticBinary(n: number, cols: number, seed: number, options: SyntheticOptions = {}): { x: FeatureMatrix; y: Float64Array } {
  if (cols < 5) throw new RangeError('syntheticBinary needs at least 5 columns');
  const rng = new Random(seed);
  const missing = options.missing ?? 0;
  const data = new Float64Array(n * cols);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * cols;
    for (let f = 0; f < cols; f++) data[o + f] = rng.normal();
    const z = 1.5 * data[o]! - data[o + 1]! + data[o + 2]! * data[o + 3]! + (data[o + 4]! > 0.5 ? 1 : -0.5) + 0.5 * rng.normal();
    y[i] = z > 0 ? 1 : 0;
    if (missing > 0) for (let f = 0; f < cols; f++) if (rng.next() < missing) data[o + f] = NaN;
  }
  return { x: featureMatrix(n, cols, data), y };
}
