// The flow detector HTTP routes (mounted by the gateway at /svc/flowdet, or at / by `flowdet serve`): health, schema, score, studies.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { abortOnClientClose, jsonBody, parseBody, parseQuery, route } from '../core/http/index.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import type { ServiceContext } from '../core/service.js';
import type { ModelBundle } from './bundle.js';
import { datasetAvailability } from './data/datasets.js';
import { schemaOf } from './data/schema.js';
import { bundleAt, RUN_JOB, SCORE_JOB, SEEDS_JOB, STEAL_JOB } from './jobs.js';
import { openApiDocument } from './openapi.js';
import { MAX_EXPLAIN_FLOWS, MAX_SCORE_BODY_BYTES, MAX_SCORE_FLOWS, scoreRequestSchema, type ScoreResponse } from './score.js';
import { describeSchema } from './studies/run.js';
import { DATA_DIR_VARIABLE, VERSION } from './version.js';
import { flowdetService } from './service.js';
import { findResourcesDir } from '../core/resources.js';

/** Environment variable naming the model bundle the service scores with. */
export const MODEL_VARIABLE = 'FLOWDET_MODEL';
/** Studies kept in memory (oldest finished ones are dropped beyond this). */
export const MAX_KEPT_STUDIES = 20;
/** Studies running at once from this router. */
export const MAX_RUNNING_STUDIES = 2;
const STUDY_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export interface RouterOptions {
  /** Model bundle path; default $FLOWDET_MODEL, else <dataDir>/flowdet/model.json. */
  readonly modelPath?: string;
  /**
   * Mount the study routes (default true: the gateway, which asks for its token on every route). `flowdet serve`
   * mounts none of them: alone it only scores, and no route of it can write the served model.
   */
  readonly studies?: boolean;
}

/** Largest CSV a study request may carry (a user's own flows to train on). */
export const MAX_STUDY_CSV_BYTES = 32 * 1024 * 1024;

const studyRequestSchema = z.strictObject({
  kind: z.enum(['run', 'seeds', 'steal']),
  /** A named dataset, or `csv` with the flows in `csv` (their text) to train on the user's own data. */
  data: z.enum(['synthetic', 'cicids2017', 'unsw_nb15', 'csv']),
  csv: z.string().min(1).max(MAX_STUDY_CSV_BYTES).optional(),
  /** Shown as the training data's name (a file name; no path). */
  csv_name: z.string().min(1).max(120).regex(/^[\w .()+-]+$/, 'a plain file name').optional(),
  quick: z.boolean().default(true),
  seed: z.number().int().min(0).max(2 ** 31).default(0),
  seeds: z.array(z.number().int().min(0).max(2 ** 31)).min(2).max(100).refine((a) => new Set(a).size === a.length, 'seeds must be distinct').optional(),
  adv: z.boolean().default(false),
  budgets: z.array(z.number().int().min(2).max(10_000_000)).min(1).max(20).optional(),
  eps: z.array(z.number().min(0).max(100)).min(1).max(20).optional(),
  /** run only: write the hardened bundle where the service scores from. */
  save_model: z.boolean().default(false),
});

const schemaQuery = z.object({ dataset: z.enum(['synthetic', 'cicids2017', 'unsw_nb15']).optional() });

type StudyStatus = 'running' | 'done' | 'failed' | 'cancelled';

interface Study {
  readonly id: string;
  readonly kind: 'run' | 'seeds' | 'steal';
  readonly data: string;
  readonly created: string;
  status: StudyStatus;
  progress: { fraction: number; stage?: string };
  result?: unknown;
  error?: { code: string; message: string };
  readonly controller: AbortController;
}

const STUDY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function studyView(s: Study, withResult: boolean): Record<string, unknown> {
  return {
    id: s.id,
    kind: s.kind,
    data: s.data,
    created: s.created,
    status: s.status,
    progress: s.progress,
    ...(s.error ? { error: s.error } : {}),
    ...(withResult && s.result !== undefined ? { result: s.result } : {}),
  };
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const envModel = process.env[MODEL_VARIABLE];
  const modelPath = options.modelPath ?? (envModel !== undefined && envModel !== '' ? path.resolve(envModel) : path.join(ctx.dataDir || '.', 'flowdet', 'model.json'));
  const router = express.Router();
  const studies = new Map<string, Study>();

  const bundle = (): ModelBundle => {
    try {
      // Cached by path, size and modification time: a bundle a study replaces is picked up on the next request.
      return bundleAt(modelPath);
    } catch (err) {
      const reason = err instanceof VitrineError ? err.message : 'unreadable';
      throw new VitrineError('unavailable', `no usable model bundle: ${reason}`, { cause: err });
    }
  };

  router.get('/health', (_req, res) => {
    let model: Record<string, unknown> = { loaded: false };
    if (existsSync(modelPath)) {
      try {
        const b = bundle();
        model = { loaded: true, sha256: b.sha256, dataset: b.schema.id, trained_on: b.trainedOn, members: b.ensemble.members.map((m) => m.kind), alarm: b.alarm !== undefined, card: b.card };
      } catch (err) {
        model = { loaded: false, error: err instanceof VitrineError ? err.message : 'unreadable' };
      }
    }
    res.json({ status: 'ok', service: 'flowdet', version: VERSION, model, limits: { max_flows: MAX_SCORE_FLOWS, max_explain_flows: MAX_EXPLAIN_FLOWS, max_body_bytes: MAX_SCORE_BODY_BYTES } });
  });

  router.get('/schema', (req, res) => {
    const { dataset } = parseQuery(schemaQuery, req);
    const schema = dataset !== undefined ? schemaOf(dataset) : existsSync(modelPath) ? bundle().schema : schemaOf('synthetic');
    res.json(describeSchema(schema));
  });

  router.post(
    '/score',
    jsonBody(MAX_SCORE_BODY_BYTES),
    route(async (req: Request, res: Response) => {
      // Validate here as well as in the job: a bad request is answered at once, without taking a worker.
      const body = parseBody(scoreRequestSchema, req);
      if (body.explain && body.flows.length > MAX_EXPLAIN_FLOWS) throw new VitrineError('validation_failed', `at most ${MAX_EXPLAIN_FLOWS} flows per request with explain`);
      bundle();
      const signal = abortOnClientClose(res);
      const result = (await ctx.jobs.run(SCORE_JOB, { modelPath, request: req.body as unknown }, { signal, label: `Score ${body.flows.length} flows` })) as ScoreResponse;
      if (typeof result !== 'object' || result === null || !Array.isArray((result as { results?: unknown }).results)) throw new VitrineError('internal', 'the scoring job returned no valid result');
      res.json(result);
    }),
  );

  router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: openApiDocument }));
  if (options.studies === false) return router;

  router.get('/datasets', (_req, res) => {
    res.json({ items: datasetAvailability(), variable: DATA_DIR_VARIABLE });
  });

  router.post(
    '/studies',
    jsonBody(MAX_STUDY_CSV_BYTES + 64 * 1024),
    route((req: Request, res: Response) => {
      const p = parseBody(studyRequestSchema, req);
      if ((p.data === 'csv') !== (p.csv !== undefined)) throw new VitrineError('validation_failed', 'give csv (the flows\' text) exactly when data is "csv"', { details: [{ path: 'csv', issue: 'required with data "csv" only' }] });
      if (p.data === 'csv' && !ctx.dataDir) throw new VitrineError('unavailable', 'this service has no data folder to keep an uploaded CSV in');
      const running = [...studies.values()].filter((s) => s.status === 'running').length;
      if (running >= MAX_RUNNING_STUDIES) throw new VitrineError('conflict', `at most ${MAX_RUNNING_STUDIES} studies run at once`);
      const id = randomUUID();
      const study: Study = { id, kind: p.kind, data: p.data === 'csv' ? (p.csv_name ?? 'uploaded CSV') : p.data, created: new Date().toISOString(), status: 'running', progress: { fraction: 0 }, controller: new AbortController() };
      const outDir = ctx.dataDir ? path.join(ctx.dataDir, 'flowdet', 'studies', id) : undefined;
      let data: string = p.data;
      if (p.data === 'csv' && outDir) {
        // The user's own flows: kept in the study's folder under a fixed name (the given name is only shown).
        mkdirSync(outDir, { recursive: true });
        data = path.join(outDir, 'flows.csv');
        writeFileSync(data, p.csv!);
      }
      const common = { data, quick: p.quick, ...(outDir ? { outDir } : {}) };
      const [type, payload] =
        p.kind === 'run'
          ? [RUN_JOB, { ...common, seed: p.seed, ...(p.data === 'csv' ? { dataName: p.csv_name ?? 'uploaded CSV' } : {}), ...(p.save_model ? { saveModel: modelPath } : {}) }]
          : p.kind === 'seeds'
            ? [SEEDS_JOB, { ...common, seeds: p.seeds ?? [0, 1, 2], adv: p.adv }]
            : [STEAL_JOB, { ...common, seed: p.seed, ...(p.budgets ? { budgets: p.budgets } : {}), ...(p.eps ? { eps: p.eps } : {}) }];
      studies.set(id, study);
      // Forget the oldest finished studies beyond the limit.
      const finished = [...studies.values()].filter((s) => s.status !== 'running');
      for (const s of finished.slice(0, Math.max(0, studies.size - MAX_KEPT_STUDIES))) studies.delete(s.id);
      ctx.jobs
        .run(type, payload, {
          signal: study.controller.signal,
          timeoutMs: STUDY_TIMEOUT_MS,
          label: `Flow study (${p.kind}, ${p.data})`,
          onProgress: (pr) => {
            study.progress = { fraction: pr.fraction, ...(pr.message !== undefined ? { stage: pr.message } : {}) };
          },
        })
        .then((result) => {
          study.status = 'done';
          study.progress = { fraction: 1, stage: 'done' };
          study.result = result;
        })
        .catch((err: unknown) => {
          const code = err instanceof VitrineError ? err.code : 'internal';
          study.status = code === 'cancelled' || study.controller.signal.aborted ? 'cancelled' : 'failed';
          study.error = { code, message: err instanceof VitrineError ? err.message : 'the study failed' };
        });
      res.status(202).setHeader('Location', `studies/${id}`);
      res.json(studyView(study, false));
    }),
  );

  router.get('/studies', (_req, res) => {
    res.json({ items: [...studies.values()].reverse().map((s) => studyView(s, false)) });
  });

  const studyOf = (req: Request): Study => {
    const id = String(req.params['id'] ?? '');
    const s = STUDY_ID.test(id) ? studies.get(id) : undefined;
    if (!s) throw new VitrineError('not_found', 'no such study');
    return s;
  };

  router.get('/studies/:id', (req, res) => {
    res.json(studyView(studyOf(req), true));
  });

  router.delete('/studies/:id', (req, res) => {
    const s = studyOf(req);
    if (s.status === 'running') s.controller.abort();
    res.status(202).json(studyView(s, false));
  });

  return router;
}

export type StandaloneOptions = RouterOptions & CoreStandaloneOptions;

/** The resources/ folder of this checkout or installed package (for the shared /docs page). */
export function defaultResourcesDir(): string {
  return findResourcesDir(path.join('core', 'docs'));
}

/** The app `flowdet serve` runs: hardening, request ids, the router at the root, the one error shape. */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(flowdetService, options, defaultResourcesDir);
  return createServiceApp(createRouter(ctx, { studies: false, ...(options.modelPath === undefined ? {} : { modelPath: options.modelPath }) }), options.allowedHosts);
}
