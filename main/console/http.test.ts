// /api/console on its own: start a run, read its event stream to the exit, signal it, refusals in the house error
// shape, a closed server hanging up its runs; and the completion catalogue read from the real command lines' help.
import type http from 'node:http';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { errorHandler } from '../../engines/core/http/index.js';
import { createGateway } from '../gateway/gateway.js';
import { idleHost } from '../host/idle-host.fixture.js';
import { consoleCatalogue, parseHelp } from './commands.js';
import { createConsole, type ConsoleRouter } from './http.js';

let tmp: string;
let fixture: string;

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'vitrine-console-http-')));
  fixture = path.join(tmp, 'fixture.mjs');
  writeFileSync(
    fixture,
    `const [mode] = process.argv.slice(2);
if (mode === 'wait') { process.on('SIGINT', () => { process.stdout.write('bye\\n'); process.exit(130); }); process.stdout.write('waiting\\n'); setInterval(() => {}, 1000); }
else { process.stdout.write('hello ' + process.argv.slice(3).join('|') + '\\n'); }`,
  );
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function serve(): Promise<{ base: string; server: http.Server; console: ConsoleRouter }> {
  const c = createConsole({ dataDir: tmp, launch: (_n, args) => ({ command: process.execPath, args: [fixture, ...args] }), killGraceMs: 200, catalogue: async () => [] });
  const app = express();
  app.use('/api/console', c.router);
  app.use(errorHandler());
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/console`, server, console: c };
}

async function close(s: { server: http.Server; console: ConsoleRouter }): Promise<void> {
  s.server.closeAllConnections();
  await new Promise((r) => s.server.close(r));
  await s.console.runs.close();
}

const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Reads the event stream until `until` holds for the text so far (or the stream ends). */
async function readStream(url: string, until: (text: string) => boolean = () => false): Promise<{ text: string; abort: () => void }> {
  const ac = new AbortController();
  const res = await fetch(url, { signal: ac.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (until(text)) break;
  }
  return { text, abort: () => ac.abort() };
}

describe('/api/console', () => {
  it('runs an argv and streams its output and exit as server-sent events', async () => {
    const s = await serve();
    try {
      const res = await post(`${s.base}/runs`, { argv: ['forensic', 'a b', '"c"'], cols: 80, rows: 24 });
      expect(res.status).toBe(201);
      const run = (await res.json()) as { id: string; state: string; argv: string[] };
      expect(run.argv).toEqual(['forensic', 'a b', '"c"']);
      const { text } = await readStream(`${s.base}/runs/${run.id}/stream`);
      expect(text).toContain(`event: out\ndata: ${JSON.stringify('hello "c"\n')}`);
      expect(text).toContain('event: exit\ndata: {"code":0,"signal":null,"truncated":false,"cancelled":false}');
      const info = (await (await fetch(`${s.base}/runs/${run.id}`)).json()) as { state: string };
      expect(info.state).toBe('exited');
      const again = await post(`${s.base}/runs/${run.id}/signal`, { signal: 'SIGINT' });
      expect(again.status).toBe(409);
    } finally {
      await close(s);
    }
  });

  it('signals a running command (Ctrl-C) and the stream ends with the exit', async () => {
    const s = await serve();
    try {
      const run = (await (await post(`${s.base}/runs`, { argv: ['forensic', 'wait'] })).json()) as { id: string };
      const ac = new AbortController();
      const res = await fetch(`${s.base}/runs/${run.id}/stream`, { signal: ac.signal });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('waiting')) text += decoder.decode((await reader.read()).value, { stream: true });
      const sig = await post(`${s.base}/runs/${run.id}/signal`, { signal: 'SIGINT' });
      expect(sig.status).toBe(200);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      expect(text).toContain('bye');
      expect(text).toMatch(/event: exit\ndata: \{"code":130,"signal":null,"truncated":false,"cancelled":true\}/);
    } finally {
      await close(s);
    }
  });

  it('refuses a bad argv, an unknown executable, a cwd outside, a bad id, a bad signal', async () => {
    const s = await serve();
    try {
      const codes = async (r: Promise<Response>): Promise<[number, string, string]> => {
        const res = await r;
        const body = (await res.json()) as { error: { code: string; message: string } };
        return [res.status, body.error.code, body.error.message];
      };
      expect((await codes(post(`${s.base}/runs`, { argv: 'forensic --help' })))[0]).toBe(422);
      expect((await codes(post(`${s.base}/runs`, { argv: [] })))[0]).toBe(422);
      expect((await codes(post(`${s.base}/runs`, { argv: ['forensic'], shell: true })))[0]).toBe(422);
      const [status, code, message] = await codes(post(`${s.base}/runs`, { argv: ['bash', '-c', 'id'] }));
      expect([status, code]).toEqual([400, 'bad_request']);
      expect(message).not.toContain('bash');
      const cwd = await codes(post(`${s.base}/runs`, { argv: ['forensic'], cwd: '/etc' }));
      expect(cwd.slice(0, 2)).toEqual([403, 'forbidden']);
      expect(cwd[2]).not.toContain('/etc');
      expect((await codes(fetch(`${s.base}/runs/not-an-id/stream`)))[0]).toBe(404);
      expect((await codes(fetch(`${s.base}/runs/00000000-0000-4000-8000-000000000000`)))[0]).toBe(404);
      const run = (await (await post(`${s.base}/runs`, { argv: ['forensic', 'wait'] })).json()) as { id: string };
      const stream = readStream(`${s.base}/runs/${run.id}/stream`, (t) => t.includes('exit'));
      expect((await codes(post(`${s.base}/runs/${run.id}/signal`, { signal: 'SIGTERM' })))[0]).toBe(422);
      await post(`${s.base}/runs/${run.id}/signal`, { signal: 'SIGKILL' });
      expect((await stream).text).toContain('"signal":"SIGKILL"');
    } finally {
      await close(s);
    }
  });

  it('cd: resolves a folder inside the data folder, refuses one outside', async () => {
    const s = await serve();
    try {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(path.join(tmp, 'cases', 'a'), { recursive: true });
      const cd = async (body: unknown): Promise<[number, { cwd?: string }]> => {
        const res = await post(`${s.base}/cwd`, body);
        return [res.status, (await res.json()) as { cwd?: string }];
      };
      expect(await cd({ to: 'cases' })).toEqual([200, { cwd: path.join(tmp, 'cases') }]);
      expect(await cd({ from: path.join(tmp, 'cases'), to: 'a' })).toEqual([200, { cwd: path.join(tmp, 'cases', 'a') }]);
      expect(await cd({ from: path.join(tmp, 'cases', 'a'), to: '~' })).toEqual([200, { cwd: tmp }]);
      expect(await cd({ from: path.join(tmp, 'cases'), to: '..' })).toEqual([200, { cwd: tmp }]);
      expect((await cd({ to: '..' }))[0]).toBe(403);
      expect((await cd({ to: '/' }))[0]).toBe(403);
      expect((await cd({ from: '/', to: '.' }))[0]).toBe(403);
    } finally {
      await close(s);
    }
  });

  it('closing the server hangs up the runs it streams', async () => {
    const s = await serve();
    const run = (await (await post(`${s.base}/runs`, { argv: ['forensic', 'wait'] })).json()) as { id: string };
    const seen = await readStream(`${s.base}/runs/${run.id}/stream`, (t) => t.includes('waiting'));
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
    const exit = await s.console.runs.exited(run.id);
    expect(exit?.cancelled).toBe(true);
    seen.abort();
    await s.console.runs.close();
  });
});

describe('behind the gateway', () => {
  it('every console route needs the token', async () => {
    const host = idleHost();
    const db = new Database(':memory:');
    const token = 't'.repeat(40);
    const app = createGateway({ host, services: [], db, dataDir: tmp, resourcesDir: tmp, token, version: '0.0.0' });
    const server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/console`;
      const headers = { 'Content-Type': 'application/json' };
      const body = JSON.stringify({ argv: ['forensic', '--version'] });
      expect((await fetch(`${base}/commands`)).status).toBe(401);
      expect((await fetch(`${base}/runs`, { method: 'POST', headers, body })).status).toBe(401);
      expect((await fetch(`${base}/runs`, { method: 'POST', headers: { ...headers, Authorization: 'Bearer wrong' }, body })).status).toBe(401);
      const ok = await fetch(`${base}/runs`, { headers: { Authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-security-policy')).toContain("default-src 'none'");
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      db.close();
    }
  });
});

describe('completion catalogue', () => {
  it('parses a usage table: commands, subcommands, options with their descriptions', () => {
    const help = `tool 1.0: does things

Usage:
  tool [--kb KB.json] <command>
  tool analyze PATH [--kind K] [--format md|json]
                   [--out FILE]
      Analyses PATH.
      --kind        what PATH is
  tool keys list [--json]
  tool keys add KEY
  tool demo                     runs a demo
  tool --version | --help

Exit codes: 0 ok.`;
    const t = parseHelp('tool', help);
    expect(t.summary).toBe('does things');
    expect(t.options.map((o) => o.name)).toEqual(['--help', '--kb', '--version']);
    expect(t.commands.map((c) => c.name)).toEqual(['analyze', 'keys', 'demo']);
    const analyze = t.commands[0]!;
    expect(analyze.options.map((o) => o.name)).toEqual(['--format', '--kind', '--out']);
    expect(analyze.options.find((o) => o.name === '--kind')?.description).toBe('what PATH is');
    expect(analyze.summary).toBe('Analyses PATH.');
    expect(t.commands[1]!.subcommands).toEqual(['list', 'add']);
    expect(t.commands[2]).toMatchObject({ subcommands: [], summary: 'runs a demo' });
  });

  it("reads every command line's own help", async () => {
    const all = await consoleCatalogue();
    expect(all.map((e) => e.name)).toEqual(['caseassess', 'petriage', 'replay', 'provgate', 'attrib', 'pkgscan', 'forensic', 'flowdet']);
    for (const e of all) expect(e.commands.length).toBeGreaterThan(0);
    const forensic = all.find((e) => e.name === 'forensic')!;
    expect(forensic.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['analyze', 'scenarios', 'demo', 'verify']));
    expect(forensic.commands.find((c) => c.name === 'analyze')!.options.map((o) => o.name)).toEqual(expect.arrayContaining(['--format', '--ledger', '--evidence-root']));
    expect(all.find((e) => e.name === 'pkgscan')!.commands.find((c) => c.name === 'advisories')!.subcommands).toEqual(['import', 'status', 'lookup']);
    expect(all.find((e) => e.name === 'attrib')!.options.map((o) => o.name)).toContain('--kb');
    // petriage answers `<command> --help` with its own text: its options come from there too.
    expect(all.find((e) => e.name === 'petriage')!.commands.find((c) => c.name === 'analyze')!.options.map((o) => o.name)).toContain('--model');
  });
});
