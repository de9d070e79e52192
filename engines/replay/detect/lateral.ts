// Lateral movement: one internal host opening SMB, WinRM or RDP sessions to several internal hosts, or any such session from a host an earlier alert says was compromised.
import type { ConnectionRecord } from '../capture/index.js';
import { isInternal } from '../net.js';
import { bursts, connectionEvidence, groupBy, plural, uniqueSorted, type AlertDraft, type DetectionInput, type Rule } from './rule.js';
import { THRESHOLDS } from './thresholds.js';

type AdminProtocol = 'smb' | 'winrm' | 'rdp';

const TECHNIQUE: Readonly<Record<AdminProtocol, string>> = { smb: 'T1021.002', winrm: 'T1021.006', rdp: 'T1021.001' };

/** The remote-administration protocol of an established session with client data, if it is one. */
function adminProtocol(c: ConnectionRecord, smb: ReadonlySet<string>, rdp: ReadonlySet<string>, wsman: ReadonlySet<string>): AdminProtocol | undefined {
  if (c.proto !== 'tcp' || c.orig.bytes === 0) return undefined;
  if (c.tcp?.handshake !== 'complete' && c.tcp?.handshake !== 'midstream') return undefined;
  if (smb.has(c.uid) || c.service.includes('smb') || c.respP === 445 || c.respP === 139) return 'smb';
  if (wsman.has(c.uid) || c.respP === 5985 || c.respP === 5986) return 'winrm';
  if (rdp.has(c.uid) || c.service.includes('rdp') || c.respP === 3389) return 'rdp';
  return undefined;
}

export const lateralMovement: Rule = {
  name: 'lateral_movement',
  title: 'Lateral movement',
  stage: 'movement',
  techniques: ['T1021.002', 'T1021.006', 'T1021.001'],
  withoutPackets: { coverage: 'partial', reason: "SMB and RDP by port and Zeek's service, WinRM by port only (no /wsman URIs)" },
  description: `An internal host opens SMB, WinRM or RDP sessions to at least ${THRESHOLDS.lateral.fanout} internal hosts (pauses under ${THRESHOLDS.lateral.gapSeconds} s), or any such session after an earlier alert marked it compromised; a lone WinRM session is medium.`,
  detect(input: DetectionInput, prior: readonly AlertDraft[]): AlertDraft[] {
    const t = THRESHOLDS.lateral;
    const smb = new Set(input.capture.app.smb.filter((s) => s.detectedBy === 'banner').map((s) => s.uid));
    const rdp = new Set(input.capture.app.rdp.filter((s) => s.detectedBy === 'banner').map((s) => s.uid));
    const wsman = new Set(input.capture.app.http.filter((h) => /^\/wsman\b/i.test(h.uri)).map((h) => h.uid));
    const sessions: Array<{ conn: ConnectionRecord; protocol: AdminProtocol }> = [];
    for (const c of input.capture.connections) {
      if (!isInternal(c.origH) || !isInternal(c.respH) || c.origH === c.respH) continue;
      const protocol = adminProtocol(c, smb, rdp, wsman);
      if (protocol) sessions.push({ conn: c, protocol });
    }
    // When each host was first marked compromised by an earlier rule.
    const compromisedAt = new Map<string, number>();
    for (const d of prior) for (const h of d.compromised) compromisedAt.set(h, Math.min(compromisedAt.get(h) ?? Infinity, d.first_ts));
    const out: AlertDraft[] = [];
    for (const [src, list] of groupBy(sessions, (s) => s.conn.origH)) {
      const since = compromisedAt.get(src);
      for (const burst of bursts(list, (s) => s.conn.startTs, t.gapSeconds)) {
        const targets = uniqueSorted(burst.map((s) => s.conn.respH));
        const protocols = uniqueSorted(burst.map((s) => s.protocol)) as AdminProtocol[];
        const fromCompromised = since !== undefined && burst.some((s) => s.conn.startTs >= since);
        const fanout = targets.length >= t.fanout;
        const winrm = protocols.includes('winrm');
        if (!fanout && !fromCompromised && !winrm) continue;
        const ev = connectionEvidence(burst.map((s) => s.conn));
        const names = protocols.map((p) => p.toUpperCase().replace('WINRM', 'WinRM')).join('/');
        const why = fromCompromised ? `after ${src} was marked compromised` : fanout ? `${plural(targets.length, 'internal host')} in one burst` : 'remote management';
        out.push({
          rule: this.name,
          title: `Lateral movement from ${src} over ${names}`,
          summary: `${src} opened ${plural(burst.length, `${names} session`)} to ${plural(targets.length, 'internal host')} (${why}).`,
          severity: fanout || fromCompromised ? 'high' : 'medium',
          stage: this.stage,
          techniques: protocols.map((p) => TECHNIQUE[p]),
          src,
          dst: targets,
          compromised: targets,
          ...ev,
          counts: { sessions: burst.length, hosts: targets.length, smb: burst.filter((s) => s.protocol === 'smb').length, winrm: burst.filter((s) => s.protocol === 'winrm').length, rdp: burst.filter((s) => s.protocol === 'rdp').length },
          facts: { protocols, from_compromised_host: fromCompromised },
        });
      }
    }
    return out;
  },
};
