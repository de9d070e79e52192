// `npm run bench -- pkgscan-projects`: project scans of the corpus lock-file sets (components/s; when `cdxgen` is on PATH
// or CDXGEN_BIN names it, its component set per lock set, offline, compared with ours, and the time ratio) and the container scan of the test image (MB/s, peak RSS of a child process of its own).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeImage } from '../engines/pkgscan/containers/analyze.js';
import { analyzeProject } from '../engines/pkgscan/projects/analyze.js';
import { offlineCdxgenEnv } from '../engines/pkgscan/projects/cdxgen.fixture.js';
import { findOnPath } from '../engines/pkgscan/tools/index.js';
import { corpusPath, hasCorpora, REPO_ROOT } from '../test/corpora.js';

const here = fileURLToPath(import.meta.url);
const IMAGE = path.join(REPO_ROOT, 'test', 'fixtures', 'images', 'debian-layers.docker.tar');
const peakRssMiB = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

type Opts = Parameters<typeof analyzeProject>[1];
type LockSet = { name: string; files: { path: string; text: string; bytes: number }[] };

/** A purl as `type/namespace/name@version`: decoded, qualifiers and subpath dropped, PyPI names normalised (PEP 503). */
function purlKey(purl: string): string {
  const bare = decodeURIComponent(purl).replace(/[?#].*$/, '');
  const m = /^pkg:([^/]+)\/(.+)@([^@]+)$/.exec(bare);
  if (!m) return bare;
  const [, type, name, version] = m as unknown as [string, string, string, string];
  return type === 'pypi' ? `${type}/${name.toLowerCase().replace(/[-_.]+/g, '-')}@${version}` : `${type}/${name}@${version}`;
}

/** Runs cdxgen offline on a temp copy of one lock set: no network (its own network namespace when `unshare -n` works,
 * else proxies pointed at a closed loopback port), --no-install-deps, --no-recurse, and the environment below. */
function runCdxgen(bin: string, set: LockSet, isolate: boolean): { keys: Set<string>; wall: number; cpu: number; failed: string | null } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cdxgen-bench-'));
  try {
    for (const f of set.files) writeFileSync(path.join(dir, f.path), f.text);
    const bom = path.join(dir, 'bom.json');
    const timing = path.join(dir, 'time.txt');
    // The project type from the corpus folder (its auto-detection writes nothing for a pnpm or yarn lock without package.json).
    const eco = set.name.split('/')[0] ?? '';
    const type = ({ npm: 'js', pnpm: 'js', yarn: 'js', bun: 'js', python: 'python', go: 'go', rust: 'rust' } as Record<string, string>)[eco];
    const cmd = [bin, ...(type ? ['-t', type] : []), '--no-install-deps', '--no-recurse', '-o', bom, dir];
    const timed = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%e %U %S', '-o', timing] : [];
    const argv = [...timed, ...(isolate ? ['unshare', '-n'] : []), ...cmd];
    const env = { ...offlineCdxgenEnv(isolate), NODE_NO_WARNINGS: '1', ...(isolate ? {} : { NO_PROXY: '' }) };
    const t0 = process.hrtime.bigint();
    const r = spawnSync(argv[0]!, argv.slice(1), { env, cwd: dir, stdio: 'ignore', timeout: 600_000 });
    let wall = Number(process.hrtime.bigint() - t0) / 1e9;
    let cpu = NaN;
    if (existsSync(timing)) {
      const last = readFileSync(timing, 'utf8').trim().split('\n').pop() ?? '';
      const [e, u, sys] = last.split(' ').map(Number);
      if (e !== undefined && Number.isFinite(e)) wall = e;
      if (u !== undefined && sys !== undefined) cpu = u + sys;
    }
    if (!existsSync(bom)) return { keys: new Set(), wall, cpu, failed: `no BOM written (exit ${String(r.status)})` };
    const doc = JSON.parse(readFileSync(bom, 'utf8')) as { components?: { purl?: string }[] };
    return { keys: new Set((doc.components ?? []).flatMap((c) => (c.purl ? [purlKey(c.purl)] : []))), wall, cpu, failed: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Why a key is on one side only: the same name at another version on the other side, or absent there. */
function why(key: string, other: Set<string>): string {
  const name = key.slice(0, key.lastIndexOf('@'));
  const alt = [...other].filter((k) => k.slice(0, k.lastIndexOf('@')) === name).map((k) => k.slice(k.lastIndexOf('@') + 1));
  return alt.length > 0 ? `${key} (other side: ${alt.join(', ')})` : key;
}

function compareWithCdxgen(bin: string, sets: LockSet[], opts: Opts, oursWall: number, oursCpu: number): void {
  const isolate = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.match(/(\d+\.\d+\.\d+)/)?.[1] ?? '?';
  console.log(`\n  cdxgen ${version} on a temp copy of each set (${isolate ? 'own network namespace' : 'proxies to a closed port'}, FETCH_LICENSE=false, CDXGEN_FETCH_PKG_METADATA=false, GO_FETCH_VCS=false, CDXGEN_ALLOWED_HOSTS=127.0.0.1, CDXGEN_ALLOWED_COMMANDS=ldd, -t js|python|go|rust by the corpus folder, --no-install-deps, --no-recurse)`);
  console.log('  | lock set | ours | cdxgen | common | Jaccard | only ours | only cdxgen | ours ms | cdxgen s wall / CPU |');
  console.log('  |---|---|---|---|---|---|---|---|---|');
  const empty = runCdxgen(bin, { name: '(empty)', files: [] }, isolate);
  let wall = 0;
  let cpu = 0;
  let unionAll = 0;
  let commonAll = 0;
  const details: string[] = [];
  for (const s of sets) {
    const t0 = process.hrtime.bigint();
    const a = analyzeProject(s.files, opts);
    const oursMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const mine = new Set(a.components.flatMap((c) => (c.purl ? [purlKey(c.purl)] : [])));
    const peer = runCdxgen(bin, s, isolate);
    wall += peer.wall;
    cpu += peer.cpu;
    const common = [...mine].filter((k) => peer.keys.has(k));
    const onlyOurs = [...mine].filter((k) => !peer.keys.has(k)).sort();
    const onlyPeer = [...peer.keys].filter((k) => !mine.has(k)).sort();
    const union = mine.size + peer.keys.size - common.length;
    unionAll += union;
    commonAll += common.length;
    const j = union === 0 ? 1 : common.length / union;
    console.log(`  | ${s.name} | ${mine.size} | ${peer.failed ?? peer.keys.size} | ${common.length} | ${j.toFixed(3)} | ${onlyOurs.length} | ${onlyPeer.length} | ${oursMs.toFixed(1)} | ${peer.wall.toFixed(1)} / ${peer.cpu.toFixed(1)} |`);
    const show = (list: string[], other: Set<string>): string => list.slice(0, 6).map((k) => why(k, other)).join('; ') + (list.length > 6 ? `; ... ${list.length - 6} more` : '');
    if (onlyOurs.length > 0) details.push(`  ${s.name}: only ours ${onlyOurs.length}: ${show(onlyOurs, peer.keys)}`);
    if (onlyPeer.length > 0) details.push(`  ${s.name}: only cdxgen ${onlyPeer.length}: ${show(onlyPeer, mine)}`);
  }
  console.log(`\n  overall Jaccard ${(commonAll / Math.max(1, unionAll)).toFixed(3)} (${commonAll} common of ${unionAll}); cdxgen ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU for the ${sets.length} sets against ours ${oursWall.toFixed(2)} s wall, ${oursCpu.toFixed(2)} s CPU: cdxgen takes ${(wall / oursWall).toFixed(0)}x the wall time and ${(cpu / oursCpu).toFixed(0)}x the CPU time (ours in process; cdxgen includes its process start: ${empty.wall.toFixed(1)} s wall, ${empty.cpu.toFixed(1)} s CPU on an empty folder)`);
  if (details.length > 0) console.log(`\n  differences (same name at another version on the other side in parentheses):\n${details.join('\n')}`);
}

if (process.argv[2] === '--child-image') {
  const bytes = readFileSync(process.argv[3] as string);
  const t0 = process.hrtime.bigint();
  const a = await analyzeImage(bytes);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ seconds: s, bytes: bytes.length, packages: a.packages.length, peakMiB: peakRssMiB() }));
} else {
  if (hasCorpora()) {
    const sets: LockSet[] = [];
    for (const eco of readdirSync(corpusPath('supplychain', 'lockfiles')).sort())
      for (const set of readdirSync(corpusPath('supplychain', 'lockfiles', eco)).sort()) {
        const dir = corpusPath('supplychain', 'lockfiles', eco, set);
        if (!statSync(dir).isDirectory()) continue;
        const files = readdirSync(dir)
          .filter((f) => statSync(path.join(dir, f)).isFile())
          .map((f) => {
            const text = readFileSync(path.join(dir, f), 'utf8');
            return { path: f, text, bytes: Buffer.byteLength(text) };
          });
        sets.push({ name: `${eco}/${set}`, files });
      }
    const opts: Opts = { projectName: 'bench', environment: 'prod', internalNamespaces: [], verdictOf: () => undefined, serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10', created: new Date(0).toISOString(), toolVersion: '0' };
    for (const s of sets) analyzeProject(s.files, opts);
    let components = 0;
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (const s of sets) components += analyzeProject(s.files, opts).components.length;
    const ours = Number(process.hrtime.bigint() - t0) / 1e9;
    const c1 = process.cpuUsage(c0);
    const oursCpu = (c1.user + c1.system) / 1e6;
    console.log(`pkgscan-projects: ${sets.length} corpus lock-file sets, ${components} components in ${ours.toFixed(2)} s wall, ${oursCpu.toFixed(2)} s CPU (${(components / oursCpu).toFixed(0)} components per CPU second, CycloneDX built, not validated)`);
    const cdxgen = process.env['CDXGEN_BIN'] ?? findOnPath('cdxgen');
    if (cdxgen === null) console.log('  cdxgen: not installed (npm i -g @cyclonedx/cdxgen), no comparison and no ratio');
    else compareWithCdxgen(cdxgen, sets, opts, ours, oursCpu);
  } else console.log('pkgscan-projects: the corpus is not here; no project scans measured');
  const out = execFileSync(process.execPath, ['--import', 'tsx', here, '--child-image', IMAGE], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const r = JSON.parse(out) as { seconds: number; bytes: number; packages: number; peakMiB: number };
  console.log(`  container scan of the test image (${(r.bytes / 1048576).toFixed(1)} MB, ${r.packages} packages): ${r.seconds.toFixed(2)} s, ${(r.bytes / 1048576 / r.seconds).toFixed(1)} MB/s, peak RSS ${r.peakMiB.toFixed(0)} MiB`);
}
