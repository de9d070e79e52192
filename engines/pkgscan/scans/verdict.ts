// The verdict of a package scan: the analysis, the vulnerability assessment and the active policy with its exceptions, into decision, severity, risk and reasons. Pure: no store, no clock.
import type { Decision, PolicyGap, ScanFinding, ScanVerdict, Severity, VerdictReason, VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';
import { assessAnalysis } from '../analyzers/assessment.js';
import { evaluatePolicy, type ApplicableException, type PolicyReason } from '../policies/evaluate.js';
import type { PolicyDocument } from '../policies/schema.js';
import { modelRiskContribution } from '../ml/model.js';
import { SEVERITIES, SOURCE_INSTALL_HOOKS } from '../vocabulary.js';
import type { PackageAnalysis } from './types.js';

export interface VerdictInput {
  readonly id: string;
  readonly environment: string;
  readonly analysis: PackageAnalysis;
  readonly vulnerabilities: VulnerabilityAssessment;
  readonly policy: { readonly id: string; readonly name: string; readonly hash: string; readonly document: PolicyDocument };
  readonly exceptions: readonly ApplicableException[];
  readonly source: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly durationMs: number;
  /** The risk model's score (0..1), null without a usable model. */
  readonly modelScore?: number | null;
  /** An earlier stored release of the package had verified provenance (this one then needs it too). */
  readonly earlierVerifiedProvenance?: boolean;
}

const worse = (a: Severity, b: Severity): Severity => (SEVERITIES.indexOf(a) >= SEVERITIES.indexOf(b) ? a : b);

/** Weight of an advisory in the vulnerabilities dimension: known exploitation outranks any score. */
function advisoryWeight(a: VulnerabilityAssessment['items'][number]): number {
  if (a.kev || a.malicious) return 1;
  const bySeverity: Record<Severity, number> = { info: 0.05, low: 0.2, medium: 0.4, high: 0.7, critical: 0.9 };
  return Math.max(bySeverity[a.severity], a.epss !== null ? Math.min(1, a.epss * 2) : 0);
}

/** Provenance weighs in only when it is contradicted: absence is common and is the policy's business. */
function provenanceWeight(status: PackageAnalysis['provenance']['status']): number {
  return status === 'invalid' ? 1 : 0;
}

/** One row per rule (and effect and waiver): the reasons of one rule over many findings are one row with their subjects. */
export function groupReasons(rs: readonly PolicyReason[]): VerdictReason[] {
  const rows = new Map<string, { first: PolicyReason; subjects: string[]; count: number }>();
  for (const r of rs) {
    const key = `${r.rule}\u0000${r.effect}\u0000${r.waived_by ?? ''}`;
    const row = rows.get(key);
    if (row === undefined) rows.set(key, { first: r, subjects: r.subject !== undefined ? [r.subject] : [], count: 1 });
    else {
      row.count += 1;
      if (r.subject !== undefined && !row.subjects.includes(r.subject)) row.subjects.push(r.subject);
    }
  }
  return [...rows.values()].map(({ first, subjects, count }) => ({
    rule: first.rule,
    kind: first.kind,
    effect: first.effect,
    subject: first.subject ?? null,
    subjects,
    count,
    message: count === 1 ? first.message : groupMessage(first, subjects, count),
    waived_by: first.waived_by ?? null,
  }));
}

function groupMessage(r: PolicyReason, subjects: readonly string[], count: number): string {
  const list = subjects.slice(0, 8).join(', ') + (subjects.length > 8 ? `, and ${subjects.length - 8} more` : '');
  switch (r.rule) {
    case 'findings.block':
      return `${count} findings of blocking codes: ${list}`;
    case 'findings.warn':
      return `${count} findings of warning codes: ${list}`;
    case 'thresholds.block_severity':
    case 'thresholds.warn_severity':
      return `${count} findings at or above the ${r.rule === 'thresholds.block_severity' ? 'blocking' : 'warning'} severity: ${list}`;
    default:
      return `${count} ${r.kind === 'vulnerability' ? 'advisories' : 'items'}: ${list}`;
  }
}

/** The policy's gaps: what it could not judge, and what to do so it can. */
function gapsOf(reasons: readonly PolicyReason[], ecosystem: string): PolicyGap[] {
  const gaps: PolicyGap[] = [];
  const unassessed = reasons.find((r) => r.kind === 'vulnerabilities_unassessed');
  if (unassessed !== undefined)
    gaps.push({
      kind: 'advisories_missing',
      effect: unassessed.effect,
      message: 'advisories were not assessed: the advisory store has no (or incomplete) data for this ecosystem',
      what_to_do: 'import an advisory snapshot (pkgscan advisories import, or Vulnerabilities > Import) and scan again',
    });
  const missing = reasons.find((r) => r.rule === 'provenance.missing');
  if (missing !== undefined)
    gaps.push({
      kind: 'provenance_missing',
      effect: missing.effect,
      message: 'no verified provenance: no attestation came with this release',
      what_to_do:
        ecosystem === 'npm'
          ? 'save the registry attestations document of name@version next to the tarball as <tarball>.attestations.json and import both (or scan through an npm mirror that serves attestations)'
          : 'save the PEP 740 provenance object of the file next to it as <file>.provenance and import both',
    });
  return gaps;
}

/** What did not complete: `archive` when it was not read to its end, then each analyzer that failed or timed out, with the words for it. */
function incompleteParts(a: Pick<PackageAnalysis, 'complete' | 'runs'>): { subject: string; says: string }[] {
  const parts = a.complete ? [] : [{ subject: 'archive', says: 'the archive was not read to its end' }];
  for (const r of a.runs) {
    if (r.status === 'failed') parts.push({ subject: r.name, says: `analyzer ${r.name} failed` });
    else if (r.status === 'timed_out') parts.push({ subject: r.name, says: `analyzer ${r.name} timed out` });
  }
  return parts;
}

/** The reason an incomplete analysis warns: not a policy rule, so no exception waives it. */
function incompleteReason(parts: readonly { subject: string; says: string }[]): VerdictReason {
  const subjects = [...new Set(parts.map((p) => p.subject))];
  return {
    rule: 'analysis.incomplete',
    kind: 'analysis_incomplete',
    effect: 'warn',
    subject: subjects[0] ?? null,
    subjects,
    count: parts.length,
    message: `the analysis is incomplete: ${parts.map((p) => p.says).join('; ')}`,
    waived_by: null,
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The verdict: risk with provenance and vulnerabilities weighed in, the policy's decision and reasons, the worst unwaived severity. */
export function buildVerdict(input: VerdictInput): ScanVerdict {
  const a = input.analysis;
  const vulnDimension = input.vulnerabilities.items.reduce((m, x) => Math.max(m, advisoryWeight(x)), 0);
  const provDimension = provenanceWeight(a.provenance.status);
  const dimensions: Record<string, number> = { ...a.risk.dimensions, provenance: provDimension, vulnerabilities: round3(vulnDimension) };
  const model = input.modelScore ?? null;
  if (model !== null) dimensions['model'] = round3(model);
  const risk = round3(Math.max(a.risk.score, 0.9 * vulnDimension, 0.7 * provDimension, model !== null ? modelRiskContribution(model) : 0));
  const evaluation = evaluatePolicy(
    input.policy.document,
    input.policy.hash,
    {
      findings: a.findings.map((f) => ({ code: f.code, severity: f.severity, ...(f.file !== null ? { file: f.file } : {}) })),
      risk: { score: risk, dimensions },
      vulnerabilities: {
        status: input.vulnerabilities.status,
        items: input.vulnerabilities.items.map((x) => ({ id: x.id, severity: x.severity, kev: x.kev, ...(x.epss !== null ? { epss: x.epss } : {}) })),
      },
      provenance: { verified: a.provenance.status === 'verified', status: a.provenance.status, downgrade: input.earlierVerifiedProvenance === true && a.provenance.status !== 'verified' },
      licenses: a.metadata.license !== undefined ? [a.metadata.license] : [],
    },
    input.exceptions,
  );
  // An incomplete analysis (archive not read to its end, an analyzer failed or timed out) is never allow, and says what did not complete.
  const notCompleted = incompleteParts(a);
  const incomplete = notCompleted.length > 0;
  let decision: Decision = evaluation.decision;
  if (incomplete && decision === 'allow') decision = 'warn';
  const reasons = incomplete ? [...groupReasons(evaluation.reasons), incompleteReason(notCompleted)] : groupReasons(evaluation.reasons);
  const waivedFindings = new Set(evaluation.waived.filter((r) => r.kind === 'finding').map((r) => r.subject));
  let severity: Severity = 'info';
  for (const f of a.findings) if (!waivedFindings.has(f.code)) severity = worse(severity, f.severity);
  const waivedAdvisories = new Set(evaluation.waived.filter((r) => r.kind === 'vulnerability').map((r) => r.subject));
  for (const x of input.vulnerabilities.items) if (!waivedAdvisories.has(x.id)) severity = worse(severity, x.kev ? worse('high', x.severity) : x.severity);
  const perFile = new Map<string, number>();
  for (const f of a.findings) if (f.file !== null) perFile.set(f.file, (perFile.get(f.file) ?? 0) + 1);
  const m = a.metadata;
  const person = (p: { name?: string; email?: string } | undefined): string | null => (p === undefined ? null : [p.name, p.email !== undefined ? `<${p.email}>` : undefined].filter((x) => x !== undefined && x !== '').join(' ') || null);
  const installScripts: Record<string, string> = {};
  for (const hook of SOURCE_INSTALL_HOOKS) if (m.scripts[hook] !== undefined) installScripts[hook] = m.scripts[hook];
  const assessment = assessAnalysis({
    findings: a.findings,
    chains: a.chains,
    risk: a.risk,
    complete: !incomplete,
    maliciousAdvisories: input.vulnerabilities.items.filter((x) => x.malicious).map((x) => x.id),
  });
  return {
    id: input.id,
    ecosystem: a.ecosystem,
    name: a.name,
    version: a.version,
    environment: input.environment,
    assessment,
    decision,
    gaps: gapsOf(evaluation.reasons, a.ecosystem),
    severity,
    risk_score: risk,
    risk_dimensions: dimensions,
    incomplete,
    findings: sortFindings(a.findings),
    attack_chains: a.chains,
    analyzer_runs: a.runs,
    provenance: a.provenance,
    vulnerabilities: input.vulnerabilities,
    policy: { id: input.policy.id, name: input.policy.name, hash: input.policy.hash },
    policy_reasons: reasons,
    waived_reasons: groupReasons(evaluation.waived),
    exceptions_applied: [...new Set(evaluation.waived.map((r) => r.waived_by).filter((x): x is string => x !== undefined))],
    package: {
      filename: a.filename,
      sha256: a.sha256,
      size: a.size,
      source: input.source,
      kind: a.kind,
      description: m.description ?? null,
      license: m.license ?? null,
      author: person(m.author),
      maintainers: m.maintainers.map(person).filter((x): x is string => x !== null),
      install_scripts: installScripts,
      dependencies: m.dependencies,
      published: a.registry?.published?.[a.version] ?? null,
    },
    files: a.files.map((f) => ({ ...f, findings: perFile.get(f.path) ?? 0 })),
    files_total: a.files_total,
    files_truncated: a.files_total > a.files.length,
    analyzer_version: analyzerVersion(a),
    created_at: input.createdAt,
    created_by: input.createdBy,
    duration_ms: input.durationMs,
  };
}

/** Worst first, then by file and line. */
export function sortFindings(findings: readonly ScanFinding[]): ScanFinding[] {
  return [...findings].sort(
    (x, y) => SEVERITIES.indexOf(y.severity) - SEVERITIES.indexOf(x.severity) || (x.file ?? '').localeCompare(y.file ?? '') || (x.line ?? 0) - (y.line ?? 0) || x.code.localeCompare(y.code),
  );
}

/** The analyzers and versions that made the analysis, e.g. `metadata@1.0.0+source-rules@1.2.0`: a diff is stored per analyzer version. */
export function analyzerVersion(a: Pick<PackageAnalysis, 'runs'>): string {
  return a.runs
    .map((r) => `${r.name}@${r.version}`)
    .sort()
    .join('+');
}
