// The built-in Windows rules (rules-builtin/): each family fires on the events it is written for, with its tactic and
// level, and the corpus's benign captures give none of them at high or critical.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents, analyzePaths } from '../analysis/analyze.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { loadSigmaRules, shippedRulesDir } from './index.js';

const builtin = loadSigmaRules({ sources: [{ name: 'rules-builtin', path: path.join(shippedRulesDir(), 'rules-builtin') }], minLevel: 'informational' });
const corpora = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'corpora');

function win(t: number, channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01'): ReturnType<typeof makeEvent> {
  return makeEvent({ time: at(t), host, action: 'windows.event', object: { type: 'log', name: channel }, attributes: { eventId, provider, channel, data } });
}

/** The built-in detections of some events: rule title → {level, tactics}. */
function hits(events: ReturnType<typeof makeEvent>[]): Map<string, { level: string; tactics: readonly string[] }> {
  const a = analyzeEvents(events, { sigma: builtin });
  return new Map((a.detections?.summary() ?? []).map((d) => [d.title, { level: d.level, tactics: d.tactics }]));
}

const mssql = (t: number, text: string, eventId = 33205): ReturnType<typeof makeEvent> => win(t, 'Application', 'MSSQL$PROD', eventId, { Data: { '#text': text } });

describe('built-in Windows rules', () => {
  it('load without problems', () => {
    expect(builtin.skipped).toEqual([]);
    expect(builtin.inapplicable).toEqual([]);
    expect(builtin.stats.loaded).toBeGreaterThan(180);
  });

  it('MSSQL audit: dropped audit specifications, role members, failed logins and their burst', () => {
    const failed = Array.from({ length: 12 }, (_, i) => mssql(i, `action_id:LGIF\nclass_type:LX\nstatement:Login failed for user 'u${i}'. Reason: Could not find a login matching the name provided.\n`));
    const h = hits([
      mssql(100, 'action_id:DR\nclass_type:DA\nstatement:DROP DATABASE AUDIT SPECIFICATION [spec]\n'),
      mssql(101, 'action_id:APRL\nclass_type:SG\nstatement:ALTER SERVER ROLE [sysadmin] ADD MEMBER [x]\n'),
      mssql(102, 'xp_cmdshell', 15457),
      ...failed,
    ]);
    expect(h.get('MSSQL Audit Or Audit Specification Altered Or Dropped')).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(h.get('MSSQL Member Added To A Server Or Database Role')?.tactics).toContain('persistence');
    expect(h.get('MSSQL Code Execution Option Changed')?.level).toBe('high');
    expect(h.get('MSSQL Login Failed')?.tactics).toEqual(['credential-access']);
    expect(h.get('Burst Of MSSQL Login Failures')?.level).toBe('high');
    expect(h.has('MSSQL Login Attempt With The Built-in sa Account Failed')).toBe(false);
  });

  it('OpenSSH, BITS, proxy changes and user rights', () => {
    const ssh = (t: number, payload: string): ReturnType<typeof makeEvent> => win(t, 'OpenSSH/Operational', 'OpenSSH', 4, { process: 'sshd', payload });
    const h = hits([
      ...Array.from({ length: 6 }, (_, i) => ssh(i, `Failed password for admin from 10.0.0.9 port ${5000 + i} ssh2`)),
      win(20, 'Microsoft-Windows-Bits-Client/Operational', 'Microsoft-Windows-Bits-Client', 3, { jobTitle: 'x', jobOwner: 'CORP\\bob', processPath: 'C:\\Windows\\System32\\bitsadmin.exe' }),
      win(21, 'Microsoft-Windows-Bits-Client/Operational', 'Microsoft-Windows-Bits-Client', 59, { url: 'https://files.example.net/a.bin' }),
      win(22, 'Microsoft-Windows-Bits-Client/Operational', 'Microsoft-Windows-Bits-Client', 59, { url: 'http://au.download.windowsupdate.com/x.cab' }, 'SRV02'),
      win(23, 'Microsoft-Windows-WinINet-Config/ProxyConfigChanged', 'Microsoft-Windows-WinINet-Config', 5600, { pwszProxy: 'http://proxy.example.net:8080', pwszAutoConfigUrl: '' }),
      win(24, 'Security', 'Microsoft-Windows-Security-Auditing', 4704, { SubjectUserName: 'admin', TargetSid: 'S-1-5-21-1-2-3-1158', PrivilegeList: 'SeDebugPrivilege' }),
      win(25, 'Security', 'Microsoft-Windows-Security-Auditing', 4717, { SubjectUserName: 'admin', TargetSid: 'S-1-5-21-1-2-3-1158', AccessGranted: 'SeRemoteInteractiveLogonRight' }),
    ]);
    expect(h.get('Burst Of OpenSSH Authentication Failures')).toEqual({ level: 'high', tactics: ['credential-access'] });
    expect(h.get('BITS Job Created By A Command Line Tool Or Script Host')?.tactics).toEqual(['persistence', 'stealth']);
    expect(h.get('BITS Transfer From A Non-Microsoft Address')).toBeDefined();
    expect(h.get('WinINet Proxy Configuration Changed')?.tactics).toEqual(['command-and-control']);
    expect(h.get('Sensitive User Right Assigned To An Account')?.level).toBe('medium');
    expect(h.get('Logon Right Granted Or Removed')?.tactics).toContain('privilege-escalation');
    // The Windows Update transfer is not one of them: one BITS transfer hit, on SRV01.
    const a = analyzeEvents([win(22, 'Microsoft-Windows-Bits-Client/Operational', 'Microsoft-Windows-Bits-Client', 59, { url: 'http://au.download.windowsupdate.com/x.cab' })], { sigma: builtin });
    expect(a.detections?.count ?? 0).toBe(0);
  });

  it('directory enumeration: 25 distinct objects read by one user in a minute is a burst, by a computer account none', () => {
    const read = (t: number, user: string, i: number): ReturnType<typeof makeEvent> =>
      win(t, 'Security', 'Microsoft-Windows-Security-Auditing', 4662, { SubjectUserName: user, ObjectServer: 'DS', ObjectName: `%{0000000${i}-0000-0000-0000-000000000000}`, AccessList: '%%7688\r\n', AccessMask: '0x100' });
    const h = hits(Array.from({ length: 30 }, (_, i) => read(i, 'alice', i)));
    expect(h.get('Burst Of Directory Object Reads By One Account')?.tactics).toEqual(['discovery']);
    const machine = hits(Array.from({ length: 30 }, (_, i) => read(i, 'DC01$', i)));
    expect(machine.size).toBe(0);
  });

  const crate = path.join(corpora, 'evtx', 'evtx-crate');
  it.skipIf(!existsSync(crate))('the benign captures give no high or critical built-in hit', () => {
    const files = readdirSync(crate).filter((f) => f.endsWith('.evtx'));
    expect(files.length).toBeGreaterThan(3);
    let events = 0;
    for (const f of files) {
      const a = analyzePaths([path.join(crate, f)], { evidenceRoot: crate, sigma: builtin, kind: 'evtx' });
      events += a.events.length;
      const loud = (a.detections?.summary() ?? []).filter((d) => d.level === 'high' || d.level === 'critical').map((d) => `${f}: ${d.title}`);
      expect(loud).toEqual([]);
    }
    expect(events).toBeGreaterThan(5000);
  });
});
