// `npm run bench -- forensic-evtx-ab <checkout> [json|parts|fields|xml ...] [first] [rounds=N]`: this tree's EVTX parser
// against the one in another checkout (a git worktree of an earlier commit), both loaded into one process and run in
// alternating warm passes over the corpus, so both sides see the same machine load. Prints each side's median CPU seconds
// a pass and the median of the paired ratios (this tree / the other; below 1 is faster). With `first`, each pass is the
// first of a fresh process instead (JIT cold: V8's optimising compiler works on its own threads, which CPU time
// counts), the two sides' processes alternating, and the main thread's share is printed too. With `instructions`, each
// side's first pass is counted in instructions instead (valgrind's callgrind over `node --single-threaded`, so V8's
// compiler and collector work runs on the main thread and is counted), less a process that loads the same parser and
// reads no file: a count that the machine's load does not move (repeat runs agree to about 0.1 %), where CPU seconds
// of a first pass vary by 15 to 20 % under load. Each counted process takes minutes; the two sides run side by side.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as here from '../engines/forensic/evtx/index.js';
import { mainThreadSeconds, median } from './_measures.js';

type EvtxModule = typeof here;
type Options = NonNullable<ConstructorParameters<EvtxModule['EvtxParser']>[0]>;

const dir = path.dirname(fileURLToPath(import.meta.url));
const corpora = process.env['VITRINE_CORPORA'] ?? path.resolve(dir, '..', '..', 'shared', 'corpora');
const MODES: Readonly<Record<string, Options>> = {
  json: { json: true },
  parts: { json: false, parts: true },
  fields: { json: false },
  xml: { json: true, xml: true },
};

const files = ['evtx-crate', 'attack-samples', 'chainsaw'].flatMap((d) =>
  readdirSync(path.join(corpora, 'evtx', d))
    .filter((f) => f.endsWith('.evtx'))
    .map((f) => path.join(corpora, 'evtx', d, f)),
);

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Child mode (`first`): the parser of one checkout over the corpus files once, streamed from disk as a worker would. */
if (process.argv[2] === '--first-pass') {
  const module = (await import(pathToFileURL(path.resolve(process.argv[3]!, 'engines', 'forensic', 'evtx', 'index.ts')).href)) as EvtxModule;
  const options = MODES[process.argv[4]!]!;
  // `empty`: the same process reading no file (the baseline an instruction count subtracts).
  const read = process.argv[5] === 'empty' ? [] : files;
  let records = 0;
  const m0 = mainThreadSeconds();
  const c0 = cpuSeconds();
  for (const f of read) for (const _ of new module.EvtxParser(options).recordsFromFileSync(f)) records++;
  const seconds = cpuSeconds() - c0;
  const m1 = mainThreadSeconds();
  console.log(JSON.stringify({ seconds, main: m0 === null || m1 === null ? Number.NaN : m1 - m0, records }));
  process.exit(0);
}

const args = process.argv.slice(2).filter((a) => a !== 'forensic-evtx-ab');
const first = args.includes('first');
const instructions = args.includes('instructions');
const other = args.find((a) => !(a in MODES) && !a.startsWith('rounds=') && a !== 'first' && a !== 'instructions');
if (other === undefined) {
  console.error('usage: npm run bench -- forensic-evtx-ab <checkout of another commit> [json|parts|fields|xml ...] [first | instructions] [rounds=N]');
  process.exit(2);
}
const modes = args.filter((a) => a in MODES);
const rounds = Number(args.find((a) => a.startsWith('rounds='))?.slice(7) ?? (first ? 8 : 20));
const theirs = (await import(pathToFileURL(path.resolve(other, 'engines', 'forensic', 'evtx', 'index.ts')).href)) as EvtxModule;
const images = files.map((f) => readFileSync(f));
const root = path.resolve(dir, '..');

/** One first pass in a fresh process over the parser of `checkout`. */
function firstPass(checkout: string, mode: string): { seconds: number; main: number; records: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--first-pass', checkout, mode], { encoding: 'utf8' });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`first-pass child failed: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(line) as { seconds: number; main: number; records: number };
}

/** One pass over the corpus images held in memory: CPU seconds and the record count. */
function pass(module: EvtxModule, options: Options): { seconds: number; records: number } {
  const c0 = cpuSeconds();
  let records = 0;
  for (const bytes of images) for (const _ of new module.EvtxParser(options).records(bytes)) records++;
  return { seconds: cpuSeconds() - c0, records };
}

/** Instructions of one child process under callgrind (its first pass, or with `empty` no file read), and its records. */
function counted(checkout: string, mode: string, empty: boolean): Promise<{ instructions: number; records: number }> {
  const argv = ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', '--import', 'tsx'];
  argv.push(fileURLToPath(import.meta.url), '--first-pass', checkout, mode, ...(empty ? ['empty'] : []));
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const collected = /Collected : (\d+)/.exec(err);
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || collected === null || !line.startsWith('{')) reject(new Error(`counted child failed: ${err.slice(-500)}`));
      else resolve({ instructions: Number(collected[1]), records: (JSON.parse(line) as { records: number }).records });
    });
  });
}

if (instructions) {
  if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.error('valgrind is not installed (apt-get install valgrind)');
    process.exit(2);
  }
  const n = Number(args.find((a) => a.startsWith('rounds='))?.slice(7) ?? 1);
  console.log(`EVTX parser, this tree against ${other}: ${files.length} corpus files, first pass in instructions (callgrind, node --single-threaded), ${n} run(s) a side`);
  const g = (x: number): string => `${(x / 1e9).toFixed(3)} G`;
  for (const mode of modes.length > 0 ? modes : ['json']) {
    const [baseMine, baseTheirs] = await Promise.all([counted(root, mode, true), counted(other, mode, true)]);
    const ratios: number[] = [];
    for (let i = 0; i < n; i++) {
      const [a, b] = await Promise.all([counted(root, mode, false), counted(other, mode, false)]);
      const mine = a.instructions - baseMine.instructions;
      const theirs = b.instructions - baseTheirs.instructions;
      const counts = a.records === b.records ? '' : `   record counts differ: ${a.records} against ${b.records}`;
      console.log(
        `${mode.padEnd(6)} this tree ${g(mine)} (process ${g(a.instructions)}, loading ${g(baseMine.instructions)}), other ${g(theirs)} (process ${g(b.instructions)}, loading ${g(baseTheirs.instructions)}); ratio ${(mine / theirs).toFixed(3)}${counts}`,
      );
      ratios.push(mine / theirs);
    }
    if (n > 1) console.log(`${mode.padEnd(6)} ratio median ${median(ratios).toFixed(3)} over ${n} runs`);
  }
  process.exit(0);
}

if (first) {
  console.log(`EVTX parser, this tree against ${other}: ${files.length} corpus files, ${rounds} alternating first passes a side, each in a fresh process`);
  for (const mode of modes.length > 0 ? modes : ['json', 'parts']) {
    const mine: { seconds: number; main: number }[] = [];
    const base: { seconds: number; main: number }[] = [];
    let counts = '';
    for (let i = 0; i < rounds; i++) {
      // Alternate which side goes first, as in the warm comparison.
      const b = i % 2 === 1 ? firstPass(other, mode) : null;
      const a = firstPass(root, mode);
      const theirsNow = b ?? firstPass(other, mode);
      mine.push(a);
      base.push(theirsNow);
      if (a.records !== theirsNow.records) counts = `   record counts differ: ${a.records} against ${theirsNow.records}`;
    }
    const ratios = mine.map((t, i) => t.seconds / base[i]!.seconds);
    const secs = (ts: { seconds: number }[]): string => median(ts.map((t) => t.seconds)).toFixed(3);
    const main = (ts: { main: number }[]): string => median(ts.map((t) => t.main)).toFixed(3);
    console.log(
      `${mode.padEnd(6)} this tree ${secs(mine)} s (main thread ${main(mine)} s), other ${secs(base)} s (main thread ${main(base)} s) a first pass (medians); paired ratio median ${median(ratios).toFixed(3)}${counts}`,
    );
  }
  process.exit(0);
}

console.log(`EVTX parser, this tree against ${other}: ${files.length} corpus files, ${rounds} alternating warm passes a side after 4 each`);
for (const mode of modes.length > 0 ? modes : ['json', 'parts', 'fields']) {
  const options = MODES[mode]!;
  for (let i = 0; i < 4; i++) {
    pass(theirs, options);
    pass(here, options);
  }
  const mine: number[] = [];
  const base: number[] = [];
  let counts = '';
  for (let i = 0; i < rounds; i++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const first = i % 2 === 0 ? pass(theirs, options) : pass(here, options);
    const second = i % 2 === 0 ? pass(here, options) : pass(theirs, options);
    const [a, b] = i % 2 === 0 ? [second, first] : [first, second];
    mine.push(a.seconds);
    base.push(b.seconds);
    if (a.records !== b.records) counts = `   record counts differ: ${a.records} against ${b.records}`;
  }
  const ratios = mine.map((s, i) => s / base[i]!);
  console.log(
    `${mode.padEnd(6)} this tree ${median(mine).toFixed(4)} s, other ${median(base).toFixed(4)} s a pass (medians); paired ratio median ${median(ratios).toFixed(3)}${counts}`,
  );
}
