// `npm run bench -- fuzz-forensic <target> [seconds=N] [seed=N] [limit=N] [heap=MB] [out=DIR] [evtxexport]`: a seeded
// mutation fuzzer for the forensic and flow parsers. Targets: evtx (the EVTX parser, its four renderings in turn), the
// loaders by kind (evtx-ingest, auditd, authlog, timeline, memory, dataset-json, preproc: each through ingestArtifact), flows (flowdet's CSV reader), or all.
// Seeds are corpus files (../shared/corpora). Each input runs in a worker thread with a heap limit (default 256 MB)
// and a deadline (5 s for an input under 1 MB, 5 s a MB above); a worker that hangs or exhausts its heap is ended and
// replaced. It prints counts by outcome (a result, a documented error, a finding) and each finding once by its first
// line; with out=DIR the input of each new finding is written there. With `evtxexport`, every 10th EVTX input that
// parses is also read by libevtx's evtxexport and the record counts are compared (a hint, printed, never a finding).
// Run it niced: `nice -n 10 npm run bench -- fuzz-forensic evtx seconds=180`. The same seed gives the same inputs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { mulberry32 } from '../engines/core/random.js';
import { mutateEvtx } from '../engines/forensic/evtx/mutate.fixture.js';
import { mutateText } from '../engines/forensic/loaders/mutate-text.fixture.js';
import type { FuzzAnswer, FuzzJob } from './_fuzz-forensic-worker.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const corpora = process.env['VITRINE_CORPORA'] ?? path.resolve(dir, '..', '..', 'shared', 'corpora');
const args = process.argv.slice(3);
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
const target = args.find((a) => !a.includes('=') && a !== 'evtxexport') ?? 'all';
const seconds = Number(flag('seconds') ?? 60);
const seed = Number(flag('seed') ?? 1);
const limit = Number(flag('limit') ?? Infinity);
const heapMb = Number(flag('heap') ?? 256);
const out = flag('out');
const compare = args.includes('evtxexport');

function walk(d: string): string[] {
  return readdirSync(d).flatMap((f) => {
    const p = path.join(d, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

function seedsOf(t: string): string[] {
  const pick = (sub: string, test: (f: string) => boolean): string[] => walk(path.join(corpora, sub)).filter(test).sort();
  switch (t) {
    case 'evtx':
      return pick('evtx', (f) => f.endsWith('.evtx') && statSync(f).size <= 1.2 * 1024 * 1024);
    case 'auditd':
      return pick('logs/auditd-laurel', (f) => f.endsWith('.txt'));
    case 'authlog':
      return pick('logs/loghub', (f) => f.endsWith('.log'));
    case 'timeline':
      return [...pick('logs/plaso', (f) => !f.endsWith('.plaso')), ...pick('logs/timesketch', () => true)];
    case 'memory':
      return [...pick('logs/volatility3', () => true), ...walk(path.join(dir, '..', 'engines', 'forensic', 'testdata', 'volatility3')).filter((f) => !f.endsWith('.py')).sort()];
    case 'evtx-ingest':
      return pick('evtx', (f) => f.endsWith('.evtx') && statSync(f).size <= 100 * 1024);
    case 'dataset-json':
      return [path.join(dir, '..', 'resources', 'forensic', 'examples', 'dataset.json')];
    case 'preproc':
      return [path.join(dir, '..', 'resources', 'forensic', 'examples', 'preproc.tsv')];
    case 'flows':
      return pick('flows', (f) => f.endsWith('.csv') && statSync(f).size <= 600 * 1024);
    default:
      throw new Error(`unknown target ${t}`);
  }
}

class Runner {
  private worker: Worker | null = null;
  /** A worker that has loaded the parsers (its start is not part of any input's deadline). */
  private spawn(): Promise<Worker> {
    // An eval worker registers tsx and then imports the TypeScript worker (a .ts entry is refused before loaders run).
    const entry = new URL('./_fuzz-forensic-worker.ts', import.meta.url).href;
    const code = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    const w = new Worker(code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 } });
    w.unref();
    return new Promise((resolve, reject) => {
      w.once('message', () => resolve(w));
      w.once('error', reject);
    });
  }

  /** Runs one job: the worker's answer, or a hang or memory finding (the worker is then replaced). */
  async run(job: FuzzJob): Promise<FuzzAnswer> {
    const w = (this.worker ??= await this.spawn());
    const budget = 5000 * Math.max(1, job.bytes.length / (1024 * 1024));
    return new Promise<FuzzAnswer>((resolve) => {
      const done = (a: FuzzAnswer, dead: boolean): void => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (dead) {
          void w.terminate();
          this.worker = null;
        }
        resolve(a);
      };
      const onMessage = (a: FuzzAnswer): void => done(a, false);
      const onError = (err: Error): void =>
        done({ outcome: 'finding', records: 0, warnings: 0, detail: (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? `heap over ${heapMb} MB` : `worker error ${err.message}` }, true);
      const onExit = (code: number): void => done({ outcome: 'finding', records: 0, warnings: 0, detail: `worker exited ${code}` }, true);
      const timer = setTimeout(() => done({ outcome: 'finding', records: 0, warnings: 0, detail: `hang: over ${Math.round(budget)} ms` }, true), budget);
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      w.postMessage(job);
    });
  }

  close(): void {
    void this.worker?.terminate();
  }
}

function evtxexportCount(bytes: Uint8Array, tmp: string): number | null {
  const f = path.join(tmp, 'x.evtx');
  writeFileSync(f, bytes);
  const r = spawnSync('evtxexport', [f], { encoding: 'utf8', timeout: 20000, maxBuffer: 1 << 28 });
  if (r.status === null) return null;
  return (r.stdout.match(/^Event number\s*:/gm) ?? []).length;
}

async function fuzz(t: string): Promise<void> {
  const seeds = seedsOf(t).map((f) => ({ name: path.relative(corpora, f), bytes: new Uint8Array(readFileSync(f)) }));
  const runner = new Runner();
  const r = mulberry32(seed);
  const counts = { result: 0, documented: 0, finding: 0 };
  const findings = new Map<string, { n: number; first: string }>();
  const documented = new Map<string, number>();
  const tmp = mkdtempSync(path.join(tmpdir(), 'vitrine-fuzz-cmp-'));
  let disagree = 0;
  let compared = 0;
  const started = Date.now();
  let i = 0;
  for (; i < limit && Date.now() - started < seconds * 1000; i++) {
    const s = seeds[i % seeds.length]!;
    const { bytes, how } = t.startsWith('evtx') ? mutateEvtx(s.bytes, r) : mutateText(s.bytes, r);
    const a = await runner.run({ target: t, bytes, mode: i });
    counts[a.outcome]++;
    if (a.outcome === 'documented') documented.set(a.detail, (documented.get(a.detail) ?? 0) + 1);
    if (a.outcome === 'finding') {
      const key = a.detail.split('\n')[0]!;
      const seen = findings.get(key);
      if (seen) seen.n++;
      else {
        const id = `${t}-${seed}-${i}`;
        findings.set(key, { n: 1, first: `${id} ${s.name} ${how}\n${a.detail}` });
        if (out !== undefined) {
          mkdirSync(out, { recursive: true });
          writeFileSync(path.join(out, id), bytes);
        }
      }
    }
    if (compare && t === 'evtx' && a.outcome === 'result' && i % 10 === 0) {
      const theirs = evtxexportCount(bytes, tmp);
      compared++;
      if (theirs !== null && theirs !== a.records) {
        disagree++;
        console.log(`evtxexport hint: input ${i} (${s.name} ${how}): ours ${a.records} records, evtxexport ${theirs}`);
      }
    }
  }
  runner.close();
  rmSync(tmp, { recursive: true, force: true });
  console.log(`${t}: ${i} inputs from ${seeds.length} seeds in ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${seed}): ${counts.result} results, ${counts.documented} documented errors, ${counts.finding} findings`);
  for (const [k, v] of [...documented].sort((x, y) => y[1] - x[1]).slice(0, 8)) console.log(`  documented ×${v}: ${k}`);
  for (const [, f] of findings) console.log(`  FINDING ×${f.n}: ${f.first}`);
  if (compare && t === 'evtx') console.log(`  evtxexport compared ${compared}, record counts differ on ${disagree}`);
}

const targets = target === 'all' ? ['evtx', 'evtx-ingest', 'auditd', 'authlog', 'timeline', 'memory', 'dataset-json', 'preproc', 'flows'] : [target];
for (const t of targets) await fuzz(t);
