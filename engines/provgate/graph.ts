// The provenance graph: content-addressed nodes from commit to container, typed edges that only point downstream, and findings on nodes.
import { canonicalHash } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import type { EdgeRel, Finding, GraphEdge, GraphNode, NodeKind } from '../core/contracts/provgate.js';

export type { EdgeRel, Finding, GraphEdge, GraphNode, NodeKind } from '../core/contracts/provgate.js';

/** Node kinds, upstream to downstream. */
export const NODE_KINDS = ['commit', 'file', 'dependency', 'build', 'layer', 'image', 'service', 'container'] as const satisfies readonly NodeKind[];

/** Every edge goes from a lower rank to a higher one, so the graph cannot have a cycle. */
const RANK: Readonly<Record<NodeKind, number>> = { commit: 0, file: 1, dependency: 1, build: 2, layer: 2, image: 3, service: 4, container: 5 };

/** A content-addressed node id: the kind and the first 128 bits of the SHA-256 of the identity's canonical JSON. */
export function nodeId(kind: NodeKind, identity: unknown): string {
  return `${kind}:${canonicalHash(identity).slice(0, 32)}`;
}

export class ProvenanceGraph {
  readonly nodes = new Map<string, GraphNode>();
  private readonly out = new Map<string, Map<string, GraphEdge>>();
  private readonly inc = new Map<string, Map<string, GraphEdge>>();
  readonly findings: Finding[] = [];
  private readonly findingIds = new Set<string>();

  /** Adds a node, or merges attributes into the node of the same id (first label wins). */
  addNode(kind: NodeKind, id: string, label: string, attrs: Record<string, unknown> = {}): GraphNode {
    const existing = this.nodes.get(id);
    if (existing !== undefined) {
      for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) existing.attrs[k] = v;
      return existing;
    }
    const node: GraphNode = { id, kind, label, attrs: { ...attrs } };
    this.nodes.set(id, node);
    return node;
  }

  addEdge(from: string, to: string, rel: EdgeRel): void {
    const a = this.nodes.get(from);
    const b = this.nodes.get(to);
    if (a === undefined || b === undefined) throw new VitrineError('internal', 'an edge names an unknown node');
    if (RANK[a.kind] >= RANK[b.kind]) throw new VitrineError('internal', 'an edge must point downstream');
    const key = `${to}\u0000${rel}`;
    let outs = this.out.get(from);
    if (outs === undefined) this.out.set(from, (outs = new Map()));
    if (outs.has(key)) return;
    const edge: GraphEdge = { from, to, rel };
    outs.set(key, edge);
    let ins = this.inc.get(to);
    if (ins === undefined) this.inc.set(to, (ins = new Map()));
    ins.set(`${from}\u0000${rel}`, edge);
  }

  /** Adds a finding unless one of the same id is there; returns whether it was added. */
  addFinding(f: Finding): boolean {
    if (!this.nodes.has(f.nodeId)) throw new VitrineError('internal', 'a finding names an unknown node');
    if (this.findingIds.has(f.id)) return false;
    this.findingIds.add(f.id);
    this.findings.push(f);
    return true;
  }

  hasFinding(id: string): boolean {
    return this.findingIds.has(id);
  }

  edges(): GraphEdge[] {
    const all: GraphEdge[] = [];
    for (const m of this.out.values()) all.push(...m.values());
    return all;
  }

  outgoing(id: string): GraphEdge[] {
    return [...(this.out.get(id)?.values() ?? [])];
  }

  incoming(id: string): GraphEdge[] {
    return [...(this.inc.get(id)?.values() ?? [])];
  }

  ofKind(kind: NodeKind): GraphNode[] {
    return [...this.nodes.values()].filter((n) => n.kind === kind);
  }

  /** Every node downstream of `id` (not itself). */
  descendants(id: string): Set<string> {
    return this.walk(id, true);
  }

  ancestors(id: string): Set<string> {
    return this.walk(id, false);
  }

  private walk(start: string, forward: boolean): Set<string> {
    const seen = new Set<string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const edges = (forward ? this.out : this.inc).get(queue[i] as string);
      if (edges === undefined) continue;
      for (const e of edges.values()) {
        const next = forward ? e.to : e.from;
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return seen;
  }

  /**
   * The shortest upstream path from a node of `kind` down to `id`, as node ids [origin, ..., id]; null when none.
   * Among equally short paths the newest commit (highest `seq`) wins, so a version introduced, removed and
   * introduced again traces to the commit that brought the copy that ships.
   */
  upstreamPath(id: string, kind: NodeKind): string[] | null {
    const prev = new Map<string, string | null>([[id, null]]);
    let frontier = [id];
    while (frontier.length > 0) {
      const hits = frontier.filter((n) => n !== id && this.nodes.get(n)?.kind === kind);
      if (hits.length > 0) {
        const best = hits.sort((a, b) => this.recency(b) - this.recency(a) || (a < b ? -1 : 1))[0] as string;
        const path = [best];
        for (let p = prev.get(best); p !== null && p !== undefined; p = prev.get(p)) path.push(p);
        return path;
      }
      const next: string[] = [];
      for (const cur of frontier) {
        const ins = [...(this.inc.get(cur)?.values() ?? [])].sort((a, b) => this.recency(b.from) - this.recency(a.from) || (a.from < b.from ? -1 : 1));
        for (const e of ins) {
          if (!prev.has(e.from)) {
            prev.set(e.from, cur);
            next.push(e.from);
          }
        }
      }
      frontier = next;
    }
    return null;
  }

  private recency(id: string): number {
    const seq = this.nodes.get(id)?.attrs['seq'];
    return typeof seq === 'number' ? seq : -1;
  }

  stats(): { nodes: number; edges: number; findings: number } {
    let edges = 0;
    for (const m of this.out.values()) edges += m.size;
    return { nodes: this.nodes.size, edges, findings: this.findings.length };
  }
}

/** `kind:label` names of a path's nodes, as reasons show them. */
export function pathLabels(graph: ProvenanceGraph, ids: readonly string[]): string[] {
  return ids.map((id) => {
    const n = graph.nodes.get(id);
    return n === undefined ? id : `${n.kind}:${n.label}`;
  });
}
