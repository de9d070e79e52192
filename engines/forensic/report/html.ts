// The court-style report as one self-contained HTML file: every value escaped, no script, the one style sheet allowed by its hash (strict CSP).
import { createHash } from 'node:crypto';
import type { AnalysisView, CustodyView } from '../../core/contracts/forensic.js';
import { escapeHtml } from '../../core/html.js';
import { buildReport, type Block, type ReportDocument, type ReportMeta, type StoryGraph } from './document.js';

export { escapeHtml };

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;background:#fff;margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;border-bottom:2px solid #1b1f24;padding-bottom:6px}
h2{font-size:18px;margin-top:32px;border-bottom:1px solid #c9ced6;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;width:100%;margin:6px 0 12px;font-size:12.5px}
th,td{border:1px solid #c9ced6;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eef1f5;white-space:nowrap}
caption{text-align:left;font-weight:600;padding:4px 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:11.5px}
.muted{color:#5a6270;font-style:italic}
svg{max-width:100%;height:auto;border:1px solid #e1e5eb;border-radius:4px;background:#fbfcfd}
nav ul{columns:2}
@media print{body{max-width:none;padding:0}h2{break-after:avoid}table{break-inside:auto}tr{break-inside:avoid}}
`.trim();

const META_CSP = [`default-src 'none'`, `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`].join('; ');

/** The Content-Security-Policy the report needs: nothing but its own style sheet (by hash) and inline SVG (the page's meta element repeats it, less frame-ancestors, which only a header can set). */
export const REPORT_CSP = `${META_CSP}; frame-ancestors 'none'`;

const NODE_COLOURS: Readonly<Record<string, string>> = {
  host: '#5a6270',
  user: '#2f6fb3',
  session: '#5f8fc4',
  process: '#b35a2f',
  file: '#4e8a3e',
  registry: '#8a6d3e',
  service: '#7a3eb3',
  task: '#7a3eb3',
  endpoint: '#b32f5a',
  other: '#8c939e',
};

/** Boxes drawn in one column of the story graph; the rest are summarised (the edge table lists them all). */
const MAX_COLUMN_ROWS = 10;

function short(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** A layered drawing of a story graph: columns by distance from the root, arrows for causal edges. */
export function graphSvg(graph: StoryGraph, title: string): string {
  const depth = new Map<string, number>([[graph.rootNodeId, 0]]);
  // Longest-path layering from the root, bounded so a cycle cannot loop.
  for (let round = 0; round < graph.nodes.length; round++) {
    let changed = false;
    for (const e of graph.edges) {
      const d = depth.get(e.from);
      if (d !== undefined && (depth.get(e.to) ?? -1) < d + 1 && d + 1 < graph.nodes.length + 1) {
        depth.set(e.to, d + 1);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const columns = new Map<number, string[]>();
  for (const n of graph.nodes) {
    const d = depth.get(n.id) ?? 0;
    columns.set(d, [...(columns.get(d) ?? []), n.id]);
  }
  // A tall column (dozens of encrypted files) keeps its first rows and one '+N more' box that takes their edges.
  const hidden = new Map<string, string>();
  const extra: { id: string; label: string }[] = [];
  for (const [d, ids] of columns) {
    if (ids.length <= MAX_COLUMN_ROWS) continue;
    const more = `__more_${d}`;
    for (const id of ids.slice(MAX_COLUMN_ROWS - 1)) hidden.set(id, more);
    extra.push({ id: more, label: `+${ids.length - (MAX_COLUMN_ROWS - 1)} more` });
    columns.set(d, [...ids.slice(0, MAX_COLUMN_ROWS - 1), more]);
  }
  const seenEdges = new Set<string>();
  const edges = graph.edges
    .map((e) => ({ ...e, from: hidden.get(e.from) ?? e.from, to: hidden.get(e.to) ?? e.to }))
    .filter((e) => {
      const key = `${e.from}>${e.to}>${e.relation}`;
      if (seenEdges.has(key)) return false;
      seenEdges.add(key);
      return true;
    });
  const labelEdges = edges.length <= 24;
  const colW = 190;
  const rowH = 56;
  const maxRows = Math.max(1, ...[...columns.values()].map((c) => c.length));
  const width = Math.max(1, columns.size) * colW + 20;
  const height = maxRows * rowH + 30;
  const pos = new Map<string, { x: number; y: number }>();
  for (const [d, ids] of columns) ids.forEach((id, i) => pos.set(id, { x: 20 + d * colW + 70, y: 20 + i * rowH + (maxRows - ids.length) * (rowH / 2) + 14 }));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">`,
    `<title>${escapeHtml(title)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#5a6270"/></marker></defs>',
  ];
  for (const e of edges) {
    const a = pos.get(e.from);
    const b = pos.get(e.to);
    if (!a || !b) continue;
    const x1 = a.x + 60;
    const x2 = b.x - 60;
    parts.push(`<line x1="${x1}" y1="${a.y}" x2="${x2}" y2="${b.y}" stroke="#5a6270" stroke-width="${(1 + e.confidence * 2).toFixed(1)}" marker-end="url(#arrow)"><title>${escapeHtml(`${e.relation} (${e.rule}, confidence ${e.confidence.toFixed(2)})`)}</title></line>`);
    if (labelEdges) parts.push(`<text x="${((x1 + x2) / 2).toFixed(0)}" y="${((a.y + b.y) / 2 - 4).toFixed(0)}" font-size="10" fill="#5a6270" text-anchor="middle">${escapeHtml(short(e.relation, 18))}</text>`);
  }
  for (const m of extra) {
    const p = pos.get(m.id);
    if (p) parts.push(`<g><rect x="${p.x - 60}" y="${p.y - 16}" width="120" height="32" rx="6" fill="#eef1f5" stroke="#8c939e" stroke-dasharray="4 3"/><text x="${p.x}" y="${p.y + 4}" font-size="11" fill="#1b1f24" text-anchor="middle">${escapeHtml(m.label)}</text></g>`);
  }
  for (const n of graph.nodes) {
    const p = pos.get(n.id);
    if (!p || hidden.has(n.id)) continue;
    const colour = NODE_COLOURS[n.kind] ?? '#8c939e';
    const root = n.id === graph.rootNodeId;
    parts.push(
      `<g><title>${escapeHtml(`${n.kind}: ${n.label}${n.host ? ` on ${n.host}` : ''}`)}</title><rect x="${p.x - 60}" y="${p.y - 16}" width="120" height="32" rx="6" fill="#fff" stroke="${colour}" stroke-width="${root ? 3 : 1.5}"/>` +
        `<text x="${p.x}" y="${p.y - 3}" font-size="9" fill="${colour}" text-anchor="middle">${escapeHtml(n.kind)}</text>` +
        `<text x="${p.x}" y="${p.y + 10}" font-size="11" fill="#1b1f24" text-anchor="middle">${escapeHtml(short(n.label, 20))}</text></g>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

function barsSvg(caption: string, items: readonly (readonly [string, number])[]): string {
  const rowH = 18;
  const width = 420;
  const rows = items.map(([label, value], i) => {
    const v = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
    const y = 4 + i * rowH;
    return `<text x="0" y="${y + 12}" font-size="11" fill="#1b1f24">${escapeHtml(label)}</text><rect x="130" y="${y + 2}" width="240" height="12" fill="#eef1f5"/><rect x="130" y="${y + 2}" width="${(240 * v).toFixed(1)}" height="12" fill="#2f6fb3"/><text x="376" y="${y + 12}" font-size="11" fill="#1b1f24">${v.toFixed(2)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${items.length * rowH + 8}" width="${width}" height="${items.length * rowH + 8}" role="img" aria-label="${escapeHtml(caption)}"><title>${escapeHtml(caption)}</title>${rows.join('')}</svg>`;
}

function block(b: Block): string {
  switch (b.t) {
    case 'h':
      return `<h${b.level}${b.anchor !== undefined ? ` id="${escapeHtml(b.anchor)}"` : ''}>${escapeHtml(b.text)}</h${b.level}>`;
    case 'p':
      return `<p${b.muted ? ' class="muted"' : ''}>${escapeHtml(b.text)}</p>`;
    case 'kv':
      return `<dl>${b.rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd${/^[0-9a-f]{64}$/.test(v) ? ' class="mono"' : ''}>${escapeHtml(v)}</dd>`).join('')}</dl>`;
    case 'table': {
      const mono = b.mono ?? [];
      const head = `<thead><tr>${b.head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>`;
      const body = `<tbody>${b.rows.map((r) => `<tr>${r.map((v, i) => `<td${mono.includes(i) ? ' class="mono"' : ''}>${escapeHtml(v)}</td>`).join('')}</tr>`).join('')}</tbody>`;
      return `<table>${b.caption !== undefined ? `<caption>${escapeHtml(b.caption)}</caption>` : ''}${head}${body}</table>`;
    }
    case 'list':
      return `<ul>${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
    case 'bars':
      return barsSvg(b.caption, b.items);
    case 'graph':
      return graphSvg(b.graph, 'Causal graph of the story');
  }
}

/** Lays out a report document as one HTML page (no script, no external resource). */
export function renderHtmlDocument(doc: ReportDocument): string {
  const toc = doc.blocks.filter((b): b is Extract<Block, { t: 'h' }> => b.t === 'h' && b.level === 2 && b.anchor !== undefined);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(META_CSP)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    ...doc.blocks.slice(0, 1).map(block),
    `<nav aria-label="Contents"><ul>${toc.map((h) => `<li><a href="#${escapeHtml(h.anchor ?? '')}">${escapeHtml(h.text)}</a></li>`).join('')}</ul></nav>`,
    ...doc.blocks.slice(1).map(block),
    '</body></html>',
    '',
  ].join('\n');
}

/** The court-style report as a self-contained HTML page. */
export function toHtml(view: AnalysisView, custody: CustodyView | null, meta: ReportMeta): string {
  return renderHtmlDocument(buildReport(view, custody, meta));
}
