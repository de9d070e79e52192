// ACH's part of the workstation-wide search: the STIX objects of the TAXII collections (ACH matrices as reports with
// intrusion sets, attack patterns and notes; report extractions with indicators and techniques). A hit names the report
// that holds the matching object, newest version first.
import type { Database } from 'better-sqlite3';
import { likeContains, locateInJson, searchRows, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';
import { collectionById } from './taxii/collections.js';

interface ObjectRow {
  collection: string;
  id: string;
  type: string;
  json: string;
  date_added: string;
}

/** `collection` is the TAXII collection id: ACH assessments are matrices, extractions are reports. */
const kindOf = (collection: string): string => (collectionById(collection)?.key === 'assessments' ? 'matrix' : 'report');
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

function toHit(db: Database, q: ParsedQuery, r: ObjectRow, seen: Set<string>): SearchHit | null {
  const at = locateInJson(q, r.json);
  if (!at) return null;
  const report = r.type === 'report' ? r : reportHolding(db, r.collection, r.id);
  const target = report ?? r;
  if (seen.has(target.id)) return null;
  seen.add(target.id);
  const kind = report ? kindOf(r.collection) : r.type;
  const objName = nameOf(r.json);
  const field = r.type === 'report' ? at.path : `${r.type}${objName ? ` "${objName}"` : ''}: ${at.path}`;
  const rank = r.type === 'report' && at.path === 'name' ? 3 : STRUCTURED.has(r.type) ? 2 : 1;
  return { service: 'attrib', kind, id: target.id, title: nameOf(target.json) || target.id, field, snippet: at.snippet, rank, link: { service: 'attrib', kind, id: target.id }, time: target.date_added };
}

export const attribSearch: SearchProvider = {
  search(db, q, limit) {
    const seen = new Set<string>();
    return searchRows<ObjectRow>(
      db,
      `SELECT collection, id, type, json, date_added FROM attrib_taxii_objects
       WHERE type <> 'identity' AND json LIKE @pattern ESCAPE '\\' ORDER BY seq DESC LIMIT @n`,
      {},
      q,
      limit,
      (r) => toHit(db, q, r, seen),
    );
  },
};
