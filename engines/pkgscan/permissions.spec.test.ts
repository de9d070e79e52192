// The route-to-permission matrix of the package-scanning spec (part 1, "Routes" tables and "Authentication" 5),
// transcribed here by hand as literals: the oracle is the spec, not the route table of the code under test.
// Every spec route must be in the router with the spec's permission, and over HTTP exactly as many roles must pass
// each route as the spec says hold its permission group (which roles is the service's choice, so the test checks the
// count and that every route of one group admits the same roles).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../core/contracts/pkgscan.js';
import { ROLES } from './auth/roles.js';
import { routeTable } from './http.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from './server.fixture.js';

/** [method, path, access] as the spec's route tables write them. */
const SPEC_ROUTES: readonly (readonly [string, string, string])[] = [
  ['POST', '/auth/login', 'public'],
  ['POST', '/auth/refresh', 'refresh cookie'],
  ['POST', '/auth/logout', 'refresh cookie'],
  ['GET', '/auth/me', 'authenticated'],
  ['POST', '/auth/register', 'user:manage'],
  ['POST', '/scans', 'scan:create'],
  ['GET', '/scans', 'scan:read'],
  ['GET', '/scans/{scan_id}', 'scan:read'],
  ['GET', '/scans/stats/overview', 'scan:read'],
  ['GET', '/policies', 'policy:read'],
  ['POST', '/policies', 'policy:write'],
  ['PUT', '/policies/{policy_id}', 'policy:write'],
  ['POST', '/policies/{policy_id}/activate', 'policy:write'],
  ['GET', '/policies/active', 'policy:read'],
  ['POST', '/policies/validate', 'policy:read'],
  ['GET', '/policies/exceptions', 'policy:read'],
  ['POST', '/policies/exceptions', 'exception:request'],
  ['POST', '/policies/exceptions/{id}/approve', 'exception:approve'],
  ['POST', '/policies/exceptions/{id}/reject', 'exception:approve'],
  ['POST', '/policies/exceptions/{id}/revoke', 'exception:approve'],
  ['GET', '/events', 'event:read'],
  ['POST', '/events/{event_id}/ack', 'event:ack'],
  ['GET', '/audit', 'audit:read'],
  ['GET', '/audit/verify', 'audit:read'],
  ['GET', '/users', 'user:manage'],
  ['PATCH', '/users/{user_id}', 'user:manage'],
  ['GET', '/system/info', 'system:read'],
  ['GET', '/system/tools', 'system:read'],
  ['GET', '/ml/model', 'ml:read'],
  ['GET', '/ml/drift', 'ml:read'],
  ['GET', '/health/live', 'public'],
  ['GET', '/health/ready', 'public'],
  ['GET', '/metrics', 'optional bearer'],
  ['GET', '/packages/{ecosystem}/{name}', 'scan:read'],
  ['GET', '/vulnerabilities', 'vuln:read'],
  ['GET', '/vulnerabilities/lookup', 'vuln:read'],
  ['GET', '/vulnerabilities/{vuln_id}', 'vuln:read'],
  ['POST', '/projects', 'project:write'],
  ['GET', '/projects', 'project:read'],
  ['GET', '/projects/{project_id}', 'project:read'],
  ['POST', '/projects/{project_id}/scans', 'project:write'],
  ['GET', '/projects/{project_id}/scans', 'project:read'],
  ['GET', '/projects/{project_id}/scans/{scan_id}', 'project:read'],
  ['GET', '/projects/{project_id}/scans/{scan_id}/components', 'project:read'],
  ['GET', '/projects/{project_id}/scans/{scan_id}/graph', 'project:read'],
  ['GET', '/projects/{project_id}/scans/{scan_id}/sbom', 'project:read'],
  ['POST', '/diffs', 'diff:create'],
  ['GET', '/diffs', 'scan:read'],
  ['GET', '/diffs/{diff_id}', 'scan:read'],
  ['POST', '/containers/scans', 'container:scan'],
  ['GET', '/containers/scans', 'scan:read'],
  ['GET', '/containers/scans/{scan_id}', 'scan:read'],
  ['GET', '/containers/scans/{scan_id}/sbom', 'scan:read'],
  ['POST', '/monitoring/packages', 'monitor:write'],
  ['GET', '/monitoring/packages', 'monitor:read'],
  ['GET', '/monitoring/packages/{package_id}', 'monitor:read'],
  ['PATCH', '/monitoring/packages/{package_id}', 'monitor:write'],
  ['DELETE', '/monitoring/packages/{package_id}', 'monitor:write'],
  ['POST', '/monitoring/packages/{package_id}/check', 'monitor:write'],
];

/** "Authentication" 5: how many of the five roles hold each permission group (project:read: not shown). */
const ROLES_HOLDING: Readonly<Record<string, number>> = {
  'scan:create': 3, 'project:write': 3, 'container:scan': 3, 'diff:create': 3,
  'scan:read': 5, 'policy:read': 5, 'event:read': 5, 'monitor:read': 5, 'ml:read': 5, 'report:read': 5, 'vuln:read': 5,
  'exception:request': 3,
  'exception:approve': 2, 'event:ack': 2, 'monitor:write': 2,
  'audit:read': 2, 'system:read': 2,
  'policy:write': 1, 'user:manage': 1, 'system:write': 1,
};

/** The spec's words for non-permission access, as the route table names them. */
const ACCESS_WORD: Readonly<Record<string, string>> = { public: 'public', 'refresh cookie': 'refresh_cookie', 'optional bearer': 'metrics', authenticated: 'authenticated' };
const shape = (p: string): string => p.replace(/\{[a-z_]+\}|:[a-z_]+/g, '{}');
const FAKE_ID = '00000000-0000-4000-8000-000000000000';
const concrete = (p: string): string => p.replace(/\{[a-z_]+\}/g, FAKE_ID);

let s: TestServer;
let by: Record<Role, Session>;
beforeAll(async () => {
  s = await startServer();
  by = await sessionsByRole(s);
});
afterAll(async () => {
  await s.close();
});

describe('the spec route matrix', () => {
  it('is transcribed whole (59 routes, no duplicates)', () => {
    expect(SPEC_ROUTES).toHaveLength(59);
    expect(new Set(SPEC_ROUTES.map(([m, p]) => `${m} ${shape(p)}`)).size).toBe(59);
  });

  it('every spec route is in the router with the spec permission', () => {
    const table = new Map(routeTable(s.platform).map((r) => [`${r.method.toUpperCase()} ${shape(r.path)}`, String(r.access)]));
    const wrong: string[] = [];
    for (const [method, path, access] of SPEC_ROUTES) {
      const got = table.get(`${method} ${shape(path)}`);
      const want = ACCESS_WORD[access] ?? access;
      if (got !== want) wrong.push(`${method} ${path}: spec ${want}, router ${got ?? 'missing'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('over HTTP, each permission group admits exactly the spec count of roles, the same roles on every route of the group', async () => {
    const admitted = new Map<string, string>();
    const wrong: string[] = [];
    let walked = 0;
    for (const [method, path, access] of SPEC_ROUTES) {
      if (access === 'public' || access === 'refresh cookie' || access === 'optional bearer') continue;
      const url = concrete(path);
      const anonymous = await call(s, method, url);
      await anonymous.arrayBuffer();
      if (anonymous.status !== 401) wrong.push(`${method} ${path} without a token: ${anonymous.status}`);
      const passing: Role[] = [];
      for (const role of ROLES) {
        const res = await call(s, method, url, { token: by[role].token });
        await res.arrayBuffer();
        if (res.status !== 401 && res.status !== 403) passing.push(role);
      }
      walked += 1;
      const want = access === 'authenticated' ? 5 : ROLES_HOLDING[access];
      if (want !== undefined && passing.length !== want) wrong.push(`${method} ${path} (${access}): ${passing.length} roles pass, spec says ${want}`);
      const key = passing.join(',');
      const before = admitted.get(access);
      if (before === undefined) admitted.set(access, key);
      else if (before !== key) wrong.push(`${method} ${path} (${access}) admits ${key}, another ${access} route admits ${before}`);
    }
    expect(walked).toBe(53);
    expect(wrong).toEqual([]);
  });
});
