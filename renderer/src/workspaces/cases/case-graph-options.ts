// What the causal graph draws and how (cytoscape options without the container): the layered layout's positions,
// labels right of their markers, the story's styles. Kept apart from the React component so a page can draw it alone.
import type { CytoscapeOptions, Position } from 'cytoscape';
import type { CausalEdge, Story } from '../../../../engines/core/contracts/forensic';
import { HIDE_LABEL_PX, minFitZoom, readableViewAt } from '../../components/graph-readable';
import type { ThemePalette } from '../../components/palette';
import { CASE_GRAPH_LAYOUT, layeredLayout, type LayoutBox } from './graph-layout';
import type { GraphPick } from './model';

const KIND_SHAPES: Readonly<Record<string, string>> = { host: 'round-rectangle', user: 'ellipse', session: 'ellipse', process: 'round-rectangle', file: 'rectangle', registry: 'diamond', service: 'hexagon', task: 'hexagon', endpoint: 'triangle', other: 'ellipse' };

// The readability rule and the toolbar's keys are shared with the Lineage graph (components/graph-readable.ts).
export { graphKey, HIDE_LABEL_PX, MIN_LABEL_PX, PAN_STEP, ZOOM_STEP, type GraphView } from '../../components/graph-readable';

export const GRAPH_FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
/** The labels' size in graph units: drawn at MIN_LABEL_PX or more on screen at every zoom the fit chooses (MIN_FIT_ZOOM). */
export const GRAPH_FONT_SIZE = 12;
/** The label is measured bold (the story's labels are), so a box is never narrower than what is drawn. */
export const GRAPH_LABEL_FONT = `bold ${GRAPH_FONT_SIZE}px ${GRAPH_FONT_FAMILY}`;

/** Files and registry keys by their last part (the full path is in the story and timeline), anything else cut at 28. */
export function shortLabel(kind: string, label: string): string {
  const text = kind === 'file' || kind === 'registry' ? (label.split(/[\\/]/).filter((p) => p !== '').pop() ?? label) : label;
  return text.length > 28 ? `${text.slice(0, 27)}…` : text;
}

/** The longest start of `label` that, with an ellipsis, measures at most `room` (the ellipsis alone when none does). */
export function fitLabel(label: string, room: number, measure: MeasureText): string {
  let lo = 0;
  let hi = label.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${label.slice(0, mid)}…`) <= room) lo = mid;
    else hi = mid - 1;
  }
  return `${label.slice(0, lo).trimEnd()}…`;
}

/** Width of a label in pixels: the canvas's measure in a page, an overestimate where there is no canvas. */
export type MeasureText = (text: string) => number;

export function canvasMeasure(): MeasureText {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return (text) => text.length * GRAPH_FONT_SIZE * 0.7;
  context.font = GRAPH_LABEL_FONT;
  return (text) => Math.ceil(context.measureText(text).width) + 2;
}

/** The story's edges by cause and relation: a fan-out is one group, labelled once. */
export function storyEdgeGroups(pick: GraphPick, story: Story | null): CausalEdge[][] {
  if (!story) return [];
  const inStory = new Set(story.edgeIds);
  const groups = new Map<string, CausalEdge[]>();
  for (const e of pick.edges) {
    if (!inStory.has(e.id)) continue;
    const key = `${e.from}\u0000${e.relation}`;
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  return [...groups.values()];
}

/** "encrypted", or with the count for a fan-out: "encrypted ×31". */
export function edgeText(group: readonly CausalEdge[]): string {
  const relation = group[0]?.relation ?? '';
  return group.length > 1 ? `${relation} ×${group.length}` : relation;
}

/**
 * The relation written on the story's edges: once per cause and relation, on the middle edge of a fan-out (by where
 * its effects are drawn) with the count, so thirty edges leaving one process carry one label instead of thirty.
 */
export function middleLabels(groups: readonly (readonly CausalEdge[])[], boxes: ReadonlyMap<string, { readonly y: number }>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const group of groups) {
    const sorted = [...group].sort((a, b) => (boxes.get(a.to)?.y ?? 0) - (boxes.get(b.to)?.y ?? 0));
    const middle = sorted[Math.floor((sorted.length - 1) / 2)];
    if (middle) labels.set(middle.id, edgeText(group));
  }
  return labels;
}

export interface EdgeLabelPlace {
  /** The label, written at `offset` pixels from the effect's centre along the edge; '' when none is written. */
  readonly text: string;
  readonly offset: number;
  /** The box the label takes. */
  readonly box: { readonly left: number; readonly top: number; readonly right: number; readonly bottom: number };
}

/** Where along the free stretch of an edge its label may go, best first. */
const EDGE_LABEL_SPOTS = [0.5, 0.3, 0.7, 0.15, 0.85];
export const EDGE_LABEL_HEIGHT = 12;

const overlaps = (a: EdgeLabelPlace['box'], b: EdgeLabelPlace['box']): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Where each labelled edge's label goes: on the stretch between the end of the cause's label and the effect's marker
 * (an edge leaves to the right, under its cause's own label; the whole edge between the markers when the effect is not
 * to its right), at the first spot whose box meets no node's box and no label placed before; an edge whose label fits
 * nowhere is drawn without it (the story's detail lists every link). `markerHalf` is half the side of a story node's
 * marker (the effects of labelled edges are the story's).
 */
export function placeEdgeLabels(
  edges: readonly { readonly id: string; readonly from: string; readonly to: string }[],
  texts: ReadonlyMap<string, string>,
  boxes: ReadonlyMap<string, LayoutBox>,
  measure: MeasureText,
  markerHalf = CASE_GRAPH_LAYOUT.marker / 2,
): Map<string, EdgeLabelPlace> {
  const placed = new Map<string, EdgeLabelPlace>();
  const nodeBoxes = [...boxes.values()];
  for (const e of edges) {
    const text = texts.get(e.id);
    const from = boxes.get(e.from);
    const to = boxes.get(e.to);
    if (text === undefined || !from || !to) continue;
    const w = measure(text) + 2;
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const length = Math.hypot(dx, dy);
    if (length === 0) continue;
    // The free stretch, as fractions of the edge from the cause's centre.
    const [start, end] = dx > 0 && to.left > from.right ? [(from.right - from.x) / dx, (to.left - from.x) / dx] : [0.15, 0.85];
    for (const spot of EDGE_LABEL_SPOTS) {
      const t = start + (end - start) * spot;
      const cx = from.x + dx * t;
      const cy = from.y + dy * t;
      const box = { left: cx - w / 2, top: cy - EDGE_LABEL_HEIGHT / 2, right: cx + w / 2, bottom: cy + EDGE_LABEL_HEIGHT / 2 };
      if (nodeBoxes.some((b) => overlaps(b, box))) continue;
      if ([...placed.values()].some((p) => overlaps(p.box, box))) continue;
      // Cytoscape counts the offset from where the edge meets the effect's marker, not from its centre: a square of
      // half side h is left h / max(|cos|, |sin|) from the centre (the edge's angle), which is taken off here.
      const border = markerHalf / Math.max(Math.abs(dx), Math.abs(dy), 1e-9) * length;
      placed.set(e.id, { text, offset: Math.max(0, Math.round(length * (1 - t) - border)), box });
      break;
    }
  }
  return placed;
}

/** The elements, preset positions and styles of the causal graph. */
export function caseGraphOptions(pick: GraphPick, story: Story | null, c: ThemePalette, measure: MeasureText): CytoscapeOptions {
  const labels = new Map(pick.nodes.map((n) => [n.id, shortLabel(n.kind, n.label)]));
  const widths = new Map(pick.nodes.map((n) => [n.id, measure(labels.get(n.id) ?? '')]));
  const groups = storyEdgeGroups(pick, story);
  const groupLabel = new Map<string, string>();
  for (const group of groups) for (const e of group) groupLabel.set(e.id, edgeText(group));
  const boxes = layeredLayout(
    pick.nodes.map((n) => ({ id: n.id, labelWidth: widths.get(n.id) ?? 0 })),
    pick.edges.map((e) => {
      const text = groupLabel.get(e.id);
      return text === undefined ? e : { from: e.from, to: e.to, labelWidth: measure(text) };
    }),
    CASE_GRAPH_LAYOUT,
    new Set(story ? [story.rootNodeId, ...story.nodeIds] : []),
  );
  const { marker, labelGap } = CASE_GRAPH_LAYOUT;
  // The story's classes are set as the elements are made (a label drawn once and made bold later keeps its first,
  // narrower size in cytoscape's label cache, and is cut).
  const storyNodes = new Set(story ? [story.rootNodeId, ...story.nodeIds] : []);
  const storyEdges = new Set(story?.edgeIds ?? []);
  const nodeClasses = (id: string): string => (!story ? '' : `${storyNodes.has(id) ? 'story' : 'faded'}${id === story.rootNodeId ? ' root' : ''}`);
  const edgeLabels = placeEdgeLabels(pick.edges, middleLabels(groups, boxes), boxes, measure);
  return {
    elements: [
      ...pick.nodes.map((n) => {
        const box = boxes.get(n.id);
        const position: Position = { x: box?.x ?? 0, y: box?.y ?? 0 };
        // A label with less room than its width (outside the story, in a column sized for the story's) is cut to fit.
        const label = labels.get(n.id) ?? '';
        const text = box === undefined || box.labelWidth >= (widths.get(n.id) ?? 0) ? label : fitLabel(label, box.labelWidth, measure);
        return { group: 'nodes' as const, data: { id: n.id, label: text, full: n.label, kind: n.kind, shape: KIND_SHAPES[n.kind] ?? 'ellipse' }, position, classes: nodeClasses(n.id) };
      }),
      ...pick.edges.map((e) => {
        const place = edgeLabels.get(e.id);
        return { group: 'edges' as const, data: { id: e.id, source: e.from, target: e.to, label: place?.text ?? '', offset: place?.offset ?? 0, labelled: place ? 1 : 0, width: 1 + e.confidence * 2.5 }, classes: story ? (storyEdges.has(e.id) ? 'story' : 'faded') : '' };
      }),
    ],
    layout: { name: 'preset', padding: 16, fit: true },
    minZoom: 0.1,
    maxZoom: 2.5,
    style: [
      {
        selector: 'node',
        style: {
          label: 'data(label)',
          'font-family': GRAPH_FONT_FAMILY,
          'font-size': GRAPH_FONT_SIZE,
          'min-zoomed-font-size': HIDE_LABEL_PX,
          color: c.text,
          'text-halign': 'right',
          'text-valign': 'center',
          'text-margin-x': labelGap,
          width: marker - 2,
          height: marker - 2,
          shape: 'data(shape)' as never,
          'background-color': c.muted,
          'text-background-color': c.panel,
          'text-background-opacity': 0.85,
        },
      },
      { selector: 'node[kind = "process"]', style: { 'background-color': c.accent } },
      { selector: 'node[kind = "user"], node[kind = "session"]', style: { 'background-color': c.focus } },
      { selector: 'edge', style: { width: 'data(width)' as never, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.7, 'line-color': c.border, 'target-arrow-color': c.border, opacity: 0.7 } },
      { selector: 'edge.faded', style: { opacity: 0.25 } },
      // Outside the story: the marker faded, the label whole in the muted text colour, so it reads on both themes and
      // stays plainly behind the story's bold labels (a faded node's opacity also faded its label, to about a tenth).
      { selector: 'node.faded', style: { 'background-opacity': 0.35, 'border-opacity': 0.35, color: c.muted } },
      { selector: 'node.story', style: { 'background-color': c.neg, width: marker, height: marker, 'font-weight': 'bold', opacity: 1 } },
      { selector: 'node.root', style: { 'border-width': 3, 'border-color': c.focus } },
      {
        selector: 'edge.story',
        style: { 'line-color': c.neg, 'target-arrow-color': c.neg, opacity: 1, 'z-index': 2, 'target-label': 'data(label)', 'target-text-offset': 'data(offset)' as never, 'font-family': GRAPH_FONT_FAMILY, 'font-size': GRAPH_FONT_SIZE - 1, 'min-zoomed-font-size': HIDE_LABEL_PX, color: c.text, 'text-background-color': c.panel, 'text-background-opacity': 0.9, 'text-background-padding': '1px' },
      },
      // A labelled edge is drawn over the others of its fan-out, so its label is not crossed by them.
      { selector: 'edge.story[labelled = 1]', style: { 'z-index': 3 } },
    ],
    boxSelectionEnabled: false,
    autoungrabify: true,
  };
}

/** Below this zoom the labels are too small to read (12 px at 0.83 is 10 px on screen). */
export const MIN_FIT_ZOOM = minFitZoom(GRAPH_FONT_SIZE);
export const FIT_PADDING = 24;

/** The fitted story at the readable floor instead, from its start, when the fit needed a smaller zoom (the shared rule). */
export function readableView(fitZoom: number, b: { readonly x1: number; readonly y1: number; readonly y2: number }, height: number): { zoom: number; pan: Position } | null {
  return readableViewAt(fitZoom, b, height, MIN_FIT_ZOOM, FIT_PADDING);
}
