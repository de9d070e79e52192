// pkgscan's use of the advisory store: one repository per database (its lookup cache shared by routes and scans),
// on the shared PostgreSQL database when pkgscan runs on one, else the workstation's SQLite store; scan advisories,
// the /vulnerabilities list.
import type { Database } from 'better-sqlite3';
import type { AdvisoryItem, Severity, VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';
import type { LookupResult, VulnerabilitySummary } from '../../core/contracts/pkgscan-vulns.js';
import { AdvisoryStore } from '../../core/vulns/store.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import { SEVERITY_RANK as RANK } from '../vocabulary.js';
import { PgAdvisories, SqliteAdvisories, type AdvisoryRepository } from './repository.js';

const stores = new WeakMap<Database, AdvisoryStore>();

/** The advisory store of a database: one instance, so its lookup cache serves every route and scan of the process. */
export function advisoryStoreOf(db: Database): AdvisoryStore {
  let s = stores.get(db);
  if (s === undefined) {
    s = new AdvisoryStore(db);
    stores.set(db, s);
  }
  return s;
}

const pgRepositories = new WeakMap<AsyncDb, PgAdvisories>();

/** What advisories are read and written through: the platform's `db` (SQLite) and `store` (PostgreSQL when configured). */
export interface AdvisoryBackend {
  readonly db: Database;
  readonly store: AsyncDb;
}

/** The advisory repository of a platform: on PostgreSQL the shared database's, else the workstation store's. */
export function advisoriesOf(p: AdvisoryBackend): AdvisoryRepository {
  if (p.store.dialect === 'postgres') {
    let r = pgRepositories.get(p.store);
    if (r === undefined) {
      r = new PgAdvisories(p.store);
      pgRepositories.set(p.store, r);
    }
    return r;
  }
  return new SqliteAdvisories(advisoryStoreOf(p.db), p.db);
}

/** pkgscan's ecosystem words to OSV's names. */
export function osvEcosystem(ecosystem: string): string {
  switch (ecosystem.toLowerCase()) {
    case 'pypi':
      return 'PyPI';
    case 'npm':
      return 'npm';
    case 'go':
    case 'golang':
      return 'Go';
    case 'cargo':
    case 'crates.io':
      return 'crates.io';
    case 'maven':
      return 'Maven';
    case 'nuget':
      return 'NuGet';
    case 'rubygems':
    case 'gem':
      return 'RubyGems';
    default:
      return ecosystem;
  }
}

/** A lookup as a scan verdict's vulnerability assessment (engines/core/contracts/pkgscan.ts VulnerabilityAssessment). */
export function assessmentOf(r: LookupResult): VulnerabilityAssessment {
  const items: AdvisoryItem[] = r.items.map((a) => ({
    id: a.id,
    aliases: a.aliases,
    summary: a.summary === '' ? null : a.summary,
    // No severity anywhere (the Go database gives none): medium, as scanners do with UNKNOWN.
    severity: a.severity ?? 'medium',
    score: a.score,
    kev: a.kev !== null,
    kev_date_added: a.kev?.date_added ?? null,
    epss: a.epss?.score ?? null,
    epss_percentile: a.epss?.percentile ?? null,
    fixed_versions: a.fixed_versions,
    malicious: a.malicious,
  }));
  const why = [...r.missing_sources.map((s) => `${s} not imported`), ...r.stale_sources.map((s) => `${s} stale`), ...r.notes];
  const message = r.status === 'ok' ? `${items.length} advisories from the local store` : r.status === 'unavailable' ? 'no advisory data has been imported for this ecosystem' : `incomplete: ${why.join('; ')}`;
  return { status: r.status, message, missing_sources: [...r.missing_sources, ...r.stale_sources], items };
}

/** The assessment of one release for a scan verdict: what the lead's scans/vulns.ts returns. */
export async function assessRelease(p: AdvisoryBackend, ecosystem: string, name: string, version: string): Promise<VulnerabilityAssessment> {
  return assessmentOf(await advisoriesOf(p).lookup(osvEcosystem(ecosystem), name, version));
}

/** Records the advisories a stored scan found: call with the transaction that stores the scan (`p.store`'s). */
export async function recordScanAdvisories(q: Queryable, scanId: string, ecosystem: string, name: string, version: string, advisoryIds: readonly string[], at: string = new Date().toISOString()): Promise<void> {
  for (const id of new Set(advisoryIds)) await q.run('INSERT INTO pkgscan_scan_advisories (scan_id, advisory_id, ecosystem, name, version, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [scanId, id, ecosystem, name, version, at]);
}


export interface VulnerabilityFilter {
  readonly kev?: boolean | undefined;
  readonly minSeverity?: Severity | undefined;
  readonly ecosystem?: string | undefined;
}

/** Advisories read per turn of the event loop while the list is built (each is one store read and one package query). */
const LIST_BATCH = 250;

/**
 * Advisories found in stored scans, aggregated by id with the package versions they were found in; most severe first.
 * Built in batches with a turn of the event loop between them, so a store with many advisories never holds the server.
 */
export async function listVulnerabilities(p: AdvisoryBackend, f: VulnerabilityFilter, limit: number, offset: number): Promise<{ items: VulnerabilitySummary[]; total: number }> {
  const repo = advisoriesOf(p);
  const q = p.store;
  const ids = await q.all<{ advisory_id: string; last_seen: string }>('SELECT advisory_id, MAX(created_at) AS last_seen FROM pkgscan_scan_advisories WHERE (CAST(? AS TEXT) IS NULL OR ecosystem = ?) GROUP BY advisory_id ORDER BY advisory_id', [f.ecosystem ?? null, f.ecosystem ?? null]);
  const all: VulnerabilitySummary[] = [];
  for (const [i, row] of ids.entries()) {
    if (i > 0 && i % LIST_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    const a = await repo.get(row.advisory_id);
    // As the verdicts count it: malicious is critical, a known-exploited advisory at least high (unknown counting as medium).
    const kev = a?.kev !== null && a?.kev !== undefined;
    const severity: Severity | null = a === null ? null : a.malicious ? 'critical' : kev && RANK[a.severity ?? 'medium'] < RANK.high ? 'high' : a.severity;
    if (f.kev !== undefined && (a?.kev !== null && a?.kev !== undefined) !== f.kev) continue;
    if (f.minSeverity !== undefined && (severity === null || RANK[severity] < RANK[f.minSeverity])) continue;
    all.push({
      id: row.advisory_id,
      aliases: a?.aliases ?? [],
      summary: a?.summary ?? '',
      severity,
      score: a?.score ?? null,
      malicious: a?.malicious ?? false,
      kev: a?.kev !== null && a?.kev !== undefined,
      kev_date_added: a?.kev?.date_added ?? null,
      epss: a?.epss?.score ?? null,
      epss_percentile: a?.epss?.percentile ?? null,
      packages: [],
      last_seen: row.last_seen,
    });
  }
  all.sort((x, y) => (y.severity === null ? -1 : RANK[y.severity]) - (x.severity === null ? -1 : RANK[x.severity]) || (y.score ?? -1) - (x.score ?? -1) || (x.id < y.id ? -1 : 1));
  // The package versions are read for the page only.
  const items: VulnerabilitySummary[] = [];
  for (const v of all.slice(offset, offset + limit)) {
    const packages = await q.all<VulnerabilitySummary['packages'][number]>('SELECT ecosystem, name, version, COUNT(*) AS scans FROM pkgscan_scan_advisories WHERE advisory_id = ? GROUP BY ecosystem, name, version ORDER BY ecosystem, name, version LIMIT 200', [v.id]);
    items.push({ ...v, packages: packages.map((x) => ({ ...x, scans: Number(x.scans) })) });
  }
  return { items, total: all.length };
}
