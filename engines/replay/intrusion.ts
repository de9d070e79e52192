// Synthetic intrusion: a known attack (scan, SSH guessing and a login, SMB/RDP pivots, TLS beaconing, DNS tunnelling, a large upload) among N benign flows, as a real pcap.
import { VitrineError } from '../core/errors.js';
import { ascii, concat, ETH_IPV4, ethernet, icmp, ipv4, TCP_ACK, TCP_FIN, TCP_PSH, TCP_RST, TCP_SYN, tcpFrame, udpFrame } from './capture/craft.js';
import { writePcap, type PacketToWrite } from './capture/index.js';
import { mulberry32 } from '../core/random.js';

/** The cast of the attack: documentation addresses (RFC 5737) outside, a private LAN inside. */
export const DEMO_HOSTS = {
  attacker: '198.51.100.23',
  c2: '198.51.100.66',
  victim: '10.0.0.5',
  pivots: ['10.0.0.10', '10.0.0.11', '10.0.0.12'],
  resolver: '10.0.0.2',
  beaconing: '10.0.0.11',
  c2Name: 'cdn-update.example',
  tunnelDomain: 'tunnel-sync.example',
} as const;

import { MAX_BENIGN_FLOWS } from './cli-meta.js';
export { MAX_BENIGN_FLOWS };

export interface IntrusionOptions {
  /** Benign background flows to mix in (0..MAX_BENIGN_FLOWS). */
  readonly benign: number;
  readonly seed?: number;
  /** Capture start, seconds since the epoch. */
  readonly start?: number;
  /** Stops the generation (throws `cancelled`), checked every 1,000 benign flows. */
  readonly signal?: AbortSignal | undefined;
  /** 0..1 of the generation: benign flows written (to 0.85), sorted (0.9), bytes written (1). */
  readonly onProgress?: ((fraction: number) => void) | undefined;
}

export interface IntrusionSummary {
  readonly packets: number;
  readonly benign_flows: number;
  readonly attack_flows: number;
  /** Every address that takes part in the attack (the resolver carries the tunnel, so it is one). */
  readonly attack_hosts: readonly string[];
  readonly start: number;
  readonly end: number;
  readonly phases: ReadonlyArray<{ readonly stage: string; readonly what: string; readonly start: number; readonly end: number }>;
}

/** Packets with their times; sorted into one capture at the end. */
export class Timeline {
  readonly packets: Array<{ ts: number; seq: number; data: Uint8Array; originalLength?: number }> = [];
  private n = 0;
  flows = 0;

  add(ts: number, data: Uint8Array, originalLength?: number): void {
    this.packets.push({ ts, seq: this.n++, data, ...(originalLength !== undefined ? { originalLength } : {}) });
  }

  sorted(): PacketToWrite[] {
    this.packets.sort((a, b) => a.ts - b.ts || a.seq - b.seq);
    return this.packets.map((p) => {
      const sec = Math.floor(p.ts);
      return { tsSec: sec, tsNsec: Math.min(999_999_999, Math.round((p.ts - sec) * 1e9)), data: p.data, ...(p.originalLength !== undefined ? { originalLength: p.originalLength } : {}) };
    });
  }
}

/** One TCP conversation written packet by packet with correct sequence numbers. */
export class TcpSession {
  private cs: number;
  private ss: number;
  t: number;

  constructor(
    private readonly out: Timeline,
    private readonly client: string,
    private readonly server: string,
    private readonly sport: number,
    private readonly dport: number,
    start: number,
    rand: () => number,
  ) {
    this.cs = Math.floor(rand() * 2 ** 31);
    this.ss = Math.floor(rand() * 2 ** 31);
    this.t = start;
    out.flows += 1;
  }

  c2s(flags: number, payload?: Uint8Array, dt = 0.002): this {
    this.t += dt;
    this.out.add(this.t, tcpFrame(this.client, this.server, { sport: this.sport, dport: this.dport, seq: this.cs, ack: this.ss, flags }, payload));
    this.cs = (this.cs + (payload?.length ?? 0) + (flags & (TCP_SYN | TCP_FIN) ? 1 : 0)) >>> 0;
    return this;
  }

  s2c(flags: number, payload?: Uint8Array, dt = 0.002): this {
    this.t += dt;
    this.out.add(this.t, tcpFrame(this.server, this.client, { sport: this.dport, dport: this.sport, seq: this.ss, ack: this.cs, flags }, payload));
    this.ss = (this.ss + (payload?.length ?? 0) + (flags & (TCP_SYN | TCP_FIN) ? 1 : 0)) >>> 0;
    return this;
  }

  /**
   * A large client segment captured with headers only, as a capture on the sending host with segmentation
   * offload and a short snap length records it: the sequence numbers carry the size, the file stays small.
   */
  bulk(bytes: number, dt: number): this {
    this.t += dt;
    const frame = tcpFrame(this.client, this.server, { sport: this.sport, dport: this.dport, seq: this.cs, ack: this.ss, flags: TCP_ACK }, BULK.subarray(0, bytes));
    this.out.add(this.t, frame.slice(0, 54), frame.length);
    this.cs = (this.cs + bytes) >>> 0;
    return this;
  }

  open(rtt = 0.02): this {
    return this.c2s(TCP_SYN, undefined, 0).s2c(TCP_SYN | TCP_ACK, undefined, rtt / 2).c2s(TCP_ACK, undefined, rtt / 2);
  }

  close(): this {
    return this.c2s(TCP_ACK | TCP_FIN).s2c(TCP_ACK | TCP_FIN).c2s(TCP_ACK);
  }
}

const BULK = new Uint8Array(64_000);

function filler(n: number, seed: number): Uint8Array {
  const rand = mulberry32(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

function dnsName(name: string): Uint8Array {
  return concat(...name.split('.').map((l) => concat(Uint8Array.of(l.length), ascii(l))), Uint8Array.of(0));
}

/** A DNS query or its answer (one A record, or NXDOMAIN, or a TXT answer). */
export function dnsMessage(id: number, name: string, qtype: number, answer?: { a?: string; txt?: string; nx?: boolean }): Uint8Array {
  const isResponse = answer !== undefined;
  const rcode = answer?.nx ? 3 : 0;
  const ancount = isResponse && !answer.nx ? 1 : 0;
  const header = Uint8Array.of(id >> 8, id & 0xff, isResponse ? 0x81 : 0x01, isResponse ? 0x80 | rcode : 0, 0, 1, 0, ancount, 0, 0, 0, 0);
  const question = concat(dnsName(name), Uint8Array.of(0, qtype, 0, 1));
  if (ancount === 0) return concat(header, question);
  let rdata: Uint8Array;
  if (answer?.txt !== undefined) {
    const t = ascii(answer.txt);
    rdata = concat(Uint8Array.of(t.length), t);
  } else rdata = Uint8Array.from((answer?.a ?? '0.0.0.0').split('.').map(Number));
  return concat(header, question, Uint8Array.of(0xc0, 12, 0, qtype, 0, 1, 0, 0, 0, 60, rdata.length >> 8, rdata.length & 0xff), rdata);
}

export function clientHello(host: string, seed: number): Uint8Array {
  const name = ascii(host);
  const sni = concat(Uint8Array.of(0, 0, 0, name.length + 5, 0, name.length + 3, 0, 0, name.length), name);
  const body = concat(Uint8Array.of(3, 3), filler(32, seed), Uint8Array.of(0, 0, 6, 0x13, 0x01, 0x13, 0x02, 0xc0, 0x2f, 1, 0, 0, sni.length), sni);
  const hs = concat(Uint8Array.of(1, 0, body.length >> 8, body.length & 0xff), body);
  return concat(Uint8Array.of(0x16, 3, 1, hs.length >> 8, hs.length & 0xff), hs);
}

const SERVER_HELLO = concat(Uint8Array.of(0x16, 3, 3, 0, 42, 2, 0, 0, 38, 3, 3), new Uint8Array(32).fill(5), Uint8Array.of(0, 0x13, 0x01, 0));

export function appData(n: number, seed: number): Uint8Array {
  return concat(Uint8Array.of(0x17, 3, 3, n >> 8, n & 0xff), filler(n, seed));
}

/** SMB2 request over NetBIOS session service: header with the command, then a small body. */
export function smb2(command: number, bodyLength = 36): Uint8Array {
  const header = new Uint8Array(64);
  header.set([0xfe, 0x53, 0x4d, 0x42, 64, 0], 0);
  header[12] = command & 0xff;
  const msg = concat(header, new Uint8Array(bodyLength));
  return concat(Uint8Array.of(0, (msg.length >> 16) & 0xff, (msg.length >> 8) & 0xff, msg.length & 0xff), msg);
}

/** RDP X.224 connection request in TPKT with an mstshash cookie and a negotiation request (TLS | CredSSP). */
export function rdpRequest(user: string): Uint8Array {
  const cookie = ascii(`Cookie: mstshash=${user}\r\n`);
  const neg = Uint8Array.of(1, 0, 8, 0, 3, 0, 0, 0);
  const x224 = concat(Uint8Array.of(6 + cookie.length + neg.length, 0xe0, 0, 0, 0, 0, 0), cookie, neg);
  const len = 4 + x224.length;
  return concat(Uint8Array.of(3, 0, len >> 8, len & 0xff), x224);
}

export function rdpConfirm(): Uint8Array {
  const x224 = Uint8Array.of(14, 0xd0, 0, 0, 0x12, 0x34, 0, 2, 0, 8, 0, 2, 0, 0, 0);
  return concat(Uint8Array.of(3, 0, 0, 4 + x224.length), x224);
}

function attack(out: Timeline, t0: number, rand: () => number): IntrusionSummary['phases'] {
  const h = DEMO_HOSTS;
  const phases: Array<IntrusionSummary['phases'][number]> = [];
  let port = 40000;
  const nextPort = (): number => (port = port >= 60000 ? 40000 : port + 1);

  // Recon: a SYN scan of 40 ports; 22 and 80 answer, the rest refuse.
  let t = t0 + 5;
  const ports = [21, 22, 23, 25, 53, 80, 110, 111, 135, 139, 143, 443, 445, 993, 995, 1433, 1521, 1723, 2049, 3306, 3389, 5432, 5900, 5985, 6379, 8000, 8080, 8443, 9000, 9200, 11211, 27017, 81, 88, 389, 636, 873, 1080, 5060, 8888];
  for (const p of ports) {
    t += 0.01 + rand() * 0.02;
    const s = new TcpSession(out, h.attacker, h.victim, 51000 + (p % 1000), p, t, rand);
    s.c2s(TCP_SYN, undefined, 0);
    if (p === 22 || p === 80) s.s2c(TCP_SYN | TCP_ACK, undefined, 0.01).c2s(TCP_RST, undefined, 0.001);
    else s.s2c(TCP_RST | TCP_ACK, undefined, 0.01);
  }
  phases.push({ stage: 'recon', what: `SYN scan of ${ports.length} ports of ${h.victim}`, start: t0 + 5, end: t });

  // Access: 15 SSH logins that fail, then one that works (long and large).
  const accessStart = t0 + 60;
  t = accessStart;
  for (let i = 0; i < 15; i++) {
    const s = new TcpSession(out, h.attacker, h.victim, nextPort(), 22, t, rand).open();
    s.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3\r\n'), 0.01);
    s.c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-libssh_0.9.6\r\n'), 0.01);
    for (let k = 0; k < 4; k++) {
      s.c2s(TCP_ACK | TCP_PSH, filler(300 + Math.floor(rand() * 200), i * 10 + k), 0.3 + rand() * 0.5);
      s.s2c(TCP_ACK | TCP_PSH, filler(250 + Math.floor(rand() * 200), i * 10 + k + 5), 0.05);
    }
    s.close();
    t = s.t + 2 + rand() * 4;
  }
  const login = new TcpSession(out, h.attacker, h.victim, nextPort(), 22, t + 5, rand).open();
  login.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3\r\n'), 0.01);
  login.c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-libssh_0.9.6\r\n'), 0.01);
  for (let k = 0; k < 40; k++) {
    login.c2s(TCP_ACK | TCP_PSH, filler(600, 900 + k), 2 + rand());
    login.s2c(TCP_ACK | TCP_PSH, filler(1200, 950 + k), 0.05);
  }
  login.close();
  phases.push({ stage: 'access', what: `15 failed SSH logins, then a session of ${Math.round(login.t - (t + 5))} s`, start: accessStart, end: login.t });

  // Movement: the victim opens SMB sessions to three hosts and RDP to one.
  const moveStart = login.t + 60;
  t = moveStart;
  for (const target of h.pivots) {
    const s = new TcpSession(out, h.victim, target, nextPort(), 445, t, rand).open(0.002);
    for (const [cmd, len] of [
      [0, 36],
      [1, 88],
      [3, 40],
      [5, 120],
    ] as const) {
      s.c2s(TCP_ACK | TCP_PSH, smb2(cmd, len), 0.01);
      s.s2c(TCP_ACK | TCP_PSH, smb2(cmd, len + 16), 0.005);
    }
    s.close();
    t = s.t + 3;
  }
  const rdp = new TcpSession(out, h.victim, h.pivots[2], nextPort(), 3389, t + 5, rand).open(0.002);
  rdp.c2s(TCP_ACK | TCP_PSH, rdpRequest('administrator'), 0.01).s2c(TCP_ACK | TCP_PSH, rdpConfirm(), 0.01);
  for (let k = 0; k < 20; k++) rdp.c2s(TCP_ACK | TCP_PSH, filler(400, 2000 + k), 0.5).s2c(TCP_ACK | TCP_PSH, filler(1400, 2100 + k), 0.02);
  rdp.close();
  phases.push({ stage: 'movement', what: `SMB to ${h.pivots.join(', ')}; RDP to ${h.pivots[2]}`, start: moveStart, end: rdp.t });

  // Action: the pivot resolves the C2 name, beacons over TLS every 60 s (jitter up to 5%), tunnels through DNS; the victim uploads 24 MiB.
  const actStart = rdp.t + 30;
  let id = 0x1000;
  const lookup = (client: string, name: string, at: number, qtype = 1, answer: { a?: string; txt?: string; nx?: boolean } = { a: h.c2 }): void => {
    const sport = nextPort();
    out.flows += 1;
    out.add(at, udpFrame(client, h.resolver, sport, 53, dnsMessage(id, name, qtype)));
    out.add(at + 0.004, udpFrame(h.resolver, client, 53, sport, dnsMessage(id, name, qtype, answer)));
    id += 1;
  };
  lookup(h.beaconing, h.c2Name, actStart);
  t = actStart + 1;
  for (let i = 0; i < 12; i++) {
    const s = new TcpSession(out, h.beaconing, h.c2, nextPort(), 443, t, rand).open(0.06);
    s.c2s(TCP_ACK | TCP_PSH, clientHello(h.c2Name, 3000 + i), 0.01).s2c(TCP_ACK | TCP_PSH, SERVER_HELLO, 0.03);
    s.c2s(TCP_ACK | TCP_PSH, appData(180, 3100 + i), 0.01).s2c(TCP_ACK | TCP_PSH, appData(90, 3200 + i), 0.03);
    s.close();
    t += 60 * (1 + (rand() - 0.5) * 0.1);
  }
  const tunnelStart = actStart + 200;
  for (let i = 0; i < 30; i++) {
    const chunk = Buffer.from(filler(20, 5000 + i)).toString('hex');
    lookup(h.beaconing, `${chunk}.${i}.${h.tunnelDomain}`, tunnelStart + i * 1.5 + rand(), 16, { txt: Buffer.from(filler(8, 6000 + i)).toString('hex') });
  }
  const upload = new TcpSession(out, h.victim, h.c2, nextPort(), 8443, actStart + 400, rand).open(0.06);
  // Opening bytes in full, so the parser decides the stream is none of its protocols before the header-only segments start.
  for (let k = 0; k < 4; k++) upload.c2s(TCP_ACK | TCP_PSH, filler(1400, 7000 + k), 0.005);
  for (let k = 0; k < 384; k++) {
    upload.bulk(64_000, 0.01);
    if (k % 8 === 7) upload.s2c(TCP_ACK, undefined, 0.002);
  }
  upload.close();
  phases.push({ stage: 'action', what: `TLS beacons from ${h.beaconing} to ${h.c2} every ~60 s; DNS tunnel through ${h.tunnelDomain}; 24 MiB upload from ${h.victim}`, start: actStart, end: Math.max(t, upload.t) });
  return phases;
}

const BENIGN_NAMES = ['intranet', 'mail', 'wiki', 'files', 'updates', 'calendar', 'chat', 'docs'];

/** One benign flow: DNS, web, TLS, an SMB session to the file server, an admin SSH session, an intranet login, a ping, or an unanswered SYN. */
function benignFlow(out: Timeline, at: number, i: number, rand: () => number): void {
  const client = `10.0.1.${1 + Math.floor(rand() * 200)}`;
  const server = `203.0.113.${1 + Math.floor(rand() * 40)}`;
  const sport = 20000 + (i % 20000);
  const kind = rand();
  if (kind < 0.3) {
    const name = `${BENIGN_NAMES[Math.floor(rand() * BENIGN_NAMES.length)]}.corp.example`;
    const id = Math.floor(rand() * 65536);
    out.flows += 1;
    out.add(at, udpFrame(client, '10.0.0.2', sport, 53, dnsMessage(id, name, 1)));
    out.add(at + 0.003, udpFrame('10.0.0.2', client, 53, sport, dnsMessage(id, name, 1, { a: server })));
    return;
  }
  if (kind < 0.55) {
    const s = new TcpSession(out, client, server, sport, 80, at, rand).open();
    for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) {
      s.c2s(TCP_ACK | TCP_PSH, ascii(`GET /page/${Math.floor(rand() * 1000)} HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: Mozilla/5.0\r\n\r\n`), 0.01);
      s.s2c(TCP_ACK | TCP_PSH, concat(ascii('HTTP/1.1 200 OK\r\nContent-Length: 800\r\n\r\n'), new Uint8Array(800).fill(0x61)), 0.03);
    }
    s.close();
    return;
  }
  if (kind < 0.8) {
    const s = new TcpSession(out, client, server, sport, 443, at, rand).open();
    s.c2s(TCP_ACK | TCP_PSH, clientHello('www.example.com', i), 0.01).s2c(TCP_ACK | TCP_PSH, SERVER_HELLO, 0.02);
    s.c2s(TCP_ACK | TCP_PSH, appData(300, i + 1), 0.01).s2c(TCP_ACK | TCP_PSH, appData(1200, i + 2), 0.02);
    s.close();
    return;
  }
  if (kind < 0.88) {
    // Fan-in to the file server: many clients, one server each.
    const s = new TcpSession(out, client, '10.0.0.20', sport, 445, at, rand).open(0.002);
    s.c2s(TCP_ACK | TCP_PSH, smb2(0), 0.005).s2c(TCP_ACK | TCP_PSH, smb2(0, 60), 0.005);
    s.c2s(TCP_ACK | TCP_PSH, smb2(8, 48), 0.005).s2c(TCP_ACK | TCP_PSH, smb2(8, 4000), 0.01);
    s.close();
    return;
  }
  if (kind < 0.92) {
    // An administrator's interactive SSH session: long and large, never a guess.
    const s = new TcpSession(out, client, '10.0.0.30', sport, 22, at, rand).open(0.002);
    s.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-OpenSSH_9.6\r\n'), 0.01).c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-OpenSSH_9.6\r\n'), 0.01);
    for (let k = 0; k < 30; k++) s.c2s(TCP_ACK | TCP_PSH, filler(200, i + k), 1 + rand()).s2c(TCP_ACK | TCP_PSH, filler(900, i + k + 1), 0.02);
    s.close();
    return;
  }
  if (kind < 0.95) {
    // An intranet page behind Basic authentication: cleartext, and answered 200.
    const s = new TcpSession(out, client, '10.0.0.30', sport, 80, at, rand).open(0.002);
    s.c2s(TCP_ACK | TCP_PSH, ascii(`GET /reports HTTP/1.1\r\nHost: intranet.corp.example\r\nAuthorization: Basic ${Buffer.from(`user${Math.floor(rand() * 50)}:secret`).toString('base64')}\r\n\r\n`), 0.01);
    s.s2c(TCP_ACK | TCP_PSH, ascii('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'), 0.01);
    s.close();
    return;
  }
  if (kind < 0.98) {
    const ident = Math.floor(rand() * 65536);
    out.flows += 1;
    out.add(at, ethernet(ETH_IPV4, ipv4({ src: client, dst: server, protocol: 1 }, icmp(8, 0, (ident << 16) | 1, new Uint8Array(56)))));
    out.add(at + 0.01, ethernet(ETH_IPV4, ipv4({ src: server, dst: client, protocol: 1 }, icmp(0, 0, (ident << 16) | 1, new Uint8Array(56)))));
    return;
  }
  // A connection attempt nobody answers (a laptop on a dead printer).
  new TcpSession(out, client, `10.0.2.${1 + Math.floor(rand() * 250)}`, sport, 9100, at, rand).c2s(TCP_SYN, undefined, 0);
}

/** The attack and `benign` background flows spread over the same half hour, as packets in time order. */
export function generateIntrusion(options: IntrusionOptions): { packets: PacketToWrite[]; summary: IntrusionSummary } {
  const benign = Math.floor(options.benign);
  if (!Number.isInteger(benign) || benign < 0 || benign > MAX_BENIGN_FLOWS) throw new RangeError('benign flow count out of range');
  const rand = mulberry32(options.seed ?? 7);
  const t0 = options.start ?? 1_700_000_000;
  const out = new Timeline();
  const phases = attack(out, t0, rand);
  const attackFlows = out.flows;
  const end = Math.max(...phases.map((p) => p.end));
  const bgRand = mulberry32((options.seed ?? 7) + 1);
  for (let i = 0; i < benign; i++) {
    if (i % 1000 === 0) {
      if (options.signal?.aborted) throw new VitrineError('cancelled', 'the analysis was cancelled');
      options.onProgress?.((0.85 * i) / benign);
    }
    benignFlow(out, t0 + bgRand() * (end - t0), i, bgRand);
  }
  options.onProgress?.(0.85);
  const packets = out.sorted();
  options.onProgress?.(0.9);
  const h = DEMO_HOSTS;
  return {
    packets,
    summary: {
      packets: packets.length,
      benign_flows: benign,
      attack_flows: attackFlows,
      attack_hosts: [h.attacker, h.c2, h.victim, ...h.pivots, h.resolver],
      start: t0,
      end,
      phases,
    },
  };
}

/** The intrusion as pcap bytes (microsecond, little-endian, Ethernet). */
export function intrusionPcap(options: IntrusionOptions): { bytes: Uint8Array; summary: IntrusionSummary } {
  const { packets, summary } = generateIntrusion(options);
  const bytes = writePcap(packets);
  options.onProgress?.(1);
  return { bytes, summary };
}
