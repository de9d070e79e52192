// The attribution tables: STIX objects served by the TAXII collections, and the hash-chained log of analyst overrides.
import type { Database } from 'better-sqlite3';
import type { AchAssessment } from '../core/contracts/ach.js';
import { createLedgerTable, Ledger } from '../core/ledger.js';
import type { Migration } from '../core/service.js';

export const OVERRIDE_LOG_TABLE = 'attrib_override_log';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'taxii objects',
    up(db) {
      db.exec(`
        CREATE TABLE attrib_taxii_objects (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          collection TEXT NOT NULL,
          id TEXT NOT NULL,
          version TEXT NOT NULL,
          type TEXT NOT NULL,
          spec_version TEXT NOT NULL,
          date_added TEXT NOT NULL,
          json TEXT NOT NULL,
          UNIQUE (collection, id, version)
        );
        CREATE INDEX attrib_taxii_objects_added ON attrib_taxii_objects (collection, date_added, seq);
      `);
    },
  },
  {
    version: 2,
    name: 'override log',
    up(db) {
      createLedgerTable(db, OVERRIDE_LOG_TABLE);
    },
  },
  {
    version: 3,
    name: 'stored ACH matrices and the log of evidence sent to them',
    up(db) {
      db.exec(`
        CREATE TABLE attrib_matrices (
          id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          hypothesis_count INTEGER NOT NULL,
          evidence_count INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          scenario_json TEXT NOT NULL
        );
        CREATE INDEX attrib_matrices_updated ON attrib_matrices (updated_at DESC, id);
      `);
      createLedgerTable(db, MATRIX_LOG_TABLE);
    },
  },
];

/** Append-only, hash-chained log of what was imported into or sent to a stored matrix (with the source and link). */
export const MATRIX_LOG_TABLE = 'attrib_matrix_log';

/** Rows kept per collection; adding more drops the oldest. */
export const MAX_TAXII_OBJECTS = 20_000;

/** Records each override of an assessment in the append-only log (who, when, which cell, from what to what). */
export function logOverrides(db: Database, assessment: AchAssessment): number {
  if (assessment.overrides.length === 0) return 0;
  const ledger = new Ledger(db, OVERRIDE_LOG_TABLE);
  for (const o of assessment.overrides)
    ledger.append({
      kind: 'ach.override',
      actor: o.by,
      at: o.at,
      payload: { assessment: assessment.id, scenario: assessment.scenario.name, evidence: o.evidence, hypothesis: o.hypothesis, rating: o.rating, previous: o.previous, ...(o.reason !== undefined ? { reason: o.reason } : {}) },
    });
  return assessment.overrides.length;
}

export function overrideLog(db: Database): Ledger {
  return new Ledger(db, OVERRIDE_LOG_TABLE);
}
