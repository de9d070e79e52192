// In-order delivery of one direction of a TCP connection: trims retransmissions, holds a bounded number of early segments, reports gaps.

/** Early segments held waiting for a hole to fill, and their total bytes. */
const MAX_PENDING_SEGMENTS = 64;
const MAX_PENDING_BYTES = 256 * 1024;

/**
 * Where a connection's two directions deliver: one sink per connection, told the direction. Bytes come as a range
 * of a buffer (the capture chunk the packet lies in, or a held copy), valid only during the call, so an in-order
 * segment is handed on without a view or a copy made for it.
 */
export interface StreamSink {
  /** Bytes `buf[start, end)` in stream order. */
  data(isOrig: boolean, buf: Uint8Array, start: number, end: number, ts: number, packet: number): void;
  /** Bytes that were never captured were skipped. */
  gap(isOrig: boolean, length: number): void;
}

interface Early {
  seq: number;
  bytes: Uint8Array;
  ts: number;
  packet: number;
}

function seqDelta(a: number, b: number): number {
  return (a - b) | 0;
}

export class TcpStream {
  /** The next sequence number expected, once `started` (a number field, so storing it allocates nothing). */
  private next = 0;
  private started = false;
  /** Segments that came before a hole; null until one does (most streams never hold one). */
  private early: Early[] | null = null;
  private earlyBytes = 0;

  constructor(
    private readonly sink: StreamSink,
    private readonly isOrig: boolean,
  ) {}

  /**
   * Back to a new stream's state, for the next connection that reuses this one. `earlyBytes` is not zero after a
   * stream that was not flushed (its connection was done) and is pinned by the reuse tests with `started` and
   * `early`; `next` cannot change an output: it is read only once `started`, and start() sets it.
   */
  reset(): void {
    this.next = 0;
    this.started = false;
    this.early = null;
    this.earlyBytes = 0;
  }

  /** A SYN fixes the start: the first data byte follows its sequence number. */
  syn(seq: number): void {
    if (!this.started) this.start((seq + 1) >>> 0);
  }

  /**
   * One segment's payload, `buf[offset, offset + captured)` (`captured` may be shorter than `wireLength` when the
   * snap length cut it); the bytes are read during the call or copied when held.
   */
  segment(seq: number, buf: Uint8Array, offset: number, captured: number, wireLength: number, ts: number, packet: number): void {
    if (wireLength === 0) return;
    if (!this.started) this.start(seq);
    const d = seqDelta(seq, this.next);
    if (d > 0) {
      this.hold(seq, buf.slice(offset, offset + captured), ts, packet);
      return;
    }
    this.deliver(seq, buf, offset, captured, wireLength, ts, packet);
    if (this.early !== null) this.drain();
  }

  private start(seq: number): void {
    this.next = seq;
    this.started = true;
  }

  private deliver(seq: number, buf: Uint8Array, offset: number, captured: number, wireLength: number, ts: number, packet: number): void {
    const skip = this.started ? -seqDelta(seq, this.next) : 0;
    if (skip >= wireLength) return; // all seen before (a retransmission)
    if (skip < captured) {
      this.sink.data(this.isOrig, buf, offset + skip, offset + captured, ts, packet);
    }
    // Bytes on the wire but not in the capture (snap length) are a gap for the parser.
    const missing = wireLength - Math.max(skip, captured);
    if (missing > 0) this.sink.gap(this.isOrig, missing);
    this.next = (seq + wireLength) >>> 0;
  }

  private hold(seq: number, bytes: Uint8Array, ts: number, packet: number): void {
    // Keep only what was captured; a held segment shorter than its wire length gets its gap on delivery.
    const early = this.early ?? (this.early = []);
    early.push({ seq, bytes, ts, packet });
    this.earlyBytes += bytes.length;
    if (early.length > MAX_PENDING_SEGMENTS || this.earlyBytes > MAX_PENDING_BYTES) this.skipToEarliest();
  }

  /** Gives up on the hole: jumps to the earliest held segment and reports the bytes between as a gap. */
  private skipToEarliest(): void {
    const early = this.early;
    if (early === null) return;
    early.sort((a, b) => seqDelta(a.seq, b.seq));
    const first = early[0];
    if (first === undefined || !this.started) return;
    const missing = seqDelta(first.seq, this.next);
    if (missing > 0) {
      this.sink.gap(this.isOrig, missing);
      this.next = first.seq;
    }
    this.drain();
  }

  private drain(): void {
    const early = this.early;
    if (early === null) return;
    while (early.length > 0 && this.started) {
      let best = -1;
      for (let i = 0; i < early.length; i++) {
        const e = early[i];
        if (e !== undefined && seqDelta(e.seq, this.next) <= 0) {
          best = i;
          break;
        }
      }
      if (best < 0) return;
      const [e] = early.splice(best, 1);
      if (e === undefined) return;
      this.earlyBytes -= e.bytes.length;
      this.deliver(e.seq, e.bytes, 0, e.bytes.length, e.bytes.length, e.ts, e.packet);
    }
  }

  /** The connection ended: deliver whatever is held, with gaps where holes remain. */
  flush(): void {
    const early = this.early;
    if (early === null) return;
    while (early.length > 0) {
      const before = early.length;
      this.skipToEarliest();
      if (early.length === before) early.length = 0;
    }
  }
}
