// The one Express app of the workstation: /api (health, services, jobs, events), /svc/<service>, and the built UI.
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import type { GatewayHealth, GatewaySettings, JobInfo, ServiceInfo } from '../../engines/core/contracts/gateway.js';
import { EVIDENCE_ROOT_ENV } from '../../engines/forensic/evidence.js';
import { VitrineError } from '../../engines/core/errors.js';
import { errorHandler, notFound, pageOf, parsePagination, requestId, route } from '../../engines/core/http/index.js';
import { LOOPBACK_HOSTS, hostAllowList, requireBearer, securityHeaders } from '../../engines/core/http/security.js';
import type { ServiceContext, ServiceDescriptor } from '../../engines/core/service.js';
import type { EngineHost } from '../host/host.js';
import { createConsole, type ConsoleRouter } from '../console/http.js';
import { API_CSP, RENDERER_CSP } from './csp.js';
import { HEARTBEAT_MS, eventStream } from './events.js';
import { searchRoute } from './search.js';
import { buildFiles, fileStats, sendBuildFile } from './static.js';

/** A service as the app composes it: its descriptor and its router factory (engines/<service>/http.ts). */
export interface ComposedService {
  readonly descriptor: ServiceDescriptor;
  readonly createRouter: (ctx: ServiceContext) => Router;
}

export interface GatewayOptions {
  readonly host: EngineHost;
  readonly services: readonly ComposedService[];
  readonly db: Database;
  readonly dataDir: string;
  readonly resourcesDir: string;
  /** Required as `Authorization: Bearer <token>` on every route but /api/health and the UI's static files. */
  readonly token: string;
  /** The renderer build (index.html and assets); no UI is served when absent. */
  readonly rendererDir?: string;
  /** Host header names accepted (DNS-rebinding defence); default the loopback names. */
  readonly allowedHosts?: readonly string[];
  readonly version: string;
  /** Largest request body any route accepts, by Content-Length; services set tighter limits of their own. Default 512 MiB. */
  readonly maxBodyBytes?: number;
  readonly heartbeatMs?: number;
  /** The Console's runs (main/console); the workstation passes its own so that closing it kills them. Default: one made here. */
  readonly console?: ConsoleRouter;
}

const DEFAULT_MAX_BODY = 512 * 1024 * 1024;
const JOB_ID = z.uuid();
/** /<service>/docs and below, relative to /svc: the only token-free service paths (GET/HEAD). Everything else, /redoc included, needs the token. */
const PUBLIC_DOCS_PATH = /^\/[a-z][a-z0-9-]*\/docs(\/[A-Za-z0-9._-]*)?$/;

export function serviceInfo(descriptor: ServiceDescriptor): ServiceInfo {
  return { name: descriptor.name, title: descriptor.title, workspace: descriptor.workspace, base: `/svc/${descriptor.name}` };
}

/** 413 before reading a body whose declared length is over the gateway's ceiling. */
function bodyCeiling(maxBytes: number): RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > maxBytes) {
      next(new VitrineError('payload_too_large', 'request body is too large'));
      return;
    }
    next();
  };
}

function setCsp(value: string): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', value);
    next();
  };
}

function apiRouter(options: GatewayOptions, services: readonly ServiceInfo[]): Router {
  const { host } = options;
  const api = express.Router();
  api.get('/services', (req, res) => {
    res.json(pageOf(services, parsePagination(req)));
  });
  api.get('/jobs', (req, res) => {
    res.json(pageOf<JobInfo>(host.jobs(), parsePagination(req)));
  });
  api.post(
    '/jobs/:id/cancel',
    route((req, res) => {
      const id = JOB_ID.safeParse(req.params['id']);
      const job = id.success ? host.jobs().find((j) => j.id === id.data) : undefined;
      if (!job) throw new VitrineError('not_found', 'no such job');
      if (!host.cancel(job.id)) throw new VitrineError('conflict', 'the job has already finished');
      const after = host.jobs().find((j) => j.id === job.id) ?? job;
      res.json(after);
    }),
  );
  api.get('/events', eventStream(host, options.heartbeatMs ?? HEARTBEAT_MS));
  api.get('/settings', (_req, res) => {
    // The forensic router reads the same variable when it is created; resolved the same way.
    const root = process.env[EVIDENCE_ROOT_ENV];
    res.json({ version: options.version, dataDir: options.dataDir, evidenceRoot: root !== undefined && root !== '' ? path.resolve(root) : null } satisfies GatewaySettings);
  });
  api.get('/search', searchRoute(options.db, options.services));
  api.use('/console', (options.console ?? createConsole({ dataDir: options.dataDir })).router);
  api.use(notFound());
  return api;
}

function svcRouter(options: GatewayOptions): Router {
  const svc = express.Router();
  const ctx: ServiceContext = { jobs: options.host, db: options.db, dataDir: options.dataDir, resourcesDir: options.resourcesDir };
  const seen = new Set<string>();
  for (const service of options.services) {
    const name = service.descriptor.name;
    if (!/^[a-z][a-z0-9-]*$/.test(name) || seen.has(name)) throw new Error('service names must be unique lowercase route names');
    seen.add(name);
    svc.use(`/${name}`, service.createRouter(ctx));
  }
  svc.use(notFound());
  return svc;
}

/**
 * The UI: the build's files (precompressed when the browser accepts it, main/gateway/static.ts), and index.html for
 * any other GET so client-side routes survive a reload.
 */
function rendererRouter(dir: string | undefined): Router {
  const ui = express.Router();
  ui.use(setCsp(RENDERER_CSP));
  const root = dir === undefined ? undefined : path.resolve(dir);
  if (root !== undefined) ui.use(buildFiles(root));
  ui.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next(new VitrineError('not_found', 'no such route'));
      return;
    }
    const index = root === undefined ? undefined : path.join(root, 'index.html');
    const stats = index === undefined ? null : fileStats(index);
    if (root === undefined || index === undefined || stats === null) {
      next(new VitrineError('not_found', 'the user interface is not built; run npm run build:renderer'));
      return;
    }
    sendBuildFile(req, res, next, root, index, stats);
  });
  return ui;
}

export function createGateway(options: GatewayOptions): Express {
  if (options.token.length < 32) throw new Error('the gateway token is too short');
  const started = Date.now();
  const services = options.services.map((s) => serviceInfo(s.descriptor));
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(securityHeaders());
  app.use(requestId());
  app.use(hostAllowList(options.allowedHosts ?? LOOPBACK_HOSTS));
  app.use(bodyCeiling(options.maxBodyBytes ?? DEFAULT_MAX_BODY));

  app.get('/api/health', setCsp(API_CSP), (_req, res) => {
    const health: GatewayHealth = {
      status: 'ok',
      version: options.version,
      uptime_s: Math.floor((Date.now() - started) / 1000),
      services,
      workers: options.host.stats(),
    };
    res.json(health);
  });
  const auth = requireBearer(options.token);
  app.use('/api', setCsp(API_CSP), auth, apiRouter(options, services));
  // A service's interactive documentation is static and holds no evidence: a browser visit cannot send the
  // bearer token, so GET/HEAD of /svc/<name>/docs/... pass; every other /svc route (pkgscan's /redoc too) needs the token.
  const svcAuth: RequestHandler = (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && PUBLIC_DOCS_PATH.test(req.path)) next();
    else auth(req, res, next);
  };
  app.use('/svc', setCsp(API_CSP), svcAuth, svcRouter(options));
  app.use(rendererRouter(options.rendererDir));
  app.use(errorHandler());
  return app;
}
