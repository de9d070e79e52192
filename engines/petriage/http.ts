// The triage HTTP routes (mounted by the gateway at /svc/petriage, or at / by `petriage serve`): the spec's four routes, the stored
// analyses (GET /api/analyses, GET /api/analyses/{id}; not in the spec), /openapi.json, and /docs when enabled.
import path from 'node:path';
import express, { type Express, type Request, type Response, type Router } from 'express';
import { VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { abortOnClientClose, jsonBody, page, parseBody, parsePagination, parseQuery, route } from '../core/http/index.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import { defaultRendererDir, standaloneUi } from '../core/http/standalone-ui.js';
import type { ServiceContext } from '../core/service.js';
import type { TriageResult } from './analyze.js';
import { benignCorpusSize, type BenignSource } from './benign.js';
import { ANALYZE_JOB, VALIDATE_RULE_JOB } from './jobs.js';
import { DEFAULT_MODEL_RELATIVE, loadModel, type TriageModel } from './model.js';
import { MAX_UPLOAD_BYTES, openApiDocument, UPLOAD_SLOTS } from './openapi.js';
import { defaultResourcesDir, VERSION } from './resources.js';
import type { RuleValidation } from './rulegen.js';
import { MAX_RULE_TEXT, parse } from './rules.js';
import { ANALYSIS_ID, analysesQuerySchema, analyzeQuerySchema, ruleValidationSchema, triageResultSchema, validateRequestSchema } from './schemas.js';
import { petriageService } from './service.js';
import { getAnalysis, listAnalyses, saveAnalysis } from './store.js';
import { UploadGate } from './upload-gate.js';

export interface RouterOptions {
  /** The model file; default `<resourcesDir>/petriage/linear-demo.json`. */
  readonly modelPath?: string;
  /** The benign corpus rules are validated against; default the synthetic benign corpus. */
  readonly benign?: BenignSource;
  /** Serve Swagger UI at /docs (`serve --enable-docs`); off by default. */
  readonly enableDocs?: boolean;
  /** Uploads read and analysed at once (default 2, the spec's limit). */
  readonly uploadSlots?: number;
  /** Called when an upload has to wait for a slot, before anything of its body is read (tests watch the gate with it). */
  readonly onUploadWaiting?: (req: Request) => void;
}


const rawParser = express.raw({ limit: MAX_UPLOAD_BYTES, type: () => true });

/** Reads the whole body through express.raw (so its limit and errors apply), as bytes. */
function readBody(req: Request, res: Response): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    rawParser(req, res, (err?: unknown) => {
      if (err !== undefined) reject(err);
      else resolve(Buffer.isBuffer(req.body) ? new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength) : new Uint8Array(0));
    });
  });
}

function isTriageResult(value: unknown): value is TriageResult {
  return triageResultSchema.safeParse(value).success;
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const modelPath = options.modelPath ?? path.join(ctx.resourcesDir, DEFAULT_MODEL_RELATIVE);
  const benign: BenignSource = options.benign ?? {};
  const gate = new UploadGate(options.uploadSlots ?? UPLOAD_SLOTS);
  const router = express.Router();

  let cached: TriageModel | undefined;
  const model = (): TriageModel => {
    if (cached) return cached;
    try {
      cached = loadModel(modelPath);
      return cached;
    } catch (err) {
      // A missing or broken model is the installation's fault, not the caller's: 503, with our own (path-free) reason.
      const reason = err instanceof VitrineError ? err.message : 'unreadable';
      throw new VitrineError('unavailable', `the model is unavailable: ${reason}`, { cause: err });
    }
  };

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: 'petriage', version: VERSION, modelType: model().type, benignCorpusSize: benignCorpusSize(benign) });
  });

  router.get('/api/model', (_req, res) => {
    const m = model();
    res.json({ modelType: m.type, format: m.format, sha256: m.sha256, featureLayout: m.featureLayout, thresholds: m.thresholds, thresholdBasis: m.thresholdBasis, attribution: m.attribution, metadata: m.metadata, knownFamilies: m.families });
  });

  router.post(
    '/api/analyze',
    route(async (req: Request, res: Response) => {
      // Refusals that need no body come first, before the request takes or waits for a slot. The body is then
      // never read, so the connection closes after the answer rather than waiting for bytes nobody wants.
      let fileName: string | null;
      try {
        // The file's name (optional, display only): base name, trimmed, checked here; a refusal never repeats it.
        fileName = parseQuery(analyzeQuerySchema, req).name ?? null;
        const declared = req.headers['content-length'];
        const chunked = req.headers['transfer-encoding'] !== undefined;
        if ((declared === undefined || declared === '0') && !chunked) throw new VitrineError('bad_request', 'the body must be the file bytes');
        if (!req.is('application/octet-stream')) throw new VitrineError('unsupported_media_type', 'request body must be application/octet-stream');
        if (declared !== undefined && Number(declared) > MAX_UPLOAD_BYTES) throw new VitrineError('payload_too_large', 'the upload is over 32 MB (32,000,000 bytes)');
        model();
      } catch (err) {
        res.setHeader('Connection', 'close');
        throw err;
      }
      const signal = abortOnClientClose(res);
      if (gate.running >= gate.slots) options.onUploadWaiting?.(req);
      const release = await gate.acquire(signal);
      try {
        const data = await readBody(req, res);
        if (data.length === 0) throw new VitrineError('bad_request', 'the body must be the file bytes');
        const result = await ctx.jobs.run(ANALYZE_JOB, { data, modelPath, benign }, { signal, label: 'PE triage' });
        // The result crossed a process boundary: check its shape before it is stored and served.
        if (!isTriageResult(result)) throw new VitrineError('internal', 'the analysis job returned no valid result');
        const stored = saveAnalysis(ctx.db, result, new Date(), fileName);
        res.setHeader('X-Analysis-Id', stored.id);
        res.json(result);
      } finally {
        release();
      }
    }),
  );

  router.post(
    '/api/rule/validate',
    jsonBody(MAX_RULE_TEXT + 4096),
    route(async (req: Request, res: Response) => {
      const { text } = parseBody(validateRequestSchema, req);
      // Rule text errors are answered at once, without a worker; the parser's messages name a line, never the text.
      parse(text);
      const signal = abortOnClientClose(res);
      const result = await ctx.jobs.run(VALIDATE_RULE_JOB, { text, benign }, { signal, label: 'Rule validation' });
      if (!ruleValidationSchema.safeParse(result).success) throw new VitrineError('internal', 'the validation job returned no valid result');
      res.json(result as RuleValidation);
    }),
  );

  // The history: every analysis POST /api/analyze answered, newest first (the spec names no route for it; docs/petriage.md).
  router.get('/api/analyses', (req, res) => {
    const p = parsePagination(req);
    const { verdict, sha256, q } = parseQuery(analysesQuerySchema, req);
    const { items, total } = listAnalyses(ctx.db, p, { ...(verdict !== undefined ? { verdict } : {}), ...(sha256 !== undefined ? { sha256Prefix: sha256 } : {}), ...(q !== undefined ? { text: q } : {}) });
    res.json(page(items, total, p));
  });

  router.get('/api/analyses/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    // A malformed id is the caller's mistake (400), an unknown one is 404; neither message repeats it.
    if (!ANALYSIS_ID.test(id)) throw new VitrineError('bad_request', 'the analysis id must be a UUID as X-Analysis-Id and GET /api/analyses give it');
    const stored = getAnalysis(ctx.db, id);
    if (!stored) throw new VitrineError('not_found', 'no stored analysis has this id');
    res.json(stored);
  });

  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });

  if (options.enableDocs === true) {
    // Interactive documentation from local files (engines/core/http/docs.ts). /redoc is not served.
    router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: openApiDocument }));
  }
  return router;
}

export type StandaloneOptions = RouterOptions &
  CoreStandaloneOptions & {
    /** The built renderer served at GET / (default dist/renderer, see defaultRendererDir). */
    readonly rendererDir?: string;
  };

/** The app `petriage serve` runs: hardening, request ids, the router at the root, the triage UI at GET /, the one error shape. */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(petriageService, options, defaultResourcesDir);
  const root = express.Router();
  root.use(createRouter(ctx, options));
  root.use(
    standaloneUi(options.rendererDir ?? defaultRendererDir(), 'petriage', {
      version: VERSION,
      api: 'GET /health, GET /api/model, POST /api/analyze, POST /api/rule/validate, GET /api/analyses, GET /api/analyses/{id}, GET /openapi.json.',
    }),
  );
  return createServiceApp(root, options.allowedHosts);
}
