// The replay tables: analyses (capture summary, statistics, alerts) and their stories, with numbered migrations and the queries over them.
import type { Database } from 'better-sqlite3';
import type { Migration } from '../core/service.js';
import type { FlowTuple } from './browse/overview.js';
import { browseMigration, FLOW_ANALYSES_KEPT, saveBrowseRows } from './browse/store.js';
import type { ReplayAnalysis, Story, StorySummary } from './types.js';

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'analyses',
    up(db) {
      db.exec(`
        CREATE TABLE replay_analyses (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          source TEXT NOT NULL,
          created_at TEXT NOT NULL,
          capture_sha256 TEXT NOT NULL,
          capture_format TEXT NOT NULL,
          capture_bytes INTEGER NOT NULL,
          packets INTEGER NOT NULL,
          flows INTEGER NOT NULL,
          alerts INTEGER NOT NULL,
          stories INTEGER NOT NULL,
          result_json TEXT NOT NULL
        );
        CREATE INDEX replay_analyses_created ON replay_analyses (created_at DESC, id);
      `);
    },
  },
  {
    version: 2,
    name: 'stories',
    up(db) {
      db.exec(`
        CREATE TABLE replay_stories (
          id TEXT PRIMARY KEY,
          analysis_id TEXT NOT NULL REFERENCES replay_analyses (id) ON DELETE CASCADE,
          ordinal INTEGER NOT NULL,
          title TEXT NOT NULL,
          severity TEXT NOT NULL,
          score REAL NOT NULL,
          attacker TEXT,
          host_count INTEGER NOT NULL,
          alert_count INTEGER NOT NULL,
          stages_json TEXT NOT NULL,
          techniques_json TEXT NOT NULL,
          first_ts REAL NOT NULL,
          last_ts REAL NOT NULL,
          story_json TEXT NOT NULL,
          UNIQUE (analysis_id, ordinal)
        );
        CREATE INDEX replay_stories_analysis ON replay_stories (analysis_id, ordinal);
      `);
    },
  },
  browseMigration,
];

/** Analyses kept; saving one more deletes the oldest (and their stories). */
export const MAX_STORED_ANALYSES = 200;

/** Saves an analysis, its stories, alerts and flow rows in one transaction; trims the oldest past MAX_STORED_ANALYSES. */
export function saveAnalysis(db: Database, analysis: ReplayAnalysis & { readonly flow_table?: readonly FlowTuple[] }, keep = MAX_STORED_ANALYSES, keepFlows = FLOW_ANALYSES_KEPT): void {
  // The flow rows go to their own table, never into the analysis JSON.
  const { stories, flow_table: flows, ...rest } = analysis;
  const insertAnalysis = db.prepare(
    `INSERT INTO replay_analyses (id, name, source, created_at, capture_sha256, capture_format, capture_bytes, packets, flows, alerts, stories, result_json)
     VALUES (@id, @name, @source, @created_at, @capture_sha256, @capture_format, @capture_bytes, @packets, @flows, @alerts, @stories, @result_json)`,
  );
  const insertStory = db.prepare(
    `INSERT INTO replay_stories (id, analysis_id, ordinal, title, severity, score, attacker, host_count, alert_count, stages_json, techniques_json, first_ts, last_ts, story_json)
     VALUES (@id, @analysis_id, @ordinal, @title, @severity, @score, @attacker, @host_count, @alert_count, @stages_json, @techniques_json, @first_ts, @last_ts, @story_json)`,
  );
  db.transaction(() => {
    insertAnalysis.run({
      id: analysis.id,
      name: analysis.name,
      source: analysis.source,
      created_at: analysis.created_at,
      capture_sha256: analysis.capture.sha256,
      capture_format: analysis.capture.format,
      capture_bytes: analysis.capture.bytes,
      packets: analysis.stats.packets,
      flows: analysis.stats.flows,
      alerts: analysis.stats.alerts,
      stories: analysis.stats.stories,
      result_json: JSON.stringify({ ...rest, story_ids: stories.map((s) => s.id) }),
    });
    for (const s of stories) {
      insertStory.run({
        id: s.id,
        analysis_id: analysis.id,
        ordinal: s.ordinal,
        title: s.title,
        severity: s.severity,
        score: s.score,
        attacker: s.attacker,
        host_count: s.stats.hosts,
        alert_count: s.alerts.length,
        stages_json: JSON.stringify(s.stages),
        techniques_json: JSON.stringify(s.techniques.map((t) => t.id)),
        first_ts: s.first_ts,
        last_ts: s.last_ts,
        story_json: JSON.stringify(s),
      });
    }
    saveBrowseRows(db, analysis, flows, keepFlows);
    db.prepare(`DELETE FROM replay_analyses WHERE id NOT IN (SELECT id FROM replay_analyses ORDER BY created_at DESC, rowid DESC LIMIT ?)`).run(keep);
  })();
}

interface SummaryRow {
  id: string;
  analysis_id: string;
  analysis_name: string;
  ordinal: number;
  title: string;
  severity: StorySummary['severity'];
  score: number;
  attacker: string | null;
  host_count: number;
  alert_count: number;
  stages_json: string;
  techniques_json: string;
  first_ts: number;
  last_ts: number;
  created_at: string;
}

function summary(row: SummaryRow): StorySummary {
  return {
    id: row.id,
    analysis_id: row.analysis_id,
    analysis_name: row.analysis_name,
    ordinal: row.ordinal,
    title: row.title,
    severity: row.severity,
    score: row.score,
    attacker: row.attacker,
    hosts: row.host_count,
    stages: JSON.parse(row.stages_json) as StorySummary['stages'],
    techniques: JSON.parse(row.techniques_json) as string[],
    alerts: row.alert_count,
    first_ts: row.first_ts,
    last_ts: row.last_ts,
    created_at: row.created_at,
  };
}

/** Story summaries, newest analysis first and in story order within one; optionally of one analysis. */
export function listStories(db: Database, page: { readonly limit: number; readonly offset: number }, analysisId?: string): { items: StorySummary[]; total: number } {
  const where = analysisId === undefined ? '' : 'WHERE s.analysis_id = @analysis';
  const rows = db
    .prepare(
      `SELECT s.id, s.analysis_id, a.name AS analysis_name, s.ordinal, s.title, s.severity, s.score, s.attacker, s.host_count, s.alert_count,
              s.stages_json, s.techniques_json, s.first_ts, s.last_ts, a.created_at
       FROM replay_stories s JOIN replay_analyses a ON a.id = s.analysis_id ${where}
       ORDER BY a.created_at DESC, a.rowid DESC, s.ordinal LIMIT @limit OFFSET @offset`,
    )
    .all({ limit: page.limit, offset: page.offset, ...(analysisId === undefined ? {} : { analysis: analysisId }) }) as SummaryRow[];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM replay_stories s ${where}`).get(analysisId === undefined ? {} : { analysis: analysisId }) as { n: number }).n;
  return { items: rows.map(summary), total };
}

export function getStory(db: Database, id: string): Story | null {
  const row = db.prepare('SELECT story_json FROM replay_stories WHERE id = ?').get(id) as { story_json: string } | undefined;
  return row ? (JSON.parse(row.story_json) as Story) : null;
}

/** An analysis with its stories, as it was saved. */
export function getAnalysis(db: Database, id: string): ReplayAnalysis | null {
  const row = db.prepare('SELECT result_json FROM replay_analyses WHERE id = ?').get(id) as { result_json: string } | undefined;
  if (!row) return null;
  const { story_ids: _ids, ...rest } = JSON.parse(row.result_json) as Omit<ReplayAnalysis, 'stories'> & { story_ids: string[] };
  const stories = (db.prepare('SELECT story_json FROM replay_stories WHERE analysis_id = ? ORDER BY ordinal').all(id) as { story_json: string }[]).map((r) => JSON.parse(r.story_json) as Story);
  return { ...rest, stories };
}

export function countAnalyses(db: Database): { analyses: number; stories: number } {
  const a = (db.prepare('SELECT COUNT(*) AS n FROM replay_analyses').get() as { n: number }).n;
  const s = (db.prepare('SELECT COUNT(*) AS n FROM replay_stories').get() as { n: number }).n;
  return { analyses: a, stories: s };
}
