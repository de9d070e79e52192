// Counted parse warnings: one damaged record never sinks a capture, it becomes a count with the place it was first seen.

/** Every warning the capture parser can raise; the message for each is written here, never built from input. */
export const WARNING_MESSAGES = {
  truncated_file: 'the file ends inside a record or block',
  record_too_large: 'a record or block length does not fit the limits; reading stopped there',
  block_length_invalid: 'a pcapng block length is not a multiple of 4 or is shorter than a block header; reading stopped there',
  block_trailer_mismatch: 'a pcapng block trailer length differs from its header length',
  block_body_short: 'a pcapng block body is shorter than its fixed fields',
  section_header_invalid: 'a pcapng section header block is damaged',
  unknown_interface: 'a pcapng packet names an interface that was not described',
  packet_before_section: 'a pcapng block appeared before any section header; reading stopped there',
  options_damaged: 'pcapng options run past their block',
  caplen_exceeds_block: 'a packet claims more captured bytes than its record holds',
  timestamp_out_of_range: 'a pcapng packet time falls outside the four-digit years a date is written in; the packet is kept at time zero',
  unsupported_link_type: 'a packet uses a link type this parser does not decode',
  truncated_link_header: 'a packet ends inside its link-layer header',
  truncated_ip_header: 'a packet ends inside its IP header',
  bad_ip_header: 'an IP header is malformed (version or header length)',
  truncated_ipv6_extension: 'a packet ends inside an IPv6 extension header',
  too_many_ipv6_extensions: 'an IPv6 packet chains more extension headers than allowed',
  truncated_transport_header: 'a packet ends inside its TCP, UDP or ICMP header',
  bad_tcp_header: 'a TCP header length is malformed',
  fragment_limit: 'too many IP fragments were pending; the oldest were dropped',
  dns_malformed: 'a DNS message is malformed',
  dns_compression_loop: 'a DNS name uses compression pointers that loop or go too deep',
  tls_malformed: 'a TLS handshake record is malformed',
  http_malformed: 'an HTTP message head is malformed or too long',
  stream_gap: 'a TCP stream skipped bytes that were never captured',
  flow_limit: 'the flow table reached its limit; the oldest flows were closed early',
  zeek_row_malformed: 'a conn.log row could not be read (field count, address, port or protocol) and was skipped',
  zeek_value_unreadable: 'a conn.log time, interval or count could not be read and was taken as unset',
  zeek_row_before_header: 'a conn.log row came before its #fields header and was skipped',
  zeek_line_too_long: 'a conn.log line was longer than 64 KiB and was skipped',
  zeek_row_limit: 'the conn.log has more rows than the limit; reading stopped there',
} as const;

export type WarningCode = keyof typeof WARNING_MESSAGES;

/** One kind of warning: how often, and where it was first seen (byte offset of the record, packet number). */
export interface CaptureWarning {
  readonly code: WarningCode;
  readonly message: string;
  readonly count: number;
  /** Byte offset in the file of the record where this warning was first raised. */
  readonly firstOffset: number;
  /** 0-based packet number, when the warning belongs to a packet. */
  readonly firstPacket?: number;
}

interface Slot {
  count: number;
  firstOffset: number;
  firstPacket: number | undefined;
}

/** Collects warnings by code; memory stays bounded by the number of codes. */
export class WarningCounter {
  private readonly slots = new Map<WarningCode, Slot>();
  private totalCount = 0;

  add(code: WarningCode, offset: number, packet?: number): void {
    this.totalCount += 1;
    const slot = this.slots.get(code);
    if (slot) {
      slot.count += 1;
      return;
    }
    this.slots.set(code, { count: 1, firstOffset: offset, firstPacket: packet });
  }

  get total(): number {
    return this.totalCount;
  }

  count(code: WarningCode): number {
    return this.slots.get(code)?.count ?? 0;
  }

  list(): CaptureWarning[] {
    return [...this.slots.entries()]
      .map(([code, s]) => ({
        code,
        message: WARNING_MESSAGES[code],
        count: s.count,
        firstOffset: s.firstOffset,
        ...(s.firstPacket !== undefined ? { firstPacket: s.firstPacket } : {}),
      }))
      .sort((a, b) => a.firstOffset - b.firstOffset || a.code.localeCompare(b.code));
  }
}
