// `npm run bench -- forensic-evtx [large.evtx]`: EVTX records/s and MB/s on the corpus (and a large file), against evtxexport and python-evtx, plus peak RSS.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHUNK_SIZE, EvtxParser, FILE_HEADER_SIZE } from '../engines/forensic/evtx/index.js';
import { mainThreadSeconds } from './_measures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpora = process.env['VITRINE_CORPORA'] ?? path.resolve(here, '..', '..', 'shared', 'corpora');
const PYTHON = '/usr/bin/python3';

/** Child mode: stream one file and report this process's peak RSS, so the parent can compare file sizes. */
if (process.argv[2] === '--rss-probe') {
  const file = process.argv[3]!;
  let records = 0;
  const m0 = mainThreadSeconds();
  const c0 = process.cpuUsage();
  for (const _ of new EvtxParser().recordsFromFileSync(file)) records++;
  const c1 = process.cpuUsage(c0);
  const m1 = mainThreadSeconds();
  const seconds = (c1.user + c1.system) / 1e6;
  const mainSeconds = m0 === null || m1 === null ? null : m1 - m0;
  console.log(JSON.stringify({ records, seconds, mainSeconds, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

/** `seconds` is CPU time (user + system), so other load on the machine does not skew the ratios; `wall` is elapsed time. */
interface Timing {
  records: number;
  bytes: number;
  seconds: number;
  wall: number;
}

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function corpusFiles(): string[] {
  const base = path.join(corpora, 'evtx');
  return ['evtx-crate', 'attack-samples', 'chainsaw'].flatMap((dir) =>
    readdirSync(path.join(base, dir))
      .filter((f) => f.endsWith('.evtx'))
      .map((f) => path.join(base, dir, f)),
  );
}

function bytesOf(files: string[]): number {
  return files.reduce((n, f) => n + statSync(f).size, 0);
}

function ours(files: string[], options: { json: boolean; xml: boolean }): Timing & { mainSeconds: number | null } {
  let records = 0;
  const t0 = performance.now();
  const m0 = mainThreadSeconds();
  const c0 = cpuSeconds();
  for (const f of files) for (const _ of new EvtxParser(options).recordsFromFileSync(f)) records++;
  const seconds = cpuSeconds() - c0;
  const m1 = mainThreadSeconds();
  return { records, bytes: bytesOf(files), seconds, wall: (performance.now() - t0) / 1000, mainSeconds: m0 === null || m1 === null ? null : m1 - m0 };
}

/** The main thread's share of a timing, when known. */
function split(t: { seconds: number; mainSeconds: number | null }): string {
  return t.mainSeconds === null ? '' : `   (main thread ${t.mainSeconds.toFixed(2)} s, V8's compiler and collector threads ${(t.seconds - t.mainSeconds).toFixed(2)} s)`;
}

/** The first pass (JIT warm-up included), then the best of `runs` further passes: the warm figure leaves the first pass out. */
function best<T extends Timing>(runs: number, fn: () => T): { first: T; best: T } {
  const first = fn();
  let top: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t = fn();
    if (top === undefined || t.seconds < top.seconds) top = t;
  }
  return { first, best: top ?? first };
}

function installed(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}

/** Runs a command with output discarded and returns its CPU seconds (getrusage of the children, via Python). */
const CHILD_CPU = `
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)
`;

function childCpu(argv: string[]): number {
  return Number(spawnSync(PYTHON, ['-c', CHILD_CPU, ...argv], { encoding: 'utf8' }).stdout.trim());
}

/** An external parser over the files, output discarded (one process per file, like a user would). */
function external(cmd: string, args: (file: string) => string[], files: string[], records: number): Timing {
  const t0 = performance.now();
  let seconds = 0;
  for (const f of files) seconds += childCpu([cmd, ...args(f)]);
  return { records, bytes: bytesOf(files), seconds, wall: (performance.now() - t0) / 1000 };
}

const PY_DUMP = `
import sys
import Evtx.Evtx as E
n = 0
for p in sys.argv[1:]:
    with E.Evtx(p) as f:
        for r in f.records():
            try:
                r.xml()
            except Exception:
                pass
            n += 1
print(n)
`;

function python(files: string[], records: number): Timing {
  const t0 = performance.now();
  const seconds = childCpu([PYTHON, '-c', PY_DUMP, ...files]);
  return { records, bytes: bytesOf(files), seconds, wall: (performance.now() - t0) / 1000 };
}

function rate(t: Timing): string {
  return `${Math.round(t.records / t.seconds).toLocaleString('en-US').padStart(9)} records/s ${(t.bytes / 1048576 / t.seconds).toFixed(1).padStart(7)} MB/s  (${t.records} records, ${(t.bytes / 1048576).toFixed(1)} MB, ${t.seconds.toFixed(2)} s CPU, ${t.wall.toFixed(2)} s wall)`;
}

function ratio(a: Timing, b: Timing): string {
  return `${(b.seconds / a.seconds).toFixed(1)}x`;
}

/** A synthetic large log: the file header of security.evtx followed by its chunks repeated `copies` times. */
function synthesize(dir: string, copies: number): string {
  const src = readFileSync(path.join(corpora, 'evtx', 'evtx-crate', 'security.evtx'));
  const chunks = src.subarray(FILE_HEADER_SIZE);
  const file = path.join(dir, `synthetic-${copies}.evtx`);
  const fd = openSync(file, 'w');
  writeSync(fd, src.subarray(0, FILE_HEADER_SIZE));
  for (let i = 0; i < copies; i++) writeSync(fd, chunks.subarray(0, Math.floor(chunks.length / CHUNK_SIZE) * CHUNK_SIZE));
  closeSync(fd);
  return file;
}

interface Probe {
  records: number;
  seconds: number;
  mainSeconds: number | null;
  maxRssMiB: number;
}

function probe(file: string): Probe {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--rss-probe', file], { encoding: 'utf8' });
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Probe;
}

const files = corpusFiles();
console.log(`EVTX parser benchmark: ${files.length} corpus files, ${(bytesOf(files) / 1048576).toFixed(1)} MB (one core, Node ${process.version}); rates and ratios use CPU time\n`);

const json = best(5, () => ours(files, { json: true, xml: false }));
const xml = best(3, () => ours(files, { json: true, xml: true }));
const meta = best(3, () => ours(files, { json: false, xml: false }));
console.log(`this parser, JSON            first pass ${rate(json.first)}${split(json.first)}`);
console.log(`this parser, JSON            warm       ${rate(json.best)}   (best of the 5 passes after the first)`);
console.log(`this parser, JSON + XML      warm       ${rate(xml.best)}   (best of 3 after a first pass)`);
console.log(`this parser, fields only     warm       ${rate(meta.best)}   (best of 3 after a first pass)`);

if (installed('evtxexport', ['-V'])) {
  const ex = external('evtxexport', (f) => ['-f', 'xml', f], files, json.best.records);
  const exText = external('evtxexport', (f) => [f], files, json.best.records);
  console.log(`\nevtxexport -f xml                      ${rate(ex)}`);
  console.log(`evtxexport (text)                      ${rate(exText)}`);
  console.log(`ratio: this parser (JSON) vs evtxexport -f xml: warm ${ratio(json.best, ex)} (goal >= 10x), first pass ${ratio(json.first, ex)} (goal >= 3x); JSON + XML vs evtxexport -f xml: ${ratio(xml.best, ex)}; vs text mode: ${ratio(json.best, exText)}`);
} else {
  console.log('\nevtxexport not installed (apt-get install libevtx-utils): no comparison');
}

if (installed(PYTHON, ['-c', 'import Evtx.Evtx'])) {
  // python-evtx needs 6 to 10 ms of CPU a record: the comparison runs on the small files plus security.evtx (2,356 records).
  const subset = files.filter((f) => statSync(f).size <= 70_000 || f.endsWith(`${path.sep}security.evtx`));
  const mine = best(2, () => ours(subset, { json: true, xml: true }));
  const py = python(subset, mine.best.records);
  console.log(`\npython-evtx (record.xml())             ${rate(py)}`);
  console.log(`this parser on the same files (JSON + XML) ${rate(mine.best)}`);
  console.log(`ratio: this parser vs python-evtx: ${ratio(mine.best, py)}   (goal >= 100x)`);
} else {
  console.log('\npython-evtx not installed (apt-get install python3-evtx): no comparison');
}

const large = process.argv.slice(2).find((a) => a !== 'forensic-evtx');
if (large !== undefined) {
  const size = statSync(large).size;
  const t = ours([large], { json: true, xml: false });
  console.log(`\nlarge file ${(size / 1048576).toFixed(1)} MB: ${rate(t)}`);
  if (installed('evtxexport', ['-V'])) {
    const ex = external('evtxexport', (f) => ['-f', 'xml', f], [large], t.records);
    console.log(`evtxexport -f xml: ${rate(ex)}; ratio ${ratio(t, ex)}`);
  }
  const p = probe(large);
  console.log(`peak RSS streaming it: ${p.maxRssMiB.toFixed(0)} MiB`);
}

// Memory stays flat: peak RSS of a fresh process streaming a 17 MB and a 170 MB synthetic log.
const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-evtx-bench-'));
try {
  console.log('\npeak RSS, one process per file, streaming with JSON rendering:');
  for (const copies of [10, 100]) {
    const file = synthesize(dir, copies);
    const p = probe(file);
    console.log(`  ${(statSync(file).size / 1048576).toFixed(0).padStart(4)} MB synthetic log (security.evtx chunks x${copies}): ${p.records} records in ${p.seconds.toFixed(2)} s CPU, peak RSS ${p.maxRssMiB.toFixed(0)} MiB`);
    if (copies === 10 && installed('evtxexport', ['-V'])) {
      // One fresh process on one large log, JIT warm-up included: the case of a worker job.
      const ex = external('evtxexport', (f) => ['-f', 'xml', f], [file], p.records);
      const mine: Timing = { records: p.records, bytes: statSync(file).size, seconds: p.seconds, wall: p.seconds };
      console.log(`       evtxexport -f xml on it: ${ex.seconds.toFixed(2)} s CPU; ratio ${ratio(mine, ex)} (fresh process, JSON; goal >= 5x)${split(p)}`);
    }
    rmSync(file);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
