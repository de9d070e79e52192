// Exceptions: ecosystem version ranges, the status moves, no self-approval, expiry ends an exception.
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { AuditLog } from '../audit/audit.js';
import { pkgscanService } from '../service.js';
import { applicableExceptions, decideException, effectiveStatus, getException, listExceptions, requestException } from './exceptions.js';
import { isValidRange, normalizePackageName, rangeMatches } from './ranges.js';

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

describe('exception workflow', () => {
  const future = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();
  function setup() {
    const db = openMemoryStore([pkgscanService]);
    return { db, audit: new AuditLog(db) };
  }
  const base = { ecosystem: 'pypi', package: 'Requests', version_range: '>=2.0,<3', scope: 'vulnerability:CVE-2024-1', justification: 'patched in our fork' };

  it('pending -> approved by another user; applies only in range and until expiry', () => {
    const { db, audit } = setup();
    const e = requestException(db, audit, { ...base, expires_at: future(10) }, 'alice', 'req-00000001');
    expect(e).toMatchObject({ status: 'pending', package: 'requests', requested_by: 'alice' });
    expect(() => decideException(db, audit, e.id, 'approve', 'alice', null)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(getException(db, e.id)?.status).toBe('pending');
    expect(applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '2.31.0' })).toEqual([]);
    const ok = decideException(db, audit, e.id, 'approve', 'bob', 'req-00000002');
    expect(ok).toMatchObject({ status: 'approved', decided_by: 'bob' });
    expect(applicableExceptions(db, { ecosystem: 'pypi', name: 'REQUESTS', version: '2.31.0' })).toEqual([{ id: e.id, scope: base.scope }]);
    expect(applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '3.1.0' })).toEqual([]);
    const later = new Date(Date.now() + 11 * 86_400_000);
    expect(applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '2.31.0' }, later)).toEqual([]);
    expect(getException(db, e.id, later)?.status).toBe('expired');
    expect(listExceptions(db, { status: 'expired' }, 10, 0, later).total).toBe(1);
    expect(audit.list({ actionPrefix: 'exception.' }, 10, 0).items.map((x) => x.action)).toEqual(['exception.approve', 'exception.request']);
  });

  it('reject and revoke; moves from final states are 409; expired cannot be approved', () => {
    const { db, audit } = setup();
    const a = requestException(db, audit, { ...base, expires_at: future(5) }, 'alice', null);
    decideException(db, audit, a.id, 'reject', 'bob', null);
    expect(() => decideException(db, audit, a.id, 'approve', 'bob', null)).toThrow(expect.objectContaining({ code: 'conflict' }));
    const b = requestException(db, audit, { ...base, expires_at: future(5) }, 'alice', null);
    decideException(db, audit, b.id, 'approve', 'bob', null);
    expect(decideException(db, audit, b.id, 'revoke', 'carol', null).status).toBe('revoked');
    expect(applicableExceptions(db, { ecosystem: 'pypi', name: 'requests', version: '2.1' })).toEqual([]);
    expect(() => decideException(db, audit, b.id, 'revoke', 'carol', null)).toThrow(expect.objectContaining({ code: 'conflict' }));
    const c = requestException(db, audit, { ...base, expires_at: future(1) }, 'alice', null);
    expect(() => decideException(db, audit, c.id, 'approve', 'bob', null, new Date(Date.now() + 2 * 86_400_000))).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it('effective status', () => {
    const past = new Date(Date.now() - 1000).toISOString();
    expect(effectiveStatus('approved', past, new Date())).toBe('expired');
    expect(effectiveStatus('rejected', past, new Date())).toBe('rejected');
  });

  it('environment-bound exceptions apply only there', () => {
    const { db, audit } = setup();
    const e = requestException(db, audit, { ecosystem: 'npm', package: 'left-pad', scope: 'package', environment: 'dev', justification: 'dev only tooling', expires_at: future(3) }, 'alice', null);
    decideException(db, audit, e.id, 'approve', 'bob', null);
    expect(applicableExceptions(db, { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', environment: 'dev' })).toHaveLength(1);
    expect(applicableExceptions(db, { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', environment: 'prod' })).toHaveLength(0);
  });
});
