// The gateway's token rule for service pages: only /svc/<name>/docs is open to a browser visit; /redoc and the rest need the token.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idleHost } from '../host/idle-host.fixture.js';
import { createGateway } from './gateway.js';

const TOKEN = 'gateway-test-token-0123456789abcdef';
const host = idleHost();

let server: http.Server;
let base: string;

beforeAll(async () => {
  const db = new BetterSqlite3(':memory:');
  const app = createGateway({
    host,
    db,
    dataDir: '',
    resourcesDir: '',
    token: TOKEN,
    version: 'test',
    services: [
      {
        descriptor: { name: 'demo', title: 'Demo', workspace: 'Demo', migrations: [], jobs: {} },
        createRouter: () => {
          const r = express.Router();
          r.get('/docs/', (_req, res) => res.send('docs page'));
          r.get('/redoc', (_req, res) => res.send('redoc page'));
          r.get('/openapi.json', (_req, res) => res.json({ openapi: '3.1.0' }));
          return r;
        },
      },
    ],
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('service pages and the gateway token', () => {
  it('serves /svc/<name>/docs/ without the token, and /redoc and the API only with it', async () => {
    expect((await fetch(`${base}/svc/demo/docs/`)).status).toBe(200);
    expect((await fetch(`${base}/svc/demo/redoc`)).status).toBe(401);
    expect((await fetch(`${base}/svc/demo/openapi.json`)).status).toBe(401);
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect(await (await fetch(`${base}/svc/demo/redoc`, { headers: auth })).text()).toBe('redoc page');
  });
});
