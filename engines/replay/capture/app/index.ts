// Application metadata: decides each connection's protocol from ports and first bytes, reassembles TCP, and gathers DNS, HTTP, TLS, SSH, FTP, SMB, RDP and RFB facts.
import type { DecodedPacket } from '../decode.js';
import type { Connection } from '../flows.js';
import type { RawPacket } from '../types.js';
import type { WarningCounter } from '../warnings.js';
import {
  looksLikeRdp,
  looksLikeRfb,
  looksLikeSmb,
  RdpConnection,
  RfbConnection,
  SmbConnection,
  SshConnection,
  type RdpSession,
  type RfbSession,
  type SmbSession,
  type SshSession,
} from './banners.js';
import { dnsRecord, type DnsBody } from './dns.js';
import { FtpConnection, type FtpSession } from './ftp.js';
import { HttpConnection, looksLikeHttpAt, type HttpTransaction } from './http.js';
import { TcpStream, type StreamSink } from './stream.js';
import { looksLikeTlsAt, TlsStreamReader, tlsVersionName, type TlsClientHello, type TlsEvent, type TlsEventSink } from './tls.js';

export type { DnsBody, DnsQuestion, DnsAnswer, DnsEdns, EdnsClientSubnet } from './dns.js';
export type { HttpTransaction } from './http.js';
export type { FtpSession, FtpCommand } from './ftp.js';
export type { SshSession, RfbSession, SmbSession, RdpSession, DetectedBy } from './banners.js';

/** One DNS message with where it was seen. */
export interface DnsMessage extends DnsBody {
  readonly uid: string;
  readonly ts: number;
  readonly packet: number;
  readonly transport: 'udp' | 'tcp';
  /** Server port of the connection: 53 DNS, 5353 mDNS, 5355 LLMNR, 137 NetBIOS name service. */
  readonly port: number;
}

/** One TLS handshake's client and server hellos. */
export interface TlsHandshake {
  readonly uid: string;
  readonly ts: number;
  readonly packet: number;
  readonly client?: TlsClientHello;
  readonly serverName?: string;
  readonly ja3?: string;
  readonly ja4?: string;
  /** Negotiated version (Zeek's names, TLSv12 ...), from the ServerHello. */
  readonly version?: string;
  /** Cipher suite chosen by the server. */
  readonly cipher?: number;
  readonly midstream: boolean;
}

export interface AppMetadata {
  readonly dns: DnsMessage[];
  readonly http: HttpTransaction[];
  readonly tls: TlsHandshake[];
  readonly ssh: SshSession[];
  readonly ftp: FtpSession[];
  readonly smb: SmbSession[];
  readonly rdp: RdpSession[];
  readonly rfb: RfbSession[];
  /** Records not kept because a list reached its bound (the facts still counted elsewhere). */
  readonly dropped: number;
}

/** Records kept per list; a capture with more keeps the first ones and counts the rest. */
const MAX_RECORDS = 500_000;
/** Bytes of a connection we look at before deciding it is none of the protocols we read. */
const UNDECIDED_BUDGET = 4096;
/** Closed connections' states kept for reuse. */
const MAX_SPARE = 4096;

const DNS_PORTS = new Set([53, 5353, 5355, 137]);
const SMB_PORTS = new Set([139, 445]);
const RDP_PORTS = new Set([3389]);
const FTP_PORTS = new Set([21, 2811]);

type Kind = 'undecided' | 'none' | 'http' | 'tls' | 'ssh' | 'ftp' | 'smb' | 'rdp' | 'rfb' | 'dns';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Per-connection application state (kept on Connection.app). It is also the sink both directions' streams deliver
 * to and the TLS readers' event handler: one object per connection rather than a closure or a sink per direction.
 */
class ConnApp implements StreamSink, TlsEventSink {
  kind: Kind = 'undecided';
  /** Both directions' streams, made with the state and reused with it; `streaming` once the first packet set them up. */
  readonly streams: [TcpStream, TcpStream];
  streaming = false;
  http: HttpConnection | undefined;
  tls: { readers: [TlsStreamReader, TlsStreamReader]; record: Mutable<TlsHandshake> } | undefined;
  ssh: SshConnection | undefined;
  ftp: FtpConnection | undefined;
  smb: SmbConnection | undefined;
  rdp: RdpConnection | undefined;
  rfb: RfbConnection | undefined;
  dnsTcp: [Uint8Array, Uint8Array] | undefined;
  examined = 0;
  midstream = false;
  finished = false;

  constructor(
    private readonly layer: AppLayer,
    private conn: Connection,
  ) {
    this.streams = [new TcpStream(this, true), new TcpStream(this, false)];
  }

  /**
   * Back to a new connection's state for `conn`: the state of a closed connection is reused by a later one, so a
   * connection costs no new state, streams or readers (every field below is set as the constructor sets it).
   * The reuse tests in app.test.ts fail without any one of these lines but two, which cannot change an output:
   * `dnsTcp` is read only while `kind` is 'dns', and decide() gives a new pair whenever it sets that kind (clearing it
   * frees the held bytes); `midstream` is set by packet() from the first packet while `streaming` is false, before
   * any byte is read.
   */
  reset(conn: Connection): void {
    this.conn = conn;
    this.kind = 'undecided';
    this.streams[0].reset();
    this.streams[1].reset();
    this.streaming = false;
    this.http = undefined;
    this.tls = undefined;
    this.ssh = undefined;
    this.ftp = undefined;
    this.smb = undefined;
    this.rdp = undefined;
    this.rfb = undefined;
    this.dnsTcp = undefined;
    this.examined = 0;
    this.midstream = false;
    this.finished = false;
  }

  data(isOrig: boolean, buf: Uint8Array, start: number, end: number, ts: number, packet: number): void {
    this.layer.onStreamData(this.conn, this, isOrig, buf, start, end, ts, packet);
  }

  gap(isOrig: boolean, length: number): void {
    this.layer.onStreamGap(this, isOrig, length);
  }

  tlsEvent(e: TlsEvent): void {
    this.layer.onTlsEvent(this.conn, this, e);
  }
}

export class AppLayer {
  private readonly out: {
    dns: DnsMessage[];
    http: HttpTransaction[];
    tls: TlsHandshake[];
    ssh: SshSession[];
    ftp: FtpSession[];
    smb: SmbSession[];
    rdp: RdpSession[];
    rfb: RfbSession[];
  } = { dns: [], http: [], tls: [], ssh: [], ftp: [], smb: [], rdp: [], rfb: [] };
  private dropped = 0;
  private raw: RawPacket | undefined;

  /**
   * States, HTTP readers and TLS reader pairs of closed connections, for the next ones (bounded: past it a closed
   * connection's state is left to the collector).
   */
  private readonly spareApps: ConnApp[] = [];
  private readonly spareHttp: HttpConnection[] = [];
  private readonly spareTls: Array<[TlsStreamReader, TlsStreamReader]> = [];

  /** Made once: every HTTP connection hands its transactions to the same function. */
  private readonly httpSink = (t: HttpTransaction): void => this.onHttp(t);

  constructor(private readonly warnings: WarningCounter) {}

  static empty(): AppMetadata {
    return { dns: [], http: [], tls: [], ssh: [], ftp: [], smb: [], rdp: [], rfb: [], dropped: 0 };
  }

  private keep<T>(list: T[], item: T): void {
    if (list.length < MAX_RECORDS) list.push(item);
    else this.dropped += 1;
  }

  private warn(code: 'dns_malformed' | 'dns_compression_loop' | 'tls_malformed' | 'http_malformed' | 'stream_gap'): void {
    this.warnings.add(code, this.raw?.offset ?? 0, this.raw?.index);
  }

  packet(conn: Connection, isOrig: boolean, d: DecodedPacket, raw: RawPacket): void {
    this.raw = raw;
    if (conn.proto === 'udp') {
      if (d.payloadLength > 0 && (DNS_PORTS.has(conn.respP) || DNS_PORTS.has(conn.origP))) {
        this.dns(conn, d.buf.subarray(d.payloadOffset, d.payloadOffset + d.payloadLength), raw, 'udp');
      }
      return;
    }
    if (conn.proto !== 'tcp') return;
    let app = conn.app as ConnApp | undefined;
    if (app === undefined) {
      const spare = this.spareApps.pop();
      if (spare !== undefined) {
        spare.reset(conn);
        app = spare;
      } else app = new ConnApp(this, conn);
      conn.app = app;
    }
    if (app.kind === 'none' || app.finished) return;
    if (!app.streaming) {
      app.midstream = !((d.tcpFlags & 0x02) !== 0);
      app.streaming = true;
    }
    const stream = app.streams[isOrig ? 0 : 1];
    if ((d.tcpFlags & 0x02) !== 0) stream.syn(d.seq);
    // Data on a RST is not trusted (as in Zeek).
    if (d.payloadWireLength > 0 && (d.tcpFlags & 0x04) === 0) {
      stream.segment(d.seq, d.buf, d.payloadOffset, d.payloadLength, d.payloadWireLength, raw.ts, raw.index);
    }
  }

  /** A reassembled stream's bytes, `buf[start, end)` (ConnApp's way in). */
  onStreamData(conn: Connection, app: ConnApp, isOrig: boolean, buf: Uint8Array, start: number, end: number, ts: number, packet: number): void {
    this.streamData(conn, app, isOrig, buf, start, end, ts, packet);
  }

  /** A reassembled stream's lost bytes (ConnApp's way in). */
  onStreamGap(app: ConnApp, isOrig: boolean, length: number): void {
    this.warn('stream_gap');
    this.streamGap(app, isOrig, length);
  }

  /** A TLS reader's event (ConnApp's way in). */
  onTlsEvent(conn: Connection, app: ConnApp, e: TlsEvent): void {
    this.tlsEvent(conn, app, e);
  }

  /** An HTTP transaction (HttpKeeper's way in). */
  onHttp(t: HttpTransaction): void {
    this.keep(this.out.http, t);
  }

  /**
   * The protocol of a connection from its first stream bytes `buf[start, end)`. TLS, SSH and HTTP, nearly every
   * connection, are told from the range; only the rarer checks after them take a view of it.
   */
  private decide(conn: Connection, app: ConnApp, isOrig: boolean, buf: Uint8Array, start: number, end: number, ts: number): void {
    const uid = conn.uid;
    const n = end - start;
    if (looksLikeTlsAt(buf, start, end)) {
      app.kind = 'tls';
      const record: Mutable<TlsHandshake> = { uid, ts, packet: this.raw?.index ?? 0, midstream: app.midstream };
      let readers = this.spareTls.pop();
      if (readers !== undefined) {
        readers[0].reset(app);
        readers[1].reset(app);
      } else readers = [new TlsStreamReader(app), new TlsStreamReader(app)];
      app.tls = { readers, record };
    } else if (n >= 4 && buf[start] === 0x53 && buf[start + 1] === 0x53 && buf[start + 2] === 0x48 && buf[start + 3] === 0x2d) {
      app.kind = 'ssh';
      app.ssh = new SshConnection(uid);
    } else if (looksLikeHttpAt(buf, start, end, isOrig)) {
      app.kind = 'http';
      const http = this.spareHttp.pop();
      if (http !== undefined) http.reset(uid, app.midstream);
      app.http = http ?? new HttpConnection(uid, app.midstream, this.httpSink);
    } else this.decideRest(conn, app, isOrig, buf.subarray(start, end), ts);
  }

  /** decide() past TLS, SSH and HTTP, over a view of the bytes. */
  private decideRest(conn: Connection, app: ConnApp, isOrig: boolean, b: Uint8Array, ts: number): void {
    const port = conn.respP;
    const uid = conn.uid;
    if (looksLikeRfb(b)) {
      app.kind = 'rfb';
      app.rfb = new RfbConnection(uid, ts);
    } else if (SMB_PORTS.has(port) || looksLikeSmb(b)) {
      app.kind = 'smb';
      app.smb = new SmbConnection(uid, ts);
    } else if (RDP_PORTS.has(port) || (isOrig && looksLikeRdp(b))) {
      app.kind = 'rdp';
      app.rdp = new RdpConnection(uid, ts);
    } else if (FTP_PORTS.has(port) || (!isOrig && /^220[ -]/.test(String.fromCharCode(...b.subarray(0, 4))) && conn.respP < 1024)) {
      app.kind = 'ftp';
      app.ftp = new FtpConnection(uid, ts, app.midstream);
    } else if (port === 53) {
      app.kind = 'dns';
      app.dnsTcp = [new Uint8Array(0), new Uint8Array(0)];
    } else {
      app.examined += b.length;
      if (app.examined >= UNDECIDED_BUDGET) this.finish(app, 'none');
    }
  }

  private streamData(conn: Connection, app: ConnApp, isOrig: boolean, buf: Uint8Array, start: number, end: number, ts: number, packet: number): void {
    if (app.finished) return;
    if (app.kind === 'undecided') {
      this.decide(conn, app, isOrig, buf, start, end, ts);
      if (app.kind === 'undecided' || app.kind === 'none') return;
    }
    // HTTP and TLS, nearly every segment read, take the range; the rarer protocols a view of it.
    switch (app.kind) {
      case 'http':
        app.http?.data(isOrig, buf, start, end, ts, packet);
        if (app.http?.malformed) {
          this.warn('http_malformed');
          app.http.malformed = false;
        } else conn.addService('http');
        break;
      case 'tls':
        app.tls?.readers[isOrig ? 0 : 1].data(buf, start, end);
        if (app.tls && app.tls.readers[0].done && app.tls.readers[1].done) this.finish(app, 'tls');
        break;
      case 'ssh':
        app.ssh?.data(isOrig, buf.subarray(start, end), ts, packet);
        conn.addService('ssh');
        if (app.ssh?.done) this.finish(app, 'ssh');
        break;
      case 'ftp':
        app.ftp?.data(isOrig, buf.subarray(start, end), ts, packet);
        conn.addService('ftp');
        break;
      case 'smb':
        app.smb?.data(isOrig, buf.subarray(start, end));
        if (app.smb?.confirmed) conn.addService('smb');
        if (app.smb?.done) this.finish(app, 'smb');
        break;
      case 'rdp':
        app.rdp?.data(isOrig, buf.subarray(start, end));
        if (app.rdp?.confirmed) conn.addService('rdp');
        if (app.rdp?.done) this.finish(app, 'rdp');
        break;
      case 'rfb':
        app.rfb?.data(isOrig, buf.subarray(start, end));
        conn.addService('rfb');
        if (app.rfb?.done) this.finish(app, 'rfb');
        break;
      case 'dns':
        this.dnsOverTcp(conn, app, isOrig, buf.subarray(start, end));
        break;
      default:
        break;
    }
  }

  private streamGap(app: ConnApp, isOrig: boolean, length: number): void {
    app.http?.gap(isOrig, length);
    app.ftp?.gap(isOrig);
    if (app.kind === 'tls' || app.kind === 'dns') app.finished = true;
  }

  /** DNS over TCP: each message has a two-byte length prefix. */
  private dnsOverTcp(conn: Connection, app: ConnApp, isOrig: boolean, bytes: Uint8Array): void {
    if (app.dnsTcp === undefined) return;
    const side = isOrig ? 0 : 1;
    let buf: Uint8Array = concat(app.dnsTcp[side], bytes);
    while (buf.length >= 2) {
      const len = (buf[0]! << 8) | buf[1]!;
      if (buf.length < 2 + len) break;
      this.dns(conn, buf.subarray(2, 2 + len), this.raw, 'tcp');
      buf = buf.subarray(2 + len);
    }
    // A message is at most 64 KiB; keep the partial one (copied: the stream view is transient).
    app.dnsTcp[side] = buf.slice();
  }

  private dns(conn: Connection, payload: Uint8Array, raw: RawPacket | undefined, transport: 'udp' | 'tcp'): void {
    const port = DNS_PORTS.has(conn.respP) ? conn.respP : conn.origP;
    const r = dnsRecord(payload, conn.uid, raw?.ts ?? 0, raw?.index ?? 0, transport, port);
    if (typeof r === 'string') {
      this.warn(r);
      return;
    }
    conn.addService('dns');
    this.keep(this.out.dns, r);
  }

  private tlsEvent(conn: Connection, app: ConnApp, e: TlsEvent): void {
    const record = app.tls?.record;
    if (record === undefined) return;
    if (e.type === 'malformed') {
      this.warn('tls_malformed');
      return;
    }
    conn.addService('ssl');
    if (e.type === 'client_hello') {
      record.client = e.hello;
      record.ja3 = e.hello.ja3;
      record.ja4 = e.hello.ja4;
      if (e.hello.serverName !== undefined) record.serverName = e.hello.serverName;
    } else {
      record.version = tlsVersionName(e.hello.selectedVersion ?? e.hello.version);
      record.cipher = e.hello.cipher;
    }
  }

  /** Stops reading a connection's bytes: its protocol gave what we want, or it is none we read. */
  private finish(app: ConnApp, kind: Kind): void {
    if (kind === 'none') app.kind = 'none';
    app.finished = true;
  }

  /** The connection ended: flush streams and write out per-connection records. */
  close(conn: Connection): void {
    const app = conn.app as ConnApp | undefined;
    if (conn.proto !== 'tcp') return;
    const byPortSmb = SMB_PORTS.has(conn.respP);
    const byPortRdp = RDP_PORTS.has(conn.respP);
    if (app === undefined) {
      // No payload at all: SMB and RDP are still reported by port (a scan or an empty connection).
      if (byPortSmb) this.keep(this.out.smb, new SmbConnection(conn.uid, conn.startTs).result(true) as SmbSession);
      if (byPortRdp) this.keep(this.out.rdp, new RdpConnection(conn.uid, conn.startTs).result(true) as RdpSession);
      return;
    }
    if (!app.finished && app.streaming) {
      app.streams[0].flush();
      app.streams[1].flush();
    }
    app.http?.close();
    if (app.tls && (app.tls.record.client !== undefined || app.tls.record.version !== undefined)) this.keep(this.out.tls, app.tls.record);
    const ssh = app.ssh?.result();
    if (ssh) this.keep(this.out.ssh, ssh);
    if (app.ftp) this.keep(this.out.ftp, app.ftp.result());
    const smb = (app.smb ?? (byPortSmb ? new SmbConnection(conn.uid, conn.startTs) : undefined))?.result(byPortSmb);
    if (smb) this.keep(this.out.smb, smb);
    const rdp = (app.rdp ?? (byPortRdp ? new RdpConnection(conn.uid, conn.startTs) : undefined))?.result(byPortRdp);
    if (rdp) this.keep(this.out.rdp, rdp);
    const rfb = app.rfb?.result();
    if (rfb) this.keep(this.out.rfb, rfb);
    // Release the buffers: the connection record is all that stays; the state and readers serve later connections.
    conn.app = undefined;
    if (this.spareApps.length < MAX_SPARE) this.spareApps.push(app);
    if (app.http !== undefined && this.spareHttp.length < MAX_SPARE) this.spareHttp.push(app.http);
    if (app.tls !== undefined && this.spareTls.length < MAX_SPARE) this.spareTls.push(app.tls.readers);
  }

  result(): AppMetadata {
    const byTime = <T extends { ts: number }>(xs: T[]): T[] => xs.sort((a, b) => a.ts - b.ts);
    return {
      dns: this.out.dns,
      http: byTime(this.out.http),
      tls: byTime(this.out.tls),
      ssh: byTime(this.out.ssh),
      ftp: byTime(this.out.ftp),
      smb: byTime(this.out.smb),
      rdp: byTime(this.out.rdp),
      rfb: byTime(this.out.rfb),
      dropped: this.dropped,
    };
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

