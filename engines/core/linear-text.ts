/**
 * Text clean-ups written as scans that take time linear in the text, for evidence text of any length: the regular
 * expressions they replace backtracked quadratically on hostile input (an unclosed `[` repeated, a long run of the
 * stripped characters not at the end).
 */

/**
 * Markdown links `[label](target)` replaced by their label, as `text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')` did.
 * With `nestedTarget`, the target may hold parenthesised groups one level deep (`[x](https://a/b_(c))`), as
 * `/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g` did.
 */
export function stripMarkdownLinks(text: string, nestedTarget = false): string {
  const n = text.length;
  // For the nested target: the end (index of the closing ')') of the target scanned from a position, -1 when it does
  // not close; -2 not yet known. Scans from different starts meet on the same positions, so each is walked once.
  const memo = nestedTarget ? new Int32Array(n + 1).fill(-2) : null;
  const targetEnd = (start: number): number => {
    if (memo === null) return text.indexOf(')', start);
    const path: number[] = [];
    let p = start;
    let end = -1;
    while (p < n) {
      const known = memo[p] as number;
      if (known !== -2) { end = known; break; }
      path.push(p);
      const c = text.charCodeAt(p);
      if (c === 0x29) { end = p; break; }
      if (c === 0x28) {
        const close = text.indexOf(')', p + 1);
        if (close < 0) break;
        p = close + 1;
      } else p++;
    }
    for (const q of path) memo[q] = end;
    return end;
  };
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf('[', from);
    if (open < 0) break;
    const close = text.indexOf(']', open + 1);
    if (close < 0) break; // no later '[' has a ']' after it either
    // Every '[' between open and close ends its label at the same ']' and so fails or matches the same way: the
    // leftmost one is the regex's match.
    if (text.charCodeAt(close + 1) !== 0x28) { from = close + 1; continue; }
    const end = targetEnd(close + 2);
    if (end < 0) {
      if (!nestedTarget) break; // no ')' after this point at all
      from = close + 1;
      continue;
    }
    out += text.slice(copied, open) + text.slice(open + 1, close);
    copied = end + 1;
    from = end + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `text` without the characters of `chars` at its end, as `text.replace(/[chars]+$/, '')` did. */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the characters of `chars` at its start. */
export function trimStartChars(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text.charAt(start))) start++;
  return start === 0 ? text : text.slice(start);
}

/**
 * `line` without its `#` comment, as `line.replace(/#.*$/, '')` did: from the first `#` after the last line
 * terminator (the pattern's `.` stops at one) to the end.
 */
export const stripHashComment = (line: string): string => cutAtLastLineChar(line, '#');

/**
 * `text` up to the first `char` after its last line terminator, as `text.replace(/<char>.*$/, '')` did (the `.` stops
 * at a line terminator and `$` is the end of the text, so only a `char` on the last line starts a match, and the first
 * such one is the match); `text` itself when its last line holds none.
 */
export function cutAtLastLineChar(text: string, char: string): string {
  const at = text.indexOf(char, lastLineTerminator(text) + 1);
  return at < 0 ? text : text.slice(0, at);
}

/**
 * `text` without each span from `open` to the first `close` after it, as `text.replace(/<open>[^<close>]*<close>/g, '')`
 * did (`open` and `close` one character each): an `open` with no `close` after it is kept, and so is the rest of the
 * text, since no later `open` has one either.
 */
export function stripSpans(text: string, open: string, close: string): string {
  let out = '';
  let copied = 0;
  for (;;) {
    const start = text.indexOf(open, copied);
    if (start < 0) break;
    const end = text.indexOf(close, start + 1);
    if (end < 0) break;
    out += text.slice(copied, start);
    copied = end + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** What the first span from `open` to the next `close` holds, as `/<open>([^<close>]*)<close>/.exec(text)?.[1]` read it. */
export function firstSpan(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  const end = start < 0 ? -1 : text.indexOf(close, start + 1);
  return end < 0 ? undefined : text.slice(start + 1, end);
}

/** Whether `c` is a character of the regular-expression class `\s`. */
export const isRegexBlank = (c: string): boolean => c !== '' && /^\s$/.test(c);

/** The index after the `\s` characters from `from`. */
export function skipRegexBlanks(text: string, from: number): number {
  let i = from;
  while (i < text.length && isRegexBlank(text.charAt(i))) i++;
  return i;
}

/** Whether `c` is a line terminator: a character the regular-expression `.` (without the `s` flag) does not match. */
export const isLineTerminator = (c: string): boolean => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/** The index of the last line terminator in `text`, -1 when none. */
export function lastLineTerminator(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (isLineTerminator(text.charAt(i))) return i;
  return -1;
}

/**
 * The quoted literals of one line's syntax, `[start, end]` inclusive of both quotes, as
 * `/([<quotes>])(?:\\.|(?!\1)[^\\\n])*\1/g` finds them, in one pass. A backslash escapes the character after it
 * unless that is a line terminator; a literal ends at its own quote and fails at a line break, at a backslash before a
 * line terminator, or at the end. The expression read from each quote that starts no literal (a run of `\'`, whose
 * quotes are escaped but still tried as starts) to the end of its line again: 80,000 characters took 7 s.
 *
 * Every quote's scan follows the same items (a backslash and the character after it, or one character), because the
 * character after a quote always starts an item. So a scan that fails at a stop also tells, for each quote after its
 * start and before the stop, where the first unescaped quote of its kind stands: the starts in between are answered
 * from those positions, not scanned again.
 */
export function quotedSpans(text: string, quotes: string): [number, number][] {
  const spans: [number, number][] = [];
  const n = text.length;
  let cursor = 0;
  while (cursor < n) {
    let start = cursor;
    while (start < n && !quotes.includes(text.charAt(start))) start++;
    if (start >= n) break;
    const q = text.charAt(start);
    // the unescaped quotes of each kind met before a stop, in order
    const seen = new Map<string, number[]>();
    let p = start + 1;
    let end = -1;
    for (; p < n; p++) {
      const c = text.charAt(p);
      if (c === '\\') {
        if (p + 1 >= n || isLineTerminator(text.charAt(p + 1))) break;
        p++;
      } else if (c === q) {
        end = p;
        break;
      } else if (c === '\n') break;
      else if (quotes.includes(c)) {
        const list = seen.get(c);
        if (list === undefined) seen.set(c, [p]);
        else list.push(p);
      }
    }
    if (end >= 0) {
      spans.push([start, end]);
      cursor = end + 1;
      continue;
    }
    // The scan failed at the stop p: answer the starts before it from what it saw.
    const stop = p;
    const next = new Map<string, number>();
    let c = start + 1;
    for (;;) {
      while (c < stop && !quotes.includes(text.charAt(c))) c++;
      if (c >= stop) break;
      const kind = text.charAt(c);
      const list = seen.get(kind) ?? [];
      let k = next.get(kind) ?? 0;
      while (k < list.length && (list[k] as number) <= c) k++;
      next.set(kind, k);
      const close = list[k];
      if (close !== undefined) {
        spans.push([c, close]);
        c = close + 1;
      } else c++;
    }
    cursor = Math.max(c, stop + 1);
  }
  return spans;
}

/** `text` with each quoted literal (`quotedSpans`) replaced by `by`. */
export function replaceQuoted(text: string, quotes: string, by: string): string {
  let out = '';
  let at = 0;
  for (const [s, e] of quotedSpans(text, quotes)) {
    out += text.slice(at, s) + by;
    at = e + 1;
  }
  return out + text.slice(at);
}
