// Flow table with Zeek's connection semantics: 5-tuple keys, originator by first packet or SYN, TCP endpoint states, history, conn_state and timeouts.
import { formatIpv4, formatIpv6, PROTO_ICMP, PROTO_ICMPV6, PROTO_TCP, PROTO_UDP, type DecodedPacket } from './decode.js';
import type { WarningCounter } from './warnings.js';
import { grownColumn } from '../../core/columns.js';
import type { ConnectionColumns } from './records.js';

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

/** The services the application layer confirms, in sorted order: a connection's are bits of a number, bit i for name i. */
export const SERVICE_NAMES = ['dns', 'ftp', 'http', 'rdp', 'rfb', 'smb', 'ssh', 'ssl'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The bit of a service name. */
function serviceBit(name: ServiceName): number {
  switch (name) {
    case 'dns':
      return 1;
    case 'ftp':
      return 2;
    case 'http':
      return 4;
    case 'rdp':
      return 8;
    case 'rfb':
      return 16;
    case 'smb':
      return 32;
    case 'ssh':
      return 64;
    case 'ssl':
      return 128;
  }
}

/** The names of a set of service bits, sorted (a new array). */
function serviceNames(bits: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < SERVICE_NAMES.length; i++) if ((bits & (1 << i)) !== 0) names.push(SERVICE_NAMES[i]!);
  return names;
}

// Transport codes in the `proto` column, and their names (index = code).
const P_TCP = 0;
const P_UDP = 1;
const P_ICMP = 2;
const P_OTHER = 3;
const PROTO_NAMES: readonly TransportName[] = ['tcp', 'udp', 'icmp', 'other'];

/** No slot (an empty bucket, the end of a chain or of the opening-order list). */
const NONE = -1;
/** History letters a slot holds in its column; a longer history goes on in a string kept aside. */
const HIST_SLOT = 16;
/** Histories of at most this many letters are shared as strings (keyed by 5 bits a letter, below 2^53). */
const HIST_SHARED = 10;
const LETTER_ORDER = 'SHFRDAQI^shfrdaqi';
/** 5-bit code of each history letter (0 for none). */
const LETTER_CODE = new Uint8Array(128);
for (let i = 0; i < LETTER_ORDER.length; i++) LETTER_CODE[LETTER_ORDER.charCodeAt(i)] = i + 1;
const CH_CARET = 0x5e;
const CH_S = 0x53;
const CH_H = 0x48;
const CH_F = 0x46;
const CH_R = 0x52;
const CH_D = 0x44;
const CH_A = 0x41;
const CH_Q = 0x51;
const CH_I = 0x49;

/**
 * Every live connection as columns (a struct of arrays): one row per slot for the connection (key, roles, times,
 * packet numbers, history letters, links of the index) and one per side for its two endpoints (side numbers 2s and
 * 2s + 1). Typed arrays lie outside the JavaScript heap, so the collector neither copies nor marks this state: a
 * connection costs no object at all unless the application layer asks for one (`FlowTable.connection`). The columns
 * grow by doubling, and slots of closed connections are used again.
 */
export class Endpoints {
  // Per side (index = side number).
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
  // Per connection (index = slot). Capture times of the first and last packet, and when a closed TCP connection or
  // an unanswered attempt is over (Infinity until then).
  startTs = new Float64Array(0);
  lastTs = new Float64Array(0);
  closeAt = new Float64Array(0);
  attemptAt = new Float64Array(0);
  serial = new Float64Array(0);
  /** The key: a 30-bit hash of the 5-tuple, and the tuple with its lower end (address, then port) first. */
  hash = new Int32Array(0);
  /** IPv4 key addresses, stored signed (0 for IPv6). */
  lowV4 = new Int32Array(0);
  highV4 = new Int32Array(0);
  /** IPv6 key addresses as 8-unit strings ('' for IPv4). */
  lowV6: string[] = [];
  highV6: string[] = [];
  lowP = new Uint16Array(0);
  highP = new Uint16Array(0);
  ipProto = new Uint8Array(0);
  /** P_TCP, P_UDP, P_ICMP or P_OTHER. */
  proto = new Uint8Array(0);
  ipVersion = new Uint8Array(0);
  /** 1 while the originator is the lower end of the key (a packet from it is then "forward"). */
  origIsLow = new Uint8Array(0);
  /** 1 when the roles were flipped (Zeek's '^'); the originator's side is then 2s + 1, else 2s. */
  flipped = new Uint8Array(0);
  firstPacket = new Float64Array(0);
  lastPacket = new Float64Array(0);
  fragmentFrames = new Float64Array(0);
  vlan = new Uint16Array(0);
  /** History letters (character codes), HIST_SLOT per slot, and how many; the rest of a longer one in `histMore`. */
  letters = new Uint8Array(0);
  letterCount = new Uint8Array(0);
  readonly histMore = new Map<number, string>();
  /** The index's links: the next slot with the same bucket, and the previous and next in order of opening. */
  chain = new Int32Array(0);
  prev = new Int32Array(0);
  next = new Int32Array(0);
  /** 1 while the slot holds a live connection. */
  live = new Uint8Array(0);
  /** Objects for connections the application layer asked for (see FlowTable.connection). */
  readonly handles: Array<Connection | undefined> = [];
  private capacity = 0;
  /** Slots handed out so far (the high-water mark); freed ones wait in `free`. */
  private used = 0;
  private readonly free: number[] = [];

  constructor(slots = 256) {
    this.grow(Math.max(1, slots));
  }

  get slots(): number {
    return this.capacity;
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
    this.flipped[slot] = 0;
    this.fragmentFrames[slot] = 0;
    this.letterCount[slot] = 0;
    this.chain[slot] = NONE;
    this.prev[slot] = NONE;
    this.next[slot] = NONE;
    this.live[slot] = 0;
    return slot;
  }

  /** Gives a closed connection's slot back. */
  release(slot: number): void {
    this.handles[slot] = undefined;
    if (this.letterCount[slot]! >= HIST_SLOT) this.histMore.delete(slot);
    this.free.push(slot);
  }

  /** Forgets every slot (the capture is over). */
  clear(): void {
    this.used = 0;
    this.free.length = 0;
    this.histMore.clear();
    this.handles.fill(undefined);
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

  /** Appends a history letter (a character code). */
  addLetter(slot: number, ch: number): void {
    const n = this.letterCount[slot]!;
    if (n < HIST_SLOT) {
      this.letters[slot * HIST_SLOT + n] = ch;
      this.letterCount[slot] = n + 1;
    } else {
      this.histMore.set(slot, (this.histMore.get(slot) ?? '') + String.fromCharCode(ch));
      if (n < 255) this.letterCount[slot] = n + 1;
    }
  }

  /** Sets history bit `bit` of side `e` and appends its letter the first time; true when it was set already. */
  checkHistory(slot: number, e: number, bit: number, ch: number): boolean {
    const h = this.hist[e]!;
    if ((h & bit) !== 0) return true;
    this.hist[e] = h | bit;
    this.addLetter(slot, ch);
    return false;
  }

  /** The history as text; short ones come from `shared`, one string per distinct history. */
  history(slot: number, shared: Map<number, string>): string {
    const n = this.letterCount[slot]!;
    const base = slot * HIST_SLOT;
    if (n <= HIST_SHARED) {
      // Every letter's code is 1 to 31, so the key also tells the length.
      let key = 0;
      for (let i = 0; i < n; i++) {
        const code = LETTER_CODE[this.letters[base + i]! & 0x7f]!;
        key = code === 0 || key < 0 ? -1 : key * 32 + code;
      }
      let text = key < 0 ? undefined : shared.get(key);
      if (text === undefined) {
        text = String.fromCharCode(...this.letters.subarray(base, base + n));
        if (key >= 0) {
          if (shared.size >= 65_536) shared.clear();
          shared.set(key, text);
        }
      }
      return text;
    }
    const head = String.fromCharCode(...this.letters.subarray(base, base + Math.min(n, HIST_SLOT)));
    return n < HIST_SLOT ? head : head + (this.histMore.get(slot) ?? '');
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
    this.packets = grownColumn(this.packets, n);
    this.ipBytes = grownColumn(this.ipBytes, n);
    this.payloadBytes = grownColumn(this.payloadBytes, n);
    this.state = grownColumn(this.state, n);
    this.prevState = grownColumn(this.prevState, n);
    this.startSeq = grownColumn(this.startSeq, n);
    this.lastSeq = grownColumn(this.lastSeq, n);
    this.ackSeq = grownColumn(this.ackSeq, n);
    this.seqKnown = grownColumn(this.seqKnown, n);
    this.finCount = grownColumn(this.finCount, n);
    this.rstCount = grownColumn(this.rstCount, n);
    this.synCount = grownColumn(this.synCount, n);
    this.didClose = grownColumn(this.didClose, n);
    this.hist = grownColumn(this.hist, n);
    this.lastSynSeq = grownColumn(this.lastSynSeq, n);
    this.lastFinSeq = grownColumn(this.lastFinSeq, n);
    this.lastRstSeq = grownColumn(this.lastRstSeq, n);
    this.active = grownColumn(this.active, n);
    this.startTs = grownColumn(this.startTs, slots);
    this.lastTs = grownColumn(this.lastTs, slots);
    this.closeAt = grownColumn(this.closeAt, slots);
    this.attemptAt = grownColumn(this.attemptAt, slots);
    this.serial = grownColumn(this.serial, slots);
    this.hash = grownColumn(this.hash, slots);
    this.lowV4 = grownColumn(this.lowV4, slots);
    this.highV4 = grownColumn(this.highV4, slots);
    this.lowP = grownColumn(this.lowP, slots);
    this.highP = grownColumn(this.highP, slots);
    this.ipProto = grownColumn(this.ipProto, slots);
    this.proto = grownColumn(this.proto, slots);
    this.ipVersion = grownColumn(this.ipVersion, slots);
    this.origIsLow = grownColumn(this.origIsLow, slots);
    this.flipped = grownColumn(this.flipped, slots);
    this.firstPacket = grownColumn(this.firstPacket, slots);
    this.lastPacket = grownColumn(this.lastPacket, slots);
    this.fragmentFrames = grownColumn(this.fragmentFrames, slots);
    this.vlan = grownColumn(this.vlan, slots);
    this.letters = grownColumn(this.letters, slots * HIST_SLOT);
    this.letterCount = grownColumn(this.letterCount, slots);
    this.chain = grownColumn(this.chain, slots);
    this.prev = grownColumn(this.prev, slots);
    this.next = grownColumn(this.next, slots);
    this.live = grownColumn(this.live, slots);
    for (let i = this.lowV6.length; i < slots; i++) {
      this.lowV6.push('');
      this.highV6.push('');
      this.handles.push(undefined);
    }
    this.capacity = slots;
  }
}

/**
 * A count as a small integer where it is one. A number read from a Float64Array is a heap number, and an object field
 * that once held one is stored boxed in every object after (a heap number of its own per field): the shared TCP
 * summaries' counts are kept small.
 */
function small(x: number): number {
  return x <= 0x3fffffff ? x | 0 : x;
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
const HANDSHAKES: readonly TcpHandshake[] = ['complete', 'half_open', 'attempt', 'midstream'];

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
  /** TCP only (a parsed record reads undefined for other transports, a conn.log's record leaves it out). */
  readonly tcp?: TcpSummary | undefined;
  /** Outermost VLAN id of the first packet, when tagged. */
  readonly vlan?: number | undefined;
  /** Packet numbers (0-based) of the first and last packet: where the connection is in the file. */
  readonly firstPacket: number;
  readonly lastPacket: number;
  /** Frames that arrived as IP fragments of this connection's datagrams. */
  readonly fragmentFrames: number;
}

/**
 * A live connection as an object, for the application layer (made by FlowTable.connection on its first packet
 * there, so only connections with application state have one): its fields read the flow table's columns, and it
 * holds what the columns cannot (the application state and confirmed services). It stands for its slot only while
 * the connection lives.
 */
export class Connection {
  /** Application-layer state owned by the analysis layer. */
  app: unknown = undefined;
  /** Zeek services confirmed by the application layer, as bits (see SERVICE_NAMES): a number, so no list per connection. */
  serviceBits = 0;

  /** Fixed for the connection's life, so kept here (still right if the object is read after the slot is reused). */
  readonly serial: number;
  readonly proto: TransportName;

  constructor(
    readonly ends: Endpoints,
    readonly slot: number,
  ) {
    this.serial = ends.serial[slot]!;
    this.proto = PROTO_NAMES[ends.proto[slot]!] ?? 'other';
  }

  /** Made on first use, once: the application layer reads it for every record of the connection. */
  private uidText: string | undefined = undefined;

  get uid(): string {
    if (this.uidText === undefined) this.uidText = `C${this.serial}`;
    return this.uidText;
  }

  get ipProto(): number {
    return this.ends.ipProto[this.slot]!;
  }

  get origP(): number {
    return this.ends.origIsLow[this.slot] === 1 ? this.ends.lowP[this.slot]! : this.ends.highP[this.slot]!;
  }

  get respP(): number {
    return this.ends.origIsLow[this.slot] === 1 ? this.ends.highP[this.slot]! : this.ends.lowP[this.slot]!;
  }

  /** Capture time of the first packet. */
  get startTs(): number {
    return this.ends.startTs[this.slot]!;
  }

  /** Capture time of the last packet that counts (TCP: not after both sides closed). */
  get lastTs(): number {
    return this.ends.lastTs[this.slot]!;
  }

  get firstPacket(): number {
    return this.ends.firstPacket[this.slot]!;
  }

  get lastPacket(): number {
    return this.ends.lastPacket[this.slot]!;
  }

  addService(name: ServiceName): void {
    this.serviceBits |= serviceBit(name);
  }

  /** The confirmed services, sorted (undefined when none). */
  get services(): string[] | undefined {
    return this.serviceBits === 0 ? undefined : serviceNames(this.serviceBits);
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
  /**
   * Called as each connection ends (timeout, reuse, eviction or end of capture), with its slot: read it then
   * (FlowTable.record, FlowTable.connection), as the slot is used again afterwards.
   */
  readonly onClose?: (slot: number) => void;
  readonly warnings?: WarningCounter;
}

/** What the flow table reads of a packet besides its headers (a RawPacket is one). */
export interface PacketTime {
  readonly ts: number;
  readonly index: number;
}

/** The result of placing one packet: its connection's slot and transport, and whether it came from the originator. */
export interface Placement {
  slot: number;
  proto: TransportName;
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
 * Live connections, found by 5-tuple without building a key per packet: an open hash table of slots (an Int32Array
 * of chain heads indexed by the tuple's hash, doubled as connections outnumber its buckets) with chains through the
 * `chain` column, compared field by field; and a doubly linked list in order of opening (the `prev` and `next`
 * columns), for sweeps, the oldest-first eviction and the end of the capture. No object per connection.
 */
export class ActiveConnections {
  private buckets = new Int32Array(1024).fill(NONE);
  private mask = 1023;
  private head = NONE;
  private tail = NONE;
  size = 0;

  constructor(private readonly E: Endpoints) {}

  /** The slot of the live connection with this key (IPv4 addresses in the V4 pair and '' for V6, IPv6 the other way round), or -1. */
  get(hash: number, ipProto: number, lowV4In: number, highV4In: number, lowV6: string, highV6: string, lowP: number, highP: number): number {
    const E = this.E;
    // Stored signed (see Endpoints.lowV4).
    const lowV4 = lowV4In | 0;
    const highV4 = highV4In | 0;
    let s = this.buckets[hash & this.mask]!;
    while (s !== NONE) {
      if (
        E.hash[s] === hash &&
        E.lowV4[s] === lowV4 &&
        E.highV4[s] === highV4 &&
        E.lowP[s] === lowP &&
        E.highP[s] === highP &&
        E.ipProto[s] === ipProto &&
        E.lowV6[s] === lowV6 &&
        E.highV6[s] === highV6
      )
        return s;
      s = E.chain[s]!;
    }
    return NONE;
  }

  /** Adds the connection in `slot` (its key columns set), last in order of opening. */
  add(slot: number): void {
    const E = this.E;
    if (this.size >= this.buckets.length) this.rehash(this.buckets.length * 2);
    const b = E.hash[slot]! & this.mask;
    E.chain[slot] = this.buckets[b]!;
    this.buckets[b] = slot;
    E.live[slot] = 1;
    E.prev[slot] = this.tail;
    E.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else E.next[this.tail] = slot;
    this.tail = slot;
    this.size += 1;
  }

  /** Removes a live connection; false when it was not live. */
  delete(slot: number): boolean {
    const E = this.E;
    if (E.live[slot] !== 1) return false;
    E.live[slot] = 0;
    const b = E.hash[slot]! & this.mask;
    let s = this.buckets[b]!;
    if (s === slot) this.buckets[b] = E.chain[slot]!;
    else {
      while (s !== NONE && E.chain[s] !== slot) s = E.chain[s]!;
      if (s !== NONE) E.chain[s] = E.chain[slot]!;
    }
    E.chain[slot] = NONE;
    const p = E.prev[slot]!;
    const n = E.next[slot]!;
    if (p === NONE) this.head = n;
    else E.next[p] = n;
    if (n === NONE) this.tail = p;
    else E.prev[n] = p;
    E.prev[slot] = NONE;
    E.next[slot] = NONE;
    this.size -= 1;
    return true;
  }

  /** The slot of the live connection opened first, or -1. */
  get oldest(): number {
    return this.head;
  }

  /** The slot opened after `slot`, or -1. */
  after(slot: number): number {
    return this.E.next[slot]!;
  }

  /** Empties the index; returns the first of the slots it held, still linked in order of opening (see `after`). */
  clear(): number {
    const first = this.head;
    this.buckets.fill(NONE);
    this.head = NONE;
    this.tail = NONE;
    this.size = 0;
    return first;
  }

  private rehash(n: number): void {
    const E = this.E;
    this.buckets = new Int32Array(n).fill(NONE);
    this.mask = n - 1;
    for (let s = this.head; s !== NONE; s = E.next[s]!) {
      const b = E.hash[s]! & this.mask;
      E.chain[s] = this.buckets[b]!;
      this.buckets[b] = s;
    }
  }
}

export class FlowTable {
  /** Every live connection, as columns. */
  readonly ends = new Endpoints();
  private readonly active = new ActiveConnections(this.ends);
  private serial = 0;
  private readonly timeouts: FlowTimeouts;
  private readonly likely: ReadonlySet<number>;
  private readonly maxActive: number;
  private lastSweep = -Infinity;
  private sinceSweep = 0;
  /** False when no timeout is finite (tshark's view): nothing ever expires, so no sweeps. */
  private readonly sweepable: boolean;
  private readonly placement: Placement = { slot: NONE, proto: 'other', isOrig: true };
  /** History texts shared between records (most connections have one of a few histories). */
  private readonly histories = new Map<number, string>();
  /** TCP summaries shared between records (see tcpSummary). */
  private readonly summaries = new Map<number, TcpSummary>();
  /** Service lists of one name, shared between records, by the name's bit (see serviceList). */
  private readonly singleServices: Array<readonly string[] | undefined> = new Array<readonly string[] | undefined>(256).fill(undefined);
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
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** The object for the live connection in `slot` (made on first use; the application layer keeps its state there). */
  connection(slot: number): Connection {
    let c = this.ends.handles[slot];
    if (c === undefined) {
      c = new Connection(this.ends, slot);
      this.ends.handles[slot] = c;
    }
    return c;
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
    const proto =
      d.level !== 'transport'
        ? P_OTHER
        : ipProto === PROTO_TCP
          ? P_TCP
          : ipProto === PROTO_UDP
            ? P_UDP
            : ipProto === PROTO_ICMP || ipProto === PROTO_ICMPV6
              ? P_ICMP
              : P_OTHER;
    let sp = 0;
    let dp = 0;
    if (proto === P_TCP || proto === P_UDP) {
      sp = d.sport;
      dp = d.dport;
    } else if (proto === P_ICMP) {
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
    let slot: number;
    const v4 = d.ipVersion === 4;
    if (v4) {
      const src = d.srcV4;
      const dst = d.dstV4;
      forward = src < dst || (src === dst && sp <= dp);
      // Compared unsigned above; passed on signed (as the columns hold them): an address of 128.0.0.0 or above is
      // not a small integer unsigned, and passing it to a call that is not inlined would box it on every packet.
      const s32 = src | 0;
      const d32 = dst | 0;
      hash = mix(mix(mix(ipProto, forward ? (sp << 16) | dp : (dp << 16) | sp), forward ? s32 : d32), forward ? d32 : s32) & 0x3fffffff;
      slot = forward ? this.active.get(hash, ipProto, s32, d32, '', '', sp, dp) : this.active.get(hash, ipProto, d32, s32, '', '', dp, sp);
    } else {
      const src = d.srcV6;
      const dst = d.dstV6;
      forward = src < dst || (src === dst && sp <= dp);
      hash = mixV6(mixV6(mix(ipProto | 0x100, forward ? (sp << 16) | dp : (dp << 16) | sp), forward ? src : dst), forward ? dst : src) & 0x3fffffff;
      slot = forward ? this.active.get(hash, ipProto, 0, 0, src, dst, sp, dp) : this.active.get(hash, ipProto, 0, 0, dst, src, dp, sp);
    }

    // Nothing expires when no timeout is finite (tshark's view): the check would only read four more columns.
    if (slot !== NONE && ((this.sweepable && this.expired(slot)) || (proto === P_TCP && this.isReuse(slot, d)))) {
      this.close(slot);
      slot = NONE;
    }
    if (slot === NONE) slot = this.open(hash, forward, proto, d, sp, dp, packet.index);
    // From the originator when the packet goes the originator's way along the key; a connection from an
    // address and port to themselves has only one side.
    let isOrig =
      forward === (E.origIsLow[slot] === 1) || (E.lowP[slot] === E.highP[slot] && (v4 ? E.lowV4[slot] === E.highV4[slot] : E.lowV6[slot] === E.highV6[slot]));
    const ep = 2 * slot + (isOrig ? E.flipped[slot]! : 1 - E.flipped[slot]!);
    E.packets[ep]! += 1;
    E.ipBytes[ep]! += d.ipLength;
    E.payloadBytes[ep]! += d.payloadWireLength;
    E.active[ep] = 1;
    if (frames > 1) E.fragmentFrames[slot]! += frames;
    E.lastPacket[slot] = packet.index;
    if (proto === P_TCP) {
      isOrig = this.tcp(slot, isOrig, d);
    } else {
      E.lastTs[slot] = ts;
      if (proto === P_UDP) E.checkHistory(slot, ep, H_DATA, isOrig ? CH_D : CH_D | 0x20);
    }
    const placement = this.placement;
    placement.slot = slot;
    placement.proto = PROTO_NAMES[proto] ?? 'other';
    placement.isOrig = isOrig;
    return placement;
  }

  /** Opens a connection for the packet in `d` (at `now`), `forward` when it goes from the key's lower end; returns its slot. */
  private open(hash: number, forward: boolean, proto: number, d: DecodedPacket, sp: number, dp: number, index: number): number {
    if (this.active.size >= this.maxActive) {
      const oldest = this.active.oldest;
      if (oldest !== NONE) {
        this.options.warnings?.add('flow_limit', 0, index);
        this.close(oldest);
      }
    }
    this.serial += 1;
    this.created += 1;
    const E = this.ends;
    const slot = E.alloc();
    const v4 = d.ipVersion === 4;
    E.serial[slot] = this.serial;
    E.hash[slot] = hash;
    E.lowV4[slot] = v4 ? (forward ? d.srcV4 : d.dstV4) : 0;
    E.highV4[slot] = v4 ? (forward ? d.dstV4 : d.srcV4) : 0;
    E.lowV6[slot] = v4 ? '' : forward ? d.srcV6 : d.dstV6;
    E.highV6[slot] = v4 ? '' : forward ? d.dstV6 : d.srcV6;
    E.lowP[slot] = forward ? sp : dp;
    E.highP[slot] = forward ? dp : sp;
    E.origIsLow[slot] = forward ? 1 : 0;
    E.proto[slot] = proto;
    E.ipProto[slot] = d.ipProto;
    E.ipVersion[slot] = d.ipVersion;
    E.startTs[slot] = this.now;
    E.lastTs[slot] = this.now;
    E.firstPacket[slot] = index;
    E.lastPacket[slot] = index;
    E.vlan[slot] = d.vlan;
    // Zeek's choice of originator: the sender of the first packet, unless that packet is not a bare
    // SYN (TCP) and comes from a likely server port while going to one that is not.
    let flip = false;
    if (proto === P_TCP) {
      const f = d.tcpFlags;
      const bareSyn = (f & F_SYN) !== 0 && (f & F_ACK) === 0;
      if (!bareSyn && this.likely.has(sp)) {
        flip = this.likely.has(dp) ? (f & F_SYN) === 0 && sp < dp : true;
      }
    } else if (proto === P_UDP) {
      flip = this.likely.has(sp) && !this.likely.has(dp);
    }
    if (flip) this.flip(slot);
    this.active.add(slot);
    return slot;
  }

  /** Swaps the roles of a connection's ends (the sides trade places by number: nothing is copied). */
  private flip(slot: number): void {
    const E = this.ends;
    E.origIsLow[slot] = 1 - E.origIsLow[slot]!;
    E.flipped[slot] = 1 - E.flipped[slot]!;
    E.addLetter(slot, CH_CARET);
  }

  /** True when the connection's time is up at `now`. */
  private expired(slot: number): boolean {
    const E = this.ends;
    const ts = this.now;
    const t = this.timeouts;
    const proto = E.proto[slot];
    const idle = proto === P_TCP ? t.tcp : proto === P_UDP ? t.udp : proto === P_ICMP ? t.icmp : t.other;
    if (ts - E.lastTs[slot]! > idle) return true;
    if (proto !== P_TCP) return false;
    if (ts > E.closeAt[slot]!) return true;
    const o = 2 * slot + E.flipped[slot]!;
    if (ts > E.attemptAt[slot]! && (E.state[o]! === SYN_SENT || E.state[o]! === SYN_ACK_SENT) && E.state[o ^ 1]! === INACTIVE) return true;
    return false;
  }

  /** Zeek's IsReuse: a new initial SYN (or a SYN-ACK on a half connection) with another sequence number starts a new connection. */
  private isReuse(slot: number, d: DecodedPacket): boolean {
    const E = this.ends;
    const f = d.tcpFlags;
    if ((f & F_SYN) === 0) return false;
    const o = 2 * slot + E.flipped[slot]!;
    const r = o ^ 1;
    let connOrig = o;
    if ((f & F_ACK) !== 0) {
      if (E.state[o]! !== INACTIVE) return false;
      connOrig = r;
    }
    // Not closed: neither side sent a FIN or RST (Zeek's IsClosed).
    if ((E.didClose[o]! | E.didClose[r]!) === 0) {
      if (d.seq === E.startSeq[connOrig]!) return false;
      if ((f & F_ACK) === 0 && E.state[connOrig]! === SYN_ACK_SENT && E.state[r]! === INACTIVE && d.seq === E.startSeq[r]!) return false;
    }
    return true;
  }

  /** Runs the TCP endpoint state machine for one segment; returns isOrig after any role flip. */
  private tcp(slot: number, isOrigIn: boolean, d: DecodedPacket): boolean {
    const E = this.ends;
    const ts = this.now;
    let isOrig = isOrigIn;
    let o = 2 * slot + E.flipped[slot]!;
    const ep = isOrig ? o : o ^ 1;
    const peer = ep ^ 1;
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
    this.history(slot, ep, isOrig, d);
    if (E.didClose[o] === 0 || E.didClose[o ^ 1] === 0) E.lastTs[slot] = ts;
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
            if (E.attemptAt[slot] === Infinity) E.attemptAt[slot] = ts + this.timeouts.tcpAttempt;
          } else {
            if (!ack && E.state[peer]! === SYN_ACK_SENT && seq === E.startSeq[ep]!) {
              // SYN and SYN-ACK arrived in reverse order: swap roles and establish. The sides keep their numbers;
              // this one becomes the originator's.
              this.flip(slot);
              isOrig = !isOrig;
              o = 2 * slot + E.flipped[slot]!;
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
          if (!isOrig && len === 0 && E.state[o]! === SYN_SENT) {
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
      if (complete && E.closeAt[slot] === Infinity) E.closeAt[slot] = E.lastTs[slot]! + this.timeouts.tcpClose;
    }
    return isOrig;
  }

  /** Zeek's history letters: S, H, F, R once per direction (again on a new sequence number), D, A once; Q and I for odd flag mixes. */
  private history(slot: number, ep: number, isOrig: boolean, d: DecodedPacket): void {
    const E = this.ends;
    const f = d.tcpFlags;
    const len = d.payloadWireLength;
    const lower = isOrig ? 0 : 0x20;
    const relSeq = (d.seq - E.startSeq[ep]!) >>> 0;
    const syn = (f & F_SYN) !== 0;
    const fin = (f & F_FIN) !== 0;
    const rst = (f & F_RST) !== 0;
    const bits = (syn ? 1 : 0) + (fin ? 1 : 0) + (rst ? 1 : 0);
    if (bits > 1) {
      if (fin && rst) E.checkHistory(slot, ep, H_FINRST, CH_I | lower);
      else E.checkHistory(slot, ep, H_MULTI, CH_Q | lower);
      return;
    }
    if (syn) {
      const ch = ((f & F_ACK) !== 0 ? CH_H : CH_S) | lower;
      if (E.checkHistory(slot, ep, H_SYN, ch) && relSeq !== E.lastSynSeq[ep]!) E.addLetter(slot, ch);
      E.lastSynSeq[ep] = relSeq;
      return;
    }
    if (fin) {
      const at = (relSeq + len) >>> 0;
      if (E.checkHistory(slot, ep, H_FIN, CH_F | lower) && at !== E.lastFinSeq[ep]!) E.addLetter(slot, CH_F | lower);
      E.lastFinSeq[ep] = at;
      return;
    }
    if (rst) {
      if (E.checkHistory(slot, ep, H_RST, CH_R | lower) && relSeq !== E.lastRstSeq[ep]!) E.addLetter(slot, CH_R | lower);
      E.lastRstSeq[ep] = relSeq;
      return;
    }
    if (len > 0) E.checkHistory(slot, ep, H_DATA, CH_D | lower);
    else if ((f & F_ACK) !== 0) E.checkHistory(slot, ep, H_ACK, CH_A | lower);
  }

  /** Closes every connection whose time is up. */
  private sweep(): void {
    this.lastSweep = this.now;
    this.sinceSweep = 0;
    let slot = this.active.oldest;
    while (slot !== NONE) {
      const next = this.active.after(slot);
      if (this.expired(slot)) this.close(slot);
      slot = next;
    }
  }

  private close(slot: number): void {
    // A connection ends once: closing one that is no longer live does nothing.
    if (this.active.delete(slot)) {
      this.options.onClose?.(slot);
      this.ends.release(slot);
    }
  }

  /** Ends every live connection (the capture is over). */
  finish(): void {
    // Every connection goes: hand them over in order of opening, then drop the whole index at once.
    for (let slot = this.active.clear(); slot !== NONE; slot = this.active.after(slot)) this.options.onClose?.(slot);
    this.ends.clear();
  }

  /** Zeek's conn_state of the connection in `slot`. */
  connState(slot: number): string {
    const E = this.ends;
    const o = 2 * slot + E.flipped[slot]!;
    const r = o ^ 1;
    const os = E.state[o]!;
    const rs = E.state[r]!;
    const proto = E.proto[slot];
    if (proto === P_TCP) {
      const oInactive = os === INACTIVE || os === PARTIAL;
      const rInactive = rs === INACTIVE || rs === PARTIAL;
      if (rs === RESET) {
        if (os === SYN_SENT || os === SYN_ACK_SENT || (os === RESET && E.seqSize(o, r) === 0 && E.seqSize(r, o) === 0)) return 'REJ';
        return oInactive ? 'RSTRH' : 'RSTR';
      }
      if (os === RESET) {
        if (rInactive) return /^\^?S[^HAFGIQ]*R.*/.test(E.history(slot, this.histories)) ? 'RSTOS0' : 'OTH';
        return 'RSTO';
      }
      if (rs === CLOSED && os === CLOSED) return 'SF';
      if (os === CLOSED) return rInactive ? 'SH' : 'S2';
      if (rs === CLOSED) return oInactive ? 'SHR' : 'S3';
      if (os === SYN_SENT && rs === INACTIVE) return 'S0';
      if (os === ESTABLISHED && rs === ESTABLISHED) return 'S1';
      return 'OTH';
    }
    if (proto === P_UDP) {
      if (E.active[o] === 1) return E.active[r] === 1 ? 'SF' : 'S0';
      return E.active[r] === 1 ? 'SHR' : 'OTH';
    }
    return 'OTH';
  }

  /** How far the TCP opening of the connection in `slot` got. */
  handshake(slot: number): TcpHandshake {
    const E = this.ends;
    const o = 2 * slot + E.flipped[slot]!;
    const oh = E.hist[o]!;
    if ((oh & H_SYN) === 0) return 'midstream';
    if ((E.hist[o ^ 1]! & H_SYN) === 0) return 'attempt';
    // The originator's ACK (or data) after the SYN-ACK completes the three-way handshake.
    return (oh & (H_ACK | H_DATA | H_FIN)) !== 0 ? 'complete' : 'half_open';
  }

  /**
   * The TCP summary of the connection in `slot`. Most connections share one of a few summaries (a closed session:
   * complete, closed, closed, 2 SYNs, one FIN each way), so those with small counts get one frozen object per
   * distinct summary instead of three objects each.
   */
  private tcpSummary(slot: number, o: number, r: number): TcpSummary {
    const E = this.ends;
    const handshake = this.handshake(slot);
    const syns = E.synCount[o]! + E.synCount[r]!;
    const ro = E.rstCount[o]!;
    const rr = E.rstCount[r]!;
    const fo = E.finCount[o]!;
    const fr = E.finCount[r]!;
    let key = -1;
    if ((syns | ro | rr | fo | fr) < 16) {
      key = HANDSHAKES.indexOf(handshake);
      key = key * 8 + E.state[o]!;
      key = key * 8 + E.state[r]!;
      key = (((key * 16 + syns) * 16 + ro) * 16 + rr) * 16 + fo;
      key = key * 16 + fr;
      const shared = this.summaries.get(key);
      if (shared !== undefined) return shared;
    }
    const summary: TcpSummary = {
      handshake,
      origState: STATE_NAMES[E.state[o]!] ?? 'inactive',
      respState: STATE_NAMES[E.state[r]!] ?? 'inactive',
      syns: small(syns),
      resets: { orig: small(ro), resp: small(rr) },
      fins: { orig: small(fo), resp: small(fr) },
    };
    if (key >= 0 && this.summaries.size < 65_536) {
      Object.freeze(summary.resets);
      Object.freeze(summary.fins);
      this.summaries.set(key, Object.freeze(summary));
    }
    return summary;
  }

  /**
   * Writes the record of the connection in `slot` as a new row of `out` (call from onClose, before the slot is used
   * again); returns the row.
   */
  keep(slot: number, format: (a: number | string, v: number) => string, out: ConnectionColumns): number {
    const E = this.ends;
    const tcp = E.proto[slot] === P_TCP;
    const o = 2 * slot + E.flipped[slot]!;
    const r = o ^ 1;
    const version = E.ipVersion[slot]!;
    const low = E.origIsLow[slot] === 1;
    const v4 = version === 4;
    const handle = E.handles[slot];
    const services = handle === undefined ? 0 : handle.serviceBits;
    const i = out.add();
    // The application layer's records of this connection carry the same uid string; others make it when read.
    out.uid[i] = handle !== undefined ? handle.uid : '';
    out.serial[i] = E.serial[slot]!;
    out.proto[i] = E.proto[slot]!;
    out.ipProto[i] = E.ipProto[slot]!;
    out.origH[i] = format(v4 ? (low ? E.lowV4[slot]! : E.highV4[slot]!) : low ? E.lowV6[slot]! : E.highV6[slot]!, version);
    out.origP[i] = low ? E.lowP[slot]! : E.highP[slot]!;
    out.respH[i] = format(v4 ? (low ? E.highV4[slot]! : E.lowV4[slot]!) : low ? E.highV6[slot]! : E.lowV6[slot]!, version);
    out.respP[i] = low ? E.highP[slot]! : E.lowP[slot]!;
    out.startTs[i] = E.startTs[slot]!;
    out.lastTs[i] = E.lastTs[slot]!;
    const sides = out.sides;
    const k = i * 8;
    sides[k] = E.packets[o]!;
    sides[k + 1] = E.ipBytes[o]!;
    sides[k + 2] = E.payloadBytes[o]!;
    sides[k + 3] = tcp ? E.seqSize(o, r) : E.payloadBytes[o]!;
    sides[k + 4] = E.packets[r]!;
    sides[k + 5] = E.ipBytes[r]!;
    sides[k + 6] = E.payloadBytes[r]!;
    sides[k + 7] = tcp ? E.seqSize(r, o) : E.payloadBytes[r]!;
    out.connState[i] = this.connState(slot);
    out.history[i] = E.history(slot, this.histories);
    out.flipped[i] = E.flipped[slot]!;
    out.service[i] = services === 0 ? NO_SERVICES : this.serviceList(services);
    out.firstPacket[i] = E.firstPacket[slot]!;
    out.lastPacket[i] = E.lastPacket[slot]!;
    out.fragmentFrames[i] = E.fragmentFrames[slot]!;
    out.tcp[i] = tcp ? this.tcpSummary(slot, o, r) : undefined;
    out.vlan[i] = E.vlan[slot]!;
    return i;
  }

  /** A connection's services (bits), sorted; lists of one name are shared (frozen), as most connections have one service. */
  private serviceList(bits: number): readonly string[] {
    // Two or more services: a new sorted list; one: the shared list of that name.
    if ((bits & (bits - 1)) !== 0) return serviceNames(bits);
    let list = this.singleServices[bits];
    if (list === undefined) {
      list = Object.freeze(serviceNames(bits));
      this.singleServices[bits] = list;
    }
    return list;
  }
}
