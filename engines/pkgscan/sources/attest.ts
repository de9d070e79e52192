// The worker side of POST /packages/store/{id}/attestations: the uploaded attestation document is parsed and verified offline here (shipped trust root), never in the gateway.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ScanProvenance } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import { SCAN_ECOSYSTEMS, type RegistryInfo } from '../package/types.js';
import { verifyProvenance } from '../provenance/verify.js';
import { PACKAGE_UPLOAD_DIR } from './identify.js';
import { withAttestations } from './import.js';
import { artifactBytes } from './store.js';

export const ATTEST_JOB = 'pkgscan.attest';

/** Largest attestation document an upload takes (a real npm document with two bundles is about 15 KB; a PEP 740 object about 10 KB). */
export const MAX_ATTESTATION_BYTES = 4 * 1024 * 1024;

export const attestPayloadSchema = z.strictObject({
  dataDir: z.string().min(1).max(4096),
  resourcesDir: z.string().min(1).max(4096),
  upload: z.string().uuid(),
  release: z.strictObject({
    ecosystem: z.enum(SCAN_ECOSYSTEMS),
    name: z.string().min(1).max(214),
    version: z.string().min(1).max(200),
    filename: z.string().min(1).max(255),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  /** The stored registry information of the release, its attestations left out (the upload replaces them). */
  registry: z.record(z.string(), z.unknown()).nullable(),
});
export type AttestPayload = z.infer<typeof attestPayloadSchema>;

export interface AttestResult {
  /** What the release's registry information becomes. */
  readonly registry: RegistryInfo;
  /** The offline verification of the document against the stored archive. */
  readonly provenance: ScanProvenance;
  /** Why verification failed, one line per distinct reason (empty unless \`provenance.status\` is \`invalid\`). */
  readonly problems: readonly string[];
}

/** The private file of one attestation upload, named by its id only. */
export function attestationUploadPath(dataDir: string, upload: string): string {
  return path.join(dataDir, PACKAGE_UPLOAD_DIR, `${upload}.attestation`);
}

function readUpload(dataDir: string, upload: string): string {
  try {
    const real = realpathSync(attestationUploadPath(dataDir, upload));
    const info = statSync(real);
    if (path.dirname(real) !== realpathSync(path.join(dataDir, PACKAGE_UPLOAD_DIR)) || !info.isFile() || info.size > MAX_ATTESTATION_BYTES) throw new Error('outside');
    return readFileSync(real, 'utf8');
  } catch {
    throw new VitrineError('not_found', 'the uploaded attestation document is not available to the worker');
  }
}

/** The job: validates its payload, parses the document (a JSON object), merges it into the registry information and verifies it against the stored archive. */
export async function attestJob(payload: unknown, ctx: JobContext): Promise<AttestResult> {
  const p = validate(attestPayloadSchema, payload, 'attestation verification request');
  const text = readUpload(p.dataDir, p.upload);
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new VitrineError('validation_failed', 'the attestation document is not JSON', { details: [{ path: 'body', issue: 'not JSON' }] });
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new VitrineError('validation_failed', 'the attestation document must be a JSON object (npm: the attestations document; PyPI: a PEP 740 provenance object or one attestation)', { details: [{ path: 'body', issue: 'not a JSON object' }] });
  }
  ctx.progress(0.2, 'reading the stored archive');
  const archive = artifactBytes(p.dataDir, p.release.sha256);
  const base = p.registry === null ? undefined : (p.registry as RegistryInfo);
  const registry = withAttestations(base, [doc], p.release.ecosystem, archive) ?? {};
  ctx.progress(0.5, 'verifying the attestations');
  const { findings, ...provenance } = await verifyProvenance({ ...p.release, registry }, { resourcesDir: p.resourcesDir, archive });
  ctx.progress(1, provenance.status);
  return { registry, provenance, problems: findings.map((f) => f.title) };
}
