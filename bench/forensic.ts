// `npm run bench -- forensic [text|evtx] [sizes...]`: events/s of CPU from raw files to stories, per stage, and peak RSS, at 10k, 100k and 1M
// generated events, for the text formats (auth.log + dataset JSON lines) and EVTX (the corpus logs' chunks repeated).
// Throughput is per CPU second (user + system), so other load on the shared machine does not skew it; wall time is shown too.
// The child runs with the V8 flags of the app's forensic workers (the worker profile in main/host/entry.ts: the first full
// collection at 512 MiB of old generation, then the heap grows by a tenth past the live size, 32 MiB semi-spaces, no hard limit), so its peak RSS is what a case of that size costs in the app.
// FORENSIC_BENCH_NO_SIGMA=1 runs the analysis without the Sigma rules, to see their cost end to end.
// FORENSIC_BENCH_DIGEST=1 prints digests of the outputs (after the timing), to compare two checkouts on the same input.
// FORENSIC_BENCH_STAGE_MARKS=1 prints `stage NAME` as each stage starts (for a probe run with --trace-gc).
// `forensic ingest-ab <checkout>` compares this tree's ingest with another checkout's in one process (see below).
// FORENSIC_BENCH_HEAP_MIB adds a V8 old-space limit in MiB, to see what a hard limit would give (docs/forensic-analysis.md).
import { spawnSync } from 'node:child_process';
import * as fsSync from 'node:fs';
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyzePaths } from '../engines/forensic/analysis/index.js';
import { CHUNK_SIZE, EvtxParser, FILE_HEADER_SIZE } from '../engines/forensic/evtx/index.js';
import { WORKER_PROFILES, WORKER_V8_FLAGS } from '../main/host/entry.js';
import type * as IngestModule from '../engines/forensic/ingest.js';

type Ingest = typeof IngestModule;

const here = fileURLToPath(import.meta.url);

/** Child mode: analyse the generated files and report CPU time per stage, counts and this process's peak RSS. */
if (process.argv[2] === '--probe') {
  const dir = process.argv[3] as string;
  const files = process.argv.slice(4);
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  // VmHWM (the peak RSS so far) and the heap in use, read as each stage starts and at the end: the stage in which VmHWM
  // rises is where the peak happens.
  const memory = (): { hwmMiB: number; rssMiB: number; heapMiB: number } => {
    const status = fsSync.readFileSync('/proc/self/status', 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { hwmMiB: kb('VmHWM') / 1024, rssMiB: kb('VmRSS') / 1024, heapMiB: process.memoryUsage().heapUsed / 1048576 };
  };
  // CPU seconds of the threads other than the main one (V8's concurrent marking, parallel scavenging and sweeping,
  // its compilers; libuv's pool): a stage whose heap grows pays much of its garbage collection there.
  const helperCpu = (): number => {
    let ticks = 0;
    for (const t of fsSync.readdirSync('/proc/self/task')) {
      if (t === String(process.pid)) continue;
      try {
        const stat = fsSync.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return ticks / 100;
  };
  const stages: { stage: string; start: number; helper: number; memory: ReturnType<typeof memory> }[] = [];
  const t0 = performance.now();
  const c0 = cpu();
  const a = analyzePaths(
    files.map((f) => path.join(dir, f)),
    {
      evidenceRoot: dir,
      year: 2024,
      ...(process.env['FORENSIC_BENCH_NO_SIGMA'] === '1' ? { sigma: null } : {}),
      onProgress: (p) => {
        if (stages.at(-1)?.stage === p.stage) return;
        stages.push({ stage: p.stage, start: cpu(), helper: helperCpu(), memory: memory() });
        // FORENSIC_BENCH_STAGE_MARKS=1: a line as each stage starts, written at once, so that `--trace-gc` lines (on the
        // same stdout) can be told by stage.
        if (process.env['FORENSIC_BENCH_STAGE_MARKS'] === '1') fsSync.writeSync(1, `stage ${p.stage}\n`);
      },
    },
  );
  const wall = (performance.now() - t0) / 1000;
  const end = cpu();
  const endHelper = helperCpu();
  const endMemory = memory();
  const maxRssMiB = process.resourceUsage().maxRSS / 1024;
  // FORENSIC_BENCH_DIGEST=1: SHA-256 of the outputs (events, nodes, edges, stories, detections, tampering), read after
  // the timing, so that two checkouts can be compared on the same generated input (FORENSIC_BENCH_KEEP keeps it).
  let digest: Record<string, string> | undefined;
  if (process.env['FORENSIC_BENCH_DIGEST'] === '1') {
    const { createHash } = await import('node:crypto');
    const of = (items: Iterable<unknown>): string => {
      const h = createHash('sha256');
      for (const x of items) h.update(`${JSON.stringify(x)}\n`);
      return h.digest('hex');
    };
    digest = {
      events: of(a.events),
      nodes: of(a.nodes),
      edges: of(a.edges),
      stories: of(a.stories),
      detections: a.detections === null ? 'none' : of([...a.detections.summary(), ...[...a.detections.eventIds()].sort()]),
      tampering: of([a.tampering]),
    };
  }
  const seconds = end - c0;
  const perStage = stages.map((s, i) => {
    const after = stages[i + 1]?.memory ?? endMemory;
    return { stage: s.stage, seconds: (stages[i + 1]?.start ?? end) - s.start, helperSeconds: (stages[i + 1]?.helper ?? endHelper) - s.helper, hwmMiB: after.hwmMiB, rssMiB: after.rssMiB, heapMiB: after.heapMiB };
  });
  console.log(JSON.stringify({ events: a.counts.events, noisy: a.counts.noisy, nodes: a.counts.nodes, edges: a.counts.edges, stories: a.counts.stories, detections: a.detections === null ? null : a.detections.count, seconds, wall, maxRssMiB, perStage, ...(digest !== undefined ? { digest } : {}) }));
  process.exit(0);
}

/**
 * `npm run bench -- forensic sigma`: events/s of the Sigma engine on one core, real EVTX events (the evtx corpus, read
 * once, matched many times), with the default set and with every shipped rule; and the pre-filter's share of rules run.
 */
if (process.argv.includes('sigma')) {
  const { readdirSync } = await import('node:fs');
  const { ingestArtifact } = await import('../engines/forensic/ingest.js');
  const { loadSigmaRules, SHIPPED_RULE_SETS, SIGMA_STATUSES, shippedRulesDir } = await import('../engines/forensic/sigma/index.js');
  const root = path.resolve(path.dirname(here), '..', '..', 'shared', 'corpora', 'evtx');
  const events = ['evtx-crate', 'attack-samples'].flatMap((d) =>
    readdirSync(path.join(root, d)).filter((f) => f.endsWith('.evtx')).flatMap((f) => ingestArtifact(path.join(root, d, f), { evidenceRoot: path.join(root, d) }).events),
  );
  const sets = {
    default: () => loadSigmaRules(),
    all: () => loadSigmaRules({ sources: SHIPPED_RULE_SETS.map((name) => ({ name, path: path.join(shippedRulesDir(), name) })), minLevel: 'informational', statuses: SIGMA_STATUSES }),
  };
  for (const [name, make] of Object.entries(sets)) {
    const l0 = process.cpuUsage();
    const set = make();
    const lc = process.cpuUsage(l0);
    // The first pass also builds each event source's index (its rules and pre-filter automaton); later passes reuse them.
    const pass = (): { seconds: number; hits: number } => {
      const c0 = process.cpuUsage();
      let hits = 0;
      for (const e of events) hits += set.match(e).length;
      const c = process.cpuUsage(c0);
      return { seconds: (c.user + c.system) / 1e6, hits };
    };
    const first = pass();
    const rounds = 5;
    let seconds = 0;
    for (let r = 0; r < rounds; r++) seconds += pass().seconds;
    const firstRate = events.length / first.seconds;
    const rate = (events.length * rounds) / seconds;
    console.log(
      `sigma ${name}: ${set.rules.length} rules (load ${((lc.user + lc.system) / 1e6).toFixed(1)} s CPU), ${events.length} EVTX events: first pass ${Math.round(firstRate).toLocaleString('en')} events/s per CPU second (builds the per-source indexes), next ${rounds} passes ${Math.round(rate).toLocaleString('en')} events/s (${(rate / firstRate).toFixed(2)}x the first), ${first.hits} hits a pass`,
    );
  }
  process.exit(0);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

async function write(stream: WriteStream, line: string): Promise<void> {
  if (!stream.write(`${line}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
}

/**
 * Half auth.log lines (logins, sudo, cron, a brute force every 5,000 lines), half dataset-json process events
 * (a process tree per host, with an encoded PowerShell and a shadow-copy deletion every 10,000): `n` events in all.
 */
async function generate(dir: string, n: number): Promise<void> {
  const start = Date.UTC(2024, 0, 1);
  const auth = createWriteStream(path.join(dir, 'auth.log'));
  const half = Math.floor(n / 2);
  for (let i = 0; i < half; i++) {
    const d = new Date(start + i * 1000);
    const ts = `${MONTHS[d.getUTCMonth()] as string} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
    const host = `srv${i % 50}`;
    const k = i % 5000;
    let msg: string;
    if (k < 12) msg = `sshd[${i}]: Failed password for root from 203.0.113.${i % 200} port ${40000 + k} ssh2`;
    else if (k === 12) msg = `sshd[${i}]: Accepted password for root from 203.0.113.${i % 200} port 41000 ssh2`;
    else if (k === 13) msg = 'sudo:   root : TTY=pts/0 ; PWD=/root ; USER=root ; COMMAND=/usr/sbin/useradd -m backup2';
    else if (i % 7 === 0) msg = `sudo:   alice : TTY=pts/1 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/systemctl status nginx`;
    else if (i % 3 === 0) msg = `CRON[${i}]: (root) CMD (cd / && run-parts --report /etc/cron.hourly)`;
    else if (i % 3 === 1) msg = `sshd[${i}]: Accepted publickey for alice from 10.0.${i % 4}.${i % 250} port ${30000 + (i % 20000)} ssh2`;
    else msg = `sshd[${i}]: pam_unix(sshd:session): session opened for user alice by (uid=0)`;
    await write(auth, `${ts} ${host} ${msg}`);
  }
  await new Promise<void>((resolve) => auth.end(() => resolve()));
  const ds = createWriteStream(path.join(dir, 'events.jsonl'));
  await write(ds, JSON.stringify({ format: 'vitrine.forensic.dataset', version: 1, source: 'bench' }));
  const rest = n - half;
  for (let i = 0; i < rest; i++) {
    const host = `WS${i % 100}`;
    const pid = 1000 + i;
    const parent = i % 10 === 0 ? 500 : pid - 1;
    const k = i % 10000;
    const image = k === 5 ? 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe' : k === 6 ? 'C:\\Windows\\System32\\vssadmin.exe' : i % 2 === 0 ? 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' : 'C:\\Windows\\System32\\svchost.exe';
    const cmd = k === 5 ? 'powershell.exe -w hidden -enc SQBFAFgA' : k === 6 ? 'vssadmin delete shadows /all /quiet' : image;
    const event =
      i % 4 === 3
        ? { time: new Date(start + i * 1000).toISOString(), host, action: 'network.connect', actor: { type: 'process', name: image }, object: { type: 'network', name: `142.250.${i % 250}.${i % 200}:443` }, attributes: { eventId: 3, provider: 'Microsoft-Windows-Sysmon', data: { ProcessId: String(pid) } } }
        : { time: new Date(start + i * 1000).toISOString(), host, action: 'process.create', actor: { type: 'process', name: 'C:\\Windows\\explorer.exe' }, object: { type: 'process', name: image }, attributes: { eventId: 1, provider: 'Microsoft-Windows-Sysmon', commandLine: cmd, pid: String(pid), ppid: String(parent) } };
    await write(ds, JSON.stringify(event));
  }
  await new Promise<void>((resolve) => ds.end(() => resolve()));
}

/**
 * `n` EVTX records or a few more: the chunks of the corpus logs (Sysmon, Security, System, PowerShell ...) repeated
 * after one file header, as one synthetic .evtx (chunks are self-contained, so the parser reads them as one log).
 */
function generateEvtx(dir: string, n: number): void {
  const { readdirSync, readFileSync, openSync, writeSync, closeSync } = fsSync;
  const root = path.resolve(path.dirname(here), '..', '..', 'shared', 'corpora', 'evtx');
  const sources = ['evtx-crate', 'attack-samples'].flatMap((d) =>
    readdirSync(path.join(root, d))
      .filter((f) => f.endsWith('.evtx'))
      .sort()
      .map((f) => path.join(root, d, f)),
  );
  const parts = sources.map((file) => {
    const bytes = readFileSync(file);
    let records = 0;
    for (const _ of new EvtxParser({ json: false, xml: false }).recordsFromFileSync(file)) records++;
    const chunks = Math.floor((bytes.length - FILE_HEADER_SIZE) / CHUNK_SIZE);
    return { bytes, records, body: bytes.subarray(FILE_HEADER_SIZE, FILE_HEADER_SIZE + chunks * CHUNK_SIZE) };
  });
  const usable = parts.filter((p) => p.records > 0 && p.body.length > 0);
  const fd = openSync(path.join(dir, 'events.evtx'), 'w');
  writeSync(fd, (usable[0] as (typeof usable)[number]).bytes.subarray(0, FILE_HEADER_SIZE));
  let written = 0;
  for (let i = 0; written < n; i++) {
    const p = usable[i % usable.length] as (typeof usable)[number];
    writeSync(fd, p.body);
    written += p.records;
  }
  closeSync(fd);
}

interface ProbeResult {
  events: number;
  noisy: number;
  nodes: number;
  edges: number;
  stories: number;
  detections: number | null;
  seconds: number;
  wall: number;
  maxRssMiB: number;
  /** Per stage: CPU seconds (all threads; helperSeconds those of the threads other than the main one), and VmHWM, VmRSS and the V8 heap in use when it ended. */
  perStage: { stage: string; seconds: number; helperSeconds: number; hwmMiB: number; rssMiB: number; heapMiB: number }[];
  digest?: Record<string, string>;
}

const rate = (events: number, seconds: number): string => `${Math.round(events / Math.max(seconds, 1e-6)).toLocaleString('en')}/s`;

/** Each stage's CPU seconds and events per CPU second, with its rate as a ratio of the stage before it. */
function stageLine(r: ProbeResult): string {
  return r.perStage
    .map((s, i) => {
      const before = r.perStage[i - 1];
      const ratio = before === undefined ? '' : ` (${(before.seconds / Math.max(s.seconds, 1e-6)).toFixed(2)}x the stage before)`;
      return `${s.stage} ${s.seconds.toFixed(1)} s ${rate(r.events, s.seconds)}${ratio}`;
    })
    .join('; ');
}

/**
 * `npm run bench -- forensic ingest-ab <checkout> [text|evtx] [rounds=N]`: this tree's ingest (ingestArtifact, events
 * streamed slim as the analysis takes them) against another checkout's (a git worktree of an earlier commit), both
 * loaded into one process and run in alternating rounds over the same generated input (100,000 text events; about
 * 49,000 EVTX records: the bench's EVTX body cut to 1,000 chunks), so both sides see the same machine load. Checks that
 * both hand over the same events (a digest of every event's JSON), then prints each side's median CPU milliseconds a
 * round, the median of the paired ratios (this tree / the other; below 1 is faster) and each side's fastest round.
 */
if (process.argv.includes('ingest-ab')) {
  const other = process.argv[process.argv.indexOf('ingest-ab') + 1];
  if (other === undefined) throw new Error('usage: forensic ingest-ab <checkout> [text|evtx] [rounds=N]');
  const rounds = Number(process.argv.find((a) => a.startsWith('rounds='))?.slice(7) ?? 12);
  const { createHash } = await import('node:crypto');
  const mine = (await import('../engines/forensic/ingest.js')) as Ingest;
  const theirs = (await import(pathToFileURL(path.resolve(other, 'engines', 'forensic', 'ingest.ts')).href)) as Ingest;
  for (const format of (['text', 'evtx'] as const).filter((f) => !process.argv.includes(f === 'text' ? 'evtx' : 'text'))) {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-ingest-ab-'));
    try {
      if (format === 'text') await generate(dir, 100_000);
      else {
        generateEvtx(dir, 50_000);
        // Whole chunks only (the generator may write a few more records than asked).
        const whole = path.join(dir, 'events.evtx');
        fsSync.truncateSync(whole, Math.min(fsSync.statSync(whole).size, FILE_HEADER_SIZE + 1000 * CHUNK_SIZE));
      }
      const files = format === 'text' ? ['auth.log', 'events.jsonl'] : ['events.evtx'];
      const run = (m: Ingest, digest: boolean): { ms: number; events: number; digest: string } => {
        const h = digest ? createHash('sha256') : null;
        let events = 0;
        const c0 = process.cpuUsage();
        for (const f of files)
          m.ingestArtifact(path.join(dir, f), {
            evidenceRoot: dir,
            year: 2024,
            collectEvents: false,
            onEvent: (e) => {
              events++;
              h?.update(`${JSON.stringify(e)}\n`);
            },
          });
        const c = process.cpuUsage(c0);
        return { ms: (c.user + c.system) / 1e3, events, digest: h?.digest('hex') ?? '' };
      };
      const a0 = run(theirs, true);
      const b0 = run(mine, true);
      if (a0.digest !== b0.digest || a0.events !== b0.events) throw new Error(`${format}: the two checkouts hand over different events`);
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < rounds; i++) {
        // Alternate which side goes first.
        if (i % 2 === 0) {
          a.push(run(theirs, false).ms);
          b.push(run(mine, false).ms);
        } else {
          b.push(run(mine, false).ms);
          a.push(run(theirs, false).ms);
        }
      }
      const median = (x: readonly number[]): number => {
        const sorted = [...x].sort((p, q) => p - q);
        const mid = sorted.length >> 1;
        return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
      };
      console.log(
        `${format}: ${b0.events.toLocaleString('en')} events, the same from both; ${rounds} rounds a side: other ${median(a).toFixed(0)} ms, this tree ${median(b).toFixed(0)} ms (median); paired ratio this/other ${median(b.map((x, i) => x / (a[i] as number))).toFixed(3)}; fastest ${Math.min(...a).toFixed(0)} / ${Math.min(...b).toFixed(0)} ms`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  process.exit(0);
}

const heapEnv = process.env['FORENSIC_BENCH_HEAP_MIB'];
const heapMiB = heapEnv === undefined ? undefined : Number(heapEnv);
if (heapMiB !== undefined && (!Number.isInteger(heapMiB) || heapMiB < 64)) throw new Error('FORENSIC_BENCH_HEAP_MIB must be a whole number of MiB, at least 64');
const v8Flags = [...(WORKER_PROFILES.find((p) => p.services.includes('forensic'))?.v8Flags ?? WORKER_V8_FLAGS), ...(heapMiB === undefined ? [] : [`--max-old-space-size=${heapMiB}`])];
const sizes = process.argv.slice(2).map(Number).filter((x) => Number.isInteger(x) && x > 0);
const runs = sizes.length > 0 ? sizes : [10_000, 100_000, 1_000_000];
const formats = (['text', 'evtx'] as const).filter((f) => !process.argv.includes(f === 'text' ? 'evtx' : 'text'));
console.log(
  `forensic analysis: raw files to ranked stories, one child process per size and format with the forensic worker's V8 flags (${v8Flags.join(' ')}); text = auth.log + dataset JSON lines, evtx = the corpus logs' chunks repeated in one .evtx; rates are per CPU second`,
);
for (const n of runs)
  for (const format of formats) {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-forensic-'));
    try {
      if (format === 'text') await generate(dir, n);
      else generateEvtx(dir, n);
      const files = format === 'text' ? ['auth.log', 'events.jsonl'] : ['events.evtx'];
      const child = spawnSync(process.execPath, ['--import', 'tsx', ...v8Flags, here, '--probe', dir, ...files], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (child.status !== 0) {
        console.log(`${n} ${format} events: failed (${child.stderr.split('\n').slice(-5).join(' ')})`);
        continue;
      }
      const r = JSON.parse(child.stdout.trim().split('\n').pop() as string) as ProbeResult;
      console.log(
        `${String(n).padStart(9)} ${format.padEnd(4)}: ${r.events.toLocaleString('en')} events, ${rate(r.events, r.seconds)} of CPU time (${r.seconds.toFixed(1)} s CPU, ${r.wall.toFixed(1)} s wall), peak RSS ${Math.round(r.maxRssMiB)} MiB, ${r.nodes} nodes, ${r.edges} edges, ${r.stories} stories, ${r.detections ?? 'no'} detections, ${r.noisy} noisy`,
      );
      console.log(`${' '.repeat(16)}stages: ${stageLine(r)}`);
      console.log(`${' '.repeat(16)}of which threads other than the main one (V8's collector and compilers): ${r.perStage.map((s) => `${s.stage} ${s.helperSeconds.toFixed(1)} s`).join('; ')}`);
      console.log(`${' '.repeat(16)}memory at each stage's end (VmHWM / VmRSS / heap used, MiB): ${r.perStage.map((s) => `${s.stage} ${Math.round(s.hwmMiB)}/${Math.round(s.rssMiB)}/${Math.round(s.heapMiB)}`).join('; ')}`);
      if (r.digest !== undefined) console.log(`${' '.repeat(16)}outputs: ${Object.entries(r.digest).map(([k, v]) => `${k} ${v.slice(0, 16)}`).join(', ')}`);
    } finally {
      if (process.env['FORENSIC_BENCH_KEEP'] === undefined) rmSync(dir, { recursive: true, force: true });
      else console.log(`kept ${dir}`);
    }
  }
