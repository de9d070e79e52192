import { describe, expect, it } from 'vitest';
import type { CausalEdge, GraphNode, Story } from '../../../../engines/core/contracts/forensic';
import type { ThemePalette } from '../../components/palette';
import { caseGraphOptions, edgeText, fitLabel, GRAPH_FONT_SIZE, graphKey, HIDE_LABEL_PX, MIN_FIT_ZOOM, MIN_LABEL_PX, PAN_STEP, placeEdgeLabels, readableView, storyEdgeGroups, ZOOM_STEP } from './case-graph-options';
import { layeredLayout } from './graph-layout';
import type { GraphPick } from './model';

const measure = (text: string): number => text.length * 7;
const palette: ThemePalette = { text: '#000', muted: '#666', panel: '#fff', accent: '#00f', neg: '#f00', warn: '#fa0', pos: '#0a0', focus: '#08f', border: '#999' };

function node(id: string, kind: GraphNode['kind'], label: string): GraphNode {
  return { id, kind, label, host: 'WS', attributes: {}, eventIds: [], sources: [] } as unknown as GraphNode;
}
function edge(id: string, from: string, to: string, relation: string): CausalEdge {
  return { id, from, to, relation, confidence: 0.8 } as unknown as CausalEdge;
}

/** A process that encrypts twelve files and starts one tool, and a bystander. */
function pick(): { pick: GraphPick; story: Story } {
  const nodes = [node('p', 'process', 'svchst.exe'), node('t', 'process', 'vssadmin.exe'), node('x', 'process', 'notepad.exe')];
  const edges = [edge('e-t', 'p', 't', 'spawned'), edge('e-x', 'x', 'p', 'spawned')];
  for (let i = 0; i < 12; i++) {
    nodes.push(node(`f${i}`, 'file', `C:\\Users\\a\\q${i}-ledger.xlsx.locked`));
    edges.push(edge(`e${i}`, 'p', `f${i}`, 'encrypted'));
  }
  const story = { id: 'S1', rootNodeId: 'p', nodeIds: nodes.filter((n) => n.id !== 'x').map((n) => n.id), edgeIds: edges.filter((e) => e.id !== 'e-x').map((e) => e.id) } as unknown as Story;
  return { pick: { nodes, edges, omitted: 0 }, story };
}

describe('the causal graph options', () => {
  it("labels a fan-out once with its count, each other story edge with its relation, and no edge outside the story", () => {
    const { pick: p, story } = pick();
    const groups = storyEdgeGroups(p, story);
    expect(groups.map(edgeText).sort()).toEqual(['encrypted ×12', 'spawned']);
    expect(storyEdgeGroups(p, null)).toEqual([]);
    const options = caseGraphOptions(p, story, palette, measure);
    const elements = options.elements as { group: string; data: { id: string; label: string; room?: number }; position?: { x: number; y: number } }[];
    const edgeLabels = elements.filter((e) => e.group === 'edges' && e.data.label !== '').map((e) => e.data.label);
    expect(edgeLabels.sort()).toEqual(['encrypted ×12', 'spawned']);
    // Files by their last part; every node placed by the layout (preset), none at the origin twice.
    const files = elements.filter((e) => e.group === 'nodes' && e.data.id.startsWith('f'));
    expect(files[0]!.data.label).toBe('q0-ledger.xlsx.locked');
    expect(new Set(elements.filter((e) => e.group === 'nodes').map((e) => `${e.position!.x},${e.position!.y}`)).size).toBe(p.nodes.length);
    expect((options.layout as { name: string }).name).toBe('preset');
  });

  it('places edge labels clear of every node box and of each other, and leaves out one that fits nowhere', () => {
    const { pick: p, story } = pick();
    const texts = new Map(storyEdgeGroups(p, story).map((g) => [g[Math.floor((g.length - 1) / 2)]!.id, edgeText(g)]));
    const boxes = layeredLayout(
      p.nodes.map((n) => ({ id: n.id, labelWidth: measure(n.label) })),
      p.edges.map((e) => ({ ...e, labelWidth: measure(texts.get(e.id) ?? '') })),
    );
    const placed = placeEdgeLabels(p.edges, texts, boxes, measure);
    const all = [...placed.values()];
    expect(all.length).toBe(2);
    for (const label of all) {
      for (const b of boxes.values()) expect(label.box.left < b.right && b.left < label.box.right && label.box.top < b.bottom && b.top < label.box.bottom).toBe(false);
      expect(label.offset).toBeGreaterThan(0);
    }
    // Columns with no room between them (a gap narrower than any label): nothing is placed.
    const tight = new Map([...boxes].map(([id, b]) => [id, { ...b, x: 0, left: -7, right: 200 }]));
    expect(placeEdgeLabels(p.edges, texts, tight, measure).size).toBe(0);
  });

  it('draws a node outside the story with a faded marker but its label whole, in the muted text colour', () => {
    const { pick: p, story } = pick();
    const o = caseGraphOptions(p, story, palette, measure);
    const styles = o.style as unknown as { selector: string; style: Record<string, unknown> }[];
    const x = (o.elements as { data: { id: string }; classes?: string }[]).find((e) => e.data.id === 'x');
    expect(x?.classes).toBe('faded');
    const faded = styles.filter((s) => s.selector.split(/,\s*/).some((sel) => /(^|\s|node)\.faded$/.test(sel) && !sel.startsWith('edge')));
    expect(faded.map((s) => s.selector)).toEqual(['node.faded']);
    // Nothing fades the label itself: the node keeps full opacity, the text its own; only the marker is faded.
    for (const s of faded) {
      expect(s.style['opacity'] ?? 1).toBe(1);
      expect(s.style['text-opacity'] ?? 1).toBe(1);
    }
    expect(faded[0]!.style).toMatchObject({ color: palette.muted, 'background-opacity': 0.35 });
  });

  it('cuts a label to its room with an ellipsis', () => {
    expect(measure(fitLabel('powershell.exe', 50, measure))).toBeLessThanOrEqual(50);
    expect(fitLabel('powershell.exe', 50, measure)).toBe('powers…');
    expect(fitLabel('powershell.exe', 1, measure)).toBe('…');
  });

  it('keeps a readable zoom from the start of a story too wide for the panel', () => {
    expect(readableView(0.9, { x1: 0, y1: 0, y2: 100 }, 500)).toBeNull();
    const wide = readableView(0.3, { x1: 100, y1: 0, y2: 200 }, 500)!;
    expect(wide.zoom).toBe(MIN_FIT_ZOOM);
    expect(wide.pan.x).toBeCloseTo(24 - 100 * MIN_FIT_ZOOM);
    // Centred when it fits in height, its top shown when it does not.
    expect(wide.pan.y).toBeCloseTo(250 - 100 * MIN_FIT_ZOOM);
    expect(readableView(0.3, { x1: 0, y1: 50, y2: 2000 }, 500)!.pan.y).toBeCloseTo(24 - 50 * MIN_FIT_ZOOM);
  });

  it('never fits labels smaller than 10 px on screen: the readable floor times the label size', () => {
    expect(MIN_LABEL_PX).toBeGreaterThanOrEqual(10);
    expect(GRAPH_FONT_SIZE * MIN_FIT_ZOOM).toBeGreaterThanOrEqual(MIN_LABEL_PX - 1e-9);
    // Just under the floor is floored; at the floor the fit stands.
    expect(readableView(MIN_FIT_ZOOM - 0.01, { x1: 0, y1: 0, y2: 100 }, 500)?.zoom).toBe(MIN_FIT_ZOOM);
    expect(readableView(MIN_FIT_ZOOM, { x1: 0, y1: 0, y2: 100 }, 500)).toBeNull();
    expect(HIDE_LABEL_PX).toBeLessThan(MIN_LABEL_PX);
  });

  it('the toolbar keys: + and − zoom about the centre within the limits, arrows pan, s the story, 0 the whole graph', () => {
    const view = { zoom: 1, pan: { x: 10, y: 20 } };
    const size = { width: 800, height: 500 };
    const limits = { min: 0.1, max: 2.5 };
    const zin = graphKey('+', view, size, limits);
    expect(zin).toMatchObject({ zoom: ZOOM_STEP });
    // The point at the centre stays at the centre.
    if (zin === null || typeof zin === 'string') throw new Error('a view');
    expect((400 - zin.pan.x) / zin.zoom).toBeCloseTo((400 - 10) / 1);
    expect((250 - zin.pan.y) / zin.zoom).toBeCloseTo((250 - 20) / 1);
    expect(graphKey('-', view, size, limits)).toMatchObject({ zoom: 1 / ZOOM_STEP });
    expect(graphKey('+', { ...view, zoom: 2.4 }, size, limits)).toMatchObject({ zoom: 2.5 });
    expect(graphKey('ArrowRight', view, size, limits)).toEqual({ zoom: 1, pan: { x: 10 - PAN_STEP, y: 20 } });
    expect(graphKey('ArrowUp', view, size, limits)).toEqual({ zoom: 1, pan: { x: 10, y: 20 + PAN_STEP } });
    expect(graphKey('s', view, size, limits)).toBe('story');
    expect(graphKey('0', view, size, limits)).toBe('whole');
    expect(graphKey('f', view, size, limits)).toBe('expand');
    expect(graphKey('Enter', view, size, limits)).toBeNull();
  });

  it('hides labels below 8 px on screen and keeps each node\'s whole name for the hover', () => {
    const { pick: p, story } = pick();
    const o = caseGraphOptions(p, story, palette, measure);
    const nodeStyle = (o.style as { selector: string; style: Record<string, unknown> }[]).find((s) => s.selector === 'node')?.style;
    expect(nodeStyle?.['min-zoomed-font-size']).toBe(HIDE_LABEL_PX);
    const nodes = (o.elements as { group: string; data: { id: string; label?: string; full?: string } }[]).filter((e) => e.group === 'nodes');
    // A file is labelled by its last part; the hover has the whole path.
    expect(nodes.find((e) => e.data.id === 'f3')?.data).toMatchObject({ label: 'q3-ledger.xlsx.locked', full: 'C:\\Users\\a\\q3-ledger.xlsx.locked' });
  });
});
