// The workspace's pure views: case parsing without echoing the text, ranking, bars, the matrix and the graph model.
import { describe, expect, it } from 'vitest';
import { barScale, barSegments, cellShade, cellText, downloadName, evidenceMatrix, graphModel, lineColumn, matchesFilter, parseCaseText, percent, rankedHypotheses } from './model';
import sample from './sample-case.json';
import { FIXTURE } from './testdata/fixture';

describe('parseCaseText', () => {
  it('accepts an object and the shipped sample case', () => {
    expect(parseCaseText('{"case_id":"C"}')).toEqual({ ok: true, value: { case_id: 'C' } });
    expect(parseCaseText(JSON.stringify(sample)).ok).toBe(true);
  });

  it('says where the JSON breaks without quoting it', () => {
    const text = '{\n  "case_id": "SECRET-VALUE"\n  "x": 1\n}';
    const r = parseCaseText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(/not valid JSON/);
    expect(r.message).not.toContain('SECRET');
    expect(r.message).toMatch(/line 3/);
  });

  it('refuses empty text and non-objects', () => {
    expect(parseCaseText('  ').ok).toBe(false);
    expect(parseCaseText('[1]').ok).toBe(false);
    expect(parseCaseText('"x"').ok).toBe(false);
  });

  it('computes line and column from an offset', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('ranking and bars', () => {
  it('orders by rank', () => {
    expect(rankedHypotheses(FIXTURE).map((h) => h.attack_id)).toEqual(['G0007', 'G0016', 'unlisted']);
  });

  it('stacks positive and negative contributions separately against one scale', () => {
    const ranked = rankedHypotheses(FIXTURE);
    expect(barScale(ranked, 'support')).toBe(3);
    expect(barScale(ranked, 'contradiction')).toBe(1);
    const { positive } = barSegments(FIXTURE.leading, 3);
    expect(positive.map((s) => [s.evidence_id, s.start, s.width])).toEqual([
      ['E1', 0, 2 / 3],
      ['E2', 2 / 3, 1 / 3],
    ]);
    const { negative } = barSegments(FIXTURE.leading, 1);
    expect(negative.map((s) => [s.evidence_id, s.start, s.width])).toEqual([['E3', 0, 0.5]]);
  });

  it('adds a base segment when the totals hold more than the listed contributions (a prior)', () => {
    const withPrior = { ...FIXTURE.leading, support: FIXTURE.leading.support + 1.5 };
    const { positive } = barSegments(withPrior, 4.5);
    expect(positive.at(-1)).toEqual({ evidence_id: '', match: 'base', value: 1.5, start: 3 / 4.5, width: 1.5 / 4.5 });
    expect(barSegments(FIXTURE.leading, 3).positive.some((s) => s.match === 'base')).toBe(false);
  });

  it('filters by name, id or alias', () => {
    expect(matchesFilter(FIXTURE.leading, 'apt2')).toBe(true);
    expect(matchesFilter(FIXTURE.leading, 'g0007')).toBe(true);
    expect(matchesFilter(FIXTURE.leading, 'lazarus')).toBe(false);
    expect(matchesFilter(FIXTURE.leading, ' ')).toBe(true);
  });
});

describe('evidence matrix and graph', () => {
  it('puts each contribution in its evidence row and hypothesis column', () => {
    const m = evidenceMatrix(FIXTURE, 2);
    expect(m.columns.map((h) => h.attack_id)).toEqual(['G0007', 'G0016']);
    expect(m.rows.map((r) => r.evidence_id)).toEqual(['E1', 'E2', 'E3', 'E4']);
    expect(m.cells).toEqual([
      [2, -1],
      [1, 0.5],
      [-0.5, 0],
      [0, 0],
    ]);
    expect(m.max).toBe(2);
  });

  it('writes small cells with enough digits not to read as zero', () => {
    expect(cellText(0)).toBe('');
    expect(cellText(-0.03)).toBe('−0.03');
    expect(cellText(1.26)).toBe('+1.3');
  });

  it('shades by sign and size', () => {
    expect(cellShade(0, 2)).toEqual({ tone: 'none', strength: 0 });
    expect(cellShade(2, 2)).toEqual({ tone: 'pos', strength: 1 });
    expect(cellShade(-0.5, 2)).toEqual({ tone: 'neg', strength: 0.5 });
  });

  it('draws only evidence that bears on the shown actors', () => {
    const g = graphModel(FIXTURE, 2);
    expect(g.nodes.filter((n) => n.side === 'evidence').map((n) => n.id)).toEqual(['ev:E1', 'ev:E2', 'ev:E3']);
    expect(g.edges).toHaveLength(5);
    expect(g.edges.find((e) => e.id === 'E1->G0007')?.weight).toBe(1);
    expect(g.omitted).toBe(0);
  });

  it('leaves out edges below a share of the largest, and counts them', () => {
    const g = graphModel(FIXTURE, 2, 0.3);
    expect(g.edges.map((e) => e.id).sort()).toEqual(['E1->G0007', 'E1->G0016', 'E2->G0007']);
    expect(g.omitted).toBe(2);
    expect(g.nodes.filter((n) => n.side === 'evidence').map((n) => n.id)).toEqual(['ev:E1', 'ev:E2']);
  });
});

describe('formatting', () => {
  it('rounds percentages without false precision', () => {
    expect(percent(0.704)).toBe('70%');
    expect(percent(0.004)).toBe('<1%');
    expect(percent(0.996)).toBe('>99%');
    expect(percent(0)).toBe('0%');
  });

  it('makes safe download names', () => {
    expect(downloadName('CASE 1/../x', 'stix')).toBe('CASE_1_.._x-stix.json');
    expect(downloadName('', 'assessment')).toBe('case-assessment.json');
  });
});

describe('caseSources', () => {
  it('lists the items with a source and a link back, skipping those without and links that are not routes', async () => {
    const { caseSources } = await import('./model');
    const kase = {
      case_id: 'c',
      techniques: [{ evidence_id: 'T-1', id: 'T1059' }, { evidence_id: 'F-T-1', id: 'T1071.001', source: { service: 'replay', kind: 'story', id: '3', link: '#/replay/story/3' } }],
      indicators: [{ evidence_id: 'F-I-1', type: 'ipv4', value: '105.73.6.112:80', source: { service: 'forensic', kind: 'story', id: 's9', link: 'javascript:alert(1)' } }],
    };
    expect(caseSources(kase)).toEqual([
      { evidence_id: 'F-T-1', kind: 'technique', value: 'T1071.001', label: 'replay story 3', full: 'Sent from replay story 3', link: '#/replay/story/3' },
      { evidence_id: 'F-I-1', kind: 'indicator', value: 'ipv4 105.73.6.112:80', label: 'forensic story s9', full: 'Sent from forensic story s9' },
    ]);
    // An item Send to wrote: named by the finding's title in its note, the case's id never printed whole.
    const sent = {
      case_id: 'c',
      techniques: [
        {
          evidence_id: 'F-T-1',
          id: 'T1569.002',
          note: 'Sent from forensic story dda326ab-e5bd-47a6-bc00-1b0ad5e75610/S1 "LM.evtx · story S1: Service Execution" (#/forensic/case/dda326ab-e5bd-47a6-bc00-1b0ad5e75610/story/S1)',
          source: { service: 'forensic', kind: 'story', id: 'dda326ab-e5bd-47a6-bc00-1b0ad5e75610/S1', link: '#/forensic/case/dda326ab-e5bd-47a6-bc00-1b0ad5e75610/story/S1' },
        },
        { evidence_id: 'F-T-2', id: 'T1003', source: { service: 'forensic', kind: 'story', id: 'dda326ab-e5bd-47a6-bc00-1b0ad5e75610/S1' } },
      ],
    };
    expect(caseSources(sent).map((s) => s.label)).toEqual(['forensic story “LM.evtx · story S1: Service Execution”', 'forensic story dda326ab/S1']);
    expect(caseSources('nope')).toEqual([]);
  });
});

describe('caseWaiting', () => {
  it('says a case is loaded and not assessed yet, naming where it came from', async () => {
    const { caseWaiting } = await import('./model');
    expect(caseWaiting('stored case c-1')).toBe('The case from stored case c-1 is in the editor, not assessed yet.');
    expect(caseWaiting(null)).toBe('A case is in the editor, not assessed yet.');
  });

  it('names the sample case as such, not as "the case from sample case"', async () => {
    const { caseAssessing, caseWaiting, originNote } = await import('./model');
    expect(caseWaiting('sample case')).toBe('The sample case is in the editor, not assessed yet.');
    expect(caseAssessing('sample case')).toBe('Assessing the sample case…');
    expect(caseAssessing('intrusion.json')).toBe('Assessing the case from intrusion.json…');
    expect(originNote('sample case, edited since')).toBe('The sample case, edited since. ');
    expect(originNote('intrusion.json')).toBe('From intrusion.json. ');
    expect(originNote(null)).toBe('');
  });
});
