// The pkgscan HTTP routes under /api/v1 (standalone at the root, /svc/pkgscan in the workstation): auth, rate limits, metrics around every route of the route table.
import express, { type Express, type Request, type RequestHandler, type Response, type Router } from 'express';
import { VitrineError } from '../core/errors.js';
import { apiDocsRouter } from '../core/http/docs.js';
import { errorHandler, jsonBody, notFound, route } from '../core/http/index.js';
import { createServiceApp, standaloneContext, type StandaloneOptions as CoreStandaloneOptions } from '../core/http/server.js';
import type { ServiceContext } from '../core/service.js';
import { auditRoutes } from './audit/http.js';
import { authRoutes } from './auth/http.js';
import { hasPermission } from './auth/roles.js';
import { defaultResourcesDir, MAX_JSON_BODY, type PkgscanConfig } from './config.js';
import { eventRoutes } from './events/http.js';
import { openApiDocument } from './openapi.js';
import { opsRoutes, redocPage } from './ops/http.js';
import { clientKey } from './ops/ratelimit.js';
import { createPlatform, type Platform } from './platform.js';
import { exceptionRoutes, policyRoutes } from './policies/http.js';
import { scanDeps } from './scans/deps.js';
import { scanRoutes } from './scans/http.js';
import { containerRoutes } from './containers/http.js';
import { diffRoutes } from './diffs/http.js';
import { mlRoutes } from './ml/http.js';
import { monitoringRoutes } from './monitoring/http.js';
import { projectRoutes } from './projects/http.js';
import { packageStoreRoutes } from './sources/http.js';
import { vulnerabilityRoutes } from './vulns/http.js';
import { pkgscanService } from './service.js';
import type { Access, RouteDef } from './routing/http.js';
import type { StoredUser } from './users/users.js';
import { userRoutes } from './users/http.js';

export const API_BASE = '/api/v1';

export type { Access, RouteDef } from './routing/http.js';

/** The caller set by the authentication step (undefined on public routes). */
function callerOf(res: Response): StoredUser | undefined {
  return res.locals['pkgscanUser'] as StoredUser | undefined;
}

/** The route table: every documented route of this service, in the order they are matched. */
export function routeTable(p: Platform): RouteDef[] {
  return [
    ...authRoutes(p),
    ...userRoutes(p),
    ...policyRoutes(p),
    ...exceptionRoutes(p),
    ...eventRoutes(p),
    ...auditRoutes(p),
    ...opsRoutes(p),
    ...packageStoreRoutes(p),
    ...vulnerabilityRoutes(p),
    ...scanRoutes(p, scanDeps(p)),
    ...diffRoutes(p, scanDeps(p)),
    ...monitoringRoutes(p, scanDeps(p)),
    ...mlRoutes(p),
    ...projectRoutes(p),
    ...containerRoutes(p),
  ];
}

function clientKeyOf(req: Request): string {
  return clientKey(req.socket.remoteAddress);
}

function limited(p: Platform, res: Response, scope: string, retryAfterS: number): VitrineError {
  res.setHeader('Retry-After', String(retryAfterS));
  p.metrics.inc('pkgscan_rate_limited_total', { limit: scope });
  return new VitrineError('rate_limited', 'too many requests; retry after the time in Retry-After');
}

/**
 * Routes that take credentials (a password, a refresh cookie) and so can be guessed at: only these share the strict
 * per-client bucket. In the workstation every user comes from 127.0.0.1, so /auth/me and other signed-in calls must
 * not spend it, or one user's page refreshes lock everyone out of signing in.
 */
const CREDENTIAL_ROUTES = new Set(['POST /auth/login', 'POST /auth/refresh', 'POST /auth/logout']);

/** Per client address: the stricter limit on credential routes, the general one elsewhere. */
function clientRateLimit(p: Platform): RequestHandler {
  return (req, res, next) => {
    const isAuth = CREDENTIAL_ROUTES.has(`${req.method} ${req.path}`);
    (isAuth ? p.buckets.auth : p.buckets.client).hit(clientKeyOf(req)).then(
      (d) => {
        if (!d.allowed) next(limited(p, res, isAuth ? 'auth_client' : 'client', d.retryAfterS));
        else next();
      },
      (err: unknown) => next(err),
    );
  };
}

function bearerOf(req: Request): string | undefined {
  const h = req.headers.authorization;
  return h !== undefined && /^Bearer [^\s]{1,4096}$/.test(h) ? h.slice(7) : undefined;
}

/** 401 without a valid access token, 403 without the permission; then the per-user rate limit. */
function authorize(p: Platform, access: Access): RequestHandler {
  return (req, res, next) => {
    if (access === 'public' || access === 'refresh_cookie' || access === 'metrics') {
      next();
      return;
    }
    const token = bearerOf(req);
    if (token === undefined) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      next(new VitrineError('unauthorized', 'authentication required'));
      return;
    }
    p.auth
      .authenticate(token)
      .then(
        async (user) => {
          if (access !== 'authenticated' && !hasPermission(user.role, access)) throw new VitrineError('forbidden', 'your role does not hold the permission this route needs');
          const d = await p.buckets.user.hit(user.id);
          if (!d.allowed) throw limited(p, res, 'user', d.retryAfterS);
          res.locals['pkgscanUser'] = user;
        },
        (err: unknown) => {
          res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
          throw err;
        },
      )
      .then(() => next(), next);
  };
}

/** Counts and times every request by its route template (never the concrete path, which may hold package names). */
function measure(p: Platform): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const template = typeof (req.route as { path?: unknown } | undefined)?.path === 'string' ? String((req.route as { path: string }).path) : 'unmatched';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      p.metrics.inc('pkgscan_http_requests_total', { method: req.method, route: template, status: `${Math.floor(res.statusCode / 100)}xx` });
      p.metrics.observe('pkgscan_http_request_duration_seconds', { route: template }, seconds);
    });
    next();
  };
}

export interface RouterOptions {
  /** Settings over those read from the environment (tests lower the password cost, change rate limits). */
  readonly config?: Partial<PkgscanConfig>;
  /** Receives the platform (tests reach the store and audit log through it). */
  readonly onPlatform?: (p: Platform) => void;
}

/** The pkgscan router: `/api/v1/...`, `/openapi.json`, and outside production `/docs/` and `/redoc`. */
export function createRouter(ctx: ServiceContext, options: RouterOptions = {}): Router {
  const p = createPlatform(ctx, options.config);
  options.onPlatform?.(p);
  const routes = routeTable(p);
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument(routes, p.config, '.'));
  });
  if (p.config.environment !== 'production') {
    router.use('/docs', apiDocsRouter({ resourcesDir: ctx.resourcesDir, openApi: () => openApiDocument(routes, p.config, '..') }));
    router.get('/redoc', redocPage(p));
  }
  const api = express.Router();
  api.use(measure(p));
  api.use(clientRateLimit(p));
  for (const def of routes) {
    const handlers: RequestHandler[] = [authorize(p, def.access)];
    if (def.body !== undefined) handlers.push(jsonBody(def.bodyLimit ?? MAX_JSON_BODY));
    handlers.push(route((req, res) => def.handler(req, res, callerOf(res))));
    api[def.method](def.path, ...handlers);
  }
  api.use(notFound());
  api.use(errorHandler());
  router.use(API_BASE, api);
  return router;
}

export type StandaloneOptions = RouterOptions & CoreStandaloneOptions;

/** The app `pkgscan serve` runs: hardening, request ids, the router at the root, the one error shape. */
export function createStandaloneApp(options: StandaloneOptions = {}): Express {
  const ctx = standaloneContext(pkgscanService, options, defaultResourcesDir);
  const app = createServiceApp(createRouter(ctx, options), options.allowedHosts);
  return app;
}

