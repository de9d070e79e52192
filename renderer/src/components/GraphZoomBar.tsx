// The graphs' zoom toolbar and hover name (the Cases causal graph and the Lineage provenance graph share them with the rule in
// graph-readable.ts): + and − zoom, the arrows pan, s the focus, 0 the whole graph, f the whole window (each button shows its
// key as a key cap after its words); the labels' size on screen is printed at every zoom, and a node's whole name shows
// beside it on hover (its label may be cut, or too small to draw).
import { useEffect, useState, type KeyboardEvent, type Ref, type RefObject } from 'react';
import type { Core, NodeSingular } from 'cytoscape';
import { graphKey, labelPxAt, MIN_LABEL_PX } from './graph-readable';
import './graph-zoom.css';

export interface HoverName {
  readonly text: string;
  readonly x: number;
  readonly y: number;
}

/**
 * The labels' size on screen (kept on `el` as data-zoom and data-label-px for tests) and the hovered node's whole name,
 * `nameOf` the text for a node ('' for none). Both follow the graph's viewport; a new graph starts them again.
 */
export function useGraphReadout(cy: Core | null, box: RefObject<HTMLElement | null>, fontSize: number, nameOf: (n: NodeSingular) => string): { labelPx: number | null; hover: HoverName | null; clearHover: () => void } {
  const [labelPx, setLabelPx] = useState<number | null>(null);
  const [hover, setHover] = useState<HoverName | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!cy || cy.destroyed() || !el) return;
    const onZoom = (): void => {
      const px = labelPxAt(cy.zoom(), fontSize);
      el.dataset['zoom'] = cy.zoom().toFixed(3);
      el.dataset['labelPx'] = String(px);
      setLabelPx(px);
      setHover(null);
    };
    const onOver = (e: { target: NodeSingular }): void => {
      const n = e.target;
      const text = nameOf(n);
      if (text === '') return;
      const p = n.renderedPosition();
      setHover({ text, x: p.x, y: p.y });
    };
    const onOut = (): void => setHover(null);
    onZoom();
    cy.on('viewport', onZoom);
    cy.on('mouseover', 'node', onOver);
    cy.on('mouseout', 'node', onOut);
    return () => {
      if (cy.destroyed()) return;
      cy.off('viewport', onZoom);
      cy.off('mouseover', 'node', onOver);
      cy.off('mouseout', 'node', onOut);
    };
    // `nameOf` is read when a node is hovered; a new closure each render does not register the listeners again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cy, box, fontSize]);
  return { labelPx, hover, clearHover: () => setHover(null) };
}

/** What the toolbar's keys do on a graph: the view moves; `story`, `whole` and `expand` are the caller's (absent: ignored). */
export function applyGraphKey(cy: Core | null, key: string, on: { readonly story?: () => void; readonly whole: () => void; readonly expand?: () => void }): boolean {
  if (!cy || cy.destroyed()) return false;
  const next = graphKey(key, { zoom: cy.zoom(), pan: cy.pan() }, { width: cy.width(), height: cy.height() }, { min: cy.minZoom(), max: cy.maxZoom() });
  if (next === null) return false;
  if (next === 'story') {
    if (!on.story) return false;
    on.story();
  } else if (next === 'expand') {
    if (!on.expand) return false;
    on.expand();
  } else if (next === 'whole') on.whole();
  else cy.viewport(next);
  return true;
}

export interface GraphZoomBarProps {
  readonly barRef?: Ref<HTMLDivElement>;
  readonly testId: string;
  /** A key or a button: what it does (applyGraphKey); true when it was one of the toolbar's. */
  readonly onAct: (key: string) => boolean;
  readonly labelPx: number | null;
  /** The focus button's words (`s`), e.g. "The story"; none, no button. */
  readonly focusLabel?: string;
  /** The whole-window button (`f`): whether the graph is over the whole window now; undefined, no button. */
  readonly expanded?: boolean;
  /** The whole-window button's words while expanded. */
  readonly backLabel?: string;
  /** Esc while expanded: back (handled here so it does not reach the workspace's own Esc). */
  readonly onEscape?: () => boolean;
}

export function GraphZoomBar({ barRef, testId, onAct, labelPx, focusLabel, expanded, backLabel = 'Back (Esc)', onEscape }: GraphZoomBarProps) {
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') {
      if (onEscape?.()) {
        e.preventDefault();
        e.stopPropagation();
      }
      return;
    }
    if (onAct(e.key)) e.preventDefault();
  };
  // Under the floor to a tenth (9.6 px is not "10 px"), at or above it whole pixels.
  const small = labelPx !== null && labelPx < MIN_LABEL_PX;
  return (
    <div ref={barRef} className="graph-zoom__bar row" role="toolbar" aria-label="Graph zoom" tabIndex={0} onKeyDown={onKey} data-testid={testId}>
      <button type="button" className="small" onClick={() => onAct('+')} aria-label="Zoom in (+)">
        +
      </button>
      <button type="button" className="small" onClick={() => onAct('-')} aria-label="Zoom out (−)">
        −
      </button>
      {focusLabel !== undefined && (
        <button type="button" className="small" onClick={() => onAct('s')} aria-keyshortcuts="s" data-testid="graph-story">
          <KeyedLabel label={focusLabel} shortcut="s" />
        </button>
      )}
      <button type="button" className="small" onClick={() => onAct('0')} aria-keyshortcuts="0" data-testid="graph-whole">
        <KeyedLabel label="Whole graph" shortcut="0" />
      </button>
      {expanded !== undefined && (
        <button type="button" className="small" onClick={() => onAct('f')} aria-pressed={expanded} aria-keyshortcuts={expanded ? 'Escape' : 'f'} data-testid="graph-expand">
          {expanded ? <KeyedLabel {...splitKey(backLabel)} /> : <KeyedLabel label="Whole window" shortcut="f" />}
        </button>
      )}
      <span className="muted">arrows pan</span>
      {labelPx !== null && (
        <span className={small ? 'muted graph-zoom__size graph-zoom__size--small' : 'muted graph-zoom__size'} data-testid="graph-label-size">
          labels {labelPx.toFixed(small ? 1 : 0)} px{small ? ': hover a node for its name' : ''}
        </span>
      )}
    </div>
  );
}

/**
 * A button's words and its key, the key as a key cap after them ("Whole graph [0]"): "Whole graph (0)" read as a
 * graph of nothing. The cap is hidden from screen readers; the button says its key in aria-keyshortcuts.
 */
export function KeyedLabel({ label, shortcut }: { readonly label: string; readonly shortcut: string | null }) {
  return (
    <>
      {label}
      {shortcut !== null && (
        <kbd className="graph-zoom__key" aria-hidden="true">
          {shortcut}
        </kbd>
      )}
    </>
  );
}

/** A caller's words with their key in brackets at the end ("Back to the case (Esc)") as words and key. */
function splitKey(text: string): { readonly label: string; readonly shortcut: string | null } {
  const m = /^(.*\S)\s+\(([^()\s]{1,5})\)$/u.exec(text);
  return m ? { label: m[1] ?? text, shortcut: m[2] ?? null } : { label: text, shortcut: null };
}

/** A node's whole name beside it (inside a positioned frame around the canvas). */
export function GraphNodeName({ hover }: { readonly hover: HoverName | null }) {
  if (!hover) return null;
  return (
    <div className="graph-zoom__name" role="tooltip" style={{ left: hover.x, top: hover.y }} data-testid="graph-node-name">
      {hover.text}
    </div>
  );
}
