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

// ---- Package scans (issue 16) ----

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
