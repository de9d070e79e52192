// The graphs' readability rule, shared by the Cases causal graph and the Lineage provenance graph: a fit never draws labels
// under MIN_LABEL_PX on screen (the zoom floor is MIN_LABEL_PX over the graph's label size), labels under HIDE_LABEL_PX are
// not drawn at all (the whole name shows on hover), and the toolbar's keys (+, −, arrows, s, 0, f) move the view.
import type { Position } from 'cytoscape';

/** The smallest label, in screen pixels, a fit shows: below it bold 10 px system-ui stops being read at a glance. */
export const MIN_LABEL_PX = 10;
/** Labels smaller than this on screen (zoomed out by hand, or the whole graph) are not drawn; a node's name shows on hover. */
export const HIDE_LABEL_PX = 8;

/** The smallest zoom a fit may choose for labels of `fontSize` graph units (10 px on screen). */
export function minFitZoom(fontSize: number): number {
  return MIN_LABEL_PX / fontSize;
}

/** The labels' size on screen at `zoom`, to a tenth of a pixel (what the toolbar prints). */
export function labelPxAt(zoom: number, fontSize: number): number {
  return Math.round(zoom * fontSize * 10) / 10;
}

/**
 * When fitting the shown elements needed a zoom below `floor`: that zoom instead, with the elements' left edge at the
 * panel's left (plus `padding`) and their middle, or their top when they are taller, in view; null when the fit is
 * readable as it is.
 */
export function readableViewAt(
  fitZoom: number,
  b: { readonly x1: number; readonly y1: number; readonly y2: number },
  height: number,
  floor: number,
  padding: number,
): { zoom: number; pan: Position } | null {
  if (fitZoom >= floor) return null;
  const z = floor;
  const tall = (b.y2 - b.y1) * z > height - 2 * padding;
  return { zoom: z, pan: { x: padding - b.x1 * z, y: tall ? padding - b.y1 * z : height / 2 - ((b.y1 + b.y2) / 2) * z } };
}

type Box = { readonly x1: number; readonly x2: number; readonly y1: number; readonly y2: number };

/**
 * The view at `zoom` that keeps the box `b` centred in a panel of `size`, or from its left (its top) along an axis where it
 * is wider (taller) than the panel: the focus shown at the floor without zooming in past it. With `within` (the whole
 * graph), the view is then moved no further than leaves empty panel beside the graph, so as much of it as fits stays in view.
 */
export function centredViewAt(b: Box, size: { readonly width: number; readonly height: number }, zoom: number, padding: number, within?: Box): { zoom: number; pan: Position } {
  const along = (lo: number, hi: number, room: number, outerLo?: number, outerHi?: number): number => {
    const p = (hi - lo) * zoom > room - 2 * padding ? padding - lo * zoom : room / 2 - ((lo + hi) / 2) * zoom;
    if (outerLo === undefined || outerHi === undefined || (outerHi - outerLo) * zoom <= room - 2 * padding) return p;
    // The graph is larger than the panel: its left (top) edge no further right than the padding, its right no further left.
    return Math.min(padding - outerLo * zoom, Math.max(room - padding - outerHi * zoom, p));
  };
  return { zoom, pan: { x: along(b.x1, b.x2, size.width, within?.x1, within?.x2), y: along(b.y1, b.y2, size.height, within?.y1, within?.y2) } };
}

export interface GraphView {
  readonly zoom: number;
  readonly pan: Position;
}

/** One press of + or − zooms by this much. */
export const ZOOM_STEP = 1.25;
/** One press of an arrow pans by this many screen pixels. */
export const PAN_STEP = 80;

/**
 * What a key does in a graph's toolbar (the timeline's keys): + and − zoom about the panel's centre (within the graph's
 * zoom limits), the arrows pan, `s` shows the focus (a story, a highlighted path) at a readable size, `0` the whole graph
 * fitted however small, `f` the graph over the whole window (or back); null for any other key. A graph without one of
 * these views ignores its word.
 */
export function graphKey(key: string, view: GraphView, size: { readonly width: number; readonly height: number }, limits: { readonly min: number; readonly max: number }): GraphView | 'story' | 'whole' | 'expand' | null {
  const zoomTo = (factor: number): GraphView => {
    const zoom = Math.min(limits.max, Math.max(limits.min, view.zoom * factor));
    const cx = size.width / 2;
    const cy = size.height / 2;
    const k = zoom / view.zoom;
    return { zoom, pan: { x: cx - (cx - view.pan.x) * k, y: cy - (cy - view.pan.y) * k } };
  };
  switch (key) {
    case '+':
    case '=':
      return zoomTo(ZOOM_STEP);
    case '-':
    case '−':
      return zoomTo(1 / ZOOM_STEP);
    case 'ArrowLeft':
      return { zoom: view.zoom, pan: { x: view.pan.x + PAN_STEP, y: view.pan.y } };
    case 'ArrowRight':
      return { zoom: view.zoom, pan: { x: view.pan.x - PAN_STEP, y: view.pan.y } };
    case 'ArrowUp':
      return { zoom: view.zoom, pan: { x: view.pan.x, y: view.pan.y + PAN_STEP } };
    case 'ArrowDown':
      return { zoom: view.zoom, pan: { x: view.pan.x, y: view.pan.y - PAN_STEP } };
    case 's':
      return 'story';
    case '0':
      return 'whole';
    case 'f':
      return 'expand';
    default:
      return null;
  }
}
