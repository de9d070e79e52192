// The graph's node storage built for reading (process ids kept as columns and made into text when read, attributes in
// one pool) against the path before (an id text and an attributes object per node): the same nodes, edges, look-ups,
// attributes and exports.
import { describe, expect, it } from 'vitest';
import { ruleConfidence } from './confidence.js';
import { extractEntities } from './entities.js';
import type { AnalysisEvent } from './events.js';
import { makeEvent } from './events.fixture.js';
import { ProvenanceGraph } from './graph.js';
import { applyRules, CAUSAL_RULES } from './rules.js';
import { listScenarios, runScenario } from '../scenarios/index.js';
import { Random } from '../../core/ml/random.js';

/** Both graphs' nodes read one by one (id, label, kind, attributes, ids) and found again by id, then their exports. */
function expectSame(a: ProvenanceGraph, b: ProvenanceGraph): void {
  expect(b.nodeCount).toBe(a.nodeCount);
  expect(b.edgeTotal).toBe(a.edgeTotal);
  for (let n = 0; n < a.nodeCount; n++) {
    const id = a.nodeId(n);
    if (b.nodeId(n) !== id || b.findNode(id) !== n || a.findNode(id) !== n) expect.fail(`node ${n}: ${id} / ${b.nodeId(n)}`);
    if (b.label(n) !== a.label(n) || b.kindOf(n) !== a.kindOf(n)) expect.fail(`node ${n}: ${b.label(n)} / ${a.label(n)}`);
    expect(JSON.stringify(b.attributesOf(n))).toBe(JSON.stringify(a.attributesOf(n)));
    expect(b.eventIdsOf(n)).toEqual(a.eventIdsOf(n));
  }
  const x = a.takeExport();
  const y = b.takeExport();
  expect(JSON.stringify([...y.nodes])).toBe(JSON.stringify([...x.nodes]));
  expect(JSON.stringify([...y.edges])).toBe(JSON.stringify([...x.edges]));
  for (let k = 0; k < x.nodes.length; k++) expect(y.nodes.idAt(k)).toBe(x.nodes.idAt(k));
  expect([...y.endpoints.from]).toEqual([...x.endpoints.from]);
  expect([...y.endpoints.to]).toEqual([...x.endpoints.to]);
}

/** The graph stages (entities, then the causal rules) over the events, process ids as columns or as texts. */
function built(events: readonly AnalysisEvent[], composeIds: boolean): ProvenanceGraph {
  const graph = new ProvenanceGraph(true, composeIds);
  const nodes = extractEntities(events, graph);
  applyRules(events, graph, nodes, ruleConfidence, CAUSAL_RULES);
  return graph;
}

describe('process ids kept as columns, attributes in a pool', () => {
  it('give every scenario the same graph as id texts', () => {
    for (const { name } of listScenarios()) {
      const events = [...runScenario(name, { includeNoisy: true }).analysis.events];
      expectSame(built(events, false), built(events, true));
    }
  });

  it('give the same graph for odd pids, hosts, images, sources and attributes (none, zero and minus zero, fractions, huge, colons, upper case; keys added later), and meet nodes whose id text is the same', () => {
    const random = new Random(5);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random.next() * xs.length)] as T;
    const pids: (number | null)[] = [null, 0, -0, 1, 4, 4.5, -7, 2 ** 31, 2 ** 53 - 1, 2 ** 60, 1e21, NaN, Infinity];
    const hosts: (string | null)[] = [null, 'WS01', 'ws01', ' ws01 ', 'a:1', 'a', 'A:1'];
    const images: (string | null)[] = [null, 'C:\\Windows\\cmd.exe', 'cmd.exe', '1:x.exe', 'x.exe', 'C:\\very\\long\\path\\averyveryverylongname.exe', 'powershell.exe', 'lsass.exe'];
    const graphs = [new ProvenanceGraph(true, false), new ProvenanceGraph(true, true)];
    for (let i = 0; i < 3000; i++) {
      const host = pick(hosts);
      const e = makeEvent({ action: pick(['x', 'y', 'z']), host });
      const ref = { pid: pick(pids), image: pick(images), guid: random.next() < 0.1 ? `{G-${Math.floor(random.next() * 20)}}` : null };
      // Extras: none, a command line, a key of Object.prototype's, one of the three keys the graph sets itself, a null.
      const extra = pick<Record<string, string | number | null>>([{}, { commandLine: `c${i % 7}` }, { constructor: 'x' }, { pid: 9, user: null }, { user: `u${i % 3}`, runAs: null }]);
      // A node of the generic path whose id text is a process id's (`process:h:?:name`, as the rules make them).
      const generic = i % 5 === 0 ? `${(host ?? '?').trim().toLowerCase()}:?:${pick(['powershell.exe', 'lsass.exe'])}` : null;
      for (const graph of graphs) {
        const n = graph.process(host, ref, e, { ...extra });
        if (generic !== null) graph.node('process', generic, 'p', host, e, { image: 'p' });
        if (i % 3 === 0 && n > 0) graph.edge(n, n - 1, 'r', 'r', [e]);
      }
    }
    const [a, b] = graphs as [ProvenanceGraph, ProvenanceGraph];
    expect(a.nodeCount).toBeGreaterThan(100);
    expectSame(a, b);
  });
});
