// Beaconing: one client connecting to one server and port at a steady interval (median interval, tolerance for jitter, share of intervals inside it).
import type { ConnectionRecord } from '../capture/index.js';
import { isMulticastOrBroadcast } from '../net.js';
import { connectionEvidence, plural, span, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

/** Name resolution is the DNS rules' business; its ports are left to them. */
const EXCLUDED_PORTS = new Set([53, 5353, 5355, 137]);

export interface Periodicity {
  readonly median: number;
  /** Median absolute deviation of the intervals over the median interval. */
  readonly jitter: number;
  /** Share of intervals within the tolerance of the median. */
  readonly inliers: number;
}

/** The median of the values, which it sorts in place (numeric order). */
function medianInPlace(values: Float64Array): number {
  values.sort();
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** Periodicity of event times; undefined for fewer than two intervals. Works in typed arrays (no comparator calls). */
export function periodicity(times: readonly number[], tolerance: number): Periodicity | undefined {
  return periodicityOf(Float64Array.from(times), tolerance);
}

/** periodicity() over times in a typed array, which it sorts in place. */
function periodicityOf(sorted: Float64Array, tolerance: number): Periodicity | undefined {
  const n = sorted.length - 1;
  if (n < 2) return undefined;
  sorted.sort();
  const intervals = new Float64Array(n);
  for (let i = 0; i < n; i++) intervals[i] = sorted[i + 1]! - sorted[i]!;
  const m = medianInPlace(intervals.slice());
  if (m <= 0) return { median: m, jitter: Infinity, inliers: 0 };
  const deviations = new Float64Array(n);
  let inside = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(intervals[i]! - m);
    deviations[i] = d;
    if (d <= tolerance * m) inside += 1;
  }
  return { median: m, jitter: medianInPlace(deviations) / m, inliers: inside / n };
}

/**
 * TCP and UDP connections grouped by transport, client, server and server port, as columns: `group[i]` is the
 * group of connection i (-1 when left out), groups numbered in order of their first connection, and `start` /
 * `members` list each group's connections in capture order (counting sort). Hosts become numbers through one map on
 * their texts (shared between records by the parser, so their hashes are known) and the triples go through an
 * open-addressed table of Int32Arrays: no key, list or map is made per connection or per group.
 */
function byPair(connections: readonly ConnectionRecord[]): { groups: number; start: Int32Array; members: Int32Array } {
  const n = connections.length;
  const hostIds = new Map<string, number>();
  /** Per host id: 1 multicast or broadcast, 0 not, -1 not yet asked (asked only of servers). */
  let excluded = new Int8Array(64);
  const hostId = (h: string): number => {
    let id = hostIds.get(h);
    if (id === undefined) {
      id = hostIds.size;
      hostIds.set(h, id);
      if (id >= excluded.length) {
        const grown = new Int8Array(excluded.length * 2);
        grown.set(excluded);
        excluded = grown;
      }
      excluded[id] = -1;
    }
    return id;
  };
  let size = 1024;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const slotGroup = new Int32Array(size).fill(-1);
  const keyA = new Int32Array(size);
  const keyB = new Int32Array(size);
  const keyC = new Int32Array(size);
  const group = new Int32Array(n);
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = connections[i]!;
    group[i] = -1;
    if ((c.proto !== 'tcp' && c.proto !== 'udp') || EXCLUDED_PORTS.has(c.respP)) continue;
    const r = hostId(c.respH);
    if (excluded[r] === -1) excluded[r] = isMulticastOrBroadcast(c.respH) ? 1 : 0;
    if (excluded[r] === 1) continue;
    const o = hostId(c.origH);
    const port = c.respP * 2 + (c.proto === 'udp' ? 1 : 0);
    let h = (Math.imul(o, 0x9e3779b1) ^ Math.imul(r + 1, 0x85ebca6b) ^ Math.imul(port + 7, 0xc2b2ae35)) >>> 0;
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const g = slotGroup[h]!;
      if (g === -1) {
        const made = counts.length;
        slotGroup[h] = made;
        keyA[h] = o;
        keyB[h] = r;
        keyC[h] = port;
        counts.push(1);
        group[i] = made;
        break;
      }
      if (keyA[h] === o && keyB[h] === r && keyC[h] === port) {
        counts[g]! += 1;
        group[i] = g;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  const groups = counts.length;
  const start = new Int32Array(groups + 1);
  for (let g = 0; g < groups; g++) start[g + 1] = start[g]! + counts[g]!;
  const fill = start.slice(0, groups);
  const members = new Int32Array(start[groups]!);
  for (let i = 0; i < n; i++) {
    const g = group[i]!;
    if (g >= 0) members[fill[g]!++] = i;
  }
  return { groups, start, members };
}

export const beaconing: Rule = {
  name: 'beaconing',
  title: 'Beaconing',
  stage: 'action',
  techniques: ['T1071'],
  withoutPackets: { coverage: 'full' },
  description: `At least ${THRESHOLDS.beaconing.minConnections} connections from one client to one server and port whose median interval is at least ${THRESHOLDS.beaconing.minIntervalSeconds} s, with at least ${THRESHOLDS.beaconing.inlierShare * 100}% of the intervals within ${THRESHOLDS.beaconing.maxRelativeDeviation * 100}% of the median (jitter tolerance).`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.beaconing;
    const out: AlertDraft[] = [];
    const connections = input.capture.connections;
    const { groups, start, members } = byPair(connections);
    for (let g = 0; g < groups; g++) {
      const from = start[g]!;
      const count = start[g + 1]! - from;
      if (count < t.minConnections) continue;
      const times = new Float64Array(count);
      for (let k = 0; k < count; k++) times[k] = connections[members[from + k]!]!.startTs;
      const p = periodicityOf(times, t.maxRelativeDeviation);
      if (!p || p.median < t.minIntervalSeconds || p.inliers < t.inlierShare || p.jitter > t.maxRelativeDeviation) continue;
      const list: ConnectionRecord[] = [];
      for (let k = 0; k < count; k++) list.push(connections[members[from + k]!]!);
      const first = list[0] as ConnectionRecord;
      const ev = connectionEvidence(list);
      const tls = list.some((c) => c.service.includes('ssl')) || input.capture.app.tls.some((h) => h.uid === first.uid);
      const http = list.some((c) => c.service.includes('http'));
      const techniques = tls ? ['T1071', 'T1573'] : http ? ['T1071.001'] : ['T1071'];
      out.push({
        rule: this.name,
        title: `Beaconing from ${first.origH} to ${first.respH}:${first.respP}`,
        summary: `${first.origH} connected ${plural(list.length, 'time')} to ${first.respH}:${first.respP}/${first.proto} every ${span(p.median)} (jitter ${Math.round(p.jitter * 100)}%, ${Math.round(p.inliers * 100)}% of intervals within ${t.maxRelativeDeviation * 100}%) over ${span(ev.last_ts - ev.first_ts)}.`,
        severity: 'medium',
        stage: this.stage,
        techniques,
        src: first.origH,
        dst: [first.respH],
        compromised: [],
        ...ev,
        counts: { connections: list.length, interval_s: Math.round(p.median * 1000) / 1000, jitter: Math.round(p.jitter * 1000) / 1000, inlier_share: Math.round(p.inliers * 1000) / 1000, bytes_out: list.reduce((n, c) => n + c.orig.bytes, 0) },
        facts: { port: first.respP, transport: first.proto, tls },
      });
    }
    return out;
  },
};
