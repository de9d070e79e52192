// Exceptions: ecosystem version ranges, the status moves, no self-approval, expiry ends an exception.
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { AuditLog } from '../audit/audit.js';
import type { AsyncDb } from '../db/types.js';
import { applicableExceptions, decideException, effectiveStatus, getException, listExceptions, requestException } from './exceptions.js';
import { isValidRange, normalizePackageName, rangeMatches } from './ranges.js';

const fixture = backendFixture();

describe('version ranges', () => {
  it('npm ranges with semver', () => {
    expect(isValidRange('npm', '^1.2.0')).toBe(true);
    expect(isValidRange('npm', 'not a range ~~')).toBe(false);
    expect(rangeMatches('npm', '^1.2.0', '1.9.3')).toBe(true);
    expect(rangeMatches('npm', '^1.2.0', '2.0.0')).toBe(false);
    expect(rangeMatches('npm', '^1.2.0', 'garbage')).toBe(false);
  });

  it('PyPI specifiers with PEP 440', () => {
    expect(isValidRange('pypi', '>=2.0,<3')).toBe(true);
    expect(isValidRange('pypi', '=>2.0')).toBe(false);
    expect(rangeMatches('pypi', '>=2.0,<3', '2.31.0')).toBe(true);
    expect(rangeMatches('pypi', '>=2.0,<3', '3.0')).toBe(false);
    expect(rangeMatches('pypi', '~=1.4', '1.9.post1')).toBe(true);
    expect(rangeMatches('pypi', '>=2.0,<3', '3.0.0rc1')).toBe(false);
  });

  it('other ecosystems: exact versions joined by ||', () => {
    expect(isValidRange('maven', '1.0.0 || 1.0.1')).toBe(true);
    expect(rangeMatches('maven', '1.0.0 || ==1.0.1', '1.0.1')).toBe(true);
    expect(rangeMatches('maven', '1.0.0', '1.0.2')).toBe(false);
  });

  it('PEP 503 names', () => {
    expect(normalizePackageName('pypi', 'Typing_Extensions')).toBe('typing-extensions');
    expect(normalizePackageName('npm', '@Scope/pkg')).toBe('@Scope/pkg');
  });
});

for (const backend of backendCases)
  describe.skipIf(backend.skip)(`exception workflow on ${backend.title}`, () => {
    const future = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();
    async function setup(): Promise<{ db: AsyncDb; audit: AuditLog; another: () => AsyncDb }> {
      const b = await fixture.open(backend.name);
      return { db: b.store, audit: new AuditLog(b.sqlite, b.store.dialect === 'postgres' ? b.store : undefined), another: () => b.another() };
    }
    const base = { ecosystem: 'pypi', package: 'Requests', version_range: '>=2.0,<3', scope: 'vulnerability:CVE-2024-1', justification: 'patched in our fork' };

    it('pending -> approved by another user; applies only in range and until expiry', async () => {
      const { db, audit } = await setup();
      const e = await requestException(db, audit, { ...base, expires_at: future(10) }, 'alice', 'req-00000001');
      expect(e).toMatchObject({ status: 'pending', package: 'requests', requested_by: 'alice' });
      await expect(decideException(db, audit, e.id, 'approve', 'alice', null)).rejects.toMatchObject({ code: 'forbidden' });
      expect((await getException(db, e.id))?.status).toBe('pending');
      expect(await applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '2.31.0' })).toEqual([]);
      const ok = await decideException(db, audit, e.id, 'approve', 'bob', 'req-00000002');
      expect(ok).toMatchObject({ status: 'approved', decided_by: 'bob' });
      expect(await applicableExceptions(db, { ecosystem: 'pypi', name: 'REQUESTS', version: '2.31.0' })).toEqual([{ id: e.id, scope: base.scope }]);
      expect(await applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '3.1.0' })).toEqual([]);
      const later = new Date(Date.now() + 11 * 86_400_000);
      expect(await applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '2.31.0' }, later)).toEqual([]);
      expect((await getException(db, e.id, later))?.status).toBe('expired');
      expect((await listExceptions(db, { status: 'expired' }, 10, 0, later)).total).toBe(1);
      expect((await audit.page({ actionPrefix: 'exception.' }, 10, 0)).items.map((x) => x.action)).toEqual(['exception.approve', 'exception.request']);
    });

    it('two approvers (and a rejecter) at once: exactly one decision applies, the others are 409, one audit entry', async () => {
      const { db, audit, another } = await setup();
      const e = await requestException(db, audit, { ...base, expires_at: future(10) }, 'alice', null);
      // On PostgreSQL the second approver comes through another pool (another server).
      const other = another();
      const moves = await Promise.allSettled([decideException(db, audit, e.id, 'approve', 'bob', null), decideException(other, audit, e.id, 'approve', 'carol', null), decideException(db, audit, e.id, 'reject', 'dave', null)]);
      expect(moves.filter((m) => m.status === 'fulfilled')).toHaveLength(1);
      expect(moves.filter((m) => m.status === 'rejected').map((m) => (m as PromiseRejectedResult).reason as { code?: string }).map((r) => r.code)).toEqual(['conflict', 'conflict']);
      const decisions = (await audit.page({ actionPrefix: 'exception.' }, 10, 0)).items.filter((x) => x.action !== 'exception.request');
      expect(decisions).toHaveLength(1);
      expect((await getException(db, e.id))?.decided_by).toBe(decisions[0]?.actor);
    });

    it('reject and revoke; moves from final states are 409; expired cannot be approved', async () => {
      const { db, audit } = await setup();
      const a = await requestException(db, audit, { ...base, expires_at: future(5) }, 'alice', null);
      await decideException(db, audit, a.id, 'reject', 'bob', null);
      await expect(decideException(db, audit, a.id, 'approve', 'bob', null)).rejects.toMatchObject({ code: 'conflict' });
      const b = await requestException(db, audit, { ...base, expires_at: future(5) }, 'alice', null);
      await decideException(db, audit, b.id, 'approve', 'bob', null);
      expect((await decideException(db, audit, b.id, 'revoke', 'carol', null)).status).toBe('revoked');
      expect(await applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '2.1' })).toEqual([]);
      await expect(decideException(db, audit, b.id, 'revoke', 'carol', null)).rejects.toMatchObject({ code: 'conflict' });
      const c = await requestException(db, audit, { ...base, expires_at: future(1) }, 'alice', null);
      await expect(decideException(db, audit, c.id, 'approve', 'bob', null, new Date(Date.now() + 2 * 86_400_000))).rejects.toMatchObject({ code: 'conflict' });
    });

    it('environment-bound exceptions apply only there', async () => {
      const { db, audit } = await setup();
      const e = await requestException(db, audit, { ecosystem: 'npm', package: 'left-pad', scope: 'package', environment: 'dev', justification: 'dev only tooling', expires_at: future(3) }, 'alice', null);
      await decideException(db, audit, e.id, 'approve', 'bob', null);
      expect(await applicableExceptions(db, { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', environment: 'dev' })).toHaveLength(1);
      expect(await applicableExceptions(db, { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', environment: 'prod' })).toHaveLength(0);
    });
  });

describe('effective status', () => {
  it('pending and approved expire; final states stay', () => {
    const past = new Date(Date.now() - 1000).toISOString();
    expect(effectiveStatus('approved', past, new Date())).toBe('expired');
    expect(effectiveStatus('rejected', past, new Date())).toBe('rejected');
  });
});
