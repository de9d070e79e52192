// The HTTP contract of `replay serve`: every route, uploads good and bad (422 without echo, 413, 415), stories and their exports, docs from local files.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusWithHost } from '../core/http/host.fixture.js';
import { expectNoBuildPage, expectServesRendererBuild, fakeRendererBuild } from '../core/http/page.fixture.js';
import { listen, type Listening } from '../core/http/server.js';
import { validateStixObject } from '../core/stix.js';
import { corpusFile, pcapCorpusAvailable } from './capture/capture.fixture.js';
import { createStandaloneApp } from './http.js';
import { corpusConnLog } from './replay.fixture.js';
import { intrusionPcap } from './intrusion.js';
import { analysisSchema, errorBodySchema, healthSchema, pageOf, storySchema, storySummarySchema } from './schemas.js';

const LIMIT = 512 * 1024;
const uploadDir = mkdtempSync(path.join(tmpdir(), 'replay-http-'));
let server: Listening;

beforeAll(async () => {
  server = await listen(createStandaloneApp({ maxUploadBytes: LIMIT, uploadDir }), { port: 0 });
});
afterAll(async () => {
  await server.close();
  rmSync(uploadDir, { recursive: true, force: true });
});

const url = (p: string): string => `${server.url}${p}`;
const upload = (p: string, body: Uint8Array | string, type = 'application/octet-stream') => fetch(url(p), { method: 'POST', headers: { 'content-type': type }, body });

async function expectError(res: Response, status: number, code: string, secret?: string): Promise<void> {
  expect(res.status).toBe(status);
  const text = await res.text();
  const body = errorBodySchema.parse(JSON.parse(text));
  expect(body.error.code).toBe(code);
  if (secret !== undefined) expect(text).not.toContain(secret);
}

describe('replay HTTP API', () => {
  let storyId = '';

  it('GET /api/health: status ok, the rules, the indicator list, limits', async () => {
    const body = healthSchema.parse(await (await fetch(url('/api/health'))).json());
    expect(body.status).toBe('ok');
    expect(body.rules.map((r) => r.name)).toContain('ssh_guessing');
    expect(body.indicators).toMatchObject({ count: 2, problems: 0 });
    expect(body.limits.max_upload_bytes).toBe(LIMIT);
  });

  it('POST /api/demo?benign=N: the analysis of the synthetic intrusion, stored; its story is listed', async () => {
    const res = await fetch(url('/api/demo?benign=30'), { method: 'POST' });
    expect(res.status).toBe(200);
    const analysis = analysisSchema.parse(await res.json());
    expect(res.headers.get('x-analysis-id')).toBe(analysis.id);
    expect(analysis.demo?.benign_flows).toBe(30);
    expect(analysis.stories).toHaveLength(1);
    storyId = analysis.stories[0]?.id ?? '';
    const list = pageOf(storySummarySchema).parse(await (await fetch(url('/api/stories'))).json());
    expect(list.items.map((s) => s.id)).toContain(storyId);
    const one = pageOf(storySummarySchema).parse(await (await fetch(url(`/api/stories?analysis=${analysis.id}&limit=1`))).json());
    expect(one).toMatchObject({ total: 1, limit: 1 });
    for (const bad of ['benign=-1', 'benign=50001', 'benign=ten', 'seed=x']) expect((await fetch(url(`/api/demo?${bad}`), { method: 'POST' })).status, bad).toBe(400);
    expect((await fetch(url('/api/stories?analysis=not-a-uuid'))).status).toBe(400);
  });

  it('GET /api/stories/{id} and its STIX, Mermaid and Cypher exports', async () => {
    const story = storySchema.parse(await (await fetch(url(`/api/stories/${storyId}`))).json());
    expect(story.stages).toEqual(['recon', 'access', 'movement', 'action']);
    expect(story.analysis_stats.stories).toBe(1);
    const stix = await fetch(url(`/api/stories/${storyId}/stix`));
    expect(stix.headers.get('content-type')).toContain('application/stix+json');
    expect(validateStixObject(await stix.json())).toEqual([]);
    const mermaid = await fetch(url(`/api/stories/${storyId}/mermaid`));
    expect(mermaid.headers.get('content-type')).toContain('text/plain');
    expect((await mermaid.text()).startsWith('sequenceDiagram\n')).toBe(true);
    const cypher = await (await fetch(url(`/api/stories/${storyId}/cypher`))).text();
    expect(cypher).toContain('MERGE (n:ReplayStory');
    for (const suffix of ['', '/stix', '/mermaid', '/cypher']) {
      await expectError(await fetch(url(`/api/stories/00000000-0000-4000-8000-000000000000${suffix}`)), 404, 'not_found');
      await expectError(await fetch(url(`/api/stories/Zq9-no${suffix}`)), 404, 'not_found', 'Zq9');
    }
  });

  it.skipIf(!pcapCorpusAvailable())('POST /api/analyze with a pcap and a pcapng file; format=pcap refuses a pcapng', async () => {
    const ssh = await upload('/api/analyze?name=sshguess.pcap&format=pcap', readFileSync(corpusFile('sshguess.pcap')));
    expect(ssh.status).toBe(200);
    const a = analysisSchema.parse(await ssh.json());
    expect(a).toMatchObject({ name: 'sshguess.pcap', source: 'upload', capture: { format: 'pcap' } });
    expect(a.stories[0]?.alerts[0]?.rule).toBe('ssh_guessing');
    const dvwa = analysisSchema.parse(await (await upload('/api/analyze?name=dir/dvwa.pcapng', readFileSync(corpusFile('cooper-grill-dvwa.pcapng')))).json());
    expect(dvwa.name).toBe('dvwa.pcapng');
    expect(dvwa.capture.format).toBe('pcapng');
    await expectError(await upload('/api/analyze?format=pcap', readFileSync(corpusFile('cooper-grill-dvwa.pcapng'))), 422, 'parse_error');
  });

  it.skipIf(!pcapCorpusAvailable())('POST /api/analyze?format=zeek takes a conn.log (TSV as text/plain, JSON lines); zeek refuses a pcap and pcap a conn.log', async () => {
    const tsv = await corpusConnLog('sshguess.pcap', 'tsv');
    const res = await upload('/api/analyze?name=conn.log&format=zeek', tsv, 'text/plain');
    expect(res.status).toBe(200);
    const a = analysisSchema.parse(await res.json());
    expect(a).toMatchObject({ name: 'conn.log', capture: { format: 'zeek_conn', connections: 11 } });
    expect(a.alerts.map((x) => x.rule)).toEqual(['ssh_guessing']);
    expect(a.capture.rule_coverage?.some((c) => c.rule === 'ftp_bruteforce' && c.coverage === 'none')).toBe(true);
    const json = analysisSchema.parse(await (await upload('/api/analyze?name=conn.json', await corpusConnLog('sshguess.pcap', 'json'), 'application/x-ndjson')).json());
    expect(json.capture.format).toBe('zeek_conn');
    expect(json.stories).toHaveLength(1);
    await expectError(await upload('/api/analyze?format=zeek', readFileSync(corpusFile('sshguess.pcap'))), 422, 'parse_error');
    await expectError(await upload('/api/analyze?format=pcap', tsv, 'text/plain'), 422, 'parse_error');
  });

  it('bad uploads: not a capture 422, too large 413 (declared or streamed), wrong type 415, bad query 400; nothing echoed, nothing left behind', async () => {
    const secret = 'Zq9-secret-bytes';
    await expectError(await upload('/api/analyze?name=x.pcap', `${secret} but not a capture`), 422, 'parse_error', secret);
    await expectError(await upload('/api/analyze', new Uint8Array(0)), 422, 'parse_error');
    // A truncated pcap header is still not a capture.
    await expectError(await upload('/api/analyze', Uint8Array.of(0xd4, 0xc3, 0xb2)), 422, 'parse_error');
    const big = intrusionPcap({ benign: 200 }).bytes;
    expect(big.length).toBeGreaterThan(LIMIT);
    await expectError(await upload('/api/analyze', big), 413, 'payload_too_large');
    // Without a length: a chunked stream that crosses the limit mid-way.
    const chunks = [big.subarray(0, 100_000), big.subarray(100_000, 700_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const chunked = await fetch(url('/api/analyze'), { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: stream, duplex: 'half' } as RequestInit);
    await expectError(chunked, 413, 'payload_too_large');
    await expectError(await upload('/api/analyze', 'a', 'image/png'), 415, 'unsupported_media_type');
    await expectError(await fetch(url('/api/analyze'), { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: 'x' }), 415, 'unsupported_media_type');
    await expectError(await upload('/api/analyze?format=zip', 'x'), 400, 'bad_request');
    await expectError(await upload(`/api/analyze?name=${encodeURIComponent(`${secret}\u0001`)}`, 'x'), 400, 'bad_request', secret);
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('GET /docs/: Swagger UI from local files and the generated OpenAPI document naming every route', async () => {
    const redirect = await fetch(url('/docs'), { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    const page = await fetch(url('/docs/'));
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    expect((await fetch(url('/docs/swagger-ui-bundle.js'))).status).toBe(200);
    const doc = (await (await fetch(url('/docs/openapi.json'))).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      ['/', '/api/health', '/api/stories', '/api/demo', '/api/analyze', '/api/stories/{id}', '/api/stories/{id}/stix', '/api/stories/{id}/mermaid', '/api/stories/{id}/cypher', '/api/analyses', '/api/analyses/{id}', '/api/analyses/{id}/alerts', '/api/analyses/{id}/flows'].sort(),
    );
  });

  it('unknown routes and foreign Host headers get the error shape', async () => {
    await expectError(await fetch(url('/api/nothing')), 404, 'not_found');
    // fetch will not set Host; node:http will.
    const status = await statusWithHost(`http://127.0.0.1:${server.port}/api/health`, 'evil.example');
    expect(status).toBe(403);
  });
});

describe('the replay UI at GET /', () => {
  it('serves the renderer build with the standalone meta tag for replay, its assets under the renderer policy; the API stays JSON', async () => {
    const dir = fakeRendererBuild('replay');
    const s = await listen(createStandaloneApp({ maxUploadBytes: LIMIT, uploadDir, rendererDir: dir }), { port: 0 });
    try {
      // The hand-written page's files are gone with it.
      await expectServesRendererBuild(s.url, 'replay', ['/ui/app.js', '/ui/app.css']);
      expect(healthSchema.parse(await (await fetch(`${s.url}/api/health`)).json()).service).toBe('replay');
      expect((await fetch(`${s.url}/docs/openapi.json`)).status).toBe(200);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a build, GET / says how to build it (503) and which routes work, never naming the folder', async () => {
    const missing = path.join(tmpdir(), 'replay-no-such-build');
    const s = await listen(createStandaloneApp({ maxUploadBytes: LIMIT, uploadDir, rendererDir: missing }), { port: 0 });
    try {
      await expectNoBuildPage(s.url, missing, ['replay serve', 'POST /api/demo']);
      expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
