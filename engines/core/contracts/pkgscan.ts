// Types of the package scanning service's HTTP bodies (/api/v1 standalone, /svc/pkgscan/api/v1 in the workstation): one definition for engines/pkgscan and the renderer (types only).

export const ROLES = ['admin', 'security_analyst', 'developer', 'auditor', 'read_only'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'scan:create',
  'project:write',
  'container:scan',
  'diff:create',
  'scan:read',
  'policy:read',
  'event:read',
  'monitor:read',
  'ml:read',
  'report:read',
  'vuln:read',
  'project:read',
  'exception:request',
  'exception:approve',
  'event:ack',
  'monitor:write',
  'audit:read',
  'system:read',
  'policy:write',
  'user:manage',
  'system:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type Decision = 'allow' | 'warn' | 'block';
export type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical';

export interface PageOf<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** A user as every route shows it (never the password hash). */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly active: boolean;
  readonly created_at: string;
  readonly updated_at: string;
}

/** GET /auth/me: the caller and what they may do. */
export interface Me extends User {
  readonly permissions: readonly Permission[];
}

/** POST /auth/login and /auth/refresh. */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  /** Seconds until the access token expires. */
  readonly expires_in: number;
  readonly user: User;
}

export interface AuditEntry {
  readonly seq: number;
  readonly action: string;
  readonly actor: string;
  readonly request_id: string | null;
  readonly at: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly prev_hash: string;
  readonly chain_hash: string;
}

export interface AuditVerification {
  readonly ok: boolean;
  readonly count: number;
  readonly first_broken_seq: number | null;
  readonly reason: string | null;
  readonly head_hash: string;
  /** Append-only triggers absent or altered (any makes `ok` false). */
  readonly missing_triggers: readonly string[];
}

export interface SecurityEvent {
  readonly id: string;
  readonly type: string;
  readonly severity: Severity;
  readonly package: string | null;
  readonly project: string | null;
  readonly time: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly acknowledged: boolean;
  readonly acknowledged_by: string | null;
  readonly acknowledged_at: string | null;
}

/** One problem in a policy document: where (JSON path, and YAML line/column when sent as text) and what. */
export interface PolicyIssue {
  readonly path: string;
  readonly issue: string;
  readonly line?: number;
  readonly col?: number;
}

export interface PolicyValidation {
  readonly valid: boolean;
  readonly errors: readonly PolicyIssue[];
  /** SHA-256 of the canonical JSON of the document; null when it could not be read at all. */
  readonly hash: string | null;
}

export interface Policy {
  readonly id: string;
  readonly name: string;
  readonly environment: string;
  readonly active: boolean;
  readonly document: Readonly<Record<string, unknown>>;
  /** The YAML text as sent (null when sent as an object). */
  readonly source: string | null;
  readonly hash: string;
  readonly revision: number;
  readonly created_by: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export type ExceptionStatus = 'pending' | 'approved' | 'rejected' | 'revoked' | 'expired';

export interface PolicyException {
  readonly id: string;
  readonly ecosystem: string;
  readonly package: string;
  readonly version_range: string | null;
  readonly scope: string;
  readonly environment: string | null;
  readonly justification: string;
  readonly expires_at: string;
  readonly status: ExceptionStatus;
  readonly requested_by: string;
  readonly requested_at: string;
  readonly decided_by: string | null;
  readonly decided_at: string | null;
}

export interface HealthReady {
  readonly status: 'ok' | 'degraded' | 'unready';
  readonly checks: Readonly<Record<string, { readonly status: 'ok' | 'missing' | 'failed' }>>;
}

export interface SystemInfo {
  readonly service: 'pkgscan';
  readonly version: string;
  readonly environment: string;
  readonly features: Readonly<Record<string, boolean>>;
  readonly limits: Readonly<Record<string, number>>;
}

export interface ToolStatus {
  readonly name: string;
  readonly kind: 'rule_matcher' | 'static_analyser' | 'secret_scanner';
  readonly available: boolean;
}

// ---- Package scans ----

/** ATT&CK-style category of a package finding. */
export type FindingCategory =
  | 'install_time'
  | 'code_execution'
  | 'obfuscation'
  | 'exfiltration'
  | 'download_execute'
  | 'reverse_shell'
  | 'cryptominer'
  | 'process_spawn'
  | 'persistence'
  | 'propagation'
  | 'steganography'
  | 'destruction'
  | 'capability'
  | 'metadata'
  | 'archive'
  | 'provenance'
  | 'vulnerability'
  | 'tool';

/** One finding of a package scan: a stable code, where it is, and the bounded text that matched. */
export interface ScanFinding {
  /** Stable rule id, lower snake case (e.g. `npm_install_script`, `exec_base64`); look it up in docs/pkgscan.md. */
  readonly code: string;
  readonly severity: Severity;
  readonly category: FindingCategory;
  readonly title: string;
  /** Path inside the package (archive top folder taken off); null for package-level findings. */
  readonly file: string | null;
  /** 1-based line in `file`. */
  readonly line: number | null;
  /** The matched text, at most 200 characters, control characters escaped. */
  readonly match: string | null;
  /** ATT&CK technique id where one fits (e.g. `T1059.006`). */
  readonly technique: string | null;
  /** The analyzer that found it. */
  readonly analyzer: string;
}

export interface AttackChainStep {
  /** A capability (reads credentials, spawns a process, opens a socket) or a threat (sends it out, runs what it fetched). */
  readonly role: 'capability' | 'threat';
  readonly code: string;
  readonly description: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly match: string | null;
}

/** A capability and a threat that meet in one flow (one file, or an install hook and the file it runs). */
export interface AttackChain {
  readonly title: string;
  readonly severity: Severity;
  readonly technique: string | null;
  readonly steps: readonly AttackChainStep[];
}

export type AnalyzerStatus = 'ok' | 'unavailable' | 'failed' | 'timed_out';

export interface AnalyzerRun {
  readonly name: string;
  readonly version: string;
  readonly status: AnalyzerStatus;
  readonly duration_ms: number;
  readonly findings: number;
  /** Why it was unavailable or failed (our words, no paths). */
  readonly message: string | null;
}

/** Provenance of a scanned release as the verdict shows it. */
export interface ScanProvenance {
  /** `absent` is not an error; `invalid` comes with a finding; `unavailable` means it could not be checked here. */
  readonly status: 'verified' | 'absent' | 'invalid' | 'unavailable';
  readonly kind: 'npm-provenance' | 'npm-publish' | 'pep740' | null;
  readonly builder: string | null;
  readonly source_repository: string | null;
  readonly source_commit: string | null;
  readonly workflow: string | null;
  readonly registry_signature: 'verified' | 'absent' | 'invalid' | 'unknown_key';
  readonly message: string;
}

/** One advisory as a verdict or lookup carries it. */
export interface AdvisoryItem {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly summary: string | null;
  readonly severity: Severity;
  /** CVSS base score where known. */
  readonly score: number | null;
  readonly kev: boolean;
  readonly kev_date_added: string | null;
  readonly epss: number | null;
  readonly epss_percentile: number | null;
  readonly fixed_versions: readonly string[];
  /** A malicious-package record (MAL-...), not a CVE. */
  readonly malicious: boolean;
}

/** `ok` means assessed; `partial` and `unavailable` mean unknown, never "no vulnerabilities". */
export interface VulnerabilityAssessment {
  readonly status: 'ok' | 'partial' | 'unavailable';
  readonly message: string;
  readonly missing_sources: readonly string[];
  readonly items: readonly AdvisoryItem[];
}

/** A policy reason as stored in a verdict. */
/** One row per policy rule: the findings, advisories or dimensions it covers are its `subjects`. */
export interface VerdictReason {
  readonly rule: string;
  readonly kind: string;
  readonly effect: 'warn' | 'block';
  /** The first subject (kept for filters); `subjects` has them all. */
  readonly subject: string | null;
  /** Every finding code, advisory id, dimension or licence the rule covers, each once. */
  readonly subjects: readonly string[];
  /** How many findings (or advisories) the rule covers (a code matched in five files counts five). */
  readonly count: number;
  readonly message: string;
  /** The exception that waived it (waived reasons only). */
  readonly waived_by: string | null;
}

/** The analysis's own judgement, independent of environment and policy. */
export interface ScanAssessment {
  /** `unknown` when the analysis could not complete and found nothing worse. */
  readonly verdict: 'malicious' | 'suspicious' | 'clean' | 'unknown';
  /** 0..1 */
  readonly confidence: number;
  readonly summary: string;
  /** The findings the verdict rests on (at most 20, worst first). */
  readonly findings: readonly { readonly code: string; readonly severity: Severity; readonly category: string; readonly title: string; readonly file: string | null; readonly line: number | null }[];
  readonly chains: readonly { readonly title: string; readonly severity: Severity; readonly technique: string | null }[];
  /** Malicious-package advisories it rests on. */
  readonly advisories: readonly string[];
}

/** Something the policy could not judge: what is missing and what to do about it. */
export interface PolicyGap {
  readonly kind: 'provenance_missing' | 'advisories_missing';
  readonly effect: 'allow' | 'warn' | 'block';
  readonly message: string;
  readonly what_to_do: string;
}

export interface ReleaseFileEntry {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
  readonly executable: boolean;
  /** Findings in this file. */
  readonly findings: number;
}

/** POST /scans and GET /scans/{id}: the whole verdict of one package scan. */
export interface ScanVerdict {
  readonly id: string;
  readonly ecosystem: 'npm' | 'pypi';
  readonly name: string;
  readonly version: string;
  readonly environment: string;
  /** The analysis's own judgement (malicious, suspicious, clean, unknown), whatever the environment and policy. */
  readonly assessment: ScanAssessment;
  readonly decision: Decision;
  /** What the policy could not judge (no verified provenance, advisories not assessed), with what to do. */
  readonly gaps: readonly PolicyGap[];
  /** The worst severity among unwaived findings and advisories (`info` when none). */
  readonly severity: Severity;
  /** 0..1 */
  readonly risk_score: number;
  /** Each 0..1: malicious_code, install_time, obfuscation, metadata, provenance, vulnerabilities. */
  readonly risk_dimensions: Readonly<Record<string, number>>;
  /** The archive was not read completely or an analyzer did not finish: never reads as clean. */
  readonly incomplete: boolean;
  readonly findings: readonly ScanFinding[];
  readonly attack_chains: readonly AttackChain[];
  readonly analyzer_runs: readonly AnalyzerRun[];
  readonly provenance: ScanProvenance;
  readonly vulnerabilities: VulnerabilityAssessment;
  readonly policy: { readonly id: string | null; readonly name: string | null; readonly hash: string | null };
  readonly policy_reasons: readonly VerdictReason[];
  readonly waived_reasons: readonly VerdictReason[];
  /** Ids of the approved, unexpired exceptions that applied. */
  readonly exceptions_applied: readonly string[];
  readonly package: {
    readonly filename: string;
    readonly sha256: string;
    readonly size: number;
    readonly source: string;
    readonly kind: string;
    readonly description: string | null;
    readonly license: string | null;
    readonly author: string | null;
    readonly maintainers: readonly string[];
    readonly install_scripts: Readonly<Record<string, string>>;
    readonly dependencies: Readonly<Record<string, string>>;
    readonly published: string | null;
  };
  /** The file inventory (at most 5,000 entries, `files_truncated` says when cut). */
  readonly files: readonly ReleaseFileEntry[];
  readonly files_total: number;
  readonly files_truncated: boolean;
  readonly analyzer_version: string;
  readonly created_at: string;
  readonly created_by: string;
  readonly duration_ms: number;
}

/** GET /scans rows. */
export interface ScanSummary {
  readonly id: string;
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
  readonly environment: string;
  readonly decision: Decision;
  readonly severity: Severity;
  readonly risk_score: number;
  readonly findings: number;
  readonly incomplete: boolean;
  readonly created_at: string;
  /** The verdict's assessment (null for a verdict stored before assessments existed). */
  readonly assessment?: ScanAssessment['verdict'] | null;
}

/** GET /scans/stats/overview. */
export interface ScanStats {
  readonly total: number;
  readonly by_decision: Readonly<Record<Decision, number>>;
  readonly by_severity: Readonly<Record<Severity, number>>;
  readonly blocked_last_30_days: number;
  /** Mean risk score, null with no scans. */
  readonly average_risk: number | null;
  readonly top_finding_codes: readonly { readonly code: string; readonly count: number }[];
}

/** GET /packages/{ecosystem}/{name}: everything stored about one package. */
export interface PackageOverview {
  readonly ecosystem: string;
  readonly name: string;
  /** Newest verdict per version and environment, newest first. */
  readonly verdicts: readonly ScanSummary[];
  readonly advisories: readonly { readonly id: string; readonly severity: Severity; readonly kev: boolean; readonly versions: readonly string[] }[];
  /** The watched-package record when monitored (monitoring arrives with a later issue), else null. */
  readonly monitoring: Readonly<Record<string, unknown>> | null;
  readonly diffs: readonly Readonly<Record<string, unknown>>[];
  /** Archives of this package in the package store. */
  readonly stored_releases: readonly { readonly version: string; readonly filename: string; readonly sha256: string; readonly source: string }[];
}

/** Provenance of a release as the verifier answers it (docs/pkgscan-provenance.md): the verdict's part and the findings it raised. */
export interface ProvenanceResult extends ScanProvenance {
  readonly findings: readonly ScanFinding[];
}
