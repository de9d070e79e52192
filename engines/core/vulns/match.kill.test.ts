// OSV matching at the edges the case tables leave open, each answer from the OSV schema's evaluation
// (https://ossf.github.io/osv-schema/#evaluation): a range's own three answers (not only what a record makes of them),
// an unreadable version against a range that is only `introduced: 0`, `limit: *` written before or after the events
// in a scheme that cannot read `*`, explicit versions that no comparator reads, withdrawn as null, empty or a date,
// and an affected entry without a package. Written against mutants of match.ts that match.cases let through
// (docs/testing.md, mutation testing).
import { describe, expect, it } from 'vitest';
import { affectedEntryAffects, matchRecord, rangeAffects } from './match.js';
import { parseOsvRecord, type OsvEvent, type OsvRange, type OsvRecord } from './osv.js';

const range = (events: OsvEvent[], type: OsvRange['type'] = 'ECOSYSTEM'): OsvRange => ({ type, events });
const rec = (affected: unknown[], extra: Record<string, unknown> = {}): OsvRecord => parseOsvRecord({ id: 'TEST-2', modified: '2024-01-01T00:00:00Z', affected, ...extra });

describe('one range\'s answer', () => {
  it('is exactly affected, not_affected or unknown: at and past a limit, past a fix, inside, and for an unreadable version', () => {
    const limited = range([{ introduced: '1.0' }, { limit: '2.0' }]);
    expect(['0.5', '1.5', '2.0', '2.5'].map((v) => rangeAffects(limited, 'PyPI', v))).toEqual(['not_affected', 'affected', 'not_affected', 'not_affected']);
    const fixed = range([{ introduced: '1.0' }, { fixed: '2.0' }]);
    expect(['1.5', '2.0', 'not a version!'].map((v) => rangeAffects(fixed, 'PyPI', v))).toEqual(['affected', 'not_affected', 'unknown']);
    expect(rangeAffects(range([{ introduced: '1.0' }, { fixed: 'not a version!' }]), 'PyPI', '1.5')).toBe('unknown');
  });

  it('an unreadable version is unknown even against introduced 0 alone (no event needs reading to say so)', () => {
    const all = range([{ introduced: '0' }]);
    expect(rangeAffects(all, 'PyPI', '3.1')).toBe('affected');
    expect(rangeAffects(all, 'PyPI', 'not a version!')).toBe('unknown');
    expect(rangeAffects(all, 'npm', 'not a version!')).toBe('unknown');
  });

  it('limit * bounds nothing, written before or after the other events, in a scheme that cannot read "*" (PyPI)', () => {
    for (const events of [
      [{ limit: '*' }, { introduced: '1.0' }],
      [{ introduced: '1.0' }, { limit: '*' }],
      [{ introduced: '1.0' }, { limit: '*' }, { fixed: '3.0' }, { limit: '*' }],
    ]) {
      expect(['0.5', '1.5', '9.0'].map((v) => rangeAffects(range(events), 'PyPI', v))).toEqual(['not_affected', 'affected', events.length > 2 ? 'not_affected' : 'affected']);
    }
  });
});

describe('explicit versions', () => {
  it('a listed version no comparator can read (here one with a leading v) is affected when written exactly so, and only then', () => {
    const a = { package: { ecosystem: 'PyPI', name: 'x' }, versions: ['v2024!weird'] };
    expect(affectedEntryAffects(a, 'v2024!weird')).toBe('affected');
    expect(affectedEntryAffects(a, 'v2024!Weird')).toBe('not_affected');
  });

  it('only a leading v before a digit is dropped: 1.0-v1 is not 1.0-1', () => {
    const a = { package: { ecosystem: 'Debian', name: 'x' }, versions: ['1.0-1'] };
    expect(affectedEntryAffects(a, '1.0-1')).toBe('affected');
    expect(affectedEntryAffects(a, '1.0-v1')).toBe('not_affected');
  });

  it('an affected entry without a package is still read (its versions compared as written)', () => {
    expect(affectedEntryAffects({ versions: ['1.0.0'] }, '1.0.0')).toBe('affected');
    expect(affectedEntryAffects({ versions: ['1.0.0'] }, '2.0.0')).toBe('not_affected');
  });
});

describe('withdrawn records', () => {
  const aff = [{ package: { ecosystem: 'npm', name: 'left-pad' }, versions: ['1.0.0'] }];
  it('a date withdraws the record; null, an empty text or no field do not', () => {
    expect(matchRecord(rec(aff, { withdrawn: '2024-02-01T00:00:00Z' }), 'npm', 'left-pad', '1.0.0')).toBe('not_affected');
    expect(matchRecord(rec(aff, { withdrawn: null }), 'npm', 'left-pad', '1.0.0')).toBe('affected');
    expect(matchRecord(rec(aff, { withdrawn: '' }), 'npm', 'left-pad', '1.0.0')).toBe('affected');
    expect(matchRecord(rec(aff), 'npm', 'left-pad', '1.0.0')).toBe('affected');
  });
});
