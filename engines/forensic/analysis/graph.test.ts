// The provenance graph's supporting-id lists (an id already among a node's last 64 is not added again, however long the list) and its index of processes by host and pid.
import { describe, expect, it } from 'vitest';
import type { AnalysisEvent } from './events.js';
import { listOf, ProvenanceGraph } from './graph.js';
import { Random } from '../../core/ml/random.js';

const event = (eventId: string): AnalysisEvent => ({
  eventId,
  time: { time: '2024-01-01T10:00:00Z', precision: 'second', source: 'test' },
  host: 'h',
  actor: null,
  action: 'test.event',
  object: null,
  attributes: {},
  reliability: 'B',
  kind: 'authlog',
  raw: { artifactSha256: 'a'.repeat(64) },
});

/** What the list must hold: each id added unless it is among the last 64 already. */
function reference(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const id of ids) if (!out.slice(-64).includes(id)) out.push(id);
  return out;
}

describe('supporting ids of a node', () => {
  it('skip an id among the last 64 and keep one seen further back, for short and long lists and ids that share their first characters', () => {
    const random = new Random(9);
    const next = (n: number): number => Math.floor(random.next() * n);
    // Ids with the same first eight characters (one fingerprint) and ids that differ there.
    const pool = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? `samehead${String(i).padStart(8, '0')}` : `${String(i).padStart(8, '0')}tail${i}`));
    const sequence: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const back = [1, 2, 63, 64, 65, 100][next(6)] as number;
      // A repeat at a chosen distance back in the sequence, or a new pick.
      sequence.push(next(3) === 0 && sequence.length >= back ? (sequence[sequence.length - back] as string) : (pool[next(pool.length)] as string));
    }
    const graph = new ProvenanceGraph();
    for (const id of sequence) graph.node('other', 'one', 'one', 'h', event(id));
    const node = graph.findNode('other:one');
    expect(node).toBeDefined();
    const got = listOf(node === undefined ? [] : graph.eventIdsOf(node));
    const want = reference(sequence);
    expect(want.length).toBeGreaterThan(1000);
    expect(want.length).toBeLessThan(sequence.length);
    expect(got).toEqual(want);
  });
});

describe('the graph sized by the pace of a pass (plan)', () => {
  it('holds the same nodes, edges and look-ups as a graph told nothing, when the pace rises, falls or overshoots', () => {
    const build = (plan: boolean, shape: (i: number) => number): ProvenanceGraph => {
      const graph = new ProvenanceGraph();
      const total = 20_000;
      // A first pass that makes nodes at a pace that changes (shape: how many new nodes event i makes).
      let made = 0;
      for (let i = 0; i < total; i++) {
        if (plan && i % 1024 === 0) graph.plan(i, total);
        const e = event(`n${i}`);
        graph.host(`h${i % 7}`, e);
        for (let k = shape(i); k > 0; k--) graph.node('file', `h:${made++}`, `f${made}`, 'h', e, { n: made });
        graph.node('file', `h:${i % 1000}`, 'again', 'h', e);
      }
      // A second pass that draws edges between them (and a few more nodes).
      for (let i = 0; i < total; i++) {
        if (plan && i % 1024 === 0) graph.plan(i, total);
        const e = event(`e${i}`);
        const a = graph.findNode(`file:h:${i % made}`);
        const b = graph.findNode(`file:h:${(i * 7 + 1) % made}`);
        if (a !== undefined && b !== undefined) graph.edge(a, b, i % 3 === 0 ? 'r1' : 'r2', 'rel', [e], i % 5 === 0 ? ['T1059'] : []);
        if (i % 100 === 0) graph.node('other', `x${i}`, 'x', null, e);
      }
      return graph;
    };
    const shapes: ((i: number) => number)[] = [(i) => (i < 5000 ? 3 : 1), (i) => (i < 10_000 ? 0 : 4), (i) => i % 3, () => 0];
    for (const shape of shapes) {
      const plain = build(false, shape);
      const planned = build(true, shape);
      expect(planned.nodeCount).toBe(plain.nodeCount);
      expect(planned.edgeTotal).toBe(plain.edgeTotal);
      // Every node is where its id finds it, with its own id and label (the columns kept every node when they grew).
      for (const graph of [plain, planned])
        for (let n = 0; n < graph.nodeCount; n++) {
          const id = graph.nodeId(n);
          if (typeof id !== 'string' || graph.findNode(id) !== n || typeof graph.label(n) !== 'string') expect.fail(`node ${n}: ${String(id)}`);
        }
      for (let n = 0; n < plain.nodeCount; n++) if (planned.nodeId(n) !== plain.nodeId(n)) expect.fail(`node ${n}`);
      const a = plain.takeExport();
      const b = planned.takeExport();
      expect(b.nodes.length).toBe(a.nodes.length);
      expect(JSON.stringify([...b.nodes])).toBe(JSON.stringify([...a.nodes]));
      expect(JSON.stringify([...b.edges])).toBe(JSON.stringify([...a.edges]));
      expect(b.nodes.length).toBe(a.nodes.length);
      expect(b.edges.columns.eventIds).toHaveLength(a.edges.length);
    }
  });
});

describe('long supporting-id lists (past 4,096 ids, grown by copy to a projected length)', () => {
  it('hold what the rule gives for node lists, each source\'s list and edge lists, with and without a plan, read during and after the build', () => {
    const random = new Random(5);
    const next = (n: number): number => Math.floor(random.next() * n);
    const total = 30_000;
    const sequence: string[] = [];
    for (let i = 0; i < total; i++) sequence.push(next(4) === 0 && i >= 70 ? (sequence[i - [1, 63, 64, 65, 70][next(5)]!] as string) : `id${i}`);
    for (const plan of [false, true]) {
      const graph = new ProvenanceGraph();
      const a = graph.node('other', 'a', 'a', null, null);
      const b = graph.node('other', 'b', 'b', null, null);
      const bySource = new Map<string, string[]>();
      for (let i = 0; i < total; i++) {
        if (plan && i % 1024 === 0) graph.plan(i, total);
        const id = sequence[i] as string;
        // Two sources alternating in runs, so each source's list is long too.
        const source = Math.floor(i / 3) % 2 === 0 ? 1 : 2;
        const e = { ...event(id), kind: 'evtx' as const, attributes: { provider: 'Microsoft-Windows-Sysmon', eventId: source } };
        graph.support(a, e);
        if (!bySource.has(`evtx:sysmon-${source}`)) bySource.set(`evtx:sysmon-${source}`, []);
        bySource.get(`evtx:sysmon-${source}`)?.push(id);
        graph.edge(a, b, 'r', 'rel', [e]);
        if (i === 20_000) expect(listOf(graph.eventIdsOf(a))).toEqual(reference(sequence.slice(0, i + 1)));
      }
      expect(listOf(graph.eventIdsOf(a))).toEqual(reference(sequence));
      expect(listOf(graph.eventIdsOfEdge(0))).toEqual(reference(sequence));
      const { nodes, edges } = graph.takeExport();
      const node = nodes.find((x) => x.id === 'other:a');
      expect(node?.eventIds).toEqual(reference(sequence));
      expect(node?.sources.map((x) => x.source)).toEqual([...bySource.keys()]);
      for (const x of node?.sources ?? []) expect(x.eventIds).toEqual(reference(bySource.get(x.source) ?? []));
      expect(edges.at(0)?.eventIds).toEqual(reference(sequence));
      expect(Object.isFrozen(node?.eventIds)).toBe(true);
    }
  });
});

describe('the process last seen with a pid', () => {
  it('is found by host and pid after many pids on many hosts (the index grows), including pids past 32 bits and past safe integers', () => {
    const graph = new ProvenanceGraph();
    const want = new Map<string, number>();
    const random = new Random(17);
    const next = (n: number): number => Math.floor(random.next() * n);
    const wide = [0, 1, 4, 2 ** 32, 2 ** 32 + 4, 2 ** 53 - 1, 2 ** 60, 1e300];
    for (let i = 0; i < 20_000; i++) {
      const host = `Host${next(40)}`;
      const pid = next(10) === 0 ? (wide[next(wide.length)] as number) : next(5000);
      const image = `C:\\tools\\tool${next(30)}.exe`;
      const n = graph.process(host, { pid, image, guid: null }, null);
      want.set(`${host.toLowerCase()}|${pid}`, n);
    }
    expect(want.size).toBeGreaterThan(10_000);
    for (const [key, n] of want) {
      const [host, pid] = key.split('|') as [string, string];
      // Host names differ from the ones given only in case: the index uses the lower-case form.
      expect(graph.processByPid(host.toUpperCase(), Number(pid))).toBe(n);
    }
    expect(graph.processByPid('host1', 123_456)).toBeNull();
    expect(graph.processByPid('nohost', 1)).toBeNull();
  });
});
