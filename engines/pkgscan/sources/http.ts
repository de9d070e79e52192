// Routes of the package store: POST /packages/import (a raw archive upload, size-checked as it streams to a private file, identified in a worker) and GET /packages/store.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Request } from 'express';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { parseQuery, requestIdOf } from '../../core/http/index.js';
import { SCAN_ECOSYSTEMS, type ReleaseIdentity } from '../package/types.js';
import type { Platform } from '../platform.js';
import { checkRawUpload, listRoute, readRawUpload, receiveRawUpload, type RawUpload, type RouteDef, UUID } from '../routing/http.js';
import { ATTEST_JOB, attestationUploadPath, MAX_ATTESTATION_BYTES, type AttestPayload, type AttestResult } from './attest.js';
import { IDENTIFY_JOB, IDENTIFY_TIMEOUT_MS, packageUploadPath, type IdentifyPayload } from './identify.js';
import { ARTIFACT_SOURCES, MAX_ARCHIVE_BYTES, queryArtifacts, readArtifact, saveArtifact, storeUploadedFile, updateArtifactRegistry, type ImportResult } from './store.js';

export const importQuery = z.object({
  filename: z.string().min(1).max(255).regex(/^[A-Za-z0-9][A-Za-z0-9._+!~-]*$/),
  ecosystem: z.enum(SCAN_ECOSYSTEMS).optional(),
});

export const storeQuery = z.object({
  ecosystem: z.enum(SCAN_ECOSYSTEMS).optional(),
  q: z.string().min(1).max(214).optional(),
  source: z.enum(ARTIFACT_SOURCES).optional(),
});

const ARCHIVE_UPLOAD: RawUpload = {
  limit: MAX_ARCHIVE_BYTES,
  wrongType: 'send the archive as application/octet-stream',
  tooLarge: 'the archive is larger than the package store takes (256 MiB)',
};

const ATTESTATION_UPLOAD: RawUpload = {
  limit: MAX_ATTESTATION_BYTES,
  mediaType: 'application/json',
  wrongType: 'send the attestation document as application/json',
  tooLarge: 'the attestation document is larger than an upload takes (4 MiB)',
};

/** The worker's time limit for verifying an attestation document. */
const ATTEST_TIMEOUT_MS = 2 * 60_000;

/** The request body as bytes, refused with 413 as soon as it passes `limit` (the declared length is checked before anything is read). */
export async function readRawBody(req: Request, limit: number): Promise<Uint8Array> {
  const u = { ...ARCHIVE_UPLOAD, limit };
  checkRawUpload(req, u);
  return readRawUpload(req, u);
}

export function packageStoreRoutes(p: Platform): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/packages/import',
      access: 'scan:create',
      tag: 'packages',
      summary:
        'Store a release archive (npm .tgz, wheel, sdist) sent as the raw application/octet-stream body, at most 256 MiB; query `filename` and optional `ecosystem`. 201 with the stored artifact, 200 when those bytes were already stored',
      query: importQuery,
      status: 201,
      handler: async (req, res, caller) => {
        const q = parseQuery(importQuery, req);
        try {
          checkRawUpload(req, ARCHIVE_UPLOAD);
        } catch (err) {
          // The body is not read: close the connection after answering.
          res.setHeader('Connection', 'close');
          throw err;
        }
        const upload = randomUUID();
        const file = packageUploadPath(p.dataDir, upload);
        let r: ImportResult;
        try {
          const signal = await receiveRawUpload(req, res, file, ARCHIVE_UPLOAD, new VitrineError('validation_failed', 'the archive is empty'));
          // The archive is parsed in a worker process; the gateway only moves the file and records what the worker read.
          const payload: IdentifyPayload = { dataDir: p.dataDir, upload, filename: q.filename, ...(q.ecosystem !== undefined ? { ecosystem: q.ecosystem } : {}) };
          const identity = (await p.jobs.run(IDENTIFY_JOB, payload, { timeoutMs: IDENTIFY_TIMEOUT_MS, label: 'Identify an uploaded package', signal })) as ReleaseIdentity;
          await storeUploadedFile(p.dataDir, file, identity);
          // The row and its audit entry commit together (on either backend).
          const actor = caller?.id ?? 'anonymous';
          r = await saveArtifact(p.store, identity, { source: 'upload', actor }, (q, { artifact: a, created }) =>
            p.audit.appendWithin(q, 'package.import', actor, requestIdOf(res), { artifact_id: a.id, ecosystem: a.ecosystem, name: a.name, version: a.version, sha256: a.sha256, size: a.size, created }),
          );
        } finally {
          await rm(file, { force: true });
        }
        res.status(r.created ? 201 : 200).json(r.artifact);
      },
    },
    {
      method: 'post',
      path: '/packages/store/:id/attestations',
      access: 'scan:create',
      tag: 'packages',
      summary:
        'Attach attestations to a stored release: the body (application/json, at most 4 MiB) is the npm attestations document for name@version or a PyPI PEP 740 provenance object (or one attestation), as saved beside the archive for pkgscan import. Verified offline against the stored archive in a worker; it replaces the attestations stored with the release. 200 with {artifact, provenance, problems}; a document that fails verification is stored and reads invalid (scans then block)',
      handler: async (req, res, caller) => {
        const id = String(req.params['id']);
        const artifact = UUID.test(id) ? await readArtifact(p.store, id) : null;
        try {
          if (artifact === null) throw new VitrineError('not_found', 'no such stored release');
          checkRawUpload(req, ATTESTATION_UPLOAD);
        } catch (err) {
          // The body is not read: close the connection after answering.
          res.setHeader('Connection', 'close');
          throw err;
        }
        const upload = randomUUID();
        const file = attestationUploadPath(p.dataDir, upload);
        let r: AttestResult;
        try {
          const signal = await receiveRawUpload(req, res, file, ATTESTATION_UPLOAD, new VitrineError('validation_failed', 'the attestation document is empty'));
          // The upload replaces the attestations stored with the release; the rest of its registry information stays.
          const { attestations: _replaced, ...registry } = artifact.registry ?? {};
          void _replaced;
          const payload: AttestPayload = {
            dataDir: p.dataDir,
            resourcesDir: p.resourcesDir,
            upload,
            release: { ecosystem: artifact.ecosystem, name: artifact.name, version: artifact.version, filename: artifact.filename, sha256: artifact.sha256 },
            registry: artifact.registry === null ? null : registry,
          };
          r = (await p.jobs.run(ATTEST_JOB, payload, { timeoutMs: ATTEST_TIMEOUT_MS, label: 'Verify uploaded attestations', signal })) as AttestResult;
        } finally {
          await rm(file, { force: true });
        }
        const actor = caller?.id ?? 'anonymous';
        // The new registry information and its audit entry commit together.
        const stored = await updateArtifactRegistry(p.store, artifact.id, r.registry, (q, s) =>
          p.audit.appendWithin(q, 'package.attestations', actor, requestIdOf(res), {
            artifact_id: s.id,
            ecosystem: s.ecosystem,
            name: s.name,
            version: s.version,
            status: r.provenance.status,
            kind: r.provenance.kind,
            attestations: s.registry?.attestations?.length ?? 0,
          }),
        );
        if (stored === null) throw new VitrineError('not_found', 'no such stored release');
        res.json({ artifact: stored, provenance: r.provenance, problems: r.problems });
      },
    },
    listRoute({
      path: '/packages/store',
      access: 'scan:read',
      tag: 'packages',
      summary: 'Release archives in the package store, newest import first; filters ecosystem, q (part of the name), source; paginated',
      query: storeQuery,
      list: (q, limit, offset) => queryArtifacts(p.store, { ecosystem: q.ecosystem, q: q.q, source: q.source }, { limit, offset }),
    }),
  ];
}
