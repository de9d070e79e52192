// Binary decision/regression trees as flat node arrays (XGBoost's layout): prediction with learned missing-value directions, and structure checks.
import { VitrineError } from '../errors.js';

/**
 * One tree. Node 0 is the root; a leaf has left = right = -1 and feature = -1.
 * A row goes left when its value is below the threshold, and to the default side when the value is NaN.
 */
export interface Tree {
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** 1 when a missing value goes left. */
  readonly defaultLeft: Uint8Array;
  /** Leaf output (already shrunk by the learning rate); for an internal node, its weight before splitting. */
  readonly value: Float64Array;
  /** Sum of the training hessians that reached the node (row count for squared error): TreeSHAP's weights. */
  readonly cover: Float64Array;
  /** Loss reduction of the node's split; 0 for a leaf. */
  readonly gain: Float64Array;
}

/** An empty tree with room for `n` nodes, all leaves. */
export function allocTree(n: number): Tree {
  return {
    feature: new Int32Array(n).fill(-1),
    threshold: new Float64Array(n),
    left: new Int32Array(n).fill(-1),
    right: new Int32Array(n).fill(-1),
    defaultLeft: new Uint8Array(n),
    value: new Float64Array(n),
    cover: new Float64Array(n),
    gain: new Float64Array(n),
  };
}

/** Index of the leaf a row reaches. `offset` is where the row starts in `x`. */
export function leafIndex(tree: Tree, x: ArrayLike<number>, offset = 0): number {
  const { feature, threshold, left, right, defaultLeft } = tree;
  let node = 0;
  for (;;) {
    const l = left[node]!;
    if (l < 0) return node;
    const v = x[offset + feature[node]!]!;
    node = v !== v ? (defaultLeft[node] ? l : right[node]!) : v < threshold[node]! ? l : right[node]!;
  }
}

/** The tree's output for one row. */
export function predictTree(tree: Tree, x: ArrayLike<number>, offset = 0): number {
  return tree.value[leafIndex(tree, x, offset)]!;
}

/** Number of nodes. */
export function nodeCount(tree: Tree): number {
  return tree.left.length;
}

/** Depth of the deepest leaf (a single leaf has depth 0). */
export function treeDepth(tree: Tree): number {
  let max = 0;
  const stack: number[] = [0, 0];
  while (stack.length > 0) {
    const d = stack.pop()!;
    const node = stack.pop()!;
    if (tree.left[node]! < 0) max = Math.max(max, d);
    else stack.push(tree.left[node]!, d + 1, tree.right[node]!, d + 1);
  }
  return max;
}

/** Largest depth accepted for a loaded tree; bounds the recursion of TreeSHAP and the size of its path buffers. */
export const MAX_TREE_DEPTH = 64;

/**
 * Checks that node arrays form one tree: equal lengths, children in range, every node but the root reached
 * exactly once from the root, leaves without features, internal nodes with a feature below `numFeatures`,
 * finite values and covers, depth at most MAX_TREE_DEPTH. Throws `validation_failed` naming the tree index.
 */
export function checkTreeStructure(tree: Tree, numFeatures: number, index: number): void {
  const n = tree.left.length;
  const fail = (issue: string): never => {
    throw new VitrineError('validation_failed', `invalid model: tree ${index}: ${issue}`, { details: [{ path: `trees[${index}]`, issue }] });
  };
  const lengths = [tree.feature, tree.threshold, tree.right, tree.defaultLeft, tree.value, tree.cover, tree.gain].map((a) => a.length);
  if (n === 0) fail('has no nodes');
  if (lengths.some((l) => l !== n)) fail('node arrays differ in length');
  const seen = new Uint8Array(n);
  seen[0] = 1;
  const stack: number[] = [0, 0];
  let visited = 1;
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const node = stack.pop()!;
    const l = tree.left[node]!;
    const r = tree.right[node]!;
    if (!Number.isFinite(tree.value[node]!)) fail('a node value is not finite');
    if (!(tree.cover[node]! >= 0) || !Number.isFinite(tree.cover[node]!)) fail('a node cover is negative or not finite');
    if (l < 0 || r < 0) {
      if (l !== -1 || r !== -1) fail('a leaf has one child');
      continue;
    }
    if (depth >= MAX_TREE_DEPTH) fail(`deeper than ${MAX_TREE_DEPTH}`);
    const f = tree.feature[node]!;
    if (f < 0 || f >= numFeatures) fail('a split feature is out of range');
    if (Number.isNaN(tree.threshold[node]!)) fail('a threshold is NaN');
    for (const c of [l, r]) {
      if (c >= n || c === 0) fail('a child index is out of range');
      if (seen[c]) fail('a node is reached twice');
      seen[c] = 1;
      visited++;
      stack.push(c, depth + 1);
    }
  }
  if (visited !== n) fail('some nodes are not reachable from the root');
}

/**
 * The expected output of the tree under the training distribution: leaves weighted by cover
 * (TreeSHAP's base value for the tree).
 */
export function treeExpectedValue(tree: Tree): number {
  const walk = (node: number): number => {
    const l = tree.left[node]!;
    if (l < 0) return tree.value[node]!;
    const r = tree.right[node]!;
    const cl = tree.cover[l]!;
    const cr = tree.cover[r]!;
    const total = cl + cr;
    // A split whose children carry no cover (possible in hand-made trees) averages them evenly.
    return total > 0 ? (walk(l) * cl + walk(r) * cr) / total : (walk(l) + walk(r)) / 2;
  };
  return walk(0);
}
