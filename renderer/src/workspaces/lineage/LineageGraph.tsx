// The run's provenance graph in cytoscape: laid out once per run in columns from commit to container; highlights (a reason's path, a layer's blast radius) only change classes.
// First shown whole, fitted to its box (again when the box is resized, until the user pans or zooms); *s* shows it readable
// by the Cases graph's rule (components/graph-readable.ts): labels at 10 px; under 8 px they are hidden, the whole name on
// hover. The same toolbar keys (+, −, arrows, s the highlight, 0 the whole graph).
import { counted } from '../../components/wording';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Core, NodeSingular } from 'cytoscape';
import type { RunGraph } from '../../../../engines/core/contracts/provgate';
import { useCytoscapeGraph } from '../../components/cytoscape';
import { centredViewAt, HIDE_LABEL_PX, readableViewAt } from '../../components/graph-readable';
import { applyGraphKey, GraphNodeName, GraphZoomBar, useGraphReadout } from '../../components/GraphZoomBar';
import { themePalette } from '../../components/palette';
import { useFitUntilMoved } from '../../components/useFitUntilMoved';
import { COLUMN_TITLES, drawnSubgraph, LINEAGE_FONT_SIZE, LINEAGE_MIN_FIT_ZOOM, findingSeverity, layeredLayout, pathEdgeKeys, shortLabel, ZOOM_TO_HIGHLIGHT, type Highlight } from './model';

const FIT_PADDING = 28;
const HIGHLIGHTED = '.on-path, .reached, .origin';

/** A node's kind and whole name (its label may be cut at 34 characters or at 190 px), for the hover; none for column titles. */
const nodeName = (n: NodeSingular): string => (n.hasClass('column-title') ? '' : `${String(n.data('kind'))}: ${String(n.data('full'))}`);

/**
 * The graph shown readable: the whole graph fitted when its labels are 10 px or more so; otherwise at the floor (10 px),
 * centred on the highlight (a reason's path, a blast radius) or the graph, from its left where it is wider than the panel.
 * Not zoomed in past the floor, and moved no further than the graph's edges: the rest stays as much in view as it can. Returns whether part is out of view.
 */
export function showReadable(cy: Core): boolean {
  cy.fit(cy.elements(), FIT_PADDING);
  if (cy.zoom() >= LINEAGE_MIN_FIT_ZOOM) return false;
  const marked = cy.nodes(HIGHLIGHTED);
  const shown = marked.empty() ? cy.elements() : marked;
  cy.viewport(centredViewAt(shown.boundingBox(), { width: cy.width(), height: cy.height() }, LINEAGE_MIN_FIT_ZOOM, FIT_PADDING, cy.elements().boundingBox()));
  return true;
}

/** The first view: the whole graph fitted to its box (labels under 8 px on screen are not drawn; *s* shows it readable). */
export function showFitted(cy: Core): void {
  cy.fit(cy.elements(), FIT_PADDING);
}

export interface LineageGraphProps {
  readonly graph: RunGraph;
  readonly highlight: Highlight | null;
  readonly theme: string;
  readonly onNode: (id: string) => void;
}

export function LineageGraph({ graph, highlight, theme, onNode }: LineageGraphProps) {
  const box = useRef<HTMLDivElement>(null);
  const onNodeRef = useRef(onNode);
  onNodeRef.current = onNode;
  const drawn = useMemo(() => drawnSubgraph(graph), [graph]);
  const layout = useMemo(() => layeredLayout(drawn.nodes, drawn.edges), [drawn]);
  const positions = layout.positions;
  const severity = useMemo(() => findingSeverity(graph.findings), [graph]);
  const height = Math.min(640, Math.max(300, 90 + layout.rows * 40));

  const cy = useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const c = themePalette();
    const cy = cytoscape({
      container: el,
      elements: [
        ...drawn.nodes.map((n) => ({
          group: 'nodes' as const,
          data: { id: n.id, label: shortLabel(n), full: n.label, kind: n.kind, ...(severity.has(n.id) ? { severity: severity.get(n.id) } : {}) },
          position: positions.get(n.id) ?? { x: 0, y: 0 },
          classes: severity.has(n.id) ? 'finding' : '',
        })),
        // Column titles are label-only nodes above each column, so they follow zoom and pan.
        ...COLUMN_TITLES.map((title, col) => ({ group: 'nodes' as const, data: { id: `column:${col}`, label: title }, position: { x: layout.columns[col]?.x ?? 0, y: -40 }, classes: 'column-title', selectable: false })),
        ...drawn.edges.map((e) => ({ group: 'edges' as const, data: { id: `${e.from}>${e.to}>${e.rel}`, source: e.from, target: e.to, rel: e.rel, key: `${e.from}>${e.to}` } })),
      ],
      layout: { name: 'preset', fit: false },
      maxZoom: 1.4,
      minZoom: 0.05,
      style: [
        {
          selector: 'node',
          style: {
            label: 'data(label)',
            'font-size': LINEAGE_FONT_SIZE,
            'min-zoomed-font-size': HIDE_LABEL_PX,
            color: c.text,
            'text-valign': 'bottom',
            'text-margin-y': 3,
            width: 14,
            height: 14,
            'background-color': c.muted,
            'text-background-color': c.panel,
            'text-background-opacity': 0.85,
            'text-background-padding': '1px',
            'text-max-width': '200px',
            'text-wrap': 'ellipsis',
          },
        },
        { selector: 'node[kind = "commit"]', style: { shape: 'round-rectangle', 'background-color': c.accent, width: 18 } },
        { selector: 'node[kind = "file"]', style: { shape: 'rectangle', width: 9, height: 11 } },
        { selector: 'node[kind = "dependency"]', style: { shape: 'ellipse', 'background-color': c.accent } },
        { selector: 'node[kind = "build"]', style: { shape: 'tag', width: 12, height: 12 } },
        { selector: 'node[kind = "layer"]', style: { shape: 'barrel', width: 18, height: 11, 'background-color': c.warn } },
        { selector: 'node[kind = "image"]', style: { shape: 'hexagon', width: 18, height: 16, 'background-color': c.pos } },
        { selector: 'node[kind = "service"]', style: { shape: 'diamond', width: 17, height: 17, 'background-color': c.pos } },
        { selector: 'node[kind = "container"]', style: { shape: 'round-rectangle', width: 13, height: 11 } },
        {
          selector: 'node.column-title',
          style: { 'background-opacity': 0, width: 1, height: 1, 'font-size': LINEAGE_FONT_SIZE, 'font-weight': 'bold', color: c.muted, 'text-valign': 'center', 'text-background-opacity': 0, 'text-transform': 'uppercase', events: 'no' },
        },
        { selector: 'node.finding', style: { 'border-width': 3, 'border-color': c.neg } },
        { selector: 'node[severity = "low"], node[severity = "medium"]', style: { 'border-color': c.warn } },
        {
          selector: 'edge',
          style: { width: 1.2, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.7, 'line-color': c.border, 'target-arrow-color': c.border },
        },
        // Dimmed nodes keep their labels legible (a pale 40 % label at 10 px is not read): the marker fades, the text less.
        { selector: 'node.dim', style: { 'background-opacity': 0.35, 'border-opacity': 0.35, 'text-opacity': 0.85 } },
        { selector: 'edge.dim', style: { opacity: 0.4 } },
        { selector: 'node.on-path', style: { 'overlay-color': c.focus, 'overlay-opacity': 0.18, 'overlay-padding': 5, 'font-weight': 'bold' } },
        { selector: 'edge.on-path', style: { width: 3.5, 'line-color': c.focus, 'target-arrow-color': c.focus, opacity: 1 } },
        { selector: 'node.reached', style: { 'overlay-color': c.warn, 'overlay-opacity': 0.16, 'overlay-padding': 4 } },
        { selector: 'edge.reached', style: { width: 2, 'line-color': c.warn, 'target-arrow-color': c.warn } },
        { selector: 'node.origin', style: { 'overlay-color': c.focus, 'overlay-opacity': 0.3, 'overlay-padding': 7 } },
      ],
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    cy.on('tap', 'node', (e) => onNodeRef.current(e.target.id()));
    return cy;
    // The theme (its palette is read from the page's CSS) and the height (the canvas's size) draw the graph anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drawn, positions, layout, severity, theme, height]);

  /** The view of the graph and its highlight: made on each highlight, and on a resize until the user moves it. */
  const view = useCallback(() => {
    if (!cy || cy.destroyed()) return;
    if (drawn.nodes.length > ZOOM_TO_HIGHLIGHT) {
      const shown = cy.nodes(HIGHLIGHTED);
      const target = highlight === null || shown.empty() ? cy.elements() : shown;
      cy.fit(target, 40);
      const readable = readableViewAt(cy.zoom(), target.boundingBox(), cy.height(), LINEAGE_MIN_FIT_ZOOM, FIT_PADDING);
      if (readable) cy.viewport(readable);
    } else showFitted(cy);
  }, [cy, highlight, drawn]);
  const { moved, reset } = useFitUntilMoved(cy, box, view);

  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    let marked = 0;
    cy.batch(() => {
      cy.elements().removeClass('dim on-path reached origin');
      if (highlight === null) return;
      if (highlight.kind === 'node') {
        cy.getElementById(highlight.id).addClass('origin');
        marked = 1;
        return;
      }
      const strong = new Set(highlight.kind === 'path' ? highlight.pathIds : highlight.layerIds);
      const soft = highlight.kind === 'path' ? highlight.downstream : highlight.reached;
      const keys = highlight.kind === 'path' ? pathEdgeKeys(highlight.pathIds) : new Set<string>();
      cy.nodes().not('.column-title').forEach((n) => {
        if (strong.has(n.id())) {
          n.addClass(highlight.kind === 'path' ? 'on-path' : 'origin');
          marked++;
        } else if (soft.has(n.id())) n.addClass('reached');
        else n.addClass('dim');
      });
      cy.edges().forEach((e) => {
        const from = e.source().id();
        const to = e.target().id();
        if (keys.has(String(e.data('key')))) e.addClass('on-path');
        else if ((strong.has(from) || soft.has(from)) && soft.has(to)) e.addClass('reached');
        else e.addClass('dim');
      });
    });
    view();
    reset();
    // What the canvas holds, for tests and for anyone inspecting the page.
    el.dataset['highlighted'] = String(marked);
    el.dataset['reached'] = String(highlight === null || highlight.kind === 'node' ? 0 : cy.nodes('.reached').length);
    el.dataset['highlight'] = highlight?.kind ?? 'none';
    el.dataset['dimmed'] = String(cy.nodes('.dim').length);
  }, [cy, highlight, drawn, positions, severity, theme, height, view, reset]);
  const { labelPx, hover } = useGraphReadout(cy, box, LINEAGE_FONT_SIZE, nodeName);

  const act = useCallback(
    (key: string): boolean => {
      const done = applyGraphKey(cy, key, {
        story: () => cy && showReadable(cy),
        whole: () => cy?.fit(cy.elements(), FIT_PADDING),
      });
      // The toolbar's pans and zooms are the user's: a resize no longer makes the view anew.
      if (done) moved();
      return done;
    },
    [cy, moved],
  );

  return (
    <div className="lineage-graph">
      <div className="panel__head">
        <h2>Provenance graph</h2>
        <span className="muted lineage-graph__stats">
          {drawn.omitted > 0 ? `${drawn.nodes.length} of ${graph.stats.nodes} nodes drawn (reason paths and findings first)` : `${counted(graph.stats.nodes, 'node')} · ${counted(graph.stats.edges, 'edge')}`} · drag to pan, wheel to zoom, or the toolbar (Tab to it: +, −, arrows, s, 0); a node's whole name shows on hover
        </span>
      </div>
      <GraphZoomBar testId="lineage-graph-bar" onAct={act} labelPx={labelPx} focusLabel={highlight === null ? 'Readable' : 'The highlight'} />
      <div className="lineage-graph__frame">
        <div
          ref={box}
          className="graph"
          style={{ height }}
          role="img"
          aria-label={`Provenance graph: ${counted(graph.stats.nodes, 'node')} and ${counted(graph.stats.edges, 'edge')} from commits to containers; ${counted(graph.findings.length, 'finding')}. The decision's reasons list the same paths.`}
          data-testid="lineage-graph"
          data-nodes={drawn.nodes.length}
          data-edges={drawn.edges.length}
        />
        <GraphNodeName hover={hover} />
      </div>
      <div className="legend lineage-graph__legend">
        <span className="kind-dot kind-dot--commit" /> commit <span className="kind-dot kind-dot--dependency" /> dependency <span className="kind-dot kind-dot--layer" /> layer{' '}
        <span className="kind-dot kind-dot--image" /> image · service <span className="kind-dot" /> build · container <span className="kind-dot kind-dot--finding" /> finding
        <span className="lineage-graph__hint">· click a layer for its blast radius, a ringed node for its origin</span>
      </div>
    </div>
  );
}
