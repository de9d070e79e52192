// Seeded benign background traffic (DNS lookups, HTTP and TLS sessions, pings) as real frames, for the benchmark and synthetic captures.
import { ascii, concat, ETH_IPV4, ethernet, icmp, ipv4, TCP_ACK, TCP_FIN, TCP_PSH, TCP_SYN, tcpFrame, udpFrame } from './craft.js';
import type { PacketToWrite } from './writer.js';
import { mulberry32 } from '../../core/random.js';

export interface BackgroundOptions {
  /** Stop after about this many packets (the last session is completed). */
  readonly packets: number;
  readonly seed?: number;
  /** Capture start, seconds since the epoch. */
  readonly start?: number;
  /** Client hosts (10.20.x.y) and servers (203.0.113.x) to draw from. */
  readonly clients?: number;
  readonly servers?: number;
}

/** What was generated, for checking a parser's counts against. */
export interface BackgroundSummary {
  packets: number;
  tcpSessions: number;
  dnsLookups: number;
  pings: number;
  httpRequests: number;
  tlsHellos: number;
}

const NAMES = ['intranet', 'mail', 'updates', 'cdn', 'api', 'wiki', 'files', 'auth'];

function dnsQuery(id: number, name: string, response: boolean, address: string): Uint8Array {
  const labels = concat(...name.split('.').map((l) => concat(Uint8Array.of(l.length), ascii(l))), Uint8Array.of(0));
  const header = Uint8Array.of(id >> 8, id & 0xff, response ? 0x81 : 0x01, response ? 0x80 : 0x00, 0, 1, 0, response ? 1 : 0, 0, 0, 0, 0);
  const question = concat(labels, Uint8Array.of(0, 1, 0, 1));
  if (!response) return concat(header, question);
  const a = address.split('.').map(Number);
  return concat(header, question, Uint8Array.of(0xc0, 12, 0, 1, 0, 1, 0, 0, 1, 0x2c, 0, 4, ...a));
}

function clientHello(host: string): Uint8Array {
  const name = ascii(host);
  const sni = concat(Uint8Array.of(0, 0, 0, name.length + 5, 0, name.length + 3, 0, 0, name.length), name);
  const body = concat(Uint8Array.of(3, 3), new Uint8Array(32).fill(9), Uint8Array.of(0, 0, 4, 0x13, 0x01, 0xc0, 0x2f, 1, 0, 0, sni.length), sni);
  const hs = concat(Uint8Array.of(1, 0, body.length >> 8, body.length & 0xff), body);
  return concat(Uint8Array.of(0x16, 3, 1, hs.length >> 8, hs.length & 0xff), hs);
}

/**
 * Emits benign sessions in time order until about `packets` frames were produced. Each TCP session
 * has a full handshake and close, so every connection is SF; the mix is 45% HTTP, 25% TLS, 25% DNS, 5% ping.
 */
export function generateBackground(options: BackgroundOptions, emit: (p: PacketToWrite) => void): BackgroundSummary {
  const rand = mulberry32(options.seed ?? 1);
  const clients = options.clients ?? 200;
  const servers = options.servers ?? 40;
  let t = options.start ?? 1_700_000_000;
  const summary: BackgroundSummary = { packets: 0, tcpSessions: 0, dnsLookups: 0, pings: 0, httpRequests: 0, tlsHellos: 0 };
  let port = 20000;
  const out = (data: Uint8Array): void => {
    t += 0.0002 + rand() * 0.002;
    const sec = Math.floor(t);
    emit({ tsSec: sec, tsNsec: Math.floor((t - sec) * 1e9), data });
    summary.packets += 1;
  };
  const body = new Uint8Array(1200).fill(0x78);
  while (summary.packets < options.packets) {
    const c = Math.floor(rand() * clients);
    const client = `10.20.${c >> 8}.${(c & 0xff) + 1}`;
    const server = `203.0.113.${1 + Math.floor(rand() * servers)}`;
    const host = `${NAMES[Math.floor(rand() * NAMES.length)]}.example.org`;
    port = port >= 60000 ? 20000 : port + 1;
    const kind = rand();
    if (kind < 0.25) {
      const id = Math.floor(rand() * 65536);
      out(udpFrame(client, '192.0.2.53', port, 53, dnsQuery(id, host, false, server)));
      out(udpFrame('192.0.2.53', client, 53, port, dnsQuery(id, host, true, server)));
      summary.dnsLookups += 1;
      continue;
    }
    if (kind < 0.3) {
      const id = Math.floor(rand() * 65536);
      out(ethernet(ETH_IPV4, ipv4({ src: client, dst: server, protocol: 1 }, icmp(8, 0, (id << 16) | 1, new Uint8Array(56)))));
      out(ethernet(ETH_IPV4, ipv4({ src: server, dst: client, protocol: 1 }, icmp(0, 0, (id << 16) | 1, new Uint8Array(56)))));
      summary.pings += 1;
      continue;
    }
    const tls = kind < 0.55;
    const dport = tls ? 443 : 80;
    let cs = Math.floor(rand() * 2 ** 31);
    let ss = Math.floor(rand() * 2 ** 31);
    const c2s = (flags: number, payload?: Uint8Array): void => {
      out(tcpFrame(client, server, { sport: port, dport, seq: cs, ack: ss, flags }, payload));
      cs = (cs + (payload?.length ?? 0) + (flags & (TCP_SYN | TCP_FIN) ? 1 : 0)) >>> 0;
    };
    const s2c = (flags: number, payload?: Uint8Array): void => {
      out(tcpFrame(server, client, { sport: dport, dport: port, seq: ss, ack: cs, flags }, payload));
      ss = (ss + (payload?.length ?? 0) + (flags & (TCP_SYN | TCP_FIN) ? 1 : 0)) >>> 0;
    };
    c2s(TCP_SYN);
    s2c(TCP_SYN | TCP_ACK);
    c2s(TCP_ACK);
    if (tls) {
      c2s(TCP_ACK | TCP_PSH, clientHello(host));
      s2c(TCP_ACK | TCP_PSH, concat(Uint8Array.of(0x16, 3, 3, 0, 42, 2, 0, 0, 38, 3, 3), new Uint8Array(32).fill(5), Uint8Array.of(0, 0x13, 0x01, 0)));
      const rounds = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < rounds; i++) {
        c2s(TCP_ACK | TCP_PSH, concat(Uint8Array.of(0x17, 3, 3, 0, 200), new Uint8Array(200)));
        s2c(TCP_ACK | TCP_PSH, concat(Uint8Array.of(0x17, 3, 3, 4, 0), body.subarray(0, 1024)));
      }
      summary.tlsHellos += 1;
    } else {
      const requests = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < requests; i++) {
        c2s(TCP_ACK | TCP_PSH, ascii(`GET /page/${Math.floor(rand() * 1000)} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: synthetic/1.0\r\n\r\n`));
        s2c(TCP_ACK | TCP_PSH, concat(ascii(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`), body));
        summary.httpRequests += 1;
      }
    }
    c2s(TCP_ACK | TCP_FIN);
    s2c(TCP_ACK | TCP_FIN);
    c2s(TCP_ACK);
    summary.tcpSessions += 1;
  }
  return summary;
}
