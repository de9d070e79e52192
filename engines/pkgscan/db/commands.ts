// The storage commands of `pkgscan` (the command line dispatches here): --database-url, migrate [--status],
// create-admin and verify-audit on either backend, and migrating the shared database before a server or worker starts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { UsageError, type CliResult } from '../../core/cli.js';
import { openStandaloneStore } from '../../core/store.js';
import { AuditLog } from '../audit/audit.js';
import { Auth } from '../auth/auth.js';
import { isRole, ROLES } from '../auth/roles.js';
import { configFromEnv } from '../config.js';
import { pkgscanService } from '../service.js';
import { migratePostgres, postgresStatus, sqliteStatus, statusText } from './migrate.js';
import { closeSharedDatabases, sharedDatabase } from './open.js';
import type { AsyncDb } from './types.js';
import { DATABASE_URL_ENV, databaseUrl, redactedUrl } from './url.js';

export interface StorageIo {
  readonly stdin: NodeJS.ReadableStream;
  /** The SQLite store (tests pass an in-memory one); default $VITRINE_HOME/vitrine.db. */
  readonly db?: Database;
}

/** Takes --database-url into the environment (so every part of the process sees one choice); refuses anything else than postgres://. */
export function applyDatabaseUrlFlag(flag: string | undefined): void {
  if (flag === undefined) return;
  let url: string | undefined;
  try {
    url = databaseUrl(flag, {});
  } catch {
    throw new UsageError('--database-url must be a postgres:// URL');
  }
  if (url === undefined) throw new UsageError('--database-url must be a postgres:// URL');
  process.env[DATABASE_URL_ENV] = url;
}

/** The configured PostgreSQL URL, or undefined (a malformed one is a usage error). */
function sharedUrl(): string | undefined {
  try {
    return databaseUrl();
  } catch {
    throw new UsageError(`${DATABASE_URL_ENV} must be a postgres:// URL`);
  }
}

function storeHome(): string {
  const home = process.env['VITRINE_HOME'];
  if (home === undefined || home === '') throw new UsageError(`set VITRINE_HOME to the data directory, or ${DATABASE_URL_ENV} to the shared database`);
  return home;
}

/** Runs `fn` with the SQLite store (given or opened) and the async store (PostgreSQL when configured); closes what it opened. */
async function withStores<T>(io: StorageIo, fn: (sqlite: Database, store: AsyncDb | undefined) => Promise<T>): Promise<T> {
  const url = sharedUrl();
  // On PostgreSQL the converted repositories never touch SQLite: a scratch in-memory handle satisfies their constructors.
  const sqlite = io.db ?? (url !== undefined ? new BetterSqlite3(':memory:') : openStandaloneStore([pkgscanService], storeHome()));
  try {
    return await fn(sqlite, url !== undefined ? sharedDatabase(url) : undefined);
  } finally {
    if (io.db === undefined) sqlite.close();
    // A one-shot command ends its pool, or its idle connections would keep the process alive.
    if (url !== undefined) await closeSharedDatabases();
  }
}

/** Migrates the shared database now, when there is one (servers and workers call it before they listen or claim). */
export async function prepareSharedDatabase(): Promise<void> {
  const url = sharedUrl();
  if (url !== undefined) await sharedDatabase(url).migrate();
}

/** `pkgscan migrate [--status]`. */
export async function migrateCommand(rest: readonly string[], values: { status?: boolean | undefined }, io: StorageIo): Promise<CliResult> {
  if (rest.length !== 0) throw new UsageError('migrate takes no arguments');
  const url = sharedUrl();
  if (url === undefined) {
    // Opening the store applies its migrations; --status alone reads them.
    return withStores(io, (sqlite) => Promise.resolve({ code: 0, stdout: statusText(sqliteStatus(sqlite)), stderr: '' }));
  }
  const db = sharedDatabase(url);
  try {
    if (values.status === true) return { code: 0, stdout: statusText(await postgresStatus(db.pg)), stderr: '' };
    const run = await migratePostgres(db.pg);
    const line = run.applied.length > 0 ? `applied ${run.applied.join(', ')} to ${redactedUrl(url)}\n` : `nothing to apply on ${redactedUrl(url)}\n`;
    return { code: 0, stdout: line + statusText(await postgresStatus(db.pg)), stderr: '' };
  } finally {
    await closeSharedDatabases();
  }
}

/** Reads the first line of standard input (the password), at most 4 KiB. */
async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    if (text.includes('\n') || text.length > 4096) break;
  }
  return (text.split(/\r?\n/)[0] ?? '').slice(0, 4096);
}

/** `pkgscan create-admin --email ADDRESS [--role ROLE] [--force]`, the password from standard input. */
export async function createAdminCommand(
  rest: readonly string[],
  values: { email?: string | undefined; role?: string | undefined; force?: boolean | undefined },
  io: StorageIo,
): Promise<CliResult> {
  if (rest.length !== 0) throw new UsageError('create-admin takes no arguments');
  if (values.email === undefined) throw new UsageError('--email is required');
  const role = values.role ?? 'admin';
  if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return withStores(io, async (sqlite, shared) => {
    const auth = new Auth(sqlite, new AuditLog(sqlite, shared), configFromEnv(), shared);
    if (role === 'admin' && (await auth.users.countActiveAdmins()) > 0 && values.force !== true) throw new UsageError('an active admin exists; sign in as that admin to add users, or pass --force');
    const password = await readFirstLine(io.stdin);
    const user = await auth.createUser({ email: values.email?.trim() ?? '', password, role }, 'system', null);
    return { code: 0, stdout: `created ${user.role} ${user.id}\n`, stderr: '' };
  });
}

/** `pkgscan verify-audit [--expect-head HASH] [--expect-count N]` on either backend. */
export async function verifyAuditCommand(values: { 'expect-head'?: string | undefined; 'expect-count'?: string | undefined }, io: StorageIo): Promise<CliResult> {
  const head = values['expect-head'];
  const countText = values['expect-count'];
  if (head !== undefined && !/^[0-9a-fA-F]{64}$/.test(head)) throw new UsageError('--expect-head must be a 64-digit hex SHA-256');
  if (countText !== undefined && !/^\d{1,15}$/.test(countText)) throw new UsageError('--expect-count must be a whole number');
  // Opening a store creates it: a data folder without one (a mistyped VITRINE_HOME) would verify as an empty, intact log.
  if (io.db === undefined && sharedUrl() === undefined && !existsSync(path.join(storeHome(), 'vitrine.db'))) {
    throw new UsageError('the data folder (VITRINE_HOME) holds no store: there is no audit log to verify');
  }
  return withStores(io, async (sqlite, shared) => {
    const v = await new AuditLog(sqlite, shared).verifyChain({ ...(head !== undefined ? { head } : {}), ...(countText !== undefined ? { count: Number(countText) } : {}) });
    const where = v.first_broken_seq !== null ? `broken at seq ${v.first_broken_seq}` : 'broken';
    const triggers = v.missing_triggers.length > 0 ? `; missing triggers: ${v.missing_triggers.join(', ')}` : '';
    const line = v.ok ? `ok ${v.count} entries, head ${v.head_hash}` : `${where} (${v.reason ?? 'unknown'}${triggers}), ${v.count} entries, last good head ${v.head_hash}`;
    return { code: v.ok ? 0 : 1, stdout: `${line}\n`, stderr: '' };
  });
}
