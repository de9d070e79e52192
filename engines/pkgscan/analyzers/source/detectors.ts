// Structural checks the YAML rules name by `detector:`: walks of the acorn tree for JavaScript and statement-aware scans of comment-free Python; each gives the offsets and text it matched.
import type * as acorn from 'acorn';
import * as walk from 'acorn-walk';
import type { HookCommand } from './hooks.js';
import type { DetectorName } from './rules.js';

export interface DetectorHit {
  readonly offset: number;
  readonly text: string;
}

export interface DetectorInput {
  /** Comment-free text (offsets are the original file's). */
  readonly code: string;
  readonly ast: acorn.Node | null;
  readonly path: string;
  /** The npm install hook this text is the command of (hook units only). */
  readonly hook?: HookCommand | undefined;
  /** The release's own name and its declared dependencies, normalised (`normaliseDependency`). */
  readonly declared?: ReadonlySet<string> | undefined;
}

/** A package name as PyPI and npm compare them: lower case, runs of `-`, `_`, `.` as one `-`. */
export function normaliseDependency(name: string): string {
  return name.trim().toLowerCase().replace(/[-_.]+/g, '-');
}

type AnyNode = acorn.Node & Record<string, unknown>;

/** acorn's node types as a plain record, for reading fields by name. */
function node(n: acorn.Node): AnyNode {
  return n as unknown as AnyNode;
}

const JS_DECODE = /Buffer\.from\s*\([^)]{0,4000}?['"`](?:base64|hex|base64url)['"`]|\batob\s*\(|String\.fromCharCode\s*\(|\bunescape\s*\(|decodeURIComponent\s*\(\s*escape|base64[_-]?decode|\.toString\s*\(\s*['"`](?:utf-?8|ascii|binary|latin1)['"`]\s*\)\s*\.split\s*\(\s*['"`]['"`]\s*\)\s*\.reverse/i;

function src(code: string, n: acorn.Node): string {
  return code.slice(n.start, Math.min(n.end, n.start + 20_000));
}

function calleeName(n: AnyNode): string {
  const callee = n['callee'] as AnyNode | undefined;
  if (!callee) return '';
  if (callee.type === 'Identifier') return String(callee['name']);
  if (callee.type === 'MemberExpression') {
    const prop = callee['property'] as AnyNode;
    const obj = callee['object'] as AnyNode;
    const objName = obj.type === 'Identifier' ? String(obj['name']) : obj.type === 'MemberExpression' ? String((obj['property'] as AnyNode)['name'] ?? '') : '';
    const propName = prop.type === 'Identifier' ? String(prop['name']) : prop.type === 'Literal' ? String(prop['value']) : '';
    return `${objName}.${propName}`;
  }
  return '';
}

function identifiersIn(n: acorn.Node): string[] {
  const out: string[] = [];
  walk.full(n, (x) => {
    if (x.type === 'Identifier') out.push(String(node(x)['name']));
  });
  return out;
}

/** Names assigned from a decoded value (two rounds of propagation: `a = atob(x); b = a + ''`). */
function taintedNames(code: string, ast: acorn.Node): Set<string> {
  const assigns: { name: string; value: acorn.Node }[] = [];
  walk.full(ast, (n) => {
    const a = n as AnyNode;
    if (n.type === 'VariableDeclarator' && a['init'] && (a['id'] as AnyNode).type === 'Identifier') assigns.push({ name: String((a['id'] as AnyNode)['name']), value: a['init'] as acorn.Node });
    if (n.type === 'AssignmentExpression' && (a['left'] as AnyNode).type === 'Identifier') assigns.push({ name: String((a['left'] as AnyNode)['name']), value: a['right'] as acorn.Node });
  });
  const tainted = new Set<string>();
  // functions that decode and return: `function sify(d) { return Buffer.from(d, 'hex').toString() }`
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'FunctionDeclaration' && a['id'] && JS_DECODE.test(src(code, a['body'] as acorn.Node)) && /\breturn\b/.test(src(code, a['body'] as acorn.Node))) tainted.add(String(node(a['id'] as acorn.Node)['name']));
  });
  // Taint follows names, not scopes: a name assigned many times (minified bundles reuse one-letter names in every
  // function) is tainted only when most of its assignments are, so one decoder does not taint every `F` in a bundle.
  const assignCount = new Map<string, number>();
  for (const { name } of assigns) assignCount.set(name, (assignCount.get(name) ?? 0) + 1);
  const taintedCount = new Map<string, number>();
  const isTainted = (name: string): boolean => {
    const all = assignCount.get(name) ?? 0;
    const hit = taintedCount.get(name) ?? 0;
    return hit > 0 && (all <= 2 || hit * 2 > all);
  };
  for (let round = 0; round < 3; round++) {
    taintedCount.clear();
    for (const { name, value } of assigns) {
      if (JS_DECODE.test(src(code, value)) || identifiersIn(value).some((i) => i !== name && isTaintedNow(i))) taintedCount.set(name, (taintedCount.get(name) ?? 0) + 1);
    }
    for (const name of taintedCount.keys()) if (isTainted(name)) tainted.add(name);
  }
  function isTaintedNow(i: string): boolean {
    return tainted.has(i);
  }
  return tainted;
}

const EVAL_SINK = /^(?:eval|Function|\w*\.(?:runInThisContext|runInNewContext|runInContext|compileFunction)|\w*\.eval|window\.eval|global\.eval|globalThis\.eval)$/;

/** Without a tree (a file too big or too deep to parse): eval/Function/vm with a decoder inside its first 300 characters. */
const EVAL_DECODED_TEXT = /(?<![\w.$])(?:eval|Function|runInThisContext|runInNewContext)\s*\([^;\n]{0,300}?(?:\batob\s*\(|Buffer\.from\s*\([^)]{0,200}['"`](?:base64|hex)['"`]|String\.fromCharCode\s*\()/g;

function jsEvalDecoded({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [...code.matchAll(EVAL_DECODED_TEXT)].slice(0, 50).map((m) => ({ offset: m.index, text: m[0] }));
  const hits: DetectorHit[] = [];
  let tainted: Set<string> | null = null;
  const visit = (n: acorn.Node): void => {
    const name = calleeName(node(n));
    const isSink = EVAL_SINK.test(name) || (n.type === 'NewExpression' && /^(?:Function|vm\.Script|Script)$/.test(name));
    if (!isSink) return;
    const args = (node(n)['arguments'] as acorn.Node[] | undefined) ?? [];
    if (args.length === 0) return;
    const text = args.map((a) => src(code, a)).join(',');
    if (JS_DECODE.test(text)) {
      hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    tainted ??= taintedNames(code, ast);
    const t = tainted;
    if (args.some((a) => identifiersIn(a).some((i) => t.has(i)))) hits.push({ offset: n.start, text: src(code, n) });
  };
  walk.full(ast, (n) => {
    if (n.type === 'CallExpression' || n.type === 'NewExpression') visit(n);
  });
  return hits;
}

/** A call that fetches over the network (its callee's text). */
const JS_NET_CALLEE = /^(?:https?\.(?:get|request)|fetch|\w*\.fetch|axios(?:\.\w+)?|got(?:\.\w+)?|request(?:\.\w+)?|needle(?:\.\w+)?|superagent(?:\.\w+)?|\w*\.(?:get|post|request)|net\.connect|\w*\.createConnection)$/;
/** Fetched content read from a response in one expression: `(await fetch(u)).text()`, `(await axios.get(u)).data`. */
const JS_NET_TEXT = /\b(?:fetch|axios(?:\.\w+)?|got(?:\.\w+)?|https?\.get|needle|superagent)\s*\(/;
/** Events that hand a listener received data. */
const JS_DATA_EVENT = /^['"`](?:data|end|message|response)['"`]$/;
/** A check of a URL against the page's own origin. */
const SAME_ORIGIN = /\b(?:self|window|globalThis)\.origin\b|\blocation\.origin\b/;
/** Without a tree (a decoded literal, a file too big to parse): the response's end listener that evaluates, or an eval of a fetch in one statement. */
const EVAL_FETCHED_TEXT = /\.on\s*\(\s*['"]end['"][^\n]{0,200}(?<![\w.$])eval\s*\(|(?<![\w.$])(?:eval|Function)\s*\(\s*(?:await\s+)?[^;\n]{0,200}?\b(?:fetch|axios(?:\.\w+)?|https?\.get)\s*\(/g;

/** The function's parameter names (plain, default and rest; destructured names too). */
function paramNames(fn: AnyNode): string[] {
  return ((fn['params'] as acorn.Node[] | undefined) ?? []).flatMap((p) => identifiersIn(p));
}

/**
 * Code received over the network handed to eval/Function/vm: the evaluated value must come from a fetch. It is a
 * parameter of a callback given to a network call or to a `data`/`end`/`message` listener (used inside it), a name
 * assigned from such a parameter or from a fetch (`body += chunk`, `const code = await (await fetch(u)).text()`), or
 * a fetch in the argument itself. An eval of a function's own parameter (a debugging `_eval(script)` helper) in a file
 * that also opens a socket is not fetched code.
 */
function jsEvalFetched({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [...code.matchAll(EVAL_FETCHED_TEXT)].slice(0, 50).map((m) => ({ offset: m.index, text: m[0] }));
  // callbacks that receive fetched data: their parameter names, within their text
  const receivers: { start: number; end: number; names: Set<string> }[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression') return;
    const name = calleeName(node(n));
    const args = (node(n)['arguments'] as AnyNode[] | undefined) ?? [];
    const first = args[0];
    const listener = /\.(?:on|once|addListener|addEventListener)$/.test(name) && first !== undefined && first.type === 'Literal' && JS_DATA_EVENT.test(src(code, first));
    const callee = node(n)['callee'] as AnyNode;
    const thenOfFetch = /\.then$/.test(name) && callee.type === 'MemberExpression' && JS_NET_TEXT.test(src(code, callee['object'] as acorn.Node));
    if (!listener && !thenOfFetch && !JS_NET_CALLEE.test(name)) return;
    for (const a of args) {
      if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') continue;
      const names = new Set(paramNames(a));
      if (names.size > 0) receivers.push({ start: a.start, end: a.end, names });
    }
  });
  const receivedAt = (id: string, at: number): boolean => receivers.some((r) => r.start <= at && at < r.end && r.names.has(id));
  // names assigned fetched data (two rounds: `body += chunk`, then `code = body.trim()`); a name reused many times (a
  // minified bundle's one-letter names) is fetched only when most of its assignments are
  const assigns: { name: string; value: acorn.Node }[] = [];
  walk.full(ast, (n) => {
    const a = node(n);
    // `const { data } = await axios.get(u)`: each name of a destructuring pattern
    if (n.type === 'VariableDeclarator' && a['init']) for (const id of identifiersIn(a['id'] as acorn.Node)) assigns.push({ name: id, value: a['init'] as acorn.Node });
    if (n.type === 'AssignmentExpression' && (a['left'] as AnyNode).type === 'Identifier') assigns.push({ name: String((a['left'] as AnyNode)['name']), value: a['right'] as acorn.Node });
  });
  const count = new Map<string, number>();
  for (const { name } of assigns) count.set(name, (count.get(name) ?? 0) + 1);
  const fetched = new Set<string>();
  const fromNetwork = (value: acorn.Node): boolean => JS_NET_TEXT.test(src(code, value)) || identifiersIn(value).some((i) => fetched.has(i) || receivedAt(i, value.start));
  for (let round = 0; round < 2; round++) {
    const hit = new Map<string, number>();
    for (const { name, value } of assigns) if (fromNetwork(value)) hit.set(name, (hit.get(name) ?? 0) + 1);
    for (const [name, h] of hit) {
      const all = count.get(name) ?? 0;
      if (all <= 2 || h * 2 > all) fetched.add(name);
    }
  }
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
    const name = calleeName(node(n));
    if (!EVAL_SINK.test(name) && !(n.type === 'NewExpression' && /^(?:Function|vm\.Script|Script)$/.test(name))) return;
    const args = (node(n)['arguments'] as acorn.Node[] | undefined) ?? [];
    const body = args[args.length - 1];
    if (body === undefined) return;
    // a browser module loader that fetches only from the page's own origin and evaluates that (AMD/worker loaders):
    // the page's own scripts, not code from elsewhere
    if (fromNetwork(body) && !SAME_ORIGIN.test(code.slice(Math.max(0, n.start - 1500), n.start))) hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

const SPAWN = /^(?:\w*\.)?(?:spawn|exec|execFile|fork|spawnSync|execSync|execFileSync)$/;

function jsDetachedSpawn({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression' || !SPAWN.test(calleeName(node(n)))) return;
    for (const a of (node(n)['arguments'] as AnyNode[]) ?? []) {
      if (a.type !== 'ObjectExpression') continue;
      const t = src(code, a);
      if (/\bdetached\s*:\s*(?:true|!0|1)\b/.test(t) || (/\bwindowsHide\s*:\s*(?:true|!0)/.test(t) && /stdio\s*:\s*['"`]ignore/.test(t))) hits.push({ offset: n.start, text: src(code, n) });
    }
  });
  return hits;
}

function jsEnvSerialise({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const hits: DetectorHit[] = [];
  // names holding the whole environment: `var data = process.env || {}`
  const envNames = new Set<string>();
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'VariableDeclarator' && a['init'] && node(a['id'] as acorn.Node).type === 'Identifier' && /^process\.env(?:\s*\|\|\s*\{\s*\})?$/.test(src(code, a['init'] as acorn.Node).trim())) envNames.add(String(node(a['id'] as acorn.Node)['name']));
  });
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression') return;
    const name = calleeName(node(n));
    if (!/(?:stringify|encode|send|write|post|request|push|from|btoa|entries|keys|values|end|emit)$/i.test(name)) return;
    const args = (node(n)['arguments'] as acorn.Node[]) ?? [];
    const whole = args.some((a) => {
      const t = src(code, a);
      return /^process\.env$/.test(t) || (/stringify$/i.test(name) && (/\bprocess\.env\b(?!\s*(?:\.|\[|\?\.))/.test(t) || envNames.has(t.trim())));
    });
    if (whole) hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

function jsDynamicRequire({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression' || calleeName(node(n)) !== 'require') return;
    const arg = ((node(n)['arguments'] as AnyNode[]) ?? [])[0];
    if (!arg || arg.type === 'Literal') return;
    if (arg.type === 'TemplateLiteral' && ((arg['expressions'] as unknown[]) ?? []).length === 0) return;
    const t = src(code, arg);
    // path.join(__dirname, ...) and require.resolve are how packages load their own files
    if (/__dirname|require\.resolve|\bpath\.(?:join|resolve)\b/.test(t)) return;
    hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

/** Host or user data: the machine's identity, the environment, files, command output. */
const HOST_DATA = /\bos\.(?:hostname|userInfo|homedir|networkInterfaces|platform|type|release|arch|cpus)\b|\b(?:hostname|userInfo|homedir|networkInterfaces)\s*\(\s*\)|process\.env\b|process\.cwd\s*\(|\breadFileSync\s*\(|\bexecSync\s*\(|\bwhoami\b/;
/** Text turned into a DNS-safe label: hex, base32/base64 or a named encoder. */
const LABEL_ENCODE = /\.toString\s*\(\s*['"`](?:hex|base64|base64url|base32)['"`]\s*\)|\b(?:hex|toHex|hexEncode|base32\w*|b32\w*|encodeHex)\s*\(/i;

/** The text a name is given in this file (declarations and plain assignments), at most 2000 characters each. */
function definitions(ast: acorn.Node, code: string): Map<string, string[]> {
  const defs = new Map<string, string[]>();
  const add = (name: string, value: acorn.Node): void => {
    const list = defs.get(name) ?? [];
    list.push(code.slice(value.start, Math.min(value.end, value.start + 2000)));
    defs.set(name, list);
  };
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'VariableDeclarator' && (a['id'] as AnyNode).type === 'Identifier' && a['init']) add(String((a['id'] as AnyNode)['name']), a['init'] as acorn.Node);
    if (n.type === 'AssignmentExpression' && (a['left'] as AnyNode).type === 'Identifier') add(String((a['left'] as AnyNode)['name']), a['right'] as acorn.Node);
    if (n.type === 'FunctionDeclaration' && a['id']) add(String((a['id'] as AnyNode)['name']), a['body'] as acorn.Node);
  });
  return defs;
}

/** The hostname argument's text with what its names are given, followed three steps back through the file. */
function dataFlowText(arg: acorn.Node, code: string, defs: Map<string, string[]>): string {
  let text = src(code, arg);
  const seen = new Set<string>();
  let frontier = identifiersIn(arg);
  for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      for (const d of defs.get(id) ?? []) {
        text += `\n${d}`;
        for (const m of d.matchAll(/[A-Za-z_$][\w$]*/g)) next.push(m[0]);
      }
    }
    frontier = next;
  }
  return text;
}

/**
 * DNS exfiltration: a resolver call whose hostname is built at run time from host data (environment, files, machine
 * identity, command output) encoded into a label (hex, base32/64). A lookup of a computed name (a configured host, a
 * service record, a name from a URL) is ordinary networking.
 */
function jsDnsExfil({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  let defs: Map<string, string[]> | null = null;
  const hits: DetectorHit[] = [];
  walk.ancestor(ast, { CallExpression(n: acorn.Node, _state: unknown, ancestors: acorn.Node[]) {
    const name = calleeName(node(n));
    if (!/^(?:dns|\w*[Rr]esolver)?\.(?:lookup|resolve|resolve4|resolve6|resolveTxt|resolveCname|resolveAny)$/.test(name) && !/^dns\w*\.\w+$/.test(name)) return;
    const arg = ((node(n)['arguments'] as AnyNode[]) ?? [])[0];
    if (!arg || arg.type === 'Literal') return;
    defs ??= definitions(ast, code);
    // a name the file never assigns is a parameter (`chunks.forEach((chunk) => dns.resolve(chunk + suffix))`): its
    // data comes through the enclosing functions, so the outermost one's text is followed too
    const known = defs;
    const unresolved = identifiersIn(arg).some((id) => !known.has(id));
    const fn = unresolved ? ancestors.find((a) => /Function/.test(a.type)) : undefined;
    const flow = dataFlowText(fn ?? arg, code, defs);
    if (LABEL_ENCODE.test(flow) && HOST_DATA.test(flow)) hits.push({ offset: n.start, text: src(code, n) });
  } });
  return hits;
}

const PY_FETCH = /\burlopen\b|\brequests\.(?:get|post)\b/;
const PY_DECODE = /\b(?:b64decode|b32decode|b16decode|b85decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|marshal\.loads|pickle\.loads|Fernet|decrypt)\b|\bcodecs\.decode|\[\s*::\s*-1\s*\]|['"]rot[_-]?13['"]/;

/** The text from `open` (an opening parenthesis) to its matching close, at most 8000 characters. */
function balanced(code: string, open: number): string {
  let depth = 0;
  const end = Math.min(code.length, open + 8000);
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

function pyExecDecoded({ code }: DetectorInput): DetectorHit[] {
  const aliases: string[] = [];
  for (const m of code.matchAll(/\bimport\s+[^\n]*?\b(b64decode|decompress|loads|b32decode|unhexlify|decodebytes|urlopen|Fernet)\s+as\s+(\w+)/g)) if (m[2]) aliases.push(m[2]);
  for (const m of code.matchAll(/\b(?:exec|eval)\s+as\s+(\w+)/g)) if (m[1]) aliases.push(m[1]);
  // functions that decode and return: `def b64d(s): ... return base64.b64decode(s)`
  for (const m of code.matchAll(/^([ \t]*)def\s+(\w+)\s*\([^)]*\)\s*:([^\n]*\n(?:(?:\1[ \t]+[^\n]*|[ \t]*)\n){0,40})/gm)) if (m[2] && m[3] && PY_DECODE.test(m[3]) && /\breturn\b/.test(m[3])) aliases.push(m[2]);
  const decode = aliases.length > 0 ? new RegExp(`${PY_DECODE.source}|\\b(?:${aliases.join('|')})\\s*\\(`) : PY_DECODE;
  const tainted = new Set<string>();
  for (const m of code.matchAll(/^[ \t]*([A-Za-z_]\w*)\s*=\s*([^\n]{1,4000})/gm)) if (m[1] && m[2] && decode.test(m[2])) tainted.add(m[1]);
  const taint = tainted.size > 0 ? new RegExp(`\\b(?:${[...tainted].join('|')})\\b`) : null;
  const hits: DetectorHit[] = [];
  const sinks = /(?<![\w.])(?:exec|eval|compile|execfile)\s*\(|\bos\.(?:system|popen)\s*\(|\bsubprocess\.(?:call|run|Popen|check_output|check_call|getoutput)\s*\(|\bgetattr\s*\(\s*__builtins__[^)]*\)\s*\(|\bbuiltins\s*\.\s*(?:exec|eval)\s*\(/g;
  for (const m of code.matchAll(sinks)) {
    const open = code.indexOf('(', m.index + m[0].length - 1);
    const args = balanced(code, open);
    const codeSink = /^(?:exec|eval|compile|execfile|getattr|builtins)/.test(m[0]);
    if (decode.test(args) || (codeSink && PY_FETCH.test(args)) || (taint !== null && taint.test(args.replace(/(['"])(?:\\.|(?!\1)[^\\\n])*\1/g, '""').replace(/\b\w+\s*=(?!=)/g, '')))) hits.push({ offset: m.index, text: code.slice(m.index, open) + args });
    if (hits.length > 50) break;
  }
  return hits;
}

/** The top-level comma-separated parts of a call's argument text (`(a, f(b, c), 'd')` -> a | f(b, c) | 'd'). */
function topLevelArgs(call: string): string[] {
  const inner = call.replace(/^\(/, '').replace(/\)$/, '');
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(inner.slice(start).trim());
  return out;
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
  if (/^[ugoa]*\+[rwxXst]*x[rwxXst]*$/.test(m)) return true;
  const oct = /^(?:0o|0)?([0-7]{3,4})$/i.exec(m);
  if (oct?.[1] !== undefined && /^(?:0o|0)/i.test(m)) return hasExecBit(Number.parseInt(oct[1], 8));
  if (/^[0-7]{3,4}$/.test(m) && /^(['"`])/.test(mode.trim())) return hasExecBit(Number.parseInt(m, 8));
  if (/^[1-9]\d{1,3}$/.test(m)) return hasExecBit(Number.parseInt(m, 10));
  // an execute flag ORed into the mode (no mask or subtraction taking bits away)
  return /\bS_I(?:EXEC|XUSR|XGRP|XOTH|RWXU)\b/.test(m) && !/[&~-]/.test(m.replace(/\bS_I\w+/g, ''));
}

/** Names and paths a chmod target stands for: its identifiers, its string literals, and the literals those names are given in the file. */
function targetWords(target: string, code: string): string[] {
  const words = new Set<string>();
  const literal = (s: string): void => {
    const v = s.replace(/^~\//, '').trim();
    if (v.length < 3 || /^[./\\]*$/.test(v)) return;
    words.add(v);
    const base = v.split(/[\\/]/).pop() ?? '';
    if (base.length >= 3) words.add(base);
  };
  for (const m of target.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) literal(m[2] ?? '');
  const bare = target.replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, ' ');
  for (const m of bare.matchAll(/[A-Za-z_$][\w$]*/g)) {
    const id = m[0];
    if (/^(?:os|fs|fsp|path|join|resolve|this|self|__dirname|process|cwd|tmpdir|homedir|expanduser|await|require|promises|sync|Sync)$/.test(id) || id.length < 2) continue;
    words.add(id);
    const given = new RegExp(`(?:^|[\\s;,(])(?:const|let|var)?\\s*${id.replace(/\$/g, '\\$')}\\s*=\\s*([^\\n;]{1,300})`, 'gm');
    for (const g of code.matchAll(given)) for (const l of (g[1] ?? '').matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) literal(l[2] ?? '');
  }
  return [...words];
}

/** Where something is started: a process or shell call (its argument text follows), or a shell command line. */
const RUN_SINK = /(?<![\w$])(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|system|popen|startfile|Popen|call|run|check_call|check_output|getoutput|execv\w*|execl\w*)\s*\(|\bStart-Process\b/g;
/** `chmod +x tool`, `chmod 755 "$BIN"`, and in code `'chmod +x ' + dest` or `` `chmod +x ${dest}` ``. */
const SHELL_CHMOD = /\bchmod\s+(?:-\w+\s+)*([ugoa]*\+[rwxXst]*x[rwxXst]*|[0-7]{3,4})\s+(?:['"`]\s*\+\s*([\w$.]+)|\$\{([^}]{1,200})\}|"?([^\s;&|'"`)]+))/g;
const CALL_CHMOD = /\bchmod(?:Sync)?\s*\(/g;

/**
 * Makes a file runnable and then runs that file: a chmod with a literal execute mode (`chmod(p, 0o755)`, `chmod +x p`,
 * `st_mode | S_IEXEC`) of a target that a process, shell or system call of the same file later starts (the same name,
 * or the path that name is given). A computed mode (an emulated file system's `mode & 0o777`, a script installer's
 * `0o777 - umask`) or a file made executable for later use and never started here is not a download-and-run.
 */
function chmodThenRun({ code }: DetectorInput): DetectorHit[] {
  const hits: DetectorHit[] = [];
  const chmods: { offset: number; end: number; text: string; target: string }[] = [];
  for (const m of code.matchAll(CALL_CHMOD)) {
    const open = m.index + m[0].length - 1;
    const call = balanced(code, open);
    const [target, mode] = topLevelArgs(call);
    if (target !== undefined && mode !== undefined && literalExecMode(mode)) chmods.push({ offset: m.index, end: open + call.length, text: code.slice(m.index, open) + call, target });
    if (chmods.length > 50) break;
  }
  for (const m of code.matchAll(SHELL_CHMOD)) {
    const target = m[2] ?? m[3] ?? m[4];
    if (target !== undefined && (m[1] === undefined || literalExecMode(m[1]))) chmods.push({ offset: m.index, end: m.index + m[0].length, text: m[0], target });
    if (chmods.length > 100) break;
  }
  if (chmods.length === 0) return hits;
  const runs: { start: number; end: number; text: string }[] = [];
  for (const m of code.matchAll(RUN_SINK)) {
    if (m[0].endsWith('(')) {
      const open = m.index + m[0].length - 1;
      const args = balanced(code, open);
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
    const words = targetWords(c.target, code);
    if (words.length === 0) continue;
    // the chmod's own command (`execSync('chmod +x ' + dest)`) does not run the file
    const started = runs.some((r) => !(r.start <= c.offset && c.offset < r.end) && !/^\s*\(?\s*['"`]?chmod\b/.test(r.text) && words.some((w) => (/^[A-Za-z_$][\w$]*$/.test(w) ? new RegExp(`(?<!\\w)${w.replace(/\$/g, '\\$')}(?![\\w$])`).test(r.text) : r.text.includes(w))));
    if (started) hits.push({ offset: c.offset, text: c.text });
  }
  return hits;
}

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
function pyImportTimeInstall({ code, path: file, declared }: DetectorInput): DetectorHit[] {
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

function pyCmdclassInstall({ code, path }: DetectorInput): DetectorHit[] {
  if (!/(^|\/)setup\.py$/.test(path) || !/\bcmdclass\b/.test(code)) return [];
  const hits: DetectorHit[] = [];
  for (const m of code.matchAll(/^([ \t]*)class\s+\w+\s*\(([^)]*\b(?:install|develop|egg_info|_install|_develop|build_py|sdist|bdist_egg)\b[^)]*)\)\s*:/gm)) {
    const indent = (m[1] ?? '').length;
    const rest = code.slice(m.index + m[0].length);
    const lines = rest.split('\n');
    let body = '';
    for (const line of lines.slice(1)) {
      if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
      body += `${line}\n`;
    }
    const run = /def\s+run\s*\(\s*self[^)]*\)\s*:([\s\S]*)/.exec(body);
    if (!run?.[1]) continue;
    const statements = run[1].split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(?:pass|return\b|"""|'''|(?:super\s*\([^)]*\)|\w+(?:\.\w+)*)\.run\s*\(|\w+\.do_egg_install\(|def\s)/.test(l));
    if (statements.length > 0) hits.push({ offset: m.index, text: m[0].trim() });
  }
  return hits;
}

function pthExecutable({ code }: DetectorInput): DetectorHit[] {
  const hits: DetectorHit[] = [];
  for (const m of code.matchAll(/^[ \t]*import[ \t][^\n]*/gm)) hits.push({ offset: m.index, text: m[0] });
  return hits;
}

/** An npm install hook judged by what it runs (hooks.ts): only ordinary build steps, package code (`node FILE`, `node -e`), or shell commands of its own. */
function npmHook(runs: 'ordinary' | 'package_code' | 'shell'): (input: DetectorInput) => DetectorHit[] {
  return ({ hook }) => {
    if (hook === undefined) return [];
    const kind = hook.ordinary ? 'ordinary' : hook.shell ? 'shell' : 'package_code';
    return kind === runs ? [{ offset: 0, text: `${hook.hook}: ${hook.command}` }] : [];
  };
}

export const DETECTOR_FUNCTIONS: Readonly<Record<DetectorName, (input: DetectorInput) => DetectorHit[]>> = {
  js_eval_decoded: jsEvalDecoded,
  js_eval_fetched: jsEvalFetched,
  js_detached_spawn: jsDetachedSpawn,
  js_env_serialise: jsEnvSerialise,
  js_dynamic_require: jsDynamicRequire,
  js_dns_exfil: jsDnsExfil,
  py_exec_decoded: pyExecDecoded,
  py_cmdclass_install: pyCmdclassInstall,
  pth_executable: pthExecutable,
  chmod_then_run: chmodThenRun,
  py_import_time_install: pyImportTimeInstall,
  npm_hook_ordinary: npmHook('ordinary'),
  npm_hook_code: npmHook('package_code'),
  npm_hook_shell: npmHook('shell'),
};

/** A cheap test on the raw text before a detector needs the parse: a file without it cannot give a hit. */
export const DETECTOR_PRECHECK: Readonly<Record<DetectorName, RegExp>> = {
  js_eval_decoded: /\beval\b|\bFunction\b|runIn\w*Context|compileFunction|\bScript\b/,
  js_eval_fetched: /\beval\b|\bFunction\b|runIn\w*Context|compileFunction|\bScript\b/,
  js_detached_spawn: /\bdetached\b|\bwindowsHide\b/,
  js_env_serialise: /process\.env/,
  js_dynamic_require: /\brequire\s*\(/,
  js_dns_exfil: /\bdns\b|[Rr]esolver/,
  py_exec_decoded: /./,
  py_cmdclass_install: /./,
  pth_executable: /./,
  chmod_then_run: /\bchmod/,
  py_import_time_install: /\bpip/,
  npm_hook_ordinary: /./,
  npm_hook_code: /./,
  npm_hook_shell: /./,
};
