// The case assessment HTTP routes (mounted by the gateway at /svc/caseassess, or at / by `caseassess serve`).
import path from 'node:path';
import express, { type Express, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { Assessment, CaseAssessHealth, CaseImportResponse, StixBundle } from '../core/contracts/caseassess.js';
import { canonicalHash } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { abortOnClientClose, jsonBody, page, parsePagination, parseQuery, route } from '../core/http/index.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import type { ServiceContext } from '../core/service.js';
import { MAX_FINDING_BYTES, parseSendFinding } from '../core/findings.js';
import { MAX_STIX_IMPORT_BYTES } from '../core/stix-import.js';
import { MAX_CASE_BYTES, validateCase } from './case.js';
import { getCase, importStixCase, listCases, saveCaseChecked, sendFindingToCase } from './cases.js';
import { stixToCase } from './import.js';
import { DEFAULT_KG_RELATIVE, defaultResourcesDir, listActors, VERSION } from './index.js';
import { ASSESS_JOB, type AssessJobResult } from './jobs.js';
import { readKnowledgeGraph, type KnowledgeGraph } from './kg.js';
import { openApiDocument } from './openapi.js';
import { assessmentSchema } from './schemas.js';
import { caseassessService } from './service.js';
import { getAssessment, listAssessments, saveAssessment } from './store.js';

export interface RouterOptions {
  /** The knowledge graph; default `<resourcesDir>/caseassess/kg.json`. */
  readonly kgPath?: string;
}

const ASSESSMENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const actorsQuery = z.object({ q: z.string().max(200).optional(), sponsor: z.string().max(100).optional() });
const assessQuery = z.object({ format: z.enum(['json', 'stix']).default('json') });
const replaceQuery = z.object({ replace: z.enum(['true', 'false']).optional() });

function isJobResult(value: unknown): value is AssessJobResult {
  return typeof value === 'object' && value !== null && typeof (value as { assessment?: unknown }).assessment === 'object';
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const kgPath = options.kgPath ?? path.join(ctx.resourcesDir, DEFAULT_KG_RELATIVE);
  const router = express.Router();

  const knowledgeGraph = (): KnowledgeGraph => {
    try {
      return readKnowledgeGraph(kgPath);
    } catch (err) {
      // A missing or broken graph is the installation's fault, not the caller's: 503, with our own (path-free) reason.
      const reason = err instanceof VitrineError ? err.message : 'unreadable';
      throw new VitrineError('unavailable', `the knowledge graph is unavailable: ${reason}`, { cause: err });
    }
  };

  router.get('/health', (_req, res) => {
    const kg = knowledgeGraph();
    const body: CaseAssessHealth = {
      status: 'ok',
      service: 'caseassess',
      version: VERSION,
      actor_count: kg.file.actors.length,
      kg: { ...kg.file.metadata, sha256: kg.sha256 },
    };
    res.json(body);
  });

  router.get('/actors', (req, res) => {
    const p = parsePagination(req);
    const { q, sponsor } = parseQuery(actorsQuery, req);
    const all = listActors(knowledgeGraph(), { ...(q === undefined ? {} : { q }), ...(sponsor === undefined ? {} : { sponsor }) });
    res.json(page(all.slice(p.offset, p.offset + p.limit), all.length, p));
  });

  router.post(
    '/assess',
    jsonBody(MAX_CASE_BYTES),
    route(async (req: Request, res: Response) => {
      const { format } = parseQuery(assessQuery, req);
      // Validate here as well as in the job: a bad case is answered at once, without taking a worker.
      const kase = validateCase(req.body);
      knowledgeGraph();
      const signal = abortOnClientClose(res);
      const result = await ctx.jobs.run(ASSESS_JOB, { kgPath, case: req.body as unknown, format }, { signal, label: `Case ${(kase.title?.trim() || kase.case_id).slice(0, 60)}` });
      // The result crossed a process boundary: check its shape before it is stored and served.
      if (!isJobResult(result) || !assessmentSchema.safeParse(result.assessment).success) throw new VitrineError('internal', 'the assessment job returned no valid assessment');
      const assessment: Assessment = result.assessment;
      const stored = saveAssessment(ctx.db, assessment);
      res.setHeader('X-Assessment-Id', stored.id);
      if (format === 'stix') {
        if (result.stix === undefined) throw new VitrineError('internal', 'the assessment job returned no bundle');
        const bundle: StixBundle = result.stix;
        // The STIX 2.1 media type exactly (a Buffer, so Express appends no charset).
        res.setHeader('Content-Type', 'application/stix+json;version=2.1');
        res.send(Buffer.from(JSON.stringify(bundle), 'utf8'));
      } else {
        res.json(assessment);
      }
    }),
  );

  router.get('/assessments', (req, res) => {
    const p = parsePagination(req);
    const { items, total } = listAssessments(ctx.db, p);
    res.json(page(items, total, p));
  });

  router.get('/assessments/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    const stored = ASSESSMENT_ID.test(id) ? getAssessment(ctx.db, id) : null;
    if (!stored) throw new VitrineError('not_found', 'no such assessment');
    res.json(stored);
  });

  // Stored cases: the workspace saves them, STIX bundles are imported into them, and other workspaces send findings to them.
  router.get('/cases', (req, res) => {
    const p = parsePagination(req);
    const { items, total } = listCases(ctx.db, p);
    res.json(page(items, total, p));
  });

  router.get('/cases/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    const stored = id.length <= 200 ? getCase(ctx.db, id) : null;
    if (!stored) throw new VitrineError('not_found', 'no such stored case');
    res.json(stored);
  });

  router.post(
    '/cases',
    jsonBody(MAX_CASE_BYTES),
    route((req, res) => {
      const kase = validateCase(req.body);
      const { replace } = parseQuery(replaceQuery, req);
      res.status(201).json(saveCaseChecked(ctx.db, kase, replace === 'true'));
    }),
  );

  /** A STIX 2.1 bundle as a stored case, with what was mapped and skipped. */
  router.post(
    '/cases/import/stix',
    jsonBody(MAX_STIX_IMPORT_BYTES),
    route((req, res) => {
      const imported = stixToCase(req.body);
      const outcome = importStixCase(ctx.db, imported.case, { id: imported.summary.bundle_id, sha256: canonicalHash(req.body) });
      const body: CaseImportResponse = { case: outcome.case, summary: imported.summary, stored: outcome.stored, ...(outcome.merged ? { merged: outcome.merged } : {}) };
      res.status(outcome.merged ? 200 : 201).json(body);
    }),
  );

  /** A finding of another workspace (techniques, indicators, source and link) as evidence of a stored case, existing or new. */
  router.post(
    '/cases/evidence',
    jsonBody(MAX_FINDING_BYTES),
    route((req, res) => {
      const result = sendFindingToCase(ctx.db, parseSendFinding(req.body));
      res.status(result.created ? 201 : 200).json(result);
    }),
  );

  router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: openApiDocument }));
  return router;
}

export type StandaloneOptions = RouterOptions & CoreStandaloneOptions;

/** The app `caseassess serve` runs: hardening, request ids, the router at the root, the one error shape. */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(caseassessService, options, defaultResourcesDir);
  return createServiceApp(createRouter(ctx, options.kgPath === undefined ? {} : { kgPath: options.kgPath }), options.allowedHosts);
}
