// The confidence breakdown of a story or chain: reliability, corroboration, temporal fit, edge strength, tampering penalty, score, grade.
import type { CausalEdge, ConfidenceBreakdown, ConfidenceGrade, GraphNode, TamperingVerdict } from '../../core/contracts/forensic.js';
import { RELIABILITY_WEIGHTS } from '../event.js';
import { parseTimeMs } from '../time.js';
import type { AnalysisEvent } from './events.js';
import { penaltyOf } from './antiforensics.js';
import type { Seq } from './seq.js';

/** Weights of the four terms (sum 1). Hand-set, not fitted: the score ranks and grades, it is not a probability. */
export const CONFIDENCE_WEIGHTS = { reliability: 0.2, corroboration: 0.2, temporalFit: 0.2, edgeStrength: 0.4 } as const;
/** Lowest score of each grade; CONFIRMED also needs corroboration of at least CONFIRMED_MIN_CORROBORATION. */
export const GRADE_CUTOFFS = { CONFIRMED: 0.75, HIGH: 0.55, MEDIUM: 0.35 } as const;
export const CONFIRMED_MIN_CORROBORATION = 0.7;
/** An edge whose source was first seen this long after the edge still fits (clock skew between artefacts). */
export const TEMPORAL_TOLERANCE_MS = 2000;

/** What scoring reads from an analysis. */
export interface ScoringGraph {
  readonly events: Iterable<AnalysisEvent>;
  readonly nodes: Seq<GraphNode>;
  readonly edges: Seq<CausalEdge>;
  readonly tampering: TamperingVerdict;
  /**
   * The earliest event time (ms, null for none) of nodes whose events are not all among `events`, by node id: a part
   * of a graph gives its source nodes' first times this way instead of holding each of their events.
   */
  readonly firstMs?: ReadonlyMap<string, number | null>;
}

/** A chain (edge ids, root to leaf) or anything with edge ids, like a Story. */
export type Scorable = readonly string[] | { readonly edgeIds: readonly string[] };

interface Index {
  readonly events: ReadonlyMap<string, AnalysisEvent>;
  /** Earliest event time of each node (ms), computed once. */
  readonly firstMs: Map<string, number | null>;
  readonly nodes: ReadonlyMap<string, GraphNode>;
  readonly edges: ReadonlyMap<string, CausalEdge>;
}

const indexes = new WeakMap<ScoringGraph, Index>();

function indexOf(g: ScoringGraph): Index {
  let i = indexes.get(g);
  if (!i) {
    // Filled in a loop: a map from an array of [key, value] pairs would make a pair per event first.
    const events = new Map<string, AnalysisEvent>();
    for (const e of g.events) events.set(e.eventId, e);
    const nodes = new Map<string, GraphNode>();
    for (const n of g.nodes) nodes.set(n.id, n);
    const edges = new Map<string, CausalEdge>();
    for (const e of g.edges) edges.set(e.id, e);
    i = { events, firstMs: new Map(g.firstMs ?? []), nodes, edges };
    indexes.set(g, i);
  }
  return i;
}

/** The events of a scored graph by id (built once per graph and shared by scoring and the stories). */
export function eventsById(g: ScoringGraph): ReadonlyMap<string, AnalysisEvent> {
  return indexOf(g).events;
}

/** The nodes of a scored graph by id (the same shared index). */
export function nodesById(g: ScoringGraph): ReadonlyMap<string, GraphNode> {
  return indexOf(g).nodes;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The grade of a score (and corroboration, for CONFIRMED). */
export function gradeOf(score: number, corroboration: number): ConfidenceGrade {
  if (score >= GRADE_CUTOFFS.CONFIRMED && corroboration >= CONFIRMED_MIN_CORROBORATION) return 'CONFIRMED';
  if (score >= GRADE_CUTOFFS.HIGH) return 'HIGH';
  if (score >= GRADE_CUTOFFS.MEDIUM) return 'MEDIUM';
  return 'LOW';
}

/** Source family of a node source name: `evtx:sysmon-1` -> `evtx:sysmon`; two families on one node is corroboration. */
function family(source: string): string {
  return source.replace(/-[^-:]*$/, '');
}

/**
 * spec score_chain: the breakdown of a chain or story.
 * reliability: mean loader grade weight of its events; corroboration: 0.4 for one source, +0.3 per further artefact
 * kind (up to one), +0.3 times the share of its nodes seen by two source families; temporal fit: share of edges
 * whose source node was seen no later than the edge (edges without a time count half); edge strength: geometric
 * mean of the edges' calibrated confidences; penalty: the worst tampering penalty of its hosts.
 */
export function scoreChain(chain: Scorable, graph: ScoringGraph): ConfidenceBreakdown {
  const ix = indexOf(graph);
  const ids = Array.isArray(chain) ? (chain as readonly string[]) : (chain as { readonly edgeIds: readonly string[] }).edgeIds;
  const edges = ids.map((id) => ix.edges.get(id)).filter((e): e is CausalEdge => e !== undefined);
  const eventIds = new Set<string>();
  const nodeIds = new Set<string>();
  for (const e of edges) {
    for (const id of e.eventIds) eventIds.add(id);
    nodeIds.add(e.from);
    nodeIds.add(e.to);
  }
  const events = [...eventIds].map((id) => ix.events.get(id)).filter((e): e is AnalysisEvent => e !== undefined);
  const reliability = events.length === 0 ? 0 : events.reduce((s, e) => s + RELIABILITY_WEIGHTS[e.reliability], 0) / events.length;

  const kinds = new Set(events.map((e) => e.kind));
  const nodes = [...nodeIds].map((id) => ix.nodes.get(id)).filter((n): n is GraphNode => n !== undefined && n.kind !== 'host');
  const fused = nodes.filter((n) => new Set(n.sources.map((s) => family(s.source))).size >= 2).length;
  const corroboration = events.length === 0 ? 0 : Math.min(1, 0.4 + 0.3 * Math.min(1, kinds.size - 1) + 0.3 * (nodes.length === 0 ? 0 : fused / nodes.length));

  let fit = 0;
  for (const e of edges) {
    const from = ix.nodes.get(e.from);
    const first = from ? firstTime(from, ix) : null;
    if (e.time === null || first === null) fit += 0.5;
    else fit += first <= parseTimeMs(e.time) + TEMPORAL_TOLERANCE_MS ? 1 : 0;
  }
  const temporalFit = edges.length === 0 ? 0 : fit / edges.length;
  const edgeStrength = edges.length === 0 ? 0 : Math.exp(edges.reduce((s, e) => s + Math.log(Math.max(1e-6, e.confidence)), 0) / edges.length);

  const hosts = new Set(events.map((e) => e.host));
  let penalty = 1;
  for (const h of hosts) {
    const mine = graph.tampering.indicators.filter((i) => i.host === h);
    if (mine.length > 0) penalty = Math.min(penalty, penaltyOf(mine));
  }
  const w = CONFIDENCE_WEIGHTS;
  const score = (w.reliability * reliability + w.corroboration * corroboration + w.temporalFit * temporalFit + w.edgeStrength * edgeStrength) * penalty;
  return {
    reliability: round(reliability),
    corroboration: round(corroboration),
    temporalFit: round(temporalFit),
    edgeStrength: round(edgeStrength),
    penalty: round(penalty),
    score: round(score),
    grade: gradeOf(score, corroboration),
  };
}

function firstTime(n: GraphNode, ix: Index): number | null {
  const known = ix.firstMs.get(n.id);
  if (known !== undefined) return known;
  let best: number | null = null;
  for (const id of n.eventIds) {
    const t = ix.events.get(id)?.time.time;
    if (t === undefined || t === null) continue;
    const ms = parseTimeMs(t);
    if (Number.isFinite(ms) && (best === null || ms < best)) best = ms;
  }
  ix.firstMs.set(n.id, best);
  return best;
}

/** spec apply_score: the item with its confidence (re)computed against the graph. */
export function applyScore<T extends { readonly edgeIds: readonly string[] }>(item: T, graph: ScoringGraph): T & { readonly confidence: ConfidenceBreakdown } {
  return { ...item, confidence: scoreChain(item, graph) };
}
