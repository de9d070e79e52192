// Graph metrics on small hand-checked graphs: depth, blast radius, dominators (single points of failure), cycles and unreachable nodes.
import { describe, expect, it } from 'vitest';
import { graphMetrics } from './graph.js';

describe('graph metrics', () => {
  it('finds depth, dependents and the node whose removal cuts most of the tree', () => {
    // root -> a, root -> b; a -> c; b -> c; c -> d; d -> e; d -> f
    const m = graphMetrics({ ids: ['root', 'a', 'b', 'c', 'd', 'e', 'f'], edges: [[0, 1], [0, 2], [1, 3], [2, 3], [3, 4], [4, 5], [4, 6]] });
    expect([...m.depth]).toEqual([0, 1, 1, 2, 3, 4, 4]);
    expect(m.maxDepth).toBe(4);
    expect([...m.blastRadius]).toEqual([0, 0, 0, 2, 3, 4, 4]);
    // c dominates d, e, f; d dominates e, f; a and b dominate nothing (c has two parents)
    expect([...m.dominates]).toEqual([0, 0, 0, 3, 2, 0, 0]);
  });

  it('survives cycles and nodes the root does not reach', () => {
    const m = graphMetrics({ ids: ['root', 'a', 'b', 'x'], edges: [[0, 1], [1, 2], [2, 1], [3, 1]] });
    expect([...m.depth]).toEqual([0, 1, 2, -1]);
    expect(m.blastRadius[1]).toBe(2);
    expect(m.dominates[1]).toBe(1);
  });

  it('handles a long chain without recursion', () => {
    const n = 3000;
    const edges: [number, number][] = [];
    for (let i = 0; i < n - 1; i++) edges.push([i, i + 1]);
    const m = graphMetrics({ ids: Array.from({ length: n }, (_, i) => String(i)), edges });
    expect(m.maxDepth).toBe(n - 1);
    expect(m.dominates[1]).toBe(n - 2);
  });
});
