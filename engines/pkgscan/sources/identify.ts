// The worker side of POST /packages/import: the streamed upload is parsed here (identity from the archive's own metadata), never in the gateway.
import { randomUUID } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import type { JobContext, JobRunner } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import { SCAN_ECOSYSTEMS, type ReleaseIdentity } from '../package/types.js';
import { identifyArchive, MAX_ARCHIVE_BYTES, saveArtifact, storeUploadedFile, type ArtifactDb, type ImportOptions, type ImportResult } from './store.js';

export const IDENTIFY_JOB = 'pkgscan.identify';

/** The worker's time limit for reading an archive's identity. */
export const IDENTIFY_TIMEOUT_MS = 2 * 60_000;

/** Where uploads wait (inside the data dir, beside the store, so the move into the store is a rename). */
export const PACKAGE_UPLOAD_DIR = path.join('pkgscan', 'package-uploads');

export const identifyPayloadSchema = z.strictObject({
  dataDir: z.string().min(1).max(4096),
  upload: z.string().uuid(),
  filename: z.string().min(1).max(255).optional(),
  ecosystem: z.enum(SCAN_ECOSYSTEMS).optional(),
  /** The identity a registry listed the archive under (a mirror download): an archive declaring another is refused. */
  expected: z.strictObject({ name: z.string().min(1).max(214), version: z.string().min(1).max(200) }).optional(),
});
export type IdentifyPayload = z.infer<typeof identifyPayloadSchema>;

/** The private file of one upload, named by its id only. */
export function packageUploadPath(dataDir: string, upload: string): string {
  return path.join(dataDir, PACKAGE_UPLOAD_DIR, `${upload}.upload`);
}

/** The job: validates its payload (it crossed a process boundary), reads the upload, identifies the release. */
export function identifyJob(payload: unknown, ctx: JobContext): Promise<ReleaseIdentity> {
  const p = validate(identifyPayloadSchema, payload, 'package identification request');
  let bytes: Buffer;
  try {
    const real = realpathSync(packageUploadPath(p.dataDir, p.upload));
    const info = statSync(real);
    if (path.dirname(real) !== realpathSync(path.join(p.dataDir, PACKAGE_UPLOAD_DIR)) || !info.isFile() || info.size > MAX_ARCHIVE_BYTES) throw new Error('outside');
    bytes = readFileSync(real);
  } catch {
    throw new VitrineError('not_found', 'the uploaded archive is not available to the worker');
  }
  ctx.progress(0.2, 'reading the archive');
  const identity = identifyArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { filename: p.filename, ecosystem: p.ecosystem, expected: p.expected });
  ctx.progress(1, 'identified');
  return Promise.resolve(identity);
}

/**
 * importArchive with the parse in a worker: the bytes (a mirror download, already bounded) go to a private upload
 * file, the worker reads their identity, and this process only moves the file into the store and records the release.
 */
export async function importArchiveInWorker(jobs: JobRunner, db: ArtifactDb, dataDir: string, bytes: Uint8Array, options: ImportOptions, signal?: AbortSignal): Promise<ImportResult> {
  const upload = randomUUID();
  const file = packageUploadPath(dataDir, upload);
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
    const payload: IdentifyPayload = {
      dataDir,
      upload,
      ...(options.filename !== undefined ? { filename: options.filename } : {}),
      ...(options.ecosystem !== undefined ? { ecosystem: options.ecosystem } : {}),
      ...(options.expected !== undefined ? { expected: { name: options.expected.name, version: options.expected.version } } : {}),
    };
    const identity = (await jobs.run(IDENTIFY_JOB, payload, { timeoutMs: IDENTIFY_TIMEOUT_MS, label: 'Identify a mirrored package', ...(signal !== undefined ? { signal } : {}) })) as ReleaseIdentity;
    await storeUploadedFile(dataDir, file, identity);
    return await saveArtifact(db, identity, options);
  } finally {
    await rm(file, { force: true });
  }
}
