// Beaconing: one client connecting to one server and port at a steady interval (median interval, tolerance for jitter, share of intervals inside it).
import type { ConnectionRecord } from '../capture/index.js';
import { isMulticastOrBroadcast } from '../net.js';
import { connectionEvidence, groupBy, plural, span, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
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

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Periodicity of event times; undefined for fewer than two intervals. */
export function periodicity(times: readonly number[], tolerance: number): Periodicity | undefined {
  const sorted = [...times].sort((a, b) => a - b);
  const intervals = sorted.slice(1).map((t, i) => t - (sorted[i] as number));
  if (intervals.length < 2) return undefined;
  const m = median(intervals);
  if (m <= 0) return { median: m, jitter: Infinity, inliers: 0 };
  const mad = median(intervals.map((v) => Math.abs(v - m)));
  const inliers = intervals.filter((v) => Math.abs(v - m) <= tolerance * m).length / intervals.length;
  return { median: m, jitter: mad / m, inliers };
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
    const candidates = input.capture.connections.filter((c) => (c.proto === 'tcp' || c.proto === 'udp') && !EXCLUDED_PORTS.has(c.respP) && !isMulticastOrBroadcast(c.respH));
    const out: AlertDraft[] = [];
    for (const list of groupBy(candidates, (c) => `${c.proto}|${c.origH}|${c.respH}|${c.respP}`).values()) {
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
