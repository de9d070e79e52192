// TLS handshake reader: ClientHello (server name, ALPN, JA3, JA4) and ServerHello (version, cipher), from a reassembled TCP stream.
import { hash } from 'node:crypto';
import { fnvStep, latin1Token } from './lines.js';

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
 * Lists read from hellos, shared between the hellos that carry the same one: a capture holds many hellos of the same
 * client software, so its cipher, extension, group and other lists repeat. A list is read into a scratch buffer and
 * the record gets the frozen array last made with those values in its slot (by a hash of them), or a new one. Each
 * array made has a number of its own (never reused), so equal numbers mean equal values.
 */
class ListInterner {
  private values = new Int32Array(1024);
  /** Values in the scratch buffer. */
  length = 0;
  private readonly lists: Array<readonly number[] | undefined> = new Array<readonly number[] | undefined>(LIST_SLOTS).fill(undefined);
  private readonly ids = new Int32Array(LIST_SLOTS);
  /** The number of the list `take` returned last (0: the empty list). */
  id = 0;

  push(v: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = v;
  }

  /** The shared list of the scratch values (then empties the scratch); sets `id`. */
  take(): readonly number[] {
    const n = this.length;
    this.length = 0;
    if (n === 0) {
      this.id = 0;
      return EMPTY_LIST;
    }
    const v = this.values;
    let h = n;
    for (let i = 0; i < n; i++) h = fnvStep(h, v[i]!);
    const slot = (h ^ (h >>> 15)) & (LIST_SLOTS - 1);
    const seen = this.lists[slot];
    if (seen !== undefined && seen.length === n) {
      let i = 0;
      while (i < n && seen[i] === v[i]) i += 1;
      if (i === n) {
        this.id = this.ids[slot]!;
        return seen;
      }
    }
    const made: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) made[i] = v[i]!;
    Object.freeze(made);
    listSerial = (listSerial + 1) | 0 || 1;
    this.lists[slot] = made;
    this.ids[slot] = listSerial;
    this.id = listSerial;
    return made;
  }
}

const LIST_SLOTS = 4096;
const EMPTY_LIST: readonly number[] = Object.freeze([]);
const EMPTY_TEXTS: readonly string[] = Object.freeze([]);
let listSerial = 0;
const CIPHERS = new ListInterner();
const EXTENSIONS = new ListInterner();
const GROUPS = new ListInterner();
const POINT_FORMATS = new ListInterner();
const SIGNATURE_ALGORITHMS = new ListInterner();
const VERSIONS = new ListInterner();
/** The ALPN protocol bytes (each with its length), whose list number names the protocol texts below. */
const ALPN_BYTES = new ListInterner();
const ALPN_TEXTS = new Map<number, readonly string[]>();

/**
 * JA3 (string and MD5) and JA4 of a hello, remembered by the numbers of the lists they are computed from and the
 * version, one recent hello per slot; JA4 reads nothing else.
 */
interface Fingerprints {
  readonly ja3String: string;
  readonly ja3: string;
  readonly ja4: string;
  readonly raw: string;
}
const PRINT_SLOTS = 1024;
const printKeys = new Int32Array(PRINT_SLOTS * 8);
const prints: Array<Fingerprints | undefined> = new Array<Fingerprints | undefined>(PRINT_SLOTS).fill(undefined);

function fingerprints(
  version: number,
  ciphers: readonly number[],
  extensions: readonly number[],
  groups: readonly number[],
  pointFormats: readonly number[],
  sigAlgs: readonly number[],
  versions: readonly number[],
  firstAlpn: Uint8Array | undefined,
  ids: Int32Array,
): Fingerprints {
  let h = version;
  for (let i = 0; i < 7; i++) h = fnvStep(h, ids[i]!);
  const slot = (h ^ (h >>> 15)) & (PRINT_SLOTS - 1);
  const seen = prints[slot];
  const k = slot * 8;
  if (seen !== undefined && printKeys[k] === version) {
    let i = 0;
    while (i < 7 && printKeys[k + 1 + i] === ids[i]) i += 1;
    if (i === 7) return seen;
  }
  const ja3String = `${version},${joinNoGrease(ciphers)},${joinNoGrease(extensions)},${joinNoGrease(groups)},${pointFormats.join('-')}`;
  const j4 = ja4({ version, ciphers, extensions, signatureAlgorithms: sigAlgs, supportedVersions: versions, firstAlpn });
  const made: Fingerprints = { ja3String, ja3: hash('md5', ja3String, 'hex'), ja4: j4.ja4, raw: j4.raw };
  printKeys[k] = version;
  for (let i = 0; i < 7; i++) printKeys[k + 1 + i] = ids[i]!;
  prints[slot] = made;
  return made;
}

/** List numbers of the hello being read (ciphers, extensions, groups, point formats, signatures, versions, ALPN). */
const helloIds = new Int32Array(7);

function u16At(b: Uint8Array, at: number): number {
  return (b[at]! << 8) | b[at + 1]!;
}

/** The end of the vector with a `prefix`-byte length at `at` within `end`, or -1 when it runs past. */
function vecEnd(b: Uint8Array, at: number, end: number, prefix: 1 | 2): number {
  if (at + prefix > end) return -1;
  const len = prefix === 1 ? b[at]! : u16At(b, at);
  const stop = at + prefix + len;
  return stop > end ? -1 : stop;
}

/**
 * Parses a ClientHello body (after the 4-byte handshake header); undefined when malformed. Read in place by offsets;
 * the lists come from the shared lists above and JA3/JA4 from the remembered fingerprints.
 */
export function parseClientHello(b: Uint8Array): TlsClientHello | undefined {
  CIPHERS.length = 0;
  EXTENSIONS.length = 0;
  GROUPS.length = 0;
  POINT_FORMATS.length = 0;
  SIGNATURE_ALGORITHMS.length = 0;
  VERSIONS.length = 0;
  ALPN_BYTES.length = 0;
  const end = b.length;
  if (end < 34) return undefined;
  const version = u16At(b, 0);
  // Session id, then the cipher suites.
  let at = vecEnd(b, 34, end, 1);
  if (at < 0) return undefined;
  const cipherEnd = vecEnd(b, at, end, 2);
  if (cipherEnd < 0) return undefined;
  for (let p = at + 2; p + 2 <= cipherEnd; p += 2) CIPHERS.push(u16At(b, p));
  // Compression methods.
  at = vecEnd(b, cipherEnd, end, 1);
  if (at < 0) return undefined;
  let firstAlpnStart = -1;
  let firstAlpnEnd = -1;
  let serverName: string | undefined;
  if (at + 2 <= end) {
    const exEnd = vecEnd(b, at, end, 2);
    if (exEnd < 0) return undefined;
    let p = at + 2;
    while (p + 4 <= exEnd) {
      const type = u16At(b, p);
      const bodyEnd = vecEnd(b, p + 2, exEnd, 2);
      if (bodyEnd < 0) return undefined;
      const body = p + 4;
      p = bodyEnd;
      EXTENSIONS.push(type);
      switch (type) {
        case 0x0000: {
          const listEnd = vecEnd(b, body, bodyEnd, 2);
          if (listEnd < 0) return undefined;
          let q = body + 2;
          while (q + 3 <= listEnd) {
            const kind = b[q]!;
            const nameEnd = vecEnd(b, q + 1, listEnd, 2);
            if (nameEnd < 0) return undefined;
            if (kind === 0 && serverName === undefined) serverName = printable(b, q + 3, nameEnd);
            q = nameEnd;
          }
          break;
        }
        case 0x000a:
        case 0x000d:
        case 0x002b: {
          const prefix = type === 0x002b ? 1 : 2;
          const listEnd = vecEnd(b, body, bodyEnd, prefix);
          if (listEnd < 0) return undefined;
          const into = type === 0x000a ? GROUPS : type === 0x000d ? SIGNATURE_ALGORITHMS : VERSIONS;
          for (let q = body + prefix; q + 2 <= listEnd; q += 2) into.push(u16At(b, q));
          break;
        }
        case 0x000b: {
          const listEnd = vecEnd(b, body, bodyEnd, 1);
          if (listEnd < 0) return undefined;
          for (let q = body + 1; q < listEnd; q++) POINT_FORMATS.push(b[q]!);
          break;
        }
        case 0x0010: {
          const listEnd = vecEnd(b, body, bodyEnd, 2);
          if (listEnd < 0) return undefined;
          let q = body + 2;
          while (q < listEnd) {
            const protoEnd = vecEnd(b, q, listEnd, 1);
            if (protoEnd < 0) return undefined;
            if (firstAlpnStart < 0) {
              firstAlpnStart = q + 1;
              firstAlpnEnd = protoEnd;
            }
            for (let i = q; i < protoEnd; i++) ALPN_BYTES.push(b[i]!);
            q = protoEnd;
          }
          break;
        }
        default:
          break;
      }
    }
  }
  const ciphers = CIPHERS.take();
  helloIds[0] = CIPHERS.id;
  const extensions = EXTENSIONS.take();
  helloIds[1] = EXTENSIONS.id;
  const groups = GROUPS.take();
  helloIds[2] = GROUPS.id;
  const pointFormats = POINT_FORMATS.take();
  helloIds[3] = POINT_FORMATS.id;
  const sigAlgs = SIGNATURE_ALGORITHMS.take();
  helloIds[4] = SIGNATURE_ALGORITHMS.id;
  const versions = VERSIONS.take();
  helloIds[5] = VERSIONS.id;
  const alpnBytes = ALPN_BYTES.take();
  helloIds[6] = ALPN_BYTES.id;
  const alpn = alpnTexts(alpnBytes, ALPN_BYTES.id);
  const firstAlpn = firstAlpnStart < 0 ? undefined : b.subarray(firstAlpnStart, firstAlpnEnd);
  const j = fingerprints(version, ciphers, extensions, groups, pointFormats, sigAlgs, versions, firstAlpn, helloIds);
  // The same literal shapes as before (serverName second when present), so records read and print the same.
  return serverName !== undefined
    ? {
        version,
        serverName,
        alpn,
        ciphers,
        extensions,
        supportedGroups: groups,
        pointFormats,
        signatureAlgorithms: sigAlgs,
        supportedVersions: versions,
        ja3String: j.ja3String,
        ja3: j.ja3,
        ja4: j.ja4,
        ja4Raw: j.raw,
      }
    : {
        version,
        alpn,
        ciphers,
        extensions,
        supportedGroups: groups,
        pointFormats,
        signatureAlgorithms: sigAlgs,
        supportedVersions: versions,
        ja3String: j.ja3String,
        ja3: j.ja3,
        ja4: j.ja4,
        ja4Raw: j.raw,
      };
}

/** The protocol names of an ALPN list (its bytes, each name after its length), shared by the list's number. */
function alpnTexts(bytes: readonly number[], id: number): readonly string[] {
  if (bytes.length === 0) return EMPTY_TEXTS;
  const known = ALPN_TEXTS.get(id);
  if (known !== undefined) return known;
  const names: string[] = [];
  const raw = Uint8Array.from(bytes);
  for (let q = 0; q < raw.length; q += 1 + raw[q]!) names.push(printable(raw, q + 1, q + 1 + raw[q]!));
  Object.freeze(names);
  if (ALPN_TEXTS.size >= LIST_SLOTS) ALPN_TEXTS.clear();
  ALPN_TEXTS.set(id, names);
  return names;
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

  constructor(private events: TlsEventSink) {}

  /**
   * Back to a new reader's state, delivering to `events` (a reader is reused by a later connection, whose state may
   * not be the one it last reported to). Each line is pinned by the reuse tests in app.test.ts.
   */
  reset(events: TlsEventSink): void {
    this.events = events;
    this.buf = EMPTY;
    this.hs = EMPTY;
    this.done = false;
  }

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
  return looksLikeTlsAt(b, 0, b.length);
}

/** looksLikeTls over `b[start, end)` (a stream's range, read without a view). */
export function looksLikeTlsAt(b: Uint8Array, start: number, end: number): boolean {
  return end - start >= 3 && b[start] === 0x16 && b[start + 1] === 0x03 && b[start + 2]! <= 0x04;
}
