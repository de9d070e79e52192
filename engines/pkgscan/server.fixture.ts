// Test helpers of pkgscan: a standalone server with a cheap password cost, one signed-in user per role, fetch shorthands.
import { listen, type Listening } from '../core/http/server.js';
import type { Role, TokenResponse } from '../core/contracts/pkgscan.js';
import { ROLES } from './auth/roles.js';
import type { PkgscanConfig } from './config.js';
import { createStandaloneApp } from './http.js';
import type { Platform } from './platform.js';

/** scrypt at N = 2^10: the same code path, a fraction of the cost. */
export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 } as const;
export const PASSWORD = 'correct horse battery staple';

export interface TestServer {
  readonly url: string;
  readonly api: string;
  readonly platform: Platform;
  close(): Promise<void>;
}

export async function startServer(config: Partial<PkgscanConfig> = {}): Promise<TestServer> {
  let platform: Platform | undefined;
  const app = createStandaloneApp({
    config: { scrypt: TEST_SCRYPT, rateLimits: { windowMs: 60_000, authPerClient: 100_000, perClient: 100_000, perUser: 100_000 }, ...config },
    onPlatform: (p) => {
      platform = p;
    },
  });
  const server: Listening = await listen(app, { port: 0 });
  if (!platform) throw new Error('no platform');
  return { url: server.url, api: `${server.url}/api/v1`, platform, close: () => server.close() };
}

export interface Session {
  readonly id: string;
  readonly email: string;
  readonly token: string;
  /** `pkgscan_refresh=<value>` as the Cookie header. */
  readonly cookie: string;
}

export function cookieOf(res: Response): string | undefined {
  const set = res.headers.get('set-cookie');
  const m = set ? /pkgscan_refresh=([^;]*)/.exec(set) : null;
  return m && m[1] !== '' ? `pkgscan_refresh=${m[1]}` : undefined;
}

export async function createUser(s: TestServer, role: Role, email = `${role}@example.org`): Promise<string> {
  const u = await s.platform.auth.createUser({ email, password: PASSWORD, role }, 'system', null);
  return u.id;
}

export async function loginAs(s: TestServer, email: string, password = PASSWORD): Promise<Session> {
  const res = await fetch(`${s.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  const body = (await res.json()) as TokenResponse;
  return { id: body.user.id, email, token: body.access_token, cookie: cookieOf(res) ?? '' };
}

/** One user per role, signed in. */
export async function sessionsByRole(s: TestServer): Promise<Record<Role, Session>> {
  const out: Partial<Record<Role, Session>> = {};
  for (const role of ROLES) {
    await createUser(s, role);
    out[role] = await loginAs(s, `${role}@example.org`);
  }
  return out as Record<Role, Session>;
}

/** A started server with one signed-in user per role, and the fields route tests read from it. */
export interface SignedInServer {
  readonly server: TestServer;
  readonly platform: Platform;
  readonly dataDir: string;
  readonly api: string;
  readonly sessions: Record<Role, Session>;
}

/** `startServer` and `sessionsByRole`: what a route test file starts in its beforeAll. */
export async function startSignedIn(config: Partial<PkgscanConfig> = {}): Promise<SignedInServer> {
  const server = await startServer(config);
  const sessions = await sessionsByRole(server);
  return { server, platform: server.platform, dataDir: server.platform.dataDir, api: server.api, sessions };
}

export function call(s: TestServer, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${s.api}${path}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
}
