// Tests for the HTTP conventions on a real Express app bound to an ephemeral loopback port.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VitrineError } from '../errors.js';
import {
  REQUEST_ID_HEADER,
  errorHandler,
  jsonBody,
  notFound,
  page,
  pageOf,
  parseBody,
  parsePagination,
  parseQuery,
  requestId,
  route,
} from './index.js';
import { hostAllowList, hostName, isLoopbackHost, requireBearer, secretsEqual, securityHeaders } from './security.js';
import { HEADERS_TIMEOUT_MS, listen, MAX_CONNECTIONS, serveUntilSignal, type Listening } from './server.js';

const TOKEN = 'tok-0123456789abcdef';
const SECRET = 'SECRET-VALUE-123';
const GENERATED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: { path: string; issue: string }[] };
}

function buildApp(): express.Express {
  const app = express();
  app.use(requestId());
  app.use(securityHeaders());
  app.use(hostAllowList());
  app.use(requireBearer(TOKEN, ['/health']));
  app.use(jsonBody(1024));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // What a mounted service would see of the credentials.
  app.get('/seen', (req, res) => {
    res.json({ authorization: req.headers.authorization ?? null, alternate: req.headers['x-vitrine-token'] ?? null });
  });
  const items = Array.from({ length: 120 }, (_, i) => ({ n: i }));
  app.get('/items', (req, res) => {
    res.json(pageOf(items, parsePagination(req)));
  });
  app.get('/count', (req, res) => {
    const p = parsePagination(req);
    res.json(page([], 7, p));
  });
  app.get(
    '/search',
    route((req, res) => {
      const q = parseQuery(z.object({ q: z.string().min(2) }), req);
      res.json({ q: q.q });
    }),
  );
  app.post(
    '/echo',
    route(async (req, res) => {
      await Promise.resolve();
      const body = parseBody(z.strictObject({ name: z.string().max(8), n: z.number() }), req, 'echo');
      res.json(body);
    }),
  );
  app.get(
    '/teapot',
    route(() => {
      throw new VitrineError('conflict', 'already running');
    }),
  );
  app.get(
    '/crash',
    route(() => {
      throw new Error(`leaked ${SECRET} at /home/alice`);
    }),
  );
  // Failures of the machine, as the drivers throw them: an errno, a SQLite code, a PostgreSQL SQLSTATE.
  for (const code of ['ENOSPC', 'SQLITE_FULL', '53100', 'SQLITE_BUSY', '57P03']) {
    app.get(
      `/storage/${code}`,
      route(() => {
        throw Object.assign(new Error(`${code}: ${SECRET} at /home/alice/store`), { code });
      }),
    );
  }
  app.use(notFound());
  app.use(errorHandler());
  return app;
}

let server: Listening;
const auth = { Authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  server = await listen(buildApp());
});
afterAll(async () => {
  await server.close();
});

/** A request with full control of headers (fetch will not send a foreign Host header). */
function rawRequest(path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function errorOf(res: Response): Promise<ErrorBody['error']> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as ErrorBody;
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.request_id).toBe(res.headers.get(REQUEST_ID_HEADER));
  return body.error;
}

describe('listen', () => {
  it('binds 127.0.0.1 on an ephemeral port by default', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    // A cap on open connections and a deadline for request headers (5,000 half-open connections were all accepted).
    expect(server.server.maxConnections).toBe(MAX_CONNECTIONS);
    expect(server.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('refuses a non-loopback host without allowRemote, before binding anything', async () => {
    const app = express();
    await expect(listen(app, { host: '0.0.0.0' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listen(app, { host: '192.168.1.10' })).rejects.toBeInstanceOf(VitrineError);
    await expect(listen(app, { host: '::' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('binds any loopback form', async () => {
    const other = await listen(express(), { host: 'localhost' });
    try {
      expect(isLoopbackHost(other.host)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('rejects when the port is taken', async () => {
    await expect(listen(express(), { port: server.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('request ids', () => {
  it('accepts a well-formed X-Request-ID and echoes it', async () => {
    const res = await fetch(`${server.url}/health`, { headers: { [REQUEST_ID_HEADER]: 'abc.DEF_123-x' } });
    expect(res.status).toBe(200);
    expect(res.headers.get(REQUEST_ID_HEADER)).toBe('abc.DEF_123-x');
  });

  it('generates one when absent', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.headers.get(REQUEST_ID_HEADER)).toMatch(GENERATED_ID);
  });

  it('replaces ids that are too short, too long or carry other characters', async () => {
    for (const bad of ['short', 'x'.repeat(65), 'abc def ghi', 'abcdefgh/../', 'abcdefgh;drop', `${SECRET}<x>`]) {
      const res = await fetch(`${server.url}/health`, { headers: { [REQUEST_ID_HEADER]: bad } });
      const echoed = res.headers.get(REQUEST_ID_HEADER);
      expect(echoed).toMatch(GENERATED_ID);
      expect(echoed).not.toBe(bad);
    }
    const edge = await fetch(`${server.url}/health`, { headers: { [REQUEST_ID_HEADER]: 'y'.repeat(64) } });
    expect(edge.headers.get(REQUEST_ID_HEADER)).toBe('y'.repeat(64));
    const eight = await fetch(`${server.url}/health`, { headers: { [REQUEST_ID_HEADER]: '12345678' } });
    expect(eight.headers.get(REQUEST_ID_HEADER)).toBe('12345678');
  });

  it('is echoed on errors too, in the header and the body', async () => {
    const res = await fetch(`${server.url}/nowhere`, { headers: { ...auth, [REQUEST_ID_HEADER]: 'req-00000001' } });
    expect(res.status).toBe(404);
    expect(res.headers.get(REQUEST_ID_HEADER)).toBe('req-00000001');
    expect(await errorOf(res)).toEqual({ code: 'not_found', message: 'no such route', request_id: 'req-00000001' });
  });
});

describe('errors', () => {
  it('sends a VitrineError with its status', async () => {
    const res = await fetch(`${server.url}/teapot`, { headers: auth });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: 'conflict', message: 'already running' });
  });

  it('hides unknown errors behind a generic 500', async () => {
    const res = await fetch(`${server.url}/crash`, { headers: auth });
    expect(res.status).toBe(500);
    const text = await res.clone().text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('alice');
    expect(await errorOf(res)).toMatchObject({ code: 'internal', message: 'internal error' });
  });

  it('answers storage failures with the status of their code (507, 503) and a fixed message', async () => {
    const expected: Record<string, [number, string]> = { ENOSPC: [507, 'insufficient_storage'], SQLITE_FULL: [507, 'insufficient_storage'], '53100': [507, 'insufficient_storage'], SQLITE_BUSY: [503, 'unavailable'], '57P03': [503, 'unavailable'] };
    for (const [code, [status, name]] of Object.entries(expected)) {
      const res = await fetch(`${server.url}/storage/${code}`, { headers: auth });
      expect(res.status, code).toBe(status);
      const text = await res.clone().text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('alice');
      expect((await errorOf(res)).code).toBe(name);
    }
  });

  it('sets the security headers and no CORS header on every response', async () => {
    expect.hasAssertions();
    for (const path of ['/health', '/nowhere']) {
      const res = await fetch(`${server.url}${path}`, { headers: { ...auth, Origin: 'http://evil.example' } });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('JSON bodies', () => {
  const post = (body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }): Promise<Response> =>
    fetch(`${server.url}/echo`, { method: 'POST', headers: { ...auth, ...headers }, body });

  it('parses and validates a good body', async () => {
    const res = await post(JSON.stringify({ name: 'ok', n: 3 }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'ok', n: 3 });
    const vendor = await post(JSON.stringify({ name: 'ok', n: 1 }), { 'Content-Type': 'application/vnd.api+json; charset=utf-8' });
    expect(vendor.status).toBe(200);
  });

  it('answers 422 with field paths and without the value', async () => {
    const res = await post(JSON.stringify({ name: SECRET, n: SECRET }));
    expect(res.status).toBe(422);
    const text = await res.clone().text();
    expect(text).not.toContain(SECRET);
    const err = await errorOf(res);
    expect(err.code).toBe('validation_failed');
    expect(err.details?.map((d) => d.path).sort()).toEqual(['n', 'name']);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await post(JSON.stringify({ name: 'x', n: 1, pad: 'p'.repeat(2000) }));
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers 400 for malformed JSON without quoting it', async () => {
    const res = await post(`{"name": "${SECRET}",`);
    expect(res.status).toBe(400);
    expect(await res.clone().text()).not.toContain(SECRET);
    expect(await errorOf(res)).toMatchObject({ code: 'bad_request', message: 'request body is not valid JSON' });
  });

  it('answers 415 for a body that is not JSON', async () => {
    expect.hasAssertions();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post('name=x', { 'Content-Type': type });
      expect(res.status).toBe(415);
      expect(await errorOf(res)).toMatchObject({ code: 'unsupported_media_type' });
    }
  });

  it('answers 415 for a body without a content type', async () => {
    const res = await rawRequest('/echo', { ...auth, Host: `127.0.0.1:${server.port}`, 'Content-Length': '2' }, 'POST', '{}');
    expect(res.status).toBe(415);
  });

  it('answers 415 for an unsupported charset', async () => {
    const res = await post('{}', { 'Content-Type': 'application/json; charset=koi8-r' });
    expect(res.status).toBe(415);
  });

  it('lets GET requests without a body through', async () => {
    const res = await fetch(`${server.url}/items`, { headers: auth });
    expect(res.status).toBe(200);
  });
});

describe('pagination', () => {
  interface ItemsPage {
    items: { n: number }[];
    total: number;
    limit: number;
    offset: number;
  }
  const get = async (query: string): Promise<Response> => fetch(`${server.url}/items${query}`, { headers: auth });

  it('defaults to limit 50, offset 0', async () => {
    const body = (await (await get('')).json()) as ItemsPage;
    expect(Object.keys(body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
    expect(body).toMatchObject({ total: 120, limit: 50, offset: 0 });
    expect(body.items).toHaveLength(50);
    expect(body.items[0]).toEqual({ n: 0 });
  });

  it('pages with limit and offset, and past the end', async () => {
    const body = (await (await get('?limit=10&offset=115')).json()) as ItemsPage;
    expect(body).toMatchObject({ total: 120, limit: 10, offset: 115 });
    expect(body.items.map((i) => i.n)).toEqual([115, 116, 117, 118, 119]);
    const past = (await (await get('?offset=500')).json()) as ItemsPage;
    expect(past.items).toEqual([]);
    expect(past.total).toBe(120);
  });

  it('accepts limit 500 and refuses anything out of bounds with 400', async () => {
    expect((await get('?limit=500')).status).toBe(200);
    for (const q of ['?limit=501', '?limit=0', '?limit=-1', '?offset=-1', '?limit=abc', '?limit=1.5', `?limit=${SECRET}`]) {
      const res = await get(q);
      expect(res.status).toBe(400);
      expect(await res.clone().text()).not.toContain(SECRET);
      const err = await errorOf(res);
      expect(err.code).toBe('bad_request');
      expect(err.details?.[0]?.path).toMatch(/^(limit|offset)$/);
    }
  });

  it('builds the same shape for database-backed pages', async () => {
    const res = await fetch(`${server.url}/count?limit=3&offset=6`, { headers: auth });
    expect(await res.json()).toEqual({ items: [], total: 7, limit: 3, offset: 6 });
  });

  it('validates other query strings with 400', async () => {
    expect((await fetch(`${server.url}/search?q=ab`, { headers: auth })).status).toBe(200);
    const res = await fetch(`${server.url}/search?q=a`, { headers: auth });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details).toEqual([{ path: 'q', issue: 'must be at least 2 characters' }]);
  });
});

describe('host allow-list', () => {
  it('rejects a foreign Host header with 403 in the error shape', async () => {
    const res = await rawRequest('/health', { Host: 'evil.example', [REQUEST_ID_HEADER]: 'rebind-0001' });
    expect(res.status).toBe(403);
    expect(res.headers['x-request-id']).toBe('rebind-0001');
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'forbidden', message: 'host not allowed', request_id: 'rebind-0001' } });
    expect(res.body).not.toContain('evil');
  });

  it('rejects look-alikes and accepts loopback names with any port', async () => {
    expect.hasAssertions();
    for (const host of ['evil.example:80', 'localhost.evil.example', '127.0.0.1.nip.io', 'evil.example:127.0.0.1', '127.0.0.1:80@evil.com', '127.0.0.1:evil.com', '[::1]evil.com', 'localhost:99999', 'localhost:']) {
      expect((await rawRequest('/health', { Host: host })).status).toBe(403);
    }
    for (const host of ['localhost', `localhost:${server.port}`, `127.0.0.1:${server.port}`, 'LOCALHOST', '[::1]:8080']) {
      expect((await rawRequest('/health', { Host: host })).status).toBe(200);
    }
  });

  it('refuses a request with two Host headers, even when both are loopback names', async () => {
    const raw = (hosts: string[]): Promise<string> =>
      new Promise((resolve, reject) => {
        const sock = connect(server.port, '127.0.0.1', () => sock.end(`GET /health HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`));
        let out = '';
        sock.on('data', (c: Buffer) => (out += c.toString('latin1')));
        sock.on('end', () => resolve(out.split('\r\n')[0] ?? ''));
        sock.on('error', reject);
      });
    expect(await raw(['localhost', 'evil.example'])).toMatch(/^HTTP\/1\.1 (400|403)/);
    expect(await raw(['127.0.0.1', 'localhost'])).toMatch(/^HTTP\/1\.1 (400|403)/);
    expect(await raw(['localhost'])).toMatch(/^HTTP\/1\.1 200/);
  });

  it('reads host names from Host headers', () => {
    expect(hostName('LocalHost:8080')).toBe('localhost');
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostName('[::1')).toBeUndefined();
    expect(hostName('127.0.0.1:80@evil.com')).toBeUndefined();
    expect(hostName('[::1]evil.com')).toBeUndefined();
    expect(hostName(' 127.0.0.1 ')).toBe('127.0.0.1');
    expect(isLoopbackHost('127.1.2.3')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
  });
});

/** Writes a raw HTTP/1.1 request on a socket and resolves with the status of the first response line. */
function rawLine(request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
  });
}

describe('request lines and declared lengths', () => {
  it('refuses an absolute-form request line naming another host', async () => {
    expect(await rawLine(`GET http://evil.example/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).toBe(403);
    expect(await rawLine(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).toBe(200);
  });

  it('answers a declared Content-Length over the limit with 413 at once, without waiting for the body', async () => {
    expect(await rawLine(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n{`)).toBe(413);
  });
});

describe('bearer token', () => {
  it('reads the scheme name case-insensitively', async () => {
    expect((await fetch(`${server.url}/items`, { headers: { Authorization: `bearer ${TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/items`, { headers: { Authorization: `BEARER ${TOKEN}` } })).status).toBe(200);
  });

  it('answers 401 without a token, with a wrong one, and with another scheme', async () => {
    expect.hasAssertions();
    const cases: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer wrong' },
      { Authorization: `Bearer ${TOKEN}x` },
      { Authorization: `Basic ${TOKEN}` },
      { Authorization: TOKEN },
    ];
    for (const headers of cases) {
      const res = await fetch(`${server.url}/items`, { headers });
      expect(res.status).toBe(401);
      const text = await res.clone().text();
      expect(text).not.toContain(TOKEN);
      expect(await errorOf(res)).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('checks the token before reading the body', async () => {
    const res = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(401);
  });

  it('lets exempt paths through and accepts the right token', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/items`, { headers: auth })).status).toBe(200);
    // Exemption is by exact path: a lookalike is not exempt.
    expect((await fetch(`${server.url}/health/x`)).status).toBe(401);
  });

  it('accepts the token as X-Vitrine-Token, judges by it alone, and passes Authorization through untouched', async () => {
    const viaHeader = await fetch(`${server.url}/seen`, { headers: { 'X-Vitrine-Token': TOKEN, Authorization: 'Bearer user-jwt' } });
    expect(viaHeader.status).toBe(200);
    expect(await viaHeader.json()).toEqual({ authorization: 'Bearer user-jwt', alternate: null });
    // A wrong X-Vitrine-Token fails even beside a right Authorization: one credential decides.
    const mixed = await fetch(`${server.url}/seen`, { headers: { 'X-Vitrine-Token': 'wrong', Authorization: `Bearer ${TOKEN}` } });
    expect(mixed.status).toBe(401);
  });

  it('never hands the checked token to the route behind it', async () => {
    const res = await fetch(`${server.url}/seen`, { headers: auth });
    expect(await res.json()).toEqual({ authorization: null, alternate: null });
  });

  it('compares secrets exactly', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('', '')).toBe(true);
  });
});

describe('serveUntilSignal', () => {
  const base = { tool: 'x', version: '0', port: 0, allowRemote: false, createApp: () => express() };

  it('refuses a non-loopback host without --allow-remote, saying whether the API has authentication', async () => {
    await expect(serveUntilSignal({ ...base, host: '192.0.2.1' })).rejects.toThrow(/needs --allow-remote \(the API has no authentication\)$/);
    const refused = serveUntilSignal({ ...base, host: '192.0.2.1', authenticated: true });
    await expect(refused).rejects.toThrow(/needs --allow-remote$/);
  });

  it('refuses a host that is not a name or address before anything else', async () => {
    await expect(serveUntilSignal({ ...base, host: 'a b' })).rejects.toThrow(/not a host name/);
  });
});
