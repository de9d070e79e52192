// The worker side of a container scan: read the uploaded image in memory, run the checks, list packages, build and validate the CycloneDX SBOM; nothing in the image is run or written out.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ContainerFinding, ContainerImageSummary, ContainerLayer, ContainerPackage, ContainerToolStatus } from '../../core/contracts/pkgscan-containers.js';
import { VitrineError } from '../../core/errors.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { readImage, type ImageLimits, type ImageRead, type IndexEntry } from '../../core/oci/index.js';
import { buildCycloneDx, validateCycloneDx, type CycloneDxDocument, type SbomComponent } from '../../core/sbom/index.js';
import { validate } from '../../core/validation.js';
import { configFindings, DEFAULT_SECRET_BUDGET, historyFindings, issueFindings, permissionFindings, SecretScanner, type SecretBudget } from './checks.js';
import { findSecrets } from './secrets.js';

export const CONTAINER_SCAN_JOB = 'pkgscan.container_scan';

/** The folder of the data dir the route streams uploads into (mode 0700), one private file per scan. */
export const UPLOAD_DIR = 'container-uploads';

export const containerPayloadSchema = z.strictObject({
  dataDir: z.string().min(1).max(4096),
  upload: z.uuid(),
  imageRef: z.string().max(300).nullable(),
});
export type ContainerPayload = z.infer<typeof containerPayloadSchema>;

/** What the worker hands back; the gateway adds vulnerabilities, decides and stores. */
export interface ContainerAnalysis {
  readonly complete: boolean;
  readonly incompleteReasons: readonly string[];
  readonly summary: Omit<ContainerImageSummary, 'findings_by_severity' | 'vulnerabilities'>;
  readonly osvEcosystem: string | null;
  readonly layers: readonly ContainerLayer[];
  readonly packages: readonly ContainerPackage[];
  readonly findings: readonly ContainerFinding[];
  readonly tools: readonly ContainerToolStatus[];
  readonly sbom: CycloneDxDocument | null;
}

export interface AnalyzeOptions {
  readonly imageRef?: string | null;
  readonly limits?: Partial<ImageLimits>;
  readonly secretBudget?: SecretBudget;
  readonly signal?: AbortSignal;
  readonly progress?: (fraction: number, message: string) => void;
}

const VERSION = '1.0.0';

function layerOf(read: ImageRead, i: number): ContainerLayer {
  const l = read.layers[i];
  if (l === undefined) throw new VitrineError('internal', 'layer index out of range');
  return {
    index: l.index,
    digest: l.digest,
    diff_id: l.diffId,
    media_type: l.mediaType,
    size: l.size,
    // a build command that carried a credential is not shown at all (the finding names the rule)
    created_by: l.createdBy !== null && findSecrets(l.createdBy, 1).length > 0 ? '[withheld: the command holds a credential]' : l.createdBy,
    complete: l.complete,
    files_added: l.filesAdded,
    files_changed: l.filesChanged,
    files_removed: l.filesRemoved,
    bytes_added: l.bytesAdded,
    packages_added: l.packagesAdded.map((p) => ({ type: p.type, name: p.name, version: p.version })),
    packages_upgraded: l.packagesUpgraded.map((p) => ({ type: p.type, name: p.name, from: p.from ?? '', to: p.version })),
    packages_removed: l.packagesRemoved.map((p) => ({ type: p.type, name: p.name, version: p.version })),
  };
}

/** The CycloneDX 1.6 document of the image's packages (one component per purl), the distribution as an operating-system component. */
export function sbomOf(read: ImageRead, packages: readonly ContainerPackage[], subject: string): CycloneDxDocument {
  const components: SbomComponent[] = [];
  const seen = new Set<string>();
  if (read.os !== null) {
    components.push({ ref: 'os', name: read.os.id, version: read.os.versionId ?? '', type: 'operating-system' });
    seen.add('os');
  }
  for (const p of packages) {
    const ref = p.purl ?? `${p.type}:${p.name}@${p.version}:${p.file}`;
    if (seen.has(ref)) continue;
    seen.add(ref);
    components.push({
      ref,
      name: p.name,
      version: p.version,
      ...(p.purl !== null ? { purl: p.purl } : {}),
      type: 'library',
      properties: [
        { name: 'vitrine:package_type', value: p.type },
        { name: 'vitrine:layer', value: String(p.layer) },
        { name: 'vitrine:file', value: p.file },
        ...(p.source !== null ? [{ name: 'vitrine:source_package', value: p.source }] : []),
      ],
    });
  }
  return buildCycloneDx({
    subject: { name: subject, type: 'container' },
    serial: randomUUID(),
    created: new Date().toISOString(),
    tool: { name: 'vitrine-pkgscan', version: VERSION },
    components,
    dependencies: [{ ref: 'subject', dependsOn: components.map((c) => c.ref) }],
  });
}

const REASONS: Readonly<Record<string, string>> = {
  truncated: 'the archive or a layer is cut short',
  corrupt: 'the archive or a layer is damaged',
  unsupported_compression: 'a layer uses a compression that is not read (zstd, bzip2, xz)',
  no_manifest: 'the upload is not a docker-save or OCI-layout image',
  bad_manifest: 'the image manifest is not readable',
  bad_config: 'the image configuration is not readable',
  missing_blob: 'a layer or manifest is missing from the archive',
  too_many_layers: 'the image has more layers than are read',
  expanded_too_large: 'the layers expand past the size limit',
  total_too_large: 'the layers expand past the size limit',
  too_many_members: 'a layer has more files than are read',
  member_too_large: 'a file is larger than is read',
  ratio_too_high: 'a layer decompresses past the ratio limit',
  cancelled: 'the scan was cancelled',
};

/** Analyses image bytes: the whole worker-side scan, testable without a worker. */
export async function analyzeImage(bytes: Uint8Array, options: AnalyzeOptions = {}): Promise<ContainerAnalysis> {
  const progress = options.progress ?? ((): void => undefined);
  const secrets = new SecretScanner(options.secretBudget ?? DEFAULT_SECRET_BUDGET);
  progress(0.02, 'reading the image');
  const read = readImage(bytes, {
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    onProgress: progress,
    onLayer: (i, files) => secrets.layer(i, files),
  });
  options.signal?.throwIfAborted();
  const final = new Map<string, IndexEntry>(read.files.map((f) => [f.path, f]));
  const packages: ContainerPackage[] = read.packages.map((p) => ({ type: p.type, name: p.name, version: p.version, arch: p.arch, source: p.source !== null && p.source !== p.name ? p.source : null, source_version: p.sourceVersion, purl: p.purl, ecosystem: p.ecosystem, layer: p.layer, file: p.file }));
  const perms = permissionFindings(read.files);
  const findings: ContainerFinding[] = [...issueFindings(read.issues), ...(read.config !== null ? [...configFindings(read.config), ...historyFindings(read.config)] : []), ...perms.findings, ...secrets.findings(final)];
  const stopping = read.issues.filter((i) => i.stops);
  const incompleteReasons = [...new Set(stopping.map((i) => REASONS[i.code] ?? i.message))];
  const partial = !read.complete;
  const secretsPartial = secrets.skippedForBudget > 0 || secrets.truncatedFiles > 0;
  const tools: ContainerToolStatus[] = [
    { name: 'archive', status: read.complete ? 'ok' : 'partial', message: read.complete ? `${read.layers.length} layers read` : incompleteReasons.join('; ') },
    { name: 'config', status: read.config !== null ? 'ok' : 'unavailable', message: read.config !== null ? null : 'no readable image configuration' },
    {
      name: 'packages',
      status: partial || read.issues.some((i) => i.code === 'package_db_unreadable') ? 'partial' : 'ok',
      message: `${packages.length} packages (${[...new Set(packages.map((p) => p.type))].join(', ') || 'none'})${read.os !== null ? ` on ${read.os.id} ${read.os.versionId ?? ''}`.trimEnd() : ''}`,
    },
    {
      name: 'secrets',
      status: partial || secretsPartial ? 'partial' : 'ok',
      message: `${secrets.scannedFiles} text files, ${secrets.scannedBytes} bytes scanned${secrets.truncatedFiles > 0 ? `; ${secrets.truncatedFiles} files read only to the per-file cap` : ''}${secrets.skippedForBudget > 0 ? `; ${secrets.skippedForBudget} files not read (total cap)` : ''}`,
    },
    { name: 'permissions', status: partial ? 'partial' : 'ok', message: `${read.files.length} files checked; ${perms.usualSetId} usual set-uid/set-gid executables` },
  ];
  progress(0.95, 'building the SBOM');
  let sbom: CycloneDxDocument | null = null;
  try {
    const doc = sbomOf(read, packages, options.imageRef ?? read.repoTags[0] ?? 'container image');
    const errors = await validateCycloneDx(doc);
    if (errors.length === 0) {
      sbom = doc;
      tools.push({ name: 'sbom', status: 'ok', message: 'CycloneDX 1.6, validated against the schema' });
    } else tools.push({ name: 'sbom', status: 'failed', message: 'the SBOM did not validate against the CycloneDX 1.6 schema' });
  } catch {
    tools.push({ name: 'sbom', status: 'failed', message: 'the SBOM could not be built' });
  }
  const c = read.config;
  return {
    complete: read.complete,
    incompleteReasons,
    summary: {
      format: read.format,
      os: c?.os ?? null,
      architecture: c?.architecture ?? null,
      distro: read.os !== null ? `${read.os.id} ${read.os.versionId ?? ''}`.trim() : null,
      user: c !== null ? c.user : null,
      created: c?.created ?? null,
      repo_tags: read.repoTags.slice(0, 20),
      layers: read.layers.length,
      files: read.files.length,
      packages: packages.length,
      upload_sha256: createHash('sha256').update(bytes).digest('hex'),
      upload_size: bytes.length,
      env_names: (c?.env ?? []).map((e) => e.split('=')[0] ?? '').filter((n) => n !== '').slice(0, 200),
      incomplete_reasons: incompleteReasons,
    },
    osvEcosystem: read.os?.osvEcosystem ?? null,
    layers: read.layers.map((_, i) => layerOf(read, i)),
    packages,
    findings,
    tools,
    sbom,
  };
}

/** The private upload file of a scan: inside the data dir's upload folder, named by the scan's upload id only. */
export function uploadPath(dataDir: string, upload: string): string {
  return path.join(dataDir, UPLOAD_DIR, `${upload}.tar`);
}

/** The job: validates its payload (it crossed a process boundary), reads the upload into memory, analyses it. */
export async function containerScanJob(payload: unknown, ctx: JobContext): Promise<ContainerAnalysis> {
  const p = validate(containerPayloadSchema, payload, 'container scan request');
  const file = uploadPath(p.dataDir, p.upload);
  let bytes: Uint8Array;
  try {
    const real = realpathSync(file);
    if (path.dirname(real) !== realpathSync(path.join(p.dataDir, UPLOAD_DIR)) || !statSync(real).isFile()) throw new Error('outside');
    bytes = readFileSync(real);
  } catch {
    throw new VitrineError('not_found', 'the uploaded image is not available to the worker');
  }
  return analyzeImage(bytes, { imageRef: p.imageRef, signal: ctx.signal, progress: (f, m) => ctx.progress(f, m) });
}
