// The pure pieces of working a case: event fields in groups, the time axis, tags as typed, browser breadcrumbs.
import { describe, expect, it } from 'vitest';
import { eventFieldGroups, parseTags, pathSteps, timeTicks } from './detail-model';
import type { ExportedEvent } from './types';

const base: ExportedEvent = {
  eventId: '0123456789abcdef',
  integrityHash: 'a'.repeat(64),
  time: { time: '2024-03-04T09:12:00.000Z', precision: 'ms', source: 'evtx System/TimeCreated@SystemTime' },
  host: 'WS01',
  actor: { type: 'process', name: 'C:\\Windows\\System32\\cmd.exe' },
  action: 'process.create',
  object: { type: 'process', name: 'whoami.exe' },
  summary: 'Sysmon 1: process.create whoami.exe',
  kind: 'evtx',
  loader: 'evtx/1',
  reliability: 'HIGH',
  attributes: { eventId: 1, provider: 'Microsoft-Windows-Sysmon', channel: 'Microsoft-Windows-Sysmon/Operational', recordId: 42, commandLine: 'whoami /all', data: { Image: 'C:\\Windows\\System32\\whoami.exe', CommandLine: 'whoami /all', Hashes: { '#text': 'SHA256=00', Algo: 'x' } } },
};

describe('eventFieldGroups', () => {
  it('shows an EVTX event as System, EventData (every name) and what the loader parsed', () => {
    const groups = eventFieldGroups(base);
    expect(groups.map((g) => g.title)).toEqual(['System', 'EventData', 'Parsed by the loader']);
    const system = Object.fromEntries(groups[0]?.rows ?? []);
    expect(system['eventId']).toBe('1');
    expect(system['channel']).toBe('Microsoft-Windows-Sysmon/Operational');
    expect(system['host']).toBe('WS01');
    expect(system['time']).toBe('2024-03-04 09:12:00.000 UTC (ms, evtx System/TimeCreated@SystemTime)');
    const data = Object.fromEntries(groups[1]?.rows ?? []);
    expect(data['CommandLine']).toBe('whoami /all');
    expect(data['Hashes']).toBe('SHA256=00');
    expect(data['Hashes.Algo']).toBe('x');
    expect(groups[2]?.rows).toEqual([['commandLine', 'whoami /all']]);
  });

  it('shows another kind as the event and its parsed fields, nested ones dotted', () => {
    const groups = eventFieldGroups({ ...base, kind: 'authlog', loader: 'authlog/1', attributes: { sourceIp: '10.0.0.5', pam: { service: 'sshd' }, ports: [22, 2222] } });
    expect(groups.map((g) => g.title)).toEqual(['Event', 'Parsed fields']);
    expect(groups[1]?.rows).toEqual([
      ['sourceIp', '10.0.0.5'],
      ['pam.service', 'sshd'],
      ['ports', '[22,2222]'],
    ]);
    expect(eventFieldGroups({ ...base, kind: 'timeline', attributes: {} }).map((g) => g.title)).toEqual(['Event']);
  });
});

describe('timeTicks', () => {
  it('puts round UTC instants across the range, dated where the day changes', () => {
    const from = Date.parse('2024-03-04T23:50:00Z');
    const to = Date.parse('2024-03-05T00:30:00Z');
    const ticks = timeTicks({ from, to }, 8);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(9);
    expect(ticks[0]?.label).toBe('03-04 23:50');
    expect(ticks.find((t) => t.label.startsWith('03-05'))?.label).toBe('03-05 00:00');
    for (const t of ticks) expect(t.at).toBeGreaterThanOrEqual(0);
    for (const t of ticks) expect(t.at).toBeLessThanOrEqual(1);
  });

  it('labels seconds below a minute and dates for day steps; nothing for an empty range', () => {
    const from = Date.parse('2024-03-04T09:12:00Z');
    expect(timeTicks({ from, to: from + 20_000 }, 8)[1]?.label).toMatch(/^09:12:\d\d$/);
    const days = timeTicks({ from, to: from + 20 * 86_400_000 }, 8);
    expect(days.every((t) => /^\d{4}-\d\d-\d\d$/.test(t.label))).toBe(true);
    expect(timeTicks({ from, to: from }, 8)).toEqual([]);
    expect(timeTicks({ from: 0, to: Number.NaN }, 8)).toEqual([]);
  });
});

describe('parseTags and pathSteps', () => {
  it('splits tags on commas and spaces, keeps each once, names the ones the service would refuse', () => {
    expect(parseTags(' lateral, T1021  lateral,confirmed ')).toEqual({ tags: ['lateral', 'T1021', 'confirmed'], bad: [] });
    expect(parseTags('ok <script> -dash')).toEqual({ tags: ['ok'], bad: ['<script>', '-dash'] });
    expect(parseTags('')).toEqual({ tags: [], bad: [] });
  });

  it('gives the breadcrumbs of a folder below the root', () => {
    expect(pathSteps('.')).toEqual([{ name: 'evidence root', path: '.' }]);
    expect(pathSteps('a/b')).toEqual([
      { name: 'evidence root', path: '.' },
      { name: 'a', path: 'a' },
      { name: 'b', path: 'a/b' },
    ]);
  });
});
