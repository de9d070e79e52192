// Sigma detections of a case for the views: the summary rows of the analysis, and per event the rules that hit it.
import type { AnalysisView, DetectionSummary } from './types';

export const LEVEL_RANK: Readonly<Record<DetectionSummary['level'], number>> = { informational: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** The detection rows of a view (empty for cases analysed before Sigma, or with Sigma off). */
export function detectionsOf(view: AnalysisView | null): readonly DetectionSummary[] {
  const d = view?.detections;
  return Array.isArray(d) ? d : [];
}

/** Per event id, the rules that hit it, most severe first (from each rule's listed events). */
export function detectionsByEvent(rows: readonly DetectionSummary[]): ReadonlyMap<string, readonly DetectionSummary[]> {
  const out = new Map<string, DetectionSummary[]>();
  for (const r of rows) {
    for (const id of r.eventIds) {
      const list = out.get(id);
      if (list) list.push(r);
      else out.set(id, [r]);
    }
  }
  for (const list of out.values()) list.sort((a, b) => LEVEL_RANK[b.level] - LEVEL_RANK[a.level]);
  return out;
}
