// Migration 12 applies after the service's own: one watched row per package, the interval limits, checks removed with their package.
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { migrations } from '../store.js';
import { monitoringMigration } from './migration.js';

describe('monitoring migration', () => {
  it('creates the tables with the uniqueness and limits the routes rely on', () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations: [...migrations.filter((m) => m.version !== 12), monitoringMigration] }]);
    expect((db.prepare("SELECT version FROM schema_migrations WHERE service = 'pkgscan' AND version = 12").get() as { version: number } | undefined)?.version).toBe(12);
    const ins = db.prepare("INSERT INTO pkgscan_monitored (id, ecosystem, name, poll_interval_seconds, next_check_at, created_by, created_at, updated_at) VALUES (?, 'npm', ?, ?, 't', 'x', 't', 't')");
    ins.run('w1', 'a', 300);
    expect(() => ins.run('w2', 'a', 300)).toThrow(/UNIQUE/);
    expect(() => ins.run('w3', 'b', 299)).toThrow(/CHECK/);
    expect(() => ins.run('w4', 'c', 604_801)).toThrow(/CHECK/);
    ins.run('w5', 'd', 604_800);
    db.prepare("INSERT INTO pkgscan_monitor_checks (id, package_id, checked_at, result, check_json) VALUES ('c1', 'w1', 't', 'baseline', '{}')").run();
    expect(() => db.prepare("INSERT INTO pkgscan_monitor_checks (id, package_id, checked_at, result, check_json) VALUES ('c2', 'nope', 't', 'baseline', '{}')").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM pkgscan_monitored WHERE id = 'w1'").run();
    expect((db.prepare('SELECT COUNT(*) AS n FROM pkgscan_monitor_checks').get() as { n: number }).n).toBe(0);
    db.close();
  });
});
