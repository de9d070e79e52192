// Types of pkgscan's /vulnerabilities bodies (lookup, advisory, list, import, sources): shared by engines/core/vulns, engines/pkgscan and the renderer (types only).
import type { PageOf, Severity } from './pkgscan.js';

/** complete (`ok`), some source missing or stale (`partial`), no advisory data for the ecosystem (`unavailable`): the last two mean unknown. */
export type LookupStatus = 'ok' | 'partial' | 'unavailable';

/** The source kinds an import can be. */
export type AdvisorySourceKind = 'osv-json' | 'osv-dir' | 'osv-zip' | 'kev-json' | 'kev-csv' | 'epss-csv' | 'epss-json' | 'nvd-json';

export interface OsvEventBody {
  readonly introduced?: string;
  readonly fixed?: string;
  readonly last_affected?: string;
  readonly limit?: string;
}

export interface AdvisoryRange {
  readonly type: string;
  readonly events: readonly OsvEventBody[];
}

/** One affected package of an advisory: its ranges and explicit versions as the record gives them, and the fixed versions. */
export interface AdvisoryAffectedPackage {
  readonly ecosystem: string;
  readonly name: string;
  readonly purl: string | null;
  readonly ranges: readonly AdvisoryRange[];
  readonly versions: readonly string[];
  readonly fixed: readonly string[];
}

/** Where the severity came from: a CVSS vector of the record (v4 before v3), the database's own word, NVD through the CVE alias, or a malicious-package record. */
export type SeveritySource = 'cvss_v4' | 'cvss_v3' | 'database_specific' | 'nvd' | 'malicious';

export interface KevEntry {
  readonly cve: string;
  readonly date_added: string;
  readonly due_date: string | null;
  /** CISA's knownRansomwareCampaignUse: `Known` or `Unknown`. */
  readonly ransomware_use: string;
  readonly vendor_project: string | null;
  readonly product: string | null;
  readonly name: string | null;
}

export interface EpssEntry {
  readonly cve: string;
  readonly score: number;
  readonly percentile: number;
  readonly date: string | null;
  readonly model_version: string | null;
}

export interface AdvisoryReference {
  readonly type: string;
  readonly url: string;
}

export interface Advisory {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly summary: string;
  readonly details: string;
  readonly published: string | null;
  readonly modified: string;
  /** A malicious-package record (ossf/malicious-packages MAL-): a finding of its own, not a CVE. */
  readonly malicious: boolean;
  readonly severity: Severity | null;
  readonly score: number | null;
  readonly vector: string | null;
  readonly severity_source: SeveritySource | null;
  readonly affected: readonly AdvisoryAffectedPackage[];
  readonly fixed_versions: readonly string[];
  /** Present when a CVE alias is in the known-exploited catalogue. */
  readonly kev: KevEntry | null;
  /** The highest EPSS score among the CVE aliases. */
  readonly epss: EpssEntry | null;
  readonly references: readonly AdvisoryReference[];
}

/** GET /vulnerabilities/lookup. */
export interface LookupResult {
  readonly status: LookupStatus;
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
  /** Sources never imported: `osv:<ecosystem>`, `kev`, `epss`. */
  readonly missing_sources: readonly string[];
  /** Sources older than their staleness threshold. */
  readonly stale_sources: readonly string[];
  /** Why the answer may be incomplete beyond sources (the version cannot be read in the ecosystem's scheme...). */
  readonly notes: readonly string[];
  readonly items: readonly Advisory[];
}

/** One advisory of GET /vulnerabilities: aggregated over stored scan verdicts. */
export interface VulnerabilitySummary {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly summary: string;
  readonly severity: Severity | null;
  readonly score: number | null;
  readonly malicious: boolean;
  readonly kev: boolean;
  readonly kev_date_added: string | null;
  readonly epss: number | null;
  readonly epss_percentile: number | null;
  readonly packages: readonly { readonly ecosystem: string; readonly name: string; readonly version: string; readonly scans: number }[];
  readonly last_seen: string;
}

export type VulnerabilityPage = PageOf<VulnerabilitySummary>;

/** One import: POST /vulnerabilities/import, `pkgscan advisories import`. */
export interface AdvisoryImport {
  readonly id: string;
  readonly kind: AdvisorySourceKind;
  readonly status: 'running' | 'done' | 'failed';
  readonly file_sha256: string | null;
  readonly records: number;
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly warnings: number;
  /** The first few warnings (what is wrong and where: entry names or record numbers, never contents). */
  readonly warning_samples: readonly string[];
  readonly started_at: string;
  readonly finished_at: string | null;
}

/** GET /vulnerabilities/sources: one per source (`osv:<ecosystem>`, `kev`, `epss`, `nvd`). */
export interface AdvisorySourceStatus {
  readonly source: string;
  readonly records: number;
  readonly last_import_id: string;
  readonly last_import_at: string;
  /** The data's own date (KEV release, EPSS score date, newest OSV `modified`), else the import time. */
  readonly data_date: string;
  readonly age_days: number;
  readonly stale_after_days: number;
  readonly stale: boolean;
}

export interface AdvisorySources {
  readonly generation: number;
  readonly sources: readonly AdvisorySourceStatus[];
  readonly imports: readonly AdvisoryImport[];
}
