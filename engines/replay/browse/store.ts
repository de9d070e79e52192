// The tables behind the alert and flow browsers: every alert of an analysis (with its story) and the first connections of the newest analyses, queried by page with filters.
import type { Database } from 'better-sqlite3';
import type { Migration } from '../../core/service.js';
import type { Alert, AlertRow, AnalysisDetail, AnalysisSummary, FlowRow, ReplayAnalysis, Severity, Story } from '../types.js';
import { severityRank } from '../types.js';
import { flowRowOf, type FlowTuple } from './overview.js';

/** Analyses whose flow rows are kept (the newest); older ones keep their alerts and stories, and say their flows are gone. */
export const FLOW_ANALYSES_KEPT = 20;

interface AlertInsert {
  readonly analysis_id: string;
  readonly n: number;
  readonly rule: string;
  readonly severity: string;
  readonly sev_rank: number;
  readonly stage: string;
  readonly src: string;
  readonly hosts: string;
  readonly first_ts: number;
  readonly last_ts: number;
  readonly story_id: string | null;
  readonly story_ordinal: number | null;
  readonly alert_json: string;
}

function alertNumber(id: string): number {
  const n = Number(id.replace(/^A/, ''));
  return Number.isInteger(n) ? n : 0;
}

/** The row of one alert: the columns the filters and sorts read, and the alert itself. */
function alertInsert(analysisId: string, a: Alert, story: { id: string; ordinal: number } | undefined): AlertInsert {
  return {
    analysis_id: analysisId,
    n: alertNumber(a.id),
    rule: a.rule,
    severity: a.severity,
    sev_rank: severityRank(a.severity),
    stage: a.stage,
    src: a.src,
    // Space-delimited on both ends so a host filter matches whole addresses only.
    hosts: ` ${[a.src, ...a.dst].join(' ')} `,
    first_ts: a.first_ts,
    last_ts: a.last_ts,
    story_id: story?.id ?? null,
    story_ordinal: story?.ordinal ?? null,
    alert_json: JSON.stringify(a),
  };
}

const INSERT_ALERT = `INSERT INTO replay_alerts (analysis_id, n, rule, severity, sev_rank, stage, src, hosts, first_ts, last_ts, story_id, story_ordinal, alert_json)
  VALUES (@analysis_id, @n, @rule, @severity, @sev_rank, @stage, @src, @hosts, @first_ts, @last_ts, @story_id, @story_ordinal, @alert_json)`;

function storyOfAlerts(stories: ReadonlyArray<Pick<Story, 'id' | 'ordinal' | 'alerts'>>): Map<string, { id: string; ordinal: number }> {
  const out = new Map<string, { id: string; ordinal: number }>();
  for (const s of stories) for (const a of s.alerts) if (!out.has(a.id)) out.set(a.id, { id: s.id, ordinal: s.ordinal });
  return out;
}

/** Migration 3 of the replay service: the alert and flow tables, with the alerts of analyses saved before it filled in. */
export const browseMigration: Migration = {
  version: 3,
  name: 'alerts and flows',
  up(db) {
    db.exec(`
      ALTER TABLE replay_analyses ADD COLUMN flows_stored INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE replay_alerts (
        analysis_id TEXT NOT NULL REFERENCES replay_analyses (id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        rule TEXT NOT NULL,
        severity TEXT NOT NULL,
        sev_rank INTEGER NOT NULL,
        stage TEXT NOT NULL,
        src TEXT NOT NULL,
        hosts TEXT NOT NULL,
        first_ts REAL NOT NULL,
        last_ts REAL NOT NULL,
        story_id TEXT,
        story_ordinal INTEGER,
        alert_json TEXT NOT NULL,
        PRIMARY KEY (analysis_id, n)
      );
      CREATE INDEX replay_alerts_time ON replay_alerts (analysis_id, first_ts);
      CREATE TABLE replay_flows (
        analysis_id TEXT NOT NULL REFERENCES replay_analyses (id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        uid TEXT NOT NULL,
        proto TEXT NOT NULL,
        app TEXT NOT NULL,
        orig_h TEXT NOT NULL,
        orig_p INTEGER NOT NULL,
        resp_h TEXT NOT NULL,
        resp_p INTEGER NOT NULL,
        start_ts REAL NOT NULL,
        duration REAL NOT NULL,
        conn_state TEXT NOT NULL,
        service TEXT NOT NULL,
        orig_packets INTEGER NOT NULL,
        resp_packets INTEGER NOT NULL,
        orig_bytes INTEGER NOT NULL,
        resp_bytes INTEGER NOT NULL,
        first_packet INTEGER NOT NULL,
        PRIMARY KEY (analysis_id, n)
      );
      CREATE INDEX replay_flows_orig ON replay_flows (analysis_id, orig_h);
      CREATE INDEX replay_flows_resp ON replay_flows (analysis_id, resp_h);
      CREATE INDEX replay_flows_port ON replay_flows (analysis_id, resp_p);
    `);
    const insert = db.prepare(INSERT_ALERT);
    const analyses = db.prepare('SELECT id, result_json FROM replay_analyses').all() as { id: string; result_json: string }[];
    const storiesOf = db.prepare('SELECT story_json FROM replay_stories WHERE analysis_id = ?');
    for (const row of analyses) {
      const saved = JSON.parse(row.result_json) as { alerts?: Alert[] };
      const stories = (storiesOf.all(row.id) as { story_json: string }[]).map((s) => JSON.parse(s.story_json) as Story);
      const inStory = storyOfAlerts(stories);
      for (const a of saved.alerts ?? []) insert.run(alertInsert(row.id, a, inStory.get(a.id)));
    }
  },
};

/** Inside saveAnalysis's transaction: the analysis's alerts and flow rows, then the flows of analyses past FLOW_ANALYSES_KEPT dropped. */
export function saveBrowseRows(db: Database, analysis: ReplayAnalysis, flows: readonly FlowTuple[] | undefined, keepFlows = FLOW_ANALYSES_KEPT): void {
  const insertAlert = db.prepare(INSERT_ALERT);
  const inStory = storyOfAlerts(analysis.stories);
  for (const a of analysis.alerts) insertAlert.run(alertInsert(analysis.id, a, inStory.get(a.id)));
  if (flows && flows.length > 0) {
    const insertFlow = db.prepare(
      `INSERT INTO replay_flows (analysis_id, n, uid, proto, app, orig_h, orig_p, resp_h, resp_p, start_ts, duration, conn_state, service, orig_packets, resp_packets, orig_bytes, resp_bytes, first_packet)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    flows.forEach((t, i) => {
      insertFlow.run(analysis.id, i + 1, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10].join(','), t[11], t[12], t[13], t[14], t[15]);
    });
    db.prepare('UPDATE replay_analyses SET flows_stored = ? WHERE id = ?').run(flows.length, analysis.id);
  }
  const old = db
    .prepare(`SELECT id FROM replay_analyses WHERE flows_stored > 0 ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?`)
    .all(keepFlows) as { id: string }[];
  for (const { id } of old) {
    db.prepare('DELETE FROM replay_flows WHERE analysis_id = ?').run(id);
    db.prepare('UPDATE replay_analyses SET flows_stored = 0 WHERE id = ?').run(id);
  }
}

export interface AlertQuery {
  readonly rule?: readonly string[] | undefined;
  readonly severity?: readonly Severity[] | undefined;
  readonly stage?: readonly string[] | undefined;
  readonly host?: string | undefined;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  /** `story`: only alerts in a story; `none`: only those in none. */
  readonly in_story?: 'story' | 'none' | undefined;
  readonly sort: 'time' | 'severity' | 'rule' | 'src' | 'story';
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

const ALERT_SORT: Record<AlertQuery['sort'], string> = {
  time: 'first_ts',
  severity: 'sev_rank',
  rule: 'rule',
  src: 'src',
  story: 'COALESCE(story_ordinal, 1e9)',
};

function inList(column: string, values: readonly string[], params: Record<string, unknown>, prefix: string): string {
  const names = values.map((v, i) => {
    params[`${prefix}${i}`] = v;
    return `@${prefix}${i}`;
  });
  return `${column} IN (${names.join(', ')})`;
}

/** One page of an analysis's alerts matching every filter given, sorted (ties by alert number). */
export function queryAlerts(db: Database, analysisId: string, q: AlertQuery): { items: AlertRow[]; total: number } {
  const params: Record<string, unknown> = { analysis: analysisId };
  const where = ['analysis_id = @analysis'];
  if (q.rule && q.rule.length > 0) where.push(inList('rule', q.rule, params, 'r'));
  if (q.severity && q.severity.length > 0) where.push(inList('severity', q.severity, params, 's'));
  if (q.stage && q.stage.length > 0) where.push(inList('stage', q.stage, params, 'g'));
  if (q.host !== undefined) {
    params['host'] = ` ${q.host} `;
    where.push('instr(hosts, @host) > 0');
  }
  if (q.from !== undefined) {
    params['from'] = q.from;
    where.push('last_ts >= @from');
  }
  if (q.to !== undefined) {
    params['to'] = q.to;
    where.push('first_ts <= @to');
  }
  if (q.in_story === 'story') where.push('story_id IS NOT NULL');
  if (q.in_story === 'none') where.push('story_id IS NULL');
  const clause = where.join(' AND ');
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM replay_alerts WHERE ${clause}`).get(params) as { n: number }).n;
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(`SELECT alert_json, story_id, story_ordinal FROM replay_alerts WHERE ${clause} ORDER BY ${ALERT_SORT[q.sort]} ${dir}, n ${dir} LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: q.limit, offset: q.offset }) as { alert_json: string; story_id: string | null; story_ordinal: number | null }[];
  return { items: rows.map((r) => ({ ...(JSON.parse(r.alert_json) as Alert), story_id: r.story_id, story_ordinal: r.story_ordinal })), total };
}

export interface FlowQuery {
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  /** A transport (`tcp`, `udp`, `icmp` ...) or a breakdown name (`http`, `ssl`, `tcp/445`). */
  readonly protocol?: string | undefined;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  readonly sort: 'time' | 'duration' | 'bytes' | 'packets' | 'orig_h' | 'resp_h' | 'resp_p' | 'protocol' | 'state';
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

const FLOW_SORT: Record<FlowQuery['sort'], string> = {
  time: 'start_ts',
  duration: 'duration',
  bytes: '(orig_bytes + resp_bytes)',
  packets: '(orig_packets + resp_packets)',
  orig_h: 'orig_h',
  resp_h: 'resp_h',
  resp_p: 'resp_p',
  protocol: 'app',
  state: 'conn_state',
};

interface FlowDbRow {
  n: number;
  uid: string;
  proto: string;
  app: string;
  orig_h: string;
  orig_p: number;
  resp_h: string;
  resp_p: number;
  start_ts: number;
  duration: number;
  conn_state: string;
  service: string;
  orig_packets: number;
  resp_packets: number;
  orig_bytes: number;
  resp_bytes: number;
  first_packet: number;
}

/** One page of an analysis's stored flows matching every filter given, sorted (ties by capture order). */
export function queryFlows(db: Database, analysisId: string, q: FlowQuery): { items: FlowRow[]; total: number } {
  const params: Record<string, unknown> = { analysis: analysisId };
  const where = ['analysis_id = @analysis'];
  if (q.host !== undefined) {
    params['host'] = q.host;
    where.push('(orig_h = @host OR resp_h = @host)');
  }
  if (q.port !== undefined) {
    params['port'] = q.port;
    where.push('(orig_p = @port OR resp_p = @port)');
  }
  if (q.protocol !== undefined) {
    params['protocol'] = q.protocol;
    where.push('(proto = @protocol OR app = @protocol)');
  }
  if (q.from !== undefined) {
    params['from'] = q.from;
    where.push('start_ts + duration >= @from');
  }
  if (q.to !== undefined) {
    params['to'] = q.to;
    where.push('start_ts <= @to');
  }
  const clause = where.join(' AND ');
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM replay_flows WHERE ${clause}`).get(params) as { n: number }).n;
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT n, uid, proto, app, orig_h, orig_p, resp_h, resp_p, start_ts, duration, conn_state, service, orig_packets, resp_packets, orig_bytes, resp_bytes, first_packet
       FROM replay_flows WHERE ${clause} ORDER BY ${FLOW_SORT[q.sort]} ${dir}, n ${dir} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: q.limit, offset: q.offset }) as FlowDbRow[];
  return {
    items: rows.map((r) =>
      flowRowOf(
        [r.uid, r.proto, r.app, r.orig_h, r.orig_p, r.resp_h, r.resp_p, r.start_ts, r.duration, r.conn_state, r.service === '' ? [] : r.service.split(','), r.orig_packets, r.resp_packets, r.orig_bytes, r.resp_bytes, r.first_packet],
        r.n,
      ),
    ),
    total,
  };
}

interface AnalysisRow {
  id: string;
  name: string;
  source: AnalysisSummary['source'];
  created_at: string;
  capture_format: AnalysisSummary['capture_format'];
  capture_bytes: number;
  packets: number;
  flows: number;
  alerts: number;
  stories: number;
  flows_stored: number;
}

/** Analyses, newest first. */
export function listAnalyses(db: Database, page: { readonly limit: number; readonly offset: number }): { items: AnalysisSummary[]; total: number } {
  const items = db
    .prepare(
      `SELECT id, name, source, created_at, capture_format, capture_bytes, packets, flows, alerts, stories, flows_stored
       FROM replay_analyses ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`,
    )
    .all({ limit: page.limit, offset: page.offset }) as AnalysisRow[];
  const total = (db.prepare('SELECT COUNT(*) AS n FROM replay_analyses').get() as { n: number }).n;
  return { items, total };
}

/** The analysis as saved, without its alerts (paged apart) and with its stories as ids. */
export function getAnalysisDetail(db: Database, id: string): AnalysisDetail | null {
  const row = db.prepare('SELECT result_json, flows_stored FROM replay_analyses WHERE id = ?').get(id) as { result_json: string; flows_stored: number } | undefined;
  if (!row) return null;
  const { alerts: _alerts, ...rest } = JSON.parse(row.result_json) as Omit<AnalysisDetail, 'flows_stored'> & { alerts?: unknown };
  return { ...rest, flows_stored: row.flows_stored };
}

/** Connections of the capture and flow rows kept, or null for an unknown analysis. */
export function flowCounts(db: Database, id: string): { flows: number; flows_stored: number } | null {
  return (db.prepare('SELECT flows, flows_stored FROM replay_analyses WHERE id = ?').get(id) as { flows: number; flows_stored: number } | undefined) ?? null;
}
