// The usage-table row pattern answers what its earlier form answered (which split a run of options exponentially).
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../engines/core/random.js';
import { OPTION_ROW } from './commands.js';

const BEFORE = /^\s+((?:--[a-z][a-z0-9-]*(?:,\s*|\s+or\s+)?)+)\s{2,}(\S.*)$/;

describe('OPTION_ROW', () => {
  it('captures what the earlier pattern captured, on random rows', () => {
    const random = mulberry32(17);
    const next = (): number => Math.floor(random() * 2 ** 24);
    const pieces = [' ', '  ', '\t', '--', '--a', '--o', 'a', '0', '-', ',', ', ', ' or ', 'or', 'x', 'X', '.'];
    let rows = 0;
    for (let i = 0; i < 60_000; i++) {
      // a row's shape (indent, options, a gap, a description) with random pieces in each part
      let t = `${' '.repeat(next() % 3)}${next() % 5 === 0 ? '' : '--a'}`;
      const n = next() % 8;
      for (let j = 0; j < n; j++) t += pieces[next() % pieces.length] as string;
      t += ' '.repeat(next() % 5);
      const d = next() % 4;
      for (let j = 0; j < d; j++) t += pieces[next() % pieces.length] as string;
      const b = BEFORE.exec(t);
      const a = OPTION_ROW.exec(t);
      expect(a && [a[1], a[2]], JSON.stringify(t)).toEqual(b && [b[1], b[2]]);
      if (b) rows++;
    }
    expect(rows).toBeGreaterThan(500);
  });

  it('reads the rows of a usage table', () => {
    expect(OPTION_ROW.exec('  --kind, --type    the kind')?.slice(1)).toEqual(['--kind, --type', 'the kind']);
    expect(OPTION_ROW.exec('  --a or --b        either')?.slice(1)).toEqual(['--a or --b', 'either']);
    expect(OPTION_ROW.exec('  --dry-run--x      one name')?.slice(1)).toEqual(['--dry-run--x', 'one name']);
    expect(OPTION_ROW.exec('  --kind the kind')).toBeNull();
  });
});
