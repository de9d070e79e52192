// `npm run bench -- petriage-ab <checkout> [pairs=N] [warm=N] [callgrind=N]`: this tree's PE dissector against the one
// in another checkout (a git worktree of an earlier commit), both compiled to JavaScript as `npm run build:node`
// compiles them. Prints, in order:
// - whether dissect's JSON is identical on both sides for every file: the corpus PEs, the writer-built PEs and damaged
//   copies of both (cut short at random lengths, random bytes changed in the headers' first 4 KiB), with a digest a side;
// - the cold first pass over the writer-built files in fresh processes, the two sides alternating (`pairs`, 10):
//   each side's median CPU time (main thread and V8's helper threads) and the median of the paired ratios;
// - warm passes over the same files alternating in this process (`warm`, 10 a side, after a warm-up of each);
// - with `callgrind=N` and valgrind installed: the instructions of the cold pass, N processes a side under callgrind
//   (every thread; the same process with the pass left out taken off), which the machine's load does not move.
// Ratios are the other checkout's time over this tree's: above 1, this tree is faster.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../engines/core/random.js';
import { syntheticPes } from '../engines/petriage/pe/synthetic.js';
import { corpusPath, hasCorpora } from '../test/corpora.js';
import { COLD_PASS, type Cold, REPO, coldInFreshProcess, compileDissector } from './_petriage-cold.js';
import { median } from './_measures.js';

const args = process.argv.slice(2).filter((a) => a !== 'petriage-ab');
const other = args.find((a) => !/^(pairs|warm|callgrind)=/.test(a));
if (other === undefined) {
  console.error('usage: npm run bench -- petriage-ab <checkout of another commit> [pairs=N] [warm=N] [callgrind=N]');
  process.exit(2);
}
const option = (name: string, fallback: number): number => Number(args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1) ?? fallback);
const PAIRS = option('pairs', 10);
const WARM = option('warm', 10);
const CALLGRIND = option('callgrind', 0);
const SYNTHETIC_COUNT = Number(process.env['PETRIAGE_BENCH_SYNTHETIC'] ?? 3000);

type Dissect = (data: Uint8Array) => unknown;

const range = (xs: readonly number[]): string => `median ${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
const ms = (seconds: number): string => `${(seconds * 1000).toFixed(1)} ms`;

/** The JSON of dissect's result, or the error's class and message (the two graphs have their own error classes). */
function outcome(dissect: Dissect, bytes: Uint8Array): string {
  try {
    return JSON.stringify(dissect(bytes));
  } catch (e) {
    if (e instanceof Error || e?.constructor?.name === 'VitrineError') return `error ${String(e?.constructor?.name)}: ${(e as Error).message}`;
    throw e;
  }
}

/** Damaged copies of `sources`, the same on every run: 6 cut short and 6 with 1 to 8 bytes changed, of each. */
function damagedCopies(sources: readonly Uint8Array[]): Uint8Array[] {
  const rand = mulberry32(99);
  const out: Uint8Array[] = [];
  for (const b of sources) {
    for (let k = 0; k < 6; k++) out.push(b.subarray(0, Math.floor(rand() * b.length)));
    for (let k = 0; k < 6; k++) {
      const c = b.slice();
      const changes = 1 + Math.floor(rand() * 8);
      for (let j = 0; j < changes; j++) c[Math.floor(rand() * Math.min(c.length, 4096))] = Math.floor(rand() * 256);
      out.push(c);
    }
  }
  return out;
}

function cpuPass(dissect: Dissect, files: readonly Uint8Array[]): number {
  const c0 = process.cpuUsage();
  for (const f of files) {
    try {
      dissect(f);
    } catch (e) {
      if (e?.constructor?.name !== 'VitrineError') throw e;
    }
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

/** Instructions of a fresh cold-pass process under callgrind (all threads), with or without the pass; null when valgrind fails. */
function instructions(paths: readonly string[], compiled: string, skip: boolean): number | null {
  const r = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--input-type=module', '-e', COLD_PASS, pathToFileURL(compiled).href, ...(skip ? ['skip'] : [])],
    { input: paths.join('\n'), encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  const m = /Collected : (\d+)/.exec(r.stderr);
  return r.status === 0 && m !== null ? Number(m[1]) : null;
}

const cacheRoot = path.join(REPO, 'node_modules', '.cache');
mkdirSync(cacheRoot, { recursive: true });
const work = mkdtempSync(path.join(cacheRoot, 'petriage-ab-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const hereEntry = compileDissector(path.join(work, 'here'), REPO);
const otherEntry = compileDissector(path.join(work, 'other'), path.resolve(other));
const here = ((await import(pathToFileURL(hereEntry).href)) as { dissect: Dissect }).dissect;
const theirs = ((await import(pathToFileURL(otherEntry).href)) as { dissect: Dissect }).dissect;

const corpus: Uint8Array[] = [];
if (hasCorpora()) {
  for (const sub of ['corkami', 'velociraptor']) {
    for (const f of readdirSync(corpusPath('pe', sub)).sort()) if (/\.(exe|dll|sys)$/.test(f)) corpus.push(new Uint8Array(readFileSync(corpusPath('pe', sub, f))));
  }
}
const built = syntheticPes(SYNTHETIC_COUNT, 1);
const paths = built.map((bytes, i) => {
  const p = path.join(work, `s${i}.bin`);
  writeFileSync(p, bytes);
  return p;
});
console.log(`petriage dissect, this tree against ${path.resolve(other)} (node ${process.version})`);

console.log('\nidentical output (dissect JSON, or the error, file by file)');
let allSame = true;
for (const [name, set] of [
  ['corpus', corpus],
  ['writer-built (seed 1)', built],
  ['damaged copies', damagedCopies([...corpus, ...built.slice(0, 400)])],
] as const) {
  const a = createHash('sha256');
  const b = createHash('sha256');
  let differ = 0;
  let first = -1;
  for (let i = 0; i < set.length; i++) {
    const x = outcome(here, set[i] as Uint8Array);
    const y = outcome(theirs, set[i] as Uint8Array);
    a.update(x).update('\n');
    b.update(y).update('\n');
    if (x !== y) {
      differ++;
      if (first < 0) first = i;
    }
  }
  if (differ > 0) allSame = false;
  console.log(`  ${name}: ${set.length} files, ${differ === 0 ? 'identical' : `${differ} DIFFER (the first at index ${first})`}; digest here ${a.digest('hex').slice(0, 16)}, other ${b.digest('hex').slice(0, 16)}`);
}

console.log(`\ncold first pass over the ${built.length} writer-built files, fresh processes on the compiled JavaScript, ${PAIRS} pairs alternating`);
const coldHere: Cold[] = [];
const coldOther: Cold[] = [];
for (let i = 0; i < PAIRS; i++) {
  coldOther.push(coldInFreshProcess(paths, built, otherEntry));
  coldHere.push(coldInFreshProcess(paths, built, hereEntry));
}
const coldLine = (runs: readonly Cold[]): string => {
  const main = runs.map((c) => c.main).filter((m): m is number => m !== null);
  const split = main.length === runs.length ? `; main thread ${ms(median(main))}, helper threads ${ms(median(runs.map((c) => c.cpu - (c.main as number))))}` : '';
  return `CPU ${ms(median(runs.map((c) => c.cpu)))}${split}`;
};
console.log(`  this tree: ${coldLine(coldHere)}`);
console.log(`  other:     ${coldLine(coldOther)}`);
console.log(`  ratio other/here, CPU: ${range(coldOther.map((c, i) => c.cpu / (coldHere[i] as Cold).cpu))}`);

console.log(`\nwarm passes over the writer-built files in this process, ${WARM} a side alternating (after a warm-up of each)`);
// Each side warmed as the petriage bench warms ours: at least 4,000 calls and 1 s of CPU time.
for (const d of [here, theirs]) {
  let spent = 0;
  for (let calls = 0; calls < 4000 || spent < 1; calls += built.length) spent += cpuPass(d, built);
}
const warmHere: number[] = [];
const warmOther: number[] = [];
for (let i = 0; i < WARM; i++) {
  warmOther.push(cpuPass(theirs, built));
  warmHere.push(cpuPass(here, built));
}
console.log(`  this tree: ${ms(median(warmHere))} CPU a pass; other: ${ms(median(warmOther))}`);
console.log(`  ratio other/here, CPU: ${range(warmOther.map((t, i) => t / (warmHere[i] as number)))}`);

if (CALLGRIND > 0) {
  const hasValgrind = spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasValgrind) console.log('\ncallgrind: valgrind not installed, skipped');
  else {
    console.log(`\ninstructions of the cold pass under callgrind (every thread; ${CALLGRIND} processes a side with the pass and without it)`);
    const passInstructions = (entry: string): number | null => {
      const withPass: number[] = [];
      const without: number[] = [];
      for (let i = 0; i < CALLGRIND; i++) {
        const a = instructions(paths, entry, false);
        const b = instructions(paths, entry, true);
        if (a === null || b === null) return null;
        withPass.push(a);
        without.push(b);
      }
      return median(withPass) - median(without);
    };
    const o = passInstructions(otherEntry);
    const h = passInstructions(hereEntry);
    if (o === null || h === null) console.log('  callgrind failed');
    else console.log(`  this tree ${(h / 1e9).toFixed(3)} G, other ${(o / 1e9).toFixed(3)} G: ratio other/here ${(o / h).toFixed(3)}`);
  }
}
if (!allSame) process.exitCode = 1;
