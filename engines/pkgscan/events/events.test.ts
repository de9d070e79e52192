// Security events on both backends (one parameterised suite): publish, filter, acknowledge once (the first acknowledger
// stays, also when two servers acknowledge at once).
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import type { AsyncDb } from '../db/types.js';
import { acknowledgeEvent, listEvents, unacknowledgedCount } from './events.js';
import { publishEvent } from './publish.js';

const fixture = backendFixture();

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`events on ${backend.title}`, () => {
    async function setup(): Promise<{ db: AsyncDb; another: () => AsyncDb }> {
      const b = await fixture.open(backend.name);
      const db = b.store;
      await publishEvent(db, { type: 'new_release_detected', severity: 'info', package: 'npm/left-pad', time: '2026-01-01T00:00:00Z' });
      await publishEvent(db, { type: 'maintainer_changed', severity: 'high', package: 'npm/left-pad', project: 'web', time: '2026-01-02T00:00:00Z' });
      await publishEvent(db, { type: 'sbom_generated', severity: 'low', project: 'web', details: { format: 'cyclonedx' }, time: '2026-01-03T00:00:00Z' });
      return { db, another: b.another };
    }

    it('filters by type, severity, minimum severity, package, project, time and acknowledgement', async () => {
      const { db } = await setup();
      const ids = async (f: Parameters<typeof listEvents>[1]): Promise<string[]> => (await listEvents(db, f, 50, 0)).items.map((e) => e.type);
      expect(await ids({})).toEqual(['sbom_generated', 'maintainer_changed', 'new_release_detected']);
      expect(await ids({ type: 'maintainer_changed' })).toEqual(['maintainer_changed']);
      expect(await ids({ severity: 'low' })).toEqual(['sbom_generated']);
      expect(await ids({ minSeverity: 'low' })).toEqual(['sbom_generated', 'maintainer_changed']);
      expect(await ids({ package: 'npm/left-pad', project: 'web' })).toEqual(['maintainer_changed']);
      expect(await ids({ since: '2026-01-02T00:00:00Z', until: '2026-01-02T12:00:00+00:00' })).toEqual(['maintainer_changed']);
      expect(await ids({ acknowledged: false })).toHaveLength(3);
      expect(await listEvents(db, {}, 1, 1)).toMatchObject({ total: 3, limit: 1, offset: 1, items: [{ type: 'maintainer_changed', details: {} }] });
      expect((await listEvents(db, { type: 'sbom_generated' }, 1, 0)).items[0]?.details).toEqual({ format: 'cyclonedx' });
    });

    it('acknowledging twice keeps the first acknowledger', async () => {
      const { db } = await setup();
      const id = (await listEvents(db, { type: 'maintainer_changed' }, 1, 0)).items[0]?.id as string;
      const first = await db.transaction((q) => acknowledgeEvent(q, id, 'alice'));
      expect(first.changed).toBe(true);
      const second = await db.transaction((q) => acknowledgeEvent(q, id, 'bob'));
      expect(second.changed).toBe(false);
      expect(second.event).toMatchObject({ acknowledged: true, acknowledged_by: 'alice', acknowledged_at: first.event.acknowledged_at });
      await expect(db.transaction((q) => acknowledgeEvent(q, '00000000-0000-4000-8000-000000000000', 'bob'))).rejects.toMatchObject({ code: 'not_found' });
      expect(await unacknowledgedCount(db)).toBe(2);
    });

    it('two servers acknowledging one event at once: exactly one changes it', async () => {
      const { db, another } = await setup();
      const id = (await listEvents(db, { type: 'new_release_detected' }, 1, 0)).items[0]?.id as string;
      const other = another();
      const results = await Promise.all([db.transaction((q) => acknowledgeEvent(q, id, 'alice')), other.transaction((q) => acknowledgeEvent(q, id, 'bob'))]);
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      const winner = results.find((r) => r.changed)?.event.acknowledged_by;
      expect(results.map((r) => r.event.acknowledged_by)).toEqual([winner, winner]);
    });

    it('publish validates its input without echoing it', async () => {
      const { db } = await setup();
      await expect(publishEvent(db, { type: 'Bad Type!', severity: 'high' })).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(publishEvent(db, { type: 'x_y', severity: 'high', details: { blob: 'a'.repeat(20_000) } })).rejects.toThrow(/too large/);
      expect((await listEvents(db, {}, 50, 0)).total).toBe(3);
    });
  });
}
