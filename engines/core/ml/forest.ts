// Random forest of squared-error trees on bootstrap samples, stored as one GbdtModel so prediction, TreeSHAP and the model file are shared.
import { VitrineError } from '../errors.js';
import { trainGbdt, type GbdtModel, type TrainingData } from './gbdt.js';
import { Random } from './random.js';
import type { Tree } from './tree.js';

export interface ForestParams {
  /** Trees; default 100. */
  readonly trees?: number;
  /** Default 10. */
  readonly maxDepth?: number;
  /** Minimum (weighted) rows in a leaf; default 1. */
  readonly minChildWeight?: number;
  /** Share of features drawn for each tree (per tree, not per split); default 0.6. */
  readonly colsampleByTree?: number;
  /** Bootstrap draws as a share of the row count; default 1. */
  readonly sampleFraction?: number;
  readonly maxBins?: number;
  readonly seed?: number;
  readonly featureNames?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onTree?: (index: number) => void;
}

function scaledTree(t: Tree, factor: number): Tree {
  const value = new Float64Array(t.value.length);
  for (let i = 0; i < value.length; i++) value[i] = t.value[i]! * factor;
  return { ...t, value };
}

/**
 * Breiman's random forest (bootstrap rows as integer weights, a feature subset per tree), each tree predicting the mean
 * 0/1 label of its leaf. The result is a `reg:squarederror` GbdtModel whose output is the average tree prediction: the
 * base score is the mean of the trees' base scores and every leaf value is divided by the tree count.
 */
export function trainRandomForest(data: TrainingData, params: ForestParams = {}): GbdtModel {
  const T = params.trees ?? 100;
  if (!Number.isInteger(T) || T < 1 || T > 10_000) throw new VitrineError('validation_failed', 'trees must be an integer from 1 to 10000');
  const frac = params.sampleFraction ?? 1;
  if (!(frac > 0 && frac <= 1)) throw new VitrineError('validation_failed', 'sampleFraction must be in (0, 1]');
  const n = data.x.rows;
  if (n === 0) throw new VitrineError('validation_failed', 'no training rows');
  const rng = new Random(params.seed ?? 0);
  const trees: Tree[] = [];
  let baseSum = 0;
  const draws = Math.max(1, Math.round(frac * n));
  for (let t = 0; t < T; t++) {
    if (params.signal?.aborted) throw new VitrineError('cancelled', 'training was cancelled');
    const w = new Float64Array(n);
    for (let d = 0; d < draws; d++) {
      const i = rng.int(n);
      w[i] = w[i]! + (data.weights ? data.weights[i]! : 1);
    }
    let sw = 0;
    let swy = 0;
    for (let i = 0; i < n; i++) {
      sw += w[i]!;
      swy += w[i]! * data.y[i]!;
    }
    const base = sw > 0 ? swy / sw : 0;
    const m = trainGbdt(
      { x: data.x, y: data.y, weights: w },
      {
        objective: 'reg:squarederror',
        rounds: 1,
        eta: 1,
        lambda: 0,
        gamma: 0,
        maxDepth: params.maxDepth ?? 10,
        minChildWeight: params.minChildWeight ?? 1,
        colsampleByTree: params.colsampleByTree ?? 0.6,
        baseScore: base,
        seed: rng.int(0x7fffffff),
        ...(params.maxBins !== undefined ? { maxBins: params.maxBins } : {}),
      },
    );
    baseSum += base;
    for (const tree of m.trees) trees.push(scaledTree(tree, 1 / T));
    params.onTree?.(t);
  }
  return {
    objective: 'reg:squarederror',
    baseScore: baseSum / T,
    numFeatures: data.x.cols,
    trees,
    ...(params.featureNames ? { featureNames: params.featureNames } : {}),
    params: { kind: 'random_forest', trees: T, max_depth: params.maxDepth ?? 10, colsample_bytree: params.colsampleByTree ?? 0.6 },
  };
}
