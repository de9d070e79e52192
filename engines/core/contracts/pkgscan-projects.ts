// HTTP body types of pkgscan's projects and project scans (types only; the renderer imports them with `import type`).
import type { Decision, Severity } from './pkgscan.js';

export interface Project {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly created_by: string;
  readonly created_at: string;
  /** The newest scan's id, decision and time, when there is one. */
  readonly last_scan: { readonly id: string; readonly decision: ProjectDecision; readonly created_at: string } | null;
}

export interface ProjectCreateRequest {
  readonly name: string;
  readonly description?: string;
}

/** POST /projects/{id}/scans: file path (relative, as in the project) to its text. */
export interface ProjectScanRequest {
  readonly files: Readonly<Record<string, string>>;
  readonly environment?: string;
}

export type ProjectDecision = Decision;

export type FindingCategory = 'hygiene' | 'confusion' | 'dockerfile' | 'compose' | 'manifest' | 'vulnerability';

export interface ProjectFinding {
  /** Our stable code, e.g. `unpinned_dependency`, `dockerfile_root_user`. */
  readonly code: string;
  readonly category: FindingCategory;
  readonly severity: Severity;
  /** The submitted file's path as given in the request. */
  readonly file: string;
  /** 1-based line, null when the finding concerns the whole file. */
  readonly line: number | null;
  readonly message: string;
  /** The hadolint (`DL3006`) or Trivy (`DS002`) rule id the check corresponds to, for Dockerfile and Compose rules. */
  readonly rule_id?: string;
  /** The package the finding is about, when it is about one. */
  readonly package?: { readonly ecosystem: string; readonly name: string; readonly version?: string };
}

/** What was read from one submitted file. */
export interface ProjectManifest {
  readonly file: string;
  /** `package-lock`, `yarn-lock`, `package-json`, `pyproject`, `dockerfile`, `compose`, `npmrc` ... */
  readonly format: string;
  readonly ecosystem: string | null;
  readonly format_version: string | null;
  /** `parsed`, or `failed` when the file could not be read as its format (see parser_warnings). */
  readonly status: 'parsed' | 'failed';
  readonly entries: number;
  readonly sha256: string;
}

export interface ParserWarning {
  readonly file: string;
  readonly code: string;
  readonly message: string;
  /** 1-based line, null when unknown. */
  readonly line: number | null;
}

export interface StoredVerdictRef {
  readonly scan_id: string;
  readonly decision: Decision;
  readonly severity: Severity;
  readonly risk_score: number;
  readonly created_at: string;
}

export interface ProjectComponent {
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
  readonly purl: string | null;
  readonly environment: string;
  readonly direct: boolean;
  readonly dev: boolean;
  /** The submitted files that list it. */
  readonly files: readonly string[];
  /** The newest stored package verdict for the same name, version and environment; null when none. */
  readonly verdict: StoredVerdictRef | null;
  /** Archive digests the lock file records (npm integrity, Cargo checksum), as hex. */
  readonly hashes: readonly { readonly alg: 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512'; readonly content: string }[];
  /** The download URL the lock file records, when it is an http(s) URL. */
  readonly download: string | null;
  /** A declared dependency no lock resolved (`version` is ''): the specifier it was declared with (`^1.3.0`, `>=2.0`, '' for none). */
  readonly declared_range?: string;
}

export interface ProjectScanSummary {
  readonly id: string;
  readonly project_id: string;
  readonly environment: string;
  readonly decision: ProjectDecision;
  /** 0..1: 1 - product of (1 - weight) over findings (info 0, low 0.05, medium 0.2, high 0.5, critical 0.8). */
  readonly risk: number;
  readonly counts: { readonly files: number; readonly components: number; readonly findings: number; readonly warnings: number };
  readonly created_by: string;
  readonly created_at: string;
}

export interface ProjectScan extends ProjectScanSummary {
  /** Why the decision is what it is (severities found, raised by a stored component decision). */
  readonly decision_reasons: readonly string[];
  readonly manifests: readonly ProjectManifest[];
  readonly findings: readonly ProjectFinding[];
  readonly parser_warnings: readonly ParserWarning[];
  /** Submitted files no reader handles (listed, not read). */
  readonly skipped_files: readonly string[];
}

export interface GraphNode {
  readonly id: string;
  readonly ecosystem: string | null;
  readonly name: string;
  readonly version: string | null;
  readonly direct: boolean;
  /** Shortest distance from the project root (root 0); null when unreachable from it. */
  readonly depth: number | null;
  /** How many other components depend on this one, directly or transitively (what its compromise reaches). */
  readonly blast_radius: number;
  /** How many components lose every path from the root when this node is removed (its dominated set). */
  readonly dominates: number;
  readonly decision: Decision | null;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
}

export interface DependencyGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly metrics: {
    /** Longest shortest path from the root. */
    readonly depth: number;
    readonly node_count: number;
    readonly edge_count: number;
    /** Components (not the root) whose removal disconnects others from the root, most disconnecting first (at most 20). */
    readonly single_points_of_failure: readonly { readonly id: string; readonly disconnects: number }[];
    /** The largest blast radii (at most 20). */
    readonly top_blast_radius: readonly { readonly id: string; readonly blast_radius: number }[];
  };
}
