// The identity, users, audit and operations routes on both backends (one parameterised suite). On PostgreSQL two
// servers share the database: a session, a lock-out, a reused refresh token or a demotion on one is seen on the other.
import { describe, expect, it } from 'vitest';
import type { AuditVerification, PageOf, TokenResponse, User } from '../../core/contracts/pkgscan.js';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import type { PkgscanConfig } from '../config.js';
import { call, cookieOf, createUser, PASSWORD, startServer, type TestServer } from '../server.fixture.js';

const fixture = backendFixture();
const LIMITS = { windowMs: 60_000, authPerClient: 10_000, perClient: 10_000, perUser: 10_000, failedLoginsPerAccount: 3, failedLoginWindowMs: 60_000 };

async function json<T>(r: Response): Promise<T> {
  return (await r.json()) as T;
}

async function login(s: TestServer, email: string, password = PASSWORD): Promise<Response> {
  return call(s, 'POST', '/auth/login', { body: { email, password } });
}

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`routes on ${backend.title}`, () => {
    /** Two servers: on PostgreSQL both on one database; on SQLite the embedded default has one server, used twice. */
    async function servers(limits: PkgscanConfig['rateLimits'] = LIMITS): Promise<{ one: TestServer; two: TestServer; close(): Promise<void> }> {
      const b = await fixture.open(backend.name);
      const config: Partial<PkgscanConfig> = { rateLimits: limits, ...(b.url !== undefined ? { databaseUrl: b.url } : {}) };
      const one = await startServer(config);
      const two = backend.name === 'postgres' ? await startServer(config) : one;
      return {
        one,
        two,
        close: async () => {
          await one.close();
          if (two !== one) await two.close();
        },
      };
    }

    it('a session from one server works on the other; a refresh token reused there revokes the family everywhere', async () => {
      const { one, two, close } = await servers();
      try {
        await createUser(one, 'admin', 'root@example.org');
        const first = await login(one, 'root@example.org');
        expect(first.status).toBe(200);
        const body = await json<TokenResponse>(first);
        const cookie = cookieOf(first) ?? '';
        expect((await call(two, 'GET', '/auth/me', { token: body.access_token })).status).toBe(200);
        const rotated = await call(two, 'POST', '/auth/refresh', { headers: { cookie } });
        expect(rotated.status).toBe(200);
        const next = await json<TokenResponse>(rotated);
        // The old cookie again, on the first server: theft; every session of the family ends on both servers.
        expect((await call(one, 'POST', '/auth/refresh', { headers: { cookie } })).status).toBe(401);
        expect((await call(two, 'GET', '/auth/me', { token: next.access_token })).status).toBe(401);
        expect((await call(one, 'GET', '/auth/me', { token: body.access_token })).status).toBe(401);
        const again = await json<TokenResponse>(await login(two, 'root@example.org'));
        const audit = await json<PageOf<{ action: string }>>(await call(one, 'GET', '/audit?action_prefix=auth.', { token: again.access_token }));
        expect(audit.items.map((e) => e.action)).toEqual(['auth.login', 'auth.refresh_reuse_detected', 'auth.refresh', 'auth.login']);
        const verified = await json<AuditVerification>(await call(two, 'GET', '/audit/verify', { token: again.access_token }));
        expect(verified).toMatchObject({ ok: true, missing_triggers: [] });
        // The seeded policies' entries (queued on PostgreSQL) are in the one chain as well.
        expect(verified.count).toBeGreaterThan(4);
      } finally {
        await close();
      }
    });

    it('a lock-out set through one server holds on the other', async () => {
      const { one, two, close } = await servers();
      try {
        await createUser(one, 'developer', 'held@example.org');
        const statuses: number[] = [];
        for (const s of [one, two, one, two]) statuses.push((await login(s, 'held@example.org', 'wrong password here')).status);
        expect(statuses).toEqual([401, 401, 401, 429]);
        const held = await login(one, 'held@example.org');
        expect(held.status).toBe(429);
        expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        await close();
      }
    });

    it('the per-user and per-client request buckets count the requests of both servers together', async () => {
      const { one, two, close } = await servers({ ...LIMITS, perUser: 4, authPerClient: 6 });
      try {
        await createUser(one, 'developer', 'busy@example.org');
        const token = (await json<TokenResponse>(await login(one, 'busy@example.org'))).access_token;
        const statuses: number[] = [];
        for (const s of [one, two, one, two, one]) statuses.push((await call(s, 'GET', '/auth/me', { token })).status);
        expect(statuses).toEqual([200, 200, 200, 200, 429]);
        const held = await call(two, 'GET', '/auth/me', { token });
        expect(held.status).toBe(429);
        expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
        // Credential routes: one login above, then five more through either server; the seventh is refused.
        const logins: number[] = [];
        for (const [i, s] of [two, one, two, one, two, one].entries()) logins.push((await login(s, `nobody${i}@example.org`, 'wrong password here')).status);
        expect(logins).toEqual([401, 401, 401, 401, 401, 429]);
      } finally {
        await close();
      }
    });

    it('users: list and filter; a deactivation on one server ends the session on the other; the last admin stays', async () => {
      const { one, two, close } = await servers();
      try {
        await createUser(one, 'admin', 'root@example.org');
        const devId = await createUser(one, 'developer', 'dev@example.org');
        const admin = await json<TokenResponse>(await login(one, 'root@example.org'));
        const dev = await json<TokenResponse>(await login(two, 'dev@example.org'));
        const list = await json<PageOf<User>>(await call(two, 'GET', '/users?email=DEV&limit=10', { token: admin.access_token }));
        expect(list.items.map((u) => u.email)).toEqual(['dev@example.org']);
        const off = await call(one, 'PATCH', `/users/${devId}`, { token: admin.access_token, body: { active: false } });
        expect(off.status).toBe(200);
        expect((await call(two, 'GET', '/auth/me', { token: dev.access_token })).status).toBe(401);
        const last = await call(two, 'PATCH', `/users/${admin.user.id}`, { token: admin.access_token, body: { role: 'auditor' } });
        expect(last.status).toBe(409);
        const updates = await json<PageOf<{ details: Record<string, unknown> }>>(await call(two, 'GET', '/audit?action=user.update', { token: admin.access_token }));
        expect(updates.total).toBe(1);
        expect(updates.items[0]?.details).toMatchObject({ user_id: devId, active: { from: true, to: false } });
      } finally {
        await close();
      }
    });

    it('policies: activations racing through both servers leave one active policy; an exception approved on one server by another user, once', async () => {
      const { one, two, close } = await servers();
      try {
        await createUser(one, 'admin', 'root@example.org');
        await createUser(one, 'security_analyst', 'analyst@example.org');
        const admin = (await json<TokenResponse>(await login(one, 'root@example.org'))).access_token;
        const analyst = (await json<TokenResponse>(await login(two, 'analyst@example.org'))).access_token;
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) {
          const made = await call(i % 2 === 0 ? one : two, 'POST', '/policies', { token: admin, body: { name: `racer-${i}`, environment: 'prod' } });
          expect(made.status).toBe(201);
          ids.push((await json<{ id: string }>(made)).id);
        }
        const statuses = await Promise.all(ids.map(async (id, i) => (await call(i % 2 === 0 ? one : two, 'POST', `/policies/${id}/activate`, { token: admin })).status));
        expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
        for (const s of [one, two]) {
          const prod = await json<PageOf<{ id: string; active: boolean }>>(await call(s, 'GET', '/policies?environment=prod&limit=100', { token: admin }));
          expect(prod.items.filter((x) => x.active)).toHaveLength(1);
          const active = await json<{ id: string }>(await call(s, 'GET', '/policies/active?environment=prod', { token: admin }));
          expect(active.id).toBe(prod.items.find((x) => x.active)?.id);
        }
        const requested = await call(two, 'POST', '/policies/exceptions', {
          token: analyst,
          body: { ecosystem: 'npm', package: 'left-pad', scope: 'package', justification: 'reviewed copy', expires_at: new Date(Date.now() + 86_400_000).toISOString() },
        });
        expect(requested.status).toBe(201);
        const exceptionId = (await json<{ id: string }>(requested)).id;
        expect((await call(one, 'POST', `/policies/exceptions/${exceptionId}/approve`, { token: analyst })).status).toBe(403);
        const approvals = await Promise.all([one, two].map(async (s) => (await call(s, 'POST', `/policies/exceptions/${exceptionId}/approve`, { token: admin })).status));
        expect(approvals.sort()).toEqual([200, 409]);
        const audit = await json<PageOf<{ action: string }>>(await call(one, 'GET', '/audit?action=exception.approve', { token: admin }));
        expect(audit.total).toBe(1);
      } finally {
        await close();
      }
    });

    it('readiness checks the database in use; metrics read the active users from it', async () => {
      const { one, close } = await servers();
      try {
        await createUser(one, 'auditor', 'aud@example.org');
        const ready = await json<{ status: string; checks: Record<string, { status: string }> }>(await call(one, 'GET', '/health/ready'));
        expect(ready.checks['database']?.status).toBe('ok');
        const text = await (await call(one, 'GET', '/metrics')).text();
        expect(text).toMatch(/^pkgscan_users_active 1$/m);
        expect(text).toMatch(/^pkgscan_audit_entries \d+$/m);
        // On PostgreSQL the queued entries of the concerns still on SQLite (the seeded policies) were all written.
        if (backend.name === 'postgres') expect(text).toMatch(/^pkgscan_audit_queue_failures 0$/m);
        else expect(text).not.toContain('pkgscan_audit_queue_failures');
      } finally {
        await close();
      }
    });
  });
}
