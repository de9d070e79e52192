// The one normaliser every Send to target uses: indicator values checked per type, technique ids resolved through the ATT&CK lookup.
import { describe, expect, it } from 'vitest';
import { AttackLookup } from './attack/lookup.js';
import { MIXED_FINDING } from './findings.fixture.js';
import { normalizeFinding, normalizeIndicator, parseSendFinding } from './findings.js';

const lookup = new AttackLookup([
  {
    version: '18.1',
    source: 'test',
    tactics: [{ id: 'TA0002', shortname: 'execution', name: 'Execution' }],
    techniques: [
      { id: 'T1059', name: 'Command and Scripting Interpreter', tactics: ['execution'] },
      { id: 'T1059.001', name: 'PowerShell', tactics: ['execution'] },
    ],
    revoked: { T1086: 'T1059.001' },
  } as never,
]);

describe('normalizeIndicator', () => {
  it.each([
    ['ipv4', '105.73.6.112:80', '105.73.6.112:80'],
    ['ipv4', ' 10.1.2.3 ', '10.1.2.3'],
    ['ipv6', '[2001:DB8::1]:443', '[2001:db8::1]:443'],
    ['ipv6', '2001:DB8::1', '2001:db8::1'],
    ['domain', 'C2.Example.NET.', 'c2.example.net'],
    ['md5', 'D41D8CD98F00B204E9800998ECF8427E', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['email', 'Admin@Example.org', 'admin@example.org'],
    ['registry_key', 'HKLM\\Software\\Run', 'HKLM\\Software\\Run'],
    ['file_path', 'C:\\Users\\Public\\a.exe', 'C:\\Users\\Public\\a.exe'],
    ['asn', '64500', 'AS64500'],
    ['url', 'http://c2.example.net/gate.php', 'http://c2.example.net/gate.php'],
    ['package', 'pypi:requessts', 'pypi:requessts'],
  ] as const)('%s %s -> %s', (type, value, want) => {
    expect(normalizeIndicator(type, value)).toEqual({ value: want });
  });

  it.each([
    ['sha256', 'ZZZ'],
    ['ipv4', '10.0.0'],
    ['ipv4', '10.0.0.1:70000'],
    ['ipv6', 'abc'],
    ['domain', 'not a domain'],
    ['email', 'nobody'],
    ['registry_key', 'Software\\Run'],
    ['file_path', 'a.exe'],
    ['url', 'c2.example.net'],
    ['asn', 'ASX'],
  ] as const)('%s %s is refused with a reason', (type, value) => {
    expect(normalizeIndicator(type, value)).toEqual({ reason: expect.any(String) });
  });
});

describe('normalizeFinding', () => {
  it('resolves ids through the lookup (any case, revoked to the replacement, unknown skipped) and de-duplicates', () => {
    const n = normalizeFinding(MIXED_FINDING, lookup);
    expect(n.techniques).toEqual([expect.objectContaining({ id: 'T1059.001', name: 'PowerShell', sentAs: 't1059.001' })]);
    expect(n.skipped.map((s) => s.item)).toEqual(['T9999', 'sha256 ZZZ', 'ipv4 10.0.0']);
    expect(n.indicators.map((i) => i.value)).toEqual(['a'.repeat(64), '105.73.6.112:80', 'c2.example.net']);
    const revoked = normalizeFinding({ ...MIXED_FINDING, techniques: ['T1086'] }, lookup);
    expect(revoked.techniques).toEqual([expect.objectContaining({ id: 'T1059.001', note: expect.stringContaining('revoked') })]);
  });

  it('the request schema takes lower-case technique ids and the new indicator types', () => {
    const r = parseSendFinding({ target: { kind: 'new', title: 't' }, finding: { ...MIXED_FINDING, indicators: [{ type: 'package', value: 'npm:evil' }, { type: 'file_path', value: '/tmp/x' }] } });
    expect(r.finding.techniques).toContain('t1059.001');
  });
});
