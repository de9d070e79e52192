// Wipers and ransomware: a walk over the files of a folder that writes each one with what was not read from it (a
// constant, random bytes, zeros), cuts it short, or encrypts it and removes the original, where the folder walked is
// the user's home or document folders, the working folder, the folders above, a repository's objects or the SSH
// folder. A formatter writes each file's own new text; a secure-delete tool walks the folder its user names.
import type * as acorn from 'acorn';
import * as walk from 'acorn-walk';
import { node, withDefinitions, type AnyNode } from './detectors-js.js';
import type { DetectorHit, DetectorInput } from './detectors.js';
import { languageOf } from './text.js';

/** The folders whose walk with a destructive write is a wipe. */
const ROOT = /\bhomedir\s*\(|\bexpanduser\s*\(\s*[rbuf]?['"]~|\bPath\s*\.\s*home\s*\(|\b(?:HOME|USERPROFILE)\b|['"`/\\](?:Desktop|Documents|Pictures|Downloads|OneDrive)\b|\bgetcwd\s*\(|\bPath\s*\.\s*cwd\s*\(|\bprocess\s*\.\s*cwd\s*\(|\bINIT_CWD\b|['"`]\.\.[/\\]\.\.|['"`]\.git['"`/\\]|['"`]objects['"`]|['"`/\\]\.ssh\b/;
/**
 * Writes of what was not read: random bytes, zeros, a short literal (up to 120 characters as written: a protest
 * message in `\u` escapes is six characters a letter).
 */
const JS_CONSTANT_VALUE = /^(?:['"`][^'"`\n]{0,120}['"`]$|Buffer\s*\.\s*alloc\s*\(|(?:crypto\s*\.\s*)?randomBytes\s*\()/;
/** A call on literals alone (`b('4p2k77iP')`, `Buffer.from('...', 'base64')`): a constant the file decodes. */
const JS_DECODED_LITERAL = /^[\w$.]{1,40}\(['"`][^'"`\n]{0,200}['"`](?:, ?['"`][^'"`\n]{0,20}['"`])?\)(?:\.toString\((?:['"`]\w{1,10}['"`])?\))?$/;
const PY_CONSTANT_VALUE = /^(?:os\s*\.\s*urandom\s*\(|[rbuRBU]{0,2}['"][^'"\n]{0,120}['"](?:\.encode\([^)]{0,20}\))?(?:[ \t]?\*[ \t]?[\w().+-]{1,40})?$)/;
/** A file named by a literal (`'.gitkeep'`, `"__init__.py"`, `'index.html'`): made in each folder, not the walked files. */
const NAMED_FILE = /['"`](?:\.?[\w-]{1,60}\.\w{1,8}|\.[\w-]{1,40})['"`]/;
const CIPHER = /\bcreateCipher(?:iv)?\s*\(|\.encrypt\s*\(|\bAES\s*\.\s*new\s*\(|\bChaCha20\w*\s*\(|\bFernet\s*\(/;
const REMOVE = /\bunlink(?:Sync)?\s*\(|\brmSync\s*\(|\bos\s*\.\s*(?:remove|unlink)\s*\(|\.unlink\s*\(\s*\)|\brename(?:Sync)?\s*\(|\.with_suffix\s*\(/;
const TRUNCATE = /\btruncate(?:Sync)?\s*\(/;

export type WalkHarm = 'overwrite' | 'encrypt';

/** One file's walks that do the given harm (`overwrite` also takes truncation and zero-filling). */
export function walkHarm(harm: WalkHarm): (input: DetectorInput) => DetectorHit[] {
  return ({ code, ast, path }) => {
    const language = languageOf(path);
    if (language === 'javascript' && ast !== null) return jsWalks(code, ast, harm);
    if (language === 'python') return pyWalks(code, harm);
    return [];
  };
}

// ---------- JavaScript (over the parse)

const MAX_WALKS = 20;
const JS_WALKER = /^(?:fs\.|fs\.promises\.|fsp\.|promises\.)?readdir(?:Sync)?$|^(?:glob|fg|fastGlob)\.sync$/;

function calleeText(code: string, call: AnyNode): string {
  const c = call['callee'] as acorn.Node;
  return code.slice(c.start, c.end).replace(/\s+/g, '');
}

function jsWalks(code: string, ast: acorn.Node, harm: WalkHarm): DetectorHit[] {
  // functions by name, and what each name is given (for the folder's data flow)
  const fns = new Map<string, acorn.Node>();
  const defs = new Map<string, string[]>();
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'FunctionDeclaration' && a['id']) fns.set(String(node(a['id'] as acorn.Node)['name']), n);
    if (n.type === 'VariableDeclarator' && node(a['id'] as acorn.Node).type === 'Identifier' && a['init']) {
      const name = String(node(a['id'] as acorn.Node)['name']);
      const init = a['init'] as acorn.Node;
      if (/Function/.test(init.type)) fns.set(name, init);
      defs.set(name, [...(defs.get(name) ?? []), code.slice(init.start, Math.min(init.end, init.start + 1000))]);
    }
  });
  const nameOf = (fn: acorn.Node): string | undefined => [...fns].find(([, f]) => f === fn)?.[0];
  /** The calls of a function by name, each with the statement it stands in (a callback's call is read with the
   * statement that hands the callback its values: `[home + '/Desktop', '../'].forEach((d) => sweep(d))`). */
  const callsOf = (name: string): string[] => {
    const out: string[] = [];
    walk.ancestor(ast, {
      CallExpression(n: acorn.Node, _s: unknown, ancestors: acorn.Node[]) {
        if (out.length >= 8 || calleeText(code, node(n)) !== name) return;
        let named = -1;
        ancestors.forEach((a, i) => {
          const parent = ancestors[i - 1];
          if (a.type === 'FunctionDeclaration' || (/Function/.test(a.type) && parent !== undefined && parent.type !== 'CallExpression')) named = i;
        });
        const statement = ancestors.slice(named + 1).find((a) => /Statement$|Declaration$/.test(a.type) && a.type !== 'BlockStatement') ?? n;
        out.push(code.slice(statement.start, Math.min(statement.end, statement.start + 1000)));
      },
    });
    return out;
  };
  const hits: DetectorHit[] = [];
  // a bundle lists folders in many places: the first walks are read (each reads its function and helpers)
  let walks = 0;
  walk.ancestor(ast, {
    CallExpression(n: acorn.Node, _s: unknown, ancestors: acorn.Node[]) {
      if (hits.length > 0 || walks >= MAX_WALKS || !JS_WALKER.test(calleeText(code, node(n)))) return;
      walks++;
      // a walk in a function (a wiper recurses); a build script's walk at its top level writes its outputs
      const fn = [...ancestors].reverse().find((x) => /Function/.test(x.type));
      if (fn === undefined) return;
      const scope = fn;
      // the walk's body and the helpers it calls
      const bodies = [scope];
      walk.full(scope, (c) => {
        if (c.type !== 'CallExpression') return;
        const helper = fns.get(calleeText(code, node(c)));
        if (helper !== undefined && helper !== scope && bodies.length < 6) bodies.push(helper);
      });
      // a walker handing each file to a callback (`walk(dir, 0, (f) => fs.writeFileSync(f, msg))`): the callbacks its
      // callers give it
      const name = nameOf(fn);
      if (name !== undefined)
        walk.full(ast, (c) => {
          if (c.type !== 'CallExpression' || bodies.length >= 8 || calleeText(code, node(c)) !== name) return;
          for (const arg of (node(c)['arguments'] as acorn.Node[]) ?? []) if (/Function/.test(arg.type) && bodies.length < 8) bodies.push(arg);
        });
      const found = harmIn(code, bodies, harm, defs);
      if (found === null) return;
      // the folder: the walk's argument, followed through names and, for a parameter, what the callers pass
      const args = ((node(n)['arguments'] as acorn.Node[]) ?? []).slice(0, 1);
      let rootText = args.map((x) => code.slice(x.start, x.end)).join(' ');
      if (name !== undefined) for (const call of callsOf(name)) rootText += ` ${call}`;
      if (!ROOT.test(followed(rootText, defs))) return;
      hits.push(found);
    },
  });
  return hits;
}

/** A text with what its names are given appended, two steps deep. */
function followed(text: string, defs: ReadonlyMap<string, string[]>): string {
  return withDefinitions(text, [...new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])], defs, 2);
}

/** The first destructive write among the bodies, or null. */
function harmIn(code: string, bodies: readonly acorn.Node[], harm: WalkHarm, defs: ReadonlyMap<string, string[]>): DetectorHit | null {
  const text = bodies.map((b) => code.slice(b.start, b.end)).join('\n');
  if (harm === 'encrypt' && !(CIPHER.test(text) && REMOVE.test(text))) return null;
  for (const b of bodies) {
    let hit: DetectorHit | null = null;
    walk.full(b, (c) => {
      if (hit !== null || c.type !== 'CallExpression') return;
      const callee = calleeText(code, node(c));
      if (harm === 'overwrite' && /(?:^|\.)(?:truncateSync|ftruncateSync)$/.test(callee)) hit = { offset: c.start, text: code.slice(c.start, c.end) };
      if (!/(?:^|\.)(?:writeFileSync|writeFile)$/.test(callee)) return;
      const [target, value] = (node(c)['arguments'] as acorn.Node[]) ?? [];
      if (value === undefined || target === undefined) return;
      // a file of a name of its own made in each folder (`.gitkeep`, `__init__.py`) is not a walked file written over
      if (harm === 'overwrite' && NAMED_FILE.test(code.slice(target.start, target.end))) return;
      const v = code.slice(value.start, value.end);
      const constant = JS_CONSTANT_VALUE.test(v) || (value.type === 'Identifier' && (defs.get(v) ?? []).length > 0 && (defs.get(v) ?? []).every((d) => JS_CONSTANT_VALUE.test(d) || JS_DECODED_LITERAL.test(d)));
      if (harm === 'overwrite' ? constant : !constant) hit = { offset: c.start, text: code.slice(c.start, Math.min(c.end, c.start + 200)) };
    });
    if (hit !== null) return hit;
  }
  return null;
}

// ---------- Python (by indentation)

/** A loop's iterable that lists a folder: the walker's call and what follows it on the line. */
const PY_WALKER = /^(?:sorted\(\s*)?(?:os\.(?:walk|listdir|scandir)|glob\.i?glob)\(|\.(?:r?glob|iterdir)\(/;
/** A call by a plain name (not an attribute), with the rest of its line. */
const PY_CALL = /(?<![\w.])([A-Za-z_]\w{0,60})[ \t]*\(([^\n]{0,300})/g;
const PY_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)/gm;
/** A loop header's indentation. */
const PY_FOR = /^([ \t]*)for[ \t]/gm;

/** The block of lines after `start` indented deeper than `indent`. */
function pyBlock(code: string, start: number, indent: number): string {
  const lines = code.slice(start, start + 20_000).split('\n');
  let out = `${lines[0] ?? ''}\n`;
  for (const line of lines.slice(1)) {
    if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
    out += `${line}\n`;
  }
  return out;
}

function pyWalks(code: string, harm: WalkHarm): DetectorHit[] {
  const defs = new Map<string, string[]>();
  for (const m of code.matchAll(/^[ \t]*([A-Za-z_]\w{0,60})[ \t]*=(?!=)[ \t]*([^\n]{1,300})$/gm)) defs.set(m[1]!, [...(defs.get(m[1]!) ?? []), m[2]!]);
  // the file's functions, read once a loop lists a folder
  let listed: { name: string; at: number; body: string }[] | null = null;
  const fns = (): { name: string; at: number; body: string }[] => (listed ??= [...code.matchAll(PY_DEF)].slice(0, 2000).map((m) => ({ name: m[2]!, at: m.index, body: pyBlock(code, m.index, m[1]!.length) })));
  let walks = 0;
  for (const m of code.matchAll(PY_FOR)) {
    const eol = code.indexOf('\n', m.index);
    const header = code.slice(m.index, eol < 0 ? code.length : eol);
    const inAt = header.indexOf(' in ');
    if (inAt < 0) continue;
    const iterable = header.slice(inAt + 4).trim();
    const walker = PY_WALKER.exec(iterable);
    if (walker === null || ++walks > MAX_WALKS) continue;
    const body = pyBlock(code, m.index, m[1]!.length);
    // the helpers the loop calls (`_wipe_one(p)`)
    const called = new Set([...body.matchAll(PY_CALL)].map((c) => c[1]!));
    const functions = fns();
    const helpers = functions.filter((f) => called.has(f.name) && f.at !== m.index);
    const text = [body, ...helpers.map((h) => h.body)].join('\n');
    const found = pyHarm(text, harm, defs);
    if (found === null) continue;
    // the folder: the walk's argument; a parameter of the function around the loop is followed to its callers
    let rootText = iterable;
    const around = functions.filter((f) => f.at < m.index && m.index < f.at + f.body.length).pop();
    if (around !== undefined) {
      for (const call of code.matchAll(PY_CALL)) if (call[1] === around.name && !/def[ \t]+$/.test(code.slice(Math.max(0, call.index - 8), call.index))) rootText += ` ${call[2]}`;
    }
    if (!ROOT.test(followed(rootText, defs))) continue;
    const at = code.indexOf(found, m.index);
    return [{ offset: at >= 0 ? at : m.index, text: found }];
  }
  return [];
}

/** The line of `text` around `at`. */
function lineAt(text: string, at: number): string {
  const from = text.lastIndexOf('\n', at) + 1;
  const to = text.indexOf('\n', at);
  return text.slice(from, to < 0 ? text.length : to).trim();
}

/** The text of a call's arguments from just after its opening bracket, up to its closing one on the same line. */
function argumentsFrom(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + 300); i++) {
    const c = text[i];
    if (c === '\n') break;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      if (depth === 0) return text.slice(open, i);
      depth--;
    }
  }
  return '';
}

const PY_WRITE = /\.(?:write|write_bytes|write_text)\(/g;

/** The destructive write in a loop's text (and its helpers'), or null. */
function pyHarm(text: string, harm: WalkHarm, defs: ReadonlyMap<string, string[]>): string | null {
  const writes = [...text.matchAll(PY_WRITE)].slice(0, 50);
  if (harm === 'encrypt') {
    if (!CIPHER.test(text) && !/\^\s*\w{1,30}\s*\[\s*\w{1,30}\s*%/.test(text)) return null;
    if (!REMOVE.test(text) || writes.length === 0) return null;
    return lineAt(text, writes[0]!.index);
  }
  if (TRUNCATE.test(text)) {
    const zero = writes.find((w) => /^\s*[rbuRBU]{0,2}['"]\\x00/.test(text.slice(w.index + w[0].length, w.index + w[0].length + 12)));
    if (zero !== undefined) return lineAt(text, zero.index);
  }
  for (const w of writes) {
    // the file written: the receiver's line (`p.write_bytes(`) or the `open(` before the write
    const opened = text.lastIndexOf('open(', w.index);
    const where = `${lineAt(text, w.index)} ${opened >= 0 && w.index - opened < 300 ? text.slice(opened, w.index) : ''}`;
    if (NAMED_FILE.test(where)) continue;
    const v = argumentsFrom(text, w.index + w[0].length).trim();
    const constant = PY_CONSTANT_VALUE.test(v) || (/^[A-Za-z_]\w{0,60}$/.test(v) && (defs.get(v) ?? []).length > 0 && (defs.get(v) ?? []).every((d) => PY_CONSTANT_VALUE.test(d.trim())));
    if (constant) return lineAt(text, w.index);
  }
  return null;
}
