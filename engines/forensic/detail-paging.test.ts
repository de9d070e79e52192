// GET /api/cases/{id} on a case larger than a page and a stream batch: events paged by default, answers streamed in batches equal to the whole view, old cases (no item rows) answered the same.
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import type { AnalysisView, ExportedEvent, GraphNode } from '../core/contracts/forensic.js';
import { listen, type Listening } from '../core/http/server.js';
import { openMemoryStore } from '../core/store.js';
import { CustodyLedger } from './custody.js';
import { createStandaloneApp, EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX } from './http.js';
import { fixtureView } from './report/fixture.js';
import { caseDetailSchema } from './schemas.js';
import { forensicService } from './service.js';
import { CASE_ITEMS_TABLE, caseItemCount, CASE_TEXTS_TABLE, completeCase, createCase, exportView } from './store.js';
import { STREAM_BATCH } from './stream-json.js';

const EVENTS = 2_345;
const NODES = 1_234;

/** The fixture with many more events (each with attributes) and nodes than a page or a stream batch. */
function bigView(): AnalysisView {
  const base = fixtureView();
  const template = base.events[0] as ExportedEvent;
  const extra = Array.from({ length: EVENTS - base.events.length }, (_, i): ExportedEvent => {
    const integrityHash = sha256Hex(`big-${i}`);
    return { ...template, eventId: integrityHash.slice(0, 16), integrityHash, summary: `event "${i}" <b>`, attributes: { n: i, note: 'quote " and \\ backslash' } };
  });
  const nodeTemplate = base.nodes[0] as GraphNode;
  const nodes = [...base.nodes, ...Array.from({ length: NODES - base.nodes.length }, (_, i): GraphNode => ({ ...nodeTemplate, id: `host:extra-${i}`, label: `extra ${i}` }))];
  return { ...base, events: [...base.events, ...extra], nodes, eventsTruncated: false };
}

let server: Listening;
let db: Database;
const view = bigView();
const ID = '11111111-2222-4333-8444-555555555555';
const OLD = '11111111-2222-4333-8444-666666666666';
const url = (p: string): string => `${server.url}${p}`;
const detail = async (id: string, query: string) => {
  const res = await fetch(url(`/api/cases/${id}?${query}`));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  return caseDetailSchema.parse(await res.json());
};

beforeAll(async () => {
  db = openMemoryStore([forensicService]);
  const now = '2026-01-01T00:00:00.000Z';
  for (const id of [ID, OLD]) {
    createCase(db, { id, title: 'big', origin: 'path', request: {}, now });
    const ledger = new CustodyLedger({ actor: 'test' });
    ledger.append({ action: 'case.open', digest: sha256Hex(id), artifact: id });
    completeCase(db, id, view, ledger.storedRows(), now);
  }
  // A case stored before migration 6: no item rows, the whole view as one text.
  db.prepare(`DELETE FROM ${CASE_ITEMS_TABLE} WHERE case_id = ?`).run(OLD);
  db.prepare(`INSERT INTO ${CASE_TEXTS_TABLE} (case_id, name, text) VALUES (?, 'view', ?)`).run(OLD, JSON.stringify(view));
  server = await listen(createStandaloneApp({ db, jobTable: {}, scenarios: () => [] }), { port: 0 });
});

afterAll(async () => {
  await server.close();
  db.close();
});

describe('GET /api/cases/{id} paging and streaming', () => {
  it('the fixture is larger than a page and than a stream batch', () => {
    expect(EVENTS).toBeGreaterThan(EVENTS_PAGE_DEFAULT + STREAM_BATCH);
    expect(NODES).toBeGreaterThan(2 * STREAM_BATCH);
    expect(caseItemCount(db, ID, 'event')).toBe(EVENTS);
    expect(caseItemCount(db, OLD, 'event')).toBeNull();
  });

  for (const id of [ID, OLD]) {
    const which = id === ID ? 'stored items (streamed)' : 'an old case (whole view)';
    it(`${which}: events=all answers the first ${EVENTS_PAGE_DEFAULT} events and every node and edge, as the whole view would`, async () => {
      const d = await detail(id, 'events=all');
      const whole = exportView(view, { allEvents: true, maxEvents: EVENTS_PAGE_DEFAULT });
      expect(d.analysis?.events).toEqual(whole.events);
      expect(d.analysis?.nodes).toEqual(whole.nodes);
      expect(d.analysis?.edges).toEqual(whole.edges);
      expect(d.analysis?.stories).toEqual(whole.stories);
      expect(d.analysis?.eventsTruncated).toBe(true);
      expect(d.analysis?.eventsPage).toEqual({ offset: 0, limit: EVENTS_PAGE_DEFAULT, total: EVENTS });
      expect(d.id).toBe(id);
    });

    it(`${which}: pages read with events_offset/events_limit add up to every event, in order, without attributes when asked`, async () => {
      const seen: unknown[] = [];
      for (let offset = 0; ; ) {
        const d = await detail(id, `events=all&graph=stories&attributes=false&events_limit=700&events_offset=${offset}`);
        const a = d.analysis;
        if (!a) throw new Error('no analysis');
        seen.push(...a.events);
        offset += a.events.length;
        expect(a.eventsTruncated).toBe(offset < EVENTS);
        if (!a.eventsTruncated) break;
      }
      expect(seen).toEqual(view.events.map((e) => ({ ...e, attributes: {} })));
    });

    it(`${which}: the default answer holds the stories' events; max_events still cuts; past the end is an empty page`, async () => {
      const d = await detail(id, '');
      expect(d.analysis?.events).toEqual(exportView(view).events);
      expect(d.analysis?.nodes).toEqual(exportView(view).nodes);
      const cut = await detail(id, 'events=all&max_events=3');
      expect(cut.analysis?.events).toEqual(view.events.slice(0, 3));
      expect(cut.analysis?.eventsTruncated).toBe(true);
      const past = await detail(id, `events=all&events_offset=${EVENTS + 5}`);
      expect(past.analysis?.events).toEqual([]);
      expect(past.analysis?.eventsTruncated).toBe(false);
    });
  }

  it(`refuses events_limit above ${EVENTS_PAGE_MAX} and malformed paging`, async () => {
    for (const q of [`events_limit=${EVENTS_PAGE_MAX + 1}`, 'events_offset=-1', 'events_limit=ten']) {
      const res = await fetch(url(`/api/cases/${ID}?${q}`));
      expect(res.status).toBe(400);
      expect(await res.text()).not.toContain('ten');
    }
  });
});
