// Built-in rules for insiders and the misuse of legitimate access: removable storage, phones and Bluetooth, printing,
// cloud sync folders and web uploads, bulk reads seen through object access auditing, backup-mode copies, staging of share
// data, self-granted group membership, mass deletion on shares, Recycle Bin emptying, mailbox exports and the removal of
// security agents. Each rule fires on the event it is written for, as Windows or Sysmon writes it, with its level and a
// tactic of what the event shows, and a benign near miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, CHROME, describeCatalogue, EXPL, file, OFFICE, proc, reg, regValue, S32, sec, SUBJ, sysmon, USER, win, type CatalogueCase, type Ev } from './builtin.fixture.js';

const REG = `${S32}reg.exe`;
const ROBOCOPY = `${S32}Robocopy.exe`;
const XCOPY = `${S32}xcopy.exe`;
const FSQUIRT = `${S32}fsquirt.exe`;
const EDGE = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
const ONEDRIVE = 'C:\\Program Files\\Microsoft OneDrive\\OneDrive.exe';
const DRIVEFS = 'C:\\Program Files\\Google\\Drive File Stream\\106.0.4.0\\GoogleDriveFS.exe';
const USB_POLICY = 'RemovableStorageDevices\\{53f5630d-b6bf-11d0-94f2-00a0c91efb8b}';
/** Security 4656/4663 on a file: the object, the accesses and the program (a SACL audits the folder). */
const access = (eventId: number, objectName: string, accessList: string, processName: string, extra: JsonRecord = {}): Ev =>
  sec(eventId, { ...SUBJ, ObjectServer: 'Security', ObjectType: 'File', ObjectName: objectName, HandleId: '0x1ce8', AccessList: `${accessList}\n\t\t\t\t`, AccessMask: accessList === '%%4416' ? '0x1' : '0x2', ProcessId: '0x2548', ProcessName: processName, ResourceAttributes: 'S:AI', ...extra });
const usbstor = (oldValue: string, newValue: string): Ev =>
  sec(4657, { ...SUBJ, ObjectName: '\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Services\\USBSTOR', ObjectValueName: 'Start', HandleId: '0x9e4', OperationType: '%%1905', OldValueType: '%%1876', OldValue: oldValue, NewValueType: '%%1876', NewValue: newValue, ProcessId: '0x311c', ProcessName: REG });
const pnp = (eventId: number, instance: string, driver: string): Ev =>
  win('Microsoft-Windows-Kernel-PnP/Configuration', 'Microsoft-Windows-Kernel-PnP', eventId, { DeviceInstanceId: instance, DriverName: driver, ClassGuid: '{eec5ad98-8080-425f-922a-dabf3de3f69a}', DriverProvider: 'Microsoft', DriverInbox: 'true', Status: '0x0' });
const device = (deviceId: string, description: string, compatible: string): Ev =>
  sec(6416, { SubjectUserSid: 'S-1-5-18', SubjectUserName: 'WS01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7', DeviceId: deviceId, DeviceDescription: description, ClassId: '{EEC5AD98-8080-425F-922A-DABF3DE3F69A}', ClassName: 'WPD', VendorIds: '-', CompatibleIds: compatible, LocationInformation: '-' });
const groupAdd = (memberSid: string): Ev =>
  sec(4728, { MemberName: 'CN=Alice,OU=Users,DC=corp,DC=example', MemberSid: memberSid, TargetUserName: 'GS-Payroll-Confidential-RW', TargetDomainName: 'CORP', TargetSid: 'S-1-5-21-1-2-3-3241', ...SUBJ, PrivilegeList: '-' });
const msi = (eventId: number, text: string): Ev => win('Application', 'MsiInstaller', eventId, { Data: text });

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Removable Storage Block Lifted From The Command Line (USBSTOR Start Or Removable Storage Policy)', 'medium', 'defense-impairment',
    proc(REG, 'reg  add HKLM\\SYSTEM\\CurrentControlSet\\Services\\USBSTOR /v Start /t REG_DWORD /d 3 /f'),
    proc(REG, 'reg  add HKLM\\SYSTEM\\CurrentControlSet\\Services\\USBSTOR /v Start /t REG_DWORD /d 4 /f')],
  ['Removable Storage Block Lifted From The Command Line (USBSTOR Start Or Removable Storage Policy)', 'medium', 'defense-impairment',
    proc(REG, `reg  delete "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\${USB_POLICY}" /v Deny_Write /f`),
    proc(REG, `reg  query "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\${USB_POLICY}" /v Deny_Write`)],
  ['Removable Storage Block Lifted In The Registry (USBSTOR Start Or Removable Storage Policy)', 'medium', 'defense-impairment',
    reg('HKLM\\System\\CurrentControlSet\\Services\\USBSTOR\\Start', 'DWORD (0x00000003)'),
    reg('HKLM\\System\\CurrentControlSet\\Services\\USBSTOR\\Start', 'DWORD (0x00000004)')],
  ['Removable Storage Block Lifted In The Registry (USBSTOR Start Or Removable Storage Policy)', 'medium', 'defense-impairment',
    sysmon(12, { EventType: 'DeleteValue', Image: REG, TargetObject: `HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\${USB_POLICY}\\Deny_Write`, User: USER }),
    sysmon(12, { EventType: 'DeleteValue', Image: `${S32}svchost.exe`, TargetObject: `HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\${USB_POLICY}\\Deny_Write`, User: 'NT AUTHORITY\\SYSTEM' })],
  ['Removable Storage Block Lifted In The Registry (Security 4657)', 'medium', 'defense-impairment',
    usbstor('4', '3'), usbstor('3', '4')],
  ['Removable Storage Block Lifted In The Registry (Security 4657)', 'medium', 'defense-impairment',
    regValue(`\\REGISTRY\\MACHINE\\SOFTWARE\\Policies\\Microsoft\\Windows\\${USB_POLICY}`, 'Deny_Write', '-', '%%1906'),
    regValue(`\\REGISTRY\\MACHINE\\SOFTWARE\\Policies\\Microsoft\\Windows\\${USB_POLICY}`, 'Deny_Write', '1', '%%1904')],
  ['Archive Read By A Web Browser (Upload, Object Access 4663)', 'low', 'exfiltration',
    access(4663, 'C:\\Data\\Bids\\bids.zip', '%%4416', CHROME),
    access(4663, 'C:\\Users\\alice\\Downloads\\bids.zip', '%%4417', CHROME)],
  ['SharePoint Or OneDrive Folder Downloaded As A Zip By A Browser', 'low', 'collection',
    file('C:\\Users\\bob\\Downloads\\OneDrive_1_26-03-2025.zip', EDGE),
    file('C:\\Users\\bob\\Downloads\\report_26-03-2025.zip', EDGE)],
  ['Bluetooth File Transfer Wizard Opened To Choose Send Or Receive (fsquirt)', 'low', 'exfiltration',
    proc(FSQUIRT, `"${FSQUIRT}" `, EXPL), proc(FSQUIRT, `"${FSQUIRT}" -send`, EXPL)],
  ['Audited File Read By The Bluetooth File Transfer Wizard (4663)', 'medium', 'exfiltration',
    access(4663, 'C:\\Users\\alice\\Documents\\Contracts\\MSA_signed.pdf', '%%4416', FSQUIRT),
    access(4663, 'C:\\Users\\alice\\Documents\\Contracts\\MSA_signed.pdf', '%%4416', EXPL)],
  ['Phone Or Portable Device Configured For File Transfer (Kernel-PnP 400/410, MTP)', 'low', 'exfiltration',
    pnp(400, 'USB\\VID_18D1&PID_4EE1\\28081FDH2002VK', 'wpdmtp.inf'),
    pnp(400, 'SWD\\WPDBUSENUM\\_??_USBSTOR#DISK&VEN_KINGSTON&PROD_IKVP50#IK50A7C21B9F0D3E44&0#{53F56307-B6BF-11D0-94F2-00A0C91EFB8B}', 'wpdfs.inf')],
  ['Phone Or Portable Device Connected Over USB (Security 6416, WPD)', 'low', 'exfiltration',
    device('USB\\VID_18D1&PID_4EE1\\28081FDH2002VK', 'Pixel 7', 'USB\\MS_COMP_MTP\n\t\t\t\tUSB\\Class_06&SubClass_01&Prot_01'),
    device('SWD\\WPDBUSENUM\\_??_USBSTOR#DISK&VEN_KINGSTON&PROD_IKVP50#IK50A7C21B9F0D3E44&0#{53F56307-B6BF-11D0-94F2-00A0C91EFB8B}', 'E:\\', 'SWD\\Generic')],
  ['File Written To Removable Storage (Removable Storage Auditing 4663)', 'low', 'exfiltration',
    access(4663, '\\Device\\HarddiskVolume9\\bk\\Atlas\\Atlas_BOM_Costed.xlsx', '%%4417', ROBOCOPY),
    access(4663, '\\Device\\HarddiskVolume9\\bk\\Atlas\\Atlas_BOM_Costed.xlsx', '%%4416', ROBOCOPY)],
  ['Personal Microsoft Account Signed Into The OneDrive Client', 'low', 'exfiltration',
    reg('HKU\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Microsoft\\OneDrive\\Accounts\\Personal\\UserEmail', 'bob.home@outlook.com', ONEDRIVE),
    reg('HKU\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Microsoft\\OneDrive\\Accounts\\Business1\\UserEmail', 'bob@corp.example', ONEDRIVE)],
  ['File Written Into A Personal OneDrive, Google Drive Or Dropbox Folder By Another Program', 'low', 'exfiltration',
    file('C:\\Users\\bob\\OneDrive - Personal\\Documents\\clients\\Engagement_Letter.pdf', ROBOCOPY),
    file('C:\\Users\\bob\\OneDrive - Corp Example\\Documents\\clients\\Engagement_Letter.pdf', ROBOCOPY)],
  ['File Written Into A Personal OneDrive, Google Drive Or Dropbox Folder By Another Program', 'low', 'exfiltration',
    file('G:\\My Drive\\Backup-work\\Clients\\Client_List.xlsx', EXPL),
    file('G:\\My Drive\\Backup-work\\Clients\\Client_List.xlsx', DRIVEFS)],
  ['Network Share Folder Copied Into A Temporary, Public Or ProgramData Folder', 'low', 'collection',
    proc(XCOPY, 'xcopy  "\\\\fs02.corp.example\\Legal\\Contracts\\Active" C:\\ProgramData\\Microsoft\\DeviceSync\\cache\\c\\ /s /e /h /c /y /q'),
    proc(XCOPY, 'xcopy  C:\\ProgramData\\AppLogs \\\\fs02.corp.example\\Logs\\WS01\\ /s /e /y')],
  ['Network Share Folder Copied Into A Temporary, Public Or ProgramData Folder', 'low', 'collection',
    proc(ROBOCOPY, 'robocopy  "\\\\fs01.corp.example\\HR$\\Personnel Files" C:\\Users\\bob\\AppData\\Local\\Temp\\pf /E /MT:8 /LOG:C:\\Users\\bob\\AppData\\Local\\Temp\\pf.log'),
    proc(ROBOCOPY, 'robocopy  "\\\\fs01.corp.example\\HR$\\Personnel Files" D:\\Archive\\pf /E /MT:8 /LOG:C:\\Users\\bob\\AppData\\Local\\Temp\\pf.log')],
  ['Robocopy Run In Backup Mode (/B Or /ZB)', 'low', 'collection',
    proc(ROBOCOPY, 'robocopy  D:\\Shares\\Executive C:\\Users\\bob\\Documents\\x /B /E /COPY:DAT /R:0 /W:0'),
    proc(ROBOCOPY, 'robocopy  D:\\Shares\\Executive E:\\Migration\\Executive /Z /E /COPY:DAT /R:0 /W:0')],
  ['Audited File Opened Through The Backup Privilege By A Program Outside Program Files (4656)', 'low', 'collection',
    access(4656, 'D:\\Shares\\Executive\\Board\\2025-03 Board Pack.pdf', '%%4416', ROBOCOPY, { PrivilegeList: 'SeBackupPrivilege' }),
    access(4656, 'D:\\Shares\\Executive\\Board\\2025-03 Board Pack.pdf', '%%4416', 'C:\\Program Files\\Veeam\\Endpoint Backup\\Veeam.EndPoint.Service.exe', { PrivilegeList: 'SeBackupPrivilege' })],
  ['Account Added Itself To A Security Group', 'medium', 'privilege-escalation',
    groupAdd(SUBJ.SubjectUserSid), groupAdd('S-1-5-21-1-2-3-4480')],
  ['Outlook Data File (PST) Created', 'low', 'collection',
    file('C:\\Users\\bob\\Documents\\Outlook Files\\legal-matters-archive.pst', `${OFFICE}OUTLOOK.EXE`),
    file('C:\\Users\\bob\\AppData\\Local\\Microsoft\\Outlook\\bob@corp.example.ost', `${OFFICE}OUTLOOK.EXE`)],
  ['Security, DLP Or Endpoint Agent Removed By Windows Installer (MsiInstaller 1034/11724)', 'low', 'defense-impairment',
    msi(11724, 'Product: Netskope Client -- Removal completed successfully.\n(NULL)\n(NULL)\n(NULL)\n(NULL)\n(NULL)\n'),
    msi(11724, 'Product: Adobe Acrobat Reader -- Removal completed successfully.\n(NULL)\n(NULL)\n(NULL)\n(NULL)\n(NULL)\n')],
];

describeCatalogue('built-in rules for insiders and the misuse of legitimate access', cases);

describe('built-in rules for insiders and the misuse of legitimate access: correlations', () => {
  const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
  const range = (k: number): number[] => Array.from({ length: k }, (_, i) => i);

  it('three different documents printed by one user within fifteen minutes are reported; two, one document three times, or three users, are not', () => {
    const PRINTS = 'Several Different Documents Printed By One User Within Fifteen Minutes';
    const printed = (doc: string, user = 'bfoster'): Ev =>
      win('Microsoft-Windows-PrintService/Operational', 'Microsoft-Windows-PrintService', 307, { Param1: '32', Param2: doc, Param3: user, Param4: '\\\\WS01', Param5: 'HP LaserJet M507 - Floor 3', Param6: '10.20.8.21', Param7: '2680271', Param8: '17' });
    const h = builtinHits([printed('Price Book.pdf'), printed('Key_Accounts.xlsx'), printed('Shortlist.docx')]).get(PRINTS);
    expect(h?.level).toBe('informational');
    expect(h?.tactics).toContain('exfiltration');
    expect(titles([printed('Price Book.pdf'), printed('Key_Accounts.xlsx')])).not.toContain(PRINTS);
    expect(titles([printed('Annual Report.pdf'), printed('Annual Report.pdf'), printed('Annual Report.pdf')])).not.toContain(PRINTS);
    expect(titles([printed('Price Book.pdf', 'a'), printed('Key_Accounts.xlsx', 'b'), printed('Shortlist.docx', 'c')])).not.toContain(PRINTS);
  });

  it('five different audited files read by one program in one logon within two minutes are collection; four, one file five times, or the indexer, are not', () => {
    const READS = 'Five Or More Audited Files Read By One Program Within Two Minutes (4663)';
    const read = (n: number, process = EXPL): Ev => access(4663, `D:\\Projects\\Turbine-X9\\Part_${n}.ipt`, '%%4416', process);
    const h = builtinHits(range(5).map((i) => read(i))).get(READS);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('collection');
    expect(titles(range(4).map((i) => read(i)))).not.toContain(READS);
    expect(titles(range(5).map(() => read(1)))).not.toContain(READS);
    expect(titles(range(5).map((i) => read(i, `${S32}SearchProtocolHost.exe`)))).not.toContain(READS);
  });

  it('ten different files or folders deleted over a share by one logon within two minutes are impact; nine, or ten reads, are not', () => {
    const DELETES = 'Ten Or More Files Or Folders Deleted Over A Share By One Logon Within Two Minutes';
    const share = (n: number, accessList = '%%1537', mask = '0x10080'): Ev =>
      sec(5145, { ...SUBJ, ObjectType: 'File', IpAddress: '10.20.5.90', IpPort: '50200', ShareName: '\\\\*\\Engineering', ShareLocalPath: '\\??\\D:\\Shares\\Engineering', RelativeTargetName: `Gen5\\Drawings\\G5-10${n}.dwg`, AccessMask: mask, AccessList: `${accessList}\n\t\t\t\t` });
    const h = builtinHits(range(10).map((i) => share(i))).get(DELETES);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('impact');
    expect(titles(range(9).map((i) => share(i)))).not.toContain(DELETES);
    expect(titles(range(10).map((i) => share(i, '%%4416', '0x1')))).not.toContain(DELETES);
  });

  it('three items purged from the Recycle Bin by one program within two minutes are reported; two, or three other files deleted, are not', () => {
    const EMPTIED = 'Recycle Bin Emptied Of Several Items Within Two Minutes';
    const bin = 'C:\\$Recycle.Bin\\S-1-5-21-1-2-3-1639\\';
    const purged = (name: string): Ev => sysmon(26, { Image: EXPL, TargetFilename: `${bin}${name}`, User: USER, IsExecutable: 'false' });
    const h = builtinHits([purged('$RQ8K2LD.zip'), purged('$R4TZ0PA.csv'), purged('$RM1X7WB.csv')]).get(EMPTIED);
    expect(h?.level).toBe('informational');
    expect(h?.tactics).toContain('stealth');
    expect(titles([purged('$RQ8K2LD.zip'), purged('$R4TZ0PA.csv')])).not.toContain(EMPTIED);
    const other = (name: string): Ev => sysmon(26, { Image: EXPL, TargetFilename: `C:\\Users\\bob\\Documents\\${name}`, User: USER, IsExecutable: 'false' });
    expect(titles([other('a.zip'), other('b.csv'), other('c.csv')])).not.toContain(EMPTIED);
  });
});
