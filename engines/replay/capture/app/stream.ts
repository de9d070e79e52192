// In-order delivery of one direction of a TCP connection: trims retransmissions, holds a bounded number of early segments, reports gaps.

/** Early segments held waiting for a hole to fill, and their total bytes. */
const MAX_PENDING_SEGMENTS = 64;
const MAX_PENDING_BYTES = 256 * 1024;

export interface StreamSink {
  /** Bytes in stream order; the view is valid only during the call. */
  data(bytes: Uint8Array, ts: number, packet: number): void;
  /** Bytes that were never captured were skipped. */
  gap(length: number): void;
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
  private readonly early: Early[] = [];
  private earlyBytes = 0;
  /** Bytes delivered so far. */
  delivered = 0;
  gaps = 0;

  constructor(private readonly sink: StreamSink) {}

  /** A SYN fixes the start: the first data byte follows its sequence number. */
  syn(seq: number): void {
    if (!this.started) this.start((seq + 1) >>> 0);
  }

  /** One segment's payload (`captured` may be shorter than `wireLength` when the snap length cut it). */
  segment(seq: number, captured: Uint8Array, wireLength: number, ts: number, packet: number): void {
    if (wireLength === 0) return;
    if (!this.started) this.start(seq);
    const d = seqDelta(seq, this.next);
    if (d > 0) {
      this.hold(seq, captured, wireLength, ts, packet);
      return;
    }
    this.deliver(seq, captured, wireLength, ts, packet);
    this.drain();
  }

  private start(seq: number): void {
    this.next = seq;
    this.started = true;
  }

  private deliver(seq: number, captured: Uint8Array, wireLength: number, ts: number, packet: number): void {
    const skip = this.started ? -seqDelta(seq, this.next) : 0;
    if (skip >= wireLength) return; // all seen before (a retransmission)
    if (skip < captured.length) {
      const part = skip === 0 ? captured : captured.subarray(skip);
      this.delivered += part.length;
      this.sink.data(part, ts, packet);
    }
    // Bytes on the wire but not in the capture (snap length) are a gap for the parser.
    const missing = wireLength - Math.max(skip, captured.length);
    if (missing > 0) {
      this.gaps += 1;
      this.sink.gap(missing);
    }
    this.next = (seq + wireLength) >>> 0;
  }

  private hold(seq: number, captured: Uint8Array, _wireLength: number, ts: number, packet: number): void {
    // Keep only what was captured; a held segment shorter than its wire length gets its gap on delivery.
    this.early.push({ seq, bytes: captured.slice(), ts, packet });
    this.earlyBytes += captured.length;
    if (this.early.length > MAX_PENDING_SEGMENTS || this.earlyBytes > MAX_PENDING_BYTES) this.skipToEarliest();
  }

  /** Gives up on the hole: jumps to the earliest held segment and reports the bytes between as a gap. */
  private skipToEarliest(): void {
    this.early.sort((a, b) => seqDelta(a.seq, b.seq));
    const first = this.early[0];
    if (first === undefined || !this.started) return;
    const missing = seqDelta(first.seq, this.next);
    if (missing > 0) {
      this.gaps += 1;
      this.sink.gap(missing);
      this.next = first.seq;
    }
    this.drain();
  }

  private drain(): void {
    while (this.early.length > 0 && this.started) {
      let best = -1;
      for (let i = 0; i < this.early.length; i++) {
        const e = this.early[i];
        if (e !== undefined && seqDelta(e.seq, this.next) <= 0) {
          best = i;
          break;
        }
      }
      if (best < 0) return;
      const [e] = this.early.splice(best, 1);
      if (e === undefined) return;
      this.earlyBytes -= e.bytes.length;
      this.deliver(e.seq, e.bytes, e.bytes.length, e.ts, e.packet);
    }
  }

  /** The connection ended: deliver whatever is held, with gaps where holes remain. */
  flush(): void {
    while (this.early.length > 0) {
      const before = this.early.length;
      this.skipToEarliest();
      if (this.early.length === before) this.early.length = 0;
    }
  }
}
