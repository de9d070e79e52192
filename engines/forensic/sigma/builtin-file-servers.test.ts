// Built-in rules for file servers, SMB shares and the data on them (thirty-eighth round of blind units): ransomware run
// from a client against shares, BitLocker turned against a data volume, files rewritten in place with their dates put
// back, NTLM-leaking shell files and libraries planted on shares, programs started from shares and SharePoint libraries
// synced to a laptop. Each rule fires on the event it is written for, as Windows or Sysmon writes it, with its level and
// a tactic of what the event shows, and a benign near miss of the same event type does not fire it.
import type { JsonRecord } from '../event.js';
import { describeCatalogue, EXPL, load, proc, PS, S32, script, sec, SUBJ, type CatalogueCase, type Ev } from './builtin.fixture.js';

/** Security 5145 on the file server FS01: a file on a share opened by a network logon with the access list given. */
const share = (shareName: string, target: string, accessList: string, extra: JsonRecord = {}): Ev =>
  sec(5145, { ...SUBJ, ObjectType: 'File', IpAddress: '10.0.0.41', IpPort: '50496', ShareName: `\\\\*\\${shareName}`, ShareLocalPath: `\\??\\D:\\Shares\\${shareName}`, RelativeTargetName: target, AccessMask: '0x130197', AccessList: accessList, ...extra }, 'FS01');
const WRITE = '%%1537 %%1538 %%1541 %%4416 %%4417 %%4418 %%4420 %%4423 %%4424';
const READ = '%%1538 %%1541 %%4416 %%4419 %%4423';
const MBDE = `${S32}manage-bde.exe`;
const ONEDRIVE = 'C:\\Program Files\\Microsoft OneDrive\\OneDrive.exe';
const EDGE = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
const SHARE_APP = '\\\\FS01\\Apps\\ERPClient\\ERPClient.exe';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Program Run With Ransomware Network-Share Encryption Arguments', 'high', 'impact',
    proc('C:\\Users\\Public\\svcupd.exe', 'C:\\Users\\Public\\svcupd.exe -m net -p \\\\FS02\\Data -size 20 -nomutex'),
    proc('C:\\Tools\\netprobe.exe', 'C:\\Tools\\netprobe.exe -m net -v')],
  ['Program Run With Ransomware Network-Share Encryption Arguments', 'high', 'impact',
    proc('C:\\ProgramData\\x.exe', 'C:\\ProgramData\\x.exe -m all -nomutex'),
    proc('C:\\ProgramData\\x.exe', 'C:\\ProgramData\\x.exe -m local -size 20')],
  ['BitLocker Volume Force-Locked Or Encrypted With A Password From The Command Line', 'medium', 'impact',
    proc(MBDE, '"C:\\Windows\\system32\\manage-bde.exe" -lock D: -ForceDismount', PS),
    proc(MBDE, '"C:\\Windows\\system32\\manage-bde.exe" -lock E:', PS)],
  ['BitLocker Volume Force-Locked Or Encrypted With A Password From The Command Line', 'medium', 'impact',
    proc(MBDE, 'manage-bde.exe -on D: -pw -used', PS),
    proc(MBDE, 'manage-bde.exe -on C: -tpm -rp', PS)],
  ['BitLocker Enabled With A Password Protector Or Volume Force-Locked (script block 4104)', 'medium', 'impact',
    script("$s = Read-Host -AsSecureString\nEnable-BitLocker -MountPoint 'D:' -EncryptionMethod XtsAes256 -UsedSpaceOnly -PasswordProtector -Password $s"),
    script("Enable-BitLocker -MountPoint 'C:' -EncryptionMethod XtsAes256 -TpmProtector")],
  ['Files Rewritten With Replaced Text And Their Last-Write Time Put Back (script block 4104)', 'medium', 'impact',
    script("foreach($x in gci \\\\FS01\\Finance\\AP -Filter *.csv){ $t = $x.LastWriteTime; (Get-Content $x.FullName) -replace 'DE89370400440532013000','LT601010012345678901' | Set-Content $x.FullName; $x.LastWriteTime = $t }"),
    script("foreach($x in gci C:\\Build\\out -Filter *.config){ (Get-Content $x.FullName) -replace '__VERSION__','1.4.2' | Set-Content $x.FullName }")],
  ['Shell Command, Library Or Search Connector File Written To A Share', 'medium', 'credential-access',
    share('Public', 'Scans\\@Scans_index.scf', WRITE), share('Public', 'Scans\\@Scans_index.scf', READ)],
  ['Shell Command, Library Or Search Connector File Written To A Share', 'medium', 'credential-access',
    share('Projects', 'Q2\\Review.library-ms', WRITE), share('Scans', 'SCAN_0001.pdf', WRITE)],
  ['DLL Written To A File Share Over The Network', 'low', 'lateral-movement',
    share('Apps', 'ERPClient\\version.dll', WRITE), share('Apps', 'ERPClient\\version.dll', READ)],
  ['DLL Written To A File Share Over The Network', 'low', 'lateral-movement',
    share('Public', 'Scans\\.sys\\msvcr.dll', WRITE), share('D$', 'Apps\\ERPClient\\version.dll', WRITE)],
  ['Unsigned Library Loaded From A Share By A Program Run From The Share', 'low', 'lateral-movement',
    load(SHARE_APP, '\\\\FS01\\Apps\\ERPClient\\version.dll', { Signed: 'false' }),
    load(SHARE_APP, '\\\\FS01\\Apps\\ERPClient\\erpcore.dll', { Signed: 'true' })],
  ['User Starts A Program Straight From A Network Share', 'low', 'execution',
    proc('\\\\FS01\\Public\\HR\\Benefits_2025_Enrollment.pdf.exe', '"\\\\FS01\\Public\\HR\\Benefits_2025_Enrollment.pdf.exe" ', EXPL),
    proc('C:\\Users\\bob\\Downloads\\setup.exe', '"C:\\Users\\bob\\Downloads\\setup.exe" ', EXPL)],
  ['SharePoint Library Sync Started From An odopen Link', 'informational', 'collection',
    proc(ONEDRIVE, `"${ONEDRIVE}" /url:odopen://sync/?siteId=%7B46d0ae63%7D&listId=%7Be3bffb11%7D&webUrl=https%3A%2F%2Fcorpexample.sharepoint.com%2Fsites%2FFinance`, EDGE),
    proc(ONEDRIVE, `"${ONEDRIVE}" /background`, EXPL)],
];

describeCatalogue('built-in rules for file servers, shares and the data on them', cases);
