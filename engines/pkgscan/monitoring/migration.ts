// The monitoring tables (pkgscan migration 12): watched packages with their state and snapshot, and each check's outcome.
import type { Migration } from '../../core/service.js';

/** Migration 12's statements, the same on both backends (db/schema.ts runs them on PostgreSQL). */
export const MONITORING_DDL = `
      CREATE TABLE pkgscan_monitored (
        id TEXT PRIMARY KEY,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        approved_version TEXT,
        poll_interval_seconds INTEGER NOT NULL CHECK (poll_interval_seconds BETWEEN 300 AND 604800),
        project_id TEXT REFERENCES pkgscan_projects (id) ON DELETE SET NULL,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        failing INTEGER NOT NULL DEFAULT 0 CHECK (failing IN (0, 1)),
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_result TEXT CHECK (last_result IN ('baseline', 'unchanged', 'new_release', 'error')),
        last_error_json TEXT,
        last_diff_id TEXT,
        last_check_at TEXT,
        next_check_at TEXT NOT NULL,
        claimed_by TEXT,
        claimed_until TEXT,
        snapshot_json TEXT,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (ecosystem, name)
      );
      CREATE INDEX pkgscan_monitored_due ON pkgscan_monitored (enabled, next_check_at);
      CREATE INDEX pkgscan_monitored_failing ON pkgscan_monitored (failing, created_at);
      CREATE TABLE pkgscan_monitor_checks (
        id TEXT PRIMARY KEY,
        package_id TEXT NOT NULL REFERENCES pkgscan_monitored (id) ON DELETE CASCADE,
        checked_at TEXT NOT NULL,
        result TEXT NOT NULL,
        diff_id TEXT,
        check_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_monitor_checks_package ON pkgscan_monitor_checks (package_id, checked_at DESC);
    `;

export const monitoringMigration: Migration = {
  version: 12,
  name: 'package monitoring',
  up(db) {
    db.exec(MONITORING_DDL);
  },
};
