// The pcap/pcapng reader against the corpus ground truth, tshark, hand-built files of every block type, and damage.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { CaptureReader, detectFormat } from './reader.js';
import { feedBytes, feedFile } from './source.js';
import type { CaptureInfo, RawPacket } from './types.js';
import { WarningCounter } from './warnings.js';
import { PcapngBuilder, writePcap, type PacketToWrite } from './writer.js';
import { corpusFile, groundTruth, pcapCorpusAvailable, tshark } from './capture.fixture.js';
import { skipWithout } from '../../../test/oracles.js';

interface Summary {
  packets: Array<{ index: number; offset: number; iface: number; link: number; sec: number; nsec: number; cap: number; orig: number; sha: string }>;
  info: CaptureInfo | undefined;
  warnings: WarningCounter;
}

function readBytes(bytes: Uint8Array, chunkBytes?: number): Summary {
  const warnings = new WarningCounter();
  const packets: Summary['packets'] = [];
  const reader = new CaptureReader(warnings, (p: RawPacket) => {
    packets.push({
      index: p.index,
      offset: p.offset,
      iface: p.interfaceId,
      link: p.linkType,
      sec: p.tsSec,
      nsec: p.tsNsec,
      cap: p.capturedLength,
      orig: p.originalLength,
      sha: createHash('sha1').update(p.data).digest('hex'),
    });
  });
  feedBytes(reader, bytes, chunkBytes === undefined ? {} : { chunkBytes });
  return { packets, info: reader.info, warnings };
}

const corpus = pcapCorpusAvailable();
/** tshark is an oracle: without it its tests skip locally and fail under VITRINE_REQUIRE_ORACLES=1 (test/oracles.ts). */
const tsharkSkips = skipWithout('tshark');

describe.skipIf(!corpus)('capture reader on the corpus', () => {
  const truth = corpus ? groundTruth() : {};

  for (const [name, t] of Object.entries(truth)) {
    it(`${name}: format, packet count, link types and time span match GROUND_TRUTH.json`, async () => {
      const warnings = new WarningCounter();
      const seen: RawPacket[] = [];
      const reader = new CaptureReader(warnings, (p) => seen.push({ ...p, data: p.data.slice() }));
      await feedFile(reader, corpusFile(name), { chunkBytes: 4096 });
      expect(reader.info?.format).toBe(t.format);
      expect(seen.length).toBe(t.packets);
      expect(warnings.total).toBe(0);
      if (t.format === 'pcap') {
        expect(reader.info?.interfaces[0]?.linkType).toBe(t.linktype);
        expect(reader.info?.nanosecond).toBe(t.nanosecond);
        expect(seen[0]?.ts).toBeCloseTo(t.first_ts ?? 0, 5);
        expect(seen.at(-1)?.ts).toBeCloseTo(t.last_ts ?? 0, 5);
      } else {
        expect(reader.info?.sections).toBe(t.sections);
        expect(reader.info?.interfaces.map((i) => i.linkType)).toEqual(t.interfaces_linktypes);
      }
    });
  }

  it('gives identical packets whatever the chunk size (records cross chunk boundaries)', () => {
    expect.hasAssertions();
    for (const name of ['wikipedia.pcap', 'cooper-grill-dvwa.pcapng']) {
      const bytes = new Uint8Array(readFileSync(corpusFile(name)));
      const whole = readBytes(bytes);
      for (const chunk of [1, 7, 64, 1000]) {
        const parts = readBytes(bytes, chunk);
        expect(parts.packets).toEqual(whole.packets);
      }
    }
  });

  it.skipIf(!corpus || tsharkSkips)('matches tshark frame by frame: time, captured and original length, interface', { timeout: 180_000 }, async () => {
    expect.hasAssertions();
    for (const name of Object.keys(truth)) {
      const out = await tshark(['-r', corpusFile(name), '-T', 'fields', '-E', 'separator=,', '-e', 'frame.time_epoch', '-e', 'frame.cap_len', '-e', 'frame.len', '-e', 'frame.interface_id']);
      const rows = out.trim().split('\n').map((l) => l.split(','));
      const ours = readBytes(new Uint8Array(readFileSync(corpusFile(name))));
      expect(ours.packets.length, name).toBe(rows.length);
      ours.packets.forEach((p, i) => {
        const row = rows[i] ?? [];
        const [sec, frac = ''] = (row[0] ?? '').split('.');
        expect(p.sec, `${name} #${i}`).toBe(Number(sec));
        expect(p.nsec, `${name} #${i}`).toBe(Number(frac.padEnd(9, '0').slice(0, 9)));
        expect(p.cap).toBe(Number(row[1]));
        expect(p.orig).toBe(Number(row[2]));
        if ((row[3] ?? '') !== '') expect(p.iface).toBe(Number(row[3]));
      });
    }
  });
});

const frameA = Uint8Array.from({ length: 60 }, (_, i) => i);
const frameB = Uint8Array.from({ length: 43 }, (_, i) => 255 - i);
const samplePackets: PacketToWrite[] = [
  { tsSec: 1_700_000_000, tsNsec: 123_456_000, data: frameA },
  { tsSec: 1_700_000_001, tsNsec: 999_999_000, data: frameB, originalLength: 1500 },
];

describe('pcap variants', () => {
  for (const bigEndian of [false, true]) {
    for (const nanosecond of [false, true]) {
      it(`reads ${bigEndian ? 'big' : 'little'}-endian ${nanosecond ? 'nanosecond' : 'microsecond'} pcap`, () => {
        const s = readBytes(writePcap(samplePackets, { bigEndian, nanosecond, linkType: 113 }));
        expect(s.info?.byteOrder).toBe(bigEndian ? 'big' : 'little');
        expect(s.info?.nanosecond).toBe(nanosecond);
        expect(s.packets.map((p) => [p.sec, p.nsec, p.cap, p.orig, p.link])).toEqual([
          [1_700_000_000, 123_456_000, 60, 60, 113],
          [1_700_000_001, 999_999_000, 43, 1500, 113],
        ]);
        expect(s.warnings.total).toBe(0);
      });
    }
  }

  it('reads the modified (Kuznetzov) pcap with 24-byte record headers', () => {
    const head = new DataView(new ArrayBuffer(24));
    head.setUint32(0, 0xa1b2cd34, true);
    head.setUint16(4, 2, true);
    head.setUint16(6, 4, true);
    head.setUint32(16, 65535, true);
    head.setUint32(20, 1, true);
    const rec = new DataView(new ArrayBuffer(24));
    rec.setUint32(0, 100, true);
    rec.setUint32(4, 5, true);
    rec.setUint32(8, frameB.length, true);
    rec.setUint32(12, frameB.length, true);
    const bytes = new Uint8Array([...new Uint8Array(head.buffer), ...new Uint8Array(rec.buffer), ...frameB]);
    const s = readBytes(bytes);
    expect(s.packets).toHaveLength(1);
    expect(s.packets[0]?.nsec).toBe(5000);
    expect(s.packets[0]?.sha).toBe(createHash('sha1').update(frameB).digest('hex'));
  });

  it('counts a record cut short at the end as truncated_file and keeps the packets before it', () => {
    const bytes = writePcap(samplePackets);
    const s = readBytes(bytes.subarray(0, bytes.length - 5), 16);
    expect(s.packets).toHaveLength(1);
    expect(s.warnings.count('truncated_file')).toBe(1);
  });

  it('stops cleanly with a warning when a record length does not fit', () => {
    const bytes = writePcap(samplePackets);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    view.setUint32(24 + 16 + 60 + 8, 0x7fffffff, true); // caplen of the second record
    const s = readBytes(bytes);
    expect(s.packets).toHaveLength(1);
    expect(s.warnings.count('record_too_large')).toBe(1);
  });

  it('rejects input that is not a capture with a parse_error that does not echo it', () => {
    const reader = new CaptureReader(new WarningCounter(), () => undefined);
    let caught: unknown;
    try {
      feedBytes(reader, new TextEncoder().encode('GET /secret-path HTTP/1.1\r\n'));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(VitrineError);
    expect((caught as VitrineError).code).toBe('parse_error');
    expect((caught as VitrineError).message).not.toContain('secret');
    expect(() => feedBytes(new CaptureReader(new WarningCounter(), () => undefined), new Uint8Array(0))).toThrow(VitrineError);
    expect(detectFormat(Uint8Array.of(0xd4, 0xc3, 0xb2, 0xa1))).toBe('pcap');
  });
});

function multiSection(): Uint8Array {
  return new PcapngBuilder()
    .section({ bigEndian: true })
    .interface({ linkType: 1, name: 'eth0' })
    .interface({ linkType: 101, tsresol: 9, tsOffset: 10 })
    .epb({ interfaceId: 0, tsSec: 1_600_000_000, tsNsec: 250_000_000, data: frameA })
    .epb({ interfaceId: 1, tsSec: 1_600_000_000, tsNsec: 123_456_789, data: frameB, originalLength: 2000 })
    .nrb([{ ipv4: [10, 0, 0, 1], names: ['host.example', 'alias.example'] }])
    .isb(0, 2)
    .raw(0x40000bad, new Uint8Array(12))
    .section()
    .interface({ linkType: 113, tsresol: 0x80 | 20 })
    .spb(frameB)
    .opb({ interfaceId: 0, tsSec: 1_600_000_100, tsNsec: 500_000_000, data: frameA })
    .epb({ interfaceId: 0, tsSec: 1_600_000_101, data: frameA })
    .result();
}

describe('pcapng', () => {
  it('reads sections in both byte orders with per-interface link types, resolutions and offsets, and every block type', () => {
    const s = readBytes(multiSection());
    expect(s.warnings.list()).toEqual([]);
    expect(s.info?.sections).toBe(2);
    expect(s.info?.interfaces.map((i) => [i.id, i.section, i.linkType, i.unitsPerSecond, i.tsOffset])).toEqual([
      [0, 0, 1, 1e6, 0],
      [1, 0, 101, 1e9, 10],
      [2, 1, 113, 2 ** 20, 0],
    ]);
    expect(s.info?.interfaces[0]?.name).toBe('eth0');
    expect(s.info?.names).toEqual([{ address: '10.0.0.1', names: ['host.example', 'alias.example'] }]);
    expect(s.info?.statisticsBlocks).toBe(1);
    expect(s.info?.skippedBlocks).toBe(1);
    expect(s.packets.map((p) => [p.iface, p.link, p.sec, p.cap, p.orig])).toEqual([
      [0, 1, 1_600_000_000, 60, 60],
      // The writer wrote units without the offset; the reader adds if_tsoffset (10 s).
      [1, 101, 1_600_000_010, 43, 2000],
      [2, 113, 0, 43, 43],
      [2, 113, 1_600_000_100, 60, 60],
      [2, 113, 1_600_000_101, 60, 60],
    ]);
    expect(s.packets[0]?.nsec).toBe(250_000_000);
    expect(s.packets[1]?.nsec).toBe(123_456_789);
    // 2^-20 s units: 0.5 s is exact.
    expect(s.packets[3]?.nsec).toBe(500_000_000);
  });

  it.skipIf(tsharkSkips)('is read the same by tshark (when installed): packet count, times and interfaces', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-pcapng-'));
    try {
      const file = path.join(dir, 'multi.pcapng');
      // tshark applies if_tsoffset too; SPBs carry no time, so leave them out of this comparison.
      const bytes = new PcapngBuilder()
        .section({ bigEndian: true })
        .interface({ linkType: 1 })
        .interface({ linkType: 1, tsresol: 9 })
        .epb({ interfaceId: 0, tsSec: 1_600_000_000, tsNsec: 250_000_000, data: frameA })
        .epb({ interfaceId: 1, tsSec: 1_600_000_000, tsNsec: 123_456_789, data: frameB })
        .section()
        .interface({ linkType: 1, tsresol: 3 })
        .epb({ interfaceId: 0, tsSec: 1_600_000_001, tsNsec: 7_000_000, data: frameA })
        .result();
      writeFileSync(file, bytes);
      const out = await tshark(['-r', file, '-T', 'fields', '-E', 'separator=,', '-e', 'frame.time_epoch', '-e', 'frame.interface_id']);
      const rows = out.trim().split('\n').map((l) => l.split(','));
      const s = readBytes(bytes);
      expect(rows.map((r) => r[0])).toEqual(s.packets.map((p) => `${p.sec}.${String(p.nsec).padStart(9, '0')}`));
      // tshark 4.0 numbers interfaces within each section; ours run on across sections.
      const local = (id: number): number => {
        const iface = s.info?.interfaces[id];
        return (s.info?.interfaces ?? []).filter((i) => i.section === iface?.section && i.id < id).length;
      };
      expect(rows.map((r) => Number(r[1]))).toEqual(s.packets.map((p) => local(p.iface)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts damaged blocks and goes on where the length can still be trusted', () => {
    const bytes = new PcapngBuilder()
      .section()
      .interface()
      .epb({ interfaceId: 3, tsSec: 1, data: frameA }) // no such interface
      .raw(6, new Uint8Array(8)) // EPB body too short
      .epb({ interfaceId: 0, tsSec: 2, data: frameA })
      .result();
    // Make the third EPB claim more captured bytes than its block holds.
    const s = readBytes(bytes);
    expect(s.packets).toHaveLength(1);
    expect(s.warnings.count('unknown_interface')).toBe(1);
    expect(s.warnings.count('block_body_short')).toBe(1);

    const mismatch = multiSection();
    const view = new DataView(mismatch.buffer, mismatch.byteOffset);
    const shbLen = view.getUint32(4, false);
    view.setUint32(shbLen - 4, 12345, false); // SHB trailer
    expect(readBytes(mismatch).warnings.count('block_trailer_mismatch')).toBe(1);
  });

  it('stops cleanly on a block length that is not a multiple of 4, or too large', () => {
    expect.hasAssertions();
    for (const bad of [13, 0x7ffffff0]) {
      const bytes = multiSection();
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const shbLen = view.getUint32(4, false);
      const idbLen = view.getUint32(shbLen + 4, false);
      view.setUint32(shbLen + idbLen + 4, bad, false); // length of the first EPB
      const s = readBytes(bytes, 100);
      expect(s.packets).toHaveLength(0);
      expect(s.warnings.count(bad === 13 ? 'block_length_invalid' : 'record_too_large')).toBe(1);
    }
  });

  it('counts a file cut inside a block as truncated_file', () => {
    const bytes = multiSection();
    const s = readBytes(bytes.subarray(0, bytes.length - 10), 33);
    expect(s.packets).toHaveLength(4);
    expect(s.warnings.count('truncated_file')).toBe(1);
  });
});
