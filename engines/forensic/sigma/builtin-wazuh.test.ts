// Built-in rules written from a public catalogue of Windows detections (Wazuh's Windows ruleset: Sysmon, PowerShell and
// event channel rules), where no shipped rule read the attack shape: each rule fires on the event it is written for, as
// Windows or Sysmon writes it, with its level and a tactic, and a benign near miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { baseName, builtinHits, CHROME, CMD, describeCatalogue, EXPL, PS, S32, script, SUBJ, sysmon, TMP, USER, win, type CatalogueCase, type Ev } from './builtin.fixture.js';

const hits = builtinHits;

const WSCRIPT = `${S32}wscript.exe`;
const RTLO = '\u202e';
// This file's own makers: proc quotes the parent command line, file is dated 2026-12-01 06:00, load is unsigned,
// connect leaves from 10.0.0.21.
const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: baseName(image), CommandLine: cmd, User: USER, IntegrityLevel: 'Medium', ParentImage: parent, ParentCommandLine: `"${parent}"`, ...extra });
const file = (target: string, image: string): Ev => sysmon(11, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-12-01 06:00:00.000' });
const load = (image: string, loaded: string): Ev => sysmon(7, { Image: image, ImageLoaded: loaded, OriginalFileName: baseName(loaded), Signed: 'false', User: USER });
const connect = (image: string, ip: string, port: number): Ev =>
  sysmon(3, { Image: image, User: USER, Protocol: 'tcp', Initiated: 'true', SourceIp: '10.0.0.21', SourcePort: '50432', DestinationIp: ip, DestinationPort: String(port) });
const deleted = (dn: string, cls: string): Ev =>
  win('Security', 'Microsoft-Windows-Security-Auditing', 5141, { OpCorrelationID: '{7}', AppCorrelationID: '-', ...SUBJ, DSName: 'corp.example', DSType: '%%14676', ObjectDN: dn, ObjectGUID: '{9}', ObjectClass: cls, TreeDelete: '%%14679' });
const module = (text: string): Ev => win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: `CommandInvocation(Set-Variable): "Set-Variable"\nParameterBinding(Set-Variable): name="Value"; value="${text}"` });
const classic = (text: string): Ev => win('Windows PowerShell', 'PowerShell', 800, { Data: { '#text': [text, `\tHostApplication=powershell.exe\r\n\tCommandLine=${text}\r\n`, 'CommandInvocation(Set-Variable): "Set-Variable"'] } });

/** PowerShell families: [title without its log suffix, level, tactic, script text, benign script text]. */
const psFamilies: readonly (readonly [string, string, string, string, string])[] = [
  ['PowerShell Runs Code Read From An Alternate Data Stream', 'high', 'stealth',
    'IEX (Get-Content C:\\Users\\Public\\readme.txt -Stream payload -Raw)',
    'Get-Content C:\\Users\\bob\\Downloads\\setup.exe -Stream Zone.Identifier'],
  ['PowerShell Calls Windows Discovery Functions Directly', 'low', 'discovery',
    '[Netapi32]::NetWkstaGetInfo($null, 100, [ref]$ptr); [Secur32]::GetUserNameEx(2, $sb, [ref]$len)',
    '$env:COMPUTERNAME; [Environment]::UserName'],
  ['Files Archived With 7-Zip Cmdlets Or The .NET ZipFile Class In PowerShell', 'informational', 'collection',
    'Add-Type -A System.IO.Compression.FileSystem; [IO.Compression.ZipFile]::CreateFromDirectory("C:\\Users\\bob\\Documents", "$env:TEMP\\d.zip")',
    '[IO.Compression.ZipFile]::ExtractToDirectory("$env:TEMP\\tools.zip", "$env:TEMP\\tools")'],
  ['Encoded Data Written To A WMI Instance From PowerShell', 'medium', 'stealth',
    '$v = [Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes($payload)); Set-WmiInstance -Class Win32_Environment -Arguments @{Name="UPD";VariableValue=$v;UserName="<SYSTEM>"}',
    'Set-WmiInstance -Class Win32_Environment -Arguments @{Name="JAVA_HOME";VariableValue="C:\\Java";UserName="<SYSTEM>"}'],
  ['Processes Listed Through WMI In PowerShell', 'informational', 'discovery',
    'Get-WmiObject -Class Win32_Process | Select-Object Name, ProcessId, CommandLine',
    'Get-WmiObject -Class Win32_Processor | Select-Object Name, NumberOfCores'],
];

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  // Process creation (Sysmon 1)
  ['Program Started By A Windows Script Host', 'informational', 'execution',
    proc(CMD, 'cmd.exe /c ping -n 1 10.0.0.1', WSCRIPT),
    proc(WSCRIPT, `"${WSCRIPT}" C:\\Users\\bob\\Downloads\\invoice.vbs`, EXPL)],
  ['Defender Sample Submission Set To NeverSend From The Command Line', 'high', 'defense-impairment',
    proc(PS, 'powershell.exe Set-MpPreference -SubmitSamplesConsent NeverSend'),
    proc(PS, 'powershell.exe Set-MpPreference -SubmitSamplesConsent SendSafeSamples')],
  ['Long Base64 Data Stored In The Registry From A Command Line', 'medium', 'stealth',
    proc(`${S32}reg.exe`, 'reg add HKCU\\Software\\Classes\\Upd /v Data /t REG_SZ /d "SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkA" /f'),
    proc(`${S32}reg.exe`, 'reg add HKCU\\Software\\Vendor\\App /v InstallDir /t REG_SZ /d "C:\\Program Files\\Vendor\\App" /f')],
  ['Auto-Elevating Windows Program Started By A Shell Or Script', 'medium', 'privilege-escalation',
    proc(`${S32}SystemPropertiesAdvanced.exe`, `${S32}SystemPropertiesAdvanced.exe`, CMD),
    proc(`${S32}SystemPropertiesAdvanced.exe`, `${S32}SystemPropertiesAdvanced.exe`, EXPL)],
  ['Shell Started At High Integrity By The Control Panel', 'medium', 'privilege-escalation',
    proc(PS, 'powershell.exe', `${S32}control.exe`, { IntegrityLevel: 'High' }),
    proc(`${S32}rundll32.exe`, 'rundll32.exe shell32.dll,Control_RunDLL desk.cpl', `${S32}control.exe`, { IntegrityLevel: 'High' })],
  ['Program In Windows Temp Started By PowerShell', 'low', 'execution',
    proc('C:\\Windows\\Temp\\x.exe', 'C:\\Windows\\Temp\\x.exe', PS),
    proc('C:\\Windows\\Temp\\{5F1A}\\setup.exe', 'C:\\Windows\\Temp\\{5F1A}\\setup.exe /quiet', `${S32}msiexec.exe`)],
  ['Program Started By A Program With A Right-To-Left Override In Its Name', 'high', 'stealth',
    proc(CMD, 'cmd.exe /c whoami', `C:\\Users\\bob\\Downloads\\invoice${RTLO}fdp.exe`),
    proc(CMD, 'cmd.exe /c whoami', 'C:\\Users\\bob\\Downloads\\invoice.exe')],
  // Network connection (Sysmon 3)
  ['Network Connection By A Program With A Right-To-Left Override In Its Name (Sysmon 3)', 'high', 'stealth',
    connect(`C:\\Users\\bob\\Downloads\\invoice${RTLO}fdp.exe`, '203.0.113.7', 443),
    connect(CHROME, '203.0.113.7', 443)],
  // File creation (Sysmon 11)
  ['Windows Script Host File Written To A Temporary Or Public Folder (Sysmon 11)', 'low', 'execution',
    file(`${TMP}upd.vbs`, EXPL),
    file('C:\\Users\\bob\\Documents\\scripts\\inventory.vbs', EXPL)],
  ['Archive Written To Users Public Or By PowerShell (Sysmon 11)', 'low', 'collection',
    file('C:\\Users\\Public\\loot.7z', 'C:\\Program Files\\7-Zip\\7z.exe'),
    file('C:\\Users\\bob\\Documents\\photos.zip', 'C:\\Program Files\\7-Zip\\7z.exe')],
  ['Program Or Script Written By Rundll32 Outside Windows And Program Files (Sysmon 11)', 'medium', 'command-and-control',
    file(`${TMP}stage.dll`, `${S32}rundll32.exe`),
    file(`${S32}spool\\drivers\\x64\\3\\unidrv.dll`, `${S32}rundll32.exe`)],
  ['Program Or Script Written By A Screensaver Program (Sysmon 11)', 'high', 'execution',
    file('C:\\Users\\bob\\AppData\\Roaming\\upd.exe', 'C:\\Users\\bob\\Downloads\\photo.scr'),
    file('C:\\Users\\bob\\AppData\\Roaming\\Photos\\settings.ini', 'C:\\Users\\bob\\Downloads\\photo.scr')],
  ['Program Or Library Written By PowerShell Outside Program And Module Folders (Sysmon 11)', 'low', 'command-and-control',
    file('C:\\Users\\bob\\AppData\\Roaming\\upd.exe', PS),
    file('C:\\Program Files\\WindowsPowerShell\\Modules\\PSReadLine\\2.3.4\\Microsoft.PowerShell.PSReadLine2.dll', PS)],
  ['Certificate With Private Key Written By A Shell, Certutil Or A User-Folder Program (Sysmon 11)', 'medium', 'credential-access',
    file('C:\\Users\\Public\\cert.pfx', PS),
    file('C:\\Users\\bob\\Downloads\\cert.pfx', CHROME)],
  // Image load (Sysmon 7)
  ['Windows Service Or Shell Process Loaded A DLL From Windows Temp (Sysmon 7)', 'low', 'persistence',
    load(`${S32}svchost.exe`, 'C:\\Windows\\Temp\\x64.dll'),
    load(`${S32}DismHost.exe`, 'C:\\Windows\\Temp\\{0E3C}\\DismCore.dll')],
  // Directory service changes (Security 5141)
  ['Group Policy Object Deleted From The Directory', 'low', 'privilege-escalation',
    deleted('CN={6AC1786C-016F-11D2-945F-00C04FB984F9},CN=Policies,CN=System,DC=corp,DC=example', 'groupPolicyContainer'),
    deleted('CN=Old Printer,OU=Printers,DC=corp,DC=example', 'printQueue')],
  // PowerShell script blocks (4104); module logging and the classic pipeline below
  ...psFamilies.map(([title, level, tactic, text, benign]): CatalogueCase => [`${title} (script block 4104)`, level, tactic, script(text), script(benign)]),
];

describeCatalogue('built-in rules from the Wazuh Windows ruleset', cases);

describe('built-in rules from the Wazuh Windows ruleset: other readings', () => {
  it.each(psFamilies)('%s: also read in module logging (4103) and the classic pipeline (800)', (title, level, _tactic, text, benign) => {
    expect(hits(module(text)).get(`${title} (module logging 4103)`)?.level).toBe(level);
    expect(hits(classic(text)).get(`${title} (classic pipeline 800)`)?.level).toBe(level);
    expect(hits(module(benign)).has(`${title} (module logging 4103)`)).toBe(false);
    expect(hits(classic(benign)).has(`${title} (classic pipeline 800)`)).toBe(false);
  });
  it('script host children: the console host and error reporting are not a next stage', () => {
    expect(hits(proc(`${S32}conhost.exe`, '\\??\\C:\\Windows\\system32\\conhost.exe 0xffffffff -ForceV1', `${S32}cscript.exe`)).has('Program Started By A Windows Script Host')).toBe(false);
    expect(hits(proc(`${S32}whoami.exe`, 'whoami /all', `${S32}cscript.exe`)).get('Program Started By A Windows Script Host')?.level).toBe('informational');
  });
  it('an auto-elevating program started from Settings or Explorer is not a UAC bypass trigger', () => {
    const AUTO = 'Auto-Elevating Windows Program Started By A Shell Or Script';
    expect(hits(proc(`${S32}fodhelper.exe`, `${S32}fodhelper.exe`, PS)).get(AUTO)?.level).toBe('medium');
    expect(hits(proc(`${S32}sdclt.exe`, 'sdclt.exe /KickOffElev', CMD)).get(AUTO)?.level).toBe('medium');
    expect(hits(proc(`${S32}fodhelper.exe`, `${S32}fodhelper.exe`, 'C:\\Windows\\ImmersiveControlPanel\\SystemSettings.exe')).has(AUTO)).toBe(false);
  });
  it('private keys: an administrator exporting with certutil is read, a key written by an installer into Program Files is not', () => {
    const PFX = 'Certificate With Private Key Written By A Shell, Certutil Or A User-Folder Program (Sysmon 11)';
    expect(hits(file('C:\\Users\\bob\\Desktop\\web.pfx', `${S32}certutil.exe`)).get(PFX)?.level).toBe('medium');
    expect(hits(file('C:\\Program Files\\Vendor\\certs\\client.p12', 'C:\\Program Files\\Vendor\\setup.exe')).has(PFX)).toBe(false);
  });
  it('programs written by PowerShell: an Add-Type assembly or a runtime library in a temporary folder is not a download, and Windows Temp is left to the drop rule', () => {
    const DROP = 'Program Or Library Written By PowerShell Outside Program And Module Folders (Sysmon 11)';
    expect(hits(file(`${TMP}swetvsln\\swetvsln.dll`, PS)).has(DROP)).toBe(false);
    expect(hits(file(`${TMP}2\\5D7E45CF-D87F-436C-BEF5-8EE8BDECA366\\api-ms-win-core-file-l1-1-0.dll`, PS)).has(DROP)).toBe(false);
    expect(hits(file(`${TMP}payload\\beacon.dll`, PS)).get(DROP)?.level).toBe('low');
    // A program in Windows Temp is the public-folder drop rule's, with the same technique and level: reported once.
    expect(hits(file('C:\\Windows\\Temp\\upd.exe', PS)).has(DROP)).toBe(false);
    expect(hits(file('C:\\Windows\\Temp\\upd.exe', PS)).has('Executable Dropped In A Public Or Temporary Folder (Sysmon 11)')).toBe(true);
  });
  it('the control-panel shell rule also reads Security 4688, by its mandatory label', () => {
    const CTRL = 'Shell Started At High Integrity By The Control Panel';
    const created = (label: string): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', 4688, { SubjectUserSid: 'S-1-5-21-1-2-3-1105', SubjectUserName: 'bob', SubjectDomainName: 'CORP', NewProcessName: PS, CommandLine: 'powershell.exe', ParentProcessName: `${S32}control.exe`, MandatoryLabel: label });
    expect(hits(created('S-1-16-12288')).get(CTRL)?.level).toBe('medium');
    expect(hits(created('S-1-16-8192')).has(CTRL)).toBe(false);
  });
  it('registry data: a long hexadecimal binary value is not Base64', () => {
    const BLOB = 'Long Base64 Data Stored In The Registry From A Command Line';
    const hex = '01000000d08c9ddf0115d1118c7a00c04fc297eb01000000a1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff00';
    expect(hits(proc(`${S32}reg.exe`, `reg add HKLM\\Software\\Vendor\\App /v Key /t REG_BINARY /d ${hex} /f`)).has(BLOB)).toBe(false);
  });
  it('archives: PowerShell writing a zip anywhere is read; 7-Zip writing one in a user folder is not', () => {
    const ARC = 'Archive Written To Users Public Or By PowerShell (Sysmon 11)';
    expect(hits(file(`${TMP}docs.zip`, PS)).get(ARC)?.level).toBe('low');
    expect(hits(file(`${TMP}docs.zip`, 'C:\\Program Files\\7-Zip\\7zG.exe')).has(ARC)).toBe(false);
  });
  it('discovery functions: session, share and server enumeration in a script block are read once, by the network enumeration rule', () => {
    const h = hits(script('[Netapi32]::NetSessionEnum($srv, $null, $null, 10, [ref]$ptr, -1, [ref]$read, [ref]$total, [ref]0)'));
    expect(h.has('Windows Network Enumeration API Declared In A Script Block')).toBe(true);
    expect(h.has('PowerShell Calls Windows Discovery Functions Directly (script block 4104)')).toBe(false);
    expect(hits(module('[Netapi32]::NetSessionEnum($srv, $null, $null, 10, [ref]$ptr, -1, [ref]$read, [ref]$total, [ref]0)')).has('PowerShell Calls Windows Discovery Functions Directly (module logging 4103)')).toBe(true);
  });
});
