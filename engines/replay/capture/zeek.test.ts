// Zeek conn.log as input: the corpus logs (TSV) read into the same records the capture parser builds from the traces, their JSON form, round trips, and damaged logs.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCaptureBytes, analyzeCaptureFile, type ConnectionRecord } from './index.js';
import { corpusFile, pcapCorpusAvailable, zeekBaseline } from './capture.fixture.js';
import { analyzeConnLogBytes, analyzeConnLogFile, connLogText, detectZeekConnLog, MAX_ZEEK_LINE_BYTES } from './zeek.js';
import { analyzeBytes } from '../analyze.js';
import { storyToStix } from '../export/stix.js';
import { analysisSchema } from '../schemas.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The conn.log columns both sides have: tuple, state, history, packets and bytes each way. */
function shape(r: ConnectionRecord, bytes = true) {
  return {
    tuple: `${r.proto} ${r.origH}:${r.origP} > ${r.respH}:${r.respP}`,
    ipProto: r.ipProto,
    state: r.connState,
    history: r.history,
    orig: [r.orig.packets, r.orig.ipBytes, bytes ? r.orig.bytes : '-'],
    resp: [r.resp.packets, r.resp.ipBytes, bytes ? r.resp.bytes : '-'],
    handshake: r.tcp?.handshake,
  };
}

const byTuple = (rs: readonly ConnectionRecord[], bytes: (r: ConnectionRecord) => boolean = () => true) =>
  rs.map((r) => shape(r, bytes(r))).sort((a, b) => a.tuple.localeCompare(b.tuple) || a.state.localeCompare(b.state));

/** Zeek leaves the byte counts unset for a connection of zero duration (the flows tests compare them the same way). */
function logVsPcap(log: readonly ConnectionRecord[], pcap: readonly ConnectionRecord[]): void {
  const unsetBytes = new Set(log.filter((c) => c.duration === 0).map((c) => shape(c).tuple));
  const bytes = (r: ConnectionRecord): boolean => !unsetBytes.has(shape(r).tuple);
  expect(byTuple(log, bytes)).toEqual(byTuple(pcap, bytes));
}

/** A TSV conn.log row set as Zeek's JSON writer would print it (numbers as numbers, unset fields left out). */
function tsvToJson(text: string): string {
  const lines = text.split('\n');
  const fields = (lines.find((l) => l.startsWith('#fields')) ?? '').split('\t').slice(1);
  const numeric = new Set(['id.orig_p', 'id.resp_p', 'orig_bytes', 'resp_bytes', 'missed_bytes', 'orig_pkts', 'orig_ip_bytes', 'resp_pkts', 'resp_ip_bytes', 'ip_proto', 'duration']);
  return lines
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const values = l.split('\t');
      const obj: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        const v = values[i] ?? '-';
        if (v === '-') return;
        obj[f] = numeric.has(f) ? Number(v) : f === 'local_orig' || f === 'local_resp' ? v === 'T' : v === '(empty)' ? '' : v;
      });
      return JSON.stringify(obj);
    })
    .join('\n');
}

describe.skipIf(!pcapCorpusAvailable())('conn.log from the Zeek corpus', () => {
  it('recognises conn.log by content: TSV (even after a comment line), JSON lines; not other logs, not pcap', () => {
    expect(detectZeekConnLog(enc(zeekBaseline('wikipedia', 'conn.log')))).toBe('tsv');
    expect(detectZeekConnLog(enc(tsvToJson(zeekBaseline('wikipedia', 'conn.log'))))).toBe('json');
    expect(detectZeekConnLog(enc(zeekBaseline('ftp-bruteforce', 'ftp.log')))).toBeUndefined();
    expect(detectZeekConnLog(enc('{"ts": 1, "uid": "C1", "query": "example.com"}\n'))).toBeUndefined();
    expect(detectZeekConnLog(readFileSync(corpusFile('get.pcap')))).toBeUndefined();
  });

  it('wikipedia conn.log (zeek -b, with extension fields): its 34 rows equal the connections we build from wikipedia.pcap in bare mode', () => {
    const log = analyzeConnLogBytes(enc(zeekBaseline('wikipedia', 'conn.log')));
    const pcap = analyzeCaptureBytes(new Uint8Array(readFileSync(corpusFile('wikipedia.pcap'))), { likelyServerPorts: new Set() });
    expect(log.connections).toHaveLength(34);
    logVsPcap(log.connections, pcap.connections);
    // Durations agree to the microsecond Zeek prints.
    const durations = new Map(pcap.connections.map((c) => [shape(c).tuple + c.connState, c.duration]));
    for (const c of log.connections) expect(c.duration).toBeCloseTo(durations.get(shape(c).tuple + c.connState) ?? -1, 5);
    // The baseline's times are canonified (XXXXXXXXXX.XXXXXX): each such row is kept, its time unset, and counted.
    expect(log.warnings.map((w) => [w.code, w.count])).toEqual([['zeek_value_unreadable', 34]]);
    expect(log.info.format).toBe('zeek_conn');
    expect(log.packets.total).toBe(pcap.packets.tcp + pcap.packets.udp + pcap.packets.icmp);
    expect(log.app.dns).toHaveLength(0);
  });

  it('pcapng-multi-interface conn.log: 3 DNS connections equal the pcapng trace, service dns', async () => {
    const log = analyzeConnLogBytes(enc(zeekBaseline('pcapng-multi-interface', 'conn.log')));
    const pcap = await analyzeCaptureFile(corpusFile('pcapng-multi-interface.pcapng'));
    logVsPcap(log.connections, pcap.connections);
    expect(log.connections.map((c) => c.service)).toEqual([['dns'], ['dns'], ['dns']]);
  });

  it('the JSON form of the same logs gives the same records (flat dotted names, or a nested id object)', () => {
    expect.hasAssertions();
    for (const [dir, file] of [
      ['wikipedia', 'conn.log'],
      ['pcapng-multi-interface', 'conn.log'],
    ] as const) {
      const tsv = analyzeConnLogBytes(enc(zeekBaseline(dir, file)));
      const json = analyzeConnLogBytes(enc(tsvToJson(zeekBaseline(dir, file))));
      expect(json.connections.map((c) => shape(c))).toEqual(tsv.connections.map((c) => shape(c)));
      expect(json.connections.map((c) => c.uid)).toEqual(tsv.connections.map((c) => c.uid));
      const nested = tsvToJson(zeekBaseline(dir, file))
        .split('\n')
        .map((l) => {
          const o = JSON.parse(l) as Record<string, unknown>;
          const id = { orig_h: o['id.orig_h'], orig_p: o['id.orig_p'], resp_h: o['id.resp_h'], resp_p: o['id.resp_p'] };
          for (const k of ['id.orig_h', 'id.orig_p', 'id.resp_h', 'id.resp_p']) delete o[k];
          return JSON.stringify({ ...o, id });
        })
        .join('\n');
      expect(analyzeConnLogBytes(enc(nested)).connections.map((c) => shape(c))).toEqual(tsv.connections.map((c) => shape(c)));
    }
  });

  it('reads a file in small chunks the same as in one piece, and hashes it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'replay-zeek-'));
    try {
      const file = path.join(dir, 'conn.log');
      writeFileSync(file, zeekBaseline('wikipedia', 'conn.log'));
      const whole = analyzeConnLogBytes(readFileSync(file));
      const chunked = await analyzeConnLogFile(file, { chunkBytes: 64 });
      expect(chunked.connections.map((c) => shape(c))).toEqual(whole.connections.map((c) => shape(c)));
      expect(chunked.sha256).toBe(whole.sha256);
      expect(chunked.sha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('conn.log written and read back', () => {
  it.skipIf(!pcapCorpusAvailable())('every corpus trace: our connections written as TSV and as JSON read back equal (times to the microsecond)', async () => {
    expect.hasAssertions();
    for (const name of ['wikipedia.pcap', 'sshguess.pcap', 'ftp-bruteforce.pcap', 'nmap-vsn.pcap', 'pcapng-multi-interface.pcapng']) {
      const pcap = await analyzeCaptureFile(corpusFile(name));
      for (const form of ['tsv', 'json'] as const) {
        const back = analyzeConnLogBytes(enc(connLogText(pcap.connections, form)));
        expect(back.warnings, `${name} ${form}`).toEqual([]);
        expect(byTuple(back.connections), `${name} ${form}`).toEqual(byTuple(pcap.connections));
        expect(back.connections.map((c) => c.startTs)).toEqual([...pcap.connections].sort((a, b) => a.startTs - b.startTs).map((c) => expect.closeTo(c.startTs, 5) as unknown as number));
        expect(back.packets.total).toBe(pcap.packets.tcp + pcap.packets.udp + pcap.packets.icmp + pcap.packets.otherIp);
      }
    }
  });
});

describe('damaged conn.logs: counted warnings or a clear parse_error, never a crash or a hang', () => {
  const header = '#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\tconn\n#fields\tts\tuid\tid.orig_h\tid.orig_p\tid.resp_h\tid.resp_p\tproto\tservice\tconn_state\torig_pkts\tresp_pkts\n';
  const good = '1700000000.5\tC1\t10.0.0.1\t5000\t10.0.0.2\t22\ttcp\tssh\tSF\t10\t9\n';

  it('skips rows with the wrong field count, a bad address, port or protocol, and unreadable JSON; counts each', () => {
    const text =
      header +
      good +
      '1700000001\tC2\t10.0.0.1\t5001\n' + // too few fields
      '1700000002\tC3\t10.0.0.999\t5002\t10.0.0.2\t22\ttcp\t-\tS0\t1\t0\n' + // bad address
      '1700000003\tC4\t10.0.0.1\t70000\t10.0.0.2\t22\ttcp\t-\tS0\t1\t0\n' + // bad port
      '1700000004\tC5\t10.0.0.1\t5004\t10.0.0.2\t22\t-\t-\tS0\t1\t0\n' + // no protocol
      'soon\tC6\t10.0.0.1\t5005\t10.0.0.2\t22\ttcp\t-\tS0\tmany\t0\n'; // unreadable time and count: kept
    const r = analyzeConnLogBytes(enc(text));
    expect(r.connections.map((c) => c.uid)).toEqual(['C6', 'C1']);
    expect(r.connections[0]?.startTs).toBe(0);
    expect(r.connections[0]?.orig.packets).toBe(0);
    expect(Object.fromEntries(r.warnings.map((w) => [w.code, w.count]))).toEqual({ zeek_row_malformed: 4, zeek_value_unreadable: 2 });
    const json = analyzeConnLogBytes(enc('{"ts":1,"uid":"J1","id.orig_h":"::FFFF:10.0.0.1","id.orig_p":1,"id.resp_h":"2001:DB8:0:0::1","id.resp_p":443,"proto":"tcp"}\n{"ts":2,"id.orig_h":\n[1,2]\n{"ts":3}\n'));
    // Addresses in the capture parser's canonical text (RFC 5952, mapped IPv4 in hex), so both inputs name a host alike.
    expect(json.connections.map((c) => [c.origH, c.respH])).toEqual([['::ffff:a00:1', '2001:db8::1']]);
    expect(json.warnings.map((w) => [w.code, w.count])).toEqual([['zeek_row_malformed', 3]]);
  });

  it('a protocol named after an Object.prototype member is another protocol, of IP protocol number 0', () => {
    const rows = ['constructor', 'toString', '__proto__'].map((p, i) => `170000000${i}\tP${i}\t10.0.0.1\t500${i}\t10.0.0.2\t22\t${p}\t-\tS0\t1\t0\n`).join('');
    const r = analyzeConnLogBytes(enc(header + rows));
    expect(r.connections.map((c) => [c.uid, c.proto, c.ipProto])).toEqual([['P0', 'other', 0], ['P1', 'other', 0], ['P2', 'other', 0]]);
    expect(() => JSON.stringify(r)).not.toThrow();
  });

  it('a time past the year 9999, a duration that ends past it and a count past 2^53 are unreadable, so the analysis keeps to its schema and its stories export', () => {
    const row = (i: number, extra: Record<string, unknown>): string =>
      JSON.stringify({ uid: `F${i}`, 'id.orig_h': '10.0.0.1', 'id.orig_p': 5000 + i, 'id.resp_h': '10.0.0.2', 'id.resp_p': 100 + i, proto: 'tcp', conn_state: 'S0', ts: 1_700_000_000 + i, ...extra });
    const damage = [{ ts: 1e13 }, { ts: 1e308 }, { ts: '9'.repeat(400) }, { duration: 1e308 }, { duration: 3e11 }, { orig_bytes: 1e308 }, { resp_pkts: 2 ** 60 }, { orig_ip_bytes: 1e300 }];
    const text = Array.from({ length: 20 }, (_, i) => row(i, damage[i] ?? {})).join('\n');
    const r = analyzeConnLogBytes(enc(text));
    expect(r.connections).toHaveLength(20);
    expect(r.warnings.map((w) => [w.code, w.count])).toEqual([['zeek_value_unreadable', damage.length]]);
    expect(r.connections.map((c) => c.startTs).slice(0, 3)).toEqual([0, 0, 0]);
    for (const c of r.connections) {
      expect(c.lastTs).toBeLessThan(253_402_300_799);
      expect(Number.isSafeInteger(c.orig.bytes + c.orig.ipBytes + c.resp.packets)).toBe(true);
    }
    const a = analyzeBytes(enc(text));
    expect(analysisSchema.safeParse(a).success).toBe(true);
    expect(a.stories.length).toBeGreaterThan(0);
    for (const s of a.stories) expect(() => storyToStix(s)).not.toThrow();
  });

  it('a row before #fields, an over-long line and CRLF line ends', () => {
    const r = analyzeConnLogBytes(enc(`#separator \\x09\n${good}${header.split('\n').slice(1).join('\r\n')}${'x'.repeat(MAX_ZEEK_LINE_BYTES + 10)}\n${good.replace('\n', '\r\n')}`), { chunkBytes: 1000 });
    expect(r.connections).toHaveLength(1);
    expect(r.connections[0]?.service).toEqual(['ssh']);
    expect(Object.fromEntries(r.warnings.map((w) => [w.code, w.count]))).toEqual({ zeek_row_before_header: 1, zeek_line_too_long: 1 });
  });

  it('refuses what is not a conn.log with parse_error and a message that repeats nothing of the input', () => {
    expect.hasAssertions();
    const cases = ['', 'SECRET plain text\n', '#separator \\x09\n#path\tdns\n#fields\tts\tquery\n', '#separator \\x09\n#fields\tts\tSECRET\n', '#separator \\x09\n#path\tconn\n'];
    for (const text of cases) {
      let caught: unknown;
      try {
        analyzeConnLogBytes(enc(text));
      } catch (err) {
        caught = err;
      }
      expect((caught as { code?: string }).code, JSON.stringify(text)).toBe('parse_error');
      expect(String((caught as Error).message)).not.toContain('SECRET');
    }
  });

  it('every cut of a log and seeded byte flips give records and warnings, never an exception other than parse_error', () => {
    expect.hasAssertions();
    const text = enc(header + good.repeat(5) + tsvToJson(header + good) + '\n');
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    const inputs: Uint8Array[] = [];
    for (let cut = 0; cut <= text.length; cut += 7) inputs.push(text.subarray(0, cut));
    for (let i = 0; i < 40; i++) {
      const copy = text.slice();
      for (let k = 0; k < 6; k++) copy[Math.floor(rand() * copy.length)] = Math.floor(rand() * 256);
      inputs.push(copy);
    }
    for (const input of inputs) {
      try {
        const r = analyzeConnLogBytes(input);
        expect(r.connections.length).toBeLessThanOrEqual(6);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('parse_error');
      }
    }
  });
});
