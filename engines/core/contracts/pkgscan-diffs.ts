// The release diff's HTTP bodies (POST /diffs, GET /diffs, GET /diffs/{id}), shared with the renderer as types only.
import type { ScanFinding, Severity } from './pkgscan.js';

/** One release as the diff saw it. */
export interface DiffRelease {
  readonly version: string;
  readonly filename: string;
  readonly sha256: string;
  /** The analysis risk (0..1, code and metadata findings; vulnerabilities and provenance are not weighed in). */
  readonly risk_score: number;
  /** The worst finding severity (`info` when none). */
  readonly severity: Severity;
  readonly findings_count: number;
  readonly files_total: number;
  /** False when the archive was not read to its end: the diff is then incomplete too. */
  readonly complete: boolean;
  /** npm preinstall/install/postinstall/prepare commands as declared. */
  readonly install_scripts: Readonly<Record<string, string>>;
}

export interface DiffFileChange {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
  readonly executable: boolean;
  /** For a changed file, its size and digest in the older release. */
  readonly previous?: { readonly size: number; readonly sha256: string };
}

/** People declared on a release: `name <email>` (npm `maintainers`, `author`, `_npmUser`; PyPI Author and Maintainer). */
export interface DiffPeople {
  readonly from: readonly string[];
  readonly to: readonly string[];
  /** In the newer release and not in the older one (compared by e-mail when there is one, else by name, case-insensitive). */
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** The whole stored diff (POST /diffs and GET /diffs/{id}). */
export interface ReleaseDiff {
  readonly id: string;
  readonly ecosystem: 'npm' | 'pypi';
  readonly name: string;
  readonly from_version: string;
  readonly to_version: string;
  /** Both releases' analyzer versions (`name@version+...`); one stored diff per pair and analyzer version. */
  readonly analyzer_version: string;
  /** Risk crossed the policy's warn or block threshold upward, or a high/critical finding is new. */
  readonly escalated: boolean;
  /** Why it is escalated: `risk_crossed_warn`, `risk_crossed_block`, `new_high_finding`. */
  readonly escalation_reasons: readonly string[];
  /** The policy environment whose thresholds were used, and those thresholds. */
  readonly thresholds: { readonly environment: string; readonly warn_risk: number; readonly block_risk: number };
  readonly incomplete: boolean;
  readonly from: DiffRelease;
  readonly to: DiffRelease;
  readonly risk: { readonly from: number; readonly to: number; readonly delta: number };
  /** Every risk dimension of either release, before and after (0 when a side lacks it). */
  readonly dimensions: Readonly<Record<string, { readonly from: number; readonly to: number }>>;
  /** Behaviour categories of the findings (code_execution, exfiltration, install_time ...), and finding codes, gained and lost. */
  readonly capabilities: {
    readonly gained: readonly string[];
    readonly lost: readonly string[];
    readonly codes_gained: readonly string[];
    readonly codes_lost: readonly string[];
  };
  /** Findings compared by (code, file): every finding of a new pair, of a gone pair, and the count of unchanged pairs. */
  readonly findings: {
    readonly new: readonly ScanFinding[];
    readonly gone: readonly ScanFinding[];
    readonly unchanged: number;
  };
  readonly files: {
    readonly added: readonly DiffFileChange[];
    readonly removed: readonly DiffFileChange[];
    readonly changed: readonly DiffFileChange[];
    readonly unchanged: number;
    /** Added files, or files that became executable, with an executable mode bit. */
    readonly new_executables: readonly string[];
    /** Added or changed native binaries (.node, .so, .dll, .exe, .dylib, .pyd ...). */
    readonly new_binaries: readonly string[];
    /** Files that run at install time (package.json install scripts' targets, binding.gyp, setup.py, `.pth`), in each release, and which are new or changed. */
    readonly install_time: { readonly from: readonly string[]; readonly to: readonly string[]; readonly added: readonly string[]; readonly changed: readonly string[] };
    /** True when a list was cut at its cap. */
    readonly truncated: boolean;
  };
  readonly maintainers: DiffPeople;
  /** npm `_npmUser` of each release (null when the source did not say). */
  readonly publisher: { readonly from: string | null; readonly to: string | null; readonly changed: boolean };
  readonly created_at: string;
  readonly created_by: string;
  readonly duration_ms: number;
}

/** POST /diffs answer: the diff, and whether it was stored before (a repeat for the same pair and analyzer version). */
export interface DiffResult extends ReleaseDiff {
  readonly repeated: boolean;
}

/** GET /diffs rows. */
export interface DiffSummary {
  readonly id: string;
  readonly ecosystem: string;
  readonly name: string;
  readonly from_version: string;
  readonly to_version: string;
  readonly analyzer_version: string;
  readonly escalated: boolean;
  readonly maintainers_changed: boolean;
  readonly risk_from: number;
  readonly risk_to: number;
  readonly new_findings: number;
  readonly created_at: string;
}
