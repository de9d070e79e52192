// Rule synthesis and validation (`synthesize`, `validate`): a YARA rule from a file's distinctive strings and imports, checked for benign hits and sibling coverage.
import { VitrineError } from '../core/errors.js';
import type { PeDissection } from './pe/types.js';
import { format, match, matchRule, parse, ScanTarget, stringMatches, type Rule, type RuleString } from './rules.js';
import type { RuleValidation, SynthesizedRule } from '../core/contracts/petriage.js';

export type { RuleValidation, SynthesizedRule } from '../core/contracts/petriage.js';

/** A file of a reference corpus (benign files, or suspected siblings of the same family). */
export interface CorpusFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface SynthesizeOptions {
  readonly benign: readonly CorpusFile[];
  readonly siblings?: readonly CorpusFile[];
  /** Family name or verdict, part of the rule name. */
  readonly label?: string;
  /** Recorded in meta. */
  readonly verdict?: string;
  readonly score?: number;
  /** Strings to prefer (capability and family evidence). */
  readonly prefer?: ReadonlySet<string>;
  /** Most strings in the rule (default 8). */
  readonly maxStrings?: number;
}

const MIN_LENGTH = 6;
const MAX_LENGTH = 128;
const MAX_CANDIDATES = 96;
const MAX_HITS_LISTED = 100;

/** Strings worth a rule: long enough, with some letters, not just hex, digits or repeated characters. */
function plausible(value: string): boolean {
  if (value.length < MIN_LENGTH || value.length > MAX_LENGTH) return false;
  const letters = value.replace(/[^A-Za-z]/g, '').length;
  if (letters < 4) return false;
  if (/^[0-9A-Fa-f]+$/.test(value)) return false;
  if (new Set(value).size < 4) return false;
  return true;
}

interface Candidate {
  readonly value: string;
  ascii: boolean;
  wide: boolean;
  source: 'import' | 'string';
  siblingShare: number | null;
  preferred: boolean;
  /** Mostly letters, digits and spaces: text a programmer wrote rather than bytes that happen to be printable. */
  wordy: boolean;
}

function wordy(value: string): boolean {
  const plain = value.replace(/[^A-Za-z0-9 ]/g, '').length;
  return plain / value.length >= 0.75 && /[A-Za-z]{4}/.test(value);
}

function candidateString(c: Candidate, id: string): RuleString {
  return { id, bytes: new TextEncoder().encode(c.value), ascii: c.ascii, wide: c.wide, nocase: false, fullword: false };
}

/** `validate`: parses rule text and runs it over the benign corpus (specificity) and the siblings (coverage). */
export function validate(text: string, benign: readonly CorpusFile[], siblings?: readonly CorpusFile[]): RuleValidation {
  return validateRules(parse(text), benign, siblings);
}

export function validateRules(rules: readonly Rule[], benign: readonly CorpusFile[], siblings?: readonly CorpusFile[]): RuleValidation {
  const hits: { file: string; rules: string[] }[] = [];
  let hitCount = 0;
  for (const f of benign) {
    const matched = match(rules, f.bytes);
    if (matched.length === 0) continue;
    hitCount++;
    if (hits.length < MAX_HITS_LISTED) hits.push({ file: f.name, rules: matched });
  }
  let coverage: RuleValidation['coverage'] = null;
  if (siblings !== undefined && siblings.length > 0) {
    const matched = siblings.filter((s) => match(rules, s.bytes).length > 0).length;
    coverage = { matched, total: siblings.length, ratio: matched / siblings.length };
  }
  return {
    rules: rules.map((r) => r.name),
    benignHits: hits,
    benignHitCount: hitCount,
    benignCorpusSize: benign.length,
    specificity: benign.length > 0 ? 1 - hitCount / benign.length : null,
    coverage,
  };
}

function ruleName(label: string | undefined, sha256: string): string {
  const clean = (label ?? 'suspicious').toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 40);
  return `petriage_${clean}_${sha256.slice(0, 12)}`;
}

/**
 * `synthesize`: a rule for one file. Candidates are its strings (which include its import names, since the
 * hint/name table is text) of 6 to 128 characters, outside the headers, the certificate table and high-entropy
 * sections; a candidate that occurs in any benign file is dropped. With siblings, candidates most siblings share
 * come first; then preferred strings (capability and family evidence), word-like text, strings before import
 * names, longer before shorter. The condition is the MZ check
 * and half of the chosen strings (rounded up), so a sibling missing some still matches. Null when no string is
 * distinctive.
 */
export function synthesize(d: PeDissection, options: SynthesizeOptions): SynthesizedRule | null {
  const importNames = new Set<string>();
  for (const dll of [...d.imports, ...d.delay_imports]) for (const s of dll.symbols) if (s.name !== null) importNames.add(s.name);
  const headerEnd = d.optional_header.size_of_headers;
  const cert = d.certificate;
  const inCert = (offset: number): boolean => cert !== null && offset >= cert.offset && offset < cert.offset + cert.size;

  // Printable runs inside compressed or encrypted sections are chance, not text: they do not generalise to siblings.
  const noisy = d.sections.filter((s) => s.entropy !== null && s.entropy >= 7.2).map((s) => [s.raw_offset, s.raw_offset + s.raw_size] as const);
  const inNoise = (offset: number): boolean => noisy.some(([a, b]) => offset >= a && offset < b);

  const byValue = new Map<string, Candidate>();
  const add = (value: string, offset: number, wide: boolean): void => {
    if (offset < headerEnd || inCert(offset) || inNoise(offset) || !plausible(value)) return;
    const c = byValue.get(value) ?? { value, ascii: false, wide: false, source: importNames.has(value) ? 'import' : 'string', siblingShare: null, preferred: options.prefer?.has(value) === true, wordy: wordy(value) };
    if (wide) c.wide = true;
    else c.ascii = true;
    byValue.set(value, c);
  };
  for (const s of d.strings.ascii) add(s.value, s.offset, false);
  for (const s of d.strings.utf16le) add(s.value, s.offset, true);

  const siblings = options.siblings ?? [];
  const siblingTargets = siblings.map((s) => new ScanTarget(s.bytes));
  let candidates = [...byValue.values()];
  if (siblingTargets.length > 0) {
    for (const c of candidates) {
      const probe = candidateString(c, 'c');
      c.siblingShare = siblingTargets.filter((t) => stringMatches(probe, t)).length / siblingTargets.length;
    }
  }
  const rank = (c: Candidate): number[] => [c.siblingShare ?? 0, c.preferred ? 1 : 0, c.wordy ? 1 : 0, c.source === 'string' ? 1 : 0, Math.min(c.value.length, 40)];
  const byRank = (a: Candidate, b: Candidate): number => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return (rb[i] as number) - (ra[i] as number);
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  };
  candidates.sort(byRank);
  candidates = candidates.slice(0, MAX_CANDIDATES);

  // Specificity first: a string found in any benign file is not distinctive.
  const benignTargets = options.benign.map((f) => new ScanTarget(f.bytes));
  const distinctive = candidates.filter((c) => {
    const probe = candidateString(c, 'c');
    return !benignTargets.some((t) => stringMatches(probe, t));
  });
  // Strings that are not word-like (and no sibling shares) fill in only when fewer than three others exist.
  const strong = distinctive.filter((c) => c.wordy || c.preferred || (c.siblingShare ?? 0) > 0 || c.source === 'import');
  const weak = distinctive.filter((c) => !strong.includes(c));
  const chosen = [...strong, ...weak.slice(0, Math.max(0, 3 - strong.length))].slice(0, options.maxStrings ?? 8);
  if (chosen.length === 0) return null;

  const threshold = Math.ceil(chosen.length / 2);
  const strings = chosen.map((c, i) => candidateString(c, `s${i + 1}`));
  const name = ruleName(options.label, d.sha256);
  const meta: Record<string, string | number | boolean> = {
    author: 'petriage (synthesised)',
    description: 'Candidate rule synthesised by static triage; review before use',
    sha256: d.sha256,
  };
  if (options.verdict !== undefined) meta['verdict'] = options.verdict;
  if (options.score !== undefined) meta['score'] = options.score.toFixed(3);
  const rule: Rule = { name, tags: ['petriage'], meta, strings, condition: { kind: 'and', terms: [{ kind: 'mz' }, { kind: 'of', count: threshold }] } };
  const text = format(rule);
  // The text is what users get: validate what it parses back to, not the structure it was written from.
  const reparsed = parse(text);
  if (reparsed.length !== 1) throw new VitrineError('internal', 'a synthesised rule did not parse back');
  return {
    name,
    text,
    strings: chosen.map((c, i) => ({ id: `s${i + 1}`, value: c.value, encoding: c.ascii && c.wide ? 'ascii wide' : c.wide ? 'wide' : 'ascii', source: c.source, siblingShare: c.siblingShare })),
    threshold,
    validation: validateRules(reparsed, options.benign, siblings.length > 0 ? siblings : undefined),
  };
}

/** Whether the rule matches the file it was made from (a synthesised rule always should). */
export function matchesOwnFile(rule: SynthesizedRule, bytes: Uint8Array): boolean {
  const [r] = parse(rule.text);
  return r !== undefined && matchRule(r, bytes);
}
