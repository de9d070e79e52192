// Stored gate runs: migrations of the provgate tables and the queries over them.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Migration } from '../core/service.js';
import { createKeyLog } from './truststore.js';
import type { GraphDocument } from './index.js';
import type { Decision, Verdict } from './policy.js';
import type { RunDetail, RunListItem } from '../core/contracts/provgate.js';

export type { RunListItem } from '../core/contracts/provgate.js';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'gate runs',
    up(db) {
      db.exec(`
        CREATE TABLE provgate_runs (
          id TEXT PRIMARY KEY,
          created_at TEXT NOT NULL,
          source TEXT NOT NULL CHECK (source IN ('gate', 'demo')),
          scenario TEXT,
          verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'warn', 'block')),
          reason_count INTEGER NOT NULL,
          block_count INTEGER NOT NULL,
          warn_count INTEGER NOT NULL,
          envelope_count INTEGER NOT NULL,
          rejected_count INTEGER NOT NULL,
          node_count INTEGER NOT NULL,
          edge_count INTEGER NOT NULL,
          finding_count INTEGER NOT NULL,
          envelopes_sha256 TEXT,
          result_json TEXT NOT NULL
        );
        CREATE INDEX provgate_runs_created ON provgate_runs (created_at DESC, id);
      `);
    },
  },
  {
    version: 2,
    name: 'trusted key log',
    up(db) {
      createKeyLog(db);
    },
  },
];

/** A stored run: its list item, the graph document (with the decision) and the PR comment. */
export interface StoredRun extends RunDetail {
  readonly graph: GraphDocument;
}

interface Row {
  id: string;
  created_at: string;
  source: 'gate' | 'demo';
  scenario: string | null;
  verdict: Verdict;
  reason_count: number;
  block_count: number;
  warn_count: number;
  envelope_count: number;
  rejected_count: number;
  node_count: number;
  edge_count: number;
  finding_count: number;
  envelopes_sha256: string | null;
  result_json?: string;
}

const COLUMNS =
  'id, created_at, source, scenario, verdict, reason_count, block_count, warn_count, envelope_count, rejected_count, node_count, edge_count, finding_count, envelopes_sha256';

function item(row: Row): RunListItem {
  return {
    runId: row.id,
    createdAt: row.created_at,
    source: row.source,
    scenario: row.scenario,
    verdict: row.verdict,
    reasons: row.reason_count,
    blocks: row.block_count,
    warns: row.warn_count,
    envelopes: row.envelope_count,
    rejected: row.rejected_count,
    nodes: row.node_count,
    edges: row.edge_count,
    findings: row.finding_count,
    envelopesSha256: row.envelopes_sha256,
  };
}

export interface SaveRun {
  readonly source: 'gate' | 'demo';
  readonly scenario?: string | null;
  readonly envelopes: number;
  readonly envelopesSha256?: string | null;
  readonly graph: GraphDocument;
  readonly decision: Decision;
  readonly comment: string;
}

/** Records a run; returns its list item (with the new run id). */
export function saveRun(db: Database, run: SaveRun, now: Date = new Date()): RunListItem {
  const row: Row = {
    id: randomUUID(),
    created_at: now.toISOString(),
    source: run.source,
    scenario: run.scenario ?? null,
    verdict: run.decision.verdict,
    reason_count: run.decision.reasons.length,
    block_count: run.decision.reasons.filter((r) => r.verdict === 'block').length,
    warn_count: run.decision.reasons.filter((r) => r.verdict === 'warn').length,
    envelope_count: run.envelopes,
    rejected_count: run.graph.rejected.length,
    node_count: run.graph.stats.nodes,
    edge_count: run.graph.stats.edges,
    finding_count: run.graph.stats.findings,
    envelopes_sha256: run.envelopesSha256 ?? null,
  };
  db.prepare(
    `INSERT INTO provgate_runs (${COLUMNS}, result_json) VALUES (@id, @created_at, @source, @scenario, @verdict, @reason_count, @block_count, @warn_count, @envelope_count, @rejected_count, @node_count, @edge_count, @finding_count, @envelopes_sha256, @result_json)`,
  ).run({ ...row, result_json: JSON.stringify({ graph: run.graph, decision: run.decision, comment: run.comment }) });
  return item(row);
}

/** Newest first. */
export function listRuns(db: Database, page: { readonly limit: number; readonly offset: number }): { items: RunListItem[]; total: number } {
  const rows = db.prepare(`SELECT ${COLUMNS} FROM provgate_runs ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(page.limit, page.offset) as Row[];
  const total = (db.prepare('SELECT COUNT(*) AS n FROM provgate_runs').get() as { n: number }).n;
  return { items: rows.map(item), total };
}

export function getRun(db: Database, id: string): StoredRun | null {
  const row = db.prepare(`SELECT ${COLUMNS}, result_json FROM provgate_runs WHERE id = ?`).get(id) as Row | undefined;
  if (!row) return null;
  const body = JSON.parse(row.result_json ?? '{}') as { graph: GraphDocument; decision: Decision; comment: string };
  return { ...item(row), graph: body.graph, decision: body.decision, comment: body.comment };
}
