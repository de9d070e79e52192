// The forensic service's tables: cases (status, request, analysis view) and each case's custody ledger (hash-chained, append-only by triggers), with numbered migrations and the queries over them.
import type { Database, Statement } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { VitrineError } from '../core/errors.js';
import { GENESIS_HASH, verifyChain, type LedgerAnchors, type StoredLedgerRow } from '../core/ledger.js';
import type { Migration } from '../core/service.js';
import type { AnalysisCounts, AnalysisView, CaseStatus, CaseSummary, ConfidenceGrade, CustodyView, ExportedEvent } from '../core/contracts/forensic.js';
import { recordFromRow } from './custody.js';

export const CASES_TABLE = 'forensic_cases';
export const CASE_CUSTODY_TABLE = 'forensic_case_custody';
/** A finished case's events, nodes and edges, one JSON row each: pages and streams are read without parsing the whole view. */
export const CASE_ITEMS_TABLE = 'forensic_case_items';

/** Each case's analyst annotations (tags and notes on events): a case-partitioned, hash-chained, append-only ledger. */
export const CASE_ANNOTATIONS_TABLE = 'forensic_case_annotations';
/**
 * Each stored event of a finished case without its attributes (`{}`) and raw record reference (leanEventJson), by
 * case id and seq as in the items table: what the timeline pages (`attributes=false`) answer, read without parsing
 * the event. A table of its own, so its rows are small and dense and the item rows stay as they were.
 */
export const CASE_LEAN_EVENTS_TABLE = 'forensic_case_lean_events';
/** The index of the annotations by case and event id (migration 11). */
export const CASE_ANNOTATIONS_EVENT_INDEX = `${CASE_ANNOTATIONS_TABLE}_event`;
/** Failed cases an analyst removed: one row each, append-only (what was asked, why it failed, when it was removed). */
export const CASE_REMOVALS_TABLE = 'forensic_case_removals';
/**
 * A finished case's large texts (the export and, for a case stored before migration 6, the whole view; a case stored
 * before the lean event rows also has a timeline text, which nothing reads any more), one row each keyed by case id
 * and name: the case row stays small, so reading its columns (the custody anchors, the
 * owner, the failure message) never walks the texts' overflow pages.
 */
export const CASE_TEXTS_TABLE = 'forensic_case_texts';

/** The large texts of a case: the name in the texts table and the case-row column that held it before migration 9. */
export type CaseTextName = 'view' | 'export' | 'timeline';
const TEXT_COLUMNS = { view: 'view_json', export: 'export_json', timeline: 'timeline_json' } as const satisfies Record<CaseTextName, string>;

/**
 * The triggers that make a case-partitioned ledger table append-only: no UPDATE, no DELETE, and an INSERT must extend
 * that case's chain at its end (the case-partitioned form of engines/core/ledger.ts createLedgerTable).
 */
export function caseLedgerTriggerSql(table: string): Readonly<Record<string, string>> {
  return {
    [`${table}_no_update`]: `CREATE TRIGGER "${table}_no_update" BEFORE UPDATE ON "${table}" BEGIN SELECT RAISE(ABORT, 'append-only'); END`,
    [`${table}_no_delete`]: `CREATE TRIGGER "${table}_no_delete" BEFORE DELETE ON "${table}" BEGIN SELECT RAISE(ABORT, 'append-only'); END`,
    [`${table}_append_only`]:
      `CREATE TRIGGER "${table}_append_only" BEFORE INSERT ON "${table}" ` +
      `WHEN NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM "${table}" WHERE case_id = NEW.case_id) ` +
      `OR NEW.prev_hash IS NOT IFNULL((SELECT hash FROM "${table}" WHERE case_id = NEW.case_id ORDER BY seq DESC LIMIT 1), '${GENESIS_HASH}') ` +
      `BEGIN SELECT RAISE(ABORT, 'append-only'); END`,
  };
}

/** A case-partitioned ledger table: engines/core ledger rows with the case id, primary key case id + seq. */
function caseLedgerTableSql(table: string): string {
  return `
        CREATE TABLE ${table} (
          case_id TEXT NOT NULL REFERENCES ${CASES_TABLE} (id),
          seq INTEGER NOT NULL,
          at TEXT NOT NULL,
          kind TEXT NOT NULL,
          actor TEXT NOT NULL,
          payload TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL,
          PRIMARY KEY (case_id, seq)
        );
      `;
}

/** The triggers that make each case's custody ledger append-only. */
export const CASE_CUSTODY_TRIGGER_SQL: Readonly<Record<string, string>> = caseLedgerTriggerSql(CASE_CUSTODY_TABLE);
export const CASE_ANNOTATION_TRIGGER_SQL: Readonly<Record<string, string>> = caseLedgerTriggerSql(CASE_ANNOTATIONS_TABLE);
export const CASE_CUSTODY_TRIGGERS = Object.keys(CASE_CUSTODY_TRIGGER_SQL);

/** The trigger that keeps a finished case's custody anchors (head and count) from being changed once written. */
export const CASE_ANCHOR_TRIGGER = `${CASES_TABLE}_custody_anchor_fixed`;
const CASE_ANCHOR_TRIGGER_SQL =
  `CREATE TRIGGER "${CASE_ANCHOR_TRIGGER}" BEFORE UPDATE OF custody_head, custody_count ON "${CASES_TABLE}" ` +
  `WHEN OLD.custody_head IS NOT NULL OR OLD.custody_count IS NOT NULL BEGIN SELECT RAISE(ABORT, 'append-only'); END`;

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'cases',
    up(db) {
      db.exec(`
        CREATE TABLE ${CASES_TABLE} (
          id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          origin TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          request_json TEXT NOT NULL,
          counts_json TEXT,
          top_grade TEXT,
          error TEXT,
          view_json TEXT
        );
        CREATE INDEX ${CASES_TABLE}_created ON ${CASES_TABLE} (created_at DESC, id);
      `);
    },
  },
  {
    version: 2,
    name: 'case custody ledgers with append-only triggers',
    up(db) {
      db.exec(caseLedgerTableSql(CASE_CUSTODY_TABLE));
      for (const sql of Object.values(CASE_CUSTODY_TRIGGER_SQL)) db.exec(sql);
    },
  },
  {
    version: 3,
    name: 'case export view (the stories with their events, nodes and edges) beside the whole view',
    up(db) {
      db.exec(`ALTER TABLE ${CASES_TABLE} ADD COLUMN export_json TEXT`);
    },
  },
  {
    version: 4,
    name: 'case timeline (every kept event without its attributes)',
    up(db) {
      db.exec(`ALTER TABLE ${CASES_TABLE} ADD COLUMN timeline_json TEXT`);
    },
  },
  {
    version: 5,
    name: 'custody anchors (head hash and record count) kept in the case row when it completes, fixed once written',
    up(db) {
      db.exec(`ALTER TABLE ${CASES_TABLE} ADD COLUMN custody_head TEXT`);
      db.exec(`ALTER TABLE ${CASES_TABLE} ADD COLUMN custody_count INTEGER`);
      db.exec(CASE_ANCHOR_TRIGGER_SQL);
    },
  },
  {
    version: 6,
    name: 'case items (each event, node and edge of the whole view as its own row) for paged and streamed reads',
    up(db) {
      db.exec(`
        CREATE TABLE ${CASE_ITEMS_TABLE} (
          case_id TEXT NOT NULL REFERENCES ${CASES_TABLE} (id),
          kind TEXT NOT NULL CHECK (kind IN ('event', 'node', 'edge')),
          seq INTEGER NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (case_id, kind, seq)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 7,
    name: 'analyst annotations (hash-chained, append-only per case), failure messages, the record of removed failed cases, events by id',
    up(db) {
      db.exec(`
        ${caseLedgerTableSql(CASE_ANNOTATIONS_TABLE)}
        CREATE TABLE ${CASE_REMOVALS_TABLE} (
          case_id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          origin TEXT NOT NULL,
          created_at TEXT NOT NULL,
          error TEXT,
          error_message TEXT,
          request_json TEXT NOT NULL,
          removed_at TEXT NOT NULL
        );
        CREATE TRIGGER "${CASE_REMOVALS_TABLE}_no_update" BEFORE UPDATE ON "${CASE_REMOVALS_TABLE}" BEGIN SELECT RAISE(ABORT, 'append-only'); END;
        CREATE TRIGGER "${CASE_REMOVALS_TABLE}_no_delete" BEFORE DELETE ON "${CASE_REMOVALS_TABLE}" BEGIN SELECT RAISE(ABORT, 'append-only'); END;
        ALTER TABLE ${CASES_TABLE} ADD COLUMN error_message TEXT;
        CREATE INDEX ${CASE_ITEMS_TABLE}_event_id ON ${CASE_ITEMS_TABLE} (case_id, json_extract(json, '$.eventId')) WHERE kind = 'event';
      `);
      for (const sql of Object.values(CASE_ANNOTATION_TRIGGER_SQL)) db.exec(sql);
    },
  },
  {
    version: 8,
    name: 'the process analysing a queued or running case (owner), so another process on the same store leaves it alone',
    up(db) {
      db.exec(`
        ALTER TABLE ${CASES_TABLE} ADD COLUMN owner TEXT;
        CREATE INDEX ${CASES_TABLE}_unfinished ON ${CASES_TABLE} (status) WHERE status IN ('queued', 'running');
      `);
    },
  },
  {
    version: 9,
    name: 'the large texts of a case (whole view, export, timeline) moved from the case row to a table of their own',
    // In batches (moveTextsBatch), each its own transaction: the copy of many GB of old cases does not hold the store
    // in one. What is left once every text is moved: the emptied columns dropped, with the version recorded.
    batch: (db, progress) => moveTextsBatch(db, progress),
    up(db) {
      // The first batch made the table; a store without cases (no batch ran) gets it here.
      createTextsTable(db);
      // Each DROP COLUMN rewrites every case row: the texts are moved out already, so the rows it rewrites are small.
      for (const column of Object.values(TEXT_COLUMNS)) db.exec(`ALTER TABLE ${CASES_TABLE} DROP COLUMN ${column}`);
    },
  },
  {
    version: 10,
    name: 'each stored event also without its attributes and raw record reference (lean), for the timeline pages',
    up(db) {
      // Cases stored before get their rows from migration 12; until then their pages drop the attributes as they are
      // read (caseItemsJson).
      db.exec(`
        CREATE TABLE ${CASE_LEAN_EVENTS_TABLE} (
          case_id TEXT NOT NULL REFERENCES ${CASES_TABLE} (id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (case_id, seq)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 11,
    name: "an index of each case's annotations by event id, for an event's annotation history",
    up(db) {
      // On the expression the lookups use (casework/annotations.ts), with seq last so their ORDER BY seq reads it in
      // order: the rows, their chain and their triggers stay as they are.
      db.exec(`CREATE INDEX ${CASE_ANNOTATIONS_EVENT_INDEX} ON ${CASE_ANNOTATIONS_TABLE} (case_id, json_extract(payload, '$.eventId'), seq)`);
    },
  },
  {
    version: 12,
    name: 'the lean event rows of the cases stored before migration 10, made from their item rows',
    // In batches (leanRowsBatch), each its own transaction; nothing is left for the last step.
    batch: (db, progress) => leanRowsBatch(db, progress),
    up() {},
  },
];

/** Lean event rows one batch of migration 12 writes at most (a batch also ends once its texts pass STORE_BATCH_BYTES). */
export const LEAN_ROWS_BATCH_ROWS = 2000;

/**
 * One batch of migration 12 (in its own transaction): the lean row of each event of a done case that has none (a case
 * stored before migration 10), made from its item row as the timeline pages made it when read (leanEventJson), in
 * case rowid and seq order. The progress is `rowid:seq`, the next event to make; a case is taken up only when it has
 * no lean row, so a case stored with them is never written to. Null once every done case has them.
 */
export function leanRowsBatch(db: Database, progress: string | null, maxRows = LEAN_ROWS_BATCH_ROWS): string | null {
  const [rowidText = '0', seqText = '0'] = (progress ?? '0:0').split(':');
  let rowid = Number(rowidText);
  const seq = Number(seqText);
  if (!Number.isSafeInteger(rowid) || !Number.isSafeInteger(seq)) throw new VitrineError('internal', 'migration 12 found its progress unreadable');
  // The case under way (rowid, from seq), else the next done case with event rows and no lean row.
  if (seq === 0) {
    const next = statement(
      db,
      `SELECT c.rowid AS r FROM ${CASES_TABLE} c WHERE c.rowid >= ? AND c.status = 'done' ` +
        `AND EXISTS (SELECT 1 FROM ${CASE_ITEMS_TABLE} i WHERE i.case_id = c.id AND i.kind = 'event') ` +
        `AND NOT EXISTS (SELECT 1 FROM ${CASE_LEAN_EVENTS_TABLE} l WHERE l.case_id = c.id) ORDER BY c.rowid LIMIT 1`,
    ).get(rowid) as { r: number } | undefined;
    if (next === undefined) return null;
    rowid = next.r;
  }
  const id = (statement(db, `SELECT id FROM ${CASES_TABLE} WHERE rowid = ?`).get(rowid) as { id: string } | undefined)?.id;
  if (id === undefined) return `${rowid + 1}:0`;
  const rows = statement(db, `SELECT seq, json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind = 'event' AND seq >= ? ORDER BY seq LIMIT ?`).all(id, seq, maxRows) as { seq: number; json: string }[];
  const insert = statement(db, `INSERT INTO ${CASE_LEAN_EVENTS_TABLE} (case_id, seq, json) VALUES (?, ?, ?)`);
  let bytes = 0;
  for (const row of rows) {
    if (bytes >= STORE_BATCH_BYTES) return `${rowid}:${row.seq}`;
    const lean = leanEventJson(row.json);
    insert.run(id, row.seq, lean);
    bytes += row.json.length + lean.length;
  }
  return rows.length < maxRows ? `${rowid + 1}:0` : `${rowid}:${(rows.at(-1)?.seq ?? seq) + 1}`;
}

function createTextsTable(db: Database): void {
  // A removed failed case takes what a full disk left of its texts with it, as the texts in its row did.
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${CASE_TEXTS_TABLE} (
      case_id TEXT NOT NULL REFERENCES ${CASES_TABLE} (id) ON DELETE CASCADE,
      name TEXT NOT NULL CHECK (name IN ('view', 'export', 'timeline')),
      text TEXT NOT NULL,
      PRIMARY KEY (case_id, name)
    );
  `);
}

/** Bytes of texts one batch of migration 9 moves at most (at least one text, however large: a text is one row). */
export const TEXTS_MOVE_BATCH_BYTES = 16 * 1024 * 1024;
/** Case rows one batch of migration 9 looks at, at most. */
const TEXTS_MOVE_BATCH_CASES = 256;

/**
 * One batch of migration 9 (in its own transaction): moves case texts in rowid order, each copied to the texts table
 * and emptied in its case row in the same transaction (a text is always in exactly one of the two places), until
 * `maxBytes` are moved. The progress is the rowid of the last case all of whose texts are moved ('0' after the first
 * batch, which makes the table and says on stderr that a large store is being moved); a batch that stopped inside a
 * case takes the texts left in its row next time. Null once no case row holds a text.
 */
export function moveTextsBatch(db: Database, progress: string | null, maxBytes = TEXTS_MOVE_BATCH_BYTES): string | null {
  if (progress === null) {
    createTextsTable(db);
    textsMoveNotice(db);
    return '0';
  }
  let after = Number(progress);
  if (!Number.isSafeInteger(after)) throw new VitrineError('internal', 'migration 9 found its progress unreadable');
  const sizes = Object.values(TEXT_COLUMNS)
    .map((column) => `octet_length(${column}) AS ${column}`)
    .join(', ');
  // octet_length reads a text's size from its record header, not its pages.
  const rows = db.prepare(`SELECT rowid AS r, ${sizes} FROM ${CASES_TABLE} WHERE rowid > ? ORDER BY rowid LIMIT ${TEXTS_MOVE_BATCH_CASES}`).all(after) as ({ r: number } & Record<string, number | null>)[];
  if (rows.length === 0) return null;
  let moved = 0;
  for (const row of rows) {
    // Largest first, and the moved columns emptied in one UPDATE: emptying a column rewrites the row with the texts
    // still in it, so a case split over two batches copies only its smaller texts again.
    const left: { name: string; column: string; bytes: number }[] = [];
    for (const [name, column] of Object.entries(TEXT_COLUMNS)) {
      const bytes = row[column];
      if (typeof bytes === 'number') left.push({ name, column, bytes });
    }
    left.sort((a, b) => b.bytes - a.bytes);
    const taken: string[] = [];
    for (const t of left) {
      if (moved > 0 && moved + t.bytes > maxBytes) break;
      statement(db, `INSERT INTO ${CASE_TEXTS_TABLE} (case_id, name, text) SELECT id, ?, ${t.column} FROM ${CASES_TABLE} WHERE rowid = ?`).run(t.name, row.r);
      taken.push(t.column);
      moved += t.bytes;
    }
    if (taken.length > 0) statement(db, `UPDATE ${CASES_TABLE} SET ${taken.map((c) => `${c} = NULL`).join(', ')} WHERE rowid = ?`).run(row.r);
    if (taken.length < left.length) return String(after);
    after = row.r;
  }
  return String(after);
}

/** Store size from which migration 9 says, once as it starts, that it is moving the texts (it holds the store meanwhile). */
export const TEXTS_MOVE_NOTICE_BYTES = 256 * 1024 * 1024;

/**
 * Migration 9 copies every case's texts once, in batches while the store opens (about 20 ms per MB measured): a large
 * store says so on stderr as the copy starts, once, so a start that waits is not taken for a hang. Nothing of
 * the store but its size in MB is written. Answers whether it wrote the line.
 */
export function textsMoveNotice(db: Database, fromBytes = TEXTS_MOVE_NOTICE_BYTES, write: (line: string) => void = (line) => void process.stderr.write(line)): boolean {
  const bytes = Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
  if (!(bytes >= fromBytes)) return false;
  write(`vitrine: forensic store: moving the cases' large texts to a table of their own, once, in batches (a store of ${Math.round(bytes / 1e6)} MB; this can take a while)\n`);
  return true;
}

/**
 * When a process started, in clock ticks after boot (Linux /proc/<pid>/stat, field 22), or null where that cannot be
 * read (another system, the process gone). With the pid it names one process: a pid handed out again later has a
 * later start.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 2 (the command name) is in parentheses and may hold spaces or parentheses: fields 3 on follow the last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start !== undefined && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}

/**
 * This process as the owner of the cases it analyses: its pid, a random part that tells it from an earlier process
 * that had the same pid (a container's first process is pid 1 on every start), and where the system tells it, its
 * start time (`pid:random:start`; a reused pid of another process has another start).
 */
const OWN_START = processStartTime(process.pid);
export const CASE_OWNER = `${process.pid}:${randomUUID()}${OWN_START !== null ? `:${OWN_START}` : ''}`;

/**
 * Whether the process that wrote `owner` can still finish its case: this process, or another live one on this machine
 * (a second `vitrine serve`, a standalone `forensic serve` on the same data folder) whose start time, when the owner
 * names one and the system tells it, is the same (a process that took the pid of a stopped one does not count). No
 * owner (a case stored before migration 8) is never live.
 */
export function caseOwnerAlive(owner: string | null): boolean {
  if (owner === null) return false;
  if (owner === CASE_OWNER) return true;
  const [pidText, , start] = owner.split(':');
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (start === undefined) return true;
  const now = processStartTime(pid);
  return now === null || now === start;
}

function hasOwnerColumn(db: Database): boolean {
  return hasCaseColumn(db, 'owner');
}

export type CaseItemKind = 'event' | 'node' | 'edge';
const ITEM_KINDS = { event: 'events', node: 'nodes', edge: 'edges' } as const satisfies Record<CaseItemKind, keyof AnalysisView>;

/** Each store's prepared statements of the page reads (preparing one costs more than running it on a small range). */
const prepared = new WeakMap<Database, Map<string, Statement>>();
function statement(db: Database, sql: string): Statement {
  let own = prepared.get(db);
  if (own === undefined) prepared.set(db, (own = new Map()));
  let st = own.get(sql);
  if (st === undefined) own.set(sql, (st = db.prepare(sql)));
  return st;
}

/** Tables each store is known to have: remembered once seen (migrations only add them). */
const tablesSeen = new WeakMap<Database, Set<string>>();
function hasTable(db: Database, table: string): boolean {
  if (tablesSeen.get(db)?.has(table) === true) return true;
  if (statement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) === undefined) return false;
  tablesSeen.set(db, new Set([...(tablesSeen.get(db) ?? []), table]));
  return true;
}

/**
 * Columns of the case rows each store is known to have (`owner`, `error_message`): remembered once seen, so a summary
 * read does not read the table's columns each time; not remembered while absent, since a migration may add them to
 * an open store.
 */
const caseColumnsSeen = new WeakMap<Database, Set<string>>();
function hasCaseColumn(db: Database, column: 'owner' | 'error_message'): boolean {
  if (caseColumnsSeen.get(db)?.has(column) === true) return true;
  if (statement(db, `SELECT 1 FROM pragma_table_info('${CASES_TABLE}') WHERE name = ?`).get(column) === undefined) return false;
  caseColumnsSeen.set(db, new Set([...(caseColumnsSeen.get(db) ?? []), column]));
  return true;
}

/** Whether the store has the items table (a store opened before migration 6 has not). */
function hasItemsTable(db: Database): boolean {
  return hasTable(db, CASE_ITEMS_TABLE);
}

/** Whether the store has the texts table (before migration 9 the texts were columns of the case row). */
function hasTextsTable(db: Database): boolean {
  return hasTable(db, CASE_TEXTS_TABLE);
}

/** Whether the store has the lean events table (migration 10). */
function hasLeanTable(db: Database): boolean {
  return hasTable(db, CASE_LEAN_EVENTS_TABLE);
}

/** One of a case's large texts as stored, null when it has none (or no such case). */
export function caseText(db: Database, id: string, name: CaseTextName): string | null {
  const row = hasTextsTable(db)
    ? (statement(db, `SELECT text FROM ${CASE_TEXTS_TABLE} WHERE case_id = ? AND name = ?`).get(id, name) as { text: string } | undefined)
    : (statement(db, `SELECT ${TEXT_COLUMNS[name]} AS text FROM ${CASES_TABLE} WHERE id = ?`).get(id) as { text: string | null } | undefined);
  return row?.text ?? null;
}

/**
 * How many items of a kind a case holds in the items table; null when it holds none (not done, or stored before
 * migration 6). A kind's items are stored with seq 0 to n - 1, so n is the last seq + 1: one lookup at the end of the
 * key, where COUNT(*) would read every row of the case (the rows hold the items' JSON).
 */
export function caseItemCount(db: Database, id: string, kind: CaseItemKind): number | null {
  if (!hasItemsTable(db)) return null;
  const last = (statement(db, `SELECT MAX(seq) AS m FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind = ?`).get(id, kind) as { m: number | null }).m;
  if (last !== null) return last + 1;
  return statement(db, `SELECT 1 FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? LIMIT 1`).get(id) !== undefined ? 0 : null;
}

/**
 * An event's JSON text without its attributes (`{}`) and raw record reference, from its stored text: what the
 * timeline pages (`attributes=false`) answer for it, stored in the lean events table from migration 10 on.
 */
export function leanEventJson(json: string): string {
  return JSON.stringify({ ...(JSON.parse(json) as Record<string, unknown>), attributes: {}, raw: undefined });
}

/**
 * The JSON text of items [from, to) of a kind, in view order: one short query per batch, so no cursor stays open
 * across awaits. `lean` (events): each without its attributes and raw record reference (leanEventJson), as stored
 * in the lean events table, or made from the item rows for a case without them (a store between migrations 10 and 12).
 */
export function caseItemsJson(db: Database, id: string, kind: CaseItemKind, from: number, to: number, lean = false): string[] {
  const column = (rows: unknown[]): string[] => (rows as { json: string }[]).map((r) => r.json);
  if (lean && kind === 'event' && hasLeanTable(db)) {
    const stored = column(statement(db, `SELECT json FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ? AND seq >= ? AND seq < ? ORDER BY seq`).all(id, from, to));
    // A done case has a lean row for every event or none: none in a range that holds events is a case stored before.
    if (stored.length > 0) return stored;
  }
  const texts = column(statement(db, `SELECT json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind = ? AND seq >= ? AND seq < ? ORDER BY seq`).all(id, kind, from, to));
  return lean && kind === 'event' ? texts.map(leanEventJson) : texts;
}

/** One event of a finished case as stored (with its attributes and raw record reference), or null. */
export function caseEvent(db: Database, id: string, eventId: string): ExportedEvent | null {
  if (hasItemsTable(db)) {
    const row = db.prepare(`SELECT json FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND kind = 'event' AND json_extract(json, '$.eventId') = ? LIMIT 1`).get(id, eventId) as { json: string } | undefined;
    if (row) return JSON.parse(row.json) as ExportedEvent;
  }
  // Cases stored before migration 6: the whole view.
  return getCaseView(db, id)?.events.find((e) => e.eventId === eventId) ?? null;
}

/** Spec to_dict max_events default: events an export holds unless asked for more. */
export const DEFAULT_MAX_EVENTS = 5000;

export interface ExportOptions {
  /** Every event of the view (spec include_all_events), not only the stories'. */
  readonly allEvents?: boolean;
  readonly maxEvents?: number;
  /** Nodes and edges: those the stories refer to, or all; default all with allEvents, else the stories'. */
  readonly graph?: 'stories' | 'all';
  /** false leaves each event's attributes out (`{}`): the timeline needs no more. */
  readonly attributes?: boolean;
}

/**
 * spec to_dict over a stored view: the events inside the stories (or every event), at most `maxEvents`, the nodes
 * and edges the stories refer to (or all); `eventsTruncated` says when a limit cut the events.
 */
export function exportView(view: AnalysisView, options: ExportOptions = {}): AnalysisView {
  const max = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const inStories = new Set(view.stories.flatMap((s) => s.eventIds));
  const chosen = options.allEvents === true ? view.events : view.events.filter((e) => inStories.has(e.eventId));
  const events = chosen.slice(0, max);
  const wholeGraph = (options.graph ?? (options.allEvents === true ? 'all' : 'stories')) === 'all';
  let nodes = view.nodes;
  let edges = view.edges;
  if (!wholeGraph) {
    const edgeIds = new Set(view.stories.flatMap((s) => s.edgeIds));
    edges = view.edges.filter((e) => edgeIds.has(e.id));
    const nodeIds = new Set([...view.stories.flatMap((s) => [s.rootNodeId, ...s.nodeIds]), ...edges.flatMap((e) => [e.from, e.to])]);
    nodes = view.nodes.filter((n) => nodeIds.has(n.id));
  }
  return {
    ...view,
    nodes,
    edges,
    events: options.attributes === false ? events.map((e) => ({ ...e, attributes: {} })) : events,
    eventsTruncated: view.eventsTruncated || chosen.length > max,
  };
}

interface CaseRow {
  id: string;
  title: string;
  origin: string;
  status: CaseStatus;
  created_at: string;
  counts_json: string | null;
  top_grade: ConfidenceGrade | null;
  error: string | null;
  error_message: string | null;
}

function summaryOf(row: CaseRow, jobId: string | null = null): CaseSummary {
  return {
    id: row.id,
    title: row.title,
    origin: row.origin,
    status: row.status,
    createdAt: row.created_at,
    counts: row.counts_json === null ? null : (JSON.parse(row.counts_json) as AnalysisCounts),
    topGrade: row.top_grade,
    jobId,
    error: row.error,
    ...(row.status === 'failed' ? { errorMessage: row.error_message } : {}),
  };
}

const BASE_COLUMNS = 'id, title, origin, status, created_at, counts_json, top_grade, error';

/** Whether the store has migration 7's failure message column (a store opened before it has not). */
function hasErrorMessage(db: Database): boolean {
  return hasCaseColumn(db, 'error_message');
}

/** The failure message is shown for a failed case only. */
function summaryColumns(db: Database): string {
  return hasErrorMessage(db) ? `${BASE_COLUMNS}, CASE WHEN status = 'failed' THEN error_message END AS error_message` : `${BASE_COLUMNS}, NULL AS error_message`;
}

export interface NewCase {
  readonly id: string;
  readonly title: string;
  readonly origin: string;
  /** What was asked (scenario name, relative paths, options): kept for the record, never echoed in errors. */
  readonly request: unknown;
  readonly now: string;
}

export function createCase(db: Database, c: NewCase): CaseSummary {
  if (hasOwnerColumn(db))
    db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json, owner) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)`).run(c.id, c.title, c.origin, c.now, c.now, JSON.stringify(c.request), CASE_OWNER);
  else db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json) VALUES (?, ?, ?, 'queued', ?, ?, ?)`).run(c.id, c.title, c.origin, c.now, c.now, JSON.stringify(c.request));
  return getCaseSummary(db, c.id) as CaseSummary;
}

/** `message` is the error's own words (VitrineError messages never name a path or a submitted value). A done case keeps its status. */
export function setCaseStatus(db: Database, id: string, status: 'running' | 'failed', now: string, error: string | null = null, message: string | null = null): void {
  if (hasErrorMessage(db)) db.prepare(`UPDATE ${CASES_TABLE} SET status = ?, updated_at = ?, error = ?, error_message = ? WHERE id = ? AND status != 'done'`).run(status, now, error, message, id);
  else db.prepare(`UPDATE ${CASES_TABLE} SET status = ?, updated_at = ?, error = ? WHERE id = ? AND status != 'done'`).run(status, now, error, id);
}

/** Item rows one write step holds at most (a step also ends once its rows pass STORE_BATCH_BYTES). */
export const STORE_BATCH_ROWS = 2000;
/** Bytes of item JSON (with the events' lean texts) one write step holds at most (about). */
export const STORE_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * A finished case as the store keeps it: every text the case row and its item rows hold, made once (by the worker that
 * ran the analysis), and the custody ledger, verified.
 */
export interface PreparedCase {
  readonly countsJson: string;
  readonly topGrade: ConfidenceGrade | null;
  /** The whole view as one text: made only for a store without item rows (before migration 6). */
  viewJson(): string;
  readonly exportJson: string;
  /** Each kind's items in view order, one JSON text each; events also lean (leanEventJson). */
  readonly items: readonly { readonly kind: CaseItemKind; readonly json: readonly string[]; readonly lean?: readonly string[] }[];
  readonly custody: readonly StoredLedgerRow[];
  /** The ledger's anchors (its head hash and record count), written to the case row with status done. */
  readonly head: string;
  readonly count: number;
}

/** The texts a finished case is stored as; the custody ledger must verify. */
export function prepareCase(view: AnalysisView, custody: readonly StoredLedgerRow[]): PreparedCase {
  const check = verifyChain(custody);
  if (!check.ok) throw new VitrineError('internal', 'the analysis returned a custody ledger that does not verify');
  return {
    countsJson: JSON.stringify(view.counts),
    topGrade: topGrade(view),
    viewJson: () => JSON.stringify(view),
    // Reports and the default detail read this small view, not the whole one (which can hold 100,000 events).
    exportJson: JSON.stringify(exportView(view, { maxEvents: Number.MAX_SAFE_INTEGER })),
    items: Object.entries(ITEM_KINDS).map(([kind, key]) => {
      const json = (view[key] as readonly unknown[]).map((item) => JSON.stringify(item));
      return { kind: kind as CaseItemKind, json, ...(kind === 'event' ? { lean: json.map(leanEventJson) } : {}) };
    }),
    custody,
    head: check.head,
    // The anchors: deleting the newest custody rows (triggers dropped and put back) no longer reads as ok.
    count: check.count,
  };
}

/** Refuses to write to a case that is no longer being analysed (failed, interrupted, done) or that holds a ledger. */
function checkWritable(db: Database, id: string): void {
  const stored = (db.prepare(`SELECT COUNT(*) AS n FROM ${CASE_CUSTODY_TABLE} WHERE case_id = ?`).get(id) as { n: number }).n;
  if (stored > 0) throw new VitrineError('conflict', 'the case already holds a custody ledger');
  const row = db.prepare(`SELECT status FROM ${CASES_TABLE} WHERE id = ?`).get(id) as { status: CaseStatus } | undefined;
  if (row?.status !== 'queued' && row?.status !== 'running') throw new VitrineError('conflict', 'the case is no longer being analysed');
}

/**
 * Stores a prepared case in short write transactions, yielding between them (the caller may let others in there):
 * the item rows with the events' lean rows in batches (STORE_BATCH_ROWS rows or STORE_BATCH_BYTES), the export (and,
 * in a store without item rows, the whole view) each in its own, then, last and atomically, the custody ledger with the anchors, counts and status done. Every step
 * first checks that the case is still queued or running and holds no ledger, so a case failed meanwhile (its worker
 * given up, another process marking it interrupted) is never written to again. Until the last step the case is not
 * done, and nothing reads a case that is not done; a failure part way leaves rows that discardPartialCase removes.
 */
export function* caseWriteSteps(db: Database, id: string, p: PreparedCase, now: string, batchRows = STORE_BATCH_ROWS): Generator<void, void, void> {
  const tx = (work: () => void): void => db.transaction(() => {
    checkWritable(db, id);
    work();
  }).immediate();
  const texts = hasTextsTable(db);
  if (hasItemsTable(db)) {
    const withLean = hasLeanTable(db);
    const insert = db.prepare(`INSERT INTO ${CASE_ITEMS_TABLE} (case_id, kind, seq, json) VALUES (?, ?, ?, ?)`);
    const insertLean = withLean ? db.prepare(`INSERT INTO ${CASE_LEAN_EVENTS_TABLE} (case_id, seq, json) VALUES (?, ?, ?)`) : null;
    // Rows left by an earlier attempt that stopped part way (never a done case's: checkWritable).
    tx(() => {
      db.prepare(`DELETE FROM ${CASE_ITEMS_TABLE} WHERE case_id = ?`).run(id);
      if (texts) db.prepare(`DELETE FROM ${CASE_TEXTS_TABLE} WHERE case_id = ?`).run(id);
      if (withLean) db.prepare(`DELETE FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ?`).run(id);
    });
    yield;
    for (const { kind, json, lean } of p.items) {
      for (let from = 0; from < json.length; ) {
        let to = from;
        let bytes = 0;
        while (to < json.length && to - from < batchRows && bytes < STORE_BATCH_BYTES) {
          bytes += (json[to] as string).length + (lean?.[to]?.length ?? 0);
          to++;
        }
        const start = from;
        tx(() => {
          for (let seq = start; seq < to; seq++) {
            insert.run(id, kind, seq, json[seq]);
            const text = lean?.[seq];
            if (insertLean !== null && text !== undefined) insertLean.run(id, seq, text);
          }
        });
        from = to;
        yield;
      }
    }
  }
  // With item rows the whole view is not kept as one text as well (getCaseView puts it together from the export and
  // the items): the largest text, and the longest write, of a large case. No timeline text is written: the timeline
  // pages read the lean event rows (a case stored before keeps the one it has, which nothing reads).
  for (const name of hasItemsTable(db) ? (['export'] as const) : (['view', 'export'] as const)) {
    const text = name === 'view' ? p.viewJson() : p.exportJson;
    tx(() => {
      if (texts) db.prepare(`INSERT INTO ${CASE_TEXTS_TABLE} (case_id, name, text) VALUES (?, ?, ?) ON CONFLICT (case_id, name) DO UPDATE SET text = excluded.text`).run(id, name, text);
      else db.prepare(`UPDATE ${CASES_TABLE} SET ${TEXT_COLUMNS[name]} = ? WHERE id = ?`).run(text, id);
    });
    yield;
  }
  const ledger = db.prepare(`INSERT INTO ${CASE_CUSTODY_TABLE} (case_id, seq, at, kind, actor, payload, prev_hash, hash) VALUES (@case_id, @seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
  tx(() => {
    for (const r of p.custody) ledger.run({ case_id: id, seq: r.seq, at: r.at, kind: r.kind, actor: r.actor, payload: r.payload, prev_hash: r.prev_hash, hash: r.hash });
    db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done', updated_at = ?, custody_head = ?, custody_count = ?, counts_json = ?, top_grade = ?, error = NULL WHERE id = ?`).run(
      now,
      p.head,
      p.count,
      p.countsJson,
      p.topGrade,
      id,
    );
  });
}

/** Stores a finished analysis and its custody ledger in one transaction (small cases, tests); the ledger must verify before it is kept. */
export function completeCase(db: Database, id: string, view: AnalysisView, custody: readonly StoredLedgerRow[], now: string): void {
  const prepared = prepareCase(view, custody);
  db.transaction(() => {
    for (const _ of caseWriteSteps(db, id, prepared, now));
  })();
}

/** Item rows one discarding step deletes at most. */
const DISCARD_BATCH_ROWS = 5000;

/**
 * Removes what a store that stopped part way left of a case that is not done (item and lean event rows, the whole
 * view, export and timeline), in short transactions, yielding between them; it never touches a done case, and a case keeps no custody
 * rows before it is done.
 */
export function* discardPartialCase(db: Database, id: string): Generator<void, void, void> {
  const notDone = (): boolean => (db.prepare(`SELECT status FROM ${CASES_TABLE} WHERE id = ?`).get(id) as { status: CaseStatus } | undefined)?.status !== 'done';
  const batches = [
    ...(hasItemsTable(db) ? [db.prepare(`DELETE FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? AND (kind, seq) IN (SELECT kind, seq FROM ${CASE_ITEMS_TABLE} WHERE case_id = ? LIMIT ${DISCARD_BATCH_ROWS})`)] : []),
    ...(hasLeanTable(db) ? [db.prepare(`DELETE FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ? AND seq IN (SELECT seq FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ? LIMIT ${DISCARD_BATCH_ROWS})`)] : []),
  ];
  for (const batch of batches) {
    for (;;) {
      const removed = db.transaction(() => (notDone() ? batch.run(id, id).changes : 0)).immediate();
      if (removed === 0) break;
      yield;
    }
  }
  db.transaction(() => {
    if (!notDone()) return;
    if (hasTextsTable(db)) db.prepare(`DELETE FROM ${CASE_TEXTS_TABLE} WHERE case_id = ?`).run(id);
    else db.prepare(`UPDATE ${CASES_TABLE} SET view_json = NULL, export_json = NULL, timeline_json = NULL WHERE id = ? AND status != 'done'`).run(id);
  }).immediate();
}

/** Runs write steps to the end at once. */
export function runSteps(steps: Generator<void, void, void>): void {
  for (const _ of steps);
}

/** Failed cases that still hold rows of a store that stopped part way (their removal failed too, for example on a full disk). */
function casesWithLeftovers(db: Database): string[] {
  const items =
    (hasItemsTable(db) ? ` OR EXISTS (SELECT 1 FROM ${CASE_ITEMS_TABLE} i WHERE i.case_id = c.id)` : '') +
    (hasLeanTable(db) ? ` OR EXISTS (SELECT 1 FROM ${CASE_LEAN_EVENTS_TABLE} l WHERE l.case_id = c.id)` : '');
  const texts = hasTextsTable(db) ? `EXISTS (SELECT 1 FROM ${CASE_TEXTS_TABLE} t WHERE t.case_id = c.id)` : 'view_json IS NOT NULL';
  return (db.prepare(`SELECT id FROM ${CASES_TABLE} c WHERE status = 'failed' AND (${texts}${items})`).all() as { id: string }[]).map((r) => r.id);
}

/** Removes the partial rows of every failed case (at start: a failure whose clean-up could not finish). */
export function discardLeftovers(db: Database): number {
  const ids = casesWithLeftovers(db);
  for (const id of ids) runSteps(discardPartialCase(db, id));
  return ids.length;
}

const GRADE_ORDER: readonly ConfidenceGrade[] = ['LOW', 'MEDIUM', 'HIGH', 'CONFIRMED'];

/** The highest grade among the view's stories, null without stories. */
export function topGrade(view: AnalysisView): ConfidenceGrade | null {
  let best = -1;
  for (const s of view.stories) best = Math.max(best, GRADE_ORDER.indexOf(s.confidence.grade));
  return best < 0 ? null : (GRADE_ORDER[best] ?? null);
}

export function getCaseSummary(db: Database, id: string, jobId: string | null = null): CaseSummary | null {
  const row = statement(db, `SELECT ${summaryColumns(db)} FROM ${CASES_TABLE} WHERE id = ?`).get(id) as CaseRow | undefined;
  return row ? summaryOf(row, jobId) : null;
}

/** The stored analysis view of a finished case (every event the job kept), null before it finishes. */
export function getCaseView(db: Database, id: string): AnalysisView | null {
  const whole = caseText(db, id, 'view');
  if (whole) return JSON.parse(whole) as AnalysisView;
  const row = db.prepare(`SELECT status FROM ${CASES_TABLE} WHERE id = ?`).get(id) as { status: CaseStatus } | undefined;
  const exportText = row?.status === 'done' && hasItemsTable(db) ? caseText(db, id, 'export') : null;
  if (exportText === null) return null;
  // Stored with item rows: the export holds every other part of the view, in the view's key order.
  const exported = JSON.parse(exportText) as AnalysisView;
  const all = <T>(kind: CaseItemKind): T[] => caseItemsJson(db, id, kind, 0, Number.MAX_SAFE_INTEGER).map((json) => JSON.parse(json) as T);
  return { ...exported, nodes: all('node'), edges: all('edge'), events: all('event') };
}

/** The stored export of a finished case (the stories with their events, nodes and edges), null before it finishes. */
export function getCaseExport(db: Database, id: string): AnalysisView | null {
  const exportText = caseText(db, id, 'export');
  if (exportText !== null) return JSON.parse(exportText) as AnalysisView;
  // Cases stored before migration 3 have only the whole view.
  const view = getCaseView(db, id);
  return view === null ? null : exportView(view, { maxEvents: Number.MAX_SAFE_INTEGER });
}

/** Case summaries, newest first. */
export function listCases(db: Database, page: { readonly limit: number; readonly offset: number }): { items: CaseSummary[]; total: number } {
  const rows = db.prepare(`SELECT ${summaryColumns(db)} FROM ${CASES_TABLE} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(page.limit, page.offset) as CaseRow[];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM ${CASES_TABLE}`).get() as { n: number }).n;
  return { items: rows.map((r) => summaryOf(r)), total };
}

/** Why a case of a stopped process failed. */
const INTERRUPTED_MESSAGE = 'the service stopped while the case was being analysed; analyse the evidence again';
/** Why a case of this process failed when its job is over but its failure could not be recorded then. */
const UNRECORDED_MESSAGE = 'the analysis stopped and its failure could not be recorded; analyse the evidence again';

/**
 * Marks cases left queued or running by a process that stopped (their jobs died with it), and removes what a store
 * that stopped part way left of them; the cases of a live process (this one, or another serving the same store) are
 * left alone. `alive` may also say that a case of this process is no longer analysed (its job is over). Returns how
 * many were marked.
 */
export function failInterruptedCases(db: Database, now: string, alive: (owner: string | null, id: string) => boolean = caseOwnerAlive, knownLive: (id: string) => boolean = () => false): number {
  const messages = hasErrorMessage(db);
  const owners = hasOwnerColumn(db);
  // The owner is read only for the cases not known to be live (`knownLive`: this process's cases whose job is running).
  const ownerOf = db.prepare(`SELECT ${owners ? 'owner' : 'NULL AS owner'} FROM ${CASES_TABLE} WHERE id = ?`);
  const rows = (db.prepare(`SELECT id FROM ${CASES_TABLE} WHERE status IN ('queued', 'running')`).all() as { id: string }[])
    .filter((r) => !knownLive(r.id))
    .map((r) => ({ id: r.id, owner: (ownerOf.get(r.id) as { owner: string | null } | undefined)?.owner ?? null }));
  const mark = db.prepare(`UPDATE ${CASES_TABLE} SET status = 'failed', error = 'interrupted'${messages ? ', error_message = @message' : ''}, updated_at = @now WHERE id = @id AND status IN ('queued', 'running')`);
  let marked = 0;
  for (const r of rows) {
    if (alive(r.owner, r.id)) continue;
    const message = r.owner === CASE_OWNER ? UNRECORDED_MESSAGE : INTERRUPTED_MESSAGE;
    const changed = mark.run({ now, id: r.id, ...(messages ? { message } : {}) }).changes;
    marked += changed;
    if (changed > 0) runSteps(discardPartialCase(db, r.id));
  }
  return marked;
}

function normaliseSql(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

function hasAnchorColumns(db: Database): boolean {
  return (db.prepare(`SELECT COUNT(*) AS n FROM pragma_table_info('${CASES_TABLE}') WHERE name IN ('custody_head', 'custody_count')`).get() as { n: number }).n === 2;
}

/**
 * Custody triggers absent from the store, or present with other SQL (a disarmed trigger counts as missing); from
 * migration 5 on, the trigger that fixes each case's custody anchors too.
 */
export function missingCaseCustodyTriggers(db: Database): string[] {
  const present = new Map(
    (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (?, ?)").all(CASE_CUSTODY_TABLE, CASES_TABLE) as { name: string; sql: string | null }[]).map((r) => [
      r.name,
      normaliseSql(r.sql ?? ''),
    ]),
  );
  const expected = Object.entries(CASE_CUSTODY_TRIGGER_SQL);
  if (hasAnchorColumns(db)) expected.push([CASE_ANCHOR_TRIGGER, CASE_ANCHOR_TRIGGER_SQL]);
  return expected.filter(([name, sql]) => present.get(name) !== normaliseSql(sql)).map(([name]) => name);
}

/** The head and count a case's custody ledger had when the case completed (none for cases stored before migration 5). */
export function caseCustodyAnchors(db: Database, id: string): LedgerAnchors {
  if (!hasAnchorColumns(db)) return {};
  const row = db.prepare(`SELECT custody_head, custody_count FROM ${CASES_TABLE} WHERE id = ?`).get(id) as { custody_head: string | null; custody_count: number | null } | undefined;
  return { ...(row?.custody_head != null ? { head: row.custody_head } : {}), ...(row?.custody_count != null ? { count: row.custody_count } : {}) };
}

/**
 * A case's custody ledger and its verification (recomputed on every call) against the anchors kept in the case row
 * and, when given, anchors recorded elsewhere (`expected`); missing triggers fail it.
 */
export function caseCustody(db: Database, id: string, expected: LedgerAnchors = {}): CustodyView {
  const rows = db.prepare(`SELECT seq, at, kind, actor, payload, prev_hash, hash FROM ${CASE_CUSTODY_TABLE} WHERE case_id = ? ORDER BY seq`).all(id) as StoredLedgerRow[];
  const stored = caseCustodyAnchors(db, id);
  let v = verifyChain(rows, stored);
  if (v.ok && (expected.head !== undefined || expected.count !== undefined)) v = verifyChain(rows, expected);
  const missing = missingCaseCustodyTriggers(db);
  const verification = v.ok && missing.length > 0 ? { ...v, ok: false, reason: 'append-only triggers are missing or altered', missingTriggers: missing } : { ...v, missingTriggers: missing };
  return { records: rows.map(recordFromRow), verification };
}

export function countCases(db: Database): { cases: number; done: number } {
  const r = db.prepare(`SELECT COUNT(*) AS cases, SUM(status = 'done') AS done FROM ${CASES_TABLE}`).get() as { cases: number; done: number | null };
  return { cases: r.cases, done: r.done ?? 0 };
}
