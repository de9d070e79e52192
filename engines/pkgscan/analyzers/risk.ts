// The risk score and its dimensions from findings and attack chains, and runAnalyzers: every analyzer run with timing and status (a failing analyzer is a `failed` run, never a crash).
import { VitrineError } from '../../core/errors.js';
import type { PackageRelease } from '../package/types.js';
import { ATTACK_CHAIN_CODE } from './chains.js';
import { metadataAnalyzer } from './metadata.js';
import { sourceAnalyzer } from './source/index.js';
import type { Analyzer, AnalyzerContext, AnalyzerRun, AttackChain, ScanFinding, Severity } from './types.js';

export const RISK_DIMENSIONS = ['malicious_code', 'install_time', 'obfuscation', 'metadata', 'provenance', 'vulnerabilities'] as const;
export type RiskDimension = (typeof RISK_DIMENSIONS)[number];

export interface RiskScore {
  /** 0..1; 0.7 and above is what the shipped staging/prod policies block on. */
  readonly score: number;
  readonly dimensions: Record<RiskDimension, number>;
}

/** How much one finding of a severity adds to its dimension. */
export const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = { info: 0, low: 0.05, medium: 0.25, high: 0.75, critical: 0.95 };

/** How much a full dimension counts in the score: metadata alone stays below the block threshold. */
export const DIMENSION_WEIGHT: Readonly<Record<RiskDimension, number>> = { malicious_code: 1, install_time: 0.8, obfuscation: 0.9, metadata: 0.45, provenance: 0.6, vulnerabilities: 0.8 };

function dimensionOf(f: ScanFinding): RiskDimension {
  switch (f.category) {
    case 'install_time':
      return 'install_time';
    case 'obfuscation':
      return 'obfuscation';
    case 'metadata':
    case 'archive':
      return 'metadata';
    case 'provenance':
      return 'provenance';
    case 'vulnerability':
      return 'vulnerabilities';
    case 'tool':
      return 'metadata';
    default:
      return 'malicious_code';
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Each dimension is 1 - prod(1 - weight) over its findings (chains count in malicious_code); the score combines dimensions the same way, each scaled by its DIMENSION_WEIGHT. Optional provenance/vulnerability levels (0..1) come from the verdict code. */
export function scoreRisk(findings: readonly ScanFinding[], chains: readonly AttackChain[], extra: Partial<Record<'provenance' | 'vulnerabilities', number>> = {}): RiskScore {
  const keep: Record<RiskDimension, number> = { malicious_code: 1, install_time: 1, obfuscation: 1, metadata: 1, provenance: 1, vulnerabilities: 1 };
  // each finding code counts once, at its highest severity (fifty matches of one rule are one piece of evidence); a chain is also reported as an attack_chain finding: counted once, from `chains`
  const strongest = new Map<string, ScanFinding>();
  for (const f of findings) {
    if (f.code === ATTACK_CHAIN_CODE) continue;
    const seen = strongest.get(f.code);
    if (seen === undefined || SEVERITY_WEIGHT[f.severity] > SEVERITY_WEIGHT[seen.severity]) strongest.set(f.code, f);
  }
  for (const f of strongest.values()) keep[dimensionOf(f)] *= 1 - SEVERITY_WEIGHT[f.severity];
  for (const c of chains) keep.malicious_code *= 1 - SEVERITY_WEIGHT[c.severity];
  for (const k of ['provenance', 'vulnerabilities'] as const) {
    const v = extra[k];
    if (v !== undefined && Number.isFinite(v)) keep[k] *= 1 - Math.min(1, Math.max(0, v));
  }
  const dimensions = {} as Record<RiskDimension, number>;
  let rest = 1;
  for (const d of RISK_DIMENSIONS) {
    dimensions[d] = round(1 - keep[d]);
    rest *= 1 - dimensions[d] * DIMENSION_WEIGHT[d];
  }
  return { score: round(1 - rest), dimensions };
}

export interface AnalysisResult {
  readonly findings: readonly ScanFinding[];
  readonly chains: readonly AttackChain[];
  readonly runs: readonly AnalyzerRun[];
  readonly risk: RiskScore;
}

/** The analyzers every scan runs (optional tools are added by the caller). */
export const DEFAULT_ANALYZERS: readonly Analyzer[] = [sourceAnalyzer, metadataAnalyzer];

/** Our words for a failure: never the error's own message (it may quote package content or paths). */
function failureMessage(e: unknown): string {
  const code = e !== null && typeof e === 'object' && 'code' in e && typeof e.code === 'string' && /^[a-z_]{2,40}$/.test(e.code) ? ` (${e.code})` : '';
  return `the analyzer stopped on an internal error${code}`;
}

/** Runs each analyzer in turn with timing and status; honours ctx.signal (the runs not started are `timed_out`). */
export async function runAnalyzers(release: PackageRelease, ctx: AnalyzerContext, analyzers: readonly Analyzer[] = DEFAULT_ANALYZERS): Promise<AnalysisResult> {
  const findings: ScanFinding[] = [];
  const chains: AttackChain[] = [];
  const runs: AnalyzerRun[] = [];
  for (const a of analyzers) {
    if (ctx.signal?.aborted) {
      runs.push({ name: a.name, version: a.version, status: 'timed_out', duration_ms: 0, findings: 0, message: 'the scan was cancelled or timed out before this analyzer ran' });
      continue;
    }
    const t0 = performance.now();
    try {
      const out = await a.analyze(release, ctx);
      const ms = Math.round(performance.now() - t0);
      findings.push(...out.findings);
      chains.push(...(out.chains ?? []));
      const status = ctx.signal?.aborted && out.status !== 'unavailable' ? 'timed_out' : (out.status ?? 'ok');
      runs.push({ name: a.name, version: a.version, status, duration_ms: ms, findings: out.findings.length, message: out.message ?? null });
    } catch (e) {
      // An optional tool that ran past its time limit throws `timeout`: it did not finish, which is not the same as failing.
      const timedOut = e instanceof VitrineError && e.code === 'timeout';
      runs.push({
        name: a.name,
        version: a.version,
        status: timedOut ? 'timed_out' : 'failed',
        duration_ms: Math.round(performance.now() - t0),
        findings: 0,
        message: timedOut ? 'the analyzer ran past its time limit' : failureMessage(e),
      });
    }
  }
  return { findings, chains, runs, risk: scoreRisk(findings, chains) };
}

/** What the shipped staging/prod policies block on: a high or critical finding or chain, or a risk of 0.7 and above. */
export function flaggedMalicious(result: Pick<AnalysisResult, 'findings' | 'chains' | 'risk'>): boolean {
  return result.risk.score >= 0.7 || result.findings.some((f) => f.severity === 'high' || f.severity === 'critical') || result.chains.some((c) => c.severity === 'high' || c.severity === 'critical');
}
