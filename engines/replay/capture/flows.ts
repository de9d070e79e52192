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

/**
 * Both sides of every live connection, as columns (a struct of arrays) indexed by side number: the connection in
 * slot s has sides 2s and 2s + 1. Typed arrays lie outside the JavaScript heap, so the collector neither copies nor
 * marks this state; as two objects per connection, with a boxed number for every 32-bit sequence field, it was most
 * of what each scavenge copied. The columns grow by doubling, and slots of closed connections are used again.
 */
export class Endpoints {
  packets = new Float64Array(0);
  ipBytes = new Float64Array(0);
  payloadBytes = new Float64Array(0);
  state = new Uint8Array(0);
  prevState = new Uint8Array(0);
  /** Sequence numbers (unsigned 32-bit): the first, the highest sent and the highest acknowledged. */
  startSeq = new Uint32Array(0);
  lastSeq = new Uint32Array(0);
  ackSeq = new Uint32Array(0);
  /** 1 once the sequence space is known. */
  seqKnown = new Uint8Array(0);
  finCount = new Uint32Array(0);
  rstCount = new Uint32Array(0);
  synCount = new Uint32Array(0);
  /** 1 once this side closed (FIN or RST). */
  didClose = new Uint8Array(0);
  /** History bits (H_*). */
  hist = new Uint8Array(0);
  /** Relative sequence numbers of the last SYN, FIN and RST (-1 before the first). */
  lastSynSeq = new Float64Array(0);
  lastFinSeq = new Float64Array(0);
  lastRstSeq = new Float64Array(0);
  /** 1 once this side sent anything (UDP/ICMP "active"). */
  active = new Uint8Array(0);
  // Per connection (indexed by slot, not side): capture times of the first and last packet, and when a closed
  // TCP connection or an unanswered attempt is over (Infinity until then). A number field of an object is a
  // boxed number of its own; here they cost the collector nothing.
  startTs = new Float64Array(0);
  lastTs = new Float64Array(0);
  closeAt = new Float64Array(0);
  attemptAt = new Float64Array(0);
  private capacity = 0;
  /** Slots handed out so far (the high-water mark); freed ones wait in `free`. */
  private used = 0;
  private readonly free: number[] = [];

  constructor(slots = 256) {
    this.grow(Math.max(1, slots));
  }

  /** A slot with both sides reset. */
  alloc(): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.used === this.capacity) this.grow(this.capacity * 2);
      slot = this.used;
      this.used += 1;
    }
    this.reset(2 * slot);
    this.reset(2 * slot + 1);
    this.startTs[slot] = 0;
    this.lastTs[slot] = 0;
    this.closeAt[slot] = Infinity;
    this.attemptAt[slot] = Infinity;
    return slot;
  }

  /** Gives a closed connection's slot back. */
  release(slot: number): void {
    this.free.push(slot);
  }

  /** Forgets every slot (the capture is over). */
  clear(): void {
    this.used = 0;
    this.free.length = 0;
  }

  setState(e: number, s: number): void {
    this.prevState[e] = this.state[e]!;
    this.state[e] = s;
  }

  /** Zeek's endpoint size of side `e` (peer `p`): sequence space used (or acknowledged), less the SYN and FIN octets. */
  seqSize(e: number, p: number): number {
    if (this.prevState[e] === SYN_SENT && this.state[e] === RESET && this.state[p] === INACTIVE && this.ackSeq[e] === this.startSeq[e]) return 0;
    if (this.seqKnown[e] === 0) return 0;
    const start = this.startSeq[e]!;
    const last = (this.lastSeq[e]! - start) >>> 0;
    const acked = (this.ackSeq[e]! - start) >>> 0;
    let size = Math.max(last, acked);
    if (size !== 0) size -= 1;
    if (this.finCount[e]! > 0 && size !== 0) size -= 1;
    return size;
  }

  private reset(e: number): void {
    this.packets[e] = 0;
    this.ipBytes[e] = 0;
    this.payloadBytes[e] = 0;
    this.state[e] = INACTIVE;
    this.prevState[e] = INACTIVE;
    this.startSeq[e] = 0;
    this.lastSeq[e] = 0;
    this.ackSeq[e] = 0;
    this.seqKnown[e] = 0;
    this.finCount[e] = 0;
    this.rstCount[e] = 0;
    this.synCount[e] = 0;
    this.didClose[e] = 0;
    this.hist[e] = 0;
    this.lastSynSeq[e] = -1;
    this.lastFinSeq[e] = -1;
    this.lastRstSeq[e] = -1;
    this.active[e] = 0;
  }

  private grow(slots: number): void {
    const n = 2 * slots;
    this.packets = extend(this.packets, new Float64Array(n));
    this.ipBytes = extend(this.ipBytes, new Float64Array(n));
    this.payloadBytes = extend(this.payloadBytes, new Float64Array(n));
    this.state = extend(this.state, new Uint8Array(n));
    this.prevState = extend(this.prevState, new Uint8Array(n));
    this.startSeq = extend(this.startSeq, new Uint32Array(n));
    this.lastSeq = extend(this.lastSeq, new Uint32Array(n));
    this.ackSeq = extend(this.ackSeq, new Uint32Array(n));
    this.seqKnown = extend(this.seqKnown, new Uint8Array(n));
    this.finCount = extend(this.finCount, new Uint32Array(n));
    this.rstCount = extend(this.rstCount, new Uint32Array(n));
    this.synCount = extend(this.synCount, new Uint32Array(n));
    this.didClose = extend(this.didClose, new Uint8Array(n));
    this.hist = extend(this.hist, new Uint8Array(n));
    this.lastSynSeq = extend(this.lastSynSeq, new Float64Array(n));
    this.lastFinSeq = extend(this.lastFinSeq, new Float64Array(n));
    this.lastRstSeq = extend(this.lastRstSeq, new Float64Array(n));
    this.active = extend(this.active, new Uint8Array(n));
    this.startTs = extend(this.startTs, new Float64Array(slots));
    this.lastTs = extend(this.lastTs, new Float64Array(slots));
    this.closeAt = extend(this.closeAt, new Float64Array(slots));
    this.attemptAt = extend(this.attemptAt, new Float64Array(slots));
    this.capacity = slots;
  }
}

/** Copies a column into its larger successor. */
function extend<T extends Float64Array | Uint32Array | Uint8Array>(old: T, next: T): T {
  next.set(old);
  return next;
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
  /** This connection's row in the endpoint columns, and the side numbers of its originator and responder there. */
  readonly slot: number;
  /**
   * IPv4 key addresses as signed 32-bit numbers: an unsigned address of 128.0.0.0 or above is no small integer
   * and would be a boxed number of its own in each field.
   */
  readonly lowV4: number;
  readonly highV4: number;
  o = 0;
  r = 0;
  history = '';
  flipped = false;
  // Initialised here, not only in the constructor: a class field declared without a value starts as undefined.
  // (The capture times live in the endpoint columns: a number field is a boxed number of its own.)
  lastPacket = 0;
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
    lowV4: number,
    highV4: number,
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
    startTs: number,
    readonly firstPacket: number,
    readonly vlan: number,
    /** The flow table's endpoint columns (a connection made alone, as in tests, gets its own). */
    readonly ends: Endpoints = new Endpoints(1),
  ) {
    this.lowV4 = lowV4 | 0;
    this.highV4 = highV4 | 0;
    // The same for the originator's and responder's keys (formatIpv4 reads either sign).
    if (typeof origA === 'number') this.origA = origA | 0;
    if (typeof respA === 'number') this.respA = respA | 0;
    this.slot = ends.alloc();
    this.o = 2 * this.slot;
    this.r = this.o + 1;
    ends.startTs[this.slot] = startTs;
    ends.lastTs[this.slot] = startTs;
    this.lastPacket = firstPacket;
  }

  /** Capture time of the first packet. */
  get startTs(): number {
    return this.ends.startTs[this.slot]!;
  }

  /** Capture time of the last packet that counts (TCP: not after both sides closed). */
  get lastTs(): number {
    return this.ends.lastTs[this.slot]!;
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
    return (this.ends.didClose[this.o]! | this.ends.didClose[this.r]!) !== 0;
  }

  /** True when the orig side saw a SYN: the stream can be read from its start. */
  get sawSyn(): boolean {
    return this.ends.synCount[this.o]! > 0 || this.ends.synCount[this.r]! > 0;
  }

  flip(): void {
    const a = this.origA;
    this.origA = this.respA;
    this.respA = a;
    this.origIsLow = !this.origIsLow;
    const p = this.origP;
    this.origP = this.respP;
    this.respP = p;
    // The two sides trade places by number: nothing is copied.
    const o = this.o;
    this.o = this.r;
    this.r = o;
    this.flipped = !this.flipped;
    this.history += '^';
  }

  /** Adds a history letter the first time its event happens in this direction; upper case for the originator. */
  checkHistory(isOrig: boolean, bit: number, code: string): boolean {
    const e = isOrig ? this.o : this.r;
    const hist = this.ends.hist;
    if ((hist[e]! & bit) !== 0) return true;
    hist[e] = hist[e]! | bit;
    this.history += isOrig ? code : code.toLowerCase();
    return false;
  }

  addHistory(isOrig: boolean, code: string): void {
    this.history += isOrig ? code : code.toLowerCase();
  }

  connState(): string {
    const E = this.ends;
    const os = E.state[this.o]!;
    const rs = E.state[this.r]!;
    if (this.proto === 'tcp') {
      const oInactive = os === INACTIVE || os === PARTIAL;
      const rInactive = rs === INACTIVE || rs === PARTIAL;
      if (rs === RESET) {
        if (os === SYN_SENT || os === SYN_ACK_SENT || (os === RESET && E.seqSize(this.o, this.r) === 0 && E.seqSize(this.r, this.o) === 0))
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
      if (E.active[this.o] === 1) return E.active[this.r] === 1 ? 'SF' : 'S0';
      return E.active[this.r] === 1 ? 'SHR' : 'OTH';
    }
    return 'OTH';
  }

  handshake(): TcpHandshake {
    const oh = this.ends.hist[this.o]!;
    if ((oh & H_SYN) === 0) return 'midstream';
    if ((this.ends.hist[this.r]! & H_SYN) === 0) return 'attempt';
    // The originator's ACK (or data) after the SYN-ACK completes the three-way handshake.
    return (oh & (H_ACK | H_DATA | H_FIN)) !== 0 ? 'complete' : 'half_open';
  }

  /** The finished record. Built with one literal and two assignments (no spread or closure: 10^5 records a capture). */
  record(format: (a: number | string, v: number) => string): ConnectionRecord {
    const tcp = this.proto === 'tcp';
    const E = this.ends;
    const o = this.o;
    const r = this.r;
    const rec: { -readonly [K in keyof ConnectionRecord]: ConnectionRecord[K] } = {
      uid: this.uid,
      proto: this.proto,
      ipProto: this.ipProto,
      origH: format(this.origA, this.ipVersion),
      origP: this.origP,
      respH: format(this.respA, this.ipVersion),
      respP: this.respP,
      startTs: E.startTs[this.slot]!,
      lastTs: E.lastTs[this.slot]!,
      duration: E.lastTs[this.slot]! - E.startTs[this.slot]!,
      orig: { packets: E.packets[o]!, ipBytes: E.ipBytes[o]!, payloadBytes: E.payloadBytes[o]!, bytes: tcp ? E.seqSize(o, r) : E.payloadBytes[o]! },
      resp: { packets: E.packets[r]!, ipBytes: E.ipBytes[r]!, payloadBytes: E.payloadBytes[r]!, bytes: tcp ? E.seqSize(r, o) : E.payloadBytes[r]! },
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
        origState: STATE_NAMES[E.state[o]!] ?? 'inactive',
        respState: STATE_NAMES[E.state[r]!] ?? 'inactive',
        syns: E.synCount[o]! + E.synCount[r]!,
        resets: { orig: E.rstCount[o]!, resp: E.rstCount[r]! },
        fins: { orig: E.finCount[o]!, resp: E.finCount[r]! },
      };
    }
    if (this.vlan > 0) rec.vlan = this.vlan;
    return rec;
  }
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
  get(hash: number, ipProto: number, lowV4In: number, highV4In: number, lowV6: string, highV6: string, lowP: number, highP: number): Connection | undefined {
    // Stored signed (see Connection.lowV4).
    const lowV4 = lowV4In | 0;
    const highV4 = highV4In | 0;
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
  /** Both sides of every live connection, as columns. */
  private readonly ends = new Endpoints();
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
    const E = this.ends;
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
    const ep = isOrig ? conn.o : conn.r;
    E.packets[ep]! += 1;
    E.ipBytes[ep]! += d.ipLength;
    E.payloadBytes[ep]! += d.payloadWireLength;
    E.active[ep] = 1;
    if (frames > 1) conn.fragmentFrames += frames;
    conn.lastPacket = packet.index;
    if (proto === 'tcp') {
      isOrig = this.tcp(conn, isOrig, d);
    } else {
      E.lastTs[conn.slot] = ts;
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
      this.ends,
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
    const E = this.ends;
    const ts = this.now;
    const t = this.timeouts;
    const idle = conn.proto === 'tcp' ? t.tcp : conn.proto === 'udp' ? t.udp : conn.proto === 'icmp' ? t.icmp : t.other;
    if (ts - E.lastTs[conn.slot]! > idle) return true;
    if (conn.proto !== 'tcp') return false;
    if (ts > E.closeAt[conn.slot]!) return true;
    if (ts > E.attemptAt[conn.slot]! && (E.state[conn.o]! === SYN_SENT || E.state[conn.o]! === SYN_ACK_SENT) && E.state[conn.r]! === INACTIVE) return true;
    return false;
  }

  /** Zeek's IsReuse: a new initial SYN (or a SYN-ACK on a half connection) with another sequence number starts a new connection. */
  private isReuse(conn: Connection, d: DecodedPacket): boolean {
    const E = this.ends;
    const f = d.tcpFlags;
    if ((f & F_SYN) === 0) return false;
    let connOrig = conn.o;
    if ((f & F_ACK) !== 0) {
      if (E.state[conn.o]! !== INACTIVE) return false;
      connOrig = conn.r;
    }
    if (!conn.isClosed) {
      if (d.seq === E.startSeq[connOrig]!) return false;
      if ((f & F_ACK) === 0 && E.state[connOrig]! === SYN_ACK_SENT && E.state[conn.r]! === INACTIVE && d.seq === E.startSeq[conn.r]!) return false;
    }
    return true;
  }

  /** Runs the TCP endpoint state machine for one segment; returns isOrig after any role flip. */
  private tcp(conn: Connection, isOrigIn: boolean, d: DecodedPacket): boolean {
    const E = this.ends;
    const ts = this.now;
    let isOrig = isOrigIn;
    let ep = isOrig ? conn.o : conn.r;
    let peer = isOrig ? conn.r : conn.o;
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
    switch (E.state[ep]!) {
      case INACTIVE:
        if (syn) {
          E.startSeq[ep] = seq;
          E.ackSeq[ep] = seq;
          E.lastSeq[ep] = seqEnd;
        } else {
          // A partial connection: number as though a SYN had been seen.
          E.startSeq[ep] = (seq - 1) >>> 0;
          E.ackSeq[ep] = E.startSeq[ep]!;
          E.lastSeq[ep] = seq;
        }
        E.seqKnown[ep] = 1;
        break;
      case SYN_SENT:
      case SYN_ACK_SENT:
        if (syn && seq !== E.startSeq[ep]!) {
          E.startSeq[ep] = seq;
          E.ackSeq[ep] = seq;
          E.lastSeq[ep] = seqEnd;
        }
        break;
      case ESTABLISHED:
      case PARTIAL:
        if (syn) {
          E.startSeq[ep] = seq;
          E.ackSeq[ep] = seq;
          E.lastSeq[ep] = seqEnd;
        }
        break;
      case RESET:
        if (syn && E.prevState[ep]! === INACTIVE) {
          E.startSeq[ep] = seq;
          E.ackSeq[ep] = seq;
          E.lastSeq[ep] = seqEnd;
        }
        break;
      default:
        break;
    }
    this.history(conn, isOrig, d);
    if (E.didClose[conn.o] === 0 || E.didClose[conn.r] === 0) E.lastTs[conn.slot] = ts;
    if (syn) E.synCount[ep]! += 1;
    if (fin) E.finCount[ep]! += 1;
    if (rst) E.rstCount[ep]! += 1;
    if (ack) {
      if (E.state[peer]! === INACTIVE) {
        E.startSeq[peer] = (d.ack - 1) >>> 0;
        E.ackSeq[peer] = E.startSeq[peer]!;
        E.lastSeq[peer] = E.startSeq[peer]!;
        E.seqKnown[peer] = 1;
      } else if (!rst && seqDelta(d.ack, E.ackSeq[peer]!) > 0) {
        E.ackSeq[peer] = d.ack;
      }
    }
    // Advance the highest sequence number sent.
    const delta = seqDelta(seqEnd, E.lastSeq[ep]!);
    if ((syn || rst) && (delta > TOO_LARGE_SEQ_DELTA || delta < -TOO_LARGE_SEQ_DELTA)) {
      // Untrusted jump.
    } else if (fin && E.lastSeq[ep]! === ((E.startSeq[ep]! + 1) >>> 0)) {
      E.lastSeq[ep] = seqEnd;
    } else if (E.state[ep]! === RESET) {
      // After a reset, later sequence numbers are not trusted.
    } else if (delta > 0) {
      E.lastSeq[ep] = seqEnd;
    }

    let doClose = false;
    switch (E.state[ep]!) {
      case INACTIVE: {
        if (syn) {
          if (isOrig) {
            E.setState(ep, ack ? SYN_ACK_SENT : SYN_SENT);
            if (E.attemptAt[conn.slot] === Infinity) E.attemptAt[conn.slot] = ts + this.timeouts.tcpAttempt;
          } else {
            if (!ack && E.state[peer]! === SYN_ACK_SENT && seq === E.startSeq[ep]!) {
              // SYN and SYN-ACK arrived in reverse order: swap roles and establish.
              conn.flip();
              isOrig = !isOrig;
              ep = isOrig ? conn.o : conn.r;
              peer = isOrig ? conn.r : conn.o;
              E.setState(peer, ESTABLISHED);
            }
            if (E.state[peer]! === SYN_SENT) E.setState(peer, ESTABLISHED);
            E.setState(ep, ESTABLISHED);
          }
        }
        if (fin) {
          E.setState(ep, CLOSED);
          doClose = true;
        }
        if (rst) {
          E.setState(ep, RESET);
          doClose = true;
        }
        if (E.state[ep]! === INACTIVE) {
          if (!isOrig && len === 0 && E.state[conn.o]! === SYN_SENT) {
            // An ACK of the SYN before the SYN-ACK: not yet a partial connection.
          } else if (ack && E.state[peer]! === ESTABLISHED) {
            E.setState(ep, ESTABLISHED);
          } else {
            E.setState(ep, PARTIAL);
          }
        }
        break;
      }
      case SYN_SENT:
      case SYN_ACK_SENT:
        if (fin) {
          E.setState(ep, CLOSED);
          doClose = true;
        }
        if (rst) {
          E.setState(ep, RESET);
          doClose = true;
        }
        break;
      case ESTABLISHED:
      case PARTIAL:
        if (syn && E.state[ep]! === PARTIAL && E.state[peer]! === INACTIVE && !ack) E.setState(ep, SYN_SENT);
        if (fin && !rst) {
          E.setState(ep, CLOSED);
          if (E.state[peer]! === RESET && E.prevState[peer]! === CLOSED) E.setState(peer, CLOSED);
          doClose = true;
        }
        if (rst) {
          E.setState(ep, RESET);
          doClose = true;
        }
        break;
      case CLOSED:
        if (rst && E.state[peer]! !== CLOSED) {
          E.setState(ep, RESET);
          if (E.didClose[ep] === 0) doClose = true;
        }
        break;
      default:
        break;
    }
    if (doClose && E.didClose[ep] === 0) {
      E.didClose[ep] = 1;
      const complete = E.state[ep] === RESET || E.didClose[peer] === 1 || E.state[peer] === INACTIVE;
      if (complete && E.closeAt[conn.slot] === Infinity) E.closeAt[conn.slot] = E.lastTs[conn.slot]! + this.timeouts.tcpClose;
    }
    return isOrig;
  }

  /** Zeek's history letters: S, H, F, R once per direction (again on a new sequence number), D, A once; Q and I for odd flag mixes. */
  private history(conn: Connection, isOrig: boolean, d: DecodedPacket): void {
    const E = this.ends;
    const f = d.tcpFlags;
    const len = d.payloadWireLength;
    const ep = isOrig ? conn.o : conn.r;
    const relSeq = (d.seq - E.startSeq[ep]!) >>> 0;
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
      if (conn.checkHistory(isOrig, H_SYN, code) && relSeq !== E.lastSynSeq[ep]!) conn.addHistory(isOrig, code);
      E.lastSynSeq[ep] = relSeq;
      return;
    }
    if (fin) {
      const at = (relSeq + len) >>> 0;
      if (conn.checkHistory(isOrig, H_FIN, 'F') && at !== E.lastFinSeq[ep]!) conn.addHistory(isOrig, 'F');
      E.lastFinSeq[ep] = at;
      return;
    }
    if (rst) {
      if (conn.checkHistory(isOrig, H_RST, 'R') && relSeq !== E.lastRstSeq[ep]!) conn.addHistory(isOrig, 'R');
      E.lastRstSeq[ep] = relSeq;
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
    if (this.active.delete(conn)) {
      this.options.onClose?.(conn);
      this.ends.release(conn.slot);
    }
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
    this.ends.clear();
  }
}
