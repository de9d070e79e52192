// Shared pieces of the built-in rule tests: the built-in rules read from their files (not the bundle, so a test runs on
// the rules as written), a Windows event, the detections of some events, the catalogue check every family's test
// file runs (each rule fires on its event with its level and a tactic, and stays quiet on a benign near miss), and the
// event makers and paths the family files share.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents } from '../analysis/analyze.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { loadSigmaRules, shippedRulesDir, type SigmaRuleSet } from './index.js';

export type Ev = ReturnType<typeof makeEvent>;

let rules: SigmaRuleSet | null = null;

/** Every built-in rule file at every level, read once per test file. */
export function builtinRules(): SigmaRuleSet {
  rules ??= loadSigmaRules({ sources: [{ name: 'rules-builtin-folder', path: path.join(shippedRulesDir(), 'rules-builtin') }], minLevel: 'informational' });
  return rules;
}

/** A Windows event log record as the EVTX loader gives it: channel, provider, event id and its data. */
export function windowsEvent(t: number, channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01'): Ev {
  return makeEvent({ time: at(t), host, action: 'windows.event', object: { type: 'log', name: channel }, attributes: { eventId, provider, channel, data } });
}

/** The built-in detections of one event or a sequence: rule title → {level, tactics}. */
export function builtinHits(events: Ev | readonly Ev[]): Map<string, { level: string; tactics: readonly string[] }> {
  const a = analyzeEvents(Array.isArray(events) ? [...(events as readonly Ev[])] : [events as Ev], { sigma: builtinRules() });
  return new Map((a.detections?.summary() ?? []).map((d) => [d.title, { level: d.level, tactics: d.tactics }]));
}

/** [rule title, level, a tactic it carries, the event(s) it is written for, a benign near miss]. */
export type CatalogueCase = readonly [title: string, level: string, tactic: string, event: Ev | readonly Ev[], nearMiss: Ev | readonly Ev[]];

/** The rules load without problems, and each case's rule fires with its level and tactic while its near miss does not. */
export function describeCatalogue(name: string, cases: readonly CatalogueCase[]): void {
  describe(name, () => {
    it('load without problems', () => {
      expect(builtinRules().skipped).toEqual([]);
      expect(builtinRules().inapplicable).toEqual([]);
    });
    it.each(cases)('%s: fires with its level and tactic; the near miss does not', (title, level, tactic, event, nearMiss) => {
      const h = builtinHits(event).get(title);
      expect(h?.level).toBe(level);
      expect(h?.tactics).toContain(tactic);
      expect(builtinHits(nearMiss).has(title)).toBe(false);
    });
  });
}

// The shared event makers of the catalogue test files. Their events take their times from one clock that starts at 0
// in each test file (vitest loads this module once per file) and advances a second an event, in the order made.
let clock = 0;

export const S32 = 'C:\\Windows\\System32\\';
export const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
export const CMD = `${S32}cmd.exe`;
export const EXPL = 'C:\\Windows\\explorer.exe';
export const OFFICE = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\';
export const CHROME = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
export const TMP = 'C:\\Users\\bob\\AppData\\Local\\Temp\\';
/** The user of the Sysmon makers' events. */
export const USER = 'CORP\\bob';
/** The subject of Security events made by a domain user (alice). */
export const SUBJ = { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'alice', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2' };
export const SYSMON_CHANNEL = 'Microsoft-Windows-Sysmon/Operational';

/** The last part of a Windows path. */
export const baseName = (p: string): string => p.split('\\').pop() ?? p;

/** The clock's next second. */
export const tick = (): number => clock++;
/** A Windows event at the clock's next second (host WS01 unless given). */
export const win = (channel: string, provider: string, eventId: number, data: JsonRecord, host = 'WS01'): Ev => windowsEvent(tick(), channel, provider, eventId, data, host);
/** A Sysmon event on WS01. */
export const sysmon = (eventId: number, data: JsonRecord): Ev => win(SYSMON_CHANNEL, 'Microsoft-Windows-Sysmon', eventId, data, 'WS01');
/** A Security audit event. */
export const sec = (eventId: number, data: JsonRecord, host = 'WS01'): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', eventId, data, host);
/** A PowerShell 4104 script block in one part. */
export const script = (text: string, host = 'WS01'): Ev =>
  win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { MessageNumber: 1, MessageTotal: 1, ScriptBlockText: text, ScriptBlockId: '{6}', Path: '' }, host);
/** Sysmon 1: a process started by a medium-integrity user, without its parent's command line (`extra` overrides or adds fields). */
export const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: baseName(image), CommandLine: cmd, ParentImage: parent, User: USER, IntegrityLevel: 'Medium', ...extra });
/** Sysmon 11 (or another file event id): a file written. */
export const file = (target: string, image: string, eventId = 11): Ev => sysmon(eventId, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-11-30 10:00:00.000' });
/** Sysmon 7: a signed image loaded (`extra` overrides or adds fields). */
export const load = (image: string, loaded: string, extra: JsonRecord = {}): Ev =>
  sysmon(7, { Image: image, ImageLoaded: loaded, OriginalFileName: baseName(loaded), Signed: 'true', User: USER, ...extra });
/** Sysmon 22: a name resolved by a program (`extra` overrides or adds fields). */
export const dns = (image: string, name: string, extra: JsonRecord = {}): Ev =>
  sysmon(22, { Image: image, QueryName: name, QueryStatus: '0', QueryResults: '::ffff:203.0.113.9;', User: USER, ...extra });
/** Sysmon 13: a registry value set. */
export const reg = (key: string, details: string, image = `${S32}reg.exe`): Ev => sysmon(13, { EventType: 'SetValue', Image: image, TargetObject: key, Details: details, User: USER });
/** Security 4657: a registry value written (`%%1904` created, `%%1905` changed, `%%1906` deleted) by the process named. */
export const regValue = (key: string, value: string, newValue: string, op = '%%1905', processName = `${S32}reg.exe`): Ev =>
  sec(4657, { ...SUBJ, ObjectName: key, ObjectValueName: value, HandleId: '0x1a4', OperationType: op, OldValueType: '%%1876', OldValue: '0', NewValueType: '%%1876', NewValue: newValue, ProcessId: '0x1ee0', ProcessName: processName });
/** Sysmon 3: a TCP connection from this host. */
export const net = (image: string, ip: string, port: number, initiated = 'true', sourceIp = '10.0.0.5'): Ev =>
  sysmon(3, { Image: image, User: USER, Protocol: 'tcp', Initiated: initiated, SourceIp: sourceIp, SourcePort: '50123', DestinationIp: ip, DestinationPort: String(port) });
/** Sysmon 10: a process opened by another (the call trace ends in the source program unless given). */
export const processAccess = (source: string, target: string, granted: string, trace = `C:\\Windows\\SYSTEM32\\ntdll.dll+9d4c4|C:\\Windows\\System32\\KERNELBASE.dll+2c13e|${source}+1a2b`): Ev =>
  sysmon(10, { SourceImage: source, TargetImage: target, GrantedAccess: granted, CallTrace: trace, SourceUser: USER, TargetUser: 'NT AUTHORITY\\SYSTEM' });
