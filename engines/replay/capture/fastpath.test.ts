// The allocation-free paths: the reader's buffer-and-offset packets across chunk joins, the flow table's hashed index with its chains and opening order, and the optional source hash.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyzeCaptureBytes } from './analyze.js';
import { ETH_IPV6, ethernet, ipv6, TCP_ACK, TCP_FIN, TCP_SYN, tcp, tcpFrame, udp, udpFrame } from './craft.js';
import { ActiveConnections, Endpoints, NO_TIMEOUTS, ZEEK_TIMEOUTS, type FlowTimeouts } from './flows.js';
import { CaptureReader, MAX_PACKET_BYTES } from './reader.js';
import { feedBytes } from './source.js';
import type { RawPacket } from './types.js';
import { WarningCounter } from './warnings.js';
import { PcapngBuilder, writePcap, type PacketToWrite } from './writer.js';

/** Each packet as read: its number, lengths and a digest of its bytes, read both through `data` and `bytes`/`start`. */
function digests(capture: Uint8Array, chunkBytes?: number): { list: string[]; warnings: number } {
  const warnings = new WarningCounter();
  const list: string[] = [];
  const reader = new CaptureReader(warnings, (p: RawPacket) => {
    const direct = createHash('sha1').update(p.bytes.subarray(p.start, p.start + p.capturedLength)).digest('hex');
    const view = createHash('sha1').update(p.data).digest('hex');
    expect(view).toBe(direct);
    expect(p.data.length).toBe(p.capturedLength);
    list.push(`${p.index} ${p.offset} ${p.capturedLength} ${p.originalLength} ${p.tsSec}.${p.tsNsec} ${direct}`);
  });
  feedBytes(reader, capture, chunkBytes === undefined ? {} : { chunkBytes });
  return { list, warnings: warnings.total };
}

/** Bytes whose value depends on the packet and position, so a misplaced byte changes the digest. */
function filler(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed * 7) & 0xff);
}

describe('reader: packets by buffer and offset', () => {
  // Records from tiny to the largest we accept, so they straddle chunks in every way (and the 64 KiB join).
  const sizes = [60, MAX_PACKET_BYTES, 1_500, 70_000, 14, 65_536, 200_000, 61, 131_072, 3];
  const packets: PacketToWrite[] = sizes.map((n, i) => ({ tsSec: 1_700_000_000 + i, tsNsec: i * 1000, data: filler(n, i) }));

  it('gives the same packets from pcap whatever the chunk size, large records included', () => {
    const capture = writePcap(packets);
    const whole = digests(capture);
    expect(whole.list.length).toBe(sizes.length);
    expect(whole.warnings).toBe(0);
    for (const chunk of [999, 4096, 65_535, 65_536, 70_001, 262_144, 300_000]) expect(digests(capture, chunk), `chunk ${chunk}`).toEqual(whole);
  });

  it('gives the same packets from pcapng whatever the chunk size', () => {
    const b = new PcapngBuilder().section().interface({ linkType: 1 });
    for (const p of packets) b.epb(p);
    const capture = b.result();
    const whole = digests(capture);
    expect(whole.list.length).toBe(sizes.length);
    for (const chunk of [1_000, 4096, 65_536, 100_000]) expect(digests(capture, chunk), `chunk ${chunk}`).toEqual(whole);
  });

  it('still counts a cut inside a large record as truncated_file', () => {
    expect.hasAssertions();
    const capture = writePcap(packets);
    // Cut in the middle of the second record (the largest).
    const cut = capture.subarray(0, 24 + 16 + 60 + 16 + 100_000);
    for (const chunk of [undefined, 1000, 65_536]) {
      const r = digests(cut, chunk);
      expect(r.list.length).toBe(1);
      expect(r.warnings).toBe(1);
    }
  });
});

/** A connection's key in fresh slot of `E`, for the index alone (only its key columns matter here). */
function conn(E: Endpoints, hash: number, low: number, high: number, lowP: number, highP: number, lowV6 = '', highV6 = ''): number {
  const s = E.alloc();
  E.hash[s] = hash;
  E.lowV4[s] = low;
  E.highV4[s] = high;
  E.lowV6[s] = lowV6;
  E.highV6[s] = highV6;
  E.lowP[s] = lowP;
  E.highP[s] = highP;
  E.ipProto[s] = 17;
  return s;
}

describe('flow index', () => {
  it('keeps connections whose hashes collide apart, finds each by its tuple, and removes any link of a chain', () => {
    const E = new Endpoints(2);
    const index = new ActiveConnections(E);
    const a = conn(E, 7, 0xc0a80001, 0xc0a80002, 1000, 53);
    const b = conn(E, 7, 0xc0a80001, 0xc0a80002, 1001, 53);
    const c = conn(E, 7, 0x0a000001, 0xc0a80002, 1000, 53);
    // Another hash in the same bucket (1024 buckets at first).
    const d = conn(E, 7 + 1024, 0xc0a80001, 0xc0a80002, 1000, 53);
    for (const x of [a, b, c, d]) index.add(x);
    expect(index.size).toBe(4);
    expect(index.get(7, 17, 0xc0a80001, 0xc0a80002, '', '', 1000, 53)).toBe(a);
    expect(index.get(7, 17, 0xc0a80001, 0xc0a80002, '', '', 1001, 53)).toBe(b);
    expect(index.get(7, 17, 0x0a000001, 0xc0a80002, '', '', 1000, 53)).toBe(c);
    expect(index.get(7 + 1024, 17, 0xc0a80001, 0xc0a80002, '', '', 1000, 53)).toBe(d);
    // An IPv6 connection in the same chain is found by its own addresses only.
    const v6 = conn(E, 7, 0, 0, 1000, 53, 'a', 'b');
    index.add(v6);
    expect(index.get(7, 17, 0, 0, 'a', 'b', 1000, 53)).toBe(v6);
    expect(index.get(7, 17, 0, 0, '', '', 1000, 53)).toBe(-1);
    expect(index.delete(v6)).toBe(true);
    // Same hash and addresses, another protocol or port: not found.
    expect(index.get(7, 6, 0xc0a80001, 0xc0a80002, '', '', 1000, 53)).toBe(-1);
    expect(index.get(7, 17, 0xc0a80001, 0xc0a80002, '', '', 1002, 53)).toBe(-1);
    // Remove from the middle of the chain, then its head, then a repeat (not live any more).
    expect(index.delete(b)).toBe(true);
    expect(index.get(7, 17, 0xc0a80001, 0xc0a80002, '', '', 1001, 53)).toBe(-1);
    expect(index.get(7, 17, 0xc0a80001, 0xc0a80002, '', '', 1000, 53)).toBe(a);
    expect(index.delete(c)).toBe(true);
    expect(index.delete(c)).toBe(false);
    expect(index.get(7, 17, 0xc0a80001, 0xc0a80002, '', '', 1000, 53)).toBe(a);
    expect(index.size).toBe(2);
    // Opening order survives removals: a, then d; a new one goes last.
    expect(index.oldest).toBe(a);
    expect(index.after(a)).toBe(d);
    const e = conn(E, 7, 1, 2, 3, 4);
    index.add(e);
    expect(index.after(d)).toBe(e);
    expect(index.delete(a)).toBe(true);
    expect(index.oldest).toBe(d);
    const first = index.clear();
    expect(first).toBe(d);
    expect(index.size).toBe(0);
    expect(index.get(7 + 1024, 17, 0xc0a80001, 0xc0a80002, '', '', 1000, 53)).toBe(-1);
  });

  it('finds every connection again after its table doubles, and keeps the order of opening through removals', () => {
    const E = new Endpoints(1);
    const index = new ActiveConnections(E);
    const slots: number[] = [];
    // 5,000 keys in few distinct hashes (long chains) and many (several doublings of the bucket table).
    for (let i = 0; i < 5000; i++) {
      const s = conn(E, i % 3 === 0 ? i % 97 : (i * 2654435761) & 0x3fffffff, 0x0a000000 + i, 0xc0a80001, 1024 + (i % 50_000), 80);
      index.add(s);
      slots.push(s);
    }
    for (let i = 0; i < 5000; i += 2) expect(index.delete(slots[i]!)).toBe(true);
    for (let i = 0; i < 5000; i++) {
      const s = slots[i]!;
      expect(index.get(E.hash[s]!, 17, 0x0a000000 + i, 0xc0a80001, '', '', 1024 + (i % 50_000), 80)).toBe(i % 2 === 0 ? -1 : s);
    }
    const order: number[] = [];
    for (let s = index.oldest; s !== -1; s = index.after(s)) order.push(s);
    expect(order).toEqual(slots.filter((_, i) => i % 2 === 1));
    expect(index.size).toBe(2500);
  });

  /**
   * Thousands of UDP and TCP flows over IPv4 and IPv6, packets in both directions and interleaved, against a plain
   * reference kept here by text key: every tuple's packets per direction must match, with and without timeouts.
   */
  it('places every packet of thousands of interleaved flows in the right connection and direction', () => {
    expect.hasAssertions();
    const frames: PacketToWrite[] = [];
    const expected = new Map<string, { orig: number; resp: number }>();
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const flows: Array<{ v6: boolean; tcp: boolean; a: string; b: string; ap: number; bp: number; sent: number }> = [];
    for (let i = 0; i < 3000; i++) {
      const v6 = i % 5 === 0;
      const a = v6 ? `2001:db8::${(rand(200) + 1).toString(16)}` : `10.${rand(3)}.${rand(4)}.${rand(250) + 1}`;
      const b = v6 ? `2001:db8:1::${(rand(20) + 1).toString(16)}` : `192.168.${rand(2)}.${rand(20) + 1}`;
      flows.push({ v6, tcp: i % 3 === 0, a, b, ap: 1024 + rand(60_000), bp: [53, 80, 443, 8080][rand(4)] ?? 80, sent: 0 });
    }
    for (let t = 0; t < 12_000; t++) {
      const f = flows[rand(flows.length)];
      if (f === undefined) continue;
      const fromA = f.sent === 0 || rand(2) === 0;
      const [src, dst, sp, dp] = fromA ? [f.a, f.b, f.ap, f.bp] : [f.b, f.a, f.bp, f.ap];
      let data: Uint8Array;
      if (f.v6) {
        const next = f.tcp ? 6 : 17;
        const l4 = f.tcp ? tcp(src, dst, { sport: sp, dport: dp, flags: f.sent === 0 ? TCP_SYN : TCP_ACK, seq: 1000 + f.sent, ack: 1 }) : udp(src, dst, sp, dp, new Uint8Array(8));
        data = ethernet(ETH_IPV6, ipv6({ src, dst, nextHeader: next }, l4));
      } else if (f.tcp) {
        data = tcpFrame(src, dst, { sport: sp, dport: dp, flags: f.sent === 0 ? TCP_SYN : TCP_ACK, seq: 1000 + f.sent, ack: 1 });
      } else {
        data = udpFrame(src, dst, sp, dp, new Uint8Array(8));
      }
      f.sent += 1;
      frames.push({ tsSec: 1_700_000_000 + t * 0.01, data });
      const key = `${f.tcp ? 'tcp' : 'udp'} ${f.a}:${f.ap} ${f.b}:${f.bp}`;
      const e = expected.get(key) ?? { orig: 0, resp: 0 };
      if (fromA) e.orig += 1;
      else e.resp += 1;
      expected.set(key, e);
    }
    const capture = writePcap(frames.map((p) => ({ ...p, tsSec: Math.floor(p.tsSec), tsNsec: Math.round((p.tsSec % 1) * 1e9) })));
    for (const timeouts of [NO_TIMEOUTS, ZEEK_TIMEOUTS] satisfies FlowTimeouts[]) {
      const r = analyzeCaptureBytes(capture, { timeouts, application: false });
      expect(r.warningCount).toBe(0);
      // Without timeouts a tuple is one connection; Zeek's timeouts split some (attempts, idle UDP), so sum those.
      if (timeouts === NO_TIMEOUTS) expect(r.connections.length).toBe(expected.size);
      else expect(r.connections.length).toBeGreaterThan(expected.size);
      const ours = new Map<string, { orig: number; resp: number }>();
      for (const c of r.connections) {
        // Our originator is the first sender except where a likely server port flips it; count by the reference's order.
        const key = `${c.proto} ${c.origH}:${c.origP} ${c.respH}:${c.respP}`;
        const reversed = `${c.proto} ${c.respH}:${c.respP} ${c.origH}:${c.origP}`;
        const asIs = expected.has(key);
        const k = asIs ? key : reversed;
        const sum = ours.get(k) ?? { orig: 0, resp: 0 };
        sum.orig += asIs ? c.orig.packets : c.resp.packets;
        sum.resp += asIs ? c.resp.packets : c.orig.packets;
        ours.set(k, sum);
      }
      expect(ours).toEqual(expected);
      // Connections are listed in order of their first packet.
      const firsts = r.connections.map((c) => c.firstPacket);
      expect(firsts).toEqual([...firsts].sort((x, y) => x - y));
    }
  });
});

describe('endpoint columns', () => {
  it('keep every side\'s values as they grow by doubling, and give a released slot back reset', () => {
    const ends = new Endpoints(1);
    const slots: number[] = [];
    for (let i = 0; i < 100; i++) {
      const s = ends.alloc();
      slots.push(s);
      ends.packets[2 * s] = i;
      ends.startSeq[2 * s + 1] = 0xfffffff0 - i;
      ends.setState(2 * s, 4);
    }
    expect(new Set(slots).size).toBe(100);
    for (const [i, s] of slots.entries()) {
      expect([ends.packets[2 * s], ends.startSeq[2 * s + 1], ends.state[2 * s], ends.prevState[2 * s]]).toEqual([i, 0xfffffff0 - i, 4, 0]);
    }
    const freed = slots[42] ?? -1;
    ends.release(freed);
    const again = ends.alloc();
    expect(again).toBe(freed);
    expect([ends.packets[2 * again], ends.startSeq[2 * again + 1], ends.state[2 * again], ends.lastSynSeq[2 * again]]).toEqual([0, 0, 0, -1]);
  });

  it('start a connection that reuses a closed one\'s slot from nothing (Zeek timeouts)', () => {
    // A TCP session that ends, then, after its close delay, UDP and TCP connections that take the freed slots.
    const frames: PacketToWrite[] = [
      { tsSec: 100, data: tcpFrame('10.0.0.1', '10.0.0.2', { sport: 40000, dport: 80, flags: TCP_SYN, seq: 10, ack: 0 }) },
      { tsSec: 100, data: tcpFrame('10.0.0.2', '10.0.0.1', { sport: 80, dport: 40000, flags: TCP_SYN | TCP_ACK, seq: 500, ack: 11 }) },
      { tsSec: 101, data: tcpFrame('10.0.0.1', '10.0.0.2', { sport: 40000, dport: 80, flags: TCP_ACK, seq: 11, ack: 501 }, new Uint8Array(30)) },
      { tsSec: 102, data: tcpFrame('10.0.0.1', '10.0.0.2', { sport: 40000, dport: 80, flags: TCP_FIN | TCP_ACK, seq: 41, ack: 501 }) },
      { tsSec: 102, data: tcpFrame('10.0.0.2', '10.0.0.1', { sport: 80, dport: 40000, flags: TCP_FIN | TCP_ACK, seq: 501, ack: 42 }) },
      { tsSec: 200, data: udpFrame('10.0.0.3', '10.0.0.4', 5000, 53, new Uint8Array(12)) },
      { tsSec: 200, data: tcpFrame('10.0.0.5', '10.0.0.6', { sport: 40001, dport: 22, flags: TCP_ACK, seq: 7, ack: 9 }) },
    ];
    const r = analyzeCaptureBytes(writePcap(frames), { timeouts: ZEEK_TIMEOUTS, application: false });
    expect(r.connections.map((c) => [c.proto, c.connState, c.history, c.orig.packets, c.resp.packets, c.orig.bytes, c.resp.bytes])).toEqual([
      ['tcp', 'SF', 'ShDFf', 3, 2, 30, 0],
      ['udp', 'S0', 'D', 1, 0, 12, 0],
      ['tcp', 'OTH', 'A', 1, 0, 0, 0],
    ]);
  });
});

describe('source hash', () => {
  it('is skipped when asked (a statistics view) and changes nothing else', () => {
    const frames = [udpFrame('10.0.0.1', '10.0.0.2', 5000, 53, new Uint8Array(12)), tcpFrame('10.0.0.1', '10.0.0.3', { sport: 4000, dport: 80, flags: TCP_SYN, seq: 5 })];
    const capture = writePcap(frames.map((data, i) => ({ tsSec: 1_700_000_000 + i, data })));
    const hashed = analyzeCaptureBytes(capture, { timeouts: NO_TIMEOUTS, application: false });
    const plain = analyzeCaptureBytes(capture, { timeouts: NO_TIMEOUTS, application: false, sha256: false });
    expect(hashed.sha256).toBe(createHash('sha256').update(capture).digest('hex'));
    expect(plain.sha256).toBe('');
    expect({ ...plain, sha256: hashed.sha256 }).toEqual(hashed);
  });
});
