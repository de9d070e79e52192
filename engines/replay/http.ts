// The capture replay HTTP routes (mounted by the gateway at /svc/replay, or at / by `replay serve`): /api/*, /docs; `replay serve` adds the UI at GET /.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express, { type Express, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { storageError, VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { abortOnClientClose, page, parsePagination, parseQuery, route } from '../core/http/index.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import { defaultRendererDir, standaloneUi } from '../core/http/standalone-ui.js';
import type { ServiceContext } from '../core/service.js';
import { CAPTURE_FORMATS, checkFormat, fileHead } from './analyze.js';
import { storyToCypher } from './export/cypher.js';
import { storyToMermaid } from './export/mermaid.js';
import { storyToStix } from './export/stix.js';
import { DEFAULT_INDICATORS_RELATIVE, defaultResourcesDir, loadIndicators, MAX_UPLOAD_BYTES, RULES, VERSION } from './index.js';
import { MAX_BENIGN_FLOWS } from './intrusion.js';
import type { AnalysisWithFlows } from './analyze.js';
import { addBrowseRoutes } from './browse/http.js';
import { isFlowTable } from './browse/overview.js';
import { ANALYZE_JOB, DEMO_JOB } from './jobs.js';
import { openApiDocument } from './openapi.js';
import { analysisSchema } from './schemas.js';
import { replayService } from './service.js';
import { countAnalyses, getStory, listStories, saveAnalysis } from './store.js';
import type { ReplayAnalysis, Story } from './types.js';
import { textWithoutControls } from '../core/validation.js';

export interface RouterOptions {
  /** The indicator list; default `<resourcesDir>/replay/indicators.txt`. */
  readonly indicatorsPath?: string;
  /** Largest upload accepted (default MAX_UPLOAD_BYTES, 256 MiB). */
  readonly maxUploadBytes?: number;
  /** Where uploads are written while they are analysed (default the system temporary directory). */
  readonly uploadDir?: string;
}

/** Media types an upload may declare (or none): the body is the capture's bytes. */
const UPLOAD_TYPES = [
  'application/octet-stream',
  'application/vnd.tcpdump.pcap',
  'application/x-pcap',
  'application/pcap',
  'application/x-pcapng',
  'application/pcapng',
  // A Zeek conn.log (format=zeek or auto): tab-separated text or JSON lines.
  'text/plain',
  'text/tab-separated-values',
  'application/json',
  'application/x-ndjson',
];

const STORY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const storiesQuery = z.object({ analysis: z.uuid().optional() });
const demoQuery = z.object({
  benign: z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(MAX_BENIGN_FLOWS))
    .default(200),
  seed: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(2 ** 31))
    .optional(),
});
export const analyzeQuery = z.object({
  // A display name (the capture's file name); control characters are refused, directories dropped.
  name: textWithoutControls(200).optional(),
  format: z.enum(CAPTURE_FORMATS).default('auto'),
});

function isAnalysis(value: unknown): value is AnalysisWithFlows {
  if (!analysisSchema.safeParse(value).success) return false;
  const table: unknown = (value as { flow_table?: unknown }).flow_table;
  return table === undefined || isFlowTable(table);
}

/** Streams the request body into a new private file, refusing (413) past `limit` bytes. */
async function receiveUpload(req: Request, dir: string, limit: number): Promise<{ file: string; bytes: number }> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw new VitrineError('payload_too_large', `the capture is larger than the upload limit (${limit} bytes)`);
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') throw new VitrineError('unsupported_media_type', 'compressed uploads are not accepted');
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && !UPLOAD_TYPES.includes(type)) throw new VitrineError('unsupported_media_type', 'the capture must be sent as application/octet-stream');
  const file = path.join(dir, 'capture');
  let bytes = 0;
  // Not stream.pipeline: on error it destroys the request, and with it the socket the 413 must go out on.
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
    let settled = false;
    const fail = (err: VitrineError): void => {
      if (settled) return;
      settled = true;
      out.destroy();
      // Whatever is still coming is read and dropped, so the answer can be sent.
      req.resume();
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      bytes += chunk.length;
      if (bytes > limit) {
        fail(new VitrineError('payload_too_large', `the capture is larger than the upload limit (${limit} bytes)`));
        return;
      }
      if (!out.write(chunk)) {
        req.pause();
        out.once('drain', () => {
          if (!settled) req.resume();
        });
      }
    });
    req.on('end', () => {
      if (settled) return;
      out.end(() => {
        if (settled) return;
        settled = true;
        resolve();
      });
    });
    req.on('error', () => fail(new VitrineError('bad_request', 'the upload was interrupted')));
    req.on('close', () => {
      if (!req.complete) fail(new VitrineError('bad_request', 'the upload was interrupted'));
    });
    // A full disk is the user's to fix (507), not an internal error.
    out.on('error', (err) => fail(storageError(err) ?? new VitrineError('internal', 'the upload could not be written')));
  });
  return { file, bytes };
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const indicatorsPath = options.indicatorsPath ?? path.join(ctx.resourcesDir, DEFAULT_INDICATORS_RELATIVE);
  const maxUpload = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  const router = express.Router();

  router.get('/api/health', (_req, res) => {
    let indicators = { count: 0, sha256: '', problems: 0 };
    try {
      const set = loadIndicators(indicatorsPath);
      indicators = { count: set.count, sha256: set.sha256, problems: set.problems.length };
    } catch {
      // A missing list is reported as empty; the analyses still run without it.
    }
    res.json({
      status: 'ok',
      service: 'replay',
      version: VERSION,
      rules: RULES.map((r) => ({ name: r.name, title: r.title, stage: r.stage, techniques: [...r.techniques], description: r.description })),
      indicators,
      ...countAnalyses(ctx.db),
      limits: { max_upload_bytes: maxUpload, max_benign_flows: MAX_BENIGN_FLOWS, formats: [...CAPTURE_FORMATS] },
    });
  });

  router.get('/api/stories', (req, res) => {
    const p = parsePagination(req);
    const { analysis } = parseQuery(storiesQuery, req);
    const { items, total } = listStories(ctx.db, p, analysis);
    res.json(page(items, total, p));
  });

  const runAndSave = async (res: Response, type: string, payload: unknown, label: string): Promise<void> => {
    const signal = abortOnClientClose(res);
    const result = await ctx.jobs.run(type, payload, { signal, label });
    // The result crossed a process boundary: check its shape before it is stored and served.
    if (!isAnalysis(result)) throw new VitrineError('internal', 'the analysis job returned no valid analysis');
    saveAnalysis(ctx.db, result);
    // The flow rows are served by page (GET /api/analyses/{id}/flows), never in the analysis.
    const { flow_table: _rows, ...analysis } = result;
    res.setHeader('X-Analysis-Id', result.id);
    res.json(analysis satisfies ReplayAnalysis);
  };

  router.post(
    '/api/demo',
    route(async (req, res) => {
      const { benign, seed } = parseQuery(demoQuery, req);
      await runAndSave(res, DEMO_JOB, { benign, indicatorsPath, ...(seed !== undefined ? { seed } : {}) }, `Synthetic intrusion (${benign} benign flows)`);
    }),
  );

  router.post(
    '/api/analyze',
    route(async (req, res) => {
      const q = parseQuery(analyzeQuery, req);
      const name = (q.name ?? 'upload').replace(/^.*[\\/]/, '') || 'upload';
      const dir = await mkdtemp(path.join(options.uploadDir ?? tmpdir(), 'vitrine-replay-'));
      try {
        const { file } = await receiveUpload(req, dir, maxUpload);
        // Refuse what is not a capture here, without taking a worker.
        checkFormat(fileHead(file), q.format);
        await runAndSave(res, ANALYZE_JOB, { path: file, name, format: q.format, source: 'upload', indicatorsPath }, `Capture ${name.slice(0, 60)}`);
      } catch (err) {
        // Do not keep reading a body that is over the limit: answer and close the connection.
        if (err instanceof VitrineError && err.code === 'payload_too_large') res.setHeader('Connection', 'close');
        throw err;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }),
  );

  const story = (req: Request): Story => {
    const raw: unknown = req.params['id'];
    const id = typeof raw === 'string' ? raw : '';
    const s = STORY_ID.test(id) ? getStory(ctx.db, id) : null;
    if (!s) throw new VitrineError('not_found', 'no such story');
    return s;
  };
  router.get('/api/stories/:id', (req, res) => {
    res.json(story(req));
  });
  router.get('/api/stories/:id/stix', (req, res) => {
    res.type('application/stix+json;version=2.1').send(JSON.stringify(storyToStix(story(req))));
  });
  router.get('/api/stories/:id/mermaid', (req, res) => {
    res.type('text/plain; charset=utf-8').send(storyToMermaid(story(req)));
  });
  router.get('/api/stories/:id/cypher', (req, res) => {
    res.type('text/plain; charset=utf-8').send(storyToCypher(story(req)));
  });

  addBrowseRoutes(router, ctx);

  router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: () => openApiDocument(maxUpload) }));
  return router;
}

export interface StandaloneOptions extends RouterOptions, CoreStandaloneOptions {
  /** The built renderer served at GET / (default dist/renderer, see defaultRendererDir). */
  readonly rendererDir?: string;
}

/** The routes that answer without the built page (named by the 503 page GET / shows then). */
const API_WITHOUT_UI =
  'GET /api/health, POST /api/demo, POST /api/analyze, GET /api/stories and each story with its STIX, Mermaid and Cypher exports, and the alerts, flows and overview under /api/analyses/{id}/; the API is described at /docs/.';

/**
 * The app `replay serve` runs: hardening, request ids, the router at the root, the replay UI at GET / (the workstation
 * renderer's build showing only the Replay workspace, engines/core/http/standalone-ui.ts), the one error shape.
 */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(replayService, options, defaultResourcesDir);
  const root = express.Router();
  root.use(
    createRouter(ctx, {
      ...(options.indicatorsPath !== undefined ? { indicatorsPath: options.indicatorsPath } : {}),
      ...(options.maxUploadBytes !== undefined ? { maxUploadBytes: options.maxUploadBytes } : {}),
      ...(options.uploadDir !== undefined ? { uploadDir: options.uploadDir } : {}),
    }),
  );
  root.use(standaloneUi(options.rendererDir ?? defaultRendererDir(), 'replay', { version: VERSION, api: API_WITHOUT_UI }));
  return createServiceApp(root, options.allowedHosts);
}
