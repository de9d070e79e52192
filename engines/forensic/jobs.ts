// The forensic jobs the EngineHost runs in worker processes (parsing untrusted bytes), and InProcessRunner runs for the command line.
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import { ARTIFACT_KINDS } from './event.js';
import { ingestArtifact, type IngestResult } from './ingest.js';

export const INGEST_JOB = 'forensic.ingest';

/** Loader options as the spec names them (utc_offset_hours is utcOffsetHours here). */
export const loaderOptionsSchema = z.strictObject({
  host: z.string().min(1).max(253).optional(),
  year: z.number().int().min(1970).max(2100).optional(),
  utcOffsetHours: z.number().min(-14).max(14).multipleOf(0.25).optional(),
});

/**
 * Payload of `forensic.ingest`. `evidenceRoot` is set by the router or command line from configuration,
 * never taken from a request; `path` is checked against it before anything is read.
 */
export const ingestPayloadSchema = loaderOptionsSchema.extend({
  path: z.string().min(1).max(4096),
  evidenceRoot: z.string().min(1).max(4096),
  kind: z.enum(ARTIFACT_KINDS).optional(),
  /** Return the events (default true); false gives the summary alone. */
  events: z.boolean().optional(),
});

export type IngestPayload = z.input<typeof ingestPayloadSchema>;

/** Ingests one artefact: progress is the fraction of its bytes read; the result is the summary and the events. */
export function runIngestJob(payload: unknown, ctx: JobContext): IngestResult {
  const p = validate(ingestPayloadSchema, payload, 'job payload', 'bad_request');
  if (!path.isAbsolute(p.evidenceRoot)) throw new VitrineError('bad_request', 'the evidence root must be an absolute path');
  const result = ingestArtifact(p.path, {
    evidenceRoot: p.evidenceRoot,
    ...(p.kind !== undefined ? { kind: p.kind } : {}),
    ...(p.host !== undefined ? { host: p.host } : {}),
    ...(p.year !== undefined ? { year: p.year } : {}),
    ...(p.utcOffsetHours !== undefined ? { utcOffsetHours: p.utcOffsetHours } : {}),
    signal: ctx.signal,
    onProgress: (fraction, message) => ctx.progress(fraction, message),
    collectEvents: p.events ?? true,
  });
  if (result.artifact.warningCount > 0) ctx.log('info', `${result.artifact.warningCount} warnings while loading the artefact`);
  return result;
}

export const jobs: JobTable = {
  [INGEST_JOB]: runIngestJob,
};
