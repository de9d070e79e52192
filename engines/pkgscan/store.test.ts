// Each pkgscan migration, from the schema the one before left, with rows carried over.
import { describe, expect, it } from 'vitest';
import { migrateTo, storeAtVersion } from '../core/store.js';
import { migrations } from './store.js';

const tables = (db: ReturnType<typeof storeAtVersion>): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'pkgscan_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('pkgscan migrations', () => {
  it('1 creates users, refresh tokens and keys; the role check refuses unknown roles', () => {
    const db = storeAtVersion('pkgscan', migrations, 1);
    expect(tables(db)).toEqual(['pkgscan_keys', 'pkgscan_refresh_tokens', 'pkgscan_users']);
    db.prepare("INSERT INTO pkgscan_users VALUES ('u1', 'a@b.c', 'h', 'admin', 1, 't', 't')").run();
    expect(() => db.prepare("INSERT INTO pkgscan_users VALUES ('u2', 'A@B.C', 'h', 'admin', 1, 't', 't')").run()).toThrow();
    expect(() => db.prepare("INSERT INTO pkgscan_users VALUES ('u3', 'x@b.c', 'h', 'root', 1, 't', 't')").run()).toThrow();
  });

  it('2 adds the audit chain, append-only, keeping users', () => {
    const db = storeAtVersion('pkgscan', migrations, 1);
    db.prepare("INSERT INTO pkgscan_users VALUES ('u1', 'a@b.c', 'h', 'admin', 1, 't', 't')").run();
    migrateTo(db, 'pkgscan', migrations, 2);
    expect(tables(db)).toContain('pkgscan_audit');
    expect(db.prepare('SELECT COUNT(*) AS n FROM pkgscan_users').get()).toEqual({ n: 1 });
    expect(() => db.prepare("INSERT INTO pkgscan_audit VALUES (5, 't', 'k', 'a', '{}', 'x', 'y')").run()).toThrow(/append-only/);
  });

  it('3 adds security events', () => {
    const db = storeAtVersion('pkgscan', migrations, 2);
    migrateTo(db, 'pkgscan', migrations, 3);
    db.prepare("INSERT INTO pkgscan_events (id, type, severity, created_at) VALUES ('e', 'monitor_error', 'high', 't')").run();
    expect(() => db.prepare("INSERT INTO pkgscan_events (id, type, severity, created_at) VALUES ('f', 'x', 'fatal', 't')").run()).toThrow();
  });

  it('4 adds policies (one active per environment) and exceptions', () => {
    const db = storeAtVersion('pkgscan', migrations, 3);
    db.prepare("INSERT INTO pkgscan_events (id, type, severity, created_at) VALUES ('e', 'monitor_error', 'high', 't')").run();
    migrateTo(db, 'pkgscan', migrations, 4);
    expect(db.prepare('SELECT COUNT(*) AS n FROM pkgscan_events').get()).toEqual({ n: 1 });
    const ins = db.prepare("INSERT INTO pkgscan_policies (id, name, environment, active, document_json, hash, created_by, created_at, updated_at) VALUES (?, 'n', 'prod', ?, '{}', 'h', 's', 't', 't')");
    ins.run('p1', 1);
    ins.run('p2', 0);
    expect(() => ins.run('p3', 1)).toThrow();
  });

  it('5 adds the lookup cache', () => {
    const db = storeAtVersion('pkgscan', migrations, 4);
    migrateTo(db, 'pkgscan', migrations, 5);
    expect(tables(db)).toContain('pkgscan_cache');
  });
});
