// pkgscan's advisories behind one async interface, two backends: the workstation's SQLite advisory store
// (engines/core/vulns/store.ts, unchanged, shared with the other tools) and the shared PostgreSQL database. Both build
// their answers with engines/core/vulns/assemble.ts and match versions with engines/core/vulns/match.ts.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Database } from 'better-sqlite3';
import type { Advisory, AdvisoryImport, AdvisorySourceKind, AdvisorySources, AdvisorySourceStatus, EpssEntry, KevEntry, LookupResult } from '../../core/contracts/pkgscan-vulns.js';
import { VitrineError } from '../../core/errors.js';
import { advisoryOf, affectingRows, bestEpss, bestNvd, firstKev, importOf, INTERRUPTED_NOTE, lookupResult, lookupSources, mergedAliases, needsNvd, osvSourceDate, ParsedRecords, preferredId, sourceStatusOf, summaryOf, type AdvisoryRow, type ImportRow, type NvdScore, type SourceRow } from '../../core/vulns/assemble.js';
import { normaliseName } from '../../core/vulns/match.js';
import { cveIdsOf, isMalicious, type OsvRecord } from '../../core/vulns/osv.js';
import { severityOfRecord } from '../../core/vulns/severity.js';
import { detectKind, readSource, type NvdEntry } from '../../core/vulns/sources.js';
import { ImportTally, plainSourceOf, type ImportCounts, type SourceRecord } from '../../core/vulns/tally.js';
import { LOOKUP_CACHE_ENTRIES, LOOKUP_CACHE_TTL_MS, type AdvisoryStore, type ProgressFn } from '../../core/vulns/store.js';
import { ecosystemBase } from '../../core/vulns/versions/index.js';
import { appendAuditPg } from '../audit/store.js';
import { SqliteDb } from '../db/sqlite.js';
import type { AsyncDb, Dialect, Param, Queryable } from '../db/types.js';

export interface ImportOptions {
  /** The import's id (an upload's id, so its temp file and its record share it). */
  readonly id?: string;
  /**
   * Who the import's audit entries name. On PostgreSQL each entry is appended in the transaction of the change it
   * records: `vulnerabilities.import` with the import row, `vulnerabilities.import_finished` with the final counts
   * and sources, `vulnerabilities.import_failed` with the failed status. The SQLite store leaves the entries to the
   * caller (its audit chain is written by the serving process).
   */
  readonly audit?: ImportAudit;
}

export interface ImportAudit {
  readonly actor: string;
  readonly requestId: string | null;
  /** Added to every entry's details (the upload's size, `via: 'cli'`). */
  readonly details?: Readonly<Record<string, string | number>>;
}

/** What pkgscan reads and writes of the advisory store. */
export interface AdvisoryRepository {
  readonly dialect: Dialect;
  /** Imports one source (kind detected from content when not given): records in batches, bad ones counted as warnings. */
  importFile(file: string, kind?: AdvisorySourceKind, onProgress?: ProgressFn, options?: ImportOptions): Promise<AdvisoryImport>;
  /** The advisories affecting a release, with an honest status; cached until the next import (by any server). */
  lookup(ecosystem: string, name: string, version: string): Promise<LookupResult>;
  /** One advisory by id or alias; null when unknown. */
  get(idOrAlias: string): Promise<Advisory | null>;
  /** Per-source status and the latest imports. */
  sources(): Promise<AdvisorySources>;
  importRecord(id: string): Promise<AdvisoryImport | null>;
  /** Imports left running by a process that ended, marked failed; their ids. */
  recoverInterrupted(): Promise<string[]>;
  runningImports(): Promise<string[]>;
  /** An import whose job failed without marking it: failed now (recorded as failed when it never began). */
  failUnfinished(id: string, kind: AdvisorySourceKind, audit?: ImportAudit): Promise<void>;
}

/** The SQLite backend: the workstation's advisory store, as it always was. */
export class SqliteAdvisories implements AdvisoryRepository {
  readonly dialect = 'sqlite' as const;
  constructor(
    readonly store: AdvisoryStore,
    private readonly db: Database,
  ) {}

  importFile(file: string, kind?: AdvisorySourceKind, onProgress?: ProgressFn, options: ImportOptions = {}): Promise<AdvisoryImport> {
    return this.store.importFile(file, kind, onProgress, options);
  }
  async lookup(ecosystem: string, name: string, version: string): Promise<LookupResult> {
    return this.store.lookup(ecosystem, name, version);
  }
  async get(idOrAlias: string): Promise<Advisory | null> {
    return this.store.get(idOrAlias);
  }
  async sources(): Promise<AdvisorySources> {
    return this.store.sources();
  }
  async importRecord(id: string): Promise<AdvisoryImport | null> {
    return this.store.importRecord(id);
  }
  async recoverInterrupted(): Promise<string[]> {
    return this.store.recoverInterrupted();
  }
  async runningImports(): Promise<string[]> {
    return this.store.runningImports();
  }
  async failUnfinished(id: string, kind: AdvisorySourceKind): Promise<void> {
    await new SqliteDb(this.db).transaction((q) => failUnfinishedIn(q, id, kind, new Date().toISOString()));
  }
}

/** Marks the import failed; true when this call changed or wrote its row (false: it had finished already). */
async function failUnfinishedIn(q: Pick<Queryable, 'run'>, id: string, kind: AdvisorySourceKind, at: string): Promise<boolean> {
  const note = JSON.stringify([INTERRUPTED_NOTE]);
  const changed = await q.run("UPDATE vuln_imports SET status = 'failed', finished_at = ?, warning_samples = ? WHERE id = ? AND status = 'running'", [at, note, id]);
  if (changed > 0) return true;
  return (await q.run("INSERT INTO vuln_imports (id, kind, started_at, finished_at, status, warning_samples) VALUES (?, ?, ?, ?, 'failed', ?) ON CONFLICT (id) DO NOTHING", [id, kind, at, at, note])) > 0;
}

/** Appends an import's audit entry in the caller's PostgreSQL transaction. */
async function auditImport(q: Queryable, audit: ImportAudit | undefined, action: string, details: Readonly<Record<string, unknown>>): Promise<void> {
  if (audit === undefined) return;
  await appendAuditPg(q, { kind: action, actor: audit.actor, payload: { ...details, ...(audit.details ?? {}), request_id: audit.requestId } });
}

/** Records written per transaction during an import (each is a few statements on PostgreSQL). */
const BATCH = 500;
/** Every import batch of every server and worker is one at a time: upserts of overlapping records never deadlock. */
export const ADVISORY_IMPORT_LOCK = 'advisory-import';
/**
 * On the shared database an import's process may run on another host, so it cannot be asked whether it lives: an
 * import still `running` this long after it started (past the import job's time limit) is marked failed.
 */
export const PG_IMPORT_ABANDONED_MS = 2 * 60 * 60_000;

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

type Put = (q: Queryable, importId: string, counts: ImportCounts) => Promise<void>;

/** Writes one record a source yielded. */
function putRecord(q: Queryable, rec: SourceRecord, importId: string, counts: ImportCounts): Promise<void> {
  if (rec.type === 'osv') return putOsv(q, rec.record, importId, counts);
  if (rec.type === 'kev') return putKev(q, rec.entry, importId, counts);
  if (rec.type === 'epss') return putEpss(q, rec.entry, importId, counts);
  return putNvd(q, rec.entry, importId, counts);
}

/** The PostgreSQL backend: the same tables (migration 7), shared by every server and worker on the database. */
export class PgAdvisories implements AdvisoryRepository {
  readonly dialect = 'postgres' as const;
  private readonly now: () => number;
  private readonly cache = new Map<string, { at: number; result: LookupResult }>();
  private readonly parsed = new ParsedRecords();
  private cacheGeneration = -1;

  constructor(
    private readonly db: AsyncDb,
    options: { readonly now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  private iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  async generation(): Promise<number> {
    return Number((await this.db.get<{ value: number }>("SELECT value FROM vuln_meta WHERE key = 'generation'"))?.value ?? 0);
  }

  // ---- import ------------------------------------------------------------------------------------------------

  async importFile(file: string, kind?: AdvisorySourceKind, onProgress?: ProgressFn, options: ImportOptions = {}): Promise<AdvisoryImport> {
    const k = kind ?? (await detectKind(file));
    const st = await stat(file);
    const sha = st.isDirectory() ? null : await sha256File(file);
    const id = options.id ?? randomUUID();
    await this.db.transaction(async (q) => {
      await q.run('INSERT INTO vuln_imports (id, kind, file_sha256, started_at) VALUES (?, ?, ?, ?)', [id, k, sha, this.iso()]);
      await auditImport(q, options.audit, 'vulnerabilities.import', { import_id: id, kind: k });
    });
    const tally = new ImportTally(onProgress);
    const { counts, samples } = tally;
    let batch: Put[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const work = batch;
      batch = [];
      // Counted apart and added after the commit, so a retried transaction counts once.
      const c: ImportCounts = { records: 0, inserted: 0, updated: 0, unchanged: 0, warnings: 0 };
      await this.db.transaction(
        async (q) => {
          c.inserted = c.updated = c.unchanged = 0;
          for (const w of work) await w(q, id, c);
          await q.run("UPDATE vuln_meta SET value = value + 1 WHERE key = 'generation'");
        },
        { lock: ADVISORY_IMPORT_LOCK },
      );
      counts.inserted += c.inserted;
      counts.updated += c.updated;
      counts.unchanged += c.unchanged;
    };
    const finish = (status: 'done' | 'failed'): [string, Param[]] => [
      'UPDATE vuln_imports SET records = ?, inserted = ?, updated = ?, unchanged = ?, warnings = ?, warning_samples = ?, finished_at = ?, status = ? WHERE id = ?',
      [counts.records, counts.inserted, counts.updated, counts.unchanged, counts.warnings, JSON.stringify(samples), this.iso(), status, id],
    ];
    onProgress?.(0, 'import started');
    try {
      for await (const item of readSource(file, k)) {
        const rec = tally.take(item);
        if (rec !== undefined) batch.push((q, imp, c) => putRecord(q, rec, imp, c));
        if (batch.length >= BATCH) {
          await flush();
          if (k !== 'osv-zip') onProgress?.(0.5, `${counts.records} records`);
        }
      }
      await flush();
      tally.requireRecords();
    } catch (err) {
      await flush().catch(() => undefined);
      await this.db.transaction(async (q) => {
        await q.run(...finish('failed'));
        await auditImport(q, options.audit, 'vulnerabilities.import_failed', { import_id: id, kind: k });
      });
      throw err;
    }
    const finishedAt = this.iso();
    await this.db.transaction(
      async (q) => {
        await q.run(...finish('done'));
        const upsert = 'INSERT INTO vuln_sources (source, records, last_import_id, last_import_at, data_date) VALUES (?, ?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET records = excluded.records, last_import_id = excluded.last_import_id, last_import_at = excluded.last_import_at, data_date = GREATEST(vuln_sources.data_date, excluded.data_date)';
        if (k.startsWith('osv')) {
          for (const [eco, newest] of tally.osvNewest) {
            const total = Number((await q.get<{ n: number }>('SELECT COUNT(DISTINCT advisory_id) AS n FROM vuln_affected WHERE ecosystem = ?', [eco]))?.n ?? 0);
            const before = await q.get<{ data_date: string }>('SELECT data_date FROM vuln_sources WHERE source = ?', [`osv:${eco}`]);
            await q.run(upsert, [`osv:${eco}`, total, id, finishedAt, osvSourceDate(before?.data_date, tally.osvCounts.get(eco) ?? 0, total, newest, finishedAt)]);
          }
        } else {
          const source = plainSourceOf(k);
          const n = Number((await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM vuln_${source}`))?.n ?? 0);
          if (counts.records > 0) await q.run(upsert, [source, n, id, finishedAt, tally.dataDate ?? finishedAt]);
        }
        await q.run("UPDATE vuln_meta SET value = value + 1 WHERE key = 'generation'");
        await auditImport(q, options.audit, 'vulnerabilities.import_finished', { import_id: id, kind: k, file_sha256: sha, records: counts.records, warnings: counts.warnings });
      },
      { lock: ADVISORY_IMPORT_LOCK },
    );
    this.cache.clear();
    this.parsed.clear();
    onProgress?.(1, `${counts.records} records, ${counts.warnings} warnings`);
    const done = await this.importRecord(id);
    if (done === null) throw new VitrineError('internal', 'the import record is missing');
    return done;
  }

  // ---- reading ---------------------------------------------------------------------------------------------

  private async toAdvisory(row: AdvisoryRow, only?: { ecosystem: string; name: string }): Promise<Advisory> {
    const r = this.parsed.of(row);
    const own = r.aliases ?? [];
    const names = [row.id, ...own];
    const listing = (await this.db.all<{ advisory_id: string }>(`SELECT DISTINCT advisory_id FROM vuln_aliases WHERE alias IN (${placeholders(names.length)}) AND advisory_id <> ?`, [...names, row.id])).map((x) => x.advisory_id);
    const aliases = mergedAliases(row.id, own, listing);
    const cves = cveIdsOf(row.id, aliases);
    if (cves.length === 0) return advisoryOf(row, r, aliases, null, null, null, only);
    const inCves = `(${placeholders(cves.length)})`;
    const kev = await this.db.all<KevEntry>(`SELECT cve, date_added, due_date, ransomware_use, vendor_project, product, name FROM vuln_kev WHERE cve IN ${inCves}`, cves);
    const epss = (await this.db.all<EpssEntry>(`SELECT cve, score, percentile, score_date AS date, model_version FROM vuln_epss WHERE cve IN ${inCves}`, cves)).map((e) => ({ ...e, score: Number(e.score), percentile: Number(e.percentile) }));
    const nvd = needsNvd(row) ? bestNvd(cves, (await this.db.all<NvdScore & { cve: string }>(`SELECT cve, vector, score, severity FROM vuln_nvd WHERE cve IN ${inCves} AND score IS NOT NULL`, cves)).map((n) => ({ ...n, score: n.score === null ? null : Number(n.score) }))) : null;
    return advisoryOf(row, r, aliases, firstKev(cves, kev), bestEpss(cves, epss), nvd, only);
  }

  async get(idOrAlias: string): Promise<Advisory | null> {
    let row = await this.db.get<AdvisoryRow>('SELECT * FROM vuln_advisories WHERE id = ?', [idOrAlias]);
    if (row === undefined) {
      const first = preferredId((await this.db.all<{ advisory_id: string }>('SELECT advisory_id FROM vuln_aliases WHERE alias = ?', [idOrAlias])).map((x) => x.advisory_id));
      if (first !== undefined) row = await this.db.get<AdvisoryRow>('SELECT * FROM vuln_advisories WHERE id = ?', [first]);
    }
    return row === undefined ? null : this.toAdvisory(row);
  }

  async sourceStatuses(): Promise<AdvisorySourceStatus[]> {
    const now = this.now();
    return (await this.db.all<SourceRow>('SELECT * FROM vuln_sources ORDER BY source')).map((r) => sourceStatusOf(r, now));
  }

  async sources(): Promise<AdvisorySources> {
    const imports = (await this.db.all<ImportRow>('SELECT id, kind, file_sha256, records, inserted, updated, unchanged, warnings, warning_samples, started_at, finished_at, status FROM vuln_imports ORDER BY started_at DESC, id LIMIT 50')).map(importOf);
    return { generation: await this.generation(), sources: await this.sourceStatuses(), imports };
  }

  async lookup(ecosystem: string, name: string, version: string): Promise<LookupResult> {
    const eco = ecosystem.trim();
    // The generation is in the shared database: an import through any server or worker empties every cache.
    const gen = await this.generation();
    if (gen !== this.cacheGeneration) {
      this.cache.clear();
      this.cacheGeneration = gen;
    }
    const key = `${eco.toLowerCase()}\u0000${normaliseName(eco, name)}\u0000${version}`;
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit !== undefined && now - hit.at < LOOKUP_CACHE_TTL_MS) return hit.result;
    const result = await this.lookupUncached(eco, name, version);
    if (this.cache.size >= LOOKUP_CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, { at: now, result });
    return result;
  }

  async lookupUncached(ecosystem: string, name: string, version: string): Promise<LookupResult> {
    const pre = lookupSources(await this.sourceStatuses(), ecosystem, name, version);
    if ('status' in pre) return pre;
    const rows = await this.db.all<AdvisoryRow>('SELECT DISTINCT a.* FROM vuln_affected f JOIN vuln_advisories a ON a.id = f.advisory_id WHERE f.eco_base = ? AND f.name = ? ORDER BY a.id', [ecosystemBase(ecosystem), normaliseName(ecosystem, name)]);
    const { matched, unknown } = affectingRows(this.parsed, rows, ecosystem, name, version);
    const items: Advisory[] = [];
    for (const r of matched) items.push(await this.toAdvisory(r, { ecosystem, name }));
    return lookupResult(ecosystem, name, version, pre.missing, pre.stale, unknown, items);
  }

  async importRecord(id: string): Promise<AdvisoryImport | null> {
    const r = await this.db.get<ImportRow>('SELECT id, kind, file_sha256, records, inserted, updated, unchanged, warnings, warning_samples, started_at, finished_at, status FROM vuln_imports WHERE id = ?', [id]);
    return r === undefined ? null : importOf(r);
  }

  async recoverInterrupted(): Promise<string[]> {
    const before = this.iso(this.now() - PG_IMPORT_ABANDONED_MS);
    const rows = await this.db.all<{ id: string }>("SELECT id FROM vuln_imports WHERE status = 'running' AND started_at < ?", [before]);
    for (const r of rows) await this.db.run("UPDATE vuln_imports SET status = 'failed', finished_at = ?, warning_samples = ? WHERE id = ? AND status = 'running'", [this.iso(), JSON.stringify([INTERRUPTED_NOTE]), r.id]);
    return rows.map((r) => r.id);
  }

  async runningImports(): Promise<string[]> {
    return (await this.db.all<{ id: string }>("SELECT id FROM vuln_imports WHERE status = 'running'")).map((r) => r.id);
  }

  async failUnfinished(id: string, kind: AdvisorySourceKind, audit?: ImportAudit): Promise<void> {
    await this.db.transaction(async (q) => {
      if (await failUnfinishedIn(q, id, kind, this.iso())) await auditImport(q, audit, 'vulnerabilities.import_failed', { import_id: id, kind });
    });
  }
}

// ---- the PostgreSQL writes, statement for statement those of the SQLite store ---------------------------------------

async function putOsv(q: Queryable, r: OsvRecord, importId: string, counts: ImportCounts): Promise<void> {
  const existing = await q.get<{ modified: string; json: string }>('SELECT modified, json FROM vuln_advisories WHERE id = ?', [r.id]);
  // Idempotent: a copy at least as new replaces by id; an older one is left alone.
  if (existing !== undefined && existing.modified > r.modified) {
    counts.unchanged++;
    return;
  }
  const json = JSON.stringify(r);
  if (existing !== undefined && existing.json === json) {
    counts.unchanged++;
    return;
  }
  const sev = severityOfRecord(r);
  await q.run(
    `INSERT INTO vuln_advisories (id, modified, published, withdrawn, summary, details, severity, score, vector, severity_source, malicious, json, import_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET modified = excluded.modified, published = excluded.published, withdrawn = excluded.withdrawn, summary = excluded.summary, details = excluded.details,
       severity = excluded.severity, score = excluded.score, vector = excluded.vector, severity_source = excluded.severity_source, malicious = excluded.malicious, json = excluded.json, import_id = excluded.import_id`,
    [r.id, r.modified, r.published ?? null, r.withdrawn ?? null, summaryOf(r), (r.details ?? '').slice(0, 100_000), sev.severity, sev.score, sev.vector, sev.source, isMalicious(r) ? 1 : 0, json, importId],
  );
  await q.run('DELETE FROM vuln_affected WHERE advisory_id = ?', [r.id]);
  await q.run('DELETE FROM vuln_aliases WHERE advisory_id = ?', [r.id]);
  for (const a of r.affected ?? []) {
    if (a.package === undefined) continue;
    await q.run('INSERT INTO vuln_affected (advisory_id, ecosystem, eco_base, name) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [r.id, a.package.ecosystem, ecosystemBase(a.package.ecosystem), normaliseName(a.package.ecosystem, a.package.name)]);
  }
  for (const x of r.aliases ?? []) if (x !== r.id) await q.run('INSERT INTO vuln_aliases (advisory_id, alias) VALUES (?, ?) ON CONFLICT DO NOTHING', [r.id, x]);
  if (existing === undefined) counts.inserted++;
  else counts.updated++;
}

/** A row written counts as inserted (KEV, EPSS and NVD rows are not told apart from updates), a row left as it was as unchanged. */
function count(changes: number, counts: ImportCounts): void {
  if (changes === 0) counts.unchanged++;
  else counts.inserted++;
}

async function putKev(q: Queryable, e: KevEntry, importId: string, counts: ImportCounts): Promise<void> {
  const n = await q.run(
    `INSERT INTO vuln_kev (cve, date_added, due_date, ransomware_use, vendor_project, product, name, import_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (cve) DO UPDATE SET date_added = excluded.date_added, due_date = excluded.due_date, ransomware_use = excluded.ransomware_use, vendor_project = excluded.vendor_project, product = excluded.product, name = excluded.name, import_id = excluded.import_id
     WHERE vuln_kev.date_added IS DISTINCT FROM excluded.date_added OR vuln_kev.due_date IS DISTINCT FROM excluded.due_date OR vuln_kev.ransomware_use IS DISTINCT FROM excluded.ransomware_use OR vuln_kev.name IS DISTINCT FROM excluded.name`,
    [e.cve, e.date_added, e.due_date, e.ransomware_use, e.vendor_project, e.product, e.name, importId],
  );
  count(n, counts);
}

async function putEpss(q: Queryable, e: EpssEntry, importId: string, counts: ImportCounts): Promise<void> {
  // A day's scores replace an older day's, never a newer one's.
  const n = await q.run(
    `INSERT INTO vuln_epss (cve, score, percentile, score_date, model_version, import_id) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (cve) DO UPDATE SET score = excluded.score, percentile = excluded.percentile, score_date = excluded.score_date, model_version = excluded.model_version, import_id = excluded.import_id
     WHERE (vuln_epss.score_date IS NULL OR excluded.score_date IS NULL OR excluded.score_date >= vuln_epss.score_date) AND (vuln_epss.score IS DISTINCT FROM excluded.score OR vuln_epss.percentile IS DISTINCT FROM excluded.percentile OR vuln_epss.score_date IS DISTINCT FROM excluded.score_date)`,
    [e.cve, e.score, e.percentile, e.date, e.model_version, importId],
  );
  count(n, counts);
}

async function putNvd(q: Queryable, e: NvdEntry, importId: string, counts: ImportCounts): Promise<void> {
  const n = await q.run(
    `INSERT INTO vuln_nvd (cve, last_modified, vector, score, severity, import_id) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (cve) DO UPDATE SET last_modified = excluded.last_modified, vector = excluded.vector, score = excluded.score, severity = excluded.severity, import_id = excluded.import_id
     WHERE (vuln_nvd.last_modified IS NULL OR excluded.last_modified IS NULL OR excluded.last_modified >= vuln_nvd.last_modified) AND (vuln_nvd.vector IS DISTINCT FROM excluded.vector OR vuln_nvd.score IS DISTINCT FROM excluded.score OR vuln_nvd.last_modified IS DISTINCT FROM excluded.last_modified)`,
    [e.cve, e.last_modified, e.vector, e.score, e.severity, importId],
  );
  count(n, counts);
}
