// Every route of every service, as the workstation serves it, against hostile requests: path parameters that are not
// ids (bad percent-encoding, traversal, 3,000 characters, `constructor`), queries with wrong types, arrays, objects and
// Object.prototype member names as words and as keys (query keys, header names), and bodies that are not what the route
// reads (wrong JSON types, invalid JSON, deep nesting, prototype keys and values, prototype names as member names of the
// maps routes read, bytes). Each answer is a client error or a result, never a 5xx other than 503, never the submitted
// text or a server path in an error, never no answer; no prototype is polluted and the gateway still answers afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedService } from '../../main/gateway/gateway.js';
import { startWorkstation, type Workstation } from '../../main/headless.js';
import { services } from '../../main/services.js';
import { REPO_ROOT } from '../corpora.js';

const MARK = 'Zq9sweep';

interface Layer {
  readonly route?: { readonly path: string; readonly methods: Record<string, boolean> };
  readonly handle?: { readonly stack?: readonly Layer[] };
  readonly rawPath?: string;
}

/** Method and path pattern of every route under a router, nested routers included. */
function routesOf(stack: readonly Layer[], prefix: string, out: [string, string][]): [string, string][] {
  for (const l of stack) {
    if (l.route !== undefined) for (const m of Object.keys(l.route.methods)) out.push([m.toUpperCase(), `${prefix}${l.route.path}`]);
    else if (l.handle?.stack !== undefined) routesOf(l.handle.stack, prefix + (l.rawPath ?? ''), out);
  }
  return out;
}

const PARAMS = [MARK, '%ZZ', '%E2%82', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(3000), '-1', 'constructor'];
const QUERIES = ['', `?limit=-1&offset=${MARK}&page=0&q=%ZZ&x[]=1&x[y]=2`, `?limit=1e309&offset=-5&sort=__proto__&q=${'('.repeat(500)}&severity=${MARK}`,
  // Names of Object.prototype members where a route looks a word up in a table.
  '?format=constructor&kind=toString&type=constructor&ecosystem=hasOwnProperty&level=valueOf&status=constructor&severity=toString&sort=constructor&scope=__proto__&view=constructor'];
/** Object.prototype member names as query KEYS (bracketed, as qs-style parsers nest them) and as header names: sent once a route. */
const PROTOTYPE_QUERY = `?__proto__[polluted]=${MARK}&constructor[prototype][polluted2]=1&__proto__=x&toString=1&hasOwnProperty=constructor`;
const PROTOTYPE_HEADERS: readonly [string, string][] = [['__proto__', MARK], ['constructor', 'toString'], ['hasOwnProperty', '1']];
const nested = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
const BODIES: readonly [string | Buffer, string][] = [
  ['{}', 'application/json'],
  ['[]', 'application/json'],
  ['null', 'application/json'],
  [`"${MARK}"`, 'application/json'],
  ['1e400', 'application/json'],
  [`{"__proto__":{"polluted":"${MARK}"},"constructor":{"prototype":{"polluted2":1}}}`, 'application/json'],
  [`{"${MARK}":`, 'application/json'],
  [`{"a":${nested}}`, 'application/json'],
  [`{"name":{"${MARK}":1},"id":[1],"text":{"x":1},"flows":"${MARK}","limit":-1,"items":{"a":1},"url":"file:///etc/passwd","path":"/etc/passwd","bytes":"${MARK}"}`, 'application/json'],
  ['{"type":"constructor","kind":"toString","format":"constructor","stage":"__proto__","ecosystem":"constructor","level":"toString","scenario":"constructor","status":"valueOf","severity":"constructor"}', 'application/json'],
  // Object.prototype member names as member NAMES inside the objects routes read as maps (flows, files, ratings,
  // attributes, events ...) and as ids where a route keys a map by them.
  [
    JSON.stringify(JSON.parse(`{"flows":[{"__proto__":{"Flow Duration":1},"constructor":1,"toString":"x"}],"files":{"__proto__":"x","constructor":"y","package.json":${JSON.stringify('{"name":"p","version":"1.0.0","dependencies":{"__proto__":"1","constructor":"2"}}')}},"ratings":{"__proto__":"C","constructor":"I"},"attributes":{"__proto__":{"polluted":"${MARK}"},"constructor":"c"},"labels":{"__proto__":"x","toString":"y"},"evidence":[{"id":"constructor","summary":"s","ratings":{"__proto__":"C","toString":"CC"}}],"hypotheses":[{"id":"constructor","title":"t"},{"id":"__proto__","title":"t"},{"id":"toString","title":"t"}],"events":[{"__proto__":{"polluted":"${MARK}"},"constructor":"x","hasOwnProperty":1}],"environment":{"__proto__":"x"},"qualifiers":{"__proto__":"x"}}`)),
    'application/json',
  ],
  [Buffer.from([0, 1, 2, 255, 254, 0x1f, 0x8b, 8, 0]), 'application/octet-stream'],
  [`${MARK}\u0000\u00ff`, 'text/plain'],
];

let home: string;
let ws: Workstation;
let port: number;
const routers = new Map<string, Router>();
const previous = { home: process.env['VITRINE_HOME'], root: process.env['VITRINE_EVIDENCE_ROOT'] };

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-sweep-'));
  process.env['VITRINE_HOME'] = path.join(home, 'data');
  process.env['VITRINE_EVIDENCE_ROOT'] = home;
  const capturing: ComposedService[] = services.map((s) => ({
    descriptor: s.descriptor,
    createRouter: (ctx) => {
      const r = s.createRouter(ctx);
      routers.set(s.descriptor.name, r);
      return r;
    },
  }));
  ws = await startWorkstation({ port: 0, services: capturing, hostOptions: { size: 1 } });
  port = Number(new URL(ws.url).port);
}, 60_000);

afterAll(async () => {
  await ws?.close();
  for (const [k, v] of [['VITRINE_HOME', previous.home], ['VITRINE_EVIDENCE_ROOT', previous.root]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(home, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly text: string;
}

function send(method: string, pathname: string, body?: readonly [string | Buffer, string], extraHeaders: readonly [string, string][] = []): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${ws.token}` };
    if (body !== undefined) headers['Content-Type'] = body[1];
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: -1, text: 'no answer within 60 s' });
    });
    req.on('error', (e) => resolve({ status: -1, text: e.message }));
    // setHeader keeps names in a map of its own: `__proto__` is sent as a header, not set as a prototype.
    for (const [name, value] of extraHeaders) req.setHeader(name, value);
    req.end(body?.[0]);
  });
}

describe('every route against hostile requests', () => {
  it('answers each with a client error or a result, never a server error, an echo or silence', async () => {
    const routes = [...routers].flatMap(([name, r]) => routesOf((r as unknown as { stack: Layer[] }).stack, `/svc/${name}`, []));
    // Every service's routes were found (the walk reads the routers' stacks).
    expect(new Set(routes.map(([, p]) => p.split('/')[2])).size).toBe(services.length);
    expect(routes.length).toBeGreaterThan(150);
    const problems: string[] = [];
    let sent = 0;
    for (const [method, pattern] of routes) {
      const paths = /[:*]/.test(pattern) ? PARAMS.map((v) => pattern.replace(/[:*]\w+/g, v)) : [pattern];
      const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
      for (const p of paths) {
        for (const q of p === paths[0] ? [...QUERIES, PROTOTYPE_QUERY] : QUERIES) {
          for (const body of withBody ? (q === '' && p === paths[0] ? BODIES : BODIES.slice(0, 1)) : [undefined]) {
            sent++;
            const a = await send(method, p + q, body, q === PROTOTYPE_QUERY ? PROTOTYPE_HEADERS : []);
            const what = `${method} ${pattern} (${p === pattern ? '' : 'param, '}query ${q === PROTOTYPE_QUERY ? 'prototype keys' : QUERIES.indexOf(q)}${body ? `, body ${BODIES.indexOf(body)}` : ''})`;
            if (a.status < 0) problems.push(`${what}: ${a.text}`);
            else if (a.status >= 500 && a.status !== 503) problems.push(`${what}: ${a.status} ${a.text.slice(0, 120)}`);
            else if (a.status >= 400 && a.text.includes(MARK)) problems.push(`${what}: ${a.status} echoes the request`);
            else if (a.status >= 400 && (a.text.includes(home) || a.text.includes(REPO_ROOT))) problems.push(`${what}: ${a.status} shows a server path`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(routes.length);
    expect(problems).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted2']).toBeUndefined();
    expect((await send('GET', '/api/health')).status).toBe(200);
  }, 600_000);
});
