// The pkgscan team server on a real PostgreSQL server that cannot take a write or a connection: its disk full (a
// tablespace on a small tmpfs) answers 507 insufficient_storage, a server that is down, shutting down or out of
// connections 503 unavailable, as the SQLite store answers; never 500, and never a path, socket or connection string.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeError } from '../../engines/core/errors.js';
import { closeSharedDatabases, MigratingDb } from '../../engines/pkgscan/db/open.js';
import { PgDb, sqlState } from '../../engines/pkgscan/db/postgres.js';
import { createUser, loginAs, startServer, type TestServer } from '../../engines/pkgscan/server.fixture.js';
import { smallDisk } from '../crash-safety/small-disk.fixture.js';
import { SKIP_POSTGRES, SKIP_POSTGRES_REASON, startCluster, type Cluster } from './cluster.js';

interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}

/** The server's first failure to `fn` (a real error object from a real server). */
async function failure(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

/** Mounted while the file is collected, removed by the file's own afterAll; undefined where this process may not mount. */
const disk = SKIP_POSTGRES ? undefined : smallDisk(48 * 1024);

describe.skipIf(SKIP_POSTGRES)(`pkgscan on a PostgreSQL server that cannot serve${SKIP_POSTGRES ? ` (skipped: ${SKIP_POSTGRES_REASON})` : ''}`, () => {
  let cluster: Cluster;
  const closers: (() => Promise<void>)[] = [];

  /** A migrated empty database (in `tablespace` when given) and a pkgscan server on it with a signed-in admin. */
  async function serverOn(name: string, tablespace?: string): Promise<{ server: TestServer; token: string; url: string }> {
    await cluster.sql(`CREATE DATABASE "${name}"${tablespace === undefined ? '' : ` TABLESPACE "${tablespace}"`}`);
    const url = cluster.url(name);
    const db = new MigratingDb(new PgDb({ url, max: 2 }));
    await db.migrate();
    await db.close();
    const server = await startServer({ databaseUrl: url });
    closers.push(() => server.close());
    await createUser(server, 'admin', `admin@${name}.example.org`);
    const session = await loginAs(server, `admin@${name}.example.org`);
    return { server, token: session.token, url };
  }

  const call = (s: TestServer, token: string, method: string, route: string, body?: unknown): Promise<Response> =>
    fetch(`${s.api}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  /** The status and code of an error answer, after checking it names no path, socket or connection string. */
  async function answer(r: Response, secrets: readonly string[]): Promise<{ status: number; code: string }> {
    const text = await r.text();
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toMatch(/postgres:\/\/|\.s\.PGSQL|pg_tblspc|No space left on device/);
    return { status: r.status, code: (JSON.parse(text) as ErrorBody).error.code };
  }

  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await closeSharedDatabases();
    cluster?.stop();
    disk?.remove();
  }, 120_000);

  it.runIf(disk !== undefined)('a full disk under a tablespace: 507 insufficient_storage, what was stored is kept, and it stores again once there is room', async () => {
    const d = disk!;
    cluster.giveToServer(d.dir);
    await cluster.sql(`CREATE TABLESPACE small LOCATION '${d.dir}'`);
    const { server, token, url } = await serverOn('full_disk', 'small');
    const create = (name: string): Promise<Response> => call(server, token, 'POST', '/projects', { name });
    expect((await create('before-full')).status).toBe(201);
    const listed = async (): Promise<string[]> => ((await (await call(server, token, 'GET', '/projects')).json()) as { items: { name: string }[] }).items.map((p) => p.name);
    d.fill();
    try {
      // Each new project adds rows and index entries; some of them need a page the disk cannot give.
      let full: Response | undefined;
      for (let i = 0; i < 200 && full === undefined; i++) {
        const r = await create(`while-full-${i}`);
        if (r.status !== 201) full = r;
      }
      expect(full).toBeDefined();
      expect(await answer(full!, [d.dir, url, cluster.dir])).toEqual({ status: 507, code: 'insufficient_storage' });
      expect(await listed()).toContain('before-full');
      expect((await listed()).filter((n) => n.startsWith('while-full-')).length).toBeLessThan(200);
    } finally {
      d.free();
    }
    const after = await create('after-full');
    expect(after.status).toBe(201);
    expect(await listed()).toEqual(expect.arrayContaining(['before-full', 'after-full']));
  }, 120_000);

  it('a role over its connection limit (too_many_connections, 53300): unavailable, from the real server error', async () => {
    await cluster.sql('CREATE ROLE capped LOGIN CONNECTION LIMIT 0');
    const db = new PgDb({ url: cluster.url('postgres', 'capped'), max: 1 });
    try {
      const err = await failure(() => db.get('SELECT 1'));
      expect(sqlState(err)).toBe('53300');
      const wire = serializeError(err);
      expect(wire.code).toBe('unavailable');
      expect(wire.message).not.toContain(cluster.dir);
    } finally {
      await db.close();
    }
  });

  it('a server shutting down (cannot_connect_now, 57P03): unavailable, from the real server error; a stopped server: unavailable; back once it is up', async () => {
    const { server, token, url } = await serverOn('stopping');
    expect((await call(server, token, 'GET', '/projects')).status).toBe(200);
    // A smart shutdown waits for the open sessions (this one) and refuses every new connection meanwhile.
    const held = new PgDb({ url: cluster.url('postgres'), max: 1 });
    await held.get('SELECT 1');
    const client = await held.pool.connect();
    cluster.halt('smart', false);
    const fresh = new PgDb({ url, max: 1 });
    try {
      const err = await failure(() => fresh.get('SELECT 1'));
      expect(sqlState(err)).toBe('57P03');
      expect(serializeError(err).code).toBe('unavailable');
    } finally {
      client.release();
      await held.close();
    }
    // The server is down (its socket gone): every request of the running pkgscan server is 503, never 500.
    cluster.halt('fast', true);
    const down = await call(server, token, 'GET', '/projects');
    expect(await answer(down, [url, cluster.dir])).toEqual({ status: 503, code: 'unavailable' });
    const write = await call(server, token, 'POST', '/projects', { name: 'while-down' });
    expect(await answer(write, [url, cluster.dir])).toEqual({ status: 503, code: 'unavailable' });
    const lost = await failure(() => fresh.get('SELECT 1'));
    expect(serializeError(lost)).toEqual({ code: 'unavailable', message: expect.not.stringContaining(cluster.dir) as string });
    await fresh.close();
    cluster.start();
    const again = await call(server, token, 'POST', '/projects', { name: 'after-restart' });
    expect(again.status).toBe(201);
  }, 120_000);
});
