// The TAXII 2.1 collections of the attribution service (assessments, extractions): adding STIX objects, and the objects/manifest queries with filters and pages.
import type { Database } from 'better-sqlite3';
import { VitrineError } from '../../core/errors.js';
import { uuidv5, validateStixObject, type StixObject } from '../../core/stix.js';
import { MAX_TAXII_OBJECTS } from '../store.js';

/** TAXII 2.1 media types. */
export const TAXII_MEDIA_TYPE = 'application/taxii+json;version=2.1';
export const STIX_MEDIA_TYPE = 'application/stix+json;version=2.1';

const COLLECTION_NAMESPACE = '6d7e7a39-5bde-4a36-9c49-0e52d3a3b0c4';

export interface CollectionInfo {
  readonly id: string;
  readonly key: 'assessments' | 'extractions';
  readonly title: string;
  readonly description: string;
}

export const COLLECTIONS: readonly CollectionInfo[] = [
  {
    id: uuidv5(COLLECTION_NAMESPACE, 'vitrine-attrib-assessments'),
    key: 'assessments',
    title: 'ACH assessments',
    description: 'Analyses of competing hypotheses (bundled scenarios and those run through POST /ach and POST /stix) as STIX 2.1: report, intrusion sets, attack patterns, the matrix and the overrides as notes.',
  },
  {
    id: uuidv5(COLLECTION_NAMESPACE, 'vitrine-attrib-extractions'),
    key: 'extractions',
    title: 'Report extractions',
    description: 'Indicators and techniques extracted from reports (POST /extract) as STIX 2.1.',
  },
];

export function collectionById(id: string): CollectionInfo | undefined {
  return COLLECTIONS.find((c) => c.id === id);
}

export function collectionByKey(key: CollectionInfo['key']): CollectionInfo {
  return COLLECTIONS.find((c) => c.key === key)!;
}

/** The version of an object: `modified`, else `created`, else (SCOs) the time it was added. */
function versionOf(o: StixObject, added: string): string {
  const m = o['modified'] ?? o['created'];
  return typeof m === 'string' ? m : added;
}

/** A strictly increasing date_added (ms precision), so `added_after` never skips an object added in the same millisecond. */
function nextDateAdded(db: Database): string {
  const last = db.prepare<[], { d: string }>('SELECT MAX(date_added) AS d FROM attrib_taxii_objects').get()?.d;
  let t = Date.now();
  if (last) t = Math.max(t, Date.parse(last) + 1);
  return new Date(t).toISOString();
}

/** Adds the objects of a bundle to a collection; an object already there in the same version is kept as it was. Returns how many were new. */
export function addObjects(db: Database, key: CollectionInfo['key'], objects: readonly StixObject[]): number {
  const collection = collectionByKey(key);
  const insert = db.prepare<[string, string, string, string, string, string, string]>(
    'INSERT OR IGNORE INTO attrib_taxii_objects (collection, id, version, type, spec_version, date_added, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const run = db.transaction((): number => {
    let added = 0;
    for (const o of objects) {
      if (validateStixObject(o).length > 0) throw new VitrineError('internal', 'refusing to store an invalid STIX object');
      const when = nextDateAdded(db);
      const spec = typeof o['spec_version'] === 'string' ? o['spec_version'] : '2.1';
      added += insert.run(collection.id, o.id, versionOf(o, when), o.type, spec, when, JSON.stringify(o)).changes;
    }
    const excess = (db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM attrib_taxii_objects WHERE collection = ?').get(collection.id)?.n ?? 0) - MAX_TAXII_OBJECTS;
    if (excess > 0)
      db.prepare<[string, number]>('DELETE FROM attrib_taxii_objects WHERE seq IN (SELECT seq FROM attrib_taxii_objects WHERE collection = ? ORDER BY seq LIMIT ?)').run(collection.id, excess);
    return added;
  });
  return run.immediate();
}

export interface ObjectFilter {
  readonly addedAfter?: string;
  readonly ids?: readonly string[];
  readonly types?: readonly string[];
  /** `last` (default), `first`, `all`, or exact versions. */
  readonly versions?: readonly string[];
  readonly specVersions?: readonly string[];
  readonly limit: number;
  readonly offset: number;
}

export interface StoredObject {
  readonly id: string;
  readonly version: string;
  readonly type: string;
  readonly spec_version: string;
  readonly date_added: string;
  readonly json: string;
}

export interface ObjectPage {
  readonly items: readonly StoredObject[];
  readonly total: number;
  readonly more: boolean;
  /** Offset of the next page, when `more`. */
  readonly next?: number;
}

/** Objects of a collection in the order they were added, filtered as TAXII 2.1 section 3.4 describes, one page of them. */
export function queryObjects(db: Database, collectionId: string, f: ObjectFilter): ObjectPage {
  const where = ['collection = ?'];
  const args: string[] = [collectionId];
  if (f.addedAfter !== undefined) {
    where.push('date_added > ?');
    args.push(f.addedAfter);
  }
  if (f.ids && f.ids.length > 0) {
    where.push(`id IN (${f.ids.map(() => '?').join(',')})`);
    args.push(...f.ids);
  }
  if (f.types && f.types.length > 0) {
    where.push(`type IN (${f.types.map(() => '?').join(',')})`);
    args.push(...f.types);
  }
  // Default spec_version: the latest the server holds, 2.1.
  const specs = f.specVersions && f.specVersions.length > 0 ? f.specVersions : ['2.1'];
  where.push(`spec_version IN (${specs.map(() => '?').join(',')})`);
  args.push(...specs);
  const rows = db
    .prepare<string[], StoredObject>(`SELECT id, version, type, spec_version, date_added, json FROM attrib_taxii_objects WHERE ${where.join(' AND ')} ORDER BY seq`)
    .all(...args);
  const versions = f.versions && f.versions.length > 0 ? f.versions : ['last'];
  let kept: StoredObject[];
  if (versions.includes('all')) kept = rows;
  else {
    const byId = new Map<string, StoredObject[]>();
    for (const r of rows) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
    const keep = new Set<StoredObject>();
    for (const list of byId.values()) {
      const sorted = [...list].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
      if (versions.includes('first')) keep.add(sorted[0]!);
      if (versions.includes('last')) keep.add(sorted[sorted.length - 1]!);
      for (const r of sorted) if (versions.includes(r.version)) keep.add(r);
    }
    kept = rows.filter((r) => keep.has(r));
  }
  const items = kept.slice(f.offset, f.offset + f.limit);
  const more = f.offset + items.length < kept.length;
  return { items, total: kept.length, more, ...(more ? { next: f.offset + items.length } : {}) };
}

/** Object counts per collection (for /health and the collection list). */
export function collectionCounts(db: Database): Record<string, number> {
  const rows = db.prepare<[], { collection: string; n: number }>('SELECT collection, COUNT(*) AS n FROM attrib_taxii_objects GROUP BY collection').all();
  return Object.fromEntries(COLLECTIONS.map((c) => [c.key, rows.find((r) => r.collection === c.id)?.n ?? 0]));
}
