// Scoring extraction against annotated reports: TRAM's MAT JSON (signal text + technique spans) read into gold spans; report-level and span-level precision and recall.
import type { Extraction } from '../../core/contracts/attrib.js';
import { VitrineError } from '../../core/errors.js';

export interface GoldSpan {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

export interface AnnotatedReport {
  readonly text: string;
  readonly spans: readonly GoldSpan[];
}

/**
 * A TRAM2 `.mjson` report (MITRE Annotation Toolkit JSON): `signal` is the text, each annotation set whose type
 * names a technique (`Process Injection (T1055)`) holds its spans; `[OTHER]` spans carry the id as their third value.
 */
export function readTramReport(json: unknown): AnnotatedReport {
  if (typeof json !== 'object' || json === null) throw new VitrineError('validation_failed', 'the report is not a MAT JSON object');
  const doc = json as { signal?: unknown; asets?: unknown };
  if (typeof doc.signal !== 'string' || !Array.isArray(doc.asets)) throw new VitrineError('validation_failed', 'the report has no signal text or annotation sets');
  const spans: GoldSpan[] = [];
  for (const set of doc.asets as unknown[]) {
    if (typeof set !== 'object' || set === null) continue;
    const { type, annots } = set as { type?: unknown; annots?: unknown };
    if (typeof type !== 'string' || !Array.isArray(annots)) continue;
    const named = /\((T\d{4}(?:\.\d{3})?)\)\s*$/.exec(type)?.[1];
    for (const a of annots as unknown[]) {
      if (!Array.isArray(a) || typeof a[0] !== 'number' || typeof a[1] !== 'number') continue;
      const id = named ?? (type === '[OTHER]' && typeof a[2] === 'string' && /^T\d{4}(\.\d{3})?$/.test(a[2]) ? a[2] : undefined);
      if (id !== undefined && a[0] >= 0 && a[1] <= doc.signal.length && a[0] < a[1]) spans.push({ id, start: a[0], end: a[1] });
    }
  }
  return { text: doc.signal, spans };
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export interface ExtractionScore {
  /** Technique ids per report: found vs annotated. */
  readonly report: Counts;
  /** A found span is right when it overlaps an annotated span of the same id; an annotated span is found when a found span of its id overlaps it. */
  readonly span: { readonly found: number; readonly correct: number; readonly annotated: number; readonly recalled: number };
}

/** Adds one report's comparison to `into`. */
export function scoreExtraction(gold: AnnotatedReport, e: Extraction, into: ExtractionScore = { report: { tp: 0, fp: 0, fn: 0 }, span: { found: 0, correct: 0, annotated: 0, recalled: 0 } }): ExtractionScore {
  const goldIds = new Set(gold.spans.map((s) => s.id));
  const foundIds = new Set(e.technique_summary.map((t) => t.id));
  const report = { ...into.report };
  for (const id of foundIds) if (goldIds.has(id)) report.tp++;
  else report.fp++;
  for (const id of goldIds) if (!foundIds.has(id)) report.fn++;
  const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;
  const correct = e.techniques.filter((t) => gold.spans.some((g) => g.id === t.id && overlaps(g, t))).length;
  const recalled = gold.spans.filter((g) => e.techniques.some((t) => t.id === g.id && overlaps(g, t))).length;
  return {
    report,
    span: { found: into.span.found + e.techniques.length, correct: into.span.correct + correct, annotated: into.span.annotated + gold.spans.length, recalled: into.span.recalled + recalled },
  };
}

export function precisionRecall(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
  const recall = c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}
