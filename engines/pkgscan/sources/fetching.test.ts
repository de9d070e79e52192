// Mirror GETs against a loopback server: same-origin redirects only (at most 3), size cap while streaming, time limit, 404 as "not held".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorBase, mirrorGet, parseJson } from './fetching.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? '0');
    switch (url.pathname) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ accept: req.headers.accept }));
        return;
      case '/hop':
        if (hops > 0) res.writeHead(302, { location: `/hop?hops=${hops - 1}` }).end();
        else res.writeHead(200).end('arrived');
        return;
      case '/away':
        res.writeHead(301, { location: 'http://other.example/x' }).end();
        return;
      case '/big':
        res.writeHead(200, { 'content-length': '1000' }).end('x'.repeat(1000));
        return;
      case '/stream':
        // No declared length: the cap applies as the body arrives.
        res.writeHead(200);
        for (let i = 0; i < 10; i++) res.write('y'.repeat(100));
        res.end();
        return;
      case '/slow':
        setTimeout(() => res.writeHead(200).end('late'), 2000);
        return;
      case '/error':
        res.writeHead(500).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const opts = { accept: 'application/json', maxBytes: 500, timeoutMs: 5000 };
const u = (p: string): URL => new URL(p, origin);

describe('mirrorGet', () => {
  it('sends the Accept header and gives the bytes and content type', async () => {
    const r = await mirrorGet(u('/ok'), origin, opts);
    expect(r?.contentType).toBe('application/json');
    expect(parseJson(r?.bytes ?? new Uint8Array(), 'x')).toEqual({ accept: 'application/json' });
  });

  it('follows up to 3 same-origin redirects, refuses a 4th and any other host', async () => {
    const r = await mirrorGet(u('/hop?hops=3'), origin, opts);
    expect(new TextDecoder().decode(r?.bytes)).toBe('arrived');
    expect(r?.url.search).toBe('?hops=0');
    await expect(mirrorGet(u('/hop?hops=4'), origin, opts)).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/too many/) });
    await expect(mirrorGet(u('/away'), origin, opts)).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/another host/) });
    await expect(mirrorGet(new URL('http://other.example/x'), origin, opts)).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('caps the size by the declared length and while streaming', async () => {
    await expect(mirrorGet(u('/big'), origin, opts)).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(mirrorGet(u('/stream'), origin, opts)).rejects.toMatchObject({ code: 'payload_too_large' });
    expect((await mirrorGet(u('/stream'), origin, { ...opts, maxBytes: 1000 }))?.bytes.byteLength).toBe(1000);
  });

  it('404 is "not held"; other statuses, time limits, cancellation and unreachable hosts are errors', async () => {
    expect(await mirrorGet(u('/missing'), origin, opts)).toBeNull();
    await expect(mirrorGet(u('/error'), origin, opts)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(mirrorGet(u('/slow'), origin, { ...opts, timeoutMs: 100 })).rejects.toMatchObject({ code: 'timeout' });
    const ac = new AbortController();
    ac.abort();
    await expect(mirrorGet(u('/slow'), origin, { ...opts, signal: ac.signal })).rejects.toMatchObject({ code: 'cancelled' });
    await expect(mirrorGet(new URL('http://127.0.0.1:9/x'), 'http://127.0.0.1:9', opts)).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('parses JSON without quoting it, and normalises base URLs', () => {
    expect(() => parseJson(new TextEncoder().encode('{"a":'), 'packument')).toThrow("the package mirror's packument is not valid JSON");
    expect(mirrorBase('http://m.lab:4873/npm?x=1#y', 'V').href).toBe('http://m.lab:4873/npm/');
  });
});
