// Shared shapes of the capture reader: raw packets as read from a pcap or pcapng file, and what the file said about itself.

/** One captured packet as the file holds it, before any protocol decoding. The reader reuses one record: copy what you keep. */
export interface RawPacket {
  /** 0-based packet number in file order (the same numbering as tshark's frame number minus one). */
  readonly index: number;
  /** Byte offset in the file of the record (pcap) or block (pcapng) that holds the packet. */
  readonly offset: number;
  /** Interface number across the whole file (pcapng sections are numbered on); 0 for pcap. */
  readonly interfaceId: number;
  /** LINKTYPE_* value of the interface. */
  readonly linkType: number;
  /** Whole seconds since the epoch (after the interface's time offset). */
  readonly tsSec: number;
  /** Nanoseconds within the second, 0..999999999. */
  readonly tsNsec: number;
  /** tsSec + tsNsec / 1e9 as one number (precise to well under a microsecond). */
  readonly ts: number;
  /** Bytes captured (the length of `data`). */
  readonly capturedLength: number;
  /** Length of the packet on the wire. */
  readonly originalLength: number;
  /** The captured bytes; a view valid only during the callback that receives it. Copy what you keep. */
  readonly data: Uint8Array;
  /**
   * The buffer the packet lies in and where it starts: `data` is `bytes[start, start + capturedLength)`.
   * The hot path (the decoder) reads through these so that no view is made per packet; `bytes` is valid only
   * during the callback, like `data`.
   */
  readonly bytes: Uint8Array;
  readonly start: number;
}

/** One pcapng interface description (pcap files have a single implicit interface). */
export interface CaptureInterface {
  readonly id: number;
  readonly section: number;
  readonly linkType: number;
  readonly snapLen: number;
  /** Timestamp units per second as described by if_tsresol, for example 1000000 (the default) or 1e9. */
  readonly unitsPerSecond: number;
  /** if_tsoffset in seconds (0 when absent). */
  readonly tsOffset: number;
  readonly name?: string;
  readonly description?: string;
}

/** One name resolution record from a pcapng NRB. */
export interface NameRecord {
  readonly address: string;
  readonly names: readonly string[];
}

/** What the file says about itself. */
export interface CaptureInfo {
  /** `zeek_conn`: a Zeek conn.log (connections only, no packets). */
  format: 'pcap' | 'pcapng' | 'zeek_conn';
  /** pcap only: byte order of the file header. */
  byteOrder?: 'little' | 'big';
  /** pcap only: true for the nanosecond magic. */
  nanosecond?: boolean;
  /** pcap only: version major.minor. */
  version?: string;
  /** Number of pcapng sections (1 for pcap). */
  sections: number;
  interfaces: CaptureInterface[];
  /** Names from pcapng name resolution blocks (bounded). */
  names: NameRecord[];
  /** Interface statistics blocks seen and skipped. */
  statisticsBlocks: number;
  /** Blocks of other or unknown types that were skipped. */
  skippedBlocks: number;
}

export type PacketHandler = (packet: RawPacket) => void;
