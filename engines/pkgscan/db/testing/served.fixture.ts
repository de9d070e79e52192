// `pkgscan serve` in a process of its own (the test child's `serve` command), for the concurrency test and the
// pkgscan-db bench: its API address once it listens, and stop() that ends it and reports its queued-audit failures.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, 'child.fixture.ts');
const ROOT = path.resolve(here, '..', '..', '..', '..');

/** The admin a `serve ... admin` child makes (the bench signs in with it; a second server finds it made). */
export const SERVED_ADMIN = { email: 'served@example.org', password: 'correct horse battery staple' } as const;

export interface Served {
  readonly api: string;
  /** Closes its stdin; resolves when it has exited, with its last line. */
  stop(): Promise<{ queuedFailures: number }>;
}

/** Starts a server on `url` (`-`: its own SQLite store); with `admin`, it makes SERVED_ADMIN (child.fixture.ts) if missing. */
export function serveChild(url: string, admin = false): Promise<Served> {
  return new Promise((resolve, reject) => {
    const p: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, 'serve', url, ...(admin ? ['admin'] : [])], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let started = false;
    const closed = new Promise<{ queuedFailures: number }>((done, fail) => {
      p.on('close', (code) => {
        if (code !== 0) fail(new Error(`serve exited ${String(code)}: ${err.slice(0, 2000)}`));
        else done(JSON.parse(out.trim().split('\n').pop() ?? 'null') as { queuedFailures: number });
      });
    });
    closed.catch((e: unknown) => {
      if (!started) reject(e as Error);
    });
    p.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    p.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const first = out.split('\n')[0];
      if (!started && out.includes('\n') && first !== undefined) {
        started = true;
        resolve({
          api: (JSON.parse(first) as { api: string }).api,
          stop: () => {
            p.stdin?.end();
            return closed;
          },
        });
      }
    });
  });
}

/** One call to a served API. */
export function req(api: string, method: string, route: string, token?: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${api}${route}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}
