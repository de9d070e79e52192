// The HTTP contract of `petriage serve`: the spec's routes, status codes and error shape, the upload gate, docs only when enabled.
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusWithHost } from '../core/http/host.fixture.js';
import { expectNoBuildPage, expectServesRendererBuild, fakeRendererBuild } from '../core/http/page.fixture.js';
import { listen, type Listening } from '../core/http/server.js';
import type { JobRunner } from '../core/jobs/protocol.js';
import { migrateTo, openMemoryStore, openStore } from '../core/store.js';
import { benignSamples, familySamples, writeCorpus } from './corpus.js';
import { createStandaloneApp } from './http.js';
import { analysisPageSchema, errorBodySchema, healthSchema, modelInfoSchema, ruleValidationSchema, storedAnalysisSchema, triageResultSchema } from './schemas.js';
import { petriageService } from './service.js';
import { getAnalysis, migrations, saveAnalysis } from './store.js';
import { analyze } from './analyze.js';
import { loadModel } from './model.js';

const benign = { synthetic: { count: 20, seed: 1 } };
const sample = familySamples(1, 31)[2] as { bytes: Uint8Array; family: string };
const db = openMemoryStore([petriageService]);
let server: Listening;

beforeAll(async () => {
  server = await listen(createStandaloneApp({ benign, db }), { port: 0 });
});
afterAll(async () => {
  await server.close();
  db.close();
});

const upload = (body: Uint8Array | string, type = 'application/octet-stream') => fetch(`${server.url}/api/analyze`, { method: 'POST', headers: { 'content-type': type }, body });
const postJson = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** A raw request, for a header fetch will not send (a declared length we never send). */
function rawRequest(options: { method: string; path: string; headers: Record<string, string | number> }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, agent: false, ...options }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('petriage HTTP API', () => {
  it('GET /health: status, version, model type, benign corpus size', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(healthSchema.parse(await res.json())).toEqual({ status: 'ok', service: 'petriage', version: expect.stringMatching(/^\d+\.\d+\.\d+$/), modelType: 'linear', benignCorpusSize: 20 });
  });

  it('GET /api/model: model type, thresholds, metadata, known families', async () => {
    const body = modelInfoSchema.parse(await (await fetch(`${server.url}/api/model`)).json());
    expect(body.modelType).toBe('linear');
    expect(body.thresholds).toEqual({ malicious: 0.7, suspicious: 0.3 });
    expect(body.knownFamilies.map((f) => f.name)).toEqual(['burrow', 'gatecrash', 'hollowpoint', 'keywren', 'lockjaw', 'siphon']);
    expect(body.metadata).toHaveProperty('validation');
  });

  it('POST /api/analyze: the full triage result, stored in the history', async () => {
    const res = await upload(sample.bytes);
    expect(res.status).toBe(200);
    const body = triageResultSchema.parse(await res.json());
    expect(body.verdict).toBe('MALICIOUS');
    expect(body.family?.name).toBe(sample.family);
    expect(body.capabilities.some((c) => c.tag === 'crypto' || c.tag === 'impact')).toBe(true);
    expect(body.drivers.items.length).toBeGreaterThan(0);
    expect(body.rule?.validation).toMatchObject({ benignHitCount: 0, specificity: 1, benignCorpusSize: 20 });
    const id = res.headers.get('x-analysis-id') ?? '';
    expect(getAnalysis(db, id)?.sha256).toBe(body.sha256);
  });

  it('POST /api/analyze refusals: not a PE 422, wrong type 415, empty 400, declared over 32 MiB 413 unread; none echoes the body', async () => {
    const notPe = await upload('Zq9-secret: not a portable executable');
    expect(notPe.status).toBe(422);
    const text = await notPe.text();
    expect(text).not.toContain('Zq9');
    expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe('parse_error');
    expect((await upload(sample.bytes, 'application/json')).status).toBe(415);
    expect((await upload(new Uint8Array(0))).status).toBe(400);
    const big = await rawRequest({ method: 'POST', path: '/api/analyze', headers: { 'content-type': 'application/octet-stream', 'content-length': 32 * 1024 * 1024 + 1 } });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ error: { code: 'payload_too_large' } });
    // The server is still answering (the unread body did not wedge anything).
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('the upload limit is the spec\'s 32 MB: 32,000,000 bytes are read, one more byte is refused (declared or streamed)', async () => {
    const declared = await rawRequest({ method: 'POST', path: '/api/analyze', headers: { 'content-type': 'application/octet-stream', 'content-length': 32_000_001 } });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.message).toContain('32,000,000 bytes');
    // Exactly at the limit the body is read and analysed (zeros: not a PE, so 422 rather than 413).
    const atLimit = await upload(new Uint8Array(32_000_000));
    expect(atLimit.status).toBe(422);
    // Streamed without a declared length, one byte over: the body parser's limit refuses it.
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(16_000_000));
        c.enqueue(new Uint8Array(16_000_001));
        c.close();
      },
    });
    const streamed = await fetch(`${server.url}/api/analyze`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('POST /api/rule/validate: benign hits and specificity against the configured corpus', async () => {
    const broad = ruleValidationSchema.parse(await (await postJson('/api/rule/validate', { text: 'rule broad { condition: uint16(0) == 0x5A4D }' })).json());
    expect(broad).toMatchObject({ rules: ['broad'], benignHitCount: 20, benignCorpusSize: 20, specificity: 0 });
    const narrow = ruleValidationSchema.parse(await (await postJson('/api/rule/validate', { text: 'rule narrow { strings: $a = "LOCKJAW-KEY-v1" condition: uint16(0) == 0x5A4D and $a }' })).json());
    expect(narrow).toMatchObject({ benignHitCount: 0, specificity: 1, benignHits: [] });
  });

  it('POST /api/rule/validate refusals: rule outside the subset 422 with the line, bad body 422/400/415, no echo', async () => {
    const bad = await postJson('/api/rule/validate', { text: 'rule x {\n strings: $a = /Zq9secret/ condition: $a }' });
    expect(bad.status).toBe(422);
    const t = await bad.text();
    expect(t).toContain('line 2');
    expect(t).not.toContain('Zq9');
    const wrongField = await postJson('/api/rule/validate', { rule: 'Zq9' });
    expect(wrongField.status).toBe(422);
    expect(await wrongField.text()).not.toContain('Zq9');
    expect((await postJson('/api/rule/validate', '{"text": "Zq9')).status).toBe(400);
    expect((await fetch(`${server.url}/api/rule/validate`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'rule' })).status).toBe(415);
  });

  it('/openapi.json lists exactly the documented routes; /docs and /redoc are off by default', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/analyses', '/api/analyses/{id}', '/api/analyze', '/api/model', '/api/rule/validate', '/health', '/openapi.json']);
    expect((await fetch(`${server.url}/docs/`)).status).toBe(404);
    expect((await fetch(`${server.url}/redoc`)).status).toBe(404);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('refuses a Host header that is not loopback (DNS rebinding)', async () => {
    expect(await statusWithHost(`${server.url}/health`, 'attacker.example')).toBe(403);
    expect(await statusWithHost(`${server.url}/health`, `127.0.0.1:${server.port}`)).toBe(200);
  });
});

describe('stored analyses: GET /api/analyses and GET /api/analyses/{id}', () => {
  const hdb = openMemoryStore([petriageService]);
  let h: Listening;
  const model = loadModel();
  const bad = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
  const good = analyze((benignSamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
  const older = saveAnalysis(hdb, bad, new Date('2024-01-01T00:00:00Z'));
  const newer = saveAnalysis(hdb, good, new Date('2024-01-02T00:00:00Z'));
  beforeAll(async () => {
    h = await listen(createStandaloneApp({ benign, db: hdb }), { port: 0 });
  });
  afterAll(async () => {
    await h.close();
    hdb.close();
  });
  const get = async (p: string) => {
    const res = await fetch(`${h.url}${p}`);
    return { status: res.status, text: await res.text() };
  };

  it('lists newest first in the house page shape; an upload appears at the top with the id of X-Analysis-Id', async () => {
    const first = analysisPageSchema.parse(JSON.parse((await get('/api/analyses')).text));
    expect(first).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(first.items).toEqual([newer, older]);
    const res = await fetch(`${h.url}/api/analyze`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: sample.bytes });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-analysis-id');
    const after = analysisPageSchema.parse(JSON.parse((await get('/api/analyses?limit=1')).text));
    expect(after).toMatchObject({ total: 3, limit: 1, offset: 0 });
    expect(after.items[0]?.id).toBe(id);
    expect(after.items[0]?.family).toBe(sample.family);
    const paged = analysisPageSchema.parse(JSON.parse((await get('/api/analyses?limit=1&offset=2')).text));
    expect(paged.items).toEqual([older]);
  });

  it('filters by verdict and by a SHA-256 prefix (either case); the total counts the filtered rows', async () => {
    const benignOnly = analysisPageSchema.parse(JSON.parse((await get('/api/analyses?verdict=BENIGN')).text));
    expect(benignOnly.items.map((i) => i.id)).toEqual([newer.id]);
    expect(benignOnly.total).toBe(1);
    const byPrefix = analysisPageSchema.parse(JSON.parse((await get(`/api/analyses?sha256=${bad.sha256.slice(0, 10).toUpperCase()}`)).text));
    expect(byPrefix.items.map((i) => i.id)).toEqual([older.id]);
    const full = analysisPageSchema.parse(JSON.parse((await get(`/api/analyses?sha256=${bad.sha256}&verdict=MALICIOUS`)).text));
    expect(full.items.map((i) => i.id)).toEqual([older.id]);
    expect(analysisPageSchema.parse(JSON.parse((await get(`/api/analyses?sha256=${bad.sha256}&verdict=BENIGN`)).text)).total).toBe(0);
  });

  it('refuses bad filters and paging with 400 in the error shape, without echoing them', async () => {
    expect.hasAssertions();
    for (const q of ['verdict=CLEANZq9', 'sha256=xyzZq9', `sha256=${'a'.repeat(65)}`, 'limit=0', 'limit=501', 'offset=-1', 'verdict=BENIGN&verdict=MALICIOUS']) {
      const r = await get(`/api/analyses?${q}`);
      expect(r.status, q).toBe(400);
      expect(errorBodySchema.parse(JSON.parse(r.text)).error.code).toBe('bad_request');
      expect(r.text).not.toContain('Zq9');
      expect(r.text).not.toContain('a'.repeat(65));
    }
  });

  it('GET /api/analyses/{id}: the summary and the stored result; 404 for an unknown id, 400 for a malformed one, never echoed', async () => {
    const ok = await get(`/api/analyses/${older.id}`);
    expect(ok.status).toBe(200);
    const body = storedAnalysisSchema.parse(JSON.parse(ok.text));
    expect(body).toMatchObject(older);
    expect(body.result).toEqual(JSON.parse(JSON.stringify(bad)));
    const unknown = await get('/api/analyses/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(errorBodySchema.parse(JSON.parse(unknown.text)).error.code).toBe('not_found');
    expect(unknown.text).not.toContain('00000000-0000');
    for (const bad of ['Zq9-not-an-id', `${older.id.toUpperCase()}`, `${older.id}0`, '%3Cscript%3EZq9']) {
      const r = await get(`/api/analyses/${bad}`);
      expect(r.status, bad).toBe(400);
      expect(errorBodySchema.parse(JSON.parse(r.text)).error.code).toBe('bad_request');
      expect(r.text).not.toContain('Zq9');
      expect(r.text).not.toContain(older.id.toUpperCase());
    }
  });
});

describe('the file name of an upload: POST /api/analyze?name=', () => {
  const ndb = openMemoryStore([petriageService]);
  let n: Listening;
  beforeAll(async () => {
    n = await listen(createStandaloneApp({ benign, db: ndb }), { port: 0 });
  });
  afterAll(async () => {
    await n.close();
    ndb.close();
  });
  const send = async (query: string) => {
    const res = await fetch(`${n.url}/api/analyze${query}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: sample.bytes });
    return { status: res.status, id: res.headers.get('x-analysis-id'), text: await res.text() };
  };
  const stored = async (id: string | null) => storedAnalysisSchema.parse(await (await fetch(`${n.url}/api/analyses/${id ?? ''}`)).json());
  const count = () => (ndb.prepare('SELECT COUNT(*) AS c FROM petriage_analyses').get() as { c: number }).c;

  it('is stored with the analysis and listed as fileName; the result served is the same as without a name; absent, it is null', async () => {
    const plain = await send('');
    expect(plain.status).toBe(200);
    const named = await send(`?name=${encodeURIComponent('Invoice March (final) é.exe')}`);
    expect(named.status).toBe(200);
    expect(triageResultSchema.parse(JSON.parse(named.text))).toEqual(triageResultSchema.parse(JSON.parse(plain.text)));
    expect(named.text).not.toContain('Invoice March');
    const page = analysisPageSchema.parse(await (await fetch(`${n.url}/api/analyses?limit=2`)).json());
    expect(page.items.map((i) => [i.id, i.fileName])).toEqual([
      [named.id, 'Invoice March (final) é.exe'],
      [plain.id, null],
    ]);
    expect((await stored(named.id)).fileName).toBe('Invoice March (final) é.exe');
    expect((await stored(plain.id)).fileName).toBeNull();
  });

  it('keeps the base name only (Windows and POSIX folders dropped and never stored), trimmed', async () => {
    const cases: [string, string][] = [
      ['C:\\Users\\alice\\Desktop\\dropper.exe', 'dropper.exe'],
      ['/home/alice/secretproject/tool.dll', 'tool.dll'],
      ['..\\..\\mixed/dir\\  spaced name.scr  ', 'spaced name.scr'],
      [`  ${'n'.repeat(255)}  `, 'n'.repeat(255)],
      ['😀'.repeat(255), '😀'.repeat(255)], // 255 characters, 510 UTF-16 units
    ];
    for (const [given, kept] of cases) {
      const r = await send(`?name=${encodeURIComponent(given)}`);
      expect(r.status, given).toBe(200);
      expect((await stored(r.id)).fileName, given).toBe(kept);
    }
    const everything = JSON.stringify(ndb.prepare('SELECT * FROM petriage_analyses').all());
    for (const folder of ['alice', 'Desktop', 'secretproject', 'mixed']) expect(everything).not.toContain(folder);
  });

  it('refuses a name that is too long, has control characters, is empty or only folders: 400 before the body, never echoed, nothing stored', async () => {
    expect.hasAssertions();
    const before = count();
    const refused = [
      `Zq9${'x'.repeat(253)}`, // 256 characters
      `Zq9${'😀'.repeat(253)}`, // 256 characters, 509 UTF-16 units
      'Zq9\nevil.exe',
      'Zq9\u0000.exe',
      'Zq9\u007f.exe',
      'Zq9\u0085.exe',
      'Zq9\u001b[31m.exe',
      'folder\u0007Zq9/ok.exe',
      '',
      '   ',
      'C:\\Zq9\\',
      '..',
    ];
    for (const name of refused) {
      const r = await send(`?name=${encodeURIComponent(name)}`);
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(errorBodySchema.parse(JSON.parse(r.text)).error.code).toBe('bad_request');
      expect(r.text).not.toContain('Zq9');
      expect(r.text).not.toContain('xxxx');
      expect(r.text).not.toContain('😀');
    }
    const twice = await send('?name=a.exe&name=b.exe');
    expect(twice.status).toBe(400);
    expect(twice.text).not.toContain('a.exe');
    expect(count()).toBe(before);
  });

  it('old rows stay readable: a store written by the previous schema, opened by this version, lists them with fileName null', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-petriage-migrate-'));
    try {
      const file = path.join(dir, 'vitrine.db');
      const old = openStore(file, []);
      migrateTo(old, 'petriage', migrations, 1);
      const result = analyze(sample.bytes, loadModel());
      old.prepare('INSERT INTO petriage_analyses VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run('00000000-0000-4000-8000-00000000000a', result.sha256, result.size, '2024-01-01T00:00:00.000Z', result.verdict, result.score, result.family?.name ?? null, result.model.type, result.model.sha256, JSON.stringify(result));
      old.close();
      const mdb = openStore(file, [petriageService]);
      const m = await listen(createStandaloneApp({ benign, db: mdb }), { port: 0 });
      try {
        const listed = analysisPageSchema.parse(await (await fetch(`${m.url}/api/analyses`)).json());
        expect(listed.items).toEqual([expect.objectContaining({ id: '00000000-0000-4000-8000-00000000000a', fileName: null, sha256: result.sha256 })]);
        const one = storedAnalysisSchema.parse(await (await fetch(`${m.url}/api/analyses/00000000-0000-4000-8000-00000000000a`)).json());
        expect(one.fileName).toBeNull();
        expect(one.result).toEqual(JSON.parse(JSON.stringify(result)));
        const r = await fetch(`${m.url}/api/analyze?name=new.exe`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: sample.bytes });
        expect(r.status).toBe(200);
        const after = analysisPageSchema.parse(await (await fetch(`${m.url}/api/analyses`)).json());
        expect(after.items.map((i) => i.fileName)).toEqual(['new.exe', null]);
      } finally {
        await m.close();
        mdb.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('with --enable-docs', () => {
  it('serves Swagger UI from local files at /docs/; /redoc stays off', async () => {
    const s = await listen(createStandaloneApp({ benign, enableDocs: true }), { port: 0 });
    try {
      const redirect = await fetch(`${s.url}/docs`, { redirect: 'manual' });
      expect(redirect.status).toBe(301);
      const page = await fetch(`${s.url}/docs/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).not.toMatch(/<script>|https?:\/\//);
      for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) expect((await fetch(`${s.url}/docs/${asset}`)).status).toBe(200);
      expect(await (await fetch(`${s.url}/docs/init.js`)).text()).toContain("'openapi.json'");
      // The page's document is the service's one document.
      expect(await (await fetch(`${s.url}/docs/openapi.json`)).json()).toEqual(await (await fetch(`${s.url}/openapi.json`)).json());
      expect((await fetch(`${s.url}/redoc`)).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('configuration', () => {
  it('a model that cannot be loaded makes /health, /api/model and /api/analyze answer 503 without naming the file, as /openapi.json says', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'petriage-http-'));
    const file = path.join(dir, 'model.json');
    writeFileSync(file, '{"format": "something else"}');
    const s = await listen(createStandaloneApp({ benign, modelPath: file }), { port: 0 });
    try {
      const res = await fetch(`${s.url}/health`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(text).not.toContain(dir);
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'unavailable' } });
      const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      for (const [method, route, init] of [['get', '/api/model', {}], ['post', '/api/analyze', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from('MZ') }]] as const) {
        const r = await fetch(`${s.url}${route}`, init);
        expect(r.status, route).toBe(503);
        expect(await r.text()).not.toContain(dir);
        expect(Object.keys(doc.paths[route]![method]!.responses), route).toContain('503');
      }
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a benign directory adds its files to the corpus size', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'petriage-benign-'));
    writeCorpus(dir, benignSamples(3, 9));
    const s = await listen(createStandaloneApp({ benign: { synthetic: { count: 5, seed: 1 }, dir } }), { port: 0 });
    try {
      expect(healthSchema.parse(await (await fetch(`${s.url}/health`)).json()).benignCorpusSize).toBe(8);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the upload gate', () => {
  it('reads and analyses at most two uploads at once; a third waits unread until a slot frees', async () => {
    const pending: { resolve: (v: unknown) => void; size: number }[] = [];
    let callbacks: (() => void)[] = [];
    const changed = (): void => {
      const cbs = callbacks;
      callbacks = [];
      for (const cb of cbs) cb();
    };
    const until = (cond: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => (cond() ? resolve() : void callbacks.push(check));
        check();
      });
    // A runner that holds each job until the test lets it go; it answers with a real result so the route completes.
    const real = triageResultSchema.parse(await (await upload(sample.bytes)).json());
    const runner: JobRunner = {
      run: (_type, payload) =>
        new Promise((resolve) => {
          pending.push({ resolve, size: (payload as { data: Uint8Array }).data.length });
          changed();
        }),
    };
    const waiting: { flowing: boolean | null; complete: boolean }[] = [];
    const s = await listen(
      createStandaloneApp({
        benign,
        jobs: runner,
        onUploadWaiting: (req: Request) => {
          waiting.push({ flowing: req.readableFlowing, complete: req.complete });
          changed();
        },
      }),
      { port: 0 },
    );
    try {
      const send = (n: number) => fetch(`${s.url}/api/analyze`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: sample.bytes.subarray(0, n) });
      const first = send(sample.bytes.length);
      const second = send(sample.bytes.length - 1);
      await until(() => pending.length === 2);
      const third = send(sample.bytes.length - 2);
      await until(() => waiting.length === 1);
      // The third request is queued with its body untouched, and no third job has started.
      expect(waiting[0]).toEqual({ flowing: null, complete: false });
      expect(pending.length).toBe(2);
      pending[0]?.resolve(real);
      expect((await first).status).toBe(200);
      await until(() => pending.length === 3);
      expect(pending[2]?.size).toBe(sample.bytes.length - 2);
      pending[1]?.resolve(real);
      pending[2]?.resolve(real);
      expect((await second).status).toBe(200);
      expect((await third).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('the triage page at GET /', () => {
  it('serves the renderer build with the standalone meta tag, its assets with the page policy; the API stays JSON', async () => {
    const dir = fakeRendererBuild('petriage');
    const s = await listen(createStandaloneApp({ benign, rendererDir: dir }), { port: 0 });
    try {
      await expectServesRendererBuild(s.url, 'petriage');
      expect((await fetch(`${s.url}/health`)).status).toBe(200);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a build, GET / says how to build it (503), never an empty page', async () => {
    expect.hasAssertions();
    const missing = path.join(tmpdir(), 'petriage-no-such-build');
    const s = await listen(createStandaloneApp({ benign, rendererDir: missing }), { port: 0 });
    try {
      await expectNoBuildPage(s.url, missing, ['petriage serve']);
    } finally {
      await s.close();
    }
  });
});

describe('GET /api/analyses?q=: a part of the file name or a SHA-256 start (the History box)', () => {
  const qdb = openMemoryStore([petriageService]);
  let h: Listening;
  const model = loadModel();
  const bad = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
  const good = analyze((benignSamples(1, 4)[0] as { bytes: Uint8Array }).bytes, model);
  const invoice = saveAnalysis(qdb, bad, new Date('2024-01-01T00:00:00Z'), 'Invoice_March 100%.exe');
  const putty = saveAnalysis(qdb, good, new Date('2024-01-02T00:00:00Z'), 'putty.exe');
  const hexName = saveAnalysis(qdb, good, new Date('2024-01-03T00:00:00Z'), `${bad.sha256.slice(0, 6)}.bin`);
  const unnamed = saveAnalysis(qdb, bad, new Date('2024-01-04T00:00:00Z'));
  beforeAll(async () => {
    h = await listen(createStandaloneApp({ benign, db: qdb }), { port: 0 });
  });
  afterAll(async () => {
    await h.close();
    qdb.close();
  });
  const ids = async (query: string): Promise<string[]> => analysisPageSchema.parse(await (await fetch(`${h.url}/api/analyses?${query}`)).json()).items.map((i) => i.id);

  it('matches the name anywhere, ASCII letters in either case, wildcards taken literally; a hex text also matches a SHA-256 start', async () => {
    expect(await ids(`q=${encodeURIComponent('INVOICE')}`)).toEqual([invoice.id]);
    expect(await ids(`q=${encodeURIComponent(' tty.E ')}`)).toEqual([putty.id]);
    expect(await ids(`q=${encodeURIComponent('100%')}`)).toEqual([invoice.id]);
    expect(await ids(`q=${encodeURIComponent('_')}`)).toEqual([invoice.id]);
    expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([invoice.id]);
    // Hex: the rows whose SHA-256 starts with it and the one whose name holds it, newest first; a name is never a hash.
    expect(await ids(`q=${bad.sha256.slice(0, 6).toUpperCase()}`)).toEqual([unnamed.id, hexName.id, invoice.id]);
    expect(await ids('q=exe&verdict=BENIGN')).toEqual([putty.id]);
    expect(await ids('q=nothing-like-it')).toEqual([]);
  });

  it('refuses an empty, long or control-character text with 400, without echoing it', async () => {
    expect.hasAssertions();
    for (const q of ['%20%20', encodeURIComponent(`Zq9${'x'.repeat(260)}`), encodeURIComponent('Zq9\u0007.exe'), 'Zq9&q=b']) {
      const r = await fetch(`${h.url}/api/analyses?q=${q}`);
      const text = await r.text();
      expect(r.status, q).toBe(400);
      expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe('bad_request');
      expect(text).not.toContain('Zq9');
    }
  });
});
