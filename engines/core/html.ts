// HTML and SVG from evidence: the one escaping of text put into an element or a quoted attribute value.
import { terminalText } from './terminal-text.js';

/**
 * Text safe in HTML or SVG content and in double- or single-quoted attribute values: `& < > " '` as character
 * references, and control, bidi and zero-width characters and lone surrogates shown as `\u202e`-style escapes
 * (terminalText: line feed and tab kept), so a value can neither add an element or attribute nor reorder or hide
 * what the page shows, and XML stays well-formed (C0 controls are not allowed in it).
 */
export function escapeHtml(s: string): string {
  return terminalText(s).replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}
