import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { affects, ecosystemMatches, fixedVersionsOf, matchRecord, normaliseName } from './match.js';
import { isMalicious, parseOsvRecord, type OsvRecord } from './osv.js';
import { cvssBaseScore, severityOfRecord } from './severity.js';

const osv = (...p: string[]): OsvRecord => parseOsvRecord(JSON.parse(readFileSync(corpusPath('supplychain', 'osv', ...p), 'utf8')) as unknown);
const rec = (affected: unknown[], extra: Record<string, unknown> = {}): OsvRecord => parseOsvRecord({ id: 'TEST-1', modified: '2024-01-01T00:00:00Z', affected, ...extra });

describe.skipIf(!hasCorpora())('matching the real OSV records', () => {
  it('GO-2022-0969: stdlib and golang.org/x/net, two introduced/fixed pairs, pseudo-versions', () => {
    const r = osv('go-vulndb', 'GO-2022-0969.json');
    expect(affects(r, 'Go', 'stdlib', '1.18.5')).toBe(true);
    expect(affects(r, 'Go', 'stdlib', '1.18.6')).toBe(false);
    expect(affects(r, 'Go', 'stdlib', '1.19.0')).toBe(true);
    expect(affects(r, 'Go', 'stdlib', '1.19.0-rc.1')).toBe(true);
    expect(affects(r, 'Go', 'stdlib', '1.19.1')).toBe(false);
    expect(affects(r, 'Go', 'golang.org/x/net', 'v0.0.0-20220826154423-83b083e8dc8b')).toBe(true);
    expect(affects(r, 'Go', 'golang.org/x/net', 'v0.0.0-20220906165146-f3363e06e74c')).toBe(false);
    expect(affects(r, 'Go', 'golang.org/x/net', '0.1.0')).toBe(false);
    expect(affects(r, 'npm', 'stdlib', '1.18.5')).toBe(false);
  });
  it('GO-2024-2826: three ranges in one', () => {
    const r = osv('go-vulndb', 'GO-2024-2826.json');
    const v = (x: string): boolean => affects(r, 'Go', 'vitess.io/vitess', x);
    expect([v('0.17.6'), v('0.17.7'), v('0.18.0'), v('0.18.4'), v('0.18.5'), v('0.19.3'), v('0.19.4'), v('0.20.0')]).toEqual([true, false, true, true, false, true, false, false]);
    expect(r.aliases).toContain('CVE-2024-32886');
  });
  it('GO-2023-2385: introduced 0 with no fix affects every version', () => {
    const r = osv('go-vulndb', 'GO-2023-2385.json');
    expect(affects(r, 'Go', 'github.com/pubnub/go', '4.0.0')).toBe(true);
  });
  it('GHSA-77rv-6vfw-x4gc (Maven, ECOSYSTEM range and a versions list), severity from its CVSS v3.1 vector', () => {
    const r = osv('ghsa', 'osv-GHSA-77rv-6vfw-x4gc.json');
    const name = 'org.springframework.security.oauth:spring-security-oauth';
    expect(affects(r, 'Maven', name, '2.0.16')).toBe(true);
    expect(affects(r, 'Maven', name, '1.0.0.RELEASE')).toBe(true);
    expect(affects(r, 'Maven', name, '2.0.17')).toBe(false);
    expect(fixedVersionsOf(r.affected?.[0] ?? {})).toEqual(['2.0.17']);
    expect(severityOfRecord(r)).toMatchObject({ severity: 'critical', score: 9, source: 'cvss_v3' });
  });
  it('MAL- records: malicious, explicit versions only', () => {
    const a = osv('malicious-packages', 'MAL-2024-9934.json');
    expect(isMalicious(a)).toBe(true);
    expect(affects(a, 'PyPI', '3web-py', '1.0.0')).toBe(true);
    expect(affects(a, 'PyPI', '3Web_Py', '1.0')).toBe(true);
    expect(affects(a, 'PyPI', '3web-py', '1.0.1')).toBe(false);
    const b = osv('ghsa', 'osv-vulnerability-exact-version.json');
    expect(isMalicious(b)).toBe(true);
    // introduced 0 with no closing event: every version.
    expect(affects(b, 'npm', 'yandex-yt-yson-bindings', '1.0.0')).toBe(true);
  });
});

describe('OSV semantics', () => {
  it('unsorted events, last_affected, limit', () => {
    const r = rec([{ package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'SEMVER', events: [{ fixed: '2.0.0' }, { introduced: '1.5.0' }, { last_affected: '1.2.0' }, { introduced: '1.0.0' }] }] }]);
    const v = (x: string): boolean => affects(r, 'npm', 'x', x);
    expect([v('0.9.0'), v('1.0.0'), v('1.2.0'), v('1.3.0'), v('1.5.0'), v('1.9.9'), v('2.0.0'), v('2.0.0-rc.1')]).toEqual([false, true, true, false, true, true, false, true]);
    const lim = rec([{ package: { ecosystem: 'PyPI', name: 'y' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { limit: '3.0' }] }] }]);
    expect(affects(lim, 'PyPI', 'y', '2.9')).toBe(true);
    expect(affects(lim, 'PyPI', 'y', '3.0')).toBe(false);
  });
  it('GIT ranges are ignored for versions; withdrawn records never match', () => {
    const g = rec([{ package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'GIT', repo: 'https://example.invalid/r', events: [{ introduced: '0' }] }] }]);
    expect(affects(g, 'npm', 'x', '1.0.0')).toBe(false);
    const w = rec([{ package: { ecosystem: 'npm', name: 'x' }, versions: ['1.0.0'] }], { withdrawn: '2024-02-01T00:00:00Z' });
    expect(affects(w, 'npm', 'x', '1.0.0')).toBe(false);
  });
  it('distribution ecosystems: Debian:12 epochs and tilde, Alpine suffixes, Red Hat EVR', () => {
    const d = rec([{ package: { ecosystem: 'Debian:12', name: 'openssl' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0.11-1~deb12u2' }] }] }]);
    expect(affects(d, 'Debian:12', 'openssl', '3.0.11-1~deb12u1')).toBe(true);
    expect(affects(d, 'Debian:12', 'openssl', '3.0.11-1')).toBe(false);
    expect(affects(d, 'Debian', 'openssl', '3.0.9-1')).toBe(true);
    expect(affects(d, 'Debian:11', 'openssl', '3.0.9-1')).toBe(false);
    const a = rec([{ package: { ecosystem: 'Alpine:v3.19', name: 'busybox' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.36.1-r16' }] }] }]);
    expect(affects(a, 'Alpine:v3.19', 'busybox', '1.36.1-r15')).toBe(true);
    expect(affects(a, 'Alpine:v3.19', 'busybox', '1.36.1-r16')).toBe(false);
    const h = rec([{ package: { ecosystem: 'Red Hat', name: 'glibc' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0:2.28-225.el8' }] }] }]);
    expect(affects(h, 'Red Hat', 'glibc', '2.28-211.el8')).toBe(true);
    expect(affects(h, 'Red Hat', 'glibc', '2.28-225.el8')).toBe(false);
  });
  it('an unreadable version is unknown, never "not affected"', () => {
    const r = rec([{ package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }] }] }]);
    expect(matchRecord(r, 'npm', 'x', 'not a version')).toBe('unknown');
  });
  it('names and ecosystems', () => {
    expect(normaliseName('PyPI', 'Foo.Bar_baz')).toBe('foo-bar-baz');
    expect(normaliseName('Go', 'github.com/Foo/bar')).toBe('github.com/Foo/bar');
    expect(ecosystemMatches('Alpine:v3.19', 'alpine')).toBe(true);
    expect(ecosystemMatches('Alpine:v3.19', 'Alpine:v3.18')).toBe(false);
  });
  it('severity: v4 before v3, the word when no vector, a bad vector is no score', () => {
    expect(cvssBaseScore('CVSS:3.1/AV:N/garbage')).toBeNull();
    expect(cvssBaseScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N')).toBe(9.3);
    const both = rec([], { severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }, { type: 'CVSS_V4', score: 'CVSS:4.0/AV:L/AC:H/AT:P/PR:H/UI:A/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N' }] });
    expect(severityOfRecord(both).source).toBe('cvss_v4');
    const word = rec([], { database_specific: { severity: 'MODERATE' } });
    expect(severityOfRecord(word)).toMatchObject({ severity: 'medium', source: 'database_specific' });
  });
  it('refuses a record without id or modified with a validation error', () => {
    expect(() => parseOsvRecord({ affected: [] })).toThrow(/OSV record/);
    expect(() => parseOsvRecord([])).toThrow();
  });
});
