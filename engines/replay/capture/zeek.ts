// Zeek conn.log as an input: its rows (ASCII TSV with #fields headers, or JSON lines) become connection records, streamed and bounds-checked.
import { createHash } from 'node:crypto';
import { VitrineError } from '../../core/errors.js';
import { ownEntry } from '../../core/own.js';
import { ipv4Number, ipv6Bytes } from '../net.js';
import type { CaptureAnalysis } from './analyze.js';
import { AppLayer } from './app/index.js';
import { formatIpv4, formatIpv6 } from './decode.js';
import type { ConnectionRecord, DirectionStats, TcpHandshake, TcpSummary, TransportName } from './flows.js';
import { feedBytes, feedFile, type FeedOptions } from './source.js';
import type { CaptureInfo } from './types.js';
import { MAX_TIME_SEC } from './timestamps.js';
import { WarningCounter } from './warnings.js';
import { C0_DEL, isControlCode } from '../../core/control-characters.js';

/** A line longer than this is not a conn.log row (Zeek's rows are a few hundred bytes); it is skipped with a warning. */
export const MAX_ZEEK_LINE_BYTES = 64 * 1024;
/** Rows kept at most; the rest are counted (`zeek_row_limit`). */
export const MAX_ZEEK_ROWS = 5_000_000;

/** The two forms Zeek writes: its ASCII writer (tab-separated, # headers) and `LogAscii::use_json` (one object a line). */
export type ZeekForm = 'tsv' | 'json';

const REQUIRED = ['ts', 'id.orig_h', 'id.orig_p', 'id.resp_h', 'id.resp_p', 'proto'] as const;

/**
 * Recognises a conn.log by its first bytes: the ASCII writer's `#separator` header (then `#path conn` or conn's
 * `#fields`), or a JSON object with the connection's id fields. Never by file name.
 */
export function detectZeekConnLog(head: Uint8Array): ZeekForm | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 8192)).replace(/^\uFEFF/, '');
  // Zeek's writer starts with #separator; a comment line may stand before it (Zeek's own test baselines have one).
  if (text.startsWith('#') && /^#separator /m.test(text.slice(0, 1024))) {
    const path = /^#path\t([^\t\n]*)$/m.exec(text);
    if (path) return path[1] === 'conn' ? 'tsv' : undefined;
    const fields = /^#fields\t(.*)$/m.exec(text);
    return fields && REQUIRED.every((f) => fields[1]?.split('\t').includes(f)) ? 'tsv' : undefined;
  }
  const first = text.trimStart();
  if (!first.startsWith('{')) return undefined;
  const line = first.slice(0, first.indexOf('\n') >= 0 ? first.indexOf('\n') : undefined);
  return /"id\.orig_h"\s*:|"id"\s*:\s*\{\s*"orig_h"\s*:/.test(line) && /"proto"\s*:/.test(line) ? 'json' : undefined;
}

/** Canonical address text (the capture parser's: dotted IPv4, RFC 5952 IPv6), or undefined. */
function canonicalAddress(text: string): string | undefined {
  const v4 = ipv4Number(text);
  if (v4 !== undefined) return formatIpv4(v4);
  const v6 = ipv6Bytes(text);
  if (v6 === undefined) return undefined;
  let key = '';
  for (let i = 0; i < 16; i += 2) key += String.fromCharCode(((v6[i] ?? 0) << 8) | (v6[i + 1] ?? 0));
  return formatIpv6(key);
}

/** One row's values by field name; undefined is Zeek's unset. */
type RowValue = string | number | boolean | readonly string[] | undefined;
type Row = (field: string) => RowValue;

const PROTO_NUMBERS: Readonly<Record<string, number>> = { tcp: 6, udp: 17, icmp: 1 };

/** Derives Zeek's TCP summary from its history letters (upper case the originator, lower the responder). */
function tcpFromHistory(history: string): TcpSummary {
  const has = (ch: string): boolean => history.includes(ch);
  const count = (ch: string): number => history.split(ch).length - 1;
  // As the flow table decides it: a SYN (S, or H for SYN-ACK) from each side, then the originator's ACK, data or FIN.
  const origSyn = has('S') || has('H');
  const respSyn = has('s') || has('h');
  let handshake: TcpHandshake;
  if (!origSyn) handshake = 'midstream';
  else if (!respSyn) handshake = 'attempt';
  else handshake = has('A') || has('D') || has('F') ? 'complete' : 'half_open';
  const state = (reset: boolean, fin: boolean, syn: boolean): TcpSummary['origState'] => (reset ? 'reset' : fin ? 'closed' : syn ? 'established' : 'partial');
  return {
    handshake,
    origState: state(has('R'), has('F'), origSyn),
    respState: state(has('r'), has('f'), respSyn),
    syns: count('S') + count('s') + count('H') + count('h'),
    resets: { orig: count('R'), resp: count('r') },
    fins: { orig: count('F'), resp: count('f') },
  };
}

/** Streaming conn.log reader: feed chunks, then end(); each readable row becomes a ConnectionRecord. */
export class ZeekConnReader {
  form: ZeekForm | undefined;
  rows = 0;
  firstTs: number | undefined;
  lastTs: number | undefined;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private skippingLongLine = false;
  private offset = 0;
  private lineOffset = 0;
  private fields: string[] | undefined;
  private separator = '\t';
  private setSeparator = ',';
  private emptyField = '(empty)';
  private unsetField = '-';
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private stopped = false;

  constructor(
    private readonly warnings: WarningCounter,
    private readonly onRecord: (record: ConnectionRecord) => void,
  ) {}

  get hasStopped(): boolean {
    return this.stopped;
  }

  feed(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      this.takeLine(chunk.subarray(start, nl));
      this.offset += nl - start + 1;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (!this.skippingLongLine) {
        if (this.pendingBytes + rest.length > MAX_ZEEK_LINE_BYTES) {
          this.warnings.add('zeek_line_too_long', this.lineOffset, this.rows);
          this.skippingLongLine = true;
          this.pending = [];
          this.pendingBytes = 0;
        } else {
          this.pending.push(rest.slice());
          this.pendingBytes += rest.length;
        }
      }
      this.offset += rest.length;
    }
  }

  end(): void {
    if (this.pendingBytes > 0 && !this.skippingLongLine) this.takeLine(new Uint8Array(0));
    this.pending = [];
    this.pendingBytes = 0;
    if (this.form === undefined) throw new VitrineError('parse_error', 'the input is not a Zeek conn.log');
    if (this.form === 'tsv' && this.fields === undefined) throw new VitrineError('parse_error', 'the Zeek log has no #fields header');
  }

  private takeLine(tail: Uint8Array): void {
    const lineStart = this.lineOffset;
    this.lineOffset = this.offset + tail.length + 1;
    if (this.skippingLongLine) {
      this.skippingLongLine = false;
      return;
    }
    let bytes = tail;
    if (this.pendingBytes > 0) {
      if (this.pendingBytes + tail.length > MAX_ZEEK_LINE_BYTES) {
        this.warnings.add('zeek_line_too_long', lineStart, this.rows);
        this.pending = [];
        this.pendingBytes = 0;
        return;
      }
      bytes = new Uint8Array(this.pendingBytes + tail.length);
      let at = 0;
      for (const p of this.pending) {
        bytes.set(p, at);
        at += p.length;
      }
      bytes.set(tail, at);
      this.pending = [];
      this.pendingBytes = 0;
    } else if (tail.length > MAX_ZEEK_LINE_BYTES) {
      this.warnings.add('zeek_line_too_long', lineStart, this.rows);
      return;
    }
    let line = this.decoder.decode(bytes);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (lineStart === 0) line = line.replace(/^\uFEFF/, '');
    if (line.trim() === '') return;
    this.line(line, lineStart);
  }

  private line(line: string, at: number): void {
    if (this.form === undefined) {
      if (line.startsWith('#')) this.form = 'tsv';
      else if (line.trimStart().startsWith('{')) this.form = 'json';
      else throw new VitrineError('parse_error', 'the input is not a Zeek conn.log');
    }
    if (this.form === 'tsv') {
      if (line.startsWith('#')) this.header(line);
      else this.tsvRow(line, at);
    } else {
      this.jsonRow(line, at);
    }
  }

  private header(line: string): void {
    // The #separator line itself is always space-separated; the rest use the announced separator.
    if (line.startsWith('#separator ')) {
      this.separator = unescapeZeek(line.slice('#separator '.length)) || '\t';
      return;
    }
    const parts = line.split(this.separator);
    const key = parts[0];
    const value = parts.slice(1);
    switch (key) {
      case '#set_separator':
        this.setSeparator = unescapeZeek(value[0] ?? ',') || ',';
        break;
      case '#empty_field':
        this.emptyField = value[0] ?? '(empty)';
        break;
      case '#unset_field':
        this.unsetField = value[0] ?? '-';
        break;
      case '#path':
        if (value[0] !== 'conn') throw new VitrineError('parse_error', 'the Zeek log is not a conn.log');
        break;
      case '#fields':
        if (!REQUIRED.every((f) => value.includes(f))) throw new VitrineError('parse_error', 'the Zeek log lacks the conn.log id fields');
        // A new #fields header mid-file: logs concatenated with cat; the rows below follow it.
        this.fields = value;
        break;
      default:
        break;
    }
  }

  private tsvRow(line: string, at: number): void {
    const fields = this.fields;
    if (fields === undefined) {
      this.warnings.add('zeek_row_before_header', at, this.rows);
      return;
    }
    const values = line.split(this.separator);
    if (values.length !== fields.length) {
      this.warnings.add('zeek_row_malformed', at, this.rows);
      return;
    }
    const index = new Map<string, number>();
    fields.forEach((f, i) => index.set(f, i));
    const row: Row = (field) => {
      const i = index.get(field);
      if (i === undefined) return undefined;
      const v = values[i] ?? this.unsetField;
      if (v === this.unsetField) return undefined;
      if (v === this.emptyField) return field === 'service' || field === 'tunnel_parents' ? [] : '';
      if (field === 'tunnel_parents') return v.split(this.setSeparator).map(unescapeZeek);
      return unescapeZeek(v);
    };
    this.emit(row, at);
  }

  private jsonRow(line: string, at: number): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.warnings.add('zeek_row_malformed', at, this.rows);
      return;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      this.warnings.add('zeek_row_malformed', at, this.rows);
      return;
    }
    const obj = parsed as Record<string, unknown>;
    // Zeek writes flat dotted names ("id.orig_h"); some shippers nest them ({"id": {"orig_h": ...}}).
    const nested = obj['id'] !== null && typeof obj['id'] === 'object' ? (obj['id'] as Record<string, unknown>) : undefined;
    const row: Row = (field) => {
      let v = obj[field];
      if (v === undefined && nested !== undefined && field.startsWith('id.')) v = nested[field.slice(3)];
      if (v === null || v === undefined) return undefined;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
      if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
      return undefined;
    };
    this.emit(row, at);
  }

  private emit(row: Row, at: number): void {
    if (this.rows >= MAX_ZEEK_ROWS) {
      this.warnings.add('zeek_row_limit', at, this.rows);
      this.stopped = true;
      return;
    }
    const record = this.record(row, at);
    if (record === undefined) {
      this.warnings.add('zeek_row_malformed', at, this.rows);
      return;
    }
    this.rows += 1;
    if (this.firstTs === undefined || record.startTs < this.firstTs) this.firstTs = record.startTs;
    if (this.lastTs === undefined || record.lastTs > this.lastTs) this.lastTs = record.lastTs;
    this.onRecord(record);
  }

  /**
   * A number field: undefined when unset; a value that is not a number from 0 to `max` (a time before the year 10000,
   * a count that is a safe integer) counts a warning and is unset, so sums and times stay finite and writable.
   */
  private number(row: Row, field: string, at: number, integer: boolean, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const v = row(field);
    if (v === undefined) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : typeof v === 'string' && field === 'ts' ? Date.parse(v) / 1000 : NaN;
    if (!(n >= 0 && n <= max) || (integer && !Number.isInteger(n))) {
      this.warnings.add('zeek_value_unreadable', at, this.rows);
      return undefined;
    }
    return n;
  }

  private record(row: Row, at: number): ConnectionRecord | undefined {
    const origH = canonicalAddress(String(row('id.orig_h') ?? ''));
    const respH = canonicalAddress(String(row('id.resp_h') ?? ''));
    const port = (field: string): number | undefined => {
      const v = row(field);
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,5}$/.test(v) ? Number(v) : NaN;
      return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : undefined;
    };
    const origP = port('id.orig_p');
    const respP = port('id.resp_p');
    const protoText = String(row('proto') ?? '').toLowerCase();
    if (origH === undefined || respH === undefined || origP === undefined || respP === undefined || protoText === '') return undefined;
    const proto: TransportName = protoText === 'tcp' || protoText === 'udp' || protoText === 'icmp' ? protoText : 'other';
    const v6 = origH.includes(':');
    const ipProtoField = this.number(row, 'ip_proto', at, true);
    const ipProto = ipProtoField ?? (proto === 'icmp' && v6 ? 58 : (ownEntry(PROTO_NUMBERS, protoText) ?? 0));
    // Zeek's row times are canonified in test baselines (XXXXXXXXXX.XXXXXX): such a row keeps its counts, at time 0.
    const startTs = this.number(row, 'ts', at, false, MAX_TIME_SEC - 1) ?? 0;
    // A duration that ends the connection past the last time a date can write is as unreadable.
    const duration = this.number(row, 'duration', at, false, MAX_TIME_SEC - 1 - startTs) ?? 0;
    const side = (prefix: 'orig' | 'resp'): DirectionStats => {
      const bytes = this.number(row, `${prefix}_bytes`, at, true) ?? 0;
      return { packets: this.number(row, `${prefix}_pkts`, at, true) ?? 0, ipBytes: this.number(row, `${prefix}_ip_bytes`, at, true) ?? 0, payloadBytes: bytes, bytes };
    };
    const history = typeof row('history') === 'string' ? (row('history') as string) : '';
    const serviceValue = row('service');
    const service = (Array.isArray(serviceValue) ? serviceValue : typeof serviceValue === 'string' ? serviceValue.split(',') : [])
      .map((s) => s.trim().toLowerCase())
      .filter((s) => /^[a-z0-9_-]{1,32}$/.test(s))
      .sort();
    const connState = typeof row('conn_state') === 'string' && /^[A-Z0-9]{2,7}$/.test(row('conn_state') as string) ? (row('conn_state') as string) : 'OTH';
    const uidValue = row('uid');
    const uid = typeof uidValue === 'string' && /^[A-Za-z0-9]{1,32}$/.test(uidValue) ? uidValue : `Z${this.rows}`;
    const vlan = this.number(row, 'vlan', at, true);
    return {
      uid,
      proto,
      ipProto,
      origH,
      origP,
      respH,
      respP,
      startTs,
      lastTs: startTs + duration,
      duration,
      orig: side('orig'),
      resp: side('resp'),
      connState,
      history,
      flipped: history.includes('^'),
      service,
      ...(proto === 'tcp' ? { tcp: tcpFromHistory(history) } : {}),
      ...(vlan !== undefined && vlan > 0 ? { vlan } : {}),
      // No packets: the row number (0-based) stands where a packet number would, so evidence still points into the file.
      firstPacket: this.rows,
      lastPacket: this.rows,
      fragmentFrames: 0,
    };
  }
}

/** Zeek's ASCII escape for writing: control characters, DEL and the backslash as \xHH. */
export function escapeZeek(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    out += isControlCode(c, C0_DEL) || ch === '\\' ? `\\x${c.toString(16).padStart(2, '0')}` : ch;
  }
  return out;
}

/** Zeek's ASCII escapes (\xHH for the separator and non-printable bytes). */
function unescapeZeek(text: string): string {
  if (!text.includes('\\x')) return text;
  return text.replace(/\\x([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A connections-only analysis of a conn.log: no packets were seen, so packet counts are the log's and application records are empty. */
export function connLogAnalysis(reader: ZeekConnReader, records: ConnectionRecord[], warnings: WarningCounter, sha256: string, bytes: number): CaptureAnalysis {
  records.sort((a, b) => a.startTs - b.startTs || a.firstPacket - b.firstPacket);
  let tcp = 0;
  let udp = 0;
  let icmp = 0;
  let otherIp = 0;
  let ipv4 = 0;
  let ipv6 = 0;
  for (const r of records) {
    const n = r.orig.packets + r.resp.packets;
    if (r.proto === 'tcp') tcp += n;
    else if (r.proto === 'udp') udp += n;
    else if (r.proto === 'icmp') icmp += n;
    else otherIp += n;
    if (r.origH.includes(':')) ipv6 += n;
    else ipv4 += n;
  }
  const info: CaptureInfo = { format: 'zeek_conn', sections: 0, interfaces: [], names: [], statisticsBlocks: 0, skippedBlocks: 0 };
  return {
    info,
    sha256,
    bytes,
    packets: { total: tcp + udp + icmp + otherIp, ipv4, ipv6, nonIp: 0, arp: 0, tcp, udp, icmp, otherIp, vlanTagged: 0, ipv4WithOptions: 0, fragments: 0, snapTruncated: 0, unplaced: 0 },
    ...(reader.firstTs !== undefined ? { firstTs: reader.firstTs } : {}),
    ...(reader.lastTs !== undefined ? { lastTs: reader.lastTs } : {}),
    fragments: { reassembled: 0, incompleteFrames: 0 },
    connections: records,
    app: AppLayer.empty(),
    warnings: warnings.list(),
    warningCount: warnings.total,
  };
}

/** Reads a conn.log file through one handle in chunks (any size), hashing it as it goes. */
export async function analyzeConnLogFile(path: string, options: FeedOptions = {}): Promise<CaptureAnalysis> {
  const warnings = new WarningCounter();
  const records: ConnectionRecord[] = [];
  const reader = new ZeekConnReader(warnings, (r) => records.push(r));
  const hash = createHash('sha256');
  const bytes = await feedFile(reader, path, { ...options, onChunk: (c) => hash.update(c) });
  return connLogAnalysis(reader, records, warnings, hash.digest('hex'), bytes);
}

/** The same over bytes in memory. */
export function analyzeConnLogBytes(bytes: Uint8Array, options: FeedOptions = {}): CaptureAnalysis {
  const warnings = new WarningCounter();
  const records: ConnectionRecord[] = [];
  const reader = new ZeekConnReader(warnings, (r) => records.push(r));
  const hash = createHash('sha256');
  feedBytes(reader, bytes, { ...options, onChunk: (c) => hash.update(c) });
  return connLogAnalysis(reader, records, warnings, hash.digest('hex'), bytes.length);
}

const WRITE_FIELDS = ['ts', 'uid', 'id.orig_h', 'id.orig_p', 'id.resp_h', 'id.resp_p', 'proto', 'service', 'duration', 'orig_bytes', 'resp_bytes', 'conn_state', 'missed_bytes', 'history', 'orig_pkts', 'orig_ip_bytes', 'resp_pkts', 'resp_ip_bytes', 'ip_proto'] as const;

/** Connection records written as Zeek writes conn.log (its ASCII writer, or JSON lines): the reader's inverse, for round trips and hand-offs. */
export function connLogText(records: readonly ConnectionRecord[], form: ZeekForm): string {
  const values = (r: ConnectionRecord): Record<(typeof WRITE_FIELDS)[number], string | number | undefined> => ({
    ts: r.startTs,
    uid: r.uid,
    'id.orig_h': r.origH,
    'id.orig_p': r.origP,
    'id.resp_h': r.respH,
    'id.resp_p': r.respP,
    proto: r.proto === 'other' ? 'unknown_transport' : r.proto,
    service: r.service.length > 0 ? r.service.join(',') : undefined,
    duration: r.duration > 0 || r.orig.packets + r.resp.packets > 1 ? r.duration : undefined,
    orig_bytes: r.orig.bytes,
    resp_bytes: r.resp.bytes,
    conn_state: r.connState,
    missed_bytes: 0,
    history: r.history === '' ? undefined : r.history,
    orig_pkts: r.orig.packets,
    orig_ip_bytes: r.orig.ipBytes,
    resp_pkts: r.resp.packets,
    resp_ip_bytes: r.resp.ipBytes,
    ip_proto: r.ipProto,
  });
  if (form === 'json') {
    return records
      .map((r) => {
        const v = values(r);
        return `${JSON.stringify(Object.fromEntries(WRITE_FIELDS.flatMap((f) => (v[f] === undefined ? [] : [[f, v[f]]]))))}\n`;
      })
      .join('');
  }
  // Zeek escapes the separator and non-printable bytes as \xHH; the values written here are addresses, numbers and names.
  const cell = (x: string | number | undefined, field: string): string => (x === undefined ? '-' : typeof x === 'number' ? (field === 'ts' || field === 'duration' ? x.toFixed(6) : String(x)) : escapeZeek(x));
  const head = ['#separator \\x09', '#set_separator\t,', '#empty_field\t(empty)', '#unset_field\t-', '#path\tconn', `#fields\t${WRITE_FIELDS.join('\t')}`];
  const rows = records.map((r) => {
    const v = values(r);
    return WRITE_FIELDS.map((f) => cell(v[f], f)).join('\t');
  });
  return `${[...head, ...rows].join('\n')}\n`;
}
