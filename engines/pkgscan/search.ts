// Packages' part of the workstation-wide search: package scans (name and version through the package index, package
// hash, advisories by id or CVE alias, findings), packages in the store (sha256 index), project scans by component,
// container scans by image, hash or content, release diffs by package, and each package name found (scanned, stored
// or diffed) as a package hit that opens its Package page. Who ran a scan (created_by) is never shown
// or matched: the workstation token sees packages, versions, verdicts and findings, not pkgscan's user accounts.
// The queries run on pkgscan's own store (searchPackages): the workstation's SQLite store, or the shared PostgreSQL
// database when PKGSCAN_DATABASE_URL is set, with the same rows, order and bounds on both (parameters only).
import type { Database } from 'better-sqlite3';
import { CANDIDATES_PER_HIT, likeContains, matchFields, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';
import { pkgscanDatabase } from './db/open.js';
import { byCodePoint, equalsAsciiNoCase, likeAsciiNoCase } from './db/sql.js';
import type { AsyncDb, Param } from './db/types.js';
import { databaseUrl } from './db/url.js';

const ECOSYSTEMS = ['npm', 'pypi'] as const;

/** A stored document without who made it, for matching and snippets. */
function withoutActors(json: string): string {
  try {
    const { created_by: _by, ...rest } = JSON.parse(json) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return '';
  }
}

/** For a package query: its name; for free text, a domain (`lodash.merge`) or a bare word: the text as a possible name. */
function packageName(q: ParsedQuery): string | null {
  return q.kind === 'package' || q.kind === 'text' || q.kind === 'domain' ? q.value : null;
}

function ecosystemsOf(q: ParsedQuery): readonly string[] {
  return q.ecosystem !== undefined ? [q.ecosystem] : ECOSYSTEMS;
}

/** `ecosystem IN (?, ...)` and its parameters. */
function ecosystemIn(q: ParsedQuery, column = 'ecosystem'): { sql: string; params: string[] } {
  const list = ecosystemsOf(q);
  return { sql: `${column} IN (${list.map(() => '?').join(', ')})`, params: [...list] };
}

/** How many candidate rows one query may read for `limit` hits (LIKE prefilters, findMatch decides). */
function candidates(limit: number): number {
  return limit * CANDIDATES_PER_HIT;
}

/**
 * Reads candidate rows from each statement in turn (each ordered, together at most `candidates(limit)` rows, as one
 * UNION ALL with a LIMIT would) and turns them into hits until `limit`; `toHit` confirms the match or returns null.
 */
async function hitsFrom<R>(db: AsyncDb, statements: readonly { sql: string; params: readonly Param[] }[], limit: number, toHit: (row: R) => SearchHit | null): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  let room = candidates(limit);
  for (const st of statements) {
    if (room <= 0 || hits.length >= limit) break;
    const rows = await db.all<R>(`${st.sql} LIMIT ?`, [...st.params, room]);
    room -= rows.length;
    for (const row of rows) {
      const hit = toHit(row);
      if (hit) hits.push(hit);
      if (hits.length >= limit) break;
    }
  }
  return hits;
}

interface ScanRow {
  id: string;
  ecosystem: string;
  name: string;
  version: string;
  environment: string;
  decision: string;
  package_sha256: string;
  created_at: string;
  verdict_json: string;
  advisory: string | null;
}

const SCAN_COLUMNS = 's.id, s.ecosystem, s.name, s.version, s.environment, s.decision, s.package_sha256, s.created_at, s.verdict_json';
/** Newest first; the id breaks ties (the scans' time index). */
const NEWEST_SCANS = 'ORDER BY s.created_at DESC, s.id';

function scanHit(q: ParsedQuery, r: ScanRow): SearchHit | null {
  const name = packageName(q);
  const byName = name !== null && r.name.toLowerCase() === name.toLowerCase() && (q.version === undefined || r.version === q.version) && (q.ecosystem === undefined || q.ecosystem === r.ecosystem);
  const m = byName
    ? { field: 'package', snippet: `${r.ecosystem}:${r.name}@${r.version}`, rank: 3 }
    : r.advisory !== null
      ? { field: 'advisory', snippet: r.advisory, rank: 3 }
      : q.kind === 'package' && (q.version !== undefined || (q.ecosystem !== undefined && q.ecosystem !== r.ecosystem))
        ? null // a pinned or ecosystem-qualified package is found by the package index only
        : matchFields(q, [
            { name: 'package sha256', text: r.package_sha256, rank: 3 },
            { name: 'package', text: `${r.ecosystem}:${r.name}@${r.version}`, rank: 2 },
            { name: 'verdict', text: withoutActors(r.verdict_json), json: true, rank: 1 },
          ]);
  if (!m) return null;
  return {
    service: 'pkgscan',
    kind: 'scan',
    id: r.id,
    title: `${r.name}@${r.version} (${r.ecosystem}) · ${r.decision} in ${r.environment}`,
    ...m,
    link: { service: 'pkgscan', kind: 'scan', id: r.id },
    time: r.created_at,
  };
}

function scans(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  const name = packageName(q);
  const statements: { sql: string; params: Param[] }[] = [];
  if (name !== null) {
    // The package index (ecosystem, name, version...): one probe per ecosystem.
    for (const e of ecosystemsOf(q)) {
      statements.push({
        sql: `SELECT ${SCAN_COLUMNS}, NULL AS advisory FROM pkgscan_scans s WHERE s.ecosystem = ? AND s.name = ?${q.version !== undefined ? ' AND s.version = ?' : ''} ${NEWEST_SCANS}`,
        params: [e, name, ...(q.version !== undefined ? [q.version] : [])],
      });
    }
  }
  if (q.kind === 'cve' || /^(?:ghsa|pysec|osv|mal|snyk)-/i.test(q.value)) {
    // Advisories by their id or by a CVE alias (both indexed).
    const exact = q.value.toUpperCase();
    statements.push({
      sql: `SELECT ${SCAN_COLUMNS}, sa.advisory_id AS advisory FROM pkgscan_scan_advisories sa JOIN pkgscan_scans s ON s.id = sa.scan_id
        WHERE sa.advisory_id = ? OR sa.advisory_id IN (SELECT advisory_id FROM vuln_aliases WHERE alias = ?) ${NEWEST_SCANS}, ${byCodePoint(db.dialect, 'sa.advisory_id')}`,
      params: [exact, exact],
    });
  }
  const pattern = likeContains(q.value);
  statements.push({
    sql: `SELECT ${SCAN_COLUMNS}, NULL AS advisory FROM pkgscan_scans s
      WHERE s.package_sha256 = ? OR ${likeAsciiNoCase(db.dialect, 's.name')} OR ${likeAsciiNoCase(db.dialect, 's.verdict_json')} ${NEWEST_SCANS}`,
    params: [q.value.toLowerCase(), pattern, pattern],
  });
  const seen = new Set<string>();
  return hitsFrom<ScanRow>(db, statements, limit, (r) => {
    if (seen.has(r.id)) return null;
    const hit = scanHit(q, r);
    if (hit) seen.add(r.id);
    return hit;
  });
}

interface ArtifactRow {
  id: string;
  ecosystem: string;
  name: string;
  version: string;
  filename: string;
  sha256: string;
  imported_at: string;
}

function artifacts(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  const name = packageName(q);
  const eco = ecosystemIn(q);
  const where: { sql: string; params: Param[] } | null = q.kind === 'sha256' ? { sql: 'sha256 = ?', params: [q.value] } : name !== null ? { sql: `${eco.sql} AND name = ?`, params: [...eco.params, name] } : null;
  if (where === null) return Promise.resolve([]);
  return hitsFrom<ArtifactRow>(
    db,
    [{ sql: `SELECT id, ecosystem, name, version, filename, sha256, imported_at FROM pkgscan_artifacts WHERE ${where.sql} ORDER BY imported_at DESC, id`, params: where.params }],
    limit,
    (r) => {
      if (q.version !== undefined && r.version !== q.version) return null;
      const field = q.kind === 'sha256' ? 'sha256' : 'package';
      return {
        service: 'pkgscan',
        kind: 'artifact',
        id: r.id,
        title: `${r.filename} in the package store`,
        field,
        snippet: field === 'sha256' ? r.sha256 : `${r.ecosystem}:${r.name}@${r.version}`,
        rank: 3,
        link: { service: 'pkgscan', kind: 'artifact', id: r.id },
        time: r.imported_at,
      };
    },
  );
}

interface ProjectScanRow {
  id: string;
  project_id: string;
  project: string;
  environment: string;
  decision: string;
  created_at: string;
  component: string | null;
}

function projectScans(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  const name = packageName(q);
  const params: Param[] = [];
  let byComponent = '';
  if (name !== null) {
    byComponent = `SELECT s.id, s.project_id, p.name AS project, s.environment, s.decision, s.created_at, c.ecosystem || ':' || c.name || '@' || c.version AS component
         FROM pkgscan_project_components c JOIN pkgscan_project_scans s ON s.id = c.scan_id JOIN pkgscan_projects p ON p.id = s.project_id
         WHERE ${equalsAsciiNoCase(db.dialect, 'c.name')}${q.version !== undefined ? ' AND c.version = ?' : ''} UNION ALL `;
    params.push(name, ...(q.version !== undefined ? [q.version] : []));
  }
  const byProject = `SELECT s.id, s.project_id, p.name AS project, s.environment, s.decision, s.created_at, NULL AS component
    FROM pkgscan_projects p JOIN pkgscan_project_scans s ON s.project_id = p.id WHERE ${likeAsciiNoCase(db.dialect, 'p.name')}`;
  params.push(likeContains(q.value));
  // A scan found by a component comes before the same scan found by its project's name (the component is the better hit).
  const sql = `SELECT * FROM (${byComponent}${byProject}) AS found ORDER BY created_at DESC, id, component IS NULL, ${byCodePoint(db.dialect, 'component')}`;
  const seen = new Set<string>();
  return hitsFrom<ProjectScanRow>(db, [{ sql, params }], limit, (r) => {
    if (seen.has(r.id)) return null;
    const m = r.component !== null ? { field: 'component', snippet: r.component, rank: 3 } : matchFields(q, [{ name: 'project', text: r.project, rank: 3 }]);
    if (!m) return null;
    seen.add(r.id);
    return {
      service: 'pkgscan',
      kind: 'project-scan',
      id: r.id,
      title: `Project ${r.project} · ${r.decision} in ${r.environment}`,
      ...m,
      link: { service: 'pkgscan', kind: 'project-scan', id: r.id, parent: r.project_id },
      time: r.created_at,
    };
  });
}

interface ContainerRow {
  id: string;
  image_ref: string | null;
  decision: string;
  upload_sha256: string;
  created_at: string;
  report_json: string;
}

function containerScans(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  const pattern = likeContains(q.value);
  return hitsFrom<ContainerRow>(
    db,
    [
      {
        sql: `SELECT id, image_ref, decision, upload_sha256, created_at, report_json FROM pkgscan_container_scans
     WHERE ${likeAsciiNoCase(db.dialect, 'image_ref')} OR upload_sha256 = ? OR ${likeAsciiNoCase(db.dialect, 'report_json')} ORDER BY created_at DESC, id`,
        params: [pattern, q.value.toLowerCase(), pattern],
      },
    ],
    limit,
    (r) => {
      const m = matchFields(q, [
        { name: 'upload sha256', text: r.upload_sha256, rank: 3 },
        { name: 'image', text: r.image_ref, rank: 3 },
        { name: 'report', text: withoutActors(r.report_json), json: true, rank: 1 },
      ]);
      if (!m) return null;
      return { service: 'pkgscan', kind: 'container-scan', id: r.id, title: `Image ${r.image_ref ?? 'upload'} · ${r.decision}`, ...m, link: { service: 'pkgscan', kind: 'container-scan', id: r.id }, time: r.created_at };
    },
  );
}

interface DiffRow {
  id: string;
  ecosystem: string;
  name: string;
  from_version: string;
  to_version: string;
  escalated: number;
  created_at: string;
}

function diffs(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  const name = packageName(q);
  if (name === null) return Promise.resolve([]);
  const eco = ecosystemIn(q);
  return hitsFrom<DiffRow>(
    db,
    [{ sql: `SELECT id, ecosystem, name, from_version, to_version, escalated, created_at FROM pkgscan_diffs WHERE ${eco.sql} AND name = ? ORDER BY created_at DESC, id`, params: [...eco.params, name] }],
    limit,
    (r) => {
      if (q.version !== undefined && r.from_version !== q.version && r.to_version !== q.version) return null;
      return {
        service: 'pkgscan',
        kind: 'diff',
        id: r.id,
        title: `${r.name} ${r.from_version} → ${r.to_version}${r.escalated === 1 ? ' · escalated' : ''}`,
        field: 'package',
        snippet: `${r.ecosystem}:${r.name}`,
        rank: 2,
        link: { service: 'pkgscan', kind: 'diff', id: r.id },
        time: r.created_at,
      };
    },
  );
}

interface VersionRow {
  ecosystem: string;
  name: string;
  version: string;
  scans: number;
  latest: string;
}

/**
 * One hit per package (ecosystem, name) the store knows by exactly that name: scanned, in the package store, or
 * diffed, each probed by its (ecosystem, name...) index. A pinned query (`name@1.2.3`) needs that version seen. The
 * versions are listed most recently seen first.
 */
async function packages(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  const name = packageName(q);
  if (name === null) return [];
  const eco = ecosystemIn(q);
  const pinned = q.version !== undefined ? [q.version] : [];
  const version = (col: string): string => (pinned.length > 0 ? ` AND ${col} = ?` : '');
  // One row per version seen (an exact name has at most one package per ecosystem, so this is bounded by its versions).
  const rows = await db.all<VersionRow>(
    `SELECT ecosystem, name, version, SUM(scans) AS scans, MAX(at) AS latest FROM (
       SELECT ecosystem, name, 1 AS scans, version, created_at AS at FROM pkgscan_scans WHERE ${eco.sql} AND name = ?${version('version')}
       UNION ALL SELECT ecosystem, name, 0, version, imported_at FROM pkgscan_artifacts WHERE ${eco.sql} AND name = ?${version('version')}
       UNION ALL SELECT ecosystem, name, 0, to_version, created_at FROM pkgscan_diffs WHERE ${eco.sql} AND name = ?${pinned.length > 0 ? ' AND (from_version = ? OR to_version = ?)' : ''}
     ) AS seen GROUP BY ecosystem, name, version`,
    [...eco.params, name, ...pinned, ...eco.params, name, ...pinned, ...eco.params, name, ...pinned, ...pinned],
  );
  const byPackage = new Map<string, { ecosystem: string; name: string; scans: number; latest: string; versions: VersionRow[] }>();
  for (const r of rows) {
    const key = `${r.ecosystem}:${r.name}`;
    const p = byPackage.get(key) ?? { ecosystem: r.ecosystem, name: r.name, scans: 0, latest: '', versions: [] };
    p.scans += r.scans;
    if (r.latest > p.latest) p.latest = r.latest;
    p.versions.push(r);
    byPackage.set(key, p);
  }
  const newest = (a: { latest: string }, b: { latest: string }): number => (a.latest < b.latest ? 1 : a.latest > b.latest ? -1 : 0);
  const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...byPackage.values()]
    .sort((a, b) => newest(a, b) || byCode(a.ecosystem, b.ecosystem))
    .slice(0, limit)
    .map((p) => {
      const versions = p.versions.sort((a, b) => newest(a, b) || byCode(a.version, b.version)).map((v) => v.version);
      const shown = versions.slice(0, 5).join(', ') + (versions.length > 5 ? ` and ${versions.length - 5} more` : '');
      const id = `${p.ecosystem}:${p.name}`;
      return {
        service: 'pkgscan',
        kind: 'package',
        id,
        title: `${p.name} (${p.ecosystem}) · package page`,
        field: 'package',
        snippet: `${p.scans} scan${p.scans === 1 ? '' : 's'}; versions seen: ${shown || 'none'}`,
        rank: 3,
        link: { service: 'pkgscan', kind: 'package', id },
        ...(p.latest !== '' ? { time: p.latest } : {}),
      };
    });
}

/** Packages' hits on pkgscan's store (either backend): at most `limit` of each kind, each kind's newest first. */
export async function searchPackages(db: AsyncDb, q: ParsedQuery, limit: number): Promise<SearchHit[]> {
  if (q.ecosystem !== undefined && !(ECOSYSTEMS as readonly string[]).includes(q.ecosystem)) return [];
  const found = await Promise.all([packages(db, q, limit), scans(db, q, limit), artifacts(db, q, limit), projectScans(db, q, limit), containerScans(db, q, limit), diffs(db, q, limit)]);
  return found.flat();
}

/** pkgscan's store as the workstation's pkgscan service opens it: the shared database when the URL is set, else `db`. */
function storeOf(db: Database): AsyncDb {
  return pkgscanDatabase(db, databaseUrl());
}

export const pkgscanSearch: SearchProvider = {
  async search(db, q, limit) {
    return searchPackages(storeOf(db), q, limit);
  },
};
