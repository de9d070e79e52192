// Stage 2, the custody ledger in memory: hash-chained records of what was acquired and ingested, chained exactly as engines/core's ledger stores them.
import { canonicalJson } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { GENESIS_HASH, ledgerHash, verifyChain, type LedgerAnchors, type LedgerVerification, type StoredLedgerRow } from '../core/ledger.js';
import type { CustodyRecord } from '../core/contracts/forensic.js';
import type { ForensicEvent } from './event.js';

/** One custody record: the contract's type (engines/core/contracts/forensic.ts) is the one definition. */
export type { CustodyRecord };

/** What a caller appends; `time` defaults to now (UTC). */
export interface CustodyEntry {
  readonly action: string;
  readonly digest: string;
  readonly eventId?: string;
  readonly artifact?: string;
  readonly time?: string;
}

export interface CustodyLedgerOptions {
  readonly actor?: string;
  /** The clock for default times (tests fix it). */
  readonly now?: () => Date;
}

const ACTION = /^[a-z][a-z0-9_.-]{0,63}$/;
const DIGEST = /^[0-9a-f]{64}$/;
const EVENT_ID = /^[0-9a-f]{16}$/;
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
export const MAX_ARTIFACT_LENGTH = 1024;
export const DEFAULT_CUSTODY_ACTOR = 'forensic';

/** The stored payload: the spec's field names, so a store reads the same to any tool. */
function payloadOf(entry: { digest: string; eventId?: string | undefined; artifact?: string | undefined }): Record<string, string> {
  return { digest: entry.digest, ...(entry.eventId !== undefined ? { event_id: entry.eventId } : {}), ...(entry.artifact !== undefined ? { artifact: entry.artifact } : {}) };
}

/** A stored row as a custody record (fields it lacks come back empty, and verification then fails on it). */
export function recordFromRow(row: StoredLedgerRow): CustodyRecord {
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.payload);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
  } catch {
    payload = {};
  }
  const digest = typeof payload['digest'] === 'string' ? payload['digest'] : '';
  return {
    seq: row.seq,
    action: row.kind,
    digest,
    ...(typeof payload['event_id'] === 'string' ? { eventId: payload['event_id'] } : {}),
    ...(typeof payload['artifact'] === 'string' ? { artifact: payload['artifact'] } : {}),
    time: row.at,
    actor: row.actor,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** A custody record as a stored row (the inverse of recordFromRow for well-formed records). */
export function rowFromRecord(record: CustodyRecord): StoredLedgerRow {
  return {
    seq: record.seq,
    at: record.time,
    kind: record.action,
    actor: record.actor,
    payload: canonicalJson(payloadOf(record)),
    prev_hash: record.prevHash,
    hash: record.hash,
  };
}

function checkEntry(entry: CustodyEntry): void {
  if (typeof entry.action !== 'string' || !ACTION.test(entry.action)) throw new VitrineError('validation_failed', 'a custody action must be 1 to 64 lower-case letters, digits, dots, dashes or underscores');
  if (typeof entry.digest !== 'string' || !DIGEST.test(entry.digest)) throw new VitrineError('validation_failed', 'a custody digest must be a lower-case hex SHA-256');
  if (entry.eventId !== undefined && (typeof entry.eventId !== 'string' || !EVENT_ID.test(entry.eventId))) throw new VitrineError('validation_failed', 'a custody event id must be 16 lower-case hex characters');
  if (entry.artifact !== undefined && (typeof entry.artifact !== 'string' || entry.artifact === '' || entry.artifact.length > MAX_ARTIFACT_LENGTH))
    throw new VitrineError('validation_failed', `a custody artifact reference must be 1 to ${MAX_ARTIFACT_LENGTH} characters`);
  if (entry.time !== undefined && (typeof entry.time !== 'string' || !UTC_TIME.test(entry.time))) throw new VitrineError('validation_failed', 'a custody time must be ISO 8601 in UTC (ending in Z)');
}

/**
 * The custody ledger: append-only, each record committing to the one before through its hash
 * (SHA-256 of the canonical {seq, at, kind, actor, payload, prev_hash}, engines/core's recipe), so the
 * same records verify in memory, in a SQLite store and in a JSON export.
 */
export class CustodyLedger {
  private readonly rows: StoredLedgerRow[] = [];
  readonly actor: string;
  private readonly now: () => Date;

  constructor(options: CustodyLedgerOptions = {}) {
    this.actor = options.actor ?? DEFAULT_CUSTODY_ACTOR;
    if (this.actor.length > 256) throw new VitrineError('validation_failed', 'a custody actor must be at most 256 characters');
    this.now = options.now ?? (() => new Date());
  }

  /** A ledger holding stored rows as they are (loadLedger, verification of exports); appends continue the chain. */
  static fromRows(rows: Iterable<StoredLedgerRow>, options: CustodyLedgerOptions = {}): CustodyLedger {
    const ledger = new CustodyLedger(options);
    for (const row of rows) ledger.rows.push({ ...row });
    return ledger;
  }

  /** spec ledger append: a new record chained to the last one. */
  append(entry: CustodyEntry): CustodyRecord {
    checkEntry(entry);
    const last = this.rows[this.rows.length - 1];
    const seq = last ? last.seq + 1 : 1;
    const prev_hash = last ? last.hash : GENESIS_HASH;
    const at = entry.time ?? this.now().toISOString();
    const payload = payloadOf(entry);
    const hash = ledgerHash({ seq, at, kind: entry.action, actor: this.actor, payload, prev_hash });
    const row: StoredLedgerRow = { seq, at, kind: entry.action, actor: this.actor, payload: canonicalJson(payload), prev_hash, hash };
    this.rows.push(row);
    return recordFromRow(row);
  }

  /** spec record_ingest: the event's integrity hash, under its event id. */
  recordIngest(event: ForensicEvent, artifact?: string): CustodyRecord {
    return this.append({ action: 'ingest', digest: event.integrityHash, eventId: event.eventId, ...(artifact !== undefined ? { artifact } : {}) });
  }

  /** spec verify: false if any link is broken. */
  verify(): boolean {
    return this.verification().ok;
  }

  /** The full verification: first broken sequence number and why, the head to anchor; anchors catch truncation. */
  verification(anchors: LedgerAnchors = {}): LedgerVerification {
    return verifyChain(this.rows, anchors);
  }

  /** spec records: a copy of the records. */
  records(): CustodyRecord[] {
    return this.rows.map(recordFromRow);
  }

  /** The stored form of every record (what a SQLite store holds), copied. */
  storedRows(): StoredLedgerRow[] {
    return this.rows.map((r) => ({ ...r }));
  }

  get count(): number {
    return this.rows.length;
  }

  /** Hash of the last record (GENESIS_HASH when empty): the value to anchor outside the ledger. */
  get head(): string {
    return this.rows[this.rows.length - 1]?.hash ?? GENESIS_HASH;
  }
}

/** Version tag of the JSON export of a custody ledger. */
export const CUSTODY_EXPORT_FORMAT = 'vitrine.forensic.custody';

/** The ledger as a JSON document that `forensic verify FILE` reads back. */
export function exportCustody(ledger: CustodyLedger): { format: string; version: 1; head: string; count: number; records: CustodyRecord[] } {
  return { format: CUSTODY_EXPORT_FORMAT, version: 1, head: ledger.head, count: ledger.count, records: ledger.records() };
}

/**
 * The anchors an export states about itself: `head` and `count` at the top (exportCustody) or under `verification`
 * (a CustodyView, GET /api/cases/{id}/custody). A value of the wrong type is returned as a mismatch marker, so a
 * mangled anchor fails verification rather than being ignored.
 */
export function exportAnchors(doc: unknown): { head?: string; count?: number; malformed?: true } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return {};
  const top = doc as Record<string, unknown>;
  const inner = typeof top['verification'] === 'object' && top['verification'] !== null ? (top['verification'] as Record<string, unknown>) : {};
  const head: unknown = 'head' in top ? top['head'] : inner['head'];
  const count: unknown = 'count' in top ? top['count'] : inner['count'];
  const out: { head?: string; count?: number; malformed?: true } = {};
  if (head !== undefined) {
    if (typeof head === 'string' && /^[0-9a-fA-F]{64}$/.test(head)) out.head = head.toLowerCase();
    else out.malformed = true;
  }
  if (count !== undefined) {
    if (typeof count === 'number' && Number.isInteger(count) && count >= 0) out.count = count;
    else out.malformed = true;
  }
  return out;
}

/** Rebuilds stored rows from an exported document; records that are not well-formed are kept as they are, so verification reports them. */
export function rowsFromExport(doc: unknown): StoredLedgerRow[] {
  const list: unknown = Array.isArray(doc) ? doc : typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>)['records'] : undefined;
  if (!Array.isArray(list)) throw new VitrineError('validation_failed', 'the file is not a custody ledger export');
  return list.map((item: unknown, i): StoredLedgerRow => {
    const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const text = (k: string): string => (typeof r[k] === 'string' ? (r[k] as string) : '');
    const digest = text('digest');
    const eventId = typeof r['eventId'] === 'string' ? r['eventId'] : undefined;
    const artifact = typeof r['artifact'] === 'string' ? r['artifact'] : undefined;
    return {
      seq: typeof r['seq'] === 'number' ? r['seq'] : i + 1,
      at: text('time'),
      kind: text('action'),
      actor: text('actor'),
      payload: canonicalJson(payloadOf({ digest, eventId, artifact })),
      prev_hash: text('prevHash'),
      hash: text('hash'),
    };
  });
}
