// Whether the code at an offset runs when its file is loaded (imported or required), read from the text alone. Rules
// whose severity rises for code that runs on import ask this per match, so a module-level constant or a function body
// that runs only when the package's user calls it is not read as running on import. The reading is conservative:
// whatever it cannot follow (unbalanced brackets, minified lines, very large files, long chains of calls) runs.
import { isName } from './decoded.js';

/** Files larger than this are not read: all of them runs on import. */
const MAX_TEXT = 2 * 1024 * 1024;
/** A line longer than this is minified code, not read. */
const MAX_LINE = 1000;
/** How many calls deep a function is followed to a call that runs on import. */
const MAX_DEPTH = 4;
/** The most references to one name examined; a name used more often runs. */
const MAX_REFS = 200;
/** The most references examined for one offset. */
const MAX_STEPS = 2000;

/** Method names that run without being called by name: constructors, conversions, thenables. */
const IMPLICIT = new Set(['constructor', 'toString', 'valueOf', 'toJSON', 'then']);
/** Words followed by `(...) {` that is not a method. */
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'function', 'do', 'else', 'new', 'delete', 'void', 'in', 'of', 'instanceof', 'await', 'yield', 'case', 'throw', 'super', 'import']);
/** Words after which `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof']);
const OPENER: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
/** The characters the scanners stop at; the others are stepped over quickly. */
const marks = (chars: string): Uint8Array => Uint8Array.from({ length: 128 }, (_, c) => (chars.includes(String.fromCharCode(c)) ? 1 : 0));
const JS_MARKS = marks('"\'`/()[]{}');
const PY_MARKS = marks('"\'()[]{}\\\n');
/** The head of a constant's declaration at the start of a line: `const KEY = `, Python `KEY = ` (the name is group 2). */
const JS_CONST = /([ \t]*(?:export[ \t]+)?(?:const|let|var)[ \t]+)([A-Za-z_$][\w$]*)[ \t]*=[ \t]*/y;
const PY_CONST = /()([A-Za-z_]\w*)[ \t]*=[ \t]*/y;
const END_OF_STATEMENT = /[ \t]*(?:;|\r?\n|$)/y;
/** `if __name__ == "__main__":`, whose block runs only when the file is run as a script. */
const PY_MAIN = /^if\s+(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)\s*:/;

/** A function body's name and where it is written: null when the body runs where it stands (callbacks, IIFEs, constructors, accessors), '' when nothing in the file can call it by name (`module.exports = function`); `declared` for declarations and methods, which cannot be invoked where they stand. */
interface FnName { name: string | null; at: number; declared: boolean }
/** A file read once (numbers in parallel arrays: bundles have hundreds of thousands of brackets). */
interface Scan {
  code: string;
  python: boolean;
  /** String, template and regular-expression literals (first and last character), in order. */
  litStart: number[]; litEnd: number[];
  /** JavaScript bracket pairs in the order they open: where each opens and closes, its opening character (`$` for a template's `${`), the pair around it (-1 at module level); the function bodies among them. */
  open: number[]; close: number[]; ch: string[]; parent: number[]; fns: Map<number, FnName>;
  /** Python logical lines: where each starts, where its text starts, its indentation, the line it is nested in. */
  lineStart: number[]; lineText: number[]; lineIndent: number[]; lineParent: number[];
  /** Offsets where a function's name is written as defined rather than referred to. */
  defs: Set<number>;
  /** Each name's references (null: too many), and the names found to run on import. */
  refs: Map<string, number[] | null>; runs: Set<string>;
}
interface Question { seen: Set<string>; steps: number; elsewhere: ((name: string) => boolean) | undefined }

/**
 * Whether the code at `offset` of a file runs when the file is loaded (imported/required), as far as a reading of the
 * text can tell; true when unsure. `elsewhere` tells whether the package's other files loaded on import use a name
 * where it runs then (`_compat.ensure_runtime()` in `__init__.py`); '' stands for the module itself
 * (`require('./sync')()` of a `module.exports = function`).
 */
export function runsAtImport(code: string, offset: number, language: 'javascript' | 'python', elsewhere?: (name: string) => boolean): boolean {
  if (offset < 0 || offset >= code.length || code.length > MAX_TEXT) return true;
  const lineEnd = code.indexOf('\n', offset);
  if ((lineEnd < 0 ? code.length : lineEnd) - (code.lastIndexOf('\n', offset - 1) + 1) > MAX_LINE) return true;
  const s = scanOf(code, language);
  if (s === null) return true;
  const q: Question = { seen: new Set(), steps: 0, elsewhere };
  const constant = constantAt(s, offset);
  return constant ? nameRuns(s, constant.name, constant.at, 0, q) : runsAt(s, offset, 0, q);
}

/**
 * Whether a file uses `name` (a function or value another file defines) where it runs when the file is loaded: a call
 * or a use of it that runs then, not a definition, an export list or an assignment to it. True when unsure.
 */
export function usesAtImport(code: string, name: string, language: 'javascript' | 'python', elsewhere?: (name: string) => boolean): boolean {
  if (code.length > MAX_TEXT) return true;
  const s = scanOf(code, language);
  if (s === null) return true;
  return nameRuns(s, name, -1, 0, { seen: new Set(), steps: 0, elsewhere });
}

/** The last few files' scans: matches come in batches for one text, and a question may read the package's other files. */
const recent: { code: string; language: string; scan: Scan | null }[] = [];
const RECENT_SCANS = 4;

function scanOf(code: string, language: 'javascript' | 'python'): Scan | null {
  const k = recent.findIndex((r) => r.code === code && r.language === language);
  if (k >= 0) return recent[k]!.scan;
  const entry = { code, language, scan: language === 'python' ? scanPython(code) : scanJs(code) };
  recent.unshift(entry);
  if (recent.length > RECENT_SCANS) recent.pop();
  return entry.scan;
}

function emptyScan(code: string, python: boolean): Scan {
  return { code, python, litStart: [], litEnd: [], open: [], close: [], ch: [], parent: [], fns: new Map(), lineStart: [], lineText: [], lineIndent: [], lineParent: [], defs: new Set(), refs: new Map(), runs: new Set() };
}

const skipBack = (code: string, i: number): number => { while (i >= 0 && /\s/.test(code[i] ?? '')) i--; return i; };
const skipOn = (code: string, i: number): number => { while (i < code.length && /\s/.test(code[i] ?? '')) i++; return i; };

/** The last index of sorted `values` whose value is at most `x`, or -1. */
function lastAtMost(values: readonly number[], x: number): number {
  let [lo, hi] = [0, values.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] ?? 0) <= x) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi;
}
const exactly = (values: readonly number[], x: number): number => { const k = lastAtMost(values, x); return values[k] === x ? k : -1; };

/** The last quote of the string opening at `q` with `quotes` (one line long unless they are Python's triple quotes), or -1. */
function quoteEnd(code: string, q: number, quotes = code[q] ?? ''): number {
  for (let j = q + quotes.length; j < code.length; j++) {
    if (code[j] === '\\') j++;
    else if (code.startsWith(quotes, j)) return j + quotes.length - 1;
    else if (code[j] === '\n' && quotes.length === 1) return -1;
  }
  return -1;
}

/** The last character (flags included) of the regular expression opening at `i`, or -1 when it is not one. */
function regexEnd(code: string, i: number): number {
  let inClass = false;
  for (let j = i + 1; j < code.length; j++) {
    const c = code[j];
    if (c === '\\') j++;
    else if (c === '\n') return -1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '/') { while (isName(code[j + 1])) j++; return j; }
  }
  return -1;
}

/** Whether a `/` after the code's character at `prev` starts a regular expression. */
function regexAllowed(code: string, prev: number): boolean {
  if (prev < 0) return true;
  if (!isName(code[prev])) return !')]}\'"`'.includes(code[prev] ?? '');
  let k = prev;
  while (k > 0 && isName(code[k - 1])) k--;
  return BEFORE_REGEX.has(code.slice(k, prev + 1));
}

/** JavaScript: literals stepped over, brackets paired, function bodies named; null when the text does not pair up. */
function scanJs(code: string): Scan | null {
  const s = emptyScan(code, false);
  const stack: number[] = [];
  const push = (at: number, ch: string): number => {
    s.parent.push(stack.at(-1) ?? -1);
    s.close.push(-1);
    s.ch.push(ch);
    stack.push(s.open.push(at) - 1);
    return s.open.length - 1;
  };
  const literal = (from: number, to: number): void => { s.litStart.push(from); s.litEnd.push(to); };
  // template text from `from` (its piece starting at `piece`) up to the closing backtick or a `${`, where it returns
  const template = (from: number, piece: number): number => {
    for (let j = from; j < code.length; j++) {
      if (code[j] === '\\') j++;
      else if (code[j] === '`') { literal(piece, j); return j; }
      else if (code[j] === '$' && code[j + 1] === '{') { literal(piece, j); push(j + 1, '$'); return j + 1; }
    }
    return -1;
  };
  let prev = -1; // the last character of code read, literals included
  let [lastOpen, lastClose] = [-1, -1]; // the last (...) closed
  for (let i = 0; i < code.length; i++) {
    const cc = code.charCodeAt(i);
    if (cc < 128 && !JS_MARKS[cc]) { if (cc > 32) prev = i; continue; }
    const c = code[i] ?? '';
    let end = i;
    if (c === '"' || c === "'") { end = quoteEnd(code, i); if (end >= 0) literal(i, end); }
    else if (c === '`') end = template(i + 1, i);
    else if (c === '/' && regexAllowed(code, prev)) { end = regexEnd(code, i); if (end < 0) end = i; else literal(i, end); }
    else if (c === '(' || c === '[') push(i, c);
    else if (c === '{') {
      const fn = fnName(code, prev, lastOpen, lastClose);
      const b = push(i, c);
      if (fn) { s.fns.set(b, fn); if (fn.at >= 0) s.defs.add(fn.at); }
    } else if (OPENER[c]) {
      const b = stack.pop() ?? -1;
      const ch = s.ch[b];
      if (ch !== OPENER[c] && !(ch === '$' && c === '}')) return null;
      s.close[b] = i;
      if (c === ')') [lastOpen, lastClose] = [s.open[b] ?? -1, i];
      const fn = s.fns.get(b);
      if (fn && !fn.declared && /^\s*(?:\)\s*)?(?:\(|\.\s*(?:call|apply)\s*\()/.test(code.slice(i + 1, i + 40))) fn.name = null;
      if (ch === '$') end = template(i + 1, i);
    }
    if (end < 0) return null;
    prev = i = end;
  }
  return stack.length === 0 ? s : null;
}

/** The name of the function whose body opens after `prev`, or undefined when the brace opens a block or an object. */
function fnName(code: string, prev: number, lastOpen: number, lastClose: number): FnName | undefined {
  const anonymous: FnName = { name: null, at: -1, declared: false };
  let head: number;
  let declared: FnName | null = null;
  if (code[prev] === '>' && code[prev - 1] === '=') {
    const q = skipBack(code, prev - 2);
    if (q >= 0 && q === lastClose) head = lastOpen;
    else if (isName(code[q])) for (head = q; head > 0 && isName(code[head - 1]); ) head--;
    else return anonymous;
  } else if (prev >= 0 && prev === lastClose) {
    const before = code.slice(Math.max(0, lastOpen - 60), lastOpen);
    const base = lastOpen - before.length;
    const f = before.includes('function') && /(?<![\w$])function\s*(?:\*\s*)?([A-Za-z_$][\w$]*)?\s*$/.exec(before);
    if (f && !isName(f[0][8])) {
      head = base + f.index;
      if (f[1]) declared = { name: IMPLICIT.has(f[1]) ? null : f[1], at: base + f.index + f[0].lastIndexOf(f[1]), declared: true };
    } else {
      // a method: `name(`, `async name(`, `static name(`, `get name(`
      const m = /(?:^|[^\w$.#])((?:(?:async|static|get|set)\s+)*)\*?\s*#?([A-Za-z_$][\w$]*)\s*$/.exec(before);
      if (!m?.[2] || KEYWORDS.has(m[2])) return undefined;
      const implicit = IMPLICIT.has(m[2]) || /(?:get|set)\s/.test(m[1] ?? '');
      return { name: implicit ? null : m[2], at: base + m.index + m[0].lastIndexOf(m[2]), declared: true };
    }
  } else return undefined;
  const raw = code.slice(Math.max(0, head - 60), head);
  const pre = raw.replace(/(?<![\w$])async\s*$/, '');
  const base = head - raw.length;
  if (/(?<![\w$])new\s*$/.test(pre)) return anonymous; // `new function () {...}` runs now
  if (/(?:(?<![\w$.])(?:module\.)?exports\s*=|(?<![\w$])export\s+default)\s*$/.test(pre)) return { name: '', at: -1, declared: false };
  const assigned = /(?<![\w$])([A-Za-z_$][\w$]*)\s*[=:]\s*$/.exec(pre);
  if (assigned?.[1]) return { name: IMPLICIT.has(assigned[1]) ? null : assigned[1], at: base + assigned.index, declared: false };
  // a named function expression passed as a value runs where it is passed, as a callback does
  const expression = /(?:[([,?!&|+\-*%<>~^]|(?<![\w$])(?:return|typeof|void|yield|await|delete|throw|in|of|case))\s*$/.test(pre);
  return declared && !expression ? declared : anonymous;
}

/** Python: literals stepped over, logical lines with their indentation and nesting; null when brackets do not pair up. */
function scanPython(code: string): Scan | null {
  const s = emptyScan(code, true);
  const open: string[] = [];
  const nesting: number[] = [];
  let continued = false;
  // a line starting at `i` outside brackets and not continued by a backslash starts a statement
  const line = (i: number): void => {
    if (open.length > 0 || continued) { continued = false; return; }
    let [j, indent] = [i, 0];
    for (; code[j] === ' ' || code[j] === '\t'; j++) indent = code[j] === '\t' ? indent + 8 - (indent % 8) : indent + 1;
    if (j >= code.length || code[j] === '\n' || code[j] === '\r') return;
    while (nesting.length > 0 && (s.lineIndent[nesting.at(-1) ?? 0] ?? 0) >= indent) nesting.pop();
    s.lineParent.push(nesting.at(-1) ?? -1);
    s.lineIndent.push(indent);
    s.lineText.push(j);
    nesting.push(s.lineStart.push(i) - 1);
  };
  line(0);
  for (let i = 0; i < code.length; i++) {
    const cc = code.charCodeAt(i);
    if (cc < 128 && !PY_MARKS[cc]) continue;
    const c = code[i] ?? '';
    if (c === '\n') line(i + 1);
    else if (c === '"' || c === "'") {
      let from = i;
      while (from > 0 && /[rRbBuUfF]/.test(code[from - 1] ?? '') && i - from < 2) from--;
      if (isName(code[from - 1])) from = i;
      const end = quoteEnd(code, i, code.startsWith(c.repeat(3), i) ? c.repeat(3) : c);
      if (end < 0) return null;
      // an f-string's fields are code: its names count as references
      if (!/[fF]/.test(code.slice(from, i))) { s.litStart.push(from); s.litEnd.push(end); }
      i = end;
    } else if (c === '(' || c === '[' || c === '{') open.push(c);
    else if (OPENER[c]) { if (open.pop() !== OPENER[c]) return null; }
    else if (c === '\\' && (code[i + 1] === '\n' || code[i + 1] === '\r')) continued = true;
  }
  for (const m of code.matchAll(/(?<!\w)(?:def|class)\s+([A-Za-z_]\w*)/g)) s.defs.add(m.index + m[0].length - (m[1]?.length ?? 0));
  return open.length === 0 ? s : null;
}

/** Whether the code at `offset` runs on import: no enclosing named function defers it, or one that does is called on import. */
function runsAt(s: Scan, offset: number, depth: number, q: Question): boolean {
  if (++q.steps > MAX_STEPS) return true;
  if (s.python) {
    for (let p = s.lineParent[lastAtMost(s.lineStart, offset)] ?? -1; p >= 0; p = s.lineParent[p] ?? -1) {
      const text = s.lineText[p] ?? 0;
      const head = s.code.slice(text, text + 200);
      if (PY_MAIN.test(head)) return false; // runs only as a script
      const def = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(head);
      if (!def?.[1] || /^__\w+__$/.test(def[1])) continue; // a class body runs; dunder methods run implicitly
      if (s.lineIndent[p - 1] === s.lineIndent[p] && s.code[s.lineText[p - 1] ?? 0] === '@') continue; // decorated: registered to run
      return nameRuns(s, def[1], text + def[0].length - def[1].length, depth, q);
    }
    return true;
  }
  for (let b = enclosing(s, offset); b >= 0; b = s.parent[b] ?? -1) {
    const fn = s.fns.get(b);
    if (fn && fn.name !== null) return nameRuns(s, fn.name, fn.at, depth, q);
  }
  return true;
}

/** The innermost bracket pair around `offset`, or -1. */
function enclosing(s: Scan, offset: number): number {
  let k = lastAtMost(s.open, offset - 1);
  while (k >= 0 && (s.close[k] ?? 0) < offset) k = s.parent[k] ?? -1;
  return k;
}

/** Whether a function or constant named `name` (written at `at`) is used where it runs on import. */
function nameRuns(s: Scan, name: string, at: number, depth: number, q: Question): boolean {
  if (name === '') return q.elsewhere?.('') ?? false;
  if (s.runs.has(name) || depth >= MAX_DEPTH) return true;
  if (q.seen.has(name)) return false;
  const refs = references(s, name);
  if (refs === null) return true;
  q.seen.add(name);
  const runs = refs.some((r) => r !== at && !s.defs.has(r) && counts(s, r, name) && runsAt(s, r, depth + 1, q)) || (q.elsewhere?.(name) ?? false);
  q.seen.delete(name);
  if (runs) s.runs.add(name);
  return runs;
}

/** Where `name` is written as a whole word outside literals; null when more than MAX_REFS times. */
function references(s: Scan, name: string): number[] | null {
  let refs = s.refs.get(name);
  if (refs !== undefined) return refs;
  refs = [];
  for (let i = s.code.indexOf(name); i !== -1; i = s.code.indexOf(name, i + name.length)) {
    if (isName(s.code[i - 1]) || isName(s.code[i + name.length])) continue;
    const k = lastAtMost(s.litStart, i);
    if (k >= 0 && (s.litEnd[k] ?? 0) >= i) continue;
    if (refs.push(i) > MAX_REFS) { refs = null; break; }
  }
  s.refs.set(name, refs);
  return refs;
}

/** Whether the reference at `r` may run the function or read the constant: not an assignment to it, nor a listing of it in an object, an export list or an export. */
function counts(s: Scan, r: number, name: string): boolean {
  const after = s.code.slice(r + name.length, r + name.length + 40);
  if (/^\s*=(?![=>])/.test(after)) return false;
  if (s.python) return true;
  const before = s.code.slice(Math.max(0, r - 80), r);
  if (/(?:(?<![\w$])export\s+default|(?<![\w$.])(?:module\.)?exports(?:\.[\w$]+)?\s*=)\s*$/.test(before) && /^[ \t]*(?:;|\r?\n|$)/.test(after)) return false;
  const b = enclosing(s, r);
  return !(s.ch[b] === '{' && !s.fns.has(b) && /^\s*[,}:]/.test(after) && /[{,:]\s*$/.test(before));
}

/** The module-level constant whose literal initializer (or declaration line) holds `offset`: `const KEY = '...';`, Python `KEY = ("..." "...")`. */
function constantAt(s: Scan, offset: number): { name: string; at: number } | null {
  const { code, python } = s;
  let at = offset;
  const k = lastAtMost(s.litStart, offset);
  if (k >= 0 && (s.litEnd[k] ?? 0) >= offset) {
    // back to the first literal of a concatenation
    for (at = s.litStart[k] ?? offset; ; ) {
      let p = skipBack(code, at - 1);
      const plus = code[p] === '+';
      if (plus) p = skipBack(code, p - 1);
      const before = exactly(s.litEnd, p);
      if (before < 0 || (!plus && !python)) break;
      at = s.litStart[before] ?? at;
    }
    const p = skipBack(code, at - 1);
    if (python && code[p] === '(') at = p;
  }
  const head = python ? PY_CONST : JS_CONST;
  head.lastIndex = code.lastIndexOf('\n', at - 1) + 1;
  const m = head.exec(code);
  // at module level: Python's at the start of a statement (not a keyword argument on a continued line), JavaScript's outside functions
  if (!m?.[2] || (python ? s.lineIndent[exactly(s.lineStart, m.index)] !== 0 : enclosingFn(s, m.index))) return null;
  const end = chainEnd(s, m.index + m[0].length);
  return end >= 0 && offset <= end ? { name: m[2], at: m.index + (m[1]?.length ?? 0) } : null;
}

const enclosingFn = (s: Scan, offset: number): boolean => {
  for (let b = enclosing(s, offset); b >= 0; b = s.parent[b] ?? -1) if (s.fns.has(b)) return true;
  return false;
};

/** The end of a whole-statement initializer of literals joined by `+` (Python: also side by side, in parentheses) starting at `from`, or -1. */
function chainEnd(s: Scan, from: number): number {
  const { code, python } = s;
  const paren = python && code[from] === '(';
  let i = paren ? skipOn(code, from + 1) : from;
  let end: number;
  for (;;) {
    const k = exactly(s.litStart, i);
    if (k < 0 || code[i] === '/') return -1; // strings only, not regular expressions
    end = (s.litEnd[k] ?? 0) + 1;
    i = skipOn(code, end);
    if (code[i] === '+') i = skipOn(code, i + 1);
    else if (!python || exactly(s.litStart, i) < 0) break;
  }
  if (paren) { if (code[i] !== ')') return -1; end = i + 1; }
  END_OF_STATEMENT.lastIndex = end;
  return END_OF_STATEMENT.test(code) ? end : -1;
}
