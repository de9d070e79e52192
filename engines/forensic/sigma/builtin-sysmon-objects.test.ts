// Built-in Sysmon rules written from a public detection catalogue's Sysmon detections beyond process creation
// (Splunk security_content: registry, file, image load, process access, remote thread, network and deletion events):
// each rule fires on the event it is written for, as Sysmon writes it, with its level and tactic, and a benign near
// miss of the same event type does not fire it.
import type { JsonRecord } from '../event.js';
import { describeCatalogue, windowsEvent, type CatalogueCase, type Ev } from './builtin.fixture.js';

let t = 0;
const sysmon = (eventId: number, data: JsonRecord): Ev => windowsEvent(t++, 'Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon', eventId, data, 'WS01');

const S32 = 'C:\\Windows\\System32\\';
const PS = `${S32}WindowsPowerShell\\v1.0\\powershell.exe`;
const SVCHOST = `${S32}svchost.exe`;
const TMP = 'C:\\Users\\bob\\AppData\\Local\\Temp\\';
const HKU = 'HKU\\S-1-5-21-1111111111-2222222222-3333333333-1104\\';
const CCS = 'HKLM\\System\\CurrentControlSet\\';
const POL = 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender\\';
const WU = 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\';
const USER = 'CORP\\bob';
const dw = (n: number): string => `DWORD (0x${n.toString(16).padStart(8, '0')})`;
const reg = (key: string, details: string, image = `${S32}reg.exe`): Ev => sysmon(13, { EventType: 'SetValue', Image: image, TargetObject: key, Details: details, User: USER });
const regDelete = (key: string, image: string): Ev => sysmon(12, { EventType: 'DeleteValue', Image: image, TargetObject: key, User: USER });
const file = (target: string, image: string): Ev => sysmon(11, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-11-30 10:00:00.000' });
const del = (target: string, image: string): Ev => sysmon(26, { Image: image, TargetFilename: target, User: USER, Hashes: 'SHA256=CD34', IsExecutable: 'false' });
const load = (image: string, loaded: string): Ev => sysmon(7, { Image: image, ImageLoaded: loaded, OriginalFileName: loaded.split('\\').pop() ?? '', Signed: 'true', User: USER });
const access = (source: string, target: string, granted: string, trace = `C:\\Windows\\SYSTEM32\\ntdll.dll+9d4c4|C:\\Windows\\System32\\KERNELBASE.dll+2c13e|${source}+1a2b`): Ev =>
  sysmon(10, { SourceImage: source, TargetImage: target, GrantedAccess: granted, CallTrace: trace, SourceUser: USER, TargetUser: 'NT AUTHORITY\\SYSTEM' });
const thread = (source: string, target: string): Ev => sysmon(8, { SourceImage: source, TargetImage: target, NewThreadId: '4412', StartAddress: '0x00000250A1B20000', StartModule: '-', StartFunction: '-', SourceUser: USER, TargetUser: USER });
const net = (image: string, ip: string, port: number): Ev =>
  sysmon(3, { Image: image, User: USER, Protocol: 'tcp', Initiated: 'true', SourceIp: '10.0.0.5', SourcePort: '50123', DestinationIp: ip, DestinationPort: String(port) });

const FWRULES = `${CCS}Services\\SharedAccess\\Parameters\\FirewallPolicy\\FirewallRules\\`;
const WINLOGON = 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\';
const JAVA = 'C:\\Program Files\\Java\\jre\\bin\\java.exe';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Microsoft Defender Protection Feature Weakened In The Registry', 'medium', 'defense-impairment',
    reg(`${POL}Windows Defender Exploit Guard\\Network Protection\\EnableNetworkProtection`, dw(0)),
    reg(`${POL}Windows Defender Exploit Guard\\Network Protection\\EnableNetworkProtection`, dw(1))],
  ['Microsoft Defender Protection Feature Weakened In The Registry', 'medium', 'defense-impairment',
    reg(`${POL}Threats\\ThreatSeverityDefaultAction\\5`, '9', PS),
    reg(`${POL}Threats\\ThreatSeverityDefaultAction\\5`, '2', PS)],
  ['Microsoft Defender Reporting, Tracing Or Notifications Turned Off In The Registry', 'low', 'defense-impairment',
    reg(`${POL}Reporting\\DisableGenericRePorts`, dw(1)),
    reg(`${POL}Reporting\\DisableGenericRePorts`, dw(0))],
  ['SmartScreen Or Web Content Evaluation Turned Off In The Registry', 'low', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\SmartScreenEnabled', 'Off'),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\SmartScreenEnabled', 'RequireAdmin')],
  ['Windows Update Disabled Or Redirected By A Program Other Than Group Policy', 'low', 'defense-impairment',
    reg(`${WU}AU\\NoAutoUpdate`, dw(1)),
    reg(`${WU}AU\\NoAutoUpdate`, dw(1), SVCHOST)],
  ['Windows Error Reporting Disabled Or Silenced In The Registry', 'low', 'stealth',
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows\\Windows Error Reporting\\DontShowUI', dw(1), `${TMP}a.exe`),
    reg('HKLM\\SOFTWARE\\Microsoft\\Windows\\Windows Error Reporting\\DontShowUI', dw(1), SVCHOST)],
  ['Firewall Rule Written Or Deleted In The Registry Outside The Firewall Service', 'medium', 'defense-impairment',
    reg(`${FWRULES}{8A1B2C3D-0000-4000-8000-00000000AAAA}`, 'v2.30|Action=Allow|Active=TRUE|Dir=In|Protocol=6|LPort=3389|Name=RDP in|'),
    reg(`${FWRULES}{8A1B2C3D-0000-4000-8000-00000000AAAA}`, 'v2.30|Action=Allow|Active=TRUE|Dir=In|Protocol=6|LPort=3389|Name=RDP in|', SVCHOST)],
  ['Firewall Rule Written Or Deleted In The Registry Outside The Firewall Service', 'medium', 'defense-impairment',
    regDelete(`${FWRULES}CoreNet-DHCP-In`, PS),
    regDelete(`${FWRULES}CoreNet-DHCP-In`, SVCHOST)],
  ['System Proxy Set By A Program In A User-Writable Folder', 'low', 'command-and-control',
    reg(`${HKU}Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings\\ProxyServer`, '127.0.0.1:8888', `${TMP}a.exe`),
    reg(`${HKU}Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings\\ProxyServer`, 'proxy.corp.example:8080', `${S32}rundll32.exe`)],
  ['Automatic Logon Or Its Password Set In The Winlogon Key', 'low', 'credential-access',
    reg(`${WINLOGON}DefaultPassword`, 'P@ssw0rd!'),
    reg(`${WINLOGON}DefaultUserName`, 'bob', `${S32}winlogon.exe`)],
  ['Automatic Logon Or Its Password Set In The Winlogon Key', 'low', 'credential-access',
    reg(`${WINLOGON}AutoAdminLogon`, '1'),
    reg(`${WINLOGON}AutoAdminLogon`, '0')],
  ['Remote Desktop Client Told To Connect Without Server Authentication', 'low', 'lateral-movement',
    reg(`${HKU}Software\\Microsoft\\Terminal Server Client\\AuthenticationLevelOverride`, dw(0), PS),
    reg(`${HKU}Software\\Microsoft\\Terminal Server Client\\AuthenticationLevelOverride`, dw(2), PS)],
  ['Settings Protocol Class Redirected Through CurVer', 'high', 'privilege-escalation',
    reg(`${HKU}_Classes\\ms-settings\\CurVer\\(Default)`, '.pwn', PS),
    reg(`${HKU}_Classes\\ms-settings\\DefaultIcon\\(Default)`, '%SystemRoot%\\ImmersiveControlPanel\\SystemSettings.exe', `${S32}SystemSettingsAdminFlows.exe`)],
  ['.NET Event Tracing Disabled For 32-Bit Programs', 'high', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\.NETFramework\\ETWEnabled', dw(0), PS),
    reg('HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\.NETFramework\\ETWEnabled', dw(1), PS)],
  ['AppLocker Rule Denies The Programs Of A Security Vendor', 'medium', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\SrpV2\\Exe\\{8a1b2c3d-0000-4000-8000-0000000000bb}\\Value', '<FilePublisherRule Id="8a1b" Name="x" Description="" UserOrGroupSid="S-1-1-0" Action="Deny"><Conditions><FilePublisherCondition PublisherName="O=MALWAREBYTES INC, L=SANTA CLARA, S=CALIFORNIA, C=US" ProductName="*" BinaryName="*"><BinaryVersionRange LowSection="*" HighSection="*"/></FilePublisherCondition></Conditions></FilePublisherRule>', SVCHOST),
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\SrpV2\\Exe\\{8a1b2c3d-0000-4000-8000-0000000000cc}\\Value', '<FilePublisherRule Id="8a1c" Name="Signed by Microsoft" Description="" UserOrGroupSid="S-1-1-0" Action="Allow"><Conditions><FilePublisherCondition PublisherName="O=MICROSOFT CORPORATION, L=REDMOND, S=WASHINGTON, C=US" ProductName="*" BinaryName="*"><BinaryVersionRange LowSection="*" HighSection="*"/></FilePublisherCondition></Conditions></FilePublisherRule>', SVCHOST)],
  ['Disk Image File Opened By The User (RecentDocs)', 'informational', 'initial-access',
    reg(`${HKU}Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\RecentDocs\\.iso\\0`, 'Binary Data', 'C:\\Windows\\explorer.exe'),
    reg(`${HKU}Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\RecentDocs\\.docx\\0`, 'Binary Data', 'C:\\Windows\\explorer.exe')],
  ['BitLocker Startup Policy Changed By A Program Other Than Group Policy', 'low', 'impact',
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\FVE\\EnableBDEWithNoTPM', dw(1)),
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\FVE\\EnableBDEWithNoTPM', dw(1), SVCHOST)],
  ['Explorer Folder Options Hidden By Policy', 'low', 'stealth',
    reg(`${HKU}SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer\\NoFolderOptions`, dw(1), `${TMP}a.exe`),
    reg(`${HKU}SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer\\NoFolderOptions`, dw(0), `${TMP}a.exe`)],
  ['Security Or Logging Service Marked For Deletion', 'medium', 'defense-impairment',
    reg(`${CCS}Services\\WinDefend\\DeleteFlag`, dw(1), `${S32}services.exe`),
    reg(`${CCS}Services\\AppUpdater\\DeleteFlag`, dw(1), `${S32}services.exe`)],
  ['Security Center Or Defender For Endpoint Service Disabled In The Registry', 'medium', 'defense-impairment',
    reg(`${CCS}Services\\SecurityHealthService\\Start`, dw(4), PS),
    reg(`${CCS}Services\\SecurityHealthService\\Start`, dw(3), `${S32}services.exe`)],
  ['Winlogon Opened For Handle Duplication By A Program Outside The System Folders', 'medium', 'privilege-escalation',
    access(`${TMP}a.exe`, `${S32}winlogon.exe`, '0x1040'),
    access(`${S32}taskmgr.exe`, `${S32}winlogon.exe`, '0x1040')],
  ['Print Spooler Opens A Process From Code In A Printer Driver', 'medium', 'privilege-escalation',
    access(`${S32}spoolsv.exe`, `${S32}rundll32.exe`, '0x1fffff', 'C:\\Windows\\SYSTEM32\\ntdll.dll+9d4c4|C:\\Windows\\system32\\spool\\DRIVERS\\x64\\3\\evil.dll+1a2b'),
    access(`${S32}spoolsv.exe`, `${S32}rundll32.exe`, '0x1fffff', 'C:\\Windows\\SYSTEM32\\ntdll.dll+9d4c4|C:\\Windows\\System32\\KERNELBASE.dll+2c13e|C:\\Windows\\System32\\spoolsv.exe+1a2b')],
  ['LSASS Opened For Termination By A Program Outside The System Folders', 'medium', 'defense-impairment',
    access(`${TMP}a.exe`, `${S32}lsass.exe`, '0x1'),
    access(`${TMP}a.exe`, `${S32}lsass.exe`, '0x1000')],
  ['Remote Thread Created In LSASS', 'high', 'credential-access',
    thread(`${TMP}a.exe`, `${S32}lsass.exe`),
    thread(`${TMP}a.exe`, `${S32}notepad.exe`)],
  ['Remote Thread Created In LSASS', 'high', 'credential-access',
    thread(`${TMP}a.exe`, `${S32}lsass.exe`),
    sysmon(8, { SourceImage: `${TMP}a.exe`, TargetImage: `${S32}lsass.exe`, NewThreadId: '4412', StartAddress: '0x00000250A1B20000', StartModule: '', StartFunction: '', SourceUser: USER, TargetUser: USER })],
  ['Remote Thread Created By The Windows Error Reporting Manager', 'medium', 'privilege-escalation',
    thread(`${S32}wermgr.exe`, 'C:\\Program Files\\Mozilla Firefox\\firefox.exe'),
    thread(`${S32}WerFault.exe`, 'C:\\Program Files\\Mozilla Firefox\\firefox.exe')],
  ['Web Script Written Into An Exchange Or IIS Web Folder', 'high', 'persistence',
    file('C:\\Program Files\\Microsoft\\Exchange Server\\V15\\FrontEnd\\HttpProxy\\owa\\auth\\x.aspx', 'System'),
    file('C:\\Program Files\\Microsoft\\Exchange Server\\V15\\FrontEnd\\HttpProxy\\owa\\auth\\x.aspx', 'C:\\Program Files\\Microsoft\\Exchange Server\\V15\\Bin\\ExSetup.exe')],
  ['Active Directory Or Entra ID Collection Output Written', 'medium', 'discovery',
    file('C:\\Users\\bob\\Downloads\\20261201101010_Certipy.txt', 'C:\\Users\\bob\\Downloads\\certipy.exe'),
    file('C:\\Users\\bob\\Downloads\\certipy-notes.txt', 'C:\\Windows\\System32\\notepad.exe')],
  ['Program Or Script Written Into A Windows Resource Folder', 'medium', 'stealth',
    file('C:\\Windows\\Fonts\\svc.exe', `${TMP}a.exe`),
    file('C:\\Windows\\Fonts\\segoeui.ttf', `${S32}fontdrvhost.exe`)],
  ['Executable Written By The Windows Error Reporting Manager', 'medium', 'stealth',
    file('C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\a.exe', `${S32}wermgr.exe`),
    file('C:\\ProgramData\\Microsoft\\Windows\\WER\\ReportQueue\\AppCrash_a\\Report.wer', `${S32}wermgr.exe`)],
  ['Active Directory Schema Cache Written By A Program Other Than The Consoles', 'informational', 'discovery',
    file('C:\\Windows\\SchCache\\corp.example.sch', PS),
    file('C:\\Windows\\SchCache\\corp.example.sch', `${S32}mmc.exe`)],
  ['SQLite Library Dropped In A Temporary Folder', 'medium', 'collection',
    file(`${TMP}sqlite64.dll`, `${TMP}a.exe`),
    file('C:\\Program Files\\App\\sqlite64.dll', 'C:\\Program Files\\App\\setup.exe')],
  ['Private Key Exported Under A Credential-Tool File Name', 'high', 'credential-access',
    file(`${TMP}CNG_MACHINE_Microsoft Software Key Storage Provider_0_a.keyx.rsa.pvk`, `${TMP}m.exe`),
    file(`${TMP}backup.pfx`, `${S32}certutil.exe`)],
  ['Program Or Shortcut Written To The Root Of A Secondary Drive', 'low', 'initial-access',
    file('E:\\photos.exe', `${TMP}a.exe`),
    file('E:\\Photos\\photos.exe', `${TMP}a.exe`)],
  ['Driver File Written Into A User-Writable Folder', 'informational', 'privilege-escalation',
    file(`${TMP}RTCore64.sys`, `${TMP}a.exe`),
    [file(`${S32}drivers\\RTCore64.sys`, `${S32}drvinst.exe`), file('C:\\ProgramData\\Microsoft\\Windows Defender\\Definition Updates\\{9F21B1C2}\\MpKslDrv.sys', 'C:\\Program Files\\Windows Defender\\MsMpEng.exe')]],
  ['Microsoft Defender Data Deleted By Another Program', 'medium', 'defense-impairment',
    del('C:\\ProgramData\\Microsoft\\Windows Defender\\Scans\\History\\Service\\DetectionHistory\\02\\A1B2', `${TMP}a.exe`),
    del('C:\\ProgramData\\Microsoft\\Windows Defender\\Scans\\History\\Service\\DetectionHistory\\02\\A1B2', 'C:\\ProgramData\\Microsoft\\Windows Defender\\Platform\\4.18.24090.11-0\\MsMpEng.exe')],
  ['Auto-Elevating COM Library Loaded By A COM Surrogate', 'medium', 'privilege-escalation',
    load(`${S32}dllhost.exe`, `${S32}cmstplua.dll`),
    load(`${S32}dllhost.exe`, `${S32}thumbcache.dll`)],
  ['Windows Script Host Loads The LDAP Or ADSI LDAP Library', 'low', 'discovery',
    load(`${S32}wscript.exe`, `${S32}adsldpc.dll`),
    load(`${S32}wscript.exe`, `${S32}vbscript.dll`)],
  ['Windows Script Host Loads The WMI Scripting Library', 'informational', 'execution',
    load(`${S32}cscript.exe`, `${S32}wbem\\wbemdisp.dll`),
    load(`${S32}cscript.exe`, `${S32}scrrun.dll`)],
  ['InstallUtil, RegAsm Or RegSvcs Loads A Credential Library', 'medium', 'credential-access',
    load('C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\InstallUtil.exe', `${S32}vaultcli.dll`),
    load('C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\InstallUtil.exe', `${S32}mscoree.dll`)],
  ['Task Scheduler Library Loaded By A Program In A Staging Folder', 'medium', 'persistence',
    load('C:\\Users\\Public\\a.exe', `${S32}taskschd.dll`),
    load('C:\\Program Files\\App\\app.exe', `${S32}taskschd.dll`)],
  ['Windows Helper Process Connects To A Public Address', 'high', 'stealth',
    net(`${S32}gpupdate.exe`, '203.0.113.9', 443),
    [net(`${S32}gpupdate.exe`, '10.0.0.10', 445), net(`${S32}SearchProtocolHost.exe`, '52.109.88.39', 443)]],
  ['Java Connects To A Public Address On An LDAP Or RMI Port', 'high', 'initial-access',
    net(JAVA, '203.0.113.9', 1389),
    net(JAVA, '10.0.0.10', 389)],
  ['FTP Connection From A Program In A User-Writable Folder', 'low', 'exfiltration',
    net(`${TMP}a.exe`, '203.0.113.9', 21),
    net('C:\\Program Files\\FileZilla FTP Client\\filezilla.exe', '203.0.113.9', 21)],
];

describeCatalogue('built-in Sysmon rules from a catalogue of registry, file, module, access, thread and network detections', cases);
