// The projects' tables (pkgscan migration 9): projects and their scans with components, graph and SBOM.
import type { Migration } from '../../core/service.js';
import { SQLITE_DDL, type DdlDialect } from '../../core/sql-dialect.js';

/**
 * Migration 9's statements after the projects table, on either backend (db/schema.ts runs them on PostgreSQL, where
 * the projects table itself is spelled differently).
 */
export function projectScanTablesDdl(d: DdlDialect): string {
  return `
      CREATE TABLE pkgscan_project_scans (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES pkgscan_projects (id) ON DELETE CASCADE,
        environment TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'warn', 'block')),
        risk ${d.real} NOT NULL,
        files_count INTEGER NOT NULL,
        components_count INTEGER NOT NULL,
        findings_count INTEGER NOT NULL,
        warnings_count INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        report_json TEXT NOT NULL,
        graph_json TEXT NOT NULL,
        sbom_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_project_scans_project ON pkgscan_project_scans (project_id, created_at DESC, id);
      CREATE TABLE pkgscan_project_components (
        scan_id TEXT NOT NULL REFERENCES pkgscan_project_scans (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        direct INTEGER NOT NULL CHECK (direct IN (0, 1)),
        component_json TEXT NOT NULL,
        PRIMARY KEY (scan_id, ordinal)
      );
      CREATE INDEX pkgscan_project_components_direct ON pkgscan_project_components (scan_id, direct, ordinal);
    `;
}

export const projectMigration: Migration = {
  version: 9,
  name: 'projects and project scans',
  up(db) {
    db.exec(`
      CREATE TABLE pkgscan_projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        description TEXT,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `);
    db.exec(projectScanTablesDdl(SQLITE_DDL));
  },
};
