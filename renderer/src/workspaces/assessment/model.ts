// Pure views of an assessment for the workspace: parsing the editor's text, ranked rows, the evidence-by-actor matrix, graph elements.
import type { Assessment, Contribution, EvidenceRow, Hypothesis } from '../../../../engines/core/contracts/caseassess';
import { sourceLabel } from '../../components/sourceLabel';

export type ParsedCase = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** Largest case file the workspace reads from disk; real cases are a few kilobytes. */
export const MAX_CASE_BYTES = 5 * 1024 * 1024;

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/**
 * Parses the editor's text. The browser's own JSON message can quote the text, so only the place is
 * reported, in our words.
 */
export function parseCaseText(text: string): ParsedCase {
  if (text.trim() === '') return { ok: false, message: 'The editor is empty: load a case file, paste one, or use the sample case.' };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, message: 'A case file is one JSON object ({ "case_id": …, "techniques": [ … ] }).' };
    return { ok: true, value };
  } catch (err) {
    const msg = err instanceof Error ? err.message : '';
    const pos = /position (\d+)/.exec(msg);
    const lc = /line (\d+) column (\d+)/.exec(msg);
    if (lc) return { ok: false, message: `The text is not valid JSON (line ${lc[1]}, column ${lc[2]}).` };
    if (pos) {
      const { line, column } = lineColumn(text, Number(pos[1]));
      return { ok: false, message: `The text is not valid JSON (line ${line}, column ${column}).` };
    }
    if (/end of (json )?input|unterminated/i.test(msg)) return { ok: false, message: 'The text is not valid JSON (it ends too early).' };
    return { ok: false, message: 'The text is not valid JSON.' };
  }
}

/** Leading first, then the alternatives, in rank order. */
export function rankedHypotheses(a: Assessment): Hypothesis[] {
  return [a.leading, ...a.alternatives].sort((x, y) => x.rank - y.rank);
}

export function hypothesisLabel(h: Hypothesis): string {
  return h.name || (h.kind === 'unlisted' ? 'Unlisted actor' : h.attack_id);
}

/** Words for a probability, as a percentage with no false precision. */
export function percent(p: number): string {
  if (!Number.isFinite(p)) return '–';
  if (p > 0 && p < 0.01) return '<1%';
  if (p < 1 && p > 0.99) return '>99%';
  return `${Math.round(p * 100)}%`;
}

export function signed(v: number, digits = 2): string {
  const s = Math.abs(v).toFixed(digits);
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : s;
}

/** Segments of a diverging contribution bar: supports to the right of zero, contradictions to the left. */
export interface BarSegment {
  /** Empty for the base segment. */
  readonly evidence_id: string;
  /** `base`: the part of support or contradiction not tied to one piece of evidence (the unlisted actor's prior). */
  readonly match: Contribution['match'] | 'base';
  readonly value: number;
  /** Offset and width as fractions of the half-width (0..1). */
  readonly start: number;
  readonly width: number;
}

const BASE_MIN = 0.01;

export function barSegments(h: Hypothesis, scale: number): { positive: BarSegment[]; negative: BarSegment[] } {
  const positive: BarSegment[] = [];
  const negative: BarSegment[] = [];
  let pos = 0;
  let neg = 0;
  const s = scale > 0 ? scale : 1;
  for (const c of h.contributions) {
    if (c.value > 0) {
      positive.push({ evidence_id: c.evidence_id, match: c.match, value: c.value, start: pos / s, width: c.value / s });
      pos += c.value;
    } else if (c.value < 0) {
      negative.push({ evidence_id: c.evidence_id, match: c.match, value: c.value, start: neg / s, width: -c.value / s });
      neg -= c.value;
    }
  }
  // The totals may hold more than the listed contributions (a prior); show the rest so the bar's length is the total.
  // Below BASE_MIN the difference is the service's rounding of each contribution, not a prior.
  const restPos = h.support - pos;
  if (restPos > BASE_MIN) positive.push({ evidence_id: '', match: 'base', value: restPos, start: pos / s, width: restPos / s });
  const restNeg = h.contradiction - neg;
  if (restNeg > BASE_MIN) negative.push({ evidence_id: '', match: 'base', value: -restNeg, start: neg / s, width: restNeg / s });
  return { positive, negative };
}

/** The scale of one side of the bars: the largest support (or contradiction) among the shown hypotheses. */
export function barScale(hs: readonly Hypothesis[], side: 'support' | 'contradiction'): number {
  let m = 0;
  for (const h of hs) m = Math.max(m, h[side]);
  return m;
}

/** A cell's number: one decimal, two when it would otherwise read as zero. */
export function cellText(v: number): string {
  return v === 0 ? '' : signed(v, Math.abs(v) < 0.05 ? 2 : 1);
}

export interface Matrix {
  readonly rows: readonly EvidenceRow[];
  readonly columns: readonly Hypothesis[];
  /** cells[row][column]: the contribution of that evidence to that hypothesis (0 when none). */
  readonly cells: readonly (readonly number[])[];
  /** Largest absolute cell, for the colour scale. */
  readonly max: number;
}

/** Evidence (rows, case order) by the top hypotheses (columns, rank order). */
export function evidenceMatrix(a: Assessment, topN: number): Matrix {
  const columns = rankedHypotheses(a).slice(0, topN);
  const rows = a.evidence;
  let max = 0;
  const cells = rows.map((r) =>
    columns.map((h) => {
      let v = 0;
      for (const c of h.contributions) if (c.evidence_id === r.evidence_id) v += c.value;
      max = Math.max(max, Math.abs(v));
      return v;
    }),
  );
  return { rows, columns, cells, max };
}

/** Cell background: the contribution's sign picks the hue, its size the strength. */
export function cellShade(v: number, max: number): { tone: 'pos' | 'neg' | 'none'; strength: number } {
  if (v === 0 || max <= 0) return { tone: 'none', strength: 0 };
  // sqrt keeps small contributions visible next to one dominant item.
  return { tone: v > 0 ? 'pos' : 'neg', strength: Math.min(1, Math.sqrt(Math.abs(v) / max)) };
}

export interface GraphNode {
  readonly id: string;
  readonly label: string;
  readonly side: 'evidence' | 'actor';
  readonly index: number;
}

export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly value: number;
  /** |value| relative to the largest edge, 0..1. */
  readonly weight: number;
}

/**
 * Evidence that bears on the top actors -> those actors, one edge per contribution of at least
 * `minShare` of the largest: the picture shows what matters, the matrix keeps every number.
 */
export function graphModel(a: Assessment, topN: number, minShare = 0): { nodes: GraphNode[]; edges: GraphEdge[]; omitted: number } {
  const m = evidenceMatrix(a, topN);
  const edges: GraphEdge[] = [];
  const used = new Set<string>();
  let omitted = 0;
  m.rows.forEach((r, i) =>
    m.columns.forEach((h, j) => {
      const v = m.cells[i]?.[j] ?? 0;
      if (v === 0) return;
      if (Math.abs(v) < minShare * m.max) {
        omitted++;
        return;
      }
      used.add(r.evidence_id);
      edges.push({ id: `${r.evidence_id}->${h.attack_id}`, source: `ev:${r.evidence_id}`, target: `hy:${h.attack_id}`, value: v, weight: m.max > 0 ? Math.abs(v) / m.max : 0 });
    }),
  );
  const evidence = m.rows.filter((r) => used.has(r.evidence_id));
  const nodes: GraphNode[] = [
    ...evidence.map((r, i): GraphNode => ({ id: `ev:${r.evidence_id}`, label: `${r.evidence_id} ${r.resolved_name ?? r.resolved_id ?? r.given}`, side: 'evidence', index: i })),
    ...m.columns.map((h, i): GraphNode => ({ id: `hy:${h.attack_id}`, label: hypothesisLabel(h), side: 'actor', index: i })),
  ];
  return { nodes, edges, omitted };
}

/** True when a hypothesis matches the workspace filter (name, alias, ATT&CK id, sponsor). */
export function matchesFilter(h: Hypothesis, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return [h.name, h.attack_id, h.sponsor_state ?? '', ...h.aliases].some((s) => s.toLowerCase().includes(f));
}

/** A file name for a download: the case id with anything unusual replaced. */
export function downloadName(caseId: string, suffix: string): string {
  const safe = caseId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'case';
  return `${safe}-${suffix}.json`;
}

/** One evidence item of the editor's case that says where it came from. */
export interface CaseSource {
  readonly evidence_id: string;
  readonly kind: string;
  readonly value: string;
  /** `replay story “Beacon to 10.0.0.5”` (the finding's title from the item's note), else `replay story 3` (components/sourceLabel.ts). */
  readonly label: string;
  /** The whole source line, for hover. */
  readonly full: string;
  /** `#/replay/story/3` or an http(s) URL, when the sender gave one. */
  readonly link?: string;
}

const SOURCE_LISTS: readonly [string, string][] = [
  ['techniques', 'technique'],
  ['software', 'software'],
  ['indicators', 'indicator'],
  ['sectors', 'sector'],
  ['regions', 'region'],
];

/** The items of a case (as the editor holds it, unchecked) that carry a `source`: what they are and a link back to where they came from. */
export function caseSources(kase: unknown): CaseSource[] {
  if (typeof kase !== 'object' || kase === null) return [];
  const out: CaseSource[] = [];
  for (const [key, kind] of SOURCE_LISTS) {
    const list = (kase as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    for (const raw of list as unknown[]) {
      if (typeof raw !== 'object' || raw === null) continue;
      const item = raw as Record<string, unknown>;
      const src = item['source'];
      if (typeof src !== 'object' || src === null) continue;
      const s = src as Record<string, unknown>;
      if (typeof s['service'] !== 'string' || typeof s['kind'] !== 'string' || typeof s['id'] !== 'string') continue;
      const link = typeof s['link'] === 'string' && /^(#\/|https?:\/\/)\S*$/.test(s['link']) ? s['link'] : undefined;
      const value = kind === 'indicator' ? `${String(item['type'])} ${String(item['value'])}` : String(item['id'] ?? item['name'] ?? '');
      // Send to writes the item's note as `Sent from <service> <kind> <id> "<title>" (<link>)`: the title names it.
      const note = typeof item['note'] === 'string' && item['note'].startsWith(`Sent from ${s['service']} ${s['kind']} `) ? item['note'] : `Sent from ${s['service']} ${s['kind']} ${s['id']}`;
      const named = sourceLabel(note);
      out.push({ evidence_id: String(item['evidence_id'] ?? ''), kind, value: value.slice(0, 200), label: named?.label ?? `${s['service']} ${s['kind']}`, full: named?.full ?? note, ...(link !== undefined ? { link } : {}) });
    }
  }
  return out;
}

/** The origin of the shipped sample case (the other origins name a file, a stored case or a bundle). */
export const SAMPLE_ORIGIN = 'sample case';

/** The case by where it came from: "the sample case" (not "the case from sample case"), "the case from intrusion.json". */
function theCase(origin: string): string {
  return origin.startsWith(SAMPLE_ORIGIN) ? `the ${origin}` : `the case from ${origin}`;
}

/** The editor's note on where its text came from: "The sample case.", "From intrusion.json." (with a space after). */
export function originNote(origin: string | null): string {
  if (origin === null || origin === '') return '';
  return origin.startsWith(SAMPLE_ORIGIN) ? `The ${origin}. ` : `From ${origin}. `;
}

/** What the empty result says when the editor already holds a case (one sent from another workspace, a stored one, a file): that it waits to be run. */
export function caseWaiting(origin: string | null): string {
  if (origin === null || origin === '') return 'A case is in the editor, not assessed yet.';
  const named = theCase(origin);
  return `${named.charAt(0).toUpperCase()}${named.slice(1)} is in the editor, not assessed yet.`;
}

/** What the empty result says while the case in the editor is being assessed (never "press Run" while it runs). */
export function caseAssessing(origin: string | null): string {
  return origin !== null && origin !== '' ? `Assessing ${theCase(origin)}…` : 'Assessing the case in the editor…';
}
