// The ACH workspace's pure helpers: rating keys, report files, span segments over overlapping spans, the heat map by tactic.
import { describe, expect, it } from 'vitest';
import { columnName, weightText, extractionCounts, extractionFinding, reportText, heat, heatmap, nextRating, ratingForKey, segments, sourceLabel, tacticTitle, TACTICS } from './model';

describe('ACH workspace model', () => {
  it('cycles ratings and maps digit keys', () => {
    expect(nextRating('CC')).toBe('C');
    expect(nextRating('NA')).toBe('CC');
    expect(ratingForKey('1')).toBe('CC');
    expect(ratingForKey('6')).toBe('NA');
    expect(ratingForKey('7')).toBeUndefined();
    expect(ratingForKey('a')).toBeUndefined();
  });

  it('reads a report file: the text or signal of JSON (TRAM .mjson), else the bytes', () => {
    expect(reportText('a.mjson', JSON.stringify({ signal: 'report body' }))).toBe('report body');
    expect(reportText('a.json', JSON.stringify({ text: 'x' }))).toBe('x');
    expect(reportText('a.json', '{not json')).toBe('{not json');
    expect(reportText('a.txt', '{"text": "y"}')).toBe('{"text": "y"}');
  });

  it('cuts the text at every span boundary so overlapping spans keep both marks, and loses no character', () => {
    const text = 'ran PowerShell from hxxp://a[.]b/c today';
    const segs = segments(
      text,
      [{ type: 'url', value: 'http://a.b/c', start: 20, end: 34, defanged: true }],
      [
        { id: 'T1059.001', name: 'PowerShell', start: 4, end: 14, source: 'name' },
        { id: 'T1105', name: 'Ingress Tool Transfer', start: 0, end: 34, source: 'classifier', probability: 0.91 },
      ],
    );
    expect(segs.map((s) => s.text).join('')).toBe(text);
    const url = segs.find((s) => s.text === 'hxxp://a[.]b/c')!;
    expect(url.marks.map((m) => m.kind).sort()).toEqual(['indicator', 'technique']);
    expect(url.marks.find((m) => m.kind === 'indicator')!.label).toContain('(defanged)');
    expect(segs.find((s) => s.text === 'PowerShell')!.marks).toHaveLength(2);
    expect(segs.at(-1)).toMatchObject({ text: ' today', marks: [] });
    // Spans outside the text are ignored rather than trusted.
    expect(segments('abc', [{ type: 'ipv4', value: '1.2.3.4', start: 2, end: 9, defanged: false }], [])).toEqual([{ start: 0, end: 3, text: 'abc', marks: [] }]);
  });

  it('lays techniques out by tactic in matrix order, every tactic a column, the most frequent first', () => {
    const { columns, max } = heatmap([
      { id: 'T1486', name: 'Data Encrypted for Impact', tactics: ['impact'], count: 1, sources: ['id'] },
      { id: 'T1490', name: 'Inhibit System Recovery', tactics: ['impact'], count: 3, sources: ['id'] },
      { id: 'T1078', name: 'Valid Accounts', tactics: ['initial-access', 'persistence'], count: 2, sources: ['name'] },
    ]);
    expect(columns.map((c) => c.tactic)).toEqual(TACTICS);
    expect(columns.find((c) => c.tactic === 'impact')!.techniques.map((t) => t.id)).toEqual(['T1490', 'T1486']);
    expect(columns.find((c) => c.tactic === 'persistence')!.techniques.map((t) => t.id)).toEqual(['T1078']);
    expect(max).toBe(3);
    expect(heat(3, 3)).toBe(1);
    expect(heat(0, 0)).toBe(0);
    expect(tacticTitle('command-and-control')).toBe('Command and Control');
  });

  it('places v19 Stealth and Defense Impairment after Defense Evasion when a technique is under them', () => {
    const { columns } = heatmap([
      { id: 'T1685.005', name: 'Clear Windows Event Logs', tactics: ['defense-impairment'], count: 1, sources: ['id'] },
      { id: 'T1070.004', name: 'File Deletion', tactics: ['defense-evasion'], count: 1, sources: ['id'] },
      { id: 'T9000', name: 'Elsewhere', tactics: ['some-new-tactic'], count: 1, sources: ['id'] },
    ]);
    const names = columns.map((c) => c.tactic);
    expect(names.slice(names.indexOf('defense-evasion'), names.indexOf('defense-evasion') + 3)).toEqual(['defense-evasion', 'defense-impairment', 'credential-access']);
    expect(names).not.toContain('stealth');
    expect(names.at(-1)).toBe('some-new-tactic');
    expect(tacticTitle('defense-impairment')).toBe('Defense Impairment');
  });
});

describe('extractionFinding', () => {
  it('carries the techniques and the indicators a case can hold, with the extraction as the source', () => {
    const f = extractionFinding(
      {
        extraction: {
          length: 10,
          indicators: [
            { type: 'ipv4', value: '203.0.113.7', start: 0, end: 1, defanged: false },
            { type: 'cve', value: 'CVE-2021-44228', start: 1, end: 2, defanged: false },
            { type: 'sha512', value: 'ab', start: 2, end: 3, defanged: false },
          ],
          techniques: [],
          technique_summary: [{ id: 'T1059.001', name: 'PowerShell', tactics: ['execution'], count: 1, sources: ['id'] }],
          warnings: [],
        },
        layer: { name: 'x', versions: { layer: '4.5' }, domain: 'enterprise-attack', techniques: [] },
        stix: { type: 'bundle', id: 'bundle--1', objects: [] },
      },
      'report.txt',
    );
    expect(f.techniques).toEqual(['T1059.001']);
    expect(f.indicators).toEqual([
      { type: 'ipv4', value: '203.0.113.7' },
      { type: 'other', value: 'ab' },
    ]);
    expect(f.source).toEqual({ service: 'attrib', kind: 'extraction', id: 'bundle--1', link: '#/ach/extraction' });
  });
});

describe('matrix labels', () => {
  it('column headers name the group; catch-alls say what they stand for', () => {
    expect(columnName({ id: 'H-G0108', title: 'Blue Mockingbird (G0108)', actor: { name: 'Blue Mockingbird' } })).toBe('Blue Mockingbird');
    expect(columnName({ id: 'H1', title: 'Intrusion set APT1' })).toBe('APT1');
    expect(columnName({ id: 'H-OTHER', title: 'Another actor, not named in the bundle', catch_all: true })).toBe('Another actor');
    expect(columnName({ id: 'H4', title: 'A Chinese-speaking espionage group' })).toBe('A Chinese-speaking espionage group');
    expect(columnName({ id: 'H2', title: 'Campaign ' + 'x'.repeat(60) }).length).toBeLessThanOrEqual(44);
  });

  it('evidence sources: a short label, the full text kept, the link back when Send to gave one', () => {
    expect(sourceLabel('Sent from replay story 3 "Beacon to 10.0.0.5" (#/replay/story/3)')).toEqual({ label: 'replay story “Beacon to 10.0.0.5”', full: 'Sent from replay story 3 "Beacon to 10.0.0.5" (#/replay/story/3)', link: '#/replay/story/3' });
    expect(sourceLabel('Sent from replay story c96009ef-3b30-555c-bd58-968717d9e351 "" (#/replay/story/c96009ef-3b30-555c-bd58-968717d9e351)')?.label).toBe('replay story c96009ef');
    // A story of a case: named by the finding's title (the case's), never by a raw id; without a title, each id part shortened.
    const story = 'Sent from forensic story dda326ab-e5bd-47a6-bc00-1b0ad5e75610/S1 "attack-samples/LM_sysmon_psexec_smb_meterpreter.evtx · story S1: Service Execution" (#/forensic/case/dda326ab-e5bd-47a6-bc00-1b0ad5e75610/story/S1)';
    expect(sourceLabel(story)).toMatchObject({ label: 'forensic story “attack-samples/LM_sysmon_psexec_smb_met…”', link: '#/forensic/case/dda326ab-e5bd-47a6-bc00-1b0ad5e75610/story/S1' });
    expect(sourceLabel('Sent from forensic story dda326ab-e5bd-47a6-bc00-1b0ad5e75610/S1')?.label).toBe('forensic story dda326ab/S1');
    // A line the store cut inside the title still shows the title.
    expect(sourceLabel('Sent from replay story 3 "Beacon to 10.0.0.5 and on and on')?.label).toBe('replay story “Beacon to 10.0.0.5 and on and on”');
    expect(sourceLabel('Sent from replay story 3 "Say "hi" twice" (#/replay/story/3)')?.label).toBe('replay story “Say "hi" twice”');
    expect(sourceLabel('STIX bundle--0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d')?.label).toBe('STIX 0a1b2c3d');
    expect(sourceLabel(undefined)).toBeNull();
    expect(sourceLabel('A very long report title that goes on and on for a while')?.label.length).toBeLessThanOrEqual(32);
  });
});

describe('weightText', () => {
  it('shows a weighted score to at most two decimals, signed when asked', () => {
    expect(weightText(6.0625)).toBe('6.06');
    expect(weightText(0.5)).toBe('0.5');
    expect(weightText(3)).toBe('3');
    expect(weightText(0.5625, true)).toBe('+0.56');
    expect(weightText(-0.25, true)).toBe('\u22120.25');
    expect(weightText(0, true)).toBe('0');
  });
});

describe('extractionCounts', () => {
  it('agrees each count with its word', () => {
    const one = { indicators: [{}], techniques: [{}], technique_summary: [{}] } as unknown as Parameters<typeof extractionCounts>[0];
    expect(extractionCounts(one)).toBe('1 indicator, 1 technique mention of 1 technique');
    const many = { indicators: [], techniques: [{}, {}], technique_summary: [{}, {}] } as unknown as Parameters<typeof extractionCounts>[0];
    expect(extractionCounts(many)).toBe('0 indicators, 2 technique mentions of 2 techniques');
  });
});
