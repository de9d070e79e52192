// Identity: password hashing, equal work for missing accounts, token rotation and theft detection, deactivation.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { AuditLog } from '../audit/audit.js';
import { configFromEnv } from '../config.js';
import { pkgscanService } from '../service.js';
import { TEST_SCRYPT } from '../server.fixture.js';
import { Auth } from './auth.js';
import { hashPassword, kdf, verifyPassword } from './passwords.js';
import { verifyAccessToken, signingKey } from './tokens.js';

function setup() {
  const db = openMemoryStore([pkgscanService]);
  const audit = new AuditLog(db);
  const auth = new Auth(db, audit, configFromEnv({}, { scrypt: TEST_SCRYPT }));
  return { db, audit, auth };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('passwords', () => {
  it('hashes with scrypt and a random salt, and verifies', async () => {
    const a = await hashPassword('a long password here', TEST_SCRYPT);
    const b = await hashPassword('a long password here', TEST_SCRYPT);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('a long password here', a, TEST_SCRYPT)).toBe(true);
    expect(await verifyPassword('a long password herE', a, TEST_SCRYPT)).toBe(false);
    expect(await verifyPassword('anything', 'not a hash', TEST_SCRYPT)).toBe(false);
  });

  it('the default cost is N = 2^15, r = 8, p = 3 (memory-hard)', () => {
    expect(configFromEnv({}).scrypt).toEqual({ N: 32768, r: 8, p: 3 });
    expect(configFromEnv({ PKGSCAN_SCRYPT: '16384:8:1' }).scrypt).toEqual({ N: 16384, r: 8, p: 1 });
    for (const bad of ['1024:8:1', '30000:8:1', '16384:8', 'lots']) expect(configFromEnv({ PKGSCAN_SCRYPT: bad }).scrypt).toEqual({ N: 32768, r: 8, p: 3 });
  });
});

describe('login timing is equalised', () => {
  it('a missing account, a wrong password and a deactivated account each cost exactly one key derivation', async () => {
    const { auth } = setup();
    await auth.createUser({ email: 'known@example.org', password: 'the right password', role: 'developer' }, 'system', null);
    const spy = vi.spyOn(kdf, 'derive');
    for (const [email, password] of [
      ['missing@example.org', 'the right password'],
      ['known@example.org', 'the wrong password'],
    ] as const) {
      spy.mockClear();
      await expect(auth.login(email, password, 'req-00000001')).rejects.toMatchObject({ code: 'unauthorized', message: 'invalid e-mail address or password' });
      expect(spy).toHaveBeenCalledTimes(1);
      // Same cost parameters either way: the decoy hash uses the configured cost.
      expect(spy.mock.calls[0]?.[2]).toEqual(TEST_SCRYPT);
    }
    spy.mockClear();
    await auth.login('known@example.org', 'the right password', 'req-00000002');
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('response times of the two failures overlap (interleaved pairs; a sign test, no threshold on durations)', async () => {
    const { auth } = setup();
    await auth.createUser({ email: 'known@example.org', password: 'the right password', role: 'developer' }, 'system', null);
    const time = async (email: string): Promise<number> => {
      const t0 = process.hrtime.bigint();
      await auth.login(email, 'the wrong password', 'req-00000003').catch(() => undefined);
      return Number(process.hrtime.bigint() - t0);
    };
    let missingSlower = 0;
    const pairs = 40;
    for (let i = 0; i < pairs; i++) {
      // Alternate which goes first so drift in machine load hits both sides alike.
      const [m, w] = i % 2 === 0 ? [await time('missing@example.org'), await time('known@example.org')] : (([w2, m2]) => [m2, w2])([await time('known@example.org'), await time('missing@example.org')]);
      if ((m as number) > (w as number)) missingSlower++;
    }
    // With equal work each pair is a coin toss: P(outside 4..36 of 40) < 1e-7. A skipped KDF would give ~0.
    expect(missingSlower).toBeGreaterThanOrEqual(4);
    expect(missingSlower).toBeLessThanOrEqual(36);
  });
});

describe('tokens', () => {
  it('access tokens verify only with this store key, and not once tampered', async () => {
    const { db, auth } = setup();
    await auth.createUser({ email: 'u@example.org', password: 'the right password', role: 'auditor' }, 'system', null);
    const s = await auth.login('u@example.org', 'the right password', 'req-00000004');
    const key = signingKey(db);
    expect((await verifyAccessToken(key, s.access_token)).userId).toBe(s.user.id);
    const [h, p, sig] = s.access_token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'someone-else' })).toString('base64url');
    await expect(verifyAccessToken(key, `${h}.${forgedPayload}.${sig}`)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verifyAccessToken(new Uint8Array(32), s.access_token)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(verifyAccessToken(key, `${h}.${p}`)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('rotation: each refresh token works once; reuse revokes every token of the user and is audited', async () => {
    const { auth, audit } = setup();
    await auth.createUser({ email: 'u@example.org', password: 'the right password', role: 'auditor' }, 'system', null);
    const s1 = await auth.login('u@example.org', 'the right password', 'req-00000005');
    const other = await auth.login('u@example.org', 'the right password', 'req-00000006');
    const s2 = await auth.refresh(s1.refreshToken, 'req-00000007');
    expect(s2.refreshToken).not.toBe(s1.refreshToken);
    await expect(auth.refresh(s1.refreshToken, 'req-00000008')).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(auth.refresh(s2.refreshToken, 'req-00000009')).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(auth.refresh(other.refreshToken, 'req-00000010')).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await audit.page({ action: 'auth.refresh_reuse_detected' }, 10, 0)).total).toBe(1);
  });

  it('expired refresh tokens are refused', async () => {
    const { auth } = setup();
    const u = await auth.createUser({ email: 'u@example.org', password: 'the right password', role: 'auditor' }, 'system', null);
    const token = await auth.tokens.issue(u.id, undefined, new Date(Date.now() - 8 * 24 * 3600 * 1000));
    expect(await auth.tokens.rotate(token)).toMatchObject({ ok: false, reason: 'expired' });
    expect(await auth.tokens.rotate('not a token')).toMatchObject({ ok: false, reason: 'unknown' });
  });
});
