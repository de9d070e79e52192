// Sigma detections in the analysis: stored per event, high ones root or raise a story, every export lists them by rule.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { JsonRecord } from '../event.js';
import { buildReport } from '../report/document.js';
import { sigmaRuleSetFromTexts } from '../sigma/index.js';
import { analyzeEvents, analyzePaths, toDict } from './analyze.js';
import { defaultSigmaRules, STORY_LEVELS } from './detections.js';
import type { SigmaLevel } from '../sigma/index.js';
import { at, makeEvent } from './events.fixture.js';

const rule = (id: string, level: string, detection: string, tags: string[], category = 'process_creation'): { source: string; text: string } => ({
  source: `t/${id}.yml`,
  text: `title: Rule ${id}\nid: ${id}\nstatus: test\nlevel: ${level}\nauthor: Ann Author\ntags:\n${tags.map((t) => `    - ${t}`).join('\n')}\nlogsource:\n    product: windows\n    category: ${category}\ndetection:\n${detection}\n    condition: sel\n`,
});

const RULE_TEXTS = [
  rule('r-high', 'high', "    sel:\n        Image|endswith: '\\evil.exe'", ['attack.credential-access', 'attack.t1003.001']),
  rule('r-medium', 'medium', "    sel:\n        CommandLine|contains: 'whoami'", ['attack.discovery', 'attack.t1614']),
  rule('r-load', 'critical', "    sel:\n        ImageLoaded|endswith: '\\bad.dll'", ['attack.t1055'], 'image_load'),
];
const RULES = sigmaRuleSetFromTexts(RULE_TEXTS);

function proc(t: number, parent: string, ppid: number, image: string, pid: number, cmd: string, host = 'WS01'): ReturnType<typeof makeEvent> {
  const data: JsonRecord = { Image: image, ParentImage: parent, CommandLine: cmd, ProcessId: String(pid), ParentProcessId: String(ppid) };
  return makeEvent({
    time: at(t),
    host,
    action: 'process.create',
    actor: { type: 'process', name: parent },
    object: { type: 'process', name: image },
    attributes: { eventId: 1, provider: 'Microsoft-Windows-Sysmon', channel: 'Microsoft-Windows-Sysmon/Operational', commandLine: cmd, pid: String(pid), ppid: String(ppid), data },
  });
}

describe('Sigma detections in the analysis', () => {
  const events = [
    proc(1, 'C:\\Windows\\explorer.exe', 100, 'C:\\Windows\\notepad.exe', 200, 'notepad'),
    proc(2, 'C:\\Windows\\explorer.exe', 100, 'C:\\Users\\x\\evil.exe', 300, 'evil.exe -dump'),
    proc(3, 'C:\\Windows\\explorer.exe', 100, 'C:\\Windows\\System32\\whoami.exe', 400, 'whoami /all'),
  ];

  it('stores each hit on its event, with the matched fields and the rule\'s author', () => {
    const a = analyzeEvents(events, { sigma: RULES });
    const d = a.detections;
    expect(d?.count).toBe(2);
    expect(d?.rulesOf(events[1]?.eventId as string).map((r) => r.id)).toEqual(['r-high']);
    expect(d?.detailsOf(events[1] as never)).toEqual([{ ruleId: 'r-high', title: 'Rule r-high', level: 'high', author: 'Ann Author', techniques: ['T1003.001'], tactics: ['credential-access'], fields: { Image: 'C:\\Users\\x\\evil.exe' } }]);
    expect(d?.has(events[0]?.eventId as string)).toBe(false);
  });

  it('a high detection roots a story tagged with its technique; a medium one does not; Sigma off gives neither', () => {
    const on = analyzeEvents(events, { sigma: RULES });
    const story = on.stories.find((s) => s.techniques.some((t) => t.id === 'T1003.001'));
    expect(story?.eventIds).toContain(events[1]?.eventId);
    expect(on.stories.some((s) => s.techniques.some((t) => t.id === 'T1614'))).toBe(false);
    const off = analyzeEvents(events, { sigma: null });
    expect(off.detections).toBeNull();
    expect(off.stories.some((s) => s.techniques.some((t) => t.id === 'T1003.001'))).toBe(false);
  });

  it('a noisy event with a critical detection is kept in the graph', () => {
    const load = makeEvent({
      time: at(5),
      action: 'module.load',
      actor: { type: 'process', name: 'C:\\Windows\\notepad.exe' },
      object: { type: 'module', name: 'C:\\x\\bad.dll' },
      attributes: { eventId: 7, provider: 'Microsoft-Windows-Sysmon', channel: 'Microsoft-Windows-Sysmon/Operational', data: { Image: 'C:\\Windows\\notepad.exe', ImageLoaded: 'C:\\x\\bad.dll' } },
    });
    const a = analyzeEvents([...events, load], { sigma: RULES });
    expect(a.stories.some((s) => s.eventIds.includes(load.eventId) && s.techniques.some((t) => t.id === 'T1055'))).toBe(true);
    expect(analyzeEvents([...events, load], { sigma: null }).counts.noisy).toBe(1);
  });

  it('story flags by position equal the look-up by id: own hits, a repeated event, noisy events, correlation hits of two levels', () => {
    const module = (t: number, dll: string): ReturnType<typeof makeEvent> =>
      makeEvent({
        time: at(t),
        action: 'module.load',
        actor: { type: 'process', name: 'C:\\Windows\\notepad.exe' },
        object: { type: 'module', name: dll },
        attributes: { eventId: 7, provider: 'Microsoft-Windows-Sysmon', channel: 'Microsoft-Windows-Sysmon/Operational', data: { Image: 'C:\\Windows\\notepad.exe', ImageLoaded: dll } },
      });
    const sec = (t: number, id: number, data: JsonRecord): ReturnType<typeof makeEvent> =>
      makeEvent({ time: at(t), host: 'DC01', action: `security.${id}`, attributes: { eventId: id, provider: 'Microsoft-Windows-Security-Auditing', channel: 'Security', data } });
    const base = (name: string, id: number): { source: string; text: string } => ({
      source: `t/${name}.yml`,
      text: `title: Base ${name}\nname: ${name}\nid: ${name}-id\nstatus: test\nlevel: informational\nlogsource:\n    product: windows\n    service: security\ndetection:\n    sel:\n        EventID: ${id}\n    condition: sel\n`,
    });
    const count = (title: string, member: string, level: string, n: number): { source: string; text: string } => ({
      source: `t/${title}.yml`,
      text: `title: ${title}\nid: ${title}\nstatus: test\nlevel: ${level}\ntags:\n    - attack.t1110.001\ncorrelation:\n    type: event_count\n    rules:\n        - ${member}\n    group-by:\n        - IpAddress\n    timespan: 5m\n    condition:\n        gte: ${n}\n`,
    });
    const rules = sigmaRuleSetFromTexts([...RULE_TEXTS, base('failed', 4625), base('created', 4720), count('burst', 'failed', 'high', 3), count('pair', 'created', 'medium', 2)]);
    const all = [
      ...events,
      module(5, 'C:\\x\\bad.dll'),
      module(6, 'C:\\x\\good.dll'),
      // The same event twice: one id at two positions.
      events[1] as ReturnType<typeof makeEvent>,
      ...Array.from({ length: 4 }, (_, i) => sec(20 + i, 4625, { IpAddress: '10.0.0.9' })),
      ...Array.from({ length: 3 }, (_, i) => sec(40 + i, 4720, { IpAddress: '10.0.0.8' })),
    ];
    const a = analyzeEvents(all, { sigma: rules });
    const d = a.detections;
    if (d === null) throw new Error('no detections');
    const levelSets: (readonly SigmaLevel[])[] = [STORY_LEVELS, ['medium'], ['informational', 'low', 'medium', 'high', 'critical'], []];
    const ones: number[] = [];
    for (const levels of levelSets) {
      const flags = d.storyFlags(levels);
      const byId = Array.from({ length: a.events.length }, (_, p) => {
        const id = (a.events.at(p) as { eventId: string }).eventId;
        return d.has(id) && d.rulesOf(id).some((r) => levels.includes(r.level)) ? 1 : 0;
      });
      expect([...flags]).toEqual(byId);
      ones.push(byId.reduce((x: number, y) => x + y, 0));
    }
    // Story levels: the evil.exe event at both positions, the bad.dll load, the high burst's trigger (the base hits are
    // the correlations': hidden); medium: whoami and the pair's trigger.
    expect(ones).toEqual([4, 2, 6, 0]);
  });

  it('a correlation grouped by fields named after Object.prototype members lists each as an own field of the detection', () => {
    const base = { source: 't/failed.yml', text: 'title: Base failed\nname: failed\nid: failed-id\nstatus: test\nlevel: informational\nlogsource:\n    product: windows\n    service: security\ndetection:\n    sel:\n        EventID: 4625\n    condition: sel\n' };
    const burst = {
      source: 't/burst.yml',
      text: 'title: burst\nid: burst\nstatus: test\nlevel: high\ncorrelation:\n    type: event_count\n    rules:\n        - failed\n    group-by:\n        - __proto__\n        - constructor\n    timespan: 5m\n    condition:\n        gte: 2\n',
    };
    const data = JSON.parse('{"__proto__":"10.0.0.9","constructor":"alice"}') as JsonRecord;
    const failed = Array.from({ length: 2 }, (_, i) => makeEvent({ time: at(20 + i), host: 'DC01', action: 'auth.login.failure', attributes: { eventId: 4625, provider: 'Microsoft-Windows-Security-Auditing', channel: 'Security', data } }));
    const d = analyzeEvents(failed, { sigma: sigmaRuleSetFromTexts([base, burst]) }).detections;
    const fields = failed.flatMap((e) => d?.detailsOf(e as never) ?? []).find((x) => x.ruleId === 'burst')?.fields;
    expect(fields).toBeDefined();
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(fields).toStrictEqual(JSON.parse('{"correlation":"event_count","events":"2","timespan":"300s","__proto__":"10.0.0.9","constructor":"alice"}'));
  });

  it('toDict and the report list detections grouped by rule, inside stories or not', () => {
    const a = analyzeEvents([...events, proc(9, 'C:\\Windows\\explorer.exe', 100, 'C:\\Windows\\System32\\whoami.exe', 500, 'whoami', 'WS02')], { sigma: RULES });
    const view = toDict(a);
    expect(view.detections.map((d) => [d.ruleId, d.level, d.count, d.hosts])).toEqual([
      ['r-high', 'high', 1, ['WS01']],
      ['r-medium', 'medium', 2, ['WS01', 'WS02']],
    ]);
    expect(view.detections[1]).toMatchObject({ author: 'Ann Author', techniques: ['T1614'], firstSeen: at(3), lastSeen: at(9) });
    const doc = buildReport(view, null, { title: 't', generator: 'test' });
    const i = doc.blocks.findIndex((b) => b.t === 'h' && b.text === 'Sigma detections');
    expect(i).toBeGreaterThan(0);
    const table = doc.blocks.slice(i).find((b) => b.t === 'table');
    expect(table && table.t === 'table' ? table.rows.map((r) => r[1]) : []).toEqual(['Rule r-high', 'Rule r-medium']);
  });
});

describe.skipIf(!hasCorpora())('measure: SigmaHQ regression samples end to end (one technique each)', () => {
  it('with Sigma most samples get a story carrying the rule\'s technique (without it, few)', () => {
    const root = corpusPath('sigma', 'regression_data');
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.endsWith('.evtx')) files.push(path.join(d, e.name));
      }
    };
    walk(root);
    const techniques = new Map(defaultSigmaRules().rules.map((r) => [r.id, r.techniques]));
    let withStory = 0;
    let withTechnique = 0;
    for (const f of files) {
      const info = parse(readFileSync(path.join(path.dirname(f), 'info.yml'), 'utf8')) as { rule_metadata: { id: string }[] };
      const want = techniques.get(info.rule_metadata[0]?.id ?? '') ?? [];
      const a = analyzePaths([f], { evidenceRoot: path.dirname(f) });
      if (a.stories.length > 0) withStory++;
      if (want.some((t) => a.stories.some((s) => s.techniques.some((x) => x.id === t)))) withTechnique++;
    }
    // Measured: 117 of 202 with a story and 111 with the rule's technique (Sigma off: 21 and 16).
    expect(files.length).toBe(202);
    expect(withStory).toBeGreaterThanOrEqual(110);
    expect(withTechnique).toBeGreaterThanOrEqual(105);
  }, 600_000);
});

describe('Sigma detections in the Cypher export', () => {
  it('writes one SigmaRule node per rule, linked to its exported events', async () => {
    const { viewToCypher } = await import('../report/cypher.js');
    const e = proc(2, 'C:\\Windows\\explorer.exe', 100, 'C:\\Users\\x\\evil.exe', 300, 'evil.exe');
    const cypher = viewToCypher(toDict(analyzeEvents([e], { sigma: RULES })));
    expect(cypher).toContain('SigmaRule');
    expect(cypher).toContain('MATCHED');
    expect(cypher).toContain('Ann Author');
  });
});
