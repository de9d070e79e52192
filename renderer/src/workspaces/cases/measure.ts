// Measures the timeline model at 100,000 events: index build, density strip per zoom step, window query, and with a
// filter typed (one event in ten kept) the kept list and the strip of the kept events. Run: npx tsx renderer/src/workspaces/cases/measure.ts
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';
import { buildTimeline, eventMatches, fullRange, histogram, keptEvents, windowOf, zoom } from './model';

const N = 100_000;
const T0 = Date.parse('2024-01-01T00:00:00Z');
const events: ExportedEvent[] = Array.from({ length: N }, (_, i) => ({
  eventId: i.toString(16).padStart(16, '0'),
  integrityHash: '',
  time: { time: new Date(T0 + ((i * 7919) % N) * 1000).toISOString(), precision: 'second', source: '' },
  host: 'H',
  actor: null,
  action: i % 10 === 0 ? 'logon' : 'a',
  object: null,
  summary: 's',
  kind: 'evtx',
  loader: 'l',
  reliability: 'B',
  attributes: {},
}));
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
t = performance.now();
let kept = keptEvents(index, () => true);
for (let i = 0; i < 20; i++) kept = keptEvents(index, (e) => eventMatches(e, i % 2 ? 'logon' : 'LOGON'));
const keep = (performance.now() - t) / 20;
t = performance.now();
for (let i = 0; i < 100; i++) histogram(index, zoom(full, full, 0.5 ** (i % 10), (i % 7) / 7), 160, kept);
const keptStrip = (performance.now() - t) / 100;
console.log(`filter keeping ${kept.length}: kept list ${keep.toFixed(2)} ms per filter typed; its strip ${keptStrip.toFixed(2)} ms per zoom step`);
console.log(`${N} events: index ${build.toFixed(1)} ms; density strip (160 bins) ${strip.toFixed(2)} ms per zoom step; window ${query.toFixed(2)} µs per query`);
