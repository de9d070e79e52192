// HTTP body types of pkgscan's container image scans (types only; the renderer imports them with `import type`).
import type { AdvisoryItem, Decision, Severity } from './pkgscan.js';

/** `complete`: every layer was read to its end; `incomplete`: something could not be read, so the scan is never clean. */
export type ContainerScanStatus = 'complete' | 'incomplete';

export type ContainerFindingCategory = 'config' | 'secret' | 'permissions' | 'package' | 'vulnerability' | 'image';

export interface ContainerFinding {
  /** Our stable code, e.g. `image_user_root`, `secret_in_file`, `setuid_unexpected` (docs/pkgscan-containers.md). */
  readonly code: string;
  readonly category: ContainerFindingCategory;
  readonly severity: Severity;
  readonly title: string;
  /** Path inside the image file system (no leading `/`), null for image-level findings. */
  readonly file: string | null;
  /** 0-based index of the layer the finding comes from, null for the image configuration. */
  readonly layer: number | null;
  /** The rule behind it: a secret rule id (`aws-access-key-id`, Trivy's names), an advisory id, an environment variable name. */
  readonly rule_id: string | null;
  /** A masked prefix of the matched text (`AKIA****`); never the secret itself. */
  readonly match: string | null;
  /** 1-based line in `file`, when the finding is in a text file. */
  readonly line: number | null;
  /** True when the file was deleted by a later layer: invisible in the running container, still in the image bytes. */
  readonly deleted_later?: boolean;
  /** The package the finding concerns (vulnerabilities). */
  readonly package?: { readonly ecosystem: string; readonly name: string; readonly version: string };
}

/**
 * The package types of engines/core/oci's PACKAGE_SOURCES, repeated here because contracts hold types only and import
 * no engine module (the renderer reads them); a type test in engines/pkgscan/containers/scan.test.ts keeps the two equal.
 */
export type ContainerPackageType = 'deb' | 'apk' | 'rpm' | 'pypi' | 'npm';

export interface ContainerPackage {
  readonly type: ContainerPackageType;
  readonly name: string;
  readonly version: string;
  readonly arch: string | null;
  /** The source package (dpkg Source, apk origin, rpm source rpm) when it differs from the name. */
  readonly source: string | null;
  readonly source_version: string | null;
  readonly purl: string | null;
  /** The OSV ecosystem it is looked up under (`PyPI`, `npm`, `Debian:12`, `Alpine:v3.19`), null when none can be named; absent in scans stored without it. */
  readonly ecosystem?: string | null;
  /** 0-based index of the layer that put this version in place. */
  readonly layer: number;
  /** The database or metadata file it was read from. */
  readonly file: string;
}

export interface ContainerLayer {
  readonly index: number;
  /** `sha256:<hex>` of the layer blob as stored in the image, when known. */
  readonly digest: string | null;
  readonly diff_id: string | null;
  readonly media_type: string | null;
  /** Compressed (as stored) size in bytes. */
  readonly size: number;
  /** The history line that made it (`RUN ...`), cut to 300 characters. */
  readonly created_by: string | null;
  readonly complete: boolean;
  readonly files_added: number;
  readonly files_changed: number;
  readonly files_removed: number;
  readonly bytes_added: number;
  readonly packages_added: readonly { readonly type: ContainerPackageType; readonly name: string; readonly version: string }[];
  readonly packages_upgraded: readonly { readonly type: ContainerPackageType; readonly name: string; readonly from: string; readonly to: string }[];
  readonly packages_removed: readonly { readonly type: ContainerPackageType; readonly name: string; readonly version: string }[];
}

/** One checker and how it ran: `ok`, `partial` (ran on part of the image), `skipped` (not asked), `unavailable` (no data). */
export interface ContainerToolStatus {
  readonly name: 'archive' | 'config' | 'packages' | 'secrets' | 'permissions' | 'vulnerabilities' | 'sbom';
  readonly status: 'ok' | 'partial' | 'skipped' | 'unavailable' | 'failed';
  readonly message: string | null;
}

export interface ContainerImageSummary {
  /** `docker-archive` (docker save, skopeo docker-archive) or `oci-layout` (an OCI image layout tarball). */
  readonly format: 'docker-archive' | 'oci-layout' | 'unknown';
  readonly os: string | null;
  readonly architecture: string | null;
  /** From /etc/os-release: `debian 12`, `alpine 3.19.1`. */
  readonly distro: string | null;
  /** The configured user, `''` when none is set. */
  readonly user: string | null;
  readonly created: string | null;
  readonly repo_tags: readonly string[];
  readonly layers: number;
  readonly files: number;
  readonly packages: number;
  readonly upload_sha256: string;
  readonly upload_size: number;
  /** Names of the configured environment variables (values are never shown). */
  readonly env_names: readonly string[];
  readonly findings_by_severity: Readonly<Record<Severity, number>>;
  /** `ok` when every package was looked up with complete data; anything else means vulnerabilities were not assessed. */
  readonly vulnerabilities: 'ok' | 'partial' | 'unavailable' | 'not_requested';
  readonly incomplete_reasons: readonly string[];
}

/** GET /containers/scans (list rows). */
export interface ContainerScanListItem {
  readonly id: string;
  readonly image_ref: string | null;
  readonly status: ContainerScanStatus;
  readonly decision: Decision;
  readonly severity: Severity | null;
  readonly package_count: number;
  readonly finding_count: number;
  readonly created_at: string;
  readonly created_by: string;
}

/** POST /containers/scans (201) and GET /containers/scans/{id}. */
export interface ContainerScan extends ContainerScanListItem {
  readonly summary: ContainerImageSummary;
  readonly tools: readonly ContainerToolStatus[];
  readonly findings: readonly ContainerFinding[];
  /** True when findings were cut at the stored cap. */
  readonly findings_truncated: boolean;
  readonly layers: readonly ContainerLayer[];
  readonly packages: readonly ContainerPackage[];
  /** Advisories by package purl (only when vulnerabilities were assessed). */
  readonly advisories: readonly { readonly purl: string | null; readonly name: string; readonly version: string; readonly items: readonly AdvisoryItem[] }[];
  readonly duration_ms: number;
}
