// Analyst annotations on a case's events (tags and a note): every version kept in a hash-chained, append-only ledger per case (migration 7); the current one per event is the latest.
import type { Database } from 'better-sqlite3';
import { canonicalJson } from '../../core/canonical.js';
import type { AnnotationHistory, AnnotationsView, AnnotationVersion, EventAnnotation } from '../../core/contracts/forensic.js';
import { VitrineError } from '../../core/errors.js';
import { GENESIS_HASH, ledgerHash, verifyChain, type StoredLedgerRow } from '../../core/ledger.js';
import { CASE_ANNOTATIONS_TABLE, CASE_ANNOTATION_TRIGGER_SQL } from '../store.js';

/** The kind of every annotation record. */
export const ANNOTATION_KIND = 'event.annotate';

export interface AnnotationInput {
  readonly eventId: string;
  readonly tags: readonly string[];
  readonly note: string;
}

interface Payload {
  readonly eventId: string;
  readonly tags: readonly string[];
  readonly note: string;
}

function rowsOf(db: Database, caseId: string): StoredLedgerRow[] {
  return db.prepare(`SELECT seq, at, kind, actor, payload, prev_hash, hash FROM ${CASE_ANNOTATIONS_TABLE} WHERE case_id = ? ORDER BY seq`).all(caseId) as StoredLedgerRow[];
}

function payloadOf(row: StoredLedgerRow): Payload | null {
  try {
    const p = JSON.parse(row.payload) as Partial<Payload>;
    if (typeof p.eventId !== 'string' || !Array.isArray(p.tags) || typeof p.note !== 'string') return null;
    return { eventId: p.eventId, tags: p.tags.filter((t): t is string => typeof t === 'string'), note: p.note };
  } catch {
    return null;
  }
}

/** The current annotation of each event (its latest version), in the order events were first annotated; cleared ones (no tag, no note) left out. */
function currentOf(rows: readonly StoredLedgerRow[]): EventAnnotation[] {
  const latest = new Map<string, EventAnnotation>();
  for (const row of rows) {
    const p = payloadOf(row);
    if (p === null) continue;
    const before = latest.get(p.eventId);
    latest.set(p.eventId, { eventId: p.eventId, tags: p.tags, note: p.note, at: row.at, actor: row.actor, seq: row.seq, versions: (before?.versions ?? 0) + 1 });
  }
  return [...latest.values()].filter((a) => a.tags.length > 0 || a.note !== '');
}

/** Appends a new version of an event's annotation (empty tags and note clear it; the earlier versions stay). */
export function annotateEvent(db: Database, caseId: string, input: AnnotationInput, actor: string, now: string): EventAnnotation {
  const payload: Payload = { eventId: input.eventId, tags: [...input.tags], note: input.note };
  return db.transaction((): EventAnnotation => {
    const last = db.prepare(`SELECT seq, hash FROM ${CASE_ANNOTATIONS_TABLE} WHERE case_id = ? ORDER BY seq DESC LIMIT 1`).get(caseId) as { seq: number; hash: string } | undefined;
    const seq = (last?.seq ?? 0) + 1;
    const prev = last?.hash ?? GENESIS_HASH;
    const hash = ledgerHash({ seq, at: now, kind: ANNOTATION_KIND, actor, payload, prev_hash: prev });
    db.prepare(`INSERT INTO ${CASE_ANNOTATIONS_TABLE} (case_id, seq, at, kind, actor, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(caseId, seq, now, ANNOTATION_KIND, actor, canonicalJson(payload), prev, hash);
    const versions = (db.prepare(`SELECT COUNT(*) AS n FROM ${CASE_ANNOTATIONS_TABLE} WHERE case_id = ? AND json_extract(payload, '$.eventId') = ?`).get(caseId, input.eventId) as { n: number }).n;
    return { eventId: input.eventId, tags: payload.tags, note: payload.note, at: now, actor, seq, versions };
  })();
}

/** Annotation triggers absent or altered (a disarmed trigger counts as missing). */
function missingTriggers(db: Database): string[] {
  const norm = (sql: string): string => sql.replace(/\s+/g, ' ').trim();
  const present = new Map((db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?").all(CASE_ANNOTATIONS_TABLE) as { name: string; sql: string | null }[]).map((r) => [r.name, norm(r.sql ?? '')]));
  return Object.entries(CASE_ANNOTATION_TRIGGER_SQL)
    .filter(([name, sql]) => present.get(name) !== norm(sql))
    .map(([name]) => name);
}

/** The current annotations of a case, and its annotation chain verified (recomputed on every call; missing triggers fail it). */
export function caseAnnotations(db: Database, caseId: string): AnnotationsView {
  const rows = rowsOf(db, caseId);
  const v = verifyChain(rows);
  const missing = missingTriggers(db);
  const verification = v.ok && missing.length > 0 ? { ...v, ok: false, reason: 'append-only triggers are missing or altered' } : v;
  return { annotations: currentOf(rows), verification };
}

/** The current annotation of one event, or null. */
export function eventAnnotation(db: Database, caseId: string, eventId: string): EventAnnotation | null {
  const rows = db.prepare(`SELECT seq, at, kind, actor, payload, prev_hash, hash FROM ${CASE_ANNOTATIONS_TABLE} WHERE case_id = ? AND json_extract(payload, '$.eventId') = ? ORDER BY seq`).all(caseId, eventId) as StoredLedgerRow[];
  return currentOf(rows)[0] ?? null;
}

export interface HistoryPage {
  readonly order: 'oldest' | 'newest';
  readonly limit: number;
  readonly offset: number;
}

/**
 * A page of every version of one event's annotation (version 1 is its first), oldest or newest first, with the case's
 * annotation chain verified; an event never annotated has none (total 0). A version whose stored payload cannot be read
 * is answered with no tags and no note (the chain verification says whether the ledger is intact).
 */
export function annotationHistory(db: Database, caseId: string, eventId: string, page: HistoryPage): AnnotationHistory {
  const where = `FROM ${CASE_ANNOTATIONS_TABLE} WHERE case_id = ? AND json_extract(payload, '$.eventId') = ?`;
  const total = (db.prepare(`SELECT COUNT(*) AS n ${where}`).get(caseId, eventId) as { n: number }).n;
  const newest = page.order === 'newest';
  const rows = db.prepare(`SELECT seq, at, kind, actor, payload, prev_hash, hash ${where} ORDER BY seq ${newest ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`).all(caseId, eventId, page.limit, page.offset) as StoredLedgerRow[];
  const items = rows.map((row, i): AnnotationVersion => {
    const p = payloadOf(row);
    const position = page.offset + i;
    return { version: newest ? total - position : position + 1, tags: p?.tags ?? [], note: p?.note ?? '', at: row.at, actor: row.actor, seq: row.seq, hash: row.hash, prevHash: row.prev_hash };
  });
  return { eventId, order: page.order, items, total, limit: page.limit, offset: page.offset, verification: caseAnnotations(db, caseId).verification };
}

/** Throws unless the annotation chain of the case verifies (an annotation is not added to a broken chain). */
export function assertAnnotationsIntact(db: Database, caseId: string): void {
  if (!caseAnnotations(db, caseId).verification.ok) throw new VitrineError('conflict', "the case's annotation ledger does not verify; no annotation is added");
}
