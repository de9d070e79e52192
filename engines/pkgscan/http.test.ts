// HTTP contract of the pkgscan platform: every route with every role, identity flows, conventions, limits, no leaks.
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readiness } from './ops/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Me, PageOf, Role, TokenResponse, User } from '../core/contracts/pkgscan.js';
import express from 'express';
import { listen } from '../core/http/server.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { openMemoryStore } from '../core/store.js';
import { hasPermission, ROLES } from './auth/roles.js';
import { defaultResourcesDir } from './config.js';
import { createRouter, routeTable } from './http.js';
import type { Platform } from './platform.js';
import { pkgscanService } from './service.js';
import { call, cookieOf, createUser, loginAs, PASSWORD, sessionsByRole, startServer, TEST_SCRYPT, type Session, type TestServer } from './server.fixture.js';

let s: TestServer;
let by: Record<Role, Session>;
/** Every response body the suite saw, checked for secrets at the end. */
const bodies: string[] = [];

async function text(res: Response): Promise<string> {
  const t = await res.text();
  bodies.push(t);
  return t;
}
async function json<T>(res: Response): Promise<T> {
  return JSON.parse(await text(res)) as T;
}

beforeAll(async () => {
  s = await startServer();
  by = await sessionsByRole(s);
});
afterAll(async () => {
  await s.close();
});

const FAKE_ID = '00000000-0000-4000-8000-000000000000';

describe('every route enforces its permission', () => {
  it('walks every route of the route table with no token and with every role', async () => {
    const routes = routeTable(s.platform);
    expect(routes.length).toBeGreaterThanOrEqual(25);
    for (const r of routes) {
      const path = r.path.replace(/:[a-z_]+/g, FAKE_ID);
      const method = r.method.toUpperCase();
      const secured = r.access !== 'public' && r.access !== 'refresh_cookie' && r.access !== 'metrics';
      const anonymous = await call(s, method, path);
      await text(anonymous);
      if (secured) expect(anonymous.status, `${method} ${r.path} without a token`).toBe(401);
      else expect(anonymous.status, `${method} ${r.path} is public`).not.toBe(403);
      const forged = await call(s, method, path, { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' });
      await text(forged);
      if (secured) expect(forged.status, `${method} ${r.path} with a forged token`).toBe(401);
      for (const role of ROLES) {
        const res = await call(s, method, path, { token: by[role].token });
        await text(res);
        if (!secured) {
          expect(res.status, `${method} ${r.path} is public`).not.toBe(403);
          continue;
        }
        const allowed = r.access === 'authenticated' || hasPermission(role, r.access as Parameters<typeof hasPermission>[1]);
        if (allowed) expect([401, 403], `${method} ${r.path} as ${role}`).not.toContain(res.status);
        else expect(res.status, `${method} ${r.path} as ${role}`).toBe(403);
      }
    }
  });

  it('holds the spec counts of roles per permission group', () => {
    const count = (p: Parameters<typeof hasPermission>[1]): number => ROLES.filter((r) => hasPermission(r, p)).length;
    for (const p of ['scan:create', 'project:write', 'container:scan', 'diff:create', 'exception:request'] as const) expect(count(p)).toBe(3);
    for (const p of ['scan:read', 'policy:read', 'event:read', 'monitor:read', 'ml:read', 'report:read', 'vuln:read'] as const) expect(count(p)).toBe(5);
    for (const p of ['exception:approve', 'event:ack', 'monitor:write', 'audit:read', 'system:read'] as const) expect(count(p)).toBe(2);
    for (const p of ['policy:write', 'user:manage', 'system:write'] as const) expect(count(p)).toBe(1);
  });
});

describe('authentication', () => {
  it('logs in, sets an httpOnly SameSite=Strict refresh cookie under /api/v1/auth, answers /auth/me', async () => {
    await createUser(s, 'developer', 'dev2@example.org');
    const res = await call(s, 'POST', '/auth/login', { body: { email: 'DEV2@example.org', password: PASSWORD } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/api\/v1\/auth/);
    const body = await json<TokenResponse>(res);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(900);
    expect(JSON.stringify(body)).not.toMatch(/refresh/i);
    const me = await json<Me>(await call(s, 'GET', '/auth/me', { token: body.access_token }));
    expect(me.email).toBe('dev2@example.org');
    expect(me.role).toBe('developer');
    expect(me.permissions).toContain('scan:create');
    expect(me.permissions).not.toContain('event:ack');
  });

  it('answers the same 401 for a missing account and a wrong password, and audits both', async () => {
    const a = await call(s, 'POST', '/auth/login', { body: { email: 'nobody@example.org', password: 'whatever-it-is' } });
    const b = await call(s, 'POST', '/auth/login', { body: { email: 'admin@example.org', password: 'wrong password here' } });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    const ea = (await json<{ error: { code: string; message: string } }>(a)).error;
    const eb = (await json<{ error: { code: string; message: string } }>(b)).error;
    expect(ea.message).toBe(eb.message);
    expect(ea.code).toBe(eb.code);
    const audit = await json<PageOf<AuditEntry>>(await call(s, 'GET', '/audit?action=auth.login_failed', { token: by.auditor.token }));
    const reasons = audit.items.map((e) => e.details['reason']);
    expect(reasons).toContain('unknown_account');
    expect(reasons).toContain('wrong_password');
    expect(JSON.stringify(audit)).not.toContain('nobody@example.org');
  });

  it('rotates the refresh token; a reused one revokes every token of the user', async () => {
    await createUser(s, 'developer', 'rot@example.org');
    const first = await loginAs(s, 'rot@example.org');
    const r1 = await call(s, 'POST', '/auth/refresh', { headers: { cookie: first.cookie } });
    expect(r1.status).toBe(200);
    const second = cookieOf(r1);
    expect(second).toBeDefined();
    expect(second).not.toBe(first.cookie);
    await text(r1);
    const before = await call(s, 'GET', '/auth/me', { token: first.token });
    expect(before.status).toBe(200);
    await text(before);
    // The first token again: theft detected, the whole family (second too) is revoked.
    const reuse = await call(s, 'POST', '/auth/refresh', { headers: { cookie: first.cookie } });
    expect(reuse.status).toBe(401);
    await text(reuse);
    const afterReuse = await call(s, 'POST', '/auth/refresh', { headers: { cookie: second ?? '' } });
    expect(afterReuse.status).toBe(401);
    await text(afterReuse);
    // The access tokens of the family end at once too, not when they expire.
    const me = await call(s, 'GET', '/auth/me', { token: first.token });
    expect(me.status).toBe(401);
    await text(me);
    const audit = await json<PageOf<AuditEntry>>(await call(s, 'GET', '/audit?action=auth.refresh_reuse_detected', { token: by.admin.token }));
    expect(audit.items.some((e) => e.actor === first.id)).toBe(true);
  });

  it('logout revokes the presented refresh token and clears the cookie', async () => {
    await createUser(s, 'developer', 'out@example.org');
    const sess = await loginAs(s, 'out@example.org');
    const out = await call(s, 'POST', '/auth/logout', { headers: { cookie: sess.cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    const again = await call(s, 'POST', '/auth/refresh', { headers: { cookie: sess.cookie } });
    expect(again.status).toBe(401);
    await text(again);
  });

  it('register needs user:manage and a password of at least 12 characters, never echoing it', async () => {
    const short = await call(s, 'POST', '/auth/register', { token: by.admin.token, body: { email: 'new@example.org', password: 'short-pw-11', role: 'developer' } });
    expect(short.status).toBe(422);
    expect(await text(short)).not.toContain('short-pw-11');
    const ok = await call(s, 'POST', '/auth/register', { token: by.admin.token, body: { email: 'new@example.org', password: 'long enough password', role: 'developer' } });
    expect(ok.status).toBe(201);
    const user = await json<User>(ok);
    expect(user.role).toBe('developer');
    const dup = await call(s, 'POST', '/auth/register', { token: by.admin.token, body: { email: 'NEW@example.org', password: 'long enough password' } });
    expect(dup.status).toBe(409);
    await text(dup);
    expect((await loginAs(s, 'new@example.org', 'long enough password')).token).not.toBe('');
  });
});

describe('users', () => {
  it('lists with role, active and e-mail filters, paginated', async () => {
    const page = await json<PageOf<User>>(await call(s, 'GET', '/users?role=developer&active=true&email=EXAMPLE&limit=2&offset=0', { token: by.admin.token }));
    expect(page.limit).toBe(2);
    expect(page.offset).toBe(0);
    expect(page.items.length).toBeLessThanOrEqual(2);
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.items.every((u) => u.role === 'developer' && u.active)).toBe(true);
    const bad = await call(s, 'GET', '/users?limit=100000', { token: by.admin.token });
    expect(bad.status).toBe(400);
    expect(await text(bad)).not.toContain('100000');
  });

  it('deactivation revokes every refresh token and the access token stops working', async () => {
    const id = await createUser(s, 'developer', 'gone@example.org');
    const a = await loginAs(s, 'gone@example.org');
    const b = await loginAs(s, 'gone@example.org');
    expect(await s.platform.auth.tokens.liveCount(id)).toBe(2);
    const res = await call(s, 'PATCH', `/users/${id}`, { token: by.admin.token, body: { active: false } });
    expect(res.status).toBe(200);
    expect((await json<User>(res)).active).toBe(false);
    expect(await s.platform.auth.tokens.liveCount(id)).toBe(0);
    expect((await call(s, 'POST', '/auth/refresh', { headers: { cookie: b.cookie } })).status).toBe(401);
    expect((await call(s, 'GET', '/auth/me', { token: a.token })).status).toBe(401);
    expect((await call(s, 'POST', '/auth/login', { body: { email: 'gone@example.org', password: PASSWORD } })).status).toBe(401);
  });

  it('refuses with 409 to remove the last active admin, changing nothing', async () => {
    const before = await s.platform.audit.total();
    const res = await call(s, 'PATCH', `/users/${by.admin.id}`, { token: by.admin.token, body: { role: 'auditor' } });
    expect(res.status).toBe(409);
    await text(res);
    const res2 = await call(s, 'PATCH', `/users/${by.admin.id}`, { token: by.admin.token, body: { active: false } });
    expect(res2.status).toBe(409);
    await text(res2);
    const me = await json<Me>(await call(s, 'GET', '/auth/me', { token: by.admin.token }));
    expect(me.role).toBe('admin');
    expect(me.active).toBe(true);
    expect(await s.platform.audit.total()).toBe(before);
  });
});

describe('conventions', () => {
  it('accepts X-Request-ID only when it matches the pattern, and records it in the audit chain', async () => {
    const good = 'req-0001.test_ok';
    const res = await call(s, 'POST', '/auth/login', { body: { email: 'admin@example.org', password: PASSWORD }, headers: { 'x-request-id': good } });
    expect(res.headers.get('x-request-id')).toBe(good);
    await text(res);
    const entries = await json<PageOf<AuditEntry>>(await call(s, 'GET', '/audit?action=auth.login&limit=5', { token: by.admin.token }));
    expect(entries.items.some((e) => e.request_id === good)).toBe(true);
    for (const bad of ['short', 'has space in it', 'x'.repeat(65), 'semi;colon!!']) {
      const r = await call(s, 'GET', '/health/live', { headers: { 'x-request-id': bad } });
      expect(r.headers.get('x-request-id')).not.toBe(bad);
      expect(r.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    }
  });

  it('answers errors as {error:{code,message,request_id}} without echoing values', async () => {
    const res = await call(s, 'POST', '/policies/exceptions', {
      token: by.developer.token,
      body: { ecosystem: 'npm', package: 'left-pad', scope: 'package', justification: 'SECRET-VALUE-123 here', expires_at: 'not-a-date-XYZZY' },
    });
    expect(res.status).toBe(422);
    const body = await json<{ error: { code: string; message: string; request_id: string; details: { path: string }[] } }>(res);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    expect(body.error.details.map((d) => d.path)).toContain('expires_at');
    expect(JSON.stringify(body)).not.toContain('XYZZY');
    const notFound = await call(s, 'GET', '/no/such/route', { token: by.admin.token });
    expect(notFound.status).toBe(404);
    expect((await json<{ error: { code: string } }>(notFound)).error.code).toBe('not_found');
  });

  it('serves /openapi.json with every route of the table', async () => {
    const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(await fetch(`${s.url}/openapi.json`));
    for (const r of routeTable(s.platform)) expect(doc.paths[`/api/v1${r.path.replace(/:([a-z_]+)/g, '{$1}')}`]?.[r.method], r.path).toBeDefined();
    expect((await fetch(`${s.url}/docs/`)).status).toBe(200);
    expect((await fetch(`${s.url}/redoc`)).status).toBe(200);
  });

  it('/openapi.json documents the statuses the spec names for a route, and the ones the docs page chose', async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const doc = await json<Doc>(await fetch(`${s.url}/openapi.json`));
    const statuses = (method: string, p: string) => Object.keys(doc.paths[`/api/v1${p}`]?.[method]?.responses ?? {});
    const expected: [string, string, string[]][] = [
      ['post', '/scans', ['404', '413', '415']],
      ['get', '/packages/{ecosystem}/{name}', ['404']],
      ['post', '/projects', ['409']],
      ['post', '/projects/{id}/scans', ['413']],
      ['post', '/monitoring/packages', ['409']],
      ['patch', '/users/{id}', ['409']],
      ['post', '/auth/login', ['401']],
      ['post', '/auth/refresh', ['401']],
      ['post', '/auth/register', ['409']],
      ['post', '/diffs', ['404']],
      ['post', '/containers/scans', ['400', '413', '415', '429']],
      ['post', '/policies/exceptions/{id}/approve', ['403', '409']],
      ['post', '/policies/exceptions/{id}/revoke', ['409']],
      ['get', '/policies/active', ['404']],
      ['post', '/monitoring/packages/{id}/check', ['409']],
      ['get', '/health/ready', ['503']],
    ];
    for (const [method, p, want] of expected) expect(statuses(method, p), `${method} ${p}`).toEqual(expect.arrayContaining(want));
    // A status a route's summary promises is in its responses too (PEP 503 is a name rule, not a status).
    for (const r of routeTable(s.platform)) {
      const said = [...r.summary.matchAll(/(?<!PEP )\b(4\d\d|503)\b/g)].map((m) => m[1] ?? '');
      expect(statuses(r.method, r.path.replace(/:([a-z_]+)/g, '{$1}')), `${r.method} ${r.path}`).toEqual(expect.arrayContaining(said));
    }
    // /metrics is open without METRICS_TOKEN, so its 401 is documented only where one is configured.
    expect(statuses('get', '/metrics')).not.toContain('401');
    const t = await startServer({ metricsToken: 'metrics-secret-token' });
    try {
      const locked = await json<Doc>(await fetch(`${t.url}/openapi.json`));
      expect(Object.keys(locked.paths['/api/v1/metrics']?.['get']?.responses ?? {})).toContain('401');
    } finally {
      await t.close();
    }
  });
});

describe('mounted under a prefix, as the gateway does', () => {
  it('routes live under <prefix>/api/v1 and the refresh cookie Path follows the mount', async () => {
    const db = openMemoryStore([pkgscanService]);
    let platform: Platform | undefined;
    const app = express();
    app.use('/svc/pkgscan', createRouter({ db, jobs: new InProcessRunner({}), dataDir: '', resourcesDir: defaultResourcesDir() }, { config: { scrypt: TEST_SCRYPT }, onPlatform: (p) => (platform = p) }));
    const server = await listen(app, { port: 0 });
    try {
      await platform?.auth.createUser({ email: 'm@example.org', password: PASSWORD, role: 'auditor' }, 'system', null);
      const res = await fetch(`${server.url}/svc/pkgscan/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'm@example.org', password: PASSWORD }) });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/Path=\/svc\/pkgscan\/api\/v1\/auth;/);
      const refreshed = await fetch(`${server.url}/svc/pkgscan/api/v1/auth/refresh`, { method: 'POST', headers: { cookie: cookieOf(res) ?? '' } });
      expect(refreshed.status).toBe(200);
      expect((await fetch(`${server.url}/svc/pkgscan/openapi.json`)).status).toBe(200);
    } finally {
      await server.close();
      db.close();
    }
  });
});

describe('rate limits', () => {
  it('limits /auth/* per client more strictly, with Retry-After', async () => {
    const t = await startServer({ rateLimits: { windowMs: 60_000, authPerClient: 3, perClient: 1000, perUser: 1000 } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const r = await call(t, 'POST', '/auth/login', { body: { email: 'x@example.org', password: 'nope nope nope' } });
        statuses.push(r.status);
        if (r.status === 429) retryAfter = r.headers.get('retry-after');
        await r.text();
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await call(t, 'GET', '/health/live')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('signed-in calls such as /auth/me do not spend the strict sign-in bucket', async () => {
    const t = await startServer({ rateLimits: { windowMs: 60_000, authPerClient: 3, perClient: 1000, perUser: 1000 } });
    try {
      await createUser(t, 'read_only', 'me@example.org');
      const sess = await loginAs(t, 'me@example.org');
      const me: number[] = [];
      for (let i = 0; i < 6; i++) me.push((await call(t, 'GET', '/auth/me', { token: sess.token })).status);
      expect(me).toEqual([200, 200, 200, 200, 200, 200]);
      // One login spent, two left for another user on the same address.
      await createUser(t, 'developer', 'other@example.org');
      expect((await loginAs(t, 'other@example.org')).token).not.toBe('');
    } finally {
      await t.close();
    }
  });

  it('counts every 127.x.y.z source address as one client (rotating loopback addresses meets the limit)', async () => {
    const t = await startServer({ rateLimits: { windowMs: 60_000, authPerClient: 3, perClient: 1000, perUser: 1000 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const body = JSON.stringify({ email: `x${i}@example.org`, password: 'nope nope nope' });
          const r = httpRequest({ host: '127.0.0.1', port: new URL(t.url).port, path: '/api/v1/auth/login', method: 'POST', localAddress: `127.0.0.${i + 2}`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          r.on('error', reject);
          r.end(body);
        });
        statuses.push(status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('holds an account after its failed-login limit, whoever sends them, without saying whether it exists', async () => {
    const t = await startServer({ rateLimits: { windowMs: 60_000, authPerClient: 1000, perClient: 1000, perUser: 1000, failedLoginsPerAccount: 3, failedLoginWindowMs: 60_000 } });
    try {
      await createUser(t, 'developer', 'held@example.org');
      const attempt = async (email: string, password: string): Promise<number> => {
        const r = await call(t, 'POST', '/auth/login', { body: { email, password } });
        await r.text();
        return r.status;
      };
      const real: number[] = [];
      const ghost: number[] = [];
      for (let i = 0; i < 4; i++) real.push(await attempt('held@example.org', 'wrong password here'));
      for (let i = 0; i < 4; i++) ghost.push(await attempt('ghost@example.org', 'wrong password here'));
      expect(real).toEqual([401, 401, 401, 429]);
      expect(ghost).toEqual(real);
      // Even the right password waits out the window; another account is untouched.
      expect(await attempt('held@example.org', PASSWORD)).toBe(429);
      await createUser(t, 'developer', 'free@example.org');
      expect(await attempt('free@example.org', PASSWORD)).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('limits per authenticated user', async () => {
    const t = await startServer({ rateLimits: { windowMs: 60_000, authPerClient: 1000, perClient: 1000, perUser: 2 } });
    try {
      await createUser(t, 'read_only', 'ro@example.org');
      const sess = await loginAs(t, 'ro@example.org');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(t, 'GET', '/events', { token: sess.token })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('operations', () => {
  it('health: live ok; ready ok with the shipped model, degraded (not unready) without one', async () => {
    expect(await json<{ status: string }>(await call(s, 'GET', '/health/live'))).toEqual({ status: 'ok' });
    const ready = await call(s, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    const body = await json<{ status: string; checks: Record<string, { status: string }> }>(ready);
    expect(body.status).toBe('ok');
    expect(body.checks['database']?.status).toBe('ok');
    expect(body.checks['model']?.status).toBe('ok');
    const without = readiness({ ...s.platform, dataDir: '', resourcesDir: path.join(tmpdir(), 'no-such-resources') });
    expect(without.status).toBe('degraded');
    expect(without.checks['model']?.status).toBe('missing');
  });

  it('metrics: Prometheus text with route templates, never concrete paths', async () => {
    await call(s, 'POST', `/events/${FAKE_ID}/ack`, { token: by.admin.token });
    const text = await (await call(s, 'GET', '/metrics')).text();
    expect(text).toMatch(/# TYPE pkgscan_http_requests_total counter/);
    expect(text).toContain('route="/events/:id/ack"');
    expect(text).not.toContain(FAKE_ID);
  });

  it('metrics need the METRICS_TOKEN bearer when it is configured; production hides /docs and /redoc', async () => {
    const t = await startServer({ metricsToken: 'metrics-secret-token', environment: 'production' });
    try {
      expect((await call(t, 'GET', '/metrics')).status).toBe(401);
      expect((await call(t, 'GET', '/metrics', { token: 'wrong' })).status).toBe(401);
      expect((await call(t, 'GET', '/metrics', { token: 'metrics-secret-token' })).status).toBe(200);
      expect((await fetch(`${t.url}/docs/`)).status).toBe(404);
      expect((await fetch(`${t.url}/redoc`)).status).toBe(404);
      expect((await fetch(`${t.url}/openapi.json`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('system info and tools', async () => {
    const info = await json<{ version: string; environment: string; limits: Record<string, number> }>(await call(s, 'GET', '/system/info', { token: by.auditor.token }));
    expect(info.environment).toBe('development');
    expect(info.limits['password_min_length']).toBe(12);
    const tools = await json<{ items: { name: string; kind: string; available: boolean }[] }>(await call(s, 'GET', '/system/tools', { token: by.admin.token }));
    expect(tools.items.map((t) => t.kind)).toEqual(expect.arrayContaining(['rule_matcher', 'static_analyser', 'secret_scanner']));
  });
});

describe('policies, exceptions and events over HTTP', () => {
  it('validates YAML without storing, with lines; creates, updates and activates atomically; all audited', async () => {
    const before = (await json<PageOf<unknown>>(await call(s, 'GET', '/policies', { token: by.read_only.token }))).total;
    const v = await json<{ valid: boolean; errors: { path: string; line?: number }[]; hash: string }>(
      await call(s, 'POST', '/policies/validate', { token: by.developer.token, body: { document: 'version: 1\nthresholds:\n  block_severity: nope\n' } }),
    );
    expect(v.valid).toBe(false);
    expect(v.errors.find((e) => e.path === 'thresholds.block_severity')?.line).toBe(3);
    expect((await json<PageOf<unknown>>(await call(s, 'GET', '/policies', { token: by.read_only.token }))).total).toBe(before);
    const doc = { version: 1, thresholds: { block_severity: 'high', warn_severity: 'medium', block_risk: 0.8, warn_risk: 0.4 } };
    const created = await call(s, 'POST', '/policies', { token: by.admin.token, body: { name: 'team-prod', environment: 'prod', document: doc } });
    expect(created.status).toBe(201);
    const p = await json<{ id: string; active: boolean; hash: string }>(created);
    expect(p.active).toBe(false);
    const bad = await call(s, 'PUT', `/policies/${p.id}`, { token: by.admin.token, body: { document: 'version: 1\nthresholds: 3\n' } });
    expect(bad.status).toBe(422);
    expect((await json<{ error: { details: { issue: string }[] } }>(bad)).error.details[0]?.issue).toMatch(/line 2/);
    const act = await call(s, 'POST', `/policies/${p.id}/activate`, { token: by.admin.token });
    expect(act.status).toBe(200);
    await text(act);
    const active = await json<{ id: string }>(await call(s, 'GET', '/policies/active?environment=prod', { token: by.auditor.token }));
    expect(active.id).toBe(p.id);
    const all = await json<PageOf<{ environment: string; active: boolean }>>(await call(s, 'GET', '/policies?environment=prod', { token: by.auditor.token }));
    expect(all.items.filter((x) => x.active)).toHaveLength(1);
    expect((await call(s, 'GET', '/policies/active?environment=nowhere', { token: by.auditor.token })).status).toBe(404);
    const copy = await call(s, 'POST', '/policies', { token: by.admin.token, body: { name: 'copy', environment: 'staging' } });
    expect(copy.status).toBe(201);
    await text(copy);
    const actions = (await json<PageOf<AuditEntry>>(await call(s, 'GET', '/audit?action_prefix=policy.&limit=10', { token: by.auditor.token }))).items.map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(['policy.create', 'policy.activate', 'policy.create']);
  });

  it('exceptions: request, self-approval refused with 403, approved by another, listed with status', async () => {
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const req = await call(s, 'POST', '/policies/exceptions', {
      token: by.security_analyst.token,
      body: { ecosystem: 'npm', package: 'left-pad', version_range: '^1.3.0', scope: 'finding:install_script', justification: 'vendored and reviewed', expires_at: expires },
    });
    expect(req.status).toBe(201);
    const e = await json<{ id: string; status: string }>(req);
    expect(e.status).toBe('pending');
    const self = await call(s, 'POST', `/policies/exceptions/${e.id}/approve`, { token: by.security_analyst.token });
    expect(self.status).toBe(403);
    await text(self);
    const badRange = await call(s, 'POST', '/policies/exceptions', {
      token: by.developer.token,
      body: { ecosystem: 'pypi', package: 'requests', version_range: '=>2', scope: 'package', justification: 'vendored and reviewed', expires_at: expires },
    });
    expect(badRange.status).toBe(422);
    expect((await json<{ error: { details: { path: string; issue: string }[] } }>(badRange)).error.details).toEqual([
      { path: 'version_range', issue: 'not a version range in the syntax of this ecosystem' },
    ]);
    const ok = await json<{ status: string; decided_by: string }>(await call(s, 'POST', `/policies/exceptions/${e.id}/approve`, { token: by.admin.token }));
    expect(ok).toMatchObject({ status: 'approved', decided_by: by.admin.id });
    const again = await call(s, 'POST', `/policies/exceptions/${e.id}/approve`, { token: by.admin.token });
    expect(again.status).toBe(409);
    await text(again);
    const list = await json<PageOf<{ id: string; status: string; expires_at: string }>>(await call(s, 'GET', '/policies/exceptions?status=approved', { token: by.read_only.token }));
    expect(list.items.find((x) => x.id === e.id)?.expires_at).toBe(expires);
  });

  it('events: filter and idempotent acknowledgement keeping the first acknowledger', async () => {
    const { publishEvent } = await import('./events/publish.js');
    const ev = await publishEvent(s.platform.store, { type: 'behavior_drift_detected', severity: 'high', package: 'npm/evil' });
    const list = await json<PageOf<{ id: string }>>(await call(s, 'GET', '/events?type=behavior_drift_detected&acknowledged=false', { token: by.read_only.token }));
    expect(list.items.map((x) => x.id)).toContain(ev.id);
    const first = await json<{ acknowledged_by: string }>(await call(s, 'POST', `/events/${ev.id}/ack`, { token: by.security_analyst.token }));
    const second = await json<{ acknowledged_by: string }>(await call(s, 'POST', `/events/${ev.id}/ack`, { token: by.admin.token }));
    expect(first.acknowledged_by).toBe(by.security_analyst.id);
    expect(second.acknowledged_by).toBe(by.security_analyst.id);
    const acks = await json<PageOf<AuditEntry>>(await call(s, 'GET', '/audit?action=event.ack', { token: by.auditor.token }));
    expect(acks.items.filter((a) => a.details['event_id'] === ev.id)).toHaveLength(1);
    expect((await call(s, 'GET', '/events?since=yesterday', { token: by.read_only.token })).status).toBe(400);
  });

  it('the audit chain of everything above verifies, with its head hash', async () => {
    const v = await json<{ ok: boolean; head_hash: string; count: number }>(await call(s, 'GET', '/audit/verify', { token: by.auditor.token }));
    expect(v.ok).toBe(true);
    expect(v.count).toBe(await s.platform.audit.total());
    expect(v.head_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('nothing secret leaves the service', () => {
  it('no response body of this suite holds a password, hash, refresh token, signing key or file path', () => {
    const key = (s.platform.db.prepare("SELECT secret FROM pkgscan_keys WHERE name = 'jwt-hs256'").get() as { secret: Buffer }).secret;
    const refresh = by.admin.cookie.replace('pkgscan_refresh=', '');
    const all = bodies.join('\n');
    expect(bodies.length).toBeGreaterThan(100);
    for (const needle of [PASSWORD, 'scrypt$', refresh, key.toString('hex'), key.toString('base64'), key.toString('base64url'), process.cwd(), '/tmp/', 'node_modules'])
      expect(all.includes(needle), needle.slice(0, 12)).toBe(false);
  });
});
