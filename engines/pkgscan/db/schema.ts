// The PostgreSQL schema of pkgscan: the same numbered migrations as the SQLite store (store.ts). A statement that is the
// same on both backends is defined once, beside its SQLite migration, and run here with PostgreSQL's column types
// (DdlDialect); what only PostgreSQL has or spells its own way (case-insensitive unique names, the audit chain's
// guards, the shared rate-limit windows) is written here. db/schema.test.ts compares the two schemas.
// Times stay ISO 8601 text and flags 0/1 integers, as on SQLite, so one repository's SQL reads the same rows on both.
import { GENESIS_HASH } from '../../core/ledger.js';
import { POSTGRES_DDL } from '../../core/sql-dialect.js';
import { advisoryTablesDdl } from '../../core/vulns/ddl.js';
import { containerTablesDdl } from '../containers/migration.js';
import { diffTablesDdl } from '../diffs/migration.js';
import { SCAN_FEATURES_DDL } from '../ml/drift.js';
import { MONITORING_DDL } from '../monitoring/migration.js';
import { projectScanTablesDdl } from '../projects/migration.js';
import { scanTablesDdl } from '../scans/migration.js';
import { packageStoreTablesDdl } from '../sources/migration.js';
import { CACHE_DDL, EVENTS_DDL, POLICIES_DDL, REFRESH_TOKENS_DDL } from '../store.js';
import { scanAdvisoriesDdl } from '../vulns/migration.js';

export interface PgMigration {
  readonly version: number;
  /** The same name as the SQLite migration of that number. */
  readonly name: string;
  readonly sql: string;
}

/** The append-only tables and the triggers that guard them (verify-audit checks they exist and are enabled). */
export const APPEND_ONLY_TABLES = ['pkgscan_audit'] as const;

/** The trigger names of an append-only table, the same names as on SQLite. */
export function guardTriggerNames(table: string): string[] {
  return [`${table}_no_update`, `${table}_no_delete`, `${table}_append_only`, `${table}_no_truncate`];
}

/** The function bodies the guards call; verify-audit compares the stored source with these. */
export const REFUSE_CHANGE_FN = 'pkgscan_refuse_change';
export const REFUSE_CHANGE_BODY = `BEGIN RAISE EXCEPTION 'append-only' USING ERRCODE = 'restrict_violation'; END;`;
export const APPEND_AT_END_FN = 'pkgscan_audit_append_at_end';
export const APPEND_AT_END_BODY = `DECLARE head RECORD; BEGIN SELECT seq, hash INTO head FROM pkgscan_audit ORDER BY seq DESC LIMIT 1; IF NEW.seq IS DISTINCT FROM COALESCE(head.seq, 0) + 1 OR NEW.prev_hash IS DISTINCT FROM COALESCE(head.hash, '${GENESIS_HASH}') THEN RAISE EXCEPTION 'append-only' USING ERRCODE = 'restrict_violation'; END IF; RETURN NEW; END;`;

export const pgMigrations: readonly PgMigration[] = [
  {
    version: 1,
    name: 'users, refresh tokens and signing keys',
    sql: `
      CREATE TABLE pkgscan_users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'security_analyst', 'developer', 'auditor', 'read_only')),
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- SQLite's COLLATE NOCASE: one account per address whatever its case.
      CREATE UNIQUE INDEX pkgscan_users_email ON pkgscan_users (lower(email));
      ${REFRESH_TOKENS_DDL}
      CREATE INDEX pkgscan_refresh_tokens_family ON pkgscan_refresh_tokens (family_id);
      CREATE TABLE pkgscan_keys (
        name TEXT PRIMARY KEY,
        secret BYTEA NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Fixed-window counters every server shares (failed logins per account, requests per client and per user).
      CREATE TABLE pkgscan_rate_buckets (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX pkgscan_rate_buckets_start ON pkgscan_rate_buckets (window_start);
    `,
  },
  {
    version: 2,
    name: 'audit chain',
    sql: `
      CREATE TABLE pkgscan_audit (
        seq BIGINT PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        payload TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX pkgscan_audit_kind ON pkgscan_audit (kind, seq);
      CREATE FUNCTION ${REFUSE_CHANGE_FN}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${REFUSE_CHANGE_BODY} $fn$;
      CREATE FUNCTION ${APPEND_AT_END_FN}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${APPEND_AT_END_BODY} $fn$;
      CREATE TRIGGER pkgscan_audit_no_update BEFORE UPDATE ON pkgscan_audit FOR EACH ROW EXECUTE FUNCTION ${REFUSE_CHANGE_FN}();
      CREATE TRIGGER pkgscan_audit_no_delete BEFORE DELETE ON pkgscan_audit FOR EACH ROW EXECUTE FUNCTION ${REFUSE_CHANGE_FN}();
      CREATE TRIGGER pkgscan_audit_no_truncate BEFORE TRUNCATE ON pkgscan_audit FOR EACH STATEMENT EXECUTE FUNCTION ${REFUSE_CHANGE_FN}();
      CREATE TRIGGER pkgscan_audit_append_only BEFORE INSERT ON pkgscan_audit FOR EACH ROW EXECUTE FUNCTION ${APPEND_AT_END_FN}();
    `,
  },
  { version: 3, name: 'security events', sql: EVENTS_DDL },
  { version: 4, name: 'policies and exceptions', sql: POLICIES_DDL },
  { version: 5, name: 'lookup cache', sql: CACHE_DDL },
  { version: 6, name: 'package store', sql: packageStoreTablesDdl(POSTGRES_DDL) },
  {
    version: 7,
    name: 'advisory store',
    sql: `${advisoryTablesDdl(POSTGRES_DDL, false)}
      INSERT INTO vuln_meta (key, value) VALUES ('generation', 0) ON CONFLICT (key) DO NOTHING;
      ${scanAdvisoriesDdl(POSTGRES_DDL)}`,
  },
  { version: 8, name: 'package scans', sql: scanTablesDdl(POSTGRES_DDL) },
  {
    version: 9,
    name: 'projects and project scans',
    sql: `
      CREATE TABLE pkgscan_projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Unique whatever the case, as SQLite's COLLATE NOCASE: a constraint, so racing creations cannot both win.
      CREATE UNIQUE INDEX pkgscan_projects_name ON pkgscan_projects (lower(name));
      ${projectScanTablesDdl(POSTGRES_DDL)}`,
  },
  { version: 10, name: 'container scans', sql: containerTablesDdl(POSTGRES_DDL) },
  { version: 11, name: 'release diffs', sql: diffTablesDdl(POSTGRES_DDL) },
  { version: 12, name: 'package monitoring', sql: MONITORING_DDL },
  { version: 13, name: 'scan feature vectors for model drift', sql: SCAN_FEATURES_DDL },
];
