// Routes /containers/scans: upload an image (raw octet-stream streamed to a private file, size-checked, one scan at a time), the list, one scan, its CycloneDX SBOM.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { parseQuery, requestIdOf } from '../../core/http/index.js';
import { textWithoutControls } from '../../core/validation.js';
import type { Platform } from '../platform.js';
import { checkRawUpload, getByIdRoute, listRoute, type RawUpload, receiveRawUpload, removeFilesLeftBeforeStart, type RouteDef, UUID } from '../routing/http.js';
import { CONTAINER_SCAN_JOB, UPLOAD_DIR, uploadPath, type ContainerAnalysis, type ContainerPayload } from './analyze.js';
import { finishContainerScan } from './scan.js';
import { getContainerSbom, getContainerScan, listContainerScans } from './store.js';

/** The spec's MAX_IMAGE_UPLOAD_BYTES: the only route with a body larger than the JSON limit. */
export const MAX_IMAGE_UPLOAD_BYTES = 256 * 1024 * 1024;

/** A container scan's time limit in the worker. */
export const CONTAINER_SCAN_TIMEOUT_MS = 10 * 60_000;

/** What a refused second upload is told to wait, in seconds. */
export const BUSY_RETRY_AFTER_S = 30;


const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const containerScanQuery = z.object({
  // printable only: a label is shown in lists and the audit log
  image_ref: textWithoutControls(300, 'control characters are not allowed').optional(),
  vulnerabilities: flag.optional(),
});

export const containerListQuery = z.object({
  decision: z.enum(['allow', 'warn', 'block']).optional(),
  status: z.enum(['complete', 'incomplete']).optional(),
});

/** Platforms with a container scan running: the second upload is refused before its body is read. */
const running = new WeakSet<Platform>();

const IMAGE_UPLOAD: RawUpload = {
  limit: MAX_IMAGE_UPLOAD_BYTES,
  wrongType: 'send the image tarball as application/octet-stream',
  tooLarge: 'the image is larger than a container scan takes (256 MiB)',
};

/**
 * At start: image uploads left in `<data>/container-uploads` by a process that died mid-scan (written before this
 * process started) are removed; a scan never outlives its process, so none of them is in use.
 */
export function sweepContainerUploads(dataDir: string): number {
  if (dataDir === '') return 0;
  return removeFilesLeftBeforeStart(path.join(dataDir, UPLOAD_DIR), (name) => /^[0-9a-f-]{36}\.tar$/.test(name));
}

export function containerRoutes(p: Platform): RouteDef[] {
  sweepContainerUploads(p.dataDir);
  return [
    {
      method: 'post',
      path: '/containers/scans',
      errors: {
        400: 'the body is empty',
        413: 'the body is over MAX_IMAGE_UPLOAD_BYTES (256 MiB)',
        415: 'the body is not application/octet-stream',
        429: 'a container scan is already running (they run one at a time); Retry-After says when to retry',
      },
      access: 'container:scan',
      tag: 'containers',
      summary:
        'Scan a container image: the raw application/octet-stream body is a `docker save` / docker-archive tarball or an OCI image layout tarball, at most 256 MiB; query `image_ref` (a label) and `vulnerabilities` (true to look packages up in the advisory store). Read in memory in a worker, never run. One scan at a time: another upload while one runs gets 429 with Retry-After. 201 with the scan',
      query: containerScanQuery,
      status: 201,
      handler: async (req, res, caller) => {
        const started = Date.now();
        const q = parseQuery(containerScanQuery, req);
        try {
          checkRawUpload(req, IMAGE_UPLOAD);
          if (running.has(p)) {
            res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_S));
            throw new VitrineError('rate_limited', 'a container scan is already running and they run one at a time; retry after the time in Retry-After');
          }
        } catch (err) {
          // The body is not read: close the connection after answering.
          res.setHeader('Connection', 'close');
          throw err;
        }
        running.add(p);
        const upload = randomUUID();
        const file = uploadPath(p.dataDir, upload);
        let analysis: ContainerAnalysis;
        try {
          const signal = await receiveRawUpload(req, res, file, IMAGE_UPLOAD, new VitrineError('bad_request', 'the body is empty: send the image tarball'));
          const payload: ContainerPayload = { dataDir: p.dataDir, upload, imageRef: q.image_ref ?? null };
          analysis = (await p.jobs.run(CONTAINER_SCAN_JOB, payload, {
            timeoutMs: CONTAINER_SCAN_TIMEOUT_MS,
            label: `Container scan ${(q.image_ref ?? '').slice(0, 80)}`.trim(),
            signal,
          })) as ContainerAnalysis;
        } finally {
          // the upload never outlives its scan, whatever happened
          await rm(file, { force: true });
          running.delete(p);
        }
        const scan = await finishContainerScan(p, analysis, { imageRef: q.image_ref ?? null, vulnerabilities: q.vulnerabilities ?? false, actor: caller?.id ?? 'anonymous', requestId: requestIdOf(res), startedAt: started });
        res.status(201).json(scan);
      },
    },
    listRoute({
      path: '/containers/scans',
      access: 'scan:read',
      tag: 'containers',
      summary: 'Container scans, newest first; filters decision, status (complete, incomplete); paginated',
      query: containerListQuery,
      list: (q, limit, offset) => listContainerScans(p.store, q, limit, offset),
    }),
    getByIdRoute({
      path: '/containers/scans/:id',
      access: 'scan:read',
      tag: 'containers',
      summary: 'One container scan: summary, tool status, findings, layers with what each added, packages, advisories',
      what: 'container scan',
      get: (id) => getContainerScan(p.store, id),
    }),
    {
      method: 'get',
      path: '/containers/scans/:id/sbom',
      access: 'scan:read',
      tag: 'containers',
      summary: 'The CycloneDX 1.6 JSON document of the image packages (validated against the schema when the scan stored it)',
      handler: async (req, res) => {
        const id = String(req.params['id']);
        const doc = UUID.test(id) ? await getContainerSbom(p.store, id) : undefined;
        if (doc === undefined) throw new VitrineError('not_found', 'no such container scan');
        if (doc === null) throw new VitrineError('not_found', 'no SBOM could be built for this scan');
        res.setHeader('Content-Type', 'application/vnd.cyclonedx+json; version=1.6; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="container-scan-${id}.cdx.json"`);
        res.send(JSON.stringify(doc));
      },
    },
  ];
}

