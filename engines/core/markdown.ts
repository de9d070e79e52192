// Markdown from evidence: the one escaping of text that a report, a study or a pull-request comment quotes, so the text cannot add markup, links, images, HTML, headings, table cells, mentions or references, nor break out of a code span.
import { terminalValue } from './terminal-text.js';

/** Line breaks (and tab, vertical tab, form feed, NEL): a value is one line of the document. */
// eslint-disable-next-line no-control-regex -- the line breaks are what this matches
const BREAKS = /[\r\n\t\u000b\u000c\u0085\u2028\u2029]+/g;

/**
 * Defangs what GitHub (and GFM renderers) turn into links or notifications even when every Markdown character is
 * escaped, because they act on the rendered text: `://` of any URL to `[:]//`, `www.` to `www[.]`, every `@` (a
 * mention, a team mention, an e-mail autolink) to `[@]`, and `#` or `GH-` before a digit (an issue reference) to
 * `[#]` and `GH[-]`. The brackets are then escaped like the rest, so they show as written.
 */
function defang(s: string): string {
  return s
    .replace(/:\/\//g, '[:]//')
    .replace(/(?<![A-Za-z0-9])www\./gi, (w) => `${w.slice(0, 3)}[.]`)
    .replace(/@/g, '[@]')
    .replace(/#(?=\d)/g, '[#]')
    .replace(/(?<![A-Za-z0-9])(GH)-(?=\d)/gi, '$1[-]');
}

/**
 * Text safe in Markdown prose, list items, headings and table cells: one line (line breaks to spaces); control, bidi
 * and invisible format characters and lone surrogates shown as `\u001b`-style escapes (terminalValue); URLs,
 * mentions and issue references defanged (defang); the characters that make markup backslash-escaped (`\` `` ` ``
 * `*` `_` `{` `}` `[` `]` `<` `>` `|` `#` `!` `~` `$` `^`: emphasis, code, links, images, HTML, cells, headings,
 * strike-through, math, footnotes) and `&` written `&amp;` (no entity). A leading list, heading-underline or
 * ordered-list marker is escaped and a leading space written `&#32;` (no indented code block), so the text is also
 * safe at the start of a line.
 */
export function mdText(s: string): string {
  const out = defang(terminalValue(s.replace(BREAKS, ' ')))
    .replace(/[\\`*_{}[\]<>|#!~$^]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;');
  // List items (`- `, `+ `), thematic breaks and setext underlines (`--`, `=`), ordered items (`1. `, `1) `).
  if (/^([-+](?= |$)|-(?=-)|=)/.test(out)) return `\\${out}`;
  const ordered = /^(\d{1,9})([.)])(?= |$)/.exec(out);
  if (ordered !== null) return `${ordered[1]!}\\${out.slice(ordered[1]!.length)}`;
  return out.startsWith(' ') ? `&#32;${out.slice(1)}` : out;
}

/**
 * Text shown as a code span, which holds no markup, link, mention or reference: one line, control and format
 * characters escaped as in mdText, fenced by one backtick more than the longest run of backticks in it (padded with a
 * space when it starts or ends with a backtick or space, which the span strips again). '' for ''. Outside tables;
 * in a table cell use mdCodeCell.
 */
export function mdCode(s: string): string {
  const clean = terminalValue(s.replace(BREAKS, ' '));
  if (clean === '') return '';
  let longest = 0;
  for (const run of clean.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(clean) ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** mdCode for a table cell: `|` written `\|`, which GFM reads as a pipe inside the cell even in a code span. */
export function mdCodeCell(s: string): string {
  return mdCode(s).replace(/\|/g, '\\|');
}
