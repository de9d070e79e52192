// The worker side of a package scan: read the stored archive in memory, run every analyzer, verify provenance; nothing from the package is ever executed.
import { z } from 'zod';
import type { ArchiveIssue, ArchiveIssueCode } from '../../core/archive/types.js';
import type { AnalyzerRun, ScanFinding, ScanProvenance, Severity } from '../../core/contracts/pkgscan.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import { DEFAULT_ANALYZERS, runAnalyzers } from '../analyzers/risk.js';
import { openRelease } from '../package/open.js';
import { SCAN_ECOSYSTEMS, type PackageRelease, type RegistryInfo } from '../package/types.js';
import { verifyProvenance } from '../provenance/verify.js';
import { artifactBytes } from '../sources/store.js';
import { toolAnalyzers } from '../tools/index.js';
import { MAX_INVENTORY, type PackageAnalysis } from './types.js';

export const ANALYZE_JOB = 'pkgscan.analyze';

const person = z.object({ name: z.string().max(500).optional(), email: z.string().max(500).optional() });

/** Registry facts cross the process boundary from the gateway's source; validated like any payload. */
const registrySchema = z.object({
  versions: z.array(z.string().max(200)).max(100_000).optional(),
  published: z.record(z.string().max(200), z.string().max(100)).optional(),
  maintainers: z.array(person).max(1000).optional(),
  publisher: person.optional(),
  integrity: z.string().max(1000).optional(),
  signatures: z.array(z.object({ keyid: z.string().max(500), sig: z.string().max(2000) })).max(50).optional(),
  attestations: z.array(z.unknown()).max(50).optional(),
});

export const analyzePayloadSchema = z.strictObject({
  dataDir: z.string().min(1).max(4096),
  resourcesDir: z.string().min(1).max(4096),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  filename: z.string().min(1).max(500),
  ecosystem: z.enum(SCAN_ECOSYSTEMS),
  registry: registrySchema.nullable(),
  internalNamespaces: z.array(z.string().min(1).max(214)).max(100),
});

export type AnalyzePayload = z.infer<typeof analyzePayloadSchema>;

/** How each archive problem reads as a finding: unsafe members and bombs are attacks on the reader, damage makes the analysis incomplete. */
const ARCHIVE_FINDINGS: Readonly<Record<ArchiveIssueCode, { code: string; severity: Severity; title: string }>> = {
  absolute_path: { code: 'archive_unsafe_path', severity: 'high', title: 'Archive member with an absolute path (would write outside the package)' },
  path_traversal: { code: 'archive_unsafe_path', severity: 'high', title: 'Archive member with a .. path (would write outside the package)' },
  link_member: { code: 'archive_link_member', severity: 'medium', title: 'Archive member is a symbolic or hard link' },
  device_member: { code: 'archive_device_member', severity: 'high', title: 'Archive member is a device or FIFO' },
  duplicate_member: { code: 'archive_duplicate_member', severity: 'high', title: 'Two archive members share one path or a second top-level folder maps onto the same paths (the installer keeps the later one, which may hide an install hook)' },
  installer_ambiguity: { code: 'archive_installer_ambiguity', severity: 'high', title: 'The installer would read this archive otherwise than the analysis did (a member after an end marker, or zip names that disagree): the analysis is incomplete' },
  member_too_large: { code: 'archive_member_not_analysed', severity: 'low', title: 'Archive member over the size limit was not analysed' },
  too_many_members: { code: 'archive_bomb', severity: 'high', title: 'Archive has more members than the limit' },
  total_too_large: { code: 'archive_bomb', severity: 'high', title: 'Archive expands past the size limit' },
  ratio_too_high: { code: 'archive_bomb', severity: 'high', title: 'Compression ratio past the limit (decompression bomb)' },
  nesting_too_deep: { code: 'archive_bomb', severity: 'high', title: 'Archives nested deeper than the limit' },
  overlapping_members: { code: 'archive_bomb', severity: 'high', title: 'Zip members overlap (a zip bomb construction)' },
  encrypted_member: { code: 'archive_incomplete', severity: 'medium', title: 'Encrypted archive member could not be analysed' },
  unsupported_compression: { code: 'archive_incomplete', severity: 'medium', title: 'Archive member uses a compression method that is not read' },
  truncated: { code: 'archive_incomplete', severity: 'medium', title: 'Archive is truncated: the analysis is incomplete' },
  corrupt: { code: 'archive_incomplete', severity: 'medium', title: 'Archive is damaged: the analysis is incomplete' },
};

/** The finding codes the archive analyzer gives. */
export const ARCHIVE_FINDING_CODES: readonly string[] = [...new Set(Object.values(ARCHIVE_FINDINGS).map((f) => f.code))];

/** One finding per (code, member): the same problem repeated over a thousand members is one line per member, capped. */
export function archiveFindings(issues: readonly ArchiveIssue[], cap = 200): ScanFinding[] {
  const out: ScanFinding[] = [];
  const seen = new Set<string>();
  for (const i of issues) {
    const f = ARCHIVE_FINDINGS[i.code];
    const key = `${f.code}\u0000${i.path ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code: f.code, severity: f.severity, category: 'archive', title: f.title, file: i.path ?? null, line: null, match: null, technique: null, analyzer: 'archive' });
    if (out.length >= cap) break;
  }
  return out;
}

function elapsed(start: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - start) / 1e6);
}

const UNCHECKED_PROVENANCE: ScanProvenance = {
  status: 'unavailable',
  kind: null,
  builder: null,
  source_repository: null,
  source_commit: null,
  workflow: null,
  registry_signature: 'absent',
  message: 'provenance could not be checked',
};

/** Provenance as a timed analyzer run; a failure of the verifier is `unavailable`, never a pass. */
async function provenanceOf(release: PackageRelease, resourcesDir: string, archive: Uint8Array): Promise<{ provenance: ScanProvenance; findings: ScanFinding[]; run: AnalyzerRun }> {
  const start = process.hrtime.bigint();
  try {
    const r = await verifyProvenance(release, { resourcesDir, archive });
    const { findings, ...provenance } = r;
    return { provenance, findings: [...findings], run: { name: 'provenance', version: '1.0.0', status: 'ok', duration_ms: elapsed(start), findings: findings.length, message: null } };
  } catch {
    return { provenance: UNCHECKED_PROVENANCE, findings: [], run: { name: 'provenance', version: '1.0.0', status: 'failed', duration_ms: elapsed(start), findings: 0, message: 'the provenance verifier failed' } };
  }
}

/** Reads the archive from the package store and analyses it. */
export async function analyzeStored(input: AnalyzePayload, ctx: Pick<JobContext, 'signal' | 'progress'>): Promise<PackageAnalysis> {
  ctx.progress(0.05, 'reading the archive');
  const bytes = artifactBytes(input.dataDir, input.sha256);
  const readStart = process.hrtime.bigint();
  const release = openRelease(bytes, { filename: input.filename, ecosystem: input.ecosystem, ...(input.registry !== null ? { registry: input.registry as RegistryInfo } : {}) });
  const archive = archiveFindings(release.archiveIssues);
  const archiveRun: AnalyzerRun = { name: 'archive', version: '1.0.0', status: 'ok', duration_ms: elapsed(readStart), findings: archive.length, message: release.complete ? null : 'the archive was not read to its end' };
  ctx.signal.throwIfAborted();
  ctx.progress(0.25, 'running the analyzers');
  const analyzers = [...DEFAULT_ANALYZERS, ...toolAnalyzers()];
  const analyzed = await runAnalyzers(release, { resourcesDir: input.resourcesDir, internalNamespaces: input.internalNamespaces, signal: ctx.signal }, analyzers);
  ctx.signal.throwIfAborted();
  ctx.progress(0.85, 'checking provenance');
  const prov = await provenanceOf(release, input.resourcesDir, bytes);
  const files = release.files.slice(0, MAX_INVENTORY).map((f) => ({ path: f.path, size: f.size, sha256: f.sha256, executable: f.executable }));
  ctx.progress(1, 'analysed');
  return {
    ecosystem: release.ecosystem,
    name: release.name,
    version: release.version,
    kind: release.kind,
    filename: release.filename,
    sha256: release.sha256,
    size: release.size,
    complete: release.complete,
    metadata: release.metadata,
    registry: release.registry ?? null,
    files,
    files_total: release.files.length,
    findings: [...archive, ...analyzed.findings, ...prov.findings],
    chains: analyzed.chains,
    runs: [archiveRun, ...analyzed.runs, prov.run],
    risk: analyzed.risk,
    provenance: prov.provenance,
  };
}

/** The job: validates its payload (it crossed a process boundary), then analyses. */
export async function analyzeJob(payload: unknown, ctx: JobContext): Promise<PackageAnalysis> {
  return analyzeStored(validate(analyzePayloadSchema, payload, 'analysis request'), ctx);
}
