// The release diffs' table (pkgscan migration 11): one row per package, version pair and analyzer version.
import type { Migration } from '../../core/service.js';
import { SQLITE_DDL, type DdlDialect } from '../../core/sql-dialect.js';

/** Migration 11's statements on either backend (db/schema.ts runs them on PostgreSQL). */
export function diffTablesDdl(d: DdlDialect): string {
  return `
      CREATE TABLE pkgscan_diffs (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        from_version TEXT NOT NULL,
        to_version TEXT NOT NULL,
        analyzer_version TEXT NOT NULL,
        escalated INTEGER NOT NULL CHECK (escalated IN (0, 1)),
        maintainers_changed INTEGER NOT NULL CHECK (maintainers_changed IN (0, 1)),
        risk_from ${d.real} NOT NULL,
        risk_to ${d.real} NOT NULL,
        new_findings INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        diff_json TEXT NOT NULL,
        UNIQUE (ecosystem, name, from_version, to_version, analyzer_version)
      );
      CREATE INDEX pkgscan_diffs_time ON pkgscan_diffs (created_at DESC, id);
      CREATE INDEX pkgscan_diffs_package ON pkgscan_diffs (ecosystem, name, created_at DESC);
    `;
}

export const diffMigration: Migration = {
  version: 11,
  name: 'release diffs',
  up(db) {
    db.exec(diffTablesDdl(SQLITE_DDL));
  },
};
