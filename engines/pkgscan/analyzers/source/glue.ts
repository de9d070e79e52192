// String literals glued with `+` (and Python's adjacent literals on one line) or joined from a list with a literal
// separator (`'.'.join(['a', 'b'])`, `['a', 'b'].join('')`) read as the one literal they make, so a rule that looks
// for `child_process` or a webhook host sees `require('child_' + 'process')` too. The fold keeps the
// text's length and its line breaks: every offset after a glued run, and every line number, stays true. Escapes of
// printable characters are written as the characters (`'\x63hild_' + '\x70rocess'`, or one literal `'\x65val'`).
import { MAX_PARSE_BYTES, scanPython, type StringLiteral as Literal } from './text.js';

/** Literals that make one text: glued with `+`, or joined with a separator (`'.'.join([...])`, `[...].join('')`). */
interface Run {
  readonly parts: readonly Literal[];
  /** The join's separator literal; null for a glued run. */
  readonly separator: Literal | null;
  /** The text the run takes: the literals, or the whole join call. */
  readonly start: number;
  readonly end: number;
}

/** `\x63`, `\u0063`, `\u{63}`: an escape of a printable ASCII character other than a quote or the backslash. */
const PRINTABLE_ESCAPE = /\\(?:x([2-7][0-9a-fA-F])|u00([2-7][0-9a-fA-F])|u\{0{0,4}([2-7][0-9a-fA-F])\})/g;
const NOT_UNESCAPED = new Set(['"', "'", '\\', '`']);
const JS_PRECHECK = /['"]\s*\+\s*['"]|\]\s*\.\s*join\s*\(\s*['"]|\\(?:x|u00|u\{)[2-7]/;
const PY_PRECHECK = /['"](?:\s*\+\s*|[ \t]+|[ \t]*\\?\r?\n\s*)[rRuUbB]{0,2}['"]|['"]\s*\.\s*join\s*\(\s*[[(]\s*[rRuUbB]{0,2}['"]|\\(?:x|u00)[2-7]/;

/** A literal's body with its escapes of printable characters written as the characters (a raw literal as written). */
function plainEscapes(body: string, prefix: string): string {
  if (/r/i.test(prefix) || !body.includes('\\')) return body;
  return body.replace(PRINTABLE_ESCAPE, (m, x: string | undefined, u: string | undefined, b: string | undefined, at: number) => {
    // an escaped backslash before it (`\\x41`) makes it text
    let slashes = 0;
    for (let k = at - 1; k >= 0 && body[k] === '\\'; k--) slashes++;
    const c = String.fromCharCode(parseInt(x ?? u ?? b ?? '0', 16));
    return slashes % 2 === 0 && !NOT_UNESCAPED.has(c) ? c : m;
  });
}

/** Line feeds: the line breaks the rules' line numbers count (LineIndex). */
function breaksIn(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** The joined literal and its filler, as long as the run it replaces; null when the parts cannot be joined safely. */
function joined(text: string, run: Run): string | null {
  const all = run.separator === null ? run.parts : [...run.parts, run.separator];
  const first = all[0]!;
  const bodyOf = (p: Literal): string => plainEscapes(text.slice(p.bodyStart, p.bodyEnd), p.prefix);
  const bodies = all.map(bodyOf);
  let quote = first.quote;
  if (!all.every((p) => p.quote === first.quote)) {
    // bodies written for different quotes join raw only without escapes and without the chosen quote inside
    if (bodies.some((b) => b.includes('\\'))) return null;
    quote = bodies.some((b) => b.includes("'")) ? '"' : "'";
    if (bodies.some((b) => b.includes(quote))) return null;
  }
  const literal = `${first.prefix}${quote}${run.parts.map(bodyOf).join(run.separator === null ? '' : bodyOf(run.separator))}${quote}`;
  const span = text.slice(run.start, run.end);
  // line breaks outside the literals move to the end of the filler, so the lines after the run keep their numbers
  const breaks = breaksIn(span) - breaksIn(literal);
  const fill = span.length - literal.length;
  if (breaks < 0 || fill < breaks) return null;
  return literal + ' '.repeat(fill - breaks) + '\n'.repeat(breaks);
}

/** The text with the runs written joined, and the spans they now take (start and end offsets). */
export interface Folded {
  readonly text: string;
  readonly spans: readonly (readonly [number, number])[];
}

function apply(text: string, runs: readonly Run[]): Folded {
  const out: string[] = [];
  const spans: [number, number][] = [];
  let at = 0;
  for (const run of [...runs].sort((a, b) => a.start - b.start)) {
    if (run.start < at) continue;
    const j = joined(text, run);
    if (j === null) continue;
    out.push(text.slice(at, run.start), j);
    spans.push([run.start, run.end]);
    at = run.end;
  }
  if (spans.length === 0) return { text, spans };
  out.push(text.slice(at));
  return { text: out.join(''), spans };
}

/**
 * JavaScript's one-line string literals, by a scan that steps over comments and templates (a character loop: acorn's
 * tokenizer cost a tenth of the whole scan). A quote inside a regular expression literal can misplace the literals of
 * its line; the joined reading is a second one, so that costs at most a run read as written.
 */
function jsLiterals(text: string): Literal[] {
  const out: Literal[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const e = text.indexOf('\n', i);
      i = e === -1 ? n : e;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const e = text.indexOf('*/', i + 2);
      i = e === -1 ? n : e + 2;
    } else if (c === 0x60 /* ` */) {
      let k = i + 1;
      while (k < n && text.charCodeAt(k) !== 0x60) k += text.charCodeAt(k) === 0x5c ? 2 : 1;
      i = k + 1;
    } else if (c === 0x27 || c === 0x22) {
      let k = i + 1;
      while (k < n && text.charCodeAt(k) !== c && text.charCodeAt(k) !== 0x0a) k += text.charCodeAt(k) === 0x5c ? 2 : 1;
      if (k < n && text.charCodeAt(k) === c) out.push({ start: i, end: k + 1, quote: text[i]!, bodyStart: i + 1, bodyEnd: k, prefix: '' });
      i = k + 1;
    } else i++;
  }
  return out;
}

/** The text between two JavaScript literals that glues them: white space around one `+`. */
function jsGlues(gap: string): boolean {
  return /^\s*\+\s*$/.test(gap);
}

/** The last character before a run, and the first after it (white space skipped), when one binds tighter than `+`. */
function tightNeighbour(text: string, start: number, end: number, language: 'javascript' | 'python'): boolean {
  let b = start - 1;
  while (b >= 0 && /\s/.test(text[b]!)) b--;
  let a = end;
  while (a < text.length && /\s/.test(text[a]!)) a++;
  const before = b >= 0 ? text[b]! : '';
  const after = a < text.length ? text[a]! : '';
  if (language === 'python') return PY_TIGHT_BEFORE.has(before) || PY_TIGHT_AFTER.has(after);
  if (JS_TIGHT_BEFORE.has(before) || /\b(?:typeof|void|delete)$/.test(text.slice(Math.max(0, b - 6), b + 1))) return true;
  const comment = after === '/' && (text[a + 1] === '/' || text[a + 1] === '*');
  return (JS_TIGHT_AFTER.has(after) && !comment) || (after === '?' && text[a + 1] === '.');
}

// Characters that bind tighter than `+` to the literal beside them: a run next to one is left as written.
const JS_TIGHT_BEFORE = new Set(['*', '/', '%', '-', '~', '!', '.']);
const JS_TIGHT_AFTER = new Set(['.', '[', '(', '*', '/', '%', '`']);
const PY_TIGHT_BEFORE = new Set(['*', '/', '%', '@', '-', '~']);
const PY_TIGHT_AFTER = new Set(['.', '[', '(', '*', '/', '%', '@']);
const PY_PREFIX = /^(?:[rub]|br|rb)$/;

/**
 * The text between two Python literals that glues them: spaces, at most one `+`, bare line breaks only beside a `+`
 * (in brackets), or between two blobs inside brackets (see blobs).
 */
function pyGlues(gap: string, blobs: boolean): boolean {
  let plus = 0;
  let bareBreak = false;
  for (let k = 0; k < gap.length; k++) {
    const ch = gap[k]!;
    if (ch === ' ' || ch === '\t') continue;
    if (ch === '+') plus++;
    else if (ch === '\\' && (gap[k + 1] === '\n' || (gap[k + 1] === '\r' && gap[k + 2] === '\n'))) k += gap[k + 1] === '\r' ? 2 : 1;
    else if (ch === '\n' || ch === '\r') bareBreak = true;
    else return false;
  }
  return plus === 1 || (plus === 0 && (!bareBreak || blobs));
}

/** A literal's body in base64's or hex's alphabet, at least this long: a piece of an encoded blob, not of a sentence or an address. */
const BLOB_PIECE = /^[A-Za-z0-9+/=_-]{16,}$/;

/**
 * Two Python literals inside the same brackets, each a piece of a blob: Python joins adjacent literals across line
 * breaks inside brackets, and encoded payloads are written as a column of such pieces (`("JABQ..." <newline> "bAB5...")`).
 * Sentences and addresses split over lines (messages, help texts, a release URL) are left as written.
 */
function blobPieces(text: string, a: Literal, b: Literal): boolean {
  return a.depth !== undefined && a.depth > 0 && a.depth === b.depth && BLOB_PIECE.test(text.slice(a.bodyStart, a.bodyEnd)) && BLOB_PIECE.test(text.slice(b.bodyStart, b.bodyEnd));
}

/** The longest text between two glued literals (white space, a `+`, a line continuation). */
const MAX_GAP = 256;

/** Runs of two or more literals glued together, none beside an operator that binds tighter than `+`. */
function runsOf(text: string, lits: readonly Literal[], language: 'javascript' | 'python'): Run[] {
  const glues = (a: Literal, b: Literal): boolean => (language === 'javascript' ? jsGlues(text.slice(a.end, b.start)) : pyGlues(text.slice(a.end, b.start), blobPieces(text, a, b)));
  const runs: Run[] = [];
  for (let i = 0; i < lits.length; i++) {
    const parts: Literal[] = [lits[i]!];
    let j = i;
    while (j + 1 < lits.length && lits[j + 1]!.prefix === parts[0]!.prefix && lits[j + 1]!.start - lits[j]!.end <= MAX_GAP && glues(lits[j]!, lits[j + 1]!)) {
      parts.push(lits[j + 1]!);
      j++;
    }
    const start = parts[0]!.start;
    const end = parts[parts.length - 1]!.end;
    if (parts.length > 1 && !tightNeighbour(text, start, end, language)) runs.push({ parts, separator: null, start, end });
    i = j;
  }
  return runs;
}

const PY_JOIN_OPEN = /^\s*\.\s*join\s*\(\s*[[(]\s*/;
const PY_JOIN_CLOSE = /^\s*(?:,\s*)?[\])]\s*\)/;
const JS_JOIN_OPEN = /^\s*(?:,\s*)?\]\s*\.\s*join\s*\(\s*/;
const JS_JOIN_CLOSE = /^\s*\)/;
const COMMA = /^\s*,\s*$/;

/** Literals listed with commas from lits[i], as long as each gap is a comma: the index of the last. */
function listFrom(text: string, lits: readonly Literal[], i: number): number {
  let j = i;
  while (j + 1 < lits.length && lits[j + 1]!.prefix === lits[i]!.prefix && lits[j + 1]!.start - lits[j]!.end <= MAX_GAP && COMMA.test(text.slice(lits[j]!.end, lits[j + 1]!.start))) j++;
  return j;
}

/** Lists of literals joined by a literal separator: Python's `sep.join([...])`, JavaScript's `[...].join(sep)`. */
function joinRuns(text: string, lits: readonly Literal[], language: 'javascript' | 'python'): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < lits.length; i++) {
    const lit = lits[i]!;
    if (language === 'python') {
      const open = PY_JOIN_OPEN.exec(text.slice(lit.end, lit.end + 40));
      const first = lits[i + 1];
      if (!open || !first || first.start !== lit.end + open[0].length || first.prefix !== lit.prefix) continue;
      const j = listFrom(text, lits, i + 1);
      const close = PY_JOIN_CLOSE.exec(text.slice(lits[j]!.end, lits[j]!.end + 40));
      if (!close) continue;
      const end = lits[j]!.end + close[0].length;
      if (!tightNeighbour(text, lit.start, end, language)) runs.push({ parts: lits.slice(i + 1, j + 1), separator: lit, start: lit.start, end });
      i = j;
    } else {
      const bracket = /\[\s*$/.exec(text.slice(Math.max(0, lit.start - 40), lit.start));
      if (!bracket) continue;
      const start = lit.start - bracket[0].length;
      if (start > 0 && /[\w$)\]]/.test(text[start - 1]!)) continue;
      const j = listFrom(text, lits, i);
      const open = JS_JOIN_OPEN.exec(text.slice(lits[j]!.end, lits[j]!.end + 40));
      const sep = lits[j + 1];
      if (!open || !sep || sep.start !== lits[j]!.end + open[0].length) continue;
      const close = JS_JOIN_CLOSE.exec(text.slice(sep.end, sep.end + 20));
      if (!close) continue;
      const end = sep.end + close[0].length;
      if (!tightNeighbour(text, start, end, language)) runs.push({ parts: lits.slice(i, j + 1), separator: sep, start, end });
      i = j + 1;
    }
  }
  return runs;
}

/** Single literals holding an escape of a printable character (`'\x63hild_process'`): written plain too. */
function escapedRuns(text: string, lits: readonly Literal[]): Run[] {
  const runs: Run[] = [];
  for (const lit of lits) {
    const body = text.slice(lit.bodyStart, lit.bodyEnd);
    if (body.includes('\\') && plainEscapes(body, lit.prefix) !== body) runs.push({ parts: [lit], separator: null, start: lit.start, end: lit.end });
  }
  return runs;
}

function runsIn(text: string, lits: readonly Literal[], language: 'javascript' | 'python'): Run[] {
  // (a literal of a glued or joined run is written plain with its run: those come first, and overlapping runs after them are skipped)
  return [...runsOf(text, lits, language), ...joinRuns(text, lits, language), ...escapedRuns(text, lits)];
}

/** Python's raw, bytes and plain literals (u is plain); f-strings are left as written. */
function pyLiterals(text: string): Literal[] {
  return scanPython(text)
    .literals.filter((l) => l.prefix === '' || PY_PREFIX.test(l.prefix))
    .map((l) => (l.prefix === 'u' ? { ...l, prefix: '' } : l));
}

/** The one-line string literals of a JavaScript or Python text, in order. */
export function stringLiterals(text: string, language: 'javascript' | 'python'): Literal[] {
  if (text.length > MAX_PARSE_BYTES) return [];
  return language === 'javascript' ? jsLiterals(text) : pyLiterals(text);
}

/** The text with every run of glued string literals written as one literal (same length, same lines), and where they are. */
export function foldGluedLiterals(text: string, language: 'javascript' | 'python'): Folded {
  const none: Folded = { text, spans: [] };
  if (text.length > MAX_PARSE_BYTES) return none;
  if (language === 'javascript') return JS_PRECHECK.test(text) ? apply(text, runsIn(text, jsLiterals(text), language)) : none;
  return PY_PRECHECK.test(text) ? apply(text, runsIn(text, pyLiterals(text), language)) : none;
}
