// The causal graph of a case (cytoscape): provenance nodes by kind, causal edges by confidence, the selected story highlighted and fitted.
import { useEffect, useMemo, useRef } from 'react';
import type { AnalysisView, Story } from '../../../../engines/core/contracts/forensic';
import { useCytoscapeGraph } from '../../components/cytoscape';
import { themePalette } from '../../components/palette';
import { graphToDraw } from './model';

/** Graphs up to this many nodes get the force layout. */
const COSE_MAX_NODES = 250;

const KIND_SHAPES: Readonly<Record<string, string>> = { host: 'round-rectangle', user: 'ellipse', session: 'ellipse', process: 'round-rectangle', file: 'rectangle', registry: 'diamond', service: 'hexagon', task: 'hexagon', endpoint: 'triangle', other: 'ellipse' };

/** Files and registry keys by their last part (the full path is in the story and timeline), anything else cut at 28. */
function shortLabel(kind: string, label: string): string {
  const text = kind === 'file' || kind === 'registry' ? (label.split(/[\\/]/).filter((p) => p !== '').pop() ?? label) : label;
  return text.length > 28 ? `${text.slice(0, 27)}…` : text;
}

export function CaseGraph({ view, story, theme }: { readonly view: AnalysisView; readonly story: Story | null; readonly theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useMemo(() => graphToDraw(view, story), [view, story]);

  const cy = useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const c = themePalette();
    const hasIncoming = new Set(pick.edges.map((e) => e.to));
    const cy = cytoscape({
      container: el,
      elements: [
        ...pick.nodes.map((n) => ({ group: 'nodes' as const, data: { id: n.id, label: shortLabel(n.kind, n.label), kind: n.kind, shape: KIND_SHAPES[n.kind] ?? 'ellipse' } })),
        ...pick.edges.map((e) => ({ group: 'edges' as const, data: { id: e.id, source: e.from, target: e.to, label: e.relation, width: 1 + e.confidence * 2.5 } })),
      ],
      // A force layout reads best up to a few hundred nodes; beyond, layers from the roots are cheaper.
      layout:
        pick.nodes.length <= COSE_MAX_NODES
          ? { name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 9000, idealEdgeLength: () => 60, padding: 16, numIter: 1500 }
          : { name: 'breadthfirst', directed: true, roots: pick.nodes.filter((n) => !hasIncoming.has(n.id)).map((n) => n.id), spacingFactor: 0.9, padding: 16, animate: false },
      minZoom: 0.1,
      maxZoom: 2.5,
      wheelSensitivity: 0.3,
      style: [
        {
          selector: 'node',
          style: { label: 'data(label)', 'font-size': 9, 'min-zoomed-font-size': 7, color: c.text, 'text-valign': 'bottom', 'text-margin-y': 3, width: 14, height: 14, shape: 'data(shape)' as never, 'background-color': c.muted, 'text-background-color': c.panel, 'text-background-opacity': 0.75 },
        },
        { selector: 'node[kind = "process"]', style: { 'background-color': c.accent } },
        { selector: 'node[kind = "user"], node[kind = "session"]', style: { 'background-color': c.focus } },
        { selector: 'edge', style: { width: 'data(width)' as never, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.7, 'line-color': c.border, 'target-arrow-color': c.border, opacity: 0.7 } },
        { selector: '.faded', style: { opacity: 0.18, 'text-opacity': 0 } },
        { selector: 'node.story', style: { 'background-color': c.neg, width: 18, height: 18, 'font-weight': 'bold', opacity: 1 } },
        { selector: 'node.root', style: { 'border-width': 3, 'border-color': c.focus } },
        { selector: 'edge.story', style: { 'line-color': c.neg, 'target-arrow-color': c.neg, opacity: 1, label: 'data(label)', 'font-size': 8, color: c.muted, 'text-rotation': 'autorotate' } },
      ],
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    return cy;
    // The theme (its palette is read from the page's CSS) draws the graph anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pick, theme]);

  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    const nodes = new Set(story ? [story.rootNodeId, ...story.nodeIds] : []);
    const edges = new Set(story?.edgeIds ?? []);
    cy.batch(() => {
      cy.elements().removeClass('story faded root');
      if (story) {
        cy.nodes().forEach((n) => {
          n.addClass(nodes.has(n.id()) ? 'story' : 'faded');
          if (n.id() === story.rootNodeId) n.addClass('root');
        });
        cy.edges().forEach((e) => {
          e.addClass(edges.has(e.id()) ? 'story' : 'faded');
        });
      }
    });
    const focus = cy.elements('.story');
    cy.fit(focus.length > 0 ? focus : undefined, 24);
    el.dataset['highlighted'] = String(cy.nodes('.story').length);
    el.dataset['nodes'] = String(cy.nodes().length);
  }, [cy, story, pick, theme]);

  return (
    <div className="case-graph">
      <div
        ref={box}
        className="graph case-graph__canvas"
        role="img"
        aria-label={`Causal graph: ${pick.nodes.length} nodes and ${pick.edges.length} edges${story ? `, story ${story.id} highlighted (${story.nodeIds.length} nodes)` : ''}. The story list and timeline give the same facts as text.`}
        data-testid="case-graph"
      />
      <div className="legend">
        Story nodes and edges in red, its root ringed; edge width is the rule's confidence. Scroll to zoom, drag to pan.
        {pick.omitted > 0 && ` ${pick.omitted.toLocaleString('en')} nodes outside the stories are not drawn.`}
      </div>
    </div>
  );
}
