// The Lineage workspace's pure pieces on the cve-origin run (testdata: `provgate synth cve-origin` then `export --format json` and `gate --comment`, demo key).
import { describe, expect, it } from 'vitest';
import { MIN_LABEL_PX } from '../../components/graph-readable';
import type { GraphEdge, GraphNode, RunGraph } from '../../../../engines/core/contracts/provgate';
import {
  attrRows,
  COLUMN,
  commentLines,
  decodeNumericRefs,
  downstream,
  drawnSubgraph,
  findingSeverity,
  inlineParts,
  layeredLayout,
  LINEAGE_FONT_SIZE,
  LINEAGE_MIN_FIT_ZOOM,
  layeredPositions,
  MAX_ROWS,
  layerRows,
  orderedReasons,
  parseEnvelopeFile,
  rejectionReason,
  pathEdgeKeys,
  pathHighlight,
  shortLabel,
  X_GAP,
  Y_GAP,
} from './model';
import graphJson from './testdata/cve-origin.graph.json';
import comment from './testdata/cve-origin.comment.md?raw';

const graph = graphJson as RunGraph;
const byLabel = (kind: string, label: string): GraphNode => {
  const n = graph.nodes.find((x) => x.kind === kind && x.label === label);
  if (!n) throw new Error(`${kind}:${label} missing from the fixture`);
  return n;
};

/** Pairs of edges between the same two columns that cross. */
function crossings(pos: Map<string, { x: number; y: number }>, edges: readonly GraphEdge[]): number {
  let n = 0;
  const segs = edges.map((e) => ({ a: pos.get(e.from), b: pos.get(e.to) })).filter((s): s is { a: { x: number; y: number }; b: { x: number; y: number } } => !!s.a && !!s.b);
  for (let i = 0; i < segs.length; i++)
    for (let j = i + 1; j < segs.length; j++) {
      const s = segs[i];
      const t = segs[j];
      if (!s || !t || s.a.x !== t.a.x || s.b.x !== t.b.x) continue;
      if ((s.a.y - t.a.y) * (s.b.y - t.b.y) < 0) n++;
    }
  return n;
}

describe('layered layout', () => {
  it('puts every kind in its column, left to right from commit to container, one row apart', () => {
    const pos = layeredPositions(graph.nodes, graph.edges);
    expect(pos.size).toBe(graph.nodes.length);
    for (const n of graph.nodes) expect(pos.get(n.id)?.x).toBe(COLUMN[n.kind] * X_GAP);
    for (const e of graph.edges) expect(pos.get(e.from)?.x ?? 0).toBeLessThan(pos.get(e.to)?.x ?? 0);
    const ys = new Map<number, number[]>();
    for (const p of pos.values()) ys.set(p.x, [...(ys.get(p.x) ?? []), p.y]);
    for (const col of ys.values()) {
      const sorted = [...col].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect((sorted[i] ?? 0) - (sorted[i - 1] ?? 0)).toBe(Y_GAP);
    }
  });

  it('orders each column by its neighbours: image, service and container of one deployment share a row', () => {
    const pos = layeredPositions(graph.nodes, graph.edges);
    for (const svc of ['api', 'web', 'worker']) {
      expect(pos.get(byLabel('service', svc).id)?.y).toBe(pos.get(byLabel('container', `${svc}-7d9f-0`).id)?.y);
      expect(pos.get(byLabel('service', svc).id)?.y).toBe(pos.get(byLabel('image', `ghcr.io/demo/${svc}`).id)?.y);
    }
    // Downstream of the images the drawing has no crossing at all.
    const right = graph.edges.filter((e) => e.rel === 'deployed_as' || e.rel === 'runs');
    expect(crossings(pos, right)).toBe(0);
  });

  it('wraps a tall column into sub-columns in its band, keeping every edge left to right', () => {
    const node = (kind: GraphNode['kind'], label: string): GraphNode => ({ id: `${kind}:${label}`, kind, label, attrs: {} });
    const deps = Array.from({ length: 100 }, (_, i) => node('dependency', `p${String(i).padStart(3, '0')}`));
    const nodes = [node('commit', 'c'), ...deps, node('layer', 'l'), node('image', 'i')];
    const edges: GraphEdge[] = [
      ...deps.map((d) => ({ from: 'commit:c', to: d.id, rel: 'introduced' as const })),
      ...deps.map((d) => ({ from: d.id, to: 'layer:l', rel: 'installed_in' as const })),
      { from: 'layer:l', to: 'image:i', rel: 'layer_of' },
    ];
    const layout = layeredLayout(nodes, edges);
    expect(layout.columns[1]?.wraps).toBe(Math.ceil(100 / MAX_ROWS));
    expect(layout.rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(new Set(deps.map((d) => `${layout.positions.get(d.id)?.x},${layout.positions.get(d.id)?.y}`)).size).toBe(100);
    for (const e of edges) expect(layout.positions.get(e.from)?.x ?? 0).toBeLessThan(layout.positions.get(e.to)?.x ?? 0);
    // Unwrapped columns sit where they would without wrapping, shifted right by the extra sub-columns.
    expect(layeredLayout(graph.nodes, graph.edges).columns.map((c) => c.wraps)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('is deterministic whatever order the nodes come in', () => {
    const a = layeredPositions(graph.nodes, graph.edges);
    const b = layeredPositions([...graph.nodes].reverse(), [...graph.edges].reverse());
    expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
  });
});

describe('what is drawn of a large graph', () => {
  it('draws everything under the cap', () => {
    expect(drawnSubgraph(graph).omitted).toBe(0);
  });

  it('keeps each reason path with what lies downstream of it, connected, and only edges between kept nodes', () => {
    const d = drawnSubgraph(graph, 12);
    expect(d.nodes).toHaveLength(12);
    expect(d.omitted).toBe(graph.nodes.length - 12);
    const ids = new Set(d.nodes.map((n) => n.id));
    for (const id of graph.decision.reasons[0]?.pathIds ?? []) expect(ids.has(id)).toBe(true);
    for (const f of graph.findings) expect(ids.has(f.nodeId)).toBe(true);
    // commit, pyyaml, its 3 layers, 3 images, 3 services, then the first container: breadth first.
    const kinds = d.nodes.map((n) => n.kind).sort();
    expect(kinds).toEqual(['commit', 'container', 'dependency', 'image', 'image', 'image', 'layer', 'layer', 'layer', 'service', 'service', 'service']);
    for (const e of d.edges) expect(ids.has(e.from) && ids.has(e.to)).toBe(true);
    // Every drawn node but the commit is reached by a drawn edge: no islands.
    const reached = new Set(d.edges.map((e) => e.to));
    for (const n of d.nodes) if (n.kind !== 'commit') expect(reached.has(n.id), n.label).toBe(true);
  });
});

describe('highlights', () => {
  it('a reason path: the edges between consecutive nodes, and everything downstream of the dependency', () => {
    const reason = graph.decision.reasons[0];
    if (!reason) throw new Error('the fixture has a reason');
    expect(reason.path).toEqual(['commit:a1b2c3d4e5f6', 'dependency:pyyaml@5.3']);
    expect([...pathEdgeKeys(reason.pathIds)]).toEqual([`${reason.pathIds[0]}>${reason.pathIds[1]}`]);
    const h = pathHighlight(reason.pathIds, graph.edges);
    if (h.kind !== 'path') throw new Error('a path');
    const kinds = [...h.downstream].map((id) => graph.nodes.find((n) => n.id === id)?.kind);
    expect(kinds.filter((k) => k === 'service')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'container')).toHaveLength(3);
    expect(h.downstream.has(reason.pathIds[0] ?? '')).toBe(false);
  });

  it('downstream of the shared base layer is every image, service and container (9 nodes)', () => {
    const base = layerRows(graph)[0];
    expect(base?.images).toBe(3);
    expect(downstream([base?.id ?? ''], graph.edges).size).toBe(9);
  });

  it('the strictest severity per node', () => {
    const sev = findingSeverity([...graph.findings, { ...(graph.findings[0] as RunGraph['findings'][number]), id: 'x', severity: 'low' }]);
    expect([...sev.values()]).toEqual(['critical']);
  });
});

describe('texts', () => {
  it('reasons: blocking first, otherwise in the service order', () => {
    const d = {
      verdict: 'block' as const,
      reasons: [
        { rule: 'a', verdict: 'warn' as const, message: '', path: [], pathIds: [] },
        { rule: 'b', verdict: 'block' as const, message: '', path: [], pathIds: [] },
        { rule: 'c', verdict: 'pass' as const, message: '', path: [], pathIds: [] },
        { rule: 'd', verdict: 'block' as const, message: '', path: [], pathIds: [] },
      ],
    };
    expect(orderedReasons(d).map((r) => r.rule)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('labels: digests cut to 12 hex digits, long names cut', () => {
    expect(shortLabel({ id: 'layer:x', kind: 'layer', label: `sha256:${'a'.repeat(64)}`, attrs: {} })).toBe(`sha256:${'a'.repeat(12)}`);
    expect(shortLabel({ id: 'image:x', kind: 'image', label: 'x'.repeat(50), attrs: {} })).toHaveLength(34);
    expect(shortLabel(byLabel('commit', 'a1b2c3d4e5f6'))).toBe('a1b2c3d4e5f6 #42');
    expect(attrRows({ id: 'n', kind: 'commit', label: 'c', attrs: { sha: 'abc', pr: 42, removed: [], nested: { a: 1 }, nothing: null } })).toEqual([
      { key: 'sha', value: 'abc' },
      { key: 'pr', value: '42' },
      { key: 'removed', value: '' },
      { key: 'nested', value: '1 field' },
    ]);
  });

  it('the PR comment as lines: heading, counts, the reason in bold and code, its path and evidence indented', () => {
    const lines = commentLines(comment);
    expect(lines[0]).toEqual({ kind: 'heading', text: 'Provenance gate: BLOCK' });
    expect(lines[1]).toEqual({ kind: 'text', parts: [{ kind: 'text', text: '0 pass · 0 warn · 1 block' }] });
    const item = lines[2];
    expect(item?.kind).toBe('item');
    if (item?.kind !== 'item') return;
    expect(item.depth).toBe(0);
    expect(item.parts.slice(0, 3)).toEqual([
      { kind: 'strong', text: 'BLOCK' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'vulnerable_dependency' },
    ]);
    expect(lines.filter((l) => l.kind === 'item' && l.depth === 1)).toHaveLength(3);
  });

  it('event text that prComment escaped (numeric references) reads as the characters, still as text', () => {
    expect(decodeNumericRefs('a &#42;b&#42; &#60;img&#62; &#64;x &#0; &#99999999;')).toBe('a *b* <img> @x &#0; &#99999999;');
    expect(inlineParts('**BLOCK** `r`: &#96;x&#96;')).toEqual([
      { kind: 'strong', text: 'BLOCK' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'r' },
      { kind: 'text', text: ': `x`' },
    ]);
  });

  it('an envelope file: a non-empty JSON list, else a reason that never quotes the file', () => {
    expect(parseEnvelopeFile('[{"a":1}]')).toEqual({ ok: true, value: [{ a: 1 }] });
    for (const bad of ['SECRET not json', '{"SECRET":1}', '[]', '']) {
      const r = parseEnvelopeFile(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).not.toContain('SECRET');
    }
  });
});

describe('rejectionReason', () => {
  it('leaves out the envelope index the list already shows', () => {
    expect(rejectionReason(0, 'envelope[0]: signed by a revoked key (analyst)')).toBe('signed by a revoked key (analyst)');
    expect(rejectionReason(1, 'envelope[0]: other')).toBe('envelope[0]: other');
    expect(rejectionReason(2, 'bad signature')).toBe('bad signature');
  });
});

describe('the graph\'s readable labels', () => {
  it('fits labels at 10 px or more on screen, the Cases graph\'s rule (was 11 px labels fitted at any zoom: 6 to 8 px)', () => {
    expect(LINEAGE_FONT_SIZE).toBeGreaterThanOrEqual(12);
    expect(LINEAGE_FONT_SIZE * LINEAGE_MIN_FIT_ZOOM).toBeGreaterThanOrEqual(MIN_LABEL_PX - 1e-9);
  });
});
