// Stories from a Zeek conn.log: the synthetic intrusion's connections handed over as conn.log (TSV and JSON) still make the attack story without packets; the rules that need packets say so.
import { describe, expect, it } from 'vitest';
import { analyzeBytes, checkFormat } from './analyze.js';
import { analyzeCaptureBytes } from './capture/index.js';
import { corpusConnLog } from './replay.fixture.js';
import { connLogText } from './capture/zeek.js';
import { pcapCorpusAvailable } from './capture/capture.fixture.js';
import { demo, loadIndicators, RULES } from './index.js';
import { DEMO_HOSTS } from './intrusion.js';
import { analysisSchema } from './schemas.js';

const indicators = loadIndicators();
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('the synthetic intrusion as a conn.log', () => {
  const { pcap, summary } = demo(400, { indicators });
  const connections = analyzeCaptureBytes(pcap).connections;

  for (const form of ['tsv', 'json'] as const) {
    it(`${form}: the attack is still one story with all four stages; benign flows make none`, () => {
      const log = enc(connLogText(connections, form));
      expect(checkFormat(log, 'auto')).toBe('zeek');
      const analysis = analyzeBytes(log, { indicators, format: 'zeek', name: `conn.${form}` });
      expect(analysisSchema.parse(analysis)).toBeTruthy();
      expect(analysis.capture.format).toBe('zeek_conn');
      expect(analysis.capture.connections).toBe(summary.attack_flows + summary.benign_flows);
      expect(analysis.stories).toHaveLength(1);
      const story = analysis.stories[0];
      expect(story?.attacker).toBe(DEMO_HOSTS.attacker);
      expect(story?.stages).toEqual(['recon', 'access', 'movement', 'action']);
      // DNS tunnelling needs the DNS queries: from connections alone the other six rules still fire.
      expect(new Set(story?.alerts.map((a) => a.rule))).toEqual(new Set(['port_scan', 'ssh_guessing', 'lateral_movement', 'beaconing', 'known_bad_indicator', 'large_outbound_transfer']));
      // Every alert cites attack connections only.
      const attackHosts = new Set<string>(summary.attack_hosts);
      for (const a of story?.alerts ?? []) expect(attackHosts.has(a.src), a.rule).toBe(true);
      expect(analysis.alerts.filter((a) => !story?.alerts.some((s) => s.id === a.id))).toEqual([]);
    });
  }

  it('says which rules could not run or saw less, and why; those that need packets do not run', () => {
    const analysis = analyzeBytes(enc(connLogText(connections, 'tsv')), { indicators });
    const coverage = analysis.capture.rule_coverage ?? [];
    const none = coverage.filter((c) => c.coverage === 'none').map((c) => c.rule);
    expect(none.sort()).toEqual(['cleartext_credentials', 'dga_domains', 'dns_tunnelling', 'ftp_bruteforce', 'http_auth_bruteforce', 'sql_injection', 'vnc_auth_failure']);
    expect(coverage.filter((c) => c.coverage === 'partial').map((c) => c.rule).sort()).toEqual(['host_scan', 'known_bad_indicator', 'lateral_movement', 'rdp_bruteforce', 'ssh_guessing']);
    for (const c of coverage) expect(c.reason.length).toBeGreaterThan(10);
    for (const r of none) expect(analysis.rules[r]).toBe(0);
    // A capture has no such list: every rule saw everything.
    expect(demo(0, { indicators }).analysis.capture.rule_coverage).toBeUndefined();
    // What each rule sees from connection records alone, from what it reads: payload (URIs, replies, queries,
    // credentials) is none; ports, services or addresses standing in for payload is partial; counts, sizes and
    // timing of connections are full.
    expect(Object.fromEntries(RULES.map((r) => [r.name, r.withoutPackets.coverage]))).toEqual({
      port_scan: 'full',
      host_scan: 'partial',
      ssh_guessing: 'partial',
      ftp_bruteforce: 'none',
      rdp_bruteforce: 'partial',
      http_auth_bruteforce: 'none',
      vnc_auth_failure: 'none',
      sql_injection: 'none',
      cleartext_credentials: 'none',
      lateral_movement: 'partial',
      beaconing: 'full',
      dns_tunnelling: 'none',
      dga_domains: 'none',
      known_bad_indicator: 'partial',
      large_outbound_transfer: 'full',
    });
  });
});

describe.skipIf(!pcapCorpusAvailable())('Zeek traces handed over as conn.log', () => {
  it('sshguess: the SSH password guessing is found from the connections alone (Zeek service ssh)', async () => {
    const analysis = analyzeBytes(enc(await corpusConnLog('sshguess.pcap', 'json')), { indicators });
    expect(analysis.stories).toHaveLength(1);
    expect(analysis.alerts.map((a) => [a.rule, a.src])).toEqual([['ssh_guessing', '192.168.56.1']]);
  });

  it('ftp-bruteforce: no FTP brute force without the replies, and the coverage says why', async () => {
    const analysis = analyzeBytes(enc(await corpusConnLog('ftp-bruteforce.pcap', 'tsv')), { indicators });
    expect(analysis.rules['ftp_bruteforce']).toBe(0);
    expect(analysis.capture.rule_coverage?.find((c) => c.rule === 'ftp_bruteforce')?.reason).toMatch(/FTP/);
  });
});
