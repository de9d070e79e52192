// The provenance graph's supporting-id lists: an id already among a node's last 64 is not added again, however long the list.
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
