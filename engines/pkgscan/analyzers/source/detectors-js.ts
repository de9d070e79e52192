// The detectors of JavaScript: walks of the acorn tree that follow a value (a fetched or decoded text into eval, the
// environment into a request, a host name into a DNS label); each gives the offsets and text it matched.
import type * as acorn from 'acorn';
import * as walk from 'acorn-walk';
import type { DetectorHit, DetectorInput } from './detectors.js';

export type AnyNode = acorn.Node & Record<string, unknown>;

/** acorn's node types as a plain record, for reading fields by name. */
export function node(n: acorn.Node): AnyNode {
  return n as unknown as AnyNode;
}

const JS_DECODE = /Buffer\.from\s*\((?:[^()]|\([^()]{0,400}\)){0,4000}?['"`](?:base64|hex|base64url)['"`]|\batob\s*\(|String\.fromCharCode\s*(?:\.\s*(?:apply|call)\s*)?\(|\bunescape\s*\(|decodeURIComponent\s*\(\s*escape|base64[_-]?decode|\.toString\s*\(\s*['"`](?:utf-?8|ascii|binary|latin1)['"`]\s*\)\s*\.split\s*\(\s*['"`]['"`]\s*\)\s*\.reverse/i;

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
    const propName = prop.type === 'Identifier' && callee['computed'] !== true ? String(prop['name']) : (staticText(prop) ?? '');
    return `${objName}.${propName}`;
  }
  return '';
}

/**
 * The name of what an eval-like call calls: calleeName, and an indirect call's last expression (`(0, eval)(x)`, how
 * code evaluates in the global scope). Only the eval sinks read it: a transpiler's `(0, _cp.spawn)(...)` is its own
 * module's call, which the spawn rules leave as they read it before.
 */
function evalCalleeName(n: AnyNode): string {
  const callee = n['callee'] as AnyNode | undefined;
  if (callee?.type === 'SequenceExpression') {
    const last = ((callee['expressions'] as AnyNode[] | undefined) ?? []).at(-1);
    return last === undefined ? '' : calleeName({ ...n, callee: last });
  }
  return calleeName(n);
}

/**
 * The text an expression always stands for, when it is written from literals alone: a string, literals glued with `+`,
 * a template without fields, `atob('...')` and `Buffer.from('...', 'base64' | 'hex').toString()` of one
 * (`globalThis['ev' + 'al']`, `global[atob('ZXZhbA==')]`); null otherwise. At most 200 characters.
 */
function staticText(n: AnyNode, depth = 0): string | null {
  if (depth > 20) return null;
  if (n.type === 'Literal') return typeof n['value'] === 'string' || typeof n['value'] === 'number' ? String(n['value']).slice(0, 200) : null;
  if (n.type === 'TemplateLiteral') {
    const quasis = n['quasis'] as AnyNode[];
    return (n['expressions'] as AnyNode[]).length === 0 && quasis.length === 1 ? String((quasis[0]!['value'] as { cooked?: string }).cooked ?? '') : null;
  }
  if (n.type === 'BinaryExpression' && n['operator'] === '+') {
    const l = staticText(n['left'] as AnyNode, depth + 1);
    const r = l === null ? null : staticText(n['right'] as AnyNode, depth + 1);
    return l === null || r === null ? null : (l + r).slice(0, 200);
  }
  if (n.type !== 'CallExpression') return null;
  const name = calleeName(n);
  const args = (n['arguments'] as AnyNode[] | undefined) ?? [];
  if (/^(?:window\.|globalThis\.|self\.)?atob$/.test(name) && args.length === 1) {
    const t = staticText(args[0]!, depth + 1);
    return t === null ? null : Buffer.from(t, 'base64').toString('latin1').slice(0, 200);
  }
  // Buffer.from('...', enc).toString(): the callee is the toString member of the Buffer.from call
  const callee = n['callee'] as AnyNode;
  if (name.endsWith('.toString') && callee.type === 'MemberExpression' && (callee['object'] as AnyNode).type === 'CallExpression') {
    const inner = callee['object'] as AnyNode;
    const innerArgs = (inner['arguments'] as AnyNode[] | undefined) ?? [];
    const enc = innerArgs[1] === undefined ? null : staticText(innerArgs[1], depth + 1);
    const t = innerArgs[0] === undefined ? null : staticText(innerArgs[0], depth + 1);
    if (calleeName(inner) === 'Buffer.from' && t !== null && (enc === 'base64' || enc === 'hex')) return Buffer.from(t, enc).toString('latin1').slice(0, 200);
  }
  return null;
}

function identifiersIn(n: acorn.Node): string[] {
  const out: string[] = [];
  walk.full(n, (x) => {
    if (x.type === 'Identifier') out.push(String(node(x)['name']));
  });
  return out;
}

/**
 * The names a node gives a value: each name of a declaration's pattern (`const { data } = await axios.get(u)`) and
 * a plain assignment's name.
 */
function assignedAt(n: acorn.Node): { name: string; value: acorn.Node }[] {
  const a = node(n);
  if (n.type === 'VariableDeclarator' && a['init']) return identifiersIn(a['id'] as acorn.Node).map((id) => ({ name: id, value: a['init'] as acorn.Node }));
  if (n.type === 'AssignmentExpression' && (a['left'] as AnyNode).type === 'Identifier') return [{ name: String((a['left'] as AnyNode)['name']), value: a['right'] as acorn.Node }];
  return [];
}

/** The file's functions by the names they are bound to: declarations, and function expressions or arrows a name is given. */
function namedFunctions(ast: acorn.Node, max: number): { name: string; fn: AnyNode }[] {
  const out: { name: string; fn: AnyNode }[] = [];
  walk.full(ast, (n) => {
    const a = node(n);
    if (out.length >= max) return;
    if (n.type === 'FunctionDeclaration' && a['id']) out.push({ name: String(node(a['id'] as acorn.Node)['name']), fn: a });
    const init = a['init'] as AnyNode | undefined;
    if (n.type === 'VariableDeclarator' && init !== undefined && init !== null && (init.type === 'FunctionExpression' || init.type === 'ArrowFunctionExpression') && node(a['id'] as acorn.Node).type === 'Identifier')
      out.push({ name: String(node(a['id'] as acorn.Node)['name']), fn: init });
  });
  return out;
}

/** `arr.push(x, y)`: each argument as a value the array is given, under the array's name. */
function pushedInto(n: acorn.Node): { name: string; value: acorn.Node }[] {
  if (n.type !== 'CallExpression') return [];
  const a = node(n);
  const callee = a['callee'] as AnyNode;
  const target = callee.type === 'MemberExpression' && callee['computed'] !== true ? (callee['object'] as AnyNode) : null;
  if (target?.type !== 'Identifier' || node(callee['property'] as acorn.Node)['name'] !== 'push') return [];
  return ((a['arguments'] as acorn.Node[] | undefined) ?? []).map((value) => ({ name: String(target['name']), value }));
}

/** Names assigned from a decoded value (two rounds of propagation: `a = atob(x); b = a + ''`). */
function taintedNames(code: string, ast: acorn.Node): Set<string> {
  const assigns: { name: string; value: acorn.Node }[] = [];
  walk.full(ast, (n) => {
    const a = n as AnyNode;
    if (n.type === 'VariableDeclarator' && a['init'] && (a['id'] as AnyNode).type === 'Identifier') assigns.push({ name: String((a['id'] as AnyNode)['name']), value: a['init'] as acorn.Node });
    if (n.type === 'AssignmentExpression' && (a['left'] as AnyNode).type === 'Identifier') assigns.push({ name: String((a['left'] as AnyNode)['name']), value: a['right'] as acorn.Node });
    // `chunks.push(d)` in a data listener: the array holds what it is handed (then `Buffer.concat(chunks)`)
    assigns.push(...pushedInto(n));
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

const EVAL_SINK = /^(?:eval|Function|\w*\.(?:runInThisContext|runInNewContext|runInContext|compileFunction)|(?:[\w$]+\.)*_compile|\w*\.eval|window\.eval|global\.eval|globalThis\.eval)$/;
/**
 * A name given the Function constructor of a function expression (`Object.getPrototypeOf(async function () {})
 * .constructor`, `(async () => {}).constructor`, `Function.prototype.constructor`): calling it makes a function from text.
 */
const FUNCTION_CTOR_NAME = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]{0,60})\s*=\s*([^;\n]{1,120}?)\.\s*constructor\b/g;
/** The expression before `.constructor` that is a function expression, bare or through Object.getPrototypeOf, or Function.prototype. */
const FUNCTION_EXPRESSION = /^(?:Object\.getPrototypeOf\s*)?\(\s*(?:async\s+)?(?:function\b[^{}()]{0,40}\(\s*\)|\(\s*\)\s*=>)\s*\{\s*\}\s*\)$|^Function\.prototype$/;

/** The names a file gives the Function constructor (FUNCTION_CTOR_NAME), at most 20. */
function functionConstructors(code: string): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(FUNCTION_CTOR_NAME)) if (m[1] !== undefined && out.size < 20 && FUNCTION_EXPRESSION.test((m[2] ?? '').trim())) out.add(m[1]);
  return out;
}

/**
 * The arguments holding the code a call evaluates, or null when it evaluates none: eval, Function and vm (EVAL_SINK),
 * the Function constructor under a name of its own, a sink called through `.call(self, code)`, `.apply(self, [code])`
 * or `Reflect.apply(sink, self, [code])`, `Reflect.construct(Function, [...params, code])`, and `new Worker(code, { eval: true })`.
 */
function evalArguments(n: AnyNode, code: string, ctors: ReadonlySet<string>): acorn.Node[] | null {
  const name = evalCalleeName(n);
  const args = (n['arguments'] as acorn.Node[] | undefined) ?? [];
  const sink = (x: string): boolean => EVAL_SINK.test(x) || ctors.has(x);
  const listed = (a: acorn.Node | undefined): acorn.Node[] => (a === undefined ? [] : (node(a)['type'] === 'ArrayExpression' ? ((node(a)['elements'] as (acorn.Node | null)[]) ?? []).filter((e): e is acorn.Node => e !== null) : [a]));
  if (sink(name) || (n['type'] === 'NewExpression' && /^(?:Function|vm\.Script|Script)$/.test(name))) return args;
  const through = /^(.+)\.(call|apply)$/.exec(name);
  if (through?.[1] !== undefined && sink(through[1])) return through[2] === 'call' ? args.slice(1) : listed(args[1]);
  if (name === 'Reflect.apply' && args[0] !== undefined && sink(src(code, args[0]))) return listed(args[2]);
  if (name === 'Reflect.construct' && args[0] !== undefined && sink(src(code, args[0]))) return listed(args[1]);
  if (n['type'] === 'NewExpression' && /^(?:\w+\.)?Worker$/.test(name) && args[1] !== undefined && /\beval\s*:\s*(?:true|!0)\b/.test(src(code, args[1]))) return args.slice(0, 1);
  return null;
}

/** Without a tree (a file too big or too deep to parse): eval/Function/vm with a decoder inside its first 300 characters. */
const EVAL_DECODED_TEXT = /(?<![\w.$])(?:eval|Function|runInThisContext|runInNewContext)\s*\([^;\n]{0,300}?(?:\batob\s*\(|Buffer\.from\s*\([^)]{0,200}['"`](?:base64|hex)['"`]|String\.fromCharCode\s*\()/g;

/** The text of a string literal or of a template literal without substitutions; null for any other node. */
function literalText(a: acorn.Node): string | null {
  const n = node(a);
  if (n['type'] === 'Literal') return typeof n['value'] === 'string' ? n['value'] : null;
  if (n['type'] !== 'TemplateLiteral' || ((n['expressions'] as unknown[] | undefined)?.length ?? 0) > 0) return null;
  return ((n['quasis'] as AnyNode[] | undefined) ?? []).map((q) => String((q['value'] as { cooked?: unknown } | undefined)?.cooked ?? '')).join('');
}

/** Evaluated source text that itself runs something (a call of eval, Function, require or import, a child process or vm method). */
const RUNS_SOMETHING = /(?<![\w$.])(?:eval|Function|require|import)\s*\(|\.(?:exec\w*|spawn\w*|runIn\w*Context)\s*\(/;

export function jsEvalDecoded({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [...code.matchAll(EVAL_DECODED_TEXT)].slice(0, 50).map((m) => ({ offset: m.index, text: m[0] }));
  const hits: DetectorHit[] = [];
  let tainted: Set<string> | null = null;
  const ctors = functionConstructors(code);
  const dataUrlLoader = DATA_URL_TEST.test(code) && !DATA_URL_LITERAL.test(code);
  const visit = (n: acorn.Node): void => {
    const args = evalArguments(node(n), code, ctors);
    if (args === null || args.length === 0) return;
    // source text written out as literals (a bundle's eval-devtool module, where object-assign's own test calls
    // String.fromCharCode): a decoder's name in it is a decode only where the text also runs something
    const literals = args.map(literalText);
    if (literals.every((t): t is string => t !== null)) {
      const value = literals.join(',');
      if (JS_DECODE.test(value) && RUNS_SOMETHING.test(value)) hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    const text = args.map((a) => src(code, a)).join(',');
    if (JS_DECODE.test(text)) {
      hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    // a loader of `data:` URLs (a web worker's or module loader's, `/^data:/.test(url)`) decodes and runs the source its
    // caller hands it, not text of its own; a `data:` URL written into the file with its base64 is read as such
    if (dataUrlLoader) return;
    tainted ??= taintedNames(code, ast);
    const t = tainted;
    if (args.some((a) => identifiersIn(a).some((i) => t.has(i)))) hits.push({ offset: n.start, text: src(code, n) });
  };
  walk.full(ast, (n) => {
    if (n.type === 'CallExpression' || n.type === 'NewExpression') visit(n);
  });
  return hits;
}

/** A test for the `data:` scheme (`/^data:/.test(url)`, `url.startsWith('data:')`). */
const DATA_URL_TEST = /\/\^\s*data:|\.startsWith\s*\(\s*['"`]data:['"`]\s*\)/;
/** A `data:` URL written out with a base64 body of some length. */
const DATA_URL_LITERAL = /['"`]data:[^'"`\n,]{0,60};\s*base64,[A-Za-z0-9+/]{40}/;

/** child_process's functions that run a command or program. */
const CP_FUNCTIONS = /^(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)$/;
/** `require('child_process')` or `require('node:child_process')`. */
const CP_REQUIRE = /^require\s*\(\s*['"`](?:node:)?child_process['"`]\s*\)$/;
/** A program that runs the text it is given (`spawn('sh', ['-c', text])`): its arguments are the command too. */
const SHELL_PROGRAM = /^['"`](?:[\w:./\\-]*[/\\])?(?:sh|bash|zsh|dash|ksh|cmd|cmd\.exe|powershell|powershell\.exe|pwsh|pwsh\.exe|node|node\.exe|python[\d.]*|python[\d.]*\.exe|perl|ruby)['"`]$/i;
/** Without a tree: a child_process function given a decoder within its first 300 characters (the file names child_process). */
const EXEC_DECODED_TEXT = /\b(?:exec|execSync|execFile|execFileSync|spawn|spawnSync)\s*\([^;\n]{0,300}?(?:\batob\s*\(|Buffer\.from\s*\([^)]{0,200}['"`](?:base64|hex)['"`]|String\.fromCharCode\s*\()/g;

/** How many times each name is bound in the file (declared, a parameter, assigned, a function's or class's name, a catch parameter). */
function bindingCounts(ast: acorn.Node): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (names: readonly string[]): void => {
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  };
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'VariableDeclarator') add(identifiersIn(a['id'] as acorn.Node));
    else if (n.type === 'AssignmentExpression' && (a['left'] as AnyNode).type === 'Identifier') add([String((a['left'] as AnyNode)['name'])]);
    else if (/Function/.test(n.type)) {
      if (a['id']) add([String(node(a['id'] as acorn.Node)['name'])]);
      add(paramNames(a));
    } else if ((n.type === 'ClassDeclaration' || n.type === 'ClassExpression') && a['id']) add([String(node(a['id'] as acorn.Node)['name'])]);
    else if (n.type === 'CatchClause' && a['param']) add(identifiersIn(a['param'] as acorn.Node));
  });
  return counts;
}

/**
 * A command decoded from base64, hex or char codes handed to child_process (`exec(Buffer.from(s, 'base64').toString())`,
 * `spawn('sh', ['-c', atob(s)])`, or a name assigned such a text): a command hidden from a reader of the package. The
 * function must be child_process's: read from a name the file binds to the module once (`const cp = require(...)`,
 * `import * as cp`), destructured or imported from it, or called on `require('child_process')` itself; a RegExp's
 * `exec` of decoded text is not a command, and a bundle's one-letter names, bound again in every function, are not
 * followed. The command is the first argument, and the argument list too when the program is a shell or interpreter.
 */
export function jsExecDecoded({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return /child_process/.test(code) ? [...code.matchAll(EXEC_DECODED_TEXT)].slice(0, 50).map((m) => ({ offset: m.index, text: m[0] })) : [];
  const modules = new Set<string>();
  const functions = new Set<string>();
  const isRequire = (n: AnyNode | undefined): boolean => n?.type === 'CallExpression' && CP_REQUIRE.test(src(code, n));
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'VariableDeclarator' && isRequire(a['init'] as AnyNode | undefined)) {
      const id = a['id'] as AnyNode;
      if (id.type === 'Identifier') modules.add(String(id['name']));
      if (id.type === 'ObjectPattern')
        for (const p of (id['properties'] as AnyNode[]) ?? []) {
          const key = p['key'] as AnyNode | undefined;
          const value = p['value'] as AnyNode | undefined;
          if (p.type === 'Property' && key?.type === 'Identifier' && CP_FUNCTIONS.test(String(key['name'])) && value?.type === 'Identifier') functions.add(String(value['name']));
        }
    }
    if (n.type === 'ImportDeclaration' && /^(?:node:)?child_process$/.test(String(node(a['source'] as acorn.Node)['value']))) {
      for (const sp of (a['specifiers'] as AnyNode[]) ?? []) {
        const local = String(node(sp['local'] as acorn.Node)['name']);
        if (sp.type !== 'ImportSpecifier') modules.add(local);
        else if (CP_FUNCTIONS.test(String(node(sp['imported'] as acorn.Node)['name']))) functions.add(local);
      }
    }
  });
  if (modules.size === 0 && functions.size === 0 && !/require\s*\(\s*['"`](?:node:)?child_process['"`]\s*\)\s*\./.test(code)) return [];
  const counts = bindingCounts(ast);
  for (const set of [modules, functions]) for (const name of [...set]) if ((counts.get(name) ?? 0) > 1) set.delete(name);
  const isSink = (call: AnyNode): boolean => {
    const callee = call['callee'] as AnyNode;
    if (callee.type === 'Identifier') return functions.has(String(callee['name']));
    if (callee.type !== 'MemberExpression' || callee['computed'] === true) return false;
    const property = callee['property'] as AnyNode;
    if (property.type !== 'Identifier' || !CP_FUNCTIONS.test(String(property['name']))) return false;
    const object = callee['object'] as AnyNode;
    return (object.type === 'Identifier' && modules.has(String(object['name']))) || isRequire(object);
  };
  const hits: DetectorHit[] = [];
  let tainted: Set<string> | null = null;
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression' || hits.length > 50 || !isSink(node(n))) return;
    const args = (node(n)['arguments'] as acorn.Node[] | undefined) ?? [];
    const first = args[0];
    if (first === undefined) return;
    // the command: the first argument, and the argument list when the program runs the text it is given
    const command = first.type === 'Literal' && SHELL_PROGRAM.test(src(code, first)) && args[1] !== undefined ? [first, args[1]] : [first];
    if (JS_DECODE.test(command.map((a) => src(code, a)).join(','))) {
      hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    tainted ??= taintedNames(code, ast);
    const t = tainted;
    if (command.some((a) => identifiersIn(a).some((i) => t.has(i)))) hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

/** A call that fetches over the network (its callee's text). */
const JS_NET_CALLEE = /^(?:https?\.(?:get|request)|fetch|\w*\.fetch|axios(?:\.\w+)?|got(?:\.\w+)?|request(?:\.\w+)?|needle(?:\.\w+)?|superagent(?:\.\w+)?|\w*\.(?:get|post|request)|net\.connect|\w*\.createConnection)$/;
/** Fetched content read from a response in one expression: `(await fetch(u)).text()`, `(await axios.get(u)).data`. */
const JS_NET_TEXT = /\b(?:fetch|axios(?:\.\w+)?|got(?:\.\w+)?|https?\s*\.\s*get|needle|superagent)\s*\(/;
/**
 * The names a file takes from an HTTP client module (`const { request } = require('undici')`, `import fetch from
 * 'node-fetch'`): destructured names (1, 3) or the whole module (2, 4).
 */
const NET_MODULE_BINDING = /\b(?:const|let|var)\s+(?:\{([^}]{1,200})\}|([A-Za-z_$][\w$]*))\s*=\s*require\s*\(\s*['"`](?:undici|node-fetch|cross-fetch|isomorphic-fetch|make-fetch-happen|phin|bent|ky|minipass-fetch)['"`]\s*\)|\bimport\s+(?:\{([^}]{1,200})\}|([A-Za-z_$][\w$]*))\s+from\s+['"`](?:undici|node-fetch|cross-fetch|isomorphic-fetch|make-fetch-happen|phin|bent|ky|minipass-fetch)['"`]/g;
/** `const g = globalThis.fetch` (or `window.`, `global.`, `self.`), not a call of it. */
const FETCH_ALIAS = /\b(?:const|let|var)[ \t]{1,8}([A-Za-z_$][\w$]{0,40})[ \t]{0,8}=[ \t]{0,8}(?:globalThis|window|global|self)[ \t]{0,8}\.[ \t]{0,8}fetch\b(?![ \t]{0,8}\()/g;
/** Events that hand a listener received data. */
const JS_DATA_EVENT = /^['"`](?:data|end|message|response)['"`]$/;
/** A check of a URL against the page's own origin. */
const SAME_ORIGIN = /\b(?:self|window|globalThis)\.origin\b|\blocation\.origin\b/;
/** Without a tree (a decoded literal, a file too big to parse): the response's end listener that evaluates, or an eval of a fetch in one statement. */
const EVAL_FETCHED_TEXT = /\.on\s*\(\s*['"]end['"][^\n]{0,200}(?<![\w.$])eval\s*\(|(?<![\w.$])(?:eval|Function)\s*\(\s*(?:await\s+)?[^;\n]{0,200}?\b(?:fetch|axios(?:\.\w+)?|https?\.get)\s*\(/g;

/**
 * A file of the package's that is not code by its name: a source map, data and image files, fonts, WebAssembly, a
 * lock file (JSON and YAML are left out: a translations file's plural rules compiled after a whitelist, a config's
 * templates), or the running file's own source map (`__filename + '.map'`).
 */
const DATA_FILE = /\.(?:map|dat|bin|txt|log|db|png|jpe?g|gif|bmp|ico|svg|wav|mp3|ttf|otf|woff2?|wasm|wat|lock|csv)['"`]|__filename\s*\+\s*['"`]\.map['"`]/;
const READ_FILE_CALL = /\breadFile(?:Sync)?\s*\(/;

/**
 * Code read out of a data file of the package and run: the content of a file named as data (DATA_FILE, directly or
 * through a name given its path) followed through the names it is assigned to (`m = JSON.parse(readFileSync(__filename +
 * '.map'))`, `s = m.sourcesContent[n]`) into eval, `Function` or vm (`Function('require', s.slice(i))(require)`).
 */
export function jsEvalDataFile({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const assigns: { name: string; value: acorn.Node }[] = [];
  walk.full(ast, (n) => {
    if (assigns.length < 5000) assigns.push(...assignedAt(n));
  });
  // names given a data file's path, then names given what such a file holds (three rounds)
  const paths = new Set<string>();
  for (const { name, value } of assigns) {
    const t = src(code, value);
    if (t.length < 400 && !READ_FILE_CALL.test(t) && DATA_FILE.test(t)) paths.add(name);
  }
  const pathName = paths.size === 0 ? null : new RegExp(`(?<![\\w$.])(?:${[...paths].map((p) => p.replace(/\$/g, '\\$')).join('|')})(?![\\w$])`);
  const readsData = (t: string): boolean => {
    const at = t.search(READ_FILE_CALL);
    if (at === -1) return false;
    const rest = t.slice(at, at + 400);
    return DATA_FILE.test(rest) || (pathName !== null && pathName.test(rest));
  };
  const data = new Set<string>();
  for (let round = 0; round < 3; round++) {
    let grew = false;
    for (const { name, value } of assigns) {
      if (data.has(name)) continue;
      const t = src(code, value);
      if (readsData(t) || identifiersIn(value).some((i) => data.has(i))) {
        data.add(name);
        grew = true;
      }
    }
    if (!grew) break;
  }
  const ctors = functionConstructors(code);
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    if (hits.length >= 5 || (n.type !== 'CallExpression' && n.type !== 'NewExpression')) return;
    const args = evalArguments(node(n), code, ctors);
    if (args === null) return;
    if (args.some((a) => readsData(src(code, a)) || identifiersIn(a).some((i) => data.has(i)))) hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

/** `https.request(` or `http.request(`: a request whose response a wrapping function may hand back. */
const HTTP_REQUEST_TEXT = /\bhttps?\s*\.\s*request\s*\(/;
/** The http or https module picked by the URL's scheme (`const mod = u.startsWith('https:') ? https : http`), then its `get` or `request` called. */
const PROTOCOL_PICK = /\?\s*https\s*:\s*http\b|\?\s*http\s*:\s*https\b/;
const PICKED_CALL = /\.\s*(?:get|request)\s*\(/;

/** A call of one of these names (not a member, `x.name(`), or null when there are none. */
function callOf(names: ReadonlySet<string>): RegExp | null {
  if (names.size === 0) return null;
  return new RegExp(`(?<![\\w$.])(?:${[...names].slice(0, 50).map((x) => x.replace(/\$/g, '\\$')).join('|')})\\s*\\(`);
}

/**
 * The file's functions (declared, or a function expression or arrow bound to a name) whose body fetches, or calls
 * such a function (three rounds; at most 50 names).
 */
function fileFetchers(code: string, ast: acorn.Node, fetches: (text: string) => boolean): Set<string> {
  const fns = namedFunctions(ast, 400).map(({ name, fn }) => ({ name, body: src(code, fn['body'] as unknown as acorn.Node) }));
  const out = new Set<string>();
  for (const f of fns) if (out.size < 50 && fetches(f.body)) out.add(f.name);
  for (let round = 0; round < 3 && out.size > 0 && out.size < 50; round++) {
    const call = callOf(out);
    let grew = false;
    for (const f of fns) {
      if (out.size >= 50 || out.has(f.name) || call === null || !call.test(f.body)) continue;
      out.add(f.name);
      grew = true;
    }
    if (!grew) break;
  }
  return out;
}

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
export function jsEvalFetched({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [...code.matchAll(EVAL_FETCHED_TEXT)].slice(0, 50).map((m) => ({ offset: m.index, text: m[0] }));
  const clientNames = new Set<string>();
  for (const m of code.matchAll(NET_MODULE_BINDING)) {
    for (const part of (m[1] ?? m[3] ?? '').split(',')) {
      const local = part.split(/[:\s]/).filter((w) => w !== '').at(-1);
      if (local !== undefined && /^[A-Za-z_$][\w$]*$/.test(local)) clientNames.add(local);
    }
    const whole = m[2] ?? m[4];
    if (whole !== undefined) clientNames.add(whole);
  }
  // fetch itself under a name of the file's own (`const g = globalThis.fetch`)
  for (const m of code.matchAll(FETCH_ALIAS)) if (m[1] !== undefined) clientNames.add(m[1]);
  const clientCall = callOf(clientNames);
  // the file's own fetching functions (a function whose body fetches, `function load(cb) { https.get(...) }`, or calls
  // another such function: `async function fetchCode() { ... await rpc(url, ...) }` over a `rpc` wrapping
  // `https.request`) hand their callbacks and their callers fetched data too
  const fetchers = fileFetchers(code, ast, (t) => JS_NET_TEXT.test(t) || HTTP_REQUEST_TEXT.test(t) || (PROTOCOL_PICK.test(t) && PICKED_CALL.test(t)) || (clientCall !== null && clientCall.test(t)));
  const fetcherCall = callOf(fetchers);
  const netText = (t: string): boolean => JS_NET_TEXT.test(t) || (clientCall !== null && clientCall.test(t)) || (fetcherCall !== null && fetcherCall.test(t));
  // callbacks that receive fetched data: their parameter names, within their text
  const receivers: { start: number; end: number; names: Set<string> }[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression') return;
    const name = calleeName(node(n));
    const args = (node(n)['arguments'] as AnyNode[] | undefined) ?? [];
    const first = args[0];
    // a listener on the process itself (`process2` once a bundler renames it) hears its parent's IPC messages (a test
    // runner's worker), not the network
    // (an event named by a decoder's call or a string table's entry, `_s.on(_0x1f2c(0x2), ...)`, is read as one that
    // hands data: an obfuscator hides the names it writes that way)
    const listener = /\.(?:on|once|addListener|addEventListener)$/.test(name) && !/^process\d*\./.test(name) && first !== undefined && ((first.type === 'Literal' && JS_DATA_EVENT.test(src(code, first))) || first.type === 'CallExpression' || (first.type === 'MemberExpression' && first['computed'] === true));
    const callee = node(n)['callee'] as AnyNode;
    const thenOfFetch = /\.then$/.test(name) && callee.type === 'MemberExpression' && netText(src(code, callee['object'] as acorn.Node));
    if (!listener && !thenOfFetch && !JS_NET_CALLEE.test(name) && !fetchers.has(name)) return;
    for (const a of args) {
      if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') continue;
      const names = new Set(paramNames(a));
      if (names.size > 0) receivers.push({ start: a.start, end: a.end, names });
    }
  });
  const receivedAt = (id: string, at: number): boolean => receivers.some((r) => r.start <= at && at < r.end && r.names.has(id));
  // names assigned fetched data (three rounds: `res = await fetch(u)`, `m = await res.json()`, `for (const step of
  // m.steps)`); a name reused many times (a minified bundle's one-letter names) is fetched only when most of its
  // assignments are
  const assigns: { name: string; value: acorn.Node }[] = [];
  walk.full(ast, (n) => {
    const a = node(n);
    // `const { data } = await axios.get(u)`: each name of a destructuring pattern
    assigns.push(...assignedAt(n));
    // `chunks.push(d)` in a data listener: the array holds what it is handed (then `Buffer.concat(chunks)`)
    assigns.push(...pushedInto(n));
    // `for (const step of manifest.steps)`: each name takes an item of what it goes over
    if (n.type === 'ForOfStatement') for (const id of identifiersIn(a['left'] as acorn.Node)) assigns.push({ name: id, value: a['right'] as acorn.Node });
  });
  const count = new Map<string, number>();
  for (const { name } of assigns) count.set(name, (count.get(name) ?? 0) + 1);
  const fetched = new Set<string>();
  const fromNetwork = (value: acorn.Node): boolean => netText(src(code, value)) || identifiersIn(value).some((i) => fetched.has(i) || receivedAt(i, value.start));
  for (let round = 0; round < 3; round++) {
    const hit = new Map<string, number>();
    for (const { name, value } of assigns) if (fromNetwork(value)) hit.set(name, (hit.get(name) ?? 0) + 1);
    for (const [name, h] of hit) {
      const all = count.get(name) ?? 0;
      if (all <= 2 || h * 2 > all) fetched.add(name);
    }
  }
  const hits: DetectorHit[] = [];
  const ctors = functionConstructors(code);
  const shell = shellCallees(code);
  const runners = codeRunners(code, ast, shell, ctors);
  walk.full(ast, (n) => {
    // fetched code imported as a module from a `data:` URL (`await import(`data:text/javascript;base64,${b64(code)}`)`)
    if (n.type === 'ImportExpression') {
      const source = node(n)['source'] as acorn.Node | undefined;
      if (source !== undefined && DATA_URL_MODULE.test(src(code, source)) && fromNetwork(source)) hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
    // a shell command line that is itself fetched data (`exec(step)` for each step of a fetched manifest): not a
    // command of the file's own built around a fetched value (a downloaded file's path)
    const first = ((node(n)['arguments'] as acorn.Node[] | undefined) ?? [])[0];
    if (n.type === 'CallExpression' && first !== undefined && shell.has(calleeName(node(n))) && /^(?:Identifier|MemberExpression)$/.test(first.type)) {
      const root = /^[A-Za-z_$][\w$]*/.exec(src(code, first))?.[0] ?? '';
      if (fetched.has(root) || receivedAt(root, first.start)) hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    // fetched data handed to a function of the file's own that runs that parameter as a shell command line or as code
    // (`run(j.c)` over `function run(cmd) { spawn('sh', ['-c', cmd]) }`)
    const runs = n.type === 'CallExpression' ? runners.get(calleeName(node(n))) : undefined;
    if (runs !== undefined) {
      const callArgs = (node(n)['arguments'] as acorn.Node[] | undefined) ?? [];
      if ([...runs].some((i) => callArgs[i] !== undefined && identifiersIn(callArgs[i]!).some((id) => fetched.has(id) || receivedAt(id, callArgs[i]!.start)))) {
        hits.push({ offset: n.start, text: src(code, n) });
        return;
      }
    }
    // fetched code handed to a child Node as its program (`spawn(process.execPath, ['-e', body])`, whatever the call's
    // name: a method name joined from pieces is still a call with this argument list)
    if (n.type === 'CallExpression' && nodeEvalOfFetched(node(n), code, (root, at) => fetched.has(root) || receivedAt(root, at))) {
      hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    // any argument: `Function`'s body comes last, `vm.runInThisContext(code, options)`'s and `_compile(code, name)`'s first
    const args = evalArguments(node(n), code, ctors);
    if (args === null) return;
    // a browser module loader that fetches only from the page's own origin and evaluates that (AMD/worker loaders):
    // the page's own scripts, not code from elsewhere
    if (args.some(fromNetwork) && !SAME_ORIGIN.test(code.slice(Math.max(0, n.start - 1500), n.start))) hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

/** A module specifier that is a `data:` URL of JavaScript (the module's code is the URL's own text). */
const DATA_URL_MODULE = /^[`'"(\s]*data:(?:text|application)\/(?:javascript|ecmascript)/i;

/**
 * The file's functions that run one of their parameters (name -> the parameters' positions): as a shell command line
 * (the first parameter given to `exec(cmd)` through the file's names for child_process's exec, or after `-c` or `/c`
 * in a spawn's argument list: Node's, `Bun.spawn([...])`, `new Deno.Command('sh', { args: ['-c', cmd] })`) or as code
 * (any parameter among the arguments of eval, `new Function(...)` or vm: `function runHook(code, dir) { new
 * Function('require', code)(require) }`).
 */
function codeRunners(code: string, ast: acorn.Node, shell: ReadonlySet<string>, ctors: ReadonlySet<string>): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const { name, fn } of namedFunctions(ast, Number.POSITIVE_INFINITY)) {
    if (out.size >= 50) break;
    const params = paramNames(fn);
    if (params.length === 0 || params.length > 8) continue;
    const runs = new Set<number>();
    const bodyNode = fn['body'] as unknown as acorn.Node;
    const body = src(code, bodyNode);
    const p = (params[0] ?? '').replace(/\$/g, '\\$');
    const givenFirst = new RegExp(`^\\(\\s*${p}\\b`);
    const shellCall = [...shell].some((callee) => {
      const at = body.indexOf(`${callee}(`);
      return at !== -1 && givenFirst.test(body.slice(at + callee.length, at + callee.length + 80)) && (at === 0 || !/[\w$.]/.test(body[at - 1] ?? ''));
    });
    if (shellCall || new RegExp(`['"\`](?:-c|/c)['"\`]\\s*,\\s*${p}\\b`).test(body)) runs.add(0);
    walk.full(bodyNode, (n) => {
      if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
      const args = evalArguments(node(n), code, ctors);
      if (args === null) return;
      for (const a of args) for (const id of identifiersIn(a)) {
        const at = params.indexOf(id);
        if (at !== -1) runs.add(at);
      }
    });
    if (runs.size > 0) out.set(name, runs);
  }
  return out;
}

/** The program a call starts is Node itself: `process.execPath`, `process.argv[0]` or a `node` literal. */
const NODE_PROGRAM = /^(?:process\.execPath|process\.argv\s*\[\s*0\s*\]|['"`](?:node|nodejs)(?:\.exe)?['"`])$/;
/** Node's options whose next argument is a program's text. */
const NODE_EVAL_FLAGS = new Set(['-e', '--eval', '-p', '--print']);

/** A call starting Node with an argument list whose `-e`/`-p` program is a name (or member of one) the network filled. */
function nodeEvalOfFetched(call: AnyNode, code: string, isFetched: (root: string, at: number) => boolean): boolean {
  const args = (call['arguments'] as AnyNode[] | undefined) ?? [];
  const program = args[0];
  const list = args[1];
  if (program === undefined || list === undefined || list.type !== 'ArrayExpression' || !NODE_PROGRAM.test(src(code, program as unknown as acorn.Node).trim())) return false;
  const items = (list['elements'] as (AnyNode | null)[] | undefined) ?? [];
  for (let i = 0; i + 1 < items.length; i++) {
    const flag = items[i];
    const value = items[i + 1];
    if (flag?.type !== 'Literal' || !NODE_EVAL_FLAGS.has(String(flag['value'])) || value === null || value === undefined) continue;
    if (!/^(?:Identifier|MemberExpression|CallExpression)$/.test(value.type)) continue;
    const root = /^[A-Za-z_$][\w$]*/.exec(src(code, value as unknown as acorn.Node))?.[0] ?? '';
    if (root !== '' && isFetched(root, (value as unknown as acorn.Node).start)) return true;
  }
  return false;
}

/** child_process as a whole (`const cp = require('child_process')`, `import cp from 'node:child_process'`), in the text before the module's name. */
const CHILD_PROCESS_MODULE = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*['"`](?:node:)?$|\bimport\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s*['"`](?:node:)?$/;
/** What follows a destructuring's `}` up to the module's name (`} = require('`, `} from '`). */
const CHILD_PROCESS_AFTER = /^\}\s*(?:=\s*require\s*\(\s*|from\s*)['"`](?:node:)?$/;

/** The callee names under which this file runs a shell command line (child_process's exec and execSync), also taken by name (`const { exec: run } = require(...)`, `import { execSync } from ...`). */
function shellCallees(code: string): Set<string> {
  const out = new Set<string>();
  let at = code.indexOf('child_process');
  for (let n = 0; at !== -1 && n < 20; n++, at = code.indexOf('child_process', at + 1)) {
    const head = code.slice(Math.max(0, at - 300), at);
    const whole = CHILD_PROCESS_MODULE.exec(head.slice(head.lastIndexOf('\n') + 1));
    const module = whole?.[1] ?? whole?.[2];
    if (module !== undefined) for (const f of ['exec', 'execSync']) out.add(`${module}.${f}`);
    const close = head.lastIndexOf('}');
    const open = close === -1 ? -1 : head.lastIndexOf('{', close);
    if (open === -1 || !CHILD_PROCESS_AFTER.test(head.slice(close))) continue;
    for (const part of head.slice(open + 1, close).split(',')) {
      const [imported, local] = part.replace(/\bas\b/, ':').split(':').map((x) => x.trim());
      if (imported === 'exec' || imported === 'execSync') out.add(local !== undefined && local !== '' ? local : imported);
    }
  }
  return out;
}

const SPAWN = /^(?:\w*\.)?(?:spawn|exec|execFile|fork|spawnSync|execSync|execFileSync)$/;

export function jsDetachedSpawn({ code, ast }: DetectorInput): DetectorHit[] {
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

/** A secret variable's name: a token, a secret, a password or a key (`STRIPE_SECRET_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`). */
const SECRET_VARIABLE = /^[A-Z][A-Z0-9_]{0,60}$/;
const SECRET_WORD = /(?:^|_)(?:SECRET|TOKEN|PASSWORD|PASSWD|PASS|PRIVATE|API_?KEY|KEY|CREDENTIALS?)(?:_|$)/;
/** One read of a variable by name: `process.env.NAME` or `process.env['NAME']`. */
const ENV_READ = /process\.env(?:\.([A-Z][A-Z0-9_]{0,60})|\s{0,4}\[\s{0,4}['"`]([A-Z][A-Z0-9_]{0,60})['"`]\s{0,4}\])/g;
/** A value made of such reads alone, joined by `||`, `??` or commas in brackets. */
const ENV_READS_ONLY = /^[[(]?\s{0,4}process\.env(?:\.[A-Z][A-Z0-9_]{0,60}|\s{0,4}\[\s{0,4}['"`][A-Z][A-Z0-9_]{0,60}['"`]\s{0,4}\])(?:\s{0,4}(?:\|\||\?\?|,)\s{0,4}process\.env(?:\.[A-Z][A-Z0-9_]{0,60}|\s{0,4}\[\s{0,4}['"`][A-Z][A-Z0-9_]{0,60}['"`]\s{0,4}\])){0,10}\s{0,4}[\])]?$/;

/**
 * One object literal holding the secret variables of three or more services (`{ NEXTAUTH_SECRET:
 * process.env.NEXTAUTH_SECRET, GITHUB_SECRET: ..., STRIPE_SECRET_KEY: ... }`): a record of the deployment's secrets
 * to send. A client's options take its own service's key; a provider list gives each provider its own object.
 */
export function jsSecretEnvRecord({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'ObjectExpression' || hits.length >= 3) return;
    const services = new Set<string>();
    for (const p of (node(n)['properties'] as AnyNode[] | undefined) ?? []) {
      if (p.type !== 'Property') continue;
      // a value made of environment reads alone: one, a fallback chain (`process.env.GITHUB_TOKEN ||
      // process.env.GH_TOKEN`) or a list of them
      const value = src(code, p['value'] as acorn.Node).trim();
      if (value.length > 600 || !ENV_READS_ONLY.test(value)) continue;
      for (const m of value.matchAll(ENV_READ)) {
        const name = m[1] ?? m[2];
        if (name === undefined || !SECRET_VARIABLE.test(name) || !SECRET_WORD.test(name)) continue;
        services.add(name.split('_')[0] ?? name);
      }
    }
    if (services.size >= 3) hits.push({ offset: n.start, text: src(code, n).slice(0, 200) });
  });
  return hits;
}

/** The whole environment or a copy of it: `process.env`, `{ ...process.env }`, `Object.assign({}, process.env)`, Bun's and Deno's. */
const WHOLE_ENV = /^(?:process\.env(?:\s*\|\|\s*\{\s*\})?|\{\s*\.\.\.\s*(?:process|Bun)\.env\s*\}|Object\.assign\(\s*\{\s*\}\s*,\s*process\.env\s*\)|Deno\.env\.toObject\(\s*\)|Bun\.env)$/;

/** A function that returns the whole environment or a copy of it (in any of its return statements, or as its arrow's body). */
function returnsEnv(fn: AnyNode, code: string): boolean {
  const body = fn['body'] as AnyNode;
  if (body.type !== 'BlockStatement') return WHOLE_ENV.test(src(code, body as unknown as acorn.Node).trim());
  let found = false;
  walk.simple(body as unknown as acorn.Node, {
    ReturnStatement(r) {
      const arg = node(r)['argument'] as acorn.Node | null | undefined;
      if (arg !== null && arg !== undefined && WHOLE_ENV.test(src(code, arg).trim())) found = true;
    },
  });
  return found;
}

export function jsEnvSerialise({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const hits: DetectorHit[] = [];
  // names holding the whole environment or a copy of it (`var data = process.env || {}`, `const e = { ...process.env }`),
  // and the file's functions that return it (`async function env() { ... return { ...process.env }; }`)
  const envNames = new Set<string>();
  const envFns = new Set<string>();
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'VariableDeclarator' && a['init'] && node(a['id'] as acorn.Node).type === 'Identifier' && WHOLE_ENV.test(src(code, a['init'] as acorn.Node).trim())) envNames.add(String(node(a['id'] as acorn.Node)['name']));
  });
  for (const { name, fn } of namedFunctions(ast, Number.POSITIVE_INFINITY)) if (returnsEnv(fn, code)) envFns.add(name);
  const fetchers = fileFetchers(code, ast, (t) => JS_NET_TEXT.test(t) || HTTP_REQUEST_TEXT.test(t));
  const envCall = (t: string): boolean => {
    const m = /^(?:await\s+)?([A-Za-z_$][\w$]*)\s*\(\s*\)$/.exec(t);
    return m !== null && envFns.has(m[1] ?? '');
  };
  walk.full(ast, (n) => {
    if (n.type !== 'CallExpression') return;
    const name = calleeName(node(n));
    // a fetch, or a function of the file's own that fetches, is handed its body: an `env` in it is data, not a child's environment
    const sends = fetchers.has(name) || JS_NET_CALLEE.test(name);
    if (!sends && !/(?:stringify|encode|send|write|post|request|push|from|btoa|entries|keys|values|end|emit)$/i.test(name)) return;
    const args = (node(n)['arguments'] as acorn.Node[]) ?? [];
    const whole = args.some((a) => {
      const t = src(code, a).replace(/\bprocess\s*\[\s*(['"`])env\1\s*\]/g, 'process.env');
      if (/^process\.env$/.test(t) || (/stringify$/i.test(name) && (/\bprocess\.env\b(?!\s*(?:\.|\[|\?\.))|\bDeno\.env\.toObject\s*\(\s*\)|\bBun\.env\b(?!\s*(?:\.|\[|\?\.))/.test(t) || envNames.has(t.trim()) || envCall(t.trim())))) return true;
      // an object sent with the whole environment as one of its values (`push({ message: process.env })`); an `env`
      // option is how a child process is given the environment, not a message
      return node(a).type === 'ObjectExpression' && ((node(a)['properties'] as AnyNode[]) ?? []).some((p) => {
        if (p.type !== 'Property') return false;
        const key = node(p['key'] as acorn.Node);
        const keyName = key.type === 'Identifier' ? String(key['name']) : String(key['value'] ?? '');
        const value = src(code, p['value'] as acorn.Node).trim();
        return (keyName !== 'env' || sends) && (/^process(?:\.env|\s*\[\s*(['"`])env\1\s*\])$/.test(value) || envCall(value));
      });
    });
    if (whole) hits.push({ offset: n.start, text: src(code, n) });
  });
  return hits;
}

/**
 * A record of the host that holds the whole environment or a copy of it among its machine details (`{ server_name:
 * os.hostname(), user: os.userInfo().username, env: Object.assign({}, process.env) }`): a crash report or beacon of
 * the machine with every secret it was given. A child process's options carry the environment, not the machine's
 * name or user.
 */
export function jsEnvHostRecord({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    if (n.type !== 'ObjectExpression' || hits.length >= 20) return;
    const values = ((node(n)['properties'] as AnyNode[]) ?? []).filter((p) => p.type === 'Property').map((p) => src(code, p['value'] as acorn.Node).trim());
    const copy = values.some((v) => WHOLE_ENV.test(v));
    if (copy && values.some((v) => HOST_RECORD.test(v))) hits.push({ offset: n.start, text: src(code, n).slice(0, 200) });
  });
  return hits;
}

/** A machine detail as a record's value: its name, its user, its addresses. */
const HOST_RECORD = /^(?:os\.)?(?:hostname|userInfo|networkInterfaces)\s*\(\s*\)(?:\.\w+)?$/;

export function jsDynamicRequire({ code, ast }: DetectorInput): DetectorHit[] {
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
/** A credential's field (`access.password`, `opts.privateKey`): a secret turned into labels is sent to whoever serves the zone. */
const CREDENTIAL_FIELD = /\.(?:password|passwd|passphrase|secret|token|privateKey|apiKey|accessToken)\b/;
/** An object serialised whole: its text turned into labels is everything the object holds. */
const SERIALISED = /\bJSON\.stringify\s*\(/;
/** A name given a resolver of its own (`const r = new dns.promises.Resolver({...})`): its lookups are the dns module's. */
const RESOLVER_NAME = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]{0,60})\s*=\s*new\s+(?:[\w$]{1,40}\.){0,3}Resolver\s*\(/g;
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

/** A text with what the given names are given in the file (`defs`) appended, followed `steps` steps back. */
export function withDefinitions(text: string, names: readonly string[], defs: ReadonlyMap<string, string[]>, steps: number): string {
  let out = text;
  const seen = new Set<string>();
  let frontier = [...names];
  for (let depth = 0; depth < steps && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      for (const d of defs.get(id) ?? []) {
        out += `\n${d}`;
        for (const m of d.matchAll(/[A-Za-z_$][\w$]*/g)) next.push(m[0]);
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The hostname argument's text with what its names are given, followed four steps back through the file (the name,
 * its chunks, the encoded text, the record encoded).
 */
function dataFlowText(arg: acorn.Node, code: string, defs: Map<string, string[]>): string {
  return withDefinitions(src(code, arg), identifiersIn(arg), defs, 4);
}

/** The name a function is known by in its file: its declaration's, or the name it is assigned to. */
function functionName(fn: acorn.Node, ancestors: acorn.Node[]): string | undefined {
  const f = node(fn);
  if (f['id']) return String((f['id'] as AnyNode)['name']);
  const parent = node(ancestors[ancestors.indexOf(fn) - 1] ?? fn);
  if (parent.type === 'VariableDeclarator' && (parent['id'] as AnyNode).type === 'Identifier') return String((parent['id'] as AnyNode)['name']);
  if (parent.type === 'AssignmentExpression' && (parent['left'] as AnyNode).type === 'Identifier') return String((parent['left'] as AnyNode)['name']);
  return undefined;
}

/** The arguments of the first calls of a named function in a file (at most eight). */
function callArguments(ast: acorn.Node, name: string | undefined): acorn.Node[] {
  if (name === undefined) return [];
  const out: acorn.Node[] = [];
  walk.full(ast, (n) => {
    if (out.length >= 8 || n.type !== 'CallExpression' || calleeName(node(n)) !== name) return;
    out.push(...((node(n)['arguments'] as acorn.Node[]) ?? []).slice(0, 8 - out.length));
  });
  return out;
}

/**
 * DNS exfiltration: a resolver call whose hostname is built at run time from host data (environment, files, machine
 * identity, command output) encoded into a label (hex, base32/64). A lookup of a computed name (a configured host, a
 * service record, a name from a URL) is ordinary networking.
 */
export function jsDnsExfil({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  let defs: Map<string, string[]> | null = null;
  let resolvers: Set<string> | null = null;
  const hits: DetectorHit[] = [];
  walk.ancestor(ast, { CallExpression(n: acorn.Node, _state: unknown, ancestors: acorn.Node[]) {
    // a lookup method of the dns module (`dns`, `dns.promises`, `require('dns')`) or of a Resolver (a name given `new
    // dns.Resolver()` too): not a method of
    // `this` or of another object that happens to be called resolve or lookup (a path or a cache), nor any method of
    // a name that starts with dns (`dnsResources.hasOwnProperty`)
    const name = calleeName(node(n));
    const callee = node(n)['callee'] as AnyNode | undefined;
    const object = callee?.type === 'MemberExpression' ? (callee['object'] as acorn.Node) : undefined;
    resolvers ??= new Set([...code.matchAll(RESOLVER_NAME)].map((m) => m[1] ?? '').filter((x) => x !== ''));
    const dnsObject = /^(?:dns|dnsPromises|promises|\w*[Rr]esolver)\./.test(name) || resolvers.has(name.split('.')[0] ?? '') || (object !== undefined && /^require\s*\(\s*['"`](?:node:)?dns(?:\/promises)?['"`]\s*\)$/.test(src(code, object)));
    // the dns module's own methods (`resolve`, `resolve4` ... `resolveTxt`): a module resolver's `resolveSync` or
    // `resolveFileSync` (enhanced-resolve, oxc-resolver in a bundler's chunk) looks up files, not names
    if (!dnsObject || !/\.(?:lookup|lookupService|resolve(?:4|6|Any|Caa|Cname|Mx|Naptr|Ns|Ptr|Soa|Srv|Tlsa|Txt)?|reverse)$/.test(name)) return;
    const arg = ((node(n)['arguments'] as AnyNode[]) ?? [])[0];
    if (!arg || arg.type === 'Literal') return;
    defs ??= definitions(ast, code);
    // a name the file never assigns is a parameter (`chunks.forEach((chunk) => dns.resolve(chunk + suffix))`): its
    // data comes through the enclosing functions, so the outermost one's text is followed too
    const known = defs;
    const unresolved = identifiersIn(arg).some((id) => !known.has(id));
    const fn = unresolved ? ancestors.find((a) => /Function/.test(a.type)) : undefined;
    // a callback's parameters are what the method it was handed goes over (`chunks.forEach((c, i) => ...)`): the
    // receiver's data is followed too
    const receivers = fn === undefined ? [] : ancestors.filter((a, i) => a.type === 'CallExpression' && ancestors[i + 1] !== undefined && /Function/.test(ancestors[i + 1]!.type) && (node(a)['callee'] as AnyNode | undefined)?.type === 'MemberExpression');
    // a function handed the data (`function send(buf) {...}` called as `send(deflate(gather()))`): what its callers in
    // this file pass is followed too
    const callers = fn === undefined ? [] : callArguments(ast, functionName(fn, ancestors));
    const flow = [fn ?? arg, ...receivers.map((c) => (node(c)['callee'] as AnyNode)['object'] as acorn.Node), ...callers].map((x) => dataFlowText(x, code, known)).join('\n');
    // encoded host data, a credential's fields, or an encoded serialised object (what a caller collected, handed in: a
    // stealer split into a collecting module and a sending one)
    if (LABEL_ENCODE.test(flow) && (HOST_DATA.test(flow) || SERIALISED.test(flow) || CREDENTIAL_FIELD.test(flow))) hits.push({ offset: n.start, text: src(code, n) });
  } });
  return hits;
}

/** Node's modules whose functions run processes, name the host or open connections (an alternation of names). */
export const SENSITIVE_MODULES = 'child_process|os|https?|net|dns|http2|tls|dgram';
const SENSITIVE_MODULE = new RegExp(`^(?:node:)?(?:${SENSITIVE_MODULES})$`);
/** `require('<sensitive module>')[` : a module indexed where it is required. */
const SENSITIVE_REQUIRE_INDEXED = new RegExp(`require\\s*\\(\\s*['"\`](?:node:)?(?:${SENSITIVE_MODULES})['"\`]\\s*\\)\\s*\\[`);
/** A key text that only exists to hide a name: a decoder, char codes, an escaped literal, a reflective search. */
const HIDING_KEY = /Buffer\.from\s*\(|String\.fromCharCode\s*\(|\batob\s*\(|\bunescape\s*\(|\\x[0-9a-f]{2}|\\u[0-9a-f{]|\.reverse\s*\(|Object\.(?:keys|getOwnPropertyNames|entries)\s*\(/i;

/**
 * A function of a process, host or network module of Node reached through a hidden name: `cp['sp' + 'awn']`,
 * `os[Buffer.from('aG9zdG5hbWU=', 'base64').toString()]`, `cp["\x65\x78\x65\x63"]`, a constant holding the name
 * (`const m = 'exec'; cp[m]`), `Reflect.get(cp, ...)`, `Object.getOwnPropertyDescriptor(os, ...)`, or a search of the
 * module's own keys (`Object.entries(cp).find(...)`). A plain literal key (`http['request']`) hides nothing from a
 * reader, and a key that varies (a loop over method names, a parameter) is how instrumentation wraps these modules.
 */
export function jsHiddenBuiltinMember({ code, ast }: DetectorInput): DetectorHit[] {
  if (!ast) return [];
  const modules = new Set<string>();
  const isModuleRequire = (n: AnyNode | undefined): boolean => {
    if (n?.type !== 'CallExpression' || calleeName(n) !== 'require') return false;
    const a = ((n['arguments'] as AnyNode[]) ?? [])[0];
    return a?.type === 'Literal' && typeof a['value'] === 'string' && SENSITIVE_MODULE.test(a['value']);
  };
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'VariableDeclarator' && node(a['id'] as acorn.Node).type === 'Identifier' && isModuleRequire(a['init'] as AnyNode | undefined)) modules.add(String(node(a['id'] as acorn.Node)['name']));
    if (n.type === 'ImportDeclaration' && typeof node(a['source'] as acorn.Node)['value'] === 'string' && SENSITIVE_MODULE.test(String(node(a['source'] as acorn.Node)['value']))) {
      for (const sp of (a['specifiers'] as AnyNode[]) ?? []) if (sp.type !== 'ImportSpecifier') modules.add(String(node(sp['local'] as acorn.Node)['name']));
    }
  });
  if (modules.size === 0 && !SENSITIVE_REQUIRE_INDEXED.test(code)) return [];
  const defs = definitions(ast, code);
  // a bundle reuses one-letter names in every function: a name given anything besides the module is not the module
  for (const name of [...modules]) if ((defs.get(name) ?? []).length !== 1) modules.delete(name);
  const isModule = (n: AnyNode | undefined): boolean => n !== undefined && ((n.type === 'Identifier' && modules.has(String(n['name']))) || isModuleRequire(n));
  /** A name whose every definition is one string literal: a constant standing for the function's name. */
  const constantName = (id: string): boolean => {
    const d = defs.get(id) ?? [];
    return d.length > 0 && d.every((t) => /^(['"`])[A-Za-z]\w*\1$/.test(t.trim()));
  };
  /** A string built by `+` from at least one string literal (`'sp' + 'awn'`), not arithmetic (`list.length - 1`). */
  const concatenated = (k: AnyNode): boolean => {
    if (k.type === 'Literal') return typeof k['value'] === 'string';
    if (k.type === 'TemplateLiteral') return true;
    return k.type === 'BinaryExpression' && k['operator'] === '+' && (concatenated(k['left'] as AnyNode) || concatenated(k['right'] as AnyNode));
  };
  const hits: DetectorHit[] = [];
  walk.full(ast, (n) => {
    const a = node(n);
    if (n.type === 'MemberExpression' && a['computed'] === true && isModule(a['object'] as AnyNode)) {
      const key = a['property'] as AnyNode;
      const raw = src(code, key);
      // a method name computed from a variable (`http[method.toLowerCase()]`) is dispatch, not hiding
      const hidden =
        (key.type === 'Literal' && /\\[xu]/.test(raw)) ||
        (key.type === 'BinaryExpression' && concatenated(key)) ||
        (key.type === 'TemplateLiteral' && ((key['expressions'] as unknown[]) ?? []).length > 0 && ((key['quasis'] as AnyNode[]) ?? []).some((q) => ((q['value'] as { raw?: string } | undefined)?.raw ?? '') !== '')) ||
        (key.type === 'Identifier' && constantName(String(key['name']))) ||
        HIDING_KEY.test(raw);
      if (hidden) hits.push({ offset: n.start, text: src(code, n) });
      return;
    }
    if (n.type !== 'CallExpression') return;
    const name = calleeName(a);
    const first = ((a['arguments'] as AnyNode[]) ?? [])[0];
    if (/^(?:Reflect\.get|Object\.getOwnPropertyDescriptor)$/.test(name) && isModule(first)) hits.push({ offset: n.start, text: src(code, n) });
    // Object.entries(cp).find(([k]) => k === 'spawn'): the module's own keys searched for a name
    const callee = a['callee'] as AnyNode | undefined;
    if (callee?.type === 'MemberExpression' && /\.(?:find|filter)$/.test(name)) {
      const inner = callee['object'] as AnyNode;
      if (inner.type === 'CallExpression' && /^Object\.(?:entries|keys|getOwnPropertyNames)$/.test(calleeName(inner)) && isModule(((inner['arguments'] as AnyNode[]) ?? [])[0]) && !hits.some((h) => h.offset <= n.start && n.start < h.offset + h.text.length)) hits.push({ offset: n.start, text: src(code, n) });
    }
  });
  return hits;
}
