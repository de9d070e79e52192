// The advisory store's answers built from rows, with no database: an advisory from its row and joined parts, source
// status and staleness, a lookup's status, duplicates merged, a source's data date. The SQLite store (store.ts) and
// pkgscan's PostgreSQL repository both use these, so both backends answer alike.
import type { Severity } from '../contracts/pkgscan.js';
import type { Advisory, AdvisoryAffectedPackage, AdvisoryImport, AdvisorySourceKind, AdvisorySourceStatus, EpssEntry, KevEntry, LookupResult, SeveritySource } from '../contracts/pkgscan-vulns.js';
import { ecosystemMatches, entriesFor, fixedVersionsOf, matchRecord } from './match.js';
import { parseOsvRecord, type OsvRecord } from './osv.js';

/** Staleness thresholds in days, by source: KEV and EPSS are published daily, OSV exports continuously. */
export const STALE_AFTER_DAYS: Readonly<Record<'osv' | 'kev' | 'epss' | 'nvd', number>> = { osv: 30, kev: 7, epss: 7, nvd: 30 };

/** The note an import left `running` by a process that ended gets. */
export const INTERRUPTED_NOTE = 'the import was interrupted: the process running it ended before it finished';

/** Advisory rows' OSV records, parsed once: keyed by id and modified, emptied at 50,000 records (and by the stores after an import). */
export class ParsedRecords {
  private readonly byKey = new Map<string, OsvRecord>();

  of(row: Pick<AdvisoryRow, 'id' | 'modified' | 'json'>): OsvRecord {
    const key = `${row.id}\u0000${row.modified}`;
    let r = this.byKey.get(key);
    if (r === undefined) {
      r = parseOsvRecord(JSON.parse(row.json) as unknown);
      if (this.byKey.size >= 50_000) this.byKey.clear();
      this.byKey.set(key, r);
    }
    return r;
  }

  clear(): void {
    this.byKey.clear();
  }
}

/** The rows whose advisory affects the version, in the rows' order, and how many could not be decided (both stores' lookups). */
export function affectingRows(parsed: ParsedRecords, rows: readonly AdvisoryRow[], ecosystem: string, name: string, version: string): { matched: AdvisoryRow[]; unknown: number } {
  const matched: AdvisoryRow[] = [];
  let unknown = 0;
  for (const row of rows) {
    const ans = matchRecord(parsed.of(row), ecosystem, name, version);
    if (ans === 'affected') matched.push(row);
    else if (ans === 'unknown') unknown++;
  }
  return { matched, unknown };
}

export interface AdvisoryRow {
  id: string;
  modified: string;
  published: string | null;
  withdrawn: string | null;
  summary: string;
  details: string;
  severity: Severity | null;
  score: number | null;
  vector: string | null;
  severity_source: SeveritySource | null;
  malicious: number;
  json: string;
}

export interface ImportRow {
  id: string;
  kind: AdvisorySourceKind;
  file_sha256: string | null;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  warnings: number;
  warning_samples: string;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'done' | 'failed';
}

export interface SourceRow {
  source: string;
  records: number;
  last_import_id: string;
  last_import_at: string;
  data_date: string;
}

export interface NvdScore {
  vector: string | null;
  score: number | null;
  severity: Severity | null;
}

export function importOf(r: ImportRow): AdvisoryImport {
  // Counts are read as numbers whatever the column type (PostgreSQL INTEGER is a number already; be explicit).
  return { ...r, records: Number(r.records), inserted: Number(r.inserted), updated: Number(r.updated), unchanged: Number(r.unchanged), warnings: Number(r.warnings), warning_samples: JSON.parse(r.warning_samples) as string[] };
}

/** The id preferred as the face of a group of aliases: a GHSA, then a MAL-, then another database's id, a CVE last. */
export function idRank(id: string): number {
  if (id.startsWith('GHSA-')) return 0;
  if (id.startsWith('MAL-')) return 1;
  if (id.startsWith('CVE-')) return 3;
  return 2;
}

/** Of the ids listing an alias, the one to show: by idRank, then by id. */
export function preferredId(ids: readonly string[]): string | undefined {
  return [...ids].sort((a, b) => idRank(a) - idRank(b) || (a < b ? -1 : 1))[0];
}

/** Every alias of an advisory: its own, and the ids of records listing it or one of its aliases; itself left out, sorted. */
export function mergedAliases(id: string, own: readonly string[], listing: readonly string[]): string[] {
  const out = new Set([...own, ...listing]);
  out.delete(id);
  return [...out].sort();
}

/** The KEV entry of the first CVE (in `cves` order) that has one. */
export function firstKev(cves: readonly string[], found: readonly KevEntry[]): KevEntry | null {
  for (const c of cves) {
    const k = found.find((x) => x.cve === c);
    if (k !== undefined) return k;
  }
  return null;
}

/** The highest EPSS score of the CVEs (the first in `cves` order on a tie). */
export function bestEpss(cves: readonly string[], found: readonly EpssEntry[]): EpssEntry | null {
  let best: EpssEntry | null = null;
  for (const c of cves) {
    const e = found.find((x) => x.cve === c);
    if (e !== undefined && (best === null || e.score > best.score)) best = e;
  }
  return best;
}

/** The highest NVD score of the CVEs (rows without a score are not offered). */
export function bestNvd(cves: readonly string[], found: readonly (NvdScore & { cve: string })[]): NvdScore | null {
  let best: NvdScore | null = null;
  for (const c of cves) {
    const n = found.find((x) => x.cve === c && x.score !== null);
    if (n !== undefined && (best === null || (n.score ?? -1) > (best.score ?? -1))) best = { vector: n.vector, score: n.score, severity: n.severity };
  }
  return best;
}

/** Whether an advisory's severity would be taken from NVD (none of its own, not malicious): only then is NVD read. */
export function needsNvd(row: AdvisoryRow): boolean {
  return row.malicious !== 1 && row.severity === null;
}

/** The advisory body from its row, parsed record, aliases and the KEV, EPSS and NVD data of its CVEs. */
export function advisoryOf(row: AdvisoryRow, r: OsvRecord, aliases: string[], kev: KevEntry | null, epss: EpssEntry | null, nvd: NvdScore | null, only?: { ecosystem: string; name: string }): Advisory {
  const entries = only !== undefined ? entriesFor(r, only.ecosystem, only.name) : (r.affected ?? []).filter((a) => a.package !== undefined);
  const affected: AdvisoryAffectedPackage[] = entries.map((a) => ({
    ecosystem: a.package?.ecosystem ?? '',
    name: a.package?.name ?? '',
    purl: a.package?.purl ?? null,
    ranges: (a.ranges ?? []).filter((x) => x.type !== 'GIT').map((x) => ({ type: x.type, events: x.events.map((e) => ({ ...(e.introduced !== undefined ? { introduced: e.introduced } : {}), ...(e.fixed !== undefined ? { fixed: e.fixed } : {}), ...(e.last_affected !== undefined ? { last_affected: e.last_affected } : {}), ...(e.limit !== undefined ? { limit: e.limit } : {}) })) })),
    versions: (a.versions ?? []).slice(0, 1000),
    fixed: fixedVersionsOf(a),
  }));
  let severity = row.severity;
  let score = row.score === null ? null : Number(row.score);
  let vector = row.vector;
  let source = row.severity_source;
  if (Number(row.malicious) === 1) {
    // A malicious package is critical whatever a score says: installing it runs the attacker's code.
    severity = 'critical';
    source = 'malicious';
  } else if (severity === null && nvd !== null) {
    severity = nvd.severity;
    score = nvd.score;
    vector = nvd.vector;
    source = 'nvd';
  }
  return {
    id: row.id,
    aliases,
    summary: row.summary,
    details: row.details,
    published: row.published,
    modified: row.modified,
    malicious: Number(row.malicious) === 1,
    severity,
    score,
    vector,
    severity_source: source,
    affected,
    fixed_versions: [...new Set(affected.flatMap((a) => a.fixed))],
    kev,
    epss,
    references: (r.references ?? []).slice(0, 200).map((x) => ({ type: x.type ?? 'WEB', url: x.url })),
  };
}

/** A source's status at `now`: its age in days (one decimal) and whether it is past its staleness threshold. */
export function sourceStatusOf(r: SourceRow, now: number): AdvisorySourceStatus {
  const kind = (r.source.startsWith('osv:') ? 'osv' : r.source) as keyof typeof STALE_AFTER_DAYS;
  const limit = STALE_AFTER_DAYS[kind] ?? 30;
  const dated = Date.parse(r.data_date);
  const age = Number.isFinite(dated) ? Math.max(0, (now - dated) / 86_400_000) : Infinity;
  return { ...r, records: Number(r.records), age_days: Math.round(age * 10) / 10, stale_after_days: limit, stale: age > limit };
}

/**
 * What the sources say before any advisory is read: `unavailable` (a finished result) when no OSV data for the
 * ecosystem was ever imported, else the missing and stale sources a result names.
 */
export function lookupSources(sources: readonly AdvisorySourceStatus[], ecosystem: string, name: string, version: string): LookupResult | { missing: string[]; stale: string[] } {
  const osv = sources.filter((s) => s.source.startsWith('osv:') && ecosystemMatches(s.source.slice(4), ecosystem));
  if (osv.length === 0) return { ecosystem, name, version, status: 'unavailable', missing_sources: [`osv:${ecosystem}`], stale_sources: [], notes: [], items: [] };
  const missing: string[] = [];
  const stale: string[] = [];
  for (const s of ['kev', 'epss']) {
    const found = sources.find((x) => x.source === s);
    if (found === undefined) missing.push(s);
    else if (found.stale) stale.push(s);
  }
  for (const s of osv) if (s.stale) stale.push(s.source);
  return { missing, stale };
}

/** The finished lookup: `partial` when a source is missing or stale or a version could not be compared, else `ok`. */
export function lookupResult(ecosystem: string, name: string, version: string, missing: string[], stale: string[], unknown: number, items: Advisory[]): LookupResult {
  const notes: string[] = [];
  if (unknown > 0) notes.push(`${unknown} advisories could not be compared with this version in the ecosystem's version scheme`);
  const status = missing.length > 0 || stale.length > 0 || unknown > 0 ? 'partial' : 'ok';
  return { ecosystem, name, version, status, missing_sources: missing, stale_sources: stale, notes, items: dedupeAdvisories(items) };
}

/** Records that are the same vulnerability (one lists the other, or they share an alias) shown once, aliases merged. */
export function dedupeAdvisories(items: readonly Advisory[]): Advisory[] {
  const sorted = [...items].sort((a, b) => idRank(a.id) - idRank(b.id) || (a.id < b.id ? -1 : 1));
  const out: Advisory[] = [];
  for (const a of sorted) {
    const names = new Set([a.id, ...a.aliases]);
    const i = out.findIndex((o) => names.has(o.id) || o.aliases.some((x) => names.has(x)));
    if (i < 0) {
      out.push(a);
      continue;
    }
    const o = out[i] as Advisory;
    out[i] = {
      ...o,
      aliases: [...new Set([...o.aliases, a.id, ...a.aliases])].filter((x) => x !== o.id).sort(),
      malicious: o.malicious || a.malicious,
      kev: o.kev ?? a.kev,
      epss: o.epss ?? a.epss,
      fixed_versions: [...new Set([...o.fixed_versions, ...a.fixed_versions])],
      ...(o.score === null && a.score !== null ? { severity: a.severity, score: a.score, vector: a.vector, severity_source: a.severity_source } : {}),
    };
  }
  return out.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || (a.id < b.id ? -1 : 1));
}

/**
 * The data date an OSV ecosystem's source gets from an import: the newest `modified` it carried, but only when it
 * carried at least half of the source's records (a full export); one freshly modified record must not make a stale
 * source read fresh. A record dated 1970 (no real date) dates the source by the import's end.
 */
export function osvSourceDate(before: string | undefined, importedRecords: number, total: number, newest: string, finishedAt: string): string {
  const covers = importedRecords * 2 >= total;
  return before !== undefined && !covers ? before : newest.startsWith('1970') ? finishedAt : newest;
}

/** The summary stored for a record: its own, else the first non-empty line of its details, at most 1000 characters. */
export function summaryOf(r: OsvRecord): string {
  return (r.summary ?? r.details?.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 1000);
}
