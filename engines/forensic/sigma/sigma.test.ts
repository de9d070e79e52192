// Unit tests of the Sigma engine: each value modifier, wildcards and escaping, keywords, every condition form, skips.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { base64Offsets, parseIp, parseSigmaString, sigmaRuleSetFromTexts, type SigmaInput } from './index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';

function ruleText(detection: string, logsource = 'product: windows\n    category: process_creation', extra = ''): string {
  return `title: Test rule\nid: 00000000-0000-4000-8000-000000000001\nstatus: test\nlevel: high\nauthor: Tester\ntags:\n    - attack.execution\n    - attack.t1059.001\nlogsource:\n    ${logsource}\ndetection:\n${detection}\n${extra}`;
}

function sysmon(data: JsonRecord, eventId = 1, channel = SYSMON): SigmaInput {
  return { kind: 'evtx', host: 'WS01', action: 'process.create', attributes: { eventId, channel, provider: 'Microsoft-Windows-Sysmon', data } };
}

/** Whether a detection (YAML lines, indented four spaces) matches an event. */
function hits(detection: string, event: SigmaInput, logsource?: string): boolean {
  const set = sigmaRuleSetFromTexts([{ source: 't/rule.yml', text: ruleText(detection, logsource) }]);
  expect(set.skipped).toEqual([]);
  expect(set.rules).toHaveLength(1);
  return set.match(event).length === 1;
}

describe('Sigma strings', () => {
  it('parses wildcards and escapes', () => {
    expect(parseSigmaString('a*b?c')).toEqual(['a', { any: true }, 'b', { one: true }, 'c']);
    expect(parseSigmaString('a\\*b')).toEqual(['a*b']);
    expect(parseSigmaString('C:\\Windows\\')).toEqual(['C:\\Windows\\']);
    expect(parseSigmaString('x\\\\*')).toEqual(['x\\', { any: true }]);
  });
  it('matches plain values case-insensitively and whole', () => {
    expect(hits('    sel:\n        Image: C:\\Windows\\System32\\cmd.exe\n    condition: sel', sysmon({ Image: 'c:\\windows\\system32\\CMD.EXE' }))).toBe(true);
    expect(hits('    sel:\n        Image: cmd.exe\n    condition: sel', sysmon({ Image: 'c:\\windows\\system32\\cmd.exe' }))).toBe(false);
  });
  it('matches wildcards and escaped wildcards', () => {
    expect(hits("    sel:\n        CommandLine: '*whoami*/all'\n    condition: sel", sysmon({ CommandLine: 'cmd /c WHOAMI /all' }))).toBe(true);
    expect(hits("    sel:\n        CommandLine: 'a?c'\n    condition: sel", sysmon({ CommandLine: 'abc' }))).toBe(true);
    expect(hits("    sel:\n        CommandLine: 'a\\*c'\n    condition: sel", sysmon({ CommandLine: 'abc' }))).toBe(false);
    expect(hits("    sel:\n        CommandLine: 'a\\*c'\n    condition: sel", sysmon({ CommandLine: 'a*c' }))).toBe(true);
  });
  it('compares numbers as text', () => {
    expect(hits('    sel:\n        ProcessId: 4460\n    condition: sel', sysmon({ ProcessId: 4460 }))).toBe(true);
  });
});

describe('Sigma value modifiers', () => {
  const ev = sysmon({ Image: 'C:\\Tools\\PsExec.exe', CommandLine: 'powershell -enc SQBFAFgA -nop', ParentImage: 'C:\\Tools\\PsExec.exe', DestinationIp: '10.1.2.3', Count: '7', Empty: '' });
  const t = (d: string): boolean => hits(`    sel:\n${d}\n    condition: sel`, ev);
  it('contains, startswith, endswith', () => {
    expect(t("        CommandLine|contains: '-enc '")).toBe(true);
    expect(t("        CommandLine|startswith: 'POWERSHELL'")).toBe(true);
    expect(t("        Image|endswith: '\\psexec.exe'")).toBe(true);
    expect(t("        Image|endswith: '\\cmd.exe'")).toBe(false);
  });
  it('all: every value of the list', () => {
    expect(t("        CommandLine|contains|all:\n            - '-enc'\n            - '-nop'")).toBe(true);
    expect(t("        CommandLine|contains|all:\n            - '-enc'\n            - '-w hidden'")).toBe(false);
    expect(t("        CommandLine|contains:\n            - '-enc'\n            - '-w hidden'")).toBe(true);
  });
  it('re with i, m and s flags', () => {
    expect(t("        CommandLine|re: 'power[a-z]+ -e'")).toBe(true);
    expect(t("        CommandLine|re: 'POWERSHELL'")).toBe(false);
    expect(t("        CommandLine|re|i: 'POWERSHELL'")).toBe(true);
    expect(hits("    sel:\n        CommandLine|re|m: '^b$'\n    condition: sel", sysmon({ CommandLine: 'a\nb\nc' }))).toBe(true);
    expect(hits("    sel:\n        CommandLine|re|s: 'a.b'\n    condition: sel", sysmon({ CommandLine: 'a\nb' }))).toBe(true);
    expect(hits("    sel:\n        CommandLine|re: 'a.b'\n    condition: sel", sysmon({ CommandLine: 'a\nb' }))).toBe(false);
  });
  it('cidr for IPv4 and IPv6', () => {
    expect(t('        DestinationIp|cidr: 10.0.0.0/8')).toBe(true);
    expect(t('        DestinationIp|cidr: 192.168.0.0/16')).toBe(false);
    expect(hits("    sel:\n        DestinationIp|cidr: 'fe80::/10'\n    condition: sel", sysmon({ DestinationIp: 'fe80::1%12' }))).toBe(true);
    expect(parseIp('::ffff:10.0.0.1')?.bits).toBe(128);
  });
  it('base64, base64offset, utf16le/wide, utf16be, utf16', () => {
    const b64 = Buffer.from('whoami').toString('base64');
    expect(hits("    sel:\n        CommandLine|base64: 'whoami'\n    condition: sel", sysmon({ CommandLine: b64 }))).toBe(true);
    for (const prefix of ['', 'x', 'xy']) {
      const enc = Buffer.from(`${prefix}Invoke-Mimikatz -x`).toString('base64');
      expect(hits("    sel:\n        CommandLine|base64offset|contains: 'Invoke-Mimikatz'\n    condition: sel", sysmon({ CommandLine: `powershell -e ${enc}` }))).toBe(true);
    }
    const wide = Buffer.from('IEX (New-Object', 'utf16le').toString('base64');
    expect(hits("    sel:\n        CommandLine|wide|base64offset|contains: 'IEX (New-Object'\n    condition: sel", sysmon({ CommandLine: `-enc ${wide}` }))).toBe(true);
    expect(hits("    sel:\n        CommandLine|utf16le|base64offset|contains: 'IEX (New-Object'\n    condition: sel", sysmon({ CommandLine: `-enc ${wide}` }))).toBe(true);
    const be = Buffer.from('cmd', 'utf16le').swap16().toString('base64');
    expect(hits("    sel:\n        CommandLine|utf16be|base64: 'cmd'\n    condition: sel", sysmon({ CommandLine: be }))).toBe(true);
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('cmd', 'utf16le')]).toString('base64');
    expect(hits("    sel:\n        CommandLine|utf16|base64: 'cmd'\n    condition: sel", sysmon({ CommandLine: bom }))).toBe(true);
    expect(base64Offsets(Buffer.from('/bin/bash'))).toEqual(['L2Jpbi9iYXNo', '9iaW4vYmFza', 'vYmluL2Jhc2']);
  });
  it('windash: dash, slash, en dash, em dash, horizontal bar', () => {
    for (const dash of ['-', '/', '\u2013', '\u2014', '\u2015'])
      expect(hits("    sel:\n        CommandLine|windash|contains: ' -enc '\n    condition: sel", sysmon({ CommandLine: `powershell ${dash}enc x` }))).toBe(true);
    expect(hits("    sel:\n        CommandLine|windash|contains: ' -enc '\n    condition: sel", sysmon({ CommandLine: 'powershell +enc x' }))).toBe(false);
  });
  it('exists true and false', () => {
    expect(t('        CommandLine|exists: true')).toBe(true);
    expect(t('        Missing|exists: true')).toBe(false);
    expect(t('        Missing|exists: false')).toBe(true);
  });
  it('gt, gte, lt, lte', () => {
    expect(t('        Count|gt: 6')).toBe(true);
    expect(t('        Count|gt: 7')).toBe(false);
    expect(t('        Count|gte: 7')).toBe(true);
    expect(t('        Count|lt: 8')).toBe(true);
    expect(t('        Count|lte: 6')).toBe(false);
  });
  it('fieldref (also with endswith) and neq', () => {
    expect(t('        Image|fieldref: ParentImage')).toBe(true);
    expect(t('        Image|fieldref: CommandLine')).toBe(false);
    expect(hits("    sel:\n        CommandLine|fieldref|endswith: Image\n    condition: sel", sysmon({ CommandLine: 'run C:\\x.exe', Image: 'C:\\x.exe' }))).toBe(true);
    expect(t("        Image|neq: 'C:\\Tools\\PsExec.exe'")).toBe(false);
    expect(t("        Image|neq: 'C:\\cmd.exe'")).toBe(true);
  });
  it('cased', () => {
    expect(t("        CommandLine|cased|contains: 'SQBFAFgA'")).toBe(true);
    expect(t("        CommandLine|cased|contains: 'sqbfafga'")).toBe(false);
  });
  it('null values: absent or empty field', () => {
    expect(t('        Missing: null')).toBe(true);
    expect(t('        Empty: null')).toBe(true);
    expect(t('        Image: null')).toBe(false);
    expect(t("        Empty: ''")).toBe(true);
  });
  it('expand with given placeholders; an unknown placeholder skips the rule with its reason', () => {
    const text = ruleText("    sel:\n        User|expand: '%admins%'\n    condition: sel");
    const set = sigmaRuleSetFromTexts([{ source: 't/p.yml', text }], { placeholders: { admins: ['root', 'adm*'] } });
    expect(set.match(sysmon({ User: 'administrator' }))).toEqual([0]);
    const none = sigmaRuleSetFromTexts([{ source: 't/p.yml', text }]);
    expect(none.rules).toHaveLength(0);
    expect(none.skipped[0]?.reason).toMatch(/placeholder %admins%/);
  });
  it('time modifiers', () => {
    expect(hits('    sel:\n        UtcTime|hour: 7\n    condition: sel', sysmon({ UtcTime: '2025-11-27 07:40:10.132' }))).toBe(true);
  });
});

describe('Sigma keywords and lists', () => {
  it('keyword lists match anywhere in any value', () => {
    expect(hits("    keywords:\n        - 'mimikatz'\n        - 'sekurlsa'\n    condition: keywords", sysmon({ CommandLine: 'x sekurlsa::logonpasswords' }))).toBe(true);
    expect(hits("    keywords:\n        - 'mimikatz'\n    condition: keywords", sysmon({ CommandLine: 'notepad' }))).toBe(false);
  });
  it('keyword |all', () => {
    expect(hits("    keywords:\n        '|all':\n            - 'net'\n            - 'user'\n    condition: keywords", sysmon({ CommandLine: 'net user x /add' }))).toBe(true);
    expect(hits("    keywords:\n        '|all':\n            - 'net'\n            - 'group'\n    condition: keywords", sysmon({ CommandLine: 'net user x /add' }))).toBe(false);
  });
  it('a list of maps is OR', () => {
    const d = "    sel:\n        - Image|endswith: '\\a.exe'\n        - Image|endswith: '\\b.exe'\n    condition: sel";
    expect(hits(d, sysmon({ Image: 'C:\\b.exe' }))).toBe(true);
    expect(hits(d, sysmon({ Image: 'C:\\c.exe' }))).toBe(false);
  });
});

describe('Sigma conditions', () => {
  const det = "    sel_a:\n        Image|endswith: '\\a.exe'\n    sel_b:\n        CommandLine|contains: 'bad'\n    filter:\n        User: 'SYSTEM'\n    _hidden:\n        User: 'x'\n";
  const c = (cond: string, data: JsonRecord): boolean => hits(`${det}    condition: ${cond}`, sysmon(data));
  const a = { Image: 'C:\\a.exe', CommandLine: 'good', User: 'bob' };
  const ab = { Image: 'C:\\a.exe', CommandLine: 'bad', User: 'bob' };
  it('and, or, not, parentheses and precedence', () => {
    expect(c('sel_a and sel_b', a)).toBe(false);
    expect(c('sel_a and sel_b', ab)).toBe(true);
    expect(c('sel_a or sel_b', a)).toBe(true);
    expect(c('sel_a and not filter', a)).toBe(true);
    expect(c('sel_a and not filter', { ...a, User: 'SYSTEM' })).toBe(false);
    expect(c('not sel_a or sel_b', a)).toBe(false);
    expect(c('not (sel_a or sel_b)', { Image: 'x', CommandLine: 'x', User: 'x' })).toBe(true);
    expect(c('sel_b or sel_a and filter', a)).toBe(false);
  });
  it('1 of x*, all of x*, 1 of them, all of them (them leaves out _ identifiers)', () => {
    expect(c('1 of sel_*', a)).toBe(true);
    expect(c('all of sel_*', a)).toBe(false);
    expect(c('all of sel_*', ab)).toBe(true);
    expect(c('1 of them', a)).toBe(true);
    expect(c('all of them', { ...ab, User: 'SYSTEM' })).toBe(true);
    expect(c('all of sel_* and not 1 of filter*', ab)).toBe(true);
  });
  it('several conditions are OR', () => {
    const set = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText(`${det}    condition:\n        - sel_b\n        - sel_a`) }]);
    expect(set.match(sysmon(a))).toEqual([0]);
  });
});

describe('rules the engine does not run', () => {
  const skip = (text: string): string | undefined => sigmaRuleSetFromTexts([{ source: 't/x.yml', text }]).skipped[0]?.reason;
  it('lists broken correlation rules, unknown modifiers, aggregations, bad identifiers and schema errors with the reason', () => {
    expect(skip('title: c\ncorrelation:\n    type: event_count\n    rules: [a]\n')).toMatch(/correlation timespan/);
    expect(skip(ruleText("    sel:\n        Image|bogus: 'x'\n    condition: sel"))).toMatch(/unknown modifier "bogus"/);
    expect(skip(ruleText("    sel:\n        Image: 'x'\n    condition: sel | count() > 5"))).toMatch(/aggregation/);
    expect(skip(ruleText("    sel:\n        Image: 'x'\n    condition: other"))).toMatch(/does not define/);
    expect(skip(ruleText("    sel:\n        Image: 'x'\n    condition: 1 of nothing*"))).toMatch(/names no search identifier/);
    expect(skip(ruleText("    sel:\n        Image: 'x'\n    condition: (sel"))).toMatch(/parenthesis/);
    expect(skip('title: t\nlogsource: {}\n')).toMatch(/schema at detection/);
    expect(skip(ruleText("    sel:\n        Image|re: '(?<!x'\n    condition: sel"))).toMatch(/regular expression/);
    expect(skip(ruleText("    sel:\n        Image|wide: 'x'\n    condition: sel"))).toMatch(/utf16/);
    expect(skip('{{{ not yaml')).toBe('not YAML');
  });
  it('a rule whose logsource no loader produces is listed as inapplicable, not run', () => {
    const set = sigmaRuleSetFromTexts([{ source: 't/aws.yml', text: ruleText("    sel:\n        eventName: 'x'\n    condition: sel", 'product: aws\n    service: cloudtrail') }]);
    expect(set.rules).toHaveLength(0);
    expect(set.inapplicable[0]?.reason).toMatch(/product "aws"/);
  });
});

describe('rule metadata and logsource mapping', () => {
  it('takes techniques and tactics from tags', () => {
    const set = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    sel:\n        Image: 'x'\n    condition: sel") }]);
    expect(set.rules[0]).toMatchObject({ techniques: ['T1059.001'], tactics: ['execution'], level: 'high', author: 'Tester', status: 'test' });
  });
  it('maps process_creation to Security 4688 with its field names', () => {
    const set = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    sel:\n        Image|endswith: '\\whoami.exe'\n        ParentImage|endswith: '\\cmd.exe'\n    condition: sel") }]);
    const e: SigmaInput = { kind: 'evtx', host: 'h', action: 'process.create', attributes: { eventId: 4688, channel: 'Security', data: { NewProcessName: 'C:\\Windows\\System32\\whoami.exe', ParentProcessName: 'C:\\Windows\\System32\\cmd.exe' } } };
    expect(set.match(e)).toEqual([0]);
    expect(set.explain(e, 0)).toEqual({ Image: 'C:\\Windows\\System32\\whoami.exe', ParentImage: 'C:\\Windows\\System32\\cmd.exe' });
    expect(set.match({ ...e, attributes: { ...e.attributes, eventId: 4689 } })).toEqual([]);
  });
  it('maps service to channel and registry_add to Sysmon 12 CreateKey', () => {
    const svc = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    sel:\n        EventID: 7045\n        ImagePath|contains: 'PSEXESVC'\n    condition: sel", 'product: windows\n    service: system') }]);
    expect(svc.match({ kind: 'evtx', host: 'h', action: 'service.install', attributes: { eventId: 7045, channel: 'System', data: { ImagePath: '%SystemRoot%\\PSEXESVC.exe' } } })).toEqual([0]);
    const reg = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    sel:\n        TargetObject|contains: 'Run'\n    condition: sel", 'product: windows\n    category: registry_add') }]);
    expect(reg.match(sysmon({ EventType: 'CreateKey', TargetObject: 'HKLM\\...\\Run' }, 12))).toEqual([0]);
    expect(reg.match(sysmon({ EventType: 'SetValue', TargetObject: 'HKLM\\...\\Run' }, 12))).toEqual([]);
  });
  it('maps Linux auditd and auth logs', () => {
    const audit = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    sel:\n        type: 'EXECVE'\n        a0: 'nc'\n        a1: '-e'\n    condition: sel", 'product: linux\n    service: auditd') }]);
    expect(audit.match({ kind: 'auditd', host: 'h', action: 'process.exec', attributes: { records: ['SYSCALL', 'EXECVE'], argv: ['nc', '-e', '/bin/sh'] } })).toEqual([0]);
    const proc = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    sel:\n        Image|endswith: '/nc'\n        CommandLine|contains: ' -e '\n    condition: sel", 'product: linux\n    category: process_creation') }]);
    expect(proc.match({ kind: 'auditd', host: 'h', action: 'process.exec', attributes: { exe: '/usr/bin/nc', argv: ['nc', '-e', '/bin/sh'] } })).toEqual([0]);
    const auth = sigmaRuleSetFromTexts([{ source: 't/r.yml', text: ruleText("    keywords:\n        - 'Failed password'\n    condition: keywords", 'product: linux\n    service: sshd') }]);
    expect(auth.match({ kind: 'authlog', host: 'h', action: 'auth.login.failure', attributes: { program: 'sshd', message: 'Failed password for root from 1.2.3.4' } })).toEqual([0]);
    expect(auth.match({ kind: 'authlog', host: 'h', action: 'x', attributes: { program: 'sudo', message: 'Failed password for root' } })).toEqual([]);
  });
});
