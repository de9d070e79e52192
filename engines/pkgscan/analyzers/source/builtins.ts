// Python's builtins table under names of the file's choosing, written back as the table's own name: loaders bind
// `_g = globals()["__builtins__"]` (or `vars(builtins)`, `__import__("builtins").__dict__`) and call
// `_g["exec"](...)`, or take `_i = _g["__import__"]` and call `_i("zlib")`. The rules and detectors are written against
// `__builtins__["exec"](` and `__import__("zlib")`; these edits let them read such files as if the names were those.
// Literals glued with `+` are read joined (`_g["ex" + "ec"]`), as glue.ts joins them for the rules. Modules imported
// under another name (`import subprocess as _sp`) are written under their own the same way (moduleAliasEdits).
import type { Edit } from './aliases.js';
import { foldGluedLiterals } from './glue.js';

/** What a name is given when it stands for the builtins table. */
const TABLE_SOURCE = /^(?:globals\s*\(\s*\)\s*(?:\[\s*(['"])__builtins__\1\s*\]|\.\s*get\s*\(\s*(['"])__builtins__\2[^()\n]{0,40}\))|__builtins__(?:\s*\.\s*__dict__)?|vars\s*\(\s*(?:__builtins__|builtins)\s*\)|__import__\s*\(\s*(['"])builtins\3\s*\)(?:\s*\.\s*__dict__)?|sys\s*\.\s*modules\s*\[\s*(['"])builtins\4\s*\]|builtins\s*\.\s*__dict__)$/;
/** `import builtins as b`. */
const IMPORT_AS = /^[ \t]*import[ \t]+builtins[ \t]+as[ \t]+([A-Za-z_]\w{0,40})[ \t]*$/gm;
/** A plain assignment to one name at the start of a line (not `==`, not an augmented one). */
const ASSIGNMENT = /^[ \t]*([A-Za-z_]\w{0,40})[ \t]*=(?!=)[ \t]*([^\n]{1,300})$/gm;
/** The functions of the table a name may stand for. */
const MEMBER = /^(?:exec|eval|compile|__import__)$/;
/** A table name's member taken by index, `.get(...)`, attribute or getattr: the table's name, then the member's. */
const MEMBER_OF = /^([A-Za-z_]\w{0,40})\s*(?:\[\s*(['"])(\w{1,40})\2\s*\]|\.\s*get\s*\(\s*(['"])(\w{1,40})\4\s*\)|\.\s*(\w{1,40}))$|^getattr\s*\(\s*([A-Za-z_]\w{0,40})\s*,\s*(['"])(\w{1,40})\8\s*\)$/;
/** A name used as a table, a module or a function (`name[`, `name.`, `name(`, an argument such as `getattr(name, ...)`), not an attribute of something else. */
const USE = /(?<![\w.])([A-Za-z_]\w{0,40})(?=[ \t]{0,8}[[.(,)])/g;
const IDENTIFIER = /[A-Za-z_]\w{0,40}/g;
const MAX_TEXT = 4 * 1024 * 1024;

/**
 * The edits that write each name standing for the builtins table as `__builtins__`, and each name given one of its
 * code-running members (`_g["__import__"]`, `getattr(_g, "exec")`, `_g.get("eval")`) as that member's name, at their
 * uses (`name[`, `name.`, `name(`). A name counts when one of its assignments gives it the table and every other one
 * re-reads itself (`_g = _g if isinstance(_g, dict) else vars(_g)`).
 */
export function builtinsAliasEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !/__builtins__|\bbuiltins\b/.test(code)) return [];
  const text = foldGluedLiterals(code, 'python').text;
  const defs = new Map<string, string[]>();
  for (const m of text.matchAll(ASSIGNMENT)) {
    const list = defs.get(m[1]!) ?? [];
    const value = m[2]!;
    const hash = value.indexOf('#');
    list.push((hash === -1 ? value : value.slice(0, hash)).trim());
    defs.set(m[1]!, list);
  }
  const names = new Map<string, string>();
  for (const m of text.matchAll(IMPORT_AS)) names.set(m[1]!, '__builtins__');
  for (const [name, values] of defs) {
    const self = (v: string): boolean => (v.match(IDENTIFIER) ?? ([] as string[])).includes(name);
    if (values.some((v) => TABLE_SOURCE.test(v)) && values.every((v) => TABLE_SOURCE.test(v) || self(v))) names.set(name, '__builtins__');
  }
  // members taken from the table: `_i = _g["__import__"]`, `e = getattr(_g, "exec")`, `e = _g.get("exec")`
  const isTable = (t: string | undefined): boolean => t === '__builtins__' || (t !== undefined && names.get(t) === '__builtins__');
  for (const [name, values] of defs) {
    if (names.has(name) || values.length !== 1) continue;
    const m = MEMBER_OF.exec(values[0]!);
    if (m === null || !isTable(m[1] ?? m[7])) continue;
    const fn = m[3] ?? m[5] ?? m[6] ?? m[9];
    if (fn !== undefined && MEMBER.test(fn)) names.set(name, fn);
  }
  const edits: Edit[] = [];
  for (const m of text.matchAll(USE)) {
    const to = names.get(m[1]!);
    if (to === undefined || m[1] === '__builtins__') continue;
    // a member alias stands for a function: only its calls
    if (to !== '__builtins__' && !/^[ \t]{0,8}\(/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 9))) continue;
    edits.push({ at: m.index, end: m.index + m[0].length, text: to });
  }
  return edits;
}

/** `import subprocess as _sp`: the modules whose calls the rules read, under a name of the file's own. */
const MODULE_ALIAS = /^[ \t]*import[ \t]+(subprocess|os|socket|base64|zlib|marshal|shutil|ctypes|requests|platform|getpass|urllib\.request|codecs|importlib)[ \t]+as[ \t]+([A-Za-z_]\w{0,40})[ \t]*$/gm;
/** A name used as a module (`name.`), not an attribute of something else. */
const MODULE_USE = /(?<![\w.])([A-Za-z_]\w{0,40})(?=[ \t]{0,8}\.)/g;

/**
 * `from socket import gethostname, create_connection as cc`: the host's, process and decoding modules' functions under
 * names of the file's own (one line, no parentheses). Not the HTTP clients': `from requests import post` is how a
 * library calls its own server, and a bare `post(` read as a fetch would carry its responses into every name.
 */
const FROM_IMPORT = /^[ \t]*from[ \t]+(subprocess|os|socket|base64|zlib|marshal|shutil|ctypes|platform|getpass)[ \t]+import[ \t]+([A-Za-z_][\w \t,]{0,300})(?:#[^\n]*)?$/gm;
/** A name called (`name(`), not a member (`x.name(`) and not a definition (`def name(`). */
const BARE_CALL = /(?<![\w.])([A-Za-z_]\w{0,40})(?=[ \t]{0,8}\()/g;

/**
 * The edits that write each use of a module under a name of the file's own (`_sp.run(`) as the module's name
 * (`subprocess.run(`), and each call of a function imported from one by name (`gethostname()` after `from socket import
 * gethostname`) as the module's (`socket.gethostname()`).
 */
export function moduleAliasEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !(/\bimport[ \t]+\w+(?:\.\w+)?[ \t]+as[ \t]/.test(code) || /^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]/m.test(code))) return [];
  const aliases = new Map<string, string>();
  for (const m of code.matchAll(MODULE_ALIAS)) if (m[2] !== m[1]) aliases.set(m[2]!, m[1]!);
  const members = new Map<string, string>();
  for (const m of code.matchAll(FROM_IMPORT))
    for (const piece of (m[2] ?? '').split(',')) {
      const words = piece.trim().split(/[ \t]+/);
      const member = words[0];
      const name = words.length === 3 && words[1] === 'as' ? (words[2] ?? '') : words.length === 1 ? (member ?? '') : '';
      if (member === undefined || !/^[A-Za-z_]\w{0,40}$/.test(member) || !/^[A-Za-z_]\w{0,40}$/.test(name) || members.size >= 40) continue;
      // a name imported from two modules is left as written
      members.set(name, members.has(name) && members.get(name) !== `${m[1]!}.${member}` ? '' : `${m[1]!}.${member}`);
    }
  if (aliases.size === 0 && members.size === 0) return [];
  const edits: Edit[] = [];
  if (aliases.size > 0)
    for (const m of code.matchAll(MODULE_USE)) {
      const mod = aliases.get(m[1]!);
      if (mod !== undefined) edits.push({ at: m.index, end: m.index + m[0].length, text: mod });
    }
  if ([...members.values()].some((v) => v !== ''))
    for (const m of code.matchAll(BARE_CALL)) {
      const to = members.get(m[1]!);
      if (to === undefined || to === '' || /\bdef[ \t]+$/.test(code.slice(Math.max(0, m.index - 12), m.index))) continue;
      edits.push({ at: m.index, end: m.index + m[0].length, text: to });
      if (edits.length >= 400) break;
    }
  return edits.sort((a, b) => a.at - b.at);
}
