// Measures the timeline model at 100,000 events: index build, density strip per zoom step, window query, and with a
// filter typed (one event in ten kept) the events' search texts (once per case), the kept list and the strip of the kept events. Run: npx tsx renderer/src/workspaces/cases/measure.ts
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';
import { SLICE_MS } from './idle-slices';
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
for (let done = false; !done; ) {
  const c = cpuMs();
  t = performance.now();
  const start = t;
  done = makeSearchTexts(index, N, () => SLICE_MS - (performance.now() - start));
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
console.log(`${N} events: index ${build.toFixed(1)} ms; density strip (160 bins) ${strip.toFixed(2)} ms per zoom step; window ${query.toFixed(2)} µs per query`);
