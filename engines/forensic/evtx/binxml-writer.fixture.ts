// A writer of BinXml and of whole EVTX files (one chunk, valid checksums), for tests that build records byte by byte.
import { crc32 } from 'node:zlib';

/** Writes BinXml at a known chunk offset (names and templates are addressed by chunk offset). */
export class W {
  readonly b: number[] = [];
  constructor(private readonly base: number) {}
  get pos(): number {
    return this.base + this.b.length;
  }
  u8(v: number): this {
    this.b.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  raw(bytes: ArrayLike<number>): this {
    for (let i = 0; i < bytes.length; i++) this.b.push(bytes[i]!);
    return this;
  }
  utf16(s: string): this {
    for (let i = 0; i < s.length; i++) this.u16(s.charCodeAt(i));
    return this;
  }
  /** A name stored inline: its offset points just past the offset field. */
  name(s: string): this {
    this.u32(this.pos + 4);
    return this.u32(0).u16(0).u16(s.length).utf16(s).u16(0);
  }
  fragment(): this {
    return this.u8(0x0f).u8(1).u8(1).u8(0);
  }
  /** Element start; template definitions carry a dependency identifier. */
  open(name: string, attrs = false, template = true): this {
    this.u8(attrs ? 0x41 : 0x01);
    if (template) this.u16(0xffff);
    this.u32(0).name(name);
    return attrs ? this.u32(0) : this;
  }
  attr(name: string): this {
    return this.u8(0x06).name(name);
  }
  closeStart(): this {
    return this.u8(0x02);
  }
  closeEmpty(): this {
    return this.u8(0x03);
  }
  end(): this {
    return this.u8(0x04);
  }
  eof(): this {
    return this.u8(0x00);
  }
  text(s: string): this {
    return this.u8(0x05).u8(0x01).u16(s.length).utf16(s);
  }
  sub(id: number, type: number, optional = false): this {
    return this.u8(optional ? 0x0e : 0x0d).u16(id).u8(type);
  }
  /** `<name>%id</name>` in a template. */
  leaf(name: string, id: number, type: number, optional = false): this {
    return this.open(name).closeStart().sub(id, type, optional).end();
  }
  /** `<Data Name="name">%id</Data>` in a template. */
  data(name: string, id: number, type: number, optional = false): this {
    return this.open('Data', true).attr('Name').text(name).closeStart().sub(id, type, optional).end();
  }
  /** A template instance whose definition is stored inline; returns the definition's chunk offset. */
  instance(body: (w: W) => void, values: Array<[number, ArrayLike<number>]>): number {
    this.u8(0x0c).u8(1).u32(0x1234);
    const def = this.pos + 4;
    this.u32(def).u32(0).raw(new Array<number>(16).fill(7));
    const sizeAt = this.b.length;
    this.u32(0);
    const start = this.b.length;
    body(this);
    const size = this.b.length - start;
    this.b.splice(sizeAt, 4, size & 0xff, (size >> 8) & 0xff, (size >> 16) & 0xff, size >>> 24);
    this.values(values);
    return def;
  }
  /** A template instance that refers to a definition stored earlier in the chunk. */
  instanceOf(def: number, values: Array<[number, ArrayLike<number>]>): this {
    this.u8(0x0c).u8(1).u32(0x1234).u32(def);
    return this.values(values);
  }
  values(values: Array<[number, ArrayLike<number>]>): this {
    this.u32(values.length);
    for (const [type, bytes] of values) this.u16(bytes.length).u8(type).u8(0);
    for (const [, bytes] of values) this.raw(bytes);
    return this;
  }
}

export const le = (n: bigint, size: number): number[] => Array.from({ length: size }, (_, i) => Number((BigInt.asUintN(64, n) >> BigInt(8 * i)) & 0xffn));
export const utf16 = (s: string): number[] => [...s].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]);
/** 2016-07-08T18:12:51.6816408Z as FILETIME ticks. */
export const FILETIME = BigInt(Date.UTC(2016, 6, 8, 18, 12, 51)) * 10000n + 6816408n + 116444736000000000n;

export type Body = (w: W) => void;

/** One chunk of records (each a BinXml body writer) inside a complete file with valid checksums. */
export function evtx(records: Body[], patch?: (chunk: Uint8Array) => void): Uint8Array {
  const chunk = new Uint8Array(65536);
  const view = new DataView(chunk.buffer);
  let p = 512;
  records.forEach((body, i) => {
    const w = new W(p + 24);
    body(w);
    const size = 24 + w.b.length + 4;
    view.setUint32(p, 0x2a2a, true);
    view.setUint32(p + 4, size, true);
    view.setBigUint64(p + 8, BigInt(i + 1), true);
    view.setBigUint64(p + 16, FILETIME, true);
    chunk.set(w.b, p + 24);
    view.setUint32(p + size - 4, size, true);
    p += size;
  });
  chunk.set(new TextEncoder().encode('ElfChnk\0'), 0);
  view.setBigUint64(8, 1n, true);
  view.setBigUint64(16, BigInt(records.length), true);
  view.setBigUint64(24, 1n, true);
  view.setBigUint64(32, BigInt(records.length), true);
  view.setUint32(40, 128, true);
  view.setUint32(48, p, true);
  patch?.(chunk);
  view.setUint32(52, crc32(chunk.subarray(512, Math.min(view.getUint32(48, true), 65536))), true);
  view.setUint32(124, crc32(chunk.subarray(128, 512), crc32(chunk.subarray(0, 120))), true);
  const file = new Uint8Array(4096 + 65536);
  const fv = new DataView(file.buffer);
  file.set(new TextEncoder().encode('ElfFile\0'), 0);
  fv.setBigUint64(24, BigInt(records.length + 1), true);
  fv.setUint32(32, 128, true);
  fv.setUint16(36, 1, true);
  fv.setUint16(38, 3, true);
  fv.setUint16(40, 4096, true);
  fv.setUint16(42, 1, true);
  fv.setUint32(124, crc32(file.subarray(0, 120)), true);
  file.set(chunk, 4096);
  return file;
}

/** A record: fragment header, one template instance, EOF. */
export function record(body: Body, values: Array<[number, ArrayLike<number>]>): Body {
  return (w) => {
    w.fragment().instance(body, values);
    w.eof();
  };
}

export const eventOpen = (w: W): W => w.fragment().open('Event', true).attr('xmlns').text('ns').closeStart();
