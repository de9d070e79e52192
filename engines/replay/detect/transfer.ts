// Large outbound transfers: an internal host sending far more than it receives to one external host (exfiltration-shaped), summed over the capture.
import type { ConnectionRecord } from '../capture/index.js';
import { isInternal, isMulticastOrBroadcast } from '../net.js';
import { connectionEvidence, groupBy, plural, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export const largeOutboundTransfer: Rule = {
  name: 'large_outbound_transfer',
  title: 'Large outbound transfer',
  stage: 'action',
  techniques: ['T1048'],
  withoutPackets: { coverage: 'full' },
  description: `An internal host sends at least ${THRESHOLDS.largeTransfer.bytes / (1024 * 1024)} MiB to one external host, at least ${THRESHOLDS.largeTransfer.ratio} times what it receives back; to a host an earlier rule saw beaconing to, it is exfiltration over the C2 channel.`,
  detect(input: DetectionInput, prior: readonly AlertDraft[]): AlertDraft[] {
    const t = THRESHOLDS.largeTransfer;
    const outbound = input.capture.connections.filter((c) => isInternal(c.origH) && !isInternal(c.respH) && !isMulticastOrBroadcast(c.respH) && c.orig.bytes > c.resp.bytes);
    const c2 = new Set(prior.filter((d) => d.rule === 'beaconing' || d.rule === 'known_bad_indicator').flatMap((d) => d.dst));
    const out: AlertDraft[] = [];
    for (const list of groupBy(outbound, (c) => `${c.origH}|${c.respH}`).values()) {
      const sent = list.reduce((n, c) => n + c.orig.bytes, 0);
      const received = list.reduce((n, c) => n + c.resp.bytes, 0);
      if (sent < t.bytes || sent < t.ratio * received) continue;
      const first = list[0] as ConnectionRecord;
      const biggest = list.reduce((a, b) => (b.orig.bytes > a.orig.bytes ? b : a));
      const overC2 = c2.has(first.respH);
      out.push({
        rule: this.name,
        title: `Large upload from ${first.origH} to ${first.respH}`,
        summary: `${first.origH} sent ${mib(sent)} to ${first.respH} and received ${mib(received)} over ${plural(list.length, 'connection')} (largest ${mib(biggest.orig.bytes)} to port ${biggest.respP})${overC2 ? ', a host it was already talking to as command and control' : ''}.`,
        severity: sent >= 10 * t.bytes || overC2 ? 'high' : 'medium',
        stage: this.stage,
        techniques: overC2 ? ['T1041'] : this.techniques,
        src: first.origH,
        dst: [first.respH],
        compromised: [],
        ...connectionEvidence(list),
        counts: { bytes_sent: sent, bytes_received: received, connections: list.length, largest: biggest.orig.bytes },
        facts: { ports: [...new Set(list.map((c) => `${c.proto}/${c.respP}`))].slice(0, 20) },
      });
    }
    return out;
  },
};
