// A tree ensemble packed for prediction: every tree's nodes in two shared flat arrays, children side by side, traversed over blocks of rows.
import type { Tree } from './tree.js';
import { WASM } from './treepredict.wasm.js';
import { compileKernel, growMemory, instantiateKernel, type WasmMemory } from '../wasm.js';

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
  /**
   * Shallow trees again as complete binary trees (heap order, node k's children 2k+1 and 2k+2): tree t has depth
   * `denseDepth[t]` (-1 when it is too deep and only the layout above serves), its 2^d - 1 splits from `denseAt[t]`
   * in `denseCode` / `denseNum` and its 2^d leaves from `leafAt[t]` in `leaves`. A leaf above the bottom level is
   * copied into every bottom slot under it, behind splits whose direction does not matter, so every row takes
   * exactly d steps and several rows can walk a tree in lockstep.
   */
  readonly denseDepth: Int32Array;
  readonly denseAt: Int32Array;
  readonly leafAt: Int32Array;
  readonly denseCode: Int32Array;
  readonly denseNum: Float64Array;
  readonly leaves: Float64Array;
  /** The dense layout as the WebAssembly kernel reads it, when every tree has it (see `KernelModel`). */
  readonly kernel: KernelModel | undefined;
}

/**
 * treepredict.wat's model: the features the trees split on (`used`, ascending; the kernel's rows hold only these),
 * per tree (depth, first split, first leaf), per split (column * 8) | 1 when missing goes right, and the thresholds
 * and leaves of the dense layout.
 */
export interface KernelModel {
  readonly used: Int32Array;
  readonly trees: Int32Array;
  readonly code: Int32Array;
  readonly num: Float64Array;
  readonly leaves: Float64Array;
}

/** Deepest tree given the complete layout (2^8 leaves). */
const MAX_DENSE_DEPTH = 8;

function depthOf(t: Tree, node: number): number {
  const l = t.left[node]!;
  return l < 0 ? 0 : 1 + Math.max(depthOf(t, l), depthOf(t, t.right[node]!));
}

function fillDense(t: Tree, node: number, k: number, level: number, depth: number, code: Int32Array, num: Float64Array, leaves: Float64Array, at: number, leafAt: number): void {
  if (level === depth) {
    leaves[leafAt + k - ((1 << depth) - 1)] = t.value[node]!;
    return;
  }
  const l = t.left[node]!;
  if (l < 0) {
    // A leaf above the bottom: a split on feature 0 whose both sides hold the same leaf.
    code[at + k] = 0;
    num[at + k] = 0;
    fillDense(t, node, 2 * k + 1, level + 1, depth, code, num, leaves, at, leafAt);
    fillDense(t, node, 2 * k + 2, level + 1, depth, code, num, leaves, at, leafAt);
    return;
  }
  code[at + k] = t.feature[node]! | ((t.defaultLeft[node] ? 0 : 1) << RIGHT_SHIFT);
  num[at + k] = t.threshold[node]!;
  fillDense(t, l, 2 * k + 1, level + 1, depth, code, num, leaves, at, leafAt);
  fillDense(t, t.right[node]!, 2 * k + 2, level + 1, depth, code, num, leaves, at, leafAt);
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
  const denseDepth = new Int32Array(trees.length).fill(-1);
  const denseAt = new Int32Array(trees.length);
  const leafAt = new Int32Array(trees.length);
  let splits = 0;
  let leafCount = 0;
  trees.forEach((t, ti) => {
    const d = depthOf(t, 0);
    if (d > MAX_DENSE_DEPTH) return;
    denseDepth[ti] = d;
    denseAt[ti] = splits;
    leafAt[ti] = leafCount;
    splits += (1 << d) - 1;
    leafCount += 1 << d;
  });
  const denseCode = new Int32Array(splits);
  const denseNum = new Float64Array(splits);
  const leaves = new Float64Array(leafCount);
  trees.forEach((t, ti) => {
    if (denseDepth[ti]! >= 0) fillDense(t, 0, 0, 0, denseDepth[ti]!, denseCode, denseNum, leaves, denseAt[ti]!, leafAt[ti]!);
  });
  const kernel = denseDepth.every((d) => d >= 0) ? kernelModel(trees, denseDepth, denseAt, leafAt, denseCode, denseNum, leaves) : undefined;
  return { code, num, roots, denseDepth, denseAt, leafAt, denseCode, denseNum, leaves, kernel };
}

function kernelModel(trees: readonly Tree[], denseDepth: Int32Array, denseAt: Int32Array, leafAt: Int32Array, denseCode: Int32Array, denseNum: Float64Array, leaves: Float64Array): KernelModel {
  const features = new Set<number>();
  for (const t of trees) for (let k = 0; k < t.feature.length; k++) if (t.left[k]! >= 0) features.add(t.feature[k]!);
  const used = Int32Array.from(features).sort();
  const column = new Map<number, number>();
  used.forEach((f, i) => column.set(f, i));
  const code = new Int32Array(denseCode.length);
  for (let k = 0; k < code.length; k++) {
    const c = denseCode[k]!;
    // The filler splits above a shallow leaf (feature 0, both sides the same leaf) may read any column: the first.
    code[k] = ((column.get(c & FEATURE_MASK) ?? 0) << 3) | (c >>> RIGHT_SHIFT);
  }
  const table = new Int32Array(3 * denseDepth.length);
  for (let t = 0; t < denseDepth.length; t++) {
    table[3 * t] = denseDepth[t]!;
    table[3 * t + 1] = denseAt[t]!;
    table[3 * t + 2] = leafAt[t]!;
  }
  return { used, trees: table, code, num: denseNum, leaves };
}

interface KernelExports {
  readonly memory: WasmMemory;
  predict(x: number, rows: number, rowBytes: number, trees: number, nt: number, code: number, num: number, leaves: number, out: number): void;
}

/** Bytes of row values handed to the kernel per call (rows are copied in by chunks). */
const KERNEL_CHUNK_BYTES = 2 << 20;
/** Below this many rows the JavaScript walk serves (copying in would cost more than it saves). */
const KERNEL_MIN_ROWS = 16;

/** Whether addPackedOutputs hands `rows` rows to the WebAssembly kernel. */
export function kernelServes(p: PackedEnsemble, rows: number): boolean {
  return p.kernel !== undefined && rows >= KERNEL_MIN_ROWS;
}

/** The kernel instance, the model now in its memory and where its parts are. */
let instance: { exports: KernelExports; model: KernelModel | null; trees: number; code: number; num: number; leaves: number; free: number } | null = null;

function align(n: number): number {
  return (n + 15) & ~15;
}

/** The kernel with `m` in its memory and room for `bytes` more after it; returns the first free byte. */
function loadKernel(m: KernelModel, bytes: number): { exports: KernelExports; base: number; at: { trees: number; code: number; num: number; leaves: number } } {
  if (!instance) {
    const exports = instantiateKernel<KernelExports>(compileKernel(WASM));
    instance = { exports, model: null, trees: 0, code: 0, num: 0, leaves: 0, free: 0 };
  }
  const k = instance;
  const memory = k.exports.memory;
  if (k.model !== m) {
    k.model = null;
    k.trees = 0;
    k.code = align(k.trees + m.trees.byteLength);
    k.num = align(k.code + m.code.byteLength);
    k.leaves = align(k.num + m.num.byteLength);
    k.free = align(k.leaves + m.leaves.byteLength);
  }
  const need = k.free + bytes;
  growMemory(memory, need);
  if (k.model !== m) {
    const buf = memory.buffer;
    new Int32Array(buf, k.trees, m.trees.length).set(m.trees);
    new Int32Array(buf, k.code, m.code.length).set(m.code);
    new Float64Array(buf, k.num, m.num.length).set(m.num);
    new Float64Array(buf, k.leaves, m.leaves.length).set(m.leaves);
    k.model = m;
  }
  return { exports: k.exports, base: k.free, at: k };
}

/**
 * addPackedOutputs through the kernel: rows copied in by chunks of at most `chunkRows` (only the features the trees
 * use, each passed through `map` when given), margins added in place.
 */
export function addKernelOutputs(m: KernelModel, x: ArrayLike<number>, rows: number, cols: number, out: Float64Array, chunkRows = Infinity, map?: (v: number) => number): void {
  const used = m.used;
  const width = Math.max(1, used.length);
  const chunk = Math.max(1, Math.min(rows, chunkRows, Math.floor(KERNEL_CHUNK_BYTES / (8 * width))));
  const { exports, base, at } = loadKernel(m, align(chunk * 8) + chunk * width * 8);
  const outAt = base;
  const xAt = base + align(chunk * 8);
  const f64 = new Float64Array(exports.memory.buffer);
  const identity = used.length === cols && (cols === 0 || used[cols - 1] === cols - 1);
  const nt = m.trees.length / 3;
  for (let start = 0; start < rows; start += chunk) {
    const n = Math.min(chunk, rows - start);
    if (map) {
      let d = xAt / 8;
      for (let i = start; i < start + n; i++) {
        const off = i * cols;
        for (let j = 0; j < used.length; j++) f64[d++] = map(x[off + used[j]!]!);
      }
    } else if (identity && (x instanceof Float64Array || x instanceof Float32Array)) f64.set(x.subarray(start * cols, (start + n) * cols), xAt / 8);
    else {
      let d = xAt / 8;
      for (let i = start; i < start + n; i++) {
        const off = i * cols;
        for (let j = 0; j < used.length; j++) f64[d++] = x[off + used[j]!]!;
      }
    }
    f64.set(out.subarray(start, start + n), outAt / 8);
    exports.predict(xAt, n, width * 8, at.trees, nt, at.code, at.num, at.leaves, outAt);
    out.set(f64.subarray(outAt / 8, outAt / 8 + n), start);
  }
}

/**
 * A value worked out from an ensemble's trees, kept per trees array and reused while the array holds the same trees
 * of the same sizes (a caller that pushes to or replaces trees in the array gets undefined, and sets a fresh value).
 */
export class PerTrees<V> {
  private readonly map = new WeakMap<readonly Tree[], { trees: Tree[]; nodes: number[]; value: V }>();

  get(trees: readonly Tree[]): V | undefined {
    const hit = this.map.get(trees);
    return hit && hit.trees.length === trees.length && hit.trees.every((t, i) => t === trees[i] && t.left.length === hit.nodes[i]) ? hit.value : undefined;
  }

  set(trees: readonly Tree[], value: V): V {
    this.map.set(trees, { trees: [...trees], nodes: trees.map((t) => t.left.length), value });
    return value;
  }
}

const packs = new PerTrees<PackedEnsemble>();

/** The packed form of an ensemble's trees, built once per trees array (`PerTrees`). */
export function packedTrees(trees: readonly Tree[]): PackedEnsemble {
  return packs.get(trees) ?? packs.set(trees, packTrees(trees));
}

/**
 * Adds every tree's output, in tree order, to `out[i]` for rows `i` of the row-major matrix `x` (`cols` values per row;
 * NaN is missing). Per row the additions happen in the same order as tree-by-tree prediction, so the sums are identical.
 */
export function addPackedOutputs(p: PackedEnsemble, x: ArrayLike<number>, rows: number, cols: number, out: Float64Array): void {
  if (kernelServes(p, rows)) {
    addKernelOutputs(p.kernel!, x, rows, cols, out);
    return;
  }
  const { code, num, roots, denseDepth } = p;
  const nt = roots.length;
  for (let start = 0; start < rows; start += BLOCK_ROWS) {
    const end = Math.min(rows, start + BLOCK_ROWS);
    for (let t = 0; t < nt; t++) {
      const depth = denseDepth[t]!;
      if (depth >= 0) {
        addDenseTree(p, t, depth, x, start, end, cols, out);
        continue;
      }
      const root = roots[t]!;
      for (let i = start; i < end; i++) {
        const off = i * cols;
        let node = root;
        let l = code[2 * node + 1]!;
        while (l >= 0) {
          const c = code[2 * node]!;
          const v = x[off + (c & FEATURE_MASK)]!;
          node = l + (Number(v >= num[node]!) | (Number(v !== v) & (c >>> RIGHT_SHIFT)));
          l = code[2 * node + 1]!;
        }
        out[i] = out[i]! + num[node]!;
      }
    }
  }
}

/**
 * One complete tree over rows start..end, four rows in lockstep (independent walks the processor overlaps).
 * The step is arithmetic, without a branch: right when v >= threshold, or when v is NaN and missing goes right
 * (for any non-NaN v that is exactly "not v < threshold", the rule of `leafIndex`).
 */
function addDenseTree(p: PackedEnsemble, t: number, depth: number, x: ArrayLike<number>, start: number, end: number, cols: number, out: Float64Array): void {
  const code = p.denseCode;
  const num = p.denseNum;
  const leaves = p.leaves;
  const at = p.denseAt[t]!;
  const leafBase = p.leafAt[t]! - ((1 << depth) - 1);
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const o0 = i * cols;
    const o1 = o0 + cols;
    const o2 = o1 + cols;
    const o3 = o2 + cols;
    let n0 = 0;
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    for (let d = 0; d < depth; d++) {
      const c0 = code[at + n0]!;
      const c1 = code[at + n1]!;
      const c2 = code[at + n2]!;
      const c3 = code[at + n3]!;
      const v0 = x[o0 + (c0 & FEATURE_MASK)]!;
      const v1 = x[o1 + (c1 & FEATURE_MASK)]!;
      const v2 = x[o2 + (c2 & FEATURE_MASK)]!;
      const v3 = x[o3 + (c3 & FEATURE_MASK)]!;
      n0 = 2 * n0 + 1 + (Number(v0 >= num[at + n0]!) | (Number(v0 !== v0) & (c0 >>> RIGHT_SHIFT)));
      n1 = 2 * n1 + 1 + (Number(v1 >= num[at + n1]!) | (Number(v1 !== v1) & (c1 >>> RIGHT_SHIFT)));
      n2 = 2 * n2 + 1 + (Number(v2 >= num[at + n2]!) | (Number(v2 !== v2) & (c2 >>> RIGHT_SHIFT)));
      n3 = 2 * n3 + 1 + (Number(v3 >= num[at + n3]!) | (Number(v3 !== v3) & (c3 >>> RIGHT_SHIFT)));
    }
    out[i] = out[i]! + leaves[leafBase + n0]!;
    out[i + 1] = out[i + 1]! + leaves[leafBase + n1]!;
    out[i + 2] = out[i + 2]! + leaves[leafBase + n2]!;
    out[i + 3] = out[i + 3]! + leaves[leafBase + n3]!;
  }
  for (; i < end; i++) {
    const o = i * cols;
    let n = 0;
    for (let d = 0; d < depth; d++) {
      const c = code[at + n]!;
      const v = x[o + (c & FEATURE_MASK)]!;
      n = 2 * n + 1 + (Number(v >= num[at + n]!) | (Number(v !== v) & (c >>> RIGHT_SHIFT)));
    }
    out[i] = out[i]! + leaves[leafBase + n]!;
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
      node = l + (Number(v >= num[node]!) | (Number(v !== v) & (c >>> RIGHT_SHIFT)));
      l = code[2 * node + 1]!;
    }
    m += num[node]!;
  }
  return m;
}
