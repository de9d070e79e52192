import { describe, expect, it } from 'vitest';
import { analyzeEvents } from './analyze.js';
import { extractEntities } from './entities.js';
import { ProvenanceGraph } from './graph.js';
import { makeEvent, sysmon1 } from './events.fixture.js';

const explorer = { image: 'C:\\Windows\\explorer.exe', pid: 100 };
const cmd = { image: 'C:\\Windows\\System32\\cmd.exe', pid: 4242 };

describe('per-event node table', () => {
  it('gives back the same nodes each event touched, and nothing past the end or after clear', () => {
    const events = [sysmon1(0, explorer, cmd, 'cmd.exe'), makeEvent({ action: 'file.create', actor: { type: 'process', name: 'C:\\x.exe' }, object: { type: 'file', name: 'C:\\a.txt' } }), makeEvent({ action: 'odd', host: null })];
    const graph = new ProvenanceGraph();
    const table = extractEntities(events, graph);
    expect(table.length).toBe(3);
    const first = table.at(0);
    expect(graph.label(first?.process ?? -1)).toBe('cmd.exe');
    expect(graph.label(first?.parent ?? -1)).toBe('explorer.exe');
    expect(first?.host).toBe(graph.findNode('host:ws01'));
    expect(table.at(0)?.process).toBe(first?.process);
    expect(graph.kindOf(table.at(1)?.object ?? -1)).toBe('file');
    expect(table.at(2)).toEqual({ host: null, process: null, parent: null, object: null, user: null, session: null });
    expect(table.at(3)).toBeUndefined();
    expect(table.at(-1)).toBeUndefined();
    table.clear();
    expect(table.at(0)).toBeUndefined();
  });

  it('grows past the capacity it was given', () => {
    const events = Array.from({ length: 5 }, (_, i) => sysmon1(i, explorer, { image: `C:\\p${i}.exe`, pid: 200 + i }, `p${i}.exe`));
    const graph = new ProvenanceGraph();
    const table = extractEntities(events, graph);
    expect(table.length).toBe(5);
    expect(graph.label(table.at(4)?.process ?? -1)).toBe('p4.exe');
  });
});

describe('edge times', () => {
  it('are the ISO form of the earliest event, whatever form the event gave', () => {
    const late = makeEvent({ time: '2024-01-01T10:00:05Z', action: 'process.create', actor: { type: 'process', name: 'C:\\Windows\\explorer.exe' }, object: { type: 'process', name: 'C:\\b.exe' }, attributes: { pid: '7', ppid: '100' } });
    const early = makeEvent({ time: '2024-01-01T10:00:01Z', action: 'process.create', actor: { type: 'process', name: 'C:\\Windows\\explorer.exe' }, object: { type: 'process', name: 'C:\\b.exe' }, attributes: { pid: '7', ppid: '100' } });
    const a = analyzeEvents([late, early], { includeNoisy: true });
    const times = a.edges.map((e) => e.time);
    expect(times.length).toBeGreaterThan(0);
    for (const t of times) expect(t).toBe('2024-01-01T10:00:01.000Z');
  });
});

describe('one-event id lists', () => {
  it('one id is kept as the id itself, a second makes a list, and reads give arrays', () => {
    const graph = new ProvenanceGraph();
    const first = makeEvent({ action: 'x' });
    const second = makeEvent({ action: 'x' });
    const a = graph.node('file', 'a', 'a', 'WS01', first);
    const b = graph.node('file', 'b', 'b', 'WS01', first);
    expect(graph.eventIdsOf(a)).toBe(first.eventId);
    expect(graph.eventIdsOf(b)).toBe(first.eventId);
    const edge = graph.edge(a, b, 'r', 'r', [first]);
    expect(edge).not.toBeNull();
    expect(graph.eventIdsOfEdge(edge as number)).toBe(first.eventId);
    graph.edge(a, b, 'r', 'r', [second]);
    graph.edge(a, b, 'r', 'r', [second]);
    expect(graph.eventIdsOfEdge(edge as number)).toEqual([first.eventId, second.eventId]);
    expect(graph.eventIdsOf(a)).toBe(first.eventId);
    graph.support(b, second);
    expect(graph.eventIdsOf(b)).toEqual([first.eventId, second.eventId]);
    const { nodes, edges } = graph.takeExport();
    expect(nodes.map((n) => n.eventIds)).toEqual([[first.eventId], [first.eventId, second.eventId]]);
    expect(nodes.at(0)?.sources).toEqual([{ source: 'evtx:windows-?', eventIds: [first.eventId] }]);
    expect(edges.at(0)?.eventIds).toEqual([first.eventId, second.eventId]);
  });
});
