// The worker side of POST /vulnerabilities/import: the uploaded advisory file is recognised, decompressed and parsed here, and its records written to the store (the workstation's file, or the shared PostgreSQL database) through this process's own connection; the gateway only streams the bytes to a file and reads the import record.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AdvisoryImport, AdvisorySourceKind } from '../../core/contracts/pkgscan-vulns.js';
import { VitrineError } from '../../core/errors.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { openStore } from '../../core/store.js';
import { validate } from '../../core/validation.js';
import { detectKind } from '../../core/vulns/sources.js';
import { AdvisoryStore } from '../../core/vulns/store.js';
import { MigratingDb } from '../db/open.js';
import { PgDb } from '../db/postgres.js';
import { PgAdvisories } from './repository.js';

export const ADVISORY_DETECT_JOB = 'pkgscan.advisory_detect';
export const ADVISORY_IMPORT_JOB = 'pkgscan.advisory_import';

/** Upload temp files are `<data>/tmp/advisories-<import id>`. */
export const ADVISORY_TEMP_PREFIX = 'advisories-';

/** Where one advisory upload waits while it is imported. */
export function advisoryUploadPath(dataDir: string, id: string): string {
  return path.join(dataDir, 'tmp', `${ADVISORY_TEMP_PREFIX}${id}`);
}

/** The kinds an uploaded file can be (a folder of OSV records is only read from disk by the command line). */
const UPLOAD_KINDS = ['osv-json', 'osv-zip', 'kev-json', 'kev-csv', 'epss-csv', 'epss-json', 'nvd-json'] as const satisfies readonly AdvisorySourceKind[];

const uploadSchema = {
  dataDir: z.string().min(1).max(4096),
  id: z.string().uuid(),
};

export const advisoryDetectPayloadSchema = z.strictObject(uploadSchema);
export type AdvisoryDetectPayload = z.infer<typeof advisoryDetectPayloadSchema>;

export const advisoryImportPayloadSchema = z
  .strictObject({
    ...uploadSchema,
    /** The workstation store's file (absolute): the worker opens its own connection to it. */
    database: z.string().min(1).max(4096).optional(),
    /** Or the shared PostgreSQL database: the worker opens its own small pool on it. */
    databaseUrl: z.string().min(1).max(4096).optional(),
    kind: z.enum(UPLOAD_KINDS),
    /** Who asked (PostgreSQL: the audit entries are appended in the import's own transactions). */
    audit: z.strictObject({ actor: z.string().min(1).max(200), request_id: z.string().max(200).nullable(), size: z.number().int().nonnegative() }).optional(),
  })
  .refine((p) => (p.database === undefined) !== (p.databaseUrl === undefined), 'exactly one of database and databaseUrl');
export type AdvisoryImportPayload = z.infer<typeof advisoryImportPayloadSchema>;

/** The upload's real path, only when it is a regular file directly in `<dataDir>/tmp` (the payload crossed a process boundary). */
function uploadFile(dataDir: string, id: string): string {
  try {
    const real = realpathSync(advisoryUploadPath(dataDir, id));
    if (path.dirname(real) !== realpathSync(path.join(dataDir, 'tmp')) || !statSync(real).isFile()) throw new Error('outside');
    return real;
  } catch {
    throw new VitrineError('not_found', 'the uploaded advisory file is not available to the worker');
  }
}

function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//.test(url);
}

function isStoreFile(file: string): boolean {
  try {
    return path.isAbsolute(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Which source the upload is, from its first bytes (415 when none). */
export async function advisoryDetectJob(payload: unknown): Promise<AdvisorySourceKind> {
  const p = validate(advisoryDetectPayloadSchema, payload, 'advisory recognition request');
  const kind = await detectKind(uploadFile(p.dataDir, p.id));
  if (kind === 'osv-dir') throw new VitrineError('unsupported_media_type', 'the advisory source is not a recognised format (OSV, KEV, EPSS or NVD)');
  return kind;
}

/**
 * Imports the upload into the store file: every decompression bounded, JSON arrays parsed as a stream, records
 * written in batches (the store's own import). The import row carries this process's id, so an import whose worker
 * dies is marked failed at the next start (or at once by the gateway when the job fails).
 */
export async function advisoryImportJob(payload: unknown, ctx: JobContext): Promise<AdvisoryImport> {
  const p = validate(advisoryImportPayloadSchema, payload, 'advisory import request');
  const file = uploadFile(p.dataDir, p.id);
  const progress = (fraction: number, message: string): void => ctx.progress(fraction, message);
  if (p.databaseUrl !== undefined) {
    if (!isPostgresUrl(p.databaseUrl)) throw new VitrineError('unavailable', 'the advisory store is not available to the worker');
    // Its own pool (two connections: the import is one statement at a time), migrated or checked under the lock.
    const db = new MigratingDb(new PgDb({ url: p.databaseUrl, max: 2, applicationName: 'vitrine-pkgscan-advisory-import' }));
    try {
      const audit = p.audit === undefined ? undefined : { actor: p.audit.actor, requestId: p.audit.request_id, details: { size: p.audit.size } };
      return await new PgAdvisories(db).importFile(file, p.kind, progress, { id: p.id, ...(audit !== undefined ? { audit } : {}) });
    } finally {
      await db.close();
    }
  }
  if (p.database === undefined || !isStoreFile(p.database)) throw new VitrineError('unavailable', 'the advisory store is not available to the worker');
  const db = openStore(p.database, []);
  try {
    return await new AdvisoryStore(db).importFile(file, p.kind, progress, { id: p.id });
  } finally {
    db.close();
  }
}
