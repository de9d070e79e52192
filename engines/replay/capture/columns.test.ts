// The flow table's connections as columns: histories longer than a slot's letters, role flips, one-sided tuples, eviction, address kinds; values pinned from the object-per-connection table they replaced.
import { describe, expect, it } from 'vitest';
import { analyzeCaptureBytes } from './analyze.js';
import { TCP_ACK, TCP_FIN, TCP_RST, TCP_SYN, tcpFrame, udpFrame } from './craft.js';
import { Connection, Endpoints, NO_TIMEOUTS, ZEEK_TIMEOUTS, type ConnectionRecord } from './flows.js';
import { writePcap, type PacketToWrite } from './writer.js';

function pcap(frames: Uint8Array[], step = 1): Uint8Array {
  return writePcap(frames.map((data, i) => ({ tsSec: 1_700_000_000 + Math.floor(i * step), tsNsec: Math.round(((i * step) % 1) * 1e9), data }) satisfies PacketToWrite));
}

/** Everything of a record but its uid (as its JSON has it: a parsed record reads columns through getters). */
function shape(c: ConnectionRecord): string {
  const { uid: _uid, ...rest } = JSON.parse(JSON.stringify(c)) as ConnectionRecord;
  return JSON.stringify(rest);
}

describe('connection columns', () => {
  it('give the application layer an object whose uid and transport stay right after its slot is used again', () => {
    const E = new Endpoints(1);
    const slot = E.alloc();
    E.serial[slot] = 42;
    E.proto[slot] = 1;
    const conn = new Connection(E, slot);
    conn.addService('dns');
    conn.addService('dns');
    expect([conn.uid, conn.proto, conn.services]).toEqual(['C42', 'udp', ['dns']]);
    E.release(slot);
    const again = E.alloc();
    expect(again).toBe(slot);
    E.serial[again] = 43;
    E.proto[again] = 0;
    expect([conn.uid, conn.proto]).toEqual(['C42', 'udp']);
  });

  it('give the services a connection confirmed as one sorted list, each name once, and the record the same', () => {
    const E = new Endpoints(1);
    const slot = E.alloc();
    const conn = new Connection(E, slot);
    expect(conn.services).toBeUndefined();
    for (const name of ['ssl', 'dns', 'http', 'dns', 'ssl'] as const) conn.addService(name);
    expect(conn.services).toEqual(['dns', 'http', 'ssl']);
    expect(conn.services).toEqual([...new Set(['ssl', 'dns', 'http'])].sort());
  });

  it('keep a history longer than a slot holds (repeated FINs and RSTs at new sequence numbers) with its state and sizes', () => {
    expect.hasAssertions();
    const a = '10.1.0.1';
    const b = '10.1.0.2';
    const frames = [
      tcpFrame(a, b, { sport: 40000, dport: 80, flags: TCP_SYN, seq: 100, ack: 0 }),
      tcpFrame(b, a, { sport: 80, dport: 40000, flags: TCP_SYN | TCP_ACK, seq: 900, ack: 101 }),
      tcpFrame(a, b, { sport: 40000, dport: 80, flags: TCP_ACK, seq: 101, ack: 901 }, new Uint8Array(10)),
    ];
    for (let i = 0; i < 24; i++) frames.push(tcpFrame(a, b, { sport: 40000, dport: 80, flags: TCP_FIN | TCP_ACK, seq: 111 + i, ack: 901 }, new Uint8Array(i % 3)));
    for (let i = 0; i < 20; i++) frames.push(tcpFrame(b, a, { sport: 80, dport: 40000, flags: TCP_FIN | TCP_ACK, seq: 901 + 2 * i, ack: 140 }));
    for (let i = 0; i < 5; i++) frames.push(tcpFrame(b, a, { sport: 80, dport: 40000, flags: TCP_RST, seq: 1000 + i, ack: 0 }));
    for (const timeouts of [NO_TIMEOUTS, ZEEK_TIMEOUTS]) {
      const r = analyzeCaptureBytes(pcap(frames, 0.001), { timeouts, application: false });
      expect(r.connections.length).toBe(1);
      const c = r.connections[0]!;
      expect(c.history.length).toBeGreaterThan(32);
      expect(shape(c)).toMatchInlineSnapshot(`"{"proto":"tcp","ipProto":6,"origH":"10.1.0.1","origP":40000,"respH":"10.1.0.2","respP":80,"startTs":1700000000,"lastTs":1700000000.027,"duration":0.026999950408935547,"orig":{"packets":26,"ipBytes":1074,"payloadBytes":34,"bytes":38},"resp":{"packets":26,"ipBytes":1040,"payloadBytes":0,"bytes":102},"connState":"SF","history":"ShDFFFFFFFFFFFFFFFFFFFFFFFFffffffffffffffffffffrrrrr","flipped":false,"service":[],"firstPacket":0,"lastPacket":51,"fragmentFrames":0,"tcp":{"handshake":"complete","origState":"closed","respState":"closed","syns":2,"resets":{"orig":0,"resp":5},"fins":{"orig":24,"resp":20}}}"`);
    }
  });

  it('flip roles (a first packet from a server port, SYN and SYN-ACK reversed) over IPv4 and IPv6, and count a tuple to itself on one side', () => {
    expect.hasAssertions();
    const frames: Uint8Array[] = [];
    for (const [a, b] of [
      ['10.2.0.1', '10.2.0.2'],
      ['2001:db8::1', '2001:db8::2'],
    ] as const) {
      // A server's answer first: the server becomes the responder (^).
      frames.push(tcpFrame(b, a, { sport: 443, dport: 50000, flags: TCP_ACK, seq: 7000, ack: 300 }, new Uint8Array(20)));
      frames.push(tcpFrame(a, b, { sport: 50000, dport: 443, flags: TCP_ACK, seq: 300, ack: 7020 }, new Uint8Array(5)));
      // SYN-ACK before SYN on another tuple.
      frames.push(tcpFrame(b, a, { sport: 8443, dport: 50001, flags: TCP_SYN | TCP_ACK, seq: 10, ack: 501 }));
      frames.push(tcpFrame(a, b, { sport: 50001, dport: 8443, flags: TCP_SYN, seq: 500, ack: 0 }));
      frames.push(tcpFrame(a, b, { sport: 50001, dport: 8443, flags: TCP_ACK, seq: 501, ack: 11 }, new Uint8Array(3)));
      // UDP from a DNS server port first.
      frames.push(udpFrame(b, a, 53, 40000, new Uint8Array(30)));
      frames.push(udpFrame(a, b, 40000, 53, new Uint8Array(12)));
      // The same address and port at both ends.
      frames.push(udpFrame(a, a, 7777, 7777, new Uint8Array(4)));
      frames.push(udpFrame(a, a, 7777, 7777, new Uint8Array(6)));
    }
    for (const timeouts of [NO_TIMEOUTS, ZEEK_TIMEOUTS]) {
      const r = analyzeCaptureBytes(pcap(frames), { timeouts, application: false });
      expect(r.connections.map(shape)).toMatchInlineSnapshot(`
        [
          "{"proto":"tcp","ipProto":6,"origH":"10.2.0.1","origP":50000,"respH":"10.2.0.2","respP":443,"startTs":1700000000,"lastTs":1700000001,"duration":1,"orig":{"packets":1,"ipBytes":45,"payloadBytes":5,"bytes":5},"resp":{"packets":1,"ipBytes":60,"payloadBytes":20,"bytes":20},"connState":"OTH","history":"^dD","flipped":true,"service":[],"firstPacket":0,"lastPacket":1,"fragmentFrames":0,"tcp":{"handshake":"midstream","origState":"partial","respState":"partial","syns":0,"resets":{"orig":0,"resp":0},"fins":{"orig":0,"resp":0}}}",
          "{"proto":"tcp","ipProto":6,"origH":"10.2.0.1","origP":50001,"respH":"10.2.0.2","respP":8443,"startTs":1700000002,"lastTs":1700000004,"duration":2,"orig":{"packets":2,"ipBytes":83,"payloadBytes":3,"bytes":3},"resp":{"packets":1,"ipBytes":40,"payloadBytes":0,"bytes":0},"connState":"S1","history":"Hs^D","flipped":true,"service":[],"firstPacket":2,"lastPacket":4,"fragmentFrames":0,"tcp":{"handshake":"complete","origState":"established","respState":"established","syns":2,"resets":{"orig":0,"resp":0},"fins":{"orig":0,"resp":0}}}",
          "{"proto":"udp","ipProto":17,"origH":"10.2.0.1","origP":40000,"respH":"10.2.0.2","respP":53,"startTs":1700000005,"lastTs":1700000006,"duration":1,"orig":{"packets":1,"ipBytes":40,"payloadBytes":12,"bytes":12},"resp":{"packets":1,"ipBytes":58,"payloadBytes":30,"bytes":30},"connState":"SF","history":"^dD","flipped":true,"service":[],"firstPacket":5,"lastPacket":6,"fragmentFrames":0}",
          "{"proto":"udp","ipProto":17,"origH":"10.2.0.1","origP":7777,"respH":"10.2.0.1","respP":7777,"startTs":1700000007,"lastTs":1700000008,"duration":1,"orig":{"packets":2,"ipBytes":66,"payloadBytes":10,"bytes":10},"resp":{"packets":0,"ipBytes":0,"payloadBytes":0,"bytes":0},"connState":"S0","history":"D","flipped":false,"service":[],"firstPacket":7,"lastPacket":8,"fragmentFrames":0}",
          "{"proto":"tcp","ipProto":6,"origH":"2001:db8::1","origP":50000,"respH":"2001:db8::2","respP":443,"startTs":1700000009,"lastTs":1700000010,"duration":1,"orig":{"packets":1,"ipBytes":65,"payloadBytes":5,"bytes":5},"resp":{"packets":1,"ipBytes":80,"payloadBytes":20,"bytes":20},"connState":"OTH","history":"^dD","flipped":true,"service":[],"firstPacket":9,"lastPacket":10,"fragmentFrames":0,"tcp":{"handshake":"midstream","origState":"partial","respState":"partial","syns":0,"resets":{"orig":0,"resp":0},"fins":{"orig":0,"resp":0}}}",
          "{"proto":"tcp","ipProto":6,"origH":"2001:db8::1","origP":50001,"respH":"2001:db8::2","respP":8443,"startTs":1700000011,"lastTs":1700000013,"duration":2,"orig":{"packets":2,"ipBytes":123,"payloadBytes":3,"bytes":3},"resp":{"packets":1,"ipBytes":60,"payloadBytes":0,"bytes":0},"connState":"S1","history":"Hs^D","flipped":true,"service":[],"firstPacket":11,"lastPacket":13,"fragmentFrames":0,"tcp":{"handshake":"complete","origState":"established","respState":"established","syns":2,"resets":{"orig":0,"resp":0},"fins":{"orig":0,"resp":0}}}",
          "{"proto":"udp","ipProto":17,"origH":"2001:db8::1","origP":40000,"respH":"2001:db8::2","respP":53,"startTs":1700000014,"lastTs":1700000015,"duration":1,"orig":{"packets":1,"ipBytes":60,"payloadBytes":12,"bytes":12},"resp":{"packets":1,"ipBytes":78,"payloadBytes":30,"bytes":30},"connState":"SF","history":"^dD","flipped":true,"service":[],"firstPacket":14,"lastPacket":15,"fragmentFrames":0}",
          "{"proto":"udp","ipProto":17,"origH":"2001:db8::1","origP":7777,"respH":"2001:db8::1","respP":7777,"startTs":1700000016,"lastTs":1700000017,"duration":1,"orig":{"packets":2,"ipBytes":106,"payloadBytes":10,"bytes":10},"resp":{"packets":0,"ipBytes":0,"payloadBytes":0,"bytes":0},"connState":"S0","history":"D","flipped":false,"service":[],"firstPacket":16,"lastPacket":17,"fragmentFrames":0}",
        ]
      `);
    }
  });

  it('evict the oldest live connections past the limit, each closed once, and list every connection', () => {
    const frames: Uint8Array[] = [];
    for (let i = 0; i < 40; i++) frames.push(udpFrame(`10.3.0.${i + 1}`, '10.3.1.1', 1000 + i, 9999, new Uint8Array(i)));
    // The first ones speak again after their eviction: new connections.
    for (let i = 0; i < 10; i++) frames.push(udpFrame(`10.3.0.${i + 1}`, '10.3.1.1', 1000 + i, 9999, new Uint8Array(1)));
    const r = analyzeCaptureBytes(pcap(frames), { timeouts: NO_TIMEOUTS, application: false, maxActiveFlows: 16 });
    expect(r.connections.length).toBe(50);
    expect(r.warnings.map((w) => [w.code, w.count])).toEqual([['flow_limit', 34]]);
    expect(r.connections.map((c) => `${c.origH}:${c.origP} ${c.orig.packets} ${c.orig.bytes}`)).toMatchInlineSnapshot(`
      [
        "10.3.0.1:1000 1 0",
        "10.3.0.2:1001 1 1",
        "10.3.0.3:1002 1 2",
        "10.3.0.4:1003 1 3",
        "10.3.0.5:1004 1 4",
        "10.3.0.6:1005 1 5",
        "10.3.0.7:1006 1 6",
        "10.3.0.8:1007 1 7",
        "10.3.0.9:1008 1 8",
        "10.3.0.10:1009 1 9",
        "10.3.0.11:1010 1 10",
        "10.3.0.12:1011 1 11",
        "10.3.0.13:1012 1 12",
        "10.3.0.14:1013 1 13",
        "10.3.0.15:1014 1 14",
        "10.3.0.16:1015 1 15",
        "10.3.0.17:1016 1 16",
        "10.3.0.18:1017 1 17",
        "10.3.0.19:1018 1 18",
        "10.3.0.20:1019 1 19",
        "10.3.0.21:1020 1 20",
        "10.3.0.22:1021 1 21",
        "10.3.0.23:1022 1 22",
        "10.3.0.24:1023 1 23",
        "10.3.0.25:1024 1 24",
        "10.3.0.26:1025 1 25",
        "10.3.0.27:1026 1 26",
        "10.3.0.28:1027 1 27",
        "10.3.0.29:1028 1 28",
        "10.3.0.30:1029 1 29",
        "10.3.0.31:1030 1 30",
        "10.3.0.32:1031 1 31",
        "10.3.0.33:1032 1 32",
        "10.3.0.34:1033 1 33",
        "10.3.0.35:1034 1 34",
        "10.3.0.36:1035 1 35",
        "10.3.0.37:1036 1 36",
        "10.3.0.38:1037 1 37",
        "10.3.0.39:1038 1 38",
        "10.3.0.40:1039 1 39",
        "10.3.0.1:1000 1 1",
        "10.3.0.2:1001 1 1",
        "10.3.0.3:1002 1 1",
        "10.3.0.4:1003 1 1",
        "10.3.0.5:1004 1 1",
        "10.3.0.6:1005 1 1",
        "10.3.0.7:1006 1 1",
        "10.3.0.8:1007 1 1",
        "10.3.0.9:1008 1 1",
        "10.3.0.10:1009 1 1",
      ]
    `);
  });

  it('close and reopen many connections whose slots are reused (Zeek timeouts), the same as without reuse apart from the splits', () => {
    const frames: PacketToWrite[] = [];
    // 300 short TCP sessions, 30 s apart in groups of ten: closed sessions end 5 s after closing, their slots reused.
    for (let i = 0; i < 300; i++) {
      const t = 1_700_000_000 + Math.floor(i / 10) * 30;
      const a = `10.4.${i >> 8}.${i & 0xff}`;
      const s = 1000 * i;
      const pkts = [
        tcpFrame(a, '10.4.9.9', { sport: 30000 + i, dport: 22, flags: TCP_SYN, seq: s, ack: 0 }),
        tcpFrame('10.4.9.9', a, { sport: 22, dport: 30000 + i, flags: TCP_SYN | TCP_ACK, seq: 77, ack: s + 1 }),
        tcpFrame(a, '10.4.9.9', { sport: 30000 + i, dport: 22, flags: TCP_ACK, seq: s + 1, ack: 78 }, new Uint8Array(i % 50)),
        i % 7 === 0
          ? tcpFrame('10.4.9.9', a, { sport: 22, dport: 30000 + i, flags: TCP_RST, seq: 78, ack: 0 })
          : tcpFrame(a, '10.4.9.9', { sport: 30000 + i, dport: 22, flags: TCP_FIN | TCP_ACK, seq: s + 1 + (i % 50), ack: 78 }),
      ];
      for (const data of pkts) frames.push({ tsSec: t, tsNsec: i * 1000, data });
    }
    const r = analyzeCaptureBytes(writePcap(frames), { timeouts: ZEEK_TIMEOUTS, application: false });
    expect(r.connections.length).toBe(300);
    const states = new Map<string, number>();
    for (const c of r.connections) states.set(`${c.connState} ${c.history}`, (states.get(`${c.connState} ${c.history}`) ?? 0) + 1);
    expect([...states].sort()).toMatchInlineSnapshot(`
      [
        [
          "RSTR ShAr",
          1,
        ],
        [
          "RSTR ShDr",
          42,
        ],
        [
          "S2 ShAF",
          5,
        ],
        [
          "S2 ShDF",
          252,
        ],
      ]
    `);
    expect(r.connections.reduce((n, c) => n + c.orig.bytes + c.resp.packets, 0)).toMatchInlineSnapshot(`7693`);
  });
});
