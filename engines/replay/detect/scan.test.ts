// Scan rules on the nmap trace (an ARP sweep and TCP probes) and on crafted scans and lookalikes.
import { describe, expect, it } from 'vitest';
import { ETH_IPV4, ethernet, icmp, ipv4, TCP_ACK, TCP_RST, TCP_SYN } from '../capture/craft.js';
import { corpusFile, pcapCorpusAvailable, tshark } from '../capture/capture.fixture.js';
import { skipWithout } from '../../../test/oracles.js';
import { TcpSession, type Timeline } from '../intrusion.js';
import { corpusAnalysis, detect } from '../replay.fixture.js';
import { hostScan, portScan } from './scan.js';

const tsharkSkips = skipWithout('tshark');

describe.skipIf(!pcapCorpusAvailable())('scans in the Zeek traces', () => {
  it.skipIf(tsharkSkips)('nmap-vsn: the ARP targets are the ones tshark reads (when installed)', async () => {
    const out = await tshark(['-r', corpusFile('nmap-vsn.pcap'), '-Y', 'arp.opcode == 1', '-T', 'fields', '-e', 'arp.src.proto_ipv4', '-e', 'arp.dst.proto_ipv4']);
    const rows = out.trim().split('\n').map((l) => l.split('\t'));
    const a = await corpusAnalysis('nmap-vsn.pcap');
    const scan = a.alerts.find((x) => x.rule === 'host_scan');
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set([scan?.src]));
    expect(new Set(rows.map((r) => r[1])).size).toBe(scan?.evidence.counts['arp_targets']);
  });

  it('nmap-vsn: the ARP sweep of the /24 and the TCP probes of the live hosts are one host scan from 192.168.1.71', async () => {
    const a = await corpusAnalysis('nmap-vsn.pcap');
    const scans = a.alerts.filter((x) => x.rule === 'host_scan');
    expect(scans).toHaveLength(1);
    const scan = scans[0];
    expect(scan?.src).toBe('192.168.1.71');
    // 503 ARP requests for 245 addresses (tshark agrees: arp.opcode == 1), plus 7 hosts probed over TCP.
    expect(scan?.evidence.counts).toMatchObject({ arp_targets: 245, tcp_targets: 7 });
    expect(scan?.dst_count).toBe(252);
    expect(scan?.techniques).toEqual(['T1018']);
    expect(a.stories).toHaveLength(1);
    expect(a.stories[0]?.stages).toEqual(['recon']);
  });
});

function synScan(ports: number): (t: Timeline, r: () => number) => void {
  return (t, rand) => {
    for (let p = 1; p <= ports; p++) {
      const s = new TcpSession(t, '203.0.113.9', '10.1.1.1', 40000 + p, p, 1000 + p * 0.01, rand);
      s.c2s(TCP_SYN, undefined, 0).s2c(TCP_RST | TCP_ACK);
    }
  };
}

describe('port_scan', () => {
  it('fires at 15 refused ports of one host and names the ports', () => {
    const [alert, ...rest] = detect(portScan, synScan(15));
    expect(rest).toEqual([]);
    expect(alert?.src).toBe('203.0.113.9');
    expect(alert?.dst).toEqual(['10.1.1.1']);
    expect(alert?.counts).toMatchObject({ ports: 15, attempts: 15, refused: 15 });
    expect(alert?.uids).toHaveLength(15);
    expect(alert?.packets[0]?.packet).toBe(0);
  });

  it('stays quiet at 14 ports, and for completed sessions to many ports', () => {
    expect(detect(portScan, synScan(14))).toEqual([]);
    const busyClient = detect(portScan, (t, rand) => {
      for (let p = 1; p <= 30; p++) new TcpSession(t, '10.1.1.2', '10.1.1.1', 40000 + p, 8000 + p, 1000 + p, rand).open().c2s(TCP_ACK, new Uint8Array(10)).close();
    });
    expect(busyClient).toEqual([]);
  });

  it('splits scans separated by a pause longer than 5 minutes', () => {
    const twice = detect(portScan, (t, rand) => {
      for (let p = 1; p <= 40; p++) new TcpSession(t, '203.0.113.9', '10.1.1.1', 40000 + p, p, p <= 20 ? 1000 + p : 2000 + p, rand).c2s(TCP_SYN, undefined, 0);
    });
    expect(twice.map((a) => a.counts['ports'])).toEqual([20, 20]);
  });
});

describe('host_scan', () => {
  it('fires at 25 unanswered hosts and not at 24', () => {
    const sweep = (n: number) => (t: Timeline, rand: () => number) => {
      for (let h = 1; h <= n; h++) new TcpSession(t, '10.9.9.9', `10.1.2.${h}`, 40000 + h, 445, 1000 + h * 0.1, rand).c2s(TCP_SYN, undefined, 0);
    };
    const [alert] = detect(hostScan, sweep(25));
    expect(alert?.counts).toMatchObject({ hosts: 25, tcp_targets: 25 });
    expect(alert?.techniques).toEqual(['T1018']);
    expect(detect(hostScan, sweep(24))).toEqual([]);
  });
});

describe('host_scan and pings', () => {
  /** One source pings `hosts` addresses, one every 45 s (pauses well under the rule's 300 s), answered or not. */
  const pings = (hosts: number, answered: boolean) => (t: Timeline) => {
    for (let i = 0; i < hosts; i++) {
      const at = 1000 + i * 45;
      const dst = `10.9.${Math.floor(i / 200)}.${(i % 200) + 1}`;
      t.add(at, ethernet(ETH_IPV4, ipv4({ src: '10.9.9.9', dst, protocol: 1 }, icmp(8, 0, (i << 16) | 1, new Uint8Array(56)))));
      if (answered) t.add(at + 0.01, ethernet(ETH_IPV4, ipv4({ src: dst, dst: '10.9.9.9', protocol: 1 }, icmp(0, 0, (i << 16) | 1, new Uint8Array(56)))));
    }
  };

  it('unanswered echo requests to 30 addresses are a host scan', () => {
    const drafts = detect(hostScan, pings(30, false));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]?.counts).toMatchObject({ hosts: 30, icmp_targets: 30 });
  });

  it('answered pings of 30 live hosts over 20 minutes are monitoring, not a scan', () => {
    expect(detect(hostScan, pings(30, true))).toEqual([]);
  });
});
