// Incremental pcap / pcapng reader: fed chunks of any size, it emits packets and counts damage, with bounded memory.
import { VitrineError } from '../../core/errors.js';
import type { CaptureInfo, CaptureInterface, PacketHandler, RawPacket } from './types.js';
import { MAX_TIME_SEC, MIN_TIME_SEC, unitsPerSecondFromTsresol, unitsToSecNsec, type SecNsec } from './timestamps.js';
import type { WarningCounter } from './warnings.js';

/** Largest packet we accept (Wireshark's standard maximum snapshot length). */
export const MAX_PACKET_BYTES = 262_144;
/** Largest pcapng block we accept; longer lengths are treated as damage and stop the read. */
export const MAX_BLOCK_BYTES = 16 * 1024 * 1024;
/** Bytes of a new chunk joined at first to a partial record left from the chunk before. */
const JOIN_BYTES = 64 * 1024;
const EMPTY = new Uint8Array(0);
/** Name resolution records kept from NRBs. */
const MAX_NAME_RECORDS = 10_000;

const PCAP_MAGIC_US = 0xa1b2c3d4;
const PCAP_MAGIC_NS = 0xa1b23c4d;
const PCAP_MAGIC_MODIFIED = 0xa1b2cd34; // Alexey Kuznetzov's patched libpcap: 8 more bytes per record header
const PCAPNG_SHB = 0x0a0d0d0a;
const PCAPNG_BOM = 0x1a2b3c4d;

const BT_IDB = 1;
const BT_OPB = 2;
const BT_SPB = 3;
const BT_NRB = 4;
const BT_ISB = 5;
const BT_EPB = 6;

/** What a format returns after a pass over the buffer: bytes consumed, and whether reading must stop. */
interface Consumed {
  used: number;
  stop: boolean;
}

interface FormatParser {
  consume(buf: Uint8Array, view: DataView, base: number): Consumed;
}

/** Recognises the format from the first four bytes (by magic, never by file name). */
export function detectFormat(head: Uint8Array): 'pcap' | 'pcapng' | undefined {
  if (head.length < 4) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, 4);
  const le = view.getUint32(0, true);
  const be = view.getUint32(0, false);
  if (be === PCAPNG_SHB) return 'pcapng';
  for (const m of [PCAP_MAGIC_US, PCAP_MAGIC_NS, PCAP_MAGIC_MODIFIED]) if (le === m || be === m) return 'pcap';
  return undefined;
}

/**
 * The one packet record the reader reuses for every packet (the handler copies what it keeps, as documented on
 * RawPacket). `data` is made on first use only: the decoder reads `bytes` from `start`, so a packet costs no view.
 */
class PacketRecord implements RawPacket {
  index = 0;
  offset = 0;
  interfaceId = 0;
  linkType = 0;
  tsSec = 0;
  tsNsec = 0;
  ts = 0;
  capturedLength = 0;
  originalLength = 0;
  bytes: Uint8Array = new Uint8Array(0);
  start = 0;
  private view: Uint8Array | undefined = undefined;

  get data(): Uint8Array {
    if (this.view === undefined) this.view = this.bytes.subarray(this.start, this.start + this.capturedLength);
    return this.view;
  }

  set(bytes: Uint8Array, start: number, capturedLength: number): void {
    this.bytes = bytes;
    this.start = start;
    this.capturedLength = capturedLength;
    this.view = undefined;
  }
}

/** Shared state between the reader and its format: packet numbering, the info record, warnings and the handler. */
class Emitter {
  index = 0;
  readonly info: CaptureInfo;
  /** The time of the packet being emitted (see emit). */
  readonly stamp: SecNsec = { sec: 0, nsec: 0 };
  private readonly current = new PacketRecord();

  constructor(
    format: 'pcap' | 'pcapng',
    readonly warnings: WarningCounter,
    private readonly handler: PacketHandler,
  ) {
    this.info = { format, sections: 0, interfaces: [], names: [], statisticsBlocks: 0, skippedBlocks: 0 };
  }

  /**
   * Emits the packet held in `bytes[start, start + caplen)`, stamped with `stamp` (set by the caller). The time goes
   * through that object, not as arguments: seconds since 1970 are beyond V8's small integers, and a number passed
   * to a call that is not inlined is boxed, which would be an allocation per packet.
   */
  emit(offset: number, iface: CaptureInterface, bytes: Uint8Array, start: number, caplen: number, origLen: number): void {
    const p = this.current;
    const sec = this.stamp.sec;
    const nsec = this.stamp.nsec;
    p.index = this.index;
    p.offset = offset;
    p.interfaceId = iface.id;
    p.linkType = iface.linkType;
    p.tsSec = sec;
    p.tsNsec = nsec;
    p.ts = sec + nsec / 1e9;
    p.originalLength = origLen;
    p.set(bytes, start, caplen);
    this.index += 1;
    this.handler(p);
  }

  /**
   * Emits a packet whose time is in the interface's units (pcapng). 64 bits of units and a 64-bit if_tsoffset can
   * name any second up to 2^64: a time outside years 0000-9999 (what a date, ISO 8601 and STIX can write) is
   * damage, counted, and the packet is kept at time 0, as a simple packet block without a time is.
   */
  emitUnits(offset: number, iface: CaptureInterface, hi: number, lo: number, bytes: Uint8Array, start: number, caplen: number, origLen: number): void {
    const stamp = this.stamp;
    unitsToSecNsec(hi, lo, iface.unitsPerSecond, iface.tsOffset, stamp);
    if (!(stamp.sec >= MIN_TIME_SEC && stamp.sec < MAX_TIME_SEC)) {
      this.warnings.add('timestamp_out_of_range', offset, this.index);
      stamp.sec = 0;
      stamp.nsec = 0;
    }
    this.emit(offset, iface, bytes, start, caplen, origLen);
  }
}

class PcapParser implements FormatParser {
  private headerDone = false;
  private little = true;
  private nano = false;
  private recordHeader = 16;
  private iface: CaptureInterface | undefined;

  constructor(private readonly out: Emitter) {}

  consume(buf: Uint8Array, view: DataView, base: number): Consumed {
    let pos = 0;
    if (!this.headerDone) {
      if (buf.length < 24) return { used: 0, stop: false };
      const magicLe = view.getUint32(0, true);
      this.little = magicLe === PCAP_MAGIC_US || magicLe === PCAP_MAGIC_NS || magicLe === PCAP_MAGIC_MODIFIED;
      const magic = view.getUint32(0, this.little);
      this.nano = magic === PCAP_MAGIC_NS;
      if (magic === PCAP_MAGIC_MODIFIED) this.recordHeader = 24;
      const major = view.getUint16(4, this.little);
      const minor = view.getUint16(6, this.little);
      const snapLen = view.getUint32(16, this.little);
      // The link type is the low 16 bits; the upper bits may carry FCS information.
      const linkType = view.getUint32(20, this.little) & 0xffff;
      this.iface = { id: 0, section: 0, linkType, snapLen, unitsPerSecond: this.nano ? 1e9 : 1e6, tsOffset: 0 };
      const info = this.out.info;
      info.byteOrder = this.little ? 'little' : 'big';
      info.nanosecond = this.nano;
      info.version = `${major}.${minor}`;
      info.sections = 1;
      info.interfaces.push(this.iface);
      this.headerDone = true;
      pos = 24;
    }
    const iface = this.iface;
    if (iface === undefined) return { used: pos, stop: true };
    const little = this.little;
    const rh = this.recordHeader;
    const stamp = this.out.stamp;
    while (buf.length - pos >= rh) {
      const caplen = view.getUint32(pos + 8, little);
      if (caplen > MAX_PACKET_BYTES) {
        this.out.warnings.add('record_too_large', base + pos, this.out.index);
        return { used: pos, stop: true };
      }
      if (buf.length - pos - rh < caplen) break;
      const sec = view.getUint32(pos, little);
      const frac = view.getUint32(pos + 4, little);
      const origLen = view.getUint32(pos + 12, little);
      // A fraction beyond one second is damage; keep the packet and fold the excess into seconds.
      const nsec = this.nano ? frac : frac * 1000;
      const carry = Math.floor(nsec / 1e9);
      stamp.sec = sec + carry;
      stamp.nsec = nsec - carry * 1e9;
      this.out.emit(base + pos, iface, buf, pos + rh, caplen, origLen);
      pos += rh + caplen;
    }
    return { used: pos, stop: false };
  }
}

interface Section {
  little: boolean;
  /** Interfaces of this section, in IDB order; values are the file-wide interface records. */
  interfaces: CaptureInterface[];
}

class PcapngParser implements FormatParser {
  private section: Section | undefined;

  constructor(private readonly out: Emitter) {}

  consume(buf: Uint8Array, view: DataView, base: number): Consumed {
    let pos = 0;
    const warnings = this.out.warnings;
    while (buf.length - pos >= 12) {
      const at = base + pos;
      let little = this.section?.little ?? true;
      const typeRaw = view.getUint32(pos, true);
      if (typeRaw === PCAPNG_SHB) {
        // The byte-order magic decides how this section, including this block's own length, is read.
        const bom = view.getUint32(pos + 8, true);
        if (bom === PCAPNG_BOM) little = true;
        else if (view.getUint32(pos + 8, false) === PCAPNG_BOM) little = false;
        else {
          warnings.add('section_header_invalid', at);
          return { used: pos, stop: true };
        }
      } else if (this.section === undefined) {
        warnings.add('packet_before_section', at);
        return { used: pos, stop: true };
      }
      const type = view.getUint32(pos, little);
      const total = view.getUint32(pos + 4, little);
      if (total < 12 || total % 4 !== 0) {
        warnings.add('block_length_invalid', at);
        return { used: pos, stop: true };
      }
      if (total > MAX_BLOCK_BYTES) {
        warnings.add('record_too_large', at);
        return { used: pos, stop: true };
      }
      if (buf.length - pos < total) break;
      if (view.getUint32(pos + total - 4, little) !== total) warnings.add('block_trailer_mismatch', at, this.out.index);
      const bodyStart = pos + 8;
      const bodyEnd = pos + total - 4;
      if (type === PCAPNG_SHB) {
        this.sectionHeader(buf, view, bodyStart, bodyEnd, little, at);
      } else {
        this.block(type, buf, view, bodyStart, bodyEnd, little, at);
      }
      pos += total;
    }
    return { used: pos, stop: false };
  }

  private sectionHeader(_buf: Uint8Array, view: DataView, start: number, end: number, little: boolean, at: number): void {
    // Byte-order magic (4), major (2), minor (2), section length (8), then options we do not need.
    if (end - start < 16) this.out.warnings.add('block_body_short', at);
    else if (view.getUint16(start + 4, little) !== 1) this.out.warnings.add('section_header_invalid', at);
    this.section = { little, interfaces: [] };
    this.out.info.sections += 1;
  }

  private block(type: number, buf: Uint8Array, view: DataView, start: number, end: number, little: boolean, at: number): void {
    const section = this.section;
    if (section === undefined) return;
    const warnings = this.out.warnings;
    const len = end - start;
    switch (type) {
      case BT_IDB: {
        if (len < 8) {
          warnings.add('block_body_short', at);
          // Keep numbering aligned with the file's intent: an unreadable IDB still occupies its slot.
        }
        const linkType = len >= 2 ? view.getUint16(start, little) : 0xffff;
        const snapLen = len >= 8 ? view.getUint32(start + 4, little) : 0;
        let unitsPerSecond = 1e6;
        let tsOffset = 0;
        let name: string | undefined;
        let description: string | undefined;
        if (len > 8) {
          const ok = walkOptions(view, start + 8, end, little, (code, vs, vl) => {
            if (code === 9 && vl >= 1) {
              const ups = unitsPerSecondFromTsresol(view.getUint8(vs));
              if (ups !== undefined) unitsPerSecond = ups;
            } else if (code === 14 && vl >= 8) {
              tsOffset = Number(view.getBigInt64(vs, little));
            } else if (code === 2) {
              name = utf8(buf.subarray(vs, vs + Math.min(vl, 256)));
            } else if (code === 3) {
              description = utf8(buf.subarray(vs, vs + Math.min(vl, 256)));
            }
          });
          if (!ok) warnings.add('options_damaged', at);
        }
        const iface: CaptureInterface = {
          id: this.out.info.interfaces.length,
          section: this.out.info.sections - 1,
          linkType,
          snapLen,
          unitsPerSecond,
          tsOffset,
          ...(name !== undefined ? { name } : {}),
          ...(description !== undefined ? { description } : {}),
        };
        this.out.info.interfaces.push(iface);
        section.interfaces.push(iface);
        return;
      }
      case BT_EPB:
      case BT_OPB:
        this.timedPacket(type, section, buf, view, start, len, little, at);
        return;
      case BT_SPB: {
        if (len < 4) {
          warnings.add('block_body_short', at, this.out.index);
          return;
        }
        const iface = section.interfaces[0];
        if (iface === undefined) {
          warnings.add('unknown_interface', at, this.out.index);
          return;
        }
        const origLen = view.getUint32(start, little);
        // An SPB holds min(original length, snaplen) bytes; the block length bounds it in any case.
        let caplen = Math.min(origLen, len - 4);
        if (iface.snapLen > 0) caplen = Math.min(caplen, iface.snapLen);
        if (caplen > MAX_PACKET_BYTES) {
          warnings.add('record_too_large', at, this.out.index);
          return;
        }
        // A simple packet carries no timestamp.
        this.out.stamp.sec = 0;
        this.out.stamp.nsec = 0;
        this.out.emit(at, iface, buf, start + 4, caplen, origLen);
        return;
      }
      case BT_NRB: {
        if (!this.nameRecords(buf, view, start, end, little)) warnings.add('options_damaged', at);
        return;
      }
      case BT_ISB:
        this.out.info.statisticsBlocks += 1;
        return;
      default:
        this.out.info.skippedBlocks += 1;
    }
  }

  /**
   * An enhanced packet block, or the obsolete packet block it replaced: the same body (interface, 64-bit time,
   * captured and original lengths, data) except that the old one numbers the interface in 16 bits, then 16 of drops.
   */
  private timedPacket(type: number, section: Section, buf: Uint8Array, view: DataView, start: number, len: number, little: boolean, at: number): void {
    const warnings = this.out.warnings;
    if (len < 20) {
      warnings.add('block_body_short', at, this.out.index);
      return;
    }
    const iface = section.interfaces[type === BT_EPB ? view.getUint32(start, little) : view.getUint16(start, little)];
    if (iface === undefined) {
      warnings.add('unknown_interface', at, this.out.index);
      return;
    }
    const caplen = view.getUint32(start + 12, little);
    const origLen = view.getUint32(start + 16, little);
    if (caplen > len - 20) {
      warnings.add('caplen_exceeds_block', at, this.out.index);
      return;
    }
    if (caplen > MAX_PACKET_BYTES) {
      warnings.add('record_too_large', at, this.out.index);
      return;
    }
    this.out.emitUnits(at, iface, view.getUint32(start + 4, little), view.getUint32(start + 8, little), buf, start + 20, caplen, origLen);
  }

  /** Reads NRB records (IPv4 = 1, IPv6 = 2, end = 0); returns false when a record runs past the block. */
  private nameRecords(buf: Uint8Array, view: DataView, start: number, end: number, little: boolean): boolean {
    let pos = start;
    const names = this.out.info.names;
    while (end - pos >= 4) {
      const type = view.getUint16(pos, little);
      const vl = view.getUint16(pos + 2, little);
      const vs = pos + 4;
      if (type === 0) return true;
      if (vs + vl > end) return false;
      const addrLen = type === 1 ? 4 : type === 2 ? 16 : 0;
      if (addrLen > 0 && vl >= addrLen && names.length < MAX_NAME_RECORDS) {
        const addr = buf.subarray(vs, vs + addrLen);
        const list = utf8(buf.subarray(vs + addrLen, vs + vl))
          .split('\u0000')
          .filter((n) => n.length > 0)
          .slice(0, 16);
        names.push({ address: addrLen === 4 ? [...addr].join('.') : ipv6Hex(addr), names: list });
      }
      pos = vs + ((vl + 3) & ~3);
    }
    return pos <= end;
  }
}

/** Walks pcapng options (code, length, value padded to 4) until opt_endofopt; false when one overruns. */
function walkOptions(
  view: DataView,
  start: number,
  end: number,
  little: boolean,
  visit: (code: number, valueStart: number, valueLength: number) => void,
): boolean {
  let pos = start;
  while (end - pos >= 4) {
    const code = view.getUint16(pos, little);
    const vl = view.getUint16(pos + 2, little);
    if (code === 0) return true;
    const vs = pos + 4;
    if (vs + vl > end) return false;
    visit(code, vs, vl);
    pos = vs + ((vl + 3) & ~3);
  }
  return true;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
function utf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

function ipv6Hex(b: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i + 1 < b.length; i += 2) parts.push((((b[i] ?? 0) << 8) | (b[i + 1] ?? 0)).toString(16));
  return parts.join(':');
}

/**
 * A streaming capture reader. Feed it chunks in file order, then call end(); packets go to the handler
 * as soon as they are complete. Only a partial record is kept between chunks, and its length is
 * checked against the limits before we wait for it, so memory stays bounded whatever the input says.
 */
export class CaptureReader {
  private parser: FormatParser | undefined;
  private emitter: Emitter | undefined;
  private tail: Uint8Array = EMPTY;
  private consumed = 0;
  private stopped = false;

  constructor(
    private readonly warnings: WarningCounter,
    private readonly handler: PacketHandler,
  ) {}

  /** Information about the file; available once the first bytes were fed. */
  get info(): CaptureInfo | undefined {
    return this.emitter?.info;
  }

  get packets(): number {
    return this.emitter?.index ?? 0;
  }

  /** True once damage made the reader stop; further chunks are ignored. */
  get hasStopped(): boolean {
    return this.stopped;
  }

  feed(chunk: Uint8Array): void {
    if (this.stopped || chunk.length === 0) return;
    let rest = chunk;
    // A partial record waits from the last chunk: join it with the head of this one (a little at first, twice as
    // much each time it is not enough), so the rest of the chunk is parsed where it lies instead of being copied.
    while (this.tail.length > 0 && rest.length > 0) {
      const tailLength = this.tail.length;
      const take = Math.min(rest.length, Math.max(JOIN_BYTES, tailLength));
      const joined = new Uint8Array(tailLength + take);
      joined.set(this.tail, 0);
      joined.set(rest.subarray(0, take), tailLength);
      const used = this.parse(joined);
      if (this.stopped) return;
      if (used >= tailLength) {
        // The waiting record is done; what is left of the joined bytes is the chunk's own from here.
        this.tail = EMPTY;
        rest = rest.subarray(used - tailLength);
      } else {
        this.tail = joined.subarray(used);
        rest = rest.subarray(take);
      }
    }
    if (rest.length === 0) return;
    const used = this.parse(rest);
    if (this.stopped) return;
    // Copy the partial record: the caller may reuse the chunk's memory for the next read.
    if (used < rest.length) this.tail = rest.slice(used);
  }

  /** Parses whole records from the start of `buf` (which begins at file offset `consumed`); returns bytes used. */
  private parse(buf: Uint8Array): number {
    if (this.parser === undefined) {
      if (buf.length < 4) return 0;
      const format = detectFormat(buf);
      if (format === undefined) throw new VitrineError('parse_error', 'the input is not a pcap or pcapng capture');
      this.emitter = new Emitter(format, this.warnings, this.handler);
      this.parser = format === 'pcap' ? new PcapParser(this.emitter) : new PcapngParser(this.emitter);
    }
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const { used, stop } = this.parser.consume(buf, view, this.consumed);
    this.consumed += used;
    if (stop) {
      this.stopped = true;
      this.tail = EMPTY;
    }
    return used;
  }

  /** Signals the end of input; a partial record left over becomes a warning. */
  end(): void {
    if (this.parser === undefined) {
      throw new VitrineError('parse_error', 'the input is not a pcap or pcapng capture');
    }
    if (!this.stopped && this.tail.length > 0) this.warnings.add('truncated_file', this.consumed, this.packets);
    if (this.emitter && this.emitter.info.format === 'pcap' && this.emitter.info.interfaces.length === 0) {
      throw new VitrineError('parse_error', 'the pcap file header is incomplete');
    }
    if (this.emitter && this.emitter.info.format === 'pcapng' && this.emitter.info.sections === 0) {
      throw new VitrineError('parse_error', 'the pcapng section header is incomplete or damaged');
    }
    this.tail = EMPTY;
  }
}
