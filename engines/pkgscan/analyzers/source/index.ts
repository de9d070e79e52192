// The source-code analyzer: applies the YAML rules (resources/pkgscan/rules/) and their structural detectors to a release's JavaScript, Python, shell, .pth, native (C family, Rust, Go), YAML and saved-object files and to its npm install hooks, then joins capabilities and threats into attack chains.
import { LineIndex } from '../../../core/manifests/context.js';
import type { PackageRelease } from '../../package/types.js';
import { SEVERITY_RANK as RANK } from '../../vocabulary.js';
import { buildChains, LINKED_FLOW, type ChainInput } from '../chains.js';
import { ATTACK_CHAIN_CODE } from '../chains.js';
import type { Analyzer, AnalyzerContext, AnalyzerOutput, AttackChain, ScanFinding, Severity } from '../types.js';
import { aliasedView, compiledCallEdits, rewrittenView, type AliasedView, sinkAliasEdits } from './aliases.js';
import { assembledAddresses, turnedLiteralEdits, xoredLiterals } from './assembled.js';
import { pythonHelperTexts } from './python-helpers.js';
import { pythonIndirectionEdits } from './py-indirection.js';
import { folderOpenCommands, TASKS_FILE } from './editor-tasks.js';
import { COPIER_FILE, copierTaskCommands } from './generator-tasks.js';
import { runsAtImport, usesAtImport } from './import-time.js';
import { argvEdits } from './argv.js';
import { builtinsAliasEdits, moduleAliasEdits } from './builtins.js';
import { codeInTable, decodedLiteralEdits, decodedNameEdits, decodedTexts, lambdaInData, pickleInData } from './decoded.js';
import { DETECTOR_FUNCTIONS, DETECTOR_PRECHECK, normaliseDependency, type DetectorHit } from './detectors.js';
import { foldGluedLiterals } from './glue.js';
import { directImports, importTimeFiles, installTimeFiles, loadedAsideFiles, MAKEFILE, npmHooks, prepareTargets, textOf, type HookCommand } from './hooks.js';
import { loadRules, type CompiledRule } from './rules.js';
import { decoderHelperEdits, stringTableEdits } from './tables.js';
import { boundMatch, languageOf, MAX_SCAN_BYTES, nativeCode, notebookCells, pythonCode, readJs, shebangLanguage, sourceInCompiledName, templateLanguage, type JsSource, type SourceLanguage } from './text.js';

export const SOURCE_ANALYZER = 'source-rules';
export const SOURCE_ANALYZER_VERSION = '1.1.0';

/** Matches of one pattern counted in one file (bounds the work on a pathological file). */
const MAX_MATCHES_PER_PATTERN = 2000;

/** One unit the rules read: a package file, or the text of an install hook. */
interface Unit {
  readonly file: string;
  readonly language: SourceLanguage;
  readonly text: string;
  readonly installTime: boolean;
  /** Runs when the package is imported (hooks.ts importTimeFiles). */
  readonly importTime?: boolean;
  /** Added to the unit's line numbers (inline hook code sits on a package.json line). */
  readonly lineBase: number;
  /** Hook command units: the hook analysis. */
  readonly hook?: HookCommand;
  /** A test, example or documentation file: one severity lower, and no chains (GuardDog leaves tests out too). */
  readonly auxiliary: boolean;
  /** Text hidden in a literal of the file, decoded (`decoded` in the finding's title). */
  readonly decoded?: boolean;
  /** Lines around glued string literals, joined (`glued:` before the match). */
  readonly glued?: boolean;
  /** The file with Node's modules under their own names (aliases.ts): rules' patterns only, no detectors or decoding. */
  readonly aliased?: boolean;
  /** The file's second reading (tabledHits): string tables read back, Python's builtins and modules under their own names, encoded literals decoded in place, argument lists as command lines. */
  readonly tabled?: boolean;
  /** Where the unit's text starts in its file (a window of lines). */
  readonly offsetBase?: number;
  /** The package's files loaded on import (JavaScript and Python), shared by its import-time units. */
  readonly importPeers?: readonly ImportPeer[];
}

/** A package file loaded on import, as another file's question of what runs on import reads it. */
interface ImportPeer {
  readonly file: string;
  readonly language: 'javascript' | 'python';
  readonly text: string;
  /** Its text as the rules read it (comments blanked), made when first asked for. */
  code?: string;
}

/** The most other files read, and how many files deep, to tell whether a name is used where it runs on import. */
const MAX_PEERS = 30;
const MAX_PEER_DEPTH = 3;

/**
 * Whether the package's other files loaded on import use `name` where it runs then (a call of a function of this
 * file, `_compat.ensure_runtime()` in `__init__.py`); '' asks whether another file loads this one at all (it may call
 * what the file exports as a whole). True when unsure: too many files, or too many files deep.
 */
function usedOnImportElsewhere(file: string, language: 'javascript' | 'python', peers: readonly ImportPeer[], name: string, depth: number, asked = new Set<string>()): boolean {
  const others = peers.filter((p) => p.file !== file && p.language === language);
  // a name asked again on the way (sibling modules defining the same names) adds nothing
  const question = `${file}\0${name}`;
  if (asked.has(question)) return false;
  asked.add(question);
  if (others.length > MAX_PEERS || depth >= MAX_PEER_DEPTH) return others.length > 0;
  if (name === '') {
    const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.(?:[cm]?[jt]sx?|py)$/, '');
    return others.some((p) => p.text.includes(stem));
  }
  return others.some((p) => {
    const code = (p.code ??= language === 'python' ? pythonCode(p.text) : readJs(p.text).code);
    return code.includes(name) && usesAtImport(code, name, language, (n) => usedOnImportElsewhere(p.file, language, peers, n, depth + 1, asked));
  });
}

/** Folders of tests, examples, docs and benchmarks, and Python test modules (`test_x.py`, `x_test.py`, Django's `tests.py`): not run on install or import unless an install-time file, npm's `prepare` script or the package's own code loads them. */
const AUXILIARY = /(?:^|\/)(?:tests?|testing|__tests__|spec|specs|examples?|docs?|benchmarks?|bench|fixtures?|dev)\/|(?:^|\/)(?:test_[^/]*|[^/]*_test|tests?|conftest)\.py$|\.(?:test|spec)\.[cm]?[jt]sx?$/i;
const LOWER: Readonly<Record<Severity, Severity>> = { info: 'info', low: 'info', medium: 'low', high: 'medium', critical: 'high' };

/** The texts hidden in the file's literals (decoded.ts), each read by the rules as part of the file. */
function decodedUnits(unit: Unit, code: string): Unit[] {
  const lines = new LineIndex(code);
  return [...decodedTexts(code), ...assembledAddresses(code), ...(unit.language === 'javascript' || unit.language === 'python' ? xoredLiterals(code, unit.language) : []), ...(unit.language === 'python' ? pythonHelperTexts(code) : [])].map((d) => ({ file: unit.file, language: unit.language, text: d.text, installTime: unit.installTime, lineBase: unit.lineBase + lines.lineOf(d.offset), auxiliary: unit.auxiliary, decoded: true }));
}

interface RuleHit {
  readonly rule: CompiledRule;
  readonly finding: ScanFinding;
  readonly installTime: boolean;
  readonly auxiliary: boolean;
  /** Where in the file's text it matched (null in decoded data). */
  readonly offset: number | null;
  /** Code that runs only when the package's user runs it: a file neither installed nor loaded on import (a CLI, a release script), or a function of an imported file that nothing calls on import. Asked of publishing and persistence rules only. */
  readonly userRun: boolean;
}

/** The higher of a severity and a rule's raised one (null: not raised here). */
function raised(base: Severity, to: Severity | null): Severity {
  return to !== null && RANK[to] > RANK[base] ? to : base;
}

function patternHits(re: RegExp, code: string): DetectorHit[] {
  const out: DetectorHit[] = [];
  re.lastIndex = 0;
  for (const m of code.matchAll(re)) {
    out.push({ offset: m.index, text: m[0] });
    if (out.length >= MAX_MATCHES_PER_PATTERN) break;
  }
  return out;
}

function tests(re: RegExp, code: string): boolean {
  re.lastIndex = 0;
  const ok = re.test(code);
  re.lastIndex = 0;
  return ok;
}

function applyRules(unit: Unit, rules: readonly CompiledRule[], signal: AbortSignal | undefined, declared: ReadonlySet<string>, depth = 0): RuleHit[] {
  // JavaScript is parsed (comments blanked, tree for the detectors) only once a rule's pattern or precheck matches the
  // raw text: most files match nothing. Decoded text is parsed too (a base64 payload that is a whole program gets the
  // detectors a file gets); text that does not parse as JavaScript (JSON, a command line) is read as text
  const parseJs = unit.language === 'javascript';
  let js: JsSource | null = null;
  const jsSource = (): JsSource => (js ??= readJs(unit.text, unit.decoded !== true));
  const raw = unit.language === 'python' ? pythonCode(unit.text) : unit.language === 'native' ? nativeCode(unit.text) : unit.text;
  const codeFor = (): string => (parseJs ? jsSource().code : raw);
  const lines = new LineIndex(unit.text);
  const out: RuleHit[] = [];
  for (const rule of rules) {
    if (signal?.aborted) break;
    if (!rule.languages.has(unit.language)) continue;
    if (rule.onlyInInstallHook && !unit.installTime) continue;
    if (rule.onlyInDecoded && unit.decoded !== true) continue;
    if (unit.aliased === true && !namesModules(rule)) continue;
    const pre = rule.rawText ? unit.text : raw;
    // JavaScript's raw text still has its comments: the cheap test reads the patterns without a leading look-behind
    const allPre = parseJs && !rule.rawText ? rule.allPrechecks : rule.all;
    const patternPre = parseJs && !rule.rawText ? rule.patternPrechecks : rule.patterns;
    if (!allPre.every((re) => tests(re, pre))) continue;
    // a rule may have patterns, a detector, or both (hits of either)
    if (!patternPre.some((re) => tests(re, pre)) && (rule.detector === null || !DETECTOR_PRECHECK[rule.detector].test(pre))) continue;
    const code = rule.rawText ? unit.text : codeFor();
    if (rule.not.some((re) => tests(re, code))) continue;
    if (parseJs && !rule.all.every((re) => tests(re, code))) continue;
    const hits: DetectorHit[] = rule.patterns.flatMap((re) => patternHits(re, code));
    if (rule.detector !== null && unit.aliased !== true) {
      try {
        hits.push(...DETECTOR_FUNCTIONS[rule.detector]({ code, ast: parseJs ? jsSource().ast : null, path: unit.file, hook: unit.hook, declared, decoded: unit.decoded === true }));
      } catch {
        // a tree too deep for the walk (stack overflow): the rule's text patterns and the other rules still apply
      }
    }
    if (hits.length < rule.minMatches) continue;
    hits.sort((a, b) => a.offset - b.offset);
    if ((unit.decoded === true || unit.glued === true || unit.aliased === true || unit.tabled === true) && rule.category === 'obfuscation') continue;
    const severityAt = (onImport: boolean): Severity => {
      const base = raised(raised(rule.severity, onImport ? rule.importSeverity : null), unit.installTime ? rule.installHookSeverity : null);
      return unit.auxiliary && !unit.installTime ? LOWER[base] : base;
    };
    // a file loaded on import raises a rule's severity only where its code runs then (import-time.ts): not in a
    // function the package's user calls, nor in a constant only such functions read (a window of lines cannot tell)
    // publishing asks too: a release command the user runs publishes with the user's token; a worm publishes on load
    const importRaise = unit.importTime === true && rule.importSeverity !== null;
    const publishes = rule.kind === 'publish';
    // and persistence: a start-at-login helper installs it when its user's code calls it; a dropper on load
    const userRunAsked = publishes || rule.kind === 'persistence';
    const language = unit.language === 'python' ? 'python' : 'javascript';
    const readable = unit.glued !== true && unit.decoded !== true && (unit.language === 'javascript' || unit.language === 'python');
    const seenLines = new Set<number>();
    for (const h of hits) {
      const line = unit.decoded === true ? unit.lineBase + 1 : unit.lineBase + lines.lineOf(h.offset) + 1;
      if (seenLines.has(line)) continue;
      seenLines.add(line);
      const onLoad = (importRaise || (userRunAsked && unit.importTime === true)) && (!readable || runsAtImport(code, h.offset, language, (n) => usedOnImportElsewhere(unit.file, language, unit.importPeers ?? [], n, 0, new Set())));
      const severity = severityAt(importRaise && onLoad);
      out.push({
        rule,
        installTime: unit.installTime,
        auxiliary: unit.auxiliary,
        userRun: userRunAsked && readable && !unit.installTime && !onLoad,
        offset: unit.decoded === true ? null : (unit.offsetBase ?? 0) + h.offset,
        finding: { code: rule.id, severity, category: rule.category, title: unit.decoded === true ? `${rule.title} (in decoded data)` : rule.title, file: unit.file, line, match: boundMatch(`${unit.decoded === true ? 'decoded: ' : unit.glued === true ? 'glued: ' : ''}${h.text.trim()}`), technique: rule.technique, analyzer: SOURCE_ANALYZER },
      });
      if (seenLines.size >= rule.maxPerFile) break;
    }
  }
  if (unit.aliased === true) return out;
  if (depth < 2 && !signal?.aborted) for (const d of decodedUnits(unit, raw)) out.push(...applyRules(d, rules, signal, declared, depth + 1));
  if (unit.decoded !== true && unit.glued !== true && unit.language !== 'shell' && unit.language !== 'data' && !signal?.aborted) out.push(...gluedHits(unit, rules, signal, declared, depth, out));
  // decoded programs bind modules under short names too (`h=require('https')` in a char-code payload)
  if (unit.glued !== true && unit.language === 'javascript' && !signal?.aborted) out.push(...aliasedHits(unit, rules, signal, declared, out));
  if (unit.decoded !== true && unit.glued !== true && unit.tabled !== true && (unit.language === 'javascript' || unit.language === 'python') && !signal?.aborted) out.push(...tabledHits(unit, rules, signal, declared, depth, out));
  return out;
}

/**
 * The rules over the file's second reading: its string tables read back (`c[_0x2a(19)](d)` read as `c.spawn(d)`),
 * Python's builtins table and modules under the names the file gives them read under their own (builtins.ts), its
 * encoded literals written as the addresses and commands they decode to (decodedLiteralEdits), the literals it turns
 * round written forwards (turnedLiteralEdits), and argument lists of programs written as the command lines they make
 * (argv.ts): the hits at a rule and line the file as written did not give, at the file's offsets.
 */
function tabledHits(unit: Unit, rules: readonly CompiledRule[], signal: AbortSignal | undefined, declared: ReadonlySet<string>, depth: number, found: readonly RuleHit[]): RuleHit[] {
  const js = unit.language === 'javascript';
  const edits = [...(js ? [...stringTableEdits(unit.text), ...decoderHelperEdits(unit.text), ...sinkAliasEdits(unit.text), ...compiledCallEdits(unit.text)] : [...pythonIndirectionEdits(unit.text), ...builtinsAliasEdits(unit.text), ...moduleAliasEdits(unit.text), ...decodedNameEdits(unit.text)]), ...decodedLiteralEdits(unit.text), ...turnedLiteralEdits(unit.text), ...argvEdits(unit.text, js ? 'javascript' : 'python')];
  if (edits.length === 0) return [];
  // then the module aliases the read-back text shows (`o.platform()` once `o[_0x2a(10)]()` is read back), in the same
  // view, so the detectors (which the aliased view does not run) read both
  const tabled = rewrittenView(unit.text, edits);
  const aliased = js ? aliasedView(tabled.text) : null;
  const view = { text: aliased?.text ?? tabled.text, original: (o: number): number => tabled.original(aliased === null ? o : aliased.original(o)) };
  return viewHits(unit, view, { tabled: true }, rules, signal, declared, depth, found);
}

/** Whether a rule's patterns or file-wide conditions name one of the modules the aliased view writes in (only those can read it differently). */
const MODULE_NAMED = /\b(?:os|fs|https?|net|tls|dgram|dns|zlib)\b/;
const modulesNamed = new WeakMap<CompiledRule, boolean>();
function namesModules(rule: CompiledRule): boolean {
  let named = modulesNamed.get(rule);
  if (named === undefined) modulesNamed.set(rule, (named = [...rule.patterns, ...rule.all].some((re) => MODULE_NAMED.test(re.source))));
  return named;
}

/**
 * The rules' patterns over the file with Node's modules under their own names (`h.request(` read as `https.request(`):
 * the hits at a rule and line the file as written did not give, at the file's offsets.
 */
function aliasedHits(unit: Unit, rules: readonly CompiledRule[], signal: AbortSignal | undefined, declared: ReadonlySet<string>, found: readonly RuleHit[]): RuleHit[] {
  // over the file with its glued literals folded (same length and lines), so `require(['ht', 'tps'].join(''))` binds
  const view = aliasedView(foldGluedLiterals(unit.text, 'javascript').text);
  return view === null ? [] : viewHits(unit, view, { aliased: true }, rules, signal, declared, 2, found);
}

/** The rules over a view of the unit's text: the hits at a rule and line the file as written did not give, mapped back to the file's offsets. */
function viewHits(unit: Unit, view: AliasedView, kind: Pick<Unit, 'aliased' | 'tabled'>, rules: readonly CompiledRule[], signal: AbortSignal | undefined, declared: ReadonlySet<string>, depth: number, found: readonly RuleHit[]): RuleHit[] {
  const seen = new Set(found.map((h) => `${h.rule.id}\0${h.finding.line ?? 0}`));
  const out: RuleHit[] = [];
  for (const h of applyRules({ ...unit, ...kind, text: view.text, offsetBase: 0 }, rules, signal, declared, depth)) {
    if (seen.has(`${h.rule.id}\0${h.finding.line ?? 0}`)) continue;
    seen.add(`${h.rule.id}\0${h.finding.line ?? 0}`);
    out.push({ ...h, offset: h.offset === null ? null : (unit.offsetBase ?? 0) + view.original(h.offset) });
  }
  return out;
}

/** Context read around each run of glued literals: lines (patterns span a few), and at most this many characters (minified lines are long). */
const GLUE_CONTEXT_LINES = 3;
const GLUE_CONTEXT_CHARS = 400;

/**
 * The rules over the lines around each run of glued literals, with the runs joined: the hits at a rule and line the
 * file as written did not give. The joined text keeps the file's offsets, so a window's lines and offsets are the file's.
 */
function gluedHits(unit: Unit, rules: readonly CompiledRule[], signal: AbortSignal | undefined, declared: ReadonlySet<string>, depth: number, found: readonly RuleHit[]): RuleHit[] {
  const folded = foldGluedLiterals(unit.text, unit.language === 'javascript' ? 'javascript' : 'python');
  if (folded.spans.length === 0) return [];
  const key = (h: RuleHit): string => `${h.rule.id}\0${h.finding.line ?? 0}\0${h.offset === null ? 'decoded' : ''}`;
  const seen = new Set(found.map(key));
  const lines = new LineIndex(folded.text);
  const windows: [number, number][] = [];
  for (const [s, e] of folded.spans) {
    const from = Math.max(lines.startOf(lines.lineOf(s) - GLUE_CONTEXT_LINES), s - GLUE_CONTEXT_CHARS);
    const to = Math.min(lines.startOf(lines.lineOf(e) + GLUE_CONTEXT_LINES + 1), e + GLUE_CONTEXT_CHARS);
    const last = windows[windows.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else windows.push([from, to]);
  }
  const out: RuleHit[] = [];
  for (const [from, to] of windows) {
    if (signal?.aborted) break;
    const window: Unit = { ...unit, text: folded.text.slice(from, to), lineBase: unit.lineBase + lines.lineOf(from), offsetBase: (unit.offsetBase ?? 0) + from, glued: true };
    for (const h of applyRules(window, rules, signal, declared, depth)) {
      if (seen.has(key(h))) continue;
      seen.add(key(h));
      out.push(h);
    }
  }
  return out;
}

function decode(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}

/** The units of a release: its source files (install-time ones marked) and its npm hooks. */
function unitsOf(release: PackageRelease): { units: Unit[]; skipped: ScanFinding[] } {
  const hooks = release.ecosystem === 'npm' ? npmHooks(release) : [];
  const installTime = installTimeFiles(release, hooks);
  const importTime = importTimeFiles(release);
  const loaded = loadedAsideFiles(release, (p) => AUXILIARY.test(p));
  if (release.ecosystem === 'npm') for (const t of prepareTargets(release)) loaded.add(t);
  const units: Unit[] = [];
  const peers: ImportPeer[] = [];
  const skipped: ScanFinding[] = [];
  for (const h of hooks) {
    units.push({ file: h.file, language: 'shell', text: h.command, installTime: true, lineBase: (h.line ?? 1) - 1, hook: h, auxiliary: false });
    for (const code of h.inline) units.push({ file: h.file, language: 'javascript', text: code, installTime: true, lineBase: (h.line ?? 1) - 1, auxiliary: false });
  }
  // the makefiles an install runs, and the .mk files they include, are read as the shell commands their recipes are
  const makeAtInstall = release.files.some((f) => MAKEFILE.test(f.path) && !f.path.endsWith('.mk') && installTime.has(f.path));
  for (const f of release.files) {
    if (!f.data) continue;
    // a notebook's code cells, read as Python: a notebook runs when its user runs it, as an example does
    if (/\.ipynb$/i.test(f.path) && f.data.length <= MAX_SCAN_BYTES) {
      for (const cell of notebookCells(decode(f.data))) units.push({ file: f.path, language: 'python', text: cell.code, installTime: false, lineBase: cell.lineBase, auxiliary: true });
      continue;
    }
    const language =
      languageOf(f.path) ??
      ((installTime.has(f.path) || (makeAtInstall && f.path.endsWith('.mk'))) && MAKEFILE.test(f.path) ? 'shell' : null) ??
      shebangLanguage(f.path, decode(f.data.subarray(0, 200))) ??
      templateLanguage(f.path, f.data) ??
      sourceInCompiledName(f.path, f.data);
    const pickled = language === null || language === 'pth' ? (pickleInData(f.path, f.data) ?? lambdaInData(f.path, f.data)) : null;
    // a shipped VS Code task file's folder-open commands: run when the project is opened, read as an install hook's are
    if (TASKS_FILE.test(f.path) && f.data.length <= MAX_SCAN_BYTES)
      for (const c of folderOpenCommands(decode(f.data))) units.push({ file: f.path, language: 'shell', text: c.command, installTime: true, lineBase: c.line, auxiliary: false });
    // a Copier template's tasks: run by the user's shell when the template is rendered, read as the commands they are
    if (COPIER_FILE.test(f.path) && f.data.length <= MAX_SCAN_BYTES)
      for (const c of copierTaskCommands(decode(f.data))) units.push({ file: f.path, language: 'shell', text: c.command, installTime: false, lineBase: c.line, auxiliary: false });
    // programs kept in a table's base64 cells, read as the programs they are (f.data bounded as the other sources are)
    if (language === null && pickled === null && f.data.length <= MAX_SCAN_BYTES)
      for (const c of codeInTable(f.path, f.data)) units.push({ file: f.path, language: c.language, text: c.text, installTime: false, lineBase: c.line, auxiliary: AUXILIARY.test(f.path) && !loaded.has(f.path), decoded: true });
    if (language === null && pickled === null) continue;
    if (f.data.length > MAX_SCAN_BYTES) {
      skipped.push({ code: 'source_file_too_large', severity: 'info', category: 'tool', title: 'A source file is too large for the source rules and was not read', file: f.path, line: null, match: null, technique: null, analyzer: SOURCE_ANALYZER });
      continue;
    }
    const auxiliary = AUXILIARY.test(f.path) && !loaded.has(f.path);
    // a saved object (a pickle, a NumPy object array, a PyTorch checkpoint, a Keras model with Lambda layers): what
    // loading it would call, as decoded data
    if (pickled !== null) units.push({ file: f.path, language: 'data', text: pickled, installTime: false, lineBase: 0, auxiliary, decoded: true });
    else if (language !== null) {
      const text = decode(f.data);
      const onImport = importTime.has(f.path) && (language === 'javascript' || language === 'python');
      units.push({ file: f.path, language, text, installTime: installTime.has(f.path), importTime: importTime.has(f.path), lineBase: 0, auxiliary, ...(onImport ? { importPeers: peers } : {}) });
      if (onImport) peers.push({ file: f.path, language, text });
    }
  }
  return { units, skipped };
}

/** The most code files a program of files joined by imports may have for all of them to share one flow. */
const SMALL_PROGRAM_FILES = 30;

/** Union-find over file paths: `join` two, `root` of one. */
function unions(): { join: (a: string, b: string) => void; root: (f: string) => string; has: (f: string) => boolean } {
  const parent = new Map<string, string>();
  const root = (f: string): string => {
    let r = f;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const join = (x: string, y: string): void => {
    const [a, b] = [root(x), root(y)].sort();
    if (a !== b) parent.set(b!, a!);
    if (!parent.has(a!)) parent.set(a!, a!);
  };
  return { join, root, has: (f) => parent.has(f) };
}

/**
 * The flow of each file with findings. A small program (at most SMALL_PROGRAM_FILES code files joined by imports: a
 * module that reads credentials, the module that sends, the module that holds the address and the one that calls them
 * all) is one flow; in a larger one only files with findings that load one another directly share one (a big
 * package's environment dump and its paste command are different features). A shared flow is `LINKED_FLOW` and the
 * first file's path; any other file is a flow of its own (`file:` and its path). Only collected data and a destination
 * of its own pair across files (chains.ts).
 */
function linkedFlows(release: PackageRelease, withFindings: ReadonlySet<string>): (file: string) => string {
  const code = new Set(release.files.filter((f) => !AUXILIARY.test(f.path) && /\.(?:py|[cm]?js)$/.test(f.path)).map((f) => f.path));
  for (const f of withFindings) code.add(f);
  const imports = directImports(release, code);
  const programs = unions();
  for (const [from, targets] of imports) for (const t of targets) programs.join(from, t);
  const size = new Map<string, number>();
  for (const f of code) size.set(programs.root(f), (size.get(programs.root(f)) ?? 0) + 1);
  const flows = unions();
  for (const [from, targets] of imports)
    for (const t of targets) {
      if (t === from) continue;
      if ((size.get(programs.root(from)) ?? 0) <= SMALL_PROGRAM_FILES || (withFindings.has(from) && withFindings.has(t))) flows.join(from, t);
    }
  return (file) => (withFindings.has(file) && flows.has(file) ? `${LINKED_FLOW}${flows.root(file)}` : `file:${file}`);
}

/**
 * Kinds of hit that give collected data a way off the machine, or bring in code that could: a request, a shell or a
 * program started, a download, code run from data or decoded, a publish, persistence that runs later.
 */
const WAY_OUT_KINDS: ReadonlySet<string> = new Set(['network', 'exfil_endpoint', 'spawn', 'shell', 'download', 'exec_fetched', 'decode', 'publish', 'registry_packages', 'persistence']);
/** Files that hold code a machine runs: scripts by extension, and extension-less files (hooks, shell scripts, bins). */
const CODE_FILE = /\.(?:[cm]?[jt]sx?|pyw?|sh|bash|zsh|ps1|psm1|bat|cmd|vbs|rb|pl|php|lua)$|(?:^|\/)[^./]+$/i;
/** Files whose code the source rules do not read: a compiled module or a program can send what the sources collect. */
const OPAQUE_CODE = /\.(?:node|so|dylib|dll|exe|pyd|wasm|jar|class)$/i;

/**
 * Any word of a network, name lookup or process API in a code file, however it is reached (`globalThis['fe' +
 * 'tch']` still names fetch's parts nowhere, but a file that hides its names has an obfuscation hit): a broad net, so
 * that only releases with no way out at all are read as collecting for themselves.
 */
const WAY_OUT_TEXT = /\b(?:fetch|fe|XMLHttpRequest|WebSocket|sendBeacon|net|tls|dgram|dns|socket|urllib3?|requests|httpx|aiohttp|smtplib|ftplib|child_process|subprocess|getaddrinfo|gethost\w*|ctypes|ffi|eval|Function|import_module|__import__)\b|\bhttps?(?=\s*\.|['"`])|\bos\.(?:system|popen|exec\w*|spawn\w*)\b|(?<![.\w$])exec\s*\(/;

/** Whether anything in the release (tests, examples and docs aside) could send what it collects, or hides what it does. */
function hasWayOut(release: PackageRelease, hits: readonly RuleHit[]): boolean {
  if (release.files.some((f) => OPAQUE_CODE.test(f.path))) return true;
  if (hits.some((h) => (!h.auxiliary || h.installTime) && ((h.rule.kind !== null && WAY_OUT_KINDS.has(h.rule.kind)) || h.finding.category === 'obfuscation'))) return true;
  return release.files.some((f) => !AUXILIARY.test(f.path) && CODE_FILE.test(f.path) && WAY_OUT_TEXT.test(textOf(f)));
}

/**
 * A credential or environment collector in a release that has no way to send anything (no request, no program
 * started, nothing decoded or hidden, no compiled code): an auditor that reads the files to report on them locally,
 * not a harvest; kept at medium for a reviewer rather than counted as theft.
 */
function collectedOnly(h: RuleHit): RuleHit {
  return collectsAboveMedium(h) ? { ...h, finding: { ...h.finding, severity: 'medium' } } : h;
}
const collectsAboveMedium = (h: RuleHit): boolean => h.rule.role === 'capability' && (h.rule.kind === 'credentials' || h.rule.kind === 'environment') && RANK[h.finding.severity] > RANK.medium;

/** A chain as a finding too (code `attack_chain`), so policies that block on a high finding see it; the risk score counts it once. */
function chainFinding(c: AttackChain): ScanFinding {
  const last = c.steps[c.steps.length - 1];
  return { code: ATTACK_CHAIN_CODE, severity: c.severity, category: 'exfiltration', title: `Attack chain: ${c.title}`, file: last?.file ?? null, line: last?.line ?? null, match: last?.match ?? null, technique: c.technique, analyzer: SOURCE_ANALYZER };
}

/** Runs the source rules over a release; findings plus the attack chains they form. */
export function analyzeSource(release: PackageRelease, ctx: AnalyzerContext): AnalyzerOutput {
  const rules = loadRules(ctx.resourcesDir);
  const { units, skipped } = unitsOf(release);
  const hits: RuleHit[] = [];
  // the release's own name and declared dependencies, for the rules that ask what it declares
  const declared = new Set([release.name, ...Object.keys(release.metadata.dependencies)].map(normaliseDependency));
  for (const unit of units) {
    if (ctx.signal?.aborted) return { findings: [...skipped, ...hits.map((h) => h.finding)], status: 'failed', message: 'the scan was cancelled before the source rules finished' };
    hits.push(...applyRules(unit, rules, ctx.signal, declared));
  }
  if (hits.some(collectsAboveMedium) && !hasWayOut(release, hits)) for (let i = 0; i < hits.length; i++) hits[i] = collectedOnly(hits[i] as RuleHit);
  const chained = hits.filter((h) => h.rule.role !== 'indicator' && (!h.auxiliary || h.installTime));
  const flowOf = linkedFlows(release, new Set(chained.filter((h) => !h.installTime).map((h) => h.finding.file ?? '')));
  const chainInput: ChainInput[] = chained.map((h) => ({ finding: h.finding, role: h.rule.role === 'capability' ? 'capability' : 'threat', kind: h.rule.kind, step: h.rule.step, flow: h.installTime ? 'install' : flowOf(h.finding.file ?? ''), installTime: h.installTime, offset: h.offset, userRun: h.userRun, secretData: h.rule.secretData }));
  // tests, examples and docs run where the project is developed, tested and packaged, not where it is installed: their
  // hits chain within their own file only, and only a chain that steals (collected secrets or credentials to an
  // exfiltration endpoint) counts, one step lower
  const aside = hits.filter((h) => h.rule.role !== 'indicator' && h.auxiliary && !h.installTime);
  const asideChains = buildChains(aside.map((h) => ({ finding: h.finding, role: h.rule.role === 'capability' ? 'capability' : 'threat', kind: h.rule.kind, step: h.rule.step, flow: `aside\0${h.finding.file ?? ''}`, installTime: false, offset: h.offset })))
    .filter((c) => c.severity === 'critical')
    .map((c): AttackChain => ({ ...c, severity: 'high', title: `${c.title} (in a test, example or docs file)` }));
  const chains = [...buildChains(chainInput), ...asideChains];
  return { findings: [...skipped, ...hits.map((h) => h.finding), ...chains.map(chainFinding)], chains };
}

export const sourceAnalyzer: Analyzer = { name: SOURCE_ANALYZER, version: SOURCE_ANALYZER_VERSION, analyze: analyzeSource };
