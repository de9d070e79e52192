// Exceptions case by case, each answer from the rule it implements: npm ranges per node-semver, PyPI specifiers per
// PEP 440, other ecosystems exact versions joined by `||` (an optional `=`/`==`); names per PEP 503 for PyPI, as
// published for npm, lower case elsewhere; an exception ends at its expiry instant (expires_at <= now is expired).
import { describe, expect, it } from 'vitest';
import { backendFixture } from '../../../test/postgres/backends.js';
import { AuditLog } from '../audit/audit.js';
import { applicableExceptions, decideException, effectiveStatus, listExceptions, requestException } from './exceptions.js';
import { isValidRange, normalizePackageName, rangeMatches } from './ranges.js';

describe('ranges and names', () => {
  it('names: PEP 503 for PyPI (runs of - _ . become one -), npm as written, others lower case', () => {
    expect(normalizePackageName('pypi', 'Zope.Interface__x--Y')).toBe('zope-interface-x-y');
    expect(normalizePackageName('npm', 'JSONStream')).toBe('JSONStream');
    expect(normalizePackageName('maven', 'Org.Apache:Commons_Text')).toBe('org.apache:commons_text');
  });

  it('validity: npm and PyPI by their grammars; elsewhere exact versions of safe characters; at most 200 characters', () => {
    expect(isValidRange('npm', '>=1.2.3 <2 || 3.x')).toBe(true);
    expect(isValidRange('npm', `1.0.0 || ${'1.0.1 || '.repeat(30)}1.0.2`)).toBe(false);
    expect(isValidRange('pypi', '~=1.4,!=1.5.*')).toBe(true);
    expect(isValidRange('pypi', 'banana')).toBe(false);
    expect(isValidRange('maven', '==1.0.0 || =2.0.0-RC1 || 3:1.2~b+x')).toBe(true);
    expect(isValidRange('maven', '1.0.0 || ')).toBe(true);
    expect(isValidRange('maven', ' || ')).toBe(false);
    expect(isValidRange('maven', '1.0 0')).toBe(false);
    expect(isValidRange('maven', '1.0;rm')).toBe(false);
    expect(isValidRange('maven', 'x'.repeat(64))).toBe(true);
    expect(isValidRange('maven', 'x'.repeat(65))).toBe(false);
    expect(isValidRange('cargo', '1'.repeat(200))).toBe(false);
  });

  it('matching: inside the range only; a malformed version matches nothing; exact versions compare as written', () => {
    expect(rangeMatches('npm', '>=1.2.3 <2', '1.2.3')).toBe(true);
    expect(rangeMatches('npm', '>=1.2.3 <2', '2.0.0')).toBe(false);
    expect(rangeMatches('npm', '*', 'not-semver')).toBe(false);
    expect(rangeMatches('npm', 'garbage range', '1.0.0')).toBe(false);
    expect(rangeMatches('pypi', '==1.0', '1.0.0')).toBe(true);
    expect(rangeMatches('pypi', '<1.0', 'banana')).toBe(false);
    expect(rangeMatches('maven', '=1.0.0 || ==2.0.0', '2.0.0')).toBe(true);
    expect(rangeMatches('maven', '=1.0.0 || ==2.0.0', '1.0')).toBe(false);
    expect(rangeMatches('maven', '1.0.0', '=1.0.0')).toBe(false);
  });

  it('expiry: pending and approved are expired from the expiry instant on; rejected and revoked never change', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const t = (iso: string): Date => new Date(iso);
    expect(effectiveStatus('approved', at, t('2025-12-31T23:59:59.999Z'))).toBe('approved');
    expect(effectiveStatus('approved', at, t(at))).toBe('expired');
    expect(effectiveStatus('pending', at, t('2025-12-31T23:59:59.999Z'))).toBe('pending');
    expect(effectiveStatus('pending', at, t(at))).toBe('expired');
    expect(effectiveStatus('rejected', at, t('2027-01-01T00:00:00Z'))).toBe('rejected');
    expect(effectiveStatus('revoked', at, t('2027-01-01T00:00:00Z'))).toBe('revoked');
  });
});

describe('the stored exceptions (SQLite)', () => {
  const fixture = backendFixture();
  const now = new Date('2026-06-01T00:00:00.000Z');
  const days = (n: number): string => new Date(now.getTime() + n * 86_400_000).toISOString();

  it('lists by effective status, ecosystem and normalised name; applies approved ones by environment and range', async () => {
    const b = await fixture.open('sqlite');
    const db = b.store;
    const audit = new AuditLog(b.sqlite);
    const ask = (over: Record<string, unknown>, expires: number, when = now) =>
      requestException(db, audit, { ecosystem: 'pypi', package: 'Requests', scope: 'package', justification: 'reviewed', expires_at: days(expires), ...over }, 'alice', null, when);
    const soon = await ask({}, 1);
    const later = await ask({ version_range: '>=2,<3' }, 30);
    const devOnly = await ask({ environment: 'dev' }, 30);
    const rejected = await ask({ ecosystem: 'npm', package: 'left-pad' }, 30);
    for (const e of [soon, later, devOnly]) await decideException(db, audit, e.id, 'approve', 'bob', null, now);
    await decideException(db, audit, rejected.id, 'reject', 'bob', null, now);
    const ids = async (f: Parameters<typeof listExceptions>[1], when = now): Promise<string[]> => (await listExceptions(db, f, 50, 0, when)).items.map((e) => e.id).sort();
    const sorted = (...xs: { id: string }[]): string[] => xs.map((x) => x.id).sort();

    expect(await ids({})).toEqual(sorted(soon, later, devOnly, rejected));
    expect(await ids({ status: 'approved' })).toEqual(sorted(soon, later, devOnly));
    expect(await ids({ status: 'rejected' })).toEqual(sorted(rejected));
    expect(await ids({ status: 'pending' })).toEqual([]);
    expect(await ids({ status: 'expired' })).toEqual([]);
    const twoDaysOn = new Date(now.getTime() + 2 * 86_400_000);
    expect(await ids({ status: 'expired' }, twoDaysOn)).toEqual(sorted(soon));
    expect(await ids({ status: 'approved' }, twoDaysOn)).toEqual(sorted(later, devOnly));
    expect(await ids({ ecosystem: 'npm' })).toEqual(sorted(rejected));
    expect(await ids({ ecosystem: 'pypi', package: 'REQUESTS' })).toEqual(sorted(soon, later, devOnly));
    expect((await listExceptions(db, {}, 2, 1, now)).items).toHaveLength(2);
    expect((await listExceptions(db, {}, 2, 1, now)).total).toBe(4);

    const applied = async (version: string | undefined, environment: string | undefined, when = now): Promise<string[]> =>
      (await applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version, environment }, when)).map((e) => e.id).sort();
    expect(await applied('2.5', 'prod')).toEqual(sorted(soon, later));
    expect(await applied('3.0', 'prod')).toEqual(sorted(soon));
    expect(await applied(undefined, 'prod')).toEqual(sorted(soon));
    expect(await applied('2.5', 'dev')).toEqual(sorted(soon, later, devOnly));
    expect(await applied('2.5', undefined)).toEqual(sorted(soon, later));
    expect(await applied('2.5', 'prod', twoDaysOn)).toEqual(sorted(later));
  });
});
