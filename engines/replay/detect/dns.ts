// DNS rules: tunnelling (many long, random-looking names under one domain) and DGA-like lookups (many machine-made registered domains, often NXDOMAIN).
import type { DnsMessage } from '../capture/index.js';
import { entropy, looksGenerated, splitDomain } from '../dnsnames.js';
import { bursts, groupBy, plural, span, uniqueSorted, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

interface Query {
  readonly msg: DnsMessage;
  readonly client: string;
  readonly server: string;
  readonly name: string;
  readonly type: string;
}

/** The queries of an input, made once for both DNS rules (the rules of one run share the input object). */
const QUERIES = new WeakMap<DetectionInput, Query[]>();

/** Queries over classic DNS (port 53) with their client, from the connection (mDNS, LLMNR and NetBIOS names are local chatter). */
function queries(input: DetectionInput): Query[] {
  const known = QUERIES.get(input);
  if (known !== undefined) return known;
  const out: Query[] = [];
  for (const m of input.capture.app.dns) {
    if (m.response || m.port !== 53) continue;
    const conn = input.byUid.get(m.uid);
    const q = m.questions[0];
    if (!conn || !q) continue;
    out.push({ msg: m, client: conn.origH, server: conn.respH, name: q.name.toLowerCase().replace(/\.$/, ''), type: q.typeName });
  }
  QUERIES.set(input, out);
  return out;
}

/** A burst of queries as an alert's evidence: their connections, their packets (bounded) and their time span. */
function queryEvidence(burst: readonly Query[]): Pick<AlertDraft, 'uids' | 'packets' | 'first_ts' | 'last_ts'> {
  const firstTs = burst[0]?.msg.ts ?? 0;
  return {
    uids: uniqueSorted(burst.map((q) => q.msg.uid)),
    packets: burst.slice(0, 200).map((q) => ({ packet: q.msg.packet, ts: q.msg.ts, uid: q.msg.uid })),
    first_ts: firstTs,
    last_ts: burst[burst.length - 1]?.msg.ts ?? firstTs,
  };
}

/**
 * Queries grouped by client and registered domain, the groups in order of their first query (as a groupBy on the
 * pair would give them), through maps on the client and domain texts (shared by the parser and the domain split)
 * rather than a key string made per query.
 */
function byClientAndDomain(all: readonly Query[]): Query[][] {
  const groups: Query[][] = [];
  const byClient = new Map<string, Map<string, Query[]>>();
  for (const q of all) {
    let byDomain = byClient.get(q.client);
    if (byDomain === undefined) {
      byDomain = new Map();
      byClient.set(q.client, byDomain);
    }
    const base = splitDomain(q.name).base;
    const list = byDomain.get(base);
    if (list !== undefined) list.push(q);
    else {
      const made = [q];
      byDomain.set(base, made);
      groups.push(made);
    }
  }
  return groups;
}

export const dnsTunnelling: Rule = {
  name: 'dns_tunnelling',
  title: 'DNS tunnelling',
  stage: 'action',
  techniques: ['T1071.004', 'T1048'],
  withoutPackets: { coverage: 'none', reason: 'needs DNS queries (packets)' },
  description: `At least ${THRESHOLDS.dnsTunnel.queries} queries from one client under one registered domain with at least ${THRESHOLDS.dnsTunnel.uniqueSubdomains} distinct subdomains averaging ${THRESHOLDS.dnsTunnel.meanSubdomainLength}+ characters and ${THRESHOLDS.dnsTunnel.minEntropy}+ bits of entropy per character.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.dnsTunnel;
    const out: AlertDraft[] = [];
    for (const list of byClientAndDomain(queries(input))) {
      // A burst is part of its group: a group with too few queries has no burst with enough.
      if (list.length < t.queries) continue;
      for (const burst of bursts(list, (q) => q.msg.ts, t.gapSeconds)) {
        if (burst.length < t.queries) continue;
        const subs = burst.map((q) => splitDomain(q.name).sub).filter((s) => s !== '');
        const unique = new Set(subs);
        if (unique.size < t.uniqueSubdomains) continue;
        const letters = [...unique].map((s) => s.replace(/\./g, ''));
        const meanLength = letters.reduce((n, s) => n + s.length, 0) / letters.length;
        const h = entropy(letters.join(''));
        if (meanLength < t.meanSubdomainLength || h < t.minEntropy) continue;
        const first = burst[0] as Query;
        const base = splitDomain(first.name).base;
        const ev = queryEvidence(burst);
        const types = uniqueSorted(burst.map((q) => q.type));
        out.push({
          rule: this.name,
          title: `DNS tunnelling from ${first.client} through ${base}`,
          summary: `${first.client} sent ${plural(burst.length, 'query', 'queries')} under ${base} with ${plural(unique.size, 'distinct subdomain')} of ${Math.round(meanLength)} characters on average (${h.toFixed(2)} bits per character) in ${span(ev.last_ts - ev.first_ts)}.`,
          severity: 'high',
          stage: this.stage,
          techniques: this.techniques,
          src: first.client,
          dst: uniqueSorted(burst.map((q) => q.server)),
          compromised: [],
          ...ev,
          counts: { queries: burst.length, unique_subdomains: unique.size, mean_subdomain_length: Math.round(meanLength * 10) / 10, entropy: Math.round(h * 1000) / 1000, name_bytes: subs.reduce((n, s) => n + s.length, 0) },
          facts: { domain: base, query_types: types, examples: [...unique].slice(0, 5).map((s) => `${s}.${base}`) },
        });
      }
    }
    return out;
  },
};

export const dgaDomains: Rule = {
  name: 'dga_domains',
  title: 'DGA-like lookups',
  stage: 'action',
  techniques: ['T1568.002'],
  withoutPackets: { coverage: 'none', reason: 'needs DNS queries and answers (packets)' },
  description: `One client looks up at least ${THRESHOLDS.dga.domains} distinct registered domains whose label looks machine-made (length ${THRESHOLDS.dga.minLabelLength}+, few English letter pairs, high entropy or long consonant runs), pauses under ${THRESHOLDS.dga.gapSeconds} s; high when most got NXDOMAIN.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.dga;
    // Answers by connection and id, to see which generated names did not exist.
    const nx = new Set(input.capture.app.dns.filter((m) => m.response && m.rcode === 3).map((m) => `${m.uid}|${m.id}`));
    // Labels repeat across queries: each is judged once.
    const judged = new Map<string, boolean>();
    const generated = queries(input).filter((q) => {
      const label = splitDomain(q.name).label;
      let verdict = judged.get(label);
      if (verdict === undefined) {
        verdict = looksGenerated(label, t.minLabelLength);
        judged.set(label, verdict);
      }
      return verdict;
    });
    const out: AlertDraft[] = [];
    for (const [client, list] of groupBy(generated, (q) => q.client)) {
      for (const burst of bursts(list, (q) => q.msg.ts, t.gapSeconds)) {
        const domains = uniqueSorted(burst.map((q) => splitDomain(q.name).base));
        if (domains.length < t.domains) continue;
        const nxdomain = burst.filter((q) => nx.has(`${q.msg.uid}|${q.msg.id}`)).length;
        const ev = queryEvidence(burst);
        out.push({
          rule: this.name,
          title: `DGA-like lookups from ${client}`,
          summary: `${client} looked up ${plural(domains.length, 'machine-made domain')} in ${span(ev.last_ts - ev.first_ts)} (${nxdomain} of ${burst.length} queries answered NXDOMAIN).`,
          severity: nxdomain * 2 >= burst.length ? 'high' : 'medium',
          stage: this.stage,
          techniques: this.techniques,
          src: client,
          dst: uniqueSorted(burst.map((q) => q.server)),
          compromised: [],
          ...ev,
          counts: { domains: domains.length, queries: burst.length, nxdomain },
          facts: { examples: domains.slice(0, 10) },
        });
      }
    }
    return out;
  },
};
