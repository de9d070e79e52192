// A small cytoscape picture of evidence -> top actors, edge width by contribution, for those who would rather look than read.
import { useMemo, useRef } from 'react';
import type { Assessment } from '../../../../engines/core/contracts/caseassess';
import { useCytoscapeGraph } from '../../components/cytoscape';
import { themePalette } from '../../components/palette';
import { graphModel, signed } from './model';
import { counted } from '../../components/wording';

/** Edges smaller than this share of the largest are left out of the picture (the matrix has them). */
const MIN_SHARE = 0.15;

export function EvidenceGraph({ assessment, actors, theme }: { readonly assessment: Assessment; readonly actors: number; readonly theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const model = useMemo(() => graphModel(assessment, actors, MIN_SHARE), [assessment, actors]);
  const rows = Math.max(model.nodes.filter((n) => n.side === 'evidence').length, 1);
  const height = Math.min(520, Math.max(200, rows * 26 + 40));

  useCytoscapeGraph((cytoscape) => {
    const el = box.current;
    if (!el) return null;
    const evidenceCount = model.nodes.filter((n) => n.side === 'evidence').length;
    const actorCount = model.nodes.length - evidenceCount;
    const step = 26;
    const actorStep = evidenceCount > 1 && actorCount > 1 ? ((evidenceCount - 1) * step) / (actorCount - 1) : step;
    const colours = themePalette();
    const cy = cytoscape({
      container: el,
      elements: [
        ...model.nodes.map((n) => ({
          group: 'nodes' as const,
          data: { id: n.id, label: n.label, side: n.side },
          // Two columns: evidence on the left, actors on the right, so edges read left to right.
          position: n.side === 'evidence' ? { x: 0, y: n.index * step } : { x: 340, y: actorCount === 1 ? ((evidenceCount - 1) * step) / 2 : n.index * actorStep },
        })),
        ...model.edges.map((e) => ({
          group: 'edges' as const,
          data: { id: e.id, source: e.source, target: e.target, w: 0.5 + e.weight * 5, sign: e.value > 0 ? 'pos' : 'neg', label: signed(e.value, 1) },
        })),
      ],
      layout: { name: 'preset', fit: true, padding: 16 },
      style: [
        { selector: 'node', style: { label: 'data(label)', 'font-size': 10, color: colours.text, 'text-valign': 'center', width: 8, height: 8, 'background-color': colours.muted } },
        { selector: 'node[side = "evidence"]', style: { 'text-halign': 'left', 'text-margin-x': -6 } },
        { selector: 'node[side = "actor"]', style: { 'text-halign': 'right', 'text-margin-x': 6, 'font-weight': 'bold', width: 12, height: 12, 'background-color': colours.accent } },
        { selector: 'edge', style: { width: 'data(w)', 'curve-style': 'bezier', opacity: 0.75 } },
        { selector: 'edge[sign = "pos"]', style: { 'line-color': colours.pos } },
        { selector: 'edge[sign = "neg"]', style: { 'line-color': colours.neg, 'line-style': 'dashed' } },
        { selector: 'edge:selected, edge:active', style: { label: 'data(label)', 'font-size': 10, color: colours.text, 'text-background-color': colours.panel, 'text-background-opacity': 1 } },
      ],
      userZoomingEnabled: false,
      userPanningEnabled: false,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    return cy;
    // The theme (its palette is read from the page's CSS) and the height (the canvas's size) draw the graph anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, theme, height]);

  return (
    <section className="panel" aria-label="Evidence to actor graph">
      <div className="panel__head">
        <h2>Evidence → actors</h2>
        <span className="legend">
          <span className="swatch swatch--pos" /> supports <span className="swatch swatch--neg" /> against · width = size
          {model.omitted > 0 && ` · ${model.omitted} small contributions left out`}
        </span>
      </div>
      {model.edges.length === 0 ? (
        <p className="muted">No scored evidence bears on the top actors.</p>
      ) : (
        <div ref={box} className="graph" style={{ height }} role="img" aria-label={`Graph of ${counted(model.edges.length, 'contribution')} from the evidence to the top actors; the matrix above holds the same numbers.`} data-testid="evidence-graph" />
      )}
    </section>
  );
}
