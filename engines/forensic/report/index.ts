// Reports and exports of a forensic analysis view: court-style Markdown, HTML and PDF, JSON, Cypher, the ATT&CK Navigator layer and the optional Neo4j push.
import type { AnalysisView, CustodyView } from '../../core/contracts/forensic.js';
import type { ReportMeta } from './document.js';
import { toHtml } from './html.js';
import { toMarkdown } from './markdown.js';
import { viewToCypher } from './cypher.js';
import { navigatorLayer } from './navigator.js';

export { buildReport, confidenceRows, storyGraph, CUSTODY_RECORDS_LISTED } from './document.js';
export type { Block, ReportDocument, ReportMeta, StoryGraph } from './document.js';
export { escapeHtml, graphSvg, renderHtmlDocument, REPORT_CSP, toHtml } from './html.js';
export { mdText } from '../../core/markdown.js';
export { renderMarkdownDocument, toMarkdown } from './markdown.js';
export { pdfText, renderPdfDocument, toPdf } from './pdf.js';
export { navigatorLayer, type CaseNavigatorLayer } from './navigator.js';
export { loadNeo4jDriver, pushNeo4jView, relationType, viewToCypher } from './cypher.js';

/** Text report formats (`--format`). */
import { REPORT_FORMATS } from '../cli-meta.js';
export { REPORT_FORMATS };
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** spec to_json: the view as indented JSON text. */
export function toJson(view: AnalysisView): string {
  return `${JSON.stringify(view, null, 2)}\n`;
}

/** One text report of the view in the asked format. */
export function renderReport(format: ReportFormat, view: AnalysisView, custody: CustodyView | null, meta: ReportMeta): string {
  switch (format) {
    case 'md':
      return toMarkdown(view, custody, meta);
    case 'html':
      return toHtml(view, custody, meta);
    case 'json':
      return toJson(view);
    case 'cypher':
      return viewToCypher(view, `Vitrine forensic export: ${meta.title}`);
    case 'navigator':
      return `${JSON.stringify(navigatorLayer(view, `Vitrine forensic case ${meta.title}`), null, 2)}\n`;
  }
}
