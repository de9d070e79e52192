// The Packages session: one refresh in flight, a 401 refreshes once and retries, a dead refresh signs out.
import { describe, expect, it } from 'vitest';
import type { TokenResponse } from '../../../../engines/core/contracts/pkgscan';
import { ApiError, type ApiClient, type RequestOptions } from '../../api/client';
import { actorName, errorLines, login, logout, pkgscanApi, refreshOnce, resume } from './session';

const tokens = (n: number): TokenResponse => ({
  access_token: `access-${n}`,
  token_type: 'Bearer',
  expires_in: 900,
  user: { id: 'u', email: 'a@b.c', role: 'admin', active: true, created_at: '', updated_at: '' },
});

/** A client whose refresh answers `refresh()` and whose other calls accept only `valid` tokens. */
function fakeClient(refresh: () => Promise<TokenResponse>, valid: Set<string>): ApiClient & { calls: string[] } {
  const calls: string[] = [];
  const guarded = <T>(path: string, options?: RequestOptions): Promise<T> => {
    calls.push(`${path} ${options?.userToken ?? ''}`);
    if (options?.userToken !== undefined && !valid.has(options.userToken)) return Promise.reject(new ApiError(401, 'unauthorized', 'no'));
    return Promise.resolve({ ok: true } as T);
  };
  return {
    apiBase: '',
    calls,
    get: guarded,
    post: <T>(path: string, _body: unknown, options?: RequestOptions): Promise<T> => {
      if (path.endsWith('/auth/refresh')) {
        calls.push('refresh');
        return refresh() as Promise<T>;
      }
      return guarded(path, options);
    },
    put: (path, _b, o) => guarded(path, o),
    patch: (path, _b, o) => guarded(path, o),
    delete: guarded,
    open: () => Promise.reject(new Error('unused')),
    upload: () => Promise.reject(new Error('unused')),
  };
}

describe('packages session', () => {
  it('concurrent refreshes share one request (a rotated token is never presented twice)', async () => {
    let n = 0;
    const client = fakeClient(() => new Promise((r) => setTimeout(() => r(tokens(++n)), 5)), new Set());
    const [a, b] = await Promise.all([refreshOnce(client, '/svc/pkgscan'), refreshOnce(client, '/svc/pkgscan')]);
    expect(client.calls.filter((c) => c === 'refresh')).toHaveLength(1);
    expect(a).toBe(b);
    await refreshOnce(client, '/svc/pkgscan');
    expect(client.calls.filter((c) => c === 'refresh')).toHaveLength(2);
  });

  it('a 401 refreshes once and retries with the new token; a failed refresh signs out', async () => {
    let token: string | null = 'expired';
    let signedOut = false;
    const client = fakeClient(() => Promise.resolve(tokens(7)), new Set(['access-7']));
    const api = pkgscanApi(client, '/svc/pkgscan', () => token, (t) => (token = t.access_token), () => (signedOut = true));
    await expect(api.get('/events')).resolves.toEqual({ ok: true });
    expect(token).toBe('access-7');
    expect(client.calls).toEqual(['/svc/pkgscan/api/v1/events expired', 'refresh', '/svc/pkgscan/api/v1/events access-7']);
    const dead = fakeClient(() => Promise.reject(new ApiError(401, 'unauthorized', 'gone')), new Set());
    token = 'expired';
    const api2 = pkgscanApi(dead, '/svc/other', () => token, () => undefined, () => (signedOut = true));
    await expect(api2.get('/events')).rejects.toMatchObject({ status: 401 });
    expect(signedOut).toBe(true);
  });

  it('error lines for the editor gutter', () => {
    expect([...errorLines([{ line: 3 }, {}, { line: 3 }, { line: 9 }])]).toEqual([3, 9]);
  });
});

describe('actorName', () => {
  it('names a user by e-mail when known, else by the id start; system stays system', () => {
    const emails = new Map([['15a28fd2-1111-2222-3333-444455556666', 'admin@example.org']]);
    expect(actorName('15a28fd2-1111-2222-3333-444455556666', emails)).toBe('admin@example.org');
    expect(actorName('ede2f0e3-1111-2222-3333-444455556666', emails)).toBe('ede2f0e3');
    expect(actorName('system', emails)).toBe('system');
  });
});

describe('resume', () => {
  /** A localStorage of this test's own (the tests run without a DOM). */
  function withStorage(run: () => Promise<void>): Promise<void> {
    const items = new Map<string, string>();
    const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
    return run().finally(() => {
      if (saved) Object.defineProperty(globalThis, 'localStorage', saved);
      else delete (globalThis as { localStorage?: unknown }).localStorage;
    });
  }

  it('asks for no session before this browser ever signed in, then resumes after a sign-in, and not after a sign-out', () =>
    withStorage(async () => {
      const client = fakeClient(() => Promise.resolve(tokens(1)), new Set());
      expect(await resume(client, '/svc/pkgscan')).toBeNull();
      expect(client.calls).toEqual([]);
      await login(client, '/svc/pkgscan', 'a@b.c', 'pw');
      expect((await resume(client, '/svc/pkgscan'))?.access_token).toBe('access-1');
      expect(client.calls).toEqual(['/svc/pkgscan/api/v1/auth/login ', 'refresh']);
      await logout(client, '/svc/pkgscan');
      expect(await resume(client, '/svc/pkgscan')).toBeNull();
      expect(client.calls.filter((c) => c === 'refresh')).toHaveLength(1);
    }));

  it('forgets the mark when the cookie is gone (a refresh refused)', () =>
    withStorage(async () => {
      const client = fakeClient(() => Promise.reject(new ApiError(401, 'unauthorized', 'no')), new Set());
      await login(client, '/svc/pkgscan', 'a@b.c', 'pw');
      expect(await resume(client, '/svc/pkgscan')).toBeNull();
      expect(await resume(client, '/svc/pkgscan')).toBeNull();
      expect(client.calls.filter((c) => c === 'refresh')).toHaveLength(1);
    }));
});
