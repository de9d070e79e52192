// The causal graph of a case (cytoscape): provenance nodes by kind in causal columns (case-graph-options.ts, graph-layout.ts),
// causal edges by confidence, the selected story highlighted and fitted at a readable size. A toolbar (the timeline's keys)
// zooms and pans from the keyboard; a node's whole name shows on hover, also where its label is cut or too small to draw.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Core, NodeSingular } from 'cytoscape';
import type { AnalysisView, Story } from '../../../../engines/core/contracts/forensic';
import { useCytoscapeGraph } from '../../components/cytoscape';
import { themePalette } from '../../components/palette';
import { canvasMeasure, caseGraphOptions, FIT_PADDING, GRAPH_FONT_SIZE, graphKey, MIN_LABEL_PX, readableView } from './case-graph-options';
import { graphToDraw } from './model';

interface HoverName {
  readonly text: string;
  readonly x: number;
  readonly y: number;
}

export function CaseGraph({ view, story, theme }: { readonly view: AnalysisView; readonly story: Story | null; readonly theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useMemo(() => graphToDraw(view, story), [view, story]);
  const [cutOff, setCutOff] = useState(false);
  const [labelPx, setLabelPx] = useState<number | null>(null);
  const [hover, setHover] = useState<HoverName | null>(null);
  /** The graph over the whole window (f, Esc back): a story too wide for the case column fits there at a readable size. */
  const [expanded, setExpanded] = useState(false);
  const bar = useRef<HTMLDivElement>(null);

  const cy = useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const cy = cytoscape({ container: el, ...caseGraphOptions(pick, story, themePalette(), canvasMeasure()) });
    return cy;
    // The theme (its palette is read from the page's CSS) draws the graph anew; the story's nodes lead the layout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pick, story, theme]);

  /** The story fitted, or from its start at the smallest readable zoom when it does not fit at one. */
  const showStory = useCallback((g: Core): void => {
    const focus = g.elements('.story');
    const shown = focus.length > 0 ? focus : g.elements();
    g.fit(shown, FIT_PADDING);
    const readable = readableView(g.zoom(), shown.boundingBox(), g.height());
    if (readable) g.viewport(readable);
    setCutOff(readable !== null);
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    // The story's classes came with the elements (caseGraphOptions): the graph is drawn anew for each story.
    showStory(cy);
    el.dataset['highlighted'] = String(cy.nodes('.story').length);
    el.dataset['nodes'] = String(cy.nodes().length);
    const onZoom = (): void => {
      const px = Math.round(cy.zoom() * GRAPH_FONT_SIZE * 10) / 10;
      el.dataset['zoom'] = cy.zoom().toFixed(3);
      el.dataset['labelPx'] = String(px);
      setLabelPx(px);
      setHover(null);
    };
    onZoom();
    cy.on('viewport', onZoom);
    cy.on('mouseover', 'node', (e) => {
      const n = e.target as NodeSingular;
      const p = n.renderedPosition();
      setHover({ text: `${String(n.data('kind'))}: ${String(n.data('full'))}`, x: p.x, y: p.y });
    });
    cy.on('mouseout', 'node', () => setHover(null));
  }, [cy, showStory]);

  // The container changed size: cytoscape measures it again and the story is shown anew.
  const shownExpanded = useRef(false);
  useEffect(() => {
    if (!cy || cy.destroyed() || shownExpanded.current === expanded) return;
    shownExpanded.current = expanded;
    cy.resize();
    showStory(cy);
    // Focus stays on the toolbar that toggled it (a click on a button that has gone elsewhere would lose it).
    bar.current?.focus();
  }, [expanded, cy, showStory]);

  // Esc brings an expanded graph back wherever focus is (the canvas after a drag, say).
  useEffect(() => {
    if (!expanded) return;
    const onEsc = (e: globalThis.KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setExpanded(false);
    };
    document.addEventListener('keydown', onEsc);
    return () => document.removeEventListener('keydown', onEsc);
  }, [expanded]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (!cy || cy.destroyed() || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      e.stopPropagation();
      setExpanded(false);
      return;
    }
    act(e.key, e);
  };
  const act = (key: string, e?: KeyboardEvent<HTMLDivElement>): void => {
    if (!cy || cy.destroyed()) return;
    const next = graphKey(key, { zoom: cy.zoom(), pan: cy.pan() }, { width: cy.width(), height: cy.height() }, { min: cy.minZoom(), max: cy.maxZoom() });
    if (next === null) return;
    e?.preventDefault();
    if (next === 'expand') setExpanded((x) => !x);
    else if (next === 'story') showStory(cy);
    else if (next === 'whole') {
      cy.fit(cy.elements(), FIT_PADDING);
      setCutOff(false);
    } else cy.viewport(next);
  };

  const small = labelPx !== null && labelPx < MIN_LABEL_PX;
  return (
    <div className={expanded ? 'case-graph case-graph--expanded' : 'case-graph'} data-expanded={expanded}>
      <div ref={bar} className="case-graph__bar row" role="toolbar" aria-label="Graph zoom" tabIndex={0} onKeyDown={onKey} data-testid="case-graph-bar">
        <button type="button" className="small" onClick={() => act('+')} aria-label="Zoom in (+)">
          +
        </button>
        <button type="button" className="small" onClick={() => act('-')} aria-label="Zoom out (−)">
          −
        </button>
        <button type="button" className="small" onClick={() => act('s')} data-testid="graph-story">
          The story (s)
        </button>
        <button type="button" className="small" onClick={() => act('0')} data-testid="graph-whole">
          Whole graph (0)
        </button>
        <button type="button" className="small" onClick={() => act('f')} aria-pressed={expanded} data-testid="graph-expand">
          {expanded ? 'Back to the case (Esc)' : 'Whole window (f)'}
        </button>
        <span className="muted">arrows pan</span>
        {labelPx !== null && (
          <span className={small ? 'muted case-graph__size case-graph__size--small' : 'muted case-graph__size'} data-testid="graph-label-size">
            labels {labelPx.toFixed(0)} px{small ? ': hover a node for its name' : ''}
          </span>
        )}
      </div>
      <div className="case-graph__frame">
        <div
          ref={box}
          className="graph case-graph__canvas"
          role="img"
          aria-label={`Causal graph: ${pick.nodes.length} nodes and ${pick.edges.length} edges${story ? `, story ${story.id} highlighted (${story.nodeIds.length} nodes)` : ''}. The story list and timeline give the same facts as text.`}
          data-testid="case-graph"
        />
        {hover && (
          <div className="case-graph__name" role="tooltip" style={{ left: hover.x, top: hover.y }} data-testid="graph-node-name">
            {hover.text}
          </div>
        )}
      </div>
      <div className="legend">
        Causes left of their effects. Story nodes and edges in red, its root ringed; edge width is the rule&apos;s confidence. Scroll to zoom, drag to pan, or the toolbar above (Tab to it: +, −, arrows, s, 0, f for the whole window); a node&apos;s whole name shows on hover.
        {cutOff && ` The ${story ? 'story' : 'graph'} does not fit the panel with labels of ${MIN_LABEL_PX} px: it is shown from its start; pan to follow it, f to show it over the whole window, or 0 for the whole graph (labels under 8 px are then left out).`}
        {pick.omitted > 0 && ` ${pick.omitted.toLocaleString('en')} nodes outside the stories are not drawn.`}
      </div>
    </div>
  );
}
