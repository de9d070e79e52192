// The causal graph of a case (cytoscape): provenance nodes by kind in causal columns (case-graph-options.ts, graph-layout.ts),
// causal edges by confidence, the selected story highlighted and fitted.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AnalysisView, Story } from '../../../../engines/core/contracts/forensic';
import { useCytoscapeGraph } from '../../components/cytoscape';
import { themePalette } from '../../components/palette';
import { canvasMeasure, caseGraphOptions, FIT_PADDING, readableView } from './case-graph-options';
import { graphToDraw } from './model';

export function CaseGraph({ view, story, theme }: { readonly view: AnalysisView; readonly story: Story | null; readonly theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useMemo(() => graphToDraw(view, story), [view, story]);
  const [cutOff, setCutOff] = useState(false);

  const cy = useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const cy = cytoscape({ container: el, ...caseGraphOptions(pick, story, themePalette(), canvasMeasure()) });
    return cy;
    // The theme (its palette is read from the page's CSS) draws the graph anew; the story's nodes lead the layout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pick, story, theme]);

  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    // The story's classes came with the elements (caseGraphOptions): the graph is drawn anew for each story.
    const focus = cy.elements('.story');
    const shown = focus.length > 0 ? focus : cy.elements();
    cy.fit(shown, FIT_PADDING);
    // Fitted smaller than labels can be read: readable instead, from the story's start (its left, where causes are).
    const readable = readableView(cy.zoom(), shown.boundingBox(), cy.height());
    if (readable) cy.viewport(readable);
    setCutOff(readable !== null);
    el.dataset['highlighted'] = String(cy.nodes('.story').length);
    el.dataset['nodes'] = String(cy.nodes().length);
  }, [cy]);

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
        Causes left of their effects. Story nodes and edges in red, its root ringed; edge width is the rule's confidence. Scroll to zoom, drag to pan.
        {cutOff && ` The ${story ? 'story' : 'graph'} does not fit the panel at a readable size: it is shown from its start; drag to follow it, or scroll to zoom out and see it whole.`}
        {pick.omitted > 0 && ` ${pick.omitted.toLocaleString('en')} nodes outside the stories are not drawn.`}
      </div>
    </div>
  );
}
