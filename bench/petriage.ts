// `npm run bench -- petriage`: dissect + imphash throughput over the PE corpus and writer-built PEs, beside python3-pefile when installed.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { VitrineError } from '../engines/core/errors.js';
import { dissect } from '../engines/petriage/pe/index.js';
import { syntheticPes } from '../engines/petriage/pe/synthetic.js';
import { corpusPath, hasCorpora } from '../test/corpora.js';

const PYTHON = '/usr/bin/python3';
/** PEFILE_PATH points at another pefile checkout (put on PYTHONPATH), as in the oracle test. */
const PYTHON_ENV = { ...process.env, PYTHONPATH: process.env['PEFILE_PATH'] ?? '' };
const ORACLE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'engines', 'petriage', 'pe', 'testdata', 'pefile_dump.py');
const SYNTHETIC_COUNT = Number(process.env['PETRIAGE_BENCH_SYNTHETIC'] ?? 3000);
const CORPUS_ROUNDS = Number(process.env['PETRIAGE_BENCH_ROUNDS'] ?? 40);

interface Timing {
  files: number;
  bytes: number;
  wall: number;
  cpu: number;
}

/** Calls made before timing: V8 needs a few thousand calls before dissect runs at its steady speed. */
const WARM_UP_CALLS = 4000;

/** Dissects every file `rounds` times after a warm-up (the JIT's first runs are not the steady state a worker sees). */
function timeOurs(files: readonly Uint8Array[], rounds: number): { timing: Timing; hashes: string[] } {
  const run = (): string[] =>
    files.map((f) => {
      try {
        return dissect(f).imphash;
      } catch (e) {
        if (e instanceof VitrineError) return '-';
        throw e;
      }
    });
  const hashes = run();
  for (let done = files.length; done < WARM_UP_CALLS; done += files.length) run();
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) run();
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const bytes = files.reduce((a, f) => a + f.length, 0) * rounds;
  return { timing: { files: files.length * rounds, bytes, wall, cpu: (cpu.user + cpu.system) / 1e6 }, hashes };
}

function pefileInstalled(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import pefile'], { stdio: 'ignore', env: PYTHON_ENV });
    return true;
  } catch {
    return false;
  }
}

async function timePefile(paths: readonly string[], rounds: number): Promise<Timing & { version: string }> {
  const { stdout } = await promisify(execFile)(PYTHON, [ORACLE, 'bench', String(rounds), ...paths], { maxBuffer: 1 << 20, env: PYTHON_ENV });
  const r = JSON.parse(stdout) as { files: number; seconds: number; cpu_seconds: number; version: string };
  const bytes = paths.reduce((a, p) => a + readFileSync(p).length, 0) * rounds;
  return { files: r.files, bytes, wall: r.seconds, cpu: r.cpu_seconds, version: r.version };
}

async function pefileHashes(paths: readonly string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(PYTHON, [ORACLE, 'imphash', ...paths], { maxBuffer: 64 << 20, env: PYTHON_ENV });
  return stdout.split('\n').slice(0, paths.length);
}

const fmt = (t: Timing): string =>
  `${t.files} files, ${(t.bytes / 1e6).toFixed(1)} MB: ${(t.files / t.wall).toFixed(0)} files/s wall (${(t.bytes / 1e6 / t.wall).toFixed(1)} MB/s), ${(t.files / t.cpu).toFixed(0)} files/s CPU`;

async function bench(label: string, paths: readonly string[], files: readonly Uint8Array[], rounds: number, withPefile: boolean): Promise<void> {
  console.log(`\n${label}`);
  const ours = timeOurs(files, rounds);
  console.log(`  vitrine dissect (+imphash):   ${fmt(ours.timing)}`);
  if (!withPefile) return;
  const theirs = await timePefile(paths, rounds);
  console.log(`  python3-pefile ${theirs.version} PE()+get_imphash(): ${fmt(theirs)}`);
  console.log(
    `  ratio vitrine/pefile: ${((ours.timing.files / ours.timing.wall) / (theirs.files / theirs.wall)).toFixed(1)}x wall, ` +
      `${((ours.timing.files / ours.timing.cpu) / (theirs.files / theirs.cpu)).toFixed(1)}x CPU`,
  );
  const hashes = await pefileHashes(paths);
  const same = hashes.filter((h, i) => h === ours.hashes[i]).length;
  console.log(`  identical imphash: ${same}/${paths.length}`);
}

const withPefile = pefileInstalled();
console.log(`petriage PE dissection benchmark (node ${process.version}; python3-pefile ${withPefile ? 'installed' : 'not installed: ours only'})`);
console.log('wall time on a shared machine is noisy; CPU time (user+system of the measuring process) is the steadier figure');

if (hasCorpora()) {
  const paths: string[] = [];
  for (const sub of ['corkami', 'velociraptor']) {
    for (const f of readdirSync(corpusPath('pe', sub)).sort()) if (/\.(exe|dll|sys)$/.test(f)) paths.push(corpusPath('pe', sub, f));
  }
  await bench(`corpus (../shared/corpora/pe, ${paths.length} files) x ${CORPUS_ROUNDS} rounds`, paths, paths.map((p) => new Uint8Array(readFileSync(p))), CORPUS_ROUNDS, withPefile);
} else console.log('\ncorpus: ../shared/corpora not found, skipped');

const dir = mkdtempSync(path.join(tmpdir(), 'petriage-bench-'));
try {
  const built = syntheticPes(SYNTHETIC_COUNT, 1);
  const paths = built.map((bytes, i) => {
    const p = path.join(dir, `s${i}.bin`);
    writeFileSync(p, bytes);
    return p;
  });
  await bench(`writer-built PEs (${built.length}, seed 1) x 1 round`, paths, built, 1, withPefile);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
