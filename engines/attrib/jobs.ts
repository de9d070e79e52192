// The attribution jobs the EngineHost runs in worker processes (and InProcessRunner for the command line): extraction and actor attribution over report text.
import { statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ExtractResponse } from '../core/contracts/ach.js';
import type { Attribution } from '../core/contracts/attrib.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import { attribute, extract, extractionToStix, loadClassifier, loadKb, MAX_TEXT_CHARS, toNavigatorLayer, type AttackKb, type TechniqueClassifier } from './analysis.js';
import { attributionInputs, knownInfrastructureSchema, MAX_API_SHORTLIST, periodSchema } from './attribute/request.js';

export const EXTRACT_JOB = 'attrib.extract';
export const ATTRIBUTE_JOB = 'attrib.attribute';

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
  const { p, kb, classifier } = prepare(extractPayloadSchema, payload, 'extracting', ctx);
  const extraction = extract(p.text, kb, classifier ? { classifier } : {});
  const name = p.name ?? 'Report extraction';
  ctx?.progress(0.9, 'building the layer and the STIX bundle');
  return { extraction, layer: toNavigatorLayer(extraction, kb, name), stix: extractionToStix(extraction, kb, { name }) };
}

/** Payload of `attrib.attribute`: the report, the shortlist, its period and the analyst's known infrastructure (checked again here: it crossed a process boundary). */
export const attributePayloadSchema = z.strictObject({
  text: z.string().max(MAX_TEXT_CHARS),
  shortlist: z.number().int().min(1).max(MAX_API_SHORTLIST).optional(),
  period: periodSchema.optional(),
  known_infrastructure: knownInfrastructureSchema.optional(),
  kbPath: z.string().min(1).max(4096).optional(),
  classifierPath: z.string().min(1).max(4096).optional(),
});

export type AttributePayload = z.input<typeof attributePayloadSchema>;

/** The shortlist of actors for a report, with the reasons per group (what POST /attribute answers). */
export function runAttributeJob(payload: unknown, ctx?: JobContext): Attribution {
  const { p, kb, classifier } = prepare(attributePayloadSchema, payload, 'attributing', ctx);
  return attribute(p.text, kb, { ...(p.shortlist !== undefined ? { shortlist: p.shortlist } : {}), ...(classifier ? { classifier } : {}), ...attributionInputs(p) });
}

/** What both jobs start with: the payload checked (it crossed a process boundary), the knowledge base and the classifier it names loaded. */
function prepare<S extends z.ZodType<{ readonly kbPath?: string | undefined; readonly classifierPath?: string | undefined }>>(
  schema: S,
  payload: unknown,
  step: string,
  ctx: JobContext | undefined,
): { p: z.output<S>; kb: AttackKb; classifier: TechniqueClassifier | undefined } {
  const p = validate(schema, payload, 'job payload', 'bad_request');
  ctx?.progress(0, 'loading the knowledge base');
  const kb = loadKb(p.kbPath);
  const classifier = p.classifierPath === undefined ? undefined : cachedClassifier(p.classifierPath);
  ctx?.progress(0.2, step);
  return { p, kb, classifier };
}

/** The classifier last loaded in this process and its file's identity: a worker's jobs share it (loading the shipped model costs about a second of CPU). */
let lastClassifier: { key: string; classifier: TechniqueClassifier } | undefined;
let classifierLoadCount = 0;

/** How many times this process has read a classifier file for a job (for tests). */
export function classifierLoads(): number {
  return classifierLoadCount;
}

/**
 * The classifier of `file`, read again only when the file is another: its resolved path, size, modification and change
 * times (nanoseconds) and inode make the key. A file that cannot be stat-ed is left to `loadClassifier` (whose errors
 * never name the path).
 */
export function cachedClassifier(file: string): TechniqueClassifier {
  let key: string | undefined;
  try {
    const st = statSync(file, { bigint: true });
    key = `${path.resolve(file)}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.ino}\0${st.dev}`;
  } catch {
    key = undefined;
  }
  if (key !== undefined && lastClassifier?.key === key) return lastClassifier.classifier;
  classifierLoadCount++;
  const classifier = loadClassifier(file);
  if (key !== undefined) lastClassifier = { key, classifier };
  return classifier;
}

export const jobs: JobTable = {
  [EXTRACT_JOB]: runExtractJob,
  [ATTRIBUTE_JOB]: runAttributeJob,
};
