// Bounded IPv4/IPv6 fragment reassembly, so a fragmented datagram is one packet to the flows (as for Zeek and tshark) and its payload can be read.
import type { DecodedPacket } from './decode.js';
import type { WarningCounter } from './warnings.js';

export interface FragmentLimits {
  /** Datagrams waiting for pieces at once. */
  readonly maxPending: number;
  /** Bytes held across all waiting datagrams. */
  readonly maxBytes: number;
  /** Seconds of capture time a datagram may wait for its pieces. */
  readonly timeout: number;
}

export const DEFAULT_FRAGMENT_LIMITS: FragmentLimits = { maxPending: 4096, maxBytes: 32 * 1024 * 1024, timeout: 30 };

/** The largest datagram we rebuild (IPv4's limit; IPv6 jumbograms are not fragmented in practice). */
const MAX_DATAGRAM = 65_535;
const MAX_PIECES = 128;

interface Pending {
  readonly first: number;
  /** Byte length of the whole payload once the last piece (no more-fragments) was seen. */
  total: number;
  pieces: Array<{ offset: number; bytes: Uint8Array }>;
  held: number;
  frames: number;
  headerLength: number;
}

export interface FragmentStats {
  /** Datagrams rebuilt from fragments. */
  reassembled: number;
  /** Fragment frames whose datagram was never completed (timed out, evicted or still pending at the end). */
  incompleteFrames: number;
}

export class FragmentReassembler {
  private readonly pending = new Map<string, Pending>();
  private held = 0;
  readonly stats: FragmentStats = { reassembled: 0, incompleteFrames: 0 };
  /** Frames that made up the datagram returned by the last successful add(). */
  lastFrames = 0;

  constructor(
    private readonly warnings: WarningCounter,
    private readonly limits: FragmentLimits = DEFAULT_FRAGMENT_LIMITS,
  ) {}

  /**
   * Adds the fragment decoded in `out`. When it completes its datagram, rewrites `out` so that buf and
   * the transport bounds cover the whole payload and returns true; the caller then decodes the transport.
   */
  add(out: DecodedPacket, ts: number, offset: number, index: number): boolean {
    this.expire(ts);
    const key =
      out.ipVersion === 4
        ? `4|${out.srcV4}|${out.dstV4}|${out.ipProto}|${out.fragmentId}`
        : `6|${out.srcV6}|${out.dstV6}|${out.fragmentId}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { first: ts, total: -1, pieces: [], held: 0, frames: 0, headerLength: out.ipLength - out.transportWireLength };
      this.pending.set(key, entry);
    }
    entry.frames += 1;
    const captured = out.buf.subarray(out.transportOffset, out.transportEnd);
    const start = out.fragmentOffset;
    if (!out.moreFragments) entry.total = start + out.transportWireLength;
    if (start + captured.length > MAX_DATAGRAM || entry.pieces.length >= MAX_PIECES) {
      this.drop(key, entry);
      this.warnings.add('fragment_limit', offset, index);
      return false;
    }
    entry.pieces.push({ offset: start, bytes: captured.slice() });
    entry.held += captured.length;
    this.held += captured.length;
    while ((this.pending.size > this.limits.maxPending || this.held > this.limits.maxBytes) && this.pending.size > 0) {
      const [oldKey, old] = this.pending.entries().next().value as [string, Pending];
      this.drop(oldKey, old);
      this.warnings.add('fragment_limit', offset, index);
    }
    if (entry.total < 0 || !this.pending.has(key)) return false;
    const whole = this.complete(entry);
    if (whole === undefined) return false;
    this.pending.delete(key);
    this.held -= entry.held;
    this.stats.reassembled += 1;
    this.lastFrames = entry.frames;
    out.buf = whole;
    out.transportOffset = 0;
    out.transportEnd = whole.length;
    out.transportWireLength = whole.length;
    out.ipLength = entry.headerLength + whole.length;
    out.fragment = false;
    return true;
  }

  /** Rebuilds the payload when the pieces cover [0, total) without a hole. */
  private complete(entry: Pending): Uint8Array | undefined {
    const pieces = [...entry.pieces].sort((a, b) => a.offset - b.offset);
    let covered = 0;
    for (const p of pieces) {
      if (p.offset > covered) return undefined;
      covered = Math.max(covered, p.offset + p.bytes.length);
    }
    if (covered < entry.total) return undefined;
    const whole = new Uint8Array(entry.total);
    // Earlier pieces win on overlap: write later ones first.
    for (let i = pieces.length - 1; i >= 0; i--) {
      const p = pieces[i];
      if (p === undefined || p.offset >= entry.total) continue;
      whole.set(p.bytes.subarray(0, entry.total - p.offset), p.offset);
    }
    return whole;
  }

  private drop(key: string, entry: Pending): void {
    this.pending.delete(key);
    this.held -= entry.held;
    this.stats.incompleteFrames += entry.frames;
  }

  private expire(ts: number): void {
    for (const [key, entry] of this.pending) {
      if (ts - entry.first <= this.limits.timeout) break;
      this.drop(key, entry);
    }
  }

  /** Counts whatever is still waiting when the capture ends. */
  finish(): void {
    for (const [key, entry] of this.pending) this.drop(key, entry);
  }
}
