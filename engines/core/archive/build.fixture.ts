// Test helpers that build tar and zip bytes by hand, including hostile ones (PAX paths, links, overlapping or encrypted zip members).
import { crc32, deflateRawSync } from 'node:zlib';

const enc = new TextEncoder();

export interface TarMember {
  readonly name: string;
  /** '0' file, '1' hardlink, '2' symlink, '3' char device, '5' directory, '6' fifo, 'x' PAX, 'L' GNU long name. */
  readonly type?: string;
  readonly data?: Uint8Array | string;
  readonly mode?: number;
  readonly linkname?: string;
  /** Overrides the size field (a lying header). */
  readonly size?: number;
  /** Write the size field as GNU base-256. */
  readonly base256?: boolean;
}

function put(block: Uint8Array, offset: number, length: number, text: string): void {
  block.set(enc.encode(text).subarray(0, length), offset);
}

function octal(n: number, length: number): string {
  return n.toString(8).padStart(length - 1, '0');
}

/** One ustar header block plus the data blocks (a tar record without the end blocks). */
export function tarRecord(m: TarMember): Uint8Array {
  const data = typeof m.data === 'string' ? enc.encode(m.data) : (m.data ?? new Uint8Array(0));
  const size = m.size ?? data.length;
  const header = new Uint8Array(512);
  put(header, 0, 100, m.name);
  put(header, 100, 8, octal(m.mode ?? 0o644, 8));
  put(header, 108, 8, octal(0, 8));
  put(header, 116, 8, octal(0, 8));
  if (m.base256 === true) {
    header[124] = 0x80;
    let v = size;
    for (let i = 135; i > 124; i--) {
      header[i] = v % 256;
      v = Math.floor(v / 256);
    }
  } else put(header, 124, 12, octal(size, 12));
  put(header, 136, 12, octal(0, 12));
  header[156] = (m.type ?? '0').charCodeAt(0);
  if (m.linkname !== undefined) put(header, 157, 100, m.linkname);
  put(header, 257, 6, 'ustar\0');
  put(header, 263, 2, '00');
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  put(header, 148, 8, `${octal(sum, 7)}\0`);
  const out = new Uint8Array(512 + Math.ceil(data.length / 512) * 512);
  out.set(header, 0);
  out.set(data, 512);
  return out;
}

/** A PAX record `LEN key=value\n` (LEN counts itself). */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = enc.encode(body).length + 1;
  while (String(len).length + enc.encode(body).length !== len) len++;
  return `${len}${body}`;
}

/** The parts' bytes one after the other. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A tar archive of the members followed by two end blocks. */
export function buildTar(members: readonly TarMember[]): Uint8Array {
  return concatBytes([...members.map(tarRecord), new Uint8Array(1024)]);
}

export interface ZipMember {
  readonly name: string;
  readonly data?: Uint8Array | string;
  readonly deflate?: boolean;
  /** Sets the encryption flag (the bytes are left as they are: no reader should try them). */
  readonly encrypted?: boolean;
  /** Unix mode for the external attributes (made by Unix). */
  readonly unixMode?: number;
  /** Corrupts the stored CRC. */
  readonly badCrc?: boolean;
}

function le(n: number, bytes: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes; i++) out.push(Math.floor(n / 256 ** i) % 256);
  return out;
}

/** Builds a zip; `centralOverride` lets a test point several directory records at the same local data. */
export interface ZipOptions {
  /** Writes all-ones sizes and offsets with zip64 extra fields, a zip64 end record and its locator. */
  readonly zip64?: boolean;
  /** Leaves the local header sizes zero and writes a data descriptor after each member's data. */
  readonly descriptor?: boolean;
}

interface CentralChoice {
  readonly name: string;
  readonly localOffset: number;
  readonly index: number;
  /** Overrides the compressed size in the directory (to make ranges overlap). */
  readonly compressedSize?: number;
}

export function buildZip(members: readonly ZipMember[], centralOverride?: (records: { name: string; localOffset: number; csize: number }[]) => CentralChoice[], options: ZipOptions = {}): Uint8Array {
  const local: number[] = [];
  const records: { name: string; localOffset: number; crc: number; csize: number; usize: number; method: number; flags: number; mode: number }[] = [];
  for (const m of members) {
    const raw = typeof m.data === 'string' ? enc.encode(m.data) : (m.data ?? new Uint8Array(0));
    const body = m.deflate === true ? deflateRawSync(raw) : raw;
    const crc = m.badCrc === true ? (crc32(raw) ^ 1) >>> 0 : crc32(raw);
    const flags = (m.encrypted === true ? 1 : 0) | 0x800 | (options.descriptor === true ? 0x08 : 0);
    const method = m.deflate === true ? 8 : 0;
    const name = enc.encode(m.name);
    const offset = local.length;
    const d = options.descriptor === true;
    local.push(...le(0x04034b50, 4), ...le(20, 2), ...le(flags, 2), ...le(method, 2), ...le(0, 4), ...le(d ? 0 : crc, 4), ...le(d ? 0 : body.length, 4), ...le(d ? 0 : raw.length, 4), ...le(name.length, 2), ...le(0, 2), ...name, ...body);
    if (d) local.push(...le(0x08074b50, 4), ...le(crc, 4), ...le(body.length, 4), ...le(raw.length, 4));
    records.push({ name: m.name, localOffset: offset, crc, csize: body.length, usize: raw.length, method, flags, mode: m.unixMode ?? 0 });
  }
  const chosen: CentralChoice[] = centralOverride === undefined ? records.map((r, index) => ({ name: r.name, localOffset: r.localOffset, index })) : centralOverride(records);
  const central: number[] = [];
  const z = options.zip64 === true;
  const ones = 0xffffffff;
  for (const c of chosen) {
    const r = records[c.index];
    if (r === undefined) throw new Error('bad index');
    const name = enc.encode(c.name);
    const madeBy = r.mode === 0 ? 20 : (3 << 8) | 20;
    const csize = c.compressedSize ?? r.csize;
    const extra = z ? [...le(1, 2), ...le(24, 2), ...le(r.usize, 8), ...le(csize, 8), ...le(c.localOffset, 8)] : [];
    central.push(...le(0x02014b50, 4), ...le(madeBy, 2), ...le(z ? 45 : 20, 2), ...le(r.flags, 2), ...le(r.method, 2), ...le(0, 4), ...le(r.crc, 4), ...le(z ? ones : csize, 4), ...le(z ? ones : r.usize, 4), ...le(name.length, 2), ...le(extra.length, 2), ...le(0, 2), ...le(0, 2), ...le(0, 2), ...le(r.mode * 65536, 4), ...le(z ? ones : c.localOffset, 4), ...name, ...extra);
  }
  const tail: number[] = [];
  if (z) {
    const at = local.length + central.length;
    tail.push(...le(0x06064b50, 4), ...le(44, 8), ...le(45, 2), ...le(45, 2), ...le(0, 4), ...le(0, 4), ...le(chosen.length, 8), ...le(chosen.length, 8), ...le(central.length, 8), ...le(local.length, 8));
    tail.push(...le(0x07064b50, 4), ...le(0, 4), ...le(at, 8), ...le(1, 4));
  }
  const eocd = [...le(0x06054b50, 4), ...le(0, 2), ...le(0, 2), ...le(z ? 0xffff : chosen.length, 2), ...le(z ? 0xffff : chosen.length, 2), ...le(z ? ones : central.length, 4), ...le(z ? ones : local.length, 4), ...le(0, 2)];
  return Uint8Array.from([...local, ...central, ...tail, ...eocd]);
}
