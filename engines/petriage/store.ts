// The triage history: migrations of the petriage tables and the queries over them (each analysis the HTTP service answered).
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Migration } from '../core/service.js';
import type { StoredAnalysisSummary } from '../core/contracts/petriage.js';
import type { TriageResult } from './analyze.js';

export type { StoredAnalysisSummary } from '../core/contracts/petriage.js';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'analysis history',
    up(db) {
      db.exec(`
        CREATE TABLE petriage_analyses (
          id TEXT PRIMARY KEY,
          sha256 TEXT NOT NULL,
          size INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          verdict TEXT NOT NULL CHECK (verdict IN ('MALICIOUS', 'SUSPICIOUS', 'BENIGN')),
          score REAL NOT NULL,
          family TEXT,
          model_type TEXT NOT NULL,
          model_sha256 TEXT,
          result_json TEXT NOT NULL
        );
        CREATE INDEX petriage_analyses_created ON petriage_analyses (created_at DESC, id);
        CREATE INDEX petriage_analyses_sha256 ON petriage_analyses (sha256);
      `);
    },
  },
  {
    version: 2,
    name: 'file name of an analysis',
    up(db) {
      // The name the upload gave (POST /api/analyze?name=, base name only); rows stored before it stay NULL.
      db.exec('ALTER TABLE petriage_analyses ADD COLUMN file_name TEXT');
    },
  },
];

interface Row {
  id: string;
  sha256: string;
  file_name: string | null;
  size: number;
  created_at: string;
  verdict: TriageResult['verdict'];
  score: number;
  family: string | null;
  model_type: string;
  result_json?: string;
}

const COLUMNS = 'id, sha256, file_name, size, created_at, verdict, score, family, model_type';

function summary(r: Row): StoredAnalysisSummary {
  return { id: r.id, sha256: r.sha256, fileName: r.file_name, size: r.size, createdAt: r.created_at, verdict: r.verdict, score: r.score, family: r.family, modelType: r.model_type };
}

/** Records an analysis (with the file's name when the upload gave one, already validated); returns its summary with the new id. */
export function saveAnalysis(db: Database, result: TriageResult, now: Date = new Date(), fileName: string | null = null): StoredAnalysisSummary {
  const row: Row = { id: randomUUID(), sha256: result.sha256, file_name: fileName, size: result.size, created_at: now.toISOString(), verdict: result.verdict, score: result.score, family: result.family?.name ?? null, model_type: result.model.type };
  db.prepare(`INSERT INTO petriage_analyses (${COLUMNS}, model_sha256, result_json) VALUES (@id, @sha256, @file_name, @size, @created_at, @verdict, @score, @family, @model_type, @model_sha256, @result_json)`).run({
    ...row,
    model_sha256: result.model.sha256,
    result_json: JSON.stringify(result),
  });
  return summary(row);
}

export interface AnalysisFilter {
  readonly verdict?: TriageResult['verdict'];
  /** Lower-case hex prefix of the SHA-256 (1..64 characters; the caller validates it). */
  readonly sha256Prefix?: string;
  /** A part of the file name (ASCII letters in either case) or, when it is hex, the start of the SHA-256: either matches. */
  readonly text?: string;
}

/** Newest first, optionally only one verdict and/or SHA-256s with a prefix (the prefix uses the sha256 index). */
export function listAnalyses(db: Database, page: { readonly limit: number; readonly offset: number }, filter: AnalysisFilter = {}): { items: StoredAnalysisSummary[]; total: number } {
  const where: string[] = [];
  const params: Record<string, string> = {};
  if (filter.verdict !== undefined) {
    where.push('verdict = @verdict');
    params['verdict'] = filter.verdict;
  }
  if (filter.sha256Prefix !== undefined) {
    // A range on the index rather than LIKE: the prefix is hex, so "prefix" <= sha256 < "prefix~" holds exactly the matches.
    where.push('sha256 >= @lo AND sha256 < @hi');
    params['lo'] = filter.sha256Prefix;
    params['hi'] = `${filter.sha256Prefix}~`;
  }
  if (filter.text !== undefined) {
    // LIKE with its wildcards escaped: the text is matched as typed, anywhere in the name (NULL names never match).
    const either = ["file_name LIKE @name ESCAPE '\\'"];
    params['name'] = `%${filter.text.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
    if (/^[0-9a-fA-F]{1,64}$/u.test(filter.text)) {
      either.push('(sha256 >= @tlo AND sha256 < @thi)');
      params['tlo'] = filter.text.toLowerCase();
      params['thi'] = `${filter.text.toLowerCase()}~`;
    }
    where.push(`(${either.join(' OR ')})`);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const rows = db.prepare(`SELECT ${COLUMNS} FROM petriage_analyses ${clause} ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit: page.limit, offset: page.offset }) as Row[];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM petriage_analyses ${clause}`).get(params) as { n: number }).n;
  return { items: rows.map(summary), total };
}

export function getAnalysis(db: Database, id: string): (StoredAnalysisSummary & { readonly result: TriageResult }) | null {
  const row = db.prepare(`SELECT ${COLUMNS}, result_json FROM petriage_analyses WHERE id = ?`).get(id) as Row | undefined;
  if (!row) return null;
  return { ...summary(row), result: JSON.parse(row.result_json ?? 'null') as TriageResult };
}
