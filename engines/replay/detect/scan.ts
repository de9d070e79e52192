// Scan rules: many ports of one host (port_scan) and many hosts from one source (host_scan: failed connections, unanswered pings, ARP requests).
import type { ConnectionRecord } from '../capture/index.js';
import { isInternal, isMulticastOrBroadcast } from '../net.js';
import { bursts, connectionEvidence, groupBy, plural, span, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

/** A TCP or UDP attempt that got nowhere: unanswered, refused, or opened and dropped without a byte (Zeek's failed connections). */
export function isFailedAttempt(c: ConnectionRecord): boolean {
  if (c.proto === 'udp') return c.resp.packets === 0;
  if (c.proto !== 'tcp') return false;
  switch (c.connState) {
    case 'S0':
    case 'REJ':
    case 'RSTOS0':
    case 'RSTRH':
    case 'SH':
    case 'SHR':
      return true;
    case 'RSTO':
    case 'RSTR':
    case 'S1':
    case 'SF':
    case 'S2':
    case 'S3':
      // A handshake followed by nothing is a connect() probe.
      return c.orig.bytes === 0 && c.resp.bytes === 0;
    default:
      return false;
  }
}

/**
 * An echo request nobody answered: a probe of an address that may not be there. Answered pings are everyday
 * monitoring (a million-packet background capture had 34 clients pinging 25+ live servers in 20 minutes).
 */
function isUnansweredEcho(c: ConnectionRecord): boolean {
  const echo = (c.proto === 'icmp' && c.ipProto === 1 && c.origP === 8) || (c.proto === 'icmp' && c.ipProto === 58 && c.origP === 128);
  return echo && c.resp.packets === 0;
}

export const portScan: Rule = {
  name: 'port_scan',
  title: 'Port scan',
  stage: 'recon',
  techniques: ['T1046'],
  withoutPackets: { coverage: 'full' },
  description: `One source tries at least ${THRESHOLDS.portScan.ports} distinct TCP or UDP ports of one host with failed attempts (no pause over ${THRESHOLDS.portScan.gapSeconds} s).`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.portScan;
    const failed = input.capture.connections.filter(isFailedAttempt);
    const out: AlertDraft[] = [];
    for (const conns of groupBy(failed, (c) => `${c.origH}|${c.respH}`).values()) {
      for (const burst of bursts(conns, (c) => c.startTs, t.gapSeconds)) {
        const ports = new Set(burst.map((c) => `${c.proto}/${c.respP}`));
        if (ports.size < t.ports) continue;
        const first = burst[0] as ConnectionRecord;
        const ev = connectionEvidence(burst);
        const tcp = burst.filter((c) => c.proto === 'tcp');
        out.push({
          rule: this.name,
          title: `Port scan of ${first.respH}`,
          summary: `${first.origH} tried ${plural(ports.size, 'port')} of ${first.respH} in ${span(ev.last_ts - ev.first_ts)} (${plural(burst.length, 'failed attempt')}).`,
          severity: 'medium',
          stage: this.stage,
          techniques: this.techniques,
          src: first.origH,
          dst: [first.respH],
          compromised: [],
          ...ev,
          counts: {
            ports: ports.size,
            attempts: burst.length,
            unanswered: tcp.filter((c) => c.connState === 'S0').length,
            refused: tcp.filter((c) => c.connState === 'REJ').length,
            udp: burst.length - tcp.length,
          },
          facts: { ports: [...ports].slice(0, 100) },
        });
      }
    }
    return out;
  },
};

interface ProbeEvent {
  readonly target: string;
  readonly ts: number;
  readonly packet: number;
  readonly kind: 'tcp' | 'udp' | 'icmp' | 'arp';
  readonly conn?: ConnectionRecord;
}

export const hostScan: Rule = {
  name: 'host_scan',
  title: 'Host scan',
  stage: 'recon',
  techniques: ['T1018', 'T1595.001'],
  withoutPackets: { coverage: 'partial', reason: 'no ARP requests (a conn.log has no ARP); failed connections and unanswered ICMP echo requests still count' },
  description: `One source probes at least ${THRESHOLDS.hostScan.hosts} distinct addresses (failed TCP/UDP attempts, unanswered ICMP echo requests, ARP requests) with no pause over ${THRESHOLDS.hostScan.gapSeconds} s.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.hostScan;
    const events = new Map<string, ProbeEvent[]>();
    const add = (src: string, e: ProbeEvent): void => {
      if (isMulticastOrBroadcast(e.target)) return;
      const list = events.get(src);
      if (list) list.push(e);
      else events.set(src, [e]);
    };
    for (const c of input.capture.connections) {
      if (isFailedAttempt(c)) add(c.origH, { target: c.respH, ts: c.startTs, packet: c.firstPacket, kind: c.proto === 'udp' ? 'udp' : 'tcp', conn: c });
      else if (isUnansweredEcho(c)) add(c.origH, { target: c.respH, ts: c.startTs, packet: c.firstPacket, kind: 'icmp', conn: c });
    }
    for (const sender of input.arp.values()) {
      for (const [target, first] of sender.targets) add(sender.sender, { target, ts: first.ts, packet: first.packet, kind: 'arp' });
    }
    const out: AlertDraft[] = [];
    for (const [src, list] of events) {
      for (const burst of bursts(list, (e) => e.ts, t.gapSeconds)) {
        const targets = new Set(burst.map((e) => e.target));
        if (targets.size < t.hosts) continue;
        const conns = burst.flatMap((e) => (e.conn ? [e.conn] : []));
        const ev = connectionEvidence(conns);
        const kinds = (k: ProbeEvent['kind']): number => new Set(burst.filter((e) => e.kind === k).map((e) => e.target)).size;
        const byKind = { arp: kinds('arp'), tcp: kinds('tcp'), udp: kinds('udp'), icmp: kinds('icmp') };
        const how = Object.entries(byKind)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k.toUpperCase()} ${n}`)
          .join(', ');
        const firstTs = burst[0]?.ts ?? 0;
        const lastTs = burst[burst.length - 1]?.ts ?? 0;
        out.push({
          rule: this.name,
          title: `Host scan from ${src}`,
          summary: `${src} probed ${plural(targets.size, 'address', 'addresses')} in ${span(lastTs - firstTs)} (${how}).`,
          severity: 'medium',
          stage: this.stage,
          // Inside the network it is discovery of remote systems; from outside, scanning of address blocks.
          techniques: [isInternal(src) ? 'T1018' : 'T1595.001'],
          src,
          dst: [...targets].sort(),
          compromised: [],
          uids: ev.uids,
          packets: burst.slice(0, 200).map((e) => ({ packet: e.packet, ts: e.ts, ...(e.conn ? { uid: e.conn.uid } : {}) })),
          first_ts: firstTs,
          last_ts: lastTs,
          counts: { hosts: targets.size, probes: burst.length, arp_targets: byKind.arp, tcp_targets: byKind.tcp, udp_targets: byKind.udp, icmp_targets: byKind.icmp },
          facts: {},
        });
      }
    }
    return out;
  },
};
