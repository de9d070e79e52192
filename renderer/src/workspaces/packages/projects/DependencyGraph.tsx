// A project scan's dependency graph in cytoscape: rings by depth around the project, direct and transitive told apart, blocked components red, single points of failure ringed.
import { useMemo, useRef } from 'react';
import type { NodeSingular } from 'cytoscape';
import type { DependencyGraph as Graph } from '../../../../../engines/core/contracts/pkgscan-projects';
import { useCytoscapeGraph } from '../../../components/cytoscape';
import { themePalette } from '../../../components/palette';
import { drawnGraph, nodeLabel } from './model';
import { counted } from '../../../components/wording';

export function DependencyGraph({ graph, onNode }: { graph: Graph; onNode?: (id: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const onNodeRef = useRef(onNode);
  onNodeRef.current = onNode;
  const drawn = useMemo(() => drawnGraph(graph), [graph]);
  const maxDepth = useMemo(() => Math.max(1, ...drawn.nodes.map((n) => n.depth ?? 0)), [drawn]);

  const cy = useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const c = themePalette();
    const cy = cytoscape({
      container: el,
      elements: [
        ...drawn.nodes.map((n) => ({
          group: 'nodes' as const,
          data: { id: n.id, label: nodeLabel(n), depth: n.depth ?? maxDepth + 1 },
          classes: [n.depth === 0 ? 'root' : n.direct ? 'direct' : 'transitive', n.decision ?? '', drawn.spof.has(n.id) ? 'spof' : ''].filter(Boolean).join(' '),
        })),
        ...drawn.edges.map((e) => ({ group: 'edges' as const, data: { id: `${e.from}>${e.to}`, source: e.from, target: e.to } })),
      ],
      // Rings by depth: the project in the middle, its direct dependencies around it, deeper ones further out.
      layout: { name: 'concentric', concentric: (n: NodeSingular) => maxDepth + 2 - Number(n.data('depth')), levelWidth: () => 1, minNodeSpacing: 14, fit: true, padding: 24, animate: false },
      maxZoom: 2,
      minZoom: 0.05,
      style: [
        {
          selector: 'node',
          style: { label: 'data(label)', 'font-size': 9, color: c.text, 'text-valign': 'bottom', 'text-margin-y': 2, width: 9, height: 9, 'background-color': c.muted, 'text-background-color': c.panel, 'text-background-opacity': 0.8, 'text-max-width': '140px', 'text-wrap': 'ellipsis', 'min-zoomed-font-size': 7 },
        },
        { selector: 'node.root', style: { shape: 'round-rectangle', width: 22, height: 16, 'background-color': c.accent, 'font-size': 12, 'font-weight': 'bold' } },
        { selector: 'node.direct', style: { width: 14, height: 14, 'background-color': c.accent } },
        { selector: 'node.warn', style: { 'background-color': c.warn } },
        { selector: 'node.block', style: { 'background-color': c.neg, width: 16, height: 16 } },
        { selector: 'node.spof', style: { 'border-width': 3, 'border-color': c.focus, 'border-style': 'double' } },
        { selector: 'edge', style: { width: 0.8, 'curve-style': 'haystack', 'line-color': c.border, opacity: 0.7 } },
      ],
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    cy.on('tap', 'node', (e) => onNodeRef.current?.(e.target.id()));
    return cy;
  }, [drawn, maxDepth]);

  const blocked = drawn.nodes.filter((n) => n.decision === 'block').length;
  return (
    <section className="panel pk-graph" aria-label="Dependency graph">
      <div className="packages__filters">
        <h2>
          Dependency graph{' '}
          <span className="pk-sub">
            {counted(graph.metrics.node_count, 'node')} · {counted(graph.metrics.edge_count, 'edge')} · depth {graph.metrics.depth}
            {drawn.omitted > 0 && ` · ${drawn.nodes.length} drawn (direct, blocked and single points of failure first)`}
          </span>
        </h2>
        <button type="button" className="small" onClick={() => cy?.fit(undefined, 24)}>
          Fit
        </button>
      </div>
      <div
        ref={box}
        className="pk-graph__canvas"
        role="img"
        aria-label={`Dependency graph: ${counted(graph.metrics.node_count, 'component')}, ${blocked} blocked, ${counted(graph.metrics.single_points_of_failure.length, 'single point of failure', 'single points of failure')}. The components table lists the same.`}
        data-testid="dependency-graph"
        data-nodes={drawn.nodes.length}
        data-edges={drawn.edges.length}
        data-blocked={blocked}
        data-spof={drawn.spof.size}
      />
      <div className="pk-graph__legend muted small">
        <span className="pk-dot pk-dot--root" /> project <span className="pk-dot pk-dot--direct" /> direct <span className="pk-dot" /> transitive <span className="pk-dot pk-dot--warn" /> warned{' '}
        <span className="pk-dot pk-dot--block" /> blocked <span className="pk-dot pk-dot--spof" /> single point of failure · drag to pan, wheel to zoom
      </div>
      {graph.metrics.single_points_of_failure.length > 0 && (
        <div className="small">
          <strong>Single points of failure:</strong>{' '}
          {graph.metrics.single_points_of_failure.slice(0, 8).map((s) => (
            <code key={s.id} className="pk-tag" title={`Removing it disconnects ${counted(s.disconnects, 'component')} from the project`}>
              {s.id} ({s.disconnects})
            </code>
          ))}
        </div>
      )}
    </section>
  );
}
