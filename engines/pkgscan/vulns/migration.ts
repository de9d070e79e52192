// The advisory store's tables (pkgscan migration 7): advisories, affected packages, aliases, KEV, EPSS, NVD, imports, sources; and the advisories of stored scans.
import type { Migration } from '../../core/service.js';
import { SQLITE_DDL, type DdlDialect } from '../../core/sql-dialect.js';
import { createAdvisoryTables } from '../../core/vulns/store.js';

/** Which advisories each stored scan found (recordScanAdvisories): GET /vulnerabilities aggregates from it. Both backends. */
export function scanAdvisoriesDdl(d: DdlDialect): string {
  return `
      CREATE TABLE pkgscan_scan_advisories (
        scan_id TEXT NOT NULL,
        advisory_id TEXT NOT NULL,
        ecosystem TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (scan_id, advisory_id)
      )${d.withoutRowid};
      CREATE INDEX pkgscan_scan_advisories_advisory ON pkgscan_scan_advisories (advisory_id);
    `;
}

export const advisoryMigration: Migration = {
  version: 7,
  name: 'advisory store',
  up(db) {
    createAdvisoryTables(db);
    db.exec(scanAdvisoriesDdl(SQLITE_DDL));
  },
};
