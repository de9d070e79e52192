// The assessment history: migrations of the caseassess tables and the queries over them.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Assessment, EstimativeWords, StoredAssessment, StoredAssessmentSummary } from '../core/contracts/caseassess.js';
import { createLedgerTable } from '../core/ledger.js';
import type { Migration } from '../core/service.js';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'assessment history',
    up(db) {
      db.exec(`
        CREATE TABLE caseassess_assessments (
          id TEXT PRIMARY KEY,
          case_id TEXT NOT NULL,
          case_title TEXT,
          case_sha256 TEXT NOT NULL,
          created_at TEXT NOT NULL,
          leading_attack_id TEXT NOT NULL,
          leading_name TEXT NOT NULL,
          leading_probability REAL NOT NULL,
          confidence_words TEXT NOT NULL,
          kg_sha256 TEXT,
          result_json TEXT NOT NULL
        );
        CREATE INDEX caseassess_assessments_created ON caseassess_assessments (created_at DESC, id);
        CREATE INDEX caseassess_assessments_case ON caseassess_assessments (case_id);
      `);
    },
  },
  {
    version: 2,
    name: 'stored cases and the log of evidence sent to them',
    up(db) {
      db.exec(`
        CREATE TABLE caseassess_cases (
          case_id TEXT PRIMARY KEY,
          title TEXT,
          evidence_count INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          case_json TEXT NOT NULL
        );
        CREATE INDEX caseassess_cases_updated ON caseassess_cases (updated_at DESC, case_id);
      `);
      createLedgerTable(db, CASE_LOG_TABLE);
    },
  },
];

/** Append-only, hash-chained log of what was imported into or sent to a stored case (with the source and link). */
export const CASE_LOG_TABLE = 'caseassess_case_log';

interface Row {
  id: string;
  case_id: string;
  case_title: string | null;
  case_sha256: string;
  created_at: string;
  leading_attack_id: string;
  leading_name: string;
  leading_probability: number;
  confidence_words: string;
  result_json?: string;
}

const SUMMARY_COLUMNS = 'id, case_id, case_title, case_sha256, created_at, leading_attack_id, leading_name, leading_probability, confidence_words';

function summary(row: Row): StoredAssessmentSummary {
  // Whether nothing scored is read from the stored result (the rows predate the flag; no column is needed for it).
  let insufficient = false;
  if (row.result_json !== undefined) {
    try {
      insufficient = (JSON.parse(row.result_json) as Assessment).confidence.insufficient !== undefined;
    } catch {
      insufficient = false;
    }
  }
  return {
    ...(insufficient ? { insufficient: true } : {}),
    id: row.id,
    case_id: row.case_id,
    case_title: row.case_title,
    case_sha256: row.case_sha256,
    created_at: row.created_at,
    leading_attack_id: row.leading_attack_id,
    leading_name: row.leading_name,
    leading_probability: row.leading_probability,
    confidence_words: row.confidence_words as EstimativeWords,
  };
}

/** Records an assessment; returns its summary (with the new id). */
export function saveAssessment(db: Database, assessment: Assessment, now: Date = new Date()): StoredAssessmentSummary {
  const row: Row = {
    id: randomUUID(),
    case_id: assessment.case_id,
    case_title: assessment.case_title,
    case_sha256: assessment.case_sha256,
    created_at: now.toISOString(),
    leading_attack_id: assessment.leading.attack_id,
    leading_name: assessment.leading.name,
    leading_probability: assessment.leading.probability,
    confidence_words: assessment.confidence.words,
  };
  db.prepare(
    `INSERT INTO caseassess_assessments (${SUMMARY_COLUMNS}, kg_sha256, result_json)
     VALUES (@id, @case_id, @case_title, @case_sha256, @created_at, @leading_attack_id, @leading_name, @leading_probability, @confidence_words, @kg_sha256, @result_json)`,
  ).run({ ...row, kg_sha256: assessment.kg.sha256, result_json: JSON.stringify(assessment) });
  return { ...summary(row), ...(assessment.confidence.insufficient !== undefined ? { insufficient: true } : {}) };
}

/** Newest first. */
export function listAssessments(db: Database, page: { readonly limit: number; readonly offset: number }): { items: StoredAssessmentSummary[]; total: number } {
  const rows = db
    .prepare(`SELECT ${SUMMARY_COLUMNS}, result_json FROM caseassess_assessments ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`)
    .all(page.limit, page.offset) as Row[];
  const total = (db.prepare('SELECT COUNT(*) AS n FROM caseassess_assessments').get() as { n: number }).n;
  return { items: rows.map(summary), total };
}

export function getAssessment(db: Database, id: string): StoredAssessment | null {
  const row = db.prepare(`SELECT ${SUMMARY_COLUMNS}, result_json FROM caseassess_assessments WHERE id = ?`).get(id) as Row | undefined;
  if (!row) return null;
  return { ...summary(row), assessment: JSON.parse(row.result_json ?? 'null') as Assessment };
}
