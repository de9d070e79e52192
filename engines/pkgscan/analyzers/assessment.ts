// The analysis's own judgement of a release, independent of environment and policy: malicious, suspicious, clean, or unknown when the analysis could not complete; with the findings and chains it rests on.
import type { AttackChain, ScanAssessment, ScanFinding } from '../../core/contracts/pkgscan.js';
import { atLeast, MALICIOUS_CATEGORIES, SEVERITY_RANK as RANK } from '../vocabulary.js';
import { ATTACK_CHAIN_CODE } from './chains.js';

export { MALICIOUS_CATEGORIES };

/** Metadata of a throwaway release (a name close to a popular one, a first or placeholder version, one code file, no description, a disposable address): with one high malicious behaviour, the mark of a package made for the attack. */
const THROWAWAY: ReadonlySet<string> = new Set(['typosquat', 'release_zero', 'unusual_version', 'single_file_package', 'empty_description', 'disposable_email', 'deceptive_email_domain']);


export interface AssessmentInput {
  readonly findings: readonly ScanFinding[];
  readonly chains: readonly AttackChain[];
  readonly risk: { readonly score: number };
  /** False when the archive was not read to its end or an analyzer failed or timed out. */
  readonly complete: boolean;
  /** Advisories that name this release as a malicious package (a fact about the release, not a policy). */
  readonly maliciousAdvisories?: readonly string[];
}

const MAX_EVIDENCE = 20;

/** Lines within which medium findings of one file count as one piece of code (a few statements of one program). */
export const MEDIUM_CLUSTER_LINES = 30;

/** The most different codes among findings of one file that lie within MEDIUM_CLUSTER_LINES lines of each other. */
export function mediumCluster(findings: readonly ScanFinding[]): number {
  const byFile = new Map<string, { line: number; code: string }[]>();
  for (const f of findings) {
    if (f.file === null) continue;
    const list = byFile.get(f.file);
    if (list === undefined) byFile.set(f.file, [{ line: f.line ?? 0, code: f.code }]);
    else list.push({ line: f.line ?? 0, code: f.code });
  }
  let best = 0;
  for (const list of byFile.values()) {
    list.sort((a, b) => a.line - b.line);
    for (let i = 0; i < list.length; i++) {
      const codes = new Set<string>();
      for (let j = i; j < list.length && (list[j]?.line ?? 0) - (list[i]?.line ?? 0) <= MEDIUM_CLUSTER_LINES; j++) codes.add(list[j]?.code ?? '');
      best = Math.max(best, codes.size);
    }
  }
  return best;
}
const round2 = (x: number): number => Math.round(x * 100) / 100;

function evidence(findings: readonly ScanFinding[]): ScanAssessment['findings'] {
  const seen = new Set<string>();
  const out: ScanAssessment['findings'][number][] = [];
  for (const f of [...findings].sort((a, b) => RANK[b.severity] - RANK[a.severity])) {
    const key = `${f.code}\u0000${f.file ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code: f.code, severity: f.severity, category: f.category, title: f.title, file: f.file, line: f.line });
    if (out.length >= MAX_EVIDENCE) break;
  }
  return out;
}

/**
 * - malicious: an attack chain of high or critical severity, a critical finding of a malicious category, two
 *   different high findings of malicious categories, one such high finding backed (risk 0.75 or more) by a medium
 *   one of another malicious code or by throwaway-release metadata, or a malicious-package advisory;
 * - suspicious: otherwise a high finding of any kind, or three different medium findings of malicious categories
 *   that sit together (one file, within MEDIUM_CLUSTER_LINES lines) with a risk of 0.5 or more. Medium findings
 *   scattered over a large tool's modules (a package manager reads .npmrc in one, uses the registry token in
 *   another, publishes in a third) are what that tool does: no flow joins them, and the attack chains, which
 *   follow flows, found none;
 * - unknown: otherwise, when the analysis did not complete (nothing found does not mean clean);
 * - clean: otherwise.
 * Confidence (0..1) says how firmly the evidence carries the verdict; for `clean` it is lower when medium
 * findings were seen, for `unknown` it is 0.
 */
export function assessAnalysis(input: AssessmentInput): ScanAssessment {
  const findings = input.findings.filter((f) => f.code !== ATTACK_CHAIN_CODE);
  const chains = input.chains.filter((c) => atLeast(c.severity, 'high'));
  const maliciousHigh = findings.filter((f) => MALICIOUS_CATEGORIES.has(f.category) && atLeast(f.severity, 'high'));
  const critical = maliciousHigh.filter((f) => f.severity === 'critical');
  const distinctHigh = new Set(maliciousHigh.map((f) => f.code));
  const advisories = input.maliciousAdvisories ?? [];
  const risk = input.risk.score;
  // One high malicious behaviour is malicious when something else of a malicious kind backs it (a medium finding of
  // another code) and the whole risk is high: benign code rarely gives a high finding, almost never with company.
  const corroborated =
    distinctHigh.size === 1 &&
    risk >= 0.75 &&
    findings.some((f) => !distinctHigh.has(f.code) && ((MALICIOUS_CATEGORIES.has(f.category) && atLeast(f.severity, 'medium')) || (THROWAWAY.has(f.code) && atLeast(f.severity, 'low'))));
  if (chains.length > 0 || critical.length > 0 || distinctHigh.size >= 2 || corroborated || advisories.length > 0) {
    const strength = (chains.length > 0 ? 0.15 : 0) + (critical.length > 0 ? 0.1 : 0) + (advisories.length > 0 ? 0.2 : 0) + 0.25 * risk;
    return {
      verdict: 'malicious',
      confidence: round2(Math.min(0.99, 0.6 + strength)),
      summary: advisories.length > 0 && chains.length === 0 && maliciousHigh.length === 0 ? 'an advisory names this release as malicious' : chains.length > 0 ? `${chains.length} attack chain(s): ${chains[0]?.title ?? ''}` : `${distinctHigh.size} kind(s) of malicious behaviour`,
      findings: evidence(maliciousHigh.length > 0 ? maliciousHigh : findings.filter((f) => atLeast(f.severity, 'high'))),
      chains: chains.map((c) => ({ title: c.title, severity: c.severity, technique: c.technique })),
      advisories: [...advisories].slice(0, MAX_EVIDENCE),
    };
  }
  const high = findings.filter((f) => atLeast(f.severity, 'high'));
  const maliciousMedium = findings.filter((f) => MALICIOUS_CATEGORIES.has(f.category) && f.severity === 'medium');
  const distinctMedium = new Set(maliciousMedium.map((f) => f.code)).size;
  if (high.length > 0 || (distinctMedium >= 3 && risk >= 0.5 && mediumCluster(maliciousMedium) >= 3)) {
    const basis = high.length > 0 ? high : maliciousMedium.length > 0 ? maliciousMedium : findings.filter((f) => atLeast(f.severity, 'medium'));
    return {
      verdict: 'suspicious',
      confidence: round2(Math.min(0.9, 0.45 + 0.4 * risk)),
      summary: high.length > 0 ? `${new Set(high.map((f) => f.code)).size} kind(s) of high-severity finding` : `several kinds of malicious behaviour together in one file (risk ${risk.toFixed(2)})`,
      findings: evidence(basis),
      chains: input.chains.map((c) => ({ title: c.title, severity: c.severity, technique: c.technique })),
      advisories: [],
    };
  }
  if (!input.complete) {
    return { verdict: 'unknown', confidence: 0, summary: 'the analysis could not complete (the archive was not read to its end, or an analyzer did not finish)', findings: evidence(findings.filter((f) => atLeast(f.severity, 'medium'))), chains: [], advisories: [] };
  }
  const medium = findings.filter((f) => atLeast(f.severity, 'medium'));
  return {
    verdict: 'clean',
    confidence: round2(medium.length === 0 ? 0.9 - 0.3 * risk : Math.max(0.5, 0.75 - 0.5 * risk)),
    summary: medium.length === 0 ? 'no malicious behaviour found' : 'no malicious behaviour found; some findings need a look',
    findings: evidence(medium),
    chains: [],
    advisories: [],
  };
}
