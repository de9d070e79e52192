// Tests for the store: pragmas, the migration table, ordered and idempotent migrations, refusals, and the per-migration pattern.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VitrineError } from './errors.js';
import type { Migration } from './service.js';
import { appliedMigrations, checkMigrations, migrateTo, openMemoryStore, openStore, schemaVersion, storeAtVersion } from './store.js';

const notes: Migration[] = [
  {
    version: 1,
    name: 'notes table',
    up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'),
  },
  {
    version: 2,
    name: 'notes.author',
    up: (db) => db.exec("ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT 'unknown'"),
  },
  {
    version: 3,
    name: 'tags referencing notes',
    up: (db) => db.exec('CREATE TABLE tags (note_id INTEGER NOT NULL REFERENCES notes(id), tag TEXT NOT NULL)'),
  },
];

const open: Database[] = [];
const dirs: string[] = [];
function track(db: Database): Database {
  open.push(db);
  return db;
}
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tables(db: Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof VitrineError) return err.code;
    throw err;
  }
  throw new Error('expected a VitrineError');
}

describe('openStore on a file', () => {
  it('creates the parent directory 0700, uses WAL, foreign keys and a busy timeout', () => {
    const file = path.join(tempDir(), 'home', 'data', 'vitrine.db');
    const db = track(openStore(file, [{ name: 'notes', migrations: notes }]));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    if (process.platform !== 'win32') {
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(tables(db)).toEqual(['notes', 'schema_migrations', 'tags']);
  });

  it('enforces foreign keys', () => {
    const db = track(openMemoryStore([{ name: 'notes', migrations: notes }]));
    expect(() => db.prepare('INSERT INTO tags (note_id, tag) VALUES (99, ?)').run('x')).toThrow(/FOREIGN KEY/);
  });

  it('records each migration once and re-opening applies nothing again', () => {
    const file = path.join(tempDir(), 'vitrine.db');
    let runs = 0;
    const counted: Migration[] = notes.map((m) => ({ ...m, up: (db: Database) => (runs++, m.up(db)) }));
    track(openStore(file, [{ name: 'notes', migrations: counted }])).close();
    expect(runs).toBe(3);
    const again = track(openStore(file, [{ name: 'notes', migrations: counted }]));
    expect(runs).toBe(3);
    const applied = appliedMigrations(again, 'notes');
    expect(applied.map((m) => [m.version, m.name])).toEqual([
      [1, 'notes table'],
      [2, 'notes.author'],
      [3, 'tags referencing notes'],
    ]);
    for (const m of applied) expect(m.applied_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const cols = (again.prepare('PRAGMA table_info(schema_migrations)').all() as { name: string; pk: number }[]).map((c) => [c.name, c.pk]);
    expect(cols).toEqual([
      ['service', 1],
      ['version', 2],
      ['name', 0],
      ['applied_at', 0],
    ]);
  });

  it('applies only the new migrations after an upgrade, keeping the data', () => {
    const file = path.join(tempDir(), 'vitrine.db');
    const v1 = track(openStore(file, [{ name: 'notes', migrations: notes.slice(0, 1) }]));
    v1.prepare('INSERT INTO notes (body) VALUES (?)').run('kept');
    v1.close();
    const v3 = track(openStore(file, [{ name: 'notes', migrations: notes }]));
    expect(schemaVersion(v3, 'notes')).toBe(3);
    expect(v3.prepare('SELECT body, author FROM notes').all()).toEqual([{ body: 'kept', author: 'unknown' }]);
  });

  it('keeps services apart: each has its own version line', () => {
    const other: Migration[] = [{ version: 1, name: 'other', up: (db) => db.exec('CREATE TABLE other_t (x)') }];
    const db = track(openMemoryStore([{ name: 'notes', migrations: notes }, { name: 'other', migrations: other }]));
    expect(schemaVersion(db, 'notes')).toBe(3);
    expect(schemaVersion(db, 'other')).toBe(1);
    expect(schemaVersion(db, 'absent')).toBe(0);
  });

  it('applies migrations in version order even when listed out of order', () => {
    const db = track(openMemoryStore([{ name: 'notes', migrations: [notes[2]!, notes[0]!, notes[1]!] }]));
    expect(schemaVersion(db, 'notes')).toBe(3);
  });

  it('refuses a store written by a newer app, and closes it', () => {
    const file = path.join(tempDir(), 'vitrine.db');
    track(openStore(file, [{ name: 'notes', migrations: notes }])).close();
    let err: unknown;
    try {
      openStore(file, [{ name: 'notes', migrations: notes.slice(0, 2) }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('conflict');
    expect((err as VitrineError).message).toMatch(/newer version/);
    expect((err as VitrineError).message).not.toContain(file);
    // The refused open left nothing locked: the right version opens fine.
    track(openStore(file, [{ name: 'notes', migrations: notes }])).close();
  });

  it('two connections on one file migrate once between them', () => {
    const file = path.join(tempDir(), 'vitrine.db');
    const a = track(openStore(file, []));
    const b = track(openStore(file, []));
    migrateTo(a, 'notes', notes, 2);
    migrateTo(b, 'notes', notes, 3);
    migrateTo(a, 'notes', notes, 3);
    expect(appliedMigrations(b, 'notes').map((m) => m.version)).toEqual([1, 2, 3]);
  });

  it('answers unavailable when the file cannot be opened', () => {
    const dir = tempDir();
    // A directory is not a database file.
    expect(codeOf(() => openStore(dir, []))).toBe('unavailable');
  });
});

describe('migration numbering', () => {
  const step = (version: number, name = `step ${version}`): Migration => ({ version, name, up: () => undefined });

  it('accepts 1..n and the empty list', () => {
    expect(checkMigrations([step(2), step(1)]).map((m) => m.version)).toEqual([1, 2]);
    expect(checkMigrations([])).toEqual([]);
  });

  it('refuses gaps, repeats, a start other than 1, fractions and missing names', () => {
    expect.hasAssertions();
    for (const bad of [[step(1), step(3)], [step(1), step(1)], [step(2)], [step(0), step(1)], [step(1), step(1.5)], [step(1, ' ')]]) {
      expect(codeOf(() => checkMigrations(bad))).toBe('internal');
      expect(codeOf(() => openMemoryStore([{ name: 'svc', migrations: bad }]))).toBe('internal');
    }
  });

  it('refuses a service listed twice and odd service names', () => {
    expect(codeOf(() => openMemoryStore([{ name: 'notes', migrations: notes }, { name: 'notes', migrations: notes }]))).toBe('internal');
    expect(codeOf(() => openMemoryStore([{ name: 'Bad Name', migrations: notes }]))).toBe('internal');
  });
});

describe('failing migrations', () => {
  it('rolls the failing step back, keeps the earlier ones, and reports which step failed', () => {
    const failing: Migration[] = [
      notes[0]!,
      {
        version: 2,
        name: 'half done',
        up: (db) => {
          db.exec('CREATE TABLE half (x)');
          db.exec('THIS IS NOT SQL');
        },
      },
    ];
    const db = track(openMemoryStore());
    let err: unknown;
    try {
      migrateTo(db, 'notes', failing, 2);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).message).toBe('migration 2 of notes failed');
    expect(schemaVersion(db, 'notes')).toBe(1);
    expect(tables(db)).toEqual(['notes', 'schema_migrations']);
  });

  it('refuses a migration that leaves dangling foreign keys', () => {
    const dangling: Migration[] = [
      ...notes,
      {
        version: 4,
        name: 'orphan tag',
        up: (db) => {
          db.pragma('defer_foreign_keys = ON');
          db.exec("INSERT INTO tags (note_id, tag) VALUES (42, 'orphan')");
        },
      },
    ];
    const db = track(storeAtVersion('notes', dangling, 3));
    expect(() => migrateTo(db, 'notes', dangling, 4)).toThrow(/broken foreign keys/);
    expect(schemaVersion(db, 'notes')).toBe(3);
    expect(db.prepare('SELECT COUNT(*) AS n FROM tags').get()).toEqual({ n: 0 });
  });

  it('refuses to go backwards or past the last migration', () => {
    const db = track(storeAtVersion('notes', notes, 3));
    expect(codeOf(() => migrateTo(db, 'notes', notes, 2))).toBe('conflict');
    expect(codeOf(() => migrateTo(db, 'notes', notes, 4))).toBe('internal');
    expect(codeOf(() => migrateTo(db, 'notes', notes, -1))).toBe('internal');
  });
});

describe('the per-migration test pattern', () => {
  it('migration 2 gives existing notes the default author', () => {
    const db = track(storeAtVersion('notes', notes, 1));
    db.prepare('INSERT INTO notes (body) VALUES (?), (?)').run('first', 'second');
    migrateTo(db, 'notes', notes, 2);
    expect(db.prepare('SELECT body, author FROM notes ORDER BY id').all()).toEqual([
      { body: 'first', author: 'unknown' },
      { body: 'second', author: 'unknown' },
    ]);
  });

  it('migration 3 adds tags that must reference a note', () => {
    const db = track(storeAtVersion('notes', notes, 2));
    const id = db.prepare("INSERT INTO notes (body, author) VALUES ('n', 'a')").run().lastInsertRowid;
    migrateTo(db, 'notes', notes, 3);
    db.prepare('INSERT INTO tags (note_id, tag) VALUES (?, ?)').run(id, 'apt');
    expect(db.prepare('SELECT n.body, t.tag FROM tags t JOIN notes n ON n.id = t.note_id').all()).toEqual([{ body: 'n', tag: 'apt' }]);
  });

  it('an in-memory store starts with only the migration table', () => {
    const db = track(openMemoryStore());
    expect(tables(db)).toEqual(['schema_migrations']);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
