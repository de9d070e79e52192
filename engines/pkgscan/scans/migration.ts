// The package scans' table (pkgscan migration 8): every stored verdict, with the columns the history, stats and package page filter on.
import type { Migration } from '../../core/service.js';
import { SQLITE_DDL, type DdlDialect } from '../../core/sql-dialect.js';

/** Migration 8's statements on either backend (db/schema.ts runs them on PostgreSQL). */
export function scanTablesDdl(d: DdlDialect): string {
  return `
      CREATE TABLE pkgscan_scans (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        environment TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'warn', 'block')),
        severity TEXT NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
        risk_score ${d.real} NOT NULL,
        findings_count INTEGER NOT NULL,
        incomplete INTEGER NOT NULL CHECK (incomplete IN (0, 1)),
        package_sha256 TEXT NOT NULL,
        analyzer_version TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        verdict_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_scans_time ON pkgscan_scans (created_at DESC, id);
      CREATE INDEX pkgscan_scans_package ON pkgscan_scans (ecosystem, name, version, environment, created_at DESC);
      CREATE TABLE pkgscan_scan_findings (
        scan_id TEXT NOT NULL REFERENCES pkgscan_scans (id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        severity TEXT NOT NULL
      );
      CREATE INDEX pkgscan_scan_findings_code ON pkgscan_scan_findings (code);
      CREATE INDEX pkgscan_scan_findings_scan ON pkgscan_scan_findings (scan_id);
    `;
}

export const scanMigration: Migration = {
  version: 8,
  name: 'package scans',
  up(db) {
    db.exec(scanTablesDdl(SQLITE_DDL));
  },
};
