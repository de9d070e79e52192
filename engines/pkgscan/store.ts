// The pkgscan tables and their numbered migrations: users and refresh tokens, the audit chain, events, policies, exceptions, the lookup cache.
import type { Migration } from '../core/service.js';
import { createLedgerTable } from '../core/ledger.js';
import { containerMigration } from './containers/migration.js';
import { diffMigration } from './diffs/migration.js';
import { mlMigration } from './ml/drift.js';
import { monitoringMigration } from './monitoring/migration.js';
import { projectMigration } from './projects/migration.js';
import { scanMigration } from './scans/migration.js';
import { packageStoreMigration } from './sources/migration.js';
import { advisoryMigration } from './vulns/migration.js';

/** The hash-chained audit table (engines/core/ledger.ts). */
export const AUDIT_TABLE = 'pkgscan_audit';

/** Migration 1's refresh-token table, the same on both backends (db/schema.ts runs it on PostgreSQL). */
export const REFRESH_TOKENS_DDL = `
        CREATE TABLE pkgscan_refresh_tokens (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES pkgscan_users (id) ON DELETE CASCADE,
          family_id TEXT NOT NULL,
          token_hash TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          used_at TEXT,
          revoked_at TEXT,
          revoked_reason TEXT
        );
        CREATE INDEX pkgscan_refresh_tokens_user ON pkgscan_refresh_tokens (user_id);
      `;

/** Migration 3's statements, the same on both backends (db/schema.ts runs them on PostgreSQL). */
export const EVENTS_DDL = `
        CREATE TABLE pkgscan_events (
          id TEXT PRIMARY KEY,
          type TEXT NOT NULL,
          severity TEXT NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
          package TEXT,
          project TEXT,
          created_at TEXT NOT NULL,
          details_json TEXT NOT NULL DEFAULT '{}',
          acknowledged_by TEXT,
          acknowledged_at TEXT
        );
        CREATE INDEX pkgscan_events_time ON pkgscan_events (created_at DESC, id);
        CREATE INDEX pkgscan_events_type ON pkgscan_events (type, created_at DESC);
      `;

/** Migration 4's statements, the same on both backends (db/schema.ts runs them on PostgreSQL). */
export const POLICIES_DDL = `
        CREATE TABLE pkgscan_policies (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          environment TEXT NOT NULL,
          active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
          document_json TEXT NOT NULL,
          source TEXT,
          hash TEXT NOT NULL,
          revision INTEGER NOT NULL DEFAULT 1,
          created_by TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX pkgscan_policies_one_active ON pkgscan_policies (environment) WHERE active = 1;
        CREATE TABLE pkgscan_exceptions (
          id TEXT PRIMARY KEY,
          ecosystem TEXT NOT NULL,
          package TEXT NOT NULL,
          version_range TEXT,
          scope TEXT NOT NULL,
          environment TEXT,
          justification TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'revoked')),
          requested_by TEXT NOT NULL,
          requested_at TEXT NOT NULL,
          decided_by TEXT,
          decided_at TEXT
        );
        CREATE INDEX pkgscan_exceptions_package ON pkgscan_exceptions (ecosystem, package, status);
      `;

/** Migration 5's statements, the same on both backends (db/schema.ts runs them on PostgreSQL). */
export const CACHE_DDL = `
        CREATE TABLE pkgscan_cache (
          key TEXT PRIMARY KEY,
          value_json TEXT NOT NULL,
          stored_at TEXT NOT NULL,
          expires_at TEXT NOT NULL
        );
      `;

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'users, refresh tokens and signing keys',
    up(db) {
      db.exec(`
        CREATE TABLE pkgscan_users (
          id TEXT PRIMARY KEY,
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          password_hash TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('admin', 'security_analyst', 'developer', 'auditor', 'read_only')),
          active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
      `);
      db.exec(REFRESH_TOKENS_DDL);
      db.exec(`
        CREATE TABLE pkgscan_keys (
          name TEXT PRIMARY KEY,
          secret BLOB NOT NULL,
          created_at TEXT NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    name: 'audit chain',
    up(db) {
      createLedgerTable(db, AUDIT_TABLE);
      db.exec(`CREATE INDEX pkgscan_audit_kind ON ${AUDIT_TABLE} (kind, seq)`);
    },
  },
  {
    version: 3,
    name: 'security events',
    up(db) {
      db.exec(EVENTS_DDL);
    },
  },
  {
    version: 4,
    name: 'policies and exceptions',
    up(db) {
      db.exec(POLICIES_DDL);
    },
  },
  {
    version: 5,
    name: 'lookup cache',
    up(db) {
      db.exec(CACHE_DDL);
    },
  },
  packageStoreMigration,
  advisoryMigration,
  scanMigration,
  projectMigration,
  containerMigration,
  diffMigration,
  monitoringMigration,
  mlMigration,
];
