// Story reduction: alerts linked by acting host, by pivots through compromised hosts and by shared outside destinations, in time; each story with stages, techniques, severity, timeline and host graph.
import type { ConnectionRecord } from './capture/index.js';
import { uuidv5 } from '../core/stix.js';
import { technique } from './attack.js';
import { RULES, type AlertDraft } from './detect/index.js';
import type { UidLookup } from './detect/uids.js';
import { isInternal } from './net.js';
import {
  SEVERITIES,
  STAGES,
  severityRank,
  stageRank,
  type Alert,
  type ConnectionFact,
  type HostRole,
  type ReductionStats,
  type Severity,
  type Stage,
  type Story,
  type StoryGraph,
  type TimelineStep,
} from './types.js';

/** Namespace of story ids (UUIDv5 over analysis id and ordinal): fixed, so an analysis always names its stories alike. */
export const STORY_NAMESPACE = '5c0b6a52-2f7e-4d0f-9a51-3c1e8f6d2b47';
/** Evidence lists are cut to this many items in the output (the counts stay exact). */
export const MAX_EVIDENCE_ITEMS = 100;
export const MAX_ALERT_HOSTS = 50;
/** Two alerts further apart than this are never linked. */
export const STORY_GAP_SECONDS = 24 * 3600;
/** Most hosts drawn in a story graph; the rest are counted in `omitted_hosts`. */
export const MAX_GRAPH_HOSTS = 60;
/** Most evidence connections a story lists in full. */
export const MAX_STORY_CONNECTIONS = 500;
/** Most alerts an analysis keeps (the most severe first); the rest are counted. */
export const MAX_ALERTS = 10_000;

/** A finished alert and the complete lists it was built from. */
export interface NumberedAlert {
  readonly alert: Alert;
  readonly draft: AlertDraft;
}

/** Orders drafts by time (then stage), numbers them A1..An and cuts evidence lists for output. */
export function numberAlerts(drafts: readonly AlertDraft[]): { alerts: NumberedAlert[]; dropped: number } {
  let kept = [...drafts];
  let dropped = 0;
  if (kept.length > MAX_ALERTS) {
    kept.sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || a.first_ts - b.first_ts);
    dropped = kept.length - MAX_ALERTS;
    kept = kept.slice(0, MAX_ALERTS);
  }
  kept.sort((a, b) => a.first_ts - b.first_ts || stageRank(a.stage) - stageRank(b.stage) || a.rule.localeCompare(b.rule) || a.src.localeCompare(b.src));
  return {
    dropped,
    alerts: kept.map((d, i) => ({
      draft: d,
      alert: {
        id: `A${i + 1}`,
        rule: d.rule,
        title: d.title,
        summary: d.summary,
        severity: d.severity,
        stage: d.stage,
        techniques: [...d.techniques],
        src: d.src,
        dst: d.dst.slice(0, MAX_ALERT_HOSTS),
        dst_count: d.dst.length,
        compromised: d.compromised.slice(0, MAX_ALERT_HOSTS),
        first_ts: d.first_ts,
        last_ts: d.last_ts,
        evidence: {
          uids: d.uids.slice(0, MAX_EVIDENCE_ITEMS),
          uid_count: d.uids.length,
          packets: d.packets.slice(0, MAX_EVIDENCE_ITEMS),
          counts: d.counts,
          facts: d.facts,
        },
      },
    })),
  };
}

class UnionFind {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r] as number;
    let x = i;
    while (this.parent[x] !== r) {
      const next = this.parent[x] as number;
      this.parent[x] = r;
      x = next;
    }
    return r;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

function gap(a: Alert, b: Alert): number {
  return Math.max(0, Math.max(a.first_ts, b.first_ts) - Math.min(a.last_ts, b.last_ts));
}

/**
 * Components of alerts that belong together: the same acting host; a host an alert marked compromised acting
 * later (the pivot); action-stage alerts toward the same outside host. Nothing links across STORY_GAP_SECONDS.
 */
export function linkAlerts(alerts: readonly NumberedAlert[]): number[][] {
  const uf = new UnionFind(alerts.length);
  const bySrc = new Map<string, number[]>();
  alerts.forEach((a, i) => {
    const list = bySrc.get(a.alert.src);
    if (list) list.push(i);
    else bySrc.set(a.alert.src, [i]);
  });
  for (const list of bySrc.values()) {
    // Already in time order: link each to the previous one unless the pause is too long.
    let lastEnd = -Infinity;
    let prev = -1;
    for (const i of list) {
      const a = (alerts[i] as NumberedAlert).alert;
      if (prev >= 0 && a.first_ts - lastEnd <= STORY_GAP_SECONDS) uf.union(prev, i);
      lastEnd = Math.max(lastEnd, a.last_ts);
      prev = i;
    }
  }
  alerts.forEach((a, i) => {
    if (stageRank(a.alert.stage) < stageRank('access')) return;
    for (const host of a.draft.compromised) {
      for (const j of bySrc.get(host) ?? []) {
        const b = (alerts[j] as NumberedAlert).alert;
        if (b.last_ts >= a.alert.first_ts && gap(a.alert, b) <= STORY_GAP_SECONDS) uf.union(i, j);
      }
    }
  });
  const byOutside = new Map<string, number[]>();
  alerts.forEach((a, i) => {
    if (a.alert.stage !== 'action') return;
    for (const host of a.draft.dst) {
      if (isInternal(host)) continue;
      const list = byOutside.get(host);
      if (list) list.push(i);
      else byOutside.set(host, [i]);
    }
  });
  for (const list of byOutside.values()) {
    for (let k = 1; k < list.length; k++) {
      const a = alerts[list[k - 1] as number] as NumberedAlert;
      const b = alerts[list[k] as number] as NumberedAlert;
      if (gap(a.alert, b.alert) <= STORY_GAP_SECONDS) uf.union(list[k - 1] as number, list[k] as number);
    }
  }
  const groups = new Map<number, number[]>();
  alerts.forEach((_, i) => {
    const r = uf.find(i);
    const list = groups.get(r);
    if (list) list.push(i);
    else groups.set(r, [i]);
  });
  return [...groups.values()];
}

/** A component is a story when one alert is medium or worse, or it spans two stages; a lone low alert is noise. */
export function isStory(alerts: readonly Alert[]): boolean {
  return alerts.some((a) => severityRank(a.severity) >= severityRank('medium')) || new Set(alerts.map((a) => a.stage)).size >= 2;
}

function raise(s: Severity): Severity {
  return SEVERITIES[Math.min(SEVERITIES.length - 1, severityRank(s) + 1)] as Severity;
}

const SEVERITY_BASE: Readonly<Record<Severity, number>> = { low: 20, medium: 45, high: 70, critical: 88 };

export interface StoryContext {
  readonly analysisId: string;
  readonly createdAt: string;
  readonly source: { readonly name: string; readonly sha256: string };
  readonly byUid: UidLookup;
}

interface Draft {
  readonly members: readonly NumberedAlert[];
  readonly severity: Severity;
  readonly score: number;
}

function uidsOf(members: readonly NumberedAlert[]): Set<string> {
  const out = new Set<string>();
  for (const m of members) for (const u of m.draft.uids) out.add(u);
  return out;
}

function packetsOf(uids: Iterable<string>, byUid: UidLookup): number {
  let n = 0;
  for (const u of uids) {
    const c = byUid.get(u);
    if (c) n += c.orig.packets + c.resp.packets;
  }
  return n;
}

function connectionFact(c: ConnectionRecord): ConnectionFact {
  return {
    uid: c.uid,
    proto: c.proto,
    orig_h: c.origH,
    orig_p: c.origP,
    resp_h: c.respH,
    resp_p: c.respP,
    start_ts: c.startTs,
    last_ts: c.lastTs,
    conn_state: c.connState,
    history: c.history,
    service: [...c.service],
    orig_packets: c.orig.packets,
    resp_packets: c.resp.packets,
    orig_bytes: c.orig.bytes,
    resp_bytes: c.resp.bytes,
    first_packet: c.firstPacket,
    last_packet: c.lastPacket,
  };
}

function ratio(a: number, b: number): number | null {
  return b === 0 ? null : Math.round((a / b) * 1000) / 1000;
}

function buildGraph(members: readonly NumberedAlert[], attacker: string | null, victims: ReadonlySet<string>, pivots: ReadonlySet<string>): StoryGraph {
  const chosen: string[] = [];
  const seen = new Set<string>();
  const want = (h: string): void => {
    if (!seen.has(h)) {
      seen.add(h);
      chosen.push(h);
    }
  };
  // Actors and compromised hosts first, then up to ten targets per alert, within the graph's bound.
  for (const m of members) want(m.alert.src);
  for (const m of members) for (const h of m.draft.compromised) want(h);
  for (const m of members) for (const h of m.draft.dst.slice(0, 10)) want(h);
  const all = new Set<string>();
  for (const m of members) {
    all.add(m.alert.src);
    for (const h of m.draft.dst) all.add(h);
  }
  const nodes = chosen.slice(0, MAX_GRAPH_HOSTS);
  const inGraph = new Set(nodes);
  const role = (h: string): HostRole => (h === attacker ? 'attacker' : pivots.has(h) ? 'pivot' : victims.has(h) ? 'victim' : isInternal(h) ? 'internal' : 'external');
  const edges: Array<StoryGraph['edges'][number]> = [];
  for (const m of members) {
    for (const to of m.draft.dst) {
      if (!inGraph.has(m.alert.src) || !inGraph.has(to)) continue;
      edges.push({ from: m.alert.src, to, stage: m.alert.stage, rule: m.alert.rule, alert_id: m.alert.id, first_ts: m.alert.first_ts });
    }
  }
  return { nodes: nodes.map((id) => ({ id, role: role(id), internal: isInternal(id) })), edges, omitted_hosts: all.size - nodes.filter((h) => all.has(h)).length };
}

const RULE_TITLES = new Map(RULES.map((r) => [r.name, r.title]));

function storyTitle(members: readonly NumberedAlert[], attacker: string | null): string {
  const rules: string[] = [];
  for (const m of members) {
    const name = RULE_TITLES.get(m.alert.rule) ?? m.alert.rule;
    if (!rules.includes(name)) rules.push(name);
  }
  const shown = rules.slice(0, 5).join(' -> ') + (rules.length > 5 ? ` and ${rules.length - 5} more` : '');
  return attacker === null ? shown : `${attacker}: ${shown}`;
}

/** Reduces numbered alerts into stories (most severe first) and the analysis's reduction statistics. */
export function reduceStories(alerts: readonly NumberedAlert[], totals: { packets: number; flows: number }, ctx: StoryContext): { stories: Story[]; stats: ReductionStats } {
  const drafts: Draft[] = [];
  for (const group of linkAlerts(alerts)) {
    const members = group.map((i) => alerts[i] as NumberedAlert);
    if (!isStory(members.map((m) => m.alert))) continue;
    const stages = new Set(members.map((m) => m.alert.stage));
    let severity = members.reduce<Severity>((s, m) => (severityRank(m.alert.severity) > severityRank(s) ? m.alert.severity : s), 'low');
    const compromised = members.some((m) => m.draft.compromised.length > 0);
    // A chain that got in and then acted is worse than any of its parts.
    if (stages.size >= 3 || (compromised && stages.has('action'))) severity = raise(severity);
    const score = Math.min(100, SEVERITY_BASE[severity] + 3 * (stages.size - 1) + Math.min(6, Math.round(Math.log2(members.length))));
    drafts.push({ members, severity, score });
  }
  drafts.sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || b.score - a.score || (a.members[0]?.alert.first_ts ?? 0) - (b.members[0]?.alert.first_ts ?? 0));

  const storyUids = new Set<string>();
  let alertsInStories = 0;
  for (const d of drafts) {
    alertsInStories += d.members.length;
    for (const u of uidsOf(d.members)) storyUids.add(u);
  }
  const stats: ReductionStats = {
    packets: totals.packets,
    flows: totals.flows,
    alerts: alerts.length,
    stories: drafts.length,
    alerts_in_stories: alertsInStories,
    flows_in_stories: storyUids.size,
    packets_in_stories: packetsOf(storyUids, ctx.byUid),
    ratios: {
      packets_per_story: ratio(totals.packets, drafts.length),
      flows_per_story: ratio(totals.flows, drafts.length),
      alerts_per_story: ratio(alertsInStories, drafts.length),
      flows_per_alert: ratio(totals.flows, alerts.length),
      story_flow_fraction: ratio(storyUids.size, totals.flows),
    },
  };

  const stories = drafts.map((d, n): Story => {
    const members = [...d.members].sort((a, b) => a.alert.first_ts - b.alert.first_ts || stageRank(a.alert.stage) - stageRank(b.alert.stage));
    const first = members[0] as NumberedAlert;
    // The actor of the earliest alert of the earliest stage present started it.
    const earliestStage = Math.min(...members.map((m) => stageRank(m.alert.stage)));
    const opener = members.find((m) => stageRank(m.alert.stage) === earliestStage) ?? first;
    const attacker = opener.alert.src;
    const compromised = new Set(members.flatMap((m) => m.draft.compromised));
    const victims = new Set<string>(compromised);
    for (const m of members) if (m.alert.stage === 'access' || m.alert.stage === 'movement') for (const h of m.draft.dst) victims.add(h);
    if (victims.size === 0) for (const m of members) for (const h of m.draft.dst) victims.add(h);
    victims.delete(attacker);
    const srcs = new Set(members.map((m) => m.alert.src));
    const pivots = new Set([...compromised].filter((h) => srcs.has(h) && h !== attacker));
    const hosts = new Set<string>();
    for (const m of members) {
      hosts.add(m.alert.src);
      for (const h of m.draft.dst) hosts.add(h);
    }
    const stagesPresent = STAGES.filter((s) => members.some((m) => m.alert.stage === s));
    const firstOf = (s: Stage): number => Math.min(...members.filter((m) => m.alert.stage === s).map((m) => m.alert.first_ts));
    const causal = stagesPresent.every((s, i) => i === 0 || firstOf(stagesPresent[i - 1] as Stage) <= firstOf(s));
    const techniques = [...new Set(members.flatMap((m) => m.alert.techniques))].map(technique);
    const firstTs = Math.min(...members.map((m) => m.alert.first_ts));
    const lastTs = Math.max(...members.map((m) => m.alert.last_ts));
    const uids = uidsOf(members);
    const timeline: TimelineStep[] = members.map((m, i) => ({
      step: i + 1,
      ts: m.alert.first_ts,
      stage: m.alert.stage,
      alert_id: m.alert.id,
      rule: m.alert.rule,
      title: m.alert.title,
      severity: m.alert.severity,
      src: m.alert.src,
      dst: m.alert.dst.slice(0, 10),
    }));
    const victimList = [...victims].sort();
    return {
      id: uuidv5(STORY_NAMESPACE, `${ctx.analysisId}/${n + 1}`),
      analysis_id: ctx.analysisId,
      created_at: ctx.createdAt,
      ordinal: n + 1,
      title: storyTitle(members, attacker),
      summary: `${members.length} alert${members.length === 1 ? '' : 's'} over ${Math.round(lastTs - firstTs)} s involving ${hosts.size} host${hosts.size === 1 ? '' : 's'}; stages ${stagesPresent.join(' -> ')}${causal ? ' in causal order' : ' (not in causal order)'}${compromised.size > 0 ? `; likely compromised: ${[...compromised].sort().slice(0, 10).join(', ')}` : ''}.`,
      severity: d.severity,
      score: d.score,
      attacker,
      victims: victimList.slice(0, 200),
      hosts: [...hosts].sort().slice(0, 200),
      stages: stagesPresent,
      causal,
      techniques,
      first_ts: firstTs,
      last_ts: lastTs,
      alerts: members.map((m) => m.alert),
      timeline,
      graph: buildGraph(members, attacker, victims, pivots),
      connections: [...new Set(members.flatMap((m) => m.alert.evidence.uids))]
        .slice(0, MAX_STORY_CONNECTIONS)
        .flatMap((u) => {
          const c = ctx.byUid.get(u);
          return c ? [connectionFact(c)] : [];
        }),
      stats: { alerts: members.length, flows: uids.size, packets: packetsOf(uids, ctx.byUid), hosts: hosts.size, duration_s: Math.round((lastTs - firstTs) * 1000) / 1000 },
      analysis_stats: stats,
      source: ctx.source,
    };
  });
  return { stories, stats };
}
