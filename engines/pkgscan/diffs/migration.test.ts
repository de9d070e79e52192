// Migration 11 applies after the service's own and keeps one row per package, version pair and analyzer version.
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { migrations } from '../store.js';
import { diffMigration } from './migration.js';

describe('diff migration', () => {
  it('creates pkgscan_diffs with the uniqueness the repeat relies on', () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations: [...migrations.filter((m) => m.version !== 11), diffMigration] }]);
    const ins = db.prepare(
      "INSERT INTO pkgscan_diffs (id, ecosystem, name, from_version, to_version, analyzer_version, escalated, maintainers_changed, risk_from, risk_to, new_findings, created_by, created_at, diff_json) VALUES (?, 'npm', 'a', '1', '2', ?, 0, 0, 0, 0, 0, 'x', '2026-01-01T00:00:00Z', '{}')",
    );
    ins.run('d1', 'rules@1');
    expect(() => ins.run('d2', 'rules@1')).toThrow(/UNIQUE/);
    ins.run('d3', 'rules@2');
    expect((db.prepare('SELECT COUNT(*) AS n FROM pkgscan_diffs').get() as { n: number }).n).toBe(2);
    db.close();
  });
});
