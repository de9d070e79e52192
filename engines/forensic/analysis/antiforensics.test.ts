import { describe, expect, it } from 'vitest';
import type { ForensicEvent } from '../event.js';
import { mulberry32 } from '../../core/random.js';
import { ANTI_FORENSICS_CHECKS, NumberList, PENALTY_FLOOR, penaltyOf, scanAntiForensics } from './antiforensics.js';
import { at, makeEvent, sysmon1, sysmonEvent } from './events.fixture.js';

const kinds = (events: ForensicEvent[]): string[] => scanAntiForensics(events).verdict.indicators.map((i) => i.kind);
const cmdline = (t: number, cmd: string): ForensicEvent => sysmon1(t, { image: 'C:\\Windows\\explorer.exe', pid: 1 }, { image: 'C:\\Windows\\System32\\cmd.exe', pid: 2 + t }, cmd);
const shell = (t: number, cmd: string): ForensicEvent => makeEvent({ time: at(t), host: 'web', kind: 'authlog', action: 'sudo.command', actor: { type: 'user', name: 'u' }, object: { type: 'process', name: 'x' }, attributes: { commandLine: cmd } });

describe('anti-forensics scan', () => {
  it('has a description for every check', () => {
    for (const c of ANTI_FORENSICS_CHECKS) expect(c.description.length).toBeGreaterThan(20);
  });

  it('log cleared: 1102, 104 and wevtutil', () => {
    const e1102 = makeEvent({ action: 'log.clear', object: { type: 'log', name: 'Security' }, attributes: { eventId: 1102, provider: 'Microsoft-Windows-Eventlog' } });
    const e104 = makeEvent({ action: 'windows.event', attributes: { eventId: 104, provider: 'Microsoft-Windows-Eventlog' } });
    expect(kinds([e1102, e104])).toEqual(['log-cleared', 'log-cleared']);
    expect(kinds([cmdline(0, 'wevtutil.exe cl Security')])).toEqual(['log-cleared']);
    expect(kinds([shell(0, 'rm -f /var/log/auth.log')])).toEqual(['log-cleared']);
  });

  it('reads the id of each event when events of one event id text, one host and one time follow each other, the same object again among them', () => {
    // The checks share the event id read last (by the event object): events alike in everything a key could be made of.
    const e1102 = makeEvent({ action: 'windows.event', attributes: { eventId: 1102, provider: 'Microsoft-Windows-Eventlog' } });
    const e4624 = { ...e1102, attributes: { eventId: 4624, provider: 'Microsoft-Windows-Eventlog' } };
    const e104 = { ...e1102, attributes: { eventId: 104, provider: 'Microsoft-Windows-Eventlog' } };
    expect(e4624.eventId).toBe(e1102.eventId);
    // The check's own indicators, before the scan merges those of one kind close in time.
    const cleared = ANTI_FORENSICS_CHECKS.find((c) => c.kind === 'log-cleared');
    expect(cleared?.scan([e4624, e1102, e1102, e4624, e104, e4624]).map((i) => i.summary)).toHaveLength(3);
    expect(cleared?.scan([e1102, e4624, e4624, e104, e4624])).toHaveLength(2);
    expect(cleared?.scan([e4624, e4624])).toHaveLength(0);
  });

  it('logging stopped: 1100, EventLog service stopped, auditd stopped by a command', () => {
    const e1100 = makeEvent({ action: 'windows.event', attributes: { eventId: 1100, provider: 'Microsoft-Windows-Eventlog' } });
    const svc = makeEvent({ action: 'service.state', object: { type: 'service', name: 'Windows Event Log' }, attributes: { eventId: 7036, state: 'stopped' } });
    expect(kinds([e1100, svc])).toEqual(['logging-stopped', 'logging-stopped']);
    expect(kinds([shell(0, 'systemctl stop auditd')])).toEqual(['logging-stopped']);
  });

  it('audit policy changed (4719)', () => {
    expect(kinds([makeEvent({ action: 'windows.event', attributes: { eventId: 4719, provider: 'Microsoft-Windows-Security-Auditing' } })])).toEqual(['audit-policy-changed']);
  });

  it('system time changed: 4616 by a user, not by the time service', () => {
    const user = makeEvent({ action: 'windows.event', attributes: { eventId: 4616, provider: 'Microsoft-Windows-Security-Auditing', data: { ProcessName: 'C:\\Windows\\System32\\cmd.exe' } } });
    const ntp = makeEvent({ action: 'windows.event', attributes: { eventId: 4616, provider: 'Microsoft-Windows-Security-Auditing', data: { ProcessName: 'C:\\Windows\\System32\\svchost.exe' } } });
    expect(kinds([user, ntp])).toEqual(['system-time-changed']);
    expect(kinds([shell(0, 'date -s "2020-01-01 00:00"')])).toEqual(['system-time-changed']);
  });

  it('shadow copies deleted', () => {
    expect(kinds([cmdline(0, 'vssadmin.exe Delete Shadows /All /Quiet')])).toEqual(['shadow-copies-deleted']);
    expect(kinds([cmdline(0, 'vssadmin list shadows')])).toEqual([]);
  });

  it('timestomping: Sysmon 2, touch -t, and $SI earlier than $FN in a timeline', () => {
    expect(kinds([sysmonEvent(0, 2, 'windows.event', { image: 'C:\\t.exe', pid: 9 }, { type: 'file', name: 'C:\\a' })])).toEqual(['timestomping']);
    expect(kinds([shell(0, 'touch -t 201901010000 /usr/bin/x')])).toEqual(['timestomping']);
    const si = makeEvent({ time: '2019-01-01T00:00:00Z', kind: 'timeline', action: 'file.create', object: { type: 'file', name: 'C:\\Windows\\evil.dll' }, attributes: { timestamp_desc: 'Creation Time', attribute_name: '$STANDARD_INFORMATION' } });
    const fn = makeEvent({ time: '2024-03-01T10:00:00Z', kind: 'timeline', action: 'file.create', object: { type: 'file', name: 'C:\\Windows\\evil.dll' }, attributes: { timestamp_desc: 'Creation Time', attribute_name: '$FILE_NAME' } });
    expect(kinds([si, fn])).toEqual(['timestomping']);
    // $SI equal to $FN is normal.
    const fn2 = makeEvent({ time: '2019-01-01T00:00:00Z', kind: 'timeline', action: 'file.create', object: { type: 'file', name: 'C:\\Windows\\evil.dll' }, attributes: { timestamp_desc: 'Creation Time', attribute_name: '$FILE_NAME' } });
    expect(kinds([si, fn2])).toEqual([]);
  });

  it('history wiping in commands and in audit records', () => {
    expect(kinds([shell(0, 'history -c')])).toEqual(['history-wiped']);
    expect(kinds([shell(0, 'export HISTFILE=/dev/null')])).toEqual(['history-wiped']);
    const del = makeEvent({ kind: 'auditd', action: 'file.delete', object: { type: 'file', name: '/root/.bash_history' } });
    expect(kinds([del])).toEqual(['history-wiped']);
  });

  it('record-id gap only in an otherwise contiguous log', () => {
    const mk = (id: number): ForensicEvent => makeEvent({ time: at(id), action: 'windows.event', attributes: { eventId: 4624, channel: 'Security', eventRecordId: id } });
    const ids = [...Array.from({ length: 30 }, (_, i) => i + 1), ...Array.from({ length: 30 }, (_, i) => i + 41)];
    const found = scanAntiForensics(ids.map(mk)).verdict.indicators;
    expect(found.map((i) => i.kind)).toEqual(['record-id-gap']);
    expect(found[0]?.summary).toContain('10 record(s)');
    // A filtered export (every other record) is not a gap.
    expect(kinds(Array.from({ length: 30 }, (_, i) => mk(i * 2)))).toEqual([]);
  });

  it('record-id gaps kept per log when the events of several logs alternate (host, channel and artefact each tell logs apart)', () => {
    const mk = (id: number, host: string, channel: string, sha: string): ForensicEvent => {
      const e = makeEvent({ time: at(id), host, action: 'windows.event', attributes: { eventId: 4624, channel, eventRecordId: id } });
      return { ...e, raw: { ...e.raw, artifactSha256: sha } };
    };
    const logs = [
      { host: 'A', channel: 'Security', sha: 'a'.repeat(64), gap: true },
      { host: 'B', channel: 'Security', sha: 'a'.repeat(64), gap: false },
      { host: 'A', channel: 'System', sha: 'a'.repeat(64), gap: false },
      { host: 'A', channel: 'Security', sha: 'b'.repeat(64), gap: false },
    ];
    const events: ForensicEvent[] = [];
    // Runs of 1 to 3 events of one log, then another's; the first log skips records 20 to 24.
    for (let i = 1, k = 0; i <= 60; i++)
      for (const log of logs) for (let r = 0; r < (k++ % 3) + 1; r++) if (!(log.gap && i >= 20 && i < 25) && r === 0) events.push(mk(i, log.host, log.channel, log.sha));
    const found = scanAntiForensics(events).verdict.indicators.filter((i) => i.kind === 'record-id-gap');
    expect(found.map((i) => [i.host, i.summary])).toEqual([['A', '5 record(s) missing from the Security log']]);
  });

  it('time gap in a busy log', () => {
    const events = [...Array.from({ length: 60 }, (_, i) => makeEvent({ time: at(i * 10), kind: 'authlog', action: 'syslog.message' })), makeEvent({ time: at(600 + 3 * 86400), kind: 'authlog', action: 'syslog.message' })];
    expect(kinds(events)).toEqual(['time-gap']);
  });

  it('one act seen by Sysmon 1 and 4688 is one indicator', () => {
    const a = cmdline(0, 'wevtutil cl System');
    const b = makeEvent({ time: at(0), action: 'process.create', object: { type: 'process', name: 'wevtutil.exe' }, attributes: { commandLine: 'wevtutil cl System', eventId: 4688 } });
    const found = scanAntiForensics([a, b]).verdict.indicators;
    expect(found).toHaveLength(1);
    expect(found[0]?.eventIds).toHaveLength(2);
  });

  it('penalty: per kind worst severity, multiplicative, floored at 0.5; per host', () => {
    expect(penaltyOf([])).toBe(1);
    const ind = (kind: string, severity: 'low' | 'medium' | 'high') => ({ kind, severity, summary: '', host: 'h', time: null, eventIds: [], techniques: [] });
    expect(penaltyOf([ind('log-cleared', 'high'), ind('log-cleared', 'high')])).toBe(0.8);
    expect(penaltyOf([ind('a', 'high'), ind('b', 'high'), ind('c', 'high'), ind('d', 'high')])).toBe(PENALTY_FLOOR);
    const scan = scanAntiForensics([cmdline(0, 'wevtutil cl Security'), makeEvent({ host: 'OTHER', action: 'process.create' })]);
    expect(scan.verdict.tampered).toBe(true);
    expect(scan.hostPenalty.get('WS01')).toBe(0.8);
    expect(scan.hostPenalty.get('OTHER')).toBeUndefined();
    expect(scanAntiForensics([]).verdict).toEqual({ tampered: false, penalty: 1, indicators: [] });
  });

  it('a log list pushed in order gives the order the sort gives, and any list out of order is sorted', () => {
    const rand = mulberry32(6);
    let skipped = 0;
    for (let round = 0; round < 400; round++) {
      const n = Math.floor(rand() * 60);
      const list = new NumberList();
      let v = Math.floor(rand() * 1e6);
      const values: number[] = [];
      for (let i = 0; i < n; i++) {
        // Rising with ties (a log's times and record numbers), now and then a step back, a NaN, -0 beside 0.
        const r = rand();
        v = r < 0.03 ? v - 1 - Math.floor(rand() * 5) : r < 0.35 ? v : v + Math.floor(rand() * 3000);
        values.push(round % 7 === 0 && i === n >> 1 ? Number.NaN : round % 11 === 0 && i === 1 ? -0 : round % 11 === 0 && i === 2 ? 0 : v);
      }
      values.forEach((x, i) => list.push(x, i * 3));
      const sorted = values.every((x, i) => i === 0 || (values[i - 1] as number) <= x);
      if (sorted) skipped++;
      expect(Array.from(list.order())).toEqual(Array.from(list.orderBySort()));
    }
    // Both kinds of list were compared.
    expect(skipped).toBeGreaterThan(20);
    expect(skipped).toBeLessThan(380);
  });
});
