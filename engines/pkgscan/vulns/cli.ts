// `pkgscan advisories import PATH... | status | lookup ECOSYSTEM NAME VERSION`: the advisory store from the command line, on $VITRINE_HOME/vitrine.db or the shared PostgreSQL database (PKGSCAN_DATABASE_URL).
import { randomUUID } from 'node:crypto';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { UsageError, type CliResult } from '../../core/cli.js';
import type { AdvisoryImport, LookupResult } from '../../core/contracts/pkgscan-vulns.js';
import { VitrineError } from '../../core/errors.js';
import { openStandaloneStore } from '../../core/store.js';
import { terminalValue } from '../../core/terminal-text.js';
import { pkgscanService } from '../service.js';
import { AuditLog } from '../audit/audit.js';
import { closeSharedDatabases, sharedDatabase } from '../db/open.js';
import { SqliteDb } from '../db/sqlite.js';
import type { AsyncDb } from '../db/types.js';
import { DATABASE_URL_ENV, databaseUrl } from '../db/url.js';
import { advisoriesOf } from './advisories.js';

/** The audit actor of imports run from the command line (the operating-system user is not a workstation user). */
const CLI_ACTOR = 'cli';

export interface AdvisoriesIo {
  /** The store (tests pass an in-memory one); default $VITRINE_HOME/vitrine.db. */
  readonly db?: Database;
  /** The async store (tests pass a PostgreSQL one); default the shared database when PKGSCAN_DATABASE_URL is set. */
  readonly store?: AsyncDb;
  /** Progress lines (default: none). */
  readonly progress?: (line: string) => void;
}

interface Opened {
  readonly db: Database;
  readonly store: AsyncDb;
  close(): Promise<void>;
}

function openDb(io: AdvisoriesIo): Opened {
  if (io.db !== undefined) return { db: io.db, store: io.store ?? new SqliteDb(io.db), close: () => Promise.resolve() };
  let url: string | undefined;
  try {
    url = databaseUrl();
  } catch {
    throw new UsageError(`${DATABASE_URL_ENV} must be a postgres:// URL`);
  }
  if (url !== undefined) {
    // On PostgreSQL nothing of the advisories is in SQLite: a scratch in-memory handle satisfies the audit log's constructor.
    const db = new BetterSqlite3(':memory:');
    return {
      db,
      store: sharedDatabase(url),
      close: async () => {
        db.close();
        await closeSharedDatabases();
      },
    };
  }
  const home = process.env['VITRINE_HOME'];
  if (home === undefined || home === '') throw new UsageError(`set VITRINE_HOME to the data directory, or ${DATABASE_URL_ENV} to the shared database (the advisories must be stored somewhere)`);
  const db = openStandaloneStore([pkgscanService], home);
  return {
    db,
    store: new SqliteDb(db),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

function importLine(label: string, r: AdvisoryImport): string {
  return `imported\t${label}\t${r.kind}\t${r.records} records (${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged), ${r.warnings} warnings\t${r.id}`;
}

/** A look-up as text; advisory summaries, aliases and notes from the feeds are each one escaped value of their line. */
export function lookupText(r: LookupResult): string {
  const out = [`${r.status.toUpperCase()}  ${r.ecosystem} ${r.name} ${r.version}: ${r.items.length} advisories`];
  if (r.missing_sources.length > 0) out.push(`  missing: ${r.missing_sources.join(', ')}`);
  if (r.stale_sources.length > 0) out.push(`  stale: ${r.stale_sources.join(', ')}`);
  for (const n of r.notes) out.push(`  note: ${terminalValue(n)}`);
  if (r.status !== 'ok') out.push('  (incomplete data: an empty list does not mean "no vulnerabilities")');
  for (const a of r.items) {
    const badges = [a.malicious ? 'MALICIOUS' : null, a.kev !== null ? `KEV ${a.kev.date_added}${a.kev.ransomware_use === 'Known' ? ' ransomware' : ''}` : null, a.epss !== null ? `EPSS ${a.epss.score.toFixed(4)} (p${(a.epss.percentile * 100).toFixed(1)})` : null].filter((x) => x !== null);
    out.push(`  ${a.id} [${a.severity ?? 'unknown'}${a.score !== null ? ` ${a.score}` : ''}]${badges.length > 0 ? ` ${badges.join(', ')}` : ''}  ${terminalValue(a.summary.slice(0, 160))}`);
    if (a.aliases.length > 0) out.push(`      aliases: ${a.aliases.map(terminalValue).join(', ')}`);
    if (a.fixed_versions.length > 0) out.push(`      fixed in: ${a.fixed_versions.map(terminalValue).join(', ')}`);
  }
  return `${out.join('\n')}\n`;
}

/** The `advisories` command: `rest` is what follows `advisories` on the command line. */
export async function advisoriesCommand(rest: readonly string[], values: { json?: boolean | undefined }, io: AdvisoriesIo = {}): Promise<CliResult> {
  const [sub, ...args] = rest;
  const json = values.json === true;
  switch (sub) {
    case 'import': {
      if (args.length === 0) throw new UsageError('advisories import needs at least one PATH');
      const opened = openDb(io);
      try {
        const store = advisoriesOf(opened);
        const lines: string[] = [];
        const results: (AdvisoryImport | { path: string; error: string })[] = [];
        let failed = 0;
        // Each import is audited as the HTTP route audits it, by the command line's actor: on PostgreSQL in the
        // import's own transactions (started, finished or failed), on SQLite after it.
        const audit = new AuditLog(opened.db, opened.store);
        const within = store.dialect === 'postgres';
        for (const [i, p] of args.entries()) {
          const label = `#${i + 1}`;
          const id = randomUUID();
          try {
            const r = await store.importFile(p, undefined, (f, m) => io.progress?.(`${label} ${(f * 100).toFixed(0)}% ${m}`), within ? { id, audit: { actor: CLI_ACTOR, requestId: null, details: { via: 'cli' } } } : {});
            results.push(r);
            lines.push(importLine(label, r));
            for (const w of r.warning_samples.slice(0, 5)) lines.push(`  warning: ${terminalValue(w)}`);
            if (!within) await audit.append('vulnerabilities.import_finished', CLI_ACTOR, null, { import_id: r.id, kind: r.kind, file_sha256: r.file_sha256, records: r.records, warnings: r.warnings, via: 'cli' });
          } catch (err) {
            failed++;
            const message = err instanceof VitrineError ? err.message : 'the file could not be imported';
            results.push({ path: label, error: message });
            lines.push(`failed\t${label}\t${message}`);
            // On PostgreSQL an import that began was audited failed with its row; a file that never became one (unreadable, no source) is audited here.
            if (!within || (await store.importRecord(id)) === null) await audit.append('vulnerabilities.import_failed', CLI_ACTOR, null, { via: 'cli' });
          }
        }
        return { code: failed > 0 ? 1 : 0, stdout: json ? `${JSON.stringify(results, null, 2)}\n` : `${lines.join('\n')}\n`, stderr: failed > 0 ? `${failed} of ${args.length} failed\n` : '' };
      } finally {
        await opened.close();
      }
    }
    case 'status': {
      if (args.length !== 0) throw new UsageError('advisories status takes no arguments');
      const opened = openDb(io);
      try {
        const s = await advisoriesOf(opened).sources();
        if (json) return { code: 0, stdout: `${JSON.stringify(s, null, 2)}\n`, stderr: '' };
        const lines = s.sources.length === 0 ? ['no advisory data imported'] : s.sources.map((x) => `${x.source}\t${x.records} records\tdata ${x.data_date.slice(0, 10)}\tage ${x.age_days} d${x.stale ? `\tSTALE (> ${x.stale_after_days} d)` : ''}\timported ${x.last_import_at}`);
        for (const k of ['kev', 'epss']) if (!s.sources.some((x) => x.source === k)) lines.push(`${k}\tnever imported`);
        return { code: 0, stdout: `${lines.join('\n')}\n`, stderr: '' };
      } finally {
        await opened.close();
      }
    }
    case 'lookup': {
      if (args.length !== 3) throw new UsageError('advisories lookup takes ECOSYSTEM NAME VERSION');
      const [ecosystem, name, version] = args as [string, string, string];
      const opened = openDb(io);
      try {
        const r = await advisoriesOf(opened).lookup(ecosystem, name, version);
        return { code: r.status === 'ok' ? 0 : 4, stdout: json ? `${JSON.stringify(r, null, 2)}\n` : lookupText(r), stderr: '' };
      } finally {
        await opened.close();
      }
    }
    default:
      throw new UsageError('advisories takes import, status or lookup');
  }
}
