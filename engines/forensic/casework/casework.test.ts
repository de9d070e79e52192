// Working a case over HTTP with the real jobs: a folder of EVTX files as one case (a bad file reported, the others analysed), a failed case's reason and its removal, the evidence browser, an event's fields and raw XML, annotations in the reports.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { listen, type Listening } from '../../core/http/server.js';
import { openMemoryStore } from '../../core/store.js';
import type { AnnotationsView, CaseDetail, EventDetail, EventRawRecord, EvidenceListing } from '../../core/contracts/forensic.js';
import { createStandaloneApp } from '../http.js';
import { jobs } from '../jobs.js';
import { caseDetailSchema, errorBodySchema } from '../schemas.js';
import { forensicService } from '../service.js';
import { CASE_ANNOTATIONS_TABLE, CASE_REMOVALS_TABLE } from '../store.js';
import { expandEvidence } from '../evidence-set.js';

const SAMPLES = ['temp_scheduled_task_4698_4699.evtx', 'kerberos_pwd_spray_4771.evtx'];
const SECRET = 'outside-secret-name';

const root = mkdtempSync(path.join(tmpdir(), 'forensic-casework-'));
const evidence = path.join(root, 'evidence');
let server: Listening;
let db: Database;

const url = (p: string): string => `${server.url}${p}`;
const post = (p: string, body: unknown) => fetch(url(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function expectError(res: Response, status: number, code: string, ...secrets: string[]): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe(code);
  for (const s of secrets) expect(text).not.toContain(s);
}

async function settled(id: string): Promise<CaseDetail> {
  for (;;) {
    const d = caseDetailSchema.parse(await (await fetch(url(`/api/cases/${id}?events=all`))).json()) as CaseDetail;
    if (d.status === 'done' || d.status === 'failed') return d;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function start(paths: string[]): Promise<CaseDetail> {
  const res = await post('/api/cases/path', { paths });
  expect(res.status).toBe(202);
  return settled(((await res.json()) as { id: string }).id);
}

describe.skipIf(!hasCorpora())('working a case', () => {
  beforeAll(async () => {
    mkdirSync(path.join(evidence, 'host1', 'nested'), { recursive: true });
    for (const f of SAMPLES) copyFileSync(corpusPath('evtx', 'attack-samples', f), path.join(evidence, 'host1', f));
    copyFileSync(corpusPath('evtx', 'attack-samples', SAMPLES[0] as string), path.join(evidence, 'host1', 'nested', 'copy.evtx'));
    writeFileSync(path.join(evidence, 'host1', 'README.txt'), 'notes about the acquisition, not a log\n');
    // An EVTX file cut inside its header: detected by its magic, refused by the parser.
    writeFileSync(path.join(evidence, 'host1', 'cut.evtx'), readFileSync(corpusPath('evtx', 'attack-samples', SAMPLES[1] as string)).subarray(0, 100));
    mkdirSync(path.join(evidence, 'junk'));
    writeFileSync(path.join(evidence, 'junk', 'a.bin'), Buffer.from([0, 1, 2, 3]));
    mkdirSync(path.join(root, SECRET));
    writeFileSync(path.join(root, SECRET, 'secret.evtx'), 'x');
    symlinkSync(path.join(root, SECRET), path.join(evidence, 'host1', 'escape'));
    db = openMemoryStore([forensicService]);
    server = await listen(createStandaloneApp({ db, jobTable: jobs, evidenceRoot: evidence }), { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('expands a folder of logs into its files, walks sub-folders, and lists a link that leaves the root as skipped', () => {
    const x = expandEvidence([path.join(evidence, 'host1')], { evidenceRoot: evidence });
    expect(x.artefacts.map((a) => path.relative(evidence, a))).toEqual(['host1/README.txt', 'host1/cut.evtx', 'host1/kerberos_pwd_spray_4771.evtx', 'host1/nested/copy.evtx', 'host1/temp_scheduled_task_4698_4699.evtx']);
    expect(x.artefacts).toHaveLength(5);
    expect(x.skipped).toEqual([expect.objectContaining({ path: 'host1/escape', code: 'forbidden' })]);
    expect(JSON.stringify(x.skipped)).not.toContain(SECRET);
  });

  let caseId = '';
  it('a folder of EVTX files is one case: each file detected, the bad ones reported with their reason, the others analysed', async () => {
    const d = await start(['host1']);
    expect(d.status, JSON.stringify(d)).toBe('done');
    caseId = d.id;
    const a = d.analysis;
    expect(a?.evidence.map((e) => e.path).sort()).toEqual(['host1/kerberos_pwd_spray_4771.evtx', 'host1/nested/copy.evtx', 'host1/temp_scheduled_task_4698_4699.evtx']);
    expect(a?.evidence.every((e) => e.kind === 'evtx' && e.events > 0)).toBe(true);
    const rejected = a?.rejected ?? [];
    expect(rejected.map((r) => r.path).sort()).toEqual(['host1/README.txt', 'host1/cut.evtx', 'host1/escape']);
    expect(rejected.find((r) => r.path === 'host1/README.txt')?.reason).toMatch(/not a format any loader recognises/);
    expect(rejected.find((r) => r.path === 'host1/cut.evtx')?.code).toBe('parse_error');
    // The refusals are custody records too.
    const custody = (await (await fetch(url(`/api/cases/${caseId}/custody`))).json()) as { records: { action: string; artifact?: string }[]; verification: { ok: boolean } };
    expect(custody.verification.ok).toBe(true);
    expect(custody.records.filter((r) => r.action === 'artifact.rejected').map((r) => r.artifact).sort()).toEqual(['host1/README.txt', 'host1/cut.evtx', 'host1/escape']);
    // The report lists them.
    const md = await (await fetch(url(`/api/cases/${caseId}/report.md`))).text();
    expect(md).toContain('Artefacts not analysed');
    expect(md).toContain('host1/cut.evtx');
  });

  it('a case none of whose artefacts can be read fails with the reason, and only a failed case can be removed (the removal is recorded)', async () => {
    const d = await start(['junk']);
    expect(d.status).toBe('failed');
    expect(d.error).toBe('validation_failed');
    expect(d.errorMessage).toMatch(/not a format any loader recognises/);
    await expectError(await fetch(url(`/api/cases/${caseId}`), { method: 'DELETE' }), 409, 'conflict');
    const del = await fetch(url(`/api/cases/${d.id}`), { method: 'DELETE' });
    expect(del.status).toBe(204);
    await expectError(await fetch(url(`/api/cases/${d.id}`)), 404, 'not_found');
    await expectError(await fetch(url(`/api/cases/${d.id}`), { method: 'DELETE' }), 404, 'not_found');
    const removed = db.prepare(`SELECT case_id, error, error_message FROM ${CASE_REMOVALS_TABLE}`).all() as { case_id: string; error: string }[];
    expect(removed).toEqual([expect.objectContaining({ case_id: d.id, error: 'validation_failed' })]);
    expect(() => db.prepare(`DELETE FROM ${CASE_REMOVALS_TABLE}`).run()).toThrow(/append-only/);
  });

  it('the evidence browser lists folders below the root only: no .., no absolute path, no link that leaves', async () => {
    const top = (await (await fetch(url('/api/evidence'))).json()) as EvidenceListing;
    expect(top.path).toBe('.');
    expect(top.root).toBe(evidence);
    expect(top.entries.map((e) => `${e.type}:${e.path}`)).toEqual(['folder:host1', 'folder:junk']);
    const host = (await (await fetch(url('/api/evidence?path=host1'))).json()) as EvidenceListing;
    expect(host.entries.map((e) => e.name)).toEqual(['nested', 'README.txt', 'cut.evtx', 'kerberos_pwd_spray_4771.evtx', 'temp_scheduled_task_4698_4699.evtx']);
    expect(host.entries.find((e) => e.name === 'cut.evtx')?.size).toBe(100);
    expect(JSON.stringify(host)).not.toContain(SECRET);
    await expectError(await fetch(url('/api/evidence?path=..')), 403, 'forbidden', SECRET);
    await expectError(await fetch(url(`/api/evidence?path=${encodeURIComponent('host1/../..')}`)), 403, 'forbidden');
    await expectError(await fetch(url('/api/evidence?path=host1/escape')), 403, 'forbidden', SECRET);
    await expectError(await fetch(url(`/api/evidence?path=${encodeURIComponent('/etc')}`)), 400, 'bad_request', '/etc');
    await expectError(await fetch(url('/api/evidence?path=host1/cut.evtx')), 422, 'validation_failed');
    await expectError(await fetch(url('/api/evidence?path=nope')), 404, 'not_found', 'nope');
  });

  it('an event shows all its fields, and its raw record is read again from the evidence as XML and verified', async () => {
    const d = (await (await fetch(url(`/api/cases/${caseId}?events=all&events_limit=5&attributes=false`))).json()) as CaseDetail;
    const first = d.analysis?.events[0];
    expect(first?.attributes).toEqual({});
    expect(first?.raw).toBeUndefined();
    const detail = (await (await fetch(url(`/api/cases/${caseId}/events/${first?.eventId ?? ''}`))).json()) as EventDetail;
    expect(detail.event.eventId).toBe(first?.eventId);
    expect(detail.event.attributes).toHaveProperty('eventId');
    expect(detail.event.attributes).toHaveProperty('data');
    expect(detail.event.raw?.offset).toBeGreaterThan(0);
    expect(detail.artifact?.kind).toBe('evtx');
    const raw = (await (await fetch(url(`/api/cases/${caseId}/events/${first?.eventId ?? ''}/raw`))).json()) as EventRawRecord;
    expect(raw.format).toBe('xml');
    expect(raw.verified).toBe(true);
    expect(raw.content).toMatch(/^<\?xml|^<Event/);
    expect(raw.content).toContain(`<EventRecordID>${String(detail.event.attributes['eventRecordId'])}</EventRecordID>`);
    await expectError(await fetch(url(`/api/cases/${caseId}/events/0123456789abcdef`)), 404, 'not_found');
    await expectError(await fetch(url(`/api/cases/${caseId}/events/..%2f..`)), 404, 'not_found');
  });

  it('tags and notes are versioned in a hash-chained append-only ledger, shown with the case and in the reports', async () => {
    const d = (await (await fetch(url(`/api/cases/${caseId}?events=all&events_limit=3&attributes=false`))).json()) as CaseDetail;
    const id = d.analysis?.events[1]?.eventId ?? '';
    expect((await post(`/api/cases/${caseId}/annotations`, { eventId: id, tags: ['lateral', 'T1053'], note: 'first look' })).status).toBe(201);
    const second = await post(`/api/cases/${caseId}/annotations`, { eventId: id, tags: ['lateral', 'confirmed', 'lateral'], note: 'checked with the host owner' });
    expect(second.status).toBe(201);
    expect(await second.json()).toMatchObject({ eventId: id, tags: ['lateral', 'confirmed'], versions: 2, seq: 2 });
    const view = (await (await fetch(url(`/api/cases/${caseId}/annotations`))).json()) as AnnotationsView;
    expect(view.verification.ok).toBe(true);
    expect(view.annotations).toEqual([expect.objectContaining({ eventId: id, note: 'checked with the host owner', versions: 2 })]);
    const again = (await (await fetch(url(`/api/cases/${caseId}?events=all&events_limit=1`))).json()) as CaseDetail;
    expect(again.analysis?.annotations?.[0]?.tags).toEqual(['lateral', 'confirmed']);
    expect(await (await fetch(url(`/api/cases/${caseId}/report.md`))).text()).toContain('checked with the host owner');
    expect(await (await fetch(url(`/api/cases/${caseId}/report.html`))).text()).toContain('Analyst annotations');
    await expectError(await post(`/api/cases/${caseId}/annotations`, { eventId: '0123456789abcdef', tags: [], note: '' }), 404, 'not_found');
    await expectError(await post(`/api/cases/${caseId}/annotations`, { eventId: id, tags: ['<script>'], note: '' }), 422, 'validation_failed', '<script>');
    await expectError(await post(`/api/cases/${caseId}/annotations`, { eventId: id, tags: [], note: 'a\u0000b' }), 422, 'validation_failed');
    // The ledger refuses rewrites; a chain broken behind the triggers' back fails verification and takes no more.
    expect(() => db.prepare(`UPDATE ${CASE_ANNOTATIONS_TABLE} SET payload = '{}'`).run()).toThrow(/append-only/);
    db.exec(`DROP TRIGGER "${CASE_ANNOTATIONS_TABLE}_no_update"`);
    db.prepare(`UPDATE ${CASE_ANNOTATIONS_TABLE} SET at = '2000-01-01T00:00:00Z' WHERE seq = 1`).run();
    const broken = (await (await fetch(url(`/api/cases/${caseId}/annotations`))).json()) as AnnotationsView;
    expect(broken.verification.ok).toBe(false);
    await expectError(await post(`/api/cases/${caseId}/annotations`, { eventId: id, tags: [], note: 'more' }), 409, 'conflict');
  });
});
