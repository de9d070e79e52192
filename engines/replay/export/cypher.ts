// A story as a Cypher script (idempotent MERGE statements): hosts, the story, its alerts and techniques, and who acted on whom.
import { toCypher, type CypherEdge, type CypherNode } from '../../core/cypher.js';
import type { Story } from '../types.js';

export function storyToCypher(story: Story): string {
  const nodes: CypherNode[] = [];
  const edges: CypherEdge[] = [];
  const hosts = new Map<string, CypherNode>();
  const roles = new Map(story.graph.nodes.map((n) => [n.id, n.role]));
  const host = (address: string): string => {
    if (!hosts.has(address)) {
      const role = roles.get(address);
      hosts.set(address, { id: `host:${address}`, labels: ['Host'], properties: { address, ...(role !== undefined ? { role } : {}) } });
    }
    return `host:${address}`;
  };
  const storyId = `story:${story.id}`;
  nodes.push({
    id: storyId,
    labels: ['ReplayStory'],
    properties: {
      title: story.title,
      severity: story.severity,
      score: story.score,
      stages: [...story.stages],
      causal: story.causal,
      first_ts: story.first_ts,
      last_ts: story.last_ts,
      analysis_id: story.analysis_id,
      capture_sha256: story.source.sha256,
    },
  });
  const techniques = new Map(story.techniques.map((t) => [t.id, t]));
  for (const t of story.techniques) nodes.push({ id: `technique:${t.id}`, labels: ['Technique'], properties: { attack_id: t.id, name: t.name, tactic: t.tactic } });
  for (const a of story.alerts) {
    const alertId = `alert:${story.id}/${a.id}`;
    nodes.push({
      id: alertId,
      labels: ['ReplayAlert'],
      properties: { rule: a.rule, title: a.title, summary: a.summary, severity: a.severity, stage: a.stage, first_ts: a.first_ts, last_ts: a.last_ts, connections: a.evidence.uid_count, uids: [...a.evidence.uids] },
    });
    edges.push({ from: alertId, to: storyId, type: 'PART_OF' });
    edges.push({ from: alertId, to: host(a.src), type: 'BY' });
    for (const d of a.dst) {
      edges.push({ from: alertId, to: host(d), type: 'TARGETS' });
      edges.push({ from: host(a.src), to: host(d), type: 'ACTED_ON', properties: { id: `${story.id}/${a.id}`, rule: a.rule, stage: a.stage, first_ts: a.first_ts } });
    }
    for (const t of a.techniques) if (techniques.has(t)) edges.push({ from: alertId, to: `technique:${t}`, type: 'USES' });
  }
  nodes.push(...hosts.values());
  return toCypher({ nodes, edges }, { constraints: true, header: `Vitrine capture replay: story ${story.ordinal} of analysis ${story.analysis_id}` });
}
