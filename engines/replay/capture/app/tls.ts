// TLS handshake reader: ClientHello (server name, ALPN, JA3, JA4) and ServerHello (version, cipher), from a reassembled TCP stream.
import { hash } from 'node:crypto';
import { latin1Token } from './lines.js';

/** Largest handshake message we collect (a ClientHello with post-quantum key shares is a few KiB). */
const MAX_HANDSHAKE = 64 * 1024;
/** TLS records may not exceed 2^14 + 2048 bytes of fragment. */
const MAX_RECORD = 16384 + 2048;

export interface TlsClientHello {
  /** legacy_version from the hello, e.g. 0x0303. */
  readonly version: number;
  readonly serverName?: string;
  readonly alpn: readonly string[];
  readonly ciphers: readonly number[];
  readonly extensions: readonly number[];
  readonly supportedGroups: readonly number[];
  readonly pointFormats: readonly number[];
  readonly signatureAlgorithms: readonly number[];
  readonly supportedVersions: readonly number[];
  /** The JA3 string (version,ciphers,extensions,groups,point formats; GREASE removed) and its MD5. */
  readonly ja3String: string;
  readonly ja3: string;
  /** JA4 (FoxIO's TLS client fingerprint, TCP) and its unhashed form. */
  readonly ja4: string;
  readonly ja4Raw: string;
}

export interface TlsServerHello {
  readonly version: number;
  /** supported_versions from the server (TLS 1.3 puts the real version there). */
  readonly selectedVersion?: number;
  readonly cipher: number;
  readonly extensions: readonly number[];
}

export function isGrease(v: number): boolean {
  return (v & 0x0f0f) === 0x0a0a && (v >> 8) === (v & 0xff);
}

/** Zeek's names for versions (TLSv12 and so on). */
export function tlsVersionName(v: number): string {
  switch (v) {
    case 0x0300:
      return 'SSLv3';
    case 0x0301:
      return 'TLSv10';
    case 0x0302:
      return 'TLSv11';
    case 0x0303:
      return 'TLSv12';
    case 0x0304:
      return 'TLSv13';
    case 0x0002:
      return 'SSLv2';
    default:
      return `unknown-${v}`;
  }
}

class Cursor {
  constructor(
    readonly b: Uint8Array,
    public at: number,
    readonly end: number,
  ) {}
  need(n: number): boolean {
    return this.at + n <= this.end;
  }
  u8(): number {
    if (!this.need(1)) throw new RangeError('tls');
    return this.b[this.at++]!;
  }
  u16(): number {
    if (!this.need(2)) throw new RangeError('tls');
    const v = (this.b[this.at]! << 8) | this.b[this.at + 1]!;
    this.at += 2;
    return v;
  }
  skip(n: number): void {
    if (!this.need(n)) throw new RangeError('tls');
    this.at += n;
  }
  /** A length-prefixed sub-range (prefix of 1 or 2 bytes); returns a cursor over it and moves past it. */
  vec(prefix: 1 | 2): Cursor {
    const len = prefix === 1 ? this.u8() : this.u16();
    if (!this.need(len)) throw new RangeError('tls');
    const c = new Cursor(this.b, this.at, this.at + len);
    this.at += len;
    return c;
  }
}

const hex4 = (v: number): string => v.toString(16).padStart(4, '0');

function sha12(text: string): string {
  return hash('sha256', text, 'hex').slice(0, 12);
}

function ja4Version(v: number): string {
  switch (v) {
    case 0x0304:
      return '13';
    case 0x0303:
      return '12';
    case 0x0302:
      return '11';
    case 0x0301:
      return '10';
    case 0x0300:
      return 's3';
    case 0x0002:
      return 's2';
    case 0xfeff:
      return 'd1';
    case 0xfefd:
      return 'd2';
    case 0xfefc:
      return 'd3';
    default:
      return '00';
  }
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** First and last character of the first ALPN value, or of its hex form when either end is not alphanumeric. */
function ja4Alpn(first: Uint8Array | undefined): string {
  if (first === undefined || first.length === 0) return '00';
  const a = first[0]!;
  const z = first[first.length - 1]!;
  if (isAlnum(a) && isAlnum(z)) return String.fromCharCode(a) + String.fromCharCode(z);
  const hex = Buffer.from(first).toString('hex');
  return hex[0]! + hex[hex.length - 1]!;
}

function twoDigits(n: number): string {
  return String(Math.min(99, n)).padStart(2, '0');
}

/** JA4 for TLS over TCP, from the fields of a ClientHello (GREASE already kept, removed here). */
export function ja4(fields: {
  version: number;
  ciphers: readonly number[];
  extensions: readonly number[];
  signatureAlgorithms: readonly number[];
  supportedVersions: readonly number[];
  firstAlpn: Uint8Array | undefined;
}): { ja4: string; raw: string } {
  const ciphers = fields.ciphers.filter((c) => !isGrease(c));
  const exts = fields.extensions.filter((e) => !isGrease(e));
  const versions = fields.supportedVersions.filter((v) => !isGrease(v));
  const version = versions.length > 0 ? Math.max(...versions) : fields.version;
  const sni = exts.includes(0x0000) ? 'd' : 'i';
  const a = `t${ja4Version(version)}${sni}${twoDigits(ciphers.length)}${twoDigits(exts.length)}${ja4Alpn(fields.firstAlpn)}`;
  const cipherList = ciphers.map(hex4).sort().join(',');
  const extList = exts
    .filter((e) => e !== 0x0000 && e !== 0x0010)
    .map(hex4)
    .sort()
    .join(',');
  const sigs = fields.signatureAlgorithms.filter((s) => !isGrease(s)).map(hex4).join(',');
  const extText = sigs.length > 0 ? `${extList}_${sigs}` : extList;
  const b = cipherList.length > 0 ? sha12(cipherList) : '000000000000';
  const c = extList.length > 0 ? sha12(extText) : '000000000000';
  return { ja4: `${a}_${b}_${c}`, raw: `${a}_${cipherList}_${extText}` };
}

/** The values of a list without GREASE, joined by '-' (JA3's form). */
function joinNoGrease(xs: readonly number[]): string {
  let out = '';
  for (const x of xs) {
    if (isGrease(x)) continue;
    out = out.length === 0 ? String(x) : `${out}-${x}`;
  }
  return out;
}

/**
 * JA3 and JA4 of a hello, remembered by everything they are computed from: a capture holds many hellos of the same
 * client software, which differ only in random, session id, key shares and GREASE values. The key is the JA3 string
 * (version and the GREASE-free ciphers, extensions, groups and point formats), the GREASE-free signature
 * algorithms and supported versions, and the JA4 ALPN characters; JA4 reads nothing else.
 */
const FINGERPRINTS = new Map<string, { ja3: string; ja4: string; raw: string }>();
const MAX_FINGERPRINTS = 4096;

function fingerprints(ja3String: string, fields: Parameters<typeof ja4>[0]): { ja3: string; ja4: string; raw: string } {
  const key = `${ja3String}|${joinNoGrease(fields.signatureAlgorithms)}|${joinNoGrease(fields.supportedVersions)}|${ja4Alpn(fields.firstAlpn)}`;
  const known = FINGERPRINTS.get(key);
  if (known !== undefined) return known;
  const j4 = ja4(fields);
  const made = { ja3: hash('md5', ja3String, 'hex'), ja4: j4.ja4, raw: j4.raw };
  if (FINGERPRINTS.size >= MAX_FINGERPRINTS) FINGERPRINTS.clear();
  FINGERPRINTS.set(key, made);
  return made;
}

/** Parses a ClientHello body (after the 4-byte handshake header); undefined when malformed. */
export function parseClientHello(b: Uint8Array): TlsClientHello | undefined {
  try {
    const c = new Cursor(b, 0, b.length);
    const version = c.u16();
    c.skip(32);
    c.vec(1); // session id
    const cs = c.vec(2);
    const ciphers: number[] = [];
    while (cs.need(2)) ciphers.push(cs.u16());
    c.vec(1); // compression methods
    const extensions: number[] = [];
    const groups: number[] = [];
    const pointFormats: number[] = [];
    const sigAlgs: number[] = [];
    const versions: number[] = [];
    const alpn: string[] = [];
    let firstAlpn: Uint8Array | undefined;
    let serverName: string | undefined;
    if (c.need(2)) {
      const ex = c.vec(2);
      while (ex.need(4)) {
        const type = ex.u16();
        const body = ex.vec(2);
        extensions.push(type);
        switch (type) {
          case 0x0000: {
            const list = body.vec(2);
            while (list.need(3)) {
              const kind = list.u8();
              const name = list.vec(2);
              if (kind === 0 && serverName === undefined) serverName = printable(b, name.at, name.end);
            }
            break;
          }
          case 0x000a: {
            const list = body.vec(2);
            while (list.need(2)) groups.push(list.u16());
            break;
          }
          case 0x000b: {
            const list = body.vec(1);
            while (list.need(1)) pointFormats.push(list.u8());
            break;
          }
          case 0x000d: {
            const list = body.vec(2);
            while (list.need(2)) sigAlgs.push(list.u16());
            break;
          }
          case 0x0010: {
            const list = body.vec(2);
            while (list.need(1)) {
              const p = list.vec(1);
              if (firstAlpn === undefined) firstAlpn = b.subarray(p.at, p.end);
              alpn.push(printable(b, p.at, p.end));
            }
            break;
          }
          case 0x002b: {
            const list = body.vec(1);
            while (list.need(2)) versions.push(list.u16());
            break;
          }
          default:
            break;
        }
      }
    }
    const ja3String = `${version},${joinNoGrease(ciphers)},${joinNoGrease(extensions)},${joinNoGrease(groups)},${pointFormats.join('-')}`;
    const j4 = fingerprints(ja3String, { version, ciphers, extensions, signatureAlgorithms: sigAlgs, supportedVersions: versions, firstAlpn });
    return {
      version,
      ...(serverName !== undefined ? { serverName } : {}),
      alpn,
      ciphers,
      extensions,
      supportedGroups: groups,
      pointFormats,
      signatureAlgorithms: sigAlgs,
      supportedVersions: versions,
      ja3String,
      ja3: j4.ja3,
      ja4: j4.ja4,
      ja4Raw: j4.raw,
    };
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Parses a ServerHello body; undefined when malformed. */
export function parseServerHello(b: Uint8Array): TlsServerHello | undefined {
  try {
    const c = new Cursor(b, 0, b.length);
    const version = c.u16();
    c.skip(32);
    c.vec(1);
    const cipher = c.u16();
    c.u8();
    const extensions: number[] = [];
    let selected: number | undefined;
    if (c.need(2)) {
      const ex = c.vec(2);
      while (ex.need(4)) {
        const type = ex.u16();
        const body = ex.vec(2);
        extensions.push(type);
        if (type === 0x002b && body.need(2)) selected = body.u16();
      }
    }
    return selected === undefined ? { version, cipher, extensions } : { version, cipher, extensions, selectedVersion: selected };
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Host names are ASCII; anything else is escaped so a hostile name cannot carry control characters. */
function printable(b: Uint8Array, start: number, end: number): string {
  const stop = Math.min(end, start + 255);
  let plain = true;
  for (let i = start; i < stop && plain; i++) {
    const c = b[i]!;
    plain = c >= 0x20 && c < 0x7f && c !== 0x5c;
  }
  // The usual name is plain ASCII: its text is the bytes' (and a repeated one comes from the token cache).
  if (plain) return latin1Token(b, start, stop);
  let s = '';
  for (let i = start; i < stop; i++) {
    const c = b[i]!;
    s += c >= 0x20 && c < 0x7f && c !== 0x5c ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return s;
}

/** What one direction's handshake reader reports. */
export type TlsEvent = { type: 'client_hello'; hello: TlsClientHello } | { type: 'server_hello'; hello: TlsServerHello } | { type: 'malformed' };

/** Where a reader's events go: an object with a method rather than a function, so no closure is made per connection. */
export interface TlsEventSink {
  tlsEvent(e: TlsEvent): void;
}

/** The empty buffer every reader starts with (shared: a reader holds bytes only while a record or message is incomplete). */
const EMPTY = new Uint8Array(0);

/** Reads TLS records from one direction until the hello it cares about, then stops. */
export class TlsStreamReader {
  /** Bytes of an incomplete record, copied; empty when the last segment ended on a record boundary. */
  private buf: Uint8Array = EMPTY;
  /** Bytes of an incomplete handshake message, copied; empty otherwise. */
  private hs: Uint8Array = EMPTY;
  done = false;

  constructor(private readonly events: TlsEventSink) {}

  private onEvent(e: TlsEvent): void {
    this.events.tlsEvent(e);
  }

  /** Stream bytes `bytes[start, end)` (the whole of `bytes` by default). */
  data(bytes: Uint8Array, start = 0, end = bytes.length): void {
    if (this.done) return;
    // Records are read in place from the segment (a range valid only during this call) when nothing is held over;
    // only an incomplete tail is copied.
    let buf: Uint8Array;
    let pos: number;
    let size: number;
    if (this.buf.length === 0) {
      buf = bytes;
      pos = start;
      size = end;
    } else {
      buf = append(this.buf, bytes.subarray(start, end));
      pos = 0;
      size = buf.length;
    }
    while (!this.done && size - pos >= 5) {
      const type = buf[pos]!;
      const major = buf[pos + 1]!;
      const len = (buf[pos + 3]! << 8) | buf[pos + 4]!;
      if (type < 20 || type > 24 || major !== 3 || len > MAX_RECORD) {
        this.fail();
        return;
      }
      if (size - pos - 5 < len) break;
      if (type === 22) this.handshake(buf.subarray(pos + 5, pos + 5 + len));
      else if (type === 20 || type === 23) this.done = true; // encrypted from here on
      pos += 5 + len;
    }
    this.buf = pos >= size ? EMPTY : buf.slice(pos, size);
  }

  private handshake(fragment: Uint8Array): void {
    // As for records: messages are read in place unless part of one is held from an earlier record.
    const hs = this.hs.length === 0 ? fragment : append(this.hs, fragment);
    if (hs.length > MAX_HANDSHAKE) {
      this.fail();
      return;
    }
    let pos = 0;
    while (!this.done && hs.length - pos >= 4) {
      const type = hs[pos]!;
      const len = (hs[pos + 1]! << 16) | (hs[pos + 2]! << 8) | hs[pos + 3]!;
      if (len > MAX_HANDSHAKE) {
        this.fail();
        this.hs = EMPTY;
        return;
      }
      if (hs.length - pos - 4 < len) break;
      const body = hs.subarray(pos + 4, pos + 4 + len);
      if (type === 1) {
        const hello = parseClientHello(body);
        if (hello) this.onEvent({ type: 'client_hello', hello });
        else this.onEvent({ type: 'malformed' });
        this.done = true;
      } else if (type === 2) {
        const hello = parseServerHello(body);
        if (hello) this.onEvent({ type: 'server_hello', hello });
        else this.onEvent({ type: 'malformed' });
        this.done = true;
      }
      pos += 4 + len;
    }
    this.hs = pos >= hs.length ? EMPTY : hs.slice(pos);
  }

  private fail(): void {
    this.done = true;
    this.onEvent({ type: 'malformed' });
  }
}

function append(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** True when bytes look like the start of a TLS handshake record (SSLv2-style hellos are not read). */
export function looksLikeTls(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0x16 && b[1] === 0x03 && b[2]! <= 0x04;
}
