// The renderer build as the gateway serves it: precompressed twins chosen by Accept-Encoding with the right headers,
// hashed assets cached for good, index.html revalidated and served for client routes, nothing outside the build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idleHost } from '../host/idle-host.fixture.js';
import { createGateway } from './gateway.js';
import { acceptedEncodings } from './static.js';

const TOKEN = 'static-test-token-0123456789abcdef0';
const host = idleHost();
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const INDEX = '<!doctype html><html><head><script type="module" src="./assets/app-Ab12.js"></script></head><body></body></html>';

let dir: string;
let outside: string;
let server: http.Server;
let base: string;

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A raw request (no automatic decompression, unlike fetch), so the test sees the bytes on the wire. */
function get(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const top = mkdtempSync(path.join(os.tmpdir(), 'vitrine-static-'));
  dir = path.join(top, 'renderer');
  outside = path.join(top, 'secret.txt');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(outside, 'not part of the build');
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, '.hidden'), 'dotfile');
  writeFileSync(path.join(dir, 'assets', 'app-Ab12.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'app-Ab12.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'app-Ab12.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'only-gz-Cd34.css'), 'body{margin:0}'.repeat(50));
  writeFileSync(path.join(dir, 'assets', 'only-gz-Cd34.css.gz'), gzipSync('body{margin:0}'.repeat(50)));
  const app = createGateway({ host, db: new BetterSqlite3(':memory:'), dataDir: '', resourcesDir: '', token: TOKEN, version: 'test', services: [], rendererDir: dir });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe('the renderer build over HTTP', () => {
  it('sends the brotli twin to a browser that accepts it, with its encoding, type, Vary and an immutable cache', async () => {
    const r = await get('/assets/app-Ab12.js', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(r.body).toString()).toBe(SCRIPT);
    expect(r.headers['content-security-policy']).toBeDefined();
  });

  it('falls back to gzip, then to the plain file, as the request allows and the build holds', async () => {
    const gz = await get('/assets/app-Ab12.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    const refused = await get('/assets/app-Ab12.js', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    const plain = await get('/assets/app-Ab12.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    const onlyGz = await get('/assets/only-gz-Cd34.css', { 'Accept-Encoding': 'br, gzip' });
    expect(onlyGz.headers['content-encoding']).toBe('gzip');
    expect(onlyGz.headers['content-type']).toBe('text/css; charset=utf-8');
    // The ETag differs by encoding, so a cache never answers one encoding's request with the other's bytes.
    expect(gz.headers['etag']).not.toBe(plain.headers['etag']);
  });

  it('revalidates index.html and other unhashed files, and answers a matching ETag with 304', async () => {
    const index = await get('/', { 'Accept-Encoding': 'br' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body.toString()).toBe(INDEX);
    const icon = await get('/favicon.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
    const again = await get('/assets/app-Ab12.js', { 'Accept-Encoding': 'br', 'If-None-Match': String((await get('/assets/app-Ab12.js', { 'Accept-Encoding': 'br' })).headers['etag']) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/assets/app-Ab12.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it('serves index.html for client routes and never a file outside the build or a dotfile', async () => {
    const route = await get('/some/client/route');
    expect(route.status).toBe(200);
    expect(route.body.toString()).toBe(INDEX);
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/.hidden', '/assets/%00x.js', '/%E0%A4%A']) {
      const r = await get(p);
      expect(r.body.toString(), p).not.toContain('not part of the build');
      expect(r.body.toString(), p).not.toContain('dotfile');
    }
    const post = await get('/assets/app-Ab12.js', {}, 'POST');
    expect(post.status).toBe(404);
  });
});

describe('acceptedEncodings', () => {
  it('reads tokens, ignores case and spaces, and drops the ones with q=0', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedEncodings(' BR;q=0.5 , gzip;q=0')]).toEqual(['br']);
    expect(acceptedEncodings(undefined).size).toBe(0);
    expect(acceptedEncodings('').size).toBe(0);
  });
});
