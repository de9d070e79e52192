// A real Verdaccio on loopback for tests and benches, loaded by the npm publish protocol (what `npm publish` sends).
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runServer } from 'verdaccio';
import { packumentPath } from './npm-mirror.js';

export interface TestRegistry {
  /** `http://127.0.0.1:PORT/` */
  readonly base: string;
  /** Its storage folder (tests change stored tarballs under it). */
  readonly root: string;
  /** Publishes one version: the version manifest with dist (`dist` overrides fields), the tarball as a base64 attachment. */
  publish(name: string, version: string, tarball: Uint8Array, dist?: Readonly<Record<string, unknown>>): Promise<void>;
  close(): Promise<void>;
}

/** Starts Verdaccio in this process on an ephemeral loopback port, no uplinks, everyone may read and publish. */
export async function startVerdaccio(): Promise<TestRegistry> {
  const root = await mkdtemp(path.join(tmpdir(), 'pkgscan-verdaccio-'));
  const app = (await runServer({
    self_path: path.join(root, 'config.yaml'),
    storage: path.join(root, 'storage'),
    uplinks: {},
    packages: { '@*/*': { access: '$all', publish: '$all' }, '**': { access: '$all', publish: '$all' } },
    auth: { htpasswd: { file: path.join(root, 'htpasswd'), max_users: -1 } },
    log: { type: 'stdout', format: 'pretty', level: 'fatal' },
    web: { enable: false },
  } as unknown as Parameters<typeof runServer>[0])) as unknown as { listen(port: number, host: string, cb: () => void): Server };
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    base,
    root,
    async publish(name, version, tarball, dist = {}) {
      const file = `${name}-${version}.tgz`;
      const manifest = {
        name,
        version,
        _id: `${name}@${version}`,
        dist: { shasum: createHash('sha1').update(tarball).digest('hex'), integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`, tarball: `${base}${name}/-/${file}`, ...dist },
      };
      const body = { _id: name, name, 'dist-tags': { latest: version }, versions: { [version]: manifest }, _attachments: { [file]: { content_type: 'application/octet-stream', data: Buffer.from(tarball).toString('base64'), length: tarball.byteLength } } };
      const res = await fetch(`${base}${packumentPath(name)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 201 && res.status !== 200) throw new Error(`publish refused: ${res.status} ${await res.text()}`);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}
