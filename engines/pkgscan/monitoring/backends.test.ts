// The monitoring repository on both backends (one parameterised suite): the watch list, checks and leases in the async
// store, every change with its audit entry in the same transaction, a lost lease records nothing, a long check renews.
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { leaseHolder } from '../db/leases.js';
import { roundPlatform } from '../db/testing/monitor.fixture.js';
import { createProject } from '../projects/store.js';
import type { PackageSource } from '../sources/types.js';
import { checkPackage, createWatched, deleteWatched, findWatched, getWatched, listChecks, listWatched, updateWatched } from './monitoring.js';

const fixture = backendFixture();

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`monitoring on ${backend.title}`, () => {
    async function platform(): Promise<{ p: ReturnType<typeof roundPlatform>['platform']; deps: ReturnType<typeof roundPlatform>['deps']; asked: string[] }> {
      const b = await fixture.open(backend.name);
      const asked: string[] = [];
      const { platform: p, deps } = roundPlatform(b.url !== undefined ? { databaseUrl: b.url } : {}, asked);
      // The store in use is the backend under test.
      expect(p.store.dialect).toBe(backend.name);
      return { p, deps, asked };
    }

    it('watch (a racing duplicate refused), list, change, check, stop: each change with its audit entry', async () => {
      const { p, deps } = await platform();
      const made = await Promise.allSettled([createWatched(p, { name: 'race-lib' }, 'u1', null), createWatched(p, { name: 'race-lib' }, 'u2', null)]);
      expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(made.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
      const other = await createWatched(p, { name: 'other-lib', poll_interval_seconds: 300 }, 'u1', null);
      // A project id names a project of the same store (the shared one on PostgreSQL); an unknown one is refused.
      await expect(createWatched(p, { name: 'project-lib', project_id: 'no-such-project' }, 'u1', null)).rejects.toMatchObject({
        code: 'validation_failed',
        details: [{ path: 'project_id', issue: 'no such project' }],
      });
      const project = await p.store.transaction((q) => createProject(q, { name: 'watching project' }, 'u1'));
      const withProject = await createWatched(p, { name: 'project-lib', project_id: project.id }, 'u1', null);
      expect(withProject.project_id).toBe(project.id);
      await deleteWatched(p, withProject.id, 'u1', null);
      const w = (await findWatched(p.store, 'npm', 'race-lib')) ?? expect.fail('the watched package is stored');
      expect((await listWatched(p.store, {}, 10, 0)).items.map((x) => x.name)).toEqual(['race-lib', 'other-lib']);
      expect((await listWatched(p.store, { name: 'other-lib' }, 10, 0)).total).toBe(1);

      const changed = await updateWatched(p, w.id, { poll_interval_seconds: 600, approved_version: '1.0.0' }, 'u1', 'req-1');
      expect(changed).toMatchObject({ poll_interval_seconds: 600, approved_version: '1.0.0' });
      await updateWatched(p, w.id, { approved_version: null }, 'u1', 'req-1');
      // A watched package without a snapshot takes its baseline: the fixed source holds no archive, so this check fails
      // (recorded as an error with back-off); the seeded packages of the round tests take the unchanged path.
      const c = await checkPackage(p, deps, other.id, 'u1', { trigger: 'manual', audit: true, requestId: 'req-2' });
      expect(c).toMatchObject({ result: 'error', consecutive_failures: 1, trigger: 'manual' });
      expect(c.events).toHaveLength(1);
      const checks = await listChecks(p.store, other.id, 10, 0);
      expect(checks.total).toBe(1);
      expect(checks.items[0]?.id).toBe(c.id);
      expect(await getWatched(p.store, other.id)).toMatchObject({ failing: true, last_result: 'error', consecutive_failures: 1 });

      await deleteWatched(p, other.id, 'u1', null);
      expect(await getWatched(p.store, other.id)).toBeUndefined();
      expect((await listChecks(p.store, other.id, 10, 0)).total).toBe(0);
      await expect(deleteWatched(p, other.id, 'u1', null)).rejects.toMatchObject({ code: 'not_found' });

      const audit = await p.audit.page({}, 100, 0);
      const mine = audit.items.filter((e) => e.action.startsWith('monitor.')).map((e) => [e.action, e.details['package_id']]);
      expect(mine.sort()).toEqual(
        [
          ['monitor.check', other.id],
          ['monitor.create', other.id],
          ['monitor.create', w.id],
          ['monitor.create', withProject.id],
          ['monitor.delete', other.id],
          ['monitor.delete', withProject.id],
          ['monitor.update', w.id],
          ['monitor.update', w.id],
        ].sort(),
      );
      expect(await p.audit.verifyChain()).toMatchObject({ ok: true });
    });

    it('a check whose lease is taken meanwhile answers but records nothing; a held lease refuses a second check', async () => {
      const { p, deps } = await platform();
      const w = await createWatched(p, { name: 'stolen-lib' }, 'u1', null);
      let during: Promise<unknown> = Promise.resolve();
      const stealing: PackageSource = {
        name: 'fixed',
        ecosystems: ['npm'],
        versions: async () => {
          // While this check runs: a second check is refused, then another worker takes the lease over.
          during = checkPackage(p, deps, w.id, 'u2').then(
            () => 'checked',
            (err: unknown) => (err as { code?: string }).code,
          );
          await during;
          await p.store.run("UPDATE pkgscan_monitored SET claimed_by = 'thief' WHERE id = ?", [w.id]);
          return ['1.0.0'];
        },
        fetch: () => Promise.resolve(null),
      };
      const c = await checkPackage(p, { ...deps, sources: () => [stealing] }, w.id, 'u1', { audit: true });
      expect(await during).toBe('conflict');
      expect(c.events).toEqual([]);
      expect((await listChecks(p.store, w.id, 10, 0)).total).toBe(0);
      expect(await getWatched(p.store, w.id)).toMatchObject({ last_check_at: null, last_result: null });
      expect(await leaseHolder(p.store, w.id)).toMatchObject({ owner: 'thief' });
      const audited = (await p.audit.page({ action: 'monitor.check' }, 10, 0)).items;
      expect(audited.map((e) => e.details['recorded'])).toEqual([false]);
    });

    it('a check running longer than its lease renews it and is recorded', async () => {
      const { p, deps } = await platform();
      const w = await createWatched(p, { name: 'slow-lib' }, 'u1', null);
      await p.store.run('UPDATE pkgscan_monitored SET snapshot_json = ? WHERE id = ?', [JSON.stringify({ versions: ['1.0.0'], newest: '1.0.0', maintainers: [], sources: ['fixed'], seen_at: w.created_at }), w.id]);
      const leaseMs = 1500;
      const seen: string[] = [];
      const slow: PackageSource = {
        name: 'fixed',
        ecosystems: ['npm'],
        versions: async () => {
          // Wait (event-driven, no timing assertion) until the lease was renewed twice and the first lease has run out.
          const started = Date.now();
          for (let i = 0; i < 400; i++) {
            const h = await leaseHolder(p.store, w.id);
            if (h !== undefined && !seen.includes(h.until)) seen.push(h.until);
            if (seen.length >= 3 && Date.now() > started + leaseMs) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          return ['1.0.0'];
        },
        fetch: () => Promise.resolve(null),
      };
      const c = await checkPackage(p, { ...deps, sources: () => [slow] }, w.id, 'u1', { leaseMs });
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(c.result).toBe('unchanged');
      expect((await listChecks(p.store, w.id, 10, 0)).items.map((x) => x.id)).toEqual([c.id]);
      expect(await leaseHolder(p.store, w.id)).toBeUndefined();
    }, 30_000);
  });
}
