// Replay's part of the workstation-wide search: stories (attacker, techniques, hosts, alerts) and analyses (name, capture hash, alerts, flows).
import type { Database } from 'better-sqlite3';
import { matchFields, searchRows, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';

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

function analyses(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
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
      return { service: 'replay', kind: 'analysis', id: r.id, title: r.name, ...m, link: { service: 'replay', kind: 'analysis', id: r.id }, time: r.created_at };
    },
  );
}

export const replaySearch: SearchProvider = {
  search(db, query, limit) {
    return [...stories(db, query, limit), ...analyses(db, query, limit)];
  },
};
