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
 * The unique path of features met from the root: for each, the share of training cover that followed it
 * (zero fraction), whether the explained row followed it (one fraction), and the permutation weight.
 * Stored flat, four numbers per element (feature, zero, one, weight); each recursion level works on its
 * own copy further along the buffer.
 */
class PathBuffer {
  readonly data: Float64Array;
  constructor(maxDepth: number) {
    this.data = new Float64Array((((maxDepth + 2) * (maxDepth + 3)) / 2 + maxDepth + 4) * 4);
  }
}

const FEATURE = 0;
const ZERO = 1;
const ONE = 2;
const WEIGHT = 3;

function extendPath(p: Float64Array, off: number, depth: number, zeroFraction: number, oneFraction: number, feature: number): void {
  const e = (off + depth) * 4;
  p[e + FEATURE] = feature;
  p[e + ZERO] = zeroFraction;
  p[e + ONE] = oneFraction;
  p[e + WEIGHT] = depth === 0 ? 1 : 0;
  for (let i = depth - 1; i >= 0; i--) {
    const wi = (off + i) * 4 + WEIGHT;
    p[wi + 4] = p[wi + 4]! + (oneFraction * p[wi]! * (i + 1)) / (depth + 1);
    p[wi] = (zeroFraction * p[wi]! * (depth - i)) / (depth + 1);
  }
}

function unwindPath(p: Float64Array, off: number, depth: number, pathIndex: number): void {
  const oneFraction = p[(off + pathIndex) * 4 + ONE]!;
  const zeroFraction = p[(off + pathIndex) * 4 + ZERO]!;
  let next = p[(off + depth) * 4 + WEIGHT]!;
  for (let i = depth - 1; i >= 0; i--) {
    const wi = (off + i) * 4 + WEIGHT;
    if (oneFraction !== 0) {
      const tmp = p[wi]!;
      p[wi] = (next * (depth + 1)) / ((i + 1) * oneFraction);
      next = tmp - (p[wi]! * zeroFraction * (depth - i)) / (depth + 1);
    } else {
      p[wi] = (p[wi]! * (depth + 1)) / (zeroFraction * (depth - i));
    }
  }
  for (let i = pathIndex; i < depth; i++) {
    const e = (off + i) * 4;
    p[e + FEATURE] = p[e + 4 + FEATURE]!;
    p[e + ZERO] = p[e + 4 + ZERO]!;
    p[e + ONE] = p[e + 4 + ONE]!;
  }
}

/** Total permutation weight of the path with element `pathIndex` taken out (without changing the path). */
function unwoundPathSum(p: Float64Array, off: number, depth: number, pathIndex: number): number {
  const oneFraction = p[(off + pathIndex) * 4 + ONE]!;
  const zeroFraction = p[(off + pathIndex) * 4 + ZERO]!;
  let next = p[(off + depth) * 4 + WEIGHT]!;
  let total = 0;
  for (let i = depth - 1; i >= 0; i--) {
    const w = p[(off + i) * 4 + WEIGHT]!;
    if (oneFraction !== 0) {
      const tmp = (next * (depth + 1)) / ((i + 1) * oneFraction);
      total += tmp;
      next = w - tmp * zeroFraction * ((depth - i) / (depth + 1));
    } else if (zeroFraction !== 0) {
      total += w / zeroFraction / ((depth - i) / (depth + 1));
    }
  }
  return total;
}

/** What one recursion needs besides its own arguments (kept out of closures so that nothing is allocated per row). */
interface ShapContext {
  tree: Tree;
  x: ArrayLike<number>;
  offset: number;
  phi: Float64Array;
  path: Float64Array;
}

function recurse(c: ShapContext, node: number, parentOff: number, depth: number, zeroFraction: number, oneFraction: number, featureIndex: number): void {
  const p = c.path;
  const off = parentOff + depth + 1;
  p.copyWithin(off * 4, parentOff * 4, (parentOff + depth + 1) * 4);
  extendPath(p, off, depth, zeroFraction, oneFraction, featureIndex);
  const tree = c.tree;
  const l = tree.left[node]!;
  if (l < 0) {
    const v = tree.value[node]!;
    const phi = c.phi;
    for (let i = 1; i <= depth; i++) {
      const w = unwoundPathSum(p, off, depth, i);
      const e = (off + i) * 4;
      const f = p[e + FEATURE]!;
      phi[f] = phi[f]! + w * (p[e + ONE]! - p[e + ZERO]!) * v;
    }
    return;
  }
  const r = tree.right[node]!;
  const f = tree.feature[node]!;
  const xv = c.x[c.offset + f]!;
  const goLeft = xv !== xv ? tree.defaultLeft[node] === 1 : xv < tree.threshold[node]!;
  const hot = goLeft ? l : r;
  const cold = goLeft ? r : l;
  // Fractions over the children's own covers, so they sum to one exactly and the attributions add up to the margin.
  const cover = tree.cover;
  const total = cover[l]! + cover[r]!;
  const hotZero = total > 0 ? cover[hot]! / total : 0.5;
  const coldZero = total > 0 ? cover[cold]! / total : 0.5;
  let incomingZero = 1;
  let incomingOne = 1;
  let d = depth;
  let pathIndex = 0;
  for (; pathIndex <= d; pathIndex++) if (p[(off + pathIndex) * 4 + FEATURE] === f) break;
  // A feature already on the path: undo its earlier split so that this one is counted once.
  if (pathIndex !== d + 1) {
    incomingZero = p[(off + pathIndex) * 4 + ZERO]!;
    incomingOne = p[(off + pathIndex) * 4 + ONE]!;
    unwindPath(p, off, d, pathIndex);
    d -= 1;
  }
  recurse(c, hot, off, d + 1, hotZero * incomingZero, incomingOne, f);
  recurse(c, cold, off, d + 1, coldZero * incomingZero, 0, f);
}

/** Adds one tree's contributions for the row at `x[offset...]` into `phi`. */
function treeShapInto(c: ShapContext): void {
  recurse(c, 0, 0, 0, 1, 1, -1);
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
    const c: ShapContext = { tree: this.model.trees[0]!, x, offset, phi: values, path: this.path.data };
    for (const t of this.model.trees) {
      c.tree = t;
      treeShapInto(c);
    }
    return { values, expectedValue: this.expectedValue };
  }

  /** Contributions for every row, as XGBoost's pred_contribs lays them out: rows x (features + 1), the last column the expected value. */
  explainMatrix(x: FeatureMatrix): Float64Array {
    if (x.cols !== this.model.numFeatures) throw new RangeError('the data has a different number of features than the model');
    const width = x.cols + 1;
    const out = new Float64Array(x.rows * width);
    const c: ShapContext = { tree: this.model.trees[0]!, x: x.data, offset: 0, phi: out, path: this.path.data };
    for (let i = 0; i < x.rows; i++) {
      c.offset = i * x.cols;
      c.phi = out.subarray(i * width, i * width + x.cols);
      for (const t of this.model.trees) {
        c.tree = t;
        treeShapInto(c);
      }
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
