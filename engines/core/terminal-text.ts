// Text for a terminal: evidence text written by a command line cannot move the cursor, recolour, retitle, hyperlink or reorder what the reader sees.
import { C0_DEL_C1_FORMAT, isControlCode } from './control-characters.js';

/** The visible form of one code unit, `\u001b`, `\u202e`, `\ud800`: JSON's own escape, so JSON text keeps its meaning. */
export function visibleEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Whether code unit `c` is shown as an escape: C0, DEL, C1, U+2028/U+2029 and the zero-width, bidi and byte-order-mark format characters. */
function escaped(c: number): boolean {
  return c === 0x2028 || c === 0x2029 || isControlCode(c, C0_DEL_C1_FORMAT);
}

// Every code unit escapeText may escape (a superset: surrogates are candidates, a pair is kept).
// eslint-disable-next-line no-control-regex -- the control characters are what these match
const CANDIDATES = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex -- the control characters are what these match
const CANDIDATES_BESIDES_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/;

/**
 * `s` with every character that a terminal or a text reader acts on written as a visible escape (`visibleEscape`, `\u001b`): C0
 * controls (ESC of ANSI colour and OSC 8 hyperlink sequences, carriage return, backspace, NUL), DEL, C1 controls (the
 * 8-bit CSI U+009B), the line and paragraph separators, the zero-width, bidi and byte-order-mark format characters (a
 * U+202E in a file name), and lone surrogates. `keepLayout` leaves line feed and tab as they are, where `s` is a whole
 * output whose lines are ours. Surrogate pairs stay whole; `s` itself when nothing is escaped.
 */
function escapeText(s: string, keepLayout: boolean): string {
  // Most output has nothing to escape: one scan by the regular-expression engine answers that (several times faster
  // than the loop below on large JSON output); surrogates are candidates, and the loop keeps the pairs.
  if (!(keepLayout ? CANDIDATES_BESIDES_LAYOUT : CANDIDATES).test(s)) return s;
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
      }
    } else if (!escaped(c) || (keepLayout && (c === 0x0a || c === 0x09))) continue;
    out += s.slice(from, i) + visibleEscape(c);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * A whole command-line output (stdout or stderr) made safe for a terminal: line feeds and tabs kept (the layout is
 * ours), every other control, separator, invisible format character and lone surrogate written as a visible escape.
 * JSON output keeps its meaning: the escapes are JSON's own (`\u202e` inside a string literal), and JSON.stringify
 * already writes C0 controls as escapes. Applied to every command line's result by `runCommandLine` and `runIfMain`.
 */
export function terminalText(s: string): string {
  return escapeText(s, true);
}

/**
 * One value from evidence inside a line of text output (a file name, a title, a host): as terminalText, and line feed
 * and tab also escaped, so the value cannot start a line of its own or shift columns.
 */
export function terminalValue(s: string): string {
  return escapeText(s, false);
}
