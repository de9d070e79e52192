// The two backends' schemas after every migration: the same tables, the same columns and the same named indexes,
// but for the differences listed here (each with its reason). A column or table added on one backend only fails.
import { describe, expect, it } from 'vitest';
import { backendFixture } from '../../../test/postgres/backends.js';
import { SKIP_POSTGRES } from '../../../test/postgres/cluster.js';

const fixture = backendFixture();

/** pkgscan's own tables and the advisory store's. */
const OURS = /^(pkgscan|vuln)_/;

/** What PostgreSQL has and SQLite has not. */
const PG_ONLY = [
  // The shared rate-limit windows: on SQLite the one process counts in memory.
  'pkgscan_rate_buckets',
  'pkgscan_rate_buckets.key',
  'pkgscan_rate_buckets.scope',
  'pkgscan_rate_buckets.window_start',
  'pkgscan_rate_buckets.count',
  'index pkgscan_rate_buckets_start',
  // SQLite's COLLATE NOCASE on the column, written as a unique index on lower(...).
  'index pkgscan_users_email',
  'index pkgscan_projects_name',
  // Refresh-token families are revoked across servers.
  'index pkgscan_refresh_tokens_family',
];

/** What SQLite has and PostgreSQL has not. */
const SQLITE_ONLY = [
  // The process running an import (the workstation's stale-import check); PostgreSQL imports run in transactions.
  'vuln_imports.owner_pid',
];

interface Shape {
  readonly tables: Set<string>;
  readonly columns: Set<string>;
  readonly indexes: Set<string>;
}

function entries(s: Shape): string[] {
  return [...s.tables, ...s.columns, ...[...s.indexes].map((i) => `index ${i}`)].sort();
}

describe.skipIf(SKIP_POSTGRES)('the SQLite and PostgreSQL schemas', () => {
  it('have the same tables, columns and named indexes but for the listed differences', async () => {
    const lite = await fixture.open('sqlite');
    const sqliteTables = (lite.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name).filter((t) => OURS.test(t));
    const sqlite: Shape = {
      tables: new Set(sqliteTables),
      columns: new Set(sqliteTables.flatMap((t) => (lite.sqlite.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => `${t}.${c.name}`))),
      // Named indexes only: SQLite's automatic ones (sql IS NULL) are PostgreSQL's primary keys and UNIQUE constraints.
      indexes: new Set((lite.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as { name: string }[]).map((i) => i.name).filter((i) => OURS.test(i))),
    };
    const pgb = await fixture.open('postgres');
    const pgTables = (await pgb.store.all<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).map((t) => t.name).filter((t) => OURS.test(t));
    const pgColumns = await pgb.store.all<{ t: string; c: string }>("SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public'");
    const pgIndexes = await pgb.store.all<{ name: string }>(
      "SELECT i.indexname AS name FROM pg_indexes i LEFT JOIN pg_constraint k ON k.conname = i.indexname WHERE i.schemaname = 'public' AND k.conname IS NULL",
    );
    const pg: Shape = {
      tables: new Set(pgTables),
      columns: new Set(pgColumns.filter((r) => OURS.test(r.t)).map((r) => `${r.t}.${r.c}`)),
      indexes: new Set(pgIndexes.map((i) => i.name).filter((i) => OURS.test(i))),
    };
    expect(sqlite.tables.size).toBeGreaterThanOrEqual(20);
    const onSqlite = entries(sqlite);
    const onPg = entries(pg);
    expect(onPg.filter((e) => !onSqlite.includes(e))).toEqual([...PG_ONLY].sort());
    expect(onSqlite.filter((e) => !onPg.includes(e))).toEqual([...SQLITE_ONLY].sort());
  });
});
