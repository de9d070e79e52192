// A release diff end to end: resolve both releases from the sources, analyse each in a worker, compare, store once per analyzer version, audit, publish drift and maintainer events.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { DiffResult, ReleaseDiff } from '../../core/contracts/pkgscan-diffs.js';
import type { Severity } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { validate } from '../../core/validation.js';
import type { Queryable } from '../db/types.js';
import { publishEvent } from '../events/publish.js';
import { SCAN_ECOSYSTEMS, type ScanEcosystem } from '../package/types.js';
import type { Platform } from '../platform.js';
import { activePolicy } from '../policies/policies.js';
import type { PolicyDocument } from '../policies/schema.js';
import { ANALYZE_JOB, type AnalyzePayload } from '../scans/analysis.js';
import { SCAN_TIMEOUT_MS, isScanEcosystem, versionBefore, type ScanDeps } from '../scans/scan.js';
import type { PackageAnalysis } from '../scans/types.js';
import { analyzerVersion } from '../scans/verdict.js';
import { normalizeName, resolveRelease } from '../sources/resolve.js';
import type { StoredRelease } from '../sources/types.js';
import { SEVERITIES } from '../vocabulary.js';
import { compareReleases, type Thresholds } from './compare.js';
import { saveDiff } from './store.js';

/** POST /diffs body; the ecosystem defaults to npm. */
export const diffRequestSchema = z.strictObject({
  ecosystem: z.string().min(1).max(32).optional(),
  name: z.string().min(1).max(214),
  from_version: z.string().min(1).max(128),
  to_version: z.string().min(1).max(128),
});
export type DiffRequest = z.input<typeof diffRequestSchema>;

/** Thresholds when the default environment has no active policy: those of the shipped prod policy. */
const FALLBACK_THRESHOLDS = { warn_risk: 0.4, block_risk: 0.7 } as const;

/** The worker job's payload for one stored release, as a package scan builds it. */
export function analyzePayloadFor(p: Platform, deps: Pick<ScanDeps, 'internalNamespaces'>, stored: StoredRelease): AnalyzePayload {
  return {
    dataDir: p.dataDir,
    resourcesDir: p.resourcesDir,
    sha256: stored.sha256,
    filename: stored.filename,
    ecosystem: stored.ecosystem,
    registry: stored.registry === undefined ? null : (stored.registry as AnalyzePayload['registry']),
    internalNamespaces: [...deps.internalNamespaces],
  };
}

async function analyse(p: Platform, deps: ScanDeps, stored: StoredRelease, signal: AbortSignal | undefined): Promise<PackageAnalysis> {
  const a = (await deps.jobs.run(ANALYZE_JOB, analyzePayloadFor(p, deps, stored), {
    timeoutMs: SCAN_TIMEOUT_MS,
    label: `Diff ${stored.ecosystem} ${stored.name.slice(0, 80)} ${stored.version.slice(0, 40)}`,
    ...(signal !== undefined ? { signal } : {}),
  })) as PackageAnalysis;
  // The source's name and version are the release asked for; the scan reports a mismatch, the diff compares what the source holds under them.
  return { ...a, name: stored.name, version: stored.version };
}

async function thresholdsOf(p: Platform): Promise<Thresholds> {
  const environment = p.config.defaultPolicyEnvironment;
  const policy = await activePolicy(p.store, environment);
  const t = policy === undefined ? FALLBACK_THRESHOLDS : (policy.document as unknown as PolicyDocument).thresholds;
  return { environment, warn_risk: t.warn_risk, block_risk: t.block_risk };
}

const worst = (xs: readonly Severity[], floor: Severity): Severity => xs.reduce((m, s) => (SEVERITIES.indexOf(s) > SEVERITIES.indexOf(m) ? s : m), floor);

/** The drift and maintainer events of a stored diff, with the package's project when it has one. */
async function publishDiffEvents(q: Queryable, d: ReleaseDiff, project: string | undefined): Promise<void> {
  const pkg = `${d.ecosystem}:${d.name}`;
  const where = project !== undefined ? { project } : {};
  const base = { diff_id: d.id, from_version: d.from_version, to_version: d.to_version };
  if (d.escalated) {
    const floor: Severity = d.escalation_reasons.includes('risk_crossed_block') ? 'high' : 'medium';
    await publishEvent(q, {
      type: 'behavior_drift_detected',
      severity: worst(d.findings.new.map((f) => f.severity), floor),
      package: pkg,
      ...where,
      details: { ...base, reasons: d.escalation_reasons, risk_from: d.risk.from, risk_to: d.risk.to, capabilities_gained: d.capabilities.gained.slice(0, 20), codes_gained: d.capabilities.codes_gained.slice(0, 20) },
    });
  }
  if (d.maintainers.added.length > 0)
    await publishEvent(q, {
      type: 'maintainer_changed',
      severity: 'medium',
      package: pkg,
      ...where,
      details: { ...base, added: d.maintainers.added.slice(0, 20).map((x) => x.slice(0, 200)), removed: d.maintainers.removed.slice(0, 20).map((x) => x.slice(0, 200)), publisher_changed: d.publisher.changed },
    });
}

/**
 * Diffs two releases of one package (from = the older, to = the newer). Both are analysed; a diff already stored for
 * that pair and analyzer version is returned as it was (`repeated`), with no new row and no events.
 */
export interface DiffOptions {
  /** The project the package belongs to (its events carry it). */
  readonly project?: string;
  /** False when the caller publishes the events itself (a monitoring check publishes its own set). Default true. */
  readonly publish?: boolean;
}

export async function diffReleases(p: Platform, deps: ScanDeps, request: DiffRequest, actor: string, requestId: string | null, signal?: AbortSignal, options: DiffOptions = {}): Promise<DiffResult> {
  const started = Date.now();
  const body = validate(diffRequestSchema, request, 'diff request');
  const ecosystemText = body.ecosystem ?? 'npm';
  if (!isScanEcosystem(ecosystemText)) throw new VitrineError('validation_failed', `ecosystem must be one of ${SCAN_ECOSYSTEMS.join(', ')}`, { details: [{ path: 'ecosystem', issue: 'not a supported ecosystem' }] });
  const ecosystem: ScanEcosystem = ecosystemText;
  const name = normalizeName(ecosystem, body.name);
  const sources = deps.sources();
  const fromRel = await resolveRelease(sources, ecosystem, name, body.from_version, signal);
  const toRel = await resolveRelease(sources, ecosystem, name, body.to_version, signal);
  if (fromRel.version === toRel.version) throw new VitrineError('validation_failed', 'from_version and to_version name the same release', { details: [{ path: 'to_version', issue: 'same release as from_version' }] });
  // A reversed pair would read a downgrade as drift: from must be the older release.
  if (versionBefore(ecosystem, toRel.version, fromRel.version))
    throw new VitrineError('validation_failed', 'from_version must be the older release: to_version comes before it', { details: [{ path: 'from_version', issue: 'newer than to_version' }] });
  const [from, to] = await Promise.all([analyse(p, deps, fromRel, signal), analyse(p, deps, toRel, signal)]);
  const av = [analyzerVersion(from), analyzerVersion(to)].filter((v, i, xs) => xs.indexOf(v) === i).join(' -> ');
  const diff = compareReleases({ id: randomUUID(), from, to, analyzerVersion: av, thresholds: await thresholdsOf(p), createdBy: actor, createdAt: new Date().toISOString(), durationMs: Date.now() - started });
  return p.store.transaction(async (q): Promise<DiffResult> => {
    const saved = await saveDiff(q, diff);
    await p.audit.appendWithin(q, 'diff.create', actor, requestId, { diff_id: saved.diff.id, ecosystem, name, from_version: diff.from_version, to_version: diff.to_version, escalated: saved.diff.escalated, repeated: !saved.inserted });
    if (saved.inserted && options.publish !== false) await publishDiffEvents(q, saved.diff, options.project);
    return { ...saved.diff, repeated: !saved.inserted };
  });
}
