// `analyze`: one PE's triage result: dissection, capabilities, features, verdict and score with attributions, family, notes and a candidate rule.
import { VitrineError } from '../core/errors.js';
import { authenticode } from './authenticode/verify.js';
import type { AuthenticodeResult } from './authenticode/types.js';
import { capabilitiesOf, loadCapabilityRules, type Capability, type CapabilityRules } from './capabilities.js';
import { shannonEntropy } from './entropy.js';
import { explainFamilies, taggedImports, type Explanation, type TaggedImport } from './explain.js';
import { familyScores, fileTokens, FAMILY_MIN_SIMILARITY, type FamilyAttribution } from './family.js';
import { featurize, FEATURE_LAYOUT, FEATURE_NAMES, groupOf, type FeatureGroupName } from './features.js';
import type { ModelExplanation, TriageModel } from './model.js';
import { dissect } from './pe/index.js';
import type { PeDissection } from './pe/types.js';
import type { TriageString as ListedString } from '../core/contracts/petriage.js';
import { synthesize, type CorpusFile, type SynthesizedRule } from './rulegen.js';

/** Files larger than this are not analysed (spec: over 128 MiB skipped). */
export const MAX_FILE_BYTES = 128 * 1024 * 1024;

/**
 * Below the suspicious threshold the verdict is BENIGN (the spec leaves it open): it means "the model found
 * nothing that reaches the suspicious threshold", not that the file is known to be safe.
 */
export type Verdict = 'MALICIOUS' | 'SUSPICIOUS' | 'BENIGN';

export interface Driver {
  readonly feature: string;
  readonly group: FeatureGroupName;
  /** The feature's raw value in this file. */
  readonly value: number;
  /** Contribution to the margin (log-odds); positive pushes towards malicious. */
  readonly contribution: number;
  /** For a hashed slot, this file's tokens that fell into it (imports `lib:func`, export and section names). */
  readonly tokens?: readonly string[];
}

export interface Drivers {
  /** How the contributions are computed (exact linear attribution, or TreeSHAP for the boosted model). */
  readonly method: string;
  /** The margin before any feature: baseValue + sum of all contributions = margin. */
  readonly baseValue: number;
  readonly margin: number;
  /** The largest contributions by magnitude, at most MAX_DRIVERS. */
  readonly items: readonly Driver[];
  /** Sum of the contributions of the features not listed. */
  readonly rest: number;
}

/** A string of the file as the result lists it: the contract's type. */
export type { TriageString as ListedString } from '../core/contracts/petriage.js';

/** Strings listed in a result (both encodings, by offset), and the length each is cut to. */
export const MAX_LISTED_STRINGS = 5000;
export const MAX_LISTED_STRING_LENGTH = 512;

/**
 * The dissection as the result carries it: the string lists merged by offset and capped (MAX_LISTED_STRINGS), with the full counts;
 * the overlay with the entropy of its bytes, and the headers' entropy (the stretch before the first section's data).
 */
export type PeSummary = Omit<PeDissection, 'strings' | 'overlay'> & {
  readonly overlay: { readonly offset: number; readonly size: number; readonly entropy: number } | null;
  readonly headers_entropy: number;
  readonly strings: {
    readonly ascii: number;
    readonly utf16le: number;
    readonly truncated: boolean;
    readonly items: readonly ListedString[];
    /** True when more strings were found than are listed. */
    readonly items_truncated: boolean;
  };
};

export interface TriageResult {
  readonly sha256: string;
  readonly size: number;
  readonly verdict: Verdict;
  readonly score: number;
  readonly model: { readonly type: string; readonly format: string; readonly sha256: string | null; readonly featureLayout: string };
  readonly thresholds: { readonly malicious: number; readonly suspicious: number };
  readonly drivers: Drivers;
  readonly capabilities: readonly Capability[];
  /** The nearest known family when similar enough (FAMILY_MIN_SIMILARITY), with the shared evidence. */
  readonly family: FamilyAttribution | null;
  /** Every known family's similarity, best first (at most 5). */
  readonly familyScores: readonly FamilyAttribution[];
  readonly notes: readonly string[];
  /** A candidate rule for a non-benign verdict when a benign corpus is given, validated against it. */
  readonly rule: SynthesizedRule | null;
  /** The Authenticode signatures of the certificate table; null when the file has none. Signatures are checked against the file, not against a trust store. */
  readonly authenticode: AuthenticodeResult | null;
  /** The drivers summed into named families with the file's own evidence (imports of a capability, section entropy, strings, ...). */
  readonly explanation: Explanation;
  /** Imported functions that a capability rule names, with the rules' tags. */
  readonly importTags: readonly TaggedImport[];
  readonly pe: PeSummary;
}

export interface AnalyzeOptions {
  /** The benign corpus rules are validated against; without it no rule is synthesised. */
  readonly benign?: readonly CorpusFile[];
  /** Suspected same-family samples, for the rule's coverage. */
  readonly siblings?: readonly CorpusFile[];
  readonly capabilityRules?: CapabilityRules;
}

export const MAX_DRIVERS = 12;

export function verdictOf(score: number, thresholds: { readonly malicious: number; readonly suspicious: number }): Verdict {
  if (score >= thresholds.malicious) return 'MALICIOUS';
  if (score >= thresholds.suspicious) return 'SUSPICIOUS';
  return 'BENIGN';
}

function round(x: number, digits = 6): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function drivers(e: ModelExplanation, model: TriageModel, values: Float64Array, tokens: ReadonlyMap<number, readonly string[]>): { score: number; drivers: Drivers } {
  const order = [...e.contributions.keys()].filter((i) => e.contributions[i] !== 0).sort((a, b) => Math.abs(e.contributions[b] as number) - Math.abs(e.contributions[a] as number) || a - b);
  const top = order.slice(0, MAX_DRIVERS);
  let rest = 0;
  for (const i of order.slice(MAX_DRIVERS)) rest += e.contributions[i] as number;
  const items = top.map((i): Driver => {
    const t = tokens.get(i);
    return { feature: FEATURE_NAMES[i] as string, group: groupOf(i), value: values[i] as number, contribution: round(e.contributions[i] as number), ...(t ? { tokens: t } : {}) };
  });
  return { score: e.score, drivers: { method: model.attribution, baseValue: round(e.baseValue), margin: round(e.margin), items, rest: round(rest) } };
}

/** Static observations worth an analyst's attention, in our words (never text from the file). */
function triageNotes(d: PeDissection, ac: AuthenticodeResult | null): string[] {
  const notes: string[] = [];
  for (const s of d.sections) {
    if (s.flags.includes('MEM_WRITE') && s.flags.includes('MEM_EXECUTE')) notes.push(`section ${s.index} is writable and executable`);
    if (s.entropy !== null && s.entropy >= 7.2 && s.raw_size >= 1024) notes.push(`section ${s.index} has entropy ${s.entropy.toFixed(2)} bits per byte: compressed or encrypted data`);
  }
  if (d.entry_point.section === null && d.entry_point.rva !== 0) notes.push('the entry point is outside every section');
  if (d.imports.length === 0 && d.delay_imports.length === 0 && !d.clr) notes.push('no imports: APIs, if any, are resolved at run time');
  if (d.overlay) notes.push(`overlay of ${d.overlay.size} bytes after the last section${d.certificate ? ' (includes the certificate table)' : ''}`);
  if (d.tls && d.tls.callbacks.length > 0) notes.push(`${d.tls.callbacks.length} TLS callback(s) run before the entry point`);
  if (d.optional_header.checksum !== 0 && d.optional_header.checksum !== d.optional_header.checksum_computed) notes.push('the PE checksum does not match the file');
  if (d.rich_header && !d.rich_header.checksum_valid) notes.push('the Rich header checksum does not match');
  if (d.certificate) notes.push(...signatureNotes(ac));
  for (const n of d.notes) notes.push(`structure: ${n}`);
  return notes;
}

/** Authenticode in a sentence or two: what the signature proves about this file (no trust store: a valid chain is not a trusted one). */
function signatureNotes(ac: AuthenticodeResult | null): string[] {
  if (ac === null || ac.signatures.length === 0) return ['a certificate table is present but holds no signature that could be read'];
  const notes: string[] = [];
  for (const s of ac.signatures) {
    const who = s.signer ? `"${s.signer.name.slice(0, 120)}"` : 'an unknown signer';
    const which = s.nested ? 'nested signature' : 'signature';
    if (s.status === 'unreadable') notes.push(`a ${which} could not be read`);
    else if (s.status === 'digest_mismatch') notes.push(`${which} by ${who} does not match the file: it was changed after signing, or the signature was copied from another file`);
    else if (s.status === 'bad_signature') notes.push(`${which} by ${who} does not verify (signature or certificate chain broken)`);
    else {
      const chain = s.chain_complete ? (s.chain.length === 1 ? 'self-signed' : 'chain ends at a self-signed root') : 'chain incomplete';
      const ts = s.timestamp ? `, timestamped ${s.timestamp.time ?? '(time unreadable)'}` : ', no timestamp';
      notes.push(`${which} by ${who} matches the file (${s.status === 'intact' ? 'digest and signature verify' : 'digest matches, part unverified'}; ${chain}${ts}; not checked against a trust store)`);
      if (s.signer?.valid_at_signing === false) notes.push(`the signer certificate was not valid at the ${s.timestamp ? 'timestamp' : 'claimed signing time'}`);
    }
  }
  for (const w of ac.warnings) notes.push(`certificate table: ${w}`);
  return notes;
}

function summary(d: PeDissection, data: Uint8Array): PeSummary {
  const items: ListedString[] = [];
  const cut = (v: string): string => (v.length > MAX_LISTED_STRING_LENGTH ? `${v.slice(0, MAX_LISTED_STRING_LENGTH - 1)}…` : v);
  const a = d.strings.ascii;
  const w = d.strings.utf16le;
  let i = 0;
  let j = 0;
  while (items.length < MAX_LISTED_STRINGS && (i < a.length || j < w.length)) {
    const x = a[i];
    const y = w[j];
    if (y === undefined || (x !== undefined && x.offset <= y.offset)) {
      items.push({ offset: (x as { offset: number }).offset, encoding: 'ascii', value: cut((x as { value: string }).value) });
      i++;
    } else {
      items.push({ offset: y.offset, encoding: 'utf16le', value: cut(y.value) });
      j++;
    }
  }
  const total = a.length + w.length;
  const firstData = Math.min(data.length, ...d.sections.filter((x) => x.raw_size > 0).map((x) => x.raw_offset));
  return {
    ...d,
    overlay: d.overlay ? { ...d.overlay, entropy: round(shannonEntropy(data, d.overlay.offset, d.overlay.offset + d.overlay.size), 4) } : null,
    headers_entropy: round(shannonEntropy(data, 0, firstData), 4),
    strings: { ascii: a.length, utf16le: w.length, truncated: d.strings.truncated, items, items_truncated: total > items.length },
  };
}

/** Analyses a dissected file (its bytes are needed for the histograms). */
export function analyzeDissection(d: PeDissection, data: Uint8Array, model: TriageModel, options: AnalyzeOptions = {}): TriageResult {
  if (model.featureLayout !== FEATURE_LAYOUT) throw new VitrineError('validation_failed', 'the model was trained on another feature layout');
  const rules = options.capabilityRules ?? loadCapabilityRules();
  const capabilities = capabilitiesOf(d, rules);
  const features = featurize(d, data);
  const e = model.explain(features.values);
  const { score, drivers: explained } = drivers(e, model, features.values, features.tokens);
  const signatures = authenticode(data, d);
  const verdict = verdictOf(score, model.thresholds);
  const scores = familyScores(model.families, fileTokens(d));
  const best = scores[0];
  const family = best !== undefined && best.similarity >= FAMILY_MIN_SIMILARITY ? best : null;
  const notes = triageNotes(d, signatures);

  let rule: SynthesizedRule | null = null;
  if (verdict !== 'BENIGN') {
    if (options.benign === undefined) notes.push('no benign corpus configured: no candidate rule');
    else {
      const prefer = new Set<string>();
      for (const c of capabilities) for (const e of c.evidence) if (e.kind !== 'import') prefer.add(e.value);
      for (const e of family?.evidence ?? []) if (e.kind === 'string') prefer.add(e.value);
      rule = synthesize(d, { benign: options.benign, ...(options.siblings ? { siblings: options.siblings } : {}), label: family?.name ?? verdict.toLowerCase(), verdict, score, prefer });
      if (rule === null) notes.push('no string of this file is absent from the benign corpus: no candidate rule');
    }
  }
  return {
    sha256: d.sha256,
    size: d.size,
    verdict,
    score: round(score),
    model: { type: model.type, format: model.format, sha256: model.sha256, featureLayout: model.featureLayout },
    thresholds: model.thresholds,
    drivers: explained,
    capabilities,
    family,
    familyScores: scores.slice(0, 5),
    notes,
    rule,
    authenticode: signatures,
    explanation: explainFamilies({ contributions: e.contributions, values: features.values, tokens: features.tokens, dissection: d, capabilities, rules, authenticode: signatures }),
    importTags: taggedImports(d, rules),
    pe: summary(d, data),
  };
}

/** `analyze`: the triage result of a file's bytes; a parse error when they are not a parseable PE. */
export function analyze(data: Uint8Array, model: TriageModel, options: AnalyzeOptions = {}): TriageResult {
  if (data.length > MAX_FILE_BYTES) throw new VitrineError('payload_too_large', 'the file is over 128 MiB');
  return analyzeDissection(dissect(data), data, model, options);
}
