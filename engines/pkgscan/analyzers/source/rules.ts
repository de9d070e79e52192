// The declarative source-code rules (resources/pkgscan/rules/*.yml): their schema, loading and validation; compiled once per resources directory.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { VitrineError } from '../../../core/errors.js';
import { validate } from '../../../core/validation.js';
import type { FindingCategory } from '../../../core/contracts/pkgscan.js';
import { BEHAVIOUR_CATEGORIES, SEVERITIES } from '../../vocabulary.js';
import type { Severity } from '../types.js';
import type { SourceLanguage } from './text.js';

export const RULES_RELATIVE = path.join('pkgscan', 'rules');

/** Structural checks written in code, named by rules (the table in detectors.ts). */
export const DETECTORS = [
  'walk_overwrite',
  'walk_encrypt',
  'js_eval_decoded',
  'js_eval_fetched',
  'js_eval_data_file',
  'js_exec_decoded',
  'js_detached_spawn',
  'js_env_serialise',
  'js_env_host_record',
  'js_secret_env_record',
  'js_dynamic_require',
  'js_dns_exfil',
  'js_hidden_builtin_member',
  'py_exec_decoded',
  'py_cmdclass_install',
  'pth_executable',
  'chmod_then_run',
  'py_import_time_install',
  'lookup_of_data',
  'fetch_pipe_run',
  'sends_secret_file',
  'lookalike_code_host',
  'keyed_decrypt_run',
  'npm_hook_ordinary',
  'npm_hook_code',
  'npm_hook_shell',
] as const;
export type DetectorName = (typeof DETECTORS)[number];

/** What a capability or threat is about, for chain titles ("reads credential files -> sends to a webhook"). */
export const CHAIN_KINDS = ['credentials', 'environment', 'host_info', 'spawn', 'network', 'download', 'decode', 'exfil_endpoint', 'exec_fetched', 'shell', 'persistence', 'publish', 'registry_packages'] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];


const patternSchema = z.object({ regex: z.string().min(1).max(2000), flags: z.string().regex(/^[imsu]*$/).optional() }).strict();

const ruleSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]{2,63}$/),
    title: z.string().min(3).max(200),
    category: z.enum(BEHAVIOUR_CATEGORIES),
    severity: z.enum(SEVERITIES),
    technique: z.string().regex(/^T\d{4}(\.\d{3})?$/).nullable(),
    languages: z.array(z.enum(['javascript', 'python', 'shell', 'pth', 'native', 'data'])).min(1),
    role: z.enum(['capability', 'threat', 'indicator']),
    kind: z.enum(CHAIN_KINDS).optional(),
    /** Short words for an attack-chain step, e.g. "reads ~/.npmrc or SSH keys". */
    step: z.string().max(120).optional(),
    patterns: z.array(patternSchema).max(50).default([]),
    /** Each must also match somewhere in the same file. */
    all: z.array(patternSchema).max(10).default([]),
    /** The rule does not fire in a file where one of these matches. */
    not: z.array(patternSchema).max(10).default([]),
    detector: z.enum(DETECTORS).optional(),
    /** Matches needed in one file before the rule fires (each reported up to max_per_file). */
    min_matches: z.number().int().min(1).max(10_000).default(1),
    max_per_file: z.number().int().min(1).max(50).default(3),
    conditions: z.object({ in_install_hook: z.boolean().optional(), in_decoded_data: z.boolean().optional() }).strict().default({}),
    /** Severity when the file runs at install time (an npm hook's target, setup.py). */
    install_hook_severity: z.enum(SEVERITIES).optional(),
    /** Severity when the file runs on import (the package's entry module and what it loads; hooks.ts importTimeFiles). */
    import_severity: z.enum(SEVERITIES).optional(),
    description: z.string().max(1000).optional(),
    /** `raw` matches the file as written, comments included (Trojan Source hides in comments); `code` (default) the comment-free text. */
    text: z.enum(['code', 'raw']).default('code'),
    /** Collected data that is secret in itself at any severity (many tools' keys): it chains with a send in its own file. */
    secret_data: z.boolean().default(false),
  })
  .strict()
  .refine((r) => r.patterns.length > 0 || r.detector !== undefined, { message: 'a rule needs patterns or a detector', path: ['patterns'] });

const fileSchema = z.object({ version: z.literal(1), class: z.string().min(2).max(60), rules: z.array(ruleSchema).min(1).max(200) }).strict();

export interface CompiledRule {
  readonly id: string;
  readonly title: string;
  readonly category: FindingCategory;
  readonly severity: Severity;
  readonly technique: string | null;
  readonly languages: ReadonlySet<SourceLanguage>;
  readonly role: 'capability' | 'threat' | 'indicator';
  readonly kind: ChainKind | null;
  readonly step: string;
  readonly patterns: readonly RegExp[];
  /** The patterns as the cheap test on the raw text reads them: a leading look-behind left out (`withoutLeadingLookbehind`). */
  readonly patternPrechecks: readonly RegExp[];
  readonly all: readonly RegExp[];
  /** The `all` patterns as the raw-text test reads them, likewise. */
  readonly allPrechecks: readonly RegExp[];
  readonly not: readonly RegExp[];
  readonly detector: DetectorName | null;
  readonly minMatches: number;
  readonly maxPerFile: number;
  readonly onlyInInstallHook: boolean;
  /** Only in text decoded or assembled from a file's literals (decoded.ts, assembled.ts). */
  readonly onlyInDecoded: boolean;
  readonly installHookSeverity: Severity | null;
  readonly importSeverity: Severity | null;
  readonly rawText: boolean;
  /** Collected data that is secret in itself: it chains with a send in its own file at any severity (chains.ts). */
  readonly secretData: boolean;
  /** The rules file (class) it came from. */
  readonly ruleClass: string;
}

/** The indexes of a pattern's syntax characters from `start`: neither escaped nor inside a character class. */
function* syntaxIndexes(source: string, start = 0): Generator<number> {
  let inClass = false;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else yield i;
  }
}

/** Where the group opening at `start` closes (the index after its `)`), or -1. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  for (const i of syntaxIndexes(source, start)) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Whether a pattern's text opens a capturing group (`(` without `?`, or a named `(?<name>`). */
function capturesIn(source: string): boolean {
  for (const i of syntaxIndexes(source)) {
    if (source[i] === '(' && (source[i + 1] !== '?' || (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!'))) return true;
  }
  return false;
}

/**
 * A pattern without the look-behind it starts with (`(?<=[{,]\s{0,200})key: ...` reads `key: ...`; after leading
 * look-aheads, `(?=[a-z])(?<=...)x` reads `(?=[a-z])x`), for the test on the raw text before a file is parsed: there
 * a comment line between an object's entries stands where the rule, reading the comment-free text, sees blanks, so the
 * look-behind would fail on the raw text and the rule never run. Leaving the assertion out only widens what matches;
 * the rule itself still reads the comment-free text. A negative look-behind (`(?<![\w$.])eval`) is kept: a comment
 * cannot make it fail where blanks would not.
 */
export function withoutLeadingLookbehind(source: string): string {
  let at = 0;
  while (source.startsWith('(?=', at)) {
    const end = groupEnd(source, at);
    if (end < 0) return source;
    at = end;
  }
  if (!source.startsWith('(?<=', at)) return source;
  const end = groupEnd(source, at);
  // a capturing group inside would renumber the back-references after it: such a pattern is read as written
  if (end < 0 || capturesIn(source.slice(at + 4, end - 1))) return source;
  return source.slice(0, at) + source.slice(end);
}

/** The raw-text test's form of a pattern: the compiled pattern itself unless it starts with a look-behind to leave out. */
function precheckOf(p: { regex: string; flags?: string | undefined }, compiled: RegExp, where: string): RegExp {
  const wide = withoutLeadingLookbehind(p.regex);
  return wide === p.regex ? compiled : compile({ ...p, regex: wide }, where);
}

function compile(p: { regex: string; flags?: string | undefined }, where: string): RegExp {
  try {
    return new RegExp(p.regex, `${p.flags ?? 'i'}g`.replace(/(.)(?=.*\1)/g, ''));
  } catch {
    throw new VitrineError('validation_failed', `a pattern of ${where} is not a valid regular expression`);
  }
}

/** Rules from the YAML texts of rule files (name -> text); ids must be unique across files. */
export function compileRules(texts: Readonly<Record<string, string>>): CompiledRule[] {
  const out: CompiledRule[] = [];
  const seen = new Set<string>();
  for (const [name, text] of Object.entries(texts)) {
    let raw: unknown;
    try {
      raw = parseYaml(text);
    } catch {
      throw new VitrineError('validation_failed', 'a source rules file is not valid YAML');
    }
    const doc = validate(fileSchema, raw, `source rules (${name.replace(/[^a-z0-9_.-]/gi, '?')})`);
    for (const r of doc.rules) {
      if (seen.has(r.id)) throw new VitrineError('validation_failed', `rule id ${r.id} appears twice`);
      seen.add(r.id);
      const patterns = r.patterns.map((p) => compile(p, r.id));
      const all = r.all.map((p) => compile(p, r.id));
      out.push({
        id: r.id,
        title: r.title,
        category: r.category,
        severity: r.severity,
        technique: r.technique,
        languages: new Set(r.languages),
        role: r.role,
        kind: r.kind ?? null,
        step: r.step ?? r.title,
        patterns,
        patternPrechecks: r.patterns.map((p, i) => precheckOf(p, patterns[i] as RegExp, r.id)),
        all,
        allPrechecks: r.all.map((p, i) => precheckOf(p, all[i] as RegExp, r.id)),
        not: r.not.map((p) => compile(p, r.id)),
        detector: r.detector ?? null,
        minMatches: r.min_matches,
        maxPerFile: r.max_per_file,
        onlyInInstallHook: r.conditions.in_install_hook === true,
        onlyInDecoded: r.conditions.in_decoded_data === true,
        installHookSeverity: r.install_hook_severity ?? null,
        importSeverity: r.import_severity ?? null,
        rawText: r.text === 'raw',
        secretData: r.secret_data,
        ruleClass: doc.class,
      });
    }
  }
  return out;
}

const cache = new Map<string, readonly CompiledRule[]>();

/** The shipped rules under `<resourcesDir>/pkgscan/rules/`, read and validated once. */
export function loadRules(resourcesDir: string): readonly CompiledRule[] {
  const dir = path.join(resourcesDir, RULES_RELATIVE);
  const hit = cache.get(dir);
  if (hit) return hit;
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.yml')).sort();
  } catch {
    throw new VitrineError('unavailable', 'the source rules folder is missing from the resources');
  }
  const texts: Record<string, string> = {};
  for (const n of names) texts[n] = readFileSync(path.join(dir, n), 'utf8');
  const rules = compileRules(texts);
  cache.set(dir, rules);
  return rules;
}
