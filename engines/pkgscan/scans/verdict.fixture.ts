// Hand-made inputs of buildVerdict for its tests (verdict.build.test.ts, verdict.policy.test.ts): a finding, an
// advisory, a provenance, an analysis of left-pad 1.3.0 and an advisory assessment, each with only what a test sets.
import type { AdvisoryItem, ScanFinding, ScanProvenance, Severity, VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';
import type { PolicyDocument } from '../policies/schema.js';
import type { PackageAnalysis } from './types.js';
import { buildVerdict, type VerdictInput } from './verdict.js';

export const finding = (code: string, severity: Severity, file: string | null = 'index.js', line: number | null = 1): ScanFinding => ({ code, severity, category: 'metadata', title: code, file, line, match: null, technique: null, analyzer: 'source-rules' });
export const advisory = (id: string, over: Partial<AdvisoryItem> = {}): AdvisoryItem => ({ id, aliases: [], summary: null, severity: 'low', score: null, kev: false, kev_date_added: null, epss: null, epss_percentile: null, fixed_versions: [], malicious: false, ...over });
export const provenance = (status: ScanProvenance['status']): ScanProvenance => ({ status, kind: null, builder: null, source_repository: null, source_commit: null, workflow: null, registry_signature: 'absent' } as ScanProvenance);
export const assessed = (items: AdvisoryItem[] = [], status: VulnerabilityAssessment['status'] = 'ok'): VulnerabilityAssessment => ({ status, message: '', missing_sources: [], items });

/** A complete analysis with no files, findings or runs, risk 0 and provenance absent; `over` sets the rest. */
export const analysis = (over: Partial<PackageAnalysis> = {}): PackageAnalysis => ({
  ecosystem: 'npm',
  name: 'left-pad',
  version: '1.3.0',
  kind: 'npm-tgz',
  filename: 'left-pad-1.3.0.tgz',
  sha256: 'a'.repeat(64),
  size: 1000,
  complete: true,
  metadata: { name: 'left-pad', version: '1.3.0', maintainers: [], scripts: {}, dependencies: {}, entryPoints: [] },
  registry: null,
  files: [],
  files_total: 0,
  findings: [],
  chains: [],
  runs: [],
  risk: { score: 0, dimensions: {} },
  provenance: provenance('absent'),
  ...over,
});

/** The verdict on `a` under the policy `document` in prod with no advisories and no exceptions; `more` changes any input. */
export function verdictOf(a: PackageAnalysis, document: PolicyDocument, more: Partial<VerdictInput> = {}): ReturnType<typeof buildVerdict> {
  return buildVerdict({
    id: 'v1',
    environment: 'prod',
    analysis: a,
    vulnerabilities: assessed(),
    policy: { id: 'p1', name: 'test', hash: 'h', document },
    exceptions: [],
    source: 'upload',
    createdBy: 'u1',
    createdAt: '2026-01-01T00:00:00.000Z',
    durationMs: 5,
    ...more,
  });
}
