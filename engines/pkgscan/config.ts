// The service's settings: environment, token lifetimes, password hashing cost, rate limits, metrics token; read from the environment once.
import { databaseUrl } from './db/url.js';
import { findResourcesDir } from '../core/resources.js';

export const VERSION = '0.1.0';

/** Access tokens (JWT) live 15 minutes; refresh tokens 7 days each, a login's family 30 days at most. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 3600;
export const REFRESH_FAMILY_TTL_S = 30 * 24 * 3600;

/** scrypt cost: N = 2^15, r = 8, p = 3 (32 MiB a derivation): one of the OWASP password storage cheat sheet minimum settings for scrypt. */
export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 3 };

export interface RateLimits {
  /** Window length in milliseconds (fixed windows). */
  readonly windowMs: number;
  /** Requests per window per client address on /auth/*. */
  readonly authPerClient: number;
  /** Requests per window per client address on every other route. */
  readonly perClient: number;
  /** Requests per window per authenticated user. */
  readonly perUser: number;
  /** Failed logins per account (by the submitted e-mail, whether or not it exists) in `failedLoginWindowMs`. */
  readonly failedLoginsPerAccount?: number;
  readonly failedLoginWindowMs?: number;
}
export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 60_000, authPerClient: 30, perClient: 1200, perUser: 600, failedLoginsPerAccount: 10, failedLoginWindowMs: 15 * 60_000 };

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;
export const MAX_JSON_BODY = 256 * 1024;
export const MAX_EXCEPTION_DAYS = 365;

export interface PkgscanConfig {
  /** `production` hides /docs and /redoc; anything else is a development or test deployment. */
  readonly environment: string;
  /** The policy environment GET /policies/active answers without `environment`. */
  readonly defaultPolicyEnvironment: string;
  readonly accessTokenTtlS: number;
  readonly refreshTokenTtlS: number;
  readonly scrypt: ScryptParams;
  readonly rateLimits: RateLimits;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
  /** Name prefixes or npm scopes of the lab's own packages (dependency confusion), from PKGSCAN_INTERNAL_NAMESPACES. */
  readonly internalNamespaces: readonly string[];
  /** The shared PostgreSQL database (PKGSCAN_DATABASE_URL or --database-url); undefined: the workstation's SQLite store. */
  readonly databaseUrl?: string | undefined;
}

/** `@acme/,acme-` -> [`@acme/`, `acme-`]: comma-separated, blanks dropped, at most 100, each a plausible name prefix. */
export function namespacesFromEnv(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((x) => x.trim().toLowerCase())
    .filter((x) => /^@?[a-z0-9][a-z0-9._/-]{0,213}$/.test(x))
    .slice(0, 100);
}

/**
 * PKGSCAN_SCRYPT=`N:r:p` tunes the password cost to the hardware (N a power of two from 2^14 to 2^20, r 1..16, p 1..16);
 * anything else keeps the default. Stored hashes carry their own cost, so a change applies to new passwords only.
 */
export function scryptFromEnv(text: string | undefined): ScryptParams {
  const m = text === undefined ? null : /^(\d{1,8}):(\d{1,2}):(\d{1,2})$/.exec(text);
  if (!m) return DEFAULT_SCRYPT;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const powerOfTwo = N >= 2 ** 14 && N <= 2 ** 20 && (N & (N - 1)) === 0;
  return powerOfTwo && r >= 1 && r <= 16 && p >= 1 && p <= 16 ? { N, r, p } : DEFAULT_SCRYPT;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<PkgscanConfig> = {}): PkgscanConfig {
  const token = env['METRICS_TOKEN'];
  return {
    environment: env['PKGSCAN_ENV'] ?? 'development',
    defaultPolicyEnvironment: 'prod',
    accessTokenTtlS: ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: REFRESH_TOKEN_TTL_S,
    scrypt: scryptFromEnv(env['PKGSCAN_SCRYPT']),
    rateLimits: DEFAULT_RATE_LIMITS,
    metricsToken: token !== undefined && token !== '' ? token : undefined,
    internalNamespaces: namespacesFromEnv(env['PKGSCAN_INTERNAL_NAMESPACES']),
    databaseUrl: databaseUrl(undefined, env),
    ...overrides,
  };
}

/** The shipped resources/ folder (source tree or dist/). */
export function defaultResourcesDir(): string {
  return findResourcesDir('pkgscan');
}
