// The package store's table (pkgscan migration 6): imported and mirrored release archives, content-addressed by SHA-256.
import type { Migration } from '../../core/service.js';
import { SQLITE_DDL, type DdlDialect } from '../../core/sql-dialect.js';

/** Migration 6's statements on either backend (db/schema.ts runs them on PostgreSQL). */
export function packageStoreTablesDdl(d: DdlDialect): string {
  return `
      CREATE TABLE pkgscan_artifacts (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL CHECK (ecosystem IN ('npm', 'pypi')),
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        filename TEXT NOT NULL,
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        size ${d.bigint} NOT NULL CHECK (size >= 0),
        source TEXT NOT NULL CHECK (source IN ('import', 'upload', 'npm-mirror', 'pypi-mirror')),
        registry_json TEXT,
        imported_at TEXT NOT NULL,
        imported_by TEXT NOT NULL,
        UNIQUE (ecosystem, name, version, sha256)
      );
      CREATE INDEX pkgscan_artifacts_package ON pkgscan_artifacts (ecosystem, name);
      CREATE INDEX pkgscan_artifacts_sha256 ON pkgscan_artifacts (sha256);
    `;
}

export const packageStoreMigration: Migration = {
  version: 6,
  name: 'package store',
  up(db) {
    db.exec(packageStoreTablesDdl(SQLITE_DDL));
  },
};
