// Decodes link (Ethernet/VLAN, SLL, SLL2, raw IP, NULL/loopback), IPv4/IPv6 and TCP/UDP/ICMP headers into one reusable record, bounds-checked.
import type { RawPacket } from './types.js';
import type { WarningCode, WarningCounter } from './warnings.js';

export const LINKTYPE_NULL = 0;
export const LINKTYPE_ETHERNET = 1;
export const LINKTYPE_RAW = 101;
export const LINKTYPE_LOOP = 108;
export const LINKTYPE_LINUX_SLL = 113;
export const LINKTYPE_IPV4 = 228;
export const LINKTYPE_IPV6 = 229;
export const LINKTYPE_LINUX_SLL2 = 276;

export const PROTO_ICMP = 1;
export const PROTO_TCP = 6;
export const PROTO_UDP = 17;
export const PROTO_ICMPV6 = 58;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const ETHERTYPE_ARP = 0x0806;
const ETHERTYPE_VLAN = 0x8100;
const ETHERTYPE_QINQ = 0x88a8;
const ETHERTYPE_QINQ_OLD = 0x9100;
const ETHERTYPE_PPPOE_SESSION = 0x8864;

/** Most VLAN tags we walk before giving up on a frame. */
const MAX_VLAN_TAGS = 8;
/** Most IPv6 extension headers we walk. */
const MAX_IPV6_EXTENSIONS = 16;

/** Where decoding stopped: 'ip' and 'transport' carry addresses; the others say why there is nothing more. */
export type DecodeLevel = 'none' | 'link' | 'ip' | 'transport';

/**
 * One decoded packet. A single instance is reused for every packet (no allocation per packet);
 * `buf` may be the packet's own bytes or a reassembled datagram, and is valid only during processing.
 */
export class DecodedPacket {
  level: DecodeLevel = 'none';
  /** EtherType (or equivalent) of the network layer, when the link layer said. */
  etherType = 0;
  vlanCount = 0;
  /** Outermost VLAN id (0 when untagged). */
  vlan = 0;
  /** 4 or 6 when an IP header was decoded. */
  ipVersion = 0;
  /** IPv4 addresses as unsigned 32-bit integers. */
  srcV4 = 0;
  dstV4 = 0;
  /** IPv6 addresses as 8 UTF-16 code units, one per 16-bit group (compact map keys; see formatIpv6). */
  srcV6 = '';
  dstV6 = '';
  ipProto = 0;
  /** IP-level length of the datagram from its header (Zeek's ip bytes): total length, or payload length + 40. */
  ipLength = 0;
  ttl = 0;
  ipOptions = false;
  /** True when this IP packet is a fragment (offset or more-fragments set). */
  fragment = false;
  fragmentOffset = 0;
  moreFragments = false;
  fragmentId = 0;
  /** Bytes holding the transport header and payload, and where they start and end (captured). */
  buf: Uint8Array = new Uint8Array(0);
  transportOffset = 0;
  transportEnd = 0;
  /** Transport payload length per the headers (may exceed what was captured). */
  transportWireLength = 0;
  sport = 0;
  dport = 0;
  tcpFlags = 0;
  seq = 0;
  ack = 0;
  window = 0;
  icmpType = 0;
  icmpCode = 0;
  /** Application payload: offset into buf, captured length, and length on the wire. */
  payloadOffset = 0;
  payloadLength = 0;
  payloadWireLength = 0;

  reset(): void {
    this.level = 'none';
    this.etherType = 0;
    this.vlanCount = 0;
    this.vlan = 0;
    this.ipVersion = 0;
    this.ipProto = 0;
    this.ipOptions = false;
    this.fragment = false;
    this.fragmentOffset = 0;
    this.moreFragments = false;
    this.sport = 0;
    this.dport = 0;
    this.tcpFlags = 0;
    this.icmpType = 0;
    this.icmpCode = 0;
    this.payloadLength = 0;
    this.payloadWireLength = 0;
  }
}

/** Non-IP and link-level counters kept by the decoder. */
export interface DecodeStats {
  nonIp: number;
  arp: number;
  ipv4: number;
  ipv6: number;
  vlanTagged: number;
  ipv4WithOptions: number;
  fragments: number;
  /** Packets whose captured bytes end before what their headers announce (snap length), not damage. */
  snapTruncated: number;
}

export function newDecodeStats(): DecodeStats {
  return { nonIp: 0, arp: 0, ipv4: 0, ipv6: 0, vlanTagged: 0, ipv4WithOptions: 0, fragments: 0, snapTruncated: 0 };
}

/** An IPv6 address as 8 code units (one per group): short to hash, ordered like the address. */
export function ipv6Key(b: Uint8Array, at: number): string {
  return String.fromCharCode(
    (b[at]! << 8) | b[at + 1]!,
    (b[at + 2]! << 8) | b[at + 3]!,
    (b[at + 4]! << 8) | b[at + 5]!,
    (b[at + 6]! << 8) | b[at + 7]!,
    (b[at + 8]! << 8) | b[at + 9]!,
    (b[at + 10]! << 8) | b[at + 11]!,
    (b[at + 12]! << 8) | b[at + 13]!,
    (b[at + 14]! << 8) | b[at + 15]!,
  );
}

/** Decodes layers 2-4; returns the level reached. Damage is counted against the packet, never thrown. */
export class PacketDecoder {
  readonly stats: DecodeStats = newDecodeStats();
  private raw: RawPacket | undefined;

  constructor(private readonly warnings: WarningCounter) {}

  private warn(code: WarningCode): void {
    const raw = this.raw;
    this.warnings.add(code, raw?.offset ?? 0, raw?.index);
  }

  decode(raw: RawPacket, out: DecodedPacket): DecodeLevel {
    this.raw = raw;
    out.reset();
    // The packet is bytes[base, end) of the reader's buffer: offsets below are into that buffer (no view per packet).
    const b = raw.bytes;
    const base = raw.start;
    const len = raw.capturedLength;
    const end = base + len;
    let off = base;
    let etherType = -1;
    switch (raw.linkType) {
      case LINKTYPE_ETHERNET:
        if (len < 14) return this.linkShort(out);
        off = base + 12;
        break;
      case LINKTYPE_LINUX_SLL:
        if (len < 16) return this.linkShort(out);
        off = base + 14;
        break;
      case LINKTYPE_LINUX_SLL2:
        if (len < 20) return this.linkShort(out);
        etherType = (b[base]! << 8) | b[base + 1]!;
        off = base + 20;
        break;
      case LINKTYPE_RAW:
      case LINKTYPE_IPV4:
      case LINKTYPE_IPV6:
        etherType = len > 0 && b[base]! >> 4 === 6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4;
        break;
      case LINKTYPE_NULL:
      case LINKTYPE_LOOP: {
        if (len < 4) return this.linkShort(out);
        // NULL stores the family in the capturing host's byte order; LOOP is always big-endian.
        const b0 = b[base]!;
        const b1 = b[base + 1]!;
        const b2 = b[base + 2]!;
        const b3 = b[base + 3]!;
        const fam =
          raw.linkType === LINKTYPE_LOOP || (b0 === 0 && b1 === 0) ? ((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0 : (b0 | (b1 << 8) | (b2 << 16) | (b3 << 24)) >>> 0;
        // AF_INET is 2 everywhere; AF_INET6 is 10 (Linux), 24 (NetBSD/OpenBSD), 28 (FreeBSD), 30 (macOS).
        if (fam === 2) etherType = ETHERTYPE_IPV4;
        else if (fam === 10 || fam === 24 || fam === 28 || fam === 30) etherType = ETHERTYPE_IPV6;
        else etherType = 0;
        off = base + 4;
        break;
      }
      default:
        this.warn('unsupported_link_type');
        return 'none';
    }
    if (etherType < 0) {
      // Ethernet-style: a type field at `off`, possibly behind VLAN tags.
      if (off + 2 > end) return this.linkShort(out);
      etherType = (b[off]! << 8) | b[off + 1]!;
      off += 2;
      let tags = 0;
      while (etherType === ETHERTYPE_VLAN || etherType === ETHERTYPE_QINQ || etherType === ETHERTYPE_QINQ_OLD) {
        if (off + 4 > end || tags >= MAX_VLAN_TAGS) return this.linkShort(out);
        if (tags === 0) out.vlan = ((b[off]! << 8) | b[off + 1]!) & 0x0fff;
        etherType = (b[off + 2]! << 8) | b[off + 3]!;
        off += 4;
        tags += 1;
      }
      out.vlanCount = tags;
      if (tags > 0) this.stats.vlanTagged += 1;
      if (etherType === ETHERTYPE_PPPOE_SESSION) {
        // PPPoE header (6) then the PPP protocol (2): 0x0021 IPv4, 0x0057 IPv6.
        if (off + 8 > end) return this.linkShort(out);
        const ppp = (b[off + 6]! << 8) | b[off + 7]!;
        etherType = ppp === 0x0021 ? ETHERTYPE_IPV4 : ppp === 0x0057 ? ETHERTYPE_IPV6 : 0;
        off += 8;
      }
    }
    out.etherType = etherType;
    out.level = 'link';
    if (etherType === ETHERTYPE_IPV4) return this.ipv4(b, off, end, out, raw.originalLength - (off - base));
    if (etherType === ETHERTYPE_IPV6) return this.ipv6(b, off, end, out, raw.originalLength - (off - base));
    if (etherType === ETHERTYPE_ARP) this.stats.arp += 1;
    this.stats.nonIp += 1;
    return 'link';
  }

  private linkShort(out: DecodedPacket): DecodeLevel {
    this.warn('truncated_link_header');
    out.level = 'none';
    return 'none';
  }

  /** The IPv4 header at b[off], the captured packet ending at `len`; `wireLeft` is the original length from `off`. */
  private ipv4(b: Uint8Array, off: number, len: number, out: DecodedPacket, wireLeft: number): DecodeLevel {
    if (off + 20 > len) {
      this.warn('truncated_ip_header');
      return 'link';
    }
    const vihl = b[off]!;
    const ihl = (vihl & 0x0f) * 4;
    if (vihl >> 4 !== 4 || ihl < 20) {
      this.warn('bad_ip_header');
      return 'link';
    }
    if (off + ihl > len) {
      this.warn('truncated_ip_header');
      return 'link';
    }
    let total = (b[off + 2]! << 8) | b[off + 3]!;
    // A zero total length comes from TCP segmentation offload; take what was captured.
    if (total === 0) total = wireLeft;
    if (total < ihl) {
      this.warn('bad_ip_header');
      return 'link';
    }
    this.stats.ipv4 += 1;
    const frag = (b[off + 6]! << 8) | b[off + 7]!;
    out.ipVersion = 4;
    out.ipLength = total;
    out.ttl = b[off + 8]!;
    out.ipProto = b[off + 9]!;
    out.srcV4 = ((b[off + 12]! << 24) | (b[off + 13]! << 16) | (b[off + 14]! << 8) | b[off + 15]!) >>> 0;
    out.dstV4 = ((b[off + 16]! << 24) | (b[off + 17]! << 16) | (b[off + 18]! << 8) | b[off + 19]!) >>> 0;
    out.ipOptions = ihl > 20;
    if (out.ipOptions) this.stats.ipv4WithOptions += 1;
    out.moreFragments = (frag & 0x2000) !== 0;
    out.fragmentOffset = (frag & 0x1fff) * 8;
    out.fragment = out.moreFragments || out.fragmentOffset > 0;
    out.fragmentId = (b[off + 4]! << 8) | b[off + 5]!;
    out.level = 'ip';
    const start = off + ihl;
    // Ethernet pads short frames: the IP total length, not the frame, says where the datagram ends.
    const end = Math.min(len, off + total);
    if (off + total > len) this.stats.snapTruncated += 1;
    out.buf = b;
    out.transportOffset = start;
    out.transportEnd = end;
    out.transportWireLength = total - ihl;
    if (out.fragment) {
      this.stats.fragments += 1;
      return 'ip';
    }
    return this.transport(out);
  }

  /** The IPv6 header at b[off], the captured packet ending at `len`; `wireLeft` is the original length from `off`. */
  private ipv6(b: Uint8Array, off: number, len: number, out: DecodedPacket, wireLeft: number): DecodeLevel {
    if (off + 40 > len) {
      this.warn('truncated_ip_header');
      return 'link';
    }
    if (b[off]! >> 4 !== 6) {
      this.warn('bad_ip_header');
      return 'link';
    }
    this.stats.ipv6 += 1;
    let payloadLen = (b[off + 4]! << 8) | b[off + 5]!;
    // A zero payload length means a jumbogram; the frame length is the best we have.
    if (payloadLen === 0) payloadLen = Math.max(0, wireLeft - 40);
    out.ipVersion = 6;
    out.ipLength = payloadLen + 40;
    out.ttl = b[off + 7]!;
    out.srcV6 = ipv6Key(b, off + 8);
    out.dstV6 = ipv6Key(b, off + 24);
    out.level = 'ip';
    const end = Math.min(len, off + 40 + payloadLen);
    if (off + 40 + payloadLen > len) this.stats.snapTruncated += 1;
    let next = b[off + 6]!;
    let pos = off + 40;
    let walked = 0;
    // Walk hop-by-hop (0), routing (43), fragment (44), destination options (60), AH (51), mobility (135).
    for (;;) {
      if (next !== 0 && next !== 43 && next !== 44 && next !== 60 && next !== 51 && next !== 135) break;
      if (walked >= MAX_IPV6_EXTENSIONS) {
        this.warn('too_many_ipv6_extensions');
        return 'ip';
      }
      if (pos + 8 > end) {
        this.warn('truncated_ipv6_extension');
        return 'ip';
      }
      walked += 1;
      if (next === 44) {
        const fo = (b[pos + 2]! << 8) | b[pos + 3]!;
        out.fragmentOffset = fo & 0xfff8;
        out.moreFragments = (fo & 1) !== 0;
        out.fragmentId = ((b[pos + 4]! << 24) | (b[pos + 5]! << 16) | (b[pos + 6]! << 8) | b[pos + 7]!) >>> 0;
        // An atomic fragment (offset 0, no more) is a whole datagram.
        out.fragment = out.fragmentOffset > 0 || out.moreFragments;
        next = b[pos]!;
        pos += 8;
        continue;
      }
      const hdrLen = next === 51 ? (b[pos + 1]! + 2) * 4 : (b[pos + 1]! + 1) * 8;
      if (pos + hdrLen > end) {
        this.warn('truncated_ipv6_extension');
        return 'ip';
      }
      next = b[pos]!;
      pos += hdrLen;
    }
    out.ipProto = next;
    out.buf = b;
    out.transportOffset = pos;
    out.transportEnd = end;
    out.transportWireLength = off + 40 + payloadLen - pos;
    if (out.fragment) {
      this.stats.fragments += 1;
      return 'ip';
    }
    return this.transport(out);
  }

  /** Decodes TCP/UDP/ICMP at out.buf[transportOffset, transportEnd); also used for reassembled datagrams. */
  transport(out: DecodedPacket): DecodeLevel {
    const b = out.buf;
    const off = out.transportOffset;
    const avail = out.transportEnd - off;
    switch (out.ipProto) {
      case PROTO_TCP: {
        if (avail < 20) {
          this.warn('truncated_transport_header');
          return 'ip';
        }
        const doff = (b[off + 12]! >> 4) * 4;
        if (doff < 20) {
          this.warn('bad_tcp_header');
          return 'ip';
        }
        if (doff > avail) {
          this.warn('truncated_transport_header');
          return 'ip';
        }
        out.sport = (b[off]! << 8) | b[off + 1]!;
        out.dport = (b[off + 2]! << 8) | b[off + 3]!;
        out.seq = ((b[off + 4]! << 24) | (b[off + 5]! << 16) | (b[off + 6]! << 8) | b[off + 7]!) >>> 0;
        out.ack = ((b[off + 8]! << 24) | (b[off + 9]! << 16) | (b[off + 10]! << 8) | b[off + 11]!) >>> 0;
        out.tcpFlags = b[off + 13]!;
        out.window = (b[off + 14]! << 8) | b[off + 15]!;
        out.payloadOffset = off + doff;
        out.payloadLength = avail - doff;
        out.payloadWireLength = Math.max(0, out.transportWireLength - doff);
        break;
      }
      case PROTO_UDP: {
        if (avail < 8) {
          this.warn('truncated_transport_header');
          return 'ip';
        }
        out.sport = (b[off]! << 8) | b[off + 1]!;
        out.dport = (b[off + 2]! << 8) | b[off + 3]!;
        const udpLen = (b[off + 4]! << 8) | b[off + 5]!;
        // Trust the UDP length when it is consistent with the IP payload.
        const wire = udpLen >= 8 && udpLen <= out.transportWireLength ? udpLen - 8 : Math.max(0, out.transportWireLength - 8);
        out.payloadOffset = off + 8;
        out.payloadWireLength = wire;
        out.payloadLength = Math.min(avail - 8, wire);
        break;
      }
      case PROTO_ICMP:
      case PROTO_ICMPV6: {
        if (avail < 8) {
          this.warn('truncated_transport_header');
          return 'ip';
        }
        out.icmpType = b[off]!;
        out.icmpCode = b[off + 1]!;
        out.payloadOffset = off + 8;
        out.payloadLength = avail - 8;
        out.payloadWireLength = Math.max(0, out.transportWireLength - 8);
        break;
      }
      default:
        out.payloadOffset = off;
        out.payloadLength = avail;
        out.payloadWireLength = out.transportWireLength;
        return 'ip';
    }
    out.level = 'transport';
    return 'transport';
  }
}

/** Dotted IPv4 from an unsigned 32-bit integer. */
export function formatIpv4(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
}

/** RFC 5952 text (lower case, longest zero run of two or more groups compressed) from an ipv6Key. */
export function formatIpv6(key: string): string {
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push(key.charCodeAt(i) || 0);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const text = (g: number[]): string => g.map((x) => x.toString(16)).join(':');
  if (bestLen < 2) return text(groups);
  return `${text(groups.slice(0, bestStart))}::${text(groups.slice(bestStart + bestLen))}`;
}
