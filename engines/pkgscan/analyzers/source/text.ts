// Source text helpers for the rule engine: language of a file, comment stripping (acorn for JavaScript, string-aware tokenizers for Python and the C family), line numbers and bounded match text.
import * as acorn from 'acorn';
import * as loose from 'acorn-loose';
import { C0_DEL_C1_FORMAT, replaceControlCharacters } from '../../../core/control-characters.js';
import { isRecord, LineIndex } from '../../../core/manifests/context.js';

export type SourceLanguage = 'javascript' | 'python' | 'shell' | 'pth' | 'native' | 'data';

/** Files larger than this are matched with line patterns only (no parse): acorn on a huge bundle costs seconds and memory. */
export const MAX_PARSE_BYTES = 1024 * 1024;
/** Files larger than this are not read by the source rules at all (a finding says so). */
export const MAX_SCAN_BYTES = 8 * 1024 * 1024;

/**
 * Build descriptions whose commands run while the release is built: CMake and Meson, and a React Native library's
 * podspec (Ruby that `pod install` evaluates, its prepare_command and script phases shell commands) and Gradle build
 * files (the app's Android build runs their tasks). Read as shell: their payloads are commands (node-gyp's binding.gyp
 * commands are read by hooks.ts).
 */
const BUILD_SCRIPT = /(?:^|\/)(?:cmakelists\.txt|meson\.build|podfile)$|\.(?:cmake|podspec|gradle|gradle\.kts)$/;
/**
 * Shell start-up files and plugins shipped for the user's shell (`.zshrc`, `.bashrc`, `.profile`, oh-my-zsh's
 * `name.plugin.zsh`, a `.zsh-theme`): the user's shell sources them at every start, so they are read as shell.
 */
const SHELL_STARTUP = /(?:^|\/)\.?(?:bashrc|bash_profile|bash_login|zshrc|zshenv|zprofile|zlogin|profile|kshrc)$/;

/** Files a source build runs: the build descriptions above, and Cargo's build.rs (setuptools-rust, maturin, napi-rs). */
export function runsAtBuild(filePath: string): boolean {
  const lower = filePath.toLowerCase();
  return BUILD_SCRIPT.test(lower) || /(?:^|\/)build\.rs$/.test(lower);
}

/**
 * A template's suffix over the name of the file a generator writes from it (`config.py.tmpl`, `client.py.jinja`,
 * Sphinx's `conf.py_t`, Django's `settings.py-tpl`, `index.js.tpl`): the template is read as the code it becomes in its
 * user's project, where it runs.
 */
const TEMPLATE_SUFFIX = /(?<=\.[a-z]{1,4})(?:\.(?:jinja2?|j2|tmpl|tpl|template|mustache|hbs|handlebars|ejs|njk|liquid)|_t|-tpl)$/;

/**
 * The rule language of a package path, or null when the source rules do not read it. `native`: C, C++, Objective-C,
 * Rust and Go sources (an extension's module init, a constructor or build.rs runs them); `data`: YAML, whose
 * `!!python/` tags construct objects when an unsafe loader reads it, and setup.cfg, whose `[easy_install]` section
 * tells setuptools where to fetch build requirements. Cython is read as the Python it mostly is.
 */
export function languageOf(filePath: string): SourceLanguage | null {
  const lower = filePath.toLowerCase();
  const template = TEMPLATE_SUFFIX.exec(lower);
  if (template) return languageOf(lower.slice(0, template.index));
  if (/\.(js|cjs|mjs|jsx)$/.test(lower) || (/\.(ts|tsx|mts|cts)$/.test(lower) && !/\.d\.[mc]?ts$/.test(lower))) return 'javascript';
  if (/\.(py|pyw|pyx|pxd|pxi)$/.test(lower)) return 'python';
  if (lower.endsWith('.pth')) return 'pth';
  if (/\.(sh|bash|zsh|ksh|fish|zsh-theme|bat|cmd|ps1|vbs)$/.test(lower) || SHELL_STARTUP.test(lower) || BUILD_SCRIPT.test(lower)) return 'shell';
  if (/\.(c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|rs|go)$/.test(lower)) return 'native';
  if (/\.ya?ml$/.test(lower) || /(?:^|\/)setup\.cfg$/.test(lower)) return 'data';
  return null;
}

/** A compiled module's name: a Node addon, a Python extension module, a shared library. */
const COMPILED_MODULE = /\.(?:node|pyd|so(?:\.\d{1,4}){0,3}|dylib|dll)$/i;
/**
 * Names of binary formats (fonts, images, media, archives, WebAssembly): real ones hold zero bytes in their first
 * kilobytes; one that is text with code in it is a program kept under a name nobody reads (`require('./fonts/inter-var.woff2')`,
 * `node src/assets/fonts/Poppins-Regular.ttf` in a script).
 */
const BINARY_NAME = /\.(?:woff2?|ttf|otf|eot|png|jpe?g|gif|bmp|ico|webp|tiff?|mp3|mp4|wav|ogg|webm|pdf|zip|gz|tgz|bz2|xz|7z|rar|jar|wasm|exe)$/i;
/** Text a compiled module's name may honestly hold: a GNU linker script (libc.so), a Git LFS pointer. */
const HONEST_TEXT = /^\s*(?:\/\*\s*GNU ld script|(?:INPUT|GROUP|OUTPUT_FORMAT)\s*\(|version https:\/\/git-lfs\.github\.com\/spec\/)/;
const PYTHON_LINE = /^[ \t]*(?:import[ \t]+\w|from[ \t]+[\w.]+[ \t]+import\b|def[ \t]+\w+[ \t]*\(|class[ \t]+\w+[ \t]*[:(])/m;
const JS_SIGN = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w|\bfunction\b\s*(?:[\w$]{1,60}\s*)?\(|=>|\b(?:var|const|let)\s+[\w$_[{]/;
/** What only JavaScript writes (Python text holding it is JavaScript with Python-looking lines). */
const JS_ONLY = /\brequire\s*\(|\bmodule\.exports\b|\bfunction\b\s*(?:[\w$]{1,60}\s*)?\(/;

/**
 * The language of source code kept under a compiled module's name or a binary format's (`fxp_native.node` that is JavaScript,
 * `_speedups.cpython-311-x86_64-linux-gnu.so` that is Python): a loader reads it back and runs it when loading it as
 * a module fails, as it must; a reader of the file list sees a native build. Null for a real binary (its header
 * holds zero bytes), a linker script, an LFS pointer or text that is no code.
 */
export function sourceInCompiledName(filePath: string, data: Uint8Array): SourceLanguage | null {
  if (!(COMPILED_MODULE.test(filePath) || BINARY_NAME.test(filePath)) || data.length === 0 || data.length > MAX_SCAN_BYTES) return null;
  const head = data.subarray(0, 4096);
  if (head.includes(0)) return null;
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf8');
  if (text.includes('\ufffd') || HONEST_TEXT.test(text)) return null;
  const python = PYTHON_LINE.test(text);
  const js = JS_SIGN.test(text);
  if (python && !JS_ONLY.test(text)) return 'python';
  return js ? 'javascript' : python ? 'python' : null;
}

/** The language an extensionless script names on its `#!` line (`#!/bin/sh`, `#!/usr/bin/env node`), or null. */
export function shebangLanguage(filePath: string, head: string): SourceLanguage | null {
  if (filePath.slice(filePath.lastIndexOf('/') + 1).includes('.') || !head.startsWith('#!')) return null;
  const line = head.slice(0, head.indexOf('\n') === -1 ? head.length : head.indexOf('\n'));
  if (/\b(?:ba|da|z|k)?sh\b/.test(line)) return 'shell';
  if (/\bpython[\d.]*\b/.test(line)) return 'python';
  if (/\b(?:node|nodejs|deno|bun)\b/.test(line)) return 'javascript';
  return null;
}

/** A template named by its engine alone (`client.hbs`, `model.mustache`, `service.tmpl`): no inner extension says what it becomes. */
const BARE_TEMPLATE = /(?:^|\/)[^/.]+\.(?:jinja2?|j2|tmpl|tpl|template|mustache|hbs|handlebars|njk)$/i;

/**
 * The language of a code generator's template named by its engine alone, by what its first 4 KB read as: Python's
 * imports and definitions, or JavaScript's require, exports, functions and declarations (HTML pages and their inline
 * scripts start with markup and are not read). Null for any other file.
 */
export function templateLanguage(filePath: string, data: Uint8Array): SourceLanguage | null {
  if (!BARE_TEMPLATE.test(filePath)) return null;
  const first = data.subarray(0, 4096);
  const head = Buffer.from(first.buffer, first.byteOffset, first.byteLength).toString('utf8');
  if (/^\s*</.test(head)) return null;
  // an ES module's import of a path (`import type * as M from './models'`) is JavaScript; Python imports no quoted path
  if (/^[ \t]*(?:import|export)\s[^\n]{0,200}\bfrom\s*['"]/m.test(head)) return 'javascript';
  if (PYTHON_LINE.test(head) && !JS_ONLY.test(head)) return 'python';
  return JS_SIGN.test(head) ? 'javascript' : null;
}

/** At most 200 characters, control and bidirectional characters escaped (`\x1b`, `\u202e`). */
export function boundMatch(text: string): string {
  // Every character escapes to one or more, so the first 201 decide the answer: a long match is not escaped whole.
  const escaped = replaceControlCharacters(text.length > 201 ? text.slice(0, 201) : text, C0_DEL_C1_FORMAT, (code) => (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`));
  return escaped.length > 200 ? `${escaped.slice(0, 197)}...` : escaped;
}

/**
 * The top-level pieces of an argument list or an expression, split at `sep` outside brackets and quotes (a quote's
 * backslash escapes read), as written (`a, f(b, c), 'd,e'` -> `a` | ` f(b, c)` | ` 'd,e'`).
 */
export function splitTopLevel(s: string, sep: ',' | '+' = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === sep && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out;
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
  /** Python: how many brackets are open around it (adjacent literals inside brackets join across line breaks). */
  readonly depth?: number;
}

/**
 * Python's comments, its one-line string literals (triple-quoted and unterminated ones are stepped over, not listed)
 * and its docstrings: a triple-quoted string, not an f-string, that is a statement of its own (first on its line,
 * outside brackets, no continuation before it, nothing but a comment after it).
 */
export function scanPython(text: string): { comments: [number, number][]; literals: StringLiteral[]; docstrings: [number, number][] } {
  const comments: [number, number][] = [];
  const literals: StringLiteral[] = [];
  const docstrings: [number, number][] = [];
  const n = text.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === '#') {
      const e = text.indexOf('\n', i);
      const end = e === -1 ? n : e;
      comments.push([i, end]);
      i = end;
    } else if (c === '"' || c === "'") {
      let p = i;
      while (p > i - 2 && p > 0 && /[rRuUbBfF]/.test(text[p - 1]!)) p--;
      if (p > 0 && /\w/.test(text[p - 1]!)) p = i;
      if (text.startsWith(c.repeat(3), i)) {
        const e = text.indexOf(c.repeat(3), i + 3);
        const end = e === -1 ? n : e + 3;
        if (e !== -1 && depth === 0 && !/f/i.test(text.slice(p, i)) && statementStart(text, p) && statementEnd(text, end)) docstrings.push([p, end]);
        i = end;
        continue;
      }
      let k = i + 1;
      while (k < n && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      if (k < n && text[k] === c) literals.push({ start: p, end: k + 1, quote: c, bodyStart: i + 1, bodyEnd: k, prefix: text.slice(p, i).toLowerCase(), depth });
      i = k + 1;
    } else {
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
      i++;
    }
  }
  return { comments, literals, docstrings };
}

/** Only blanks before `at` on its line, and the line before does not end in a backslash continuation. */
function statementStart(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
  if (k < 0) return true;
  if (text[k] !== '\n') return false;
  return !(text[k - 1] === '\\' || (text[k - 1] === '\r' && text[k - 2] === '\\'));
}

/** Only blanks, then a comment or nothing, from `at` to the end of its line. */
function statementEnd(text: string, at: number): boolean {
  let k = at;
  while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r')) k++;
  return k >= text.length || text[k] === '\n' || text[k] === '#';
}

/** A file that reads docstrings as data (`__doc__`, `inspect.getdoc`, `ast.get_docstring`): its docstrings are kept. */
const READS_DOCSTRINGS = /__doc__|\bgetdoc\b|\bget_docstring\b/;
/** A docstring holding an unbroken run this long (an encoded blob, not prose) is kept for the decoders. */
const BLOB_RUN = /\S{200}/;

/**
 * Python as the rules read it: `#` comments and docstrings blanked (strings, single, triple and prefixed, are
 * understood so a `#` inside one is kept). Docstrings are documentation, as comments are: an address or a command
 * shown in a usage example is not one the code uses. They stay where the file reads its docstrings or where one holds
 * an encoded blob.
 */
export function pythonCode(text: string): string {
  const { comments, docstrings } = scanPython(text);
  if (docstrings.length === 0 || READS_DOCSTRINGS.test(text)) return blank(text, comments);
  const prose = docstrings.filter(([s, e]) => !BLOB_RUN.test(text.slice(s, e)));
  return blank(text, [...comments, ...prose].sort((a, b) => a[0] - b[0]));
}

/**
 * C, C++, Rust and Go as the rules read them: line and block comments blanked; double-quoted strings, short
 * character literals and Go's backquoted strings are stepped over, so a `//` inside a URL literal stays.
 */
export function nativeCode(text: string): string {
  const comments: [number, number][] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const e = text.indexOf('\n', i);
      const end = e === -1 ? n : e;
      comments.push([i, end]);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      const end = e === -1 ? n : e + 2;
      comments.push([i, end]);
      i = end;
    } else if (c === '"') {
      let k = i + 1;
      while (k < n && text[k] !== '"' && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      i = k + 1;
    } else if (c === '`') {
      const e = text.indexOf('`', i + 1);
      i = e === -1 ? n : e + 1;
    } else if (c === "'") {
      // a character literal ('a', '\n', '\x41'); a Rust lifetime ('a) has no closing quote within reach
      let e = i + 1;
      while (e < n && e - i <= 5 && text[e] !== "'" && text[e] !== '\n') e += text[e] === '\\' ? 2 : 1;
      i = e < n && e - i <= 5 && text[e] === "'" ? e + 1 : i + 1;
    } else i++;
  }
  return blank(text, comments);
}

/** A notebook's code cell: its source, and the 0-based line before the cell's first source line in the file. */
export interface NotebookCell {
  readonly code: string;
  readonly lineBase: number;
}

/**
 * The code cells of a Jupyter notebook (nbformat 4 `cells`, nbformat 3 `worksheets[].cells` with `input`), each
 * placed at the file's line of its first source line (Jupyter writes a source as a list of lines, one a line of the
 * file); an empty list for text that is not a notebook.
 */
export function notebookCells(text: string): NotebookCell[] {
  let nb: unknown;
  try {
    nb = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isRecord(nb)) return [];
  const worksheets = Array.isArray(nb['worksheets']) ? nb['worksheets'] : [];
  const cells = [...(Array.isArray(nb['cells']) ? nb['cells'] : []), ...worksheets.flatMap((w) => (isRecord(w) && Array.isArray(w['cells']) ? (w['cells'] as unknown[]) : []))];
  const out: NotebookCell[] = [];
  let lines: LineIndex | undefined;
  let at = 0;
  for (const cell of cells.slice(0, 10_000)) {
    if (!isRecord(cell)) continue;
    const key = 'source' in cell ? 'source' : 'input';
    const source = cell[key];
    // the cell's source key in the file, after the previous cell's: its line places the cell's code
    const found = text.indexOf(`"${key}"`, at);
    if (found !== -1) at = found + key.length + 2;
    if (cell['cell_type'] !== 'code') continue;
    const code = typeof source === 'string' ? source : Array.isArray(source) ? source.filter((x): x is string => typeof x === 'string').join('') : '';
    if (code.trim() === '') continue;
    const line = found === -1 ? 0 : (lines ??= new LineIndex(text)).lineOf(found) + 1;
    out.push({ code, lineBase: Array.isArray(source) ? line : line - 1 });
  }
  return out;
}
