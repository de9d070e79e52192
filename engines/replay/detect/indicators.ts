// Known-bad indicators from the local list: addresses (and blocks) in connections, domains in DNS, HTTP Host and TLS server names, JA3/JA4 fingerprints.
import type { Indicator } from '../indicators.js';
import type { Severity, Stage } from '../types.js';
import { groupBy, plural, uniqueSorted, type AlertDraft, type DetectionInput, type Rule } from './rule.js';

interface Hit {
  readonly indicator: Indicator;
  /** The host that talked to (or came from) the indicator. */
  readonly src: string;
  readonly dst: string;
  readonly where: 'connection' | 'dns' | 'http' | 'tls' | 'ja3' | 'ja4';
  readonly uid: string;
  readonly packet: number;
  readonly ts: number;
  /** True when the indicator was the originator (traffic from it). */
  readonly inbound: boolean;
}

export const knownBadIndicator: Rule = {
  name: 'known_bad_indicator',
  title: 'Known-bad indicator',
  stage: 'action',
  techniques: [],
  withoutPackets: { coverage: 'partial', reason: 'addresses only: domains, JA3 and JA4 need DNS, HTTP and TLS records (packets)' },
  description: 'Traffic matching the local indicator list (resources/replay/indicators.txt or --indicators): one alert per host and indicator, with the severity, technique and stage the list gives (default high, action outbound, access inbound).',
  detect(input: DetectionInput): AlertDraft[] {
    const set = input.indicators;
    if (set.count === 0) return [];
    const hits: Hit[] = [];
    for (const c of input.capture.connections) {
      const r = set.matchAddress(c.respH);
      if (r) hits.push({ indicator: r, src: c.origH, dst: c.respH, where: 'connection', uid: c.uid, packet: c.firstPacket, ts: c.startTs, inbound: false });
      const o = set.matchAddress(c.origH);
      if (o) hits.push({ indicator: o, src: c.origH, dst: c.respH, where: 'connection', uid: c.uid, packet: c.firstPacket, ts: c.startTs, inbound: true });
    }
    for (const m of input.capture.app.dns) {
      if (m.response) continue;
      const conn = input.byUid.get(m.uid);
      const name = m.questions[0]?.name;
      const d = name === undefined ? undefined : set.matchDomain(name);
      if (d && conn) hits.push({ indicator: d, src: conn.origH, dst: conn.respH, where: 'dns', uid: m.uid, packet: m.packet, ts: m.ts, inbound: false });
    }
    for (const h of input.capture.app.http) {
      const conn = input.byUid.get(h.uid);
      const d = h.host === undefined ? undefined : set.matchDomain(h.host.replace(/:\d+$/, ''));
      if (d && conn) hits.push({ indicator: d, src: conn.origH, dst: conn.respH, where: 'http', uid: h.uid, packet: h.packet, ts: h.ts, inbound: false });
    }
    for (const h of input.capture.app.tls) {
      const conn = input.byUid.get(h.uid);
      if (!conn) continue;
      const sni = h.serverName === undefined ? undefined : set.matchDomain(h.serverName);
      if (sni) hits.push({ indicator: sni, src: conn.origH, dst: conn.respH, where: 'tls', uid: h.uid, packet: h.packet, ts: h.ts, inbound: false });
      const ja3 = h.ja3 === undefined ? undefined : set.matchJa3(h.ja3);
      if (ja3) hits.push({ indicator: ja3, src: conn.origH, dst: conn.respH, where: 'ja3', uid: h.uid, packet: h.packet, ts: h.ts, inbound: false });
      const ja4 = h.ja4 === undefined ? undefined : set.matchJa4(h.ja4);
      if (ja4) hits.push({ indicator: ja4, src: conn.origH, dst: conn.respH, where: 'ja4', uid: h.uid, packet: h.packet, ts: h.ts, inbound: false });
    }
    const out: AlertDraft[] = [];
    for (const list of groupBy(hits, (h) => `${h.src}|${h.indicator.type}|${h.indicator.value}`).values()) {
      const first = list[0] as Hit;
      const ind = first.indicator;
      const sorted = [...list].sort((a, b) => a.ts - b.ts);
      const stage: Stage = ind.stage ?? (first.inbound ? 'access' : 'action');
      const severity: Severity = ind.severity;
      const where = uniqueSorted(list.map((h) => h.where));
      out.push({
        rule: this.name,
        title: first.inbound ? `Traffic from listed ${ind.type} ${ind.value}` : `${first.src} contacted listed ${ind.type} ${ind.value}`,
        summary: `${plural(list.length, 'match', 'matches')} of the ${ind.type} indicator on line ${ind.line} of the list (${where.join(', ')})${ind.note ? `: ${ind.note}` : ''}.`,
        severity,
        stage,
        techniques: ind.technique ? [ind.technique] : [],
        src: first.src,
        dst: uniqueSorted(list.map((h) => h.dst)),
        compromised: [],
        uids: uniqueSorted(list.map((h) => h.uid)),
        packets: sorted.slice(0, 200).map((h) => ({ packet: h.packet, ts: h.ts, uid: h.uid })),
        first_ts: sorted[0]?.ts ?? 0,
        last_ts: sorted[sorted.length - 1]?.ts ?? 0,
        counts: { matches: list.length, list_line: ind.line },
        facts: { indicator_type: ind.type, indicator: ind.value, matched_in: where },
      });
    }
    return out;
  },
};
