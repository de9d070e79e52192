// The provenance gate HTTP routes (mounted by the gateway at /svc/provgate, or at / by `provgate serve`): /healthz and /v1.
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Express, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { canonicalHash } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { validate } from '../core/validation.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { abortOnClientClose, jsonBody, page, parseBody, parsePagination, parseQuery, route } from '../core/http/index.js';
import { pageCsp } from '../core/http/security.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import type { BacktrackBody, GateSummary, GeneratedKey, ProvgateHealth, RunDetail, RunGraph, RunPage, TrustedKeyItem, TrustedKeyList } from '../core/contracts/provgate.js';
import type { ServiceContext } from '../core/service.js';
import type { TrustedKeys } from './envelope.js';
import { parseEnvelopeList } from './files.js';
import { defaultResourcesDir, EXPLORER_RELATIVE, graphFromDocument, layerBlastRadius, originStory, toCypherScript, VERSION } from './index.js';
import { DEMO_JOB, GATE_JOB, type GateJobResult } from './jobs.js';
import { openApiDocument } from './openapi.js';
import { demoTrust, trustedFromEnv, trustedToJson } from './keys.js';
import { addKey, APP_ACTOR, effectiveTrust, generateStoredKey, keyItem, KEYID, keyLog, listKeys, MAX_LABEL, MAX_REASON, parsePublicKey, revokeKey, storedKeys } from './truststore.js';
import { provgateService } from './service.js';
import { getRun, listRuns, saveRun, type RunListItem, type StoredRun } from './store.js';
import { isScenario } from './synth.js';
import { loadTopPypi, topPypiFile } from './toppypi.js';
import { C0_DEL, hasControlCharacter } from '../core/control-characters.js';

/** Largest envelope list POST /v1/gate takes. */
export const MAX_GATE_BODY = 64 * 1024 * 1024;

export interface RouterOptions {
  /** Keys the gate trusts; default GATE_PUBKEY (under GATE_KEYID) from the environment. */
  readonly trusted?: TrustedKeys;
  /** Also trust the public HMAC demo key (demos only). */
  readonly trustDemo?: boolean;
  /**
   * Serve the standalone lineage explorer at GET / (only `provgate serve` does). Under the gateway the workstation's UI
   * is the renderer's Lineage workspace: the explorer's own calls carry no gateway token, so there GET / answers a JSON
   * pointer instead of a page that could not work.
   */
  readonly explorer?: boolean;
}

/** The explorer loads only its own files and calls only this API; nothing frames it. Cytoscape injects one stylesheet of its own, hence inline styles. */
const EXPLORER_CSP = pageCsp({ inlineStyles: true });

function cytoscapeFile(): string {
  // The package exports no package.json; its CommonJS entry sits in dist/ beside the minified browser build.
  return path.join(path.dirname(createRequire(import.meta.url).resolve('cytoscape')), 'cytoscape.min.js');
}

const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const gateQuery = z.object({ lenient: z.enum(['true', 'false']).optional(), typosquat: z.enum(['true', 'false']).optional() });
const backtrackQuery = z.object({ q: z.string().trim().min(1).max(512) });
const blastQuery = z.object({ layer: z.string().trim().min(4).max(71) });
// Key ids, labels and reasons: their rules are checked after the shape (keyFields), so the answer states the rule, not "does not match the expected pattern".
const importKeyBody = z.strictObject({ publicKey: z.string().min(1).max(8192), keyid: z.string().optional(), label: z.string().optional() });
const generateKeyBody = z.strictObject({ keyid: z.string().optional(), label: z.string().optional() });
const revokeKeyBody = z.strictObject({ reason: z.string().optional() });

/** 422 naming the field and its rule (never the value) when a key id, label or reason breaks it. */
export function keyFields<T extends { keyid?: string | undefined; label?: string | undefined; reason?: string | undefined }>(b: T): T {
  const details: { path: string; issue: string }[] = [];
  if (b.keyid !== undefined && !KEYID.test(b.keyid)) details.push({ path: 'keyid', issue: 'a key id is 1 to 256 printable ASCII characters, without spaces' });
  if (b.label !== undefined && (b.label.length > MAX_LABEL || hasControlCharacter(b.label, C0_DEL))) details.push({ path: 'label', issue: `a label is one line of at most ${MAX_LABEL} characters` });
  if (b.reason !== undefined && (b.reason.length > MAX_REASON || hasControlCharacter(b.reason, C0_DEL))) details.push({ path: 'reason', issue: `a reason is one line of at most ${MAX_REASON} characters` });
  if (details.length > 0) throw new VitrineError('validation_failed', `invalid request body at ${details[0]!.path}: ${details[0]!.issue}`, { details });
  return b;
}
/** Key bodies are small: a PEM public key and a label. */
const MAX_KEY_BODY = 16 * 1024;

function isGateResult(value: unknown): value is GateJobResult {
  const v = value as Partial<GateJobResult> | null;
  return typeof v === 'object' && v !== null && typeof v.decision?.verdict === 'string' && Array.isArray(v.graph?.nodes) && typeof v.comment === 'string' && typeof v.envelopes === 'number';
}

/** What POST /v1/gate and /v1/demo answer: the run's list item (run id, verdict, counts) and the decision. */
function summary(item: RunListItem, result: GateJobResult): GateSummary {
  return { ...item, decision: result.decision, ...(result.expected === undefined ? {} : { expected: result.expected }) };
}

export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const router = express.Router();
  // A bad GATE_PUBKEY must not stop the gateway: the gate then trusts nothing and says why (in our words).
  let trustProblem: string | null = null;
  let configured: TrustedKeys = new Map();
  try {
    configured = options.trusted ?? trustedFromEnv();
  } catch (err) {
    trustProblem = err instanceof VitrineError ? err.message : 'the trusted key cannot be read';
  }
  const withDemo = new Map(configured);
  if (options.trustDemo === true) for (const [id, key] of demoTrust()) withDemo.set(id, key);
  // The keys the gate trusts right now: configured ones plus the store's active keys, minus revoked ids (read per request,
  // so a key added or revoked in the app counts at once, without a restart).
  const trust = (): ReturnType<typeof effectiveTrust> => effectiveTrust(ctx.db, withDemo);
  const reserved = configured;

  // The popular-package list of ?typosquat=true, read once on first use (null: none could be read).
  let topPypi: string[] | null | undefined;

  const storedRun = (req: Request): StoredRun => {
    const raw = req.params['run'];
    const id = typeof raw === 'string' ? raw : '';
    const run = RUN_ID.test(id) ? getRun(ctx.db, id) : null;
    if (run === null) throw new VitrineError('not_found', 'no such run');
    return run;
  };

  const runJob = async (res: Response, type: string, payload: unknown, label: string): Promise<GateJobResult> => {
    const signal = abortOnClientClose(res);
    const result = await ctx.jobs.run(type, payload, { signal, label });
    // The result crossed a process boundary: check its shape before it is stored and served.
    if (!isGateResult(result)) throw new VitrineError('internal', 'the gate job returned no decision');
    return result;
  };

  // GET /: the lineage explorer, from local files (relative URLs need the trailing slash wherever the router is mounted).
  const explorerDir = path.join(ctx.resourcesDir, EXPLORER_RELATIVE);
  const sendFile = (file: string) => (_req: Request, res: Response, next: (err?: unknown) => void) => {
    res.setHeader('Content-Security-Policy', EXPLORER_CSP);
    res.sendFile(file, { dotfiles: 'deny' }, (err) => {
      if (err) next(new VitrineError('not_found', 'explorer file missing'));
    });
  };
  if (options.explorer === true) {
    router.get('/', (req, res, next) => {
      if (!req.originalUrl.split('?')[0]?.endsWith('/')) {
        res.redirect(301, `${path.posix.basename(req.baseUrl)}/`);
        return;
      }
      sendFile(path.join(explorerDir, 'index.html'))(req, res, next);
    });
    router.get('/explorer.js', sendFile(path.join(explorerDir, 'explorer.js')));
    router.get('/explorer.css', sendFile(path.join(explorerDir, 'explorer.css')));
    router.get('/cytoscape.min.js', (req, res, next) => sendFile(cytoscapeFile())(req, res, next));
  } else {
    router.get('/', (_req, res) => {
      res.json({ service: 'provgate', ui: 'the Lineage workspace of the workstation', api: 'v1/', docs: 'docs/' });
    });
  }

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'provgate', version: VERSION, trustedKeys: trust().trusted.size, ...(trustProblem === null ? {} : { trustProblem }) } satisfies ProvgateHealth);
  });

  router.post(
    '/v1/gate',
    jsonBody(MAX_GATE_BODY),
    route(async (req, res) => {
      const { lenient, typosquat } = parseQuery(gateQuery, req);
      // Checked here too, so malformed envelopes get their 422 at once, without taking a worker.
      const envelopes = parseEnvelopeList(req.body, lenient === 'true');
      const { trusted, revoked } = trust();
      if (trusted.size === 0) throw new VitrineError('unavailable', trustProblem ?? 'the gate trusts no key: add one under Trusted keys in the Lineage workspace (POST /v1/keys), or set GATE_PUBKEY (and GATE_KEYID) for the service');
      let scorer = {};
      if (typosquat === 'true') {
        topPypi ??= loadTopPypi(topPypiFile(ctx.resourcesDir));
        if (topPypi === null || topPypi.length === 0) throw new VitrineError('unavailable', 'no popular-package list is installed for the typosquat check');
        scorer = { scorer: 'top-pypi', topPypi };
      }
      const result = await runJob(res, GATE_JOB, { envelopes: req.body as unknown, lenient: lenient === 'true', trusted: trustedToJson(trusted), revoked: [...revoked], ...scorer }, `Gate ${envelopes.length} envelopes`);
      const item = saveRun(ctx.db, { source: 'gate', envelopes: envelopes.length, envelopesSha256: canonicalHash(req.body), graph: result.graph, decision: result.decision, comment: result.comment });
      res.json(summary(item, result));
    }),
  );

  router.get('/v1/keys', (_req, res) => {
    res.json(listKeys(ctx.db, configured, options.trustDemo === true, trustProblem) satisfies TrustedKeyList);
  });

  router.get('/v1/keys/log', (req, res) => {
    const p = parsePagination(req);
    const log = keyLog(ctx.db, p);
    res.json({ ...log, limit: p.limit, offset: p.offset });
  });

  router.post(
    '/v1/keys',
    jsonBody(MAX_KEY_BODY),
    route((req, res) => {
      const b = keyFields(parseBody(importKeyBody, req));
      const key = addKey(ctx.db, { publicKey: parsePublicKey(b.publicKey), keyid: b.keyid, label: b.label, origin: 'imported' }, reserved, APP_ACTOR);
      res.status(201).json(keyItem(key) satisfies TrustedKeyItem);
    }),
  );

  router.post(
    '/v1/keys/generate',
    jsonBody(MAX_KEY_BODY),
    route((req, res) => {
      const b = keyFields(validate(generateKeyBody, (req.body as unknown) ?? {}, 'request body'));
      const { key, privatePem, publicPem } = generateStoredKey(ctx.db, { keyid: b.keyid, label: b.label }, reserved, APP_ACTOR);
      // The private key is in this answer only: never stored, never cached.
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ key: keyItem(key), privateKeyPem: privatePem, publicKeyPem: publicPem } satisfies GeneratedKey);
    }),
  );

  router.post(
    '/v1/keys/:keyid/revoke',
    jsonBody(MAX_KEY_BODY),
    route((req, res) => {
      const raw = req.params['keyid'];
      const keyid = typeof raw === 'string' && KEYID.test(raw) ? raw : null;
      if (keyid === null) throw new VitrineError('not_found', 'no such key in the store');
      const b = keyFields(validate(revokeKeyBody, (req.body as unknown) ?? {}, 'request body'));
      if (configured.has(keyid) && !storedKeys(ctx.db).some((k) => k.keyid === keyid))
        throw new VitrineError('conflict', 'this key comes from GATE_PUBKEY: unset the variable and restart the service to stop trusting it');
      res.json(keyItem(revokeKey(ctx.db, keyid, b.reason, APP_ACTOR)) satisfies TrustedKeyItem);
    }),
  );

  router.post(
    '/v1/demo/:scenario',
    route(async (req, res) => {
      const raw = req.params['scenario'];
      const scenario = typeof raw === 'string' ? raw : '';
      if (!isScenario(scenario)) throw new VitrineError('not_found', 'no such scenario');
      const result = await runJob(res, DEMO_JOB, { scenario }, `Demo ${scenario}`);
      const item = saveRun(ctx.db, { source: 'demo', scenario, envelopes: result.envelopes, graph: result.graph, decision: result.decision, comment: result.comment });
      res.json(summary(item, result));
    }),
  );

  router.get('/v1/runs', (req, res) => {
    const p = parsePagination(req);
    const { items, total } = listRuns(ctx.db, p);
    res.json(page(items, total, p) satisfies RunPage);
  });

  router.get('/v1/runs/:run', (req, res) => {
    const run = storedRun(req);
    const { graph: _graph, ...rest } = run;
    res.json(rest satisfies RunDetail);
  });

  router.get('/v1/runs/:run/graph', (req, res) => {
    const run = storedRun(req);
    res.json({ ...run.graph, decision: run.decision } satisfies RunGraph);
  });

  router.get('/v1/runs/:run/backtrack', (req, res) => {
    const { q } = parseQuery(backtrackQuery, req);
    const run = storedRun(req);
    res.json({ query: q, stories: originStory(graphFromDocument(run.graph), q) } satisfies BacktrackBody);
  });

  router.get('/v1/runs/:run/blast', (req, res) => {
    const { layer } = parseQuery(blastQuery, req);
    const run = storedRun(req);
    res.json(layerBlastRadius(graphFromDocument(run.graph), layer));
  });

  router.get('/v1/runs/:run/cypher', (req, res) => {
    const run = storedRun(req);
    res.type('text/plain; charset=utf-8').send(toCypherScript(graphFromDocument(run.graph)));
  });

  router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: openApiDocument }));

  return router;
}

export type StandaloneOptions = RouterOptions & CoreStandaloneOptions;

/** The app `provgate serve` runs: hardening, request ids, the router at the root, the one error shape. */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(provgateService, options, defaultResourcesDir);
  return createServiceApp(
    createRouter(ctx, { explorer: true, ...(options.trusted === undefined ? {} : { trusted: options.trusted }), ...(options.trustDemo === undefined ? {} : { trustDemo: options.trustDemo }) }),
    options.allowedHosts,
  );
}
