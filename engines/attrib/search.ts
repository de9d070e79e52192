// ACH's part of the workstation-wide search: the stored ACH matrices (title, hypotheses and actors, evidence texts with
// their indicator values, evidence technique ids), which the ACH workspace opens by uuid; and the STIX objects of the
// TAXII collections (ACH assessments published as reports, report extractions with indicators and techniques), shown as
// TAXII reports: a hit names the report that holds the matching object, newest version first. No workspace opens a
// TAXII report by id (they are read through the TAXII routes), so those hits are kind `report`, not `matrix`. A technique
// id also finds its counterparts of the other ATT&CK releases (T1070.001 and v19's T1685.005 are one technique).
import type { Database } from 'better-sqlite3';
import type { AchScenario } from '../core/contracts/ach.js';
import { attackLookup } from '../core/attack/lookup.js';
import { likeContains, locateInJson, matchFields, searchRows, type ParsedQuery, type SearchField, type SearchHit, type SearchProvider } from '../core/search.js';
import { plural } from '../core/wording.js';
import { collectionById } from './taxii/collections.js';

interface MatrixRow {
  id: string;
  title: string;
  hypothesis_count: number;
  evidence_count: number;
  updated_at: string;
  scenario_json: string;
}

/**
 * Where a stored matrix holds the query, identifying parts first: its title and evidence technique ids (3), its
 * hypotheses, actors and evidence texts (an indicator's value is in its text) (2), its question, description and
 * evidence sources (1). An actor's technique profile (the groups' known techniques) is not matched: it would make every
 * seeded matrix a hit for most technique ids.
 */
function matrixFields(r: MatrixRow, s: AchScenario): SearchField[] {
  const evidence = Array.isArray(s.evidence) ? s.evidence : [];
  const hypotheses = Array.isArray(s.hypotheses) ? s.hypotheses : [];
  const actors = Array.isArray(s.actors) ? s.actors : [];
  return [
    { name: 'title', text: r.title, rank: 3 },
    ...evidence.map((e): SearchField => ({ name: `evidence ${e.id} techniques`, text: (e.techniques ?? []).join(' '), rank: 3 })),
    ...hypotheses.map((h): SearchField => ({ name: `hypothesis ${h.id}`, text: [h.title, h.description].filter(Boolean).join(' · '), rank: 2 })),
    ...actors.map((a): SearchField => ({ name: `actor ${a.id}`, text: [a.name, a.attack_id, ...(a.aliases ?? [])].filter(Boolean).join(' · '), rank: 2 })),
    ...evidence.map((e): SearchField => ({ name: `evidence ${e.id}`, text: e.summary, rank: 2 })),
    { name: 'question', text: s.question, rank: 1 },
    { name: 'description', text: s.description, rank: 1 },
    ...evidence.map((e): SearchField => ({ name: `evidence ${e.id} source`, text: e.source, rank: 1 })),
  ];
}

function matrices(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  return searchRows<MatrixRow>(
    db,
    `SELECT id, title, hypothesis_count, evidence_count, updated_at, scenario_json FROM attrib_matrices
     WHERE title LIKE @pattern ESCAPE '\\' OR scenario_json LIKE @pattern ESCAPE '\\' ORDER BY updated_at DESC, id LIMIT @n`,
    {},
    q,
    limit,
    (r) => {
      let scenario: AchScenario;
      try {
        scenario = JSON.parse(r.scenario_json) as AchScenario;
      } catch {
        return null;
      }
      if (scenario === null || typeof scenario !== 'object') return null;
      const m = matchFields(q, matrixFields(r, scenario));
      if (!m) return null;
      return {
        service: 'attrib',
        kind: 'matrix',
        id: r.id,
        title: `${r.title} · stored ACH matrix (${plural(r.hypothesis_count, 'hypothesis', 'hypotheses')}, ${plural(r.evidence_count, 'evidence item', 'evidence items')})`,
        ...m,
        link: { service: 'attrib', kind: 'matrix', id: r.id },
        time: r.updated_at,
      };
    },
  );
}

interface ObjectRow {
  collection: string;
  id: string;
  type: string;
  json: string;
  date_added: string;
}

const STRUCTURED = new Set(['indicator', 'attack-pattern', 'intrusion-set', 'malware', 'tool', 'vulnerability', 'threat-actor', 'campaign']);

function nameOf(json: string): string {
  try {
    const o = JSON.parse(json) as { name?: unknown };
    return typeof o.name === 'string' ? o.name : '';
  } catch {
    return '';
  }
}

/** The newest report of the same collection whose object_refs hold `objectId`. */
function reportHolding(db: Database, collection: string, objectId: string): ObjectRow | undefined {
  return db
    .prepare(`SELECT collection, id, type, json, date_added FROM attrib_taxii_objects WHERE collection = ? AND type = 'report' AND json LIKE ? ESCAPE '\\' ORDER BY seq DESC LIMIT 1`)
    .get(collection, likeContains(`"${objectId}"`)) as ObjectRow | undefined;
}

function taxiiHit(db: Database, q: ParsedQuery, r: ObjectRow, seen: Set<string>): SearchHit | null {
  const at = locateInJson(q, r.json);
  if (!at) return null;
  const report = r.type === 'report' ? r : reportHolding(db, r.collection, r.id);
  const target = report ?? r;
  if (seen.has(target.id)) return null;
  seen.add(target.id);
  const kind = report ? 'report' : r.type;
  const objName = nameOf(r.json);
  const field = r.type === 'report' ? at.path : `${r.type}${objName ? ` "${objName}"` : ''}: ${at.path}`;
  const rank = r.type === 'report' && at.path === 'name' ? 3 : STRUCTURED.has(r.type) ? 2 : 1;
  const collection = collectionById(r.collection)?.title ?? 'a TAXII collection';
  const title = `${nameOf(target.json) || target.id} · TAXII ${report ? 'report' : `STIX ${r.type}`} in ${collection}`;
  return { service: 'attrib', kind, id: target.id, title, field, snippet: at.snippet, rank, link: { service: 'attrib', kind, id: target.id }, time: target.date_added };
}

function taxiiReports(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const seen = new Set<string>();
  return searchRows<ObjectRow>(
    db,
    `SELECT collection, id, type, json, date_added FROM attrib_taxii_objects
     WHERE type <> 'identity' AND json LIKE @pattern ESCAPE '\\' ORDER BY seq DESC LIMIT @n`,
    {},
    q,
    limit,
    (r) => taxiiHit(db, q, r, seen),
  );
}

/** A technique query as every ATT&CK release names it: the id, the id a newer release revoked it for, the ids revoked in its favour. */
function acrossReleases(q: ParsedQuery): readonly ParsedQuery[] {
  if (q.kind !== 'technique') return [q];
  return attackLookup()
    .equivalents(q.value)
    .map((value): ParsedQuery => (value === q.value ? q : { kind: 'technique', value }));
}

/** Hits of every query form, a target once (its best-ranked hit, the first form's on a tie), in the order first found, at most `limit`. */
function union(queries: readonly ParsedQuery[], limit: number, run: (q: ParsedQuery) => SearchHit[]): SearchHit[] {
  const best = new Map<string, SearchHit>();
  for (const q of queries)
    for (const h of run(q)) {
      const had = best.get(h.id);
      if (had === undefined || h.rank > had.rank) best.set(h.id, h);
    }
  return [...best.values()].slice(0, limit);
}

export const attribSearch: SearchProvider = {
  async search(db, q, limit) {
    const queries = acrossReleases(q);
    return [...union(queries, limit, (x) => matrices(db, x, limit)), ...union(queries, limit, (x) => taxiiReports(db, x, limit))];
  },
};
