// Built-in rules written for backup, storage and recovery systems as targets before and during ransomware (Veeam
// backups, jobs and credentials, Windows Server Backup images, shadow copies, backup services, NAS repositories, storage
// and cloud snapshots): each rule fires on the event it is written for, as Windows, Sysmon or PowerShell writes it, with
// its level and a tactic of what the event shows, and a benign near miss of the same event type (often what a backup
// administrator does) does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, CMD, describeCatalogue, proc, PS, S32, script, tick, windowsEvent, type CatalogueCase, type Ev } from './builtin.fixture.js';

const scm = (eventId: number, data: JsonRecord): Ev => windowsEvent(tick(), 'System', 'Service Control Manager', eventId, data, 'SRV01');
const disabled = (name: string, key: string, to = 'disabled'): Ev => scm(7040, { param1: name, param2: 'auto start', param3: to, param4: key });
const ROBOCOPY = `${S32}Robocopy.exe`;
const AWS = 'C:\\Program Files\\Amazon\\AWSCLIV2\\aws.exe';
const PLINK = 'C:\\Users\\adm\\Downloads\\plink.exe';
const SQLCMD = 'C:\\Program Files\\Microsoft SQL Server\\Client SDK\\ODBC\\170\\Tools\\Binn\\SQLCMD.EXE';
const PSQL = 'C:\\Program Files\\PostgreSQL\\15\\bin\\psql.exe';
const DISKSHADOW = `${S32}diskshadow.exe`;

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Backup Or Volume Shadow Copy Service Set To Disabled (System 7040)', 'medium', 'impact',
    disabled('Commvault Communications Service (CVD) (Instance001)', 'GxCVD(Instance001)'),
    disabled('Commvault Communications Service (CVD) (Instance001)', 'GxCVD(Instance001)', 'demand start')],
  ['Backup Or Volume Shadow Copy Service Set To Disabled (System 7040)', 'medium', 'impact',
    disabled('Volume Shadow Copy', 'VSS'), disabled('Print Spooler', 'Spooler')],
  ['Cloud Storage Object Lock Or Immutability Bypassed From A Command Line', 'high', 'impact',
    proc(AWS, `"${AWS}" s3api delete-objects --bucket corp-veeam-immut --delete file://C:\\Users\\adm\\AppData\\Local\\Temp\\d.json --bypass-governance-retention`, PS),
    proc(AWS, `"${AWS}" s3api delete-objects --bucket corp-build-cache --delete file://C:\\Users\\adm\\AppData\\Local\\Temp\\d.json`, PS)],
  ['Storage Array Snapshot Deletion Or Snapshot Policy Removal Sent From A Windows Host', 'medium', 'impact',
    proc(PLINK, `"${PLINK}" -ssh -batch admin@10.20.9.5 "set -confirmations off; volume snapshot delete -vserver svm_backup -volume vol_veeam* -snapshot * -force true"`, PS),
    proc(PLINK, `"${PLINK}" -ssh -batch admin@10.20.9.5 "volume snapshot show -vserver svm_backup"`, PS)],
  ['Robocopy Mirror Or Purge From A User-Writable Staging Folder', 'medium', 'impact',
    proc(ROBOCOPY, 'robocopy  C:\\ProgramData\\e Z:\\ /MIR /R:0 /W:0 /MT:64 /NFL /NDL /NP /NJH'),
    proc(ROBOCOPY, 'Robocopy.exe D:\\Shares\\Projects \\\\nas02.corp.example\\replica\\Projects /MIR /COPY:DAT /MT:16 /LOG+:D:\\Logs\\nas-sync\\projects.log', `${S32}svchost.exe`)],
  ['Veeam Backups Removed Or Jobs Disabled From PowerShell (script block 4104)', 'medium', 'impact',
    script('$b = Get-VBRBackup\r\nforeach ($x in $b) { Remove-VBRBackup -Backup $x -FromDisk -Confirm:$false -RunAsync }'),
    script('Get-VBRBackup | Select-Object Name, JobType, DirPath')],
  ['Veeam Backups Removed Or Jobs Disabled From PowerShell (script block 4104)', 'medium', 'impact',
    script('Set-VBRConfigurationBackupJob -Enable:$false'), script('Set-VBRConfigurationBackupJob -Enable:$true -EnableEncryption')],
  ['Veeam Servers, Repositories Or Stored Credentials Listed From PowerShell (script block 4104)', 'low', 'discovery',
    script('Get-VBRCredentials | Select-Object Name, Description, ChangeTimeUtc'), script('Get-VBRJob | Select-Object Name, LastResult')],
  ['Files Restored From A Veeam Backup Through PowerShell (script block 4104)', 'low', 'collection',
    script("Copy-Item 'C:\\VeeamFLR\\FS01_6a1d9e02\\Volume2\\Shares\\Finance' C:\\PerfLogs\\f -Recurse"),
    script("Get-ChildItem 'C:\\VeeamFLR' | Select-Object Name")],
  ['Files Restored From A Veeam Backup Through PowerShell (script block 4104)', 'low', 'collection',
    script("$s = Start-VBRWindowsFileRestore -RestorePoint $rp -Reason 'verify'"), script('Get-VBRRestorePoint -Name FS01 | Select-Object CreationTime')],
  ['NTDS.dit Copied In A PowerShell Script Block', 'high', 'credential-access',
    script('Copy-Item F:\\Windows\\NTDS\\ntds.dit C:\\ProgramData\\x\\n.dit'),
    script('Copy-Item G:\\Shares\\Quality D:\\RestoreTest\\2025Q1 -Recurse')],
  ['SQL Database Backed Up To A Temp Or Public Folder From The Command Line', 'medium', 'collection',
    proc(SQLCMD, `sqlcmd  -S .\\VEEAMSQL2016 -E -Q "BACKUP DATABASE [VeeamBackup] TO DISK='C:\\Windows\\Temp\\vb.bak' WITH COPY_ONLY, INIT"`),
    proc(SQLCMD, `sqlcmd  -S .\\VEEAMSQL2016 -E -Q "BACKUP DATABASE [VeeamBackup] TO DISK='E:\\SQLBackup\\VeeamBackup.bak' WITH INIT"`)],
  ['Diskshadow Runs A Script From A User-Writable Folder', 'medium', 'impact',
    proc(DISKSHADOW, 'diskshadow  /s C:\\ProgramData\\dsh.txt'), proc(DISKSHADOW, 'diskshadow  /s D:\\Admin\\Scripts\\expose-backup.dsh')],
  ['SQL Client Reads A Credentials Table', 'high', 'credential-access',
    proc(PSQL, `"${PSQL}" -h localhost -U postgres -d VeeamBackup -A -c "SELECT user_name, password, description FROM credentials WHERE password <> ''" -o C:\\ProgramData\\pgc.txt`),
    proc(PSQL, `"${PSQL}" -h localhost -U postgres -d VeeamBackup -c "SELECT count(*) FROM backup.model.jobsessions"`)],
];

describeCatalogue('built-in rules for backup, storage and recovery systems as targets', cases);

describe('built-in rules for backup, storage and recovery systems as targets: correlations', () => {
  it('four different recovery-option queries on one host within ten minutes are discovery; three, or one repeated, are not, and a query alone is not reported', () => {
    const SURVEY = 'Several Recovery Options Of One Host Surveyed Within Minutes';
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const vss = (cmd: string): Ev => proc(`${S32}vssadmin.exe`, cmd, CMD);
    const wb = (cmd: string): Ev => proc(`${S32}wbadmin.exe`, cmd, CMD);
    const h = builtinHits([vss('vssadmin  list shadows'), vss('vssadmin  list shadowstorage'), wb('wbadmin  get versions'), proc(`${S32}ReAgentc.exe`, 'reagentc  /info')]).get(SURVEY);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('discovery');
    expect(titles([vss('vssadmin  list shadows'), vss('vssadmin  list shadowstorage'), wb('wbadmin  get versions')])).not.toContain(SURVEY);
    expect(titles([wb('wbadmin  get versions'), wb('wbadmin  get versions'), wb('wbadmin  get versions'), wb('wbadmin  get versions')])).not.toContain(SURVEY);
    expect(titles([vss('vssadmin  list shadows')])).not.toContain('Recovery Option Query Command (base of the recovery-survey burst)');
  });
});
