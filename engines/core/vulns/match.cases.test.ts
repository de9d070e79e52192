// OSV matching on small hand-written records, each answer worked out by hand from the OSV schema's evaluation
// (https://ossf.github.io/osv-schema/#evaluation): events sorted by version with `introduced` first at equal versions,
// `fixed` and `last_affected` closing, `limit` an upper bound, `0` the earliest version, GIT ranges not about versions.
import { describe, expect, it } from 'vitest';
import { affectedEntryAffects, ecosystemMatches, entriesFor, fixedVersionsOf, matchRecord, normaliseName, rangeAffects } from './match.js';
import { parseOsvRecord, type OsvEvent, type OsvRange, type OsvRecord } from './osv.js';

const rec = (affected: unknown[], extra: Record<string, unknown> = {}): OsvRecord => parseOsvRecord({ id: 'TEST-1', modified: '2024-01-01T00:00:00Z', affected, ...extra });
const range = (events: OsvEvent[], type: OsvRange['type'] = 'SEMVER'): OsvRange => ({ type, events });
const npm = (ranges: unknown[], versions?: string[]): OsvRecord => rec([{ package: { ecosystem: 'npm', name: 'left-pad' }, ranges, ...(versions ? { versions } : {}) }]);

describe('names and ecosystems', () => {
  it('names: trimmed; lower case where the ecosystem ignores case; PyPI per PEP 503; others keep their case', () => {
    expect(normaliseName('npm', ' Left-Pad ')).toBe('left-pad');
    expect(normaliseName('Debian:12', 'LibSSL3')).toBe('libssl3');
    expect(normaliseName('PyPI', 'Foo_Bar.baz')).toBe('foo-bar-baz');
    expect(normaliseName('Go', ' github.com/Foo/Bar ')).toBe('github.com/Foo/Bar');
    expect(normaliseName('Maven', 'Org.Foo:Bar')).toBe('Org.Foo:Bar');
  });

  it('ecosystems: equal without case or spaces; a bare query answers every release of its base, a release only itself', () => {
    expect(ecosystemMatches(' Debian:12 ', 'debian:12')).toBe(true);
    expect(ecosystemMatches('npm', ' NPM ')).toBe(true);
    expect(ecosystemMatches('Debian:12', 'Debian')).toBe(true);
    expect(ecosystemMatches('Debian:12', 'Debian:11')).toBe(false);
    expect(ecosystemMatches('Debian', 'Debian:12')).toBe(false);
    expect(ecosystemMatches('Debian:12', 'npm')).toBe(false);
    expect(ecosystemMatches('Alpine:v3.19', 'Debian')).toBe(false);
  });

  it('entries: only those of the package, in the queried ecosystem, and never one without a package', () => {
    const r = rec([
      { package: { ecosystem: 'npm', name: 'Left-Pad' }, versions: ['1.0.0'] },
      { package: { ecosystem: 'PyPI', name: 'left-pad' }, versions: ['1.0.0'] },
      { package: { ecosystem: 'npm', name: 'right-pad' }, versions: ['1.0.0'] },
      { versions: ['1.0.0'] },
    ]);
    expect(entriesFor(r, 'npm', 'left-pad').map((a) => `${a.package?.ecosystem ?? '-'}/${a.package?.name ?? '-'}`)).toEqual(['npm/Left-Pad']);
    expect(entriesFor(r, 'Go', 'left-pad')).toEqual([]);
  });
});

describe('ranges', () => {
  // introduced 1.0.0, fixed 2.0.0: [1.0.0, 2.0.0)
  const simple = npm([range([{ introduced: '1.0.0' }, { fixed: '2.0.0' }])]);
  it('introduced/fixed is half-open: in at introduced, out at fixed', () => {
    expect(['0.9.9', '1.0.0', '1.5.0', '1.99.99', '2.0.0', '3.0.0'].map((v) => matchRecord(simple, 'npm', 'left-pad', v))).toEqual([
      'not_affected',
      'affected',
      'affected',
      'affected',
      'not_affected',
      'not_affected',
    ]);
  });

  it('introduced 0 is before every version; a later fix still closes it', () => {
    const r = npm([range([{ introduced: '0' }, { fixed: '1.0.0' }])]);
    expect(['0.0.1', '0.5.0', '1.0.0', '1.5.0'].map((v) => matchRecord(r, 'npm', 'left-pad', v))).toEqual(['affected', 'affected', 'not_affected', 'not_affected']);
  });

  it('last_affected is closed: the named version is in, the next one out', () => {
    const r = npm([range([{ introduced: '1.0.0' }, { last_affected: '1.4.0' }])]);
    expect(['0.9.0', '1.0.0', '1.4.0', '1.4.1'].map((v) => matchRecord(r, 'npm', 'left-pad', v))).toEqual(['not_affected', 'affected', 'affected', 'not_affected']);
  });

  it('unsorted events are sorted first; at one version introduced comes before fixed', () => {
    const r = npm([range([{ fixed: '3.0.0' }, { introduced: '2.0.0' }, { fixed: '1.5.0' }, { introduced: '1.0.0' }])]);
    expect(['1.2.0', '1.7.0', '2.5.0', '3.1.0'].map((v) => matchRecord(r, 'npm', 'left-pad', v))).toEqual(['affected', 'not_affected', 'affected', 'not_affected']);
    // fixed and introduced at the same version, fixed written first: introduced then fixed, so 1.0.0 is not affected
    const same = npm([range([{ fixed: '1.0.0' }, { introduced: '1.0.0' }])]);
    expect(matchRecord(same, 'npm', 'left-pad', '1.0.0')).toBe('not_affected');
  });

  it('limit bounds the range from above; limit * bounds nothing', () => {
    const r = npm([range([{ introduced: '1.0.0' }, { limit: '2.0.0' }])]);
    expect(['0.5.0', '1.5.0', '2.0.0', '2.5.0'].map((v) => matchRecord(r, 'npm', 'left-pad', v))).toEqual(['not_affected', 'affected', 'not_affected', 'not_affected']);
    const star = npm([range([{ limit: '*' }, { introduced: '1.0.0' }])]);
    expect(['0.5.0', '1.5.0', '9.0.0'].map((v) => matchRecord(star, 'npm', 'left-pad', v))).toEqual(['not_affected', 'affected', 'affected']);
  });

  it('GIT ranges say nothing about versions; an unreadable version or event is unknown, never not affected', () => {
    const git = range([{ introduced: '0' }], 'GIT');
    expect(rangeAffects(git, 'npm', '1.0.0')).toBe('not_affected');
    expect(matchRecord(npm([git]), 'npm', 'left-pad', '1.0.0')).toBe('not_affected');
    expect(matchRecord(simple, 'npm', 'left-pad', 'not a version')).toBe('unknown');
    const badEvent = npm([range([{ introduced: '1.0.0' }, { fixed: 'not-a-version' }])]);
    expect(matchRecord(badEvent, 'npm', 'left-pad', '1.5.0')).toBe('unknown');
    const badLimit = npm([range([{ introduced: '0' }, { limit: 'not-a-version' }])]);
    expect(matchRecord(badLimit, 'npm', 'left-pad', '1.5.0')).toBe('unknown');
  });

  it('one range affecting is enough; an unknown one makes the answer unknown only when none affects', () => {
    const both = npm([range([{ introduced: '1.0.0' }, { fixed: 'bogus!' }]), range([{ introduced: '1.0.0' }, { fixed: '2.0.0' }])]);
    expect(matchRecord(both, 'npm', 'left-pad', '1.5.0')).toBe('affected');
    expect(matchRecord(both, 'npm', 'left-pad', '2.5.0')).toBe('unknown');
    const a = { package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [range([{ introduced: '1.0.0' }, { fixed: '2.0.0' }])] };
    expect(affectedEntryAffects(a, '2.5.0')).toBe('not_affected');
    expect(affectedEntryAffects(a, '1.0.0')).toBe('affected');
  });

  it('two entries of the package: affected when one is; unknown when one is unknown and none affects', () => {
    const r = rec([
      { package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [range([{ introduced: '1.0.0' }, { fixed: 'bogus!' }])] },
      { package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [range([{ introduced: '3.0.0' }])] },
    ]);
    expect(matchRecord(r, 'npm', 'left-pad', '3.1.0')).toBe('affected');
    expect(matchRecord(r, 'npm', 'left-pad', '1.5.0')).toBe('unknown');
    expect(matchRecord(r, 'npm', 'left-pad', '0.5.0')).toBe('unknown');
    const clean = rec([{ package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [range([{ introduced: '3.0.0' }])] }]);
    expect(matchRecord(clean, 'npm', 'left-pad', '0.5.0')).toBe('not_affected');
  });
});

describe('explicit versions, withdrawn records, fixed versions', () => {
  it('a listed version is affected as written, or equal in the ecosystem ordering, or without a leading v', () => {
    expect(matchRecord(npm([], ['1.2.3']), 'npm', 'left-pad', '1.2.3')).toBe('affected');
    expect(matchRecord(npm([], ['1.2.3']), 'npm', 'left-pad', '1.2.4')).toBe('not_affected');
    const py = rec([{ package: { ecosystem: 'PyPI', name: 'requests' }, versions: ['1.0'] }]);
    expect(matchRecord(py, 'PyPI', 'requests', '1.0.0')).toBe('affected');
    expect(matchRecord(py, 'PyPI', 'requests', '1.0.1')).toBe('not_affected');
    const mvn = rec([{ package: { ecosystem: 'Maven', name: 'org.x:y' }, versions: ['1.2.3'] }]);
    expect(matchRecord(mvn, 'Maven', 'org.x:y', 'v1.2.3')).toBe('affected');
    expect(matchRecord(mvn, 'Maven', 'org.x:y', 'v1.2.4')).toBe('not_affected');
  });

  it('a withdrawn record affects nothing; an empty withdrawn field is not withdrawn', () => {
    const aff = [{ package: { ecosystem: 'npm', name: 'left-pad' }, versions: ['1.0.0'] }];
    expect(matchRecord(rec(aff, { withdrawn: '2024-02-01T00:00:00Z' }), 'npm', 'left-pad', '1.0.0')).toBe('not_affected');
    expect(matchRecord(rec(aff), 'npm', 'left-pad', '1.0.0')).toBe('affected');
  });

  it('fixed versions: from SEMVER and ECOSYSTEM ranges, each once, in order; GIT fixes are commits, not versions', () => {
    const a = {
      package: { ecosystem: 'npm', name: 'left-pad' },
      ranges: [range([{ introduced: '0' }, { fixed: '1.0.1' }, { introduced: '2.0.0' }, { fixed: '2.0.5' }]), range([{ introduced: '0' }, { fixed: '1.0.1' }], 'ECOSYSTEM'), range([{ introduced: '0' }, { fixed: 'abc123' }], 'GIT')],
    };
    expect(fixedVersionsOf(a)).toEqual(['1.0.1', '2.0.5']);
    expect(fixedVersionsOf({ package: { ecosystem: 'npm', name: 'x' } })).toEqual([]);
  });
});
