// Built-in Sysmon rules written from a public catalogue of what each Sysmon event type should record per ATT&CK technique
// (sysmon-modular's technique-named include rules): each rule fires on the event it is written for, as Sysmon writes it,
// with its level and tactic, and a benign near miss of the same event type does not fire it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents } from '../analysis/analyze.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { loadSigmaRules, shippedRulesDir } from './index.js';

// Read from the rule files themselves (a source named after a shipped set would come from the bundle).
const builtin = loadSigmaRules({ sources: [{ name: 'rules-builtin-folder', path: path.join(shippedRulesDir(), 'rules-builtin') }], minLevel: 'informational' });

type Ev = ReturnType<typeof makeEvent>;
let t = 0;
function sysmon(eventId: number, data: JsonRecord): Ev {
  const channel = 'Microsoft-Windows-Sysmon/Operational';
  return makeEvent({ time: at(t++), host: 'WS01', action: 'windows.event', object: { type: 'log', name: channel }, attributes: { eventId, provider: 'Microsoft-Windows-Sysmon', channel, data } });
}

/** The built-in detections of one event: rule title → {level, tactics}. */
function hits(e: Ev): Map<string, { level: string; tactics: readonly string[] }> {
  const a = analyzeEvents([e], { sigma: builtin });
  return new Map((a.detections?.summary() ?? []).map((d) => [d.title, { level: d.level, tactics: d.tactics }]));
}

const S32 = 'C:\\Windows\\System32\\';
const SID = 'S-1-5-21-1111111111-2222222222-3333333333-1104';
const USER = 'CORP\\bob';
const reg = (key: string, details: string, image = `${S32}reg.exe`): Ev => sysmon(13, { EventType: 'SetValue', Image: image, TargetObject: key, Details: details, User: USER });
const file = (target: string, image: string, eventId = 11): Ev => sysmon(eventId, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-11-30 10:00:00.000' });
const load = (image: string, loaded: string, signed = 'true'): Ev => sysmon(7, { Image: image, ImageLoaded: loaded, OriginalFileName: loaded.split('\\').pop() ?? '', Signed: signed, User: USER });
const access = (source: string, target: string, granted: string): Ev =>
  sysmon(10, { SourceImage: source, TargetImage: target, GrantedAccess: granted, CallTrace: `C:\\Windows\\SYSTEM32\\ntdll.dll+9d4c4|C:\\Windows\\System32\\KERNELBASE.dll+2c13e|${source}+1a2b`, SourceUser: USER, TargetUser: 'NT AUTHORITY\\SYSTEM' });
const net = (image: string, ip: string, port: number, initiated = 'true', sourceIp = '10.0.0.5'): Ev =>
  sysmon(3, { Image: image, User: USER, Protocol: 'tcp', Initiated: initiated, SourceIp: sourceIp, SourcePort: '50123', DestinationIp: ip, DestinationPort: String(port) });

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: [string, string, string, Ev, Ev][] = [
  ['Winlogon Notification, UI Host Or GINA Library Registered', 'medium', 'persistence',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\Notify\\upd\\DLLName', 'C:\\ProgramData\\upd\\n.dll'),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\LastUsedUsername', 'bob', `${S32}svchost.exe`)],
  ['DLL Search Order Protections Weakened In Session Manager', 'medium', 'stealth',
    reg('HKLM\\System\\CurrentControlSet\\Control\\Session Manager\\SafeDllSearchMode', 'DWORD (0x00000000)'),
    reg('HKLM\\System\\CurrentControlSet\\Control\\Session Manager\\SafeDllSearchMode', 'DWORD (0x00000001)')],
  ['Default Program Of A File Type Set By A Program Other Than The Windows Settings', 'informational', 'persistence',
    reg(`HKU\\${SID}\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\FileExts\\.txt\\UserChoice\\ProgId`, 'evilfile'),
    reg('HKU\\.DEFAULT\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\FileExts\\.ocsmeet\\UserChoice\\Progid', 'ocsmeet_auto_file', 'C:\\Program Files (x86)\\Microsoft Office\\Root\\Office16\\EXCEL.EXE')],
  ['Volume Shadow Copy Requested By A Command-Line Tool', 'low', 'credential-access',
    reg('HKLM\\System\\CurrentControlSet\\Services\\VSS\\Diag\\VssapiPublisher\\(Default)', 'Binary Data', `${S32}vssadmin.exe`),
    reg('HKLM\\System\\CurrentControlSet\\Services\\VSS\\Diag\\VssapiPublisher\\(Default)', 'Binary Data', `${S32}svchost.exe`)],
  ['Machine Account Password Change Disabled In Netlogon', 'medium', 'persistence',
    reg('HKLM\\System\\CurrentControlSet\\Services\\Netlogon\\Parameters\\DisablePasswordChange', 'DWORD (0x00000001)'),
    reg('HKLM\\System\\CurrentControlSet\\Services\\Netlogon\\Parameters\\DisablePasswordChange', 'DWORD (0x00000000)')],
  ['Event Log Size Or Retention Changed Outside The Event Log Service', 'low', 'defense-impairment',
    reg('HKLM\\System\\CurrentControlSet\\Services\\EventLog\\Security\\MaxSize', 'DWORD (0x00010000)'),
    reg('HKLM\\System\\CurrentControlSet\\Services\\EventLog\\Security\\MaxSize', 'DWORD (0x01400000)', `${S32}svchost.exe`)],
  ['Cryptographic Offload Provider Registered', 'medium', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Microsoft\\Cryptography\\Offload\\ExpoOffload', 'C:\\ProgramData\\upd\\off.dll'),
    reg('HKLM\\SOFTWARE\\Microsoft\\Cryptography\\Offload\\ExpoOffload', 'C:\\Windows\\System32\\hsm.dll', `${S32}msiexec.exe`)],
  ['Sysmon Service Or Driver Disabled In The Registry', 'high', 'defense-impairment',
    reg('HKLM\\System\\CurrentControlSet\\Services\\Sysmon64\\Start', 'DWORD (0x00000004)'),
    reg('HKLM\\System\\CurrentControlSet\\Services\\Sysmon64\\Start', 'DWORD (0x00000002)')],
  ['Sysmon Driver Parameters Written By Another Program', 'medium', 'defense-impairment',
    reg('HKLM\\System\\CurrentControlSet\\Services\\SysmonDrv\\Parameters\\Rules', 'Binary Data'),
    reg('HKLM\\System\\CurrentControlSet\\Services\\SysmonDrv\\Parameters\\Rules', 'Binary Data', 'C:\\Windows\\Sysmon64.exe')],
  ['Windows Address Book Library Path Changed', 'medium', 'stealth',
    reg('HKLM\\SOFTWARE\\Microsoft\\WAB\\DLLPath\\(Default)', 'C:\\ProgramData\\upd\\wab.dll'),
    reg('HKLM\\SOFTWARE\\Microsoft\\WAB\\WAB4\\UseOutlook', 'DWORD (0x00000000)')],
  ['Camera, Microphone Or Device Capability Used By A Program In A User-Writable Folder', 'low', 'collection',
    reg(`HKU\\${SID}\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\CapabilityAccessManager\\ConsentStore\\webcam\\NonPackaged\\C:#Users#Public#spy.exe\\LastUsedTimeStart`, 'QWORD (0x01d9a1b2-0x3c4d5e6f)', `${S32}svchost.exe`),
    reg(`HKU\\${SID}\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\CapabilityAccessManager\\ConsentStore\\webcam\\NonPackaged\\C:#Users#bob#AppData#Roaming#Zoom#bin#Zoom.exe\\LastUsedTimeStart`, 'QWORD (0x01d9a1b2-0x3c4d5e6f)', `${S32}svchost.exe`)],
  ['Security Support Provider List Changed', 'medium', 'credential-access',
    reg('HKLM\\System\\CurrentControlSet\\Control\\SecurityProviders\\SecurityProviders', 'credssp.dll, mimilib.dll'),
    reg('HKLM\\System\\CurrentControlSet\\Control\\SecurityProviders\\SecurityProviders', 'credssp.dll')],
  ['Security Center Notifications Or Monitoring Turned Off', 'medium', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Microsoft\\Security Center\\AntiVirusDisableNotify', 'DWORD (0x00000001)'),
    reg('HKLM\\SOFTWARE\\Microsoft\\Security Center\\AntiVirusDisableNotify', 'DWORD (0x00000000)')],
  ['Endpoint Protection Exclusion Added Or Defender For Endpoint Set Passive', 'medium', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Microsoft\\Microsoft Antimalware\\Exclusions\\Paths\\C:\\ProgramData\\upd', 'DWORD (0x00000000)'),
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Advanced Threat Protection\\ForceDefenderPassiveMode', 'DWORD (0x00000000)')],
  ['Program Or Port Allowed Through The Firewall By Its Legacy Policy Lists', 'low', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\WindowsFirewall\\StandardProfile\\GloballyOpenPorts\\List\\4444:TCP', '4444:TCP:*:Enabled:upd'),
    reg('HKLM\\System\\CurrentControlSet\\Services\\SharedAccess\\Parameters\\FirewallPolicy\\FirewallRules\\{1A2B}', 'v2.30|Action=Allow|Dir=In|App=C:\\Program Files\\App\\app.exe|', `${S32}svchost.exe`)],
  ['Printer Port Named Like A Program Or Library', 'medium', 'privilege-escalation',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Ports\\C:\\Windows\\System32\\Tasks\\evil.dll', '(Empty)', `${S32}WindowsPowerShell\\v1.0\\powershell.exe`),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Ports\\C:\\Users\\bob\\Documents\\out.prn', '(Empty)', `${S32}spoolsv.exe`)],
  ['Root Certificate Added To A Registry Certificate Store', 'low', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Microsoft\\SystemCertificates\\Root\\Certificates\\1F3D2A7B9C0E4D5F6A7B8C9D0E1F2A3B4C5D6E7F\\Blob', 'Binary Data', 'C:\\Users\\bob\\AppData\\Local\\Temp\\inst.exe'),
    reg(`HKU\\${SID}\\SOFTWARE\\Microsoft\\SystemCertificates\\CA\\Certificates\\1F3D2A7B9C0E4D5F6A7B8C9D0E1F2A3B4C5D6E7F\\Blob`, 'Binary Data', 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe')],
  ['Sysinternals Discovery Tool Run For The First Time By A User', 'low', 'discovery',
    reg(`HKU\\${SID}\\Software\\Sysinternals\\PsLoggedOn\\EulaAccepted`, 'DWORD (0x00000001)', 'C:\\Tools\\PsLoggedon64.exe'),
    reg(`HKU\\${SID}\\Software\\Sysinternals\\Process Monitor\\EulaAccepted`, 'DWORD (0x00000001)', 'C:\\Tools\\Procmon64.exe')],
  ['Sysinternals Remote Execution Or Service Tool Run For The First Time By A User', 'low', 'execution',
    reg(`HKU\\${SID}\\Software\\Sysinternals\\PsExec\\EulaAccepted`, 'DWORD (0x00000001)', 'C:\\Tools\\PsExec64.exe'),
    reg(`HKU\\${SID}\\Software\\Sysinternals\\PsPing\\EulaAccepted`, 'DWORD (0x00000001)', 'C:\\Tools\\psping64.exe')],
  ['Critical Windows Process Opened With Full Rights By A Program Outside Windows', 'medium', 'credential-access',
    access('C:\\Tools\\agent.exe', `${S32}winlogon.exe`, '0x1F1FFF'),
    access('C:\\Program Files\\Vendor\\agent.exe', `${S32}winlogon.exe`, '0x1F1FFF')],
  ['Comsvcs Library Loaded By Rundll32', 'medium', 'credential-access',
    load(`${S32}rundll32.exe`, `${S32}comsvcs.dll`),
    load(`${S32}dllhost.exe`, `${S32}comsvcs.dll`)],
  ['Library Loaded From An Administrative Share', 'medium', 'lateral-movement',
    load('C:\\Tools\\agent.exe', '\\\\10.0.0.9\\ADMIN$\\upd.dll', 'false'),
    load('C:\\Tools\\agent.exe', '\\\\fs01\\apps\\vendor\\lib.dll')],
  ['Metasploit Default Bind Pipe Created', 'high', 'command-and-control',
    sysmon(17, { EventType: 'CreatePipe', Image: 'C:\\Users\\Public\\svc.exe', PipeName: '\\msf-pipe', User: USER }),
    sysmon(17, { EventType: 'CreatePipe', Image: 'C:\\Program Files\\App\\app.exe', PipeName: '\\msfte_pipe', User: USER })],
  ['Application Control Policy File Written Outside Windows Servicing', 'medium', 'defense-impairment',
    file(`${S32}CodeIntegrity\\CIPolicies\\Active\\{A1B2C3D4-1111-2222-3333-444455556666}.cip`, 'C:\\Users\\bob\\AppData\\Local\\Temp\\k.exe'),
    file(`${S32}CodeIntegrity\\CIPolicies\\Active\\{A1B2C3D4-1111-2222-3333-444455556666}.cip`, `${S32}CiTool.exe`)],
  ['File Written In The Windows PowerShell Folder', 'low', 'persistence',
    file(`${S32}WindowsPowerShell\\v1.0\\profile.ps1`, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`),
    file(`${S32}WindowsPowerShell\\v1.0\\Modules\\Vendor\\Vendor.psd1`, `${S32}msiexec.exe`)],
  ['File Written In The WMI Folder', 'low', 'execution',
    file(`${S32}wbem\\upd.mof`, 'C:\\Tools\\agent.exe'),
    file(`${S32}wbem\\Repository\\OBJECTS.DATA`, `${S32}svchost.exe`)],
  ['Executable Written To The Windows Or System Folder By A Program Outside Windows', 'low', 'stealth',
    file(`${S32}upd.exe`, 'C:\\Users\\bob\\Downloads\\setup.exe'),
    file(`${S32}drivers\\vendor.sys`, 'C:\\Users\\bob\\Downloads\\setup.exe')],
  ['Downloaded File Marked With A Blob Or About:Internet Origin', 'low', 'stealth',
    sysmon(15, { Image: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', TargetFilename: 'C:\\Users\\bob\\Downloads\\invoice.zip:Zone.Identifier', Contents: '[ZoneTransfer]  ZoneId=3  HostUrl=blob:https://files.example.net/5f1c2d3e' }),
    sysmon(15, { Image: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', TargetFilename: 'C:\\Users\\bob\\Downloads\\invoice.zip:Zone.Identifier', Contents: '[ZoneTransfer]  ZoneId=3  HostUrl=https://files.example.net/invoice.zip' })],
  ['Executable Written By A Windows Proxy Binary Or Script Host', 'medium', 'command-and-control',
    file('C:\\Users\\bob\\AppData\\Local\\Temp\\a.exe', `${S32}certutil.exe`, 29),
    file('C:\\Users\\bob\\AppData\\Local\\Temp\\a.exe', 'C:\\Program Files\\7-Zip\\7z.exe', 29)],
  ['Windows Tool Without A Network Function Connecting To A Public Address', 'medium', 'command-and-control',
    net(`${S32}expand.exe`, '203.0.113.10', 443),
    net(`${S32}sc.exe`, '10.0.0.12', 135)],
  ['Outbound VNC Or Telnet Connection', 'low', 'lateral-movement',
    net('C:\\Tools\\vncviewer.exe', '10.0.0.12', 5900),
    net('C:\\Tools\\vncviewer.exe', '10.0.0.12', 5900, 'false')],
  ['Outbound Connection To An IRC Port', 'low', 'command-and-control',
    net('C:\\Tools\\agent.exe', '203.0.113.10', 6667),
    net('C:\\Tools\\agent.exe', '10.0.0.12', 6667)],
  ['SMB Or LDAP Port Accepted By A Program Other Than Windows Servers', 'medium', 'credential-access',
    net('C:\\Tools\\relay.exe', '10.0.0.5', 445, 'false', '10.0.0.7'),
    net('System', '10.0.0.5', 445, 'false', '10.0.0.7')],
  ['Network Connection From A Program In A Folder That Holds No Programs', 'medium', 'stealth',
    net('C:\\Windows\\Debug\\svc.exe', '203.0.113.10', 443),
    net('C:\\Windows\\System32\\svchost.exe', '203.0.113.10', 443)],
  ['Process Opened By A Program In A Folder That Holds No Programs', 'medium', 'stealth',
    access('C:\\Windows\\Help\\svc.exe', `${S32}notepad.exe`, '0x1410'),
    access('C:\\Tools\\svc.exe', `${S32}notepad.exe`, '0x1410')],
  ['Library Loaded From A Folder That Holds No Programs', 'medium', 'stealth',
    load(`${S32}rundll32.exe`, 'C:\\Windows\\Fonts\\upd.dll', 'false'),
    load(`${S32}rundll32.exe`, `${S32}shell32.dll`)],
  ['Windows Script Component Runtime Loaded', 'low', 'stealth',
    load(`${S32}regsvr32.exe`, `${S32}scrobj.dll`),
    load(`${S32}cscript.exe`, `${S32}scrobj.dll`)],
  ['Office Application Loads The Script Shell, Task Scheduler Or WMI Scripting Library', 'low', 'execution',
    load('C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE', `${S32}wshom.ocx`),
    load('C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE', `${S32}msxml6.dll`)],
  ['Office XLL Or WLL Add-In Loaded From Outside Program Files', 'low', 'persistence',
    load('C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\AddIns\\x.xll', 'false'),
    load('C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', 'C:\\Program Files\\Vendor\\addin.xll')],
  ['Shell Command, Library Or Search Connector File Written', 'low', 'credential-access',
    file('\\\\fs01\\public\\@inventory.scf', 'C:\\Tools\\agent.exe'),
    file('C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Libraries\\Documents.library-ms', 'C:\\Tools\\agent.exe')],
];

describe('built-in Sysmon rules from a technique-tagged Sysmon configuration catalogue', () => {
  it('load without problems', () => {
    expect(builtin.skipped).toEqual([]);
    expect(builtin.inapplicable).toEqual([]);
  });

  it.each(cases)('%s: fires with its level and tactic; the near miss does not', (title, level, tactic, event, nearMiss) => {
    const h = hits(event).get(title);
    expect(h?.level).toBe(level);
    expect(h?.tactics).toContain(tactic);
    expect(hits(nearMiss).has(title)).toBe(false);
  });
});
