// HTTP contract of the workstation gateway, against the real thing started in-process (startWorkstation) with a temporary VITRINE_HOME.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHealth, JobInfo } from '../../engines/core/contracts/gateway.js';
import { RENDERER_CSP } from '../../main/gateway/csp.js';
import { startWorkstation, type Workstation } from '../../main/headless.js';
import { services as composed } from '../../main/services.js';
import { WORKER_JOBS_MODULE } from '../fixtures/worker-jobs.js';

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  json(): unknown;
}

let home: string;
let ui: string;
let ws: Workstation;
let port: number;
const previousHome = process.env['VITRINE_HOME'];

/** One request with full control over headers (fetch will not send a foreign Host). */
function request(
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; token?: string | null } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, ...options.headers };
  const token = options.token === undefined ? ws.token : options.token;
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

function expectErrorShape(reply: Reply, code: string): void {
  const body = reply.json() as { error: { code: string; message: string; request_id: string } };
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.request_id).toBe(reply.headers['x-request-id']);
}

function expectNoCors(reply: Reply): void {
  expect(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
}

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-gateway-'));
  ui = path.join(home, 'ui');
  mkdirSync(path.join(ui, 'assets'), { recursive: true });
  writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Vitrine</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(path.join(ui, 'assets', 'app.js'), 'console.log("ui");');
  process.env['VITRINE_HOME'] = path.join(home, 'data');
  ws = await startWorkstation({ port: 0, rendererDir: ui, extraJobModules: [WORKER_JOBS_MODULE], hostOptions: { size: 1 } });
  port = Number(new URL(ws.url).port);
}, 60_000);

afterAll(async () => {
  await ws?.close();
  if (previousHome === undefined) delete process.env['VITRINE_HOME'];
  else process.env['VITRINE_HOME'] = previousHome;
  rmSync(home, { recursive: true, force: true });
});

describe('gateway', () => {
  it('listens on 127.0.0.1 and keeps its data in VITRINE_HOME', () => {
    expect(ws.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ws.dataDir).toBe(path.join(home, 'data'));
  });

  it('answers /api/health without a token', async () => {
    const reply = await request('GET', '/api/health', { token: null });
    expect(reply.status).toBe(200);
    const health = reply.json() as GatewayHealth;
    expect(health.status).toBe('ok');
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof health.uptime_s).toBe('number');
    expect(health.services).toContainEqual({ name: 'caseassess', title: 'Case assessment', workspace: 'Assessment', base: '/svc/caseassess' });
    expect(health.workers).toMatchObject({ size: 1, queued: 0 });
  });

  it.each(['/api/jobs', '/api/services', '/api/events', '/svc/caseassess/health', '/svc/caseassess/assessments'])(
    'refuses %s without a token or with a wrong one (401, error shape, token not echoed)',
    async (route) => {
      const none = await request('GET', route, { token: null });
      expect(none.status).toBe(401);
      expectErrorShape(none, 'unauthorized');
      const wrongToken = `${ws.token.slice(0, -4)}AAAA` === ws.token ? `${ws.token.slice(0, -4)}BBBB` : `${ws.token.slice(0, -4)}AAAA`;
      const wrong = await request('GET', route, { token: wrongToken });
      expect(wrong.status).toBe(401);
      expectErrorShape(wrong, 'unauthorized');
      expect(wrong.text).not.toContain(wrongToken);
      const basic = await request('GET', route, { token: null, headers: { Authorization: `Basic ${ws.token}` } });
      expect(basic.status).toBe(401);
    },
  );

  it('serves a service static /docs without a token, but nothing else under /svc (pkgscan /redoc only with it)', async () => {
    const page = await request('GET', '/svc/caseassess/docs/', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const spec = await request('GET', '/svc/caseassess/docs/openapi.json', { token: null });
    expect(spec.status).toBe(200);
    // pkgscan's reference page needs the token like every other /svc route but /docs.
    expect((await request('GET', '/svc/pkgscan/redoc')).status).toBe(200);
    for (const [method, route] of [
      ['GET', '/svc/pkgscan/redoc'],
      ['GET', '/svc/pkgscan/redoc/x'],
      ['GET', '/svc/pkgscan/redocx'],
      ['POST', '/svc/caseassess/docs/'],
      ['GET', '/svc/caseassess/docs/../assessments'],
      ['GET', '/svc/caseassess/docsx'],
      ['GET', '/svc/caseassess/actors'],
    ] as const) {
      expect((await request(method, route, { token: null })).status, `${method} ${route}`).toBe(401);
    }
  });

  it('serves /api/services, /api/jobs and a service router with the token', async () => {
    const services = await request('GET', '/api/services');
    expect(services.status).toBe(200);
    const names = composed.map((c) => c.descriptor.name);
    expect(names).toEqual(expect.arrayContaining(['caseassess', 'petriage', 'replay', 'provgate', 'attrib', 'pkgscan', 'forensic']));
    const listed = services.json() as { items: { name: string; base: string }[]; total: number };
    expect(listed.items.map((i) => i.name)).toEqual(names);
    expect(listed.items.map((i) => i.base)).toEqual(names.map((n) => `/svc/${n}`));
    expect(listed.total).toBe(names.length);
    for (const name of names) {
      // Each service keeps its spec's health path: /health, /api/health (replay), /healthz (provgate) or /api/v1/health/live (pkgscan).
      let health = await request('GET', `/svc/${name}/health`);
      if (health.status === 404) health = await request('GET', `/svc/${name}/api/health`);
      if (health.status === 404) health = await request('GET', `/svc/${name}/healthz`);
      if (health.status === 404) health = await request('GET', `/svc/${name}/api/v1/health/live`);
      expect(health.status, name).toBe(200);
    }
    const jobs = await request('GET', '/api/jobs?limit=5');
    expect(jobs.status).toBe(200);
    expect(jobs.json()).toMatchObject({ limit: 5, offset: 0 });
    const svc = await request('GET', '/svc/caseassess/health');
    expect(svc.status).toBe(200);
    expect(svc.json()).toMatchObject({ status: 'ok', service: 'caseassess' });
  });

  it('runs a real assessment through the gateway in a worker process and reports the job', async () => {
    const kase = { case_id: 'gateway-contract', title: 'Mail server intrusion', techniques: ['T1059.001', 'T1566.001', 'T1078'].map((id, i) => ({ evidence_id: `T${i + 1}`, id })) };
    const reply = await request('POST', '/svc/caseassess/assess', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(kase) });
    expect(reply.status).toBe(200);
    expect(reply.json()).toMatchObject({ leading: { rank: 1 } });
    const jobs = (await request('GET', '/api/jobs')).json() as { items: JobInfo[] };
    // The status bar names the case by its title where it has one.
    expect(jobs.items.find((j) => j.type === 'caseassess.assess')).toMatchObject({ service: 'caseassess', state: 'succeeded', label: 'Case Mail server intrusion' });
    const invalid = await request('POST', '/svc/caseassess/assess', { headers: { 'Content-Type': 'application/json' }, body: '{"case_id": 7}' });
    expect(invalid.status).toBe(422);
    expectErrorShape(invalid, 'validation_failed');
  });

  it('refuses a foreign Host header with 403, token or not (DNS rebinding)', async () => {
    for (const route of ['/api/health', '/api/jobs', '/svc/caseassess/health', '/']) {
      const reply = await request('GET', route, { headers: { Host: `evil.example:${port}` } });
      expect(reply.status).toBe(403);
      expectErrorShape(reply, 'forbidden');
      expect(reply.text).not.toContain('evil');
    }
    expect((await request('GET', '/api/health', { headers: { Host: `localhost:${port}` } })).status).toBe(200);
  });

  it('echoes a well-formed X-Request-ID and replaces a malformed one', async () => {
    const good = await request('GET', '/api/health', { headers: { 'X-Request-ID': 'req-12345678' } });
    expect(good.headers['x-request-id']).toBe('req-12345678');
    const bad = await request('GET', '/api/jobs', { token: null, headers: { 'X-Request-ID': 'no good<script>' } });
    expect(bad.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    expect(bad.headers['x-request-id']).not.toBe('no good<script>');
    expect(bad.text).not.toContain('<script>');
  });

  it('answers unknown /api and /svc paths with a JSON 404', async () => {
    expect.hasAssertions();
    for (const route of ['/api/nothing', '/svc/nothing/here', '/svc/caseassess/nothing']) {
      const reply = await request('GET', route);
      expect(reply.status).toBe(404);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expectErrorShape(reply, 'not_found');
    }
  });

  it('never sends CORS headers, also not on preflight requests', async () => {
    expect.hasAssertions();
    const origin = { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' };
    const replies = await Promise.all([
      request('GET', '/api/health', { headers: origin, token: null }),
      request('GET', '/api/jobs', { headers: origin }),
      request('OPTIONS', '/api/jobs', { headers: origin, token: null }),
      request('OPTIONS', '/api/jobs', { headers: origin }),
      request('OPTIONS', '/svc/caseassess/assess', { headers: origin }),
      request('OPTIONS', '/api/health', { headers: origin, token: null }),
      request('OPTIONS', '/', { headers: origin, token: null }),
    ]);
    for (const reply of replies) expectNoCors(reply);
  });

  it('sends the security headers and a no-content CSP on API answers', async () => {
    const reply = await request('GET', '/api/health');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['content-security-policy']).toContain("default-src 'none'");
    expect(reply.headers['x-powered-by']).toBeUndefined();
  });

  it('serves the UI without a token, with the strict CSP, and index.html for client-side routes', async () => {
    const index = await request('GET', '/', { token: null });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['content-security-policy']).toBe(RENDERER_CSP);
    expect(index.text).toContain('<title>Vitrine</title>');
    const asset = await request('GET', '/assets/app.js', { token: null });
    expect(asset.status).toBe(200);
    expect(asset.text).toContain('console.log');
    const deep = await request('GET', '/workspace/assessment', { token: null });
    expect(deep.status).toBe(200);
    expect(deep.text).toContain('<title>Vitrine</title>');
    const missingAsset = await request('POST', '/workspace', { token: null });
    expect(missingAsset.status).toBe(404);
    const traversal = await request('GET', '/../data/token', { token: null });
    expect(traversal.text).not.toContain(ws.token);
  });

  it('keeps the token in a 0600 file in a 0700 data dir', () => {
    if (process.platform === 'win32') return;
    expect(statSync(ws.tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(ws.dataDir).mode & 0o777).toBe(0o700);
  });

  it('answers a body over the service limit with 413, and one over the gateway ceiling before reading it', async () => {
    const huge = JSON.stringify({ case_id: 'x', padding: 'a'.repeat(5 * 1024 * 1024) });
    const over = await request('POST', '/svc/caseassess/assess', { headers: { 'Content-Type': 'application/json' }, body: huge });
    expect(over.status).toBe(413);
    expectErrorShape(over, 'payload_too_large');
    // Declares 600 MB and sends nothing: the gateway must not wait for it.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/svc/caseassess/assess',
          headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${ws.token}`, 'Content-Type': 'application/json', 'Content-Length': String(600 * 1024 * 1024) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(declared).toBe(413);
  });

  it('streams job events over SSE while a job runs, and lets a job be cancelled over HTTP', async () => {
    const frames: string[] = [];
    let buffer = '';
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${ws.token}` } },
        resolve,
      );
      req.on('error', reject);
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expectNoCors({ status: 200, headers: stream.headers, text: '', json: () => null });
    const waiters: { match: (job: JobInfo) => boolean; resolve: (job: JobInfo) => void }[] = [];
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        frames.push(frame);
        const lines = frame.split('\n');
        if (!lines.includes('event: job')) continue;
        const data = lines.find((l) => l.startsWith('data: '));
        if (data === undefined) continue;
        const job = JSON.parse(data.slice('data: '.length)) as JobInfo;
        for (const w of waiters.splice(0)) {
          if (w.match(job)) w.resolve(job);
          else waiters.push(w);
        }
      }
    });
    const next = (match: (job: JobInfo) => boolean): Promise<JobInfo> => new Promise((resolve) => waiters.push({ match, resolve }));

    const progressed = next((j) => j.type === 'test.progress' && j.state === 'running' && j.fraction === 0.5);
    const done = next((j) => j.type === 'test.progress' && j.state === 'succeeded');
    const value = ws.host.run('test.progress', null, { label: 'sse fixture' });
    const seen = await progressed;
    expect(seen).toMatchObject({ service: 'test', label: 'sse fixture', message: 'half way' });
    expect(await value).toBe('finished');
    expect((await done).fraction).toBe(1);

    const running = next((j) => j.type === 'test.block' && j.state === 'running');
    const blocked = ws.host.run('test.block', null);
    const outcome = blocked.catch((err: unknown) => err);
    const job = await running;
    const cancelledEvent = next((j) => j.id === job.id && j.state === 'cancelled');
    const cancel = await request('POST', `/api/jobs/${job.id}/cancel`, { headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(cancel.status).toBe(200);
    expect(cancel.json()).toMatchObject({ id: job.id, state: 'cancelled' });
    expect(await outcome).toMatchObject({ code: 'cancelled' });
    await cancelledEvent;
    const again = await request('POST', `/api/jobs/${job.id}/cancel`);
    expect(again.status).toBe(409);
    expectErrorShape(again, 'conflict');
    const unknown = await request('POST', '/api/jobs/00000000-0000-4000-8000-000000000000/cancel');
    expect(unknown.status).toBe(404);
    const malformed = await request('POST', '/api/jobs/not-a-job/cancel');
    expect(malformed.status).toBe(404);
    const listed = (await request('GET', '/api/jobs')).json() as { items: JobInfo[] };
    expect(listed.items.find((j) => j.id === job.id)?.state).toBe('cancelled');

    stream.destroy();
    // A job after the client left must not trip over the closed stream.
    await expect(ws.host.run('test.echo', 'after')).resolves.toBe('after');
    expect(frames[0]).toContain('retry:');
  });
});
