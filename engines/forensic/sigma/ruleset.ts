// A compiled Sigma rule set: rules read from folders, selected by status and level, indexed by logsource and by required literals.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../../core/errors.js';
import { setOwn } from '../../core/own.js';
import { forensicResourcesDir } from '../analysis/attack.js';
import { MatchEngine } from './engine.js';
import { bindingsOf, InputView, sourceOf, type Binding, type SigmaInput } from './logsource.js';
import { BUNDLE_FILE, readBundle, yamlDocuments } from './bundle.js';
import { levelRank, parseRuleDocuments, parseRuleText, techniquesNamedIn, MAX_NAMED_TEXT, withNamedTechniques, SIGMA_LEVELS, SIGMA_STATUSES, type CompiledRule, type ParsedRules, type SigmaLevel, type SigmaRuleInfo, type SigmaStatus, type SkippedRule } from './rule.js';
import { textsOf, UnsupportedRule, type Placeholders } from './value.js';
import { parseCorrelation, resolveCorrelations, type CorrelationRule, type ResolvedCorrelation } from './correlation.js';

/** The shipped rule folders below resources/forensic/sigma/: SigmaHQ's three and Vitrine's built-in Windows rules (rules-builtin). */
export const SHIPPED_RULE_SETS = ['rules', 'rules-emerging-threats', 'rules-threat-hunting', 'rules-builtin'] as const;

/**
 * Whether a rule's `source` (`<set>/<file>`) is in one of the shipped sets, as loadSigmaRules names them; the analyst's
 * folders are named `user`, `user2`, ... and never match.
 */
export function isShippedSource(source: string): boolean {
  const slash = source.indexOf('/');
  return slash > 0 && (SHIPPED_RULE_SETS as readonly string[]).includes(source.slice(0, slash));
}

/** The threat-hunting set: broad rules, run only when asked (`--hunting`). */
export const HUNTING_RULE_SET = 'rules-threat-hunting';

/**
 * Default selection, chosen by measured noise on the benign corpus logs (docs/forensic-sigma.md). Every level runs:
 * informational and low hits are timeline entries and detections with their techniques (they never root or raise a
 * story alone), as Hayabusa and Chainsaw keep them; `--min-level` / `sigmaMinLevel` narrows the selection.
 */
export const DEFAULT_STATUSES: readonly SigmaStatus[] = ['stable', 'test', 'experimental'];
export const DEFAULT_MIN_LEVEL: SigmaLevel = 'informational';
export const DEFAULT_RULE_SETS: readonly string[] = ['rules', 'rules-emerging-threats', 'rules-builtin'];

export interface RuleSource {
  /** Set name shown in each rule's `source` (`rules`, `user` ...). */
  readonly name: string;
  /** A folder (walked for .yml/.yaml) or one rule file. */
  readonly path: string;
}

export interface SigmaOptions {
  /** Folders of rules; default the shipped DEFAULT_RULE_SETS. */
  readonly sources?: readonly RuleSource[];
  /** Extra folders of the user's rules, added to `sources`. */
  readonly extra?: readonly string[];
  readonly minLevel?: SigmaLevel;
  readonly statuses?: readonly SigmaStatus[];
  readonly placeholders?: Placeholders;
}

/** One rule hit on an event: the rule's position in `ruleSet.rules`. */
export interface SigmaMatch {
  readonly rule: number;
}

/** Counts of what was read. */
export interface RuleSetStats {
  readonly files: number;
  readonly loaded: number;
  /** Valid rules left out by the status/level selection. */
  readonly deselected: number;
  /** Rules for a logsource none of our loaders produce (cloud, network, macOS ...). */
  readonly inapplicable: number;
  readonly skipped: number;
}

const MAX_RULE_BYTES = 1 << 20;
const MAX_RULE_FILES = 50_000;

function ruleFiles(root: string): { file: string; rel: string }[] {
  const out: { file: string; rel: string }[] = [];
  let st;
  try {
    st = statSync(root);
  } catch {
    throw new VitrineError('not_found', 'a Sigma rule folder does not exist');
  }
  if (st.isFile()) return [{ file: root, rel: path.basename(root) }];
  const walk = (dir: string): void => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) walk(full);
      else if (d.isFile() && /\.ya?ml$/i.test(d.name)) {
        out.push({ file: full, rel: path.relative(root, full).split(path.sep).join('/') });
        if (out.length > MAX_RULE_FILES) throw new VitrineError('validation_failed', 'a Sigma rule folder holds too many files');
      }
    }
  };
  walk(root);
  return out;
}

/** The compiled rule set. `match` is what the analysis calls per event. */
export class SigmaRuleSet {
  /** The rules that run, in a stable order (set, then path). */
  readonly rules: readonly SigmaRuleInfo[];
  /** Rule files or documents that could not run, with the reason (never silently dropped). */
  readonly skipped: readonly SkippedRule[];
  /** Valid rules whose logsource no loader produces. */
  readonly inapplicable: readonly SkippedRule[];
  /** Correlation rules whose referenced rules loaded (docs/forensic-sigma.md). */
  readonly correlations: readonly ResolvedCorrelation[];
  readonly stats: RuleSetStats;
  private readonly compiled: readonly CompiledRule[];
  private readonly bindings: readonly (readonly Binding[])[];
  private readonly engine: MatchEngine;

  constructor(compiled: readonly CompiledRule[], skipped: readonly SkippedRule[], stats: { files: number; deselected: number }, correlations: readonly CorrelationRule[] = []) {
    const runnable: CompiledRule[] = [];
    const bindings: Binding[][] = [];
    const inapplicable: SkippedRule[] = [];
    for (const r of compiled) {
      const b = bindingsOf(r.info.logsource);
      if (typeof b === 'string') inapplicable.push({ source: r.info.source, id: r.info.id, title: r.info.title, reason: b });
      else {
        runnable.push(r);
        bindings.push(b);
      }
    }
    this.compiled = runnable;
    this.bindings = bindings;
    this.engine = new MatchEngine(runnable, bindings);
    this.rules = runnable.map((r) => r.info);
    const linked = resolveCorrelations(correlations, this.rules, (i) => this.rules[i]?.name ?? null);
    this.correlations = linked.resolved;
    skipped = [...skipped, ...linked.skipped];
    this.skipped = skipped;
    this.inapplicable = inapplicable;
    this.stats = { files: stats.files, loaded: runnable.length, deselected: stats.deselected, inapplicable: inapplicable.length, skipped: skipped.length };
  }

  /** The rules (positions in `rules`) that match an event, each once, in rule order. */
  match(e: SigmaInput): number[] {
    return this.engine.match(e);
  }

  /** Per rule with `techniquesFrom`, its field texts to what they name (bounded: cleared when full). */
  private readonly namedMemo = new Map<string, { techniques: readonly string[]; tactics: readonly string[] }>();

  /**
   * The techniques and tactics of a hit of a rule on an event: the rule's own, plus for a rule with `techniquesFrom`
   * (`x-techniques-from`) those its fields' texts name, validated against the ATT&CK lookup (techniquesNamedIn).
   */
  hitAttack(e: SigmaInput, rule: number): { techniques: readonly string[]; tactics: readonly string[] } {
    const info = this.rules[rule];
    if (info === undefined) return { techniques: [], tactics: [] };
    const from = info.techniquesFrom;
    if (from === undefined) return info;
    const src = sourceOf(e);
    const binding = src === null ? undefined : (this.bindings[rule] ?? []).find((b) => b.accepts(src));
    if (binding === undefined) return info;
    const view = new InputView(e, binding.view, binding.fieldMap);
    const text = from.flatMap((f) => textsOf(view.get(f))).join('\n');
    if (text === '') return info;
    // What techniquesNamedIn reads of the text is the memo's key.
    const key = `${rule}\u0000${text.slice(0, MAX_NAMED_TEXT)}`;
    let r = this.namedMemo.get(key);
    if (r === undefined) {
      r = withNamedTechniques(info, techniquesNamedIn(text));
      if (this.namedMemo.size >= 4096) this.namedMemo.clear();
      this.namedMemo.set(key, r);
    }
    return r;
  }

  /** The fields (Sigma name → value text, clipped) a rule matched on an event; empty if it does not match. */
  explain(e: SigmaInput, rule: number): Record<string, string> {
    const src = sourceOf(e);
    const r = this.compiled[rule];
    if (src === null || r === undefined) return {};
    for (const binding of this.bindings[rule] ?? []) {
      if (!binding.accepts(src)) continue;
      const view = new InputView(e, binding.view, binding.fieldMap);
      if (!view.passes(binding.where) || !r.match(view)) continue;
      const out: Record<string, string> = {};
      for (const f of r.matchedFields(view)) {
        const t = textsOf(view.get(f)).join(' | ');
        setOwn(out, f, t.length > 512 ? `${t.slice(0, 511)}…` : t);
      }
      return out;
    }
    return {};
  }
}

function selected(info: SigmaRuleInfo, statuses: readonly SigmaStatus[], minLevel: SigmaLevel): boolean {
  return levelRank(info.level) >= levelRank(minLevel) && statuses.includes(info.status ?? 'experimental');
}

/** The rule files of the shipped sets, for the bundle generator. */
export function shippedRuleFiles(): { set: string; rel: string; file: string }[] {
  return SHIPPED_RULE_SETS.flatMap((set) => ruleFiles(path.join(shippedRulesDir(), set)).map((f) => ({ set, rel: f.rel, file: f.file })));
}

/** The shipped rule folder (resources/forensic/sigma). */
export function shippedRulesDir(): string {
  return path.join(forensicResourcesDir(), 'forensic', 'sigma');
}

/** One shipped rule file read from the bundle: its source name and its documents validated and compiled. */
interface ShippedFile {
  readonly source: string;
  readonly parsed: ParsedRules;
}

/**
 * The shipped sets compiled, kept for the process while the bundle file stays the same (its size, time and inode): a
 * long-lived worker that loads other selections (a minimum level, the hunting set) compiles each file once. A compiled
 * file is the same whatever the selection (levels and statuses are chosen after compiling) and its rules hold no state
 * of one rule set (each set has its own matching engine), so sets share them. Not kept with placeholder values.
 */
let shippedCache: { readonly stamp: string; readonly sets: Map<string, readonly ShippedFile[]> } | null = null;

/** The compiled files of a shipped set (null or empty: not in the bundle), from the bundle read at most once. */
function shippedSets(placeholders: Placeholders | undefined): (set: string) => readonly ShippedFile[] | null {
  const dir = shippedRulesDir();
  let stamp: string | null = null;
  try {
    const st = statSync(path.join(dir, BUNDLE_FILE));
    stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    // No bundle: the sets are read as YAML.
  }
  const keep = placeholders === undefined && stamp !== null;
  let sets = keep && shippedCache?.stamp === stamp ? shippedCache.sets : null;
  let bundle: ReturnType<typeof readBundle> | undefined;
  if (sets === null) {
    sets = new Map();
    if (keep) shippedCache = { stamp: stamp as string, sets };
  }
  const compileOptions = placeholders ? { placeholders } : {};
  const cache = sets;
  return (set) => {
    let files = cache.get(set);
    if (files === undefined) {
      if (bundle === undefined) bundle = stamp === null ? null : readBundle(dir);
      if (bundle === null) return null;
      files = bundle.files
        .filter((f) => f.set === set)
        .map((f) => {
          const source = `${set}/${f.rel}`;
          return { source, parsed: parseRuleDocuments(f.docs, source, compileOptions) };
        });
      cache.set(set, files);
    }
    return files;
  };
}

/** Reads, validates, selects and compiles rules from folders (default: the shipped default sets). */
export function loadSigmaRules(options: SigmaOptions = {}): SigmaRuleSet {
  const minLevel = options.minLevel ?? DEFAULT_MIN_LEVEL;
  const statuses = options.statuses ?? DEFAULT_STATUSES;
  if (!SIGMA_LEVELS.includes(minLevel)) throw new VitrineError('validation_failed', 'unknown Sigma level');
  if (statuses.some((s) => !SIGMA_STATUSES.includes(s))) throw new VitrineError('validation_failed', 'unknown Sigma status');
  const sources = [
    ...(options.sources ?? DEFAULT_RULE_SETS.map((name) => ({ name, path: path.join(shippedRulesDir(), name) }))),
    ...(options.extra ?? []).map((p, i) => ({ name: i === 0 ? 'user' : `user${i + 1}`, path: p })),
  ];
  const compiled: CompiledRule[] = [];
  const skipped: SkippedRule[] = [];
  const ids = new Set<string>();
  let files = 0;
  let deselected = 0;
  const compileOptions = options.placeholders ? { placeholders: options.placeholders } : {};
  const correlations: CorrelationRule[] = [];
  // Rules left out by level or status: run after all when a correlation names them.
  const held: CompiledRule[] = [];
  const take = (parsed: { rules: readonly CompiledRule[]; skipped: readonly SkippedRule[]; correlations?: readonly Record<string, unknown>[] }, source: string): void => {
    skipped.push(...parsed.skipped);
    for (const doc of parsed.correlations ?? []) {
      try {
        const c = parseCorrelation(doc, source);
        if (selected(c.info, statuses, minLevel)) correlations.push(c);
        else deselected++;
      } catch (err) {
        if (!(err instanceof UnsupportedRule)) throw err;
        skipped.push({ source, id: typeof doc['id'] === 'string' ? doc['id'] : null, title: typeof doc['title'] === 'string' ? doc['title'].slice(0, 256) : null, reason: err.message });
      }
    }
    for (const r of parsed.rules) {
      if (ids.has(r.info.id)) {
        skipped.push({ source, id: r.info.id, title: r.info.title, reason: 'a rule with this id was already loaded' });
        continue;
      }
      ids.add(r.info.id);
      if (!selected(r.info, statuses, minLevel)) {
        deselected++;
        held.push(r);
        continue;
      }
      compiled.push(r);
    }
  };
  // The shipped sets come pre-read from the bundle (YAML parsing of 3,700 files takes seconds), compiled once per process.
  const shipped = sources.some((src) => src.path === path.join(shippedRulesDir(), src.name)) ? shippedSets(options.placeholders) : null;
  for (const src of sources) {
    const fromBundle = shipped !== null && src.path === path.join(shippedRulesDir(), src.name) ? shipped(src.name) : null;
    if (fromBundle !== null && fromBundle.length > 0) {
      for (const f of fromBundle) {
        files++;
        take(f.parsed, f.source);
      }
      continue;
    }
    for (const { file, rel } of ruleFiles(src.path)) {
      files++;
      const source = `${src.name}/${rel}`;
      let text: string;
      try {
        if (statSync(file).size > MAX_RULE_BYTES) {
          skipped.push({ source, id: null, title: null, reason: 'rule file larger than 1 MiB' });
          continue;
        }
        text = readFileSync(file, 'utf8');
      } catch {
        skipped.push({ source, id: null, title: null, reason: 'cannot be read' });
        continue;
      }
      take(parseRuleDocuments(yamlDocuments(text), source, compileOptions), source);
    }
  }
  const wanted = new Set(correlations.flatMap((c) => c.refs));
  for (const r of held)
    if (wanted.has(r.info.id) || (r.info.name !== undefined && wanted.has(r.info.name))) {
      compiled.push(r);
      deselected--;
    }
  return new SigmaRuleSet(compiled, skipped, { files, deselected }, correlations);
}

/** A rule set from rule texts (tests, HTTP uploads): each `{source, text}` one file. */
export function sigmaRuleSetFromTexts(texts: readonly { source: string; text: string }[], options: Pick<SigmaOptions, 'placeholders'> = {}): SigmaRuleSet {
  const compiled: CompiledRule[] = [];
  const skipped: SkippedRule[] = [];
  const correlations: CorrelationRule[] = [];
  for (const t of texts) {
    const p = parseRuleText(t.text, t.source, options.placeholders ? { placeholders: options.placeholders } : {});
    compiled.push(...p.rules);
    skipped.push(...p.skipped);
    for (const doc of p.correlations ?? []) {
      try {
        correlations.push(parseCorrelation(doc, t.source));
      } catch (err) {
        if (!(err instanceof UnsupportedRule)) throw err;
        skipped.push({ source: t.source, id: typeof doc['id'] === 'string' ? doc['id'] : null, title: typeof doc['title'] === 'string' ? doc['title'].slice(0, 256) : null, reason: err.message });
      }
    }
  }
  return new SigmaRuleSet(compiled, skipped, { files: texts.length, deselected: 0 }, correlations);
}
