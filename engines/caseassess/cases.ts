// Stored cases: saved from the workspace, imported from STIX, or grown by findings other workspaces send (each addition logged with its source).
import type { Database } from 'better-sqlite3';
import type { CaseFile, CaseIndicator, CaseTechnique, StoredCase, StoredCaseSummary } from '../core/contracts/caseassess.js';

export type { StoredCase, StoredCaseSummary } from '../core/contracts/caseassess.js';
import type { SendFindingRequest, SendFindingResponse } from '../core/contracts/findings.js';
import { VitrineError } from '../core/errors.js';
import { normalizeFinding, sourceLine, type NormalizedFinding } from '../core/findings.js';
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

/** One evidence item as the log keeps it: its id, kind and value (so the log holds what was added or removed, not only ids). */
export interface LoggedItem {
  readonly evidence_id: string;
  readonly kind: 'technique' | 'software' | 'indicator' | 'sector' | 'region' | 'time_window';
  readonly value: string;
  readonly source?: string;
}

/** Every evidence item of a case with the key that says "the same evidence" (technique id, indicator type and value...). */
export function caseItems(c: CaseFile): { key: string; item: LoggedItem }[] {
  const src = (e: { source?: { service: string; kind: string; id: string } }): { source?: string } => (e.source ? { source: `${e.source.service} ${e.source.kind} ${e.source.id}`.slice(0, 400) } : {});
  return [
    ...(c.techniques ?? []).map((t) => ({ key: `t:${t.id.toUpperCase()}`, item: { evidence_id: t.evidence_id, kind: 'technique' as const, value: t.id, ...src(t) } })),
    ...(c.software ?? []).map((w) => ({ key: `s:${(w.id ?? w.name ?? '').toLowerCase()}`, item: { evidence_id: w.evidence_id, kind: 'software' as const, value: w.id ?? w.name ?? '', ...src(w) } })),
    ...(c.indicators ?? []).map((i) => ({ key: `i:${i.type}:${i.value.toLowerCase()}`, item: { evidence_id: i.evidence_id, kind: 'indicator' as const, value: `${i.type} ${i.value}`.slice(0, 2100), ...src(i) } })),
    ...(c.sectors ?? []).map((x) => ({ key: `sector:${x.name.toLowerCase()}`, item: { evidence_id: x.evidence_id, kind: 'sector' as const, value: x.name, ...src(x) } })),
    ...(c.regions ?? []).map((x) => ({ key: `region:${x.name.toLowerCase()}`, item: { evidence_id: x.evidence_id, kind: 'region' as const, value: x.name, ...src(x) } })),
    ...(c.time_window ? [{ key: `tw:${c.time_window.start ?? ''}/${c.time_window.end ?? ''}`, item: { evidence_id: c.time_window.evidence_id, kind: 'time_window' as const, value: `${c.time_window.start ?? ''}/${c.time_window.end ?? ''}` } }] : []),
  ];
}

/** What replacing `stored` by `next` would remove: items of the stored case whose evidence the new one no longer holds. */
export function lostItems(stored: CaseFile, next: CaseFile): LoggedItem[] {
  const keep = new Set(caseItems(next).map((x) => x.key));
  return caseItems(stored).filter((x) => !keep.has(x.key)).map((x) => x.item);
}

function conflictOnLoss(lost: readonly LoggedItem[], what: string): never {
  throw new VitrineError('conflict', `${what} would remove ${lost.length} evidence item${lost.length === 1 ? '' : 's'} of the stored case; nothing was changed. Confirm the replacement with ?replace=true, or keep them`, {
    details: lost.slice(0, 50).map((l) => ({ path: `${l.kind}:${l.evidence_id}`, issue: `would be removed (${l.kind} ${l.value.slice(0, 200)}${l.source !== undefined ? `, from ${l.source.slice(0, 120)}` : ''})` })),
  });
}

/**
 * POST /cases: saves the case under its case_id. Replacing a stored case that holds evidence the new text lacks (a Send to
 * addition, an imported item) is refused with 409 and the list of what would be lost, unless `replace` confirms it; then the
 * log records every removed item with its value.
 */
export function saveCaseChecked(db: Database, kase: CaseFile, replace: boolean, now: Date = new Date()): StoredCaseSummary {
  const valid = validateCase(kase);
  const stored = getCase(db, valid.case_id);
  const lost = stored === null ? [] : lostItems(stored.case, valid);
  if (lost.length > 0 && !replace) conflictOnLoss(lost, 'saving this case');
  const before = new Set(stored === null ? [] : caseItems(stored.case).map((x) => x.key));
  const added = caseItems(valid).filter((x) => !before.has(x.key)).map((x) => x.item);
  return saveCase(db, valid, { kind: lost.length > 0 ? 'case.replaced' : 'case.saved', payload: { added, ...(lost.length > 0 ? { removed: lost } : {}) } }, now);
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
export function addFindingToCase(kase: CaseFile, req: SendFindingRequest, normalized: NormalizedFinding = normalizeFinding(req.finding)): { case: CaseFile; added: string[]; skipped: { item: string; reason: string }[] } {
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
  const skipped: { item: string; reason: string }[] = [...normalized.skipped];
  for (const t of normalized.techniques) {
    const key = `t:${t.id}`;
    if (have.has(key)) skipped.push({ item: t.id, reason: 'the case already holds this technique' });
    else if (techniques.length >= MAX_ITEMS) skipped.push({ item: t.id, reason: `the case holds ${MAX_ITEMS} techniques already` });
    else {
      have.add(key);
      const evidence_id = nextId('F-T', ids);
      techniques.push({ evidence_id, id: t.id, note: `${note}${t.note !== undefined ? `; ${t.note}` : ''}`.slice(0, 2000), source: f.source });
      added.push(evidence_id);
    }
  }
  for (const i of normalized.indicators) {
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
  const addedIds = new Set(r.added);
  const addedItems = caseItems(r.case).filter((x) => addedIds.has(x.item.evidence_id)).map((x) => x.item);
  if (r.added.length > 0 || created)
    saveCase(db, r.case, { kind: created ? 'case.created-from-finding' : 'case.finding-added', payload: { source: req.finding.source, title: req.finding.title, added: addedItems, skipped: r.skipped.length } }, now);
  return { id: r.case.case_id, title: r.case.title ?? r.case.case_id, created, added: r.added, skipped: r.skipped, case: r.case };
}

/** The log records of STIX imports: which case each bundle (id and content hash) went to. */
function importedBundles(db: Database): { case_id: string; bundle_id: string; bundle_sha256: string | undefined }[] {
  const ledger = new Ledger(db, CASE_LOG_TABLE);
  const out: { case_id: string; bundle_id: string; bundle_sha256: string | undefined }[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = ledger.list(offset, 500);
    for (const r of page) {
      const p = (r.payload ?? {}) as Record<string, unknown>;
      if ((r.kind === 'case.imported-stix' || r.kind === 'case.reimported-stix') && typeof p['case_id'] === 'string' && typeof p['bundle_id'] === 'string')
        out.push({ case_id: p['case_id'], bundle_id: p['bundle_id'], bundle_sha256: typeof p['bundle_sha256'] === 'string' ? p['bundle_sha256'] : undefined });
    }
    if (page.length < 500) return out;
  }
}

export interface ImportOutcome {
  readonly case: CaseFile;
  readonly stored: StoredCaseSummary;
  /** Set when the bundle had been imported before: the case it went to keeps everything it holds, and gains what is new. */
  readonly merged?: { readonly into: string; readonly added: readonly string[]; readonly kept: number };
}

/**
 * Stores an imported bundle. The same bundle (id and content) imported again merges into the case it made: every item the case
 * holds stays (Send to additions, edits), items of the bundle it lacks are added. A different bundle that reuses a bundle id gets
 * a case of its own. The log records every added item with its value.
 */
export function importStixCase(db: Database, imported: CaseFile, bundle: { readonly id: string; readonly sha256: string }, now: Date = new Date()): ImportOutcome {
  const previous = importedBundles(db).filter((b) => b.bundle_id === bundle.id);
  const same = previous.find((b) => b.bundle_sha256 === bundle.sha256 && getCase(db, b.case_id) !== null);
  if (same !== undefined) {
    const stored = getCase(db, same.case_id)!;
    const have = new Set(caseItems(stored.case).map((x) => x.key));
    const taken = new Set(caseItems(stored.case).map((x) => x.item.evidence_id));
    const fresh = <T extends { evidence_id: string }>(list: readonly T[] | undefined, key: (t: T) => string, prefix: string): T[] =>
      (list ?? []).filter((t) => !have.has(key(t))).map((t) => ({ ...t, evidence_id: nextId(prefix, taken) }));
    const c = stored.case;
    const merged: CaseFile = {
      ...c,
      ...mergeList('techniques', c.techniques, fresh(imported.techniques, (t) => `t:${t.id.toUpperCase()}`, 'T')),
      ...mergeList('software', c.software, fresh(imported.software, (w) => `s:${(w.id ?? w.name ?? '').toLowerCase()}`, 'S')),
      ...mergeList('indicators', c.indicators, fresh(imported.indicators, (i) => `i:${i.type}:${i.value.toLowerCase()}`, 'I')),
      ...mergeList('sectors', c.sectors, fresh(imported.sectors, (x) => `sector:${x.name.toLowerCase()}`, 'SEC')),
      ...mergeList('regions', c.regions, fresh(imported.regions, (x) => `region:${x.name.toLowerCase()}`, 'R')),
    };
    const valid = validateCase(merged);
    const added = caseItems(valid).filter((x) => !have.has(x.key)).map((x) => x.item);
    const summary = added.length > 0 ? saveCase(db, valid, { kind: 'case.reimported-stix', payload: { bundle_id: bundle.id, bundle_sha256: bundle.sha256, added } }, now) : { case_id: stored.case_id, title: stored.title, evidence_count: stored.evidence_count, created_at: stored.created_at, updated_at: stored.updated_at };
    return { case: valid, stored: summary, merged: { into: stored.case_id, added: added.map((a) => a.evidence_id), kept: caseItems(c).length } };
  }
  // A new case: its own id (a suffix when another case holds it, such as a different bundle reusing this bundle id).
  let caseId = imported.case_id;
  for (let n = 2; getCase(db, caseId) !== null; n++) caseId = `${imported.case_id}-${n}`;
  const kase = validateCase({ ...imported, case_id: caseId });
  const stored = saveCase(db, kase, { kind: 'case.imported-stix', payload: { bundle_id: bundle.id, bundle_sha256: bundle.sha256, added: caseItems(kase).map((x) => x.item) } }, now);
  return { case: kase, stored };
}

function mergeList<K extends 'techniques' | 'software' | 'indicators' | 'sectors' | 'regions', T>(key: K, have: readonly T[] | undefined, more: readonly T[]): Partial<Record<K, T[]>> {
  const all = [...(have ?? []), ...more].slice(0, MAX_ITEMS);
  return all.length > 0 ? ({ [key]: all } as Partial<Record<K, T[]>>) : {};
}
