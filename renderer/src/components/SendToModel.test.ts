import { describe, expect, it } from 'vitest';
import { hostIndicator, prepareFinding, sendable, type Finding } from './SendToModel';

const finding: Finding = {
  title: 'Beacon\u0007 to 203.0.113.7',
  techniques: ['t1071.001', 'T1071.001', 'T99', ' T1059 '],
  indicators: [
    { type: 'ipv4', value: ' 203.0.113.7 ' },
    { type: 'ipv4', value: '203.0.113.7' },
    { type: 'domain', value: '' },
  ],
  source: { service: 'replay', kind: 'story', id: 'S-1', link: '#/replay/story/S-1' },
};

describe('prepareFinding', () => {
  it('normalises, de-duplicates and says what it left out', () => {
    const p = prepareFinding(finding, { kind: 'new', title: '' });
    expect(p.payload.finding.techniques).toEqual(['T1071.001', 'T1059']);
    expect(p.payload.finding.indicators).toEqual([{ type: 'ipv4', value: '203.0.113.7' }]);
    expect(p.payload.finding.title).toBe('Beacon to 203.0.113.7');
    expect(p.payload.target).toEqual({ kind: 'new', title: 'Beacon to 203.0.113.7' });
    expect(p.payload.finding.source.link).toBe('#/replay/story/S-1');
    expect(p.dropped.map((d) => d.reason)).toEqual(['not an ATT&CK technique id', 'empty value']);
    expect(sendable(p)).toBe(true);
  });

  it('drops a link that is neither a route nor http(s), and an empty finding is not sendable', () => {
    const p = prepareFinding({ ...finding, techniques: [], indicators: [], source: { ...finding.source, link: 'javascript:alert(1)' } }, { kind: 'existing', id: 'c1' });
    expect(p.payload.finding.source.link).toBeUndefined();
    expect(p.payload.target).toEqual({ kind: 'existing', id: 'c1' });
    expect(sendable(p)).toBe(false);
  });
});

describe('hostIndicator', () => {
  it('types addresses and names', () => {
    expect(hostIndicator('10.0.0.5')).toEqual({ type: 'ipv4', value: '10.0.0.5' });
    expect(hostIndicator('[fe80::1]')).toEqual({ type: 'ipv6', value: 'fe80::1' });
    expect(hostIndicator('DC01.corp.example')).toEqual({ type: 'domain', value: 'dc01.corp.example' });
  });
});

describe('indicatorsIn: every indicator a finding holds', () => {
  it('finds addresses with ports, IPv6, domains, URLs, hashes, paths, registry keys and e-mails in text', async () => {
    const { indicatorsInText } = await import('./SendToModel');
    const text =
      'Beacon from 10.0.0.5 to 105.73.6.112:80 and 108.179.232.58:443, [2001:db8::7]:8443, fe80::1; DNS for c2.example.net and Update.Bad-Domain.RU; ' +
      'GET hxxp://c2.example.net/gate.php?id=1. Dropped C:\\Users\\Public\\svc.exe and /tmp/.x/payload.sh, ' +
      'Run key HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\svc; sha256 ' + 'AB'.repeat(32) + ' md5 ' + 'c'.repeat(32) + '; mail to ops@victim.org. Time 12:30:45, report.pdf, version 1.2.3.4.5';
    const got = indicatorsInText(text).map((i) => `${i.type} ${i.value}`);
    expect(got).toEqual(
      expect.arrayContaining([
        'ipv4 10.0.0.5',
        'ipv4 105.73.6.112:80',
        'ipv4 108.179.232.58:443',
        'ipv6 [2001:db8::7]:8443',
        'ipv6 fe80::1',
        'domain c2.example.net',
        'domain update.bad-domain.ru',
        'url http://c2.example.net/gate.php?id=1',
        'file_path C:\\Users\\Public\\svc.exe',
        'file_path /tmp/.x/payload.sh',
        'registry_key HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\svc',
        `sha256 ${'ab'.repeat(32)}`,
        `md5 ${'c'.repeat(32)}`,
        'email ops@victim.org',
      ]),
    );
    // Not indicators: a file name with a non-TLD extension, a time, a version, the domain inside the e-mail or URL.
    expect(got.join('|')).not.toMatch(/report\.pdf|12:30:45|1\.2\.3\.4/);
    expect(got).not.toContain('domain victim.org');
    // A hex label of a DNS name is part of the name, not a hash.
    expect(indicatorsInText(`query ${'0679e7450a5bb7b862388f137400179968477c7e'}.0.tunnel-sync.example`)).toEqual([{ type: 'domain', value: '0679e7450a5bb7b862388f137400179968477c7e.0.tunnel-sync.example' }]);
    expect(got.filter((g) => g === 'domain c2.example.net')).toHaveLength(1);
  });

  it('walks a finding object, skips the workspace ids, de-duplicates', async () => {
    const { indicatorsIn } = await import('./SendToModel');
    const story = { id: 'a'.repeat(64), story_id: 'b'.repeat(32), source: { sha256: 'd'.repeat(64) }, title: 'C2 to 105.73.6.112:80', nodes: [{ label: '105.73.6.112:80' }, { label: 'svc.exe' }], alerts: [{ src: '10.0.0.5', evidence: 'query c2.example.net' }] };
    expect(indicatorsIn(story)).toEqual([
      { type: 'ipv4', value: '105.73.6.112:80' },
      { type: 'ipv4', value: '10.0.0.5' },
      { type: 'domain', value: 'c2.example.net' },
    ]);
  });

  it('types each indicator as a STIX pattern', async () => {
    const { stixPattern } = await import('./SendToModel');
    expect(stixPattern({ type: 'ipv4', value: '105.73.6.112:80' })).toBe("[network-traffic:dst_ref.type = 'ipv4-addr' AND network-traffic:dst_ref.value = '105.73.6.112' AND network-traffic:dst_port = 80]");
    expect(stixPattern({ type: 'sha256', value: 'ab' })).toBe("[file:hashes.'SHA-256' = 'ab']");
    expect(stixPattern({ type: 'file_path', value: 'C:\\Users\\a.exe' })).toBe("[file:parent_directory_ref.path = 'C:\\\\Users' AND file:name = 'a.exe']");
    expect(stixPattern({ type: 'package', value: 'pypi:requessts' })).toBe("[software:name = 'pypi:requessts']");
  });
});
