// Whole outputs pinned by digest: connections, application records, warnings, alerts and stories of every corpus capture, of a generated background capture and of a synthetic intrusion, so parser and rule speed work cannot change what an analysis says.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../analyze.js';
import { intrusionPcap } from '../intrusion.js';
import { analyzeCaptureBytes } from './analyze.js';
import { corpusFile, PCAP_DIR, pcapCorpusAvailable } from './capture.fixture.js';
import { generateBackground } from './synthetic.js';
import { writePcap, type PacketToWrite } from './writer.js';

/** SHA-256 of the parse (every record) and of the service analysis (alerts, stories, flow table) with a fixed id and time. */
function digest(bytes: Uint8Array): { parse: string; analysis: string } {
  const capture = analyzeCaptureBytes(bytes);
  const analysis = analyzeBytes(bytes, { id: 'pin', name: 'pin', now: new Date(Date.UTC(2026, 0, 1)), flowTable: true });
  const sha = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
  return { parse: sha(capture), analysis: sha(analysis) };
}

/** Digests taken from the parser before its allocation work; a change here means an output changed. */
const PINNED: Record<string, { parse: string; analysis: string }> = {
  'cooper-grill-dvwa.pcapng': { parse: '47da73d019ea3d0e', analysis: 'af2e7d19157965ef' },
  'dns-edns-ecs.pcap': { parse: '6d8e9f10769b1100', analysis: '1fb1d9a20654d472' },
  'ecdhe.pcap': { parse: 'bfb19bbf1cbabe5c', analysis: '74b40f86d8a0e885' },
  'ftp-bruteforce.pcap': { parse: 'c8f7d6d0a2d4b2eb', analysis: 'c750f507c4e6c9d9' },
  'get.pcap': { parse: 'd5a1bc8e6d05fa74', analysis: '8720c4f5b656fdcb' },
  'nmap-vsn.pcap': { parse: '041dd4bbb5f44ca3', analysis: '2e44929e194164b2' },
  'pcapng-multi-interface.pcapng': { parse: '5f0d166ba61b0566', analysis: 'bb1aa5e1acddb244' },
  'sshguess.pcap': { parse: '251e5b755a217063', analysis: 'b97d4ff00eab4162' },
  'vnc-scanner.pcap': { parse: '3eebd3ed010312cd', analysis: 'cf5be834c18ec555' },
  'wikipedia.pcap': { parse: 'fb8fc00868b6422a', analysis: '45c22fc11743f0f5' },
  'background': { parse: '2f515d52c06dc71b', analysis: '311dfad5891804ff' },
  // Taken from the rules before their speed work (uid index, beaconing columns); seven rules fire and one story forms.
  'intrusion': { parse: '33fb8d9c597b71f4', analysis: '99816830678a89c0' },
};

const corpus = pcapCorpusAvailable();
const files = corpus ? readdirSync(PCAP_DIR).filter((f) => /\.pcap(ng)?$/.test(f)).sort() : [];

describe.skipIf(!corpus)('pinned outputs of the corpus captures', () => {
  it('cover every capture of the corpus', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(Object.keys(PINNED).filter((k) => k !== 'background' && k !== 'intrusion').sort()).toEqual(files);
  });
  it.each(files)('%s gives the pinned connections, records, alerts and stories', (name) => {
    expect(digest(readFileSync(corpusFile(name)))).toEqual(PINNED[name]);
  });
});

describe('pinned outputs of a generated capture', () => {
  it('a 30,000-packet background capture (HTTP, TLS, DNS, ping) gives the pinned outputs', () => {
    const packets: PacketToWrite[] = [];
    generateBackground({ packets: 30_000, seed: 11 }, (p) => packets.push({ ...p, data: p.data.slice() }));
    expect(digest(writePcap(packets))).toEqual(PINNED['background']);
  });
});

describe('pinned outputs of a synthetic intrusion', () => {
  it('the intrusion over 3,000 benign flows gives the pinned outputs (alerts of seven rules and a story)', () => {
    const { bytes } = intrusionPcap({ benign: 3000, seed: 5 });
    const analysis = analyzeBytes(bytes, { id: 'pin', name: 'pin', now: new Date(Date.UTC(2026, 0, 1)) });
    expect(new Set(analysis.alerts.map((a) => a.rule)).size).toBe(7);
    expect(analysis.stories.length).toBe(1);
    expect(digest(bytes)).toEqual(PINNED['intrusion']);
  });
});
