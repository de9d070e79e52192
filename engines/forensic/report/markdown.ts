// The court-style report as Markdown: every value escaped (engines/core/markdown.ts) so evidence text cannot add markup, links, mentions or table cells.
import type { AnalysisView, CustodyView } from '../../core/contracts/forensic.js';
import { mdCode, mdCodeCell, mdText } from '../../core/markdown.js';
import { buildReport, type Block, type ReportDocument, type ReportMeta } from './document.js';

function table(head: readonly string[], rows: readonly (readonly string[])[], mono: readonly number[] = []): string[] {
  const cell = (v: string, i: number): string => (mono.includes(i) ? mdCodeCell(v) : mdText(v));
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
