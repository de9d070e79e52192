// Application metadata against Zeek's logs (always) and tshark's dissectors (when installed), plus crafted edge cases.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCaptureBytes, analyzeCaptureFile, type CaptureAnalysis } from '../analyze.js';
import { ascii, concat, TCP_ACK, TCP_PSH, TCP_SYN, tcpFrame, udpFrame } from '../craft.js';
import { corpusFile, pcapCorpusAvailable, tshark, zeekBaseline, zeekLog } from '../capture.fixture.js';
import { skipWithout } from '../../../../test/oracles.js';
import { writePcap, type PacketToWrite } from '../writer.js';
import { dnsRecord, parseDns } from './dns.js';
import { REQUEST_LINE, requestLine, RESPONSE_LINE, responseLine } from './http.js';
import { latin1Range, latin1Token } from './lines.js';
import { isGrease, ja4, parseClientHello } from './tls.js';

const corpus = pcapCorpusAvailable();
/** tshark is an oracle: without it its tests skip locally and fail under VITRINE_REQUIRE_ORACLES=1 (test/oracles.ts). */
const tsharkSkips = skipWithout('tshark');

describe.skipIf(!corpus)('DNS', () => {
  it('EDNS client-subnet options equal Zeek dns_EDNS_ecs events (dns-edns-ecs output)', async () => {
    const r = await analyzeCaptureFile(corpusFile('dns-edns-ecs.pcap'));
    const ours = r.app.dns
      .sort((a, b) => a.packet - b.packet)
      .flatMap((m) => m.edns?.clientSubnets ?? [])
      .map((s) => `[family=${String(s.family)}, source_prefix_len=${s.sourcePrefixLength}, scope_prefix_len=${s.scopePrefixLength}, address=${s.address}]`);
    const zeek = zeekBaseline('dns-edns-ecs', 'output').split('\n').filter((l) => l.startsWith('['));
    expect(ours).toEqual(zeek);
    expect(r.warningCount).toBe(0);
  });

  it.skipIf(tsharkSkips)('queries and answers equal tshark frame by frame (name, type, answer count) on every capture with DNS', async () => {
    expect.hasAssertions();
    for (const name of ['wikipedia.pcap', 'dns-edns-ecs.pcap', 'pcapng-multi-interface.pcapng', 'nmap-vsn.pcap']) {
      // tshark calls multicast DNS and LLMNR mdns and llmnr but fills the same dns.* fields.
      const out = await tshark(['-r', corpusFile(name), '-Y', 'dns || mdns || llmnr', '-T', 'fields', '-E', 'separator=;', '-e', 'frame.number', '-e', 'dns.flags.response', '-e', 'dns.qry.name', '-e', 'dns.qry.type', '-e', 'dns.count.answers']);
      const theirs = out
        .trim()
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => l.split(';'))
        .map((f) => [Number(f[0]) - 1, f[1] === '1' || f[1] === 'True', f[2], Number((f[3] ?? '').split(',')[0]), Number(f[4])]);
      const r = await analyzeCaptureFile(corpusFile(name));
      // tshark reads port 137 as NetBIOS, not DNS; we read it as DNS, as Zeek does.
      const ours = r.app.dns
        .filter((m) => m.port !== 137)
        .sort((a, b) => a.packet - b.packet)
        .map((m) => [m.packet, m.response, m.questions[0]?.name ?? '', m.questions[0]?.type ?? 0, m.answers.length]);
      expect(ours, name).toEqual(theirs);
    }
  });

  it('every wikipedia DNS connection that Zeek marks dns has DNS messages', async () => {
    const r = await analyzeCaptureFile(corpusFile('wikipedia.pcap'));
    const withDns = new Set(r.app.dns.map((m) => m.uid));
    const zeekDns = zeekLog('wikipedia', 'conn.log').length; // bare mode: no services; the select view has them
    expect(zeekDns).toBe(34);
    const dnsConns = r.connections.filter((c) => c.service.includes('dns'));
    expect(dnsConns).toHaveLength(24);
    for (const c of dnsConns) expect(withDns.has(c.uid)).toBe(true);
  });
});

describe('DNS parser on hostile input', () => {
  const header = Uint8Array.of(0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0);
  it('stops a compression pointer loop and a forward pointer with a counted error, never a hang', () => {
    // Question name at 12 is a pointer to itself.
    expect(parseDns(concat(header, Uint8Array.of(0xc0, 12, 0, 1, 0, 1)))).toEqual({ ok: false, error: 'dns_compression_loop' });
    // Two labels whose pointers bounce between each other.
    const bounce = concat(header, Uint8Array.of(1, 0x61, 0xc0, 16, 1, 0x62, 0xc0, 12, 0, 1, 0, 1));
    expect(parseDns(bounce)).toEqual({ ok: false, error: 'dns_compression_loop' });
    // Label types 01 and 10 are reserved.
    expect(parseDns(concat(header, Uint8Array.of(0x41, 0, 0, 1, 0, 1)))).toEqual({ ok: false, error: 'dns_malformed' });
    expect(parseDns(header.subarray(0, 11))).toEqual({ ok: false, error: 'dns_malformed' });
  });

  it('reads a compressed answer, escapes unprintable label bytes and limits names to 255 bytes', () => {
    const q = concat(Uint8Array.of(3, 0x77, 0x77, 0x77, 2, 0x61, 0x0a, 0), Uint8Array.of(0, 1, 0, 1));
    const ans = Uint8Array.of(0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 30, 0, 4, 10, 0, 0, 9);
    const msg = concat(Uint8Array.of(0, 1, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0), q, ans);
    const r = parseDns(msg);
    expect(r.ok && r.message.questions[0]?.name).toBe('www.a\\010');
    expect(r.ok && r.message.answers[0]).toEqual({ name: 'www.a\\010', type: 1, typeName: 'A', ttl: 30, data: '10.0.0.9' });
    const long = concat(header, ...Array.from({ length: 5 }, () => Uint8Array.of(63, ...new Uint8Array(63).fill(0x61))), Uint8Array.of(0, 0, 1, 0, 1));
    expect(parseDns(long)).toEqual({ ok: false, error: 'dns_malformed' });
  });

  it('gives every name and address its own text through repeats and cache collisions, the record the message with its place', () => {
    let seed = 3;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    // Names of one or two labels over a small alphabet (so some repeat) and addresses over every byte value.
    const alphabet = [0x61, 0x62, 0x2e, 0x00, 0x7f];
    const label = (): number[] => Array.from({ length: 1 + (next() % 4) }, () => alphabet[next() % alphabet.length]!);
    const text = (l: number[]): string => l.map((c) => (c > 0x20 && c < 0x7f && c !== 0x2e ? String.fromCharCode(c) : `\\${String(c).padStart(3, '0')}`)).join('');
    let checked = 0;
    for (let i = 0; i < 12000; i++) {
      const labels = next() % 2 === 0 ? [label()] : [label(), label()];
      const addr = [next() & 0xff, next() & 0xff, next() & 0xff, next() & 0xff];
      const name = labels.flatMap((l) => [l.length, ...l]);
      const msg = Uint8Array.of(0, 7, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0, ...name, 0, 0, 1, 0, 1, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 9, 0, 4, ...addr);
      const r = parseDns(msg);
      const expected = labels.map(text).join('.');
      expect(r.ok && r.message.questions[0]?.name).toBe(expected);
      expect(r.ok && r.message.answers[0]).toEqual({ name: expected, type: 1, typeName: 'A', ttl: 9, data: addr.join('.') });
      if (r.ok) expect(dnsRecord(msg, 'C1', 5, 6, 'udp', 53)).toEqual({ uid: 'C1', ts: 5, packet: 6, transport: 'udp', port: 53, ...r.message });
      checked += 1;
    }
    expect(checked).toBe(12000);
    expect(dnsRecord(header.subarray(0, 11), 'C1', 0, 0, 'udp', 53)).toBe('dns_malformed');
  });

  it('shares equal questions, answers and one-item sections between messages, frozen, and never a different one', () => {
    let seed = 9;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const u16 = (v: number): number[] => [v >> 8, v & 0xff];
    let shared = 0;
    for (let i = 0; i < 20000; i++) {
      // Few names, types, classes, TTLs and addresses, so equal records repeat and different ones meet in a slot.
      const label = [0x61 + (next() % 3), 0x61 + (next() % 26)];
      const type = [1, 28, 5, 1][next() % 4]!;
      const qclass = next() % 5 === 0 ? 0x8001 : 1;
      const ttl = next() % 1000;
      const answers = next() % 3;
      const qd = next() % 7 === 0 ? 2 : 1;
      const question = [label.length, ...label, 0, ...u16(type), ...u16(qclass)];
      const records: number[] = [];
      const want: Array<{ name: string; type: number; typeName: string; ttl: number; data: string }> = [];
      for (let a = 0; a < answers; a++) {
        const addr = [10, 0, next() % 3, a];
        records.push(0xc0, 12, 0, 1, 0, 1, 0, 0, ...u16(ttl), 0, 4, ...addr);
        want.push({ name: String.fromCharCode(...label), type: 1, typeName: 'A', ttl, data: addr.join('.') });
      }
      const msg = Uint8Array.of(0, 7, 0x81, 0x80, 0, qd, 0, answers, 0, 0, 0, 0, ...question, ...(qd === 2 ? question : []), ...records);
      const r = parseDns(msg);
      const q = { name: String.fromCharCode(...label), type, typeName: type === 1 ? 'A' : type === 28 ? 'AAAA' : 'CNAME', qclass };
      expect(r.ok && r.message.questions).toEqual(qd === 2 ? [q, q] : [q]);
      expect(r.ok && r.message.answers).toEqual(want);
      if (!r.ok) continue;
      // Shared parts are frozen; a section of two or more is the message's own list.
      expect([Object.isFrozen(r.message.questions[0]), Object.isFrozen(r.message.answers[0] ?? {}), Object.isFrozen(r.message.answers)]).toEqual([true, answers > 0, answers <= 1]);
      // The same message again gives the same shared question and one-item lists.
      const again = parseDns(msg);
      if (again.ok && qd === 1) {
        expect(again.message.questions).toBe(r.message.questions);
        if (answers <= 1) expect(again.message.answers).toBe(r.message.answers);
        shared += 1;
      }
    }
    expect(shared).toBeGreaterThan(10000);
  });
});

const HTTP_SELECT = ['ts', 'uid', 'orig_h', 'orig_p', 'resp_h', 'resp_p', 'trans_depth', 'method', 'host', 'uri', 'referrer', 'version', 'user_agent', 'origin', 'request_body_len', 'response_body_len', 'status_code', 'status_msg'];

describe.skipIf(!corpus)('HTTP', () => {
  it('wikipedia: the 14 requests of Zeek http.select, field by field; the one midstream request Zeek does not analyse is flagged', async () => {
    const r = await analyzeCaptureFile(corpusFile('wikipedia.pcap'));
    const conns = new Map(r.connections.map((c) => [c.uid, c]));
    const rows = zeekBaseline('wikipedia', 'http.select')
      .split('\n')
      .filter((l) => l.length > 0 && !l.startsWith('#'))
      .map((l) => Object.fromEntries(l.split('|').map((v, i) => [HTTP_SELECT[i] ?? `f${i}`, v])));
    const complete = r.app.http.filter((t) => !t.midstream);
    expect(complete).toHaveLength(rows.length);
    for (const row of rows) {
      const t = complete.find((x) => conns.get(x.uid)?.origP === Number(row['orig_p']) && x.depth === Number(row['trans_depth']));
      expect(t, `${row['orig_p']} #${row['trans_depth']}`).toBeDefined();
      // Zeek's version column is the reply's version.
      expect([t?.method, t?.host, t?.uri, t?.referrer, t?.responseVersion, t?.userAgent]).toEqual([row['method'], row['host'], row['uri'], row['referrer'], row['version'], row['user_agent']]);
      expect([t?.requestBodyLength, t?.responseBodyLength, t?.statusCode, t?.statusMessage]).toEqual([
        Number(row['request_body_len']),
        Number(row['response_body_len']),
        Number(row['status_code']),
        row['status_msg'],
      ]);
    }
    const midstream = r.app.http.filter((t) => t.midstream);
    expect(midstream.map((t) => [t.method, t.host, t.uri, t.statusCode])).toEqual([['GET', 'www.wikipedia.org', '/', 304]]);
  });

  it('get.pcap: the URL Zeek builds (host and URI); cooper-grill-dvwa: the SQL injection requests of http.log.cut', async () => {
    // The btest builds the URL from the responder address (it exercises build_url without a Host); the Host header is bro.org.
    const get = await analyzeCaptureFile(corpusFile('get.pcap'));
    const server = get.connections[0]?.respH;
    expect(get.app.http.map((t) => [t.host, `${server}${t.uri}`])).toEqual([['bro.org', '192.150.187.43/download/CHANGES.bro-aux.txt']]);
    expect(zeekBaseline('get', 'output')).toContain(`Have: ${server}${get.app.http[0]?.uri} `);
    const dvwa = await analyzeCaptureFile(corpusFile('cooper-grill-dvwa.pcapng'));
    const cut = zeekBaseline('cooper-grill-dvwa', 'http.log.cut')
      .split('\n')
      .filter((l) => l.length > 0 && !l.startsWith('#') && !l.startsWith('uid'))
      .map((l) => l.split('\t'));
    // Zeek logs the URI with %XX escapes decoded; we keep the URI as sent.
    const unescape = (u: string): string => u.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const ours = dvwa.app.http.map((t) => [t.method, t.host, unescape(t.uri)]);
    for (const [, method, host, uri] of cut) expect(ours).toContainEqual([method, host, uri]);
  });

  it.skipIf(tsharkSkips)('request counts equal tshark http.request on the HTTP captures', async () => {
    expect.hasAssertions();
    for (const name of ['wikipedia.pcap', 'get.pcap', 'cooper-grill-dvwa.pcapng']) {
      const out = await tshark(['-r', corpusFile(name), '-Y', 'http.request', '-T', 'fields', '-e', 'http.request.method', '-e', 'http.request.uri']);
      const theirs = out.trim().split('\n').filter((l) => l.length > 0).map((l) => l.split('\t').join(' ')).sort();
      const r = await analyzeCaptureFile(corpusFile(name));
      expect(r.app.http.map((t) => `${t.method} ${t.uri}`).sort(), name).toEqual(theirs);
    }
  });
});

const A = '10.1.1.1';
const B = '10.1.1.2';

/** A TCP conversation: handshake, then each [fromClient, bytes] segment acknowledged implicitly by sequence numbers. */
function conversation(port: number, segments: Array<[boolean, Uint8Array]>, gapAfter = -1): Uint8Array {
  let cs = 1000;
  let ss = 5000;
  const frames: PacketToWrite[] = [];
  let t = 1_700_000_000;
  const push = (data: Uint8Array): void => {
    t += 0.001;
    frames.push({ tsSec: Math.floor(t), tsNsec: Math.round((t % 1) * 1e9), data });
  };
  push(tcpFrame(A, B, { sport: 50000, dport: port, seq: cs, flags: TCP_SYN }));
  push(tcpFrame(B, A, { sport: port, dport: 50000, seq: ss, ack: cs + 1, flags: TCP_SYN | TCP_ACK }));
  cs += 1;
  ss += 1;
  push(tcpFrame(A, B, { sport: 50000, dport: port, seq: cs, ack: ss, flags: TCP_ACK }));
  segments.forEach(([fromClient, bytes], i) => {
    const skip = i === gapAfter;
    if (fromClient) {
      if (!skip) push(tcpFrame(A, B, { sport: 50000, dport: port, seq: cs, ack: ss, flags: TCP_ACK | TCP_PSH }, bytes));
      cs += bytes.length;
    } else {
      if (!skip) push(tcpFrame(B, A, { sport: port, dport: 50000, seq: ss, ack: cs, flags: TCP_ACK | TCP_PSH }, bytes));
      ss += bytes.length;
    }
  });
  return writePcap(frames);
}

/** A TLS 1.2 ServerHello record: version, random, no session id, cipher 0xc02f, no compression, no extensions. */
const SERVER_HELLO = ((): Uint8Array => {
  const body = [3, 3, ...new Array<number>(32).fill(9), 0, 0xc0, 0x2f, 0];
  const hs = [2, 0, 0, body.length, ...body];
  return Uint8Array.from([22, 3, 3, 0, hs.length, ...hs]);
})();

describe('per-connection state reused after a connection closes', () => {
  /**
   * One TCP session's frames from `clientPort` at `t0`; `order` sends the data segments in that order (early ones are
   * held); `midstream` leaves out the handshake, as a capture started during the connection sees it.
   */
  const session = (clientPort: number, port: number, segments: Array<[boolean, Uint8Array]>, t0: number, order?: number[], midstream = false): PacketToWrite[] => {
    let cs = 1000;
    let ss = 5000;
    let t = t0;
    const frames: PacketToWrite[] = [];
    const push = (data: Uint8Array): void => {
      t += 0.001;
      frames.push({ tsSec: Math.floor(t), tsNsec: Math.round((t % 1) * 1e9), data });
    };
    if (!midstream) {
      push(tcpFrame(A, B, { sport: clientPort, dport: port, seq: cs, flags: TCP_SYN }));
      push(tcpFrame(B, A, { sport: port, dport: clientPort, seq: ss, ack: cs + 1, flags: TCP_SYN | TCP_ACK }));
      push(tcpFrame(A, B, { sport: clientPort, dport: port, seq: cs + 1, ack: ss + 1, flags: TCP_ACK }));
    }
    cs += 1;
    ss += 1;
    const data = segments.map(([fromClient, bytes]) => {
      const frame = fromClient
        ? tcpFrame(A, B, { sport: clientPort, dport: port, seq: cs, ack: ss, flags: TCP_ACK | TCP_PSH }, bytes)
        : tcpFrame(B, A, { sport: port, dport: clientPort, seq: ss, ack: cs, flags: TCP_ACK | TCP_PSH }, bytes);
      if (fromClient) cs += bytes.length;
      else ss += bytes.length;
      return frame;
    });
    for (const i of order ?? data.map((_, i) => i)) push(data[i]!);
    return frames;
  };
  // Connections that end with something held: a cut header line, a request without its reply, a chunked body, a cut
  // TLS record, a segment waiting for a hole, a connection of no protocol read.
  const dirty: Array<[number, Array<[boolean, Uint8Array]>, (number[] | undefined)?, boolean?]> = [
    [80, [[true, ascii('GET /cut HTTP/1.1\r\nHost: dirty.example\r\nUser-Ag')]]],
    [80, [[true, ascii('POST /wait HTTP/1.1\r\nHost: dirty.example\r\nContent-Length: 10\r\n\r\n12345')]]],
    [80, [[true, ascii('GET /c HTTP/1.1\r\nHost: d\r\n\r\n')], [false, ascii('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab')]]],
    [443, [[true, tlsRecord(specHello('dirty.example')).subarray(0, 40)]]],
    [80, [[true, ascii('GET /a HTTP/1.1\r\n')], [true, ascii('Host: held.example\r\n\r\n')]], [1]],
    [7000, [[true, new Uint8Array(100).fill(0x55)]]],
    // A finished TLS connection (both hellos read) with a server segment held beyond a hole that never fills.
    [443, [[true, tlsRecord(specHello('dirty.example'))], [false, SERVER_HELLO], [false, new Uint8Array(7).fill(0x41)], [false, new Uint8Array(80).fill(0x42)]], [3, 0, 1]],
    // Whole records holding part of a handshake message: the reader keeps the message's start (its header and 36
    // bytes of the hello), not a record's.
    [443, [[true, handshakeRecord(tlsRecord(specHello('dirty.example')).subarray(5, 45))]]],
    [443, [[true, handshakeRecord(tlsRecord(specHello('dirty.example')).subarray(5, 45))], [false, handshakeRecord(SERVER_HELLO.subarray(5, 20))]]],
    // Connections whose opening was not captured.
    [80, [[true, ascii('GET /mid HTTP/1.1\r\nHost: dirty.example\r\n\r\n')]], undefined, true],
    [443, [[true, tlsRecord(specHello('dirty.example')).subarray(0, 40)]], undefined, true],
    // One of each other protocol read: their readers are not reused, and must not be read again for the next one.
    [22, [[false, ascii('SSH-2.0-OpenSSH_9.0\r\n')], [true, ascii('SSH-2.0-dirty\r\n')]]],
    [21, [[false, ascii('220 dirty ready\r\n')], [true, ascii('USER dirty\r\n')]]],
    [445, [[true, Uint8Array.from([0, 0, 0, 64, 0xfe, 0x53, 0x4d, 0x42, ...new Array<number>(60).fill(0)])]]],
    [3389, [[true, Uint8Array.of(3, 0, 0, 11, 6, 0xe0, 0, 0, 0, 0, 0)]]],
    [5900, [[false, ascii('RFB 003.008\n')], [true, ascii('RFB 003.008\n')]]],
    [53, [[true, Uint8Array.of(0, 40, 1, 2, 3)]]],
    // Bytes of no protocol, short of the budget after which a connection is given up as none.
    [7000, [[true, new Uint8Array(4000).fill(0x55)]]],
    // A finished TLS connection holding 240,000 server bytes beyond a hole (not flushed: the connection was done).
    [443, [[true, tlsRecord(specHello('dirty.example'))], [false, SERVER_HELLO], [false, new Uint8Array(7)], ...[0, 1, 2, 3].map((): [boolean, Uint8Array] => [false, new Uint8Array(60_000).fill(0x43)])], [3, 4, 5, 6, 0, 1]],
  ];
  // Clean connections with and without their opening: a mid-stream one is read as mid-stream (HTTP starts by looking
  // for a message start, TLS and HTTP records say midstream), which holds only if the reused state forgets that the
  // closed connection had already set its streams up.
  const clean: Array<[number, Array<[boolean, Uint8Array]>, boolean?, number[]?]> = [
    [80, [[true, ascii('GET /clean HTTP/1.1\r\nHost: clean.example\r\nUser-Agent: ua\r\n\r\n')], [false, ascii('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc')]]],
    [443, [[true, tlsRecord(specHello('clean.example'))], [false, SERVER_HELLO]]],
    [80, [[true, ascii('GET /clean HTTP/1.1\r\nHost: clean.example\r\n\r\n')], [false, ascii('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc')]], true],
    [443, [[true, tlsRecord(specHello('clean.example'))], [false, SERVER_HELLO]], true],
    // Mid-stream, the server's bytes first: the response waits for no request and starts no message.
    [80, [[false, ascii('abc\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')], [true, ascii('GET /late HTTP/1.1\r\nHost: clean.example\r\n\r\n')]], true],
    // A header line cut across segments (joined from held parts).
    [80, [[true, ascii('GET /split HTTP/1.1\r\nHost: clean.exa')], [true, ascii('mple\r\n\r\n')]]],
    // Bytes of no protocol first, then a request: read as HTTP only while the budget lasts.
    [8080, [[true, new Uint8Array(200).fill(0x55)], [true, ascii('GET /after HTTP/1.1\r\nHost: clean.example\r\n\r\n')]]],
    // A 60,000-byte response body segment held until the segment before it comes: within the bound on held bytes.
    [80, [[true, ascii('GET /big HTTP/1.1\r\nHost: clean.example\r\n\r\n')], [false, ascii('HTTP/1.1 200 OK\r\nContent-Length: 60010\r\n\r\n0123456789')], [false, new Uint8Array(60_000).fill(0x44)]], false, [0, 2, 1]],
  ];
  const records = (r: CaptureAnalysis, uid: string): unknown => {
    const strip = <T extends { uid: string }>(xs: readonly T[]): unknown[] => xs.filter((x) => x.uid === uid).map(({ uid: _u, ts: _t, packet: _p, ...rest }: T & { ts?: unknown; packet?: unknown }) => rest);
    const a = r.app;
    return { http: strip(a.http), tls: strip(a.tls), ssh: strip(a.ssh), ftp: strip(a.ftp), smb: strip(a.smb), rdp: strip(a.rdp), rfb: strip(a.rfb), dns: strip(a.dns), service: r.connections.find((c) => c.uid === uid)?.service };
  };
  /** Every connection's records in order, and how many records there are in all (none may name another uid). */
  const everything = (r: CaptureAnalysis): unknown => {
    const a = r.app;
    const total = a.http.length + a.tls.length + a.ssh.length + a.ftp.length + a.smb.length + a.rdp.length + a.rfb.length + a.dns.length;
    return { conns: r.connections.map((c) => records(r, c.uid)), total };
  };
  const joined = (x: unknown, y: unknown): unknown => {
    const [a, b] = [x, y] as Array<{ conns: unknown[]; total: number }>;
    return { conns: [...a!.conns, ...b!.conns], total: a!.total + b!.total };
  };
  /** Warning counts by code, without the flow limit the test sets. */
  const warned = (...rs: CaptureAnalysis[]): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const r of rs) for (const w of r.warnings) if (w.code !== 'flow_limit') out[w.code] = (out[w.code] ?? 0) + w.count;
    return out;
  };

  it('a connection after one that closed with bytes held reads exactly as it does alone', () => {
    expect.hasAssertions();
    for (const [k, [cport, csegs, cmid, corder]] of clean.entries()) {
      const second = session(41000, cport, csegs, 1_700_000_100, corder, cmid);
      const alone = analyzeCaptureBytes(writePcap(second), { maxActiveFlows: 1 });
      const want = records(alone, alone.connections[0]!.uid);
      // The clean connection alone reads as it should (so reading it the same after a dirty one means something).
      expect(want, `clean ${k}`).toMatchObject(cport === 443 ? { tls: [{ serverName: 'clean.example', midstream: cmid === true, version: 'TLSv12' }] } : { http: [{ host: 'clean.example', midstream: cmid === true }] });
      for (const [i, [port, segs, order, mid]] of dirty.entries()) {
        // One live connection at a time: the next one's first packet closes the dirty one, whose state it reuses.
        const first = session(40000 + i, port, segs, 1_700_000_000, order, mid);
        const r = analyzeCaptureBytes(writePcap([...first, ...second]), { maxActiveFlows: 1 });
        expect(r.connections).toHaveLength(2);
        expect(records(r, r.connections[1]!.uid), `clean ${k} after dirty ${i}`).toEqual(want);
        // Nor does the closed connection's state write anything more for it or for the one that reuses it.
        const firstAlone = analyzeCaptureBytes(writePcap(first), { maxActiveFlows: 1 });
        expect(everything(r), `clean ${k} after dirty ${i}`).toEqual(joined(everything(firstAlone), everything(alone)));
        expect(warned(r), `clean ${k} after dirty ${i}`).toEqual(warned(alone, analyzeCaptureBytes(writePcap(first), { maxActiveFlows: 1 })));
      }
    }
  });
});

describe('reused readers and the connections live beside them', () => {
  /** Frames of one TCP session from `clientPort`, its handshake at `t0` and then one segment per `step` seconds. */
  const session = (clientPort: number, port: number, segments: Array<[boolean, Uint8Array]>, t0: number, step = 0.001): PacketToWrite[] => {
    let cs = 1000;
    let ss = 5000;
    const frames: PacketToWrite[] = [];
    let t = t0;
    const push = (data: Uint8Array): void => {
      frames.push({ tsSec: Math.floor(t), tsNsec: Math.round((t % 1) * 1e9), data });
    };
    push(tcpFrame(A, B, { sport: clientPort, dport: port, seq: cs, flags: TCP_SYN }));
    t += 0.0001;
    push(tcpFrame(B, A, { sport: port, dport: clientPort, seq: ss, ack: cs + 1, flags: TCP_SYN | TCP_ACK }));
    t += 0.0001;
    cs += 1;
    ss += 1;
    push(tcpFrame(A, B, { sport: clientPort, dport: port, seq: cs, ack: ss, flags: TCP_ACK }));
    for (const [fromClient, bytes] of segments) {
      t += step;
      if (fromClient) {
        push(tcpFrame(A, B, { sport: clientPort, dport: port, seq: cs, ack: ss, flags: TCP_ACK | TCP_PSH }, bytes));
        cs += bytes.length;
      } else {
        push(tcpFrame(B, A, { sport: port, dport: clientPort, seq: ss, ack: cs, flags: TCP_ACK | TCP_PSH }, bytes));
        ss += bytes.length;
      }
    }
    return frames;
  };
  const udpAt = (t: number, sport: number): PacketToWrite => ({ tsSec: Math.floor(t), tsNsec: Math.round((t % 1) * 1e9), data: udpFrame(A, B, sport, 9999, ascii('x')) });
  const inTime = (frames: PacketToWrite[]): PacketToWrite[] => frames.sort((a, b) => a.tsSec - b.tsSec || (a.tsNsec ?? 0) - (b.tsNsec ?? 0));
  const request = (name: string): Uint8Array => ascii(`GET /${name} HTTP/1.1\r\nHost: ${name}.example\r\n\r\n`);
  const ok = ascii('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');

  it('a state that served HTTP, reused by a TLS connection, does not close the HTTP reader another connection now uses', () => {
    // Two live connections at most. A (HTTP) is closed when B (TLS) opens and B takes A's state; C (HTTP) takes A's
    // HTTP reader and sends its request; D (UDP) closes B while C waits for its response.
    const t0 = 1_700_000_000;
    const frames = inTime([
      ...session(40001, 80, [[true, request('a')], [false, ok]], t0),
      udpAt(t0 + 1, 50001),
      ...session(40002, 443, [[true, tlsRecord(specHello('b'))]], t0 + 2),
      ...session(40003, 80, [[true, request('c')], [false, ok]], t0 + 3, 1),
      udpAt(t0 + 4.5, 50002),
    ]);
    const r = analyzeCaptureBytes(writePcap(frames), { maxActiveFlows: 2 });
    expect(r.app.http.map((t) => [t.host, t.statusCode])).toEqual([
      ['a.example', 200],
      ['c.example', 200],
    ]);
    expect(r.app.tls.map((t) => t.serverName)).toEqual(['b']);
  });

  it('a TLS reader pair reused by another connection state than its last reports to the new one', () => {
    // A (TLS) and C (no protocol) time out together and are closed oldest first, so B, opening after, takes C's state
    // and A's TLS readers.
    const t0 = 1_700_000_000;
    const frames = inTime([
      ...session(40001, 443, [[true, tlsRecord(specHello('a.example'))], [false, SERVER_HELLO]], t0),
      ...session(40002, 7000, [[true, new Uint8Array(50).fill(0x55)]], t0 + 1),
      ...session(40003, 443, [[true, tlsRecord(specHello('b.example'))], [false, SERVER_HELLO]], t0 + 1000),
    ]);
    const r = analyzeCaptureBytes(writePcap(frames));
    expect(r.connections).toHaveLength(3);
    expect(r.app.tls.map((t) => [t.uid, t.serverName, t.version])).toEqual([
      [r.connections[0]!.uid, 'a.example', 'TLSv12'],
      [r.connections[2]!.uid, 'b.example', 'TLSv12'],
    ]);
  });
});

describe('HTTP start lines read from bytes', () => {
  /** Lines of the usual shape, odd ones and near misses; each also with one byte changed at every position. */
  const requests = ['GET / HTTP/1.1', 'GET /a?b=c HTTP/1.0', 'M-SEARCH * HTTP/1.1', 'propfind /x HTTP/1.1', 'ABCDEFGHIJKLMNOPQRSTUVWX / HTTP/1.1', 'ABCDEFGHIJKLMNOPQRSTUVWXY / HTTP/1.1', 'GET  / HTTP/1.1', 'GET /\t HTTP/1.1', 'GET /\xa0 HTTP/1.1', 'GET / HTTP/1.1 ', 'GET HTTP/1.1', '1GET / HTTP/1.1', 'GET / HTTP/1.12', 'GET /x\ry HTTP/1.1', 'G / HTTP/9.9'];
  const responses = ['HTTP/1.1 200 OK', 'HTTP/1.1 200', 'HTTP/1.1 200 ', 'HTTP/1.0 404 Not  Found ', 'HTTP/1.1 2000 OK', 'HTTP/1.1 20 OK', 'HTTP/1.1 200 a\rb', 'HTTP/1.1  200 OK', 'HTTP/2 200 OK', 'HTTP/1.1 200 caf\xe9'];
  const bytesOf = (line: string): Uint8Array => Uint8Array.from(line.replace(/\\t/g, '\t').replace(/\\r/g, '\r').replace(/\\x([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), (c) => c.charCodeAt(0));
  const variants = (line: string): Uint8Array[] => {
    const b = bytesOf(line);
    const out = [b];
    for (let i = 0; i < b.length; i++) for (const v of [0x20, 0x09, 0x41, 0x31, 0x0d, 0xa0]) out.push(Uint8Array.from(b, (x, j) => (j === i ? v : x)));
    return out;
  };
  const same = (read: (b: Uint8Array, s: number, e: number) => ArrayLike<string | undefined> | undefined, pattern: RegExp, lines: string[]): number => {
    let fast = 0;
    for (const line of lines) {
      for (const b of variants(line)) {
        // Read inside a larger buffer, as in a segment.
        const framed = concat(ascii('xx'), b, ascii('yy'));
        const got = read(framed, 2, 2 + b.length);
        const m = pattern.exec(Buffer.from(b).toString('latin1'));
        if (got !== undefined) {
          fast += 1;
          expect(m, Buffer.from(b).toString('latin1')).not.toBeNull();
          expect([got[1], got[2], got[3]]).toEqual([m?.[1], m?.[2], m?.[3]]);
        }
      }
    }
    return fast;
  };

  it('request lines: whenever the byte reader accepts a line, the pattern gives the same method, URI and version', () => {
    expect(same(requestLine, REQUEST_LINE, requests)).toBeGreaterThan(100);
    expect(requestLine(bytesOf('GET / HTTP/1.1'), 0, 14)).toBeDefined();
  });

  it('status lines: whenever the byte reader accepts a line, the pattern gives the same version, code and reason', () => {
    expect(same(responseLine, RESPONSE_LINE, responses)).toBeGreaterThan(100);
    expect(Array.from(responseLine(bytesOf('HTTP/1.1 200'), 0, 12) ?? [])).toEqual(['', '1.1', '200', undefined]);
  });
});

describe('token text cache', () => {
  it('gives the Latin-1 text of any range, through repeats, slot collisions and one-byte changes', () => {
    // A fixed generator: tokens of 0..120 bytes over the whole byte range, many more than the cache has slots.
    let seed = 7;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const tokens: Uint8Array[] = [];
    for (let i = 0; i < 6000; i++) tokens.push(Uint8Array.from({ length: next() % 121 }, () => next() & 0xff));
    let checked = 0;
    for (let round = 0; round < 3; round++) {
      for (const t of tokens) {
        const buf = concat(Uint8Array.of(0x41, 0x42), t, Uint8Array.of(0x43));
        expect(latin1Token(buf, 2, 2 + t.length)).toBe(latin1Range(buf, 2, 2 + t.length));
        if (t.length > 0) {
          const changed = buf.slice();
          const at = 2 + (next() % t.length);
          changed[at] = changed[at]! ^ 1;
          expect(latin1Token(changed, 2, 2 + t.length)).toBe(latin1Range(changed, 2, 2 + t.length));
        }
        checked += 1;
      }
    }
    expect(checked).toBe(18000);
    expect(latin1Token(Uint8Array.of(0xe9, 0x20, 0xff), 0, 3)).toBe('\u00e9 \u00ff');
  });
});

describe('HTTP on crafted streams', () => {
  it('pipelined requests, a chunked response split across segments, a POST body, Basic credentials (user only)', () => {
    const req1 = ascii('GET /a HTTP/1.1\r\nHost: example.test\r\nAuthorization: Basic ' + Buffer.from('alice:s3cret').toString('base64') + '\r\n\r\n');
    const req2 = ascii('POST /login HTTP/1.1\r\nHost: example.test\r\nContent-Length: 11\r\n\r\nuser=x&p=y!');
    const resp1a = ascii('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel');
    const resp1b = ascii('lo\r\n0\r\n\r\n');
    const resp2 = ascii('HTTP/1.1 401 Unauthorized\r\nContent-Length: 4\r\n\r\nnope');
    const r = analyzeCaptureBytes(conversation(8080, [[true, concat(req1, req2)], [false, resp1a], [false, resp1b], [false, resp2]]));
    expect(r.app.http.map((t) => [t.depth, t.method, t.uri, t.host, t.requestBodyLength, t.statusCode, t.responseBodyLength, t.authScheme, t.basicUser])).toEqual([
      [1, 'GET', '/a', 'example.test', 0, 200, 5, 'Basic', 'alice'],
      [2, 'POST', '/login', 'example.test', 11, 401, 4, undefined, undefined],
    ]);
    expect(JSON.stringify(r.app.http)).not.toContain('s3cret');
    expect(r.connections[0]?.service).toEqual(['http']);
  });

  it('kept headers matched in any case with spaces around the name; the first of a repeated header is the one read', () => {
    const req = ascii('GET /h HTTP/1.1\r\n HOST :  one.test \r\nhost: two.test\r\nUser-AGENT:\tua/1\r\nX-Host: no\r\nReferer: http://r.test/\r\nContent-Length : 3\r\n\r\nabc');
    const resp = ascii('HTTP/1.1 200 OK\r\ncontent-LENGTH: 2\r\nContent-Length: 9\r\n\r\nok');
    const r = analyzeCaptureBytes(conversation(80, [[true, req], [false, resp]]));
    expect(r.app.http.map((t) => [t.host, t.userAgent, t.referrer, t.requestBodyLength, t.statusCode, t.responseBodyLength])).toEqual([['one.test', 'ua/1', 'http://r.test/', 3, 200, 2]]);
    // The same with lines cut across segments (read as joined text, not in place).
    const cut = (b: Uint8Array): Array<[boolean, Uint8Array]> => Array.from({ length: Math.ceil(b.length / 7) }, (_, i) => [true, b.subarray(i * 7, i * 7 + 7)]);
    const again = analyzeCaptureBytes(conversation(80, [...cut(req), [false, resp]]));
    expect(again.app.http.map((t) => ({ ...t, ts: 0, packet: 0 }))).toEqual(r.app.http.map((t) => ({ ...t, ts: 0, packet: 0 })));
  });

  it('a Content-Length is read as 1 to 15 digits (trimmed, the first header only), alike in place and across segments', () => {
    // A valid length ends the body after it; any other value leaves the body to the end of the connection (5 bytes).
    const cases: Array<[string, number | undefined]> = [
      ['3', 3],
      ['003', 3],
      ['\t3 ', 3],
      ['3x', 5],
      ['', 5],
      ['-3', 5],
      ['1234567890123456', 5],
      ['123456789012345', undefined],
      ['x\r\nContent-Length: 3', 5],
      ['3\r\nContent-Length: x', 3],
    ];
    const req = ascii('GET / HTTP/1.1\r\n\r\n');
    for (const [value, expected] of cases) {
      const resp = ascii(`HTTP/1.1 200 OK\r\nContent-Length: ${value}\r\n\r\nabcde`);
      const whole = analyzeCaptureBytes(conversation(80, [[true, req], [false, resp]]));
      const bytes = Array.from(resp, (b): [boolean, Uint8Array] => [false, Uint8Array.of(b)]);
      const cut = analyzeCaptureBytes(conversation(80, [[true, req], ...bytes]));
      expect([value, whole.app.http.map((t) => t.responseBodyLength)]).toEqual([value, [expected]]);
      expect([value, cut.app.http.map((t) => t.responseBodyLength)]).toEqual([value, [expected]]);
    }
  });

  it('a lost segment inside a body is absorbed; a lost head resynchronises on the next request', () => {
    const body = new Uint8Array(3000).fill(0x41);
    const head = ascii('HTTP/1.1 200 OK\r\nContent-Length: 3000\r\n\r\n');
    const r = analyzeCaptureBytes(
      conversation(80, [[true, ascii('GET /x HTTP/1.1\r\nHost: h\r\n\r\n')], [false, head], [false, body.subarray(0, 1000)], [false, body.subarray(1000, 2000)], [false, body.subarray(2000)], [true, ascii('GET /y HTTP/1.1\r\nHost: h\r\n\r\n')], [false, ascii('HTTP/1.1 204 No Content\r\n\r\n')]], 3),
    );
    expect(r.app.http.map((t) => [t.uri, t.statusCode, t.responseBodyLength])).toEqual([
      ['/x', 200, 3000],
      ['/y', 204, 0],
    ]);
    expect(r.warnings.map((w) => w.code)).toEqual(['stream_gap']);
  });
});

/** The JA4 specification's example ClientHello fields, with GREASE values added where a browser puts them. */
function specHello(serverName = 'example.com'): Uint8Array {
  const u16 = (v: number): number[] => [v >> 8, v & 0xff];
  const vec2 = (bytes: number[]): number[] => [...u16(bytes.length), ...bytes];
  const ciphers = [0x0a0a, 0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0xc013, 0xc014, 0x009c, 0x009d, 0x002f, 0x0035];
  const sigs = [0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601];
  const ext = (type: number, body: number[]): number[] => [...u16(type), ...vec2(body)];
  const host = [...ascii(serverName)];
  const exts: number[][] = [
    ext(0x2a2a, []),
    ext(0x001b, [2, 0, 2]),
    ext(0x0000, vec2([0, ...vec2(host)])),
    ext(0x0033, vec2([...u16(0x1a1a), 0, 1, 0])),
    ext(0x0010, vec2([2, ...ascii('h2'), 8, ...ascii('http/1.1')])),
    ext(0x4469, [0, 3, 2, 0x68, 0x32]),
    ext(0x0017, []),
    ext(0x002d, [1, 1]),
    ext(0x000d, vec2(sigs.flatMap(u16))),
    ext(0x0005, [1, 0, 0, 0, 0]),
    ext(0x0023, []),
    ext(0x0012, []),
    ext(0x002b, [6, ...u16(0x3a3a), ...u16(0x0304), ...u16(0x0303)]),
    ext(0xff01, [0]),
    ext(0x000b, [1, 0]),
    ext(0x000a, vec2([0x4a4a, 0x001d, 0x0017, 0x0018].flatMap(u16))),
    ext(0x0015, [0, 0, 0]),
  ];
  const body = [...u16(0x0303), ...new Array<number>(32).fill(7), 0, ...vec2(ciphers.flatMap(u16)), 1, 0, ...vec2(exts.flat())];
  return Uint8Array.from(body);
}

/** One whole handshake record carrying `fragment` (which may be part of a handshake message). */
function handshakeRecord(fragment: Uint8Array): Uint8Array {
  return concat(Uint8Array.of(0x16, 3, 3, fragment.length >> 8, fragment.length & 0xff), fragment);
}

function tlsRecord(hello: Uint8Array): Uint8Array {
  const hs = concat(Uint8Array.of(1, 0, hello.length >> 8, hello.length & 0xff), hello);
  return concat(Uint8Array.of(0x16, 3, 1, hs.length >> 8, hs.length & 0xff), hs);
}

describe('TLS', () => {
  it('computes the JA4 specification example exactly, GREASE ignored everywhere', () => {
    const h = parseClientHello(specHello());
    expect(h?.ja4).toBe('t13d1516h2_8daaf6152771_e5627efa2ab1');
    expect(h?.ja4Raw).toBe(
      't13d1516h2_002f,0035,009c,009d,1301,1302,1303,c013,c014,c02b,c02c,c02f,c030,cca8,cca9_0005,000a,000b,000d,0012,0015,0017,001b,0023,002b,002d,0033,4469,ff01_0403,0804,0401,0503,0805,0501,0806,0601',
    );
    expect(h?.serverName).toBe('example.com');
    expect(h?.alpn).toEqual(['h2', 'http/1.1']);
    expect(h?.ja3String.split(',')[1]?.split('-').map(Number).some(isGrease)).toBe(false);
  });

  it('escapes a server name with control, backslash or non-ASCII bytes, and reads plain names alike again', () => {
    expect(parseClientHello(specHello('a\u0001b\\c\u00ffd'))?.serverName).toBe('a\\x01b\\x5cc\\xc3\\xbfd'); // the name's bytes are its UTF-8
    for (const name of ['example.com', 'a.example.org', 'example.com']) expect(parseClientHello(specHello(name))?.serverName).toBe(name);
    expect(parseClientHello(specHello('x'.repeat(300)))?.serverName).toBe('x'.repeat(255));
  });

  it('remembered fingerprints follow every field they are computed from (GREASE values alone change nothing)', () => {
    expect.hasAssertions();
    const base = specHello();
    const at = (needle: number[]): number => base.findIndex((_, i) => needle.every((v, j) => base[i + j] === v));
    const patched = (needle: number[], by: number[]): Uint8Array => {
      const i = at(needle);
      expect(i).toBeGreaterThan(0);
      const out = base.slice();
      out.set(by, i);
      return out;
    };
    const variants = [
      base,
      patched([0x0a, 0x0a, 0x13, 0x01], [0x1a, 0x1a, 0x13, 0x01]), // another GREASE cipher
      patched([0x04, 0x03, 0x08, 0x04], [0x08, 0x04, 0x04, 0x03]), // signature algorithms reordered
      patched([0x03, 0x04, 0x03, 0x03], [0x03, 0x03, 0x03, 0x03]), // supported versions
      patched([0x02, 0x68, 0x32, 0x08], [0x02, 0x68, 0x33, 0x08]), // first ALPN value
    ];
    const seen = variants.map((v) => {
      const h = parseClientHello(v);
      expect(h).toBeDefined();
      if (h === undefined) return '';
      const fresh = ja4({ version: h.version, ciphers: h.ciphers, extensions: h.extensions, signatureAlgorithms: h.signatureAlgorithms, supportedVersions: h.supportedVersions, firstAlpn: ascii(h.alpn[0] ?? '') });
      expect([h.ja4, h.ja4Raw, h.ja3]).toEqual([fresh.ja4, fresh.raw, createHash('md5').update(h.ja3String).digest('hex')]);
      return h.ja4Raw;
    });
    expect(seen[1]).toBe(seen[0]);
    expect(new Set(seen).size).toBe(4);
  });

  it('hellos with the same lists share one frozen array per list, and a different list gets its own', () => {
    const a = parseClientHello(specHello('a.example'));
    const b = parseClientHello(specHello('b.example'));
    expect(a && b).toBeTruthy();
    if (a === undefined || b === undefined) return;
    for (const k of ['ciphers', 'extensions', 'supportedGroups', 'pointFormats', 'signatureAlgorithms', 'supportedVersions', 'alpn'] as const) {
      expect(b[k]).toBe(a[k]);
      expect(Object.isFrozen(a[k])).toBe(true);
    }
    expect(b.ja3String).toBe(a.ja3String);
    const other = specHello('a.example');
    const i = other.findIndex((_, j) => other[j] === 0x13 && other[j + 1] === 0x02);
    other[i + 1] = 0x05;
    const c = parseClientHello(other);
    expect(c?.ciphers).not.toBe(a.ciphers);
    expect(c?.ciphers).toContain(0x1305);
    expect(c?.ja3String).not.toBe(a.ja3String);
  });

  it('reads damaged hellos as a plain cursor reader does: the same fields, or malformed for the same inputs', () => {
    // A reader written the plain way (a cursor that throws past its end), the reference for the in-place one.
    const plain = (b: Uint8Array): unknown => {
      class Cut {
        constructor(
          public at: number,
          readonly end: number,
        ) {}
        need(n: number): boolean {
          return this.at + n <= this.end;
        }
        u8(): number {
          if (!this.need(1)) throw new RangeError('cut');
          return b[this.at++]!;
        }
        u16(): number {
          return (this.u8() << 8) | this.u8();
        }
        vec(prefix: 1 | 2): Cut {
          if (!this.need(prefix)) throw new RangeError('cut');
          const len = prefix === 1 ? this.u8() : this.u16();
          if (!this.need(len)) throw new RangeError('cut');
          this.at += len;
          return new Cut(this.at - len, this.at);
        }
      }
      const text = (c: Cut): string => {
        let s = '';
        for (let i = c.at; i < Math.min(c.end, c.at + 255); i++) s += b[i]! >= 0x20 && b[i]! < 0x7f && b[i] !== 0x5c ? String.fromCharCode(b[i]!) : `\\x${b[i]!.toString(16).padStart(2, '0')}`;
        return s;
      };
      try {
        const c = new Cut(0, b.length);
        const version = c.u16();
        if (!c.need(32)) throw new RangeError('cut');
        c.at += 32;
        c.vec(1);
        const cs = c.vec(2);
        const out = { version, serverName: undefined as string | undefined, alpn: [] as string[], ciphers: [] as number[], extensions: [] as number[], supportedGroups: [] as number[], pointFormats: [] as number[], signatureAlgorithms: [] as number[], supportedVersions: [] as number[] };
        while (cs.need(2)) out.ciphers.push(cs.u16());
        c.vec(1);
        if (c.need(2)) {
          const ex = c.vec(2);
          while (ex.need(4)) {
            const type = ex.u16();
            const body = ex.vec(2);
            out.extensions.push(type);
            const list = type === 0x0000 || type === 0x000a || type === 0x000d || type === 0x0010 ? body.vec(2) : type === 0x000b || type === 0x002b ? body.vec(1) : undefined;
            if (list === undefined) continue;
            if (type === 0x0000) {
              while (list.need(3)) {
                const kind = list.u8();
                const name = list.vec(2);
                if (kind === 0 && out.serverName === undefined) out.serverName = text(name);
              }
            } else if (type === 0x0010) while (list.need(1)) out.alpn.push(text(list.vec(1)));
            else if (type === 0x000b) while (list.need(1)) out.pointFormats.push(list.u8());
            else {
              const into = type === 0x000a ? out.supportedGroups : type === 0x000d ? out.signatureAlgorithms : out.supportedVersions;
              while (list.need(2)) into.push(list.u16());
            }
          }
        }
        return out;
      } catch (err) {
        if (err instanceof RangeError) return undefined;
        throw err;
      }
    };
    const ours = (b: Uint8Array): unknown => {
      const h = parseClientHello(b);
      if (h === undefined) return undefined;
      const { ja3String: _s, ja3: _3, ja4: _4, ja4Raw: _r, ...fields } = h;
      return { ...fields, serverName: h.serverName };
    };
    const base = specHello();
    let seed = 17;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    let malformed = 0;
    for (let k = 0; k < 600; k++) {
      let v = base.slice();
      for (let f = 1 + next(3); f > 0; f--) v[next(v.length)] = next(4) === 0 ? next(256) : v[next(v.length)]!;
      if (k % 3 === 0) v = v.subarray(0, next(v.length + 1));
      const want = plain(v);
      if (want === undefined) malformed += 1;
      expect(ours(v), `variant ${k}`).toEqual(want);
    }
    expect(malformed).toBeGreaterThan(50);
    expect(malformed).toBeLessThan(550);
  });

  it('follows the JA4 ALPN rules for empty, single-character and non-alphanumeric values', () => {
    const base = { version: 0x0303, ciphers: [0x002f], extensions: [0x0010], signatureAlgorithms: [], supportedVersions: [] };
    expect(ja4({ ...base, firstAlpn: undefined }).ja4.slice(0, 10)).toBe('t12i010100');
    expect(ja4({ ...base, firstAlpn: ascii('h') }).ja4.slice(8, 10)).toBe('hh');
    expect(ja4({ ...base, firstAlpn: Uint8Array.of(0xab, 0xcd) }).ja4.slice(8, 10)).toBe('ad');
    expect(ja4({ ...base, firstAlpn: Uint8Array.of(0x30, 0xab, 0xcd, 0x31) }).ja4.slice(8, 10)).toBe('01');
    // No extensions left after removing SNI and ALPN: the last part is all zeros.
    expect(ja4({ ...base, firstAlpn: ascii('h2') }).ja4.endsWith('_000000000000')).toBe(true);
    expect(ja4({ ...base, ciphers: [], firstAlpn: undefined }).ja4.split('_')[1]).toBe('000000000000');
  });

  it.skipIf(!corpus)('ecdhe.pcap: no server name, TLSv12 and ECDHE_RSA_WITH_AES_256_CBC_SHA as in Zeek ssl.log; JA3 as tshark computes it', async () => {
    const r = await analyzeCaptureFile(corpusFile('ecdhe.pcap'));
    const [row] = zeekLog('ecdhe', 'ssl.log');
    expect(r.app.tls).toHaveLength(1);
    const t = r.app.tls[0];
    expect(t?.serverName ?? '-').toBe(row?.['server_name']);
    expect(t?.version).toBe(row?.['version']);
    expect(row?.['cipher']).toBe('TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA');
    expect(t?.cipher).toBe(0xc014);
  });

  it.skipIf(!corpus || tsharkSkips)('ecdhe.pcap: JA3 and the full JA3 string as tshark computes them', async () => {
    const r = await analyzeCaptureFile(corpusFile('ecdhe.pcap'));
    const t = r.app.tls[0];
    expect(t).toBeDefined();
    const out = await tshark(['-r', corpusFile('ecdhe.pcap'), '-Y', 'tls.handshake.type==1', '-T', 'fields', '-E', 'separator=;', '-e', 'tls.handshake.ja3', '-e', 'tls.handshake.ja3_full']);
    const [ja3, full] = out.trim().split(';');
    expect([t?.ja3, t?.client?.ja3String]).toEqual([ja3, full]);
  });

  const splitHello = (): Uint8Array => {
    const record = tlsRecord(specHello());
    return conversation(443, [
      [true, record.subarray(0, 60)],
      [true, record.subarray(60)],
    ]);
  };

  it('a crafted ClientHello split over two segments: server name and JA4 (GREASE removed)', () => {
    const r = analyzeCaptureBytes(splitHello());
    expect(r.app.tls.map((t) => [t.serverName, t.ja4])).toEqual([['example.com', 't13d1516h2_8daaf6152771_e5627efa2ab1']]);
  });

  it('the ClientHello read the same whatever the cuts: every segment size, and one message over two records', () => {
    expect.hasAssertions();
    const record = tlsRecord(specHello());
    const whole = analyzeCaptureBytes(conversation(443, [[true, record]])).app.tls.map((t) => ({ ...t, uid: '' }));
    expect(whole.map((t) => [t.serverName, t.ja4])).toEqual([['example.com', 't13d1516h2_8daaf6152771_e5627efa2ab1']]);
    // From three bytes on: the first segment must show a TLS record start for the connection to be read as TLS.
    for (const size of [3, 4, 5, 6, 9, 64, record.length - 1]) {
      const segments: Array<[boolean, Uint8Array]> = [];
      for (let at = 0; at < record.length; at += size) segments.push([true, record.subarray(at, at + size)]);
      const r = analyzeCaptureBytes(conversation(443, segments));
      expect(r.app.tls.map((t) => ({ ...t, uid: '', ts: whole[0]?.ts, packet: whole[0]?.packet })), `segments of ${size}`).toEqual(whole);
    }
    // The handshake message split over two TLS records, both in one segment and then one record per segment.
    const hs = record.subarray(5);
    const rec = (part: Uint8Array): Uint8Array => concat(Uint8Array.of(0x16, 3, 1, part.length >> 8, part.length & 0xff), part);
    const two = [rec(hs.subarray(0, 100)), rec(hs.subarray(100))] as const;
    for (const segments of [[[true, concat(two[0], two[1])]], [[true, two[0]], [true, two[1]]]] as Array<Array<[boolean, Uint8Array]>>) {
      const r = analyzeCaptureBytes(conversation(443, segments));
      expect(r.app.tls.map((t) => ({ ...t, uid: '', ts: whole[0]?.ts, packet: whole[0]?.packet }))).toEqual(whole);
    }
  });

  it.skipIf(tsharkSkips)('the same split ClientHello: server name and JA3 equal tshark (GREASE removed by both)', async () => {
    const bytes = splitHello();
    const r = analyzeCaptureBytes(bytes);
    expect(r.app.tls).toHaveLength(1);
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-tls-'));
    try {
      const file = path.join(dir, 'hello.pcap');
      writeFileSync(file, bytes);
      const out = await tshark(['-r', file, '-Y', 'tls.handshake.type==1', '-T', 'fields', '-E', 'separator=;', '-e', 'tls.handshake.extensions_server_name', '-e', 'tls.handshake.ja3', '-e', 'tls.handshake.ja3_full']);
      const [sni, ja3, full] = out.trim().split(';');
      expect([r.app.tls[0]?.serverName, r.app.tls[0]?.ja3, r.app.tls[0]?.client?.ja3String]).toEqual([sni, ja3, full]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!corpus)('SSH, FTP and RFB', () => {
  it('sshguess: 11 SSH sessions whose banners equal tshark ssh.protocol', async () => {
    const r = await analyzeCaptureFile(corpusFile('sshguess.pcap'));
    expect(r.app.ssh).toHaveLength(11);
    expect(new Set(r.app.ssh.map((s) => `${s.client} / ${s.server}`))).toEqual(new Set(['SSH-2.0-OpenSSH_6.2 / SSH-2.0-OpenSSH_6.7p1 Debian-3']));
    // Zeek's notice: 192.168.56.1 against 192.168.56.103.
    expect(new Set(r.connections.map((c) => `${c.origH}>${c.respH}:${c.respP}`))).toEqual(new Set(['192.168.56.1>192.168.56.103:22']));
  });

  it.skipIf(tsharkSkips)('sshguess: the banners equal tshark ssh.protocol', async () => {
    const r = await analyzeCaptureFile(corpusFile('sshguess.pcap'));
    expect(r.app.ssh).toHaveLength(11);
    const out = await tshark(['-r', corpusFile('sshguess.pcap'), '-Y', 'ssh.protocol', '-T', 'fields', '-e', 'ssh.protocol']);
    const theirs = out.trim().split('\n').sort();
    expect(r.app.ssh.flatMap((s) => [s.client, s.server]).sort()).toEqual(theirs);
  });

  it('ftp-bruteforce: 30 sessions for user bro, every PASS refused with 530; Zeek notices at its threshold of 20 within 37 s', async () => {
    const r = await analyzeCaptureFile(corpusFile('ftp-bruteforce.pcap'));
    expect(r.app.ftp).toHaveLength(30);
    expect(new Set(r.app.ftp.map((f) => f.user))).toEqual(new Set(['bro']));
    const failures = r.app.ftp.flatMap((f) => f.commands.filter((c) => c.command === 'PASS' && c.replyCode === 530).map((c) => c.ts)).sort((a, b) => a - b);
    expect(failures).toHaveLength(30);
    expect(r.app.ftp.reduce((n, f) => n + f.failedLogins, 0)).toBe(30);
    // "192.168.56.1 had 20 failed logins on 1 FTP server in 0m37s": the 20th failure, 37 s after the first.
    const notice = zeekLog('ftp-bruteforce', 'notice.log')[0]?.['msg'] ?? '';
    expect(notice).toContain('20 failed logins');
    expect(Math.floor((failures[19] ?? 0) - (failures[0] ?? 0))).toBe(37);
    expect(JSON.stringify(r.app.ftp)).not.toMatch(/"arg":"\d+"/);
  });

  it('vnc-scanner: RFB versions and the failed VNC authentication equal Zeek rfb.log', async () => {
    const r = await analyzeCaptureFile(corpusFile('vnc-scanner.pcap'));
    const [row] = zeekLog('vnc-scanner', 'rfb.log');
    const s = r.app.rfb[0];
    expect(r.app.rfb).toHaveLength(1);
    expect([s?.clientVersion, s?.serverVersion]).toEqual([`${row?.['client_major_version']}.${row?.['client_minor_version']}`, `${row?.['server_major_version']}.${row?.['server_minor_version']}`]);
    expect(s?.authTypeName).toBe(row?.['authentication_method']);
    expect(s?.authSuccess).toBe(row?.['auth'] === 'T');
  });
});

describe('SMB and RDP', () => {
  it('recognises SMB2 and SMB1 by their headers, and a bare connection to 445 by port', () => {
    const smb2 = new Uint8Array(68);
    smb2.set([0xfe, 0x53, 0x4d, 0x42, 64, 0], 0);
    const nb = (msg: Uint8Array): Uint8Array => concat(Uint8Array.of(0, 0, msg.length >> 8, msg.length & 0xff), msg);
    const r = analyzeCaptureBytes(conversation(445, [[true, nb(smb2)]]));
    expect(r.app.smb.map((s) => [s.detectedBy, s.dialect, s.commands])).toEqual([['banner', 'SMB2', ['NEGOTIATE']]]);
    expect(r.connections[0]?.service).toEqual(['smb']);
    const smb1 = concat(Uint8Array.of(0xff, 0x53, 0x4d, 0x42, 0x72), new Uint8Array(40));
    expect(analyzeCaptureBytes(conversation(139, [[true, nb(smb1)]])).app.smb[0]?.dialect).toBe('SMB1');
    const scan = analyzeCaptureBytes(writePcap([{ tsSec: 1, data: tcpFrame(A, B, { sport: 1, dport: 445, flags: TCP_SYN }) }]));
    expect(scan.app.smb.map((s) => s.detectedBy)).toEqual(['port']);
  });

  it('reads the RDP connection request cookie and negotiation, on any port', () => {
    const cookie = ascii('Cookie: mstshash=administrator\r\n');
    const neg = Uint8Array.of(1, 0, 8, 0, 3, 0, 0, 0);
    const x224 = concat(Uint8Array.of(6 + cookie.length + neg.length, 0xe0, 0, 0, 0, 0, 0), cookie, neg);
    const tpkt = concat(Uint8Array.of(3, 0, 0, 4 + x224.length), x224);
    const cc = Uint8Array.of(3, 0, 0, 19, 14, 0xd0, 0, 0, 0x12, 0x34, 0, 2, 0, 8, 0, 2, 0, 0, 0);
    const r = analyzeCaptureBytes(conversation(13389, [[true, tpkt], [false, cc]]));
    expect(r.app.rdp.map((s) => [s.detectedBy, s.cookie, s.requestedProtocols, s.selectedProtocol])).toEqual([['banner', 'administrator', 3, 2]]);
    const scan = analyzeCaptureBytes(writePcap([{ tsSec: 1, data: tcpFrame(A, B, { sport: 1, dport: 3389, flags: TCP_SYN }) }]));
    expect(scan.app.rdp.map((s) => s.detectedBy)).toEqual(['port']);
  });

  it('DNS over TCP with its length prefix', () => {
    const q = concat(Uint8Array.of(0xab, 0xcd, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0), Uint8Array.of(1, 0x78, 0, 0, 1, 0, 1));
    const framed = concat(Uint8Array.of(0, q.length), q);
    const r: CaptureAnalysis = analyzeCaptureBytes(conversation(53, [[true, framed.subarray(0, 5)], [true, framed.subarray(5)]]));
    expect(r.app.dns.map((m) => [m.transport, m.id, m.questions[0]?.name])).toEqual([['tcp', 0xabcd, 'x']]);
    expect(analyzeCaptureBytes(writePcap([{ tsSec: 1, data: udpFrame(A, B, 999, 53, q) }])).app.dns).toHaveLength(1);
  });
});
