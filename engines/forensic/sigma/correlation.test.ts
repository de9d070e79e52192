// Sigma correlation rules: event_count, value_count, temporal and temporal_ordered (with aliases) over base-rule hits,
// the generate flag, broken correlations reported with the reason, and the shipped brute-force rules on events.
import { describe, expect, it } from 'vitest';
import { analyzeEvents } from '../analysis/analyze.js';
import { defaultSigmaRules } from '../analysis/detections.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { mulberry32 } from '../../core/random.js';
import { parseTimespan, runCorrelations, runCorrelationsByScan, type BaseHit, type CorrelationRule, type ResolvedCorrelation } from './correlation.js';
import { sigmaRuleSetFromTexts } from './index.js';

const base = (name: string, id: number): string =>
  `title: Base ${name}\nname: ${name}\nid: ${name}-id\nstatus: test\nlevel: informational\nlogsource:\n    product: windows\n    service: security\ndetection:\n    sel:\n        EventID: ${id}\n    condition: sel\n`;

const correlation = (title: string, body: string, level = 'high', tags = ['attack.credential-access', 'attack.t1110.001']): string =>
  `title: ${title}\nid: ${title.replace(/\W+/g, '-').toLowerCase()}\nstatus: test\nlevel: ${level}\ntags:\n${tags.map((t) => `    - ${t}`).join('\n')}\ncorrelation:\n${body}`;

function sec(t: number, eventId: number, data: Record<string, string>, host = 'DC01'): ReturnType<typeof makeEvent> {
  return makeEvent({ time: at(t), host, action: `security.${eventId}`, attributes: { eventId, provider: 'Microsoft-Windows-Security-Auditing', channel: 'Security', data } });
}

describe('Sigma correlation rules', () => {
  it('parses timespans and refuses bad ones', () => {
    expect(parseTimespan('5m')).toBe(300_000);
    expect(parseTimespan('2h')).toBe(7_200_000);
    expect(() => parseTimespan('5 minutes')).toThrow();
    expect(() => parseTimespan('90d')).toThrow();
  });

  it('event_count fires once per burst in the window, per group; the base rule hits are the correlation\'s (generate false)', () => {
    const rules = sigmaRuleSetFromTexts([
      { source: 't/base.yml', text: base('failed', 4625) },
      { source: 't/c.yml', text: correlation('Brute force', '    type: event_count\n    rules:\n        - failed\n    group-by:\n        - IpAddress\n    timespan: 5m\n    condition:\n        gte: 5\n') },
    ]);
    expect(rules.correlations).toHaveLength(1);
    const events = [
      ...Array.from({ length: 6 }, (_, i) => sec(i * 10, 4625, { IpAddress: '10.0.0.9', TargetUserName: 'bob' })),
      ...Array.from({ length: 4 }, (_, i) => sec(i * 10, 4625, { IpAddress: '10.0.0.7', TargetUserName: 'amy' })),
      // Outside the window of the first ones: does not add to them.
      sec(2000, 4625, { IpAddress: '10.0.0.7', TargetUserName: 'amy' }),
    ];
    const a = analyzeEvents(events, { sigma: rules });
    const summary = a.detections?.summary() ?? [];
    expect(summary.map((s) => s.title)).toEqual(['Brute force']);
    expect(summary[0]).toMatchObject({ count: 1, techniques: ['T1110.001'], tactics: ['credential-access'] });
    expect(summary[0]?.eventIds).toHaveLength(5);
    // A high correlation hit roots a story like any high detection.
    expect(a.stories.some((s) => s.techniques.some((t) => t.id === 'T1110.001'))).toBe(true);
  });

  it('value_count counts distinct values of the field; temporal_ordered follows aliases across rules', () => {
    const rules = sigmaRuleSetFromTexts([
      { source: 't/base.yml', text: base('failed', 4625) },
      { source: 't/created.yml', text: base('created', 4720) },
      { source: 't/added.yml', text: base('added', 4732) },
      { source: 't/spray.yml', text: correlation('Spray', '    type: value_count\n    rules:\n        - failed\n    group-by:\n        - IpAddress\n    timespan: 10m\n    condition:\n        field: TargetUserName\n        gte: 3\n', 'high', ['attack.t1110.003']) },
      {
        source: 't/seq.yml',
        text: correlation('Created then added', '    type: temporal_ordered\n    rules:\n        - created\n        - added\n    group-by:\n        - account\n    timespan: 1h\n    aliases:\n        account:\n            created: TargetSid\n            added: MemberSid\n    generate: true\n', 'high', ['attack.t1136.001']),
      },
    ]);
    const same = ['ann', 'ann', 'ann', 'ann'].map((u, i) => sec(i, 4625, { IpAddress: '10.1.1.1', TargetUserName: u }));
    const spray = ['ann', 'ben', 'cal'].map((u, i) => sec(100 + i, 4625, { IpAddress: '10.2.2.2', TargetUserName: u }));
    const seq = [sec(200, 4720, { TargetSid: 'S-1-5-21-1-1001' }), sec(260, 4732, { MemberSid: 'S-1-5-21-1-1001', TargetUserName: 'Administrators' })];
    const wrongOrder = [sec(300, 4732, { MemberSid: 'S-1-5-21-1-2002' }), sec(320, 4720, { TargetSid: 'S-1-5-21-1-2002' })];
    const a = analyzeEvents([...same, ...spray, ...seq, ...wrongOrder], { sigma: rules });
    const byTitle = new Map((a.detections?.summary() ?? []).map((s) => [s.title, s]));
    expect(byTitle.get('Spray')?.count).toBe(1);
    expect([...(byTitle.get('Spray')?.eventIds ?? [])].sort()).toEqual(spray.map((e) => e.eventId).sort());
    expect(byTitle.get('Created then added')?.count).toBe(1);
    // generate: true keeps the base rules' own hits.
    expect(byTitle.get('Base created')?.count).toBe(2);
    expect(byTitle.has('Base failed')).toBe(false);
  });

  it('temporal needs every rule in the window, in any order', () => {
    const rules = sigmaRuleSetFromTexts([
      { source: 't/a.yml', text: base('a', 4698) },
      { source: 't/b.yml', text: base('b', 4699) },
      { source: 't/c.yml', text: correlation('Task made and removed', '    type: temporal\n    rules:\n        - a\n        - b\n    group-by:\n        - TaskName\n    timespan: 1m\n', 'medium', ['attack.t1053.005']) },
    ]);
    const a = analyzeEvents([sec(0, 4699, { TaskName: '\\x' }), sec(30, 4698, { TaskName: '\\x' }), sec(0, 4698, { TaskName: '\\y' }), sec(500, 4699, { TaskName: '\\y' })], { sigma: rules });
    expect((a.detections?.summary() ?? []).find((s) => s.title === 'Task made and removed')?.count).toBe(1);
  });

  it('a correlation that cannot run is listed with the reason, never dropped silently', () => {
    const rules = sigmaRuleSetFromTexts([
      { source: 't/base.yml', text: base('failed', 4625) },
      { source: 't/unknown-type.yml', text: correlation('Odd', '    type: value_median\n    rules:\n        - failed\n    timespan: 5m\n') },
      { source: 't/missing.yml', text: correlation('Missing', '    type: event_count\n    rules:\n        - nothing-by-that-name\n    timespan: 5m\n    condition:\n        gte: 2\n') },
      { source: 't/no-field.yml', text: correlation('No field', '    type: value_count\n    rules:\n        - failed\n    timespan: 5m\n    condition:\n        gte: 2\n') },
    ]);
    const reasons = new Map(rules.skipped.map((s) => [s.source, s.reason]));
    expect(reasons.get('t/unknown-type.yml')).toContain('correlation type');
    expect(reasons.get('t/missing.yml')).toContain('nothing-by-that-name');
    expect(reasons.get('t/no-field.yml')).toContain('condition.field');
    expect(rules.correlations).toHaveLength(0);
  });

  it('the shipped correlation rules load and find a password spray in Security 4625 events', () => {
    const set = defaultSigmaRules();
    expect(set.correlations.length).toBeGreaterThanOrEqual(5);
    const events = ['ann', 'ben', 'cal', 'dan', 'eve', 'fay'].map((u, i) => sec(i * 5, 4625, { IpAddress: '192.0.2.50', TargetUserName: u, LogonType: '3' }));
    const a = analyzeEvents(events, { sigma: set });
    const spray = (a.detections?.summary() ?? []).find((s) => s.techniques.includes('T1110.003'));
    expect(spray).toMatchObject({ level: 'high', tactics: ['credential-access'] });
  });

  it('the counting windows give the hits the scanned windows gave, over random hits of every type', () => {
    const rand = mulberry32(30);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const ops = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
    const types = ['event_count', 'value_count', 'temporal', 'temporal_ordered'] as const;
    let fired = 0;
    for (let round = 0; round < 300; round++) {
      const rules = 1 + Math.floor(rand() * 4);
      const correlations: ResolvedCorrelation[] = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
        const type = pick(types);
        // Members may name one rule twice (a hit then counts for both), and rules no correlation names.
        const members = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => Math.floor(rand() * rules));
        const grouped = rand() < 0.7;
        const rule = {
          info: { id: `c${round}`, title: 'c', level: 'high', status: null, author: null, description: null, logsource: {}, tags: [], techniques: [], tactics: [], source: 't/c.yml' },
          type,
          refs: members.map((m) => `r${m}`),
          groupBy: grouped ? ['user'] : [],
          aliases: {},
          timespanMs: pick([1, 5, 30, 200]),
          conditions: type === 'temporal' || type === 'temporal_ordered' ? [] : Array.from({ length: 1 + Math.floor(rand() * 2) }, () => ({ op: pick(ops), value: Math.floor(rand() * 8) })),
          field: type === 'value_count' ? 'target' : null,
          generate: false,
        } as CorrelationRule;
        return { rule, members, groupFields: members.map(() => (grouped ? [pick(['user', 'User'])] : [])) };
      });
      // Hits in time order, several on one event (one position, several rules), some without a time.
      const hits: BaseHit[] = [];
      let t = 0;
      const positions = round % 10 === 0 ? 5000 : 400;
      for (let position = 0; position < positions; position++) {
        t += pick([0, 0, 1, 2, 7, 40]);
        const fields: Record<string, string | null> = { user: pick(['bob', 'BOB', 'amy', 'x']), target: pick(['a', 'b', 'c', 'd', '', 'E', 'e']) };
        fields['User'] = fields['user'] as string;
        const timeMs = rand() < 0.03 ? Number.NaN : t;
        for (let r = 0; r < rules; r++) if (rand() < 0.4) hits.push({ position, rule: r, timeMs, field: (name) => fields[name] ?? undefined });
      }
      const scanned = runCorrelationsByScan(correlations, hits);
      expect(runCorrelations(correlations, hits)).toEqual(scanned);
      fired += scanned.length;
    }
    // The comparison saw correlations fire, and windows that never fire grow past the compaction point (every tenth round).
    expect(fired).toBeGreaterThan(1000);
  });
});
