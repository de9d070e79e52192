// Stored ACH matrices (scenarios kept in the store): imported from STIX, or grown by findings other workspaces send, each change logged with its source.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { AchActor, AchEvidence, AchHypothesis, AchScenario, StoredMatrix, StoredMatrixSummary } from '../../core/contracts/ach.js';

export type { StoredMatrix, StoredMatrixSummary } from '../../core/contracts/ach.js';
import type { SendFindingRequest, SendFindingResponse } from '../../core/contracts/findings.js';
import { VitrineError } from '../../core/errors.js';
import { normalizeFinding, sourceLine, type NormalizedFinding } from '../../core/findings.js';
import { Ledger } from '../../core/ledger.js';
import { attributeTechniques } from '../attribute/attribute.js';
import type { AttackKb } from '../kb/kb.js';
import { MATRIX_LOG_TABLE } from '../store.js';
import { NULL_HYPOTHESIS, OTHER_HYPOTHESIS } from './import.js';
import { MAX_EVIDENCE, parseScenario } from './scenario.js';

const MATRIX_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const COLUMNS = 'id, title, hypothesis_count, evidence_count, created_at, updated_at';
/** Hypotheses a new matrix gets from the knowledge base: the groups whose technique profile is closest to the finding's. */
export const SEEDED_GROUPS = 3;

function hypothesesOf(s: AchScenario): number {
  return s.hypotheses?.length ?? s.actors?.length ?? 0;
}

/** Saves a scenario as a matrix (a new id unless `id` is given); validated like any scenario; `how` goes to the log. */
export function saveMatrix(db: Database, scenario: AchScenario, how: { kind: string; actor?: string; payload?: Record<string, unknown> }, id?: string, now: Date = new Date()): StoredMatrixSummary {
  const valid = parseScenario(scenario, 'matrix');
  const at = now.toISOString();
  const existing = id === undefined ? undefined : (db.prepare('SELECT created_at FROM attrib_matrices WHERE id = ?').get(id) as { created_at: string } | undefined);
  const row = { id: id ?? randomUUID(), title: valid.title ?? valid.name ?? 'Untitled matrix', hypothesis_count: hypothesesOf(valid), evidence_count: valid.evidence.length, created_at: existing?.created_at ?? at, updated_at: at };
  db.transaction(() => {
    db.prepare(
      `INSERT INTO attrib_matrices (${COLUMNS}, scenario_json) VALUES (@id, @title, @hypothesis_count, @evidence_count, @created_at, @updated_at, @scenario_json)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, hypothesis_count = excluded.hypothesis_count, evidence_count = excluded.evidence_count, updated_at = excluded.updated_at, scenario_json = excluded.scenario_json`,
    ).run({ ...row, scenario_json: JSON.stringify(valid) });
    new Ledger(db, MATRIX_LOG_TABLE).append({ kind: how.kind, actor: how.actor ?? 'analyst', at, payload: { matrix: row.id, evidence_count: row.evidence_count, ...(how.payload ?? {}) } });
  })();
  return row;
}

export function listMatrices(db: Database, page: { readonly limit: number; readonly offset: number }): { items: StoredMatrixSummary[]; total: number } {
  const items = db.prepare(`SELECT ${COLUMNS} FROM attrib_matrices ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`).all(page.limit, page.offset) as StoredMatrixSummary[];
  const total = (db.prepare('SELECT COUNT(*) AS n FROM attrib_matrices').get() as { n: number }).n;
  return { items, total };
}

export function getMatrix(db: Database, id: string): StoredMatrix | null {
  if (!MATRIX_ID.test(id)) return null;
  const row = db.prepare(`SELECT ${COLUMNS}, scenario_json FROM attrib_matrices WHERE id = ?`).get(id) as (StoredMatrixSummary & { scenario_json: string }) | undefined;
  if (!row) return null;
  const { scenario_json, ...summary } = row;
  return { ...summary, scenario: JSON.parse(scenario_json) as AchScenario };
}

/** The finding's techniques and indicators as evidence rows (E<n> after the last), the source line on each; what the matrix holds is skipped. */
export function addFindingToScenario(scenario: AchScenario, req: SendFindingRequest, normalized: NormalizedFinding = normalizeFinding(req.finding)): { scenario: AchScenario; added: string[]; skipped: { item: string; reason: string }[] } {
  const f = req.finding;
  const evidence: AchEvidence[] = [...scenario.evidence];
  const ids = new Set(evidence.map((e) => e.id));
  const haveTechnique = new Set(evidence.filter((e) => e.type === 'technique' && e.techniques?.length === 1).map((e) => e.techniques![0]!));
  const haveIndicator = new Set(evidence.filter((e) => e.type === 'indicator').map((e) => e.summary.toLowerCase()));
  const source = `Sent from ${sourceLine(f, 290)}`.slice(0, 300);
  const added: string[] = [];
  const skipped: { item: string; reason: string }[] = [...normalized.skipped];
  let n = evidence.length;
  const nextId = (): string => {
    do n++;
    while (ids.has(`E${n}`));
    ids.add(`E${n}`);
    return `E${n}`;
  };
  const room = (item: string): boolean => {
    if (evidence.length < MAX_EVIDENCE) return true;
    skipped.push({ item, reason: `the matrix holds ${MAX_EVIDENCE} evidence items already` });
    return false;
  };
  for (const tech of normalized.techniques) {
    const t = tech.id;
    if (haveTechnique.has(t)) skipped.push({ item: t, reason: 'the matrix already has this technique as evidence' });
    else if (room(t)) {
      haveTechnique.add(t);
      const id = nextId();
      // The finding's title is in the source line, once; the row says what the item is.
      evidence.push({ id, summary: `Technique ${t} ${tech.name}${tech.note !== undefined ? ` (${tech.note})` : ''}`.slice(0, 1000), source, type: 'technique', techniques: [t] });
      added.push(id);
    }
  }
  for (const i of normalized.indicators) {
    const summary = `${i.type} ${i.value}`.slice(0, 1000);
    const label = summary.slice(0, 200);
    if ([...haveIndicator].some((s) => s.startsWith(summary.toLowerCase()))) skipped.push({ item: label, reason: 'the matrix already has this indicator as evidence' });
    else if (room(label)) {
      haveIndicator.add(summary.toLowerCase());
      const id = nextId();
      evidence.push({ id, summary, source, type: 'indicator' });
      added.push(id);
    }
  }
  return { scenario: { ...scenario, evidence }, added, skipped };
}

/** Hypotheses for a new matrix: the closest ATT&CK groups to the finding's techniques (their techniques rate the evidence), and the unnamed actor. */
export function seedHypotheses(techniques: readonly string[], kb: AttackKb | null): { actors: AchActor[]; hypotheses: AchHypothesis[] } {
  const actors: AchActor[] = [];
  const hypotheses: AchHypothesis[] = [];
  if (kb !== null && techniques.length > 0) {
    for (const c of attributeTechniques(techniques, kb, { shortlist: SEEDED_GROUPS }).shortlist) {
      const used = [...(kb.groupTechniques.get(c.id) ?? [])].sort().slice(0, 1000);
      actors.push({ id: c.id, name: c.name.slice(0, 200), attack_id: c.id, ...(c.aliases.length > 0 ? { aliases: c.aliases.slice(0, 50).map((a) => a.slice(0, 200)) } : {}), techniques: used });
      hypotheses.push({ id: `H-${c.id}`, title: `${c.name} (${c.id})`.slice(0, 300), actor: c.id });
    }
  }
  hypotheses.push(OTHER_HYPOTHESIS);
  if (hypotheses.length < 2) hypotheses.push(NULL_HYPOTHESIS);
  return { actors, hypotheses };
}

/** GET /groups: the knowledge base's groups (deprecated ones left out) whose id, name or an alias contains `q` (any case), by name; each as an ACH actor. */
export function searchGroups(kb: AttackKb, q: string): AchActor[] {
  const needle = q.trim().toLowerCase();
  const out: AchActor[] = [];
  for (const g of kb.groups.values()) {
    if (g.deprecated === true) continue;
    if (needle !== '' && ![g.id, g.name, ...g.aliases].some((s) => s.toLowerCase().includes(needle))) continue;
    const used = [...(kb.groupTechniques.get(g.id) ?? [])].sort().slice(0, 1000);
    out.push({ id: g.id, name: g.name.slice(0, 200), attack_id: g.id, ...(g.aliases.length > 0 ? { aliases: g.aliases.slice(0, 50).map((a) => a.slice(0, 200)) } : {}), techniques: used });
  }
  // A name that starts with the query first (typing "APT2" finds APT28 before a group that merely mentions it), then by name.
  const starts = (a: AchActor): number => (needle !== '' && a.name.toLowerCase().startsWith(needle) ? 0 : 1);
  return out.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name, 'en'));
}

/** POST /matrices/evidence: the finding into a stored matrix (404 if none) or a new one seeded from the knowledge base. */
export function sendFindingToMatrix(db: Database, req: SendFindingRequest, kb: AttackKb | null, now: Date = new Date()): SendFindingResponse & { scenario: AchScenario } {
  const normalized = normalizeFinding(req.finding);
  if (req.target.kind === 'existing') {
    const stored = getMatrix(db, req.target.id);
    if (!stored) throw new VitrineError('not_found', 'no such stored matrix (GET /matrices lists them)');
    const r = addFindingToScenario(stored.scenario, req, normalized);
    if (r.added.length > 0) saveMatrix(db, r.scenario, { kind: 'matrix.finding-added', payload: { source: req.finding.source, title: req.finding.title, added: loggedEvidence(r.scenario, r.added), skipped: r.skipped.length } }, stored.id, now);
    return { id: stored.id, title: stored.title, created: false, added: r.added, skipped: r.skipped, scenario: r.scenario };
  }
  const seed = seedHypotheses(normalized.techniques.map((t) => t.id), kb);
  const r = addFindingToScenario({ evidence: [] }, req, normalized);
  const scenario: AchScenario = {
    format: 'vitrine-ach/1',
    title: req.target.title,
    question: 'Who is behind this activity?',
    description: `Started from ${sourceLine(req.finding, 3900)}. Hypotheses: the ATT&CK groups closest to the finding's techniques, and an actor not named yet.`.slice(0, 4000),
    ...(seed.actors.length > 0 ? { actors: seed.actors } : {}),
    hypotheses: seed.hypotheses,
    evidence: r.scenario.evidence,
  };
  const saved = saveMatrix(db, scenario, { kind: 'matrix.created-from-finding', payload: { source: req.finding.source, title: req.finding.title, added: loggedEvidence(scenario, r.added) } }, undefined, now);
  return { id: saved.id, title: saved.title, created: true, added: r.added, skipped: r.skipped, scenario };
}

/** Evidence rows as the log keeps them: id, summary (the value), source and techniques, so the log holds what was added, not only ids. */
function loggedEvidence(scenario: AchScenario, ids: readonly string[]): { id: string; summary: string; source?: string; techniques?: readonly string[] }[] {
  const wanted = new Set(ids);
  return scenario.evidence.filter((e) => wanted.has(e.id)).map((e) => ({ id: e.id, summary: e.summary, ...(e.source !== undefined ? { source: e.source } : {}), ...(e.techniques !== undefined ? { techniques: e.techniques } : {}) }));
}

/** Which matrix each imported bundle (id and content hash) made, from the log. */
function importedBundles(db: Database): { matrix: string; bundle_id: string; bundle_sha256: string | undefined }[] {
  const ledger = new Ledger(db, MATRIX_LOG_TABLE);
  const out: { matrix: string; bundle_id: string; bundle_sha256: string | undefined }[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = ledger.list(offset, 500);
    for (const r of page) {
      const p = (r.payload ?? {}) as Record<string, unknown>;
      if ((r.kind === 'matrix.imported-stix' || r.kind === 'matrix.reimported-stix') && typeof p['matrix'] === 'string' && typeof p['bundle_id'] === 'string')
        out.push({ matrix: p['matrix'], bundle_id: p['bundle_id'], bundle_sha256: typeof p['bundle_sha256'] === 'string' ? p['bundle_sha256'] : undefined });
    }
    if (page.length < 500) return out;
  }
}

/**
 * Stores an imported bundle as a matrix. The same bundle (id and content) imported again merges into the matrix it made: every
 * hypothesis, evidence row, rating and override there stays; hypotheses and evidence of the bundle it lacks are added. A
 * different bundle reusing a bundle id gets a matrix of its own. The log records every added row with its text.
 */
export function importStixMatrix(db: Database, imported: AchScenario, bundle: { readonly id: string; readonly sha256: string }, now: Date = new Date()): { matrix: StoredMatrixSummary; scenario: AchScenario; merged?: { into: string; added: string[]; kept: number } } {
  const same = importedBundles(db).find((b) => b.bundle_id === bundle.id && b.bundle_sha256 === bundle.sha256 && getMatrix(db, b.matrix) !== null);
  if (same === undefined) {
    const matrix = saveMatrix(db, imported, { kind: 'matrix.imported-stix', payload: { bundle_id: bundle.id, bundle_sha256: bundle.sha256, added: loggedEvidence(imported, imported.evidence.map((e) => e.id)) } }, undefined, now);
    return { matrix, scenario: imported };
  }
  const stored = getMatrix(db, same.matrix)!;
  const s = stored.scenario;
  const haveSummary = new Set(s.evidence.map((e) => e.summary.toLowerCase()));
  const ids = new Set(s.evidence.map((e) => e.id));
  let n = s.evidence.length;
  const added: AchEvidence[] = [];
  for (const e of imported.evidence) {
    if (haveSummary.has(e.summary.toLowerCase()) || s.evidence.length + added.length >= MAX_EVIDENCE) continue;
    do n++;
    while (ids.has(`E${n}`));
    ids.add(`E${n}`);
    added.push({ ...e, id: `E${n}` });
  }
  const haveHyp = new Set((s.hypotheses ?? []).map((h) => h.id));
  const haveActor = new Set((s.actors ?? []).map((a) => a.id));
  const hypotheses = s.hypotheses === undefined ? undefined : [...s.hypotheses, ...(imported.hypotheses ?? []).filter((h) => !haveHyp.has(h.id))];
  const actors = [...(s.actors ?? []), ...(imported.actors ?? []).filter((a) => !haveActor.has(a.id))];
  const next: AchScenario = { ...s, ...(actors.length > 0 ? { actors } : {}), ...(hypotheses !== undefined ? { hypotheses } : {}), evidence: [...s.evidence, ...added] };
  const grew = added.length > 0 || (hypotheses?.length ?? 0) > (s.hypotheses?.length ?? 0);
  const matrix = grew ? saveMatrix(db, next, { kind: 'matrix.reimported-stix', payload: { bundle_id: bundle.id, bundle_sha256: bundle.sha256, added: loggedEvidence(next, added.map((e) => e.id)) } }, stored.id, now) : { id: stored.id, title: stored.title, hypothesis_count: stored.hypothesis_count, evidence_count: stored.evidence_count, created_at: stored.created_at, updated_at: stored.updated_at };
  return { matrix, scenario: grew ? next : s, merged: { into: stored.id, added: added.map((e) => e.id), kept: s.evidence.length } };
}
