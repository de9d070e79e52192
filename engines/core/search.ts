// The workstation-wide search: the query classifier, matching rules, and the interface each service's
// engines/<service>/search.ts implements; runSearch composes them for GET /api/search (main/gateway).
import { isIPv4, isIPv6 } from 'node:net';
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { QueryKind, SearchGroup, SearchHit, SearchResponse } from './contracts/search.js';
import { C0_DEL, hasControlCharacter } from './control-characters.js';
import { validate } from './validation.js';

export type { QueryKind, SearchGroup, SearchHit, SearchLink, SearchResponse } from './contracts/search.js';

/** Longest query accepted, in characters. */
export const MAX_QUERY_LENGTH = 200;
/** Most hits per service. */
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 10;

/** A query after classification: `value` is what providers look for (hashes lower case, ids upper case). */
export interface ParsedQuery {
  readonly kind: QueryKind;
  readonly value: string;
  /** For package queries: the ecosystem when given (purl, `npm:name`), lower case. */
  readonly ecosystem?: string;
  /** For package queries: the version when given (`name@1.2.3`, purl, `name==1.2.3`). */
  readonly version?: string;
}

/**
 * What each service implements in engines/<service>/search.ts: read-only, bounded queries over its own tables. `db` is
 * the workstation store; a service whose data can live elsewhere (pkgscan on a shared PostgreSQL database) reads its
 * own backend instead, which is why the answer is a promise.
 */
export interface SearchProvider {
  /** At most `limit` hits, best first. */
  search(db: Database, query: ParsedQuery, limit: number): Promise<SearchHit[]>;
}

export const searchRequestSchema = z.object({
  q: z
    .string()
    .trim()
    .min(2, 'type at least 2 characters')
    .max(MAX_QUERY_LENGTH, `at most ${MAX_QUERY_LENGTH} characters`)
    .refine((s) => !hasControlCharacter(s, C0_DEL), 'control characters are not allowed'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
});

/** Validates `{ q, limit }` (a VitrineError `bad_request` naming the field, never the value) and classifies q. */
export function parseSearchRequest(input: { readonly q: unknown; readonly limit: unknown }): { query: ParsedQuery; limit: number } {
  const { q, limit } = validate(searchRequestSchema, { q: input.q, limit: input.limit }, 'query', 'bad_request');
  return { query: classifyQuery(q), limit };
}

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;
const VERSION = /^v?\d[0-9A-Za-z.+_-]*$/;
const ECOSYSTEMS = new Set(['npm', 'pypi']);

function packageQuery(name: string, version: string | undefined, ecosystem: string | undefined): ParsedQuery | null {
  if (!PACKAGE_NAME.test(name) || name.length > 214) return null;
  if (version !== undefined && !VERSION.test(version)) return null;
  return { kind: 'package', value: name, ...(ecosystem !== undefined ? { ecosystem } : {}), ...(version !== undefined ? { version } : {}) };
}

function classifyPackage(q: string): ParsedQuery | null {
  const purl = /^pkg:([a-z][a-z0-9.+-]*)\/([^?#]+?)(?:@([^@?#/]+))?(?:[?#].*)?$/i.exec(q);
  if (purl) {
    let name: string;
    try {
      name = decodeURIComponent(purl[2] ?? '');
    } catch {
      return null;
    }
    return packageQuery(name, purl[3], (purl[1] ?? '').toLowerCase());
  }
  const eco = /^([a-z]+):(.+)$/i.exec(q);
  if (eco && ECOSYSTEMS.has((eco[1] ?? '').toLowerCase())) {
    const rest = eco[2] ?? '';
    const at = /^(.+?)(?:(?:@|==)([^@=]+))?$/.exec(rest);
    return at ? packageQuery(at[1] ?? '', at[2], (eco[1] ?? '').toLowerCase()) : null;
  }
  const pinned = /^(@?[^@=\s]+)(?:@|==)([^@=\s]+)$/.exec(q);
  if (pinned) return packageQuery(pinned[1] ?? '', pinned[2], undefined);
  return null;
}

/** Reads a query as an IP address, a hash, an ATT&CK technique id, a CVE, a package (purl, `npm:name`, `name@version`), a domain, or free text. */
export function classifyQuery(input: string): ParsedQuery {
  const q = input.trim().replace(/\s+/g, ' ');
  if (isIPv4(q)) return { kind: 'ipv4', value: q };
  if (isIPv6(q)) return { kind: 'ipv6', value: q.toLowerCase() };
  if (/^[0-9a-f]+$/i.test(q)) {
    if (q.length === 32) return { kind: 'md5', value: q.toLowerCase() };
    if (q.length === 40) return { kind: 'sha1', value: q.toLowerCase() };
    if (q.length === 64) return { kind: 'sha256', value: q.toLowerCase() };
  }
  if (/^t\d{4}(?:\.\d{3})?$/i.test(q)) return { kind: 'technique', value: q.toUpperCase() };
  if (/^cve-\d{4}-\d{4,7}$/i.test(q)) return { kind: 'cve', value: q.toUpperCase() };
  const pkg = classifyPackage(q);
  if (pkg) return pkg;
  if (DOMAIN.test(q.toLowerCase())) return { kind: 'domain', value: q.toLowerCase() };
  return { kind: 'text', value: q };
}

/** A LIKE pattern that finds `value` anywhere; use with `ESCAPE '\'`. LIKE is case-insensitive for ASCII. */
export function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export interface Match {
  readonly index: number;
  readonly length: number;
}

const BOUNDS: Record<QueryKind, readonly [string, string]> = {
  // 10.0.0.1 is not found inside 10.0.0.12 or 110.0.0.1.
  ipv4: ['(?<![0-9.])', '(?![0-9])(?!\\.[0-9])'],
  ipv6: ['(?<![0-9a-f:])', '(?![0-9a-f:])'],
  md5: ['(?<![0-9a-f])', '(?![0-9a-f])'],
  sha1: ['(?<![0-9a-f])', '(?![0-9a-f])'],
  sha256: ['(?<![0-9a-f])', '(?![0-9a-f])'],
  // evil.example finds www.evil.example, not notevil.example or evil.example.org.
  domain: ['(?<![a-z0-9-])', '(?![a-z0-9-])(?!\\.[a-z0-9])'],
  // T1059 also finds its sub-techniques T1059.001...
  technique: ['(?<![a-z0-9])', '(?![0-9])'],
  cve: ['(?<![a-z0-9])', '(?![0-9])'],
  package: ['(?<![a-z0-9._@-])', '(?![a-z0-9_-])'],
  text: ['', ''],
};

const MATCHERS = new WeakMap<ParsedQuery, RegExp>();

/** The first place `text` holds the query, by the kind's rules (case-insensitive, on identifier boundaries). */
export function findMatch(q: ParsedQuery, text: string): Match | null {
  let re = MATCHERS.get(q);
  if (!re) {
    const [before, after] = BOUNDS[q.kind];
    re = new RegExp(`${before}${escapeRegExp(q.value)}${after}`, 'i');
    MATCHERS.set(q, re);
  }
  const m = re.exec(text);
  return m ? { index: m.index, length: m[0].length } : null;
}

/** Up to about 160 characters around a match, whitespace collapsed, with ellipses where cut. */
export function snippetAround(text: string, m: Match, before = 50, after = 100): string {
  const start = Math.max(0, m.index - before);
  const end = Math.min(text.length, m.index + m.length + after);
  const body = text.slice(start, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

const MAX_WALK = 200_000;

/** The path of the first string (or key) inside a JSON document that holds the query, and the snippet there. */
export function locateInJson(q: ParsedQuery, json: string): { path: string; snippet: string } | null {
  if (!findMatch(q, json)) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(json) as unknown;
  } catch {
    return null;
  }
  let visited = 0;
  const walk = (v: unknown, path: string): { path: string; snippet: string } | null => {
    if (++visited > MAX_WALK) return null;
    if (typeof v === 'string' || typeof v === 'number') {
      const s = String(v);
      const m = findMatch(q, s);
      return m ? { path, snippet: snippetAround(s, m) } : null;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = walk(v[i], `${path}[${i}]`);
        if (r) return r;
      }
      return null;
    }
    if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const p = path === '' ? k : `${path}.${k}`;
        const km = findMatch(q, k);
        if (km) return { path: p, snippet: snippetAround(k, km) };
        const r = walk(child, p);
        if (r) return r;
      }
    }
    return null;
  };
  return walk(doc, '');
}

/** One place a provider looks in a row: a plain column, or a JSON document (the hit names the path inside it). */
export interface SearchField {
  readonly name: string;
  readonly text: string | null | undefined;
  readonly json?: boolean;
  /** 3 an identifying column (id, hash, name, title), 2 another column, 1 inside a stored document. */
  readonly rank: 1 | 2 | 3;
}

/** The first field (in the order given) that holds the query: its name (or JSON path), a snippet and rank. */
export function matchFields(q: ParsedQuery, fields: readonly SearchField[]): { field: string; snippet: string; rank: number } | null {
  for (const f of fields) {
    if (f.text === null || f.text === undefined || f.text === '') continue;
    if (f.json) {
      const at = locateInJson(q, f.text);
      if (at) return { field: at.path === '' ? f.name : at.path.startsWith('[') ? `${f.name}${at.path}` : `${f.name}: ${at.path}`, snippet: at.snippet, rank: f.rank };
      continue;
    }
    const m = findMatch(q, f.text);
    if (m) return { field: f.name, snippet: snippetAround(f.text, m), rank: f.rank };
  }
  return null;
}

/** How many candidate rows a provider reads per hit it may return: LIKE prefilters, findMatch decides. */
export const CANDIDATES_PER_HIT = 4;

/** A service as the search composes it: its descriptor's names and its provider (absent: not searched). */
export interface SearchSource {
  readonly name: string;
  readonly title: string;
  readonly workspace: string;
  readonly search?: SearchProvider | undefined;
}

function byRank(a: SearchHit, b: SearchHit): number {
  return b.rank - a.rank || (b.time ?? '').localeCompare(a.time ?? '') || a.id.localeCompare(b.id);
}

/**
 * Asks every provider for at most `limit` hits (all at once) and groups them by service: groups with the best-ranked
 * hit first, hits best first then newest. A provider that throws or rejects gives a group with an error (no query in it).
 */
export async function runSearch(db: Database, sources: readonly SearchSource[], query: ParsedQuery, limit: number, onError?: (service: string, err: unknown) => void): Promise<SearchResponse> {
  const answers = await Promise.all(
    sources.map(async (s): Promise<SearchGroup | null> => {
      if (!s.search) return null;
      try {
        const hits = (await s.search.search(db, query, limit + 1)).sort(byRank);
        if (hits.length === 0) return null;
        return { service: s.name, title: s.title, workspace: s.workspace, hits: hits.slice(0, limit), truncated: hits.length > limit };
      } catch (err) {
        onError?.(s.name, err);
        return { service: s.name, title: s.title, workspace: s.workspace, hits: [], truncated: false, error: 'this service could not be searched; the gateway log has the reason' };
      }
    }),
  );
  const groups = answers.filter((g): g is SearchGroup => g !== null);
  const best = (g: SearchGroup): number => g.hits[0]?.rank ?? -1;
  groups.sort((a, b) => best(b) - best(a) || b.hits.length - a.hits.length || a.service.localeCompare(b.service));
  return { kind: query.kind, total: groups.reduce((n, g) => n + g.hits.length, 0), groups };
}

/**
 * Reads candidate rows from the workstation's SQLite store (`sql` takes @pattern, a LIKE pattern with ESCAPE '\', and
 * @n, the row bound) and turns each into a hit until `limit` hits; `toHit` confirms the match by the kind's rules and returns null otherwise.
 */
export function searchRows<R>(db: Database, sql: string, params: Record<string, unknown>, query: ParsedQuery, limit: number, toHit: (row: R) => SearchHit | null): SearchHit[] {
  const rows = db.prepare(sql).all({ pattern: likeContains(query.value), n: limit * CANDIDATES_PER_HIT, ...params }) as R[];
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const hit = toHit(row);
    if (hit) hits.push(hit);
    if (hits.length >= limit) break;
  }
  return hits;
}
