// Security events: publish, filter, acknowledge once (the first acknowledger stays).
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { pkgscanService } from '../service.js';
import { acknowledgeEvent, listEvents } from './events.js';
import { publishEvent } from './publish.js';

function setup() {
  const db = openMemoryStore([pkgscanService]);
  publishEvent(db, { type: 'new_release_detected', severity: 'info', package: 'npm/left-pad', time: '2026-01-01T00:00:00Z' });
  publishEvent(db, { type: 'maintainer_changed', severity: 'high', package: 'npm/left-pad', project: 'web', time: '2026-01-02T00:00:00Z' });
  publishEvent(db, { type: 'sbom_generated', severity: 'low', project: 'web', details: { format: 'cyclonedx' }, time: '2026-01-03T00:00:00Z' });
  return db;
}

describe('events', () => {
  it('filters by type, severity, minimum severity, package, project, time and acknowledgement', () => {
    const db = setup();
    const ids = (f: Parameters<typeof listEvents>[1]): string[] => listEvents(db, f, 50, 0).items.map((e) => e.type);
    expect(ids({})).toEqual(['sbom_generated', 'maintainer_changed', 'new_release_detected']);
    expect(ids({ type: 'maintainer_changed' })).toEqual(['maintainer_changed']);
    expect(ids({ severity: 'low' })).toEqual(['sbom_generated']);
    expect(ids({ minSeverity: 'low' })).toEqual(['sbom_generated', 'maintainer_changed']);
    expect(ids({ package: 'npm/left-pad', project: 'web' })).toEqual(['maintainer_changed']);
    expect(ids({ since: '2026-01-02T00:00:00Z', until: '2026-01-02T12:00:00+00:00' })).toEqual(['maintainer_changed']);
    expect(ids({ acknowledged: false })).toHaveLength(3);
    expect(listEvents(db, {}, 1, 1)).toMatchObject({ total: 3, limit: 1, offset: 1, items: [{ type: 'maintainer_changed' }] });
  });

  it('acknowledging twice keeps the first acknowledger', () => {
    const db = setup();
    const id = listEvents(db, { type: 'maintainer_changed' }, 1, 0).items[0]?.id as string;
    const first = acknowledgeEvent(db, id, 'alice');
    expect(first.changed).toBe(true);
    const second = acknowledgeEvent(db, id, 'bob');
    expect(second.changed).toBe(false);
    expect(second.event).toMatchObject({ acknowledged: true, acknowledged_by: 'alice', acknowledged_at: first.event.acknowledged_at });
    expect(() => acknowledgeEvent(db, '00000000-0000-4000-8000-000000000000', 'bob')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('publish validates its input without echoing it', () => {
    const db = setup();
    expect(() => publishEvent(db, { type: 'Bad Type!', severity: 'high' })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => publishEvent(db, { type: 'x_y', severity: 'high', details: { blob: 'a'.repeat(20_000) } })).toThrow(/too large/);
  });
});
