// The court-style report as Markdown: every value escaped so evidence text cannot add markup, links or table cells.
import type { AnalysisView, CustodyView } from '../../core/contracts/forensic.js';
import { buildReport, type Block, type ReportDocument, type ReportMeta } from './document.js';

/** Text safe in Markdown prose and table cells: markup characters backslash-escaped, line breaks flattened. */
export function mdText(s: string): string {
  return s
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/[\\`*_{}[\]<>|#!~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;');
}

/** Hex digests and ids: shown as code, which cannot hold markup (backticks are removed). */
function mdCode(s: string): string {
  const clean = s.replace(/[`\r\n]/g, '');
  return clean === '' ? '' : `\`${clean}\``;
}

function table(head: readonly string[], rows: readonly (readonly string[])[], mono: readonly number[] = []): string[] {
  const cell = (v: string, i: number): string => (mono.includes(i) ? mdCode(v) : mdText(v));
  return [`| ${head.map((h) => mdText(h)).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

function block(b: Block): string[] {
  switch (b.t) {
    case 'h':
      return [`${'#'.repeat(b.level)} ${mdText(b.text)}`, ''];
    case 'p':
      return [b.muted ? `_${mdText(b.text)}_` : mdText(b.text), ''];
    case 'kv':
      return [...b.rows.map(([k, v]) => `- **${mdText(k)}:** ${/^[0-9a-f]{64}$/.test(v) ? mdCode(v) : mdText(v)}`), ''];
    case 'table':
      return [...(b.caption !== undefined ? [`**${mdText(b.caption)}**`, ''] : []), ...table(b.head, b.rows, b.mono), ''];
    case 'list':
      return [...b.items.map((i) => `- ${mdText(i)}`), ''];
    case 'bars':
      // The table that follows gives the numbers; Markdown has no chart.
      return [];
    case 'graph':
      return [];
  }
}

/** Lays out a report document as Markdown. */
export function renderMarkdownDocument(doc: ReportDocument): string {
  return `${doc.blocks.flatMap(block).join('\n').trimEnd()}\n`;
}

/** The court-style report in Markdown. */
export function toMarkdown(view: AnalysisView, custody: CustodyView | null, meta: ReportMeta): string {
  return renderMarkdownDocument(buildReport(view, custody, meta));
}
