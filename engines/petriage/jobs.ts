// The triage jobs the EngineHost runs in worker processes (and InProcessRunner runs for the command line): parsing untrusted bytes, validating rules, training.
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import { writeFileAtomic } from '../core/output-file.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate as validateSchema } from '../core/validation.js';
import { analyze, MAX_FILE_BYTES, type TriageResult } from './analyze.js';
import { readCorpus, syntheticCorpus, writeCorpus } from './corpus.js';
import { loadBenignCorpus, type BenignSource } from './benign.js';
import { loadModel, serializeLinearModel } from './model.js';
import { validate as validateRule, type RuleValidation } from './rulegen.js';
import { MAX_RULE_TEXT } from './rules.js';
import { trainOnSamples } from './train.js';

export const ANALYZE_JOB = 'petriage.analyze';
export const VALIDATE_RULE_JOB = 'petriage.validateRule';
export const TRAIN_JOB = 'petriage.train';
export const GEN_CORPUS_JOB = 'petriage.genCorpus';

const localPath = z.string().min(1).max(4096);

/** Where the benign corpus comes from; set by the router or command line, never taken from a request. */
export const benignSourceSchema = z.strictObject({
  synthetic: z.strictObject({ count: z.number().int().min(0).max(10_000), seed: z.number().int().min(0).max(0xffffffff) }).optional(),
  dir: localPath.optional(),
});

/** The bytes: a Uint8Array (structured clone, in process) or base64 text. */
const bytesSchema = z.union([z.instanceof(Uint8Array), z.string().max(Math.ceil(MAX_FILE_BYTES / 3) * 4 + 4).regex(/^[A-Za-z0-9+/]*={0,2}$/)]);

export const analyzePayloadSchema = z.strictObject({
  data: bytesSchema,
  /** Model file; the shipped demo model when absent. */
  modelPath: localPath.optional(),
  /** Benign corpus for the candidate rule; null for none (no rule). Default: the synthetic default corpus. */
  benign: benignSourceSchema.nullable().optional(),
  /** A directory of suspected siblings for the rule's coverage. */
  siblingsDir: localPath.optional(),
});

export const validateRulePayloadSchema = z.strictObject({
  text: z.string().max(MAX_RULE_TEXT),
  benign: benignSourceSchema.optional(),
  siblingsDir: localPath.optional(),
});

export const trainPayloadSchema = z.strictObject({
  /** A corpus written by gen-corpus; a synthetic one is generated when absent. */
  corpusDir: localPath.optional(),
  nPerFamily: z.number().int().min(1).max(1000).default(20),
  seed: z.number().int().min(0).max(0xffffffff).default(0),
  /** Write the model file here as well as returning it. */
  out: localPath.optional(),
});

export const genCorpusPayloadSchema = z.strictObject({
  out: localPath,
  nPerFamily: z.number().int().min(1).max(1000).default(20),
  seed: z.number().int().min(0).max(0xffffffff).default(0),
});

function checkCancelled(ctx: JobContext): void {
  if (ctx.signal.aborted) throw new VitrineError('cancelled', 'the job was cancelled');
}

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'base64')) : data;
}

function siblingsOf(dir: string | undefined): { name: string; bytes: Uint8Array }[] | undefined {
  return dir === undefined ? undefined : loadBenignCorpus({ synthetic: { count: 0, seed: 0 }, dir }).map((f) => ({ name: f.name, bytes: f.bytes }));
}

export function runAnalyzeJob(payload: unknown, ctx: JobContext): TriageResult {
  const p = validateSchema(analyzePayloadSchema, payload, 'job payload', 'bad_request');
  const data = bytesOf(p.data);
  ctx.progress(0, 'loading the model');
  const model = loadModel(p.modelPath);
  checkCancelled(ctx);
  const benignSource: BenignSource | null = p.benign === undefined ? {} : p.benign;
  if (benignSource !== null) ctx.progress(0.1, 'loading the benign corpus');
  const benign = benignSource === null ? undefined : loadBenignCorpus(benignSource);
  const siblings = siblingsOf(p.siblingsDir);
  checkCancelled(ctx);
  ctx.progress(0.3, 'analysing');
  const result = analyze(data, model, { ...(benign ? { benign } : {}), ...(siblings ? { siblings } : {}) });
  ctx.progress(1, 'done');
  return result;
}

export function runValidateRuleJob(payload: unknown, ctx: JobContext): RuleValidation {
  const p = validateSchema(validateRulePayloadSchema, payload, 'job payload', 'bad_request');
  ctx.progress(0, 'loading the benign corpus');
  const benign = loadBenignCorpus(p.benign ?? {});
  checkCancelled(ctx);
  ctx.progress(0.5, 'matching');
  const result = validateRule(p.text, benign, siblingsOf(p.siblingsDir));
  ctx.progress(1, 'done');
  return result;
}

export function runTrainJob(payload: unknown, ctx: JobContext): { model: unknown; samples: number } {
  const p = validateSchema(trainPayloadSchema, payload, 'job payload', 'bad_request');
  ctx.progress(0, p.corpusDir === undefined ? 'generating the synthetic corpus' : 'reading the corpus');
  const samples = p.corpusDir === undefined ? syntheticCorpus({ perFamily: p.nPerFamily, seed: p.seed }) : readCorpus(p.corpusDir);
  checkCancelled(ctx);
  const corpus = p.corpusDir === undefined ? { kind: 'synthetic', per_family: p.nPerFamily, benign: 3 * p.nPerFamily, seed: p.seed } : { kind: 'directory', files: samples.length };
  const model = trainOnSamples(samples, { seed: p.seed, corpus, signal: ctx.signal, onProgress: (f, m) => ctx.progress(f, m) });
  if (p.out !== undefined) writeFileAtomic(p.out, serializeLinearModel(model));
  return { model, samples: samples.length };
}

export function runGenCorpusJob(payload: unknown, ctx: JobContext): { files: number; families: Record<string, number> } {
  const p = validateSchema(genCorpusPayloadSchema, payload, 'job payload', 'bad_request');
  ctx.progress(0, 'building samples');
  const samples = syntheticCorpus({ perFamily: p.nPerFamily, seed: p.seed });
  checkCancelled(ctx);
  ctx.progress(0.7, 'writing files');
  const manifest = writeCorpus(p.out, samples, p.seed);
  const families: Record<string, number> = {};
  for (const s of manifest.samples) families[s.family] = (families[s.family] ?? 0) + 1;
  ctx.progress(1, 'done');
  return { files: manifest.samples.length, families };
}

export const jobs: JobTable = {
  [ANALYZE_JOB]: runAnalyzeJob,
  [VALIDATE_RULE_JOB]: runValidateRuleJob,
  [TRAIN_JOB]: runTrainJob,
  [GEN_CORPUS_JOB]: runGenCorpusJob,
};
