// Page answers written from the stored texts joined by SQLite are byte for byte those written from one string per
// item: on a real case (a corpus log analysed and stored), every item kind and range, and every timeline query of the
// route, the same answer with the joined bytes as with the strings joined in JavaScript.
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import type { AnalysisView, ExportedEvent } from '../core/contracts/forensic.js';
import { listen, type Listening } from '../core/http/server.js';
import type { JobContext } from '../core/jobs/protocol.js';
import { openMemoryStore } from '../core/store.js';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import type * as caseBytes from './case-bytes.js';
import { caseItemsJoined } from './case-bytes.js';
import { CustodyLedger } from './custody.js';
import { createStandaloneApp } from './http.js';
import { runAnalyzeJob, type CaseJobResult } from './jobs.js';
import { fixtureView } from './report/fixture.js';
import { forensicService } from './service.js';
import { caseItemCount, caseItemsJson, completeCase, createCase, type CaseItemKind } from './store.js';

/** Off: the route reads every batch as strings (what it did before the joined bytes), by answering null here. */
const joined = vi.hoisted(() => ({ on: true, bytes: 0 }));
vi.mock('./case-bytes.js', async (importOriginal) => {
  const actual = await importOriginal<typeof caseBytes>();
  return {
    ...actual,
    caseItemsJoined: (...args: Parameters<typeof actual.caseItemsJoined>) => {
      if (!joined.on) return null;
      const r = actual.caseItemsJoined(...args);
      if (r !== null) joined.bytes++;
      return r;
    },
  };
});

const NOW = '2026-01-01T00:00:00.000Z';
const REAL = '00000000-0000-4000-8000-0000000000a1';
const WIDE = '00000000-0000-4000-8000-0000000000a2';
const ctx: JobContext = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };

let db: Database;
let server: Listening;

function store(id: string, view: AnalysisView, custody: CaseJobResult['custody']): void {
  createCase(db, { id, title: 'case', origin: 'path', request: {}, now: NOW });
  completeCase(db, id, view, custody, NOW);
}

/** The fixture with events whose texts hold letters outside ASCII (two- three- and four-byte UTF-8) and escapes. */
function wideView(): AnalysisView {
  const base = fixtureView();
  const template = base.events[0] as ExportedEvent;
  const events = Array.from({ length: 1_200 }, (_, i): ExportedEvent => {
    const integrityHash = sha256Hex(`wide-${i}`);
    return { ...template, eventId: integrityHash.slice(0, 16), integrityHash, summary: `é ☃ 😀 "${i}" \\ \u2028 \ud800`, attributes: { n: i, user: 'Zoë' } };
  });
  return { ...base, events, eventsTruncated: false };
}

beforeAll(async () => {
  db = openMemoryStore([forensicService]);
  if (hasCorpora()) {
    const root = corpusPath('logs', 'loghub', 'OpenSSH');
    const r = (await runAnalyzeJob({ caseId: REAL, paths: [path.join(root, 'OpenSSH_2k.log')], evidenceRoot: root, includeNoisy: true, sigma: false }, ctx)) as CaseJobResult;
    store(REAL, r.view, r.custody);
  }
  const ledger = new CustodyLedger({ actor: 'test' });
  ledger.append({ action: 'case.open', digest: sha256Hex(WIDE), artifact: WIDE });
  store(WIDE, wideView(), ledger.storedRows());
  server = await listen(createStandaloneApp({ db, jobTable: {}, scenarios: () => [] }), { port: 0 });
}, 120_000);

afterAll(async () => {
  await server.close();
  db.close();
});

const cases = (): string[] => (hasCorpora() ? [REAL, WIDE] : [WIDE]);

describe('caseItemsJoined', () => {
  it('gives the bytes of the stored texts joined with commas, for every kind, lean or not, over any range', () => {
    joined.on = true;
    for (const id of cases()) {
      for (const kind of ['event', 'node', 'edge'] as CaseItemKind[]) {
        const n = caseItemCount(db, id, kind) ?? 0;
        expect(n).toBeGreaterThan(0);
        const ranges: [number, number][] = [[0, n], [0, 1], [7, 20], [n - 1, n], [Math.floor(n / 3), Math.floor(n / 3) + 500], [n - 5, n + 100]];
        for (const lean of kind === 'event' ? [false, true] : [false]) {
          for (const [from, to] of ranges) {
            const texts = caseItemsJson(db, id, kind, from, to, lean);
            const got = caseItemsJoined(db, id, kind, from, to, lean);
            if (texts.length === 0) {
              expect(got).toBeNull();
              continue;
            }
            expect(got?.count).toBe(texts.length);
            // Buffer.equals: toEqual walks a megabyte element by element.
            expect(Buffer.from(got?.bytes ?? []).equals(Buffer.from(texts.join(','), 'utf8')), `${id} ${kind} ${from}-${to} lean ${lean}`).toBe(true);
          }
        }
      }
      expect(caseItemsJoined(db, id, 'event', caseItemCount(db, id, 'event') ?? 0, 1e6)).toBeNull();
    }
    expect(caseItemsJoined(db, 'no-such-case', 'event', 0, 10)).toBeNull();
  });
});

describe('GET /api/cases/{id} from the joined bytes', () => {
  it('answers byte for byte what the strings joined in JavaScript answer, for every timeline and graph query', async () => {
    const answer = async (id: string, query: string): Promise<Buffer> => {
      const res = await fetch(`${server.url}/api/cases/${id}?${query}`);
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const queries = [
      'events=all&graph=stories&attributes=false&events_limit=10000',
      'events=all&graph=stories&attributes=false&events_offset=501&events_limit=777',
      'events=all&attributes=false&events_limit=50',
      'events=all',
      'events=all&events_limit=10000',
      'graph=all',
      'attributes=false',
    ];
    for (const id of cases()) {
      for (const query of queries) {
        joined.on = false;
        const strings = await answer(id, query);
        joined.on = true;
        joined.bytes = 0;
        const bytes = await answer(id, query);
        expect(bytes.equals(strings), `${id} ${query}`).toBe(true);
        if (query.includes('events=all') || query.includes('graph=all')) expect(joined.bytes).toBeGreaterThan(0);
      }
    }
    // The real case spans several stream batches per page.
    if (hasCorpora()) expect(caseItemCount(db, REAL, 'event')).toBeGreaterThan(1_000);
  }, 120_000);
});
