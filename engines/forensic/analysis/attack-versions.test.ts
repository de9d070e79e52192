// ATT&CK releases in the forensic analysis: Sigma's v19 tactics (Stealth, Defense Impairment) reach detections and story
// stages in kill-chain order; every technique id of the shipped rules is named; no shipped rule loses its tactics.
import { describe, expect, it } from 'vitest';
import { attackLookup } from '../../core/attack/lookup.js';
import type { JsonRecord } from '../event.js';
import { loadSigmaRules, sigmaRuleSetFromTexts } from '../sigma/index.js';
import { analyzeEvents } from './analyze.js';
import { KILL_CHAIN_STAGES, stageOrder } from './attack.js';
import { defaultSigmaRules } from './detections.js';
import { at, makeEvent } from './events.fixture.js';

function proc(t: number, image: string, cmd: string, host = 'WS01'): ReturnType<typeof makeEvent> {
  const data: JsonRecord = { Image: image, ParentImage: 'C:\\Windows\\explorer.exe', CommandLine: cmd, ProcessId: String(300 + t), ParentProcessId: '100' };
  return makeEvent({
    time: at(t),
    host,
    action: 'process.create',
    actor: { type: 'process', name: 'C:\\Windows\\explorer.exe' },
    object: { type: 'process', name: image },
    attributes: { eventId: 1, provider: 'Microsoft-Windows-Sysmon', channel: 'Microsoft-Windows-Sysmon/Operational', commandLine: cmd, pid: String(300 + t), ppid: '100', data },
  });
}

describe('ATT&CK v19 tactics in detections and stories', () => {
  it('a rule tagged only attack.stealth gives its detection the tactic and its story the stage', () => {
    const rules = sigmaRuleSetFromTexts([
      {
        source: 't/stealth.yml',
        text: "title: Hidden thing\nid: st-1\nstatus: test\nlevel: high\ntags:\n    - attack.stealth\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n    sel:\n        Image|endswith: '\\hideme.exe'\n    condition: sel\n",
      },
    ]);
    const ev = proc(1, 'C:\\Users\\x\\hideme.exe', 'hideme.exe');
    const a = analyzeEvents([ev], { sigma: rules });
    expect(a.detections?.detailsOf(ev as never)[0]?.tactics).toEqual(['stealth']);
    expect(a.stories.flatMap((s) => s.stages)).toContain('stealth');
  });

  it('story titles use the technique name: a revoked id its own name (the tag adds the replacement), an unknown id says so', () => {
    const rule = (id: string, tag: string, image: string): { source: string; text: string } => ({
      source: `t/${id}.yml`,
      text: `title: Rule ${id}\nid: ${id}\nstatus: test\nlevel: high\ntags:\n    - ${tag}\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n    sel:\n        Image|endswith: '\\${image}'\n    condition: sel\n`,
    });
    const rules = sigmaRuleSetFromTexts([rule('rv-1', 'attack.t1070.001', 'wipe.exe'), rule('uk-1', 'attack.t1999', 'odd.exe')]);
    const a = analyzeEvents([proc(1, 'C:\\x\\wipe.exe', 'wipe.exe'), proc(2, 'C:\\x\\odd.exe', 'odd.exe', 'WS02')], { sigma: rules });
    const titles = a.stories.map((s) => s.title);
    expect(titles).toContain('Clear Windows Event Logs on WS01');
    expect(titles).toContain('Unknown technique T1999 on WS02');
    const revoked = a.stories.flatMap((s) => s.techniques).find((t) => t.id === 'T1070.001');
    expect(revoked).toMatchObject({ status: 'revoked', revokedBy: 'T1685.005', tactics: ['defense-impairment'] });
  });

  it('the two new tactics stand where Defense Evasion was in the kill chain', () => {
    expect(stageOrder('privilege-escalation')).toBeLessThan(stageOrder('stealth'));
    expect(stageOrder('stealth')).toBeLessThan(stageOrder('defense-impairment'));
    expect(stageOrder('defense-impairment')).toBeLessThan(stageOrder('credential-access'));
    expect(KILL_CHAIN_STAGES).toContain('defense-evasion');
  });

  it('a Security 1102 log clearing is detected with a defense tactic by the shipped rules', () => {
    const ev = makeEvent({
      time: at(5),
      host: 'DC01',
      action: 'log.clear',
      attributes: { eventId: 1102, provider: 'Microsoft-Windows-Eventlog', channel: 'Security', data: { SubjectUserName: 'admin', SubjectDomainName: 'CORP' } },
    });
    const a = analyzeEvents([ev], { sigma: defaultSigmaRules() });
    const tactics = a.detections?.detailsOf(ev as never).flatMap((d) => d.tactics) ?? [];
    expect(tactics).toContain('defense-impairment');
  });
});

describe('the shipped rules and the ATT&CK lookup', () => {
  const set = loadSigmaRules({ minLevel: 'informational', statuses: ['stable', 'test', 'experimental', 'deprecated', 'unsupported'] });
  const lookup = attackLookup();

  it('no shipped rule ends with an empty tactic list unless its tags have no ATT&CK tactic or technique', () => {
    const attackTag = (t: string): boolean => /^attack\.t\d{4}/i.test(t) || lookup.isTactic(t.slice(7).toLowerCase());
    const lost = set.rules.filter((r) => r.tactics.length === 0 && r.tags.some(attackTag));
    expect(set.rules.length).toBeGreaterThan(1000);
    expect(lost.map((r) => r.source)).toEqual([]);
  });

  it('every technique id in the shipped rules resolves to a name', () => {
    const ids = [...new Set(set.rules.flatMap((r) => r.techniques))];
    expect(ids.length).toBeGreaterThan(300);
    const unnamed = ids.filter((id) => lookup.technique(id).status === 'unknown');
    expect(unnamed).toEqual([]);
  });
});
