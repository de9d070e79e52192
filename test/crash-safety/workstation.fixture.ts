// Helpers of the crash-safety suites: a real workstation on a temporary data folder, requests with its token, and
// the worker processes it runs (to kill one mid-job).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { startWorkstation, type Workstation, type WorkstationOptions } from '../../main/workstation.js';

export { smallDisk } from './small-disk.fixture.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Reply {
  readonly status: number;
  readonly text: string;
  json<T = unknown>(): T;
}

/** A temporary folder (removed by the returned function). */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `vitrine-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A workstation on `dataDir` listening on a free loopback port, one worker per pool. */
export function workstationOn(dataDir: string, options: WorkstationOptions = {}): Promise<Workstation> {
  return startWorkstation({ port: 0, dataDir, rendererDir: path.join(dataDir, 'no-ui'), hostOptions: { size: 1 }, ...options });
}

/**
 * One request with the workstation's token; the body is JSON unless a Buffer or string is given. With `bearer` (a
 * service's own access token, as pkgscan's), that goes as Authorization and the workstation's token as X-Vitrine-Token.
 */
export function request(ws: Server, method: string, pathname: string, body?: unknown, bearer?: string): Promise<Reply> {
  const url = new URL(ws.url);
  const headers: Record<string, string> =
    bearer === undefined ? { Host: url.host, Authorization: `Bearer ${ws.token}` } : { Host: url.host, Authorization: `Bearer ${bearer}`, 'X-Vitrine-Token': ws.token };
  let data: string | Buffer | undefined;
  if (body !== undefined) {
    data = Buffer.isBuffer(body) ? body : JSON.stringify(body);
    headers['Content-Type'] = Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, json: <T>() => JSON.parse(text) as T });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** The error code of an error answer. */
export function errorCode(reply: Reply): string | undefined {
  try {
    return reply.json<{ error?: { code?: string } }>().error?.code;
  } catch {
    return undefined;
  }
}

/** Pids of the engine worker processes (started with `--jobs`) whose parent is `parent` (default this process). */
export function workerPids(parent: number = process.pid): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when nothing matches
  }
  return out
    .split('\n')
    .filter((l) => l.includes('--jobs'))
    .map((l) => Number(l.trim().split(/\s+/)[0]))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** Waits until `test` holds (polling every 20 ms), or throws after `ms`. */
export async function waitFor<T>(what: string, test: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await test();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `PRAGMA integrity_check` of the store file, on a connection of its own. */
export function integrityOf(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string);
  } finally {
    db.close();
  }
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** What `request` needs of a server: its URL and token. */
export interface Server {
  readonly url: string;
  readonly token: string;
}

/** `vitrine serve` as a process of its own (node --import tsx main/headless.ts) on `dataDir`, on a free port. */
export interface ServeProcess extends Server {
  readonly child: ChildProcess;
  readonly pid: number;
  /** SIGKILL, as a crash or a power cut would end it; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean stop); resolves once it is gone. */
  stop(): Promise<void>;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
}

export async function serveProcess(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'main/headless.ts'), 'serve', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, VITRINE_HOME: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await Promise.race([
    waitFor('vitrine serve to listen', () => /Open:\s+(http:\/\/[^/\s#]+)/.exec(out)?.[1], 60_000),
    gone.then(() => {
      throw new Error(`vitrine serve exited: ${err.slice(0, 2000)}`);
    }),
  ]);
  const token = readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
  const end = (signal: NodeJS.Signals) => async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await gone;
  };
  return { child, pid: child.pid as number, url, token, kill: end('SIGKILL'), stop: end('SIGTERM'), output: () => `${out}${err}` };
}
