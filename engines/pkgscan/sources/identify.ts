// The worker side of POST /packages/import: the streamed upload is parsed here (identity from the archive's own metadata), never in the gateway.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import { SCAN_ECOSYSTEMS } from '../package/types.js';
import { identifyArchive, MAX_ARCHIVE_BYTES, type ArchiveIdentity } from './store.js';

export const IDENTIFY_JOB = 'pkgscan.identify';

/** Where uploads wait (inside the data dir, beside the store, so the move into the store is a rename). */
export const PACKAGE_UPLOAD_DIR = path.join('pkgscan', 'package-uploads');

export const identifyPayloadSchema = z.strictObject({
  dataDir: z.string().min(1).max(4096),
  upload: z.string().uuid(),
  filename: z.string().min(1).max(255).optional(),
  ecosystem: z.enum(SCAN_ECOSYSTEMS).optional(),
});
export type IdentifyPayload = z.infer<typeof identifyPayloadSchema>;

/** The private file of one upload, named by its id only. */
export function packageUploadPath(dataDir: string, upload: string): string {
  return path.join(dataDir, PACKAGE_UPLOAD_DIR, `${upload}.upload`);
}

/** The job: validates its payload (it crossed a process boundary), reads the upload, identifies the release. */
export function identifyJob(payload: unknown, ctx: JobContext): Promise<ArchiveIdentity> {
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
  const identity = identifyArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { filename: p.filename, ecosystem: p.ecosystem });
  ctx.progress(1, 'identified');
  return Promise.resolve(identity);
}
