// Fuzz targets of replay's parsers (tools/fuzz/fuzz.ts): the whole ingest the HTTP and command-line paths run
// (capture or conn.log bytes -> connections, application records, alerts, stories and their exports), the capture
// reader alone (read whole and in small chunks, which must agree), and each application-layer reader on its own, on
// payloads taken from the corpus captures.
import { existsSync, readFileSync } from 'node:fs';
import { concatBytes } from '../../../engines/core/archive/build.fixture.js';
import { VitrineError } from '../../../engines/core/errors.js';
import { analyzeBytes } from '../../../engines/replay/analyze.js';
import { analysisSchema } from '../../../engines/replay/schemas.js';
import { isFlowTable } from '../../../engines/replay/browse/overview.js';
import { storyToCypher } from '../../../engines/replay/export/cypher.js';
import { storyToMermaid } from '../../../engines/replay/export/mermaid.js';
import { storyToStix } from '../../../engines/replay/export/stix.js';
import { generateIntrusion } from '../../../engines/replay/intrusion.js';
import { PcapngBuilder } from '../../../engines/replay/capture/writer.js';
import { parseIndicators } from '../../../engines/replay/indicators.js';
import { DecodedPacket, PacketDecoder } from '../../../engines/replay/capture/decode.js';
import { CaptureReader } from '../../../engines/replay/capture/reader.js';
import { analyzeCaptureBytes } from '../../../engines/replay/capture/analyze.js';
import { analyzeConnLogBytes, connLogText } from '../../../engines/replay/capture/zeek.js';
import { MAX_TIME_SEC, MIN_TIME_SEC } from '../../../engines/replay/capture/timestamps.js';
import { feedBytes } from '../../../engines/replay/capture/source.js';
import { WARNING_MESSAGES, WarningCounter } from '../../../engines/replay/capture/warnings.js';
import { dnsRecord } from '../../../engines/replay/capture/app/dns.js';
import { TlsStreamReader, type TlsEvent } from '../../../engines/replay/capture/app/tls.js';
import { HttpConnection, type HttpTransaction } from '../../../engines/replay/capture/app/http.js';
import { FtpConnection } from '../../../engines/replay/capture/app/ftp.js';
import { RdpConnection, RfbConnection, SmbConnection, SshConnection } from '../../../engines/replay/capture/app/banners.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { FuzzTarget } from '../fuzz.js';

// ---- seeds

const CAPTURES = [
  'get.pcap',
  'ecdhe.pcap',
  'vnc-scanner.pcap',
  'pcapng-multi-interface.pcapng',
  'cooper-grill-dvwa.pcapng',
  'wikipedia.pcap',
  'dns-edns-ecs.pcap',
  'nmap-vsn.pcap',
  'ftp-bruteforce.pcap',
  'sshguess.pcap',
];
const CONN_LOGS = [
  ['wikipedia', 'conn.log'],
  ['pcapng-multi-interface', 'conn.log'],
] as const;
/** The ingest reads a conn.log too; replay-connlog takes both, the whole ingest the first. */
const INGEST_CONN_LOGS = 1;

let captureCache: Uint8Array[] | undefined;
/**
 * The corpus captures (all under 100 KiB), then the synthetic intrusion without background (SMB, RDP, WinRM, DNS
 * tunnelling) written as pcapng: a story whose packet times are 64-bit units, where a mutated time can reach the
 * exports.
 */
function captures(): Uint8Array[] {
  if (captureCache !== undefined) return captureCache;
  const out: Uint8Array[] = [];
  if (hasCorpora()) for (const name of CAPTURES) if (existsSync(corpusPath('pcap', name))) out.push(new Uint8Array(readFileSync(corpusPath('pcap', name))));
  const ng = new PcapngBuilder().section().interface();
  for (const p of generateIntrusion({ benign: 0, seed: 7 }).packets) ng.epb(p);
  out.push(ng.result());
  captureCache = out;
  return out;
}

function connLogs(): Uint8Array[] {
  if (!hasCorpora()) return [];
  return CONN_LOGS.map((p) => corpusPath('pcap', 'zeek-baselines', ...p))
    .filter((f) => existsSync(f))
    .map((f) => new Uint8Array(readFileSync(f)));
}

/** One TCP conversation's payload segments in capture order, and the UDP payloads seen, keyed by the service port. */
interface Payloads {
  readonly tcp: Map<number, Uint8Array[]>;
  readonly udp: Map<number, Uint8Array[]>;
}

const SERVICE_PORTS = new Set([21, 22, 53, 80, 139, 443, 445, 3389, 5353, 5355, 137, 5900, 5985, 8080]);
/** Bytes of one stream seed at most: the readers look at the first messages only. */
const MAX_STREAM_SEED = 48 * 1024;

let payloadCache: Payloads | undefined;
/**
 * Application payloads of the seed captures, cut out with the capture reader and decoder: per TCP conversation a
 * framed stream (below), per UDP datagram its payload. Retransmissions are kept as the capture has them.
 */
function payloads(): Payloads {
  if (payloadCache !== undefined) return payloadCache;
  const tcp = new Map<number, Uint8Array[]>();
  const udp = new Map<number, Uint8Array[]>();
  for (const bytes of captures()) {
    const warnings = new WarningCounter();
    const decoder = new PacketDecoder(warnings);
    const d = new DecodedPacket();
    const convs = new Map<string, { port: number; client: string; frames: Uint8Array[]; size: number }>();
    const reader = new CaptureReader(warnings, (raw) => {
      if (decoder.decode(raw, d) !== 'transport' || d.fragment || d.payloadLength === 0) return;
      const src = d.ipVersion === 4 ? String(d.srcV4) : d.srcV6;
      const dst = d.ipVersion === 4 ? String(d.dstV4) : d.dstV6;
      const port = SERVICE_PORTS.has(d.dport) ? d.dport : SERVICE_PORTS.has(d.sport) ? d.sport : 0;
      if (port === 0) return;
      const payload = d.buf.slice(d.payloadOffset, d.payloadOffset + d.payloadLength);
      if (d.ipProto === 17) {
        const list = udp.get(port) ?? [];
        if (list.length < 40) list.push(payload);
        udp.set(port, list);
        return;
      }
      if (d.ipProto !== 6) return;
      const client = d.dport === port ? `${src}:${d.sport}` : `${dst}:${d.dport}`;
      const key = `${client}>${d.dport === port ? dst : src}:${port}`;
      let conv = convs.get(key);
      if (conv === undefined) convs.set(key, (conv = { port, client, frames: [], size: 0 }));
      if (conv.size + payload.length + 3 > MAX_STREAM_SEED) return;
      conv.frames.push(frame(`${src}:${d.sport}` === client, payload));
      conv.size += payload.length + 3;
    });
    feedBytes(reader, bytes);
    for (const conv of convs.values()) {
      const list = tcp.get(conv.port) ?? [];
      list.push(concatBytes(conv.frames));
      tcp.set(conv.port, list);
    }
  }
  payloadCache = { tcp, udp };
  return payloadCache;
}

/** The first `n` streams of the given service ports, largest first (the most messages), distinct. */
function streams(ports: readonly number[], n: number): Uint8Array[] {
  const all = ports.flatMap((p) => payloads().tcp.get(p) ?? []);
  return all.sort((a, b) => b.length - a.length).slice(0, n);
}

/**
 * A stream input is a run of frames: one byte (bit 0 set for the originator's side), a 16-bit big-endian length,
 * then that many bytes. A length past the end takes what is left, so every mutation still reads as frames.
 */
function frame(isOrig: boolean, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(3 + payload.length);
  out[0] = isOrig ? 1 : 0;
  out[1] = payload.length >> 8;
  out[2] = payload.length & 0xff;
  out.set(payload, 3);
  return out;
}

function* frames(input: Uint8Array): Generator<{ isOrig: boolean; bytes: Uint8Array }> {
  let pos = 0;
  while (pos + 3 <= input.length) {
    const len = (input[pos + 1]! << 8) | input[pos + 2]!;
    const end = Math.min(input.length, pos + 3 + len);
    yield { isOrig: (input[pos]! & 1) === 1, bytes: input.subarray(pos + 3, end) };
    pos = end;
  }
}


// ---- checks

/**
 * What JSON cannot carry faithfully or a caller would not expect: a BigInt, a NaN or infinite number, a function, a
 * string over `maxString`, an array over `maxArray`, nesting deeper than 32 (a cycle shows as depth). Undefined when none.
 */
export function valueProblem(value: unknown, maxString: number, maxArray: number, where = '$', depth = 0): string | undefined {
  if (depth > 32) return `nesting deeper than 32 at ${where}`;
  switch (typeof value) {
    case 'bigint':
      return `a BigInt at ${where}`;
    case 'function':
    case 'symbol':
      return `a ${typeof value} at ${where}`;
    case 'number':
      return Number.isFinite(value) ? undefined : `a non-finite number at ${where}`;
    case 'string':
      return value.length > maxString ? `a string of more than ${maxString} characters at ${where}` : undefined;
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        if (value.length > maxArray) return `an array of more than ${maxArray} items at ${where}`;
        for (let i = 0; i < value.length; i++) {
          const p = valueProblem(value[i], maxString, maxArray, `${where}[]`, depth + 1);
          if (p !== undefined) return p;
        }
        return undefined;
      }
      if (ArrayBuffer.isView(value)) return `bytes at ${where}`;
      for (const [k, v] of Object.entries(value)) {
        const p = valueProblem(v, maxString, maxArray, `${where}.${k}`, depth + 1);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Every warning carries its fixed message (never text from the input) and the count adds up. */
function warningsProblem(list: readonly { code: string; message: string; count: number }[], total: number): string | undefined {
  for (const w of list) if (WARNING_MESSAGES[w.code as keyof typeof WARNING_MESSAGES] !== w.message) return `warning ${w.code} without its fixed message`;
  const sum = list.reduce((n, w) => n + w.count, 0);
  return sum === total ? undefined : 'the warning count differs from the sum of the warnings';
}

// ---- targets

/** One indicator of each kind, so the indicator matching runs too (documentation addresses, a reserved name). */
const INDICATORS = parseIndicators(['ip 192.0.2.10', 'cidr 198.51.100.0/24', 'domain example.com', 'ja3 00000000000000000000000000000000'].join('\n'));

const captureTarget: FuzzTarget = {
  name: 'replay-capture',
  about: 'the whole ingest: pcap/pcapng/conn.log bytes -> connections, application records, alerts, stories and their STIX, Mermaid and Cypher exports',
  seeds: () => [...captures(), ...connLogs().slice(0, INGEST_CONN_LOGS)],
  run: (input) => {
    const analysis = analyzeBytes(input, { id: '00000000-0000-4000-8000-000000000000', now: new Date(0), name: 'fuzz', source: 'upload', indicators: INDICATORS, flowTable: true });
    // The story exports the routes serve, for the first stories (each is built from the story alone).
    const exports = analysis.stories.slice(0, 4).map((s) => ({ stix: storyToStix(s), mermaid: storyToMermaid(s), cypher: storyToCypher(s) }));
    return { analysis, exports };
  },
  // A capture that cannot be read is a parse_error; anything else thrown (an export refusing what the analysis
  // made, say) is a finding.
  refused: (e) => e instanceof VitrineError && e.code === 'parse_error',
  check: (result) => {
    const { analysis, exports } = result as { analysis: ReturnType<typeof analyzeBytes>; exports: unknown[] };
    // The job's result is checked against the schema before it is stored: an analysis that fails it is lost.
    const parsed = analysisSchema.safeParse(analysis);
    if (!parsed.success) return `the analysis fails its schema at ${parsed.error.issues[0]?.path.join('.') ?? '?'}: ${parsed.error.issues[0]?.code ?? ''}`;
    if (analysis.flow_table !== undefined && !isFlowTable(analysis.flow_table)) return 'the flow table rows fail their check';
    if (analysis.alerts.length > 10_000) return 'more than 10,000 alerts';
    const w = warningsProblem(
      analysis.capture.warnings.map((x) => ({ ...x })),
      analysis.capture.warning_count,
    );
    if (w !== undefined) return w;
    return valueProblem(analysis, 70_000, 500_000) ?? valueProblem(exports, 1_000_000, 100_000);
  },
};

/** The packets a reader emits and its warnings, fed `input` in chunks of `chunk` bytes. */
function readAll(input: Uint8Array, chunk: number): { packets: number; bytes: number; first: number; last: number; warnings: string } {
  const warnings = new WarningCounter();
  let packets = 0;
  let bytes = 0;
  let first = -1;
  let last = -1;
  const reader = new CaptureReader(warnings, (p) => {
    packets += 1;
    bytes += p.capturedLength;
    if (first < 0) first = p.offset;
    last = p.offset;
    if (p.data.length !== p.capturedLength) throw new Error('a packet view differs from its captured length');
  });
  feedBytes(reader, input, { chunkBytes: chunk });
  return { packets, bytes, first, last, warnings: JSON.stringify(warnings.list()) };
}

const readerTarget: FuzzTarget = {
  name: 'replay-reader',
  about: 'the pcap/pcapng reader alone, fed whole and in 61-byte chunks: the same packets and warnings both ways',
  seeds: () => captures().slice(0, 8),
  run: (input) => ({ whole: readAll(input, input.length), chunked: readAll(input, 61) }),
  check: (result) => {
    const { whole, chunked } = result as { whole: ReturnType<typeof readAll>; chunked: ReturnType<typeof readAll> };
    return JSON.stringify(whole) === JSON.stringify(chunked) ? undefined : 'reading in chunks gives other packets or warnings than reading whole';
  },
};

const dnsTarget: FuzzTarget = {
  name: 'replay-dns',
  about: 'one DNS message (questions, answers, EDNS, name compression) as the UDP and TCP paths hand it over',
  seeds: () => [53, 5353, 5355, 137].flatMap((p) => payloads().udp.get(p) ?? []).slice(0, 12),
  run: (input) => dnsRecord(input, 'Cfuzz', 1, 0, 'udp', 53),
  check: (result) => (typeof result === 'string' ? (result === 'dns_malformed' || result === 'dns_compression_loop' ? undefined : `an unknown DNS error ${result}`) : valueProblem(result, 70_000, 1024)),
};

const tlsTarget: FuzzTarget = {
  name: 'replay-tls',
  about: 'TLS records and handshakes of both directions (ClientHello with JA3/JA4, ServerHello) from framed stream bytes',
  seeds: () => streams([443], 6),
  run: (input) => {
    const events: TlsEvent[] = [];
    const sink = { tlsEvent: (e: TlsEvent): void => void events.push(e) };
    const readers = [new TlsStreamReader(sink), new TlsStreamReader(sink)] as const;
    for (const f of frames(input)) readers[f.isOrig ? 0 : 1].data(f.bytes, 0, f.bytes.length);
    return events;
  },
  check: (result) => {
    const events = result as TlsEvent[];
    if (events.length > 2) return 'more than one event per direction';
    return valueProblem(events, 70_000, 70_000);
  },
};

const httpTarget: FuzzTarget = {
  name: 'replay-http',
  about: 'HTTP/1 requests and replies of one connection (heads, chunked bodies, pipelining) from framed stream bytes',
  seeds: () => streams([80, 8080], 8),
  run: (input) => {
    const out: HttpTransaction[] = [];
    const http = new HttpConnection('Cfuzz', false, (t) => out.push(t));
    let malformed = 0;
    let n = 0;
    for (const f of frames(input)) {
      http.data(f.isOrig, f.bytes, 0, f.bytes.length, 1 + n, n);
      n += 1;
      if (http.malformed) {
        malformed += 1;
        http.malformed = false;
      }
    }
    http.close();
    return { transactions: out, malformed };
  },
  check: (result, input) => {
    const { transactions } = result as { transactions: HttpTransaction[] };
    // A transaction needs at least a request line or a status line: a few bytes each.
    if (transactions.length > input.length / 4 + 2) return 'more HTTP transactions than the input can hold';
    return valueProblem(result, 70_000, 100_000);
  },
};

const ftpTarget: FuzzTarget = {
  name: 'replay-ftp',
  about: 'an FTP control connection (commands, replies, logins) from framed stream bytes',
  seeds: () => streams([21], 6),
  run: (input) => {
    const ftp = new FtpConnection('Cfuzz', 1, false);
    let n = 0;
    for (const f of frames(input)) ftp.data(f.isOrig, f.bytes, 1 + n, n++);
    return ftp.result();
  },
  check: (result) => valueProblem(result, 70_000, 1_000),
};

const bannersTarget: FuzzTarget = {
  name: 'replay-banners',
  about: 'the SSH, RFB (VNC), SMB and RDP openings, each reader fed the same framed stream bytes',
  seeds: () => [...streams([22], 3), ...streams([5900], 2), ...streams([445, 139], 2), ...streams([3389], 2), ...streams([5985], 1)],
  run: (input) => {
    const ssh = new SshConnection('Cfuzz');
    const rfb = new RfbConnection('Cfuzz', 1);
    const smb = new SmbConnection('Cfuzz', 1);
    const rdp = new RdpConnection('Cfuzz', 1);
    let n = 0;
    for (const f of frames(input)) {
      ssh.data(f.isOrig, f.bytes, 1 + n, n);
      rfb.data(f.isOrig, f.bytes);
      smb.data(f.isOrig, f.bytes);
      rdp.data(f.isOrig, f.bytes);
      n += 1;
    }
    return { ssh: ssh.result(), rfb: rfb.result(), smb: smb.result(false), rdp: rdp.result(false) };
  },
  check: (result) => valueProblem(result, 4_096, 1_000),
};

const connLogTarget: FuzzTarget = {
  name: 'replay-connlog',
  about: 'a Zeek conn.log, TSV or JSON lines, read into connection records as the ingest reads it',
  seeds: () => {
    // Zeek's own logs, and the corpus captures' connections written as conn.log in both forms (the first 200 rows).
    const written = captures()
      .slice(4, 10)
      .flatMap((bytes, i) => {
        const records = analyzeCaptureBytes(bytes, { application: false }).connections.slice(0, 200);
        return [new TextEncoder().encode(connLogText(records, i % 2 === 0 ? 'tsv' : 'json'))];
      });
    return [...connLogs(), ...written];
  },
  run: (input) => analyzeConnLogBytes(input),
  refused: (e) => e instanceof VitrineError && e.code === 'parse_error',
  check: (result) => {
    const r = result as ReturnType<typeof analyzeConnLogBytes>;
    // Every time must be one a date (and so every export) can write.
    if (r.connections.some((c) => !(c.startTs >= MIN_TIME_SEC && c.lastTs < MAX_TIME_SEC))) return 'a connection time past what a date can hold';
    return warningsProblem(r.warnings, r.warningCount) ?? valueProblem({ connections: r.connections, packets: r.packets, firstTs: r.firstTs, lastTs: r.lastTs }, 70_000, 5_000_000);
  },
};

export const TARGETS: readonly FuzzTarget[] = [captureTarget, readerTarget, connLogTarget, dnsTarget, tlsTarget, httpTarget, ftpTarget, bannersTarget];
