// The policy decision: findings, risk dimensions, vulnerabilities (KEV, EPSS), provenance and licences against a policy, with exceptions, to allow/warn/block and its reasons.
import type { Decision } from '../../core/contracts/pkgscan.js';
import { sevIndex, type PolicyDocument, type PolicySeverity } from './schema.js';

export interface EvaluationInput {
  readonly findings?: readonly { readonly code: string; readonly severity: PolicySeverity; readonly file?: string }[];
  readonly risk?: { readonly score?: number; readonly dimensions?: Readonly<Record<string, number>> };
  /** status `ok` means assessed; `partial` and `unavailable` mean unknown, never "no vulnerabilities". */
  readonly vulnerabilities?: {
    readonly status: 'ok' | 'partial' | 'unavailable';
    readonly items: readonly { readonly id: string; readonly severity: PolicySeverity; readonly kev?: boolean; readonly epss?: number }[];
  };
  /** `status` as the verifier gives it (absent it reads from `verified`); `downgrade` when an earlier release had verified provenance and this one has none. */
  readonly provenance?: { readonly verified: boolean; readonly status?: 'verified' | 'absent' | 'invalid' | 'unavailable'; readonly downgrade?: boolean };
  readonly licenses?: readonly string[];
}

export type ReasonKind = 'finding' | 'risk' | 'risk_dimension' | 'vulnerability' | 'vulnerabilities_unassessed' | 'provenance' | 'license';

export interface PolicyReason {
  readonly rule: string;
  readonly kind: ReasonKind;
  readonly effect: 'warn' | 'block';
  /** The finding code, advisory id, dimension or licence the reason is about. */
  readonly subject?: string;
  readonly message: string;
  /** The exception that waives it, when one applies. */
  readonly waived_by?: string;
}

/** An approved, unexpired exception already matched to the package and version being decided. */
export interface ApplicableException {
  readonly id: string;
  /** `package` (every reason), `finding:<code>`, `vulnerability:<id>`, `license:<id>`. */
  readonly scope: string;
}

export interface Evaluation {
  readonly decision: Decision;
  readonly reasons: readonly PolicyReason[];
  readonly waived: readonly PolicyReason[];
  readonly policy_hash: string;
}

const at = (s: PolicySeverity, threshold: PolicySeverity | undefined): boolean => threshold !== undefined && sevIndex(s) >= sevIndex(threshold);

function waiverFor(reason: PolicyReason, exceptions: readonly ApplicableException[]): string | undefined {
  for (const e of exceptions) {
    if (e.scope === 'package') return e.id;
    const [kind, subject] = [e.scope.slice(0, e.scope.indexOf(':')), e.scope.slice(e.scope.indexOf(':') + 1)];
    if (subject === '' || reason.subject !== subject) continue;
    if (kind === 'finding' && reason.kind === 'finding') return e.id;
    if (kind === 'vulnerability' && reason.kind === 'vulnerability') return e.id;
    if (kind === 'license' && reason.kind === 'license') return e.id;
  }
  return undefined;
}

/** Decides under `policy` (hash `policyHash`). Pure: no store, no clock. */
export function evaluatePolicy(policy: PolicyDocument, policyHash: string, input: EvaluationInput, exceptions: readonly ApplicableException[] = []): Evaluation {
  const all: PolicyReason[] = [];
  const t = policy.thresholds;
  const ignore = new Set(policy.findings?.ignore ?? []);
  const blockCodes = new Set(policy.findings?.block ?? []);
  const warnCodes = new Set(policy.findings?.warn ?? []);
  for (const f of input.findings ?? []) {
    if (ignore.has(f.code)) continue;
    if (blockCodes.has(f.code)) all.push({ rule: 'findings.block', kind: 'finding', effect: 'block', subject: f.code, message: `finding ${f.code} is listed as blocking` });
    else if (warnCodes.has(f.code)) all.push({ rule: 'findings.warn', kind: 'finding', effect: 'warn', subject: f.code, message: `finding ${f.code} is listed as a warning` });
    else if (at(f.severity, t.block_severity))
      all.push({ rule: 'thresholds.block_severity', kind: 'finding', effect: 'block', subject: f.code, message: `finding ${f.code} has severity ${f.severity}, at or above ${t.block_severity}` });
    else if (at(f.severity, t.warn_severity))
      all.push({ rule: 'thresholds.warn_severity', kind: 'finding', effect: 'warn', subject: f.code, message: `finding ${f.code} has severity ${f.severity}, at or above ${t.warn_severity}` });
  }
  const score = input.risk?.score;
  if (score !== undefined) {
    if (score >= t.block_risk) all.push({ rule: 'thresholds.block_risk', kind: 'risk', effect: 'block', message: `risk ${score.toFixed(2)} is at or above ${t.block_risk}` });
    else if (score >= t.warn_risk) all.push({ rule: 'thresholds.warn_risk', kind: 'risk', effect: 'warn', message: `risk ${score.toFixed(2)} is at or above ${t.warn_risk}` });
  }
  for (const [dim, value] of Object.entries(input.risk?.dimensions ?? {})) {
    const limits = policy.risk_dimensions?.[dim];
    if (!limits) continue;
    if (limits.block !== undefined && value >= limits.block)
      all.push({ rule: `risk_dimensions.${dim}.block`, kind: 'risk_dimension', effect: 'block', subject: dim, message: `risk dimension ${dim} is ${value.toFixed(2)}, at or above ${limits.block}` });
    else if (limits.warn !== undefined && value >= limits.warn)
      all.push({ rule: `risk_dimensions.${dim}.warn`, kind: 'risk_dimension', effect: 'warn', subject: dim, message: `risk dimension ${dim} is ${value.toFixed(2)}, at or above ${limits.warn}` });
  }
  const v = policy.vulnerabilities ?? {};
  const vulns = input.vulnerabilities;
  if (vulns === undefined || vulns.status !== 'ok') {
    const effect = v.unassessed ?? 'warn';
    if (effect !== 'allow')
      all.push({ rule: 'vulnerabilities.unassessed', kind: 'vulnerabilities_unassessed', effect, message: `vulnerabilities were not fully assessed (${vulns?.status ?? 'not looked up'})` });
  }
  for (const a of vulns?.items ?? []) {
    const base = { kind: 'vulnerability' as const, subject: a.id };
    if (a.kev === true && (v.block_kev ?? true)) all.push({ ...base, rule: 'vulnerabilities.block_kev', effect: 'block', message: `${a.id} is in the known-exploited catalogue` });
    else if (a.epss !== undefined && v.epss_block !== undefined && a.epss >= v.epss_block)
      all.push({ ...base, rule: 'vulnerabilities.epss_block', effect: 'block', message: `${a.id} has exploit probability ${a.epss.toFixed(3)}, at or above ${v.epss_block}` });
    else if (at(a.severity, v.block_severity)) all.push({ ...base, rule: 'vulnerabilities.block_severity', effect: 'block', message: `${a.id} has severity ${a.severity}` });
    else if (a.epss !== undefined && v.epss_warn !== undefined && a.epss >= v.epss_warn)
      all.push({ ...base, rule: 'vulnerabilities.epss_warn', effect: 'warn', message: `${a.id} has exploit probability ${a.epss.toFixed(3)}, at or above ${v.epss_warn}` });
    else if (at(a.severity, v.warn_severity)) all.push({ ...base, rule: 'vulnerabilities.warn_severity', effect: 'warn', message: `${a.id} has severity ${a.severity}` });
  }
  const prov = input.provenance;
  const pp = policy.provenance;
  const status = prov?.status ?? (prov?.verified === true ? 'verified' : 'absent');
  const push = (rule: string, e: 'allow' | 'warn' | 'block', message: string, subject: string): void => {
    if (e !== 'allow') all.push({ rule, kind: 'provenance', effect: e, subject, message });
  };
  if (status === 'invalid') push('provenance.invalid', pp?.invalid ?? 'block', 'provenance failed verification (an attestation or registry signature does not hold)', 'invalid');
  else if (status !== 'verified') {
    if (prov?.downgrade === true) push('provenance.downgrade', pp?.downgrade ?? 'block', 'an earlier release of this package had verified provenance and this one has none', 'downgrade');
    else if (pp?.require === true) push('provenance.missing', pp.missing ?? 'warn', status === 'unavailable' ? 'provenance could not be checked here' : 'no verified provenance', 'missing');
  }
  const deny = new Set((policy.licenses?.deny ?? []).map((l) => l.toLowerCase()));
  const warnL = new Set((policy.licenses?.warn ?? []).map((l) => l.toLowerCase()));
  for (const l of input.licenses ?? []) {
    if (deny.has(l.toLowerCase())) all.push({ rule: 'licenses.deny', kind: 'license', effect: 'block', subject: l, message: `licence ${l} is denied` });
    else if (warnL.has(l.toLowerCase())) all.push({ rule: 'licenses.warn', kind: 'license', effect: 'warn', subject: l, message: `licence ${l} needs review` });
  }
  const reasons: PolicyReason[] = [];
  const waived: PolicyReason[] = [];
  for (const r of all) {
    const by = waiverFor(r, exceptions);
    if (by === undefined) reasons.push(r);
    else waived.push({ ...r, waived_by: by });
  }
  const decision: Decision = reasons.some((r) => r.effect === 'block') ? 'block' : reasons.some((r) => r.effect === 'warn') ? 'warn' : 'allow';
  return { decision, reasons, waived, policy_hash: policyHash };
}
