// Built-in rules for anti-forensics: intruders who blind the host and destroy the evidence (free space wiped after a
// deletion, object auditing stripped from a share, firewall connection logging turned off, the event log service host
// read to kill its threads, Defender exclusions that blind it to staging folders): each rule fires on the event it is
// written for, as Windows or Sysmon writes it, with its level and a tactic of what the event shows, and a benign near
// miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { baseName, builtinHits, CMD, describeCatalogue, PS, processAccess, S32, script, sec, SUBJ, sysmon, USER, type CatalogueCase, type Ev } from './builtin.fixture.js';

const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: baseName(image), CommandLine: cmd, ParentImage: parent, User: USER, IntegrityLevel: 'High', ...extra });
/** Security 4688: a process created, as Windows audits it (no parent command line). */
const created = (image: string, cmd: string, parent = CMD): Ev =>
  sec(4688, { ...SUBJ, NewProcessId: '0x27bc', NewProcessName: image, TokenElevationType: '%%1937', ProcessId: '0x30e4', CommandLine: cmd, ParentProcessName: parent, MandatoryLabel: 'S-1-16-12288' });
const file = (target: string, image: string): Ev => sysmon(11, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-12-07 01:37:22.104' });
/** Security 4907: the auditing settings (SACL) of a file or folder changed, from oldSd to newSd. */
const sacl = (object: string, oldSd: string, newSd: string, processName = PS): Ev =>
  sec(4907, { ...SUBJ, ObjectServer: 'Security', ObjectType: 'File', ObjectName: object, HandleId: '0x6c4', OldSd: oldSd, NewSd: newSd, ProcessId: '0x3464', ProcessName: processName });
const CIPHER = `${S32}cipher.exe`;
const NETSH = `${S32}netsh.exe`;
const SVCHOST = `${S32}svchost.exe`;
const AUDITED = 'S:PAI(AU;OICISAFA;DCLCRPCRSDWDWO;;;WD)';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Free Space Of A Volume Overwritten With Cipher (/w)', 'medium', 'stealth',
    proc(CIPHER, 'cipher  /w:D:\\Shares'), proc(CIPHER, 'cipher /e /s:D:\\Shares\\HR')],
  ['Free Space Of A Volume Overwritten With Cipher (/w)', 'medium', 'stealth',
    created(CIPHER, 'cipher.exe  /w:E:\\'), created(CIPHER, 'cipher.exe /c D:\\Shares\\HR\\plan.docx')],
  ['Free-Space Wipe Scratch File Written In EFSTMPWP (Sysmon 11)', 'low', 'stealth',
    file('D:\\EFSTMPWP\\fil49D3.tmp', CIPHER), file('D:\\Shares\\HR\\EFSTMPWP.txt', 'C:\\Windows\\explorer.exe')],
  ["Audit Entries Removed From An Object's SACL (4907)", 'medium', 'defense-impairment',
    sacl('D:\\Shares\\Finance', AUDITED, 'S:PAI'), sacl('D:\\Shares\\Finance', AUDITED, 'S:PAI(AU;OICIFA;CCDCLCSWRPWPDTLOCRSDRCWDWO;;;AU)')],
  ["Audit Entries Removed From An Object's SACL (4907)", 'medium', 'defense-impairment',
    sacl('D:\\Shares\\HR', `${AUDITED}(AU;OICIFA;CCDCLCSWRPWPDTLOCRSDRCWDWO;;;AU)`, 'S:AI'),
    sacl('C:\\Windows\\System32\\drivers\\etc\\hosts', AUDITED, 'S:AI', 'C:\\Windows\\servicing\\TrustedInstaller.exe')],
  ['Windows Firewall Connection Logging Turned Off Or Shrunk From The Command Line', 'medium', 'defense-impairment',
    proc(NETSH, 'netsh  advfirewall set allprofiles logging droppedconnections disable'), proc(NETSH, 'netsh advfirewall set allprofiles logging droppedconnections enable')],
  ['Windows Firewall Connection Logging Turned Off Or Shrunk From The Command Line', 'medium', 'defense-impairment',
    created(NETSH, 'netsh  advfirewall set allprofiles logging maxfilesize 1'), created(NETSH, 'netsh advfirewall set allprofiles logging maxfilesize 16384')],
  ['Windows Firewall Connection Logging Turned Off Or Shrunk From The Command Line', 'medium', 'defense-impairment',
    proc(PS, 'powershell.exe -c "Set-NetFirewallProfile -All -LogBlocked False -LogAllowed False"'), proc(PS, 'powershell.exe -c "Set-NetFirewallProfile -All -LogBlocked True -LogMaxSizeKilobytes 16384"')],
  ['Service Host Memory Opened By A Program In A User-Writable Folder (Sysmon 10)', 'medium', 'defense-impairment',
    processAccess('C:\\Users\\Public\\Libraries\\wevsvc64.exe', SVCHOST, '0x1010'), processAccess('C:\\Users\\Public\\Libraries\\wevsvc64.exe', SVCHOST, '0x1000')],
  ['Service Host Memory Opened By A Program In A User-Writable Folder (Sysmon 10)', 'medium', 'credential-access',
    processAccess('C:\\ProgramData\\ssh\\svc.exe', SVCHOST, '0x1FFFFF'), processAccess('C:\\Program Files\\Contoso\\Monitor\\agent.exe', SVCHOST, '0x1410')],
  ['PowerShell Adds A Microsoft Defender Exclusion (script block 4104)', 'medium', 'defense-impairment',
    script("$paths = 'D:\\agent\\_work', 'D:\\NuGetCache'\nAdd-MpPreference -ExclusionPath $paths"), script('Set-MpPreference -SignatureUpdateInterval 4')],
  ['PowerShell Weakens Microsoft Defender (script block 4104)', 'high', 'defense-impairment',
    script("Add-MpPreference -ExclusionPath 'C:\\ProgramData','C:\\Users\\Public' -Force"),
    script("# CHG-3187 approved, build agent exclusions\n$paths = 'D:\\agent\\_work', 'D:\\NuGetCache'\nAdd-MpPreference -ExclusionPath $paths -ExclusionProcess 'C:\\Program Files\\dotnet\\dotnet.exe'")],
  ['PowerShell Weakens Microsoft Defender (script block 4104)', 'high', 'defense-impairment',
    script("Add-MpPreference -ExclusionProcess 'rundll32.exe'"), script("Add-MpPreference -ExclusionProcess 'C:\\Program Files\\Microsoft SQL Server\\MSSQL16.MSSQLSERVER\\MSSQL\\Binn\\sqlservr.exe'")],
  ['PowerShell Weakens Microsoft Defender (script block 4104)', 'high', 'defense-impairment',
    script("Add-MpPreference -ExclusionExtension '.dll','.ps1'"), script("Add-MpPreference -ExclusionExtension '.mdf','.ldf' -ExclusionProcess 'sqlservr.exe'")],
  ['PowerShell Weakens Microsoft Defender (script block 4104)', 'high', 'defense-impairment',
    script('Set-MpPreference -DisableRealtimeMonitoring $true -MAPSReporting Disabled'), script('Set-MpPreference -ScanScheduleDay 1 -SignatureUpdateInterval 4')],
];

describeCatalogue('built-in rules for anti-forensics: wiping, stripped auditing, silenced logs and blinded antivirus', cases);

describe('built-in rules for anti-forensics: the Defender exclusion split', () => {
  it('an application exclusion from a documented startup script is reported at medium only; a staging-folder exclusion also at high', () => {
    const app = builtinHits(script("Add-MpPreference -ExclusionPath 'D:\\agent\\_work' -ExclusionProcess 'D:\\agent\\externals\\node20_1\\bin\\node.exe'"));
    expect(app.get('PowerShell Adds A Microsoft Defender Exclusion (script block 4104)')?.level).toBe('medium');
    expect(app.has('PowerShell Weakens Microsoft Defender (script block 4104)')).toBe(false);
    const staging = builtinHits(script("Add-MpPreference -ExclusionPath \"$env:TEMP\""));
    expect(staging.get('PowerShell Weakens Microsoft Defender (script block 4104)')?.level).toBe('high');
    expect(staging.get('PowerShell Adds A Microsoft Defender Exclusion (script block 4104)')?.level).toBe('medium');
  });
});
