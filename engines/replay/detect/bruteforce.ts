// Password guessing rules: SSH (sessions that end before a shell), FTP (Zeek's failed-login rule), RDP, HTTP authentication, VNC.
import type { ConnectionRecord } from '../capture/index.js';
import { bursts, connectionEvidence, groupBy, plural, span, uniqueSorted, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

/** A TCP session whose handshake completed (the server answered: a login could happen). */
function established(c: ConnectionRecord): boolean {
  return c.tcp?.handshake === 'complete' || c.tcp?.handshake === 'midstream';
}

/** An SSH session that ended before anything like a shell: short, and small both ways. */
export function isSshAttempt(c: ConnectionRecord): boolean {
  const t = THRESHOLDS.sshGuessing;
  return established(c) && c.duration <= t.attemptMaxSeconds && c.orig.bytes <= t.attemptMaxBytes && c.resp.bytes <= t.attemptMaxBytes;
}

export const sshGuessing: Rule = {
  name: 'ssh_guessing',
  title: 'SSH password guessing',
  stage: 'access',
  techniques: ['T1110.001'],
  withoutPackets: { coverage: 'partial', reason: "SSH sessions known by Zeek's service field; no client banners" },
  description: `One client opens at least ${THRESHOLDS.sshGuessing.attempts} SSH sessions that end within ${THRESHOLDS.sshGuessing.attemptMaxSeconds} s with under ${THRESHOLDS.sshGuessing.attemptMaxBytes} bytes each way (pauses under ${THRESHOLDS.sshGuessing.gapSeconds} s); a longer or larger session to the same server afterwards is a likely success.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.sshGuessing;
    const sshUids = new Set(input.capture.app.ssh.map((s) => s.uid));
    const ssh = input.capture.connections.filter((c) => c.proto === 'tcp' && (sshUids.has(c.uid) || c.service.includes('ssh')));
    const out: AlertDraft[] = [];
    for (const [client, conns] of groupBy(ssh, (c) => c.origH)) {
      const attempts = conns.filter(isSshAttempt);
      for (const burst of bursts(attempts, (c) => c.startTs, t.gapSeconds)) {
        if (burst.length < t.attempts) continue;
        const ev = connectionEvidence(burst);
        const servers = uniqueSorted(burst.map((c) => c.respH));
        // A session that is not an attempt, to a guessed server, from the first guess until the guessing pauses.
        const successes = conns.filter((c) => !isSshAttempt(c) && established(c) && servers.includes(c.respH) && c.startTs >= ev.first_ts && c.startTs <= ev.last_ts + t.gapSeconds);
        const compromised = uniqueSorted(successes.map((c) => c.respH));
        const banners = uniqueSorted(input.capture.app.ssh.filter((s) => burst.some((c) => c.uid === s.uid) && s.client !== undefined).map((s) => s.client ?? '')).slice(0, 10);
        const all = connectionEvidence([...burst, ...successes]);
        out.push({
          rule: this.name,
          title: compromised.length > 0 ? `SSH password guessing against ${servers.join(', ')}, then a longer session` : `SSH password guessing against ${servers.length === 1 ? servers[0] : plural(servers.length, 'server')}`,
          summary: `${client} appears to be guessing SSH passwords (seen in ${plural(burst.length, 'connection')} over ${span(ev.last_ts - ev.first_ts)})${compromised.length > 0 ? `; ${plural(successes.length, 'later session')} to ${compromised.join(', ')} looked like a login that worked` : ''}.`,
          severity: compromised.length > 0 ? 'critical' : 'high',
          stage: this.stage,
          techniques: compromised.length > 0 ? ['T1110.001', 'T1078'] : ['T1110.001'],
          src: client,
          dst: servers,
          compromised,
          ...all,
          counts: { attempts: burst.length, servers: servers.length, likely_successes: successes.length },
          facts: { client_banners: banners, success_uids: successes.map((c) => c.uid).slice(0, 20) },
        });
      }
    }
    return out;
  },
};

interface Failure {
  readonly uid: string;
  readonly ts: number;
  readonly packet: number;
  readonly server: string;
}

export const ftpBruteforce: Rule = {
  name: 'ftp_bruteforce',
  title: 'FTP brute force',
  stage: 'access',
  techniques: ['T1110.001'],
  withoutPackets: { coverage: 'none', reason: 'needs the FTP replies (packets)' },
  description: `At least ${THRESHOLDS.ftpBruteforce.failures} failed FTP logins (a 5xx reply to USER or PASS, Zeek's rule) from one client with pauses under ${THRESHOLDS.ftpBruteforce.gapSeconds} s; a 230 reply to the same client in that time is a success.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.ftpBruteforce;
    const failures: Array<Failure & { client: string }> = [];
    for (const s of input.capture.app.ftp) {
      const conn = input.byUid.get(s.uid);
      if (!conn) continue;
      let seen = 0;
      for (const cmd of s.commands) {
        if ((cmd.command === 'USER' || cmd.command === 'PASS') && cmd.replyCode !== undefined && cmd.replyCode >= 500 && cmd.replyCode < 600) {
          failures.push({ uid: s.uid, ts: cmd.ts, packet: cmd.packet, server: conn.respH, client: conn.origH });
          seen += 1;
        }
      }
      // Commands are kept up to a bound; the session's own count goes on past it.
      for (let i = seen; i < s.failedLogins; i++) failures.push({ uid: s.uid, ts: conn.lastTs, packet: conn.lastPacket, server: conn.respH, client: conn.origH });
    }
    const out: AlertDraft[] = [];
    for (const [client, list] of groupBy(failures, (f) => f.client)) {
      for (const burst of bursts(list, (f) => f.ts, t.gapSeconds)) {
        if (burst.length < t.failures) continue;
        const servers = uniqueSorted(burst.map((f) => f.server));
        const first = burst[0] as Failure;
        const last = burst[burst.length - 1] as Failure;
        const atThreshold = burst[t.failures - 1] as Failure;
        const uids = uniqueSorted(burst.map((f) => f.uid));
        const sessions = input.capture.app.ftp.filter((s) => uids.includes(s.uid));
        const wins = input.capture.app.ftp.filter((s) => {
          const c = input.byUid.get(s.uid);
          return c !== undefined && c.origH === client && s.successfulLogins > 0 && c.startTs <= last.ts + t.gapSeconds && c.lastTs >= first.ts;
        });
        const compromised = uniqueSorted(wins.flatMap((s) => input.byUid.get(s.uid)?.respH ?? []));
        const users = uniqueSorted(sessions.flatMap((s) => s.users)).slice(0, 20);
        out.push({
          rule: this.name,
          title: `FTP brute force against ${servers.length === 1 ? servers[0] : plural(servers.length, 'server')}`,
          summary: `${client} had ${t.failures} failed logins on ${plural(servers.length, 'FTP server')} in ${span(atThreshold.ts - first.ts)} (${burst.length} in all over ${span(last.ts - first.ts)})${compromised.length > 0 ? `; a login to ${compromised.join(', ')} succeeded` : ''}.`,
          severity: compromised.length > 0 ? 'critical' : 'high',
          stage: this.stage,
          techniques: compromised.length > 0 ? ['T1110.001', 'T1078'] : ['T1110.001'],
          src: client,
          dst: servers,
          compromised,
          uids: uniqueSorted([...uids, ...wins.map((s) => s.uid)]),
          packets: burst.slice(0, 200).map((f) => ({ packet: f.packet, ts: f.ts, uid: f.uid })),
          first_ts: first.ts,
          last_ts: last.ts,
          counts: { failed_logins: burst.length, sessions: uids.length, servers: servers.length, seconds_to_threshold: Math.round((atThreshold.ts - first.ts) * 1000) / 1000, successful_logins: wins.reduce((n, s) => n + s.successfulLogins, 0) },
          facts: { users },
        });
      }
    }
    return out;
  },
};

export const rdpBruteforce: Rule = {
  name: 'rdp_bruteforce',
  title: 'RDP brute force',
  stage: 'access',
  techniques: ['T1110.001'],
  withoutPackets: { coverage: 'partial', reason: "RDP by port 3389 and Zeek's service; no cookies (user names)" },
  description: `At least ${THRESHOLDS.rdpBruteforce.connections} RDP connections of under ${THRESHOLDS.rdpBruteforce.attemptMaxSeconds} s from one client to one server, pauses under ${THRESHOLDS.rdpBruteforce.gapSeconds} s.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.rdpBruteforce;
    const rdpUids = new Set(input.capture.app.rdp.map((r) => r.uid));
    const conns = input.capture.connections.filter((c) => c.proto === 'tcp' && (rdpUids.has(c.uid) || c.service.includes('rdp') || c.respP === 3389) && established(c) && c.duration <= t.attemptMaxSeconds);
    const out: AlertDraft[] = [];
    for (const list of groupBy(conns, (c) => `${c.origH}|${c.respH}`).values()) {
      for (const burst of bursts(list, (c) => c.startTs, t.gapSeconds)) {
        if (burst.length < t.connections) continue;
        const first = burst[0] as ConnectionRecord;
        const ev = connectionEvidence(burst);
        const ids = new Set(burst.map((c) => c.uid));
        const cookies = uniqueSorted(input.capture.app.rdp.filter((r) => ids.has(r.uid) && r.cookie !== undefined).map((r) => r.cookie ?? '')).slice(0, 20);
        out.push({
          rule: this.name,
          title: `RDP brute force against ${first.respH}`,
          summary: `${first.origH} opened ${plural(burst.length, 'short RDP connection')} to ${first.respH} in ${span(ev.last_ts - ev.first_ts)}.`,
          severity: 'high',
          stage: this.stage,
          techniques: this.techniques,
          src: first.origH,
          dst: [first.respH],
          compromised: [],
          ...ev,
          counts: { connections: burst.length },
          facts: { cookies },
        });
      }
    }
    return out;
  },
};

export const httpAuthBruteforce: Rule = {
  name: 'http_auth_bruteforce',
  title: 'HTTP authentication brute force',
  stage: 'access',
  techniques: ['T1110.001'],
  withoutPackets: { coverage: 'none', reason: 'needs HTTP requests and replies (packets)' },
  description: `At least ${THRESHOLDS.httpAuth.failures} requests carrying credentials answered 401 from one client to one server (pauses under ${THRESHOLDS.httpAuth.gapSeconds} s); a 2xx answer to credentials afterwards is a success.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.httpAuth;
    const withAuth = input.capture.app.http.filter((h) => h.authScheme !== undefined && input.byUid.has(h.uid));
    const out: AlertDraft[] = [];
    for (const list of groupBy(withAuth, (h) => {
      const c = input.byUid.get(h.uid);
      return c ? `${c.origH}|${c.respH}` : undefined;
    }).values()) {
      const failures = list.filter((h) => h.statusCode === 401);
      for (const burst of bursts(failures, (h) => h.ts, t.gapSeconds)) {
        if (burst.length < t.failures) continue;
        const conn = input.byUid.get(burst[0]?.uid ?? '') as ConnectionRecord;
        const firstTs = burst[0]?.ts ?? 0;
        const lastTs = burst[burst.length - 1]?.ts ?? 0;
        const wins = list.filter((h) => h.statusCode !== undefined && h.statusCode >= 200 && h.statusCode < 300 && h.ts >= firstTs && h.ts <= lastTs + t.gapSeconds);
        const userNames = (list: readonly typeof burst[number][]): string[] => uniqueSorted(list.flatMap((h) => (h.basicUser !== undefined ? [h.basicUser] : []))).slice(0, 20);
        out.push({
          rule: this.name,
          title: `HTTP authentication brute force against ${conn.respH}`,
          summary: `${conn.origH} sent ${plural(burst.length, 'request')} with credentials that ${conn.respH} refused (401) in ${span(lastTs - firstTs)}${wins.length > 0 ? `; ${plural(wins.length, 'later request')} with credentials succeeded` : ''}.`,
          severity: wins.length > 0 ? 'critical' : 'high',
          stage: this.stage,
          techniques: wins.length > 0 ? ['T1110.001', 'T1078'] : ['T1110.001'],
          src: conn.origH,
          dst: [conn.respH],
          compromised: wins.length > 0 ? [conn.respH] : [],
          uids: uniqueSorted([...burst, ...wins].map((h) => h.uid)),
          packets: [...burst, ...wins].slice(0, 200).map((h) => ({ packet: h.packet, ts: h.ts, uid: h.uid })),
          first_ts: firstTs,
          last_ts: Math.max(lastTs, ...wins.map((h) => h.ts)),
          counts: { refused: burst.length, accepted: wins.length },
          facts: { users: userNames(burst), accepted_users: userNames(wins), schemes: uniqueSorted(burst.map((h) => h.authScheme ?? '')) },
        });
      }
    }
    return out;
  },
};

export const vncAuthFailure: Rule = {
  name: 'vnc_auth_failure',
  title: 'VNC authentication failures',
  stage: 'access',
  techniques: ['T1110.001'],
  withoutPackets: { coverage: 'none', reason: 'needs the VNC authentication result (packets)' },
  description: `Failed VNC authentications from one client: ${THRESHOLDS.vncAuth.failures} or more (pauses under ${THRESHOLDS.vncAuth.gapSeconds} s) are password guessing (high); fewer are a low alert that makes no story alone.`,
  detect(input: DetectionInput): AlertDraft[] {
    const t = THRESHOLDS.vncAuth;
    const failed = input.capture.app.rfb.filter((r) => r.authSuccess === false && input.byUid.has(r.uid));
    const out: AlertDraft[] = [];
    for (const [client, list] of groupBy(failed, (r) => input.byUid.get(r.uid)?.origH)) {
      for (const burst of bursts(list, (r) => r.ts, t.gapSeconds)) {
        const conns = burst.map((r) => input.byUid.get(r.uid) as ConnectionRecord);
        const ev = connectionEvidence(conns);
        const servers = uniqueSorted(conns.map((c) => c.respH));
        const guessing = burst.length >= t.failures;
        out.push({
          rule: this.name,
          title: guessing ? `VNC password guessing against ${servers.length === 1 ? servers[0] : plural(servers.length, 'server')}` : `VNC authentication failed on ${servers.join(', ')}`,
          summary: `${client} failed VNC authentication ${plural(burst.length, 'time')} on ${plural(servers.length, 'server')}${burst.length > 1 ? ` in ${span(ev.last_ts - ev.first_ts)}` : ''}.`,
          severity: guessing ? 'high' : 'low',
          stage: this.stage,
          techniques: this.techniques,
          src: client,
          dst: servers,
          compromised: [],
          ...ev,
          counts: { failures: burst.length, servers: servers.length },
          facts: { client_versions: uniqueSorted(burst.map((r) => r.clientVersion ?? '')).filter((v) => v !== '') },
        });
      }
    }
    return out;
  },
};
