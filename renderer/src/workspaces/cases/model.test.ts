// The Cases workspace's pure pieces: timeline index and windows, zoom and pan, density, virtual rows, the graph to draw, path parsing.
import { describe, expect, it } from 'vitest';
import type { AnalysisView, ExportedEvent, GraphNode, Story } from '../../../../engines/core/contracts/forensic';
import { buildTimeline, CLOCK_EVERY, findingTitle, gradeClass, zonedTime, breakdownBars, storyRange, eventMatches, exportName, filterTerm, makeSearchTexts, searchText, searchTexts, textMatches, fullRange, graphToDraw, histogram, keptEvents, keptInWindow, MIN_SPAN_MS, pan, parsePaths, visibleRows, windowOf, zoom } from './model';
import { testEvent } from './events.fixture';

function ev(i: number, time: string | null): ExportedEvent {
  return testEvent(i, time, { action: i % 2 ? 'logon' : 'process-create' });
}

const T0 = Date.parse('2024-01-01T00:00:00Z');
/** n events one second apart, shuffled, plus two without a time. */
function events(n: number): ExportedEvent[] {
  const out = Array.from({ length: n }, (_, i) => ev(i, new Date(T0 + i * 1000).toISOString()));
  for (let i = out.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [out[i], out[j]] = [out[j] as ExportedEvent, out[i] as ExportedEvent];
  }
  return [ev(n, null), ...out, ev(n + 1, null)];
}

describe('timeline index', () => {
  it('sorts by time with timeless events last, and windows by binary search', () => {
    const idx = buildTimeline(events(100_000));
    expect(idx.events).toHaveLength(100_002);
    expect(idx.timed).toBe(100_000);
    expect(idx.events[0]?.summary).toBe('event 0');
    expect(idx.events[99_999]?.summary).toBe('event 99999');
    expect(idx.events[100_000]?.time.time).toBeNull();
    const w = windowOf(idx, { from: T0 + 10_000, to: T0 + 19_000 });
    expect(w).toEqual({ start: 10, end: 20 });
    expect(windowOf(idx, { from: T0 - 5000, to: T0 - 1 })).toEqual({ start: 0, end: 0 });
  });

  it('counts events in equal bins over a range', () => {
    const idx = buildTimeline(events(1000));
    const counts = histogram(idx, { from: T0, to: T0 + 1_000_000 }, 10);
    expect([...counts]).toEqual(Array(10).fill(100));
  });

  it('counts only the kept events when a filter keeps some, from the same list the rows read', () => {
    const idx = buildTimeline(events(1000));
    // Odd-numbered events are logons (see ev); timeless ones are kept but have no bin.
    const kept = keptEvents(idx, (e) => e.action === 'logon');
    expect(kept.length).toBe(501);
    const range = { from: T0, to: T0 + 1_000_000 };
    expect([...histogram(idx, range, 10, kept)]).toEqual(Array(10).fill(50));
    const { start, end } = windowOf(idx, { from: T0 + 100_000, to: T0 + 199_000 });
    const rows = keptInWindow(kept, start, end);
    expect(rows.length).toBe(50);
    expect([...rows].every((i) => idx.events[i]?.action === 'logon' && i >= start && i < end)).toBe(true);
    expect([...histogram(idx, { from: T0 + 100_000, to: T0 + 199_999 }, 1, kept)]).toEqual([rows.length]);
    expect(keptInWindow(keptEvents(idx, () => false), 0, idx.events.length).length).toBe(0);
  });

  it('zooms around an anchor, never past the whole case or below a second, and pans inside it', () => {
    const full = { from: 0, to: 100_000 };
    expect(zoom(full, full, 0.5, 0.5)).toEqual({ from: 25_000, to: 75_000 });
    expect(zoom(full, full, 0.5, 0)).toEqual({ from: 0, to: 50_000 });
    expect(zoom(full, full, 4)).toEqual(full);
    const tiny = zoom({ from: 10_000, to: 10_500 }, full, 0.1);
    expect(tiny.to - tiny.from).toBe(MIN_SPAN_MS);
    expect(pan({ from: 0, to: 50_000 }, full, 0.5)).toEqual({ from: 25_000, to: 75_000 });
    expect(pan({ from: 50_000, to: 100_000 }, full, 0.5)).toEqual({ from: 50_000, to: 100_000 });
    expect(fullRange(buildTimeline([])).to).toBeGreaterThan(0);
    expect(storyRange([40_000, 20_000, 30_000], full)).toEqual({ from: 19_000, to: 41_000 });
    expect(storyRange([99_900], full)).toEqual({ from: 99_400, to: 100_000 });
    expect(storyRange([], full)).toEqual(full);
  });

  it('renders only the rows in view (with overscan), whatever the count', () => {
    expect(visibleRows(0, 360, 24, 100_000)).toEqual({ first: 0, last: 23 });
    expect(visibleRows(24 * 50_000, 360, 24, 100_000)).toEqual({ first: 49_992, last: 50_023 });
    expect(visibleRows(24 * 200_000, 360, 24, 100)).toEqual({ first: 199_992, last: 199_992 });
  });

  it('filters on summary, action, host and id', () => {
    const e = ev(5, null);
    expect(eventMatches(e, 'LOGON')).toBe(true);
    expect(eventMatches(e, 'nothing')).toBe(false);
    expect(eventMatches(e, '  ')).toBe(true);
  });

  it('matches through the kept search texts exactly as each field was matched on its own', () => {
    // The filter as it was: every field lower-cased and searched for each event on each keystroke.
    const fieldByField = (x: ExportedEvent, filter: string): boolean => {
      const f = filter.trim().toLowerCase();
      if (!f) return true;
      return [x.summary, x.action, x.host ?? '', x.eventId, x.actor?.name ?? '', x.object?.name ?? ''].some((v) => v.toLowerCase().includes(f));
    };
    let seed = 0x2545f491;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    // Letters that change length or by context when lower-cased (İ, final Σ), the field break itself, spaces, dots.
    const ALPHABET = ['a', 'B', 'c', 'İ', 'i', 'Σ', 'σ', 'Ω', ' ', '.', '\\', '\u0000', '\n', 'É', 'ß'];
    const word = (max: number): string => Array.from({ length: rand(max) }, () => ALPHABET[rand(ALPHABET.length)]).join('');
    const entity = (): { type: string; name: string } | null => (rand(3) === 0 ? null : { type: 'process', name: word(6) });
    const sample = Array.from({ length: 400 }, (_, i) => testEvent(i, rand(5) === 0 ? null : new Date(T0 + rand(1000) * 1000).toISOString(), { summary: word(12), action: word(5), host: rand(4) === 0 ? null : word(5), actor: entity(), object: entity() }));
    const idx = buildTimeline(sample);
    const texts = searchTexts(idx);
    expect(searchTexts(idx)).toBe(texts);
    // Made in slices (as the timeline does while idle), then finished by the first filter: the same texts.
    const sliced = buildTimeline(sample);
    expect(makeSearchTexts(sliced, 150)).toBe(false);
    expect(makeSearchTexts(sliced, 150)).toBe(false);
    expect(searchTexts(sliced)).toEqual(texts);
    expect(makeSearchTexts(sliced, 150)).toBe(true);
    // Bounded in time: a slice stops at the first look at the clock that finds no time left (every CLOCK_EVERY texts),
    // and makes that many even when none was left; the texts are the same.
    const timed = buildTimeline(sample);
    let looks = 0;
    expect(makeSearchTexts(timed, sample.length, () => (++looks < 3 ? 1 : 0))).toBe(false);
    expect(looks).toBe(3);
    expect(makeSearchTexts(timed, sample.length, () => 0)).toBe(false);
    expect(makeSearchTexts(timed, sample.length, () => 1)).toBe(true);
    expect(searchTexts(timed)).toEqual(texts);
    const counted = buildTimeline(sample);
    makeSearchTexts(counted, sample.length, () => 0);
    makeSearchTexts(counted, sample.length, () => 0);
    // Two slices with no time made CLOCK_EVERY texts each: the rest take this many looks.
    let rest = 0;
    expect(makeSearchTexts(counted, sample.length, () => (rest++, 1))).toBe(true);
    expect(rest).toBe(Math.floor((sample.length - 2 * CLOCK_EVERY) / CLOCK_EVERY));
    let compared = 0;
    let matched = 0;
    for (let n = 0; n < 3000; n++) {
      const i = rand(idx.events.length);
      const e = idx.events[i] as ExportedEvent;
      expect(texts[i]).toBe(searchText(e));
      // A piece of this event's own search text (so within a field, or across a field break), a random word, or a case change of either.
      const own = texts[i] as string;
      const at = rand(own.length + 1);
      const piece = [own.slice(at, at + 1 + rand(4)), word(3), ` ${word(2).toUpperCase()} `][rand(3)] as string;
      // Against every event of a few, so most comparisons are of events the piece was not taken from.
      for (const j of [i, rand(idx.events.length)]) {
        const x = idx.events[j] as ExportedEvent;
        const was = fieldByField(x, piece);
        expect(textMatches(texts[j] as string, x, filterTerm(piece))).toBe(was);
        expect(eventMatches(x, piece)).toBe(was);
        compared++;
        if (was) matched++;
      }
    }
    expect(compared).toBe(6000);
    // Both answers are well represented.
    expect(matched).toBeGreaterThan(1000);
    expect(compared - matched).toBeGreaterThan(1000);
  });
});

describe('graph, charts, names, paths', () => {
  const node = (id: string): GraphNode => ({ id, kind: 'process', label: id, host: 'WS01', attributes: {}, eventIds: [], sources: [] });
  const story = (id: string, nodeIds: string[]): Story => ({
    id,
    rank: 1,
    title: id,
    summary: '',
    rootNodeId: nodeIds[0] ?? '',
    hosts: [],
    start: null,
    end: null,
    suspicion: 1,
    confidence: { reliability: 1, corroboration: 1, temporalFit: 1, edgeStrength: 1, penalty: 1, score: 1, grade: 'HIGH' },
    techniques: [],
    stages: [],
    nodeIds,
    edgeIds: [],
    eventIds: [],
    chains: [],
  });
  const view = (n: number, stories: Story[]): AnalysisView => ({
    version: '1',
    generatedAt: '',
    counts: { events: 0, nodes: n, edges: 0, stories: stories.length, indicators: 0, noisy: 0 },
    evidence: [],
    stories,
    nodes: Array.from({ length: n }, (_, i) => node(`n${i}`)),
    edges: [{ id: 'e', from: 'n0', to: 'n1', rule: 'r', relation: 'spawned', confidence: 1, time: null, eventIds: [], techniques: [], stage: null }],
    tampering: { tampered: false, penalty: 1, indicators: [] },
    events: [],
    eventsTruncated: false,
  });

  it('draws the whole graph when small, otherwise the stories (selected first), capped', () => {
    expect(graphToDraw(view(10, []), null).nodes).toHaveLength(10);
    const s1 = story('S1', ['n0', 'n1']);
    const s2 = story('S2', ['n5', 'n6', 'n7']);
    const big = graphToDraw(view(1000, [s1, s2]), s2, 4);
    expect(big.nodes.map((n) => n.id)).toEqual(['n5', 'n6', 'n7', 'n0']);
    expect(big.omitted).toBe(996);
    expect(big.edges).toHaveLength(0);
  });

  it('labels the breakdown, names exports and checks the paths box', () => {
    expect(breakdownBars({ reliability: 0.1, corroboration: 0.2, temporalFit: 0.3, edgeStrength: 0.4, penalty: 0.5, score: 0.6, grade: 'LOW' }).map(([k]) => k)).toEqual(['Reliability', 'Corroboration', 'Temporal fit', 'Edge strength', 'Tampering penalty', 'Score']);
    expect(exportName('0123456789abcdef', 'md')).toBe('case-01234567.md');
    expect(parsePaths(' a/b.evtx \n\n c \n')).toEqual({ ok: true, paths: ['a/b.evtx', 'c'] });
    expect(parsePaths('/etc/passwd').ok).toBe(false);
    expect(parsePaths('C:\\x').ok).toBe(false);
    expect(parsePaths('  ').ok).toBe(false);
  });
});

describe('findingTitle', () => {
  it('names the case by its title, not its id; the id only when there is no title; at most 300 characters', () => {
    const id = '303506e9-ab36-43b7-98fc-06db3a95dd8d';
    expect(findingTitle('attack-samples/LM_sysmon_psexec.evtx', id, 'story S1: Service Execution on IEWIN7')).toBe('attack-samples/LM_sysmon_psexec.evtx · story S1: Service Execution on IEWIN7');
    expect(findingTitle('attack-samples/LM.evtx', id, 'x')).not.toContain(id);
    expect(findingTitle('  ', id, 'event e1')).toBe('Case 303506e9 · event e1');
    expect(findingTitle(undefined, id, 'event e1')).toBe('Case 303506e9 · event e1');
    expect(findingTitle('t'.repeat(500), id, 'w'.repeat(500)).length).toBeLessThanOrEqual(300);
  });
});

describe('gradeClass', () => {
  it('draws a grade with the shared severity badge every workspace uses (.sev), CONFIRMED and failed as critical', () => {
    expect(gradeClass('HIGH').split(' ')).toEqual(expect.arrayContaining(['sev', 'sev--high', 'grade']));
    expect(gradeClass('MEDIUM')).toContain('sev--medium');
    expect(gradeClass('CONFIRMED')).toContain('sev--critical');
    expect(gradeClass('failed')).toContain('sev--critical');
    expect(gradeClass(null)).toContain('sev--none');
  });
});

describe('zonedTime', () => {
  it('says the zone of an evidence time shown outside a (UTC) column, keeping its precision', () => {
    expect(zonedTime('2019-04-30T20:26:51.9810890Z')).toBe('2019-04-30 20:26:51.9810890 UTC');
    expect(zonedTime(null)).toBe('—');
  });
});
