// Groups reports by the similarity of their indicators and techniques (single linkage at a threshold) and writes the clusters as Cypher.
import type { Cluster, Extraction } from '../../core/contracts/attrib.js';
import { toCypher, type CypherEdge, type CypherNode } from '../../core/cypher.js';
import { VitrineError } from '../../core/errors.js';
import type { TechniqueClassifier } from '../classifier/classifier.js';
import { extract } from '../extract/extract.js';
import type { AttackKb } from '../kb/kb.js';
import { DEFAULT_CLUSTER_THRESHOLD } from '../limits.js';

export { DEFAULT_CLUSTER_THRESHOLD };

/** More reports than this in one call is refused (pairwise similarity is quadratic). */
export const MAX_CLUSTER_REPORTS = 2000;

export interface ClusterOptions {
  readonly threshold?: number;
  readonly classifier?: TechniqueClassifier;
}

/** What a report contributes to clustering. */
export interface ReportFeatures {
  readonly name: string;
  readonly indicators: ReadonlySet<string>;
  readonly techniques: ReadonlySet<string>;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * Similarity of two reports: the mean of the Jaccard index of their indicator sets and that of their
 * technique sets; when neither report has any indicator (or any technique), that half is left out.
 */
export function reportSimilarity(a: ReportFeatures, b: ReportFeatures): number {
  const parts: number[] = [];
  if (a.indicators.size > 0 || b.indicators.size > 0) parts.push(jaccard(a.indicators, b.indicators));
  if (a.techniques.size > 0 || b.techniques.size > 0) parts.push(jaccard(a.techniques, b.techniques));
  return parts.length === 0 ? 0 : parts.reduce((s, x) => s + x, 0) / parts.length;
}

/** A report's features from its extraction. */
export function reportFeatures(name: string, e: Extraction): ReportFeatures {
  return { name, indicators: new Set(e.indicators.map((i) => `${i.type}:${i.value}`)), techniques: new Set(e.technique_summary.map((t) => t.id)) };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Clusters of features: connected components of the graph whose edges join reports at or above the threshold. */
export function clusterFeatures(reports: readonly ReportFeatures[], threshold = DEFAULT_CLUSTER_THRESHOLD): Cluster[] {
  if (!(threshold >= 0 && threshold <= 1)) throw new VitrineError('validation_failed', 'threshold must be between 0 and 1');
  if (reports.length > MAX_CLUSTER_REPORTS) throw new VitrineError('payload_too_large', `at most ${MAX_CLUSTER_REPORTS} reports can be clustered at once`);
  if (new Set(reports.map((r) => r.name)).size !== reports.length) throw new VitrineError('validation_failed', 'report names must be unique');
  const n = reports.length;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const sim = new Map<string, number>();
  const links: { a: number; b: number; s: number }[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const s = reportSimilarity(reports[i]!, reports[j]!);
      sim.set(`${i}:${j}`, s);
      if (s >= threshold && s > 0) {
        links.push({ a: i, b: j, s });
        parent[find(i)] = find(j);
      }
    }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  const clusters = [...groups.values()].map((members) => {
    members.sort((x, y) => (reports[x]!.name < reports[y]!.name ? -1 : 1));
    let total = 0;
    let pairs = 0;
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const [a, b] = members[x]! < members[y]! ? [members[x]!, members[y]!] : [members[y]!, members[x]!];
        total += sim.get(`${a}:${b}`)!;
        pairs++;
      }
    const shared = (pick: (r: ReportFeatures) => ReadonlySet<string>): string[] => {
      const counts = new Map<string, number>();
      for (const m of members) for (const f of pick(reports[m]!)) counts.set(f, (counts.get(f) ?? 0) + 1);
      return [...counts.entries()].filter(([, c]) => c >= 2).map(([f]) => f).sort();
    };
    const inside = new Set(members);
    return {
      members: members.map((m) => reports[m]!.name),
      cohesion: pairs === 0 ? 1 : round4(total / pairs),
      shared_indicators: shared((r) => r.indicators),
      shared_techniques: shared((r) => r.techniques),
      links: links.filter((l) => inside.has(l.a)).map((l) => ({ a: reports[l.a]!.name, b: reports[l.b]!.name, similarity: round4(l.s) })),
    };
  });
  clusters.sort((a, b) => b.members.length - a.members.length || (a.members[0]! < b.members[0]! ? -1 : 1));
  return clusters.map((c, i) => ({ id: `C${i + 1}`, ...c }));
}

/** Extracts each report and clusters them (the `cluster DIR` command reads the files and calls this). */
export function cluster(reports: readonly { readonly name: string; readonly text: string }[], kb: AttackKb, opts: ClusterOptions = {}): Cluster[] {
  const features = reports.map((r) => reportFeatures(r.name, extract(r.text, kb, opts.classifier ? { classifier: opts.classifier } : {})));
  return clusterFeatures(features, opts.threshold ?? DEFAULT_CLUSTER_THRESHOLD);
}

/** Cypher: (:Cluster)-[:HAS_MEMBER]->(:Report), (:Cluster)-[:SHARES]->(:Indicator or :Technique) for features two members share, (:Report)-[:SIMILAR_TO {similarity}]->(:Report). */
export function clustersToCypher(clusters: readonly Cluster[]): string {
  const nodes: CypherNode[] = [];
  const edges: CypherEdge[] = [];
  const have = new Set<string>();
  const node = (id: string, labels: string[], properties: Record<string, string | number>): void => {
    if (have.has(id)) return;
    have.add(id);
    nodes.push({ id, labels, properties });
  };
  for (const c of clusters) {
    const cid = `cluster:${c.id}`;
    node(cid, ['Cluster'], { name: c.id, size: c.members.length, cohesion: c.cohesion });
    for (const m of c.members) {
      node(`report:${m}`, ['Report'], { name: m });
      edges.push({ from: cid, to: `report:${m}`, type: 'HAS_MEMBER' });
    }
    for (const f of c.shared_indicators) node(`indicator:${f}`, ['Indicator'], { type: f.slice(0, f.indexOf(':')), value: f.slice(f.indexOf(':') + 1) });
    for (const t of c.shared_techniques) node(`technique:${t}`, ['Technique'], { attack_id: t });
    for (const f of c.shared_indicators) edges.push({ from: cid, to: `indicator:${f}`, type: 'SHARES' });
    for (const t of c.shared_techniques) edges.push({ from: cid, to: `technique:${t}`, type: 'SHARES' });
    for (const l of c.links) edges.push({ from: `report:${l.a}`, to: `report:${l.b}`, type: 'SIMILAR_TO', properties: { similarity: l.similarity } });
  }
  return toCypher({ nodes, edges }, { header: 'Vitrine attrib clusters', constraints: true });
}
