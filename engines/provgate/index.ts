// Provenance gate library operations: run (verify, graph, enrich, decide), the graph as JSON and Cypher, and the public surface.
import path from 'node:path';
import { toCypher, type CypherNode, type CypherEdge, type CypherScalar, type CypherValue } from '../core/cypher.js';
import { collect, missingStages, type CollectResult } from './collect.js';
import type { LoadedEnvelope, TrustedKeys } from './envelope.js';
import { enrichReachability, enrichScorer, type DependencyScorer } from './enrich.js';
import { enrichAdvisories, type OsvIndex } from './osv.js';
import { enrichStaticReachability, type ReachReport } from './reach.js';
import { ProvenanceGraph, type GraphEdge, type GraphNode } from './graph.js';
import { evaluate, type Decision } from './policy.js';
import type { GraphDocument } from '../core/contracts/provgate.js';
import { findResourcesDir } from '../core/resources.js';

export type { GraphDocument } from '../core/contracts/provgate.js';

export { VERSION } from './cli-meta.js';

/** The explorer page relative to a resources directory. */
export const EXPLORER_RELATIVE = path.join('provgate', 'explorer');

/** The resources/ folder of this checkout or installed package: ../../resources from the sources, ../../../resources from dist/. */
export function defaultResourcesDir(): string {
  return findResourcesDir(path.join(EXPLORER_RELATIVE, 'index.html'));
}

export { collect, missingStages, type CollectResult } from './collect.js';
export { enrich, TyposquatScorer, type DependencyScorer, type ScoreResult } from './enrich.js';
export { loadOsv, OsvIndex } from './osv.js';
export { evaluate, prComment, registerRule, RULES, VERDICTS, type Decision, type Reason, type Rule, type Verdict } from './policy.js';
export { blastRadius, layerBlastRadius, originStory } from './backtrack.js';
export { loadEnvelopes, saveEnvelopes, parseEnvelopeList } from './files.js';
export { cyclonedxToBuild, sarifToSast, sbomJsonToBuild, scannerEcosystem, scannerJsonToScan } from './ingest.js';
export { keygen, signingKeyFromEnv, trustedFromEnv, demoTrust, DEMO_KEYID } from './keys.js';
export { signEvent, verifyEnvelope, parseEnvelope, SignatureError, type Envelope, type StageEvent, type TrustedKeys } from './envelope.js';

/** What else may enrich a run: offline OSV advisories (`gate --advisories`). */
export interface RunOptions {
  readonly advisories?: OsvIndex;
  /** Static reachability (`gate --reach-*`): decides pypi findings that runtime facts left unknown. */
  readonly reach?: ReachReport;
  /** Key ids revoked in the store: an envelope they alone sign is rejected as "signed by a revoked key". */
  readonly revoked?: ReadonlySet<string>;
}

/** `run`: verifies the envelopes against the trusted keys, builds and enriches the graph (scorer optional, default none), decides. */
export function run(envelopes: Iterable<LoadedEnvelope>, trusted: TrustedKeys, scorer: DependencyScorer | null = null, options: RunOptions = {}): { result: CollectResult; decision: Decision } {
  const result = collect(envelopes, trusted, options.revoked);
  if (scorer) enrichScorer(result, scorer);
  if (options.advisories) enrichAdvisories(result, options.advisories);
  enrichReachability(result);
  if (options.reach) enrichStaticReachability(result, options.reach);
  return { result, decision: evaluate(result) };
}

/** Edges in a stable order (by from, to, rel), whatever order the events came in. */
function sortedEdges(g: ProvenanceGraph): GraphEdge[] {
  const key = (e: GraphEdge): string => `${e.from}\u0000${e.to}\u0000${e.rel}`;
  return g.edges().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** `export --format json`: the graph as one JSON document (nodes and edges sorted, so equal graphs give equal text). */
export function toGraphDocument(result: CollectResult, decision?: Decision): GraphDocument {
  const g = result.graph;
  const byId = <T extends { id: string }>(a: T, b: T): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const edges = sortedEdges(g);
  return {
    nodes: [...g.nodes.values()].sort(byId),
    edges,
    findings: [...g.findings],
    unattributed: result.unattributed,
    rejected: result.rejected,
    stagesSeen: [...result.stagesSeen].sort(),
    missingStages: missingStages(result),
    stats: g.stats(),
    ...(decision === undefined ? {} : { decision }),
  };
}

function cypherProps(attrs: Record<string, unknown>): Record<string, CypherValue> {
  const out: Record<string, CypherValue> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v as CypherScalar[];
  }
  return out;
}

const LABELS: Readonly<Record<string, string>> = {
  commit: 'Commit',
  file: 'File',
  dependency: 'Dependency',
  build: 'Build',
  layer: 'Layer',
  image: 'Image',
  service: 'Service',
  container: 'Container',
};

/** `export --format cypher`: an idempotent Neo4j script of the graph, findings as nodes linked by HAS_FINDING. */
export function toCypherScript(g: ProvenanceGraph): string {
  const byId = (a: GraphNode, b: GraphNode): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const nodes: CypherNode[] = [...g.nodes.values()].sort(byId).map((n) => ({ id: n.id, labels: ['Provenance', LABELS[n.kind] ?? 'Node'], properties: { kind: n.kind, label: n.label, ...cypherProps(n.attrs) } }));
  const edges: CypherEdge[] = sortedEdges(g).map((e) => ({ from: e.from, to: e.to, type: e.rel.toUpperCase() }));
  for (const f of g.findings) {
    nodes.push({ id: f.id, labels: ['Provenance', 'Finding'], properties: { source: f.source, severity: f.severity, title: f.title, cve: f.cve, reachable: f.reachable, evidence: f.evidence } });
    edges.push({ from: f.nodeId, to: f.id, type: 'HAS_FINDING' });
  }
  return toCypher({ nodes, edges }, { constraints: true, header: 'Vitrine provenance gate graph' });
}

/** Rebuilds the graph of a stored document (for origin stories, blast radii and Cypher of a stored run). */
export function graphFromDocument(doc: Pick<GraphDocument, 'nodes' | 'edges' | 'findings'>): ProvenanceGraph {
  const g = new ProvenanceGraph();
  for (const n of doc.nodes) g.addNode(n.kind, n.id, n.label, n.attrs);
  for (const e of doc.edges) g.addEdge(e.from, e.to, e.rel);
  for (const f of doc.findings) g.addFinding({ ...f, evidence: [...f.evidence] });
  return g;
}
