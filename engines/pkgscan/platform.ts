// The service platform one router instance shares: store, settings, audit chain, identity, metrics and rate limiters.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { JobRunner } from '../core/jobs/protocol.js';
import type { ServiceContext } from '../core/service.js';
import { AuditLog } from './audit/audit.js';
import { Auth } from './auth/auth.js';
import { configFromEnv, type PkgscanConfig } from './config.js';
import { unacknowledgedCount } from './events/events.js';
import { Metrics } from './ops/metrics.js';
import { FixedWindowLimiter } from './ops/ratelimit.js';
import { seedDefaultPolicies } from './policies/policies.js';

export interface Platform {
  readonly db: Database;
  /** Runs jobs (package analyses) in the worker pool, or in-process for standalone command lines. */
  readonly jobs: JobRunner;
  readonly config: PkgscanConfig;
  readonly audit: AuditLog;
  readonly auth: Auth;
  readonly metrics: Metrics;
  readonly limiters: { readonly auth: FixedWindowLimiter; readonly client: FixedWindowLimiter; readonly user: FixedWindowLimiter; readonly failedLogins: FixedWindowLimiter };
  readonly resourcesDir: string;
  readonly dataDir: string;
  readonly startedAt: number;
}

export function createPlatform(ctx: ServiceContext, overrides: Partial<PkgscanConfig> = {}): Platform {
  const config = configFromEnv(process.env, overrides);
  const audit = new AuditLog(ctx.db);
  seedDefaultPolicies(ctx.db, audit, ctx.resourcesDir);
  const metrics = new Metrics();
  metrics.counter('pkgscan_http_requests_total', 'HTTP requests by method, route template and status class');
  metrics.histogram('pkgscan_http_request_duration_seconds', 'HTTP request duration by route template');
  metrics.counter('pkgscan_rate_limited_total', 'Requests refused by a rate limit, by limit');
  metrics.counter('pkgscan_login_failures_total', 'Failed logins');
  metrics.gauge('pkgscan_users_active', 'Active user accounts', () => (ctx.db.prepare('SELECT COUNT(*) AS n FROM pkgscan_users WHERE active = 1').get() as { n: number }).n);
  metrics.gauge('pkgscan_events_unacknowledged', 'Security events not yet acknowledged', () => unacknowledgedCount(ctx.db));
  metrics.gauge('pkgscan_audit_entries', 'Entries in the audit chain', () => audit.count());
  const r = config.rateLimits;
  return {
    db: ctx.db,
    jobs: ctx.jobs,
    config,
    audit,
    auth: new Auth(ctx.db, audit, config),
    metrics,
    limiters: {
      auth: new FixedWindowLimiter(r.authPerClient, r.windowMs),
      client: new FixedWindowLimiter(r.perClient, r.windowMs),
      user: new FixedWindowLimiter(r.perUser, r.windowMs),
      failedLogins: new FixedWindowLimiter(r.failedLoginsPerAccount ?? 10, r.failedLoginWindowMs ?? 15 * 60_000),
    },
    resourcesDir: ctx.resourcesDir,
    // An in-memory store (a standalone serve without VITRINE_HOME, tests) keeps its package archives in a private temporary folder.
    dataDir: ctx.dataDir !== '' ? ctx.dataDir : mkdtempSync(path.join(os.tmpdir(), 'vitrine-pkgscan-')),
    startedAt: Date.now(),
  };
}
