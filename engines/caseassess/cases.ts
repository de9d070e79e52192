// Stored cases: saved from the workspace, imported from STIX, or grown by findings other workspaces send (each addition logged with its source).
import type { Database } from 'better-sqlite3';
import type { CaseFile, CaseIndicator, CaseTechnique, StoredCase, StoredCaseSummary } from '../core/contracts/caseassess.js';

export type { StoredCase, StoredCaseSummary } from '../core/contracts/caseassess.js';
import type { SendFindingRequest, SendFindingResponse } from '../core/contracts/findings.js';
import { VitrineError } from '../core/errors.js';
import { sourceLine } from '../core/findings.js';
import { Ledger } from '../core/ledger.js';
import { MAX_ITEMS, validateCase } from './case.js';
import { CASE_LOG_TABLE } from './store.js';

interface Row extends StoredCaseSummary {
  case_json?: string;
}

const COLUMNS = 'case_id, title, evidence_count, created_at, updated_at';

export function evidenceCount(c: CaseFile): number {
  return (c.techniques?.length ?? 0) + (c.software?.length ?? 0) + (c.indicators?.length ?? 0) + (c.sectors?.length ?? 0) + (c.regions?.length ?? 0) + (c.time_window ? 1 : 0);
}

/** Saves a case under its case_id (replacing a stored one of that id); `how` and `actor` go to the log. */
export function saveCase(db: Database, kase: CaseFile, how: { kind: string; actor?: string; payload?: Record<string, unknown> }, now: Date = new Date()): StoredCaseSummary {
  const valid = validateCase(kase);
  const at = now.toISOString();
  const existing = db.prepare('SELECT created_at FROM caseassess_cases WHERE case_id = ?').get(valid.case_id) as { created_at: string } | undefined;
  const row = { case_id: valid.case_id, title: valid.title ?? null, evidence_count: evidenceCount(valid), created_at: existing?.created_at ?? at, updated_at: at };
  db.transaction(() => {
    db.prepare(
      `INSERT INTO caseassess_cases (${COLUMNS}, case_json) VALUES (@case_id, @title, @evidence_count, @created_at, @updated_at, @case_json)
       ON CONFLICT (case_id) DO UPDATE SET title = excluded.title, evidence_count = excluded.evidence_count, updated_at = excluded.updated_at, case_json = excluded.case_json`,
    ).run({ ...row, case_json: JSON.stringify(valid) });
    new Ledger(db, CASE_LOG_TABLE).append({ kind: how.kind, actor: how.actor ?? 'analyst', at, payload: { case_id: valid.case_id, evidence_count: row.evidence_count, ...(how.payload ?? {}) } });
  })();
  return row;
}

/** Most recently changed first. */
export function listCases(db: Database, page: { readonly limit: number; readonly offset: number }): { items: StoredCaseSummary[]; total: number } {
  const items = db.prepare(`SELECT ${COLUMNS} FROM caseassess_cases ORDER BY updated_at DESC, case_id LIMIT ? OFFSET ?`).all(page.limit, page.offset) as Row[];
  const total = (db.prepare('SELECT COUNT(*) AS n FROM caseassess_cases').get() as { n: number }).n;
  return { items: items.map(({ case_json: _j, ...r }) => r), total };
}

export function getCase(db: Database, caseId: string): StoredCase | null {
  const row = db.prepare(`SELECT ${COLUMNS}, case_json FROM caseassess_cases WHERE case_id = ?`).get(caseId) as Row | undefined;
  if (!row) return null;
  const { case_json, ...summary } = row;
  return { ...summary, case: JSON.parse(case_json ?? '{}') as CaseFile };
}

function nextId(prefix: string, taken: Set<string>): string {
  let n = 1;
  while (taken.has(`${prefix}-${n}`)) n++;
  const id = `${prefix}-${n}`;
  taken.add(id);
  return id;
}

/** A case id from a title: lower-case words joined by -, with a suffix when taken. */
function caseIdFor(db: Database, title: string): string {
  const base = `case-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'finding'}`;
  let id = base;
  for (let n = 2; getCase(db, id) !== null; n++) id = `${base}-${n}`;
  return id;
}

/**
 * The finding's techniques and indicators as evidence of the case: new evidence ids (F-T-1, F-I-1...), the source and link on each item,
 * a note naming the source; what the case already holds is skipped.
 */
export function addFindingToCase(kase: CaseFile, req: SendFindingRequest): { case: CaseFile; added: string[]; skipped: { item: string; reason: string }[] } {
  const f = req.finding;
  const ids = new Set<string>([
    ...(kase.techniques ?? []),
    ...(kase.software ?? []),
    ...(kase.indicators ?? []),
    ...(kase.sectors ?? []),
    ...(kase.regions ?? []),
    ...(kase.time_window ? [kase.time_window] : []),
  ].map((e) => e.evidence_id));
  const techniques: CaseTechnique[] = [...(kase.techniques ?? [])];
  const indicators: CaseIndicator[] = [...(kase.indicators ?? [])];
  const have = new Set([...techniques.map((t) => `t:${t.id.toUpperCase()}`), ...indicators.map((i) => `i:${i.type}:${i.value.toLowerCase()}`)]);
  const note = `Sent from ${sourceLine(f, 1900)}`;
  const added: string[] = [];
  const skipped: { item: string; reason: string }[] = [];
  for (const t of f.techniques) {
    const key = `t:${t.toUpperCase()}`;
    if (have.has(key)) skipped.push({ item: t, reason: 'the case already holds this technique' });
    else if (techniques.length >= MAX_ITEMS) skipped.push({ item: t, reason: `the case holds ${MAX_ITEMS} techniques already` });
    else {
      have.add(key);
      const evidence_id = nextId('F-T', ids);
      techniques.push({ evidence_id, id: t, note, source: f.source });
      added.push(evidence_id);
    }
  }
  for (const i of f.indicators) {
    const key = `i:${i.type}:${i.value.toLowerCase()}`;
    if (have.has(key)) skipped.push({ item: `${i.type} ${i.value}`.slice(0, 200), reason: 'the case already holds this indicator' });
    else if (indicators.length >= MAX_ITEMS) skipped.push({ item: `${i.type} ${i.value}`.slice(0, 200), reason: `the case holds ${MAX_ITEMS} indicators already` });
    else {
      have.add(key);
      const evidence_id = nextId('F-I', ids);
      indicators.push({ evidence_id, type: i.type, value: i.value, note, source: f.source });
      added.push(evidence_id);
    }
  }
  const next: CaseFile = { ...kase, ...(techniques.length > 0 ? { techniques } : {}), ...(indicators.length > 0 ? { indicators } : {}) };
  return { case: validateCase(next), added, skipped };
}

/** POST /cases/evidence: the finding into an existing stored case (404 if none) or a new one. */
export function sendFindingToCase(db: Database, req: SendFindingRequest, now: Date = new Date()): SendFindingResponse & { case: CaseFile } {
  let base: CaseFile;
  let created = false;
  if (req.target.kind === 'existing') {
    const stored = getCase(db, req.target.id);
    if (!stored) throw new VitrineError('not_found', 'no such stored case (GET /cases lists them)');
    base = stored.case;
  } else {
    base = { case_id: caseIdFor(db, req.target.title), title: req.target.title, description: `Started from ${sourceLine(req.finding, 2000)}` };
    created = true;
  }
  const r = addFindingToCase(base, req);
  if (r.added.length > 0 || created)
    saveCase(db, r.case, { kind: created ? 'case.created-from-finding' : 'case.finding-added', payload: { source: req.finding.source, title: req.finding.title, added: r.added, skipped: r.skipped.length } }, now);
  return { id: r.case.case_id, title: r.case.title ?? r.case.case_id, created, added: r.added, skipped: r.skipped, case: r.case };
}
