import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random.js';
import { extractIndicators, trimUrl } from './indicators.js';
import { refang } from './refang.js';

const values = (text: string): string[] => extractIndicators(text).map((i) => `${i.type}=${i.value}`);

describe('indicator extraction', () => {
  it('finds each kind with spans into the original text', () => {
    const text =
      'C2 at 203.0.113.7 and 198.51.100.0/24, 2001:db8::1/64; evil-example.com; https://bad.example.org/x?a=1; ops@mail.example.net; ' +
      'd41d8cd98f00b204e9800998ecf8427e da39a3ee5e6b4b0d3255bfef95601890afd80709 ' +
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 CVE-2021-44228 C:\\Windows\\Temp\\a.exe /tmp/x/run ' +
      'HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';
    const found = extractIndicators(text);
    expect(found.map((i) => i.type)).toEqual(['ipv4', 'ipv4', 'ipv6', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'cve', 'file_path', 'file_path', 'registry_key']);
    for (const i of found) expect(text.slice(i.start, i.end).toLowerCase()).toBe(i.value.toLowerCase());
    expect(found.every((i) => !i.defanged)).toBe(true);
  });

  it('refangs hxxp, [.], (.), [dot], [at], [:] and keeps the span of the defanged text', () => {
    const text = 'Beacon to hxxps[:]//evil[.]example[.]com/gate and 10.20.30(.)40, mail admin[at]bad[dot]org, host c2(.)example(.)net.';
    const found = extractIndicators(text);
    expect(found.map((i) => `${i.type}=${i.value}`)).toEqual(['url=https://evil.example.com/gate', 'ipv4=10.20.30.40', 'email=admin@bad.org', 'domain=c2.example.net']);
    expect(found.every((i) => i.defanged)).toBe(true);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe('hxxps[:]//evil[.]example[.]com/gate');
    expect(text.slice(found[2]!.start, found[2]!.end)).toBe('admin[at]bad[dot]org');
    expect(text.slice(found[3]!.start, found[3]!.end)).toBe('c2(.)example(.)net');
  });

  it('reads the spaced word forms: name [at] domain [dot] com', () => {
    const text = 'Write to ops [at] evil [dot] com or visit evil (dot) com.';
    const found = extractIndicators(text);
    expect(found.map((i) => `${i.type}=${i.value}`)).toEqual(['email=ops@evil.com', 'domain=evil.com']);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe('ops [at] evil [dot] com');
  });

  it('does not take file names for domains', () => {
    expect(values('Run setup.py, then invoice.one opens notes.md and run.sh; svchost.exe loads evil.dll from payload.zip')).toEqual([]);
    // a file-like top-level domain is accepted when written defanged
    expect(values('download from files[.]zip')).toEqual(['domain=files.zip']);
    // code identifiers and run-together sentences
    expect(values('System.Management.Automation and the payload.In this case')).toEqual([]);
  });

  it('does not take version numbers for IP addresses', () => {
    expect(values('version 1.2.3.4, v10.0.19041.1, build 6.1.7601.17514, Chrome 120.0.6099.109, 1.2.3.4.5 and 01.02.03.04')).toEqual([]);
    expect(values('256.1.1.1 is no address')).toEqual([]);
  });

  it('does not take hashes inside other ids or numbers', () => {
    expect(values('0xd41d8cd98f00b204e9800998ecf8427e and indicator--8e2e2d2b-17d4-4cbf-938f-98ee46b3cd3f and 12345678901234567890123456789012')).toEqual([]);
    expect(values('xd41d8cd98f00b204e9800998ecf8427e0')).toEqual([]);
  });

  it('rejects garbage URLs and trims trailing punctuation', () => {
    expect(values('http://, http://..., http://foo, http://999.1.1.1/x')).toEqual([]);
    expect(values('(see https://example.com/a_(b).)')).toEqual(['url=https://example.com/a_(b)']);
    expect(values('see https://example.com/page.')).toEqual(['url=https://example.com/page']);
  });

  it('does not report a domain or IP again when it is part of a URL or an e-mail address', () => {
    expect(values('http://203.0.113.9:8080/a and x@example.com')).toEqual(['url=http://203.0.113.9:8080/a', 'email=x@example.com']);
  });

  it('does not take times or C++ scopes for IPv6', () => {
    expect(values('at 12:30:45 std::string and a::b')).toEqual([]);
    expect(values('link-local fe80::1')).toEqual(['ipv6=fe80::1']);
  });

  it('survives truncated and malformed input', () => {
    for (const text of ['hxxp', 'hxxp[:', '[.', '1.2.3.', 'C:\\', 'HKLM\\', '\u0000\uffff\ud800', 'a'.repeat(100_000), '['.repeat(10_000) + '.'])
      expect(() => extractIndicators(text)).not.toThrow();
  });

  it('keeps the offset map exact around replacements', () => {
    const r = refang('a[.]b hxxp://c');
    expect(r.text).toBe('a.b http://c');
    expect([...r.starts.slice(0, 4)]).toEqual([0, 1, 4, 5]);
    expect(r.ends[1]).toBe(4);
  });
});

describe('trimUrl', () => {
  /** The trim as it was: match the trailing punctuation and count the brackets again for each character dropped. */
  function before(url: string): string {
    let u = url;
    for (;;) {
      if (!/[.,;:!?'")\]}>\u2019\u201d]+$/.test(u)) return u;
      const last = u[u.length - 1] as string;
      const n = (ch: string): number => [...u].filter((c) => c === ch).length;
      if ((last === ')' && n('(') >= n(')')) || (last === ']' && n('[') >= n(']'))) return u;
      u = u.slice(0, -1);
    }
  }

  it('strips what the earlier trim stripped, on random URLs', () => {
    const next = mulberry32(29);
    const pieces = ['http://a/', 'x', '(', ')', '[', ']', '.', ',', ';', ':', '!', '?', "'", '"', '}', '>', '\u2019', '\u201d', '-'];
    for (let i = 0; i < 20_000; i++) {
      let url = 'http://h/';
      const n = Math.floor(next() * 10);
      for (let j = 0; j < n; j++) url += pieces[Math.floor(next() * pieces.length)] as string;
      expect(trimUrl(url), JSON.stringify(url)).toBe(before(url));
    }
  });

  it('keeps a closing bracket whose opening one is inside', () => {
    expect(trimUrl('https://en.wikipedia.org/wiki/Foo_(bar)).')).toBe('https://en.wikipedia.org/wiki/Foo_(bar)');
    expect(trimUrl('http://x/a].')).toBe('http://x/a');
  });
});
