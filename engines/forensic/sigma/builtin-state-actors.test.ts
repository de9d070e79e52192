// Built-in rules for state-sponsored intrusion playbooks (fortieth round of blind units): logon events read from the
// Security log with PowerShell and saved to a file, a wiper run from a network share opening volumes for raw access, and
// a side-loaded implant using a cloud storage API (Microsoft Graph, OneDrive, Dropbox) as its command channel or
// exfiltration drop. Each rule fires on the event it is written for, as Windows or Sysmon writes it, with its level and a
// tactic of what the event shows, and a benign near miss of the same event type does not fire it.
import { CHROME, describeCatalogue, dns, load, script, sysmon, type CatalogueCase, type Ev } from './builtin.fixture.js';

/** Sysmon 9: a volume or disk opened for raw access by the program given. */
const rawRead = (image: string, device: string): Ev => sysmon(9, { ProcessGuid: '{9a1b0c2d-65df-ef39-0d32-000000018600}', ProcessId: '13180', Image: image, Device: device, User: 'NT AUTHORITY\\SYSTEM' });
/** Sysmon 22: a name resolved by the process given (the process of `unsignedLoad` unless another GUID is given). */
const cloudDns = (image: string, name: string, guid = '{5c3d2e1f-660b-ee31-1312-0000000e4c00}'): Ev =>
  dns(image, name, { ProcessGuid: guid, ProcessId: '10816', QueryResults: '::ffff:162.125.66.14;' });
/** Sysmon 7: an unsigned DLL loaded by the process given. */
const unsignedLoad = (image: string, dll: string, guid = '{5c3d2e1f-660b-ee31-1312-0000000e4c00}'): Ev =>
  load(image, dll, { ProcessGuid: guid, ProcessId: '10816', Signed: 'false', Signature: '-', SignatureStatus: 'Unavailable' });
const CHROME_X86 = 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe';
const SYSVOL_TOOL = '\\\\corp.example\\sysvol\\corp.example\\Policies\\{31B2F340-016D-11D2-945F-00C04FB984F9}\\Machine\\update.exe';
const DROPBOX = 'C:\\Program Files (x86)\\Dropbox\\Client\\Dropbox.exe';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Security Log Logon Events Exported To A File From A Script Block (script block 4104)', 'medium', 'discovery',
    script("Get-EventLog security -instanceid 4624 -after 2026-02-04 | fl * | Out-File 'C:\\users\\public\\documents\\l.dat'"),
    script("$n = (Get-WinEvent -FilterHashtable @{LogName='Security'; Id=4624; StartTime=$since}).Count\nSet-Content -Path 'D:\\Monitoring\\logons.xml' -Value $n")],
  ['Security Log Logon Events Exported To A File From A Script Block (script block 4104)', 'medium', 'discovery',
    script("Get-WinEvent -FilterHashtable @{LogName='Security';ID=4624} | Select-Object TimeCreated,@{n='User';e={$_.Properties[5].Value}} | Export-Csv C:\\Windows\\Temp\\r.csv -NoTypeInformation"),
    script("Get-WinEvent -FilterHashtable @{LogName='System';ID=6005} | Export-Csv C:\\Reports\\boots.csv -NoTypeInformation")],
  ['Security Log Logon Events Queried From A Script Block (script block 4104)', 'low', 'discovery',
    script("Get-WinEvent -FilterHashtable @{LogName='Security'; Id=4648} -MaxEvents 50 | Where-Object { $_.Message -match 'admin' }"),
    script("Get-WinEvent -FilterHashtable @{LogName='Application'; Id=1000} -MaxEvents 50")],
  ['Raw Volume Or Disk Read By A Program Run From A Network Share (Sysmon 9)', 'high', 'impact',
    rawRead(SYSVOL_TOOL, '\\Device\\HarddiskVolume2'),
    rawRead('C:\\Program Files\\Veeam\\Endpoint Backup\\Veeam.EndPoint.Service.exe', '\\Device\\HarddiskVolume2')],
  ['Cloud Storage API Resolved By A Program In ProgramData, Public Or A Temporary Folder (Sysmon 22)', 'medium', 'command-and-control',
    cloudDns('C:\\ProgramData\\Zoom\\bin\\Zoom.exe', 'graph.microsoft.com'),
    cloudDns('C:\\Program Files\\Microsoft OneDrive\\OneDrive.exe', 'graph.microsoft.com')],
  ['Cloud Storage API Resolved By A Program In ProgramData, Public Or A Temporary Folder (Sysmon 22)', 'medium', 'exfiltration',
    cloudDns('C:\\Users\\Public\\Libraries\\svc\\host.exe', 'content.dropboxapi.com'),
    cloudDns('C:\\ProgramData\\Agent\\agent.exe', 'www.dropbox.com')],
  ['Process With An Unsigned DLL Then Resolves A Cloud Storage API (Side-Loaded Implant Using Cloud C2)', 'medium', 'exfiltration',
    [unsignedLoad(CHROME_X86, 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\109.0.5414.120\\dwmapi.dll'), cloudDns(CHROME_X86, 'content.dropboxapi.com')],
    [load(DROPBOX, 'C:\\Program Files (x86)\\Dropbox\\Client\\libcef.dll', { ProcessGuid: '{5c3d2e1f-660b-ee31-1312-0000000e4c00}' }), cloudDns(DROPBOX, 'content.dropboxapi.com'),
      unsignedLoad(CHROME, 'C:\\Program Files\\Google\\Chrome\\Application\\plugin.dll', '{11111111-2222-3333-4444-555555555555}'), cloudDns(CHROME, 'content.dropboxapi.com', '{66666666-2222-3333-4444-555555555555}')]],
  ['Process With An Unsigned DLL Then Resolves A Cloud Storage API (Side-Loaded Implant Using Cloud C2)', 'medium', 'command-and-control',
    [unsignedLoad('C:\\Users\\bob\\AppData\\Roaming\\Zoom\\bin\\Zoom.exe', 'C:\\Users\\bob\\AppData\\Roaming\\Zoom\\bin\\vcruntime140.dll'), cloudDns('C:\\Users\\bob\\AppData\\Roaming\\Zoom\\bin\\Zoom.exe', 'graph.microsoft.com')],
    [cloudDns('C:\\Users\\bob\\AppData\\Roaming\\Zoom\\bin\\Zoom.exe', 'graph.microsoft.com'), unsignedLoad('C:\\Users\\bob\\AppData\\Roaming\\Zoom\\bin\\Zoom.exe', 'C:\\Users\\bob\\AppData\\Roaming\\Zoom\\bin\\vcruntime140.dll')]],
];

describeCatalogue('built-in rules for state-sponsored intrusion playbooks', cases);
