// Names and versions: the ecosystem check, npm name rules, PEP 503, newest-version choice by semver and PEP 440.
import { describe, expect, it } from 'vitest';
import { checkVersion, newestVersion, normalizeName, parseEcosystem, sameVersion } from './names.js';

describe('names', () => {
  it('checks the ecosystem with a message listing the allowed values', () => {
    expect(parseEcosystem('pypi')).toBe('pypi');
    expect(() => parseEcosystem('maven')).toThrow('unknown ecosystem: allowed values are npm, pypi');
    expect(() => parseEcosystem(undefined)).toThrow(/npm, pypi/);
  });

  it('normalises PyPI names per PEP 503 and refuses invalid ones', () => {
    expect(normalizeName('pypi', 'Foo_Bar')).toBe('foo-bar');
    expect(normalizeName('pypi', 'zope.interface')).toBe('zope-interface');
    expect(normalizeName('pypi', 'A__-.b')).toBe('a-b');
    for (const bad of ['', '-lead', 'trail_', 'sp ace', 'a/b', 'x'.repeat(201)]) expect(() => normalizeName('pypi', bad)).toThrow(/not a valid pypi package name/);
  });

  it('validates npm names by npm rules, scope kept, case kept (the registry is case-sensitive)', () => {
    expect(normalizeName('npm', '@lab/thing')).toBe('@lab/thing');
    expect(normalizeName('npm', 'JSONStream')).toBe('JSONStream');
    expect(normalizeName('npm', 'lodash.merge')).toBe('lodash.merge');
    for (const bad of ['', '.hidden', '_under', 'a/b', '@scope', '@scope/', '@/x', 'has space', '../etc', 'node_modules', 'x'.repeat(215), 'é']) {
      expect(() => normalizeName('npm', bad)).toThrow(/not a valid npm package name/);
    }
    try {
      normalizeName('npm', 'secret value');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('secret');
    }
  });

  it('checks version strings and compares PyPI spellings', () => {
    expect(checkVersion('1.0.0-rc.1')).toBe('1.0.0-rc.1');
    expect(() => checkVersion('1.0; rm')).toThrow(/not a valid version/);
    expect(() => checkVersion('')).toThrow();
    expect(sameVersion('pypi', '1.0-1', '1.0.post1')).toBe(true);
    expect(sameVersion('pypi', '1.0', '1.0.0')).toBe(false);
    expect(sameVersion('npm', '1.0.0', 'v1.0.0')).toBe(false);
  });

  it('picks the newest stable version, a pre-release only when nothing else exists', () => {
    expect(newestVersion('npm', ['1.2.0', '1.10.0', '2.0.0-beta.1', 'latest'])).toBe('1.10.0');
    expect(newestVersion('npm', ['2.0.0-beta.1', '2.0.0-alpha.3'])).toBe('2.0.0-beta.1');
    expect(newestVersion('pypi', ['0.9', '0.10', '1.0rc1', '0.10.post1', '1.0.dev3'])).toBe('0.10.post1');
    expect(newestVersion('pypi', ['1.0rc1', '1.0b2'])).toBe('1.0rc1');
    expect(newestVersion('npm', ['nonsense'])).toBeNull();
    expect(newestVersion('pypi', [])).toBeNull();
  });
});
