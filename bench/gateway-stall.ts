// `npm run bench -- gateway-stall [events]` (env STALL_ROUNDS, STALL_MODES): /api/health latency (p50/p99) of the headless workstation while 4 clients read a large forensic case at once.
// The case is generated (dataset-JSON process and network events, ~27k by default) below a temporary evidence root and
// analysed with noisy events kept, so every generated event is in the timeline. Three loads are measured, each for a
// fixed number of rounds: idle; 4 clients repeating GET .../cases/{id}?events=all (what the issue reported); and 4
// clients each reading every event page by page, the way the Cases workspace now loads its timeline. Under each load it
// also prints the gateway thread's busy time (event loop utilisation) and its garbage collections (Node's gc entries),
// and the load average before and after.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance as perf } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { latencySummary } from './_measures.js';

const n = Number(process.argv[3] ?? process.argv[2]) > 0 ? Number(process.argv[3] ?? process.argv[2]) : 27_000;
const CLIENTS = 4;
const ROUNDS = Number(process.env['STALL_ROUNDS'] ?? 6) || 6;
const HEALTH_GAP_MS = 5;

const work = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-stall-'));
const home = path.join(work, 'home');
const evidence = path.join(work, 'evidence');
mkdirSync(home);
mkdirSync(evidence);

/** n dataset-JSON events over 100 hosts: process trees and their network connections. */
async function generate(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = async (line: string): Promise<void> => {
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  await write(JSON.stringify({ format: 'vitrine.forensic.dataset', version: 1, source: 'bench' }));
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < n; i++) {
    const host = `WS${i % 100}`;
    const pid = 1000 + i;
    const image = i % 2 === 0 ? 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' : 'C:\\Windows\\System32\\svchost.exe';
    const event =
      i % 4 === 3
        ? { time: new Date(start + i * 1000).toISOString(), host, action: 'network.connect', actor: { type: 'process', name: image }, object: { type: 'network', name: `142.250.${i % 250}.${i % 200}:443` }, attributes: { eventId: 3, provider: 'Microsoft-Windows-Sysmon', data: { ProcessId: String(pid) } } }
        : { time: new Date(start + i * 1000).toISOString(), host, action: 'process.create', actor: { type: 'process', name: 'C:\\Windows\\explorer.exe' }, object: { type: 'process', name: image }, attributes: { eventId: 1, provider: 'Microsoft-Windows-Sysmon', commandLine: `${image} --type=renderer --id=${i}`, pid: String(pid), ppid: String(i % 10 === 0 ? 500 : pid - 1) } };
    await write(JSON.stringify(event));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/** The readers' thread (plain JavaScript): `clients` loops of `rounds` reads each, all events page by page in mode `paged`. */
const READERS = `
const { parentPort, workerData: d } = require('node:worker_threads');
async function read() {
  if (d.mode === 'all') {
    const text = await (await fetch(d.svc + '/cases/' + d.id + '?events=all', { headers: d.auth })).text();
    return { bytes: text.length, events: JSON.parse(text).analysis.events.length };
  }
  let bytes = 0, events = 0;
  for (let offset = 0; ; ) {
    const text = await (await fetch(d.svc + '/cases/' + d.id + '?events=all&graph=stories&attributes=false&events_limit=10000&events_offset=' + offset, { headers: d.auth })).text();
    bytes += text.length;
    const a = JSON.parse(text).analysis;
    events += a.events.length;
    offset += a.events.length;
    if (!a.eventsPage || a.events.length === 0 || offset >= a.eventsPage.total) break;
  }
  return { bytes, events };
}
let last = { bytes: 0, events: 0 };
// A kept-alive socket the server closes (or resets) while the next request is on its way (its 5 s idle timeout, reached when this
// thread is slow to parse under load) is the client's race, not the gateway's answer: such a read is made again once.
const again = async () => { try { return await read(); } catch (e) { if (e?.cause?.code !== 'UND_ERR_SOCKET' && e?.cause?.code !== 'ECONNRESET') throw e; return read(); } };
Promise.all(Array.from({ length: d.clients }, async () => { for (let r = 0; r < d.rounds; r++) last = await again(); })).then(() => parentPort.postMessage(last));
`;


await generate(path.join(evidence, 'events.jsonl'));
process.env['FORENSIC_EVIDENCE_ROOT'] = evidence;
process.env['VITRINE_HOME'] = home;
const { startWorkstation } = await import('../main/headless.js');
const ws = await startWorkstation({ port: 0, host: '127.0.0.1', dataDir: home, rendererDir: path.join(work, 'no-renderer') });
const auth = { authorization: `Bearer ${ws.token}` };
const svc = `${ws.url}/svc/forensic/api`;

try {
  const t0 = performance.now();
  const made = await fetch(`${svc}/cases/path?wait=true`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['events.jsonl'], kind: 'dataset-json', includeNoisy: true }) });
  if (!made.ok) throw new Error(`case creation failed: ${made.status} ${await made.text()}`);
  const id = made.headers.get('x-case-id') as string;
  const summary = (await made.json()) as { counts: { events: number; nodes: number } };
  console.log(`case: ${summary.counts.events.toLocaleString('en')} events, ${summary.counts.nodes.toLocaleString('en')} nodes (analysed in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  /** Samples /api/health one after another until `done` settles; answers the latencies in ms. */
  const sampleHealth = async (done: Promise<unknown>, min = 0): Promise<number[]> => {
    let finished = false;
    void done.finally(() => (finished = true));
    const ms: number[] = [];
    while (!finished || ms.length < min) {
      const s = performance.now();
      const r = await fetch(`${ws.url}/api/health`);
      await r.arrayBuffer();
      ms.push(performance.now() - s);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_GAP_MS));
    }
    return ms;
  };

  /**
   * The 4 clients run in a worker thread: parsing their answers on this thread would stall the gateway's event loop
   * (it shares this process) and be counted against it. Each mode answers the last read's bytes and events.
   */
  const readers = (mode: 'all' | 'paged'): Promise<{ bytes: number; events: number }> =>
    new Promise((resolve, reject) => {
      const w = new Worker(READERS, { eval: true, workerData: { mode, svc, id, auth, clients: CLIENTS, rounds: ROUNDS } });
      w.once('message', resolve);
      w.once('error', reject);
    });

  const report = (name: string, ms: number[], extra = ''): void => {
    console.log(`${name.padEnd(34)} health ${latencySummary(ms)}${extra}`);
  };

  const loadAvg = (): string => loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`load average ${loadAvg()} (1, 5, 15 min)`);
  report('idle', await sampleHealth(new Promise((resolve) => setTimeout(resolve, 2000)), 100));
  // STALL_MODES=paged (or all) measures one of the two loads only.
  const modes = (process.env['STALL_MODES'] ?? 'all,paged').split(',');
  /** The gateway thread (this one) over a load: its busy time (event loop utilisation) and its garbage collections. */
  const threadUse = (): (() => string) => {
    const gcs: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcs.push(e.duration);
    });
    observer.observe({ entryTypes: ['gc'] });
    const elu = perf.eventLoopUtilization();
    return () => {
      observer.disconnect();
      const used = perf.eventLoopUtilization(elu);
      const total = gcs.reduce((a, b) => a + b, 0);
      return `; gateway thread busy ${(used.active / 1000).toFixed(1)} s, ${gcs.length} collections ${(total / 1000).toFixed(2)} s (longest ${Math.max(0, ...gcs).toFixed(0)} ms)`;
    };
  };

  for (const [name, mode] of [
    ['4 x ?events=all', 'all'],
    ['4 x every page (10k, no attributes)', 'paged'],
  ] as const) {
    if (!modes.includes(mode)) continue;
    const s = performance.now();
    const use = threadUse();
    const load = readers(mode);
    const ms = await sampleHealth(load);
    const last = await load;
    report(name, ms, `; each read ${last.events.toLocaleString('en')} events, ${(last.bytes / 1e6).toFixed(1)} MB; ${CLIENTS * ROUNDS} reads in ${((performance.now() - s) / 1000).toFixed(1)} s${use()}`);
  }
  console.log(`load average ${loadAvg()} (1, 5, 15 min)`);
} finally {
  await ws.close();
  rmSync(work, { recursive: true, force: true });
}
