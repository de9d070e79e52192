// The Cases workspace's pure pieces: the timeline index (sorted times, windows by binary search, density), zoom, virtual rows, the graph to draw, names of exports.
import type { AnalysisView, CausalEdge, ConfidenceBreakdown, ExportedEvent, GraphNode, Story } from '../../../../engines/core/contracts/forensic';
import { utcTime } from '../../components/time';

/** Events sorted by time (timeless ones last) with their times in ms, for windowing by binary search. */
export interface TimelineIndex {
  readonly events: readonly ExportedEvent[];
  /** Milliseconds since the epoch, ascending; NaN entries (no time) only after the last timed one. */
  readonly times: Float64Array;
  /** How many events have a time (they come first). */
  readonly timed: number;
  readonly min: number;
  readonly max: number;
}

export function buildTimeline(events: readonly ExportedEvent[]): TimelineIndex {
  const withTime = events.map((e) => ({ e, t: e.time.time === null ? Number.NaN : Date.parse(e.time.time) }));
  withTime.sort((a, b) => (Number.isNaN(a.t) ? (Number.isNaN(b.t) ? 0 : 1) : Number.isNaN(b.t) ? -1 : a.t - b.t));
  const times = new Float64Array(withTime.length);
  let timed = 0;
  withTime.forEach((x, i) => {
    times[i] = x.t;
    if (!Number.isNaN(x.t)) timed = i + 1;
  });
  const min = timed > 0 ? (times[0] as number) : 0;
  const max = timed > 0 ? (times[timed - 1] as number) : 0;
  return { events: withTime.map((x) => x.e), times, timed, min, max };
}

/** First index whose time is >= t among the timed events. */
export function lowerBound(times: Float64Array, timed: number, t: number): number {
  let lo = 0;
  let hi = timed;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Range {
  readonly from: number;
  readonly to: number;
}

/** The [start, end) indices of the events inside a time range (inclusive of both ends). */
export function windowOf(index: TimelineIndex, range: Range): { start: number; end: number } {
  const start = lowerBound(index.times, index.timed, range.from);
  const end = lowerBound(index.times, index.timed, range.to + 1);
  return { start, end };
}

/** The full extent of the timeline, padded so a single instant still has a width. */
export function fullRange(index: TimelineIndex): Range {
  if (index.timed === 0) return { from: 0, to: 1 };
  const pad = Math.max(1000, (index.max - index.min) * 0.01);
  return { from: index.min - pad, to: index.max + pad };
}

/** Smallest span a zoom may reach (one second). */
export const MIN_SPAN_MS = 1000;

/** Zooms by `factor` (< 1 in, > 1 out) around `anchor` (0..1 across the range), kept inside the full extent. */
export function zoom(range: Range, full: Range, factor: number, anchor = 0.5): Range {
  const span = range.to - range.from;
  const fullSpan = full.to - full.from;
  const next = Math.min(fullSpan, Math.max(MIN_SPAN_MS, span * factor));
  const at = range.from + span * Math.min(1, Math.max(0, anchor));
  let from = at - next * anchor;
  let to = from + next;
  if (from < full.from) {
    from = full.from;
    to = from + next;
  }
  if (to > full.to) {
    to = full.to;
    from = to - next;
  }
  return { from, to };
}

/** The span of a story's event times (ascending or not), padded by 5 % and at least MIN_SPAN_MS, inside the full extent. */
export function storyRange(times: readonly number[], full: Range): Range {
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of times) {
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  if (!Number.isFinite(lo)) return full;
  const pad = Math.max(MIN_SPAN_MS / 2, (hi - lo) * 0.05);
  return { from: Math.max(full.from, lo - pad), to: Math.min(full.to, hi + pad) };
}

/** Moves the range by `fraction` of its span, kept inside the full extent. */
export function pan(range: Range, full: Range, fraction: number): Range {
  const span = range.to - range.from;
  const shift = Math.min(full.to - range.to, Math.max(full.from - range.from, span * fraction));
  return { from: range.from + shift, to: range.to + shift };
}

/**
 * The positions in `index.events` of the events `keep` accepts, ascending (so in time order, timeless ones last): the one
 * filtered list that the timeline's rows, its count and its density strip all read, so they always agree.
 */
export function keptEvents(index: TimelineIndex, keep: (e: ExportedEvent, position: number) => boolean): Uint32Array {
  const out = new Uint32Array(index.events.length);
  let n = 0;
  index.events.forEach((e, i) => {
    if (keep(e, i)) out[n++] = i;
  });
  return out.subarray(0, n);
}

/** The kept positions inside the window [start, end) of the index: a view, found by binary search. */
export function keptInWindow(kept: Uint32Array, start: number, end: number): Uint32Array {
  const first = (at: number): number => {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((kept[mid] as number) < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return kept.subarray(first(start), first(end));
}

/** Event counts in `bins` equal slices of the range (the density strip): of every event, or only of the `kept` ones (see keptEvents). */
export function histogram(index: TimelineIndex, range: Range, bins: number, kept: Uint32Array | null = null): Uint32Array {
  const counts = new Uint32Array(Math.max(1, bins));
  const { start, end } = windowOf(index, range);
  const width = (range.to - range.from) / counts.length;
  const add = (i: number): void => {
    const b = Math.min(counts.length - 1, Math.floor(((index.times[i] as number) - range.from) / width));
    counts[b] = (counts[b] ?? 0) + 1;
  };
  if (kept === null) for (let i = start; i < end; i++) add(i);
  else for (const i of keptInWindow(kept, start, end)) add(i);
  return counts;
}

/** Which rows of a fixed-height list to render for a scroll position, with some rows either side. */
export function visibleRows(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 8): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { first, last: Math.max(first, last) };
}

/** Largest graph drawn; beyond it only the stories' nodes are drawn. */
export const MAX_GRAPH_NODES = 400;

export interface GraphPick {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly CausalEdge[];
  /** Nodes left out to keep the drawing readable. */
  readonly omitted: number;
}

/** The nodes and edges to draw: the whole graph when small, otherwise the nodes of the stories (selected first), capped. */
export function graphToDraw(view: AnalysisView, selected: Story | null, max = MAX_GRAPH_NODES): GraphPick {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  let ids: string[];
  if (view.nodes.length <= max) ids = view.nodes.map((n) => n.id);
  else {
    const ordered = [...(selected ? [selected] : []), ...view.stories.filter((s) => s !== selected)];
    const chosen = new Set<string>();
    for (const s of ordered) for (const id of [s.rootNodeId, ...s.nodeIds]) if (chosen.size < max && byId.has(id)) chosen.add(id);
    ids = [...chosen];
  }
  const keep = new Set(ids);
  return {
    nodes: ids.map((id) => byId.get(id)).filter((n): n is GraphNode => n !== undefined),
    edges: view.edges.filter((e) => keep.has(e.from) && keep.has(e.to)),
    omitted: view.nodes.length - keep.size,
  };
}

/** The four terms, the penalty and the score of a breakdown, labelled for the chart. */
export function breakdownBars(c: ConfidenceBreakdown): [string, number][] {
  return [
    ['Reliability', c.reliability],
    ['Corroboration', c.corroboration],
    ['Temporal fit', c.temporalFit],
    ['Edge strength', c.edgeStrength],
    ['Tampering penalty', c.penalty],
    ['Score', c.score],
  ];
}

/** "2024-03-04 09:12:00.000" from an ISO time, or a dash. */
export function shortTime(iso: string | null): string {
  return iso === null ? '—' : iso.replace('T', ' ').replace(/Z$/, '');
}

/** An evidence time outside a column headed (UTC): its full precision with the zone said (`2019-04-30 20:26:51.9810890 UTC`). */
export function zonedTime(iso: string | null): string {
  return iso === null ? '—' : `${shortTime(iso)} UTC`;
}

/** A time range as text for the zoom bar. */
export function rangeText(range: Range): string {
  const fmt = (ms: number): string => (Number.isFinite(ms) && utcTime(ms, 'second', false)) || '—';
  return `${fmt(range.from)} – ${fmt(range.to)} UTC`;
}

/** File name of an export: case-<first 8 of id>.<ext>. */
export function exportName(caseId: string, ext: 'md' | 'html' | 'cypher' | 'json' | 'pdf' | 'layer.json'): string {
  return `case-${caseId.slice(0, 8)}.${ext === 'cypher' ? 'cypher' : ext}`;
}

/** Splits the path box into relative paths: one per line, blanks dropped; absolute paths are refused here as the service would. */
export function parsePaths(text: string): { ok: true; paths: string[] } | { ok: false; message: string } {
  const paths = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (paths.length === 0) return { ok: false, message: 'Give at least one path, relative to the evidence root.' };
  if (paths.some((p) => /^([A-Za-z]:)?[\\/]/.test(p))) return { ok: false, message: 'Paths are relative to the evidence root, not absolute.' };
  if (paths.length > 64) return { ok: false, message: 'At most 64 paths per case.' };
  return { ok: true, paths };
}

/** The fields of an event the timeline filter searches. */
function searchFields(e: ExportedEvent): string[] {
  return [e.summary, e.action, e.host ?? '', e.eventId, e.actor?.name ?? '', e.object?.name ?? ''];
}

/** Between the fields of a search text, so a filter never matches across two fields (a filter holding it is matched field by field). */
const FIELD_BREAK = '\u0000';

/** What the filter searches in one event: its fields, each lower-cased on its own, joined by FIELD_BREAK. */
export function searchText(e: ExportedEvent): string {
  return searchFields(e)
    .map((v) => v.toLowerCase())
    .join(FIELD_BREAK);
}

/** The filter as matched: trimmed and lower-cased; '' keeps every event. */
export function filterTerm(filter: string): string {
  return filter.trim().toLowerCase();
}

/** Whether an event whose search text is `text` holds the filter term `term` (from filterTerm) in one of its fields. */
export function textMatches(text: string, e: ExportedEvent, term: string): boolean {
  if (term === '') return true;
  if (!term.includes(FIELD_BREAK)) return text.includes(term);
  return searchFields(e).some((v) => v.toLowerCase().includes(term));
}

/** The search texts made so far for an index, in position order (all of them once their count is the index's). */
const SEARCH_TEXTS = new WeakMap<TimelineIndex, string[]>();

/** Search texts made between two looks at the clock when a slice is bounded in time (well under a millisecond of work). */
export const CLOCK_EVERY = 16;

/**
 * Makes up to `slice` more of the index's search texts (searchTexts), and says whether all are made: the timeline calls
 * it while the page is idle after a case opens, so the first filter typed seldom has to make them. With `timeLeft`
 * (milliseconds left in the slice) it stops as soon as that is 0 or less, looking each time CLOCK_EVERY more texts are
 * made: a slice overruns its time by at most that many texts, and makes at least that many, so every slice moves on.
 */
export function makeSearchTexts(index: TimelineIndex, slice: number, timeLeft?: () => number): boolean {
  let texts = SEARCH_TEXTS.get(index);
  if (texts === undefined) {
    texts = [];
    SEARCH_TEXTS.set(index, texts);
  }
  const end = Math.min(index.events.length, texts.length + slice);
  for (let i = texts.length, made = 1; i < end; i++, made++) {
    texts.push(searchText(index.events[i] as ExportedEvent));
    if (timeLeft !== undefined && made % CLOCK_EVERY === 0 && timeLeft() <= 0) break;
  }
  return texts.length === index.events.length;
}

/** The search texts made so far for the index, by position (fewer than its events until they are all made). */
export function searchTextsMade(index: TimelineIndex): readonly string[] {
  return SEARCH_TEXTS.get(index) ?? [];
}

/** The search text of each event of the index, by position: made once per index (the rest made now when the idle slices have not finished). */
export function searchTexts(index: TimelineIndex): readonly string[] {
  makeSearchTexts(index, index.events.length);
  return SEARCH_TEXTS.get(index) ?? [];
}

/** Case-insensitive match of an event against the timeline filter (one event; the timeline reads searchTexts). */
export function eventMatches(e: ExportedEvent, filter: string): boolean {
  return textMatches(searchText(e), e, filterTerm(filter));
}

/**
 * The title a finding sent from a case carries (Send to…, and the new case or matrix it may make): the case by its title,
 * as the Cases list shows it, then what was sent; the case's id only when it has no title (the link back keeps the id).
 */
export function findingTitle(caseTitle: string | undefined, caseId: string, what: string): string {
  const named = (caseTitle ?? '').replace(/\s+/gu, ' ').trim();
  const head = named !== '' ? (named.length > 120 ? `${named.slice(0, 119)}…` : named) : `Case ${caseId.slice(0, 8)}`;
  const text = `${head} · ${what}`;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** A story's or case's confidence grade in the shared severity badge (`.sev`, as Replay, Packages and detections draw theirs); CONFIRMED and a failed case as critical. */
export function gradeClass(grade: string | null): string {
  const g = (grade ?? 'none').toLowerCase();
  return `sev sev--${g === 'confirmed' || g === 'failed' ? 'critical' : g} grade grade--${g}`;
}
