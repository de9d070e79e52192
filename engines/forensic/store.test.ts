// The forensic store's migrations, one test each, and the case and custody queries.
import { describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { appliedMigrations, migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { CustodyLedger } from './custody.js';
import { fixtureView } from './report/fixture.js';
import { annotateEvent, annotationHistory, caseAnnotations, eventAnnotation } from './casework/annotations.js';
import { CASE_ANCHOR_TRIGGER, CASE_ANNOTATIONS_EVENT_INDEX, CASE_ANNOTATIONS_TABLE, CASE_CUSTODY_TABLE, CASE_LEAN_EVENTS_TABLE, caseItemCount, caseItemsJson, CASE_OWNER, CASE_TEXTS_TABLE, caseText, discardLeftovers, caseOwnerAlive, CASE_CUSTODY_TRIGGER_SQL, CASE_CUSTODY_TRIGGERS, caseCustody, caseCustodyAnchors, CASES_TABLE, completeCase, createCase, exportView, failInterruptedCases, getCaseExport, getCaseSummary, getCaseView, textsMoveNotice, TEXTS_MOVE_NOTICE_BYTES, listCases, migrations, missingCaseCustodyTriggers, setCaseStatus, topGrade } from './store.js';

const NOW = '2024-03-05T08:00:00.000Z';

function ledgerRows(n: number) {
  const ledger = new CustodyLedger({ actor: 'forensic test', now: () => new Date(NOW) });
  for (let i = 0; i < n; i++) ledger.append({ action: i === 0 ? 'case.open' : 'ingest', digest: sha256Hex(String(i)) });
  return ledger.storedRows();
}

describe('forensic store migrations', () => {
  it('1 creates the cases table', () => {
    const db = storeAtVersion('forensic', migrations, 0);
    migrateTo(db, 'forensic', migrations, 1);
    db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json) VALUES ('a', 't', 'path', 'queued', ?, ?, '{}')`).run(NOW, NOW);
    expect(() => db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json) VALUES ('b', 't', 'path', 'lost', ?, ?, '{}')`).run(NOW, NOW)).toThrow();
    expect(appliedMigrations(db, 'forensic').map((m) => m.version)).toEqual([1]);
  });

  it('2 adds the case custody table with its append-only triggers, keeping the cases', () => {
    const db = storeAtVersion('forensic', migrations, 1);
    db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json) VALUES ('a', 't', 'path', 'queued', ?, ?, '{}')`).run(NOW, NOW);
    migrateTo(db, 'forensic', migrations, 2);
    expect(getCaseSummary(db, 'a')).toMatchObject({ id: 'a', status: 'queued', counts: null, topGrade: null });
    expect(missingCaseCustodyTriggers(db)).toEqual([]);
    expect(CASE_CUSTODY_TRIGGERS).toHaveLength(3);
  });
});

describe('forensic store migration 3', () => {
  it('3 adds the export column; a case stored before it is exported from its whole view', () => {
    const db = storeAtVersion('forensic', migrations, 2);
    db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json, view_json) VALUES ('a', 't', 'path', 'done', ?, ?, '{}', ?)`).run(NOW, NOW, JSON.stringify(fixtureView()));
    migrateTo(db, 'forensic', migrations, 3);
    expect(getCaseExport(db, 'a')?.stories).toHaveLength(2);
    expect((db.prepare(`SELECT export_json FROM ${CASES_TABLE} WHERE id = 'a'`).get() as { export_json: string | null }).export_json).toBeNull();
  });
});

describe('forensic store migration 4', () => {
  it('4 adds the timeline column; a case stored before it has no timeline view (the whole view serves)', () => {
    const db = storeAtVersion('forensic', migrations, 3);
    db.prepare(`INSERT INTO ${CASES_TABLE} (id, title, origin, status, created_at, updated_at, request_json, view_json) VALUES ('a', 't', 'path', 'done', ?, ?, '{}', ?)`).run(NOW, NOW, JSON.stringify(fixtureView()));
    migrateTo(db, 'forensic', migrations, 4);
    expect(caseText(db, 'a', 'timeline')).toBeNull();
    expect(getCaseSummary(db, 'a')?.status).toBe('done');
  });
});

describe('forensic store migration 5', () => {
  it('5 adds the custody anchors, fixed once written; a case stored before it verifies without them', () => {
    const db = storeAtVersion('forensic', migrations, 4);
    createCase(db, { id: 'old', title: 't', origin: 'path', request: {}, now: NOW });
    const insert = db.prepare(`INSERT INTO ${CASE_CUSTODY_TABLE} (case_id, seq, at, kind, actor, payload, prev_hash, hash) VALUES ('old', @seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
    for (const r of ledgerRows(2)) insert.run(r);
    migrateTo(db, 'forensic', migrations, 5);
    expect(caseCustodyAnchors(db, 'old')).toEqual({});
    expect(caseCustody(db, 'old').verification).toMatchObject({ ok: true, count: 2, missingTriggers: [] });
    createCase(db, { id: 'new', title: 't', origin: 'path', request: {}, now: NOW });
    const rows = ledgerRows(4);
    completeCase(db, 'new', fixtureView(), rows, NOW);
    expect(caseCustodyAnchors(db, 'new')).toEqual({ head: rows[3]?.hash, count: 4 });
    expect(() => db.prepare(`UPDATE ${CASES_TABLE} SET custody_count = 3 WHERE id = 'new'`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done' WHERE id = 'new'`).run()).not.toThrow();
    db.exec(`DROP TRIGGER ${CASE_ANCHOR_TRIGGER}`);
    expect(caseCustody(db, 'new').verification).toMatchObject({ ok: false, missingTriggers: [CASE_ANCHOR_TRIGGER] });
  });
});

describe('custody anchors of a stored case', () => {
  function truncated(): ReturnType<typeof openMemoryStore> {
    const db = openMemoryStore([{ name: 'forensic', migrations }]);
    createCase(db, { id: 'c1', title: 'one', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'c1', fixtureView(), ledgerRows(5), NOW);
    // Triggers dropped, the newest rows deleted, the triggers put back as they were: the chain left is intact.
    const noDelete = `${CASE_CUSTODY_TABLE}_no_delete`;
    db.exec(`DROP TRIGGER ${noDelete}`);
    db.prepare(`DELETE FROM ${CASE_CUSTODY_TABLE} WHERE case_id = 'c1' AND seq > 3`).run();
    db.exec(CASE_CUSTODY_TRIGGER_SQL[noDelete] ?? '');
    return db;
  }

  it('deleting the last custody rows does not read as ok', () => {
    const v = caseCustody(truncated(), 'c1').verification;
    expect(v).toMatchObject({ ok: false, count: 3, missingTriggers: [] });
    expect(v.reason).toMatch(/count/);
  });

  it('anchors recorded elsewhere are checked too', () => {
    const db = openMemoryStore([{ name: 'forensic', migrations }]);
    createCase(db, { id: 'c1', title: 'one', origin: 'path', request: {}, now: NOW });
    const rows = ledgerRows(3);
    completeCase(db, 'c1', fixtureView(), rows, NOW);
    const head = rows[2]?.hash ?? '';
    expect(caseCustody(db, 'c1', { head, count: 3 }).verification.ok).toBe(true);
    expect(caseCustody(db, 'c1', { head: head.toUpperCase() }).verification.ok).toBe(true);
    expect(caseCustody(db, 'c1', { head: '1'.repeat(64) }).verification).toMatchObject({ ok: false, reason: 'head hash differs from the expected head' });
    expect(caseCustody(db, 'c1', { count: 4 }).verification.ok).toBe(false);
  });
});

describe('exportView (spec to_dict over a stored view)', () => {
  const view = fixtureView();
  const extra = { ...view, nodes: [...view.nodes, { ...(view.nodes[0] as (typeof view.nodes)[number]), id: 'host:OTHER' }], events: [...view.events, { ...(view.events[0] as (typeof view.events)[number]), eventId: 'ffffffffffffffff' }] };
  it('keeps the stories\' events, nodes and edges by default, everything with allEvents', () => {
    const d = exportView(extra);
    expect(d.events.map((e) => e.eventId)).not.toContain('ffffffffffffffff');
    expect(d.nodes.map((n) => n.id)).not.toContain('host:OTHER');
    const all = exportView(extra, { allEvents: true });
    expect(all.events).toHaveLength(extra.events.length);
    expect(all.nodes.map((n) => n.id)).toContain('host:OTHER');
    expect(exportView(extra, { allEvents: true, graph: 'stories' }).nodes.map((n) => n.id)).not.toContain('host:OTHER');
  });
  it('cuts at maxEvents, says so, and can leave attributes out', () => {
    const cut = exportView(view, { maxEvents: 2, attributes: false });
    expect(cut.events).toHaveLength(2);
    expect(cut.eventsTruncated).toBe(true);
    expect(cut.events.every((e) => Object.keys(e.attributes).length === 0)).toBe(true);
    expect(exportView(view).eventsTruncated).toBe(false);
  });
});

describe('cases and their custody', () => {
  it('a case goes queued, running, done; its ledger verifies and each case chains on its own', () => {
    const db = openMemoryStore([{ name: 'forensic', migrations }]);
    createCase(db, { id: 'c1', title: 'one', origin: 'scenario:x', request: { scenario: 'x' }, now: NOW });
    createCase(db, { id: 'c2', title: 'two', origin: 'path', request: {}, now: '2024-03-05T09:00:00.000Z' });
    setCaseStatus(db, 'c1', 'running', NOW);
    expect(getCaseSummary(db, 'c1')?.status).toBe('running');
    const view = fixtureView();
    completeCase(db, 'c1', view, ledgerRows(5), NOW);
    completeCase(db, 'c2', view, ledgerRows(3), NOW);
    expect(getCaseSummary(db, 'c1')).toMatchObject({ status: 'done', topGrade: 'MEDIUM', counts: view.counts });
    expect(getCaseView(db, 'c1')).toEqual(view);
    expect(getCaseExport(db, 'c1')).toEqual(exportView(view, { maxEvents: Number.MAX_SAFE_INTEGER }));
    // No timeline text is kept: the timeline pages read each event's lean row.
    expect(db.prepare(`SELECT name FROM ${CASE_TEXTS_TABLE} WHERE case_id = 'c1'`).all()).toEqual([{ name: 'export' }]);
    expect(caseText(db, 'c1', 'timeline')).toBeNull();
    expect(caseCustody(db, 'c1').verification).toMatchObject({ ok: true, count: 5, missingTriggers: [] });
    expect(caseCustody(db, 'c2').verification).toMatchObject({ ok: true, count: 3 });
    expect(listCases(db, { limit: 10, offset: 0 }).items.map((c) => c.id)).toEqual(['c2', 'c1']);
    // A second ledger for the same case is refused.
    expect(() => completeCase(db, 'c1', view, ledgerRows(1), NOW)).toThrow(VitrineError);
  });

  it('refuses a ledger that does not verify', () => {
    const db = openMemoryStore([{ name: 'forensic', migrations }]);
    createCase(db, { id: 'c1', title: 'one', origin: 'path', request: {}, now: NOW });
    const rows = ledgerRows(3);
    const bad = rows.map((r, i) => (i === 1 ? { ...r, actor: 'mallory' } : r));
    expect(() => completeCase(db, 'c1', fixtureView(), bad, NOW)).toThrow(/does not verify/);
    expect((db.prepare(`SELECT COUNT(*) AS n FROM ${CASE_CUSTODY_TABLE}`).get() as { n: number }).n).toBe(0);
  });

  it('marks cases a stopped process left queued or running as interrupted', () => {
    const db = openMemoryStore([{ name: 'forensic', migrations }]);
    createCase(db, { id: 'c1', title: 'one', origin: 'path', request: {}, now: NOW });
    // As a later process sees it: the owner is gone.
    expect(failInterruptedCases(db, NOW, () => false)).toBe(1);
    expect(getCaseSummary(db, 'c1')).toMatchObject({ status: 'failed', error: 'interrupted' });
  });

  it("leaves the cases of a live process alone: this one, another live one; marks a dead owner's, a reused pid's and an ownerless one", () => {
    const db = openMemoryStore([{ name: 'forensic', migrations }]);
    for (const id of ['mine', 'live', 'dead', 'reused', 'legacy']) createCase(db, { id, title: id, origin: 'path', request: {}, now: NOW });
    expect(db.prepare(`SELECT owner FROM ${CASES_TABLE} WHERE id = 'mine'`).get()).toEqual({ owner: CASE_OWNER });
    const set = db.prepare(`UPDATE ${CASES_TABLE} SET owner = ? WHERE id = ?`);
    set.run(`${process.ppid}:another-process`, 'live');
    set.run('2147483646:gone', 'dead');
    set.run(`${process.pid}:an-earlier-process`, 'reused');
    set.run(null, 'legacy');
    expect(failInterruptedCases(db, NOW)).toBe(3);
    const status = (id: string): string | undefined => getCaseSummary(db, id)?.status;
    expect(['mine', 'live', 'dead', 'reused', 'legacy'].map(status)).toEqual(['queued', 'queued', 'failed', 'failed', 'failed']);
    expect(caseOwnerAlive(null)).toBe(false);
  });

  it('migration 8 adds the owner column to cases stored before it (no owner: interrupted at the next start)', () => {
    const db = storeAtVersion('forensic', migrations, 7);
    createCase(db, { id: 'old', title: 'old', origin: 'path', request: {}, now: NOW });
    migrateTo(db, 'forensic', migrations, 8);
    expect(db.prepare(`SELECT owner FROM ${CASES_TABLE}`).all()).toEqual([{ owner: null }]);
    expect(failInterruptedCases(db, NOW)).toBe(1);
  });

  it('migration 9 moves every case\'s large texts to a table of their own, byte for byte; the case rows, ledgers and triggers are kept', () => {
    const db = storeAtVersion('forensic', migrations, 8);
    const view = fixtureView();
    // A case stored by the job (item rows, export and timeline in its row), one stored before migration 6 (the whole
    // view only, with text that is not ASCII), a failed case whose texts a full disk left, and a queued one.
    createCase(db, { id: 'done', title: 'done', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'done', view, ledgerRows(3), NOW);
    // The timeline text a case stored then had (every event without attributes); none is written now.
    db.prepare(`UPDATE ${CASES_TABLE} SET timeline_json = ? WHERE id = 'done'`).run(JSON.stringify({ events: view.events.map(({ raw: _raw, ...e }) => ({ ...e, attributes: {} })), eventsTruncated: view.eventsTruncated }));
    createCase(db, { id: 'whole', title: 'whole', origin: 'path', request: {}, now: NOW });
    const odd = { ...view, evidence: [], counts: { ...view.counts }, stories: view.stories.map((st) => ({ ...st, title: `${st.title} \u2028 é 😀 \ud800 "q"` })) };
    db.prepare(`UPDATE ${CASES_TABLE} SET status = 'done', view_json = ? WHERE id = 'whole'`).run(JSON.stringify(odd));
    createCase(db, { id: 'failed', title: 'failed', origin: 'path', request: {}, now: NOW });
    setCaseStatus(db, 'failed', 'failed', NOW, 'insufficient_storage', 'the disk is full');
    db.prepare(`UPDATE ${CASES_TABLE} SET export_json = '{"stories":[]}', timeline_json = '{"events":[]}' WHERE id = 'failed'`).run();
    createCase(db, { id: 'queued', title: 'queued', origin: 'path', request: {}, now: NOW });
    const columns = ['view_json', 'export_json', 'timeline_json'] as const;
    const before = db.prepare(`SELECT * FROM ${CASES_TABLE} ORDER BY id`).all() as Record<string, unknown>[];
    const reads = (): unknown => ['done', 'whole', 'failed', 'queued'].map((id) => ({ export: JSON.stringify(getCaseExport(db, id)), view: JSON.stringify(getCaseView(db, id)), timeline: caseText(db, id, 'timeline'), summary: getCaseSummary(db, id), anchors: caseCustodyAnchors(db, id) }));
    const read = reads();
    const ledger = db.prepare(`SELECT * FROM ${CASE_CUSTODY_TABLE} ORDER BY case_id, seq`).all();

    migrateTo(db, 'forensic', migrations, 9);
    const after = db.prepare(`SELECT * FROM ${CASES_TABLE} ORDER BY id`).all() as Record<string, unknown>[];
    expect(after).toEqual(before.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !(columns as readonly string[]).includes(k)))));
    const texts = db.prepare(`SELECT case_id, name, text FROM ${CASE_TEXTS_TABLE} ORDER BY case_id, name`).all();
    const expected = before.flatMap((row) => (['export', 'timeline', 'view'] as const).flatMap((name) => (row[`${name}_json`] == null ? [] : [{ case_id: row['id'], name, text: row[`${name}_json`] }])));
    expect(texts).toEqual(expected);
    expect(texts).toHaveLength(5);
    for (const t of expected) expect(Buffer.from(caseText(db, t.case_id as string, t.name) as string)).toEqual(Buffer.from(t.text as string));
    expect(reads()).toEqual(read);
    expect(db.prepare(`SELECT * FROM ${CASE_CUSTODY_TABLE} ORDER BY case_id, seq`).all()).toEqual(ledger);
    expect(missingCaseCustodyTriggers(db)).toEqual([]);
    expect(caseCustody(db, 'done').verification).toMatchObject({ ok: true, count: 3 });
    expect(() => db.prepare(`UPDATE ${CASES_TABLE} SET custody_count = 2 WHERE id = 'done'`).run()).toThrow(/append-only/);
    // The failed case's leftovers are found and removed; a case stored now writes its texts to the new table.
    expect(discardLeftovers(db)).toBe(1);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM ${CASE_TEXTS_TABLE} WHERE case_id = 'failed'`).get()).toEqual({ n: 0 });
    completeCase(db, 'queued', view, ledgerRows(2), NOW);
    expect(caseText(db, 'queued', 'export')).toBe(caseText(db, 'done', 'export'));
    expect(JSON.stringify(getCaseView(db, 'queued'))).toBe(JSON.stringify(view));
  });

  it('migration 9 says once that it moves the texts, only for a store of at least TEXTS_MOVE_NOTICE_BYTES, naming its size only', () => {
    const db = storeAtVersion('forensic', migrations, 8);
    const lines: string[] = [];
    expect(textsMoveNotice(db, TEXTS_MOVE_NOTICE_BYTES, (l) => lines.push(l))).toBe(false);
    expect(textsMoveNotice(db, 0, (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^vitrine: forensic store: moving the cases' large texts to a table of their own, once, in batches \(a store of \d+ MB; this can take a while\)\n$/)]);
    const written = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      migrateTo(db, 'forensic', migrations, 9);
      expect(written).not.toHaveBeenCalled();
    } finally {
      written.mockRestore();
    }
  });

  it('migration 10 adds a table of each event\'s lean text; cases stored before read the same lean pages, made as they are read', () => {
    const db = storeAtVersion('forensic', migrations, 9);
    const view = fixtureView();
    createCase(db, { id: 'old', title: 'old', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'old', view, ledgerRows(2), NOW);
    migrateTo(db, 'forensic', migrations, 10);
    createCase(db, { id: 'new', title: 'new', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'new', view, ledgerRows(2), NOW);
    const lean = (id: string): unknown => db.prepare(`SELECT seq, json FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = ? ORDER BY seq`).all(id);
    expect(lean('old')).toEqual([]);
    const json = caseItemsJson(db, 'new', 'event', 0, 1e9);
    expect(json).toEqual(caseItemsJson(db, 'old', 'event', 0, 1e9));
    expect(json).toHaveLength(view.events.length);
    // What the timeline pages answered for each event before: its stored text parsed, attributes {} and raw left out.
    const expected = json.map((j) => JSON.stringify({ ...(JSON.parse(j) as Record<string, unknown>), attributes: {}, raw: undefined }));
    expect(lean('new')).toEqual(expected.map((text, seq) => ({ seq, json: text })));
    for (const id of ['old', 'new']) {
      expect(caseItemsJson(db, id, 'event', 0, 1e9, true)).toEqual(expected);
      expect(caseItemsJson(db, id, 'event', 3, 7, true)).toEqual(expected.slice(3, 7));
      expect(caseItemsJson(db, id, 'node', 0, 1e9, true)).toEqual(caseItemsJson(db, id, 'node', 0, 1e9));
      expect([caseItemCount(db, id, 'event'), caseItemCount(db, id, 'node'), caseItemCount(db, id, 'edge')]).toEqual([view.events.length, view.nodes.length, view.edges.length]);
    }
    expect(caseItemCount(db, 'nothing', 'event')).toBeNull();
  });

  it('the top grade is the highest of the stories', () => {
    const view = fixtureView();
    expect(topGrade(view)).toBe('MEDIUM');
    expect(topGrade({ ...view, stories: [] })).toBeNull();
  });
});

describe('forensic store migration 11 and the statements of the reads', () => {
  /** The SQL of every statement `read` prepares on `db`. */
  function preparedBy(db: ReturnType<typeof storeAtVersion>, read: () => unknown): string[] {
    const spy = vi.spyOn(db, 'prepare');
    try {
      read();
      return spy.mock.calls.map(([sql]) => sql);
    } finally {
      spy.mockRestore();
    }
  }

  it("11 indexes each case's annotations by event id: an event's history, its current annotation and its version count are looked up through it; the chain and triggers are kept", () => {
    const db = storeAtVersion('forensic', migrations, 10);
    const view = fixtureView();
    createCase(db, { id: 'c', title: 'c', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'c', view, ledgerRows(2), NOW);
    const events = view.events.slice(0, 3).map((e) => e.eventId);
    for (let i = 0; i < 9; i++) annotateEvent(db, 'c', { eventId: events[i % 3] as string, tags: [`t${i}`], note: `n${i}` }, 'analyst', NOW);
    const before = db.prepare(`SELECT * FROM ${CASE_ANNOTATIONS_TABLE} ORDER BY case_id, seq`).all();
    const page = { order: 'newest', limit: 2, offset: 1 } as const;
    const history = annotationHistory(db, 'c', events[1] as string, page);
    migrateTo(db, 'forensic', migrations, 11);
    expect(db.prepare(`SELECT * FROM ${CASE_ANNOTATIONS_TABLE} ORDER BY case_id, seq`).all()).toEqual(before);
    expect(annotationHistory(db, 'c', events[1] as string, page)).toEqual(history);
    expect(history).toMatchObject({ total: 3, items: [{ version: 2, note: 'n4' }, { version: 1, note: 'n1' }] });
    expect(caseAnnotations(db, 'c').verification).toMatchObject({ ok: true, count: 9 });
    expect(() => db.prepare(`DELETE FROM ${CASE_ANNOTATIONS_TABLE}`).run()).toThrow(/append-only/);
    // The statements the lookups by event id prepare, as the store plans them.
    const lookups = [
      ...preparedBy(db, () => annotationHistory(db, 'c', events[0] as string, page)),
      ...preparedBy(db, () => eventAnnotation(db, 'c', events[0] as string)),
      ...preparedBy(db, () => annotateEvent(db, 'c', { eventId: events[2] as string, tags: [], note: 'n' }, 'analyst', NOW)),
    ].filter((sql) => sql.includes('$.eventId'));
    expect(lookups).toHaveLength(4);
    for (const sql of lookups) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: sql.split('?').length - 1 }, () => 1)) as { detail: string }[]).map((r) => r.detail);
      expect(plan, sql).toEqual([expect.stringMatching(new RegExp(`^SEARCH ${CASE_ANNOTATIONS_TABLE} USING (COVERING )?INDEX ${CASE_ANNOTATIONS_EVENT_INDEX} \\(case_id=\\? AND <expr>=\\?\\)$`))]);
    }
  });

  it('a case text and a case summary are read with statements prepared once per store, the columns of the case rows read once', () => {
    const db = storeAtVersion('forensic', migrations, migrations.length);
    createCase(db, { id: 'c', title: 'c', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'c', fixtureView(), ledgerRows(2), NOW);
    const read = (): unknown => [caseText(db, 'c', 'export'), getCaseSummary(db, 'c'), listCases(db, { limit: 1, offset: 0 }).total];
    const first = read();
    expect(preparedBy(db, () => expect(read()).toEqual(first)).filter((sql) => !sql.includes('COUNT(*)') && !sql.includes('LIMIT ? OFFSET ?'))).toEqual([]);
    // A store migrated while open sees the failure message column once it is there.
    const old = storeAtVersion('forensic', migrations, 6);
    createCase(old, { id: 'f', title: 'f', origin: 'path', request: {}, now: NOW });
    setCaseStatus(old, 'f', 'failed', NOW, 'internal', 'lost');
    expect(getCaseSummary(old, 'f')).not.toHaveProperty('errorMessage', 'lost');
    migrateTo(old, 'forensic', migrations, 7);
    setCaseStatus(old, 'f', 'failed', NOW, 'internal', 'lost');
    expect(getCaseSummary(old, 'f')).toHaveProperty('errorMessage', 'lost');
  });
});
