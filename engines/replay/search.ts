// Replay's part of the workstation-wide search: stories (attacker, techniques, hosts, alerts), alert rules of an analysis
// (rule, hosts, techniques, summary, over the replay_alerts table) and analyses (name, capture hash, flows). A match
// inside an analysis's alerts is an alert hit (the rule in that analysis), not an analysis hit.
import type { Database } from 'better-sqlite3';
import { CANDIDATES_PER_HIT, likeContains, matchFields, searchRows, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';

interface StoryRow {
  id: string;
  analysis_id: string;
  title: string;
  attacker: string | null;
  techniques_json: string;
  story_json: string;
  created_at: string;
  name: string;
}

interface AnalysisRow {
  id: string;
  name: string;
  capture_sha256: string;
  created_at: string;
  result_json: string;
}

/** A stored JSON list of ids as `T1046, T1078`. */
function listOf(json: string): string {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.join(', ') : '';
  } catch {
    return '';
  }
}

function stories(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  return searchRows<StoryRow>(
    db,
    `SELECT s.id, s.analysis_id, s.title, s.attacker, s.techniques_json, s.story_json, a.created_at, a.name
     FROM replay_stories s JOIN replay_analyses a ON a.id = s.analysis_id
     WHERE s.title LIKE @pattern ESCAPE '\\' OR s.attacker LIKE @pattern ESCAPE '\\' OR s.story_json LIKE @pattern ESCAPE '\\'
     ORDER BY a.created_at DESC, s.ordinal LIMIT @n`,
    {},
    q,
    limit,
    (r) => {
      const m = matchFields(q, [
        { name: 'attacker', text: r.attacker, rank: 3 },
        { name: 'techniques', text: listOf(r.techniques_json), rank: 3 },
        { name: 'title', text: r.title, rank: 3 },
        { name: 'story', text: r.story_json, json: true, rank: 1 },
      ]);
      if (!m) return null;
      return { service: 'replay', kind: 'story', id: r.id, title: `${r.title} (${r.name})`, ...m, link: { service: 'replay', kind: 'story', id: r.id, parent: r.analysis_id }, time: r.created_at };
    },
  );
}

interface AlertRuleRow {
  analysis_id: string;
  rule: string;
  severity: string;
  alerts: number;
  alert_json: string;
  created_at: string;
  name: string;
}

/** The parts of an alert that name it (matched at rank 3 and 2); the rest of it is matched as a document (rank 1). */
function alertParts(json: string): { title: string; summary: string; techniques: string; hosts: string } | null {
  try {
    const a = JSON.parse(json) as { title?: unknown; summary?: unknown; techniques?: unknown; src?: unknown; dst?: unknown; compromised?: unknown };
    const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return {
      title: typeof a.title === 'string' ? a.title : '',
      summary: typeof a.summary === 'string' ? a.summary : '',
      techniques: list(a.techniques).join(', '),
      hosts: [...(typeof a.src === 'string' ? [a.src] : []), ...list(a.dst), ...list(a.compromised)].join(' '),
    };
  } catch {
    return null;
  }
}

/**
 * One hit per alert rule of an analysis whose alerts hold the query, newest analyses first: the matching alerts grouped
 * by (analysis_id, rule), the first of each joined back by the alerts' primary key (analysis_id, n) and counted there.
 * An address is matched against the space-delimited hosts column as a whole address. When the first alert of a rule is
 * only a LIKE match (10.0.0.1 in 10.0.0.12), the next few of that rule are read (the same key) before giving it up.
 */
function alertRules(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const address = q.kind === 'ipv4' || q.kind === 'ipv6';
  const filter = address ? `(instr(hosts, @host) > 0 OR alert_json LIKE @pattern ESCAPE '\\')` : `(rule LIKE @pattern ESCAPE '\\' OR alert_json LIKE @pattern ESCAPE '\\')`;
  const params = { pattern: likeContains(q.value), host: ` ${q.value} ` };
  const rows = db
    .prepare(
      `WITH hit AS (SELECT analysis_id, rule, MIN(n) AS n FROM replay_alerts WHERE ${filter} GROUP BY analysis_id, rule)
       SELECT h.analysis_id, h.rule, al.severity, al.alert_json, a.created_at, a.name,
              (SELECT COUNT(*) FROM replay_alerts x WHERE x.analysis_id = h.analysis_id AND x.rule = h.rule) AS alerts
       FROM hit h JOIN replay_analyses a ON a.id = h.analysis_id JOIN replay_alerts al ON al.analysis_id = h.analysis_id AND al.n = h.n
       ORDER BY a.created_at DESC, h.n LIMIT @n`,
    )
    .all({ ...params, n: limit * CANDIDATES_PER_HIT }) as AlertRuleRow[];
  const others = db.prepare(`SELECT severity, alert_json FROM replay_alerts WHERE analysis_id = @analysis AND rule = @rule AND ${filter} ORDER BY n LIMIT 8 OFFSET 1`);
  const matchAlert = (r: { rule: string; alert_json: string }) => {
    const parts = alertParts(r.alert_json);
    const m = matchFields(q, [
      { name: 'rule', text: r.rule, rank: 3 },
      // A host or technique of an alert ranks under the story that gathers it (which names them at rank 3).
      { name: 'hosts', text: parts?.hosts, rank: 2 },
      { name: 'techniques', text: parts?.techniques, rank: 2 },
      { name: 'title', text: parts?.title, rank: 2 },
      { name: 'summary', text: parts?.summary, rank: 2 },
      { name: 'alert', text: r.alert_json, json: true, rank: 1 },
    ]);
    return m ? { m, parts } : null;
  };
  const hits: SearchHit[] = [];
  for (const r of rows) {
    let found = matchAlert(r);
    let severity = r.severity;
    if (!found) {
      for (const o of others.all({ ...params, analysis: r.analysis_id, rule: r.rule }) as { severity: string; alert_json: string }[]) {
        found = matchAlert({ rule: r.rule, alert_json: o.alert_json });
        severity = o.severity;
        if (found) break;
      }
    }
    if (!found) continue;
    const { m, parts } = found;
    hits.push({
      service: 'replay',
      kind: 'alert',
      id: `${r.analysis_id}/${r.rule}`,
      title: `${parts?.title || r.rule} · ${severity} · ${r.alerts} alert${r.alerts === 1 ? '' : 's'} of rule ${r.rule} (${r.name})`,
      ...m,
      link: { service: 'replay', kind: 'alert', id: r.rule, parent: r.analysis_id },
      time: r.created_at,
    });
    if (hits.length >= limit) break;
  }
  return hits;
}

function analyses(db: Database, q: ParsedQuery, limit: number, withAlertHits: ReadonlySet<string>): SearchHit[] {
  return searchRows<AnalysisRow>(
    db,
    `SELECT id, name, capture_sha256, created_at, result_json FROM replay_analyses
     WHERE name LIKE @pattern ESCAPE '\\' OR capture_sha256 LIKE @pattern ESCAPE '\\' OR result_json LIKE @pattern ESCAPE '\\'
     ORDER BY created_at DESC LIMIT @n`,
    {},
    q,
    limit,
    (r) => {
      const m = matchFields(q, [
        { name: 'capture sha256', text: r.capture_sha256, rank: 3 },
        { name: 'name', text: r.name, rank: 3 },
        { name: 'analysis', text: r.result_json, json: true, rank: 1 },
      ]);
      if (!m) return null;
      // Inside its alerts (or their per-rule counts): the alert hit opens the rule; the analysis hit would only repeat it.
      if (/^analysis: (?:alerts|rules)\b/.test(m.field) && withAlertHits.has(r.id)) return null;
      return { service: 'replay', kind: 'analysis', id: r.id, title: r.name, ...m, link: { service: 'replay', kind: 'analysis', id: r.id }, time: r.created_at };
    },
  );
}

export const replaySearch: SearchProvider = {
  async search(db, query, limit) {
    const alerts = alertRules(db, query, limit);
    return [...stories(db, query, limit), ...alerts, ...analyses(db, query, limit, new Set(alerts.map((h) => h.link.parent ?? '')))];
  },
};
