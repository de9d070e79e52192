// The Attribution view's pure helpers: known infrastructure lines, the period fields, the request, the reason bars.
import { describe, expect, it } from 'vitest';
import type { AttributionCandidate } from '../../../../engines/core/contracts/attrib';
import { attributeRequest, inputKey, parseInfrastructureLines, periodOf, reasonSegments } from './attribution';

describe('Attribution view model', () => {
  it('reads known infrastructure one group per line, merging repeated groups, skipping comments, naming bad lines by number only', () => {
    const r = parseInfrastructureLines('# recorded by the IR team\ng0016: 203.0.113.7, evil.example.net\n\nG0016: ipv4:198.51.100.9; evil.example.net\nG0007 = hxxp://x.example/a');
    expect(r.errors).toEqual([]);
    expect(r.groups).toEqual([
      { group: 'G0016', indicators: ['203.0.113.7', 'evil.example.net', 'ipv4:198.51.100.9'] },
      { group: 'G0007', indicators: ['hxxp://x.example/a'] },
    ]);
    const bad = parseInfrastructureLines('APT29 secret.example\nG0016:');
    expect(bad.errors).toEqual([expect.stringMatching(/^line 1: /), 'line 2: no indicator after the group id']);
    expect(bad.errors.join(' ')).not.toContain('secret.example');
  });

  it('checks the period fields: empty is no period, a year or date, the end not before the start', () => {
    expect(periodOf('', '')).toEqual({});
    expect(periodOf('2021', '')).toEqual({ period: { from: '2021' } });
    expect(periodOf(' 2021-03 ', '2022-01-31')).toEqual({ period: { from: '2021-03', to: '2022-01-31' } });
    expect(periodOf('', '2022').error).toMatch(/start/);
    expect(periodOf('spring', '').error).toMatch(/year/);
    expect(periodOf('2021-13', '').error).toMatch(/year/);
    expect(periodOf('2022', '2020').error).toMatch(/before/);
  });

  it('builds the request only when every field is usable, and a key that changes with any input', () => {
    const fields = { text: 'T1059.001 and 203.0.113.7', shortlist: 8, classifier: false, from: '2020', to: '', infrastructure: 'G0016: 203.0.113.7' };
    const ok = attributeRequest(fields);
    expect(ok.errors).toEqual([]);
    expect(ok.body).toEqual({ text: fields.text, shortlist: 8, period: { from: '2020' }, known_infrastructure: [{ group: 'G0016', indicators: ['203.0.113.7'] }] });
    expect(attributeRequest({ ...fields, text: ' ' }).body).toBeUndefined();
    expect(attributeRequest({ ...fields, from: 'x', infrastructure: 'nope' }).errors).toHaveLength(2);
    const other = attributeRequest({ ...fields, to: '2021' }).body;
    expect(inputKey(other)).not.toBe(inputKey(ok.body));
    expect(inputKey(attributeRequest(fields).body)).toBe(inputKey(ok.body));
  });

  it('turns reasons into stacked shares of the largest score, in a fixed order, leaving out parts that add nothing', () => {
    const c: AttributionCandidate = {
      rank: 1,
      id: 'G0016',
      name: 'APT29',
      aliases: [],
      similarity: 0.3,
      score: 1.5,
      probability: 0.4,
      shared_techniques: [],
      group_technique_count: 10,
      reasons: [
        { kind: 'time', contribution: 0, detail: 'far' },
        { kind: 'infrastructure', contribution: 0.5, detail: '1 report indicator(s) recorded for this group' },
        { kind: 'techniques', contribution: 1, detail: '' },
      ],
    };
    expect(reasonSegments(c, 2)).toEqual([
      { kind: 'techniques', share: 0.5, contribution: 1 },
      { kind: 'infrastructure', share: 0.25, contribution: 0.5 },
    ]);
    expect(reasonSegments(c, 0)).toEqual([]);
    const { reasons: _reasons, ...withoutReasons } = c;
    expect(reasonSegments(withoutReasons, 2)).toEqual([]);
  });
});
