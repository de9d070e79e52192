// The modifier table against the specification's appendix (sigma-appendix-modifiers.md, v2.1.0) and pySigma's behaviour:
// written order, type checks, aliases, neq over a list, windash on leading dashes only, expand of every placeholder.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { expandTokens, MODIFIERS, parseSigmaString, sigmaRuleSetFromTexts, windashTokens, type Placeholders, type SigmaInput } from './index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';

function ruleText(detection: string): string {
  return `title: Modifier rule\nid: 00000000-0000-4000-8000-0000000000aa\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n    sel:\n${detection}\n    condition: sel\n`;
}

function sysmon(data: JsonRecord): SigmaInput {
  return { kind: 'evtx', host: 'WS01', action: 'process.create', attributes: { eventId: 1, channel: SYSMON, provider: 'Microsoft-Windows-Sysmon', data } };
}

/** The rule set of one detection (field lines indented eight spaces); the test fails if the rule does not load. */
function rule(detection: string, placeholders?: Placeholders): ReturnType<typeof sigmaRuleSetFromTexts> {
  const set = sigmaRuleSetFromTexts([{ source: 't/m.yml', text: ruleText(detection) }], placeholders ? { placeholders } : {});
  expect(set.skipped).toEqual([]);
  expect(set.rules).toHaveLength(1);
  return set;
}

const fires = (set: ReturnType<typeof sigmaRuleSetFromTexts>, data: JsonRecord): boolean => set.match(sysmon(data)).length === 1;

/** Why a detection does not load (the skip reason), or null when it loads. */
function skipReason(detection: string): string | null {
  const set = sigmaRuleSetFromTexts([{ source: 't/m.yml', text: ruleText(detection) }]);
  return set.skipped[0]?.reason ?? null;
}

describe('the modifier table', () => {
  it('has every modifier of the appendix and pySigma\'s aliases, each name once', () => {
    const names = MODIFIERS.flatMap((m) => [m.name, ...(m.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    const appendix = ['all', 'startswith', 'endswith', 'contains', 'exists', 'cased', 'neq', 'windash', 're', 'i', 'm', 's', 'base64', 'base64offset', 'utf16le', 'utf16be', 'utf16', 'wide',
      'lt', 'lte', 'gt', 'gte', 'minute', 'hour', 'day', 'week', 'month', 'year', 'cidr', 'expand', 'fieldref'];
    const aliases = ['ignorecase', 'multiline', 'dotall'];
    expect([...names].sort()).toEqual([...appendix, ...aliases].sort());
  });

  it('type-checks each step in the written order, with the reason', () => {
    expect(skipReason("        CommandLine|i: 'x'")).toMatch(/the i modifier does not apply to a string value/);
    expect(skipReason("        DestinationIp|cidr|contains: '10.0.0.0/8'")).toMatch(/the contains modifier does not apply to a cidr value/);
    expect(skipReason("        CommandLine|contains|re: 'a.b'")).toMatch(/re modifier applies only to a value no other modifier changed/);
    expect(skipReason("        CommandLine|base64|utf16le: 'cmd'")).toMatch(/utf16 modifier without base64/);
    expect(skipReason("        CommandLine|contains|base64: 'cmd'")).toMatch(/base64 of a value with wildcards/);
    expect(skipReason('        Count|gt: seven')).toMatch(/not a number/);
    expect(skipReason("        CommandLine|nosuch: 'x'")).toMatch(/unknown modifier "nosuch"/);
  });

  it('applies encodings in the written order: utf16le then base64 is the spec\'s "cmd" > 63 00 6d 00 64 00', () => {
    const le = Buffer.from([0x63, 0, 0x6d, 0, 0x64, 0]).toString('base64');
    const be = Buffer.from([0, 0x63, 0, 0x6d, 0, 0x64]).toString('base64');
    const bom = Buffer.from([0xff, 0xfe, 0x63, 0, 0x6d, 0, 0x64, 0]).toString('base64');
    expect(fires(rule("        CommandLine|utf16le|base64: 'cmd'"), { CommandLine: le })).toBe(true);
    expect(fires(rule("        CommandLine|wide|base64: 'cmd'"), { CommandLine: le })).toBe(true);
    expect(fires(rule("        CommandLine|utf16be|base64: 'cmd'"), { CommandLine: be })).toBe(true);
    expect(fires(rule("        CommandLine|utf16|base64: 'cmd'"), { CommandLine: bom })).toBe(true);
    expect(fires(rule("        CommandLine|utf16le|base64: 'cmd'"), { CommandLine: be })).toBe(false);
  });

  it('appendix examples: startswith (adm*), endswith (*\\cmd.exe), contains, cidr 10.0.0.0/8, all', () => {
    expect(fires(rule("        User|startswith: 'adm'"), { User: 'Administrator' })).toBe(true);
    expect(fires(rule("        Image|endswith: '\\cmd.exe'"), { Image: 'C:\\Windows\\System32\\cmd.exe' })).toBe(true);
    expect(fires(rule("        Image|endswith: '\\cmd.exe'"), { Image: 'C:\\Windows\\System32\\xcmd.exe' })).toBe(false);
    expect(fires(rule('        DestinationIp|cidr: 10.0.0.0/8'), { DestinationIp: '10.200.1.1' })).toBe(true);
    expect(fires(rule('        DestinationIp|cidr: 10.0.0.0/8'), { DestinationIp: '11.0.0.1' })).toBe(false);
    expect(fires(rule("        CommandLine|contains|all:\n            - 'a'\n            - 'b'"), { CommandLine: 'xbxax' })).toBe(true);
  });
});

describe('neq', () => {
  const set = rule("        Image|neq:\n            - 'C:\\a.exe'\n            - 'C:\\b.exe'");
  it('a list of values is AND-ed: the field differs from every value (pySigma: NOT over the values)', () => {
    expect(fires(set, { Image: 'C:\\a.exe' })).toBe(false);
    expect(fires(set, { Image: 'C:\\B.EXE' })).toBe(false);
    expect(fires(set, { Image: 'C:\\c.exe' })).toBe(true);
  });
  it('an absent field is different from the values (the NOT of a value match that cannot hold)', () => {
    expect(fires(set, { CommandLine: 'x' })).toBe(true);
  });
  it('composes with the other modifiers: contains|neq, neq|all, fieldref|neq', () => {
    expect(fires(rule("        CommandLine|contains|neq: 'evil'"), { CommandLine: 'an evil one' })).toBe(false);
    expect(fires(rule("        CommandLine|contains|neq: 'evil'"), { CommandLine: 'benign' })).toBe(true);
    const both = rule("        CommandLine|contains|all|neq:\n            - 'a'\n            - 'b'");
    expect(fires(both, { CommandLine: 'a b' })).toBe(false);
    expect(fires(both, { CommandLine: 'a only' })).toBe(true);
    expect(fires(rule('        Image|fieldref|neq: ParentImage'), { Image: 'C:\\x.exe', ParentImage: 'C:\\x.exe' })).toBe(false);
    expect(fires(rule('        Image|fieldref|neq: ParentImage'), { Image: 'C:\\x.exe', ParentImage: 'C:\\y.exe' })).toBe(true);
  });
});

describe('windash', () => {
  it('swaps only a dash or slash that starts a word (pySigma \\B[-/]\\b): " -param-name" is not "/param/name"', () => {
    const set = rule("        CommandLine|windash|contains: ' -param-name'");
    for (const dash of ['-', '/', '\u2013', '\u2014', '\u2015']) expect(fires(set, { CommandLine: `tool ${dash}param-name x` }), dash).toBe(true);
    expect(fires(set, { CommandLine: 'tool /param/name x' })).toBe(false);
    expect(fires(set, { CommandLine: 'tool -param/name x' })).toBe(false);
    expect(fires(set, { CommandLine: 'tool +param-name x' })).toBe(false);
  });
  it('gives the same alternatives in either order with contains', () => {
    const a = rule("        CommandLine|contains|windash: ' -enc '");
    const b = rule("        CommandLine|windash|contains: ' -enc '");
    for (const cmd of ['powershell /enc x', 'powershell -enc x', 'powershell enc x']) expect(fires(a, { CommandLine: cmd })).toBe(fires(b, { CommandLine: cmd }));
    expect(fires(a, { CommandLine: 'powershell /enc x' })).toBe(true);
  });
  it('keeps a dash inside a word and one not followed by a word character', () => {
    expect(windashTokens(parseSigmaString('a-b -c -'))).toEqual(['a-b ', { set: '-/\u2013\u2014\u2015' }, 'c -']);
  });
});

describe('expand', () => {
  it('fills every placeholder of a value, in every combination', () => {
    expect(expandTokens(parseSigmaString('%dir%\\%exe%'), { dir: ['C:\\a', 'C:\\b'], exe: ['x.exe'] })).toEqual([['C:\\a\\x.exe'], ['C:\\b\\x.exe']]);
    const set = rule("        Image|expand: '%dir%\\%exe%'", { dir: ['C:\\Tools', 'D:\\Bin'], exe: ['psexec.exe', 'nc*'] });
    expect(fires(set, { Image: 'D:\\Bin\\psexec.exe' })).toBe(true);
    expect(fires(set, { Image: 'C:\\Tools\\nc64.exe' })).toBe(true);
    expect(fires(set, { Image: 'D:\\Bin\\%exe%' })).toBe(false);
  });
  it('names the second placeholder when only the first has values', () => {
    const set = sigmaRuleSetFromTexts([{ source: 't/m.yml', text: ruleText("        Image|expand: '%dir%\\%exe%'") }], { placeholders: { dir: ['C:\\Tools'] } });
    expect(set.skipped[0]?.reason).toMatch(/placeholder %exe% has no values/);
  });
});

describe('regular expression flags', () => {
  it('ignorecase, multiline and dotall run, as i, m and s do', () => {
    for (const [i, m, s] of [['i', 'm', 's'], ['ignorecase', 'multiline', 'dotall']]) {
      expect(fires(rule(`        CommandLine|re|${i}: '^POWERSHELL'`), { CommandLine: 'powershell -nop' })).toBe(true);
      expect(fires(rule("        CommandLine|re: '^POWERSHELL'"), { CommandLine: 'powershell -nop' })).toBe(false);
      expect(fires(rule(`        CommandLine|re|${m}: '^second$'`), { CommandLine: 'first\nsecond\nthird' })).toBe(true);
      expect(fires(rule("        CommandLine|re: '^second$'"), { CommandLine: 'first\nsecond\nthird' })).toBe(false);
      expect(fires(rule(`        CommandLine|re|${s}: 'a.b'`), { CommandLine: 'a\nb' })).toBe(true);
      expect(fires(rule("        CommandLine|re: 'a.b'"), { CommandLine: 'a\nb' })).toBe(false);
    }
  });
});
