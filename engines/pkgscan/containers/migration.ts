// The container scans' table (pkgscan migration 10): one row per scan, its report and CycloneDX SBOM as JSON.
import type { Migration } from '../../core/service.js';
import { SQLITE_DDL, type DdlDialect } from '../../core/sql-dialect.js';

/** Migration 10's statements on either backend (db/schema.ts runs them on PostgreSQL). */
export function containerTablesDdl(d: DdlDialect): string {
  return `
      CREATE TABLE pkgscan_container_scans (
        id TEXT PRIMARY KEY,
        image_ref TEXT,
        status TEXT NOT NULL CHECK (status IN ('complete', 'incomplete')),
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'warn', 'block')),
        severity TEXT CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
        package_count INTEGER NOT NULL,
        finding_count INTEGER NOT NULL,
        upload_sha256 TEXT NOT NULL,
        upload_size ${d.bigint} NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        report_json TEXT NOT NULL,
        sbom_json TEXT
      );
      CREATE INDEX pkgscan_container_scans_created ON pkgscan_container_scans (created_at DESC, id);
    `;
}

export const containerMigration: Migration = {
  version: 10,
  name: 'container scans',
  up(db) {
    db.exec(containerTablesDdl(SQLITE_DDL));
  },
};
