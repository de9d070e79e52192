// Source text helpers for the rule engine: language of a file, comment stripping (acorn for JavaScript, a string-aware tokenizer for Python), line numbers and bounded match text.
import * as acorn from 'acorn';
import * as loose from 'acorn-loose';
import { C0_DEL_C1_FORMAT, replaceControlCharacters } from '../../../core/control-characters.js';

export type SourceLanguage = 'javascript' | 'python' | 'shell' | 'pth';

/** Files larger than this are matched with line patterns only (no parse): acorn on a huge bundle costs seconds and memory. */
export const MAX_PARSE_BYTES = 1024 * 1024;
/** Files larger than this are not read by the source rules at all (a finding says so). */
export const MAX_SCAN_BYTES = 8 * 1024 * 1024;

/** The rule language of a package path, or null when the source rules do not read it. */
export function languageOf(filePath: string): SourceLanguage | null {
  const lower = filePath.toLowerCase();
  if (/\.(js|cjs|mjs|jsx)$/.test(lower) || (/\.(ts|tsx|mts|cts)$/.test(lower) && !/\.d\.[mc]?ts$/.test(lower))) return 'javascript';
  if (/\.(py|pyw)$/.test(lower)) return 'python';
  if (lower.endsWith('.pth')) return 'pth';
  if (/\.(sh|bash|bat|cmd|ps1|vbs)$/.test(lower)) return 'shell';
  return null;
}

/** At most 200 characters, control and bidirectional characters escaped (`\x1b`, `\u202e`). */
export function boundMatch(text: string): string {
  // Every character escapes to one or more, so the first 201 decide the answer: a long match is not escaped whole.
  const escaped = replaceControlCharacters(text.length > 201 ? text.slice(0, 201) : text, C0_DEL_C1_FORMAT, (code) => (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`));
  return escaped.length > 200 ? `${escaped.slice(0, 197)}...` : escaped;
}

/** Blanks [start, end) ranges with spaces, keeping newlines so offsets and lines stay true. */
function blank(text: string, ranges: readonly (readonly [number, number])[]): string {
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [s, e] of ranges) {
    if (s < at) continue;
    parts.push(text.slice(at, s), text.slice(s, e).replace(/[^\n]/g, ' '));
    at = e;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

export interface JsSource {
  /** The text with comments blanked. */
  readonly code: string;
  /** The syntax tree when the file was parsed (strict, else loose); null for files over MAX_PARSE_BYTES or that no parser read. */
  readonly ast: acorn.Node | null;
}

const JS_OPTIONS = { ecmaVersion: 'latest', allowHashBang: true, allowReturnOutsideFunction: true, allowImportExportEverywhere: true, allowAwaitOutsideFunction: true, locations: false } as const;

/** Parses JavaScript (module, then script, then acorn-loose unless `loosely` is false: decoded text that is not a program stays text), blanking comments; huge files are left as text. */
export function readJs(text: string, loosely = true): JsSource {
  if (text.length > MAX_PARSE_BYTES) return { code: text, ast: null };
  for (const sourceType of ['module', 'script'] as const) {
    const comments: [number, number][] = [];
    try {
      const ast = acorn.parse(text, { ...JS_OPTIONS, sourceType, onComment: (_b, _t, s, e) => comments.push([s, e]) });
      return { code: blank(text, comments), ast };
    } catch {
      // try the next way of reading it
    }
  }
  if (!loosely) return { code: text, ast: null };
  try {
    const comments: [number, number][] = [];
    const ast = loose.parse(text, { ...JS_OPTIONS, onComment: (_b: boolean, _t: string, s: number, e: number) => comments.push([s, e]) });
    return { code: blank(text, comments), ast };
  } catch {
    return { code: text, ast: null };
  }
}

/** A one-line string literal: its bounds (prefix included), quote, body and (Python) prefix lowercased. */
export interface StringLiteral {
  readonly start: number;
  readonly end: number;
  readonly quote: string;
  readonly bodyStart: number;
  readonly bodyEnd: number;
  readonly prefix: string;
}

/** Python's comments and its one-line string literals (triple-quoted and unterminated ones are stepped over, not listed). */
export function scanPython(text: string): { comments: [number, number][]; literals: StringLiteral[] } {
  const comments: [number, number][] = [];
  const literals: StringLiteral[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === '#') {
      const e = text.indexOf('\n', i);
      const end = e === -1 ? n : e;
      comments.push([i, end]);
      i = end;
    } else if (c === '"' || c === "'") {
      if (text.startsWith(c.repeat(3), i)) {
        const e = text.indexOf(c.repeat(3), i + 3);
        i = e === -1 ? n : e + 3;
        continue;
      }
      let k = i + 1;
      while (k < n && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      if (k < n && text[k] === c) {
        let p = i;
        while (p > i - 2 && p > 0 && /[rRuUbBfF]/.test(text[p - 1]!)) p--;
        if (p > 0 && /\w/.test(text[p - 1]!)) p = i;
        literals.push({ start: p, end: k + 1, quote: c, bodyStart: i + 1, bodyEnd: k, prefix: text.slice(p, i).toLowerCase() });
      }
      i = k + 1;
    } else i++;
  }
  return { comments, literals };
}

/** Python text with `#` comments blanked; strings (single, triple, prefixed) are understood so a `#` inside one is kept. */
export function stripPythonComments(text: string): string {
  return blank(text, scanPython(text).comments);
}
