// The detectors of Python and of shell-like text: statement-aware scans of comment-free code (a decoded text into exec,
// a setup.py command class or an import-time pip install, a file made executable and then started); each gives the
// offsets and text it matched.
import { isLineTerminator, isRegexBlank, quotedSpans, replaceQuoted, skipRegexBlanks } from '../../../core/linear-text.js';
import type { DetectorHit, DetectorInput } from './detectors.js';
import { languageOf, splitTopLevel } from './text.js';

/** A package name as PyPI and npm compare them: lower case, runs of `-`, `_`, `.` as one `-`. */
export function normaliseDependency(name: string): string {
  return name.trim().toLowerCase().replace(/[-_.]+/g, '-');
}


const PY_FETCH = /\burlopen\b|\b(?:requests|httpx)\.(?:get|post|request)\b|\b__import__\s*\(\s*['"](?:requests|httpx)['"]\s*\)\s*\.\s*(?:get|post|request)\b/;
/**
 * Decoding that hides code: a decoder or decryptor call, a string literal reversed (`'...'[::-1]`; a list reversed and
 * joined is ordinary), text made from character codes (`''.join(map(chr, [...]))`, `chr(c) for c in ...`,
 * `bytes([105, 109, ...])`), marshal or pickle data given as a literal blob. marshal/pickle of bytes read at run time is a
 * bytecode cache or a saved object (an import hook loading its .pyc), not an embedded payload; a blob that was decoded
 * first is followed through the name it was assigned to.
 */
const PY_DECODE = /\b(?:b64decode|b32decode|b16decode|b85decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|Fernet|decrypt)\b|\bcodecs\.decode|['"]\s*\[\s*::\s*-1\s*\]|\b(?:marshal|pickle)\.loads\s*\(\s*[rbuRBU]{0,2}['"]|['"]rot[_-]?13['"]|\bmap\s*\(\s*chr\b|\bchr\s*\(\s*(?:ord\s*\(\s*\w+\s*\)|\w+)\s*(?:[-+^]\s*\w+\s*)?\)\s*for\b|\b(?:bytes|bytearray)\s*\(\s*\[\s*(?:0[xX][0-9a-fA-F]+|\d+)\s*,/;
/**
 * Unpickling calls: they run code from the data, so fetched data unpickled is fetched code; a module made from a
 * loader (`spec_from_loader(name, Loader(data))`) runs the source its loader is given.
 */
const PY_UNPICKLE = /\b(?:pickle|cPickle|dill|marshal)\s*\.\s*loads?\s*\(|\bspec_from_loader\s*\(/g;
/** A socket's receive call: what it returns is data from the network. */
const PY_RECEIVE = /\.recv(?:from)?\s*\(/;
/** HTTP clients and connections made as objects: their `get`, `post`, `request`, `getresponse` calls fetch. */
const PY_CLIENT = /\b(?:requests\.[Ss]ession|httpx\.(?:Async)?Client|urllib3\.PoolManager|PoolManager|aiohttp\.ClientSession|(?:http\.client\.)?HTTPS?Connection)\s*\(/;
/** `with <client> as name` (the expression at most 300 characters on its line, and the name; white space read once: the run after `with` whole, one character before `as`). */
const WITH_AS = /\bwith[ \t]+(?=\S)([^\n]{1,300}?)[ \t]as[ \t]+([A-Za-z_]\w*)/g;

/**
 * A file's functions that return something, each name with the first 40 lines of its body (parameters read up to
 * 2,000 characters, so a file of unclosed `def f(` lines is not read to its end from each of them).
 */
function returningFunctions(code: string): { name: string; body: string }[] {
  const out: { name: string; body: string }[] = [];
  for (const m of code.matchAll(/^([ \t]*)def\s+(\w+)\s*\([^)]{0,2000}\)\s*:([^\n]*\n(?:(?:\1[ \t][^\n]*|[ \t]*)\n){0,40})/gm)) if (m[2] && m[3] && /\breturn\b/.test(m[3])) out.push({ name: m[2], body: m[3] });
  return out;
}

/**
 * The calls that fetch in one file: PY_FETCH and the requests of client objects it makes (`s = requests.Session()`,
 * `pool = urllib3.PoolManager()`, `with _session() as s:` where `_session` returns one).
 */
function pyFetchPattern(code: string, assignments: readonly RegExpMatchArray[], functions: readonly { name: string; body: string }[]): RegExp {
  const makers = functions.filter((f) => PY_CLIENT.test(f.body)).map((f) => f.name);
  const maker = makers.length > 0 ? new RegExp(`${PY_CLIENT.source}|\\b(?:${makers.slice(0, 50).join('|')})\\s*\\(`) : PY_CLIENT;
  const clients = new Set<string>();
  for (const m of assignments) if (m[1] && m[2] && clients.size < 50 && maker.test(m[2])) clients.add(m[1]);
  for (const m of code.matchAll(WITH_AS)) if (m[1] && m[2] && clients.size < 50 && maker.test(m[1])) clients.add(m[2]);
  return clients.size > 0 ? new RegExp(`${PY_FETCH.source}|(?<![\\w.])(?:${[...clients].join('|')})\\s*\\.\\s*(?:get|post|put|request|getresponse|urlopen)\\s*\\(`) : PY_FETCH;
}
/**
 * The fetch calls with the calls of the file's own functions that return what they fetch (`def _pull(self): with
 * urlopen(u) as r: return json.loads(r.read())`, then `job = self._pull()`): a job fetched by a helper is fetched. A
 * function returns what it fetched when a `return` hands on a fetch call or a name its body binds to one (not a path it
 * saved the download under).
 */
function withFetchers(fetches: RegExp, functions: readonly { name: string; body: string }[]): RegExp {
  const names: string[] = [];
  for (const f of functions) {
    if (names.length >= 50 || !fetches.test(f.body)) continue;
    const local = new Set<string>();
    for (const m of f.body.matchAll(/^[ \t]*([A-Za-z_]\w{0,40})[ \t]*=(?!=)[ \t]*([^\n]{1,400})/gm)) if (fetches.test(m[2]!)) local.add(m[1]!);
    for (const m of f.body.matchAll(WITH_AS)) if (fetches.test(m[1]!)) local.add(m[2]!);
    const returned = [...f.body.matchAll(/\breturn[ \t]+([^\n]{1,400})/g)].map((m) => m[1]!);
    if (returned.some((r) => fetches.test(r) || (r.match(/[A-Za-z_]\w*/g) ?? []).some((w) => local.has(w)))) names.push(f.name);
  }
  return names.length === 0 ? fetches : new RegExp(`${fetches.source}|(?<![\\w.])(?:(?:self|cls)[ \\t]*\\.[ \\t]*)?(?:${names.join('|')})[ \\t]*\\(`);
}

/** Loaders that turn decoded bytes into code or objects: a name assigned from one applied to a tainted name is tainted too. */
const PY_LOADS = /\b(?:marshal|pickle)\.loads\s*\(/;
/** String literals blanked: a word inside a literal (`'-decrypt'` of an openssl command line) is not a decoding call. */
const blankLiterals = (s: string): string => replaceQuoted(s, `'"`, '""');

/** The text from `open` (an opening parenthesis) to its matching close, at most `limit` characters. */
function balanced(code: string, open: number, limit = CALL_TEXT): string {
  let depth = 0;
  const end = Math.min(code.length, open + limit);
  for (let i = open; i < end; i++) {
    const c = code[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return code.slice(open, i + 1);
    }
  }
  return code.slice(open, end);
}

/** A call's argument text is read up to this many characters (a long encoded blob passed to a decoder). */
const CALL_TEXT = 8000;
/** What one file's calls may read in all at CALL_TEXT each (the largest source file read, MAX_SCAN_BYTES)... */
const CALL_TEXT_BUDGET = 8 * 1024 * 1024;
/** ...and each further call's reading once that is spent. */
const CALL_TEXT_AFTER_BUDGET = 256;

/**
 * The argument texts of one file's calls (`balanced`), read against a budget: a file of 100,000 unclosed `exec(` or
 * `system("ping %s` heads would otherwise have each read 8,000 characters and had them searched, 9 to 14 s a
 * megabyte. Once the file's calls have read CALL_TEXT_BUDGET characters, each further call reads its first
 * CALL_TEXT_AFTER_BUDGET characters (the decoder or data of `exec(b64decode(...))` stands at the start), so the work
 * stays within a small multiple of the file's length.
 */
function callReader(code: string): (open: number) => string {
  let left = CALL_TEXT_BUDGET;
  return (open) => {
    const text = balanced(code, open, left > 0 ? CALL_TEXT : CALL_TEXT_AFTER_BUDGET);
    left -= text.length;
    return text;
  };
}

/** A pattern matching any of `names` as a whole word, or null when there is none. */
function anyName(names: ReadonlySet<string>): RegExp | null {
  return names.size > 0 ? new RegExp(`\\b(?:${[...names].join('|')})\\b`) : null;
}

/**
 * The heads of calls that run code or a command; `getattr(builtins` (or `__builtins__`, `__import__('builtins')`) is
 * checked by `sinkCalls` for its `...)(`: the name it looks up may be glued (`'ex' + 'ec'`). exec, eval and compile
 * read from the builtins module or table are called too: `__import__('builtins').exec(...)`,
 * `builtins.__dict__['exec'](...)`, `vars(builtins)['eval'](...)`.
 */
const SINK_HEADS = /(?<![\w.])(?:exec|eval|compile|execfile)\s*\(|\bFunctionType\s*\(|\bos\.(?:system|popen)\s*\(|\bsubprocess\.(?:call|run|Popen|check_output|check_call|getoutput)\s*\(|\basyncio\.create_subprocess_(?:shell|exec)\s*\(|\bgetattr\s*\(\s*(?:__builtins__|builtins\b|__import__\s*\(\s*['"]builtins['"]\s*\))|(?:\b__builtins__|\bbuiltins\b|\b__import__\s*\(\s*['"]builtins['"]\s*\)|\bvars\s*\(\s*(?:__builtins__|builtins)\s*\))\s*(?:\.\s*(?:exec|eval|compile)\s*\(|(?:\.\s*__dict__\s*)?\[\s*['"](?:exec|eval|compile)['"]\s*\]\s*\()/g;
const CALL_AFTER_CLOSE = /\s*\(/y;
/** An argument that is a name alone, or a name's attribute or item (`cmd`, `task.command`, `job["run"]`). */
const RECEIVED = /^(?:await\s+)?[A-Za-z_]\w*(?:\s*\.\s*\w+|\s*\[[^\]\n]{0,80}\])*$/;
/**
 * An assigned value (trimmed) that is exec, eval or compile itself, not a call of it: the name, read from the builtins
 * module or table (`builtins.exec`, `__builtins__['eval']`, `vars(__builtins__)['exec']`) or by `getattr(builtins,
 * 'compile')`; a builtin looked up under a name the code computes (`getattr(__import__('builtins'), decode('rkrp',
 * 'rot13'))`) is read as one too: which builtin it is, is hidden.
 */
const CODE_RUNNER = /^(?:(?:__builtins__|builtins|__import__\s*\(\s*['"]builtins['"]\s*\))\s*\.\s*)?(?:exec|eval|compile);?$|^getattr\s*\(\s*(?:__builtins__|builtins|__import__\s*\(\s*['"]builtins['"]\s*\))\s*,\s*(?:['"](?:exec|eval|compile)['"]|(?![rbuRBU]{0,2}['"][^'"\n]*['"]\s*\);?$)\S[^\n]{0,199})\s*\);?$|^(?:vars\s*\(\s*(?:__builtins__|builtins)\s*\)|(?:__builtins__|builtins|__import__\s*\(\s*['"]builtins['"]\s*\))(?:\s*\.\s*__dict__)?)\s*\[\s*['"](?:exec|eval|compile)['"]\s*\];?$/;

/**
 * The matches of `/...|\bgetattr\s*\(\s*__builtins__[^)]*\)\s*\(|.../g` (SINK_HEADS with the builtins lookup run
 * to the first `)` and a call after it), in one pass: heads that share a first `)` share its search (the expression
 * read from each of a run of `getattr(__builtins__ ` heads to the same `)`: over 30 s a megabyte).
 */
export function sinkCalls(code: string): { index: number; text: string }[] {
  const out: { index: number; text: string }[] = [];
  const heads = SINK_HEADS;
  heads.lastIndex = 0;
  let close = -1;
  for (let m = heads.exec(code); m !== null; m = heads.exec(code)) {
    if (!m[0].startsWith('getattr')) {
      out.push({ index: m.index, text: m[0] });
      continue;
    }
    const from = m.index + m[0].length;
    if (close !== -2 && close < from) close = code.indexOf(')', from);
    if (close === -1) close = -2; // no `)` after here: no later head can end either
    CALL_AFTER_CLOSE.lastIndex = close + 1;
    if (close >= 0 && CALL_AFTER_CLOSE.test(code)) {
      out.push({ index: m.index, text: code.slice(m.index, CALL_AFTER_CLOSE.lastIndex) });
      heads.lastIndex = CALL_AFTER_CLOSE.lastIndex;
    } else heads.lastIndex = m.index + 1;
  }
  return out;
}

/**
 * A decoder imported under another name (`from base64 import b64decode as d`). The gap after `import` stops at the
 * next `import` head of its line, and the white space after `import` is taken whole: the aliases are those of
 * `\bimport\s+[^\n]*?\b(...)\s+as\s+(\w+)`, whose gap read the rest of the line again from each `import` of a line
 * of them, and from each split of a run of tabs after one (1.8 s for 55,000 characters).
 */
export const IMPORT_AS = /\bimport\s+(?=\S)(?:(?!\bimport\s)[^\n])*?\b(b64decode|decompress|loads|b32decode|unhexlify|decodebytes|urlopen|Fernet)\s+as\s+(\w+)/g;

export function pyExecDecoded({ code }: DetectorInput): DetectorHit[] {
  const aliases: string[] = [];
  for (const m of code.matchAll(IMPORT_AS)) if (m[2]) aliases.push(m[2]);
  for (const m of code.matchAll(/\b(?:exec|eval)\s+as\s+(\w+)/g)) if (m[1]) aliases.push(m[1]);
  // functions that decode and return: `def b64d(s): ... return base64.b64decode(s)`
  const functions = returningFunctions(code);
  for (const f of functions) if (PY_DECODE.test(f.body)) aliases.push(f.name);
  const decode = aliases.length > 0 ? new RegExp(`${PY_DECODE.source}|\\b(?:${aliases.join('|')})\\s*\\(`) : PY_DECODE;
  const tainted = new Set<string>();
  const assignments = [...code.matchAll(/^[ \t]*([A-Za-z_]\w*)\s*=\s*([^\n]{1,4000})/gm)];
  // Each assigned text with its string literals blanked, made once for the passes below.
  const blanked = assignments.map((m) => blankLiterals(m[2] ?? ''));
  assignments.forEach((m, i) => {
    if (m[1] && decode.test(blanked[i]!)) tainted.add(m[1]);
  });
  // one step on: `code = marshal.loads(blob)` where blob was decoded
  const decoded = anyName(tainted);
  if (decoded !== null)
    assignments.forEach((m, i) => {
      if (m[1] && m[2] && PY_LOADS.test(m[2]) && decoded.test(blanked[i]!)) tainted.add(m[1]);
    });
  const taint = anyName(tainted);
  // names holding a download (`payload = requests.get(u).text`, `r = urlopen(u)` then `code = r.read()`): run by
  // exec/eval/compile they are fetched code, as a fetch written inside the call is
  const fetches = withFetchers(pyFetchPattern(code, assignments, functions), functions);
  // what each name is bound to: assignments, `with <expr> as name` (a response opened as a context), and a loop's
  // name over what it walks (`for cmd in tasks:`)
  const bound: [string, string][] = assignments.map((m, i) => [m[1] ?? '', blanked[i]!]);
  for (const m of code.matchAll(WITH_AS)) if (m[1] && m[2] && bound.length < 5000) bound.push([m[2], blankLiterals(m[1])]);
  for (const m of code.matchAll(LOOP_OVER)) if (m[1] && m[2] && bound.length < 5000) bound.push([m[1], blankLiterals(m[2])]);
  const fetched = new Set<string>();
  for (let step = 0; step < 3; step++) {
    const known = anyName(fetched);
    for (const [name, text] of bound) if (name !== '' && (fetches.test(text) || (known !== null && known.test(text)))) fetched.add(name);
  }
  const fetchTaint = anyName(fetched);
  // data received on a socket (`cmd = s.recv(4096).decode()`): a command run from it is a remote shell; code or
  // pickles read from one are how RPC libraries and remote consoles work (execnet, pyroute2), so only commands count
  const received = new Set(fetched);
  for (let step = 0; step < 3; step++) {
    const known = anyName(received);
    for (const [name, text] of bound) if (name !== '' && (PY_RECEIVE.test(text) || (known !== null && known.test(text)))) received.add(name);
  }
  const receiveTaint = anyName(received);
  // names bound to a long literal, written on their line or opened there in parentheses (`_STATE = (` then the literal)
  const literals = new Set<string>();
  assignments.forEach((m) => {
    if (m[1] && m[2] && literals.size < 500 && /^(?:\(\s*$|\(?\s*[rbuRBU]{0,2}['"][A-Za-z0-9+/=]{40,})/.test(m[2].trim())) literals.add(m[1]);
  });
  // names bound to exec, eval or compile themselves (`run = eval`, `x = getattr(builtins, 'exec')`): their calls are code sinks
  const runners = new Set<string>();
  assignments.forEach((m) => {
    if (m[1] && m[2] && runners.size < 50 && CODE_RUNNER.test(m[2].trim())) runners.add(m[1]);
  });
  const sinks: { index: number; text: string; runner?: boolean; loader?: boolean }[] = sinkCalls(code);
  if (runners.size > 0)
    for (const m of code.matchAll(new RegExp(`(?<![\\w.])(?:${[...runners].join('|')})\\s*\\(`, 'g'))) sinks.push({ index: m.index, text: m[0], runner: true });
  // unpickling runs code too, but only fetched data counts: a decoded blob unpickled is how objects are stored
  for (const m of code.matchAll(PY_UNPICKLE)) sinks.push({ index: m.index, text: m[0], loader: true });
  sinks.sort((a, b) => a.index - b.index);
  const hits: DetectorHit[] = [];
  const argsOf = callReader(code);
  for (const m of sinks) {
    const open = code.indexOf('(', m.index + m.text.length - 1);
    const args = argsOf(open);
    const codeSink = m.runner === true || /^(?:exec|eval|compile|execfile|getattr|builtins|__builtins__|__import__|vars|FunctionType)/.test(m.text);
    // a reversed name straight into exec/eval (`exec(s[::-1])`) is reversed code whatever the name holds
    const reversed = codeSink && /\[\s*::\s*-1\s*\]/.test(args);
    // the names the arguments read (literals blanked, keyword names dropped)
    const argNames = taint !== null || fetchTaint !== null ? blankLiterals(args).replace(/\b\w+\s*=(?!=)/g, '') : '';
    const fetchedArg = (codeSink || m.loader === true) && (fetches.test(args) || (fetchTaint !== null && fetchTaint.test(argNames)));
    // a process call whose command is data it received (`os.system(cmd)`, `create_subprocess_shell(task)` where the
    // name holds a response or walks one): a command line written out with a fetched value in it (a version) is not
    const command = !codeSink && m.loader !== true && receiveTaint !== null ? (topLevelArgs(args)[0] ?? '') : '';
    const receivedCommand = receiveTaint !== null && RECEIVED.test(command) && receiveTaint.test(command);
    // an unpickled or unmarshalled blob that the file itself holds, decoded in the call (`pickle.loads(bz2.decompress(
    // b64decode(_STATE)))` where `_STATE = "QlpoOTFB..."`): a payload shipped in the package, not a cache or a message
    const embedded = m.loader === true && decode.test(blankLiterals(args)) && (/[rbuRBU]{0,2}['"][A-Za-z0-9+/=]{40,}/.test(args) || namesRead(args).some((n) => literals.has(n)));
    if (m.loader === true ? fetchedArg || embedded : decode.test(args) || reversed || fetchedArg || receivedCommand || (taint !== null && taint.test(argNames))) hits.push({ offset: m.index, text: code.slice(m.index, open) + args });
    if (hits.length > 50) break;
  }
  // a lambda called where it is written, its body running its parameter (`(lambda s: eval(compile(s, "<x>", "exec")))(
  // r.text)`): the argument it is called with is what runs
  for (const m of code.matchAll(IIFE_LAMBDA)) {
    if (hits.length > 50) break;
    const [param, body] = [m[1] ?? '', m[2] ?? ''];
    if (![...body.matchAll(RUNS_NAME)].some((r) => r[1] === param)) continue;
    const args = argsOf(m.index + m[0].length - 1);
    const argNames = blankLiterals(args).replace(/\b\w+\s*=(?!=)/g, '');
    if (decode.test(args) || fetches.test(args) || (fetchTaint !== null && fetchTaint.test(argNames)) || (taint !== null && taint.test(argNames))) hits.push({ offset: m.index, text: m[0] + args });
  }
  return hits;
}

/** `(lambda NAME: BODY)(`: a lambda called where it is written (its body up to 400 characters on the line). */
const IIFE_LAMBDA = /\([ \t]{0,8}lambda[ \t]{1,8}([A-Za-z_]\w{0,40})[ \t]{0,8}:([^\n]{1,400}?)\)[ \t]{0,8}\(/g;
/** exec, eval or compile of a name (compile's result handed on too): the name run. */
const RUNS_NAME = /\b(?:exec|eval|compile)[ \t]{0,8}\([ \t]{0,8}(?:compile[ \t]{0,8}\([ \t]{0,8})?([A-Za-z_]\w{0,40})\b/g;

/** The top-level comma-separated parts of a call's argument text (`(a, f(b, c), 'd')` -> a | f(b, c) | 'd'). */
function topLevelArgs(call: string): string[] {
  return splitTopLevel(call.replace(/^\(/, '').replace(/\)$/, '')).map((p) => p.trim());
}

/** File permission bits that include an execute bit. */
const hasExecBit = (v: number): boolean => Number.isInteger(v) && v >= 0 && v <= 0o7777 && (v & 0o111) !== 0;

/**
 * A mode written as a literal that sets an execute bit: `0o755`, `0755`, `'755'`, `493`, `'+x'`, `u+x`, or a mode
 * that ORs an execute flag in (`st.st_mode | stat.S_IEXEC`). A computed mode (`mode & 0o777`, `0o777 - umask`,
 * `~umask`) is a file system's permission handling, not making a payload runnable.
 */
function literalExecMode(mode: string): boolean {
  const m = mode.trim().replace(/^(['"`])(.*)\1$/, '$2').trim();
  if (/^[ugoa]*\+[rwxXst]*$/.test(m) && m.slice(m.indexOf('+')).includes('x')) return true; // symbolic mode that adds x
  const oct = /^(?:0o|0)?([0-7]{3,4})$/i.exec(m);
  if (oct?.[1] !== undefined && /^(?:0o|0)/i.test(m)) return hasExecBit(Number.parseInt(oct[1], 8));
  if (/^[0-7]{3,4}$/.test(m) && /^(['"`])/.test(mode.trim())) return hasExecBit(Number.parseInt(m, 8));
  if (/^[1-9]\d{1,3}$/.test(m)) return hasExecBit(Number.parseInt(m, 10));
  // an execute flag ORed into the mode (no mask or subtraction taking bits away)
  return /\bS_I(?:EXEC|XUSR|XGRP|XOTH|RWXU)\b/.test(m) && !/[&~-]/.test(m.replace(/\bS_I\w+/g, ''));
}

const isAssignPrefix = (c: string): boolean => c === ';' || c === ',' || c === '(' || isRegexBlank(c);

/**
 * The values `id` is assigned in the file, in order: the captures of
 * `/(?:^|[\s;,(])(?:const|let|var)?\s*<id>\s*=\s*([^\n;]{1,300})/gm`, found from the places `id` occurs. The expression
 * read a run of blanks again from each blank of it (`[\s;,(]` then `\s*`): 40,000 blanks took 2 s, and it ran once
 * per name of each chmod target. A place counts when what stands before it could start the expression there after the
 * previous value's end: a blank, `;`, `,` or `(` before it, a line start, or `const`, `let` or `var` right before it
 * with one of those before that keyword.
 */
export function assignedValues(code: string, id: string): string[] {
  const out: string[] = [];
  let lastEnd = 0;
  const startsAt = (k: number): boolean => (k >= lastEnd + 1 && isAssignPrefix(code.charAt(k - 1))) || (k >= lastEnd && (k === 0 || isLineTerminator(code.charAt(k - 1))));
  for (let q = code.indexOf(id); q >= 0 && id !== ''; q = code.indexOf(id, q + 1)) {
    if (q < lastEnd) continue;
    const keyword = ['const', 'let', 'var'].find((w) => q >= w.length && code.startsWith(w, q - w.length));
    if (!startsAt(q) && (keyword === undefined || !startsAt(q - keyword.length))) continue;
    // `<id>\s*=\s*([^\n;]{1,300})`, with the expression's backtracking when only blanks follow the `=`
    let j = skipRegexBlanks(code, q + id.length);
    if (code.charAt(j) !== '=') continue;
    const from = j + 1;
    j = skipRegexBlanks(code, from);
    let start = j;
    let end: number;
    if (j < code.length && code.charAt(j) !== '\n' && code.charAt(j) !== ';') {
      end = j;
      while (end < code.length && end - j < 300 && code.charAt(end) !== '\n' && code.charAt(end) !== ';') end++;
    } else {
      // the blanks give back their last character that is not a line feed: the value is that one character
      start = j - 1;
      while (start >= from && code.charAt(start) === '\n') start--;
      if (start < from) continue;
      end = start + 1;
    }
    out.push(code.slice(start, end));
    lastEnd = end;
  }
  return out;
}

/** The quotes of JavaScript's and Python's one-line literals. */
const QUOTES = `'"\``;

/** Names and paths a chmod target stands for: its identifiers, its string literals, and the literals those names are given in the file. */
function targetWords(target: string, code: string): string[] {
  // `path.join(binDir, 'tool')`: the file is its last part, a literal name; the folder it sits in (`binDir`, which an
  // unpacking `tar -C binDir` also names) is not what runs
  const join = /^\s*(?:[\w$]+\.)*(?:join|resolve)\s*\(/.exec(target);
  if (join !== null) {
    const last = topLevelArgs(target.slice(join[0].length - 1).trim()).at(-1) ?? '';
    if (/^(['"])[^'"\\]{3,}\1$/.test(last)) return targetWords(last, code);
  }
  const words = new Set<string>();
  const literal = (s: string): void => {
    const v = s.replace(/^~\//, '').trim();
    if (v.length < 3 || /^[./\\]*$/.test(v)) return;
    words.add(v);
    const base = v.split(/[\\/]/).pop() ?? '';
    if (base.length >= 3) words.add(base);
  };
  for (const [s, e] of quotedSpans(target, QUOTES)) literal(target.slice(s + 1, e));
  const bare = replaceQuoted(target, QUOTES, ' ');
  for (const m of bare.matchAll(/[A-Za-z_$][\w$]*/g)) {
    const id = m[0];
    if (/^(?:os|fs|fsp|path|join|resolve|this|self|__dirname|process|cwd|tmpdir|homedir|expanduser|await|require|promises|sync|Sync)$/.test(id)) continue;
    const values = assignedValues(code, id);
    // a one-letter name counts only when it is given a value once in the file (`p = os.path.join(...)`): a minified
    // bundle gives its letters values in every function
    if (id.length < 2 && values.length !== 1) continue;
    words.add(id);
    for (const value of values) {
      for (const [s, e] of quotedSpans(value, QUOTES)) literal(value.slice(s + 1, e));
    }
  }
  return [...words];
}

/** A function header with its parameter list and the brace that opens its body: `function name(a, b) {`, `(a, b) => {`. */
const JS_FUNCTION_HEAD = /(?<![\w$])function(?![\w$])[\s*]*(?:[\w$]+\s*)?\(([^()]{0,300})\)\s*\{|\(([^()]{0,300})\)\s*=>\s*\{/g;
/** How far back a function's header and how far on its closing brace are looked for. */
const SCOPE_BACK = 20_000;
const SCOPE_ON = 200_000;

/** A method header in a class or object literal: `install(a) {`, `async run() {` (not `if (`, `for (`, `catch (`). */
const JS_METHOD_HEAD = /(?<![\w$.])([A-Za-z_$][\w$]{0,60})\s*\(([^()]{0,300})\)\s*\{/g;
const NOT_A_METHOD = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'function', 'return', 'typeof', 'await', 'yield', 'do', 'else']);

/**
 * (JavaScript text, a bundle too big to parse included) The body of the nearest function around `at` whose header
 * `accept` takes, as [header, closing brace]; null when none does within reach or its braces cannot be matched (then
 * the name is read file-wide). Braces inside one-line string literals are not counted.
 */
function functionScope(code: string, at: number, heads: RegExp, accept: (m: RegExpMatchArray) => boolean): readonly [number, number] | null {
  const from = Math.max(0, at - SCOPE_BACK);
  const found = [...code.slice(from, at).matchAll(heads)];
  for (let i = found.length - 1; i >= 0; i--) {
    const m = found[i]!;
    if (!accept(m)) continue;
    const open = from + (m.index ?? 0) + m[0].length - 1;
    const body = code.slice(open, Math.min(code.length, open + SCOPE_ON));
    const spans = quotedSpans(body, QUOTES);
    let depth = 0;
    let close = -1;
    for (let k = 0, q = 0; k < body.length && close === -1; k++) {
      // a span is [opening quote, closing quote]
      while (q < spans.length && spans[q]![1] < k) q++;
      const span = spans[q];
      if (span !== undefined && span[0] <= k) {
        k = span[1];
        continue;
      }
      const ch = body[k];
      if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) close = open + k;
    }
    if (close === -1) return null;
    if (close > at) return [from + (m.index ?? 0), close];
  }
  return null;
}

/** The nearest function around `at` that takes `name` as a parameter. */
function parameterScope(code: string, at: number, name: string): readonly [number, number] | null {
  return functionScope(code, at, JS_FUNCTION_HEAD, (m) => (m[1] ?? m[2] ?? '').split(/[,\s=]+/).includes(name));
}

/** The nearest method or `function` around `at` (what `this` is bound by; arrow functions take their parent's). */
function thisScope(code: string, at: number): readonly [number, number] | null {
  const fn = functionScope(code, at, JS_FUNCTION_HEAD, (m) => m[0].startsWith('function'));
  const method = functionScope(code, at, JS_METHOD_HEAD, (m) => !NOT_A_METHOD.has(m[1] ?? ''));
  if (fn === null) return method;
  if (method === null) return fn;
  return fn[0] > method[0] ? fn : method;
}

/** A Python `def` header: its indentation and name. */
const PY_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(/gm;

/**
 * (Python) When the chmod's target is a name its function returns (`def _fetch(self, name): ... os.chmod(dest, ...);
 * return dest`), the names the callers give that value (`helper = self._fetch("x")`): the file is started under them.
 */
function returnedTo(code: string, at: number, target: string): string[] {
  const id = target.trim();
  if (!/^[A-Za-z_]\w{0,60}$/.test(id)) return [];
  let def: { indent: number; name: string; bodyStart: number } | null = null;
  for (const m of code.slice(Math.max(0, at - SCOPE_BACK), at).matchAll(PY_DEF)) def = { indent: (m[1] ?? '').length, name: m[2] ?? '', bodyStart: m.index + m[0].length };
  if (def === null) return [];
  // the function's body: from its header to the next line indented no deeper than the header
  const from = Math.max(0, at - SCOPE_BACK) + def.bodyStart;
  const lines = code.slice(from, Math.min(code.length, from + SCOPE_ON)).split('\n');
  let body = '';
  for (const [i, line] of lines.entries()) {
    if (i > 0 && line.trim() !== '' && (line.length - line.trimStart().length) <= def.indent) break;
    body += `${line}\n`;
  }
  const returns = body.split('\n').some((line) => {
    const t = line.trim().replace(/^return[ \t]+/, 'return ');
    return t.startsWith(`return ${id}`) && !/\w/.test(t.charAt(`return ${id}`.length));
  });
  if (!returns) return [];
  const out: string[] = [];
  for (const m of code.matchAll(PY_CALL_ASSIGN)) if (m[2] === def.name && m[1] !== undefined && !out.includes(m[1])) out.push(m[1]);
  return out;
}

/** `name = f(`, `name = self.f(`: a name given what a function returns. */
const PY_CALL_ASSIGN = /^[ \t]*(\w{1,60})[ \t]*=[ \t]*(?:self\.|cls\.)?(\w{1,60})[ \t]*\(/gm;

/**
 * Where something is started: a process or shell call (its argument text follows), or a shell command line. Compiled
 * TypeScript's `(0, child_process_1.spawn)(bin, ...)` is read in the second reading, which writes it as a plain call.
 */
const RUN_SINK = /(?<![\w$])(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|system|popen|startfile|Popen|call|run|check_call|check_output|getoutput|execv\w*|execl\w*)\s*\(|\bStart-Process\b/g;
/**
 * `chmod +x tool`, `chmod 755 "$BIN"`, and in code `'chmod +x ' + dest` or `` `chmod +x ${dest}` ``. The flag walk stops
 * at a flag `-chmod` (a later start reads on from there) and the mode's letters are one run checked ahead for an `x`,
 * so neither is read again from each start or each `x`.
 */
export const SHELL_CHMOD = /\bchmod\s+(?:-(?:(?!\bchmod\s)\w)+\s+)*([ugoa]*\+(?=[rwxXst]*x)[rwxXst]+|[0-7]{3,4})\s+(?:['"`]\s*\+\s*([\w$.]+)|\$\{([^}]{1,200})\}|"?([^\s;&|'"`)]+))/g;
const CALL_CHMOD = /\bchmod(?:Sync)?\s*\(/g;
/** The name or member path a method is asked of, read back from the `.` before the method at `at` (`self.exe` in `self.exe.chmod(`). */
function receiverOf(code: string, at: number): string | undefined {
  if (code.charAt(at - 1) !== '.') return undefined;
  let i = at - 1;
  while (i > 0 && at - i < 120 && /[\w$.]/.test(code.charAt(i - 1))) i--;
  const r = code.slice(i, at - 1);
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(r) ? r : undefined;
}
/** Node's calls that create a file and take a mode in their options. */
/** A name given a Windows program's path (JavaScript's declaration or Python's assignment at a line's start). */
const WINDOWS_PROGRAM_NAME = /\b(?:const|let|var)[ \t]+([A-Za-z_$][\w$]{0,40})[ \t]*=[^\n;=]{0,200}?\.(?:exe|scr|com)['"`]|^[ \t]*([A-Za-z_]\w{0,40})[ \t]*=[^\n=]{0,200}?\.(?:exe|scr)['"]/gm;
const CREATE_WITH_MODE = /\b(?:createWriteStream|writeFileSync|writeFile|openSync)\s*\(/g;
/** The mode of an options object: `mode: 0o755`, `mode: 493`, `mode: '755'`. */
const MODE_OPTION = /\bmode\s*:\s*(0o[0-7]{3,4}|0[0-7]{3}|\d{2,4}|'[0-7]{3,4}'|"[0-7]{3,4}")/;

/** The calls whose arguments are text shown to a person: errors, warnings, logs and prints. */
const MESSAGE_CALL = /(?:\b(?:Error|TypeError|RangeError|Exception|RuntimeError|OSError|print|warn|warning|warnings\.warn|info|debug|error|log|fail|abort|echo)|\bconsole\.\w{1,10}|\blogg?(?:er|ing)?\.\w{1,10})$/;

/**
 * Whether `at` lies inside the arguments of a call that shows text to a person (`new Error(\`... chmod +x ${p}\`)`,
 * `console.warn("run chmod +x " + p)`, `print(f"chmod +x {p}")`): the calls still open before it on its line, read
 * back at most 400 characters.
 */
function inMessage(code: string, at: number): boolean {
  let depth = 0;
  const stop = Math.max(0, at - 400);
  for (let i = at - 1; i >= stop; i--) {
    const c = code.charAt(i);
    if (c === '\n') return false;
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth > 0) depth--;
      else if (MESSAGE_CALL.test(code.slice(Math.max(0, i - 40), i).trimEnd())) return true;
    }
  }
  return false;
}

/**
 * Makes a file runnable and then runs that file: a chmod with a literal execute mode (`chmod(p, 0o755)`, `chmod +x p`,
 * `st_mode | S_IEXEC`) of a target that a process, shell or system call of the same file later starts (the same name,
 * or the path that name is given). A computed mode (an emulated file system's `mode & 0o777`, a script installer's
 * `0o777 - umask`) or a file made executable for later use and never started here is not a download-and-run.
 */
export function chmodThenRun({ code, path }: DetectorInput): DetectorHit[] {
  const hits: DetectorHit[] = [];
  const chmods: { offset: number; end: number; text: string; target: string }[] = [];
  const argsOf = callReader(code);
  for (const m of code.matchAll(CALL_CHMOD)) {
    const open = m.index + m[0].length - 1;
    const call = argsOf(open);
    const args = topLevelArgs(call);
    // pathlib's `exe.chmod(exe.stat().st_mode | stat.S_IXUSR)`: the mode alone, the file the path it is asked of
    const receiver = args.length === 1 ? receiverOf(code, m.index) : undefined;
    const [target, mode] = receiver !== undefined && !/^(?:os|fs|shutil)$/.test(receiver) ? [receiver, args[0]] : args;
    // a folder's mode (`chmod(path.dirname(file), 0o700)`: the execute bit lets its owner enter it) starts nothing
    if (target !== undefined && /\bdirname\s*\(/.test(target)) continue;
    if (target !== undefined && mode !== undefined && literalExecMode(mode)) chmods.push({ offset: m.index, end: open + call.length, text: code.slice(m.index, open) + call, target });
    if (chmods.length > 50) break;
  }
  // a file created with an execute mode (`fs.createWriteStream(d, { mode: 0o755 })`, `writeFileSync(p, data, { mode: 493 })`)
  for (const m of code.matchAll(CREATE_WITH_MODE)) {
    const open = m.index + m[0].length - 1;
    const call = argsOf(open);
    const target = topLevelArgs(call)[0];
    const mode = MODE_OPTION.exec(call)?.[1];
    if (target !== undefined && mode !== undefined && literalExecMode(mode)) chmods.push({ offset: m.index, end: open + call.length, text: code.slice(m.index, open) + call, target });
    if (chmods.length > 100) break;
  }
  // a Windows program needs no execute bit: a name given a path ending in .exe (or .scr, .com) that a download or write
  // call is handed (`await fetchTo(BASE + 'w.exe', exe)`, `createWriteStream(exe)`, `open(exe, 'wb')`) stands for one
  for (const m of code.matchAll(WINDOWS_PROGRAM_NAME)) {
    const name = m[1] ?? m[2];
    if (name === undefined || chmods.length > 150) continue;
    const handed = new RegExp(`\\b[\\w$.]{0,40}(?:write|download|fetch|save|retrieve|pipe|copy|[Ss]tream|open|get)\\w{0,20}\\s*\\((?:[^()\\n]{0,200}[,(\\s])?${name.replace(/\$/g, '\\$')}\\s*[,)]`);
    if (handed.test(code)) chmods.push({ offset: m.index, end: m.index + m[0].length, text: m[0].trim(), target: name });
  }
  const inCode = languageOf(path) === 'javascript' || languageOf(path) === 'python';
  for (const m of code.matchAll(SHELL_CHMOD)) {
    const target = m[2] ?? m[3] ?? m[4];
    // (in code) a command line written into an error or a log message, the advice a tool prints, runs nothing
    if (inCode && inMessage(code, m.index)) continue;
    if (target !== undefined && (m[1] === undefined || literalExecMode(m[1]))) chmods.push({ offset: m.index, end: m.index + m[0].length, text: m[0], target });
    if (chmods.length > 100) break;
  }
  if (chmods.length === 0) return hits;
  const runs: { start: number; end: number; text: string }[] = [];
  for (const m of code.matchAll(RUN_SINK)) {
    if (m[0].endsWith('(')) {
      const open = m.index + m[0].length - 1;
      const args = argsOf(open);
      runs.push({ start: m.index, end: open + args.length, text: args.slice(0, 2000) });
    } else {
      const eol = code.indexOf('\n', m.index);
      runs.push({ start: m.index, end: eol < 0 ? code.length : eol, text: code.slice(m.index, eol < 0 ? code.length : eol) });
    }
    if (runs.length > 500) break;
  }
  // shell command lines that start a path: `&& ./tool`, `; "$BIN" --flag`, `nohup ~/.cache/x &`
  for (const m of code.matchAll(/(?:&&|;|\|\||^)[ \t]*(?:nohup\s+|exec\s+|sh\s+|bash\s+)?((?:\.{0,2}\/|~\/|"?\$)[^\s;&|]+)/gm)) {
    runs.push({ start: m.index, end: m.index + m[0].length, text: m[1] ?? '' });
    if (runs.length > 2000) break;
  }
  for (const c of chmods) {
    const own = targetWords(c.target, code);
    const words = [...own, ...returnedTo(code, c.offset, c.target)];
    if (words.length === 0) continue;
    // the chmod's own command (`execSync('chmod +x ' + dest)`) does not run the file
    // (JavaScript) a parameter of the function around the chmod (a downloader's `binPath`) is started only inside that
    // function: a start of the same name elsewhere in a bundle is another function's value; and a member of `this`
    // (`this.binaryPath`) made executable by one method and started by another (`install()` at install, `run()` when
    // the user runs the tool) is a binary kept for later use
    const ranges = new Map<string, readonly [number, number] | null>();
    const member = /^\s*this\s*\./.test(c.target);
    const within = (w: string, r: { start: number }): boolean => {
      if (languageOf(path) !== 'javascript') return true;
      if (!ranges.has(w)) ranges.set(w, member ? thisScope(code, c.offset) : parameterScope(code, c.offset, w));
      const range = ranges.get(w);
      return range === null || range === undefined || (range[0] <= r.start && r.start < range[1]);
    };
    // (Python) a name given another path between the chmod and the start (`exe = os.path.join(sys.prefix, ...)`) is
    // another file by the time it is started
    const reassigned = (w: string, r: { start: number }): boolean => languageOf(path) === 'python' && own.includes(w) && r.start > c.end && code.slice(c.end, r.start).split('\n').some((line) => line.trimStart().startsWith(w) && /^=(?!=)/.test(line.trimStart().slice(w.length).trimStart()));
    const started = runs.some((r) => !(r.start <= c.offset && c.offset < r.end) && !NOT_A_START.test(r.text) && words.some((w) => (/^[A-Za-z_$][\w$]*$/.test(w) ? new RegExp(`(?<!\\w)${w.replace(/\$/g, '\\$')}(?![\\w$])`).test(r.text) && within(w, r) && !reassigned(w, r) : r.text.includes(w))));
    if (started) hits.push({ offset: c.offset, text: c.text });
  }
  return hits;
}

/**
 * A call whose program is a tool that sets or reads a file's attributes (the chmod's own command, `xattr -d
 * com.apple.quarantine`, `codesign`, `chflags`, `file`, `shasum`): handed the file, it does not start it.
 */
const NOT_A_START = /^\s*(?:\(\s*)?(?:['"`]?chmod\b|(?:\[\s*)?['"`](?:chmod|xattr|codesign|chflags|chown|chgrp|file|stat|ls|strip|otool|install_name_tool|lipo|shasum|sha1sum|sha256sum|md5sum|md5|attrib|icacls|spctl|touch)\b(?!['"`]\s*[+.(]))/;

/** A pip install written in code: a command string, an argument list, or pip's own main. */
const PY_PIP_INSTALL = /\bpip3?\s+install\b([^\n'"]{0,300})|['"]pip3?['"]\s*,\s*['"]install['"]\s*((?:,\s*[^,\])\n]{1,100}){0,10})|\bpip(?:\._internal)?\.main\s*\(\s*\[\s*['"]install['"]\s*((?:,\s*[^,\])\n]{1,100}){0,10})/g;

/** The package names a pip install names (options and version specifiers left out); `null` for a name computed at run time (an f-string field, a variable in an argument list). */
function pipInstallNames(args: string, list: boolean): (string | null)[] {
  const out: (string | null)[] = [];
  for (const raw of args.split(list ? /,/ : /\s+/)) {
    const item = raw.trim();
    if (item === '') continue;
    if (list && !/^[rbuf]?['"]/.test(item)) {
      out.push(null);
      continue;
    }
    const t = item.replace(/^[rbuf]?['"]|['"]$/g, '').trim();
    if (t === '' || t.startsWith('-')) continue;
    if (/[{}]/.test(t)) {
      out.push(null);
      continue;
    }
    const name = /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(t)?.[1];
    if (name !== undefined) out.push(name);
  }
  return out;
}

/** Whether the statement at `offset` runs when the module is imported: no enclosing `def` or `class` by indentation. */
function atModuleLevel(code: string, offset: number): boolean {
  const lineStart = code.lastIndexOf('\n', offset - 1) + 1;
  let indent = /^[ \t]*/.exec(code.slice(lineStart))?.[0].length ?? 0;
  let pos = lineStart - 1;
  while (indent > 0 && pos > 0) {
    const start = code.lastIndexOf('\n', pos - 1) + 1;
    const line = code.slice(start, pos);
    pos = start - 1;
    if (line.trim() === '') continue;
    const ind = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    if (ind >= indent) continue;
    if (/^\s*(?:async\s+def|def|class)\b/.test(line)) return false;
    indent = ind;
  }
  return true;
}

/**
 * A module that installs, when it is imported, a package its metadata does not declare: statements at module level
 * (an `except ImportError:` fallback included) that run pip for a name missing from the release's dependencies, or
 * for a name computed at run time. The installed code never passes a dependency review; a package that needs a
 * library declares it. setup.py (install time, read by py_pip_install_at_runtime), `__main__.py` and command-line
 * helpers inside functions are not import time.
 */
export function pyImportTimeInstall({ code, path: file, declared }: DetectorInput): DetectorHit[] {
  if (/(?:^|\/)(?:setup|__main__|conftest)\.py$/.test(file)) return [];
  const known = declared ?? new Set<string>();
  const hits: DetectorHit[] = [];
  for (const m of code.matchAll(PY_PIP_INSTALL)) {
    if (!atModuleLevel(code, m.index)) continue;
    // a command string must be handed to something that runs it on its line (not a docstring or a message)
    if (m[1] !== undefined && !/\b(?:system|popen|Popen|run|call|check_call|check_output|getoutput|getstatusoutput|spawn\w*)\s*\(/.test(code.slice(code.lastIndexOf('\n', m.index) + 1, m.index))) continue;
    const names = m[1] !== undefined ? pipInstallNames(m[1], false) : pipInstallNames(m[2] ?? m[3] ?? '', true);
    // `'pip install ' + name`, `'pip install %s' % name`: the name is computed
    if (m[1] !== undefined && /^['"]\s*(?:\+|%|\.format\b)/.test(code.slice(m.index + m[0].length, m.index + m[0].length + 20))) names.push(null);
    if (names.length === 0) continue;
    if (names.some((n) => n === null || !known.has(normaliseDependency(n)))) hits.push({ offset: m.index, text: m[0] });
    if (hits.length > 20) break;
  }
  return hits;
}

/** The install-time command classes `cmdclass` can name. */
const INSTALL_BASE = /\b(?:install|develop|egg_info|_install|_develop|build_py|sdist|bdist_egg)\b/g;
/** A class statement's head up to its `(`, at a line start. */
const CLASS_HEAD = /^([ \t]*)class\s+\w+\s*\(/gm;
const AFTER_BASES = /\s*:/y;
/** A `def run(self...):` head; the parameters run to the first `)`. */
const RUN_HEAD = /def\s+run\s*\(\s*self/g;

/**
 * The classes of a setup.py whose bases (up to the first `)`, over lines) name an install-time command, as
 * `/^([ \t]*)class\s+\w+\s*\(([^)]*\b(?:install|...)\b[^)]*)\)\s*:/gm` found them, in one pass: heads that share a first `)`
 * share its search, and whether a base list names a command is a look-up among the command names found once in the
 * whole text (the pattern read each base list again from each `class` line before it, and each `[^)]*` from each name).
 */
function installClasses(code: string): { index: number; indent: number; text: string }[] {
  const names: number[] = [];
  const ends: number[] = [];
  for (const m of code.matchAll(INSTALL_BASE)) {
    names.push(m.index);
    ends.push(m.index + m[0].length);
  }
  const out: { index: number; indent: number; text: string }[] = [];
  let close = -1;
  let name = 0;
  let next = 0;
  for (const m of code.matchAll(CLASS_HEAD)) {
    if (m.index < next) continue; // inside the match before, which the pattern's search had passed
    const open = m.index + m[0].length;
    if (close < open) close = code.indexOf(')', open);
    if (close < 0) break; // no `)` after this head: none after any later one either
    while (name < names.length && (names[name] as number) < open) name++;
    // The first command name at or after the open bracket, wholly before the close.
    if (name >= names.length || (ends[name] as number) > close) continue;
    AFTER_BASES.lastIndex = close + 1;
    if (!AFTER_BASES.test(code)) continue;
    next = AFTER_BASES.lastIndex;
    out.push({ index: m.index, indent: (m[1] ?? '').length, text: code.slice(m.index, next) });
  }
  return out;
}

/** What follows the first `def run(self...):` of a class body, as `/def\s+run\s*\(\s*self[^)]*\)\s*:([\s\S]*)/` read it. */
function runBody(body: string): string | undefined {
  let close = -1;
  for (const m of body.matchAll(RUN_HEAD)) {
    const from = m.index + m[0].length;
    if (close < from) close = body.indexOf(')', from);
    if (close < 0) return undefined;
    AFTER_BASES.lastIndex = close + 1;
    if (AFTER_BASES.test(body)) return body.slice(AFTER_BASES.lastIndex);
  }
  return undefined;
}

export function pyCmdclassInstall({ code, path }: DetectorInput): DetectorHit[] {
  if (!/(^|\/)setup\.py$/.test(path) || !/\bcmdclass\b/.test(code)) return [];
  const hits: DetectorHit[] = [];
  // The first 50 such classes have their bodies read (a body runs to the next line indented no deeper, and bodies of
  // nested classes overlap, so a file of thousands of nested classes would be read thousands of times).
  for (const c of installClasses(code).slice(0, 50)) {
    // The body: the lines after the head's line, until a line with text indented no deeper than the class.
    let body = '';
    let at = code.indexOf('\n', c.index + c.text.length);
    while (at >= 0) {
      const lineEnd = code.indexOf('\n', at + 1);
      const line = code.slice(at + 1, lineEnd < 0 ? code.length : lineEnd);
      if (line.trim() !== '' && line.length - line.trimStart().length <= c.indent) break;
      body += `${line}\n`;
      at = lineEnd;
    }
    const run = runBody(body);
    if (!run) continue;
    const statements = run.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(?:pass|return\b|"""|'''|(?:super\s*\([^)]*\)|\w+(?:\.\w+)*)\.run\s*\(|\w+\.do_egg_install\(|def\s)/.test(l));
    if (statements.length > 0) hits.push({ offset: c.index, text: c.text.trim() });
  }
  return hits;
}

export function pthExecutable({ code }: DetectorInput): DetectorHit[] {
  const hits: DetectorHit[] = [];
  for (const m of code.matchAll(/^[ \t]*import[ \t][^\n]*/gm)) hits.push({ offset: m.index, text: m[0] });
  return hits;
}

/** A lookup tool started with a computed name: `system("ping %s" % name)`, `Popen("nslookup " + name)`, an f-string.
 * An option's count is `\s*\d+` (never an empty `\s*\d*`), so the blanks between options split one way only: linear time. */
const LOOKUP_CALL = /(?:system|popen|call|run|Popen|check_output|exec|execSync|spawn)\s*\(\s*[fr]?['"`](?:nslookup|dig|host|ping)(?:\s+-[a-z](?:\s*\d+)?)*\s+(?:%s|\{[\w.]*\}|\$\{|['"`]\s*\+)/g;
/** Data of the machine or the user, or text made DNS-safe (hex, base32/64): what an exfiltrating lookup carries in its labels. */
const LOOKUP_DATA = /\b(?:gethostname|getfqdn|getuser|getlogin|getcwd|uname|environ|getenv|whoami|hostname|userInfo|homedir|b64encode|b32encode|urlsafe_b64encode|hexlify|readFileSync|execSync|check_output)\b|%0?2x|\.hex\s*\(|\.toString\s*\(\s*['"`](?:hex|base64|base32)/;

/**
 * A resolver called from Python code: socket's address lookups, dnspython's and aiodns's query/resolve. A resolver
 * object is a word holding `resolver` (looked for once from the word's start: `\w*[Rr]esolver\w*` tried every
 * `resolver` of a long word with the rest of the word after it, 1.5 s for a word of 131,072 characters).
 */
export const PY_RESOLVER_CALL = /\b(?:socket\.)?(?:gethostbyname(?:_ex)?|getaddrinfo)\s*\(|\b(?:dns\.resolver|(?=\w*[Rr]esolver)\w+)\.(?:query|resolve)\s*\(/g;
/**
 * What a resolver's name carries when it exfiltrates: the machine's or user's identity, the working folder, the whole
 * environment, a secret-named environment variable, or encoded text. A configured host name or region read from the
 * environment (`os.getenv("DB_HOST")`) is ordinary configuration.
 */
const PY_RESOLVER_DATA = /\b(?:gethostname|getfqdn|getnode|getuser|getlogin|getcwd|uname|whoami|b64encode|b32encode|urlsafe_b64encode|hexlify)\b|platform\.node\b|\.hex\s*\(|%0?2x|\benviron\b(?!\s*(?:\.get\b|\[))|(?:getenv|environ\.get|environ\[)\s*\(?\s*['"][A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASS|CRED)/;
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isWordOrDash = (c: string): boolean => isLetter(c) || (c >= '0' && c <= '9') || c === '_' || c === '-';
const isQuote = (c: string): boolean => c === "'" || c === '"';
const FORMAT_CALL = /\.format\s*\(/y;

/** Where `\.[A-Za-z][\w-]*\.[A-Za-z]{2,}` matches at `p`: the index after its last letter, or -1. */
function domainAt(text: string, p: number): number {
  if (text.charAt(p) !== '.' || !isLetter(text.charAt(p + 1))) return -1;
  let q = p + 2;
  while (q < text.length && isWordOrDash(text.charAt(q))) q++;
  if (text.charAt(q) !== '.') return -1;
  let r = q + 1;
  while (r < text.length && isLetter(text.charAt(r))) r++;
  return r - q - 1 >= 2 ? r : -1;
}

/**
 * A name built at run time with a literal domain part: `f"{x}.example.com"`, `x + ".example.com"`, `"%s.example.com" % x`,
 * `"{}.example.com".format(x)`. Whether
 * `/(?:\{[^}\n]*\}|%s|['"]\s*\+|\+\s*[rbuf]*['"])[^'"\n]*\.[A-Za-z][\w-]*\.[A-Za-z]{2,}|\.[A-Za-z][\w-]*\.[A-Za-z]{2,}['"]\s*(?:%|\.format\s*\()/`
 * matches, in one pass: a domain part after the end of a building token (a `{...}` field, `%s`, a quote and `+`, `+` and
 * a quote) with no quote or line break between them, or a domain part closed by a quote that `%` or `.format(` follows.
 * The expression read the rest of the text from each building token (20 ms for an 8,000-character call of `%s.a`
 * repeated, 17 s for a file of them).
 */
export function builtDomain(text: string): boolean {
  let tokenEnd = -1; // the end of the last building token seen
  let lastBreak = -1; // the last quote or line break seen
  let braceOpen = false;
  let lastSolid = -1; // the last character that is not white space
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '.') {
      const r = domainAt(text, i);
      if (r >= 0) {
        if (tokenEnd > lastBreak) return true;
        if (isQuote(text.charAt(r))) {
          const k = skipRegexBlanks(text, r + 1);
          FORMAT_CALL.lastIndex = k;
          if (text.charAt(k) === '%' || FORMAT_CALL.test(text)) return true;
        }
      }
    }
    // what character i ends or breaks
    if (c === '{') braceOpen = true;
    else if (c === '}') {
      if (braceOpen) tokenEnd = i + 1;
      braceOpen = false;
    } else if (c === '\n') braceOpen = false;
    if (c === 's' && text.charAt(i - 1) === '%') tokenEnd = i + 1;
    if (c === '+' && lastSolid >= 0 && isQuote(text.charAt(lastSolid))) tokenEnd = i + 1;
    if (isQuote(c)) {
      lastBreak = i;
      let j = i - 1;
      while (j >= 0 && 'rbuf'.includes(text.charAt(j))) j--;
      while (j >= 0 && isRegexBlank(text.charAt(j))) j--;
      if (j >= 0 && text.charAt(j) === '+') tokenEnd = i + 1;
    } else if (c === '\n') lastBreak = i;
    if (!isRegexBlank(c)) lastSolid = i;
  }
  return false;
}
/** Names of the local network, service discovery and cluster DNS: looking up the host's own name there is ordinary. */
const LOCAL_SUFFIX = /\.(?:local|localdomain|lan|internal|home\.arpa|localhost)\b/i;

/**
 * The text assigned to each name of the file (`name = ...`, `name += ...`, JS declarations, and an item or property of
 * it: `out[f] = ...`, also after a loop's or condition's head on the same line), at most 2000 characters
 * each. Given `members`, an item's or property's text goes there instead (an object filled in over several lines).
 */
function assignedTexts(code: string, members?: Map<string, string[]>): Map<string, string[]> {
  const defs = new Map<string, string[]>();
  for (const m of code.matchAll(/^[ \t]*(?:(?:for|if|while)[ \t]*\([^\n\r]{0,300}?\)[ \t]*)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)(?:\[[^\]\n]{0,100}\]|\.[A-Za-z_$][\w$]*)?\s*(?:\+?=)(?!=)\s*([^\n]{1,2000})/gm)) {
    if (!m[1] || !m[2]) continue;
    // the left side ends with the name itself, or with an item or property of it
    let lhs = m[0].slice(0, m[0].length - m[2].length).trimEnd();
    if (lhs.endsWith('=')) lhs = lhs.slice(0, -1);
    if (lhs.endsWith('+')) lhs = lhs.slice(0, -1);
    bindText(members !== undefined && !lhs.trimEnd().endsWith(m[1]) ? members : defs, m[1], m[2]);
  }
  return defs;
}

/** Python loop targets bound to what they loop over (`for n, c in enumerate(chunks):` binds n and c to `enumerate(chunks)`), added to `defs`. */
function withLoopTargets(code: string, defs: Map<string, string[]>): Map<string, string[]> {
  for (const line of code.split('\n')) {
    const head = line.trim();
    const start = head.startsWith('for ') ? 4 : head.startsWith('async for ') ? 10 : -1;
    if (start < 0 || !head.endsWith(':')) continue;
    const loop = head.slice(start, -1);
    const at = loop.indexOf(' in ');
    if (at < 0 || at > 200) continue;
    const over = loop.slice(at + 4).trim().slice(0, 2000);
    for (const name of loop.slice(0, at).match(/[A-Za-z_]\w*/g) ?? []) bindText(defs, name, over);
  }
  return defs;
}

/** Adds a text assigned to a name to the name's list in `defs`. */
function bindText(defs: Map<string, string[]>, name: string, text: string): void {
  const list = defs.get(name);
  if (list !== undefined) list.push(text);
  else defs.set(name, [text]);
}

/** The names a Python expression reads, those inside f-string braces included. */
function namesRead(expr: string): string[] {
  const inBraces = [...expr.matchAll(/\{([^{}\n]*)\}/g)].map((m) => m[1] ?? '').join(' ');
  return [...`${blankLiterals(expr)} ${inBraces}`.matchAll(/[A-Za-z_$][\w$]*/g)].map((x) => x[0]);
}

/**
 * Whether the text `start` (a call's argument), followed through the file's assignments (`defs`, `steps` steps), holds
 * what `data` matches. `read` gives the names a step's texts read.
 */
function carriesData(start: string, defs: ReadonlyMap<string, readonly string[]>, data: { test(text: string): boolean }, read: (texts: readonly string[]) => string[], budget: FlowBudget, steps = 3): boolean {
  let flow = start;
  let names = read([start]);
  const seen = new Set<string>();
  for (let step = 0; step < steps && !data.test(flow); step++) {
    const next = names.filter((n) => !seen.has(n) && defs.has(n));
    if (next.length === 0) break;
    for (const n of next) seen.add(n);
    const texts = withinRoom(next, defs, Math.min(FLOW_TEXT - flow.length, budget.left));
    if (texts.length === 0) break;
    const added = `\n${texts.join('\n')}`;
    budget.left -= added.length;
    flow += added;
    names = read(texts);
  }
  return data.test(flow);
}

/** What one lookup's flow may gather from the file's assignments (`carriesData`)... */
const FLOW_TEXT = 64 * 1024;
/** ...and all of one file's lookups together: a file of many lookups of a name assigned many long texts (each lookup
 * gathering the same megabytes again) stays within a small multiple of its length. */
const FLOW_BUDGET = 16 * 1024 * 1024;
interface FlowBudget {
  left: number;
}

/** The first of the texts assigned to `names`, in order, that fit, each with its line break, in `room` characters. */
function withinRoom(names: readonly string[], defs: ReadonlyMap<string, readonly string[]>, room: number): string[] {
  const out: string[] = [];
  for (const n of names) {
    for (const t of defs.get(n) ?? []) {
      room -= t.length + 1;
      if (room < 0) return out;
      out.push(t);
    }
  }
  return out;
}

/** A name assigned only a literal domain (`_ZONE = "x.oast.example.com"`), perhaps glued from literal pieces (`"ntp." + "sync" + ".com"`). */
const LITERAL_PIECES = /^\s*['"][\w.-]{0,200}['"](?:\s*\+\s*['"][\w.-]{0,100}['"]){0,4}\s*$/;
const DOMAIN_TEXT = /^[a-z0-9][\w.-]{0,400}\.[a-z]{2,24}$/i;
const domainLiteral = (t: string): boolean => LITERAL_PIECES.test(t) && DOMAIN_TEXT.test(t.replace(/['"\s+]/g, ''));
/** A name formatted or joined into the call (`"%s.%s" % (label, _ZONE)`, `"{}.{}".format(...)`, `+`, `".".join([..., _ZONE])`) that holds a literal domain of its own. */
function zoneByName(call: string, defs: Map<string, string[]>): boolean {
  if (!/%|\.format\s*\(|\+|\bf['"]|\.join\s*\(/.test(call)) return false;
  return namesRead(call).some((n) => {
    const texts = defs.get(n) ?? [];
    return texts.length > 0 && texts.every((t) => domainLiteral(t) && !LOCAL_SUFFIX.test(t));
  });
}

/**
 * A Python resolver call whose name is built at run time around a literal domain and carries host or user data
 * (followed through the file's assignments and loop targets, four steps: the name, its label, the list of chunks, the
 * encoded text): `socket.gethostbyname(f"{key}.collector.example")`.
 * `socket.gethostbyname(socket.gethostname())` (the host's own address) builds no name; a name under a local or
 * cluster suffix is service discovery. The domain may be held by a name formatted in (`zoneByName`).
 */
function pythonLookupOfData(code: string, defs: Map<string, string[]>, budget: FlowBudget): DetectorHit[] {
  const hits: DetectorHit[] = [];
  const argsOf = callReader(code);
  for (const m of code.matchAll(PY_RESOLVER_CALL)) {
    const open = code.indexOf('(', m.index);
    const call = argsOf(open);
    const built = (text: string): boolean => (builtDomain(text) || zoneByName(text, defs)) && !LOCAL_SUFFIX.test(text);
    // the name looked up, or the name it was built into first (`name = "%s.%s" % (label, _Z)`, then `getaddrinfo(name, 80)`)
    const held = /^\(?\s*([A-Za-z_]\w*)\s*[,)]/.exec(call)?.[1];
    if (!(built(call) || (held !== undefined && (defs.get(held) ?? []).some(built)))) continue;
    if (carriesData(call, defs, PY_RESOLVER_DATA, (texts) => texts.flatMap(namesRead), budget, 4)) hits.push({ offset: m.index, text: `${code.slice(m.index, open)}${call.slice(0, 200)}` });
  }
  return hits;
}

/**
 * A DNS lookup (nslookup, dig, host, ping) started by code with a name that carries data: the name, followed through
 * the file's assignments (three steps), holds host or user details or text encoded into labels. Pinging a configured
 * server address (a test suite waiting for a host) passes a computed name that carries nothing. In Python, a resolver
 * call (socket, dnspython, aiodns) of a name built around a literal domain that carries host or user data or a
 * secret (`pythonLookupOfData`).
 */
export function lookupOfData({ code, path: file }: DetectorInput): DetectorHit[] {
  const python = /\.pyw?$/i.test(file);
  const defs = python ? withLoopTargets(code, assignedTexts(code)) : assignedTexts(code);
  const budget: FlowBudget = { left: FLOW_BUDGET };
  const hits: DetectorHit[] = python ? pythonLookupOfData(code, defs, budget) : [];
  const argsOf = callReader(code);
  for (const m of code.matchAll(LOOKUP_CALL)) {
    const open = code.indexOf('(', m.index);
    const call = argsOf(open);
    if (carriesData(call, defs, LOOKUP_DATA, (texts) => [...blankLiterals(texts.join('\n')).matchAll(/[A-Za-z_$][\w$]*/g)].map((x) => x[0]), budget)) hits.push({ offset: m.index, text: `${code.slice(m.index, open)}${call.slice(0, 200)}` });
  }
  return hits;
}

/** A download piped into a shell or PowerShell's expression runner. */
const FETCH_PIPE = [
  // (the shell perhaps given variables first: `curl -fsSL u | OUT_DIR=x sh`)
  /\b(?:curl|wget)\b[^\n|]{0,300}\|\s*(?:\w{1,40}=[^\s|;&]{0,200}\s+){0,3}(?:sudo\s+)?(?:ba|z|da|k)?sh\b/gi,
  /\b(?:iwr|Invoke-WebRequest|Invoke-RestMethod|irm|New-Object\s+Net\.WebClient)\b[^\n]{0,300}\|\s*(?:iex|Invoke-Expression)\b/gi,
  /\b(?:iex|Invoke-Expression)\s*(?:\(\s*){0,2}(?:New-Object\s+(?:System\.)?Net\.WebClient|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/gi,
];
const JS_FILE = /\.(?:[cm]?js|jsx|ts|tsx)$/i;
const JS_RUN_CALL = /(?<![\w$])(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|execa\w*|execaCommand\w*)\s*\(|\b(?:child_process|childProcess|cp|shell)\.\w+\s*\(|\[\s*['"`](?:exec|execSync|execFile|execFileSync|spawn|spawnSync)['"`]\s*\]\s*\(/;
/** JS_RUN_CALL for matchAll (which works on its own copy, so one module-level pattern serves every call). */
const JS_RUN_CALLS = new RegExp(JS_RUN_CALL.source, 'g');

/**
 * The names the file's process calls take among their arguments (the first 2,000 characters of each): every maximal
 * run of `[\w$]`, so a name is among them when `(?<![\w$])name(?![\w$])` finds it in some call's arguments. Read once
 * per file, not once per assigned command string.
 */
function runCallNames(code: string): Set<string> {
  const names = new Set<string>();
  const argsOf = callReader(code);
  for (const c of code.matchAll(JS_RUN_CALLS)) {
    for (const w of argsOf(c.index + c[0].length - 1).slice(0, 2000).matchAll(/[\w$]+/g)) names.add(w[0]);
  }
  return names;
}

const isNameChar = (c: string): boolean => /[\w$]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/**
 * The name a statement assigns its last value to (`x = ...`, `x: ...`): the identifier that ends, before white space,
 * at the statement's last `=` or `:`; undefined when there is none. What `/([A-Za-z_$][\w$]*)\s*[:=]\s*[^=:]*$/`
 * captures, read backwards from that last `=` or `:` in one pass (the expression backtracks cubically on a long run of
 * names and white space).
 */
export function assignedName(statement: string): string | undefined {
  const last = Math.max(statement.lastIndexOf(':'), statement.lastIndexOf('='));
  if (last < 0) return undefined;
  let end = last;
  while (end > 0 && isRegexBlank(statement.charAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isNameChar(statement.charAt(start - 1))) start--;
  // The leftmost start: a name begins with a letter, _ or $, so leading digits of the run are skipped.
  while (start < end && isDigit(statement.charAt(start))) start++;
  return start < end ? statement.slice(start, end) : undefined;
}

/** The name a statement declares at its start (`const c = ...`). */
const DECLARED_NAME = /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?![=>])/;

/**
 * A download piped into a shell. In a shell script, an install hook or Python the command line is the program; in
 * JavaScript it is a string, which runs only when it reaches a process call: on the statement that holds it, or
 * through the name it is assigned to. An install hint printed to the user (`Install it with: curl … | bash`) runs nothing.
 */
export function fetchPipeRun({ code, path: file, hook, decoded }: DetectorInput): DetectorHit[] {
  const hits: DetectorHit[] = [];
  // (a command line hidden in a literal is no install hint printed to the user: decoded text counts as written)
  const js = hook === undefined && decoded !== true && JS_FILE.test(file ?? '');
  let runNames: Set<string> | undefined;
  for (const re of FETCH_PIPE) {
    for (const m of code.matchAll(re)) {
      if (js) {
        // the statement so far: back to the last ; { or } before the match
        const before = code.slice(Math.max(0, m.index - 2000), m.index);
        const cut = Math.max(before.lastIndexOf(';'), before.lastIndexOf('{'), before.lastIndexOf('}'));
        const statement = before.slice(cut + 1);
        // the name at its last `=` or `:`, or the one it declares (`const c = win ? 'iwr … | iex' : 'curl … | sh'`)
        const assigned = [assignedName(statement), DECLARED_NAME.exec(statement)?.[1]].filter((n) => n !== undefined);
        if (!JS_RUN_CALL.test(statement) && !assigned.some((n) => (runNames ??= runCallNames(code)).has(n))) continue;
      }
      hits.push({ offset: m.index, text: m[0] });
    }
  }
  return hits;
}

/** A decipher (Node's crypto, WebCrypto). */
const DECIPHER = /\b(?:createDecipheriv|createDecipher|subtle\.decrypt)\b/g;
/** The project around the package: npm's package variables, the directory npm was run in, a package.json read. */
const PROJECT_KEY = /\bnpm_package_\w|\bINIT_CWD\b|['"`]package\.json['"`]/;
/** Code compiled from text. */
const COMPILES = /\b(?:runInThisContext|runInNewContext|runInContext|compileFunction|_compile)\s*\(|(?<![\w$.])(?:eval|Function)\s*\(|\bnew\s+Function\b/;
/** How far before a decipher its key's source, and after it the compile, may stand. */
const KEYED_WINDOW = 1200;

/**
 * A decipher with the project around the package read just before it and code compiled just after it: a payload that
 * decrypts only inside one target application (flatmap-stream's key was the consuming app's description). A bundle
 * holds the three far apart, in unrelated modules.
 */
export function keyedDecryptRun({ code }: DetectorInput): DetectorHit[] {
  const hits: DetectorHit[] = [];
  for (const m of code.matchAll(DECIPHER)) {
    if (!PROJECT_KEY.test(code.slice(Math.max(0, m.index - KEYED_WINDOW), m.index))) continue;
    if (!COMPILES.test(code.slice(m.index, m.index + KEYED_WINDOW))) continue;
    hits.push({ offset: m.index, text: m[0] });
    if (hits.length >= 5) break;
  }
  return hits;
}

/**
 * A file that holds secrets, named in a read: credential stores, shell history, browser and wallet stores, `.env`. Also
 * sends_secret_file's pre-check: a file that names none cannot send one.
 */
export const SECRET_FILE = /\.npmrc\b|\.pypirc\b|\.ssh[/\\]+id_\w+|\.aws[/\\]+credentials|\.git-credentials|\.docker[/\\]+config\.json|\.kube[/\\]+config|\.config[/\\]+(?:gcloud|solana)|\/etc\/(?:shadow|passwd)\b|\.(?:bash|zsh)_history|Login Data|Local State|wallet\.dat|exodus\.wallet|Local Extension Settings|[/\\]ssfn|loginusers\.vdf|Telegram Desktop|\bgh(?:[/\\]+|['"`]\s*,\s*['"`])hosts\.yml|\/proc\/(?:self|\d+)\/environ\b|['"`/\\]\.ssh['"`]|['"`/\\]\.netrc\b|Default(?:[/\\]+|['"`]\s*,\s*['"`])(?:History|Cookies|Web Data)\b|['"`/\\]\.env['"`]|['"`/\\]id_(?:rsa|ed25519|ecdsa|dsa)['"`]/;
/** A call that reads a file's content. */
const FILE_READ = /\bopen\s*\(|\breadFile(?:Sync)?\s*\(|\.read_(?:text|bytes)\s*\(/;
/** A secret file's content: a read, and a secret file's name, in the flow followed back from what is sent. */
const SECRET_READ = { test: (flow: string): boolean => FILE_READ.test(flow) && SECRET_FILE.test(flow) };
/** Calls that send a request body: Python's HTTP clients and urllib, JavaScript's fetch and HTTP clients. */
const BODY_SENDS = /(?<![\w$])(?:requests|httpx|session|client|sess|s|axios|got|needle|superagent)\s*\.\s*(?:post|put|patch)\s*\(|(?<![\w$.])(?:fetch|Request)\s*\(/g;
/** A keyword argument that is a request's body (`data=`, `json=`, `files=`, httpx's `content=`). */
const BODY_KEYWORD = /^(?:data|json|files|content)\s*=(?!=)\s*/;
/** An options object's body property (`body: x`). */
const BODY_PROPERTY = /^['"]?body['"]?\s*:\s*/;
/** A name whose `write`, `end` or `send` puts data on the wire: assigned a request or a socket. */
const NET_OBJECT = /\bhttps?\s*\.\s*request\s*\(|\bnet\s*\.\s*(?:connect|createConnection)\s*\(|\btls\s*\.\s*connect\s*\(|\bnew\s+(?:net\s*\.\s*)?(?:Socket|WebSocket)\s*\(|\bsocket\s*\.\s*(?:socket|create_connection)\s*\(/;
const WIRE_WRITES = /(?<![\w$])([A-Za-z_$][\w$]*)\s*\.\s*(?:write|end|send|sendall)\s*\(/g;
/** `with open(...) as f` (the open call, at most 300 characters, and the name). */
const WITH_OPEN = /\bwith\s+(open\s*\([^\n]{0,300}?\))\s+as\s+([A-Za-z_]\w*)/g;
/** A loop's name and what it walks: Python's `for f in files:` (to the colon that ends the line), JavaScript's `for (const f of fs.readdirSync(d))` (up to the first `)`). */
const LOOP_OVER = /^[ \t]*for[ \t]+([A-Za-z_]\w*)[ \t]+in[ \t]+(\S[^\n\r]{0,1999}):[ \t]*$|\bfor\s*\(\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s+of\s+([^\n)]{1,2000})/gm;

/**
 * The content of a file that holds secrets (credential stores, shell history, browser and wallet stores, `.env`) sent
 * in a request body, followed back through the file's assignments (three steps): `requests.post(u, data=h)` where
 * `h = open(os.path.expanduser('~/.bash_history')).read()`, `fetch(u, {method: 'POST', body: k})` after
 * `readFileSync(home + '/.config/solana/id.json')`, a request's or socket's `end(h)`. A client that reads a credential
 * file to sign or authorise its own calls puts it in headers, which are not followed.
 */
export function sendsSecretFile({ code }: DetectorInput): DetectorHit[] {
  // statements joined by `;` on one line (a one-line stealer) are read as lines of their own for their assignments
  const members = new Map<string, string[]>();
  // (and a `try {` opens a line: `try { pack[f] = readFileSync(p) } catch {}`)
  const defs = assignedTexts((code.includes(';') ? code.replace(/;/g, ';\n') : code).replace(/\btry[ \t]*\{/g, 'try {\n'), members);
  // `with open(path) as f:` gives f the open call; a loop's name what it walks (`for f in glob(...)`)
  for (const m of code.matchAll(WITH_OPEN)) if (m[2] !== undefined && m[1] !== undefined) bindText(defs, m[2], m[1]);
  for (const m of code.matchAll(LOOP_OVER)) {
    const name = m[1] ?? m[3];
    const walked = m[2] ?? m[4];
    if (name !== undefined && walked !== undefined) bindText(defs, name, walked);
  }
  // a name assigned more than twice (a bundle's one-letter names, given something in every function) is not followed
  const reused = new Set([...defs].filter(([, texts]) => texts.length > 2).map(([name]) => name));
  for (const name of reused) defs.delete(name);
  // an object filled in item by item (`pack[f] = readFileSync(...)`, `pack.key = process.env.KEY`) holds what its items
  // are given: up to four, for a name not given a value more than twice
  for (const [name, texts] of members) if (!reused.has(name) && texts.length <= 4) for (const t of texts) bindText(defs, name, t);
  const budget: FlowBudget = { left: FLOW_BUDGET };
  const argsOf = callReader(code);
  const read = (texts: readonly string[]): string[] => texts.flatMap(namesRead);
  const hits: DetectorHit[] = [];
  // what is sent: a body keyword's value, else the options object's `body`, else the second argument (a positional
  // body); never the headers
  const body = (args: string): string => {
    const parts = topLevelArgs(args);
    for (const p of parts) {
      const k = BODY_KEYWORD.exec(p);
      if (k !== null) return p.slice(k[0].length);
    }
    const second = parts[1] ?? '';
    if (!second.startsWith('{') || !second.endsWith('}')) return second;
    for (const p of topLevelArgs(`(${second.slice(1, -1)})`)) {
      const k = BODY_PROPERTY.exec(p);
      if (k !== null) return p.slice(k[0].length);
    }
    return /\bheaders\b/.test(second) ? '' : second;
  };
  for (const m of code.matchAll(BODY_SENDS)) {
    if (hits.length >= 20) break;
    const open = m.index + m[0].length - 1;
    const sent = body(argsOf(open));
    if (sent !== '' && carriesData(sent, defs, SECRET_READ, read, budget)) hits.push({ offset: m.index, text: `${m[0]}${sent.slice(0, 200)}` });
  }
  for (const m of code.matchAll(WIRE_WRITES)) {
    if (hits.length >= 20) break;
    const target = m[1] ?? '';
    if (!(defs.get(target) ?? []).some((t) => NET_OBJECT.test(t))) continue;
    const sent = argsOf(m.index + m[0].length - 1);
    if (carriesData(sent, defs, SECRET_READ, read, budget)) hits.push({ offset: m.index, text: `${m[0]}${sent.slice(0, 200)}` });
  }
  return hits;
}
