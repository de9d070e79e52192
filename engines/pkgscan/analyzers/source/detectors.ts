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
  js_detached_spawn: jsDetachedSpawn,
  js_env_serialise: jsEnvSerialise,
  js_dynamic_require: jsDynamicRequire,
  js_dns_exfil: jsDnsExfil,
  py_exec_decoded: pyExecDecoded,
  py_cmdclass_install: pyCmdclassInstall,
  pth_executable: pthExecutable,
  npm_hook_ordinary: npmHook('ordinary'),
  npm_hook_code: npmHook('package_code'),
  npm_hook_shell: npmHook('shell'),
};

/** A cheap test on the raw text before a detector needs the parse: a file without it cannot give a hit. */
export const DETECTOR_PRECHECK: Readonly<Record<DetectorName, RegExp>> = {
  js_eval_decoded: /\beval\b|\bFunction\b|runIn\w*Context|compileFunction|\bScript\b/,
  js_detached_spawn: /\bdetached\b|\bwindowsHide\b/,
  js_env_serialise: /process\.env/,
  js_dynamic_require: /\brequire\s*\(/,
  js_dns_exfil: /\bdns\b|[Rr]esolver/,
  py_exec_decoded: /./,
  py_cmdclass_install: /./,
  pth_executable: /./,
  npm_hook_ordinary: /./,
  npm_hook_code: /./,
  npm_hook_shell: /./,
};
