// Routes /vulnerabilities: lookup with honest status, one advisory by id or alias, advisories found in stored scans, imports (parsed in a worker) and per-source status.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { severitySchema } from '../vocabulary.js';
import type { AdvisoryImport, AdvisorySourceKind } from '../../core/contracts/pkgscan-vulns.js';
import { VitrineError } from '../../core/errors.js';
import { parseQuery, requestIdOf } from '../../core/http/index.js';
import { workerStoreOf, type Platform } from '../platform.js';
import { checkRawUpload, listRoute, rawUploadToFile, type RawUpload, removeFilesLeftBeforeStart, type RouteDef } from '../routing/http.js';
import { booleanQuery } from '../users/http.js';
import { advisoriesOf, listVulnerabilities, type AdvisoryBackend } from './advisories.js';
import { ADVISORY_DETECT_JOB, ADVISORY_IMPORT_JOB, ADVISORY_TEMP_PREFIX, advisoryUploadPath, type AdvisoryDetectPayload, type AdvisoryImportPayload } from './jobs.js';

/** Advisory uploads over HTTP: the gateway's own body ceiling (512 MiB); larger exports go through `pkgscan advisories import`, which streams from disk. */
export const MAX_ADVISORY_UPLOAD = 512 * 1024 * 1024;
/** Uploads up to this size are imported before answering (201); larger ones answer 202 and import in the background. */
export const SYNC_IMPORT_BYTES = 16 * 1024 * 1024;

const severity = severitySchema;

export const lookupQuery = z.object({
  ecosystem: z.string().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9 .:-]*$/),
  name: z.string().min(1).max(500),
  version: z.string().min(1).max(200),
});

export const vulnerabilitiesQuery = z.object({
  kev: booleanQuery.optional(),
  min_severity: severity.optional(),
  ecosystem: z.string().min(1).max(64).optional(),
});

export const advisoryImportQuery = z.object({
  filename: z.string().min(1).max(255).regex(/^[A-Za-z0-9][A-Za-z0-9._+~-]*$/),
});

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

const ADVISORY_UPLOAD: RawUpload = {
  limit: MAX_ADVISORY_UPLOAD,
  wrongType: 'send the advisory file as application/octet-stream',
  tooLarge: 'the advisory file is larger than an upload takes (512 MiB); import it with pkgscan advisories import',
};

/** The worker's time limits: recognising the file (its first bytes), importing it (a full OSV export is minutes). */
const DETECT_TIMEOUT_MS = 60_000;
const IMPORT_TIMEOUT_MS = 60 * 60_000;

/** Who asked for an import, for its audit entries. */
interface ImportRequest {
  readonly actor: string;
  readonly requestId: string | null;
  readonly size: number;
}

/**
 * Imports an uploaded file where the store says a worker reaches it (workerStoreOf): in a worker process, which opens
 * its own connection (to the store file, or its own pool on the shared PostgreSQL database), or here for a SQLite
 * store in memory (tests, a serve without VITRINE_HOME), which no other process can reach. On the shared database the
 * worker appends the import's audit entries in the import's own transactions (started with the import row, finished
 * with the final counts, failed with the failed status). An import whose job failed without the store marking it (the
 * worker died, or its time limit passed) is failed now, not only at the next start, and audited in one transaction
 * here on the shared database; one the worker never began is recorded as failed, so a poll of its id answers. Answers
 * whether the audit entries were written in the job (else the caller records them).
 */
function importUpload(p: Platform, file: string, kind: AdvisorySourceKind, id: string, who: ImportRequest): { run: Promise<AdvisoryImport>; audited: boolean } {
  const repo = advisoriesOf(p);
  const target = workerStoreOf(p);
  if (target.inProcess) return { run: repo.importFile(file, kind, undefined, { id }), audited: false };
  const audited = target.auditsInJob;
  const payload: AdvisoryImportPayload = { dataDir: p.dataDir, id, ...target.connection, kind: kind as AdvisoryImportPayload['kind'], ...(audited ? { audit: { actor: who.actor, request_id: who.requestId, size: who.size } } : {}) };
  const run = (p.jobs.run(ADVISORY_IMPORT_JOB, payload, { timeoutMs: IMPORT_TIMEOUT_MS, label: 'Import an advisory file' }) as Promise<AdvisoryImport>).catch(async (err: unknown) => {
    await repo.failUnfinished(id, kind, audited ? { actor: who.actor, requestId: who.requestId, details: { size: who.size } } : undefined);
    throw err;
  });
  return { run, audited };
}

/**
 * At start: imports a dead process left `running` are marked failed (on PostgreSQL, where the process may be on
 * another host, those running past the job's time limit), and upload temp files of imports no live process runs
 * (written before this process started) are removed.
 */
export async function recoverAdvisoryImports(p: AdvisoryBackend & { readonly dataDir: string }): Promise<{ failed: string[]; removed: number }> {
  const repo = advisoriesOf(p);
  const failed = await repo.recoverInterrupted();
  const live = new Set(await repo.runningImports());
  if (p.dataDir === '') return { failed, removed: 0 };
  const removed = removeFilesLeftBeforeStart(path.join(p.dataDir, 'tmp'), (name) => name.startsWith(ADVISORY_TEMP_PREFIX) && !live.has(name.slice(ADVISORY_TEMP_PREFIX.length)));
  return { failed, removed };
}

export function vulnerabilityRoutes(p: Platform): RouteDef[] {
  const store = (): ReturnType<typeof advisoriesOf> => advisoriesOf(p);
  // In the background: a request that comes first reads the imports as they are.
  void recoverAdvisoryImports(p).catch(() => undefined);
  return [
    {
      method: 'get',
      path: '/vulnerabilities/lookup',
      access: 'vuln:read',
      tag: 'vulnerabilities',
      summary:
        'Advisories affecting ecosystem (OSV name: npm, PyPI, Go, crates.io, Debian:12, Alpine:v3.19, Red Hat...), name and version, from the local store; always a status: ok, partial (missing or stale sources named), unavailable (no data for the ecosystem). Cached until the next import',
      query: lookupQuery,
      handler: async (req, res) => {
        const q = parseQuery(lookupQuery, req);
        res.json(await store().lookup(q.ecosystem, q.name, q.version));
      },
    },
    {
      method: 'get',
      path: '/vulnerabilities/sources',
      access: 'vuln:read',
      tag: 'vulnerabilities',
      summary: 'Per-source status (osv:<ecosystem>, kev, epss, nvd): records, last import, data date, age and staleness; and the latest imports',
      handler: async (_req, res) => {
        res.json(await store().sources());
      },
    },
    {
      method: 'get',
      path: '/vulnerabilities/imports/:id',
      access: 'vuln:read',
      tag: 'vulnerabilities',
      summary: 'One advisory import: status (running, done, failed), counts, warnings',
      handler: async (req, res) => {
        const id = String(req.params['id']);
        const r = ID.test(id) ? await store().importRecord(id) : null;
        if (r === null) throw new VitrineError('not_found', 'no such import');
        res.json(r);
      },
    },
    {
      method: 'post',
      path: '/vulnerabilities/import',
      access: 'system:write',
      tag: 'vulnerabilities',
      summary:
        'Import an advisory file sent as the raw application/octet-stream body (at most 512 MiB; larger files with pkgscan advisories import): OSV record or all.zip, CISA KEV JSON/CSV, EPSS CSV (plain or gzip), NVD CVE JSON 2.0, detected by content; query `filename`. 201 with the finished import (up to 16 MiB), else 202 with the running one (poll /vulnerabilities/imports/{id})',
      query: advisoryImportQuery,
      status: 201,
      handler: async (req, res, caller) => {
        parseQuery(advisoryImportQuery, req);
        const actor = caller?.id ?? 'anonymous';
        const id = randomUUID();
        const file = advisoryUploadPath(p.dataDir, id);
        let size: number;
        try {
          checkRawUpload(req, ADVISORY_UPLOAD);
          size = await rawUploadToFile(req, file, ADVISORY_UPLOAD);
        } catch (err) {
          await rm(file, { force: true });
          // The rest of an oversized body is not read: close the connection after answering.
          res.setHeader('Connection', 'close');
          throw err;
        }
        // The gateway only streamed the bytes: a worker recognises the file (415 when it is no advisory source) and imports it.
        let kind: AdvisorySourceKind;
        try {
          const detect: AdvisoryDetectPayload = { dataDir: p.dataDir, id };
          kind = (await p.jobs.run(ADVISORY_DETECT_JOB, detect, { timeoutMs: DETECT_TIMEOUT_MS, label: 'Recognise an advisory file' })) as AdvisorySourceKind;
        } catch (err) {
          await rm(file, { force: true });
          throw err;
        }
        const requestId = requestIdOf(res);
        const started = importUpload(p, file, kind, id, { actor, requestId, size });
        if (!started.audited) p.audit.record('vulnerabilities.import', actor, requestId, { import_id: id, kind, size });
        const run = started.run
          .then((r: AdvisoryImport) => {
            if (!started.audited) p.audit.record('vulnerabilities.import_finished', actor, requestId, { import_id: id, kind, file_sha256: r.file_sha256, records: r.records, warnings: r.warnings });
            return r;
          })
          .finally(() => rm(file, { force: true }));
        if (size <= SYNC_IMPORT_BYTES) {
          res.status(201).json(await run);
          return;
        }
        run.catch(() => {
          // Recorded as a failed import in vuln_imports; nobody awaits this promise.
          if (!started.audited) p.audit.record('vulnerabilities.import_failed', actor, requestId, { import_id: id, kind });
        });
        // The import row is written once the file's digest is known: answer with what is known now.
        const running: AdvisoryImport = { id, kind, status: 'running', file_sha256: null, records: 0, inserted: 0, updated: 0, unchanged: 0, warnings: 0, warning_samples: [], started_at: new Date().toISOString(), finished_at: null };
        res.status(202).json(running);
      },
    },
    listRoute({
      path: '/vulnerabilities',
      access: 'vuln:read',
      tag: 'vulnerabilities',
      summary: 'Advisories found in stored scan verdicts, aggregated by id with the package versions they affect; filters kev, min_severity, ecosystem; most severe first; paginated',
      query: vulnerabilitiesQuery,
      list: (q, limit, offset) => listVulnerabilities(p, { kev: q.kev, minSeverity: q.min_severity, ecosystem: q.ecosystem }, limit, offset),
    }),
    {
      method: 'get',
      path: '/vulnerabilities/:id',
      access: 'vuln:read',
      tag: 'vulnerabilities',
      summary: 'One advisory from the local store by its id or any alias (a CVE id finds the GHSA or OSV record naming it), with KEV and EPSS; 404 when unknown',
      handler: async (req, res) => {
        const id = String(req.params['id']);
        const a = ID.test(id) ? await store().get(id) : null;
        if (a === null) throw new VitrineError('not_found', 'no such advisory in the store');
        res.json(a);
      },
    },
  ];
}
