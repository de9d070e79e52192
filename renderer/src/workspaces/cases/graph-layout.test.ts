import { describe, expect, it } from 'vitest';
import { CASE_GRAPH_LAYOUT, layeredLayout, spaced, type LayoutBox, type LayoutEdge, type LayoutNode } from './graph-layout';

/** A small deterministic generator (the layout's cases must be the same on every run). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomGraph(seed: number, n: number, m: number): { nodes: LayoutNode[]; edges: LayoutEdge[] } {
  const r = lcg(seed);
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, labelWidth: 10 + Math.floor(r() * 140) }));
  const edges = Array.from({ length: m }, () => ({ from: `n${Math.floor(r() * n)}`, to: `n${Math.floor(r() * n)}`, labelWidth: Math.floor(r() * 60) }));
  return { nodes, edges };
}

/** The ransomware shape: a chain from a root, one process writing thirty files, a session starting forty processes. */
function fanOut(): { nodes: LayoutNode[]; edges: LayoutEdge[] } {
  const nodes: LayoutNode[] = [
    { id: 'explorer', labelWidth: 60 },
    { id: 'word', labelWidth: 70 },
    { id: 'ps', labelWidth: 80 },
    { id: 'svc', labelWidth: 60 },
    { id: 'session', labelWidth: 150 },
  ];
  const edges: LayoutEdge[] = [
    { from: 'explorer', to: 'word' },
    { from: 'word', to: 'ps' },
    { from: 'ps', to: 'svc' },
    { from: 'session', to: 'explorer' },
  ];
  for (let i = 0; i < 30; i++) {
    nodes.push({ id: `file${i}`, labelWidth: 120 });
    edges.push({ from: 'svc', to: `file${i}`, labelWidth: 70 });
  }
  for (let i = 0; i < 40; i++) {
    nodes.push({ id: `proc${i}`, labelWidth: 50 + i });
    edges.push({ from: 'session', to: `proc${i}` });
  }
  nodes.push({ id: 'alone', labelWidth: 40 });
  return { nodes, edges };
}

const overlap = (a: LayoutBox, b: LayoutBox): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

function collisions(boxes: Map<string, LayoutBox>): string[] {
  const list = [...boxes.entries()].sort((a, b) => a[1].left - b[1].left);
  const found: string[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length && list[j]![1].left < list[i]![1].right; j++) if (overlap(list[i]![1], list[j]![1])) found.push(`${list[i]![0]} × ${list[j]![0]}`);
  return found;
}

describe('layeredLayout', () => {
  it('places every node, and no two boxes (marker and label) meet, on the fan-out and on random graphs with cycles', () => {
    const cases = [fanOut(), randomGraph(1, 60, 90), randomGraph(2, 200, 260), randomGraph(3, 400, 700), randomGraph(4, 30, 5)];
    for (const { nodes, edges } of cases) {
      for (const first of [new Set<string>(), new Set(nodes.slice(0, 12).map((n) => n.id))]) {
        const boxes = layeredLayout(nodes, edges, CASE_GRAPH_LAYOUT, first);
        expect(boxes.size).toBe(nodes.length);
        expect(collisions(boxes)).toEqual([]);
        for (const n of nodes) {
          const b = boxes.get(n.id)!;
          expect(Number.isFinite(b.x) && Number.isFinite(b.y)).toBe(true);
          expect(b.labelWidth).toBeLessThanOrEqual(n.labelWidth);
          // A node's label has its whole width when it leads or when no node leads.
          if (first.size === 0 || first.has(n.id)) expect(b.labelWidth).toBe(n.labelWidth);
        }
      }
    }
  });

  it('puts every cause left of its effect when the graph has no cycle, with room for the edge labels between columns', () => {
    const { nodes, edges } = fanOut();
    const boxes = layeredLayout(nodes, edges);
    for (const e of edges) {
      const from = boxes.get(e.from)!;
      const to = boxes.get(e.to)!;
      expect(to.x).toBeGreaterThan(from.x);
      if (e.labelWidth !== undefined) expect(to.left - from.right).toBeGreaterThanOrEqual(e.labelWidth);
    }
    // The thirty files are one column, one row each.
    const files = nodes.filter((n) => n.id.startsWith('file')).map((n) => boxes.get(n.id)!);
    expect(new Set(files.map((b) => b.x)).size).toBe(1);
    const ys = files.map((b) => b.y).sort((a, b) => a - b);
    for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(CASE_GRAPH_LAYOUT.marker);
  });

  it('reads an edge that closes a cycle backwards rather than failing', () => {
    const nodes = ['a', 'b', 'c'].map((id) => ({ id, labelWidth: 20 }));
    const boxes = layeredLayout(nodes, [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'a', to: 'a' },
      { from: 'a', to: 'missing' },
    ]);
    expect(boxes.get('a')!.x).toBeLessThan(boxes.get('b')!.x);
    expect(boxes.get('b')!.x).toBeLessThan(boxes.get('c')!.x);
  });

  it("leads each column with the story's nodes and keeps them together; the others' labels are cut to the column", () => {
    const { nodes, edges } = fanOut();
    const story = new Set(['session', 'explorer', 'word', 'ps', 'svc', 'file0', 'file1']);
    const boxes = layeredLayout(nodes, edges, CASE_GRAPH_LAYOUT, story);
    const byColumn = new Map<number, { id: string; y: number }[]>();
    for (const [id, b] of boxes) byColumn.set(b.x, [...(byColumn.get(b.x) ?? []), { id, y: b.y }]);
    for (const column of byColumn.values()) {
      const lastLead = Math.max(-Infinity, ...column.filter((c) => story.has(c.id)).map((c) => c.y));
      const firstOther = Math.min(Infinity, ...column.filter((c) => !story.has(c.id)).map((c) => c.y));
      expect(lastLead).toBeLessThan(firstOther);
    }
    // proc39 (89 px) shares explorer's column (60 px): cut to the wider of the column's room and the context width.
    expect(boxes.get('proc39')!.labelWidth).toBeLessThan(89);
  });

  it('is empty for an empty graph', () => {
    expect(layeredLayout([], []).size).toBe(0);
  });
});

describe('spaced', () => {
  it('keeps the order with at least the gap between neighbours, as close to the wanted heights as it can', () => {
    expect(spaced([0, 50, 100], 10)).toEqual([0, 50, 100]);
    expect(spaced([10, 10, 10], 10)).toEqual([0, 10, 20]);
    expect(spaced([30, 0], 10)).toEqual([10, 20]);
    const r = lcg(7);
    const wanted = Array.from({ length: 50 }, () => r() * 300);
    const got = spaced(wanted, 18);
    for (let i = 1; i < got.length; i++) expect(got[i]! - got[i - 1]!).toBeGreaterThanOrEqual(18 - 1e-9);
  });
});
