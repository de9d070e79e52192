// A tree ensemble packed for prediction: every tree's nodes in two shared flat arrays, children side by side, traversed over blocks of rows.
import type { Tree } from './tree.js';

/**
 * All trees of an ensemble in one layout. Node k of the pack has `code[2k]` = feature | (missing goes right) << 24
 * and `code[2k + 1]` = index of its left child (the right child follows it), or -1 for a leaf;
 * `num[k]` is the threshold of an internal node and the output of a leaf. Tree t starts at node `roots[t]`.
 * Children are laid out breadth-first per tree so that a step is `left + (goes right)` with no second index load.
 */
export interface PackedEnsemble {
  readonly code: Int32Array;
  readonly num: Float64Array;
  readonly roots: Int32Array;
}

const FEATURE_MASK = 0xffffff;
const RIGHT_SHIFT = 24;
/** Rows walked together through one tree before moving to the next: the block's rows and outputs stay in cache. */
const BLOCK_ROWS = 256;

/** Largest feature index a packed node can hold. */
export const MAX_PACKED_FEATURE = FEATURE_MASK;

/** Packs trees (checked structures: node 0 the root, each other node reached once) into one flat layout. */
export function packTrees(trees: readonly Tree[]): PackedEnsemble {
  let total = 0;
  for (const t of trees) total += t.left.length;
  const code = new Int32Array(2 * total);
  const num = new Float64Array(total);
  const roots = new Int32Array(trees.length);
  let next = 0;
  let largest = 1;
  for (const t of trees) {
    largest = Math.max(largest, t.left.length);
    for (let k = 0; k < t.feature.length; k++) if (t.feature[k]! > FEATURE_MASK) throw new RangeError('a split feature index is too large to pack');
  }
  const queue = new Int32Array(largest);
  const slot = new Int32Array(queue.length);
  trees.forEach((t, ti) => {
    roots[ti] = next;
    // Breadth-first: queue[k] is the original node placed at packed index base + k.
    const base = next;
    let head = 0;
    let tail = 1;
    queue[0] = 0;
    slot[0] = base;
    next++;
    while (head < tail) {
      const node = queue[head]!;
      const at = slot[head]!;
      head++;
      const l = t.left[node]!;
      if (l < 0) {
        code[2 * at] = 0;
        code[2 * at + 1] = -1;
        num[at] = t.value[node]!;
        continue;
      }
      const r = t.right[node]!;
      code[2 * at] = t.feature[node]! | ((t.defaultLeft[node] ? 0 : 1) << RIGHT_SHIFT);
      code[2 * at + 1] = next;
      num[at] = t.threshold[node]!;
      queue[tail] = l;
      slot[tail++] = next++;
      queue[tail] = r;
      slot[tail++] = next++;
    }
  });
  return { code, num, roots };
}

const cache = new WeakMap<readonly Tree[], { trees: Tree[]; nodes: number[]; packed: PackedEnsemble }>();

/**
 * The packed form of an ensemble's trees, built once per trees array and reused while it holds the same trees
 * of the same sizes (a caller that pushes to or replaces trees in the array gets a fresh pack).
 */
export function packedTrees(trees: readonly Tree[]): PackedEnsemble {
  const hit = cache.get(trees);
  if (hit && hit.trees.length === trees.length && hit.trees.every((t, i) => t === trees[i] && t.left.length === hit.nodes[i])) return hit.packed;
  const packed = packTrees(trees);
  cache.set(trees, { trees: [...trees], nodes: trees.map((t) => t.left.length), packed });
  return packed;
}

/**
 * Adds every tree's output, in tree order, to `out[i]` for rows `i` of the row-major matrix `x` (`cols` values per row;
 * NaN is missing). Per row the additions happen in the same order as tree-by-tree prediction, so the sums are identical.
 */
export function addPackedOutputs(p: PackedEnsemble, x: ArrayLike<number>, rows: number, cols: number, out: Float64Array): void {
  const { code, num, roots } = p;
  const nt = roots.length;
  for (let start = 0; start < rows; start += BLOCK_ROWS) {
    const end = Math.min(rows, start + BLOCK_ROWS);
    for (let t = 0; t < nt; t++) {
      const root = roots[t]!;
      for (let i = start; i < end; i++) {
        const off = i * cols;
        let node = root;
        let l = code[2 * node + 1]!;
        while (l >= 0) {
          const c = code[2 * node]!;
          const v = x[off + (c & FEATURE_MASK)]!;
          node = v !== v ? l + (c >>> RIGHT_SHIFT) : v < num[node]! ? l : l + 1;
          l = code[2 * node + 1]!;
        }
        out[i] = out[i]! + num[node]!;
      }
    }
  }
}

/** Sum of every tree's output for one row (from `offset`), added to `start` in tree order. */
export function packedRowSum(p: PackedEnsemble, x: ArrayLike<number>, offset: number, start: number): number {
  const { code, num, roots } = p;
  let m = start;
  for (let t = 0; t < roots.length; t++) {
    let node = roots[t]!;
    let l = code[2 * node + 1]!;
    while (l >= 0) {
      const c = code[2 * node]!;
      const v = x[offset + (c & FEATURE_MASK)]!;
      node = v !== v ? l + (c >>> RIGHT_SHIFT) : v < num[node]! ? l : l + 1;
      l = code[2 * node + 1]!;
    }
    m += num[node]!;
  }
  return m;
}
