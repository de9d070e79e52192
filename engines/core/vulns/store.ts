// The advisory store in SQLite: tables (createAdvisoryTables, called by pkgscan migration 7), idempotent imports, lookups with honest status and a cache.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Database, Statement } from 'better-sqlite3';
import type { Advisory, AdvisoryImport, AdvisorySources, AdvisorySourceKind, AdvisorySourceStatus, EpssEntry, KevEntry, LookupResult } from '../contracts/pkgscan-vulns.js';
import { VitrineError } from '../errors.js';
import { advisoryOf, affectingRows, bestEpss, bestNvd, firstKev, importOf, INTERRUPTED_NOTE, lookupResult, lookupSources, mergedAliases, needsNvd, osvSourceDate, ParsedRecords, preferredId, sourceStatusOf, summaryOf, type AdvisoryRow, type ImportRow, type NvdScore, type SourceRow } from './assemble.js';
import { normaliseName } from './match.js';
import { cveIdsOf, isMalicious, type OsvRecord } from './osv.js';
import { severityOfRecord } from './severity.js';
import { detectKind, readSource, type NvdEntry } from './sources.js';
import { ImportTally, plainSourceOf, type ImportCounts, type SourceRecord } from './tally.js';
import { ecosystemBase } from './versions/index.js';
import { SQLITE_DDL } from '../sql-dialect.js';
import { advisoryTablesDdl } from './ddl.js';

export { STALE_AFTER_DAYS } from './assemble.js';

/** The lookup cache: at most this many answers, each for at most this long, and none across an import. */
export const LOOKUP_CACHE_ENTRIES = 10_000;
export const LOOKUP_CACHE_TTL_MS = 10 * 60 * 1000;

/** Records written per transaction during an import. */
const BATCH = 2000;

/** Creates the advisory tables (idempotent: IF NOT EXISTS); pkgscan's migration 7 calls it. */
export function createAdvisoryTables(db: Database): void {
  db.exec(`${advisoryTablesDdl(SQLITE_DDL, true)}
    INSERT OR IGNORE INTO vuln_meta (key, value) VALUES ('generation', 0);
  `);
  // The process running an import, so one that died can be told from one still running in another process.
  const columns = db.prepare('PRAGMA table_info(vuln_imports)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'owner_pid')) db.exec('ALTER TABLE vuln_imports ADD COLUMN owner_pid INTEGER');
}

/** True when a process with this id exists (signal 0 checks without sending anything). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type ProgressFn = (fraction: number, message: string) => void;

export interface AdvisoryStoreOptions {
  /** The clock (tests): staleness is measured against it. */
  readonly now?: () => number;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

interface CacheEntry {
  readonly at: number;
  readonly result: LookupResult;
}

export class AdvisoryStore {
  private readonly db: Database;
  private readonly now: () => number;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly parsed = new ParsedRecords();
  private cacheGeneration = -1;

  private readonly statements = new Map<string, Statement>();

  /** Prepared once per store: preparing dominates a small statement's cost. */
  private stmt(sql: string): Statement {
    let st = this.statements.get(sql);
    if (st === undefined) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  constructor(db: Database, options: AdvisoryStoreOptions = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
    createAdvisoryTables(db);
  }

  /** Bumped by every import (in any process: it lives in the store), it keys the lookup cache. */
  generation(): number {
    return (this.stmt("SELECT value FROM vuln_meta WHERE key = 'generation'").get() as { value: number } | undefined)?.value ?? 0;
  }

  private bump(): void {
    this.stmt("UPDATE vuln_meta SET value = value + 1 WHERE key = 'generation'").run();
  }

  // ---- import ------------------------------------------------------------------------------------------------

  /** Imports one source (kind detected from content when not given); bad records are counted warnings, the rest imports. */
  async importFile(file: string, kind?: AdvisorySourceKind, onProgress?: ProgressFn, options: { readonly id?: string } = {}): Promise<AdvisoryImport> {
    const k = kind ?? (await detectKind(file));
    const st = await stat(file);
    const sha = st.isDirectory() ? null : await sha256File(file);
    const id = options.id ?? randomUUID();
    const startedAt = iso(this.now());
    this.stmt('INSERT INTO vuln_imports (id, kind, file_sha256, started_at, owner_pid) VALUES (?, ?, ?, ?, ?)').run(id, k, sha, startedAt, process.pid);
    const tally = new ImportTally(onProgress);
    const { counts, samples } = tally;
    let batch: (() => void)[] = [];
    const flush = (): void => {
      if (batch.length === 0) return;
      const work = batch;
      batch = [];
      this.db.transaction(() => {
        for (const w of work) w();
        this.bump();
      })();
    };
    onProgress?.(0, 'import started');
    try {
      for await (const item of readSource(file, k)) {
        const rec = tally.take(item);
        if (rec !== undefined) batch.push(() => this.put(rec, id, counts));
        if (batch.length >= BATCH) {
          flush();
          if (k !== 'osv-zip') onProgress?.(0.5, `${counts.records} records`);
        }
      }
      flush();
      tally.requireRecords();
    } catch (err) {
      flush();
      this.stmt("UPDATE vuln_imports SET records = ?, inserted = ?, updated = ?, unchanged = ?, warnings = ?, warning_samples = ?, finished_at = ?, status = 'failed' WHERE id = ?").run(counts.records, counts.inserted, counts.updated, counts.unchanged, counts.warnings, JSON.stringify(samples), iso(this.now()), id);
      throw err;
    }
    const finishedAt = iso(this.now());
    this.db.transaction(() => {
      this.stmt("UPDATE vuln_imports SET records = ?, inserted = ?, updated = ?, unchanged = ?, warnings = ?, warning_samples = ?, finished_at = ?, status = 'done' WHERE id = ?").run(counts.records, counts.inserted, counts.updated, counts.unchanged, counts.warnings, JSON.stringify(samples), finishedAt, id);
      const upsert = this.stmt(
        'INSERT INTO vuln_sources (source, records, last_import_id, last_import_at, data_date) VALUES (?, ?, ?, ?, ?) ON CONFLICT(source) DO UPDATE SET records = excluded.records, last_import_id = excluded.last_import_id, last_import_at = excluded.last_import_at, data_date = max(vuln_sources.data_date, excluded.data_date)',
      );
      if (k.startsWith('osv')) {
        const count = this.stmt('SELECT COUNT(DISTINCT advisory_id) AS n FROM vuln_affected WHERE ecosystem = ?');
        const known = this.stmt('SELECT data_date FROM vuln_sources WHERE source = ?');
        for (const [eco, newest] of tally.osvNewest) {
          const total = (count.get(eco) as { n: number }).n;
          const before = known.get(`osv:${eco}`) as { data_date: string } | undefined;
          upsert.run(`osv:${eco}`, total, id, finishedAt, osvSourceDate(before?.data_date, tally.osvCounts.get(eco) ?? 0, total, newest, finishedAt));
        }
      } else {
        const source = plainSourceOf(k);
        const n = (this.stmt(`SELECT COUNT(*) AS n FROM vuln_${source}`).get() as { n: number }).n;
        if (counts.records > 0) upsert.run(source, n, id, finishedAt, tally.dataDate ?? finishedAt);
      }
      this.bump();
    })();
    this.cache.clear();
    this.parsed.clear();
    onProgress?.(1, `${counts.records} records, ${counts.warnings} warnings`);
    return importOf(this.stmt('SELECT * FROM vuln_imports WHERE id = ?').get(id) as ImportRow);
  }

  private put(rec: SourceRecord, importId: string, counts: ImportCounts): void {
    if (rec.type === 'osv') this.putOsv(rec.record, importId, counts);
    else if (rec.type === 'kev') this.putKev(rec.entry, importId, counts);
    else if (rec.type === 'epss') this.putEpss(rec.entry, importId, counts);
    else this.putNvd(rec.entry, importId, counts);
  }

  private putOsv(r: OsvRecord, importId: string, counts: { inserted: number; updated: number; unchanged: number }): void {
    const existing = this.stmt('SELECT modified FROM vuln_advisories WHERE id = ?').get(r.id) as { modified: string } | undefined;
    // Idempotent: a copy at least as new replaces by id; an older one is left alone.
    if (existing !== undefined && existing.modified > r.modified) {
      counts.unchanged++;
      return;
    }
    const json = JSON.stringify(r);
    if (existing !== undefined) {
      const same = this.stmt('SELECT 1 FROM vuln_advisories WHERE id = ? AND json = ?').get(r.id, json);
      if (same !== undefined) {
        counts.unchanged++;
        return;
      }
    }
    const sev = severityOfRecord(r);
    const malicious = isMalicious(r);
    const summary = summaryOf(r);
    this.stmt(
        `INSERT INTO vuln_advisories (id, modified, published, withdrawn, summary, details, severity, score, vector, severity_source, malicious, json, import_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET modified = excluded.modified, published = excluded.published, withdrawn = excluded.withdrawn, summary = excluded.summary, details = excluded.details,
           severity = excluded.severity, score = excluded.score, vector = excluded.vector, severity_source = excluded.severity_source, malicious = excluded.malicious, json = excluded.json, import_id = excluded.import_id`,
      )
      .run(r.id, r.modified, r.published ?? null, r.withdrawn ?? null, summary, (r.details ?? '').slice(0, 100_000), sev.severity, sev.score, sev.vector, sev.source, malicious ? 1 : 0, json, importId);
    this.stmt('DELETE FROM vuln_affected WHERE advisory_id = ?').run(r.id);
    this.stmt('DELETE FROM vuln_aliases WHERE advisory_id = ?').run(r.id);
    const aff = this.stmt('INSERT OR IGNORE INTO vuln_affected (advisory_id, ecosystem, eco_base, name) VALUES (?, ?, ?, ?)');
    for (const a of r.affected ?? []) {
      if (a.package === undefined) continue;
      aff.run(r.id, a.package.ecosystem, ecosystemBase(a.package.ecosystem), normaliseName(a.package.ecosystem, a.package.name));
    }
    const al = this.stmt('INSERT OR IGNORE INTO vuln_aliases (advisory_id, alias) VALUES (?, ?)');
    for (const x of r.aliases ?? []) if (x !== r.id) al.run(r.id, x);
    if (existing === undefined) counts.inserted++;
    else counts.updated++;
  }

  private putKev(e: KevEntry, importId: string, counts: { inserted: number; updated: number; unchanged: number }): void {
    const r = this.stmt(
        `INSERT INTO vuln_kev (cve, date_added, due_date, ransomware_use, vendor_project, product, name, import_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(cve) DO UPDATE SET date_added = excluded.date_added, due_date = excluded.due_date, ransomware_use = excluded.ransomware_use, vendor_project = excluded.vendor_project, product = excluded.product, name = excluded.name, import_id = excluded.import_id
         WHERE vuln_kev.date_added IS NOT excluded.date_added OR vuln_kev.due_date IS NOT excluded.due_date OR vuln_kev.ransomware_use IS NOT excluded.ransomware_use OR vuln_kev.name IS NOT excluded.name`,
      )
      .run(e.cve, e.date_added, e.due_date, e.ransomware_use, e.vendor_project, e.product, e.name, importId);
    this.count(r.changes, counts);
  }

  private putEpss(e: EpssEntry, importId: string, counts: { inserted: number; updated: number; unchanged: number }): void {
    // A day's scores replace an older day's, never a newer one's.
    const r = this.stmt(
        `INSERT INTO vuln_epss (cve, score, percentile, score_date, model_version, import_id) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(cve) DO UPDATE SET score = excluded.score, percentile = excluded.percentile, score_date = excluded.score_date, model_version = excluded.model_version, import_id = excluded.import_id
         WHERE (vuln_epss.score_date IS NULL OR excluded.score_date IS NULL OR excluded.score_date >= vuln_epss.score_date) AND (vuln_epss.score IS NOT excluded.score OR vuln_epss.percentile IS NOT excluded.percentile OR vuln_epss.score_date IS NOT excluded.score_date)`,
      )
      .run(e.cve, e.score, e.percentile, e.date, e.model_version, importId);
    this.count(r.changes, counts);
  }

  private putNvd(e: NvdEntry, importId: string, counts: { inserted: number; updated: number; unchanged: number }): void {
    const r = this.stmt(
        `INSERT INTO vuln_nvd (cve, last_modified, vector, score, severity, import_id) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(cve) DO UPDATE SET last_modified = excluded.last_modified, vector = excluded.vector, score = excluded.score, severity = excluded.severity, import_id = excluded.import_id
         WHERE (vuln_nvd.last_modified IS NULL OR excluded.last_modified IS NULL OR excluded.last_modified >= vuln_nvd.last_modified) AND (vuln_nvd.vector IS NOT excluded.vector OR vuln_nvd.score IS NOT excluded.score OR vuln_nvd.last_modified IS NOT excluded.last_modified)`,
      )
      .run(e.cve, e.last_modified, e.vector, e.score, e.severity, importId);
    this.count(r.changes, counts);
  }

  /** A row written counts as inserted (KEV, EPSS and NVD rows are not told apart from updates), a row left as it was as unchanged. */
  private count(changes: number, counts: { inserted: number; updated: number; unchanged: number }): void {
    if (changes === 0) counts.unchanged++;
    else counts.inserted++;
  }

  // ---- reading ---------------------------------------------------------------------------------------------

  private kevOf(cves: readonly string[]): KevEntry | null {
    const q = this.stmt('SELECT cve, date_added, due_date, ransomware_use, vendor_project, product, name FROM vuln_kev WHERE cve = ?');
    return firstKev(cves, cves.map((c) => q.get(c) as KevEntry | undefined).filter((k): k is KevEntry => k !== undefined));
  }

  private epssOf(cves: readonly string[]): EpssEntry | null {
    const q = this.stmt('SELECT cve, score, percentile, score_date AS date, model_version FROM vuln_epss WHERE cve = ?');
    return bestEpss(cves, cves.map((c) => q.get(c) as EpssEntry | undefined).filter((e): e is EpssEntry => e !== undefined));
  }

  private nvdOf(cves: readonly string[]): NvdScore | null {
    const q = this.stmt('SELECT cve, vector, score, severity FROM vuln_nvd WHERE cve = ? AND score IS NOT NULL');
    return bestNvd(cves, cves.map((c) => q.get(c) as (NvdScore & { cve: string }) | undefined).filter((n): n is NvdScore & { cve: string } => n !== undefined));
  }

  /** Every alias of an id: its own, and the ids of records that list it (GHSA <-> CVE <-> PYSEC). */
  private aliasesOf(id: string, own: readonly string[]): string[] {
    const listing: string[] = [];
    for (const r of this.stmt('SELECT advisory_id FROM vuln_aliases WHERE alias = ?').all(id) as { advisory_id: string }[]) listing.push(r.advisory_id);
    for (const a of own) for (const r of this.stmt('SELECT advisory_id FROM vuln_aliases WHERE alias = ? AND advisory_id != ?').all(a, id) as { advisory_id: string }[]) listing.push(r.advisory_id);
    return mergedAliases(id, own, listing);
  }

  private toAdvisory(row: AdvisoryRow, only?: { ecosystem: string; name: string }): Advisory {
    const r = this.parsed.of(row);
    const aliases = this.aliasesOf(row.id, r.aliases ?? []);
    const cves = cveIdsOf(row.id, aliases);
    return advisoryOf(row, r, aliases, this.kevOf(cves), this.epssOf(cves), needsNvd(row) ? this.nvdOf(cves) : null, only);
  }

  /** One advisory by its id or any alias (a CVE id finds the GHSA that names it); null when unknown. */
  get(idOrAlias: string): Advisory | null {
    const q = this.stmt('SELECT * FROM vuln_advisories WHERE id = ?');
    let row = q.get(idOrAlias) as AdvisoryRow | undefined;
    if (row === undefined) {
      const first = preferredId((this.stmt('SELECT advisory_id FROM vuln_aliases WHERE alias = ?').all(idOrAlias) as { advisory_id: string }[]).map((x) => x.advisory_id));
      if (first !== undefined) row = q.get(first) as AdvisoryRow | undefined;
    }
    return row === undefined ? null : this.toAdvisory(row);
  }

  /** Per-source status and the latest imports. */
  sources(): AdvisorySources {
    const imports = (this.stmt('SELECT * FROM vuln_imports ORDER BY started_at DESC, id LIMIT 50').all() as ImportRow[]).map(importOf);
    return { generation: this.generation(), sources: this.sourceStatuses(), imports };
  }

  /** Per-source status: records, last import, the data's date, age and staleness. */
  sourceStatuses(): AdvisorySourceStatus[] {
    const now = this.now();
    return (this.stmt('SELECT * FROM vuln_sources ORDER BY source').all() as SourceRow[]).map((r) => sourceStatusOf(r, now));
  }

  /**
   * The advisories affecting (ecosystem, name, version), with status: `unavailable` when no OSV data for the ecosystem
   * was ever imported; `partial` when KEV or EPSS was never imported or a source is stale, or a version cannot be
   * compared; else `ok`. An empty list is "none known" only with `ok`.
   */
  lookup(ecosystem: string, name: string, version: string): LookupResult {
    const eco = ecosystem.trim();
    const norm = normaliseName(eco, name);
    const gen = this.generation();
    if (gen !== this.cacheGeneration) {
      this.cache.clear();
      this.cacheGeneration = gen;
    }
    const key = `${eco.toLowerCase()}\u0000${norm}\u0000${version}`;
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit !== undefined && now - hit.at < LOOKUP_CACHE_TTL_MS) return hit.result;
    const result = this.lookupUncached(eco, name, version);
    if (this.cache.size >= LOOKUP_CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, { at: now, result });
    return result;
  }

  /** The lookup without the cache (the benchmark measures both). */
  lookupUncached(ecosystem: string, name: string, version: string): LookupResult {
    const pre = lookupSources(this.sourceStatuses(), ecosystem, name, version);
    if ('status' in pre) return pre;
    const rows = this.stmt('SELECT DISTINCT a.* FROM vuln_affected f JOIN vuln_advisories a ON a.id = f.advisory_id WHERE f.eco_base = ? AND f.name = ?')
      .all(ecosystemBase(ecosystem), normaliseName(ecosystem, name)) as AdvisoryRow[];
    const { matched, unknown } = affectingRows(this.parsed, rows, ecosystem, name, version);
    return lookupResult(ecosystem, name, version, pre.missing, pre.stale, unknown, matched.map((r) => this.toAdvisory(r, { ecosystem, name })));
  }

  /** The import record by id; null when unknown. */
  /**
   * Marks as failed every import left `running` by a process that no longer exists (killed, crashed, restarted);
   * returns their ids. Imports of a live process (another CLI run) are left alone.
   */
  recoverInterrupted(): string[] {
    const rows = this.stmt("SELECT id, owner_pid FROM vuln_imports WHERE status = 'running'").all() as { id: string; owner_pid: number | null }[];
    const dead = rows.filter((r) => r.owner_pid === null || (r.owner_pid !== process.pid && !processAlive(r.owner_pid)));
    const mark = this.stmt("UPDATE vuln_imports SET status = 'failed', finished_at = ?, warning_samples = ? WHERE id = ? AND status = 'running'");
    const note = JSON.stringify([INTERRUPTED_NOTE]);
    for (const r of dead) mark.run(iso(this.now()), note, r.id);
    return dead.map((r) => r.id);
  }

  /** Ids of imports running in a live process. */
  runningImports(): string[] {
    return (this.stmt("SELECT id FROM vuln_imports WHERE status = 'running'").all() as { id: string }[]).map((r) => r.id);
  }

  importRecord(id: string): AdvisoryImport | null {
    const r = this.stmt('SELECT * FROM vuln_imports WHERE id = ?').get(id) as ImportRow | undefined;
    return r === undefined ? null : importOf(r);
  }

  /** Throws not_found for an unknown id: the HTTP layer's convenience. */
  require(idOrAlias: string): Advisory {
    const a = this.get(idOrAlias);
    if (a === null) throw new VitrineError('not_found', 'no such advisory in the local store');
    return a;
  }
}
