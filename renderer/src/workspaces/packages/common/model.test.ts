// The verdict page's pure helpers: findings grouped by file, chart scales, the chain layout, text wrapping, the scatter's scaling, service messages as sentences.
import { describe, expect, it } from 'vitest';
import type { AttackChain, ScanFinding, Severity } from '../../../../../engines/core/contracts/pkgscan';
import { sentence } from './format';
import { chainLayout, groupFindingsByFile, linear, niceMax, orderedDimensions, pageText, scaleBars, scatter, worst, wrapText } from './model';

function finding(file: string | null, line: number | null, severity: Severity, code = 'c'): ScanFinding {
  return { code, severity, category: 'code_execution', title: code, file, line, match: null, technique: null, analyzer: 'source' };
}

describe('groupFindingsByFile', () => {
  it('puts package-level findings first, then files worst first and by path, findings by line', () => {
    const groups = groupFindingsByFile([
      finding('lib/a.js', 20, 'low', 'a20'),
      finding('index.js', 9, 'critical', 'i9'),
      finding(null, null, 'medium', 'meta'),
      finding('lib/a.js', 3, 'high', 'a3'),
      finding('index.js', 2, 'info', 'i2'),
      finding('z.js', 1, 'high', 'z1'),
    ]);
    expect(groups.map((g) => g.file)).toEqual([null, 'index.js', 'lib/a.js', 'z.js']);
    expect(groups.map((g) => g.severity)).toEqual(['medium', 'critical', 'high', 'high']);
    expect(groups[1]?.findings.map((f) => f.code)).toEqual(['i2', 'i9']);
    expect(groups[2]?.findings.map((f) => f.code)).toEqual(['a3', 'a20']);
  });

  it('gives nothing for nothing and keeps every finding', () => {
    expect(groupFindingsByFile([])).toEqual([]);
    const many = Array.from({ length: 50 }, (_, i) => finding(`f${i % 7}.py`, i, 'low'));
    expect(groupFindingsByFile(many).reduce((n, g) => n + g.findings.length, 0)).toBe(50);
  });

  it('worst of severities, info for none or unknown', () => {
    expect(worst(['low', 'critical', 'medium'])).toBe('critical');
    expect(worst([])).toBe('info');
    expect(worst(['bogus'])).toBe('info');
  });
});

describe('chart scales', () => {
  it('niceMax rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([0, -3, Number.NaN, 0.3, 1, 3, 7, 11, 180, 501].map(niceMax)).toEqual([1, 1, 1, 0.5, 1, 5, 10, 20, 200, 1000]);
  });

  it('linear maps and clamps; a flat domain maps to the start', () => {
    const f = linear(0, 10, 100, 0);
    expect(f(0)).toBe(100);
    expect(f(5)).toBe(50);
    expect(f(20)).toBe(0);
    expect(f(-1)).toBe(100);
    expect(linear(3, 3, 7, 9)(3)).toBe(7);
  });

  it('bars: zero stays zero, a tiny non-zero value is still visible, a fixed max is honoured', () => {
    const bars = scaleBars([{ label: 'a', value: 0 }, { label: 'b', value: 1 }, { label: 'c', value: 1000 }], 200);
    expect(bars.map((b) => b.length)).toEqual([0, 1, 200]);
    expect(scaleBars([{ label: 'x', value: 0.5 }], 100, 1)[0]?.length).toBe(50);
    expect(scaleBars([{ label: 'x', value: Number.NaN }], 100)[0]?.length).toBe(0);
  });

  it('dimensions in the fixed order, clamped to 0..1, unknown ones after', () => {
    expect(orderedDimensions({ zeta: 0.2, provenance: 1.7, malicious_code: 0.9, install_time: -1 })).toEqual([
      { label: 'malicious code', value: 0.9 },
      { label: 'install time', value: 0 },
      { label: 'provenance', value: 1 },
      { label: 'zeta', value: 0.2 },
    ]);
  });

  it('scatter leaves out advisories without both scores instead of drawing them at zero', () => {
    const { points, missing } = scatter(
      [
        { id: 'a', epss: 0, score: 0 },
        { id: 'b', epss: 1, score: 10 },
        { id: 'c', epss: null, score: 9.8 },
        { id: 'd', epss: 0.5, score: null },
      ],
      200,
      100,
      10,
    );
    expect(points).toEqual([
      { id: 'a', x: 10, y: 90 },
      { id: 'b', x: 190, y: 10 },
    ]);
    expect(missing).toEqual(['c', 'd']);
  });

  it('page text', () => {
    expect(pageText(0, 50, 0)).toBe('none');
    expect(pageText(50, 50, 120)).toBe('51–100 of 120');
  });
});

describe('attack chain layout', () => {
  const chain = (n: number): AttackChain => ({
    title: 't',
    severity: 'high',
    technique: null,
    steps: Array.from({ length: n }, (_, i) => ({ role: i === 0 ? 'capability' : 'threat', code: `s${i}`, description: 'd', file: null, line: null, match: null })),
  });

  it('places steps left to right and wraps rows when the width is used up', () => {
    const one = chainLayout(chain(2), 820, 190, 60, 30);
    expect(one.boxes.map((b) => [b.x, b.y])).toEqual([
      [0, 0],
      [220, 0],
    ]);
    expect(one.height).toBe(60);
    const wrapped = chainLayout(chain(5), 850, 190, 60, 30);
    expect(wrapped.boxes.map((b) => b.y)).toEqual([0, 0, 0, 0, 90]);
    expect(wrapped.height).toBe(150);
    expect(chainLayout(chain(5), 849, 190, 60, 30).boxes.map((b) => b.y)).toEqual([0, 0, 0, 90, 90]);
    expect(chainLayout(chain(3), 50, 190, 60, 30).boxes.map((b) => b.y)).toEqual([0, 90, 180]);
  });

  it('wraps box text into lines and marks a cut with an ellipsis', () => {
    expect(wrapText('reads ~/.npmrc', 30, 2)).toEqual(['reads ~/.npmrc']);
    expect(wrapText('sends the collected environment to a Discord webhook over https right away', 20, 2)).toEqual(['sends the collected', 'environment to a…']);
    expect(wrapText('x'.repeat(50), 10, 2)[0]).toBe(`${'x'.repeat(9)}…`);
    expect(wrapText('', 10, 2)).toEqual([]);
  });
});

describe('sentence', () => {
  it('capitalises and ends a service phrase', () => {
    expect(sentence('no configured package source holds that release')).toBe('No configured package source holds that release.');
    expect(sentence('Done!')).toBe('Done!');
    expect(sentence('  ')).toBe('');
  });
});
