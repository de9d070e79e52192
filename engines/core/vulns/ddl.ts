// The advisory store's tables, written once for both backends: the workstation's SQLite store (createAdvisoryTables)
// and pkgscan's PostgreSQL migration 7 (engines/pkgscan/db/schema.ts).
import type { DdlDialect } from '../sql-dialect.js';

/**
 * The CREATE statements of the advisory tables and their indexes (not the `generation` row, whose insert each backend
 * spells its own way). `ifNotExists` makes them idempotent (the SQLite store runs them on every open).
 */
export function advisoryTablesDdl(d: DdlDialect, ifNotExists: boolean): string {
  const ine = ifNotExists ? 'IF NOT EXISTS ' : '';
  return `
    CREATE TABLE ${ine}vuln_advisories (
      id TEXT PRIMARY KEY,
      modified TEXT NOT NULL,
      published TEXT,
      withdrawn TEXT,
      summary TEXT NOT NULL,
      details TEXT NOT NULL,
      severity TEXT,
      score ${d.real},
      vector TEXT,
      severity_source TEXT,
      malicious INTEGER NOT NULL DEFAULT 0,
      json TEXT NOT NULL,
      import_id TEXT NOT NULL
    );
    CREATE TABLE ${ine}vuln_affected (
      advisory_id TEXT NOT NULL,
      ecosystem TEXT NOT NULL,
      eco_base TEXT NOT NULL,
      name TEXT NOT NULL,
      PRIMARY KEY (advisory_id, ecosystem, name)
    )${d.withoutRowid};
    CREATE INDEX ${ine}vuln_affected_package ON vuln_affected (eco_base, name);
    CREATE TABLE ${ine}vuln_aliases (
      advisory_id TEXT NOT NULL,
      alias TEXT NOT NULL,
      PRIMARY KEY (advisory_id, alias)
    )${d.withoutRowid};
    CREATE INDEX ${ine}vuln_aliases_alias ON vuln_aliases (alias);
    CREATE TABLE ${ine}vuln_kev (
      cve TEXT PRIMARY KEY,
      date_added TEXT NOT NULL,
      due_date TEXT,
      ransomware_use TEXT NOT NULL,
      vendor_project TEXT,
      product TEXT,
      name TEXT,
      import_id TEXT NOT NULL
    );
    CREATE TABLE ${ine}vuln_epss (
      cve TEXT PRIMARY KEY,
      score ${d.real} NOT NULL,
      percentile ${d.real} NOT NULL,
      score_date TEXT,
      model_version TEXT,
      import_id TEXT NOT NULL
    );
    CREATE TABLE ${ine}vuln_nvd (
      cve TEXT PRIMARY KEY,
      last_modified TEXT,
      vector TEXT,
      score ${d.real},
      severity TEXT,
      import_id TEXT NOT NULL
    );
    CREATE TABLE ${ine}vuln_imports (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      file_sha256 TEXT,
      records INTEGER NOT NULL DEFAULT 0,
      inserted INTEGER NOT NULL DEFAULT 0,
      updated INTEGER NOT NULL DEFAULT 0,
      unchanged INTEGER NOT NULL DEFAULT 0,
      warnings INTEGER NOT NULL DEFAULT 0,
      warning_samples TEXT NOT NULL DEFAULT '[]',
      started_at TEXT NOT NULL,
      finished_at TEXT,
      status TEXT NOT NULL DEFAULT 'running'
    );
    CREATE TABLE ${ine}vuln_sources (
      source TEXT PRIMARY KEY,
      records INTEGER NOT NULL,
      last_import_id TEXT NOT NULL,
      last_import_at TEXT NOT NULL,
      data_date TEXT NOT NULL
    );
    CREATE TABLE ${ine}vuln_meta (key TEXT PRIMARY KEY, value ${d.bigint} NOT NULL);
  `;
}
