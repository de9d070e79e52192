// Built-in rules that leave an event to another shipped rule (so one event is reported once) rely on that rule still
// reporting it. Each case runs the event through the default set as shipped: the named rule must fire and the
// built-in one must not. When a SigmaHQ update changes the rule a built-in one defers to, this fails instead of the
// event going unreported.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents } from '../analysis/analyze.js';
import { CMD, file, net, S32, sysmon, TMP, USER, win, type Ev } from './builtin.fixture.js';
import { loadSigmaRules, type SigmaRuleSet } from './index.js';

let shipped: SigmaRuleSet | null = null;
/** The default set as the product loads it (the shipped bundle, every level). */
const defaultSet = (): SigmaRuleSet => (shipped ??= loadSigmaRules({ minLevel: 'informational' }));
const titles = (e: Ev): string[] => (analyzeEvents([e], { sigma: defaultSet() }).detections?.summary() ?? []).map((d) => d.title);

const proc = (image: string, cmd: string, parent = CMD, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: image.split('\\').pop() ?? '', CommandLine: cmd, ParentImage: parent, User: USER, IntegrityLevel: 'High', ...extra });
const defender = (eventId: number, data: JsonRecord): Ev =>
  win('Microsoft-Windows-Windows Defender/Operational', 'Microsoft-Windows-Windows Defender', eventId, { 'Product Name': 'Microsoft Defender Antivirus', ...data });

/** [the built-in rule, an event it leaves to another rule, the rule that reports it]. */
const cases: readonly (readonly [builtin: string, event: Ev, reportedBy: string])[] = [
  ['Core Windows Process Name Written Outside The System Folders', file('C:\\ProgramData\\lsass.exe', `${TMP}a.exe`),
    'Files With System Process Name In Unsuspected Locations'],
  ['Server-Side Page Written By A Web Server Or Its Script Runner', file('C:\\nginx\\html\\x.php', 'C:\\php\\php-cgi.exe'),
    'Potential Webshell Creation On Static Website'],
  ['Tor Client Or Pluggable Transport Connects Out (Sysmon 3)',
    net('C:\\Users\\bob\\Desktop\\Tor Browser\\Browser\\TorBrowser\\Tor\\tor.exe', '198.51.100.7', 9001),
    'Connection To A Tor Relay Or Proxy Port (Sysmon 3)'],
  ['Command-Line Archiver In A Shared Or Temporary Folder Adds Files', proc('C:\\ProgramData\\rar.exe', 'rar.exe a -r out.rar C:\\data'),
    'WinRAR Execution in Non-Standard Folder'],
  ['Command-Line Archiver In A Shared Or Temporary Folder Adds Files', proc('C:\\Users\\Public\\7za.exe', '7za.exe a -pSecret out.7z C:\\data'),
    'Compress Data and Lock With Password for Exfiltration With 7-ZIP'],
  ['Microsoft Defender Blocked Or Audited Credential Theft From LSASS',
    defender(1121, { ID: '9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2', Path: `${S32}lsass.exe`, 'Process Name': 'C:\\Users\\alice\\AppData\\Local\\Temp\\m.exe' }),
    'LSASS Access Detected via Attack Surface Reduction'],
  ['Shell Or Script Host Started By The Print Spooler',
    proc(`${S32}cmd.exe`, 'cmd.exe', `${S32}spoolsv.exe`, { IntegrityLevel: 'System' }),
    'Suspicious Spool Service Child Process'],
];

describe('built-in rules that leave an event to another shipped rule', () => {
  it.each(cases)('%s: the event is reported once, by the rule it is left to', (builtin, event, reportedBy) => {
    const t = titles(event);
    expect(t).toContain(reportedBy);
    expect(t).not.toContain(builtin);
  });
});
