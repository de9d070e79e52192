// Exact path-dependent TreeSHAP for tree ensembles (Lundberg, Erion and Lee 2018, Algorithm 2): per-feature contributions that add up to the margin.
import type { FeatureMatrix } from './dataset.js';
import { baseMargin, type GbdtModel } from './gbdt.js';
import { treeDepth, treeExpectedValue, type Tree } from './tree.js';

/** Contributions of each feature to one row's margin, and the margin expected before seeing the row. */
export interface ShapExplanation {
  /** One value per feature; their sum plus expectedValue is the row's margin. */
  readonly values: Float64Array;
  readonly expectedValue: number;
}

/**
 * The unique path of features met from the root, with for each the share of training cover that
 * followed it (zero fraction) and whether the explained row followed it (one fraction), plus the
 * permutation weights. Stored flat; each recursion level works on its own copy further along.
 */
class PathBuffer {
  readonly feature: Int32Array;
  readonly zero: Float64Array;
  readonly one: Float64Array;
  readonly weight: Float64Array;
  constructor(maxDepth: number) {
    const size = ((maxDepth + 2) * (maxDepth + 3)) / 2 + maxDepth + 4;
    this.feature = new Int32Array(size);
    this.zero = new Float64Array(size);
    this.one = new Float64Array(size);
    this.weight = new Float64Array(size);
  }
}

function extendPath(p: PathBuffer, off: number, depth: number, zeroFraction: number, oneFraction: number, feature: number): void {
  const w = p.weight;
  p.feature[off + depth] = feature;
  p.zero[off + depth] = zeroFraction;
  p.one[off + depth] = oneFraction;
  w[off + depth] = depth === 0 ? 1 : 0;
  for (let i = depth - 1; i >= 0; i--) {
    w[off + i + 1] = w[off + i + 1]! + (oneFraction * w[off + i]! * (i + 1)) / (depth + 1);
    w[off + i] = (zeroFraction * w[off + i]! * (depth - i)) / (depth + 1);
  }
}

function unwindPath(p: PathBuffer, off: number, depth: number, pathIndex: number): void {
  const w = p.weight;
  const oneFraction = p.one[off + pathIndex]!;
  const zeroFraction = p.zero[off + pathIndex]!;
  let next = w[off + depth]!;
  for (let i = depth - 1; i >= 0; i--) {
    if (oneFraction !== 0) {
      const tmp = w[off + i]!;
      w[off + i] = (next * (depth + 1)) / ((i + 1) * oneFraction);
      next = tmp - (w[off + i]! * zeroFraction * (depth - i)) / (depth + 1);
    } else {
      w[off + i] = (w[off + i]! * (depth + 1)) / (zeroFraction * (depth - i));
    }
  }
  for (let i = pathIndex; i < depth; i++) {
    p.feature[off + i] = p.feature[off + i + 1]!;
    p.zero[off + i] = p.zero[off + i + 1]!;
    p.one[off + i] = p.one[off + i + 1]!;
  }
}

/** Total permutation weight of the path with element `pathIndex` taken out (without changing the path). */
function unwoundPathSum(p: PathBuffer, off: number, depth: number, pathIndex: number): number {
  const w = p.weight;
  const oneFraction = p.one[off + pathIndex]!;
  const zeroFraction = p.zero[off + pathIndex]!;
  let next = w[off + depth]!;
  let total = 0;
  for (let i = depth - 1; i >= 0; i--) {
    if (oneFraction !== 0) {
      const tmp = (next * (depth + 1)) / ((i + 1) * oneFraction);
      total += tmp;
      next = w[off + i]! - tmp * zeroFraction * ((depth - i) / (depth + 1));
    } else if (zeroFraction !== 0) {
      total += w[off + i]! / zeroFraction / ((depth - i) / (depth + 1));
    }
  }
  return total;
}

/** Adds one tree's contributions for the row at `x[offset...]` into `phi`. */
function treeShapInto(tree: Tree, x: ArrayLike<number>, offset: number, phi: Float64Array, path: PathBuffer): void {
  const { feature, threshold, left, right, defaultLeft, cover, value } = tree;
  const recurse = (node: number, parentOff: number, depth: number, zeroFraction: number, oneFraction: number, featureIndex: number): void => {
    const off = parentOff + depth + 1;
    for (let i = 0; i <= depth; i++) {
      path.feature[off + i] = path.feature[parentOff + i]!;
      path.zero[off + i] = path.zero[parentOff + i]!;
      path.one[off + i] = path.one[parentOff + i]!;
      path.weight[off + i] = path.weight[parentOff + i]!;
    }
    extendPath(path, off, depth, zeroFraction, oneFraction, featureIndex);
    const l = left[node]!;
    if (l < 0) {
      const v = value[node]!;
      for (let i = 1; i <= depth; i++) {
        const w = unwoundPathSum(path, off, depth, i);
        const f = path.feature[off + i]!;
        phi[f] = phi[f]! + w * (path.one[off + i]! - path.zero[off + i]!) * v;
      }
      return;
    }
    const r = right[node]!;
    const f = feature[node]!;
    const xv = x[offset + f]!;
    const goLeft = xv !== xv ? defaultLeft[node] === 1 : xv < threshold[node]!;
    const hot = goLeft ? l : r;
    const cold = goLeft ? r : l;
    // Fractions over the children's own covers, so they sum to one exactly and the attributions add up to the margin.
    const total = cover[l]! + cover[r]!;
    const hotZero = total > 0 ? cover[hot]! / total : 0.5;
    const coldZero = total > 0 ? cover[cold]! / total : 0.5;
    let incomingZero = 1;
    let incomingOne = 1;
    let d = depth;
    let pathIndex = 0;
    for (; pathIndex <= d; pathIndex++) if (path.feature[off + pathIndex] === f) break;
    // A feature already on the path: undo its earlier split so that this one is counted once.
    if (pathIndex !== d + 1) {
      incomingZero = path.zero[off + pathIndex]!;
      incomingOne = path.one[off + pathIndex]!;
      unwindPath(path, off, d, pathIndex);
      d -= 1;
    }
    recurse(hot, off, d + 1, hotZero * incomingZero, incomingOne, f);
    recurse(cold, off, d + 1, coldZero * incomingZero, 0, f);
  };
  recurse(0, 0, 0, 1, 1, -1);
}

/** Model-wide constants of an explainer: the expected margin and the path buffer size. */
export class TreeExplainer {
  readonly expectedValue: number;
  private readonly path: PathBuffer;

  constructor(readonly model: GbdtModel) {
    let maxDepth = 0;
    let expected = baseMargin(model);
    for (const t of model.trees) {
      maxDepth = Math.max(maxDepth, treeDepth(t));
      expected += treeExpectedValue(t);
    }
    this.expectedValue = expected;
    this.path = new PathBuffer(maxDepth);
  }

  /** Contributions for one row (`x` from `offset`, numFeatures values; NaN is missing). */
  explainRow(x: ArrayLike<number>, offset = 0): ShapExplanation {
    const values = new Float64Array(this.model.numFeatures);
    for (const t of this.model.trees) treeShapInto(t, x, offset, values, this.path);
    return { values, expectedValue: this.expectedValue };
  }

  /** Contributions for every row, as XGBoost's pred_contribs lays them out: rows x (features + 1), the last column the expected value. */
  explainMatrix(x: FeatureMatrix): Float64Array {
    if (x.cols !== this.model.numFeatures) throw new RangeError('the data has a different number of features than the model');
    const width = x.cols + 1;
    const out = new Float64Array(x.rows * width);
    for (let i = 0; i < x.rows; i++) {
      const phi = out.subarray(i * width, i * width + x.cols);
      for (const t of this.model.trees) treeShapInto(t, x.data, i * x.cols, phi, this.path);
      out[i * width + x.cols] = this.expectedValue;
    }
    return out;
  }
}

/** TreeSHAP contributions of one row. */
export function treeShap(model: GbdtModel, row: ArrayLike<number>): ShapExplanation {
  return new TreeExplainer(model).explainRow(row);
}

/** One feature's contribution, named, for reports ("drivers"). */
export interface ShapDriver {
  readonly feature: number;
  readonly name: string;
  readonly value: number;
  readonly contribution: number;
}

/** The `k` features with the largest absolute contributions, largest first (ties by feature index). */
export function topDrivers(explanation: ShapExplanation, row: ArrayLike<number>, k: number, names?: readonly string[]): ShapDriver[] {
  const idx = Array.from(explanation.values.keys()).filter((i) => explanation.values[i] !== 0);
  idx.sort((a, b) => Math.abs(explanation.values[b]!) - Math.abs(explanation.values[a]!) || a - b);
  return idx.slice(0, k).map((i) => ({ feature: i, name: names?.[i] ?? `f${i}`, value: row[i]!, contribution: explanation.values[i]! }));
}
