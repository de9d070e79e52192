// DNS rules and the name measures behind them: real names are not "generated", seeded random ones are; tunnels and DGA bursts on crafted captures.
import { describe, expect, it } from 'vitest';
import { udpFrame } from '../capture/craft.js';
import { pcapCorpusAvailable } from '../capture/capture.fixture.js';
import { bigramShare, entropy, looksGenerated, splitDomain } from '../dnsnames.js';
import { mulberry32 } from '../../core/random.js';
import { dnsMessage, type Timeline } from '../intrusion.js';
import { corpusAnalysis, detect } from '../replay.fixture.js';
import { dgaDomains, dnsTunnelling } from './dns.js';

const REAL = [
  'google', 'facebook', 'wikipedia', 'wikimedia', 'microsoft', 'windowsupdate', 'amazonaws', 'cloudflare', 'akamaiedge', 'stackoverflow',
  'github', 'githubusercontent', 'doubleclick', 'googlesyndication', 'youtube', 'instagram', 'linkedin', 'twitter', 'netflix', 'spotify',
  'dropbox', 'salesforce', 'office365', 'outlook', 'mozilla', 'ubuntu', 'debian', 'icloud', 'gstatic', 'googleapis', 'msftncsi', 'yahoo',
  'baidu', 'yandex', 'example', 'intranet', 'kubernetes', 'docker', 'npmjs', 'wordpress', 'pinterest', 'whatsapp', 'telegram', 'zoom',
  'adobe', 'oracle', 'shopify', 'paypal', 'ebay', 'reddit', 'twitch', 'steampowered', 'bitbucket', 'atlassian', 'sharepoint', 'live',
  'bing', 'apple', 'nytimes', 'theguardian', 'bbc', 'cnn', 'weather', 'mailchimp', 'sentry', 'datadoghq', 'newrelic', 'fastly',
  'jsdelivr', 'unpkg', 'cloudfront', 'digicert', 'letsencrypt', 'globalsign', 'symantec', 'kaspersky', 'mcafee', 'sophos', 'crowdstrike',
  'vitrine', 'localhost', 'printer', 'fileserver', 'exchange', 'corporate', 'accounting', 'development', 'production', 'staging',
];

function randomLabel(rand: () => number, min: number, max: number, alphabet: string): string {
  const n = min + Math.floor(rand() * (max - min + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}

describe('name measures', () => {
  it('splits registered domains, two-level suffixes included', () => {
    expect(splitDomain('a.b.example.com.')).toEqual({ base: 'example.com', label: 'example', sub: 'a.b' });
    expect(splitDomain('www.bbc.co.uk')).toEqual({ base: 'bbc.co.uk', label: 'bbc', sub: 'www' });
    expect(splitDomain('localhost')).toEqual({ base: 'localhost', label: 'localhost', sub: '' });
  });

  it('entropy and English bigram share behave as expected at the ends', () => {
    expect(entropy('aaaa')).toBe(0);
    expect(entropy('abcd')).toBe(2);
    expect(bigramShare('thereinthe')).toBeGreaterThan(0.8);
    expect(bigramShare('xqzjvkwpfb')).toBe(0);
  });

  it('calls no well-known registered domain label generated', () => {
    expect(REAL.filter((l) => looksGenerated(l))).toEqual([]);
  });

  it('calls at least 90% of seeded random letter labels (10-20) and 90% of hex labels (12-16) generated', () => {
    const rand = mulberry32(42);
    const letters = Array.from({ length: 300 }, () => randomLabel(rand, 10, 20, 'abcdefghijklmnopqrstuvwxyz'));
    const hex = Array.from({ length: 300 }, () => randomLabel(rand, 12, 16, '0123456789abcdef'));
    expect(letters.filter((l) => looksGenerated(l)).length / letters.length).toBeGreaterThanOrEqual(0.9);
    expect(hex.filter((l) => looksGenerated(l)).length / hex.length).toBeGreaterThanOrEqual(0.9);
  });
});

function lookups(names: readonly string[], opts: { qtype?: number; nx?: boolean; gap?: number } = {}) {
  return (t: Timeline): void => {
    names.forEach((name, i) => {
      const at = 1000 + i * (opts.gap ?? 2);
      t.add(at, udpFrame('10.3.0.7', '10.3.0.2', 40000 + i, 53, dnsMessage(i, name, opts.qtype ?? 1)));
      t.add(at + 0.01, udpFrame('10.3.0.2', '10.3.0.7', 53, 40000 + i, dnsMessage(i, name, opts.qtype ?? 1, opts.nx ? { nx: true } : { a: '192.0.2.1' })));
    });
  };
}

describe('dns_tunnelling', () => {
  const rand = mulberry32(5);
  const chunks = Array.from({ length: 25 }, () => randomLabel(rand, 40, 40, '0123456789abcdef'));
  it('fires on 25 long hex subdomains of one domain', () => {
    const [alert] = detect(dnsTunnelling, lookups(chunks.map((c) => `${c}.t.exfil.example`), { qtype: 16 }));
    expect(alert?.src).toBe('10.3.0.7');
    expect(alert?.facts['domain']).toBe('exfil.example');
    expect(alert?.counts).toMatchObject({ queries: 25, unique_subdomains: 25 });
    expect(alert?.facts['query_types']).toEqual(['TXT']);
  });
  it('stays quiet for short or repeated names, and under 20 queries', () => {
    expect(detect(dnsTunnelling, lookups(chunks.map((_, i) => `host${i}.corp.example`)))).toEqual([]);
    expect(detect(dnsTunnelling, lookups(chunks.map(() => `${chunks[0]}.t.exfil.example`)))).toEqual([]);
    expect(detect(dnsTunnelling, lookups(chunks.slice(0, 19).map((c) => `${c}.t.exfil.example`)))).toEqual([]);
  });
});

describe('dga_domains', () => {
  const rand = mulberry32(9);
  const generated = Array.from({ length: 12 }, () => `${randomLabel(rand, 12, 16, 'abcdefghijklmnopqrstuvwxyz')}.com`);
  it('fires on 12 random domains answered NXDOMAIN (high), medium when they resolve', () => {
    const [nx] = detect(dgaDomains, lookups(generated, { nx: true }));
    expect(nx?.severity).toBe('high');
    expect(nx?.counts).toMatchObject({ domains: 12, nxdomain: 12 });
    const [resolved] = detect(dgaDomains, lookups(generated));
    expect(resolved?.severity).toBe('medium');
  });
  it('stays quiet for real names and for 7 random ones', () => {
    expect(detect(dgaDomains, lookups(REAL.slice(0, 40).map((l) => `www.${l}.com`), { nx: true }))).toEqual([]);
    expect(detect(dgaDomains, lookups(generated.slice(0, 7), { nx: true }))).toEqual([]);
  });
});

describe.skipIf(!pcapCorpusAvailable())('DNS rules on the corpus', () => {
  it('wikipedia and dns-edns-ecs browsing raise no alert at all', async () => {
    expect((await corpusAnalysis('wikipedia.pcap')).alerts).toEqual([]);
    expect((await corpusAnalysis('dns-edns-ecs.pcap')).alerts).toEqual([]);
  });
});
