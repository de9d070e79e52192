// `npm run bench -- pkgscan-scan`: package analysis throughput over the package corpus (packages/s, MB/s of archives and of
// unpacked files) and the peak memory of one analysis of a 50 MB package, in a child process of its own.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildTar } from '../engines/core/archive/build.fixture.js';
import { DEFAULT_ANALYZERS, runAnalyzers } from '../engines/pkgscan/analyzers/risk.js';
import { defaultResourcesDir } from '../engines/pkgscan/config.js';
import { openRelease } from '../engines/pkgscan/package/open.js';
import { verifyProvenance } from '../engines/pkgscan/provenance/verify.js';
import { corpusPath, hasCorpora } from '../test/corpora.js';

const here = fileURLToPath(import.meta.url);
const resourcesDir = defaultResourcesDir();

/** One analysis as the worker job runs it, without the optional external tools (their cost is the tools'). */
async function analyse(bytes: Uint8Array, filename: string): Promise<number> {
  const release = openRelease(bytes, { filename });
  await runAnalyzers(release, { resourcesDir, internalNamespaces: [] }, DEFAULT_ANALYZERS);
  await verifyProvenance(release, { resourcesDir, archive: bytes });
  return release.files.reduce((n, f) => n + f.size, 0);
}

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 1048576;
}

if (process.argv[2] === '--child') {
  const file = process.argv[3] as string;
  const before = peakRssMiB();
  const t0 = process.hrtime.bigint();
  const unpacked = await analyse(readFileSync(file), path.basename(file));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ seconds: s, unpacked, peakMiB: peakRssMiB(), baselineMiB: before }));
} else {
  if (!hasCorpora()) {
    console.log('pkgscan-scan: the package corpus is not here (VITRINE_CORPORA); nothing measured');
  } else {
    const files: string[] = [];
    for (const group of ['benign/npm', 'benign/pypi', 'malicious/npm', 'malicious/pypi']) for (const f of readdirSync(corpusPath('packages', group)).sort()) files.push(path.join(group, f));
    // Read as bytes only: the archives (real malware among them) are never unpacked to disk or run.
    const archives = files.map((f) => ({ name: path.basename(f), bytes: readFileSync(corpusPath('packages', f)) }));
    for (const a of archives.slice(0, 20)) await analyse(a.bytes, a.name);
    const rounds = 3;
    let packed = 0;
    let unpacked = 0;
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++)
      for (const a of archives) {
        packed += a.bytes.length;
        unpacked += await analyse(a.bytes, a.name);
      }
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const n = archives.length * rounds;
    console.log(`pkgscan-scan: ${archives.length} corpus packages x ${rounds} rounds (archive, source rules, metadata, provenance; external tools excluded)`);
    console.log(`  wall ${wall.toFixed(1)} s: ${(n / wall).toFixed(1)} packages/s, ${(packed / 1048576 / wall).toFixed(1)} MB/s of archives, ${(unpacked / 1048576 / wall).toFixed(1)} MB/s unpacked`);
    console.log(`  CPU  ${cpuS.toFixed(1)} s: ${(n / cpuS).toFixed(1)} packages/s, ${(packed / 1048576 / cpuS).toFixed(1)} MB/s of archives`);
  }
  // A 50 MB package: a 46 MB native binary (random bytes, as compiled code compresses little) and 40 MB of JavaScript.
  const dir = mkdtempSync(path.join(tmpdir(), 'pkgscan-bench-'));
  try {
    const js = (i: number): string => `'use strict';\nmodule.exports = function part${i}(a, b) {\n  const out = [];\n  for (let k = 0; k < a.length; k++) out.push(a[k] + b[k % b.length]);\n  return out.join(',');\n};\n`.repeat(400);
    const members = [{ name: 'package/package.json', data: JSON.stringify({ name: 'big-package', version: '1.0.0', description: 'a large package for the memory measure', main: 'index.js' }) }, { name: 'package/build/Release/addon.node', data: randomBytes(46 * 1024 * 1024) }];
    let jsBytes = 0;
    for (let i = 0; jsBytes < 40 * 1024 * 1024; i++) {
      const text = js(i);
      jsBytes += text.length;
      members.push({ name: `package/lib/part${i}.js`, data: text });
    }
    const tgz = gzipSync(buildTar(members));
    const file = path.join(dir, 'big-package-1.0.0.tgz');
    writeFileSync(file, tgz);
    const out = execFileSync(process.execPath, ['--import', 'tsx', here, '--child', file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const r = JSON.parse(out) as { seconds: number; unpacked: number; peakMiB: number; baselineMiB: number };
    console.log(`  50 MB package (${(tgz.length / 1048576).toFixed(1)} MB archive, ${(r.unpacked / 1048576).toFixed(1)} MB unpacked, ${members.length - 1} files): ${r.seconds.toFixed(1)} s, peak RSS ${r.peakMiB.toFixed(0)} MiB (${r.baselineMiB.toFixed(0)} MiB before the analysis)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
