// Measures the timeline model at 100,000 events: index build, density strip per zoom step, window query, and with a
// filter typed (one event in ten kept) the events' search texts (once per case), the kept list and the strip of the kept events;
// then a filter typed early, before any search text is made, in one go (`early=one-go`) or in idle slices (`early=slices`, the
// timeline's way): the longest main-thread block. Each slice's garbage collections are timed (Node's gc entries), so the
// longest slice is said to be work or collection.
// Run: npx tsx renderer/src/workspaces/cases/measure.ts [early=slices|early=one-go]
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';
import { SLICE_MS } from './idle-slices';
import { matchInSlices } from './match-slices';
import { buildTimeline, filterTerm, fullRange, histogram, keptEvents, makeSearchTexts, searchTexts, textMatches, windowOf, zoom, type TimelineIndex } from './model';

const N = 100_000;
const T0 = Date.parse('2024-01-01T00:00:00Z');
// Fields about as long as a Sysmon process creation's: a host name, a user, a path and its command line.
const events: ExportedEvent[] = Array.from({ length: N }, (_, i) => ({
  eventId: i.toString(16).padStart(16, '0'),
  integrityHash: '',
  time: { time: new Date(T0 + ((i * 7919) % N) * 1000).toISOString(), precision: 'second', source: '' },
  host: `WS${(i % 100).toString().padStart(3, '0')}.corp.example.com`,
  actor: { type: 'user', name: `CORP\\user${i % 500}` },
  action: i % 10 === 0 ? 'logon' : 'process-create',
  object: { type: 'process', name: `C:\\Program Files\\Vendor ${i % 50}\\bin\\tool${i % 7}.exe` },
  summary: `Microsoft-Windows-Sysmon 1: process-create C:\\Program Files\\Vendor ${i % 50}\\bin\\tool${i % 7}.exe --run ${i}`,
  kind: 'evtx',
  loader: 'l',
  reliability: 'B',
  attributes: {},
}));
/** The kept list for a filter as the timeline makes it (Timeline.tsx): each event's search text, made once per case. */
function kept(index: TimelineIndex, filter: string): Uint32Array {
  const term = filterTerm(filter);
  const texts = searchTexts(index);
  return keptEvents(index, (e, i) => textMatches(texts[i] ?? '', e, term));
}
// Garbage collections as Node reports them (start and duration on the performance.now() clock), to tell what the long slices did.
const gcs: { start: number; ms: number; kind: number }[] = [];
const Observer = (globalThis as { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
const gcObserver = Observer === undefined ? null : new Observer((list) => list.getEntries().forEach((e) => gcs.push({ start: e.startTime, ms: e.duration, kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0 })));
try {
  gcObserver?.observe({ entryTypes: ['gc'] });
} catch {
  // No gc entries here (a browser): the slices are timed without them.
}
/** Milliseconds of garbage collection inside [from, to]. */
const gcIn = (from: number, to: number): number => gcs.reduce((a, g) => a + Math.max(0, Math.min(to, g.start + g.ms) - Math.max(from, g.start)), 0);
/** The kinds of the collections inside [from, to] (Node's gc kinds: 1 scavenge, 4 mark-compact, 8 incremental marking, 16 weak callbacks). */
const gcKinds = (from: number, to: number): string =>
  gcs
    .filter((g) => g.start < to && g.start + g.ms > from)
    .map((g) => `${({ 1: 'scavenge', 4: 'mark-compact', 8: 'incremental', 16: 'weak' } as Record<number, string>)[g.kind] ?? `kind ${g.kind}`} ${g.ms.toFixed(0)} ms`)
    .join(', ') || 'none';
const early = (globalThis as { process?: { argv: string[] } }).process?.argv.includes('early=one-go') === true ? 'one-go' : 'slices';
let t = performance.now();
const index = buildTimeline(events);
const build = performance.now() - t;
const full = fullRange(index);
t = performance.now();
for (let i = 0; i < 100; i++) histogram(index, zoom(full, full, 0.5 ** (i % 10), (i % 7) / 7), 160);
const strip = (performance.now() - t) / 100;
t = performance.now();
for (let i = 0; i < 10_000; i++) windowOf(index, zoom(full, full, 0.01, i / 10_000));
const query = ((performance.now() - t) / 10_000) * 1000;
// The search texts, made as the timeline makes them while the page is idle (Timeline.tsx, idle-slices.ts): slices that
// end after SLICE_MS (an idle deadline can only end them sooner).
// Wall time per slice, and the process's CPU time in it (Node's process.cpuUsage): on a busy host the wall time also
// holds the time the process was waiting for a core, which no slice size avoids.
const cpuUsage = (globalThis as { process?: { cpuUsage(): { user: number; system: number } } }).process?.cpuUsage;
const cpuMs = (): number => {
  const u = cpuUsage?.();
  return u === undefined ? 0 : (u.user + u.system) / 1000;
};
const slices: number[] = [];
const cpu: number[] = [];
const spans: [number, number][] = [];
for (let done = false; !done; ) {
  const c = cpuMs();
  t = performance.now();
  const start = t;
  done = makeSearchTexts(index, N, () => SLICE_MS - (performance.now() - start));
  spans.push([t, performance.now()]);
  slices.push(performance.now() - t);
  cpu.push(cpuMs() - c);
}
const sorted = [...slices].sort((a, b) => a - b);
const at = (q: number): string => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
const texts = slices.reduce((a, b) => a + b, 0);
let keptList = kept(index, 'l');
t = performance.now();
// As typed: each keystroke's filter, one event in ten kept at the end.
const typed = ['lo', 'log', 'logo', 'logon', 'LOGON', 'logo', 'logon'];
for (let i = 0; i < 21; i++) keptList = kept(index, typed[i % typed.length] as string);
const keep = (performance.now() - t) / 21;
t = performance.now();
for (let i = 0; i < 100; i++) histogram(index, zoom(full, full, 0.5 ** (i % 10), (i % 7) / 7), 160, keptList);
const keptStrip = (performance.now() - t) / 100;
console.log(`filter keeping ${keptList.length}: search texts ${texts.toFixed(0)} ms once per case, in ${slices.length} idle slices (median ${at(0.5)} ms, 99th percentile ${at(0.99)} ms, longest ${Math.max(...slices).toFixed(1)} ms, ${slices.filter((x) => x > 2 * SLICE_MS).length} over ${2 * SLICE_MS} ms; CPU longest ${Math.max(...cpu).toFixed(1)} ms); kept list ${keep.toFixed(2)} ms per filter typed; its strip ${keptStrip.toFixed(2)} ms per zoom step`);
// A filter typed early: a fresh index (no search text made), the keys of "logon" typed one after another, each
// 5 slices (about 40 ms of matching) after the last; in one go each key's kept list is one block.
const fresh = buildTimeline(events);
const blocks: { ms: number; cpu: number; gc: number }[] = [];
const block = (run: () => void): void => {
  const c = cpuMs();
  const from = performance.now();
  run();
  const to = performance.now();
  blocks.push({ ms: to - from, cpu: cpuMs() - c, gc: 0 });
  spansEarly.push([from, to]);
};
const spansEarly: [number, number][] = [];
const keys = ['l', 'lo', 'log', 'logo', 'logon'];
let earlyKept = 0;
keys.forEach((key, k) => {
  if (early === 'one-go') {
    block(() => (earlyKept = kept(fresh, key).length));
    return;
  }
  const term = filterTerm(key);
  const m = matchInSlices(fresh, (e, _i, text) => textMatches(text, e, term));
  for (let n = 0, done = false; !done && (k === keys.length - 1 || n < 5); n++)
    block(() => {
      const start = performance.now();
      done = m.step(() => SLICE_MS - (performance.now() - start));
    });
  earlyKept = m.progress().kept.length;
});
const total = (xs: readonly { ms: number }[]): number => xs.reduce((a, b) => a + b.ms, 0);
setTimeout(() => {
  gcObserver?.disconnect();
  const longest = (xs: readonly number[]): number => xs.indexOf(Math.max(...xs));
  const lt = longest(slices);
  const [lf, lto] = spans[lt] ?? [0, 0];
  console.log(`longest text slice ${(slices[lt] ?? 0).toFixed(1)} ms: ${gcIn(lf, lto).toFixed(1)} ms of it garbage collection (${gcKinds(lf, lto)}); all slices ${gcIn(spans[0]?.[0] ?? 0, spans[spans.length - 1]?.[1] ?? 0).toFixed(0)} ms of collection in ${texts.toFixed(0)} ms`);
  blocks.forEach((b, i) => (b.gc = gcIn(...(spansEarly[i] ?? [0, 0]))));
  const eb = [...blocks].sort((a, b) => b.ms - a.ms)[0] ?? { ms: 0, cpu: 0, gc: 0 };
  const eSorted = blocks.map((b) => b.ms).sort((a, b) => a - b);
  console.log(`filter typed early (${early}): "logon" keeps ${earlyKept}; ${blocks.length} main-thread blocks, ${total(blocks).toFixed(0)} ms in all, median ${(eSorted[Math.floor(eSorted.length / 2)] ?? 0).toFixed(1)} ms, longest ${eb.ms.toFixed(1)} ms (CPU ${eb.cpu.toFixed(1)} ms, garbage collection ${eb.gc.toFixed(1)} ms: ${gcKinds(...(spansEarly[blocks.indexOf(eb)] ?? [0, 0]))}), ${blocks.filter((b) => b.ms > 2 * SLICE_MS).length} over ${2 * SLICE_MS} ms`);
}, 50);
console.log(`${N} events: index ${build.toFixed(1)} ms; density strip (160 bins) ${strip.toFixed(2)} ms per zoom step; window ${query.toFixed(2)} µs per query`);
