// The forensic timeline HTTP routes (mounted by the gateway at /svc/forensic, or at / by `forensic serve`): /api/*, /docs; `forensic serve` adds the UI at GET /.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import express, { type Express, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { AnalysisView, CaseDetail, CaseSummary, ScenarioInfo } from '../core/contracts/forensic.js';
import { VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { jsonBody, page, parseBody, parsePagination, parseQuery, route } from '../core/http/index.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import { defaultRendererDir, standaloneUi } from '../core/http/standalone-ui.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobTable } from '../core/jobs/protocol.js';
import type { ServiceContext } from '../core/service.js';
import { validate } from '../core/validation.js';
import { EVIDENCE_ROOT_ENV, resolveEvidence } from './evidence.js';
import { VERSION } from './index.js';
import { ANALYZE_JOB, CASE_MAX_EVENTS, MAX_TOP, SCENARIO_JOB } from './jobs.js';
import { openApiDocument } from './openapi.js';
import { navigatorLayer, REPORT_CSP, toHtml, toMarkdown, toPdf, viewToCypher, type ReportMeta } from './report/index.js';
import { caseJobResultSchema, MAX_CASE_PATHS, pathBodySchema, scenarioBodySchema } from './schemas.js';
import { forensicService } from './service.js';
import { caseAnnotations } from './casework/annotations.js';
import { mountCaseWork } from './casework/http.js';
import { EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX } from './paging.js';
import { sendStreamedJson } from './stream-json.js';
import { caseItemsJoined } from './case-bytes.js';
import { searchCase } from './search.js';
import { parseSearchRequest } from '../core/search.js';
import { CASE_OWNER, caseCustody, caseItemCount, caseItemsJson, caseOwnerAlive, caseWriteSteps, countCases, createCase, DEFAULT_MAX_EVENTS, discardLeftovers, discardPartialCase, exportView, failInterruptedCases, getCaseExport, getCaseSummary, getCaseView, type CaseItemKind, leanEventJson, listCases, prepareCase, setCaseStatus } from './store.js';
import { findResourcesDir } from '../core/resources.js';

/** Spec to_dict default: the stories kept. */
export const DEFAULT_TOP = 20;
export { EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX } from './paging.js';
/** Finished cases whose parsed export the detail route keeps (least recently read dropped first). */
const EXPORT_CACHE_CASES = 8;
/** Largest JSON body accepted. */
export const MAX_BODY_BYTES = 64 * 1024;
/** An analysis job may run this long (milliseconds). */
export const CASE_JOB_TIMEOUT_MS = 60 * 60 * 1000;

export interface RouterOptions {
  /** The folder evidence may be read from; default $FORENSIC_EVIDENCE_ROOT (unset: POST /api/cases/path is refused). */
  readonly evidenceRoot?: string;
  /** The built-in scenarios (default the analysis engine's listScenarios). */
  readonly scenarios?: () => readonly ScenarioInfo[];
  /** The clock (tests fix it). */
  readonly now?: () => Date;
}

const CASE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

const waitQuery = z.object({ wait: z.enum(['true', 'false', '1', '0']).optional() });
const detailQuery = z.object({
  events: z.enum(['stories', 'all']).default('stories'),
  max_events: z
    .string()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(CASE_MAX_EVENTS))
    .default(DEFAULT_MAX_EVENTS),
  graph: z.enum(['stories', 'all']).optional(),
  attributes: z.enum(['true', 'false']).default('true'),
  events_offset: z
    .string()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(CASE_MAX_EVENTS))
    .default(0),
  events_limit: z
    .string()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(EVENTS_PAGE_MAX))
    .default(EVENTS_PAGE_DEFAULT),
});
/** Custody anchors recorded outside the workstation (the head and count printed when the case completed). */
const custodyQuery = z.object({
  expect_head: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .optional(),
  expect_count: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .optional(),
});

/** What a job that stored its case itself answers (jobs.ts StoredCaseResult). */
const storedCaseResultSchema = z.strictObject({
  stored: z.strictObject({ caseId: z.string().min(1).max(128), head: z.string().regex(/^[0-9a-f]{64}$/), count: z.number().int().min(1) }),
});

/** Cases whose job this process is running (every router of the process): a case of this process not in it is over. */
const analysing = new Set<string>();

/** Whether a queued or running case can still finish: its owner is live and, when that is this process, its job is running. */
function caseLive(owner: string | null, id: string): boolean {
  return owner === CASE_OWNER ? analysing.has(id) : caseOwnerAlive(owner);
}

/** Runs write steps, letting the event loop in between (each step is one short transaction). */
async function stepThrough(steps: Generator<void, void, void>): Promise<void> {
  for (const _ of steps) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function defaultScenarios(): Promise<readonly ScenarioInfo[]> {
  const api = await import('./analysis/index.js');
  return api.listScenarios();
}

function jobError(err: unknown): string {
  return err instanceof VitrineError ? err.code : 'internal';
}

/** The failure in words for the workspace: a VitrineError's message never names a path or a submitted value. */
function jobMessage(err: unknown): string {
  return err instanceof VitrineError ? err.message.slice(0, 1000) : 'the analysis stopped on an internal error';
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const now = options.now ?? (() => new Date());
  const envRoot = process.env[EVIDENCE_ROOT_ENV];
  const evidenceRoot = options.evidenceRoot ?? (envRoot !== undefined && envRoot !== '' ? path.resolve(envRoot) : undefined);
  const scenarios = async (): Promise<readonly ScenarioInfo[]> => (options.scenarios ? options.scenarios() : defaultScenarios());
  /** Progress of the cases this process is analysing. */
  const running = new Map<string, { fraction: number; stage?: string }>();
  const router = express.Router();
  const body = jsonBody(MAX_BODY_BYTES);

  // Jobs of a previous process died with it: their cases can never finish. Failed cases whose partial rows could not
  // be removed when they failed (a full disk) lose them now.
  failInterruptedCases(ctx.db, now().toISOString(), caseLive, (id) => analysing.has(id));
  discardLeftovers(ctx.db);
  /** The store file the analysis jobs write a finished case to themselves; none for an in-memory store. */
  const storeFile = ctx.db.memory ? undefined : path.resolve(ctx.db.name);

  const withProgress = (s: CaseSummary): CaseSummary => {
    const p = running.get(s.id);
    return p !== undefined && (s.status === 'queued' || s.status === 'running') ? { ...s, progress: p } : s;
  };

  const summaryOrThrow = (req: Request): CaseSummary => {
    const raw: unknown = req.params['id'];
    const id = typeof raw === 'string' && CASE_ID.test(raw) ? raw : null;
    let s = id === null ? null : getCaseSummary(ctx.db, id);
    if (!s) throw new VitrineError('not_found', 'no such case');
    // Unfinished: the process analysing it may have stopped (another one on this store), which marks it interrupted.
    if ((s.status === 'queued' || s.status === 'running') && failInterruptedCases(ctx.db, now().toISOString(), caseLive, (id) => analysing.has(id)) > 0) s = getCaseSummary(ctx.db, s.id) ?? s;
    return withProgress(s);
  };

  const finishedView = (req: Request): { summary: CaseSummary; view: AnalysisView } => {
    const summary = summaryOrThrow(req);
    const view = summary.status === 'done' ? getCaseExport(ctx.db, summary.id) : null;
    if (!view) throw new VitrineError('conflict', summary.status === 'failed' ? 'the case failed; it has no analysis' : 'the case has not finished yet');
    return { summary, view };
  };

  /** Finished cases' exports, parsed once: a done case never changes, and parsing a large export on every page read stalls the loop. */
  const exports = new Map<string, AnalysisView | null>();
  const cachedExport = (id: string): AnalysisView | null => {
    const hit = exports.get(id);
    if (hit !== undefined) {
      exports.delete(id);
      exports.set(id, hit);
      return hit;
    }
    const view = getCaseExport(ctx.db, id);
    exports.set(id, view);
    if (exports.size > EXPORT_CACHE_CASES) exports.delete(exports.keys().next().value as string);
    return view;
  };

  /** A view with the case's current annotations, for the detail answer and the reports. */
  const annotated = <V extends AnalysisView>(id: string, view: V): V => {
    const notes = caseAnnotations(ctx.db, id).annotations;
    return notes.length === 0 ? view : { ...view, annotations: notes };
  };

  const meta = (s: CaseSummary): ReportMeta => ({ title: s.title, caseId: s.id, origin: s.origin, generator: `forensic ${VERSION}`, generatedAt: now().toISOString() });

  /** Creates the case, starts its job, and resolves when the job has been stored (or has failed). */
  const startCase = (title: string, origin: string, request: unknown, jobType: string, payload: Record<string, unknown>): { summary: CaseSummary; settled: Promise<void> } => {
    const id = randomUUID();
    const summary = createCase(ctx.db, { id, title, origin, request, now: now().toISOString() });
    running.set(id, { fraction: 0 });
    analysing.add(id);
    let started = false;
    const job = ctx.jobs.run(
      jobType,
      // With a store file the worker writes the finished case there itself (short transactions) and answers its anchors.
      { ...payload, caseId: id, actor: `forensic ${VERSION}`, ...(storeFile !== undefined ? { store: storeFile } : {}) },
      {
        label: `Case ${title.slice(0, 60)}`,
        timeoutMs: CASE_JOB_TIMEOUT_MS,
        onProgress: (p) => {
          if (!started) {
            started = true;
            setCaseStatus(ctx.db, id, 'running', now().toISOString());
          }
          running.set(id, { fraction: p.fraction, ...(p.message !== undefined ? { stage: p.message } : {}) });
        },
      },
    );
    const settled = job
      .then(async (result) => {
        // The result crossed a process boundary: check its shape before it is stored and served.
        const stored = storedCaseResultSchema.safeParse(result);
        if (stored.success) {
          if (stored.data.stored.caseId !== id || getCaseSummary(ctx.db, id)?.status !== 'done') throw new VitrineError('internal', 'the analysis job did not store its case');
          return;
        }
        const r = validate(caseJobResultSchema, result, 'analysis job result', 'internal');
        await stepThrough(caseWriteSteps(ctx.db, id, prepareCase(r.view as AnalysisView, r.custody), now().toISOString()));
      })
      .catch(async (err: unknown) => {
        try {
          setCaseStatus(ctx.db, id, 'failed', now().toISOString(), jobError(err), jobMessage(err));
          // What a store that stopped part way wrote goes (the case is failed first, so no writer adds to it again).
          await stepThrough(discardPartialCase(ctx.db, id));
        } catch {
          // The store is closed (the process is stopping) or full: the next list or read, or the next start, marks the
          // case interrupted and removes its partial rows.
        }
        throw err;
      })
      .finally(() => {
        running.delete(id);
        analysing.delete(id);
      });
    return { summary: withProgress(summary), settled };
  };

  /** 202 with the new case, or with ?wait=true the finished case (or the job's error). */
  const answerCase = async (req: Request, res: Response, started: { summary: CaseSummary; settled: Promise<void> }): Promise<void> => {
    const { wait } = parseQuery(waitQuery, req);
    const location = `cases/${started.summary.id}`;
    res.setHeader('X-Case-Id', started.summary.id);
    if (wait === 'true' || wait === '1') {
      await started.settled;
      const detail: CaseDetail = { ...(getCaseSummary(ctx.db, started.summary.id) as CaseSummary), analysis: exportView(getCaseExport(ctx.db, started.summary.id) as AnalysisView) };
      res.json(detail);
      return;
    }
    started.settled.catch(() => undefined);
    res.status(202).setHeader('Location', location);
    res.json(started.summary);
  };

  router.get('/api/health', (_req, res) => {
    res.json({
      status: 'ok',
      service: 'forensic',
      version: VERSION,
      ...countCases(ctx.db),
      evidenceRootSet: evidenceRoot !== undefined,
      limits: { maxPaths: MAX_CASE_PATHS, maxTop: MAX_TOP, caseMaxEvents: CASE_MAX_EVENTS, defaultTop: DEFAULT_TOP, defaultMaxEvents: DEFAULT_MAX_EVENTS },
    });
  });

  router.get(
    '/api/scenarios',
    route(async (_req, res) => {
      res.json(await scenarios());
    }),
  );

  router.post(
    '/api/cases/scenario/:name',
    body,
    route(async (req, res) => {
      const raw: unknown = req.params['name'];
      const name = typeof raw === 'string' && SCENARIO_NAME.test(raw) ? raw : null;
      const info = name === null ? undefined : (await scenarios()).find((s) => s.name === name);
      if (!info || name === null) throw new VitrineError('not_found', 'no such scenario');
      const b = validate(scenarioBodySchema, (req.body as unknown) ?? {}, 'request body');
      const top = b.top ?? DEFAULT_TOP;
      await answerCase(req, res, startCase(info.title, `scenario:${name}`, { scenario: name, top, includeNoisy: b.includeNoisy ?? false }, SCENARIO_JOB, { name, top, includeNoisy: b.includeNoisy ?? false }));
    }),
  );

  router.post(
    '/api/cases/path',
    body,
    route(async (req, res) => {
      const b = parseBody(pathBodySchema, req);
      if (evidenceRoot === undefined) throw new VitrineError('forbidden', `no evidence root is configured: set ${EVIDENCE_ROOT_ENV} before starting the service`);
      // Every path is checked (and its links resolved) here, before a worker is taken; errors never name a path.
      const real = b.paths.map((p) => resolveEvidence(evidenceRoot, p));
      const title = b.title ?? (real.length === 1 ? (real[0]?.relative ?? 'evidence') : `${real.length} artefacts`);
      const top = b.top ?? DEFAULT_TOP;
      const loader = {
        ...(b.kind !== undefined ? { kind: b.kind } : {}),
        ...(b.host !== undefined ? { host: b.host } : {}),
        ...(b.year !== undefined ? { year: b.year } : {}),
        ...(b.utcOffsetHours !== undefined ? { utcOffsetHours: b.utcOffsetHours } : {}),
      };
      const hunting = b.hunting === true ? { sigmaHunting: true } : {};
      const request = { paths: real.map((r) => r.relative), top, includeNoisy: b.includeNoisy ?? false, ...loader, ...(b.hunting === true ? { hunting: true } : {}) };
      await answerCase(req, res, startCase(title, 'path', request, ANALYZE_JOB, { paths: real.map((r) => r.real), evidenceRoot, top, includeNoisy: b.includeNoisy ?? false, ...loader, ...hunting }));
    }),
  );

  router.get('/api/cases', (req, res) => {
    const p = parsePagination(req);
    // Another process on this store may have stopped since: its cases are marked interrupted, not left running.
    failInterruptedCases(ctx.db, now().toISOString(), caseLive, (id) => analysing.has(id));
    const { items, total } = listCases(ctx.db, p);
    res.json(page(items.map(withProgress), total, p));
  });

  router.get(
    '/api/cases/:id',
    route(async (req, res) => {
      const summary = summaryOrThrow(req);
      const q = parseQuery(detailQuery, req);
      if (summary.status !== 'done') {
        res.json({ ...summary, analysis: null } satisfies CaseDetail);
        return;
      }
      // A page of events: the smaller of events_limit and (the older) max_events, from events_offset.
      const limit = Math.min(q.events_limit, q.max_events);
      const offset = q.events_offset;
      const allEvents = q.events === 'all';
      const wholeGraph = (q.graph ?? (allEvents ? 'all' : 'stories')) === 'all';
      const attributes = q.attributes === 'true';
      const stored = caseItemCount(ctx.db, summary.id, 'event');
      const exported = stored === null ? getCaseExport(ctx.db, summary.id) : cachedExport(summary.id);
      if (stored === null || exported === null) {
        // Cases stored before migration 6 have no item rows: the view is read whole, as before, then paged.
        const view = allEvents || wholeGraph ? getCaseView(ctx.db, summary.id) : exported;
        if (view === null) throw new VitrineError('internal', 'the finished case has no stored view');
        const all = exportView(view, { allEvents, maxEvents: Number.MAX_SAFE_INTEGER, attributes, graph: wholeGraph ? 'all' : 'stories' });
        const events = all.events.slice(offset, offset + limit);
        const eventsPage = { offset, limit, total: all.events.length };
        res.json({ ...summary, analysis: annotated(summary.id, { ...all, events, eventsTruncated: view.eventsTruncated || offset + events.length < all.events.length, eventsPage }) });
        return;
      }
      const total = allEvents ? stored : exported.events.length;
      const end = Math.min(total, offset + limit);
      const count = Math.max(0, end - offset);
      // Without attributes (the timeline): the raw record reference goes too (GET .../events/{eventId} has both), as
      // each event is stored beside its whole text.
      // Each batch is the stored texts joined by SQLite into one buffer, written as it is (no string per item); a case
      // stored without lean rows has its events made lean one by one.
      const readJoined = (kind: CaseItemKind, base: number) => (from: number, to: number) =>
        caseItemsJoined(ctx.db, summary.id, kind, base + from, base + to, !attributes) ?? caseItemsJson(ctx.db, summary.id, kind, base + from, base + to, !attributes);
      const { events: storyEvents, nodes, edges, stories, ...rest } = exported;
      const analysis = annotated(summary.id, { ...rest, eventsTruncated: exported.eventsTruncated || end < total, eventsPage: { offset, limit, total } } as AnalysisView);
      // Large arrays come from their own rows in batches; the stories' export is small and already in memory.
      await sendStreamedJson(
        res,
        { ...summary, analysis },
        'analysis',
        {
          stories: { items: stories },
          // The stories' events (in memory) without attributes the same way as the stored ones.
          events: allEvents ? { count, readJoined: readJoined('event', offset) } : { items: storyEvents.slice(offset, end), ...(attributes ? {} : { map: leanEventJson }) },
          nodes: wholeGraph ? { count: caseItemCount(ctx.db, summary.id, 'node') ?? 0, readJoined: readJoined('node', 0) } : { items: nodes },
          edges: wholeGraph ? { count: caseItemCount(ctx.db, summary.id, 'edge') ?? 0, readJoined: readJoined('edge', 0) } : { items: edges },
        },
      );
    }),
  );

  router.get('/api/cases/:id/report.md', (req, res) => {
    const { summary, view } = finishedView(req);
    res.type('text/markdown; charset=utf-8').send(toMarkdown(annotated(summary.id, exportView(view)), caseCustody(ctx.db, summary.id), meta(summary)));
  });

  router.get('/api/cases/:id/report.html', (req, res) => {
    const { summary, view } = finishedView(req);
    res.setHeader('Content-Security-Policy', REPORT_CSP);
    res.type('html').send(toHtml(annotated(summary.id, exportView(view)), caseCustody(ctx.db, summary.id), meta(summary)));
  });

  router.get(
    '/api/cases/:id/report.pdf',
    route(async (req, res) => {
      const { summary, view } = finishedView(req);
      const pdf = await toPdf(annotated(summary.id, exportView(view)), caseCustody(ctx.db, summary.id), meta(summary));
      res.setHeader('Content-Disposition', `attachment; filename="case-${summary.id}.pdf"`);
      res.type('application/pdf').send(pdf);
    }),
  );

  router.get('/api/cases/:id/cypher', (req, res) => {
    const { summary, view } = finishedView(req);
    res.type('text/plain; charset=utf-8').send(viewToCypher(exportView(view), `Vitrine forensic case ${summary.id}`));
  });

  router.get('/api/cases/:id/navigator.json', (req, res) => {
    const { summary, view } = finishedView(req);
    res.setHeader('Content-Disposition', `attachment; filename="case-${summary.id}-layer.json"`);
    res.json(navigatorLayer(exportView(view), `Vitrine forensic case ${summary.title}`.slice(0, 200)));
  });

  router.get('/api/cases/:id/custody', (req, res) => {
    const summary = summaryOrThrow(req);
    const q = parseQuery(custodyQuery, req);
    res.json(caseCustody(ctx.db, summary.id, { ...(q.expect_head !== undefined ? { head: q.expect_head } : {}), ...(q.expect_count !== undefined ? { count: q.expect_count } : {}) }));
  });

  router.get('/api/cases/:id/search', (req, res) => {
    const summary = summaryOrThrow(req);
    const { query } = parseSearchRequest({ q: req.query['q'], limit: undefined });
    const found = searchCase(ctx.db, summary.id, query, parsePagination(req));
    if (!found) throw new VitrineError('not_found', 'no such case');
    res.json(found);
  });

  mountCaseWork(router, { ctx, evidenceRoot, now, caseOf: summaryOrThrow, body, changed: (id) => exports.delete(id) });

  router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: () => openApiDocument() }));
  return router;
}

export interface StandaloneOptions extends RouterOptions, CoreStandaloneOptions {
  /** A job table for the in-process runner when no `jobs` is given (tests give their own). */
  readonly jobTable?: JobTable;
  /** The built renderer served at GET / (default dist/renderer, see defaultRendererDir). */
  readonly rendererDir?: string;
}

/** The resources/ folder (for the /docs page): ../../resources from the sources, ../../../resources from dist/. */
function resourcesDirOf(): string {
  return findResourcesDir(path.join('core', 'docs'));
}

/** The routes that answer without the built page (named by the 503 page GET / shows then). */
const API_WITHOUT_UI = 'GET /api/health, GET /api/scenarios, POST /api/cases/scenario/{name}, POST /api/cases/path, GET /api/cases and the reports under /api/cases/{id}/; the API is described at /docs/.';

/**
 * The app `forensic serve` runs: hardening, request ids, the router at the root, the timeline and causal-graph UI at GET /
 * (the workstation renderer's build showing only the Cases workspace, engines/core/http/standalone-ui.ts), the one error shape.
 */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const withTable = options.jobs === undefined && options.jobTable !== undefined ? { ...options, jobs: new InProcessRunner(options.jobTable) } : options;
  const ctx = standaloneContext(forensicService, withTable, resourcesDirOf);
  const root = express.Router();
  root.use(createRouter(ctx, options));
  root.use(standaloneUi(options.rendererDir ?? defaultRendererDir(), 'forensic', { version: VERSION, api: API_WITHOUT_UI }));
  return createServiceApp(root, options.allowedHosts);
}
