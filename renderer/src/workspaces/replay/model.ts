// The Replay workspace's pure pieces: reduction figures, the host graph up to a timeline step, file names.
import type { Alert, ConnectionFact, ReductionStats, Severity, Story } from '../../../../engines/core/contracts/replay';
import { utcTime } from '../../components/time';

/** The service's own limit is 256 MiB; refusing larger files here saves sending them only to hear 413. */
export const DEFAULT_MAX_UPLOAD = 256 * 1024 * 1024;
export const MAX_DEMO_BENIGN = 50_000;

export const SEVERITY_ORDER: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

/** A count with thousands separators (fixed locale so screenshots and tests read the same everywhere). */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 alert", "2 alerts": the app's one counted wording (components/wording.ts). */
export { counted as plural } from '../../components/wording';

/** A ratio as "1,234.5"; null (nothing to divide by) as an en dash. */
export function ratio(n: number | null, digits = 1): string {
  if (n === null || !Number.isFinite(n)) return '–';
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function percentOf(fraction: number | null): string {
  if (fraction === null || !Number.isFinite(fraction)) return '–';
  const p = fraction * 100;
  return `${p > 0 && p < 0.1 ? '<0.1' : p.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
}

export interface ReductionRow {
  readonly key: string;
  readonly label: string;
  readonly value: string;
  readonly hint: string;
  /** What exactly is counted (the row's tooltip). */
  readonly counts: string;
}

/** The reduction funnel as rows: what went in, what came out, and how much each story stands for; each label says what it counts. */
export function reductionRows(s: ReductionStats): ReductionRow[] {
  return [
    { key: 'packets', label: 'Packets read', value: count(s.packets), hint: `${count(s.packets_in_stories)} in stories`, counts: 'Every frame in the capture file (for a Zeek conn.log: the packets the log reports).' },
    {
      key: 'flows',
      label: 'Flows (connections)',
      value: count(s.flows),
      hint: `${count(s.flows_in_stories)} in stories (${percentOf(s.ratios.story_flow_fraction)})`,
      counts: "Connections as Zeek counts them: one per address/port/protocol pair until it closes or falls silent (TCP 5 min, UDP and ICMP 1 min).",
    },
    { key: 'alerts', label: 'Alerts (rule hits)', value: count(s.alerts), hint: `${count(s.alerts_in_stories)} in stories`, counts: 'Findings of the detection rules, each naming its rule; low ones linked to nothing stay out of stories.' },
    { key: 'stories', label: 'Stories (linked alerts)', value: count(s.stories), hint: s.stories === 0 ? 'nothing linked into a story' : 'what is left to read', counts: 'Alerts linked by acting host, pivot or shared outside host, with at least one medium alert or two stages.' },
    { key: 'packets_per_story', label: 'Packets per story', value: ratio(s.ratios.packets_per_story), hint: 'packets read / stories', counts: 'How many packets each story stands for.' },
    { key: 'flows_per_story', label: 'Flows per story', value: ratio(s.ratios.flows_per_story), hint: 'flows / stories', counts: 'How many connections each story stands for.' },
    { key: 'alerts_per_story', label: 'Alerts per story', value: ratio(s.ratios.alerts_per_story), hint: 'alerts / stories', counts: 'Alerts of the capture for each story.' },
    { key: 'flows_per_alert', label: 'Flows per alert', value: ratio(s.ratios.flows_per_alert), hint: 'flows / alerts', counts: 'Connections of the capture for each alert.' },
  ];
}

/** Capture time (seconds since the epoch) as UTC with milliseconds: captures are read across time zones. */
export function utc(ts: number): string {
  return (Number.isFinite(ts) && utcTime(Math.round(ts * 1000), 'ms')) || '–';
}

/** A duration in seconds as "1 h 2 min", "3 min 4 s", "5.2 s" or, under a second, "42 ms" (a column of "0.0 s" says nothing). */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  if (seconds === 0) return '0 s';
  if (seconds < 1) return seconds < 0.001 ? '<1 ms' : `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function clampStep(step: number, steps: number): number {
  if (steps <= 0) return 0;
  return Math.min(steps, Math.max(1, Math.round(step)));
}

export interface GraphEdge {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly stage: Alert['stage'];
  readonly alertId: string;
  /** The timeline step that brings this edge in (1-based). */
  readonly step: number;
}

export interface StepGraph {
  /** Every drawn host, so the picture does not jump about as steps are added. */
  readonly nodes: Story['graph']['nodes'];
  /** Edges of the steps up to and including the current one. */
  readonly edges: readonly GraphEdge[];
  /** Hosts touched by the current step (highlighted). */
  readonly active: ReadonlySet<string>;
  /** Edges of every step (the total the scrubber can reach). */
  readonly total: number;
}

/** The story's host graph as it stands at `step`: edges appear in timeline order, each with its alert's step. */
export function graphAtStep(story: Story, step: number): StepGraph {
  const stepOf = new Map(story.timeline.map((t) => [t.alert_id, t.step]));
  const drawn = new Set(story.graph.nodes.map((n) => n.id));
  const all: GraphEdge[] = [];
  story.graph.edges.forEach((e, i) => {
    if (!drawn.has(e.from) || !drawn.has(e.to)) return;
    all.push({ id: `e${i}`, from: e.from, to: e.to, stage: e.stage, alertId: e.alert_id, step: stepOf.get(e.alert_id) ?? Number.MAX_SAFE_INTEGER });
  });
  const current = story.timeline.find((t) => t.step === step);
  const active = new Set<string>(current ? [current.src, ...current.dst].filter((h) => drawn.has(h)) : []);
  return { nodes: story.graph.nodes, edges: all.filter((e) => e.step <= step), active, total: all.length };
}

/** Attackers first, then pivots, victims, everyone else: the order hosts take around the circle. */
const ORDER: Record<string, number> = { attacker: 0, pivot: 1, victim: 2, internal: 3, external: 4 };

/**
 * Fixed places: the attackers in the middle, every other host on one circle around them, so edges read outwards
 * from where the story starts and stepping never moves a host.
 */
export function hostPositions(nodes: Story['graph']['nodes']): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const centre = nodes.filter((n) => n.role === 'attacker');
  const ring = nodes.filter((n) => n.role !== 'attacker').sort((a, b) => (ORDER[a.role] ?? 9) - (ORDER[b.role] ?? 9));
  const r = Math.max(120, ring.length * 14);
  centre.forEach((n, i) => out.set(n.id, { x: 0, y: (i - (centre.length - 1) / 2) * 40 }));
  ring.forEach((n, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, ring.length);
    out.set(n.id, { x: Math.cos(a) * r, y: Math.sin(a) * r });
  });
  return out;
}

/** The evidence connections of an alert, in the order the alert lists them. */
export function alertConnections(story: Story, alert: Alert): ConnectionFact[] {
  const byUid = new Map(story.connections.map((c) => [c.uid, c]));
  return alert.evidence.uids.flatMap((u) => byUid.get(u) ?? []);
}

/** Technique ids to names, from the story's own technique list. */
export function techniqueNames(story: Story): Map<string, string> {
  return new Map(story.techniques.map((t) => [t.id, t.name]));
}

/** A safe file-name stem: the story's ordinal and id, never text taken from the capture. */
export function exportName(story: Pick<Story, 'id' | 'ordinal'>, kind: 'stix' | 'mermaid' | 'cypher'): string {
  const ext = kind === 'stix' ? 'stix.json' : kind === 'mermaid' ? 'mmd' : 'cypher';
  return `replay-story-${story.ordinal}-${story.id.slice(0, 8)}.${ext}`;
}

/** Checked before sending: an empty file or one over the limit is refused here, without naming it. */
export function refuseUpload(size: number, limit: number): string | null {
  if (size === 0) return 'That file is empty; a capture starts with a pcap or pcapng header.';
  if (size > limit) return `That file is larger than the upload limit of ${count(Math.floor(limit / (1024 * 1024)))} MiB. Analyse it with \`replay analyze FILE\`, which has no limit.`;
  return null;
}

/** The demo's benign-flow count from the field: a whole number in range, or a reason. */
export function parseBenign(text: string, max: number): { ok: true; value: number } | { ok: false; message: string } {
  if (!/^\d{1,6}$/.test(text.trim())) return { ok: false, message: `Benign flows must be a whole number from 0 to ${count(max)}.` };
  const value = Number(text.trim());
  if (value > max) return { ok: false, message: `Benign flows must be a whole number from 0 to ${count(max)}.` };
  return { ok: true, value };
}

export type { UploadProgress } from '../../api/client';
