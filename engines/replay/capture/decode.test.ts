// Link types, VLAN tags, IPv4 options and fragments, IPv6 extension headers and fragments, damaged headers; tshark reads the same files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCaptureBytes } from './analyze.js';
import { concat, ETH_IPV4, ETH_IPV6, ethernet, ipv4, ipv6, nullLoopback, sll, sll2, TCP_SYN, tcp, udp, udpFrame } from './craft.js';
import { formatIpv6, ipv6Key } from './decode.js';
import { NO_TIMEOUTS } from './flows.js';
import { tshark } from './capture.fixture.js';
import { skipWithout } from '../../../test/oracles.js';
import { PcapngBuilder, writePcap } from './writer.js';

/** tshark is an oracle: without it its tests skip locally and fail under VITRINE_REQUIRE_ORACLES=1 (test/oracles.ts). */
const tsharkSkips = skipWithout('tshark');

const A4 = '192.0.2.1';
const B4 = '198.51.100.7';
const A6 = '2001:db8::1';
const B6 = '2001:db8:0:1::20';

const syn4 = ipv4({ src: A4, dst: B4, protocol: 6 }, tcp(A4, B4, { sport: 1234, dport: 443, flags: TCP_SYN, seq: 1 }));
const syn6 = ipv6({ src: A6, dst: B6, nextHeader: 6 }, tcp(A6, B6, { sport: 4321, dport: 22, flags: TCP_SYN, seq: 1 }));

/** One pcapng, one interface per link type, one SYN on each. */
function linkTypeCapture(): { bytes: Uint8Array; expected: Array<[string, number, number, number]> } {
  const cases: Array<[number, Uint8Array, [string, number, number, number]]> = [
    [1, ethernet(ETH_IPV4, syn4), [A4, 1234, 443, 0]],
    [1, ethernet(ETH_IPV4, syn4, { vlans: [100] }), [A4, 1234, 443, 100]],
    [1, ethernet(ETH_IPV6, syn6, { vlans: [200, 300], qinq: true }), [A6, 4321, 22, 200]],
    [113, sll(ETH_IPV4, syn4), [A4, 1234, 443, 0]],
    [276, sll2(ETH_IPV6, syn6), [A6, 4321, 22, 0]],
    [101, syn4, [A4, 1234, 443, 0]],
    [101, syn6, [A6, 4321, 22, 0]],
    [228, syn4, [A4, 1234, 443, 0]],
    [229, syn6, [A6, 4321, 22, 0]],
    [0, nullLoopback(2, syn4), [A4, 1234, 443, 0]],
    [0, nullLoopback(30, syn6, true), [A6, 4321, 22, 0]],
    [108, nullLoopback(2, syn4, true), [A4, 1234, 443, 0]],
  ];
  const b = new PcapngBuilder().section();
  for (const [link] of cases) b.interface({ linkType: link });
  cases.forEach(([, data], i) => b.epb({ interfaceId: i, tsSec: 1_700_000_000 + i, data }));
  return { bytes: b.result(), expected: cases.map(([, , e]) => e) };
}

describe('link layers', () => {
  it('decodes Ethernet (with 802.1Q and QinQ), SLL, SLL2, raw IP (101, 228, 229), NULL in both byte orders and LOOP', () => {
    const { bytes, expected } = linkTypeCapture();
    // The same SYN repeats a second apart: with Zeek's 5 s attempt timeout it would split, so timeouts are off here.
    const r = analyzeCaptureBytes(bytes, { timeouts: NO_TIMEOUTS });
    expect(r.warnings).toEqual([]);
    expect(r.packets.tcp).toBe(expected.length);
    expect(r.packets.vlanTagged).toBe(2);
    // Same tuples on several link types fold into one connection each: look at packets per tuple instead.
    const seen = r.connections.map((c) => [c.origH, c.origP, c.respP, c.orig.packets]);
    expect(seen).toEqual([
      [A4, 1234, 443, expected.filter((e) => e[0] === A4).length],
      [A6, 4321, 22, expected.filter((e) => e[0] === A6).length],
    ]);
    expect(r.connections[0]?.vlan).toBeUndefined();
  });

  it.skipIf(tsharkSkips)('is decoded the same by tshark (when installed): addresses, ports and VLAN ids frame by frame', async () => {
    const { bytes, expected } = linkTypeCapture();
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-link-'));
    try {
      const file = path.join(dir, 'links.pcapng');
      writeFileSync(file, bytes);
      const out = await tshark(['-r', file, '-T', 'fields', '-E', 'separator=;', '-e', 'ip.src', '-e', 'ipv6.src', '-e', 'tcp.srcport', '-e', 'tcp.dstport', '-e', 'vlan.id', '-e', 'ieee8021ad.id']);
      const rows = out.trim().split('\n').map((l) => l.split(';'));
      // tshark names an outer 0x88a8 tag ieee8021ad.id; the outermost tag is what we report.
      const outer = (r: string[]): number => Number((r[5] || r[4] || '0').split(',')[0]);
      expect(rows.map((r) => [r[0] || r[1], Number(r[2]), Number(r[3]), outer(r)])).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts an unknown link type and a frame cut inside its link header as warnings', () => {
    const r = analyzeCaptureBytes(writePcap([{ tsSec: 1, data: syn4 }], { linkType: 147 }));
    expect(r.warnings.map((w) => [w.code, w.count])).toEqual([['unsupported_link_type', 1]]);
    const cut = analyzeCaptureBytes(writePcap([{ tsSec: 1, data: new Uint8Array(10) }]));
    expect(cut.warnings.map((w) => w.code)).toEqual(['truncated_link_header']);
  });
});

describe('IP layer', () => {
  it('reads IPv4 options and still finds the transport header', () => {
    const withOptions = ipv4({ src: A4, dst: B4, protocol: 6, options: Uint8Array.of(7, 7, 4, 0, 0, 0, 0) }, tcp(A4, B4, { sport: 5, dport: 80, flags: TCP_SYN }));
    const r = analyzeCaptureBytes(writePcap([{ tsSec: 1, data: ethernet(ETH_IPV4, withOptions) }]));
    expect(r.packets.ipv4WithOptions).toBe(1);
    expect(r.connections[0]?.respP).toBe(80);
  });

  it('walks IPv6 hop-by-hop, routing and destination options headers; an atomic fragment is a whole datagram', () => {
    const seg = tcp(A6, B6, { sport: 7, dport: 8080, flags: TCP_SYN });
    const pkt = ipv6({ src: A6, dst: B6, nextHeader: 6, extensions: [{ type: 0 }, { type: 43 }, { type: 44 }, { type: 60 }] }, seg);
    const r = analyzeCaptureBytes(writePcap([{ tsSec: 1, data: ethernet(ETH_IPV6, pkt) }]));
    expect(r.warnings).toEqual([]);
    expect(r.connections.map((c) => [c.origH, c.respH, c.respP])).toEqual([[A6, B6, 8080]]);
    expect(r.packets.fragments).toBe(0);
  });

  it('formats IPv6 as RFC 5952 text', () => {
    const fmt = (hex: string): string => formatIpv6(ipv6Key(Buffer.from(hex, 'hex'), 0));
    expect(fmt('20010db8000000000000000000000001')).toBe('2001:db8::1');
    expect(fmt('fe800000000000000217f2fffed7cf65')).toBe('fe80::217:f2ff:fed7:cf65');
    expect(fmt('20010db8000100000001000000000001')).toBe('2001:db8:1:0:1::1');
    expect(fmt('00000000000000000000000000000000')).toBe('::');
  });

  /** A DNS response big enough to need two fragments. */
  function dnsResponse(): Uint8Array {
    const name = Uint8Array.of(7, ...new TextEncoder().encode('example'), 3, ...new TextEncoder().encode('com'), 0);
    const header = Uint8Array.of(0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0);
    const question = concat(name, Uint8Array.of(0, 16, 0, 1));
    const txt = new Uint8Array(1200).fill(0x61);
    const chunks = [];
    for (let i = 0; i < txt.length; i += 200) chunks.push(Uint8Array.of(200), txt.subarray(i, i + 200));
    const rdata = concat(...chunks);
    const answer = concat(Uint8Array.of(0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60, rdata.length >> 8, rdata.length & 0xff), rdata);
    return concat(header, question, answer);
  }

  it('reassembles IPv4 fragments (out of order) into one datagram: one packet to the connection, DNS read whole', () => {
    const payload = udp(B4, A4, 53, 3333, dnsResponse());
    const first = payload.subarray(0, 1000);
    const second = payload.subarray(1000);
    const f1 = ethernet(ETH_IPV4, ipv4({ src: B4, dst: A4, protocol: 17, id: 77, moreFragments: true }, first));
    const f2 = ethernet(ETH_IPV4, ipv4({ src: B4, dst: A4, protocol: 17, id: 77, fragmentOffset: 1000 }, second));
    const query = udpFrame(A4, B4, 3333, 53, new Uint8Array(12));
    const r = analyzeCaptureBytes(
      writePcap([
        { tsSec: 1, data: query },
        { tsSec: 2, data: f2 },
        { tsSec: 2, tsNsec: 1000, data: f1 },
      ]),
    );
    expect(r.packets.fragments).toBe(2);
    expect(r.fragments.reassembled).toBe(1);
    const c = r.connections[0];
    expect([c?.orig.packets, c?.resp.packets, c?.fragmentFrames, c?.resp.ipBytes]).toEqual([1, 1, 2, 20 + payload.length]);
    const answers = r.app.dns.filter((m) => m.response);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.answers[0]?.data?.length).toBeGreaterThan(1000);
  });

  it('reassembles IPv6 fragments; an incomplete datagram is counted, not placed', () => {
    const payload = udp(B6, A6, 53, 3333, dnsResponse());
    const frag = (offset: number, more: boolean, part: Uint8Array): Uint8Array =>
      ethernet(ETH_IPV6, ipv6({ src: B6, dst: A6, nextHeader: 17, extensions: [{ type: 44, fragmentOffset: offset, moreFragments: more, id: 9 }] }, part));
    const r = analyzeCaptureBytes(
      writePcap([
        { tsSec: 1, data: frag(0, true, payload.subarray(0, 800)) },
        { tsSec: 1, data: frag(800, false, payload.subarray(800)) },
        { tsSec: 2, data: frag(0, true, payload.subarray(0, 800)).map((b, i) => (i === 14 + 40 + 7 ? 10 : b)) },
      ]),
    );
    expect(r.fragments.reassembled).toBe(1);
    expect(r.connections).toHaveLength(1);
    expect(r.app.dns).toHaveLength(1);
    expect(r.fragments.incompleteFrames).toBe(1);
    expect(r.packets.unplaced).toBe(1);
  });

  it('counts frames cut inside the IP or transport header as warnings and goes on', () => {
    const good = ethernet(ETH_IPV4, syn4);
    const r = analyzeCaptureBytes(
      writePcap([
        { tsSec: 1, data: good.subarray(0, 20) },
        { tsSec: 2, data: good.subarray(0, 14 + 20 + 10) },
        { tsSec: 3, data: good },
      ]),
    );
    expect(r.warnings.map((w) => [w.code, w.count, w.firstPacket])).toEqual([
      ['truncated_ip_header', 1, 0],
      ['truncated_transport_header', 1, 1],
    ]);
    expect(r.connections).toHaveLength(1);
    expect(r.packets.unplaced).toBe(2);
  });
});
