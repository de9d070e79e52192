// The story's hosts as a cytoscape graph: nodes laid out once, edges added in timeline order up to the scrubber's step.
import { useEffect, useMemo, useRef } from 'react';
import type { Story } from '../../../../../engines/core/contracts/replay';
import { useCytoscapeGraph } from '../../../components/cytoscape';
import { themePalette } from '../../../components/palette';
import { graphAtStep, hostPositions, plural } from '../model';

export function HostGraph({ story, step, theme }: { readonly story: Story; readonly step: number; readonly theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const graph = useMemo(() => graphAtStep(story, step), [story, step]);
  const positions = useMemo(() => hostPositions(story.graph.nodes), [story]);
  const height = Math.min(480, Math.max(340, 200 + story.graph.nodes.length * 8));

  // The nodes and their places depend on the story and theme only, so stepping never moves a host.
  const cy = useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const c = themePalette();
    const cy = cytoscape({
      container: el,
      elements: story.graph.nodes.map((n) => ({ group: 'nodes' as const, data: { id: n.id, label: n.id, role: n.role }, position: positions.get(n.id) ?? { x: 0, y: 0 } })),
      layout: { name: 'preset', fit: true, padding: 32 },
      // A story of two hosts must not be blown up to fill the box.
      maxZoom: 1.5,
      style: [
        {
          selector: 'node',
          style: { label: 'data(label)', 'font-size': 10, color: c.text, 'text-valign': 'bottom', 'text-margin-y': 4, width: 12, height: 12, 'background-color': c.muted, 'text-background-color': c.panel, 'text-background-opacity': 0.8 },
        },
        { selector: 'node[role = "attacker"]', style: { 'background-color': c.neg, width: 18, height: 18, 'font-weight': 'bold' } },
        { selector: 'node[role = "victim"]', style: { 'background-color': c.warn, width: 15, height: 15 } },
        { selector: 'node[role = "pivot"]', style: { 'background-color': c.accent, width: 16, height: 16, shape: 'diamond' } },
        { selector: 'node.active', style: { 'border-width': 3, 'border-color': c.focus } },
        { selector: 'edge', style: { width: 1.5, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8, 'line-color': c.border, 'target-arrow-color': c.border } },
        { selector: 'edge.current', style: { width: 3, 'line-color': c.accent, 'target-arrow-color': c.accent } },
      ],
      userZoomingEnabled: false,
      userPanningEnabled: false,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    return cy;
    // The theme (its palette is read from the page's CSS) and the height (the canvas's size) draw the graph anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [story, positions, theme, height]);

  // Each step only changes which edges exist and what is highlighted.
  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    cy.batch(() => {
      cy.edges().remove();
      cy.add(graph.edges.map((e) => ({ group: 'edges' as const, data: { id: e.id, source: e.from, target: e.to }, classes: e.step === step ? 'current' : '' })));
      cy.nodes().forEach((n) => {
        if (graph.active.has(n.id())) n.addClass('active');
        else n.removeClass('active');
      });
    });
    // What the canvas actually holds, for tests and for anyone inspecting the page.
    el.dataset['edges'] = String(cy.edges().length);
  }, [cy, graph, step, story, theme, height]);

  return (
    <div className="replay-graph">
      <div
        ref={box}
        className="graph"
        style={{ height }}
        role="img"
        aria-label={`Host graph: ${plural(story.graph.nodes.length, 'host')}, ${graph.edges.length} of ${graph.total} connections shown up to step ${step}. The alerts below list the same hosts.`}
        data-testid="host-graph"
      />
      <div className="legend replay-graph__legend">
        <span className="role-dot role-dot--attacker" /> attacker <span className="role-dot role-dot--pivot" /> pivot <span className="role-dot role-dot--victim" /> victim{' '}
        <span className="role-dot" /> other · {graph.edges.length} of {graph.total} edges
        {story.graph.omitted_hosts > 0 && ` · ${story.graph.omitted_hosts} more hosts not drawn`}
      </div>
    </div>
  );
}
