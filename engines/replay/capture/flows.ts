// Flow table with Zeek's connection semantics: 5-tuple keys, originator by first packet or SYN, TCP endpoint states, history, conn_state and timeouts.
import { formatIpv4, formatIpv6, PROTO_ICMP, PROTO_ICMPV6, PROTO_TCP, PROTO_UDP, type DecodedPacket } from './decode.js';
import type { WarningCounter } from './warnings.js';

/**
 * When a connection ends for lack of traffic, in seconds of capture time. Zeek's defaults split
 * one 5-tuple into several connections after a pause; tshark's conversations never expire.
 */
export interface FlowTimeouts {
  readonly tcp: number;
  readonly udp: number;
  readonly icmp: number;
  readonly other: number;
  /** A TCP attempt (SYN, no answer) is over this long after the SYN (Zeek's tcp_attempt_delay). */
  readonly tcpAttempt: number;
  /** A closed or reset TCP connection is over this long after closing (Zeek's tcp_close_delay). */
  readonly tcpClose: number;
}

/** Zeek's defaults (init-bare.zeek): tcp 5 min, udp and icmp 1 min, attempt and close delays 5 s. */
export const ZEEK_TIMEOUTS: FlowTimeouts = { tcp: 300, udp: 60, icmp: 60, other: 60, tcpAttempt: 5, tcpClose: 5 };
/** tshark's conversation statistics: a 5-tuple is one conversation however long the pause (TCP port reuse still splits). */
export const NO_TIMEOUTS: FlowTimeouts = { tcp: Infinity, udp: Infinity, icmp: Infinity, other: Infinity, tcpAttempt: Infinity, tcpClose: Infinity };

/**
 * Ports Zeek treats as likely servers because an analyzer registers them (its likely_server_ports):
 * a connection whose first packet comes from one of these (and is not a bare SYN) is flipped so the
 * server is the responder. This list follows the ports of Zeek's base analyzers.
 */
export const LIKELY_SERVER_PORTS: ReadonlySet<number> = new Set([
  21, 22, 23, 25, 53, 67, 68, 69, 80, 81, 88, 110, 111, 123, 135, 137, 139, 143, 161, 162, 179, 389, 443, 445, 464, 465, 502, 514, 563, 585,
  587, 614, 631, 636, 989, 990, 992, 993, 995, 1080, 1194, 1433, 1812, 1813, 1883, 2049, 2811, 3128, 3268, 3306, 3389, 4789, 5060, 5061, 5222,
  5223, 5269, 5353, 5355, 5432, 5900, 5901, 5902, 5903, 5904, 5905, 5906, 5907, 5908, 5909, 6379, 6666, 6667, 6668, 6669, 8000, 8080, 8888,
  20000,
]);

// TCP endpoint states, as in Zeek's TCP_Endpoint.
const INACTIVE = 0;
const SYN_SENT = 1;
const SYN_ACK_SENT = 2;
const PARTIAL = 3;
const ESTABLISHED = 4;
const CLOSED = 5;
const RESET = 6;
const STATE_NAMES = ['inactive', 'syn_sent', 'syn_ack_sent', 'partial', 'established', 'closed', 'reset'] as const;
export type TcpEndpointState = (typeof STATE_NAMES)[number];

const F_FIN = 0x01;
const F_SYN = 0x02;
const F_RST = 0x04;
const F_ACK = 0x10;

// History bits per endpoint (one letter each the first time it happens).
const H_SYN = 1;
const H_FIN = 2;
const H_RST = 4;
const H_DATA = 8;
const H_ACK = 16;
const H_MULTI = 32;
const H_FINRST = 64;

/** Zeek ignores sequence jumps larger than this on SYN and RST segments. */
const TOO_LARGE_SEQ_DELTA = 1_048_576;

/** Signed 32-bit difference a - b in sequence space. */
function seqDelta(a: number, b: number): number {
  return (a - b) | 0;
}

/** The service list of the many connections with none (one shared, frozen array). */
const NO_SERVICES: readonly string[] = Object.freeze([]);

/** One side of a connection. */
class Endpoint {
  packets = 0;
  ipBytes = 0;
  payloadBytes = 0;
  state = INACTIVE;
  prevState = INACTIVE;
  startSeq = 0;
  lastSeq = 0;
  ackSeq = 0;
  seqKnown = false;
  finCount = 0;
  rstCount = 0;
  synCount = 0;
  didClose = false;
  hist = 0;
  lastSynSeq = -1;
  lastFinSeq = -1;
  lastRstSeq = -1;
  /** Set when this side sent anything (UDP/ICMP "active"). */
  active = false;

  setState(s: number): void {
    this.prevState = this.state;
    this.state = s;
  }

  /** Zeek's endpoint size: sequence space used (or acknowledged), less the SYN and FIN octets. */
  seqSize(peer: Endpoint): number {
    if (this.prevState === SYN_SENT && this.state === RESET && peer.state === INACTIVE && this.ackSeq === this.startSeq) return 0;
    if (!this.seqKnown) return 0;
    const last = (this.lastSeq - this.startSeq) >>> 0;
    const acked = (this.ackSeq - this.startSeq) >>> 0;
    let size = Math.max(last, acked);
    if (size !== 0) size -= 1;
    if (this.finCount > 0 && size !== 0) size -= 1;
    return size;
  }
}

export type TransportName = 'tcp' | 'udp' | 'icmp' | 'other';

/** Per-direction totals in a finished connection. */
export interface DirectionStats {
  readonly packets: number;
  /** Sum of IP-level lengths (Zeek's orig_ip_bytes / resp_ip_bytes). */
  readonly ipBytes: number;
  /** Sum of transport payload lengths as sent (retransmissions included). */
  readonly payloadBytes: number;
  /** Zeek's orig_bytes / resp_bytes: TCP sequence space, or UDP/ICMP payload bytes. */
  readonly bytes: number;
}

/** How far a TCP connection's opening got. */
export type TcpHandshake = 'complete' | 'half_open' | 'attempt' | 'midstream';

export interface TcpSummary {
  readonly handshake: TcpHandshake;
  readonly origState: TcpEndpointState;
  readonly respState: TcpEndpointState;
  readonly syns: number;
  readonly resets: { readonly orig: number; readonly resp: number };
  readonly fins: { readonly orig: number; readonly resp: number };
}

/** A finished connection, shaped like a Zeek conn.log row plus what we add. */
export interface ConnectionRecord {
  readonly uid: string;
  readonly proto: TransportName;
  readonly ipProto: number;
  readonly origH: string;
  readonly origP: number;
  readonly respH: string;
  readonly respP: number;
  readonly startTs: number;
  readonly lastTs: number;
  readonly duration: number;
  readonly orig: DirectionStats;
  readonly resp: DirectionStats;
  readonly connState: string;
  readonly history: string;
  /** True when the originator was chosen against the first packet's direction (Zeek's '^'). */
  readonly flipped: boolean;
  readonly service: readonly string[];
  readonly tcp?: TcpSummary;
  /** Outermost VLAN id of the first packet, when tagged. */
  readonly vlan?: number;
  /** Packet numbers (0-based) of the first and last packet: where the connection is in the file. */
  readonly firstPacket: number;
  readonly lastPacket: number;
  /** Frames that arrived as IP fragments of this connection's datagrams. */
  readonly fragmentFrames: number;
}

/** A live connection; the analysis layer reads it and attaches application state. */
export class Connection {
  readonly orig = new Endpoint();
  readonly resp = new Endpoint();
  history = '';
  flipped = false;
  // Initialised here, not only in the constructor: a class field declared without a value starts as undefined,
  // and a field that once held undefined boxes every number stored in it (lastTs is written for each packet).
  lastTs = 0;
  lastPacket = 0;
  closeAt = Infinity;
  attemptAt = Infinity;
  fragmentFrames = 0;
  /** Zeek service names confirmed by the application layer (made on the first, as most connections have none). */
  private services: string[] | undefined = undefined;
  /** Application-layer state owned by the analysis layer. */
  app: unknown = undefined;
  /** The flow table's links: the next connection with the same key hash, and the live list in order of opening. */
  nextInBucket: Connection | undefined = undefined;
  prevActive: Connection | undefined = undefined;
  nextActive: Connection | undefined = undefined;

  constructor(
    readonly serial: number,
    /**
     * The key: a hash of the 5-tuple, and the tuple with its lower end (address, then port) first. IPv4 addresses
     * are numbers and IPv6 ones strings in separate fields (0 or '' for the other version), so the per-packet
     * comparison never mixes the two kinds.
     */
    readonly hash: number,
    readonly lowV4: number,
    readonly highV4: number,
    readonly lowV6: string,
    readonly highV6: string,
    readonly lowP: number,
    readonly highP: number,
    /** True while the originator is the lower end of the key (a packet from it is then "forward"). */
    public origIsLow: boolean,
    readonly proto: TransportName,
    readonly ipProto: number,
    /** Originator and responder address keys (number for IPv4, hex for IPv6) and ports. */
    public origA: number | string,
    public origP: number,
    public respA: number | string,
    public respP: number,
    readonly ipVersion: number,
    readonly startTs: number,
    readonly firstPacket: number,
    readonly vlan: number,
  ) {
    this.lastTs = startTs;
    this.lastPacket = firstPacket;
  }

  addService(name: string): void {
    if (this.services === undefined) this.services = [name];
    else if (!this.services.includes(name)) this.services.push(name);
  }

  get uid(): string {
    return `C${this.serial}`;
  }

  /** True once either side closed (FIN or RST), as Zeek's IsClosed. */
  get isClosed(): boolean {
    return this.orig.didClose || this.resp.didClose;
  }

  /** True when the orig side saw a SYN: the stream can be read from its start. */
  get sawSyn(): boolean {
    return this.orig.synCount > 0 || this.resp.synCount > 0;
  }

  flip(): void {
    const a = this.origA;
    this.origA = this.respA;
    this.respA = a;
    this.origIsLow = !this.origIsLow;
    const p = this.origP;
    this.origP = this.respP;
    this.respP = p;
    swapEndpoints(this);
    this.flipped = !this.flipped;
    this.history += '^';
  }

  /** Adds a history letter the first time its event happens in this direction; upper case for the originator. */
  checkHistory(isOrig: boolean, bit: number, code: string): boolean {
    const ep = isOrig ? this.orig : this.resp;
    if ((ep.hist & bit) !== 0) return true;
    ep.hist |= bit;
    this.history += isOrig ? code : code.toLowerCase();
    return false;
  }

  addHistory(isOrig: boolean, code: string): void {
    this.history += isOrig ? code : code.toLowerCase();
  }

  connState(): string {
    const os = this.orig.state;
    const rs = this.resp.state;
    if (this.proto === 'tcp') {
      const oInactive = os === INACTIVE || os === PARTIAL;
      const rInactive = rs === INACTIVE || rs === PARTIAL;
      if (rs === RESET) {
        if (os === SYN_SENT || os === SYN_ACK_SENT || (os === RESET && this.orig.seqSize(this.resp) === 0 && this.resp.seqSize(this.orig) === 0))
          return 'REJ';
        return oInactive ? 'RSTRH' : 'RSTR';
      }
      if (os === RESET) {
        if (rInactive) return /^\^?S[^HAFGIQ]*R.*/.test(this.history) ? 'RSTOS0' : 'OTH';
        return 'RSTO';
      }
      if (rs === CLOSED && os === CLOSED) return 'SF';
      if (os === CLOSED) return rInactive ? 'SH' : 'S2';
      if (rs === CLOSED) return oInactive ? 'SHR' : 'S3';
      if (os === SYN_SENT && rs === INACTIVE) return 'S0';
      if (os === ESTABLISHED && rs === ESTABLISHED) return 'S1';
      return 'OTH';
    }
    if (this.proto === 'udp') {
      if (this.orig.active) return this.resp.active ? 'SF' : 'S0';
      return this.resp.active ? 'SHR' : 'OTH';
    }
    return 'OTH';
  }

  handshake(): TcpHandshake {
    const o = this.orig;
    const r = this.resp;
    if ((o.hist & H_SYN) === 0) return 'midstream';
    if ((r.hist & H_SYN) === 0) return 'attempt';
    // The originator's ACK (or data) after the SYN-ACK completes the three-way handshake.
    return (o.hist & (H_ACK | H_DATA | H_FIN)) !== 0 ? 'complete' : 'half_open';
  }

  /** The finished record. Built with one literal and two assignments (no spread or closure: 10^5 records a capture). */
  record(format: (a: number | string, v: number) => string): ConnectionRecord {
    const tcp = this.proto === 'tcp';
    const o = this.orig;
    const r = this.resp;
    const rec: { -readonly [K in keyof ConnectionRecord]: ConnectionRecord[K] } = {
      uid: this.uid,
      proto: this.proto,
      ipProto: this.ipProto,
      origH: format(this.origA, this.ipVersion),
      origP: this.origP,
      respH: format(this.respA, this.ipVersion),
      respP: this.respP,
      startTs: this.startTs,
      lastTs: this.lastTs,
      duration: this.lastTs - this.startTs,
      orig: { packets: o.packets, ipBytes: o.ipBytes, payloadBytes: o.payloadBytes, bytes: tcp ? o.seqSize(r) : o.payloadBytes },
      resp: { packets: r.packets, ipBytes: r.ipBytes, payloadBytes: r.payloadBytes, bytes: tcp ? r.seqSize(o) : r.payloadBytes },
      connState: this.connState(),
      history: this.history,
      flipped: this.flipped,
      service: this.services === undefined ? NO_SERVICES : [...this.services].sort(),
      firstPacket: this.firstPacket,
      lastPacket: this.lastPacket,
      fragmentFrames: this.fragmentFrames,
    };
    if (tcp) {
      rec.tcp = {
        handshake: this.handshake(),
        origState: STATE_NAMES[o.state] ?? 'inactive',
        respState: STATE_NAMES[r.state] ?? 'inactive',
        syns: o.synCount + r.synCount,
        resets: { orig: o.rstCount, resp: r.rstCount },
        fins: { orig: o.finCount, resp: r.finCount },
      };
    }
    if (this.vlan > 0) rec.vlan = this.vlan;
    return rec;
  }
}

function swapEndpoints(c: Connection): void {
  // Endpoints are readonly fields holding mutable objects: swap their contents.
  const tmp = new Endpoint();
  Object.assign(tmp, c.orig);
  Object.assign(c.orig, c.resp);
  Object.assign(c.resp, tmp);
}

/** Formats an address key as text. */
export function formatAddress(a: number | string, version: number): string {
  return version === 4 ? formatIpv4(a as number) : formatIpv6(a as string);
}

/**
 * formatAddress with a bounded cache: a capture's connections share few hosts, so most records reuse the text of
 * an address seen before instead of building (and later collecting) a new string.
 */
export class AddressText {
  private readonly cache = new Map<number | string, string>();

  constructor(private readonly max = 65_536) {}

  readonly format = (a: number | string, version: number): string => {
    let text = this.cache.get(a);
    if (text === undefined) {
      text = formatAddress(a, version);
      if (this.cache.size >= this.max) this.cache.clear();
      this.cache.set(a, text);
    }
    return text;
  };
}

/** ICMP message types that pair with another (request and reply) share one connection, as in Zeek. */
function icmpCounterpart(v6: boolean, type: number): number {
  if (!v6) {
    switch (type) {
      case 8:
        return 0;
      case 0:
        return 8;
      case 13:
        return 14;
      case 14:
        return 13;
      case 15:
        return 16;
      case 16:
        return 15;
      case 17:
        return 18;
      case 18:
        return 17;
      case 10:
        return 9;
      case 9:
        return 10;
      default:
        return -1;
    }
  }
  switch (type) {
    case 128:
      return 129;
    case 129:
      return 128;
    case 133:
      return 134;
    case 134:
      return 133;
    case 135:
      return 136;
    case 136:
      return 135;
    case 130:
      return 131;
    case 131:
      return 130;
    case 139:
      return 140;
    case 140:
      return 139;
    case 144:
      return 145;
    case 145:
      return 144;
    case 146:
      return 147;
    case 147:
      return 146;
    default:
      return -1;
  }
}

export interface FlowTableOptions {
  readonly timeouts?: FlowTimeouts;
  readonly likelyServerPorts?: ReadonlySet<number>;
  /** Most connections alive at once; past it the oldest are closed early (with a warning). */
  readonly maxActive?: number;
  /** Called as each connection ends (timeout, reuse, eviction or end of capture). */
  readonly onClose?: (conn: Connection) => void;
  readonly warnings?: WarningCounter;
}

/** What the flow table reads of a packet besides its headers (a RawPacket is one). */
export interface PacketTime {
  readonly ts: number;
  readonly index: number;
}

/** The result of placing one packet: its connection, and whether it came from the originator. */
export interface Placement {
  conn: Connection;
  isOrig: boolean;
}

/** One step of the 5-tuple hash (multiply-xorshift over 32-bit words). */
function mix(h: number, v: number): number {
  const x = Math.imul(h ^ v, 0x9e3779b1);
  return x ^ (x >>> 15);
}

/** Mixes an IPv6 address key (8 code units) into the hash. */
function mixV6(h: number, key: string): number {
  let x = h;
  for (let i = 0; i < 8; i += 2) x = mix(x, (key.charCodeAt(i) << 16) | key.charCodeAt(i + 1));
  return x;
}

/**
 * Live connections, found by 5-tuple without building a key per packet: a Map from a 30-bit hash of the tuple
 * (a small integer, cheap to look up) to a chain of connections with that hash, compared field by field; and
 * a doubly linked list in order of opening, for sweeps, the oldest-first eviction and the end of the capture.
 */
export class ActiveConnections {
  private readonly buckets = new Map<number, Connection>();
  private head: Connection | undefined = undefined;
  private tail: Connection | undefined = undefined;
  size = 0;

  /** The live connection with this key (IPv4 addresses in the V4 pair and '' for V6, IPv6 the other way round). */
  get(hash: number, ipProto: number, lowV4: number, highV4: number, lowV6: string, highV6: string, lowP: number, highP: number): Connection | undefined {
    let c = this.buckets.get(hash);
    while (c !== undefined) {
      if (c.lowV4 === lowV4 && c.highV4 === highV4 && c.lowP === lowP && c.highP === highP && c.ipProto === ipProto && c.lowV6 === lowV6 && c.highV6 === highV6)
        return c;
      c = c.nextInBucket;
    }
    return undefined;
  }

  add(conn: Connection): void {
    conn.nextInBucket = this.buckets.get(conn.hash);
    this.buckets.set(conn.hash, conn);
    conn.prevActive = this.tail;
    conn.nextActive = undefined;
    if (this.tail === undefined) this.head = conn;
    else this.tail.nextActive = conn;
    this.tail = conn;
    this.size += 1;
  }

  /** Removes a live connection; false when it was not live. */
  delete(conn: Connection): boolean {
    const first = this.buckets.get(conn.hash);
    if (first === conn) {
      if (conn.nextInBucket === undefined) this.buckets.delete(conn.hash);
      else this.buckets.set(conn.hash, conn.nextInBucket);
    } else {
      let c = first;
      while (c !== undefined && c.nextInBucket !== conn) c = c.nextInBucket;
      if (c === undefined) return false;
      c.nextInBucket = conn.nextInBucket;
    }
    conn.nextInBucket = undefined;
    if (conn.prevActive === undefined) this.head = conn.nextActive;
    else conn.prevActive.nextActive = conn.nextActive;
    if (conn.nextActive === undefined) this.tail = conn.prevActive;
    else conn.nextActive.prevActive = conn.prevActive;
    conn.prevActive = undefined;
    conn.nextActive = undefined;
    this.size -= 1;
    return true;
  }

  /** The live connection opened first. */
  get oldest(): Connection | undefined {
    return this.head;
  }

  /** Empties the index; returns the first of the connections it held, still linked in order of opening. */
  clear(): Connection | undefined {
    const first = this.head;
    this.buckets.clear();
    this.head = undefined;
    this.tail = undefined;
    this.size = 0;
    return first;
  }
}

export class FlowTable {
  private readonly active = new ActiveConnections();
  private serial = 0;
  private readonly timeouts: FlowTimeouts;
  private readonly likely: ReadonlySet<number>;
  private readonly maxActive: number;
  private lastSweep = -Infinity;
  private sinceSweep = 0;
  /** False when no timeout is finite (tshark's view): nothing ever expires, so no sweeps. */
  private readonly sweepable: boolean;
  private readonly placement: Placement;
  /** Capture time of the packet being placed. */
  private now = 0;
  /** Connections created so far. */
  created = 0;

  constructor(private readonly options: FlowTableOptions = {}) {
    this.timeouts = options.timeouts ?? ZEEK_TIMEOUTS;
    this.likely = options.likelyServerPorts ?? LIKELY_SERVER_PORTS;
    this.maxActive = options.maxActive ?? 1_000_000;
    const t = this.timeouts;
    this.sweepable = Number.isFinite(Math.min(t.tcp, t.udp, t.icmp, t.other, t.tcpAttempt, t.tcpClose));
    this.placement = { conn: undefined as unknown as Connection, isOrig: true };
  }

  get activeCount(): number {
    return this.active.size;
  }

  /**
   * Places a decoded packet (transport level, or IP level for other protocols) in its connection.
   * `ts` is capture time; `index` the packet number; `frames` how many frames made up the datagram.
   * Returns a reused placement object.
   */
  add(d: DecodedPacket, packet: PacketTime, frames = 1): Placement {
    // Times go through `now` (a field), not arguments: a number passed to a call that is not inlined is boxed.
    const ts = packet.ts;
    this.now = ts;
    const ipProto = d.ipProto;
    const proto: TransportName =
      d.level !== 'transport'
        ? 'other'
        : ipProto === PROTO_TCP
          ? 'tcp'
          : ipProto === PROTO_UDP
            ? 'udp'
            : ipProto === PROTO_ICMP || ipProto === PROTO_ICMPV6
              ? 'icmp'
              : 'other';
    let sp = 0;
    let dp = 0;
    if (proto === 'tcp' || proto === 'udp') {
      sp = d.sport;
      dp = d.dport;
    } else if (proto === 'icmp') {
      sp = d.icmpType;
      const cp = icmpCounterpart(ipProto === PROTO_ICMPV6, d.icmpType);
      dp = cp >= 0 ? cp : d.icmpCode;
    }
    // Sweep for expired connections now and then, with work proportional to the packets in between (before the
    // look-up, which must not find a connection the sweep closes).
    this.sinceSweep += 1;
    if (this.sweepable && ts - this.lastSweep > 10 && this.sinceSweep * 4 >= this.active.size) this.sweep();
    // The key, with the lower end first; IPv4 and IPv6 apart so that each compares one kind of value.
    let forward: boolean;
    let hash: number;
    let conn: Connection | undefined;
    const v4 = d.ipVersion === 4;
    if (v4) {
      const src = d.srcV4;
      const dst = d.dstV4;
      forward = src < dst || (src === dst && sp <= dp);
      hash = mix(mix(mix(ipProto, forward ? (sp << 16) | dp : (dp << 16) | sp), forward ? src : dst), forward ? dst : src) & 0x3fffffff;
      conn = forward ? this.active.get(hash, ipProto, src, dst, '', '', sp, dp) : this.active.get(hash, ipProto, dst, src, '', '', dp, sp);
    } else {
      const src = d.srcV6;
      const dst = d.dstV6;
      forward = src < dst || (src === dst && sp <= dp);
      hash = mixV6(mixV6(mix(ipProto | 0x100, forward ? (sp << 16) | dp : (dp << 16) | sp), forward ? src : dst), forward ? dst : src) & 0x3fffffff;
      conn = forward ? this.active.get(hash, ipProto, 0, 0, src, dst, sp, dp) : this.active.get(hash, ipProto, 0, 0, dst, src, dp, sp);
    }

    if (conn !== undefined && (this.expired(conn) || (proto === 'tcp' && this.isReuse(conn, d)))) {
      this.close(conn);
      conn = undefined;
    }
    if (conn === undefined) conn = this.open(hash, forward, proto, d, sp, dp, packet.index);
    // From the originator when the packet goes the originator's way along the key; a connection from an
    // address and port to themselves has only one side.
    const isOrigEnd = forward === conn.origIsLow || (conn.lowP === conn.highP && (v4 ? conn.lowV4 === conn.highV4 : conn.lowV6 === conn.highV6));
    let isOrig = isOrigEnd;
    const ep = isOrig ? conn.orig : conn.resp;
    ep.packets += 1;
    ep.ipBytes += d.ipLength;
    ep.payloadBytes += d.payloadWireLength;
    ep.active = true;
    if (frames > 1) conn.fragmentFrames += frames;
    conn.lastPacket = packet.index;
    if (proto === 'tcp') {
      isOrig = this.tcp(conn, isOrig, d);
    } else {
      conn.lastTs = ts;
      if (proto === 'udp') conn.checkHistory(isOrig, H_DATA, 'D');
    }
    this.placement.conn = conn;
    this.placement.isOrig = isOrig;
    return this.placement;
  }

  /** Opens a connection for the packet in `d` (at `now`), `forward` when it goes from the key's lower end. */
  private open(hash: number, forward: boolean, proto: TransportName, d: DecodedPacket, sp: number, dp: number, index: number): Connection {
    if (this.active.size >= this.maxActive) {
      const oldest = this.active.oldest;
      if (oldest !== undefined) {
        this.options.warnings?.add('flow_limit', 0, index);
        this.close(oldest);
      }
    }
    this.serial += 1;
    this.created += 1;
    const v4 = d.ipVersion === 4;
    const src = v4 ? d.srcV4 : d.srcV6;
    const dst = v4 ? d.dstV4 : d.dstV6;
    const conn = new Connection(
      this.serial,
      hash,
      v4 ? (forward ? d.srcV4 : d.dstV4) : 0,
      v4 ? (forward ? d.dstV4 : d.srcV4) : 0,
      v4 ? '' : forward ? d.srcV6 : d.dstV6,
      v4 ? '' : forward ? d.dstV6 : d.srcV6,
      forward ? sp : dp,
      forward ? dp : sp,
      forward,
      proto,
      d.ipProto,
      src,
      sp,
      dst,
      dp,
      d.ipVersion,
      this.now,
      index,
      d.vlan,
    );
    // Zeek's choice of originator: the sender of the first packet, unless that packet is not a bare
    // SYN (TCP) and comes from a likely server port while going to one that is not.
    let flip = false;
    if (proto === 'tcp') {
      const f = d.tcpFlags;
      const bareSyn = (f & F_SYN) !== 0 && (f & F_ACK) === 0;
      if (!bareSyn && this.likely.has(sp)) {
        flip = this.likely.has(dp) ? (f & F_SYN) === 0 && sp < dp : true;
      }
    } else if (proto === 'udp') {
      flip = this.likely.has(sp) && !this.likely.has(dp);
    }
    if (flip) conn.flip();
    this.active.add(conn);
    return conn;
  }

  /** True when the connection's time is up at `now`. */
  private expired(conn: Connection): boolean {
    const ts = this.now;
    const t = this.timeouts;
    const idle = conn.proto === 'tcp' ? t.tcp : conn.proto === 'udp' ? t.udp : conn.proto === 'icmp' ? t.icmp : t.other;
    if (ts - conn.lastTs > idle) return true;
    if (conn.proto !== 'tcp') return false;
    if (ts > conn.closeAt) return true;
    if (ts > conn.attemptAt && (conn.orig.state === SYN_SENT || conn.orig.state === SYN_ACK_SENT) && conn.resp.state === INACTIVE) return true;
    return false;
  }

  /** Zeek's IsReuse: a new initial SYN (or a SYN-ACK on a half connection) with another sequence number starts a new connection. */
  private isReuse(conn: Connection, d: DecodedPacket): boolean {
    const f = d.tcpFlags;
    if ((f & F_SYN) === 0) return false;
    let connOrig = conn.orig;
    if ((f & F_ACK) !== 0) {
      if (conn.orig.state !== INACTIVE) return false;
      connOrig = conn.resp;
    }
    if (!conn.isClosed) {
      if (d.seq === connOrig.startSeq) return false;
      if ((f & F_ACK) === 0 && connOrig.state === SYN_ACK_SENT && conn.resp.state === INACTIVE && d.seq === conn.resp.startSeq) return false;
    }
    return true;
  }

  /** Runs the TCP endpoint state machine for one segment; returns isOrig after any role flip. */
  private tcp(conn: Connection, isOrigIn: boolean, d: DecodedPacket): boolean {
    const ts = this.now;
    let isOrig = isOrigIn;
    let ep = isOrig ? conn.orig : conn.resp;
    let peer = isOrig ? conn.resp : conn.orig;
    const f = d.tcpFlags;
    const syn = (f & F_SYN) !== 0;
    const fin = (f & F_FIN) !== 0;
    const rst = (f & F_RST) !== 0;
    const ack = (f & F_ACK) !== 0;
    const len = d.payloadWireLength;
    const seq = d.seq;
    const segLen = len + (syn ? 1 : 0) + (fin ? 1 : 0);
    const seqEnd = (seq + segLen) >>> 0;

    // Initialise the sequence space the first time this side speaks (or on a new SYN).
    switch (ep.state) {
      case INACTIVE:
        if (syn) {
          ep.startSeq = seq;
          ep.ackSeq = seq;
          ep.lastSeq = seqEnd;
        } else {
          // A partial connection: number as though a SYN had been seen.
          ep.startSeq = (seq - 1) >>> 0;
          ep.ackSeq = ep.startSeq;
          ep.lastSeq = seq;
        }
        ep.seqKnown = true;
        break;
      case SYN_SENT:
      case SYN_ACK_SENT:
        if (syn && seq !== ep.startSeq) {
          ep.startSeq = seq;
          ep.ackSeq = seq;
          ep.lastSeq = seqEnd;
        }
        break;
      case ESTABLISHED:
      case PARTIAL:
        if (syn) {
          ep.startSeq = seq;
          ep.ackSeq = seq;
          ep.lastSeq = seqEnd;
        }
        break;
      case RESET:
        if (syn && ep.prevState === INACTIVE) {
          ep.startSeq = seq;
          ep.ackSeq = seq;
          ep.lastSeq = seqEnd;
        }
        break;
      default:
        break;
    }
    this.history(conn, isOrig, d);
    if (!conn.orig.didClose || !conn.resp.didClose) conn.lastTs = ts;
    if (syn) ep.synCount += 1;
    if (fin) ep.finCount += 1;
    if (rst) ep.rstCount += 1;
    if (ack) {
      if (peer.state === INACTIVE) {
        peer.startSeq = (d.ack - 1) >>> 0;
        peer.ackSeq = peer.startSeq;
        peer.lastSeq = peer.startSeq;
        peer.seqKnown = true;
      } else if (!rst && seqDelta(d.ack, peer.ackSeq) > 0) {
        peer.ackSeq = d.ack;
      }
    }
    // Advance the highest sequence number sent.
    const delta = seqDelta(seqEnd, ep.lastSeq);
    if ((syn || rst) && (delta > TOO_LARGE_SEQ_DELTA || delta < -TOO_LARGE_SEQ_DELTA)) {
      // Untrusted jump.
    } else if (fin && ep.lastSeq === ((ep.startSeq + 1) >>> 0)) {
      ep.lastSeq = seqEnd;
    } else if (ep.state === RESET) {
      // After a reset, later sequence numbers are not trusted.
    } else if (delta > 0) {
      ep.lastSeq = seqEnd;
    }

    let doClose = false;
    switch (ep.state) {
      case INACTIVE: {
        if (syn) {
          if (isOrig) {
            ep.setState(ack ? SYN_ACK_SENT : SYN_SENT);
            if (conn.attemptAt === Infinity) conn.attemptAt = ts + this.timeouts.tcpAttempt;
          } else {
            if (!ack && peer.state === SYN_ACK_SENT && seq === ep.startSeq) {
              // SYN and SYN-ACK arrived in reverse order: swap roles and establish.
              conn.flip();
              isOrig = !isOrig;
              ep = isOrig ? conn.orig : conn.resp;
              peer = isOrig ? conn.resp : conn.orig;
              peer.setState(ESTABLISHED);
            }
            if (peer.state === SYN_SENT) peer.setState(ESTABLISHED);
            ep.setState(ESTABLISHED);
          }
        }
        if (fin) {
          ep.setState(CLOSED);
          doClose = true;
        }
        if (rst) {
          ep.setState(RESET);
          doClose = true;
        }
        if (ep.state === INACTIVE) {
          if (!isOrig && len === 0 && conn.orig.state === SYN_SENT) {
            // An ACK of the SYN before the SYN-ACK: not yet a partial connection.
          } else if (ack && peer.state === ESTABLISHED) {
            ep.setState(ESTABLISHED);
          } else {
            ep.setState(PARTIAL);
          }
        }
        break;
      }
      case SYN_SENT:
      case SYN_ACK_SENT:
        if (fin) {
          ep.setState(CLOSED);
          doClose = true;
        }
        if (rst) {
          ep.setState(RESET);
          doClose = true;
        }
        break;
      case ESTABLISHED:
      case PARTIAL:
        if (syn && ep.state === PARTIAL && peer.state === INACTIVE && !ack) ep.setState(SYN_SENT);
        if (fin && !rst) {
          ep.setState(CLOSED);
          if (peer.state === RESET && peer.prevState === CLOSED) peer.setState(CLOSED);
          doClose = true;
        }
        if (rst) {
          ep.setState(RESET);
          doClose = true;
        }
        break;
      case CLOSED:
        if (rst && peer.state !== CLOSED) {
          ep.setState(RESET);
          if (!ep.didClose) doClose = true;
        }
        break;
      default:
        break;
    }
    if (doClose && !ep.didClose) {
      ep.didClose = true;
      const complete = ep.state === RESET || peer.didClose || peer.state === INACTIVE;
      if (complete && conn.closeAt === Infinity) conn.closeAt = conn.lastTs + this.timeouts.tcpClose;
    }
    return isOrig;
  }

  /** Zeek's history letters: S, H, F, R once per direction (again on a new sequence number), D, A once; Q and I for odd flag mixes. */
  private history(conn: Connection, isOrig: boolean, d: DecodedPacket): void {
    const f = d.tcpFlags;
    const len = d.payloadWireLength;
    const ep = isOrig ? conn.orig : conn.resp;
    const relSeq = (d.seq - ep.startSeq) >>> 0;
    const syn = (f & F_SYN) !== 0;
    const fin = (f & F_FIN) !== 0;
    const rst = (f & F_RST) !== 0;
    const bits = (syn ? 1 : 0) + (fin ? 1 : 0) + (rst ? 1 : 0);
    if (bits > 1) {
      if (fin && rst) conn.checkHistory(isOrig, H_FINRST, 'I');
      else conn.checkHistory(isOrig, H_MULTI, 'Q');
      return;
    }
    if (syn) {
      const code = (f & F_ACK) !== 0 ? 'H' : 'S';
      if (conn.checkHistory(isOrig, H_SYN, code) && relSeq !== ep.lastSynSeq) conn.addHistory(isOrig, code);
      ep.lastSynSeq = relSeq;
      return;
    }
    if (fin) {
      const at = (relSeq + len) >>> 0;
      if (conn.checkHistory(isOrig, H_FIN, 'F') && at !== ep.lastFinSeq) conn.addHistory(isOrig, 'F');
      ep.lastFinSeq = at;
      return;
    }
    if (rst) {
      if (conn.checkHistory(isOrig, H_RST, 'R') && relSeq !== ep.lastRstSeq) conn.addHistory(isOrig, 'R');
      ep.lastRstSeq = relSeq;
      return;
    }
    if (len > 0) conn.checkHistory(isOrig, H_DATA, 'D');
    else if ((f & F_ACK) !== 0) conn.checkHistory(isOrig, H_ACK, 'A');
  }

  /** Closes every connection whose time is up. */
  private sweep(): void {
    this.lastSweep = this.now;
    this.sinceSweep = 0;
    let conn = this.active.oldest;
    while (conn !== undefined) {
      const next = conn.nextActive;
      if (this.expired(conn)) this.close(conn);
      conn = next;
    }
  }

  private close(conn: Connection): void {
    // A connection ends once: closing one that is no longer live does nothing.
    if (this.active.delete(conn)) this.options.onClose?.(conn);
  }

  /** Ends every live connection (the capture is over). */
  finish(): void {
    // Every connection goes: hand them over in order of opening, then drop the whole index at once.
    const first = this.active.clear();
    for (let conn = first; conn !== undefined; ) {
      const next = conn.nextActive;
      conn.nextActive = undefined;
      conn.prevActive = undefined;
      conn.nextInBucket = undefined;
      this.options.onClose?.(conn);
      conn = next;
    }
  }
}
