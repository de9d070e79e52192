// One pass over a capture: read, decode, reassemble fragments, place packets in connections, read application metadata.
import { createHash, type Hash } from 'node:crypto';
import { VitrineError } from '../../core/errors.js';
import { DecodedPacket, PacketDecoder, type DecodeStats } from './decode.js';
import { AddressText, FlowTable, ZEEK_TIMEOUTS, type ConnectionRecord, type FlowTimeouts } from './flows.js';
import { ConnectionColumns } from './records.js';
import { FragmentReassembler, type FragmentStats } from './fragments.js';
import { CaptureReader } from './reader.js';
import { feedBytes, feedFile, type FeedOptions } from './source.js';
import type { CaptureInfo, RawPacket } from './types.js';
import { WarningCounter, type CaptureWarning } from './warnings.js';
import { AppLayer, type AppMetadata } from './app/index.js';

export interface AnalyzeOptions extends FeedOptions {
  /** Connection timeouts; Zeek's by default. Use NO_TIMEOUTS for tshark's conversation view. */
  readonly timeouts?: FlowTimeouts;
  /** Read application metadata (DNS, HTTP, TLS, SSH, FTP, SMB, RDP, RFB); true by default. */
  readonly application?: boolean;
  /** Most live connections at once. */
  readonly maxActiveFlows?: number;
  /** Ports that make a non-SYN first packet's sender the responder; Zeek's analyzer ports by default, none in `zeek -b`. */
  readonly likelyServerPorts?: ReadonlySet<number>;
  /**
   * Hash the source with SHA-256 (true by default: the provenance of every fact). False only for a statistics
   * view that needs no provenance, as tshark's conversation table (the benchmark); `sha256` is then empty.
   */
  readonly sha256?: boolean;
}

export interface PacketCounts {
  /** Every packet record in the file. */
  readonly total: number;
  readonly ipv4: number;
  readonly ipv6: number;
  readonly nonIp: number;
  readonly arp: number;
  readonly tcp: number;
  readonly udp: number;
  readonly icmp: number;
  readonly otherIp: number;
  readonly vlanTagged: number;
  readonly ipv4WithOptions: number;
  /** Frames that were IP fragments. */
  readonly fragments: number;
  readonly snapTruncated: number;
  /** Packets that could not be placed in a connection (no IP, damaged headers, incomplete fragments). */
  readonly unplaced: number;
}

export interface CaptureAnalysis {
  readonly info: CaptureInfo;
  /** SHA-256 of the source bytes: the provenance of every fact below ('' when the options turned hashing off). */
  readonly sha256: string;
  readonly bytes: number;
  readonly packets: PacketCounts;
  readonly firstTs?: number;
  readonly lastTs?: number;
  readonly fragments: FragmentStats;
  /** Connections in order of their first packet. */
  readonly connections: ConnectionRecord[];
  readonly app: AppMetadata;
  readonly warnings: CaptureWarning[];
  readonly warningCount: number;
}

/** The streaming analysis behind analyzeCaptureFile and analyzeCaptureBytes. */
export class CaptureAnalyzer {
  readonly warnings = new WarningCounter();
  readonly reader: CaptureReader;
  private readonly decoder: PacketDecoder;
  private readonly fragments: FragmentReassembler;
  private readonly flows: FlowTable;
  private readonly app: AppLayer | undefined;
  private readonly d = new DecodedPacket();
  /** Finished connections as columns, in the order they ended. */
  private readonly finished = new ConnectionColumns();
  private readonly hash: Hash | undefined;
  private bytes = 0;
  private counts = { tcp: 0, udp: 0, icmp: 0, otherIp: 0, unplaced: 0 };
  /** NaN until the first packet: a number field stays unboxed, where `number | undefined` would box every store. */
  private firstTs = NaN;
  private lastTs = NaN;

  constructor(options: AnalyzeOptions = {}) {
    this.hash = options.sha256 === false ? undefined : createHash('sha256');
    this.decoder = new PacketDecoder(this.warnings);
    this.fragments = new FragmentReassembler(this.warnings);
    this.app = options.application === false ? undefined : new AppLayer(this.warnings);
    const addresses = new AddressText();
    this.flows = new FlowTable({
      timeouts: options.timeouts ?? ZEEK_TIMEOUTS,
      warnings: this.warnings,
      ...(options.maxActiveFlows !== undefined ? { maxActive: options.maxActiveFlows } : {}),
      ...(options.likelyServerPorts !== undefined ? { likelyServerPorts: options.likelyServerPorts } : {}),
      onClose: (slot) => {
        // Only the application layer needs the connection as an object.
        if (this.app !== undefined) this.app.close(this.flows.connection(slot));
        this.flows.keep(slot, addresses.format, this.finished);
      },
    });
    this.reader = new CaptureReader(this.warnings, (raw) => this.packet(raw));
  }

  /** Every chunk of the source goes through here for the provenance hash. */
  chunk(bytes: Uint8Array): void {
    this.hash?.update(bytes);
    this.bytes += bytes.length;
  }

  private packet(raw: RawPacket): void {
    if (this.firstTs !== this.firstTs) this.firstTs = raw.ts;
    this.lastTs = raw.ts;
    const d = this.d;
    const level = this.decoder.decode(raw, d);
    let frames = 1;
    if (level === 'ip' && d.fragment) {
      if (!this.fragments.add(d, raw.ts, raw.offset, raw.index)) return;
      frames = this.fragments.lastFrames;
      this.decoder.transport(d);
    }
    // A TCP, UDP or ICMP packet whose transport header could not be read has no place in a connection.
    const known = d.ipProto === 6 || d.ipProto === 17 || d.ipProto === 1 || d.ipProto === 58;
    if (d.level === 'none' || d.level === 'link' || (d.level === 'ip' && known)) {
      this.counts.unplaced += 1;
      return;
    }
    const placement = this.flows.add(d, raw, frames);
    const proto = placement.proto;
    if (proto === 'tcp') this.counts.tcp += 1;
    else if (proto === 'udp') this.counts.udp += 1;
    else if (proto === 'icmp') this.counts.icmp += 1;
    else this.counts.otherIp += 1;
    if (this.app !== undefined) this.app.packet(this.flows.connection(placement.slot), placement.isOrig, d, raw);
  }

  finish(info: CaptureInfo): CaptureAnalysis {
    this.flows.finish();
    this.fragments.finish();
    // Connections end in about the order they began; sort only when they did not.
    const finished: ConnectionRecord[] = this.finished.views();
    for (let i = 1; i < finished.length; i++) {
      if (finished[i - 1]!.firstPacket > finished[i]!.firstPacket) {
        finished.sort((a, b) => a.firstPacket - b.firstPacket);
        break;
      }
    }
    const s: DecodeStats = this.decoder.stats;
    return {
      info,
      sha256: this.hash?.digest('hex') ?? '',
      bytes: this.bytes,
      packets: {
        total: this.reader.packets,
        ipv4: s.ipv4,
        ipv6: s.ipv6,
        nonIp: s.nonIp,
        arp: s.arp,
        tcp: this.counts.tcp,
        udp: this.counts.udp,
        icmp: this.counts.icmp,
        otherIp: this.counts.otherIp,
        vlanTagged: s.vlanTagged,
        ipv4WithOptions: s.ipv4WithOptions,
        fragments: s.fragments,
        snapTruncated: s.snapTruncated,
        unplaced: this.counts.unplaced + this.fragments.stats.incompleteFrames,
      },
      ...(Number.isNaN(this.firstTs) ? {} : { firstTs: this.firstTs }),
      ...(Number.isNaN(this.lastTs) ? {} : { lastTs: this.lastTs }),
      fragments: { ...this.fragments.stats },
      connections: finished,
      app: this.app?.result() ?? AppLayer.empty(),
      warnings: this.warnings.list(),
      warningCount: this.warnings.total,
    };
  }
}

/** Analyses a capture file, read in chunks through one file handle. */
export async function analyzeCaptureFile(path: string, options: AnalyzeOptions = {}): Promise<CaptureAnalysis> {
  const analyzer = new CaptureAnalyzer(options);
  await feedFile(analyzer.reader, path, { ...options, onChunk: (c) => analyzer.chunk(c) });
  return analyzer.finish(requireInfo(analyzer.reader));
}

/** Analyses a capture already in memory (tests, uploads held in memory). */
export function analyzeCaptureBytes(bytes: Uint8Array, options: AnalyzeOptions = {}): CaptureAnalysis {
  const analyzer = new CaptureAnalyzer(options);
  feedBytes(analyzer.reader, bytes, { ...options, onChunk: (c) => analyzer.chunk(c) });
  return analyzer.finish(requireInfo(analyzer.reader));
}

function requireInfo(reader: CaptureReader): CaptureInfo {
  // end() has thrown a parse_error already when no header was read; this keeps the type honest.
  const info = reader.info;
  if (info === undefined) throw new VitrineError('parse_error', 'the input is not a pcap or pcapng capture');
  return info;
}
