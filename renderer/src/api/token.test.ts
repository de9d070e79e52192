// @vitest-environment jsdom
// The token's way in: preload bridge first, then the URL fragment once (moved to sessionStorage and removed), then sessionStorage.
import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_KEY, browserTokenEnvironment, resolveBridge, tokenFromUserInput, type TokenEnvironment } from './token';

const TOKEN = 'a3f9c2d1e8b7a6c5d4e3f2a1b0c9d8e7';

function fakeEnv(hash: string, stored: string | null = null, bridge?: unknown) {
  const storage = new Map<string, string>();
  if (stored !== null) storage.set(TOKEN_KEY, stored);
  const replaced: string[] = [];
  const env: TokenEnvironment = {
    location: { hash, pathname: '/', search: '', origin: 'http://127.0.0.1:4100' },
    history: { state: null, replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
    bridge,
  };
  return { env, storage, replaced };
}

describe('resolveBridge', () => {
  it('prefers the preload bridge', () => {
    const { env, replaced } = fakeEnv(`#token=${TOKEN}`, null, { apiBase: 'http://127.0.0.1:9', token: 'b'.repeat(32) });
    expect(resolveBridge(env)).toEqual({ apiBase: 'http://127.0.0.1:9', token: 'b'.repeat(32), source: 'bridge' });
    expect(replaced).toEqual([]);
  });

  it('reads the fragment once, keeps the token in sessionStorage and removes the fragment', () => {
    const { env, storage, replaced } = fakeEnv(`#token=${TOKEN}`);
    expect(resolveBridge(env)).toEqual({ apiBase: 'http://127.0.0.1:4100', token: TOKEN, source: 'fragment' });
    expect(storage.get(TOKEN_KEY)).toBe(TOKEN);
    expect(replaced).toEqual(['/']);
  });

  it('keeps other fragment parameters when removing the token', () => {
    const { env, replaced } = fakeEnv(`#token=${TOKEN}&ws=caseassess`);
    resolveBridge(env);
    expect(replaced).toEqual(['/#ws=caseassess']);
  });

  it('falls back to sessionStorage after a reload (no fragment)', () => {
    const { env } = fakeEnv('', TOKEN);
    expect(resolveBridge(env)).toEqual({ apiBase: 'http://127.0.0.1:4100', token: TOKEN, source: 'session' });
  });

  it('removes a malformed fragment token without keeping it', () => {
    const { env, storage, replaced } = fakeEnv('#token=<script>');
    expect(resolveBridge(env)).toBeUndefined();
    expect(storage.has(TOKEN_KEY)).toBe(false);
    expect(replaced).toEqual(['/']);
  });

  it('returns undefined when there is no token anywhere', () => {
    const { env, replaced } = fakeEnv('#section');
    expect(resolveBridge(env)).toBeUndefined();
    expect(replaced).toEqual([]);
  });

  it('ignores a bridge without a usable token', () => {
    const { env } = fakeEnv('', TOKEN, { apiBase: 'http://x', token: '' });
    expect(resolveBridge(env)?.source).toBe('session');
  });

  it('works against the real jsdom location, history and sessionStorage', () => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', `/?x=1#token=${TOKEN}`);
    const got = resolveBridge(browserTokenEnvironment());
    expect(got?.token).toBe(TOKEN);
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?x=1');
    expect(window.sessionStorage.getItem(TOKEN_KEY)).toBe(TOKEN);
  });
});

describe('tokenFromUserInput', () => {
  beforeEach(() => window.sessionStorage.clear());

  it('accepts the printed address or the bare token', () => {
    expect(tokenFromUserInput(`  http://127.0.0.1:4100/#token=${TOKEN} `)).toBe(TOKEN);
    expect(tokenFromUserInput(TOKEN)).toBe(TOKEN);
  });

  it('refuses text that is neither', () => {
    expect(tokenFromUserInput('hello world')).toBeUndefined();
    expect(tokenFromUserInput('http://127.0.0.1:4100/')).toBeUndefined();
    expect(tokenFromUserInput('')).toBeUndefined();
  });
});
