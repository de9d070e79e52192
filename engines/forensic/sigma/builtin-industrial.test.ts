// Built-in rules written for intrusions into the Windows hosts of industrial and building-control networks (engineering
// workstations, HMI and SCADA servers, historians, jump hosts): each rule fires on the event it is written for, as Windows
// or Sysmon writes it, with its level and a tactic of what the event shows, and a benign near miss of the same event type
// (what engineers, vendor tools and historians do every day on these hosts) does not fire it.
import { describe, expect, it } from 'vitest';
import { builtinHits, describeCatalogue, EXPL, file, proc, PS, reg, S32, sec, type CatalogueCase, type Ev } from './builtin.fixture.js';

const ROCKWELL = 'C:\\Program Files (x86)\\Rockwell Software\\';
const LOGIX = `${ROCKWELL}Studio 5000\\Logix Designer\\ENU\\v33\\Bin\\LogixDesigner.exe`;
const TIA = 'C:\\Program Files\\Siemens\\Automation\\Portal V17\\Bin\\Siemens.Automation.Portal.exe';
const PY = 'C:\\Users\\bob\\AppData\\Local\\Programs\\Python\\Python311\\python.exe';
const DL = 'C:\\Users\\bob\\Downloads\\';
/** Security 4688 as Windows 7 / 2012 R2 write it: no parent name. */
const proc4688 = (image: string, cmd: string): Ev =>
  sec(4688, { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'bob', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2', NewProcessId: '0x1a2c', NewProcessName: image, TokenElevationType: '%%1936', ProcessId: '0x1b30', CommandLine: cmd });

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Controller Or HMI Project Files Searched For From The Command Line', 'medium', 'discovery',
    proc(`${S32}where.exe`, 'where  /r D:\\ *.ACD *.L5X *.L5K *.mer *.apa'), proc(`${S32}where.exe`, 'where  /r C:\\Tools python.exe')],
  ['Controller Or HMI Project Files Searched For From The Command Line', 'medium', 'discovery',
    proc4688(PS, 'powershell  -nop -c "Get-ChildItem \\\\fs-plant01\\Engineering -Recurse -Include *.ACD,*.ap17,*.zap17 | Export-Csv C:\\Users\\Public\\idx.csv"'),
    proc4688(PS, 'powershell  -nop -c "Get-ChildItem D:\\Logs -Recurse -Include *.log | Remove-Item"')],
  ['Controller Or HMI Project Files Copied With A Command-Line Copy Tool', 'low', 'collection',
    proc(`${S32}xcopy.exe`, 'xcopy  "C:\\Users\\Public\\Documents\\RSView Enterprise\\ME\\Runtime\\*.mer" C:\\PerfLogs\\Admin\\ftv\\ /Y /C /H'),
    proc(`${S32}xcopy.exe`, 'xcopy  D:\\Reports\\*.pdf \\\\fs01\\reports\\ /Y')],
  ['Industrial Automation Software Keys Queried Or Exported With Reg.exe', 'medium', 'discovery',
    proc(`${S32}reg.exe`, 'reg  query "HKLM\\SOFTWARE\\WOW6432Node\\Rockwell Software\\RSLinx\\Drivers" /s'),
    proc(`${S32}reg.exe`, 'reg  query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion" /v ReleaseId')],
  ['Industrial Automation Software Keys Queried Or Exported With Reg.exe', 'medium', 'discovery',
    proc4688(`${S32}reg.exe`, 'reg  export "HKLM\\SOFTWARE\\WOW6432Node\\Siemens\\AUTSW" C:\\Users\\bob\\AppData\\Local\\Temp\\s.reg /y'),
    proc4688(`${S32}reg.exe`, 'reg  add "HKLM\\SOFTWARE\\WOW6432Node\\Siemens\\AUTSW\\Demo" /v X /d 1 /f')],
  ['Service Program Path Set To An Empty Value (Sysmon 13)', 'high', 'impact',
    reg('HKLM\\System\\CurrentControlSet\\services\\LanmanServer\\ImagePath', '(Empty)', 'C:\\Users\\Public\\haslo.exe'),
    reg('HKLM\\System\\CurrentControlSet\\services\\RSLinx\\ImagePath', '"C:\\Program Files (x86)\\Rockwell Software\\RSLinx\\RSLINX.EXE"', `${S32}services.exe`)],
  ['Automation Engineering Or HMI Software Starts A Script Host Or Proxy Binary', 'medium', 'execution',
    proc(`${S32}rundll32.exe`, `"${S32}rundll32.exe" "C:\\Users\\bob\\AppData\\Local\\Temp\\RSLogix\\lgxcache.dll",DllRegisterServer`, LOGIX),
    proc(`${S32}rundll32.exe`, `"${S32}rundll32.exe" "C:\\Users\\bob\\AppData\\Local\\Temp\\x.dll",Start`, EXPL)],
  ['Automation Engineering Or HMI Software Starts A Script Host Or Proxy Binary', 'medium', 'execution',
    proc(`${S32}wscript.exe`, `"${S32}wscript.exe" C:\\Users\\bob\\AppData\\Local\\Temp\\a.vbs`, TIA),
    proc(`${S32}cmd.exe`, `"${S32}cmd.exe" /c "C:\\Program Files\\Siemens\\Automation\\Portal V17\\Bin\\collect.cmd"`, TIA)],
  ['Program Run From The Downloads Folder Writes A Kernel Driver (Sysmon 11)', 'medium', 'execution',
    file(`${S32}drivers\\ffphnx.sys`, `${DL}PLC_Password_Recovery.exe`), file(`${S32}drivers\\etc\\hosts.bak`, `${DL}PLC_Password_Recovery.exe`)],
  ['Program Run From The Downloads Folder Writes A Kernel Driver (Sysmon 11)', 'medium', 'execution',
    file(`${S32}drivers\\usbser2.sys`, `${DL}setup\\installer.exe`), file(`${S32}drivers\\usbser2.sys`, `${S32}DriverStore\\drvinst.exe`)],
  ['Command Line Addresses A PLC By Rack And Slot With A Stop Switch', 'medium', 'impact',
    proc(`${DL}s7ctl.exe`, 's7ctl.exe  --ip 192.168.10.60 --rack 0 --slot 1 --stop'),
    proc(PY, 'python  s7read.py --ip 192.168.10.60 --rack 0 --slot 1 --db 10 --stop-on-error')],
  ['Command Line Addresses A PLC By Rack And Slot With A Stop Switch', 'medium', 'impact',
    proc4688(PY, 'python  plc.py -rack 0 -slot 2 -stop 10.1.1.5'), proc4688(PY, 'python  -m pytest tests\\test_io.py --rig 192.168.250.10 --stop')],
];

describeCatalogue('built-in rules for the hosts of industrial and building-control networks', cases);

describe('built-in rules for the hosts of industrial and building-control networks: correlations', () => {
  it('six SCADA project, picture and historian files given one new extension by a program in Windows\\Temp are an encryption burst; five, or the same from a vendor program folder, are not', () => {
    const BURST = 'Burst Of Documents Given One New Extension By One Program';
    const names = ['C:\\Program Files (x86)\\Proficy\\Proficy iFIX\\PDB\\GRID.PDB', 'C:\\Program Files (x86)\\Proficy\\Proficy iFIX\\PIC\\Overview.grf', 'C:\\Program Files (x86)\\Proficy\\Proficy iFIX\\PIC\\Feeder.grf',
      'D:\\Historian\\Archives\\OPS_Archive137.iha', 'D:\\Projects\\Line3\\Line3_Main.ACD', 'D:\\TIA\\Reactor\\Reactor.ap17'];
    const enc = (image: string, k: number): Ev[] => names.slice(0, k).map((n) => file(`${n}.QiFrS`, image));
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const h = builtinHits(enc('C:\\Windows\\Temp\\svcupd.exe', 6)).get(BURST);
    expect(h?.level).toBe('high');
    expect(h?.tactics).toContain('impact');
    expect(titles(enc('C:\\Windows\\Temp\\svcupd.exe', 5))).not.toContain(BURST);
    expect(titles(enc(`${ROCKWELL}RSView Enterprise\\DisplayClient.exe`, 6))).not.toContain(BURST);
    expect(titles(enc(`${S32}svchost.exe`, 6))).not.toContain(BURST);
  });
});
