// The release-diff repository on both backends (one parameterised suite): one stored diff per package, version pair
// and analyzer version, decided by the unique key (two servers storing the same diff at once: one inserts, both answer
// the stored one); filters and reads.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ReleaseDiff } from '../../core/contracts/pkgscan-diffs.js';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { getDiff, listDiffs, saveDiff } from './store.js';

const fixture = backendFixture();

/** The fields the repository stores and indexes; the rest of a diff travels in its JSON unchanged. */
function diffOf(name: string, to: string, escalated: boolean, at = '2026-01-01T00:00:00.000Z'): ReleaseDiff {
  const d = {
    id: randomUUID(),
    ecosystem: 'npm',
    name,
    from_version: '1.0.0',
    to_version: to,
    analyzer_version: 'archive@1',
    escalated,
    maintainers: { added: escalated ? ['mallory'] : [], removed: [] },
    risk: { from: 0.1, to: escalated ? 0.8 : 0.1, delta: escalated ? 0.7 : 0 },
    findings: { new: [], gone: [], unchanged: 0 },
    created_by: 'u1',
    created_at: at,
  };
  return d as unknown as ReleaseDiff;
}

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`release diffs on ${backend.title}`, () => {
    it('the same diff stored through two servers at once: one row, both answer it', async () => {
      const b = await fixture.open(backend.name);
      const [x, y] = [diffOf('racer', '1.1.0', true), diffOf('racer', '1.1.0', true)];
      const other = b.another();
      const saved = await Promise.all([b.store.transaction((q) => saveDiff(q, x)), other.transaction((q) => saveDiff(q, y))]);
      expect(saved.map((s) => s.inserted).sort()).toEqual([false, true]);
      const winner = saved.find((s) => s.inserted)?.diff.id;
      expect(saved.map((s) => s.diff.id)).toEqual([winner, winner]);
      expect((await listDiffs(b.store, { name: 'racer' }, 10, 0)).total).toBe(1);
      expect((await getDiff(other, winner ?? ''))?.to_version).toBe('1.1.0');
    });

    it('filters by package, ecosystem and drift, newest first; an unknown id reads nothing', async () => {
      const b = await fixture.open(backend.name);
      await b.store.transaction((q) => saveDiff(q, diffOf('calm', '1.1.0', false, '2026-01-01T00:00:00.000Z')));
      await b.store.transaction((q) => saveDiff(q, diffOf('calm', '1.2.0', true, '2026-01-02T00:00:00.000Z')));
      await b.store.transaction((q) => saveDiff(q, diffOf('other', '2.0.0', false, '2026-01-03T00:00:00.000Z')));
      const calm = await listDiffs(b.store, { name: 'calm' }, 10, 0);
      expect(calm.items.map((d) => [d.to_version, d.escalated, d.maintainers_changed])).toEqual([
        ['1.2.0', true, true],
        ['1.1.0', false, false],
      ]);
      expect((await listDiffs(b.store, { driftOnly: true }, 10, 0)).items.map((d) => d.name)).toEqual(['calm']);
      expect((await listDiffs(b.store, { ecosystem: 'pypi' }, 10, 0)).total).toBe(0);
      expect((await listDiffs(b.store, {}, 1, 1)).items).toHaveLength(1);
      expect(await getDiff(b.store, randomUUID())).toBeUndefined();
    });
  });
}
