// Node's own modules under names of the file's choosing, written back as the modules' names: minified code binds
// `h=require('https'),o=require('os')`, compilers bind `import_os = __toESM(require("os"))` and read
// `import_os.default.hostname()`, Babel binds `_https = _interopRequireDefault(require("https"))`. The rules are written
// against `os.hostname(` and `https.request(`; this view lets them read such files as if the names were the modules'.
// Line breaks are kept, so the rules' line numbers stay true; offsets move within lines and are mapped back.
import { isName, nameUses } from './decoded.js';

/**
 * A name bound to one of the modules whose calls tell what a file collects and where it sends it (os, fs, http(s),
 * net, tls, dgram, dns, zlib): `const h = require('https')`, `, o = require("os")`, through one wrapper call
 * (`__toESM(`, `tslib.__importStar(`, `_interopRequireDefault(`). Not child_process, vm or module: the rules that run
 * code follow those names themselves, and TypeScript's `child_process_1.execSync(` read as a spawn would join every
 * compiled command-line tool's shell helpers to its other findings.
 */
const BINDING = /(?:\b(?:const|let|var)\s+|,\s*)([A-Za-z_$][\w$]{0,40})\s*=\s*(?:[\w$.]{1,60}\(\s*)?require\s*\(\s*['"`](?:node:)?(os|fs|https?|net|tls|dgram|dns|zlib)['"`]\s*\)/g;
/** `import h from 'https'`, `import * as o from 'os'`. */
const IMPORT = /\bimport\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]{0,40})\s+from\s+['"`](?:node:)?(os|fs|https?|net|tls|dgram|dns|zlib)['"`]/g;
/**
 * `const { hostname, userInfo: ui } = require('os')` (also after a comma in one declaration: `, { exec: _4 } =
 * require('child_process')`): the modules' functions bound to names of the file's own.
 */
const DESTRUCTURED = /(?:\b(?:const|let|var)\s*|,\s*)\{([^{}]{1,400})\}\s*=\s*(?:[\w$.]{1,60}\(\s*)?require\s*\(\s*['"`](?:node:)?(os|fs|https?|net|tls|dgram|dns|zlib|child_process)['"`]\s*\)/g;
/** `import { hostname, request as r } from 'os'`. */
const NAMED_IMPORT = /\bimport\s*\{([^{}]{1,400})\}\s*from\s*['"`](?:node:)?(os|fs|https?|net|tls|dgram|dns|zlib|child_process)['"`]/g;
const MAX_ALIASES = 40;
const MAX_TEXT = 4 * 1024 * 1024;

/** The file with its module aliases written as the modules' names, and a map from its offsets back to the file's. */
export interface AliasedView {
  readonly text: string;
  /** The file's offset of an offset in `text`. */
  readonly original: (offset: number) => number;
}

/** The aliases a file binds to Node's modules (alias -> module), leaving out names that are the module's own. */
export function moduleAliases(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const re of [BINDING, IMPORT])
    for (const m of code.matchAll(re)) {
      const [name, mod] = [m[1] ?? '', m[2] ?? ''];
      if (name === mod || out.size >= MAX_ALIASES) continue;
      // a name bound twice to different modules (a bundle reusing one-letter names across modules) is left as written
      if (out.has(name) && out.get(name) !== mod) out.set(name, '');
      else out.set(name, mod);
    }
  for (const [k, v] of out) if (v === '') out.delete(k);
  return out;
}


/**
 * The functions a file takes out of those modules by destructuring or a named import (local name -> `module.member`):
 * `{ hostname, userInfo: ui }` from os gives hostname -> os.hostname and ui -> os.userInfo; `{ exec: run }` from
 * child_process gives run -> exec.
 */
export function memberAliases(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [re, sep] of [[DESTRUCTURED, ':'], [NAMED_IMPORT, ' as ']] as const)
    for (const m of code.matchAll(re)) {
      for (const piece of (m[1] ?? '').split(',')) {
        if (out.size >= MAX_ALIASES) break;
        const at = piece.indexOf(sep);
        const member = (at === -1 ? piece : piece.slice(0, at)).trim();
        const local = (at === -1 ? piece : piece.slice(at + sep.length)).replace(/=[^]*$/, '').trim();
        if (!/^[A-Za-z_$][\w$]{0,40}$/.test(member) || !/^[A-Za-z_$][\w$]{0,40}$/.test(local)) continue;
        // child_process's functions under a name of the file's own (`{ exec: _4 }`) are read by their own names, as if
        // destructured without a new name: the rules that run code follow `exec(` and `spawn(` by name (see BINDING)
        const to = m[2] === 'child_process' ? member : `${m[2] ?? ''}.${member}`;
        if (to === local) continue;
        // a name taken from two modules (a bundle's modules side by side) is left as written
        out.set(local, out.has(local) && out.get(local) !== to ? '' : to);
      }
    }
  for (const [k, v] of out) if (v === '') out.delete(k);
  return out;
}

/** The aliased view of a JavaScript file, or null when it binds no module under another name (or is too large). */
export function aliasedView(code: string): AliasedView | null {
  const edits = aliasEdits(code);
  return edits.length === 0 ? null : rewrittenView(code, edits);
}

/** A member named by a literal in brackets (`['get']`), read right after an alias. */
const LITERAL_MEMBER = /\[\s*(['"`])([A-Za-z_$][\w$]{0,40})\1\s*\]/y;

/**
 * Each use `alias.` or `alias.default.` (not itself a member, `x.alias.`) written as the module's name, and `alias['get']`
 * as `module.get`.
 */
function aliasEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT) return [];
  const aliases = moduleAliases(code);
  const uses: Edit[] = [];
  for (const [alias, mod] of aliases) {
    for (let i = code.indexOf(`${alias}.`); i !== -1; i = code.indexOf(`${alias}.`, i + alias.length)) {
      if (isName(code[i - 1]) || code[i - 1] === '.') continue;
      let end = i + alias.length;
      if (code.startsWith('.default.', end)) end += '.default'.length;
      uses.push({ at: i, end, text: mod });
    }
    for (let i = code.indexOf(`${alias}[`); i !== -1; i = code.indexOf(`${alias}[`, i + alias.length)) {
      if (isName(code[i - 1]) || code[i - 1] === '.') continue;
      LITERAL_MEMBER.lastIndex = i + alias.length;
      const member = LITERAL_MEMBER.exec(code);
      if (member !== null) uses.push({ at: i, end: LITERAL_MEMBER.lastIndex, text: `${mod}.${member[2] ?? ''}` });
    }
  }
  // the calls of functions taken out of the modules (`hostname()` read as `os.hostname()`), not their definitions
  for (const [local, to] of memberAliases(code))
    for (const i of nameUses(code, local)) {
      if (uses.length >= MAX_ALIASES * 20) break;
      if (!/^\s*\(/.test(code.slice(i + local.length, i + local.length + 20)) || /\bfunction\s*$/.test(code.slice(Math.max(0, i - 20), i))) continue;
      uses.push({ at: i, end: i + local.length, text: to });
    }
  return uses;
}

/** TypeScript's and Babel's compiled call of an imported function: `(0, node_os_1.hostname)(`, `(0, _os.userInfo)(`. */
const COMPILED_CALL = /\(0,\s{0,4}([A-Za-z_$][\w$]{0,60}(?:\.[A-Za-z_$][\w$]{0,60}){1,3})\)(?=\s{0,4}\()/g;

/**
 * Each compiled call written as the plain call it stands for (`(0, node_os_1.hostname)()` read as
 * `node_os_1.hostname()`), so the rules written against `os.hostname(` read compiled TypeScript once the module alias is
 * written in too.
 */
export function compiledCallEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !code.includes('(0,')) return [];
  const edits: Edit[] = [];
  for (const m of code.matchAll(COMPILED_CALL)) {
    edits.push({ at: m.index, end: m.index + m[0].length, text: m[1] ?? '' });
    if (edits.length >= MAX_ALIASES * 50) break;
  }
  return edits;
}

/** `const F = Function;`, `var e = globalThis.eval,`, `var _r = require;`: a code-running global (or the module loader) under a name of the file's own. */
const SINK_BINDING = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]{0,40})\s*=\s*(?:(?:globalThis|global|window|self)\s*\.\s*)?(Function|eval|require|(?:\[\s*\]|\{\s*\}|''|""|``|\(\s*\)\s*=>\s*\{\s*\})\s*\.\s*constructor\s*\.\s*constructor)\s*(?=[;,\n)])/g;
/**
 * The module loader under a name of the file's own, reached the guarded ways a bundle or an injected script does:
 * `var _r = typeof require === "function" ? require : module.require.bind(module)`, `const r = module.require.bind(module)`.
 */
const LOADER_BINDING = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]{0,40})\s*=\s*(?:typeof\s+require\s*[!=]==?\s*['"`](?:function|undefined)['"`]\s*\?\s*(?:require|module\s*\.\s*require)\b|module\s*\.\s*require\s*\.\s*bind\s*\(\s*module\s*\))/g;
/** Function reached through a literal's constructor's constructor (`[].constructor.constructor`), called in place. */
const CONSTRUCTED_FUNCTION = /(?:\[\s*\]|\{\s*\}|''|""|``|\(\s*\)\s*=>\s*\{\s*\})\s*\.\s*constructor\s*\.\s*constructor(?=\s*\()/g;

/**
 * Each call of a code-running global under another name written as the global (`new F("require", body)` read as
 * `new Function("require", body)`, `e(src)` as `eval(src)`, `_r("child_process")` as `require("child_process")`),
 * Function reached as `[].constructor.constructor` among them, for the second reading, whose detectors and rules know
 * the globals by their own names.
 */
export function sinkAliasEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !/\b(?:Function|eval|require)\b|\.constructor\s*\.\s*constructor\b/.test(code)) return [];
  const edits: Edit[] = [];
  for (const m of code.matchAll(CONSTRUCTED_FUNCTION)) edits.push({ at: m.index, end: m.index + m[0].length, text: 'Function' });
  const bindings = [...code.matchAll(SINK_BINDING)].map((m) => [m, m[2] === 'eval' || m[2] === 'require' ? m[2] : 'Function'] as const);
  for (const m of code.matchAll(LOADER_BINDING)) bindings.push([m, 'require'] as const);
  for (const [m, sink] of bindings) {
    const name = m[1] ?? '';
    if (name === sink) continue;
    const declared = m.index + m[0].indexOf(name);
    for (const i of nameUses(code, name)) {
      if (edits.length >= MAX_ALIASES * 20) break;
      if (i === declared || !/^\s*\(/.test(code.slice(i + name.length, i + name.length + 20))) continue;
      edits.push({ at: i, end: i + name.length, text: sink });
    }
  }
  return edits;
}

/** A replacement of the file's [at, end) by `text` (no line breaks in it, so lines stay where they were). */
export interface Edit {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/** The file with the edits made (left to right; an edit overlapping the one before is dropped), and the map back. */
export function rewrittenView(code: string, edits: readonly Edit[]): AliasedView {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  // (offset in the view where a change starts, how much the view has grown after it)
  const shifts: { at: number; grown: number }[] = [];
  let from = 0;
  let grown = 0;
  for (const u of sorted) {
    if (u.at < from) continue;
    parts.push(code.slice(from, u.at), u.text);
    grown += u.text.length - (u.end - u.at);
    shifts.push({ at: u.end + grown, grown });
    from = u.end;
  }
  parts.push(code.slice(from));
  const original = (offset: number): number => {
    let lo = 0;
    let hi = shifts.length - 1;
    let g = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (shifts[mid]!.at <= offset) {
        g = shifts[mid]!.grown;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return Math.max(0, offset - g);
  };
  return { text: parts.join(''), original };
}
