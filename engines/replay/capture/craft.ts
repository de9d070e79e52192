// Builds well-formed frames (Ethernet/VLAN, SLL, SLL2, NULL, IPv4/IPv6 with options and extension headers, TCP/UDP/ICMP) for tests and synthetic captures.

/** Parses dotted IPv4 or RFC 4291 IPv6 text into bytes; throws on anything else (inputs here are our own constants). */
export function addressBytes(text: string): Uint8Array {
  if (text.includes(':')) return ipv6Bytes(text);
  const parts = text.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error('bad IPv4 literal');
  return Uint8Array.from(parts);
}

function ipv6Bytes(text: string): Uint8Array {
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const all = [...h, ...new Array<number>(fill).fill(0), ...t];
  if (all.length !== 8 || all.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) throw new Error('bad IPv6 literal');
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function u16(v: number): Uint8Array {
  return Uint8Array.of((v >> 8) & 0xff, v & 0xff);
}

function u32(v: number): Uint8Array {
  return Uint8Array.of((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

/** Internet checksum (RFC 1071) over the concatenation of parts. */
export function internetChecksum(...parts: Uint8Array[]): number {
  let sum = 0;
  let odd = -1;
  for (const p of parts) {
    for (const b of p) {
      if (odd < 0) odd = b;
      else {
        sum += (odd << 8) | b;
        odd = -1;
      }
    }
  }
  if (odd >= 0) sum += odd << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

export const ETH_IPV4 = 0x0800;
export const ETH_IPV6 = 0x86dd;

const MAC_A = Uint8Array.of(0x02, 0, 0, 0, 0, 0x01);
const MAC_B = Uint8Array.of(0x02, 0, 0, 0, 0, 0x02);

export interface EthernetOptions {
  readonly src?: Uint8Array;
  readonly dst?: Uint8Array;
  /** VLAN ids, outermost first; the first uses TPID 0x88a8 when `qinq` is set, else 0x8100. */
  readonly vlans?: readonly number[];
  readonly qinq?: boolean;
}

export function ethernet(etherType: number, payload: Uint8Array, options: EthernetOptions = {}): Uint8Array {
  const tags: Uint8Array[] = [];
  (options.vlans ?? []).forEach((id, i) => {
    tags.push(concat(u16(i === 0 && options.qinq ? 0x88a8 : 0x8100), u16(id & 0x0fff)));
  });
  return concat(options.dst ?? MAC_B, options.src ?? MAC_A, ...tags, u16(etherType), payload);
}

/** Linux cooked capture v1 (LINKTYPE_LINUX_SLL, 113). */
export function sll(protocol: number, payload: Uint8Array): Uint8Array {
  return concat(u16(0), u16(1), u16(6), MAC_A, Uint8Array.of(0, 0), u16(protocol), payload);
}

/** Linux cooked capture v2 (LINKTYPE_LINUX_SLL2, 276). */
export function sll2(protocol: number, payload: Uint8Array): Uint8Array {
  return concat(u16(protocol), u16(0), u32(2), u16(1), Uint8Array.of(0, 6), MAC_A, Uint8Array.of(0, 0), payload);
}

/** BSD loopback (LINKTYPE_NULL, 0): address family in the capturing host's byte order (little-endian here). */
export function nullLoopback(family: number, payload: Uint8Array, bigEndian = false): Uint8Array {
  const fam = bigEndian ? u32(family) : Uint8Array.of(family & 0xff, (family >> 8) & 0xff, 0, 0);
  return concat(fam, payload);
}

export interface Ipv4Options {
  readonly src: string;
  readonly dst: string;
  readonly protocol: number;
  readonly id?: number;
  readonly ttl?: number;
  readonly dontFragment?: boolean;
  readonly moreFragments?: boolean;
  /** Fragment offset in bytes (a multiple of 8). */
  readonly fragmentOffset?: number;
  /** Raw IP options, padded here to a multiple of 4. */
  readonly options?: Uint8Array;
}

export function ipv4(o: Ipv4Options, payload: Uint8Array): Uint8Array {
  const opts = o.options ?? new Uint8Array(0);
  const padded = new Uint8Array((opts.length + 3) & ~3);
  padded.set(opts);
  const ihl = 5 + padded.length / 4;
  const flags = (o.dontFragment ? 0x4000 : 0) | (o.moreFragments ? 0x2000 : 0) | ((o.fragmentOffset ?? 0) >> 3);
  const header = concat(
    Uint8Array.of(0x40 | ihl, 0),
    u16(ihl * 4 + payload.length),
    u16(o.id ?? 0),
    u16(flags),
    Uint8Array.of(o.ttl ?? 64, o.protocol),
    u16(0),
    addressBytes(o.src),
    addressBytes(o.dst),
    padded,
  );
  const sum = internetChecksum(header);
  header[10] = sum >> 8;
  header[11] = sum & 0xff;
  return concat(header, payload);
}

/** One IPv6 extension header to put between the fixed header and the transport. */
export interface Ipv6Extension {
  /** 0 hop-by-hop, 43 routing, 44 fragment, 60 destination options. */
  readonly type: 0 | 43 | 44 | 60;
  /** For a fragment header. */
  readonly fragmentOffset?: number;
  readonly moreFragments?: boolean;
  readonly id?: number;
}

export interface Ipv6Options {
  readonly src: string;
  readonly dst: string;
  readonly nextHeader: number;
  readonly hopLimit?: number;
  readonly extensions?: readonly Ipv6Extension[];
}

export function ipv6(o: Ipv6Options, payload: Uint8Array): Uint8Array {
  const exts = o.extensions ?? [];
  const chain: Uint8Array[] = [];
  exts.forEach((e, i) => {
    const next = i + 1 < exts.length ? (exts[i + 1]?.type ?? o.nextHeader) : o.nextHeader;
    if (e.type === 44) {
      const off = ((e.fragmentOffset ?? 0) & ~7) | (e.moreFragments ? 1 : 0);
      chain.push(concat(Uint8Array.of(next, 0), u16(off), u32(e.id ?? 0)));
    } else {
      // 8 bytes: next header, length 0 (meaning 8 octets), then a PadN option filling the rest.
      chain.push(Uint8Array.of(next, 0, 1, 4, 0, 0, 0, 0));
    }
  });
  const ext = concat(...chain);
  const first = exts.length > 0 ? (exts[0]?.type ?? o.nextHeader) : o.nextHeader;
  return concat(
    u32(0x60000000),
    u16(ext.length + payload.length),
    Uint8Array.of(first, o.hopLimit ?? 64),
    addressBytes(o.src),
    addressBytes(o.dst),
    ext,
    payload,
  );
}

export const TCP_FIN = 0x01;
export const TCP_SYN = 0x02;
export const TCP_RST = 0x04;
export const TCP_PSH = 0x08;
export const TCP_ACK = 0x10;

export interface TcpOptions {
  readonly sport: number;
  readonly dport: number;
  readonly seq?: number;
  readonly ack?: number;
  readonly flags: number;
  readonly window?: number;
  /** Raw TCP options, padded to a multiple of 4. */
  readonly options?: Uint8Array;
}

function pseudoHeader(src: string, dst: string, protocol: number, length: number): Uint8Array {
  const s = addressBytes(src);
  const d = addressBytes(dst);
  return s.length === 4
    ? concat(s, d, Uint8Array.of(0, protocol), u16(length))
    : concat(s, d, u32(length), Uint8Array.of(0, 0, 0, protocol));
}

/** A TCP segment with a correct checksum for the given addresses. */
export function tcp(src: string, dst: string, o: TcpOptions, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const opts = o.options ?? new Uint8Array(0);
  const padded = new Uint8Array((opts.length + 3) & ~3);
  padded.set(opts);
  const doff = 5 + padded.length / 4;
  const seg = concat(
    u16(o.sport),
    u16(o.dport),
    u32(o.seq ?? 0),
    u32(o.ack ?? 0),
    Uint8Array.of(doff << 4, o.flags),
    u16(o.window ?? 65535),
    u16(0),
    u16(0),
    padded,
    payload,
  );
  const sum = internetChecksum(pseudoHeader(src, dst, 6, seg.length), seg);
  seg[16] = sum >> 8;
  seg[17] = sum & 0xff;
  return seg;
}

export function udp(src: string, dst: string, sport: number, dport: number, payload: Uint8Array): Uint8Array {
  const seg = concat(u16(sport), u16(dport), u16(8 + payload.length), u16(0), payload);
  const sum = internetChecksum(pseudoHeader(src, dst, 17, seg.length), seg) || 0xffff;
  seg[6] = sum >> 8;
  seg[7] = sum & 0xff;
  return seg;
}

/** ICMP (v4) or ICMPv6 message; for echo, `rest` holds identifier and sequence. */
export function icmp(type: number, code: number, rest: number, payload: Uint8Array = new Uint8Array(0), v6?: { src: string; dst: string }): Uint8Array {
  const msg = concat(Uint8Array.of(type, code), u16(0), u32(rest), payload);
  const sum = v6 ? internetChecksum(pseudoHeader(v6.src, v6.dst, 58, msg.length), msg) : internetChecksum(msg);
  msg[2] = sum >> 8;
  msg[3] = sum & 0xff;
  return msg;
}

/** Convenience: an Ethernet + IPv4/IPv6 + TCP frame. */
export function tcpFrame(src: string, dst: string, o: TcpOptions, payload?: Uint8Array, eth: EthernetOptions = {}): Uint8Array {
  const seg = tcp(src, dst, o, payload);
  if (src.includes(':')) return ethernet(ETH_IPV6, ipv6({ src, dst, nextHeader: 6 }, seg), eth);
  return ethernet(ETH_IPV4, ipv4({ src, dst, protocol: 6 }, seg), eth);
}

/** Convenience: an Ethernet + IPv4/IPv6 + UDP frame. */
export function udpFrame(src: string, dst: string, sport: number, dport: number, payload: Uint8Array, eth: EthernetOptions = {}): Uint8Array {
  const seg = udp(src, dst, sport, dport, payload);
  if (src.includes(':')) return ethernet(ETH_IPV6, ipv6({ src, dst, nextHeader: 17 }, seg), eth);
  return ethernet(ETH_IPV4, ipv4({ src, dst, protocol: 17 }, seg), eth);
}
