// The gateway side of a container scan: vulnerabilities from the advisory store, the decision (never clean when incomplete or not assessed), storing and auditing.
import { randomUUID } from 'node:crypto';
import type { ContainerFinding, ContainerImageSummary, ContainerPackage, ContainerScan, ContainerToolStatus } from '../../core/contracts/pkgscan-containers.js';
import type { AdvisoryItem, Decision, Severity } from '../../core/contracts/pkgscan.js';
import type { LookupStatus } from '../../core/contracts/pkgscan-vulns.js';
import type { Platform } from '../platform.js';
import { SEVERITY_RANK as RANK } from '../vocabulary.js';
import { advisoriesOf, assessmentOf, type AdvisoryBackend } from '../vulns/advisories.js';
import type { ContainerAnalysis } from './analyze.js';
import { saveContainerScan } from './store.js';

/** Findings kept with a stored scan (most severe first); the counts cover all of them. */
export const MAX_STORED_FINDINGS = 2000;

export interface VulnerabilityResult {
  readonly status: ContainerImageSummary['vulnerabilities'];
  readonly message: string;
  readonly findings: ContainerFinding[];
  readonly advisories: ContainerScan['advisories'];
}

/**
 * The OSV ecosystem, name and version a package is looked up under: the ecosystem its source named when it was read
 * (engines/core/oci PACKAGE_SOURCES; null when none can be named, e.g. a distribution OSV does not cover); the name and
 * version as OSV's distribution advisories list them: Debian by source package and source version, Alpine by origin.
 */
export function lookupKey(p: ContainerPackage): { ecosystem: string; name: string; version: string } | null {
  const ecosystem = p.ecosystem ?? null;
  if (ecosystem === null) return null;
  if (p.type === 'deb') return { ecosystem, name: p.source ?? p.name, version: p.source_version ?? p.version };
  if (p.type === 'apk') return { ecosystem, name: p.source ?? p.name, version: p.version };
  return { ecosystem, name: p.name, version: p.version };
}

/** Looks every package up; any package without complete advisory data makes the whole assessment partial (unknown, never "none"). */
export async function assessContainerVulnerabilities(p: AdvisoryBackend, packages: readonly ContainerPackage[]): Promise<VulnerabilityResult> {
  const store = advisoriesOf(p);
  const counts: Record<LookupStatus, number> = { ok: 0, partial: 0, unavailable: 0 };
  const findings: ContainerFinding[] = [];
  const advisories: { purl: string | null; name: string; version: string; items: AdvisoryItem[] }[] = [];
  const missing = new Set<string>();
  for (const p of packages) {
    const key = lookupKey(p);
    if (key === null) {
      counts.unavailable++;
      missing.add(`${p.type} (distribution not known to the advisory database)`);
      continue;
    }
    let a;
    try {
      a = assessmentOf(await store.lookup(key.ecosystem, key.name, key.version));
    } catch {
      counts.unavailable++;
      missing.add(key.ecosystem);
      continue;
    }
    counts[a.status]++;
    if (a.status !== 'ok') for (const m of a.missing_sources) missing.add(m);
    if (a.items.length === 0) continue;
    advisories.push({ purl: p.purl, name: p.name, version: p.version, items: [...a.items] });
    for (const item of a.items) {
      if (findings.length >= 1000) break;
      findings.push({
        code: item.malicious ? 'malicious_package' : 'vulnerability',
        category: 'vulnerability',
        severity: item.malicious ? 'critical' : item.severity,
        title: `${item.id} affects ${p.name} ${p.version}${item.fixed_versions.length > 0 ? ` (fixed in ${item.fixed_versions.slice(0, 3).join(', ')})` : ''}`,
        file: p.file,
        layer: p.layer,
        rule_id: item.id,
        match: null,
        line: null,
        package: { ecosystem: key.ecosystem, name: p.name, version: p.version },
      });
    }
  }
  const status: VulnerabilityResult['status'] = counts.partial === 0 && counts.unavailable === 0 ? 'ok' : counts.ok === 0 && counts.partial === 0 && packages.length > 0 ? 'unavailable' : 'partial';
  const list = [...missing].slice(0, 10).join(', ');
  const message = status === 'ok' ? `${packages.length} packages looked up; ${findings.length} advisories` : `${counts.ok} of ${packages.length} packages assessed with complete data${list !== '' ? `; missing or stale: ${list}` : ''}`;
  return { status, message, findings, advisories };
}

function worst(findings: readonly ContainerFinding[]): Severity | null {
  let w: Severity | null = null;
  for (const f of findings) if (w === null || RANK[f.severity] > RANK[w]) w = f.severity;
  return w;
}

/** critical/high -> block, medium -> warn, else allow; raised to at least warn when incomplete or vulnerabilities were not assessed. */
export function decide(findings: readonly ContainerFinding[], complete: boolean, vulnerabilities: ContainerImageSummary['vulnerabilities']): Decision {
  const w = worst(findings);
  const base: Decision = w === 'critical' || w === 'high' ? 'block' : w === 'medium' ? 'warn' : 'allow';
  if (base === 'allow' && (!complete || vulnerabilities !== 'ok')) return 'warn';
  return base;
}

export interface FinishOptions {
  readonly imageRef: string | null;
  readonly vulnerabilities: boolean;
  readonly actor: string;
  readonly requestId: string | null;
  readonly startedAt: number;
}

/** Assesses vulnerabilities, decides, stores and audits one analysed image. */
export async function finishContainerScan(p: Platform, a: ContainerAnalysis, o: FinishOptions): Promise<ContainerScan> {
  let vuln: VulnerabilityResult = o.vulnerabilities
    ? await assessContainerVulnerabilities(p, a.packages)
    : { status: 'not_requested', message: 'not requested (query vulnerabilities=true)', findings: [], advisories: [] };
  // packages of an image read only in part were never all looked up
  if (vuln.status === 'ok' && !a.complete) vuln = { ...vuln, status: 'partial', message: `${vuln.message}; the package list is incomplete` };
  const findings: ContainerFinding[] = [...a.findings, ...vuln.findings];
  if (vuln.status !== 'ok')
    findings.push({
      code: 'vulnerabilities_not_assessed',
      category: 'vulnerability',
      severity: 'medium',
      title: vuln.status === 'not_requested' ? 'Vulnerabilities were not assessed (not requested)' : `Vulnerabilities were not fully assessed: ${vuln.message}`,
      file: null,
      layer: null,
      rule_id: null,
      match: null,
      line: null,
    });
  if (!a.complete && !findings.some((f) => f.code === 'image_incomplete'))
    findings.push({ code: 'image_incomplete', category: 'image', severity: 'medium', title: 'The image could not be read completely', file: null, layer: null, rule_id: null, match: null, line: null });
  const sorted = [...findings].sort((x, y) => RANK[y.severity] - RANK[x.severity]);
  const bySeverity: Record<Severity, number> = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  for (const f of findings) bySeverity[f.severity]++;
  const tools: ContainerToolStatus[] = [
    ...a.tools,
    { name: 'vulnerabilities', status: vuln.status === 'not_requested' ? 'skipped' : vuln.status === 'ok' ? 'ok' : vuln.status === 'partial' ? 'partial' : 'unavailable', message: vuln.message },
  ];
  const decision = decide(findings, a.complete, vuln.status);
  const scan: ContainerScan = {
    id: randomUUID(),
    image_ref: o.imageRef,
    status: a.complete ? 'complete' : 'incomplete',
    decision,
    severity: worst(findings),
    package_count: a.packages.length,
    finding_count: findings.length,
    created_at: new Date().toISOString(),
    created_by: o.actor,
    summary: { ...a.summary, findings_by_severity: bySeverity, vulnerabilities: vuln.status },
    tools,
    findings: sorted.slice(0, MAX_STORED_FINDINGS),
    findings_truncated: sorted.length > MAX_STORED_FINDINGS,
    layers: a.layers,
    packages: a.packages,
    advisories: vuln.advisories,
    duration_ms: Date.now() - o.startedAt,
  };
  await p.store.transaction(async (q) => {
    await saveContainerScan(q, scan, a.sbom);
    await p.audit.appendWithin(q, 'container.scan', o.actor, o.requestId, { scan_id: scan.id, status: scan.status, decision, upload_sha256: scan.summary.upload_sha256, upload_size: scan.summary.upload_size, vulnerabilities: vuln.status });
  });
  return scan;
}
