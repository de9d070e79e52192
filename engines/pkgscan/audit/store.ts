// The audit chain's storage on either backend: append under one lock, pages with filters, a batched walk for
// verification, and the append-only guards (SQLite triggers or PostgreSQL triggers) that must exist.
import type { Database } from 'better-sqlite3';
import { canonicalJson } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { ChainVerifier, GENESIS_HASH, Ledger, ledgerHash, missingLedgerTriggers, type LedgerAnchors, type LedgerVerification, type StoredLedgerRow } from '../../core/ledger.js';
import { APPEND_AT_END_BODY, APPEND_AT_END_FN, guardTriggerNames, REFUSE_CHANGE_BODY, REFUSE_CHANGE_FN } from '../db/schema.js';
import { advisoryKey } from '../db/sql.js';
import type { AsyncDb, Param, Queryable } from '../db/types.js';
import { AUDIT_TABLE } from '../store.js';

/** The advisory lock every PostgreSQL appender holds: one chain, one writer at a time, across processes. */
export const AUDIT_LOCK = 'audit-chain';
const COLS = 'seq, at, kind, actor, payload, prev_hash, hash';
const BATCH = 1000;
const MAX_KIND = 128;
const MAX_ACTOR = 256;

export interface AuditFilter {
  readonly action?: string | undefined;
  /** Action prefix such as `auth.` */
  readonly actionPrefix?: string | undefined;
  readonly actor?: string | undefined;
}

export interface NewAuditRecord {
  readonly kind: string;
  readonly actor: string;
  readonly payload: unknown;
}

export function whereOf(filter: AuditFilter): { clause: string; args: Param[] } {
  const where: string[] = [];
  const args: Param[] = [];
  if (filter.action !== undefined) {
    where.push('kind = ?');
    args.push(filter.action);
  }
  if (filter.actionPrefix !== undefined) {
    where.push('substr(kind, 1, length(?)) = ?');
    args.push(filter.actionPrefix, filter.actionPrefix);
  }
  if (filter.actor !== undefined) {
    where.push('actor = ?');
    args.push(filter.actor);
  }
  return { clause: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', args };
}

function checkRecord(r: NewAuditRecord): string {
  if (typeof r.kind !== 'string' || r.kind === '' || r.kind.length > MAX_KIND) throw new VitrineError('validation_failed', `ledger kind must be 1 to ${MAX_KIND} characters`);
  if (typeof r.actor !== 'string' || r.actor.length > MAX_ACTOR) throw new VitrineError('validation_failed', `ledger actor must be at most ${MAX_ACTOR} characters`);
  try {
    return canonicalJson(r.payload);
  } catch {
    throw new VitrineError('validation_failed', 'ledger payload must be JSON (finite numbers, no cycles)');
  }
}

/**
 * Appends one record inside the caller's PostgreSQL transaction: takes the chain's advisory lock (held to commit),
 * reads the head and inserts after it. The insert trigger refuses anything but the next seq after the head's hash.
 */
export async function appendAuditPg(q: Queryable, record: NewAuditRecord, at = new Date().toISOString()): Promise<StoredLedgerRow> {
  const payload = checkRecord(record);
  await q.get('SELECT pg_advisory_xact_lock(?::bigint) AS locked', [advisoryKey(AUDIT_LOCK)]);
  const head = await q.get<{ seq: number; hash: string }>(`SELECT seq, hash FROM ${AUDIT_TABLE} ORDER BY seq DESC LIMIT 1`);
  const seq = head ? Number(head.seq) + 1 : 1;
  const prev_hash = head ? head.hash : GENESIS_HASH;
  const row: StoredLedgerRow = {
    seq,
    at,
    kind: record.kind,
    actor: record.actor,
    payload,
    prev_hash,
    hash: ledgerHash({ seq, at, kind: record.kind, actor: record.actor, payload: JSON.parse(payload) as unknown, prev_hash }),
  };
  await q.run(`INSERT INTO ${AUDIT_TABLE} (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [row.seq, row.at, row.kind, row.actor, row.payload, row.prev_hash, row.hash]);
  return row;
}

/** Recomputes a chain read in batches from an async source (engines/core's chain verifier; seq may come back as a string). */
export async function verifyRows(batches: AsyncIterable<readonly StoredLedgerRow[]>, anchors: LedgerAnchors = {}): Promise<LedgerVerification> {
  const v = new ChainVerifier();
  for await (const rows of batches) {
    for (const raw of rows) {
      const broken = v.next({ ...raw, seq: Number(raw.seq) });
      if (broken !== null) return broken;
    }
  }
  return v.finish(anchors);
}

/** The chain in seq order, BATCH rows a query (keyset pagination: never the whole table in memory). */
export async function* chainBatches(db: Queryable): AsyncGenerator<StoredLedgerRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db.all<StoredLedgerRow>(`SELECT ${COLS} FROM ${AUDIT_TABLE} WHERE seq > ? ORDER BY seq LIMIT ?`, [after, BATCH]);
    if (rows.length === 0) return;
    yield rows;
    after = Number((rows[rows.length - 1] as StoredLedgerRow).seq);
    if (rows.length < BATCH) return;
  }
}

const normalise = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** What each PostgreSQL guard must be: its event and the function (with the body) it calls. */
const PG_GUARDS: Readonly<Record<string, { event: RegExp; fn: string; body: string }>> = {
  no_update: { event: /\bBEFORE UPDATE ON\b.*\bFOR EACH ROW\b/, fn: REFUSE_CHANGE_FN, body: REFUSE_CHANGE_BODY },
  no_delete: { event: /\bBEFORE DELETE ON\b.*\bFOR EACH ROW\b/, fn: REFUSE_CHANGE_FN, body: REFUSE_CHANGE_BODY },
  append_only: { event: /\bBEFORE INSERT ON\b.*\bFOR EACH ROW\b/, fn: APPEND_AT_END_FN, body: APPEND_AT_END_BODY },
  no_truncate: { event: /\bBEFORE TRUNCATE ON\b.*\bFOR EACH STATEMENT\b/, fn: REFUSE_CHANGE_FN, body: REFUSE_CHANGE_BODY },
};

/**
 * The append-only triggers of `table` that are missing from a PostgreSQL database, disabled, fired on another event,
 * or calling a function whose body was changed (any of these lets rows be rewritten or deleted unseen).
 */
export async function missingPgGuards(db: Queryable, table: string): Promise<string[]> {
  const rows = await db.all<{ name: string; enabled: string; def: string; fn: string; body: string }>(
    `SELECT t.tgname AS name, t.tgenabled::text AS enabled, pg_get_triggerdef(t.oid) AS def, p.proname AS fn, p.prosrc AS body
       FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE t.tgrelid = to_regclass(?) AND NOT t.tgisinternal`,
    [table],
  );
  const present = new Map(rows.map((r) => [r.name, r]));
  return guardTriggerNames(table).filter((name) => {
    const r = present.get(name);
    const want = PG_GUARDS[name.slice(table.length + 1)];
    if (!r || !want) return true;
    const enabled = r.enabled === 'O' || r.enabled === 'A';
    return !enabled || !want.event.test(r.def) || r.fn !== want.fn || normalise(r.body) !== normalise(want.body);
  });
}

/** The chain's storage: one implementation per backend behind the same async functions. */
export interface AuditStore {
  append(record: NewAuditRecord): Promise<StoredLedgerRow>;
  page(filter: AuditFilter, limit: number, offset: number): Promise<{ rows: StoredLedgerRow[]; total: number }>;
  verify(anchors: LedgerAnchors): Promise<LedgerVerification>;
  count(): Promise<number>;
  missingGuards(): Promise<string[]>;
}

async function page(db: Queryable, filter: AuditFilter, limit: number, offset: number): Promise<{ rows: StoredLedgerRow[]; total: number }> {
  const { clause, args } = whereOf(filter);
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${AUDIT_TABLE} ${clause}`, args))?.n ?? 0;
  const rows = await db.all<StoredLedgerRow>(`SELECT ${COLS} FROM ${AUDIT_TABLE} ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { rows: rows.map((r) => ({ ...r, seq: Number(r.seq) })), total: Number(total) };
}

/** SQLite: engines/core's Ledger (an IMMEDIATE transaction per append) and its triggers, as before. */
export class SqliteAuditStore implements AuditStore {
  readonly ledger: Ledger;
  constructor(
    readonly database: Database,
    private readonly q: Queryable,
  ) {
    this.ledger = new Ledger(database, AUDIT_TABLE);
  }

  missingGuardsSync(): string[] {
    return missingLedgerTriggers(this.database, AUDIT_TABLE);
  }

  appendSync(record: NewAuditRecord): StoredLedgerRow {
    const r = this.ledger.append(record);
    return { seq: r.seq, at: r.at, kind: r.kind, actor: r.actor, payload: canonicalJson(r.payload), prev_hash: r.prev_hash, hash: r.hash };
  }

  async append(record: NewAuditRecord): Promise<StoredLedgerRow> {
    return this.appendSync(record);
  }

  page(filter: AuditFilter, limit: number, offset: number): Promise<{ rows: StoredLedgerRow[]; total: number }> {
    return page(this.q, filter, limit, offset);
  }

  async verify(anchors: LedgerAnchors): Promise<LedgerVerification> {
    return this.ledger.verify(anchors);
  }

  async count(): Promise<number> {
    return this.ledger.count();
  }

  async missingGuards(): Promise<string[]> {
    return this.missingGuardsSync();
  }
}

/** PostgreSQL: appends under the advisory lock, reads with plain queries, guards checked in the catalogue. */
export class PgAuditStore implements AuditStore {
  constructor(private readonly db: AsyncDb) {}

  append(record: NewAuditRecord): Promise<StoredLedgerRow> {
    return this.db.transaction((q) => appendAuditPg(q, record));
  }

  page(filter: AuditFilter, limit: number, offset: number): Promise<{ rows: StoredLedgerRow[]; total: number }> {
    return page(this.db, filter, limit, offset);
  }

  verify(anchors: LedgerAnchors): Promise<LedgerVerification> {
    return verifyRows(chainBatches(this.db), anchors);
  }

  async count(): Promise<number> {
    return Number((await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${AUDIT_TABLE}`))?.n ?? 0);
  }

  missingGuards(): Promise<string[]> {
    return missingPgGuards(this.db, AUDIT_TABLE);
  }
}
