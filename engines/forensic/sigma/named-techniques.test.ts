// Techniques a rule reads from its events (`x-techniques-from`): the ids a sensor's own label names (Sysmon's RuleName),
// validated against the ATT&CK lookup, added to each hit's techniques, and carried to the case techniques, the JSON
// export and the Navigator layer as tag techniques are; rules without the declaration unchanged.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents, toDict } from '../analysis/analyze.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { navigatorLayer } from '../report/navigator.js';
import { windowsEvent, type Ev } from './builtin.fixture.js';
import { parseRuleText, shippedRulesDir, sigmaRuleSetFromTexts, techniquesNamedIn } from './index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';

const sysmon = (t: number, eventId: number, data: JsonRecord, host = 'WS01'): Ev => windowsEvent(t, SYSMON, 'Microsoft-Windows-Sysmon', eventId, data, host);

/** The shipped rule, read from its file (not the bundle), so the test runs on the rule as written. */
const shipped = { source: 'rules-builtin/windows/sysmon/sysmon_config_rule_name.yml', text: readFileSync(path.join(shippedRulesDir(), 'rules-builtin', 'windows', 'sysmon', 'sysmon_config_rule_name.yml'), 'utf8') };

const rule = (extra: string, tags = ''): string => `title: Labelled
id: 00000000-0000-4000-8000-00000000aa01
status: test
logsource:
  product: windows
  service: sysmon
${extra}${tags}detection:
  sel:
    RuleName|re: '[^\\s-]'
  condition: sel
level: informational
`;

describe('techniquesNamedIn', () => {
  it('reads technique ids from sysmon-modular and SwiftOnSecurity style names, each once, in order', () => {
    expect(techniquesNamedIn('technique_id=T1055,technique_name=Process Injection')).toEqual(['T1055']);
    expect(techniquesNamedIn('technique_id=T1003.001,technique_name=LSASS Memory')).toEqual(['T1003.001']);
    expect(techniquesNamedIn('T1547.001,RunKey')).toEqual(['T1547.001']);
    expect(techniquesNamedIn('T1547.001_RunKey')).toEqual(['T1547.001']);
    expect(techniquesNamedIn('Persistence - Run key T1547')).toEqual(['T1547']);
    expect(techniquesNamedIn('technique_id=T1055,T1055.012;T1059.001 and t1003')).toEqual(['T1055', 'T1055.012', 'T1059.001', 'T1003']);
    expect(techniquesNamedIn('T1055 T1055')).toEqual(['T1055']);
  });
  it('ignores unknown ids, names without an id and ids inside a longer word or number', () => {
    expect(techniquesNamedIn('T9999,T0000.000')).toEqual([]);
    expect(techniquesNamedIn('Persistence - Run key')).toEqual([]);
    expect(techniquesNamedIn('-')).toEqual([]);
    expect(techniquesNamedIn('')).toEqual([]);
    expect(techniquesNamedIn('AT1055 XT1003 T10551 KB5011048 T1055a')).toEqual([]);
    // A fourth decimal after the sub-technique: the parent id only.
    expect(techniquesNamedIn('T1055.0121')).toEqual(['T1055']);
  });
  it('keeps revoked ids (the lookup names them as revoked, with the replacement)', () => {
    expect(techniquesNamedIn('T1060,RunKey')).toEqual(['T1060']);
    expect(techniquesNamedIn('technique_id=T1086,technique_name=PowerShell')).toEqual(['T1086']);
  });
  it('a huge or malformed text: no crash, a bounded read', () => {
    const huge = `${'A'.repeat(1_000_000)} T1055`;
    expect(techniquesNamedIn(huge)).toEqual([]);
    expect(techniquesNamedIn('\u0000T1055\u0001\r\n\u202eT1003.001\uffff')).toEqual(['T1055', 'T1003.001']);
    const many = Array.from({ length: 200 }, (_, i) => `T${1000 + i}`).join(',');
    expect(techniquesNamedIn(many).length).toBeLessThanOrEqual(16);
  });
});

describe('x-techniques-from', () => {
  it('is read into the rule info; a rule without it has none', () => {
    const withIt = parseRuleText(rule('x-techniques-from: RuleName\n'), 'u/a.yml').rules[0];
    expect(withIt?.info.techniquesFrom).toEqual(['RuleName']);
    const list = parseRuleText(rule('x-techniques-from: [RuleName, Description]\n'), 'u/b.yml').rules[0];
    expect(list?.info.techniquesFrom).toEqual(['RuleName', 'Description']);
    const without = parseRuleText(rule(''), 'u/c.yml').rules[0];
    expect(without?.info).not.toHaveProperty('techniquesFrom');
  });
  it('a malformed declaration is a rule problem, not a crash', () => {
    const bad = parseRuleText(rule('x-techniques-from: {a: 1}\n'), 'u/d.yml');
    expect(bad.rules).toEqual([]);
    expect(bad.skipped[0]?.reason).toMatch(/x-techniques-from/);
  });
  it('adds the named techniques and their tactics to each hit; other hits and rules keep their own', () => {
    const set = sigmaRuleSetFromTexts([
      { source: 'u/from.yml', text: rule('x-techniques-from: RuleName\n', 'tags:\n- attack.execution\n- attack.t1059\n') },
      { source: 'u/plain.yml', text: rule('', 'tags:\n- attack.execution\n- attack.t1059\n').replace('aa01', 'aa02').replace('Labelled', 'Plain') },
    ]);
    const e = sysmon(1, 10, { RuleName: 'technique_id=T1055,technique_name=Process Injection', SourceImage: 'C:\\x\\a.exe', TargetImage: 'C:\\Windows\\notepad.exe' });
    expect(set.match(e)).toEqual([0, 1]);
    expect(set.hitAttack(e, 0)).toEqual({ techniques: ['T1059', 'T1055'], tactics: ['execution', 'privilege-escalation', 'stealth'] });
    expect(set.hitAttack(e, 1)).toBe(set.rules[1]);
    // A label naming nothing known: the rule's own techniques.
    const unknown = sysmon(2, 10, { RuleName: 'technique_id=T9999,technique_name=Made Up' });
    expect(set.hitAttack(unknown, 0)).toEqual({ techniques: ['T1059'], tactics: ['execution'] });
  });
  it('the shipped rule: fires where RuleName is set, not on empty, "-" or absent names', () => {
    const set = sigmaRuleSetFromTexts([shipped]);
    expect(set.skipped).toEqual([]);
    expect(set.rules[0]?.level).toBe('informational');
    expect(set.rules[0]?.techniquesFrom).toEqual(['RuleName']);
    const fires = (data: JsonRecord, id = 1): boolean => set.match(sysmon(1, id, data)).length > 0;
    expect(fires({ RuleName: 'technique_id=T1055,technique_name=Process Injection' }, 8)).toBe(true);
    expect(fires({ RuleName: 'Persistence - Run key' }, 13)).toBe(true);
    expect(fires({ RuleName: '-' })).toBe(false);
    expect(fires({ RuleName: '' })).toBe(false);
    expect(fires({ RuleName: ' ' })).toBe(false);
    // Older schemas without RuleName, and Sysmon 4/16 that have none.
    expect(fires({ Image: 'C:\\Windows\\notepad.exe' })).toBe(false);
    expect(fires({ State: 'Started' }, 4)).toBe(false);
    // The same field in another channel is not Sysmon's.
    const other = makeEvent({ time: at(1), host: 'WS01', action: 'windows.event', object: { type: 'log', name: 'Security' }, attributes: { eventId: 4688, provider: 'Microsoft-Windows-Security-Auditing', channel: 'Security', data: { RuleName: 'T1055' } } });
    expect(set.match(other)).toEqual([]);
  });
  it('end to end: a Sysmon event labelled T1055 gives a detection with T1055 in the case techniques, the JSON export and the Navigator layer', () => {
    const set = sigmaRuleSetFromTexts([shipped]);
    const events = [
      sysmon(1, 8, { RuleName: 'technique_id=T1055,technique_name=Process Injection', SourceImage: 'C:\\Users\\bob\\a.exe', TargetImage: 'C:\\Windows\\System32\\notepad.exe', StartFunction: 'LoadLibraryW' }),
      sysmon(2, 13, { RuleName: 'T1060,RunKey', EventType: 'SetValue', TargetObject: 'HKU\\S-1-5-21-1\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\u', Details: 'C:\\Users\\bob\\u.exe', Image: 'C:\\Users\\bob\\a.exe' }),
      sysmon(3, 1, { RuleName: '-', Image: 'C:\\Windows\\System32\\notepad.exe', CommandLine: 'notepad.exe' }),
    ];
    const analysis = analyzeEvents(events, { sigma: set });
    const details = analysis.detections?.detailsOf(analysis.events.at(0) as never) ?? [];
    expect(details.map((d) => d.techniques)).toEqual([['T1055']]);
    expect(details[0]?.tactics).toEqual(['privilege-escalation', 'stealth']);
    const view = toDict(analysis);
    // A later summary reads the named techniques kept from the first.
    expect(analysis.detections?.summary()).toEqual(view.detections);
    const row = view.detections.find((d) => d.title === 'Event Labelled By The Sysmon Configuration');
    expect(row?.count).toBe(2);
    expect(row?.techniques).toEqual(['T1055', 'T1060']);
    expect(row?.tactics).toEqual(expect.arrayContaining(['persistence', 'privilege-escalation', 'stealth']));
    // Each named technique counts the hits that name it, not every hit of the rule.
    expect(row?.techniqueHits).toEqual({ T1055: 1, T1060: 1 });
    const t1055 = view.techniques?.find((t) => t.id === 'T1055');
    expect(t1055).toMatchObject({ name: 'Process Injection', rules: 1, hits: 1 });
    // The revoked id is named as revoked, with its replacement.
    expect(view.techniques?.find((t) => t.id === 'T1060')).toMatchObject({ revokedBy: 'T1547.001' });
    const layer = navigatorLayer(view, 'case');
    expect(layer.techniques.some((t) => t.techniqueID === 'T1055')).toBe(true);
    expect(layer.techniques.some((t) => t.techniqueID === 'T1547.001')).toBe(true);
    // Through the JSON text of the export as well.
    expect(JSON.parse(JSON.stringify(view)).detections.find((d: { title: string }) => d.title === row?.title).techniques).toContain('T1055');
  });
  it('malformed RuleName values (huge, control characters) give no crash', () => {
    const set = sigmaRuleSetFromTexts([shipped]);
    const events = [
      sysmon(1, 1, { RuleName: `${'x'.repeat(2_000_000)}T1055` }),
      sysmon(2, 1, { RuleName: '\u0000\u0007technique_id=T1003.001\u001b[31m\r\n' }),
      sysmon(3, 1, { RuleName: ['T1055', { '#text': 'T1059.001' }] as unknown as JsonRecord[string] }),
      sysmon(4, 1, { RuleName: 12345 }),
    ];
    const analysis = analyzeEvents(events, { sigma: set });
    const row = toDict(analysis).detections[0];
    expect(row?.count).toBe(4);
    expect(row?.techniques).toEqual(expect.arrayContaining(['T1003.001', 'T1055', 'T1059.001']));
  });
});
