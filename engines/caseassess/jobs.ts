// The case assessment jobs the EngineHost runs in worker processes (and InProcessRunner runs for the command line).
import path from 'node:path';
import { z } from 'zod';
import type { Assessment, StixBundle } from '../core/contracts/caseassess.js';
import { VitrineError } from '../core/errors.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import { validateCase } from './case.js';
import { DEFAULT_KG_RELATIVE, defaultResourcesDir } from './index.js';
import { readKnowledgeGraph } from './kg.js';
import { scoreCase } from './score.js';
import { assessmentToStix } from './stix.js';

export const ASSESS_JOB = 'caseassess.assess';

/** Payload of `caseassess.assess`. `kgPath` is set by the router or command line, never taken from a request. */
export const assessPayloadSchema = z.strictObject({
  kgPath: z.string().min(1).max(4096).optional(),
  case: z.unknown(),
  format: z.enum(['json', 'stix']).default('json'),
  alternatives: z.number().int().min(0).max(200).optional(),
});

export type AssessPayload = z.input<typeof assessPayloadSchema>;

/** What the job returns: always the assessment (the router stores it), and the bundle when asked. */
export interface AssessJobResult {
  readonly assessment: Assessment;
  readonly stix?: StixBundle;
}

function checkCancelled(ctx: JobContext): void {
  if (ctx.signal.aborted) throw new VitrineError('cancelled', 'the assessment was cancelled');
}

export function runAssessJob(payload: unknown, ctx: JobContext): AssessJobResult {
  const p = validate(assessPayloadSchema, payload, 'job payload', 'bad_request');
  ctx.progress(0, 'loading the knowledge graph');
  const kg = readKnowledgeGraph(p.kgPath ?? path.join(defaultResourcesDir(), DEFAULT_KG_RELATIVE));
  checkCancelled(ctx);
  ctx.progress(0.3, 'validating the case');
  const kase = validateCase(p.case);
  checkCancelled(ctx);
  ctx.progress(0.5, 'scoring the hypotheses');
  const assessment = scoreCase(kg, kase, p.alternatives === undefined ? {} : { alternatives: p.alternatives });
  checkCancelled(ctx);
  if (p.format === 'stix') {
    ctx.progress(0.9, 'writing the STIX bundle');
    const stix = assessmentToStix(kg, kase, assessment);
    ctx.progress(1, 'done');
    return { assessment, stix };
  }
  ctx.progress(1, 'done');
  return { assessment };
}

export const jobs: JobTable = {
  [ASSESS_JOB]: runAssessJob,
};
