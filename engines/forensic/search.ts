// Cases' part of the workstation-wide search: cases by title and origin, their stories (hosts, techniques, summaries),
// evidence hashes, and every stored event, node and edge (one EXISTS probe per case over forensic_case_items). A
// match in a stored event is a hit on that event (at most EVENTS_PER_CASE per case); one in a node or edge only, on the case.
import type { Database } from 'better-sqlite3';
import type { ExportedEvent, Story } from '../core/contracts/forensic.js';
import { CANDIDATES_PER_HIT, findMatch, likeContains, locateInJson, matchFields, snippetAround, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';
import { CASE_ITEMS_TABLE, CASES_TABLE } from './store.js';

/** Most event hits one case gives; the last says so when more of its events hold the query. */
export const EVENTS_PER_CASE = 3;

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

function parseEvent(json: string): ExportedEvent | null {
  try {
    const e = JSON.parse(json) as Partial<ExportedEvent> | null;
    const ok = e !== null && typeof e === 'object' && typeof e.eventId === 'string' && typeof e.summary === 'string' && typeof e.time === 'object' && e.time !== null;
    return ok ? (e as ExportedEvent) : null;
  } catch {
    return null;
  }
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Where an event holds the query: its ids (3), who/what/where and its summary (2), anything else in it (1). */
function matchEvent(q: ParsedQuery, e: ExportedEvent, json: string): { field: string; snippet: string; rank: number } | null {
  const m = matchFields(q, [
    { name: 'event id', text: e.eventId, rank: 3 },
    { name: 'integrity hash', text: e.integrityHash, rank: 3 },
    { name: 'host', text: e.host, rank: 2 },
    { name: 'actor', text: e.actor?.name, rank: 2 },
    { name: 'object', text: e.object?.name, rank: 2 },
    { name: 'action', text: e.action, rank: 2 },
    { name: 'summary', text: e.summary, rank: 2 },
  ]);
  if (m) return m;
  const at = locateInJson(q, json);
  return at ? { field: at.path, snippet: at.snippet, rank: 1 } : null;
}

/** A case's stored events that hold the query, as event hits (at most EVENTS_PER_CASE, the last naming more when there are). */
function eventHits(db: Database, q: ParsedQuery, r: Omit<CaseRow, 'export_json'>, room: number): SearchHit[] {
  const want = Math.min(room, EVENTS_PER_CASE);
  const rows = db
    .prepare(`SELECT seq, json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind = 'event' AND json LIKE ? ESCAPE '\\' ORDER BY seq LIMIT ?`)
    .all(r.id, likeContains(q.value), (EVENTS_PER_CASE + 1) * CANDIDATES_PER_HIT) as Pick<ItemRow, 'seq' | 'json'>[];
  const hits: SearchHit[] = [];
  let more = false;
  for (const it of rows) {
    const e = parseEvent(it.json);
    if (!e) continue;
    const m = matchEvent(q, e, it.json);
    if (!m) continue;
    if (hits.length >= want) {
      more = true;
      break;
    }
    const when = e.time.time ?? 'no time';
    hits.push({
      service: 'forensic',
      kind: 'event',
      id: `${r.id}/${e.eventId}`,
      title: `${when} · ${e.host ?? 'no host'} · ${clip(e.summary, 100)} (${r.title})`,
      field: `event #${it.seq + 1}: ${m.field}`,
      snippet: m.snippet,
      rank: m.rank,
      link: { service: 'forensic', kind: 'event', id: e.eventId, parent: r.id },
      time: e.time.time ?? r.created_at,
    });
  }
  const last = hits[hits.length - 1];
  if (more && last) hits[hits.length - 1] = { ...last, title: `${last.title} · more events of this case match (first ${hits.length} shown; filter the case's timeline for the rest)` };
  return hits;
}

/** The first stored node or edge of a case that holds the query, as a hit on the case. */
function fromGraphItems(db: Database, q: ParsedQuery, r: Omit<CaseRow, 'export_json'>): SearchHit | null {
  const items = db.prepare(`SELECT kind, seq, json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind IN ('node', 'edge') AND json LIKE ? ESCAPE '\\' LIMIT 8`).all(r.id, likeContains(q.value)) as ItemRow[];
  for (const it of items) {
    const m =
      locateInJson(q, it.json) ??
      (() => {
        const raw = findMatch(q, it.json);
        return raw ? { path: '', snippet: snippetAround(it.json, raw) } : null;
      })();
    if (m) return { service: 'forensic', kind: 'case', id: r.id, title: r.title, field: `${it.kind} #${it.seq + 1}${m.path ? `: ${m.path}` : ''}`, snippet: m.snippet, rank: 1, link: caseLink(r.id), time: r.created_at };
  }
  return null;
}

/** A case's own hit where its title, origin or a story holds the query; else its events' hits; else a node, edge or view hit. */
export const forensicSearch: SearchProvider = {
  search(db, q, limit) {
    const n = limit * CANDIDATES_PER_HIT;
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
      if (hits.length >= limit) return hits;
      const hit = fromCase(q, r);
      if (!hit) continue;
      seen.add(r.id);
      // Only in the exported view's events: the stored events that hold it, else the view hit. A match in its evidence
      // inventory (an artefact's SHA-256, which every event's raw reference repeats) stays a hit on the case.
      const events = hit.kind === 'case' && hit.field.startsWith('view: events') ? eventHits(db, q, r, limit - hits.length) : [];
      hits.push(...(events.length > 0 ? events : [hit]));
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
      const events = eventHits(db, q, r, limit - hits.length);
      const hit = events.length > 0 ? null : fromGraphItems(db, q, r);
      hits.push(...events, ...(hit ? [hit] : []));
      if (hits.length >= limit) break;
    }
    return hits.slice(0, limit);
  },
};
