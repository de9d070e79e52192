// The provenance graph's supporting-id lists (an id already among a node's last 64 is not added again, however long the list) and its index of processes by host and pid.
import { describe, expect, it } from 'vitest';
import type { AnalysisEvent } from './events.js';
import { listOf, ProvenanceGraph } from './graph.js';

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
    let seed = 9;
    const next = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
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

describe('the process last seen with a pid', () => {
  it('is found by host and pid after many pids on many hosts (the index grows), including pids past 32 bits and past safe integers', () => {
    const graph = new ProvenanceGraph();
    const want = new Map<string, number>();
    let seed = 17;
    const next = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
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
