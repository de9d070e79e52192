// GET /api/search against the real workstation (startWorkstation, every service composed) with a store filled through
// the engines' own operations: a replay demo analysis and a triage analysis.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../engines/core/contracts/search.js';
import { analyze } from '../../engines/petriage/analyze.js';
import { familySamples } from '../../engines/petriage/corpus.js';
import { loadModel } from '../../engines/petriage/model.js';
import { saveAnalysis as savePe } from '../../engines/petriage/store.js';
import { demo, loadIndicators } from '../../engines/replay/index.js';
import { saveAnalysis as saveCapture } from '../../engines/replay/store.js';
import { startWorkstation, type Workstation } from '../../main/headless.js';

let home: string;
let ws: Workstation;
const previousHome = process.env['VITRINE_HOME'];

function get(pathname: string, token: string | null = ws.token): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  const url = new URL(ws.url);
  const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      })
      .on('error', reject);
  });
}

const search = async (q: string, extra = ''): Promise<SearchResponse> => {
  const r = await get(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  expect(r.status).toBe(200);
  return JSON.parse(r.text) as SearchResponse;
};

const capture = demo(3, { indicators: loadIndicators(), now: new Date('2025-01-01T00:00:00Z') }).analysis;
const triage = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, loadModel());

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-search-'));
  process.env['VITRINE_HOME'] = path.join(home, 'data');
  ws = await startWorkstation({ port: 0, rendererDir: path.join(home, 'no-ui'), hostOptions: { size: 1 } });
  saveCapture(ws.db, capture);
  savePe(ws.db, triage);
}, 60_000);

afterAll(async () => {
  await ws?.close();
  if (previousHome === undefined) delete process.env['VITRINE_HOME'];
  else process.env['VITRINE_HOME'] = previousHome;
  rmSync(home, { recursive: true, force: true });
});

describe('GET /api/search', () => {
  it('needs the token', async () => {
    expect((await get('/api/search?q=T1059', null)).status).toBe(401);
    expect((await get('/api/search?q=T1059', 'x'.repeat(43))).status).toBe(401);
  });

  it('groups hits by service with the kind it read the query as, and a link the UI can follow', async () => {
    const attacker = capture.stories[0]?.attacker ?? '';
    const res = await search(attacker);
    expect(res.kind).toBe('ipv4');
    const replay = res.groups.find((g) => g.service === 'replay');
    expect(replay).toMatchObject({ title: 'Capture replay', workspace: 'Replay', truncated: false });
    expect(replay?.hits[0]).toMatchObject({ kind: 'story', field: 'attacker', link: { service: 'replay', kind: 'story', id: capture.stories[0]?.id } });
    const byHash = await search(triage.sha256);
    expect(byHash.kind).toBe('sha256');
    expect(byHash.groups.map((g) => g.service)).toEqual(['petriage']);
    expect(byHash.total).toBe(1);
  });

  it('keeps to the limit per service and answers an empty result for an unknown value', async () => {
    const one = await search(capture.stories[0]?.attacker ?? '', '&limit=1');
    expect(one.groups.find((g) => g.service === 'replay')).toMatchObject({ truncated: true });
    expect(one.groups.every((g) => g.hits.length <= 1)).toBe(true);
    expect(await search('198.18.255.254')).toEqual({ kind: 'ipv4', total: 0, groups: [] });
  });

  it('refuses a missing, short, long or control-character query and a bad limit with 400, never echoing the query', async () => {
    const secret = 'Zq-secret-marker';
    for (const qs of ['', '?q=a', `?q=${secret.repeat(20)}`, `?q=${encodeURIComponent(`${secret}\u0001`)}`, `?q=${secret}&limit=0`, `?q=${secret}&limit=999`, `?q=${secret}&q=${secret}`]) {
      const r = await get(`/api/search${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.text).not.toContain('secret-marker');
      expect((JSON.parse(r.text) as { error: { code: string } }).error.code).toBe('bad_request');
    }
    const ok = await get(`/api/search?q=${secret}`);
    expect(ok.status).toBe(200);
    expect(ok.text).not.toContain('secret-marker');
  });
});
