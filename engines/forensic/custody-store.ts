// The persistent custody ledger: one SQLite file per case on engines/core's ledger table, append-only triggers, read-only verification.
import { chmodSync, existsSync, openSync, readSync, closeSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { storageError, VitrineError } from '../core/errors.js';
import { createLedgerTable, GENESIS_HASH, missingLedgerTriggers, verifyChain, type LedgerVerification, type StoredLedgerRow } from '../core/ledger.js';
import type { Migration } from '../core/service.js';
import { migrateTo } from '../core/store.js';
import { CustodyLedger, type CustodyLedgerOptions } from './custody.js';

/** The ledger table in a case store. */
export const CUSTODY_TABLE = 'custody';
/** The name the case store's migrations are recorded under in schema_migrations. */
export const CUSTODY_STORE_SERVICE = 'forensic_custody';
/** The append-only triggers createLedgerTable puts on the table; verification fails when one is absent or altered. */
export const CUSTODY_TRIGGERS = [`${CUSTODY_TABLE}_no_update`, `${CUSTODY_TABLE}_no_delete`, `${CUSTODY_TABLE}_append_only`] as const;

/** Numbered migrations of a case store (each tested in custody-store.test.ts). */
export const custodyStoreMigrations: readonly Migration[] = [{ version: 1, name: 'custody ledger table with append-only triggers', up: (db) => createLedgerTable(db, CUSTODY_TABLE) }];

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const COLUMNS = 'seq, at, kind, actor, payload, prev_hash, hash';

/** True when the file starts with SQLite's header (so `verify` knows a store from a JSON export). */
export function isSqliteFile(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'ENOENT') throw new VitrineError('not_found', 'the ledger file does not exist', { cause: err });
    throw new VitrineError('unavailable', 'the ledger file cannot be read', { cause: err });
  }
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    return n === 16 && head.equals(SQLITE_MAGIC);
  } finally {
    closeSync(fd);
  }
}

/** Opens a case store read-only; a missing path is not_found, a file that is not a SQLite store is validation_failed. */
export function openStoreReadOnly(file: string): Database {
  if (!existsSync(file)) throw new VitrineError('not_found', 'the ledger store does not exist');
  let db: Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('validation_failed', 'the file is not a ledger store', { cause: err });
  }
  return db;
}

/**
 * Opens (creating when missing) a case store for writing. A case ledger is handed over as one file, so the
 * journal is a rollback journal (no -wal/-shm files beside it) and the file is private to its owner.
 */
export function openStoreForWriting(file: string): Database {
  const created = !existsSync(file);
  let db: Database;
  try {
    db = new BetterSqlite3(file);
  } catch (err) {
    throw new VitrineError('unavailable', 'the ledger store cannot be opened', { cause: err });
  }
  try {
    if (created) chmodSync(file, 0o600);
    db.pragma('journal_mode = DELETE');
    db.pragma('busy_timeout = 5000');
    migrateTo(db, CUSTODY_STORE_SERVICE, custodyStoreMigrations, custodyStoreMigrations.length);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof VitrineError && err.code !== 'internal') throw err;
    // A full disk is not a wrong file: say so (insufficient_storage), so the user frees space rather than picks another file.
    const full = storageError(err);
    if (full !== undefined && full !== err) throw full;
    throw new VitrineError('validation_failed', 'the file is not a ledger store', { cause: err });
  }
}

function hasTable(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(CUSTODY_TABLE) !== undefined;
}

/** Triggers absent from an open store, or present under their name with other SQL (a disarmed trigger counts as missing). */
export function missingTriggersIn(db: Database): string[] {
  return missingLedgerTriggers(db, CUSTODY_TABLE);
}

function readRows(db: Database): StoredLedgerRow[] {
  return db.prepare(`SELECT ${COLUMNS} FROM "${CUSTODY_TABLE}" ORDER BY seq`).all() as StoredLedgerRow[];
}

function sameRow(a: StoredLedgerRow, b: StoredLedgerRow): boolean {
  return a.seq === b.seq && a.at === b.at && a.kind === b.kind && a.actor === b.actor && a.payload === b.payload && a.prev_hash === b.prev_hash && a.hash === b.hash;
}

/**
 * spec append_ledger: writes the ledger's records that the store does not hold yet, in one transaction, and
 * returns how many. The store must hold a prefix of the ledger (nothing else, in the same order, byte for byte),
 * and keep its append-only triggers; otherwise it is refused (`conflict`) and nothing is written.
 */
export function appendLedger(ledger: CustodyLedger, file: string): number {
  const db = openStoreForWriting(path.resolve(file));
  try {
    if (missingTriggersIn(db).length > 0) throw new VitrineError('conflict', 'the ledger store lacks its append-only triggers; it may have been tampered with');
    const insert = db.prepare(`INSERT INTO "${CUSTODY_TABLE}" (${COLUMNS}) VALUES (@seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
    const rows = ledger.storedRows();
    const write = db.transaction((): number => {
      const stored = readRows(db);
      if (stored.length > rows.length || stored.some((s, i) => !sameRow(s, rows[i] as StoredLedgerRow)))
        throw new VitrineError('conflict', 'the ledger store holds records that are not a prefix of this ledger (another case?)');
      for (const row of rows.slice(stored.length)) insert.run(row);
      return rows.length - stored.length;
    });
    return write.immediate();
  } finally {
    db.close();
  }
}

/** spec missing_triggers: the append-only triggers absent from the store at `file` (read-only). */
export function missingTriggers(file: string): string[] {
  const db = openStoreReadOnly(file);
  try {
    if (!hasTable(db)) return [...CUSTODY_TRIGGERS];
    return missingTriggersIn(db);
  } finally {
    db.close();
  }
}

/** spec load_ledger: the store's records as a ledger, read-only; a missing path is not_found. */
export function loadLedger(file: string, options: CustodyLedgerOptions = {}): CustodyLedger {
  const db = openStoreReadOnly(file);
  try {
    if (!hasTable(db)) throw new VitrineError('validation_failed', 'the file is not a ledger store');
    return CustodyLedger.fromRows(readRows(db), options);
  } finally {
    db.close();
  }
}

/** How many records a store holds (0 for a new or empty store); refuses files that are not ledger stores. */
export function storedRecordCount(file: string): number {
  const db = openStoreReadOnly(file);
  try {
    if (!hasTable(db)) {
      const tables = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name != 'schema_migrations'").get() as { n: number };
      if (tables.n > 0) throw new VitrineError('validation_failed', 'the file is a SQLite database that is not a ledger store');
      return 0;
    }
    return (db.prepare(`SELECT COUNT(*) AS n FROM "${CUSTODY_TABLE}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export interface StoreVerification extends LedgerVerification {
  /** Append-only triggers absent or altered; any makes the verification fail. */
  readonly missingTriggers: string[];
}

/** The verdict for a store SQLite cannot read whole: cut short or corrupted, which is what tampering with the bytes looks like. */
function damagedStore(): StoreVerification {
  return { ok: false, count: 0, head: GENESIS_HASH, reason: 'the ledger store is damaged (truncated or corrupted); it cannot be trusted', missingTriggers: [] };
}

/** True for SQLite's own errors (a short or corrupt file), as opposed to our refusals. */
function isSqliteError(err: unknown): boolean {
  return err instanceof BetterSqlite3.SqliteError;
}

/**
 * spec verify_store: recomputes the chain read-only, row by row; `expectHead` and `expectCount` (anchored
 * elsewhere) catch a truncated or rebuilt chain, and missing triggers fail verification. A file that starts as a
 * SQLite store but cannot be read whole (cut short, corrupted) is a failed verification, not a refusal.
 */
export function verifyStore(file: string, expectHead?: string, expectCount?: number): StoreVerification {
  let db: Database;
  try {
    db = openStoreReadOnly(file);
  } catch (err) {
    if (err instanceof VitrineError && err.code === 'validation_failed' && isSqliteFile(file)) return damagedStore();
    throw err;
  }
  try {
    const check = db.prepare('PRAGMA quick_check(1)').pluck().get();
    if (check !== 'ok') return damagedStore();
    if (!hasTable(db)) throw new VitrineError('validation_failed', 'the file is not a ledger store');
    const missing = missingTriggersIn(db);
    const rows = db.prepare(`SELECT ${COLUMNS} FROM "${CUSTODY_TABLE}" ORDER BY seq`).iterate() as IterableIterator<StoredLedgerRow>;
    const result = verifyChain(rows, { ...(expectHead !== undefined ? { head: expectHead } : {}), ...(expectCount !== undefined ? { count: expectCount } : {}) });
    if (result.ok && missing.length > 0) return { ...result, ok: false, reason: 'append-only triggers are missing or altered', missingTriggers: missing };
    return { ...result, missingTriggers: missing };
  } catch (err) {
    if (isSqliteError(err)) return damagedStore();
    throw err;
  } finally {
    db.close();
  }
}
