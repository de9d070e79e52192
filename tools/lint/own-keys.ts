// Writes and `in` tests that would let a key read from evidence reach Object.prototype.
//
// A plain object inherits `__proto__`, `constructor`, `toString` and the other Object.prototype members. With a key
// taken from evidence or a request, `obj[key] = v` sets the prototype when the key is `__proto__` (the value is lost,
// or an object value becomes what every missing key is looked up in), `(counts[key] ?? 0) + 1` is a text for
// `constructor`, and `key in obj` is true for `toString`. Such objects are written with `setOwn` and read with
// `ownEntry` (engines/core/own.ts), or are Maps. This check finds, with the TypeScript checker, every place the
// product code still writes or tests such a key on such an object, and compares them with the committed allow-list
// (own-keys.allow.json), where each remaining place says why its key cannot come from evidence.
//
// Reported: an element access `o[k]` that is written (`=`, a compound assignment, `++`/`--`, a destructuring or
// for-in/of target) and `k in o`, when
//   - for a write, o's type (without null/undefined) has a string index signature (`Record<string, T>`,
//     `{ [k: string]: T }`) and is no array or tuple (typed arrays and Maps have no string index), or is `any`; for
//     `in`, o is anything but an array or tuple (a table of fixed keys answers true for `toString` as well);
//   - k's type admits an Object.prototype member name: `string`, a branded string, `any`/`unknown`, a template literal
//     type such as `${string}` that one of the names matches. A string literal or a union of literals, a number, a
//     symbol or a template literal with a fixed part none of the names have is not open.
// Not reported, safe by construction: an object held by a `const` initialised with `Object.create(null)` (no prototype
// to reach), and `delete o[k]` (deleting a missing own key leaves the inherited member alone). Reads `o[k]` are not
// checked here (lookup tables go through `ownEntry`; a read cannot change the object).
//
// bin/ holds untyped launchers: there every written element access and `in` with a non-literal key is reported.
//
// Run `node --import tsx tools/lint/own-keys.ts` to list what is not allowed (and stale entries); `--entries` prints
// the unlisted places as allow-list entries with an empty reason to fill in.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Finding {
  /** Path from the repository root, with `/`. */
  readonly file: string;
  /** The enclosing named declarations from the outside in (`Class.method`, `outer.inner`), or `(top level)`. */
  readonly function: string;
  /** `o[k] =`, `o[k] ??=`, `o[k]++`, `k in o`... with runs of white space as one space. */
  readonly expression: string;
  /** 1-based line, for the message only: entries never name it. */
  readonly line: number;
}

export interface AllowEntry {
  readonly file: string;
  readonly function: string;
  readonly expression: string;
  readonly reason: string;
}

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const ALLOW_FILE = join(ROOT, 'tools/lint/own-keys.allow.json');

/** The names a plain object inherits (`__proto__`, `constructor`, `toString`, `hasOwnProperty`...). */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Test sources, fixtures and test data compiled alongside the product: not product code. */
export function isProductSource(file: string): boolean {
  return !/\.test\.tsx?$|\.fixture\.ts$|(^|\/)testutil[^/]*\.tsx?$|\/testdata\/|\.d\.ts$/.test(file);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function strip(e: ts.Expression): ts.Expression {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isNonNullExpression(x) || ts.isSatisfiesExpression(x) || ts.isTypeAssertionExpression(x)) x = x.expression;
  return x;
}

/** The enclosing named declarations of `node`, outermost first. */
export function anchorOf(node: ts.Node): string {
  const names: string[] = [];
  let child: ts.Node = node;
  for (let p = node.parent; p !== undefined; child = p, p = p.parent) {
    if ((ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isClassExpression(p) || ts.isFunctionExpression(p)) && p.name !== undefined) names.push(p.name.text);
    else if ((ts.isMethodDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isPropertyDeclaration(p)) && !ts.isComputedPropertyName(p.name)) names.push(p.name.getText());
    else if (ts.isConstructorDeclaration(p)) names.push('constructor');
    else if (ts.isVariableDeclaration(p) && p.initializer === child && ts.isIdentifier(p.name)) names.push(p.name.text);
    else if (ts.isPropertyAssignment(p) && p.initializer === child && !ts.isComputedPropertyName(p.name)) names.push(p.name.getText());
  }
  return names.length === 0 ? '(top level)' : names.reverse().join('.');
}

const isAssignmentOperator = (k: ts.SyntaxKind): boolean => k >= ts.SyntaxKind.FirstAssignment && k <= ts.SyntaxKind.LastAssignment;

/** How `node` is written, as the text that follows it in an entry (`=`, `??=`, `++`...), or undefined when it is only read. */
function writeOf(node: ts.Expression): string | undefined {
  let n: ts.Node = node;
  while (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent)) n = n.parent;
  const p = n.parent;
  if (ts.isBinaryExpression(p) && p.left === n && isAssignmentOperator(p.operatorToken.kind)) return p.operatorToken.getText();
  if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken)) {
    return ts.tokenToString(p.operator);
  }
  if ((ts.isForInStatement(p) || ts.isForOfStatement(p)) && p.initializer === n) return ts.isForInStatement(p) ? '(for-in target)' : '(for-of target)';
  if (isDestructuringTarget(n)) return '(destructuring target)';
  return undefined;
}

/** `n` sits in an array or object literal that is the left side of an assignment or a for-in/of target. */
function isDestructuringTarget(n: ts.Node): boolean {
  let x = n;
  let inPattern = false;
  for (;;) {
    const p = x.parent;
    if (ts.isArrayLiteralExpression(p) || ts.isObjectLiteralExpression(p)) inPattern = true;
    else if (!(ts.isSpreadElement(p) || ts.isSpreadAssignment(p) || ts.isParenthesizedExpression(p) || (ts.isPropertyAssignment(p) && p.initializer === x))) break;
    x = p;
  }
  const p = x.parent;
  if (!inPattern) return false;
  if (ts.isBinaryExpression(p)) return p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.left === x;
  return (ts.isForInStatement(p) || ts.isForOfStatement(p)) && p.initializer === x;
}

/** The places in one type-checked program (its product sources only) that write or test an open key on a plain object. */
export function findInProgram(program: ts.Program, root: string, wanted: (file: string) => boolean = isProductSource): Finding[] {
  const tc = program.getTypeChecker();
  const out: Finding[] = [];

  const keyIsOpen = (t: ts.Type, depth = 0): boolean => {
    if (depth > 8) return true;
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    if (t.isUnion()) return t.types.some((u) => keyIsOpen(u, depth + 1));
    // A branded string (`string & { brand }`) is still any text.
    if (t.isIntersection()) return t.types.some((u) => keyIsOpen(u, depth + 1));
    if (t.flags & (ts.TypeFlags.TypeParameter | ts.TypeFlags.Index | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Conditional | ts.TypeFlags.Substitution)) {
      const c = tc.getBaseConstraintOfType(t);
      return c === undefined || c === t ? true : keyIsOpen(c, depth + 1);
    }
    if (t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.ESSymbolLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Never | ts.TypeFlags.Object)) {
      return false;
    }
    return PROTOTYPE_NAMES.some((name) => tc.isTypeAssignableTo(tc.getStringLiteralType(name), t));
  };

  const objectIsPlainIndexed = (t0: ts.Type, depth = 0): boolean => {
    if (depth > 8) return false;
    if (t0.flags & ts.TypeFlags.Any) return true;
    let t = tc.getNonNullableType(t0);
    if (t.flags & ts.TypeFlags.TypeParameter) t = tc.getBaseConstraintOfType(t) ?? t;
    if (t.isUnion()) return t.types.some((u) => objectIsPlainIndexed(u, depth + 1));
    if (tc.isArrayType(t) || tc.isTupleType(t)) return false;
    return tc.getIndexInfoOfType(t, ts.IndexKind.String) !== undefined;
  };

  // `k in o` is true for an inherited name on any plain object, a table of fixed keys included: only arrays are let be.
  const objectIsNotArray = (t0: ts.Type, depth = 0): boolean => {
    if (depth > 8) return true;
    const t = tc.getNonNullableType(t0);
    if (t.isUnion()) return t.types.some((u) => objectIsNotArray(u, depth + 1));
    return !(tc.isArrayType(t) || tc.isTupleType(t));
  };

  /** `const x = Object.create(null)`: x has no prototype, so no key of it reaches one. */
  const isNullPrototypeConst = (e: ts.Expression): boolean => {
    const x = strip(e);
    if (!ts.isIdentifier(x)) return false;
    const decl = tc.getSymbolAtLocation(x)?.valueDeclaration;
    if (decl === undefined || !ts.isVariableDeclaration(decl) || decl.initializer === undefined) return false;
    if (!ts.isVariableDeclarationList(decl.parent) || (decl.parent.flags & ts.NodeFlags.Const) === 0) return false;
    const init = strip(decl.initializer);
    return (
      ts.isCallExpression(init) &&
      init.arguments.length === 1 &&
      init.arguments[0]!.kind === ts.SyntaxKind.NullKeyword &&
      ts.isPropertyAccessExpression(init.expression) &&
      init.expression.name.text === 'create' &&
      ts.isIdentifier(init.expression.expression) &&
      init.expression.expression.text === 'Object'
    );
  };

  const flagged = (object: ts.Expression, key: ts.Expression, test: boolean): boolean =>
    keyIsOpen(tc.getTypeAtLocation(key)) &&
    (test ? objectIsNotArray : objectIsPlainIndexed)(tc.getTypeAtLocation(object)) &&
    !isNullPrototypeConst(object);

  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || program.isSourceFileFromExternalLibrary(sf)) continue;
    const file = relative(root, sf.fileName).split(sep).join('/');
    if (file.startsWith('..') || file.includes('node_modules/') || !wanted(file)) continue;
    out.push(
      ...scanKeyUses(
        sf,
        file,
        (n) => flagged(n.expression, n.argumentExpression, false),
        (n) => flagged(n.right, n.left, true),
      ),
    );
  }
  return out;
}

/** bin/ launchers are untyped JavaScript: every written element access and `in` with a key that is not a literal. */
export function findInUntyped(file: string, text: string): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const literal = (e: ts.Expression): boolean => ts.isStringLiteral(e) || ts.isNumericLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e);
  return scanKeyUses(
    sf,
    file,
    (n) => !literal(n.argumentExpression),
    (n) => !literal(n.left),
  );
}

/**
 * Every written element access (`o[k] = ...`, compound, `++`, destructuring targets) and every `k in o` of `sf` that
 * the caller's test flags, as findings: one walk and one wording for the typed and the untyped check.
 */
function scanKeyUses(
  sf: ts.SourceFile,
  file: string,
  writeFlagged: (n: ts.ElementAccessExpression) => boolean,
  inFlagged: (n: ts.BinaryExpression) => boolean,
): Finding[] {
  const out: Finding[] = [];
  const report = (node: ts.Node, expression: string): void => {
    out.push({ file, function: anchorOf(node), expression: collapse(expression), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isElementAccessExpression(n)) {
      const how = writeOf(n);
      if (how !== undefined && writeFlagged(n)) report(n, how === '++' || how === '--' ? `${n.getText(sf)}${how}` : `${n.getText(sf)} ${how}`);
    } else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword && !ts.isPrivateIdentifier(n.left)) {
      if (inFlagged(n)) report(n, n.getText(sf));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function programOf(configPath: string): ts.Program {
  const configHost: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, configHost);
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  const files = config.fileNames.filter((f) => isProductSource(relative(ROOT, f).split(sep).join('/')));
  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  // JSDoc gives no types in TypeScript sources: left unparsed, the programs take a tenth or so less CPU, same findings.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseNone;
  return ts.createProgram({ rootNames: files, options, host });
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Every finding in the product code: engines/, main/, preload/ (tsconfig.json), renderer/ (its tsconfig) and bin/.
 * It gives the event loop a turn between the long synchronous steps (a test worker answers its runner meanwhile).
 */
export async function findInProduct(root = ROOT): Promise<Finding[]> {
  const nodeProgram = programOf(join(root, 'tsconfig.json'));
  await turn();
  const node = findInProgram(nodeProgram, root);
  await turn();
  // The renderer's program also compiles engines/core/contracts/, already seen by the first program.
  const rendererProgram = programOf(join(root, 'renderer/tsconfig.json'));
  await turn();
  const renderer = findInProgram(rendererProgram, root, (f) => f.startsWith('renderer/') && isProductSource(f));
  const bin = readdirSync(join(root, 'bin')).flatMap((name) => findInUntyped(`bin/${name}`, readFileSync(join(root, 'bin', name), 'utf8')));
  return [...node, ...renderer, ...bin];
}

export function readAllowList(path = ALLOW_FILE): AllowEntry[] {
  return JSON.parse(readFileSync(path, 'utf8')) as AllowEntry[];
}

const keyOf = (e: { file: string; function: string; expression: string }): string => `${e.file}\u0000${e.function}\u0000${e.expression}`;

export interface Comparison {
  /** Findings no entry allows. */
  readonly unlisted: readonly Finding[];
  /** Entries that match no finding. */
  readonly stale: readonly AllowEntry[];
  /** Entries that are listed twice or give no reason. */
  readonly malformed: readonly AllowEntry[];
}

/** An entry allows every finding with its file, function and expression (the same text twice in one function). */
export function compare(findings: readonly Finding[], allow: readonly AllowEntry[]): Comparison {
  const found = new Set(findings.map(keyOf));
  const listed = new Set<string>();
  const malformed: AllowEntry[] = [];
  for (const e of allow) {
    const k = keyOf(e);
    if (listed.has(k) || typeof e.reason !== 'string' || e.reason.trim() === '') malformed.push(e);
    listed.add(k);
  }
  return {
    unlisted: findings.filter((f) => !listed.has(keyOf(f))),
    stale: allow.filter((e) => !found.has(keyOf(e))),
    malformed,
  };
}

export function describeFinding(f: Finding): string {
  return `${f.file}:${f.line} in ${f.function}: ${f.expression}`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = Date.now();
  const findings = await findInProduct();
  const { unlisted, stale, malformed } = compare(findings, readAllowList());
  if (process.argv.includes('--entries')) {
    const seen = new Set<string>();
    const entries = unlisted.filter((f) => !seen.has(keyOf(f)) && seen.add(keyOf(f))).map((f) => ({ file: f.file, function: f.function, expression: f.expression, reason: '' }));
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  } else {
    for (const f of unlisted) process.stdout.write(`not allowed: ${describeFinding(f)}\n`);
    for (const e of stale) process.stdout.write(`stale entry: ${e.file} in ${e.function}: ${e.expression}\n`);
    for (const e of malformed) process.stdout.write(`duplicate or reasonless entry: ${e.file} in ${e.function}: ${e.expression}\n`);
    process.stdout.write(`${findings.length} places, ${unlisted.length} not allowed, ${stale.length} stale entries (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  }
  process.exitCode = unlisted.length + stale.length + malformed.length === 0 ? 0 : 1;
}
