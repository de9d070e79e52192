// The seeded background generator writes captures that parse back to exactly what it says it generated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCaptureBytes, analyzeCaptureFile } from './analyze.js';
import { NO_TIMEOUTS } from './flows.js';
import { generateBackground } from './synthetic.js';
import { skipWithout } from '../../../test/oracles.js';
import { parseConversations, tshark } from './capture.fixture.js';
import { PcapFileWriter, writePcap, type PacketToWrite } from './writer.js';

describe('synthetic background traffic', () => {
  it('is reproducible from its seed and parses back to its own summary, every TCP session SF', { timeout: 180_000 }, () => {
    const a: PacketToWrite[] = [];
    const b: PacketToWrite[] = [];
    const summary = generateBackground({ packets: 3000, seed: 11 }, (p) => a.push(p));
    generateBackground({ packets: 3000, seed: 11 }, (p) => b.push(p));
    expect(writePcap(a)).toEqual(writePcap(b));
    const r = analyzeCaptureBytes(writePcap(a));
    expect(r.warnings).toEqual([]);
    expect(r.packets.total).toBe(summary.packets);
    const tcp = r.connections.filter((c) => c.proto === 'tcp');
    expect(tcp).toHaveLength(summary.tcpSessions);
    expect(new Set(tcp.map((c) => c.connState))).toEqual(new Set(['SF']));
    expect(r.app.http).toHaveLength(summary.httpRequests);
    expect(r.app.tls).toHaveLength(summary.tlsHellos);
    expect(r.app.tls.every((t) => t.serverName?.endsWith('.example.org'))).toBe(true);
    expect(r.app.dns).toHaveLength(summary.dnsLookups * 2);
    expect(r.connections.filter((c) => c.proto === 'icmp').reduce((n, c) => n + c.orig.packets, 0)).toBe(summary.pings);
  });

  /** Writes the background to a file through PcapFileWriter and reads it back; the file is removed afterwards. */
  async function throughFile(check: (file: string, r: Awaited<ReturnType<typeof analyzeCaptureFile>>) => Promise<void>): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-synth-'));
    try {
      const file = path.join(dir, 'bg.pcap');
      const w = new PcapFileWriter(file);
      const summary = generateBackground({ packets: 2000, seed: 3 }, (p) => w.write(p));
      w.close();
      const r = await analyzeCaptureFile(file, { timeouts: NO_TIMEOUTS });
      expect(r.packets.total).toBe(summary.packets);
      await check(file, r);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('written to a file through PcapFileWriter, parses back to its packet count', async () => {
    expect.hasAssertions();
    await throughFile(async (_file, r) => {
      expect(r.warnings).toEqual([]);
    });
  });

  it.skipIf(skipWithout('tshark'))('written to a file through PcapFileWriter, tshark counts the same TCP conversations', async () => {
    expect.hasAssertions();
    await throughFile(async (file, r) => {
      const conv = parseConversations(await tshark(['-r', file, '-q', '-z', 'conv,tcp']));
      const ours = r.connections.filter((c) => c.proto === 'tcp').length;
      expect(ours).toBeGreaterThan(0);
      expect(conv.get('TCP')?.length).toBe(ours);
    });
  });
});
