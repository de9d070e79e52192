// Names every object inherits (`__proto__`, `constructor`) in a rule's logsource, a matched field and a correlation's
// aliases are names like any other: no binding is made from Object.prototype, no matched field or alias is lost.
import { describe, expect, it } from 'vitest';
import { analyzeEvents } from '../analysis/analyze.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { bindingsOf } from './logsource.js';
import { sigmaRuleSetFromTexts, type SigmaInput } from './index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';

describe('Object.prototype names in Sigma rules', () => {
  it('a category named constructor or toString without a product is no Windows category', () => {
    for (const category of ['constructor', 'toString', '__proto__']) {
      expect(bindingsOf({ category })).toBe('product "none" is not produced by our loaders');
    }
    expect(Array.isArray(bindingsOf({ category: 'process_creation' }))).toBe(true);
  });

  it('a matched field named __proto__ is explained as an own key', () => {
    const text = `title: Proto field\nid: 00000000-0000-4000-8000-0000000000ac\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n    selection:\n        __proto__: 'evil'\n        Image|endswith: '\\\\x.exe'\n    condition: selection\n`;
    const set = sigmaRuleSetFromTexts([{ source: 't/p.yml', text }]);
    expect(set.skipped).toEqual([]);
    const data = JSON.parse('{"__proto__": "evil", "Image": "C:\\\\x.exe"}') as Record<string, string>;
    const e: SigmaInput = { kind: 'evtx', host: 'WS01', action: 'process.create', attributes: { eventId: 1, channel: SYSMON, provider: 'Microsoft-Windows-Sysmon', data } };
    expect(set.match(e)).toEqual([0]);
    const explained = set.explain(e, 0);
    expect(Object.hasOwn(explained, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(explained)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(explained))).toEqual(JSON.parse('{"__proto__": "evil", "Image": "C:\\\\x.exe"}'));
  });

  it('a correlation alias named __proto__ maps each rule to its own field; a group-by named constructor is a field', () => {
    const base = (name: string, id: number): string =>
      `title: Base ${name}\nname: ${name}\nid: ${name}-id\nstatus: test\nlevel: informational\nlogsource:\n    product: windows\n    service: security\ndetection:\n    sel:\n        EventID: ${id}\n    condition: sel\n`;
    const corr = (title: string, group: string): string =>
      `title: ${title}\nid: ${title.toLowerCase().replace(/\W+/g, '-')}\nstatus: test\nlevel: high\ntags:\n    - attack.t1136.001\ncorrelation:\n    type: temporal_ordered\n    rules:\n        - created\n        - added\n    group-by:\n        - ${group}\n    timespan: 1h\n    aliases:\n        ${group}:\n            created: TargetSid\n            added: MemberSid\n`;
    const rules = sigmaRuleSetFromTexts([
      { source: 't/created.yml', text: base('created', 4720) },
      { source: 't/added.yml', text: base('added', 4732) },
      { source: 't/p.yml', text: corr('Proto alias', '__proto__') },
      { source: 't/c.yml', text: corr('Constructor alias', 'constructor') },
    ]);
    expect(rules.skipped).toEqual([]);
    // The alias is the rule's own member (kept when the rule is written out), not the prototype of its aliases.
    const proto = rules.correlations.find((c) => c.rule.info.title === 'Proto alias')?.rule.aliases;
    expect(proto !== undefined && Object.keys(proto)).toEqual(['__proto__']);
    expect(proto !== undefined && Object.getPrototypeOf(proto)).toBe(Object.prototype);
    const sec = (t: number, eventId: number, data: Record<string, string>): ReturnType<typeof makeEvent> =>
      makeEvent({ time: at(t), host: 'DC01', action: `security.${eventId}`, attributes: { eventId, provider: 'Microsoft-Windows-Security-Auditing', channel: 'Security', data } });
    // Same account in both events: the aliases join TargetSid to MemberSid. Different accounts: no hit.
    const joined = [sec(0, 4720, { TargetSid: 'S-1-5-21-1-1001' }), sec(60, 4732, { MemberSid: 'S-1-5-21-1-1001' })];
    const apart = [sec(200, 4720, { TargetSid: 'S-1-5-21-1-2002' }), sec(260, 4732, { MemberSid: 'S-1-5-21-1-3003' })];
    const a = analyzeEvents([...joined, ...apart], { sigma: rules });
    const byTitle = new Map((a.detections?.summary() ?? []).map((s) => [s.title, s]));
    expect(byTitle.get('Proto alias')?.count).toBe(1);
    expect(byTitle.get('Constructor alias')?.count).toBe(1);
  });
});
