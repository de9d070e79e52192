// Stage 7: stories. Causal subtrees of the graph below a root, ranked by suspicion, tagged with techniques and stages, with path chains.
import type { CausalEdge, GraphNode, KillChainStage, NodeKind, Story } from '../../core/contracts/forensic.js';
import { attackLookup } from '../../core/attack/lookup.js';
import { stageOf, stageOrder, techniqueTag } from './attack.js';
import { eventsById, nodesById, scoreChain, type ScoringGraph } from './scoring.js';
import { EventList, idHash, type AnalysisEvent } from './events.js';
import { EdgeColumns, NodeColumns } from './graph.js';
import { parseTimeMs } from '../time.js';

/** How bad each technique is on its own (0..1), by current (ATT&CK v19) id; unlisted techniques count
 * DEFAULT_TECHNIQUE_SEVERITY, a revoked id (an 18.1 tag of an older rule or bundle) its replacement's. Hand-set. */
export const TECHNIQUE_SEVERITY: Readonly<Record<string, number>> = {
  'T1003.001': 0.9, T1486: 0.95, T1490: 0.9, 'T1685.005': 0.85, 'T1685.006': 0.8, 'T1070.003': 0.75, 'T1070.006': 0.6,
  T1685: 0.7, 'T1685.001': 0.75, 'T1110.001': 0.6, 'T1110.003': 0.6, T1047: 0.55, 'T1569.002': 0.6, 'T1021.002': 0.45,
  'T1021.006': 0.5, 'T1021.001': 0.25, 'T1021.004': 0.35, 'T1543.003': 0.25, 'T1543.002': 0.5, 'T1053.005': 0.55, 'T1053.003': 0.5,
  'T1547.001': 0.6, 'T1136.001': 0.6, T1098: 0.5, 'T1098.004': 0.65, T1078: 0.35, 'T1548.003': 0.15, T1105: 0.5, T1570: 0.55,
  'T1560.001': 0.45, 'T1074.001': 0.45, T1048: 0.7, 'T1567.002': 0.75, T1071: 0.4, T1095: 0.75, 'T1218.005': 0.6, 'T1218.011': 0.35,
  'T1059.001': 0.35, 'T1059.003': 0.05, 'T1059.004': 0.1, T1033: 0.1, T1082: 0.1, 'T1087.001': 0.15, T1070: 0.4, 'T1070.004': 0.3,
};
export const DEFAULT_TECHNIQUE_SEVERITY = 0.4;

/** A technique's severity: its own, else its replacement's when revoked, else the default. */
export function techniqueSeverity(id: string): number {
  const own = TECHNIQUE_SEVERITY[id];
  if (own !== undefined) return own;
  const by = attackLookup().technique(id).revokedBy;
  return (by !== undefined ? TECHNIQUE_SEVERITY[by] : undefined) ?? DEFAULT_TECHNIQUE_SEVERITY;
}
/** Stories less suspicious than this are noise, dropped unless includeNoisy. */
export const NOISE_SUSPICION = 0.3;
/** A user or session linked to more nodes than this joins every story it touches: it stays in them but does not merge them. */
export const HUB_DEGREE = 12;
/** Path chains are listed for stories with at most this many edges, at most MAX_CHAINS of them. */
export const CHAIN_MAX_EDGES = 60;
export const MAX_CHAINS = 64;

export interface StoryConfig {
  readonly includeNoisy?: boolean;
  readonly chains?: boolean;
  readonly hubDegree?: number;
  readonly noiseSuspicion?: number;
}

/**
 * Suspicion of a set of techniques: 1 - prod(1 - severity), times 1 + 0.1 per kill-chain stage beyond the first (capped at 1).
 * `detected`: the group holds a high or critical detection; without any technique (its rule names only a tactic) it
 * counts as one technique of the default severity.
 */
export function suspicionOf(techniques: Iterable<string>, stages: number, detected = false): number {
  let keep = 1;
  let any = false;
  for (const t of techniques) {
    any = true;
    keep *= 1 - techniqueSeverity(t);
  }
  if (!any && detected) keep = 1 - DEFAULT_TECHNIQUE_SEVERITY;
  const s = (1 - keep) * (1 + 0.1 * Math.max(0, stages - 1));
  return Math.round(Math.min(1, s) * 1000) / 1000;
}

/**
 * Where each edge's ends are in `graph.nodes` (positions; `graph.nodes.length` for an id that is not a node). The
 * graph gives them as it exports (ProvenanceGraph.takeExport); without them buildStories makes them with one map.
 */
export interface EdgeEndpoints {
  readonly from: Uint32Array;
  readonly to: Uint32Array;
}

function endpointsOf(graph: Pick<ScoringGraph, 'nodes' | 'edges'>): EdgeEndpoints {
  const position = new Map<string, number>();
  let ix = 0;
  for (const n of graph.nodes) position.set(n.id, ix++);
  const missing = graph.nodes.length;
  const from = new Uint32Array(graph.edges.length);
  const to = new Uint32Array(graph.edges.length);
  let i = 0;
  for (const e of graph.edges) {
    from[i] = position.get(e.from) ?? missing;
    to[i] = position.get(e.to) ?? missing;
    i++;
  }
  return { from, to };
}

/** Union-find over node positions (path compression), in a typed array instead of a map of id strings. */
function find(parent: Int32Array, x: number): number {
  let root = x;
  while (parent[root] !== root) root = parent[root] as number;
  for (let y = x; y !== root; ) {
    const next = parent[y] as number;
    parent[y] = root;
    y = next;
  }
  return root;
}

/**
 * Builds the ranked stories of a scored graph. The grouping works on node positions in typed arrays; the story
 * drafts and their scores read an index of only the kept stories' edges, nodes and events (one scan of the events),
 * not maps over the whole graph.
 */
export function buildStories(graph: ScoringGraph, config: StoryConfig = {}, endpoints: EdgeEndpoints = endpointsOf(graph)): Story[] {
  const hubDegree = config.hubDegree ?? HUB_DEGREE;
  const { from, to } = endpoints;
  const count = graph.nodes.length;
  const degree = new Uint32Array(count + 1);
  for (let i = 0; i < graph.edges.length; i++) {
    const a = from[i] as number;
    const b = to[i] as number;
    degree[a] = (degree[a] as number) + 1;
    degree[b] = (degree[b] as number) + 1;
  }
  // Each node's kind as far as hubs go (read once: the nodes may be made on each read): 0 other, 1 host or address, 2 user or session.
  const hubKind = new Uint8Array(count + 1).fill(1);
  let at = 0;
  const hubOf = (kind: NodeKind): number => (kind === 'host' || kind === 'endpoint' ? 1 : kind === 'user' || kind === 'session' ? 2 : 0);
  // Node and edge columns are read as they are, not made into a GraphNode or CausalEdge per item.
  const nodeColumns = graph.nodes instanceof NodeColumns ? graph.nodes : null;
  if (nodeColumns !== null) for (; at < count; at++) hubKind[at] = hubOf(nodeColumns.kindAt(at));
  else for (const n of graph.nodes) hubKind[at++] = hubOf(n.kind);
  const isHub = (ix: number): boolean => {
    const k = hubKind[ix];
    // Hosts and addresses never join stories: two processes talking to one server are not one story.
    if (k === 1 || k === undefined) return true;
    return k === 2 && (degree[ix] as number) > hubDegree;
  };
  const parent = new Int32Array(count + 1);
  for (let i = 0; i <= count; i++) parent[i] = i;
  for (let i = 0; i < graph.edges.length; i++) {
    const a = from[i] as number;
    const b = to[i] as number;
    if (isHub(a) || isHub(b)) continue;
    const ra = find(parent, a);
    const rb = find(parent, b);
    if (ra !== rb) parent[rb] = ra;
  }
  // Each edge's group, numbered in order of the group's first edge; an edge between two hubs is a group of its own.
  const groupOf = new Int32Array(graph.edges.length);
  const groupOfRoot = new Int32Array(count + 1).fill(-1);
  let groups = 0;
  for (let i = 0; i < graph.edges.length; i++) {
    const anchor = !isHub(to[i] as number) ? (to[i] as number) : !isHub(from[i] as number) ? (from[i] as number) : -1;
    if (anchor < 0) {
      groupOf[i] = groups++;
      continue;
    }
    const root = find(parent, anchor);
    if (groupOfRoot[root] === -1) groupOfRoot[root] = groups++;
    groupOf[i] = groupOfRoot[root] as number;
  }
  // A group without techniques or stages has suspicion 0: its edges are listed only when such a group can be kept.
  const threshold = config.noiseSuspicion ?? NOISE_SUSPICION;
  const keepsSilent = config.includeNoisy === true || suspicionOf([], 0) >= threshold;
  const signal = new Uint8Array(groups);
  at = 0;
  if (graph.edges instanceof EdgeColumns) {
    const { techniques, stage } = graph.edges.columns;
    for (; at < graph.edges.length; at++) if ((techniques[at] as readonly string[]).length > 0 || stage[at] !== 0) signal[groupOf[at] as number] = 1;
  } else
    for (const e of graph.edges) {
      if (e.techniques.length > 0 || e.stage !== null) signal[groupOf[at] as number] = 1;
      at++;
    }
  // The edges of each group that can be kept, in edge order, groups in order: a counting sort into one typed array
  // (no list per group).
  const starts = new Int32Array(groups + 1);
  for (let i = 0; i < graph.edges.length; i++) {
    const g = groupOf[i] as number;
    if (keepsSilent || signal[g] !== 0) starts[g + 1] = (starts[g + 1] as number) + 1;
  }
  for (let g = 0; g < groups; g++) starts[g + 1] = (starts[g + 1] as number) + (starts[g] as number);
  const grouped = new Uint32Array(starts[groups] as number);
  const fill = starts.slice(0, groups);
  for (let i = 0; i < graph.edges.length; i++) {
    const g = groupOf[i] as number;
    if (keepsSilent || signal[g] !== 0) {
      grouped[fill[g] as number] = i;
      fill[g] = (fill[g] as number) + 1;
    }
  }
  const kept: { positions: number[]; edges: CausalEdge[]; techniques: Set<string>; stages: Set<KillChainStage>; suspicion: number }[] = [];
  // A group is scored from the edge columns when there are some: its edges are made only when the group is kept.
  const edgeColumns = graph.edges instanceof EdgeColumns ? graph.edges : null;
  // A group without techniques or a detection has suspicion 0 (suspicionOf of nothing): below any positive threshold.
  const dropsBare = !config.includeNoisy && threshold > 0;
  for (let g = 0; g < groups; g++) {
    const from = starts[g] as number;
    const end = starts[g + 1] as number;
    if (from === end) continue;
    if (dropsBare && edgeColumns !== null) {
      const { techniques } = edgeColumns.columns;
      let bare = true;
      for (let j = from; j < end && bare; j++) {
        const i = grouped[j] as number;
        if ((techniques[i] as readonly string[]).length > 0 || edgeColumns.ruleAt(i) === 'sigma-detection') bare = false;
      }
      if (bare) continue;
    }
    const positions = Array.from(grouped.subarray(from, end));
    const made = edgeColumns === null ? positions.map((i) => graph.edges.at(i) as CausalEdge) : null;
    const techniques = new Set<string>();
    const stages = new Set<KillChainStage>();
    let detected = false;
    for (let j = 0; j < positions.length; j++) {
      const i = positions[j] as number;
      const e = made === null ? null : (made[j] as CausalEdge);
      for (const t of e === null ? (edgeColumns as EdgeColumns).columns.techniques[i] as readonly string[] : e.techniques) {
        techniques.add(t);
        const s = stageOf(t);
        if (s !== null) stages.add(s);
      }
      const stage = e === null ? (edgeColumns as EdgeColumns).stageAt(i) : e.stage;
      if (stage !== null) stages.add(stage);
      if ((e === null ? (edgeColumns as EdgeColumns).ruleAt(i) : e.rule) === 'sigma-detection') detected = true;
    }
    const suspicion = suspicionOf(techniques, stages.size, detected);
    if (!config.includeNoisy && suspicion < threshold) continue;
    kept.push({ positions, edges: made ?? positions.map((i) => graph.edges.at(i) as CausalEdge), techniques, stages, suspicion });
  }
  const scope = storyScope(graph, endpoints, kept.flatMap((k) => k.positions));
  const nodes = nodesById(scope);
  const eventById = eventsById(scope);
  const drafts = kept.map((k) => storyOf(k.edges, k.techniques, k.stages, k.suspicion, nodes, eventById, scope, config.chains ?? true));
  drafts.sort((a, b) => b.suspicion - a.suspicion || b.confidence.score - a.confidence.score || (a.start ?? '').localeCompare(b.start ?? ''));
  return drafts.map((d, i) => ({ id: `S${i + 1}`, rank: i + 1, ...d }));
}

/** Bits of storyScope's filter of id hashes (a power of two; 128 KiB). */
const SCOPE_BITS = 1 << 20;

/**
 * The part of the graph the kept stories read: their edges, the nodes at their ends, the events of those edges, and
 * the first time of each edge's source node (what scoring reads of that node's events). From an EventList, a source
 * node's events are read for their time only, not made: a user's node can hold most events of a case. Scores on the
 * part equal scores on the whole graph.
 */
function storyScope(graph: ScoringGraph, endpoints: EdgeEndpoints, positions: readonly number[]): ScoringGraph {
  // By position: the nodes may be made on each read, so the same node is not always the same object.
  const nodes = new Map<number, GraphNode>();
  const wanted = new Set<string>();
  const timed = new Set<string>();
  const edges: CausalEdge[] = [];
  for (const i of positions) {
    const e = graph.edges.at(i) as CausalEdge;
    edges.push(e);
    for (const id of e.eventIds) wanted.add(id);
    const from = endpoints.from[i] as number;
    const to = endpoints.to[i] as number;
    // Scoring reads the first time of an edge's source node, from that node's events.
    if (!nodes.has(from)) {
      const source = graph.nodes.at(from);
      if (source !== undefined) {
        nodes.set(from, source);
        for (const id of source.eventIds) timed.add(id);
      }
    }
    if (!nodes.has(to)) {
      const target = graph.nodes.at(to);
      if (target !== undefined) nodes.set(to, target);
    }
  }
  const events: AnalysisEvent[] = [];
  const list = graph.events instanceof EventList ? graph.events : null;
  if (list === null) {
    for (const id of timed) wanted.add(id);
    if (wanted.size > 0) for (const e of graph.events) if (wanted.has(e.eventId)) events.push(e);
    return { events, nodes: [...nodes.values()], edges, tampering: graph.tampering };
  }
  // An EventList gives each id and time without making the event: only the edges' events are made. The time of every
  // event the whole scope would hold (the edges' and the source nodes'), the last of an id as a map of them keeps.
  const msById = new Map<string, number>();
  // The ids' hashes as a bit set: an event whose id hash is not in it is neither wanted nor timed, told from the list's
  // hash column without reading its id.
  const bits = new Int32Array(SCOPE_BITS >>> 5);
  for (const set of [wanted, timed])
    for (const id of set) {
      const b = idHash(id) & (SCOPE_BITS - 1);
      bits[b >>> 5] = (bits[b >>> 5] as number) | (1 << (b & 31));
    }
  if (wanted.size > 0 || timed.size > 0)
    for (let k = 0; k < list.length; k++) {
      const b = list.idHashAt(k) & (SCOPE_BITS - 1);
      if (((bits[b >>> 5] as number) & (1 << (b & 31))) === 0) continue;
      const id = list.idAt(k);
      const edgeEvent = wanted.has(id);
      if (edgeEvent) events.push(list.at(k) as AnalysisEvent);
      if (!edgeEvent && !timed.has(id)) continue;
      const t = list.timeAt(k);
      msById.set(id, t === null ? NaN : parseTimeMs(t));
    }
  // Each node's first time as scoring works it out from the scope's events: the least finite time among its events
  // there, null for none (a node met first as a target reads only the events the scope holds for other reasons).
  const firstMs = new Map<string, number | null>();
  for (const n of nodes.values()) {
    let best: number | null = null;
    for (const id of n.eventIds) {
      const ms = msById.get(id);
      if (ms !== undefined && Number.isFinite(ms) && (best === null || ms < best)) best = ms;
    }
    firstMs.set(n.id, best);
  }
  return { events, nodes: [...nodes.values()], edges, tampering: graph.tampering, firstMs };
}

function storyOf(
  edges: CausalEdge[],
  techniques: ReadonlySet<string>,
  stages: ReadonlySet<KillChainStage>,
  suspicion: number,
  nodes: ReadonlyMap<string, GraphNode>,
  eventById: ReadonlyMap<string, AnalysisEvent>,
  graph: ScoringGraph,
  withChains: boolean,
): Omit<Story, 'id' | 'rank'> {
  edges.sort((a, b) => (a.time ?? '\uffff').localeCompare(b.time ?? '\uffff') || Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const nodeIds: string[] = [];
  const seen = new Set<string>();
  const incoming = new Set<string>();
  for (const e of edges) {
    for (const id of [e.from, e.to]) {
      if (seen.has(id)) continue;
      seen.add(id);
      nodeIds.push(id);
    }
    incoming.add(e.to);
  }
  // The root: the earliest edge's source that nothing in the story points to (else the earliest edge's source).
  const root = edges.find((e) => !incoming.has(e.from))?.from ?? (edges[0] as CausalEdge).from;
  const eventIds: string[] = [];
  const seenEvents = new Set<string>();
  for (const e of edges) {
    for (const id of e.eventIds) {
      if (seenEvents.has(id)) continue;
      seenEvents.add(id);
      eventIds.push(id);
    }
  }
  eventIds.sort((a, b) => (eventById.get(a)?.time.time ?? '\uffff').localeCompare(eventById.get(b)?.time.time ?? '\uffff'));
  const times = eventIds.map((id) => eventById.get(id)?.time.time).filter((t): t is string => typeof t === 'string');
  const hosts = [...new Set(nodeIds.map((id) => nodes.get(id)?.host).filter((h): h is string => typeof h === 'string'))].sort();
  const tags = [...techniques].sort((a, b) => techniqueSeverity(b) - techniqueSeverity(a) || a.localeCompare(b)).map(techniqueTag);
  const stageList = [...stages].sort((a, b) => stageOrder(a) - stageOrder(b));
  const rootLabel = nodes.get(root)?.label ?? root;
  const first = tags[0];
  // A revoked id leads with its own name (the tag's name adds the replacement); an unknown one says so with its id.
  const lead = first === undefined ? 'Activity' : first.status === 'unknown' ? `Unknown technique ${first.id}` : first.status === 'revoked' ? attackLookup().technique(first.id).name : first.name;
  const chains = withChains && edges.length <= CHAIN_MAX_EDGES ? pathChains(root, edges) : [];
  return {
    title: `${lead} on ${hosts.join(', ') || 'unknown host'}`,
    summary: `From ${rootLabel}: ${edges.length} causal link(s) over ${nodeIds.length} node(s) and ${eventIds.length} event(s); ${stageList.join(' → ') || 'no stage'}.`,
    rootNodeId: root,
    hosts,
    start: times[0] ?? null,
    end: times[times.length - 1] ?? null,
    suspicion,
    confidence: scoreChain(edges.map((e) => e.id), graph),
    techniques: tags,
    stages: stageList,
    nodeIds,
    edgeIds: edges.map((e) => e.id),
    eventIds,
    chains,
  };
}

/** Root-to-leaf paths (edge ids) by depth-first walk, each edge used once per path; at most MAX_CHAINS. */
export function pathChains(root: string, edges: readonly CausalEdge[]): string[][] {
  const out = new Map<string, CausalEdge[]>();
  for (const e of edges) {
    const list = out.get(e.from);
    if (list) list.push(e);
    else out.set(e.from, [e]);
  }
  const chains: string[][] = [];
  const walk = (node: string, path: string[], visited: Set<string>): void => {
    if (chains.length >= MAX_CHAINS) return;
    const next = (out.get(node) ?? []).filter((e) => !visited.has(e.to));
    if (next.length === 0) {
      if (path.length > 0) chains.push([...path]);
      return;
    }
    for (const e of next) {
      visited.add(e.to);
      path.push(e.id);
      walk(e.to, path, visited);
      path.pop();
      visited.delete(e.to);
    }
  };
  walk(root, [], new Set([root]));
  // Edges the walk from the root cannot reach (a second entry point) become chains of their own.
  const covered = new Set(chains.flat());
  for (const e of edges) if (!covered.has(e.id) && chains.length < MAX_CHAINS) chains.push([e.id]);
  return chains;
}
