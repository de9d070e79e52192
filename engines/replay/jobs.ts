// The replay jobs the EngineHost runs in worker processes (and InProcessRunner runs for the command line): parse untrusted captures, generate the demo.
import path from 'node:path';
import { z } from 'zod';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import { analyzeFile, CAPTURE_FORMATS } from './analyze.js';
import { DEFAULT_INDICATORS_RELATIVE, defaultResourcesDir, demo, loadIndicators } from './index.js';
import { MAX_BENIGN_FLOWS } from './intrusion.js';
import type { AnalysisWithFlows } from './analyze.js';

export const ANALYZE_JOB = 'replay.analyze';
export const DEMO_JOB = 'replay.demo';

/** Payload of `replay.analyze`. `path` and `indicatorsPath` are set by the router or command line, never taken from a request. */
export const analyzePayloadSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  name: z.string().min(1).max(200),
  format: z.enum(CAPTURE_FORMATS).default('auto'),
  source: z.enum(['upload', 'file']).default('file'),
  indicatorsPath: z.string().min(1).max(4096).optional(),
});

export const demoPayloadSchema = z.strictObject({
  benign: z.number().int().min(0).max(MAX_BENIGN_FLOWS),
  seed: z.number().int().min(0).max(2 ** 31).optional(),
  indicatorsPath: z.string().min(1).max(4096).optional(),
});

export type AnalyzePayload = z.input<typeof analyzePayloadSchema>;
export type DemoPayload = z.input<typeof demoPayloadSchema>;

function indicatorsFor(p: { indicatorsPath?: string | undefined }) {
  return loadIndicators(p.indicatorsPath ?? path.join(defaultResourcesDir(), DEFAULT_INDICATORS_RELATIVE));
}

export async function runAnalyzeJob(payload: unknown, ctx: JobContext): Promise<AnalysisWithFlows> {
  const p = validate(analyzePayloadSchema, payload, 'job payload', 'bad_request');
  const indicators = indicatorsFor(p);
  return analyzeFile(p.path, { name: p.name, format: p.format, source: p.source, indicators, flowTable: true, signal: ctx.signal, onProgress: (f, m) => ctx.progress(f, m) });
}

export function runDemoJob(payload: unknown, ctx: JobContext): AnalysisWithFlows {
  const p = validate(demoPayloadSchema, payload, 'job payload', 'bad_request');
  const indicators = indicatorsFor(p);
  return demo(p.benign, { indicators, flowTable: true, signal: ctx.signal, onProgress: (f, m) => ctx.progress(f, m), ...(p.seed !== undefined ? { seed: p.seed } : {}) }).analysis;
}

export const jobs: JobTable = {
  [ANALYZE_JOB]: runAnalyzeJob,
  [DEMO_JOB]: runDemoJob,
};
