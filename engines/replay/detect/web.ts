// Web attack rule: SQL injection in request URIs (the pattern Zeek's detect-sql-injection looks for), counted per client and server.
import type { HttpTransaction } from '../capture/index.js';
import { bursts, groupBy, plural, span, uniqueSorted, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

/** %XX and + decoded, as a server would see the query. Bad escapes stay as they are. */
function decodeQuery(text: string): string {
  return text.replace(/\+/g, ' ').replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const SQLI_PATTERNS: readonly RegExp[] = [
  // a quote closing the value, then a boolean test: ' OR '1'='1, " and 1=1, ' or 2>1
  // (the white space around the optional quote is one run or two, never two runs that could split one: linear)
  /['"`)]\s*(?:or|and|xor|\|\||&&)\s+(?:['"`(]\s*)?[\w-]+['"`]?\s*(?:=|<|>|like\b|is\b)/i,
  // UNION [ALL] SELECT with white space or /* comments */ between; a comment ends at its first */ as in SQL, so a run of
  // comments splits one way only (`.*?` could end one at any later */: exponential on `union/**//**/...`)
  /\bunion\b(?:\s|\/\*[^*\n\r\u2028\u2029]*\*+(?:[^*/\n\r\u2028\u2029][^*\n\r\u2028\u2029]*\*+)*\/)+(?:all\b(?:\s|\/\*[^*\n\r\u2028\u2029]*\*+(?:[^*/\n\r\u2028\u2029][^*\n\r\u2028\u2029]*\*+)*\/)+)?select\b/i,
  /['"`)]\s*;\s*(?:select|insert|update|delete|drop|create|exec|declare|shutdown)\b/i,
  /['"`]\s*(?:--|#|\/\*)/,
  /\b(?:sleep|benchmark|pg_sleep)\s*\(\s*\d/i,
  /\bwaitfor\s+delay\s+'/i,
  /\b(?:information_schema|sysobjects|pg_catalog)\b/i,
];

/** True when a request URI's query carries an SQL injection attempt. */
export function hasSqlInjection(uri: string): boolean {
  const q = uri.indexOf('?');
  if (q < 0) return false;
  const query = decodeQuery(uri.slice(q + 1));
  return query.split('&').some((pair) => {
    const eq = pair.indexOf('=');
    const value = eq >= 0 ? pair.slice(eq + 1) : pair;
    return SQLI_PATTERNS.some((p) => p.test(value));
  });
}

export const sqlInjection: Rule = {
  name: 'sql_injection',
  title: 'SQL injection attempts',
  stage: 'access',
  techniques: ['T1190'],
  withoutPackets: { coverage: 'none', reason: 'needs HTTP request URIs (packets)' },
  description: `At least ${THRESHOLDS.sqlInjection.requests} HTTP requests with SQL injection in the query string from one client to one server (pauses under ${THRESHOLDS.sqlInjection.gapSeconds} s).`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.sqlInjection;
    // The cheap test first: most URIs have no query string, and every request needs its connection looked up otherwise.
    const hits = input.capture.app.http.filter((h) => hasSqlInjection(h.uri) && input.byUid.has(h.uid));
    const out: AlertDraft[] = [];
    for (const list of groupBy(hits, (h) => {
      const c = input.byUid.get(h.uid);
      return c ? `${c.origH}|${c.respH}` : undefined;
    }).values()) {
      for (const burst of bursts(list, (h: HttpTransaction) => h.ts, t.gapSeconds)) {
        if (burst.length < t.requests) continue;
        const conn = input.byUid.get(burst[0]?.uid ?? '');
        if (!conn) continue;
        const firstTs = burst[0]?.ts ?? 0;
        const lastTs = burst[burst.length - 1]?.ts ?? 0;
        const ok = burst.filter((h) => h.statusCode !== undefined && h.statusCode >= 200 && h.statusCode < 300).length;
        out.push({
          rule: this.name,
          title: `SQL injection against ${conn.respH}`,
          summary: `${conn.origH} sent ${plural(burst.length, 'request')} with SQL injection to ${conn.respH} in ${span(lastTs - firstTs)} (${ok} answered 2xx).`,
          severity: 'high',
          stage: this.stage,
          techniques: this.techniques,
          src: conn.origH,
          dst: [conn.respH],
          compromised: [],
          uids: uniqueSorted(burst.map((h) => h.uid)),
          packets: burst.slice(0, 200).map((h) => ({ packet: h.packet, ts: h.ts, uid: h.uid })),
          first_ts: firstTs,
          last_ts: lastTs,
          counts: { requests: burst.length, answered_2xx: ok },
          facts: { hosts: uniqueSorted(burst.map((h) => h.host ?? '')).filter((x) => x !== ''), paths: uniqueSorted(burst.map((h) => h.uri.split('?')[0] ?? '')).slice(0, 20) },
        });
      }
    }
    return out;
  },
};
