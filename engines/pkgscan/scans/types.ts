// What a package analysis (the worker job) hands back to the verdict: the release as read, findings, chains, analyzer runs, risk and provenance.
import type { AnalyzerRun, AttackChain, ReleaseFileEntry, ScanFinding, ScanProvenance } from '../../core/contracts/pkgscan.js';
import type { DeclaredMetadata, RegistryInfo, ReleaseIdentity, ReleaseKind } from '../package/types.js';

export interface PackageAnalysis extends ReleaseIdentity {
  readonly kind: ReleaseKind;
  /** False when the archive was not read to its end. */
  readonly complete: boolean;
  readonly metadata: DeclaredMetadata;
  readonly registry: RegistryInfo | null;
  /** The inventory without per-file finding counts (the verdict adds them), at most MAX_INVENTORY entries. */
  readonly files: readonly Omit<ReleaseFileEntry, 'findings'>[];
  readonly files_total: number;
  readonly findings: readonly ScanFinding[];
  readonly chains: readonly AttackChain[];
  readonly runs: readonly AnalyzerRun[];
  /** From the code and metadata findings (0..1), before provenance and vulnerabilities are weighed in. */
  readonly risk: { readonly score: number; readonly dimensions: Readonly<Record<string, number>> };
  readonly provenance: ScanProvenance;
}

/** Most inventory entries a verdict keeps. */
export const MAX_INVENTORY = 5000;
