// The graph's open-addressed indexes (pids by host, nodes by id, edges by their ends and rule) against plain Maps:
// the same answers over random keys, edge-case pids and growth, and on the graph the built-in rules draw over real
// corpus events.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzePaths } from './analyze.js';
import { ruleConfidence } from './confidence.js';
import { extractEntities } from './entities.js';
import type { AnalysisEvent } from './events.js';
import { PidIndex, ProvenanceGraph } from './graph.js';
import { applyRules, CAUSAL_RULES } from './rules.js';
import { Random } from '../../core/ml/random.js';

const CORPORA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'corpora');
/** Real logs of both kinds: the EVTX corpus (Sysmon, Security, System ...) and the text logs (auth.log, auditd, plaso, Volatility). */
const INPUTS = [path.join(CORPORA, 'evtx'), path.join(CORPORA, 'logs')];

/** Pids a loader never gives but the index must keep apart or together as a Map would. */
const ODD_PIDS = [0, -0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, 2 ** 60, 1e21, 0.5, -2.5, NaN, Infinity, -Infinity];

describe('PidIndex', () => {
  it('answers as a Map of pids per host, through its growth and after clear', () => {
    const rnd = new Random(17);
    const index = new PidIndex();
    const ref = new Map<string, Map<number, number>>();
    const hosts = ['?', 'ws1', 'WS1', 'dc.corp.local', '', 'h:2'];
    const pidOf = (): number => (rnd.next() < 0.1 ? (ODD_PIDS[Math.floor(rnd.next() * ODD_PIDS.length)] as number) : Math.floor(rnd.next() * 60_000));
    for (let i = 0; i < 60_000; i++) {
      const host = hosts[Math.floor(rnd.next() * hosts.length)] as string;
      const pid = pidOf();
      if (rnd.next() < 0.6) {
        index.set(host, pid, i);
        let pids = ref.get(host);
        if (!pids) ref.set(host, (pids = new Map()));
        pids.set(pid, i);
      } else {
        const want = ref.get(host)?.get(pid);
        const got = index.get(host, pid);
        if (got !== want) expect.fail(`${host} ${pid}: ${got} / ${want}`);
      }
    }
    for (const [host, pids] of ref) for (const [pid, node] of pids) expect(index.get(host, pid)).toBe(node);
    for (const pid of ODD_PIDS) expect(index.get('never', pid)).toBeUndefined();
    // -0 and 0 are one pid, as in a Map.
    index.set('z', -0, 5);
    expect(index.get('z', 0)).toBe(5);
    index.clear();
    expect(index.get('ws1', 1)).toBeUndefined();
    index.set('ws1', 1, 9);
    expect(index.get('ws1', 1)).toBe(9);
  });
});

describe('edge index', () => {
  it('finds each (from, to, rule) again and makes a new edge for any other, as a Map of the three would', () => {
    const rnd = new Random(5);
    const graph = new ProvenanceGraph();
    for (let n = 0; n < 400; n++) graph.node('other', `n${n}`, `n${n}`, null, null);
    const ref = new Map<string, number>();
    for (let i = 0; i < 40_000; i++) {
      const from = Math.floor(rnd.next() * 400);
      const to = Math.floor(rnd.next() * 400);
      const rule = `r${Math.floor(rnd.next() * 5)}`;
      const at = graph.edge(from, to, rule, 'rel', []);
      if (from === to) {
        expect(at).toBeNull();
        continue;
      }
      const key = [from, to, rule].join(' ');
      const want = ref.get(key) ?? ref.size;
      ref.set(key, want);
      if (at !== want) expect.fail(`${key}: ${at} / ${want}`);
    }
    expect(graph.edgeTotal).toBe(ref.size);
  });

  it('holds one edge per (from, to, rule) on the EVTX and text log corpora, and finds every one again', () => {
    const a = analyzePaths(INPUTS, { evidenceRoot: CORPORA, sigma: null });
    const events = [...a.events] as AnalysisEvent[];
    expect(events.length).toBeGreaterThan(1000);
    const build = (): ProvenanceGraph => {
      const graph = new ProvenanceGraph();
      applyRules(events, graph, extractEntities(events, graph), ruleConfidence, CAUSAL_RULES);
      return graph;
    };
    const exported = build().takeExport();
    const { from, to } = exported.edges.columns;
    expect(exported.edges.length).toBeGreaterThan(100);
    const keys = new Set<string>();
    for (let k = 0; k < exported.edges.length; k++) keys.add([from[k], to[k], exported.edges.ruleAt(k)].join(' '));
    expect(keys.size).toBe(exported.edges.length);
    // The same graph again: every edge's keys lead to that edge, none is added.
    const again = build();
    const total = again.edgeTotal;
    expect(total).toBe(exported.edges.length);
    for (let k = 0; k < total; k++) if (again.edge(from[k] as number, to[k] as number, exported.edges.ruleAt(k), 'x', []) !== k) expect.fail(`edge ${k}`);
    expect(again.edgeTotal).toBe(total);
    // Every node is found again by its id.
    for (let n = 0; n < exported.nodes.length; n++) if (again.findNode(exported.nodes.idAt(n)) !== n) expect.fail(`node ${n}`);
  });
});
