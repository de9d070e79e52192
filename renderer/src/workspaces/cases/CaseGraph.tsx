// The causal graph of a case (cytoscape): provenance nodes by kind in causal columns (case-graph-options.ts, graph-layout.ts),
// causal edges by confidence, the selected story highlighted and fitted at a readable size. A toolbar (the timeline's keys)
// zooms and pans from the keyboard; a node's whole name shows on hover, also where its label is cut or too small to draw.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Core, NodeSingular } from 'cytoscape';
import type { AnalysisView, Story } from '../../../../engines/core/contracts/forensic';
import { useCytoscapeGraph } from '../../components/cytoscape';
import { applyGraphKey, GraphNodeName, GraphZoomBar, useGraphReadout } from '../../components/GraphZoomBar';
import { themePalette } from '../../components/palette';
import { canvasMeasure, caseGraphOptions, FIT_PADDING, GRAPH_FONT_SIZE, MIN_LABEL_PX, readableView } from './case-graph-options';
import { graphToDraw } from './model';
import { agreeing, counted } from '../../components/wording';

/** The least height of the graph's panel when the graph needs less than its full 520 px (cases.css). */
const MIN_GRAPH_HEIGHT = 240;

/** A node's kind and whole name (a file's full path, a label cut to its column whole), for the hover. */
const nodeName = (n: NodeSingular): string => `${String(n.data('kind'))}: ${String(n.data('full'))}`;

export function CaseGraph({ view, story, theme }: { readonly view: AnalysisView; readonly story: Story | null; readonly theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useMemo(() => graphToDraw(view, story), [view, story]);
  const [cutOff, setCutOff] = useState(false);
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

  /**
   * The story shown, in a panel no taller than the graph needs at that zoom: a wide, short graph is bound by the
   * panel's width, and the panel's full height left it a thin strip in an empty box (never under MIN_GRAPH_HEIGHT).
   */
  const showStoryFitted = useCallback(
    (g: Core, el: HTMLDivElement): void => {
      el.style.height = '';
      g.resize();
      showStory(g);
      const need = Math.ceil(g.elements().renderedBoundingBox().h + 2 * FIT_PADDING);
      if (need >= el.clientHeight) return;
      el.style.height = `${Math.max(MIN_GRAPH_HEIGHT, need)}px`;
      g.resize();
      showStory(g);
    },
    [showStory],
  );

  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    // The story's classes came with the elements (caseGraphOptions): the graph is drawn anew for each story.
    showStoryFitted(cy, el);
    el.dataset['highlighted'] = String(cy.nodes('.story').length);
    el.dataset['nodes'] = String(cy.nodes().length);
  }, [cy, showStoryFitted]);
  const { labelPx, hover } = useGraphReadout(cy, box, GRAPH_FONT_SIZE, nodeName);

  // The container changed size: cytoscape measures it again and the story is shown anew.
  const shownExpanded = useRef(false);
  useEffect(() => {
    if (!cy || cy.destroyed() || shownExpanded.current === expanded) return;
    shownExpanded.current = expanded;
    const el = box.current;
    if (expanded && el) el.style.height = '';
    if (!expanded && el) showStoryFitted(cy, el);
    else {
      cy.resize();
      showStory(cy);
    }
    // Focus stays on the toolbar that toggled it (a click on a button that has gone elsewhere would lose it).
    bar.current?.focus();
  }, [expanded, cy, showStory, showStoryFitted]);

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

  const act = (key: string): boolean =>
    applyGraphKey(cy, key, {
      story: () => cy && showStory(cy),
      whole: () => {
        cy?.fit(cy.elements(), FIT_PADDING);
        setCutOff(false);
      },
      expand: () => setExpanded((x) => !x),
    });
  const escape = (): boolean => {
    if (!expanded) return false;
    setExpanded(false);
    return true;
  };

  return (
    <div className={expanded ? 'case-graph case-graph--expanded' : 'case-graph'} data-expanded={expanded}>
      <GraphZoomBar barRef={bar} testId="case-graph-bar" onAct={act} labelPx={labelPx} focusLabel="The story" expanded={expanded} backLabel="Back to the case (Esc)" onEscape={escape} />
      <div className="case-graph__frame">
        <div
          ref={box}
          className="graph case-graph__canvas"
          role="img"
          aria-label={`Causal graph: ${counted(pick.nodes.length, 'node')} and ${counted(pick.edges.length, 'edge')}${story ? `, story ${story.id} highlighted (${counted(story.nodeIds.length, 'node')})` : ''}. The story list and timeline give the same facts as text.`}
          data-testid="case-graph"
        />
        <GraphNodeName hover={hover} />
      </div>
      <div className="legend">
        Causes left of their effects. Story nodes and edges in red, its root ringed; edge width is the rule&apos;s confidence. Scroll to zoom, drag to pan, or the toolbar above (Tab to it: +, −, arrows, s, 0, f for the whole window); a node&apos;s whole name shows on hover.
        {cutOff && ` The ${story ? 'story' : 'graph'} does not fit the panel with labels of ${MIN_LABEL_PX} px: it is shown from its start; pan to follow it, f to show it over the whole window, or 0 for the whole graph (labels under 8 px are then left out).`}
        {pick.omitted > 0 && ` ${counted(pick.omitted, 'node')} outside the stories ${agreeing(pick.omitted, 'is', 'are')} not drawn.`}
      </div>
    </div>
  );
}
