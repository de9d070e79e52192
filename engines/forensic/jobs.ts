// The forensic jobs the EngineHost runs in worker processes (parsing untrusted bytes, analysing cases), and InProcessRunner runs for the command line.
import path from 'node:path';
import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import type { AnalysisView } from '../core/contracts/forensic.js';
import { VitrineError } from '../core/errors.js';
import type { StoredLedgerRow } from '../core/ledger.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import { CustodyLedger } from './custody.js';
import { ARTIFACT_KINDS } from './event.js';
import { ingestArtifact, type IngestResult } from './ingest.js';
import { SIGMA_LEVELS, type SigmaLevel } from './sigma/levels.js';
import type { SigmaRuleSet } from './sigma/ruleset.js';
import { readRawRecord, RECORD_JOB } from './casework/raw-record.js';
import { openStore } from '../core/store.js';
import { caseWriteSteps, migrations, prepareCase } from './store.js';

/** The forensic tables as the store opens them (the gateway migrated them already; the job only checks). */
const forensicStore = { name: 'forensic', migrations };

export const INGEST_JOB = 'forensic.ingest';
/** Ingest and analyse artefacts below the evidence root into a case. */
export const ANALYZE_JOB = 'forensic.analyze';
/** Generate and analyse a built-in synthetic scenario into a case. */
export const SCENARIO_JOB = 'forensic.scenario';

/** Events a stored case keeps for its timeline (the view's other events are its stories'; docs/forensic.md). */
export const CASE_MAX_EVENTS = 100_000;
/** Stories a case keeps at most. */
import { MAX_TOP } from './cli-meta.js';
export { MAX_TOP };

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

/** What both analysis jobs share: the case they belong to and the shape of the view they return. */
const caseJobSchema = z.strictObject({
  caseId: z.string().min(1).max(128),
  top: z.number().int().min(1).max(MAX_TOP).default(20),
  includeNoisy: z.boolean().default(false),
  /** Keep every event (up to maxEvents) in the view, not only the stories' (the case timeline needs them). */
  includeAllEvents: z.boolean().default(true),
  maxEvents: z.number().int().min(0).max(CASE_MAX_EVENTS).default(CASE_MAX_EVENTS),
  /** Custody actor (tool and version). */
  actor: z.string().min(1).max(256).default('forensic'),
  /** Run the shipped Sigma rules (default: on for evidence, off for the built-in scenarios). */
  sigma: z.boolean().optional(),
  /** Lowest Sigma level reported (default low). */
  sigmaMinLevel: z.enum(SIGMA_LEVELS).optional(),
  /** Also run the shipped threat-hunting rules. */
  sigmaHunting: z.boolean().optional(),
  /**
   * The workstation store (an absolute file path, set by the router from its own store, never from a request): the
   * job stores the finished case there itself and returns a StoredCaseResult, so the gateway never holds the view.
   */
  store: z.string().min(1).max(4096).optional(),
});

/** Payload of `forensic.analyze`: absolute paths already resolved below `evidenceRoot` by the router or command line. */
export const analyzePayloadSchema = caseJobSchema.extend({
  ...loaderOptionsSchema.shape,
  paths: z.array(z.string().min(1).max(4096)).min(1).max(256),
  evidenceRoot: z.string().min(1).max(4096),
  kind: z.enum(ARTIFACT_KINDS).optional(),
});

export const scenarioPayloadSchema = caseJobSchema.extend({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
});

export type AnalyzePayload = z.input<typeof analyzePayloadSchema>;
export type ScenarioPayload = z.input<typeof scenarioPayloadSchema>;

/** What an analysis job returns: the view to store and the case's custody ledger as stored rows. */
export interface CaseJobResult {
  readonly view: AnalysisView;
  readonly custody: StoredLedgerRow[];
}

/** What an analysis job returns when it stored the case itself (its payload named the store). */
export interface StoredCaseResult {
  readonly stored: { readonly caseId: string; readonly head: string; readonly count: number };
}

/**
 * The job's end: with a store, the case is checked as the gateway checks a returned result (the same schema, so the
 * same stored texts), made into its texts and written here in short transactions (store.ts caseWriteSteps), and only
 * its anchors go back; without one (an in-memory store, the command line), the view and ledger are returned.
 */
async function finishCase(p: { readonly caseId: string; readonly store?: string | undefined }, view: AnalysisView, custody: StoredLedgerRow[], ctx: JobContext): Promise<CaseJobResult | StoredCaseResult> {
  if (p.store === undefined) {
    ctx.progress(1, 'done');
    return { view, custody };
  }
  if (!path.isAbsolute(p.store)) throw new VitrineError('bad_request', 'the store must be an absolute path');
  ctx.progress(0.99, 'storing');
  // schemas.ts reads MAX_TOP from this module: imported when needed, not at load.
  const { caseJobResultSchema } = await import('./schemas.js');
  const checked = validate(caseJobResultSchema, { view, custody }, 'analysis job result', 'internal');
  const prepared = prepareCase(checked.view as AnalysisView, checked.custody);
  const db = openStore(p.store, [forensicStore]);
  try {
    for (const _ of caseWriteSteps(db, p.caseId, prepared, new Date().toISOString())) {
      // Between two transactions the worker hears a cancel (and sends its progress).
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (ctx.signal.aborted) throw new VitrineError('cancelled', 'the job was cancelled');
    }
  } finally {
    db.close();
  }
  ctx.progress(1, 'done');
  return { stored: { caseId: p.caseId, head: prepared.head, count: prepared.count } };
}

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

/** The stages the analysis reports, in order, and where each starts on the progress bar. */
const STAGES = ['ingest', 'sigma', 'graph', 'rules', 'anti-forensics', 'stories'] as const;

/** Turns the analysis's per-stage progress into one rising fraction. */
export function stageProgress(ctx: JobContext): (p: { stage: string; done: number; total: number }) => void {
  let last = 0;
  return ({ stage, done, total }) => {
    const i = STAGES.indexOf(stage as (typeof STAGES)[number]);
    const within = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
    // Ingest is most of the work; the later stages share the rest.
    const fraction = i <= 0 ? within * 0.6 : 0.6 + ((i - 1 + within) / (STAGES.length - 1)) * 0.38;
    if (fraction >= last) {
      last = fraction;
      ctx.progress(fraction, stage);
    }
  };
}

/** The Sigma rule set of a job: null when off, the shipped default (read once per worker) unless a level is asked. */
async function sigmaRulesFor(on: boolean, minLevel: SigmaLevel | undefined, hunting = false): Promise<SigmaRuleSet | null> {
  if (!on) return null;
  const { defaultSigmaRules } = await import('./analysis/detections.js');
  if (minLevel === undefined && !hunting) return defaultSigmaRules();
  const { loadSigmaRules } = await import('./sigma/index.js');
  const { DEFAULT_RULE_SETS, HUNTING_RULE_SET, shippedRulesDir } = await import('./sigma/ruleset.js');
  return loadSigmaRules({
    ...(minLevel !== undefined ? { minLevel } : {}),
    ...(hunting ? { sources: [...DEFAULT_RULE_SETS, HUNTING_RULE_SET].map((name) => ({ name, path: path.join(shippedRulesDir(), name) })) } : {}),
  });
}

function openLedger(caseId: string, actor: string, subject: Record<string, unknown>): CustodyLedger {
  const ledger = new CustodyLedger({ actor });
  ledger.append({ action: 'case.open', digest: sha256Hex(canonicalJson({ case: caseId, tool: 'forensic', ...subject })), artifact: caseId });
  return ledger;
}

export async function runAnalyzeJob(payload: unknown, ctx: JobContext): Promise<CaseJobResult | StoredCaseResult> {
  const p = validate(analyzePayloadSchema, payload, 'job payload', 'bad_request');
  if (!path.isAbsolute(p.evidenceRoot)) throw new VitrineError('bad_request', 'the evidence root must be an absolute path');
  const api = await import('./analysis/index.js');
  const ledger = openLedger(p.caseId, p.actor, { paths: p.paths.length });
  const analysis = api.analyzePaths(p.paths, {
    evidenceRoot: p.evidenceRoot,
    ledger,
    includeNoisy: p.includeNoisy,
    sigma: await sigmaRulesFor(p.sigma ?? true, p.sigmaMinLevel, p.sigmaHunting === true),
    ...(p.kind !== undefined ? { kind: p.kind } : {}),
    ...(p.host !== undefined ? { host: p.host } : {}),
    ...(p.year !== undefined ? { year: p.year } : {}),
    ...(p.utcOffsetHours !== undefined ? { utcOffsetHours: p.utcOffsetHours } : {}),
    onProgress: stageProgress(ctx),
  });
  if (ctx.signal.aborted) throw new VitrineError('cancelled', 'the job was cancelled');
  const view = api.toDict(analysis, { top: p.top, includeAllEvents: p.includeAllEvents, maxEvents: p.maxEvents });
  return finishCase(p, view, (analysis.ledger ?? ledger).storedRows(), ctx);
}

export async function runScenarioJob(payload: unknown, ctx: JobContext): Promise<CaseJobResult | StoredCaseResult> {
  const p = validate(scenarioPayloadSchema, payload, 'job payload', 'bad_request');
  const api = await import('./analysis/index.js');
  const ledger = openLedger(p.caseId, p.actor, { scenario: p.name });
  const { analysis } = api.runScenario(p.name, { ledger, includeNoisy: p.includeNoisy, sigma: await sigmaRulesFor(p.sigma ?? false, p.sigmaMinLevel), onProgress: stageProgress(ctx) });
  if (ctx.signal.aborted) throw new VitrineError('cancelled', 'the job was cancelled');
  const view = api.toDict(analysis, { top: p.top, includeAllEvents: p.includeAllEvents, maxEvents: p.maxEvents });
  return finishCase(p, view, (analysis.ledger ?? ledger).storedRows(), ctx);
}

export const jobs: JobTable = {
  [INGEST_JOB]: runIngestJob,
  [ANALYZE_JOB]: runAnalyzeJob,
  [SCENARIO_JOB]: runScenarioJob,
  [RECORD_JOB]: readRawRecord,
};
