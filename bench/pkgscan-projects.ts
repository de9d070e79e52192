// `npm run bench -- pkgscan-projects`: project scans of the corpus lock-file sets (components/s; the ratio to cdxgen when
// `cdxgen` is on PATH) and the container scan of the test image (MB/s, peak RSS of a child process of its own).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeImage } from '../engines/pkgscan/containers/analyze.js';
import { analyzeProject } from '../engines/pkgscan/projects/analyze.js';
import { findOnPath } from '../engines/pkgscan/tools/index.js';
import { corpusPath, hasCorpora, REPO_ROOT } from '../test/corpora.js';

const here = fileURLToPath(import.meta.url);
const IMAGE = path.join(REPO_ROOT, 'test', 'fixtures', 'images', 'debian-layers.docker.tar');
const peakRssMiB = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

if (process.argv[2] === '--child-image') {
  const bytes = readFileSync(process.argv[3] as string);
  const t0 = process.hrtime.bigint();
  const a = await analyzeImage(bytes);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ seconds: s, bytes: bytes.length, packages: a.packages.length, peakMiB: peakRssMiB() }));
} else {
  if (hasCorpora()) {
    const sets: { name: string; files: { path: string; text: string; bytes: number }[] }[] = [];
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
    const opts = { projectName: 'bench', environment: 'prod', internalNamespaces: [], verdictOf: () => undefined, serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10', created: new Date(0).toISOString(), toolVersion: '0' };
    for (const s of sets) analyzeProject(s.files, opts);
    let components = 0;
    const t0 = process.hrtime.bigint();
    for (const s of sets) components += analyzeProject(s.files, opts).components.length;
    const ours = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`pkgscan-projects: ${sets.length} corpus lock-file sets, ${components} components in ${ours.toFixed(2)} s (${(components / ours).toFixed(0)} components/s, CycloneDX built, not validated)`);
    const cdxgen = findOnPath('cdxgen');
    if (cdxgen === null) console.log('  cdxgen: not installed (npm i -g @cyclonedx/cdxgen), no ratio');
    else {
      const t1 = process.hrtime.bigint();
      for (const s of sets) execFileSync(cdxgen, ['--no-install-deps', '-o', '/dev/null', corpusPath('supplychain', 'lockfiles', s.name)], { stdio: 'ignore', timeout: 600_000 });
      const peer = Number(process.hrtime.bigint() - t1) / 1e9;
      console.log(`  cdxgen: ${peer.toFixed(1)} s, ratio ${(peer / ours).toFixed(1)}x`);
    }
  } else console.log('pkgscan-projects: the corpus is not here; no project scans measured');
  const out = execFileSync(process.execPath, ['--import', 'tsx', here, '--child-image', IMAGE], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const r = JSON.parse(out) as { seconds: number; bytes: number; packages: number; peakMiB: number };
  console.log(`  container scan of the test image (${(r.bytes / 1048576).toFixed(1)} MB, ${r.packages} packages): ${r.seconds.toFixed(2)} s, ${(r.bytes / 1048576 / r.seconds).toFixed(1)} MB/s, peak RSS ${r.peakMiB.toFixed(0)} MiB`);
}
