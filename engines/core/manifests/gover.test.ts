// Tests for Go version ordering: releases, prereleases, pseudo-versions, +incompatible and invalid strings.
import { describe, expect, it } from 'vitest';
import { compareGoVersions, isGoVersion } from './gover.js';

describe('compareGoVersions', () => {
  it('orders a list the way golang.org/x/mod/semver sorts it', () => {
    const sorted = [
      'bad',
      'v0.0.0-20190101000000-aaaaaaaaaaaa',
      'v0.0.0-20210101000000-bbbbbbbbbbbb',
      'v0.1.0-rc.1',
      'v0.1.0-rc.2',
      'v0.1.0-rc.10',
      'v0.1.0',
      'v0.1.1-0.20200101000000-cccccccccccc',
      'v0.1.1',
      'v1.2.3',
      'v1.10.0',
      'v2.0.0+incompatible',
      'v18446744073709551616.0.0',
    ];
    const shuffled = [...sorted].reverse();
    expect(shuffled.sort(compareGoVersions)).toEqual(sorted);
  });

  it('ignores build metadata and treats shorthands as their full form', () => {
    expect(compareGoVersions('v2.0.0+incompatible', 'v2.0.0')).toBe(0);
    expect(compareGoVersions('v1', 'v1.0.0')).toBe(0);
    expect(compareGoVersions('v1.2', 'v1.2.0')).toBe(0);
  });

  it('knows valid from invalid versions', () => {
    expect(isGoVersion('v0.4.6-0.20260727075515-eb1ca153f805')).toBe(true);
    expect(isGoVersion('v29.7.1+incompatible')).toBe(true);
    expect(isGoVersion('1.2.3')).toBe(false);
    expect(isGoVersion('v1.02.3')).toBe(false);
    expect(isGoVersion('v1-pre')).toBe(false);
    expect(isGoVersion('v1.0.0-01')).toBe(false);
  });
});
