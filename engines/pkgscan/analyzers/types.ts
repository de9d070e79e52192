// What an analyzer is and gives: findings with evidence, attack chains (a capability and a threat met in one flow), and its run record for the verdict.
import type { Severity } from '../../core/contracts/pkgscan.js';
import type { PackageRelease } from '../package/types.js';

export type { AnalyzerRun, AttackChain, AttackChainStep, ScanFinding } from '../../core/contracts/pkgscan.js';
import type { AttackChain, ScanFinding } from '../../core/contracts/pkgscan.js';

/** What every analyzer gets besides the release. */
export interface AnalyzerContext {
  /** The shipped resources/ folder (rules in resources/pkgscan/). */
  readonly resourcesDir: string;
  /** Configured internal name prefixes or scopes (dependency confusion), e.g. `@acme/`, `acme-`. */
  readonly internalNamespaces: readonly string[];
  /** Fires when the job is cancelled or timed out. */
  readonly signal?: AbortSignal;
}

export interface AnalyzerOutput {
  readonly findings: readonly ScanFinding[];
  readonly chains?: readonly AttackChain[];
  /** `unavailable` when an optional tool is missing, with a message saying what to install. */
  readonly status?: 'ok' | 'unavailable' | 'failed';
  readonly message?: string;
}

export interface Analyzer {
  /** Stable name shown in analyzer runs, e.g. `source-rules`, `metadata`, `yara`. */
  readonly name: string;
  readonly version: string;
  analyze(release: PackageRelease, ctx: AnalyzerContext): AnalyzerOutput | Promise<AnalyzerOutput>;
}

export type { Severity };
