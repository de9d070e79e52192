// HTTP/1.x reader over both directions of a connection: request lines, Host and other headers, response status, bodies skipped by length or chunking.
import { latin1, latin1Range, latin1Token, MAX_LINE } from './lines.js';

const MAX_HEADERS = 200;
/**
 * The headers a record or the body framing reads, by the field of Half that holds the first of each; the others
 * are counted, not kept (a string each, never read).
 */
const KEPT_HEADERS = ['host', 'user-agent', 'referer', 'authorization', 'content-length', 'transfer-encoding'] as const;
type KeptHeader = (typeof KEPT_HEADERS)[number];
/** The kept header of each name length (their lengths differ, so a name's length picks the one it can be). */
const KEPT_BY_LENGTH: Array<KeptHeader | undefined> = new Array<KeptHeader | undefined>(18).fill(undefined);
for (const h of KEPT_HEADERS) {
  if (KEPT_BY_LENGTH[h.length] !== undefined) throw new Error('kept HTTP header names must differ in length');
  KEPT_BY_LENGTH[h.length] = h;
}
/** Half.contentLength before the message's first Content-Length header, and when that header is not 1-15 digits. */
const NO_LENGTH = -2;
const BAD_LENGTH = -1;

/** The value of a Content-Length header, `/^\d{1,15}$/` read as a number; BAD_LENGTH when it is not that. */
function contentLengthOf(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start || end - start > 15) return BAD_LENGTH;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c < 0x30 || c > 0x39) return BAD_LENGTH;
    n = n * 10 + (c - 0x30);
  }
  return n;
}

/** The same for a header value already made a string (a line that spanned segments). */
function contentLengthOfText(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : BAD_LENGTH;
}

/**
 * True when `name[start, end)` lower-cased is `kept`, without making the lower-cased string: only ASCII letters
 * lower-case to ASCII letters in Latin-1, so comparing with the upper-case ASCII letter too is exact.
 */
function isHeader(name: string, start: number, end: number, kept: string): boolean {
  if (end - start !== kept.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const c = name.charCodeAt(start + i);
    const k = kept.charCodeAt(i);
    if (c !== k && !(c >= 0x41 && c <= 0x5a && c + 0x20 === k)) return false;
  }
  return true;
}

/** \s of a pattern within Latin-1: tab, LF, VT, FF, CR, space and no-break space. */
const isSpace = isTrimmed;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** bytes[at, at + 8) is `HTTP/d.d`. */
function isHttpVersion(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0x48 && bytes[at + 1] === 0x54 && bytes[at + 2] === 0x54 && bytes[at + 3] === 0x50 && bytes[at + 4] === 0x2f && isDigit(bytes[at + 5]!) && bytes[at + 6] === 0x2e && isDigit(bytes[at + 7]!);
}

/**
 * REQUEST_LINE over bytes[start, end): the groups when the line matches it, undefined when it does not (or may
 * not: such lines go to the pattern). Method [A-Za-z][A-Za-z0-9_-]{0,23}, one space, a URI without white space,
 * and ` HTTP/d.d` at the end.
 */
export function requestLine(bytes: Uint8Array, start: number, end: number): StartLine | undefined {
  const g = new StartGroups();
  return readRequestLine(bytes, start, end, g) ? ['', g.g1, g.g2, g.g3] : undefined;
}

/** RESPONSE_LINE over bytes[start, end): `HTTP/d.d ddd`, then nothing or a space and a reason without CR or LF. */
export function responseLine(bytes: Uint8Array, start: number, end: number): StartLine | undefined {
  const g = new StartGroups();
  return readResponseLine(bytes, start, end, g) ? ['', g.g1, g.g2, g.g3] : undefined;
}

/** A start line's groups: method or version, URI or status code, version or reason phrase (absent: undefined). */
class StartGroups {
  g1 = '';
  g2 = '';
  g3: string | undefined = undefined;
}

/** requestLine into `out`'s fields (no array made); false, with `out` unchanged, when the line is not of that shape. */
function readRequestLine(bytes: Uint8Array, start: number, end: number, out: StartGroups): boolean {
  const c0 = bytes[start]!;
  if (!((c0 >= 0x41 && c0 <= 0x5a) || (c0 >= 0x61 && c0 <= 0x7a))) return false;
  // At most 24 method characters: the space must come by start + 24.
  let sp = start + 1;
  while (sp < end && sp - start < 24) {
    const c = bytes[sp]!;
    if (c === 0x20) break;
    if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x5f || c === 0x2d)) return false;
    sp += 1;
  }
  if (sp >= end || bytes[sp] !== 0x20) return false;
  const versionAt = end - 8;
  if (versionAt - 1 <= sp + 1 || bytes[versionAt - 1] !== 0x20 || !isHttpVersion(bytes, versionAt)) return false;
  for (let i = sp + 1; i < versionAt - 1; i++) if (isSpace(bytes[i]!)) return false;
  out.g1 = latin1Token(bytes, start, sp);
  out.g2 = latin1Token(bytes, sp + 1, versionAt - 1);
  out.g3 = latin1Token(bytes, versionAt + 5, end);
  return true;
}

/** responseLine into `out`'s fields (no array made); false, with `out` unchanged, when the line is not of that shape. */
function readResponseLine(bytes: Uint8Array, start: number, end: number, out: StartGroups): boolean {
  if (end - start < 12 || !isHttpVersion(bytes, start) || bytes[start + 8] !== 0x20) return false;
  if (!isDigit(bytes[start + 9]!) || !isDigit(bytes[start + 10]!) || !isDigit(bytes[start + 11]!)) return false;
  if (end - start > 12) {
    if (bytes[start + 12] !== 0x20) return false;
    for (let i = start + 13; i < end; i++) if (bytes[i] === 0x0a || bytes[i] === 0x0d) return false;
  }
  out.g1 = latin1Token(bytes, start + 5, start + 8);
  out.g2 = latin1Token(bytes, start + 9, start + 12);
  out.g3 = end - start === 12 ? undefined : end === start + 13 ? '' : latin1Token(bytes, start + 13, end);
  return true;
}

/** isHeader over Latin-1 bytes (a byte is its character's code). */
function isHeaderBytes(bytes: Uint8Array, start: number, end: number, kept: string): boolean {
  if (end - start !== kept.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const c = bytes[start + i]!;
    const k = kept.charCodeAt(i);
    if (c !== k && !(c >= 0x41 && c <= 0x5a && c + 0x20 === k)) return false;
  }
  return true;
}

/** JavaScript's trim() within Latin-1 text: tab, LF, VT, FF, CR, space and no-break space. */
function isTrimmed(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;
}
const MAX_HEAD_BYTES = 64 * 1024;
/** Transactions kept waiting for their responses on one connection. */
const MAX_OUTSTANDING = 64;

export interface HttpTransaction {
  readonly uid: string;
  /** Time and packet number of the request line. */
  readonly ts: number;
  readonly packet: number;
  /** 1 for the first request on the connection (Zeek's trans_depth). */
  readonly depth: number;
  readonly method: string;
  readonly uri: string;
  readonly version: string;
  readonly host?: string | undefined;
  readonly userAgent?: string | undefined;
  readonly referrer?: string | undefined;
  /** Authorization scheme (Basic, Bearer, NTLM ...) when the request carried credentials. */
  readonly authScheme?: string | undefined;
  /** The user name of Basic credentials (the password is never kept). */
  readonly basicUser?: string | undefined;
  readonly requestBodyLength: number;
  readonly statusCode?: number | undefined;
  readonly statusMessage?: string | undefined;
  /** HTTP version of the response line (what Zeek's http.log calls version). */
  readonly responseVersion?: string | undefined;
  readonly responseBodyLength?: number | undefined;
  /** True when the connection's opening was not captured, so this may not be the first request. */
  readonly midstream: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A start line's groups as REQUEST_LINE or RESPONSE_LINE give them (index 0 unused). */
type StartLine = ArrayLike<string | undefined>;

type State = 'start' | 'headers' | 'body' | 'chunk_size' | 'chunk_data' | 'chunk_end' | 'trailer' | 'until_close' | 'resync' | 'dead';

export const REQUEST_LINE = /^([A-Za-z][A-Za-z0-9_-]{0,23}) (\S+) HTTP\/(\d\.\d)$/;
export const RESPONSE_LINE = /^HTTP\/(\d\.\d) (\d{3})(?: (.*))?$/;
/** Request methods that open a client's stream; each is followed by a space. */
const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', 'PATCH', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'REPORT'].map((m) => Uint8Array.from(m, (c) => c.charCodeAt(0)));
const HTTP1 = Uint8Array.from('HTTP/1.', (c) => c.charCodeAt(0));

/** True when `b[at, end)` begins with `prefix` (read in place, no string made). */
function bytesAt(b: Uint8Array, at: number, end: number, prefix: Uint8Array): boolean {
  if (end < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[at + i] !== prefix[i]) return false;
  return true;
}

/** True when bytes start like an HTTP request (client: a known method and a space) or response (server: "HTTP/1."). */
export function looksLikeHttp(b: Uint8Array, isOrig: boolean): boolean {
  return looksLikeHttpAt(b, 0, b.length, isOrig);
}

/** looksLikeHttp over `b[start, end)` (a stream's range, read without a view). */
export function looksLikeHttpAt(b: Uint8Array, start: number, end: number, isOrig: boolean): boolean {
  if (!isOrig) return bytesAt(b, start, end, HTTP1);
  const n = end - start;
  for (const m of METHODS) if (n > m.length && b[start + m.length] === 0x20 && bytesAt(b, start, end, m)) return true;
  return false;
}

class Half extends StartGroups {
  state: State;
  lineBuf: Uint8Array[] = [];
  lineLen = 0;
  headBytes = 0;
  /** The first value of each kept header of the message being read (undefined: absent). */
  host: string | undefined = undefined;
  userAgent: string | undefined = undefined;
  referer: string | undefined = undefined;
  authorization: string | undefined = undefined;
  /** The first Content-Length of the message as a number: NO_LENGTH before one, BAD_LENGTH when it is not 1-15 digits. */
  contentLength = NO_LENGTH;
  transferEncoding: string | undefined = undefined;
  headerCount = 0;
  remaining = 0;
  bodyLength = 0;
  /** True once a start line was read (its groups are the StartGroups fields). */
  started = false;
  ts = 0;
  packet = 0;

  constructor(midstream: boolean) {
    super();
    this.state = midstream ? 'resync' : 'start';
  }

  /**
   * Back to a new direction's state (the connection is reused for another). `state`, `lineBuf` and `lineLen` are
   * pinned by the reuse tests in app.test.ts; the other fields cannot change an output, each is set before it is read:
   * the start line, the only way into 'headers', sets `started` and its groups, `ts`, `packet`, `headBytes`, `headerCount` and
   * the headers; headEnd(), the only way into the body states, sets `bodyLength` and, for them, `remaining`.
   */
  reset(midstream: boolean): void {
    this.state = midstream ? 'resync' : 'start';
    if (this.lineBuf.length > 0) this.lineBuf = [];
    this.lineLen = 0;
    this.headBytes = 0;
    this.clearHeaders();
    this.headerCount = 0;
    this.remaining = 0;
    this.bodyLength = 0;
    this.started = false;
    this.ts = 0;
    this.packet = 0;
  }

  clearHeaders(): void {
    this.host = undefined;
    this.userAgent = undefined;
    this.referer = undefined;
    this.authorization = undefined;
    this.contentLength = NO_LENGTH;
    this.transferEncoding = undefined;
  }

  /** Keeps the first value of a kept header; later repeats are ignored, as the first one is what is read. */
  keep(name: KeptHeader, value: string): void {
    switch (name) {
      case 'host':
        if (this.host === undefined) this.host = value;
        break;
      case 'user-agent':
        if (this.userAgent === undefined) this.userAgent = value;
        break;
      case 'referer':
        if (this.referer === undefined) this.referer = value;
        break;
      case 'authorization':
        if (this.authorization === undefined) this.authorization = value;
        break;
      case 'content-length':
        if (this.contentLength === NO_LENGTH) this.contentLength = contentLengthOfText(value);
        break;
      case 'transfer-encoding':
        if (this.transferEncoding === undefined) this.transferEncoding = value;
        break;
    }
  }
}

export class HttpConnection {
  private readonly halves: [Half, Half];
  private readonly outstanding: Array<Mutable<HttpTransaction>> = [];
  private depth = 0;
  malformed = false;

  constructor(
    private uid: string,
    private midstream: boolean,
    private readonly emit: (t: HttpTransaction) => void,
  ) {
    this.halves = [new Half(midstream), new Half(midstream)];
  }

  /**
   * Back to a new connection's state, for the connection `uid` (the reader is reused after its connection closed).
   * Two lines cannot change an output: a reader is pooled only after close(), which empties `outstanding`, and
   * `malformed`, set only within data(), is cleared by the app layer as soon as data() returns.
   */
  reset(uid: string, midstream: boolean): void {
    this.uid = uid;
    this.midstream = midstream;
    this.halves[0].reset(midstream);
    this.halves[1].reset(midstream);
    // Emptied only when it is not (close() left it empty): emptying drops the array's storage, which the next push
    // would make again.
    if (this.outstanding.length > 0) this.outstanding.length = 0;
    this.depth = 0;
    this.malformed = false;
  }

  /** Stream bytes `bytes[start, end)` of one direction, valid only during the call. */
  data(isOrig: boolean, bytes: Uint8Array, start: number, end: number, ts: number, packet: number): void {
    const h = this.halves[isOrig ? 0 : 1];
    let pos = start;
    const size = end;
    while (pos < size && h.state !== 'dead') {
      switch (h.state) {
        case 'body':
        case 'chunk_data': {
          const take = Math.min(h.remaining, size - pos);
          h.remaining -= take;
          h.bodyLength += take;
          pos += take;
          if (h.remaining === 0) {
            if (h.state === 'body') this.endMessage(isOrig, h);
            else h.state = 'chunk_end';
          }
          break;
        }
        case 'until_close':
          h.bodyLength += size - pos;
          pos = size;
          break;
        default: {
          // Lines are short: a loop here is cheaper than a call to indexOf per line.
          let nl = pos;
          while (nl < size && bytes[nl] !== 0x0a) nl += 1;
          if (nl === size) nl = -1;
          const lineEnd = nl < 0 ? size : nl;
          if (h.lineLen + (lineEnd - pos) > MAX_LINE) {
            this.fail(h);
            return;
          }
          if (nl < 0) {
            // The line goes on in the next segment: keep a copy of this part.
            h.lineBuf.push(bytes.slice(pos, lineEnd));
            h.lineLen += lineEnd - pos;
            return;
          }
          let text: string;
          if (h.lineBuf.length === 0) {
            // The usual case: the whole line is in this segment, read it in place.
            const stop = lineEnd > pos && bytes[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd;
            if ((h.state === 'start' || h.state === 'resync') && stop > pos) {
              // A start line of the usual shape is read from the bytes; any other goes through the patterns below.
              if (isOrig ? readRequestLine(bytes, pos, stop, h) : readResponseLine(bytes, pos, stop, h)) {
                h.ts = ts;
                h.packet = packet;
                h.started = true;
                h.clearHeaders();
                h.headerCount = 0;
                h.headBytes = stop - pos;
                h.state = 'headers';
                pos = nl + 1;
                continue;
              }
            }
            if (h.state === 'headers') {
              // A header line is read from the bytes: only a kept header's value becomes a string.
              const start = pos;
              pos = nl + 1;
              if (h.ts === 0) {
                h.ts = ts;
                h.packet = packet;
              }
              this.headerLine(isOrig, h, bytes, start, stop);
              continue;
            }
            text = stop === pos ? '' : latin1Range(bytes, pos, stop);
          } else {
            h.lineBuf.push(bytes.subarray(pos, lineEnd));
            const all = joinBytes(h.lineBuf, h.lineLen + (lineEnd - pos));
            h.lineBuf = [];
            h.lineLen = 0;
            text = latin1(all.length > 0 && all[all.length - 1] === 0x0d ? all.subarray(0, all.length - 1) : all);
          }
          pos = nl + 1;
          if (h.ts === 0 || h.state === 'start' || h.state === 'resync') {
            h.ts = ts;
            h.packet = packet;
          }
          this.line(isOrig, h, text);
        }
      }
    }
  }

  /** Bytes were lost: a body can absorb them; otherwise look for the next message start. */
  gap(isOrig: boolean, length: number): void {
    const h = this.halves[isOrig ? 0 : 1];
    if (h.state === 'dead') return;
    if ((h.state === 'body' || h.state === 'chunk_data') && h.remaining >= length) {
      h.remaining -= length;
      h.bodyLength += length;
      if (h.remaining === 0) {
        if (h.state === 'body') this.endMessage(isOrig, h);
        else h.state = 'chunk_end';
      }
      return;
    }
    if (h.state === 'until_close') return;
    h.lineBuf = [];
    h.lineLen = 0;
    h.state = 'resync';
  }

  private fail(h: Half): void {
    this.malformed = true;
    h.state = 'dead';
  }

  /** The 'headers' case of line() over bytes[start, end) (the line without its terminator), with the same outcome. */
  private headerLine(isOrig: boolean, h: Half, bytes: Uint8Array, start: number, end: number): void {
    h.headBytes += end - start + 2;
    if (h.headBytes > MAX_HEAD_BYTES || h.headerCount > MAX_HEADERS) {
      this.fail(h);
      return;
    }
    if (end === start) {
      this.headEnd(isOrig, h);
      return;
    }
    let colon = start;
    while (colon < end && bytes[colon] !== 0x3a) colon += 1;
    if (colon === end || colon === start) return;
    h.headerCount += 1;
    let nameStart = start;
    let nameEnd = colon;
    while (nameStart < nameEnd && isTrimmed(bytes[nameStart]!)) nameStart += 1;
    while (nameEnd > nameStart && isTrimmed(bytes[nameEnd - 1]!)) nameEnd -= 1;
    const nameLength = nameEnd - nameStart;
    if (nameLength >= KEPT_BY_LENGTH.length) return;
    const kept = KEPT_BY_LENGTH[nameLength];
    if (kept === undefined || !isHeaderBytes(bytes, nameStart, nameEnd, kept)) return;
    let valueStart = colon + 1;
    let valueEnd = end;
    while (valueStart < valueEnd && isTrimmed(bytes[valueStart]!)) valueStart += 1;
    while (valueEnd > valueStart && isTrimmed(bytes[valueEnd - 1]!)) valueEnd -= 1;
    // A length is read as a number from the bytes (no string for it); a repeated header is ignored as keep() does.
    if (kept === 'content-length') {
      if (h.contentLength === NO_LENGTH) h.contentLength = contentLengthOf(bytes, valueStart, valueEnd);
    } else h.keep(kept, latin1Token(bytes, valueStart, valueEnd));
  }

  private line(isOrig: boolean, h: Half, text: string): void {
    switch (h.state) {
      case 'start':
      case 'resync': {
        if (text.length === 0) return; // blank lines between messages are tolerated
        const m = isOrig ? REQUEST_LINE.exec(text) : RESPONSE_LINE.exec(text);
        if (m === null) {
          if (h.state === 'start') this.fail(h);
          return;
        }
        h.g1 = m[1] ?? '';
        h.g2 = m[2] ?? '';
        h.g3 = m[3];
        h.started = true;
        h.clearHeaders();
        h.headerCount = 0;
        h.headBytes = text.length;
        h.state = 'headers';
        return;
      }
      case 'headers': {
        h.headBytes += text.length + 2;
        if (h.headBytes > MAX_HEAD_BYTES || h.headerCount > MAX_HEADERS) {
          this.fail(h);
          return;
        }
        if (text.length > 0) {
          const colon = text.indexOf(':');
          if (colon > 0) {
            h.headerCount += 1;
            // The name trimmed in place: no string for it, and the value is made only for a kept header.
            let start = 0;
            let end = colon;
            while (start < end && isTrimmed(text.charCodeAt(start))) start += 1;
            while (end > start && isTrimmed(text.charCodeAt(end - 1))) end -= 1;
            const kept = end - start < KEPT_BY_LENGTH.length ? KEPT_BY_LENGTH[end - start] : undefined;
            if (kept !== undefined && isHeader(text, start, end, kept)) h.keep(kept, text.slice(colon + 1).trim());
          }
          return;
        }
        this.headEnd(isOrig, h);
        return;
      }
      case 'chunk_size': {
        const size = parseInt(text.split(';')[0]?.trim() ?? '', 16);
        if (!Number.isFinite(size) || size < 0) {
          this.fail(h);
          return;
        }
        if (size === 0) h.state = 'trailer';
        else {
          h.remaining = size;
          h.state = 'chunk_data';
        }
        return;
      }
      case 'chunk_end':
        h.state = 'chunk_size';
        return;
      case 'trailer':
        if (text.length === 0) this.endMessage(isOrig, h);
        return;
      default:
        return;
    }
  }

  private headEnd(isOrig: boolean, h: Half): void {
    if (!h.started) return;
    const te = h.transferEncoding?.toLowerCase();
    const length = h.contentLength >= 0 ? h.contentLength : undefined;
    h.bodyLength = 0;
    if (isOrig) {
      this.depth += 1;
      const auth = h.authorization;
      // Every field is there from the start, unknown ones undefined (which JSON leaves out): fields added to a made
      // object would give each transaction a second backing store for its properties.
      const t: Mutable<HttpTransaction> = {
        uid: this.uid,
        ts: h.ts,
        packet: h.packet,
        depth: this.depth,
        method: h.g1,
        uri: h.g2,
        version: h.g3 ?? '',
        requestBodyLength: 0,
        midstream: this.midstream,
        host: h.host,
        userAgent: h.userAgent,
        referrer: h.referer,
        authScheme: undefined,
        basicUser: undefined,
        statusCode: undefined,
        responseVersion: undefined,
        statusMessage: undefined,
        responseBodyLength: undefined,
      };
      if (auth !== undefined) {
        const [scheme = '', value = ''] = auth.split(/\s+/, 2);
        t.authScheme = scheme;
        if (scheme.toLowerCase() === 'basic') {
          const decoded = Buffer.from(value, 'base64').toString('latin1');
          const colon = decoded.indexOf(':');
          t.basicUser = colon >= 0 ? decoded.slice(0, colon) : decoded;
        }
      }
      if (this.outstanding.length >= MAX_OUTSTANDING) {
        const dropped = this.outstanding.shift();
        if (dropped) this.emit(dropped);
      }
      this.outstanding.push(t);
      if (te?.includes('chunked')) h.state = 'chunk_size';
      else if (length !== undefined && length > 0) {
        h.remaining = length;
        h.state = 'body';
      } else this.endMessage(isOrig, h);
      return;
    }
    const code = Number(h.g2);
    const request = this.outstanding[0];
    if (code >= 100 && code < 200 && code !== 101) {
      // An interim response: the real one is still to come.
      h.state = 'start';
      return;
    }
    if (request !== undefined) {
      request.statusCode = code;
      request.responseVersion = h.g1;
      if (h.g3 !== undefined) request.statusMessage = h.g3;
    }
    if (code === 101) {
      // Switched protocols (WebSocket, h2c): no more HTTP on this connection.
      this.endMessage(isOrig, h);
      this.halves[0].state = 'dead';
      this.halves[1].state = 'dead';
      return;
    }
    const noBody = request?.method === 'HEAD' || code === 204 || code === 304;
    if (noBody) this.endMessage(isOrig, h);
    else if (te?.includes('chunked')) h.state = 'chunk_size';
    else if (length !== undefined) {
      if (length === 0) this.endMessage(isOrig, h);
      else {
        h.remaining = length;
        h.state = 'body';
      }
    } else h.state = 'until_close';
  }

  private endMessage(isOrig: boolean, h: Half): void {
    if (isOrig) {
      const t = this.outstanding[this.outstanding.length - 1];
      if (t !== undefined) t.requestBodyLength = h.bodyLength;
    } else {
      const t = this.outstanding.shift();
      if (t !== undefined) {
        t.responseBodyLength = h.bodyLength;
        this.emit(t);
      }
    }
    h.state = 'start';
    h.ts = 0;
  }

  /** The connection ended: a body read until close is complete, and requests without responses are reported. */
  close(): void {
    const resp = this.halves[1];
    if (resp.state === 'until_close') {
      const t = this.outstanding.shift();
      if (t !== undefined) {
        t.responseBodyLength = resp.bodyLength;
        this.emit(t);
      }
    }
    const left = this.outstanding;
    if (left.length === 0) return;
    for (let i = 0; i < left.length; i++) this.emit(left[i]!);
    left.length = 0;
  }
}

function joinBytes(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
