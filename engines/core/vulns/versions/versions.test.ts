import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apkVersionCompare, compareApk, compareMaven, compareDpkg, compareGeneric, compareGo, comparePep440, compareRpm, compareSemver, comparatorFor, isApkVersion, rpmvercmp, schemeOf, type Comparator } from './index.js';
import { skipWithout } from '../../../../test/oracles.js';

/** Every adjacent pair of an increasing list, and every pair across it, must compare as the list says. */
function disagreementsInOrder(cmp: Comparator, ordered: readonly string[]): string[] {
  const bad: string[] = [];
  for (let i = 0; i < ordered.length; i++) {
    for (let j = 0; j < ordered.length; j++) {
      const want = Math.sign(i - j);
      const got = cmp(ordered[i] as string, ordered[j] as string);
      if (got !== want) bad.push(`${ordered[i]} vs ${ordered[j]}: ${got} != ${want}`);
    }
  }
  return bad;
}

describe('semver', () => {
  it('semver.org precedence example', () => {
    const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '2.0.0', '2.1.0', '2.1.1'];
    expect(disagreementsInOrder(compareSemver, order)).toEqual([]);
  });
  it('ignores build metadata, accepts a leading v, refuses garbage', () => {
    expect(compareSemver('1.0.0+build.1', '1.0.0')).toBe(0);
    expect(compareSemver('v1.2.3', '1.2.3')).toBe(0);
    expect(compareSemver('1.2', '1.2.0')).toBe(0);
    expect(compareSemver('1.2.x', '1.2.0')).toBeNull();
    expect(compareSemver('not-a-version', '1.0.0')).toBeNull();
    expect(compareSemver('1.0.0-0', '1.0.0-alpha')).toBe(-1);
  });
  it('Go versions: pseudo-versions are pre-releases, +incompatible ignored', () => {
    expect(compareGo('0.0.0-20220906165146-f3363e06e74c', '0.1.0')).toBe(-1);
    expect(compareGo('v2.0.0+incompatible', '2.0.0')).toBe(0);
    expect(compareGo('1.19.0-0', '1.19.0')).toBe(-1);
    expect(compareGo('1.18.6', '1.19.0-0')).toBe(-1);
    expect(compareGo('x', '1.0.0')).toBeNull();
  });
});

describe('PEP 440', () => {
  // packaging's test_version.py VERSIONS list, strictly increasing.
  const base = ['1.0.dev456', '1.0a1', '1.0a2.dev456', '1.0a12.dev456', '1.0a12', '1.0b1.dev456', '1.0b2', '1.0b2.post345.dev456', '1.0b2.post345', '1.0b2-346', '1.0c1.dev456', '1.0c1', '1.0rc2', '1.0c3', '1.0', '1.0.post456.dev34', '1.0.post456', '1.1.dev1', '1.2+123abc', '1.2+123abc456', '1.2+abc', '1.2+abc123', '1.2+abc123def', '1.2+1234.abc', '1.2+123456', '1.2.r32+123456', '1.2.rev33+123456'];
  it('packaging ordering vectors, with and without an epoch', () => {
    expect(disagreementsInOrder(comparePep440, [...base, ...base.map((v) => `1!${v}`)])).toEqual([]);
  });
  it('normalised spellings are equal; invalid versions give null', () => {
    expect(comparePep440('1.0', '1.0.0')).toBe(0);
    expect(comparePep440('1.0-alpha1', '1.0a1')).toBe(0);
    expect(comparePep440('1.0.POST1', '1.0.post1')).toBe(0);
    expect(comparePep440('v1.0', '1.0')).toBe(0);
    expect(comparePep440('french toast', '1.0')).toBeNull();
  });
});

describe('dpkg', () => {
  it('known orderings: epochs, tilde, letters before symbols', () => {
    const order = ['1.0~~', '1.0~~a', '1.0~', '1.0', '1.0-0.1', '1.0-1', '1.0a', '1.0+', '1.0.1', '1.1~rc1', '1.1', '2:0.1', '2:0.1-1~bpo1', '2:0.1-1'];
    expect(disagreementsInOrder(compareDpkg, order)).toEqual([]);
    expect(compareDpkg('0:1.0', '1.0')).toBe(0);
    expect(compareDpkg('1.0-', '1.0')).toBeNull();
    expect(compareDpkg('a:1', '1')).toBeNull();
  });

  it.skipIf(skipWithout('dpkg'))('agrees with dpkg --compare-versions on generated pairs', () => {
    // Versions built from the pieces that matter: epochs, ~, +, letters, leading zeros, revisions.
    const ups = ['1', '1.0', '1.00', '1.0.0', '1.0~rc1', '1.0~~', '1.0a', '1.0+b1', '1.0+dfsg', '1.0.1', '1.2~beta', '10', '1.10', '1.9', '2.0.0~git20200101', '1:1.0', '2:0.9', '0.0', '1.0.', '1a', '1aa', '1.a1', '1.0+~1', '9.99.999'];
    const revs = ['', '-1', '-0', '-1ubuntu1', '-1~deb12u1', '-1+b2', '-10', '-2', '-1.1'];
    const all: string[] = [];
    for (const u of ups) for (const r of revs) all.push(`${u}${r}`);
    // A fixed-seed shuffle of pairs: about 1,500 comparisons in one shell.
    let seed = 17;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pairs: [string, string][] = [];
    for (let k = 0; k < 1500; k++) pairs.push([all[rnd(all.length)] as string, all[rnd(all.length)] as string]);
    const script = 'while read a b; do if dpkg --compare-versions "$a" lt "$b"; then echo -1; elif dpkg --compare-versions "$a" eq "$b"; then echo 0; else echo 1; fi; done';
    const out = execFileSync('sh', ['-c', script], { input: pairs.map(([a, b]) => `${a} ${b}`).join('\n') + '\n', encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
    const want = out.trim().split('\n').map(Number);
    const bad = pairs.filter(([a, b], i) => compareDpkg(a, b) !== want[i]).map(([a, b], i) => `${a} ${b} ${compareDpkg(a, b)} ${want[i]}`);
    expect(want.length).toBe(pairs.length);
    expect(bad).toEqual([]);
  });
});

describe('rpm', () => {
  // rpm's tests/rpmvercmp.at.
  const cases: [string, string, number][] = [
    ['1.0', '1.0', 0], ['1.0', '2.0', -1], ['2.0', '1.0', 1], ['2.0.1', '2.0.1', 0], ['2.0', '2.0.1', -1], ['2.0.1', '2.0', 1],
    ['2.0.1a', '2.0.1a', 0], ['2.0.1a', '2.0.1', 1], ['2.0.1', '2.0.1a', -1], ['5.5p1', '5.5p1', 0], ['5.5p1', '5.5p2', -1], ['5.5p2', '5.5p1', 1],
    ['5.5p10', '5.5p10', 0], ['5.5p1', '5.5p10', -1], ['5.5p10', '5.5p1', 1], ['10xyz', '10.1xyz', -1], ['10.1xyz', '10xyz', 1], ['xyz10', 'xyz10', 0],
    ['xyz10', 'xyz10.1', -1], ['xyz10.1', 'xyz10', 1], ['xyz.4', 'xyz.4', 0], ['xyz.4', '8', -1], ['8', 'xyz.4', 1], ['xyz.4', '2', -1], ['2', 'xyz.4', 1],
    ['5.5p2', '5.6p1', -1], ['5.6p1', '5.5p2', 1], ['5.6p1', '6.5p1', -1], ['6.5p1', '5.6p1', 1], ['6.0.rc1', '6.0', 1], ['6.0', '6.0.rc1', -1],
    ['10b2', '10a1', 1], ['10a2', '10b2', -1], ['1.0aa', '1.0aa', 0], ['1.0a', '1.0aa', -1], ['1.0aa', '1.0a', 1], ['10.0001', '10.0001', 0],
    ['10.0001', '10.1', 0], ['10.1', '10.0001', 0], ['10.0001', '10.0039', -1], ['10.0039', '10.0001', 1], ['4.999.9', '5.0', -1], ['5.0', '4.999.9', 1],
    ['20101121', '20101121', 0], ['20101121', '20101122', -1], ['20101122', '20101121', 1], ['2_0', '2_0', 0], ['2.0', '2_0', 0], ['2_0', '2.0', 0],
    ['a', 'a', 0], ['a+', 'a+', 0], ['a+', 'a_', 0], ['a_', 'a+', 0], ['+a', '+a', 0], ['+a', '_a', 0], ['_a', '+a', 0], ['+_', '+_', 0], ['_+', '+_', 0],
    ['_+', '_+', 0], ['+', '_', 0], ['_', '+', 0], ['1.0~rc1', '1.0~rc1', 0], ['1.0~rc1', '1.0', -1], ['1.0', '1.0~rc1', 1], ['1.0~rc1', '1.0~rc2', -1],
    ['1.0~rc2', '1.0~rc1', 1], ['1.0~rc1~git123', '1.0~rc1~git123', 0], ['1.0~rc1~git123', '1.0~rc1', -1], ['1.0~rc1', '1.0~rc1~git123', 1],
    ['1.0^', '1.0^', 0], ['1.0^', '1.0', 1], ['1.0', '1.0^', -1], ['1.0^git1', '1.0^git1', 0], ['1.0^git1', '1.0', 1], ['1.0', '1.0^git1', -1],
    ['1.0^git1', '1.0^git2', -1], ['1.0^git2', '1.0^git1', 1], ['1.0^git1', '1.01', -1], ['1.01', '1.0^git1', 1], ['1.0^20160101', '1.0^20160101', 0],
    ['1.0^20160101', '1.0.1', -1], ['1.0.1', '1.0^20160101', 1], ['1.0^20160101^git1', '1.0^20160101^git1', 0], ['1.0^20160102', '1.0^20160101^git1', 1],
    ['1.0^20160101^git1', '1.0^20160102', -1], ['1.0~rc1^git1', '1.0~rc1^git1', 0], ['1.0~rc1^git1', '1.0~rc1', 1], ['1.0~rc1', '1.0~rc1^git1', -1],
    ['1.0^git1~pre', '1.0^git1~pre', 0], ['1.0^git1', '1.0^git1~pre', 1], ['1.0^git1~pre', '1.0^git1', -1],
  ];
  it('rpmvercmp.at cases: 0 disagreements', () => {
    expect(cases.filter(([a, b, w]) => rpmvercmp(a, b) !== w)).toEqual([]);
  });
  it('EVR: epoch first, release only when both have one', () => {
    expect(compareRpm('1:1.0-1.el8', '2.0-1.el8')).toBe(1);
    expect(compareRpm('0:1.0-1.el8', '1.0-1.el8')).toBe(0);
    expect(compareRpm('1.0', '1.0-5.el9')).toBe(0);
    expect(compareRpm('1.0-2.el9', '1.0-10.el9')).toBe(-1);
    expect(compareRpm('', '1')).toBeNull();
  });
});

describe('apk', () => {
  // apk-tools' own test/unit/version.data is GPL-2.0 and is not shipped here: point APK_VERSION_DATA at a copy of it
  // to run every line of it (0 disagreements at apk-tools commit 90b974fd). The vectors below are ours, from apk's rules.
  it('our ordering vectors from apk rules', () => {
    const ascending = [
      '0.9.9',
      '1.0_alpha',
      '1.0_alpha1',
      '1.0_alpha2',
      '1.0_beta',
      '1.0_pre1',
      '1.0_rc1',
      '1.0_rc2',
      '1.0',
      '1.0-r1',
      '1.0-r2',
      '1.0-r10',
      '1.0_p1',
      '1.0_p2',
      '1.0.1',
      '1.0.2_rc1',
      '1.0.2',
      '1.1',
      '1.2.3',
      '1.10',
      '2.0_rc1',
      '2.0',
    ];
    for (let i = 0; i < ascending.length; i++)
      for (let j = 0; j < ascending.length; j++) expect([ascending[i], ascending[j], apkVersionCompare(ascending[i] as string, ascending[j] as string, false)]).toEqual([ascending[i], ascending[j], Math.sign(i - j)]);
    expect(apkVersionCompare('1.0a', '1.0b', false)).toBe(-1);
    expect(apkVersionCompare('1.0', '1.0a', false)).toBe(-1);
    for (const v of ['1.0', '1.0-r3', '2.4.6_rc1', '1.0_p2-r1', '3.0a']) expect(isApkVersion(v)).toBe(true);
    for (const v of ['', 'abc', '1..0', '1.0-r', '1.0_foo']) expect(isApkVersion(v)).toBe(false);
  });

  it.skipIf(process.env['APK_VERSION_DATA'] === undefined)('apk-tools version.data (APK_VERSION_DATA): 0 disagreements', () => {
    const lines = readFileSync(process.env['APK_VERSION_DATA'] as string, 'utf8').split('\n');
    const bad: string[] = [];
    let checked = 0;
    for (const raw of lines) {
      const line = (raw.split('#')[0] ?? '').trim();
      if (line === '') continue;
      const parts = line.split(' ');
      let ok: boolean;
      if (parts.length >= 3) {
        const [a, opRaw, b] = parts as [string, string, string];
        const invert = opRaw.startsWith('!');
        const op = invert ? opRaw.slice(1) : opRaw;
        const fuzzy = op.includes('~');
        const r = apkVersionCompare(a, b, fuzzy);
        const mask = new Set(op.replace('~', '='));
        ok = (r < 0 && mask.has('<')) || (r > 0 && mask.has('>')) || (r === 0 && mask.has('='));
        if (invert) ok = !ok;
      } else {
        const v = parts[0] as string;
        ok = v.startsWith('!') ? !isApkVersion(v.slice(1)) : isApkVersion(v);
      }
      checked++;
      if (!ok) bad.push(line);
    }
    expect(checked).toBeGreaterThan(700);
    expect(bad).toEqual([]);
  });
  it('compareApk refuses invalid versions; revisions and suffixes', () => {
    expect(compareApk('23_foo', '4_beta')).toBeNull();
    expect(compareApk('1.0_rc1', '1.0')).toBe(-1);
    expect(compareApk('1.2.3-r0', '1.2.3')).toBe(1);
    expect(compareApk('3.0.8-r0', '3.0.10-r0')).toBe(-1);
    expect(compareApk('1.36.1-r2', '1.36.1-r15')).toBe(-1);
  });
});

describe('generic and dispatch', () => {
  it('orders Maven-like versions reasonably', () => {
    expect(compareGeneric('2.0.17', '2.0.9')).toBe(1);
    expect(compareGeneric('1.0.0.RELEASE', '1.0.0')).toBe(0);
    expect(compareGeneric('1.0-beta', '1.0')).toBe(-1);
    expect(compareGeneric('1.0.1', '1.0')).toBe(1);
  });
  it('picks the ecosystem comparator', () => {
    expect(comparatorFor('Debian:12')('1.0~rc1', '1.0')).toBe(-1);
    expect(comparatorFor('Alpine:v3.19')('1.0_rc1', '1.0')).toBe(-1);
    expect(comparatorFor('Red Hat')('1.0^git1', '1.0')).toBe(1);
    expect(comparatorFor('PyPI')('1.0rc1', '1.0')).toBe(-1);
    expect(comparatorFor('Go', 'SEMVER')('0.0.0-2022-abc', '0.1.0')).toBe(-1);
    expect(comparatorFor('npm', 'SEMVER')('1.0.0-rc.1', '1.0.0')).toBe(-1);
  });
});

describe('maven', () => {
  // Maven's ComparableVersionTest lists, each strictly increasing.
  const qualifiers = ['1-alpha2snapshot', '1-alpha2', '1-alpha-123', '1-beta-2', '1-beta123', '1-m2', '1-m11', '1-rc', '1-cr2', '1-rc123', '1-SNAPSHOT', '1', '1-sp', '1-sp2', '1-sp123', '1-abc', '1-def', '1-pom-1', '1-1-snapshot', '1-1', '1-2', '1-123'];
  const numbers = ['2.0', '2.0.a', '2-1', '2.0.2', '2.0.123', '2.1.0', '2.1-a', '2.1b', '2.1-c', '2.1-1', '2.1.0.1', '2.2', '2.123', '11.a2', '11.a11', '11.b2', '11.b11', '11.m2', '11.m11', '11', '11.a', '11b', '11c', '11m'];
  it('ComparableVersionTest orderings: 0 disagreements', () => {
    expect(disagreementsInOrder(compareMaven, qualifiers)).toEqual([]);
    expect(disagreementsInOrder(compareMaven, numbers)).toEqual([]);
  });
  it('equal spellings', () => {
    const eq = ['1', '1.0', '1.0.0', '1-0', '1.0-0', '1ga', '1.ga', '1-ga', '1-final', '1.0.0.RELEASE', '1-release'];
    for (const x of eq) for (const y of eq) expect(compareMaven(x, y), `${x} = ${y}`).toBe(0);
    expect(compareMaven('1cr', '1rc')).toBe(0);
    expect(compareMaven('1a1', '1-alpha-1')).toBe(0);
    expect(compareMaven('2.0.17', '2.0.9')).toBe(1);
    expect(comparatorFor('Maven')('1.0.0.RELEASE', '2.0.17')).toBe(-1);
  });
});

describe('ecosystem names that are Object.prototype member names', () => {
  it('are unknown ecosystems, compared by the generic scheme; Maven qualifiers of those names are unknown qualifiers', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'valueOf']) {
      expect(schemeOf(name), name).toBe('generic');
      expect(comparatorFor(name, 'ECOSYSTEM')('1.0', '2.0'), name).toBe(-1);
    }
    expect(compareMaven('1.0-constructor', '1.0-zzz')).toBe(-1);
    expect(compareMaven('1.0-valueOf', '1.0-toString')).toBe(1);
  });
});
