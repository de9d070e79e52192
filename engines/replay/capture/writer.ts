// Writes pcap and pcapng files (both byte orders, every block type we read): for tests, the benchmark and synthetic captures.
import { closeSync, openSync, writeSync } from 'node:fs';

/** One packet to write. */
export interface PacketToWrite {
  readonly tsSec: number;
  /** Fraction of the second in nanoseconds (written as microseconds in a microsecond pcap). */
  readonly tsNsec?: number;
  readonly data: Uint8Array;
  /** Defaults to the data length. */
  readonly originalLength?: number;
  /** pcapng interface (index within the current section); 0 by default. */
  readonly interfaceId?: number;
}

export interface PcapOptions {
  readonly linkType?: number;
  readonly nanosecond?: boolean;
  readonly bigEndian?: boolean;
  readonly snapLen?: number;
}

/** Grows a byte buffer with typed writes in a fixed byte order. */
export class ByteSink {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(
    readonly little: boolean,
    initial = 1024,
  ) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.room(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
    return this;
  }
  u16(v: number): this {
    this.room(2);
    this.view.setUint16(this.length, v, this.little);
    this.length += 2;
    return this;
  }
  u32(v: number): this {
    this.room(4);
    this.view.setUint32(this.length, v >>> 0, this.little);
    this.length += 4;
    return this;
  }
  i64(v: bigint): this {
    this.room(8);
    this.view.setBigInt64(this.length, v, this.little);
    this.length += 8;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  pad4(): this {
    while (this.length % 4 !== 0) this.u8(0);
    return this;
  }
  /** Overwrites a u32 already written. */
  patch32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0, this.little);
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
  /** Empties the sink, returning a view of what it held (valid until the next write). */
  drain(): Uint8Array {
    const out = this.buf.subarray(0, this.length);
    this.length = 0;
    return out;
  }
}

function pcapHeader(sink: ByteSink, options: PcapOptions): void {
  sink
    .u32(options.nanosecond ? 0xa1b23c4d : 0xa1b2c3d4)
    .u16(2)
    .u16(4)
    .u32(0)
    .u32(0)
    .u32(options.snapLen ?? 262_144)
    .u32(options.linkType ?? 1);
}

function pcapRecord(sink: ByteSink, p: PacketToWrite, nanosecond: boolean): void {
  const nsec = p.tsNsec ?? 0;
  sink
    .u32(p.tsSec)
    .u32(nanosecond ? nsec : Math.floor(nsec / 1000))
    .u32(p.data.length)
    .u32(p.originalLength ?? p.data.length)
    .bytes(p.data);
}

/** A whole pcap file in memory. */
export function writePcap(packets: Iterable<PacketToWrite>, options: PcapOptions = {}): Uint8Array {
  const sink = new ByteSink(!options.bigEndian, 4096);
  pcapHeader(sink, options);
  for (const p of packets) pcapRecord(sink, p, options.nanosecond === true);
  return sink.result();
}

/** Writes a pcap file packet by packet through a buffer, for captures too large to build in memory. */
export class PcapFileWriter {
  private readonly fd: number;
  private readonly sink: ByteSink;
  private readonly nanosecond: boolean;
  packets = 0;

  constructor(path: string, options: PcapOptions = {}) {
    this.fd = openSync(path, 'w');
    this.sink = new ByteSink(!options.bigEndian, 1 << 22);
    this.nanosecond = options.nanosecond === true;
    pcapHeader(this.sink, options);
  }

  write(p: PacketToWrite): void {
    pcapRecord(this.sink, p, this.nanosecond);
    this.packets += 1;
    if (this.sink.length >= 1 << 22) this.flush();
  }

  private flush(): void {
    const out = this.sink.drain();
    let off = 0;
    while (off < out.length) off += writeSync(this.fd, out, off, out.length - off);
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

export interface InterfaceOptions {
  readonly linkType?: number;
  readonly snapLen?: number;
  /** Raw if_tsresol byte (6 = microseconds, 9 = nanoseconds, 0x80 | n = 2^-n). Omitted means the default (6). */
  readonly tsresol?: number;
  /** if_tsoffset in seconds. */
  readonly tsOffset?: number;
  readonly name?: string;
}

/** Builds a pcapng file block by block; each section may use its own byte order. */
export class PcapngBuilder {
  private readonly parts: Uint8Array[] = [];
  private little = true;
  private readonly resolutions: number[] = [];

  private block(type: number, body: (s: ByteSink) => void): this {
    const s = new ByteSink(this.little);
    s.u32(type).u32(0);
    body(s);
    s.pad4();
    const total = s.length + 4;
    s.u32(total);
    s.patch32(4, total);
    this.parts.push(s.result());
    return this;
  }

  /** A section header block; starts a new section whose interfaces are numbered from 0. */
  section(options: { bigEndian?: boolean } = {}): this {
    this.little = !options.bigEndian;
    this.resolutions.length = 0;
    return this.block(0x0a0d0d0a, (s) => {
      s.u32(0x1a2b3c4d).u16(1).u16(0).u32(0xffffffff).u32(0xffffffff);
    });
  }

  interface(options: InterfaceOptions = {}): this {
    this.resolutions.push(options.tsresol ?? 6);
    return this.block(1, (s) => {
      s.u16(options.linkType ?? 1)
        .u16(0)
        .u32(options.snapLen ?? 262_144);
      const opts: Array<[number, Uint8Array]> = [];
      if (options.name !== undefined) opts.push([2, new TextEncoder().encode(options.name)]);
      if (options.tsresol !== undefined) opts.push([9, Uint8Array.of(options.tsresol)]);
      if (options.tsOffset !== undefined) {
        const o = new ByteSink(this.little);
        o.i64(BigInt(options.tsOffset));
        opts.push([14, o.result()]);
      }
      writeOptions(s, opts);
    });
  }

  private units(p: PacketToWrite, ifIndex: number): bigint {
    const res = this.resolutions[ifIndex] ?? 6;
    const ns = BigInt(p.tsSec) * 1_000_000_000n + BigInt(p.tsNsec ?? 0);
    if ((res & 0x80) !== 0) return (ns << BigInt(res & 0x7f)) / 1_000_000_000n;
    const exp = res & 0x7f;
    return exp >= 9 ? ns * 10n ** BigInt(exp - 9) : ns / 10n ** BigInt(9 - exp);
  }

  /** Enhanced packet block. */
  epb(p: PacketToWrite): this {
    const ifIndex = p.interfaceId ?? 0;
    const units = this.units(p, ifIndex);
    return this.block(6, (s) => {
      s.u32(ifIndex)
        .u32(Number(units >> 32n))
        .u32(Number(units & 0xffffffffn))
        .u32(p.data.length)
        .u32(p.originalLength ?? p.data.length)
        .bytes(p.data)
        .pad4();
    });
  }

  /** Simple packet block (interface 0, no timestamp). */
  spb(data: Uint8Array, originalLength = data.length): this {
    return this.block(3, (s) => {
      s.u32(originalLength).bytes(data).pad4();
    });
  }

  /** Obsolete packet block (type 2). */
  opb(p: PacketToWrite): this {
    const ifIndex = p.interfaceId ?? 0;
    const units = this.units(p, ifIndex);
    return this.block(2, (s) => {
      s.u16(ifIndex)
        .u16(0)
        .u32(Number(units >> 32n))
        .u32(Number(units & 0xffffffffn))
        .u32(p.data.length)
        .u32(p.originalLength ?? p.data.length)
        .bytes(p.data)
        .pad4();
    });
  }

  /** Name resolution block with IPv4 records. */
  nrb(records: ReadonlyArray<{ ipv4: readonly number[]; names: readonly string[] }>): this {
    return this.block(4, (s) => {
      for (const r of records) {
        const names = new TextEncoder().encode(r.names.map((n) => `${n}\u0000`).join(''));
        s.u16(1)
          .u16(4 + names.length)
          .bytes(Uint8Array.from(r.ipv4))
          .bytes(names)
          .pad4();
      }
      s.u16(0).u16(0);
    });
  }

  /** Interface statistics block (received and dropped counters as options). */
  isb(ifIndex: number, received: number): this {
    return this.block(5, (s) => {
      s.u32(ifIndex).u32(0).u32(0);
      const o = new ByteSink(this.little);
      o.u32(received).u32(0);
      writeOptions(s, [[4, o.result()]]);
    });
  }

  /** Any block, for unknown-type and damage tests. */
  raw(type: number, body: Uint8Array): this {
    return this.block(type, (s) => {
      s.bytes(body);
    });
  }

  result(): Uint8Array {
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function writeOptions(s: ByteSink, opts: ReadonlyArray<[number, Uint8Array]>): void {
  if (opts.length === 0) return;
  for (const [code, value] of opts) {
    s.u16(code).u16(value.length).bytes(value).pad4();
  }
  s.u16(0).u16(0);
}
