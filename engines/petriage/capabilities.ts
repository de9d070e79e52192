// Capability tags from imports and strings (`tagImports`, `tagRaw`), driven by the declarative rules in resources/petriage/capabilities.yaml.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import type { PeDissection } from './pe/types.js';
import { defaultResourcesDir } from './resources.js';
import type { CapabilityEvidence, TriageCapability as Capability } from '../core/contracts/petriage.js';
import { trimEndChars } from '../core/linear-text.js';

/** A capability a rule found, and its evidence: the contract's types, under the tagger's names. */
export type { CapabilityEvidence, TriageCapability as Capability } from '../core/contracts/petriage.js';

export const CAPABILITY_RULES_RELATIVE = path.join('petriage', 'capabilities.yaml');

/** An imported API: its DLL when known and its name (for an ordinal import, the name the ordinal stands for). */
export interface ImportRef {
  readonly dll: string | null;
  readonly name: string;
}

/** A string found in the file; `offset` lets certificate-table and manifest strings be told apart. */
export interface RawString {
  readonly value: string;
  readonly offset?: number | null;
  readonly encoding?: 'ascii' | 'utf16le';
}

/** A half-open byte range of the file, `[start, end)`. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export const MAX_EVIDENCE = 20;
const MAX_EVIDENCE_VALUE = 256;

// ---------------------------------------------------------------------------------------------
// The rules file

const apiName = z.string().min(1).max(200).regex(/^[A-Za-z_][A-Za-z0-9_@?$.]*$/);
const importGroup = z.union([z.array(apiName).min(1).max(200), z.strictObject({ any: z.array(apiName).min(1).max(200), min: z.number().int().min(1).max(200).default(1) })]);
const stringGroup = z.union([
  z.strictObject({ any: z.array(z.string().min(1).max(500)).min(1).max(200), min: z.number().int().min(1).max(1000).default(1) }),
  z.strictObject({ regex: z.array(z.string().min(1).max(500)).min(1).max(200), flags: z.string().regex(/^[imsu]*$/).default('i'), min: z.number().int().min(1).max(1000).default(1) }),
]);
const ruleSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    tag: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    name: z.string().min(1).max(200),
    technique: z.strictObject({ id: z.string().regex(/^T\d{4}(\.\d{3})?$/), name: z.string().min(1).max(200) }),
    imports: z.array(importGroup).max(20).optional(),
    strings: z.array(stringGroup).max(20).optional(),
    url: z.literal(true).optional(),
  })
  .refine((r) => (r.imports?.length ?? 0) + (r.strings?.length ?? 0) > 0 || r.url === true, { message: 'a rule needs imports, strings or url' });
const rulesFileSchema = z.strictObject({
  version: z.literal(1),
  url_evidence: z.strictObject({
    exclude_hosts: z.array(z.string().min(1).max(253)).max(1000).default([]),
    exclude_patterns: z.array(z.string().min(1).max(500)).max(1000).default([]),
    exclude_contexts: z.array(z.string().min(1).max(500)).max(1000).default([]),
  }),
  capabilities: z.array(ruleSchema).min(1).max(2000),
});

interface CompiledImportGroup {
  /** Normalised names (see apiKey). */
  readonly names: ReadonlySet<string>;
  readonly min: number;
}

interface CompiledStringGroup {
  readonly test: (value: string) => boolean;
  readonly min: number;
}

export interface CapabilityRule {
  readonly id: string;
  readonly tag: string;
  readonly name: string;
  readonly technique: { readonly id: string; readonly name: string };
  readonly imports: readonly CompiledImportGroup[];
  readonly strings: readonly CompiledStringGroup[];
  readonly url: boolean;
  /** Normalised key to the rule's own spelling, for evidence. */
  readonly spelling: ReadonlyMap<string, string>;
}

export interface CapabilityRules {
  readonly version: 1;
  readonly rules: readonly CapabilityRule[];
  /** SHA-256 of the rules file, reported with results so a tag can be traced to its rule set. */
  readonly sha256: string;
  readonly url: {
    readonly hosts: readonly string[];
    readonly patterns: readonly RegExp[];
    readonly contexts: readonly RegExp[];
  };
}

function compileRegex(source: string, flags: string, where: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch {
    throw new VitrineError('validation_failed', `invalid capability rules at ${where}: not a valid regular expression`);
  }
}

/**
 * The key an API name is compared by: lower case, a leading Zw read as Nt. The A/W suffix is not
 * removed here (that would break ShowWindow or GetKeyboardLayoutA alike); `lookupApi` tries both.
 */
export function apiKey(name: string): string {
  const lower = name.toLowerCase();
  return lower.startsWith('zw') ? `nt${lower.slice(2)}` : lower;
}

/** Parses and compiles the YAML text of a rules file. */
export function parseCapabilityRules(text: string): CapabilityRules {
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 100 });
  } catch {
    throw new VitrineError('validation_failed', 'the capability rules are not valid YAML');
  }
  const file = validate(rulesFileSchema, raw, 'capability rules');
  const seen = new Set<string>();
  const rules = file.capabilities.map((r, i): CapabilityRule => {
    if (seen.has(r.id)) throw new VitrineError('validation_failed', `invalid capability rules at capabilities[${i}].id: duplicate id`);
    seen.add(r.id);
    const spelling = new Map<string, string>();
    const imports = (r.imports ?? []).map((g): CompiledImportGroup => {
      const list = Array.isArray(g) ? g : g.any;
      const names = new Set<string>();
      for (const n of list) {
        const k = apiKey(n);
        names.add(k);
        if (!spelling.has(k)) spelling.set(k, n);
      }
      return { names, min: Array.isArray(g) ? 1 : g.min };
    });
    const strings = (r.strings ?? []).map((g, j): CompiledStringGroup => {
      if ('any' in g) {
        const needles = g.any.map((s) => s.toLowerCase());
        return { test: (v) => needles.some((n) => v.toLowerCase().includes(n)), min: g.min };
      }
      const res = g.regex.map((s, k) => compileRegex(s, g.flags, `capabilities[${i}].strings[${j}].regex[${k}]`));
      return { test: (v) => res.some((re) => re.test(v)), min: g.min };
    });
    return { id: r.id, tag: r.tag, name: r.name, technique: r.technique, imports, strings, url: r.url === true, spelling };
  });
  return {
    version: 1,
    rules,
    sha256: createHash('sha256').update(text).digest('hex'),
    url: {
      hosts: file.url_evidence.exclude_hosts.map((h) => h.toLowerCase()),
      patterns: file.url_evidence.exclude_patterns.map((p, i) => compileRegex(p, 'i', `url_evidence.exclude_patterns[${i}]`)),
      contexts: file.url_evidence.exclude_contexts.map((p, i) => compileRegex(p, 'i', `url_evidence.exclude_contexts[${i}]`)),
    },
  };
}

const cache = new Map<string, CapabilityRules>();

/** Loads (once per path) a rules file; the shipped resources/petriage/capabilities.yaml by default. */
export function loadCapabilityRules(file?: string): CapabilityRules {
  const where = file ?? path.join(defaultResourcesDir(), CAPABILITY_RULES_RELATIVE);
  const hit = cache.get(where);
  if (hit) return hit;
  let text: string;
  try {
    text = readFileSync(where, 'utf8');
  } catch (err) {
    throw new VitrineError('unavailable', 'the capability rules cannot be read', { cause: err });
  }
  const rules = parseCapabilityRules(text);
  cache.set(where, rules);
  return rules;
}

// ---------------------------------------------------------------------------------------------
// Matching

/** The rule key a file's import name matches in `names`, trying it as written and then without a final A or W. */
function lookupApi(names: ReadonlySet<string>, key: string): string | undefined {
  if (names.has(key)) return key;
  const last = key.charCodeAt(key.length - 1);
  // 'a' or 'w' after lower-casing: CreateFileW, createfilea.
  if (key.length > 1 && (last === 0x61 || last === 0x77)) {
    const stem = key.slice(0, -1);
    if (names.has(stem)) return stem;
  }
  return undefined;
}

function cut(value: string): string {
  return value.length > MAX_EVIDENCE_VALUE ? `${value.slice(0, MAX_EVIDENCE_VALUE - 1)}…` : value;
}

/** Import evidence of a rule, or null when one of its import groups is not satisfied. */
function matchImports(rule: CapabilityRule, imports: readonly ImportRef[]): CapabilityEvidence[] | null {
  const evidence: CapabilityEvidence[] = [];
  const used = new Set<string>();
  for (const group of rule.imports) {
    const hit = new Map<string, ImportRef>();
    for (const ref of imports) {
      const k = lookupApi(group.names, apiKey(ref.name));
      if (k !== undefined && !hit.has(k)) hit.set(k, ref);
    }
    if (hit.size < group.min) return null;
    for (const [k, ref] of hit) {
      const id = `${k}\0${ref.dll ?? ''}`;
      if (used.has(id)) continue;
      used.add(id);
      evidence.push({ kind: 'import', api: rule.spelling.get(k) ?? k, name: ref.name, dll: ref.dll });
    }
  }
  return evidence;
}

function inRanges(offset: number | null | undefined, ranges: readonly ByteRange[]): boolean {
  if (offset === null || offset === undefined) return false;
  return ranges.some((r) => offset >= r.start && offset < r.end);
}

function stringEvidence(s: RawString, kind: 'string' | 'url', value = s.value): CapabilityEvidence {
  return { kind, value: cut(value), offset: s.offset ?? null, encoding: s.encoding ?? null };
}

/** String evidence of a rule, or null when one of its string groups is not satisfied. */
function matchStrings(rule: CapabilityRule, strings: readonly RawString[]): CapabilityEvidence[] | null {
  const evidence: CapabilityEvidence[] = [];
  const used = new Set<RawString>();
  for (const group of rule.strings) {
    const hits = strings.filter((s) => group.test(s.value));
    if (hits.length < group.min) return null;
    for (const s of hits) {
      if (used.has(s)) continue;
      used.add(s);
      evidence.push(stringEvidence(s, 'string'));
    }
  }
  return evidence;
}

const URL_PATTERN = /\b(?:https?|ftp):\/\/[^\s"'<>()[\]{}\\^`|]+/gi;

/** The host of a URL as matched by URL_PATTERN (userinfo and port removed), lower case. */
function urlHost(url: string): string {
  const rest = url.slice(url.indexOf('://') + 3);
  const authority = rest.split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0] ?? '').toLowerCase();
}

/** Whether a URL found in `context` (the whole string) counts as URL evidence under the rules' exclusions. */
export function isUrlEvidence(rules: CapabilityRules, url: string, context: string = url): boolean {
  const host = urlHost(url);
  if (host === '') return false;
  if (rules.url.hosts.some((h) => host === h || host.endsWith(`.${h}`))) return false;
  if (rules.url.patterns.some((re) => re.test(url))) return false;
  if (rules.url.contexts.some((re) => re.test(context))) return false;
  return true;
}

/** URLs in strings that count as URL evidence; strings in `xmlRanges` (manifests) are XML and give none. */
export function urlEvidence(rules: CapabilityRules, strings: readonly RawString[], xmlRanges: readonly ByteRange[] = []): CapabilityEvidence[] {
  const out: CapabilityEvidence[] = [];
  for (const s of strings) {
    if (inRanges(s.offset, xmlRanges)) continue;
    for (const m of s.value.matchAll(URL_PATTERN)) {
      const url = trimEndChars(m[0], '.,;:!?');
      if (isUrlEvidence(rules, url, s.value)) out.push(stringEvidence(s, 'url', url));
    }
  }
  return out;
}

function capability(rule: CapabilityRule, evidence: CapabilityEvidence[]): Capability {
  return { id: rule.id, tag: rule.tag, name: rule.name, technique: rule.technique, evidence: evidence.slice(0, MAX_EVIDENCE), evidenceCount: evidence.length };
}

export interface TagRawOptions {
  /** Byte ranges whose strings never count (the certificate table). */
  readonly exclude?: readonly ByteRange[];
  /** Byte ranges holding XML (manifests): their strings give no URL evidence. */
  readonly xml?: readonly ByteRange[];
  readonly rules?: CapabilityRules;
}

function asImportRefs(apis: readonly (string | ImportRef)[]): ImportRef[] {
  return apis.map((a) => (typeof a === 'string' ? { dll: null, name: a } : a));
}

/** Tags from imported API names alone: the rules that have import conditions and no string conditions. */
export function tagImports(apis: readonly (string | ImportRef)[], rules: CapabilityRules = loadCapabilityRules()): Capability[] {
  const imports = asImportRefs(apis);
  const out: Capability[] = [];
  for (const rule of rules.rules) {
    if (rule.imports.length === 0 || rule.strings.length > 0 || rule.url) continue;
    const ev = matchImports(rule, imports);
    if (ev !== null) out.push(capability(rule, ev));
  }
  return out;
}

/** Tags from strings alone: the rules with string conditions (or `url`) and no import conditions. */
export function tagRaw(strings: readonly (string | RawString)[], options: TagRawOptions = {}): Capability[] {
  const rules = options.rules ?? loadCapabilityRules();
  const all = strings.map((s) => (typeof s === 'string' ? { value: s } : s));
  const usable = options.exclude && options.exclude.length > 0 ? all.filter((s) => !inRanges(s.offset, options.exclude ?? [])) : all;
  const out: Capability[] = [];
  for (const rule of rules.rules) {
    if (rule.imports.length > 0) continue;
    const ev = rule.url ? urlEvidence(rules, usable, options.xml) : matchStrings(rule, usable);
    if (ev !== null && ev.length > 0) out.push(capability(rule, ev));
  }
  return out;
}

/** Every rule over imports and strings together (rules needing both fire only here). */
export function tagCapabilities(input: { readonly imports: readonly (string | ImportRef)[]; readonly strings: readonly (string | RawString)[] }, options: TagRawOptions = {}): Capability[] {
  const rules = options.rules ?? loadCapabilityRules();
  const imports = asImportRefs(input.imports);
  const all = input.strings.map((s) => (typeof s === 'string' ? { value: s } : s));
  const usable = options.exclude && options.exclude.length > 0 ? all.filter((s) => !inRanges(s.offset, options.exclude ?? [])) : all;
  const out: Capability[] = [];
  for (const rule of rules.rules) {
    let ev: CapabilityEvidence[] = [];
    if (rule.imports.length > 0) {
      const m = matchImports(rule, imports);
      if (m === null) continue;
      ev = ev.concat(m);
    }
    if (rule.strings.length > 0) {
      const m = matchStrings(rule, usable);
      if (m === null) continue;
      ev = ev.concat(m);
    }
    if (rule.url) {
      const m = urlEvidence(rules, usable, options.xml);
      if (m.length === 0) continue;
      ev = ev.concat(m);
    }
    out.push(capability(rule, ev));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// From a dissection

/** Imports and delay-load imports as ImportRefs; an ordinal import uses the name pefile's tables give it, else `ordN`. */
export function importRefsOf(d: PeDissection): ImportRef[] {
  const out: ImportRef[] = [];
  for (const table of [d.imports, d.delay_imports]) {
    for (const dll of table) {
      for (const s of dll.symbols) {
        const name = s.name ?? s.ordinal_name ?? (s.ordinal === null ? null : `ord${s.ordinal}`);
        if (name !== null) out.push({ dll: dll.dll, name });
      }
    }
  }
  return out;
}

/** ASCII and UTF-16LE strings of a dissection as RawStrings. */
export function rawStringsOf(d: PeDissection): RawString[] {
  return [...d.strings.ascii.map((s) => ({ value: s.value, offset: s.offset, encoding: 'ascii' as const })), ...d.strings.utf16le.map((s) => ({ value: s.value, offset: s.offset, encoding: 'utf16le' as const }))];
}

/** The certificate table's byte range (its strings are the signer's, not the program's). */
export function certificateRanges(d: PeDissection): ByteRange[] {
  return d.certificate ? [{ start: d.certificate.offset, end: d.certificate.offset + d.certificate.size }] : [];
}

/** Byte ranges of RT_MANIFEST resources (XML). */
export function manifestRanges(d: PeDissection): ByteRange[] {
  return d.resources.entries.filter((e) => e.type === 'RT_MANIFEST' && e.offset !== null).map((e) => ({ start: e.offset as number, end: (e.offset as number) + e.size }));
}

/** Every capability of a dissected file. */
export function capabilitiesOf(d: PeDissection, rules: CapabilityRules = loadCapabilityRules()): Capability[] {
  return tagCapabilities({ imports: importRefsOf(d), strings: rawStringsOf(d) }, { exclude: certificateRanges(d), xml: manifestRanges(d), rules });
}
