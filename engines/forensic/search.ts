// Cases' part of the workstation-wide search: cases by title and origin, their stories (hosts, techniques, summaries),
// evidence hashes, and every stored event, node and edge (one EXISTS probe per case over forensic_case_items).
import type { Database } from 'better-sqlite3';
import type { Story } from '../core/contracts/forensic.js';
import { findMatch, likeContains, locateInJson, matchFields, snippetAround, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';
import { CASE_ITEMS_TABLE, CASES_TABLE } from './store.js';

interface CaseRow {
  id: string;
  title: string;
  origin: string;
  created_at: string;
  export_json: string | null;
}

interface ItemRow {
  kind: string;
  seq: number;
  json: string;
}

const caseLink = (id: string) => ({ service: 'forensic', kind: 'case', id });

/** A case whose title, origin or exported view (stories, evidence, story events) holds the query: a story hit where a story does. */
function fromCase(q: ParsedQuery, r: CaseRow): SearchHit | null {
  const own = matchFields(q, [
    { name: 'title', text: r.title, rank: 3 },
    { name: 'origin', text: r.origin, rank: 2 },
  ]);
  if (own) return { service: 'forensic', kind: 'case', id: r.id, title: r.title, ...own, link: caseLink(r.id), time: r.created_at };
  if (r.export_json === null || !findMatch(q, r.export_json)) return null;
  let stories: readonly Story[];
  try {
    stories = (JSON.parse(r.export_json) as { stories?: readonly Story[] }).stories ?? [];
  } catch {
    return null;
  }
  for (const s of stories) {
    const m = matchFields(q, [
      { name: 'hosts', text: s.hosts.join(' '), rank: 3 },
      { name: 'techniques', text: s.techniques.map((t) => `${t.id} ${t.name}`).join(' · '), rank: 3 },
      { name: 'title', text: s.title, rank: 3 },
      { name: 'summary', text: s.summary, rank: 2 },
    ]);
    if (m) return { service: 'forensic', kind: 'story', id: `${r.id}/${s.id}`, title: `${s.title} (${r.title})`, ...m, link: { service: 'forensic', kind: 'story', id: s.id, parent: r.id }, time: r.created_at };
  }
  const at = locateInJson(q, r.export_json);
  return at ? { service: 'forensic', kind: 'case', id: r.id, title: r.title, field: `view: ${at.path}`, snippet: at.snippet, rank: 1, link: caseLink(r.id), time: r.created_at } : null;
}

/** The first stored event, node or edge of a case that holds the query. */
function fromItems(db: Database, q: ParsedQuery, r: Omit<CaseRow, 'export_json'>): SearchHit | null {
  const items = db.prepare(`SELECT kind, seq, json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND json LIKE ? ESCAPE '\\' LIMIT 8`).all(r.id, likeContains(q.value)) as ItemRow[];
  for (const it of items) {
    const at = locateInJson(q, it.json);
    const m = at ?? (() => {
      const raw = findMatch(q, it.json);
      return raw ? { path: '', snippet: snippetAround(it.json, raw) } : null;
    })();
    if (m) return { service: 'forensic', kind: 'case', id: r.id, title: r.title, field: `${it.kind} #${it.seq + 1}${m.path ? `: ${m.path}` : ''}`, snippet: m.snippet, rank: 1, link: caseLink(r.id), time: r.created_at };
  }
  return null;
}

export const forensicSearch: SearchProvider = {
  search(db, q, limit) {
    const n = limit * 4;
    const pattern = likeContains(q.value);
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    const cases = db
      .prepare(
        `SELECT id, title, origin, created_at, export_json FROM ${CASES_TABLE}
         WHERE title LIKE @pattern ESCAPE '\\' OR origin LIKE @pattern ESCAPE '\\' OR export_json LIKE @pattern ESCAPE '\\'
         ORDER BY created_at DESC LIMIT @n`,
      )
      .all({ pattern, n }) as CaseRow[];
    for (const r of cases) {
      const hit = fromCase(q, r);
      if (hit && hits.length < limit) {
        hits.push(hit);
        seen.add(r.id);
      }
    }
    if (hits.length >= limit) return hits;
    const withItems = db
      .prepare(
        `SELECT id, title, origin, created_at FROM ${CASES_TABLE} c
         WHERE EXISTS (SELECT 1 FROM ${CASE_ITEMS_TABLE} i WHERE i.case_id = c.id AND i.json LIKE @pattern ESCAPE '\\')
         ORDER BY created_at DESC LIMIT @n`,
      )
      .all({ pattern, n }) as Omit<CaseRow, 'export_json'>[];
    for (const r of withItems) {
      if (seen.has(r.id)) continue;
      const hit = fromItems(db, q, r);
      if (hit) hits.push(hit);
      if (hits.length >= limit) break;
    }
    return hits;
  },
};
