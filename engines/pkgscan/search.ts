// Packages' part of the workstation-wide search: package scans (name and version through the package index, package
// hash, advisories by id or CVE alias, findings), packages in the store (sha256 index), project scans by component,
// container scans by image, hash or content, release diffs by package, and each package name found (scanned, stored
// or diffed) as a package hit that opens its Package page. Who ran a scan (created_by) is never shown
// or matched: the workstation token sees packages, versions, verdicts and findings, not pkgscan's user accounts.
import type { Database } from 'better-sqlite3';
import { matchFields, searchRows, type ParsedQuery, type SearchHit, type SearchProvider } from '../core/search.js';

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

/** `ecosystem IN (...)` as named parameters @eco0, @eco1... */
function ecosystemIn(q: ParsedQuery): { sql: string; params: Record<string, string> } {
  const list = ecosystemsOf(q);
  return { sql: `ecosystem IN (${list.map((_e, i) => `@eco${i}`).join(', ')})`, params: Object.fromEntries(list.map((e, i) => [`eco${i}`, e])) };
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

function scans(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const name = packageName(q);
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  if (name !== null) {
    // The package index (ecosystem, name, version...): one probe per ecosystem.
    ecosystemsOf(q).forEach((e, i) => {
      parts.push(`SELECT ${SCAN_COLUMNS}, NULL AS advisory FROM pkgscan_scans s WHERE s.ecosystem = @eco${i} AND s.name = @name${q.version !== undefined ? ' AND s.version = @version' : ''}`);
      params[`eco${i}`] = e;
    });
    params['name'] = name;
    if (q.version !== undefined) params['version'] = q.version;
  }
  if (q.kind === 'cve' || /^(?:ghsa|pysec|osv|mal|snyk)-/i.test(q.value)) {
    // Advisories by their id or by a CVE alias (both indexed).
    parts.push(`SELECT ${SCAN_COLUMNS}, sa.advisory_id AS advisory FROM pkgscan_scan_advisories sa JOIN pkgscan_scans s ON s.id = sa.scan_id
      WHERE sa.advisory_id = @exact OR sa.advisory_id IN (SELECT advisory_id FROM vuln_aliases WHERE alias = @exact)`);
    params['exact'] = q.value.toUpperCase();
  }
  parts.push(`SELECT * FROM (SELECT ${SCAN_COLUMNS}, NULL AS advisory FROM pkgscan_scans s
    WHERE s.package_sha256 = @hash OR s.name LIKE @pattern ESCAPE '\\' OR s.verdict_json LIKE @pattern ESCAPE '\\' ORDER BY s.created_at DESC LIMIT @n)`);
  params['hash'] = q.value.toLowerCase();
  const seen = new Set<string>();
  return searchRows<ScanRow>(db, `SELECT * FROM (${parts.join(' UNION ALL ')}) LIMIT @n`, params, q, limit, (r) => {
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

function artifacts(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const name = packageName(q);
  const eco = ecosystemIn(q);
  const where = q.kind === 'sha256' ? 'sha256 = @hash' : name !== null ? `${eco.sql} AND name = @name` : null;
  if (where === null) return [];
  return searchRows<ArtifactRow>(
    db,
    `SELECT id, ecosystem, name, version, filename, sha256, imported_at FROM pkgscan_artifacts WHERE ${where} ORDER BY imported_at DESC LIMIT @n`,
    { hash: q.value, name, ...eco.params },
    q,
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
  component: string;
}

function projectScans(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const name = packageName(q);
  const byComponent =
    name !== null
      ? `SELECT s.id, s.project_id, p.name AS project, s.environment, s.decision, s.created_at, c.ecosystem || ':' || c.name || '@' || c.version AS component
         FROM pkgscan_project_components c JOIN pkgscan_project_scans s ON s.id = c.scan_id JOIN pkgscan_projects p ON p.id = s.project_id
         WHERE c.name = @name COLLATE NOCASE${q.version !== undefined ? ' AND c.version = @version' : ''}`
      : null;
  const byProject = `SELECT s.id, s.project_id, p.name AS project, s.environment, s.decision, s.created_at, NULL AS component
    FROM pkgscan_projects p JOIN pkgscan_project_scans s ON s.project_id = p.id WHERE p.name LIKE @pattern ESCAPE '\\'`;
  const sql = `SELECT * FROM (${byComponent !== null ? `${byComponent} UNION ALL ` : ''}${byProject}) ORDER BY created_at DESC LIMIT @n`;
  const seen = new Set<string>();
  return searchRows<ProjectScanRow>(db, sql, { name, ...(q.version !== undefined ? { version: q.version } : {}) }, q, limit, (r) => {
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

function containerScans(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  return searchRows<ContainerRow>(
    db,
    `SELECT id, image_ref, decision, upload_sha256, created_at, report_json FROM pkgscan_container_scans
     WHERE image_ref LIKE @pattern ESCAPE '\\' OR upload_sha256 = @hash OR report_json LIKE @pattern ESCAPE '\\' ORDER BY created_at DESC LIMIT @n`,
    { hash: q.value.toLowerCase() },
    q,
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

function diffs(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const name = packageName(q);
  if (name === null) return [];
  const eco = ecosystemIn(q);
  return searchRows<DiffRow>(
    db,
    `SELECT id, ecosystem, name, from_version, to_version, escalated, created_at FROM pkgscan_diffs
     WHERE ${eco.sql} AND name = @name ORDER BY created_at DESC LIMIT @n`,
    { name, ...eco.params },
    q,
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

interface PackageRow {
  ecosystem: string;
  name: string;
  scans: number;
  versions: string;
  latest: string | null;
}

/**
 * One hit per package (ecosystem, name) the store knows by exactly that name: scanned, in the package store, or
 * diffed, each probed by its (ecosystem, name...) index. A pinned query (`name@1.2.3`) needs that version seen.
 */
function packages(db: Database, q: ParsedQuery, limit: number): SearchHit[] {
  const name = packageName(q);
  if (name === null) return [];
  const eco = ecosystemIn(q);
  const pinned = q.version !== undefined;
  const version = (col: string): string => (pinned ? ` AND ${col} = @version` : '');
  const rows = db
    .prepare(
      `SELECT ecosystem, name, SUM(scans) AS scans, group_concat(DISTINCT version) AS versions, MAX(at) AS latest FROM (
         SELECT ecosystem, name, 1 AS scans, version, created_at AS at FROM pkgscan_scans WHERE ${eco.sql} AND name = @name${version('version')}
         UNION ALL SELECT ecosystem, name, 0, version, imported_at FROM pkgscan_artifacts WHERE ${eco.sql} AND name = @name${version('version')}
         UNION ALL SELECT ecosystem, name, 0, to_version, created_at FROM pkgscan_diffs WHERE ${eco.sql} AND name = @name${pinned ? ' AND (from_version = @version OR to_version = @version)' : ''}
       ) GROUP BY ecosystem, name ORDER BY latest DESC LIMIT @n`,
    )
    .all({ name, ...eco.params, ...(pinned ? { version: q.version } : {}), n: limit }) as PackageRow[];
  return rows.map((r) => {
    const versions = (r.versions ?? '').split(',').filter((v) => v !== '');
    const shown = versions.slice(0, 5).join(', ') + (versions.length > 5 ? ` and ${versions.length - 5} more` : '');
    return {
      service: 'pkgscan',
      kind: 'package',
      id: `${r.ecosystem}:${r.name}`,
      title: `${r.name} (${r.ecosystem}) · package page`,
      field: 'package',
      snippet: `${r.scans} scan${r.scans === 1 ? '' : 's'}; versions seen: ${shown || 'none'}`,
      rank: 3,
      link: { service: 'pkgscan', kind: 'package', id: `${r.ecosystem}:${r.name}` },
      ...(r.latest !== null ? { time: r.latest } : {}),
    };
  });
}

export const pkgscanSearch: SearchProvider = {
  search(db, q, limit) {
    if (q.ecosystem !== undefined && !(ECOSYSTEMS as readonly string[]).includes(q.ecosystem)) return [];
    return [...packages(db, q, limit), ...scans(db, q, limit), ...artifacts(db, q, limit), ...projectScans(db, q, limit), ...containerScans(db, q, limit), ...diffs(db, q, limit)];
  },
};
