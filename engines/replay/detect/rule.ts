// What a detection rule is (a name, a stage, techniques, a function from the capture to alert drafts) and the helpers rules share.
import type { CaptureAnalysis, ConnectionRecord } from '../capture/index.js';
import type { ArpSummary } from '../arp.js';
import type { IndicatorSet } from '../indicators.js';
import type { Alert, Evidence, Stage } from '../types.js';
import type { UidLookup } from './uids.js';

/** Everything a rule may look at. */
export interface DetectionInput {
  readonly capture: CaptureAnalysis;
  readonly arp: ArpSummary;
  readonly indicators: IndicatorSet;
  readonly byUid: UidLookup;
}

/** How much of a rule works from connection records alone, and why not all of it. */
export interface RuleCoverage {
  readonly coverage: 'full' | 'partial' | 'none';
  readonly reason?: string;
}

/**
 * A rule's finding before it gets its id and its evidence is trimmed: the alert's own fields, and the evidence lists
 * at the top level; lists here are complete.
 */
export type AlertDraft = Omit<Alert, 'id' | 'dst_count' | 'evidence'> & Pick<Evidence, 'uids' | 'packets' | 'counts' | 'facts'>;

/** A named, tested detection rule. Rules run in registry order and see the drafts of the rules before them. */
export interface Rule {
  readonly name: string;
  readonly title: string;
  readonly stage: Stage;
  readonly techniques: readonly string[];
  /** One sentence for the documentation: what fires it. */
  readonly description: string;
  /** What the rule still sees in a Zeek conn.log (connections only: no packets, ARP or application records); `none` rules are not run on one. */
  readonly withoutPackets: RuleCoverage;
  detect(input: DetectionInput, prior: readonly AlertDraft[]): AlertDraft[];
}

/** Connections' uids, first packets and time span: the usual evidence of a connection-level rule. */
export function connectionEvidence(conns: readonly ConnectionRecord[]): Pick<AlertDraft, 'uids' | 'packets' | 'first_ts' | 'last_ts'> {
  let first = Infinity;
  let last = -Infinity;
  for (const c of conns) {
    if (c.startTs < first) first = c.startTs;
    if (c.lastTs > last) last = c.lastTs;
  }
  return {
    uids: conns.map((c) => c.uid),
    packets: conns.slice(0, 200).map((c) => ({ packet: c.firstPacket, ts: c.startTs, uid: c.uid })),
    first_ts: Number.isFinite(first) ? first : 0,
    last_ts: Number.isFinite(last) ? last : 0,
  };
}

/** Groups by a string key, keeping insertion order. */
export function groupBy<T>(items: Iterable<T>, key: (item: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Splits time-sorted items into bursts: a pause longer than `gap` seconds starts a new one. */
export function bursts<T>(items: readonly T[], ts: (item: T) => number, gap: number): T[][] {
  const sorted = [...items].sort((a, b) => ts(a) - ts(b));
  const out: T[][] = [];
  let current: T[] = [];
  let lastTs = -Infinity;
  for (const item of sorted) {
    const t = ts(item);
    if (current.length > 0 && t - lastTs > gap) {
      out.push(current);
      current = [];
    }
    current.push(item);
    lastTs = t;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export { plural } from '../../core/wording.js';

/** Seconds as `0m37s`, the way Zeek's notices write a span. */
export function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

export function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}
