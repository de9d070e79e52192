// Origin stories (commit, PR, author, builds, blast radius of a finding) and blast radii of nodes and layers.
import { VitrineError } from '../core/errors.js';
import { pep503 } from '../core/manifests/index.js';
import type { Finding, NodeKind, ProvenanceGraph } from './graph.js';
import { pathLabels } from './graph.js';
import type { BlastRadius, LayerBlast, OriginStory } from '../core/contracts/provgate.js';

export type { BlastRadius, LayerBlast, OriginStory } from '../core/contracts/provgate.js';

/** `blast_radius`: every node downstream of `id`, grouped by kind (ids sorted). */
export function blastRadius(graph: ProvenanceGraph, id: string): BlastRadius {
  const out: BlastRadius = {};
  for (const d of graph.descendants(id)) {
    const kind = graph.nodes.get(d)?.kind;
    if (kind === undefined) continue;
    (out[kind] ??= []).push(d);
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}

function labelsOf(graph: ProvenanceGraph, ids: readonly string[] | undefined): string[] {
  return [...new Set((ids ?? []).map((id) => graph.nodes.get(id)?.label ?? id))].sort();
}

/** `layer_blast_radius`: the images, services and containers that inherit every layer whose digest starts with the prefix. */
export function layerBlastRadius(graph: ProvenanceGraph, prefix: string): LayerBlast {
  const p = prefix.trim().toLowerCase();
  const bare = p.replace(/^sha256:/, '');
  if (!/^[0-9a-f]{4,64}$/.test(bare)) throw new VitrineError('bad_request', 'a layer prefix is 4 to 64 hex digits, optionally after sha256:');
  const layers = graph.ofKind('layer').filter((n) => {
    const digest = String(n.attrs['digest'] ?? '').toLowerCase();
    return digest.startsWith(p) || digest.replace(/^sha256:/, '').startsWith(bare);
  });
  const ids: BlastRadius = {};
  for (const l of layers) {
    for (const [kind, list] of Object.entries(blastRadius(graph, l.id)) as [NodeKind, string[]][]) ids[kind] = [...new Set([...(ids[kind] ?? []), ...list])].sort();
  }
  return {
    layers: layers.map((l) => String(l.attrs['digest'])).sort(),
    images: labelsOf(graph, ids.image),
    services: labelsOf(graph, ids.service),
    containers: labelsOf(graph, ids.container),
    ids,
  };
}

function matches(graph: ProvenanceGraph, f: Finding, q: string): boolean {
  const query = q.trim();
  if (query === '') return false;
  if (f.id === query || (f.cve !== null && f.cve.toLowerCase() === query.toLowerCase())) return true;
  const node = graph.nodes.get(f.nodeId);
  if (node?.kind !== 'dependency') return false;
  const name = String(node.attrs['name'] ?? '');
  return name.toLowerCase() === query.toLowerCase() || (node.attrs['ecosystem'] === 'pypi' && pep503(name) === pep503(query));
}

/** `origin_story`: one story per finding matching a CVE id, a finding id or a package name. */
export function originStory(graph: ProvenanceGraph, query: string): OriginStory[] {
  const stories: OriginStory[] = [];
  for (const f of graph.findings) {
    if (!matches(graph, f, query)) continue;
    const node = graph.nodes.get(f.nodeId);
    const pathIds = graph.upstreamPath(f.nodeId, 'commit') ?? [f.nodeId];
    const commit = graph.nodes.get(pathIds[0] as string);
    const down = blastRadius(graph, f.nodeId);
    const builds = new Set<string>();
    for (const img of down.image ?? []) for (const e of graph.incoming(img)) if (e.rel === 'produced') builds.add(graph.nodes.get(e.from)?.label ?? e.from);
    for (const b of down.build ?? []) builds.add(graph.nodes.get(b)?.label ?? b);
    const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    stories.push({
      finding: { id: f.id, cve: f.cve, severity: f.severity, title: f.title, source: f.source, reachable: f.reachable },
      dependency: node?.kind === 'dependency' ? { name: String(node.attrs['name']), version: String(node.attrs['version']), purl: String(node.attrs['purl']) } : null,
      introducedBy:
        commit?.kind === 'commit'
          ? { sha: String(commit.attrs['sha']), pr: typeof commit.attrs['pr'] === 'number' ? commit.attrs['pr'] : null, author: str(commit.attrs['author']), timestamp: str(commit.attrs['timestamp']), subject: str(commit.attrs['subject']) }
          : null,
      path: pathLabels(graph, pathIds),
      pathIds,
      builds: [...builds].sort(),
      blastRadius: { images: labelsOf(graph, down.image), services: labelsOf(graph, down.service), containers: labelsOf(graph, down.container) },
    });
  }
  return stories;
}
