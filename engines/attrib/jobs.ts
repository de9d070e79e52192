// The attribution jobs the EngineHost runs in worker processes (and InProcessRunner for the command line): extraction over report text.
import { z } from 'zod';
import type { ExtractResponse } from '../core/contracts/ach.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import { extract, extractionToStix, loadClassifier, loadKb, MAX_TEXT_CHARS, toNavigatorLayer } from './analysis.js';

export const EXTRACT_JOB = 'attrib.extract';

/** Payload of `attrib.extract`. `kbPath` and `classifierPath` are set by the router or command line, never taken from a request. */
export const extractPayloadSchema = z.strictObject({
  text: z.string().max(MAX_TEXT_CHARS),
  name: z.string().min(1).max(200).optional(),
  kbPath: z.string().min(1).max(4096).optional(),
  classifierPath: z.string().min(1).max(4096).optional(),
});

export type ExtractPayload = z.input<typeof extractPayloadSchema>;

/** Extraction, its Navigator layer and its STIX bundle (what POST /extract answers). */
export function runExtractJob(payload: unknown, ctx?: JobContext): ExtractResponse {
  const p = validate(extractPayloadSchema, payload, 'job payload', 'bad_request');
  ctx?.progress(0, 'loading the knowledge base');
  const kb = loadKb(p.kbPath);
  const classifier = p.classifierPath === undefined ? undefined : loadClassifier(p.classifierPath);
  ctx?.progress(0.2, 'extracting');
  const extraction = extract(p.text, kb, classifier ? { classifier } : {});
  const name = p.name ?? 'Report extraction';
  ctx?.progress(0.9, 'building the layer and the STIX bundle');
  return { extraction, layer: toNavigatorLayer(extraction, kb, name), stix: extractionToStix(extraction, kb, { name }) };
}

export const jobs: JobTable = {
  [EXTRACT_JOB]: runExtractJob,
};
