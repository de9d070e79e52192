// Sigma value modifiers and conditions case by case, each expected answer from the Sigma specification
// (sigma-specification: Sigma_specification.md and Sigma_modifiers_appendix.md): exists, null, numeric comparisons at
// their boundaries, fieldref with its start/end/contains forms, cased, re, cidr, and not / 1 of / all of / and / or.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { sigmaRuleSetFromTexts, type SigmaInput } from './index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';
const ruleText = (detection: string): string =>
  `title: Test rule\nid: 00000000-0000-4000-8000-000000000002\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n${detection}\n`;
const event = (data: JsonRecord): SigmaInput => ({ kind: 'evtx', host: 'WS01', action: 'process.create', attributes: { eventId: 1, channel: SYSMON, provider: 'Microsoft-Windows-Sysmon', data } });

/** For one detection, which of the events it matches (true/false each). */
function matches(detection: string, events: JsonRecord[]): boolean[] {
  const set = sigmaRuleSetFromTexts([{ source: 't/rule.yml', text: ruleText(detection) }]);
  expect(set.skipped).toEqual([]);
  return events.map((d) => set.match(event(d)).length === 1);
}
const sel = (lines: string, condition = 'sel'): string => `    sel:\n${lines
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}\n    condition: ${condition}`;

describe('exists and null', () => {
  it('exists: true when the field is there (even empty), false when it is absent', () => {
    expect(matches(sel('User|exists: true'), [{ User: 'x' }, { User: '' }, { Other: 'x' }])).toEqual([true, true, false]);
    expect(matches(sel('User|exists: false'), [{ User: 'x' }, { User: '' }, { Other: 'x' }])).toEqual([false, false, true]);
  });
  it('null: an absent or empty field', () => {
    expect(matches(sel('User: null'), [{ User: 'x' }, { User: '' }, { Other: 'x' }])).toEqual([false, true, true]);
  });
});

describe('numeric comparisons at their boundaries', () => {
  const ev = [{ Size: 9 }, { Size: 10 }, { Size: 11 }, { Size: '10' }, { Size: 'ten' }, { Other: 1 }];
  it('gt, gte, lt, lte against 10; a text that is no number and an absent field never match', () => {
    expect(matches(sel('Size|gt: 10'), ev)).toEqual([false, false, true, false, false, false]);
    expect(matches(sel('Size|gte: 10'), ev)).toEqual([false, true, true, true, false, false]);
    expect(matches(sel('Size|lt: 10'), ev)).toEqual([true, false, false, false, false, false]);
    expect(matches(sel('Size|lte: 10'), ev)).toEqual([true, true, false, true, false, false]);
  });
});

describe('fieldref', () => {
  it('equal to another field of the same event, without case unless cased; start, end and contains forms', () => {
    const ev: JsonRecord[] = [
      { A: 'Admin', B: 'admin' },
      { A: 'admin-x', B: 'admin' },
      { A: 'x-admin', B: 'admin' },
      { A: 'x-admin-y', B: 'admin' },
      { A: 'other', B: 'admin' },
      { A: 'admin' },
    ];
    expect(matches(sel('A|fieldref: B'), ev)).toEqual([true, false, false, false, false, false]);
    expect(matches(sel('A|fieldref|cased: B'), ev)).toEqual([false, false, false, false, false, false]);
    expect(matches(sel('A|fieldref|startswith: B'), ev)).toEqual([true, true, false, false, false, false]);
    expect(matches(sel('A|fieldref|endswith: B'), ev)).toEqual([true, false, true, false, false, false]);
    expect(matches(sel('A|fieldref|contains: B'), ev)).toEqual([true, true, true, true, false, false]);
  });
});

describe('re and cidr', () => {
  it('re: a search anywhere, case-sensitive unless |i', () => {
    const ev = [{ C: 'run Powershell -enc AAA' }, { C: 'run powershell -enc AAA' }, { C: 'cmd' }];
    expect(matches(sel("C|re: 'powershell\\s+-enc'"), ev)).toEqual([false, true, false]);
    expect(matches(sel("C|re|i: 'powershell\\s+-enc'"), ev)).toEqual([true, true, false]);
  });
  it('cidr: inside the network only, IPv4 and IPv6 apart', () => {
    const ev = [{ Ip: '10.1.2.3' }, { Ip: '10.1.3.0' }, { Ip: '10.1.2.255' }, { Ip: '::ffff:10.1.2.3' }, { Ip: 'fd00::1' }, { Ip: 'not an ip' }];
    expect(matches(sel("Ip|cidr: '10.1.2.0/24'"), ev)).toEqual([true, false, true, false, false, false]);
    expect(matches(sel("Ip|cidr: 'fd00::/8'"), ev)).toEqual([false, false, false, false, true, false]);
  });
});

describe('conditions', () => {
  const two = (condition: string): string => `    a:\n        X: '1'\n    b:\n        Y: '1'\n    condition: ${condition}`;
  const ev: JsonRecord[] = [
    { X: '1', Y: '1' },
    { X: '1', Y: '0' },
    { X: '0', Y: '1' },
    { X: '0', Y: '0' },
  ];
  it('and, or, not and their precedence (not before and before or)', () => {
    expect(matches(two('a and b'), ev)).toEqual([true, false, false, false]);
    expect(matches(two('a or b'), ev)).toEqual([true, true, true, false]);
    expect(matches(two('a and not b'), ev)).toEqual([false, true, false, false]);
    expect(matches(two('not a or b'), ev)).toEqual([true, false, true, true]);
    expect(matches(two('not (a or b)'), ev)).toEqual([false, false, false, true]);
  });
  it('1 of and all of over a name pattern and over them', () => {
    expect(matches(two('1 of *'), ev)).toEqual([true, true, true, false]);
    expect(matches(two('all of *'), ev)).toEqual([true, false, false, false]);
    expect(matches(two('1 of a*'), ev)).toEqual([true, true, false, false]);
    expect(matches(two('all of them'), ev)).toEqual([true, false, false, false]);
    expect(matches(two('1 of them'), ev)).toEqual([true, true, true, false]);
  });
  it('a list of values is any of them; |all needs every one', () => {
    const ev2 = [{ C: 'a b' }, { C: 'a' }, { C: 'c' }];
    expect(matches(sel("C|contains:\n    - 'a'\n    - 'b'"), ev2)).toEqual([true, true, false]);
    expect(matches(sel("C|contains|all:\n    - 'a'\n    - 'b'"), ev2)).toEqual([true, false, false]);
  });
});
