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
