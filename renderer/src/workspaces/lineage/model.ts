// The Lineage workspace's pure pieces: the layered layout (commit -> dependency -> layer -> image -> service -> container), what is drawn of a large graph, highlights, counts.
import { utcTime } from '../../components/time';
import { counted } from '../../components/wording';
import type { Decision, Finding, GraphEdge, GraphNode, NodeKind, Reason, RunGraph, ScenarioName, Severity, Verdict } from '../../../../engines/core/contracts/provgate';
import { minFitZoom } from '../../components/graph-readable';

/** The scenarios POST /v1/demo/{scenario} runs, with what each shows (the service checks the verdict it must give). */
export const SCENARIOS: ReadonlyArray<{ readonly name: ScenarioName; readonly expected: Verdict; readonly what: string }> = [
  { name: 'cve-origin', expected: 'block', what: 'a critical CVE traced to the PR that brought it' },
  { name: 'malicious-dep', expected: 'block', what: 'a typosquatted dependency' },
  { name: 'unreachable', expected: 'warn', what: 'a critical CVE no container loads' },
  { name: 'tampered', expected: 'block', what: 'a scan changed after signing' },
  { name: 'unsigned-missing', expected: 'block', what: 'no scan event at all' },
  { name: 'clean', expected: 'pass', what: 'nothing to report' },
];

/** Columns of the drawing, left to right; files sit with the dependencies their commit touched, builds with the layers. */
export const COLUMN: Readonly<Record<NodeKind, number>> = { commit: 0, file: 1, dependency: 1, build: 2, layer: 2, image: 3, service: 4, container: 5 };
export const COLUMN_TITLES: readonly string[] = ['commit', 'dependency · file', 'layer · build', 'image', 'service', 'container'];
/** Within a column, this kind order first (the spec's chain before the side nodes). */
const KIND_ORDER: Readonly<Record<NodeKind, number>> = { commit: 0, dependency: 0, file: 1, layer: 0, build: 1, image: 0, service: 0, container: 0 };

export const X_GAP = 175;
export const Y_GAP = 42;
/** A column taller than this many rows wraps into side-by-side sub-columns this far apart (an image SBOM has hundreds of packages). */
export const MAX_ROWS = 24;
export const SUB_GAP = 150;

/** Above this many drawn nodes a highlight also zooms the view to what it marks (a whole large graph is only an overview). */
export const ZOOM_TO_HIGHLIGHT = 80;

/** The graph's labels in graph units; a fit never draws them under MIN_LABEL_PX on screen (the Cases graph's rule). */
export const LINEAGE_FONT_SIZE = 12;
/** The smallest zoom a fit chooses: 12 px labels at 10 px on screen. */
export const LINEAGE_MIN_FIT_ZOOM = minFitZoom(LINEAGE_FONT_SIZE);

/** Most nodes drawn at once; beyond this the reasons' paths, findings and the downstream kinds are drawn first. */
export const MAX_DRAWN = 1500;

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { low: 0, medium: 1, high: 2, critical: 3 };
const VERDICT_RANK: Readonly<Record<Verdict, number>> = { pass: 0, warn: 1, block: 2 };

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 run", "2 runs": the app's one counted wording (components/wording.ts). */
export { counted as plural } from '../../components/wording';

/** Reasons, blocking first, in their order otherwise (the service's order is the rules' registry order). */
export function orderedReasons(d: Decision): Reason[] {
  return d.reasons.map((r, i) => ({ r, i })).sort((a, b) => VERDICT_RANK[b.r.verdict] - VERDICT_RANK[a.r.verdict] || a.i - b.i).map((x) => x.r);
}

/** The strictest severity of each node's findings. */
export function findingSeverity(findings: readonly Finding[]): Map<string, Severity> {
  const out = new Map<string, Severity>();
  for (const f of findings) {
    const prev = out.get(f.nodeId);
    if (prev === undefined || SEVERITY_RANK[f.severity] > SEVERITY_RANK[prev]) out.set(f.nodeId, f.severity);
  }
  return out;
}

/**
 * What is drawn: every node when the graph is small; else, up to `max`, the commits, then each reason's path with what lies
 * downstream of it (blocking reasons first), then the findings' nodes with theirs, then the rest by kind (downstream kinds
 * first). Neighbourhoods keep the drawing connected; the edges are those between drawn nodes.
 */
export function drawnSubgraph(doc: Pick<RunGraph, 'nodes' | 'edges' | 'findings' | 'decision'>, max = MAX_DRAWN): { nodes: GraphNode[]; edges: GraphEdge[]; omitted: number } {
  if (doc.nodes.length <= max) return { nodes: [...doc.nodes], edges: [...doc.edges], omitted: 0 };
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const out = new Map<string, string[]>();
  for (const e of doc.edges) (out.get(e.from) ?? out.set(e.from, []).get(e.from))?.push(e.to);
  const keep = new Set<string>();
  const take = (id: string): boolean => {
    if (keep.size >= max) return false;
    if (byId.has(id)) keep.add(id);
    return true;
  };
  /** The node and, breadth first, what lies downstream of it, while there is room. */
  const withDownstream = (id: string): void => {
    const queue = [id];
    const queued = new Set(queue);
    for (let i = 0; i < queue.length && keep.size < max; i++) {
      const at = queue[i] as string;
      take(at);
      for (const next of out.get(at) ?? []) {
        if (keep.has(next) || queued.has(next) || queue.length >= max) continue;
        queued.add(next);
        queue.push(next);
      }
    }
  };
  for (const n of doc.nodes) if (n.kind === 'commit' && keep.size < max / 10) take(n.id);
  for (const r of orderedReasons(doc.decision)) {
    if (keep.size >= max) break;
    r.pathIds.forEach((id) => take(id));
    const last = r.pathIds.at(-1);
    if (last !== undefined) withDownstream(last);
  }
  for (const f of doc.findings) {
    if (keep.size >= max) break;
    withDownstream(f.nodeId);
  }
  const priority: readonly NodeKind[] = ['service', 'image', 'container', 'layer', 'build', 'dependency', 'file'];
  for (const kind of priority) for (const n of doc.nodes) if (n.kind === kind) take(n.id);
  const nodes = doc.nodes.filter((n) => keep.has(n.id));
  const edges = doc.edges.filter((e) => keep.has(e.from) && keep.has(e.to));
  return { nodes, edges, omitted: doc.nodes.length - nodes.length };
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface LayeredLayout {
  readonly positions: Map<string, Point>;
  /** Each column's centre (x) and the sub-columns it was wrapped into. */
  readonly columns: ReadonlyArray<{ readonly x: number; readonly wraps: number }>;
  /** Rows of the tallest (wrapped) column. */
  readonly rows: number;
}

/** `layeredLayout(...).positions`. */
export function layeredPositions(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): Map<string, Point> {
  return layeredLayout(nodes, edges).positions;
}

/**
 * A layered layout, left to right by kind: within a column nodes are ordered by the mean place of their neighbours in the
 * previous column (a forward, a backward and a forward sweep), so edges cross little; a column of more than `maxRows`
 * nodes wraps, in that order, into sub-columns; then the columns are centred vertically.
 */
export function layeredLayout(nodes: readonly GraphNode[], edges: readonly GraphEdge[], maxRows = MAX_ROWS): LayeredLayout {
  const columns: GraphNode[][] = COLUMN_TITLES.map(() => []);
  for (const n of nodes) columns[COLUMN[n.kind]]?.push(n);
  const preds = new Map<string, string[]>();
  const succs = new Map<string, string[]>();
  for (const e of edges) {
    (preds.get(e.to) ?? preds.set(e.to, []).get(e.to))?.push(e.from);
    (succs.get(e.from) ?? succs.set(e.from, []).get(e.from))?.push(e.to);
  }
  const rank = new Map<string, number>();
  for (const col of columns) {
    col.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) || (a.id < b.id ? -1 : 1));
    col.forEach((n, i) => rank.set(n.id, i));
  }
  const sweep = (col: GraphNode[], neighbours: Map<string, string[]>): void => {
    const key = new Map<string, number>();
    for (const n of col) {
      const places = (neighbours.get(n.id) ?? []).map((id) => rank.get(id)).filter((v): v is number => v !== undefined);
      key.set(n.id, places.length === 0 ? (rank.get(n.id) ?? 0) : places.reduce((a, b) => a + b, 0) / places.length);
    }
    col.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (key.get(a.id) ?? 0) - (key.get(b.id) ?? 0) || (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    col.forEach((n, i) => rank.set(n.id, i));
  };
  for (let c = 1; c < columns.length; c++) sweep(columns[c] ?? [], preds);
  for (let c = columns.length - 2; c >= 0; c--) sweep(columns[c] ?? [], succs);
  for (let c = 1; c < columns.length; c++) sweep(columns[c] ?? [], preds);
  // A very tall column may have taller sub-columns, so the drawing stays near a landscape box rather than a thin band.
  const largest = Math.max(0, ...columns.map((c) => c.length));
  const cap = Math.max(maxRows, Math.ceil(Math.sqrt((largest * SUB_GAP) / Y_GAP)));
  const shape = columns.map((col) => {
    const wraps = Math.max(1, Math.ceil(col.length / cap));
    return { wraps, rows: Math.ceil(col.length / wraps) };
  });
  const tallest = Math.max(1, ...shape.map((s) => s.rows));
  const out = new Map<string, Point>();
  const centres: Array<{ x: number; wraps: number }> = [];
  let start = 0;
  columns.forEach((col, c) => {
    const { wraps, rows } = shape[c] ?? { wraps: 1, rows: col.length };
    const offset = ((tallest - rows) * Y_GAP) / 2;
    col.forEach((n, i) => out.set(n.id, { x: start + Math.floor(i / Math.max(1, rows)) * SUB_GAP, y: offset + (i % Math.max(1, rows)) * Y_GAP }));
    centres.push({ x: start + ((wraps - 1) * SUB_GAP) / 2, wraps });
    start += (wraps - 1) * SUB_GAP + X_GAP;
  });
  return { positions: out, columns: centres, rows: tallest };
}

/** Every node downstream of the given ones (not including them), over the drawn edges. */
export function downstream(start: Iterable<string>, edges: readonly GraphEdge[]): Set<string> {
  const out = new Map<string, string[]>();
  for (const e of edges) (out.get(e.from) ?? out.set(e.from, []).get(e.from))?.push(e.to);
  const seen = new Set<string>();
  const stack = [...start];
  const origin = new Set(stack);
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const next of out.get(id) ?? []) {
      if (seen.has(next) || origin.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
}

/** What the graph highlights: a path (origin first) with what lies downstream of its end, or a layer's blast radius. */
export type Highlight =
  | { readonly kind: 'path'; readonly pathIds: readonly string[]; readonly downstream: ReadonlySet<string> }
  | { readonly kind: 'blast'; readonly layerIds: readonly string[]; readonly reached: ReadonlySet<string> }
  | { readonly kind: 'node'; readonly id: string };

/** Edge keys (`from>to`) between consecutive path nodes. */
export function pathEdgeKeys(pathIds: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < pathIds.length; i++) out.add(`${pathIds[i - 1]}>${pathIds[i]}`);
  return out;
}

export function pathHighlight(pathIds: readonly string[], edges: readonly GraphEdge[]): Highlight {
  const last = pathIds.at(-1);
  return { kind: 'path', pathIds, downstream: last === undefined ? new Set() : downstream([last], edges) };
}

/** A short label for the drawing: digests cut to 12 hex digits, a commit with its PR, long names cut with an ellipsis. */
export function shortLabel(n: GraphNode): string {
  let label = n.kind === 'layer' || /^sha256:[0-9a-f]{13,}$/.test(n.label) ? n.label.replace(/^(sha256:[0-9a-f]{12})[0-9a-f]+$/, '$1') : n.label;
  const pr = n.attrs['pr'];
  if (n.kind === 'commit' && typeof pr === 'number') label = `${label} #${pr}`;
  return label.length > 34 ? `${label.slice(0, 33)}…` : label;
}

/** A node's attributes as rows to show: scalar values and lists of strings; nested objects are summarised. */
export function attrRows(n: GraphNode): Array<{ readonly key: string; readonly value: string }> {
  const rows: Array<{ key: string; value: string }> = [];
  for (const [key, v] of Object.entries(n.attrs)) {
    if (v === null || v === undefined) continue;
    let value: string;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') value = String(v);
    else if (Array.isArray(v)) value = v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.join(', ') : counted(v.length, 'item');
    else value = counted(Object.keys(v as object).length, 'field');
    rows.push({ key, value: value.length > 300 ? `${value.slice(0, 299)}…` : value });
  }
  return rows;
}

export interface LayerRow {
  readonly id: string;
  readonly digest: string;
  readonly label: string;
  /** What created it (the Dockerfile step), when the SBOM said. */
  readonly title: string;
  /** Images that have the layer (directly, by layer_of edges). */
  readonly images: number;
}

/** The run's layers, most shared first (a base layer's blast radius is the one people ask about). */
export function layerRows(doc: Pick<RunGraph, 'nodes' | 'edges'>): LayerRow[] {
  const images = new Map<string, number>();
  for (const e of doc.edges) if (e.rel === 'layer_of') images.set(e.from, (images.get(e.from) ?? 0) + 1);
  return doc.nodes
    .filter((n) => n.kind === 'layer')
    .map((n) => {
      const digest = String(n.attrs['digest'] ?? n.label);
      const createdBy = typeof n.attrs['createdBy'] === 'string' ? n.attrs['createdBy'] : '';
      return { id: n.id, digest, label: shortLabel(n), title: createdBy ? `${digest}\n${createdBy}` : digest, images: images.get(n.id) ?? 0 };
    })
    .sort((a, b) => b.images - a.images || (a.digest < b.digest ? -1 : 1));
}

/** A file name for the run's Cypher export. */
export function cypherFileName(runId: string): string {
  return `provgate-${runId.slice(0, 8)}.cypher`;
}

/** A rejected envelope's reason without the `envelope[i]: ` the service starts it with (the list shows the index already). */
export function rejectionReason(index: number, reason: string): string {
  const prefix = `envelope[${index}]: `;
  return reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
}

/** A run's time as UTC to the second (components/time.ts). */
export function when(iso: string): string {
  return utcTime(iso) || '–';
}

/** Parses an envelope file's text: a JSON list, or a clear reason (nothing is sent for a file that is not one). */
export function parseEnvelopeFile(text: string): { ok: true; value: unknown[] } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not JSON. The gate takes a JSON list of signed envelopes (DSSE or the gate layout), as `provgate synth`, `sign` or `merge` write.' };
  }
  if (!Array.isArray(value)) return { ok: false, message: 'The file is JSON but not a list. The gate takes a JSON list of signed envelopes.' };
  if (value.length === 0) return { ok: false, message: 'The list is empty: there is nothing to gate.' };
  return { ok: true, value };
}

/** 64 MB: the service's body limit for POST /v1/gate. */
export const MAX_GATE_FILE = 64 * 1000 * 1000;

/** One line of the PR comment Markdown, read for the preview (no HTML is ever produced from it). */
export type CommentLine =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'item'; readonly depth: number; readonly parts: readonly CommentPart[] }
  | { readonly kind: 'text'; readonly parts: readonly CommentPart[] };
export type CommentPart = { readonly kind: 'text' | 'strong' | 'code'; readonly text: string };

export function decodeNumericRefs(text: string): string {
  return text.replace(/&#(\d{1,6});/g, (ref, code: string) => {
    const n = Number(code);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : ref;
  });
}

/** Splits inline Markdown into plain, **strong** and `code` parts (the subset prComment writes). */
export function inlineParts(text: string): CommentPart[] {
  const parts: CommentPart[] = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`/g;
  let at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index > at) parts.push({ kind: 'text', text: text.slice(at, m.index) });
    parts.push(m[1] !== undefined ? { kind: 'strong', text: m[1] } : { kind: 'code', text: m[2] ?? '' });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  // prComment writes event text with Markdown's special characters as numeric references: shown as the characters, as text.
  return parts.map((p) => ({ ...p, text: decodeNumericRefs(p.text) }));
}

export function commentLines(markdown: string): CommentLine[] {
  const out: CommentLine[] = [];
  for (const raw of markdown.split('\n')) {
    if (raw.trim() === '') continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(raw);
    if (heading) {
      out.push({ kind: 'heading', text: heading[1] ?? '' });
      continue;
    }
    const item = /^(\s*)- (.*)$/.exec(raw);
    if (item) {
      out.push({ kind: 'item', depth: Math.floor((item[1] ?? '').length / 2), parts: inlineParts(item[2] ?? '') });
      continue;
    }
    out.push({ kind: 'text', parts: inlineParts(raw) });
  }
  return out;
}
