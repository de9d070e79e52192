// Cleartext credentials: FTP USER/PASS and HTTP Basic authentication over plain TCP (user names recorded, passwords never kept by the parser).
import type { ConnectionRecord } from '../capture/index.js';
import { connectionEvidence, groupBy, plural, uniqueSorted, type AlertDraft, type DetectionInput, type Rule } from './rule.js';

interface Exposure {
  readonly conn: ConnectionRecord;
  readonly protocol: 'ftp' | 'http-basic';
  readonly users: readonly string[];
  readonly attempts: number;
  readonly successes: number;
  readonly packet: number;
  readonly ts: number;
}

export const cleartextCredentials: Rule = {
  name: 'cleartext_credentials',
  title: 'Cleartext credentials',
  stage: 'access',
  techniques: ['T1040'],
  withoutPackets: { coverage: 'none', reason: 'needs FTP and HTTP commands (packets)' },
  description: 'Passwords sent in clear (FTP PASS, HTTP Basic over plain HTTP), one alert per client, server and protocol; always low (an exposure, not an attack): it matters inside a story, never makes one alone.',
  detect(input: DetectionInput): AlertDraft[] {
    const exposures: Exposure[] = [];
    for (const s of input.capture.app.ftp) {
      const conn = input.byUid.get(s.uid);
      if (!conn || s.loginAttempts === 0) continue;
      const pass = s.commands.find((c) => c.command === 'PASS');
      exposures.push({ conn, protocol: 'ftp', users: s.users, attempts: s.loginAttempts, successes: s.successfulLogins, packet: pass?.packet ?? conn.firstPacket, ts: pass?.ts ?? conn.startTs });
    }
    for (const h of input.capture.app.http) {
      // Only requests with Basic authorization need their connection looked up.
      if (h.authScheme?.toLowerCase() !== 'basic') continue;
      const conn = input.byUid.get(h.uid);
      if (!conn) continue;
      const ok = h.statusCode !== undefined && h.statusCode >= 200 && h.statusCode < 400 ? 1 : 0;
      exposures.push({ conn, protocol: 'http-basic', users: h.basicUser !== undefined ? [h.basicUser] : [], attempts: 1, successes: ok, packet: h.packet, ts: h.ts });
    }
    const out: AlertDraft[] = [];
    for (const list of groupBy(exposures, (e) => `${e.conn.origH}|${e.conn.respH}|${e.protocol}`).values()) {
      const first = list[0] as Exposure;
      const conns = uniqueSorted(list.map((e) => e.conn.uid)).map((uid) => input.byUid.get(uid) as ConnectionRecord);
      const ev = connectionEvidence(conns);
      const attempts = list.reduce((n, e) => n + e.attempts, 0);
      const successes = list.reduce((n, e) => n + e.successes, 0);
      const users = uniqueSorted(list.flatMap((e) => e.users)).slice(0, 20);
      const name = first.protocol === 'ftp' ? 'FTP' : 'HTTP Basic';
      out.push({
        rule: this.name,
        title: `${name} credentials in clear to ${first.conn.respH}`,
        summary: `${first.conn.origH} sent ${plural(attempts, 'password')} in clear over ${name} to ${first.conn.respH} (${plural(users.length, 'user name')})${successes > 0 ? `; ${plural(successes, 'login')} succeeded` : ''}.`,
        severity: 'low',
        stage: this.stage,
        techniques: this.techniques,
        src: first.conn.origH,
        dst: [first.conn.respH],
        compromised: [],
        ...ev,
        packets: list.slice(0, 200).map((e) => ({ packet: e.packet, ts: e.ts, uid: e.conn.uid })),
        counts: { passwords: attempts, successful_logins: successes, connections: conns.length },
        facts: { protocol: first.protocol, users },
      });
    }
    return out;
  },
};
