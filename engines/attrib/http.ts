// The attribution HTTP routes (mounted by the gateway at /svc/attrib, or at / by `attrib serve`): health, scenarios, ACH, STIX, extraction, attribution, TAXII 2.1, /docs.
import type { Database } from 'better-sqlite3';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AchAssessment, AchScenarioList, AttribHealth, ExtractResponse, MatrixImportResponse } from '../core/contracts/ach.js';
import { canonicalHash } from '../core/canonical.js';
import { storageError, VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { MAX_FINDING_BYTES, parseSendFinding } from '../core/findings.js';
import { abortOnClientClose, jsonBody, page, pageOf, parseBody, parsePagination, route } from '../core/http/index.js';
import { MAX_STIX_IMPORT_BYTES } from '../core/stix-import.js';
import { LOOPBACK_HOSTS, requireBearer } from '../core/http/security.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import type { ServiceContext } from '../core/service.js';
import type { StixBundle } from '../core/stix.js';
import { analyzeScenario } from './ach/engine.js';
import { stixToScenario } from './ach/import.js';
import { getMatrix, importStixMatrix, listMatrices, searchGroups, sendFindingToMatrix } from './ach/matrices.js';
import { runAchRequest } from './ach/request.js';
import { ScenarioLibrary } from './ach/scenario.js';
import { assessmentToStix } from './ach/stix.js';
import { WORKBENCH_CSP, WORKBENCH_CSS, WORKBENCH_HTML, WORKBENCH_JS } from './ach/workbench.js';
import { defaultResourcesDir, MAX_BODY_BYTES, MAX_TEXT_CHARS, VERSION } from './index.js';
import { defaultAttribResourcesDir, loadKb, SHIPPED_CLASSIFIER_FILE, type AttackKb } from './analysis.js';
import { ATTRIBUTE_JOB, EXTRACT_JOB } from './jobs.js';
import { attributeBodySchema } from './attribute/request.js';
import type { Attribution } from '../core/contracts/attrib.js';
import { openApiDocument } from './openapi.js';
import { attribService } from './service.js';
import { logOverrides } from './store.js';
import { addObjects } from './taxii/collections.js';
import { sendTaxiiError, taxiiRouter } from './taxii/http.js';
import { textWithoutControls } from '../core/validation.js';

/** Knowledge-base facts for /health (techniques and groups counted; names for STIX attack patterns). */
export interface KbFacts {
  readonly techniques: number;
  readonly groups: number;
  readonly software: number;
  readonly source?: string;
  technique(id: string): { readonly name: string; readonly tactics: readonly string[] } | undefined;
}

/** Name and tactics of a technique in the knowledge base (for STIX attack patterns). */
export function techniqueLookup(kb: AttackKb): (id: string) => { readonly name: string; readonly tactics: readonly string[] } | undefined {
  return (id) => {
    const t = kb.techniques.get(id);
    return t ? { name: t.name, tactics: [...t.tactics] } : undefined;
  };
}

export interface RouterOptions {
  /** The scenarios (default: ATTR_FIXTURES when set, else the bundled ones). */
  readonly scenarios?: ScenarioLibrary;
  /** Serve /docs (default: ATTR_API_DOCS=1). */
  readonly apiDocs?: boolean;
  /** The knowledge base, loaded on first use; null when there is none. */
  readonly kb?: () => KbFacts | null;
  /** The clock of assessments (tests). */
  readonly now?: () => Date;
  /** The knowledge-base file (default ATTR_KB, else the shipped one). */
  readonly kbPath?: string;
  /** The classifier model POST /extract uses when asked (default the shipped resources/attrib/technique-classifier.json.gz). */
  readonly classifierPath?: string;
}

/** The knowledge base's facts for /health and STIX names. */
export function kbFacts(kb: AttackKb): KbFacts {
  return {
    techniques: kb.techniques.size,
    groups: kb.groups.size,
    software: kb.software.size,
    source: `${kb.data.metadata.source}${kb.data.metadata.attack_version ? ` ${kb.data.metadata.attack_version}` : ''}`,
    technique: techniqueLookup(kb),
  };
}

/** The shipped classifier model, when there is one. */
export function shippedClassifier(): string | undefined {
  const dir = defaultAttribResourcesDir();
  const file = path.join(dir, SHIPPED_CLASSIFIER_FILE);
  return existsSync(file) ? file : undefined;
}

const groupsQuery = z.string().max(100);

export const extractBody = z.strictObject({
  text: z.string().min(1),
  name: textWithoutControls(200).optional(),
  classifier: z.boolean().optional(),
});

function apiDocsFromEnv(): boolean {
  return process.env['ATTR_API_DOCS'] === '1';
}

/** Adds the bundled scenarios' assessments to the TAXII collection once, so a fresh server has something to serve. */
function seedAssessments(db: Database, library: ScenarioLibrary, kb: KbFacts | null): void {
  for (const name of library.names()) {
    const s = library.get(name);
    if (!s) continue;
    try {
      addObjects(db, 'assessments', assessmentToStix(analyzeScenario(s), kb ? { technique: (id) => kb.technique(id) } : {}).objects);
    } catch (err) {
      // A full or busy store is the request's answer (507, 503), and the seeding is tried again on the next request.
      const stored = storageError(err);
      if (stored?.code === 'insufficient_storage' || stored?.code === 'unavailable') throw stored;
      // A scenario that cannot be turned into STIX is still served by /ach; the collection just lacks it.
    }
  }
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const library = options.scenarios ?? ScenarioLibrary.fromEnvironment(ctx.resourcesDir);
  let kbCache: KbFacts | null | undefined;
  const kb = (): KbFacts | null => {
    if (kbCache === undefined) {
      try {
        kbCache = options.kb ? options.kb() : kbFacts(loadKb(options.kbPath));
      } catch {
        kbCache = null;
      }
    }
    return kbCache;
  };
  const now = options.now ?? (() => new Date());
  const stixOptions = () => {
    const k = kb();
    return k ? { technique: (id: string) => k.technique(id) } : {};
  };
  // The bundled assessments join the TAXII collection on first use (the knowledge base names their attack patterns):
  // a TAXII request can therefore write, once, and answer 507 or 503 when the store is full or busy (tried again next
  // time; an assessment already added is not added twice).
  let seeded = false;
  const ensureSeeded = (): void => {
    if (seeded) return;
    seedAssessments(ctx.db, library, kb());
    seeded = true;
  };
  const classifierPath = options.classifierPath ?? shippedClassifier();

  const router = express.Router();
  const body: RequestHandler = jsonBody(MAX_BODY_BYTES);

  router.get('/health', (req, res) => {
    const k = kb();
    const health: AttribHealth = {
      status: 'ok',
      service: 'attrib',
      version: VERSION,
      kb: { loaded: k !== null, techniques: k?.techniques ?? 0, groups: k?.groups ?? 0, software: k?.software ?? 0, ...(k?.source !== undefined ? { source: k.source } : {}) },
      scenarios: library.names().length,
      limits: { max_body_bytes: MAX_BODY_BYTES, max_text_chars: MAX_TEXT_CHARS },
      taxii: `${req.baseUrl}/taxii2/`,
    };
    res.json(health);
  });

  router.get('/scenarios', (_req, res) => {
    const list: AchScenarioList = { source: library.source, scenarios: library.summaries() };
    res.json(list);
  });

  router.get('/scenarios/:name', (req, res) => {
    const name = String(req.params['name']);
    const s = /^[a-z0-9][a-z0-9-]{0,63}$/.test(name) ? library.get(name) : undefined;
    if (!s) throw new VitrineError('not_found', 'no such scenario');
    res.json(s);
  });

  /** Runs the request; unless it is a preview, logs its overrides and adds its STIX objects to the TAXII assessments collection. */
  const assess = (raw: unknown): { assessment: AchAssessment; bundle: StixBundle } => {
    const { assessment, preview } = runAchRequest(raw, library, now());
    const bundle = assessmentToStix(assessment, stixOptions());
    if (!preview) {
      ctx.db.transaction(() => {
        logOverrides(ctx.db, assessment);
        addObjects(ctx.db, 'assessments', bundle.objects);
      })();
    }
    return { assessment, bundle };
  };

  router.post(
    '/ach',
    body,
    route((req, res) => {
      res.json(assess(req.body).assessment);
    }),
  );

  router.post(
    '/stix',
    body,
    route((req, res) => {
      res.type('application/stix+json;version=2.1').send(JSON.stringify(assess(req.body).bundle));
    }),
  );

  router.post(
    '/extract',
    body,
    route(async (req, res) => {
      const b = parseBody(extractBody, req);
      if (b.text.length > MAX_TEXT_CHARS) throw new VitrineError('payload_too_large', `the text is longer than ${MAX_TEXT_CHARS} characters`);
      const signal = abortOnClientClose(res);
      const useClassifier = b.classifier === true && classifierPath !== undefined;
      const raw = (await ctx.jobs.run(
        EXTRACT_JOB,
        { text: b.text, ...(b.name !== undefined ? { name: b.name } : {}), ...(options.kbPath !== undefined ? { kbPath: options.kbPath } : {}), ...(useClassifier ? { classifierPath } : {}) },
        { signal, label: `Extraction (${b.text.length} characters)` },
      )) as ExtractResponse;
      // The result crossed a process boundary: check the parts that are stored before storing them.
      if (typeof raw !== 'object' || raw === null || !Array.isArray(raw.stix?.objects) || !Array.isArray(raw.extraction?.indicators)) throw new VitrineError('internal', 'the extraction job returned no valid result');
      addObjects(ctx.db, 'extractions', raw.stix.objects as StixBundle['objects']);
      const warnings = b.classifier === true && classifierPath === undefined ? ['no classifier model is installed: techniques come from ids, names and phrasings only'] : [];
      const out: ExtractResponse = warnings.length > 0 ? { ...raw, extraction: { ...raw.extraction, warnings: [...raw.extraction.warnings, ...warnings] } } : raw;
      res.json(out);
    }),
  );

  router.post(
    '/attribute',
    body,
    route(async (req, res) => {
      const b = parseBody(attributeBodySchema, req);
      if (b.text.length > MAX_TEXT_CHARS) throw new VitrineError('payload_too_large', `the text is longer than ${MAX_TEXT_CHARS} characters`);
      const signal = abortOnClientClose(res);
      const useClassifier = b.classifier === true && classifierPath !== undefined;
      const { classifier: _asked, ...rest } = b;
      const raw = (await ctx.jobs.run(
        ATTRIBUTE_JOB,
        { ...rest, ...(options.kbPath !== undefined ? { kbPath: options.kbPath } : {}), ...(useClassifier ? { classifierPath } : {}) },
        { signal, label: `Attribution (${b.text.length} characters)` },
      )) as Attribution;
      if (typeof raw !== 'object' || raw === null || !Array.isArray(raw.shortlist)) throw new VitrineError('internal', 'the attribution job returned no valid result');
      const warnings = b.classifier === true && classifierPath === undefined ? ['no classifier model is installed: techniques come from ids, names and phrasings only'] : [];
      res.json(warnings.length > 0 ? { ...raw, warnings: [...raw.warnings, ...warnings] } : raw);
    }),
  );

  // The knowledge base's groups for the ACH editor's hypothesis picker: names and aliases searched, each with the techniques that rate evidence.
  router.get('/groups', (req, res) => {
    const p = parsePagination(req);
    const q = groupsQuery.safeParse(req.query['q'] ?? '');
    if (!q.success) throw new VitrineError('bad_request', 'q must be at most 100 characters');
    let attackKb: AttackKb;
    try {
      attackKb = loadKb(options.kbPath);
    } catch {
      throw new VitrineError('not_found', 'no knowledge base is loaded');
    }
    res.json(pageOf(searchGroups(attackKb, q.data), p));
  });

  // Stored matrices: imported from STIX 2.1 bundles, or grown by findings other workspaces send (Send to ACH).
  router.get('/matrices', (req, res) => {
    const p = parsePagination(req);
    const { items, total } = listMatrices(ctx.db, p);
    res.json(page(items, total, p));
  });

  router.get('/matrices/:id', (req, res) => {
    const stored = getMatrix(ctx.db, String(req.params['id']));
    if (!stored) throw new VitrineError('not_found', 'no such stored matrix');
    res.json(stored);
  });

  router.post(
    '/matrices/import/stix',
    jsonBody(MAX_MATRIX_IMPORT_BYTES),
    route((req, res) => {
      const imported = stixToScenario(req.body);
      const outcome = importStixMatrix(ctx.db, imported.scenario, { id: imported.summary.bundle_id, sha256: canonicalHash(req.body) }, now());
      const body: MatrixImportResponse = { matrix: outcome.matrix, scenario: outcome.scenario, summary: imported.summary, ...(outcome.merged ? { merged: outcome.merged } : {}) };
      res.status(outcome.merged ? 200 : 201).json(body);
    }),
  );

  router.post(
    '/matrices/evidence',
    jsonBody(MAX_FINDING_BYTES),
    route((req, res) => {
      const parsed = parseSendFinding(req.body);
      let attackKb: AttackKb | null = null;
      try {
        attackKb = loadKb(options.kbPath);
      } catch {
        // Without a knowledge base a new matrix starts with the unnamed-actor and not-hostile hypotheses only.
      }
      const result = sendFindingToMatrix(ctx.db, parsed, attackKb, now());
      res.status(result.created ? 201 : 200).json(result);
    }),
  );

  router.use('/taxii2', taxiiRouter({ db: ctx.db, maxContentLength: MAX_BODY_BYTES, version: VERSION, prepare: ensureSeeded }));

  if (options.apiDocs ?? apiDocsFromEnv()) router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: () => openApiDocument() }));
  return router;
}

/**
 * The one route past the spec's 1 MB body cap, on purpose: a STIX bundle someone else wrote (a vendor report, an ATT&CK
 * campaign slice) is routinely several megabytes of JSON, and splitting it would break the relationships the import reads.
 * The import reads no free text for extraction, so the 500,000-character text bound does not apply either. Every other route,
 * TAXII's max_content_length included, keeps 1 MB (MAX_BODY_BYTES).
 */
export const MAX_MATRIX_IMPORT_BYTES = MAX_STIX_IMPORT_BYTES;

export interface StandaloneOptions extends RouterOptions, CoreStandaloneOptions {
  /** Bearer token every route but GET /health and the workbench page needs (default ATTR_API_TOKEN; none when unset or empty). */
  readonly token?: string;
}

/** ATTR_ALLOWED_HOSTS as a list (comma-separated names, lower-cased), or undefined when unset. */
export function allowedHostsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const raw = env['ATTR_ALLOWED_HOSTS'];
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
}

/**
 * The Host allow-list of `attrib serve`: without ATTR_ALLOWED_HOSTS the names `serveUntilSignal` gives; with it, those
 * names replace the loopback ones, but the name the server is bound to (`--host`, default 127.0.0.1) stays allowed.
 */
export function serveAllowedHosts(fromEnv: readonly string[] | undefined, allowed: readonly string[], boundHost: string): string[] {
  if (fromEnv === undefined) return [...allowed];
  const bound = boundHost.toLowerCase();
  const bare = bound.replace(/^\[|\]$/g, '');
  const boundNames = bare.includes(':') ? [bare, `[${bare}]`] : [bare];
  return [...new Set([...fromEnv, ...boundNames, ...allowed.filter((h) => !LOOPBACK_HOSTS.includes(h))])];
}

/** Paths open without the token: health and the workbench page (which holds no data; its calls carry the token). */
export const OPEN_PATHS: readonly string[] = ['/health', '/', '/workbench.js', '/workbench.css'];

/** The workbench page and its assets, from strings (nothing to find on disk). */
function workbenchRouter(): Router {
  const router = express.Router();
  const asset = (type: string, body: string): RequestHandler => (_req, res) => {
    res.setHeader('Content-Security-Policy', WORKBENCH_CSP);
    res.type(type).send(body);
  };
  router.get('/', asset('text/html; charset=utf-8', WORKBENCH_HTML));
  router.get('/workbench.js', asset('text/javascript; charset=utf-8', WORKBENCH_JS));
  router.get('/workbench.css', asset('text/css; charset=utf-8', WORKBENCH_CSS));
  return router;
}

/** 401 with `WWW-Authenticate: Bearer` (RFC 6750) when the token is missing or wrong; under /taxii2 as a TAXII error message with the TAXII media type. */
function bearer(token: string): RequestHandler {
  const check = requireBearer(token, OPEN_PATHS);
  return (req, res, next) => {
    check(req, res, (err?: unknown) => {
      if (err !== undefined) res.setHeader('WWW-Authenticate', 'Bearer realm="attrib"');
      if (err !== undefined && (req.path === '/taxii2' || req.path.startsWith('/taxii2/'))) sendTaxiiError(res, err);
      else next(err);
    });
  };
}

/** The app `attrib serve` runs: hardening, request ids, Host allow-list, the bearer token when set, the router at the root. */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(attribService, options, defaultResourcesDir);
  const token = options.token ?? process.env['ATTR_API_TOKEN'] ?? '';
  const outer = express.Router();
  if (token !== '') outer.use(bearer(token));
  outer.use(workbenchRouter());
  outer.use(createRouter(ctx, options));
  return createServiceApp(outer, options.allowedHosts ?? allowedHostsFromEnv() ?? LOOPBACK_HOSTS);
}
