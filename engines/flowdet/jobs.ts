// The flow detector jobs the EngineHost runs in worker processes (and InProcessRunner runs for the command line).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import { loadBundle, saveBundle, type ModelBundle } from './bundle.js';
import { figures, writeReport } from './report/report.js';
import { scoreFlows, type ScoreResponse } from './score.js';
import { toJsonText } from './studies/metrics.js';
import { runStudy, type StudyReport } from './studies/run.js';
import { seedsMarkdown, seedStudy, type SeedReport } from './studies/seeds.js';
import { stealMarkdown, stealStudy, type StealReport } from './studies/steal.js';

export const RUN_JOB = 'flowdet.run';
export const SEEDS_JOB = 'flowdet.seeds';
export const STEAL_JOB = 'flowdet.steal';
export const SCORE_JOB = 'flowdet.score';

/** Dataset names a request may use; a CSV path is accepted only from the command line (the router never passes one). */
const dataField = z.string().min(1).max(4096);
const pathField = z.string().min(1).max(4096);

export const runPayloadSchema = z.strictObject({
  data: dataField,
  /** Name shown for the training data (an uploaded CSV's file name). */
  dataName: z.string().min(1).max(120).optional(),
  quick: z.boolean().default(false),
  seed: z.number().int().min(0).max(2 ** 31).default(0),
  dataDir: pathField.optional(),
  outDir: pathField.optional(),
  saveModel: pathField.optional(),
});

export const seedsPayloadSchema = z.strictObject({
  data: dataField,
  seeds: z.array(z.number().int().min(0).max(2 ** 31)).min(2).max(100),
  adv: z.boolean().default(false),
  quick: z.boolean().default(false),
  dataDir: pathField.optional(),
  outDir: pathField.optional(),
});

export const stealPayloadSchema = z.strictObject({
  data: dataField,
  budgets: z.array(z.number().int().min(2).max(10_000_000)).min(1).max(20).optional(),
  eps: z.array(z.number().min(0).max(100)).min(1).max(20).optional(),
  quick: z.boolean().default(false),
  seed: z.number().int().min(0).max(2 ** 31).default(0),
  dataDir: pathField.optional(),
  outDir: pathField.optional(),
});

export const scorePayloadSchema = z.strictObject({ modelPath: pathField, request: z.unknown() });

export interface RunJobResult {
  readonly report: StudyReport;
  /** SVG text by file name, for the app to draw. */
  readonly figures: Record<string, string>;
  readonly model_sha256?: string;
  readonly written?: readonly string[];
}

/** The output directory, created before any work; a file of that name is refused. */
function prepareOutDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    throw new VitrineError('validation_failed', 'the output directory cannot be created (a file of that name, or no permission)');
  }
  if (!statSync(dir).isDirectory()) throw new VitrineError('validation_failed', 'the output path names a file, not a directory');
}

export async function runRunJob(payload: unknown, ctx: JobContext): Promise<RunJobResult> {
  const p = validate(runPayloadSchema, payload, 'job payload', 'bad_request');
  if (p.outDir) prepareOutDir(p.outDir);
  const result = await runStudy({ data: p.data, ...(p.dataName ? { dataName: p.dataName } : {}), quick: p.quick, seed: p.seed, ...(p.dataDir ? { dataDir: p.dataDir } : {}), signal: ctx.signal, progress: (f, m) => ctx.progress(f, m) });
  let written: string[] | undefined;
  if (p.outDir) {
    mkdirSync(p.outDir, { recursive: true });
    written = writeReport(p.outDir, result.report);
  }
  const sha = p.saveModel ? saveBundle(p.saveModel, result.model) : undefined;
  return { report: result.report, figures: figures(result.report), ...(sha ? { model_sha256: sha } : {}), ...(written ? { written } : {}) };
}

export async function runSeedsJob(payload: unknown, ctx: JobContext): Promise<SeedReport> {
  const p = validate(seedsPayloadSchema, payload, 'job payload', 'bad_request');
  if (p.outDir) prepareOutDir(p.outDir);
  const r = await seedStudy({ data: p.data, seeds: p.seeds, adv: p.adv, quick: p.quick, ...(p.dataDir ? { dataDir: p.dataDir } : {}), signal: ctx.signal, progress: (f, m) => ctx.progress(f, m) });
  if (p.outDir) {
    mkdirSync(p.outDir, { recursive: true });
    writeFileSync(path.join(p.outDir, 'seeds.json'), `${toJsonText(r)}\n`);
    writeFileSync(path.join(p.outDir, 'seeds.md'), seedsMarkdown(r));
  }
  return r;
}

export async function runStealJob(payload: unknown, ctx: JobContext): Promise<StealReport> {
  const p = validate(stealPayloadSchema, payload, 'job payload', 'bad_request');
  if (p.outDir) prepareOutDir(p.outDir);
  const r = await stealStudy({ data: p.data, quick: p.quick, seed: p.seed, ...(p.budgets ? { budgets: p.budgets } : {}), ...(p.eps ? { eps: p.eps } : {}), ...(p.dataDir ? { dataDir: p.dataDir } : {}), signal: ctx.signal, progress: (f, m) => ctx.progress(f, m) });
  if (p.outDir) {
    mkdirSync(p.outDir, { recursive: true });
    writeFileSync(path.join(p.outDir, 'steal.json'), `${toJsonText(r)}\n`);
    writeFileSync(path.join(p.outDir, 'steal.md'), stealMarkdown(r));
  }
  return r;
}

/** The worker keeps the last bundle it loaded, keyed by path, size and modification time. */
let cached: { key: string; bundle: ModelBundle } | undefined;

export function bundleAt(modelPath: string): ModelBundle {
  let key: string;
  try {
    const st = statSync(modelPath);
    key = `${modelPath}\0${st.size}\0${st.mtimeMs}`;
  } catch {
    return loadBundle(modelPath); // throws the not_found error
  }
  if (cached?.key === key) return cached.bundle;
  const bundle = loadBundle(modelPath);
  cached = { key, bundle };
  return bundle;
}

export function runScoreJob(payload: unknown, ctx: JobContext): ScoreResponse {
  const p = validate(scorePayloadSchema, payload, 'job payload', 'bad_request');
  return scoreFlows(bundleAt(p.modelPath), p.request, ctx.signal);
}

export const jobs: JobTable = {
  [RUN_JOB]: runRunJob,
  [SEEDS_JOB]: runSeedsJob,
  [STEAL_JOB]: runStealJob,
  [SCORE_JOB]: runScoreJob,
};
