// A hash-chained, append-only ledger in one SQLite table: the pkgscan audit log and the forensic custody ledger.
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { canonicalJson, sha256Hex } from './canonical.js';
import { VitrineError } from './errors.js';

/** The prev_hash of the first record. */
export const GENESIS_HASH = '0'.repeat(64);

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const HASH = /^[0-9a-f]{64}$/;
const MAX_KIND = 128;
const MAX_ACTOR = 256;
const MAX_AT = 64;

/** One stored record. `hash` commits to every other field, `prev_hash` to the record before. */
export interface LedgerRecord {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly actor: string;
  readonly payload: unknown;
  readonly prev_hash: string;
  readonly hash: string;
}

/** What a caller appends; `at` defaults to now (ISO 8601, milliseconds, Z). */
export interface LedgerEntry {
  readonly kind: string;
  readonly actor: string;
  readonly payload: unknown;
  readonly at?: string;
}

/** External anchors (recorded elsewhere) that also catch truncation or a rebuilt chain. */
export interface LedgerAnchors {
  readonly count?: number;
  readonly head?: string;
}

export interface LedgerVerification {
  readonly ok: boolean;
  /** Records read. */
  readonly count: number;
  /** The first sequence number where the chain breaks (for a gap: the missing one). */
  readonly firstBroken?: number;
  readonly reason?: string;
  /** Hash of the last record read (GENESIS_HASH for an empty ledger): the value to anchor externally. */
  readonly head: string;
}

/** A record as stored: the payload still as its canonical JSON text. */
export interface StoredLedgerRow {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly actor: string;
  readonly payload: string;
  readonly prev_hash: string;
  readonly hash: string;
}

function checkTableName(table: string): void {
  if (!TABLE_NAME.test(table) || table.startsWith('sqlite_')) throw new VitrineError('internal', 'invalid ledger table name');
}

/**
 * Creates the ledger table and the triggers that abort UPDATE and DELETE (idempotent, so a migration can call it).
 * Inserts must extend the chain at its end: that also stops INSERT OR REPLACE, whose implicit delete fires no trigger.
 * Tamper-evident, not tamper-proof: whoever can drop the triggers can rewrite the chain; anchor the head elsewhere.
 */
export function createLedgerTable(db: Database, table: string): void {
  checkTableName(table);
  db.exec(`
    CREATE TABLE IF NOT EXISTS "${table}" (
      seq INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      kind TEXT NOT NULL,
      actor TEXT NOT NULL,
      payload TEXT NOT NULL,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL
    );
    CREATE TRIGGER IF NOT EXISTS "${table}_no_update" BEFORE UPDATE ON "${table}"
      BEGIN SELECT RAISE(ABORT, 'append-only'); END;
    CREATE TRIGGER IF NOT EXISTS "${table}_no_delete" BEFORE DELETE ON "${table}"
      BEGIN SELECT RAISE(ABORT, 'append-only'); END;
    CREATE TRIGGER IF NOT EXISTS "${table}_append_only" BEFORE INSERT ON "${table}"
      WHEN NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM "${table}")
        OR NEW.prev_hash IS NOT IFNULL((SELECT hash FROM "${table}" ORDER BY seq DESC LIMIT 1), '${GENESIS_HASH}')
      BEGIN SELECT RAISE(ABORT, 'append-only'); END;
  `);
}

/** The names of the triggers createLedgerTable gives `table`. */
export function ledgerTriggerNames(table: string): string[] {
  checkTableName(table);
  return [`${table}_no_update`, `${table}_no_delete`, `${table}_append_only`];
}

const normaliseSql = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

/** The SQL createLedgerTable writes for each trigger of a table of that name, from a scratch in-memory database. */
function expectedTriggerSql(table: string): Map<string, string> {
  const scratch = new BetterSqlite3(':memory:');
  try {
    createLedgerTable(scratch, table);
    const rows = scratch.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as { name: string; sql: string }[];
    return new Map(rows.map((r) => [r.name, normaliseSql(r.sql)]));
  } finally {
    scratch.close();
  }
}

/**
 * The append-only triggers of `table` that are absent from `db`, or present under their name with other SQL (a disarmed
 * trigger counts as missing). A chain whose triggers were dropped can have lost its newest rows without a break showing.
 */
export function missingLedgerTriggers(db: Database, table: string): string[] {
  const present = new Map(
    (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?").all(table) as { name: string; sql: string | null }[]).map((r) => [r.name, normaliseSql(r.sql ?? '')]),
  );
  const expected = expectedTriggerSql(table);
  return ledgerTriggerNames(table).filter((name) => present.get(name) !== expected.get(name));
}

/** The hash of a record: SHA-256 of the canonical JSON of {seq, at, kind, actor, payload, prev_hash}. */
export function ledgerHash(record: { seq: number; at: string; kind: string; actor: string; payload: unknown; prev_hash: string }): string {
  return sha256Hex(
    canonicalJson({ seq: record.seq, at: record.at, kind: record.kind, actor: record.actor, payload: record.payload, prev_hash: record.prev_hash }),
  );
}

/**
 * Checks a chain one stored row at a time, in seq order (so a caller can feed it from any source, synchronous or in
 * batches, without loading the ledger whole): `next` answers the first break, `finish` the verdict with the anchors.
 */
export class ChainVerifier {
  private expectedSeq = 1;
  private prev = GENESIS_HASH;
  private count = 0;

  /** The break this row makes, or null when it extends the chain. */
  next(row: StoredLedgerRow): LedgerVerification | null {
    if (row.seq !== this.expectedSeq) return this.broken(this.expectedSeq, row.seq > this.expectedSeq ? 'record missing (sequence gap)' : 'sequence out of order');
    this.count++;
    if (row.prev_hash !== this.prev) return this.broken(row.seq, 'prev_hash does not match the previous record');
    let payload: unknown;
    try {
      payload = JSON.parse(row.payload);
    } catch {
      return this.broken(row.seq, 'payload is not JSON');
    }
    if (canonicalJson(payload) !== row.payload) return this.broken(row.seq, 'payload is not canonical JSON');
    if (!HASH.test(row.hash) || ledgerHash({ ...row, payload }) !== row.hash) return this.broken(row.seq, 'hash does not match the record');
    this.prev = row.hash;
    this.expectedSeq++;
    return null;
  }

  /** The verdict once every row was given without a break. */
  finish(anchors: LedgerAnchors = {}): LedgerVerification {
    const { count, prev } = this;
    if (anchors.count !== undefined && anchors.count !== count)
      return { ok: false, count, firstBroken: Math.min(count, anchors.count) + 1, reason: 'record count differs from the expected count', head: prev };
    if (anchors.head !== undefined && anchors.head.toLowerCase() !== prev)
      return { ok: false, count, firstBroken: Math.max(count, 1), reason: 'head hash differs from the expected head', head: prev };
    return { ok: true, count, head: prev };
  }

  private broken(seq: number, reason: string): LedgerVerification {
    return { ok: false, count: this.count, firstBroken: seq, reason, head: this.prev };
  }
}

/**
 * Recomputes a chain from stored rows in seq order, one at a time (an iterator, so a long ledger
 * is never loaded whole), and reports the first break.
 */
export function verifyChain(rows: Iterable<StoredLedgerRow>, anchors: LedgerAnchors = {}): LedgerVerification {
  const v = new ChainVerifier();
  for (const row of rows) {
    const broken = v.next(row);
    if (broken !== null) return broken;
  }
  return v.finish(anchors);
}

function toRecord(row: StoredLedgerRow): LedgerRecord {
  return { seq: row.seq, at: row.at, kind: row.kind, actor: row.actor, payload: JSON.parse(row.payload) as unknown, prev_hash: row.prev_hash, hash: row.hash };
}

/** Appends to and verifies one ledger table (created beforehand with createLedgerTable). */
export class Ledger {
  readonly table: string;
  private readonly db: Database;
  private readonly headStmt: Statement<[], StoredLedgerRow>;
  private readonly insertStmt: Statement<[StoredLedgerRow]>;
  private readonly allStmt: Statement<[], StoredLedgerRow>;
  private readonly pageStmt: Statement<[number, number], StoredLedgerRow>;
  private readonly getStmt: Statement<[number], StoredLedgerRow>;
  private readonly countStmt: Statement<[], { n: number }>;

  constructor(db: Database, table: string) {
    checkTableName(table);
    this.db = db;
    this.table = table;
    const cols = 'seq, at, kind, actor, payload, prev_hash, hash';
    try {
      this.headStmt = db.prepare(`SELECT ${cols} FROM "${table}" ORDER BY seq DESC LIMIT 1`);
      this.insertStmt = db.prepare(`INSERT INTO "${table}" (${cols}) VALUES (@seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
      this.allStmt = db.prepare(`SELECT ${cols} FROM "${table}" ORDER BY seq`);
      this.pageStmt = db.prepare(`SELECT ${cols} FROM "${table}" ORDER BY seq LIMIT ? OFFSET ?`);
      this.getStmt = db.prepare(`SELECT ${cols} FROM "${table}" WHERE seq = ?`);
      this.countStmt = db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`);
    } catch (err) {
      throw new VitrineError('internal', 'ledger table is missing or malformed', { cause: err });
    }
  }

  /** Appends one record under an IMMEDIATE transaction, so concurrent writers never fork the chain. */
  append(entry: LedgerEntry): LedgerRecord {
    if (typeof entry.kind !== 'string' || entry.kind === '' || entry.kind.length > MAX_KIND)
      throw new VitrineError('validation_failed', `ledger kind must be 1 to ${MAX_KIND} characters`);
    if (typeof entry.actor !== 'string' || entry.actor.length > MAX_ACTOR)
      throw new VitrineError('validation_failed', `ledger actor must be at most ${MAX_ACTOR} characters`);
    if (entry.at !== undefined && (typeof entry.at !== 'string' || entry.at === '' || entry.at.length > MAX_AT))
      throw new VitrineError('validation_failed', `ledger time must be 1 to ${MAX_AT} characters`);
    let payload: string;
    try {
      payload = canonicalJson(entry.payload);
    } catch {
      throw new VitrineError('validation_failed', 'ledger payload must be JSON (finite numbers, no cycles)');
    }
    const at = entry.at ?? new Date().toISOString();
    const write = this.db.transaction((): StoredLedgerRow => {
      const head = this.headStmt.get();
      const seq = head ? head.seq + 1 : 1;
      const prev_hash = head ? head.hash : GENESIS_HASH;
      const row: StoredLedgerRow = {
        seq,
        at,
        kind: entry.kind,
        actor: entry.actor,
        payload,
        prev_hash,
        hash: ledgerHash({ seq, at, kind: entry.kind, actor: entry.actor, payload: JSON.parse(payload) as unknown, prev_hash }),
      };
      this.insertStmt.run(row);
      return row;
    });
    return toRecord(write.immediate());
  }

  /** Recomputes the whole chain; anchors (count, head hash) recorded elsewhere also catch truncation. */
  verify(anchors: LedgerAnchors = {}): LedgerVerification {
    return verifyChain(this.allStmt.iterate(), anchors);
  }

  /** Records in seq order. */
  list(offset = 0, limit = 100): LedgerRecord[] {
    return this.pageStmt.all(Math.max(0, Math.trunc(limit)), Math.max(0, Math.trunc(offset))).map(toRecord);
  }

  get(seq: number): LedgerRecord | undefined {
    const row = this.getStmt.get(seq);
    return row ? toRecord(row) : undefined;
  }

  /** The last record, undefined for an empty ledger. */
  head(): LedgerRecord | undefined {
    const row = this.headStmt.get();
    return row ? toRecord(row) : undefined;
  }

  count(): number {
    return this.countStmt.get()?.n ?? 0;
  }
}
