// Damaged input: truncated and bit-flipped copies of every corpus capture, random records and hostile streams end in counted warnings or a parse_error, never a crash or a hang.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { analyzeCaptureBytes, type CaptureAnalysis } from './analyze.js';
import { ascii, ETH_IPV4, ethernet, ipv4, TCP_ACK, TCP_PSH, TCP_SYN, tcpFrame, udp } from './craft.js';
import { mulberry32 } from '../../core/random.js';
import { corpusFile, groundTruth, pcapCorpusAvailable } from './capture.fixture.js';
import { PcapngBuilder, writePcap, type PacketToWrite } from './writer.js';
import { analyzeBytes } from '../analyze.js';
import { storyToStix } from '../export/stix.js';
import { generateIntrusion } from '../intrusion.js';

const corpus = pcapCorpusAvailable();

/** Runs the analysis; a parse_error is an accepted outcome, any other throw fails the test. */
function tolerant(bytes: Uint8Array): CaptureAnalysis | 'parse_error' {
  try {
    return analyzeCaptureBytes(bytes, { chunkBytes: 4096 });
  } catch (err) {
    if (err instanceof VitrineError && err.code === 'parse_error') return 'parse_error';
    throw err;
  }
}

/** Offsets where a record or block starts (and the file end): a cut there loses nothing mid-record. */
function boundaries(b: Uint8Array): Set<number> {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Set<number>();
  if (view.getUint32(0, false) === 0x0a0d0d0a) {
    const little = view.getUint32(8, true) === 0x1a2b3c4d;
    for (let pos = 0; pos + 8 <= b.length; pos += view.getUint32(pos + 4, little)) out.add(pos);
  } else {
    const little = view.getUint32(0, true) === 0xa1b2c3d4;
    for (let pos = 24; pos + 16 <= b.length; pos += 16 + view.getUint32(pos + 8, little)) out.add(pos);
  }
  out.add(b.length);
  return out;
}

function sane(r: CaptureAnalysis): void {
  const placed = r.connections.reduce((n, c) => n + c.orig.packets + c.resp.packets, 0);
  expect(placed).toBeLessThanOrEqual(r.packets.total);
  expect(r.warningCount).toBe(r.warnings.reduce((n, w) => n + w.count, 0));
  for (const w of r.warnings) expect(w.message).not.toMatch(/\d{3,}/);
}

describe.skipIf(!corpus)('damaged copies of the corpus', () => {
  const names = corpus ? Object.keys(groundTruth()) : [];

  it('a copy cut at any of many offsets keeps the packets before the cut and counts the cut', () => {
    expect.hasAssertions();
    const rand = mulberry32(8);
    for (const name of names) {
      const full = new Uint8Array(readFileSync(corpusFile(name)));
      const whole = analyzeCaptureBytes(full);
      const clean = boundaries(full);
      const offsets = new Set([0, 1, 3, 4, 23, 24, 25, 39, 40, 41, full.length - 1, full.length - 4]);
      while (offsets.size < 40) offsets.add(Math.floor(rand() * full.length));
      for (const cut of offsets) {
        const r = tolerant(full.subarray(0, cut));
        if (r === 'parse_error') {
          // Only a cut inside the file header leaves nothing to read.
          const headerEnd = whole.info.format === 'pcap' ? 24 : Math.min(...[...clean].filter((o) => o > 0));
          expect(cut, `${name} cut at ${cut}`).toBeLessThan(headerEnd);
          continue;
        }
        sane(r);
        expect(r.packets.total, `${name} cut at ${cut}`).toBeLessThanOrEqual(whole.packets.total);
        const codes = r.warnings.map((w) => w.code);
        if (clean.has(cut)) expect(codes, `${name} cut at ${cut}`).toEqual([]);
        else expect(codes, `${name} cut at ${cut}`).toContain('truncated_file');
      }
    }
  });

  it('bit-flipped copies (seeded) end in warnings or a parse_error, never a crash', () => {
    const rand = mulberry32(2024);
    let warned = 0;
    for (const name of names) {
      const full = new Uint8Array(readFileSync(corpusFile(name)));
      for (let round = 0; round < 30; round++) {
        const copy = full.slice();
        const flips = 1 + Math.floor(rand() * 24);
        for (let i = 0; i < flips; i++) {
          // Half the flips land in the first 512 bytes, where the headers and first records are.
          const at = rand() < 0.5 ? Math.floor(rand() * Math.min(512, copy.length)) : Math.floor(rand() * copy.length);
          copy[at] = (copy[at] ?? 0) ^ (1 << Math.floor(rand() * 8));
        }
        const r = tolerant(copy);
        if (r !== 'parse_error') {
          sane(r);
          if (r.warningCount > 0) warned += 1;
        }
      }
    }
    // The flips must have reached the parsers: many copies produce warnings.
    expect(warned).toBeGreaterThan(20);
  });

  it('random bytes after a valid header, as pcap and as pcapng, stop cleanly', () => {
    expect.hasAssertions();
    const rand = mulberry32(99);
    for (let round = 0; round < 40; round++) {
      const junk = Uint8Array.from({ length: 2000 + Math.floor(rand() * 4000) }, () => Math.floor(rand() * 256));
      const pcapHead = writePcap([]);
      const pcap = new Uint8Array(pcapHead.length + junk.length);
      pcap.set(pcapHead);
      pcap.set(junk, pcapHead.length);
      const r1 = tolerant(pcap);
      expect(r1).not.toBe('parse_error');
      if (r1 !== 'parse_error') sane(r1);
      const ngHead = new PcapngBuilder().section().interface().result();
      const ng = new Uint8Array(ngHead.length + junk.length);
      ng.set(ngHead);
      ng.set(junk, ngHead.length);
      const r2 = tolerant(ng);
      if (r2 !== 'parse_error') {
        sane(r2);
        expect(r2.warningCount).toBeGreaterThan(0);
      }
    }
  });
});

describe('times a pcapng cannot mean', () => {
  const A = '10.9.9.1';
  const B = '10.9.9.2';
  const syn = (i: number, tsSec: number, interfaceId = 0): PacketToWrite => ({ tsSec, tsNsec: 0, interfaceId, data: tcpFrame(A, B, { sport: 4000 + i, dport: 80, seq: 0, flags: TCP_SYN }) });

  it('a time past 9999 or before year 0 (if_tsoffset, or 64-bit units of whole seconds) is counted and the packet kept at time 0', () => {
    const ng = new PcapngBuilder().section().interface({ tsOffset: 2 ** 62 }).interface({ tsresol: 0x80 });
    ng.epb(syn(0, 1_700_000_000)).epb(syn(1, 2 ** 40, 1)).epb(syn(2, 1_700_000_001, 1));
    const r = analyzeCaptureBytes(ng.result());
    expect(r.packets.total).toBe(3);
    expect(r.connections.map((c) => c.startTs)).toEqual([0, 0, 1_700_000_001]);
    expect(r.warnings.find((w) => w.code === 'timestamp_out_of_range')).toMatchObject({ count: 2, firstPacket: 0 });
    const back = analyzeCaptureBytes(new PcapngBuilder().section().interface({ tsOffset: -(2 ** 62) }).epb(syn(0, 1_700_000_000)).result());
    expect(back.firstTs).toBe(0);
    expect(back.warnings.map((w) => w.code)).toEqual(['timestamp_out_of_range']);
  });

  it('every story of such a capture exports to STIX', () => {
    const { packets } = generateIntrusion({ benign: 0 });
    const ng = new PcapngBuilder().section().interface({ tsOffset: 2 ** 62 });
    for (const p of packets) ng.epb(p);
    const a = analyzeBytes(ng.result());
    expect(a.stories.length).toBeGreaterThan(0);
    for (const s of a.stories) expect(() => storyToStix(s)).not.toThrow();
  });
});

describe('hostile streams and floods stay bounded', () => {
  const A = '10.9.9.1';
  const B = '10.9.9.2';
  const frames = (list: Uint8Array[]): PacketToWrite[] => list.map((data, i) => ({ tsSec: 1_700_000_000, tsNsec: i * 1000, data }));

  it('an endless HTTP header line is cut off with a warning', () => {
    const line = ascii(`GET /${'a'.repeat(9000)}`);
    const segs = [tcpFrame(A, B, { sport: 1, dport: 80, seq: 0, flags: TCP_SYN })];
    for (let i = 0; i < 10; i++) segs.push(tcpFrame(A, B, { sport: 1, dport: 80, seq: 1 + i * 1000, flags: TCP_ACK | TCP_PSH }, line.subarray(i * 1000, (i + 1) * 1000)));
    const r = analyzeCaptureBytes(writePcap(frames(segs)));
    expect(r.warnings.map((w) => w.code)).toContain('http_malformed');
    expect(r.app.http).toEqual([]);
  });

  it('thousands of out-of-order segments that never fill their hole are delivered with gaps, not held without bound', () => {
    const segs = [tcpFrame(A, B, { sport: 2, dport: 80, seq: 0, flags: TCP_SYN })];
    // Every segment leaves a 10-byte hole before it.
    for (let i = 0; i < 3000; i++) segs.push(tcpFrame(A, B, { sport: 2, dport: 80, seq: 11 + i * 110, flags: TCP_ACK }, new Uint8Array(100).fill(0x41)));
    const r = analyzeCaptureBytes(writePcap(frames(segs)));
    expect(r.connections).toHaveLength(1);
    const gaps = r.warnings.find((w) => w.code === 'stream_gap');
    expect(gaps?.count ?? 0).toBeGreaterThan(0);
  });

  it('a flood of first fragments that never complete is evicted with a warning', () => {
    const list: Uint8Array[] = [];
    for (let i = 0; i < 5000; i++) list.push(ethernet(ETH_IPV4, ipv4({ src: A, dst: B, protocol: 17, id: i, moreFragments: true }, udp(A, B, 1, 53, new Uint8Array(64)))));
    const r = analyzeCaptureBytes(writePcap(frames(list)));
    expect(r.warnings.map((w) => w.code)).toContain('fragment_limit');
    expect(r.fragments.incompleteFrames).toBe(5000);
    expect(r.connections).toEqual([]);
  });

  it('a TLS record announcing an oversized handshake is reported malformed', () => {
    const bad = Uint8Array.of(0x16, 3, 1, 0, 8, 1, 0xff, 0xff, 0xff, 3, 3, 0, 0);
    const segs = [tcpFrame(A, B, { sport: 3, dport: 443, seq: 0, flags: TCP_SYN }), tcpFrame(A, B, { sport: 3, dport: 443, seq: 1, flags: TCP_ACK | TCP_PSH }, bad)];
    const r = analyzeCaptureBytes(writePcap(frames(segs)));
    expect(r.warnings.map((w) => w.code)).toContain('tls_malformed');
  });

  it('a flow table at its limit closes the longest-idle connections early, with a warning', () => {
    const list: Uint8Array[] = [];
    for (let i = 0; i < 50; i++) list.push(tcpFrame(A, B, { sport: 1000 + i, dport: 80, seq: 0, flags: TCP_SYN }));
    const r = analyzeCaptureBytes(writePcap(frames(list)), { maxActiveFlows: 10 });
    expect(r.connections).toHaveLength(50);
    expect(r.warnings.find((w) => w.code === 'flow_limit')?.count).toBe(40);
  });
});
