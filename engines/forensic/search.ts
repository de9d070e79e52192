// Cases' part of the workstation-wide search, and the search inside one case: cases by title and origin, every story
// that holds the query (hosts, techniques, title, summary), every stored event that holds it (in stored order, paged,
// with the count), and a node or edge match as a hit on the case. An evidence file's hash (which every event's raw
// reference repeats) stays one hit on the case.
import type { Database } from 'better-sqlite3';
import { attackLookup } from '../core/attack/lookup.js';
import type { ExportedEvent, Story } from '../core/contracts/forensic.js';
import { CANDIDATES_PER_HIT, findMatch, likeContains, locateInJson, matchFields, snippetAround, type ParsedQuery, type SearchField, type SearchHit, type SearchProvider } from '../core/search.js';
import { CASE_ITEMS_TABLE, CASE_TEXTS_TABLE, CASES_TABLE } from './store.js';

/** A case's stored export (the stories with their events, nodes and edges), from the texts table. */
const EXPORT_TEXT = `(SELECT t.text FROM ${CASE_TEXTS_TABLE} t WHERE t.case_id = ${CASES_TABLE}.id AND t.name = 'export')`;
/** A case's view and items are searched once it is done (a case being stored holds part of them). */
const DONE_EXPORT = `CASE WHEN status = 'done' THEN ${EXPORT_TEXT} END AS export_json`;
const DONE_ITEMS = `case_id IN (SELECT id FROM ${CASES_TABLE} WHERE status = 'done')`;

/** How many matching events the workstation search counts per case for its "N events match" note (the case search counts all). */
export const EVENT_COUNT_CAP = 1000;

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

/** The case's own hit when its title or origin holds the query. */
function ownHit(q: ParsedQuery, r: Omit<CaseRow, 'export_json'>): SearchHit | null {
  const own = matchFields(q, [
    { name: 'title', text: r.title, rank: 3 },
    { name: 'origin', text: r.origin, rank: 2 },
  ]);
  return own ? { service: 'forensic', kind: 'case', id: r.id, title: r.title, ...own, link: caseLink(r.id), time: r.created_at } : null;
}

/** The parts of a case's exported view the search reads: its stories and its evidence hashes (lower case). */
interface ViewParts {
  readonly stories: readonly Story[];
  readonly evidenceHashes: ReadonlySet<string>;
}

function viewParts(json: string | null): ViewParts | null {
  if (json === null) return null;
  try {
    const v = JSON.parse(json) as { stories?: readonly Story[]; evidence?: readonly { sha256?: unknown }[] } | null;
    if (v === null || typeof v !== 'object') return null;
    const hashes = (v.evidence ?? []).map((e) => e.sha256).filter((h): h is string => typeof h === 'string');
    return { stories: Array.isArray(v.stories) ? v.stories : [], evidenceHashes: new Set(hashes.map((h) => h.toLowerCase())) };
  } catch {
    return null;
  }
}

/**
 * The query and what else means the same in ATT&CK: a technique id revoked in a newer release also finds stories tagged
 * with its replacement (T1070.001 finds T1685.005; the other way round the stored tag carries `revokedBy`); a tactic
 * named by its short name or its name (`credential access`) finds its short name, and Defense Evasion, which ATT&CK v19
 * split, also finds Stealth and Defense Impairment.
 */
export function queryVariants(q: ParsedQuery): ParsedQuery[] {
  const out: ParsedQuery[] = [q];
  const lookup = attackLookup();
  if (q.kind === 'technique') {
    const by = lookup.technique(q.value).revokedBy;
    if (by !== undefined) out.push({ kind: 'technique', value: by });
    return out;
  }
  if (q.kind !== 'text') return out;
  const short = q.value.trim().toLowerCase().replace(/[\s_]+/g, '-');
  if (!lookup.isTactic(short)) return out;
  if (short !== q.value) out.push({ kind: 'text', value: short });
  if (short === 'defense-evasion') out.push({ kind: 'text', value: 'stealth' }, { kind: 'text', value: 'defense-impairment' });
  return out;
}

/** The tactics a story stands for, searchable: its stages and its techniques' tactics, each by short name and name. */
function tacticsText(s: Story): string {
  const lookup = attackLookup();
  const names = new Set<string>([...s.stages, ...s.techniques.flatMap((t) => t.tactics)]);
  return [...names].map((t) => `${t} ${lookup.tactic(t)?.name ?? ''}`.trim()).join(' · ');
}

/** Whether any variant of the query occurs in a text (a prefilter before parsing a view). */
function anyMatch(variants: readonly ParsedQuery[], text: string): boolean {
  return variants.some((v) => findMatch(v, text) !== null);
}

/** Every story of a case that holds the query (hosts, techniques, tactics, title, summary), each a story hit, in story order. */
function storyHits(q: ParsedQuery, r: Omit<CaseRow, 'export_json'>, stories: readonly Story[]): SearchHit[] {
  const hits: SearchHit[] = [];
  const variants = queryVariants(q);
  for (const s of stories) {
    const fields: SearchField[] = [
      { name: 'hosts', text: s.hosts.join(' '), rank: 3 },
      { name: 'techniques', text: s.techniques.map((t) => `${t.id} ${t.name}${t.revokedBy !== undefined ? ` ${t.revokedBy}` : ''}`).join(' · '), rank: 3 },
      { name: 'title', text: s.title, rank: 3 },
      { name: 'tactics', text: tacticsText(s), rank: 2 },
      { name: 'summary', text: s.summary, rank: 2 },
    ];
    let m: ReturnType<typeof matchFields> = null;
    for (const v of variants) if ((m = matchFields(v, fields)) !== null) break;
    if (m) hits.push({ service: 'forensic', kind: 'story', id: `${r.id}/${s.id}`, title: `${s.title} (${r.title})`, ...m, link: { service: 'forensic', kind: 'story', id: s.id, parent: r.id }, time: r.created_at });
  }
  return hits;
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

/** The event hits of one page of a case's matching events, and how many match (at least, when `capped`). */
interface EventMatches {
  readonly hits: SearchHit[];
  readonly total: number;
  readonly capped: boolean;
}

/**
 * A case's stored events that hold the query, in stored order: the hits from `offset` (at most `limit`) and the count
 * of all of them, stopping at `countCap` once the page is full. SQL LIKE prefilters; an event matches when its stored
 * JSON holds the query by the query kind's rules (findMatch) and it parses.
 */
function eventMatches(db: Database, q: ParsedQuery, r: Omit<CaseRow, 'export_json'>, offset: number, limit: number, countCap: number): EventMatches {
  const rows = db
    .prepare(`SELECT seq, json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND ${DONE_ITEMS} AND kind = 'event' AND json LIKE ? ESCAPE '\\' ORDER BY seq`)
    .iterate(r.id, likeContains(q.value)) as IterableIterator<Pick<ItemRow, 'seq' | 'json'>>;
  const hits: SearchHit[] = [];
  let total = 0;
  let capped = false;
  for (const it of rows) {
    if (total >= countCap && hits.length >= limit) {
      capped = true;
      break;
    }
    if (!findMatch(q, it.json)) continue;
    const e = parseEvent(it.json);
    if (!e) continue;
    const index = total++;
    if (index < offset || hits.length >= limit) continue;
    const m = matchEvent(q, e, it.json) ?? { field: 'event', snippet: snippetAround(it.json, findMatch(q, it.json) ?? { index: 0, length: 0 }), rank: 1 };
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
  return { hits, total, capped };
}

/** The first stored node or edge of a case that holds the query, as a hit on the case. */
function fromGraphItems(db: Database, q: ParsedQuery, r: Omit<CaseRow, 'export_json'>): SearchHit | null {
  const items = db.prepare(`SELECT kind, seq, json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND ${DONE_ITEMS} AND kind IN ('node', 'edge') AND json LIKE ? ESCAPE '\\' LIMIT 8`).all(r.id, likeContains(q.value)) as ItemRow[];
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

/** A hit on the case where its exported view holds the query elsewhere (evidence inventory, detections, ...). */
function viewHit(q: ParsedQuery, r: CaseRow): SearchHit | null {
  if (r.export_json === null) return null;
  const at = locateInJson(q, r.export_json);
  return at ? { service: 'forensic', kind: 'case', id: r.id, title: r.title, field: `view: ${at.path}`, snippet: at.snippet, rank: 1, link: caseLink(r.id), time: r.created_at } : null;
}

/** Whether the query is one of the case's evidence hashes (repeated by every event's raw reference: a hit on the case only). */
function isEvidenceHash(q: ParsedQuery, parts: ViewParts | null): boolean {
  return parts !== null && (q.kind === 'sha256' || q.kind === 'sha1' || q.kind === 'md5') && parts.evidenceHashes.has(q.value.toLowerCase());
}

/** A page of one case's search. */
export interface CaseSearchPage {
  readonly items: readonly SearchHit[];
  /** Every hit of the case: its own, its stories', its events' (a graph-only or view-only match counts one). */
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/**
 * Everything of one case that holds the query, in order: the case itself (title or origin), every matching story,
 * then every matching stored event in stored order; when none of these, one hit on the case for a match in its view
 * or graph. Paged by offset/limit, with the total. Null when there is no such case.
 */
export function searchCase(db: Database, caseId: string, q: ParsedQuery, p: { readonly offset: number; readonly limit: number }): CaseSearchPage | null {
  const r = db.prepare(`SELECT id, title, origin, created_at, ${DONE_EXPORT} FROM ${CASES_TABLE} WHERE id = ?`).get(caseId) as CaseRow | undefined;
  if (r === undefined) return null;
  const parts = viewParts(r.export_json);
  const head: SearchHit[] = [];
  const own = ownHit(q, r);
  if (own) head.push(own);
  if (parts !== null && r.export_json !== null && anyMatch(queryVariants(q), r.export_json)) head.push(...storyHits(q, r, parts.stories));
  const evidence = isEvidenceHash(q, parts);
  const headPage = head.slice(p.offset, p.offset + p.limit);
  const events = evidence ? { hits: [], total: 0, capped: false } : eventMatches(db, q, r, Math.max(0, p.offset - head.length), p.limit - headPage.length, Number.POSITIVE_INFINITY);
  let items = [...headPage, ...events.hits];
  let total = head.length + events.total;
  if (total === 0) {
    const other = viewHit(q, r) ?? fromGraphItems(db, q, r);
    total = other ? 1 : 0;
    items = other && p.offset === 0 && p.limit > 0 ? [other] : [];
  }
  return { items, total, limit: p.limit, offset: p.offset };
}

/** The note the last hit of a case carries when the case holds more matches than the workstation search shows. */
function withMoreNote(hit: SearchHit, shown: number, total: number, capped: boolean): SearchHit {
  const count = capped ? `${total.toLocaleString('en')}+` : total.toLocaleString('en');
  return { ...hit, title: `${hit.title} · ${shown} of ${count} matches of this case shown (the case's search pages through all of them)` };
}

/**
 * Each case's own hit, every story and every stored event that holds the query, up to `limit` hits in all; the last
 * hit of a case says how many of its stories and events match when not all are shown. A match only in an evidence
 * hash, the view elsewhere, or a node or edge is one hit on the case.
 */
export const forensicSearch: SearchProvider = {
  async search(db, q, limit) {
    const n = limit * CANDIDATES_PER_HIT;
    const pattern = likeContains(q.value);
    const variants = queryVariants(q);
    // The view may hold the query only as an ATT&CK variant (a replacement id, a tactic's short name).
    const params: Record<string, string | number> = { pattern, n };
    variants.forEach((v, i) => (params[`v${i}`] = likeContains(v.value)));
    const viewHolds = `(status = 'done' AND (${variants.map((_, i) => `${EXPORT_TEXT} LIKE @v${i} ESCAPE '\\'`).join(' OR ')}))`;
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    const cases = db
      .prepare(
        `SELECT id, title, origin, created_at, ${DONE_EXPORT} FROM ${CASES_TABLE}
         WHERE title LIKE @pattern ESCAPE '\\' OR origin LIKE @pattern ESCAPE '\\' OR ${viewHolds}
         ORDER BY created_at DESC LIMIT @n`,
      )
      .all(params) as CaseRow[];
    const addCase = (r: Omit<CaseRow, 'export_json'>, head: readonly SearchHit[], evidence: boolean, fallback: () => SearchHit | null): void => {
      const room = limit - hits.length;
      const shownHead = head.slice(0, room);
      const events = evidence ? { hits: [], total: 0, capped: false } : eventMatches(db, q, r, 0, room - shownHead.length, EVENT_COUNT_CAP);
      const mine = [...shownHead, ...events.hits];
      const total = head.length + events.total;
      if (mine.length === 0) {
        const other = total === 0 ? fallback() : null;
        if (other) hits.push(other);
        return;
      }
      if (total > mine.length || events.capped) mine[mine.length - 1] = withMoreNote(mine[mine.length - 1] as SearchHit, mine.length, total, events.capped);
      hits.push(...mine);
    };
    for (const r of cases) {
      if (hits.length >= limit) return hits;
      const parts = viewParts(r.export_json);
      const own = ownHit(q, r);
      const stories = parts !== null && r.export_json !== null && anyMatch(variants, r.export_json) ? storyHits(q, r, parts.stories) : [];
      if (!own && stories.length === 0 && (r.export_json === null || !findMatch(q, r.export_json))) continue;
      seen.add(r.id);
      addCase(r, [...(own ? [own] : []), ...stories], isEvidenceHash(q, parts), () => viewHit(q, r));
    }
    if (hits.length >= limit) return hits.slice(0, limit);
    const withItems = db
      .prepare(
        `SELECT id, title, origin, created_at FROM ${CASES_TABLE} c
         WHERE c.status = 'done' AND EXISTS (SELECT 1 FROM ${CASE_ITEMS_TABLE} i WHERE i.case_id = c.id AND i.json LIKE @pattern ESCAPE '\\')
         ORDER BY created_at DESC LIMIT @n`,
      )
      .all({ pattern, n }) as Omit<CaseRow, 'export_json'>[];
    for (const r of withItems) {
      if (seen.has(r.id)) continue;
      addCase(r, [], false, () => fromGraphItems(db, q, r));
      if (hits.length >= limit) break;
    }
    return hits.slice(0, limit);
  },
};
