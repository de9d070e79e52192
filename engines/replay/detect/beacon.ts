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
  const n = times.length - 1;
  if (n < 2) return undefined;
  const sorted = Float64Array.from(times).sort();
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
 * TCP and UDP connections grouped by transport, client, server and server port, the groups in order of their first
 * connection. Keyed through maps on the host texts (which the parser shares between records, so their hashes are
 * known) and a number for the port and transport: no key string is made per connection.
 */
function byPair(connections: readonly ConnectionRecord[]): ConnectionRecord[][] {
  const groups: ConnectionRecord[][] = [];
  const byClient = new Map<string, Map<string, Map<number, ConnectionRecord[]>>>();
  for (const c of connections) {
    if ((c.proto !== 'tcp' && c.proto !== 'udp') || EXCLUDED_PORTS.has(c.respP) || isMulticastOrBroadcast(c.respH)) continue;
    let byServer = byClient.get(c.origH);
    if (byServer === undefined) {
      byServer = new Map();
      byClient.set(c.origH, byServer);
    }
    let byPort = byServer.get(c.respH);
    if (byPort === undefined) {
      byPort = new Map();
      byServer.set(c.respH, byPort);
    }
    const key = c.respP * 2 + (c.proto === 'udp' ? 1 : 0);
    const list = byPort.get(key);
    if (list !== undefined) list.push(c);
    else {
      const made = [c];
      byPort.set(key, made);
      groups.push(made);
    }
  }
  return groups;
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
    for (const list of byPair(input.capture.connections)) {
      if (list.length < t.minConnections) continue;
      const p = periodicity(
        list.map((c) => c.startTs),
        t.maxRelativeDeviation,
      );
      if (!p || p.median < t.minIntervalSeconds || p.inliers < t.inlierShare || p.jitter > t.maxRelativeDeviation) continue;
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
