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

/**
 * One tree's TreeSHAP as tables (exact, path by path). Along the path to a leaf, each distinct feature j has a zero
 * fraction z_j (the share of cover that follows the path through all of its splits) and a one fraction o_j, 1 when the
 * row follows the path through all of them and 0 otherwise. The leaf's contributions depend on the row only through
 * the bits o, so for every leaf and every pattern of bits they are computed once (the same extend and unwind as the
 * recursive algorithm, whose result they equal up to rounding) and a row costs one bit test per split on the path and
 * one addition per feature on it.
 */
interface ShapTable {
  /**
   * Internal nodes in preorder (a parent before its children), each with the bit its feature has on the paths through
   * it: a row's pattern is carried down, each step clearing the bit of the side the row does not take.
   */
  readonly order: Int32Array;
  readonly orderBit: Int32Array;
  /** Per leaf, in the order of the tables: its node. */
  readonly leafNode: Int32Array;
  /** Per leaf: its distinct features [featStart[l], featStart[l + 1]) in bit order. */
  readonly featStart: Int32Array;
  readonly feats: Int32Array;
  /** Per leaf: where its 2^k x k contributions start (pattern-major). */
  readonly valueStart: Int32Array;
  readonly values: Float64Array;
}

/** Longest path (distinct features) given a table: 2^8 patterns per leaf. */
const MAX_TABLE_FEATURES = 8;
/** Largest total table size per model, in numbers (32 MB); trees beyond it use the recursive algorithm. */
const MAX_TABLE_VALUES = 4 << 20;

/** The table of one tree, or undefined when a path holds too many distinct features or the budget is spent. */
function buildShapTable(tree: Tree, budget: number): ShapTable | undefined {
  const { left, right, feature, cover, value } = tree;
  const n = left.length;
  // Internal nodes in preorder with their feature's bit, leaves by the same depth-first walk, with their paths.
  const order: number[] = [];
  const orderBit: number[] = [];
  const leafNode: number[] = [];
  const bitOf = new Int32Array(n);
  const featStart = [0];
  const feats: number[] = [];
  const valueStart: number[] = [];
  const chunks: Float64Array[] = [];
  let total = 0;
  const pathNodes: number[] = [];
  const pathRight: number[] = [];
  const buf = new Float64Array((MAX_TABLE_FEATURES + 2) * 4);
  let tooBig = false;
  const leaf = (node: number): void => {
    const fs: number[] = [];
    const z: number[] = [];
    for (let s = 0; s < pathNodes.length; s++) {
      const at = pathNodes[s]!;
      const f = feature[at]!;
      let j = fs.indexOf(f);
      if (j < 0) {
        j = fs.length;
        fs.push(f);
        z.push(1);
      }
      const l = left[at]!;
      const r = right[at]!;
      const t = cover[l]! + cover[r]!;
      const child = pathRight[s] ? r : l;
      z[j] = z[j]! * (t > 0 ? cover[child]! / t : 0.5);
      bitOf[at] = j;
    }
    const k = fs.length;
    if (k > MAX_TABLE_FEATURES || total + (k << k) > budget) {
      tooBig = true;
      return;
    }
    const table = new Float64Array(k << k);
    const v = value[node]!;
    for (let pattern = 0; pattern < 1 << k; pattern++) {
      extendPath(buf, 0, 0, 1, 1, -1);
      for (let j = 0; j < k; j++) extendPath(buf, 0, j + 1, z[j]!, (pattern >> j) & 1, j);
      for (let i = 1; i <= k; i++) table[pattern * k + i - 1] = unwoundPathSum(buf, 0, k, i) * (((pattern >> (i - 1)) & 1) - z[i - 1]!) * v;
    }
    leafNode.push(node);
    feats.push(...fs);
    featStart.push(feats.length);
    valueStart.push(total);
    chunks.push(table);
    total += table.length;
  };
  const walk = (node: number): void => {
    if (tooBig) return;
    const l = left[node]!;
    if (l < 0) {
      leaf(node);
      return;
    }
    order.push(node);
    pathNodes.push(node);
    pathRight.push(0);
    walk(l);
    pathRight[pathRight.length - 1] = 1;
    walk(right[node]!);
    pathNodes.pop();
    pathRight.pop();
  };
  walk(0);
  if (tooBig) return undefined;
  const values = new Float64Array(total);
  chunks.forEach((c, i) => values.set(c, valueStart[i]!));
  for (const node of order) orderBit.push(bitOf[node]!);
  return {
    order: Int32Array.from(order),
    orderBit: Int32Array.from(orderBit),
    leafNode: Int32Array.from(leafNode),
    featStart: Int32Array.from(featStart),
    feats: Int32Array.from(feats),
    valueStart: Int32Array.from(valueStart),
    values,
  };
}

/**
 * Adds one tree's contributions for the row at `x[offset...]` from its table into `phi[phiAt...]`; `pat` has room for
 * one pattern per node. The root's pattern has every bit set; a split clears its feature's bit on the side the row
 * does not take (a feature met twice keeps its bit only where the row follows both splits), so a leaf's pattern is
 * the row's bits on its path.
 */
function tableShapInto(tree: Tree, t: ShapTable, x: ArrayLike<number>, offset: number, phi: Float64Array, phiAt: number, pat: Int32Array): void {
  const { feature, threshold, defaultLeft, left, right } = tree;
  const { order, orderBit } = t;
  pat[0] = -1;
  for (let k = 0; k < order.length; k++) {
    const node = order[k]!;
    const v = x[offset + feature[node]!]!;
    // 1 when the row goes right: v not below the threshold, or v missing and its default is right.
    const goRight = v !== v ? 1 - defaultLeft[node]! : Number(!(v < threshold[node]!));
    const p = pat[node]!;
    const bit = 1 << orderBit[k]!;
    pat[left[node]!] = p & ~(bit & -goRight);
    pat[right[node]!] = p & ~(bit & (goRight - 1));
  }
  const { leafNode, featStart, feats, valueStart, values } = t;
  const leaves = valueStart.length;
  for (let l = 0; l < leaves; l++) {
    const fs = featStart[l]!;
    const k = featStart[l + 1]! - fs;
    if (k === 0) continue;
    const base = valueStart[l]! + (pat[leafNode[l]!]! & ((1 << k) - 1)) * k;
    for (let j = 0; j < k; j++) {
      const f = phiAt + feats[fs + j]!;
      phi[f] = phi[f]! + values[base + j]!;
    }
  }
}

/** Rows explained together, tree by tree. */
const SHAP_BLOCK_ROWS = 128;

/** Tables per trees array, shared by every explainer of the same model; undefined entries use the recursion. */
const tableCache = new WeakMap<readonly Tree[], { trees: Tree[]; rows: number; tables?: (ShapTable | undefined)[] }>();

/**
 * Rows a model explains by recursion before its tables are built: building them costs about as much as explaining
 * a few dozen rows, so a single explanation (one file, one flow) is not held up by it.
 */
const TABLE_AFTER_ROWS = 48;

/** The model's tables once it has been asked for `TABLE_AFTER_ROWS` rows (counting these `rows`), else undefined. */
function shapTables(trees: readonly Tree[], rows: number): (ShapTable | undefined)[] | undefined {
  let hit = tableCache.get(trees);
  if (!hit || hit.trees.length !== trees.length || !hit.trees.every((t, i) => t === trees[i])) {
    hit = { trees: [...trees], rows: 0 };
    tableCache.set(trees, hit);
  }
  if (hit.tables) return hit.tables;
  hit.rows += rows;
  if (hit.rows < TABLE_AFTER_ROWS) return undefined;
  let budget = MAX_TABLE_VALUES;
  hit.tables = trees.map((t) => {
    const table = buildShapTable(t, budget);
    if (table) budget -= table.values.length;
    return table;
  });
  return hit.tables;
}

/** Model-wide constants of an explainer: the expected margin and the path buffer size. */
export class TreeExplainer {
  readonly expectedValue: number;
  private readonly path: PathBuffer;
  private readonly pat: Int32Array;

  private readonly useTables: boolean;

  /**
   * Per-leaf tables serve once the model has explained a few dozen rows (they agree with the recursion to about
   * 1e-15 relative); `options.tables` false explains by the recursive algorithm only (the tables' reference).
   */
  constructor(
    readonly model: GbdtModel,
    options: { readonly tables?: boolean } = {},
  ) {
    this.useTables = options.tables ?? true;
    let maxDepth = 0;
    let maxNodes = 1;
    let expected = baseMargin(model);
    for (const t of model.trees) {
      maxDepth = Math.max(maxDepth, treeDepth(t));
      maxNodes = Math.max(maxNodes, t.left.length);
      expected += treeExpectedValue(t);
    }
    this.expectedValue = expected;
    this.path = new PathBuffer(maxDepth);
    this.pat = new Int32Array(maxNodes);
  }

  private tables(rows: number): (ShapTable | undefined)[] {
    return (this.useTables ? shapTables(this.model.trees, rows) : undefined) ?? new Array<undefined>(this.model.trees.length);
  }

  /** Adds every tree's contributions for the row at x[offset...] into phi: from the tables, else by recursion. */
  private addRow(c: ShapContext, tables: (ShapTable | undefined)[]): void {
    const trees = this.model.trees;
    for (let i = 0; i < trees.length; i++) {
      const t = trees[i]!;
      const table = tables[i];
      if (table) tableShapInto(t, table, c.x, c.offset, c.phi, 0, this.pat);
      else {
        c.tree = t;
        treeShapInto(c);
      }
    }
  }

  /** Contributions for one row (`x` from `offset`, numFeatures values; NaN is missing). */
  explainRow(x: ArrayLike<number>, offset = 0): ShapExplanation {
    const values = new Float64Array(this.model.numFeatures);
    const c: ShapContext = { tree: this.model.trees[0]!, x, offset, phi: values, path: this.path.data };
    this.addRow(c, this.tables(1));
    return { values, expectedValue: this.expectedValue };
  }

  /** Contributions for every row, as XGBoost's pred_contribs lays them out: rows x (features + 1), the last column the expected value. */
  explainMatrix(x: FeatureMatrix): Float64Array {
    if (x.cols !== this.model.numFeatures) throw new RangeError('the data has a different number of features than the model');
    const width = x.cols + 1;
    const out = new Float64Array(x.rows * width);
    const c: ShapContext = { tree: this.model.trees[0]!, x: x.data, offset: 0, phi: out, path: this.path.data };
    const tables = this.tables(x.rows);
    const trees = this.model.trees;
    // Tree by tree over blocks of rows, so that one tree's table stays in cache; each row still adds the trees in order.
    for (let start = 0; start < x.rows; start += SHAP_BLOCK_ROWS) {
      const end = Math.min(x.rows, start + SHAP_BLOCK_ROWS);
      for (let ti = 0; ti < trees.length; ti++) {
        const t = trees[ti]!;
        const table = tables[ti];
        c.tree = t;
        if (table) for (let i = start; i < end; i++) tableShapInto(t, table, x.data, i * x.cols, out, i * width, this.pat);
        else
          for (let i = start; i < end; i++) {
            c.offset = i * x.cols;
            c.phi = out.subarray(i * width, i * width + x.cols);
            treeShapInto(c);
          }
      }
      for (let i = start; i < end; i++) out[i * width + x.cols] = this.expectedValue;
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
