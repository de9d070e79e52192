// A package scan end to end: resolve the release from the configured sources, analyse it in a worker, assess vulnerabilities, decide under the environment's active policy, store, audit, publish.
import { randomUUID } from 'node:crypto';
import semver from 'semver';
import { z } from 'zod';
import type { ScanFinding, ScanVerdict, Severity, VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { comparePep440 } from '../../core/vulns/versions/index.js';
import type { JobProgress, JobRunner } from '../../core/jobs/protocol.js';
import { MALICIOUS_CATEGORIES } from '../analyzers/assessment.js';
import type { Queryable } from '../db/types.js';
import { publishEvent } from '../events/publish.js';
import { applicableExceptions } from '../exceptions/exceptions.js';
import { SCAN_ECOSYSTEMS, type ScanEcosystem } from '../package/types.js';
import type { Platform } from '../platform.js';
import { activePolicy } from '../policies/policies.js';
import type { PolicyDocument } from '../policies/schema.js';
import { normalizeName, resolveRelease } from '../sources/resolve.js';
import type { PackageSource } from '../sources/types.js';
import { extractFeatures } from '../ml/features.js';
import { loadRiskModel, modelScore } from '../ml/model.js';
import { SEVERITIES } from '../vocabulary.js';
import { recordScanAdvisories } from '../vulns/advisories.js';
import { ANALYZE_JOB, type AnalyzePayload } from './analysis.js';
import { earlierVerifiedProvenance, saveScan } from './store.js';
import type { PackageAnalysis } from './types.js';
import { buildVerdict } from './verdict.js';

export const scanRequestSchema = z.strictObject({
  ecosystem: z.string().min(1).max(32),
  name: z.string().min(1).max(214),
  version: z.string().min(1).max(128).optional(),
  environment: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/).optional(),
});
export type ScanRequest = z.infer<typeof scanRequestSchema>;

/** A scan's time limit in the worker: large packages take seconds, a hang is cut here. */
export const SCAN_TIMEOUT_MS = 5 * 60_000;

/** What a scan needs besides the platform: the job runner, the sources, the advisory lookup, the internal namespaces. */
export interface ScanDeps {
  readonly jobs: JobRunner;
  readonly sources: () => readonly PackageSource[];
  readonly vulnerabilities: (ecosystem: ScanEcosystem, name: string, version: string) => VulnerabilityAssessment | Promise<VulnerabilityAssessment>;
  readonly internalNamespaces: readonly string[];
}

export function isScanEcosystem(e: string): e is ScanEcosystem {
  return (SCAN_ECOSYSTEMS as readonly string[]).includes(e);
}


const atLeast = (s: Severity, min: Severity): boolean => SEVERITIES.indexOf(s) >= SEVERITIES.indexOf(min);

/** The archive must declare the release the source said it was; anything else is a substitution. */
export function identityFindings(a: Pick<PackageAnalysis, 'ecosystem' | 'name' | 'version'>, name: string, version: string): ScanFinding[] {
  // PyPI spells one version several ways (`1.0` and `1.0.0`, `2.0rc1` and `2.0.0-rc1`): equal under PEP 440 is the same release.
  const sameVersion = a.version === version || (a.ecosystem === 'pypi' && comparePep440(a.version, version) === 0);
  if (a.name === name && sameVersion) return [];
  return [
    {
      code: 'identity_mismatch',
      severity: 'high',
      category: 'metadata',
      title: 'The archive declares a different name or version than the source listed it under',
      file: null,
      line: null,
      match: null,
      technique: 'T1195.002',
      analyzer: 'archive',
    },
  ];
}

/** Whether version `a` comes before `b` in the ecosystem's order (an unparsable version never does). */
export function versionBefore(ecosystem: ScanEcosystem, a: string, b: string): boolean {
  if (ecosystem === 'pypi') {
    const c = comparePep440(a, b);
    return c !== null && c < 0;
  }
  const x = semver.valid(a);
  const y = semver.valid(b);
  return x !== null && y !== null && semver.lt(x, y);
}

/** The events a scan publishes (in the scan's transaction): a block, malicious code, contradicted provenance, known exploitation. */
async function publishScanEvents(q: Queryable, v: ScanVerdict): Promise<void> {
  const pkg = `${v.ecosystem}:${v.name}`;
  const base = { scan_id: v.id, version: v.version, environment: v.environment };
  const malicious = v.findings.filter((f) => MALICIOUS_CATEGORIES.has(f.category) && atLeast(f.severity, 'high'));
  const maliciousAdvisories = v.vulnerabilities.items.filter((x) => x.malicious);
  if (malicious.length > 0 || maliciousAdvisories.length > 0)
    await publishEvent(q, { type: 'malicious_package_detected', severity: 'critical', package: pkg, details: { ...base, codes: [...new Set(malicious.map((f) => f.code))].slice(0, 20), advisories: maliciousAdvisories.map((x) => x.id).slice(0, 20) } });
  if (v.decision === 'block') await publishEvent(q, { type: 'package_blocked', severity: atLeast(v.severity, 'medium') ? v.severity : 'medium', package: pkg, details: { ...base, rules: [...new Set(v.policy_reasons.filter((r) => r.effect === 'block').map((r) => r.rule))].slice(0, 20) } });
  if (v.provenance.status === 'invalid') await publishEvent(q, { type: 'provenance_invalid', severity: 'high', package: pkg, details: base });
  const kev = v.vulnerabilities.items.filter((x) => x.kev);
  if (kev.length > 0) await publishEvent(q, { type: 'known_exploited_vulnerability', severity: 'high', package: pkg, details: { ...base, advisories: kev.map((x) => x.id).slice(0, 20) } });
}

/** Runs one package scan and stores its verdict. */
export async function scanPackage(
  p: Platform,
  deps: ScanDeps,
  request: ScanRequest,
  actor: string,
  requestId: string | null,
  options: { signal?: AbortSignal; onProgress?: (progress: JobProgress) => void } = {},
): Promise<ScanVerdict> {
  const started = Date.now();
  if (!isScanEcosystem(request.ecosystem)) throw new VitrineError('validation_failed', `ecosystem must be one of ${SCAN_ECOSYSTEMS.join(', ')}`, { details: [{ path: 'ecosystem', issue: 'not a supported ecosystem' }] });
  const ecosystem = request.ecosystem;
  const name = normalizeName(ecosystem, request.name);
  const environment = request.environment ?? p.config.defaultPolicyEnvironment;
  const policy = await activePolicy(p.store, environment);
  if (policy === undefined) throw new VitrineError('validation_failed', 'no policy is active for that environment; activate one under Policies', { details: [{ path: 'environment', issue: 'no active policy' }] });
  const stored = await resolveRelease(deps.sources(), ecosystem, name, request.version, options.signal);
  const payload: AnalyzePayload = {
    dataDir: p.dataDir,
    resourcesDir: p.resourcesDir,
    sha256: stored.sha256,
    filename: stored.filename,
    ecosystem,
    registry: stored.registry === undefined ? null : (stored.registry as AnalyzePayload['registry']),
    internalNamespaces: [...deps.internalNamespaces],
  };
  const analysis = (await deps.jobs.run(ANALYZE_JOB, payload, {
    timeoutMs: SCAN_TIMEOUT_MS,
    label: `Scan ${ecosystem} ${stored.name.slice(0, 80)} ${stored.version.slice(0, 40)}`,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  })) as PackageAnalysis;
  const checked: PackageAnalysis = { ...analysis, findings: [...identityFindings(analysis, stored.name, stored.version), ...analysis.findings], name: stored.name, version: stored.version };
  // The model is one risk dimension, never the only reason for a block (docs/pkgscan-ml.md); its features are the analysis's own.
  const features = extractFeatures(analysis);
  const loaded = loadRiskModel(p.dataDir, p.resourcesDir);
  const verdict = buildVerdict({
    modelScore: loaded.model !== null ? modelScore(loaded.model, features) : null,
    id: randomUUID(),
    environment,
    analysis: checked,
    vulnerabilities: await deps.vulnerabilities(ecosystem, stored.name, stored.version),
    policy: { id: policy.id, name: policy.name, hash: policy.hash, document: policy.document as unknown as PolicyDocument },
    exceptions: await applicableExceptions(p.store, { ecosystem, name: stored.name, version: stored.version, environment }),
    source: stored.source,
    createdBy: actor,
    createdAt: new Date().toISOString(),
    durationMs: Date.now() - started,
    earlierVerifiedProvenance: await earlierVerifiedProvenance(p.store, ecosystem, stored.name, stored.version, (a, b) => versionBefore(ecosystem, a, b)),
  });
  // The verdict, its finding index and feature vector, its audit entry and its events commit together (in the shared
  // database on PostgreSQL), and so do the links to the advisories it matched (in the advisory store beside them).
  const advisoryIds = verdict.vulnerabilities.items.map((x) => x.id);
  await p.store.transaction(async (q) => {
    await saveScan(q, verdict, features);
    await recordScanAdvisories(q, verdict.id, ecosystem, verdict.name, verdict.version, advisoryIds, verdict.created_at);
    await p.audit.appendWithin(q, 'scan.create', actor, requestId, { scan_id: verdict.id, ecosystem, name: verdict.name, version: verdict.version, environment, decision: verdict.decision });
    await publishScanEvents(q, verdict);
  });
  return verdict;
}
