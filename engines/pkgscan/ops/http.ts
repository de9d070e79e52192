// Operations routes: liveness, readiness (store and cache; a missing model is degraded), Prometheus metrics, system info and optional tools; the /redoc page.
import path from 'node:path';
import type { RequestHandler } from 'express';
import type { HealthReady, SystemInfo } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { DOCS_CSP } from '../../core/http/docs.js';
import { MAX_PAGE_LIMIT } from '../../core/http/index.js';
import { secretsEqual } from '../../core/http/security.js';
import { MAX_EXCEPTION_DAYS, MAX_JSON_BODY, PASSWORD_MIN, VERSION } from '../config.js';
import type { RouteDef } from '../routing/http.js';
import type { Platform } from '../platform.js';
import { toolStatus } from './tools.js';
import { MAX_IMAGE_UPLOAD_BYTES } from '../containers/http.js';
import { MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES } from '../projects/files.js';
import { MAX_ARCHIVE_BYTES } from '../sources/store.js';
import { loadRiskModel } from '../ml/model.js';
import { localStoreChecks, sharedStoreCheck } from '../db/health.js';

/** Where a trained risk model would be (later issues); its absence makes readiness `degraded`, never `unready`. */
/** A usable risk model: the retrained one in the data folder or the shipped one, read and validated (a damaged file is missing). */
export function modelPresent(p: Platform): boolean {
  return loadRiskModel(p.dataDir, p.resourcesDir).model !== null;
}

export function readiness(p: Platform): HealthReady {
  const { database, cache } = localStoreChecks(p.db);
  const model = modelPresent(p) ? 'ok' : 'missing';
  const status = database === 'failed' || cache === 'failed' ? 'unready' : model === 'missing' ? 'degraded' : 'ok';
  return { status, checks: { database: { status: database }, cache: { status: cache }, model: { status: model } } };
}

/** Readiness with the shared database checked too when there is one (the database check fails with it). */
export async function readinessWithShared(p: Platform): Promise<HealthReady> {
  const local = readiness(p);
  if ((await sharedStoreCheck(p.store)) === 'ok') return local;
  return { status: 'unready', checks: { ...local.checks, database: { status: 'failed' } } };
}

export function systemInfo(p: Platform): SystemInfo {
  const r = p.config.rateLimits;
  return {
    service: 'pkgscan',
    version: VERSION,
    environment: p.config.environment,
    features: {
      interactive_docs: p.config.environment !== 'production',
      metrics_token_required: p.config.metricsToken !== undefined,
      risk_model: modelPresent(p),
      package_scans: true,
      project_scans: true,
      container_scans: true,
      vulnerability_lookups: true,
      monitoring: true,
    },
    limits: {
      access_token_ttl_seconds: p.config.accessTokenTtlS,
      refresh_token_ttl_seconds: p.config.refreshTokenTtlS,
      password_min_length: PASSWORD_MIN,
      json_body_bytes: MAX_JSON_BODY,
      page_limit_default: 50,
      page_limit_max: MAX_PAGE_LIMIT,
      rate_limit_window_seconds: Math.round(r.windowMs / 1000),
      rate_limit_auth_per_client: r.authPerClient,
      rate_limit_per_client: r.perClient,
      rate_limit_per_user: r.perUser,
      exception_max_days: MAX_EXCEPTION_DAYS,
      request_id_min_length: 8,
      request_id_max_length: 64,
      project_scan_files: MAX_FILES,
      project_scan_file_bytes: MAX_FILE_BYTES,
      project_scan_total_bytes: MAX_TOTAL_BYTES,
      image_upload_bytes: MAX_IMAGE_UPLOAD_BYTES,
      package_archive_bytes: MAX_ARCHIVE_BYTES,
      rate_limit_failed_logins_per_account: r.failedLoginsPerAccount ?? 10,
    },
  };
}

export function opsRoutes(p: Platform): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/health/live',
      access: 'public',
      tag: 'operations',
      summary: 'Liveness',
      handler: (_req, res) => {
        res.json({ status: 'ok' });
      },
    },
    {
      method: 'get',
      path: '/health/ready',
      errors: { 503: 'the database or the cache check fails (a missing model is degraded, 200)' },
      access: 'public',
      tag: 'operations',
      summary: 'Readiness: database and cache checks (503 when one fails); a missing model gives degraded (200)',
      handler: async (_req, res) => {
        const r = await readinessWithShared(p);
        res.status(r.status === 'unready' ? 503 : 200).json(r);
      },
    },
    {
      method: 'get',
      path: '/metrics',
      access: 'metrics',
      tag: 'operations',
      summary: 'Prometheus text metrics; needs `Authorization: Bearer <METRICS_TOKEN>` when that is configured',
      handler: async (req, res) => {
        const want = p.config.metricsToken;
        if (want !== undefined) {
          const h = req.headers.authorization;
          const given = h?.startsWith('Bearer ') ? h.slice(7) : undefined;
          if (given === undefined || !secretsEqual(given, want)) {
            res.setHeader('WWW-Authenticate', 'Bearer');
            throw new VitrineError('unauthorized', 'metrics need the metrics token');
          }
        }
        res.type('text/plain; version=0.0.4; charset=utf-8').send(await p.metrics.renderAsync());
      },
    },
    {
      method: 'get',
      path: '/system/info',
      access: 'system:read',
      tag: 'system',
      summary: 'Version, environment, feature switches and enforced limits',
      handler: (_req, res) => {
        res.json(systemInfo(p));
      },
    },
    {
      method: 'get',
      path: '/system/tools',
      access: 'system:read',
      tag: 'system',
      summary: 'Which optional tools are installed (a PATH lookup; nothing is run)',
      handler: (_req, res) => {
        res.json({ items: toolStatus() });
      },
    },
  ];
}

/** /redoc: a read-only reference page rendered from /openapi.json by a local script (no CDN). */
export function redocPage(p: Platform): RequestHandler {
  const dir = path.join(p.resourcesDir, 'pkgscan', 'redoc');
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    const file = req.query['asset'] === 'js' ? 'redoc.js' : 'index.html';
    res.sendFile(path.join(dir, file), { dotfiles: 'deny' }, (err) => {
      if (err) next(new VitrineError('not_found', 'documentation file missing'));
    });
  };
}
