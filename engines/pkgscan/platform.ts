// The service platform one router instance shares: store, settings, audit chain, identity, metrics and rate limiters.
import type { Database } from 'better-sqlite3';
import type { JobRunner } from '../core/jobs/protocol.js';
import { processScratchDir } from '../core/scratch-dir.js';
import type { ServiceContext } from '../core/service.js';
import { AuditLog } from './audit/audit.js';
import { Auth } from './auth/auth.js';
import { configFromEnv, type PkgscanConfig } from './config.js';
import { pkgscanDatabase } from './db/open.js';
import { workerStoreTarget, type WorkerStoreTarget } from './db/target.js';
import { storeDirFromEnv } from './db/url.js';
import type { AsyncDb } from './db/types.js';
import { unacknowledgedCount } from './events/events.js';
import { Metrics } from './ops/metrics.js';
import { DatabaseLimiter, MemoryLimiter, type SharedLimiter } from './ops/ratelimit.js';
import { seedDefaultPolicies } from './policies/policies.js';

export interface Platform {
  /** The workstation's SQLite store: the concerns not yet behind async repositories read and write it. */
  readonly db: Database;
  /**
   * The store of the async repositories (users, refresh tokens, audit chain, rate buckets, policies, exceptions,
   * package scans, events, release diffs, projects, container scans, monitoring): the shared PostgreSQL database when
   * PKGSCAN_DATABASE_URL is set, else the same SQLite store behind the async interface.
   */
  readonly store: AsyncDb;
  /** Runs jobs (package analyses) in the worker pool, or in-process for standalone command lines. */
  readonly jobs: JobRunner;
  readonly config: PkgscanConfig;
  readonly audit: AuditLog;
  readonly auth: Auth;
  readonly metrics: Metrics;
  /** The failed-login lock-out per account: in the shared database on PostgreSQL, else this process's memory. */
  readonly limiters: { readonly failedLogins: SharedLimiter };
  /** The request buckets (credential routes and everything else per client, per user): in the shared database on PostgreSQL, else this process's memory. */
  readonly buckets: { readonly auth: SharedLimiter; readonly client: SharedLimiter; readonly user: SharedLimiter };
  readonly resourcesDir: string;
  readonly dataDir: string;
  readonly startedAt: number;
}

export function createPlatform(ctx: ServiceContext, overrides: Partial<PkgscanConfig> = {}): Platform {
  const config = configFromEnv(process.env, overrides);
  const store = pkgscanDatabase(ctx.db, config.databaseUrl);
  const shared = store.dialect === 'postgres' ? store : undefined;
  const audit = new AuditLog(ctx.db, shared);
  // Stored in the background; policy reads of this store wait for it.
  void seedDefaultPolicies(store, audit, ctx.resourcesDir);
  const metrics = new Metrics();
  metrics.counter('pkgscan_http_requests_total', 'HTTP requests by method, route template and status class');
  metrics.histogram('pkgscan_http_request_duration_seconds', 'HTTP request duration by route template');
  metrics.counter('pkgscan_rate_limited_total', 'Requests refused by a rate limit, by limit');
  metrics.counter('pkgscan_login_failures_total', 'Failed logins');
  const auth = new Auth(ctx.db, audit, config, shared);
  metrics.gauge('pkgscan_users_active', 'Active user accounts', () => auth.users.countActive());
  metrics.gauge('pkgscan_events_unacknowledged', 'Security events not yet acknowledged', () => unacknowledgedCount(store));
  metrics.gauge('pkgscan_audit_entries', 'Entries in the audit chain', () => audit.total());
  if (shared) metrics.gauge('pkgscan_audit_queue_failures', 'Audit entries of the concerns still on SQLite that the shared chain refused', () => audit.queuedFailures);
  const r = config.rateLimits;
  const loginLimit = r.failedLoginsPerAccount ?? 10;
  const loginWindow = r.failedLoginWindowMs ?? 15 * 60_000;
  return {
    db: ctx.db,
    store,
    jobs: ctx.jobs,
    config,
    audit,
    auth,
    metrics,
    limiters: { failedLogins: shared ? new DatabaseLimiter(shared, 'failed_login', loginLimit, loginWindow) : new MemoryLimiter(loginLimit, loginWindow) },
    buckets: shared
      ? {
          auth: new DatabaseLimiter(shared, 'auth_client', r.authPerClient, r.windowMs),
          client: new DatabaseLimiter(shared, 'client', r.perClient, r.windowMs),
          user: new DatabaseLimiter(shared, 'user', r.perUser, r.windowMs),
        }
      : { auth: new MemoryLimiter(r.authPerClient, r.windowMs), client: new MemoryLimiter(r.perClient, r.windowMs), user: new MemoryLimiter(r.perUser, r.windowMs) },
    resourcesDir: ctx.resourcesDir,
    // PKGSCAN_STORE_DIR: a folder every server of a team deployment reaches. Else an in-memory store (a standalone serve
    // without VITRINE_HOME, tests) keeps its package archives in a private temporary folder, removed when the process exits.
    dataDir: storeDirFromEnv() ?? (ctx.dataDir !== '' ? ctx.dataDir : processScratchDir('vitrine-pkgscan-')),
    startedAt: Date.now(),
  };
}

/** How a worker process reaches this platform's store (every job payload that writes the store takes it from here). */
export function workerStoreOf(p: Pick<Platform, 'db' | 'store'> & { readonly config: Pick<PkgscanConfig, 'databaseUrl'> }): WorkerStoreTarget {
  return workerStoreTarget(p.db, p.store, p.config.databaseUrl);
}
