// The dependency graph's metrics: depth from the root, blast radius (transitive dependents) per node, and single points of failure from the dominator tree.

export interface GraphInput {
  /** Node ids; index 0 is the root (the project). */
  readonly ids: readonly string[];
  /** Edges as [from, to] indexes (from depends on to). */
  readonly edges: readonly (readonly [number, number])[];
}

export interface GraphMetrics {
  /** Shortest distance from the root per node; -1 when unreachable. */
  readonly depth: Int32Array;
  /** Number of other nodes (root excluded) that reach this one: what a compromise of it touches. */
  readonly blastRadius: Int32Array;
  /** Number of nodes that lose every path from the root when this node is removed (its dominator subtree minus itself). */
  readonly dominates: Int32Array;
  readonly maxDepth: number;
}

function adjacency(n: number, edges: GraphInput['edges'], reverse: boolean): number[][] {
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) (out[reverse ? b : a] as number[]).push(reverse ? a : b);
  return out;
}

/** Computes every metric; iterative throughout (no recursion depth limits on deep graphs). */
export function graphMetrics(g: GraphInput): GraphMetrics {
  const n = g.ids.length;
  const succ = adjacency(n, g.edges, false);
  const pred = adjacency(n, g.edges, true);
  // depth: breadth-first from the root
  const depth = new Int32Array(n).fill(-1);
  const order: number[] = [];
  if (n > 0) {
    depth[0] = 0;
    order.push(0);
    for (let h = 0; h < order.length; h++) {
      const v = order[h] as number;
      for (const w of succ[v] as number[])
        if (depth[w] === -1) {
          depth[w] = (depth[v] as number) + 1;
          order.push(w);
        }
    }
  }
  let maxDepth = 0;
  for (const d of depth) if (d > maxDepth) maxDepth = d;
  // blast radius: reverse reachability per node, the root not counted (it is the project, not a component)
  const blastRadius = new Int32Array(n);
  const mark = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  for (let v = 1; v < n; v++) {
    let count = 0;
    mark[v] = v;
    stack.push(v);
    while (stack.length > 0) {
      const x = stack.pop() as number;
      for (const p of pred[x] as number[])
        if (mark[p] !== v) {
          mark[p] = v;
          if (p !== 0) count++;
          stack.push(p);
        }
    }
    blastRadius[v] = count;
  }
  // dominators (Cooper, Harvey and Kennedy's iterative algorithm) over reverse postorder of a DFS from the root
  const dominates = new Int32Array(n);
  if (n > 0) {
    const rpo: number[] = [];
    const seen = new Uint8Array(n);
    const iter: [number, number][] = [[0, 0]];
    seen[0] = 1;
    while (iter.length > 0) {
      const top = iter[iter.length - 1] as [number, number];
      const [v, i] = top;
      const s = succ[v] as number[];
      if (i < s.length) {
        top[1] = i + 1;
        const w = s[i] as number;
        if (!seen[w]) {
          seen[w] = 1;
          iter.push([w, 0]);
        }
      } else {
        rpo.push(v);
        iter.pop();
      }
    }
    rpo.reverse();
    const po = new Int32Array(n).fill(-1);
    rpo.forEach((v, i) => (po[v] = i));
    const idom = new Int32Array(n).fill(-1);
    idom[0] = 0;
    const intersect = (a0: number, b0: number): number => {
      let a = a0;
      let b = b0;
      while (a !== b) {
        while ((po[a] as number) > (po[b] as number)) a = idom[a] as number;
        while ((po[b] as number) > (po[a] as number)) b = idom[b] as number;
      }
      return a;
    };
    let changed = true;
    while (changed) {
      changed = false;
      for (let k = 1; k < rpo.length; k++) {
        const v = rpo[k] as number;
        let nd = -1;
        for (const p of pred[v] as number[]) {
          if (idom[p] === -1 || po[p] === -1) continue;
          nd = nd === -1 ? p : intersect(p, nd);
        }
        if (nd !== -1 && idom[v] !== nd) {
          idom[v] = nd;
          changed = true;
        }
      }
    }
    // subtree sizes of the dominator tree, children before parents (reverse of reverse postorder)
    const size = new Int32Array(n);
    for (let k = rpo.length - 1; k >= 1; k--) {
      const v = rpo[k] as number;
      size[v] = (size[v] as number) + 1;
      const d = idom[v] as number;
      if (d >= 0 && d !== v) size[d] = (size[d] as number) + (size[v] as number);
    }
    for (let v = 1; v < n; v++) dominates[v] = Math.max(0, (size[v] as number) - 1);
  }
  return { depth, blastRadius, dominates, maxDepth };
}
